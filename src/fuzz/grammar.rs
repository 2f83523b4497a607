//! The fuzzer's line generators: for each protocol, random lines that are mostly
//! well-formed commands (so that the engine gets deep into its states) with wrong,
//! huge, negative, non-numeric, non-UTF-8, control-character and 5,000-character
//! arguments mixed in, commands in the wrong state, and interleaved analysis.
//!
//! A generator also knows which of its lines may make the next search slow (a huge
//! but valid time setting) and puts a reset line before the next search, so that a
//! million-line run stays fast; the clock's arithmetic with extreme values is tested
//! directly elsewhere.

use rand::RngExt;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

use crate::games::go::record::write as write_go_sgf;

/// One line to send (without its line end) and what the driver should know of it.
pub struct Line {
    pub bytes: Vec<u8>,
    /// After this line the engine exits (GTP `quit`, Gomocup `END`).
    pub ends_session: bool,
}

impl Line {
    fn text(s: impl Into<String>) -> Line {
        Line {
            bytes: s.into().into_bytes(),
            ends_session: false,
        }
    }
}

/// A protocol's generator: the lines of one burst, and what it learns from replies.
pub trait Grammar {
    /// Lines a new session starts with (fast settings).
    fn session_start(&mut self) -> Vec<Line>;
    /// The next burst of lines.
    fn burst(&mut self, rng: &mut SmallRng) -> Vec<Line>;
    /// A reply to one of the burst's lines (GTP-framed protocols), to steer later lines.
    fn observe(&mut self, _sent: &[u8], _reply: &str) {}
}

/// A number argument: usually sensible, often absurd.
fn number(rng: &mut SmallRng, sensible: std::ops::RangeInclusive<i64>) -> String {
    match rng.random_range(0..20) {
        0 => "-1".into(),
        1 => "0".into(),
        2 => i64::MAX.to_string(),
        3 => "18446744073709551616".into(),
        4 => "-9223372036854775809".into(),
        5 => "1.5".into(),
        6 => ["nan", "inf", "-inf", "1e400", "-0", "0x10", "+3", "٣"]
            .choose(rng)
            .unwrap()
            .to_string(),
        7 => String::new(),
        8 => garbage_word(rng),
        9 => "9".repeat(rng.random_range(20..5000)),
        _ => rng.random_range(sensible).to_string(),
    }
}

/// A word that is no valid argument of anything: control characters, replacement
/// characters, a byte order mark, quotes, very long runs.
fn garbage_word(rng: &mut SmallRng) -> String {
    match rng.random_range(0..8) {
        0 => "x".repeat(5000),
        1 => "\u{1}\u{7f}\u{1b}[2J".into(),
        2 => "\u{feff}".into(),
        3 => "\"',;:{}[]()".into(),
        4 => "é漢字🂡".into(),
        5 => "\t \u{b}\u{c}".into(),
        6 => (0..rng.random_range(1..30))
            .map(|_| rng.random_range(0x21u8..0x7f) as char)
            .collect(),
        _ => "#comment".into(),
    }
}

/// Raw bytes: non-UTF-8, NULs, carriage returns; never a line feed.
fn garbage_bytes(rng: &mut SmallRng) -> Vec<u8> {
    let n = match rng.random_range(0..10) {
        0 => rng.random_range(1000..6000),
        _ => rng.random_range(0..40),
    };
    (0..n)
        .map(|_| rng.random::<u8>())
        .map(|b| if b == b'\n' { b'\r' } else { b })
        .collect()
}

/// A whole line of nonsense.
fn garbage_line(rng: &mut SmallRng) -> Line {
    match rng.random_range(0..4) {
        0 => Line {
            bytes: garbage_bytes(rng),
            ends_session: false,
        },
        1 => Line::text(""),
        2 => Line::text(garbage_word(rng)),
        _ => {
            let mut words: Vec<String> = (0..rng.random_range(1..6))
                .map(|_| garbage_word(rng))
                .collect();
            words.shuffle_in(rng);
            Line::text(words.join(" "))
        }
    }
}

trait ShuffleIn {
    fn shuffle_in(&mut self, rng: &mut SmallRng);
}

impl<T> ShuffleIn for Vec<T> {
    fn shuffle_in(&mut self, rng: &mut SmallRng) {
        for i in (1..self.len()).rev() {
            let j = rng.random_range(0..=i);
            self.swap(i, j);
        }
    }
}

/// Mangles a well-formed line now and then: case, a missing or extra argument, a
/// garbage word in place of one, a stray control character, surrounding blanks.
fn mangle(rng: &mut SmallRng, line: String) -> Line {
    if rng.random_range(0..8) != 0 {
        return Line::text(line);
    }
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    match rng.random_range(0..7) {
        0 => return Line::text(line.to_uppercase()),
        1 => {
            words.pop();
        }
        2 => words.push(garbage_word(rng)),
        3 => {
            let i = rng.random_range(0..words.len());
            words[i] = garbage_word(rng);
        }
        4 => return Line::text(format!("  {line}\t\r")),
        5 => {
            let mut b = line.into_bytes();
            let at = rng.random_range(0..=b.len());
            b.insert(
                at,
                [0u8, 1, 0x1b, 0x7f, 0xff, b'\r'][rng.random_range(0..6)],
            );
            return Line {
                bytes: b,
                ends_session: false,
            };
        }
        _ => return Line::text(format!("{line}{}", garbage_word(rng))),
    }
    Line::text(words.join(" "))
}

