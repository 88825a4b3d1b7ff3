//! The static walk of a kernel's machine code: what one wave executes when every instruction of the
//! kernel's code runs exactly once, in address order (the `Static` source of a [`DispatchModel`]).
//!
//! Instructions are decoded by `rocprof-isa` with the target's own opcode table; their issue class is
//! `rocprof-isa`'s (the class the executing path counts, [`rocprof_isa::class_of`]), and its scheduling
//! hints that never issue (`s_delay_alu`, ...) are left out. Access widths (bytes per lane of a vector load/store, bytes of a
//! scalar load) are the decoded operation's for the FLAT/GLOBAL/SCRATCH and SMEM forms; other memory
//! instructions count 4 bytes per lane (documented in the README). Branches are not followed: a
//! conditional branch counts as not taken, `s_branch` as taken, and the code after both is still counted
//! once.
//!
//! [`DispatchModel`]: crate::wave::DispatchModel

use rocprof_isa::op::{Access, BranchCond, DsOp, Seg, SmemOp};
use rocprof_isa::table::Enc;
use rocprof_isa::{DecodeError, Inst, Op};

use crate::targets::{Generation, GpuModel};
use crate::timing::CostModel;
use crate::wave::{InstClass, InstCounts};

/// One instruction of a kernel, as the static walk sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticInstruction {
    /// Byte offset from the kernel's first instruction.
    pub pc_offset: u32,
    /// Size in bytes (4 to 16).
    pub size: u8,
    /// Issue class.
    pub class: InstClass,
    /// Bytes moved: per lane for vector memory and LDS, per wave for scalar loads; 0 otherwise.
    pub access_bytes: u16,
    /// The access is a scratch (private segment) access.
    pub scratch: bool,
    /// Cycles a matrix instruction holds the matrix core (AMD's matrix instruction calculator); 0 for
    /// every other instruction.
    pub matrix_cycles: u16,
}

/// What one wave of a kernel does, from its code alone. Built once per kernel and shared by its
/// dispatches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelProfile {
    /// The kernel's instructions in address order (`s_delay_alu`-style hints that never issue are left
    /// out).
    pub instructions: Vec<StaticInstruction>,
    /// Instructions per class for one wave.
    pub counts: InstCounts,
    /// Per-lane bytes read from global/flat memory by one wave's instructions.
    pub global_read_bytes_per_lane: u64,
    /// Per-lane bytes written to global/flat memory.
    pub global_write_bytes_per_lane: u64,
    /// Per-lane bytes read from LDS.
    pub lds_read_bytes_per_lane: u64,
    /// Per-lane bytes written to LDS.
    pub lds_write_bytes_per_lane: u64,
    /// Per-lane bytes read from scratch.
    pub scratch_read_bytes_per_lane: u64,
    /// Per-lane bytes written to scratch.
    pub scratch_write_bytes_per_lane: u64,
    /// Bytes one wave loads through the scalar cache.
    pub scalar_read_bytes: u64,
    /// One wave's matrix instructions (`v_mfma_*`, decoded by `rocprof-isa`): counts, operations, passes.
    pub matrix: rocprof_isa::MatrixStats,
}

/// The cycle-by-cycle shape of one wave of a kernel under a [`CostModel`]: same for every wave of a
/// static model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveTimeline {
    /// Per instruction (same order as [`KernelProfile::instructions`]): issue cycle relative to the
    /// wave's start, and the cycles it stalled before issuing (an `s_waitcnt` waiting for memory).
    pub issue: Vec<(u64, u32)>,
    /// Cycles spent issuing.
    pub issue_cycles: u64,
    /// Cycles spent stalled.
    pub stall_cycles: u64,
    /// Wave lifetime in cycles (`issue_cycles + stall_cycles`, at least 1).
    pub cycles: u64,
}

/// One decoded instruction as the walk counts it.
struct Walked {
    /// Size in bytes (at least 4).
    size: u8,
    /// A scheduling hint that never issues.
    hint: bool,
    /// Statistics class (`rocprof-isa`'s; `s_branch` taken).
    class: InstClass,
    /// Bytes per lane (vector memory, LDS) or per wave (scalar loads).
    access: u16,
    /// An LDS read (as opposed to a write).
    lds_read: bool,
    /// A scratch access.
    scratch: bool,
    /// `rocprof-isa`'s decode, when it knows the instruction.
    inst: Option<Inst>,
}

