//! Zobrist hashing: the `Key` newtype and key tables generated at compile time.

use std::fmt;
use std::ops::{BitXor, BitXorAssign};

/// A 64-bit Zobrist key of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u64);

impl BitXor for Key {
    type Output = Key;
    #[inline]
    fn bitxor(self, rhs: Key) -> Key {
        Key(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Key {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Key) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// One step of SplitMix64: returns the next state and its output.
/// Good enough mixing for Zobrist keys and usable in `const` context.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// `N` pseudo-random keys from `seed`, computed at compile time when used in a `const`.
pub const fn key_table<const N: usize>(seed: u64) -> [Key; N] {
    let mut out = [Key(0); N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix64(state);
        state = s;
        out[i] = Key(k);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        static T: [Key; 4096] = key_table(1);
        let mut v: Vec<u64> = T.iter().map(|k| k.0).collect();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), 4096);
        assert!(v.iter().all(|&k| k != 0));
    }
}
