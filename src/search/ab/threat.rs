//! Threat-space search: VCF (victory by continuous fours) for the side to move.
//!
//! The attacker plays only fours; the defender's only answer to a four is its
//! completion point (plus, in capture variants, any capture, which may break the
//! four). The attacker wins when a four cannot be stopped: a straight four or two fours,
//! a completion point the defender may not play (renju: white wins by forcing black onto
//! a foul), or a five.

use super::eval::{Threat, playable, threat};
use super::movegen::{candidates, line_four_defences};
use crate::core::error::Point;
use crate::games::fiar::{Board, Move, Outcome, Pattern};

/// Whether a threat sequence can end this game: it is on, and a five ends it (not so in
/// the counting games, which play on after rows).
fn threats_can_decide(board: &Board) -> bool {
    !board.variant().counting() && board.outcome() == Outcome::Ongoing
}

/// A small direct-mapped memory of positions where VCF failed, by key and depth.
pub struct FailCache {
    slots: Box<[(u64, u8)]>,
}

impl FailCache {
    pub fn new(bits: u32) -> FailCache {
        FailCache {
            slots: vec![(0, 0); 1 << bits].into_boxed_slice(),
        }
    }
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }
    fn failed(&self, key: u64, depth: u32) -> bool {
        let (k, d) = self.slots[self.slot(key)];
        k == key && d as u32 >= depth
    }
    fn remember(&mut self, key: u64, depth: u32) {
        let i = self.slot(key);
        self.slots[i] = (key, depth.min(255) as u8);
    }
    pub fn clear(&mut self) {
        self.slots.fill((0, 0));
    }
}

/// Scratch space of one VCF search.
pub struct Vcf {
    pub cache: FailCache,
    cands: Vec<Vec<Point>>,
    pub nodes: u64,
    /// Node count at which the current solve gives up (a failure not worth caching).
    limit: u64,
    aborted: bool,
}

impl Default for Vcf {
    fn default() -> Self {
        Vcf::new()
    }
}

impl Vcf {
    pub fn new() -> Vcf {
        Vcf {
            cache: FailCache::new(16),
            cands: Vec::new(),
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
        }
    }

    /// Whether the side to move wins by continuous fours within `depth` of its own moves,
    /// looking at no more than `budget` positions. On success `line` holds the winning
    /// sequence (attacker and defender moves).
    pub fn solve(
        &mut self,
        board: &mut Board,
        depth: u32,
        budget: u64,
        line: &mut Vec<Point>,
    ) -> bool {
        line.clear();
        if !threats_can_decide(board) {
            return false;
        }
        self.limit = self.nodes.saturating_add(budget);
        self.aborted = false;
        self.attack(board, depth, 0, line)
    }

