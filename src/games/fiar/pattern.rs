//! Line patterns: what one stone placed on a point makes along one line, read from a
//! table indexed by the point's ten neighbours on that line.
//!
//! A *line key* packs the five cells on each side of a point along one direction, two
//! bits a cell, as seen by one colour (`EMPTY`, `OWN`, `OPP`, `EDGE`). Field `i` holds
//! offset `i - 5` for `i < 5` and offset `i - 4` for `i >= 5`:
//!
//! ```text
//!   offsets  -5 -4 -3 -2 -1 [p] +1 +2 +3 +4 +5
//!   fields    0  1  2  3  4      5  6  7  8  9
//! ```
//!
//! Eleven cells are exactly enough: a five through `p` spans at most `p±4`, and telling
//! five from overline needs one cell more on each side. The same holds for a straight four
//! through `p` (four stones within `p±3`, its two completion points within `p±4`).

use std::sync::OnceLock;

/// Cell codes inside a line key, relative to the colour the key is read for.
pub const EMPTY: u32 = 0;
pub const OWN: u32 = 1;
/// An opponent stone: blocks the line, and in caro closes a five's end.
pub const OPP: u32 = 2;
/// The board edge or a spent stone (counting games): blocks the line but, in caro,
/// does not close a five's end.
pub const EDGE: u32 = 3;

/// Number of bits of a line key.
pub const KEY_BITS: u32 = 20;

/// The field of a line key that holds the cell at `offset` (±1..=±5) from the centre.
#[inline]
pub const fn field(offset: i32) -> u32 {
    if offset < 0 {
        (offset + 5) as u32
    } else {
        (offset + 4) as u32
    }
}

/// `key` with the cell at `offset` (±1..=±5) made an own stone.
#[inline]
pub const fn with_own(key: u32, offset: i32) -> u32 {
    let shift = 2 * field(offset);
    key & !(3 << shift) | OWN << shift
}

/// What a stone of one colour placed on a point makes along one line, weakest first.
///
/// ```text
///   Five        X X X X [X]          wins under the variant's rule
///   Flex4       . X X X [X] .        straight four: two points make five
///   DoubleFour  X . X [X] X . X      two fours in one line (renju 4-4)
///   Block4      O X X X [X] .        one point makes five
///   Flex3       . . X X [X] . .      one more stone can make a straight four
///   Block3      O X X [X] . .        one more stone can make a four
///   Flex2 / Block2 / Flex1 / Block1  the same one and two stones further back
///   Overline    X X X X X [X]        six or more that do not win (exact-five rules),
///                                    or caro's five closed at both ends
///   Dead        no five can ever be made through this point on this line
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    Dead = 0,
    Overline,
    Block1,
    Flex1,
    Block2,
    Flex2,
    Block3,
    Flex3,
    Block4,
    DoubleFour,
    Flex4,
    Five,
}

impl Pattern {
    /// How many fours this pattern makes (a straight four counts once).
    #[inline]
    pub const fn fours(self) -> u32 {
        match self {
            Pattern::Block4 | Pattern::Flex4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }

    /// The pattern one stone short of this one.
    const fn one_back(self) -> Pattern {
        match self {
            Pattern::Flex4 => Pattern::Flex3,
            Pattern::Block4 | Pattern::DoubleFour => Pattern::Block3,
            Pattern::Flex3 => Pattern::Flex2,
            Pattern::Block3 => Pattern::Block2,
            Pattern::Flex2 => Pattern::Flex1,
            Pattern::Block2 => Pattern::Block1,
            _ => Pattern::Dead,
        }
    }
}

/// Which rows of stones win, as one line sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// Five or more.
    Free = 0,
    /// Exactly five; six or more is an overline.
    Exact = 1,
    /// Six or more, or exactly five not closed by opponent stones at both ends.
    Caro = 2,
    /// Exactly five not closed by opponent stones at both ends.
    CaroExact = 3,
}

#[inline]
const fn cell(key: u32, i: u32) -> u32 {
    (key >> (2 * i)) & 3
}

/// The outcome of the run of own stones through the centre, if that run is five or more.
fn five_status(key: u32, rule: LineRule) -> Option<Pattern> {
    let mut left = 0;
    while left < 5 && cell(key, 4 - left) == OWN {
        left += 1;
    }
    let mut right = 0;
    while right < 5 && cell(key, 5 + right) == OWN {
        right += 1;
    }
    let run = 1 + left + right;
    if run < 5 {
        return None;
    }
    // A run of exactly five lies within p±4, so both end cells are inside the window.
    let closed = run == 5 && cell(key, 4 - left) == OPP && cell(key, 5 + right) == OPP;
    Some(match rule {
        LineRule::Free => Pattern::Five,
        LineRule::Exact if run == 5 => Pattern::Five,
        LineRule::Caro if run > 5 || !closed => Pattern::Five,
        LineRule::CaroExact if run == 5 && !closed => Pattern::Five,
        _ => Pattern::Overline,
    })
}

