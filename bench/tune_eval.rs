//! Tunes the five-in-a-row evaluation's weights (Texel's method): collects quiet
//! positions with a label, and fits the weights so that a logistic curve of the
//! evaluation predicts the labels.
//!
//! - `cargo run --release --example tune_eval -- --games 2000 --save /tmp/samples.txt`
//!   plays fast self-play games and labels each position with its game's result;
//! - `--results FILES` takes the positions of tournament results files instead;
//! - `--label "BRAIN"` labels them with a Gomocup brain's evaluation after a short search
//!   (`--label-nodes`), e.g. a stronger peer built outside the repository: far less noisy
//!   than a game's result, which the whole game's later mistakes decide; with
//!   `--label-static`, with its static evaluation instead (Rapfi's `TRACESEARCH`);
//! - `--load /tmp/samples.txt` fits again without collecting; with `--freeze-threats`,
//!   only the pattern and shape values, on the positions without a four-three or
//!   straight-four point (the threat values stay as they are).
//!
//! It prints the prediction error before and after on held-out positions and the
//! weights as Rust, to paste into `src/search/ab/eval.rs`; with `--corrections MIN` it
//! fits, on top of the weights, a correction to each combination of patterns seen often
//! enough. A match then decides whether they play better.

use std::io::{BufRead, BufReader, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use tengen::core::Color;
use tengen::core::error::Point;
use tengen::core::tt::Table;
use tengen::games::fiar::Pattern;
use tengen::games::fiar::record::parse_point;
use tengen::games::fiar::{Board, Move, Outcome, Variant};
use tengen::search::ab::eval::{
    Features, Threat, WEIGHTS, Weights, features, sorted, visit_points,
};
use tengen::search::ab::movegen::{Generated, candidates, generate};
use tengen::search::ab::search;
use tengen::search::ab::threat::Vcf;
use tengen::search::{Limits, Silent};
use tengen::tournament::engine::{Fault, Process, split_command};
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
    /// Also fit a correction to each combination of patterns seen on at least this many
    /// points of the training positions (the linear weights stay as they are), and print
    /// the corrections as Rust.
    #[arg(long)]
    corrections: Option<usize>,
    /// Label the positions of `--results` with this Gomocup brain's evaluation instead of
    /// the games' results: a command line, e.g. a peer built outside the repository. The
    /// brain must report `Eval N` (from the mover's view) in a MESSAGE line after a move,
    /// as Rapfi does (a mate, `+M11` or `-M6`, labels 1 or 0); positions it reports no
    /// number for are left out.
    #[arg(long)]
    label: Option<String>,
    /// Nodes the labelling brain searches a position (`INFO max_node`).
    #[arg(long, default_value_t = 20_000)]
    label_nodes: u64,
    /// Label one position in this many.
    #[arg(long, default_value_t = 2)]
    label_every: usize,
    /// The brain's evaluation that means 73% (a logistic curve: eval / scale).
    #[arg(long, default_value_t = 200.0)]
    label_scale: f64,
    /// Label with the brain's static evaluation instead of a search's: the position is
    /// set with `YXBOARD` and read back with `TRACESEARCH`, whose `Static Eval[Black]: N`
    /// line Rapfi prints (a function of the position alone, as Tengen's is).
    #[arg(long)]
    label_static: bool,
    /// With `--corrections`: refit the linear weights first and fit the corrections on
    /// top of them (otherwise on top of the engine's weights).
    #[arg(long)]
    refit: bool,
    /// Fit the pattern and shape values only, the threat values as they are, on the
    /// positions where neither side has a four-three or straight-four point: the
    /// positional part of the evaluation from the labels, its tactical part unchanged.
    #[arg(long)]
    freeze_threats: bool,
}

/// A quiet position's features and the result for the side to move (1 win, 0 loss).
#[derive(Clone)]
struct Sample {
    f: Features,
    result: f32,
    /// How many points carry each combination of patterns, by [`code`] (empty for
    /// samples loaded from a file).
    codes: Vec<(u32, i16)>,
    /// The position, for a labelling brain and for the samples file (none in files of the
    /// older format).
    position: Option<Position>,
}

/// A position as the moves that led to it on an empty square board.
#[derive(Clone)]
struct Position {
    variant: Variant,
    size: usize,
    moves: Vec<Point>,
}

