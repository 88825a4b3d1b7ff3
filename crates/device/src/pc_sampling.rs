//! PC sampling in the device model: the GPU's PC sampler. What each target offers (methods, units,
//! interval ranges) is data about targets (`rocprof_targets::pc_sampling`); this module takes the
//! samples of a dispatch from its model. hsa-sim hands them to ROCr's PC-sampling extension
//! (`sim-hsa/src/pcs.rs`: sessions, buffers, callbacks).
//!
//! **Host trap** (gfx90a, gfx942; interval in GPU timestamp ticks here, microseconds at the interface):
//! a timer fires every interval of the GPU clock (a global phase, not per dispatch). When it fires
//! while a kernel runs, the sample is one wave resident at that moment: where the wave's program
//! counter was, its EXEC mask at that instruction, its workgroup, its place (`HW_ID`: wave slot, SIMD,
//! CU, shader array and engine) and the trap handler's correlation id (the kernel packet's ring index
//! modulo the queue size in bits 0..25, the queue's doorbell id / 8 in bits 32..42; a tool maps it
//! back to its dispatch through the intercept marker it placed before the packet, as rocprofiler-sdk
//! does).
//!
//! **Honest to the model**: a dispatch's GPU time `[start, end)` is the model's `dispatch_cycles`
//! (launch overhead, then the busiest CU's rounds of waves), stretched to the dispatch's real
//! duration. A tick at time `t` maps to model cycle `c`; during the launch overhead no wave runs and no
//! sample is taken. The waves sampled are those of one CU per shader engine, on as many engines as the
//! recording budget allows ([`sampled_waves`]; CU 0 of engine 0 alone when it runs [`MAX_WAVES`]
//! rounds), one wave per workgroup ([`thin`]), recorded instruction by instruction by the
//! interpreter, and a sample's `HW_ID` is where the model placed that wave. Among the waves resident
//! at `c` the tick picks one in turn; the wave's PC at `c` is the instruction that issues next: an
//! instruction owns the cycles from when the wave began waiting for it (its stall, e.g. an `s_waitcnt`
//! for a load) until the next one starts waiting. So samples fall on instructions in proportion to the
//! modelled time spent there. A tick inside the CU's busy time that finds no recorded wave (more
//! rounds than [`MAX_WAVES`] recorded waves cover) is counted lost, never dropped silently. A wave
//! longer than [`MAX_STEPS`] instructions is thinned on a cycle grid as it runs
//! (`rocprof_isa::decimate`): the record keeps, over the whole wave, the instruction owning a
//! pseudo-random point of each grid cell, and a tick takes the owner of its cell's point, so long
//! waves sample as honestly as short ones.
//!
//! **Stochastic** (gfx942, gfx950; interval in shader cycles, a power of two): the sampled CU's
//! counter fires every `interval` cycles of the model (a global phase from the GPU clock), so samples
//! follow modelled cycles, not the dispatch's stretched wall time. Each sample carries a
//! `perf_snapshot_data` snapshot of one resident wave (taken in turn) in rocprofiler-sdk's GFX9 layout
//! (`parser/translation.hpp`, `parser/gfx9.hpp`): valid (bit 0), issued (1), instruction type (3..6),
//! reason not issued (7..9), arbiter issue/stall state (10..17, 18..25); `perf_snapshot_data1` bits 0..5
//! the waves resident on the CU. A wave inside an instruction's wait (from when it began waiting until
//! it issues) has not issued: an `s_waitcnt` reports `WAITCNT` (gfx9 never reports `s_waitcnt` issued),
//! `s_barrier` `BARRIER_WAIT`, `s_nop`/`s_sleep` `INTERNAL_INSTRUCTION`, any other wait
//! `ARBITER_NOT_WIN`; otherwise it issued, with the type of the instruction's mnemonic
//! ([`snapshot`]) and that port's arbiter issue bit.

pub use rocprof_targets::pc_sampling::{Method, Unit};

use crate::wave::{DetailRequest, DispatchModel, InstClass, WaveDetail, WavePlacement};

