//! The GTP-style protocol for Gana (`tengen gtp --game gana`): GTP's framing (ids,
//! `=`/`?` replies ended by a blank line, input clean-up) with Gana's moves and the
//! extensions gana-setpos, gana-getpos and gana-legal_moves.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use super::gtp::{clean, color_arg, memory_arg, time_left, time_settings};
use super::io::{guarded, send_text, spawn_reader, test_hooks};
use crate::engine::GanaEngine;
use crate::games::gana::{Board, Move};

pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "clear_board",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "gana-setpos",
    "gana-getpos",
    "gana-legal_moves",
    "tengen-memory",
];

/// Runs the protocol until `quit` or the end of input.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, mut out: W, mut engine: GanaEngine) {
    let rx = spawn_reader(input);
    let hooks = test_hooks();
    while let Ok(Some(line)) = rx.recv() {
        let text = clean(&line);
        if text.is_empty() {
            continue;
        }
        let mut words = text.split_whitespace();
        let first = words.next().unwrap_or("");
        let (id, name) = match first.parse::<u64>() {
            Ok(id) => (id.to_string(), words.next().unwrap_or("")),
            Err(_) => (String::new(), first),
        };
        let args: Vec<&str> = words.collect();
        let reply = if name.is_empty() {
            Err("syntax error".to_string())
        } else {
            guarded(|| command(&mut engine, name, &args, &text, hooks)).unwrap_or_else(|why| {
                // A bug costs this answer: the tree goes, the position stands (a move
                // replaces it whole).
                eprintln!("tengen: internal error in '{name}' ({why}); search tree dropped");
                engine.recover();
                Err("internal error".into())
            })
        };
        let quit = name == "quit";
        let line = match reply {
            Ok(t) if t.is_empty() => format!("={id}\n\n"),
            Ok(t) => format!("={id} {t}\n\n"),
            Err(e) => format!("?{id} {e}\n\n"),
        };
        send_text(&mut out, &line);
        if quit {
            break;
        }
    }
}

/// One command; `hooks`: the test hook `tengen-debug-panic [search]` works (a panic in
/// the handler, or in the next search's thread).
fn command(
    e: &mut GanaEngine,
    name: &str,
    args: &[&str],
    line: &str,
    hooks: bool,
) -> Result<String, String> {
    match name {
        "tengen-debug-panic" if hooks => {
            if args.first() == Some(&"search") {
                e.inject_fault = true;
                Ok(String::new())
            } else {
                panic!("injected fault (tengen-debug-panic)")
            }
        }
        "protocol_version" => Ok("2".into()),
        "name" => Ok("Tengen".into()),
        "version" => Ok(env!("CARGO_PKG_VERSION").into()),
        "known_command" => Ok(args
            .first()
            .is_some_and(|c| COMMANDS.contains(c))
            .to_string()),
        "list_commands" => Ok(COMMANDS.join("\n")),
        "quit" => Ok(String::new()),
        "clear_board" => {
            e.clear();
            Ok(String::new())
        }
        "play" => {
            if args.len() != 2 {
                return Err("syntax error".into());
            }
            let c = color_arg(args[0]).map_err(|_| "syntax error".to_string())?;
            e.play(c, args[1]).map_err(|err| err.to_string())?;
            Ok(String::new())
        }
        "genmove" | "reg_genmove" => {
            let c = color_arg(args.first().copied().unwrap_or(""))
                .map_err(|_| "syntax error".to_string())?;
            if e.result().is_some() {
                return Err("illegal move: game over".into());
            }
            if c != e.board().to_move() {
                return Err("illegal move: wrong side".into());
            }
            let (text, r) = e
                .choose(&AtomicBool::new(false))
                .ok_or("illegal move: game over")?;
            let secs = r.elapsed.as_secs_f64().max(1e-6);
            eprintln!(
                "tengen: {} playouts in {:.2} s ({:.0}/s); {text} {:.1}%",
                r.playouts,
                secs,
                r.playouts as f64 / secs,
                r.best().map_or(0.0, |b| b.win_rate * 100.0)
            );
            if name == "genmove" {
                e.play(c, &text).map_err(|err| err.to_string())?;
            }
            Ok(text)
        }
        "undo" => {
            if e.undo() {
                Ok(String::new())
            } else {
                Err("cannot undo".into())
            }
        }
        "showboard" => {
            let b = e.board();
            let status = match e.result() {
                Some(r) => format!("game over: {} ({r})", b.outcome()),
                None => format!(
                    "{} to move, {} plies without a capture",
                    b.to_move(),
                    b.no_capture()
                ),
            };
            Ok(format!("\n{b}\n{status}"))
        }
        "tengen-memory" => {
            e.set_memory_mb(memory_arg(args)?);
            Ok(String::new())
        }
        "time_settings" => {
            e.set_time(time_settings(args)?);
            Ok(String::new())
        }
        "time_left" => {
            let (c, left) = time_left(args)?;
            e.set_time_left(c, left);
            Ok(String::new())
        }
        "final_score" => e.result().map(str::to_string).ok_or("game not over".into()),
        "gana-setpos" => {
            // The position text is the rest of the line (it holds spaces).
            let rest = line.split_once("gana-setpos").map_or("", |(_, r)| r).trim();
            let b = Board::from_text(rest).map_err(|err| format!("syntax error: {err}"))?;
            e.set_position(b);
            Ok(String::new())
        }
        "gana-getpos" => e
            .board()
            .to_text()
            .ok_or("game over: a won game has no position text".into()),
        "gana-legal_moves" => {
            let mut moves: Vec<Move> = Vec::new();
            e.board().legal_moves(&mut moves);
            let b = e.board();
            Ok(moves
                .iter()
                .map(|&m| b.move_text(m))
                .collect::<Vec<_>>()
                .join(" "))
        }
        _ => Err("unknown command".into()),
    }
}
