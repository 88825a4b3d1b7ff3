//! Clock domains.
//!
//! * System domain (what `HSA_SYSTEM_INFO_TIMESTAMP`, wait timeouts and translated profiling times use):
//!   `CLOCK_BOOTTIME` nanoseconds like current ROCr, or `CLOCK_MONOTONIC_RAW` nanoseconds when emulating the
//!   Debian ROCm 5.2 build (which predates ROCr's switch to BOOTTIME). Frequency 1 GHz.
//! * GPU domain (raw `amd_signal_t.start_ts/end_ts`): a 100 MHz tick counter per GPU agent,
//!   `ticks = system_ns / 10 + offset(agent)`, deliberately different from the system domain so that a tool
//!   that forgets to translate produces visibly wrong numbers. `hsa_amd_profiling_get_dispatch_time` and
//!   `hsa_amd_profiling_convert_tick_to_system_domain` invert the mapping.

use crate::abi;

/// GPU timestamp counter frequency (`HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY`).
pub(crate) const GPU_TICK_HZ: u64 = 100_000_000;
const NS_PER_TICK: u64 = 1_000_000_000 / GPU_TICK_HZ;

fn clock_ns(id: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(id, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Now, in the system domain of the emulated ABI.
pub(crate) fn system_ns() -> u64 {
    if abi::abi_is_5_2() {
        clock_ns(libc::CLOCK_MONOTONIC_RAW)
    } else {
        clock_ns(libc::CLOCK_BOOTTIME)
    }
}

/// Per-agent offset of the GPU tick counter (arbitrary, distinct per agent).
pub(crate) fn tick_offset(agent_index: u32) -> u64 {
    0x0000_1000_0000_0000 + u64::from(agent_index) * 0x10_0000_0000
}

/// System-domain time -> GPU ticks of the agent with `offset`.
pub(crate) fn ns_to_ticks(ns: u64, offset: u64) -> u64 {
    ns / NS_PER_TICK + offset
}

/// GPU ticks -> system-domain nanoseconds (saturating for ticks below the offset, e.g. an untouched 0).
pub(crate) fn ticks_to_ns(ticks: u64, offset: u64) -> u64 {
    ticks.saturating_sub(offset) * NS_PER_TICK
}

/// Now, in GPU ticks of the agent with `offset`.
pub(crate) fn gpu_ticks(offset: u64) -> u64 {
    ns_to_ticks(system_ns(), offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_round_trip_at_10ns_resolution() {
        let off = tick_offset(2);
        let ns = 1_234_567_890_123;
        let t = ns_to_ticks(ns, off);
        assert_eq!(t, 123_456_789_012 + off);
        assert_eq!(ticks_to_ns(t, off), 1_234_567_890_120);
        assert_eq!(ticks_to_ns(0, off), 0);
        assert_ne!(t, ns, "GPU ticks must not look like system nanoseconds");
    }
}
