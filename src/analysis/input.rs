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

/// Searches the position and describes what was found: best move, score, principal
/// variation, and the winning threat sequence when there is one.
pub fn search(
    board: &Board,
    time: Option<std::time::Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    threads: Option<usize>,
) -> String {
    use crate::engine::FiarEngine;
    use crate::search::{Info, Limits, Reporter};
    use std::sync::Mutex;

    /// Collects each iteration's line for the report.
    struct Lines(Mutex<Vec<String>>);
    impl Reporter for Lines {
        fn iteration(&self, i: &Info) {
            let line = format!(
                "depth {:>2}/{:<2} score {:>7} nodes {:>10} time {:>6} ms  pv {}",
                i.depth,
                i.sel_depth,
                i.score.to_string(),
                i.nodes,
                i.elapsed.as_millis(),
                i.pv.join(" ")
            );
            self.0.lock().unwrap_or_else(|e| e.into_inner()).push(line);
        }
    }

    let mut s = String::new();
    if board.outcome() != crate::games::fiar::Outcome::Ongoing {
        let _ = writeln!(s, "search: the game is over");
        return s;
    }
    let mut engine = FiarEngine::with_board(board.clone());
    engine.set_hash_bytes(crate::engine::DEFAULT_HASH_BYTES);
    if let Some(t) = threads {
        engine.set_threads(t);
    }
    let start = std::time::Instant::now();
    let limits = Limits {
        deadline: time.map(|t| start + t),
        soft: None,
        depth,
        nodes,
        ..Default::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let lines = Lines(Mutex::new(Vec::new()));
    let result = engine.think(&limits, &stop, &lines);
    for l in lines.0.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let _ = writeln!(s, "{l}");
    }
    match result {
        None => {
            let _ = writeln!(s, "search: no legal move");
        }
        Some(r) => {
            let elapsed = start.elapsed().as_millis().max(1);
            let _ = writeln!(s, "best move: {}", r.best);
            let _ = writeln!(s, "score: {}", r.score);
            let _ = writeln!(
                s,
                "depth {}, {} nodes in {} ms ({} nodes/s)",
                r.depth,
                r.nodes,
                elapsed,
                r.nodes as u128 * 1000 / elapsed
            );
            let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
            let _ = writeln!(s, "principal variation: {}", pv.join(" "));
            if let Some(line) = r.threat_line {
                let l: Vec<String> = line.iter().map(|p| p.to_string()).collect();
                let _ = writeln!(s, "winning threat sequence: {}", l.join(" "));
            }
        }
    }
    s
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

/// Go: the board, then (with a budget) the best moves with win rates, visits and
/// principal variations, and the score the playouts expect.
pub fn go_report(
    game: crate::games::go::Game,
    time: Option<std::time::Duration>,
    playouts: Option<u64>,
    threads: Option<usize>,
) -> String {
    use crate::engine::GoEngine;
    use crate::games::go::{PASS, Vertex, vertex_name};
    let mut out = String::new();
    let _ = writeln!(out, "{}", game.board());
    let _ = writeln!(
        out,
        "{} to move; rules {}, komi {}; {} moves played; captures: black {}, white {}",
        game.to_move(),
        game.rules(),
        game.komi(),
        game.moves().len(),
        game.board().captured_by(Color::Black),
        game.board().captured_by(Color::White),
    );
    if time.is_none() && playouts.is_none() {
        return out;
    }
    let size = game.size();
    let to_move = game.to_move();
    let mut engine = GoEngine::new(size, game.rules()).expect("the game's size is valid");
    engine.set_game(game);
    if let Some(t) = threads {
        engine.set_threads(t);
    }
    engine.move_time = time.unwrap_or(std::time::Duration::from_secs(3600));
    engine.playouts = playouts;
    engine.resign_below = None;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (_, r) = engine.choose(to_move, crate::engine::go::Mode::Normal, &stop);
    let _ = writeln!(out, "{}", playouts_line(&r));
    let _ = writeln!(out, "move   visits   win%  prior  line");
    for m in r.moves.iter().filter(|m| m.visits > 0).take(10) {
        let pv: Vec<String> =
            m.pv.iter()
                .map(|&v| vertex_name(size, v as Vertex))
                .collect();
        let _ = writeln!(
            out,
            "{:<5} {:>7} {:>6.1} {:>6.2}  {}",
            vertex_name(size, m.mv as Vertex),
            m.visits,
            m.win_rate * 100.0,
            m.prior,
            pv.join(" ")
        );
    }
    if let Some(best) = r.best() {
        let _ = writeln!(
            out,
            "best: {} ({:.1}% for {to_move})",
            if best.mv as Vertex == PASS {
                "pass".to_string()
            } else {
                vertex_name(size, best.mv as Vertex)
            },
            best.win_rate * 100.0
        );
    }
    out
}

/// Gana: the position a position text (default: the start) and a move list (`e2n e7s`)
/// describe.
pub fn gana_position(
    text: Option<&str>,
    moves: Option<&str>,
) -> Result<crate::engine::GanaEngine, String> {
    use crate::engine::GanaEngine;
    use crate::games::gana::Board;
    // The position is read before the engine (and its search tree) is made: a bad
    // file costs nothing.
    let mut start = Board::start();
    if let Some(t) = text {
        let (n, line) = t
            .lines()
            .map(str::trim)
            .enumerate()
            .find(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .ok_or("line 1: no position text (only blank or # lines)")?;
        start =
            Board::from_text(line).map_err(|e| format!("line {}: position text: {e}", n + 1))?;
    }
    let mut engine = GanaEngine::new();
    engine.set_position(start);
    for (i, m) in moves
        .unwrap_or("")
        .split([' ', ','])
        .filter(|m| !m.is_empty())
        .enumerate()
    {
        let c = engine.board().to_move();
        engine
            .play(c, m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(engine)
}

/// Gana: the board, then (with a budget) the best moves with visits, win rates and
/// principal variations.
pub fn gana_report(
    mut engine: crate::engine::GanaEngine,
    time: Option<std::time::Duration>,
    playouts: Option<u64>,
    threads: Option<usize>,
) -> String {
    use crate::games::gana::{Board, Move};
    let mut out = String::new();
    let b = engine.board().clone();
    let _ = writeln!(out, "{b}");
    match engine.result() {
        Some(r) => {
            let _ = writeln!(out, "game over: {} ({r})", b.outcome());
            return out;
        }
        None => {
            let _ = writeln!(
                out,
                "{} to move; {} plies without a capture; position: {}",
                b.to_move(),
                b.no_capture(),
                b.to_text().unwrap_or_default()
            );
        }
    }
    if time.is_none() && playouts.is_none() {
        return out;
    }
    if let Some(t) = threads {
        engine.set_threads(t);
    }
    engine.move_time = time.unwrap_or(std::time::Duration::from_secs(3600));
    engine.playouts = playouts;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let Some(r) = engine.search(&stop, &crate::search::mcts::Quiet, None) else {
        return out;
    };
    let _ = writeln!(out, "{}", playouts_line(&r));
    let _ = writeln!(out, "move    visits   win%  prior  line");
    for m in r.moves.iter().filter(|m| m.visits > 0).take(10) {
        // Each line's moves are named in the position they are played from.
        let mut pos: Board = b.clone();
        let mut line = Vec::new();
        for &code in &m.pv {
            let mv = Move::from_code(code);
            line.push(pos.move_text(mv));
            if pos.play(mv).is_err() {
                break;
            }
        }
        let _ = writeln!(
            out,
            "{:<7} {:>6} {:>6.1} {:>6.2}  {}",
            b.move_text(Move::from_code(m.mv)),
            m.visits,
            m.win_rate * 100.0,
            m.prior,
            line.join(" ")
        );
    }
    out
}

/// `N playouts in S s (R/s)`: the size and speed of an MCTS search.
fn playouts_line(r: &crate::search::mcts::Report) -> String {
    let secs = r.elapsed.as_secs_f64().max(1e-6);
    format!(
        "{} playouts in {:.2} s ({:.0}/s)",
        r.playouts,
        secs,
        r.playouts as f64 / secs
    )
}
