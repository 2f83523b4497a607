//! Whole-game review: every position of a game analysed at a budget, each move judged
//! by what it cost its player (the chance of winning before it against after it), the
//! forced wins of five-in-a-row a move missed or allowed, and the game written back as
//! an annotated record (SGF with `C`, `BM`/`DO`/`TE`/`HO` and Sabaki's `SBKV`; Gana's
//! own record with comments) with a per-player summary.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::game::{Game, Refusal};
use super::model::{Analysis, ByColor, SCHEMA, ScoreInfo};
use super::{Budget, Progress};
use crate::core::Color;

/// The evaluation of five-in-a-row that means a 73% chance of winning: the logistic
/// curve fitted to self-play results (`bench/tune_eval.rs`, 7,814 positions of 400
/// games, freestyle and renju: K = 0.00041).
pub const EVAL_SCALE: f64 = 2500.0;

/// Losses, in the mover's chance of winning, from which a move is an inaccuracy, a
/// mistake, a blunder (as Lizzie and KaTrain grade them).
pub const INACCURACY: f32 = 0.05;
pub const MISTAKE: f32 = 0.10;
pub const BLUNDER: f32 = 0.20;

/// A forced win: how long, how it was found, and its line.
#[derive(Clone, Debug, Serialize)]
pub struct ForcedWin {
    /// Plies to the five, the winner's moves and the loser's counted.
    pub plies: u32,
    /// `fours` (VCF), `threats` (VCT) or `search` (the alpha-beta search's proof).
    pub by: &'static str,
    pub line: Vec<String>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveReview {
    /// From 1.
    pub number: usize,
    pub color: String,
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's chance of winning before the move and after it, 0..1, as the searches
    /// of the two positions saw them.
    pub before: f32,
    pub after: f32,
    /// What the move cost: `before - after`, at least 0; 0 for the search's own choice.
    pub loss: f32,
    /// Five-in-a-row: the scores before and after, from the mover's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_before: Option<ScoreInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_after: Option<ScoreInfo>,
    /// The result, when the move ended the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends: Option<String>,
    /// The search's choice and its line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    pub best_line: Vec<String>,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub judgement: &'static str,
    /// The played move was the only good one: the second choice was worse by a blunder's
    /// margin, or lost where the first did not (a forced block of a five excepted).
    pub only_move: bool,
    /// Five-in-a-row: the mover had a forced win and, after the move, none was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missed_win: Option<ForcedWin>,
    /// Five-in-a-row: the move let the opponent win by force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_win: Option<ForcedWin>,
}

/// One player's moves, summed up.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSummary {
    pub moves: usize,
    /// Moves that were the search's own choice.
    pub best: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean loss a move, 0..1.
    pub average_loss: f32,
    pub missed_wins: usize,
    pub allowed_wins: usize,
}

/// A reviewed game.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    pub schema: &'static str,
    pub game: &'static str,
    pub variant: String,
    /// What each position was given, in words (`200 ms`, `20000 nodes`…).
    pub budget: String,
    /// Black's chance of winning in each position, from the start (index 0) to the end.
    pub black_winrates: Vec<f32>,
    pub moves: Vec<MoveReview>,
    pub players: ByColor<PlayerSummary>,
    /// The moves that cost most, largest first (at most five with a loss).
    pub biggest_swings: Vec<usize>,
    pub time_ms: u64,
    /// The analysis of every position (not in the JSON: `tengen analysis` gives it).
    #[serde(skip)]
    pub positions: Vec<Analysis>,
}

/// The side to move's chance of winning in an analysed position: the result where the
/// game is over, the tree's win rate (Go, Gana), or the five-in-a-row score through
/// [`EVAL_SCALE`]'s curve (1 and 0 for forced wins and losses).
pub fn winrate(a: &Analysis) -> f32 {
    let p = &a.position;
    if p.result.status == "draw" {
        return 0.5;
    }
    if let Some(w) = &p.result.winner {
        return if *w == p.to_move { 1.0 } else { 0.0 };
    }
    let Some(s) = &a.search else {
        return 0.5;
    };
    if let Some(w) = s.root_info.winrate {
        return w.clamp(0.0, 1.0);
    }
    match s.root_info.score {
        Some(score) => score_winrate(score),
        None => 0.5,
    }
}

