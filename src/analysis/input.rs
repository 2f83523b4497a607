//! The positions analysis starts from: a five-in-a-row record, moves or diagram; a Go
//! record and moves; a Gana position text and moves.

use crate::core::RuleError;
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

/// Go: the position an SGF file (up to `move_number`, 1 = before the first move) and a
/// move list (`D4 Q16 pass`, colours alternating from the side to move) describe.
pub fn go_position(
    file: Option<&str>,
    size: usize,
    rules: crate::games::go::Rules,
    komi: Option<f32>,
    move_number: Option<usize>,
    moves: Option<&str>,
) -> Result<crate::games::go::Game, String> {
    use crate::games::go::{Game, parse_vertex, record};
    let mut game = match file {
        Some(text) => record::load(text, move_number, rules).map_err(|e| e.to_string())?,
        None => Game::new(size, rules).map_err(|_| format!("board size {size}: 2 to 25"))?,
    };
    if let Some(k) = komi {
        game.set_komi(k);
    }
    for (i, m) in moves
        .unwrap_or("")
        .split([' ', ','])
        .filter(|m| !m.is_empty())
        .enumerate()
    {
        let v = parse_vertex(game.size(), m).map_err(|e| format!("move {}: {e}", i + 1))?;
        let c = game.to_move();
        game.play(c, v)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(game)
}

/// Gana: the position a record (a position line, then moves; default the start) and a
/// move list (`e2n e7s`, after the record's) describe.
pub fn gana_position(
    text: Option<&str>,
    moves: Option<&str>,
) -> Result<crate::engine::GanaEngine, String> {
    use crate::engine::GanaEngine;
    use crate::games::gana::Board;
    // The position is read before the engine (and its search tree) is made: a bad
    // file costs nothing.
    let (start, recorded) = match text {
        Some(t) => super::game::gana_record(t)?,
        None => (Board::start(), Vec::new()),
    };
    let mut engine = GanaEngine::new();
    engine.set_position(start);
    let more = moves
        .unwrap_or("")
        .split([' ', ','])
        .filter(|m| !m.is_empty());
    for (i, m) in recorded.iter().map(String::as_str).chain(more).enumerate() {
        let c = engine.board().to_move();
        engine
            .play(c, m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(engine)
}
