//! Go for the tree search: priors for a node's moves and the playout policy (capture
//! the last move's chain when it is in atari, save our chains it put in atari, answer
//! near the last move, otherwise a random move that neither fills an own eye nor
//! throws a chain into atari), scored by area at the end.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::{Game, Move, Params};
use crate::core::{Color, Key};
use crate::games::go::board::CELLS;
use crate::games::go::features;
use crate::games::go::pattern::Shapes;
use crate::games::go::tactics;
use crate::games::go::{Board, Cell, PASS, Vertex};

/// How far the learned prior moves the hand-set one, from its weakest move to its
/// strongest.
const LEARNED_WEIGHT: f32 = 0.25;
/// The same on small boards (under [`features::BIG_BOARD`]), where most of the model's
/// games were played and its spatial shapes know the most. Against Pachi at equal
/// playouts (9x9, README, issue 16) the model with the wide and wider shapes scored at
/// 0.5 47.5% in 320 games beside 0.15.7's 34.7% (+12.8 ± 7.3 points; 0.35 47.1% in 120,
/// 0.75 46.7% in 240); the model before it, at 0.25, 0.5, 0.75, 1.0: 32.9%, 38.5%,
/// 35.4%, 27.1%. On 19x19 0.5 lost 11-19 in self-play to 0.25 (0.15.7's model). 0.15.9's
/// model (the widest shape, big boards' own places and open shapes) at 0.5, not swept
/// again: see the README.
const LEARNED_WEIGHT_SMALL: f32 = 0.5;
/// The same in the opening of a big board (fewer stones than two lines' worth), where
/// the hand-set tactics have nothing to say and the playouts cannot tell a corner from
/// the centre: the learned prior's share of the opening's knowledge.
const OPENING_LEARNED_WEIGHT: f32 = 0.6;

/// A Go position as the search plays it: the board, komi (white's points, handicap
/// compensation included), and for the root the keys superko forbids.
#[derive(Clone)]
pub struct GoState {
    pub board: Board,
    pub komi: f32,
    pub suicide: bool,
    /// Positions the root's moves may not recreate (empty: no superko check).
    pub forbidden: std::sync::Arc<Vec<Key>>,
    /// Moves played since the root (superko is checked only at the root).
    depth: u32,
    shapes: Shapes,
    /// The last playout stopped early by the mercy rule.
    mercy: bool,
}

impl GoState {
    pub fn new(board: Board, komi: f32, suicide: bool, forbidden: Vec<Key>) -> GoState {
        GoState {
            board,
            komi,
            suicide,
            forbidden: std::sync::Arc::new(forbidden),
            depth: 0,
            shapes: Shapes::default(),
            mercy: false,
        }
    }

    /// Black's area score minus white's, komi included, counting every stone on the
    /// board as alive and an empty point for the colour of all its neighbours (after a
    /// playout every empty region is such a point or neutral).
    pub fn playout_score(&self) -> f32 {
        let b = &self.board;
        let mut s: i32 = b.empties().iter().map(|&v| empty_owner(b, v)).sum();
        s += b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
        s as f32 - self.komi
    }

    /// Whether `v` is a move the policy may play for the side to move: legal, not an
    /// own eye.
    #[inline]
    fn sensible(&self, v: Vertex) -> bool {
        // An empty neighbour rules out an eye and suicide (and a ko point has none).
        if self.board.cell(v) == Cell::Empty && self.board.empty_neighbours(v) > 0 {
            return true;
        }
        let c = self.board.to_move();
        // The eye test first: late in a playout most empty points are eyes, and it is
        // cheaper than the suicide test that would refuse many of them anyway.
        !self.board.is_eye(v, c) && self.board.check(v, c, self.suicide).is_ok()
    }

    /// Whether playing `v` puts the mover's chain there into atari without capturing.
    fn self_atari(&self, v: Vertex) -> bool {
        self.self_atari_stones(v).is_some()
    }

    /// If playing `v` puts the mover's chain into atari without capturing, the stones
    /// that chain would have.
    #[inline]
    fn self_atari_stones(&self, v: Vertex) -> Option<u16> {
        tactics::self_atari_stones(&self.board, v)
    }

