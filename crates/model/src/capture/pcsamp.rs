//! PC samples in the capture: what the interception library received from the runtime's PC-sampling
//! extension, and the dispatches they belong to.
//!
//! A host-trap sample names its dispatch the way the trap handler sees it: the kernel packet's ring
//! index modulo the queue size (bits 0..25) and the queue's doorbell id / 8 (bits 32..42). The
//! library records, for every dispatch it submits while sampling, that pair as the runtime reported it
//! to the intercept marker placed right before the kernel packet ([`PcSampleDispatchRecord`]);
//! [`PcSamples::resolve`] maps each sample back to its dispatch (the latest dispatch with that pair
//! submitted before the sample was taken).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::format::{fixed_record, Field, FixedRecord, RecordKind};

/// Where the interception library keeps the image of code object `id` of process `pid` that was loaded
/// from memory while PC sampling was on (under the capture directory), so that source lines can be
/// read from its DWARF line table after the process is gone.
pub fn code_object_file(capture_dir: &Path, pid: u32, id: u64) -> PathBuf {
    capture_dir.join("pcsamp").join(pid.to_string()).join(format!("code_object_{id}.out"))
}

fixed_record!(
    /// One PC sample (`perf_sample_hosttrap_v1_t` or `perf_sample_snapshot_v1_t`), with the
    /// instruction's bytes.
    PcSampleRecord = PcSample {
        /// Agent handle of the sampling session.
        agent_handle: u64,
        /// Program counter.
        pc: u64,
        /// EXEC mask of the wave at that instruction.
        exec_mask: u64,
        /// Sample time, ns in the capture's clock domain.
        timestamp_ns: u64,
        /// The trap handler's correlation id (see the module documentation).
        trap_correlation: u64,
        /// Instruction bytes 0..8 at `pc` (little-endian), as read through the loader's host address.
        inst_lo: u64,
        /// Instruction bytes 8..16.
        inst_hi: u64,
        /// Workgroup id.
        workgroup_x: u32,
        /// Workgroup id.
        workgroup_y: u32,
        /// Workgroup id.
        workgroup_z: u32,
        /// Wave in workgroup (bits 0..6) and chiplet (bits 6..9), as in the sample.
        wave_chiplet: u32,
        /// The wave's `HW_ID` register.
        hw_id: u32,
        /// Valid bytes in `inst_lo`/`inst_hi` (0: the code was not readable).
        inst_len: u32,
        /// `HSA_VEN_AMD_PCS_METHOD_*` of the session (0 host trap, 1 stochastic).
        method: u32,
        /// Stochastic: `perf_snapshot_data` (valid, issued, type, reason, arbiter state).
        snapshot: u32,
        /// Stochastic: `perf_snapshot_data1` (waves on the CU in bits 0..5).
        snapshot1: u32,
        /// Stochastic: `perf_snapshot_data2`.
        snapshot2: u32,
    }
);

fixed_record!(
    /// A dispatch submitted while PC sampling, with where the runtime put its kernel packet.
    PcSampleDispatchRecord = PcSampleDispatch {
        /// Our dispatch id.
        dispatch_id: u64,
        /// Agent handle.
        agent_handle: u64,
        /// `HSA_AMD_QUEUE_INFO_DOORBELL_ID` of the hardware queue.
        doorbell_id: u64,
        /// Ring index of the kernel packet.
        write_index: u64,
        /// Ring size of the hardware queue (packets).
        queue_size: u64,
        /// Submission time, ns.
        submitted_ns: u64,
    }
);

/// The trap handler's correlation id of a dispatch.
pub fn trap_correlation(doorbell_id: u64, write_index: u64, queue_size: u64) -> u64 {
    ((write_index % queue_size.max(1)) & ((1 << 25) - 1)) | (((doorbell_id >> 3) & ((1 << 10) - 1)) << 32)
}

/// The PC samples of a capture.
#[derive(Debug, Clone, Default)]
pub struct PcSamples {
    /// Samples in delivery order.
    pub samples: Vec<PcSampleRecord>,
    /// Sampled dispatches in submission order per thread.
    pub dispatches: Vec<PcSampleDispatchRecord>,
}

/// A stochastic sample's snapshot as rocprofiler-sdk decodes gfx9's (`parser/translation.hpp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// The sample is valid (valid bit set, error bit clear).
    pub valid: bool,
    /// The wave issued an instruction in the sampled cycle.
    pub issued: bool,
    /// Two VALU instructions issued.
    pub dual_issue_valu: bool,
    /// Instruction type (gfx9 code, bits 3..6).
    pub inst_type: u32,
    /// Reason not issued (gfx9 code, bits 7..9).
    pub reason: u32,
    /// Arbiter state: issue bits 0..8, stall bits 8..16 (misc, exp, flat, lds, vmem_tex, scalar,
    /// matrix, valu).
    pub arb_state: u32,
    /// Waves resident on the CU.
    pub wave_count: u32,
}

