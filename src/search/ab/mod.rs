//! Alpha-beta search for five-in-a-row: PVS with iterative deepening and aspiration
//! windows, a shared lock-free transposition table (Lazy SMP), threat-aware move
//! generation, history, killer and counter-move ordering, pruning (futility, move count,
//! razoring, distractions from a defence, late-move reductions), singular extensions, a
//! correction history of the static score, and VCF at the leaves in place of a
//! quiescence search.

pub mod eval;
pub mod movegen;
pub mod threat;
pub mod tune;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use self::eval::Threat;
use self::movegen::{Generated, candidates, generate};
use self::threat::{Vcf, Vct};
use super::{Info, Limits, Reporter, Score};
use crate::core::error::Point;
use crate::core::tt::{Bound, Entry, Table};
use crate::games::fiar::{Board, Move, Outcome, Pattern};

/// Score of a win at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses.
const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;
/// Attacker moves VCF may spend at a leaf, and at the root.
const LEAF_VCF_DEPTH: u32 = 6;
const ROOT_VCF_DEPTH: u32 = 225;
/// Positions one VCF may look at, at a leaf and at the root.
const LEAF_VCF_NODES: u64 = 60;
const ROOT_VCF_NODES: u64 = 300_000;
/// Attacker moves and positions of the root's VCT.
const ROOT_VCT_DEPTH: u32 = 4;
const ROOT_VCT_NODES: u64 = 40_000;

/// Reverse futility pruning: the deepest node it applies to, and its margin a ply.
const REVERSE_FUTILITY_DEPTH: i32 = 6;
const FUTILITY_MARGIN: i32 = 197;
/// Futility of a quiet move at a shallow node: the deepest node, and its margin a ply.
const FUTILITY_DEPTH: i32 = 3;
const MOVE_FUTILITY_MARGIN: i32 = 179;
/// Razoring: the deepest node scored as a leaf when far below alpha, and the margin.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: i32 = 307;

/// Bound of a history entry, and what ordering adds for a killer and a counter-move (on
/// the scale of [`eval::ORDER`], where an open three is worth 110).
const HISTORY_RANGE: i32 = 10_000;
const KILLER_BONUS: i32 = 46;
const COUNTER_BONUS: i32 = 26;
/// Late-move reduction: ln(depth) ln(i) divided by this, in hundredths.
const LMR_DIVISOR: i32 = 208;

/// Distractions (our far fours against an open three) are skipped up to this depth.
const DISTRACT_DEPTH: i32 = 4;

/// Singular extension: the shallowest node it is tried at, and its margin a ply below
/// the table's score.
const SE_DEPTH: i32 = 6;
const SE_MARGIN: i32 = 3;

/// Correction history (Stockfish's, keyed here by the shape around the last move): its
/// slots, the grain of an entry (eighths of a point of score), and how far a search's
/// result may pull it.
const CORRECTION_SLOTS: usize = 1 << 14;
const CORRECTION_GRAIN: i32 = 8;
const CORRECTION_CLAMP: i32 = 2_000;

/// The static score with its correction.
fn corrected(eval: i32, entry: i32) -> i32 {
    eval + entry / CORRECTION_GRAIN
}

/// A correction entry moved toward a searched node's error `error` (its result less
/// its static score), the more the deeper the search: a deep search is the better
/// judge, and an entry that keeps the same error converges to it.
fn corrected_entry(entry: i32, error: i32, depth: i32) -> i32 {
    let target = error.clamp(-CORRECTION_CLAMP, CORRECTION_CLAMP) * CORRECTION_GRAIN;
    entry + (target - entry) * depth.clamp(1, 16) / 64
}

/// Quiet moves a non-PV node at `depth` searches before it stops: 3 + depth^1.32.
fn move_count_limit(depth: i32) -> usize {
    const LIMITS: [usize; 9] = [3, 4, 5, 7, 9, 11, 13, 16, 18];
    LIMITS.get(depth as usize).copied().unwrap_or(usize::MAX)
}

/// Late-move reduction of the `i`-th move at `depth`: ln(depth) ln(i) / 2.08 (the divisor
/// is [`LMR_DIVISOR`] or its tuned value), one ply less on the principal variation (the
/// table is 64 entries, computed once).
fn reduction(depth: i32, i: usize, pv_node: bool) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 32]; 64]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let divisor = tune::params().lmr as f64 / 100.0;
        let mut t = [[0u8; 32]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
            }
        }
        t
    });
    let r = t[(depth as usize).min(63)][i.min(31)] as i32;
    (r - pv_node as i32).clamp(0, depth - 1)
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// A forced win found at the root by fours (VCF) or threats (VCT): the attacker's
    /// moves and the defender's replies of the main line.
    pub threat_line: Option<Vec<Point>>,
}