    /// A liberty of our chain `at` that saves it from atari: capture a neighbouring
    /// chain in atari, or extend if that gives two liberties or more.
    fn save(&self, at: Vertex, rng: &mut SmallRng) -> Option<Vertex> {
        let b = &self.board;
        let lib = b.atari_liberty(at)?;
        // Captures of the attackers first (walk at most a few stones).
        let enemy = Cell::of(b.to_move().opposite());
        let mut s = at;
        for _ in 0..12 {
            for n in Board::neighbours(s) {
                if b.cell(n) == enemy
                    && let Some(l) = b.atari_liberty(n)
                    && self.sensible(l)
                {
                    return Some(l);
                }
            }
            s = b.next_stone(s);
            if s == at {
                break;
            }
        }
        (self.sensible(lib) && !self.self_atari(lib) && rng.random_range(0..8) != 0).then_some(lib)
    }

    /// The policy's move for the side to move.
    fn policy_move(&self, rng: &mut SmallRng) -> Vertex {
        let b = &self.board;
        let last = b.last_move();
        let me = Cell::of(b.to_move());
        if last != PASS && b.cell(last) != Cell::Empty {
            // The last stone's chain in atari: take it.
            if let Some(l) = b.atari_liberty(last)
                && self.sensible(l)
            {
                return l;
            }
            // Our chains next to it in atari: save them.
            for n in Board::neighbours(last) {
                if b.cell(n) == me
                    && let Some(v) = self.save(n, rng)
                {
                    return v;
                }
            }
            // The last stone's chain with two liberties: put it in atari (half the
            // time), from either side. (Its neighbours of its colour are that chain.)
            if rng.random_range(0..2) == 0 {
                let mut ls = [PASS; 3];
                if b.empty_neighbours(last) < 3
                    && b.pseudo_liberties(last) <= 8
                    && b.liberties(last, &mut ls) == 2
                {
                    let first = rng.random_range(0..2);
                    for l in [ls[first], ls[1 - first]] {
                        if self.sensible(l) && !self.self_atari(l) {
                            return l;
                        }
                    }
                }
            }
            // A good shape next to it: one of them at random.
            let mut shapes = [PASS; 8];
            let mut k = 0;
            for n in Board::neighbours(last)
                .into_iter()
                .chain(Board::diagonals(last))
            {
                if b.cell(n) == Cell::Empty
                    && self.shapes.good(b, n)
                    && self.sensible(n)
                    && !self.self_atari(n)
                {
                    shapes[k] = n;
                    k += 1;
                }
            }
            if k > 0 {
                return shapes[rng.random_range(0..k)];
            }
        }
        let empties = b.empties();
        let n = empties.len();
        if n == 0 {
            return PASS;
        }
        let start = rng.random_range(0..n);
        for &v in empties[start..].iter().chain(&empties[..start]) {
            if !self.sensible(v) {
                continue;
            }
            // A big chain thrown into atari is a blunder (filling a seki's shared
            // liberty is one): never. Up to three stones sometimes: a throw-in, or a
            // nakade that leaves the capturer one eye.
            match self.self_atari_stones(v) {
                None => return v,
                Some(n) if n <= 3 && rng.random_range(0..4) == 0 => return v,
                Some(_) => {}
            }
        }
        PASS
    }

    /// Whether `v` runs one of the mover's chains in atari out into a ladder that
    /// captures it anyway (reading counts a capture of a neighbour as an escape). Such
    /// a move only feeds the ladder stones; the tree never looks at it, since a low
    /// prior alone would be undone by the RAVE statistics of the playouts, which do
    /// not read ladders.
    fn futile_escape(&self, v: Vertex) -> bool {
        tactics::futile_escape(&self.board, v)
    }

    /// The hand-set part of the prior of `v` (a legal, sensible move that is no futile
    /// escape), whose features `f` say whether it is a working ladder atari or a
    /// self-atari: tactics first.
    fn prior(&self, v: Vertex, f: &features::Features) -> f32 {
        let b = &self.board;
        let me = Cell::of(b.to_move());
        let mut p: f32 = 0.5;
        for n in Board::neighbours(v) {
            match b.cell(n) {
                Cell::Empty | Cell::Wall => {}
                cell => {
                    if b.atari_liberty(n) == Some(v) {
                        let big = (b.chain_stones(n) as f32 * 0.02).min(0.15);
                        // (An escape from a working ladder never gets here: see
                        // `futile_escape`.)
                        p = p.max(if cell != me { 0.8 } else { 0.7 } + big);
                    }
                }
            }
        }
        if self.shapes.good(b, v) {
            p = p.max(0.65);
        }
        if f[features::ATARI] == features::LADDER_ATARI {
            p = p.max(0.75);
        }
        if f[features::SELF_ATARI] != 0 {
            p = p.min(0.15);
        }
        let last = b.last_move();
        if last != PASS {
            let (x, y) = Board::xy(v);
            let (lx, ly) = Board::xy(last);
            if x.abs_diff(lx) <= 2 && y.abs_diff(ly) <= 2 {
                p += 0.05;
            }
        }
        p.clamp(0.02, 0.98)
    }
}

