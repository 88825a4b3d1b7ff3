//! The dispatch model from what the waves really executed ([`Source::Executed`]): hsa-sim runs the kernel on
//! `rocprof-isa`'s interpreter, which counts every wave's instructions by class, bytes per memory kind,
//! active lanes and (under this crate's [`CostModel`]) issue and stall cycles, and records the executed
//! instructions of the waves a [`DetailRequest`] selects. This module turns that record into the same
//! [`DispatchModel`] the static walk builds, so counters and thread traces read one structure.
//!
//! Placement and occupancy are the static model's (they depend on the grid, not on what ran). Time: each
//! wave lasts its own `issue + stall` cycles; a CU runs its workgroups in rounds of
//! [`Occupancy::workgroups_per_cu`], a round lasting as long as its longest wave, and its waves start at
//! the round's start. The dispatch's duration follows from its busiest CU, as in the static model.

use rocprof_isa::{Costs, DispatchRecord, RunOptions, WaveStats};

use super::{
    sum, DetailRequest, DispatchInput, DispatchModel, InstClass, InstCounts, InstructionDetail, Source, Totals,
    WaveDetail, WaveWork, WorkgroupGrid,
};
use crate::timing::{self, CostModel};

/// The interpreter's cycle costs for this model's [`CostModel`].
pub fn isa_costs(costs: &CostModel) -> Costs {
    let mut c = Costs::default();
    for k in InstClass::ALL {
        c.issue[k as usize] = costs.issue(k);
        c.latency[k as usize] = costs.latency(k);
    }
    c
}

/// Run options for executing `input`'s dispatch so that its record fits [`DispatchModel::from_execution`]:
/// the target's cycle costs, and instruction detail for the waves `filter` accepts (build it from
/// [`DispatchModel::detail_waves`]).
pub fn run_options<'a>(
    input: &DispatchInput<'_>,
    req: &DetailRequest,
    threads: usize,
    filter: Option<&'a (dyn Fn(u64, u32) -> bool + Sync)>,
) -> RunOptions<'a> {
    RunOptions {
        threads,
        detail: filter,
        max_detail_steps: req.max_instructions_per_wave,
        costs: isa_costs(&CostModel::new(input.target, input.wavefront_size)),
        ..RunOptions::default()
    }
}

fn work_of(s: &WaveStats) -> WaveWork {
    let mut counts = InstCounts::default();
    for k in InstClass::ALL {
        counts.add(k, s.count(k));
    }
    WaveWork {
        instructions: counts,
        bytes: s.bytes,
        valu_active_lanes: s.valu_active_lanes,
        issue_cycles: s.issue_cycles,
        stall_cycles: s.stall_cycles,
        matrix: s.matrix,
    }
}

impl DispatchModel {
    /// The waves `req` selects for per-instruction detail, as (workgroup, wave in workgroup), in the order
    /// the model lists detailed waves (SE, CU, the CU's workgroups in run order, waves), at most
    /// `req.max_waves`.
    pub fn detail_waves(&self, req: &DetailRequest) -> Vec<(u64, u32)> {
        let mut out = Vec::new();
        if req.max_waves == 0 || req.se_mask == 0 {
            return out;
        }
        for se in 0..(self.xccs * self.se_per_xcc).min(64) {
            if req.se_mask & (1 << se) == 0 {
                continue;
            }
            let cus = match req.cu_in_se {
                Some(c) => c..c + 1,
                None => 0..self.cus_in_se[(se % self.se_per_xcc) as usize],
            };
            for c in cus {
                for g in self.workgroups_on_cu(se, c) {
                    for w in 0..self.waves_in_workgroup(g) {
                        if out.len() >= req.max_waves {
                            return out;
                        }
                        out.push((g, w));
                    }
                }
            }
        }
        out
    }

