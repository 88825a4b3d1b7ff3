//! The counter model: the value a hardware performance counter reads after a dispatch, computed
//! deterministically from the dispatch's [`DispatchModel`] for the unit the counter instance belongs
//! to (a set of CUs: one SE, one shader array, one WGP or one CU; or a whole XCC, optionally one of its
//! L2 channels).
//!
//! Which event a counter counts is decided by the PM4 executor (`crate::pm4`) from the select register
//! the packets programmed; this module only answers "what does event NAME read on this unit". Values are
//! consistent with each other and with the dispatch by construction:
//!
//! * `SQ_WAVES` / `SPI_CSN_WAVE` = waves launched on the unit; summed over units = the dispatch's waves;
//! * `GRBM_COUNT` = the dispatch's cycles (launch overhead + busiest CU), the same on every XCC;
//!   `GRBM_GUI_ACTIVE` = half the launch overhead + the XCC's busiest CU, so `GUI_ACTIVE <= COUNT`;
//! * instruction counts = waves x the kernel's instructions of that class (`crate::wave`);
//! * cache requests: vector memory bytes / 64 (L1 requests), / cache line (L2 requests), every L2
//!   request a miss (the static model has no reuse), split evenly over the L2 channels;
//! * every per-instance value sums to the unit totals (a counter's total over its dimensions is the
//!   dispatch total).
//!
//! Events not listed in [`MODELLED_EVENTS`] read 0 (the sim's README lists them by pattern).

use std::ops::Range;

use crate::timing::{self, CostModel};
use crate::wave::{DispatchModel, InstClass, Totals};

/// What one counter instance covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unit {
    /// These CUs (global indices) of one XCC.
    Cus(Range<u32>),
    /// A whole XCC.
    Xcc(u32),
    /// L2 channel `channel` of `channels` on an XCC.
    L2Channel {
        /// The XCC.
        xcc: u32,
        /// The channel (block instance).
        channel: u32,
        /// Channels of the XCC's L2.
        channels: u32,
    },
}

