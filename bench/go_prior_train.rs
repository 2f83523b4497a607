//! Trains the learned Go prior: Coulom's minorization-maximization ("Computing Elo
//! ratings of move patterns in the game of Go", 2007) over the move features of
//! `tengen::games::go::features`, from the moves of games played by a stronger player.
//!
//! ```sh
//! bench/go_prior_games.py --games 100 --out bench/data/go-prior-games.txt   # GNU Go self-play
//! cargo run --release --example go_prior_train -- bench/data/go-prior-games.txt \
//!     --write src/games/go/prior_weights.rs
//! ```
//!
//! Or from a teacher's ratings of every move (`--ratings`, `bench/go_pachi_ratings.py`:
//! Pachi's pattern model): each position then counts as a fraction of a win for every
//! rated move, by its rating — MM's update is the same with fractional wins — and the
//! held-out scores are against the teacher's top-rated move and its whole distribution
//! (cross-entropy).
//!
//! A move's strength is the product of its features' gammas, and the chance that a
//! position's move is the one chosen is its strength over the sum of all the moves' the
//! tree would expand there. Every tenth game is held out: the program prints, on those
//! positions, how often the strongest move is the move played (top 1, top 5) and the
//! mean log-likelihood of the played move, beside how the priors of the search in this
//! build (`GoState::expand`: the hand-set tactics nudged by the weights compiled in)
//! rank the played move, and a uniform guess's log-likelihood.

use std::collections::HashMap;
use std::fmt::Write as _;

use clap::Parser;
use tengen::games::go::features::{self, Features, GROUPS, SPARSE, SPARSE_NAMES, VALUES};
use tengen::games::go::{Board, PASS, parse_vertex};
use tengen::search::mcts::Game;
use tengen::search::mcts::go::GoState;

/// How often a code of each kind (in the order of `SPARSE`: shape, large, wide, wider,
/// widest) must have been played in training to get a gamma of its own. The larger the
/// shape, the rarer each code and the noisier its gamma: on the 1,797 games (held out,
/// 9x9 top-1 / log-likelihood), 3 for every kind and no widest shapes 46.4% / -1.915,
/// these minimums 48.1% / -1.857 (README, issue 16).
const MIN_PLAYED: [u32; SPARSE.len()] = [3, 3, 5, 8, 12];

/// A kind of shape by name: its sparse group.
fn parse_kind(name: &str) -> Result<usize, String> {
    SPARSE_NAMES
        .iter()
        .position(|&s| s == name)
        .map(|i| SPARSE[i])
        .ok_or_else(|| {
            format!(
                "unknown shape kind {name:?} (one of {})",
                SPARSE_NAMES.join(", ")
            )
        })
}

/// `NAME=N` of `--min-played-for`: the sparse group named and its minimum.
fn parse_min_played(arg: &str) -> Result<(usize, u32), String> {
    let (name, n) = arg.split_once('=').ok_or("expected NAME=N")?;
    let n = n.parse().map_err(|e| format!("{n:?}: {e}"))?;
    Ok((parse_kind(name)?, n))
}

#[derive(Parser)]
struct Args {
    /// Files of games, one a line: SIZE KOMI SEED LEVEL MOVE...
    /// (bench/go_prior_games.py).
    games: Vec<String>,
    /// Files of rated positions (bench/go_pachi_ratings.py): the model learns each
    /// position's whole distribution of a teacher's ratings instead of the one move
    /// played.
    #[arg(long)]
    ratings: Vec<String>,
    /// MM iterations (each updates every group once).
    #[arg(long, default_value_t = 40)]
    iterations: usize,
    /// A code gets its own gamma when it was played at least this often in training
    /// (default: by kind, [`MIN_PLAYED`]).
    #[arg(long)]
    min_played: Option<u32>,
    /// NAME=N: the same for one kind of shape (shape, large, wide, wider, widest).
    /// Repeatable.
    #[arg(long, value_parser = parse_min_played)]
    min_played_for: Vec<(usize, u32)>,
    /// Kinds of shape to leave out (every code shares one gamma), e.g. `wider,widest`.
    #[arg(long, value_delimiter = ',', value_parser = parse_kind)]
    without: Vec<usize>,
    /// Write the weights as Rust to this file.
    #[arg(long)]
    write: Option<String>,
}

/// One position: its candidates' features (dense indices), the move it is scored by,
/// and what it is trained to predict.
struct Position {
    first: usize,
    len: usize,
    /// The move played, or the teacher's top-rated move.
    chosen: usize,
    /// The training targets: `(candidate, weight)`, weights summing to 1 (the move
    /// played alone, or the teacher's ratings).
    targets: Vec<(usize, f64)>,
    /// How many moves the search's priors put above the one played.
    old_rank: usize,
    size: usize,
}

