//! The Gana position: 64 squares of up to four men (plain men counted per colour, the two
//! kings by square), the side to move, the no-capture count and the result; move
//! generation and execution exactly as `../shared/rules/gana.md` defines them, and an
//! incremental Zobrist key.

use std::fmt;

use crate::core::zobrist::key_table;
use crate::core::{Color, Key};

/// A square, 0..64: `file + 8 * rank`, a1 = 0, h8 = 63.
pub type Square = u8;

/// A direction: north (towards rank 8), east, south, west.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub fn letter(self) -> char {
        ['n', 'e', 's', 'w'][self as usize]
    }

    /// The next square that way, if on the board.
    #[inline]
    pub fn step(self, sq: Square) -> Option<Square> {
        let (f, r) = (sq % 8, sq / 8);
        match self {
            Dir::N if r < 7 => Some(sq + 8),
            Dir::S if r > 0 => Some(sq - 8),
            Dir::E if f < 7 => Some(sq + 1),
            Dir::W if f > 0 => Some(sq - 1),
            _ => None,
        }
    }
}

/// A move: every man of the mover on `from` goes `dir` (the king at `place` in the
/// order, 1 = nearest; `place == 0` when the group has no king or the king is last),
/// or the king alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub dir: Dir,
    pub place: u8,
    pub king_alone: bool,
}

impl Move {
    /// A small nonzero number for the move (the tree search's move slots).
    pub fn code(self) -> u32 {
        1 + (self.from as u32
            | (self.dir as u32) << 6
            | (self.place as u32) << 8
            | (self.king_alone as u32) << 11)
    }

    pub fn from_code(c: u32) -> Move {
        let c = c - 1;
        Move {
            from: (c & 63) as u8,
            dir: Dir::ALL[(c >> 6 & 3) as usize],
            place: (c >> 8 & 7) as u8,
            king_alone: c >> 11 & 1 == 1,
        }
    }
}

/// Upper bound of [`Move::code`].
pub const MOVE_CODES: usize = 1 << 12;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    /// The winner captured the other king.
    Win(Color),
    Draw(DrawReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    OnlyKings,
    NoCaptureLimit,
    NoLegalMove,
    Stalemate,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("play on"),
            Outcome::Win(c) => write!(f, "{c} wins: the {} king is captured", c.opposite()),
            Outcome::Draw(DrawReason::OnlyKings) => f.write_str("draw: only the kings are left"),
            Outcome::Draw(DrawReason::NoCaptureLimit) => {
                f.write_str("draw: 100 plies without a capture")
            }
            Outcome::Draw(DrawReason::NoLegalMove) => f.write_str("draw: no legal move"),
            Outcome::Draw(DrawReason::Stalemate) => f.write_str("draw: stalemate of a lone king"),
        }
    }
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    GameOver,
    NoMen,
    NoKingThere,
    /// The first man cannot enter the first square.
    Blocked,
    /// The last square would hold five or more men.
    OverCapacity,
    /// A king's place outside the group, or a place for a group without the king.
    BadPlace,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::GameOver => "game over",
            Illegal::NoMen => "no men of the side to move there",
            Illegal::NoKingThere => "the king is not there with other men",
            Illegal::Blocked => "blocked",
            Illegal::OverCapacity => "over capacity",
            Illegal::BadPlace => "no such place for the king",
        })
    }
}

/// The no-capture count at which the game is drawn.
pub const NO_CAPTURE_LIMIT: u8 = 100;

static MEN_KEYS: [Key; 2 * 64 * 5] = key_table::<{ 2 * 64 * 5 }>(0x6a4a_0001);
static KING_KEYS: [Key; 2 * 64] = key_table::<{ 2 * 64 }>(0x6a4a_0002);
static CLOCK_KEYS: [Key; 101] = key_table::<101>(0x6a4a_0003);
static SIDE_KEY: [Key; 1] = key_table::<1>(0x6a4a_0004);

#[inline]
fn men_key(c: Color, sq: Square, n: u8) -> Key {
    MEN_KEYS[(c.index() * 64 + sq as usize) * 5 + n as usize]
}

