//! The two protocols a referee speaks to engines: Gomocup (five-in-a-row brains) and GTP
//! (Go and Gana). Everything else about a game — rules, clocks, records — is shared.

use std::time::{Duration, Instant};

use super::GameKind;
use super::clock::{Clock, Tc};
use super::engine::{Fault, Process, Spec};
use crate::core::Color;

/// How long an engine may take over anything but a move (starting, being told a move).
pub const SETUP_TIME: Duration = Duration::from_secs(10);

/// An engine in a game, whatever its protocol.
pub trait Player: Send {
    /// Sends the game's settings and waits for the engine to be ready.
    fn start(&mut self, game: &GameKind, tc: &Tc) -> Result<(), Fault>;
    /// Asks for `color`'s move after `moves` (the whole game in this protocol's move
    /// text, opening included; the engine is told those it has not seen). The answer
    /// must come by `deadline`.
    fn genmove(
        &mut self,
        moves: &[(Color, String)],
        color: Color,
        clock: &Clock,
        deadline: Instant,
    ) -> Result<String, Fault>;
    /// The engine's score of the finished game `moves` (`final_score`; GTP only).
    fn final_score(&mut self, moves: &[(Color, String)]) -> Result<String, Fault> {
        let _ = moves;
        Err(Fault::Bad("cannot score a game".into()))
    }
    /// Ends the engine's process.
    fn quit(self: Box<Self>);
    /// Kills the process at once (after a fault).
    fn kill(self: Box<Self>);
}

/// Starts `spec`'s engine for `game`.
pub fn start(spec: &Spec, game: &GameKind) -> Result<Box<dyn Player>, Fault> {
    let process = Process::start(&spec.cmd, spec.dir.as_deref())?;
    Ok(match game {
        GameKind::Fiar { .. } => Box::new(Gomocup {
            p: process,
            spec: spec.clone(),
            told: 0,
        }),
        _ => Box::new(Gtp {
            p: process,
            spec: spec.clone(),
            told: 0,
            known: Vec::new(),
        }),
    })
}

/// A Gomocup brain, as Piskvork and c-gomoku-cli drive one: `INFO` settings, `START` (or
/// `RECTSTART`), the position with `BOARD` when the brain has not followed the game move
/// by move, `TURN` with the opponent's last move when it has.
struct Gomocup {
    p: Process,
    spec: Spec,
    /// Moves of the game the brain knows.
    told: usize,
}

impl Gomocup {
    /// The brain's next answer that is not chatter (MESSAGE, DEBUG, SUGGEST, blank).
    fn answer(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            let l = self.p.line(deadline)?;
            let t = l.trim();
            let upper = t.to_ascii_uppercase();
            if t.is_empty()
                || ["MESSAGE", "DEBUG", "SUGGEST"]
                    .iter()
                    .any(|p| upper.starts_with(p))
            {
                continue;
            }
            if upper.starts_with("ERROR") || upper.starts_with("UNKNOWN") {
                return Err(Fault::Bad(format!("answered '{}'", shown(t))));
            }
            return Ok(t.to_string());
        }
    }
}

/// An engine's line as quoted in a reason: at most 60 characters.
pub(super) fn shown(t: &str) -> String {
    let mut s: String = t.chars().take(60).collect();
    if t.chars().count() > 60 {
        s.push('…');
    }
    s
}

impl Player for Gomocup {
    fn start(&mut self, game: &GameKind, tc: &Tc) -> Result<(), Fault> {
        let GameKind::Fiar {
            variant,
            width,
            height,
        } = *game
        else {
            return Err(Fault::Bad(
                "a Gomocup brain plays five-in-a-row only".into(),
            ));
        };
        let Tc::Gomocup {
            match_ms, turn_ms, ..
        } = *tc
        else {
            return Err(Fault::Bad("a Gomocup brain needs tc=match/turn+inc".into()));
        };
        let mut lines = vec![
            format!("INFO timeout_turn {turn_ms}"),
            format!("INFO timeout_match {match_ms}"),
            format!(
                "INFO time_left {}",
                if match_ms > 0 {
                    match_ms
                } else {
                    2_147_483_647
                }
            ),
            "INFO max_memory 350000000".to_string(),
            "INFO game_type 1".to_string(),
        ];
        lines.push(match variant.gomocup_rule() {
            Some(r) => format!("INFO rule {r}"),
            None => format!("INFO variant {variant}"),
        });
        if let Some(t) = self.spec.threads {
            lines.push(format!("INFO thread_num {t}"));
        }
        if let Some(d) = self.spec.depth {
            lines.push(format!("INFO max_depth {d}"));
        }
        if let Some(n) = self.spec.nodes {
            lines.push(format!("INFO max_node {n}"));
        }
        for (k, v) in &self.spec.options {
            lines.push(format!("INFO {k} {v}"));
        }
        lines.push(if width == height {
            format!("START {width}")
        } else {
            format!("RECTSTART {width},{height}")
        });
        for l in &lines {
            self.p.send(l)?;
        }
        let a = self.answer(Instant::now() + SETUP_TIME)?;
        if a.eq_ignore_ascii_case("OK") {
            Ok(())
        } else {
            Err(Fault::Bad(format!("answered START with '{}'", shown(&a))))
        }
    }

