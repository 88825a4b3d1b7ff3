//! A bounded, lock-free multi-producer multi-consumer queue of `u32` values (D. Vyukov's bounded
//! MPMC queue): the free list of profiling-signal slots. Slots are taken on application threads
//! (inside the intercept handler) and returned on the runtime's async-handler thread, so neither
//! side may block or allocate. A Treiber stack would be simpler but suffers from ABA here.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use crate::padded::Padded;

struct Cell {
    seq: AtomicUsize,
    value: AtomicU32,
}

/// The queue. Capacity is a power of two fixed at construction (the only allocation).
pub struct Mpmc {
    cells: Box<[Cell]>,
    mask: usize,
    // Consumers and producers are different threads: keep the two ends on their own lines.
    head: Padded<AtomicUsize>,
    tail: Padded<AtomicUsize>,
}

impl Mpmc {
    /// An empty queue holding up to `capacity` (rounded up to a power of two) values.
    pub fn new(capacity: usize) -> Self {
        let cap = capacity.max(2).next_power_of_two();
        let cells = (0..cap).map(|i| Cell { seq: AtomicUsize::new(i), value: AtomicU32::new(0) }).collect();
        Self { cells, mask: cap - 1, head: Padded(AtomicUsize::new(0)), tail: Padded(AtomicUsize::new(0)) }
    }

    /// Adds a value; false when full.
    pub fn push(&self, v: u32) -> bool {
        let mut pos = self.tail.load(Ordering::Relaxed);
        loop {
            let cell = &self.cells[pos & self.mask];
            let seq = cell.seq.load(Ordering::Acquire);
            let diff = seq as isize - pos as isize;
            if diff == 0 {
                match self.tail.compare_exchange_weak(pos, pos + 1, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) => {
                        cell.value.store(v, Ordering::Relaxed);
                        cell.seq.store(pos + 1, Ordering::Release);
                        return true;
                    }
                    Err(p) => pos = p,
                }
            } else if diff < 0 {
                return false;
            } else {
                pos = self.tail.load(Ordering::Relaxed);
            }
        }
    }

    /// Takes a value; `None` when empty.
    pub fn pop(&self) -> Option<u32> {
        let mut pos = self.head.load(Ordering::Relaxed);
        loop {
            let cell = &self.cells[pos & self.mask];
            let seq = cell.seq.load(Ordering::Acquire);
            let diff = seq as isize - (pos + 1) as isize;
            if diff == 0 {
                match self.head.compare_exchange_weak(pos, pos + 1, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) => {
                        let v = cell.value.load(Ordering::Relaxed);
                        cell.seq.store(pos + self.mask + 1, Ordering::Release);
                        return Some(v);
                    }
                    Err(p) => pos = p,
                }
            } else if diff < 0 {
                return None;
            } else {
                pos = self.head.load(Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn fifo_and_bounds() {
        let q = Mpmc::new(3);
        assert!(q.push(1) && q.push(2) && q.push(3) && q.push(4));
        assert!(!q.push(5), "capacity rounds up to 4");
        assert_eq!(q.pop(), Some(1));
        assert!(q.push(5));
        assert_eq!((q.pop(), q.pop(), q.pop(), q.pop(), q.pop()), (Some(2), Some(3), Some(4), Some(5), None));
    }

    #[test]
    fn values_are_neither_lost_nor_duplicated_across_threads() {
        let q = Arc::new(Mpmc::new(64));
        for i in 0..64 {
            assert!(q.push(i));
        }
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let q = q.clone();
                std::thread::spawn(move || {
                    let mut sum = 0u64;
                    for _ in 0..10_000 {
                        if let Some(v) = q.pop() {
                            sum += 1;
                            while !q.push(v) {}
                        }
                    }
                    sum
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut seen = [false; 64];
        while let Some(v) = q.pop() {
            assert!(!seen[v as usize], "duplicate {v}");
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
