//! Gana, the 8x8 stacking game with kings: the position, its moves and captures, move
//! and position text, as `../shared/rules/gana.md` defines them.

pub mod board;

pub use board::{Board, Dir, DrawReason, Illegal, Move, MoveError, Outcome, Square};