/// A Gana position.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    /// Plain men per colour per square.
    men: [[u8; 64]; 2],
    /// Each king's square, `None` once captured.
    kings: [Option<Square>; 2],
    to_move: Color,
    no_capture: u8,
    outcome: Outcome,
    key: Key,
}

impl Board {
    /// The start position (chess set-up, White to move).
    pub fn start() -> Board {
        let mut b = Board::empty();
        let (w, bl) = (Color::White.index(), Color::Black.index());
        for f in 0..8u8 {
            for r in [0u8, 1] {
                b.men[w][(f + 8 * r) as usize] = 1;
            }
            for r in [6u8, 7] {
                b.men[bl][(f + 8 * r) as usize] = 1;
            }
        }
        // The king replaces the plain man on e1 and e8.
        b.men[w][4] = 0;
        b.men[bl][60] = 0;
        b.kings[w] = Some(4);
        b.kings[bl] = Some(60);
        b.to_move = Color::White;
        b.key = b.computed_key();
        b
    }

    fn empty() -> Board {
        Board {
            men: [[0; 64]; 2],
            kings: [None, None],
            to_move: Color::White,
            no_capture: 0,
            outcome: Outcome::Ongoing,
            key: Key(0),
        }
    }

    /// The key recomputed from scratch.
    pub fn computed_key(&self) -> Key {
        let mut k = Key(0);
        for c in Color::BOTH {
            for sq in 0..64u8 {
                let n = self.men[c.index()][sq as usize];
                if n > 0 {
                    k ^= men_key(c, sq, n);
                }
            }
            if let Some(s) = self.kings[c.index()] {
                k ^= KING_KEYS[c.index() * 64 + s as usize];
            }
        }
        if self.to_move == Color::Black {
            k ^= SIDE_KEY[0];
        }
        k ^ CLOCK_KEYS[self.no_capture.min(100) as usize]
    }

    #[inline]
    pub fn key(&self) -> Key {
        self.key
    }

    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    #[inline]
    pub fn no_capture(&self) -> u8 {
        self.no_capture
    }

    #[inline]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    #[inline]
    pub fn king(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    /// Plain men of `c` on `sq`.
    #[inline]
    pub fn plain(&self, c: Color, sq: Square) -> u8 {
        self.men[c.index()][sq as usize]
    }

    /// Men of `c` on `sq`, the king included.
    #[inline]
    pub fn men_of(&self, c: Color, sq: Square) -> u8 {
        self.plain(c, sq) + (self.kings[c.index()] == Some(sq)) as u8
    }

    /// All men on `sq`.
    #[inline]
    pub fn count(&self, sq: Square) -> u8 {
        self.men_of(Color::White, sq) + self.men_of(Color::Black, sq)
    }

    /// Men of `c` on the board, the king included.
    pub fn total(&self, c: Color) -> u32 {
        self.men[c.index()].iter().map(|&n| n as u32).sum::<u32>()
            + self.kings[c.index()].is_some() as u32
    }

    #[inline]
    fn set_plain(&mut self, c: Color, sq: Square, n: u8) {
        let old = self.men[c.index()][sq as usize];
        if old > 0 {
            self.key ^= men_key(c, sq, old.min(4));
        }
        if n > 0 {
            self.key ^= men_key(c, sq, n.min(4));
        }
        self.men[c.index()][sq as usize] = n;
    }

    #[inline]
    fn set_king(&mut self, c: Color, sq: Option<Square>) {
        if let Some(s) = self.kings[c.index()] {
            self.key ^= KING_KEYS[c.index() * 64 + s as usize];
        }
        if let Some(s) = sq {
            self.key ^= KING_KEYS[c.index() * 64 + s as usize];
        }
        self.kings[c.index()] = sq;
    }

    fn set_clock(&mut self, n: u8) {
        self.key ^= CLOCK_KEYS[self.no_capture.min(100) as usize] ^ CLOCK_KEYS[n.min(100) as usize];
        self.no_capture = n;
    }

    /// Every legal move for the side to move (none once the game is over).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        self.pseudo_moves(self.to_move, out);
        out.retain(|&m| self.try_move(m).is_ok());
    }

