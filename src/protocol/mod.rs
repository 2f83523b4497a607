//! Text protocols on stdin/stdout: each line is parsed into a command, answered in the
//! protocol's own form; bad lines get the protocol's error reply and the loop goes on.

pub mod gana;
pub mod gomocup;
pub mod gtp;
pub mod io;