struct Data {
    cands: Vec<Features>,
    positions: Vec<Position>,
}

fn read_games(path: &str) -> Vec<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let size = w.first()?.parse().ok()?;
            Some((size, w.get(4..)?.iter().map(|s| s.to_string()).collect()))
        })
        .collect()
}

/// The positions of the held-out games (every tenth) or of the others.
fn collect(games: &[(usize, Vec<String>)], test: bool) -> Data {
    let mut data = Data {
        cands: Vec::new(),
        positions: Vec::new(),
    };
    let mut moves = Vec::new();
    for (i, (size, game)) in games.iter().enumerate() {
        if (i % 10 == 9) != test {
            continue;
        }
        let mut b = Board::new(*size).expect("a size 2..=25");
        for mv in game {
            let Ok(v) = parse_vertex(*size, mv) else {
                break;
            };
            if v != PASS {
                moves.clear();
                GoState::new(b.clone(), 7.5, false, Vec::new()).expand(&mut moves);
                if let Some(chosen) = moves.iter().position(|&(m, _)| m as u16 == v) {
                    let first = data.cands.len();
                    let mut old_rank = 0;
                    let chosen_prior = moves[chosen].1;
                    for &(m, p) in &moves {
                        if m as u16 == PASS {
                            continue;
                        }
                        old_rank += (p > chosen_prior) as usize;
                        data.cands.push(features::features(&b, m as u16));
                    }
                    let chosen = moves[..chosen]
                        .iter()
                        .filter(|m| m.0 as u16 != PASS)
                        .count();
                    data.positions.push(Position {
                        first,
                        len: data.cands.len() - first,
                        chosen,
                        targets: vec![(chosen, 1.0)],
                        old_rank,
                        size: *size,
                    });
                }
            }
            if b.check(v, b.to_move(), false).is_err() {
                break;
            }
            b.play(v);
        }
    }
    data
}

/// The positions of a ratings file (bench/go_pachi_ratings.py) of the held-out games
/// (every tenth) or of the others. A rating of 0 (below half a percent) shares what the
/// printed percentages leave of 100 with the other zeros; moves the search would not
/// expand (own eyes) are dropped and the rest scaled to sum to 1.
fn collect_ratings(path: &str, test: bool, data: &mut Data) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut moves = Vec::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let [game, size, _komi, history, _played, labels] = cols[..] else {
            continue;
        };
        let (Ok(game), Ok(size)) = (game.parse::<usize>(), size.parse::<usize>()) else {
            continue;
        };
        if (game % 10 == 9) != test {
            continue;
        }
        let mut b = Board::new(size).expect("a size 2..=25");
        let mut legal = true;
        for mv in history.split_whitespace() {
            match parse_vertex(size, mv) {
                Ok(v) if b.check(v, b.to_move(), false).is_ok() => b.play(v),
                _ => legal = false,
            }
        }
        if !legal {
            continue;
        }
        let rated: Vec<(u16, f64)> = labels
            .split_whitespace()
            .filter_map(|l| {
                let (v, p) = l.split_once(':')?;
                Some((parse_vertex(size, v).ok()?, p.parse().ok()?))
            })
            .collect();
        let zeros = rated.iter().filter(|r| r.1 == 0.0).count().max(1) as f64;
        let rest = (100.0 - rated.iter().map(|r| r.1).sum::<f64>()).max(0.0) / zeros;
        moves.clear();
        GoState::new(b.clone(), 7.5, false, Vec::new()).expand(&mut moves);
        let first = data.cands.len();
        let mut targets = Vec::new();
        let mut old = Vec::new();
        for &(m, p) in &moves {
            if m as u16 == PASS {
                continue;
            }
            if let Some(&(_, w)) = rated.iter().find(|r| r.0 == m as u16) {
                let w = if w == 0.0 { rest } else { w };
                if w > 0.0 {
                    targets.push((data.cands.len() - first, w));
                }
            }
            old.push(p);
            data.cands.push(features::features(&b, m as u16));
        }
        let total: f64 = targets.iter().map(|t| t.1).sum();
        if total <= 0.0 {
            data.cands.truncate(first);
            continue;
        }
        targets.iter_mut().for_each(|t| t.1 /= total);
        let chosen = targets
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(0, |t| t.0);
        data.positions.push(Position {
            first,
            len: data.cands.len() - first,
            chosen,
            old_rank: old.iter().filter(|&&p| p > old[chosen]).count(),
            targets,
            size,
        });
    }
}

/// Gammas, indexed by group then value (shapes by their dense index).
struct Model {
    gamma: Vec<Vec<f64>>,
    /// For each sparse group ([`SPARSE`]), code -> dense index (0: every other code).
    sparse_index: Vec<Option<HashMap<u16, usize>>>,
}