// ----- GTP (Go) -----

/// Go over GTP: tiny boards mostly, every command of the engine's list.
pub struct GtpGrammar {
    size: usize,
    slow: bool,
    sgf_files: Vec<String>,
}

impl GtpGrammar {
    /// `sgf_files`: names (relative to the engine's working folder) loadsgf may read.
    pub fn new(sgf_files: Vec<String>) -> GtpGrammar {
        GtpGrammar {
            size: 19,
            slow: false,
            sgf_files,
        }
    }

    fn vertex(&self, rng: &mut SmallRng) -> String {
        let n = self.size.clamp(2, 25);
        match rng.random_range(0..12) {
            0 => "pass".into(),
            1 => number(rng, 0..=30),
            2 => "z99".into(),
            3 => "i5".into(),
            _ => {
                let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ".as_bytes();
                let x = rng.random_range(0..n);
                let y = rng.random_range(1..=n);
                let c = letters[x] as char;
                if rng.random_bool(0.5) {
                    format!("{c}{y}")
                } else {
                    format!("{}{y}", c.to_ascii_lowercase())
                }
            }
        }
    }

    fn color(rng: &mut SmallRng) -> String {
        [
            "b", "w", "black", "white", "B", "W", "BLACK", "purple", "", "1",
        ]
        .choose(rng)
        .unwrap()
        .to_string()
    }

    /// One command line.
    fn command(&mut self, rng: &mut SmallRng) -> Vec<Line> {
        let mut before = Vec::new();
        let c = Self::color;
        let pick = rng.random_range(0..100);
        let text = match pick {
            0..=4 => {
                // Tiny boards most of the time: games end, the board fills.
                let n = match rng.random_range(0..10) {
                    0..=3 => 2,
                    4..=6 => 3,
                    7 => 5,
                    8 => *[9usize, 13, 19, 25].choose(rng).unwrap(),
                    _ => {
                        let t = number(rng, 0..=30);
                        if let Ok(v) = t.parse::<usize>()
                            && (2..=25).contains(&v)
                        {
                            self.size = v;
                        }
                        return vec![Line::text(format!("boardsize {t}"))];
                    }
                };
                self.size = n;
                format!("boardsize {n}")
            }
            5..=7 => "clear_board".into(),
            8..=30 => format!("play {} {}", c(rng), self.vertex(rng)),
            31..=40 => {
                let cmd = ["genmove", "reg_genmove", "kgs-genmove_cleanup"]
                    .choose(rng)
                    .unwrap();
                format!("{cmd} {}", c(rng))
            }
            41..=46 => "undo".into(),
            47..=49 => format!("komi {}", number(rng, -10..=10)),
            50..=52 => format!(
                "{} {}",
                ["fixed_handicap", "place_free_handicap"]
                    .choose(rng)
                    .unwrap(),
                number(rng, 0..=10)
            ),
            53 => {
                let vs: Vec<String> = (0..rng.random_range(0..6))
                    .map(|_| self.vertex(rng))
                    .collect();
                format!("set_free_handicap {}", vs.join(" "))
            }
            54..=55 => "final_score".into(),
            56 => format!(
                "final_status_list {}",
                ["dead", "alive", "seki", "DEAD", "x", ""]
                    .choose(rng)
                    .unwrap()
            ),
            57..=60 => {
                self.slow = true;
                let small = |rng: &mut SmallRng| format!("{:.2}", rng.random_range(0.0..0.3));
                match rng.random_range(0..4) {
                    0 => format!(
                        "time_settings {} {} {}",
                        small(rng),
                        small(rng),
                        rng.random_range(0..4)
                    ),
                    1 => format!(
                        "time_settings {} {} {}",
                        number(rng, 0..=2),
                        number(rng, 0..=0),
                        number(rng, 0..=3)
                    ),
                    2 => format!("time_left {} {} {}", c(rng), small(rng), number(rng, 0..=3)),
                    _ => {
                        let kind = ["none", "absolute", "canadian", "byoyomi", "fischer", ""]
                            .choose(rng)
                            .unwrap();
                        format!(
                            "kgs-time_settings {kind} {} {} {}",
                            small(rng),
                            small(rng),
                            number(rng, 0..=3)
                        )
                    }
                }
            }
            61 => format!(
                "kgs-rules {}",
                [
                    "chinese",
                    "japanese",
                    "aga",
                    "new_zealand",
                    "tromp-taylor",
                    "x"
                ]
                .choose(rng)
                .unwrap()
            ),
            62 => format!(
                "tengen-rules {}",
                [
                    "chinese",
                    "japanese",
                    "aga",
                    "new-zealand",
                    "tromp-taylor",
                    "",
                    "19"
                ]
                .choose(rng)
                .unwrap()
            ),
            63..=64 => {
                let file = if self.sgf_files.is_empty() || rng.random_range(0..6) == 0 {
                    ["missing.sgf", "/", "", "/nonexistent/x.sgf", "/dev/zero"]
                        .choose(rng)
                        .unwrap()
                        .to_string()
                } else {
                    self.sgf_files.choose(rng).unwrap().clone()
                };
                let n = if rng.random_bool(0.5) {
                    number(rng, 0..=40)
                } else {
                    String::new()
                };
                format!("loadsgf {file} {n}")
            }
            65 => {
                let target = ["", "out.sgf", "/nonexistent/dir/x.sgf", "."]
                    .choose(rng)
                    .unwrap();
                format!("printsgf {target}")
            }
            66..=73 => {
                // Analysis: the next line (any line) stops it.
                let cmd = ["lz-analyze", "kata-analyze"].choose(rng).unwrap();
                let mut args = Vec::new();
                if rng.random_bool(0.5) {
                    args.push(c(rng));
                }
                if rng.random_bool(0.8) {
                    args.push(number(rng, 1..=5));
                }
                for _ in 0..rng.random_range(0..3) {
                    let key = [
                        "interval",
                        "ownership",
                        "minmoves",
                        "maxmoves",
                        "avoid",
                        "allow",
                        "x",
                    ]
                    .choose(rng)
                    .unwrap();
                    args.push(format!("{key} {}", number(rng, 0..=5)));
                }
                format!("{cmd} {}", args.join(" "))
            }
            74..=75 => format!(
                "{} {} {}",
                ["lz-genmove_analyze", "kata-genmove_analyze"]
                    .choose(rng)
                    .unwrap(),
                c(rng),
                number(rng, 1..=5)
            ),
            76 => format!("tengen-threads {}", number(rng, 1..=3)),
            77 => {
                self.slow = true;
                format!("tengen-playouts {}", number(rng, 0..=500))
            }
            78 => match rng.random_range(0..2) {
                0 => format!("tengen-resign {}", number(rng, 0..=1)),
                _ => format!("tengen-memory {}", number(rng, 10..=64)),
            },
            79 => format!(
                "tengen-ponder {}",
                ["on", "off", "x", ""].choose(rng).unwrap()
            ),
            80 if rng.random_range(0..40) == 0 => {
                // About a second each: rare.
                ["tengen-ownership", "tengen-best_moves"]
                    .choose(rng)
                    .unwrap()
                    .to_string()
            }
            81..=84 => "showboard".into(),
            85..=87 => [
                "protocol_version",
                "name",
                "version",
                "list_commands",
                "gogui-analyze_commands",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
            88 => format!(
                "known_command {}",
                ["play", "quit", "frobnicate", ""].choose(rng).unwrap()
            ),
            89..=94 => return vec![garbage_line(rng)],
            95 => format!("frobnicate {}", garbage_word(rng)),
            _ => {
                // An id before the command.
                let id = number(rng, 0..=1000);
                let mut rest = self.command(rng);
                let last = rest.pop().expect("a line");
                before.extend(rest);
                let mut b = format!("{id} ").into_bytes();
                b.extend(last.bytes);
                before.push(Line {
                    bytes: b,
                    ends_session: false,
                });
                return before;
            }
        };
        vec![mangle(rng, text)]
    }

    /// The command a GTP-framed line names, as the engine reads it.
    fn command_name(line: &[u8]) -> String {
        let t = crate::protocol::gtp::clean(&String::from_utf8_lossy(line));
        let mut words = t.split_whitespace();
        let first = words.next().unwrap_or("");
        match first.parse::<u64>() {
            Ok(_) => words.next().unwrap_or("").to_string(),
            Err(_) => first.to_string(),
        }
    }

    fn is_search(line: &[u8]) -> bool {
        let name = Self::command_name(line);
        let words = [name.as_str()];
        words.first().is_some_and(|n| {
            matches!(
                *n,
                "genmove"
                    | "reg_genmove"
                    | "kgs-genmove_cleanup"
                    | "lz-genmove_analyze"
                    | "kata-genmove_analyze"
                    | "final_score"
                    | "final_status_list"
            )
        })
    }
}

impl Grammar for GtpGrammar {
    fn session_start(&mut self) -> Vec<Line> {
        self.slow = false;
        self.size = 2;
        vec![Line::text("boardsize 2")]
    }

