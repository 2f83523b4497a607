//! `tengen match`: plays Gomocup brains against each other and referees the games with
//! Tengen's own rules (fouls, exact fives, captures), as the Gomocup judge would: an
//! illegal move, a foul, a bad reply or a move over `timeout_turn` + 1 s loses.
//!
//! Each opening is played twice with the colours swapped; brains are started afresh for
//! every game, get the position with `BOARD` on their first move and `TURN` after that.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::core::error::Point;
use crate::core::zobrist::splitmix64;
use crate::core::{Color, RuleError};
use crate::games::fiar::{Board, Move, Outcome, Variant};

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    /// Each brain's command line (program and arguments).
    pub engines: [Vec<String>; 2],
    pub variant: Variant,
    pub size: usize,
    pub games: usize,
    pub turn_ms: u64,
    /// Stones in each random opening (placed near the centre, black first).
    pub opening_stones: usize,
    pub seed: u64,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Game {
    pub number: usize,
    /// Which engine (0 or 1) played black.
    pub black: usize,
    /// The winning engine, or `None` for a draw.
    pub winner: Option<usize>,
    pub reason: String,
    pub moves: Vec<Point>,
    /// Each engine's slowest move.
    pub slowest: [Duration; 2],
}

/// Wins, losses and draws of engine 0, and what they mean.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub wins: usize,
    pub losses: usize,
    pub draws: usize,
}

impl Tally {
    pub fn add(&mut self, g: &Game) {
        match g.winner {
            Some(0) => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    pub fn games(&self) -> usize {
        self.wins + self.losses + self.draws
    }

    /// Engine 0's score, 0..=1.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Elo difference and its 95% margin (normal approximation over game results).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score().clamp(0.001, 0.999);
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |x: f64| -400.0 * (1.0 / x - 1.0).log10();
        let lo = elo((s - 1.96 * se).clamp(0.001, 0.999));
        let hi = elo((s + 1.96 * se).clamp(0.001, 0.999));
        (elo(s), (hi - lo) / 2.0)
    }
}

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Starts an engine process with its stdout read by a thread into a channel of lines,
/// those `keep` accepts; stderr is dropped.
pub(crate) fn spawn_engine(
    cmd: &[String],
    keep: fn(&str) -> bool,
) -> Result<(Child, ChildStdin, Receiver<String>), String> {
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cmd[0]))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            let Ok(l) = l else { break };
            if keep(&l) && tx.send(l).is_err() {
                break;
            }
        }
    });
    Ok((child, stdin, lines))
}

