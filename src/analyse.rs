//! `tengen analyse`: reads a position from the command line or a file and describes it.

use std::fmt::Write;

use crate::core::{Color, RuleError};
use crate::games::fiar::record::Record;
use crate::games::fiar::{Board, Variant};

/// Where the position comes from.
pub struct Input<'a> {
    /// `--variant`: overrides the record's own `RU`.
    pub variant: Option<Variant>,
    /// `--size`: `N` or `WxH`.
    pub size: Option<(usize, usize)>,
    /// The text of a record file (SGF, PSQ, a move list or a diagram).
    pub file: Option<&'a str>,
    /// `--moves`: played after the file's moves.
    pub moves: Option<&'a str>,
}

/// A board size `N` or `WxH`.
pub fn parse_size(text: &str) -> Result<(usize, usize), RuleError> {
    let bad = || RuleError::BadSize {
        width: -1,
        height: -1,
        min: 5,
        max: 32,
    };
    let (w, h) = text.split_once(['x', 'X', ':']).unwrap_or((text, text));
    let w: usize = w.trim().parse().map_err(|_| bad())?;
    let h: usize = h.trim().parse().map_err(|_| bad())?;
    Ok((w, h))
}

/// Whether `text` is a board diagram: equal rows of `.`, `+`, `X`, `O`, `*` only.
fn is_diagram(text: &str) -> bool {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    rows.len() >= 5
        && rows
            .iter()
            .all(|r| r.len() == rows[0].len() && r.chars().all(|c| ".+XxOo*".contains(c)))
}

/// Builds the position the input describes.
pub fn position(input: &Input) -> Result<Board, RuleError> {
    let v = input.variant.unwrap_or(Variant::Freestyle);
    let (w, h) = input.size.unwrap_or((v.default_size(), v.default_size()));
    let mut board = match input.file {
        Some(text) if is_diagram(text) => Board::from_diagram(v, text)?,
        Some(text) => {
            let rec = Record::read(text, w, h)?;
            rec.replay(input.variant.or(rec.variant).unwrap_or(v))?
        }
        None => Board::with_size(v, w, h)?,
    };
    if let Some(moves) = input.moves {
        let rec = Record::parse_moves(moves, board.width(), board.height())?;
        for (i, &mv) in rec.moves.iter().enumerate() {
            board.play(mv).map_err(|e| RuleError::Record {
                line: 1,
                problem: format!("--moves, move {} ({mv}): {e}", i + 1),
            })?;
        }
    }
    Ok(board)
}

/// The description `tengen analyse` prints: the board, the side to move, the result so
/// far, counters where the variant has them, and each colour's forbidden points.
pub fn describe(board: &Board) -> String {
    let v = board.variant();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "variant {v}, board {}x{}, {} moves, {} stones",
        board.width(),
        board.height(),
        board.moves().count(),
        board.stone_count()
    );
    let _ = write!(s, "{board}");
    if let Some(last) = board.moves().last() {
        let _ = writeln!(s, "last move: {last}");
    }
    let _ = writeln!(s, "to move: {}", board.to_move());
    let _ = writeln!(s, "result: {}", board.outcome());
    if v.captures().is_some() {
        let _ = writeln!(
            s,
            "captured: black {}, white {}",
            board.captured(Color::Black),
            board.captured(Color::White)
        );
    }
    if v.counting() {
        let _ = writeln!(
            s,
            "rows: black {}, white {}",
            board.rows(Color::Black),
            board.rows(Color::White)
        );
    }
    if let (Some(b), Some(w)) = (
        board.stones_left(Color::Black),
        board.stones_left(Color::White),
    ) {
        let _ = writeln!(s, "stones left: black {b}, white {w}");
    }
    for c in Color::BOTH {
        if !v.has_fouls(c) {
            continue;
        }
        let list = board.forbidden_points(c);
        let text = if list.is_empty() {
            "none".to_string()
        } else {
            list.iter()
                .map(|(p, f)| format!("{p} ({f})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(s, "forbidden for {c}: {text}");
    }
    s
}
