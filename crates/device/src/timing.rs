//! The timing model: what an instruction of each class costs a wave (issue cycles, and the latency a
//! later `s_waitcnt` waits for), and how a dispatch's cycles become its duration in nanoseconds.
//!
//! hsa-sim does not execute kernels cycle-accurately; this is a deterministic, documented model whose
//! only jobs are to make durations grow sensibly with the work (grid size, code length, memory
//! instructions, occupancy) and to give the counter model and the thread-trace encoder one consistent
//! clock. The numbers are round figures of the public ISA guides' issue rules, not measurements:
//!
//! | class | issue cycles (gfx9 / RDNA wave32 / RDNA wave64) | latency waited for by `s_waitcnt` |
//! |---|---|---|
//! | VALU | 4 / 1 / 2 | - |
//! | SALU, branch, barrier, waitcnt, other | 4 / 1 / 1 | - |
//! | SMEM | 4 / 1 / 1 | 40 |
//! | VMEM, FLAT load (incl. scratch) | 4 / 1 / 2 | 500 |
//! | VMEM, FLAT store | 4 / 1 / 2 | - (not waited for) |
//! | LDS | 4 / 1 / 2 | 64 |
//!
//! gfx9 issues one instruction per wave every 4 cycles (a SIMD16 needs 4 cycles for 64 lanes); RDNA
//! issues every cycle for wave32 and twice for vector work of a wave64. An `s_waitcnt` waits until
//! every memory operation issued before it has completed (counter fields are not decoded), so a
//! wave's time is `sum(issue) + sum(stalls at s_waitcnt)`.
//!
//! A dispatch takes `LAUNCH_OVERHEAD_NS` plus its busiest CU's cycles at the engine clock:
//! `duration_ns = 2000 + busy_cycles * 1000 / max_clock_mhz` (hsa-sim multiplies by
//! `ROCPROF_RS_SIM_TIME_SCALE`). Before the device crate existed the sim used
//! `2000 + rounds * max(16, code_bytes / 6) * 4 * 1000 / MHz`; the model here is the same shape with the
//! instruction count and memory stalls taken from the kernel's code.

pub mod knobs;

use crate::targets::{Generation, GpuModel};
use rocprof_isa::{InstClass, CLASS_COUNT};

/// Fixed cost of a dispatch (command processor, launch and drain), in nanoseconds.
pub const LAUNCH_OVERHEAD_NS: u64 = 2000;

/// Latency of a scalar memory load, in cycles.
pub const SMEM_LATENCY_CYCLES: u32 = 40;
/// Latency of a vector memory / flat / scratch load, in cycles.
pub const VMEM_LATENCY_CYCLES: u32 = 500;
/// Latency of an LDS access, in cycles.
pub const LDS_LATENCY_CYCLES: u32 = 64;

/// What each instruction class costs one wave on one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostModel {
    /// Cycles the wave spends issuing an instruction of each class (index: `InstClass as usize`).
    pub issue_cycles: [u32; CLASS_COUNT],
    /// Cycles after issue until the result is there, for classes an `s_waitcnt` waits for (0 = none).
    pub latency_cycles: [u32; CLASS_COUNT],
}

impl CostModel {
    /// The cost model of `target` for waves of `wavefront_size` lanes.
    pub fn new(target: &GpuModel, wavefront_size: u32) -> CostModel {
        let (scalar, vector) = match (target.generation(), wavefront_size) {
            (Generation::Gfx9, _) => (4, 4),
            (_, 64) => (1, 2),
            _ => (1, 1),
        };
        let mut issue = [scalar; CLASS_COUNT];
        for c in [
            InstClass::Valu,
            InstClass::VmemLoad,
            InstClass::VmemStore,
            InstClass::FlatLoad,
            InstClass::FlatStore,
            InstClass::Lds,
        ] {
            issue[c as usize] = vector;
        }
        let mut latency = [0; CLASS_COUNT];
        latency[InstClass::Smem as usize] = SMEM_LATENCY_CYCLES;
        latency[InstClass::VmemLoad as usize] = VMEM_LATENCY_CYCLES;
        latency[InstClass::FlatLoad as usize] = VMEM_LATENCY_CYCLES;
        latency[InstClass::Lds as usize] = LDS_LATENCY_CYCLES;
        CostModel { issue_cycles: issue, latency_cycles: latency }
    }

    /// Issue cycles of one instruction of `class`.
    pub fn issue(&self, class: InstClass) -> u32 {
        self.issue_cycles[class as usize]
    }

    /// Latency of `class` (0 when nothing waits for it).
    pub fn latency(&self, class: InstClass) -> u32 {
        self.latency_cycles[class as usize]
    }
}

/// Cycles at `target`'s engine clock in nanoseconds (rounded down).
pub fn cycles_to_ns(target: &GpuModel, cycles: u64) -> u64 {
    cycles.saturating_mul(1000) / u64::from(target.max_clock_mhz.max(1))
}

/// Nanoseconds in cycles at `target`'s engine clock (rounded down).
pub fn ns_to_cycles(target: &GpuModel, ns: u64) -> u64 {
    ns.saturating_mul(u64::from(target.max_clock_mhz)) / 1000
}

/// Modelled duration of a dispatch whose busiest CU is busy for `busy_cycles`.
pub fn duration_ns(target: &GpuModel, busy_cycles: u64) -> u64 {
    LAUNCH_OVERHEAD_NS + cycles_to_ns(target, busy_cycles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::find;

    #[test]
    fn gfx9_issues_every_four_cycles_and_rdna_every_cycle() {
        let c = CostModel::new(find("gfx942").unwrap(), 64);
        assert_eq!((c.issue(InstClass::Valu), c.issue(InstClass::Salu)), (4, 4));
        assert_eq!(c.latency(InstClass::VmemLoad), 500);
        assert_eq!(c.latency(InstClass::VmemStore), 0);
        let r = CostModel::new(find("gfx1100").unwrap(), 32);
        assert_eq!((r.issue(InstClass::Valu), r.issue(InstClass::Smem)), (1, 1));
        let r64 = CostModel::new(find("gfx1100").unwrap(), 64);
        assert_eq!((r64.issue(InstClass::Valu), r64.issue(InstClass::Salu)), (2, 1));
    }

    #[test]
    fn durations_convert_at_the_engine_clock() {
        let m = find("gfx942").unwrap(); // 2100 MHz
        assert_eq!(duration_ns(m, 0), 2000);
        assert_eq!(duration_ns(m, 2100), 3000);
        assert_eq!(ns_to_cycles(m, 1000), 2100);
        assert_eq!(cycles_to_ns(m, ns_to_cycles(m, 5000)), 5000);
    }
}
