//! Gana for the tree search: priors from a two-ply exchange (what a move takes against
//! what the best reply takes back), short playouts by a greedy policy that takes the
//! king when it can, keeps its own king off reachable squares and prefers the biggest
//! capture, and an evaluation of material and king safety where a playout stops.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::{Game, Move as Code};
use crate::core::Color;
use crate::games::gana::board::MOVE_CODES;
use crate::games::gana::{Board, Dir, Move, Outcome};

/// Plies a playout runs before the evaluation judges it. Long random playouts are noise
/// in a game of exchanges (a man is lost or won every few plies); a short greedy one
/// settles the tactics in front of the leaf and lets material speak.
const PLAYOUT_PLIES: usize = 16;

/// Men of advantage worth one unit of the logistic: two men up is about 73%.
const MATERIAL_SCALE: f32 = 2.0;

#[derive(Clone)]
pub struct GanaState {
    pub board: Board,
    /// What a draw is worth to black: below 0.5 when the searching side is black and
    /// plays for a win (contempt), above when it is white. Gana's draws (a lone king
    /// cannot be caught, fifty moves without a capture) are easy to steer into, so a
    /// side that values them at 0.5 trades down into them.
    pub draw: f32,
    /// Men of black's lead the evaluation takes as given: the searching side's lead at
    /// the root less [`KEPT_LEAD`], when it is ahead. A side far ahead sees every cut
    /// playout as won and stops telling its moves apart (it let its men be eaten one by
    /// one and traded into drawn endings); measured from its own lead, losing a man or
    /// failing to press the king shows again. Go engines call this dynamic komi.
    pub offset: f32,
}

/// Men of a lead still counted after the root's lead is taken as given.
const KEPT_LEAD: f32 = 2.0;

/// Men a square of room for a king is worth in the evaluation: a king hemmed in is
/// the only way a game is won.
const ROOM_WEIGHT: f32 = 0.5;

impl GanaState {
    /// The root for `board`, searched by its side to move, which values a draw at
    /// `0.5 - contempt`.
    pub fn new(board: Board, contempt: f32) -> GanaState {
        let draw = match board.to_move() {
            Color::Black => 0.5 - contempt,
            Color::White => 0.5 + contempt,
        };
        let me = board.to_move();
        let lead = board.total(me) as f32 - board.total(me.opposite()) as f32;
        let given = (lead - KEPT_LEAD).max(0.0);
        let offset = if me == Color::Black { given } else { -given };
        GanaState {
            board,
            draw,
            offset,
        }
    }

    /// Squares where `c`'s king stands or could step that the opponent cannot reach
    /// (roughly, as [`Board::attacked`] reads it): 0 to 5.
    fn king_room(&self, c: Color) -> f32 {
        let b = &self.board;
        let Some(k) = b.king(c) else { return 0.0 };
        let free = |sq| !b.attacked(sq, c.opposite()) as u32;
        let steps: u32 = Dir::ALL.iter().filter_map(|d| d.step(k)).map(free).sum();
        (steps + free(k)) as f32
    }

    fn black_result(&self, o: Outcome) -> Option<f32> {
        match o {
            Outcome::Ongoing => None,
            Outcome::Win(Color::Black) => Some(1.0),
            Outcome::Win(Color::White) => Some(0.0),
            Outcome::Draw(_) => Some(self.draw),
        }
    }

    /// Black's expected result where a playout stops: a king the side to move can take
    /// is lost; a side down to its lone king can never be caught (stalemate saves it),
    /// so that is a draw however many men the other side has; otherwise a logistic of
    /// the men ahead (less the lead taken as given) and the kings' room.
    fn cutoff_value(&self) -> f32 {
        let b = &self.board;
        if b.can_capture_king() {
            return if b.to_move() == Color::Black {
                1.0
            } else {
                0.0
            };
        }
        if b.lone_king(Color::White) || b.lone_king(Color::Black) {
            return self.draw;
        }
        let men = b.total(Color::Black) as f32 - b.total(Color::White) as f32;
        let room = self.king_room(Color::Black) - self.king_room(Color::White);
        let ahead = men - self.offset + ROOM_WEIGHT * room;
        1.0 / (1.0 + (-ahead / MATERIAL_SCALE).exp())
    }
}

/// How a move looks to the playout policy, one ply deep.
struct Look {
    wins: bool,
    /// Enemy men taken.
    takes: u32,
    /// The mover's king ends where the opponent can reach it.
    king_exposed: bool,
}

