//! One game between two engines, refereed by Tengen's own rules: the same loop for
//! every game and protocol. A move that is illegal, malformed, late or missing loses,
//! and so does a crash; the reason is recorded.

use std::time::{Duration, Instant};

use super::GameKind;
use super::clock::{Clock, Tc};
use super::engine::{Fault, Spec};
use super::openings::Opening;
use super::players::{self, Player, shown};
use crate::core::Color;
use crate::core::error::Point;
use crate::games::fiar::{Board, Move, Outcome};
use crate::games::go::{self, Game as GoGame, parse_vertex, vertex_name};

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The winning colour, `None` for a draw.
    pub winner: Option<Color>,
    /// Why, in words (`five in a row`, `white: illegal move d4 ...`).
    pub reason: String,
    /// The SGF `RE` value (`B+R`, `W+3.5`, `0`, `B+T`, `W+F`).
    pub result: String,
}

/// A finished game, as it goes into the results file.
#[derive(Clone, Debug)]
pub struct Played {
    pub ending: Ending,
    /// Every move, opening included, in the protocol's move text.
    pub moves: Vec<(Color, String)>,
    /// Moves of the opening.
    pub opening_plies: usize,
    /// Time used by the first and the second engine, ms.
    pub used_ms: [u64; 2],
    /// Each engine's slowest move relative to what it was allowed.
    pub worst_ratio: [f64; 2],
    /// The game record (SGF, or Gana text).
    pub record: String,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// Not a move at all in this game's notation.
    Malformed(String),
    /// A move, but not a legal one here.
    Illegal(String),
}

impl std::fmt::Display for BadMove {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            BadMove::Malformed(w) => write!(f, "answered '{w}', which is not a move"),
            BadMove::Illegal(w) => write!(f, "illegal move {w}"),
        }
    }
}

/// The rules side of a game: which colour moves, whether a move is legal, when the
/// game is over.
pub trait Table {
    fn to_move(&self) -> Color;
    /// Plays `text` for the side to move; `Ok` with the move's canonical text.
    fn play(&mut self, text: &str) -> Result<String, BadMove>;
    /// Plays an opening move: like [`Table::play`], without the restrictions the rules
    /// put on the first moves of a game (a book may start anywhere).
    fn play_opening(&mut self, text: &str) -> Result<String, BadMove> {
        self.play(text)
    }
    fn ending(&mut self) -> Option<Ending>;
    /// The result when the move limit is reached.
    fn adjudicate(&mut self) -> Ending;
    fn record(&self, names: [&str; 2], first: usize, ending: &Ending) -> String;
}

fn result_of(winner: Option<Color>, how: &str) -> String {
    match winner {
        Some(Color::Black) => format!("B+{how}"),
        Some(Color::White) => format!("W+{how}"),
        None => "0".into(),
    }
}

/// SGF game information after the root's first `;`.
fn with_info(sgf: String, names: [&str; 2], black: usize, ending: &Ending) -> String {
    let info = format!(
        "PB[{}]PW[{}]RE[{}]GC[{}]",
        crate::core::sgf::escape(names[black]),
        crate::core::sgf::escape(names[1 - black]),
        crate::core::sgf::escape(&ending.result),
        crate::core::sgf::escape(&ending.reason)
    );
    sgf.replacen("(;", &format!("(;{info}"), 1)
}

/// Five-in-a-row, moves as Gomocup's `x,y`.
pub struct FiarTable {
    pub board: Board,
}

impl FiarTable {
    pub fn point_text(p: Point) -> String {
        format!("{},{}", p.x, p.y)
    }

    /// Plays `x,y`; a foul is played too, and loses (the referee's verdict).
    fn place(&mut self, text: &str, opening: bool) -> Result<String, BadMove> {
        let (x, y) = text
            .split_once(',')
            .and_then(|(a, b)| Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?)))
            .ok_or_else(|| BadMove::Malformed(shown(text)))?;
        let illegal = |e: crate::core::RuleError| BadMove::Illegal(format!("{x},{y}: {e}"));
        let p = self.board.point(x, y).map_err(illegal)?;
        if opening {
            self.board
                .play_any_opening(Move::Place(p))
                .map_err(illegal)?;
        } else {
            self.board.referee(Move::Place(p)).map_err(illegal)?;
        }
        Ok(Self::point_text(p))
    }
}

impl Table for FiarTable {
    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn play(&mut self, text: &str) -> Result<String, BadMove> {
        self.place(text, false)
    }

    fn play_opening(&mut self, text: &str) -> Result<String, BadMove> {
        self.place(text, true)
    }

    fn ending(&mut self) -> Option<Ending> {
        match self.board.outcome() {
            Outcome::Ongoing => None,
            o @ Outcome::Win { winner, .. } => Some(Ending {
                winner: Some(winner),
                reason: o.to_string(),
                result: result_of(Some(winner), "R"),
            }),
            o @ Outcome::Draw(_) => Some(Ending {
                winner: None,
                reason: o.to_string(),
                result: "0".into(),
            }),
        }
    }

