//! Protocol input and output: a reader thread that turns stdin into lines on a channel
//! (so a stop or quit command reaches the engine while it thinks), and flushed output.

use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver};

/// Lines from stdin with the line end (LF or CRLF) removed; `None` at end of input.
pub fn spawn_reader<R: BufRead + Send + 'static>(input: R) -> Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(_) => {
                    // Invalid UTF-8 is kept as replacement characters: the command will be
                    // refused by the parser, not by the reader.
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Some(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// Writes one line and flushes it: every reply must reach a manager at once.
pub fn send_line(out: &mut impl Write, line: &str) {
    // A closed stdout means the manager is gone; there is no one left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