    /// The model of `input`'s dispatch from the interpreter's record of it. `rec` must come from a run
    /// with [`run_options`] (cycle costs of this target; detail for the waves `req` selects).
    pub fn from_execution(input: &DispatchInput<'_>, rec: &DispatchRecord, req: &DetailRequest) -> DispatchModel {
        let mut m = DispatchModel::build(input, &DetailRequest::NONE);
        m.source = Source::Executed;
        let t = m.target;
        let grid = WorkgroupGrid::new(m.grid, m.workgroup);
        let per_wg = u64::from(m.occupancy.workgroups_per_cu.max(1));
        let mut per_cu = vec![Totals::default(); m.per_cu.len()];
        // Longest wave of each (CU, round), for the CU's busy time and the waves' start cycles.
        let mut rounds: Vec<Vec<u64>> = vec![Vec::new(); m.per_cu.len()];
        let mut max_wave = 0u64;
        m.full_wave = work_of(&rec.first_wave);
        for g in &rec.workgroups {
            let (cu, _, _, _, j) = m.place_workgroup(g.workgroup);
            max_wave = max_wave.max(g.max_cycles);
            let round = (j / per_wg) as usize;
            let cu = cu as usize;
            if cu < per_cu.len() {
                let w = work_of(&g.stats);
                per_cu[cu].add(&Totals {
                    waves: u64::from(g.waves),
                    lanes: g.lanes,
                    workgroups: u64::from(g.waves > 0),
                    instructions: w.instructions,
                    bytes: w.bytes,
                    valu_active_lanes: w.valu_active_lanes,
                    wave_cycles: g.wave_cycles,
                    issue_cycles: w.issue_cycles,
                    stall_cycles: w.stall_cycles,
                    matrix: w.matrix,
                    ..Totals::default()
                });
                let rs = &mut rounds[cu];
                if rs.len() <= round {
                    rs.resize(round + 1, 0);
                }
                rs[round] = rs[round].max(g.max_cycles);
            }
        }
        for (cu, totals) in per_cu.iter_mut().enumerate() {
            totals.busy_cycles = rounds[cu].iter().sum();
        }
        m.per_cu = per_cu;
        let se_count = (m.xccs * m.se_per_xcc) as usize;
        for se in 0..se_count {
            let s = se % m.se_per_xcc as usize;
            let first = m.first_cu[se] as usize;
            let cus = first..(first + m.cus_in_se[s] as usize).min(m.per_cu.len());
            m.per_se[se] = sum(&m.per_cu[cus]);
        }
        m.totals = sum(&m.per_se);
        m.wave_cycles = max_wave.max(1);
        m.dispatch_cycles = timing::ns_to_cycles(t, timing::LAUNCH_OVERHEAD_NS) + m.totals.busy_cycles;
        m.duration_ns = timing::duration_ns(t, m.totals.busy_cycles);
        // Detail: the recorded waves, placed, with their instructions' issue cycles from the round start.
        let mut detail = Vec::new();
        // Only the recorded waves (those with steps) can be detailed: the record keeps just them.
        let index: std::collections::HashMap<(u64, u32), usize> = rec
            .detailed
            .iter()
            .enumerate()
            .filter(|(_, r)| r.steps.is_some())
            .map(|(k, r)| ((r.workgroup, r.wave), k))
            .collect();
        for id in m.detail_waves(req) {
            let Some(&k) = index.get(&id) else { continue };
            let r = &rec.detailed[k];
            let (cu, _, _, _, j) = m.place_workgroup(r.workgroup);
            let (cu, round) = (cu as usize, (j / per_wg) as usize);
            let Some(steps) = &r.steps else { continue };
            let Some(mut wave) = m.wave_in(&grid, r.workgroup, r.wave) else { continue };
            let start: u64 = rounds.get(cu).map_or(0, |rs| rs[..round.min(rs.len())].iter().sum());
            wave.start_cycle = start;
            wave.end_cycle = start + r.stats.cycles();
            wave.work = work_of(&r.stats);
            let instructions = steps
                .iter()
                .take(req.max_instructions_per_wave)
                .map(|s| InstructionDetail {
                    pc_offset: s.pc_offset.clamp(0, i64::from(u32::MAX)) as u32,
                    class: s.class,
                    issue_cycle: start + s.cycle,
                    stall_cycles: s.stall,
                    exec_mask: s.exec,
                })
                .collect::<Vec<_>>();
            let truncated = r.truncated || instructions.len() < steps.len();
            detail.push(WaveDetail { wave, instructions, truncated, grid_level: r.grid_level });
        }
        m.detail = detail;
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::{event_value, Unit};
    use crate::targets::find;
    use crate::wave::KernelProfile;
    use rocprof_isa::{CodeObject, Dispatch, FlatMemory, KernelDescriptor, Target};

    const CODE: u64 = 0x1000_0000;
    const KERNARG: u64 = 0x3000_0000;
    const IN: u64 = 0x5000_0000;
    const OUT: u64 = 0x6000_0000;

    /// Runs the fixture `block_sum` (LDS tree reduction with barriers and a loop) on gfx942 over `groups`
    /// workgroups; returns the input, its static profile and the record.
    fn block_sum(groups: u32, req: &DetailRequest) -> (DispatchModel, DispatchModel, DispatchRecord, FlatMemory) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels");
        let elf = std::fs::read(root.join("block_sum-gfx942.co")).unwrap();
        let obj = CodeObject::parse(&elf).unwrap();
        let kd_off = obj.kernel_descriptor("block_sum").unwrap();
        let kd = KernelDescriptor::parse(&obj.image[kd_off as usize..kd_off as usize + 64].try_into().unwrap());
        let code_sym = obj.symbols.iter().find(|s| s.name == "block_sum").unwrap();
        let code = obj.image[code_sym.value as usize..(code_sym.value + code_sym.size) as usize].to_vec();
        let n = groups * 256;
        let mut mem = FlatMemory::new();
        mem.map(CODE, &obj.image);
        mem.map(IN, &(0..n).flat_map(|i| ((i % 7) as f32).to_le_bytes()).collect::<Vec<u8>>());
        mem.map(OUT, &vec![0; 4 * groups as usize]);
        let mut args = IN.to_le_bytes().to_vec();
        args.extend_from_slice(&OUT.to_le_bytes());
        args.extend_from_slice(&n.to_le_bytes());
        args.resize(64, 0);
        mem.map(KERNARG, &args);
        let t = find("gfx942").unwrap();
        let profile = Box::leak(Box::new(KernelProfile::from_code(t, &code)));
        let input = DispatchInput {
            target: t,
            grid: [n, 1, 1],
            workgroup: [256, 1, 1],
            wavefront_size: 64,
            lds_bytes: 1024,
            scratch_bytes: 0,
            kernel: profile,
        };
        let stat = DispatchModel::build(&input, req);
        let wanted: std::collections::HashSet<(u64, u32)> = stat.detail_waves(req).into_iter().collect();
        let filter = move |g: u64, w: u32| wanted.contains(&(g, w));
        let d = Dispatch {
            target: Target::find("gfx942").unwrap(),
            kernel_object: CODE + kd_off,
            descriptor: kd,
            grid: input.grid,
            workgroup: input.workgroup,
            group_segment_size: 1024,
            private_segment_size: 0,
            kernarg: KERNARG,
            dispatch_ptr: KERNARG,
            queue_ptr: 0,
            dispatch_id: 0,
        };
        let rec = rocprof_isa::run(&d, &mem, &run_options(&input, req, 2, Some(&filter))).unwrap();
        let exec = DispatchModel::from_execution(&input, &rec, req);
        (stat, exec, rec, mem)
    }