    fn burst(&mut self, rng: &mut SmallRng) -> Vec<Line> {
        let mut out = Vec::new();
        let n = rng.random_range(1..24);
        while out.len() < n {
            for l in self.command(rng) {
                if self.slow && Self::is_search(&l.bytes) {
                    // A huge but valid clock would make this search take an hour.
                    out.push(Line::text("time_settings 0 1 0"));
                    out.push(Line::text("tengen-playouts 300"));
                    self.slow = false;
                }
                out.push(l);
            }
        }
        end_burst(rng, &mut out);
        out
    }
}

/// The end of a GTP-framed burst: now and then `quit`, otherwise a plain command that
/// ends any analysis and shows the engine still answers; nothing after a quit.
fn end_burst(rng: &mut SmallRng, out: &mut Vec<Line>) {
    if rng.random_range(0..150) == 0 {
        out.push(Line {
            bytes: b"quit".to_vec(),
            ends_session: true,
        });
    } else {
        out.push(Line::text("protocol_version"));
    }
    cut_at_quit(out);
}

/// A mangled line can still be `quit` as the engine reads it (`\t\x0b quit`): the
/// session ends there, whatever the burst meant to send after it.
fn cut_at_quit(out: &mut Vec<Line>) {
    if let Some(i) = out
        .iter()
        .position(|l| GtpGrammar::command_name(&l.bytes) == "quit")
    {
        out.truncate(i + 1);
        out[i].ends_session = true;
    }
}

// ----- Gana -----

/// Gana over its GTP-style protocol: moves taken from the engine's own legal-move
/// lists and positions from its own position text, mangled now and then.
pub struct GanaGrammar {
    legal: Vec<String>,
    positions: Vec<String>,
    slow: bool,
}

impl Default for GanaGrammar {
    fn default() -> GanaGrammar {
        GanaGrammar {
            legal: Vec::new(),
            positions: vec![crate::games::gana::Board::start().to_text().expect("start")],
            slow: false,
        }
    }
}

impl GanaGrammar {
    fn random_move(&self, rng: &mut SmallRng) -> String {
        if !self.legal.is_empty() && rng.random_range(0..4) != 0 {
            return self.legal.choose(rng).unwrap().clone();
        }
        let sq = |rng: &mut SmallRng| {
            format!(
                "{}{}",
                (b'a' + rng.random_range(0..9u8)) as char,
                rng.random_range(0..10)
            )
        };
        match rng.random_range(0..5) {
            0 => format!("{}-{}", sq(rng), sq(rng)),
            1 => format!(
                "K{}{}",
                sq(rng),
                ["n", "e", "s", "w", "x"].choose(rng).unwrap()
            ),
            2 => garbage_word(rng),
            _ => format!(
                "{}{}{}",
                sq(rng),
                ["n", "e", "s", "w", "x"].choose(rng).unwrap(),
                ["", "1", "2", "4", "5", "0"].choose(rng).unwrap()
            ),
        }
    }

