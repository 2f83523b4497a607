//! The analysis as people read it in a terminal: the board, the position's facts, and
//! what the search found, one game's way of saying it each.

use std::fmt::Write;

use super::model::{Analysis, ByColor, MoveInfo, Position, Search};

/// The text `tengen analyse` prints.
pub fn render(a: &Analysis) -> String {
    match a.game {
        "go" => go(a),
        "gana" => gana(a),
        _ => fiar(a),
    }
}

fn pair(label: &str, b: &Option<ByColor<u32>>, out: &mut String) {
    if let Some(b) = b {
        let _ = writeln!(out, "{label}: black {}, white {}", b.black, b.white);
    }
}

fn stone_count(p: &Position) -> usize {
    p.stones
        .as_ref()
        .map_or(0, |s| s.black.len() + s.white.len())
}

fn fiar(a: &Analysis) -> String {
    let p = &a.position;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "variant {}, board {}x{}, {} moves, {} stones",
        p.variant,
        p.width,
        p.height,
        p.moves.len(),
        stone_count(p)
    );
    s.push_str(&p.diagram);
    if let Some(last) = p.moves.last() {
        let _ = writeln!(s, "last move: {last}");
    }
    let _ = writeln!(s, "to move: {}", p.to_move);
    let _ = writeln!(s, "result: {}", p.result.text);
    pair("captured", &p.captures, &mut s);
    pair("rows", &p.rows, &mut s);
    pair("stones left", &p.stones_left, &mut s);
    for c in &p.fouls_apply_to {
        let list: Vec<String> = p
            .forbidden
            .iter()
            .filter(|f| &f.color == c)
            .map(|f| format!("{} ({})", f.point, f.reason))
            .collect();
        let text = if list.is_empty() {
            "none".to_string()
        } else {
            list.join(", ")
        };
        let _ = writeln!(s, "forbidden for {c}: {text}");
    }
    if let Some(search) = &a.search {
        fiar_search(search, &mut s);
    }
    s
}

fn fiar_search(r: &Search, s: &mut String) {
    for i in &r.iterations {
        let _ = writeln!(
            s,
            "depth {:>2}/{:<2} score {:>7} nodes {:>10} time {:>6} ms  pv {}",
            i.depth,
            i.sel_depth,
            i.score.to_string(),
            i.nodes,
            i.time_ms,
            i.pv.join(" ")
        );
    }
    let Some(first) = r.move_infos.first() else {
        let _ = writeln!(s, "search: no legal move");
        return;
    };
    let ms = r.time_ms.max(1);
    let _ = writeln!(s, "best move: {}", first.mv);
    if let Some(score) = first.score {
        let _ = writeln!(s, "score: {score}");
    }
    let _ = writeln!(
        s,
        "depth {}, {} nodes in {} ms ({} nodes/s)",
        r.depth.unwrap_or(0),
        r.nodes,
        ms,
        r.nodes * 1000 / ms
    );
    let _ = writeln!(s, "principal variation: {}", first.pv.join(" "));
    if let Some(t) = &r.threat {
        let mut line = Vec::new();
        for step in &t.steps {
            line.push(step.attack.clone());
            line.extend(step.defence.clone());
        }
        let _ = writeln!(s, "winning threat sequence: {}", line.join(" "));
    }
    for m in r.move_infos.iter().skip(1) {
        let _ = writeln!(
            s,
            "line {}: {} score {} depth {}  pv {}",
            m.order + 1,
            m.mv,
            m.score.map_or_else(String::new, |x| x.to_string()),
            m.depth.unwrap_or(0),
            m.pv.join(" ")
        );
    }
}

/// The table of a Monte-Carlo search's root moves, at most ten.
fn mcts_search(r: &Search, s: &mut String, to_move: &str) {
    let secs = (r.time_ms as f64 / 1000.0).max(1e-6);
    let _ = writeln!(
        s,
        "{} playouts in {:.2} s ({:.0}/s)",
        r.nodes,
        secs,
        r.nodes as f64 / secs
    );
    let _ = writeln!(s, "move    visits   win% prior%  line");
    for m in r.move_infos.iter().take(10) {
        mcts_row(m, s);
    }
    if let Some(w) = r.root_info.winrate {
        let _ = writeln!(
            s,
            "best: {} ({:.1}% for {to_move})",
            r.root_info.best,
            w * 100.0
        );
    }
}

