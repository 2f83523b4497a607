//! `tengen review` as a user runs it: a record in, an annotated record and a summary
//! out — the moves judged, five-in-a-row's missed and allowed forced wins found exactly,
//! the record readable again — for the three games, and bad input refused.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// A scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tengen-review-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tengen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .output()
        .expect("run tengen");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Reviews `record` (written to a file named `name`) with `args`, JSON out; returns the
/// review and the annotated record.
fn review(name: &str, record: &str, args: &[&str]) -> (Value, String) {
    let dir = scratch(name);
    let file = dir.join(name);
    std::fs::write(&file, record).unwrap();
    let out = dir.join("annotated");
    let mut all = vec![
        "review",
        file.to_str().unwrap(),
        "--json",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = tengen(&all);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "no progress off a terminal: {stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("one JSON object");
    let annotated = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (v, annotated)
}

/// Black makes an open three (h8 i8 j8); White looks away (a5) and so allows a win by
/// fours; Black looks away too (o15) and misses it; White then blocks.
const MISSED: &str = "h8 a1 i8 a3 j8 a5 o15 g8";

#[test]
fn a_missed_and_an_allowed_win_by_fours_are_found_and_marked() {
    let (r, sgf) = review("missed.txt", MISSED, &["--nodes", "20000"]);
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    let a5 = &moves[5];
    assert_eq!(a5["move"], "a5");
    assert_eq!(a5["allowedWin"]["by"], "fours", "{a5}");
    assert_eq!(a5["allowedWin"]["plies"], 3, "{a5}");
    assert_eq!(a5["judgement"], "blunder");
    let o15 = &moves[6];
    assert_eq!(o15["move"], "o15");
    assert_eq!(o15["missedWin"]["by"], "fours", "{o15}");
    let line = o15["missedWin"]["line"].as_array().unwrap();
    assert!(
        line[0] == "g8" || line[0] == "k8",
        "the win starts with an open four: {o15}"
    );
    assert_eq!(o15["judgement"], "blunder");
    assert!(
        o15["allowedWin"].is_null(),
        "o15 allowed nothing new: {o15}"
    );
    assert_eq!(r["players"]["black"]["missedWins"], 1);
    assert_eq!(r["players"]["white"]["allowedWins"], 1);
    // A move that wins nothing and loses nothing is not flagged.
    assert!(moves[0]["missedWin"].is_null() && moves[0]["allowedWin"].is_null());

    // The annotated record: every move with a comment and Sabaki's win rate, the
    // blunders marked, the better line as a variation, and it reads back.
    assert!(sgf.starts_with("(;GM[4]"), "{sgf}");
    assert_eq!(
        sgf.matches("SBKV[").count(),
        9,
        "the root and 8 moves: {sgf}"
    );
    assert!(sgf.contains("C[7. black o15: "), "{sgf}");
    assert!(
        sgf.contains("Missed a forced win by fours (VCF) in 3 plies"),
        "{sgf}"
    );
    assert!(sgf.contains("Allowed black a forced win"), "{sgf}");
    let node = |number: &str| {
        let at = sgf.find(&format!("C[{number}")).unwrap();
        let end = sgf[at..].find("\n;").map_or(sgf.len(), |e| at + e);
        sgf[at..end].to_string()
    };
    assert!(node("6. white a5").contains("BM[2]"), "{sgf}");
    assert!(node("7. black o15").contains("BM[2]"), "{sgf}");
    assert!(sgf.contains("Tengen's line: "), "a variation: {sgf}");
    let back = tengen::games::fiar::record::Record::read(&sgf, 15, 15).expect("reads back");
    let names: Vec<String> = back.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(names.join(" "), MISSED, "the main line is the game");
}

#[test]
fn the_win_rates_follow_the_game_to_its_end() {
    // Black wins with a five at the ninth move.
    let (r, _) = review(
        "won.txt",
        "h8 a1 i8 a2 j8 a3 k8 a4 l8",
        &["--nodes", "5000"],
    );
    let w = r["blackWinrates"].as_array().unwrap();
    assert_eq!(w.len(), 10, "the start and every move");
    assert_eq!(w[9], 1.0, "black has won");
    assert_eq!(w[7].as_f64().unwrap(), 1.0, "an open four wins for black");
    let last = &r["moves"][8];
    assert!(
        last["ends"].as_str().unwrap().contains("black wins"),
        "{last}"
    );
    let sums = |c: &str| {
        let p = &r["players"][c];
        ["best", "inaccuracies", "mistakes", "blunders"]
            .iter()
            .map(|k| p[k].as_u64().unwrap())
            .sum::<u64>()
    };
    assert!(sums("black") <= 5 && sums("white") <= 4);
    assert_eq!(r["players"]["black"]["moves"], 5);
}

#[test]
fn a_go_game_is_reviewed_into_sgf_that_reads_back() {
    let record = "(;GM[1]FF[4]SZ[9]KM[7]RU[chinese];B[ee];W[cc];B[gc];W[cg];B[gg])";
    let (r, sgf) = review("go.sgf", record, &["--playouts", "300"]);
    assert_eq!(r["game"], "go");
    assert_eq!(r["moves"].as_array().unwrap().len(), 5);
    for m in r["moves"].as_array().unwrap() {
        let (b, a) = (m["before"].as_f64().unwrap(), m["after"].as_f64().unwrap());
        assert!((0.0..=1.0).contains(&b) && (0.0..=1.0).contains(&a), "{m}");
        assert!(m["best"].is_string(), "{m}");
    }
    assert!(sgf.starts_with("(;FF[4]GM[1]"), "{sgf}");
    assert!(sgf.contains("KM[7]"), "{sgf}");
    assert_eq!(sgf.matches("SBKV[").count(), 6, "{sgf}");
    assert!(sgf.contains("C[3. black G7: "), "{sgf}");
    let g = tengen::games::go::record::load(&sgf, None, Default::default()).expect("reads back");
    assert_eq!(g.moves().len(), 5);
}

#[test]
fn a_gana_game_is_reviewed_into_its_own_record_with_comments() {
    use tengen::games::gana::Board;
    let mut b = Board::start();
    let mut moves = Vec::new();
    for _ in 0..4 {
        let mut legal = Vec::new();
        b.legal_moves(&mut legal);
        let m = legal[0];
        moves.push(b.move_text(m));
        b.play(m).unwrap();
    }
    let record = format!(
        "# a test game\n{}\n# moves\n{}\n",
        Board::start().to_text().unwrap(),
        moves.join(" ")
    );
    let (r, text) = review("gana.txt", &record, &["--playouts", "200"]);
    assert_eq!(r["game"], "gana");
    assert_eq!(r["moves"][0]["color"], "white", "white moves first in Gana");
    assert_eq!(r["moves"].as_array().unwrap().len(), 4);
    assert!(text.starts_with("# Reviewed by Tengen"), "{text}");
    assert!(
        text.contains(&format!("# 1. white {}: ", moves[0])),
        "{text}"
    );
    // Read back, the annotated record is the same game.
    let (code, out, err) = {
        let dir = scratch("gana-back");
        let f = dir.join("back.txt");
        std::fs::write(&f, &text).unwrap();
        let r = tengen(&["analyse", "--game", "gana", "--json", f.to_str().unwrap()]);
        std::fs::remove_dir_all(&dir).unwrap();
        r
    };
    assert_eq!(code, 0, "{err}");
    let a: Value = serde_json::from_str(&out).unwrap();
    let back: Vec<&str> = a["position"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(back, moves);
}

#[test]
fn bad_records_and_budgets_are_errors_not_panics() {
    let dir = scratch("bad");
    let write = |name: &str, text: &str| {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        f.to_str().unwrap().to_string()
    };
    let illegal = write("illegal.txt", "h8 h8");
    let corrupt = write("corrupt.sgf", "(;GM[4]SZ[15];B[hh");
    let good = write("good.txt", "h8 i9");
    let go = write("go.sgf", "(;GM[1]SZ[9];B[ee])");
    let missing = dir.join("none.sgf").to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["review", &illegal], "move 2 (h8)"),
        (vec!["review", &corrupt], "corrupt.sgf"),
        (vec!["review", &missing], "none.sgf"),
        (vec!["review", &good, "--time", "0ms"], "--time 0"),
        (vec!["review", &good, "--nodes", "0"], "--nodes 0"),
        (vec!["review", &good, "--depth", "1000"], "at most 100"),
        (vec!["review", &good, "--threads", "0"], "--threads 0"),
        (
            vec!["review", &good, "--game", "chess"],
            "gomoku, go or gana",
        ),
        (vec!["review", &good, "--multipv", "0"], "--multipv"),
        (vec!["review", &good, "--json", "--out", "-"], "stdout"),
        (vec!["review", &good, "--playouts", "100"], "--playouts"),
        (vec!["review", &go, "--nodes", "100"], "--nodes"),
    ];
    for (args, says) in cases {
        let (code, out, err) = tengen(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn several_records_are_reviewed_in_one_run_each_annotated_beside_itself() {
    let dir = scratch("batch");
    let a = dir.join("a.txt");
    let b = dir.join("b.sgf");
    std::fs::write(&a, "h8 i9 h9").unwrap();
    std::fs::write(&b, "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (code, out, err) = tengen(&["review", a, b, "--json", "--threads", "1", "--time", "50ms"]);
    assert_eq!(code, 0, "{err}");
    let reviews: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(reviews.len(), 2, "{out}");
    assert_eq!(reviews[0]["game"], "gomoku");
    assert_eq!(reviews[1]["game"], "go");
    assert!(dir.join("a-review.sgf").exists() && dir.join("b-review.sgf").exists());
    // One output file cannot hold two records; a bad record stops the run before any
    // search, naming the file.
    let (code, _, err) = tengen(&["review", a, b, "--out", "x.sgf"]);
    assert_eq!(code, 2);
    assert!(err.contains("--out"), "{err}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "h8 h8").unwrap();
    let (code, out, err) = tengen(&["review", a, bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.txt") && out.is_empty(), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
