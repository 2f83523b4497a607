//! Move generation for five-in-a-row, threat-aware: against a four only its blocks,
//! against an open three or a four-three to come only their defences and our own fours,
//! otherwise every point near the stones, each with an ordering score.

use super::eval::{Threat, combine, evaluate, playable, point_value, threat, threat_value};
use crate::core::Color;
use crate::core::error::Point;
use crate::games::fiar::board::MAX_SIDE;
use crate::games::fiar::{Board, DIRECTIONS, LineRule, Pattern};

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
    // The opponent's straight-four points (a few suffice: more than fit fall back to
    // every point where it makes a four).
    let mut open_four_points = [Point::new(0, 0); 8];
    // The first point where the opponent would make a four and an open three at once.
    let mut opp_four_three = None;
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
            Threat::OpenFour if opp_playable => {
                if opp_open_fours < open_four_points.len() {
                    open_four_points[opp_open_fours] = p;
                }
                opp_open_fours += 1
            }
            Threat::FourThree if opp_playable && opp_four_three.is_none() => {
                opp_four_three = Some(p)
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
        let exact = opp_open_fours <= open_four_points.len() && !captures;
        let mut marks = Marks::default();
        if exact {
            for &f in &open_four_points[..opp_open_fours] {
                line_four_defences(board, f, opp, |q| marks.set(q));
            }
        }
        for &p in cands {
            let defends = if exact {
                marks.has(p)
            } else {
                board
                    .patterns(p, opp)
                    .iter()
                    .any(|&t| t >= Pattern::Block4 && t != Pattern::Five)
            };
            let attacks = board.patterns(p, me).iter().any(|&t| t >= Pattern::Block4);
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
    // The opponent threatens a four-three: every move that neither stops it nor makes
    // a four loses to it, so only those are searched (Rapfi's DEFEND_B4F3 stage). Not
    // where captures exist: a capture anywhere may break its lines.
    if let Some(p) = opp_four_three
        && !captures
    {
        let mut marks = Marks::default();
        if four_three_defences(board, p, &mut marks) {
            out.retain(|&(q, _)| marks.has(q) || threat(board.patterns(q, me)) >= Threat::Four);
        }
    }
    Generated::Moves {
        forced: false,
        fours,
        eval,
        defending: false,
    }
}

/// A set of points of a board of at most `MAX_SIDE` x `MAX_SIDE`, one bit each.
#[derive(Default)]
struct Marks([u64; MAX_SIDE * MAX_SIDE / 64]);

impl Marks {
    fn index(p: Point) -> usize {
        p.x as usize + MAX_SIDE * p.y as usize
    }

    fn set(&mut self, p: Point) {
        let i = Marks::index(p);
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn has(&self, p: Point) -> bool {
        let i = Marks::index(p);
        self.0[i / 64] & 1 << (i % 64) != 0
    }
}

/// Shows `visit` the empty points within `reach` of `p` along direction `dir`, outward
/// on both sides, passing over stones of `through` and stopping at any other stone, a
/// spent point or the edge; on one side the walk also stops when `visit` says false.
fn walk_line(
    board: &Board,
    p: Point,
    dir: usize,
    reach: i32,
    through: Color,
    mut visit: impl FnMut(Point) -> bool,
) {
    let (dx, dy) = DIRECTIONS[dir];
    for sign in [1, -1] {
        for k in 1..=reach {
            let (x, y) = (p.x as i32 + sign * k * dx, p.y as i32 + sign * k * dy);
            if x < 0 || y < 0 || x >= board.width() as i32 || y >= board.height() as i32 {
                break;
            }
            let q = Point::new(x as u8, y as u8);
            match board.stone(q) {
                Some(c) if c == through => continue,
                Some(_) => break,
                None if board.is_spent(q) => break,
                None if !visit(q) => break,
                None => {}
            }
        }
    }
}

/// Marks the moves that may stop the opponent's four-three on `p`: the point itself, the
/// points of its three's line, the points that complete its four (in caro, every point
/// of its four's line: one beyond the five closes it), and the points that make a point
/// completing its four a four of ours (blocking the four then answers with a four). A
/// superset of the exact defences: the search sorts them out. Returns false when no
/// direct defence is needed because a point that completes its four already makes a
/// four of ours.
fn four_three_defences(board: &Board, p: Point, marks: &mut Marks) -> bool {
    let me = board.to_move();
    let opp = me.opposite();
    // Where a five closed at both ends does not win (caro), a stone just beyond the
    // five's far end, five points away, also stops it.
    let (caro, reach) = caro_reach(board, opp);
    marks.set(p);
    let mut countered = false;
    for (dir, pat) in board.patterns(p, opp).into_iter().enumerate() {
        match pat {
            Pattern::Flex3 => walk_line(board, p, dir, reach, opp, |q| {
                marks.set(q);
                true
            }),
            Pattern::Block4 => walk_line(board, p, dir, reach, opp, |q| {
                let completes = board.pattern(q, opp, dir) >= Pattern::Block4;
                if completes || caro {
                    marks.set(q);
                }
                if completes {
                    countered |= threat(board.patterns(q, me)) >= Threat::Four;
                    for d in 0..DIRECTIONS.len() {
                        walk_line(board, q, d, 4, me, |r| {
                            let ours = board.pattern(r, me, d) >= Pattern::Block3;
                            if ours {
                                marks.set(r);
                            }
                            ours
                        });
                    }
                }
                true
            }),
            _ => {}
        }
    }
    !countered
}

/// Shows `defence` the points that may stop `opp`'s straight four (or double four) to
/// be made on `f`: `f` itself and, on each line where `f` makes a four, the points that
/// make a four of that same line (any other point leaves the line's four to come; in
/// caro, every point of the line, since a stone beyond a five closes it).
pub fn line_four_defences(board: &Board, f: Point, opp: Color, mut defence: impl FnMut(Point)) {
    let (caro, reach) = caro_reach(board, opp);
    defence(f);
    for (dir, pat) in board.patterns(f, opp).into_iter().enumerate() {
        // A plain open three (two points make a straight four of its line): only those
        // two stop it; a stone beyond either end leaves the other straight four to come.
        if !caro && pat == Pattern::Flex4 {
            let mut plain = false;
            walk_line(board, f, dir, reach, opp, |q| {
                if board.pattern(q, opp, dir) == Pattern::Flex4 && playable(board, q, opp) {
                    defence(q);
                    plain = true;
                }
                true
            });
            if plain {
                continue;
            }
        }
        if pat >= Pattern::Block4 && pat != Pattern::Five {
            walk_line(board, f, dir, reach, opp, |q| {
                if caro || board.pattern(q, opp, dir) >= Pattern::Block4 {
                    defence(q);
                }
                true
            });
        }
    }
}

/// Whether a five of `color` closed at both ends fails to win (caro), and so how far
/// along a line a stone still stops its five: one point further there.
fn caro_reach(board: &Board, color: Color) -> (bool, i32) {
    let caro = matches!(
        board.variant().line_rule(color),
        LineRule::Caro | LineRule::CaroExact
    );
    (caro, if caro { 5 } else { 4 })
}

/// Ordering score of a point: what it makes for us plus most of what it takes from them.
#[inline]
pub fn order_score(board: &Board, p: Point) -> i32 {
    let me = board.to_move();
    point_value(board.patterns(p, me)) + point_value(board.patterns(p, me.opposite())) * 7 / 8
}
