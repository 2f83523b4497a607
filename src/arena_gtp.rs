//! `tengen match --game go|gana`: plays two GTP engines against each other, as
//! gogui-twogtp does: the referee keeps the game under Tengen's rules (an illegal move
//! loses), asks for moves with genmove and passes them on with play, alternates
//! colours; Go games ended by two passes are scored by the judge engine's final_score
//! (the second engine's unless another is named), Gana games end by its own rules.

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crate::arena::{Game as Played, Tally};
use crate::core::Color;
use crate::games::go::{Game, Rules, parse_vertex, record, vertex_name};

/// Which game the engines play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GtpGame {
    Go,
    Gana,
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    pub game: GtpGame,
    pub engines: [Vec<String>; 2],
    /// The engine that scores finished games; `None`: the second engine.
    pub judge: Option<Vec<String>>,
    pub size: usize,
    pub komi: f32,
    pub rules: Rules,
    pub games: usize,
    /// Each engine's seconds per move, sent as byo-yomi of one stone per period (they
    /// differ in a time-odds match).
    pub move_secs: [f64; 2],
    /// Directory for the record of every game (SGF for Go, moves for Gana).
    pub sgf_dir: Option<String>,
}

struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(cmd: &[String]) -> Result<Engine, String> {
        let (child, stdin, lines) = crate::arena::spawn_engine(cmd, |_| true)?;
        Ok(Engine {
            name: cmd[0].clone(),
            child,
            stdin,
            lines,
        })
    }

    /// Asks for `color`'s move. An engine gets three times the move time and ten
    /// seconds more before its silence loses the game; the slowest answer is kept.
    fn genmove(
        &mut self,
        color: Color,
        per_move: Duration,
        slowest: &mut Duration,
    ) -> Result<String, String> {
        let start = Instant::now();
        let reply = self.ask(
            &format!("genmove {}", color.name()),
            per_move * 3 + Duration::from_secs(10),
        );
        *slowest = (*slowest).max(start.elapsed());
        reply
    }

    /// Sends a command and returns the response text (`Ok` for `=`, `Err` for `?`).
    fn ask(&mut self, cmd: &str, timeout: Duration) -> Result<String, String> {
        writeln!(self.stdin, "{cmd}").map_err(|e| format!("{}: {e}", self.name))?;
        let _ = self.stdin.flush();
        let end = Instant::now() + timeout;
        let mut text = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| format!("{}: no answer to '{cmd}' in time", self.name))?;
            if line.trim().is_empty() {
                if text.is_empty() {
                    continue;
                }
                break;
            }
            text.push(line);
        }
        let all = text.join("\n");
        let body = all.get(1..).unwrap_or("").trim().to_string();
        match all.chars().next() {
            Some('=') => Ok(body),
            Some('?') => Err(format!("{}: '{cmd}' failed: {body}", self.name)),
            _ => Err(format!("{}: bad answer to '{cmd}': {all}", self.name)),
        }
    }

    fn quit(mut self) {
        let _ = self.ask("quit", Duration::from_secs(2));
        crate::arena::reap(&mut self.child);
    }
}

/// Black's points minus white's from a result text (`B+3.5`, `W+R`, `0`).
fn parse_result(text: &str) -> Option<f32> {
    let t = text.trim();
    if t == "0" || t.eq_ignore_ascii_case("draw") {
        return Some(0.0);
    }
    let (side, margin) = t.split_once('+')?;
    let m: f32 = if margin.eq_ignore_ascii_case("R") || margin.is_empty() {
        1000.0
    } else {
        margin.parse().ok()?
    };
    match side {
        "B" | "b" => Some(m),
        "W" | "w" => Some(-m),
        _ => None,
    }
}

/// Plays game `number` (0-based) of Gana; engine 0 is white (the first to move) in even
/// games.
fn play_gana_game(cfg: &Config, number: usize) -> Result<Played, String> {
    use crate::games::gana::{Board as Gana, Outcome};
    let white = number % 2;
    let per_move = cfg.move_secs.map(Duration::from_secs_f64);
    let mut engines = Vec::new();
    for (cmd, secs) in cfg.engines.iter().zip(cfg.move_secs) {
        let mut e = Engine::start(cmd)?;
        e.ask("clear_board", Duration::from_secs(10))?;
        // Gana engines are ours: fractions of a second are understood.
        let _ = e.ask(
            &format!("time_settings 0 {secs} 1"),
            Duration::from_secs(10),
        );
        engines.push(e);
    }
    let mut board = Gana::start();
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    let mut slowest = [Duration::ZERO; 2];
    let mut plies = 0;
    let mut played: Vec<String> = Vec::new();
    let (winner, reason) = loop {
        match board.outcome() {
            Outcome::Win(c) => {
                break (
                    Some(engine_of(c)),
                    format!("{} after {plies} plies", board.outcome()),
                );
            }
            Outcome::Draw(_) => break (None, format!("{} after {plies} plies", board.outcome())),
            Outcome::Ongoing => {}
        }
        plies += 1;
        let color = board.to_move();
        let e = engine_of(color);
        let reply = engines[e].genmove(color, per_move[e], &mut slowest[e]);
        let text = match reply {
            Ok(t) => t,
            Err(err) => break (Some(1 - e), format!("{} loses: {err}", color.name())),
        };
        let m = match board.parse_move(&text) {
            Ok(m) => m,
            Err(err) => {
                break (
                    Some(1 - e),
                    format!("{} played '{text}': {err}", color.name()),
                );
            }
        };
        if let Err(err) = board.play(m) {
            break (
                Some(1 - e),
                format!("{} played '{text}': {err}", color.name()),
            );
        }
        engines[1 - e].ask(
            &format!("play {} {text}", color.name()),
            Duration::from_secs(10),
        )?;
        played.push(text);
    };
    if let Some(dir) = &cfg.sgf_dir {
        // A record `tengen analyse --game gana` reads: the start position's text, the
        // moves below it for `--moves`.
        let header = format!(
            "# game {}: white {}, black {}; {reason}\n{}\n# moves\n",
            number + 1,
            engines[white].name,
            engines[1 - white].name,
            Gana::start().to_text().unwrap_or_default(),
        );
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(
            format!("{dir}/game-{:03}.txt", number + 1),
            header + &played.join(" ") + "\n",
        );
    }
    for e in engines {
        e.quit();
    }
    Ok(Played {
        number,
        black: 1 - white,
        winner,
        reason,
        moves: Vec::new(),
        slowest,
    })
}

