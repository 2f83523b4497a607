//! The game families Tengen plays: boards, rules, records.

pub mod fiar;
pub mod gana;
pub mod go;
