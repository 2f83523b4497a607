//! Gana analysis: the position, and with a budget the root moves of the Monte-Carlo
//! tree with their visits, win rates, priors and lines.

use std::sync::atomic::AtomicBool;

use super::model::{Analysis, GameResult, Position};
use super::{Budget, Progress, color_name};
use crate::engine::GanaEngine;
use crate::games::gana::{Board, Move, Outcome};

/// The position alone, with the moves played since the engine's position was set.
pub fn position(engine: &GanaEngine) -> Position {
    let b = engine.board();
    let outcome = b.outcome();
    let moves = line_names(engine.start_position(), engine.moves().iter().copied());
    Position {
        variant: "gana".into(),
        width: 8,
        height: 8,
        komi: None,
        moves,
        stones: None,
        text: b.to_text(),
        to_move: color_name(b.to_move()),
        result: GameResult {
            status: match outcome {
                Outcome::Ongoing => "ongoing",
                Outcome::Win(_) => "win",
                Outcome::Draw(_) => "draw",
            },
            winner: match outcome {
                Outcome::Win(c) => Some(color_name(c)),
                _ => None,
            },
            text: outcome.to_string(),
            row: None,
        },
        forbidden: Vec::new(),
        fouls_apply_to: Vec::new(),
        captures: None,
        rows: None,
        stones_left: None,
        plies_without_capture: Some(b.no_capture() as u32),
        diagram: b.to_string(),
    }
}

/// The moves of a line from `from`, each named in the position it is played from.
fn line_names(from: &Board, moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut pos = from.clone();
    let mut out = Vec::new();
    for mv in moves {
        out.push(pos.move_text(mv));
        if pos.play(mv).is_err() {
            break;
        }
    }
    out
}

/// The position and, with a budget and the game not over, the tree's root moves.
pub fn analyse(
    mut engine: GanaEngine,
    budget: &Budget,
    stop: &AtomicBool,
    progress: Option<&Progress>,
) -> Analysis {
    let mut analysis = Analysis::new("gana", position(&engine));
    if !budget.searches() || engine.result().is_some() {
        return analysis;
    }
    if let Some(t) = budget.threads {
        engine.set_threads(t);
    }
    engine.move_time = budget.time.unwrap_or(std::time::Duration::from_secs(3600));
    engine.playouts = budget.nodes;
    let n = budget.listed();
    let threads = engine.threads();
    let b = engine.board().clone();
    let name = |line: &[u32]| line_names(&b, line.iter().map(|&c| Move::from_code(c)));
    let forward = super::mcts::Forward {
        progress,
        n,
        threads,
        name: &name,
    };
    let Some(report) = engine.search(stop, &forward, progress.map(|p| p.every)) else {
        return analysis;
    };
    let search = super::mcts::search(&report, n, threads, &name);
    analysis.search = Some(search);
    analysis
}
