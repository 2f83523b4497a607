//! The results file: JSON lines, a header with the settings the games depend on, then a
//! line per finished game, each appended, flushed and synced as the game ends — so that
//! a killed run loses nothing finished, a rerun plays only what is missing, and shard
//! files merge by simple union.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::games::fiar::record::Record;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's number in the schedule, 0-based.
    pub game: usize,
    /// Its game pair (one opening, colours swapped).
    pub pair: usize,
    pub round: usize,
    /// The engine that moved first, and the other.
    pub first: String,
    pub second: String,
    pub black: String,
    pub white: String,
    pub opening: String,
    /// Points of the first engine: 1, 0.5 or 0.
    pub first_points: f64,
    /// SGF-style result: `B+R`, `W+T` (time), `B+F` (forfeit), `W+3.5`, `0`.
    pub result: String,
    pub reason: String,
    /// Plies played, opening included, and of them the opening's.
    pub plies: usize,
    pub opening_plies: usize,
    /// Time used by the first and the second engine, ms.
    pub time_ms: [u64; 2],
    /// Each engine's slowest move over what it was allowed.
    pub worst_ratio: [f64; 2],
    pub moves: Vec<String>,
}

/// The first line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub tengen_tournament: u32,
    /// Everything the schedule and the games depend on.
    pub settings: Value,
    /// `K/N` of a sharded run, `0/1` otherwise.
    pub shard: String,
}

/// A results file read back.
#[derive(Debug)]
pub struct Loaded {
    pub header: Header,
    pub games: BTreeMap<usize, GameLine>,
    /// Bytes of whole lines: anything after (a line cut by a kill) is dropped.
    pub good_len: u64,
}

impl Loaded {
    /// The five-in-a-row variant the header names (freestyle when it names none).
    pub fn fiar_variant(&self) -> Result<crate::games::fiar::Variant, String> {
        self.header.settings["game"]["variant"]
            .as_str()
            .unwrap_or("freestyle")
            .parse()
            .map_err(|e| format!("{e}"))
    }

    /// The five-in-a-row games as records (their moves from the empty board, the opening
    /// included), on the board size the header names.
    pub fn fiar_records(&self) -> Result<Vec<(&GameLine, Record)>, String> {
        let game = &self.header.settings["game"];
        let width = game["width"].as_u64().unwrap_or(15) as usize;
        let height = game["height"].as_u64().unwrap_or(width as u64) as usize;
        self.games
            .values()
            .map(|g| {
                Record::parse_moves(&g.moves.join(" "), width, height)
                    .map(|r| (g, r))
                    .map_err(|e| format!("game {}: {e}", g.game))
            })
            .collect()
    }
}

/// Reads a results file. A last line cut short (the runner killed while writing) is
/// ignored; any other bad line is an error naming it.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let name = path.display();
    let mut text = String::new();
    File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(|e| format!("{name}: {e}"))?;
    let mut header: Option<Header> = None;
    let mut games = BTreeMap::new();
    let mut good_len = 0u64;
    let mut offset = 0usize;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        offset += raw.len();
        let complete = raw.ends_with('\n');
        let l = raw.trim();
        if l.is_empty() {
            if complete {
                good_len = offset as u64;
            }
            continue;
        }
        let last = i + 1 == lines.len();
        let parsed: Result<Value, _> = serde_json::from_str(l);
        let v = match parsed {
            Ok(v) if complete => v,
            _ if last => break,
            Err(e) => return Err(format!("{name}:{}: {e}", i + 1)),
            Ok(_) => return Err(format!("{name}:{}: line cut short", i + 1)),
        };
        if header.is_none() {
            header = Some(
                serde_json::from_value(v)
                    .map_err(|e| format!("{name}:{}: not a tournament header: {e}", i + 1))?,
            );
        } else {
            let g: GameLine = serde_json::from_value(v)
                .map_err(|e| format!("{name}:{}: not a game: {e}", i + 1))?;
            games.insert(g.game, g);
        }
        good_len = offset as u64;
    }
    let header = header.ok_or(format!("{name}: no header line: not a results file"))?;
    Ok(Loaded {
        header,
        games,
        good_len,
    })
}

/// Where two settings objects differ, as `key: old → new`, first difference only.
pub fn difference(old: &Value, new: &Value, path: &str) -> Option<String> {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for k in a.keys().chain(b.keys()) {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => {
                        if let Some(d) = difference(x, y, &p) {
                            return Some(d);
                        }
                    }
                    (x, y) => {
                        return Some(format!(
                            "{p}: {} → {}",
                            x.map_or("(none)".into(), Value::to_string),
                            y.map_or("(none)".into(), Value::to_string)
                        ));
                    }
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| difference(x, y, &format!("{path}[{i}]"))),
        _ if old == new => None,
        _ => Some(format!("{path}: {old} → {new}")),
    }
}

