//! [`Padded`]: a value alone on its own cache lines, so that a counter every thread updates (the
//! next dispatch id, the number of dispatches in flight, the two ends of the free-slot queue) does
//! not share a line with a neighbour updated by other threads at other times (false sharing: each
//! write would invalidate the other value's line in every core's cache).
//!
//! 128 bytes, not 64: x86's adjacent-line prefetcher pulls cache lines in pairs, which is why
//! crossbeam's `CachePadded` uses 128 on x86_64 too.

/// `T` aligned (and so padded) to 128 bytes.
#[derive(Debug, Default)]
#[repr(C, align(128))]
pub struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn neighbours_never_share_a_line() {
        struct Two {
            a: Padded<AtomicU64>,
            b: Padded<AtomicU64>,
        }
        let t = Two { a: Padded(AtomicU64::new(1)), b: Padded(AtomicU64::new(2)) };
        let (a, b) = (&t.a as *const _ as usize, &t.b as *const _ as usize);
        assert!(a.abs_diff(b) >= 128 && a % 128 == 0 && b % 128 == 0);
        assert_eq!(std::mem::size_of::<Padded<AtomicU64>>(), 128);
    }
}
