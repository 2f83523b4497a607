//! The `tengen tournament` and `tengen match` command lines, turned into a [`Config`].

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::engine::Spec;
use super::openings::{self, BookFormat};
use super::schedule::{Kind, Order, Schedule, Shard};
use super::stats::Sprt;
use super::{Config, GameKind};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub report: Option<ReportCmd>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Subcommand, Debug)]
pub enum ReportCmd {
    /// Print the crosstable of results files (one run, or the shards of one run)
    Report {
        /// Results files (JSON lines) written by `tengen tournament --results`
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also give the SPRT's LLR, e.g. --sprt elo0=0 elo1=5
        #[arg(long, num_args = 1..)]
        sprt: Vec<String>,
    },
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// An engine: name=NAME cmd="PROGRAM ARGS" [threads=N] [tc=…] [depth=N] [nodes=N]
    /// [playouts=N] [tolerance=SECS] [option.KEY=VALUE]; give it once per engine
    #[arg(long, num_args = 1.., action = clap::ArgAction::Append, value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// The `--engine` words grouped by occurrence (clap's derive flattens them; see
    /// [`engine_groups`]).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Words applied to every engine before its own (e.g. tc=0/1 threads=1)
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Game: gomoku (Gomocup brains), go or gana (GTP engines)
    #[arg(long, default_value = "gomoku")]
    pub game: String,
    /// Five-in-a-row variant (freestyle, standard, renju, caro, …)
    #[arg(long, default_value = "freestyle")]
    pub variant: String,
    /// Board: N, or WxH for a five-in-a-row rectangle (default: 15; Go 19)
    #[arg(long)]
    pub size: Option<String>,
    /// Go: komi
    #[arg(long, default_value_t = 7.5)]
    pub komi: f32,
    /// Go: rules the referee applies (chinese, japanese, aga, new-zealand, tromp-taylor)
    #[arg(long, default_value = "chinese")]
    pub rules: String,
    /// Go: handicap stones for black (fixed placement, white moves first)
    #[arg(long, default_value_t = 0)]
    pub handicap: usize,
    /// The first engine against each of the others (default: round-robin)
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per encounter per round
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Play each opening twice, colours swapped (a game pair)
    #[arg(long)]
    pub repeat: bool,
    /// Time control: Gomocup match/turn+inc in seconds (default 0/1); Go and Gana
    /// main+PERIODxN byo-yomi or main+PERIOD/STONES Canadian (default 0+1x1)
    #[arg(long)]
    pub tc: Option<String>,
    /// Seconds over the time allowed before a move loses on time (Gomocup's judge: 1)
    #[arg(long, default_value_t = 1.0)]
    pub tolerance: f64,
    /// Opening book: FILE, or file=FILE [type=offset|pos] [order=sequential|random]
    /// [srand=N]; Go: an SGF file or folder; Gana: position text, one a line
    #[arg(long, num_args = 1..)]
    pub openings: Vec<String>,
    /// Seed of the book's random order (order=random; default --seed)
    #[arg(long)]
    pub srand: Option<u64>,
    /// Five-in-a-row: play the book in each of the 8 board symmetries in turn
    #[arg(long)]
    pub transform: bool,
    /// Without a book: stones in each random balanced opening
    #[arg(long, default_value_t = 3)]
    pub opening_stones: usize,
    /// Seed of the random openings
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adjudicate after this many plies: a draw, or Go's count (0: never)
    #[arg(long, alias = "drawafter", default_value_t = 0)]
    pub max_plies: usize,
    /// Go: the engine that scores games ended by passes (default: Tengen's own count)
    #[arg(long)]
    pub judge: Option<String>,
    /// Games played at once
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Results file (JSON lines); rerunning the same command resumes it
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Folder for every game's record (SGF; Gana: position text and moves)
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Play only shard K of N (game pairs K, K+N, …), e.g. --shard 3/32
    #[arg(long)]
    pub shard: Option<String>,
    /// Sequential test: elo0=0 elo1=5 [alpha=0.05] [beta=0.05] [model=normalized|logistic]
    #[arg(long, num_args = 1..)]
    pub sprt: Vec<String>,
    /// Stop the run when an engine crashes or stalls, instead of scoring a loss
    #[arg(long)]
    pub fatal_error: bool,
}

