//! The engines of a tournament: how they are given on the command line (`name=… cmd=…
//! tc=…`), and their processes, read line by line with a deadline on every answer.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::clock::Tc;

/// One engine as the user gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub name: String,
    pub cmd: Vec<String>,
    pub threads: Option<usize>,
    /// `option.KEY=VALUE`: sent as `INFO KEY VALUE` (Gomocup) or `KEY VALUE` (GTP).
    pub options: Vec<(String, String)>,
    /// `None`: the tournament's `--tc`.
    pub tc: Option<String>,
    /// Fixed limits for engines that support them: Gomocup `INFO max_depth` /
    /// `max_node`, Tengen's `tengen-playouts`.
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub playouts: Option<u64>,
    /// Grace on top of the time allowed before a slow move loses on time.
    pub tolerance: Option<Duration>,
    /// The folder the engine runs in (`dir=`, as cutechess-cli's), for engines that
    /// find their files in the current folder.
    pub dir: Option<std::path::PathBuf>,
}

/// Splits a command line: words separated by blanks, `"…"` or `'…'` quoting, `\`
/// escaping the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                word.push(chars.next().ok_or("a command ends in '\\'")?);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{text}'"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl Spec {
    /// Reads `key=value` words; `each` are the `--each` words, applied first so that an
    /// engine's own words win.
    pub fn parse(words: &[String], each: &[String]) -> Result<Spec, String> {
        let mut s = Spec {
            name: String::new(),
            cmd: Vec::new(),
            threads: None,
            options: Vec::new(),
            tc: None,
            depth: None,
            nodes: None,
            playouts: None,
            tolerance: None,
            dir: None,
        };
        for w in each.iter().chain(words) {
            let (k, v) = w
                .split_once('=')
                .ok_or(format!("--engine '{w}': expected key=value"))?;
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| format!("--engine {k}={v}: a whole number"))
            };
            match k {
                "name" => s.name = v.to_string(),
                "cmd" => s.cmd = split_command(v)?,
                "threads" | "thread" => s.threads = Some(num()?.clamp(1, 1024) as usize),
                "tc" => s.tc = Some(v.to_string()),
                "dir" => {
                    if !std::path::Path::new(v).is_dir() {
                        return Err(format!("--engine dir={v}: no such folder"));
                    }
                    s.dir = Some(v.into());
                }
                "depth" => s.depth = Some(num()?),
                "nodes" => s.nodes = Some(num()?),
                "playouts" => s.playouts = Some(num()?),
                "tolerance" => {
                    let secs: f64 = v
                        .parse()
                        .ok()
                        .filter(|x: &f64| (0.0..=3600.0).contains(x))
                        .ok_or(format!("--engine tolerance={v}: seconds, 0 to 3600"))?;
                    s.tolerance = Some(Duration::from_secs_f64(secs));
                }
                _ => match k.strip_prefix("option.") {
                    Some(key) if !key.is_empty() => {
                        s.options.retain(|(o, _)| o != key);
                        s.options.push((key.to_string(), v.to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "--engine {k}=: name, cmd, dir, threads, tc, depth, nodes, playouts, tolerance or option.KEY"
                        ));
                    }
                },
            }
        }
        if s.cmd.is_empty() {
            return Err(format!("--engine {}: cmd= is missing", words.join(" ")));
        }
        if s.name.is_empty() {
            let prog = &s.cmd[0];
            s.name = std::path::Path::new(prog)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or(prog.clone());
        }
        if let Some(tc) = &s.tc {
            // Checked now so that a typo stops the run before any game.
            Tc::gomocup(tc).or_else(|_| Tc::gtp(tc))?;
        }
        Ok(s)
    }
}

/// Whether `program` names an executable file: a path (relative to `dir` when given,
/// as the engine is started there), or a name found in `PATH`. Checked before a run,
/// so that a typo is an error rather than a forfeited game.
pub fn runnable(program: &str, dir: Option<&std::path::Path>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let ok = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return ok(&dir.unwrap_or(std::path::Path::new(".")).join(program));
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| ok(&d.join(program))))
}

/// Why an engine failed to give an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process ended (or could not start).
    Crashed(String),
    /// No answer in time.
    Silent(Duration),
    /// An answer the protocol does not allow, or an error reply.
    Bad(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Fault::Crashed(why) => write!(f, "crashed ({why})"),
            Fault::Silent(d) => write!(f, "no answer in {} ms", d.as_millis()),
            Fault::Bad(what) => write!(f, "{what}"),
        }
    }
}

/// A running engine: its stdin, and its stdout as lines on a channel.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    /// `None` once the engine's stdout has closed.
    lines: Receiver<Option<String>>,
}

impl Process {
    /// Starts `cmd` with stderr dropped, in `dir` if given (else where the runner runs:
    /// relative paths in the arguments keep their meaning).
    pub fn start(cmd: &[String], dir: Option<&std::path::Path>) -> Result<Process, Fault> {
        let mut command = Command::new(&cmd[0]);
        if let Some(d) = dir {
            command.current_dir(d);
        }
        command
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Crashed(format!("cannot start {}: {e}", cmd[0])))?;
        let stdin = child
            .stdin
            .take()
            .ok_or(Fault::Crashed("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or(Fault::Crashed("no stdout".into()))?;
        // The protocols' own line reader: it ends with the engine's stdout.
        let lines = crate::protocol::io::spawn_reader(BufReader::new(stdout));
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Crashed(format!("writing to it: {e}")))
    }

    /// The next line before `deadline`.
    pub fn line(&mut self, deadline: Instant) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Some(l)) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Silent(left)),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string());
                Err(Fault::Crashed(status))
            }
        }
    }

    /// Gives an engine told to quit half a second to exit, then kills it.
    pub fn reap(mut self) {
        let end = Instant::now() + Duration::from_millis(500);
        while Instant::now() < end {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_a_shell_would() {
        assert_eq!(
            split_command(r#"a/b "c d" 'e f' g\ h"#).unwrap(),
            vec!["a/b", "c d", "e f", "g h"]
        );
        assert!(split_command("\"open").is_err());
    }

    #[test]
    fn engine_words_override_each_and_name_defaults_to_the_program() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let s = Spec::parse(
            &[
                "cmd=/usr/bin/pbrain-x --fast".to_string(),
                "threads=2".into(),
                "option.hash_size=64".into(),
            ],
            &w("threads=1 tc=0/1 option.hash_size=32"),
        )
        .unwrap();
        assert_eq!(s.name, "pbrain-x");
        assert_eq!(s.cmd, vec!["/usr/bin/pbrain-x", "--fast"]);
        assert_eq!(s.threads, Some(2));
        assert_eq!(s.options, vec![("hash_size".into(), "64".into())]);
        assert!(Spec::parse(&w("name=x"), &[]).is_err(), "cmd is required");
        assert!(Spec::parse(&w("cmd=x dir=/nonexistent/folder"), &[]).is_err());
        let d = Spec::parse(&w("cmd=./sh dir=/bin"), &[]).unwrap();
        assert!(runnable(&d.cmd[0], d.dir.as_deref()), "./sh in /bin");
        assert!(!runnable("./sh", Some(std::path::Path::new("/"))));
        assert!(runnable("sh", None), "found in PATH");
        assert!(Spec::parse(&w("cmd=x tc=fast"), &[]).is_err());
        assert!(Spec::parse(&w("cmd=x colour=red"), &[]).is_err());
    }
}