    /// A position: one the engine printed, or the start, mutated a little.
    fn position(&self, rng: &mut SmallRng) -> String {
        let base = self.positions.choose(rng).unwrap().clone();
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..rng.random_range(0..4) {
            if chars.is_empty() {
                break;
            }
            let i = rng.random_range(0..chars.len());
            match rng.random_range(0..4) {
                0 => {
                    chars.remove(i);
                }
                1 => chars.insert(
                    i,
                    *['w', 'b', 'W', 'B', '.', ',', '/', ' ', '9']
                        .choose(rng)
                        .unwrap(),
                ),
                2 => {
                    chars[i] = *['w', 'b', 'W', 'B', '.', ',', '/', ' ', '-']
                        .choose(rng)
                        .unwrap()
                }
                _ => chars.truncate(i),
            }
        }
        chars.into_iter().collect()
    }

    fn command(&mut self, rng: &mut SmallRng) -> Line {
        let c = GtpGrammar::color;
        let text = match rng.random_range(0..100) {
            0..=29 => format!("play {} {}", c(rng), self.random_move(rng)),
            30..=39 => format!(
                "{} {}",
                ["genmove", "reg_genmove"].choose(rng).unwrap(),
                c(rng)
            ),
            40..=47 => "gana-legal_moves".into(),
            48..=53 => "gana-getpos".into(),
            54..=59 => format!("gana-setpos {}", self.position(rng)),
            60..=67 => "undo".into(),
            68..=70 => "clear_board".into(),
            71..=73 => "showboard".into(),
            74..=75 => "final_score".into(),
            76..=79 => {
                self.slow = true;
                let small = |rng: &mut SmallRng| format!("{:.2}", rng.random_range(0.0..0.3));
                if rng.random_bool(0.5) {
                    format!(
                        "time_settings {} {} {}",
                        small(rng),
                        small(rng),
                        number(rng, 0..=3)
                    )
                } else {
                    format!("time_left {} {} {}", c(rng), small(rng), number(rng, 0..=3))
                }
            }
            80..=84 => ["protocol_version", "name", "version", "list_commands"]
                .choose(rng)
                .unwrap()
                .to_string(),
            85 => match rng.random_range(0..2) {
                0 => format!(
                    "known_command {}",
                    ["play", "gana-setpos", "x"].choose(rng).unwrap()
                ),
                _ => format!("tengen-memory {}", number(rng, 10..=64)),
            },
            86..=93 => return garbage_line(rng),
            _ => format!("{} {}", number(rng, 0..=100), "name"),
        };
        mangle(rng, text)
    }
}

impl Grammar for GanaGrammar {
    fn session_start(&mut self) -> Vec<Line> {
        self.slow = false;
        self.legal.clear();
        Vec::new()
    }

    fn burst(&mut self, rng: &mut SmallRng) -> Vec<Line> {
        let mut out = Vec::new();
        for _ in 0..rng.random_range(1..24) {
            let l = self.command(rng);
            let name = GtpGrammar::command_name(&l.bytes);
            if self.slow && (name == "genmove" || name == "reg_genmove") {
                out.push(Line::text("time_settings 0 1 0"));
                self.slow = false;
            }
            out.push(l);
        }
        end_burst(rng, &mut out);
        out
    }

    fn observe(&mut self, sent: &[u8], reply: &str) {
        let Some(body) = reply.strip_prefix('=') else {
            return;
        };
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit()).trim();
        let sent = String::from_utf8_lossy(sent);
        if sent.trim() == "gana-legal_moves" {
            self.legal = body.split_whitespace().map(str::to_string).collect();
        } else if sent.trim() == "gana-getpos" && !body.is_empty() {
            if self.positions.len() > 64 {
                self.positions.swap_remove(1);
            }
            self.positions.push(body.to_string());
        } else if sent.starts_with("play")
            || sent.starts_with("genmove")
            || sent.starts_with("undo")
        {
            self.legal.clear();
        }
    }
}

// ----- Gomocup -----