/// Decodes the instruction at the start of `bytes` with `rocprof-isa` and takes its class. `None` if
/// fewer than 4 bytes remain; an instruction running past the end is decoded as if zeros followed; a
/// word no table decodes is one dword of class `Other` (an opcode unknown to the table keeps the size
/// its encoding gives it).
fn classify(target: &rocprof_isa::Target, bytes: &[u8]) -> Option<Walked> {
    if bytes.len() < 4 {
        return None;
    }
    let mut buf = [0u8; 16];
    let n = bytes.len().min(16);
    buf[..n].copy_from_slice(&bytes[..n]);
    let inst = match rocprof_isa::decode(target, &buf) {
        Ok(inst) => inst,
        Err(e) => {
            let size = match e {
                DecodeError::UnknownOpcode { size, .. } => size.max(4),
                _ => 4,
            };
            let (hint, class, access, lds_read, scratch) = (false, InstClass::Other, 0, false, false);
            return Some(Walked { size, hint, class, access, lds_read, scratch, inst: None });
        }
    };
    let class = match inst.op {
        Op::Branch(BranchCond::Always) => InstClass::BranchTaken,
        _ => inst.class,
    };
    let access = match (class, inst.enc, inst.op) {
        (InstClass::Smem, _, Op::Smem(SmemOp::Load(dwords) | SmemOp::BufferLoad(dwords))) => 4 * u16::from(dwords),
        (InstClass::Smem, _, Op::Smem(SmemOp::LoadSub { bytes, .. })) => u16::from(bytes),
        (
            InstClass::VmemLoad | InstClass::VmemStore | InstClass::FlatLoad | InstClass::FlatStore,
            Enc::Flat | Enc::Global | Enc::Scratch,
            Op::Vmem(_, Access::Load { bytes, .. } | Access::Store { bytes, .. }),
        ) => u16::from(bytes),
        (
            InstClass::VmemLoad | InstClass::VmemStore | InstClass::FlatLoad | InstClass::FlatStore | InstClass::Lds,
            ..,
        ) => 4,
        _ => 0,
    };
    let lds_read = matches!(inst.op, Op::Ds(DsOp::Access(Access::Load { .. }) | DsOp::Read2 { .. }));
    let scratch = matches!(inst.op, Op::Vmem(Seg::Scratch, _));
    Some(Walked { size: inst.size.max(4), hint: inst.hint, class, access, lds_read, scratch, inst: Some(inst) })
}

impl KernelProfile {
    /// Walks `code` (the kernel's machine code, starting at its entry point; its length is the size of
    /// the kernel's function symbol) for `target`. Bytes that do not decode end the walk.
    pub fn from_code(target: &GpuModel, code: &[u8]) -> KernelProfile {
        let generation = target.generation();
        let mut p = KernelProfile {
            instructions: Vec::new(),
            counts: InstCounts::default(),
            global_read_bytes_per_lane: 0,
            global_write_bytes_per_lane: 0,
            lds_read_bytes_per_lane: 0,
            lds_write_bytes_per_lane: 0,
            scratch_read_bytes_per_lane: 0,
            scratch_write_bytes_per_lane: 0,
            scalar_read_bytes: 0,
            matrix: rocprof_isa::MatrixStats::default(),
        };
        // Every simulated target is one of rocprof-isa's (the targets crate lists both).
        let Some(isa_target) = rocprof_isa::Target::find(target.name) else { return p };
        let mut off = 0usize;
        while off + 4 <= code.len() {
            let Some(Walked { size, hint, class, access, lds_read, scratch, inst }) =
                classify(isa_target, &code[off..])
            else {
                break;
            };
            if !hint {
                p.counts.add(class, 1);
                let b = u64::from(access);
                match class {
                    InstClass::Smem => p.scalar_read_bytes += b,
                    InstClass::Lds if lds_read => p.lds_read_bytes_per_lane += b,
                    InstClass::Lds => p.lds_write_bytes_per_lane += b,
                    InstClass::VmemLoad | InstClass::FlatLoad if scratch => p.scratch_read_bytes_per_lane += b,
                    InstClass::VmemStore | InstClass::FlatStore if scratch => p.scratch_write_bytes_per_lane += b,
                    InstClass::VmemLoad | InstClass::FlatLoad => p.global_read_bytes_per_lane += b,
                    InstClass::VmemStore | InstClass::FlatStore => p.global_write_bytes_per_lane += b,
                    _ => {}
                }
                // MFMAs are counted and timed on CDNA; WMMAs (gfx11, gfx12) only timed: the counters of RDNA
                // targets define none for them.
                let mut matrix_cycles = 0;
                match (class, &inst) {
                    (InstClass::Valu, Some(Inst { op: Op::Mfma(m), .. })) if generation == Generation::Gfx9 => {
                        p.matrix.record(*m);
                        matrix_cycles = m.cycles;
                    }
                    (InstClass::Valu, Some(Inst { op: Op::Wmma(x), .. })) => {
                        matrix_cycles = x.cycles(generation == Generation::Gfx12);
                    }
                    _ => {}
                }
                p.instructions.push(StaticInstruction {
                    pc_offset: off as u32,
                    size,
                    class,
                    access_bytes: access,
                    scratch,
                    matrix_cycles,
                });
            }
            off += usize::from(size);
        }
        p
    }