    fn genmove(
        &mut self,
        moves: &[(Color, String)],
        color: Color,
        clock: &Clock,
        deadline: Instant,
    ) -> Result<String, Fault> {
        if let Tc::Gomocup { match_ms, .. } = clock.tc
            && match_ms > 0
        {
            self.p.send(&format!("INFO time_left {}", clock.main_ms))?;
        }
        if self.told > 0 && self.told + 1 == moves.len() {
            let (_, last) = moves.last().expect("one move at least");
            self.p.send(&format!("TURN {last}"))?;
        } else if moves.is_empty() {
            self.p.send("BEGIN")?;
        } else {
            self.p.send("BOARD")?;
            for (c, m) in moves {
                self.p
                    .send(&format!("{m},{}", if *c == color { 1 } else { 2 }))?;
            }
            self.p.send("DONE")?;
        }
        let a = self.answer(deadline)?;
        self.told = moves.len() + 1;
        Ok(a)
    }

    fn quit(mut self: Box<Self>) {
        let _ = self.p.send("END");
        self.p.reap();
    }

    fn kill(self: Box<Self>) {
        self.p.kill();
    }
}

/// A GTP engine: Go or Gana.
struct Gtp {
    p: Process,
    spec: Spec,
    told: usize,
    /// Commands it says it knows (`list_commands`).
    known: Vec<String>,
}

impl Gtp {
    /// Sends a command and returns its answer's text: `Ok` for `=`, `Fault::Bad` for
    /// `?` or an answer that is not GTP.
    fn ask(&mut self, cmd: &str, deadline: Instant) -> Result<String, Fault> {
        self.p.send(cmd)?;
        let mut text: Vec<String> = Vec::new();
        loop {
            let line = self.p.line(deadline)?;
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
            Some('?') => Err(Fault::Bad(format!(
                "'{}' failed: {}",
                shown(cmd),
                shown(&body)
            ))),
            _ => Err(Fault::Bad(format!(
                "answered '{}' to '{}'",
                shown(&all),
                shown(cmd)
            ))),
        }
    }

    /// Tells the engine the moves of `moves` it has not seen.
    fn catch_up(&mut self, moves: &[(Color, String)]) -> Result<(), Fault> {
        for (c, m) in &moves[self.told.min(moves.len())..] {
            self.ask(
                &format!("play {} {m}", c.name()),
                Instant::now() + SETUP_TIME,
            )?;
        }
        self.told = moves.len();
        Ok(())
    }

    fn knows(&self, cmd: &str) -> bool {
        self.known.iter().any(|k| k == cmd)
    }

    /// A setting the engine may not support: refused is fine, a crash is not.
    fn try_ask(&mut self, cmd: &str) -> Result<(), Fault> {
        match self.ask(cmd, Instant::now() + SETUP_TIME) {
            Err(Fault::Bad(_)) | Ok(_) => Ok(()),
            Err(f) => Err(f),
        }
    }
}

impl Player for Gtp {
    fn start(&mut self, game: &GameKind, tc: &Tc) -> Result<(), Fault> {
        let soon = || Instant::now() + SETUP_TIME;
        self.known = self
            .ask("list_commands", soon())
            .unwrap_or_default()
            .lines()
            .map(|l| l.trim().to_string())
            .collect();
        if let GameKind::Go {
            size,
            komi,
            rules,
            handicap,
        } = game
        {
            self.ask(&format!("boardsize {size}"), soon())?;
            self.ask("clear_board", soon())?;
            self.ask(&format!("komi {komi}"), soon())?;
            if self.knows("kgs-rules") {
                self.try_ask(&format!(
                    "kgs-rules {}",
                    rules.to_string().replace('-', "_")
                ))?;
            }
            if *handicap > 0 {
                let stones = crate::games::go::fixed_handicap(*size, *handicap)
                    .map_err(|e| Fault::Bad(e.to_string()))?;
                let names: Vec<String> = stones
                    .iter()
                    .map(|&v| crate::games::go::vertex_name(*size, v))
                    .collect();
                self.ask(&format!("set_free_handicap {}", names.join(" ")), soon())?;
            }
        } else {
            self.ask("clear_board", soon())?;
        }
        if self.knows("kgs-time_settings") {
            self.try_ask(&format!("kgs-time_settings {}", tc.kgs_time_settings()))?;
        } else {
            self.try_ask(&format!("time_settings {}", tc.time_settings()))?;
        }
        if let Some(t) = self.spec.threads
            && self.knows("tengen-threads")
        {
            self.try_ask(&format!("tengen-threads {t}"))?;
        }
        if let Some(n) = self.spec.playouts
            && self.knows("tengen-playouts")
        {
            self.try_ask(&format!("tengen-playouts {n}"))?;
        }
        for (k, v) in self.spec.options.clone() {
            self.try_ask(&format!("{k} {v}"))?;
        }
        Ok(())
    }

    fn genmove(
        &mut self,
        moves: &[(Color, String)],
        color: Color,
        clock: &Clock,
        deadline: Instant,
    ) -> Result<String, Fault> {
        self.catch_up(moves)?;
        if self.knows("time_left") {
            self.try_ask(&format!("time_left {} {}", color.name(), clock.time_left()))?;
        }
        let a = self.ask(&format!("genmove {}", color.name()), deadline)?;
        self.told += 1;
        Ok(a)
    }

    fn final_score(&mut self, moves: &[(Color, String)]) -> Result<String, Fault> {
        self.catch_up(moves)?;
        self.ask("final_score", Instant::now() + Duration::from_secs(120))
    }

    fn quit(mut self: Box<Self>) {
        let _ = self.ask("quit", Instant::now() + Duration::from_secs(2));
        self.p.reap();
    }

    fn kill(self: Box<Self>) {
        self.p.kill();
    }
}
