//! Monte-Carlo tree search for any two-player game behind the [`Game`] trait (Go, Gana):
//! UCT with RAVE (all-moves-as-first) statistics and policy priors, tree parallelism
//! over one shared arena with virtual loss, tree reuse between moves.

pub mod gana;
pub mod go;
pub mod tree;

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::*};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::core::Color;
pub use tree::{NO_NODE, Node, NodeId, Tree};

/// Moves are small integers below [`Game::MOVE_SLOTS`] (RAVE indexes by them). Move 0
/// is the null move (Go's pass), which gets no RAVE statistics: every playout ends in
/// passes, so they would say nothing about it.
pub type Move = u32;

/// What the search needs of a game.
pub trait Game: Clone + Send + Sync {
    /// Upper bound of move numbers, for the RAVE tables.
    const MOVE_SLOTS: usize;

    fn to_move(&self) -> Color;

    /// Black's result if the game is over: 1 win, 0 loss, 0.5 draw.
    fn result(&self) -> Option<f32>;

    /// The moves worth a node in the tree, each with a prior (a guessed win rate for the
    /// mover, 0..=1). Empty only when the game is over.
    fn expand(&self, out: &mut Vec<(Move, f32)>);

    fn play(&mut self, mv: Move);

    /// Plays the game out with the fast policy; returns black's result and appends
    /// every move with its player to `trace` (for RAVE).
    fn playout(&mut self, rng: &mut SmallRng, trace: &mut Vec<(Move, Color)>) -> f32;

    /// Adds this (finished) playout's owner of each point to `own` (black +1, white -1)
    /// and says whether it did: games without territory, and playouts that stopped
    /// before the board was settled, add nothing.
    fn add_ownership(&self, _own: &mut [i32]) -> bool {
        false
    }

    /// Visits over which the progressive bias fades to half (`Params::bias_visits`),
    /// for this game and board.
    fn bias_visits(&self, p: &Params) -> f32 {
        p.bias_visits
    }
}

/// The search tree's memory when nothing else is said (`--memory`, `tengen-memory`):
/// the arena is mapped only as the search fills it, and never grows past this.
pub const DEFAULT_MEMORY_MB: usize = 512;
/// The least memory a setting may give the tree.
pub const MIN_MEMORY_MB: usize = 16;

/// The softmax temperature that turns the priors (guessed win rates) into a
/// distribution over the root's moves: a prior 0.05 higher is about 2.7 times as likely
/// (a capture at 0.8 against a plain move at 0.5: 400 times).
pub const POLICY_TEMPERATURE: f32 = 0.05;

/// Tuning of the tree policy.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Visits a prior is worth.
    pub prior_visits: f32,
    /// RAVE equivalence: the visits at which tree and AMAF statistics weigh the same.
    pub rave_equiv: f32,
    /// The RAVE equivalence of the root's children; 0 means `rave_equiv`. The root is
    /// where the move is chosen, and at a few thousand playouts its AMAF statistics can
    /// outvote what the children's own playouts say.
    pub root_rave_equiv: f32,
    pub exploration: f32,
    /// Visits a leaf needs before it is expanded.
    pub expand_at: u32,
    /// Progressive bias: a child's value gains `bias * (prior - 0.5)`, fading as
    /// `bias_visits / (bias_visits + visits)`. The priors' virtual visits alone are lost
    /// in the RAVE statistics, which every playout feeds; this lets the policy's
    /// knowledge (the opening's points, captures) lead the first visits.
    pub bias: f32,
    pub bias_visits: f32,
    /// `bias_visits` on Go boards under 13x13 (see [`Params::go`]).
    pub bias_visits_small: f32,
}