    fn adjudicate(&mut self) -> Ending {
        Ending {
            winner: None,
            reason: "draw by the move limit".into(),
            result: "0".into(),
        }
    }

    fn record(&self, names: [&str; 2], first: usize, ending: &Ending) -> String {
        let mut rec = crate::games::fiar::record::Record::of_board(&self.board);
        // The board never placed a foul; the record shows the move that lost.
        if let Outcome::Win {
            reason: crate::games::fiar::WinReason::Foul { point, .. },
            ..
        } = self.board.outcome()
        {
            rec.moves.push(Move::Place(point));
        }
        with_info(rec.to_sgf(), names, first, ending)
    }
}

/// Go, moves as GTP vertices; two passes end the game and Tengen (or a judge engine)
/// scores it.
pub struct GoTable {
    pub game: GoGame,
    pub judge: Option<Spec>,
}

impl GoTable {
    fn score(&mut self, why: &str) -> Ending {
        let text = match &self.judge {
            Some(j) => judge_score(j, &self.game).unwrap_or_else(|f| format!("? {f}")),
            None => {
                let mut e = match crate::engine::GoEngine::new(self.game.size(), self.game.rules())
                {
                    Ok(e) => e,
                    Err(err) => return draw_by(format!("cannot score: {err}")),
                };
                e.set_threads(1);
                e.set_game(self.game.clone());
                e.final_score()
            }
        };
        let winner = match text.chars().next() {
            Some('B' | 'b') => Some(Color::Black),
            Some('W' | 'w') => Some(Color::White),
            _ if text.trim() == "0" => None,
            _ => return draw_by(format!("{why}; the judge's score was '{text}'")),
        };
        let who = if self.judge.is_some() {
            "the judge"
        } else {
            "Tengen"
        };
        Ending {
            winner,
            reason: format!("{why}, {text} by {who}'s count"),
            result: text.trim().to_string(),
        }
    }
}

fn draw_by(reason: String) -> Ending {
    Ending {
        winner: None,
        reason,
        result: "0".into(),
    }
}

/// A judge engine's `final_score` for the game.
fn judge_score(spec: &Spec, game: &GoGame) -> Result<String, Fault> {
    let kind = GameKind::Go {
        size: game.size(),
        komi: game.komi(),
        rules: game.rules(),
        handicap: game.handicap(),
    };
    let mut j = players::start(spec, &kind)?;
    let tc = Tc::ByoYomi {
        main_ms: 0,
        period_ms: 10_000,
        periods: 1,
    };
    let r = (|| {
        j.start(&kind, &tc)?;
        let moves: Vec<(Color, String)> = game
            .moves()
            .iter()
            .map(|&(c, v)| (c, vertex_name(game.size(), v)))
            .collect();
        j.final_score(&moves)
    })();
    j.quit();
    r
}

impl Table for GoTable {
    fn to_move(&self) -> Color {
        self.game.to_move()
    }

    fn play(&mut self, text: &str) -> Result<String, BadMove> {
        let v =
            parse_vertex(self.game.size(), text).map_err(|_| BadMove::Malformed(shown(text)))?;
        let c = self.game.to_move();
        self.game
            .play(c, v)
            .map_err(|e| BadMove::Illegal(format!("{text}: {e}")))?;
        Ok(vertex_name(self.game.size(), v))
    }

    fn ending(&mut self) -> Option<Ending> {
        self.game.is_over().then(|| self.score("two passes"))
    }

    fn adjudicate(&mut self) -> Ending {
        self.score("the move limit")
    }

    fn record(&self, names: [&str; 2], first: usize, ending: &Ending) -> String {
        with_info(go::record::write(&self.game), names, first, ending)
    }
}

/// Gana, moves in its own text; white moves first.
pub struct GanaTable {
    pub board: crate::games::gana::Board,
    pub start: crate::games::gana::Board,
    pub moves: Vec<String>,
}

impl Table for GanaTable {
    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn play(&mut self, text: &str) -> Result<String, BadMove> {
        let m = self
            .board
            .parse_move(text)
            .map_err(|e| BadMove::Illegal(format!("{}: {e}", shown(text))))?;
        let canonical = self.board.move_text(m);
        self.board
            .play(m)
            .map_err(|e| BadMove::Illegal(format!("{text}: {e}")))?;
        self.moves.push(canonical.clone());
        Ok(canonical)
    }

    fn ending(&mut self) -> Option<Ending> {
        use crate::games::gana::Outcome as G;
        match self.board.outcome() {
            G::Ongoing => None,
            o @ G::Win(c) => Some(Ending {
                winner: Some(c),
                reason: o.to_string(),
                result: result_of(Some(c), "R"),
            }),
            o @ G::Draw(_) => Some(draw_by(o.to_string())),
        }
    }

