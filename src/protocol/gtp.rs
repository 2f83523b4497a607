//! GTP v2 for Go (Gunnar Farnebäck's draft): the required, tournament and regression
//! commands, KGS's extensions, and the analysis commands GUIs use (lz-analyze,
//! kata-analyze, lz-genmove_analyze, gogui-analyze_commands). Input is cleaned as the
//! spec says; every reply is `=` or `?`, the id echoed, ended by a blank line.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::io::{guarded, send_text, spawn_reader, test_hooks};
use crate::core::Color;
use crate::engine::go::{Genmove, GoEngine, Left, Mode, Status, TimeControl};
use crate::games::go::{Board, GoError, PASS, Rules, Vertex, parse_vertex, vertex_name};
use crate::search::mcts::{Report, Watcher};

/// Every command this engine knows, as list_commands prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-rules",
    "kgs-genmove_cleanup",
    "loadsgf",
    "printsgf",
    "reg_genmove",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "tengen-ownership",
    "tengen-best_moves",
    "tengen-rules",
    "tengen-threads",
    "tengen-playouts",
    "tengen-resign",
    "tengen-ponder",
    "tengen-memory",
];

/// The most playouts a move may be given (hours of search on one thread).
pub const MAX_PLAYOUTS: u64 = 100_000_000;

/// Strips a line as GTP 2.2 says: control characters other than HT and LF removed,
/// HT turned into space, everything after `#` dropped, whitespace trimmed.
pub fn clean(line: &str) -> String {
    let no_comment = line.split('#').next().unwrap_or("");
    no_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A reply before its id and status are added.
type Reply = Result<String, String>;

struct Session<'a, W: Write + Send> {
    engine: GoEngine,
    out: &'a Mutex<W>,
    stop: AtomicBool,
    /// Think on the opponent's time, from a genmove's answer to the next line.
    ponder: bool,
    /// `TENGEN_TEST_HOOKS=1`: the hidden command tengen-debug-panic works.
    hooks: bool,
}

/// Runs GTP on `input` until `quit` or the end of input; `ponder` turns on thinking
/// between a genmove's answer and the next command (`tengen-ponder` changes it).
pub fn run<R: BufRead + Send + 'static, W: Write + Send>(
    input: R,
    out: W,
    engine: GoEngine,
    ponder: bool,
) {
    let out = Mutex::new(out);
    let mut rx = spawn_reader(input);
    let mut s = Session {
        engine,
        out: &out,
        stop: AtomicBool::new(false),
        ponder,
        hooks: test_hooks(),
    };
    let mut pending: VecDeque<Option<String>> = VecDeque::new();
    loop {
        let line = match pending.pop_front() {
            Some(l) => l,
            None => rx.recv().unwrap_or(None),
        };
        let Some(line) = line else { break };
        let text = clean(&line);
        if text.is_empty() {
            continue;
        }
        let mut words = text.split_whitespace();
        let first = words.next().unwrap_or("");
        let (id, name) = match first.parse::<u64>() {
            Ok(id) => (Some(id), words.next().unwrap_or("")),
            Err(_) => (None, first),
        };
        let args: Vec<&str> = words.collect();
        let id_text = id.map(|i| i.to_string()).unwrap_or_default();
        if name.is_empty() {
            s.send(&format!("?{id_text} syntax error\n"));
            continue;
        }
        match name {
            "quit" => {
                s.send(&format!("={id_text}\n"));
                break;
            }
            "lz-analyze" | "kata-analyze" => {
                match Analysis::parse(&args, s.engine.game().to_move(), name == "kata-analyze") {
                    Err(e) => s.send(&format!("?{id_text} {e}\n")),
                    Ok(a) => {
                        s.send_raw(&format!("={id_text}\n"));
                        // Runs until the next line arrives; that line is then handled.
                        // A panic ends the stream early (the answer has begun).
                        let next = s.analyse(&a, &mut rx);
                        s.send_raw("\n");
                        pending.push_back(next);
                    }
                }
            }
            "lz-genmove_analyze" | "kata-genmove_analyze" => {
                match Analysis::parse(
                    &args,
                    s.engine.game().to_move(),
                    name == "kata-genmove_analyze",
                ) {
                    Err(e) => s.send(&format!("?{id_text} {e}\n")),
                    Ok(a) => {
                        s.send_raw(&format!("={id_text}\n"));
                        match guarded(|| s.genmove_analyse(&a)) {
                            Ok(mv) => s.send_raw(&format!("play {mv}\n\n")),
                            Err(why) => {
                                // The answer has begun: it ends without a move.
                                s.recover(name, &why);
                                s.send_raw("\n");
                            }
                        }
                    }
                }
            }
            _ => {
                let reply = guarded(|| s.command(name, &args)).unwrap_or_else(|why| {
                    s.recover(name, &why);
                    Err("internal error".into())
                });
                let moved = matches!(name, "genmove" | "kgs-genmove_cleanup")
                    && reply
                        .as_ref()
                        .is_ok_and(|m| !m.eq_ignore_ascii_case("resign"));
                match reply {
                    Ok(text) if text.is_empty() => s.send(&format!("={id_text}\n")),
                    Ok(text) => s.send(&format!("={id_text} {text}\n")),
                    Err(e) => s.send(&format!("?{id_text} {e}\n")),
                }
                if moved && s.ponder && !s.engine.game().is_over() {
                    // Until the opponent's move (or any line) arrives; the tree is kept.
                    let next = s.until_input(&mut rx, |engine, stop| {
                        engine.ponder(stop);
                    });
                    pending.push_back(next);
                }
            }
        }
    }
}