/// The words of each `--engine` occurrence of a `tournament` command line.
pub fn engine_groups(m: &clap::ArgMatches) -> Vec<Vec<String>> {
    m.get_occurrences::<String>("engine")
        .map(|o| o.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default()
}

fn game_kind(a: &RunArgs) -> Result<GameKind, String> {
    match a.game.as_str() {
        "gomoku" | "fiar" | "five-in-a-row" => {
            let variant: crate::games::fiar::Variant = a
                .variant
                .parse()
                .map_err(|e: crate::core::RuleError| e.to_string())?;
            let (width, height) = match &a.size {
                None => (15, 15),
                Some(s) => crate::analysis::parse_size(s).map_err(|e| format!("--size: {e}"))?,
            };
            crate::games::fiar::Board::with_size(variant, width, height)
                .map_err(|e| format!("--size: {e}"))?;
            Ok(GameKind::Fiar {
                variant,
                width,
                height,
            })
        }
        "go" => {
            let size: usize = match &a.size {
                None => 19,
                Some(s) => s.parse().map_err(|_| format!("--size {s}: 2 to 25"))?,
            };
            if !(2..=25).contains(&size) {
                return Err(format!("--size {size}: Go boards are 2 to 25"));
            }
            if !a.komi.is_finite() || a.komi.abs() > 1000.0 {
                return Err(format!("--komi {}: out of range", a.komi));
            }
            if a.handicap == 1 || a.handicap > 9 {
                return Err(format!("--handicap {}: 2 to 9 (or 0)", a.handicap));
            }
            let rules = a.rules.parse().map_err(|e| format!("--rules: {e}"))?;
            Ok(GameKind::Go {
                size,
                komi: a.komi,
                rules,
                handicap: a.handicap,
            })
        }
        "gana" => Ok(GameKind::Gana),
        g => Err(format!("--game {g}: gomoku, go or gana")),
    }
}

/// The settings of a `tengen tournament` command line.
pub fn config(a: &RunArgs) -> Result<Config, String> {
    let kind = game_kind(a)?;
    let engines = a
        .engines
        .iter()
        .map(|words| Spec::parse(words, &a.each))
        .collect::<Result<Vec<_>, _>>()?;
    let tc = a.tc.clone().unwrap_or(match kind {
        GameKind::Fiar { .. } => "0/1".into(),
        _ => "0+1x1".into(),
    });
    let judge = match &a.judge {
        Some(cmd) => {
            let words = vec![format!("cmd={cmd}"), "name=judge".into()];
            Some(Spec::parse(&words, &[])?)
        }
        None => None,
    };
    let shard = match &a.shard {
        Some(s) => Shard::parse(s)?,
        None => Shard::WHOLE,
    };
    let sprt = if a.sprt.is_empty() {
        None
    } else {
        Some(Sprt::parse(&a.sprt)?)
    };
    if !(a.tolerance.is_finite() && (0.0..=3600.0).contains(&a.tolerance)) {
        return Err(format!("--tolerance {}: seconds, 0 to 3600", a.tolerance));
    }
    // The book.
    let mut file = None;
    let mut format = None;
    let mut order = match a.srand {
        Some(n) => Order::Random(n),
        None => Order::Sequential,
    };
    for w in &a.openings {
        match w.split_once('=') {
            None => file = Some(PathBuf::from(w)),
            Some(("file", f)) => file = Some(PathBuf::from(f)),
            Some(("type", "offset")) => format = Some(BookFormat::Offset),
            Some(("type", "pos")) => format = Some(BookFormat::Pos),
            Some(("order", "sequential")) => {}
            Some(("order", "random")) => {
                if order == Order::Sequential {
                    order = Order::Random(a.srand.unwrap_or(a.seed))
                }
            }
            Some(("srand", n)) => {
                order = Order::Random(n.parse().map_err(|_| format!("--openings srand={n}"))?)
            }
            Some((k, v)) => {
                return Err(format!(
                    "--openings {k}={v}: file=, type=offset|pos, order=sequential|random, srand="
                ));
            }
        }
    }
    let mut schedule = Schedule {
        engines: engines.len(),
        kind: if a.gauntlet {
            Kind::Gauntlet
        } else {
            Kind::RoundRobin
        },
        games: a.games,
        rounds: a.rounds.max(1),
        repeat: a.repeat,
        openings: 1,
        order,
        symmetries: if a.transform { 8 } else { 1 },
    };
    let (book, openings) = match &file {
        Some(f) => {
            let name = f.display().to_string();
            let list = match &kind {
                GameKind::Go { .. } => openings::read_go_book(f, &kind)?,
                _ => {
                    let text =
                        crate::core::files::read_record(f).map_err(|e| format!("{name}: {e}"))?;
                    if kind == GameKind::Gana {
                        openings::read_gana_book(&text, &name)?
                    } else {
                        openings::read_fiar_book(&text, &name, &kind, format)?
                    }
                }
            };
            (name, list)
        }
        None => match &kind {
            GameKind::Fiar { .. } => {
                if a.opening_stones > 12 {
                    return Err(format!(
                        "--opening-stones {}: at most 12 (they go near the centre)",
                        a.opening_stones
                    ));
                }
                let pairs = schedule.slots().last().map_or(1, |s| s.pair + 1);
                (
                    format!("random {} stones, seed {}", a.opening_stones, a.seed),
                    openings::random_fiar(&kind, a.opening_stones, pairs, a.seed),
                )
            }
            _ => ("start".into(), vec![openings::empty()]),
        },
    };
    schedule.openings = openings.len();
    Ok(Config {
        kind,
        engines,
        schedule,
        openings,
        book,
        tc,
        tolerance: Duration::from_secs_f64(a.tolerance),
        max_plies: a.max_plies,
        judge,
        concurrency: a.concurrency,
        results: a.results.clone(),
        records: a.records.clone(),
        shard,
        sprt,
        fatal_error: a.fatal_error,
        progress: true,
    })
}

/// Runs `tengen tournament`: a run, or the report of results files.
pub fn run(args: &TournamentArgs, emit: impl FnMut(&str)) -> Result<String, String> {
    if let Some(ReportCmd::Report { files, sprt }) = &args.report {
        let sprt = if sprt.is_empty() {
            None
        } else {
            Some(Sprt::parse(sprt)?)
        };
        return report_files(files, sprt.as_ref());
    }
    let cfg = config(&args.run)?;
    finish(&cfg, emit)
}

/// Runs a tournament and gives its crosstable; an engine fault under `--fatal-error`
/// is an error.
pub fn finish(cfg: &Config, emit: impl FnMut(&str)) -> Result<String, String> {
    let summary = super::run(cfg, emit)?;
    let refs: Vec<&super::results::GameLine> = summary.games.iter().collect();
    let mut out = super::report::crosstable(&refs, cfg.sprt.as_ref());
    out += &format!(
        "\n{} games played now, {} in the results",
        summary.played_now,
        summary.games.len()
    );
    if let Some(share) = summary.cpu_share {
        out += &format!(
            "; the runner's CPU time is {:.2}% of the engines'",
            100.0 * share
        );
    }
    out.push('\n');
    if let Some(f) = summary.fatal {
        return Err(format!("{out}stopped: {f} (--fatal-error)"));
    }
    Ok(out)
}

/// The crosstable of one run's results files (shards merge by game number; their
/// settings must agree).
pub fn report_files(files: &[PathBuf], sprt: Option<&Sprt>) -> Result<String, String> {
    let mut settings: Option<(serde_json::Value, String)> = None;
    let mut games = std::collections::BTreeMap::new();
    for f in files {
        let l = super::results::load(f)?;
        match &settings {
            None => settings = Some((l.header.settings.clone(), f.display().to_string())),
            Some((s, first)) => {
                if let Some(d) = super::results::difference(s, &l.header.settings, "") {
                    return Err(format!(
                        "{} and {first} are not of one tournament ({d})",
                        f.display()
                    ));
                }
            }
        }
        games.extend(l.games);
    }
    let refs: Vec<&super::results::GameLine> = games.values().collect();
    let mut out = super::report::crosstable(&refs, sprt);
    out += &format!("\n{} games in {} file(s)\n", refs.len(), files.len());
    Ok(out)
}
