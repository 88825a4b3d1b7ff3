//! The clock of every timestamp in the capture. ROCr reports dispatch times in its "system"
//! domain: `CLOCK_BOOTTIME` on current releases, `CLOCK_MONOTONIC_RAW` on the Debian 5.2 build.
//! [`detect`] compares `HSA_SYSTEM_INFO_TIMESTAMP` with both clocks once, at load, and our own
//! host timestamps ([`now_ns`]) are then read from the same clock.

use std::sync::atomic::{AtomicI32, Ordering};

use rocprof_model::capture::ClockId;

static CLOCK: AtomicI32 = AtomicI32::new(libc::CLOCK_BOOTTIME);

/// Reads a clock in nanoseconds.
pub fn read(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer; clock_gettime has no other preconditions.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return 0;
    }
    (ts.tv_sec as u64).wrapping_mul(1_000_000_000).wrapping_add(ts.tv_nsec as u64)
}

/// Now, in the capture's clock.
pub fn now_ns() -> u64 {
    read(CLOCK.load(Ordering::Relaxed))
}

/// Picks the clock whose reading is closest to `runtime_ns` (the runtime's system timestamp in
/// ns, sampled right before this call) and uses it from now on. Returns the capture clock id.
pub fn detect(runtime_ns: u64) -> ClockId {
    let boot = read(libc::CLOCK_BOOTTIME);
    let raw = read(libc::CLOCK_MONOTONIC_RAW);
    let (id, clock) = if runtime_ns != 0 && runtime_ns.abs_diff(raw) < runtime_ns.abs_diff(boot) {
        (ClockId::MonotonicRaw, libc::CLOCK_MONOTONIC_RAW)
    } else {
        (ClockId::Boottime, libc::CLOCK_BOOTTIME)
    };
    CLOCK.store(clock, Ordering::Relaxed);
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_follows_the_closer_clock() {
        let raw = read(libc::CLOCK_MONOTONIC_RAW);
        let boot = read(libc::CLOCK_BOOTTIME);
        // Where the two clocks are less than a millisecond apart (a fresh machine that never
        // suspended, no NTP slewing), the microseconds between the reads can decide either way,
        // and either clock is then right; only clearly apart clocks make a deterministic test.
        if raw.abs_diff(boot) > 1_000_000 {
            assert_eq!(detect(raw), ClockId::MonotonicRaw);
            assert_eq!(detect(read(libc::CLOCK_BOOTTIME)), ClockId::Boottime);
        } else {
            println!("skipped: CLOCK_BOOTTIME and CLOCK_MONOTONIC_RAW are within 1 ms here");
        }
        assert!(now_ns() >= boot);
    }
}