fn mcts_row(m: &MoveInfo, s: &mut String) {
    let _ = writeln!(
        s,
        "{:<7} {:>6} {:>6.1} {:>6.1}  {}",
        m.mv,
        m.visits.unwrap_or(0),
        m.winrate.unwrap_or(0.0) * 100.0,
        m.prior.unwrap_or(0.0) * 100.0,
        m.pv.join(" ")
    );
}

fn go(a: &Analysis) -> String {
    let p = &a.position;
    let mut s = String::new();
    let _ = writeln!(s, "{}", p.diagram);
    let caps = p.captures.unwrap_or(ByColor { black: 0, white: 0 });
    let _ = writeln!(
        s,
        "{} to move; rules {}, komi {}; {} moves played; captures: black {}, white {}",
        p.to_move,
        p.variant,
        p.komi.unwrap_or(0.0),
        p.moves.len(),
        caps.black,
        caps.white
    );
    if p.result.status != "ongoing" {
        let _ = writeln!(s, "game over: {}", p.result.text);
    }
    if let Some(r) = &a.search {
        mcts_search(r, &mut s, &p.to_move);
    }
    s
}

fn gana(a: &Analysis) -> String {
    let p = &a.position;
    let mut s = String::new();
    let _ = writeln!(s, "{}", p.diagram);
    if p.result.status != "ongoing" {
        let short = match p.result.winner.as_deref() {
            Some("white") => "W+",
            Some("black") => "B+",
            _ => "0",
        };
        let _ = writeln!(s, "game over: {} ({short})", p.result.text);
        return s;
    }
    let _ = writeln!(
        s,
        "{} to move; {} plies without a capture; position: {}",
        p.to_move,
        p.plies_without_capture.unwrap_or(0),
        p.text.as_deref().unwrap_or_default()
    );
    if let Some(r) = &a.search {
        mcts_search(r, &mut s, &p.to_move);
    }
    s
}

/// A review's summary for the terminal: each player's count of judged moves, the
/// biggest swings, and the forced wins missed or allowed.
pub fn review(r: &super::review::Review) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "review of a {} game ({}), {} moves, {} a position, {:.1} s",
        r.game,
        r.variant,
        r.moves.len(),
        r.budget,
        r.time_ms as f64 / 1000.0
    );
    let (b, w) = (&r.players.black, &r.players.white);
    let _ = writeln!(s, "{:<14}{:>8}{:>8}", "", "black", "white");
    let rows = [
        ("moves", b.moves, w.moves),
        ("best", b.best, w.best),
        ("inaccuracies", b.inaccuracies, w.inaccuracies),
        ("mistakes", b.mistakes, w.mistakes),
        ("blunders", b.blunders, w.blunders),
        ("missed wins", b.missed_wins, w.missed_wins),
        ("allowed wins", b.allowed_wins, w.allowed_wins),
    ];
    for (label, x, y) in rows {
        let _ = writeln!(s, "{label:<14}{x:>8}{y:>8}");
    }
    let _ = writeln!(
        s,
        "{:<14}{:>7.1}%{:>7.1}%",
        "mean loss",
        b.average_loss * 100.0,
        w.average_loss * 100.0
    );
    if !r.biggest_swings.is_empty() {
        let _ = writeln!(s, "biggest swings:");
        for n in &r.biggest_swings {
            if let Some(m) = r.moves.get(n - 1) {
                let _ = writeln!(
                    s,
                    "  {:>3}. {} {}: {:.1}% -> {:.1}% (-{:.1}%, {}){}",
                    m.number,
                    m.color,
                    m.mv,
                    m.before * 100.0,
                    m.after * 100.0,
                    m.loss * 100.0,
                    m.judgement,
                    m.best
                        .as_ref()
                        .map(|b| format!(", best {b}"))
                        .unwrap_or_default()
                );
            }
        }
    }
    let forced: Vec<_> = r
        .moves
        .iter()
        .filter(|m| m.missed_win.is_some() || m.allowed_win.is_some())
        .collect();
    if !forced.is_empty() {
        let _ = writeln!(s, "forced wins:");
        for m in forced {
            for line in super::annotate::move_comment(m)
                .lines()
                .filter(|l| l.starts_with("Missed") || l.starts_with("Allowed"))
            {
                let _ = writeln!(s, "  {:>3}. {} {}: {line}", m.number, m.color, m.mv);
            }
        }
    }
    s
}
