//! The five-in-a-row variants by name, and the rule facts each one is made of.

use std::fmt;
use std::str::FromStr;

use super::pattern::LineRule;
use crate::core::{Color, RuleError};

/// Every five-in-a-row variant of `shared/rules/five-in-a-row.md`, plus `go-bang-exact`
/// (Gomocup `rule 3`: the continuous game counting exact fives only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Freestyle,
    Standard,
    Renju,
    Caro,
    CaroExact,
    OldRenju,
    AntiRenju,
    GomokuPro,
    GomokuSharedCentre,
    GomokuNarabe,
    Pente,
    KeryoPente,
    NiNuki,
    GoBang,
    GoBangExact,
    NiNukiCount,
}

/// Which moves a variant forbids, and to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoulRule {
    None,
    /// RIF renju, black only: 4-4, 3-3 (recursive), overline.
    Renju,
    /// 3-3 (recursive) for black only (old renju).
    DoubleThreeBlack,
    /// 3-3 (recursive) for both colours (gomoku-narabe).
    DoubleThreeBoth,
    /// Black may not make a straight four (anti-renju).
    StraightFourBlack,
}

/// Custodial captures: how many enemy stones one bracket may take, and the win by count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captures {
    pub min_len: usize,
    pub max_len: usize,
    /// Stones a side must capture to win; `None` where captures never win.
    pub win_at: Option<u16>,
}

