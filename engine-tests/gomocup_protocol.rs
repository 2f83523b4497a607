//! Gomocup protocol transcripts (`protocols/gomocup/*.in` / `*.out`) replayed against the
//! binary the way a manager drives a brain: one line at a time, waiting for the reply
//! where a reply is due. Also: END while thinking, and time discipline over whole games.
//!
//! Expected lines: exact text, `*` matching anything, `a|b` alternatives, and `<move>`
//! for any `x,y`. `MESSAGE` lines are ignored.

mod common;

use common::glob;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    fn start() -> Brain {
        Brain::start_with(&[])
    }

    fn start_with(env: &[(&str, &str)]) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["gomocup", "--threads", "1", "--hash", "16"])
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if !l.starts_with("MESSAGE") && tx.send(l).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn reply(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    fn exited_within(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_move(t: &str) -> bool {
    let mut it = t.split(',');
    matches!((it.next(), it.next(), it.next()), (Some(a), Some(b), None) if a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
}

fn matches(expected: &str, got: &str) -> bool {
    expected.split('|').any(|alt| {
        let words: Vec<&str> = alt.split(' ').collect();
        let got_words: Vec<&str> = got.split(' ').collect();
        if words.iter().all(|w| *w == "<move>") {
            return words.len() == got_words.len() && got_words.iter().all(|w| is_move(w));
        }
        glob(alt, got)
    })
}

/// Replays one transcript; returns the lines it got.
fn replay(name: &str) {
    let dir = format!("{}/protocols/gomocup", env!("CARGO_MANIFEST_DIR"));
    let input = std::fs::read_to_string(format!("{dir}/{name}.in")).unwrap();
    let expected: Vec<String> = std::fs::read_to_string(format!("{dir}/{name}.out"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut brain = Brain::start();
    let mut got = Vec::new();
    let mut block: Option<String> = None;
    for raw in input.split_inclusive('\n') {
        let line = raw.trim_end_matches('\n');
        brain.stdin.write_all(raw.as_bytes()).unwrap();
        if !raw.ends_with('\n') {
            brain.stdin.write_all(b"\n").unwrap();
        }
        brain.stdin.flush().unwrap();
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply_due = match (&block, word.as_str()) {
            (Some(b), "DONE") => {
                let due = b != "YXBOARD";
                block = None;
                due
            }
            (Some(_), _) => false,
            (None, "BOARD" | "YXBOARD" | "SWAP2BOARD") => {
                block = Some(word.clone());
                false
            }
            (None, "INFO" | "END" | "STOP" | "YXSTOP" | "YXHASHCLEAR") => false,
            (None, _) => true,
        };
        if word == "END" {
            assert!(
                brain.exited_within(Duration::from_secs(2)),
                "{name}: END did not exit"
            );
            break;
        }
        if reply_due {
            match brain.reply(Duration::from_secs(10)) {
                Some(l) => got.push(l),
                None => panic!("{name}: no reply to '{line}'; so far {got:?}"),
            }
        }
        // Anything unasked for (an error for a line that needs no reply) shows up here.
        while let Some(l) = brain.reply(Duration::from_millis(if reply_due { 20 } else { 60 })) {
            got.push(l);
        }
    }
    assert_eq!(
        got.len(),
        expected.len(),
        "{name}: got {got:#?}\nexpected {expected:#?}"
    );
    for (g, e) in got.iter().zip(&expected) {
        assert!(
            matches(e, g),
            "{name}: expected '{e}', got '{g}' in {got:#?}"
        );
    }
}

#[test]
fn a_whole_game_with_takeback_and_restart() {
    replay("game");
}

#[test]
fn board_with_an_opening() {
    replay("board");
}

#[test]
fn rectstart_and_crlf_input() {
    replay("rect-crlf");
}

#[test]
fn swap2_in_all_three_stages() {
    replay("swap2");
}

#[test]
fn malformed_and_illegal_input() {
    replay("bad-input");
}

#[test]
fn renju_forbidden_points_and_a_foul_from_the_manager() {
    replay("renju");
}

#[test]
fn end_while_thinking_exits_within_a_second() {
    let mut brain = Brain::start();
    brain.send("INFO timeout_turn 60000");
    brain.send("INFO timeout_match 600000");
    brain.send("INFO time_left 600000");
    brain.send("START 20");
    assert_eq!(brain.reply(Duration::from_secs(10)).as_deref(), Some("OK"));
    brain.send("TURN 10,10");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    brain.send("END");
    assert!(
        brain.exited_within(Duration::from_secs(1)),
        "still running after END"
    );
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn stop_answers_at_once_with_a_move() {
    let mut brain = Brain::start();
    brain.send("INFO timeout_turn 60000");
    brain.send("START 15");
    assert_eq!(brain.reply(Duration::from_secs(10)).as_deref(), Some("OK"));
    brain.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    brain.send("YXSTOP");
    let m = brain
        .reply(Duration::from_secs(2))
        .expect("a move after YXSTOP");
    assert!(is_move(&m), "{m}");
    assert!(t.elapsed() < Duration::from_secs(1));
}

/// A whole game against a simple opponent (it completes its own fours, blocks the
/// brain's, else plays next to the last stone) with timeout_turn 200 ms: every move in
/// time, with a generous margin for a loaded CI machine, and every move legal.
#[test]
fn time_discipline_over_whole_games() {
    for (rule, size) in [(0, 15), (4, 15)] {
        let mut brain = Brain::start();
        brain.send("INFO timeout_turn 200");
        brain.send("INFO timeout_match 1000000");
        brain.send(&format!("INFO rule {rule}"));
        brain.send(&format!("START {size}"));
        assert_eq!(brain.reply(Duration::from_secs(10)).as_deref(), Some("OK"));
        let mut board = vec![vec![0u8; size]; size];
        let mut slowest = Duration::ZERO;
        let mut moves = 0;
        brain.send("BEGIN");
        let mut t = Instant::now();
        loop {
            let reply = brain.reply(Duration::from_secs(5)).expect("a move in time");
            slowest = slowest.max(t.elapsed());
            let (x, y) = reply
                .split_once(',')
                .map(|(a, b)| (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()))
                .unwrap();
            assert_eq!(board[y][x], 0, "brain played on an occupied point {reply}");
            board[y][x] = 1;
            moves += 1;
            if five(&board, x, y, 1) || moves >= size * size / 2 - 1 {
                break;
            }
            let (ox, oy) = opponent_move(&board, x, y);
            board[oy][ox] = 2;
            if five(&board, ox, oy, 2) {
                break;
            }
            brain.send("INFO time_left 1000000");
            brain.send(&format!("TURN {ox},{oy}"));
            t = Instant::now();
        }
        assert!(
            slowest < Duration::from_millis(900),
            "rule {rule}: slowest move took {slowest:?}"
        );
        assert!(moves >= 4);
    }
}

fn five(b: &[Vec<u8>], x: usize, y: usize, c: u8) -> bool {
    let n = b.len() as i64;
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut run = 1;
        for s in [1i64, -1] {
            let (mut cx, mut cy) = (x as i64 + s * dx, y as i64 + s * dy);
            while (0..n).contains(&cx) && (0..n).contains(&cy) && b[cy as usize][cx as usize] == c {
                run += 1;
                cx += s * dx;
                cy += s * dy;
            }
        }
        run >= 5
    })
}

fn opponent_move(b: &[Vec<u8>], lx: usize, ly: usize) -> (usize, usize) {
    let n = b.len();
    let empties: Vec<(usize, usize)> = (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .filter(|&(x, y)| b[y][x] == 0)
        .collect();
    let mut trial = b.to_vec();
    for c in [2u8, 1] {
        for &(x, y) in &empties {
            trial[y][x] = c;
            let wins = five(&trial, x, y, c);
            trial[y][x] = 0;
            if wins {
                return (x, y);
            }
        }
    }
    *empties
        .iter()
        .min_by_key(|&&(x, y)| {
            (x as i64 - lx as i64)
                .abs()
                .max((y as i64 - ly as i64).abs())
                * 1000
                + (x * 7 + y * 13) as i64 % 97
        })
        .unwrap()
}

#[test]
fn echoed_input_never_carries_control_characters_and_stays_short() {
    // Found by the fuzzer: an unknown command with a carriage return or an escape
    // sequence in it was echoed as it came, which splits or garbles the manager's line.
    let mut b = Brain::start();
    b.send("TUR\u{1}N\r 7,7\u{1b}[2J");
    let reply = b.reply(Duration::from_secs(5)).expect("a reply");
    assert!(reply.starts_with("UNKNOWN "), "{reply}");
    assert!(!reply.chars().any(char::is_control), "{reply:?}");
    b.send(&format!("START {}", "9".repeat(5000)));
    let reply = b.reply(Duration::from_secs(5)).expect("a reply");
    assert!(reply.starts_with("ERROR ") && reply.len() < 200, "{reply}");
}

#[test]
fn an_absurd_hash_size_is_capped_and_the_brain_still_plays() {
    // Found by the fuzzer: hash_size near u64::MAX overflowed the table's size (a
    // panic), and a merely huge one aborted on allocation.
    for kb in ["99999999999", "18446744073709551615", "9223372036854775807"] {
        let mut b = Brain::start();
        b.send(&format!("INFO hash_size {kb}"));
        b.send("INFO timeout_turn 300");
        b.send("START 15");
        assert_eq!(b.reply(Duration::from_secs(10)).as_deref(), Some("OK"));
        b.send("BEGIN");
        let mv = b.reply(Duration::from_secs(10)).expect("a move");
        assert!(is_move(&mv), "{mv}");
    }
}

#[test]
fn clearing_a_huge_table_is_immediate() {
    // Found by the fuzzer (seed 2027): after a huge hash_size, each YXHASHCLEAR wrote
    // gigabytes of zeros — seven seconds a time, the whole table made resident — so a
    // few in a row left ABOUT unanswered past any manager's patience. A cleared big
    // table now gets fresh untouched pages.
    let mut b = Brain::start();
    b.send("INFO hash_size 9223372036854775807");
    b.send("INFO timeout_turn 300");
    b.send("START 15");
    assert_eq!(b.reply(Duration::from_secs(10)).as_deref(), Some("OK"));
    for _ in 0..4 {
        b.send("YXHASHCLEAR");
    }
    b.send("ABOUT");
    let about = b.reply(Duration::from_secs(10)).expect("ABOUT answered");
    assert!(about.starts_with("name="), "{about}");
    b.send("BEGIN");
    let mv = b.reply(Duration::from_secs(10)).expect("a move");
    assert!(is_move(&mv), "{mv}");
}

#[test]
fn absurd_thread_counts_and_balancing_keep_to_the_move_time() {
    // Found by the fuzzer (seed 2027): thread_num 9223372036854775807 gave 512 search
    // threads, started afresh for each of YXBALANCETWO's twenty-odd short searches: 3 s
    // (11 s on a busy machine) for a 40 ms move. Threads now stop at the machine's, and
    // the balancing searches share one deadline.
    let mut b = Brain::start();
    for l in [
        "INFO thread_num 9223372036854775807",
        "INFO timeout_turn 40",
        "INFO timeout_match 0",
        "INFO time_left 100000",
    ] {
        b.send(l);
    }
    b.send("START 15");
    assert_eq!(b.reply(Duration::from_secs(10)).as_deref(), Some("OK"));
    b.send("TURN 7,7");
    assert!(
        b.reply(Duration::from_secs(10))
            .is_some_and(|m| is_move(&m))
    );
    for (cmd, moves) in [("YXBALANCETWO 0", 2), ("YXBALANCEONE 0", 1)] {
        let asked = Instant::now();
        b.send(cmd);
        let reply = b.reply(Duration::from_secs(10)).expect("a reply");
        let took = asked.elapsed();
        let parts: Vec<&str> = reply.split(' ').collect();
        assert!(
            parts.len() == moves && parts.iter().all(|m| is_move(m)),
            "{cmd}: {reply}"
        );
        // 40 ms asked: a second is far past any scheduling noise.
        assert!(took < Duration::from_secs(1), "{cmd} took {took:?}");
    }
}

#[test]
fn a_panic_costs_one_answer_and_the_game_goes_on() {
    let mut b = Brain::start_with(&[("TENGEN_TEST_HOOKS", "1")]);
    let t = Duration::from_secs(10);
    b.send("INFO timeout_turn 300");
    b.send("START 15");
    assert_eq!(b.reply(t).as_deref(), Some("OK"));
    b.send("TURN 7,7");
    let first = b.reply(t).expect("a move");
    assert!(is_move(&first), "{first}");
    // A panic in a handler, then one in a search thread: one ERROR each.
    b.send("DEBUGPANIC");
    assert_eq!(b.reply(t).as_deref(), Some("ERROR internal error"));
    b.send("DEBUGPANIC SEARCH");
    assert_eq!(b.reply(t).as_deref(), Some("OK"));
    // Any free point: the brain's first move depends on its search.
    let ours = ["6,6", "8,8"]
        .into_iter()
        .find(|p| *p != first)
        .expect("the brain made one move");
    b.send(&format!("TURN {ours}"));
    assert_eq!(b.reply(t).as_deref(), Some("ERROR internal error"));
    // The game was rebuilt from its moves: 7,7, the brain's move and ours are on the
    // board, and the brain plays on.
    for taken in ["7,7", first.as_str(), ours] {
        b.send(&format!("PLAY {taken}"));
        let r = b.reply(t).unwrap();
        assert!(r.starts_with("ERROR"), "{taken} should be occupied: {r}");
    }
    b.send("BEGIN");
    let mv = b.reply(t).expect("a move");
    assert!(is_move(&mv), "{mv}");
    // Without the hooks the command does not exist.
    let mut plain = Brain::start();
    plain.send("DEBUGPANIC");
    assert_eq!(plain.reply(t).as_deref(), Some("UNKNOWN DEBUGPANIC"));
}

/// Yixin's NBEST: one `MESSAGE nbest i x,y ev … pv …` line a candidate, best first and
/// all different, then the best one as the move. Against black's open three on column
/// h (7,7 7,8 7,9), white's candidates are its two blocks (7,6 and 7,10): three lines
/// asked for give those two (a stone beyond either end loses to the straight four).
#[test]
fn nbest_lists_distinct_lines_best_first_then_plays_the_first() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gomocup", "--threads", "1", "--hash", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let script = "START 15\nINFO timeout_turn 900\nYXBOARD\n7,7,2\n8,8,1\n7,8,2\n8,7,1\n7,9,2\nDONE\nYXNBEST 3\n";
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // END only once the move is out: END while thinking quits at once.
    let mut text = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        text.push_str(&line);
        text.push('\n');
        if is_move(&line) {
            break;
        }
    }
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("MESSAGE nbest"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    let moves: Vec<&str> = lines
        .iter()
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    for (i, l) in lines.iter().enumerate() {
        assert!(
            l.starts_with(&format!("MESSAGE nbest {} ", i + 1)),
            "{text}"
        );
    }
    let mut blocks = moves.clone();
    blocks.sort();
    assert_eq!(blocks, ["7,10", "7,6"], "{text}");
    let played = text
        .lines()
        .find(|l| is_move(l))
        .unwrap_or_else(|| panic!("no move: {text}"));
    assert_eq!(played, moves[0], "{text}");
}