/// The results file being written.
pub struct Writer {
    file: File,
    path: PathBuf,
}

impl Writer {
    /// Opens `path` for this run: a new file gets `header`; an existing one must have
    /// been written with the same settings, and its finished games are returned.
    pub fn open(
        path: &Path,
        header: &Header,
    ) -> Result<(Writer, BTreeMap<usize, GameLine>), String> {
        let name = path.display();
        let exists = path.exists()
            && std::fs::metadata(path)
                .map(|m| m.len() > 0)
                .unwrap_or(false);
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("{name}: {e}"))?;
        // Two runs appending to one file interleave their lines, and the second's resume
        // would cut the first's last line: one writer at a time. The lock goes with the
        // file when the run ends or is killed. (A file system without locks is written
        // unguarded, as before.)
        if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
            return Err(format!(
                "{name} is being written by another run: wait for it to end, or write to another file"
            ));
        }
        let mut games = BTreeMap::new();
        if exists {
            let old = load(path)?;
            if old.header.shard != header.shard {
                return Err(format!(
                    "{name} holds shard {}, not {}: give each shard its own file",
                    old.header.shard, header.shard
                ));
            }
            if let Some(d) = difference(&old.header.settings, &header.settings, "") {
                return Err(format!(
                    "{name} was written with other settings ({d}); resume with the same command, or write to another file"
                ));
            }
            file.set_len(old.good_len)
                .map_err(|e| format!("{name}: {e}"))?;
            games = old.games;
        } else {
            let line = serde_json::to_string(header).map_err(|e| e.to_string())?;
            file.write_all(format!("{line}\n").as_bytes())
                .and_then(|_| file.sync_data())
                .map_err(|e| format!("{name}: {e}"))?;
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| format!("{name}: {e}"))?;
        Ok((
            Writer {
                file,
                path: path.to_path_buf(),
            },
            games,
        ))
    }

    /// Appends a game and makes it durable before returning.
    pub fn append(&mut self, g: &GameLine) -> Result<(), String> {
        let line = serde_json::to_string(g).map_err(|e| e.to_string())?;
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: usize) -> GameLine {
        GameLine {
            game: n,
            pair: n / 2,
            round: 0,
            first: "a".into(),
            second: "b".into(),
            black: "a".into(),
            white: "b".into(),
            opening: "random 1".into(),
            first_points: 1.0,
            result: "B+R".into(),
            reason: "black wins".into(),
            plies: 9,
            opening_plies: 3,
            time_ms: [10, 20],
            worst_ratio: [0.5, 0.25],
            moves: vec!["7,7".into()],
        }
    }

    fn header(x: u64) -> Header {
        Header {
            tengen_tournament: 1,
            settings: serde_json::json!({"games": x, "engines": [{"name": "a"}]}),
            shard: "0/1".into(),
        }
    }

    /// A directory of this test's own and a results file path in it that does not exist.
    fn fresh_file(test: &str) -> (PathBuf, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("tengen-results-{test}-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&path);
        (dir, path)
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_the_rest_resumes() {
        let (dir, path) = fresh_file("resume");
        let (mut w, done) = Writer::open(&path, &header(2)).unwrap();
        assert!(done.is_empty());
        w.append(&game(0)).unwrap();
        w.append(&game(1)).unwrap();
        drop(w);
        // A kill in the middle of a line.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"game\":2,\"pa").unwrap();
        drop(f);
        let (mut w, done) = Writer::open(&path, &header(2)).unwrap();
        assert_eq!(done.keys().copied().collect::<Vec<_>>(), vec![0, 1]);
        w.append(&game(2)).unwrap();
        let back = load(&path).unwrap();
        assert_eq!(back.games.len(), 3);
        assert_eq!(back.games[&2], game(2));
        drop(w);
        let err = Writer::open(&path, &header(4)).err().unwrap();
        assert!(err.contains("games: 2 → 4"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_second_run_on_a_file_in_use_is_refused_and_leaves_it_whole() {
        let (dir, path) = fresh_file("lock");
        let (mut w, _) = Writer::open(&path, &header(2)).unwrap();
        w.append(&game(0)).unwrap();
        let err = Writer::open(&path, &header(2)).err().unwrap();
        assert!(err.contains("being written by another run"), "{err}");
        // The first run goes on writing whole lines.
        w.append(&game(1)).unwrap();
        assert_eq!(load(&path).unwrap().games.len(), 2);
        drop(w);
        // Once it ends, the file resumes.
        let (_, done) = Writer::open(&path, &header(2)).unwrap();
        assert_eq!(done.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
