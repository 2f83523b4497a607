//! The five-in-a-row facade: a game, its settings (variant, threads, hash) and the
//! alpha-beta searches run on it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::error::Point;
use crate::core::tt::Table;
use crate::core::{Color, RuleError};
use crate::games::fiar::{Board, Foul, Move, Outcome, Variant};
use crate::search::ab::{self, SearchResult};
use crate::search::{Limits, Reporter};

/// Default transposition table size when nothing limits memory.
pub const DEFAULT_HASH_BYTES: usize = 128 << 20;
const MIN_HASH_BYTES: usize = 1 << 16;

/// A five-in-a-row engine: the game so far and how to search it.
pub struct FiarEngine {
    board: Board,
    tt: Table,
    threads: usize,
}

/// What to do on the clock for one move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Time for this move (ms); 0: as fast as possible.
    pub turn_ms: Option<u64>,
    /// Time for the whole game (ms); 0: no limit.
    pub match_ms: Option<u64>,
    /// Time left for the whole game (ms).
    pub left_ms: Option<u64>,
}

impl Clock {
    /// The search limits for one move starting now. Keeps a margin so that the move
    /// arrives in time even on a loaded machine: the Gomocup judge forfeits a move
    /// slower than min(time_left, timeout_turn) + 1 s.
    pub fn limits(&self, empties: usize, depth: Option<u32>, nodes: Option<u64>) -> Limits {
        let now = Instant::now();
        let turn = match self.turn_ms {
            Some(0) => 100,
            Some(t) => t,
            None => 5_000,
        };
        let matched = self.match_ms.is_some_and(|m| m > 0);
        let left = if matched {
            self.left_ms.or(self.match_ms)
        } else {
            None
        };
        let hard = left.map_or(turn, |l| turn.min(l));
        // Margin: 30 ms plus 5 %, for start-up, output and scheduling noise.
        let hard = hard.saturating_sub(30 + hard / 20).max(5);
        // Spread the rest of the game over the moves likely still to come. Games between
        // strong brains are short: against Rapfi on 20x20 half end within 21 moves a side
        // and nine in ten within 39, so 20 (fewer on a nearly full board) leaves most of
        // the clock in hand where a game goes long, yet spends it where games are decided.
        let moves_to_go = (empties as u64 / 10).clamp(12, 20);
        let target = match left {
            Some(l) => hard.min((l / moves_to_go).max(10)),
            None => hard,
        };
        Limits {
            deadline: Some(now + Duration::from_millis(hard.min(target * 3 / 2 + 5))),
            // No new iteration after 85% of the target: one begun earlier that the
            // deadline cuts still counts when a new move beats the old best.
            soft: Some(Duration::from_millis(target * 85 / 100)),
            depth,
            nodes,
            ..Default::default()
        }
    }
}

impl FiarEngine {
    pub fn new(variant: Variant, width: usize, height: usize) -> Result<FiarEngine, RuleError> {
        Ok(FiarEngine::with_board(Board::with_size(
            variant, width, height,
        )?))
    }

