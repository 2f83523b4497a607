//! Five-in-a-row records: move lists (`h8 i9 …` or Gomocup `x,y`), Piskvork's PSQ and
//! SGF (GM[4]); read and written, every error naming the line and the problem.

use super::board::{Board, MAX_SIDE, Move};
use super::variant::Variant;
use crate::core::error::Point;
use crate::core::sgf;
use crate::core::{Color, RuleError};

/// A game as a record holds it: board size, variant if the record names one, set-up
/// stones and the moves in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub width: usize,
    pub height: usize,
    pub variant: Option<Variant>,
    pub setup: Vec<(Point, Color)>,
    pub moves: Vec<Move>,
    /// The source line of each move, for errors when it is replayed (0: not from text).
    lines: Vec<usize>,
}

fn err(line: usize, problem: impl Into<String>) -> RuleError {
    RuleError::Record {
        line,
        problem: problem.into(),
    }
}

/// A point in `h8` form (column letters, row number from 1) or Gomocup `x,y` form
/// (zero-based), checked against a `width` x `height` board.
pub fn parse_point(text: &str, width: usize, height: usize) -> Result<Point, RuleError> {
    let bad = || RuleError::BadCoordinate(text.to_string());
    let (x, y) = if let Some((a, b)) = text.split_once(',') {
        let x: i64 = a.trim().parse().map_err(|_| bad())?;
        let y: i64 = b.trim().parse().map_err(|_| bad())?;
        (x, y)
    } else {
        let split = text
            .find(|c: char| !c.is_ascii_alphabetic())
            .ok_or_else(bad)?;
        let (letters, digits) = text.split_at(split);
        let x = Point::column_of(letters).ok_or_else(bad)? as i64;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
            return Err(bad());
        }
        let y: i64 = digits.parse::<i64>().map_err(|_| bad())? - 1;
        (x, y)
    };
    if (0..width as i64).contains(&x) && (0..height as i64).contains(&y) {
        Ok(Point::new(x as u8, y as u8))
    } else {
        Err(RuleError::OffBoard { x, y })
    }
}

/// A move token: a point (see [`parse_point`]) or `pass`.
pub fn parse_move(text: &str, width: usize, height: usize) -> Result<Move, RuleError> {
    if text.eq_ignore_ascii_case("pass") {
        Ok(Move::Pass)
    } else {
        parse_point(text, width, height).map(Move::Place)
    }
}

