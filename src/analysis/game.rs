//! A game as analysis sees it — where it starts and the moves played from there — and
//! the analysis of the position after any number of its moves. The JSON engine builds
//! one from a query, `review` from a record.

use std::sync::atomic::AtomicBool;

use super::{Analysis, Budget, Progress};
use crate::core::Color;

/// A game: its start position and its moves in the game's own notation, colours
/// alternating from the start's side to move.
#[derive(Clone)]
pub enum Game {
    Gomoku {
        start: Box<crate::games::fiar::Board>,
        moves: Vec<String>,
    },
    Go {
        start: Box<crate::games::go::Game>,
        moves: Vec<String>,
    },
    Gana {
        start: Box<crate::games::gana::Board>,
        moves: Vec<String>,
    },
}

/// Why a game cannot be set up or replayed: the message, and the query field (the
/// engine's) it is about.
#[derive(Debug)]
pub struct Refusal {
    pub field: Option<&'static str>,
    pub message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

pub fn refuse(field: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        field: Some(field),
        message: message.into(),
    }
}

/// A refusal no one field is at fault for.
pub fn refuse_query(message: impl Into<String>) -> Refusal {
    Refusal {
        field: None,
        message: message.into(),
    }
}

fn bad_move(i: usize, m: &str, e: impl std::fmt::Display) -> Refusal {
    refuse("moves", format!("move {} ({m}): {e}", i + 1))
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} game, moves {:?}", self.name(), self.moves())
    }
}

impl Game {
    /// `gomoku`, `go` or `gana`, as the JSON names the game.
    pub fn name(&self) -> &'static str {
        match self {
            Game::Gomoku { .. } => "gomoku",
            Game::Go { .. } => "go",
            Game::Gana { .. } => "gana",
        }
    }

    pub fn moves(&self) -> &[String] {
        match self {
            Game::Gomoku { moves, .. } | Game::Go { moves, .. } | Game::Gana { moves, .. } => moves,
        }
    }

    /// The colour that plays the first of the moves.
    pub fn first(&self) -> Color {
        match self {
            Game::Gomoku { start, .. } => start.to_move(),
            Game::Go { start, .. } => start.to_move(),
            Game::Gana { start, .. } => start.to_move(),
        }
    }

    /// Plays every move once: the first illegal one is the error.
    pub fn check(&self) -> Result<(), Refusal> {
        self.analyse(
            self.moves().len(),
            &Budget::default(),
            &AtomicBool::new(false),
            None,
        )
        .map(|_| ())
    }

    /// The analysis of the position after `turn` of the moves.
    pub fn analyse(
        &self,
        turn: usize,
        budget: &Budget,
        stop: &AtomicBool,
        progress: Option<&Progress>,
    ) -> Result<Analysis, Refusal> {
        let turn = turn.min(self.moves().len());
        match self {
            Game::Gomoku { start, moves } => {
                let mut board = (**start).clone();
                let (w, h) = (board.width(), board.height());
                for (i, m) in moves[..turn].iter().enumerate() {
                    let mv = crate::games::fiar::record::parse_move(m, w, h)
                        .map_err(|e| bad_move(i, m, e))?;
                    board.play_any_opening(mv).map_err(|e| bad_move(i, m, e))?;
                }
                Ok(super::fiar::analyse(&board, budget, stop, progress))
            }
            Game::Go { start, moves } => {
                let mut g = (**start).clone();
                for (i, m) in moves[..turn].iter().enumerate() {
                    let v = crate::games::go::parse_vertex(g.size(), m)
                        .map_err(|e| bad_move(i, m, e))?;
                    let c = g.to_move();
                    g.play(c, v).map_err(|e| bad_move(i, m, e))?;
                }
                Ok(super::go::analyse(g, budget, stop, progress))
            }
            Game::Gana { start, moves } => {
                let mut e = crate::engine::GanaEngine::new();
                e.set_position((**start).clone());
                for (i, m) in moves[..turn].iter().enumerate() {
                    let c = e.board().to_move();
                    e.play(c, m).map_err(|err| bad_move(i, m, err))?;
                }
                Ok(super::gana::analyse(e, budget, stop, progress))
            }
        }
    }
}

/// What the command line says of a record beyond its text.
#[derive(Clone, Debug, Default)]
pub struct Hints {
    /// `gomoku`, `go` or `gana`; by default read from the record (SGF `GM[1]` is Go, a
    /// Gana position line is Gana, anything else five-in-a-row).
    pub game: Option<String>,
    /// Five-in-a-row: the variant (default: the record's `RU`, else freestyle).
    pub variant: Option<crate::games::fiar::Variant>,
    /// Five-in-a-row: the board size of a plain move list (default: the variant's).
    pub size: Option<(usize, usize)>,
    /// Go: the rules when the record names none.
    pub rules: Option<crate::games::go::Rules>,
    /// Go: komi instead of the record's.
    pub komi: Option<f32>,
}

