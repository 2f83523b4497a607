//! The analysis of one position, the same for the three games: what the position is and
//! what a search found. The text output, the JSON output and (later) annotated records
//! and pictures are all drawn from it. The JSON names are camelCase, as KataGo's
//! analysis engine writes them; `protocols/analysis/README.md` documents the schema.

use serde::Serialize;

/// The schema's name and version, written into every JSON object. A field is only ever
/// added under one version; a change of meaning gets a new version.
pub const SCHEMA: &str = "tengen-analysis/1";

/// A position and, with a budget, what the search found there.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    pub schema: &'static str,
    /// `gomoku`, `go` or `gana`.
    pub game: &'static str,
    pub position: Position,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
}

impl Analysis {
    /// The analysis of `position` in `game`, before any search.
    pub fn new(game: &'static str, position: Position) -> Analysis {
        Analysis {
            schema: SCHEMA,
            game,
            position,
            search: None,
        }
    }
}

/// Black's and white's share of something (captures, rows, stones left).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ByColor<T> {
    pub black: T,
    pub white: T,
}

/// The position: board, moves so far, side to move, result.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Position {
    /// Five-in-a-row: the variant (`freestyle`, `renju`…); Go: the rules; Gana: `gana`.
    pub variant: String,
    pub width: usize,
    pub height: usize,
    /// Go only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub komi: Option<f32>,
    /// The moves played, in the game's own notation (`h8`, `D4`, `e2n`; `pass`).
    pub moves: Vec<String>,
    /// The stones on the board by colour (five-in-a-row and Go).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stones: Option<ByColor<Vec<String>>>,
    /// Gana: the position as text (the notation its protocol's `setposition` reads).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// `black` or `white`.
    pub to_move: String,
    pub result: GameResult,
    /// Points the variant forbids to a side now (renju and its relatives), with the reason.
    pub forbidden: Vec<Forbidden>,
    /// The sides the variant forbids points to (`forbidden` lists those of now).
    pub fouls_apply_to: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<ByColor<u32>>,
    /// The counting games: rows of five or more made so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<ByColor<u32>>,
    /// Variants with a fixed number of stones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stones_left: Option<ByColor<u32>>,
    /// Gana: plies since the last capture (a hundred draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies_without_capture: Option<u32>,
    /// The board drawn as the text output draws it (rows top to bottom).
    pub diagram: String,
}

/// A forbidden point.
#[derive(Clone, Debug, Serialize)]
pub struct Forbidden {
    pub point: String,
    /// The side it is forbidden to.
    pub color: String,
    /// `double-three`, `double-four`, `overline`…
    pub reason: String,
}

/// The game's result so far.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResult {
    /// `ongoing`, `win` or `draw`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// The result in words, as the text output gives it.
    pub text: String,
    /// Five-in-a-row: the winning row's two end points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<[String; 2]>,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ScoreInfo {
    /// The alpha-beta search's evaluation (five-in-a-row; its units are the evaluation's).
    Value { value: i32 },
    /// A forced win in this many plies (the winning move counted).
    Win { plies: u32 },
    /// A forced loss in this many plies.
    Loss { plies: u32 },
}

impl From<crate::search::Score> for ScoreInfo {
    fn from(s: crate::search::Score) -> ScoreInfo {
        use crate::search::Score;
        match s {
            Score::Value(value) => ScoreInfo::Value { value },
            Score::Win(plies) => ScoreInfo::Win { plies },
            Score::Loss(plies) => ScoreInfo::Loss { plies },
        }
    }
}

impl std::fmt::Display for ScoreInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreInfo::Value { value } => write!(f, "{value}"),
            ScoreInfo::Win { plies } => write!(f, "+M{plies}"),
            ScoreInfo::Loss { plies } => write!(f, "-M{plies}"),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    /// Alpha-beta: the deepest completed iteration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Alpha-beta nodes (threat-search positions included) or MCTS playouts.
    pub nodes: u64,
    pub time_ms: u64,
    pub threads: usize,
    pub root_info: RootInfo,
    /// The candidate moves, best first (`order` 0): as many as `multiPV` asked for
    /// (five-in-a-row), or every move the tree visited (Go, Gana; the first ten in text).
    pub move_infos: Vec<MoveInfo>,
    /// Five-in-a-row: a forced win found by the threat search, step by step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<ThreatLine>,
    /// Alpha-beta: each completed iteration of the first line's search.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<Iteration>,
    /// Go, when asked for: each point's expected owner at the end, -1 (white) to 1
    /// (black), row by row from the top left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Vec<f32>>,
}

/// The position's value as the search sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootInfo {
    /// The best move (`pass` where that is the best).
    pub best: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreInfo>,
    /// MCTS: the side to move's chance of winning, 0..1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winrate: Option<f32>,
    /// MCTS: the playouts of the whole search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u64>,
}

/// One candidate move.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    #[serde(rename = "move")]
    pub mv: String,
    /// Rank, 0 for the best.
    pub order: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winrate: Option<f32>,
    /// MCTS: visits of the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u64>,
    /// Alpha-beta: nodes of the search that scored the move (its line's search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// MCTS: the move's prior (the priors of the legal moves sum to about 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The expected continuation, this move first.
    pub pv: Vec<String>,
}

impl MoveInfo {
    /// A move as an alpha-beta search scored it.
    pub fn searched(
        mv: String,
        order: usize,
        score: ScoreInfo,
        nodes: u64,
        depth: u32,
        pv: Vec<String>,
    ) -> MoveInfo {
        MoveInfo {
            mv,
            order,
            score: Some(score),
            winrate: None,
            visits: None,
            nodes: Some(nodes),
            prior: None,
            depth: Some(depth),
            pv,
        }
    }
}

/// A forced win by threats: the attacker's moves and, after each, the defender's.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreatLine {
    /// `fours` (VCF: every attacker move makes a four) or `threats` (VCT: threes too).
    pub kind: &'static str,
    /// Plies to the five, the attacker's moves and the defender's counted.
    pub plies: u32,
    pub steps: Vec<ThreatStep>,
}

/// One attacker move and the defence the line follows.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreatStep {
    pub attack: String,
    /// `four`, `three` or `five`.
    pub makes: &'static str,
    /// The defender's answer on the main line (none after the last attack).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defence: Option<String>,
    /// Every other answer the rules give the defender here (a block, a four of its own);
    /// each loses too, as the threat search proved.
    pub alternatives: Vec<String>,
}

/// A completed iteration of an alpha-beta search.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Iteration {
    pub depth: u32,
    pub sel_depth: u32,
    pub score: ScoreInfo,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
}