/// The Gomocup brain protocol with Yixin's extensions: small and rectangular boards,
/// stones near the centre, boards without DONE, commands before START.
pub struct GomocupGrammar {
    w: i64,
    h: i64,
    /// Inside BOARD/YXBOARD/SWAP2BOARD until DONE: every line is a board line.
    in_block: bool,
    slow: bool,
}

impl Default for GomocupGrammar {
    fn default() -> GomocupGrammar {
        GomocupGrammar {
            w: 15,
            h: 15,
            in_block: false,
            slow: false,
        }
    }
}

/// The fast clock a session starts with and every reset restores.
const GOMOCUP_FAST: [&str; 4] = [
    "INFO timeout_turn 40",
    "INFO timeout_match 0",
    "INFO time_left 100000",
    "INFO hash_size 4096",
];

impl GomocupGrammar {
    fn point(&self, rng: &mut SmallRng) -> String {
        match rng.random_range(0..12) {
            0 => format!("{},{}", number(rng, -2..=40), number(rng, -2..=40)),
            1 => format!("{},{}", self.w, 0),
            2 => ["", ",", "1", "1,2,3", "a,b", " 3 , 4 "]
                .choose(rng)
                .unwrap()
                .to_string(),
            _ => {
                // Near the centre, where games happen.
                let (cx, cy) = (self.w / 2, self.h / 2);
                let x = (cx + rng.random_range(-3..=3)).clamp(0, self.w - 1);
                let y = (cy + rng.random_range(-3..=3)).clamp(0, self.h - 1);
                format!("{x},{y}")
            }
        }
    }

    fn board_lines(&self, rng: &mut SmallRng, fields: bool) -> Vec<String> {
        let n = match rng.random_range(0..6) {
            0 => 0,
            1 => rng.random_range(0..(self.w * self.h) as usize + 2),
            _ => rng.random_range(1..12),
        };
        (0..n)
            .map(|i| {
                let p = self.point(rng);
                if !fields {
                    return p;
                }
                let f = match rng.random_range(0..12) {
                    0 => number(rng, 0..=4),
                    1 => "3".into(),
                    _ => (1 + i % 2).to_string(),
                };
                format!("{p},{f}")
            })
            .collect()
    }

    fn command(&mut self, rng: &mut SmallRng) -> Vec<Line> {
        let text = match rng.random_range(0..100) {
            0..=5 => {
                let n = match rng.random_range(0..8) {
                    0 => 5,
                    1 => 6,
                    2 => 20,
                    3 => 32,
                    4 => {
                        let t = number(rng, 0..=40);
                        if let Ok(v) = t.parse::<i64>()
                            && (5..=32).contains(&v)
                        {
                            (self.w, self.h) = (v, v);
                        }
                        return vec![Line::text(format!("START {t}"))];
                    }
                    _ => 15,
                };
                (self.w, self.h) = (n, n);
                format!("START {n}")
            }
            6..=9 => {
                let (w, h) = *[(32, 5), (5, 32), (7, 5), (20, 15), (33, 5), (5, 4)]
                    .choose(rng)
                    .unwrap();
                if (5..=32).contains(&w) && (5..=32).contains(&h) {
                    (self.w, self.h) = (w, h);
                }
                format!("RECTSTART {w},{h}")
            }
            10..=11 => "RESTART".into(),
            12..=14 => "BEGIN".into(),
            15..=39 => format!("TURN {}", self.point(rng)),
            40..=45 => {
                let cmd = ["BOARD", "YXBOARD"].choose(rng).unwrap();
                let mut lines = vec![Line::text(*cmd)];
                lines.extend(self.board_lines(rng, true).into_iter().map(Line::text));
                // Now and then no DONE: the lines that follow are board lines until one
                // comes (the burst closes the block at its end).
                if rng.random_range(0..6) != 0 {
                    lines.push(Line::text("DONE"));
                }
                return lines;
            }
            46 => {
                let mut lines = vec![Line::text("SWAP2BOARD")];
                let stones = *[0usize, 3, 5, 1, 4].choose(rng).unwrap();
                let mut pts = self.board_lines(rng, false);
                pts.resize_with(stones, || "7,7".into());
                lines.extend(pts.into_iter().map(Line::text));
                lines.push(Line::text("DONE"));
                return lines;
            }
            47..=52 => format!("TAKEBACK {}", self.point(rng)),
            53..=56 => format!("PLAY {}", self.point(rng)),
            57..=70 => {
                let key = [
                    "timeout_turn",
                    "timeout_match",
                    "time_left",
                    "max_memory",
                    "game_type",
                    "rule",
                    "variant",
                    "thread_num",
                    "hash_size",
                    "max_depth",
                    "max_node",
                    "show_detail",
                    "folder",
                    "evaluate",
                    "",
                ]
                .choose(rng)
                .unwrap();
                let value = match *key {
                    "rule" => number(rng, 0..=10),
                    "variant" => [
                        "freestyle",
                        "renju",
                        "pente",
                        "keryo-pente",
                        "ni-nuki",
                        "go-bang",
                        "ni-nuki-count",
                        "caro",
                        "anti-renju",
                        "gomoku-pro",
                        "x",
                    ]
                    .choose(rng)
                    .unwrap()
                    .to_string(),
                    "thread_num" => number(rng, 1..=4),
                    "hash_size" => {
                        // A huge table is granted (up to half the memory) and every
                        // search then faults in fresh pages: reset like the clock.
                        self.slow = true;
                        number(rng, 0..=4096)
                    }
                    "max_memory" => number(rng, 0..=100_000_000),
                    "max_node" => number(rng, 0..=100_000),
                    "max_depth" => number(rng, 0..=12),
                    "timeout_turn" | "timeout_match" | "time_left" => {
                        self.slow = true;
                        number(rng, 0..=200)
                    }
                    _ => number(rng, 0..=3),
                };
                format!("INFO {key} {value}")
            }
            71..=73 => "ABOUT".into(),
            74..=75 => "YXSHOWFORBID".into(),
            76..=77 => format!("YXNBEST {}", number(rng, 1..=3)),
            78..=79 => ["YXSTOP", "STOP"].choose(rng).unwrap().to_string(),
            80 => "YXHASHCLEAR".into(),
            81 => "YXSHOWINFO".into(),
            82..=83 => format!(
                "{} {}",
                ["YXBALANCEONE", "YXBALANCETWO"].choose(rng).unwrap(),
                number(rng, -200..=200)
            ),
            84 => "DONE".into(),
            85..=94 => return vec![garbage_line(rng)],
            _ => format!("{} {}", garbage_word(rng), self.point(rng)),
        };
        vec![mangle(rng, text)]
    }

