//! The `tengen` command line: `analyse` a position, or speak a protocol (`gomocup`,
//! `gtp`).
//! Started under a name beginning `pbrain-` with no arguments, it speaks Gomocup, as
//! Gomocup managers expect of a brain.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use tengen::analysis::{self, Budget, Input};
use tengen::protocol::gomocup;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "A game-playing engine for five-in-a-row, Go and Gana"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// A picture of the position.
#[derive(clap::Args)]
struct PictureArgs {
    /// Draw the position as SVG in FILE: stones, last move, forbidden points, the
    /// winning row, the best moves found, Go's ownership
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Number the stones in the picture in the order they were played
    #[arg(long)]
    numbers: bool,
    /// Label this many of the best moves in the picture
    #[arg(long, default_value_t = 5)]
    candidates: usize,
}

/// What one search may spend.
#[derive(clap::Args)]
struct SearchArgs {
    /// Search for this long (e.g. 2s, 500ms; `review`: each position, 500ms unless
    /// another limit is given)
    #[arg(long, value_parser = parse_duration)]
    time: Option<std::time::Duration>,
    /// Five-in-a-row: search to this depth
    #[arg(long)]
    depth: Option<u32>,
    /// Five-in-a-row: search this many nodes
    #[arg(long)]
    nodes: Option<u64>,
    /// Go and Gana: playouts to search
    #[arg(long)]
    playouts: Option<u64>,
    /// Search threads (default and most: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Subcommand)]
enum Command {
    /// Show a five-in-a-row position and, with a budget, search it: the board, the side to
    /// move, the result so far, forbidden points, and the best move with its line.
    #[command(alias = "analyze")]
    Analyse {
        /// Variant: freestyle, standard, renju, caro, caro-exact, old-renju, anti-renju,
        /// gomoku-pro, gomoku-shared-centre, gomoku-narabe, pente, keryo-pente, ni-nuki,
        /// go-bang, go-bang-exact, ni-nuki-count (default: the record's RU, else freestyle)
        #[arg(long)]
        variant: Option<String>,
        /// Board size: N or WxH (default: the variant's own)
        #[arg(long)]
        size: Option<String>,
        /// Moves to play, e.g. "h8 i9 h9" or "7,7 8,8"; after the file's moves
        #[arg(long)]
        moves: Option<String>,
        #[command(flatten)]
        limits: SearchArgs,
        /// Game: gomoku, go (also chosen by an SGF with GM[1]) or gana (the file holds
        /// position text; default the start)
        #[arg(long, default_value = "gomoku")]
        game: String,
        /// Go: rules (chinese, japanese, aga, new-zealand, tromp-taylor)
        #[arg(long, default_value = "chinese")]
        rules: String,
        /// Go: komi (default: the record's, else the rules')
        #[arg(long)]
        komi: Option<f32>,
        /// Go: load the record up to this move (1 = before the first move)
        #[arg(long)]
        move_number: Option<usize>,
        /// Report this many candidate moves: five-in-a-row searches each line apart
        /// (sharing the budget); Go and Gana read them from the tree (default: one line;
        /// all visited moves in JSON)
        #[arg(long, default_value_t = 0)]
        multipv: usize,
        /// Print the analysis as one JSON object (schema: protocols/analysis/README.md)
        #[arg(long)]
        json: bool,
        /// No progress on stderr (shown only when stderr is a terminal)
        #[arg(long, short)]
        quiet: bool,
        #[command(flatten)]
        picture: PictureArgs,
        /// A record: SGF (GM[4] five-in-a-row or GM[1] Go), Piskvork PSQ, a move list,
        /// or a board diagram
        file: Option<PathBuf>,
    },
    /// Review a whole game: analyse every position, judge each move by what it cost its
    /// player, find the forced wins missed or allowed (five-in-a-row), write the game
    /// back annotated (SGF with comments, BM/DO/TE/HO marks and Sabaki's SBKV win rate;
    /// Gana's own record with comments) and print a summary for each player.
    #[command(alias = "analyse-game")]
    Review {
        /// The records: SGF (GM[4] five-in-a-row or GM[1] Go), Piskvork PSQ, a move
        /// list, or a Gana record (a position line, then the moves); several are
        /// reviewed one after another, each annotated beside itself
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Game: gomoku, go or gana (default: read from the record)
        #[arg(long)]
        game: Option<String>,
        /// Five-in-a-row variant (default: the record's RU, else freestyle)
        #[arg(long)]
        variant: Option<String>,
        /// Five-in-a-row board size of a plain move list: N or WxH
        #[arg(long)]
        size: Option<String>,
        /// Go: rules when the record names none (chinese, japanese, aga, new-zealand,
        /// tromp-taylor)
        #[arg(long)]
        rules: Option<String>,
        /// Go: komi instead of the record's
        #[arg(long)]
        komi: Option<f32>,
        /// Each position's search (default: 500ms)
        #[command(flatten)]
        limits: SearchArgs,
        /// Lines searched a position (five-in-a-row splits the budget between them; the
        /// second finds the only good moves)
        #[arg(long, default_value_t = 2)]
        multipv: usize,
        /// The annotated record (default: beside each record, NAME-review.sgf, or .txt
        /// for Gana; "-" for stdout); one record only
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Print the review as JSON instead of the summary (several records: one JSON
        /// object a line)
        #[arg(long)]
        json: bool,
        /// The final position as SVG in FILE (stones numbered), and the evaluation graph
        /// beside it (NAME-graph.svg)
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// No progress on stderr (shown only when stderr is a terminal)
        #[arg(long, short)]
        quiet: bool,
    },
    /// Search a fixed set of positions to a fixed depth on one thread: the node count is
    /// the search's signature, nodes per second its speed here.
    Bench {
        /// Depth of every search
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Game: gomoku (fixed-depth searches), go or gana (playouts per second)
        #[arg(long, default_value = "gomoku")]
        game: String,
        /// Go: board size
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Go: playouts to run
        #[arg(long, default_value_t = 50_000)]
        playouts: u64,
        /// Go: threads
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Gomoku: the tuned numbers to search with, as `gomocup --tune`
        #[arg(long)]
        tune: Option<String>,
    },
    /// Play two Gomocup brains against each other, refereed by Tengen's rules; each
    /// opening twice with colours swapped. Prints every game and the score with its
    /// Elo margin.
    Match {
        /// First brain's command line, e.g. "target/release/tengen gomocup --threads 1"
        #[arg(long)]
        engine1: String,
        /// Second brain's command line, e.g. "pbrain-figrid"
        #[arg(long)]
        engine2: String,
        #[arg(long, default_value = "freestyle")]
        variant: String,
        #[arg(long, default_value_t = 15)]
        size: usize,
        #[arg(long, default_value_t = 40)]
        games: usize,
        /// Time per move (timeout_turn), ms
        #[arg(long, default_value_t = 1000)]
        time: u64,
        /// Go and Gana: engine1's time per move when it differs (a time-odds match), ms
        #[arg(long)]
        time1: Option<u64>,
        /// Stones in each random opening near the centre
        #[arg(long, default_value_t = 3)]
        opening_stones: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game: gomoku (five-in-a-row, Gomocup brains), go or gana (GTP engines)
        #[arg(long, default_value = "gomoku")]
        game: String,
        /// Go: komi
        #[arg(long, default_value_t = 7.0)]
        komi: f32,
        /// Go: rules the referee applies
        #[arg(long, default_value = "chinese")]
        rules: String,
        /// Go: the engine that scores games ended by passes (default: engine2)
        #[arg(long)]
        judge: Option<String>,
        /// Write every game into this directory: Go as SGF, Gana as position text and
        /// moves
        #[arg(long)]
        sgf_dir: Option<String>,
    },
    /// Run an engine tournament: Gomocup brains (five-in-a-row) or GTP engines (Go,
    /// Gana), round-robin or gauntlet, several games at once, refereed by Tengen's
    /// rules; results resume and merge across shards. `tengen tournament report FILES`
    /// prints the crosstable of results files.
    Tournament(Box<tengen::tournament::cli::TournamentArgs>),
    /// A broken engine for testing referees (hidden): plays simply, and at its AT-th
    /// move crashes, hangs, answers garbage or an error, plays illegally or slowly.
    #[command(hide = true)]
    FakeEngine {
        /// gomocup, gtp (Go: passes) or gana
        #[arg(long, default_value = "gomocup")]
        protocol: String,
        /// none, crash, hang, garbage, error, illegal or slow=MS
        #[arg(long, default_value = "none")]
        fault: String,
        #[arg(long, default_value_t = 1)]
        at: usize,
    },
    /// Speak the Gomocup (Piskvork) protocol with Yixin-Board's extensions on stdin/stdout.
    Gomocup {
        /// Variant to start with (INFO rule / INFO variant change it)
        #[arg(long)]
        variant: Option<String>,
        /// Search threads (default and most: all cores; INFO thread_num changes it)
        #[arg(long)]
        threads: Option<usize>,
        /// Transposition table in MB (INFO hash_size and max_memory change it)
        #[arg(long)]
        hash: Option<usize>,
        /// Tuning runs only: the evaluation's and search's numbers by name,
        /// "fut=190,openfour=3000,..." (bench/spsa_rapfi.py sets them)
        #[arg(long)]
        tune: Option<String>,
    },
    /// A JSON-lines analysis engine on stdin/stdout (as KataGo's): one query a line,
    /// one JSON answer for every position asked; the schema is in
    /// protocols/analysis/README.md
    Analysis {
        /// Positions analysed at once, one search thread each (default: all cores)
        #[arg(long)]
        workers: Option<usize>,
        /// No progress on stderr (shown only when stderr is a terminal)
        #[arg(long, short)]
        quiet: bool,
    },
    /// Throw seeded random and malformed lines at a protocol mode and check every reply
    /// (one GTP reply per command, ABOUT answered after each burst, only protocol on
    /// stdout, no panic, quit/END within a second). Exit status 1 on any failure.
    Fuzz {
        /// Protocol: gomocup, gtp (Go) or gana
        #[arg(long)]
        protocol: String,
        /// Lines to send in all
        #[arg(long, default_value_t = 20_000)]
        lines: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The engine to drive (default: this binary in the protocol's mode, one
        /// thread, short moves)
        #[arg(long)]
        engine: Option<String>,
        /// Working folder for the engine (record files, failure transcripts
        /// fail-N.in); default a fresh temporary folder, removed when nothing failed
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Speak GTP v2 on stdin/stdout (Go; Sabaki, Lizzie, GoGui, gogui-twogtp, KGS).
    Gtp {
        /// Game: go or gana
        #[arg(long, default_value = "go")]
        game: String,
        /// Board size to start with (boardsize changes it)
        #[arg(long, default_value_t = 19)]
        size: usize,
        /// Rules: chinese, japanese, aga, new-zealand, tromp-taylor (kgs-rules changes them)
        #[arg(long, default_value = "chinese")]
        rules: String,
        /// Search threads (default and most: all cores)
        #[arg(long)]
        threads: Option<usize>,
        /// Seconds per move when no time_settings arrive
        #[arg(long, default_value_t = 2.0)]
        time: f64,
        /// Fixed playouts per move instead of the clock (regression runs)
        #[arg(long)]
        playouts: Option<u64>,
        /// Resign below this win rate (0: never)
        #[arg(long, default_value_t = 0.05)]
        resign: f32,
        /// Memory for the search tree, MB (default 512; the tree never grows past it,
        /// also while pondering)
        #[arg(long)]
        memory: Option<usize>,
        /// Random seed (default: from the clock, so that games differ)
        #[arg(long)]
        seed: Option<u64>,
        /// Gana: play the greedy one-ply player instead of searching (a benchmark
        /// opponent)
        #[arg(long)]
        greedy: bool,
        /// Go: think on the opponent's time too (off by default, as fair matches on
        /// one machine need; `tengen-ponder on|off` changes it)
        #[arg(long)]
        ponder: bool,
        /// Tree-search tuning, for matches between settings:
        /// any of `prior_visits`, `rave_equiv`, `root_rave_equiv` (0: as `rave_equiv`),
        /// `exploration`, `expand_at`, `bias`, `bias_visits`, `bias_visits_small` (under
        /// 13x13) (Go's defaults: 20, 3000, 0, 0.02, 8, 0.1, 1000000, 1000; Gana's: 20,
        /// 1500, 0, 0.15, 2, 0, 200)
        #[arg(long)]
        mcts: Option<String>,
    },
}

fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let (num, unit) = s.split_at(
        s.find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(s.len()),
    );
    let v: f64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a duration like 2s or 500ms"))?;
    let secs = match unit {
        "" | "s" => v,
        "ms" => v / 1000.0,
        "m" | "min" => v * 60.0,
        _ => return Err(format!("'{s}': unknown unit '{unit}' (s, ms or min)")),
    };
    if !(0.0..=86_400.0).contains(&secs) {
        return Err(format!("'{s}' is out of range"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

fn variant(name: Option<String>) -> Result<Option<tengen::games::fiar::Variant>, String> {
    name.map(|v| v.parse())
        .transpose()
        .map_err(|e: tengen::core::RuleError| e.to_string())
}

/// Writes a file the user asked for, the error naming it.
fn write_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where a review goes.
struct ReviewOutput {
    out: Option<PathBuf>,
    svg: Option<PathBuf>,
    json: bool,
    quiet: bool,
}

/// The file beside `path` named after its stem (`fallback` if it has none) with `tail`
/// added: `game.sgf` → `game-review.sgf`.
fn beside(path: &std::path::Path, fallback: &str, tail: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or(fallback.into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}{tail}"))
}

/// `tengen review`: reads the record, reviews it with progress on a terminal, writes
/// the annotated record and returns the summary (or the JSON).
fn review(
    files: &[PathBuf],
    hints: &analysis::game::Hints,
    budget: Budget,
    playouts: Option<u64>,
    to: ReviewOutput,
) -> Result<String, String> {
    use analysis::game::Game;
    let ReviewOutput {
        out,
        svg,
        json,
        quiet,
    } = to;
    if files.len() > 1 && (out.is_some() || svg.is_some()) {
        return Err(
            "--out and --svg name one file: with several records, each annotated record goes beside its own"
                .into(),
        );
    }
    if json && out.as_deref().is_some_and(|o| o.as_os_str() == "-") {
        return Err("--json and --out - both want stdout: write the record to a file".into());
    }
    if budget.multipv == 0 || budget.multipv > 100 {
        return Err(format!("--multipv {}: 1 to 100", budget.multipv));
    }
    // Every record is read and checked before any is analysed: a bad file ends the run
    // at once, not after hours of the others.
    let mut games = Vec::new();
    for file in files {
        let text = tengen::core::files::read_record(file)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        let game = Game::read(&text, hints).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut b = budget.clone();
        if game.name() != "gomoku" {
            let name = if game.name() == "go" { "Go" } else { "Gana" };
            b = b
                .for_mcts(name, playouts)
                .map_err(|e| format!("{}: {e}", file.display()))?;
        } else if playouts.is_some() {
            return Err(format!(
                "{}: --playouts is for Go and Gana; five-in-a-row takes --nodes",
                file.display()
            ));
        }
        b.check(game.name() != "gomoku")?;
        if !b.searches() {
            b.time = Some(std::time::Duration::from_millis(500));
        }
        games.push((file, game, b));
    }
    let total: usize = games.iter().map(|(_, g, _)| g.moves().len() + 1).sum();
    let meter = analysis::meter::Meter::positions(total as u64, quiet);
    let show = |s: &analysis::model::Search| meter.show(s);
    let watch = analysis::Progress {
        every: analysis::meter::EVERY,
        send: &show,
    };
    let mut report = String::new();
    for (file, game, b) in &games {
        let r = analysis::review::review(
            game,
            b,
            &AtomicBool::new(false),
            meter.is_on().then_some(&watch),
            &|_, _, _| meter.advance(1),
        )
        .map_err(|e| format!("{}: {e}", file.display()))?;
        if let Some(path) = &svg {
            if let Some(last) = r.positions.last() {
                let style = analysis::svg::Style {
                    numbers: true,
                    candidates: 0,
                };
                write_file(path, &analysis::svg::position(last, &style))?;
            }
            write_file(
                &beside(path, "review", "-graph.svg"),
                &analysis::svg::graph(&r),
            )?;
        }
        let record = analysis::annotate::annotated(game, &r);
        let ext = if game.name() == "gana" {
            "-review.txt"
        } else {
            "-review.sgf"
        };
        let target = out.clone().unwrap_or_else(|| beside(file, "game", ext));
        let written = if target.as_os_str() == "-" {
            emit(record.trim_end());
            None
        } else {
            write_file(&target, &record)?;
            Some(target)
        };
        if json {
            let one = if games.len() > 1 {
                // Several reviews: one JSON object a line.
                serde_json::to_string(&r)
            } else {
                serde_json::to_string_pretty(&r)
            };
            report.push_str(&one.map_err(|e| format!("cannot write the JSON: {e}"))?);
            report.push('\n');
        } else {
            let mut s = String::new();
            if games.len() > 1 {
                s.push_str(&format!("== {}\n", file.display()));
            }
            s.push_str(&analysis::text::review(&r));
            match written {
                Some(p) => {
                    s.push_str(&format!("annotated record: {}\n", p.display()));
                    report.push_str(&s);
                }
                // The record has stdout.
                None => eprint!("{s}"),
            }
        }
    }
    meter.finish();
    Ok(report)
}

/// `--tune`: the search's numbers for this process, set before its first search.
fn tune_search(list: Option<String>) -> Result<(), String> {
    list.map_or(Ok(()), |l| {
        tengen::engine::fiar::tune(&l).map_err(|e| format!("--tune: {e}"))
    })
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::Analyse {
            variant: v,
            size,
            moves,
            limits:
                SearchArgs {
                    time,
                    depth,
                    nodes,
                    playouts,
                    threads,
                },
            file,
            game,
            rules,
            komi,
            move_number,
            multipv,
            json,
            quiet,
            picture,
        } => {
            let meter = analysis::meter::Meter::search(quiet);
            let show = |s: &analysis::model::Search| meter.show(s);
            let watch = analysis::Progress {
                every: analysis::meter::EVERY,
                send: &show,
            };
            let progress = meter.is_on().then_some(&watch);
            if multipv > 100 {
                return Err(format!("--multipv {multipv}: at most 100"));
            }
            let text = file
                .as_ref()
                .map(|f| {
                    tengen::core::files::read_record(f).map_err(|e| format!("{}: {e}", f.display()))
                })
                .transpose()?;
            let is_go_sgf = text.as_deref().is_some_and(|t| {
                let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
                t.contains("GM[1]")
            });
            let mcts_budget = |name: &str| -> Result<Budget, String> {
                let b = Budget {
                    time,
                    depth,
                    nodes,
                    threads,
                    multipv,
                    // Go's picture shades the points by their expected owner.
                    ownership: picture.svg.is_some(),
                }
                .for_mcts(name, playouts)?;
                b.check(true)?;
                Ok(b)
            };
            let analysis = if game == "gana" {
                let budget = mcts_budget("Gana")?;
                let e = analysis::gana_position(text.as_deref(), moves.as_deref())?;
                analysis::gana::analyse(e, &budget, &AtomicBool::new(false), progress)
            } else if game == "go" || is_go_sgf {
                let size = match size.as_deref() {
                    None => 19,
                    Some(s) => s
                        .parse()
                        .map_err(|_| format!("--size {s}: a number 2 to 25"))?,
                };
                let rules: tengen::games::go::Rules = rules.parse().map_err(|e| format!("{e}"))?;
                let g = analysis::go_position(
                    text.as_deref(),
                    size,
                    rules,
                    komi,
                    move_number,
                    moves.as_deref(),
                )
                .map_err(|e| match &file {
                    Some(f) => format!("{}: {e}", f.display()),
                    None => e,
                })?;
                analysis::go::analyse(g, &mcts_budget("Go")?, &AtomicBool::new(false), progress)
            } else if game == "gomoku" {
                let variant = variant(v)?;
                let size = size
                    .map(|s| analysis::parse_size(&s))
                    .transpose()
                    .map_err(|e| format!("--size: {e}"))?;
                let input = Input {
                    variant,
                    size,
                    file: text.as_deref(),
                    moves: moves.as_deref(),
                };
                let board = analysis::position(&input).map_err(|e| match &file {
                    Some(f) => format!("{}: {e}", f.display()),
                    None => e.to_string(),
                })?;
                let budget = Budget {
                    time,
                    depth,
                    nodes,
                    threads,
                    multipv,
                    ownership: false,
                };
                budget.check(false)?;
                analysis::fiar::analyse(&board, &budget, &AtomicBool::new(false), progress)
            } else {
                return Err(format!("--game {game}: gomoku, go or gana"));
            };
            meter.finish();
            if let Some(path) = &picture.svg {
                let style = analysis::svg::Style {
                    numbers: picture.numbers,
                    candidates: picture.candidates,
                };
                write_file(path, &analysis::svg::position(&analysis, &style))?;
            }
            if json {
                serde_json::to_string_pretty(&analysis)
                    .map(|mut s| {
                        s.push('\n');
                        s
                    })
                    .map_err(|e| format!("cannot write the JSON: {e}"))
            } else {
                Ok(analysis::text::render(&analysis))
            }
        }
        Command::Review {
            files,
            game,
            variant: v,
            size,
            rules,
            komi,
            limits:
                SearchArgs {
                    time,
                    depth,
                    nodes,
                    playouts,
                    threads,
                },
            multipv,
            out,
            json,
            svg,
            quiet,
        } => {
            let hints = analysis::game::Hints {
                game,
                variant: variant(v)?,
                size: size
                    .map(|s| analysis::parse_size(&s))
                    .transpose()
                    .map_err(|e| format!("--size: {e}"))?,
                rules: rules
                    .map(|r| r.parse::<tengen::games::go::Rules>())
                    .transpose()
                    .map_err(|e| format!("--rules: {e}"))?,
                komi,
            };
            let budget = Budget {
                time,
                depth,
                nodes,
                threads,
                multipv,
                // Go's final picture shades the points by their expected owner.
                ownership: svg.is_some(),
            };
            let to = ReviewOutput {
                out,
                svg,
                json,
                quiet,
            };
            review(&files, &hints, budget, playouts, to)
        }
        Command::Match {
            engine1,
            engine2,
            variant: v,
            size,
            games,
            time,
            time1,
            opening_stones,
            seed,
            game,
            komi,
            rules,
            judge,
            sgf_dir,
        } => {
            use tengen::tournament::cli::{RunArgs, config, finish};
            if time1.is_some() && game == "gomoku" {
                return Err("--time1: time odds are for --game go or gana".into());
            }
            let tc = |ms: u64| {
                if game == "gomoku" {
                    format!("0/{}", ms as f64 / 1000.0)
                } else {
                    format!("0+{}x1", ms as f64 / 1000.0)
                }
            };
            let engines = vec![
                vec![
                    "name=engine1".to_string(),
                    format!("cmd={engine1}"),
                    format!("tc={}", tc(time1.unwrap_or(time))),
                ],
                vec![
                    "name=engine2".to_string(),
                    format!("cmd={engine2}"),
                    format!("tc={}", tc(time)),
                ],
            ];
            let args = RunArgs {
                engine: Vec::new(),
                engines,
                each: Vec::new(),
                game,
                variant: v,
                size: Some(size.to_string()),
                komi,
                rules,
                handicap: 0,
                gauntlet: false,
                games,
                rounds: 1,
                repeat: games % 2 == 0,
                tc: None,
                tolerance: 1.0,
                openings: Vec::new(),
                transform: false,
                srand: None,
                opening_stones,
                seed,
                max_plies: 0,
                judge,
                concurrency: 1,
                results: None,
                records: sgf_dir.map(PathBuf::from),
                shard: None,
                sprt: Vec::new(),
                fatal_error: false,
            };
            finish(&config(&args)?, emit)
        }
        Command::Tournament(t) => tengen::tournament::cli::run(&t, emit),
        Command::FakeEngine {
            protocol,
            fault,
            at,
        } => {
            use tengen::tournament::fake;
            let fault: fake::Fault = fault.parse()?;
            match protocol.as_str() {
                "gomocup" => fake::gomocup(fault, at),
                "gtp" => fake::gtp(fault, at, false),
                "gana" => fake::gtp(fault, at, true),
                p => return Err(format!("--protocol {p}: gomocup, gtp or gana")),
            }
            Ok(String::new())
        }
        Command::Bench {
            depth,
            game,
            size,
            playouts,
            threads,
            tune,
        } => {
            tune_search(tune)?;
            if game == "go" || game == "gana" {
                if game == "go" && !(2..=25).contains(&size) {
                    return Err(format!("--size {size}: Go boards are 2..=25"));
                }
                let (n, wall, cpu) = if game == "go" {
                    tengen::bench::go(size, playouts, threads.max(1))
                } else {
                    tengen::bench::gana(playouts, threads.max(1))
                };
                let what = if game == "go" {
                    format!("go {size}x{size}")
                } else {
                    "gana from the start".to_string()
                };
                let secs = wall.as_secs_f64().max(1e-6);
                return Ok(format!(
                    "{what}, {} thread(s): {n} playouts in {:.2} s: {:.0} playouts/s, {:.0} per thread-CPU-second",
                    threads.max(1),
                    secs,
                    n as f64 / secs,
                    n as f64 / cpu.as_secs_f64().max(1e-6)
                ));
            }
            let mut out = String::new();
            let (mut nodes, mut micros) = (0u64, 0u128);
            for l in tengen::bench::run(depth) {
                out.push_str(&format!(
                    "{:>10} nodes {:>8} nodes/s  {}\n",
                    l.nodes,
                    l.nodes as u128 * 1_000_000 / l.micros,
                    l.name
                ));
                nodes += l.nodes;
                micros += l.micros;
            }
            out.push_str(&format!(
                "total {nodes} nodes, {} ms, {} nodes/s\n",
                micros / 1000,
                nodes as u128 * 1_000_000 / micros.max(1)
            ));
            Ok(out)
        }
        Command::Gomocup {
            variant: v,
            threads,
            hash,
            tune,
        } => {
            tune_search(tune)?;
            gomocup::run(gomocup::Options {
                variant: variant(v)?,
                threads,
                hash_mb: hash,
            });
            Ok(String::new())
        }
        Command::Analysis { workers, quiet } => {
            let workers = workers.unwrap_or_else(tengen::search::machine_threads);
            if workers == 0 || workers > 1024 {
                return Err(format!("--workers {workers}: 1 to 1024"));
            }
            analysis::engine::serve(
                std::io::stdin().lock(),
                Box::new(std::io::stdout()),
                workers,
                analysis::meter::Meter::positions(0, quiet),
            );
            Ok(String::new())
        }
        Command::Fuzz {
            protocol,
            lines,
            seed,
            engine,
            dir,
        } => {
            use tengen::fuzz;
            let protocol: fuzz::Protocol = protocol.parse()?;
            let engine = match engine {
                Some(cmd) => cmd.split_whitespace().map(String::from).collect(),
                None => {
                    let me = fuzz::this_binary().ok_or("cannot find this program's path")?;
                    let mut v = vec![me.display().to_string()];
                    v.extend(protocol.engine_args());
                    v
                }
            };
            if engine.is_empty() {
                return Err("--engine needs a command".into());
            }
            let given_dir = dir.is_some();
            let dir = dir.unwrap_or_else(|| fuzz::default_dir(protocol, seed));
            let cfg = fuzz::Config {
                protocol,
                engine,
                lines,
                seed,
                dir: dir.clone(),
                reply_timeout: std::time::Duration::from_secs(30),
                max_failures: 20,
            };
            let summary = fuzz::run(&cfg, |s| eprintln!("fuzz: {s}"));
            if !given_dir {
                fuzz::tidy(&dir, &summary);
            }
            if summary.failures.is_empty() {
                Ok(format!("{protocol:?}: {summary}"))
            } else {
                Err(format!("{protocol:?}: {summary}"))
            }
        }
        Command::Gtp {
            game,
            size,
            rules,
            threads,
            time,
            playouts,
            resign,
            memory,
            seed,
            greedy,
            ponder,
            mcts,
        } => {
            let tune = |params: &mut tengen::search::mcts::Params| match &mcts {
                Some(m) => params.set(m).map_err(|e| format!("--mcts: {e}")),
                None => Ok(()),
            };
            if game == "gana" {
                let mut engine = tengen::engine::GanaEngine::new();
                tune(engine.params_mut())?;
                if let Some(t) = threads {
                    engine.set_threads(t);
                }
                if let Some(mb) = memory {
                    engine.set_memory_mb(mb);
                }
                if !(time.is_finite() && time > 0.0 && time <= 3600.0) {
                    return Err(
                        "--time must be a number of seconds, above 0 and at most 3600".into(),
                    );
                }
                if playouts.is_some_and(|p| p > tengen::protocol::gtp::MAX_PLAYOUTS) {
                    return Err(format!(
                        "--playouts: at most {}",
                        tengen::protocol::gtp::MAX_PLAYOUTS
                    ));
                }
                engine.move_time = std::time::Duration::from_secs_f64(time);
                engine.playouts = playouts;
                engine.greedy = greedy;
                engine.set_seed(seed.unwrap_or_else(clock_seed));
                let stdin = std::io::BufReader::new(std::io::stdin());
                tengen::protocol::gana::run(stdin, std::io::stdout(), engine);
                return Ok(String::new());
            }
            if game != "go" {
                return Err(format!("unknown game '{game}' for gtp (go, gana)"));
            }
            let rules: tengen::games::go::Rules = rules.parse().map_err(|e| format!("{e}"))?;
            let mut engine = tengen::engine::GoEngine::new(size, rules)
                .map_err(|_| format!("board size {size}: 2 to 25"))?;
            tune(engine.params_mut())?;
            if let Some(t) = threads {
                engine.set_threads(t);
            }
            if let Some(mb) = memory {
                engine.set_memory_mb(mb);
            }
            if !(time.is_finite() && time > 0.0 && time <= 3600.0) {
                return Err("--time must be a number of seconds, above 0 and at most 3600".into());
            }
            engine.move_time = std::time::Duration::from_secs_f64(time);
            if playouts.is_some_and(|p| p > tengen::protocol::gtp::MAX_PLAYOUTS) {
                return Err(format!(
                    "--playouts: at most {}",
                    tengen::protocol::gtp::MAX_PLAYOUTS
                ));
            }
            engine.playouts = playouts;
            engine.resign_below = (resign > 0.0).then_some(resign);
            engine.set_seed(seed.unwrap_or_else(clock_seed));
            let stdin = std::io::BufReader::new(std::io::stdin());
            tengen::protocol::gtp::run(stdin, std::io::stdout(), engine, ponder);
            Ok(String::new())
        }
    }
}

/// A seed that differs from run to run (time and process id), so that games differ.
fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    t ^ (std::process::id() as u64) << 32
}

/// Writes a line to stdout; a closed stdout (a pipe into `head`) ends the program
/// quietly instead of panicking.
fn emit(text: &str) {
    use std::io::Write;
    if text.is_empty() {
        return;
    }
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

fn main() -> ExitCode {
    // Arguments that are not UTF-8 are clap's to refuse, not a reason to panic here.
    let mut args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let invoked_as = std::path::Path::new(args.first().map_or("", |a| a.as_str()))
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    if invoked_as.to_ascii_lowercase().starts_with("pbrain-") && args.len() == 1 {
        args.push("gomocup".into());
    }
    let matches = match Cli::command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => e.exit(),
    };
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    if let (Command::Tournament(t), Some(("tournament", m))) =
        (&mut cli.command, matches.subcommand())
    {
        t.run.engines = tengen::tournament::cli::engine_groups(m);
    }
    match run(cli) {
        Ok(out) => {
            emit(out.trim_end_matches('\n'));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