impl Model {
    fn index(&self, g: usize, f: &Features) -> usize {
        match &self.sparse_index[g] {
            Some(index) => index.get(&f[g]).copied().unwrap_or(0),
            None => f[g] as usize,
        }
    }

    fn strength(&self, f: &Features) -> f64 {
        (0..GROUPS)
            .map(|g| self.gamma[g][self.index(g, f)])
            .product()
    }

    /// One MM update of group `g`.
    fn update(&mut self, data: &Data, g: usize) {
        let n = self.gamma[g].len();
        let mut wins = vec![0f64; n];
        let mut c = vec![0f64; n];
        for p in &data.positions {
            let cands = &data.cands[p.first..p.first + p.len];
            let total: f64 = cands.iter().map(|f| self.strength(f)).sum();
            for f in cands {
                let i = self.index(g, f);
                c[i] += self.strength(f) / self.gamma[g][i] / total;
            }
            for &(k, w) in &p.targets {
                wins[self.index(g, &cands[k])] += w;
            }
        }
        // One virtual win and one loss against a gamma of 1 keep unseen values finite.
        for i in 0..n {
            let gm = self.gamma[g][i];
            self.gamma[g][i] = (wins[i] + 1.0) / (c[i] + 2.0 / (gm + 1.0));
        }
    }

    /// Top-1, top-5 of the played (or top-rated) moves, and the mean log-likelihood of
    /// the targets (the cross-entropy, for ratings).
    fn score(&self, data: &Data) -> (f64, f64, f64) {
        self.score_of(data, &data.positions.iter().collect::<Vec<_>>())
    }

    /// [`Model::score`] over some of the positions.
    fn score_of(&self, data: &Data, positions: &[&Position]) -> (f64, f64, f64) {
        let (mut top1, mut top5, mut ll) = (0usize, 0usize, 0f64);
        for p in positions {
            let cands = &data.cands[p.first..p.first + p.len];
            let s: Vec<f64> = cands.iter().map(|f| self.strength(f)).collect();
            let total: f64 = s.iter().sum();
            let rank = s.iter().filter(|&&x| x > s[p.chosen]).count();
            top1 += (rank == 0) as usize;
            top5 += (rank < 5) as usize;
            ll += p
                .targets
                .iter()
                .map(|&(k, w)| w * (s[k] / total).ln())
                .sum::<f64>();
        }
        let n = positions.len().max(1) as f64;
        (top1 as f64 / n, top5 as f64 / n, ll / n)
    }
}

fn main() {
    let args = Args::parse();
    let games: Vec<(usize, Vec<String>)> = args.games.iter().flat_map(|f| read_games(f)).collect();
    let mut train = collect(&games, false);
    let mut test = collect(&games, true);
    for path in &args.ratings {
        collect_ratings(path, false, &mut train);
        collect_ratings(path, true, &mut test);
    }
    eprintln!(
        "{} games, {} ratings files: {} training positions, {} held out",
        games.len(),
        args.ratings.len(),
        train.positions.len(),
        test.positions.len()
    );
    // The codes of each sparse group played often enough.
    let mut kept: Vec<Vec<u16>> = vec![Vec::new(); GROUPS];
    for (k, &g) in SPARSE.iter().enumerate() {
        let min = if args.without.contains(&g) {
            u32::MAX
        } else {
            args.min_played_for
                .iter()
                .rev()
                .find(|&&(of, _)| of == g)
                .map_or(args.min_played.unwrap_or(MIN_PLAYED[k]), |&(_, n)| n)
        };
        let mut played: HashMap<u16, f64> = HashMap::new();
        for p in &train.positions {
            for &(k, w) in &p.targets {
                // A rated code counts as played once its ratings add up to a move.
                *played.entry(train.cands[p.first + k][g]).or_default() += w;
            }
        }
        kept[g] = played
            .iter()
            .filter(|&(_, &n)| n >= min as f64)
            .map(|(&c, _)| c)
            .collect();
        kept[g].sort_unstable();
    }
    let mut model = Model {
        gamma: (0..GROUPS)
            .map(|g| {
                vec![
                    1.0;
                    if SPARSE.contains(&g) {
                        kept[g].len() + 1
                    } else {
                        VALUES[g]
                    }
                ]
            })
            .collect(),
        sparse_index: (0..GROUPS)
            .map(|g| {
                SPARSE.contains(&g).then(|| {
                    kept[g]
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| (c, i + 1))
                        .collect()
                })
            })
            .collect(),
    };
    let counts: Vec<String> = SPARSE
        .iter()
        .zip(SPARSE_NAMES)
        .map(|(&g, name)| format!("{name} {}", kept[g].len()))
        .collect();
    eprintln!("codes with a gamma of their own: {}", counts.join(", "));
    for it in 0..args.iterations {
        for g in 0..GROUPS {
            model.update(&train, g);
        }
        if it % 10 == 9 || it + 1 == args.iterations {
            let (t1, t5, ll) = model.score(&test);
            eprintln!(
                "iteration {}: held out top-1 {:.1}%, top-5 {:.1}%, log-likelihood {:.3}",
                it + 1,
                100.0 * t1,
                100.0 * t5,
                ll
            );
        }
    }
    let mut sizes: Vec<usize> = test.positions.iter().map(|p| p.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for size in sizes {
        let these: Vec<&Position> = test.positions.iter().filter(|p| p.size == size).collect();
        let n = these.len().max(1) as f64;
        let old1 = these.iter().filter(|p| p.old_rank == 0).count() as f64 / n;
        let old5 = these.iter().filter(|p| p.old_rank < 5).count() as f64 / n;
        let uniform: f64 = these.iter().map(|p| -(p.len as f64).ln()).sum::<f64>() / n;
        let (t1, t5, ll) = model.score_of(&test, &these);
        println!("{size}x{size}, held-out positions: {}", these.len());
        println!(
            "learned prior:  top-1 {:.1}%  top-5 {:.1}%  log-likelihood {:.3}",
            100.0 * t1,
            100.0 * t5,
            ll
        );
        println!(
            "search's priors: top-1 {:.1}%  top-5 {:.1}%  (ties counted as hits)",
            100.0 * old1,
            100.0 * old5
        );
        println!("uniform guess:  log-likelihood {uniform:.3}");
    }
    if let Some(path) = args.write {
        std::fs::write(
            &path,
            rust(
                &model,
                &kept,
                &args.games,
                &args.ratings,
                games.len(),
                train.positions.len(),
            ),
        )
        .unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("wrote {path}");
    }
}

