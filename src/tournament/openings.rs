//! Opening books: c-gomoku-cli's `offset` and `pos` lines and Piskvork's openings.txt
//! for five-in-a-row, SGF files (or a folder of them) for Go, position text for Gana;
//! without a book, random balanced openings drawn from the seed. Every opening is
//! checked under the tournament's rules before a game starts.

use std::path::Path;

use super::GameKind;
use super::engine::Spec;
use super::referee::{FiarTable, GanaTable, GoTable, Table};
use crate::core::error::Point;
use crate::core::zobrist::splitmix64;
use crate::games::fiar::{Board, Move, Outcome};
use crate::games::go::{self, Game as GoGame, vertex_name};

/// One opening: the moves to play from the start (in the protocol's move text) and,
/// for Gana, the start position.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub moves: Vec<String>,
    /// Gana position text to start from, when not the usual start.
    pub position: Option<String>,
    /// Where it comes from (`book.txt:12`, `random 3`), for the results file.
    pub label: String,
}

/// The format of a five-in-a-row book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// Offsets from the centre: `8,-3, 6,-4, 5,-4` (Gomocup, c-gomoku-cli's default,
    /// Piskvork's openings.txt); any blanks or commas between numbers.
    Offset,
    /// Letters and numbers from the upper-left corner: `b7d6e6f7`.
    Pos,
}

impl Opening {
    /// The game's table with this opening's start position (not its moves).
    pub fn table(&self, kind: &GameKind, judge: Option<Spec>) -> Result<Box<dyn Table>, String> {
        Ok(match *kind {
            GameKind::Fiar {
                variant,
                width,
                height,
            } => Box::new(FiarTable {
                board: Board::with_size(variant, width, height).map_err(|e| e.to_string())?,
            }),
            GameKind::Go {
                size,
                komi,
                rules,
                handicap,
            } => {
                let mut game = GoGame::new(size, rules).map_err(|e| e.to_string())?;
                game.set_komi(komi);
                if handicap > 0 {
                    let stones = go::fixed_handicap(size, handicap).map_err(|e| e.to_string())?;
                    game.set_handicap(&stones).map_err(|e| e.to_string())?;
                }
                Box::new(GoTable { game, judge })
            }
            GameKind::Gana => {
                use crate::games::gana::Board as G;
                let start = match &self.position {
                    Some(t) => G::from_text(t)?,
                    None => G::start(),
                };
                Box::new(GanaTable {
                    board: start.clone(),
                    start,
                    moves: Vec::new(),
                })
            }
        })
    }

    /// Plays the opening on its table: `Err` says why it is not a legal opening.
    pub fn check(&self, kind: &GameKind) -> Result<(), String> {
        let mut t = self.table(kind, None)?;
        for m in &self.moves {
            t.play_opening(m).map_err(|e| format!("move {m}: {e}"))?;
            if t.ending().is_some() {
                return Err(format!("the game is over after {m}"));
            }
        }
        Ok(())
    }

    /// The opening seen in board symmetry `s` (0..8: identity, three rotations, four
    /// reflections), five-in-a-row only; a rectangle keeps its shape, so only the
    /// symmetries that do (0, 2, 4, 5) move its stones.
    pub fn transformed(&self, kind: &GameKind, s: usize) -> Opening {
        let GameKind::Fiar { width, height, .. } = *kind else {
            return self.clone();
        };
        let s = if width == height {
            s % 8
        } else {
            [0, 2, 4, 5][s % 4]
        };
        let (w, h) = (width as i64 - 1, height as i64 - 1);
        let moves = self
            .moves
            .iter()
            .map(|m| {
                let Some((x, y)) = m
                    .split_once(',')
                    .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
                else {
                    return m.clone();
                };
                let (x, y) = match s {
                    0 => (x, y),
                    1 => (w - y, x),
                    2 => (w - x, h - y),
                    3 => (y, h - x),
                    4 => (w - x, y),
                    5 => (x, h - y),
                    6 => (y, x),
                    _ => (w - y, h - x),
                };
                format!("{x},{y}")
            })
            .collect();
        Opening {
            moves,
            position: self.position.clone(),
            label: if s == 0 {
                self.label.clone()
            } else {
                format!("{} sym{s}", self.label)
            },
        }
    }
}