/// The position (offset from the centre) of field `i`.
const fn offset_of(i: u32) -> i32 {
    if i < 5 { i as i32 - 5 } else { i as i32 - 4 }
}

fn build(rule: LineRule) -> Box<[Pattern]> {
    let n = 1usize << KEY_BITS;
    let mut t = vec![Pattern::Dead; n].into_boxed_slice();
    // Filling an empty field (0 -> OWN = 1) makes the key larger, so walking the keys
    // downwards sees every one-stone-more line before the line itself.
    for key in (0..n as u32).rev() {
        if let Some(p) = five_status(key, rule) {
            t[key as usize] = p;
            continue;
        }
        let mut completions = 0;
        let mut first = 0;
        let mut last = 0;
        let mut best = Pattern::Dead;
        for i in 0..10 {
            if cell(key, i) != EMPTY {
                continue;
            }
            let next = t[(key | (OWN << (2 * i))) as usize];
            if next == Pattern::Five {
                if completions == 0 {
                    first = offset_of(i);
                }
                last = offset_of(i);
                completions += 1;
            } else {
                best = best.max(next.one_back());
            }
        }
        t[key as usize] = match completions {
            0 => best,
            1 => Pattern::Block4,
            // Two points five apart complete the same four stones: `.XXXX.`.
            2 if last - first == 5 => Pattern::Flex4,
            _ => Pattern::DoubleFour,
        };
    }
    t
}

/// Number of line keys, the length of every table.
pub const KEYS: usize = 1 << KEY_BITS;

/// A pattern table: the pattern of every line key for one colour under one rule.
pub type Table = [Pattern; KEYS];

/// Both colours' patterns of every line key, indexed by black's key (white's key is
/// black's with the colours swapped): one load gives both, which is what the board's
/// incremental update wants. When neither colour's rule reads the cells five away
/// ([`LineRule::reach`]), the table leaves them out of its index: 64K entries (128 KB,
/// which stays in a core's cache) instead of 1M (2 MB, which does not).
pub struct PairTable {
    entries: Box<[[Pattern; 2]]>,
    /// How far the key is shifted before indexing: 2 drops the cell five to the left (the
    /// mask, the table's length less one, drops the one five to the right).
    shift: u32,
}

/// The pattern table of a line rule, built on first use (1M entries; tens of ms).
pub fn table(rule: LineRule) -> &'static Table {
    static TABLES: [OnceLock<Box<Table>>; 4] = [const { OnceLock::new() }; 4];
    TABLES[rule as usize].get_or_init(|| build(rule).try_into().expect("table has KEYS entries"))
}

impl PairTable {
    /// Black's and white's patterns for black's line key `key`.
    #[inline]
    pub fn get(&self, key: u32) -> [Pattern; 2] {
        self.entries[(key >> self.shift) as usize & (self.entries.len() - 1)]
    }
}

impl LineRule {
    /// How far from the centre a line's cells can change its pattern: four under the
    /// free rule (a five through the centre, or its completion points, lie within four),
    /// five where an overline or a closed end must be seen.
    pub const fn reach(self) -> u32 {
        match self {
            LineRule::Free => 4,
            LineRule::Exact | LineRule::Caro | LineRule::CaroExact => 5,
        }
    }
}

/// The pair table of a black and a white line rule, built on first use (tens of ms).
pub fn pair_table(black: LineRule, white: LineRule) -> &'static PairTable {
    static PAIRS: [OnceLock<PairTable>; 16] = [const { OnceLock::new() }; 16];
    PAIRS[black as usize * 4 + white as usize].get_or_init(|| {
        let (tb, tw) = (table(black), table(white));
        let short = black.reach() < 5 && white.reach() < 5;
        // A short table's index i is the key with the two outer cells empty: i << 2.
        let (shift, len) = if short { (2, 1 << 16) } else { (0, KEYS) };
        let entries = (0..len as u32)
            .map(|i| {
                let k = i << shift;
                [tb[k as usize], tw[swap_colors(k) as usize]]
            })
            .collect();
        PairTable { entries, shift }
    })
}

/// The same line seen by the other colour: `OWN` and `OPP` swap, `EMPTY` and `EDGE` stay.
#[inline]
pub const fn swap_colors(key: u32) -> u32 {
    const LOW: u32 = 0x5_5555;
    let low = key & LOW;
    let high = (key >> 1) & LOW;
    (low << 1) | high
}

