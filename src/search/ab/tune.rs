//! The numbers a tuner may set by name (`tengen gomocup --tune NAME=V,...`): the
//! evaluation's values and the search's margins and ordering bonuses, each with its
//! built-in value. `bench/spsa_rapfi.py` tunes them by games against another brain.
//!
//! They are fixed once a process, before its first search: the evaluation builds its
//! 20,736-entry table from them on first use, and a table rebuilt per search (or passed to
//! every evaluation) would cost the hot path what a tuning run is meant to measure.

use std::fmt;
use std::sync::OnceLock;

use super::eval::{Shape, THEIRS_RATIO, Threat, WEIGHTS, Weights};
use crate::games::fiar::Pattern;

/// The tunable numbers. The built-in ones are [`Params::BUILT_IN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub weights: Weights,
    /// Reverse futility's margin a ply.
    pub futility: i32,
    /// A quiet move's futility margin a ply.
    pub move_futility: i32,
    /// Razoring's margin a ply.
    pub razor: i32,
    /// Late-move reduction: ln(depth) ln(i) divided by this, in hundredths.
    pub lmr: i32,
    /// What ordering adds for a killer and for a counter-move.
    pub killer: i32,
    pub counter: i32,
}

/// Why a `--tune` list was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuneError {
    /// An item without `=`, or a value that is not an integer.
    Malformed(String),
    /// A name that is not one of [`NAMES`].
    UnknownName(String),
    /// A value outside what the name allows (see [`Params::parse`]).
    OutOfRange(String, i64),
    /// The numbers were already fixed (a search ran, or they were set before).
    AlreadySet,
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Malformed(item) => write!(f, "'{item}': expected NAME=INTEGER"),
            TuneError::UnknownName(name) => {
                write!(f, "unknown name '{name}' (known: {})", NAMES.join(" "))
            }
            TuneError::OutOfRange(name, v) => write!(f, "{name}={v}: out of range"),
            TuneError::AlreadySet => write!(f, "the tuned numbers are already fixed"),
        }
    }
}

impl std::error::Error for TuneError {}

/// Every name `--tune` knows, in the order `bench/spsa_rapfi.py` keeps them. The
/// evaluation's values are the side to move's; the other side's are the mover's times
/// `ratio` (thousandths) wherever any evaluation value or `ratio` is named.
pub const NAMES: [&str; 21] = [
    "flex1",
    "block2",
    "flex2",
    "block3",
    "flex3",
    "block4",
    "flex4",
    "three",
    "fourthree",
    "openfour",
    "s_dtwo",
    "s_threeplus",
    "s_c3plus",
    "s_fourplus",
    "ratio",
    "fut",
    "mfut",
    "razor",
    "lmr",
    "killer",
    "counter",
];

/// Where each evaluation name sits: (table, index) with table 0 the patterns, 1 the
/// threats, 2 the shapes (see [`super::eval::Values`]).
const EVAL_SLOTS: [(usize, usize); 14] = [
    (0, Pattern::Flex1 as usize),
    (0, Pattern::Block2 as usize),
    (0, Pattern::Flex2 as usize),
    (0, Pattern::Block3 as usize),
    (0, Pattern::Flex3 as usize),
    (0, Pattern::Block4 as usize),
    (0, Pattern::Flex4 as usize),
    (1, Threat::Three as usize),
    (1, Threat::FourThree as usize),
    (1, Threat::OpenFour as usize),
    (2, Shape::DoubleTwo as usize),
    (2, Shape::ThreePlus as usize),
    (2, Shape::ClosedThreePlus as usize),
    (2, Shape::FourPlus as usize),
];

impl Params {
    pub const BUILT_IN: Params = Params {
        weights: WEIGHTS,
        futility: super::FUTILITY_MARGIN,
        move_futility: super::MOVE_FUTILITY_MARGIN,
        razor: super::RAZOR_MARGIN,
        lmr: super::LMR_DIVISOR,
        killer: super::KILLER_BONUS,
        counter: super::COUNTER_BONUS,
    };

