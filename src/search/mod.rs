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
    /// Analysis: search a forced move (the only root move, as a block of a four) for its
    /// score instead of answering it at once with none.
    pub score_forced: bool,
    /// Test hook: a search thread panics (see [`injected_fault`]).
    pub fault: bool,
}

/// The machine's hardware threads (1 where it cannot tell).
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The search threads a setting gets: at least one, at most [`machine_threads`]. Every
/// search starts its helpers afresh, and more threads than the hardware runs only add
/// that cost and take turns: with `thread_num` 512 (a fuzzed Gomocup setting, clamped
/// to 512 before) a 40 ms move took 75 ms and a `YXBALANCETWO` 3 s.
pub fn thread_count(asked: usize) -> usize {
    asked.clamp(1, machine_threads())
}

/// The stack of every search thread. The searches recurse (alpha-beta by depth; the Go
/// priors' ladder reading holds two boards of about 18 KB a level, up to 80 levels) and
/// a spawned thread's default 2 MB overflowed on 25x25 — an abort no guard can catch.
/// Only the pages a search touches are ever mapped.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Spawns a search thread in `scope` with [`SEARCH_STACK_BYTES`] of stack; `None` when
/// the system refuses another thread (the search then goes on with those it has).
///
/// Join the handle (see [`Helpers`]); never drop it. Dropping detaches the thread, and
/// glibc's `pthread_detach` (2.36 here) races with the exit of the thread it detaches:
/// when the exiting thread frees itself first, a stack too large for glibc's cache is
/// unmapped under the detaching call, which then segfaults. The million-line Gomocup
/// fuzz hit it four times with helpers detached at spawn.
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

/// The helper threads of one search, spawned with [`spawn_search`] and always joined.
///
/// [`Helpers::finish`] raises the helpers' stop flag, joins them and carries a helper's
/// panic on to the caller (and from there to the command's guard). If the main thread
/// panics first, dropping this does the same without the panic: the helpers stop with
/// it instead of keeping the thread scope, and the engine, waiting for ever.
pub struct Helpers<'scope, 'a> {
    stop: &'a std::sync::atomic::AtomicBool,
    handles: Vec<std::thread::ScopedJoinHandle<'scope, ()>>,
}

impl<'scope, 'a> Helpers<'scope, 'a> {
    /// Helpers that run until `stop` is raised.
    pub fn new(stop: &'a std::sync::atomic::AtomicBool) -> Self {
        Helpers {
            stop,
            handles: Vec::new(),
        }
    }

    pub fn spawn(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        f: impl FnOnce() + Send + 'scope,
    ) {
        self.handles.extend(spawn_search(scope, f));
    }

    pub fn len(&self) -> usize {
        self.handles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    pub fn finish(mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut panic = None;
        for h in self.handles.drain(..) {
            if let Err(p) = h.join() {
                panic.get_or_insert(p);
            }
        }
        if let Some(p) = panic {
            std::panic::resume_unwind(p);
        }
    }
}

impl Drop for Helpers<'_, '_> {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// Test hook: a search thread that panics at once, as one with a bug would; the thread
/// scope carries the panic to the caller as it does any search thread's. The protocols'
/// recovery is tested with it (`TENGEN_TEST_HOOKS`).
pub fn injected_fault() {
    std::thread::scope(|s| {
        let never = std::sync::atomic::AtomicBool::new(false);
        let mut helpers = Helpers::new(&never);
        helpers.spawn(s, || panic!("injected fault in a search thread"));
        helpers.finish();
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

impl Score {
    /// The score on one scale, wins above and losses below every value (a win in `n`
    /// plies is 30,000 − n): to compare scores, or to show one as a number.
    pub fn as_value(self) -> i32 {
        match self {
            Score::Value(v) => v,
            Score::Win(n) => 30_000 - n as i32,
            Score::Loss(n) => -(30_000 - n as i32),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    #[test]
    fn thread_settings_stay_between_one_and_the_machines() {
        assert_eq!(thread_count(0), 1);
        assert_eq!(thread_count(1), 1);
        assert_eq!(thread_count(usize::MAX), machine_threads());
        assert_eq!(thread_count(machine_threads()), machine_threads());
    }

    /// The shape every search has: helpers loop until a flag, the main thread works.
    /// When the main thread panics, the helpers must stop and the panic reach the
    /// caller; otherwise the command's guard would wait for ever.
    #[test]
    fn a_panicking_main_thread_stops_its_helpers_and_reports_the_panic() {
        let done = AtomicBool::new(false);
        let stopped = AtomicU32::new(0);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|s| {
                let mut helpers = Helpers::new(&done);
                for _ in 0..3 {
                    let (done, stopped) = (&done, &stopped);
                    helpers.spawn(s, move || {
                        while !done.load(Ordering::Relaxed) {
                            std::thread::yield_now();
                        }
                        stopped.fetch_add(1, Ordering::Relaxed);
                    });
                }
                if helpers.len() == 3 {
                    panic!("the main search thread fails");
                }
                helpers.finish();
            })
        }));
        assert!(outcome.is_err(), "the panic reaches the caller");
        assert_eq!(stopped.load(Ordering::Relaxed), 3, "every helper stopped");
    }

    #[test]
    fn a_helper_panic_reaches_the_caller_after_every_helper_is_joined() {
        let finished = AtomicU32::new(0);
        let stop = AtomicBool::new(false);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|s| {
                let mut helpers = Helpers::new(&stop);
                for i in 0..4 {
                    let finished = &finished;
                    helpers.spawn(s, move || {
                        if i == 1 {
                            panic!("helper {i} fails");
                        }
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        finished.fetch_add(1, Ordering::Relaxed);
                    });
                }
                helpers.finish();
            })
        }));
        let payload = outcome.expect_err("the helper's panic is carried on");
        assert_eq!(
            payload.downcast_ref::<String>().map(String::as_str),
            Some("helper 1 fails")
        );
        assert_eq!(finished.load(Ordering::Relaxed), 3);
        assert!(stop.load(Ordering::Relaxed), "finish raises the flag");
    }
}