impl Params {
    /// Go's constants: almost no UCB exploration term (RAVE and the priors explore, and
    /// the visits gather on the best moves), RAVE trusted up to 3000 visits, a node
    /// expanded after 8 visits (a 19x19 expansion is 362 nodes). Against the general
    /// defaults, 9x9, 3000 playouts a move, with no exploration term at all: +83 ± 52
    /// Elo over 196 games (README, issue 16). With none, a move whose first playouts
    /// went badly can starve (a five-stone capture got 699 of 50,000 visits); 0.02 was
    /// kept for that, though against 0 it measured −46 ± 49 over 167 games at 3000
    /// playouts: to be settled at longer searches.
    ///
    /// A progressive bias of 0.1 × (prior − 0.5) that does not fade (a million visits):
    /// in the opening every move's playouts say about 50%, and the RAVE statistics'
    /// noise chose second-line and centre points; the learned prior's few hundredths
    /// break those near-ties. 0.2 lost heavily (19x19, 1000 playouts: 1 win in 11
    /// games; 9x9: 15 in 53): a capture's prior then weighs 8% of win rate for good.
    ///
    /// On boards under 13x13 the bias fades over 1000 visits: a bias that stays on for
    /// good keeps a move the hand-set prior likes (a save from atari: 0.8, so +3% of win
    /// rate) ahead of one the search finds better, which Pachi exploits. Against Pachi at
    /// 3000 playouts a move (9x9, README, issue 16): 34.9% against 25.7% in 360 games
    /// each. On 19x19 it stays on: there the opening's near-ties need it.
    pub fn go() -> Params {
        Params {
            rave_equiv: 3000.0,
            exploration: 0.02,
            expand_at: 8,
            bias: 0.1,
            bias_visits: 1e6,
            bias_visits_small: 1000.0,
            ..Params::default()
        }
    }