/// Most waves of a dispatch recorded for sampling (one per workgroup of the sampled CU).
pub const MAX_WAVES: usize = 128;
/// Most instructions recorded per sampled wave.
pub const MAX_STEPS: usize = 1 << 16;

/// The detail request a sampled dispatch runs with: every wave is listed, [`sampled_waves`] picks the
/// recorded ones, each kept up to [`MAX_STEPS`] instructions (thinned beyond).
pub const DETAIL: DetailRequest =
    DetailRequest { se_mask: u64::MAX, cu_in_se: None, max_waves: usize::MAX, max_instructions_per_wave: MAX_STEPS };

/// One sample as the hardware reports it (ROCr's `perf_sample_hosttrap_v1_t` /
/// `perf_sample_snapshot_v1_t` fields; host trap leaves the snapshot words zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The wave's program counter (the instruction it issues next).
    pub pc: u64,
    /// The wave's EXEC mask at that instruction.
    pub exec_mask: u64,
    /// Workgroup id x, y, z.
    pub workgroup_id: [u32; 3],
    /// Wave in workgroup (bits 0..5) and chiplet (bits 6..8).
    pub wave_in_group_chiplet: u32,
    /// `HW_ID`: where the wave runs (gfx9 layout).
    pub hw_id: u32,
    /// Stochastic: the wave's issue state ([`snapshot`]); host trap: 0.
    pub perf_snapshot_data: u32,
    /// Stochastic: waves resident on the CU (bits 0..5); host trap: 0.
    pub perf_snapshot_data1: u32,
    /// GPU timestamp tick of the sample.
    pub tick: u64,
    /// The trap handler's correlation id ([`trap_correlation`]).
    pub correlation_id: u64,
}

/// The waves to record for sampling, as (workgroup, wave in workgroup). Sampled CUs: one per shader
/// engine (CU `se mod CUs` of engine `se`, or its CU 0 when that one got no workgroup), on as many
/// engines, spread evenly, as [`MAX_WAVES`] recorded workgroups allow when every sampled CU keeps as
/// many workgroups as CU 0 of engine 0 runs (so the CU's every round has recorded waves, as with one
/// CU); at least that one CU. Of each sampled CU one wave per workgroup is kept ([`thin`]); the CUs'
/// lists are interleaved round by round up to [`MAX_WAVES`].
pub fn sampled_waves(m: &DispatchModel) -> Vec<(u64, u32)> {
    let engines = m.shader_engines().max(1);
    let cu_of = |se: u32| {
        let cu = se % m.cus_of_se(se).max(1);
        if m.workgroups_on_cu(se, cu).next().is_some() {
            cu
        } else {
            0
        }
    };
    let first = m.workgroups_on_cu(0, 0).count().max(1);
    let n = (MAX_WAVES / first).clamp(1, engines as usize);
    let lists: Vec<Vec<(u64, u32)>> = (0..n)
        .map(|i| {
            let se = (i as u64 * u64::from(engines) / n as u64) as u32;
            let waves =
                m.workgroups_on_cu(se, cu_of(se)).flat_map(|g| (0..m.waves_in_workgroup(g)).map(move |w| (g, w)));
            thin(waves.collect())
        })
        .collect();
    let mut out = Vec::new();
    for j in 0.. {
        let before = out.len();
        out.extend(lists.iter().filter_map(|l| l.get(j)).take(MAX_WAVES - before.min(MAX_WAVES)));
        if out.len() == before || out.len() >= MAX_WAVES {
            break;
        }
    }
    out
}

/// The waves to record of those on one CU (listed by workgroup in run order): one per
/// workgroup, the `k`-th workgroup's wave `k mod waves` (so every round of the CU has recorded waves and
/// each wave position of a workgroup takes its turn), at most [`MAX_WAVES`]. The recorded wave stands
/// for its workgroup: a tick picks among the recorded waves resident at that moment.
pub fn thin(waves: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
    let mut per_group: Vec<(u64, u32)> = Vec::new();
    for (g, w) in waves {
        match per_group.last_mut() {
            Some(last) if last.0 == g => last.1 = last.1.max(w + 1),
            _ => per_group.push((g, w + 1)),
        }
    }
    per_group.iter().enumerate().take(MAX_WAVES).map(|(k, &(g, n))| (g, k as u32 % n.max(1))).collect()
}

