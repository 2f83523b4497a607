//! `tengen bench`: a fixed set of five-in-a-row positions searched to a fixed depth on
//! one thread (the total node count is a signature of the search; nodes per second
//! measure speed on this machine), and `tengen bench --game go`: MCTS playouts per
//! second from the empty board.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::core::tt::Table;
use crate::games::fiar::record::Record;
use crate::games::fiar::{Board, Variant};
use crate::search::{Limits, Silent};

/// (variant, size, moves): openings and middle games of each kind the brain plays.
pub const POSITIONS: &[(Variant, usize, &str)] = &[
    (Variant::Freestyle, 15, "h8 i9 h9 h10 g8 i8"),
    (
        Variant::Freestyle,
        15,
        "h8 i7 j8 i8 i9 h9 j10 g8 j7 j9 k8 l9",
    ),
    (
        Variant::Freestyle,
        15,
        "h8 h9 g9 i7 f10 g8 e11 d12 i9 j10 f8 e7 g10",
    ),
    (Variant::Freestyle, 20, "k10 l11 k11 k12 j10 l10 l9 m8"),
    (
        Variant::Freestyle,
        20,
        "j10 k11 k10 j11 l11 i9 l9 l10 m9 k9 n8 o7",
    ),
    (Variant::Renju, 15, "h8 i9 j8 i8 i7 h6 g9 j10 g7 f6"),
    (Variant::Renju, 15, "h8 h9 i9 g7 j10 k11 i8 i7 j8 k8 g9"),
    (Variant::Standard, 15, "h8 i9 g8 i8 i7 h7 g6 g7"),
];

/// One position's figures.
pub struct Line {
    pub name: String,
    pub nodes: u64,
    pub micros: u128,
}

/// Searches every position to `depth` on one thread with a fresh 16 MB table.
pub fn run(depth: u32) -> Vec<Line> {
    POSITIONS
        .iter()
        .map(|&(variant, size, moves)| {
            let rec = Record::parse_moves(moves, size, size).expect("bench moves are valid");
            let board: Board = rec.replay(variant).expect("bench games are legal");
            let tt = Table::new(16 << 20);
            let limits = Limits {
                depth: Some(depth),
                ..Default::default()
            };
            let start = Instant::now();
            let r = crate::search::ab::search(
                &board,
                &limits,
                1,
                &tt,
                &AtomicBool::new(false),
                &Silent,
            );
            Line {
                name: format!("{variant} {size}x{size} {moves}"),
                nodes: r.map_or(0, |r| r.nodes),
                micros: start.elapsed().as_micros().max(1),
            }
        })
        .collect()
}

/// Go: playouts per second of the tree search from an empty `size` board, `playouts`
/// in all, on `threads` threads; also the thread-CPU time they used, to tell real
/// parallelism from threads sharing a CPU.
pub fn go(
    size: usize,
    playouts: u64,
    threads: usize,
) -> (u64, std::time::Duration, std::time::Duration) {
    use crate::games::go::Rules;
    let mut engine = crate::engine::GoEngine::new(size, Rules::CHINESE).expect("2..=25");
    engine.set_threads(threads);
    engine.set_seed(1);
    engine.playouts = Some(playouts);
    engine.resign_below = None;
    let cpu = cpu_time();
    let start = Instant::now();
    let (_, r) = engine.choose(
        crate::core::Color::Black,
        crate::engine::go::Mode::Normal,
        &AtomicBool::new(false),
    );
    (r.playouts, start.elapsed(), cpu_time().saturating_sub(cpu))
}

/// Gana: playouts per second of the tree search from the start position (as [`go`]).
pub fn gana(playouts: u64, threads: usize) -> (u64, std::time::Duration, std::time::Duration) {
    let mut engine = crate::engine::GanaEngine::new();
    engine.set_threads(threads);
    engine.set_seed(1);
    engine.playouts = Some(playouts);
    let cpu = cpu_time();
    let start = Instant::now();
    let r = engine.search(&AtomicBool::new(false), &crate::search::mcts::Quiet, None);
    (
        r.map_or(0, |r| r.playouts),
        start.elapsed(),
        cpu_time().saturating_sub(cpu),
    )
}

/// CPU time of this process so far (all threads), from /proc; zero where unavailable.
fn cpu_time() -> std::time::Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return std::time::Duration::ZERO;
    };
    // Fields after the command name (which may hold spaces) : utime is the 14th field.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11).and_then(|u| u.parse().ok()).unwrap_or(0)
        + f.get(12).and_then(|s| s.parse().ok()).unwrap_or(0);
    // Linux reports in clock ticks of 1/100 s.
    std::time::Duration::from_millis(ticks * 10)
}
