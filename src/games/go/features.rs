//! What the learned Go prior sees of a move: its 3x3 shape and its 12- to 36-point
//! spatial shapes (turned, mirrored and coloured to the mover's view), the
//! captures, escapes, self-ataris and ataris it makes, its distances to the last two
//! moves and where it lies on the board; on a big board its place and the spatial shapes
//! that see no edge are its own, not the 9x9 games'. The trainer
//! (`bench/go_prior_train.rs`) and the search read moves through this one function, so
//! the weights fit exactly what the search looks up.

use std::sync::OnceLock;

use super::board::{Board, Cell, PASS, Vertex};
use super::{pattern, prior_weights, tactics};

/// The feature groups; a move has one value in each.
pub const SHAPE: usize = 0;
pub const CAPTURE: usize = 1;
pub const ESCAPE: usize = 2;
pub const SELF_ATARI: usize = 3;
pub const ATARI: usize = 4;
pub const LAST: usize = 5;
pub const LAST2: usize = 6;
pub const PLACE: usize = 7;
/// The twelve points within two steps of the move, turned, mirrored and coloured to the
/// mover's view, hashed to 16 bits.
pub const LARGE: usize = 8;
/// The twenty points of the large shape and the knight's moves around the move, seen the
/// same way.
pub const WIDE: usize = 9;
/// The 28 points to gridcular distance 6 (the wide shape, the four points two away
/// diagonally and three away along the lines), seen the same way.
pub const WIDER: usize = 10;
/// The 36 points to gridcular distance 7 (the wider shape and the points one and three
/// away), seen the same way.
pub const WIDEST: usize = 11;
pub const GROUPS: usize = 12;

/// The groups whose values are codes, of which only those played often get a gamma of
/// their own (the rest share one); the other groups have a gamma for every value.
pub const SPARSE: [usize; 5] = [SHAPE, LARGE, WIDE, WIDER, WIDEST];
/// The names of the [`SPARSE`] groups, in its order (the trainer's `--min-played-for`).
pub const SPARSE_NAMES: [&str; SPARSE.len()] = ["shape", "large", "wide", "wider", "widest"];

/// The [`ATARI`] value of a move whose atari starts a ladder that captures (0: no
/// atari, 1: another atari).
pub const LADDER_ATARI: u16 = 2;

/// How many values each group but the shape has (the shape's value is its canonical
/// 3x3 code, up to 65535).
pub const VALUES: [usize; GROUPS] = [
    1 << 16,
    5,
    3,
    3,
    3,
    DISTANCES,
    DISTANCES,
    // Small and big boards, each closed and open.
    2 * 2 * PLACES,
    1 << 16,
    1 << 16,
    1 << 16,
    1 << 16,
];
/// Distance classes to an earlier move: none (a pass or the start), then Coulom's
/// distance dx + dy + max(dx, dy) as 2, 3, … 8, 9–10, 11–13, 14–17, 18 and more.
const DISTANCES: usize = 12;
/// (nearest edge's line, farthest edge's line) pairs, lines counted 0..=6 from the edge.
const PLACES: usize = 7 * 7;
/// The smallest big board: its places and the spatial shapes that see no edge have gammas
/// apart from the small boards' (on 9x9 the fifth line is the centre, on 19x19 a line the
/// opening rarely plays, and gammas shared between them let the 9x9 games pull 19x19
/// openings off the third and fourth lines; README, issue 16), and the search weighs the
/// learned prior by it.
pub const BIG_BOARD: usize = 13;

/// A move's value in every group.
pub type Features = [u16; GROUPS];