/// A move in the table's 16 bits: x, y and a presence bit.
fn encode(p: Point) -> u16 {
    0x8000 | p.x as u16 | (p.y as u16) << 5
}

/// A point's index among 1024 (a 32x32 grid, the layout [`encode`] uses), for the
/// tables kept per point.
fn cell(p: Point) -> usize {
    (encode(p) & 0x3ff) as usize
}

fn decode(m: u16) -> Option<Point> {
    (m & 0x8000 != 0).then(|| Point::new((m & 31) as u8, ((m >> 5) & 31) as u8))
}

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The user's view of a score.
pub fn user_score(score: i32) -> Score {
    if score > MATE_BOUND {
        Score::Win((MATE - score) as u32)
    } else if score < -MATE_BOUND {
        Score::Loss((MATE + score) as u32)
    } else {
        Score::Value(score)
    }
}

/// State every search thread shares.
struct Shared<'a> {
    tt: &'a Table,
    /// Set by the caller (a protocol's stop command).
    external: &'a AtomicBool,
    /// Set when a limit is reached or the main thread is done.
    stop: AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: AtomicU64,
    /// The depth of the main thread's current iteration: helpers keep one ahead of it.
    main_depth: AtomicU32,
    /// The deepest iteration a helper finished: depth, score and move packed so that a
    /// larger value is a deeper one ([`pack_result`]).
    helper_best: AtomicU64,
}

/// A finished iteration's depth, score and move in one word, the depth highest, then the
/// score offset to be unsigned (so that of two iterations of one depth, the better score
/// is the larger word).
fn pack_result(depth: u32, score: i32, m: u16) -> u64 {
    let biased = (score.clamp(i16::MIN as i32, i16::MAX as i32) + 0x8000) as u64;
    (depth as u64) << 48 | biased << 16 | m as u64
}

fn unpack_result(v: u64) -> (u32, i32, u16) {
    (
        (v >> 48) as u32,
        ((v >> 16) & 0xffff) as i32 - 0x8000,
        v as u16,
    )
}

impl Shared<'_> {
    fn out_of_budget(&self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return true;
        }
        self.node_limit
            .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n)
    }
}

/// One search thread.
struct Worker<'a> {
    board: Board,
    shared: &'a Shared<'a>,
    id: usize,
    nodes: u64,
    unreported: u64,
    sel_depth: usize,
    /// Deepest ply of this iteration (its depth plus room for forced extensions).
    ply_limit: usize,
    killers: [[u16; 2]; MAX_PLY],
    /// How often a move on a point has cut off, by side and kind (attack: it makes a
    /// three or more; quiet otherwise), kept within ±[`HISTORY_RANGE`].
    history: Vec<i32>,
    /// The reply that last cut off after the opponent's move on a point, by the side
    /// that replies.
    counter: Vec<u16>,
    /// The move played at each ply of the current line.
    played: [u16; MAX_PLY],
    /// The move a singular-extension search leaves out at each ply (0: none).
    excluded: [u16; MAX_PLY],
    /// Moves searched at each ply before the one that cut off, with their kind.
    tried: Vec<Vec<(Point, bool)>>,
    lists: Vec<Vec<(Point, i32)>>,
    cands: Vec<Vec<Point>>,
    vcf: Vcf,
    vcf_line: Vec<Point>,
    /// How far searches ended from the static score, by the shape around the move that
    /// led to the node (see [`Worker::correction_slot`]), in [`CORRECTION_GRAIN`]s.
    correction: Vec<i32>,
    /// Whether the variant captures stones. The correction is then off (the square shape
    /// says nothing of the captures each side has made; in pente, keryo-pente and ni-nuki
    /// it scored 25 of 60 against the search without it), and so is the distraction
    /// pruning (a capture far away may break a three).
    captures: bool,
    /// The margins and bonuses ([`tune`]).
    params: &'static tune::Params,
}