    /// Whether `c`'s king stands where the opponent can drop a man on it, exactly as the
    /// stalemate rule tests it.
    pub fn king_en_prise(&self, c: Color) -> bool {
        self.kings[c.index()].is_some_and(|k| self.can_drop_on(c.opposite(), k))
    }

    /// Every legal move with the position it leads to (before the end-of-game checks
    /// other than a king capture): one pass for callers that look at both.
    pub fn legal_results(&self, out: &mut Vec<(Move, Board)>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        let mut moves = Vec::new();
        self.pseudo_moves(self.to_move, &mut moves);
        out.extend(
            moves
                .into_iter()
                .filter_map(|m| self.try_move(m).ok().map(|b| (m, b))),
        );
    }

    /// Plays a move whose result [`Board::legal_results`] gave, with the cheap end checks
    /// of [`Board::play_fast`].
    pub fn set_after(&mut self, after: Board) {
        *self = after;
        self.judge_cheap();
    }

    /// The candidate moves of `c` (every origin, direction and king's place), before the
    /// legality of the result is tested.
    fn pseudo_moves(&self, c: Color, out: &mut Vec<Move>) {
        let king = self.kings[c.index()];
        for sq in 0..64u8 {
            let plain = self.men[c.index()][sq as usize];
            let has_king = king == Some(sq);
            let k = plain + has_king as u8;
            if k == 0 {
                continue;
            }
            for dir in Dir::ALL {
                if dir.step(sq).is_none() {
                    continue;
                }
                out.push(Move {
                    from: sq,
                    dir,
                    place: 0,
                    king_alone: false,
                });
                if has_king && plain > 0 {
                    for place in 1..k {
                        out.push(Move {
                            from: sq,
                            dir,
                            place,
                            king_alone: false,
                        });
                    }
                    out.push(Move {
                        from: sq,
                        dir,
                        place: 0,
                        king_alone: true,
                    });
                }
            }
        }
    }

    /// The position after `m`, or why it is illegal. Does not judge the end of the game
    /// beyond a king capture (see [`Board::play`]).
    fn try_move(&self, m: Move) -> Result<Board, Illegal> {
        self.apply(m).map(|(b, _)| b)
    }

    /// [`Board::try_move`], with the square where the last man came to rest.
    fn apply(&self, m: Move) -> Result<(Board, Square), Illegal> {
        if self.outcome != Outcome::Ongoing {
            return Err(Illegal::GameOver);
        }
        let me = self.to_move;
        let them = me.opposite();
        let plain = self.men[me.index()][m.from as usize];
        let has_king = self.kings[me.index()] == Some(m.from);
        let mut b = self.clone();
        // The order of the men leaving: true for the king.
        let mut order = [false; 5];
        let k: usize;
        if m.king_alone {
            if !has_king || plain == 0 {
                return Err(Illegal::NoKingThere);
            }
            k = 1;
            order[0] = true;
            b.set_king(me, None);
        } else {
            k = plain as usize + has_king as usize;
            if k == 0 {
                return Err(Illegal::NoMen);
            }
            if has_king {
                let place = if m.place == 0 { k } else { m.place as usize };
                if place > k || (m.place != 0 && m.place as usize >= k) {
                    return Err(Illegal::BadPlace);
                }
                order[place - 1] = true;
                b.set_king(me, None);
            } else if m.place != 0 {
                return Err(Illegal::BadPlace);
            }
            b.set_plain(me, m.from, 0);
        }
        let mut captured_any = false;
        let mut won = false;
        let mut cur = m.from;
        let mut i = 0;
        while i < k {
            let is_king = order[i];
            let last = i == k - 1;
            let enter = match m.dir.step(cur) {
                None => None,
                Some(next) => {
                    let full = b.count(next) >= 4;
                    let enemy_king = b.kings[them.index()] == Some(next);
                    let enemy_men = b.men_of(them, next) > 0;
                    (!full || enemy_king || (is_king && last && enemy_men)).then_some(next)
                }
            };
            let Some(next) = enter else {
                if i == 0 {
                    return Err(Illegal::Blocked);
                }
                break; // the rest pile up on `cur`
            };
            cur = next;
            b.drop_man(me, cur, is_king);
            if b.kings[them.index()] == Some(cur) {
                b.set_king(them, None);
                captured_any = true;
                won = true;
            }
            i += 1;
        }
        // Men not dropped pile up where the group stopped.
        while i < k {
            b.drop_man(me, cur, order[i]);
            i += 1;
        }
        let last_is_king = order[k - 1];
        if !won {
            if last_is_king {
                // A king coming to rest last takes every enemy man there.
                if b.men[them.index()][cur as usize] > 0 {
                    b.set_plain(them, cur, 0);
                    captured_any = true;
                }
            } else {
                let (own, enemy) = (b.men_of(me, cur), b.men_of(them, cur));
                if (own, enemy) == (1, 1) || (own, enemy) == (2, 2) {
                    b.set_plain(them, cur, 0);
                    captured_any = true;
                }
            }
            if b.count(cur) > 4 {
                return Err(Illegal::OverCapacity);
            }
        }
        b.set_clock(if captured_any {
            0
        } else {
            self.no_capture.saturating_add(1)
        });
        b.to_move = them;
        b.key ^= SIDE_KEY[0];
        if won {
            b.outcome = Outcome::Win(me);
        }
        Ok((b, cur))
    }