    fn is_search(word: &str) -> bool {
        matches!(
            word,
            "BEGIN" | "TURN" | "BOARD" | "SWAP2BOARD" | "YXNBEST" | "YXBALANCEONE" | "YXBALANCETWO"
        )
    }
}

impl Grammar for GomocupGrammar {
    fn session_start(&mut self) -> Vec<Line> {
        *self = GomocupGrammar::default();
        GOMOCUP_FAST.iter().map(|l| Line::text(*l)).collect()
    }

    fn burst(&mut self, rng: &mut SmallRng) -> Vec<Line> {
        let mut out = Vec::new();
        for _ in 0..rng.random_range(1..16) {
            for l in self.command(rng) {
                let t = String::from_utf8_lossy(&l.bytes);
                let word = t
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                // Read as the brain reads it: inside a block every line is a board line
                // up to DONE (so a reset can only come before the block).
                if self.in_block {
                    self.in_block = !t.trim().eq_ignore_ascii_case("DONE");
                } else {
                    if self.slow && Self::is_search(&word) {
                        out.extend(GOMOCUP_FAST.iter().map(|l| Line::text(*l)));
                        self.slow = false;
                    }
                    if word == "END" {
                        // A mangled line the brain reads as END: the session ends here.
                        out.push(Line {
                            bytes: l.bytes,
                            ends_session: true,
                        });
                        return out;
                    }
                    self.in_block = ["BOARD", "YXBOARD", "SWAP2BOARD"].contains(&word.as_str());
                }
                out.push(l);
            }
        }
        if self.in_block {
            out.push(Line::text("DONE"));
            self.in_block = false;
        }
        if rng.random_range(0..150) == 0 {
            out.push(Line {
                bytes: b"END".to_vec(),
                ends_session: true,
            });
        }
        out
    }
}

/// A few Go records for loadsgf: whole games, mutated copies, and junk.
pub fn sgf_samples(rng: &mut SmallRng) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut game =
        crate::games::go::Game::new(9, crate::games::go::Rules::default()).expect("9x9 is a board");
    for (x, y) in [(2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (3, 3)] {
        let v = crate::games::go::Board::vertex_of(x, y);
        let c = game.to_move();
        let _ = game.play(c, v);
    }
    let good = write_go_sgf(&game).into_bytes();
    files.push(("good.sgf".to_string(), good.clone()));
    for i in 0..6 {
        let mut b = good.clone();
        for _ in 0..rng.random_range(1..6) {
            if b.is_empty() {
                break;
            }
            let at = rng.random_range(0..b.len());
            match rng.random_range(0..3) {
                0 => b[at] = rng.random(),
                1 => {
                    b.remove(at);
                }
                _ => b.truncate(at),
            }
        }
        files.push((format!("mutant{i}.sgf"), b));
    }
    files.push((
        "huge-size.sgf".into(),
        b"(;GM[1]SZ[999999999999];B[aa])".to_vec(),
    ));
    files.push(("gomoku.sgf".into(), b"(;GM[4]SZ[15];B[hh];W[ii])".to_vec()));
    files.push(("empty.sgf".into(), Vec::new()));
    files.push(("bytes.sgf".into(), garbage_bytes(rng)));
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_lines_never_hold_a_line_feed_and_sessions_end_sometimes() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut grammars: Vec<Box<dyn Grammar>> = vec![
            Box::new(GtpGrammar::new(vec!["good.sgf".into()])),
            Box::new(GanaGrammar::default()),
            Box::new(GomocupGrammar::default()),
        ];
        for g in &mut grammars {
            let mut ends = 0;
            for _ in 0..2000 {
                for l in g.burst(&mut rng) {
                    assert!(!l.bytes.contains(&b'\n'));
                    ends += l.ends_session as u32;
                }
            }
            assert!(ends > 0);
        }
    }

    #[test]
    fn a_huge_clock_is_reset_before_the_next_search() {
        let mut rng = SmallRng::seed_from_u64(9);
        let mut g = GomocupGrammar::default();
        let (mut slow, mut in_block) = (false, false);
        for _ in 0..3000 {
            for l in g.burst(&mut rng) {
                let t = String::from_utf8_lossy(&l.bytes).to_string();
                let word = t
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                if GOMOCUP_FAST.contains(&t.as_str()) {
                    slow = slow && t != *GOMOCUP_FAST.last().unwrap();
                } else if ["INFO timeout", "INFO time_left", "INFO hash_size"]
                    .iter()
                    .any(|p| t.starts_with(p))
                {
                    slow = true;
                }
                if in_block {
                    in_block = !t.trim().eq_ignore_ascii_case("DONE");
                    continue;
                }
                if GomocupGrammar::is_search(&word) {
                    assert!(!slow, "{t}");
                }
                in_block = ["BOARD", "YXBOARD", "SWAP2BOARD"].contains(&word.as_str());
            }
        }
    }
}