/// Reads a five-in-a-row book: one opening a line; blank lines and `#` comments are
/// skipped. `format` `None`: `pos` if the first opening has a letter, else `offset`.
pub fn read_fiar_book(
    text: &str,
    name: &str,
    kind: &GameKind,
    format: Option<BookFormat>,
) -> Result<Vec<Opening>, String> {
    let GameKind::Fiar { width, height, .. } = *kind else {
        return Err("a five-in-a-row book for another game".into());
    };
    let mut out = Vec::new();
    let mut format = format;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim().trim_start_matches('\u{feff}');
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let where_ = format!("{name}:{}", i + 1);
        let f = *format.get_or_insert(if l.chars().any(|c| c.is_ascii_alphabetic()) {
            BookFormat::Pos
        } else {
            BookFormat::Offset
        });
        let points = match f {
            BookFormat::Offset => offset_line(l, width, height),
            BookFormat::Pos => pos_line(l),
        }
        .map_err(|e| format!("{where_}: {e}"))?;
        let opening = Opening {
            moves: points.iter().map(|&(x, y)| format!("{x},{y}")).collect(),
            position: None,
            label: where_.clone(),
        };
        opening.check(kind).map_err(|e| format!("{where_}: {e}"))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("{name}: no opening in it"));
    }
    Ok(out)
}

fn offset_line(l: &str, width: usize, height: usize) -> Result<Vec<(i64, i64)>, String> {
    let nums: Vec<i64> = l
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<i64>()
                .map_err(|_| format!("'{w}' is not a number"))
        })
        .collect::<Result<_, _>>()?;
    if !nums.len().is_multiple_of(2) {
        return Err(format!("{} numbers: offsets come in x,y pairs", nums.len()));
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    Ok(nums.chunks(2).map(|p| (p[0] + cx, p[1] + cy)).collect())
}

fn pos_line(l: &str) -> Result<Vec<(i64, i64)>, String> {
    let mut out = Vec::new();
    let mut chars = l.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_alphabetic() {
            return Err(format!("'{c}' where a column letter was expected"));
        }
        let x = (c.to_ascii_lowercase() as u8 - b'a') as i64;
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let y: i64 = digits
            .parse()
            .map_err(|_| format!("column '{c}' has no row number"))?;
        if y < 1 {
            return Err(format!("row {y}: rows start at 1"));
        }
        out.push((x, y - 1));
    }
    Ok(out)
}

/// Reads Go openings from an SGF file or every `.sgf` file of a folder (sorted by
/// name): each game's main line, which must suit the tournament's board.
pub fn read_go_book(path: &Path, kind: &GameKind) -> Result<Vec<Opening>, String> {
    let GameKind::Go { size, handicap, .. } = *kind else {
        return Err("an SGF book for another game".into());
    };
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        let mut v: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = crate::core::files::read_record(&f).map_err(|e| format!("{name}: {e}"))?;
        let game = go::record::load(&text, None, go::Rules::CHINESE)
            .map_err(|e| format!("{name}: {e}"))?;
        if game.size() != size {
            return Err(format!(
                "{name}: a {0}x{0} game for a {size}x{size} tournament",
                game.size()
            ));
        }
        if !game.setup().is_empty() && handicap == 0 {
            return Err(format!(
                "{name}: set-up stones (AB/AW) are not an opening; give --handicap instead"
            ));
        }
        let opening = Opening {
            moves: game
                .moves()
                .iter()
                .map(|&(_, v)| vertex_name(size, v))
                .collect(),
            position: None,
            label: name.clone(),
        };
        opening.check(kind).map_err(|e| format!("{name}: {e}"))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("{}: no SGF file", path.display()));
    }
    Ok(out)
}

/// Reads Gana openings: one position text a line (`#` comments and blank lines
/// skipped).
pub fn read_gana_book(text: &str, name: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let where_ = format!("{name}:{}", i + 1);
        let b = crate::games::gana::Board::from_text(l).map_err(|e| format!("{where_}: {e}"))?;
        if b.outcome() != crate::games::gana::Outcome::Ongoing {
            return Err(format!("{where_}: the game is over in this position"));
        }
        out.push(Opening {
            moves: Vec::new(),
            position: Some(l.to_string()),
            label: where_,
        });
    }
    if out.is_empty() {
        return Err(format!("{name}: no position in it"));
    }
    Ok(out)
}

