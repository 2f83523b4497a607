//! The `tengen` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tengen::analyse::{self, Input};

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

#[derive(Subcommand)]
enum Command {
    /// Show a five-in-a-row position: the board, the side to move, the result so far and
    /// each side's forbidden points with reasons.
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
        /// A record: SGF (GM[4]), Piskvork PSQ, a move list, or a board diagram
        file: Option<PathBuf>,
    },
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::Analyse {
            variant,
            size,
            moves,
            file,
        } => {
            let variant = variant
                .map(|v| v.parse())
                .transpose()
                .map_err(|e| format!("{e}"))?;
            let size = size
                .map(|s| analyse::parse_size(&s))
                .transpose()
                .map_err(|e| format!("--size: {e}"))?;
            let text = file
                .as_ref()
                .map(|f| std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display())))
                .transpose()?;
            let input = Input {
                variant,
                size,
                file: text.as_deref(),
                moves: moves.as_deref(),
            };
            let board = analyse::position(&input).map_err(|e| match &file {
                Some(f) => format!("{}: {e}", f.display()),
                None => e.to_string(),
            })?;
            Ok(analyse::describe(&board))
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