    /// Sets the parameters named in `settings` (`prior_visits=20,rave_equiv=3000,…`):
    /// the `--mcts` option, for tuning matches.
    pub fn set(&mut self, settings: &str) -> Result<(), String> {
        for item in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}': expected NAME=VALUE"))?;
            let number = |max: f32| -> Result<f32, String> {
                value
                    .trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite() && (0.0..=max).contains(v))
                    .ok_or_else(|| format!("{key}: a number from 0 to {max}"))
            };
            match key.trim() {
                "prior_visits" => self.prior_visits = number(1e6)?,
                "rave_equiv" => self.rave_equiv = number(1e9)?.max(1.0),
                "root_rave_equiv" => self.root_rave_equiv = number(1e9)?,
                "exploration" => self.exploration = number(10.0)?,
                "expand_at" => self.expand_at = number(1e6)? as u32,
                "bias" => self.bias = number(10.0)?,
                "bias_visits" => self.bias_visits = number(1e9)?.max(1.0),
                "bias_visits_small" => self.bias_visits_small = number(1e9)?.max(1.0),
                other => {
                    return Err(format!(
                        "unknown parameter '{other}' (prior_visits, rave_equiv, root_rave_equiv, exploration, expand_at, bias, bias_visits, bias_visits_small)"
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Default for Params {
    fn default() -> Params {
        Params {
            prior_visits: 20.0,
            rave_equiv: 1500.0,
            root_rave_equiv: 0.0,
            exploration: 0.15,
            expand_at: 2,
            bias: 0.0,
            bias_visits: 200.0,
            bias_visits_small: 200.0,
        }
    }
}

/// When to stop.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub playouts: Option<u64>,
    /// Stop early once the best move cannot be overtaken in the time left.
    pub early_stop: bool,
    /// Report progress to the watcher this often.
    pub interval: Option<Duration>,
    /// Test hook: a search thread panics (see [`crate::search::injected_fault`]).
    pub fault: bool,
}

/// One root move as the search sees it.
#[derive(Clone, Debug)]
pub struct MoveStat {
    pub mv: Move,
    pub visits: u32,
    /// For the side to move at the root, 0..=1.
    pub win_rate: f32,
    /// The policy's share of the root's moves, 0..=1, summing to 1 over them (what GUIs
    /// show as the policy): the priors, which are guessed win rates, through a softmax
    /// of temperature [`POLICY_TEMPERATURE`].
    pub prior: f32,
    /// Most visited continuation after the move.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Root moves by visits, most first.
    pub moves: Vec<MoveStat>,
    pub playouts: u64,
    pub elapsed: Duration,
    /// Per point (as [`Game::add_ownership`] indexes), black's ownership -1..=1.
    pub ownership: Vec<f32>,
    /// How often the arena filled and the tree was collected ([`Tree::collect`]).
    pub collections: u32,
}

impl Report {
    pub fn best(&self) -> Option<&MoveStat> {
        self.moves.first()
    }
}

/// Called every `interval` while searching (analysis output), from the main thread.
pub trait Watcher: Sync {
    fn progress(&self, _report: &Report) {}
}

pub struct Quiet;
impl Watcher for Quiet {}

/// The search over one shared tree; reuse it between moves of one game.
pub struct Mcts {
    pub tree: Tree,
    pub params: Params,
    /// Ownership sums over the playouts of the current search, per point.
    own: Vec<AtomicI64>,
    own_samples: AtomicU64,
    /// Changes every search, so that repeated searches of one position differ.
    seed: u64,
    /// Held (shared) by each helper thread's simulation, and exclusively while the main
    /// thread collects the tree, which no thread may descend meanwhile.
    gate: std::sync::RwLock<()>,
}

impl Mcts {
    /// A search with an arena of `nodes` nodes and `points` ownership slots.
    pub fn new(nodes: usize, points: usize) -> Mcts {
        Mcts {
            tree: Tree::new(nodes),
            params: Params::default(),
            own: (0..points).map(|_| AtomicI64::new(0)).collect(),
            own_samples: AtomicU64::new(0),
            seed: 0x7e46e4,
            gate: std::sync::RwLock::new(()),
        }
    }

    /// A search whose tree stays within `mb` megabytes (at least [`MIN_MEMORY_MB`], at
    /// most what the machine can spare): the `--memory` / `tengen-memory` setting.
    pub fn with_memory_mb(mb: usize, points: usize) -> Mcts {
        let bytes = mb
            .max(MIN_MEMORY_MB)
            .saturating_mul(1 << 20)
            .min(crate::core::memory::table_cap());
        Mcts::new(Tree::nodes_for(bytes), points)
    }

    /// The search with these constants.
    pub fn with_params(mut self, params: Params) -> Mcts {
        self.params = params;
        self
    }

    /// Resizes the tree to what `mb` megabytes hold (as [`Mcts::with_memory_mb`]); the
    /// tree's contents are lost, the tuning and the seed kept. The old arena is freed
    /// first, so that the two never count against memory together.
    pub fn set_memory_mb(&mut self, mb: usize) {
        self.tree = Tree::new(0);
        self.tree = Mcts::with_memory_mb(mb, 0).tree;
    }

    /// Keeps the subtree after `moves` (played since the last search) as the new root,
    /// or starts afresh when they left the tree. Returns whether anything was kept.
    pub fn advance(&mut self, moves: &[Move]) -> bool {
        let mut at = Some(self.tree.root());
        for &m in moves {
            at = at.and_then(|n| self.tree.find_child(n, m));
        }
        self.tree.reroot(at)
    }

    pub fn clear(&mut self) {
        self.tree.clear();
    }

    /// Where the searches' random numbers start: equal seeds, equal searches (on one
    /// thread with a playout limit).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Searches `root` on `threads` threads until a limit or `stop`.
    pub fn search<G: Game>(
        &mut self,
        root: &G,
        limits: &Limits,
        threads: usize,
        stop: &AtomicBool,
        watcher: &dyn Watcher,
    ) -> Report {
        let start = Instant::now();
        if limits.fault {
            crate::search::injected_fault();
        }
        let interval = limits.interval;
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let seed = self.seed;
        for o in &self.own {
            o.store(0, Relaxed);
        }
        self.own_samples.store(0, Relaxed);
        let playouts = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let this = &*self;
        let collections = std::thread::scope(|s| {
            let mut helpers = crate::search::Helpers::new(&done);
            for t in 1..threads.max(1) {
                let (playouts, done) = (&playouts, &done);
                helpers.spawn(s, move || {
                    let mut w = Worker::new::<G>(seed ^ (t as u64) << 32);
                    while !done.load(Relaxed) && !stop.load(Relaxed) {
                        let pass = this.gate.read().unwrap_or_else(|e| e.into_inner());
                        w.simulate(this, root);
                        drop(pass);
                        playouts.fetch_add(1, Relaxed);
                    }
                });
            }
            let mut w = Worker::new::<G>(seed);
            let mut last_report = Instant::now();
            let capacity = this.tree.capacity();
            let mut collections = 0;
            loop {
                w.simulate(this, root);
                let n = playouts.fetch_add(1, Relaxed) + 1;
                if stop.load(Relaxed) || limits.playouts.is_some_and(|p| n >= p) {
                    break;
                }
                if n.is_multiple_of(16) {
                    // A full arena would leave every new node a leaf and the search
                    // would stop deepening: keep the well-visited half before it fills.
                    if this.tree.used() >= capacity - capacity / 8 {
                        let _all = this.gate.write().unwrap_or_else(|e| e.into_inner());
                        this.tree.collect(capacity / 2);
                        collections += 1;
                    }
                    let now = Instant::now();
                    if limits.deadline.is_some_and(|d| now >= d) {
                        break;
                    }
                    if limits.early_stop && n.is_multiple_of(256) && this.decided(limits, start, n)
                    {
                        break;
                    }
                    if let Some(iv) = interval
                        && now.duration_since(last_report) >= iv
                    {
                        last_report = now;
                        watcher.progress(&this.report(n, start.elapsed()));
                    }
                }
                if this.tree.children(this.tree.root()).is_empty() && root.result().is_some() {
                    break;
                }
            }
            helpers.finish();
            collections
        });
        let n = playouts.load(Relaxed);
        let mut report = self.report(n, start.elapsed());
        report.collections = collections;
        report
    }

    /// Whether the most visited root move stays first whatever the rest of the time
    /// brings (the runner-up could not catch up at this rate).
    fn decided(&self, limits: &Limits, start: Instant, n: u64) -> bool {
        let Some(deadline) = limits.deadline else {
            return false;
        };
        let spent = start.elapsed().as_secs_f64().max(1e-3);
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        let more = n as f64 * left / spent;
        let mut v: Vec<u32> = self
            .tree
            .children(self.tree.root())
            .map(|c| self.tree.node(c).visits())
            .collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        match v.as_slice() {
            [a, b, ..] => (*a as f64) > *b as f64 + more,
            _ => true,
        }
    }

    /// The root's moves by visits with principal variations, and the ownership so far.
    pub fn report(&self, playouts: u64, elapsed: Duration) -> Report {
        let t = &self.tree;
        let mut moves: Vec<MoveStat> = t
            .children(t.root())
            .map(|c| {
                let n = t.node(c);
                let mut pv = vec![n.mv()];
                let mut at = c;
                while let Some(next) = t
                    .children(at)
                    .filter(|&k| t.node(k).visits() > 0)
                    .max_by_key(|&k| t.node(k).visits())
                {
                    pv.push(t.node(next).mv());
                    at = next;
                    if pv.len() >= 64 {
                        break;
                    }
                }
                MoveStat {
                    mv: n.mv(),
                    visits: n.visits(),
                    win_rate: n.win_rate().unwrap_or(n.prior()),
                    prior: n.prior(),
                    pv,
                }
            })
            .collect();
        let top = moves
            .iter()
            .map(|m| m.prior)
            .fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f32> = moves
            .iter()
            .map(|m| ((m.prior - top) / POLICY_TEMPERATURE).exp())
            .collect();
        let total: f32 = weights.iter().sum();
        for (m, w) in moves.iter_mut().zip(weights) {
            m.prior = w / total;
        }
        moves.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.win_rate.total_cmp(&a.win_rate))
        });
        let samples = self.own_samples.load(Relaxed).max(1) as f32;
        let ownership = self
            .own
            .iter()
            .map(|o| o.load(Relaxed) as f32 / samples)
            .collect();
        Report {
            moves,
            playouts,
            elapsed,
            ownership,
            collections: 0,
        }
    }
}

