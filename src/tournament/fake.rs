//! `tengen fake-engine`: a deliberately simple engine for testing referees. It plays
//! the first free point from the centre outwards (Gomocup), or passes (GTP), and at its
//! `at`-th move does what a broken engine does: crash, hang, answer garbage or an
//! error, play an illegal move, or think past its time.

use std::io::{BufRead, Write};
use std::time::Duration;

/// What goes wrong, and at which of the engine's own moves (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    None,
    Crash,
    Hang,
    Garbage,
    Error,
    Illegal,
    /// Answers after `ms` milliseconds.
    Slow(u64),
}

impl std::str::FromStr for Fault {
    type Err = String;
    fn from_str(s: &str) -> Result<Fault, String> {
        Ok(match s {
            "none" => Fault::None,
            "crash" => Fault::Crash,
            "hang" => Fault::Hang,
            "garbage" => Fault::Garbage,
            "error" => Fault::Error,
            "illegal" => Fault::Illegal,
            _ => match s.strip_prefix("slow=").and_then(|ms| ms.parse().ok()) {
                Some(ms) => Fault::Slow(ms),
                None => {
                    return Err(format!(
                        "fault '{s}': none, crash, hang, garbage, error, illegal or slow=MS"
                    ));
                }
            },
        })
    }
}

/// The answer to the engine's own move number `n`, given its normal move.
fn answer(fault: Fault, at: usize, n: usize, normal: String, illegal: String) -> String {
    if n != at {
        return normal;
    }
    match fault {
        Fault::None => normal,
        Fault::Crash => std::process::exit(3),
        Fault::Hang => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        Fault::Garbage => "hello there".into(),
        Fault::Error => "ERROR out of cheese".into(),
        Fault::Illegal => illegal,
        Fault::Slow(ms) => {
            std::thread::sleep(Duration::from_millis(ms));
            normal
        }
    }
}

/// Speaks Gomocup on stdin/stdout.
pub fn gomocup(fault: Fault, at: usize) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let (mut w, mut h) = (15i64, 15i64);
    let mut stones: Vec<(i64, i64)> = Vec::new();
    let mut n = 0;
    let mut lines = stdin.lock().lines();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    while let Some(Ok(line)) = lines.next() {
        let l = line.trim().to_string();
        let (cmd, rest) = l.split_once(' ').unwrap_or((&l, ""));
        let mut think = false;
        match cmd.to_ascii_uppercase().as_str() {
            "START" => {
                w = rest.trim().parse().unwrap_or(15);
                h = w;
                stones.clear();
                say("OK");
            }
            "RECTSTART" => {
                let mut it = rest.split(',').map(|x| x.trim().parse().unwrap_or(15));
                w = it.next().unwrap_or(15);
                h = it.next().unwrap_or(15);
                stones.clear();
                say("OK");
            }
            "BEGIN" => think = true,
            "TURN" => {
                if let Some((x, y)) = xy(rest) {
                    stones.push((x, y));
                }
                think = true;
            }
            "BOARD" => {
                stones.clear();
                for l in lines.by_ref() {
                    let Ok(l) = l else { return };
                    if l.trim().eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    if let Some((x, y)) = xy(&l) {
                        stones.push((x, y));
                    }
                }
                think = true;
            }
            "END" => return,
            "ABOUT" => say("name=\"fake\", version=\"1\""),
            "INFO" | "" => {}
            _ => say("UNKNOWN"),
        }
        if think {
            n += 1;
            let free = spiral(w, h).find(|p| !stones.contains(p));
            let Some((x, y)) = free else {
                say("ERROR board full");
                continue;
            };
            let illegal = stones
                .first()
                .map_or("99,99".to_string(), |(a, b)| format!("{a},{b}"));
            let a = answer(fault, at, n, format!("{x},{y}"), illegal);
            if a == format!("{x},{y}") {
                stones.push((x, y));
            }
            say(&a);
        }
    }
}

fn xy(t: &str) -> Option<(i64, i64)> {
    let mut it = t.split(',');
    Some((
        it.next()?.trim().parse().ok()?,
        it.next()?.trim().parse().ok()?,
    ))
}

/// The points of a board from the centre outwards, ring by ring.
fn spiral(w: i64, h: i64) -> impl Iterator<Item = (i64, i64)> {
    let (cx, cy) = (w / 2, h / 2);
    (0..w.max(h)).flat_map(move |r| {
        (-r..=r).flat_map(move |dy| {
            (-r..=r).filter_map(move |dx| {
                let (x, y) = (cx + dx, cy + dy);
                ((dx.abs() == r || dy.abs() == r) && (0..w).contains(&x) && (0..h).contains(&y))
                    .then_some((x, y))
            })
        })
    })
}

/// Speaks GTP on stdin/stdout: passes (Go) or plays its first legal move (Gana).
pub fn gtp(fault: Fault, at: usize, gana: bool) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut n = 0;
    let mut last_stone = None;
    let mut board = crate::games::gana::Board::start();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        let reply = match cmd {
            "quit" => {
                let _ = write!(out, "=\n\n");
                return;
            }
            "protocol_version" => "2".to_string(),
            "name" => "fake".into(),
            "list_commands" => "genmove\nplay\nquit".into(),
            "clear_board" => {
                board = crate::games::gana::Board::start();
                String::new()
            }
            "play" => {
                if let Some(m) = words.get(2) {
                    if gana {
                        if let Ok(mv) = board.parse_move(m) {
                            let _ = board.play(mv);
                        }
                    } else if !m.eq_ignore_ascii_case("pass") {
                        last_stone = Some(m.to_string());
                    }
                }
                String::new()
            }
            "genmove" => {
                n += 1;
                let normal = if gana {
                    let mut moves = Vec::new();
                    board.legal_moves(&mut moves);
                    match moves.first() {
                        Some(&m) => board.move_text(m),
                        None => "pass".into(),
                    }
                } else {
                    "pass".into()
                };
                let illegal = last_stone.clone().unwrap_or("Z99".into());
                let a = answer(fault, at, n, normal.clone(), illegal);
                if gana
                    && a == normal
                    && let Ok(mv) = board.parse_move(&a)
                {
                    let _ = board.play(mv);
                }
                if a.starts_with("ERROR") {
                    let _ = write!(out, "? out of cheese\n\n");
                    let _ = out.flush();
                    continue;
                }
                if a == "hello there" {
                    let _ = write!(out, "hello there\n\n");
                    let _ = out.flush();
                    continue;
                }
                a
            }
            _ => String::new(),
        };
        let _ = write!(out, "= {reply}\n\n");
        let _ = out.flush();
    }
}
