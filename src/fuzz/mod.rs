//! The protocol fuzzer (`tengen fuzz`, and the CI test `fuzz_protocols`): drives an
//! engine process as a manager would, with seeded grammar-based random lines, and
//! checks what a manager relies on — every GTP command gets exactly one `=`/`?` reply
//! (its id echoed), the Gomocup brain still answers `ABOUT` after every burst, stdout
//! carries nothing but the protocol, nothing panics (stderr is watched), and
//! `quit`/`END` end the process within a second.
//!
//! A failure is written with the whole session's input to `fail-N.in` in the working
//! folder, to replay with `tengen gtp < fail-N.in` (or `gomocup`), and the number of
//! lines in each burst, in order, to `fail-N.bursts` (a replay that waits for the
//! replies between bursts, as the fuzzer did, is then exact).

pub mod grammar;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use grammar::{AnalysisGrammar, GanaGrammar, GomocupGrammar, Grammar, GtpGrammar, Line};

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Gomocup,
    Gtp,
    Gana,
    /// The JSON-lines analysis engine (`tengen analysis`).
    Analysis,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s {
            "gomocup" => Ok(Protocol::Gomocup),
            "gtp" | "go" => Ok(Protocol::Gtp),
            "gana" => Ok(Protocol::Gana),
            "analysis" => Ok(Protocol::Analysis),
            _ => Err(format!(
                "unknown protocol '{s}' (gomocup, gtp, gana, analysis)"
            )),
        }
    }
}

impl Protocol {
    /// The engine's arguments after the binary: one thread, short moves.
    pub fn engine_args(self) -> Vec<String> {
        let args: &[&str] = match self {
            Protocol::Gomocup => &["gomocup", "--threads", "1", "--hash", "16"],
            // Fixed playouts keep the scoring searches of final_score short; the clock
            // comes back with any `tengen-playouts 0`.
            Protocol::Gtp => &[
                "gtp",
                "--threads",
                "1",
                "--time",
                "0.02",
                "--playouts",
                "300",
                "--seed",
                "1",
            ],
            Protocol::Gana => &[
                "gtp",
                "--game",
                "gana",
                "--threads",
                "1",
                "--time",
                "0.02",
                "--seed",
                "1",
            ],
            Protocol::Analysis => &["analysis", "--workers", "2", "--quiet"],
        };
        args.iter().map(|s| s.to_string()).collect()
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub protocol: Protocol,
    /// The engine: program and arguments.
    pub engine: Vec<String>,
    /// Lines to send in all.
    pub lines: u64,
    pub seed: u64,
    /// The engine's working folder (record files, failure transcripts).
    pub dir: PathBuf,
    /// The longest a reply (or a burst's `ABOUT`) may take before the engine counts as
    /// hung.
    pub reply_timeout: Duration,
    /// Stop after this many failures.
    pub max_failures: usize,
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub lines: u64,
    pub bursts: u64,
    pub sessions: u64,
    pub replies: u64,
    /// The slowest exit after `quit`/`END`.
    pub slowest_exit: Duration,
    /// The slowest GTP reply (from the burst's start) and its command.
    pub slowest_reply: (Duration, String),
    /// Time spent waiting for replies, per command name (GTP-framed protocols).
    pub time_by_command: std::collections::BTreeMap<String, (u64, Duration)>,
    pub elapsed: Duration,
    pub failures: Vec<String>,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{} lines in {} bursts over {} sessions, {} replies, slowest exit {} ms, slowest reply {} ms ({:?}), {:.1} s: {} failure(s)",
            self.lines,
            self.bursts,
            self.sessions,
            self.replies,
            self.slowest_exit.as_millis(),
            self.slowest_reply.0.as_millis(),
            self.slowest_reply.1,
            self.elapsed.as_secs_f64(),
            self.failures.len()
        )?;
        let mut by: Vec<_> = self.time_by_command.iter().collect();
        by.sort_by_key(|(_, (_, t))| std::cmp::Reverse(*t));
        if !by.is_empty() {
            let top: Vec<String> = by
                .iter()
                .take(5)
                .map(|(name, (n, t))| format!("{name} {n}x {:.1} s", t.as_secs_f64()))
                .collect();
            write!(f, "; most time: {}", top.join(", "))?;
        }
        for fl in &self.failures {
            write!(f, "\n  {fl}")?;
        }
        Ok(())
    }
}

