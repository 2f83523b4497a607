//! The `tengen analyse` command as a user runs it: a record or moves in, a description
//! out; bad input gives an error message and a non-zero exit, never a panic.

use std::process::Command;

fn tengen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn data(name: &str) -> String {
    format!("{}/engine-tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn analyse_a_renju_record_lists_forbidden_points() {
    let (code, out, err) = tengen(&[
        "analyse",
        "--variant",
        "renju",
        &data("records/renju-33.psq"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("variant renju, board 15x15, 8 moves"), "{out}");
    assert!(out.contains("to move: black"), "{out}");
    assert!(out.contains("result: play on"), "{out}");
    // h7 h8 down and f9 g9 across: h9 is a double-three for black.
    assert!(
        out.contains("forbidden for black: h9 (double-three)"),
        "{out}"
    );
    assert!(!out.contains("forbidden for white"), "{out}");
}

#[test]
fn analyse_moves_shows_a_win() {
    let (code, out, _) = tengen(&["analyse", "--moves", "h8 a1 i8 a2 j8 a3 k8 a4 l8"]);
    assert_eq!(code, 0);
    assert!(out.contains("result: black wins: five h8-l8"), "{out}");
    assert!(out.contains("last move: l8"), "{out}");
}

#[test]
fn analyse_a_diagram_file() {
    let dir = std::env::temp_dir().join(format!("tengen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pos.txt");
    let rows = ["XOO......"]
        .into_iter()
        .chain(std::iter::repeat_n(".........", 8))
        .collect::<Vec<_>>();
    std::fs::write(&file, rows.join("\n")).unwrap();
    let (code, out, err) = tengen(&[
        "analyse",
        "--variant",
        "pente",
        "--moves",
        "d1",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("captured: black 2, white 0"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in [
        vec!["analyse", "--size", "40"],
        vec!["analyse", "--size", "abc"],
        vec!["analyse", "--variant", "chess"],
        vec!["analyse", "--moves", "h8 h8"],
        vec!["analyse", "--moves", "h8 zz"],
        vec!["analyse", "--variant", "renju", "--moves", "a1"],
        vec!["analyse", "/nonexistent/file.sgf"],
        vec!["analyse", "--moves", "h8", "--time", "soon"],
        vec![
            "match",
            "--engine1",
            "x",
            "--engine2",
            "y",
            "--opening-stones",
            "50",
        ],
        vec![
            "match",
            "--engine1",
            "x",
            "--engine2",
            "y",
            "--time1",
            "500",
        ],
        vec![
            "match",
            "--engine1",
            "/nonexistent/brain",
            "--engine2",
            "y",
            "--games",
            "1",
        ],
    ] {
        let (code, out, err) = tengen(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let (_, _, err) = tengen(&["analyse", "--moves", "h8 h8"]);
    assert!(err.contains("move 2") && err.contains("occupied"), "{err}");
}

#[test]
fn analyse_searches_with_a_budget_and_shows_the_winning_line() {
    // Black's open three h8 i8 j8 with black to move: a straight four wins in three plies.
    let (code, out, err) = tengen(&[
        "analyse",
        "--moves",
        "h8 a1 i8 a2 j8 a3",
        "--depth",
        "4",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("best move: g8") || out.contains("best move: k8"),
        "{out}"
    );
    assert!(out.contains("score: +M3"), "{out}");
    assert!(out.contains("winning threat sequence: "), "{out}");
}

#[test]
fn a_gana_match_writes_a_record_that_replays_to_its_result() {
    let dir = std::env::temp_dir().join(format!("tengen-gana-match-{}", std::process::id()));
    let greedy = format!("{} gtp --game gana --greedy", env!("CARGO_BIN_EXE_tengen"));
    let (code, out, err) = tengen(&[
        "match",
        "--game",
        "gana",
        "--engine1",
        &greedy,
        "--engine2",
        &greedy,
        "--games",
        "1",
        "--time",
        "100",
        "--time1",
        "300",
        "--sgf-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("game 1 ("), "{out}");
    let record = std::fs::read_to_string(dir.join("game-000001.txt")).unwrap();
    let lines: Vec<&str> = record.lines().collect();
    use tengen::games::gana::{Board, Outcome};
    assert_eq!(Some(lines[1].to_string()), Board::start().to_text());
    assert_eq!(lines[2], "# moves");
    let mut b = Board::start();
    for m in lines[3].split_whitespace() {
        let mv = b.parse_move(m).unwrap();
        b.play(mv).unwrap();
    }
    assert_ne!(b.outcome(), Outcome::Ongoing, "the record runs to the end");
    assert!(lines[0].contains(&b.outcome().to_string()), "{}", lines[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}