impl Sample {
    /// The sample of the position after `moves` (`board`), labelled `result`.
    fn new(board: &Board, cands: &[Point], moves: &[Move], result: f32) -> Sample {
        Sample {
            f: features(board, cands),
            result,
            codes: codes(board, cands),
            position: Some(Position {
                variant: board.variant(),
                size: board.width(),
                moves: moves
                    .iter()
                    .filter_map(|m| match m {
                        Move::Place(p) => Some(*p),
                        _ => None,
                    })
                    .collect(),
            }),
        }
    }
}

impl Position {
    fn board(&self) -> Result<Board, String> {
        let mut b =
            Board::with_size(self.variant, self.size, self.size).map_err(|e| e.to_string())?;
        for &p in &self.moves {
            b.play_any_opening(Move::Place(p))
                .map_err(|e| e.to_string())?;
        }
        Ok(b)
    }

    /// The lines of a Gomocup `BOARD` block: `x,y,1` for the side to move's stones,
    /// `x,y,2` for the other side's.
    fn block(&self) -> Result<String, String> {
        let board = self.board()?;
        let me = board.to_move();
        Ok(self
            .moves
            .iter()
            .map(|p| {
                let own = if board.stone(*p) == Some(me) { 1 } else { 2 };
                format!("{},{},{own}\n", p.x, p.y)
            })
            .collect())
    }
}

/// The index of a combination of patterns to the side to move (even) or the other side
/// (odd), among `2 * 12^4`.
fn code(pats: [Pattern; 4], mover: bool) -> u32 {
    let i = sorted(pats).iter().fold(0u32, |i, &p| i * 12 + p as u32);
    i * 2 + !mover as u32
}
const CODES: usize = 2 * 12 * 12 * 12 * 12;

/// The combinations of the position's points, counted (for [`Sample::codes`]).
fn codes(board: &Board, cands: &[Point]) -> Vec<(u32, i16)> {
    let mut all: Vec<u32> = Vec::with_capacity(2 * cands.len());
    visit_points(board, cands, |pats, mover| all.push(code(pats, mover)));
    all.sort_unstable();
    let mut out: Vec<(u32, i16)> = Vec::new();
    for c in all {
        match out.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => out.push((c, 1)),
        }
    }
    out
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let samples = match &args.load {
        Some(path) => load(path)?,
        None => {
            let mut s = if args.results.is_empty() {
                play(&args)?
            } else {
                from_results(&args.results)?
            };
            if let Some(cmd) = &args.label {
                s = label(&args, cmd, s)?;
            }
            if let Some(path) = &args.save {
                save(path, &s)?;
            }
            s
        }
    };
    let samples = if args.freeze_threats {
        let quiet = |f: &Features| {
            [true, false].into_iter().all(|mover| {
                f.threat_points(mover, Threat::FourThree) == 0
                    && f.threat_points(mover, Threat::OpenFour) == 0
            })
        };
        let q: Vec<Sample> = samples.into_iter().filter(|s| quiet(&s.f)).collect();
        eprintln!(
            "{} positions without a four-three or straight-four point",
            q.len()
        );
        q
    } else {
        samples
    };
    let base = if args.refit || args.corrections.is_none() {
        fit(&samples, args.freeze_threats)
    } else {
        WEIGHTS
    };
    if let Some(min) = args.corrections {
        fit_corrections(&samples, min, &base);
    }
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
                let mut tt = Table::new(8 << 20);
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
                        &mut tt,
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
        let variant = loaded.fiar_variant().map_err(|e| format!("{path}: {e}"))?;
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
                    let result = result_for(winner, board.to_move());
                    out.push(Sample::new(&board, &cands, &rec.moves[..i], result));
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

/// The Gomocup `INFO rule` of a variant a labelling brain plays: the three rules every
/// classical brain knows.
fn label_rule(variant: Variant) -> Option<u32> {
    matches!(
        variant,
        Variant::Freestyle | Variant::Standard | Variant::Renju
    )
    .then(|| variant.gomocup_rule())
    .flatten()
}

