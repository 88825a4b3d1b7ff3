//! Fixed-capacity lock-free maps from a 64-bit handle to a 64-bit value, read from the hooks:
//! `kernel_object -> kernel id` and `application completion signal -> profiling slot`.
//!
//! Design: buckets of [`BUCKET`] keys, each bucket one 64-byte cache line, and two candidate
//! buckets per key (two independent hashes, "two choices"). An insert takes a free entry of the
//! less loaded candidate; a lookup reads at most two cache lines. Entries are removed for real
//! (the key word goes back to 0), so a long run with millions of distinct keys never fills the
//! map as long as the *live* keys fit: there are no probe chains, hence no tombstones. When both
//! candidate buckets are full the insert fails and the caller counts it (a `LossReason`); with
//! the capacities used here (at least twice the live entries) that takes an adversarial set of
//! handles.
//!
//! Rejected: linear probing with a bounded probe length (the previous design). Its keys could
//! never be removed without tombstones, so the application-signal map filled up after ~64K
//! distinct signals and every later insert failed.

use std::sync::atomic::{AtomicU64, Ordering};

/// Keys per bucket: one cache line of `u64` keys.
pub const BUCKET: usize = 8;

#[repr(C, align(64))]
struct Bucket {
    keys: [AtomicU64; BUCKET],
}

/// Position of an entry, returned by inserts so that the owner can remove exactly that entry.
pub type Pos = u32;

/// No position.
pub const NO_POS: Pos = u32::MAX;

/// The map. Capacity is fixed at construction (the only allocation).
pub struct KernelMap {
    buckets: Box<[Bucket]>,
    values: Box<[AtomicU64]>,
    mask: usize,
    /// Keys used per bucket ([`BUCKET`], or fewer in a [`KernelMap::limited`] map).
    width: usize,
}

impl KernelMap {
    /// A map with room for `capacity` entries (rounded up to a power of two number of buckets).
    pub fn new(capacity: usize) -> Self {
        let n = capacity.div_ceil(BUCKET).max(2).next_power_of_two();
        Self {
            buckets: (0..n).map(|_| Bucket { keys: std::array::from_fn(|_| AtomicU64::new(0)) }).collect(),
            values: (0..n * BUCKET).map(|_| AtomicU64::new(0)).collect(),
            mask: n - 1,
            width: BUCKET,
        }
    }

    /// A map that holds exactly `entries` keys (rounded up to even, at most `2 * BUCKET`): two
    /// buckets using `entries / 2` keys each, so every key has both and an insert fails exactly
    /// when the map is full. Larger requests get [`KernelMap::new`]. For tests of a full table
    /// (`ROCPROF_RS_LIMITS`).
    pub fn limited(entries: usize) -> Self {
        if entries > 2 * BUCKET {
            return Self::new(entries);
        }
        let mut m = Self::new(2 * BUCKET);
        debug_assert_eq!(m.buckets.len(), 2);
        m.width = entries.div_ceil(2).clamp(1, BUCKET);
        m
    }