/// One thread's scratch: the path, the playout trace, RAVE marks, the expansion list.
struct Worker {
    rng: SmallRng,
    path: Vec<NodeId>,
    trace: Vec<(Move, Color)>,
    first: Vec<u8>,
    moves: Vec<(Move, f32)>,
    own: Vec<i32>,
    /// Playouts this worker ran (for the ownership sampling).
    playouts: u64,
}

const NOBODY: u8 = 2;
/// One playout in this many gives an ownership sample.
const OWNERSHIP_EVERY: u64 = 4;

impl Worker {
    fn new<G: Game>(seed: u64) -> Worker {
        Worker {
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::with_capacity(64),
            trace: Vec::with_capacity(1024),
            first: vec![NOBODY; G::MOVE_SLOTS],
            moves: Vec::with_capacity(G::MOVE_SLOTS),
            own: Vec::new(),
            playouts: 0,
        }
    }

    /// One simulation: descend, maybe expand, play out, back up.
    fn simulate<G: Game>(&mut self, m: &Mcts, root: &G) {
        let t = &m.tree;
        let p = &m.params;
        let bias_visits = root.bias_visits(p);
        let mut state = root.clone();
        self.path.clear();
        self.trace.clear();
        let mut at = t.root();
        self.path.push(at);
        t.node(at).visits.fetch_add(1, Relaxed);
        loop {
            if !t.node(at).is_expanded() {
                if state.result().is_some() {
                    break;
                }
                let visits = t.node(at).visits();
                if visits > p.expand_at || at == t.root() {
                    self.moves.clear();
                    state.expand(&mut self.moves);
                    t.expand(at, &self.moves);
                }
                if !t.node(at).is_expanded() {
                    break;
                }
            }
            let Some(next) = self.select(m, at, bias_visits) else {
                break;
            };
            let mover = state.to_move();
            let mv = t.node(next).mv();
            state.play(mv);
            self.trace.push((mv, mover));
            t.node(next).visits.fetch_add(1, Relaxed);
            self.path.push(next);
            at = next;
        }
        let result = match state.result() {
            Some(r) => r,
            None => state.playout(&mut self.rng, &mut self.trace),
        };
        // Ownership from one playout in OWNERSHIP_EVERY (the first included): the
        // estimate stays unbiased, and a sample costs a pass over the board and an atomic
        // add a point (4.5% of a 9x9 search's instructions when every playout gave one).
        self.playouts += 1;
        if !m.own.is_empty() && self.playouts % OWNERSHIP_EVERY == 1 {
            self.own.clear();
            self.own.resize(m.own.len(), 0);
            if state.add_ownership(&mut self.own) {
                for (o, &v) in m.own.iter().zip(&self.own) {
                    if v != 0 {
                        o.fetch_add(v as i64, Relaxed);
                    }
                }
                m.own_samples.fetch_add(1, Relaxed);
            }
        }
        self.backup(m, result);
    }

