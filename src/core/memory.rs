//! How much memory this machine has, so that no setting (a Gomocup `hash_size`, a
//! GTP memory limit) can ask for more than is there and get the process killed.

/// Total physical memory, from `/proc/meminfo` where there is one.
pub fn physical_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_total(&text)
}

fn meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The most one big table of this process may take: half the machine's memory, at
/// most 8 GiB (a table that size is already far past what a move's search fills), or
/// 1 GiB where the machine's memory is unknown.
pub fn table_cap() -> usize {
    let cap = physical_bytes().map_or(1 << 30, |b| (b / 2).min(8 << 30));
    usize::try_from(cap).unwrap_or(usize::MAX)
}

/// `n` values of `T` in memory the system hands out already zeroed: a large table costs
/// nothing until it is touched (the page it lands on). `None` when the allocator
/// refuses, or for `n == 0` or a zero-sized `T`.
///
/// # Safety
/// All-zero bytes must be a valid `T` (integers and atomics, and structs of them, are).
pub unsafe fn zeroed_slice<T>(n: usize) -> Option<Box<[T]>> {
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout is non-zero-sized and is that of `[T; n]`, which the box frees
    // with the same layout; the caller vouches that zeroed memory holds valid `T`s.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut T;
        if p.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_kilobytes_and_junk_gives_nothing() {
        let t = "MemTotal:       24606012 kB\nMemFree:  1 kB\n";
        assert_eq!(meminfo_total(t), Some(24606012 * 1024));
        assert_eq!(meminfo_total("MemTotal: lots"), None);
        assert_eq!(meminfo_total(""), None);
        assert!(table_cap() >= 1 << 20);
    }
}