/// Events the model computes (every other event reads 0). Names as in rocprofiler-sdk's counter
/// definitions; RDNA's `GL2C_*` L2 events are read as the matching `TCC_*` ones.
pub const MODELLED_EVENTS: &[&str] = &[
    "GRBM_COUNT",
    "GRBM_GUI_ACTIVE",
    "GRBM_CP_BUSY",
    "GRBM_CPC_BUSY",
    "GRBM_SPI_BUSY",
    "GRBM_TA_BUSY",
    "GRBM_TC_BUSY",
    "GRBM_EA_BUSY",
    "GRBM_UTCL2_BUSY",
    "SPI_CSN_WAVE",
    "SPI_CSN_NUM_THREADGROUPS",
    "SPI_CSN_BUSY",
    "SPI_CSN_WINDOW_VALID",
    "SQ_WAVES",
    "SQ_WAVES_32",
    "SQ_WAVES_64",
    "SQ_ITEMS",
    "SQ_CYCLES",
    "SQ_BUSY_CYCLES",
    "SQ_BUSY_CU_CYCLES",
    "SQ_WAVE_CYCLES",
    "SQ_LEVEL_WAVES",
    "SQ_WAIT_ANY",
    "SQ_WAIT_INST_ANY",
    "SQ_ACTIVE_INST_ANY",
    "SQ_ACTIVE_INST_VALU",
    "SQ_ACTIVE_INST_SCA",
    "SQ_ACTIVE_INST_VMEM",
    "SQ_ACTIVE_INST_LDS",
    "SQ_ACTIVE_INST_FLAT",
    "SQ_ACTIVE_INST_MISC",
    "SQ_INST_CYCLES_SALU",
    "SQ_INST_CYCLES_SMEM",
    "SQ_INST_CYCLES_VMEM_RD",
    "SQ_INST_CYCLES_VMEM_WR",
    "SQ_THREAD_CYCLES_VALU",
    "SQ_IFETCH",
    "SQ_INSTS",
    "SQ_INSTS_VALU",
    "SQ_INSTS_SALU",
    "SQ_INSTS_SMEM",
    "SQ_INSTS_SMEM_NORM",
    "SQ_INSTS_LDS",
    "SQ_INSTS_FLAT",
    "SQ_INSTS_VMEM",
    "SQ_INSTS_VMEM_RD",
    "SQ_INSTS_VMEM_WR",
    "SQ_INSTS_BRANCH",
    "SQ_INSTS_MFMA",
    "SQ_VALU_MFMA_BUSY_CYCLES",
    "SQ_INSTS_VALU_MFMA_F16",
    "SQ_INSTS_VALU_MFMA_BF16",
    "SQ_INSTS_VALU_MFMA_F32",
    "SQ_INSTS_VALU_MFMA_F64",
    "SQ_INSTS_VALU_MFMA_I8",
    "SQ_INSTS_VALU_MFMA_MOPS_F16",
    "SQ_INSTS_VALU_MFMA_MOPS_BF16",
    "SQ_INSTS_VALU_MFMA_MOPS_F32",
    "SQ_INSTS_VALU_MFMA_MOPS_F64",
    "SQ_INSTS_VALU_MFMA_MOPS_I8",
    "TA_TA_BUSY",
    "TA_FLAT_WAVEFRONTS",
    "TA_FLAT_READ_WAVEFRONTS",
    "TA_FLAT_WRITE_WAVEFRONTS",
    "TA_TOTAL_WAVEFRONTS",
    "TD_TD_BUSY",
    "TD_LOAD_WAVEFRONT",
    "TD_STORE_WAVEFRONT",
    "TD_COALESCABLE_WAVEFRONT",
    "TCP_TOTAL_READ",
    "TCP_TOTAL_WRITE",
    "TCP_TOTAL_ACCESSES",
    "TCP_TOTAL_CACHE_ACCESSES",
    "TCP_TCC_READ_REQ",
    "TCP_TCC_WRITE_REQ",
    "TCP_UTCL1_REQUEST",
    "TCC_CYCLE",
    "TCC_BUSY",
    "TCC_REQ",
    "TCC_READ",
    "TCC_WRITE",
    "TCC_HIT",
    "TCC_MISS",
    "TCC_EA_RDREQ",
    "TCC_EA_WRREQ",
    "TCC_EA0_RDREQ",
    "TCC_EA0_WRREQ",
    "TCC_EA0_WRREQ_64B",
];

/// Bytes per L1 (TCP) request.
const L1_REQUEST_BYTES: u64 = 64;

/// The totals of `unit` in `model`.
fn unit_totals(model: &DispatchModel, unit: &Unit) -> (Totals, u64) {
    let mut t = Totals::default();
    let mut busy_cu_sum = 0;
    let cus: Vec<&Totals> = match unit {
        Unit::Cus(r) => {
            model.per_cu.get(r.start as usize..(r.end as usize).min(model.per_cu.len())).unwrap_or(&[]).iter().collect()
        }
        Unit::Xcc(x) | Unit::L2Channel { xcc: x, .. } => {
            let per = model.target.cus_per_xcc() as usize;
            let first = *x as usize * per;
            model.per_cu.get(first..(first + per).min(model.per_cu.len())).unwrap_or(&[]).iter().collect()
        }
    };
    for c in cus {
        t.workgroups += c.workgroups;
        t.waves += c.waves;
        t.lanes += c.lanes;
        for (a, b) in t.instructions.0.iter_mut().zip(c.instructions.0) {
            *a += b;
        }
        t.bytes.global_read += c.bytes.global_read;
        t.bytes.global_write += c.bytes.global_write;
        t.bytes.scalar_read += c.bytes.scalar_read;
        t.bytes.lds_read += c.bytes.lds_read;
        t.bytes.lds_write += c.bytes.lds_write;
        t.bytes.scratch_read += c.bytes.scratch_read;
        t.bytes.scratch_write += c.bytes.scratch_write;
        t.valu_active_lanes += c.valu_active_lanes;
        t.wave_cycles += c.wave_cycles;
        t.issue_cycles += c.issue_cycles;
        t.stall_cycles += c.stall_cycles;
        t.busy_cycles = t.busy_cycles.max(c.busy_cycles);
        t.matrix.add(&c.matrix);
        busy_cu_sum += c.busy_cycles;
    }
    (t, busy_cu_sum)
}