    /// Whether the last [`solve`](Vcf::solve) stopped at its budget: its "no win" is
    /// then not a proof.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn attack(&mut self, board: &mut Board, depth: u32, ply: usize, line: &mut Vec<Point>) -> bool {
        self.nodes += 1;
        if depth == 0 {
            return false;
        }
        if self.nodes >= self.limit {
            self.aborted = true;
            return false;
        }
        let key = board.key().0;
        if self.cache.failed(key, depth) {
            return false;
        }
        let me = board.to_move();
        let opp = me.opposite();
        if let Some(p) = board.five_points(me).next() {
            line.push(p);
            return true;
        }
        if self.cands.len() <= ply {
            self.cands.push(Vec::new());
        }
        // The attacker's fours, from the board's threat bits (row by row); against a
        // four of the defender's, only its block, and only if it is a four too.
        let mut cands = std::mem::take(&mut self.cands[ply]);
        cands.clear();
        let (b1, b2) = {
            let mut f = board.five_points(opp);
            (f.next(), f.next())
        };
        match (b1, b2) {
            (None, _) => cands.extend(board.four_points(me)),
            (Some(b), None) => {
                if board.patterns(b, me).iter().any(|&t| t >= Pattern::Block4) {
                    cands.push(b);
                }
            }
            (Some(_), Some(_)) => {}
        }
        let mut won = false;
        for &a in &cands {
            let pats = board.patterns(a, me);
            if !playable(board, a, me) {
                continue;
            }
            if self.after_four(board, a, pats, depth, ply, line) {
                won = true;
                break;
            }
        }
        self.cands[ply] = cands;
        if !won && !self.aborted {
            self.cache.remember(key, depth);
        }
        won
    }

    /// The attacker plays the four on `a`; true if every defence loses.
    fn after_four(
        &mut self,
        board: &mut Board,
        a: Point,
        pats: [Pattern; 4],
        depth: u32,
        ply: usize,
        line: &mut Vec<Point>,
    ) -> bool {
        let me = board.to_move();
        board.play_unchecked(Move::Place(a));
        let mark = line.len();
        line.push(a);
        let won = match board.outcome() {
            Outcome::Win { winner, .. } if winner == me => true,
            Outcome::Ongoing => {
                let unstoppable = threat(pats) == Threat::OpenFour;
                // The completion points of the four just made: the attacker had no five
                // to make before it.
                let (block, second) = {
                    let mut f = board.five_points(me);
                    (f.next(), f.next())
                };
                let n = block.is_some() as usize + second.is_some() as usize;
                if unstoppable || n >= 2 {
                    true
                } else if n == 0 {
                    false
                } else {
                    self.defend(board, block.expect("n is 1"), depth, ply, line)
                }
            }
            _ => false,
        };
        if !won {
            line.truncate(mark);
        }
        board.undo().expect("the four was just played");
        won
    }

    /// The defender must answer the four whose completion point is `block`.
    fn defend(
        &mut self,
        board: &mut Board,
        block: Point,
        depth: u32,
        ply: usize,
        line: &mut Vec<Point>,
    ) -> bool {
        let def = board.to_move();
        if !playable(board, block, def) {
            // Renju: black may not block on a forbidden point.
            return true;
        }
        let mut replies = vec![block];
        if board.variant().captures().is_some() {
            let mut cands = Vec::new();
            candidates(board, &mut cands);
            replies.extend(
                cands
                    .into_iter()
                    .filter(|&p| p != block && board.captures_at(p, def)),
            );
        }
        let mark = line.len();
        for (i, &r) in replies.iter().enumerate() {
            board.play_unchecked(Move::Place(r));
            let ok = match board.outcome() {
                Outcome::Ongoing => {
                    if i == 0 {
                        line.push(r);
                    }
                    let mut sub = Vec::new();
                    let target = if i == 0 { &mut *line } else { &mut sub };
                    self.attack(board, depth - 1, ply + 1, target)
                }
                Outcome::Win { winner, .. } => winner != def,
                Outcome::Draw(_) => false,
            };
            board.undo().expect("the reply was just played");
            if !ok {
                line.truncate(mark);
                return false;
            }
        }
        true
    }
}

/// Threat-space search beyond fours: VCT (victory by continuous threats). The attacker
/// plays fours and threes; after a three the defender may block any point that would
/// give the attacker a four, or play a four of its own; after a four only the block.
/// A VCF is tried first at every attacker node.
pub struct Vct {
    vcf: Vcf,
    pub nodes: u64,
    limit: u64,
}

impl Default for Vct {
    fn default() -> Self {
        Vct::new()
    }
}

impl Vct {
    pub fn new() -> Vct {
        Vct {
            vcf: Vcf::new(),
            nodes: 0,
            limit: u64::MAX,
        }
    }

    /// Whether the side to move wins by threats within `depth` of its own moves, looking
    /// at no more than `budget` positions. On success `line` holds the main line.
    pub fn solve(
        &mut self,
        board: &mut Board,
        depth: u32,
        budget: u64,
        line: &mut Vec<Point>,
    ) -> bool {
        line.clear();
        // Captures can break a three's line in ways the defence set below ignores.
        if !threats_can_decide(board) || board.variant().captures().is_some() {
            return false;
        }
        self.limit = self.nodes.saturating_add(budget);
        (1..=depth).any(|d| {
            line.clear();
            self.nodes < self.limit && self.attack(board, d, line)
        })
    }

