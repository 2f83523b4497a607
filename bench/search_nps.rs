//! Search speed, one thread: each of `tengen bench`'s positions searched for a fixed
//! number of nodes, so nodes per second = nodes / the reported time.
//!
//! Run: `cargo bench --bench search_nps`. To compare with Rapfi in the same run, see
//! `bench/compare_nps.sh`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use tengen::bench::POSITIONS;
use tengen::core::tt::Table;
use tengen::games::fiar::record::Record;
use tengen::search::{Limits, Silent};

const NODES: u64 = 100_000;

fn nps(c: &mut Criterion) {
    let mut group = c.benchmark_group("search_100k_nodes");
    group.sample_size(10);
    for (i, &(variant, size, moves)) in POSITIONS.iter().enumerate() {
        let board = Record::parse_moves(moves, size, size)
            .unwrap()
            .replay(variant)
            .unwrap();
        let mut tt = Table::new(16 << 20);
        let limits = Limits {
            nodes: Some(NODES),
            ..Default::default()
        };
        let probe =
            tengen::search::ab::search(&board, &limits, 1, &tt, &AtomicBool::new(false), &Silent)
                .unwrap();
        if probe.nodes < NODES / 2 {
            // Solved at the root (a win by fours): nothing to time.
            continue;
        }
        group.bench_function(format!("{i} {variant} {size}x{size}"), |b| {
            b.iter(|| {
                tt.clear();
                let r = tengen::search::ab::search(
                    &board,
                    &limits,
                    1,
                    &tt,
                    &AtomicBool::new(false),
                    &Silent,
                );
                black_box(r.map(|r| r.nodes))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nps);
criterion_main!(benches);
