//! Tunes the five-in-a-row evaluation's weights by self-play (Texel's method): plays fast
//! games from random openings, keeps every quiet position with the game's result, and
//! fits the weights so that a logistic curve of the evaluation predicts the results.
//!
//! `cargo run --release --example tune_eval -- --games 2000 --save /tmp/samples.txt`
//! plays and fits; `--load /tmp/samples.txt` fits again without playing. It prints the
//! prediction error before and after on held-out positions and the weights as Rust, to
//! paste into `src/search/ab/eval.rs`; a match then decides whether they play better.

use std::io::{BufRead, BufReader, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use tengen::core::Color;
use tengen::core::tt::Table;
use tengen::games::fiar::{Board, Move, Outcome, Variant};
use tengen::search::ab::eval::{FEATURES, Features, WEIGHTS, Weights, features};
use tengen::search::ab::movegen::{Generated, candidates, generate};
use tengen::search::ab::search;
use tengen::search::ab::threat::Vcf;
use tengen::search::{Limits, Silent};
use tengen::tournament::{GameKind, openings::random_fiar, results};

#[derive(Parser)]
struct Args {
    /// Self-play games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Search nodes per move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Comma-separated variants, played in turn.
    #[arg(long, default_value = "freestyle,renju")]
    variants: String,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the positions to this file.
    #[arg(long)]
    save: Option<String>,
    /// Fit on positions from this file instead of playing.
    #[arg(long)]
    load: Option<String>,
    /// Fit on the quiet positions of these tournament results files (`tengen tournament
    /// --results`), each labelled with its game's result, instead of playing.
    #[arg(long, num_args = 1..)]
    results: Vec<String>,
}

/// A quiet position's features and the result for the side to move (1 win, 0 loss).
#[derive(Clone, Copy)]
struct Sample {
    f: Features,
    result: f32,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let samples = match &args.load {
        Some(path) => load(path)?,
        None if !args.results.is_empty() => from_results(&args.results)?,
        None => {
            let s = play(&args)?;
            if let Some(path) = &args.save {
                save(path, &s)?;
            }
            s
        }
    };
    fit(&samples);
    Ok(())
}

/// Plays the games on `threads` threads, each with its own table.
fn play(args: &Args) -> Result<Vec<Sample>, String> {
    let variants: Vec<Variant> = args
        .variants
        .split(',')
        .map(|v| v.trim().parse::<Variant>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            s.spawn(|| {
                let tt = Table::new(8 << 20);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= args.games {
                        break;
                    }
                    let variant = variants[(g / 2) % variants.len()];
                    let game = play_game(
                        variant,
                        3 + g % 2,
                        args.seed ^ (g as u64) << 8,
                        args.nodes,
                        &tt,
                    );
                    let mut all = out.lock().unwrap();
                    all.extend(game);
                    if (g + 1).is_multiple_of(100) {
                        eprintln!(
                            "{} games, {} positions, {:.0} s",
                            g + 1,
                            all.len(),
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    Ok(out.into_inner().unwrap())
}

/// The quiet positions of finished tournament games, after their openings.
fn from_results(paths: &[String]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    let mut games = 0;
    for path in paths {
        let loaded = results::load(std::path::Path::new(path))?;
        let variant: Variant = loaded.header.settings["game"]["variant"]
            .as_str()
            .unwrap_or("freestyle")
            .parse()
            .map_err(|e| format!("{path}: {e}"))?;
        for (g, rec) in loaded.fiar_records().map_err(|e| format!("{path}: {e}"))? {
            let Some(winner) = (match g.result.as_bytes().first() {
                Some(b'B') => Some(Some(Color::Black)),
                Some(b'W') => Some(Some(Color::White)),
                Some(b'0') => Some(None),
                _ => None,
            }) else {
                continue;
            };
            if g.result.ends_with('F') || g.result.ends_with('T') {
                continue; // decided by a forfeit or the clock, not on the board
            }
            let mut board =
                Board::with_size(variant, rec.width, rec.height).map_err(|e| e.to_string())?;
            let (mut cands, mut scratch, mut moves, mut line) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut vcf = Vcf::new();
            for (i, &m) in rec.moves.iter().enumerate() {
                if i >= g.opening_plies
                    && quiet(&board, &mut scratch, &mut moves, &mut vcf, &mut line)
                {
                    candidates(&board, &mut cands);
                    out.push(Sample {
                        f: features(&board, &cands),
                        result: result_for(winner, board.to_move()),
                    });
                }
                if board.play_any_opening(m).is_err() {
                    break;
                }
            }
            games += 1;
        }
    }
    eprintln!("{games} games, {} quiet positions", out.len());
    Ok(out)
}

/// A game's result for the side that was to move: 1 won, 0 lost, 0.5 drawn (`winner`
/// `None`).
fn result_for(winner: Option<Color>, mover: Color) -> f32 {
    match winner {
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Quiet as the search's leaves are: no five to make or to stop, no win by fours (the
/// leaf's VCF would have found it).
fn quiet(
    board: &Board,
    scratch: &mut Vec<tengen::core::error::Point>,
    moves: &mut Vec<(tengen::core::error::Point, i32)>,
    vcf: &mut Vcf,
    line: &mut Vec<tengen::core::error::Point>,
) -> bool {
    match generate(board, scratch, moves) {
        Generated::Win(_) | Generated::Moves { forced: true, .. } => false,
        Generated::Moves { fours: false, .. } => true,
        Generated::Moves { fours: true, .. } => !vcf.solve(&mut board.clone(), 20, 5_000, line),
    }
}

fn play_game(variant: Variant, stones: usize, seed: u64, nodes: u64, tt: &Table) -> Vec<Sample> {
    let mut board = Board::with_size(variant, 15, 15).expect("15x15 suits every variant");
    let kind = GameKind::Fiar {
        variant,
        width: 15,
        height: 15,
    };
    for m in &random_fiar(&kind, stones, 1, seed)[0].moves {
        let (x, y) = m.split_once(',').expect("x,y");
        let p = board
            .point(x.parse().expect("x"), y.parse().expect("y"))
            .expect("on the board");
        board
            .play_any_opening(Move::Place(p))
            .expect("openings are legal");
    }
    tt.clear();
    let mut seen: Vec<(Features, Color)> = Vec::new();
    let (mut cands, mut scratch, mut moves, mut line) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut vcf = Vcf::new();
    let stop = AtomicBool::new(false);
    while board.outcome() == Outcome::Ongoing {
        candidates(&board, &mut cands);
        if quiet(&board, &mut scratch, &mut moves, &mut vcf, &mut line) {
            seen.push((features(&board, &cands), board.to_move()));
        }
        let limits = Limits {
            nodes: Some(nodes),
            deadline: Some(Instant::now() + Duration::from_secs(2)),
            ..Default::default()
        };
        let Some(r) = search(&board, &limits, 1, tt, &stop, &Silent) else {
            break;
        };
        if board.play(r.best).is_err() {
            break;
        }
    }
    let winner = match board.outcome() {
        Outcome::Win { winner, .. } => Some(winner),
        _ => None,
    };
    seen.into_iter()
        .map(|(f, mover)| Sample {
            f,
            result: result_for(winner, mover),
        })
        .collect()
}

fn save(path: &str, samples: &[Sample]) -> Result<(), String> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| e.to_string())?);
    for s in samples {
        let nums: Vec<String> =
            s.f.mine
                .iter()
                .chain(&s.f.theirs)
                .map(|n| n.to_string())
                .collect();
        writeln!(w, "{} {}", s.result, nums.join(" ")).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn load(path: &str) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let bad = || format!("{path}:{}: not a sample line", i + 1);
        let mut nums = line.split_whitespace();
        let result: f32 = nums.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let rest: Vec<u16> = nums
            .map(|n| n.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if rest.len() != 2 * FEATURES {
            return Err(bad());
        }
        let mut f = Features {
            mine: [0; FEATURES],
            theirs: [0; FEATURES],
        };
        f.mine.copy_from_slice(&rest[..FEATURES]);
        f.theirs.copy_from_slice(&rest[FEATURES..]);
        out.push(Sample { f, result });
    }
    Ok(out)
}

/// Mean squared error of the predicted results, the evaluation clamped as the engine does.
fn error(w: &Weights, k: f64, samples: &[Sample]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = w.score(&s.f).clamp(-20_000, 20_000) as f64;
            let p = 1.0 / (1.0 + (-k * e).exp());
            (s.result as f64 - p).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The weights the tuner may move: patterns Block1..Flex4, threats Three..OpenFour, and
/// the two side factors. Five stays: quiet positions have no five to make.
fn param(w: &mut Weights, i: usize) -> &mut i32 {
    match i {
        0..=8 => &mut w.pattern[i + 2],
        9..=13 => &mut w.threat[i - 8],
        14..=17 => &mut w.shape[i - 14],
        18 => &mut w.mine,
        _ => &mut w.theirs,
    }
}
const PARAMS: usize = 20;
/// The side factors, which stay positive.
const SIDES: usize = 18;

fn fit(samples: &[Sample]) {
    // Every tenth position is held out to show the fit generalises.
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        if i % 10 == 9 {
            test.push(*s)
        } else {
            train.push(*s)
        }
    }
    // The curve's steepness fitted to the current weights, then kept, so that the tuned
    // weights stay on the scale the search's margins were set for.
    let mut k = 0.001f64;
    let mut best = error(&WEIGHTS, k, &train);
    for _ in 0..60 {
        let mut moved = false;
        for f in [1.25, 0.8] {
            let e = error(&WEIGHTS, k * f, &train);
            if e < best {
                best = e;
                k *= f;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    println!(
        "{} positions ({} held out); K = {k:.6}",
        samples.len(),
        test.len()
    );
    println!(
        "before: train {:.6}, held out {:.6}",
        best,
        error(&WEIGHTS, k, &test)
    );
    let mut w = WEIGHTS;
    let mut step: Vec<i32> = (0..PARAMS)
        .map(|i| {
            let v = *param(&mut w, i);
            if i >= SIDES {
                (v / 8).max(1)
            } else {
                (v / 8).max(16)
            }
        })
        .collect();
    for round in 0..200 {
        let mut improved = false;
        for (i, st) in step.iter_mut().enumerate() {
            for dir in [1, -1] {
                let mut t = w;
                let v = param(&mut t, i);
                *v = (*v + dir * *st).max(if i >= SIDES { 1 } else { 0 });
                let e = error(&t, k, &train);
                if e < best {
                    best = e;
                    w = t;
                    improved = true;
                    *st = *st * 3 / 2 + 1;
                    break;
                }
            }
        }
        if !improved {
            if step.iter().all(|&s| s <= 1) {
                break;
            }
            for s in &mut step {
                *s = (*s / 2).max(1);
            }
        }
        if round % 20 == 19 {
            eprintln!("round {}: train {best:.6}", round + 1);
        }
    }
    println!(
        "after:  train {:.6}, held out {:.6}",
        best,
        error(&w, k, &test)
    );
    println!("{w:#?}");
}