impl Record {
    /// An empty record of a board size.
    pub fn new(width: usize, height: usize) -> Record {
        Record {
            width,
            height,
            variant: None,
            setup: Vec::new(),
            moves: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// The record of a board's game: its set-up stones and moves.
    pub fn of_board(board: &Board) -> Record {
        let moves: Vec<Move> = board.moves().collect();
        Record {
            width: board.width(),
            height: board.height(),
            variant: Some(board.variant()),
            setup: board.setup().to_vec(),
            lines: vec![0; moves.len()],
            moves,
        }
    }

    fn push(&mut self, mv: Move, line: usize) {
        self.moves.push(mv);
        self.lines.push(line);
    }

    /// The record's board before its moves: empty, or its set-up stones with the side
    /// to move their count implies.
    pub fn start(&self, variant: Variant) -> Result<Board, RuleError> {
        if self.setup.is_empty() {
            Board::with_size(variant, self.width, self.height)
        } else {
            let blacks = self.setup.iter().filter(|s| s.1 == Color::Black).count();
            let to_move = if blacks > self.setup.len() - blacks {
                Color::White
            } else {
                Color::Black
            };
            Board::from_stones(variant, self.width, self.height, &self.setup, to_move)
        }
    }

    /// Plays the record on a new board of `variant`; an illegal move is an error naming
    /// its line and number.
    pub fn replay(&self, variant: Variant) -> Result<Board, RuleError> {
        let mut board = self.start(variant)?;
        for (i, &mv) in self.moves.iter().enumerate() {
            board.play(mv).map_err(|e| {
                let line = self.lines.get(i).copied().unwrap_or(0);
                err(line, format!("move {} ({mv}): {e}", i + 1))
            })?;
        }
        Ok(board)
    }

    /// A move list: tokens separated by white space, each `h8`, `x,y` or `pass`.
    pub fn parse_moves(text: &str, width: usize, height: usize) -> Result<Record, RuleError> {
        let mut rec = Record::new(width, height);
        for (i, line) in text.lines().enumerate() {
            for token in line.split_whitespace() {
                let mv = parse_move(token, width, height).map_err(|e| err(i + 1, e.to_string()))?;
                rec.push(mv, i + 1);
            }
        }
        Ok(rec)
    }

    /// The moves as one line in `h8` form.
    pub fn to_move_list(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Piskvork's PSQ: a header `Piskvorky WxH, …`, then one `x,y,time` line a move
    /// (one-based). The moves end at the first line that does not start with a digit
    /// (Piskvork writes the players' names after them).
    pub fn read_psq(text: &str) -> Result<Record, RuleError> {
        let mut lines = text.lines().enumerate();
        let (_, header) = lines.next().ok_or_else(|| err(1, "empty PSQ file"))?;
        let size = header
            .trim()
            .strip_prefix("Piskvorky")
            .and_then(|r| r.trim().split([',', ' ']).next())
            .ok_or_else(|| err(1, "a PSQ file starts with 'Piskvorky WxH'"))?;
        let (w, h) = size
            .split_once('x')
            .ok_or_else(|| err(1, format!("'{size}' is not a size WxH")))?;
        let parse_side = |s: &str| {
            s.parse::<usize>()
                .ok()
                .filter(|n| (5..=MAX_SIDE).contains(n))
                .ok_or_else(|| err(1, format!("'{size}' is not a board size of 5..=32 a side")))
        };
        let mut rec = Record::new(parse_side(w)?, parse_side(h)?);
        for (i, line) in lines {
            let line = line.trim();
            if !line.starts_with(|c: char| c.is_ascii_digit()) {
                break;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let nums: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
            let nums = match nums {
                Some(n) if n.len() == 2 || n.len() == 3 => n,
                _ => return Err(err(i + 1, format!("'{line}' is not a move 'x,y,time'"))),
            };
            let (x, y) = (nums[0] - 1, nums[1] - 1);
            if !(0..rec.width as i64).contains(&x) || !(0..rec.height as i64).contains(&y) {
                return Err(err(
                    i + 1,
                    format!(
                        "move {},{} is off the {}x{} board",
                        nums[0], nums[1], rec.width, rec.height
                    ),
                ));
            }
            rec.push(Move::Place(Point::new(x as u8, y as u8)), i + 1);
        }
        Ok(rec)
    }

    /// PSQ text (see [`read_psq`]). PSQ has no pass and no set-up stones.
    pub fn to_psq(&self) -> Result<String, RuleError> {
        if !self.setup.is_empty() {
            return Err(err(0, "PSQ cannot hold set-up stones"));
        }
        let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", self.width, self.height);
        for mv in &self.moves {
            match mv {
                Move::Place(p) => s.push_str(&format!("{},{},0\n", p.x + 1, p.y + 1)),
                Move::Pass => return Err(err(0, "PSQ cannot hold a pass")),
            }
        }
        Ok(s)
    }

    /// SGF for five-in-a-row (GM[4]): SZ, RU (a variant name), AB/AW set-up, B/W moves
    /// (`B[]` or `B[tt]` on boards up to 19 is a pass). The main line is read.
    pub fn read_sgf(text: &str) -> Result<Record, RuleError> {
        Record::of_tree(&sgf::parse(text)?[0])
    }

    /// Every game of an SGF collection (several game trees in one file, as match
    /// runners such as c-gomoku-cli write them), each read as [`read_sgf`] reads one.
    pub fn read_sgf_collection(text: &str) -> Result<Vec<Record>, RuleError> {
        sgf::parse(text)?.iter().map(Record::of_tree).collect()
    }

    fn of_tree(tree: &sgf::GameTree) -> Result<Record, RuleError> {
        let nodes = tree.main_line();
        let root = nodes[0];
        if let Some(gm) = root.get("GM")
            && gm.values[0].trim() != "4"
        {
            return Err(err(
                gm.line,
                format!("GM[{}] is not a five-in-a-row record (GM[4])", gm.values[0]),
            ));
        }
        let (width, height) = match root.get("SZ") {
            None => (15, 15),
            Some(sz) => {
                let v = &sz.values[0];
                let (w, h) = v.split_once(':').unwrap_or((v, v));
                match (w.trim().parse::<usize>(), h.trim().parse::<usize>()) {
                    (Ok(w), Ok(h))
                        if (5..=MAX_SIDE).contains(&w) && (5..=MAX_SIDE).contains(&h) =>
                    {
                        (w, h)
                    }
                    _ => {
                        return Err(err(
                            sz.line,
                            format!("SZ[{v}] is not a board size of 5..=32 a side"),
                        ));
                    }
                }
            }
        };
        let mut rec = Record::new(width, height);
        if let Some(ru) = root.get("RU") {
            rec.variant = ru.values[0].parse().ok();
        }
        for node in nodes {
            for prop in &node.props {
                let color = match prop.ident.as_str() {
                    "B" | "AB" => Color::Black,
                    "W" | "AW" => Color::White,
                    _ => continue,
                };
                for v in &prop.values {
                    let point = sgf_point(v, width, height);
                    if prop.ident.starts_with('A') {
                        let p = point.ok_or_else(|| {
                            err(prop.line, format!("{}[{v}] is not a point", prop.ident))
                        })?;
                        rec.setup.push((p, color));
                    } else {
                        let mv = match point {
                            Some(p) => Move::Place(p),
                            None if v.is_empty() || (v == "tt" && width <= 19 && height <= 19) => {
                                Move::Pass
                            }
                            None => {
                                return Err(err(
                                    prop.line,
                                    format!("{}[{v}] is not a move", prop.ident),
                                ));
                            }
                        };
                        rec.push(mv, prop.line);
                    }
                }
            }
        }
        Ok(rec)
    }

    /// SGF text (see [`read_sgf`]).
    pub fn to_sgf(&self) -> String {
        let mut s = String::from("(;GM[4]FF[4]CA[UTF-8]AP[tengen]");
        if self.width == self.height {
            s.push_str(&format!("SZ[{}]", self.width));
        } else {
            s.push_str(&format!("SZ[{}:{}]", self.width, self.height));
        }
        if let Some(v) = self.variant {
            s.push_str(&format!("RU[{}]", sgf::escape(v.name())));
        }
        for (ident, color) in [("AB", Color::Black), ("AW", Color::White)] {
            let pts: Vec<String> = self
                .setup
                .iter()
                .filter(|s| s.1 == color)
                .map(|s| format!("[{}]", sgf_name(s.0)))
                .collect();
            if !pts.is_empty() {
                s.push_str(ident);
                s.push_str(&pts.concat());
            }
        }
        let mut color = match self.setup.iter().filter(|s| s.1 == Color::Black).count() * 2 {
            n if n > self.setup.len() => Color::White,
            _ => Color::Black,
        };
        for mv in &self.moves {
            let id = if color == Color::Black { "B" } else { "W" };
            match mv {
                Move::Place(p) => s.push_str(&format!("\n;{id}[{}]", sgf_name(*p))),
                Move::Pass => s.push_str(&format!("\n;{id}[]")),
            }
            color = color.opposite();
        }
        s.push_str(")\n");
        s
    }

    /// Reads a record of any supported form: SGF (starts with `(`), PSQ (starts with
    /// `Piskvorky`), or a move list for a `width` x `height` board.
    pub fn read(text: &str, width: usize, height: usize) -> Result<Record, RuleError> {
        let t = text.trim_start();
        if t.starts_with('(') {
            Record::read_sgf(text)
        } else if t.starts_with("Piskvorky") {
            Record::read_psq(text)
        } else {
            Record::parse_moves(text, width, height)
        }
    }
}

/// SGF letters: a..z then A..Z, from the top-left corner (x across, y down).
fn sgf_letter(n: u8) -> char {
    if n < 26 {
        char::from(b'a' + n)
    } else {
        char::from(b'A' + n - 26)
    }
}

/// A point as SGF writes it (`hh`).
pub fn sgf_name(p: Point) -> String {
    [sgf_letter(p.x), sgf_letter(p.y)].iter().collect()
}

fn sgf_point(v: &str, width: usize, height: usize) -> Option<Point> {
    let b = v.as_bytes();
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    };
    if b.len() != 2 {
        return None;
    }
    let (x, y) = (coord(b[0])?, coord(b[1])?);
    ((x as usize) < width && (y as usize) < height).then(|| Point::new(x, y))
}