/// One line on stderr per move, as Go engines do: playouts, speed, the best moves.
fn log_search(r: &Report, size: usize) {
    let secs = r.elapsed.as_secs_f64().max(1e-6);
    let best: Vec<String> = r
        .moves
        .iter()
        .take(3)
        .map(|m| {
            format!(
                "{} {:.1}% ({})",
                vertex_name(size, m.mv as Vertex),
                m.win_rate * 100.0,
                m.visits
            )
        })
        .collect();
    let collected = match r.collections {
        0 => String::new(),
        n => format!("; the full tree pruned {n} time(s)"),
    };
    eprintln!(
        "tengen: {} playouts in {:.2} s ({:.0}/s); {}{collected}",
        r.playouts,
        secs,
        r.playouts as f64 / secs,
        best.join(", ")
    );
}

/// `time_settings MAIN BYO_YOMI STONES` (seconds; byo-yomi with no stones: no limit).
pub(super) fn time_settings(args: &[&str]) -> Result<TimeControl, String> {
    if args.len() != 3 {
        return Err("syntax error".into());
    }
    let main = seconds_ms(args[0])?;
    let byo = seconds_ms(args[1])?;
    let stones: u32 = int_arg(args, 2)?;
    Ok(if byo > 0 && stones == 0 {
        TimeControl::None
    } else {
        TimeControl::Canadian {
            main_ms: main,
            byo_ms: byo,
            stones,
        }
    })
}

/// `time_left COLOR SECONDS STONES`.
pub(super) fn time_left(args: &[&str]) -> Result<(Color, Left), String> {
    if args.len() != 3 {
        return Err("syntax error".into());
    }
    let c = color_arg(args[0]).map_err(|_| "syntax error".to_string())?;
    let ms = seconds_ms(args[1])?;
    let stones: u32 = int_arg(args, 2)?;
    Ok((c, Left { ms, stones }))
}

/// `tengen-memory MB`: the search tree's memory, 16 MB to 1 TB (the machine caps it
/// further at half its memory).
pub(super) fn memory_arg(args: &[&str]) -> Result<usize, String> {
    let mb: usize = int_arg(args, 0)?;
    if !(crate::search::mcts::MIN_MEMORY_MB..=1 << 20).contains(&mb) {
        return Err(format!(
            "memory must be {} to {} MB",
            crate::search::mcts::MIN_MEMORY_MB,
            1 << 20
        ));
    }
    Ok(mb)
}

pub(super) fn color_arg(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err("invalid color".into()),
    }
}

pub(super) fn seconds_ms(text: &str) -> Result<u64, String> {
    let s: f64 = text.parse().map_err(|_| "syntax error".to_string())?;
    if !s.is_finite() || s < 0.0 {
        return Err("syntax error".into());
    }
    Ok((s * 1000.0) as u64)
}

pub(super) fn int_arg<T: std::str::FromStr>(args: &[&str], i: usize) -> Result<T, String> {
    args.get(i)
        .ok_or_else(|| "syntax error".to_string())?
        .parse()
        .map_err(|_| "syntax error".to_string())
}

