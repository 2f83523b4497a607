//! Go regression suites in GNU Go's `.tst` format (`engine-tests/go-regress/*.tst`),
//! run by the project's own runner: each file's commands go to one engine; a numbered
//! command's answer is checked against the `#?` line after it. `[A|B]` accepts either
//! answer, `[!A]` any answer but A (or, with `|`, any but those), and a trailing `*`
//! marks a known failure that is reported but not counted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Whether `answer` satisfies the `#?` line's bracketed pattern.
fn accepts(pattern: &str, answer: &str) -> bool {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_uppercase()
    };
    let answer = norm(answer);
    match pattern.strip_prefix('!') {
        Some(rest) => !rest.split('|').any(|alt| norm(alt) == answer),
        None => pattern.split('|').any(|alt| norm(alt) == answer),
    }
}

struct Outcome {
    passed: Vec<String>,
    failed: Vec<String>,
    known: Vec<String>,
}

fn run_suite(path: &std::path::Path) -> Outcome {
    let text = std::fs::read_to_string(path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "gtp",
            "--threads",
            "1",
            "--playouts",
            "5000",
            "--resign",
            "0",
            "--seed",
            "1",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |cmd: &str| -> String {
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "engine quit on '{cmd}'"
            );
            if line.trim().is_empty() {
                if reply.is_empty() {
                    continue;
                }
                return reply;
            }
            reply.push_str(&line);
        }
    };
    let mut out = Outcome {
        passed: Vec::new(),
        failed: Vec::new(),
        known: Vec::new(),
    };
    let mut last: Option<(String, String)> = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(check) = line.strip_prefix("#?") {
            let (cmd, answer) = last.take().expect("a #? line follows a numbered command");
            let check = check.trim();
            let known_failure = check.ends_with('*');
            let pattern = check
                .trim_end_matches('*')
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']');
            let body = answer.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit());
            let what = format!(
                "{}: {cmd} -> {} (expected [{pattern}])",
                path.display(),
                body.trim()
            );
            if !answer.starts_with('=') {
                out.failed.push(format!("{what}: error reply"));
            } else if accepts(pattern, body) {
                out.passed.push(what);
            } else if known_failure {
                out.known.push(what);
            } else {
                out.failed.push(what);
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let answer = ask(line);
        let numbered = line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.parse::<u64>().is_ok());
        if numbered {
            last = Some((line.to_string(), answer));
        } else {
            assert!(
                answer.starts_with('='),
                "{}: '{line}' failed: {answer}",
                path.display()
            );
        }
    }
    let _ = ask("quit");
    let _ = child.wait();
    out
}

#[test]
fn patterns_read_as_gnu_go_writes_them() {
    assert!(accepts("B6", "b6"));
    assert!(accepts("C3|D4", "D4"));
    assert!(accepts("!B5|D5", "C1"));
    assert!(!accepts("!B5|D5", "D5"));
    assert!(accepts("", ""));
    assert!(accepts("B7 H3", "B7  H3"));
}

#[test]
fn regression_suites_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/go-regress");
    let mut failed = Vec::new();
    let mut passed = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
    {
        let o = run_suite(path);
        passed += o.passed.len();
        for k in &o.known {
            eprintln!("known failure: {k}");
        }
        failed.extend(o.failed);
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(passed >= 10, "only {passed} checks ran");
}
