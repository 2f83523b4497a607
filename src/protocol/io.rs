//! Protocol input and output: a reader thread that turns stdin into lines on a channel
//! (so a stop or quit command reaches the engine while it thinks), and flushed output.

use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver};

/// Lines from stdin with the line end (LF or CRLF) removed; `None` at end of input.
///
/// The end of input does not cut short what is queued before it: `echo "genmove b" |
/// tengen gtp` must get a real move. A manager that died is noticed when the answer
/// cannot be written ([`send_text`]), or at once by a search waiting for input
/// (analysis, pondering, a Gomocup move).
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

/// Runs one command's handler; a panic in it, or in a search thread it started, comes
/// back as `Err` with the panic's message (the panic hook has already printed it on
/// stderr). The caller answers with its protocol's error and puts its state right: a
/// bug costs one answer, not the process.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}

/// Whether the test hooks are on (`TENGEN_TEST_HOOKS=1` in the environment): commands
/// that make a handler or a search thread panic, so that the recovery is tested.
pub fn test_hooks() -> bool {
    std::env::var_os("TENGEN_TEST_HOOKS").is_some_and(|v| v == "1")
}

/// Writes one line and flushes it: every reply must reach a manager at once.
pub fn send_line(out: &mut impl Write, line: &str) {
    send_text(out, &format!("{line}\n"));
}

/// Writes text and flushes it. When the write fails (stdout closed: the manager or GUI
/// is gone) the process ends at once: no one is left to read, and an engine that
/// thinks on regardless is an orphan burning a CPU.
pub fn send_text(out: &mut impl Write, text: &str) {
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        eprintln!("tengen: stdout is closed; exiting");
        std::process::exit(0);
    }
}