/// A line key from a picture of the line as `own` sees it: 11 characters, the centre
/// (`[p]`, always treated as own) in the middle; `X` own, `O` opponent, `#` edge, `.` empty.
/// For tests and documentation.
pub fn key_from_picture(line: &str) -> u32 {
    let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(cells.len(), 11, "a line picture has 11 cells");
    let mut key = 0;
    for (i, &c) in cells.iter().enumerate() {
        if i == 5 {
            continue;
        }
        let code = match c {
            'X' => OWN,
            'O' => OPP,
            '#' => EDGE,
            _ => EMPTY,
        };
        key |= code << (2 * field(i as i32 - 5));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(rule: LineRule, line: &str) -> Pattern {
        table(rule)[key_from_picture(line) as usize]
    }

    #[test]
    fn classifies_shapes() {
        use LineRule::*;
        use Pattern::*;
        assert_eq!(pat(Free, "...XX?XX..."), Five);
        assert_eq!(pat(Free, "..XXX?XX..."), Five);
        assert_eq!(pat(Exact, "..XXX?XX..."), Overline);
        assert_eq!(pat(Exact, "...XX?X.X.."), Block4);
        assert_eq!(pat(Free, "....X?XX...",), Flex4);
        assert_eq!(pat(Exact, "..X.X?X.X.."), DoubleFour);
        assert_eq!(
            pat(Exact, "..XX.?.XX.."),
            Block3,
            "XX.X.XX: each gap is an overline"
        );
        assert_eq!(pat(Exact, ".XXX.?.XXX."), DoubleFour);
        assert_eq!(
            pat(Exact, "XXX.X?X.XXX"),
            Dead,
            "either gap makes an overline"
        );
        assert_eq!(pat(Free, "...OX?XX...",), Block4);
        assert_eq!(pat(Free, "....X?X....",), Flex3);
        assert_eq!(pat(Free, "...OX?X....",), Block3);
        assert_eq!(pat(Free, "....X?.X...",), Flex3);
        assert_eq!(pat(Free, ".....?.....",), Flex1);
        assert_eq!(pat(Free, "...O.?.O...",), Dead);
        assert_eq!(pat(Free, "###.X?X.O..",), Block3);
        assert_eq!(pat(Free, "##.XX?X.O..",), Flex4);
        // Exact five: a straight four whose one end would make six is only a four.
        assert_eq!(pat(Exact, "..X.X?XX...",), Block4);
        assert_eq!(pat(Free, "..X.X?XX...",), Flex4);
    }

    #[test]
    fn swapping_colours() {
        let k = key_from_picture("#XO.X?OO.#X");
        assert_eq!(swap_colors(k), key_from_picture("#OX.O?XX.#O"));
        assert_eq!(swap_colors(swap_colors(k)), k);
        let pair = pair_table(LineRule::Exact, LineRule::Free);
        let k = key_from_picture("..XXX?XX...");
        assert_eq!(pair.get(k), [Pattern::Overline, Pattern::Dead]);
    }

    /// The short pair table is exact: under a rule of reach four, no key's pattern
    /// depends on the cells five away, for either colour, and the short table gives what
    /// the full tables give for every key.
    #[test]
    fn short_tables_lose_nothing() {
        let full = table(LineRule::Free);
        let outer = 3 | 3 << (2 * field(5));
        for k in 0..KEYS as u32 {
            assert_eq!(full[k as usize], full[(k & !outer) as usize], "key {k:#x}");
        }
        let pair = pair_table(LineRule::Free, LineRule::Free);
        assert_eq!(pair.entries.len(), 1 << 16);
        for k in (0..KEYS as u32).step_by(7) {
            assert_eq!(
                pair.get(k),
                [full[k as usize], full[swap_colors(k) as usize]],
                "key {k:#x}"
            );
        }
        assert_eq!(
            pair_table(LineRule::Exact, LineRule::Free).entries.len(),
            KEYS
        );
    }

    #[test]
    fn caro_ends() {
        use LineRule::*;
        use Pattern::*;
        assert_eq!(pat(Caro, "..OXX?XXO.."), Overline);
        assert_eq!(pat(Caro, "..#XX?XXO.."), Five);
        assert_eq!(pat(Caro, "...XX?XXO.."), Five);
        assert_eq!(pat(Caro, ".OXXX?XXO.."), Five);
        assert_eq!(pat(CaroExact, ".OXXX?XXO.."), Overline);
        assert_eq!(pat(CaroExact, "..OXX?XX#.."), Five);
        // A four closed by O on one side can still win at the other end unless that end is O too.
        assert_eq!(
            pat(Caro, "..OXX?X.O.."),
            Dead,
            "its only five would be closed"
        );
        assert_eq!(pat(Caro, ".OXXX?..O.."), Block4);
    }
}