impl<W: Write + Send> Session<'_, W> {
    /// A whole response plus the blank line that ends it.
    fn send(&self, text: &str) {
        self.send_raw(&format!("{text}\n"));
    }

    fn send_raw(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        send_text(&mut *out, text);
    }

    fn size(&self) -> usize {
        self.engine.game().size()
    }

    /// After a panic in `command`: logged, the game rebuilt from its moves, the tree
    /// dropped.
    fn recover(&mut self, command: &str, why: &str) {
        eprintln!(
            "tengen: internal error in '{command}' ({why}); the game is rebuilt from its moves"
        );
        self.engine.recover();
        self.stop.store(false, Ordering::Relaxed);
    }

    fn vertex(&self, text: &str) -> Result<Vertex, String> {
        parse_vertex(self.size(), text).map_err(|_| "invalid coordinate".to_string())
    }

    fn vertices(&self, list: &[Vertex]) -> String {
        list.iter()
            .map(|&v| vertex_name(self.size(), v))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn command(&mut self, name: &str, args: &[&str]) -> Reply {
        let e = &mut self.engine;
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("Tengen".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                let known = args.first().is_some_and(|c| COMMANDS.contains(c));
                Ok(known.to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => {
                let n: usize = int_arg(args, 0)?;
                e.set_size(n).map_err(|_| "unacceptable size".to_string())?;
                Ok(String::new())
            }
            "clear_board" => {
                e.clear();
                Ok(String::new())
            }
            "komi" => {
                let k: f32 = args
                    .first()
                    .and_then(|a| a.parse().ok())
                    .filter(|k: &f32| k.is_finite() && k.abs() < 1000.0)
                    .ok_or("komi not a float")?;
                e.set_komi(k);
                Ok(String::new())
            }
            "play" => {
                if args.len() < 2 {
                    return Err("invalid color or coordinate".into());
                }
                let c = color_arg(args[0]).map_err(|_| "invalid color or coordinate")?;
                let v = parse_vertex(self.size(), args[1])
                    .map_err(|_| "invalid color or coordinate".to_string())?;
                self.engine.play(c, v).map_err(|e| match e {
                    GoError::Illegal(_) | GoError::Superko => format!("{e}"),
                    other => other.to_string(),
                })?;
                Ok(String::new())
            }
            "genmove" | "kgs-genmove_cleanup" | "reg_genmove" => {
                let c = color_arg(args.first().copied().unwrap_or(""))?;
                let mode = if name == "kgs-genmove_cleanup" {
                    Mode::Cleanup
                } else {
                    Mode::Normal
                };
                self.stop.store(false, Ordering::Relaxed);
                let stop = &self.stop;
                let g = if name == "reg_genmove" {
                    // Regression: same search, the move is not played, no resigning.
                    let resign = e.resign_below.take();
                    let (g, _) = e.choose(c, mode, stop);
                    e.resign_below = resign;
                    g
                } else {
                    let (g, r) = e.genmove(c, mode, stop);
                    log_search(&r, self.size());
                    g
                };
                Ok(self.genmove_text(g))
            }
            "undo" => {
                e.undo().map_err(|_| "cannot undo".to_string())?;
                Ok(String::new())
            }
            "showboard" => {
                let g = e.game();
                Ok(format!(
                    "\n{}\nblack captured {}, white captured {}; {} to move",
                    g.board(),
                    g.board().captured_by(Color::Black),
                    g.board().captured_by(Color::White),
                    g.to_move()
                ))
            }
            "fixed_handicap" | "place_free_handicap" => {
                let n: usize = int_arg(args, 0)?;
                if e.game().board().stone_count() > 0 || !e.game().moves().is_empty() {
                    return Err("board not empty".into());
                }
                let stones = if name == "fixed_handicap" {
                    e.fixed_handicap(n)
                } else {
                    e.place_free_handicap(n)
                }
                .map_err(|err| match err {
                    GoError::BoardNotEmpty => "board not empty".to_string(),
                    _ => "invalid handicap".to_string(),
                })?;
                Ok(self.vertices(&stones))
            }
            "set_free_handicap" => {
                let mut stones = Vec::new();
                for a in args {
                    stones.push(self.vertex(a)?);
                }
                self.engine
                    .set_free_handicap(&stones)
                    .map_err(|err| match err {
                        GoError::BoardNotEmpty => "board not empty".to_string(),
                        _ => "bad vertex list".to_string(),
                    })?;
                Ok(String::new())
            }
            "final_score" => {
                if e.game().moves().is_empty() && e.game().board().stone_count() == 0 {
                    // Nothing on the board: komi decides.
                    return Ok(crate::games::go::result_text(-e.game().komi()));
                }
                Ok(e.final_score())
            }
            "final_status_list" => {
                let status = match args.first().map(|s| s.to_ascii_lowercase()).as_deref() {
                    Some("alive") => Status::Alive,
                    Some("dead") => Status::Dead,
                    Some("seki") => Status::Seki,
                    _ => return Err("syntax error".into()),
                };
                let list = e.final_status(status);
                Ok(self.vertices(&list))
            }
            "time_settings" => {
                e.set_time(time_settings(args)?);
                Ok(String::new())
            }
            "kgs-time_settings" => {
                let kind = args
                    .first()
                    .map(|s| s.to_ascii_lowercase())
                    .unwrap_or_default();
                let clock = match kind.as_str() {
                    "none" => TimeControl::None,
                    "absolute" => TimeControl::Canadian {
                        main_ms: seconds_ms(args.get(1).ok_or("syntax error")?)?,
                        byo_ms: 0,
                        stones: 0,
                    },
                    "canadian" => TimeControl::Canadian {
                        main_ms: seconds_ms(args.get(1).ok_or("syntax error")?)?,
                        byo_ms: seconds_ms(args.get(2).ok_or("syntax error")?)?,
                        stones: int_arg(args, 3)?,
                    },
                    "byoyomi" => TimeControl::Japanese {
                        main_ms: seconds_ms(args.get(1).ok_or("syntax error")?)?,
                        byo_ms: seconds_ms(args.get(2).ok_or("syntax error")?)?,
                        periods: int_arg(args, 3)?,
                    },
                    _ => return Err("syntax error".into()),
                };
                e.set_time(clock);
                Ok(String::new())
            }
            "time_left" => {
                let (c, left) = time_left(args)?;
                e.set_time_left(c, left);
                Ok(String::new())
            }
            "kgs-rules" | "tengen-rules" => {
                if args.is_empty() && name == "tengen-rules" {
                    return Ok(e.game().rules().name.to_string());
                }
                let r: Rules = args
                    .first()
                    .ok_or("syntax error")?
                    .parse()
                    .map_err(|err: crate::games::go::rules::UnknownRules| err.to_string())?;
                e.set_rules(r);
                Ok(String::new())
            }
            "loadsgf" => {
                let path = args.first().ok_or("syntax error")?;
                let move_number = match args.get(1) {
                    Some(n) => Some(n.parse::<usize>().map_err(|_| "syntax error")?),
                    None => None,
                };
                let text = crate::core::files::read_record(std::path::Path::new(path))
                    .map_err(|err| format!("cannot load file: {path}: {err}"))?;
                let game = crate::games::go::record::load(&text, move_number, e.game().rules())
                    .map_err(|err| err.to_string())?;
                let to_move = game.to_move();
                e.set_game(game);
                Ok(to_move.name().to_string())
            }
            "printsgf" => {
                let sgf = crate::games::go::record::write(e.game());
                match args.first() {
                    Some(path) => {
                        std::fs::write(path, sgf)
                            .map_err(|err| format!("cannot save file: {err}"))?;
                        Ok(String::new())
                    }
                    None => Ok(sgf.trim_end().to_string()),
                }
            }
            "gogui-analyze_commands" => Ok([
                "gfx/Ownership/tengen-ownership",
                "gfx/Best Moves/tengen-best_moves",
                "plist/Dead Stones/final_status_list dead",
                "plist/Seki Stones/final_status_list seki",
                "string/Final Score/final_score",
                "string/Rules/tengen-rules",
                "none/Set Rules/tengen-rules %s",
            ]
            .join("\n")),
            "tengen-ownership" => {
                let r = self.short_search();
                let b = self.engine.game().board();
                let vals: Vec<String> = b
                    .vertices()
                    .map(|v| {
                        format!(
                            "{} {:.2}",
                            vertex_name(b.size(), v),
                            r.ownership.get(v as usize).copied().unwrap_or(0.0)
                        )
                    })
                    .collect();
                Ok(format!("INFLUENCE {}", vals.join(" ")))
            }
            "tengen-best_moves" => {
                let r = self.short_search();
                let size = self.size();
                let labels: Vec<String> = r
                    .moves
                    .iter()
                    .filter(|m| m.mv as Vertex != PASS && m.visits > 0)
                    .take(5)
                    .map(|m| {
                        format!(
                            "{} {:.0}%",
                            vertex_name(size, m.mv as Vertex),
                            m.win_rate * 100.0
                        )
                    })
                    .collect();
                Ok(format!("LABEL {}", labels.join(" ")))
            }
            "tengen-threads" => {
                let n: usize = int_arg(args, 0)?;
                if n == 0 || n > 1024 {
                    return Err("threads must be 1 to 1024".into());
                }
                e.set_threads(n);
                Ok(String::new())
            }
            "tengen-memory" => {
                let mb = memory_arg(args)?;
                e.set_memory_mb(mb);
                Ok(String::new())
            }
            "tengen-playouts" => {
                let n: u64 = int_arg(args, 0)?;
                if n > MAX_PLAYOUTS {
                    return Err(format!("playouts must be 0 (the clock) to {MAX_PLAYOUTS}"));
                }
                e.playouts = (n > 0).then_some(n);
                Ok(String::new())
            }
            "tengen-debug-panic" if self.hooks => {
                if args.first() == Some(&"search") {
                    e.inject_fault = true;
                    Ok(String::new())
                } else {
                    panic!("injected fault (tengen-debug-panic)")
                }
            }
            "tengen-ponder" => match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
                Some("on") => {
                    self.ponder = true;
                    Ok(String::new())
                }
                Some("off") => {
                    self.ponder = false;
                    Ok(String::new())
                }
                _ => Err("ponder must be on or off".into()),
            },
            "tengen-resign" => {
                let r: f32 = args
                    .first()
                    .and_then(|a| a.parse().ok())
                    .filter(|r: &f32| (0.0..1.0).contains(r))
                    .ok_or("resign threshold must be 0 to 1 (0: never)")?;
                e.resign_below = (r > 0.0).then_some(r);
                Ok(String::new())
            }
            _ => Err("unknown command".into()),
        }
    }

    fn genmove_text(&self, g: Genmove) -> String {
        match g {
            Genmove::Play(v) => vertex_name(self.size(), v),
            Genmove::Pass => "pass".into(),
            Genmove::Resign => "resign".into(),
        }
    }

    /// A search of about a second for the gogui displays.
    fn short_search(&mut self) -> Report {
        let stop = AtomicBool::new(false);
        let c = self.engine.game().to_move();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let stopper = &stop;
        std::thread::scope(|s| {
            // Joined, not detached: see `search::spawn_search`.
            let timer = s.spawn(move || {
                let _ = rx.recv_timeout(Duration::from_millis(1000));
                stopper.store(true, Ordering::Relaxed);
            });
            let r = self.engine.analyse(
                c,
                Duration::from_secs(3600),
                &stop,
                &crate::search::mcts::Quiet,
                None,
            );
            let _ = tx.send(());
            let _ = timer.join();
            r
        })
    }

    /// Streams analysis until a line arrives on `rx`; returns that line.
    fn analyse(
        &mut self,
        a: &Analysis,
        rx: &mut std::sync::mpsc::Receiver<Option<String>>,
    ) -> Option<String> {
        let out = self.out;
        let size = self.size();
        self.until_input(rx, |engine, stop| {
            let printer = Printer { out, a, size };
            let report = engine.analyse(a.color, a.interval, stop, &printer, None);
            // A last line so that a short analysis still shows something.
            if report.playouts > 0 && !stop.load(Ordering::Relaxed) {
                printer.progress(&report);
            }
        })
    }

    /// Runs `think` until a line arrives on `rx` (it sets the stop flag); returns that
    /// line.
    fn until_input(
        &mut self,
        rx: &mut std::sync::mpsc::Receiver<Option<String>>,
        think: impl FnOnce(&mut GoEngine, &AtomicBool),
    ) -> Option<String> {
        self.stop.store(false, Ordering::Relaxed);
        let stop = &self.stop;
        let engine = &mut self.engine;
        let (line, outcome) = std::thread::scope(|s| {
            let waiter = s.spawn(move || {
                let line = rx.recv().unwrap_or(None);
                stop.store(true, Ordering::Relaxed);
                line
            });
            // A panic must not lose the line the waiter is reading.
            let outcome = guarded(|| think(engine, stop));
            (waiter.join().unwrap_or(None), outcome)
        });
        if let Err(why) = outcome {
            self.recover("analysis", &why);
        }
        line
    }

    /// lz-genmove_analyze: genmove with analysis lines while it thinks.
    fn genmove_analyse(&mut self, a: &Analysis) -> String {
        // The engine's own time budget applies; analysis lines come from a watcher.
        let printer = Printer {
            out: self.out,
            a,
            size: self.size(),
        };
        self.stop.store(false, Ordering::Relaxed);
        let (g, report) = self.engine.genmove(a.color, Mode::Normal, &self.stop);
        printer.progress(&report);
        self.genmove_text(g)
    }
}