/// rocprofiler-sdk's names of the gfx9 instruction types, by code (`ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_*`).
pub const INSTRUCTION_TYPES: [&str; 14] = [
    "VALU",
    "MATRIX",
    "SCALAR",
    "TEX",
    "LDS",
    "FLAT",
    "EXPORT",
    "MESSAGE",
    "BARRIER",
    "BRANCH_NOT_TAKEN",
    "BRANCH_TAKEN",
    "JUMP",
    "OTHER",
    "NO_INST",
];

/// rocprofiler-sdk's names of the gfx9 reasons not issued, by code
/// (`ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_*`).
pub const NOT_ISSUED_REASONS: [&str; 8] = [
    "NO_INSTRUCTION_AVAILABLE",
    "ALU_DEPENDENCY",
    "WAITCNT",
    "INTERNAL_INSTRUCTION",
    "BARRIER_WAIT",
    "ARBITER_NOT_WIN",
    "ARBITER_WIN_EX_STALL",
    "OTHER_WAIT",
];

impl PcSampleRecord {
    /// Whether the sample is a stochastic one.
    pub fn is_stochastic(&self) -> bool {
        self.method == 1
    }

    /// The decoded snapshot of a stochastic sample.
    pub fn snapshot(&self) -> Snapshot {
        let d = self.snapshot;
        let bits = |lo: u32, n: u32| (d >> lo) & ((1 << n) - 1);
        Snapshot {
            valid: bits(0, 1) == 1 && bits(26, 1) == 0,
            issued: bits(1, 1) == 1,
            dual_issue_valu: bits(2, 1) == 1,
            inst_type: bits(3, 4),
            reason: bits(7, 3),
            arb_state: bits(10, 16),
            wave_count: self.snapshot1 & 0x3f,
        }
    }
}

impl PcSamples {
    /// Decodes one record; false when the body is too short.
    pub(super) fn decode(&mut self, kind: RecordKind, body: &[u8]) -> bool {
        match kind {
            RecordKind::PcSample if body.len() >= PcSampleRecord::BODY_SIZE => {
                self.samples.push(PcSampleRecord::read_body(body))
            }
            RecordKind::PcSampleDispatch if body.len() >= PcSampleDispatchRecord::BODY_SIZE => {
                self.dispatches.push(PcSampleDispatchRecord::read_body(body))
            }
            _ => return false,
        }
        true
    }

    /// The dispatch id of every sample (`None`: no sampled dispatch carries its correlation id), in
    /// sample order.
    pub fn resolve(&self) -> Vec<Option<u64>> {
        let mut by_key: HashMap<(u64, u64), Vec<(u64, u64)>> = HashMap::new();
        for d in &self.dispatches {
            let key = (d.agent_handle, trap_correlation(d.doorbell_id, d.write_index, d.queue_size));
            by_key.entry(key).or_default().push((d.submitted_ns, d.dispatch_id));
        }
        for v in by_key.values_mut() {
            v.sort_unstable();
        }
        self.samples
            .iter()
            .map(|s| {
                let v = by_key.get(&(s.agent_handle, s.trap_correlation))?;
                // The latest dispatch with this ring slot submitted before the sample.
                let k = v.partition_point(|&(t, _)| t <= s.timestamp_ns);
                v.get(k.checked_sub(1)?).map(|&(_, id)| id)
            })
            .collect()
    }

    /// The instruction bytes of a sample.
    pub fn instruction_bytes(s: &PcSampleRecord) -> Vec<u8> {
        let mut b = s.inst_lo.to_le_bytes().to_vec();
        b.extend_from_slice(&s.inst_hi.to_le_bytes());
        b.truncate((s.inst_len as usize).min(16));
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trap handler's correlation id is the ring index modulo the queue size in bits 0..25 and
    /// the doorbell / 8 in bits 32..42, as rocprofiler-sdk's `trap_correlation_id` builds it.
    #[test]
    fn trap_correlation_matches_rocprofiler_sdks_layout() {
        assert_eq!(trap_correlation(0x40, 1029, 1024), 5 | (8 << 32));
        assert_eq!(trap_correlation(8 * 1023, 3, 64), 3 | (1023 << 32));
    }

    /// A ring slot reused by a later dispatch: each sample goes to the latest dispatch of that slot
    /// submitted before it was taken; a sample whose slot no dispatch used stays unresolved.
    #[test]
    fn samples_resolve_to_the_latest_dispatch_of_their_ring_slot() {
        let d = |id, index, t| PcSampleDispatchRecord {
            dispatch_id: id,
            agent_handle: 7,
            doorbell_id: 0x100,
            write_index: index,
            queue_size: 4,
            submitted_ns: t,
        };
        let s = |index: u64, t| PcSampleRecord {
            agent_handle: 7,
            timestamp_ns: t,
            trap_correlation: trap_correlation(0x100, index, 4),
            ..Default::default()
        };
        let set = PcSamples {
            dispatches: vec![d(1, 1, 100), d(2, 5, 300), d(3, 2, 150)],
            samples: vec![s(1, 120), s(1, 400), s(2, 200), s(3, 500), s(1, 50)],
        };
        assert_eq!(set.resolve(), vec![Some(1), Some(2), Some(3), None, None]);
    }
}