/// A five-in-a-row score as a chance of winning.
pub fn score_winrate(score: ScoreInfo) -> f32 {
    match score {
        ScoreInfo::Win { .. } => 1.0,
        ScoreInfo::Loss { .. } => 0.0,
        ScoreInfo::Value { value } => (1.0 / (1.0 + (-(value as f64) / EVAL_SCALE).exp())) as f32,
    }
}

/// The other side's view of a score.
fn flip(s: ScoreInfo) -> ScoreInfo {
    match s {
        ScoreInfo::Win { plies } => ScoreInfo::Loss { plies },
        ScoreInfo::Loss { plies } => ScoreInfo::Win { plies },
        ScoreInfo::Value { value } => ScoreInfo::Value { value: -value },
    }
}

fn score_of(a: &Analysis) -> Option<ScoreInfo> {
    a.search.as_ref().and_then(|s| s.root_info.score)
}

/// A forced win the analysis of a position proves for its side to move.
fn forced_win(a: &Analysis) -> Option<ForcedWin> {
    let s = a.search.as_ref()?;
    let ScoreInfo::Win { plies } = s.root_info.score? else {
        return None;
    };
    let by = s.threat.as_ref().map_or("search", |t| t.kind);
    let line = match &s.threat {
        Some(t) => t
            .steps
            .iter()
            .flat_map(|st| std::iter::once(st.attack.clone()).chain(st.defence.clone()))
            .collect(),
        None => s
            .move_infos
            .first()
            .map(|m| m.pv.clone())
            .unwrap_or_default(),
    };
    Some(ForcedWin { plies, by, line })
}

/// Whether the position's side to move was left without a choice but the first: the
/// second line is worse by a blunder's margin, or loses where the first does not — but
/// not when every other move loses to a five at once (blocking a four is no feat).
fn only_move(a: &Analysis) -> bool {
    let Some(s) = &a.search else {
        return false;
    };
    let (Some(first), Some(second)) = (s.move_infos.first(), s.move_infos.get(1)) else {
        return false;
    };
    match (first.score, second.score) {
        (Some(f), Some(sc)) => {
            if matches!(sc, ScoreInfo::Loss { plies } if plies <= 2) {
                return false;
            }
            let lost = |x: ScoreInfo| matches!(x, ScoreInfo::Loss { .. });
            let won = |x: ScoreInfo| matches!(x, ScoreInfo::Win { .. });
            (lost(sc) && !lost(f))
                || (won(f) && !won(sc))
                || score_winrate(f) - score_winrate(sc) >= BLUNDER
        }
        _ => match (first.winrate, second.winrate, second.visits) {
            (Some(f), Some(sc), Some(v)) => v >= 20 && f - sc >= BLUNDER,
            _ => false,
        },
    }
}

fn judgement(loss: f32, best: bool, forced: bool) -> &'static str {
    if forced || loss >= BLUNDER {
        "blunder"
    } else if best {
        "best"
    } else if loss >= MISTAKE {
        "mistake"
    } else if loss >= INACCURACY {
        "inaccuracy"
    } else {
        "good"
    }
}

