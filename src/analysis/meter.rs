//! Progress for a person watching a long run (`analyse`, `review`, the analysis engine
//! fed a batch): a bar or spinner on stderr while stderr is a terminal, nothing when it
//! is a file or a pipe, or with `--quiet` — stdout stays the result's alone.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::model::Search;

/// A progress display that may be switched off; every method is a no-op then.
pub struct Meter {
    bar: Option<ProgressBar>,
}

/// How often a search tells the meter what it has found (the meter draws at its own
/// pace; this only bounds the work of telling it).
pub const EVERY: Duration = Duration::from_millis(50);

/// Whether progress would be seen: stderr is a terminal and not silenced.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

impl Meter {
    /// No display.
    pub fn off() -> Meter {
        Meter { bar: None }
    }

    /// A bar over `total` positions, with the rate and the time left.
    pub fn positions(total: u64, quiet: bool) -> Meter {
        if !wanted(quiet) {
            return Meter::off();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "[{bar:20}] {pos}/{len} positions {elapsed} ETA {eta} {wide_msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(250));
        Meter { bar: Some(bar) }
    }

    /// A spinner for one search, its message the search so far.
    pub fn search(quiet: bool) -> Meter {
        if !wanted(quiet) {
            return Meter::off();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        Meter { bar: Some(bar) }
    }

    pub fn is_on(&self) -> bool {
        self.bar.is_some()
    }

    /// Adds to the positions done, or sets the total when more arrive.
    pub fn advance(&self, by: u64) {
        if let Some(b) = &self.bar {
            b.inc(by);
        }
    }

    pub fn add_total(&self, by: u64) {
        if let Some(b) = &self.bar {
            b.inc_length(by);
        }
    }

    pub fn set_message(&self, msg: String) {
        if let Some(b) = &self.bar {
            b.set_message(msg);
        }
    }

    /// Shows what a search has found so far: depth, nodes or playouts, best move.
    pub fn show(&self, s: &Search) {
        if self.bar.is_some() {
            self.set_message(describe(s));
        }
    }

    /// Removes the display, leaving the terminal as it was.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A search so far in a few words.
pub fn describe(s: &Search) -> String {
    let mut out = String::new();
    if let Some(d) = s.depth {
        out.push_str(&format!("depth {d}, "));
    }
    let unit = if s.depth.is_some() {
        "nodes"
    } else {
        "playouts"
    };
    out.push_str(&format!(
        "{} {unit}, best {}",
        human(s.nodes),
        s.root_info.best
    ));
    if let Some(score) = s.root_info.score {
        out.push_str(&format!(" {score}"));
    }
    if let Some(w) = s.root_info.winrate {
        out.push_str(&format!(" {:.1}%", w * 100.0));
    }
    out
}

/// A count as people read it: 950, 12.3k, 4.1M.
fn human(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_people_write_them() {
        assert_eq!(human(950), "950");
        assert_eq!(human(12_340), "12.3k");
        assert_eq!(human(4_100_000), "4.1M");
    }

    /// Under `cargo test` stderr is captured, not a terminal: no display is made, and
    /// every call is harmless.
    #[test]
    fn nothing_is_drawn_off_a_terminal() {
        let m = Meter::positions(10, false);
        if !std::io::stderr().is_terminal() {
            assert!(!m.is_on());
        }
        m.advance(1);
        m.set_message("x".into());
        assert!(!Meter::positions(10, true).is_on());
        assert!(!Meter::search(true).is_on());
    }
}