    /// The child of `at` with the best blend of its own win rate, its AMAF win rate and
    /// its prior, plus a little exploration.
    ///
    /// This loop runs over every child of every node on the path (thousands of children
    /// a playout on 19x19), so the blend is one division: with `n` the visits plus the
    /// prior's, `w` the wins plus the prior's, `a`/`aw` the AMAF visits/wins and
    /// `k = 1 + a / rave_equiv`, RAVE's `(1 - β)·w/n + β·aw/a` with
    /// `β = a / (a + n·k)` is `(k·w + aw) / (a + n·k)`.
    fn select(&mut self, m: &Mcts, at: NodeId, bias_visits: f32) -> Option<NodeId> {
        let t = &m.tree;
        let p = &m.params;
        let parent_visits = t.node(at).visits().max(1) as f32;
        let log_n = parent_visits.ln();
        let equiv = if at == t.root() && p.root_rave_equiv > 0.0 {
            p.root_rave_equiv
        } else {
            p.rave_equiv
        };
        let inv_equiv = 1.0 / equiv;
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        let mut ties = 0u32;
        for c in t.children(at) {
            let n = t.node(c);
            let visits = n.visits() as f32;
            let wins = n.wins.load(Relaxed) as f32 / tree::UNIT;
            let prior = n.prior();
            let (av, aw) = n.amaf();
            let (av, aw) = (av as f32, aw as f32 / tree::UNIT);
            // The prior counts as `prior_visits` visits at its win rate.
            let nv = visits + p.prior_visits;
            let k = 1.0 + av * inv_equiv;
            let blended = (k * (wins + prior * p.prior_visits) + aw) / (av + nv * k);
            let mut u = blended;
            if p.bias != 0.0 {
                u += p.bias * (prior - 0.5) * bias_visits / (bias_visits + visits);
            }
            if p.exploration != 0.0 {
                u += p.exploration * (log_n / nv).sqrt();
            }
            if u > best_value {
                best_value = u;
                best = Some(c);
                ties = 1;
            } else if u == best_value {
                // Ties go to a random child, so threads starting together spread out.
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best = Some(c);
                }
            }
        }
        best
    }

    /// Adds the result to every node on the path and the AMAF statistics to the siblings
    /// whose move the same side played later in the simulation.
    fn backup(&mut self, m: &Mcts, black_result: f32) {
        let t = &m.tree;
        let wins_for = |c: Color| -> u32 {
            let r = if c == Color::Black {
                black_result
            } else {
                1.0 - black_result
            };
            (r * tree::UNIT).round() as u32
        };
        // Walk the trace backwards: `first[mv]` ends as the colour that played `mv`
        // first at or after each depth.
        for f in self.first.iter_mut() {
            *f = NOBODY;
        }
        let mut i = self.trace.len();
        for depth in (0..self.path.len()).rev() {
            // Moves from this node's depth on: trace entries depth..
            while i > depth {
                i -= 1;
                let (mv, c) = self.trace[i];
                if mv != 0
                    && let Some(f) = self.first.get_mut(mv as usize)
                {
                    *f = c as u8;
                }
            }
            let id = self.path[depth];
            let node = t.node(id);
            if depth > 0 {
                // The move into this node was made by trace[depth - 1]'s player.
                let (_, mover) = self.trace[depth - 1];
                node.wins.fetch_add(wins_for(mover), Relaxed);
            }
            // The children's AMAF: the side to move at this node is the player of
            // trace[depth] (none when the game ended here).
            let Some(&(_, mover)) = self.trace.get(depth) else {
                continue;
            };
            let w = wins_for(mover);
            for c in t.children(id) {
                let child = t.node(c);
                if self.first.get(child.mv() as usize) == Some(&(mover as u8)) {
                    child.add_amaf(w);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::go::GoState;
    use super::*;
    use crate::games::go::Board;

    /// Gives `id` `visits` playouts won at `rate` and `amaf` AMAF visits won at
    /// `amaf_rate`.
    fn set_stats(t: &Tree, id: NodeId, visits: u32, rate: f32, amaf: u32, amaf_rate: f32) {
        let n = t.node(id);
        n.visits.store(visits, Relaxed);
        n.wins
            .store((visits as f32 * rate * tree::UNIT) as u32, Relaxed);
        let mut won = 0.0;
        for i in 1..=amaf {
            // Spread the wins evenly, so the AMAF rate is `amaf_rate` at every count.
            let due = (i as f32 * amaf_rate).round();
            n.add_amaf(if due > won { tree::UNIT as u32 } else { 0 });
            won = due;
        }
    }

    /// The root's children weigh their own results against the AMAF statistics with
    /// `root_rave_equiv`; every other node keeps `rave_equiv`. Two moves with 600
    /// visits each: one whose own playouts win 45% but whose AMAF statistics say 60%, one
    /// the other way round. At an equivalence of 3000 the AMAF statistics pick the first;
    /// at 300 the own results count sooner and pick the second.
    #[test]
    fn the_root_can_trust_its_own_results_sooner() {
        let mut m = Mcts::new(64, 0).with_params(Params {
            rave_equiv: 3000.0,
            exploration: 0.0,
            ..Params::default()
        });
        let t = &m.tree;
        let root = t.root();
        assert!(t.expand(root, &[(1, 0.5), (2, 0.5)]));
        let (amaf_good, own_good) = (t.children(root).start, t.children(root).start + 1);
        assert!(t.expand(amaf_good, &[(3, 0.5), (4, 0.5)]));
        let (inner_amaf_good, inner_own_good) =
            (t.children(amaf_good).start, t.children(amaf_good).start + 1);
        for (parent, a, o) in [
            (root, amaf_good, own_good),
            (amaf_good, inner_amaf_good, inner_own_good),
        ] {
            set_stats(t, parent, 1200, 0.5, 0, 0.0);
            set_stats(t, a, 600, 0.45, 2000, 0.6);
            set_stats(t, o, 600, 0.6, 2000, 0.4);
        }
        let mut w = Worker::new::<GoState>(1);
        assert_eq!(w.select(&m, root, 1.0), Some(amaf_good));
        m.params.root_rave_equiv = 300.0;
        assert_eq!(w.select(&m, root, 1.0), Some(own_good));
        assert_eq!(
            w.select(&m, amaf_good, 1.0),
            Some(inner_amaf_good),
            "below the root the equivalence stays 3000"
        );
        m.params.set("root_rave_equiv=0").unwrap();
        assert_eq!(
            w.select(&m, root, 1.0),
            Some(amaf_good),
            "0 means rave_equiv"
        );
        assert!(m.params.set("root_rave_equiv=-1").is_err());
    }

    /// A search longer than its arena holds prunes the tree and keeps deepening.
    #[test]
    fn a_search_past_a_full_arena_keeps_growing_its_tree() {
        let state = GoState::new(Board::new(9).unwrap(), 7.0, false, Vec::new());
        let mut m = Mcts::new(4096, 0);
        let stop = AtomicBool::new(false);
        let limits = |n| Limits {
            playouts: Some(n),
            ..Limits::default()
        };
        let first = m.search(&state, &limits(3_000), 1, &stop, &Quiet);
        let later = m.search(&state, &limits(30_000), 1, &stop, &Quiet);
        assert!(later.collections > 0, "the arena filled");
        assert!(m.tree.used() <= m.tree.capacity());
        let (a, b) = (first.best().unwrap(), later.best().unwrap());
        assert!(
            b.visits > 2 * a.visits,
            "the top move kept gaining visits: {} then {}",
            a.visits,
            b.visits
        );
        // A full arena that stayed full would leave the main line's nodes leaves for
        // good, however many visits they get: each node of it visited often is
        // expanded.
        let t = &m.tree;
        let mut at = t.root();
        let mut depth = 0;
        while t.node(at).visits() > 1_000 {
            assert!(
                t.node(at).is_expanded(),
                "the main line's node at depth {depth} ({} visits) is expanded",
                t.node(at).visits()
            );
            at = t.children(at).max_by_key(|&c| t.node(c).visits()).unwrap();
            depth += 1;
        }
        assert!(depth >= 2, "the main line is {depth} deep");
    }
}
