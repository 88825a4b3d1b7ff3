//! Minimal futex wrappers: waiters sleep on a 32-bit "generation" word that every mutation bumps, always
//! with a bounded timeout so that writes made outside the API (a tool or a test poking a signal's value the
//! way device code would) are still noticed.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Sleeps while `*word == expected`, at most `timeout`. Spurious wake-ups are fine: callers re-check.
pub(crate) fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts =
        libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
    // SAFETY: FUTEX_WAIT reads the aligned u32 behind `word` (a live atomic) and `ts` (a live local); it never
    // writes through either pointer.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            &ts as *const libc::timespec,
        );
    }
}

/// Wakes every thread sleeping on `word`.
pub(crate) fn wake_all(word: &AtomicU32) {
    // SAFETY: FUTEX_WAKE only uses the address of the live atomic as a key.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, i32::MAX);
    }
}

/// A wake-up channel: a generation word plus a waiter count so that notifiers skip the syscall when nobody
/// sleeps.
#[derive(Default)]
pub(crate) struct Event {
    generation: AtomicU32,
    waiters: AtomicU32,
}

impl Event {
    pub(crate) const fn new() -> Self {
        Self { generation: AtomicU32::new(0), waiters: AtomicU32::new(0) }
    }

    /// Current generation; pass it to [`Event::wait`] after re-checking the condition.
    pub(crate) fn generation(&self) -> u32 {
        self.generation.load(Ordering::Acquire)
    }

    pub(crate) fn notify(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        if self.waiters.load(Ordering::Acquire) != 0 {
            wake_all(&self.generation);
        }
    }

    pub(crate) fn wait(&self, seen: u32, timeout: Duration) {
        self.waiters.fetch_add(1, Ordering::AcqRel);
        wait(&self.generation, seen, timeout);
        self.waiters.fetch_sub(1, Ordering::AcqRel);
    }
}
