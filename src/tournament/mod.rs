//! `tengen tournament`: engine-vs-engine tournaments for every game Tengen knows —
//! five-in-a-row brains over Gomocup, Go and Gana engines over GTP — refereed by
//! Tengen's own rules, several games at once, with a durable results file that resumes
//! and merges across shards, records, a crosstable, and an SPRT.
//!
//! schedule: which games; openings: the books; referee (over players and clock): one
//! game; results: the file; stats and report: what the games say.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod fake;
pub mod openings;
pub mod players;
pub mod referee;
pub mod report;
pub mod results;
pub mod schedule;
pub mod stats;

use std::collections::VecDeque;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use clock::Tc;
use engine::Spec;
use openings::Opening;
use results::{GameLine, Header, Writer};
use schedule::{Schedule, Shard, Slot};
use serde_json::json;
use stats::{Sprt, Verdict};

use crate::games::fiar::Variant;
use crate::games::go::Rules;

/// The game of a tournament, with its board and rules.
#[derive(Clone, Debug, PartialEq)]
pub enum GameKind {
    Fiar {
        variant: Variant,
        width: usize,
        height: usize,
    },
    Go {
        size: usize,
        komi: f32,
        rules: Rules,
        handicap: usize,
    },
    Gana,
}

impl GameKind {
    fn describe(&self) -> serde_json::Value {
        match self {
            GameKind::Fiar {
                variant,
                width,
                height,
            } => {
                json!({"game": "gomoku", "variant": variant.to_string(), "width": width, "height": height})
            }
            GameKind::Go {
                size,
                komi,
                rules,
                handicap,
            } => {
                json!({"game": "go", "size": size, "komi": komi, "rules": rules.to_string(), "handicap": handicap})
            }
            GameKind::Gana => json!({"game": "gana"}),
        }
    }

    /// The colour of the engine that moves first in a game pair's first game (the
    /// game's first player: black, or white in Gana; with a Go handicap black still
    /// holds it, though white plays first).
    pub fn first_color(&self) -> crate::core::Color {
        match self {
            GameKind::Gana => crate::core::Color::White,
            _ => crate::core::Color::Black,
        }
    }

    /// The time control a `tc=` text means for this game's protocol.
    pub fn parse_tc(&self, text: &str) -> Result<Tc, String> {
        match self {
            GameKind::Fiar { .. } => Tc::gomocup(text),
            _ => Tc::gtp(text),
        }
    }
}

/// A whole tournament's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub kind: GameKind,
    pub engines: Vec<Spec>,
    pub schedule: Schedule,
    /// The book (or the random openings), each opening checked.
    pub openings: Vec<Opening>,
    /// Where the openings come from, for the results header.
    pub book: String,
    /// The time control of engines without their own `tc=`.
    pub tc: String,
    pub tolerance: Duration,
    pub max_plies: usize,
    pub judge: Option<Spec>,
    pub concurrency: usize,
    pub results: Option<PathBuf>,
    pub records: Option<PathBuf>,
    pub shard: Shard,
    pub sprt: Option<Sprt>,
    /// A crash or a stall stops the run (exit status 2) instead of losing the game.
    pub fatal_error: bool,
    /// The progress line on stderr (on a terminal only).
    pub progress: bool,
}

/// What a run did.
#[derive(Debug)]
pub struct Summary {
    /// Every finished game in the results, old and new.
    pub games: Vec<GameLine>,
    pub played_now: usize,
    pub sprt: Option<(f64, Verdict)>,
    /// The engine fault that stopped the run under `--fatal-error`.
    pub fatal: Option<String>,
    /// The runner's own CPU time over the engines' (both from /proc), when known.
    pub cpu_share: Option<f64>,
}

impl Config {
    /// Everything the games depend on: a resumed run must match it.
    pub fn settings(&self) -> serde_json::Value {
        let engines: Vec<_> = self
            .engines
            .iter()
            .map(|e| {
                json!({
                    "name": e.name, "cmd": e.cmd, "dir": e.dir, "threads": e.threads,
                    "options": e.options, "tc": e.tc.clone().unwrap_or(self.tc.clone()),
                    "depth": e.depth, "nodes": e.nodes, "playouts": e.playouts,
                    "tolerance_ms": e.tolerance.unwrap_or(self.tolerance).as_millis() as u64,
                })
            })
            .collect();
        let s = &self.schedule;
        json!({
            "game": self.kind.describe(),
            "engines": engines,
            "schedule": {
                "kind": format!("{:?}", s.kind), "games": s.games, "rounds": s.rounds,
                "repeat": s.repeat, "order": format!("{:?}", s.order), "symmetries": s.symmetries,
            },
            "openings": {"book": self.book, "count": self.openings.len(),
                         "key": format!("{:016x}", book_key(&self.openings))},
            "max_plies": self.max_plies,
            "judge": self.judge.as_ref().map(|j| j.cmd.clone()),
        })
    }

