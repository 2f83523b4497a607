//! Measures and fits five-in-a-row move ordering against a teacher's moves: how high the
//! search's static ordering score ranks the move a stronger engine played, and a model
//! fitted to rank it higher.
//!
//! `cargo run --release --example order_fit -- --teacher rapfi RESULTS.jsonl...` reads
//! tournament results files, replays every game and, at each position where the teacher
//! moved and the move list is not forced (no four to block), ranks the teacher's move
//! among the moves [`generate`] gives the search. It then fits, by Coulom's
//! minorization-maximization ("Computing Elo Ratings of Move Patterns in the Game of Go",
//! 2007), one strength per combination of four patterns a point makes for the mover and
//! one per combination it makes for the other side (a move's strength is the product of
//! the two; `--groups` adds the distances to the last two moves), on nine games in ten,
//! and reports the same ranks on the tenth held out.

use std::collections::HashMap;

use clap::Parser;
use tengen::core::Color;
use tengen::core::error::Point;
use tengen::games::fiar::{Board, Move, Pattern};
use tengen::search::ab::eval::sorted;
use tengen::search::ab::movegen::{Generated, generate};
use tengen::tournament::results;

#[derive(Parser)]
struct Args {
    /// The engine whose moves are the targets (its name in the results files).
    #[arg(long, default_value = "rapfi")]
    teacher: String,
    /// MM iterations.
    #[arg(long, default_value_t = 30)]
    iterations: usize,
    /// Combinations seen in fewer candidate moves than this keep strength 1.
    #[arg(long, default_value_t = 20)]
    min_count: usize,
    /// Feature groups to fit: 0 the mover's combination, 1 the other side's, 2 the
    /// distance to the opponent's last move, 3 to the mover's own.
    #[arg(long, value_delimiter = ',', default_value = "0,1")]
    groups: Vec<usize>,
    files: Vec<String>,
}

/// Feature groups: the mover's combination, the other side's, the distance to the
/// opponent's last move and to the mover's own last move.
const GROUPS: usize = 4;

/// One position: per candidate its feature ids (one per group) and its baseline
/// ordering score; `chosen` the teacher's move among them.
struct Position {
    features: Vec<[u32; GROUPS]>,
    base: Vec<i32>,
    chosen: usize,
    test: bool,
}

/// The id of a combination of four patterns, up to order.
fn combo_key(pats: [Pattern; 4]) -> u32 {
    sorted(pats).iter().fold(0u32, |i, &p| i * 12 + p as u32)
}

fn collect(args: &Args) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    let (mut games, mut missing) = (0, 0);
    let (mut cands, mut list) = (Vec::new(), Vec::new());
    for path in &args.files {
        let loaded = results::load(std::path::Path::new(path))?;
        let variant = loaded.fiar_variant().map_err(|e| format!("{path}: {e}"))?;
        for (g, rec) in loaded.fiar_records().map_err(|e| format!("{path}: {e}"))? {
            let teacher = if g.black == args.teacher {
                Color::Black
            } else if g.white == args.teacher {
                Color::White
            } else {
                continue;
            };
            let test = games % 10 == 9;
            games += 1;
            let mut board =
                Board::with_size(variant, rec.width, rec.height).map_err(|e| e.to_string())?;
            for (i, &m) in rec.moves.iter().enumerate() {
                if i >= g.opening_plies
                    && board.to_move() == teacher
                    && let Move::Place(target) = m
                    && let Generated::Moves { forced: false, .. } =
                        generate(&board, &mut cands, &mut list)
                    && list.len() > 1
                {
                    match list.iter().position(|&(p, _)| p == target) {
                        None => missing += 1,
                        Some(chosen) => {
                            let last = |back: usize| match rec.moves[..i].iter().rev().nth(back) {
                                Some(&Move::Place(q)) => Some(q),
                                _ => None,
                            };
                            out.push(position(&board, &list, chosen, test, last(0), last(1)))
                        }
                    }
                }
                if board.play_any_opening(m).is_err() {
                    break;
                }
            }
        }
    }
    eprintln!(
        "{games} games of {}, {} positions, {missing} teacher moves not among the generated",
        args.teacher,
        out.len()
    );
    Ok(out)
}

/// Chebyshev distance from `p` to `q`, 1..=5 (5: five or more, or no such move).
fn distance(p: Point, q: Option<Point>) -> u32 {
    q.map_or(5, |q| {
        (p.x.abs_diff(q.x).max(p.y.abs_diff(q.y)) as u32).min(5)
    })
}

fn position(
    board: &Board,
    list: &[(Point, i32)],
    chosen: usize,
    test: bool,
    last: Option<Point>,
    own_last: Option<Point>,
) -> Position {
    let me = board.to_move();
    Position {
        features: list
            .iter()
            .map(|&(p, _)| {
                [
                    combo_key(board.patterns(p, me)),
                    combo_key(board.patterns(p, me.opposite())),
                    distance(p, last),
                    distance(p, own_last),
                ]
            })
            .collect(),
        base: list.iter().map(|&(_, s)| s).collect(),
        chosen,
        test,
    }
}

