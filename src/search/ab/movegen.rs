//! Move generation for five-in-a-row, threat-aware: against a four only its blocks,
//! against an open three only its defences and our own fours, otherwise every point
//! near the stones, each with an ordering score.

use super::eval::{Threat, combine, evaluate, playable, point_value, threat, threat_value};
use crate::core::error::Point;
use crate::games::fiar::{Board, Pattern};

/// Points a search considers: empty, within two points (along a line) of a stone.
/// On an empty board, the centre.
pub fn candidates(board: &Board, out: &mut Vec<Point>) {
    out.clear();
    if board.stone_count() == 0 {
        out.push(board.centre());
        return;
    }
    board.empties_near_stones(out);
}

/// What the side to move faces, and the moves worth searching.
#[derive(Debug, PartialEq, Eq)]
pub enum Generated {
    /// The side to move makes five on this point.
    Win(Point),
    /// Moves are in the list; `forced` when they answer a four (the search extends);
    /// `fours` when the side to move has a point that makes a four (without one it has
    /// no win by fours, and the leaf's VCF can be skipped); `eval` is the static
    /// score ([`evaluate`](super::eval::evaluate)), summed in the same pass.
    Moves {
        forced: bool,
        fours: bool,
        eval: i32,
        /// The other side has an open three (a point that makes a straight four): the
        /// moves are its defences and our fours.
        defending: bool,
    },
}

/// Fills `out` with the moves to search (unordered scores attached) for the side to move.
/// `cands` is scratch space for the [`candidates`] (left empty when a five to make or to
/// stop settles the moves without them).
pub fn generate(board: &Board, cands: &mut Vec<Point>, out: &mut Vec<(Point, i32)>) -> Generated {
    out.clear();
    cands.clear();
    let me = board.to_move();
    let opp = me.opposite();
    let variant = board.variant();
    let captures = variant.captures().is_some();
    if !variant.counting() {
        // The board keeps the points that make five: a win, or a four to block, is
        // known without looking at the other points.
        if let Some(p) = board.five_points(me).next() {
            return Generated::Win(p);
        }
        if !captures && board.has_five_point(opp) {
            for p in board.five_points(opp) {
                if playable(board, p, me) {
                    out.push((p, order_score(board, p)));
                }
            }
            return Generated::Moves {
                forced: true,
                fours: board.has_four_point(me),
                // Unused: a node answering a four is always searched.
                eval: 0,
                defending: false,
            };
        }
    }
    candidates(board, cands);
    let cands = &cands[..];
    if variant.counting() {
        for &p in cands {
            if playable(board, p, me) {
                out.push((p, order_score(board, p)));
            }
        }
        return Generated::Moves {
            forced: false,
            fours: false,
            eval: evaluate(board, cands),
            defending: false,
        };
    }
    let opp_fouls = variant.has_fouls(opp);
    let mut opp_fives = 0;
    let mut opp_open_fours = 0;
    // A point making a four lies within two of a stone: among the candidates.
    let fours = board.has_four_point(me);
    let (mut mine, mut theirs) = (0i64, 0i64);
    // One pass computes threats, ordering scores and the evaluation together (the
    // side to move has no five: the bit sets said so above); the threat branches below
    // (a four or an open three to answer) rebuild the list, which is rare.
    for &p in cands {
        let (_, own_value, own_eval) = threat_value(board.patterns(p, me), true);
        let (opp_threat, opp_value, opp_eval) = threat_value(board.patterns(p, opp), false);
        let opp_playable = !opp_fouls || playable(board, p, opp);
        match opp_threat {
            Threat::Five => opp_fives += 1,
            Threat::OpenFour if opp_playable => opp_open_fours += 1,
            _ => {}
        }
        if opp_playable {
            theirs += opp_eval as i64;
        }
        if playable(board, p, me) {
            mine += own_eval as i64;
            if opp_fives == 0 {
                out.push((p, own_value + opp_value * 7 / 8));
            }
        }
    }
    let eval = combine(board, mine, theirs);
    if opp_fives > 0 || opp_open_fours > 0 {
        out.clear();
    }
    if opp_fives > 0 {
        // Only the blocks (and, where captures exist, a capture that may break the four).
        for &p in cands {
            let block = threat(board.patterns(p, opp)) == Threat::Five;
            if (block || (captures && board.captures_at(p, me))) && playable(board, p, me) {
                out.push((p, order_score(board, p)));
            }
        }
        return Generated::Moves {
            forced: true,
            fours,
            eval,
            defending: false,
        };
    }
    if opp_open_fours > 0 {
        // The opponent threatens a straight four: block a point of its line, or make a
        // four of our own (which it must answer first).
        for &p in cands {
            let own = board.patterns(p, me);
            let theirs = board.patterns(p, opp);
            let defends = theirs
                .iter()
                .any(|&t| t >= Pattern::Block4 && t != Pattern::Five);
            let attacks = own.iter().any(|&t| t >= Pattern::Block4);
            if (defends || attacks || (captures && board.captures_at(p, me)))
                && playable(board, p, me)
            {
                out.push((p, order_score(board, p)));
            }
        }
        return Generated::Moves {
            forced: false,
            fours,
            eval,
            defending: true,
        };
    }
    Generated::Moves {
        forced: false,
        fours,
        eval,
        defending: false,
    }
}

/// Ordering score of a point: what it makes for us plus most of what it takes from them.
#[inline]
pub fn order_score(board: &Board, p: Point) -> i32 {
    let me = board.to_move();
    point_value(board.patterns(p, me)) + point_value(board.patterns(p, me.opposite())) * 7 / 8
}
