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
