//! Five-in-a-row analysis: the position as the rules see it, and with a budget the best
//! lines (multi-PV by exclusion, each with its own search) and a forced win step by step.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::model::{
    Analysis, ByColor, Forbidden, GameResult, Iteration, MoveInfo, Position, RootInfo, ScoreInfo,
    Search, ThreatLine, ThreatStep,
};
use super::{Budget, Progress, color_name};
use crate::core::Color;
use crate::engine::FiarEngine;
use crate::engine::fiar::{Made, threat_steps};
use crate::games::fiar::{Board, Outcome};
use crate::search::{Info, Limits, Reporter};

/// The position alone.
pub fn position(board: &Board) -> Position {
    let v = board.variant();
    let mut stones = ByColor {
        black: Vec::new(),
        white: Vec::new(),
    };
    for p in board.points() {
        match board.stone(p) {
            Some(Color::Black) => stones.black.push(p.to_string()),
            Some(Color::White) => stones.white.push(p.to_string()),
            None => {}
        }
    }
    let outcome = board.outcome();
    let result = GameResult {
        status: match outcome {
            Outcome::Ongoing => "ongoing",
            Outcome::Win { .. } => "win",
            Outcome::Draw(_) => "draw",
        },
        winner: match outcome {
            Outcome::Win { winner, .. } => Some(color_name(winner)),
            _ => None,
        },
        text: outcome.to_string(),
        row: match outcome {
            Outcome::Win {
                reason: crate::games::fiar::WinReason::Five { from, to },
                ..
            } => Some([from.to_string(), to.to_string()]),
            _ => None,
        },
    };
    let mut forbidden = Vec::new();
    let mut fouls_apply_to = Vec::new();
    for c in Color::BOTH {
        if v.has_fouls(c) {
            fouls_apply_to.push(color_name(c));
            forbidden.extend(
                board
                    .forbidden_points(c)
                    .into_iter()
                    .map(|(p, f)| Forbidden {
                        point: p.to_string(),
                        color: color_name(c),
                        reason: f.to_string(),
                    }),
            );
        }
    }
    let both = |f: &dyn Fn(Color) -> u32| ByColor {
        black: f(Color::Black),
        white: f(Color::White),
    };
    let stones_left = match (
        board.stones_left(Color::Black),
        board.stones_left(Color::White),
    ) {
        (Some(black), Some(white)) => Some(ByColor {
            black: black as u32,
            white: white as u32,
        }),
        _ => None,
    };
    Position {
        variant: v.to_string(),
        width: board.width(),
        height: board.height(),
        komi: None,
        moves: board.moves().map(|m| m.to_string()).collect(),
        stones: Some(stones),
        text: None,
        to_move: color_name(board.to_move()),
        result,
        forbidden,
        fouls_apply_to,
        captures: v
            .captures()
            .is_some()
            .then(|| both(&|c| board.captured(c) as u32)),
        rows: v.counting().then(|| both(&|c| board.rows(c) as u32)),
        stones_left,
        plies_without_capture: None,
        diagram: board.to_string(),
    }
}

/// Collects the first line's iterations, and passes them on as partial analyses.
struct Iterations<'a> {
    done: Mutex<Vec<Iteration>>,
    /// Set once the first line is found: later lines' iterations are not its own.
    first_found: AtomicBool,
    progress: Option<&'a Progress<'a>>,
    threads: usize,
    /// When the last partial analysis went out.
    sent: Mutex<Option<Instant>>,
}

impl Reporter for Iterations<'_> {
    fn iteration(&self, i: &Info) {
        if self.first_found.load(Ordering::Relaxed) {
            return;
        }
        let it = Iteration {
            depth: i.depth,
            sel_depth: i.sel_depth,
            score: i.score.into(),
            nodes: i.nodes,
            time_ms: i.elapsed.as_millis() as u64,
            pv: i.pv.clone(),
        };
        if let Some(p) = self.progress {
            let mut sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
            if sent.is_none_or(|t| t.elapsed() >= p.every)
                && let Some(first) = it.pv.first()
            {
                *sent = Some(Instant::now());
                (p.send)(&Search {
                    depth: Some(it.depth),
                    nodes: it.nodes,
                    time_ms: it.time_ms,
                    threads: self.threads,
                    root_info: RootInfo {
                        best: first.clone(),
                        score: Some(it.score),
                        winrate: None,
                        visits: None,
                    },
                    move_infos: vec![MoveInfo::searched(
                        first.clone(),
                        0,
                        it.score,
                        it.nodes,
                        it.depth,
                        it.pv.clone(),
                    )],
                    threat: None,
                    iterations: Vec::new(),
                    ownership: None,
                });
            }
        }
        self.done.lock().unwrap_or_else(|e| e.into_inner()).push(it);
    }
}