    fn drop_man(&mut self, c: Color, sq: Square, is_king: bool) {
        if is_king {
            self.set_king(c, Some(sq));
        } else {
            let n = self.men[c.index()][sq as usize];
            self.set_plain(c, sq, n + 1);
        }
    }

    /// Whether `c` has a move that drops a man on `sq` (the king's square, say).
    fn can_drop_on(&self, c: Color, sq: Square) -> bool {
        let mut b = self.clone();
        b.to_move = c;
        b.outcome = Outcome::Ongoing;
        let mut moves = Vec::new();
        b.pseudo_moves(c, &mut moves);
        let target = self.kings[c.opposite().index()] == Some(sq);
        target
            && moves.into_iter().any(|m| {
                b.try_move(m)
                    .is_ok_and(|after| after.kings[c.opposite().index()].is_none())
            })
    }

    /// Plays `m` with only the cheap end checks (a king captured, only kings left, the
    /// no-capture count); no legal move and stalemate are left to the caller, who finds
    /// them generating the next moves. For playouts.
    pub fn play_fast(&mut self, m: Move) -> Result<(), Illegal> {
        let b = self.try_move(m)?;
        self.set_after(b);
        Ok(())
    }

    /// Ends the game as a draw for want of a move (a playout that found none).
    pub fn set_no_move_draw(&mut self) {
        self.outcome = Outcome::Draw(DrawReason::NoLegalMove);
    }