/// The features of the side to move's move `v` (a legal move, not a pass).
pub fn features(b: &Board, v: Vertex) -> Features {
    let me = Cell::of(b.to_move());
    let last = b.last_move();
    let mut captured = 0u16;
    let mut of_last = false;
    let mut escape = 0u16;
    let mut atari = 0u16;
    let mut libs = [PASS; 3];
    for n in Board::neighbours(v) {
        match b.cell(n) {
            Cell::Empty | Cell::Wall => {}
            c if c == me => {
                if b.atari_liberty(n) == Some(v) {
                    escape = escape.max(if b.chain_stones(n) == 1 { 1 } else { 2 });
                }
            }
            _ => {
                if b.atari_liberty(n) == Some(v) {
                    // A chain touching v on two sides is counted once.
                    if !Board::neighbours(v)
                        .into_iter()
                        .take_while(|&m| m != n)
                        .any(|m| b.cell(m) == b.cell(n) && b.chain(m) == b.chain(n))
                    {
                        captured += b.chain_stones(n);
                    }
                    of_last |=
                        last != PASS && b.cell(last) != Cell::Empty && b.chain(last) == b.chain(n);
                } else if atari == 0 && b.pseudo_liberties(n) <= 8 && b.liberties(n, &mut libs) == 2
                {
                    atari = 1;
                }
            }
        }
    }
    if atari == 1 && tactics::ladder_atari(b, v, b.to_move()) {
        atari = LADDER_ATARI;
    }
    let capture = match (captured, of_last) {
        (0, _) => 0,
        (1..=2, false) => 1,
        (_, false) => 2,
        (1..=2, true) => 3,
        (_, true) => 4,
    };
    let self_atari = if captured > 0 {
        0
    } else {
        match tactics::self_atari_stones(b, v) {
            None => 0,
            Some(1..=2) => 1,
            Some(_) => 2,
        }
    };
    let [large, wide, wider, widest] = spatial_shapes(b, v, me);
    [
        canonical(b.code3(v), me),
        capture,
        escape,
        self_atari,
        atari,
        distance(v, last),
        distance(v, b.second_last_move()),
        place(b, v),
        large,
        wide,
        wider,
        widest,
    ]
}