/// Replaces the results of one position in `args.label_every` by the labelling brain's
/// evaluation (as a probability), on `args.threads` brains at once; the others are
/// dropped.
fn label(args: &Args, cmd: &str, samples: Vec<Sample>) -> Result<Vec<Sample>, String> {
    let picked: Vec<Sample> = samples
        .into_iter()
        .filter(|s| {
            s.position
                .as_ref()
                .is_some_and(|p| label_rule(p.variant).is_some())
        })
        .step_by(args.label_every.max(1))
        .collect();
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    let start = Instant::now();
    let words = split_command(cmd)?;
    if words.is_empty() {
        return Err("--label: an empty command".into());
    }
    std::thread::scope(|scope| -> Result<(), String> {
        let mut handles = Vec::new();
        for _ in 0..args.threads.max(1) {
            let (picked, next, out, words) = (&picked, &next, &out, &words);
            handles.push(scope.spawn(move || -> Result<(), String> {
                // Restarted after an error or a silence, which may leave its output out
                // of step with the positions.
                let mut brain = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(s) = picked.get(i) else { break };
                    let pos = s.position.as_ref().expect("filtered");
                    let (size, rule) = (pos.size, label_rule(pos.variant).expect("filtered"));
                    let block = pos.block()?;
                    if brain
                        .as_ref()
                        .is_some_and(|b: &Brain| b.started != (size, rule))
                    {
                        brain = None;
                    }
                    let b = match &mut brain {
                        Some(b) => b,
                        None => brain.insert(Brain::start(words, size, rule, args.label_nodes)?),
                    };
                    let evaluated = if args.label_static {
                        b.static_eval(&block, pos.moves.len())
                    } else {
                        b.evaluate(&block)
                    };
                    match evaluated {
                        Err(_) => brain = None,
                        Ok(None) => {}
                        Ok(Some(e)) => {
                            let mut s = s.clone();
                            s.result = (1.0 / (1.0 + (-e / args.label_scale).exp())) as f32;
                            let mut all = out.lock().expect("no panics while held");
                            all.push(s);
                            if all.len().is_multiple_of(1000) {
                                eprintln!(
                                    "{} of {} labelled, {:.0} s",
                                    all.len(),
                                    picked.len(),
                                    start.elapsed().as_secs_f64()
                                );
                            }
                        }
                    }
                }
                Ok(())
            }));
        }
        for h in handles {
            h.join().map_err(|_| "a labelling thread panicked")??;
        }
        Ok(())
    })?;
    let out = out.into_inner().expect("no panics while held");
    eprintln!(
        "{} of {} positions labelled (the others: no evaluation)",
        out.len(),
        picked.len()
    );
    Ok(out)
}

/// A labelling brain running the Gomocup protocol, and the (size, rule) it was started
/// with.
struct Brain {
    /// Taken only when the brain is dropped.
    p: Option<Process>,
    started: (usize, u32),
}