    /// The wave's cycle-by-cycle shape under `costs`: each instruction issues after the previous one
    /// (its issue cycles), an `s_waitcnt` first waits until every earlier memory access has
    /// completed (issue cycle + latency), and a matrix instruction until the previous one has left the
    /// matrix core (its pass cycles).
    pub fn timeline(&self, costs: &CostModel) -> WaveTimeline {
        let mut t = 0u64;
        let mut pending = 0u64; // completion cycle of the latest outstanding access
        let mut issue = Vec::with_capacity(self.instructions.len());
        let (mut issue_cycles, mut stall_cycles) = (0u64, 0u64);
        let mut matrix_free = 0u64; // the cycle the matrix core takes the next instruction
        for i in &self.instructions {
            let mut stall = 0u32;
            if i.class == InstClass::Waitcnt && pending > t {
                stall = (pending - t).min(u64::from(u32::MAX)) as u32;
                t = pending;
                stall_cycles += u64::from(stall);
            }
            if i.matrix_cycles > 0 {
                if matrix_free > t {
                    stall = stall.saturating_add((matrix_free - t).min(u64::from(u32::MAX)) as u32);
                    stall_cycles += matrix_free - t;
                    t = matrix_free;
                }
                matrix_free = t + u64::from(i.matrix_cycles);
            }
            issue.push((t, stall));
            let latency = u64::from(costs.latency(i.class));
            if latency > 0 {
                pending = pending.max(t + latency);
            }
            let c = u64::from(costs.issue(i.class));
            t += c;
            issue_cycles += c;
        }
        WaveTimeline { issue, issue_cycles, stall_cycles, cycles: (issue_cycles + stall_cycles).max(1) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::find;

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|d| d.to_le_bytes()).collect()
    }

    #[test]
    fn gfx9_vector_add_body_is_classified_with_access_widths() {
        // From llvm-objdump of fixtures/kernels/vector_add-gfx942.co.
        let code = words(&[
            0xC002_00C0,
            0x0000_002C, // s_load_dword
            0xBF8C_C07F, // s_waitcnt lgkmcnt(0)
            0x68000002,  // v_add_u32_e32
            0xBF88_0016, // s_cbranch_execz
            0xC00A_0100,
            0, // s_load_dwordx4
            0xDC50_8000,
            0x067F_0004, // global_load_dword
            0xBF8C_0F70, // s_waitcnt vmcnt(0)
            0xDC70_8000,
            0x007F_0200, // global_store_dword
            0xBF81_0000, // s_endpgm
        ]);
        let p = KernelProfile::from_code(find("gfx942").unwrap(), &code);
        let c = &p.counts;
        assert_eq!(c.get(InstClass::Smem), 2);
        assert_eq!(c.get(InstClass::Waitcnt), 2);
        assert_eq!(c.get(InstClass::Valu), 1);
        assert_eq!(c.get(InstClass::BranchNotTaken), 1);
        assert_eq!((c.get(InstClass::VmemLoad), c.get(InstClass::VmemStore)), (1, 1));
        assert_eq!(c.get(InstClass::Other), 1);
        assert_eq!(c.total(), 9);
        assert_eq!(p.scalar_read_bytes, 4 + 16);
        assert_eq!((p.global_read_bytes_per_lane, p.global_write_bytes_per_lane), (4, 4));
        assert_eq!(p.instructions[5].pc_offset, 28);

        // 9 instructions x 4 cycles; the first waitcnt waits for the s_load (40 cycles after issue at 0),
        // the second for the global load issued at cycle 56 (+500).
        let t = p.timeline(&CostModel::new(find("gfx942").unwrap(), 64));
        assert_eq!(t.issue[1], (40, 36));
        assert_eq!(t.issue[6], (556, 496));
        assert_eq!((t.issue_cycles, t.stall_cycles, t.cycles), (36, 532, 568));
    }

