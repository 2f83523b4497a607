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

/// The stack of every search thread. The searches recurse (alpha-beta by depth; the Go
/// priors' ladder reading holds two boards of about 18 KB a level, up to 80 levels) and
/// a spawned thread's default 2 MB overflowed on 25x25 — an abort no guard can catch.
/// Only the pages a search touches are ever mapped.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Spawns a search thread in `scope` with [`SEARCH_STACK_BYTES`] of stack; `None` when
/// the system refuses another thread (the search then goes on with those it has).
pub fn spawn_search<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> Option<std::thread::ScopedJoinHandle<'scope, T>> {
    match std::thread::Builder::new()
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, f)
    {
        Ok(h) => Some(h),
        Err(e) => {
            eprintln!("tengen: cannot start a search thread ({e}); going on without it");
            None
        }
    }
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