impl Brain {
    fn start(cmd: &[String], size: usize, rule: u32, nodes: u64) -> Result<Brain, String> {
        let fail = |f: Fault| format!("{}: {f}", cmd.join(" "));
        let mut p = Process::start(cmd, None).map_err(fail)?;
        for line in [
            format!("INFO rule {rule}"),
            format!("INFO max_node {nodes}"),
            "INFO timeout_turn 10000".into(),
            format!("START {size}"),
        ] {
            p.send(&line).map_err(fail)?;
        }
        // The board waits for the brain's OK and a moment more: Rapfi drops a BOARD line
        // that arrives while it is still starting up, even after its OK.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let line = p.line(deadline).map_err(fail)?;
            if line.trim() == "OK" {
                std::thread::sleep(Duration::from_millis(300));
                return Ok(Brain {
                    p: Some(p),
                    started: (size, rule),
                });
            }
            if line.starts_with("ERROR") {
                return Err(fail(Fault::Bad(line)));
            }
        }
    }

    /// Sends `command` and reads the brain's lines, each given to `read` (trimmed) until
    /// it says the reply is over; an `ERROR` or `UNKNOWN` line, or silence past `wait`,
    /// is a fault.
    fn exchange(
        &mut self,
        command: &str,
        wait: Duration,
        mut read: impl FnMut(&str) -> bool,
    ) -> Result<(), Fault> {
        let p = self.p.as_mut().expect("taken only when dropped");
        p.send(command)?;
        let deadline = Instant::now() + wait;
        loop {
            let line = p.line(deadline)?;
            if std::env::var_os("LABEL_DEBUG").is_some() {
                eprintln!("< {line}");
            }
            let t = line.trim();
            if t.starts_with("ERROR") || t.starts_with("UNKNOWN") {
                return Err(Fault::Bad(line));
            }
            if read(t) {
                return Ok(());
            }
        }
    }

    /// The brain's evaluation of a position, infinite for a mate (`None`: no number; an
    /// error or a silence means the brain must be restarted).
    fn evaluate(&mut self, block: &str) -> Result<Option<f64>, Fault> {
        // Rapfi also drops a command that arrives while its search is winding down
        // after a move.
        std::thread::sleep(Duration::from_millis(5));
        let mut eval = None;
        // Twice the brain's own turn limit.
        self.exchange(
            &format!("BOARD\n{block}DONE"),
            Duration::from_secs(20),
            |t| {
                if let Some(rest) = t.split("Eval ").nth(1) {
                    // A mate (`+M11`, `-M6`) is a certain result: leaving those positions out
                    // would teach that the threats which win them are worth little.
                    eval = rest.split_whitespace().next().and_then(|v| {
                        if v.starts_with("+M") {
                            Some(f64::INFINITY)
                        } else if v.starts_with("-M") {
                            Some(f64::NEG_INFINITY)
                        } else {
                            v.parse::<f64>().ok()
                        }
                    });
                }
                // The move ends the reply.
                !(t.starts_with("MESSAGE") || t.starts_with("DEBUG"))
            },
        )?;
        Ok(eval)
    }

    /// The brain's static evaluation of a position from the side to move's view (black
    /// moves when the stones are even), read from `TRACESEARCH`'s `Static Eval[Black]`.
    fn static_eval(&mut self, block: &str, stones: usize) -> Result<Option<f64>, Fault> {
        let mut eval = None;
        let command = format!("YXBOARD\n{block}DONE\nTRACESEARCH");
        self.exchange(&command, Duration::from_secs(10), |t| {
            if let Some(rest) = t.split("Static Eval[Black]: ").nth(1) {
                let black = rest
                    .split_whitespace()
                    .next()
                    .and_then(|v| v.parse::<f64>().ok());
                eval = black.map(|e| if stones.is_multiple_of(2) { e } else { -e });
            }
            // The trace's last line is about the table.
            t.contains("No TTEntry") || t.contains("bestmove:")
        })?;
        Ok(eval)
    }
}

impl Drop for Brain {
    /// Tells the brain to quit, and kills it if it does not (a silent one may be stuck).
    fn drop(&mut self) {
        if let Some(mut p) = self.p.take() {
            let _ = p.send("END");
            p.reap();
        }
    }
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
    scratch: &mut Vec<Point>,
    moves: &mut Vec<(Point, i32)>,
    vcf: &mut Vcf,
    line: &mut Vec<Point>,
) -> bool {
    match generate(board, scratch, moves) {
        Generated::Win(_) | Generated::Moves { forced: true, .. } => false,
        Generated::Moves { fours: false, .. } => true,
        Generated::Moves { fours: true, .. } => !vcf.solve(&mut board.clone(), 20, 5_000, line),
    }
}