/// Where a dispatch ran: what the sampler needs besides the model.
pub struct Ran<'a> {
    /// GPU tick of its start.
    pub start: u64,
    /// GPU tick of its end.
    pub end: u64,
    /// Kernel entry address.
    pub entry: u64,
    /// The kernel's code from `entry` (stochastic samples decode the sampled instruction's type).
    pub code: &'a [u8],
    /// Ring index of the kernel packet.
    pub index: u64,
    /// Packets the queue holds.
    pub queue_size: u64,
    /// The queue's doorbell id.
    pub doorbell: u64,
}

/// The trap handler's correlation id of a dispatch (see the module documentation).
pub fn trap_correlation(doorbell: u64, index: u64, queue_size: u64) -> u64 {
    ((index % queue_size.max(1)) & ((1 << 25) - 1)) | (((doorbell >> 3) & ((1 << 10) - 1)) << 32)
}

/// `HW_ID` of a wave (gfx9 layout: wave slot 3:0, SIMD 5:4, CU 11:8, shader array 12, shader engine 15:13).
fn hw_id(p: &WavePlacement) -> u32 {
    (p.slot & 0xf) | ((p.simd & 3) << 4) | ((p.cu_in_se & 0xf) << 8) | ((p.sa & 1) << 12) | ((p.se_in_xcc & 7) << 13)
}

/// What a sample at model cycle `c` (of the dispatch, launch overhead included) finds on the sampled
/// CUs: the wave taken (the `turn`-th resident recorded wave, round robin), the index of the instruction
/// that owns `c` in it, how many recorded waves are resident on its CU, and the cycle (since the first
/// wave start) whose owner that is: `c`, or for a long wave thinned on a cycle grid the point of `c`'s
/// cell (the record keeps each point's owner, [`rocprof_isa::decimate`]). `Err(true)`: a tick inside the CU's
/// busy time that finds no recorded wave or runs past a wave's recorded part (lost); `Err(false)`: no
/// wave runs then (launch overhead, idle tail).
fn wave_at(model: &DispatchModel, c: u64, turn: u64) -> Result<(&WaveDetail, usize, usize, u64), bool> {
    let overhead = model.dispatch_cycles.saturating_sub(model.totals.busy_cycles);
    let c = c.checked_sub(overhead).ok_or(false)?;
    let resident: Vec<_> = model.detail.iter().filter(|w| w.wave.start_cycle <= c && c < w.wave.end_cycle).collect();
    if resident.is_empty() {
        // Lost when a sampled CU was still busy then (its waves there went unrecorded).
        let busy = |w: &WaveDetail| model.per_cu.get(w.wave.placement.cu as usize).map_or(0, |t| t.busy_cycles);
        return Err(model.detail.iter().any(|w| c < busy(w)));
    }
    let w = resident[(turn % resident.len() as u64) as usize];
    let on_cu = resident.iter().filter(|x| x.wave.placement.cu == w.wave.placement.cu).count();
    let c = if w.grid_level > 0 {
        let start = w.wave.start_cycle;
        start + rocprof_isa::grid_point(w.grid_level, (c - start) >> w.grid_level)
    } else {
        c
    };
    // The instruction whose wait (stall) or issue covers `c`: the last one that began waiting by then.
    let k = w.instructions.partition_point(|i| i.issue_cycle.saturating_sub(u64::from(i.stall_cycles)) <= c);
    let k = k.checked_sub(1).ok_or(true)?;
    let i = &w.instructions[k];
    if w.truncated && k + 1 == w.instructions.len() && c > i.issue_cycle + 64 {
        // Past the recorded part of a wave that went on: its PC there is unknown.
        return Err(true);
    }
    Ok((w, k, on_cu, c))
}