    fn attack(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Point>) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit {
            return false;
        }
        let mut fours_line = Vec::new();
        let before = self.vcf.nodes;
        let vcf = self.vcf.solve(board, 12, 2_000, &mut fours_line);
        self.nodes += self.vcf.nodes - before;
        if vcf {
            line.extend(fours_line);
            return true;
        }
        if depth == 0 {
            return false;
        }
        let me = board.to_move();
        let opp = me.opposite();
        if board.has_five_point(opp) {
            // The defender threatens five: the VCF above already tried the blocks that
            // are fours; a quiet block is not a threat.
            return false;
        }
        // Threes only (fours were the VCF's job), strongest shapes first.
        let mut cands = Vec::new();
        candidates(board, &mut cands);
        let mut moves: Vec<(Point, Threat)> = cands
            .iter()
            .map(|&p| (p, threat(board.patterns(p, me))))
            .filter(|&(p, t)| {
                matches!(t, Threat::Three | Threat::DoubleThree) && playable(board, p, me)
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        for (a, _) in moves {
            board.play_unchecked(Move::Place(a));
            // A three counts only if its straight four may really be played (renju:
            // not on black's forbidden point).
            let real = board
                .four_points(me)
                .any(|q| board.patterns(q, me).contains(&Pattern::Flex4) && playable(board, q, me));
            let mark = line.len();
            line.push(a);
            let won =
                real && board.outcome() == Outcome::Ongoing && self.defend(board, depth, line);
            board.undo().expect("the threat was just played");
            if won {
                return true;
            }
            line.truncate(mark);
        }
        false
    }

    /// The defender answers a three: every block of a point that would give the attacker
    /// a four, and every four of its own, must lose.
    fn defend(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Point>) -> bool {
        let att = board.to_move().opposite();
        let replies = defences(board);
        if replies.is_empty() {
            return false;
        }
        let mark = line.len();
        for (i, &r) in replies.iter().enumerate() {
            board.play_unchecked(Move::Place(r));
            let mut sub = Vec::new();
            let ok = match board.outcome() {
                Outcome::Ongoing => self.attack(board, depth - 1, &mut sub),
                Outcome::Win { winner, .. } => winner == att,
                Outcome::Draw(_) => false,
            };
            board.undo().expect("the reply was just played");
            if !ok {
                line.truncate(mark);
                return false;
            }
            if i == 0 {
                line.push(r);
                line.extend(sub);
            }
        }
        true
    }
}

/// The answers the threat searches give the defender, the side to move, after the
/// attacker's last move: against a four, its block (and, where captures exist, every
/// capture); against a three, every point that makes a four for either side. When a
/// threat search proves a win, it has refuted each of them.
pub fn defences(board: &Board) -> Vec<Point> {
    let def = board.to_move();
    let att = def.opposite();
    let mut replies: Vec<Point> = if board.has_five_point(att) {
        let mut blocks: Vec<Point> = board.five_points(att).collect();
        if board.variant().captures().is_some() {
            let mut cands = Vec::new();
            candidates(board, &mut cands);
            blocks.extend(cands.into_iter().filter(|&p| board.captures_at(p, def)));
        }
        blocks
    } else {
        // Against a three, the points of its line that make a four (what stops its
        // straight four), and every four of the defender's own.
        let mut replies: Vec<Point> = board.four_points(def).collect();
        let mut open_fours = board
            .four_points(att)
            .filter(|&p| {
                threat(board.patterns(p, att)) == Threat::OpenFour && playable(board, p, att)
            })
            .peekable();
        if open_fours.peek().is_some() {
            for f in open_fours {
                line_four_defences(board, f, att, |q| replies.push(q));
            }
        } else {
            replies.extend(board.four_points(att));
        }
        replies
    };
    replies.sort_unstable_by_key(|p| (p.y, p.x));
    replies.dedup();
    replies.retain(|&p| playable(board, p, def));
    replies
}