/// A running engine: its stdin, its stdout as lines on a channel, its stderr kept.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<String>,
    err: Arc<Mutex<Vec<u8>>>,
    /// How much of stderr was already checked for panics.
    err_seen: usize,
    /// Every byte sent this session (for the failure transcript).
    sent: Vec<u8>,
    /// Lines per burst this session, in order (so that a replay can send them as sent).
    bursts: Vec<usize>,
}

impl Engine {
    fn start(cfg: &Config) -> std::io::Result<Engine> {
        let mut child = Command::new(&cfg.engine[0])
            .args(&cfg.engine[1..])
            .current_dir(&cfg.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let l = String::from_utf8_lossy(&buf);
                        let l = l.strip_suffix('\n').unwrap_or(&l);
                        if tx.send(l.to_string()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let err = Arc::new(Mutex::new(Vec::new()));
        let mut stderr = child.stderr.take().expect("piped");
        let sink = err.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    return;
                }
                let mut e = sink.lock().unwrap_or_else(|p| p.into_inner());
                // Keep the head and the last part: a flood of logs must not eat memory.
                if e.len() > 1 << 20 {
                    let cut = e.len() - (256 << 10);
                    let keep = e.split_off(cut);
                    e.truncate(256 << 10);
                    e.extend_from_slice(b"\n[...]\n");
                    e.extend(keep);
                }
                e.extend_from_slice(&buf[..n]);
            }
        });
        let stdin = child.stdin.take();
        Ok(Engine {
            child,
            stdin,
            out,
            err,
            err_seen: 0,
            sent: Vec::new(),
            bursts: Vec::new(),
        })
    }

    fn send(&mut self, lines: &[Line]) -> Result<(), String> {
        let mut bytes = Vec::new();
        for l in lines {
            bytes.extend_from_slice(&l.bytes);
            bytes.push(b'\n');
        }
        self.sent.extend_from_slice(&bytes);
        self.bursts.push(lines.len());
        let stdin = self.stdin.as_mut().ok_or("stdin closed")?;
        stdin
            .write_all(&bytes)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine (dead?): {e}"))
    }

    fn line(&self, deadline: Instant) -> Result<String, String> {
        match self
            .out
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err("no reply in time (hung?)".into()),
            Err(RecvTimeoutError::Disconnected) => Err("stdout closed: the engine died".into()),
        }
    }

    /// New stderr text since the last look, if it shows a panic.
    fn panic_text(&mut self) -> Option<String> {
        let e = self.err.lock().unwrap_or_else(|p| p.into_inner());
        let new = String::from_utf8_lossy(&e[self.err_seen.min(e.len())..]).to_string();
        self.err_seen = e.len();
        let at = new.find("panicked at")?;
        Some(new[at..].lines().take(2).collect::<Vec<_>>().join(" | "))
    }

    /// What stderr says about a failure: the panic message if there is one, else its
    /// last lines.
    fn stderr_tail(&self) -> String {
        let e = self.err.lock().unwrap_or_else(|p| p.into_inner());
        let all = String::from_utf8_lossy(&e);
        if let Some(at) = all.find("panicked at") {
            return all[at..].lines().take(2).collect::<Vec<_>>().join(" | ");
        }
        let lines: Vec<&str> = all.lines().collect();
        lines[lines.len().saturating_sub(6)..].join(" | ")
    }

    /// Waits for the process to end; the time it took, or `None` past `limit`.
    fn wait_exit(&mut self, limit: Duration) -> Option<Duration> {
        let t = Instant::now();
        while t.elapsed() < limit {
            if let Ok(Some(_)) = self.child.try_wait() {
                return Some(t.elapsed());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a line is one a Gomocup brain may print.
fn gomocup_line_ok(l: &str) -> bool {
    let is_move = |t: &str| {
        let mut it = t.split(',');
        matches!((it.next(), it.next(), it.next()),
            (Some(x), Some(y), None) if x.parse::<i64>().is_ok() && y.parse::<i64>().is_ok())
    };
    // A carriage return or another control character inside a line would split it
    // or garble it for a manager.
    if l.chars().any(char::is_control) {
        return false;
    }
    ["ERROR", "UNKNOWN", "MESSAGE", "DEBUG", "FORBID ", "name="]
        .iter()
        .any(|p| l.starts_with(p))
        || l == "OK"
        || l == "SWAP"
        || (!l.is_empty() && l.split(' ').all(is_move))
}

/// Whether the engine answers (a GTP-framed command gets a reply) to this line.
fn gtp_expects_reply(bytes: &[u8]) -> bool {
    !crate::protocol::gtp::clean(&String::from_utf8_lossy(bytes)).is_empty()
}

/// The id a GTP-framed line carries, as the reply must echo it.
fn gtp_id(bytes: &[u8]) -> Option<String> {
    let t = crate::protocol::gtp::clean(&String::from_utf8_lossy(bytes));
    let first = t.split_whitespace().next()?;
    first.parse::<u64>().ok().map(|id| id.to_string())
}

/// Runs the fuzzer; failures are collected, not raised.
pub fn run(cfg: &Config, mut progress: impl FnMut(&Summary)) -> Summary {
    let start = Instant::now();
    let mut rng = SmallRng::seed_from_u64(cfg.seed);
    let mut sum = Summary::default();
    let _ = std::fs::create_dir_all(&cfg.dir);
    if cfg.protocol == Protocol::Gtp {
        for (name, bytes) in grammar::sgf_samples(&mut rng) {
            let _ = std::fs::write(cfg.dir.join(name), bytes);
        }
    }
    let files: Vec<String> = std::fs::read_dir(&cfg.dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(".sgf"))
                .collect()
        })
        .unwrap_or_default();
    let mut g: Box<dyn Grammar> = match cfg.protocol {
        Protocol::Gtp => Box::new(GtpGrammar::new(files)),
        Protocol::Gana => Box::new(GanaGrammar::default()),
        Protocol::Gomocup => Box::new(GomocupGrammar::default()),
        Protocol::Analysis => Box::new(AnalysisGrammar::default()),
    };
    let mut engine: Option<Engine> = None;
    let mut last_progress = Instant::now();
    while sum.lines < cfg.lines && sum.failures.len() < cfg.max_failures {
        let mut e = match engine.take() {
            Some(e) => e,
            None => match Engine::start(cfg) {
                Ok(mut e) => {
                    sum.sessions += 1;
                    let first = g.session_start();
                    if let Err(f) = exchange(cfg, &mut e, g.as_mut(), &first, &mut sum) {
                        fail(cfg, &mut sum, &mut e, &f);
                        continue;
                    }
                    e
                }
                Err(err) => {
                    sum.failures.push(format!("cannot start the engine: {err}"));
                    break;
                }
            },
        };
        let burst = g.burst(&mut rng);
        sum.bursts += 1;
        sum.lines += burst.len() as u64;
        match exchange(cfg, &mut e, g.as_mut(), &burst, &mut sum) {
            Err(f) => fail(cfg, &mut sum, &mut e, &f),
            Ok(()) if burst.iter().any(|l| l.ends_session) => {
                e.stdin = None;
                match e.wait_exit(Duration::from_secs(1)) {
                    Some(t) => sum.slowest_exit = sum.slowest_exit.max(t),
                    None => fail(cfg, &mut sum, &mut e, "still running 1 s after quit/END"),
                }
                if let Some(p) = e.panic_text() {
                    fail(cfg, &mut sum, &mut e, &format!("panic: {p}"));
                }
            }
            Ok(()) => engine = Some(e),
        }
        if last_progress.elapsed() > Duration::from_secs(10) {
            last_progress = Instant::now();
            sum.elapsed = start.elapsed();
            progress(&sum);
        }
    }
    if let Some(mut e) = engine {
        // The end of input must end the engine too (a manager that went away).
        e.stdin = None;
        if e.wait_exit(Duration::from_secs(1)).is_none() {
            fail(
                cfg,
                &mut sum,
                &mut e,
                "still running 1 s after its input closed",
            );
        }
        e.kill();
    }
    sum.elapsed = start.elapsed();
    sum
}

/// Records a failure with the session's transcript and ends the session.
fn fail(cfg: &Config, sum: &mut Summary, e: &mut Engine, what: &str) {
    let n = sum.failures.len() + 1;
    let path = cfg.dir.join(format!("fail-{n}.in"));
    let _ = std::fs::write(&path, &e.sent);
    let sizes: Vec<String> = e.bursts.iter().map(|b| b.to_string()).collect();
    let _ = std::fs::write(cfg.dir.join(format!("fail-{n}.bursts")), sizes.join("\n"));
    e.kill();
    sum.failures.push(format!(
        "{what}; stderr: {}; input: {}",
        e.stderr_tail(),
        path.display()
    ));
}

/// Sends a burst and checks the replies.
fn exchange(
    cfg: &Config,
    e: &mut Engine,
    g: &mut dyn Grammar,
    lines: &[Line],
    sum: &mut Summary,
) -> Result<(), String> {
    if lines.is_empty() {
        return Ok(());
    }
    e.send(lines)?;
    match cfg.protocol {
        Protocol::Gomocup => {
            let ends = lines.iter().any(|l| l.ends_session);
            if !ends {
                e.send(&[Line {
                    bytes: b"ABOUT".to_vec(),
                    ends_session: false,
                }])?;
                let deadline = Instant::now() + cfg.reply_timeout;
                loop {
                    let l = e.line(deadline)?;
                    if !gomocup_line_ok(&l) {
                        return Err(format!("not a protocol line on stdout: {l:?}"));
                    }
                    sum.replies += 1;
                    if l.starts_with("name=") {
                        break;
                    }
                }
            }
        }
        Protocol::Analysis => analysis_replies(cfg, e, lines, sum)?,
        Protocol::Gtp | Protocol::Gana => {
            for l in lines.iter().filter(|l| gtp_expects_reply(&l.bytes)) {
                let asked = Instant::now();
                let deadline = asked + cfg.reply_timeout;
                let head = e
                    .line(deadline)
                    .map_err(|f| format!("{f} (waiting for the reply to {:?})", short(&l.bytes)))?;
                let id = gtp_id(&l.bytes).unwrap_or_default();
                let ok = head
                    .strip_prefix(['=', '?'])
                    .and_then(|rest| rest.strip_prefix(id.as_str()))
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '));
                if !ok {
                    return Err(format!(
                        "reply {head:?} to {:?}: not '=' or '?' with id '{id}'",
                        short(&l.bytes)
                    ));
                }
                let mut reply = head;
                loop {
                    let next = e.line(deadline)?;
                    if next.is_empty() {
                        break;
                    }
                    reply.push('\n');
                    reply.push_str(&next);
                }
                sum.replies += 1;
                let name = crate::protocol::gtp::clean(&String::from_utf8_lossy(&l.bytes))
                    .split_whitespace()
                    .find(|w| w.parse::<u64>().is_err())
                    .unwrap_or("")
                    .chars()
                    .take(24)
                    .collect::<String>();
                let slot = sum.time_by_command.entry(name).or_default();
                slot.0 += 1;
                slot.1 += asked.elapsed();
                if asked.elapsed() > sum.slowest_reply.0 {
                    sum.slowest_reply = (asked.elapsed(), short(&l.bytes));
                }
                g.observe(&l.bytes, &reply);
            }
        }
    }
    if let Some(p) = e.panic_text() {
        return Err(format!("panic: {p}"));
    }
    Ok(())
}

/// The analysis engine's contract for one burst: every stdout line a JSON object; every
/// line sent answered — a line that is no JSON object, or has no usable id, with one
/// error of id null; an action with one reply; a query with one error or one final
/// answer for each turn it asks for (warnings and partial answers besides, each naming
/// a query of the burst). Waits until all are in.
fn analysis_replies(
    cfg: &Config,
    e: &mut Engine,
    lines: &[Line],
    sum: &mut Summary,
) -> Result<(), String> {
    use serde_json::Value;
    use std::collections::HashMap;
    // Ids as the engine reads them.
    let id_of = |v: Option<&Value>| v.and_then(crate::analysis::engine::id_of);
    // Per id: final answers still due (0 for an action's single reply).
    let mut due: HashMap<String, usize> = HashMap::new();
    let mut anonymous = 0usize;
    for l in lines {
        let text = String::from_utf8_lossy(&l.bytes);
        if text.trim().is_empty() {
            continue;
        }
        let Ok(Value::Object(q)) = serde_json::from_str::<Value>(&text) else {
            anonymous += 1;
            continue;
        };
        let Some(id) = id_of(q.get("id")) else {
            anonymous += 1;
            continue;
        };
        let finals = if q.contains_key("action") {
            0
        } else {
            q.get("analyzeTurns")
                .and_then(Value::as_array)
                .map_or(1, |t| t.len())
        };
        due.insert(id, finals);
    }
    let asked = Instant::now();
    let deadline = asked + cfg.reply_timeout;
    while anonymous > 0 || !due.is_empty() {
        let line = e.line(deadline).map_err(|f| {
            format!(
                "{f} (waiting for {anonymous} anonymous errors and the ids {:?})",
                due.keys().take(5).collect::<Vec<_>>()
            )
        })?;
        let Ok(Value::Object(a)) = serde_json::from_str::<Value>(&line) else {
            return Err(format!("not a JSON object on stdout: {line:?}"));
        };
        sum.replies += 1;
        let id = match a.get("id") {
            Some(Value::Null) | None => None,
            v => Some(id_of(v).ok_or_else(|| format!("an answer's id is no string: {line:?}"))?),
        };
        let Some(id) = id else {
            let slot = sum.time_by_command.entry("error".into()).or_default();
            slot.0 += 1;
            if a.contains_key("error") && anonymous > 0 {
                anonymous -= 1;
                continue;
            }
            return Err(format!("an answer without an id, not owed: {line:?}"));
        };
        let Some(left) = due.get_mut(&id) else {
            return Err(format!("an answer for no query waiting: {line:?}"));
        };
        let kind = if a.contains_key("warning") {
            "warning"
        } else if a.contains_key("error") {
            "error"
        } else if a.get("isDuringSearch") == Some(&Value::Bool(true)) {
            "partial answer"
        } else if a.contains_key("turnNumber") {
            "final answer"
        } else {
            "action reply"
        };
        let slot = sum.time_by_command.entry(kind.into()).or_default();
        slot.0 += 1;
        slot.1 += asked.elapsed();
        if matches!(kind, "warning" | "partial answer") {
            continue;
        }
        if a.contains_key("error") || *left <= 1 {
            due.remove(&id);
        } else {
            *left -= 1;
        }
    }
    if asked.elapsed() > sum.slowest_reply.0 {
        sum.slowest_reply = (asked.elapsed(), format!("a burst of {} lines", lines.len()));
    }
    Ok(())
}

fn short(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    s.chars().take(80).collect()
}

/// The folder a run uses by default: a fresh one under the system's temporary folder.
pub fn default_dir(protocol: Protocol, seed: u64) -> PathBuf {
    std::env::temp_dir().join(format!(
        "tengen-fuzz-{protocol:?}-{seed}-{}",
        std::process::id()
    ))
}

/// The binary running now, for fuzzing itself.
pub fn this_binary() -> Option<PathBuf> {
    std::env::current_exe().ok()
}

/// Removes a run's folder when it holds no failure transcript.
pub fn tidy(dir: &Path, summary: &Summary) {
    if summary.failures.is_empty() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_output_lines_are_told_apart_from_anything_else() {
        for ok in [
            "7,7",
            "-1,-1",
            "7,7 8,8",
            "7,7 8,8 9,9",
            "OK",
            "SWAP",
            "ERROR x",
            "UNKNOWN x",
            "MESSAGE depth 3",
            "FORBID 0707.",
            "name=\"tengen\"",
        ] {
            assert!(gomocup_line_ok(ok), "{ok}");
        }
        for bad in [
            "",
            "7",
            "7,7,",
            "ok",
            "ERROR bad \r line",
            "UNKNOWN \u{1b}[2J",
            "thread 'main' panicked",
            "= 7,7",
            "7,7  8,8",
        ] {
            assert!(!gomocup_line_ok(bad), "{bad}");
        }
    }

    #[test]
    fn gtp_ids_and_empty_lines_are_read_as_the_engine_reads_them() {
        assert!(!gtp_expects_reply(b"  # a comment"));
        assert!(!gtp_expects_reply(b"\x01\x02\t"));
        assert!(gtp_expects_reply(b"\xff\xfe"));
        assert_eq!(gtp_id(b"12 name").as_deref(), Some("12"));
        assert_eq!(gtp_id(b"0012 name").as_deref(), Some("12"));
        assert_eq!(gtp_id(b"name 12"), None);
    }
}
