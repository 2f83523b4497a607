//! Gana for the tree search: priors and a playout policy that takes a king capture when
//! there is one, keeps its king off squares the opponent can reach, and prefers
//! captures and threats to the enemy king; playouts longer than a limit are scored by
//! material.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::{Game, Move as Code};
use crate::core::Color;
use crate::games::gana::board::MOVE_CODES;
use crate::games::gana::{Board, Move, Outcome};

/// Plies a playout may run before material decides it.
const PLAYOUT_PLIES: usize = 160;

#[derive(Clone)]
pub struct GanaState {
    pub board: Board,
    /// What a draw is worth to black: below 0.5 when the searching side is black and
    /// plays for a win (contempt), above when it is white. Gana's draws (a lone king
    /// cannot be caught, fifty moves without a capture) are easy to steer into, so a
    /// side that values them at 0.5 trades down into them.
    pub draw: f32,
}

impl GanaState {
    /// The root for `board`, searched by its side to move, which values a draw at
    /// `0.5 - contempt`.
    pub fn new(board: Board, contempt: f32) -> GanaState {
        let draw = match board.to_move() {
            Color::Black => 0.5 - contempt,
            Color::White => 0.5 + contempt,
        };
        GanaState { board, draw }
    }

    fn black_result(&self, o: Outcome) -> Option<f32> {
        match o {
            Outcome::Ongoing => None,
            Outcome::Win(Color::Black) => Some(1.0),
            Outcome::Win(Color::White) => Some(0.0),
            Outcome::Draw(_) => Some(self.draw),
        }
    }

    /// Black's result of a playout stopped at the ply limit: more men wins — unless a
    /// side is down to its lone king, which can never be caught (stalemate saves it),
    /// so that the game is a draw however many men the other side has.
    fn cutoff_value(&self) -> f32 {
        let b = &self.board;
        let (w, bl) = (b.total(Color::White), b.total(Color::Black));
        if b.lone_king(Color::White) || b.lone_king(Color::Black) {
            self.draw
        } else if bl > w {
            1.0
        } else if w > bl {
            0.0
        } else {
            self.draw
        }
    }
}

/// How a move looks to the policy.
struct Look {
    wins: bool,
    captures: bool,
    /// The mover's king ends where the opponent can reach it.
    king_exposed: bool,
    /// The enemy king ends where the mover can reach it next move.
    threatens: bool,
}

fn look(b: &Board, after: &Board) -> Look {
    let me = b.to_move();
    let them = me.opposite();
    let king_exposed = after.outcome() == Outcome::Ongoing
        && after.king(me).is_some_and(|k| after.attacked(k, them));
    Look {
        threatens: after.king(them).is_some_and(|k| after.attacked(k, me)),
        wins: after.outcome() == Outcome::Win(me),
        captures: after.total(them) < b.total(them),
        king_exposed,
    }
}

impl Game for GanaState {
    const MOVE_SLOTS: usize = MOVE_CODES;

    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn result(&self) -> Option<f32> {
        self.black_result(self.board.outcome())
    }

    fn expand(&self, out: &mut Vec<(Code, f32)>) {
        let b = &self.board;
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        for m in moves {
            let Ok(after) = b.after(m) else { continue };
            let l = look(b, &after);
            let them = b.to_move().opposite();
            let prior = if l.wins {
                0.99
            } else if l.king_exposed {
                0.1
            } else if l.captures && after.total(them) == 1 {
                // Taking the last man leaves a king nobody can catch: a draw.
                0.2
            } else if l.captures {
                0.7
            } else if l.threatens {
                0.65
            } else {
                0.5
            };
            out.push((m.code(), prior));
        }
    }

    fn play(&mut self, mv: Code) {
        let m = Move::from_code(mv);
        // The tree only holds legal moves of this position.
        let _ = self.board.play(m);
    }

    fn playout(&mut self, rng: &mut SmallRng, trace: &mut Vec<(Code, Color)>) -> f32 {
        let mut results = Vec::new();
        let mut safe = Vec::new();
        let mut captures = Vec::new();
        for _ in 0..PLAYOUT_PLIES {
            if let Some(r) = self.black_result(self.board.outcome()) {
                return r;
            }
            let b = &self.board;
            b.legal_results(&mut results);
            if results.is_empty() {
                self.board.set_no_move_draw();
                return self.draw;
            }
            safe.clear();
            captures.clear();
            let mut chosen = None;
            for (i, (_, after)) in results.iter().enumerate() {
                let l = look(b, after);
                if l.wins {
                    chosen = Some(i);
                    break;
                }
                if !l.king_exposed {
                    safe.push(i);
                    if l.captures || l.threatens {
                        captures.push(i);
                    }
                }
            }
            // A lone king with nowhere safe to go (the policy's rough test): stalemate,
            // if the rule's exact test agrees.
            if chosen.is_none() && safe.is_empty() && b.stalemated(results.iter().map(|(_, a)| a)) {
                return self.draw;
            }
            let i = chosen.unwrap_or_else(|| {
                if !captures.is_empty() && rng.random_range(0..4) != 0 {
                    captures[rng.random_range(0..captures.len())]
                } else if !safe.is_empty() {
                    safe[rng.random_range(0..safe.len())]
                } else {
                    rng.random_range(0..results.len())
                }
            });
            let mover = self.board.to_move();
            let (m, after) = results.swap_remove(i);
            self.board.set_after(after);
            trace.push((m.code(), mover));
        }
        if let Some(r) = self.black_result(self.board.outcome()) {
            return r;
        }
        self.cutoff_value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_worth_less_than_half_to_the_searching_side() {
        // Only the two kings: a draw, whoever is to move.
        let kings = |side: char| {
            let text = format!(
                "B,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                 .,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,W {side} 0"
            );
            Board::from_text(&text).unwrap()
        };
        let black = GanaState::new(kings('b'), 0.1);
        let white = GanaState::new(kings('w'), 0.1);
        assert!(matches!(black.board.outcome(), Outcome::Draw(_)));
        // Results are black's: black searching sees 0.4, white searching 1 - 0.6.
        assert_eq!(black.result(), Some(0.4));
        assert_eq!(white.result(), Some(0.6));
        assert_eq!(GanaState::new(kings('b'), 0.0).result(), Some(0.5));
    }

    #[test]
    fn a_playout_cut_short_counts_men_but_a_lone_king_is_a_draw() {
        let pos = |white_men: &str| {
            let text = format!(
                "B,bbb,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                 .,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./{white_men},.,.,.,.,.,.,W w 0"
            );
            GanaState::new(Board::from_text(&text).unwrap(), 0.1)
        };
        // Black has three men, white only its king: nobody can catch it, a draw.
        assert_eq!(pos(".").cutoff_value(), pos(".").draw);
        // Otherwise more men win, equal men draw.
        assert_eq!(pos("w").cutoff_value(), 1.0);
        assert_eq!(pos("wwww").cutoff_value(), 0.0);
        assert_eq!(pos("www").cutoff_value(), pos("www").draw);
    }
}
