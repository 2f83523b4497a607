//! 3x3 shapes around an empty point: the hane, cut and edge shapes of MoGo's playout
//! policy (Gelly et al., 2006), compiled once into a table indexed by the eight
//! neighbours' contents, so that asking "is this a good-shape move?" costs a lookup.

use std::sync::OnceLock;

use super::board::{Board, Cell, Vertex};

/// The eight cells around a point, two bits each (the [`Cell`] values), row by row from
/// the top left: bits 0–1 the upper left, 14–15 the lower right.
pub type Code = u16;

/// The shapes, centre = the move, for either colour (X one, O the other). `.` empty,
/// `X`/`O` a stone, `x` anything but an X stone or the edge, `o` the same for O,
/// ` ` the edge, `?` anything.
const SHAPES: [[&[u8; 3]; 3]; 13] = [
    // Hane: enclosing, non-cutting, magari; the diagonal attachment.
    [b"XOX", b"...", b"???"],
    [b"XO.", b"...", b"?.?"],
    [b"XO?", b"X..", b"x.?"],
    [b".O.", b"X..", b"..."],
    // Cuts: unprotected, peeped, the second cut, the knight's-move cut.
    [b"XO?", b"O.x", b"?x?"],
    [b"XO?", b"O.X", b"???"],
    [b"?X?", b"O.O", b"ooo"],
    [b"OX?", b"o.O", b"???"],
    // On the edge: chase, block the cut, block the connection, sagari, cut.
    [b"X.?", b"O.?", b"   "],
    [b"OX?", b"X.O", b"   "],
    [b"?X?", b"x.O", b"   "],
    [b"?XO", b"x.x", b"   "],
    [b"?OX", b"X.O", b"   "],
];

/// The cells a shape cell (`want`, X standing for the colour `x`) accepts, as a set of
/// [`Cell`] values (bit `c` for the value `c`).
fn accepts(want: u8, x: Cell) -> u8 {
    let o = if x == Cell::Black {
        Cell::White
    } else {
        Cell::Black
    };
    let bit = |c: Cell| 1u8 << (c as u8);
    match want {
        b'?' => 0b1111,
        b'.' => bit(Cell::Empty),
        b' ' => bit(Cell::Wall),
        b'X' => bit(x),
        b'O' => bit(o),
        b'x' => bit(Cell::Empty) | bit(o),
        b'o' => bit(Cell::Empty) | bit(x),
        _ => 0,
    }
}

/// Where the cell `dr` rows and `dc` columns from the centre goes under symmetry `sym`
/// of the square (bit 0 mirrors the columns, bit 1 the rows, bit 2 transposes).
pub(super) fn symmetric(mut dr: i32, mut dc: i32, sym: usize) -> (i32, i32) {
    if sym & 1 != 0 {
        dc = -dc;
    }
    if sym & 2 != 0 {
        dr = -dr;
    }
    if sym & 4 != 0 {
        std::mem::swap(&mut dr, &mut dc);
    }
    (dr, dc)
}

/// Sets the bit of every code the shape shows under symmetry `sym` (bit 0 mirrors the
/// columns, bit 1 the rows, bit 2 transposes) with X as `x`.
fn mark(t: &mut Table, shape: &[&[u8; 3]; 3], sym: usize, x: Cell) {
    // What each of the eight code positions accepts.
    let mut sets = [0u8; 8];
    for (r, row) in shape.iter().enumerate() {
        for (c, &want) in row.iter().enumerate() {
            if r == 1 && c == 1 {
                continue;
            }
            let (dr, dc) = symmetric(r as i32 - 1, c as i32 - 1, sym);
            let i = ((dr + 1) * 3 + dc + 1) as usize;
            sets[if i > 4 { i - 1 } else { i }] = accepts(want, x);
        }
    }
    // Every code whose cells all lie in their sets: count through them like an odometer
    // whose wheels skip the values their set refuses.
    if sets.contains(&0) {
        return;
    }
    let first = |set: u8| set.trailing_zeros() as u8;
    let mut digit = sets.map(first);
    'codes: loop {
        let code = digit
            .iter()
            .enumerate()
            .fold(0usize, |code, (i, &d)| code | (d as usize) << (2 * i));
        t.0[code >> 6] |= 1 << (code & 63);
        for (d, &set) in digit.iter_mut().zip(&sets) {
            let higher = set & !((2u8 << *d) - 1);
            if higher != 0 {
                *d = first(higher);
                continue 'codes;
            }
            *d = first(set);
        }
        break;
    }
}

