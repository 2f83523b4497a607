//! The error type of the rules layer: every way a move, a board size or a record can be wrong.

use std::fmt;

use super::Color;

/// A point on a board, zero-based: `x` is the column (left to right), `y` the row.
///
/// Its `Display` is the five-in-a-row name: column letter (a.., no letter skipped,
/// then aa, ab, … past z) and row number `y + 1`, so (7, 7) is `h8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
}

impl Point {
    /// The letters of column `x`: a..z, then aa, ab, ….
    pub fn column_name(x: u8) -> String {
        if x < 26 {
            char::from(b'a' + x).to_string()
        } else {
            let hi = x / 26 - 1;
            [char::from(b'a' + hi), char::from(b'a' + x % 26)]
                .iter()
                .collect()
        }
    }

    /// The column of a column name (`a` = 0, …, `z` = 25, `aa` = 26, …), case-insensitive.
    pub fn column_of(letters: &str) -> Option<u8> {
        let b = letters.as_bytes();
        let v = |c: u8| {
            c.is_ascii_alphabetic()
                .then(|| c.to_ascii_lowercase() - b'a')
        };
        match b.len() {
            1 => v(b[0]),
            2 => Some((v(b[0])? as u32 + 1) * 26 + v(b[1])? as u32)
                .and_then(|n| u8::try_from(n).ok()),
            _ => None,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Point::column_name(self.x), self.y as u32 + 1)
    }
}

/// Why a move, a size or a record was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// A board size outside what the game allows.
    BadSize {
        width: i64,
        height: i64,
        min: u32,
        max: u32,
    },
    /// A point outside the board.
    OffBoard { x: i64, y: i64 },
    /// A point that already holds a stone.
    Occupied(Point),
    /// A point the rules forbid to this colour (renju fouls, narabe's 3-3, …).
    Forbidden {
        point: Point,
        color: Color,
        reason: &'static str,
    },
    /// A point an opening rule does not allow yet.
    Restricted { point: Point, rule: &'static str },
    /// The side has placed all the stones the variant gives it.
    OutOfStones(Color),
    /// This variant has no pass.
    PassNotAllowed,
    /// The game is already decided.
    GameOver,
    /// There is no move to take back.
    NothingToUndo,
    /// Text that does not name a point.
    BadCoordinate(String),
    /// Text that does not name a board size.
    BadSizeText(String),
    /// A variant name the engine does not know.
    UnknownVariant(String),
    /// A record (move list, PSQ, SGF) that cannot be read; `line` counts from 1.
    Record { line: usize, problem: String },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::BadSize {
                width,
                height,
                min,
                max,
            } => write!(
                f,
                "unacceptable board size {width}x{height}: each side must be {min}..={max}"
            ),
            RuleError::OffBoard { x, y } => write!(f, "point {x},{y} is off the board"),
            RuleError::Occupied(p) => write!(f, "{p} ({},{}) is occupied", p.x, p.y),
            RuleError::Forbidden {
                point,
                color,
                reason,
            } => write!(
                f,
                "{point} ({},{}) is forbidden for {color}: {reason}",
                point.x, point.y
            ),
            RuleError::Restricted { point, rule } => {
                write!(
                    f,
                    "{point} ({},{}) is not allowed now: {rule}",
                    point.x, point.y
                )
            }
            RuleError::OutOfStones(c) => write!(f, "{c} has no stones left"),
            RuleError::PassNotAllowed => f.write_str("this variant does not allow a pass"),
            RuleError::GameOver => f.write_str("the game is over"),
            RuleError::NothingToUndo => f.write_str("there is no move to take back"),
            RuleError::BadCoordinate(s) => write!(f, "'{s}' is not a point"),
            RuleError::BadSizeText(s) => write!(f, "'{s}' is not a board size (N or WxH)"),
            RuleError::UnknownVariant(s) => write!(f, "unknown variant '{s}'"),
            RuleError::Record { line, problem } => write!(f, "line {line}: {problem}"),
        }
    }
}

impl std::error::Error for RuleError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_names() {
        assert_eq!(Point::new(7, 7).to_string(), "h8");
        assert_eq!(Point::new(0, 0).to_string(), "a1");
        assert_eq!(Point::new(25, 31).to_string(), "z32");
        assert_eq!(Point::new(26, 0).to_string(), "aa1");
        assert_eq!(Point::new(31, 0).to_string(), "af1");
        for x in 0..32 {
            assert_eq!(Point::column_of(&Point::column_name(x)), Some(x));
        }
        assert_eq!(Point::column_of("H"), Some(7));
        assert_eq!(Point::column_of("h8"), None);
    }
}
