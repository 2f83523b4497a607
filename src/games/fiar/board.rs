//! The five-in-a-row board: stones on a padded array, line keys and patterns kept up to
//! date on every placement, capture and undo, the Zobrist key, and the game's result.

use std::fmt;

use super::pattern::{self, EDGE, EMPTY as EMPTY_CODE, OPP, OWN, PairTable, Pattern, Table};
use super::variant::Variant;
use crate::core::error::Point;
use crate::core::zobrist::{Key, key_table, splitmix64};
use crate::core::{Color, RuleError};

/// Smallest and largest board side.
pub const MIN_SIDE: usize = 5;
pub const MAX_SIDE: usize = 32;
/// Wall cells around the board: enough for every line key (5 cells each way).
const PAD: usize = 5;
const MAX_STRIDE: usize = MAX_SIDE + 2 * PAD;
const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;
/// Cell arrays are this long, a power of two above `MAX_CELLS`, so that an index masked
/// with `CAP - 1` needs no bounds check on the hot path.
const CAP: usize = 2048;
const _: () = assert!(MAX_CELLS <= CAP);

#[inline(always)]
const fn at(cell: usize) -> usize {
    cell & (CAP - 1)
}

/// Cell states.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const WALL: u8 = 3;
/// Gomoku-shared-centre's first stone: a stone of whoever looks at it.
pub(crate) const SHARED: u8 = 4;
/// Counting games: a stone that has scored a row and now blocks lines like the edge.
pub(crate) const BLACK_SPENT: u8 = 5;
pub(crate) const WHITE_SPENT: u8 = 6;
const STATES: usize = 7;

/// Each cell state as black sees it in a line key. White's view is black's with the
/// colours swapped, except for the shared centre stone, which is everyone's own stone
/// (see [`Board::white_key`]).
const VIEW: [u32; STATES] = [EMPTY_CODE, OWN, OPP, EDGE, OWN, EDGE, EDGE];

/// Stone keys, indexed by `state * MAX_CELLS + cell` (the padded cell index: equal
/// positions on boards of equal size have equal keys).
static STONE_KEYS: [Key; STATES * MAX_CELLS] = key_table(0x7e46_e17f_1a51_0001);
const SIDE_KEY: Key = Key(0x5bd1_e995_7f4a_7c15);
const PASS_KEY: Key = Key(0x2545_f491_4f6c_dd1d);

/// A key for a counter (captures or rows of one colour), mixed from its value.
fn counter_key(kind: u64, color: Color, n: u16) -> Key {
    if n == 0 {
        return Key(0);
    }
    Key(splitmix64(kind << 40 ^ (color.index() as u64) << 32 ^ n as u64).1)
}
const CAPTURE_KIND: u64 = 1;
const ROW_KIND: u64 = 2;

/// The four line directions as (dx, dy): horizontal, vertical, and the two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The key of the counters: a pending pass, captures and rows.
fn counters_key(c: &Counters) -> Key {
    let mut key = if c.passes == 1 { PASS_KEY } else { Key(0) };
    for color in Color::BOTH {
        key ^= counter_key(CAPTURE_KIND, color, c.captured[color.index()]);
        key ^= counter_key(ROW_KIND, color, c.rows[color.index()]);
    }
    key
}

/// How the key changes when the counters go from `a` to `b`; most moves change none
/// of the hashed ones, so this is usually a few compares.
#[inline]
fn counters_key_change(a: &Counters, b: &Counters) -> Key {
    if a.passes == b.passes && a.captured == b.captured && a.rows == b.rows {
        Key(0)
    } else {
        counters_key(a) ^ counters_key(b)
    }
}

/// A move: a stone on a point, or a pass where the variant allows one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Point),
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(p) => write!(f, "{p}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// A forbidden move's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    DoubleThree,
    DoubleFour,
    Overline,
    /// Anti-renju: black may not make a straight four.
    StraightFour,
}

impl Foul {
    pub const fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double-three",
            Foul::DoubleFour => "double-four",
            Foul::Overline => "overline",
            Foul::StraightFour => "straight-four",
        }
    }
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// A winning row, from one end to the other.
    Five { from: Point, to: Point },
    /// Enough stones captured (pente: 10, keryo-pente: 15).
    Captures(u16),
    /// Gomoku-narabe: black placed its last stone without a five.
    OutOfStones,
    /// Counting games: more rows at the end.
    Count { black: u16, white: u16 },
    /// The opponent played a forbidden point (see [`Board::referee`]).
    Foul { point: Point, foul: Foul },
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    BoardFull,
    DoublePass,
    OutOfStones,
    /// Counting games: equal rows at the end.
    EqualCount(u16),
}

/// The result of the game so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("play on"),
            Outcome::Win { winner, reason } => match reason {
                WinReason::Five { from, to } => write!(f, "{winner} wins: five {from}-{to}"),
                WinReason::Captures(n) => write!(f, "{winner} wins: {n} stones captured"),
                WinReason::OutOfStones => {
                    write!(
                        f,
                        "{winner} wins: black placed its last stone without a five"
                    )
                }
                WinReason::Count { black, white } => {
                    write!(
                        f,
                        "{winner} wins on count: black {black} rows, white {white} rows"
                    )
                }
                WinReason::Foul { point, foul } => {
                    write!(
                        f,
                        "{winner} wins: {} played {point}, a {foul}",
                        winner.opposite()
                    )
                }
            },
            Outcome::Draw(reason) => match reason {
                DrawReason::BoardFull => f.write_str("draw: the board is full"),
                DrawReason::DoublePass => f.write_str("draw: both sides passed"),
                DrawReason::OutOfStones => f.write_str("draw: both sides are out of stones"),
                DrawReason::EqualCount(n) => write!(f, "draw on count: {n} rows each"),
            },
        }
    }
}

/// The game's counters (hashed into the key, restored by undo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counters {
    placed: [u16; 2],
    captured: [u16; 2],
    rows: [u16; 2],
    passes: u8,
    outcome: Outcome,
}

/// What one ply changed, so that undo can put it back. The stones it removed and spent
/// are the last `n_removed` / `n_spent` entries of the board's own stacks; the outcome
/// before any move is `Ongoing`. Kept to a few bytes: undo reads it right after play
/// wrote it, and a wide record there stalls on store forwarding.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    color: Color,
    passes_before: u8,
    n_removed: u8,
    n_spent: u8,
    rows_scored: u8,
    /// A referee's verdict on a forbidden move: nothing was placed.
    verdict: bool,
}

/// Hypothetical stones of the colour under test, for the recursive foul check.
struct Extras {
    cells: [(usize, i32, i32); 64],
    len: usize,
}

impl Extras {
    fn new() -> Extras {
        Extras {
            cells: [(0, 0, 0); 64],
            len: 0,
        }
    }
    fn contains(&self, cell: usize) -> bool {
        self.cells[..self.len].iter().any(|e| e.0 == cell)
    }
}

