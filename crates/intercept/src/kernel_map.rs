//! `kernel_object` -> kernel id (and application signal -> profiling slot), readable without locks
//! from the hooks.
//!
//! An open-addressing table with a fixed number of entries, filled when executables are frozen
//! (cold path) or dispatches are submitted, and read for every dispatch (hot path). Keys are never removed: when an executable
//! is destroyed its entries' ids are set to 0 ("unknown"), and a later executable loaded at the
//! same address overwrites the id.

use std::sync::atomic::{AtomicU64, Ordering};

/// Longest probe sequence: a key is stored within this many slots of its hash or not at all, so
/// a lookup never scans a nearly full table (a miss costs at most this many loads).
const MAX_PROBE: usize = 128;

/// The map. Capacity is fixed at construction (the only allocation).
pub struct KernelMap {
    keys: Box<[AtomicU64]>,
    ids: Box<[AtomicU64]>,
    mask: usize,
}

impl KernelMap {
    /// A map with room for `capacity` (rounded up to a power of two) kernel objects.
    pub fn new(capacity: usize) -> Self {
        let cap = capacity.max(16).next_power_of_two();
        Self {
            keys: (0..cap).map(|_| AtomicU64::new(0)).collect(),
            ids: (0..cap).map(|_| AtomicU64::new(0)).collect(),
            mask: cap - 1,
        }
    }

    fn slot(&self, kernel_object: u64) -> usize {
        // Descriptors are 64-byte aligned; mix the remaining bits.
        ((kernel_object >> 6).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// Maps `kernel_object` to `id`; false when the table is full or the key is 0.
    pub fn insert(&self, kernel_object: u64, id: u64) -> bool {
        if kernel_object == 0 {
            return false;
        }
        let mut i = self.slot(kernel_object);
        for _ in 0..=self.mask.min(MAX_PROBE) {
            match self.keys[i].compare_exchange(0, kernel_object, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    self.ids[i].store(id, Ordering::Release);
                    return true;
                }
                Err(k) if k == kernel_object => {
                    self.ids[i].store(id, Ordering::Release);
                    return true;
                }
                Err(_) => i = (i + 1) & self.mask,
            }
        }
        false
    }

    /// The id of `kernel_object`, 0 when unknown.
    pub fn get(&self, kernel_object: u64) -> u64 {
        if kernel_object == 0 {
            return 0;
        }
        let mut i = self.slot(kernel_object);
        for _ in 0..=self.mask.min(MAX_PROBE) {
            let k = self.keys[i].load(Ordering::Acquire);
            if k == kernel_object {
                return self.ids[i].load(Ordering::Acquire);
            }
            if k == 0 {
                return 0;
            }
            i = (i + 1) & self.mask;
        }
        0
    }

    /// Forgets every kernel object in `[base, base + size)` (its code object was unloaded).
    pub fn forget_range(&self, base: u64, size: u64) {
        for (k, id) in self.keys.iter().zip(self.ids.iter()) {
            let key = k.load(Ordering::Acquire);
            if key >= base && key - base < size {
                id.store(0, Ordering::Release);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_are_bounded_in_a_full_table() {
        let m = KernelMap::new(1 << 12);
        let mut stored = 0;
        for i in 1..=(1u64 << 12) {
            if m.insert(i * 64, i) {
                stored += 1;
            }
        }
        assert!(stored > 1 << 11, "most keys fit ({stored})");
        // A miss in a full table stops after MAX_PROBE slots instead of scanning all of it.
        assert_eq!(m.get(0xdead_beef_0000), 0);
        for i in 1..=(1u64 << 12) {
            let id = m.get(i * 64);
            assert!(id == 0 || id == i);
        }
    }

    #[test]
    fn insert_get_forget_and_reuse() {
        let m = KernelMap::new(16);
        assert!(m.insert(0x1000, 1));
        assert!(m.insert(0x1040, 2));
        assert_eq!((m.get(0x1000), m.get(0x1040), m.get(0x2000), m.get(0)), (1, 2, 0, 0));
        m.forget_range(0x1000, 0x40);
        assert_eq!((m.get(0x1000), m.get(0x1040)), (0, 2));
        assert!(m.insert(0x1000, 3));
        assert_eq!(m.get(0x1000), 3);
        for i in 0..14 {
            assert!(m.insert(0x10_0000 + i * 64, 10 + i));
        }
        assert!(!m.insert(0x99_0000, 99), "full");
        assert_eq!(m.get(0x10_0000 + 13 * 64), 23);
    }
}