/// Black's result from black's score: 1 win, 0 loss, 0.5 a draw.
fn black_result(score: f32) -> f32 {
    if score > 0.0 {
        1.0
    } else if score < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// The owner of an empty point at the end of a playout: +1 black, -1 white, 0 when
/// both colours or neither touch it.
fn empty_owner(b: &Board, v: Vertex) -> i32 {
    let mut seen = [false; 2];
    for n in Board::neighbours(v) {
        match b.cell(n) {
            Cell::Black => seen[0] = true,
            Cell::White => seen[1] = true,
            _ => {}
        }
    }
    match seen {
        [true, false] => 1,
        [false, true] => -1,
        _ => 0,
    }
}

impl Game for GoState {
    const MOVE_SLOTS: usize = CELLS;

    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn result(&self) -> Option<f32> {
        (self.board.passes() >= 2).then(|| black_result(self.playout_score()))
    }

    fn expand(&self, out: &mut Vec<(Move, f32)>) {
        if self.result().is_some() {
            return;
        }
        let b = &self.board;
        let first = out.len();
        // Each move's learned strength, by its place in `out` from `first` on.
        let mut strengths = [0f32; CELLS];
        for &v in b.empties() {
            if !self.sensible(v) || self.futile_escape(v) {
                continue;
            }
            if self.depth == 0 && !self.forbidden.is_empty() {
                let mut after = b.clone();
                after.play(v);
                if self.forbidden.contains(&after.key()) {
                    continue;
                }
            }
            // The features once: the learned strength and the hand-set prior's
            // ladder and self-atari tests both read them.
            let f = features::features(b, v);
            strengths[out.len() - first] = features::strength(&f);
            out.push((v as Move, self.prior(v, &f)));
        }
        // The learned strengths nudge the hand-set priors: the strongest move up by
        // half the weight, the weakest down by as much.
        let size = b.size();
        let weight = if size >= features::BIG_BOARD && b.stone_count() < 2 * size {
            OPENING_LEARNED_WEIGHT
        } else if size < features::BIG_BOARD {
            LEARNED_WEIGHT_SMALL
        } else {
            LEARNED_WEIGHT
        };
        let strengths = &strengths[..out.len() - first];
        let top = strengths.iter().copied().fold(f32::MIN_POSITIVE, f32::max);
        for (m, &s) in out[first..].iter_mut().zip(strengths) {
            let learned = weight * ((s / top).sqrt() - 0.5);
            m.1 = (m.1 + learned).clamp(0.02, 0.98);
        }
        // Passing is always possible; worth little while there is a move left.
        let pass_prior = if out.is_empty() { 0.5 } else { 0.1 };
        out.push((PASS as Move, pass_prior));
    }

    fn play(&mut self, mv: Move) {
        self.board.play(mv as Vertex);
        self.depth += 1;
    }

    fn playout(&mut self, rng: &mut SmallRng, trace: &mut Vec<(Move, Color)>) -> f32 {
        let size = self.board.size();
        let cap = size * size * 3 + 20;
        let mut moves = 0;
        // The mercy rule: once one side has taken a quarter of the board's points more
        // than the other in this playout, it has won it; the rest (a tenth of a 9x9
        // playout's moves from the empty board) would only fill the loser's area. In
        // 5,000 playouts from the empty 9x9 board, a margin of 20 changed no result
        // (15 changed 6). Off on small boards, where a few stones decide.
        let margin = (size >= 7).then(|| (size * size / 4) as i64);
        let taken =
            |b: &Board| b.captured_by(Color::Black) as i64 - b.captured_by(Color::White) as i64;
        let start = taken(&self.board);
        while self.board.passes() < 2 && moves < cap {
            let mover = self.board.to_move();
            let v = self.policy_move(rng);
            self.board.play(v);
            trace.push((v as Move, mover));
            moves += 1;
            if let Some(m) = margin {
                let lead = taken(&self.board) - start;
                if lead.abs() > m {
                    self.mercy = true;
                    return if lead > 0 { 1.0 } else { 0.0 };
                }
            }
        }
        black_result(self.playout_score())
    }

    fn bias_visits(&self, p: &Params) -> f32 {
        if self.board.size() < 13 {
            p.bias_visits_small
        } else {
            p.bias_visits
        }
    }

    fn add_ownership(&self, own: &mut [i32]) -> bool {
        if self.mercy {
            // Stopped before the board was settled: the loser's stones still stand.
            return false;
        }
        let b = &self.board;
        for v in b.vertices() {
            let o = match b.cell(v) {
                Cell::Black => 1,
                Cell::White => -1,
                _ => empty_owner(b, v),
            };
            own[v as usize] += o;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(diagram: &str, to_move: Color) -> Vec<Vertex> {
        let mut board = Board::from_diagram(diagram).unwrap();
        board.set_to_move(to_move);
        let state = GoState::new(board, 7.0, false, Vec::new());
        let mut out = Vec::new();
        state.expand(&mut out);
        out.iter().map(|&(m, _)| m as Vertex).collect()
    }

    /// The progressive bias fades over 1000 visits on small boards and stays on 19x19
    /// (and 13x13), and `--mcts bias_visits_small=N` moves only the small boards'.
    #[test]
    fn the_bias_fades_on_small_boards_only() {
        let state = |size| GoState::new(Board::new(size).unwrap(), 7.0, false, Vec::new());
        let mut p = Params::go();
        assert_eq!(state(9).bias_visits(&p), 1000.0);
        assert_eq!(state(12).bias_visits(&p), 1000.0);
        assert_eq!(state(13).bias_visits(&p), 1e6);
        assert_eq!(state(19).bias_visits(&p), 1e6);
        p.set("bias_visits_small=300").unwrap();
        assert_eq!(state(9).bias_visits(&p), 300.0);
        assert_eq!(state(19).bias_visits(&p), 1e6);
    }

    /// White's 26 stones in atari after its last move, black to move.
    const BIG_ATARI: &str = "O O O O O O O . .
                             O O O O O O O O O
                             O O O O O O O O O
                             X X X X X X X X X
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .";

    #[test]
    fn a_playout_that_takes_a_quarter_of_the_board_ends_there_without_ownership() {
        use rand::SeedableRng;
        let mut board = Board::from_diagram(BIG_ATARI).unwrap();
        board.play_as(board.vertex(7, 0).unwrap(), Color::White);
        let mut rng = SmallRng::seed_from_u64(3);
        let mut state = GoState::new(board, 7.0, false, Vec::new());
        let mut trace = Vec::new();
        assert_eq!(state.playout(&mut rng, &mut trace), 1.0);
        assert_eq!(trace.len(), 1, "the capture decides the playout: {trace:?}");
        let mut own = vec![0; CELLS];
        assert!(
            !state.add_ownership(&mut own),
            "an unsettled board is no sample"
        );
        assert!(own.iter().all(|&o| o == 0));
        // The game's captures before the playout do not count: from the position after
        // the capture, the playout is played out and its ownership counts.
        let after = GoState::new(state.board.clone(), 7.0, false, Vec::new());
        for seed in 0..5 {
            let mut s = after.clone();
            trace.clear();
            s.playout(&mut SmallRng::seed_from_u64(seed), &mut trace);
            assert!(trace.len() > 10, "{} moves", trace.len());
            assert!(s.board.passes() >= 2 || s.mercy);
        }
        let mut s = after.clone();
        s.playout(&mut rng, &mut Vec::new());
        assert_eq!(s.add_ownership(&mut own), !s.mercy);
    }

    /// White d3 in atari runs out at e3 into a ladder; a white stone at g7 breaks it.
    const LADDER: &str = ". . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . X . . . . .
                          . . X O . . . . .
                          . . . X X . . . .
                          . . . . . . . . .";

    #[test]
    fn a_ladder_escape_is_no_child_unless_the_ladder_is_broken() {
        let board = Board::from_diagram(LADDER).unwrap();
        let escape = board.vertex(4, 6).unwrap();
        let kids = children(LADDER, Color::White);
        assert!(
            !kids.contains(&escape),
            "running into a working ladder is pruned"
        );
        assert!(kids.len() > 60, "the other moves stay: {}", kids.len());
        let mut rows: Vec<&str> = LADDER.lines().map(str::trim).collect();
        rows[2] = ". . . . . . O . .";
        let broken = rows.join("\n");
        assert!(children(&broken, Color::White).contains(&escape));
        // Black's own moves there are untouched.
        assert!(children(LADDER, Color::Black).contains(&escape));
    }
}
