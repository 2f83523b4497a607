//! `tengen bench`: a fixed set of positions searched to a fixed depth on one thread.
//! The total node count is a signature of the search (it changes only when the search
//! does); nodes per second measure speed on this machine.

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