    /// Whether `by` could drop a man on `sq` in one move, roughly: a square holding
    /// `d` or more of its men `d` squares away on a line can reach it (full squares on
    /// the way are ignored). A side has at most four men on a square, so only the 16
    /// squares around `sq` matter.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        Dir::ALL.iter().any(|&dir| {
            let mut cur = sq;
            for d in 1..=4u8 {
                match dir.step(cur) {
                    Some(n) => {
                        if self.men_of(by, n) >= d {
                            return true;
                        }
                        cur = n;
                    }
                    None => return false,
                }
            }
            false
        })
    }

    /// A move that wins by force within the mover's next move: one that captures the
    /// enemy king now, or one after which every reply leaves the king where the mover
    /// can drop a man on it (a replying side with only its king is stalemated instead:
    /// a draw, not counted). A few thousand positions: cheap beside a search, and exact
    /// where a search of a thousand playouts may not see the net.
    pub fn winning_move(&self) -> Option<Move> {
        let mut unlimited = u64::MAX;
        self.forced_win(2, &mut unlimited)
    }

    /// A move that takes the enemy king within `moves` moves of the mover whatever the
    /// opponent replies (1: a capture now; 2: a net, as [`Board::winning_move`]; 3: a
    /// move after which every reply allows a net), or `None` when there is none or the
    /// `budget` of generated positions ran out first (then nothing is claimed).
    pub fn forced_win(&self, moves: u32, budget: &mut u64) -> Option<Move> {
        let them = self.to_move.opposite();
        if moves == 0 || *budget == 0 {
            return None;
        }
        let mut results = Vec::new();
        self.legal_results(&mut results);
        *budget = budget.saturating_sub(results.len() as u64);
        if let Some((m, _)) = results
            .iter()
            .find(|(_, a)| a.kings[them.index()].is_none())
        {
            return Some(*m);
        }
        if moves == 1 {
            return None;
        }
        let mut replies = Vec::new();
        for (m, mut after) in results {
            if *budget == 0 {
                return None;
            }
            after.judge_with(&mut replies);
            if after.outcome != Outcome::Ongoing || replies.is_empty() {
                continue;
            }
            *budget = budget.saturating_sub(replies.len() as u64);
            let caught = replies.iter_mut().all(|(_, then)| {
                // The cheap end checks are enough: a reply that draws (only kings, the
                // no-capture count) ends the game, and then no capture follows.
                then.judge_cheap();
                if moves == 2 {
                    // A king capture test tries the moves that reach the king: a few
                    // dozen positions.
                    *budget = budget.saturating_sub(32);
                    then.can_capture_king()
                } else {
                    then.outcome == Outcome::Ongoing && then.forced_win(moves - 1, budget).is_some()
                }
            });
            if caught {
                return Some(m);
            }
        }
        None
    }

    /// Whether the side to move can capture the enemy king now.
    pub fn can_capture_king(&self) -> bool {
        let me = self.to_move;
        match self.kings[me.opposite().index()] {
            Some(k) if self.outcome == Outcome::Ongoing => self.can_drop_on(me, k),
            _ => false,
        }
    }

    /// Plays `m` if legal and judges the end of the game.
    pub fn play(&mut self, m: Move) -> Result<Outcome, Illegal> {
        let mut b = self.try_move(m)?;
        b.judge();
        *self = b;
        Ok(self.outcome)
    }

    /// The end-of-game checks after a move, in the rules' order.
    fn judge(&mut self) {
        self.judge_with(&mut Vec::new());
    }

    /// The end-of-game checks after a move (a position [`Board::legal_results`] gave),
    /// leaving in `legal` the moves that follow with their positions: one move
    /// generation for callers that judge a move and then look at the replies.
    pub fn judge_with(&mut self, legal: &mut Vec<(Move, Board)>) {
        legal.clear();
        self.judge_cheap();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        self.legal_results(legal);
        if legal.is_empty() {
            self.outcome = Outcome::Draw(DrawReason::NoLegalMove);
        } else if self.stalemated(legal.iter().map(|(_, after)| after)) {
            self.outcome = Outcome::Draw(DrawReason::Stalemate);
        }
    }

    /// The end checks that need no move generation: only kings left, the no-capture
    /// count.
    fn judge_cheap(&mut self) {
        if self.outcome == Outcome::Ongoing {
            if self.men.iter().flatten().all(|&n| n == 0) {
                self.outcome = Outcome::Draw(DrawReason::OnlyKings);
            } else if self.no_capture >= NO_CAPTURE_LIMIT {
                self.outcome = Outcome::Draw(DrawReason::NoCaptureLimit);
            }
        }
    }

    /// Whether `c` has nothing left but its king.
    pub fn lone_king(&self, c: Color) -> bool {
        self.total(c) == 1 && self.kings[c.index()].is_some()
    }

    /// The stalemate rule, given the positions after each legal move of the side to
    /// move: it has only its king, and every move puts it where the opponent can drop a
    /// man on it (a move that takes the enemy king is never such a move).
    pub fn stalemated<'a>(&self, afters: impl IntoIterator<Item = &'a Board>) -> bool {
        let me = self.to_move;
        self.lone_king(me)
            && afters
                .into_iter()
                .all(|after| after.outcome == Outcome::Ongoing && after.king_en_prise(me))
    }

    /// Leaf positions `depth` plies ahead (a move that ends the game is a leaf).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| {
                let mut b = self.clone();
                b.play(m).expect("legal");
                b.perft(depth - 1)
            })
            .sum()
    }

    /// Text of a move as the rules write it (canonical form).
    pub fn move_text(&self, m: Move) -> String {
        let sq = square_name(m.from);
        if m.king_alone {
            return format!("K{sq}{}", m.dir.letter());
        }
        if m.place != 0 {
            format!("{sq}{}{}", m.dir.letter(), m.place)
        } else {
            format!("{sq}{}", m.dir.letter())
        }
    }

    /// Reads a move (`c5n`, `Kc5n`, `c5n1`, or `c5-c7` naming one legal move).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        // Every move is ASCII; anything else would also cut a character in two below.
        if !t.is_ascii() {
            return Err(MoveError::Syntax);
        }
        if let Some((a, z)) = t.split_once('-') {
            let from = parse_square(a).ok_or(MoveError::Syntax)?;
            let to = parse_square(z).ok_or(MoveError::Syntax)?;
            let mut moves = Vec::new();
            self.legal_moves(&mut moves);
            let matching: Vec<Move> = moves
                .into_iter()
                .filter(|&m| m.from == from && self.last_square(m) == Some(to))
                .collect();
            return match matching.as_slice() {
                [m] => Ok(*m),
                [] => Err(MoveError::NoMatch),
                _ => Err(MoveError::Ambiguous),
            };
        }
        let lower = t.to_ascii_lowercase();
        let (king_alone, rest) = match lower.strip_prefix('k') {
            Some(r) => (true, r),
            None => (false, lower.as_str()),
        };
        let b = rest.as_bytes();
        if b.len() < 3 || b.len() > 4 {
            return Err(MoveError::Syntax);
        }
        let from = parse_square(&rest[..2]).ok_or(MoveError::Syntax)?;
        let dir = match b[2] {
            b'n' => Dir::N,
            b'e' => Dir::E,
            b's' => Dir::S,
            b'w' => Dir::W,
            _ => return Err(MoveError::Syntax),
        };
        let mut place = 0u8;
        if b.len() == 4 {
            if king_alone {
                return Err(MoveError::Syntax);
            }
            place = match b[3] {
                d @ b'1'..=b'4' => d - b'0',
                _ => return Err(MoveError::Syntax),
            };
        }
        let me = self.to_move;
        let plain = self.men[me.index()][from as usize];
        let has_king = self.kings[me.index()] == Some(from);
        let k = plain + has_king as u8;
        if place != 0 {
            if !has_king || place > k {
                return Err(MoveError::Syntax);
            }
            if place == k {
                place = 0; // the king last: the canonical form has no digit
            }
        }
        // `Kc5n` for a king alone on its square is its ordinary step.
        let king_alone = king_alone && !(has_king && plain == 0);
        if king_alone && !has_king {
            return Err(MoveError::Illegal(Illegal::NoKingThere));
        }
        Ok(Move {
            from,
            dir,
            place,
            king_alone,
        })
    }

    /// Where the last man of `m` comes to rest (for `c5-c7`).
    fn last_square(&self, m: Move) -> Option<Square> {
        self.apply(m).ok().map(|(_, sq)| sq)
    }

    /// One square as position text writes it: `wWbB` order, `.` when empty.
    pub fn square_text(&self, sq: Square) -> String {
        let mut s = String::new();
        s.extend(std::iter::repeat_n(
            'w',
            self.plain(Color::White, sq) as usize,
        ));
        if self.kings[Color::White.index()] == Some(sq) {
            s.push('W');
        }
        s.extend(std::iter::repeat_n(
            'b',
            self.plain(Color::Black, sq) as usize,
        ));
        if self.kings[Color::Black.index()] == Some(sq) {
            s.push('B');
        }
        if s.is_empty() {
            s.push('.');
        }
        s
    }

    /// Position text (ranks 8 to 1, side, no-capture count); `None` for a won game.
    pub fn to_text(&self) -> Option<String> {
        if matches!(self.outcome, Outcome::Win(_)) || self.kings.iter().any(|k| k.is_none()) {
            return None;
        }
        let mut ranks = Vec::new();
        for r in (0..8u8).rev() {
            let squares: Vec<String> = (0..8u8).map(|f| self.square_text(f + 8 * r)).collect();
            ranks.push(squares.join(","));
        }
        let side = if self.to_move == Color::White {
            'w'
        } else {
            'b'
        };
        Some(format!("{} {side} {}", ranks.join("/"), self.no_capture))
    }

    /// Reads position text.
    pub fn from_text(text: &str) -> Result<Board, String> {
        let fields: Vec<&str> = text.trim().split(' ').collect();
        if fields.len() != 3 {
            return Err(format!(
                "{} fields, not 3 (squares, side, no-capture count)",
                fields.len()
            ));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("{} ranks, not 8", ranks.len()));
        }
        let mut b = Board::empty();
        for (i, rank) in ranks.iter().enumerate() {
            let r = 7 - i as u8;
            let squares: Vec<&str> = rank.split(',').collect();
            if squares.len() != 8 {
                return Err(format!("rank {}: {} squares, not 8", r + 1, squares.len()));
            }
            for (f, s) in squares.iter().enumerate() {
                let sq = f as u8 + 8 * r;
                if *s == "." {
                    continue;
                }
                if s.is_empty() || s.len() > 4 {
                    return Err(format!("{}: '{s}' is not 1 to 4 men", square_name(sq)));
                }
                for ch in s.chars() {
                    match ch {
                        'w' => b.men[Color::White.index()][sq as usize] += 1,
                        'b' => b.men[Color::Black.index()][sq as usize] += 1,
                        'W' | 'B' => {
                            let c = if ch == 'W' {
                                Color::White
                            } else {
                                Color::Black
                            }
                            .index();
                            if b.kings[c].is_some() {
                                return Err(format!("two {ch} kings"));
                            }
                            b.kings[c] = Some(sq);
                        }
                        _ => {
                            return Err(format!("{}: '{ch}' is not w, W, b or B", square_name(sq)));
                        }
                    }
                }
            }
        }
        let (Some(wk), Some(bk)) = (b.kings[Color::White.index()], b.kings[Color::Black.index()])
        else {
            return Err("each side needs exactly one king".into());
        };
        if wk == bk {
            return Err("the kings may not share a square".into());
        }
        for c in Color::BOTH {
            if b.total(c) > 16 {
                return Err(format!("more than 16 {c} men"));
            }
        }
        b.to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("side '{other}': w or b")),
        };
        b.no_capture = fields[2]
            .parse::<u8>()
            .ok()
            .filter(|&n| n < NO_CAPTURE_LIMIT)
            .ok_or_else(|| format!("no-capture count '{}': 0 to 99", fields[2]))?;
        b.key = b.computed_key();
        b.judge();
        Ok(b)
    }
}

/// Why move text was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    Syntax,
    /// `c5-c7` matches several legal moves.
    Ambiguous,
    /// `c5-c7` matches no legal move.
    NoMatch,
    /// Not this side's turn.
    WrongSide,
    Illegal(Illegal),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax => f.write_str("syntax error"),
            MoveError::Ambiguous => {
                f.write_str("ambiguous move: name the direction and the king's place")
            }
            MoveError::NoMatch => f.write_str("illegal move: no legal move ends there"),
            MoveError::WrongSide => f.write_str("illegal move: wrong side"),
            MoveError::Illegal(i) => write!(f, "illegal move: {i}"),
        }
    }
}

pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

pub fn parse_square(t: &str) -> Option<Square> {
    let b = t.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    let r = b[1];
    ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r)).then(|| (f - b'a') + 8 * (r - b'1'))
}

/// A readable board: each square's men (`wWbB`), rank 8 at the top.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..8u8).rev() {
            write!(f, "{} ", r + 1)?;
            for file in 0..8u8 {
                write!(f, " {:<4}", self.square_text(file + 8 * r))?;
            }
            writeln!(f)?;
        }
        write!(f, "   a    b    c    d    e    f    g    h")
    }
}
