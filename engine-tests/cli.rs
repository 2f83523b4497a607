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
        vec!["analyse", "--moves", "h8", "--time", "0ms"],
        vec!["analyse", "--moves", "h8", "--nodes", "0"],
        vec!["analyse", "--moves", "h8", "--depth", "100000"],
        vec!["analyse", "--moves", "h8", "--threads", "0", "--depth", "2"],
        vec![
            "analyse",
            "--moves",
            "h8",
            "--threads",
            "100000",
            "--depth",
            "2",
        ],
        vec!["analyse", "--game", "go", "--playouts", "0"],
        vec![
            "analyse",
            "--moves",
            "h8",
            "--depth",
            "2",
            "--svg",
            "/nonexistent/dir/x.svg",
        ],
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
        "1000",
        "--time1",
        "2000",
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

/// `analyse --json`: one JSON object; exits 0.
fn analyse_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["analyse", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = tengen(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"))
}

#[test]
fn analyse_json_describes_a_renju_position() {
    let v = analyse_json(&["--variant", "renju", &data("records/renju-33.psq")]);
    assert_eq!(v["schema"], "tengen-analysis/1");
    assert_eq!(v["game"], "gomoku");
    let p = &v["position"];
    assert_eq!(p["variant"], "renju");
    assert_eq!(
        (p["width"].as_u64(), p["height"].as_u64()),
        (Some(15), Some(15))
    );
    assert_eq!(p["moves"].as_array().unwrap().len(), 8);
    assert_eq!(p["toMove"], "black");
    assert_eq!(p["result"]["status"], "ongoing");
    assert_eq!(p["foulsApplyTo"], serde_json::json!(["black"]));
    let forbidden = p["forbidden"].as_array().unwrap();
    assert!(
        forbidden
            .iter()
            .any(|f| f["point"] == "h9" && f["color"] == "black" && f["reason"] == "double-three"),
        "{forbidden:?}"
    );
    // Every stone of the record is listed once, by colour.
    let stones = &p["stones"];
    let n = stones["black"].as_array().unwrap().len() + stones["white"].as_array().unwrap().len();
    assert_eq!(n, 8);
    assert!(v.get("search").is_none(), "no budget, no search: {v}");
}

/// A score as a number to compare: wins above every value, losses below.
fn rank(score: &serde_json::Value) -> i64 {
    match score["kind"].as_str().unwrap() {
        "win" => 1_000_000 - score["plies"].as_i64().unwrap(),
        "loss" => -1_000_000 + score["plies"].as_i64().unwrap(),
        _ => score["value"].as_i64().unwrap(),
    }
}

/// The search part of a depth-5, one-thread analysis of `moves` asking for four lines.
fn four_lines(moves: &str) -> serde_json::Value {
    let v = analyse_json(&[
        "--moves",
        moves,
        "--depth",
        "5",
        "--threads",
        "1",
        "--multipv",
        "4",
    ]);
    v["search"].clone()
}

#[test]
fn analyse_json_multipv_gives_distinct_lines() {
    // A quiet opening: four different lines, each led by its own move, best first: each
    // line is its own search, and the lines are shown in score order.
    let s = &four_lines("h8 i9 h9");
    let infos = s["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), 4, "{s}");
    let moves: Vec<&str> = infos.iter().map(|m| m["move"].as_str().unwrap()).collect();
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "{moves:?}");
    for w in infos.windows(2) {
        assert!(rank(&w[0]["score"]) >= rank(&w[1]["score"]), "{infos:?}");
    }
    for (i, m) in infos.iter().enumerate() {
        assert_eq!(m["order"], i);
        assert_eq!(m["pv"][0], m["move"], "{m}");
        assert!(m["nodes"].as_u64().is_some(), "{m}");
    }
    assert_eq!(s["rootInfo"]["best"], infos[0]["move"]);
}

#[test]
fn analyse_json_multipv_against_an_open_three_lists_its_two_blocks() {
    // White to move against black's open three h8-h10: only h7 and h11 stop it (a stone
    // beyond either, h6 or h12, leaves the straight four at the other end), so four lines
    // asked for give those two, best first.
    let s = &four_lines("h8 i9 h9 i8 h10");
    let infos = s["moveInfos"].as_array().unwrap();
    let mut moves: Vec<&str> = infos.iter().map(|m| m["move"].as_str().unwrap()).collect();
    for w in infos.windows(2) {
        assert!(rank(&w[0]["score"]) >= rank(&w[1]["score"]), "{infos:?}");
    }
    assert_eq!(s["rootInfo"]["best"], infos[0]["move"]);
    moves.sort();
    assert_eq!(moves, ["h11", "h7"], "{s}");
}

#[test]
fn analyse_json_gives_a_threat_win_step_by_step() {
    // A win by threes and fours (engine-tests/data/puzzles/vct-15x15.txt, first line).
    let moves = "5,4 4,10 9,5 3,10 8,4 6,4 7,3 6,2 7,5 6,10 10,6 11,7 5,10 7,4";
    let v = analyse_json(&[
        "--size",
        "15",
        "--moves",
        moves,
        "--time",
        "2s",
        "--threads",
        "1",
    ]);
    let s = &v["search"];
    assert_eq!(s["rootInfo"]["score"]["kind"], "win", "{s}");
    let t = &s["threat"];
    let steps = t["steps"].as_array().unwrap();
    assert!(!steps.is_empty(), "{t}");
    assert_eq!(t["kind"], "threats", "{t}");
    // Replayed, the attacks and defences end in the attacker's five; no defence is
    // among its own step's alternatives, and every step but the last has one.
    let mut board =
        tengen::games::fiar::Board::with_size(tengen::games::fiar::Variant::Freestyle, 15, 15)
            .unwrap();
    for m in moves.split_whitespace() {
        let (x, y) = m.split_once(',').unwrap();
        let p = board.point(x.parse().unwrap(), y.parse().unwrap()).unwrap();
        board.play(tengen::games::fiar::Move::Place(p)).unwrap();
    }
    let attacker = board.to_move();
    let name = |text: &str| {
        board
            .points()
            .find(|p| p.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not a point"))
    };
    let mut played = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        played.push(name(step["attack"].as_str().unwrap()));
        match step["defence"].as_str() {
            Some(d) => {
                assert!(
                    !step["alternatives"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|a| a == d),
                    "{step}"
                );
                played.push(name(d));
            }
            None => assert_eq!(i, steps.len() - 1, "{t}"),
        }
    }
    for p in played {
        board.play(tengen::games::fiar::Move::Place(p)).unwrap();
    }
    // The last attack makes five, or a four the defender cannot stop.
    let last = steps.last().unwrap();
    match last["makes"].as_str().unwrap() {
        "five" => assert!(matches!(
            board.outcome(),
            tengen::games::fiar::Outcome::Win { winner, .. } if winner == attacker
        )),
        _ => assert!(board.five_points(attacker).count() >= 2, "{t}"),
    }
}

#[test]
fn analyse_json_reads_go_and_gana_trees() {
    let v = analyse_json(&[
        "--game",
        "go",
        "--size",
        "9",
        "--moves",
        "E5 C3",
        "--playouts",
        "400",
        "--threads",
        "1",
        "--multipv",
        "5",
    ]);
    assert_eq!(v["game"], "go");
    assert_eq!(v["position"]["komi"].as_f64(), Some(7.5));
    assert_eq!(v["position"]["stones"]["black"], serde_json::json!(["E5"]));
    let s = &v["search"];
    let infos = s["moveInfos"].as_array().unwrap();
    assert!(!infos.is_empty() && infos.len() <= 5, "{s}");
    let mut visits = 0;
    for m in infos {
        let w = m["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{m}");
        assert!(m["prior"].as_f64().is_some(), "{m}");
        visits += m["visits"].as_u64().unwrap();
    }
    assert!(visits <= s["nodes"].as_u64().unwrap() + 1, "{s}");
    for w in infos.windows(2) {
        assert!(
            w[0]["visits"].as_u64() >= w[1]["visits"].as_u64(),
            "{infos:?}"
        );
    }
    let g = analyse_json(&["--game", "gana", "--playouts", "300", "--threads", "1"]);
    assert_eq!(g["game"], "gana");
    assert_eq!(g["position"]["toMove"], "white");
    assert!(g["position"]["text"].as_str().is_some());
    assert!(
        !g["search"]["moveInfos"].as_array().unwrap().is_empty(),
        "{g}"
    );
}

#[test]
fn analyse_json_refuses_what_it_cannot_do() {
    for args in [
        vec!["analyse", "--json", "--multipv", "500", "--depth", "2"],
        vec!["analyse", "--json", "--game", "go", "--depth", "3"],
        vec!["analyse", "--json", "--game", "chess"],
    ] {
        let (code, out, err) = tengen(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}
