//! The Go facade: a game under a rule set, the shared MCTS tree (reused from move to
//! move), the clock (absolute, byo-yomi, Canadian), and what GTP asks of an engine —
//! genmove with passing, resigning and cleanup, scores and dead stones judged from the
//! playouts' ownership, analysis.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use super::clock::{Left, TimeControl};
use super::clock::{move_budget, saves_time};
use crate::core::Color;
use crate::games::go::{
    Board, Cell, Game, GoError, PASS, Rules, Vertex, fixed_handicap, result_text,
};
use crate::search::mcts::go::GoState;
use crate::search::mcts::{self, Mcts, Report, Watcher};

/// How genmove may end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Genmove {
    Play(Vertex),
    Pass,
    Resign,
}

/// How a move is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// kgs-genmove_cleanup: no pass while the opponent has dead stones on the board.
    Cleanup,
}

pub struct GoEngine {
    game: Game,
    mcts: Mcts,
    threads: usize,
    pub clock: TimeControl,
    left: [Option<Left>; 2],
    /// Time per move without a clock.
    pub move_time: Duration,
    /// Fixed playouts per move (regression runs); overrides the clock.
    pub playouts: Option<u64>,
    /// Resign below this win rate (for a while); `None`: never.
    pub resign_below: Option<f32>,
    low_streak: u32,
    /// Game moves the tree's root stands after, if the tree still fits the game.
    tree_at: Option<(usize, Color)>,
    /// Test hook: the next search's thread panics.
    pub inject_fault: bool,
    /// The last judgement of dead stones and the position it judged (board key, moves,
    /// komi): a referee asks `final_score` and `final_status_list` one after the other,
    /// and the two must agree.
    judged: Option<((crate::core::Key, usize, u32), Report)>,
}