    /// The counter model's instruction and wave counts of an executed dispatch are the interpreter's own
    /// counts for that dispatch (and differ from the static walk, which counts the loop body once).
    #[test]
    fn counters_of_an_executed_dispatch_are_the_interpreters_counts() {
        let (stat, m, rec, mem) = block_sum(300, &DetailRequest::NONE);
        let sums: Vec<f32> =
            mem.get(OUT, 8).unwrap().chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(sums[0], (0..256).map(|i| (i % 7) as f32).sum::<f32>(), "the kernel really ran");
        assert_eq!(m.source, Source::Executed);
        let all = Unit::Cus(0..m.target.compute_units);
        let count = |c: InstClass| rec.totals.count(c);
        assert_eq!(event_value(&m, "SQ_WAVES", &all), rec.wave_count());
        assert_eq!(event_value(&m, "SQ_INSTS", &all), rec.totals.instructions());
        assert_eq!(event_value(&m, "SQ_INSTS_VALU", &all), count(InstClass::Valu));
        assert_eq!(event_value(&m, "SQ_INSTS_SALU", &all), count(InstClass::Salu));
        assert_eq!(event_value(&m, "SQ_INSTS_SMEM", &all), count(InstClass::Smem));
        assert_eq!(event_value(&m, "SQ_INSTS_LDS", &all), count(InstClass::Lds));
        assert_eq!(
            event_value(&m, "SQ_INSTS_BRANCH", &all),
            count(InstClass::BranchTaken) + count(InstClass::BranchNotTaken)
        );
        assert_eq!(event_value(&m, "SQ_INSTS_VMEM_RD", &all), count(InstClass::VmemLoad) + count(InstClass::FlatLoad));
        // 300 workgroups of 4 waves, each wave reads its 64 floats and one wave per group writes one.
        assert_eq!(m.totals.waves, 1200);
        assert_eq!(m.totals.bytes.global_read, 300 * 256 * 4);
        assert_eq!(m.totals.bytes.global_write, 300 * 4);
        assert!(count(InstClass::Barrier) >= 1200 * 8, "a barrier per wave per tree level");
        // The static walk counts every instruction of the code once per wave; three of the four waves of a
        // group skip the final store (s_cbranch_execz taken), which only execution sees.
        assert!(count(InstClass::BranchTaken) >= 900, "{:?}", rec.totals.counts);
        assert_ne!(m.totals.instructions, stat.totals.instructions);
        let per_se: u64 = m.per_se.iter().map(|s| s.instructions.total()).sum();
        assert_eq!(per_se, rec.totals.instructions(), "per-SE totals add up to the dispatch");
        assert!(m.duration_ns > timing::LAUNCH_OVERHEAD_NS);
        assert!(m.totals.stall_cycles > 0, "waits for loads are modelled");
    }

