//! Go rule sets by name: ko and repetition, scoring, suicide, komi and the handicap
//! compensation, as `../shared/rules/go.md` and the servers' rule sets define them.

use std::fmt;
use std::str::FromStr;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate retaking of a single-stone ko.
    Simple,
    /// No move may recreate an earlier arrangement of stones.
    Positional,
    /// No move may recreate an earlier arrangement with the same side to move.
    Situational,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones plus surrounded empty points.
    Area,
    /// Surrounded empty points plus prisoners.
    Territory,
}

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    pub name: &'static str,
    pub ko: KoRule,
    pub scoring: Scoring,
    pub suicide: bool,
    pub komi: f32,
    /// White's compensation for handicap stones (see [`Rules::handicap_bonus`]).
    bonus: Bonus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bonus {
    None,
    /// N points for N stones.
    N,
    /// N - 1 points for N stones (AGA).
    NMinusOne,
}

impl Rules {
    pub const CHINESE: Rules = Rules {
        name: "chinese",
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        suicide: false,
        komi: 7.5,
        bonus: Bonus::N,
    };
    pub const JAPANESE: Rules = Rules {
        name: "japanese",
        ko: KoRule::Simple,
        scoring: Scoring::Territory,
        suicide: false,
        komi: 6.5,
        bonus: Bonus::None,
    };
    pub const AGA: Rules = Rules {
        name: "aga",
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        suicide: false,
        komi: 7.5,
        bonus: Bonus::NMinusOne,
    };
    pub const NEW_ZEALAND: Rules = Rules {
        name: "new-zealand",
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        suicide: true,
        komi: 7.0,
        bonus: Bonus::None,
    };
    pub const TROMP_TAYLOR: Rules = Rules {
        name: "tromp-taylor",
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        suicide: true,
        komi: 7.5,
        bonus: Bonus::None,
    };
    pub const ALL: [Rules; 5] = [
        Rules::CHINESE,
        Rules::JAPANESE,
        Rules::AGA,
        Rules::NEW_ZEALAND,
        Rules::TROMP_TAYLOR,
    ];

    /// Points added to white's score for `stones` handicap stones.
    pub fn handicap_bonus(&self, stones: usize) -> f32 {
        match self.bonus {
            Bonus::None => 0.0,
            Bonus::N => stones as f32,
            Bonus::NMinusOne => stones.saturating_sub(1) as f32,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::CHINESE
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A rule set name nobody knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rules '{}' (chinese, japanese, aga, new-zealand, tromp-taylor)",
            self.0
        )
    }
}

impl FromStr for Rules {
    type Err = UnknownRules;

    /// Accepts the names above in any case, with `_` for `-` (KGS writes `new_zealand`),
    /// and `korean` as territory scoring like `japanese`.
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        let n = s.trim().to_ascii_lowercase().replace('_', "-");
        let n = match n.as_str() {
            "tt" | "tromp" | "tromptaylor" => "tromp-taylor",
            "nz" | "newzealand" => "new-zealand",
            "korean" => "japanese",
            "cn" => "chinese",
            "jp" => "japanese",
            other => other,
        };
        Rules::ALL
            .into_iter()
            .find(|r| r.name == n)
            .ok_or_else(|| UnknownRules(s.trim().to_string()))
    }
}
