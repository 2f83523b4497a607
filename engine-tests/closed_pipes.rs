//! When the manager or GUI dies, its ends of the pipes close: the engine must then end
//! promptly instead of thinking on as an orphan that burns a CPU. Stdin closing while
//! the engine analyses, ponders or thinks in Gomocup ends it at once; stdout closing
//! ends it at its next write.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Whether the process ended within `limit`; kills it otherwise.
fn ends_within(child: &mut Child, limit: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    false
}

/// Sends `lines` and reads stdout until a line starting with `until`.
fn talk(child: &mut Child, lines: &[&str], until: &str) -> BufReader<std::process::ChildStdout> {
    let stdin = child.stdin.as_mut().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "stdout ended early");
        if line.starts_with(until) {
            return out;
        }
    }
}

#[test]
fn gtp_analysis_ends_when_stdin_closes() {
    let mut e = spawn(&["gtp", "--threads", "1", "--size", "9"]);
    let _out = talk(&mut e, &["lz-analyze 10"], "info");
    drop(e.stdin.take());
    assert!(ends_within(&mut e, Duration::from_secs(1)));
}

#[test]
fn gtp_analysis_ends_when_stdout_closes() {
    // stdin stays open: only the failed write tells the engine no one is reading.
    let mut e = spawn(&["gtp", "--threads", "1", "--size", "9"]);
    let out = talk(&mut e, &["lz-analyze 10"], "info");
    drop(out);
    assert!(ends_within(&mut e, Duration::from_secs(2)));
}

#[test]
fn gtp_pondering_ends_when_stdin_closes() {
    let mut e = spawn(&[
        "gtp",
        "--threads",
        "1",
        "--size",
        "9",
        "--time",
        "0.2",
        "--ponder",
    ]);
    let _out = talk(&mut e, &["genmove b"], "= ");
    // Now it ponders on the opponent's time, until the next line — which never comes.
    std::thread::sleep(Duration::from_millis(200));
    drop(e.stdin.take());
    assert!(ends_within(&mut e, Duration::from_secs(1)));
}

#[test]
fn gomocup_thinking_ends_when_stdin_closes() {
    let mut e = spawn(&["gomocup", "--threads", "1", "--hash", "16"]);
    let _out = talk(&mut e, &["INFO timeout_turn 30000", "START 20"], "OK");
    writeln!(e.stdin.as_mut().unwrap(), "BEGIN").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    drop(e.stdin.take());
    assert!(ends_within(&mut e, Duration::from_secs(1)));
}

#[test]
fn idle_engines_end_when_stdin_closes() {
    for args in [
        &["gtp", "--threads", "1"][..],
        &["gtp", "--game", "gana", "--threads", "1"],
        &["gomocup", "--threads", "1", "--hash", "16"],
    ] {
        let mut e = spawn(args);
        drop(e.stdin.take());
        assert!(ends_within(&mut e, Duration::from_secs(1)), "{args:?}");
    }
}

#[test]
fn a_piped_genmove_still_gets_a_real_move_after_the_end_of_input() {
    // The end of input must not cut short what came before it.
    let mut e = spawn(&["gtp", "--threads", "1", "--size", "9", "--time", "0.3"]);
    let mut stdin = e.stdin.take().unwrap();
    stdin.write_all(b"genmove b\n").unwrap();
    drop(stdin);
    let out = e.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("= ") && !text.starts_with("= pass"),
        "{text}"
    );
}

/// The JSON-lines analysis engine finishes what is queued when stdin ends (a batch piped
/// in), but ends at its next answer once no one reads its stdout.
#[test]
fn the_analysis_engine_ends_when_stdout_closes() {
    let mut e = spawn(&["analysis", "--workers", "1"]);
    let stdin = e.stdin.as_mut().unwrap();
    writeln!(
        stdin,
        r#"{{"id":"long","game":"go","size":9,"maxTime":600,"reportDuringSearchEvery":0.1}}"#
    )
    .unwrap();
    stdin.flush().unwrap();
    drop(e.stdout.take());
    assert!(ends_within(&mut e, Duration::from_secs(5)));
}
