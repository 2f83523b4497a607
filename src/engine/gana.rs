//! The Gana facade: the game with its history (for undo), the shared MCTS tree reused
//! from move to move, and the clock.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::clock::{Left, TimeControl, move_budget, saves_time};
use crate::core::Color;
use crate::games::gana::{Board, Illegal, Move, MoveError, Outcome};
use crate::search::mcts::gana::GanaState;
use crate::search::mcts::{self, Mcts, Report, Watcher};

/// A draw is worth 40% to the engine: it plays on for a win rather than steer into a
/// draw, as a stronger side should.
pub const DEFAULT_CONTEMPT: f32 = 0.1;

/// Positions the exact win search generates in a millisecond (measured: 10-15
/// thousand); it gets a seventh of the move's time.
const WIN_SEARCH_PER_MS: u64 = 10_000;
/// The exact win search's size under a playout limit.
const FIXED_WIN_BUDGET: u64 = 1_000_000;

pub struct GanaEngine {
    board: Board,
    /// Positions before each move played, for undo.
    history: Vec<Board>,
    moves: Vec<Move>,
    mcts: Mcts,
    threads: usize,
    pub clock: TimeControl,
    left: [Option<Left>; 2],
    pub move_time: Duration,
    pub playouts: Option<u64>,
    /// Moves played when the tree's root was set, if it still fits the game.
    tree_at: Option<usize>,
    /// Play the greedy one-ply player instead of searching (a benchmark opponent).
    pub greedy: bool,
    /// How much less than half a point a draw is worth to the searching side.
    pub contempt: f32,
    /// The side the tree was searched for: its values hold that side's contempt.
    tree_side: Option<Color>,
    rng: rand::rngs::SmallRng,
    /// Test hook: the next search's thread panics.
    pub inject_fault: bool,
}

impl Default for GanaEngine {
    fn default() -> GanaEngine {
        GanaEngine::new()
    }
}

impl GanaEngine {
    pub fn new() -> GanaEngine {
        GanaEngine {
            board: Board::start(),
            history: Vec::new(),
            moves: Vec::new(),
            mcts: Mcts::with_memory_mb(mcts::DEFAULT_MEMORY_MB, 0),
            threads: crate::search::machine_threads(),
            clock: TimeControl::None,
            left: [None, None],
            move_time: Duration::from_secs(1),
            playouts: None,
            tree_at: None,
            greedy: false,
            contempt: DEFAULT_CONTEMPT,
            tree_side: None,
            rng: rand::SeedableRng::seed_from_u64(0x6a4a),
            inject_fault: false,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = crate::search::thread_count(n);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The moves played since the position was set.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before the moves played since it was set.
    pub fn start_position(&self) -> &Board {
        self.history.first().unwrap_or(&self.board)
    }

    /// Sizes the search tree to what `mb` megabytes hold; what the tree knew is lost.
    pub fn set_memory_mb(&mut self, mb: usize) {
        self.mcts.set_memory_mb(mb);
        self.tree_at = None;
        self.tree_side = None;
    }

    /// The tree search's tuning (the `--mcts` option).
    pub fn params_mut(&mut self) -> &mut crate::search::mcts::Params {
        &mut self.mcts.params
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.mcts.set_seed(seed);
        self.rng = rand::SeedableRng::seed_from_u64(seed);
    }

    pub fn clear(&mut self) {
        self.set_position(Board::start());
    }

    /// After a panic in a command: the search tree dropped (a search that died may have
    /// left nodes half made). The position needs nothing: a move replaces it whole.
    pub fn recover(&mut self) {
        self.mcts.clear();
        self.tree_at = None;
        self.tree_side = None;
    }

    /// A new position (gana-setpos, clear_board); the history is forgotten.
    pub fn set_position(&mut self, b: Board) {
        self.board = b;
        self.history.clear();
        self.moves.clear();
        self.left = [None, None];
        self.tree_at = None;
    }

    /// Plays `text` for `color`.
    pub fn play(&mut self, color: Color, text: &str) -> Result<Move, MoveError> {
        if self.board.outcome() != Outcome::Ongoing {
            return Err(MoveError::Illegal(Illegal::GameOver));
        }
        if color != self.board.to_move() {
            return Err(MoveError::WrongSide);
        }
        let m = self.board.parse_move(text)?;
        let mut b = self.board.clone();
        b.play(m).map_err(MoveError::Illegal)?;
        self.history.push(std::mem::replace(&mut self.board, b));
        self.moves.push(m);
        Ok(m)
    }

    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(b) => {
                self.board = b;
                self.moves.pop();
                self.tree_at = None;
                true
            }
            None => false,
        }
    }

    pub fn set_time(&mut self, clock: TimeControl) {
        self.clock = clock;
        self.left = [None, None];
    }

    pub fn set_time_left(&mut self, c: Color, left: Left) {
        self.left[c.index()] = Some(left);
    }

