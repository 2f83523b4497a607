//! The game clock GTP-style protocols set (time_settings, kgs-time_settings,
//! time_left) and how much of it one move may spend, with a margin so that a move is
//! never late.

use std::time::Duration;

/// The time control GTP's time_settings / kgs-time_settings set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: a fixed time per move.
    None,
    /// Main time, then `stones` moves in every `byo_ms` (Canadian; absolute when
    /// `byo_ms` is 0).
    Canadian {
        main_ms: u64,
        byo_ms: u64,
        stones: u32,
    },
    /// Main time, then `periods` periods of `byo_ms` each, one move per period.
    Japanese {
        main_ms: u64,
        byo_ms: u64,
        periods: u32,
    },
}

/// What the clock says is left for one side (time_left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Left {
    pub ms: u64,
    /// Stones (Canadian) or periods (Japanese) left; 0 in main time.
    pub stones: u32,
}

impl Left {
    /// Untold, a side is taken to have the whole main time (`main_ms`) left.
    fn main(main_ms: u64) -> Left {
        Left {
            ms: main_ms,
            stones: 0,
        }
    }
}

/// The time for one move: `to_go` is roughly how many moves this side still has to
/// play; `default` applies without a clock. Keeps 60 ms + 5 % in hand.
pub fn move_budget(
    clock: TimeControl,
    left: Option<Left>,
    to_go: u64,
    default: Duration,
) -> Duration {
    let to_go = to_go.max(1);
    let margin = |ms: u64| ms.saturating_sub(60 + ms / 20);
    let ms = match clock {
        TimeControl::None => return default,
        TimeControl::Canadian {
            main_ms,
            byo_ms,
            stones,
        } => {
            let left = left.unwrap_or(Left::main(main_ms));
            if left.stones > 0 {
                margin(left.ms / left.stones as u64)
            } else if left.ms == 0 && byo_ms > 0 && stones > 0 {
                // No main time (left): byo-yomi from the first move.
                margin(byo_ms / stones as u64)
            } else if byo_ms == 0 || stones == 0 {
                margin(left.ms / to_go)
            } else {
                // Main time spread, plus what byo-yomi will give per move anyway.
                margin(left.ms / to_go + byo_ms / stones as u64 / 2)
                    .min(margin(left.ms + byo_ms / stones as u64))
            }
        }
        TimeControl::Japanese {
            main_ms, byo_ms, ..
        } => {
            let left = left.unwrap_or(Left::main(main_ms));
            if left.stones > 0 && left.ms <= byo_ms {
                margin(left.ms.min(byo_ms))
            } else {
                margin(left.ms / to_go + byo_ms * 3 / 4).min(margin(left.ms + byo_ms))
            }
        }
    };
    // However long the clock, one move never takes more than an hour.
    Duration::from_millis(ms.clamp(20, MAX_MOVE_MS))
}

/// Whether time a move leaves unused carries over to later moves: in main time, and
/// in a Canadian period with more stones to play. Without a clock, in a Japanese period
/// or on a period's last stone it is lost, so stopping a search early only wastes it
/// (the tree the extra playouts grow is reused on the next move).
pub fn saves_time(clock: TimeControl, left: Option<Left>) -> bool {
    match clock {
        TimeControl::None => false,
        TimeControl::Canadian {
            main_ms,
            byo_ms,
            stones,
        } => {
            let left = left.unwrap_or(Left::main(main_ms));
            if left.stones > 0 {
                left.stones > 1
            } else {
                // Main time left, or absolute time; with none, byo-yomi from the start.
                !(left.ms == 0 && byo_ms > 0 && stones <= 1)
            }
        }
        TimeControl::Japanese {
            main_ms, byo_ms, ..
        } => {
            let left = left.unwrap_or(Left::main(main_ms));
            // In a period, or with no main time, a move has only its own period.
            let in_period = left.stones > 0 && left.ms <= byo_ms;
            let no_main_time = left.stones == 0 && left.ms == 0;
            !(in_period || no_main_time)
        }
    }
}

/// The longest a single move may think, whatever the clock says.
pub const MAX_MOVE_MS: u64 = 3_600_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let d = Duration::from_secs(2);
        assert_eq!(move_budget(TimeControl::None, None, 30, d), d);
        // Byo-yomi of 2 s per move from the start: a little under 2 s.
        let byo = TimeControl::Canadian {
            main_ms: 0,
            byo_ms: 2000,
            stones: 1,
        };
        let b = move_budget(byo, None, 30, d);
        assert!(
            b < Duration::from_secs(2) && b > Duration::from_millis(1500),
            "{b:?}"
        );
        // Ten seconds left for five stones: under two seconds each.
        let left = Left {
            ms: 10_000,
            stones: 5,
        };
        assert!(move_budget(byo, Some(left), 30, d) < Duration::from_secs(2));
        // Absolute time: a share of what is left, never all of it.
        let abs = TimeControl::Canadian {
            main_ms: 60_000,
            byo_ms: 0,
            stones: 0,
        };
        let b = move_budget(
            abs,
            Some(Left {
                ms: 1000,
                stones: 0,
            }),
            1,
            d,
        );
        assert!(b < Duration::from_secs(1), "{b:?}");
        let huge = TimeControl::Canadian {
            main_ms: u64::MAX / 4,
            byo_ms: 0,
            stones: 0,
        };
        assert_eq!(
            move_budget(huge, None, 30, d),
            Duration::from_millis(MAX_MOVE_MS)
        );
        let jp = TimeControl::Japanese {
            main_ms: 0,
            byo_ms: 5000,
            periods: 3,
        };
        let b = move_budget(
            jp,
            Some(Left {
                ms: 5000,
                stones: 3,
            }),
            30,
            d,
        );
        assert!(b < Duration::from_secs(5), "{b:?}");
    }

    #[test]
    fn only_banked_time_is_saved_by_stopping_early() {
        let byo = |main_ms, stones| TimeControl::Canadian {
            main_ms,
            byo_ms: 2000,
            stones,
        };
        let left = |ms, stones| Some(Left { ms, stones });
        assert!(!saves_time(TimeControl::None, None));
        // Byo-yomi of one stone from the first move, told or not.
        assert!(!saves_time(byo(0, 1), None));
        assert!(!saves_time(byo(0, 1), left(2000, 1)));
        assert!(!saves_time(byo(60_000, 5), left(800, 1)));
        // Main time, or more stones to play in the period.
        assert!(saves_time(byo(60_000, 1), None));
        assert!(saves_time(byo(60_000, 1), left(30_000, 0)));
        assert!(saves_time(byo(0, 5), left(9000, 4)));
        let abs = TimeControl::Canadian {
            main_ms: 60_000,
            byo_ms: 0,
            stones: 0,
        };
        assert!(saves_time(abs, left(1000, 0)));
        let jp = |ms, stones| {
            saves_time(
                TimeControl::Japanese {
                    main_ms: 60_000,
                    byo_ms: 5000,
                    periods: 3,
                },
                left(ms, stones),
            )
        };
        assert!(jp(30_000, 0));
        assert!(!jp(5000, 3));
    }
}
