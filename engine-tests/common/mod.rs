//! Helpers and positions shared by the integration tests and the benches.
#![allow(dead_code)]

/// The diagram of the public forbidden-point suite's block whose first line contains
/// `title` (rows of `.`, `X`, `O`).
pub fn suite_position(title: &str) -> String {
    let text = include_str!("../data/forbidden-public.txt");
    let block = text
        .split("\n\n")
        .find(|b| b.lines().next().unwrap().contains(title))
        .unwrap();
    block
        .lines()
        .filter(|l| l.starts_with(['.', 'X', 'O']))
        .collect::<Vec<_>>()
        .join("\n")
}

/// h7 h8 down and f9 g9 across: h9 makes two open threes for black (a renju foul, a
/// freestyle win by threats). White stones in the corners keep black to move.
pub const DOUBLE_THREE: [&str; 15] = [
    "O.............O",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".......X.......",
    ".......X.......",
    ".....XX........",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "O.............O",
];

/// Whether `text` matches `pattern`, where `*` stands for any run of characters.
pub fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            text.starts_with(head)
                && (0..=text.len() - head.len()).any(|i| {
                    text.is_char_boundary(head.len() + i) && glob(tail, &text[head.len() + i..])
                })
        }
    }
}

/// Runs `cmd` with its standard streams piped and `input` on its stdin (closed once
/// written; written from a thread, so that a long answer cannot block the writer), until
/// it exits: what it wrote and how it ended.
pub fn feed(cmd: &mut std::process::Command, input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