impl GoEngine {
    pub fn new(size: usize, rules: Rules) -> Result<GoEngine, GoError> {
        Ok(GoEngine {
            game: Game::new(size, rules)?,
            mcts: Mcts::with_memory_mb(mcts::DEFAULT_MEMORY_MB, crate::games::go::board::CELLS)
                .with_params(mcts::Params::go()),
            threads: crate::search::machine_threads(),
            clock: TimeControl::None,
            left: [None, None],
            move_time: Duration::from_secs(2),
            playouts: None,
            resign_below: Some(0.05),
            low_streak: 0,
            tree_at: None,
            inject_fault: false,
            judged: None,
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = crate::search::thread_count(n);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sizes the search tree to what `mb` megabytes hold; what the tree knew is lost.
    pub fn set_memory_mb(&mut self, mb: usize) {
        self.mcts.set_memory_mb(mb);
        self.tree_at = None;
    }

    /// Nodes the search tree can hold.
    pub fn tree_capacity(&self) -> usize {
        self.mcts.tree.capacity()
    }

    /// The tree search's tuning (the `--mcts` option).
    pub fn params_mut(&mut self) -> &mut crate::search::mcts::Params {
        &mut self.mcts.params
    }

    /// Seeds the search's random numbers (the same seed replays the same games).
    pub fn set_seed(&mut self, seed: u64) {
        self.mcts.set_seed(seed);
    }

    fn changed(&mut self) {
        self.tree_at = None;
        self.judged = None;
    }

    pub fn set_size(&mut self, size: usize) -> Result<(), GoError> {
        let mut g = Game::new(size, self.game.rules())?;
        g.set_komi(self.game.komi());
        self.game = g;
        self.changed();
        Ok(())
    }

    pub fn clear(&mut self) {
        self.game.clear();
        self.left = [None, None];
        self.low_streak = 0;
        self.changed();
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.game.set_komi(komi);
        self.changed();
    }

    pub fn set_rules(&mut self, rules: Rules) {
        self.game.set_rules(rules);
        self.changed();
    }

    pub fn play(&mut self, c: Color, v: Vertex) -> Result<(), GoError> {
        self.game.play(c, v)
    }

    /// After a panic in a command: the game played again from its moves, the search
    /// tree dropped (a search that died may have left nodes half made).
    pub fn recover(&mut self) {
        self.game.rebuild();
        self.mcts.clear();
        self.tree_at = None;
        self.low_streak = 0;
    }

    pub fn undo(&mut self) -> Result<(), GoError> {
        self.game.undo()?;
        self.changed();
        Ok(())
    }

    /// Replaces the game (loadsgf).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.changed();
    }

    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GoError> {
        let stones = fixed_handicap(self.game.size(), n)?;
        self.game.set_handicap(&stones)?;
        self.changed();
        Ok(stones)
    }

    /// The engine's own handicap placement: the fixed points where they exist, then
    /// further points spread over the board (at most all but one point).
    pub fn place_free_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GoError> {
        let size = self.game.size();
        if n < 2 || n >= size * size {
            return Err(GoError::BadHandicap(format!("{n} stones")));
        }
        let mut stones = (2..=n.min(9))
            .rev()
            .find_map(|k| fixed_handicap(size, k).ok())
            .unwrap_or_default();
        if stones.len() < n {
            // A lattice of points two apart from the third line in, centre first.
            let e = if size >= 13 {
                3
            } else {
                (size >= 7) as usize * 2
            };
            let c = (size / 2) as i64;
            let mut extra: Vec<Vertex> = (e..size - e)
                .flat_map(|y| (e..size - e).map(move |x| (x, y)))
                .map(|(x, y)| Board::vertex_of(x, y))
                .filter(|v| !stones.contains(v))
                .collect();
            extra.sort_by_key(|&v| {
                let (x, y) = Board::xy(v);
                let (dx, dy) = (x as i64 - c, y as i64 - c);
                ((x + y) % 2 != 0, dx * dx + dy * dy)
            });
            let all: Vec<Vertex> = Board::new(size)
                .map(|b| b.vertices().collect())
                .unwrap_or_default();
            for v in extra.into_iter().chain(all) {
                if stones.len() >= n {
                    break;
                }
                if !stones.contains(&v) {
                    stones.push(v);
                }
            }
        }
        self.game.set_handicap(&stones)?;
        self.changed();
        Ok(stones)
    }

    pub fn set_free_handicap(&mut self, stones: &[Vertex]) -> Result<(), GoError> {
        self.game.set_handicap(stones)?;
        self.changed();
        Ok(())
    }

    pub fn set_time(&mut self, clock: TimeControl) {
        self.clock = clock;
        self.left = [None, None];
    }

    pub fn set_time_left(&mut self, c: Color, left: Left) {
        self.left[c.index()] = Some(left);
    }

    /// Komi plus handicap compensation: white's points the search adds.
    fn komi_total(&self) -> f32 {
        let rules = self.game.rules();
        let bonus = if rules.scoring == crate::games::go::Scoring::Area {
            rules.handicap_bonus(self.game.handicap())
        } else {
            0.0
        };
        self.game.komi() + bonus
    }

    fn root(&self, color: Color) -> GoState {
        let mut board = self.game.board().clone();
        if board.to_move() != color {
            board.set_to_move(color);
        }
        if board.passes() >= 2 {
            // Asked to search a finished game (a judge, an analysis, play on after two
            // passes): the game goes on from here.
            board.clear_passes();
        }
        GoState::new(
            board,
            self.komi_total(),
            self.game.rules().suicide,
            self.game.forbidden_keys(color),
        )
    }

    /// Moves the tree's root to the current position, keeping what it knows if the game
    /// only went on since the last search.
    fn sync_tree(&mut self, color: Color) {
        let moves = self.game.moves();
        let kept = match self.tree_at {
            Some((n, c)) if n <= moves.len() => {
                let since: Vec<mcts::Move> =
                    moves[n..].iter().map(|&(_, v)| v as mcts::Move).collect();
                // The tree knows one side to move at its root: the moves since must
                // alternate from it and leave `color` to move. (A reg_genmove for the
                // side not to move grows a tree for a position the game never had.)
                let alternate = moves[n..]
                    .iter()
                    .enumerate()
                    .all(|(i, &(mc, _))| if i % 2 == 0 { mc == c } else { mc != c });
                let next = if since.len().is_multiple_of(2) {
                    c
                } else {
                    c.opposite()
                };
                alternate && next == color && self.mcts.advance(&since)
            }
            _ => false,
        };
        if !kept {
            self.mcts.clear();
        }
        self.tree_at = Some((moves.len(), color));
    }

    /// The time to spend on this move.
    pub fn budget(&self, color: Color) -> Duration {
        let size = self.game.size();
        let empties = self.game.board().empties().len();
        // Moves still to play by this side, roughly: a quarter of the empty points.
        // Games end by resignation well before the board fills, and the search stops
        // early once its choice is safe, so a larger count left a third of a sudden-death
        // clock unused at the end (0.4 did; 0.25 scored 63% against it at 30 s on 9x9).
        let to_go = ((empties as f32 * 0.25) as u64).max(size as u64).max(8);
        move_budget(self.clock, self.left[color.index()], to_go, self.move_time)
    }

    fn run(
        &mut self,
        color: Color,
        limits: mcts::Limits,
        stop: &AtomicBool,
        watcher: &dyn Watcher,
        interval: Option<Duration>,
    ) -> Report {
        self.sync_tree(color);
        let root = self.root(color);
        let limits = mcts::Limits {
            interval,
            fault: std::mem::take(&mut self.inject_fault),
            ..limits
        };
        self.mcts
            .search(&root, &limits, self.threads, stop, watcher)
    }

    /// Searches for `color` and chooses a move (does not play it).
    pub fn choose(&mut self, color: Color, mode: Mode, stop: &AtomicBool) -> (Genmove, Report) {
        let limits = match self.playouts {
            Some(p) => mcts::Limits {
                playouts: Some(p),
                ..Default::default()
            },
            None => mcts::Limits {
                deadline: Some(Instant::now() + self.budget(color)),
                early_stop: saves_time(self.clock, self.left[color.index()]),
                ..Default::default()
            },
        };
        let report = self.run(color, limits, stop, &mcts::Quiet, None);
        let dead = self.dead_stones(&report);
        let Some(best) = report.best().cloned() else {
            return (Genmove::Pass, report);
        };
        // After the opponent's pass: pass too when that wins (dead stones judged by the
        // playouts), rather than fill points.
        let opponent_passed = self
            .game
            .moves()
            .last()
            .is_some_and(|&(c, v)| c != color && v == PASS);
        let dead_theirs = dead
            .iter()
            .any(|&v| self.game.board().cell(v) == Cell::of(color.opposite()));
        if mode == Mode::Normal && opponent_passed {
            let s = self.game.score(&self.dead_mask(&dead));
            let mine = if color == Color::Black { s } else { -s };
            if mine > 0.0 {
                return (Genmove::Pass, report);
            }
        }
        let mut mv = best.mv as Vertex;
        if mv == PASS && mode == Mode::Cleanup && dead_theirs {
            // Cleanup: capture what is dead before passing.
            if let Some(m) = report.moves.iter().find(|m| m.mv as Vertex != PASS) {
                mv = m.mv as Vertex;
            }
        }
        if let Some(limit) = self.resign_below {
            let enough = report.playouts >= 500;
            if best.win_rate < limit && enough {
                self.low_streak += 1;
            } else {
                self.low_streak = 0;
            }
            let size = self.game.size();
            let late = self.game.moves().len() >= size * size / 4;
            if self.low_streak >= 5 && late && mode == Mode::Normal {
                return (Genmove::Resign, report);
            }
        }
        if mv == PASS {
            (Genmove::Pass, report)
        } else {
            (Genmove::Play(mv), report)
        }
    }

    /// genmove: chooses and plays.
    pub fn genmove(&mut self, color: Color, mode: Mode, stop: &AtomicBool) -> (Genmove, Report) {
        let (g, r) = self.choose(color, mode, stop);
        match g {
            Genmove::Play(v) => {
                if self.game.play(color, v).is_err() {
                    // A superko corner the tree missed: pass rather than play it.
                    let _ = self.game.play(color, PASS);
                    return (Genmove::Pass, r);
                }
            }
            Genmove::Pass => {
                let _ = self.game.play(color, PASS);
            }
            Genmove::Resign => {}
        }
        (g, r)
    }

    /// Streams analysis of the position for `color` until `stop`.
    pub fn analyse(
        &mut self,
        color: Color,
        interval: Duration,
        stop: &AtomicBool,
        watcher: &dyn Watcher,
        max_playouts: Option<u64>,
    ) -> Report {
        let limits = mcts::Limits {
            playouts: max_playouts,
            ..Default::default()
        };
        self.run(color, limits, stop, watcher, Some(interval))
    }

    /// Analyses the position for the side to move until `time` has passed or `playouts`
    /// are done (no early stop: an analysis spends its budget), showing `watcher` the
    /// report every `interval`.
    pub fn analyse_for(
        &mut self,
        time: Option<Duration>,
        playouts: Option<u64>,
        stop: &AtomicBool,
        watcher: &dyn Watcher,
        interval: Option<Duration>,
    ) -> Report {
        let color = self.game.to_move();
        let limits = mcts::Limits {
            deadline: time.map(|t| Instant::now() + t),
            playouts,
            ..Default::default()
        };
        self.run(color, limits, stop, watcher, interval)
    }

    /// Thinks for the side to move, silently, until `stop`: on the opponent's time after
    /// our move, so that the tree under their reply is grown when our turn comes.
    pub fn ponder(&mut self, stop: &AtomicBool) -> Report {
        let color = self.game.to_move();
        self.run(color, mcts::Limits::default(), stop, &mcts::Quiet, None)
    }

    /// Stones the playouts more often gave to the other side, judged chain by chain
    /// (the chain's mean ownership). Playouts near the end of a game are noisy about a
    /// lone stone in a large area, so any lean to the other side counts.
    fn dead_stones(&self, report: &Report) -> Vec<Vertex> {
        let b = self.game.board();
        let own = |v: Vertex| report.ownership.get(v as usize).copied().unwrap_or(0.0);
        b.vertices()
            .filter(|&v| {
                let Some(c) = b.cell(v).color() else {
                    return false;
                };
                let chain = b.chain_members(v);
                let mean = chain.iter().map(|&s| own(s)).sum::<f32>() / chain.len() as f32;
                let mine = if c == Color::Black { mean } else { -mean };
                mine < -0.05
            })
            .collect()
    }

    fn dead_mask(&self, dead: &[Vertex]) -> Vec<bool> {
        let mut m = vec![false; crate::games::go::board::CELLS];
        for &v in dead {
            m[v as usize] = true;
        }
        m
    }

    /// Ownership from short searches of the position (for scoring), played on past the
    /// passes that ended it so that the playouts capture what is dead; once with each
    /// side to move, since whoever moves first in a playout saves stones the other
    /// would take.
    fn judge(&mut self) -> Report {
        let position = (
            self.game.board().key(),
            self.game.moves().len(),
            self.komi_total().to_bits(),
        );
        if let Some((at, r)) = &self.judged
            && *at == position
        {
            return r.clone();
        }
        let r = self.judge_afresh();
        self.judged = Some((position, r.clone()));
        r
    }

    /// [`judge`] without the memory of the last judgement.
    fn judge_afresh(&mut self) -> Report {
        let mut reports = Vec::new();
        for color in [self.game.to_move(), self.game.to_move().opposite()] {
            // With fixed playouts (regression runs) no clock: the same answer each time.
            let limits = mcts::Limits {
                playouts: Some(self.playouts.unwrap_or(4000).max(1000)),
                deadline: self
                    .playouts
                    .is_none()
                    .then(|| Instant::now() + Duration::from_millis(1500)),
                ..Default::default()
            };
            let root = self.root(color);
            // A tree grown for this position with the passes would not fit it.
            self.mcts.clear();
            self.tree_at = None;
            reports.push(self.mcts.search(
                &root,
                &limits,
                self.threads,
                &AtomicBool::new(false),
                &mcts::Quiet,
            ));
        }
        let other = reports.pop().expect("two searches");
        let mut r = reports.pop().expect("two searches");
        for (a, b) in r.ownership.iter_mut().zip(&other.ownership) {
            *a = (*a + b) / 2.0;
        }
        r
    }

    /// The result with dead stones judged by playouts, as `B+3.5`.
    pub fn final_score(&mut self) -> String {
        let r = self.judge();
        let dead = self.dead_stones(&r);
        result_text(self.game.score(&self.dead_mask(&dead)))
    }

    /// final_status_list: the stones that are dead, alive, or alive in seki.
    pub fn final_status(&mut self, status: Status) -> Vec<Vertex> {
        let r = self.judge();
        let dead = self.dead_stones(&r);
        let b = self.game.board();
        // Chains next to an empty point that living stones of both colours touch and
        // that nobody owns: a seki's shared liberty.
        let mut seki: Vec<Vertex> = Vec::new();
        for v in b.vertices() {
            if b.cell(v) == Cell::Empty
                && r.ownership.get(v as usize).is_some_and(|o| o.abs() < 0.5)
                && [Cell::Black, Cell::White].iter().all(|&c| {
                    Board::neighbours(v)
                        .iter()
                        .any(|&n| b.cell(n) == c && !dead.contains(&n))
                })
            {
                for n in Board::neighbours(v) {
                    if b.cell(n).color().is_some() && !seki.contains(&n) {
                        seki.extend(b.chain_members(n));
                    }
                }
            }
        }
        seki.sort_unstable();
        seki.dedup();
        match status {
            Status::Dead => dead,
            Status::Seki => seki,
            Status::Alive => b
                .vertices()
                .filter(|&v| b.cell(v) != Cell::Empty && !dead.contains(&v))
                .collect(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}