fn look(b: &Board, after: &Board) -> Look {
    let me = b.to_move();
    let them = me.opposite();
    Look {
        wins: after.outcome() == Outcome::Win(me),
        takes: b.total(them) - after.total(them),
        king_exposed: after.outcome() == Outcome::Ongoing
            && after.king(me).is_some_and(|k| after.attacked(k, them)),
    }
}

/// A move's prior from the exchange it starts: men it takes less the most the best
/// reply takes back; a move after which a reply takes the king is all but lost.
/// `after` is the position the move leads to, judged, and `replies` its legal replies.
fn exchange_prior(b: &Board, after: &Board, replies: &[(Move, Board)]) -> f32 {
    let me = b.to_move();
    let them = me.opposite();
    match after.outcome() {
        Outcome::Win(c) if c == me => return 0.99,
        Outcome::Ongoing => {}
        // The draws a move walks into (only kings, the count) are judged by the tree.
        _ => return 0.3,
    }
    let takes = b.total(them) - after.total(them);
    if takes > 0 && after.lone_king(them) {
        // Taking the last man leaves a king nobody can catch: a draw.
        return 0.2;
    }
    let mut back = 0;
    for (_, then) in replies.iter() {
        if then.king(me).is_none() {
            return 0.05;
        }
        back = back.max(after.total(me) - then.total(me));
    }
    let threatens = after.king(them).is_some_and(|k| after.attacked(k, me));
    let net = takes as f32 - back as f32 + if threatens { 0.5 } else { 0.0 };
    (0.5 + 0.1 * net).clamp(0.15, 0.9)
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
        let mut results = Vec::new();
        let mut replies = Vec::new();
        b.legal_results(&mut results);
        for (m, mut after) in results {
            after.judge_with(&mut replies);
            out.push((m.code(), exchange_prior(b, &after, &replies)));
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
        let mut best = Vec::new();
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
            best.clear();
            let mut most = 0;
            let mut chosen = None;
            for (i, (_, after)) in results.iter().enumerate() {
                let l = look(b, after);
                if l.wins {
                    chosen = Some(i);
                    break;
                }
                if !l.king_exposed {
                    safe.push(i);
                    if l.takes > most {
                        most = l.takes;
                        best.clear();
                    }
                    if l.takes == most && most > 0 {
                        best.push(i);
                    }
                }
            }
            // A lone king with nowhere safe to go (the policy's rough test): stalemate,
            // if the rule's exact test agrees.
            if chosen.is_none() && safe.is_empty() && b.stalemated(results.iter().map(|(_, a)| a)) {
                return self.draw;
            }
            let i = chosen.unwrap_or_else(|| {
                if !best.is_empty() && rng.random_range(0..8) != 0 {
                    best[rng.random_range(0..best.len())]
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
    fn a_playout_cut_short_weighs_men_but_a_lone_king_is_a_draw() {
        let pos = |white_men: &str| {
            let text = format!(
                "B,bbb,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                 .,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./{white_men},.,.,.,.,.,.,W w 0"
            );
            GanaState::new(Board::from_text(&text).unwrap(), 0.1)
        };
        // Black has three men, white only its king: nobody can catch it, a draw.
        assert_eq!(pos(".").cutoff_value(), pos(".").draw);
        // Otherwise the side with more men is ahead, the more so the more men.
        let two_up = pos("w").cutoff_value();
        let one_up = pos("ww").cutoff_value();
        let even = pos("www").cutoff_value();
        assert!(two_up > one_up && one_up > even, "{two_up} {one_up} {even}");
        assert!(pos("wwww").cutoff_value() < even);
        assert!((even - 0.5).abs() < 0.2, "{even}");
    }

    #[test]
    fn a_side_far_ahead_still_sees_a_man_lost() {
        // White, to move and searching, is eight men up: its lead less two is taken as
        // given, so one man more or less moves the value well away from certainty.
        let text = "B,b,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                    .,.,.,.,.,.,.,./.,.,.,.,.,.,.,./wwww,.,.,.,.,.,.,./wwww,w,.,.,.,.,.,W w 0";
        let mut s = GanaState::new(Board::from_text(text).unwrap(), 0.1);
        assert_eq!(s.offset, -6.0);
        let full = s.cutoff_value();
        assert!(full < 0.5 && full > 0.05, "white's value {}", 1.0 - full);
        s.board = Board::from_text(&text.replace("wwww,w,", "wwww,.,")).unwrap();
        assert!(s.cutoff_value() - full > 0.05);
    }
}