    fn sync_tree(&mut self) {
        let side = Some(self.board.to_move());
        let kept = match self.tree_at {
            Some(n) if n <= self.moves.len() && self.tree_side == side => {
                let since: Vec<mcts::Move> = self.moves[n..].iter().map(|m| m.code()).collect();
                self.mcts.advance(&since)
            }
            _ => false,
        };
        if !kept {
            self.mcts.clear();
        }
        self.tree_at = Some(self.moves.len());
        self.tree_side = side;
    }

    /// Searches the position for the side to move; `None` once the game is over.
    pub fn search(
        &mut self,
        stop: &AtomicBool,
        watcher: &dyn Watcher,
        interval: Option<Duration>,
    ) -> Option<Report> {
        let deadline = Instant::now() + self.think_time();
        self.search_until(deadline, stop, watcher, interval)
    }

    /// [`GanaEngine::search`] with the clock's deadline given (a move that spent some of
    /// its time before the search).
    fn search_until(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        watcher: &dyn Watcher,
        interval: Option<Duration>,
    ) -> Option<Report> {
        if self.board.outcome() != Outcome::Ongoing {
            return None;
        }
        let fault = std::mem::take(&mut self.inject_fault);
        let limits = match self.playouts {
            Some(p) => mcts::Limits {
                playouts: Some(p),
                interval,
                fault,
                ..Default::default()
            },
            None => mcts::Limits {
                deadline: Some(deadline),
                early_stop: saves_time(self.clock, self.left[self.board.to_move().index()]),
                interval,
                fault,
                ..Default::default()
            },
        };
        self.sync_tree();
        let root = GanaState::new(self.board.clone(), self.contempt);
        Some(
            self.mcts
                .search(&root, &limits, self.threads, stop, watcher),
        )
    }

    /// The time the clock gives this move.
    fn think_time(&self) -> Duration {
        // Games run 60-100 plies a side; spread the clock over about 40 moves.
        let me = self.board.to_move();
        move_budget(self.clock, self.left[me.index()], 40, self.move_time)
    }

    /// The quickest forced king capture the exact search finds within its budget (a
    /// share of the move's time, or a fixed size under a playout limit so that such
    /// searches repeat exactly): up to four moves of the mover, every reply tried.
    fn forced_win(&self, time: Duration) -> Option<Move> {
        let mut budget = match self.playouts {
            Some(_) => FIXED_WIN_BUDGET,
            None => time.as_millis() as u64 * WIN_SEARCH_PER_MS / 7,
        };
        (1..=4).find_map(|n| self.board.forced_win(n, &mut budget))
    }

    /// The best move's text (canonical), not played.
    pub fn choose(&mut self, stop: &AtomicBool) -> Option<(String, Report)> {
        if self.greedy {
            let mut rng = self.rng.clone();
            let m = self.greedy_move(&mut rng)?;
            self.rng = rng;
            return Some((self.board.move_text(m), Report::default()));
        }
        // One deadline for the whole move: the exact search's time comes out of it.
        let time = self.think_time();
        let deadline = Instant::now() + time;
        if let Some(m) = self.forced_win(time) {
            // Exact where the search is only likely: a king taken now or netted.
            return Some((self.board.move_text(m), Report::default()));
        }
        let r = self.search_until(deadline, stop, &mcts::Quiet, None)?;
        let best = r.best()?.mv;
        Some((self.board.move_text(Move::from_code(best)), r))
    }

    /// The greedy one-ply player's move (a benchmark opponent): take the king if it
    /// can, else the move that captures the most men among those that leave its king
    /// safe from capture next move (any move if none does), ties broken at random.
    pub fn greedy_move(&self, rng: &mut impl rand::Rng) -> Option<Move> {
        use rand::RngExt;
        let b = &self.board;
        let me = b.to_move();
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        let mut best: Vec<Move> = Vec::new();
        let mut best_score = i32::MIN;
        for &m in &moves {
            let mut after = b.clone();
            if after.play(m).is_err() {
                continue;
            }
            let score = if after.outcome() == Outcome::Win(me) {
                1000
            } else {
                let taken = b.total(me.opposite()) as i32 - after.total(me.opposite()) as i32;
                let hangs = after.can_capture_king();
                taken - if hangs { 100 } else { 0 }
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(m);
            }
        }
        (!best.is_empty()).then(|| best[rng.random_range(0..best.len())])
    }

    /// The game's result text: `W+`, `B+`, `0`, or `None` while it goes on.
    pub fn result(&self) -> Option<&'static str> {
        match self.board.outcome() {
            Outcome::Ongoing => None,
            Outcome::Win(Color::White) => Some("W+"),
            Outcome::Win(Color::Black) => Some("B+"),
            Outcome::Draw(_) => Some("0"),
        }
    }
}