/// Rank statistics of a scoring over positions: the chance the chosen move is in the
/// top 1, 3, 5 and 10 (ties broken at random) and its mean rank.
fn ranks<'a>(
    positions: impl Iterator<Item = &'a Position>,
    score: impl Fn(&Position, usize) -> f64,
) -> String {
    let (mut n, mut top, mut rank_sum) = (0.0, [0.0f64; 4], 0.0);
    for p in positions {
        let s = score(p, p.chosen);
        let (mut above, mut tied) = (0usize, 0usize);
        for j in 0..p.base.len() {
            if j == p.chosen {
                continue;
            }
            let o = score(p, j);
            if o > s {
                above += 1;
            } else if o == s {
                tied += 1;
            }
        }
        // P(rank <= k) with the chosen placed uniformly among its ties.
        for (t, k) in top.iter_mut().zip([1usize, 3, 5, 10]) {
            let slots = (k.saturating_sub(above)).min(tied + 1);
            *t += slots as f64 / (tied + 1) as f64;
        }
        rank_sum += 1.0 + above as f64 + tied as f64 / 2.0;
        n += 1.0;
    }
    format!(
        "top-1 {:.1}%, top-3 {:.1}%, top-5 {:.1}%, top-10 {:.1}%, mean rank {:.2} ({n} positions)",
        100.0 * top[0] / n,
        100.0 * top[1] / n,
        100.0 * top[2] / n,
        100.0 * top[3] / n,
        rank_sum / n
    )
}

/// Strengths per feature id, one table per group (groups left out of the fit keep 1).
struct Model {
    tables: [HashMap<u32, f64>; GROUPS],
}

impl Model {
    fn strength(&self, p: &Position, j: usize) -> f64 {
        self.tables
            .iter()
            .zip(&p.features[j])
            .map(|(t, id)| t.get(id).copied().unwrap_or(1.0))
            .product()
    }

    fn log_likelihood<'a>(&self, positions: impl Iterator<Item = &'a Position>) -> f64 {
        let (mut ll, mut n) = (0.0, 0.0);
        for p in positions {
            let total: f64 = (0..p.base.len()).map(|j| self.strength(p, j)).sum();
            ll += (self.strength(p, p.chosen) / total).ln();
            n += 1.0;
        }
        ll / n
    }
}

/// One MM step for one group.
fn update(model: &mut Model, train: &[&Position], group: usize, min_count: usize) {
    let mut wins: HashMap<u32, f64> = HashMap::new();
    let mut denom: HashMap<u32, f64> = HashMap::new();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for p in train {
        let total: f64 = (0..p.base.len()).map(|j| model.strength(p, j)).sum();
        let table = &model.tables[group];
        for (j, f) in p.features.iter().enumerate() {
            let id = f[group];
            let own = table.get(&id).copied().unwrap_or(1.0);
            *denom.entry(id).or_default() += model.strength(p, j) / own / total;
            *seen.entry(id).or_default() += 1;
        }
        *wins.entry(p.features[p.chosen][group]).or_default() += 1.0;
    }
    let table = &mut model.tables[group];
    for (id, d) in denom {
        if seen[&id] < min_count {
            continue;
        }
        // A virtual win and loss against strength 1 keeps unseen winners finite.
        let w = wins.get(&id).copied().unwrap_or(0.0) + 1.0;
        let g = table.get(&id).copied().unwrap_or(1.0);
        table.insert(id, w / (d + 2.0 / (g + 1.0)));
    }
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let positions = collect(&args)?;
    let train: Vec<&Position> = positions.iter().filter(|p| !p.test).collect();
    let test = || positions.iter().filter(|p| p.test);
    println!(
        "baseline (ordering score), held out: {}",
        ranks(test(), |p, j| p.base[j] as f64)
    );
    println!(
        "baseline, training games:           {}",
        ranks(train.iter().copied(), |p, j| p.base[j] as f64)
    );
    let mut model = Model {
        tables: Default::default(),
    };
    let uniform = model.log_likelihood(test());
    for it in 0..args.iterations {
        for &g in &args.groups {
            update(&mut model, &train, g, args.min_count);
        }
        if it % 10 == 9 || it + 1 == args.iterations {
            eprintln!(
                "iteration {}: log-likelihood train {:.3}, held out {:.3} (uniform {uniform:.3})",
                it + 1,
                model.log_likelihood(train.iter().copied()),
                model.log_likelihood(test())
            );
        }
    }
    println!(
        "fitted, held out:                    {}",
        ranks(test(), |p, j| model.strength(p, j))
    );
    for (g, t) in model.tables.iter().enumerate() {
        let mut rows: Vec<_> = t.iter().collect();
        rows.sort_by_key(|r| *r.0);
        if g >= 2 {
            println!("group {g}: {rows:.2?}");
        } else {
            println!("group {g}: {} values fitted", rows.len());
        }
    }
    Ok(())
}
