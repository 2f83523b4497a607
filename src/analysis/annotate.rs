//! A reviewed game written back as a record: SGF for five-in-a-row (GM[4]) and Go
//! (GM[1]) with each move's judgement in `C[]`, `BM`/`DO`/`TE`/`HO` marks, Sabaki's
//! `SBKV` win rate on every node and the better line as a variation where a move went
//! wrong; Gana, which has no SGF, as its own record with `#` comments, which Tengen
//! reads back.

use std::fmt::Write as _;

use super::game::Game;
use super::review::{ForcedWin, MoveReview, Review};
use crate::core::sgf::escape;

fn pct(x: f32) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A forced win in words: `by fours in 7 plies: j9 k10 j11 …`.
fn win_text(w: &ForcedWin) -> String {
    let how = match w.by {
        "fours" => "by fours (VCF)",
        "threats" => "by threats (VCT)",
        _ => "by force",
    };
    format!("{how} in {} plies: {}", w.plies, w.line.join(" "))
}

/// The comment on one move: what it did to its player's chances, what the search
/// preferred, and the forced wins it missed or allowed.
pub fn move_comment(m: &MoveReview) -> String {
    let mut s = format!(
        "{}. {} {}: {} → {} for {}",
        m.number,
        m.color,
        m.mv,
        pct(m.before),
        pct(m.after),
        m.color
    );
    if m.loss > 0.0 {
        let _ = write!(s, " (−{}, {})", pct(m.loss), m.judgement);
    } else {
        let _ = write!(s, " ({})", m.judgement);
    }
    match (m.score_before, m.score_after) {
        (Some(b), Some(a)) => {
            let _ = write!(s, "\nScore {b} → {a}");
        }
        (Some(b), None) => {
            let _ = write!(s, "\nScore {b}");
        }
        _ => {}
    }
    if let Some(e) = &m.ends {
        let _ = write!(s, "\nThe game ends: {e}.");
    }
    if let Some(best) = &m.best
        && *best != m.mv
    {
        let _ = write!(s, "\nBest: {best}, line {}", m.best_line.join(" "));
    }
    if m.only_move {
        s.push_str("\nThe only good move.");
    }
    if let Some(w) = &m.missed_win {
        let _ = write!(s, "\nMissed a forced win {}", win_text(w));
    }
    if let Some(w) = &m.allowed_win {
        let other = if m.color == "black" { "white" } else { "black" };
        let _ = write!(s, "\nAllowed {other} a forced win {}", win_text(w));
    }
    s
}

/// The review's headline: who reviewed, at what budget, and each player's count.
pub fn header(r: &Review) -> String {
    let mut s = format!(
        "Reviewed by Tengen {} ({}, {} a position, {:.1} s).",
        env!("CARGO_PKG_VERSION"),
        r.variant,
        r.budget,
        r.time_ms as f64 / 1000.0
    );
    for (name, p) in [("Black", &r.players.black), ("White", &r.players.white)] {
        let _ = write!(
            s,
            "\n{name}: {} moves, {} best, {} inaccuracies, {} mistakes, {} blunders, mean loss {}",
            p.moves,
            p.best,
            p.inaccuracies,
            p.mistakes,
            p.blunders,
            pct(p.average_loss)
        );
        if p.missed_wins + p.allowed_wins > 0 {
            let _ = write!(
                s,
                "; forced wins missed {}, allowed {}",
                p.missed_wins, p.allowed_wins
            );
        }
    }
    s
}

/// A move in the game's notation as an SGF property value.
fn sgf_value(game: &Game, mv: &str) -> Option<String> {
    match game {
        Game::Gomoku { start, .. } => {
            use crate::games::fiar::{Move, record};
            match record::parse_move(mv, start.width(), start.height()).ok()? {
                Move::Place(p) => Some(record::sgf_name(p)),
                Move::Pass => Some(String::new()),
            }
        }
        Game::Go { start, .. } => {
            use crate::games::go::{parse_vertex, record};
            Some(record::sgf_name(parse_vertex(start.size(), mv).ok()?))
        }
        Game::Gana { .. } => None,
    }
}

/// The root of the game's SGF: its properties and set-up, no moves, not closed.
fn sgf_root(game: &Game) -> Option<String> {
    let whole = match game {
        Game::Gomoku { start, .. } => crate::games::fiar::record::Record::of_board(start).to_sgf(),
        Game::Go { start, .. } => crate::games::go::record::write(start),
        Game::Gana { .. } => return None,
    };
    Some(whole.trim_end().trim_end_matches(')').to_string())
}

fn sbkv(black: f32) -> String {
    format!("SBKV[{:.2}]", black * 100.0)
}

fn color_ident(color: &str) -> &'static str {
    if color == "black" { "B" } else { "W" }
}

/// The annotated record: SGF for five-in-a-row and Go, Gana's own record otherwise.
pub fn annotated(game: &Game, r: &Review) -> String {
    match sgf_root(game) {
        Some(root) => sgf(game, r, root),
        None => gana(game, r),
    }
}

fn sgf(game: &Game, r: &Review, root: String) -> String {
    let black = |i: usize| r.black_winrates.get(i).copied().unwrap_or(0.5);
    let hot: Vec<usize> = r.biggest_swings.iter().take(3).copied().collect();
    // Built from the last move back, so that a move with a variation can wrap the rest
    // of the game: `(;B[played]…rest)(;B[better]…)`.
    let mut tail = String::new();
    for m in r.moves.iter().rev() {
        let mut node = format!(
            "\n;{}[{}]C[{}]{}",
            color_ident(&m.color),
            sgf_value(game, &m.mv).unwrap_or_default(),
            escape(&move_comment(m)),
            sbkv(black(m.number))
        );
        match m.judgement {
            "blunder" => node.push_str("BM[2]"),
            "mistake" => node.push_str("BM[1]"),
            "inaccuracy" => node.push_str("DO[]"),
            _ if m.only_move => node.push_str("TE[1]"),
            _ => {}
        }
        if hot.contains(&m.number) {
            node.push_str("HO[1]");
        }
        let worth_a_variation = matches!(m.judgement, "mistake" | "blunder")
            && m.best.as_ref().is_some_and(|b| *b != m.mv)
            && !m.best_line.is_empty();
        if worth_a_variation {
            let mut var = String::new();
            let mut ident = color_ident(&m.color);
            for (k, mv) in m.best_line.iter().enumerate() {
                let Some(v) = sgf_value(game, mv) else {
                    break;
                };
                let _ = write!(var, ";{ident}[{v}]");
                if k == 0 {
                    let _ = write!(
                        var,
                        "C[{}]",
                        escape(&format!("Tengen's line: {}", m.best_line.join(" ")))
                    );
                }
                ident = if ident == "B" { "W" } else { "B" };
            }
            tail = format!("\n({node}{tail})\n({var})");
        } else {
            tail = format!("{node}{tail}");
        }
    }
    format!("{root}C[{}]{}{tail})\n", escape(&header(r)), sbkv(black(0)))
}

fn comment_lines(text: &str) -> String {
    text.lines().map(|l| format!("# {l}\n")).collect()
}

fn gana(game: &Game, r: &Review) -> String {
    let Game::Gana { start, .. } = game else {
        return String::new();
    };
    let mut s = comment_lines(&header(r));
    s.push_str(&start.to_text().unwrap_or_default());
    s.push_str("\n# moves\n");
    for m in &r.moves {
        s.push_str(&m.mv);
        s.push('\n');
        s.push_str(&comment_lines(&move_comment(m)));
    }
    s
}
