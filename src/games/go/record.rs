//! Go game records in SGF (GM[1]): reading a game up to a move number (size, komi,
//! rules, handicap and setup stones, moves) and writing the game so far.

use super::board::{Board, PASS, Vertex};
use super::game::{Game, GoError};
use super::rules::Rules;
use crate::core::Color;
use crate::core::sgf;

fn sgf_vertex(size: usize, text: &str, line: usize) -> Result<Vertex, GoError> {
    let t = text.trim();
    if t.is_empty() || (t == "tt" && size <= 19) {
        return Ok(PASS);
    }
    let b = t.as_bytes();
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some((c - b'a') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 26),
        _ => None,
    };
    match (
        b.len(),
        b.first().and_then(|&c| coord(c)),
        b.get(1).and_then(|&c| coord(c)),
    ) {
        (2, Some(x), Some(y)) if x < size && y < size => Ok(Board::vertex_of(x, y)),
        _ => Err(GoError::Record(format!(
            "line {line}: '{t}' is not a point of the board"
        ))),
    }
}

/// A vertex as SGF writes it (`dd`; a pass is empty).
pub fn sgf_name(v: Vertex) -> String {
    if v == PASS {
        return String::new();
    }
    let (x, y) = Board::xy(v);
    format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
}

/// Reads the first game of an SGF text and plays it up to (not including) move
/// `move_number` (1 = the first move), or to its end.
pub fn load(text: &str, move_number: Option<usize>, default_rules: Rules) -> Result<Game, GoError> {
    let trees = sgf::parse(text).map_err(|e| GoError::Record(e.to_string()))?;
    let main = trees[0].main_line();
    let root = main
        .first()
        .ok_or_else(|| GoError::Record("empty game".into()))?;
    if let Some(gm) = root.get("GM")
        && gm.values.first().is_some_and(|v| v.trim() != "1")
    {
        return Err(GoError::Record(format!(
            "line {}: GM[{}] is not Go",
            gm.line, gm.values[0]
        )));
    }
    let size = match root.get("SZ") {
        None => 19,
        Some(p) => {
            let v = p.values.first().map(|s| s.trim()).unwrap_or("");
            let (w, h) = v.split_once(':').unwrap_or((v, v));
            let bad = || GoError::Record(format!("line {}: SZ[{v}] is not a board size", p.line));
            let (w, h): (usize, usize) = (
                w.trim().parse().map_err(|_| bad())?,
                h.trim().parse().map_err(|_| bad())?,
            );
            if w != h {
                return Err(GoError::Record(format!(
                    "line {}: only square boards ({v})",
                    p.line
                )));
            }
            if !(2..=25).contains(&w) {
                return Err(GoError::Record(format!(
                    "line {}: SZ[{v}]: boards are 2 to 25",
                    p.line
                )));
            }
            w
        }
    };
    let rules = root
        .get("RU")
        .and_then(|p| p.values.first())
        .and_then(|r| r.parse::<Rules>().ok())
        .unwrap_or(default_rules);
    let mut game = Game::new(size, rules)?;
    if let Some(p) = root.get("KM") {
        let v = p.values.first().map(|s| s.trim()).unwrap_or("");
        let komi: f32 = v
            .parse()
            .map_err(|_| GoError::Record(format!("line {}: KM[{v}] is not a number", p.line)))?;
        game.set_komi(komi);
    }
    // Setup stones of the root; black ones with HA are the handicap.
    let mut setup = Vec::new();
    let mut setup_line = 0;
    for (ident, color) in [("AB", Color::Black), ("AW", Color::White)] {
        if let Some(p) = root.get(ident) {
            if setup_line == 0 {
                setup_line = p.line;
            }
            for v in &p.values {
                // Compressed lists `aa:cc` name a rectangle.
                let (a, b) = v.split_once(':').unwrap_or((v, v));
                let (a, b) = (sgf_vertex(size, a, p.line)?, sgf_vertex(size, b, p.line)?);
                if a == PASS || b == PASS {
                    continue;
                }
                let ((x0, y0), (x1, y1)) = (Board::xy(a), Board::xy(b));
                for y in y0.min(y1)..=y0.max(y1) {
                    for x in x0.min(x1)..=x0.max(x1) {
                        let pt = Board::vertex_of(x, y);
                        if setup.iter().any(|s: &(Vertex, Color)| s.0 == pt) {
                            return Err(GoError::Record(format!(
                                "line {}: {ident}[{v}]: a point set up twice",
                                p.line
                            )));
                        }
                        setup.push((pt, color));
                    }
                }
            }
        }
    }
    let handicap: usize = root
        .get("HA")
        .and_then(|p| p.values.first())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let to_move = match root
        .get("PL")
        .and_then(|p| p.values.first())
        .map(|s| s.trim())
    {
        Some("W" | "w") => Color::White,
        Some("B" | "b") => Color::Black,
        // Black stones alone before the first move: a handicap, white to play.
        _ if !setup.is_empty() && setup.iter().all(|s| s.1 == Color::Black) => Color::White,
        _ => Color::Black,
    };
    if handicap >= 2 && setup.len() == handicap && setup.iter().all(|s| s.1 == Color::Black) {
        let stones: Vec<Vertex> = setup.iter().map(|s| s.0).collect();
        game.set_handicap(&stones)
            .map_err(|e| GoError::Record(format!("line {setup_line}: handicap stones: {e}")))?;
    } else if !setup.is_empty() {
        game.set_up(&setup, to_move)
            .map_err(|e| GoError::Record(format!("line {setup_line}: setup stones: {e}")))?;
    }
    let mut number = 0;
    for node in &main {
        for (ident, color) in [("B", Color::Black), ("W", Color::White)] {
            if let Some(p) = node.get(ident) {
                number += 1;
                if move_number.is_some_and(|n| number >= n) {
                    return Ok(game);
                }
                let v = sgf_vertex(
                    size,
                    p.values.first().map(|s| s.as_str()).unwrap_or(""),
                    p.line,
                )?;
                game.play(color, v).map_err(|e| {
                    GoError::Record(format!(
                        "line {}: move {number} ({ident}[{}]): {e}",
                        p.line,
                        p.values.first().cloned().unwrap_or_default()
                    ))
                })?;
            }
        }
    }
    Ok(game)
}

/// The game so far as SGF.
pub fn write(game: &Game) -> String {
    let size = game.size();
    let mut s = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[tengen:{}]SZ[{size}]KM[{}]RU[{}]",
        env!("CARGO_PKG_VERSION"),
        game.komi(),
        sgf::escape(game.rules().name)
    );
    if game.handicap() > 0 {
        s += &format!("HA[{}]", game.handicap());
    }
    let setup = game.setup();
    for (ident, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let pts: Vec<String> = setup
            .iter()
            .filter(|s| s.1 == color)
            .map(|s| format!("[{}]", sgf_name(s.0)))
            .collect();
        if !pts.is_empty() {
            s += ident;
            s += &pts.concat();
        }
    }
    for &(c, v) in game.moves() {
        s += &format!(
            ";{}[{}]",
            if c == Color::Black { "B" } else { "W" },
            sgf_name(v)
        );
    }
    s += ")\n";
    s
}