/// The points of the spatial shapes, as (columns, rows) from the move, ring by ring of
/// Pachi's gridcular distance dx + dy + max(dx, dy): the first 12 (up to 4: the 3x3 and
/// the four points two away along the lines) are the large shape, the first 20 (up to 5:
/// and the knight's moves) the wide one, the first 28 (up to 6: and the points two away
/// diagonally and three along the lines) the wider one, all 36 (up to 7: and the points
/// one and three away) the widest. Each ring maps onto itself under the turns and
/// mirrors, so a shape's code is the low bits of the next one's.
const SPATIAL_POINTS: [(i32, i32); 36] = [
    (0, -2),
    (-1, -1),
    (0, -1),
    (1, -1),
    (-2, 0),
    (-1, 0),
    (1, 0),
    (2, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (0, 2),
    (-1, -2),
    (1, -2),
    (-2, -1),
    (2, -1),
    (-2, 1),
    (2, 1),
    (-1, 2),
    (1, 2),
    (-2, -2),
    (2, -2),
    (-2, 2),
    (2, 2),
    (0, -3),
    (0, 3),
    (-3, 0),
    (3, 0),
    (-1, -3),
    (1, -3),
    (-3, -1),
    (3, -1),
    (-3, 1),
    (3, 1),
    (-1, 3),
    (1, 3),
];

/// How many of [`SPATIAL_POINTS`] the large, wide, wider and widest shapes hold.
const SPATIAL_SIZES: [usize; 4] = [12, 20, 28, 36];

/// The move's [`LARGE`], [`WIDE`], [`WIDER`] and [`WIDEST`] values: for each shape the
/// least code among the eight turns and mirrors (2 bits a point: empty, the mover's, the
/// other's, off the board), hashed to 16 bits. A shape that sees no edge on a big board
/// ([`BIG_BOARD`]) has codes of its own: on 9x9 only the few points round the centre see
/// no edge, and a gamma shared with them made approaches from the fifth line look good
/// in 19x19 openings (README, issue 16). Shapes that see an edge are shared.
fn spatial_shapes(b: &Board, v: Vertex, me: Cell) -> [u16; 4] {
    static PERMS: OnceLock<[[usize; 36]; 8]> = OnceLock::new();
    let perms = PERMS.get_or_init(|| perms_of(&SPATIAL_POINTS));
    let size = b.size() as i32;
    let (x, y) = Board::xy(v);
    let mut cells = [0u128; 36];
    for (c, &(dx, dy)) in cells.iter_mut().zip(&SPATIAL_POINTS) {
        let (xx, yy) = (x as i32 + dx, y as i32 + dy);
        *c = if xx < 0 || yy < 0 || xx >= size || yy >= size {
            3
        } else {
            match b.cell(Board::vertex_of(xx as usize, yy as usize)) {
                Cell::Empty => 0,
                Cell::Wall => 3,
                c if c == me => 1,
                _ => 2,
            }
        };
    }
    let turned: [u128; 8] = std::array::from_fn(|sym| {
        cells
            .iter()
            .zip(&perms[sym])
            .fold(0u128, |t, (&c, &to)| t | c << (2 * to))
    });
    let first_edge = cells.iter().position(|&c| c == 3).unwrap_or(cells.len());
    let big = b.size() >= BIG_BOARD;
    SPATIAL_SIZES.map(|n| {
        let mask = (1u128 << (2 * n)) - 1;
        let mut code = turned.iter().map(|&t| t & mask).min().unwrap_or(0);
        if big && first_edge >= n {
            // Above every point's two bits, so no 9x9 code can equal it.
            code |= 1 << 127;
        }
        // The high half is zero up to 32 points (but for the big boards' bit), so the
        // smaller shapes hash as they did when their codes were 64 bits.
        let folded = code as u64 ^ ((code >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as u16
    })
}

/// Where each of `points` goes under each of the eight symmetries.
fn perms_of<const N: usize>(points: &[(i32, i32); N]) -> [[usize; N]; 8] {
    std::array::from_fn(|sym| {
        std::array::from_fn(|i| {
            let (dx, dy) = points[i];
            let (r, c) = pattern::symmetric(dy, dx, sym);
            points
                .iter()
                .position(|&o| o == (c, r))
                .expect("the shape is symmetric")
        })
    })
}

/// The learned prior's strength of a move with features `f`: the product of their
/// gammas (a move twice as strong is twice as likely to be the one a strong player
/// picks among the same moves).
pub fn strength(f: &Features) -> f32 {
    let mut s: f32 = SPARSE
        .iter()
        .zip(sparse_gammas())
        .map(|(&g, gammas)| gammas[f[g] as usize])
        .product();
    for (g, gammas) in prior_weights::GROUPS.iter().enumerate() {
        s *= gammas[f[g + 1] as usize];
    }
    s
}

/// Each sparse group's gamma for every 16-bit code, in the order of [`SPARSE`].
fn sparse_gammas() -> &'static [Vec<f32>; SPARSE.len()] {
    static TABLES: OnceLock<[Vec<f32>; SPARSE.len()]> = OnceLock::new();
    TABLES.get_or_init(|| prior_weights::SPARSE.map(|(other, listed)| gamma_table(other, listed)))
}

/// A sparse group's gamma for every 16-bit code: `listed` where it has one, else
/// `other`.
fn gamma_table(other: f32, listed: &[(u16, f32)]) -> Vec<f32> {
    let mut t = vec![other; 1 << 16];
    for &(code, gamma) in listed {
        t[code as usize] = gamma;
    }
    t
}

/// The distance class of `v` from an earlier move `m`.
fn distance(v: Vertex, m: Vertex) -> u16 {
    if m == PASS {
        return 0;
    }
    let (x, y) = Board::xy(v);
    let (mx, my) = Board::xy(m);
    let (dx, dy) = (x.abs_diff(mx), y.abs_diff(my));
    match dx + dy + dx.max(dy) {
        d @ 0..=8 => (d.max(2) - 1) as u16,
        9..=10 => 8,
        11..=13 => 9,
        14..=17 => 10,
        _ => 11,
    }
}

/// Where `v` lies: its lines from the two nearest edges, whether the board within two
/// points of it is empty (an open corner or side, which the opening fights for), and
/// whether the board is big ([`BIG_BOARD`]).
fn place(b: &Board, v: Vertex) -> u16 {
    let size = b.size();
    let (x, y) = Board::xy(v);
    let (lx, ly) = (x.min(size - 1 - x).min(6), y.min(size - 1 - y).min(6));
    let (near, far) = (lx.min(ly), lx.max(ly));
    let open = (y.saturating_sub(2)..=(y + 2).min(size - 1)).all(|yy| {
        (x.saturating_sub(2)..=(x + 2).min(size - 1))
            .all(|xx| b.cell(Board::vertex_of(xx, yy)) == Cell::Empty)
    });
    let big = size >= BIG_BOARD;
    ((near * 7 + far) + (open as usize + 2 * big as usize) * PLACES) as u16
}

/// The canonical form of a 3x3 code seen by the player of `me`: colours swapped so
/// that the mover's stones read as black, then the least code among the eight turns
/// and mirrors.
pub fn canonical(code: u16, me: Cell) -> u16 {
    let code = if me == Cell::White {
        swap_colours(code)
    } else {
        code
    };
    canonical_table()[code as usize]
}

/// A code with black and white exchanged (empty and edge stay).
fn swap_colours(code: u16) -> u16 {
    let lo = code & 0x5555;
    let hi = (code >> 1) & 0x5555;
    // A cell with exactly one bit set holds a stone: flip both its bits.
    code ^ ((lo ^ hi) * 3)
}

fn canonical_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // Where each of the eight cells goes under each symmetry.
        let offsets: [(i32, i32); 8] = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        let perms: Vec<[usize; 8]> = (0..8)
            .map(|sym| {
                std::array::from_fn(|i| {
                    let turned = pattern::symmetric(offsets[i].0, offsets[i].1, sym);
                    offsets
                        .iter()
                        .position(|&o| o == turned)
                        .expect("a neighbour")
                })
            })
            .collect();
        (0..=u16::MAX)
            .map(|code| {
                perms
                    .iter()
                    .map(|perm| {
                        (0..8).fold(0u16, |t, i| t | ((code >> (2 * i)) & 3) << (2 * perm[i]))
                    })
                    .min()
                    .expect("eight symmetries")
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;

    #[test]
    fn the_weights_have_a_gamma_for_every_value() {
        for (g, gammas) in prior_weights::GROUPS.iter().enumerate() {
            assert!(!SPARSE.contains(&(g + 1)), "the dense groups come first");
            assert_eq!(gammas.len(), VALUES[g + 1], "group {}", g + 1);
            assert!(gammas.iter().all(|&x| x.is_finite() && x > 0.0));
        }
        let (_, shapes) = prior_weights::SPARSE[0];
        assert!(shapes.iter().all(|&(c, _)| canonical(c, Cell::Black) == c));
        for (other, listed) in prior_weights::SPARSE {
            assert!(listed.windows(2).all(|w| w[0].0 < w[1].0), "by code");
            assert!(
                listed
                    .iter()
                    .map(|&(_, g)| g)
                    .chain([other])
                    .all(|g| g.is_finite() && g > 0.0)
            );
        }
    }

    fn board(diagram: &str) -> Board {
        Board::from_diagram(diagram).unwrap()
    }

    /// An empty `size` board with black stones at `(x, y)`, black to move.
    fn with_stones(size: usize, stones: &[(usize, usize)]) -> Board {
        let mut rows = vec![vec!["."; size]; size];
        for &(x, y) in stones {
            rows[y][x] = "X";
        }
        let text: Vec<String> = rows.iter().map(|r| r.join(" ")).collect();
        board(&text.join("\n"))
    }

    #[test]
    fn a_shape_reads_the_same_turned_mirrored_and_in_the_other_colour() {
        // A hane: X above-left, O above, the move below O. Turned a quarter, mirrored,
        // and with the colours exchanged and white to move, it is one shape.
        let a = board(". . . .\n. X O .\n. . . .\n. . . .");
        let b = board(". . . .\n. . X .\n. . O .\n. . . .");
        let mut c = board(". . . .\n. O X .\n. . . .\n. . . .");
        c.set_to_move(Color::White);
        let at =
            |b: &Board, x, y| canonical(b.code3(b.vertex(x, y).unwrap()), Cell::of(b.to_move()));
        assert_eq!(at(&a, 2, 2), at(&b, 1, 2));
        assert_eq!(at(&a, 2, 2), at(&c, 2, 2));
        // The same point for the other colour is another shape (a stone of its own above).
        let mut d = a.clone();
        d.set_to_move(Color::White);
        assert_ne!(at(&a, 2, 2), at(&d, 2, 2));
    }

    #[test]
    fn a_large_shape_reads_the_same_turned_mirrored_and_in_the_other_colour() {
        // X two points above the move, O to its left; turned a quarter and mirrored, and
        // with the colours exchanged and white to move.
        let a = board(". . X . .\n. . . . .\n. O . . .\n. . . . .\n. . . . .");
        let b = board(". . . . .\n. . . . .\n. . . . X\n. . O . .\n. . . . .");
        let mut c = board(". . O . .\n. . . . .\n. X . . .\n. . . . .\n. . . . .");
        c.set_to_move(Color::White);
        let at = |b: &Board, x, y| features(b, b.vertex(x, y).unwrap())[LARGE];
        assert_eq!(at(&a, 2, 2), at(&b, 2, 2));
        assert_eq!(at(&a, 2, 2), at(&c, 2, 2));
        // The 3x3 shape alone cannot see the stone two points away; the large one can.
        let d = board(". . . . .\n. . . . .\n. O . . .\n. . . . .\n. . . . .");
        assert_eq!(
            features(&a, a.vertex(2, 2).unwrap())[SHAPE],
            features(&d, d.vertex(2, 2).unwrap())[SHAPE]
        );
        assert_ne!(at(&a, 2, 2), at(&d, 2, 2));
    }

    #[test]
    fn a_wide_shape_sees_the_knights_move_the_large_one_does_not() {
        // X a knight's move from the move (two up, one left); turned a quarter and
        // mirrored, and with the colours exchanged and white to move, it is one shape.
        let a = board(". X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .");
        let b = board(". . . . .\n. . . . .\n. . . . .\n. . . . X\n. . . . .");
        let mut c = board(". O . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .");
        c.set_to_move(Color::White);
        let at = |b: &Board, g| features(b, b.vertex(2, 2).unwrap())[g];
        assert_eq!(at(&a, WIDE), at(&b, WIDE));
        assert_eq!(at(&a, WIDE), at(&c, WIDE));
        let empty = board(&". . . . .\n".repeat(5));
        assert_eq!(at(&a, LARGE), at(&empty, LARGE), "outside the large shape");
        assert_ne!(at(&a, WIDE), at(&empty, WIDE));
        // The wide shape holds the large one: a stone two points away changes both.
        let d = board(". . X . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .");
        assert_ne!(at(&d, LARGE), at(&empty, LARGE));
        assert_ne!(at(&d, WIDE), at(&empty, WIDE));
        assert_ne!(at(&d, WIDE), at(&a, WIDE));
        assert_ne!(at(&a, WIDER), at(&d, WIDER));
    }

    #[test]
    fn a_wider_shape_sees_three_points_along_a_line() {
        // X three points above the move: only the wider shape sees it; turned, it is
        // the same wider shape.
        let a = board(&format!(
            "{}{}",
            ". . . X . . .\n",
            ". . . . . . .\n".repeat(6)
        ));
        let b = board(&format!(
            "{}{}{}",
            ". . . . . . .\n".repeat(3),
            ". . . . . . X\n",
            ". . . . . . .\n".repeat(3)
        ));
        let empty = board(&". . . . . . .\n".repeat(7));
        let at = |b: &Board, g| features(b, b.vertex(3, 3).unwrap())[g];
        assert_eq!(at(&a, WIDE), at(&empty, WIDE), "outside the wide shape");
        assert_ne!(at(&a, WIDER), at(&empty, WIDER));
        assert_eq!(at(&a, WIDER), at(&b, WIDER));
    }

    #[test]
    fn big_boards_have_their_own_shapes_only_where_no_edge_is_seen() {
        // A stone a knight's move from the move: on 9x9 round the centre, on 19x19 on
        // the fifth line (no edge within any shape) and in the corner (edges seen).
        let at = |size: usize, (x, y): (usize, usize), stone: (usize, usize)| {
            let b = with_stones(size, &[stone]);
            features(&b, b.vertex(x, y).unwrap())
        };
        let small = at(9, (4, 4), (5, 2));
        let fifth = at(19, (4, 4), (5, 2));
        for g in [LARGE, WIDE, WIDER, WIDEST] {
            assert_ne!(
                small[g], fifth[g],
                "group {g}: 9x9 centre and 19x19 fifth line"
            );
        }
        assert_eq!(small[SHAPE], fifth[SHAPE], "the 3x3 shape is shared");
        // The 3-3 point sees the edge three points away in the wider and widest shapes
        // only: those are shared, the smaller shapes that see no edge are not.
        let small_corner = at(9, (2, 2), (3, 0));
        let big_corner = at(19, (2, 2), (3, 0));
        for g in [WIDER, WIDEST] {
            assert_eq!(small_corner[g], big_corner[g], "group {g} sees the edge");
        }
        for g in [LARGE, WIDE] {
            assert_ne!(small_corner[g], big_corner[g], "group {g} sees no edge");
        }
    }

    #[test]
    fn the_widest_shape_sees_one_across_and_three_up() {
        // On a 9x9 board, around the centre (4, 4): a stone one across and three up is
        // in ring 7 (1 + 3 + 3), one four up in ring 8 (0 + 4 + 4), which no shape sees.
        let with = |stones: &[(usize, usize)]| {
            let b = with_stones(9, stones);
            features(&b, b.vertex(4, 4).unwrap())
        };
        let empty = with(&[]);
        let ring7 = with(&[(5, 1)]);
        assert_eq!(ring7[WIDER], empty[WIDER], "outside the wider shape");
        assert_ne!(ring7[WIDEST], empty[WIDEST]);
        assert_eq!(with(&[(4, 0)]), empty, "outside every shape");
        // Turned a quarter and mirrored: (5, 1) is (7, 5) turned, (3, 1) its mirror; in
        // the other colour with white to move, the same shape.
        assert_eq!(with(&[(7, 5)])[WIDEST], ring7[WIDEST]);
        assert_eq!(with(&[(3, 1)])[WIDEST], ring7[WIDEST]);
        let b = board(&format!(
            "{}. . . . . O . . .\n{}",
            ". . . . . . . . .\n",
            ". . . . . . . . .\n".repeat(7)
        ));
        let mut w = b.clone();
        w.set_to_move(Color::White);
        assert_eq!(features(&w, w.vertex(4, 4).unwrap())[WIDEST], ring7[WIDEST]);
        assert_ne!(features(&b, b.vertex(4, 4).unwrap())[WIDEST], ring7[WIDEST]);
    }

    #[test]
    fn captures_ataris_and_places_are_told_apart() {
        // White's stone at B2 (x 1, y 1) is in atari: black's C2 takes it, and it is the
        // last move.
        let mut b = board(". . . . .\n. X . . .\nX O . . .\n. X . . .\n. . . . .");
        b.set_to_move(Color::White);
        b.play(b.vertex(4, 4).unwrap());
        let f = features(&b, b.vertex(2, 2).unwrap());
        assert_eq!(f[CAPTURE], 1, "a one-stone capture of an older stone");
        assert_eq!(f[ESCAPE], 0);
        // The corner point is on the first line, the board around it not empty.
        let corner = features(&b, b.vertex(0, 0).unwrap());
        assert_eq!(corner[PLACE] as usize, 0);
        // A point two lines in with nothing near it is an open place.
        let e = board(&". . . . . . . . .\n".repeat(9));
        let open = features(&e, e.vertex(3, 2).unwrap());
        assert_eq!(open[PLACE] as usize, 2 * 7 + 3 + PLACES);
        assert_eq!(open[LAST], 0, "no last move yet");
        // The same point on 19x19 has a place of its own: the 9x9 games don't set it.
        let e = board(&". . . . . . . . . . . . . . . . . . .\n".repeat(19));
        let big = features(&e, e.vertex(3, 2).unwrap());
        assert_eq!(big[PLACE] as usize, 2 * 7 + 3 + 3 * PLACES);
        assert!((big[PLACE] as usize) < VALUES[PLACE]);
    }
}
