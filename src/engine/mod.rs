//! The engine facades the protocols and the command line use, one per game family:
//! the game so far, its settings (rules, threads, memory, time) and the searches run on
//! it. Protocols never reach into the searches themselves.

pub mod clock;
pub mod fiar;
pub mod gana;
pub mod go;

pub use fiar::{Clock, DEFAULT_HASH_BYTES, FiarEngine};
pub use gana::GanaEngine;
pub use go::GoEngine;