// ----- The JSON analysis engine -----

/// `tengen analysis` queries: mostly well-formed JSON objects of the three games with
/// tiny budgets, with wrong types, unknown fields and values, absurd numbers, illegal
/// moves, malformed JSON and raw bytes mixed in. Every query carries a time limit of a
/// few milliseconds, or an invalid one that gets it refused, so no line can start a
/// long search.
#[derive(Default)]
pub struct AnalysisGrammar {
    /// Ids handed out this run, so that every query's id is new.
    next_id: u64,
}

impl AnalysisGrammar {
    fn id(&mut self, rng: &mut SmallRng) -> serde_json::Value {
        use serde_json::Value;
        self.next_id += 1;
        let n = self.next_id;
        match rng.random_range(0..12) {
            0 => Value::from(n),
            1 => Value::String(format!("{}-{n}", garbage_word(rng))),
            2 => Value::Null,
            3 => serde_json::json!([n]),
            _ => Value::String(format!("q{n}")),
        }
    }

    /// A move list: mostly a legal game (distinct points near the centre; Gana's moves
    /// played out on a board), now and then a wrong entry or type.
    fn moves(rng: &mut SmallRng, game: &str) -> serde_json::Value {
        use serde_json::{Value, json};
        let n = rng.random_range(0..12);
        let mut list: Vec<Value> = Vec::new();
        match game {
            "gana" => {
                let mut b = crate::games::gana::Board::start();
                let mut legal = Vec::new();
                for _ in 0..n {
                    legal.clear();
                    b.legal_moves(&mut legal);
                    let Some(&m) = legal.choose(rng) else { break };
                    list.push(Value::String(b.move_text(m)));
                    if b.play(m).is_err() {
                        break;
                    }
                }
            }
            _ => {
                let mut used = std::collections::HashSet::new();
                while list.len() < n {
                    let (x, y) = (rng.random_range(4..11u8), rng.random_range(4..11u8));
                    if used.insert((x, y)) {
                        let name = if game == "go" {
                            format!("{}{}", (b'A' + x + (x >= 8) as u8) as char, y + 1)
                        } else {
                            crate::core::error::Point::new(x, y).to_string()
                        };
                        list.push(Value::String(name));
                    }
                }
            }
        }
        if !list.is_empty() && rng.random_range(0..6) == 0 {
            let i = rng.random_range(0..list.len());
            list[i] = match rng.random_range(0..6) {
                0 => Value::String(garbage_word(rng)),
                1 => Value::from(7),
                2 => Value::Null,
                3 => json!(["X", "h8"]),
                4 => list[0].clone(),
                _ => Value::String("pass".into()),
            };
        }
        if rng.random_range(0..8) == 0 {
            // KataGo's form, colours alternating from black (white first in Gana).
            let first = if game == "gana" { "W" } else { "B" };
            let second = if game == "gana" { "B" } else { "W" };
            list = list
                .into_iter()
                .enumerate()
                .map(|(i, m)| json!([if i % 2 == 0 { first } else { second }, m]))
                .collect();
        }
        match rng.random_range(0..40) {
            0 => Value::String("h8 i9".into()),
            1 => json!({"h8": 1}),
            _ => Value::Array(list),
        }
    }

