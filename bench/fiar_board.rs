//! Board speed: place + undo of one stone with the pattern update on a 15x15 middle
//! game, and all of black's forbidden points on dense renju positions (50+ stones).
//!
//! Run: `cargo bench --bench fiar_board`. Each `place_undo` iteration plays and takes
//! back every empty point within two lines of a stone, so the time per stone is the
//! reported time divided by the number printed at the start.

#[path = "../engine-tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tengen::core::Color;
use tengen::core::error::Point;
use tengen::games::fiar::{Board, Move, Variant};

const MIDDLE_GAME: &str = "AlphaGomoku test/game/test_renju.cpp MultipleForks";

fn near_points(b: &Board) -> Vec<Point> {
    b.points()
        .filter(|&p| b.is_empty(p))
        .filter(|p| {
            b.points().any(|q| {
                b.stone(q).is_some()
                    && (p.x as i32 - q.x as i32).abs() <= 2
                    && (p.y as i32 - q.y as i32).abs() <= 2
            })
        })
        .collect()
}

fn place_undo(c: &mut Criterion) {
    for v in [Variant::Freestyle, Variant::Renju] {
        let mut b = Board::from_diagram(v, &common::suite_position(MIDDLE_GAME)).unwrap();
        let moves: Vec<Move> = near_points(&b).into_iter().map(Move::Place).collect();
        eprintln!(
            "place_undo {v}: {} stones on the board, {} moves per iteration",
            b.stone_count(),
            moves.len()
        );
        c.bench_function(&format!("place_undo/{v}/15x15 x{}", moves.len()), |bench| {
            bench.iter(|| {
                for &m in &moves {
                    b.play_unchecked(black_box(m));
                    b.undo().unwrap();
                }
            })
        });
    }
}

fn forbidden(c: &mut Criterion) {
    for title in [
        MIDDLE_GAME,
        "realcore test/board/BoardForbiddenTest.cc EnumerateForbiddenTest1",
        "test_vcf_long",
    ] {
        let b = Board::from_diagram(Variant::Renju, &common::suite_position(title)).unwrap();
        let mut out = Vec::new();
        b.forbidden_points_into(Color::Black, &mut out);
        eprintln!(
            "forbidden {title}: {} stones, {} forbidden",
            b.stone_count(),
            out.len()
        );
        c.bench_function(&format!("forbidden/{} stones", b.stone_count()), |bench| {
            bench.iter(|| {
                b.forbidden_points_into(Color::Black, &mut out);
                black_box(out.len())
            })
        });
    }
}

criterion_group!(benches, place_undo, forbidden);
criterion_main!(benches);