/// The weights as a Rust module.
fn rust(
    model: &Model,
    kept: &[Vec<u16>],
    game_files: &[String],
    rating_files: &[String],
    games: usize,
    positions: usize,
) -> String {
    let mut s = String::new();
    let names = |files: &[String]| -> String {
        let names: Vec<String> = files
            .iter()
            .map(|source| {
                let name = std::path::Path::new(source)
                    .file_name()
                    .map_or(source.into(), |n| n.to_string_lossy());
                format!("`bench/data/{name}`")
            })
            .collect();
        names.join(", ")
    };
    let mut sources = Vec::new();
    if !game_files.is_empty() {
        sources.push(format!("{games} self-play games ({})", names(game_files)));
    }
    if !rating_files.is_empty() {
        sources.push(format!("the rated positions of {}", names(rating_files)));
    }
    writeln!(s, "//! The learned Go prior's gammas, fitted by `bench/go_prior_train.rs` on {positions} positions").unwrap();
    writeln!(
        s,
        "//! of {}. Generated: do not edit.",
        sources.join(" and ")
    )
    .unwrap();
    writeln!(s).unwrap();
    // The sparse groups: a shared gamma, then (code, gamma) for the codes kept.
    writeln!(
        s,
        "/// For each sparse group (`features::SPARSE`: {}), the gamma of every code not",
        SPARSE_NAMES.join(", ")
    )
    .unwrap();
    writeln!(
        s,
        "/// listed, then (code, gamma) by code (the canonical 3x3 code, else the shape's hash)."
    )
    .unwrap();
    writeln!(
        s,
        "pub static SPARSE: [(f32, &[(u16, f32)]); {}] = [",
        SPARSE.len()
    )
    .unwrap();
    for (&g, name) in SPARSE.iter().zip(SPARSE_NAMES) {
        writeln!(s, "    // {name}: {} codes", kept[g].len()).unwrap();
        writeln!(s, "    (").unwrap();
        writeln!(s, "        {:e},", model.gamma[g][0] as f32).unwrap();
        writeln!(s, "        &[").unwrap();
        for (i, &code) in kept[g].iter().enumerate() {
            writeln!(
                s,
                "            ({code}, {:e}),",
                model.gamma[g][i + 1] as f32
            )
            .unwrap();
        }
        writeln!(s, "        ],").unwrap();
        writeln!(s, "    ),").unwrap();
    }
    writeln!(s, "];").unwrap();
    writeln!(s).unwrap();
    writeln!(
        s,
        "/// The other groups' gammas, by group then value (see `features`)."
    )
    .unwrap();
    let dense: Vec<usize> = (0..GROUPS).filter(|g| !SPARSE.contains(g)).collect();
    writeln!(s, "pub const GROUPS: [&[f32]; {}] = [", dense.len()).unwrap();
    for &g in &dense {
        let values: Vec<String> = model.gamma[g]
            .iter()
            .map(|&x| format!("{:e}", x as f32))
            .collect();
        writeln!(s, "    &[{}],", values.join(", ")).unwrap();
    }
    writeln!(s, "];").unwrap();
    s
}