/// Gives an engine told to quit half a second to exit, then kills it.
pub(crate) fn reap(child: &mut Child) {
    let end = Instant::now() + Duration::from_millis(500);
    while Instant::now() < end {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// One game's line of a match report, with the running score.
pub fn game_line(g: &Game, t: &Tally) -> String {
    let result = match g.winner {
        Some(w) => format!("engine{} wins", w + 1),
        None => "draw".to_string(),
    };
    let moves = if g.moves.is_empty() {
        String::new()
    } else {
        format!(" {} moves,", g.moves.len())
    };
    let (elo, margin) = t.elo();
    format!(
        "game {:>3}: engine{} black,{moves} {result} ({}); slowest {} / {} ms; running +{} ={} -{} elo {:+.0} ± {:.0}",
        g.number + 1,
        g.black + 1,
        g.reason,
        g.slowest[0].as_millis(),
        g.slowest[1].as_millis(),
        t.wins,
        t.draws,
        t.losses,
        elo,
        margin
    )
}

impl Brain {
    fn start(cmd: &[String]) -> Result<Brain, String> {
        // Gomocup chatter (MESSAGE, DEBUG, SUGGEST) and blank lines are not replies.
        let (child, stdin, lines) = spawn_engine(cmd, |l| {
            let t = l.trim().to_ascii_uppercase();
            !t.is_empty()
                && !["MESSAGE", "DEBUG", "SUGGEST"]
                    .iter()
                    .any(|p| t.starts_with(p))
        })?;
        Ok(Brain {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) {
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    fn reply(&self, timeout: Duration) -> Option<String> {
        self.lines
            .recv_timeout(timeout)
            .ok()
            .map(|l| l.trim().to_string())
    }

    fn stop(mut self) {
        self.send("END");
        reap(&mut self.child);
    }
}

/// A random opening of `n` stones around the centre that leaves the game open.
pub fn opening(variant: Variant, size: usize, n: usize, seed: u64) -> Vec<Point> {
    let mut state = seed;
    let mut next = |m: u64| {
        let (s, v) = splitmix64(state);
        state = s;
        v % m
    };
    loop {
        let mut b = Board::with_size(variant, size, size).expect("size checked by the caller");
        let c = b.centre();
        let mut stones = Vec::new();
        for _ in 0..n {
            let x = c.x as i64 + next(7) as i64 - 3;
            let y = c.y as i64 + next(7) as i64 - 3;
            if let Ok(p) = b.point(x, y)
                && b.play_any_opening(Move::Place(p)).is_ok()
            {
                stones.push(p);
            }
        }
        if stones.len() == n && b.outcome() == Outcome::Ongoing {
            return stones;
        }
    }
}

fn fields(board_moves: &[Point], me: Color) -> Vec<String> {
    board_moves
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            format!("{},{},{}", p.x, p.y, if c == me { 1 } else { 2 })
        })
        .collect()
}

fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Plays game `number` (0-based): opening `number / 2`, colours swapped on odd numbers.
pub fn play_game(cfg: &Config, number: usize) -> Result<Game, String> {
    let open = opening(
        cfg.variant,
        cfg.size,
        cfg.opening_stones,
        cfg.seed ^ (number / 2) as u64,
    );
    let black = number % 2;
    let mut brains = Vec::new();
    for cmd in &cfg.engines {
        let mut b = Brain::start(cmd)?;
        b.send(&format!("INFO timeout_turn {}", cfg.turn_ms));
        b.send("INFO timeout_match 0");
        b.send("INFO max_memory 350000000");
        b.send("INFO game_type 1");
        match cfg.variant {
            Variant::Freestyle => b.send("INFO rule 0"),
            Variant::Standard => b.send("INFO rule 1"),
            Variant::Renju => b.send("INFO rule 4"),
            Variant::Caro => b.send("INFO rule 8"),
            v => b.send(&format!("INFO variant {v}")),
        }
        b.send(&format!("START {}", cfg.size));
        match b.reply(Duration::from_secs(10)) {
            Some(l) if l.eq_ignore_ascii_case("OK") => {}
            other => return Err(format!("{} answered START with {other:?}", cmd[0])),
        }
        brains.push(b);
    }
    let mut board = Board::with_size(cfg.variant, cfg.size, cfg.size).map_err(|e| e.to_string())?;
    let mut moves: Vec<Point> = Vec::new();
    for &p in &open {
        board
            .play_any_opening(Move::Place(p))
            .map_err(|e| e.to_string())?;
        moves.push(p);
    }
    let mut synced = [false; 2];
    let mut slowest = [Duration::ZERO; 2];
    let engine_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let (winner, reason) = loop {
        let color = board.to_move();
        let e = engine_of(color);
        let brain = &mut brains[e];
        if synced[e] {
            let last = moves.last().expect("a move was played");
            brain.send(&format!("TURN {},{}", last.x, last.y));
        } else {
            brain.send("BOARD");
            for f in fields(&moves, color) {
                brain.send(&f);
            }
            brain.send("DONE");
            synced[e] = true;
        }
        let t = Instant::now();
        let reply = brain.reply(Duration::from_millis(cfg.turn_ms + 3000));
        let took = t.elapsed();
        slowest[e] = slowest[e].max(took);
        let Some(reply) = reply else {
            break (Some(1 - e), format!("{color} sent no move"));
        };
        if took > Duration::from_millis(cfg.turn_ms + 1000) {
            break (Some(1 - e), format!("{color} took {} ms", took.as_millis()));
        }
        let Some((x, y)) = parse_move(&reply) else {
            break (Some(1 - e), format!("{color} replied '{reply}'"));
        };
        let verdict = board
            .point(x, y)
            .and_then(|p| board.referee(Move::Place(p)).map(|o| (p, o)));
        match verdict {
            Err(err @ RuleError::OffBoard { .. }) | Err(err @ RuleError::Occupied(_)) => {
                break (Some(1 - e), format!("{color}: {err}"));
            }
            Err(err) => break (Some(1 - e), format!("{color}: {err}")),
            Ok((p, outcome)) => {
                moves.push(p);
                match outcome {
                    Outcome::Ongoing => {}
                    Outcome::Win { winner, .. } => {
                        break (Some(engine_of(winner)), outcome.to_string());
                    }
                    Outcome::Draw(_) => break (None, outcome.to_string()),
                }
            }
        }
    };
    for b in brains {
        b.stop();
    }
    Ok(Game {
        number,
        black,
        winner,
        reason,
        moves,
        slowest,
    })
}