/// `SQ_INSTS_VALU_MFMA_<TY>` (instructions) or `SQ_INSTS_VALU_MFMA_MOPS_<TY>` (operations / 512) of
/// `m`; 0 for F6F4 (gfx950's f8f6f4 forms are counted under F8).
fn matrix_event(m: &rocprof_isa::MatrixStats, rest: &str) -> u64 {
    let (mops, ty) = match rest.strip_prefix("MOPS_") {
        Some(ty) => (true, ty),
        None => (false, rest),
    };
    let ty = match ty {
        "F16" => rocprof_isa::op::MfmaTy::F16,
        "BF16" => rocprof_isa::op::MfmaTy::Bf16,
        "F32" => rocprof_isa::op::MfmaTy::F32,
        "F64" => rocprof_isa::op::MfmaTy::F64,
        "I8" => rocprof_isa::op::MfmaTy::I8,
        "F8" => rocprof_isa::op::MfmaTy::Fp8,
        "XF32" => rocprof_isa::op::MfmaTy::Xf32,
        _ => return 0,
    };
    let Some(k) = rocprof_isa::MATRIX_TYPES.iter().position(|&t| t == ty) else { return 0 };
    if mops {
        m.ops[k] / 512
    } else {
        m.insts[k]
    }
}

/// `n` split over `parts` as evenly as possible; the share of part `i`.
fn share(n: u64, i: u32, parts: u32) -> u64 {
    let parts = u64::from(parts.max(1));
    n / parts + u64::from(u64::from(i) < n % parts)
}

