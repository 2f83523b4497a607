//! Move generation for five-in-a-row, threat-aware: against a four only its blocks,
//! against an open three only its defences and our own fours, otherwise every point
//! near the stones, each with an ordering score.

use super::eval::{Threat, playable, point_value, threat, threat_value};
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
    /// no win by fours, and the leaf's VCF can be skipped).
    Moves { forced: bool, fours: bool },
}

/// Fills `out` with the moves to search (unordered scores attached) for the side to move.
/// `cands` must hold [`candidates`] of this position.
pub fn generate(board: &Board, cands: &[Point], out: &mut Vec<(Point, i32)>) -> Generated {
    out.clear();
    let me = board.to_move();
    let opp = me.opposite();
    let variant = board.variant();
    if variant.counting() {
        for &p in cands {
            if playable(board, p, me) {
                out.push((p, order_score(board, p)));
            }
        }
        return Generated::Moves {
            forced: false,
            fours: false,
        };
    }
    let captures = variant.captures().is_some();
    let mut opp_fives = 0;
    let mut opp_open_fours = 0;
    let mut fours = false;
    // One pass computes threats and ordering scores together; the threat branches
    // below (a four or an open three to answer) rebuild the list, which is rare.
    for &p in cands {
        let (own_threat, own_value) = threat_value(board.patterns(p, me));
        if own_threat == Threat::Five {
            return Generated::Win(p);
        }
        fours |= own_threat >= Threat::Four;
        let (opp_threat, opp_value) = threat_value(board.patterns(p, opp));
        match opp_threat {
            Threat::Five => opp_fives += 1,
            Threat::OpenFour if playable(board, p, opp) => opp_open_fours += 1,
            _ => {}
        }
        if opp_fives == 0 && playable(board, p, me) {
            out.push((p, own_value + opp_value * 7 / 8));
        }
    }
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
        };
    }
    Generated::Moves {
        forced: false,
        fours,
    }
}

/// Ordering score of a point: what it makes for us plus most of what it takes from them.
#[inline]
pub fn order_score(board: &Board, p: Point) -> i32 {
    let me = board.to_move();
    point_value(board.patterns(p, me)) + point_value(board.patterns(p, me.opposite())) * 7 / 8
}
