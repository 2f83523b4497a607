//! Match statistics: score, Elo with its 95% margin and LOS over games, pentanomial
//! counts over game pairs, and the generalized SPRT (GSPRT) of fishtest and fastchess.
//!
//! The LLR is the one of Michel Van den Bergh's notes ("Comments on normalized Elo",
//! 2020): the log-likelihood ratio of the two maximum-likelihood distributions of pair
//! scores whose expectation (logistic model) or normalized Elo (normalized model) are
//! those of H1 and H0, given the observed counts.

use std::fmt;

/// Score of a game for the engine it is counted for: 0, 1/2 or 1, in halves.
pub type Halves = u8;

/// Wins, draws and losses of one engine (or of the first engine of a pair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn add(&mut self, halves: Halves) {
        match halves {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score, 0..=1 (one half when no game is played).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// Elo difference and the half-width of its 95% interval, from the per-game score
    /// variance (the trinomial model).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games();
        let mean = self.score();
        let var = if n == 0 {
            0.25
        } else {
            (self.wins as f64 * (1.0 - mean).powi(2)
                + self.draws as f64 * (0.5 - mean).powi(2)
                + self.losses as f64 * mean.powi(2))
                / n as f64
        };
        elo_interval(mean, var, n)
    }

    /// Likelihood of superiority: the probability that the engine is the stronger,
    /// from wins and losses (draws carry no information on it).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Game pairs (one opening, colours swapped) by the pair's score for the engine they
/// are counted for: `counts[k]` pairs scored `k` halves of a point out of 2 points
/// (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u64; 5],
}

impl Penta {
    /// Adds a pair from its two games' scores.
    pub fn add(&mut self, a: Halves, b: Halves) {
        self.counts[(a + b).min(4) as usize] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of a pair's mean score.
    fn moments(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 1.0 / 16.0);
        }
        let mean = (0..5)
            .map(|k| self.counts[k] as f64 * PAIR_SCORES[k])
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|k| self.counts[k] as f64 * (PAIR_SCORES[k] - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    pub fn score(&self) -> f64 {
        self.moments().0
    }

    /// Elo and the half-width of its 95% interval from the pair variance: narrower than
    /// the trinomial one when the two games of a pair are correlated, as they are when
    /// openings are unbalanced.
    pub fn elo(&self) -> (f64, f64) {
        let (mean, var) = self.moments();
        elo_interval(mean, var, self.pairs())
    }
}

/// A pair's mean score for each pentanomial count.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Elo of a mean score `mean` and the half-width of its 95% interval, for `n`
/// samples of variance `var`. A perfect score reads as ±inf, clamped to ±1000 Elo.
fn elo_interval(mean: f64, var: f64, n: u64) -> (f64, f64) {
    let se = (var / n.max(1) as f64).sqrt();
    let lo = score_to_elo(mean - 1.96 * se);
    let hi = score_to_elo(mean + 1.96 * se);
    (score_to_elo(mean), (hi - lo) / 2.0)
}

/// The logistic Elo difference of a score.
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-1000.0, 1000.0)
}

/// The expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to 1.2e-7 (Numerical Recipes' erfc by Chebyshev fit).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { 1.0 - r } else { r - 1.0 }
}