    fn adjudicate(&mut self) -> Ending {
        draw_by("draw by the move limit".into())
    }

    fn record(&self, names: [&str; 2], first: usize, ending: &Ending) -> String {
        // What `tengen analyse --game gana FILE` and `tengen review FILE` read back.
        format!(
            "# white {}, black {}; {} ({})\n{}\n# moves\n{}\n",
            names[first],
            names[1 - first],
            ending.result,
            ending.reason,
            self.start.to_text().unwrap_or_default(),
            self.moves.join(" ")
        )
    }
}

/// What a game needs beyond its engines.
pub struct Rules<'a> {
    pub kind: &'a GameKind,
    /// Each engine's time control, first engine first.
    pub tc: [Tc; 2],
    pub tolerance: [Duration; 2],
    /// Plies after which the game is adjudicated (0: no limit).
    pub max_plies: usize,
    pub judge: Option<&'a Spec>,
}

/// Plays one game: `specs[0]` moves first (black; white in Gana).
pub fn play(specs: [&Spec; 2], rules: &Rules, opening: &Opening) -> Result<Played, String> {
    let mut table = opening.table(rules.kind, rules.judge.cloned())?;
    let mut moves: Vec<(Color, String)> = Vec::new();
    for m in &opening.moves {
        let c = table.to_move();
        let t = table
            .play_opening(m)
            .map_err(|e| format!("opening move {m}: {e}"))?;
        moves.push((c, t));
    }
    let first_color = rules.kind.first_color();
    let engine_of = |c: Color| usize::from(c != first_color);
    let opening_plies = moves.len();
    let mut clocks = [Clock::new(rules.tc[0]), Clock::new(rules.tc[1])];
    let mut worst = [0f64; 2];
    let names = [specs[0].name.as_str(), specs[1].name.as_str()];
    let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
    let lost = |e: usize, c: Color, how: &str, why: String| Ending {
        winner: Some(c.opposite()),
        reason: format!("{} ({}) {why}", c.name(), names[e]),
        result: result_of(Some(c.opposite()), how),
    };
    let ending = 'game: {
        for e in 0..2 {
            let c = if e == 0 {
                first_color
            } else {
                first_color.opposite()
            };
            match players::start(specs[e], rules.kind).and_then(|mut p| {
                p.start(rules.kind, &rules.tc[e])?;
                Ok(p)
            }) {
                Ok(p) => players[e] = Some(p),
                Err(f) => break 'game lost(e, c, "F", format!("failed to start: {f}")),
            }
        }
        loop {
            if let Some(end) = table.ending() {
                break 'game end;
            }
            if rules.max_plies > 0 && moves.len() >= rules.max_plies {
                break 'game table.adjudicate();
            }
            let c = table.to_move();
            let e = engine_of(c);
            let allowance = clocks[e].allowance();
            let start = Instant::now();
            let deadline = start + allowance + rules.tolerance[e];
            let p = players[e].as_mut().expect("started");
            let reply = p.genmove(&moves, c, &clocks[e], deadline);
            let took = start.elapsed();
            worst[e] = worst[e].max(took.as_secs_f64() / allowance.as_secs_f64().max(1e-3));
            let text = match reply {
                Ok(t) => t,
                Err(Fault::Silent(_)) => {
                    break 'game lost(
                        e,
                        c,
                        "T",
                        format!(
                            "sent no move within {} ms",
                            (allowance + rules.tolerance[e]).as_millis()
                        ),
                    );
                }
                Err(f) => break 'game lost(e, c, "F", f.to_string()),
            };
            if !clocks[e].charge(took, rules.tolerance[e]) {
                break 'game lost(
                    e,
                    c,
                    "T",
                    format!(
                        "took {} ms of {} ms allowed",
                        took.as_millis(),
                        allowance.as_millis()
                    ),
                );
            }
            if text.trim().eq_ignore_ascii_case("resign") {
                break 'game lost(e, c, "R", "resigns".into());
            }
            match table.play(text.trim()) {
                Ok(t) => moves.push((c, t)),
                Err(why) => break 'game lost(e, c, "F", why.to_string()),
            }
        }
    };
    // A faulty engine is killed; the others are asked to quit.
    for (e, p) in players.into_iter().enumerate() {
        if let Some(p) = p {
            let faulty = ending.winner.is_some_and(|w| engine_of(w) != e)
                && (ending.result.ends_with("+F") || ending.result.ends_with("+T"));
            if faulty { p.kill() } else { p.quit() }
        }
    }
    let record = table.record(names, 0, &ending);
    Ok(Played {
        moves,
        opening_plies,
        used_ms: [clocks[0].used_ms, clocks[1].used_ms],
        worst_ratio: worst,
        record,
        ending,
    })
}