/// The first line of a Gana record that is not blank or a `#` comment, and the rest.
fn gana_lines(text: &str) -> Option<(usize, &str, Vec<&str>)> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    let (n, first) = lines.next()?;
    Some((n + 1, first, lines.map(|(_, l)| l).collect()))
}

/// A Gana record: its position line and its moves (not yet played).
pub fn gana_record(text: &str) -> Result<(crate::games::gana::Board, Vec<String>), String> {
    let (n, first, rest) = gana_lines(text).ok_or("no position line (only blank or # lines)")?;
    let start = crate::games::gana::Board::from_text(first)
        .map_err(|e| format!("line {n}: position text: {e}"))?;
    let moves = rest
        .iter()
        .flat_map(|l| l.split([' ', ',']))
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    Ok((start, moves))
}

/// Whether `text` is a Gana record: its first line is a Gana position.
fn is_gana(text: &str) -> bool {
    gana_lines(text)
        .is_some_and(|(_, first, _)| crate::games::gana::Board::from_text(first).is_ok())
}

impl Game {
    /// Reads a whole game from a record: five-in-a-row SGF (GM[4]), PSQ or a move list;
    /// Go SGF (GM[1]); a Gana record (a position line, then moves, `#` comments
    /// anywhere). Every move is checked.
    pub fn read(text: &str, hints: &Hints) -> Result<Game, String> {
        let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let kind = match hints.game.as_deref() {
            Some(g) => g,
            None if squeezed.starts_with('(') && squeezed.contains("GM[1]") => "go",
            None if is_gana(text) => "gana",
            None => "gomoku",
        };
        let game = match kind {
            "gomoku" => {
                use crate::games::fiar::{Variant, record::Record};
                let v = hints.variant.unwrap_or(Variant::Freestyle);
                let (w, h) = hints.size.unwrap_or((v.default_size(), v.default_size()));
                let rec = Record::read(text, w, h).map_err(|e| e.to_string())?;
                let variant = hints.variant.or(rec.variant).unwrap_or(v);
                let start = rec.start(variant).map_err(|e| e.to_string())?;
                Game::Gomoku {
                    start: Box::new(start),
                    moves: rec.moves.iter().map(|m| m.to_string()).collect(),
                }
            }
            "go" => {
                use crate::games::go::{Rules, record, vertex_name};
                let rules = hints.rules.unwrap_or(Rules::CHINESE);
                let mut start = record::load(text, Some(1), rules).map_err(|e| e.to_string())?;
                let whole = record::load(text, None, rules).map_err(|e| e.to_string())?;
                if let Some(k) = hints.komi {
                    start.set_komi(k);
                }
                let mut expected = start.to_move();
                let mut moves = Vec::new();
                for (i, &(c, v)) in whole.moves().iter().enumerate() {
                    if c != expected {
                        return Err(format!(
                            "move {}: {} plays twice in a row; a review needs alternating moves",
                            i + 1,
                            c.opposite().name()
                        ));
                    }
                    moves.push(vertex_name(start.size(), v));
                    expected = c.opposite();
                }
                Game::Go {
                    start: Box::new(start),
                    moves,
                }
            }
            "gana" => {
                let (start, moves) = gana_record(text)?;
                Game::Gana {
                    start: Box::new(start),
                    moves,
                }
            }
            other => return Err(format!("--game {other}: gomoku, go or gana")),
        };
        game.check().map_err(|r| r.message)?;
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_the_three_games_are_told_apart() {
        let h = Hints::default();
        let go = Game::read("(;GM[1]SZ[9]KM[7];B[ee];W[cc])", &h).unwrap();
        assert_eq!(go.name(), "go");
        assert_eq!(go.moves(), ["E5", "C7"]);
        let gomoku = Game::read("(;GM[4]SZ[15];B[hh];W[ii])", &h).unwrap();
        assert_eq!(gomoku.name(), "gomoku");
        assert_eq!(gomoku.moves(), ["h8", "i9"]);
        let start = crate::games::gana::Board::start().to_text().unwrap();
        let gana = Game::read(&format!("# a game\n{start}\n# moves\n"), &h).unwrap();
        assert_eq!(gana.name(), "gana");
        assert!(gana.moves().is_empty());
        assert_eq!(gana.first(), Color::White);
    }

    #[test]
    fn an_illegal_move_in_a_record_is_named() {
        let e = Game::read("(;GM[4]SZ[15];B[hh];W[hh])", &Hints::default()).unwrap_err();
        assert!(e.contains("move 2 (h8)"), "{e}");
        let e = Game::read("(;GM[1]SZ[9];B[ee];B[cc])", &Hints::default()).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
    }

    #[test]
    fn a_handicap_game_starts_with_white() {
        let g = Game::read(
            "(;GM[1]SZ[9]HA[2]AB[cc][gg];W[ee];B[ce])",
            &Hints::default(),
        )
        .unwrap();
        assert_eq!(g.first(), Color::White);
        assert_eq!(g.moves().len(), 2);
    }
}
