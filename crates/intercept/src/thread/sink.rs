//! This thread's part of the capture sink: its chunk cursor, its OS id and its waits for capture
//! space. Plain data: [`crate::sink`] claims chunks and writes records through it.

use std::cell::Cell;

/// This thread's part of the sink (in [`super::Thread`]).
pub(crate) struct ThreadSink {
    /// This thread's chunk (address, 0 = none) and write offset in it.
    pub(crate) cursor: Cell<(usize, usize)>,
    /// Cached `gettid()`.
    tid: Cell<u32>,
    /// This thread's waits for capture space not yet charged to a chunk header: (ns, count,
    /// longest ns), and whether it is waiting right now.
    pub(crate) stall: Cell<(u64, u64, u64, bool)>,
}

impl ThreadSink {
    /// A thread's state before its first record.
    pub(crate) const fn new() -> ThreadSink {
        ThreadSink { cursor: Cell::new((0, 0)), tid: Cell::new(0), stall: Cell::new((0, 0, 0, false)) }
    }

    /// The thread's OS id (cached after the first call).
    #[inline]
    pub(crate) fn tid(&self) -> u32 {
        let v = self.tid.get();
        if v != 0 {
            return v;
        }
        // SAFETY: gettid has no preconditions.
        let v = unsafe { libc::syscall(libc::SYS_gettid) } as u32;
        self.tid.set(v);
        v
    }
}
