//! Evaluation from the line patterns: what each empty point is worth to each side, and
//! the static score of a position from the side to move's view.

use crate::core::Color;
use crate::core::error::Point;
use crate::games::fiar::{Board, Pattern};

/// What a point is worth to one side: the sum of its four directional patterns' values
/// plus a value for the threat and the shape they make together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Values {
    /// Indexed by `Pattern as usize`.
    pub pattern: [i32; 12],
    /// Indexed by `Threat as usize`.
    pub threat: [i32; 7],
    /// Indexed by `Shape as usize`.
    pub shape: [i32; 4],
}

/// The evaluation's numbers: the position is worth the sum of the candidate points'
/// values to the side to move less their sum to the other side. The two sides have their
/// own values: the mover plays first, so its three that can become a four-three is
/// nearly a win, while the other side's is a point to block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub mine: Values,
    pub theirs: Values,
}

/// What move ordering values a point at (hand-set): every pattern counts, so that
/// quiet moves are ordered too, which the evaluation's fitted weights do not do.
pub const ORDER: Values = Values {
    pattern: [
        0,    // Dead
        0,    // Overline
        2,    // Block1
        5,    // Flex1
        8,    // Block2
        26,   // Flex2
        30,   // Block3
        110,  // Flex3
        130,  // Block4
        900,  // DoubleFour
        900,  // Flex4
        6000, // Five
    ],
    threat: [
        0,      // None
        0,      // Three
        800,    // DoubleThree
        0,      // Four
        2_500,  // FourThree
        4_000,  // OpenFour
        20_000, // Five
    ],
    shape: [0; 4],
};

/// The evaluation's weights. First fitted to game results by `cargo run --release
/// --example tune_eval -- --results FILES` (Texel's method, 55,923 quiet positions of
/// about 2,100 games of issue 14; held-out error 0.188 before, 0.168 after), then tuned
/// by SPSA against Rapfi classical itself (`bench/spsa_rapfi.py`: 6,280 games at 40,000
/// nodes a move, 2026-12-07), with the search's margins: self-play had kept failing to
/// predict play against Rapfi. The other side's values are the mover's times
/// [`THEIRS_RATIO`] (SPSA moved it from 0.75 to 0.68).
pub const WEIGHTS: Weights = Weights {
    mine: MINE,
    theirs: MINE.scaled(THEIRS_RATIO),
};

/// The side to move's values of [`WEIGHTS`].
const MINE: Values = Values {
    pattern: [0, 0, 0, 15, 18, 42, 61, 316, 507, 1091, 218, 3000],
    threat: [0, 175, 0, 0, 5386, 2891, 10_000],
    shape: [119, 424, 417, 1394],
};

/// The other side's values are the mover's times this, in thousandths ([`Values::scaled`];
/// [`super::tune`] derives them the same way when the mover's are tuned).
pub const THEIRS_RATIO: i32 = 680;

/// Fitted corrections to the values of single combinations of patterns ([`sorted`]), to
/// the side to move and to the other side, where the linear [`Values`] miss: fitted with
/// the weights by `tune_eval --corrections`.
pub const CORRECTIONS: &[([Pattern; 4], i32, i32)] = &[];

/// Number of [`Features`] per side: pattern counts, threat counts, shape counts.
pub const FEATURES: usize = SHAPES_AT + 4;
/// Where the threat and the shape counts start among the [`Features`].
const THREATS_AT: usize = 12;
const SHAPES_AT: usize = THREATS_AT + 7;

/// What [`evaluate`] counts, per side: how many directions of playable candidate points
/// carry each pattern, and how many points make each threat. The evaluation (before the
/// counting games' rows and the captures) is linear in these, which lets a tuner fit
/// [`Weights`] to game results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub mine: [u16; FEATURES],
    pub theirs: [u16; FEATURES],
    /// The sum of the points' [`correction`]s, the mover's less the other side's.
    pub correction: i64,
}