impl Variant {
    pub const ALL: [Variant; 16] = [
        Variant::Freestyle,
        Variant::Standard,
        Variant::Renju,
        Variant::Caro,
        Variant::CaroExact,
        Variant::OldRenju,
        Variant::AntiRenju,
        Variant::GomokuPro,
        Variant::GomokuSharedCentre,
        Variant::GomokuNarabe,
        Variant::Pente,
        Variant::KeryoPente,
        Variant::NiNuki,
        Variant::GoBang,
        Variant::GoBangExact,
        Variant::NiNukiCount,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Freestyle => "freestyle",
            Variant::Standard => "standard",
            Variant::Renju => "renju",
            Variant::Caro => "caro",
            Variant::CaroExact => "caro-exact",
            Variant::OldRenju => "old-renju",
            Variant::AntiRenju => "anti-renju",
            Variant::GomokuPro => "gomoku-pro",
            Variant::GomokuSharedCentre => "gomoku-shared-centre",
            Variant::GomokuNarabe => "gomoku-narabe",
            Variant::Pente => "pente",
            Variant::KeryoPente => "keryo-pente",
            Variant::NiNuki => "ni-nuki",
            Variant::GoBang => "go-bang",
            Variant::GoBangExact => "go-bang-exact",
            Variant::NiNukiCount => "ni-nuki-count",
        }
    }

    /// The variant of a Gomocup `INFO rule` value, if it names one.
    pub const fn from_gomocup_rule(rule: u32) -> Option<Variant> {
        match rule {
            0 => Some(Variant::Freestyle),
            1 => Some(Variant::Standard),
            2 => Some(Variant::GoBang),
            3 => Some(Variant::GoBangExact),
            4 => Some(Variant::Renju),
            8 => Some(Variant::Caro),
            9 => Some(Variant::CaroExact),
            _ => None,
        }
    }

    /// The Gomocup `INFO rule` value that names the variant, if one does (the inverse of
    /// [`Variant::from_gomocup_rule`]).
    pub fn gomocup_rule(self) -> Option<u32> {
        (0..16).find(|&r| Variant::from_gomocup_rule(r) == Some(self))
    }

    /// The board side the rules document gives the variant.
    pub const fn default_size(self) -> usize {
        match self {
            Variant::OldRenju
            | Variant::NiNuki
            | Variant::GoBang
            | Variant::GoBangExact
            | Variant::NiNukiCount => 19,
            _ => 15,
        }
    }

    /// Which fives win for `color`, as the line patterns see them.
    pub const fn line_rule(self, color: Color) -> LineRule {
        match self {
            Variant::Standard | Variant::GoBangExact => LineRule::Exact,
            Variant::Renju => match color {
                Color::Black => LineRule::Exact,
                Color::White => LineRule::Free,
            },
            Variant::Caro => LineRule::Caro,
            Variant::CaroExact => LineRule::CaroExact,
            _ => LineRule::Free,
        }
    }

    pub const fn foul_rule(self) -> FoulRule {
        match self {
            Variant::Renju => FoulRule::Renju,
            Variant::OldRenju => FoulRule::DoubleThreeBlack,
            Variant::GomokuNarabe => FoulRule::DoubleThreeBoth,
            Variant::AntiRenju => FoulRule::StraightFourBlack,
            _ => FoulRule::None,
        }
    }

    /// Whether `color` has forbidden moves in this variant.
    pub const fn has_fouls(self, color: Color) -> bool {
        match self.foul_rule() {
            FoulRule::None => false,
            FoulRule::DoubleThreeBoth => true,
            _ => matches!(color, Color::Black),
        }
    }

    pub const fn captures(self) -> Option<Captures> {
        match self {
            Variant::Pente => Some(Captures {
                min_len: 2,
                max_len: 2,
                win_at: Some(10),
            }),
            Variant::KeryoPente => Some(Captures {
                min_len: 2,
                max_len: 3,
                win_at: Some(15),
            }),
            Variant::NiNuki | Variant::NiNukiCount => Some(Captures {
                min_len: 2,
                max_len: 2,
                win_at: None,
            }),
            _ => None,
        }
    }

    /// Counting games: rows are scored as they are made and play goes on.
    pub const fn counting(self) -> bool {
        matches!(
            self,
            Variant::GoBang | Variant::GoBangExact | Variant::NiNukiCount
        )
    }

    /// Stones each side may place, where the variant limits them.
    pub const fn supply(self) -> Option<u16> {
        match self {
            Variant::GomokuNarabe => Some(35),
            Variant::NiNuki | Variant::GoBang | Variant::GoBangExact | Variant::NiNukiCount => {
                Some(180)
            }
            _ => None,
        }
    }

    /// Gomoku-narabe: black loses on placing its last stone without a five.
    pub const fn black_loses_when_out_of_stones(self) -> bool {
        matches!(self, Variant::GomokuNarabe)
    }

    /// The first stone must go on the centre.
    pub const fn centre_first(self) -> bool {
        matches!(
            self,
            Variant::Renju
                | Variant::OldRenju
                | Variant::AntiRenju
                | Variant::GomokuPro
                | Variant::GomokuSharedCentre
                | Variant::Pente
                | Variant::KeryoPente
        )
    }

    /// Black's second stone (move 3) must be at Chebyshev distance 3 or more from the
    /// centre (gomoku-pro's central 5x5; pente's tournament rule).
    pub const fn second_stone_far(self) -> bool {
        matches!(
            self,
            Variant::GomokuPro | Variant::Pente | Variant::KeryoPente
        )
    }

    /// The first stone (on the centre) belongs to whoever is moving.
    pub const fn shared_centre(self) -> bool {
        matches!(self, Variant::GomokuSharedCentre)
    }

    /// A side may pass; two passes in a row draw.
    pub const fn passes(self) -> bool {
        matches!(self, Variant::Renju)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = RuleError;

    /// Accepts the names of the rules document, case-insensitively, with `_` for `-`
    /// and `gomoku-shared-center` for the American spelling.
    fn from_str(s: &str) -> Result<Variant, RuleError> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        let norm = if norm == "gomoku-shared-center" {
            "gomoku-shared-centre".to_string()
        } else {
            norm
        };
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == norm)
            .ok_or_else(|| RuleError::UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert_eq!("Renju".parse::<Variant>().unwrap(), Variant::Renju);
        assert!(matches!(
            "gomoku".parse::<Variant>(),
            Err(RuleError::UnknownVariant(_))
        ));
    }
}