    #[test]
    fn rdna_widths_and_gfx10_flat_opcodes() {
        // gfx12: s_load_b128, global_load_b32 (12 bytes), global_store_b32, s_endpgm.
        let g12 = words(&[0xF400_4100, 0xF800_0000, 0xEE05_007C, 2, 2, 0xEE06_807C, 0x0100_0000, 0, 0xBFB0_0000]);
        let p = KernelProfile::from_code(find("gfx1201").unwrap(), &g12);
        assert_eq!(p.scalar_read_bytes, 16);
        assert_eq!((p.global_read_bytes_per_lane, p.global_write_bytes_per_lane), (4, 4));
        assert_eq!(p.counts.total(), 4);
        // gfx10: s_load_dwordx4, global_load_dword (op 0x0c), s_waitcnt (gfx9 SOPP), s_endpgm.
        let g10 = words(&[0xF408_0002, 0xFA00_0000, 0xDC30_8000, 0x027D_0002, 0xBF8C_3F70, 0xBF81_0000]);
        let p = KernelProfile::from_code(find("gfx1030").unwrap(), &g10);
        assert_eq!(p.counts.get(InstClass::VmemLoad), 1);
        assert_eq!(p.counts.get(InstClass::Waitcnt), 1);
        assert_eq!(p.counts.get(InstClass::Other), 1, "s_endpgm");
        assert_eq!((p.scalar_read_bytes, p.global_read_bytes_per_lane), (16, 4));
    }

    /// gfx12 spells its waits `s_wait_kmcnt`, `s_wait_loadcnt`, ... (LLVM 19's gfx1201 encodings below): the
    /// walk counts them as waits, as the executing path does, and they wait for the access before them.
    #[test]
    fn gfx12_waits_are_waits_that_stall_for_the_access_before_them() {
        let code = [
            0x80, 0x00, 0x00, 0xf4, 0x2c, 0x00, 0x00, 0xf8, // s_load_b32 s2, s[0:1], 0x2c
            0x00, 0x00, 0xc7, 0xbf, // s_wait_kmcnt 0x0
            0x00, 0x00, 0x05, 0xee, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, // global_load_b32 v1, v0, s[0:1]
            0x00, 0x00, 0xc0, 0xbf, // s_wait_loadcnt 0x0
            0x01, 0x03, 0x02, 0x4a, // v_add_nc_u32_e32 v1, v1, v1
            0x00, 0x00, 0xb0, 0xbf, // s_endpgm
        ];
        let t = find("gfx1201").unwrap();
        let p = KernelProfile::from_code(t, &code);
        assert_eq!(p.counts.get(InstClass::Waitcnt), 2);
        assert_eq!((p.counts.get(InstClass::Smem), p.counts.get(InstClass::VmemLoad)), (1, 1));
        assert_eq!((p.counts.get(InstClass::Valu), p.counts.get(InstClass::Other)), (1, 1));
        let costs = CostModel::new(t, 32);
        let (smem, load) = (u64::from(costs.latency(InstClass::Smem)), u64::from(costs.latency(InstClass::VmemLoad)));
        assert!(smem > 0 && load > 0);
        let tl = p.timeline(&costs);
        assert_eq!(tl.issue[1].0, smem, "s_wait_kmcnt issues when the scalar load is back");
        let load_at = tl.issue[2].0;
        assert_eq!(tl.issue[3].0, load_at + load, "s_wait_loadcnt issues when the vector load is back");
        assert!(tl.stall_cycles > 0);
    }

