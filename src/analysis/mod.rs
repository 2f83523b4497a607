//! Analysis of positions of the three games for people and programs: one model of what
//! a position is and what a search found there ([`model`]), filled by a runner per game
//! ([`fiar`], [`go`], [`gana`]; [`mcts`] reads the trees of the last two) and written as text ([`text`]) or JSON. The command line
//! only parses its arguments and picks the writer.

pub mod engine;
pub mod fiar;
pub mod gana;
pub mod go;
pub mod input;
pub mod mcts;
pub mod model;
pub mod text;

use std::time::Duration;

pub use input::{Input, gana_position, go_position, parse_size, position};
pub use model::Analysis;

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
}

impl Budget {
    /// Whether the budget asks for a search at all.
    pub fn searches(&self) -> bool {
        self.time.is_some() || self.depth.is_some() || self.nodes.is_some()
    }

    /// The number of lines asked for, at least one.
    pub fn lines(&self) -> usize {
        self.multipv.max(1)
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