    /// An engine on a given position, with a small table until [`set_hash_bytes`] sizes
    /// it (so that a memory limit arriving later is never exceeded on the way).
    pub fn with_board(board: Board) -> FiarEngine {
        FiarEngine {
            board,
            tt: Table::new(MIN_HASH_BYTES),
            threads: crate::search::machine_threads(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn variant(&self) -> Variant {
        self.board.variant()
    }

    /// A new empty board; the variant stays.
    pub fn new_game(&mut self, width: usize, height: usize) -> Result<(), RuleError> {
        self.board = Board::with_size(self.board.variant(), width, height)?;
        Ok(())
    }

    /// Changes the variant, keeping the game: its moves are played again under the new
    /// rules (from the set-up stones, if any). On an error nothing changes.
    pub fn set_variant(&mut self, variant: Variant) -> Result<(), RuleError> {
        if variant == self.board.variant() {
            return Ok(());
        }
        self.board = self.replayed(variant)?;
        Ok(())
    }

    /// After a panic in a command: the game played again from its set-up stones and
    /// moves (a bug may have left the board's patterns half updated), or a new empty
    /// board of the same size if even that fails; the table emptied.
    pub fn recover(&mut self) {
        let b = &self.board;
        let (v, w, h) = (b.variant(), b.width(), b.height());
        self.board = self
            .replayed(v)
            .or_else(|_| Board::with_size(v, w, h))
            .unwrap_or_else(|_| Board::with_size(Variant::Freestyle, 15, 15).expect("15x15"));
        self.tt.clear();
    }

    /// The game's set-up stones and moves played on a new board of `variant`.
    fn replayed(&self, variant: Variant) -> Result<Board, RuleError> {
        let b = &self.board;
        let mut next = if b.setup().is_empty() {
            Board::with_size(variant, b.width(), b.height())?
        } else {
            Board::from_stones(
                variant,
                b.width(),
                b.height(),
                b.setup(),
                first_mover(b.setup()),
            )?
        };
        for mv in b.moves() {
            next.play_any_opening(mv)?;
        }
        Ok(next)
    }

    /// Sets the position from stones in the order they were played (black first):
    /// replayed as moves, so captures and rows happen; if they are not a legal game
    /// (another order, a gap in the alternation) they are set up as they stand.
    pub fn set_position(&mut self, stones: &[(Point, Color)]) -> Result<(), RuleError> {
        let (w, h, v) = (
            self.board.width(),
            self.board.height(),
            self.board.variant(),
        );
        let alternating = stones.iter().enumerate().all(|(i, s)| {
            s.1 == if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        });
        let mut replay = Board::with_size(v, w, h)?;
        let replayed = alternating
            && stones
                .iter()
                .all(|&(p, _)| replay.play_any_opening(Move::Place(p)).is_ok());
        let board = if replayed {
            replay
        } else {
            Board::from_stones(v, w, h, stones, first_mover(stones))?
        };
        self.board = board;
        Ok(())
    }

    /// A move from outside (a manager, a user): any opening is accepted, everything else
    /// is checked.
    pub fn play(&mut self, mv: Move) -> Result<Outcome, RuleError> {
        self.board.play_any_opening(mv)
    }

    pub fn undo(&mut self) -> Result<Move, RuleError> {
        self.board.undo()
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = crate::search::thread_count(n);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Resizes the transposition table (its contents are lost). The old table is freed
    /// before the new one is made, so the two never count against memory together.
    pub fn set_hash_bytes(&mut self, bytes: usize) {
        let bytes = bytes.max(MIN_HASH_BYTES);
        if bytes != self.tt.bytes() {
            self.tt = Table::new(MIN_HASH_BYTES);
            self.tt = Table::new(bytes);
        }
    }

    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Black's forbidden points now (empty where the variant has none).
    pub fn forbidden(&self, color: Color) -> Vec<(Point, Foul)> {
        self.board.forbidden_points(color)
    }

    /// Searches the current position for the side to move.
    pub fn think(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        reporter: &dyn Reporter,
    ) -> Option<SearchResult> {
        ab::search(&self.board, limits, self.threads, &self.tt, stop, reporter)
    }

    /// The `lines` best moves, best first: each line is a search of its own that leaves
    /// out the moves of the lines before it (multi-PV by exclusion, as Yixin's NBEST: each
    /// line's score is exact, and the table they share carries the work over). `limits`
    /// gives line `i`'s budget (0-based); `reporter` hears every line's iterations and
    /// `on_line` each line as it is found. Stops early when `stop` is raised or no move
    /// is left.
    pub fn think_lines(
        &self,
        lines: usize,
        limits: &dyn Fn(usize) -> Limits,
        stop: &AtomicBool,
        reporter: &dyn Reporter,
        on_line: &mut dyn FnMut(usize, &SearchResult),
    ) -> Vec<SearchResult> {
        let mut found: Vec<SearchResult> = Vec::new();
        for i in 0..lines {
            let mut l = limits(i);
            l.exclude.extend(found.iter().filter_map(|r| match r.best {
                Move::Place(p) => Some(p),
                _ => None,
            }));
            let Some(r) = self.think(&l, stop, reporter) else {
                break;
            };
            let place = matches!(r.best, Move::Place(_));
            on_line(i, &r);
            found.push(r);
            if !place || stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
        }
        found
    }

    /// Searches a position other than the game's (swap decisions, balancing).
    pub fn think_on(
        &self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        ab::search(
            board,
            limits,
            self.threads,
            &self.tt,
            stop,
            &crate::search::Silent,
        )
    }
}

/// What an attacker's move of a winning threat line makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    Five,
    Four,
    Three,
}

/// One attacker move of a winning threat line: the defence the line follows after it
/// and the other answers the defender had, each of which the threat search refuted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatStep {
    pub attack: Point,
    pub made: Made,
    pub defence: Option<Point>,
    pub alternatives: Vec<Point>,
}

/// Sets the search's tunable numbers for this process from a list "NAME=V,..." (see
/// [`ab::tune`]); before any search only. For tuning runs (`tengen gomocup --tune`).
pub fn tune(list: &str) -> Result<(), ab::tune::TuneError> {
    ab::tune::set(ab::tune::Params::parse(list)?)
}

/// The steps of a winning threat line (attacker and defender alternating, the side to
/// move of `board` first), as [`SearchResult::threat_line`] gives it.
pub fn threat_steps(board: &Board, line: &[Point]) -> Vec<ThreatStep> {
    let mut b = board.clone();
    let attacker = b.to_move();
    let mut steps = Vec::new();
    let mut moves = line.iter();
    while let Some(&attack) = moves.next() {
        if b.play(Move::Place(attack)).is_err() {
            break;
        }
        let made = if b.outcome() != Outcome::Ongoing {
            Made::Five
        } else if b.has_five_point(attacker) {
            Made::Four
        } else {
            Made::Three
        };
        let mut alternatives = if made == Made::Five {
            Vec::new()
        } else {
            ab::threat::defences(&b)
        };
        let defence = moves.next().copied();
        alternatives.retain(|&p| Some(p) != defence);
        steps.push(ThreatStep {
            attack,
            made,
            defence,
            alternatives,
        });
        if let Some(d) = defence
            && b.play(Move::Place(d)).is_err()
        {
            break;
        }
    }
    steps
}

/// The side to move after set-up stones: black when both have as many.
pub fn first_mover(stones: &[(Point, Color)]) -> Color {
    let blacks = stones.iter().filter(|s| s.1 == Color::Black).count();
    if blacks * 2 > stones.len() {
        Color::White
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(clock: Clock, empties: usize) -> (u64, u64) {
        let start = Instant::now();
        let l = clock.limits(empties, None, None);
        let hard = l.deadline.unwrap().saturating_duration_since(start);
        (l.soft.unwrap().as_millis() as u64, hard.as_millis() as u64)
    }

    /// Gomocup's main time control (180 s a game, 30 s a move) on an empty 20x20 board:
    /// a twentieth of the clock for the first move, so that a typical game of twenty
    /// moves a side uses most of it; with little left, never more than what is left.
    #[test]
    fn a_match_clock_is_spread_over_a_typical_game() {
        let fresh = Clock {
            turn_ms: Some(30_000),
            match_ms: Some(180_000),
            left_ms: Some(180_000),
        };
        let (soft, hard) = budget(fresh, 400);
        assert!((7_000..=9_000).contains(&soft), "soft {soft}");
        assert!(hard <= 30_000 && hard >= soft, "hard {hard}");
        let late = Clock {
            left_ms: Some(1_000),
            ..fresh
        };
        let (soft, hard) = budget(late, 100);
        assert!(hard < 1_000 && soft <= hard, "soft {soft} hard {hard}");
        // Without a match clock the turn's time is the budget.
        let turn = Clock {
            turn_ms: Some(1_000),
            match_ms: Some(0),
            left_ms: None,
        };
        let (soft, hard) = budget(turn, 400);
        assert!(
            (850..=1_000).contains(&hard) && soft >= 700,
            "soft {soft} hard {hard}"
        );
    }
}