/// The arguments of an analysis command.
struct Analysis {
    color: Color,
    interval: Duration,
    kata: bool,
    ownership: bool,
    min_moves: usize,
    max_moves: usize,
}

impl Analysis {
    fn parse(args: &[&str], to_move: Color, kata: bool) -> Result<Analysis, String> {
        let mut a = Analysis {
            color: to_move,
            interval: Duration::from_millis(1000),
            kata,
            ownership: false,
            min_moves: 0,
            max_moves: 50,
        };
        let mut i = 0;
        if let Some(c) = args.first().and_then(|s| color_arg(s).ok()) {
            a.color = c;
            i += 1;
        }
        if let Some(cs) = args.get(i).and_then(|s| s.parse::<u64>().ok()) {
            a.interval = Duration::from_millis(cs * 10);
            i += 1;
        }
        while i < args.len() {
            let key = args[i];
            let val = args.get(i + 1).copied().ok_or("syntax error")?;
            match key {
                "interval" => {
                    a.interval =
                        Duration::from_millis(val.parse::<u64>().map_err(|_| "syntax error")? * 10)
                }
                "ownership" => a.ownership = val == "true",
                "minmoves" => a.min_moves = val.parse().map_err(|_| "syntax error")?,
                "maxmoves" => a.max_moves = val.parse().map_err(|_| "syntax error")?,
                // Restrictions we do not implement are accepted and ignored, as KataGo does.
                "allow" | "avoid" => {
                    // `avoid COLOR VERTICES UNTILDEPTH`: skip the three values.
                    i += 2;
                }
                _ => {}
            }
            i += 2;
        }
        a.interval = a.interval.max(Duration::from_millis(10));
        Ok(a)
    }
}