fn play_game(
    variant: Variant,
    stones: usize,
    seed: u64,
    nodes: u64,
    tt: &mut Table,
) -> Vec<Sample> {
    let mut board = Board::with_size(variant, 15, 15).expect("15x15 suits every variant");
    let kind = GameKind::Fiar {
        variant,
        width: 15,
        height: 15,
    };
    let mut played = Vec::new();
    for m in &random_fiar(&kind, stones, 1, seed)[0].moves {
        let (x, y) = m.split_once(',').expect("x,y");
        let p = board
            .point(x.parse().expect("x"), y.parse().expect("y"))
            .expect("on the board");
        board
            .play_any_opening(Move::Place(p))
            .expect("openings are legal");
        played.push(Move::Place(p));
    }
    tt.clear();
    let mut seen: Vec<(Sample, Color)> = Vec::new();
    let (mut cands, mut scratch, mut moves, mut line) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut vcf = Vcf::new();
    let stop = AtomicBool::new(false);
    while board.outcome() == Outcome::Ongoing {
        candidates(&board, &mut cands);
        if quiet(&board, &mut scratch, &mut moves, &mut vcf, &mut line) {
            seen.push((Sample::new(&board, &cands, &played, 0.0), board.to_move()));
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
        played.push(r.best);
    }
    let winner = match board.outcome() {
        Outcome::Win { winner, .. } => Some(winner),
        _ => None,
    };
    seen.into_iter()
        .map(|(s, mover)| Sample {
            result: result_for(winner, mover),
            ..s
        })
        .collect()
}

/// One line a sample: its label, then the position (`| variant size | x,y x,y …`), from
/// which loading computes the features with the current evaluation.
fn save(path: &str, samples: &[Sample]) -> Result<(), String> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| e.to_string())?);
    for s in samples {
        let Some(pos) = &s.position else { continue };
        let moves: Vec<String> = pos
            .moves
            .iter()
            .map(|p| format!("{},{}", p.x, p.y))
            .collect();
        writeln!(
            w,
            "{} | {} {} | {}",
            s.result,
            pos.variant,
            pos.size,
            moves.join(" ")
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn load(path: &str) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    let mut cands = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let bad = |why: &str| format!("{path}:{}: {why}", i + 1);
        let mut parts = line.split('|');
        let (Some(result), Some(game), Some(moves), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("not `label | variant size | moves`"));
        };
        let result: f32 = result.trim().parse().map_err(|_| bad("a bad label"))?;
        let (variant, size) = game
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("not `variant size`"))?;
        let variant: Variant = variant.parse().map_err(|e| bad(&format!("{e}")))?;
        let size: usize = size.trim().parse().map_err(|_| bad("a bad size"))?;
        let mut board = Board::with_size(variant, size, size).map_err(|e| bad(&e.to_string()))?;
        let mut played = Vec::new();
        for t in moves.split_whitespace() {
            let p = parse_point(t, size, size).map_err(|e| bad(&e.to_string()))?;
            board
                .play_any_opening(Move::Place(p))
                .map_err(|e| bad(&e.to_string()))?;
            played.push(Move::Place(p));
        }
        candidates(&board, &mut cands);
        out.push(Sample::new(&board, &cands, &played, result));
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

/// The weights the tuner may move, for each side: patterns Block1..Flex4, threats
/// Three..OpenFour and the shapes. Five stays: quiet positions have no five to make.
fn param(w: &mut Weights, i: usize) -> &mut i32 {
    let side = if i < PER_SIDE {
        &mut w.mine
    } else {
        &mut w.theirs
    };
    match i % PER_SIDE {
        j @ 0..=8 => &mut side.pattern[j + 2],
        j if THREAT_PARAMS.contains(&j) => &mut side.threat[j - THREAT_PARAMS.start() + 1],
        j => &mut side.shape[j - 14],
    }
}
const PER_SIDE: usize = 18;
/// The parameters of each side that are threat values (Three..OpenFour) in [`param`].
const THREAT_PARAMS: std::ops::RangeInclusive<usize> = 9..=13;
const PARAMS: usize = 2 * PER_SIDE;

/// Every tenth position is held out to show the fit generalises.
fn split(samples: &[Sample]) -> (Vec<Sample>, Vec<Sample>) {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        if i % 10 == 9 {
            test.push(s.clone())
        } else {
            train.push(s.clone())
        }
    }
    (train, test)
}

