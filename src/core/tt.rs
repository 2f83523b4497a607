//! A transposition table shared by search threads without locks.
//!
//! Each slot is two `AtomicU64`: the data word and the key xor-ed with it. A reader
//! that sees a torn pair (one word from one write, one from another) finds a key that
//! does not match and treats the slot as empty, so no lock is needed. Buckets of two
//! slots; the index is the multiply-high of the key by the bucket count.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::{Key, memory};

/// What a stored score says about the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// At least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A game-specific move code; 0 for none.
    pub mv: u16,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
}

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.depth as u64) << 32
            | (self.bound as u64) << 40
            | ((generation & 0x3f) as u64) << 42
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            bound,
        })
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared table.
pub struct Table {
    slots: Box<[Slot]>,
    generation: AtomicU8,
}

/// Bytes one slot takes.
pub const SLOT_BYTES: usize = 16;

/// The largest table whose pages are touched when it is made (see [`Table::new`]).
const PRETOUCH_BYTES: usize = 1 << 30;

impl Table {
    /// A table of about `bytes` bytes (at least one bucket), at most
    /// [`memory::table_cap`]; when the allocator refuses that much, the largest half,
    /// quarter… it grants. Never panics or aborts on a size.
    pub fn new(bytes: usize) -> Table {
        let mut n = (bytes.min(memory::table_cap()) / SLOT_BYTES / 2).max(1) * 2;
        loop {
            // SAFETY: a slot is two `AtomicU64`, which have the bit layout of `u64`: zeroed
            // memory is empty slots.
            if let Some(slots) = unsafe { memory::zeroed_slice::<Slot>(n) } {
                let table = Table {
                    slots,
                    generation: AtomicU8::new(0),
                };
                // The allocator hands out untouched pages: the first write to each would
                // fault during the search, and with several search threads every such
                // fault stops the others for a TLB flush (15% of a two-thread search's
                // time in perf). Touching them now costs a few ms per 100 MB, once. A
                // table larger than [`PRETOUCH_BYTES`] stays lazy: touching it would take
                // seconds and hold that much memory whether the search needs it or not.
                if table.bytes() <= PRETOUCH_BYTES {
                    table.wipe();
                }
                return table;
            }
            if n <= 2 {
                // Not even one bucket: the allocator's own failure path.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Slot; 2]>());
            }
            n = (n / 4).max(1) * 2;
        }
    }

    /// Bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Forgets everything. A table larger than [`PRETOUCH_BYTES`] is given fresh
    /// untouched pages instead of being overwritten: writing gigabytes of zeros takes
    /// seconds (a manager that sends `YXHASHCLEAR` after a huge `hash_size` waited that
    /// long for the brain's next answer) and would make the whole table resident.
    pub fn clear(&mut self) {
        let bytes = self.bytes();
        if bytes > PRETOUCH_BYTES {
            // The old pages go back first, so the two never count against memory
            // together.
            self.slots = Box::new([]);
            *self = Table::new(bytes);
            return;
        }
        self.wipe();
    }

    /// Writes every slot empty (which also makes its pages resident).
    fn wipe(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: Key) -> usize {
        let buckets = (self.slots.len() / 2) as u128;
        (((key.0 as u128) * buckets) >> 64) as usize * 2
    }

    pub fn probe(&self, key: Key) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + 2] {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key.0 {
                return Entry::unpack(data);
            }
        }
        None
    }

    pub fn store(&self, key: Key, entry: Entry) {
        let b = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed);
        // Replace the slot holding this key, else the shallower or older one.
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in b..b + 2 {
            let s = &self.slots[i];
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key.0 {
                victim = i;
                break;
            }
            let age = (generation.wrapping_sub((data >> 42) as u8) & 0x3f) as i32;
            let value = ((data >> 32) & 0xff) as i32 - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = entry.pack(generation);
        let s = &self.slots[victim];
        s.data.store(data, Ordering::Relaxed);
        s.check.store(key.0 ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1 << 16);
        let e = Entry {
            mv: 0x1234,
            score: -321,
            depth: 7,
            bound: Bound::Lower,
        };
        t.store(Key(42), e);
        assert_eq!(t.probe(Key(42)), Some(e));
        assert_eq!(t.probe(Key(43)), None);
        t.clear();
        assert_eq!(t.probe(Key(42)), None);
    }

    #[test]
    fn a_big_table_is_cleared_by_new_pages_and_keeps_its_size() {
        let e = Entry {
            mv: 9,
            score: 5,
            depth: 3,
            bound: Bound::Upper,
        };
        let mut t = Table::new(PRETOUCH_BYTES * 2);
        let bytes = t.bytes();
        t.store(Key(99), e);
        assert_eq!(t.probe(Key(99)), Some(e));
        t.clear();
        assert_eq!(t.probe(Key(99)), None);
        assert_eq!(t.bytes(), bytes);
        t.store(Key(99), e);
        assert_eq!(t.probe(Key(99)), Some(e));
    }

    #[test]
    fn a_torn_slot_reads_as_empty() {
        let t = Table::new(1 << 10);
        t.store(
            Key(7),
            Entry {
                mv: 1,
                score: 1,
                depth: 1,
                bound: Bound::Exact,
            },
        );
        let b = t.bucket(Key(7));
        // Another write's data word with this key's check word: the key no longer matches.
        t.slots[b].data.fetch_xor(1 << 20, Ordering::Relaxed);
        t.slots[b + 1].data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert_eq!(t.probe(Key(7)), None);
    }
}
