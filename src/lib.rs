//! Tengen: a game-playing engine for five-in-a-row, Go and Gana.
//!
//! The library holds the rules of every game (`games`) and the shared
//! foundations (`core`); the `tengen` binary puts a command line on top.

pub mod analysis;
pub mod bench;
pub mod core;
pub mod engine;
pub mod fuzz;
pub mod games;
pub mod protocol;
pub mod search;
pub mod tournament;
