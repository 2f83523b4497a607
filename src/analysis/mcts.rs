//! What a Monte-Carlo search found (Go, Gana), as the analysis model gives it: the root
//! moves most visited first, with win rates, priors and lines.

use super::Progress;
use super::model::{MoveInfo, RootInfo, Search};
use crate::search::mcts::{Report, Watcher};

/// Names a line of moves (the tree's codes) played from the searched position, each in
/// the game's notation as played from the position before it.
pub type LineNames<'a> = &'a (dyn Fn(&[u32]) -> Vec<String> + Sync);

/// The name of one move from the searched position.
fn move_name(name: LineNames, mv: u32) -> String {
    name(&[mv]).pop().unwrap_or_default()
}

/// The root moves of a Monte-Carlo report, most visited first (at most `n`), as the
/// JSON gives them; `name` writes their lines in the game's notation.
pub fn move_infos(report: &Report, n: usize, name: LineNames) -> Vec<MoveInfo> {
    report
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(n)
        .enumerate()
        .map(|(order, m)| MoveInfo {
            mv: move_name(name, m.mv),
            order,
            score: None,
            winrate: Some(m.win_rate),
            visits: Some(m.visits as u64),
            nodes: None,
            prior: Some(m.prior),
            depth: None,
            pv: name(&m.pv),
        })
        .collect()
}

/// The search part of a Monte-Carlo analysis.
pub fn search(report: &Report, n: usize, threads: usize, name: LineNames) -> Search {
    let best = report.best();
    Search {
        depth: None,
        nodes: report.playouts,
        time_ms: report.elapsed.as_millis() as u64,
        threads,
        root_info: RootInfo {
            best: best.map_or_else(|| "pass".into(), |m| move_name(name, m.mv)),
            score: None,
            winrate: best.map(|m| m.win_rate),
            visits: Some(report.playouts),
        },
        move_infos: move_infos(report, n, name),
        threat: None,
        iterations: Vec::new(),
        ownership: None,
    }
}

/// Forwards a Monte-Carlo search's reports as partial analyses.
pub struct Forward<'a> {
    pub progress: Option<&'a Progress<'a>>,
    pub n: usize,
    pub threads: usize,
    pub name: LineNames<'a>,
}

impl Watcher for Forward<'_> {
    fn progress(&self, report: &Report) {
        if let Some(p) = self.progress {
            (p.send)(&search(report, self.n, self.threads, self.name));
        }
    }
}