    fn validate(&self) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("a tournament needs two engines at least (--engine … --engine …)".into());
        }
        for (i, e) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|o| o.name == e.name) {
                return Err(format!(
                    "two engines are named '{}': give each a name=",
                    e.name
                ));
            }
            let tc = e.tc.as_deref().unwrap_or(&self.tc);
            self.kind
                .parse_tc(tc)
                .map_err(|err| format!("engine {}: {err}", e.name))?;
        }
        for e in self.engines.iter().chain(self.judge.iter()) {
            if !engine::runnable(&e.cmd[0], e.dir.as_deref()) {
                return Err(format!(
                    "engine {}: cannot run '{}' (no such program, or not executable)",
                    e.name, e.cmd[0]
                ));
            }
        }
        if self.schedule.repeat && !self.schedule.games.is_multiple_of(2) {
            return Err(format!(
                "--games {} with --repeat: an even number, each opening played twice",
                self.schedule.games
            ));
        }
        if self.sprt.is_some() && (self.engines.len() != 2 || !self.schedule.repeat) {
            return Err("--sprt is for two engines playing game pairs (--repeat)".into());
        }
        if self.concurrency == 0 {
            return Err("--concurrency 0: at least one game at a time".into());
        }
        Ok(())
    }
}

/// A key of the book's content, so that a resumed run notices an edited book.
fn book_key(openings: &[Opening]) -> u64 {
    let mut h = 0x5151_5151u64;
    for o in openings {
        for m in o.moves.iter().chain(o.position.iter()) {
            for b in m.bytes().chain([b';']) {
                h = crate::core::zobrist::splitmix64(h ^ b as u64).1;
            }
        }
        h = crate::core::zobrist::splitmix64(h ^ 0xff).1;
    }
    h
}

/// A finished game's line in the results.
fn line_of(cfg: &Config, slot: &Slot, opening: &Opening, p: &referee::Played) -> GameLine {
    let first = cfg.engines[slot.first].name.clone();
    let second = cfg.engines[slot.second].name.clone();
    let first_color = cfg.kind.first_color();
    let (black, white) = if first_color == crate::core::Color::Black {
        (first.clone(), second.clone())
    } else {
        (second.clone(), first.clone())
    };
    GameLine {
        game: slot.game,
        pair: slot.pair,
        round: slot.round,
        first,
        second,
        black,
        white,
        opening: opening.label.clone(),
        first_points: match p.ending.winner {
            None => 0.5,
            Some(c) if c == first_color => 1.0,
            Some(_) => 0.0,
        },
        result: p.ending.result.clone(),
        reason: p.ending.reason.clone(),
        plies: p.moves.len(),
        opening_plies: p.opening_plies,
        time_ms: p.used_ms,
        worst_ratio: p.worst_ratio.map(|r| (r * 1000.0).round() / 1000.0),
        moves: p.moves.iter().map(|(_, m)| m.clone()).collect(),
    }
}

/// Plays one scheduled game.
fn play_slot(cfg: &Config, slot: &Slot) -> Result<(Opening, referee::Played), String> {
    let base = cfg
        .openings
        .get(slot.opening)
        .cloned()
        .unwrap_or_else(openings::empty);
    let opening = base.transformed(&cfg.kind, slot.symmetry);
    let specs = [&cfg.engines[slot.first], &cfg.engines[slot.second]];
    let tc = specs.map(|s| {
        cfg.kind
            .parse_tc(s.tc.as_deref().unwrap_or(&cfg.tc))
            .expect("checked before the run")
    });
    let rules = referee::Rules {
        kind: &cfg.kind,
        tc,
        tolerance: specs.map(|s| s.tolerance.unwrap_or(cfg.tolerance)),
        max_plies: cfg.max_plies,
        judge: cfg.judge.as_ref(),
    };
    let played = referee::play(specs, &rules, &opening)?;
    Ok((opening, played))
}

/// CPU seconds of this process and of its reaped children, from /proc.
fn cpu_times() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command's closing parenthesis: utime is 14th, cutime 16th overall.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    let tick = 100.0;
    Some((
        (f.get(11)? + f.get(12)?) / tick,
        (f.get(13)? + f.get(14)?) / tick,
    ))
}