/// The sample fields every method shares (its tick and snapshot words left zero).
fn sample_of(w: &WaveDetail, k: usize, r: &Ran<'_>) -> Sample {
    let i = &w.instructions[k];
    let p = &w.wave.placement;
    Sample {
        pc: r.entry + u64::from(i.pc_offset),
        exec_mask: i.exec_mask,
        workgroup_id: w.wave.workgroup_id,
        wave_in_group_chiplet: (w.wave.wave_in_group & 0x3f) | ((p.xcc & 7) << 6),
        hw_id: hw_id(p),
        perf_snapshot_data: 0,
        perf_snapshot_data1: 0,
        tick: 0,
        correlation_id: trap_correlation(r.doorbell, r.index, r.queue_size),
    }
}

/// The host-trap samples of one dispatch (a timer every `period` GPU ticks, at least 1) and the ticks
/// that found no recorded wave inside the sampled CU's busy time. A sample's tick is the timer's.
pub fn host_trap(model: &DispatchModel, r: &Ran<'_>, period: u64) -> (Vec<Sample>, usize) {
    let period = period.max(1);
    let span = (r.end - r.start) as f64;
    let mut out = Vec::new();
    let mut lost = 0;
    let mut t = r.start.div_ceil(period) * period;
    while t < r.end {
        let tick = t / period;
        let c = ((t - r.start) as f64 / span * model.dispatch_cycles as f64) as u64;
        t += period;
        match wave_at(model, c, tick) {
            Ok((w, k, _, _)) => out.push(Sample { tick: t - period, ..sample_of(w, k, r) }),
            Err(true) => lost += 1,
            Err(false) => {}
        }
    }
    (out, lost)
}

/// rocprofiler-sdk's GFX9 instruction types (`parser/gfx9.hpp`, `inst_type_issued`),
/// named as there.
#[allow(missing_docs)]
pub mod inst_type {
    pub const VALU: u32 = 0;
    pub const MATRIX: u32 = 1;
    pub const SCALAR: u32 = 2;
    pub const TEX: u32 = 3;
    pub const LDS: u32 = 4;
    pub const FLAT: u32 = 5;
    pub const EXPORT: u32 = 6;
    pub const MESSAGE: u32 = 7;
    pub const BARRIER: u32 = 8;
    pub const BRANCH_NOT_TAKEN: u32 = 9;
    pub const BRANCH_TAKEN: u32 = 10;
    pub const JUMP: u32 = 11;
    pub const OTHER: u32 = 12;
}

/// rocprofiler-sdk's GFX9 reasons an instruction was not issued (`parser/gfx9.hpp`, `reason_not_issued`),
/// named as there.
#[allow(missing_docs)]
pub mod reason {
    pub const INTERNAL_INSTRUCTION: u32 = 3;
    pub const WAITCNT: u32 = 2;
    pub const BARRIER_WAIT: u32 = 4;
    pub const ARBITER_NOT_WIN: u32 = 5;
}

/// The arbiter port (bit of the issue/stall state, `parser/gfx9.hpp` `arb_state`) of an instruction type.
fn port(t: u32) -> u32 {
    use inst_type::*;
    match t {
        VALU => 7,
        MATRIX => 6,
        SCALAR => 5,
        TEX => 4,
        LDS => 3,
        FLAT => 2,
        EXPORT => 1,
        _ => 0,
    }
}

