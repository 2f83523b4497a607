//! Time controls and the referee's clock for each side: what an engine is told, how
//! long it may think for its next move, and when it has lost on time.

use std::time::Duration;

/// A time control, as given in `tc=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tc {
    /// Gomocup: `match/turn+inc` in seconds (c-gomoku-cli's form). `match` 0: no match
    /// clock, only the per-move limit; `turn` omitted: the match time.
    Gomocup {
        match_ms: u64,
        turn_ms: u64,
        inc_ms: u64,
    },
    /// Go or Gana: main time, then `periods` byo-yomi periods of `period_ms` each
    /// (`main+PxN`; `0+5x1` is five seconds a move). A move within its period keeps it.
    ByoYomi {
        main_ms: u64,
        period_ms: u64,
        periods: u32,
    },
    /// Go or Gana: main time, then `stones` moves in every `period_ms` (`main+P/S`).
    Canadian {
        main_ms: u64,
        period_ms: u64,
        stones: u32,
    },
}

fn secs(text: &str, what: &str) -> Result<u64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("tc: {what} '{text}' is not a number of seconds"))?;
    if !(0.0..=1e6).contains(&v) {
        return Err(format!("tc: {what} '{text}' is out of range"));
    }
    Ok((v * 1000.0).round() as u64)
}

impl Tc {
    /// Parses a Gomocup time control, `match/turn+inc`, `match/turn` or `match`.
    pub fn gomocup(text: &str) -> Result<Tc, String> {
        let (rest, inc) = match text.split_once('+') {
            Some((r, i)) => (r, secs(i, "increment")?),
            None => (text, 0),
        };
        let (m, t) = match rest.split_once('/') {
            Some((m, t)) => (secs(m, "match time")?, secs(t, "turn time")?),
            None => {
                let m = secs(rest, "match time")?;
                (m, m)
            }
        };
        if t == 0 {
            return Err(format!("tc={text}: the turn time must be above 0"));
        }
        Ok(Tc::Gomocup {
            match_ms: m,
            turn_ms: t,
            inc_ms: inc,
        })
    }

    /// Parses a GTP time control: `main+PxN` (byo-yomi), `main+P/S` (Canadian) or
    /// `main` (sudden death).
    pub fn gtp(text: &str) -> Result<Tc, String> {
        let (main, over) = match text.split_once('+') {
            Some((m, o)) => (secs(m, "main time")?, Some(o)),
            None => (secs(text, "main time")?, None),
        };
        let tc = match over {
            None => Tc::ByoYomi {
                main_ms: main,
                period_ms: 0,
                periods: 0,
            },
            Some(o) => {
                if let Some((p, n)) = o.split_once(['x', 'X']) {
                    Tc::ByoYomi {
                        main_ms: main,
                        period_ms: secs(p, "period")?,
                        periods: n
                            .trim()
                            .parse()
                            .map_err(|_| format!("tc={text}: periods '{n}'"))?,
                    }
                } else if let Some((p, s)) = o.split_once('/') {
                    let stones: u32 = s
                        .trim()
                        .parse()
                        .map_err(|_| format!("tc={text}: stones '{s}'"))?;
                    if stones == 0 {
                        return Err(format!("tc={text}: at least one stone a period"));
                    }
                    Tc::Canadian {
                        main_ms: main,
                        period_ms: secs(p, "period")?,
                        stones,
                    }
                } else {
                    return Err(format!(
                        "tc={text}: main+PERIODxCOUNT (byo-yomi) or main+PERIOD/STONES (Canadian)"
                    ));
                }
            }
        };
        let none = match tc {
            Tc::ByoYomi {
                main_ms,
                period_ms,
                periods,
            } => main_ms == 0 && (period_ms == 0 || periods == 0),
            Tc::Canadian {
                main_ms, period_ms, ..
            } => main_ms == 0 && period_ms == 0,
            Tc::Gomocup { .. } => false,
        };
        if none {
            return Err(format!("tc={text}: no time at all"));
        }
        // GTP's time_settings and time_left count whole seconds: a quarter second
        // would reach the engines as a second's settings and "0 seconds left".
        let (main_ms, period_ms) = match tc {
            Tc::ByoYomi {
                main_ms, period_ms, ..
            }
            | Tc::Canadian {
                main_ms, period_ms, ..
            } => (main_ms, period_ms),
            Tc::Gomocup { .. } => (0, 0),
        };
        if main_ms % 1000 != 0 || period_ms % 1000 != 0 {
            return Err(format!(
                "tc={text}: GTP tells engines their time in whole seconds; use whole \
                 seconds, or playouts=N for faster games"
            ));
        }
        Ok(tc)
    }

