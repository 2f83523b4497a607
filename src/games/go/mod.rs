//! Go: the board (chains, liberties, captures, ko), rule sets, and the game with its
//! history (superko, undo, handicap, scoring).

pub mod board;
pub mod features;
pub mod game;
pub mod pattern;
pub mod prior_weights;
pub mod record;
pub mod rules;
pub mod tactics;

pub use board::{Board, Cell, Illegal, PASS, Vertex};
pub use game::{Game, GoError, fixed_handicap, parse_vertex, result_text, vertex_name};
pub use rules::{KoRule, Rules, Scoring};