    /// MFMAs in the static walk: counted by type and operations, and timed by their pass cycles (AMD's
    /// matrix instruction calculator, CDNA2 `v_mfma_f32_16x16x4f32`: 32); a VALU instruction between
    /// them does not wait for the matrix core. Encodings from llvm-mc-21 (`-mcpu=gfx90a`).
    #[test]
    fn mfmas_are_counted_and_hold_the_matrix_core_for_their_passes() {
        let code = [
            0x00, 0x80, 0xc5, 0xd3, 0x01, 0x05, 0x02, 0x04, // v_mfma_f32_16x16x4f32 a[0:3], v1, v2, a[0:3]
            0x04, 0x80, 0xc5, 0xd3, 0x01, 0x05, 0x12, 0x04, // v_mfma_f32_16x16x4f32 a[4:7], v1, v2, a[4:7]
            0x01, 0x05, 0x06, 0x02, // v_add_f32_e32 v3, v1, v2
            0x00, 0x00, 0x81, 0xbf, // s_endpgm
        ];
        let t = find("gfx90a").unwrap();
        let p = KernelProfile::from_code(t, &code);
        assert_eq!(p.counts.get(InstClass::Valu), 3);
        let f32_at = rocprof_isa::MATRIX_TYPES.iter().position(|&x| x == rocprof_isa::op::MfmaTy::F32).unwrap();
        assert_eq!(p.matrix.instructions(), 2);
        assert_eq!(p.matrix.insts[f32_at], 2);
        assert_eq!(p.matrix.ops[f32_at], 2 * 2 * 16 * 16 * 4);
        assert_eq!(p.matrix.busy_cycles, 64);
        let costs = CostModel::new(t, 64);
        let valu = u64::from(costs.issue(InstClass::Valu));
        assert!(valu < 32, "a VALU issue is shorter than the MFMA's passes");
        let tl = p.timeline(&costs);
        assert_eq!(tl.issue[0], (0, 0));
        assert_eq!(tl.issue[1], (32, (32 - valu) as u32), "the second MFMA waits for the first's 32 cycles");
        assert_eq!(tl.issue[2], (32 + valu, 0), "the VALU add issues right after it");
        assert_eq!(tl.stall_cycles, 32 - valu);
    }

    /// WMMAs in the static walk (gfx11, gfx12): timed by their pass cycles as the executing path times
    /// them (AMD's matrix instruction calculator: RDNA3 `v_wmma_f32_16x16x16_f16` 32; RDNA4
    /// `v_swmmac_f32_16x16x32_f16` 16, `v_wmma_i32_16x16x16_iu8` 8), and not counted as MFMAs (the
    /// counter database defines no matrix counters for RDNA). Encodings from llvm-mc-19.
    #[test]
    fn wmmas_hold_the_matrix_unit_for_their_passes_on_gfx11_and_gfx12() {
        let gfx11 = [
            0x00, 0x40, 0x40, 0xcc, 0x08, 0x21, 0x02,
            0x1c, // v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
            0x18, 0x40, 0x40, 0xcc, 0x08, 0x21, 0x62,
            0x1c, // v_wmma_f32_16x16x16_f16 v[24:31], v[8:15], v[16:23], v[24:31]
            0x29, 0x55, 0x50, 0x06, // v_add_f32_e32 v40, v41, v42
            0x00, 0x00, 0xb0, 0xbf, // s_endpgm
        ];
        let gfx12 = [
            0x00, 0x40, 0x50, 0xcc, 0x08, 0x19, 0x52,
            0x1c, // v_swmmac_f32_16x16x32_f16 v[0:7], v[8:11], v[12:19], v20
            0x18, 0x40, 0x44, 0xcc, 0x08, 0x19, 0x62,
            0x1c, // v_wmma_i32_16x16x16_iu8 v[24:31], v[8:9], v[12:13], v[24:31]
            0x18, 0x40, 0x44, 0xcc, 0x08, 0x19, 0x62, 0x1c, // the same again
            0x00, 0x00, 0xb0, 0xbf, // s_endpgm
        ];
        for (gpu, code, passes) in [("gfx1100", &gfx11[..], [32u64, 32, 0]), ("gfx1201", &gfx12[..], [16, 8, 8])] {
            let t = find(gpu).unwrap();
            let p = KernelProfile::from_code(t, code);
            assert_eq!(p.counts.get(InstClass::Valu), 3, "{gpu}");
            assert_eq!(p.matrix, rocprof_isa::MatrixStats::default(), "{gpu}: no MFMA counters");
            let costs = CostModel::new(t, 32);
            let valu = u64::from(costs.issue(InstClass::Valu));
            assert!(valu < 8, "{gpu}: a VALU issue is shorter than the passes");
            let tl = p.timeline(&costs);
            assert_eq!(tl.issue[0], (0, 0), "{gpu}");
            assert_eq!(tl.issue[1], (passes[0], (passes[0] - valu) as u32), "{gpu}: the second waits for the first");
            if passes[2] > 0 {
                let at = passes[0] + passes[1];
                assert_eq!(tl.issue[2], (at, (passes[1] - valu) as u32), "{gpu}: the third waits for the second");
            } else {
                assert_eq!(tl.issue[2], (passes[0] + valu, 0), "{gpu}: the VALU add issues right after it");
            }
        }
    }
}
