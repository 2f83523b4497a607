//! Analysis of positions of the three games for people and programs: one model of what
//! a position is and what a search found there ([`model`]), filled by a runner per game
//! ([`fiar`], [`go`], [`gana`]; [`mcts`] reads the trees of the last two) and written as text ([`text`]) or JSON. The command line
//! only parses its arguments and picks the writer.

pub mod annotate;
pub mod engine;
pub mod fiar;
pub mod game;
pub mod gana;
pub mod go;
pub mod input;
pub mod mcts;
pub mod meter;
pub mod model;
pub mod review;
pub mod svg;
pub mod text;

use std::time::Duration;

pub use input::{Input, gana_position, go_position, parse_size, position};
pub use model::Analysis;

/// The largest budgets a position takes: alpha-beta nodes, MCTS playouts, depth, and
/// search threads.
pub const MAX_NODES: u64 = 1_000_000_000_000;
pub const MAX_VISITS: u64 = 1_000_000_000;
pub const MAX_DEPTH: u32 = 100;
pub const MAX_THREADS: usize = 1024;

/// What one analysis may spend. Without a limit (no time, depth, nodes or playouts)
/// the position is described but not searched.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub time: Option<Duration>,
    /// Alpha-beta only.
    pub depth: Option<u32>,
    /// Alpha-beta nodes, or MCTS playouts.
    pub nodes: Option<u64>,
    /// Search threads (default: the engine's, all cores).
    pub threads: Option<usize>,
    /// Candidate moves to report: five-in-a-row searches this many lines, each with its
    /// share of the budget; Go and Gana report this many of the tree's root moves.
    pub multipv: usize,
    /// Go: report each point's expected owner (`ownership`).
    pub ownership: bool,
}

impl Budget {
    /// Whether the budget asks for a search at all.
    pub fn searches(&self) -> bool {
        self.time.is_some() || self.depth.is_some() || self.nodes.is_some()
    }

    /// Refuses a budget of zero or of absurd size, naming the command-line option;
    /// `mcts`: the nodes are playouts.
    pub fn check(&self, mcts: bool) -> Result<(), String> {
        let nodes = if mcts { "--playouts" } else { "--nodes" };
        if self.time.is_some_and(|t| t.is_zero()) {
            return Err("--time 0: a search needs some time".into());
        }
        match self.depth {
            Some(0) => return Err("--depth 0: at least 1".into()),
            Some(d) if d > MAX_DEPTH => return Err(format!("--depth {d}: at most {MAX_DEPTH}")),
            _ => {}
        }
        let max = if mcts { MAX_VISITS } else { MAX_NODES };
        match self.nodes {
            Some(0) => return Err(format!("{nodes} 0: at least 1")),
            Some(n) if n > max => return Err(format!("{nodes} {n}: at most {max}")),
            _ => {}
        }
        match self.threads {
            Some(t) if t == 0 || t > MAX_THREADS => {
                Err(format!("--threads {t}: 1 to {MAX_THREADS}"))
            }
            _ => Ok(()),
        }
    }

    /// The budget of a tree search (Go, Gana: `name`), whose `--playouts` count as its
    /// nodes; five-in-a-row's `--depth` and `--nodes` are refused.
    pub fn for_mcts(mut self, name: &str, playouts: Option<u64>) -> Result<Budget, String> {
        if self.depth.is_some() || self.nodes.is_some() {
            return Err(format!(
                "--depth and --nodes are for five-in-a-row; {name} takes --time or --playouts"
            ));
        }
        self.nodes = playouts;
        Ok(self)
    }

    /// The number of lines asked for, at least one.
    pub fn lines(&self) -> usize {
        self.multipv.max(1)
    }

    /// A transposition table to fit the budget: 32 bytes a node it may search (several
    /// entries a node), from 1 MB to the engine's default; a search bounded by depth
    /// alone gets the default. (A 128 MB table for a 2,000-node search costs more to
    /// make than the search.)
    pub fn hash_bytes(&self) -> usize {
        // Above what one search thread manages here.
        const NODES_PER_SECOND: f64 = 2_000_000.0;
        let threads = self.threads.unwrap_or(1).max(1) as f64;
        let by_time = self
            .time
            .map(|t| t.as_secs_f64() * NODES_PER_SECOND * threads);
        let by_nodes = self.nodes.map(|n| n as f64);
        let nodes = match (by_nodes, by_time) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return crate::engine::DEFAULT_HASH_BYTES,
        };
        ((nodes * 32.0).min(1e12) as usize)
            .next_power_of_two()
            .clamp(1 << 20, crate::engine::DEFAULT_HASH_BYTES)
    }

    /// How many root moves a Monte-Carlo analysis lists: all it visited unless
    /// `multipv` says.
    pub fn listed(&self) -> usize {
        if self.multipv == 0 {
            usize::MAX
        } else {
            self.multipv
        }
    }
}

/// Where partial results go while a search runs, and how often at most.
pub struct Progress<'a> {
    pub every: Duration,
    pub send: &'a (dyn Fn(&model::Search) + Sync),
}

/// `black` or `white`, as the JSON writes colours.
fn color_name(c: crate::core::Color) -> String {
    c.name().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::DEFAULT_HASH_BYTES;

    /// A small budget gets a small table (making 128 MB took 20 times as long as a
    /// 2,000-node search); a large or depth-only one the engine's default.
    #[test]
    fn the_table_fits_the_budget() {
        let nodes = |n| Budget {
            nodes: Some(n),
            ..Budget::default()
        };
        assert_eq!(nodes(2_000).hash_bytes(), 1 << 20);
        assert_eq!(nodes(100_000).hash_bytes(), 4 << 20);
        assert_eq!(nodes(u64::MAX).hash_bytes(), DEFAULT_HASH_BYTES);
        let time = Budget {
            time: Some(Duration::from_millis(10)),
            ..Budget::default()
        };
        assert_eq!(time.hash_bytes(), 1 << 20);
        let long = Budget {
            time: Some(Duration::from_secs(10)),
            ..Budget::default()
        };
        assert_eq!(long.hash_bytes(), DEFAULT_HASH_BYTES);
        let depth = Budget {
            depth: Some(12),
            ..Budget::default()
        };
        assert_eq!(depth.hash_bytes(), DEFAULT_HASH_BYTES);
    }
}