impl Features {
    /// How many of the side to move's points (`mover`), or the other side's, make `t`.
    pub fn threat_points(&self, mover: bool, t: Threat) -> u16 {
        let counts = if mover { &self.mine } else { &self.theirs };
        counts[THREATS_AT + t as usize]
    }
}

impl Values {
    /// Every value times `ratio` thousandths, rounded to nearest (halves up).
    pub const fn scaled(&self, ratio: i32) -> Values {
        const fn scale<const N: usize>(v: [i32; N], ratio: i32) -> [i32; N] {
            let mut out = v;
            let mut i = 0;
            while i < N {
                out[i] = ((v[i] as i64 * ratio as i64 + 500) / 1000) as i32;
                i += 1;
            }
            out
        }
        Values {
            pattern: scale(self.pattern, ratio),
            threat: scale(self.threat, ratio),
            shape: scale(self.shape, ratio),
        }
    }

    /// One point's value from its four patterns.
    pub fn point(&self, pats: [Pattern; 4]) -> i32 {
        let base: i32 = pats.iter().map(|&p| self.pattern[p as usize]).sum();
        base + self.threat[compute_threat(pats) as usize]
            + shape(pats).map_or(0, |s| self.shape[s as usize])
    }

    fn sum(&self, counts: &[u16; FEATURES]) -> i64 {
        let weights = self.pattern.iter().chain(&self.threat).chain(&self.shape);
        counts
            .iter()
            .zip(weights)
            .map(|(&n, &w)| n as i64 * w as i64)
            .sum()
    }
}

impl Weights {
    /// The pattern part of [`evaluate`], from features.
    pub fn score(&self, f: &Features) -> i64 {
        self.mine.sum(&f.mine) - self.theirs.sum(&f.theirs) + f.correction
    }
}

/// The threat a stone on a point would make, all four directions taken together,
/// strongest first. Decides forcing moves and move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Threat {
    None = 0,
    /// A three that can become a straight four.
    Three,
    /// Two threes (a 3-3).
    DoubleThree,
    /// One four (one point makes five).
    Four,
    /// A four and a three (4-3): wins unless the four's block also stops the three.
    FourThree,
    /// A straight four or two fours: the opponent cannot stop both fives.
    OpenFour,
    Five,
}

/// Combinations of patterns on one point that the threat classes do not tell apart, for
/// the evaluation: a point that makes one threat and prepares another is worth more than
/// the sum of its lines (Rapfi's pattern4 classes draw the same lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Two or more open twos, nothing bigger.
    DoubleTwo = 0,
    /// An open three with an open two or a closed three.
    ThreePlus,
    /// A closed three with another closed three or an open two, no open three.
    ClosedThreePlus,
    /// One four with an open two or a closed three, no open three.
    FourPlus,
}

/// The [`Shape`] of four directional patterns, if they make one.
pub fn shape(pats: [Pattern; 4]) -> Option<Shape> {
    let count = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    let (twos, closed, threes) = (
        count(Pattern::Flex2),
        count(Pattern::Block3),
        count(Pattern::Flex3),
    );
    let fours: u32 = pats.iter().map(|p| p.fours()).sum();
    let support = twos + closed;
    match (fours, threes) {
        (0, 0) if closed >= 1 && support >= 2 => Some(Shape::ClosedThreePlus),
        (0, 0) if twos >= 2 => Some(Shape::DoubleTwo),
        (0, 1) if support >= 1 => Some(Shape::ThreePlus),
        (1, 0) if support >= 1 && count(Pattern::Flex4) == 0 => Some(Shape::FourPlus),
        _ => None,
    }
}

/// Index of four patterns in the combination tables (12^4 entries).
#[inline]
fn combo(p: [Pattern; 4]) -> usize {
    ((p[0] as usize * 12 + p[1] as usize) * 12 + p[2] as usize) * 12 + p[3] as usize
}