/// `perf_snapshot_data` of a wave sampled on instruction `name` (LLVM mnemonic) of class `class`:
/// `waiting` when the sample falls in the cycles the wave waited before issuing it.
pub fn snapshot(name: &str, class: InstClass, waiting: bool) -> u32 {
    const VALID: u32 = 1;
    let not_issued = |why: u32| VALID | (why << 7);
    if name.starts_with("s_waitcnt") {
        return not_issued(reason::WAITCNT);
    }
    if name.starts_with("s_nop") || name.starts_with("s_sleep") {
        return not_issued(reason::INTERNAL_INSTRUCTION);
    }
    if waiting {
        let why = if name.starts_with("s_barrier") { reason::BARRIER_WAIT } else { reason::ARBITER_NOT_WIN };
        return not_issued(why);
    }
    let t = match name {
        n if n.starts_with("v_") && (n.contains("mfma") || n.contains("smfmac")) => inst_type::MATRIX,
        n if n.starts_with("v_") => inst_type::VALU,
        n if n.starts_with("buffer_") || n.starts_with("tbuffer_") || n.starts_with("image_") => inst_type::TEX,
        n if n.starts_with("global_") || n.starts_with("flat_") || n.starts_with("scratch_") => inst_type::FLAT,
        n if n.starts_with("ds_") => inst_type::LDS,
        n if n.starts_with("exp") => inst_type::EXPORT,
        n if n.starts_with("s_sendmsg") => inst_type::MESSAGE,
        n if n.starts_with("s_barrier") => inst_type::BARRIER,
        n if n.starts_with("s_setpc") || n.starts_with("s_swappc") => inst_type::JUMP,
        n if n.starts_with("s_branch") || n.starts_with("s_cbranch") => match class {
            InstClass::BranchNotTaken => inst_type::BRANCH_NOT_TAKEN,
            _ => inst_type::BRANCH_TAKEN,
        },
        n if n.starts_with("s_") => inst_type::SCALAR,
        _ => inst_type::OTHER,
    };
    VALID | 0b10 | (t << 3) | (1 << (10 + port(t)))
}

