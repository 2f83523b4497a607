//! Properties over random games of every variant: the incremental Zobrist key, line keys
//! and patterns equal ones computed from scratch; undo restores the position exactly;
//! forbidden points map onto themselves under the eight symmetries of a square board;
//! the 5x5 shape around a point reads as it does stone by stone.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::core::Color;
use tengen::core::error::Point;
use tengen::games::fiar::{Board, DIRECTIONS, Move, Outcome, Variant};

/// A random legal move, mostly near the stones already placed so that rows, captures
/// and fouls really happen.
fn random_move(b: &Board, rng: &mut StdRng) -> Option<Move> {
    let legal = b.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let near: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| match m {
            Move::Place(p) => b.points().any(|q| {
                b.stone(q).is_some()
                    && (p.x as i32 - q.x as i32).abs() <= 2
                    && (p.y as i32 - q.y as i32).abs() <= 2
            }),
            Move::Pass => false,
        })
        .collect();
    let pool = if !near.is_empty() && rng.random_range(0..10) < 9 {
        &near
    } else {
        &legal
    };
    Some(pool[rng.random_range(0..pool.len())])
}

/// Everything undo must restore: stones, side, key, counters, every empty point's patterns.
fn snapshot(b: &Board) -> (String, Color, u64, Outcome, [u16; 6], Vec<u32>) {
    let mut lines = Vec::new();
    for p in b.points() {
        for c in Color::BOTH {
            for d in 0..DIRECTIONS.len() {
                lines.push(b.line_key(p, c, d));
                if b.is_empty(p) {
                    lines.push(b.pattern(p, c, d) as u32);
                }
            }
        }
    }
    let counters = [
        b.placed(Color::Black),
        b.placed(Color::White),
        b.captured(Color::Black),
        b.captured(Color::White),
        b.rows(Color::Black),
        b.rows(Color::White),
    ];
    (
        b.diagram(),
        b.to_move(),
        b.key().0,
        b.outcome(),
        counters,
        lines,
    )
}

/// Every point's `square_shape`, for both colours, equals the one read stone by stone:
/// the search's correction history keys on it, and an off-by-one in the padded cell
/// index would mix up shapes at the edges.
fn check_square_shapes(b: &Board) {
    for p in b.points() {
        for c in Color::BOTH {
            let mut want = 0u64;
            for dy in -2i64..=2 {
                for dx in -2i64..=2 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let v = match b.point(p.x as i64 + dx, p.y as i64 + dy) {
                        Err(_) => 3,
                        Ok(q) if b.is_spent(q) => 3,
                        Ok(q) if b.is_shared(q) => 1,
                        Ok(q) => match b.stone(q) {
                            None => 0,
                            Some(s) if s == c => 1,
                            Some(_) => 2,
                        },
                    };
                    want = want << 2 | v;
                }
            }
            assert_eq!(b.square_shape(p, c), want, "{c} at {p:?}\n{b}");
        }
    }
}

fn random_games(v: Variant, games: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for g in 0..games {
        let (w, h) = match g % 3 {
            0 => (v.default_size(), v.default_size()),
            1 => (rng.random_range(5..=12), rng.random_range(5..=12)),
            _ => (rng.random_range(5..=32), rng.random_range(5..=32)),
        };
        let mut b = Board::with_size(v, w, h).unwrap();
        let mut plies = 0;
        while b.outcome() == Outcome::Ongoing && plies < 400 {
            let Some(mv) = random_move(&b, &mut rng) else {
                break;
            };
            let before = snapshot(&b);
            b.play(mv)
                .unwrap_or_else(|e| panic!("{v} game {g}: legal move {mv} refused: {e}\n{b}"));
            b.verify()
                .unwrap_or_else(|e| panic!("{v} game {g} after {mv}: {e}\n{b}"));
            // Undo and redo: the position before must come back exactly.
            if rng.random_range(0..3) == 0 {
                b.undo().unwrap();
                assert!(
                    snapshot(&b) == before,
                    "{v} game {g}: undo of {mv} did not restore\n{b}"
                );
                b.play(mv).unwrap();
            }
            plies += 1;
        }
        check_square_shapes(&b);
        // Unwind the whole game: back to the empty board.
        while b.undo().is_ok() {}
        b.verify().unwrap();
        assert_eq!(b.stone_count(), 0);
        assert_eq!(
            b.key(),
            Board::with_size(v, w, h).unwrap().key(),
            "{v}: unwound key"
        );
    }
}

#[test]
fn random_games_keep_keys_and_patterns_exact() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        random_games(v, 6, 1000 + i as u64);
    }
}

#[test]
fn random_games_reach_every_kind_of_end() {
    // Not a property of one game but of the generator: the games above do exercise
    // wins, captures and rows, or the properties would prove little.
    let mut rng = StdRng::seed_from_u64(7);
    let mut seen_five = false;
    let mut seen_capture = false;
    let mut seen_rows = false;
    for v in [Variant::Freestyle, Variant::Pente, Variant::GoBang] {
        for _ in 0..5 {
            let mut b = Board::with_size(v, 9, 9).unwrap();
            while b.outcome() == Outcome::Ongoing {
                let Some(mv) = random_move(&b, &mut rng) else {
                    break;
                };
                b.play(mv).unwrap();
                seen_capture |= b.captured(Color::Black) + b.captured(Color::White) > 0;
                seen_rows |= b.rows(Color::Black) + b.rows(Color::White) > 0;
            }
            seen_five |= matches!(b.outcome(), Outcome::Win { .. });
        }
    }
    assert!(seen_five && seen_capture && seen_rows);
}

fn transform(p: Point, n: u8, t: usize) -> Point {
    let (x, y) = if t & 4 != 0 { (p.y, p.x) } else { (p.x, p.y) };
    let x = if t & 1 != 0 { n - 1 - x } else { x };
    let y = if t & 2 != 0 { n - 1 - y } else { y };
    Point::new(x, y)
}

#[test]
fn forbidden_points_are_symmetric() {
    let mut rng = StdRng::seed_from_u64(42);
    let mut total = 0;
    for v in [
        Variant::Renju,
        Variant::OldRenju,
        Variant::GomokuNarabe,
        Variant::AntiRenju,
    ] {
        for _ in 0..60 {
            let n: u8 = 15;
            // Dense random clusters: many threes and fours, so there are fouls to find.
            let density = rng.random_range(15..45);
            let mut stones = Vec::new();
            for y in 3..12u8 {
                for x in 3..12u8 {
                    if rng.random_range(0..100) < density {
                        let c = if rng.random_range(0..100) < 60 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        stones.push((Point::new(x, y), c));
                    }
                }
            }
            let base = Board::from_stones(v, 15, 15, &stones, Color::Black).unwrap();
            for c in Color::BOTH {
                let want = base.forbidden_points(c);
                total += want.len();
                for t in 1..8 {
                    let moved: Vec<_> = stones
                        .iter()
                        .map(|&(p, c)| (transform(p, n, t), c))
                        .collect();
                    let tb = Board::from_stones(v, 15, 15, &moved, Color::Black).unwrap();
                    let mut got = tb.forbidden_points(c);
                    let mut exp: Vec<_> =
                        want.iter().map(|&(p, f)| (transform(p, n, t), f)).collect();
                    got.sort_by_key(|e| e.0);
                    exp.sort_by_key(|e| e.0);
                    assert_eq!(got, exp, "{v} {c} symmetry {t}\n{base}");
                }
            }
        }
    }
    assert!(total > 100, "only {total} forbidden points in the sample");
}
