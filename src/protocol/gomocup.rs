//! The Gomocup (Piskvork) brain protocol with Yixin-Board's extensions.
//!
//! Coordinates are zero-based `x,y`. Replies: a move `x,y`, `OK`, `ERROR <why>`,
//! `UNKNOWN <what>`, `MESSAGE <text>`; every line is flushed at once. While the brain
//! thinks, a reader thread keeps reading: `END` exits at once, `STOP`/`YXSTOP` make it
//! answer with the best move so far, anything else waits its turn.
//!
//! `BOARD`/`YXBOARD` lines are `x,y,field` with field 1 the brain's stone, 2 the
//! opponent's, 3 a stone of a completed row (continuous game). The brain plays black when
//! both have as many stones. Stones listed in the order they were played (as Piskvork
//! does for renju, and as the capture and counting variants require) are replayed as
//! moves; any other order is set up as it stands.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::io::{guarded, send_line, spawn_reader, test_hooks};
use crate::core::Color;
use crate::core::error::Point;
use crate::engine::{Clock, DEFAULT_HASH_BYTES, FiarEngine};
use crate::games::fiar::board::{MAX_SIDE, MIN_SIDE};
use crate::games::fiar::{Board, Move, Outcome, Variant};
use crate::search::ab::SearchResult;
use crate::search::{Info, Limits, Reporter, Score};

/// Command-line settings for a Gomocup session.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub variant: Option<Variant>,
    pub threads: Option<usize>,
    pub hash_mb: Option<usize>,
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Out, line: &str) {
    // A control character echoed from the input (a carriage return above all) would
    // split or garble the line for the manager.
    let clean: String = line
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    send_line(&mut *w, &clean);
}

/// Input quoted back in an error: at most 40 characters of it.
fn shown(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}

/// Search progress as `MESSAGE` lines (INFO show_detail).
struct Detail {
    out: Out,
    on: bool,
}

impl Reporter for Detail {
    fn iteration(&self, i: &Info) {
        if !self.on {
            return;
        }
        let ms = i.elapsed.as_millis().max(1) as u64;
        send(
            &self.out,
            &format!(
                "MESSAGE depth {}-{} ev {} n {} n/s {} tm {} pv {}",
                i.depth,
                i.sel_depth,
                i.score,
                i.nodes,
                i.nodes * 1000 / ms,
                ms,
                i.pv.join(" ")
            ),
        );
    }
}

/// What happened to the session after a command.
enum Flow {
    Continue,
    Quit,
}

struct Session {
    engine: Option<FiarEngine>,
    variant: Variant,
    clock: Clock,
    max_memory: u64,
    hash_kb: Option<u64>,
    threads: Option<usize>,
    max_depth: Option<u32>,
    max_node: Option<u64>,
    show_detail: bool,
    /// A bad INFO value, reported before the next reply.
    pending_error: Option<String>,
    rx: Receiver<Option<String>>,
    queue: VecDeque<String>,
    out: Out,
    /// `TENGEN_TEST_HOOKS=1`: the hidden command `DEBUGPANIC [SEARCH]` works.
    hooks: bool,
    /// Test hook: the next search's thread panics.
    fault: bool,
}

/// Runs the protocol on stdin/stdout until `END` or the end of input.
pub fn run(opts: Options) {
    let rx = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    let out: Out = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    serve(opts, rx, out);
}

/// Runs the protocol on the given line source and output (tests use this directly).
pub fn serve(opts: Options, rx: Receiver<Option<String>>, out: Out) {
    let mut s = Session {
        engine: None,
        variant: opts.variant.unwrap_or(Variant::Freestyle),
        clock: Clock::default(),
        max_memory: 0,
        hash_kb: opts.hash_mb.map(|m| m as u64 * 1024),
        threads: opts.threads,
        max_depth: None,
        max_node: None,
        show_detail: false,
        pending_error: None,
        rx,
        queue: VecDeque::new(),
        out,
        hooks: test_hooks(),
        fault: false,
    };
    while let Some(line) = s.next_line() {
        match guarded(|| s.handle(&line)) {
            Ok(Flow::Quit) => break,
            Ok(Flow::Continue) => {}
            Err(why) => {
                // A bug costs this answer: the game is played again from its moves.
                let word = line.split_whitespace().next().unwrap_or("");
                eprintln!(
                    "tengen: internal error in '{}' ({why}); the game is rebuilt from its moves",
                    shown(word)
                );
                if let Some(e) = &mut s.engine {
                    e.recover();
                }
                s.send("ERROR internal error");
            }
        }
    }
}