/// Threat and values of one combination of four patterns, computed once: together, so
/// that a point's lookup reads one cache line rather than one a table. Eight bytes an
/// entry: the 20,736 entries take 166 KB, not 332 KB (the table is read twice for every
/// candidate point of every node; cachegrind, depth-8 bench: 5% fewer L1 read misses).
/// The evaluation's values always fit 16 bits. Move ordering's value can pass 32,767
/// only at a point that makes two or more fives at once; it is clamped there, which
/// still orders such a point before any point that makes one five or less.
#[derive(Clone, Copy)]
struct Combo {
    threat: Threat,
    /// Move ordering's value ([`ORDER`]).
    value: i16,
    /// The evaluation's values ([`WEIGHTS`], or as tuned) to the side to move and to the other.
    mine: i16,
    theirs: i16,
}

fn to_i16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn combos() -> &'static [Combo] {
    static C: std::sync::OnceLock<Box<[Combo]>> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        const ALL: [Pattern; 12] = [
            Pattern::Dead,
            Pattern::Overline,
            Pattern::Block1,
            Pattern::Flex1,
            Pattern::Block2,
            Pattern::Flex2,
            Pattern::Block3,
            Pattern::Flex3,
            Pattern::Block4,
            Pattern::DoubleFour,
            Pattern::Flex4,
            Pattern::Five,
        ];
        let weights = &super::tune::params().weights;
        let mut c = vec![
            Combo {
                threat: Threat::None,
                value: 0,
                mine: 0,
                theirs: 0,
            };
            12 * 12 * 12 * 12
        ];
        for a in ALL {
            for b in ALL {
                for d in ALL {
                    for e in ALL {
                        let p = [a, b, d, e];
                        let (m, t) = correction(p);
                        c[combo(p)] = Combo {
                            threat: compute_threat(p),
                            value: to_i16(ORDER.point(p)),
                            mine: to_i16(weights.mine.point(p) + m),
                            theirs: to_i16(weights.theirs.point(p) + t),
                        };
                    }
                }
            }
        }
        c.into_boxed_slice()
    })
}

/// The combined threat of four directional patterns.
#[inline]
pub fn threat(pats: [Pattern; 4]) -> Threat {
    combos()[combo(pats)].threat
}

fn compute_threat(pats: [Pattern; 4]) -> Threat {
    let mut fours = 0;
    let mut threes = 0;
    let mut flex4 = false;
    for p in pats {
        match p {
            Pattern::Five => return Threat::Five,
            Pattern::Flex4 => flex4 = true,
            Pattern::Flex3 => threes += 1,
            _ => {}
        }
        fours += p.fours();
    }
    if flex4 || fours >= 2 {
        Threat::OpenFour
    } else if fours == 1 && threes >= 1 {
        Threat::FourThree
    } else if fours == 1 {
        Threat::Four
    } else if threes >= 2 {
        Threat::DoubleThree
    } else if threes == 1 {
        Threat::Three
    } else {
        Threat::None
    }
}

/// [`threat`], [`point_value`] and the evaluation's value with one table index, for the
/// side to move (`mover`) or the other side.
#[inline]
pub fn threat_value(pats: [Pattern; 4], mover: bool) -> (Threat, i32, i32) {
    let c = combos()[combo(pats)];
    let value = if mover { c.mine } else { c.theirs };
    (c.threat, c.value as i32, value as i32)
}

/// What an empty point is worth to the side with these patterns there, for move order.
#[inline]
pub fn point_value(pats: [Pattern; 4]) -> i32 {
    combos()[combo(pats)].value as i32
}

/// Whether `color` may play on the empty point `p` (renju fouls and the like).
#[inline]
pub fn playable(board: &Board, p: Point, color: Color) -> bool {
    !board.variant().has_fouls(color) || board.foul(p, color).is_none()
}