/// The position and, if the budget asks for a search and the game goes on, what the
/// search finds: `budget.lines()` lines, each searched with an equal share of the time
/// and nodes, the moves of the lines before it left out.
pub fn analyse(
    board: &Board,
    budget: &Budget,
    stop: &AtomicBool,
    progress: Option<&Progress>,
) -> Analysis {
    let mut analysis = Analysis::new("gomoku", position(board));
    if !budget.searches() || board.outcome() != Outcome::Ongoing {
        return analysis;
    }
    let mut engine = FiarEngine::with_board(board.clone());
    if let Some(t) = budget.threads {
        engine.set_threads(t);
    }
    engine.set_hash_bytes(
        Budget {
            threads: Some(engine.threads()),
            ..budget.clone()
        }
        .hash_bytes(),
    );
    let lines = budget.lines();
    let start = Instant::now();
    let share = budget.time.map(|t| t / lines as u32);
    let limits = |_: usize| Limits {
        deadline: share.map(|t| Instant::now() + t),
        depth: budget.depth,
        nodes: budget.nodes.map(|n| (n / lines as u64).max(1)),
        score_forced: true,
        ..Default::default()
    };
    let iterations = Iterations {
        done: Mutex::new(Vec::new()),
        first_found: AtomicBool::new(false),
        progress,
        threads: engine.threads(),
        sent: Mutex::new(None),
    };
    let mut found = engine.think_lines(lines, &limits, stop, &iterations, &mut |_, _| {
        iterations.first_found.store(true, Ordering::Relaxed)
    });
    // Each line is its own search without the moves before it, and a later one can score
    // its move above an earlier one's (the pruning and the table differ): the lines are
    // shown best first, as GUIs read them, the search's order kept between equals.
    found.sort_by_key(|r| std::cmp::Reverse(r.score.as_value()));
    let Some(first) = found.first() else {
        return analysis;
    };
    let names = |pv: &[crate::games::fiar::Move]| pv.iter().map(|m| m.to_string()).collect();
    let move_infos: Vec<MoveInfo> = found
        .iter()
        .enumerate()
        .map(|(order, r)| {
            MoveInfo::searched(
                r.best.to_string(),
                order,
                r.score.into(),
                r.nodes,
                r.depth,
                names(&r.pv),
            )
        })
        .collect();
    let threat = first.threat_line.as_ref().map(|line| {
        let steps = threat_steps(board, line);
        ThreatLine {
            kind: if steps.iter().all(|s| s.made != Made::Three) {
                "fours"
            } else {
                "threats"
            },
            plies: match first.score {
                crate::search::Score::Win(n) => n,
                _ => line.len() as u32,
            },
            steps: steps
                .into_iter()
                .map(|s| ThreatStep {
                    attack: s.attack.to_string(),
                    makes: match s.made {
                        Made::Five => "five",
                        Made::Four => "four",
                        Made::Three => "three",
                    },
                    defence: s.defence.map(|p| p.to_string()),
                    alternatives: s.alternatives.iter().map(|p| p.to_string()).collect(),
                })
                .collect(),
        }
    });
    analysis.search = Some(Search {
        depth: Some(first.depth),
        nodes: found.iter().map(|r| r.nodes).sum(),
        time_ms: start.elapsed().as_millis() as u64,
        threads: engine.threads(),
        root_info: RootInfo {
            best: first.best.to_string(),
            score: Some(ScoreInfo::from(first.score)),
            winrate: None,
            visits: None,
        },
        move_infos,
        threat,
        iterations: iterations
            .done
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
        ownership: None,
    });
    analysis
}