/// The Elo model an SPRT's bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Logistic Elo (the Elo of the score).
    Logistic,
    /// Normalized Elo: the score's distance from one half in units of its standard
    /// deviation, so that bounds keep their meaning whatever the draw rate.
    Normalized,
}

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    /// H0 accepted: not the gain tested for.
    H0,
    /// H1 accepted: the gain is there.
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Verdict::Continue => "continue",
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized` (any order, each
    /// optional but elo1).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or(format!("--sprt '{w}': expected key=value"))?;
            let num = || {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or(format!("--sprt {k}={v}: not a number"))
            };
            match k {
                "elo0" => s.elo0 = num()?,
                "elo1" => s.elo1 = num()?,
                "alpha" => s.alpha = num()?,
                "beta" => s.beta = num()?,
                "model" => {
                    s.model = match v {
                        "normalized" => Model::Normalized,
                        "logistic" => Model::Logistic,
                        _ => return Err(format!("--sprt model={v}: normalized or logistic")),
                    }
                }
                _ => return Err(format!("--sprt {k}: elo0, elo1, alpha, beta or model")),
            }
        }
        if s.elo1.is_nan() {
            return Err("--sprt needs elo1=".into());
        }
        if s.elo0 >= s.elo1 {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                s.elo0, s.elo1
            ));
        }
        for (name, p) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt {name}={p}: between 0 and 0.5"));
            }
        }
        Ok(s)
    }

    /// The LLR bounds: H0 is accepted below the first, H1 above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The log-likelihood ratio of H1 against H0 for the pairs counted in `p`. An
    /// empty count is taken as 1/1000 of a pair so that the estimates exist.
    pub fn llr(&self, p: &Penta) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let c: Vec<f64> = p
            .counts
            .iter()
            .map(|&n| if n == 0 { 1e-3 } else { n as f64 })
            .collect();
        let total: f64 = c.iter().sum();
        let freq: [f64; 5] = std::array::from_fn(|i| c[i] / total);
        let (p0, p1) = match self.model {
            Model::Logistic => (
                mle_mean(&freq, elo_to_score(self.elo0)),
                mle_mean(&freq, elo_to_score(self.elo1)),
            ),
            Model::Normalized => {
                // A pair's t is sqrt(2) times a game's for the same normalized Elo.
                let k = std::f64::consts::SQRT_2 * std::f64::consts::LN_10 / 800.0;
                (
                    mle_normalized(&freq, k * self.elo0),
                    mle_normalized(&freq, k * self.elo1),
                )
            }
        };
        total
            * (0..5)
                .map(|i| freq[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }
}

/// The root of a decreasing function on (lo, hi), by bisection to machine precision.
fn root_decreasing(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution nearest (in likelihood) to `freq` whose mean is `s`:
/// p_i = freq_i / (1 + θ (a_i − s)), θ solving Σ freq_i (a_i − s) / (1 + θ (a_i − s)) = 0.
fn mle_mean(freq: &[f64; 5], s: f64) -> [f64; 5] {
    let d: [f64; 5] = std::array::from_fn(|i| PAIR_SCORES[i] - s);
    let theta = root_decreasing(
        |t| (0..5).map(|i| freq[i] * d[i] / (1.0 + t * d[i])).sum(),
        -1.0 / d[4],
        -1.0 / d[0],
    );
    std::array::from_fn(|i| freq[i] / (1.0 + theta * d[i]))
}

/// The distribution nearest to `freq` whose t = (mean − 1/2) / sd is `t`: the fixed
/// point of p_i = freq_i / (1 + θ φ_i), φ_i = a_i − 1/2 − t σ (1 + ((a_i − μ)/σ)²) / 2
/// with μ and σ those of p (the iteration of section 4.1 of the notes).
fn mle_normalized(freq: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..10_000 {
        let mu: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
        let sigma = (0..5)
            .map(|i| p[i] * (PAIR_SCORES[i] - mu).powi(2))
            .sum::<f64>()
            .sqrt()
            .max(1e-12);
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let z = (PAIR_SCORES[i] - mu) / sigma;
            PAIR_SCORES[i] - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let (u, v) = phi
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(u, v), &x| {
                (u.min(x), v.max(x))
            });
        let theta = root_decreasing(
            |th| (0..5).map(|i| freq[i] * phi[i] / (1.0 + th * phi[i])).sum(),
            -1.0 / v,
            -1.0 / u,
        );
        let next: [f64; 5] = std::array::from_fn(|i| freq[i] / (1.0 + theta * phi[i]));
        let diff = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if diff < 1e-12 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_results_are_zero_elo_and_an_even_los() {
        let w = Wdl {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert_eq!(w.score(), 0.5);
        assert!(w.elo().0.abs() < 1e-9);
        assert!((w.los() - 0.5).abs() < 1e-6);
    }

    #[test]
    fn a_75_percent_score_is_191_elo() {
        let w = Wdl {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        assert!((w.elo().0 - 190.85).abs() < 0.01);
        assert!(w.los() > 0.9999);
    }

    #[test]
    fn erf_matches_known_values() {
        for (x, v) in [
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (-2.0, -0.995_322_265),
        ] {
            assert!((erf(x) - v).abs() < 2e-7, "erf({x})");
        }
    }

    #[test]
    fn correlated_pairs_give_a_narrower_margin_than_games() {
        // Every pair split 1-1: the games say little, the pairs say "equal".
        let mut p = Penta::default();
        let mut w = Wdl::default();
        for _ in 0..50 {
            p.add(2, 0);
            w.add(2);
            w.add(0);
        }
        assert!(p.elo().1 < w.elo().1 / 10.0);
    }

    #[test]
    fn the_llr_is_zero_between_equal_hypotheses_and_grows_with_a_winner() {
        let s = Sprt::parse(&["elo0=0".into(), "elo1=10".into()]).unwrap();
        let mut p = Penta {
            counts: [10, 40, 100, 60, 20],
        };
        let a = s.llr(&p);
        p.counts = [10, 40, 100, 60, 40];
        assert!(s.llr(&p) > a);
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    }
}

#[cfg(test)]
mod reference {
    use super::*;

    /// The LLRs of `engine-tests/data/sprt/llr.txt`, computed by `llr.py` beside it (an
    /// implementation of the published formulas written apart from this one), agree to
    /// a thousandth.
    #[test]
    fn the_llr_matches_an_independent_computation() {
        let text = include_str!("../../engine-tests/data/sprt/llr.txt");
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            let counts: [u64; 5] = std::array::from_fn(|i| f[i].parse().unwrap());
            let model = match f[5] {
                "logistic" => Model::Logistic,
                _ => Model::Normalized,
            };
            let s = Sprt {
                elo0: f[6].parse().unwrap(),
                elo1: f[7].parse().unwrap(),
                alpha: 0.05,
                beta: 0.05,
                model,
            };
            let want: f64 = f[8].parse().unwrap();
            let got = s.llr(&Penta { counts });
            assert!((got - want).abs() < 1e-3, "{line}: got {got}");
            n += 1;
        }
        assert_eq!(n, 14);
    }

    /// The usual approximation, LLR ≈ N (s1 − s0)(2 s − s0 − s1) / (2 σ²), is close for
    /// small Elo differences: a check of the exact value's scale and sign.
    #[test]
    fn the_logistic_llr_is_near_the_gsprt_approximation() {
        let p = Penta {
            counts: [30, 120, 300, 180, 60],
        };
        let s = Sprt::parse(&["elo1=5".into(), "model=logistic".into()]).unwrap();
        let n = p.pairs() as f64;
        let (mean, var) = p.moments();
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(5.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = s.llr(&p);
        assert!(
            (exact - approx).abs() < 0.05 * approx.abs(),
            "{exact} vs {approx}"
        );
    }
}