    /// Waves a detail request selects carry their executed instructions with EXEC masks and issue cycles.
    #[test]
    fn detailed_waves_carry_what_they_executed() {
        let req = DetailRequest { se_mask: 1, cu_in_se: Some(0), max_waves: 6, max_instructions_per_wave: 10_000 };
        let (_, m, rec, _) = block_sum(1000, &req);
        assert_eq!(m.detail.len(), 6);
        for d in &m.detail {
            assert_eq!(d.wave.placement.se, 0);
            assert_eq!(d.wave.placement.cu_in_se, 0);
            let r = rec
                .detailed
                .iter()
                .find(|r| (r.workgroup, r.wave) == (d.wave.workgroup, d.wave.wave_in_group))
                .unwrap();
            assert_eq!(d.instructions.len() as u64, r.stats.instructions());
            assert!(!d.truncated);
            // Issue cycles never go backwards and the first instruction is the kernel's entry.
            assert_eq!(d.instructions[0].pc_offset, 0);
            assert!(d.instructions.windows(2).all(|w| w[0].issue_cycle <= w[1].issue_cycle));
            // The tree reduction narrows the active lanes of a group's first wave below 64 (strides 32..1).
            if d.wave.wave_in_group == 0 {
                assert!(d.instructions.iter().any(|i| i.exec_mask == 0xffff_ffff), "stride 32 step");
                assert!(d.instructions.iter().any(|i| i.exec_mask == 1), "stride 1 step");
            }
        }
    }
}
