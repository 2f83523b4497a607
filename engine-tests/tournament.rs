//! `tengen tournament` end to end, with the hidden fake engines: every kind of engine
//! failure loses with its reason while the tournament goes on; a killed run resumes
//! without losing or repeating a game; shards merge into what one run gives; an SPRT
//! stops the run; every record reads back and replays to its result.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

fn tengen(args: &[String]) -> (i32, String, String) {
    let out = Command::new(TENGEN).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tengen-tournament-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// `--engine name=NAME cmd="tengen fake-engine …"`.
fn fake(name: &str, protocol: &str, fault: &str, at: usize) -> Vec<String> {
    s(&[
        "--engine",
        &format!("name={name}"),
        &format!("cmd={TENGEN} fake-engine --protocol {protocol} --fault {fault} --at {at}"),
    ])
}

fn games(results: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(results)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_engine_failure_loses_with_its_reason_and_the_tournament_goes_on() {
    let dir = temp("faults");
    let results = dir.join("r.jsonl");
    for (protocol, game) in [("gomocup", "gomoku"), ("gtp", "go")] {
        let _ = std::fs::remove_file(&results);
        let mut args = s(&["tournament", "--gauntlet", "--game", game, "--games", "2"]);
        args.extend(s(&[
            "--tolerance",
            "0.3",
            "--results",
            results.to_str().unwrap(),
        ]));
        // GTP counts whole seconds: Go's moves get one (its fake engines answer at
        // once or never), Gomocup's 0.3 s.
        let limit = if game == "go" {
            args.extend(s(&["--size", "5", "--tc", "0+1x1"]));
            "1300 ms"
        } else {
            args.extend(s(&["--tc", "0/0.3"]));
            "600 ms"
        };
        // At its first move in Go (a fake Go engine only passes), its second in Gomocup.
        let at = if game == "go" { 1 } else { 2 };
        args.extend(fake("good", protocol, "none", 1));
        let cases = [
            ("crash", "crash", "crashed"),
            ("hang", "hang", "sent no move within"),
            ("slow", "slow=2000", "sent no move within"),
            ("garbage", "garbage", "hello there"),
            ("error", "error", "cheese"),
            (
                "illegal",
                "illegal",
                if game == "go" { "Z99" } else { "illegal move" },
            ),
        ];
        for (name, fault, _) in cases {
            args.extend(fake(name, protocol, fault, at));
        }
        let started = Instant::now();
        let (code, out, err) = tengen(&args);
        assert_eq!(code, 0, "{game}: {out}{err}");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{game}: no game waits for ever"
        );
        let played = games(&results);
        assert_eq!(played.len(), 12, "{game}: every game played: {out}");
        for (name, _, reason) in cases {
            for g in played
                .iter()
                .filter(|g| g["second"] == name || g["first"] == name)
            {
                let good_first = g["first"] == "good";
                let good_points = if good_first { 1.0 } else { 0.0 };
                assert_eq!(g["first_points"], good_points, "{game} {name}: {g}");
                let why = g["reason"].as_str().unwrap();
                assert!(
                    why.contains(reason) && why.contains(name),
                    "{game} {name}: {why}"
                );
                if reason == "sent no move within" {
                    assert!(why.contains(limit), "{game} {name}: {why}");
                }
                let result = g["result"].as_str().unwrap();
                let kind = if name == "hang" || name == "slow" {
                    "+T"
                } else {
                    "+F"
                };
                assert!(result.ends_with(kind), "{game} {name}: {result}");
            }
        }
        assert!(out.contains("good") && out.contains("100.0%"), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arguments of a small deterministic tournament between fake Gomocup engines
/// that all play the same way: the games depend on the schedule alone.
fn small_run(results: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = s(&["tournament", "--games", "4", "--repeat", "--rounds", "2"]);
    args.extend(s(&["--size", "9", "--tc", "0/2", "--opening-stones", "2"]));
    args.extend(s(&["--results", results.to_str().unwrap()]));
    args.extend(fake("a", "gomocup", "none", 1));
    args.extend(fake("b", "gomocup", "crash", 3));
    args.extend(fake("c", "gomocup", "illegal", 4));
    args.extend(s(extra));
    args
}

#[test]
fn shards_merge_into_exactly_what_one_run_gives() {
    let dir = temp("shards");
    let whole = dir.join("whole.jsonl");
    let (code, _, err) = tengen(&small_run(&whole, &[]));
    assert_eq!(code, 0, "{err}");
    let mut files = Vec::new();
    for k in 0..3 {
        let f = dir.join(format!("shard{k}.jsonl"));
        let (code, _, err) = tengen(&small_run(&f, &["--shard", &format!("{k}/3")]));
        assert_eq!(code, 0, "{err}");
        files.push(f.to_str().unwrap().to_string());
    }
    let report = |files: &[String]| {
        let mut a = s(&["tournament", "report"]);
        a.extend(files.iter().cloned());
        let (code, out, err) = tengen(&a);
        assert_eq!(code, 0, "{err}");
        // All but the line that counts the files.
        out.lines()
            .filter(|l| !l.contains("file(s)"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let merged = report(&files);
    assert_eq!(merged, report(&[whole.to_str().unwrap().to_string()]));
    assert!(merged.contains("a vs b: 8 games"), "{merged}");
    // The games themselves, not just the table, are the same.
    let mut sharded: Vec<serde_json::Value> =
        files.iter().flat_map(|f| games(Path::new(f))).collect();
    sharded.sort_by_key(|g| g["game"].as_u64());
    let strip = |mut g: serde_json::Value| {
        g.as_object_mut().unwrap().remove("time_ms");
        g.as_object_mut().unwrap().remove("worst_ratio");
        g
    };
    let a: Vec<_> = sharded.into_iter().map(strip).collect();
    let b: Vec<_> = games(&whole).into_iter().map(strip).collect();
    assert_eq!(a, b);
    // A shard file is refused for another shard, and other settings are refused.
    let (code, _, err) = tengen(&small_run(Path::new(&files[0]), &["--shard", "1/3"]));
    assert_eq!(code, 2);
    assert!(err.contains("shard 0/3"), "{err}");
    let (code, _, err) = tengen(&small_run(&whole, &["--max-plies", "30"]));
    assert_eq!(code, 2);
    assert!(err.contains("max_plies: 0 → 30"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_resumes_without_losing_or_repeating_a_game() {
    let dir = temp("resume");
    let results = dir.join("r.jsonl");
    // Slow engines, so that the kill lands in the middle of the run.
    let mut args = s(&["tournament", "--games", "10", "--repeat", "--tc", "0/2"]);
    args.extend(s(&["--size", "9", "--results", results.to_str().unwrap()]));
    args.extend(fake("a", "gomocup", "slow=150", 2));
    args.extend(fake("b", "gomocup", "slow=150", 3));
    let mut child = Command::new(TENGEN)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    while Instant::now() < end {
        let n = std::fs::read_to_string(&results).map_or(0, |t| t.lines().count());
        if n >= 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = games(&results);
    assert!(
        before.len() >= 3 && before.len() < 10,
        "{} games",
        before.len()
    );
    let (code, out, err) = tengen(&args);
    assert_eq!(code, 0, "{err}");
    let after = games(&results);
    assert_eq!(after.len(), 10);
    assert_eq!(
        &after[..before.len()],
        &before[..],
        "finished games are kept as they were"
    );
    let mut numbers: Vec<u64> = after.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, (0..10).collect::<Vec<_>>());
    assert!(
        out.contains(&format!("{} games played now", 10 - before.len())),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fatal_error_stops_the_run_at_the_first_crash() {
    let dir = temp("fatal");
    let results = dir.join("r.jsonl");
    let mut args = s(&["tournament", "--games", "20", "--repeat", "--fatal-error"]);
    args.extend(s(&["--size", "9", "--results", results.to_str().unwrap()]));
    args.extend(fake("good", "gomocup", "none", 1));
    args.extend(fake("bad", "gomocup", "crash", 2));
    let (code, _, err) = tengen(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("crashed") && err.contains("--fatal-error"),
        "{err}"
    );
    assert_eq!(games(&results).len(), 1, "the crash ended the run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_stops_the_run_once_decided() {
    let dir = temp("sprt");
    let results = dir.join("r.jsonl");
    let mut args = s(&["tournament", "--games", "400", "--repeat", "--tc", "0/2"]);
    args.extend(s(&["--size", "9", "--results", results.to_str().unwrap()]));
    args.extend(s(&["--sprt", "elo0=0", "elo1=100", "model=logistic"]));
    args.extend(fake("good", "gomocup", "none", 1));
    args.extend(fake("bad", "gomocup", "garbage", 2));
    let (code, out, err) = tengen(&args);
    assert_eq!(code, 0, "{err}");
    let n = games(&results).len();
    // Games in flight when the test is decided are finished and kept.
    assert!(n < 60, "{n} games: {out}");
    assert!(out.contains("H1 accepted"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_opening_is_refused_before_any_game_naming_its_line() {
    let dir = temp("book");
    let book = dir.join("book.txt");
    std::fs::write(&book, "0,0, 1,1, 2,2\n# a comment\n0,0, 0,0\n").unwrap();
    let mut args = s(&["tournament", "--games", "2", "--openings"]);
    args.push(format!("file={}", book.display()));
    args.extend(fake("a", "gomocup", "none", 1));
    args.extend(fake("b", "gomocup", "none", 1));
    let (code, out, err) = tengen(&args);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("book.txt:3:") && err.contains("occupied"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    let mut args = s(&["tournament", "--engine", "cmd=/nonexistent/brain"]);
    args.extend(fake("b", "gomocup", "none", 1));
    let (code, _, err) = tengen(&args);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/brain"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_record_reads_back_and_replays_to_its_result() {
    use tengen::games::fiar::{Outcome, Variant, record::Record};
    let dir = temp("records");
    // Five-in-a-row, renju: the fake engines fill the board from the centre until
    // someone makes five or fouls.
    let results = dir.join("fiar.jsonl");
    let recs = dir.join("fiar");
    let mut args = s(&[
        "tournament",
        "--variant",
        "renju",
        "--games",
        "6",
        "--repeat",
    ]);
    args.extend(s(&["--results", results.to_str().unwrap()]));
    args.extend(s(&["--records", recs.to_str().unwrap(), "--tc", "0/2"]));
    args.extend(fake("a", "gomocup", "none", 1));
    args.extend(fake("b", "gomocup", "none", 1));
    let (code, _, err) = tengen(&args);
    assert_eq!(code, 0, "{err}");
    let played = games(&results);
    assert!(
        played
            .iter()
            .any(|g| g["reason"].as_str().unwrap().contains("black played")),
        "the fakes' games include a renju foul, which loses: {played:?}"
    );
    for g in played {
        let n = g["game"].as_u64().unwrap() + 1;
        let text = std::fs::read_to_string(recs.join(format!("game-{n:06}.sgf"))).unwrap();
        let rec = Record::read_sgf(&text).unwrap();
        assert_eq!(rec.variant, Some(Variant::Renju));
        // The opening is played as a book's (anywhere), the rest under the rules; a
        // foul is played and loses, as the referee had it.
        let mut board = tengen::games::fiar::Board::with_size(Variant::Renju, 15, 15).unwrap();
        let opening = g["opening_plies"].as_u64().unwrap() as usize;
        for (i, &m) in rec.moves.iter().enumerate() {
            if i < opening {
                board.play_any_opening(m).unwrap();
            } else {
                board.referee(m).unwrap();
            }
        }
        let result = g["result"].as_str().unwrap();
        match board.outcome() {
            Outcome::Win { winner, .. } => {
                assert_eq!(&result[..1], if winner.index() == 0 { "B" } else { "W" })
            }
            Outcome::Draw(_) => assert_eq!(result, "0"),
            Outcome::Ongoing => panic!("game {n} replays unfinished: {g}"),
        }
        assert!(text.contains(&format!("RE[{result}]")));
        assert_eq!(rec.moves.len() as u64, g["plies"].as_u64().unwrap());
    }
    // Go: real Tengen engines on 5x5 at a few playouts; two passes, Tengen's count.
    let results = dir.join("go.jsonl");
    let recs = dir.join("go");
    let engine = format!("cmd={TENGEN} gtp --threads 1 --playouts 64 --seed 1");
    let mut args = s(&["tournament", "--game", "go", "--size", "5", "--komi", "2.5"]);
    args.extend(s(&["--games", "2", "--repeat", "--tc", "0+2x1"]));
    args.extend(s(&["--results", results.to_str().unwrap()]));
    args.extend(s(&["--records", recs.to_str().unwrap()]));
    args.extend(s(&[
        "--engine", "name=x", &engine, "--engine", "name=y", &engine,
    ]));
    let (code, out, err) = tengen(&args);
    assert_eq!(code, 0, "{err}");
    for g in games(&results) {
        let n = g["game"].as_u64().unwrap() + 1;
        let text = std::fs::read_to_string(recs.join(format!("game-{n:06}.sgf"))).unwrap();
        let game = tengen::games::go::record::load(&text, None, Default::default()).unwrap();
        assert_eq!(
            game.moves().len() as u64,
            g["plies"].as_u64().unwrap(),
            "{out}"
        );
        let result = g["result"].as_str().unwrap();
        assert!(text.contains(&format!("RE[{result}]")), "{text}");
        if game.is_over() {
            // Scored by Tengen's own count, which the record's position gives again.
            let mut e = tengen::engine::GoEngine::new(5, Default::default()).unwrap();
            e.set_game(game.clone());
            assert_eq!(e.final_score(), result);
        } else {
            assert!(result.ends_with("+R"), "{result}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The opening books in bench/ that the match commands of the README use: each reads,
/// and every opening is legal on its board.
#[test]
fn bench_books_read_and_are_legal() {
    use tengen::games::fiar::Variant;
    use tengen::tournament::GameKind;
    use tengen::tournament::openings::read_fiar_book;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench");
    for (file, variant, size, at_least) in [
        ("openings-15.txt", Variant::Freestyle, 15, 50),
        ("openings-15-balanced.txt", Variant::Freestyle, 15, 150),
        ("openings-15-renju-balanced.txt", Variant::Renju, 15, 80),
        ("openings-20.txt", Variant::Freestyle, 20, 50),
        ("openings-20-balanced.txt", Variant::Freestyle, 20, 100),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let kind = GameKind::Fiar {
            variant,
            width: size,
            height: size,
        };
        let book = read_fiar_book(&text, file, &kind, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(book.len() >= at_least, "{file}: {} openings", book.len());
    }
}
