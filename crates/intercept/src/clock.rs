//! The clock of every timestamp in the capture. ROCr reports dispatch times in its "system"
//! domain: `CLOCK_BOOTTIME` on current releases, `CLOCK_MONOTONIC_RAW` on the Debian 5.2 build.
//! [`detect`] compares `HSA_SYSTEM_INFO_TIMESTAMP` with both clocks once, at load, and our own
//! host timestamps ([`now_ns`]) are then read from the same clock.
//!
//! When the capture starts before the runtime exists (HIP or ROCTx calls can come before
//! `hsa_init`), its clock is fixed to `CLOCK_BOOTTIME` then ([`fix_default`]); if the runtime turns
//! out to use `CLOCK_MONOTONIC_RAW`, [`adopt_runtime`] measures the distance between the two clocks
//! once and [`from_runtime`] moves the runtime's dispatch and copy times into the capture clock.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, Ordering};

use rocprof_model::capture::ClockId;

static CLOCK: AtomicI32 = AtomicI32::new(libc::CLOCK_BOOTTIME);
/// The capture clock was fixed before the runtime could be asked ([`fix_default`]).
static FIXED: AtomicBool = AtomicBool::new(false);
/// Capture clock minus runtime clock, ns (0 when they are the same clock).
static RUNTIME_OFFSET: AtomicI64 = AtomicI64::new(0);

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

/// Fixes the capture clock to `CLOCK_BOOTTIME` before the runtime is loaded (an early capture).
pub fn fix_default() -> ClockId {
    CLOCK.store(libc::CLOCK_BOOTTIME, Ordering::Relaxed);
    FIXED.store(true, Ordering::Release);
    ClockId::Boottime
}

/// At `OnLoad`: the capture clock when it is not fixed yet ([`detect`]); otherwise keeps it and,
/// when the runtime's clock (detected the same way) differs, records the offset between the two
/// for [`from_runtime`]. Returns the capture clock id.
pub fn adopt_runtime(runtime_ns: u64) -> ClockId {
    if !FIXED.load(Ordering::Acquire) {
        return detect(runtime_ns);
    }
    let boot = read(libc::CLOCK_BOOTTIME);
    let raw = read(libc::CLOCK_MONOTONIC_RAW);
    let runtime_is_raw = runtime_ns != 0 && runtime_ns.abs_diff(raw) < runtime_ns.abs_diff(boot);
    if runtime_is_raw && CLOCK.load(Ordering::Relaxed) != libc::CLOCK_MONOTONIC_RAW {
        // Read the pair back to back, bracketing to keep the error to tens of ns.
        let a = read(libc::CLOCK_MONOTONIC_RAW);
        let c = read(CLOCK.load(Ordering::Relaxed));
        let b = read(libc::CLOCK_MONOTONIC_RAW);
        RUNTIME_OFFSET.store(c as i64 - (a / 2 + b / 2) as i64, Ordering::Release);
    }
    if CLOCK.load(Ordering::Relaxed) == libc::CLOCK_MONOTONIC_RAW {
        ClockId::MonotonicRaw
    } else {
        ClockId::Boottime
    }
}

/// A runtime timestamp (dispatch or copy time, system domain ns) in the capture clock.
#[inline]
pub fn from_runtime(ns: u64) -> u64 {
    let off = RUNTIME_OFFSET.load(Ordering::Relaxed);
    if ns == 0 || off == 0 {
        ns
    } else {
        (ns as i64).wrapping_add(off) as u64
    }
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