    /// A query object: the game, its position, a tiny budget, now and then a bad field.
    fn query(&mut self, rng: &mut SmallRng) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::{Value, json};
        let mut q = serde_json::Map::new();
        let game = *["gomoku", "gomoku", "go", "gana"].choose(rng).unwrap();
        if rng.random_range(0..4) != 0 || game != "gomoku" {
            q.insert("game".into(), json!(game));
        }
        let id = self.id(rng);
        if rng.random_range(0..40) != 0 {
            q.insert("id".into(), id);
        }
        match rng.random_range(0..10) {
            0 => {
                let v = ["renju", "caro", "pente", "ni-nuki-count", "chess", ""]
                    .choose(rng)
                    .unwrap();
                q.insert("variant".into(), json!(v));
            }
            1 => {
                q.insert(
                    "rules".into(),
                    json!(["japanese", "tromp-taylor", "x"].choose(rng).unwrap()),
                );
            }
            2 => {
                let s = match rng.random_range(0..6) {
                    0 => json!(-1),
                    1 => json!(0),
                    2 => json!(1_000_000),
                    3 => json!("15"),
                    4 => json!(3),
                    _ => json!(rng.random_range(5..26)),
                };
                q.insert("size".into(), s);
            }
            3 => {
                q.insert("boardXSize".into(), json!(rng.random_range(4..21)));
                q.insert("boardYSize".into(), json!(rng.random_range(4..21)));
            }
            4 => {
                q.insert(
                    "komi".into(),
                    json!([7.5, 0.25, -1000.5, 1e9][rng.random_range(0..4)]),
                );
            }
            5 => {
                q.insert(
                    "initialStones".into(),
                    json!([["B", "h8"], ["W", "D4"], ["Q", "a1"]][..rng.random_range(0..4)]),
                );
            }
            6 => {
                q.insert("initialPosition".into(), json!(garbage_word(rng)));
            }
            _ => {}
        }
        let moves = Self::moves(rng, game);
        let n = moves.as_array().map_or(0, |m| m.len());
        q.insert("moves".into(), moves);
        match rng.random_range(0..6) {
            0 => {
                let turns: Vec<Value> = (0..rng.random_range(1..4))
                    .map(|_| json!(rng.random_range(0..=n + 1)))
                    .collect();
                q.insert("analyzeTurns".into(), Value::Array(turns));
            }
            1 => {
                q.insert(
                    "analyzeTurns".into(),
                    [json!([]), json!("all"), json!([-1])][rng.random_range(0..3)].clone(),
                );
            }
            _ => {}
        }
        // Always a time limit: a few milliseconds, or one the engine must refuse.
        let time = match rng.random_range(0..20) {
            0 => json!(0),
            1 => json!(-1),
            2 => json!(3601),
            3 => json!("soon"),
            4 => Value::Null,
            _ => json!(rng.random_range(1..20) as f64 / 1000.0),
        };
        q.insert("maxTime".into(), time);
        match rng.random_range(0..8) {
            0 => {
                q.insert(
                    "maxNodes".into(),
                    json!([0u64, 500, 10_000_000_000_000][rng.random_range(0..3)]),
                );
            }
            1 => {
                q.insert(
                    "maxVisits".into(),
                    json!([0i64, 50, -3][rng.random_range(0..3)]),
                );
            }
            2 => {
                q.insert(
                    "maxDepth".into(),
                    json!([0, 3, 101][rng.random_range(0..3)]),
                );
            }
            3 => {
                q.insert(
                    "multiPV".into(),
                    json!([0, 2, 101, -1][rng.random_range(0..4)]),
                );
            }
            4 => {
                q.insert(
                    "reportDuringSearchEvery".into(),
                    json!([0.001, 0.0, 1e9][rng.random_range(0..3)]),
                );
            }
            5 => {
                q.insert(
                    "includeOwnership".into(),
                    [json!(true), json!(false), json!(1)][rng.random_range(0..3)].clone(),
                );
            }
            6 => {
                q.insert(garbage_word(rng), json!(1));
            }
            _ => {}
        }
        q
    }
}

impl AnalysisGrammar {
    /// A query with only valid fields: a game, its moves, a few turns, a tiny budget.
    fn clean_query(&mut self, rng: &mut SmallRng) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut q = serde_json::Map::new();
        let game = *["gomoku", "go", "gana"].choose(rng).unwrap();
        self.next_id += 1;
        q.insert("id".into(), json!(format!("c{}", self.next_id)));
        q.insert("game".into(), json!(game));
        let moves = Self::moves(rng, game);
        let n = moves.as_array().map_or(0, |m| m.len());
        q.insert("moves".into(), moves);
        if rng.random_range(0..3) == 0 {
            let turns: Vec<usize> = (0..rng.random_range(1..4))
                .map(|_| rng.random_range(0..=n))
                .collect();
            q.insert("analyzeTurns".into(), json!(turns));
        }
        q.insert(
            "maxTime".into(),
            json!(rng.random_range(1..20) as f64 / 1000.0),
        );
        if rng.random_range(0..4) == 0 {
            q.insert("multiPV".into(), json!(rng.random_range(1..4)));
        }
        if rng.random_range(0..5) == 0 {
            q.insert("reportDuringSearchEvery".into(), json!(0.002));
        }
        if game == "go" && rng.random_range(0..4) == 0 {
            q.insert("includeOwnership".into(), json!(true));
        }
        q
    }
}

impl Grammar for AnalysisGrammar {
    fn session_start(&mut self) -> Vec<Line> {
        Vec::new()
    }

    fn burst(&mut self, rng: &mut SmallRng) -> Vec<Line> {
        let mut out = Vec::new();
        for _ in 0..rng.random_range(1..8) {
            let line = match rng.random_range(0..20) {
                0 => garbage_line(rng),
                1 => Line::text(r#"{"id":"x","moves":["h8""#),
                2 => Line::text(["[1,2]", "\"q\"", "5", "null", "{}"][rng.random_range(0..5)]),
                3 => {
                    let id = self.id(rng);
                    let action = ["query_version", "terminate", "explode"][rng.random_range(0..3)];
                    // Only queries that no longer run are terminated: what a running one
                    // answers after a stop is the engine tests' to check.
                    Line::text(
                        serde_json::json!({"id": id, "action": action, "terminateId": "gone"})
                            .to_string(),
                    )
                }
                // Half the queries are clean, so that many reach a search.
                9..=14 => Line::text(serde_json::Value::Object(self.clean_query(rng)).to_string()),
                _ => Line::text(serde_json::Value::Object(self.query(rng)).to_string()),
            };
            out.push(line);
        }
        // Now and then the input ends: the engine finishes and exits.
        if rng.random_range(0..60) == 0 {
            out.push(Line {
                bytes: Vec::new(),
                ends_session: true,
            });
        }
        out
    }
}