    /// The GTP `time_settings` arguments (main, byo-yomi time, stones): byo-yomi of
    /// several periods is told as its last period (`kgs-time_settings` says it all).
    pub fn time_settings(&self) -> String {
        let s = |ms: u64| ms.div_ceil(1000);
        match *self {
            Tc::ByoYomi {
                main_ms,
                period_ms,
                periods,
            } => format!(
                "{} {} {}",
                s(main_ms),
                s(period_ms),
                u32::from(periods > 0 && period_ms > 0)
            ),
            Tc::Canadian {
                main_ms,
                period_ms,
                stones,
            } => format!("{} {} {stones}", s(main_ms), s(period_ms)),
            Tc::Gomocup {
                match_ms, turn_ms, ..
            } => format!("{} {} 1", s(match_ms), s(turn_ms)),
        }
    }

    /// `kgs-time_settings` arguments, for engines that know it.
    pub fn kgs_time_settings(&self) -> String {
        let s = |ms: u64| ms.div_ceil(1000);
        match *self {
            Tc::ByoYomi {
                main_ms,
                period_ms,
                periods,
            } if periods > 0 && period_ms > 0 => {
                format!("byoyomi {} {} {periods}", s(main_ms), s(period_ms))
            }
            Tc::ByoYomi { main_ms, .. } => format!("absolute {}", s(main_ms)),
            Tc::Canadian {
                main_ms,
                period_ms,
                stones,
            } => format!("canadian {} {} {stones}", s(main_ms), s(period_ms)),
            Tc::Gomocup { .. } => self.time_settings(),
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub tc: Tc,
    /// Main (or match) time left.
    pub main_ms: u64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Canadian overtime: time and stones left in the current period.
    pub period_left_ms: u64,
    pub stones_left: u32,
    /// Time used over the whole game.
    pub used_ms: u64,
}

impl Clock {
    pub fn new(tc: Tc) -> Clock {
        let (main_ms, periods, period_left_ms, stones_left) = match tc {
            Tc::Gomocup { match_ms, .. } => (match_ms, 0, 0, 0),
            Tc::ByoYomi {
                main_ms, periods, ..
            } => (main_ms, periods, 0, 0),
            Tc::Canadian {
                main_ms,
                period_ms,
                stones,
            } => (main_ms, 0, period_ms, stones),
        };
        Clock {
            tc,
            main_ms,
            periods,
            period_left_ms,
            stones_left,
            used_ms: 0,
        }
    }

    /// How long the next move may take before it loses on time (the tolerance aside).
    pub fn allowance(&self) -> Duration {
        let ms = match self.tc {
            Tc::Gomocup {
                match_ms, turn_ms, ..
            } => {
                if match_ms == 0 {
                    turn_ms
                } else {
                    turn_ms.min(self.main_ms)
                }
            }
            // A single move may run through every period left.
            Tc::ByoYomi { period_ms, .. } => self.main_ms + self.periods as u64 * period_ms,
            Tc::Canadian { .. } => self.main_ms + self.period_left_ms,
        };
        Duration::from_millis(ms)
    }

    /// Charges a move that took `took`; false when it lost on time (over the
    /// allowance by more than `tolerance`). The tolerance is for lag: a move within it
    /// is charged as if it had ended with its allowance, so that it costs no byo-yomi
    /// period, nor time the next move needs.
    pub fn charge(&mut self, took: Duration, tolerance: Duration) -> bool {
        let allowance = self.allowance();
        let in_time = took <= allowance + tolerance;
        self.used_ms += took.as_millis() as u64;
        let t = if in_time { took.min(allowance) } else { took }.as_millis() as u64;
        match self.tc {
            Tc::Gomocup {
                match_ms, inc_ms, ..
            } => {
                if match_ms > 0 {
                    self.main_ms = self.main_ms.saturating_sub(t) + inc_ms;
                }
            }
            Tc::ByoYomi { period_ms, .. } => {
                if t > self.main_ms {
                    let over = t - self.main_ms;
                    self.main_ms = 0;
                    // Each whole period overrun is lost; the one the move ended in
                    // is kept, also when it ends exactly as the period does.
                    let lost = (over - 1)
                        .checked_div(period_ms)
                        .map_or(self.periods, |n| n as u32);
                    self.periods = self.periods.saturating_sub(lost);
                } else {
                    self.main_ms -= t;
                }
            }
            Tc::Canadian {
                period_ms, stones, ..
            } => {
                if t > self.main_ms {
                    let over = t - self.main_ms;
                    self.main_ms = 0;
                    self.period_left_ms = self.period_left_ms.saturating_sub(over);
                    self.stones_left = self.stones_left.saturating_sub(1);
                    if self.stones_left == 0 {
                        self.stones_left = stones;
                        self.period_left_ms = period_ms;
                    }
                } else {
                    self.main_ms -= t;
                }
            }
        }
        in_time
    }

    /// GTP `time_left` arguments: seconds and stones (0 in main time; periods left in
    /// byo-yomi, as KGS sends them).
    pub fn time_left(&self) -> String {
        match self.tc {
            Tc::ByoYomi { period_ms, .. } if self.main_ms == 0 => {
                format!("{} {}", period_ms / 1000, self.periods)
            }
            Tc::Canadian { .. } if self.main_ms == 0 => {
                format!("{} {}", self.period_left_ms / 1000, self.stones_left)
            }
            _ => format!("{} 0", self.main_ms / 1000),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_forms_read_as_c_gomoku_cli_reads_them() {
        assert_eq!(
            Tc::gomocup("180/30+1").unwrap(),
            Tc::Gomocup {
                match_ms: 180_000,
                turn_ms: 30_000,
                inc_ms: 1000
            }
        );
        assert_eq!(
            Tc::gomocup("0/0.2").unwrap(),
            Tc::Gomocup {
                match_ms: 0,
                turn_ms: 200,
                inc_ms: 0
            }
        );
        assert!(Tc::gomocup("0/0").is_err());
        assert!(Tc::gomocup("x/1").is_err());
    }

    #[test]
    fn a_gomocup_move_may_use_the_turn_time_or_what_is_left_of_the_match() {
        let mut c = Clock::new(Tc::gomocup("3/2+0.5").unwrap());
        assert_eq!(c.allowance(), Duration::from_secs(2));
        assert!(c.charge(Duration::from_millis(1800), Duration::ZERO));
        assert_eq!(c.main_ms, 1700);
        assert_eq!(c.allowance(), Duration::from_millis(1700));
        assert!(!c.charge(Duration::from_millis(2000), Duration::from_millis(200)));
    }

    #[test]
    fn byo_yomi_keeps_a_period_used_in_part_and_loses_one_overrun() {
        let mut c = Clock::new(Tc::gtp("10+5x2").unwrap());
        assert!(c.charge(Duration::from_secs(9), Duration::ZERO));
        assert_eq!(c.allowance(), Duration::from_secs(11));
        assert!(c.charge(Duration::from_millis(5500), Duration::ZERO));
        assert_eq!((c.main_ms, c.periods), (0, 2));
        assert!(c.charge(Duration::from_millis(6000), Duration::from_secs(2)));
        assert_eq!(c.periods, 1, "an overrun period is gone");
        assert_eq!(c.time_left(), "5 1");
        // Lag within the tolerance does not cost the last period.
        assert!(c.charge(Duration::from_millis(5800), Duration::from_secs(1)));
        assert_eq!(c.periods, 1);
        assert_eq!(c.allowance(), Duration::from_secs(5));
    }

    #[test]
    fn canadian_overtime_refills_after_its_stones() {
        let mut c = Clock::new(Tc::gtp("0+10/2").unwrap());
        assert!(c.charge(Duration::from_secs(6), Duration::ZERO));
        assert_eq!(c.allowance(), Duration::from_secs(4));
        assert!(c.charge(Duration::from_secs(3), Duration::ZERO));
        assert_eq!(c.allowance(), Duration::from_secs(10));
        assert!(!c.charge(Duration::from_secs(11), Duration::ZERO));
    }

    #[test]
    fn gtp_time_settings_say_the_control() {
        assert_eq!(Tc::gtp("0+5x1").unwrap().time_settings(), "0 5 1");
        assert_eq!(
            Tc::gtp("60+30x5").unwrap().kgs_time_settings(),
            "byoyomi 60 30 5"
        );
        assert_eq!(Tc::gtp("300+60/10").unwrap().time_settings(), "300 60 10");
        assert!(Tc::gtp("0").is_err());
        assert!(Tc::gtp("10+5").is_err());
        // What GTP cannot tell is refused, not rounded.
        let e = Tc::gtp("0+0.25x1").unwrap_err();
        assert!(e.contains("whole seconds"), "{e}");
        assert!(Tc::gtp("1.5+1x1").is_err());
        assert!(Tc::gtp("0+2.5/3").is_err());
    }
}