/// The curve's steepness fitted to the current weights, then kept, so that the tuned
/// weights stay on the scale the search's margins were set for; and the error there.
fn steepness(train: &[Sample]) -> (f64, f64) {
    let mut k = 0.001f64;
    let mut best = error(&WEIGHTS, k, train);
    for _ in 0..60 {
        let mut moved = false;
        for f in [1.25, 0.8] {
            let e = error(&WEIGHTS, k * f, train);
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
    (k, best)
}

fn fit(samples: &[Sample], freeze_threats: bool) -> Weights {
    let (train, test) = split(samples);
    let (k, mut best) = steepness(&train);
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
        .map(|i| (*param(&mut w, i) / 8).max(8))
        .collect();
    for round in 0..200 {
        let mut improved = false;
        for (i, st) in step.iter_mut().enumerate() {
            if freeze_threats && THREAT_PARAMS.contains(&(i % PER_SIDE)) {
                continue;
            }
            for dir in [1, -1] {
                let mut t = w;
                let v = param(&mut t, i);
                *v = (*v + dir * *st).max(0);
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
    w
}

/// How a combination's correction counts in the score: for the side to move (even
/// [`code`]s) or against it.
fn sign(code: u32) -> f64 {
    if code.is_multiple_of(2) { 1.0 } else { -1.0 }
}

/// Fits a correction to every combination of patterns seen on at least `min` points of
/// the training positions, the linear weights fixed: gradient descent (Adam) on the same
/// error, each correction pulled toward zero (`lambda`), which keeps the rare ones small.
/// Tries a few pulls and prints the corrections of the one best on the held-out positions.
fn fit_corrections(samples: &[Sample], min: usize, weights: &Weights) {
    let (train, test) = split(samples);
    let (k, before) = steepness(&train);
    let mut seen = vec![0usize; CODES];
    for s in &train {
        for &(c, n) in &s.codes {
            seen[c as usize] += n as usize;
        }
    }
    let active: Vec<usize> = (0..CODES).filter(|&c| seen[c] >= min).collect();
    println!(
        "{} positions ({} held out); K = {k:.6}; {} combinations seen {min}+ times",
        samples.len(),
        test.len(),
        active.len()
    );
    println!(
        "before: train {before:.6}, held out {:.6}; the linear weights: train {:.6}, held out {:.6}",
        error(&WEIGHTS, k, &test),
        error(weights, k, &train),
        error(weights, k, &test)
    );
    let base = |s: &Sample| weights.score(&s.f) as f64;
    let predict = |s: &Sample, delta: &[f64]| {
        let e = base(s)
            + s.codes
                .iter()
                .map(|&(c, n)| sign(c) * n as f64 * delta[c as usize])
                .sum::<f64>();
        1.0 / (1.0 + (-k * e.clamp(-20_000.0, 20_000.0)).exp())
    };
    let err = |set: &[Sample], delta: &[f64]| {
        set.iter()
            .map(|s| (s.result as f64 - predict(s, delta)).powi(2))
            .sum::<f64>()
            / set.len().max(1) as f64
    };
    let mut best: Option<(f64, f64, Vec<f64>)> = None;
    for lambda in [0.0, 1e-10, 1e-9] {
        let mut delta = vec![0.0f64; CODES];
        let (mut m, mut v) = (vec![0.0f64; CODES], vec![0.0f64; CODES]);
        let (rate, b1, b2) = (4.0, 0.9, 0.999);
        for epoch in 1..=400 {
            let mut grad = vec![0.0f64; CODES];
            for s in &train {
                let p = predict(s, &delta);
                let g = 2.0 * (p - s.result as f64) * p * (1.0 - p) * k;
                for &(c, n) in &s.codes {
                    grad[c as usize] += g * sign(c) * n as f64;
                }
            }
            for &c in &active {
                let g = grad[c] / train.len() as f64 + 2.0 * lambda * delta[c];
                m[c] = b1 * m[c] + (1.0 - b1) * g;
                v[c] = b2 * v[c] + (1.0 - b2) * g * g;
                let mh = m[c] / (1.0 - b1.powi(epoch));
                let vh = v[c] / (1.0 - b2.powi(epoch));
                delta[c] -= rate * mh / (vh.sqrt() + 1e-12);
            }
        }
        let (tr, te) = (err(&train, &delta), err(&test, &delta));
        println!("lambda {lambda:e}: train {tr:.6}, held out {te:.6}");
        if best.as_ref().is_none_or(|b| te < b.1) {
            best = Some((lambda, te, delta));
        }
    }
    let Some((lambda, _, delta)) = best else {
        return;
    };
    println!("// lambda {lambda:e}");
    let names = [
        "Dead",
        "Overline",
        "Block1",
        "Flex1",
        "Block2",
        "Flex2",
        "Block3",
        "Flex3",
        "Block4",
        "DoubleFour",
        "Flex4",
        "Five",
    ];
    let mut combos: Vec<usize> = active.iter().map(|c| c / 2).collect();
    combos.dedup();
    for combo in combos {
        let (mine, theirs) = (delta[combo * 2].round(), delta[combo * 2 + 1].round());
        if mine == 0.0 && theirs == 0.0 {
            continue;
        }
        let pats: Vec<&str> = (0..4)
            .rev()
            .map(|i| names[combo / 12usize.pow(i) % 12])
            .collect();
        println!("    ([{}], {mine}, {theirs}),", pats.join(", "));
    }
}