/// Plays game `number` (0-based); engine 0 is black in even games (white in Gana).
pub fn play_game(cfg: &Config, number: usize) -> Result<Played, String> {
    if cfg.game == GtpGame::Gana {
        return play_gana_game(cfg, number);
    }
    let black = number % 2;
    let mut engines = Vec::new();
    let per_move = cfg.move_secs.map(Duration::from_secs_f64);
    for (cmd, secs) in cfg.engines.iter().zip(cfg.move_secs) {
        let mut e = Engine::start(cmd)?;
        e.ask(&format!("boardsize {}", cfg.size), Duration::from_secs(10))?;
        e.ask("clear_board", Duration::from_secs(10))?;
        e.ask(&format!("komi {}", cfg.komi), Duration::from_secs(10))?;
        // Byo-yomi of one stone per period: a fixed time per move.
        let _ = e.ask(
            &format!("time_settings 0 {} 1", secs.ceil() as u64),
            Duration::from_secs(10),
        );
        engines.push(e);
    }
    let mut game = Game::new(cfg.size, cfg.rules).map_err(|e| e.to_string())?;
    game.set_komi(cfg.komi);
    let mut slowest = [Duration::ZERO; 2];
    let engine_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let cap = cfg.size * cfg.size * 3;
    let result: Result<(Option<usize>, String), String> = loop {
        if game.is_over() {
            break Ok((None, String::new()));
        }
        if game.moves().len() >= cap {
            break Ok((None, "move limit".into()));
        }
        let color = game.to_move();
        let e = engine_of(color);
        let reply = engines[e].genmove(color, per_move[e], &mut slowest[e]);
        let text = match reply {
            Ok(t) => t,
            Err(err) => break Ok((Some(1 - e), format!("{} loses: {err}", color.name()))),
        };
        if text.eq_ignore_ascii_case("resign") {
            break Ok((Some(1 - e), format!("{} resigns", color.name())));
        }
        let v = match parse_vertex(cfg.size, &text) {
            Ok(v) => v,
            Err(_) => break Ok((Some(1 - e), format!("{} answered '{text}'", color.name()))),
        };
        if let Err(err) = game.play(color, v) {
            break Ok((
                Some(1 - e),
                format!("{} played {text}: {err}", color.name()),
            ));
        }
        let other = &mut engines[1 - e];
        if let Err(err) = other.ask(
            &format!("play {} {}", color.name(), vertex_name(cfg.size, v)),
            Duration::from_secs(10),
        ) {
            break Err(err);
        }
    };
    let (mut winner, mut reason) = result?;
    if winner.is_none() {
        // Two passes (or the move limit): the judge scores.
        let score = match &cfg.judge {
            Some(cmd) => {
                let mut j = Engine::start(cmd)?;
                j.ask(&format!("boardsize {}", cfg.size), Duration::from_secs(10))?;
                j.ask("clear_board", Duration::from_secs(10))?;
                j.ask(&format!("komi {}", cfg.komi), Duration::from_secs(10))?;
                for &(c, v) in game.moves() {
                    j.ask(
                        &format!("play {} {}", c.name(), vertex_name(cfg.size, v)),
                        Duration::from_secs(10),
                    )?;
                }
                let s = j.ask("final_score", Duration::from_secs(120));
                j.quit();
                s?
            }
            None => engines[1].ask("final_score", Duration::from_secs(120))?,
        };
        let s = parse_result(&score).ok_or(format!("judge's score '{score}'"))?;
        winner = if s > 0.0 {
            Some(engine_of(Color::Black))
        } else if s < 0.0 {
            Some(engine_of(Color::White))
        } else {
            None
        };
        reason = format!(
            "{score} by the judge{}",
            if reason.is_empty() {
                String::new()
            } else {
                format!(" ({reason})")
            }
        );
    }
    if let Some(dir) = &cfg.sgf_dir {
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(
            format!("{dir}/game-{:03}.sgf", number + 1),
            record::write(&game),
        );
    }
    for e in engines {
        e.quit();
    }
    Ok(Played {
        number,
        black,
        winner,
        reason,
        moves: Vec::new(),
        slowest,
    })
}

/// Plays the match, printing each game and the running score; returns the tally.
pub fn run(cfg: &Config, mut print: impl FnMut(&str)) -> Result<Tally, String> {
    let mut t = Tally::default();
    for n in 0..cfg.games {
        let g = play_game(cfg, n)?;
        t.add(&g);
        print(&crate::arena::game_line(&g, &t));
    }
    Ok(t)
}
