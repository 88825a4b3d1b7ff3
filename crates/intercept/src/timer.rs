//! Host timestamps of API calls, allocations and scratch events, at a few nanoseconds each.
//!
//! Two reads per traced call are most of the per-call budget: `clock_gettime` costs 20-35 ns
//! here (vDSO), the time-stamp counter 7-15 ns. So on x86-64 machines whose kernel itself keeps
//! time with the TSC (the `tsc` clocksource: invariant, synchronised across CPUs) records carry
//! raw counter ticks, flagged `TIME_TSC`, and [`sync`] writes pairs of (ticks, capture-clock ns)
//! that the reader interpolates between: once when the tool loads, then from the writer thread
//! every tick and at exit. Elsewhere [`now`] is the capture clock itself and the flag is clear.
//! The choice is made once, before any wrapper is installed, and never changes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rocprof_model::capture::{ClockSyncRecord, TIME_TSC};

use crate::clock;
use crate::sink::Sink;

static USE_TSC: AtomicBool = AtomicBool::new(false);
/// Capture-clock time of the last sync point, ns (to rate-limit [`sync_if_due`]).
static LAST_SYNC_NS: AtomicU64 = AtomicU64::new(0);
/// Sync points are at least this far apart when written by [`sync_if_due`].
const SYNC_EVERY_NS: u64 = 10_000_000;

/// Decides whether records use TSC ticks (cold path; call once, before wrappers exist).
/// `host_records`: some domain stamps records with [`now`] (API calls, allocations). Without
/// one, no TSC and no sync points: a kernel-only capture stays as it was (the writer thread
/// writes nothing of its own, so it never takes a capture chunk for clock records).
pub fn init(host_records: bool) {
    USE_TSC.store(host_records && tsc_is_reliable(), Ordering::Release);
}

#[cfg(target_arch = "x86_64")]
fn tsc_is_reliable() -> bool {
    if crate::env::env().no_tsc {
        return false;
    }
    // Invariant TSC: CPUID 0x8000_0007, EDX bit 8.
    // The extended leaf is checked for existence first.
    let max = core::arch::x86_64::__cpuid(0x8000_0000).eax;
    let invariant = max >= 0x8000_0007 && core::arch::x86_64::__cpuid(0x8000_0007).edx & (1 << 8) != 0;
    let kernel_uses_tsc = std::fs::read_to_string("/sys/devices/system/clocksource/clocksource0/current_clocksource")
        .is_ok_and(|s| s.trim() == "tsc");
    invariant && kernel_uses_tsc
}

#[cfg(not(target_arch = "x86_64"))]
fn tsc_is_reliable() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn ticks() -> u64 {
    // SAFETY: RDTSC has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn ticks() -> u64 {
    clock::now_ns()
}

/// Now, in record units: TSC ticks or capture-clock ns ([`flags`] says which). Hot path.
#[inline(always)]
pub fn now() -> u64 {
    if USE_TSC.load(Ordering::Relaxed) {
        ticks()
    } else {
        clock::now_ns()
    }
}

/// The record flags that go with [`now`]'s values.
#[inline(always)]
pub fn flags() -> u32 {
    if USE_TSC.load(Ordering::Relaxed) {
        TIME_TSC
    } else {
        0
    }
}

/// One (ticks, ns) pair, taken as the middle of the tightest of a few bracketing reads.
fn sample() -> ClockSyncRecord {
    let mut best = (u64::MAX, 0u64, 0u64);
    for _ in 0..4 {
        let a = ticks();
        let ns = clock::now_ns();
        let b = ticks();
        let width = b.wrapping_sub(a);
        if width < best.0 {
            best = (width, a + width / 2, ns);
        }
    }
    ClockSyncRecord { tsc: best.1, ns: best.2 }
}

/// Writes a sync point (cold path; no-op without TSC timestamps).
pub fn sync(sink: &Sink) {
    if !USE_TSC.load(Ordering::Relaxed) {
        return;
    }
    let s = sample();
    LAST_SYNC_NS.store(s.ns, Ordering::Relaxed);
    sink.write(&s);
}

/// Writes a sync point if the last one is older than 10 ms (writer thread ticks).
pub fn sync_if_due(sink: &Sink) {
    if USE_TSC.load(Ordering::Relaxed)
        && clock::now_ns().saturating_sub(LAST_SYNC_NS.load(Ordering::Relaxed)) >= SYNC_EVERY_NS
    {
        sync(sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_pair_ticks_with_the_clock() {
        let a = sample();
        let b = sample();
        assert!(b.ns >= a.ns);
        if USE_TSC.load(Ordering::Relaxed) || tsc_is_reliable() {
            assert!(b.tsc > a.tsc);
        }
    }
}