fn parse_xy(text: &str) -> Option<(i64, i64)> {
    let mut it = text.split(',').map(|t| t.trim().parse::<i64>());
    match (it.next(), it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => Some((x, y)),
        _ => None,
    }
}

fn move_text(mv: Move) -> String {
    match mv {
        Move::Place(p) => format!("{},{}", p.x, p.y),
        // Gomocup has no pass; renju's pass is only ever chosen with no point left.
        Move::Pass => "-1,-1".to_string(),
    }
}

impl Session {
    fn send(&self, line: &str) {
        send(&self.out, line);
    }

    fn next_line(&mut self) -> Option<String> {
        if let Some(l) = self.queue.pop_front() {
            return Some(l);
        }
        self.rx.recv().ok().flatten()
    }

    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        if line.is_empty() {
            return Flow::Continue;
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let cmd = word.to_ascii_uppercase();
        let rest = rest.trim();
        if cmd != "INFO"
            && let Some(e) = self.pending_error.take()
        {
            self.send(&format!("ERROR {e}"));
        }
        match cmd.as_str() {
            "END" => return Flow::Quit,
            "ABOUT" => self.send(&format!(
                "name=\"tengen\", version=\"{}\", author=\"Tengen developers\", country=\"-\", www=\"-\"",
                env!("CARGO_PKG_VERSION")
            )),
            "INFO" => self.info(rest),
            "START" => match rest.parse::<usize>() {
                Ok(n) => self.start(n, n),
                Err(_) => self.send(&format!("ERROR START needs a board size, got '{}'", shown(rest))),
            },
            "RECTSTART" => match parse_xy(rest) {
                Some((w, h)) if w > 0 && h > 0 => self.start(w as usize, h as usize),
                _ => self.send(&format!("ERROR RECTSTART needs width,height, got '{}'", shown(rest))),
            },
            "RESTART" => match &self.engine {
                Some(e) => {
                    let (w, h) = (e.board().width(), e.board().height());
                    self.start(w, h);
                }
                None => self.send("ERROR RESTART before START"),
            },
            "BEGIN" => {
                if self.ready() {
                    self.think_and_play();
                }
            }
            "TURN" => self.turn(rest),
            "BOARD" | "YXBOARD" => {
                let stones = self.read_board();
                if self.ready() {
                    match stones.and_then(|s| self.set_board(&s)) {
                        Ok(()) if cmd == "BOARD" => self.think_and_play(),
                        Ok(()) => {}
                        Err(e) => self.send(&format!("ERROR {e}")),
                    }
                }
            }
            "TAKEBACK" => self.takeback(rest),
            "PLAY" => self.play_given(rest),
            "SWAP2BOARD" => self.swap2(),
            "YXSHOWFORBID" => {
                if self.ready() {
                    self.show_forbid();
                }
            }
            "YXNBEST" => self.nbest(rest),
            "YXSTOP" | "STOP" => {}
            "YXHASHCLEAR" => {
                if let Some(e) = &mut self.engine {
                    e.clear_hash();
                }
            }
            "YXSHOWINFO" => {
                let threads = crate::search::machine_threads();
                self.send(&format!("MESSAGE INFO MAX_THREAD_NUM {threads}"));
                self.send("MESSAGE INFO MAX_HASH_SIZE 22");
                self.send(&format!("MESSAGE INFO RULES {}", Variant::ALL.map(|v| v.name()).join(",")));
            }
            "DEBUGPANIC" if self.hooks => {
                if rest.eq_ignore_ascii_case("SEARCH") {
                    self.fault = true;
                    self.send("OK");
                } else {
                    panic!("injected fault (DEBUGPANIC)");
                }
            }
            "YXBALANCEONE" => self.balance(rest, 1),
            "YXBALANCETWO" => self.balance(rest, 2),
            _ => self.send(&format!("UNKNOWN {}", shown(word))),
        }
        Flow::Continue
    }