// `Threats::refresh` and `pair_bits` read patterns as bytes: a four or more has bit 3,
// a five is 11.
const _: () = assert!(Pattern::Block4 as u8 == 8 && Pattern::Five as u8 == 11);

/// The board's threat bits, borrowed apart from its other fields.
struct Threats<'a> {
    fives: &'a mut [Bits; 2],
    fours: &'a mut [Bits; 2],
    flags: &'a mut [u8; CAP],
}

impl Threats<'_> {
    /// Sets cell `c`'s bits from its eight patterns.
    #[inline]
    fn refresh(&mut self, c: usize, p: &[[Pattern; 2]; 4], empty: bool) {
        // The patterns as bytes: black's at even bytes, white's at odd. Block4..=Five
        // are 8..=11, the values with bit 3 set; Five (11) alone also has bits 1 and 0.
        let w = u64::from_le_bytes([
            p[0][0] as u8,
            p[0][1] as u8,
            p[1][0] as u8,
            p[1][1] as u8,
            p[2][0] as u8,
            p[2][1] as u8,
            p[3][0] as u8,
            p[3][1] as u8,
        ]);
        let four = w & 0x0808_0808_0808_0808;
        let five = w & (w >> 1) & (w >> 3) & 0x0101_0101_0101_0101;
        const BLACK_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
        let flags = if empty {
            (four & BLACK_BYTES != 0) as u8
                | ((four & !BLACK_BYTES != 0) as u8) << 1
                | ((five & BLACK_BYTES != 0) as u8) << 2
                | ((five & !BLACK_BYTES != 0) as u8) << 3
        } else {
            0
        };
        let change = flags ^ self.flags[c];
        if change != 0 {
            self.flags[c] = flags;
            self.fours[0].toggle(c, change & 1 != 0);
            self.fours[1].toggle(c, change & 2 != 0);
            self.fives[0].toggle(c, change & 4 != 0);
            self.fives[1].toggle(c, change & 8 != 0);
        }
    }
}

/// Both colours' patterns of a pair in one word (a four or more has bit 3 set).
#[inline]
fn pair_bits(pair: [Pattern; 2]) -> u16 {
    // SAFETY: `Pattern` is `repr(u8)`, so the pair is two initialised bytes, and any two
    // bytes are a valid u16. (Built from the bytes one by one, the compiler loads and
    // shifts them apart, on the hottest loop of the board.)
    unsafe { std::mem::transmute::<[Pattern; 2], u16>(pair) }
}

/// A set of cells, one bit each.
#[derive(Clone, Copy)]
struct Bits([u64; CAP / 64]);

impl Bits {
    const EMPTY: Bits = Bits([0; CAP / 64]);

    #[inline]
    fn toggle(&mut self, cell: usize, flip: bool) {
        self.0[cell / 64] ^= (flip as u64) << (cell % 64);
    }

    #[inline]
    fn any(&self) -> bool {
        self.0.iter().any(|&w| w != 0)
    }

    /// The cells in increasing order (row by row, as the board's points).
    #[inline]
    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }
}

/// A five-in-a-row position with its history.
#[derive(Clone)]
pub struct Board {
    variant: Variant,
    width: usize,
    height: usize,
    stride: usize,
    /// Cell offsets of the four directions.
    step: [isize; 4],
    cells: Box<[u8; CAP]>,
    /// Per cell and direction: the line key as black sees it.
    keys: Box<[[u32; CAP]; 4]>,
    /// Per cell and direction (cell-major: a point's patterns share a cache line): the
    /// pattern a black and a white stone would make there
    /// (kept for every point, but meaningful only where the point is empty).
    pats: Box<[[[Pattern; 2]; 4]; CAP]>,
    /// One bit a stone, a row a word: bit `x + 2` of word `y + 2` (two spare bits and
    /// words on each side, so neighbourhoods need no bounds). Finding the points near
    /// the stones is then a few shifts a row.
    rows: [u64; MAX_SIDE + 4],
    /// Per colour, one bit a cell: the empty points where a stone of that colour makes
    /// five, and where it makes at least a four (fives included), kept by `set_cell`.
    /// "Is there a five to make or to stop, which points make fours" then costs a few
    /// words instead of a pass over the candidate points (threat search asks at every
    /// node).
    fives: [Bits; 2],
    fours: [Bits; 2],
    /// Each cell's four bits of `fives` and `fours` (see `Threats::refresh`): most
    /// refreshes find them unchanged and write nothing.
    threat_flags: Box<[u8; CAP]>,
    /// Board coordinates of each padded cell (no division on the hot path).
    coords: Box<[[u8; 2]; CAP]>,
    /// Each colour's own table (fouls, shared-centre corrections).
    tables: [&'static Table; 2],
    /// Both colours' patterns by black's key (the incremental update).
    pair: &'static PairTable,
    /// The centre's cell: in gomoku-shared-centre, where the shared stone goes.
    centre_cell: usize,
    key: Key,
    to_move: Color,
    counters: Counters,
    empties: usize,
    history: Vec<Undo>,
    /// Captured stones (cell, state), for undo.
    removed: Vec<(u16, u8)>,
    /// Stones spent by scored rows, for undo.
    spent: Vec<u16>,
    /// The set-up stones the history starts from (records write them).
    setup: Vec<(Point, Color)>,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({} {}x{})\n{}",
            self.variant,
            self.width,
            self.height,
            self.diagram()
        )
    }
}

impl Board {
    /// An empty square board of the variant's own size.
    pub fn new(variant: Variant) -> Board {
        let n = variant.default_size();
        Board::with_size(variant, n, n).expect("every variant's own size is valid")
    }