/// Judges every move from the analyses of the positions before and after it
/// (`positions[i]` is the position after `i` moves).
pub fn judge(game: &Game, positions: &[Analysis]) -> Vec<MoveReview> {
    let mut color = game.first();
    let mut out = Vec::new();
    for (i, mv) in game.moves().iter().enumerate() {
        let (Some(pre), Some(post)) = (positions.get(i), positions.get(i + 1)) else {
            break;
        };
        let before = winrate(pre);
        let after = 1.0 - winrate(post);
        let best = pre.search.as_ref().map(|s| s.root_info.best.clone());
        let best_line = pre
            .search
            .as_ref()
            .and_then(|s| s.move_infos.first())
            .map(|m| m.pv.clone())
            .unwrap_or_default();
        let is_best = best.as_deref() == Some(mv.as_str());
        let loss = if is_best {
            0.0
        } else {
            (before - after).max(0.0)
        };
        let score_before = score_of(pre);
        let score_after = score_of(post).map(flip);
        let ends =
            (post.position.result.status != "ongoing").then(|| post.position.result.text.clone());
        let mover_wins_after = after >= 1.0;
        let missed_win = forced_win(pre).filter(|_| !mover_wins_after && !is_best);
        let allowed_win =
            forced_win(post).filter(|_| !matches!(score_before, Some(ScoreInfo::Loss { .. })));
        let forced = missed_win.is_some() || allowed_win.is_some();
        out.push(MoveReview {
            number: i + 1,
            color: color.name().to_string(),
            mv: mv.clone(),
            before,
            after,
            loss,
            score_before,
            score_after,
            ends,
            best,
            best_line,
            judgement: judgement(loss, is_best, forced),
            only_move: is_best && only_move(pre),
            missed_win,
            allowed_win,
        });
        color = color.opposite();
    }
    out
}

fn summary(moves: &[MoveReview], color: Color) -> PlayerSummary {
    let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.color == color.name()).collect();
    let count = |j: &str| mine.iter().filter(|m| m.judgement == j).count();
    PlayerSummary {
        moves: mine.len(),
        best: count("best"),
        inaccuracies: count("inaccuracy"),
        mistakes: count("mistake"),
        blunders: count("blunder"),
        average_loss: if mine.is_empty() {
            0.0
        } else {
            mine.iter().map(|m| m.loss).sum::<f32>() / mine.len() as f32
        },
        missed_wins: mine.iter().filter(|m| m.missed_win.is_some()).count(),
        allowed_wins: mine.iter().filter(|m| m.allowed_win.is_some()).count(),
    }
}

/// The budget in words.
fn budget_text(b: &Budget) -> String {
    let mut parts = Vec::new();
    if let Some(t) = b.time {
        parts.push(format!("{} ms", t.as_millis()));
    }
    if let Some(d) = b.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = b.nodes {
        parts.push(format!("{n} nodes"));
    }
    parts.join(", ")
}

/// Reviews a game: analyses each of its positions in turn with `budget` (at least two
/// lines, for the only-move marks) and judges its moves. `done` hears of each position
/// analysed (how many of how many); `progress` gets each search's partial results.
pub fn review(
    game: &Game,
    budget: &Budget,
    stop: &AtomicBool,
    progress: Option<&Progress>,
    done: &dyn Fn(usize, usize, &Analysis),
) -> Result<Review, Refusal> {
    let started = std::time::Instant::now();
    let budget = Budget {
        multipv: budget.multipv.max(2),
        ..budget.clone()
    };
    let n = game.moves().len();
    let mut positions = Vec::with_capacity(n + 1);
    for turn in 0..=n {
        let a = game.analyse(turn, &budget, stop, progress)?;
        done(turn + 1, n + 1, &a);
        positions.push(a);
    }
    let moves = judge(game, &positions);
    let black_winrates = positions
        .iter()
        .map(|a| {
            let w = winrate(a);
            if a.position.to_move == Color::Black.name() {
                w
            } else {
                1.0 - w
            }
        })
        .collect();
    let mut swings: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].loss > 0.0).collect();
    swings.sort_by(|&a, &b| moves[b].loss.total_cmp(&moves[a].loss));
    swings.truncate(5);
    Ok(Review {
        schema: SCHEMA,
        game: game.name(),
        variant: positions
            .first()
            .map(|a| a.position.variant.clone())
            .unwrap_or_default(),
        budget: budget_text(&budget),
        black_winrates,
        players: ByColor {
            black: summary(&moves, Color::Black),
            white: summary(&moves, Color::White),
        },
        biggest_swings: swings.iter().map(|&i| moves[i].number).collect(),
        moves,
        time_ms: started.elapsed().as_millis() as u64,
        positions,
    })
}