/// Runs the tournament; `emit` gets a line for every finished game.
pub fn run(cfg: &Config, mut emit: impl FnMut(&str)) -> Result<Summary, String> {
    cfg.validate()?;
    let header = Header {
        tengen_tournament: 1,
        settings: cfg.settings(),
        shard: format!("{}/{}", cfg.shard.index, cfg.shard.count),
    };
    let (mut writer, done) = match &cfg.results {
        Some(p) => {
            let (w, d) = Writer::open(p, &header)?;
            (Some(w), d)
        }
        None => (None, Default::default()),
    };
    if let Some(dir) = &cfg.records {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mine: Vec<Slot> = cfg
        .schedule
        .slots()
        .into_iter()
        .filter(|s| cfg.shard.holds(s))
        .collect();
    let total = mine.len();
    let todo: VecDeque<Slot> = mine
        .into_iter()
        .filter(|s| !done.contains_key(&s.game))
        .collect();
    let mut games: Vec<GameLine> = done.into_values().collect();
    let queue = Mutex::new(todo);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    let cpu0 = cpu_times();
    let mut played_now = 0;
    let mut fatal = None;
    let mut sprt_state = None;
    let progress = cfg.progress && std::io::stderr().is_terminal();
    std::thread::scope(|s| -> Result<(), String> {
        let mut workers = Vec::new();
        for _ in 0..cfg.concurrency {
            let (queue, stop, tx) = (&queue, &stop, tx.clone());
            workers.push(s.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let Some(slot) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                        return;
                    };
                    let r = play_slot(cfg, &slot);
                    // Wait for the game to be recorded (and the stop flag updated)
                    // before taking another: a decided SPRT or a fatal error must not
                    // start one more game.
                    let (ack, recorded) = mpsc::channel::<()>();
                    if tx.send((slot, r, ack)).is_err() {
                        return;
                    }
                    // The main thread drops `ack` when done with the game.
                    let _ = recorded.recv();
                }
            }));
        }
        drop(tx);
        let mut failure = None;
        for (slot, r, ack) in rx {
            // Dropped at the end of this turn of the loop: the worker goes on then.
            let _ack = ack;
            let (opening, played) = match r {
                Ok(x) => x,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(format!("game {}: {e}", slot.game + 1));
                    continue;
                }
            };
            let line = line_of(cfg, &slot, &opening, &played);
            if let Some(w) = writer.as_mut()
                && let Err(e) = w.append(&line)
            {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
            }
            if let Some(dir) = &cfg.records {
                let ext = if cfg.kind == GameKind::Gana {
                    "txt"
                } else {
                    "sgf"
                };
                let path = dir.join(format!("game-{:06}.{ext}", slot.game + 1));
                if let Err(e) = results::write_atomic(&path, &played.record) {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
            }
            played_now += 1;
            if cfg.fatal_error && (line.result.ends_with("+F") || line.result.ends_with("+T")) {
                stop.store(true, Ordering::Relaxed);
                fatal.get_or_insert(format!("game {}: {}", slot.game + 1, line.reason));
            }
            if progress {
                // The game's line replaces the progress line, which is drawn again below.
                eprint!("\r\x1b[2K");
            }
            emit(&format!(
                "game {} ({} vs {}, {}): {} {} in {} plies",
                slot.game + 1,
                line.first,
                line.second,
                line.opening,
                line.result,
                line.reason,
                line.plies
            ));
            games.push(line);
            let refs: Vec<&GameLine> = games.iter().collect();
            if let Some(sp) = &cfg.sprt {
                let t = report::tally(&refs, &cfg.engines[0].name, Some(&cfg.engines[1].name));
                let llr = sp.llr(&t.penta);
                let v = sp.verdict(llr);
                sprt_state = Some((llr, v));
                if v != Verdict::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if progress {
                let n = refs.len();
                let t = report::tally(&refs, &cfg.engines[0].name, None);
                let (elo, margin) = t.wdl.elo();
                let rate = started.elapsed().as_secs_f64() / played_now.max(1) as f64;
                let eta = (total.saturating_sub(n)) as f64 * rate / cfg.concurrency as f64;
                let mut l = format!(
                    "\r{n}/{total} games, {}: {:.1}%, elo {}",
                    cfg.engines[0].name,
                    100.0 * t.wdl.score(),
                    report::elo_text(t.wdl.score(), elo, margin)
                );
                if let Some((llr, _)) = sprt_state {
                    let (lo, hi) = cfg.sprt.expect("running").bounds();
                    l += &format!(", LLR {llr:.2} ({lo:.2}, {hi:.2})");
                }
                l += &format!(", ETA {:.0} s   ", eta);
                eprint!("{l}");
            }
        }
        for w in workers {
            let _ = w.join();
        }
        if progress {
            eprint!("\r\x1b[2K");
        }
        failure.map_or(Ok(()), Err)
    })?;
    games.sort_by_key(|g| g.game);
    let cpu_share = match (cpu0, cpu_times()) {
        (Some((s0, c0)), Some((s1, c1))) if c1 - c0 > 0.0 => Some((s1 - s0) / (c1 - c0)),
        _ => None,
    };
    Ok(Summary {
        games,
        played_now,
        sprt: sprt_state,
        fatal,
        cpu_share,
    })
}