impl<'a> Worker<'a> {
    fn new(board: Board, shared: &'a Shared<'a>, id: usize) -> Worker<'a> {
        let captures = board.variant().captures().is_some();
        Worker {
            board,
            shared,
            id,
            nodes: 0,
            unreported: 0,
            sel_depth: 0,
            ply_limit: MAX_PLY - 2,
            killers: [[0; 2]; MAX_PLY],
            history: vec![0; 2 * 2 * 1024],
            counter: vec![0; 2 * 1024],
            played: [0; MAX_PLY],
            excluded: [0; MAX_PLY],
            tried: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            cands: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            vcf: Vcf::new(),
            vcf_line: Vec::with_capacity(64),
            correction: vec![0; CORRECTION_SLOTS],
            captures,
            params: tune::params(),
        }
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed) || self.shared.external.load(Ordering::Relaxed)
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= 512 {
            self.shared
                .nodes
                .fetch_add(self.unreported, Ordering::Relaxed);
            self.unreported = 0;
            if self.shared.out_of_budget() {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The leaf's VCF for the side to move. Its positions count as nodes, as a
    /// quiescence search's do in other engines (Rapfi's among them).
    fn leaf_vcf(&mut self) -> bool {
        let before = self.vcf.nodes;
        let won = self.vcf.solve(
            &mut self.board,
            LEAF_VCF_DEPTH,
            LEAF_VCF_NODES,
            &mut self.vcf_line,
        );
        let used = self.vcf.nodes - before;
        self.nodes += used;
        self.unreported += used;
        won
    }

    fn history_index(&self, p: Point, attack: bool) -> usize {
        (self.board.to_move().index() * 2 + attack as usize) * 1024 + cell(p)
    }

    /// Moves the history of a point toward `bonus` (negative: a malus), staying in range
    /// however often it is updated.
    fn update_history(&mut self, p: Point, attack: bool, bonus: i32) {
        let i = self.history_index(p, attack);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_RANGE;
    }

    /// The counter-move slot of the opponent's last move, if there is one.
    fn counter_index(&self, ply: usize) -> Option<usize> {
        let last = decode(*self.played.get(ply.checked_sub(1)?)?)?;
        Some(self.board.to_move().index() * 1024 + cell(last))
    }

    /// The correction slot of a node at `ply`: the 5x5 shape around the opponent's last
    /// move as the side to move sees it. A shape's static score tends to be off the same
    /// way wherever it stands (a three the score overrates because the side to move
    /// cannot extend it, a cluster whose threats the patterns miss), and searches of
    /// earlier nodes have measured by how much.
    fn correction_slot(&self, ply: usize) -> Option<usize> {
        let last = decode(*self.played.get(ply.checked_sub(1)?)?)?;
        let shape = self.board.square_shape(last, self.board.to_move());
        Some((shape.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 50) as usize)
    }

    /// The score of a finished game from the side to move's view.
    fn terminal(&self, ply: usize) -> Option<i32> {
        match self.board.outcome() {
            Outcome::Ongoing => None,
            Outcome::Win { winner, .. } => Some(if winner == self.board.to_move() {
                MATE - ply as i32
            } else {
                -(MATE - ply as i32)
            }),
            Outcome::Draw(_) => Some(0),
        }
    }

    /// Negamax with alpha-beta (PVS).
    fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.count_node();
        if self.stopped() {
            return 0;
        }
        self.sel_depth = self.sel_depth.max(ply);
        if let Some(s) = self.terminal(ply) {
            return s;
        }
        // Forced answers to fours are searched without using up depth; this bound keeps
        // the chains of four-and-block in a crowded position from running away.
        if ply >= self.ply_limit {
            let c = &mut self.cands[ply];
            candidates(&self.board, c);
            return eval::evaluate(&self.board, c);
        }
        // Step 1. Mate-distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Step 2. The table, before any move is generated: a cut-off then costs no
        // generation. At the horizon too: leaves keep their scores there (depth 0), so a
        // leaf met again costs neither its evaluation nor its VCF.
        let key = self.board.key();
        let entry = self.shared.tt.probe(key);
        let excluding = self.excluded[ply] != 0;
        if let Some(e) = entry
            && !pv_node
            && !excluding
            && let Some(s) = tt_cut(e, depth.max(0), alpha, beta, ply)
        {
            return s;
        }
        // Step 2b. Singular extension: when every move but the table's fails well below
        // its score in a shallower search, the table's move is searched a ply deeper; when
        // even without it the node fails high, it is cut (multi-cut). Rapfi's ~52 Elo.
        let mut singular = false;
        if let Some(e) = entry
            && depth >= SE_DEPTH
            && ply > 0
            && !excluding
            && e.bound != Bound::Upper
            && e.depth as i32 >= depth - 3
            && e.mv != 0
            && !self.board.has_five_point(self.board.to_move().opposite())
        {
            let tt_score = from_tt(e.score, ply);
            if tt_score.abs() < MATE_BOUND {
                let singular_beta = tt_score - SE_MARGIN * depth;
                self.excluded[ply] = e.mv;
                let s = self.search(
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                );
                self.excluded[ply] = 0;
                if self.stopped() {
                    return 0;
                }
                if s < singular_beta {
                    singular = true;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        // Step 3. Moves, and the immediate win.
        let mut cands = std::mem::take(&mut self.cands[ply]);
        let mut list = std::mem::take(&mut self.lists[ply]);
        let generated = generate(&self.board, &mut cands, &mut list);
        let result = self.search_moves(
            generated, &mut list, depth, alpha, beta, ply, pv_node, entry, singular,
        );
        self.cands[ply] = cands;
        self.lists[ply] = list;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        generated: Generated,
        list: &mut [(Point, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        entry: Option<Entry>,
        singular: bool,
    ) -> i32 {
        let (forced, fours, eval, defending) = match generated {
            Generated::Win(_) => return MATE - ply as i32 - 1,
            Generated::Moves {
                forced,
                fours,
                eval,
                defending,
            } => (forced, fours, eval, defending),
        };
        // The static score corrected by what searches of nodes after the same shape found
        // (Stockfish's correction history: in self-play at a fixed 150,000 nodes a move,
        // +42 ± 30 Elo; README, issue 14). It steers the pruning; a leaf still returns
        // the plain score (corrected leaves played worse).
        let slot = if forced || eval.abs() >= MATE_BOUND || self.captures {
            None
        } else {
            self.correction_slot(ply)
        };
        let plain_eval = eval;
        let eval = slot.map_or(eval, |k| corrected(eval, self.correction[k]));
        if list.is_empty() {
            // No legal answer: either the board is full of forbidden points, or the
            // four cannot be blocked (renju: its block is forbidden for black).
            return if forced { -(MATE - ply as i32 - 2) } else { 0 };
        }
        // Step 4. Leaves: a VCF of the side to move, else the static score. Razoring: a
        // shallow non-PV node far below alpha is scored as a leaf too.
        let razor = !pv_node
            && depth <= RAZOR_DEPTH
            && eval.abs() < MATE_BOUND
            && eval + self.params.razor * depth < alpha;
        // An open three met at the horizon is answered first (its defences are few, and
        // the static score cannot tell a three that will be stopped from one that wins).
        let leaf = (depth <= 0 && !defending) || razor;
        if leaf && !forced || depth <= 0 && defending {
            // (`fours` is never set in the counting games, where a five does not win.)
            // A leaf whose static score already reaches beta stands pat: a win by fours
            // would fail high all the same (Rapfi's quiescence does so too).
            if fours && !(leaf && plain_eval >= beta) && self.leaf_vcf() {
                let s = MATE - ply as i32 - self.vcf_line.len() as i32;
                self.store_leaf(entry, s, Bound::Lower, ply);
                return s;
            }
            if leaf {
                // Standing pat without the VCF, the score is only a lower bound.
                let bound = if fours && plain_eval >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.store_leaf(entry, plain_eval, bound, ply);
                return plain_eval;
            }
        }
        // A four answered at the horizon is searched, but its block goes on at the depth
        // the node was called with (0 or less): the attacker then gets a leaf, not a new
        // full-width ply for every four it spends.
        let horizon_depth = depth;
        let depth = depth.max(1);
        // A non-PV node with no four to answer and no win in sight: its static score may
        // prune it (up to depth 6) or, when shallow, its quiet moves.
        let prunable = !pv_node && !forced && eval.abs() < MATE_BOUND;
        let shallow = prunable && depth <= FUTILITY_DEPTH;
        // Step 5. Reverse futility: far enough above beta, with no open three to answer
        // either, the node is not searched (Rapfi's ~121 Elo, with no depth limit there;
        // Stockfish's static null move).
        if prunable
            && depth <= REVERSE_FUTILITY_DEPTH
            && !defending
            && eval - self.params.futility * depth >= beta
        {
            return eval;
        }
        let key = self.board.key();
        let tt_move = entry.map_or(0, |e| e.mv);
        // Step 6. Order: the table move, then the pattern score nudged by the history of
        // the point (for its kind of move), the killers and the counter-move.
        let killers = self.killers[ply];
        let counter = self.counter_index(ply).map_or(0, |c| self.counter[c]);
        for (p, score) in list.iter_mut() {
            let m = encode(*p);
            if m == tt_move {
                *score += 1 << 28;
                continue;
            }
            let attack = self.is_attack(*p);
            let h = self.history[self.history_index(*p, attack)];
            *score += if attack { h / 128 } else { h / 256 };
            if m == killers[0] || m == killers[1] {
                *score += self.params.killer;
            }
            if m == counter {
                *score += self.params.counter;
            }
        }
        list.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        // Lazy SMP: helpers look at the moves in a slightly different order.
        if self.id > 0 && list.len() > 2 && depth > 2 {
            let k = 1 + (self.id + ply) % 2;
            let n = list.len() - k;
            list[k..].rotate_left(((self.id * 7 + ply) % n).min(2));
        }
        // Step 7. The moves.
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = 0;
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        let width = if forced {
            list.len()
        } else {
            list.len().min(28)
        };
        let futile = shallow && eval + self.params.move_futility * depth <= alpha;
        // Move-count pruning: past this many moves, a non-PV node skips its quiet ones
        // (Rapfi's ~107 Elo).
        let late = if pv_node || forced {
            usize::MAX
        } else {
            move_count_limit(depth)
        };
        for (i, &(p, _)) in list[..width].iter().enumerate() {
            // Late, quiet moves are searched shallower first, or not at all.
            let (attack, quiet) = self.kind(p, i);
            if quiet && i >= late && best > -MATE_BOUND {
                continue;
            }
            // A distraction: against an open three, shallow, a four of our own far from
            // both last moves that does not block the three only delays the loss it
            // shows (Rapfi's distract-defence pruning).
            if defending
                && depth <= DISTRACT_DEPTH
                && best > -MATE_BOUND
                && ply >= 2
                && self.is_distraction(p, ply)
            {
                continue;
            }
            // Futility: a quiet move will not lift a shallow node this far below alpha.
            if quiet && futile && best > -MATE_BOUND {
                continue;
            }
            let m = encode(p);
            if m == self.excluded[ply] {
                continue;
            }
            self.played[ply] = m;
            self.board.play_unchecked(Move::Place(p));
            let new_depth = if forced {
                horizon_depth
            } else {
                depth - 1 + (singular && m == tt_move) as i32
            };
            let s = if i == 0 {
                -self.search(new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                self.search_later(depth, new_depth, i, quiet, alpha, beta, ply, pv_node)
            };
            self.board.undo().expect("searched move was played");
            if self.stopped() {
                self.tried[ply] = tried;
                return 0;
            }
            if s > best {
                best = s;
                best_move = m;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        if !forced {
                            self.reward(p, m, attack, &tried, depth, ply);
                        }
                        break;
                    }
                }
            }
            tried.push((p, attack));
        }
        self.tried[ply] = tried;
        if self.excluded[ply] != 0 {
            // A search without the table's move says nothing about the node.
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A result that tells where the true score lies against the corrected one
        // (a bound on the far side of it says nothing) teaches the correction.
        if let Some(k) = slot
            && best.abs() < MATE_BOUND
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best > eval,
                Bound::Upper => best < eval,
            }
        {
            let c = &mut self.correction[k];
            *c = corrected_entry(*c, best - plain_eval, depth);
        }
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: to_tt(best, ply),
                // A four answered at the horizon searched its block at the horizon.
                depth: if forced { horizon_depth } else { depth }.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// The `i`-th move (not the first) of a node at `ply` searched to `depth`, just
    /// played: a null window at `new_depth`, less a quiet move's late-move reduction; a
    /// reduced move that fails high is searched again at its full depth before it may
    /// cut the node, and on a PV node a score inside the window gets the full window.
    /// Returns the score from the node's side.
    #[allow(clippy::too_many_arguments)]
    fn search_later(
        &mut self,
        depth: i32,
        new_depth: i32,
        i: usize,
        quiet: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let r = if quiet && depth >= 3 {
            reduction(depth, i, pv_node)
        } else {
            0
        };
        let mut s = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, false);
        if s > alpha && r > 0 {
            s = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, false);
        }
        if pv_node && s > alpha && s < beta {
            s = -self.search(new_depth, -beta, -alpha, ply + 1, true);
        }
        s
    }

    /// Whether the side to move's move on `p` makes a three or more: an attack, which the
    /// opponent must answer (the wins of five-in-a-row are chains of them).
    fn is_attack(&self, p: Point) -> bool {
        eval::threat(self.board.patterns(p, self.board.to_move())) >= Threat::Three
    }

    /// Whether a move on `p` at `ply`, answering an open three, neither blocks one of the
    /// other side's fours-to-be nor stands within four points of either side's last move.
    /// Never where stones are captured: a capture far away may break the three.
    fn is_distraction(&self, p: Point, ply: usize) -> bool {
        if self.captures {
            return false;
        }
        let opp = self.board.to_move().opposite();
        let blocks = self
            .board
            .patterns(p, opp)
            .iter()
            .any(|&t| t >= Pattern::Block4);
        let far = |m: u16| {
            decode(m).is_some_and(|q| {
                let (dx, dy) = (q.x as i32 - p.x as i32, q.y as i32 - p.y as i32);
                dx.abs().max(dy.abs()) > 4
            })
        };
        !blocks && far(self.played[ply - 1]) && far(self.played[ply - 2])
    }

    /// Whether the side to move's move on `p` is an attack, and whether, as the `i`-th
    /// move of its node, it is quiet: late, making and stopping nothing much, so that it
    /// may be reduced or pruned. An attack is never quiet.
    fn kind(&self, p: Point, i: usize) -> (bool, bool) {
        let attack = self.is_attack(p);
        let quiet = i >= 3 && !attack && movegen::order_score(&self.board, p) < 400;
        (attack, quiet)
    }

    /// A leaf's score into the table at depth 0, unless a searched entry holds its key.
    fn store_leaf(&mut self, entry: Option<Entry>, score: i32, bound: Bound, ply: usize) {
        if entry.is_some_and(|e| e.depth > 0) {
            return;
        }
        self.shared.tt.store(
            self.board.key(),
            Entry {
                mv: 0,
                score: to_tt(score, ply),
                depth: 0,
                bound,
            },
        );
    }

    /// A cut-off by `p` (encoded `m`) after the moves `tried`: the killers, the counter-move and the
    /// history learn it; the moves of its kind tried before it get a malus.
    fn reward(
        &mut self,
        p: Point,
        m: u16,
        attack: bool,
        tried: &[(Point, bool)],
        depth: i32,
        ply: usize,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some(c) = self.counter_index(ply) {
            self.counter[c] = m;
        }
        let bonus = (24 * depth * depth + 96 * depth).min(HISTORY_RANGE * 5 / 6);
        self.update_history(p, attack, bonus);
        for &(q, kind) in tried {
            if kind == attack {
                self.update_history(q, kind, -bonus);
            }
        }
    }

    /// One root iteration over `moves` (best first); returns the best score and move.
    fn root(
        &mut self,
        moves: &mut [(Point, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Point) {
        let mut best = -INF;
        let mut best_point = moves[0].0;
        for (i, m) in moves.iter_mut().enumerate() {
            let p = m.0;
            let (_, quiet) = self.kind(p, i);
            self.played[0] = encode(p);
            self.board.play_unchecked(Move::Place(p));
            let s = if i == 0 {
                -self.search(depth - 1, -beta, -alpha, 1, true)
            } else {
                // Late quiet root moves are reduced as a PV node's are (the root has
                // dozens of moves, each searched to the full depth before): at a fixed
                // 150,000 nodes a move, +50 ± 33 Elo in self-play (README, issue 14).
                self.search_later(depth, depth - 1, i, quiet, alpha, beta, 0, true)
            };
            self.board.undo().expect("root move was played");
            if self.stopped() {
                // An interrupted search says nothing about this move.
                break;
            }
            m.1 = s;
            if s > best {
                best = s;
                best_point = p;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        // The best move goes first for the next iteration; the others keep their order.
        if let Some(i) = moves.iter().position(|m| m.0 == best_point) {
            moves[..=i].rotate_right(1);
        }
        (best, best_point)
    }

    /// Iterative deepening; the main thread (id 0) reports and decides.
    fn think(
        &mut self,
        root_moves: &[(Point, i32)],
        limits: &Limits,
        reporter: &dyn Reporter,
    ) -> (Point, i32, u32) {
        let mut moves = root_moves.to_vec();
        let mut best = (moves[0].0, 0, 0);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .min(MAX_PLY as u32 - 8) as i32;
        let mut prev: i32 = 0;
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            if self.id == 0 {
                self.shared
                    .main_depth
                    .store(depth as u32, Ordering::Relaxed);
            }
            self.sel_depth = 0;
            self.ply_limit = (depth as usize * 2 + 8).min(MAX_PLY - 2);
            // Aspiration window around the last score, widened on failure.
            let mut delta = 60;
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            let (score, point) = loop {
                let (s, p) = self.root(&mut moves, depth, alpha, beta);
                if self.stopped() {
                    break (s, p);
                }
                if s <= alpha && alpha > -INF {
                    alpha = (s - delta).max(-INF);
                } else if s >= beta && beta < INF {
                    beta = (s + delta).min(INF);
                } else {
                    break (s, p);
                }
                delta *= 3;
            };
            if self.stopped() {
                // A partial iteration counts only if its first (previous best) move was
                // searched fully and another move beat it.
                if depth > 1 && point != best.0 && score > prev && score > -INF {
                    best = (point, score, best.2);
                }
                break;
            }
            prev = score;
            best = (point, score, depth as u32);
            if self.id > 0 {
                self.shared.helper_best.fetch_max(
                    pack_result(depth as u32, score, encode(point)),
                    Ordering::Relaxed,
                );
            }
            if self.id == 0 {
                let info = Info {
                    depth: depth as u32,
                    sel_depth: self.sel_depth as u32,
                    score: user_score(score),
                    nodes: self.shared.nodes.load(Ordering::Relaxed) + self.unreported,
                    elapsed: self.shared.start.elapsed(),
                    pv: self
                        .pv(point, depth as usize)
                        .iter()
                        .map(|m| m.to_string())
                        .collect(),
                    multipv: 1,
                };
                reporter.iteration(&info);
                if limits
                    .soft
                    .is_some_and(|s| self.shared.start.elapsed() >= s)
                {
                    break;
                }
                // A proven result will not change with more depth.
                if score.abs() > MATE_BOUND && (MATE - score.abs()) < depth {
                    break;
                }
            }
            depth += 1;
            if self.id > 0 {
                // Lazy SMP: a helper searching the main thread's depth would duplicate its
                // work; one ply ahead, it fills the table for the main thread's next
                // iteration.
                depth = depth.max(self.shared.main_depth.load(Ordering::Relaxed) as i32 + 1);
            }
        }
        best
    }

    /// The principal variation from the table, starting with `first`.
    fn pv(&mut self, first: Point, max: usize) -> Vec<Move> {
        let mut pv = vec![Move::Place(first)];
        self.board.play_unchecked(Move::Place(first));
        while pv.len() < max.max(1) && self.board.outcome() == Outcome::Ongoing {
            let Some(p) = self
                .shared
                .tt
                .probe(self.board.key())
                .and_then(|e| decode(e.mv))
            else {
                break;
            };
            if self.board.check(Move::Place(p)).is_err() {
                break;
            }
            pv.push(Move::Place(p));
            self.board.play_unchecked(Move::Place(p));
        }
        for _ in 0..pv.len() {
            self.board.undo().expect("pv move was played");
        }
        pv
    }
}

/// The result of a win found by a threat search: its line is the principal variation.
fn threat_win(board: &Board, line: Vec<Point>, nodes: u64) -> SearchResult {
    let plies = plies_to_win(board, &line);
    SearchResult {
        best: Move::Place(line[0]),
        score: Score::Win(plies),
        depth: plies,
        nodes,
        pv: line.iter().map(|&p| Move::Place(p)).collect(),
        threat_line: Some(line),
    }
}

/// Plies until the five, for a winning threat line: the line itself when it ends in a
/// five, two more when it ends in a four the defender cannot stop (any reply, then the
/// five).
fn plies_to_win(board: &Board, line: &[Point]) -> u32 {
    let mut b = board.clone();
    let me = b.to_move();
    for &p in line {
        b.play_unchecked(Move::Place(p));
    }
    let five = matches!(b.outcome(), Outcome::Win { winner, .. } if winner == me);
    line.len() as u32 + if five { 0 } else { 2 }
}

/// Legal root moves (forbidden points excluded) with ordering scores.
fn root_moves(board: &Board) -> Vec<(Point, i32)> {
    let mut cands = Vec::new();
    let mut list = Vec::new();
    match generate(board, &mut cands, &mut list) {
        Generated::Win(p) => return vec![(p, i32::MAX)],
        Generated::Moves { .. } => {}
    }
    let mut moves: Vec<(Point, i32)> = list
        .into_iter()
        .filter(|&(p, _)| board.check(Move::Place(p)).is_ok())
        .collect();
    if moves.is_empty() {
        // Nothing near the stones is legal (or the threat cannot be met): any legal point.
        moves = board
            .points()
            .filter(|&p| board.check(Move::Place(p)).is_ok())
            .map(|p| (p, movegen::order_score(board, p)))
            .collect();
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    moves
}

/// The score a table entry settles for a node searched to `depth` in (alpha, beta),
/// if it does.
fn tt_cut(e: Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if (e.depth as i32) < depth {
        return None;
    }
    let s = from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// Searches `board` for the side to move with `threads` threads sharing `tt`, until a
/// limit is reached or `stop` is set. Returns `None` only when no move is legal.
pub fn search(
    board: &Board,
    limits: &Limits,
    threads: usize,
    tt: &Table,
    stop: &AtomicBool,
    reporter: &dyn Reporter,
) -> Option<SearchResult> {
    let start = Instant::now();
    if limits.fault {
        super::injected_fault();
    }
    let mut moves = root_moves(board);
    moves.retain(|m| !limits.exclude.contains(&m.0));
    if moves.is_empty() {
        return board.check(Move::Pass).is_ok().then(|| SearchResult {
            best: Move::Pass,
            score: Score::Value(0),
            depth: 0,
            nodes: 0,
            pv: vec![Move::Pass],
            threat_line: None,
        });
    }
    // A five, or a single legal move: no search needed (unless its score is wanted: the
    // last move left of a multi-PV search, or an analysis).
    let scored = !limits.exclude.is_empty() || limits.score_forced;
    if moves.len() == 1 && !scored || moves[0].1 == i32::MAX {
        let p = moves[0].0;
        let win = moves[0].1 == i32::MAX;
        return Some(SearchResult {
            best: Move::Place(p),
            score: if win { Score::Win(1) } else { Score::Value(0) },
            depth: 0,
            nodes: 0,
            pv: vec![Move::Place(p)],
            threat_line: win.then(|| vec![p]),
        });
    }
    // A win by fours settles it at once.
    let mut scratch = board.clone();
    let mut vcf = Vcf::new();
    let mut line = Vec::new();
    // The threat searches do not watch the clock: their budgets shrink with the time
    // left (VCF runs at about 450 positions a millisecond here, VCT at about 150), so
    // that together they take about a tenth of it and alpha-beta, whose leaves search
    // fours too, has the rest.
    let ms_left = limits
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64);
    let budget = |full: u64, per_ms: u64| ms_left.map_or(full, |ms| full.min(ms * per_ms / 20));
    if vcf.solve(
        &mut scratch,
        ROOT_VCF_DEPTH,
        budget(ROOT_VCF_NODES, 450),
        &mut line,
    ) && !line.is_empty()
        && !limits.exclude.contains(&line[0])
    {
        return Some(threat_win(board, line, vcf.nodes));
    }
    // Then a win by threes and fours, where the clock allows a short look.
    if ms_left.is_none_or(|ms| ms > 150) {
        let mut vct = Vct::new();
        let mut line = Vec::new();
        if vct.solve(
            &mut scratch,
            ROOT_VCT_DEPTH,
            budget(ROOT_VCT_NODES, 150),
            &mut line,
        ) && !line.is_empty()
            && !limits.exclude.contains(&line[0])
        {
            return Some(threat_win(board, line, vct.nodes + vcf.nodes));
        }
    }
    tt.new_search();
    let shared = Shared {
        tt,
        external: stop,
        stop: AtomicBool::new(false),
        start,
        deadline: limits.deadline,
        node_limit: limits.nodes,
        nodes: AtomicU64::new(vcf.nodes),
        main_depth: AtomicU32::new(1),
        helper_best: AtomicU64::new(0),
    };
    let threads = threads.max(1);
    let (best, score, depth) = std::thread::scope(|s| {
        let mut helpers = super::Helpers::new(&shared.stop);
        for id in 1..threads {
            let (shared, moves, limits) = (&shared, &moves, limits);
            let board = board.clone();
            helpers.spawn(s, move || {
                let mut w = Worker::new(board, shared, id);
                w.think(moves, limits, &super::Silent);
                shared.nodes.fetch_add(w.unreported, Ordering::Relaxed);
            });
        }
        let mut main = Worker::new(board.clone(), &shared, 0);
        let result = main.think(&moves, limits, reporter);
        shared.nodes.fetch_add(main.unreported, Ordering::Relaxed);
        helpers.finish();
        // A helper that finished a deeper iteration than the main thread has the better
        // answer (a proven result of the main thread's stands).
        let (depth, score, m) = unpack_result(shared.helper_best.load(Ordering::Relaxed));
        match decode(m) {
            Some(p) if depth > result.2 && result.1.abs() <= MATE_BOUND => (p, score, depth),
            _ => result,
        }
    });
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let mut main = Worker::new(board.clone(), &shared, 0);
    let pv = main.pv(best, depth.max(1) as usize);
    Some(SearchResult {
        best: Move::Place(best),
        score: user_score(score),
        depth,
        nodes,
        pv,
        threat_line: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry fed the same error converges to it, a deeper search pulls harder, and
    /// no error, however wild, takes an entry past the clamp.
    #[test]
    fn the_correction_learns_an_error_and_stays_bounded() {
        let mut e = 0;
        for _ in 0..200 {
            e = corrected_entry(e, 120, 8);
        }
        assert!(
            (corrected(500, e) - 620).abs() <= 1,
            "{}",
            corrected(500, e)
        );
        let shallow = corrected_entry(0, 300, 1);
        let deep = corrected_entry(0, 300, 12);
        assert!(0 < shallow && shallow < deep, "{shallow} {deep}");
        let mut e = 0;
        for i in 0..1_000 {
            e = corrected_entry(e, if i % 2 == 0 { i32::MAX / 16 } else { 25_000 }, 40);
            assert!(e <= CORRECTION_CLAMP * CORRECTION_GRAIN, "{e}");
        }
        assert!(corrected(0, e) > CORRECTION_CLAMP * 9 / 10);
    }

    /// The helpers' results are compared as packed words: a deeper iteration must win
    /// whatever the scores, at one depth the higher score, and every field must come back
    /// as it went in.
    #[test]
    fn packed_results_order_by_depth_and_round_trip() {
        let deep = pack_result(9, -MATE + 5, encode(Point::new(3, 4)));
        let shallow = pack_result(8, MATE - 1, encode(Point::new(31, 31)));
        assert!(deep > shallow);
        // At one depth the better score wins, whatever the signs.
        let good = pack_result(9, 120, encode(Point::new(0, 0)));
        let bad = pack_result(9, -120, encode(Point::new(31, 31)));
        assert!(good > bad);
        assert_eq!(unpack_result(bad).1, -120);
        assert_eq!(
            unpack_result(deep),
            (9, -MATE + 5, encode(Point::new(3, 4)))
        );
        assert_eq!(unpack_result(shallow).1, MATE - 1);
        assert_eq!(decode(unpack_result(shallow).2), Some(Point::new(31, 31)));
    }
}