/// `count` random openings of `stones` stones near the centre, each one that a short
/// search finds close to even for the side to move (within `BALANCE` centi-stones),
/// drawn from `seed`: the default book for five-in-a-row.
pub fn random_fiar(kind: &GameKind, stones: usize, count: usize, seed: u64) -> Vec<Opening> {
    let GameKind::Fiar {
        variant,
        width,
        height,
    } = *kind
    else {
        return vec![empty()];
    };
    let mut engine = match crate::engine::FiarEngine::new(variant, width, height) {
        Ok(e) => e,
        Err(_) => return vec![empty()],
    };
    engine.set_threads(1);
    engine.set_hash_bytes(4 << 20);
    let mut state = seed;
    let mut next = |m: u64| {
        let (s, v) = splitmix64(state);
        state = s;
        v % m
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        let Ok(mut b) = Board::with_size(variant, width, height) else {
            return vec![empty()];
        };
        let c = b.centre();
        let mut pts: Vec<Point> = Vec::new();
        let radius = 3.min(width.min(height) as i64 / 2);
        for _ in 0..stones * 4 {
            if pts.len() == stones {
                break;
            }
            let x = c.x as i64 + next((2 * radius + 1) as u64) as i64 - radius;
            let y = c.y as i64 + next((2 * radius + 1) as u64) as i64 - radius;
            if let Ok(p) = b.point(x, y)
                && b.play_any_opening(Move::Place(p)).is_ok()
            {
                pts.push(p);
            }
        }
        if pts.len() != stones || b.outcome() != Outcome::Ongoing {
            continue;
        }
        // Give up on balance after many tries (tiny boards, odd variants): any legal
        // opening then does, the colour swap still evens it out.
        let balanced = tries > 50 * count || {
            let limits = crate::search::Limits {
                depth: Some(4),
                ..Default::default()
            };
            matches!(
                engine.think_on(&b, &limits, &stop).map(|r| r.score),
                Some(crate::search::Score::Value(v)) if v.abs() <= BALANCE
            )
        };
        if balanced {
            out.push(Opening {
                moves: pts.iter().map(|&p| FiarTable::point_text(p)).collect(),
                position: None,
                label: format!("random {}", out.len() + 1),
            });
        }
    }
    out
}

/// How far from even (centi-stones, side to move) a random opening may be.
pub const BALANCE: i32 = 150;

/// The empty opening: Go and Gana without a book.
pub fn empty() -> Opening {
    Opening {
        moves: Vec::new(),
        position: None,
        label: "start".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fiar::Variant;

    fn fiar(size: usize) -> GameKind {
        GameKind::Fiar {
            variant: Variant::Renju,
            width: size,
            height: size,
        }
    }

    #[test]
    fn offset_and_pos_lines_read_as_c_gomoku_cli_reads_them() {
        let k = fiar(15);
        let a = read_fiar_book("0,0, 1,-1, 1,1\n", "a.txt", &k, None).unwrap();
        assert_eq!(a[0].moves, vec!["7,7", "8,6", "8,8"]);
        let b = read_fiar_book("# pos\nh8i7i9\n", "b.txt", &k, None).unwrap();
        assert_eq!(b[0].moves, vec!["7,7", "8,6", "8,8"]);
        assert_eq!(b[0].label, "b.txt:2");
    }

    #[test]
    fn an_illegal_opening_is_an_error_naming_its_line() {
        let k = fiar(15);
        let e = read_fiar_book("0,0, 1,1\n0,0, 0,0\n", "bad.txt", &k, None).unwrap_err();
        assert!(e.starts_with("bad.txt:2:"), "{e}");
        let e = read_fiar_book("0,0, 1\n", "odd.txt", &k, None).unwrap_err();
        assert!(e.starts_with("odd.txt:1:"), "{e}");
        let e = read_fiar_book("9,9\n", "off.txt", &k, None).unwrap_err();
        assert!(e.starts_with("off.txt:1:"), "{e}");
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_legal() {
        let k = fiar(15);
        let o = read_fiar_book("1,-3, 2,0, -1,2\n", "s", &k, None)
            .unwrap()
            .remove(0);
        let all: Vec<Vec<String>> = (0..8).map(|s| o.transformed(&k, s).moves).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(o.transformed(&k, i).check(&k).is_ok());
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_near_even() {
        let k = fiar(15);
        let a = random_fiar(&k, 3, 4, 9);
        assert_eq!(a, random_fiar(&k, 3, 4, 9));
        for o in &a {
            assert_eq!(o.moves.len(), 3);
            assert!(o.check(&k).is_ok());
        }
    }
}