/// Static score from the side to move's view: the value of every candidate point to each
/// side, the mover's weighted up because it moves first; counting games add their rows.
pub fn evaluate(board: &Board, candidates: &[Point]) -> i32 {
    let (mut mine, mut theirs) = (0i64, 0i64);
    visit_points(board, candidates, |pats, mover| {
        let value = threat_value(pats, mover).2 as i64;
        if mover {
            mine += value;
        } else {
            theirs += value;
        }
    });
    combine(board, mine, theirs)
}

/// What a row of five scores in the counting games (go-bang, ni-nuki-count).
const ROW: i64 = 3000;

/// The static score from the sums of the candidate points' values to the side to move
/// (`mine`) and to the other side (`theirs`): what [`evaluate`] returns, for callers
/// that sum the values in their own pass over the points.
pub fn combine(board: &Board, mine: i64, theirs: i64) -> i32 {
    let me = board.to_move();
    let mut score = mine - theirs;
    if board.variant().counting() {
        score += ROW * (board.rows(me) as i64 - board.rows(me.opposite()) as i64);
        // A five to make is a row in hand: the mover takes one next move. The
        // opponent's fives cost the mover a tempo to block, and a row when there are
        // two. Without this a leaf, and the pruning margins that trust the static score,
        // would miss a row's worth (the search goes on past a five in these games).
        // Not with captures (ni-nuki-count), where a five can be broken by a capture
        // and the term measured 1 win to 12 losses in 14 games against its absence.
        let opp = me.opposite();
        if board.variant().captures().is_none() {
            if board.has_five_point(me) {
                score += ROW * 5 / 6;
            } else {
                match board.five_points(opp).take(2).count() {
                    0 => {}
                    1 => score -= ROW / 10,
                    _ => score -= ROW * 2 / 3,
                }
            }
        }
    }
    if let Some(rule) = board.variant().captures() {
        let per = if rule.win_at.is_some() { 150 } else { 60 };
        score += per * (board.captured(me) as i64 - board.captured(me.opposite()) as i64);
    }
    score.clamp(-20_000, 20_000) as i32
}

/// Calls `visit` with the patterns of every candidate point to each side that may play
/// there, and whether that side is the one to move: what the evaluation sums over.
pub fn visit_points(
    board: &Board,
    candidates: &[Point],
    mut visit: impl FnMut([Pattern; 4], bool),
) {
    let me = board.to_move();
    for &p in candidates {
        for (color, mover) in [(me, true), (me.opposite(), false)] {
            if playable(board, p, color) {
                visit(board.patterns(p, color), mover);
            }
        }
    }
}

/// The counts behind the pattern part of [`evaluate`] (see [`Features`]).
pub fn features(board: &Board, candidates: &[Point]) -> Features {
    let mut f = Features {
        mine: [0; FEATURES],
        theirs: [0; FEATURES],
        correction: 0,
    };
    visit_points(board, candidates, |pats, mover| {
        let counts = if mover { &mut f.mine } else { &mut f.theirs };
        for q in pats {
            counts[q as usize] += 1;
        }
        counts[THREATS_AT + threat(pats) as usize] += 1;
        if let Some(sh) = shape(pats) {
            counts[SHAPES_AT + sh as usize] += 1;
        }
        let (m, t) = correction(pats);
        f.correction += if mover { m as i64 } else { -(t as i64) };
    });
    f
}

/// A point's four patterns strongest first: its combination, whatever the directions.
pub fn sorted(mut pats: [Pattern; 4]) -> [Pattern; 4] {
    pats.sort_unstable_by(|a, b| b.cmp(a));
    pats
}

/// The fitted correction of a combination of patterns to the side to move and to the
/// other side (zero for those not in [`CORRECTIONS`]).
pub fn correction(pats: [Pattern; 4]) -> (i32, i32) {
    let key = sorted(pats);
    CORRECTIONS
        .iter()
        .find(|c| c.0 == key)
        .map_or((0, 0), |c| (c.1, c.2))
}
