//! Five-in-a-row: the board with incremental line patterns, every variant's rules
//! (wins, fouls, captures, counting), and game records.

pub mod board;
pub mod pattern;
pub mod record;
pub mod variant;

pub use board::{Board, DIRECTIONS, DrawReason, Foul, Move, Outcome, WinReason};
pub use pattern::{LineRule, Pattern};
pub use variant::Variant;