    /// Total entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * self.width
    }

    /// Entry positions, used or not (positions are `bucket * BUCKET + key index`).
    fn slots(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    /// The two candidate buckets of `key`.
    fn candidates(&self, key: u64) -> [usize; 2] {
        let h = (key ^ (key >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let a = (h >> 40) as usize & self.mask;
        let mut b = (h >> 16) as usize & self.mask;
        if b == a {
            b = a ^ 1;
        }
        [a, b]
    }

    fn key_at(&self, pos: usize) -> &AtomicU64 {
        &self.buckets[pos / BUCKET].keys[pos % BUCKET]
    }

    fn free_in(&self, bucket: usize) -> usize {
        self.buckets[bucket].keys[..self.width].iter().filter(|k| k.load(Ordering::Relaxed) == 0).count()
    }

    /// Claims a free entry for `key` (0 is not a key) and stores `value`; duplicates of `key` are
    /// allowed (each entry is owned by whoever inserted it). `None` when both candidate buckets
    /// are full.
    pub fn insert_new(&self, key: u64, value: u64) -> Option<Pos> {
        if key == 0 {
            return None;
        }
        let [a, b] = self.candidates(key);
        let order = if self.free_in(b) > self.free_in(a) { [b, a] } else { [a, b] };
        for bucket in order {
            for (i, k) in self.buckets[bucket].keys[..self.width].iter().enumerate() {
                if k.load(Ordering::Relaxed) == 0
                    && k.compare_exchange(0, key, Ordering::AcqRel, Ordering::Relaxed).is_ok()
                {
                    let pos = bucket * BUCKET + i;
                    self.values[pos].store(value, Ordering::Release);
                    return Some(pos as Pos);
                }
            }
        }
        None
    }

    /// Maps `key` to `value`: updates every entry of `key`, or claims one. False when the key is 0
    /// or the map has no room for it.
    pub fn insert(&self, key: u64, value: u64) -> bool {
        if key == 0 {
            return false;
        }
        let mut found = false;
        self.for_each_pos(key, |pos| {
            self.values[pos].store(value, Ordering::Release);
            found = true;
        });
        found || self.insert_new(key, value).is_some()
    }

    fn for_each_pos(&self, key: u64, mut f: impl FnMut(usize)) {
        for bucket in self.candidates(key) {
            for (i, k) in self.buckets[bucket].keys[..self.width].iter().enumerate() {
                if k.load(Ordering::Acquire) == key {
                    f(bucket * BUCKET + i);
                }
            }
        }
    }

    /// The value of (the first entry of) `key`, 0 when absent.
    pub fn get(&self, key: u64) -> u64 {
        if key == 0 {
            return 0;
        }
        let mut v = 0;
        self.for_each_pos(key, |pos| {
            if v == 0 {
                v = self.values[pos].load(Ordering::Acquire);
            }
        });
        v
    }

    /// Calls `f(value)` for every live entry of `key` (values of entries being inserted or
    /// removed right now may be 0 and are skipped). Two cache lines, no allocation.
    pub fn for_each(&self, key: u64, mut f: impl FnMut(u64)) {
        if key == 0 {
            return;
        }
        self.for_each_pos(key, |pos| {
            let v = self.values[pos].load(Ordering::Acquire);
            if v != 0 {
                f(v);
            }
        });
    }

    /// Removes the entry at `pos` if it still holds `key` (its owner's removal).
    pub fn remove_at(&self, pos: Pos, key: u64) {
        let pos = pos as usize;
        if pos >= self.slots() || key == 0 {
            return;
        }
        let k = self.key_at(pos);
        if k.load(Ordering::Acquire) == key {
            self.values[pos].store(0, Ordering::Release);
            let _ = k.compare_exchange(key, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }

    /// Removes every key in `[base, base + size)` (their code object was unloaded).
    pub fn forget_range(&self, base: u64, size: u64) {
        for pos in 0..self.slots() {
            let k = self.key_at(pos);
            let key = k.load(Ordering::Acquire);
            if key != 0 && key >= base && key - base < size {
                self.values[pos].store(0, Ordering::Release);
                let _ = k.compare_exchange(key, 0, Ordering::AcqRel, Ordering::Relaxed);
            }
        }
    }

    /// Removes everything (the runtime destroyed every signal at shutdown).
    pub fn clear(&self) {
        for pos in 0..self.slots() {
            self.values[pos].store(0, Ordering::Release);
            self.key_at(pos).store(0, Ordering::Release);
        }
    }

    /// Live entries (a scan; tests and diagnostics).
    pub fn len(&self) -> usize {
        (0..self.slots()).filter(|&p| self.key_at(p).load(Ordering::Relaxed) != 0).count()
    }

    /// True when no entry is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limited_map_holds_exactly_its_entries_and_frees_them() {
        let m = KernelMap::limited(4);
        assert_eq!(m.capacity(), 4);
        let pos: Vec<Pos> = (1..=4u64).map(|k| m.insert_new(k * 0x40, k).expect("room")).collect();
        assert_eq!(m.insert_new(0x1000, 9), None, "the fifth key does not fit");
        assert_eq!(m.len(), 4);
        m.remove_at(pos[2], 3 * 0x40);
        assert!(m.insert_new(0x1000, 9).is_some(), "a removed entry is reused");
        assert_eq!((m.get(0x1000), m.get(0x40), m.get(3 * 0x40)), (9, 1, 0));
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
        assert!(m.insert(0x1000, 4), "an existing key is updated, not duplicated");
        assert_eq!(m.len(), 2);
        assert!(!m.insert(0, 9), "0 is not a key");
    }

    #[test]
    fn a_full_map_refuses_and_removal_makes_room_for_ever_new_keys() {
        let m = KernelMap::new(64);
        assert_eq!(m.capacity(), 64);
        // Fill it: two choices place every key while any candidate bucket has room.
        let mut placed = Vec::new();
        let mut key = 0x7000_0000u64;
        while placed.len() < 64 {
            key += 64;
            match m.insert_new(key, key) {
                Some(pos) => placed.push((pos, key)),
                None => {
                    if placed.len() >= 48 {
                        break;
                    }
                }
            }
        }
        assert!(placed.len() >= 48, "two choices fill most of the map ({})", placed.len());
        // A million distinct keys through a map of 64 entries, each removed after use, as the
        // signals of completed dispatches are: none is refused.
        for (pos, key) in placed.drain(..) {
            m.remove_at(pos, key);
        }
        assert!(m.is_empty());
        let mut live = std::collections::VecDeque::new();
        for i in 0..1_000_000u64 {
            let key = 0x5555_0000_0000 + i * 64;
            let pos = m.insert_new(key, i + 1).expect("room: at most 8 keys are live");
            live.push_back((pos, key));
            if live.len() == 8 {
                let (p, k) = live.pop_front().unwrap();
                assert_eq!(m.get(k), (i + 1) - 7);
                m.remove_at(p, k);
            }
        }
        assert_eq!(m.len(), 7);
    }

    #[test]
    fn duplicates_each_have_their_own_entry() {
        let m = KernelMap::new(32);
        let a = m.insert_new(0xABC0, 1).unwrap();
        let b = m.insert_new(0xABC0, 2).unwrap();
        let mut seen = Vec::new();
        m.for_each(0xABC0, |v| seen.push(v));
        seen.sort();
        assert_eq!(seen, [1, 2]);
        m.remove_at(a, 0xABC0);
        assert_eq!(m.get(0xABC0), 2);
        m.remove_at(a, 0xABC0); // a second removal of the same entry changes nothing
        m.remove_at(b, 0x1234); // a wrong key does not remove
        assert_eq!(m.get(0xABC0), 2);
        m.clear();
        assert!(m.is_empty());
    }
}