    /// The built-in numbers with those of `list` ("fut=190,lmr=210"; empty: none) set.
    /// Evaluation values 0–30,000, `ratio` 1–2,000 thousandths, the margins and bonuses
    /// 0–10,000, `lmr` 50–1,000 hundredths.
    pub fn parse(list: &str) -> Result<Params, TuneError> {
        let mut p = Params::BUILT_IN;
        let mut ratio = None;
        let mut eval_named = false;
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| TuneError::Malformed(item.to_string()))?;
            let name = name.trim();
            let v: i64 = value
                .trim()
                .parse()
                .map_err(|_| TuneError::Malformed(item.to_string()))?;
            let index = NAMES
                .iter()
                .position(|&n| n == name)
                .ok_or_else(|| TuneError::UnknownName(name.to_string()))?;
            let range = match name {
                "ratio" => 1..=2_000,
                "lmr" => 50..=1_000,
                _ if index < EVAL_SLOTS.len() => 0..=30_000,
                _ => 0..=10_000,
            };
            if !range.contains(&v) {
                return Err(TuneError::OutOfRange(name.to_string(), v));
            }
            let v = v as i32;
            if let Some(&(table, i)) = EVAL_SLOTS.get(index) {
                eval_named = true;
                let m = &mut p.weights.mine;
                match table {
                    0 => m.pattern[i] = v,
                    1 => m.threat[i] = v,
                    _ => m.shape[i] = v,
                }
                continue;
            }
            match name {
                "ratio" => ratio = Some(v),
                "fut" => p.futility = v,
                "mfut" => p.move_futility = v,
                "razor" => p.razor = v,
                "lmr" => p.lmr = v,
                "killer" => p.killer = v,
                _ => p.counter = v,
            }
        }
        if eval_named || ratio.is_some() {
            p.weights.theirs = p.weights.mine.scaled(ratio.unwrap_or(THEIRS_RATIO));
        }
        Ok(p)
    }
}

static PARAMS: OnceLock<Params> = OnceLock::new();

/// Fixes the process's numbers; refused once they are fixed (by an earlier call, or by
/// the first search or evaluation, which fixes the built-in ones).
pub fn set(p: Params) -> Result<(), TuneError> {
    PARAMS.set(p).map_err(|_| TuneError::AlreadySet)
}

/// The process's numbers: those [`set`] fixed, or the built-in ones.
pub fn params() -> &'static Params {
    PARAMS.get_or_init(|| Params::BUILT_IN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_list_is_the_built_in_numbers() {
        assert_eq!(Params::parse(""), Ok(Params::BUILT_IN));
        assert_eq!(Params::parse(" , "), Ok(Params::BUILT_IN));
    }

    #[test]
    fn the_built_in_values_name_by_name_give_the_built_in_table() {
        // The other side's built-in values are the mover's times the ratio: naming every value
        // at its built-in number must not move any of them.
        let w = &Params::BUILT_IN.weights.mine;
        let list: Vec<String> = NAMES
            .iter()
            .zip(EVAL_SLOTS)
            .map(|(n, (t, i))| {
                let v = [&w.pattern[..], &w.threat[..], &w.shape[..]][t][i];
                format!("{n}={v}")
            })
            .collect();
        assert_eq!(Params::parse(&list.join(",")), Ok(Params::BUILT_IN));
    }

    #[test]
    fn the_spsa_driver_starts_from_the_built_in_numbers() {
        // bench/spsa_rapfi.py keeps its own copy of the start values ("name": (value,
        // step)); a copy that drifted would tune from numbers the engine does not play.
        let driver = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/spsa_rapfi.py"));
        let list: Vec<String> = driver
            .lines()
            .filter_map(|l| {
                let (name, rest) = l.trim().strip_prefix('"')?.split_once("\": (")?;
                let value = rest.split(',').next()?;
                NAMES.contains(&name).then(|| format!("{name}={value}"))
            })
            .collect();
        assert_eq!(list.len(), NAMES.len(), "{list:?}");
        assert_eq!(Params::parse(&list.join(",")), Ok(Params::BUILT_IN));
    }

    #[test]
    fn names_set_their_own_number_and_the_other_side_follows_the_ratio() {
        let p = Params::parse("fut=150, lmr=250,openfour=3000,ratio=500").unwrap();
        assert_eq!((p.futility, p.lmr), (150, 250));
        assert_eq!(p.move_futility, Params::BUILT_IN.move_futility);
        assert_eq!(p.weights.mine.threat[5], 3000);
        assert_eq!(p.weights.theirs.threat[5], 1500);
        assert_eq!(
            p.weights.theirs.pattern[7],
            (p.weights.mine.pattern[7] + 1) / 2
        );
        let q = Params::parse("killer=10").unwrap();
        assert_eq!(q.weights, Params::BUILT_IN.weights);
        assert_eq!(q.killer, 10);
    }

    #[test]
    fn bad_lists_are_refused_with_what_is_wrong() {
        assert_eq!(
            Params::parse("fut"),
            Err(TuneError::Malformed("fut".into()))
        );
        assert_eq!(
            Params::parse("fut=1.5"),
            Err(TuneError::Malformed("fut=1.5".into()))
        );
        assert_eq!(
            Params::parse("speed=3"),
            Err(TuneError::UnknownName("speed".into()))
        );
        assert_eq!(
            Params::parse("lmr=0"),
            Err(TuneError::OutOfRange("lmr".into(), 0))
        );
        assert_eq!(
            Params::parse("flex3=-5"),
            Err(TuneError::OutOfRange("flex3".into(), -5))
        );
        assert!(
            TuneError::UnknownName("speed".into())
                .to_string()
                .contains("openfour")
        );
    }
}