    /// An empty `width` x `height` board (each side 5..=32).
    pub fn with_size(variant: Variant, width: usize, height: usize) -> Result<Board, RuleError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(RuleError::BadSize {
                width: width as i64,
                height: height as i64,
                min: MIN_SIDE as u32,
                max: MAX_SIDE as u32,
            });
        }
        let stride = width + 2 * PAD;
        let mut cells = Box::new([WALL; CAP]);
        for y in 0..height {
            for x in 0..width {
                cells[(y + PAD) * stride + x + PAD] = EMPTY;
            }
        }
        let s = stride as isize;
        let (black_rule, white_rule) = (
            variant.line_rule(Color::Black),
            variant.line_rule(Color::White),
        );
        let mut board = Board {
            variant,
            width,
            height,
            stride,
            step: [1, s, s + 1, 1 - s],
            cells,
            keys: Box::new([[0; CAP]; 4]),
            pats: Box::new([[[Pattern::Dead; 2]; 4]; CAP]),
            rows: [0; MAX_SIDE + 4],
            fives: [Bits::EMPTY; 2],
            fours: [Bits::EMPTY; 2],
            threat_flags: Box::new([0; CAP]),
            coords: {
                let mut c = Box::new([[0u8; 2]; CAP]);
                for (i, xy) in c.iter_mut().enumerate().take(stride * (height + 2 * PAD)) {
                    *xy = [
                        (i % stride).saturating_sub(PAD) as u8,
                        (i / stride).saturating_sub(PAD) as u8,
                    ];
                }
                c
            },
            tables: [pattern::table(black_rule), pattern::table(white_rule)],
            pair: pattern::pair_table(black_rule, white_rule),
            centre_cell: (height / 2 + PAD) * stride + width / 2 + PAD,
            key: Key(0),
            to_move: Color::Black,
            counters: Counters {
                placed: [0; 2],
                captured: [0; 2],
                rows: [0; 2],
                passes: 0,
                outcome: Outcome::Ongoing,
            },
            empties: width * height,
            history: Vec::with_capacity(width * height + 8),
            removed: Vec::new(),
            spent: Vec::new(),
            setup: Vec::new(),
        };
        board.rebuild_lines();
        board.key = board.computed_key();
        Ok(board)
    }

    /// A position set up from stones, with no history (undo stops here). Opening rules
    /// are not applied to set-up stones; the placed-stone counts start from them.
    pub fn from_stones(
        variant: Variant,
        width: usize,
        height: usize,
        stones: &[(Point, Color)],
        to_move: Color,
    ) -> Result<Board, RuleError> {
        let mut b = Board::with_size(variant, width, height)?;
        for &(p, c) in stones {
            let cell = b.cell_of(p)?;
            if b.cells[cell] != EMPTY {
                return Err(RuleError::Occupied(p));
            }
            b.cells[cell] = stone_of(c);
            b.counters.placed[c.index()] += 1;
            b.empties -= 1;
        }
        b.to_move = to_move;
        b.setup = stones.to_vec();
        b.rebuild_lines();
        b.key = b.computed_key();
        Ok(b)
    }

    /// A position from a diagram: one text line per row, `y = 0` first; `X` black,
    /// `O` white, `*` a shared centre stone, `.` or `+` empty. Whitespace between cells
    /// is ignored. The side to move is black when both have as many stones, else white.
    pub fn from_diagram(variant: Variant, text: &str) -> Result<Board, RuleError> {
        let rows: Vec<(usize, Vec<char>)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                (
                    i + 1,
                    l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>(),
                )
            })
            .filter(|(_, r)| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.1.len());
        let mut stones = Vec::new();
        let mut shared = None;
        for (y, (line, row)) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(RuleError::Record {
                    line: *line,
                    problem: format!("row has {} cells, the first row has {width}", row.len()),
                });
            }
            for (x, &ch) in row.iter().enumerate() {
                let p = Point::new(x as u8, y as u8);
                match ch {
                    'X' | 'x' => stones.push((p, Color::Black)),
                    'O' | 'o' => stones.push((p, Color::White)),
                    '*' => shared = Some(p),
                    '.' | '+' | '-' => {}
                    other => {
                        return Err(RuleError::Record {
                            line: *line,
                            problem: format!("'{other}' is not a stone (use X, O, * or .)"),
                        });
                    }
                }
            }
        }
        let blacks =
            stones.iter().filter(|s| s.1 == Color::Black).count() + shared.is_some() as usize;
        let whites = stones.len() + shared.is_some() as usize - blacks;
        let to_move = if blacks > whites {
            Color::White
        } else {
            Color::Black
        };
        let mut b = Board::from_stones(variant, width, height, &stones, to_move)?;
        if let Some(p) = shared {
            let cell = b.cell_of(p)?;
            b.cells[cell] = SHARED;
            b.counters.placed[0] += 1;
            b.empties -= 1;
            b.rebuild_lines();
            b.key = b.computed_key();
        }
        Ok(b)
    }

    // ----- geometry -------------------------------------------------------------------

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn centre(&self) -> Point {
        Point::new((self.width / 2) as u8, (self.height / 2) as u8)
    }

    #[inline]
    fn index(&self, x: usize, y: usize) -> usize {
        (y + PAD) * self.stride + x + PAD
    }

    #[inline]
    fn point_of(&self, cell: usize) -> Point {
        Point::new(
            (cell % self.stride - PAD) as u8,
            (cell / self.stride - PAD) as u8,
        )
    }

    fn cell_of(&self, p: Point) -> Result<usize, RuleError> {
        if (p.x as usize) < self.width && (p.y as usize) < self.height {
            Ok(self.index(p.x as usize, p.y as usize))
        } else {
            Err(RuleError::OffBoard {
                x: p.x as i64,
                y: p.y as i64,
            })
        }
    }

    /// The point at `x`, `y`, if it is on this board.
    pub fn point(&self, x: i64, y: i64) -> Result<Point, RuleError> {
        if (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y) {
            Ok(Point::new(x as u8, y as u8))
        } else {
            Err(RuleError::OffBoard { x, y })
        }
    }

    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Point::new(x as u8, y as u8)))
    }

    // ----- reading the position --------------------------------------------------------

    /// The stone on `p`, as the colour it counts for (`None` if empty). A shared centre
    /// stone reads as black, who placed it.
    pub fn stone(&self, p: Point) -> Option<Color> {
        let cell = self.cell_of(p).ok()?;
        stone_color(self.cells[cell]).or((self.cells[cell] == SHARED).then_some(Color::Black))
    }

    /// Whether the stone on `p` is a counting game's spent stone.
    pub fn is_spent(&self, p: Point) -> bool {
        self.cell_of(p)
            .is_ok_and(|c| matches!(self.cells[c], BLACK_SPENT | WHITE_SPENT))
    }

    /// Whether the stone on `p` is gomoku-shared-centre's shared stone.
    pub fn is_shared(&self, p: Point) -> bool {
        self.cell_of(p).is_ok_and(|c| self.cells[c] == SHARED)
    }

    pub fn is_empty(&self, p: Point) -> bool {
        self.cell_of(p).is_ok_and(|c| self.cells[c] == EMPTY)
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn key(&self) -> Key {
        self.key
    }
    pub fn outcome(&self) -> Outcome {
        self.counters.outcome
    }
    /// Stones `color` has placed.
    pub fn placed(&self, color: Color) -> u16 {
        self.counters.placed[color.index()]
    }
    /// Enemy stones `color` has captured.
    pub fn captured(&self, color: Color) -> u16 {
        self.counters.captured[color.index()]
    }
    /// Rows `color` has scored (counting games).
    pub fn rows(&self, color: Color) -> u16 {
        self.counters.rows[color.index()]
    }
    /// Stones `color` may still place, where the variant limits them.
    pub fn stones_left(&self, color: Color) -> Option<u16> {
        self.variant
            .supply()
            .map(|s| s.saturating_sub(self.placed(color)))
    }
    /// Moves played since the start or the set-up, in order (a forbidden move that a
    /// referee ruled on is not among them: it was never placed).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().filter(|u| !u.verdict).map(|u| u.mv)
    }
    /// The set-up stones the history starts from.
    pub fn setup(&self) -> &[(Point, Color)] {
        &self.setup
    }
    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.width * self.height - self.empties
    }

    /// The pattern a stone of `color` placed on the empty point `p` would make along
    /// direction `dir` (an index into [`DIRECTIONS`]). Meaningless on an occupied point.
    #[inline]
    pub fn pattern(&self, p: Point, color: Color, dir: usize) -> Pattern {
        let cell = self.index(p.x as usize, p.y as usize);
        self.pats[at(cell)][dir][color.index()]
    }

    /// The four patterns a stone of `color` would make on `p`, one per direction.
    #[inline]
    pub fn patterns(&self, p: Point, color: Color) -> [Pattern; 4] {
        let cell = at(self.index(p.x as usize, p.y as usize));
        let c = color.index();
        [
            // One cell's patterns lie together: one cache line for all four.
            self.pats[cell][0][c],
            self.pats[cell][1][c],
            self.pats[cell][2][c],
            self.pats[cell][3][c],
        ]
    }

    /// Whether `color` has a point that makes five (for the side to move: a win now;
    /// for the other side: a four to block).
    #[inline]
    pub fn has_five_point(&self, color: Color) -> bool {
        self.fives[color.index()].any()
    }

    /// The empty points where `color` makes five, row by row.
    #[inline]
    pub fn five_points(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.fives[color.index()].cells().map(|c| self.point_of(c))
    }

    /// Whether `color` has a point that makes at least a four.
    #[inline]
    pub fn has_four_point(&self, color: Color) -> bool {
        self.fours[color.index()].any()
    }

    /// The empty points where `color` makes at least a four (fives included), row by
    /// row: the moves of a threat search by fours.
    #[inline]
    pub fn four_points(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.fours[color.index()].cells().map(|c| self.point_of(c))
    }

    /// Every empty point with a stone within two points along one of its lines, row by
    /// row: where a search looks for moves. Each row's answer is the stone rows around it
    /// shifted onto it, less its own stones.
    pub fn empties_near_stones(&self, out: &mut Vec<Point>) {
        out.clear();
        let r = &self.rows;
        let on_board = ((1u64 << self.width) - 1) << 2;
        for y in 0..self.height {
            let i = y + 2;
            let (a2, a1, h, b1, b2) = (r[i - 2], r[i - 1], r[i], r[i + 1], r[i + 2]);
            let near = h << 1
                | h << 2
                | h >> 1
                | h >> 2
                | a1
                | b1
                | a2
                | b2
                | a1 << 1
                | a1 >> 1
                | b1 << 1
                | b1 >> 1
                | a2 << 2
                | a2 >> 2
                | b2 << 2
                | b2 >> 2;
            let mut bits = near & !h & on_board;
            while bits != 0 {
                let x = bits.trailing_zeros() - 2;
                out.push(Point::new(x as u8, y as u8));
                bits &= bits - 1;
            }
        }
    }

    /// Whether a stone of either colour lies within `radius` (1..=5) points of `p` along
    /// one of its four lines: the neighbourhood moves are searched in. Read from the line
    /// keys, so it costs four loads.
    #[inline]
    pub fn has_stone_near(&self, p: Point, radius: i32) -> bool {
        // A field holds a stone when its two bits differ (OWN = 01, OPP = 10).
        let mut mask = 0u32;
        for k in 1..=radius {
            mask |= 1 << (2 * pattern::field(k)) | 1 << (2 * pattern::field(-k));
        }
        let cell = at(self.index(p.x as usize, p.y as usize));
        (0..4).any(|d| {
            let k = self.keys[d][cell];
            (k ^ (k >> 1)) & mask != 0
        })
    }

    /// Whether a stone of `color` on `p` would capture (capture variants only).
    pub fn captures_at(&self, p: Point, color: Color) -> bool {
        let Some(rule) = self.variant.captures() else {
            return false;
        };
        let cell = self.index(p.x as usize, p.y as usize);
        (0..8).any(|d| {
            let step = if d < 4 {
                self.step[d]
            } else {
                -self.step[d - 4]
            };
            (rule.min_len..=rule.max_len).any(|len| {
                (1..=len as isize).all(|k| {
                    stone_color(self.cells[at(cell.wrapping_add_signed(k * step))])
                        == Some(color.opposite())
                }) && stone_color(
                    self.cells[at(cell.wrapping_add_signed((len as isize + 1) * step))],
                ) == Some(color)
            })
        })
    }

    /// The 5x5 square around `p` (`p` itself left out) as `color` sees it, two bits a
    /// point: 0 empty, 1 `color`'s stone (or the shared centre stone), 2 the other
    /// side's, 3 off the board or a spent stone. It says what shape a point sits in
    /// wherever on the board it is.
    pub fn square_shape(&self, p: Point, color: Color) -> u64 {
        let own = match color {
            Color::Black => BLACK,
            Color::White => WHITE,
        };
        // The walls are five deep, so the square never leaves the cell array.
        let corner = self.index(p.x as usize, p.y as usize) - 2 * self.stride - 2;
        let mut code = 0;
        for dy in 0..5 {
            for dx in 0..5 {
                if dx == 2 && dy == 2 {
                    continue;
                }
                let v = match self.cells[at(corner + dy * self.stride + dx)] {
                    EMPTY => 0,
                    SHARED => 1,
                    s if s == own => 1,
                    BLACK | WHITE => 2,
                    _ => 3,
                };
                code = code << 2 | v;
            }
        }
        code
    }

    /// The line key of `p` along `dir` as `color` sees it (see [`pattern`]).
    pub fn line_key(&self, p: Point, color: Color, dir: usize) -> u32 {
        self.key_of(self.index(p.x as usize, p.y as usize), dir, color)
    }

    /// The line key of `cell` along `d` as `color` sees it.
    #[inline]
    fn key_of(&self, cell: usize, d: usize, color: Color) -> u32 {
        match color {
            Color::Black => self.keys[d][at(cell)],
            Color::White => self.white_key(cell, d),
        }
    }

    /// White's line key: black's with the colours swapped, and the shared centre stone
    /// (which black's key shows as black's) put back as white's own.
    #[inline]
    fn white_key(&self, cell: usize, d: usize) -> u32 {
        let key = pattern::swap_colors(self.keys[d][at(cell)]);
        match self.shared_offset(cell, d) {
            Some(k) => pattern::with_own(key, k),
            None => key,
        }
    }

    /// Where the shared centre stone lies on `cell`'s line along `d`, if it is on the
    /// board and within five points.
    #[inline]
    fn shared_offset(&self, cell: usize, d: usize) -> Option<i32> {
        if self.cells[at(self.centre_cell)] != SHARED {
            return None;
        }
        let (cx, cy) = self.xy(cell);
        let (sx, sy) = self.xy(self.centre_cell);
        let (dx, dy) = DIRECTIONS[d];
        line_offset(sx - cx, sy - cy, dx, dy)
    }

    // ----- incremental update ----------------------------------------------------------

    /// Puts `new` on `cell` and brings keys, patterns, the Zobrist key and the empty
    /// count up to date. The one place where cells change during play.
    #[inline]
    fn set_cell(&mut self, cell: usize, new: u8) {
        let old = self.cells[at(cell)];
        debug_assert!(old != WALL && new != WALL);
        self.cells[at(cell)] = new;
        let zi = at(cell) % MAX_CELLS;
        if old != EMPTY {
            self.key ^= STONE_KEYS[old as usize * MAX_CELLS + zi];
        } else {
            self.empties -= 1;
        }
        if new != EMPTY {
            self.key ^= STONE_KEYS[new as usize * MAX_CELLS + zi];
        } else {
            self.empties += 1;
        }
        if (old == EMPTY) != (new == EMPTY) {
            let [x, y] = self.coords[at(cell)];
            self.rows[y as usize + 2] ^= 1 << (x as usize + 2);
        }
        let diff = VIEW[old as usize] ^ VIEW[new as usize];
        let pair = self.pair;
        // Threat bits change only where a four or five comes or goes, which is rare:
        // the loop marks those points without a branch, and they are recomputed after
        // it. (Unrolled by hand: the shifts are then constants.)
        let mut touched = 0u64;
        for d in 0..4 {
            let (step, back) = (self.step[d], -self.step[d]);
            let keys = &mut self.keys[d];
            let pats = &mut self.pats;
            let mut marks = 0u64;
            // `cell` sits at offset -k from `up` and at +k from `down`. Occupied points get
            // patterns too: a store is cheaper than a branch that would skip it.
            macro_rules! update {
                ($k:literal) => {{
                    let u = at(cell.wrapping_add_signed($k * step));
                    let w = at(cell.wrapping_add_signed($k * back));
                    keys[u] ^= diff << (2 * pattern::field(-$k));
                    keys[w] ^= diff << (2 * pattern::field($k));
                    let new_u = pair.get(keys[u]);
                    let new_w = pair.get(keys[w]);
                    // Bit 3 of each byte: a four or more before or after.
                    let fu = (pair_bits(pats[u][d]) | pair_bits(new_u)) & 0x0808 != 0;
                    let fw = (pair_bits(pats[w][d]) | pair_bits(new_w)) & 0x0808 != 0;
                    marks |= (fu as u64) << (2 * $k - 2) | (fw as u64) << (2 * $k - 1);
                    pats[u][d] = new_u;
                    pats[w][d] = new_w;
                }};
            }
            update!(1);
            update!(2);
            update!(3);
            update!(4);
            update!(5);
            touched |= marks << (10 * d);
        }
        while touched != 0 {
            let bit = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let (d, k) = (bit / 10, (bit % 10 / 2 + 1) as isize);
            let off = if bit.is_multiple_of(2) { k } else { -k } * self.step[d];
            self.refresh_threats(cell.wrapping_add_signed(off));
        }
        self.refresh_threats(cell);
        if self.variant.shared_centre() {
            self.fix_shared_lines();
        }
    }

    /// Brings `cell`'s bits in `fives` and `fours` up to date with its patterns.
    #[inline]
    fn refresh_threats(&mut self, cell: usize) {
        let c = at(cell);
        Threats {
            fives: &mut self.fives,
            fours: &mut self.fours,
            flags: &mut self.threat_flags,
        }
        .refresh(c, &self.pats[c], self.cells[c] == EMPTY);
    }

    fn refresh_patterns(&mut self, cell: usize) {
        for d in 0..4 {
            let key = self.keys[d][at(cell)];
            self.pats[at(cell)][d] = self.pair.get(key);
        }
        self.refresh_threats(cell);
        if self.variant.shared_centre() {
            self.fix_shared_lines();
        }
    }

    /// Gomoku-shared-centre: the pair table reads the shared stone as black's; give the
    /// empty points on its four lines white's true patterns.
    fn fix_shared_lines(&mut self) {
        if self.cells[at(self.centre_cell)] != SHARED {
            return;
        }
        let tw = self.tables[1];
        for d in 0..4 {
            for k in (-5..=5isize).filter(|&k| k != 0) {
                let other = at(self.centre_cell.wrapping_add_signed(k * self.step[d]));
                if self.cells[other] == EMPTY {
                    self.pats[other][d][1] = tw[self.white_key(other, d) as usize];
                    self.refresh_threats(other);
                }
            }
        }
    }

    /// The line key (black's view) a cell would have, computed from the cells around it.
    fn computed_line_key(&self, cell: usize, d: usize) -> u32 {
        let mut key = 0;
        for k in (-5..=5i32).filter(|&k| k != 0) {
            let other = at(cell.wrapping_add_signed(k as isize * self.step[d]));
            key |= VIEW[self.cells[other] as usize] << (2 * pattern::field(k));
        }
        key
    }

    /// Recomputes every on-board cell's line keys, patterns and the stone rows from the
    /// cells.
    fn rebuild_lines(&mut self) {
        self.rows = [0; MAX_SIDE + 4];
        for y in 0..self.height {
            for x in 0..self.width {
                if !matches!(self.cells[self.index(x, y)], EMPTY | WALL) {
                    self.rows[y + 2] |= 1 << (x + 2);
                }
            }
        }
        for y in 0..self.height {
            for x in 0..self.width {
                let cell = self.index(x, y);
                for d in 0..4 {
                    self.keys[d][cell] = self.computed_line_key(cell, d);
                }
            }
        }
        for y in 0..self.height {
            for x in 0..self.width {
                self.refresh_patterns(self.index(x, y));
            }
        }
    }

    /// The Zobrist key computed from scratch.
    pub fn computed_key(&self) -> Key {
        let mut key = Key(0);
        for y in 0..self.height {
            for x in 0..self.width {
                let cell = self.index(x, y);
                let s = self.cells[cell];
                if s != EMPTY {
                    key ^= STONE_KEYS[s as usize * MAX_CELLS + cell];
                }
            }
        }
        key ^ self.state_key()
    }

    /// The part of the key that is not stones: side to move, a pending pass, counters.
    fn state_key(&self) -> Key {
        let side = if self.to_move == Color::White {
            SIDE_KEY
        } else {
            Key(0)
        };
        side ^ counters_key(&self.counters)
    }

    /// Checks every incremental structure against one computed from scratch: line keys
    /// and patterns of every empty point, the empty count and the Zobrist key. For tests
    /// and debugging; returns what differs.
    pub fn verify(&self) -> Result<(), String> {
        let mut empties = 0;
        for y in 0..self.height {
            for x in 0..self.width {
                let cell = self.index(x, y);
                let p = Point::new(x as u8, y as u8);
                for d in 0..4 {
                    let want = self.computed_line_key(cell, d);
                    if self.keys[d][cell] != want {
                        return Err(format!(
                            "line key of {p} dir {d}: {:x} != {want:x}",
                            self.keys[d][cell]
                        ));
                    }
                }
                for c in Color::BOTH {
                    let empty = self.cells[cell] == EMPTY;
                    let pats = self.patterns(p, c);
                    let five = empty && pats.contains(&Pattern::Five);
                    let four = empty && pats.iter().any(|&t| t >= Pattern::Block4);
                    let bit = |b: &Bits| b.0[cell / 64] >> (cell % 64) & 1 == 1;
                    if bit(&self.fives[c.index()]) != five || bit(&self.fours[c.index()]) != four {
                        return Err(format!("threat bits of {p} for {c}"));
                    }
                }
                if self.cells[cell] == EMPTY {
                    empties += 1;
                    for c in Color::BOTH {
                        for d in 0..4 {
                            let want = self.tables[c.index()][self.key_of(cell, d, c) as usize];
                            if self.pats[cell][d][c.index()] != want {
                                return Err(format!("pattern of {p} for {c} dir {d}"));
                            }
                        }
                    }
                }
            }
        }
        if let Some(p) = self
            .points()
            .find(|&p| self.is_empty(p) == (self.rows[p.y as usize + 2] >> (p.x + 2) & 1 == 1))
        {
            return Err(format!("stone rows disagree with the cells at {p}"));
        }
        if empties != self.empties {
            return Err(format!("empty count {} != {empties}", self.empties));
        }
        if self.key != self.computed_key() {
            return Err("zobrist key differs from the recomputed one".into());
        }
        Ok(())
    }

    // ----- legality ----------------------------------------------------------------------

    /// Whether the side to move may make `mv` now; the error names the reason if not.
    pub fn check(&self, mv: Move) -> Result<(), RuleError> {
        self.check_with(mv, true)
    }

    /// Plays `mv` checked like [`play`] except for the opening restrictions: a manager
    /// or a record may start from any opening (Gomocup's balanced openings), while the
    /// engine's own moves keep to the rules.
    pub fn play_any_opening(&mut self, mv: Move) -> Result<Outcome, RuleError> {
        self.check_with(mv, false)?;
        self.play_unchecked(mv);
        Ok(self.counters.outcome)
    }

    fn check_with(&self, mv: Move, openings: bool) -> Result<(), RuleError> {
        if self.counters.outcome != Outcome::Ongoing {
            return Err(RuleError::GameOver);
        }
        let c = self.to_move;
        let p = match mv {
            Move::Pass if self.variant.passes() => return Ok(()),
            Move::Pass => return Err(RuleError::PassNotAllowed),
            Move::Place(p) => p,
        };
        let cell = self.cell_of(p)?;
        if self.cells[cell] != EMPTY {
            return Err(RuleError::Occupied(p));
        }
        if self.stones_left(c) == Some(0) {
            return Err(RuleError::OutOfStones(c));
        }
        let stones_placed = self.counters.placed[0] + self.counters.placed[1];
        let centre = self.centre();
        if openings && self.variant.centre_first() && stones_placed == 0 && p != centre {
            return Err(RuleError::Restricted {
                point: p,
                rule: "the first stone goes on the centre",
            });
        }
        if openings && self.variant.second_stone_far() && stones_placed == 2 && c == Color::Black {
            let dist = (p.x as i32 - centre.x as i32)
                .abs()
                .max((p.y as i32 - centre.y as i32).abs());
            if dist < 3 {
                return Err(RuleError::Restricted {
                    point: p,
                    rule: "black's second stone goes 3 or more lines from the centre",
                });
            }
        }
        if let Some(foul) = self.foul(p, c) {
            return Err(RuleError::Forbidden {
                point: p,
                color: c,
                reason: foul.name(),
            });
        }
        Ok(())
    }

    /// Every move the side to move may make now (passes included where allowed).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out: Vec<Move> = self
            .points()
            .map(Move::Place)
            .filter(|&m| self.check(m).is_ok())
            .collect();
        if self.check(Move::Pass).is_ok() {
            out.push(Move::Pass);
        }
        out
    }

    // ----- playing -------------------------------------------------------------------------

    /// Plays `mv` for the side to move after checking it.
    pub fn play(&mut self, mv: Move) -> Result<Outcome, RuleError> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(self.counters.outcome)
    }

    /// Plays `mv` as a referee judges it: a legal move is played; a forbidden point
    /// ends the game, lost by the side that played it, without placing the stone (the
    /// rules document: the engine "reports one played by the other side as a loss …,
    /// with the reason"); any other illegal move is an error and changes nothing.
    pub fn referee(&mut self, mv: Move) -> Result<Outcome, RuleError> {
        match self.check(mv) {
            Err(RuleError::Forbidden { point, color, .. }) => {
                let foul = self.foul(point, color).expect("check found a foul here");
                let passes_before = self.counters.passes;
                self.counters.outcome = Outcome::Win {
                    winner: color.opposite(),
                    reason: WinReason::Foul { point, foul },
                };
                // Kept in the history so that undo takes the verdict back.
                self.history.push(Undo {
                    mv,
                    color,
                    passes_before,
                    n_removed: 0,
                    n_spent: 0,
                    rows_scored: 0,
                    verdict: true,
                });
                self.to_move = color.opposite();
                self.key ^= SIDE_KEY;
                Ok(self.counters.outcome)
            }
            Err(e) => Err(e),
            Ok(()) => self.play(mv),
        }
    }

    /// Plays a move the caller knows to be legal (see [`check`]); the game must be
    /// ongoing.
    pub fn play_unchecked(&mut self, mv: Move) {
        let c = self.to_move;
        let before = self.counters;
        let mut undo = Undo {
            mv,
            color: c,
            passes_before: before.passes,
            n_removed: 0,
            n_spent: 0,
            rows_scored: 0,
            verdict: false,
        };
        match mv {
            Move::Pass => {
                self.counters.passes += 1;
                if self.counters.passes >= 2 {
                    self.counters.outcome = Outcome::Draw(DrawReason::DoublePass);
                }
            }
            Move::Place(p) => {
                let cell = self.index(p.x as usize, p.y as usize);
                let pats = [0, 1, 2, 3].map(|d| self.pats[at(cell)][d][c.index()]);
                let first = self.counters.placed == [0, 0];
                let state = if self.variant.shared_centre() && first {
                    SHARED
                } else {
                    stone_of(c)
                };
                self.set_cell(cell, state);
                self.counters.placed[c.index()] += 1;
                self.counters.passes = 0;
                if let Some(rule) = self.variant.captures() {
                    self.capture(cell, c, rule.min_len, rule.max_len, &mut undo);
                }
                let five = (0..4).find(|&d| pats[d] == Pattern::Five);
                if self.variant.counting() {
                    self.score_rows(cell, c, &pats, &mut undo);
                } else if let Some(d) = five {
                    let (from, to) = self.run_ends(cell, c, d);
                    self.counters.outcome = Outcome::Win {
                        winner: c,
                        reason: WinReason::Five { from, to },
                    };
                }
                if self.counters.outcome == Outcome::Ongoing {
                    self.counters.outcome = self.outcome_after_placement(c);
                }
            }
        }
        self.to_move = c.opposite();
        self.key ^= SIDE_KEY ^ counters_key_change(&before, &self.counters);
        self.history.push(undo);
    }

    /// The result after a placement that made no five (or any placement, counting games).
    fn outcome_after_placement(&self, c: Color) -> Outcome {
        let v = self.variant;
        if let Some(win_at) = v.captures().and_then(|r| r.win_at) {
            let n = self.counters.captured[c.index()];
            if n >= win_at {
                return Outcome::Win {
                    winner: c,
                    reason: WinReason::Captures(n),
                };
            }
        }
        if v.black_loses_when_out_of_stones() && c == Color::Black && self.stones_left(c) == Some(0)
        {
            return Outcome::Win {
                winner: Color::White,
                reason: WinReason::OutOfStones,
            };
        }
        let next_out = self.stones_left(c.opposite()) == Some(0);
        if self.empties > 0 && !next_out {
            return Outcome::Ongoing;
        }
        if v.counting() {
            let [black, white] = self.counters.rows;
            return match black.cmp(&white) {
                std::cmp::Ordering::Greater => Outcome::Win {
                    winner: Color::Black,
                    reason: WinReason::Count { black, white },
                },
                std::cmp::Ordering::Less => Outcome::Win {
                    winner: Color::White,
                    reason: WinReason::Count { black, white },
                },
                std::cmp::Ordering::Equal => Outcome::Draw(DrawReason::EqualCount(black)),
            };
        }
        if self.empties == 0 {
            Outcome::Draw(DrawReason::BoardFull)
        } else {
            Outcome::Draw(DrawReason::OutOfStones)
        }
    }

    /// Custodial captures by the stone just placed on `cell`.
    fn capture(&mut self, cell: usize, c: Color, min_len: usize, max_len: usize, undo: &mut Undo) {
        for d in 0..8 {
            let step = if d < 4 {
                self.step[d]
            } else {
                -self.step[d - 4]
            };
            for len in min_len..=max_len {
                let enclosed = (1..=len as isize).all(|k| {
                    stone_color(self.cells[cell.wrapping_add_signed(k * step)])
                        == Some(c.opposite())
                });
                let closer = cell.wrapping_add_signed((len as isize + 1) * step);
                if enclosed && stone_color(self.cells[closer]) == Some(c) {
                    for k in 1..=len as isize {
                        let other = cell.wrapping_add_signed(k * step);
                        self.removed.push((other as u16, self.cells[other]));
                        undo.n_removed += 1;
                        self.set_cell(other, EMPTY);
                    }
                    self.counters.captured[c.index()] += len as u16;
                    break;
                }
            }
        }
    }

    /// Counting games: every line where the move made a row scores one, and its stones
    /// are spent.
    fn score_rows(&mut self, cell: usize, c: Color, before: &[Pattern; 4], undo: &mut Undo) {
        let mut scored = false;
        for (d, pat) in before.iter().enumerate() {
            if *pat != Pattern::Five {
                continue;
            }
            self.counters.rows[c.index()] += 1;
            undo.rows_scored += 1;
            scored = true;
            for sign in [1isize, -1] {
                let step = sign * self.step[d];
                let mut other = cell.wrapping_add_signed(step);
                while self.cells[other] == stone_of(c) {
                    self.spent.push(other as u16);
                    undo.n_spent += 1;
                    self.set_cell(other, spent_of(c));
                    other = other.wrapping_add_signed(step);
                }
            }
        }
        if scored {
            self.spent.push(cell as u16);
            undo.n_spent += 1;
            self.set_cell(cell, spent_of(c));
        }
    }

    /// The two ends of the run of `c`'s stones through `cell` along `d`.
    fn run_ends(&self, cell: usize, c: Color, d: usize) -> (Point, Point) {
        let own = |s: u8| s == stone_of(c) || s == SHARED;
        let mut lo = cell;
        while own(self.cells[lo.wrapping_add_signed(-self.step[d])]) {
            lo = lo.wrapping_add_signed(-self.step[d]);
        }
        let mut hi = cell;
        while own(self.cells[hi.wrapping_add_signed(self.step[d])]) {
            hi = hi.wrapping_add_signed(self.step[d]);
        }
        (self.point_of(lo), self.point_of(hi))
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Move, RuleError> {
        let undo = self.history.pop().ok_or(RuleError::NothingToUndo)?;
        let after = self.counters;
        let c = undo.color.index();
        if undo.verdict {
            self.counters.outcome = Outcome::Ongoing;
            self.to_move = undo.color;
            self.key ^= SIDE_KEY;
            return Ok(undo.mv);
        }
        self.counters.passes = undo.passes_before;
        self.counters.captured[c] -= undo.n_removed as u16;
        self.counters.rows[c] -= undo.rows_scored as u16;
        self.counters.outcome = Outcome::Ongoing;
        for _ in 0..undo.n_spent {
            let cell = self.spent.pop().expect("spent stack matches history");
            self.set_cell(cell as usize, stone_of(undo.color));
        }
        for _ in 0..undo.n_removed {
            let (cell, state) = self.removed.pop().expect("removed stack matches history");
            self.set_cell(cell as usize, state);
        }
        if let Move::Place(p) = undo.mv {
            let cell = self.index(p.x as usize, p.y as usize);
            self.set_cell(cell, EMPTY);
            self.counters.placed[c] -= 1;
        }
        self.to_move = undo.color;
        self.key ^= SIDE_KEY ^ counters_key_change(&after, &self.counters);
        Ok(undo.mv)
    }

    // ----- fouls -------------------------------------------------------------------------

    /// Why `color` may not play on the empty point `p`, if it may not.
    pub fn foul(&self, p: Point, color: Color) -> Option<Foul> {
        if !self.variant.has_fouls(color) || !self.is_empty(p) {
            return None;
        }
        let cell = self.index(p.x as usize, p.y as usize);
        if !self.may_be_foul(cell, color) {
            return None;
        }
        self.foul_at(cell, color, &mut Extras::new())
    }

    /// Every point where `color` may not play, with the reason, row by row.
    pub fn forbidden_points(&self, color: Color) -> Vec<(Point, Foul)> {
        let mut out = Vec::new();
        self.forbidden_points_into(color, &mut out);
        out
    }

    /// [`forbidden_points`] into a caller's buffer (cleared first).
    pub fn forbidden_points_into(&self, color: Color, out: &mut Vec<(Point, Foul)>) {
        out.clear();
        if !self.variant.has_fouls(color) {
            return;
        }
        let mut extras = Extras::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let cell = self.index(x, y);
                if self.cells[cell] == EMPTY && self.may_be_foul(cell, color) {
                    extras.len = 0;
                    if let Some(f) = self.foul_at(cell, color, &mut extras) {
                        out.push((Point::new(x as u8, y as u8), f));
                    }
                }
            }
        }
    }

    /// A cheap test on the stored patterns: false means surely no foul.
    #[inline]
    fn may_be_foul(&self, cell: usize, color: Color) -> bool {
        let mut fours = 0;
        let mut threes = 0;
        for d in 0..4 {
            let p = self.pats[at(cell)][d][color.index()];
            match p {
                Pattern::Five => return false,
                Pattern::Overline | Pattern::Flex4 => return true,
                _ => {}
            }
            fours += p.fours();
            threes += (p == Pattern::Flex3) as u32;
        }
        fours >= 2 || threes >= 2
    }

    /// The line key of `cell` along `d` for `color`, with the hypothetical stones added.
    fn key_with(&self, cell: usize, d: usize, color: Color, extras: &Extras) -> u32 {
        let mut key = self.key_of(cell, d, color);
        if extras.len > 0 {
            let (cx, cy) = self.xy(cell);
            let (dx, dy) = DIRECTIONS[d];
            for &(_, ex, ey) in &extras.cells[..extras.len] {
                if let Some(k) = line_offset(ex - cx, ey - cy, dx, dy) {
                    key = pattern::with_own(key, k);
                }
            }
        }
        key
    }

    /// The pattern on `cell` along `d` for `color`, with the hypothetical stones added.
    fn pattern_with(&self, cell: usize, d: usize, color: Color, extras: &Extras) -> Pattern {
        self.tables[color.index()][self.key_with(cell, d, color, extras) as usize]
    }

    #[inline]
    fn xy(&self, cell: usize) -> (i32, i32) {
        ((cell % self.stride) as i32, (cell / self.stride) as i32)
    }

    /// The foul on the empty `cell` for `color`, with `extras` already on the board.
    fn foul_at(&self, cell: usize, color: Color, extras: &mut Extras) -> Option<Foul> {
        let mut pats = [Pattern::Dead; 4];
        for (d, p) in pats.iter_mut().enumerate() {
            *p = self.pattern_with(cell, d, color, extras);
        }
        if pats.contains(&Pattern::Five) {
            return None;
        }
        let rule = self.variant.foul_rule();
        if rule == super::variant::FoulRule::StraightFourBlack {
            return pats.contains(&Pattern::Flex4).then_some(Foul::StraightFour);
        }
        let renju = rule == super::variant::FoulRule::Renju;
        if renju && pats.iter().map(|p| p.fours()).sum::<u32>() >= 2 {
            return Some(Foul::DoubleFour);
        }
        if pats.iter().filter(|&&p| p == Pattern::Flex3).count() >= 2
            && extras.len < extras.cells.len()
        {
            let (x, y) = self.xy(cell);
            extras.cells[extras.len] = (cell, x, y);
            extras.len += 1;
            let mut real = 0;
            for (d, &p) in pats.iter().enumerate() {
                if p == Pattern::Flex3 && self.is_real_three(cell, d, color, extras) {
                    real += 1;
                    if real == 2 {
                        break;
                    }
                }
            }
            extras.len -= 1;
            if real >= 2 {
                return Some(Foul::DoubleThree);
            }
        }
        if renju && pats.contains(&Pattern::Overline) {
            return Some(Foul::Overline);
        }
        None
    }

    /// Whether the three that the stone on `cell` (already in `extras`) makes along `d`
    /// is real: some point turns it into a straight four without making a five anywhere,
    /// and that point is not itself forbidden.
    fn is_real_three(&self, cell: usize, d: usize, color: Color, extras: &mut Extras) -> bool {
        let key = self.key_with(cell, d, color, extras);
        let table = self.tables[color.index()];
        for k in (-4..=4i32).filter(|&k| k != 0) {
            let e = cell.wrapping_add_signed(k as isize * self.step[d]);
            if self.cells[e] != EMPTY || extras.contains(e) {
                continue;
            }
            let with_e = pattern::with_own(key, k);
            if table[with_e as usize] != Pattern::Flex4 {
                continue;
            }
            if (0..4).any(|d2| self.pattern_with(e, d2, color, extras) == Pattern::Five) {
                continue;
            }
            if self.foul_at(e, color, extras).is_none() {
                return true;
            }
        }
        false
    }

    // ----- text --------------------------------------------------------------------------

    /// The bare diagram (`X`, `O`, `*`, `.`; spent stones as `x`, `o`), `y = 0` first.
    pub fn diagram(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(match self.cells[self.index(x, y)] {
                    BLACK => 'X',
                    WHITE => 'O',
                    SHARED => '*',
                    BLACK_SPENT => 'x',
                    WHITE_SPENT => 'o',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

/// The offset `k` (±1..=±5) with (dx, dy) = k * (ux, uy), if there is one.
#[inline]
fn line_offset(dx: i32, dy: i32, ux: i32, uy: i32) -> Option<i32> {
    let k = if ux != 0 { dx * ux } else { dy * uy };
    (k != 0 && k.abs() <= 5 && dx == k * ux && dy == k * uy).then_some(k)
}

const fn stone_of(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

const fn spent_of(c: Color) -> u8 {
    match c {
        Color::Black => BLACK_SPENT,
        Color::White => WHITE_SPENT,
    }
}

/// The colour of a stone state, spent or not; `None` for empty, wall and shared.
const fn stone_color(s: u8) -> Option<Color> {
    match s {
        BLACK | BLACK_SPENT => Some(Color::Black),
        WHITE | WHITE_SPENT => Some(Color::White),
        _ => None,
    }
}

impl fmt::Display for Board {
    /// A board with coordinates: columns lettered across the top, rows numbered down
    /// the side (`y = 0`, row 1, first).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "   ")?;
        for x in 0..self.width {
            write!(f, "{:>2}", Point::column_name(x as u8))?;
        }
        writeln!(f)?;
        for (y, row) in self.diagram().lines().enumerate() {
            write!(f, "{:>3}", y + 1)?;
            for ch in row.chars() {
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