/// The stochastic samples of one dispatch (every `interval_cycles` shader cycles of the sampled CU) and
/// the ticks that found no recorded wave inside its busy time.
pub fn stochastic(model: &DispatchModel, r: &Ran<'_>, interval_cycles: u64) -> (Vec<Sample>, usize) {
    let cycles = model.dispatch_cycles;
    if cycles == 0 || interval_cycles == 0 {
        return (Vec::new(), 0);
    }
    let span = (r.end - r.start) as f64;
    let per_tick = cycles as f64 / span;
    // The CU's cycle count at the dispatch's start (its counter runs from the GPU's epoch).
    let phase = (r.start as f64 * per_tick) as u64;
    let target = rocprof_isa::Target::find(model.target.name);
    let mut out = Vec::new();
    let mut lost = 0;
    let mut c = (interval_cycles - phase % interval_cycles) % interval_cycles;
    while c < cycles {
        let turn = (phase + c) / interval_cycles;
        match wave_at(model, c, turn) {
            Ok((w, k, resident, at)) => {
                let i = &w.instructions[k];
                let bytes = r.code.get(i.pc_offset as usize..).unwrap_or_default();
                let name = target.and_then(|t| rocprof_isa::decode(t, bytes).ok()).map_or("", |d| d.name);
                let waiting = at < i.issue_cycle;
                let mut s = sample_of(w, k, r);
                s.perf_snapshot_data = snapshot(name, i.class, waiting);
                // Waves on the CU: each recorded wave stands for its workgroup.
                let waves = (resident as u32).saturating_mul(model.waves_per_workgroup.max(1));
                s.perf_snapshot_data1 = waves.min(model.occupancy.waves_per_cu.max(1)).clamp(1, 63);
                s.tick = r.start + (c as f64 / per_tick) as u64;
                out.push(s);
            }
            Err(true) => lost += 1,
            Err(false) => {}
        }
        c += interval_cycles;
    }
    (out, lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rocprofiler-sdk's GFX9 decoding of `perf_snapshot_data` (`parser/translation.hpp`): valid bit 0,
    /// issued bit 1, type bits 3..6, reason bits 7..9, arbiter issue bits 10..17 (VALU at 7) and stall
    /// bits 18..25; AMD's validators' rules: `s_waitcnt` is never issued (reason WAITCNT), `global_*` is
    /// FLAT, `buffer_*` TEX, an issued instruction's arbiter stall bit is never set without its issue bit.
    #[test]
    fn snapshots_decode_as_rocprofiler_sdk_reads_gfx9_snapshots() {
        let bits = |v: u32, lo: u32, hi: u32| (v >> lo) & ((1 << (hi - lo + 1)) - 1);
        let w = snapshot("s_waitcnt", InstClass::Waitcnt, false);
        assert_eq!((bits(w, 0, 0), bits(w, 1, 1), bits(w, 7, 9), bits(w, 10, 25)), (1, 0, 2, 0));
        let v = snapshot("v_add_f32", InstClass::Valu, false);
        assert_eq!((bits(v, 1, 1), bits(v, 3, 6), bits(v, 10, 25)), (1, 0, 1 << 7));
        assert_eq!(bits(snapshot("global_load_dword", InstClass::VmemLoad, false), 3, 6), 5);
        assert_eq!(bits(snapshot("buffer_load_dword", InstClass::VmemLoad, false), 3, 6), 3);
        assert_eq!(bits(snapshot("v_mfma_f32_32x32x8f16", InstClass::Valu, false), 3, 6), 1);
        assert_eq!(bits(snapshot("s_cbranch_scc0", InstClass::BranchNotTaken, false), 3, 6), 9);
        assert_eq!(bits(snapshot("s_cbranch_scc0", InstClass::BranchTaken, false), 3, 6), 10);
        assert_eq!(bits(snapshot("s_load_dwordx2", InstClass::Smem, false), 3, 6), 2);
        let b = snapshot("s_barrier", InstClass::Barrier, true);
        assert_eq!((bits(b, 1, 1), bits(b, 7, 9)), (0, 4));
        let n = snapshot("s_nop", InstClass::Other, false);
        assert_eq!((bits(n, 1, 1), bits(n, 7, 9)), (0, 3));
        for x in [w, v, b, n] {
            assert_eq!(bits(x, 26, 26), 0, "no error bit");
            assert_eq!(bits(x, 18, 25) & !bits(x, 10, 17), 0, "a stall bit without its issue bit");
        }
    }

    /// Sampled waves spread over the shader engines: a dispatch of 1024 one-wave workgroups on gfx90a
    /// (about 9 per CU) records waves on every one of its 8 engines, each engine's CU `se mod CUs`
    /// (placement from the model), each CU's workgroups in run order; one with 200 rounds on CU 0 keeps
    /// to CU 0 of engine 0, as many recorded waves as before.
    #[test]
    fn sampled_waves_spread_over_shader_engines_when_the_rounds_allow() {
        use crate::wave::{DispatchInput, KernelProfile};
        let t = crate::targets::find("gfx90a").unwrap();
        let k = KernelProfile::from_code(t, &0xBF81_0000u32.to_le_bytes());
        let model = |groups: u32| {
            let input = DispatchInput {
                target: t,
                grid: [groups * 64, 1, 1],
                workgroup: [64, 1, 1],
                wavefront_size: 64,
                lds_bytes: 0,
                scratch_bytes: 0,
                kernel: &k,
            };
            DispatchModel::build(&input, &DetailRequest::NONE)
        };
        let m = model(1024);
        let waves = sampled_waves(&m);
        let places: Vec<_> = waves.iter().map(|&(g, w)| m.wave(g, w).unwrap().placement).collect();
        let engines: std::collections::BTreeSet<u32> = places.iter().map(|p| p.se).collect();
        assert_eq!(engines.len() as u32, m.shader_engines(), "{engines:?}");
        for p in &places {
            assert_eq!(p.cu_in_se, p.se % m.cus_of_se(p.se), "engine {} samples its CU se mod CUs", p.se);
        }
        // Every workgroup of each sampled CU is kept, in the CU's run order.
        for se in 0..m.shader_engines() {
            let want: Vec<u64> = m.workgroups_on_cu(se, se % m.cus_of_se(se)).collect();
            let got: Vec<u64> =
                waves.iter().map(|w| w.0).filter(|&g| m.wave(g, 0).unwrap().placement.se == se).collect();
            assert_eq!(got, want, "engine {se}");
        }
        let m = model(110 * 200);
        let waves = sampled_waves(&m);
        assert_eq!(waves.len(), MAX_WAVES);
        assert!(waves.iter().all(|&(g, w)| {
            let p = m.wave(g, w).unwrap().placement;
            (p.se, p.cu_in_se) == (0, 0)
        }));
    }

    /// One recorded wave per workgroup of the sampled CU, each wave position in turn.
    #[test]
    fn thin_keeps_one_wave_per_workgroup_in_turn() {
        let waves: Vec<(u64, u32)> = [3u64, 9, 15, 21, 27].iter().flat_map(|&g| (0..4).map(move |w| (g, w))).collect();
        assert_eq!(thin(waves), [(3, 0), (9, 1), (15, 2), (21, 3), (27, 0)]);
    }

    /// rocprofiler-sdk's `trap_correlation_id`: ring index modulo the queue size, doorbell / 8 at bit 32.
    #[test]
    fn trap_correlation_packs_ring_slot_and_doorbell_as_rocprofiler_sdk() {
        assert_eq!(trap_correlation(0x1000, 70, 64), 6 | (0x200 << 32));
    }

    /// A long wave (40,000 iterations of a loop that loads, adds and waits: 360,000 instructions, more
    /// than [`MAX_STEPS`]) sampled stochastically every 256 cycles: nothing is lost, and each instruction's
    /// share of the samples is within 1 point of its share of the wave's modelled time, taken from a full
    /// record of the same run (host sum of the cycles each instruction owns, from its wait to the next
    /// one's). Cut at [`MAX_STEPS`] instead of thinned, most of the wave's ticks are lost.
    #[test]
    fn a_wave_longer_than_the_record_keeps_an_honest_sample_distribution() {
        use crate::wave::{DispatchInput, KernelProfile};
        use std::collections::BTreeMap;
        const CODE: u64 = 0x1000_0000;
        const KERNARG: u64 = 0x2000_0000;
        const DATA: u64 = 0x3000_0000;
        // `llvm-mc-19 -arch=amdgcn -mcpu=gfx90a -show-encoding`: s_load_dwordx2 s[2:3], s[0:1], 0;
        // s_waitcnt lgkmcnt(0); s_mov_b32 s10, 40000; v_mov_b32 v2, 0; v_mov_b32 v3, 0; loop (at 28):
        // global_load_dword v1, v2, s[2:3]; v_add_u32 v4, 1, v0; v_add_u32 v5, 2, v0; v_add_u32 v6, 3, v0;
        // s_waitcnt vmcnt(0); v_add_u32 v3, v1, v3; s_sub_u32 s10, s10, 1; s_cmp_lg_u32 s10, 0;
        // s_cbranch_scc1 loop (-10 words); s_endpgm.
        let code: Vec<u8> = [
            &[0x80, 0x00, 0x06, 0xc0, 0x00, 0x00, 0x00, 0x00][..],
            &[0x7f, 0xc0, 0x8c, 0xbf],
            &[0xff, 0x00, 0x8a, 0xbe, 0x40, 0x9c, 0x00, 0x00],
            &[0x80, 0x02, 0x04, 0x7e],
            &[0x80, 0x02, 0x06, 0x7e],
            &[0x00, 0x80, 0x50, 0xdc, 0x02, 0x00, 0x02, 0x01],
            &[0x81, 0x00, 0x08, 0x68],
            &[0x82, 0x00, 0x0a, 0x68],
            &[0x83, 0x00, 0x0c, 0x68],
            &[0x70, 0x0f, 0x8c, 0xbf],
            &[0x01, 0x07, 0x06, 0x68],
            &[0x0a, 0x81, 0x8a, 0x80],
            &[0x0a, 0x80, 0x07, 0xbf],
            &[0xf6, 0xff, 0x85, 0xbf],
            &[0x00, 0x00, 0x81, 0xbf],
        ]
        .concat();
        let mut kd = [0u8; 64];
        kd[16..24].copy_from_slice(&256i64.to_le_bytes());
        kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
        kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
        kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
        let mut image = kd.to_vec();
        image.resize(256, 0);
        image.extend_from_slice(&code);
        let mut mem = rocprof_isa::FlatMemory::new();
        mem.map(CODE, &image);
        mem.map(KERNARG, &DATA.to_le_bytes());
        mem.map(DATA, &[1, 0, 0, 0]);
        let t = crate::targets::find("gfx90a").unwrap();
        let profile = KernelProfile::from_code(t, &code);
        let input = DispatchInput {
            target: t,
            grid: [64, 1, 1],
            workgroup: [64, 1, 1],
            wavefront_size: 64,
            lds_bytes: 0,
            scratch_bytes: 0,
            kernel: &profile,
        };
        let d = rocprof_isa::Dispatch {
            target: rocprof_isa::Target::find("gfx90a").unwrap(),
            kernel_object: CODE,
            descriptor: rocprof_isa::KernelDescriptor::parse(&kd),
            grid: input.grid,
            workgroup: input.workgroup,
            group_segment_size: 0,
            private_segment_size: 0,
            kernarg: KERNARG,
            dispatch_ptr: KERNARG,
            queue_ptr: 0,
            dispatch_id: 0,
        };
        let all = |_: u64, _: u32| true;
        let model = |steps: usize, thin: bool| {
            let req = DetailRequest { max_instructions_per_wave: steps, ..DETAIL };
            let mut opts = crate::wave::run_options(&input, &req, 1, Some(&all));
            opts.decimate_detail = thin;
            let rec = rocprof_isa::run(&d, &mem, &opts).unwrap();
            DispatchModel::from_execution(&input, &rec, &req)
        };
        let full = model(1 << 22, false);
        let w = &full.detail[0];
        assert!(!w.truncated && w.grid_level == 0 && w.instructions.len() > 5 * MAX_STEPS, "{}", w.instructions.len());
        // The modelled time split: cycles each instruction owns in the full record.
        let begin = |i: &crate::wave::InstructionDetail| i.issue_cycle - u64::from(i.stall_cycles);
        let mut owned: BTreeMap<u32, u64> = BTreeMap::new();
        for (k, i) in w.instructions.iter().enumerate() {
            let next = w.instructions.get(k + 1).map_or(w.wave.end_cycle, begin);
            *owned.entry(i.pc_offset).or_default() += next - begin(i);
        }
        let total: u64 = owned.values().sum();

        // One GPU tick per model cycle.
        let sample = |m: &DispatchModel| {
            let (start, end) = (1u64 << 20, (1u64 << 20) + m.dispatch_cycles);
            let ran = Ran { start, end, entry: CODE + 256, code: &code, index: 0, queue_size: 64, doorbell: 0 };
            stochastic(m, &ran, 256)
        };
        let thinned = model(MAX_STEPS, true);
        assert!(thinned.detail[0].grid_level > 0 && thinned.detail[0].instructions.len() <= MAX_STEPS);
        assert_eq!(thinned.dispatch_cycles, full.dispatch_cycles, "the same run");
        let (samples, lost) = sample(&thinned);
        assert_eq!(lost, 0);
        let n = samples.len() as f64;
        assert!(n > 10_000.0, "{n} samples");
        let mut got: BTreeMap<u32, u64> = BTreeMap::new();
        for s in &samples {
            *got.entry((s.pc - CODE - 256) as u32).or_default() += 1;
        }
        for (pc, &cycles) in &owned {
            let want = cycles as f64 / total as f64;
            let share = got.get(pc).copied().unwrap_or(0) as f64 / n;
            assert!((share - want).abs() < 0.01, "offset {pc:#x}: {share:.4} of samples, {want:.4} of the time");
        }
        let (cut, cut_lost) = sample(&model(MAX_STEPS, false));
        assert!(cut_lost > 3 * cut.len(), "{cut_lost} lost, {} kept", cut.len());
    }
}
