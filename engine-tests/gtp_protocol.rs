//! GTP transcripts (`protocols/gtp/*.in` / `*.out`, and Gana's GTP-style protocol in
//! `protocols/gana/`) replayed against the binary as a controller drives it, and the
//! analysis commands GUIs use: lz-analyze and
//! kata-analyze stream `info` lines until the next command arrives, lz-genmove_analyze
//! ends with its move. Expected lines: exact text, `*` for any run of characters, `a|b`
//! alternatives.

mod common;

use common::{feed, glob};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

fn engine(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tengen"));
    c.arg("gtp")
        .args(["--threads", "1", "--seed", "1"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    c
}

fn replay(name: &str) {
    replay_in("gtp", name, &["--playouts", "500"]);
}

/// Feeds `input` to an engine started with `args` and returns all it printed; the
/// engine must exit cleanly at the end of input.
fn run_all(args: &[&str], input: &[u8]) -> String {
    let out = feed(&mut engine(args), input);
    assert!(out.status.success(), "the engine failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn replay_in(protocol: &str, name: &str, args: &[&str]) {
    let dir = format!("{}/protocols/{protocol}", env!("CARGO_MANIFEST_DIR"));
    let input = std::fs::read(format!("{dir}/{name}.in")).unwrap();
    let expected = std::fs::read_to_string(format!("{dir}/{name}.out")).unwrap();
    let got = run_all(args, &input);
    let (exp, got): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    for (i, (e, g)) in exp.iter().zip(&got).enumerate() {
        assert!(
            e.split('|').any(|alt| glob(alt, g)) || glob(e, g),
            "{name}.out line {}: expected '{e}', got '{g}'\nwhole output:\n{}",
            i + 1,
            got.join("\n")
        );
    }
    assert_eq!(
        exp.len(),
        got.len(),
        "{name}: line count\n{}",
        got.join("\n")
    );
}

#[test]
fn basic_commands_ids_and_input_clean_up() {
    replay("basic");
}

#[test]
fn every_error_answers_in_gtp_form_and_the_engine_goes_on() {
    replay("errors");
}

#[test]
fn ko_and_superko_through_play() {
    replay("ko");
}

#[test]
fn handicap_placement() {
    replay("handicap");
}

#[test]
fn a_game_with_genmove_pass_undo_cleanup_and_score() {
    replay("game");
}

#[test]
fn gana_protocol_moves_positions_and_errors() {
    replay_in("gana", "basic", &["--game", "gana", "--playouts", "200"]);
}

/// The value after ` key ` in the first `info` of an analysis line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let rest = line.split(&format!(" {key} ")).nth(1).expect("the key");
    rest.split(' ').next().unwrap()
}

/// An engine whose output lines arrive on a channel, for the streaming commands.
struct Live {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Live {
    fn start() -> Live {
        Live::start_with(&[])
    }

    fn start_with(args: &[&str]) -> Live {
        let mut child = engine(args).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn id(&self) -> u32 {
        self.child.id()
    }

    fn line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("a line in time")
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn lz_analyze_streams_until_the_next_command() {
    let mut e = Live::start();
    e.send("boardsize 9");
    assert_eq!(e.line(), "=");
    assert_eq!(e.line(), "");
    e.send("lz-analyze 10");
    assert_eq!(e.line(), "=");
    let mut infos = 0;
    while infos < 3 {
        let l = e.line();
        assert!(l.starts_with("info move "), "{l}");
        // Leela Zero's fields, winrate and prior in 0..=10000.
        for key in [
            " visits ",
            " winrate ",
            " prior ",
            " lcb ",
            " order 0 ",
            " pv ",
        ] {
            assert!(l.contains(key), "{key} in {l}");
        }
        let wr: u32 = field(&l, "winrate").parse().unwrap();
        assert!(wr <= 10000);
        infos += 1;
    }
    e.send("name");
    // The analysis ends with a blank line, then the next command is answered.
    loop {
        let l = e.line();
        if l.is_empty() {
            break;
        }
        assert!(l.starts_with("info "), "{l}");
    }
    assert_eq!(e.line(), "= Tengen");
}

/// Sends `line` and returns the reply's first line (the blank line after it is read).
fn ask(e: &mut Live, line: &str) -> String {
    e.send(line);
    let reply = e.line();
    assert_eq!(e.line(), "", "after {reply}");
    reply
}

#[test]
fn pondering_is_switched_by_option_and_stops_at_the_next_command() {
    let mut e = Live::start_with(&["--size", "9", "--time", "0.3"]);
    assert_eq!(
        ask(&mut e, "tengen-ponder maybe"),
        "? ponder must be on or off"
    );
    assert_eq!(ask(&mut e, "tengen-ponder on"), "=");
    for turn in 0..6 {
        let mv = ask(&mut e, ["genmove b", "genmove w"][turn % 2]);
        assert!(mv.starts_with("= ") && mv.len() > 2, "turn {turn}: {mv}");
        // The engine thinks now, on the other side's turn; the next line must still be
        // taken at once.
        std::thread::sleep(Duration::from_millis(400));
    }
    // Pondering never hides the board from other commands.
    assert_eq!(ask(&mut e, "tengen-ponder off"), "=");
    assert!(ask(&mut e, "genmove b").starts_with("= "));
    assert_eq!(ask(&mut e, "name"), "= Tengen");
}

#[test]
fn kata_analyze_reports_ownership_for_every_point() {
    let mut e = Live::start();
    e.send("boardsize 7");
    e.line();
    e.line();
    e.send("play b d4");
    e.line();
    e.line();
    e.send("kata-analyze w interval 10 ownership true");
    assert_eq!(e.line(), "=");
    let l = e.line();
    assert!(l.starts_with("info move "), "{l}");
    let own: Vec<f32> = l
        .split(" ownership ")
        .nth(1)
        .expect("ownership")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(own.len(), 49);
    assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
    // From white's view (the side analysed): black's stone on the centre is black's.
    assert!(own[24] < 0.0, "{}", own[24]);
    let wr: f32 = field(&l, "winrate").parse().unwrap();
    assert!((0.0..=1.0).contains(&wr));
    // A raw newline also ends the analysis.
    e.send("");
    loop {
        if e.line().is_empty() {
            break;
        }
    }
    e.send("1 protocol_version");
    assert_eq!(e.line(), "=1 2");
}

#[test]
fn lz_genmove_analyze_ends_with_its_move() {
    let mut e = Live::start();
    e.send("boardsize 9");
    e.line();
    e.line();
    e.send("tengen-playouts 2000");
    e.line();
    e.line();
    e.send("lz-genmove_analyze b 10");
    assert_eq!(e.line(), "=");
    let mut last = String::new();
    loop {
        let l = e.line();
        if l.is_empty() {
            break;
        }
        last = l;
    }
    let mv = last.strip_prefix("play ").expect("ends with play <move>");
    assert!(mv.len() >= 2 && mv != "resign", "{mv}");
    e.send("showboard");
    let board: Vec<String> = (0..14).map(|_| e.line()).collect();
    assert!(
        board.iter().any(|l| l.contains('X')),
        "the move was played:\n{}",
        board.join("\n")
    );
}

#[test]
fn garbage_never_stops_the_engine() {
    let mut input = String::new();
    for l in [
        "\u{1}\u{2}play b a1",
        "boardsize 999999999999999999999",
        "komi inf",
        "komi nan",
        "play b A99999",
        "time_left b -5 0",
        "genmove",
        "lz-analyze x y z",
        "kata-analyze 10 interval",
        "set_free_handicap pass pass",
        "fixed_handicap -3",
        "loadsgf /",
        "loadsgf /dev/zero",
        "loadsgf",
        "printsgf /nonexistent/dir/x.sgf",
        "kgs-time_settings byoyomi 1 2",
        "final_status_list",
        "undo undo",
        "\u{feff}name",
        "tengen-playouts 999999999999",
        "genmove b",
    ] {
        input.push_str(l);
        input.push('\n');
    }
    input.push_str("name\n");
    let got = run_all(&["--playouts", "200"], input.as_bytes());
    assert!(got.trim_end().ends_with("= Tengen"), "{got}");
    let replies = got.split("\n\n").filter(|r| !r.trim().is_empty()).count();
    assert_eq!(replies, 22, "{got}");
    // The absurd playout count was refused, so that genmove answered at once.
    assert!(got.contains("? playouts must be"), "{got}");
}

#[test]
fn genmove_keeps_to_the_clock() {
    // Byo-yomi of one second per move from the first move, and then a nearly spent
    // main time: each answer comes well inside the time given (generous margins; speed
    // itself is measured in bench/).
    let mut e = Live::start();
    for cmd in ["boardsize 9", "time_settings 0 1 1"] {
        e.send(cmd);
        assert_eq!(e.line(), "=");
        e.line();
    }
    for _ in 0..3 {
        let t = std::time::Instant::now();
        e.send("genmove b");
        assert!(e.line().starts_with("= "));
        e.line();
        assert!(
            t.elapsed() < Duration::from_millis(2500),
            "{:?}",
            t.elapsed()
        );
        e.send("genmove w");
        e.line();
        e.line();
    }
    e.send("time_settings 10 0 0");
    e.line();
    e.line();
    e.send("time_left b 0.5 0");
    e.line();
    e.line();
    let t = std::time::Instant::now();
    e.send("genmove b");
    assert!(e.line().starts_with("= "));
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn a_tree_grown_for_the_side_not_to_move_is_not_reused_for_the_other() {
    // The fuzzer's reproduction (issue 12): reg_genmove for white while black is to
    // move grew a tree for a position the game never had; the analysis that followed
    // for black reused it and played a white-tree move on an occupied point.
    for playouts in ["500", "2000", "5000"] {
        let input = "boardsize 2\ngenmove white\ntengen-rules 19 a18\nreg_genmove w\n\
                     final_status_list\nlz-analyze 1, 1\nname\n";
        let got = run_all(&["--playouts", playouts], input.as_bytes());
        assert!(got.trim_end().ends_with("= Tengen"), "{got}");
        let replies = got.split("\n\n").filter(|r| !r.trim().is_empty()).count();
        assert_eq!(replies, 7, "{got}");
    }
}

/// Runs an engine with the test hooks on over `input`; its stdout and stderr.
fn run_with_hooks(args: &[&str], input: &str) -> (String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tengen"));
    cmd.args(["gtp", "--threads", "2", "--seed", "1"])
        .args(args)
        .env("TENGEN_TEST_HOOKS", "1");
    let out = feed(&mut cmd, input.as_bytes());
    assert!(out.status.success(), "the engine failed");
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn a_panic_costs_one_answer_and_the_game_goes_on() {
    let input = "boardsize 9\nplay b e5\n1 tengen-debug-panic\nshowboard\n\
                 2 tengen-debug-panic search\n3 genmove w\n4 genmove w\n\
                 tengen-debug-panic search\n5 lz-analyze 10\n6 name\n\
                 tengen-debug-panic search\n7 lz-genmove_analyze b 10\n8 genmove b\nname\n";
    let (out, err) = run_with_hooks(&["--playouts", "300"], input);
    let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.trim().is_empty()).collect();
    assert_eq!(replies.len(), 14, "{out}");
    assert_eq!(replies[2], "?1 internal error", "{out}");
    // The game was rebuilt: the stone is still there, and play goes on.
    assert!(replies[3].contains('X'), "{out}");
    assert_eq!(replies[4], "=2");
    assert_eq!(replies[5], "?3 internal error", "{out}");
    assert!(replies[6].starts_with("=4 "), "{out}");
    // An analysis whose search panics ends its stream; the next command is answered.
    assert!(replies[8].starts_with("=5"), "{out}");
    assert_eq!(replies[9], "=6 Tengen", "{out}");
    // lz-genmove_analyze had begun its answer: it ends without a move, then genmove
    // plays normally.
    assert!(
        replies[11].starts_with("=7") && !replies[11].contains("play"),
        "{out}"
    );
    assert!(replies[12].starts_with("=8 "), "{out}");
    assert_eq!(replies[13], "= Tengen");
    assert!(
        err.contains("panicked") && err.contains("internal error"),
        "{err}"
    );
    // Without the hooks the command does not exist.
    let got = run_all(&["--playouts", "100"], b"tengen-debug-panic\nname\n");
    assert!(got.starts_with("? unknown command"), "{got}");
}

#[test]
fn gana_a_panic_costs_one_answer_and_the_game_goes_on() {
    let input = "play w e2n\n1 tengen-debug-panic\n2 gana-getpos\n\
                 tengen-debug-panic search\n3 genmove b\n4 genmove b\n5 gana-getpos\n";
    let (out, err) = run_with_hooks(&["--game", "gana", "--playouts", "200"], input);
    let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.trim().is_empty()).collect();
    assert_eq!(replies.len(), 7, "{out}");
    assert_eq!(replies[1], "?1 internal error");
    // The move before the panic stands: black to move, one ply without a capture.
    assert!(
        replies[2].starts_with("=2 ") && replies[2].ends_with(" b 1"),
        "{out}"
    );
    assert_eq!(replies[4], "?3 internal error");
    assert!(replies[5].starts_with("=4 "), "{out}");
    assert!(
        replies[6].starts_with("=5 ") && replies[6].contains(" w "),
        "{out}"
    );
    assert!(err.contains("panicked"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn the_search_tree_stays_within_its_memory_setting() {
    // Analysis on 19x19 fills a 16 MB tree within a second or two; the process's peak
    // resident memory stays within it plus the program's own (about 10 MB). Memory is
    // measured, not time: the bound holds however fast the machine is.
    let mut e = Live::start_with(&["--memory", "16"]);
    e.send("boardsize 19");
    e.line();
    e.line();
    e.send("lz-analyze 50");
    assert_eq!(e.line(), "=");
    std::thread::sleep(Duration::from_secs(3));
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.id())).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(peak_kb < 40 * 1024, "peak {peak_kb} kB with a 16 MB tree");
    // The setting can change at any time between commands, and is checked.
    e.send("name");
    while e.line() != "= Tengen" {}
    e.line();
    e.send("tengen-memory 4");
    assert!(e.line().starts_with("? memory must be"));
}

/// Lizzie 0.7.4 reads the number after the first dot of `version` as a Leela Zero
/// version and, below 15, stops at a dialog ("Lizzie requires version 0.15 or later of
/// Leela Zero"). Tengen's versions are 0.N.P with N the number of the project's resolved
/// issues (README, "Versions"), 15 and up.
#[test]
fn name_and_version_are_what_guis_read() {
    let out = run_all(&[], b"name\nversion\n");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(out, format!("= Tengen\n\n= {version}\n\n"));
    let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap()).collect();
    assert_eq!(parts.len(), 3, "major.minor.patch");
    assert!(parts[1] >= 15, "Lizzie refuses a minor version below 15");
}

/// The priors GUIs draw as the policy are a distribution over the legal moves: shown
/// all (`minmoves`, `maxmoves`), they sum to 1 (lz-analyze in ten-thousandths, kata-analyze as
/// fractions), and capturing a stone in atari has the largest.
#[test]
fn analysis_priors_sum_to_one_over_the_moves() {
    let mut e = Live::start();
    e.send("boardsize 9");
    e.line();
    e.line();
    // White's e6 is left one liberty, e5; black to move.
    for mv in ["b d6", "w e6", "b f6", "w a1", "b e7", "w b1"] {
        e.send(&format!("play {mv}"));
        e.line();
        e.line();
    }
    for (cmd, scale) in [
        ("lz-analyze b 10 minmoves 200 maxmoves 200", 10000.0),
        ("kata-analyze b 10 minmoves 200 maxmoves 200", 1.0),
    ] {
        e.send(cmd);
        assert_eq!(e.line(), "=");
        let l = e.line();
        let moves: Vec<(&str, f32)> = l
            .split("info move ")
            .skip(1)
            .map(|m| {
                let prior: f32 = field(m, "prior").parse().unwrap();
                (m.split_whitespace().next().unwrap(), prior / scale)
            })
            .collect();
        assert!(moves.len() >= 70, "every legal move shown: {}", moves.len());
        let sum: f32 = moves.iter().map(|m| m.1).sum();
        assert!((sum - 1.0).abs() < 0.01, "{cmd}: priors sum to {sum}");
        let top = moves.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(top.0, "E5", "{cmd}: the capture leads the policy");
        e.send("");
        while !e.line().is_empty() {}
    }
}

/// A referee asks `final_score` and `final_status_list dead` one after the other: both
/// answers come from one judgement of the position, so the score counts exactly the
/// stones the list calls dead (here black's H3 in white's area is the one in doubt),
/// and asking again changes nothing.
#[test]
fn final_score_and_status_agree_on_the_dead_stones() {
    // (The engine's seed is fixed; the playout counts vary the judgements.)
    for playouts in ["2000", "3000", "4000"] {
        let out = run_all(
            &["--playouts", playouts],
            b"loadsgf engine-tests/data/go/finished.sgf\nfinal_score\nfinal_status_list dead\nfinal_score\nfinal_status_list dead\n",
        );
        let answers: Vec<&str> = out.lines().filter(|l| l.starts_with('=')).collect();
        assert_eq!(answers.len(), 5, "{out}");
        assert_eq!(answers[1..3], answers[3..5], "asked again: {out}");
        let expected = match answers[2] {
            "= B7 H3" => "= W+16",
            "= B7" => "= B+21",
            other => panic!("{playouts} playouts: dead stones {other}"),
        };
        assert_eq!(answers[1], expected, "{playouts} playouts: {out}");
    }
}