    /// True when a game is set up; otherwise says so.
    fn ready(&self) -> bool {
        if self.engine.is_none() {
            self.send("ERROR no game: send START first");
        }
        self.engine.is_some()
    }

    fn start(&mut self, w: usize, h: usize) {
        if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(MIN_SIDE..=MAX_SIDE).contains(&h) {
            self.send(&format!(
                "ERROR unsupported board size {w}x{h}: each side must be {MIN_SIDE}..{MAX_SIDE}"
            ));
            return;
        }
        match &mut self.engine {
            Some(e) => {
                let _ = e.set_variant(self.variant);
                match e.new_game(w, h) {
                    Ok(()) => {}
                    Err(err) => return self.send(&format!("ERROR {err}")),
                }
            }
            None => match FiarEngine::new(self.variant, w, h) {
                Ok(e) => self.engine = Some(e),
                Err(err) => return self.send(&format!("ERROR {err}")),
            },
        }
        self.apply_resources();
        self.send("OK");
    }

    /// Threads and table size from the settings and the memory limit: the table gets
    /// at most half of `max_memory` less room for everything else.
    fn apply_resources(&mut self) {
        let Some(e) = &mut self.engine else { return };
        if let Some(t) = self.threads {
            e.set_threads(t);
        }
        let mut bytes = self
            .hash_kb
            .map_or(DEFAULT_HASH_BYTES as u64, |kb| kb.saturating_mul(1024));
        if self.max_memory > 0 {
            let cap = (self.max_memory / 2).saturating_sub(24 << 20).max(1 << 20);
            bytes = bytes.min(cap);
        }
        e.set_hash_bytes(usize::try_from(bytes).unwrap_or(usize::MAX));
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let key = key.to_ascii_lowercase();
        let value = value.trim();
        let num = || value.parse::<u64>().ok();
        let bad = |what: &str| Some(format!("INFO {} {}: {what}", shown(&key), shown(value)));
        let err = match key.as_str() {
            "timeout_turn" => num()
                .map(|v| self.clock.turn_ms = Some(v))
                .map_or_else(|| bad("not a number of ms"), |_| None),
            "timeout_match" => num()
                .map(|v| self.clock.match_ms = Some(v))
                .map_or_else(|| bad("not a number of ms"), |_| None),
            "time_left" => match value.parse::<i64>() {
                Ok(v) => {
                    self.clock.left_ms = Some(v.max(0) as u64);
                    None
                }
                Err(_) => bad("not a number of ms"),
            },
            "max_memory" => match num() {
                Some(v) => {
                    self.max_memory = v;
                    self.apply_resources();
                    None
                }
                None => bad("not a number of bytes"),
            },
            "game_type" => num()
                .filter(|&v| v <= 3)
                .map_or_else(|| bad("expected 0..3"), |_| None),
            "rule" => match num().and_then(|r| Variant::from_gomocup_rule(r as u32)) {
                Some(v) => self.set_variant(v),
                None => bad("unsupported rule (0, 1, 2, 3, 4, 8 and 9 are)"),
            },
            "variant" => match value.parse::<Variant>() {
                Ok(v) => self.set_variant(v),
                Err(e) => Some(e.to_string()),
            },
            "thread_num" => match num() {
                Some(n) if n >= 1 => {
                    self.threads = Some(n as usize);
                    self.apply_resources();
                    None
                }
                _ => bad("expected a number of threads"),
            },
            "hash_size" => match num() {
                Some(kb) => {
                    self.hash_kb = (kb > 0).then_some(kb);
                    self.apply_resources();
                    None
                }
                None => bad("expected a size in KB"),
            },
            "max_depth" => num()
                .map(|v| self.max_depth = (v > 0).then_some(v as u32))
                .map_or_else(|| bad("expected a depth"), |_| None),
            "max_node" => num()
                .map(|v| self.max_node = (v > 0).then_some(v))
                .map_or_else(|| bad("expected a node count"), |_| None),
            "show_detail" => num()
                .map(|v| self.show_detail = v > 0)
                .map_or_else(|| bad("expected 0 or more"), |_| None),
            // Known keys the brain has no use for, and unknown keys: ignored.
            _ => None,
        };
        if let Some(e) = err {
            self.pending_error = Some(e);
        }
    }

