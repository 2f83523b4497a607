//! Go analysis: the position, and with a budget the root moves of the Monte-Carlo tree
//! with their visits, win rates, priors and lines.

use std::sync::atomic::AtomicBool;

use super::model::{Analysis, ByColor, GameResult, Position};
use super::{Budget, Progress, color_name};
use crate::core::Color;
use crate::engine::GoEngine;
use crate::games::go::{Game, Vertex, result_text, vertex_name};

/// The position alone.
pub fn position(game: &Game) -> Position {
    let size = game.size();
    let board = game.board();
    let mut stones = ByColor {
        black: Vec::new(),
        white: Vec::new(),
    };
    for v in board.vertices() {
        match board.cell(v).color() {
            Some(Color::Black) => stones.black.push(vertex_name(size, v)),
            Some(Color::White) => stones.white.push(vertex_name(size, v)),
            None => {}
        }
    }
    let result = if game.is_over() {
        // Two passes: scored as the stones stand (no stone marked dead).
        let score = game.score(&[]);
        GameResult {
            status: if score == 0.0 { "draw" } else { "win" },
            winner: (score != 0.0).then(|| {
                color_name(if score > 0.0 {
                    Color::Black
                } else {
                    Color::White
                })
            }),
            text: format!("{} (as the stones stand)", result_text(score)),
            row: None,
        }
    } else {
        GameResult {
            status: "ongoing",
            winner: None,
            text: "play on".into(),
            row: None,
        }
    };
    Position {
        variant: game.rules().to_string(),
        width: size,
        height: size,
        komi: Some(game.komi()),
        moves: game
            .moves()
            .iter()
            .map(|&(_, v)| vertex_name(size, v))
            .collect(),
        stones: Some(stones),
        text: None,
        to_move: color_name(game.to_move()),
        result,
        forbidden: Vec::new(),
        fouls_apply_to: Vec::new(),
        captures: Some(ByColor {
            black: board.captured_by(Color::Black),
            white: board.captured_by(Color::White),
        }),
        rows: None,
        stones_left: None,
        plies_without_capture: None,
        diagram: board.to_string(),
    }
}

/// The position and, with a budget and the game not over, the tree's root moves: all
/// it visited (JSON), `budget.multipv` of them when that is set.
pub fn analyse(
    game: Game,
    budget: &Budget,
    stop: &AtomicBool,
    progress: Option<&Progress>,
) -> Analysis {
    let mut analysis = Analysis::new("go", position(&game));
    if !budget.searches() || game.is_over() {
        return analysis;
    }
    let size = game.size();
    let mut engine = GoEngine::new(size, game.rules()).expect("the game's size is valid");
    engine.set_game(game);
    if let Some(t) = budget.threads {
        engine.set_threads(t);
    }
    let n = budget.listed();
    let name = |line: &[u32]| -> Vec<String> {
        line.iter()
            .map(|&v| vertex_name(size, v as Vertex))
            .collect()
    };
    let threads = engine.threads();
    let forward = super::mcts::Forward {
        progress,
        n,
        threads,
        name: &name,
    };
    let report = engine.analyse_for(
        budget.time,
        budget.nodes,
        stop,
        &forward,
        progress.map(|p| p.every),
    );
    let mut search = super::mcts::search(&report, n, threads, &name);
    if budget.ownership {
        use crate::games::go::Board;
        search.ownership = Some(
            (0..size)
                .flat_map(|y| (0..size).map(move |x| Board::vertex_of(x, y)))
                .map(|v| report.ownership.get(v as usize).copied().unwrap_or(0.0))
                .collect(),
        );
    }
    analysis.search = Some(search);
    analysis
}