/// Prints analysis lines as Leela Zero and KataGo write them.
struct Printer<'a, W: Write + Send> {
    out: &'a Mutex<W>,
    a: &'a Analysis,
    size: usize,
}

impl<W: Write + Send> Watcher for Printer<'_, W> {
    fn progress(&self, r: &Report) {
        let mut line = String::new();
        let shown = r
            .moves
            .iter()
            .enumerate()
            .filter(|(i, m)| m.visits > 0 || *i < self.a.min_moves)
            .take(self.a.max_moves.max(1));
        for (order, m) in shown {
            let wr = m.win_rate.clamp(0.0, 1.0);
            let n = m.visits.max(1) as f32;
            let lcb = (wr - 1.96 * (wr * (1.0 - wr) / n).sqrt()).clamp(0.0, 1.0);
            let pv: Vec<String> =
                m.pv.iter()
                    .map(|&v| vertex_name(self.size, v as Vertex))
                    .collect();
            let mv = vertex_name(self.size, m.mv as Vertex);
            if !line.is_empty() {
                line.push(' ');
            }
            if self.a.kata {
                line += &format!(
                    "info move {mv} visits {} utility {:.6} winrate {:.6} prior {:.6} lcb {:.6} order {order} pv {}",
                    m.visits,
                    2.0 * wr - 1.0,
                    wr,
                    m.prior,
                    lcb,
                    pv.join(" ")
                );
            } else {
                line += &format!(
                    "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                    m.visits,
                    (wr * 10000.0).round() as u32,
                    (m.prior * 10000.0).round() as u32,
                    (lcb * 10000.0).round() as u32,
                    pv.join(" ")
                );
            }
        }
        if self.a.kata && self.a.ownership {
            // From the side to move's view, row by row from the top left.
            let sign = if self.a.color == Color::Black {
                1.0
            } else {
                -1.0
            };
            let vals: Vec<String> = (0..self.size)
                .flat_map(|y| (0..self.size).map(move |x| Board::vertex_of(x, y)))
                .map(|v| {
                    format!(
                        "{:.4}",
                        sign * r.ownership.get(v as usize).copied().unwrap_or(0.0)
                    )
                })
                .collect();
            line += &format!(" ownership {}", vals.join(" "));
        }
        if line.is_empty() {
            return;
        }
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        send_text(&mut *out, &format!("{line}\n"));
    }
}
