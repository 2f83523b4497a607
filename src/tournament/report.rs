//! The crosstable of finished games: per engine W/L/D, score, Elo with its 95% margin
//! and LOS; per encounter the same and, over complete game pairs, the pentanomial
//! counts; the SPRT's LLR when one runs.

use std::collections::BTreeMap;

use super::results::GameLine;
use super::stats::{Penta, Sprt, Wdl};

/// The scores of one engine against one opponent (or against all).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wdl: Wdl,
    pub penta: Penta,
}

/// Game results seen from `name`: its score in halves for each game it played.
fn halves(g: &GameLine, name: &str) -> Option<u8> {
    let p = if g.first == name {
        g.first_points
    } else if g.second == name {
        1.0 - g.first_points
    } else {
        return None;
    };
    Some((p * 2.0).round() as u8)
}

/// The tally of `a` against `b` (`b` `None`: against everyone).
pub fn tally(games: &[&GameLine], a: &str, b: Option<&str>) -> Tally {
    let mut t = Tally::default();
    let mut pairs: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
    for g in games {
        let opp = if g.first == a { &g.second } else { &g.first };
        if b.is_some_and(|b| b != opp) {
            continue;
        }
        if let Some(h) = halves(g, a) {
            t.wdl.add(h);
            pairs.entry(g.pair).or_default().push(h);
        }
    }
    for p in pairs.values() {
        if let [x, y] = p[..] {
            t.penta.add(x, y);
        }
    }
    t
}

/// Engine names in order of first appearance.
pub fn engines(games: &[&GameLine]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for g in games {
        for n in [&g.first, &g.second] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

/// Elo and its margin as shown: a perfect or a null score has no finite Elo.
pub fn elo_text(score: f64, elo: f64, margin: f64) -> String {
    if score >= 1.0 {
        "+inf".into()
    } else if score <= 0.0 {
        "-inf".into()
    } else {
        // No "-0" for an even score.
        let elo = if elo.abs() < 0.5 { 0.0 } else { elo };
        format!("{elo:+.0} ± {margin:.0}")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The crosstable as text.
pub fn crosstable(games: &[&GameLine], sprt: Option<&Sprt>) -> String {
    let names = engines(games);
    let mut rows: Vec<(String, Tally)> = names
        .iter()
        .map(|n| (n.clone(), tally(games, n, None)))
        .collect();
    rows.sort_by(|a, b| b.1.wdl.score().total_cmp(&a.1.wdl.score()));
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(6);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>7}  {:>11}  {:>6}\n",
        "rank", "engine", "games", "won", "lost", "drawn", "score", "elo", "LOS"
    );
    for (i, (n, t)) in rows.iter().enumerate() {
        let (elo, margin) = t.wdl.elo();
        out += &format!(
            "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>7}  {:>11}  {:>6}\n",
            i + 1,
            n,
            t.wdl.games(),
            t.wdl.wins,
            t.wdl.losses,
            t.wdl.draws,
            pct(t.wdl.score()),
            elo_text(t.wdl.score(), elo, margin),
            pct(t.wdl.los())
        );
    }
    out += "\nencounters (first engine's view):\n";
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let t = tally(games, a, Some(b));
            if t.wdl.games() == 0 {
                continue;
            }
            let (elo, margin) = t.wdl.elo();
            out += &format!(
                "  {a} vs {b}: {} games, +{} ={} -{}, {}, elo {}, LOS {}",
                t.wdl.games(),
                t.wdl.wins,
                t.wdl.draws,
                t.wdl.losses,
                pct(t.wdl.score()),
                elo_text(t.wdl.score(), elo, margin),
                pct(t.wdl.los())
            );
            if t.penta.pairs() > 0 {
                let (pe, pm) = t.penta.elo();
                let c = t.penta.counts;
                out += &format!(
                    "; pairs [LL LD DD+WL WD WW] = [{} {} {} {} {}], pentanomial elo {}",
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[4],
                    elo_text(t.penta.score(), pe, pm)
                );
                if let Some(s) = sprt.filter(|_| names.len() == 2) {
                    let llr = s.llr(&t.penta);
                    let (lo, hi) = s.bounds();
                    out += &format!(
                        "; SPRT [{}, {}] LLR {:.2} ({:.2}, {:.2}): {}",
                        s.elo0,
                        s.elo1,
                        llr,
                        lo,
                        hi,
                        s.verdict(llr)
                    );
                }
            }
            out.push('\n');
        }
    }
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for g in games {
        let kind = match g.result.rsplit('+').next() {
            Some("T") => "time",
            Some("F") => "forfeit (crash, illegal or bad answer)",
            Some("R") => "normal end",
            _ if g.result == "0" => "draw",
            _ => "count",
        };
        *reasons.entry(kind.to_string()).or_default() += 1;
    }
    out += "\nendings: ";
    out += &reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    out.push('\n');
    out
}