/// Value of event `name` on `unit` after the dispatch `model`.
pub fn event_value(model: &DispatchModel, name: &str, unit: &Unit) -> u64 {
    let renamed;
    let name = match name.strip_prefix("GL2C_") {
        Some(rest) => {
            renamed = format!("TCC_{rest}");
            renamed.as_str()
        }
        None => name,
    };
    let (t, busy_cu_sum) = unit_totals(model, unit);
    let costs = CostModel::new(model.target, model.wavefront_size);
    let i = &t.instructions;
    let cost = |c: InstClass| i.get(c) * u64::from(costs.issue(c));
    let vmem_loads = i.get(InstClass::VmemLoad) + i.get(InstClass::FlatLoad);
    let vmem_stores = i.get(InstClass::VmemStore) + i.get(InstClass::FlatStore);
    let memory_busy = if vmem_loads + vmem_stores > 0 { t.busy_cycles } else { 0 };
    let launch = timing::ns_to_cycles(model.target, timing::LAUNCH_OVERHEAD_NS);
    let read_bytes = t.bytes.global_read + t.bytes.scratch_read;
    let write_bytes = t.bytes.global_write + t.bytes.scratch_write;
    let line = u64::from(model.target.cacheline_bytes.max(1));
    // L2 requests of the XCC, and this channel's share of them.
    let l2 = |n: u64| match unit {
        Unit::L2Channel { channel, channels, .. } => share(n, *channel, *channels),
        _ => n,
    };
    match name {
        "GRBM_COUNT" | "SQ_CYCLES" | "TCC_CYCLE" => model.dispatch_cycles,
        "GRBM_GUI_ACTIVE" | "GRBM_CP_BUSY" | "GRBM_CPC_BUSY" => launch / 2 + t.busy_cycles,
        "GRBM_SPI_BUSY" | "SPI_CSN_BUSY" | "SPI_CSN_WINDOW_VALID" | "SQ_BUSY_CYCLES" => t.busy_cycles,
        "GRBM_TA_BUSY" | "GRBM_TC_BUSY" | "GRBM_EA_BUSY" | "GRBM_UTCL2_BUSY" | "TA_TA_BUSY" | "TD_TD_BUSY"
        | "TCC_BUSY" => memory_busy,
        "SPI_CSN_WAVE" | "SQ_WAVES" => t.waves,
        "SQ_WAVES_32" => t.waves * u64::from(model.wavefront_size == 32),
        "SQ_WAVES_64" => t.waves * u64::from(model.wavefront_size == 64),
        "SPI_CSN_NUM_THREADGROUPS" => t.workgroups,
        "SQ_ITEMS" => t.lanes,
        "SQ_BUSY_CU_CYCLES" => busy_cu_sum,
        "SQ_WAVE_CYCLES" | "SQ_LEVEL_WAVES" => t.wave_cycles,
        "SQ_WAIT_ANY" | "SQ_WAIT_INST_ANY" => t.stall_cycles,
        "SQ_ACTIVE_INST_ANY" => t.issue_cycles,
        "SQ_ACTIVE_INST_VALU" => cost(InstClass::Valu),
        "SQ_ACTIVE_INST_SCA" => cost(InstClass::Salu) + cost(InstClass::Smem),
        "SQ_ACTIVE_INST_VMEM" => {
            cost(InstClass::VmemLoad)
                + cost(InstClass::VmemStore)
                + cost(InstClass::FlatLoad)
                + cost(InstClass::FlatStore)
        }
        "SQ_ACTIVE_INST_LDS" => cost(InstClass::Lds),
        "SQ_ACTIVE_INST_FLAT" => cost(InstClass::FlatLoad) + cost(InstClass::FlatStore),
        "SQ_ACTIVE_INST_MISC" => {
            cost(InstClass::BranchTaken)
                + cost(InstClass::BranchNotTaken)
                + cost(InstClass::Barrier)
                + cost(InstClass::Waitcnt)
                + cost(InstClass::Other)
        }
        "SQ_INST_CYCLES_SALU" => cost(InstClass::Salu),
        "SQ_INST_CYCLES_SMEM" => cost(InstClass::Smem),
        "SQ_INST_CYCLES_VMEM_RD" => cost(InstClass::VmemLoad) + cost(InstClass::FlatLoad),
        "SQ_INST_CYCLES_VMEM_WR" => cost(InstClass::VmemStore) + cost(InstClass::FlatStore),
        "SQ_THREAD_CYCLES_VALU" => t.valu_active_lanes * u64::from(costs.issue(InstClass::Valu)),
        "SQ_IFETCH" | "SQ_INSTS" => i.total(),
        "SQ_INSTS_VALU" => i.get(InstClass::Valu),
        "SQ_INSTS_SALU" => i.get(InstClass::Salu),
        "SQ_INSTS_SMEM" | "SQ_INSTS_SMEM_NORM" => i.get(InstClass::Smem),
        "SQ_INSTS_LDS" => i.get(InstClass::Lds),
        "SQ_INSTS_FLAT" => i.get(InstClass::FlatLoad) + i.get(InstClass::FlatStore),
        "SQ_INSTS_VMEM" | "TA_FLAT_WAVEFRONTS" | "TA_TOTAL_WAVEFRONTS" | "TD_COALESCABLE_WAVEFRONT" => {
            vmem_loads + vmem_stores
        }
        "SQ_INSTS_VMEM_RD" | "TA_FLAT_READ_WAVEFRONTS" | "TD_LOAD_WAVEFRONT" => vmem_loads,
        "SQ_INSTS_VMEM_WR" | "TA_FLAT_WRITE_WAVEFRONTS" | "TD_STORE_WAVEFRONT" => vmem_stores,
        "SQ_INSTS_BRANCH" => i.branches(),
        // Matrix instructions (executed waves): counts per input type, operations / 512, busy cycles.
        "SQ_INSTS_MFMA" => t.matrix.instructions(),
        "SQ_VALU_MFMA_BUSY_CYCLES" => t.matrix.busy_cycles,
        _ if name.starts_with("SQ_INSTS_VALU_MFMA_") => matrix_event(&t.matrix, &name["SQ_INSTS_VALU_MFMA_".len()..]),
        "TCP_TOTAL_READ" | "TCP_TCC_READ_REQ" => read_bytes.div_ceil(L1_REQUEST_BYTES),
        "TCP_TOTAL_WRITE" | "TCP_TCC_WRITE_REQ" => write_bytes.div_ceil(L1_REQUEST_BYTES),
        "TCP_TOTAL_ACCESSES" | "TCP_TOTAL_CACHE_ACCESSES" | "TCP_UTCL1_REQUEST" => {
            read_bytes.div_ceil(L1_REQUEST_BYTES) + write_bytes.div_ceil(L1_REQUEST_BYTES)
        }
        "TCC_REQ" | "TCC_MISS" => l2(read_bytes.div_ceil(line) + write_bytes.div_ceil(line)),
        "TCC_READ" | "TCC_EA_RDREQ" | "TCC_EA0_RDREQ" => l2(read_bytes.div_ceil(line)),
        "TCC_WRITE" | "TCC_EA_WRREQ" | "TCC_EA0_WRREQ" => l2(write_bytes.div_ceil(line)),
        "TCC_EA0_WRREQ_64B" => l2(write_bytes.div_ceil(64)),
        "TCC_HIT" => 0,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::find;
    use crate::wave::{DetailRequest, DispatchInput, KernelProfile};

    fn model(target: &str, grid: u32) -> DispatchModel {
        let t = find(target).unwrap();
        // s_load_dword, s_waitcnt, global_load_dword, s_waitcnt, v_add_f32, global_store_dword, s_endpgm (gfx9)
        let words = [
            0xC002_00C0u32,
            0x2C,
            0xBF8C_C07F,
            0xDC50_8000,
            0x067F_0004,
            0xBF8C_0F70,
            0x0204_0F06,
            0xDC70_8000,
            0x007F_0200,
            0xBF81_0000,
        ];
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let k = KernelProfile::from_code(find("gfx942").unwrap(), &code);
        DispatchModel::build(
            &DispatchInput {
                target: t,
                grid: [grid, 1, 1],
                workgroup: [256, 1, 1],
                wavefront_size: 64,
                lds_bytes: 0,
                scratch_bytes: 0,
                kernel: &k,
            },
            &DetailRequest::NONE,
        )
    }

    #[test]
    fn per_unit_values_sum_to_the_dispatch_and_stay_consistent() {
        let m = model("gfx942", 1 << 20);
        let t = m.target;
        let mut waves = 0;
        for x in 0..t.xccs {
            for s in 0..t.se_per_xcc() {
                let first = t.first_cu_of_se(x, s);
                waves += event_value(&m, "SQ_WAVES", &Unit::Cus(first..first + t.cus_in_se(s)));
            }
            let count = event_value(&m, "GRBM_COUNT", &Unit::Xcc(x));
            let active = event_value(&m, "GRBM_GUI_ACTIVE", &Unit::Xcc(x));
            assert!(active <= count && active > 0, "{active} {count}");
            let channels: u64 = (0..16)
                .map(|c| event_value(&m, "TCC_EA0_RDREQ", &Unit::L2Channel { xcc: x, channel: c, channels: 16 }))
                .sum();
            assert_eq!(channels, event_value(&m, "TCC_EA0_RDREQ", &Unit::Xcc(x)));
        }
        assert_eq!(waves, m.waves());
        assert_eq!(waves, (1 << 20) / 64);
        // 1 load of 4 bytes per lane over 2^20 lanes, 128-byte lines.
        let reads: u64 = (0..8).map(|x| event_value(&m, "TCC_EA0_RDREQ", &Unit::Xcc(x))).sum();
        assert_eq!(reads, (1u64 << 22) / 128);
        assert_eq!(event_value(&m, "GL2C_HIT", &Unit::Xcc(0)), 0);
        assert_eq!(event_value(&m, "SQ_INSTS_VALU", &Unit::Xcc(0)), event_value(&m, "SQ_WAVES", &Unit::Xcc(0)));
        assert_eq!(event_value(&m, "SQ_INSTS_LDS_WHATEVER", &Unit::Xcc(0)), 0);
    }
}
