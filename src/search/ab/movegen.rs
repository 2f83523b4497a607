//! Move generation for five-in-a-row, threat-aware: against a four only its blocks,
//! against an open three or a four-three only their defences and our own fours,
//! otherwise every point near the stones, each with an ordering score.

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
        /// The other side has an open three (a point that makes a straight four) or a
        /// four-three: the moves are their defences and our fours.
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
    // The points where the opponent would make a four and an open three (a 4-3); past
    // four of them, the moves are not narrowed.
    let mut opp_four_threes = [Point::new(0, 0); 4];
    let mut n_four_threes = 0;
    // A point making a four lies within two of a stone: among the candidates.
    let fours = board.has_four_point(me);
    let (mut mine, mut theirs) = (0i64, 0i64);
    // One pass computes threats, ordering scores and the evaluation together (the
    // side to move has no five: the bit sets said so above); the threat branches below
    // (a four or an open three to answer) rebuild the list, which is rare.
    for &p in cands {
        let (_, own_value, own_eval) = threat_value(board.patterns(p, me));
        let (opp_threat, opp_value, opp_eval) = threat_value(board.patterns(p, opp));
        let opp_playable = !opp_fouls || playable(board, p, opp);
        match opp_threat {
            Threat::Five => opp_fives += 1,
            Threat::OpenFour if opp_playable => opp_open_fours += 1,
            Threat::FourThree if opp_playable => {
                if let Some(slot) = opp_four_threes.get_mut(n_four_threes) {
                    *slot = p;
                }
                n_four_threes += 1;
            }
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
    if (1..=opp_four_threes.len()).contains(&n_four_threes) && !captures {
        // The opponent wins by a four and then a straight four unless we answer each of
        // its four-three points: take it, break one of its two lines (within four points
        // of it along them), prepare a four of our own on the point where we will have to
        // block its four (a counter that wins the tempo back), or make fours of our own
        // first. A move that answers none of them is dropped.
        let threats = &opp_four_threes[..n_four_threes];
        out.retain(|&(p, _)| {
            board.patterns(p, me).iter().any(|&t| t >= Pattern::Block4)
                || threats.iter().any(|&q| answers_four_three(board, q, p))
        });
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

/// Whether our move `p` may stop the opponent's four-three on `q` (see [`generate`]).
fn answers_four_three(board: &Board, q: Point, p: Point) -> bool {
    let me = board.to_move();
    let pats = board.patterns(q, me.opposite());
    if p == q
        || line_dir(q, p).is_some_and(|(k, d)| {
            k.abs() <= 4 && matches!(pats[d], Pattern::Flex3 | Pattern::Block4)
        })
    {
        return true;
    }
    let mut blocks = [q; 4];
    let n = five_points_after(board, q, me.opposite(), &pats, &mut blocks);
    blocks[..n].iter().any(|&f| {
        line_dir(f, p)
            .is_some_and(|(k, d)| k.abs() <= 4 && board.pattern(p, me, d) >= Pattern::Block3)
    })
}

/// The line through `q` and `p`, if they share one: how many steps from `q` to `p` and
/// the direction (an index into [`DIRECTIONS`](crate::games::fiar::DIRECTIONS)).
fn line_dir(q: Point, p: Point) -> Option<(i32, usize)> {
    let (dx, dy) = (p.x as i32 - q.x as i32, p.y as i32 - q.y as i32);
    match (dx, dy) {
        (0, 0) => None,
        (_, 0) => Some((dx, 0)),
        (0, _) => Some((dy, 1)),
        _ if dx == dy => Some((dx, 2)),
        _ if dx == -dy => Some((dx, 3)),
        _ => None,
    }
}

/// The points where `color`, having played `q` (whose patterns are `pats`), would make
/// five along the lines where `q` makes a four: the points the other side must then
/// block. Writes them to `out` and returns how many.
fn five_points_after(
    board: &Board,
    q: Point,
    color: crate::core::Color,
    pats: &[Pattern; 4],
    out: &mut [Point; 4],
) -> usize {
    let (w, h) = (board.width() as i32, board.height() as i32);
    let at = |k: i32, (dx, dy): (i32, i32)| {
        let (x, y) = (q.x as i32 + k * dx, q.y as i32 + k * dy);
        (x >= 0 && y >= 0 && x < w && y < h).then(|| Point::new(x as u8, y as u8))
    };
    let mut n = 0;
    for (d, &dir) in crate::games::fiar::DIRECTIONS.iter().enumerate() {
        if pats[d] != Pattern::Block4 {
            continue;
        }
        for k in -4..=4i32 {
            let Some(f) = at(k, dir).filter(|&f| k != 0 && board.is_empty(f)) else {
                continue;
            };
            // A window of five holding q, f and three stones of `color`.
            let five = (k.max(0) - 4..=k.min(0)).any(|s| {
                (s..s + 5).all(|j| {
                    j == 0 || j == k || at(j, dir).is_some_and(|c| board.stone(c) == Some(color))
                })
            });
            if five && n < out.len() && !out[..n].contains(&f) {
                out[n] = f;
                n += 1;
            }
        }
    }
    n
}

/// Ordering score of a point: what it makes for us plus most of what it takes from them.
#[inline]
pub fn order_score(board: &Board, p: Point) -> i32 {
    let me = board.to_move();
    point_value(board.patterns(p, me)) + point_value(board.patterns(p, me.opposite())) * 7 / 8
}