/// One bit per code.
struct Table([u64; 1 << 10]);

fn table() -> &'static Table {
    static TABLE: OnceLock<Box<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new(Table([0; 1 << 10]));
        for shape in &SHAPES {
            for sym in 0..8 {
                for x in [Cell::Black, Cell::White] {
                    mark(&mut t, shape, sym, x);
                }
            }
        }
        t
    })
}

/// The shapes as the playout policy reads them.
#[derive(Clone, Copy)]
pub struct Shapes(&'static Table);

impl Default for Shapes {
    fn default() -> Shapes {
        Shapes(table())
    }
}

impl Shapes {
    /// Whether playing the empty point `v` makes one of the shapes.
    #[inline]
    pub fn good(&self, board: &Board, v: Vertex) -> bool {
        let code = board.code3(v);
        self.0.0[code as usize >> 6] & (1 << (code & 63)) != 0
    }
}

/// The cell of a code at row `r`, column `c` of the 3x3 square (the centre excluded).
#[cfg(test)]
fn cell_at(code: Code, r: usize, c: usize) -> Cell {
    let i = r * 3 + c;
    let i = if i > 4 { i - 1 } else { i };
    match (code >> (2 * i)) & 3 {
        0 => Cell::Empty,
        1 => Cell::Black,
        2 => Cell::White,
        _ => Cell::Wall,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(diagram: &str, x: usize, y: usize) -> bool {
        let b = Board::from_diagram(diagram).unwrap();
        Shapes::default().good(&b, b.vertex(x, y).unwrap())
    }

    #[test]
    fn hane_and_cut_match_in_every_orientation_and_colour() {
        // The enclosing hane below the O stone, and its mirror images.
        assert!(at("X O X\n. . .\n. . .", 1, 1));
        assert!(at(". . .\n. . .\nO X O", 1, 1));
        assert!(at("X . .\nO . .\nX . .", 1, 1));
        // A cut: X and O stones diagonal, the point between them.
        assert!(at(". X O .\n. O . .\n. . . .\n. . . .", 2, 1));
    }

    /// The table against a direct reading of the shapes: every turned and mirrored copy
    /// of each shape's text compared cell by cell with a sample of codes.
    #[test]
    fn the_table_holds_exactly_the_codes_that_show_a_shape() {
        let turn = |g: [[u8; 3]; 3]| std::array::from_fn(|r| std::array::from_fn(|c| g[2 - c][r]));
        let mirror = |g: [[u8; 3]; 3]| g.map(|row| [row[2], row[1], row[0]]);
        let mut copies: Vec<[[u8; 3]; 3]> = Vec::new();
        for shape in &SHAPES {
            let mut g = shape.map(|row| *row);
            for _ in 0..4 {
                g = turn(g);
                copies.push(g);
                copies.push(mirror(g));
            }
        }
        let shows = |code: u16| {
            copies.iter().any(|g| {
                [Cell::Black, Cell::White].into_iter().any(|x| {
                    (0..9).filter(|&i| i != 4).all(|i| {
                        let cell = cell_at(code, i / 3, i % 3);
                        accepts(g[i / 3][i % 3], x) & (1 << cell as u8) != 0
                    })
                })
            })
        };
        let t = table();
        let mut shapes = 0;
        for code in (0..=u16::MAX).step_by(7) {
            let marked = t.0[code as usize >> 6] & (1 << (code & 63)) != 0;
            assert_eq!(marked, shows(code), "code {code:#06x}");
            shapes += marked as usize;
        }
        assert!(shapes > 100, "{shapes} shapes in the sample");
    }

    #[test]
    fn empty_space_and_a_lone_stone_are_not_shapes() {
        assert!(!at(". . .\n. . .\n. . .", 1, 1));
        assert!(!at(". . . .\n. X . .\n. . . .\n. . . .", 2, 2));
    }

    #[test]
    fn edge_shapes_need_the_edge() {
        // Side chase: X above-left, O left, the edge below.
        assert!(at(". . .\nX . .\nO . .", 1, 2));
        assert!(!at(". . . .\nX . . .\nO . . .\nO . . .", 1, 2));
    }
}
