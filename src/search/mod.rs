//! Searches: alpha-beta with threat-space search for five-in-a-row (`ab`); the types
//! every search shares with the engine facade (limits, progress reports).

pub mod ab;
pub mod mcts;

use std::time::{Duration, Instant};

/// When a search must stop. The first limit reached ends it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop at this instant at the latest (the hard limit; never overrun).
    pub deadline: Option<Instant>,
    /// Start no new iteration after this much time (the soft limit).
    pub soft: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Root moves not to consider (multi-PV by exclusion).
    pub exclude: Vec<crate::core::error::Point>,
    /// Test hook: a search thread panics (see [`injected_fault`]).
    pub fault: bool,
}

/// Test hook: a search thread that panics at once, as one with a bug would; the thread
/// scope carries the panic to the caller as it does any search thread's. The protocols'
/// recovery is tested with it (`TENGEN_TEST_HOOKS`).
pub fn injected_fault() {
    std::thread::scope(|s| {
        s.spawn(|| panic!("injected fault in a search thread"));
    });
}

/// One completed iteration, as reported while a search runs.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub sel_depth: u32,
    /// Side-to-move score: centi-stones, or a win/loss in `plies` (see [`Score`]).
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, as point names of the game.
    pub pv: Vec<String>,
    /// For multi-PV searches (Yixin's NBEST): which line this is, from 1.
    pub multipv: usize,
}

/// A score as the user sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Value(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Value(v) => write!(f, "{v}"),
            Score::Win(n) => write!(f, "+M{n}"),
            Score::Loss(n) => write!(f, "-M{n}"),
        }
    }
}

/// Where a search reports progress. Called from the search's main thread.
pub trait Reporter: Sync {
    fn iteration(&self, info: &Info);
}

/// A reporter that drops everything.
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &Info) {}
}