    fn set_variant(&mut self, v: Variant) -> Option<String> {
        self.variant = v;
        match &mut self.engine {
            Some(e) => e
                .set_variant(v)
                .err()
                .map(|err| format!("the game does not fit {v}: {err}")),
            None => None,
        }
    }

    fn engine(&self) -> &FiarEngine {
        self.engine.as_ref().expect("checked by ready()")
    }

    fn turn(&mut self, rest: &str) {
        if !self.ready() {
            return;
        }
        let Some((x, y)) = parse_xy(rest) else {
            return self.send(&format!("ERROR TURN needs x,y, got '{}'", shown(rest)));
        };
        let e = self.engine.as_mut().expect("ready");
        let played = e.board().point(x, y).and_then(|p| e.play(Move::Place(p)));
        match played {
            Ok(_) => self.think_and_play(),
            Err(err) => self.send(&format!("ERROR {err}")),
        }
    }

    /// Reads `x,y,field` lines up to `DONE` as (point, field).
    fn read_lines_until_done(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(l) = self.next_line() {
            let t = l.trim();
            if t.eq_ignore_ascii_case("DONE") {
                break;
            }
            if !t.is_empty() {
                lines.push(t.to_string());
            }
        }
        lines
    }

    fn read_board(&mut self) -> Result<Vec<(Point, Color)>, String> {
        let lines = self.read_lines_until_done();
        let Some(e) = &self.engine else {
            return Err("no game".into());
        };
        let mut raw = Vec::new();
        for l in &lines {
            let f: Vec<Option<i64>> = l.split(',').map(|t| t.trim().parse().ok()).collect();
            match f[..] {
                [Some(x), Some(y), Some(field @ 1..=3)] => {
                    let p = e
                        .board()
                        .point(x, y)
                        .map_err(|err| format!("board line '{}': {err}", shown(l)))?;
                    raw.push((p, field));
                }
                _ => {
                    return Err(format!(
                        "board line '{}' is not x,y,field (field 1, 2 or 3)",
                        shown(l)
                    ));
                }
            }
        }
        let own = raw.iter().filter(|r| r.1 == 1).count();
        let opp = raw.iter().filter(|r| r.1 == 2).count();
        // The brain moves next: black when the counts are equal, white when the opponent
        // has one more; otherwise (completed rows in the count) by the parity of the total.
        let me = if own == opp {
            Color::Black
        } else if opp == own + 1 || raw.len() % 2 == 1 {
            Color::White
        } else {
            Color::Black
        };
        Ok(raw
            .iter()
            .enumerate()
            .map(|(i, &(p, field))| {
                let c = match field {
                    1 => me,
                    2 => me.opposite(),
                    // A completed row's stone: its colour from its place in the order.
                    _ => {
                        if i % 2 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        }
                    }
                };
                (p, c)
            })
            .collect())
    }

    fn set_board(&mut self, stones: &[(Point, Color)]) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        if let Some((p, _)) = stones.iter().find(|s| !seen.insert(s.0)) {
            return Err(format!("{},{} is listed twice", p.x, p.y));
        }
        let e = self.engine.as_mut().expect("ready");
        e.set_position(stones).map_err(|err| err.to_string())
    }

    fn takeback(&mut self, rest: &str) {
        if !self.ready() {
            return;
        }
        let Some((x, y)) = parse_xy(rest) else {
            return self.send(&format!("ERROR TAKEBACK needs x,y, got '{}'", shown(rest)));
        };
        let e = self.engine.as_mut().expect("ready");
        let Ok(p) = e.board().point(x, y) else {
            return self.send(&format!("ERROR TAKEBACK {x},{y}: off the board"));
        };
        if e.board().moves().last() == Some(Move::Place(p)) {
            let _ = e.undo();
            return self.send("OK");
        }
        if e.board().stone(p).is_none() {
            return self.send(&format!("ERROR TAKEBACK {x},{y}: no stone there"));
        }
        // Not the last move: the rest stay as they stand.
        let board = e.board();
        let stones: Vec<(Point, Color)> = board
            .points()
            .filter(|&q| q != p)
            .filter_map(|q| board.stone(q).map(|c| (q, c)))
            .collect();
        match e.set_position(&stones) {
            Ok(()) => self.send("OK"),
            Err(err) => self.send(&format!("ERROR {err}")),
        }
    }

    fn play_given(&mut self, rest: &str) {
        if !self.ready() {
            return;
        }
        let Some((x, y)) = parse_xy(rest) else {
            return self.send(&format!("ERROR PLAY needs x,y, got '{}'", shown(rest)));
        };
        let e = self.engine.as_mut().expect("ready");
        match e
            .board()
            .point(x, y)
            .and_then(|p| e.board().check(Move::Place(p)).map(|_| p))
        {
            Ok(p) => {
                let _ = e.play(Move::Place(p));
                self.send(&format!("{x},{y}"));
            }
            Err(err) => self.send(&format!("ERROR {err}")),
        }
    }

    fn limits(&self, fraction: u32) -> Limits {
        let e = self.engine();
        let empties = e.board().width() * e.board().height() - e.board().stone_count();
        let mut l = self.clock.limits(empties, self.max_depth, self.max_node);
        if fraction > 1
            && let (Some(d), Some(soft)) = (l.deadline, l.soft)
        {
            let now = Instant::now();
            l.deadline = Some(now + d.saturating_duration_since(now) / fraction);
            l.soft = Some(soft / fraction);
        }
        l
    }

    /// Runs `f` on the engine in a thread while this one keeps reading: `END` quits at
    /// once, `STOP`/`YXSTOP` stop the search, other lines wait in the queue.
    fn searching<T, F>(&mut self, f: F) -> T
    where
        T: Send,
        F: FnOnce(&FiarEngine, &AtomicBool) -> T + Send,
    {
        let stop = AtomicBool::new(false);
        let engine = self.engine.as_ref().expect("ready");
        let (rx, queue, out) = (&self.rx, &mut self.queue, &self.out);
        // Kept where this thread can take it back if no search thread can be had.
        let job = std::sync::Mutex::new(Some(f));
        let run = |job: &std::sync::Mutex<Option<F>>| {
            let f = job.lock().ok().and_then(|mut j| j.take())?;
            Some(f(engine, &stop))
        };
        std::thread::scope(|s| {
            let Some(handle) = crate::search::spawn_search(s, || run(&job)) else {
                // No thread to spare: think here, deaf to END and STOP for this move.
                return run(&job).expect("the search did not start");
            };
            while !handle.is_finished() {
                match rx.recv_timeout(Duration::from_millis(5)) {
                    Ok(Some(line)) => {
                        let word = line
                            .split_whitespace()
                            .next()
                            .unwrap_or("")
                            .to_ascii_uppercase();
                        match word.as_str() {
                            "END" => {
                                stop.store(true, Ordering::Relaxed);
                                let _ = out.lock().map(|mut w| w.flush());
                                std::process::exit(0);
                            }
                            "STOP" | "YXSTOP" => stop.store(true, Ordering::Relaxed),
                            _ => queue.push_back(line),
                        }
                    }
                    Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                        // The manager is gone: no one will read the move.
                        stop.store(true, Ordering::Relaxed);
                        std::process::exit(0);
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            // A panic in the search goes on to the command's guard.
            handle
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
                .expect("the search ran once")
        })
    }

    fn search_now(&mut self, mut limits: Limits) -> Option<SearchResult> {
        limits.fault = std::mem::take(&mut self.fault);
        let reporter = Detail {
            out: self.out.clone(),
            on: self.show_detail,
        };
        self.searching(|e, stop| e.think(&limits, stop, &reporter))
    }

    fn think_and_play(&mut self) {
        if self.engine().board().outcome() != Outcome::Ongoing {
            return self.send(&format!(
                "ERROR the game is over: {}",
                self.engine().board().outcome()
            ));
        }
        let limits = self.limits(1);
        match self.search_now(limits) {
            Some(r) => {
                let e = self.engine.as_mut().expect("ready");
                match e.board().check(r.best).and_then(|_| e.play(r.best)) {
                    Ok(_) => self.send(&move_text(r.best)),
                    Err(err) => {
                        self.send(&format!("ERROR internal: search chose {}: {err}", r.best))
                    }
                }
            }
            None => self.send("ERROR no legal move"),
        }
    }

    fn show_forbid(&self) {
        let board = self.engine().board();
        let mut s = String::from("FORBID ");
        if board.to_move() == Color::Black {
            for (p, _) in board.forbidden_points(Color::Black) {
                s.push_str(&format!("{:02}{:02}", p.x, p.y));
            }
        }
        s.push('.');
        self.send(&s);
    }

    fn nbest(&mut self, rest: &str) {
        if !self.ready() {
            return;
        }
        let n = rest.parse::<usize>().unwrap_or(1).clamp(1, 20);
        if self.engine().board().outcome() != Outcome::Ongoing {
            return self.send("ERROR the game is over");
        }
        // Each line gets its share of the turn, counted from its own start; the test
        // hook's fault goes to the first.
        let template = self.limits(n as u32);
        let slice = template
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let fault = std::mem::take(&mut self.fault);
        let per_line = move |i: usize| Limits {
            deadline: slice.map(|s| Instant::now() + s),
            fault: fault && i == 0,
            ..template.clone()
        };
        let reporter = Detail {
            out: self.out.clone(),
            on: self.show_detail,
        };
        let out = self.out.clone();
        let lines = self.searching(|e, stop| {
            e.think_lines(n, &per_line, stop, &reporter, &mut |i, r| {
                let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
                if let Move::Place(p) = r.best {
                    send(
                        &out,
                        &format!(
                            "MESSAGE nbest {} {},{} ev {} pv {}",
                            i + 1,
                            p.x,
                            p.y,
                            r.score,
                            pv.join(" ")
                        ),
                    );
                }
            })
        });
        match lines.first().filter(|r| matches!(r.best, Move::Place(_))) {
            Some(r) => self.send(&move_text(r.best)),
            None => self.send("ERROR no legal move"),
        }
    }

    /// Yixin's balance: one move (or two, one per side) after which the position is as
    /// even as can be found, with an optional bias in score units for the mover.
    fn balance(&mut self, rest: &str, count: usize) {
        if !self.ready() {
            return;
        }
        let bias = rest.parse::<i32>().unwrap_or(0);
        let board = self.engine().board().clone();
        if board.outcome() != Outcome::Ongoing {
            return self.send("ERROR the game is over");
        }
        let limits = self.limits(1);
        let slice = limits
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let moves =
            self.searching(move |e, stop| balance_moves(e, &board, count, bias, slice, stop));
        match moves {
            Some(ms) => self.send(
                &ms.iter()
                    .map(|&m| move_text(m))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            None => self.send("ERROR no balancing move found"),
        }
    }

    fn swap2(&mut self) {
        let lines = self.read_lines_until_done();
        if !self.ready() {
            return;
        }
        let e = self.engine.as_mut().expect("ready");
        let mut stones = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            match parse_xy(l).map(|(x, y)| e.board().point(x, y)) {
                Some(Ok(p)) => stones.push((
                    p,
                    if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                )),
                _ => {
                    return self.send(&format!(
                        "ERROR SWAP2BOARD line '{}' is not x,y on the board",
                        shown(l)
                    ));
                }
            }
        }
        if let Err(err) = e.set_position(&stones) {
            return self.send(&format!("ERROR {err}"));
        }
        let board = e.board().clone();
        let limits = self.limits(1);
        let slice = limits
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        match stones.len() {
            0 => {
                // Three stones (black, white, black) that leave white as near even as found.
                let c = board.centre();
                let (cx, cy) = (c.x as i64, c.y as i64);
                let mut b = board.clone();
                let first = Move::Place(c);
                let white = b.point(cx + 1, cy + 1).map(Move::Place);
                let opening = match white {
                    Ok(w) => {
                        let _ = b.play_any_opening(first);
                        let _ = b.play_any_opening(w);
                        let third =
                            self.searching(move |e, stop| balance_moves(e, &b, 1, 0, slice, stop));
                        third.map(|t| vec![first, w, t[0]])
                    }
                    Err(_) => None,
                };
                match opening {
                    Some(ms) => self.send(
                        &ms.iter()
                            .map(|&m| move_text(m))
                            .collect::<Vec<_>>()
                            .join(" "),
                    ),
                    None => self.send("ERROR no opening found"),
                }
            }
            3 | 5 => {
                // White to move: play white if it holds, otherwise take black.
                let result = self.searching(move |e, stop| {
                    let l = Limits {
                        deadline: slice.map(|s| Instant::now() + s),
                        ..Default::default()
                    };
                    e.think_on(&board, &l, stop)
                });
                let hold = match result.as_ref().map(|r| r.score) {
                    Some(Score::Value(v)) => v >= if stones.len() == 3 { -150 } else { 0 },
                    Some(Score::Win(_)) => true,
                    _ => false,
                };
                match result {
                    Some(r) if hold => {
                        let e = self.engine.as_mut().expect("ready");
                        let _ = e.play(r.best);
                        self.send(&move_text(r.best));
                    }
                    _ => self.send("SWAP"),
                }
            }
            n => self.send(&format!(
                "ERROR SWAP2BOARD expects 0, 3 or 5 stones, got {n}"
            )),
        }
    }
}

/// Moves (one, or one for each side) after which the side to move faces a score as close
/// to `bias` as the candidates allow, each candidate searched briefly, all within
/// `budget` (2 s when none is set).
fn balance_moves(
    engine: &FiarEngine,
    board: &Board,
    count: usize,
    bias: i32,
    budget: Option<Duration>,
    stop: &AtomicBool,
) -> Option<Vec<Move>> {
    let budget = budget.unwrap_or(Duration::from_secs(2));
    balance_until(
        engine,
        board,
        count,
        bias,
        budget,
        Instant::now() + budget,
        stop,
    )
}

/// [`balance_moves`] with `budget` shared among the candidates and nothing searched
/// past `end`: a search has a fixed cost however short its deadline, and twenty-odd
/// of them must not add up past the move's time. When time runs out the best
/// candidate found so far stands (the first by the move order if none was searched).
fn balance_until(
    engine: &FiarEngine,
    board: &Board,
    count: usize,
    bias: i32,
    budget: Duration,
    end: Instant,
    stop: &AtomicBool,
) -> Option<Vec<Move>> {
    use crate::search::ab::eval::playable;
    use crate::search::ab::movegen::{candidates, order_score};
    let mut cands = Vec::new();
    candidates(board, &mut cands);
    let me = board.to_move();
    let mut scored: Vec<(Point, i32)> = cands
        .into_iter()
        .filter(|&p| playable(board, p, me) && board.check(Move::Place(p)).is_ok())
        .map(|p| (p, order_score(board, p)))
        .collect();
    scored.sort_by_key(|m| std::cmp::Reverse(m.1));
    scored.truncate(10);
    let per = budget / (scored.len().max(1) as u32 * count as u32);
    let until = |d: Duration| Some((Instant::now() + d).min(end));
    let mut best: Option<(i32, Vec<Move>)> = None;
    for (p, _) in scored {
        if stop.load(Ordering::Relaxed) || best.is_some() && Instant::now() >= end {
            break;
        }
        let mut b = board.clone();
        b.play_unchecked(Move::Place(p));
        if b.outcome() != Outcome::Ongoing {
            continue;
        }
        let (dist, moves) = if count == 2 {
            match balance_until(engine, &b, 1, -bias, per * 10 / 12, end, stop) {
                Some(second) => {
                    let mut c = b.clone();
                    c.play_unchecked(second[0]);
                    let l = Limits {
                        deadline: until(per / 6),
                        ..Default::default()
                    };
                    let s = engine
                        .think_on(&c, &l, stop)
                        .map(|r| r.score.as_value())
                        .unwrap_or(0);
                    ((s - bias).abs(), vec![Move::Place(p), second[0]])
                }
                None => continue,
            }
        } else {
            let l = Limits {
                deadline: until(per),
                ..Default::default()
            };
            // The opponent's score after our move, from our side.
            let s = engine
                .think_on(&b, &l, stop)
                .map(|r| -r.score.as_value())
                .unwrap_or(0);
            ((s - bias).abs(), vec![Move::Place(p)])
        };
        if best.as_ref().is_none_or(|b| dist < b.0) {
            best = Some((dist, moves));
        }
    }
    best.map(|b| b.1)
}
