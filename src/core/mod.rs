//! Foundations shared by every game: Zobrist keys, colours, the rules-layer error type.

pub mod color;
pub mod error;
pub mod files;
pub mod memory;
pub mod sgf;
pub mod tt;
pub mod zobrist;

pub use color::Color;
pub use error::RuleError;
pub use zobrist::Key;
