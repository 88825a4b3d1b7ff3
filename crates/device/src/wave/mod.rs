//! The per-dispatch wave/instruction model: for one kernel dispatch, which workgroup and wave ran where
//! (XCC / SE / SA / CU / SIMD / wave slot), when (start and end cycle), what it executed (instructions by
//! class, bytes per memory kind, active lanes), and the dispatch's totals and duration. Counters
//! (`crate::counters`) and thread traces read this one model; when kernels execute (issue 13) the same
//! structure is filled from what really ran ([`Source::Executed`]).
//!
//! **Placement** (deterministic, in the spirit of the SPI's round robin): workgroups are numbered in
//! dispatch order (x fastest, then y, then z). Workgroup `g` goes to XCC `g % xccs`; the XCC's `k`-th
//! workgroup (`k = g / xccs`) to its shader engine `k % se_per_xcc`; the SE's `m`-th workgroup
//! (`m = k / se_per_xcc`) to its CU `m % cus_in_se`, as that CU's `j`-th workgroup (`j = m / cus_in_se`).
//! A CU holds [`Occupancy::workgroups_per_cu`] workgroups at once; its `j`-th workgroup runs in round
//! `j / workgroups_per_cu` in workgroup slot `j % workgroups_per_cu`. Wave `w` of a workgroup in slot
//! `r` is the CU's local wave `r * waves_per_workgroup + w`, on SIMD `local % simds_per_cu` and wave
//! slot `local / simds_per_cu`. Shader arrays split a SE's CUs in order ([`GpuModel::sa_of_cu`]).
//!
//! **Time**: every wave of a static model has the same [`WaveTimeline`]; a wave of round `n` starts at
//! cycle `n * wave_cycles` (cycle 0 = the first wave's start) and ends `wave_cycles` later. A CU is busy
//! for `rounds * wave_cycles`; the dispatch for its busiest CU's cycles plus the launch overhead
//! (`crate::timing`).
//!
//! **Memory**: totals are closed-form (no per-wave storage), so a model of a dispatch with millions of
//! waves costs a few kilobytes: per-CU and per-SE totals, plus per-instruction detail only for the waves
//! a [`DetailRequest`] selects (bounded by its limits).

mod executed;
mod walk;

pub use executed::{isa_costs, run_options};
pub use walk::{KernelProfile, StaticInstruction, WaveTimeline};

use crate::targets::GpuModel;
use crate::timing::{self, CostModel};

/// Issue class of an instruction, as the model counts it: the decoder's classes (`rocprof-isa` owns
/// them; the static walk and the interpreter classify with the same function).
pub use rocprof_isa::{InstClass, CLASS_COUNT};

/// Instruction counts by class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InstCounts(pub [u64; CLASS_COUNT]);

impl InstCounts {
    /// Count of `class`.
    pub fn get(&self, class: InstClass) -> u64 {
        self.0[class as usize]
    }

    /// Adds `n` instructions of `class`.
    pub fn add(&mut self, class: InstClass, n: u64) {
        self.0[class as usize] += n;
    }

    /// All instructions.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Vector memory instructions (VMEM and FLAT, loads and stores).
    pub fn vector_memory(&self) -> u64 {
        self.get(InstClass::VmemLoad)
            + self.get(InstClass::VmemStore)
            + self.get(InstClass::FlatLoad)
            + self.get(InstClass::FlatStore)
    }

    /// Branches, taken or not.
    pub fn branches(&self) -> u64 {
        self.get(InstClass::BranchTaken) + self.get(InstClass::BranchNotTaken)
    }

    /// Each count multiplied by `n`.
    pub fn scaled(&self, n: u64) -> InstCounts {
        InstCounts(self.0.map(|c| c.saturating_mul(n)))
    }
}

/// Bytes moved, by memory kind: the interpreter's (`rocprof-isa`). In a static walk, `global_*` also
/// counts flat accesses that may hit LDS or scratch, which the static model cannot tell apart.
pub use rocprof_isa::MemBytes;

/// Where a model's numbers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A static walk of the kernel's code: every instruction once per wave ([`KernelProfile`]).
    Static,
    /// What the kernel's waves really executed (the ISA interpreter).
    Executed,
}

/// Everything the model needs about one dispatch.
#[derive(Debug, Clone, Copy)]
pub struct DispatchInput<'a> {
    /// The agent's target.
    pub target: &'static GpuModel,
    /// Grid size in work-items (AQL `grid_size_*`).
    pub grid: [u32; 3],
    /// Workgroup size in work-items (AQL `workgroup_size_*`).
    pub workgroup: [u32; 3],
    /// Lanes per wave: 32 when the kernel descriptor says wave32, else 64.
    pub wavefront_size: u32,
    /// LDS bytes per workgroup (AQL `group_segment_size`).
    pub lds_bytes: u32,
    /// Scratch bytes per work-item (AQL `private_segment_size`).
    pub scratch_bytes: u32,
    /// The kernel's code, walked.
    pub kernel: &'a KernelProfile,
}

/// Which waves get per-instruction detail (everything else is summarised).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DetailRequest {
    /// Shader engines (global index, bit `se`) whose waves are wanted.
    pub se_mask: u64,
    /// Only waves on this CU (index within its SE); `None` = every CU of the selected SEs.
    pub cu_in_se: Option<u32>,
    /// At most this many waves get detail.
    pub max_waves: usize,
    /// At most this many instructions are kept per wave (the rest is cut, [`WaveDetail::truncated`]).
    pub max_instructions_per_wave: usize,
}

impl DetailRequest {
    /// No per-instruction detail.
    pub const NONE: DetailRequest =
        DetailRequest { se_mask: 0, cu_in_se: None, max_waves: 0, max_instructions_per_wave: 0 };
}

/// How many workgroups/waves a CU holds at once, and what limits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occupancy {
    /// Workgroups resident on one CU at the same time.
    pub workgroups_per_cu: u32,
    /// Waves resident on one CU at the same time (`workgroups_per_cu * waves_per_workgroup`, capped by
    /// the CU's wave slots).
    pub waves_per_cu: u32,
    /// What limits it.
    pub limit: OccupancyLimit,
}

/// The resource that limits [`Occupancy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OccupancyLimit {
    /// Wave slots (`simds_per_cu * waves_per_simd`).
    WaveSlots,
    /// LDS per CU.
    Lds,
    /// Barrier resources: at most 16 multi-wave workgroups per CU.
    Barriers,
}

/// Where one wave ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavePlacement {
    /// XCC.
    pub xcc: u32,
    /// Shader engine, global index (`xcc * se_per_xcc + se_in_xcc`).
    pub se: u32,
    /// Shader engine within the XCC.
    pub se_in_xcc: u32,
    /// Shader array within the SE.
    pub sa: u32,
    /// CU, global index ([`GpuModel::first_cu_of_se`] + `cu_in_se`).
    pub cu: u32,
    /// CU within its SE.
    pub cu_in_se: u32,
    /// SIMD within the CU.
    pub simd: u32,
    /// Wave slot within the SIMD.
    pub slot: u32,
}

/// What one wave did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WaveWork {
    /// Instructions by class.
    pub instructions: InstCounts,
    /// Bytes by memory kind.
    pub bytes: MemBytes,
    /// Sum over VALU instructions of the active lanes.
    pub valu_active_lanes: u64,
    /// Cycles spent issuing.
    pub issue_cycles: u64,
    /// Cycles stalled.
    pub stall_cycles: u64,
    /// Matrix (MFMA) instructions, operations and busy cycles (the static walk: each of the kernel's once per wave).
    pub matrix: rocprof_isa::MatrixStats,
}

/// One wave of the dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wave {
    /// Workgroup index in dispatch order.
    pub workgroup: u64,
    /// Workgroup id (x, y, z).
    pub workgroup_id: [u32; 3],
    /// Wave index within its workgroup.
    pub wave_in_group: u32,
    /// Active lanes (work-items) of the wave.
    pub lanes: u32,
    /// Where it ran.
    pub placement: WavePlacement,
    /// First cycle (cycle 0 = the dispatch's first wave start).
    pub start_cycle: u64,
    /// Cycle after its last instruction.
    pub end_cycle: u64,
    /// What it executed.
    pub work: WaveWork,
}

/// One executed instruction of a detailed wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstructionDetail {
    /// Byte offset from the kernel's first instruction.
    pub pc_offset: u32,
    /// Issue class.
    pub class: InstClass,
    /// Cycle the instruction issued (same clock as [`Wave::start_cycle`]).
    pub issue_cycle: u64,
    /// Cycles it waited before issuing.
    pub stall_cycles: u32,
    /// Active lanes (bit per lane; the low `wavefront_size` bits).
    pub exec_mask: u64,
}

/// A wave with its instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveDetail {
    /// The wave.
    pub wave: Wave,
    /// Its instructions in execution order.
    pub instructions: Vec<InstructionDetail>,
    /// More instructions ran than [`DetailRequest::max_instructions_per_wave`] kept.
    pub truncated: bool,
    /// 0: `instructions` is every instruction (up to the limit). `L > 0`: the wave was thinned on a grid
    /// of `2^L`-cycle cells (`rocprof_isa::WaveRecord::grid_level`): it keeps, over the whole wave, the
    /// instruction owning each cell's point ([`rocprof_isa::grid_point`], cycles from the wave's start).
    pub grid_level: u32,
}

/// Totals over a set of waves (one CU, one SE, or the dispatch).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Workgroups.
    pub workgroups: u64,
    /// Waves.
    pub waves: u64,
    /// Work-items (lanes of all waves).
    pub lanes: u64,
    /// Instructions by class, over all waves.
    pub instructions: InstCounts,
    /// Bytes by memory kind.
    pub bytes: MemBytes,
    /// Sum over VALU instructions of the active lanes.
    pub valu_active_lanes: u64,
    /// Sum of the waves' lifetimes in cycles.
    pub wave_cycles: u64,
    /// Sum of the waves' issue cycles.
    pub issue_cycles: u64,
    /// Sum of the waves' stall cycles.
    pub stall_cycles: u64,
    /// Cycles the unit had at least one wave (for a SE or the dispatch: its busiest CU's).
    pub busy_cycles: u64,
    /// Matrix (MFMA) instructions, operations and busy cycles (the static walk: each of the kernel's once per wave).
    pub matrix: rocprof_isa::MatrixStats,
}

impl Totals {
    /// Adds `o`: every count and cycle sum, except `busy_cycles`, which is the larger of the two (units
    /// run side by side).
    pub fn add(&mut self, o: &Totals) {
        self.workgroups += o.workgroups;
        self.waves += o.waves;
        self.lanes += o.lanes;
        for (a, b) in self.instructions.0.iter_mut().zip(o.instructions.0) {
            *a += b;
        }
        self.bytes.add(&o.bytes);
        self.valu_active_lanes += o.valu_active_lanes;
        self.wave_cycles += o.wave_cycles;
        self.issue_cycles += o.issue_cycles;
        self.stall_cycles += o.stall_cycles;
        self.busy_cycles = self.busy_cycles.max(o.busy_cycles);
        self.matrix.add(&o.matrix);
    }
}

/// The model of one dispatch. Build with [`DispatchModel::build`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchModel {
    /// Where the numbers come from.
    pub source: Source,
    /// The agent's target.
    pub target: &'static GpuModel,
    /// Grid size in work-items.
    pub grid: [u32; 3],
    /// Workgroup size in work-items.
    pub workgroup: [u32; 3],
    /// Lanes per wave.
    pub wavefront_size: u32,
    /// Workgroups per dimension (`ceil(grid / workgroup)`).
    pub workgroups_per_dim: [u32; 3],
    /// Waves of a full workgroup.
    pub waves_per_workgroup: u32,
    /// Residency per CU.
    pub occupancy: Occupancy,
    /// What one full wave executes (counts, per-wave bytes for 64/32 active lanes, cycles).
    pub full_wave: WaveWork,
    /// Lifetime of one wave in cycles.
    pub wave_cycles: u64,
    /// Per CU (global index), its totals.
    pub per_cu: Vec<Totals>,
    /// Per shader engine (global index), its totals.
    pub per_se: Vec<Totals>,
    /// The whole dispatch.
    pub totals: Totals,
    /// Launch overhead plus the busiest CU's cycles, at the engine clock.
    pub dispatch_cycles: u64,
    /// Modelled kernel duration in nanoseconds (before hsa-sim's time scale).
    pub duration_ns: u64,
    /// Waves with per-instruction detail (those the [`DetailRequest`] selected).
    pub detail: Vec<WaveDetail>,
    // Kept to answer per-wave questions without storing waves.
    per_lane: MemBytes,
    scalar_per_wave: u64,
    se_per_xcc: u32,
    xccs: u32,
    simds_per_cu: u32,
    cus_in_se: Vec<u32>,
    first_cu: Vec<u32>,
}

/// The grid in workgroups: full size per dimension and the size of the last, partial one (0 = none).
#[derive(Debug, Clone, Copy)]
struct WorkgroupGrid {
    n: [u64; 3],
    size: [u32; 3],
    rem: [u32; 3],
}

impl WorkgroupGrid {
    fn new(grid: [u32; 3], workgroup: [u32; 3]) -> WorkgroupGrid {
        let mut n = [1u64; 3];
        let mut size = [1u32; 3];
        let mut rem = [0u32; 3];
        for d in 0..3 {
            let wg = workgroup[d].max(1);
            let g = grid[d].max(1);
            n[d] = u64::from(g.div_ceil(wg));
            size[d] = wg;
            rem[d] = g % wg;
        }
        WorkgroupGrid { n, size, rem }
    }

    fn count(&self) -> u64 {
        self.n.iter().product()
    }

    fn id(&self, g: u64) -> [u32; 3] {
        [(g % self.n[0]) as u32, (g / self.n[0] % self.n[1]) as u32, (g / (self.n[0] * self.n[1])) as u32]
    }

    fn items(&self, id: [u32; 3]) -> u64 {
        (0..3)
            .map(|d| {
                if u64::from(id[d]) + 1 == self.n[d] && self.rem[d] != 0 {
                    u64::from(self.rem[d])
                } else {
                    u64::from(self.size[d])
                }
            })
            .product()
    }

    fn full_items(&self) -> u64 {
        self.size.iter().map(|&s| u64::from(s)).product()
    }

    /// Calls `f(g)` for every workgroup with at least one partial dimension (planes and rows without
    /// one are skipped whole, so the cost is the number of partial workgroups plus `z` planes).
    fn for_each_partial(&self, mut f: impl FnMut(u64)) {
        if self.rem == [0; 3] {
            return;
        }
        let [nx, ny, nz] = self.n;
        let last = |d: usize, i: u64| self.rem[d] != 0 && i + 1 == self.n[d];
        for z in 0..nz {
            if !last(2, z) && self.rem[0] == 0 && self.rem[1] == 0 {
                continue;
            }
            let plane = z * ny * nx;
            if last(2, z) {
                (0..nx * ny).for_each(|i| f(plane + i));
                continue;
            }
            if self.rem[0] != 0 {
                (0..ny).for_each(|y| f(plane + y * nx + nx - 1));
            }
            if self.rem[1] != 0 {
                // The last row, without its last workgroup when that was already counted above.
                let row = plane + (ny - 1) * nx;
                let end = if self.rem[0] != 0 { nx - 1 } else { nx };
                (0..end).for_each(|x| f(row + x));
            }
        }
    }
}

fn occupancy(target: &GpuModel, waves_per_wg: u32, lds_bytes: u32) -> Occupancy {
    let slots = target.max_waves_per_cu().max(1);
    let mut wgs = (slots / waves_per_wg.max(1)).max(1);
    let mut limit = OccupancyLimit::WaveSlots;
    if let Some(by_lds) = target.lds_bytes.checked_div(lds_bytes) {
        let by_lds = by_lds.max(1);
        if by_lds < wgs {
            wgs = by_lds;
            limit = OccupancyLimit::Lds;
        }
    }
    if waves_per_wg > 1 && wgs > 16 {
        wgs = 16;
        limit = OccupancyLimit::Barriers;
    }
    Occupancy { workgroups_per_cu: wgs, waves_per_cu: (wgs * waves_per_wg).min(slots), limit }
}

impl DispatchModel {
    /// Builds the model of one dispatch from the walked kernel ([`Source::Static`]), with
    /// per-instruction detail for the waves `detail` selects.
    pub fn build(input: &DispatchInput<'_>, detail: &DetailRequest) -> DispatchModel {
        let t = input.target;
        let w = input.wavefront_size.max(1);
        let grid = WorkgroupGrid::new(input.grid, input.workgroup);
        let full_items = grid.full_items();
        let waves_per_wg = full_items.div_ceil(u64::from(w)) as u32;
        let occ = occupancy(t, waves_per_wg, input.lds_bytes);
        let costs = CostModel::new(t, w);
        let timeline = input.kernel.timeline(&costs);
        let k = input.kernel;
        let per_lane = MemBytes {
            global_read: k.global_read_bytes_per_lane,
            global_write: k.global_write_bytes_per_lane,
            scalar_read: 0,
            lds_read: k.lds_read_bytes_per_lane,
            lds_write: k.lds_write_bytes_per_lane,
            scratch_read: k.scratch_read_bytes_per_lane,
            scratch_write: k.scratch_write_bytes_per_lane,
        };
        let (xccs, se_per_xcc) = (t.xccs.max(1), t.se_per_xcc());
        let cus_in_se: Vec<u32> = (0..se_per_xcc).map(|s| t.cus_in_se(s).max(1)).collect();
        let first_cu: Vec<u32> =
            (0..xccs).flat_map(|x| (0..se_per_xcc).map(move |s| (x, s))).map(|(x, s)| t.first_cu_of_se(x, s)).collect();
        let mut m = DispatchModel {
            source: Source::Static,
            target: t,
            grid: input.grid,
            workgroup: input.workgroup,
            wavefront_size: w,
            workgroups_per_dim: grid.n.map(|n| n as u32),
            waves_per_workgroup: waves_per_wg,
            occupancy: occ,
            full_wave: WaveWork::default(),
            wave_cycles: timeline.cycles,
            per_cu: vec![Totals::default(); t.compute_units as usize],
            per_se: vec![Totals::default(); (xccs * se_per_xcc) as usize],
            totals: Totals::default(),
            dispatch_cycles: 0,
            duration_ns: 0,
            detail: Vec::new(),
            per_lane,
            scalar_per_wave: k.scalar_read_bytes,
            se_per_xcc,
            xccs,
            simds_per_cu: t.simds_per_cu.max(1),
            cus_in_se,
            first_cu,
        };
        m.full_wave = m.work(u64::from(w.min(full_items as u32).max(1)), &timeline, k);
        m.full_wave.valu_active_lanes = k.counts.get(InstClass::Valu) * u64::from(w);

        // Workgroups, waves and lanes per CU: closed form for full workgroups, then a correction for
        // every partial one.
        let total_wgs = grid.count();
        let full_waves = u64::from(waves_per_wg);
        let mut wgs = vec![0u64; m.per_cu.len()];
        let mut waves = vec![0u64; m.per_cu.len()];
        let mut lanes = vec![0u64; m.per_cu.len()];
        for x in 0..xccs {
            let k_x = total_wgs / u64::from(xccs) + u64::from(u64::from(x) < total_wgs % u64::from(xccs));
            for s in 0..se_per_xcc {
                let n_se = k_x / u64::from(se_per_xcc) + u64::from(u64::from(s) < k_x % u64::from(se_per_xcc));
                let c_n = m.cus_in_se[s as usize];
                for c in 0..c_n {
                    let n_cu = n_se / u64::from(c_n) + u64::from(u64::from(c) < n_se % u64::from(c_n));
                    let cu = m.first_cu[(x * se_per_xcc + s) as usize] + c;
                    if let Some(i) = wgs.get_mut(cu as usize) {
                        *i += n_cu;
                        waves[cu as usize] += n_cu * full_waves;
                        lanes[cu as usize] += n_cu * full_items;
                    }
                }
            }
        }
        grid.for_each_partial(|g| {
            let items = grid.items(grid.id(g));
            let cu = m.place_workgroup(g).0 as usize;
            if cu < waves.len() {
                waves[cu] -= full_waves - items.div_ceil(u64::from(w));
                lanes[cu] -= full_items - items;
            }
        });
        let per_wg = u64::from(occ.workgroups_per_cu.max(1));
        for cu in 0..m.per_cu.len() {
            let busy = wgs[cu].div_ceil(per_wg) * timeline.cycles;
            m.per_cu[cu] = m.totals_for(wgs[cu], waves[cu], lanes[cu], busy, &timeline, k);
        }
        for x in 0..xccs {
            for s in 0..se_per_xcc {
                let se = (x * se_per_xcc + s) as usize;
                let first = m.first_cu[se] as usize;
                let cus = first..(first + m.cus_in_se[s as usize] as usize).min(m.per_cu.len());
                m.per_se[se] = sum(&m.per_cu[cus]);
            }
        }
        m.totals = sum(&m.per_se);
        m.dispatch_cycles = timing::ns_to_cycles(t, timing::LAUNCH_OVERHEAD_NS) + m.totals.busy_cycles;
        m.duration_ns = timing::duration_ns(t, m.totals.busy_cycles);
        m.detail = m.details(&grid, detail, &timeline, k);
        m
    }

    /// Work of one wave with `lanes` active lanes.
    fn work(&self, lanes: u64, timeline: &WaveTimeline, k: &KernelProfile) -> WaveWork {
        WaveWork {
            instructions: k.counts,
            bytes: self.bytes(1, lanes),
            valu_active_lanes: k.counts.get(InstClass::Valu) * lanes,
            issue_cycles: timeline.issue_cycles,
            stall_cycles: timeline.stall_cycles,
            matrix: k.matrix,
        }
    }

    fn bytes(&self, waves: u64, lanes: u64) -> MemBytes {
        let p = &self.per_lane;
        MemBytes {
            global_read: p.global_read * lanes,
            global_write: p.global_write * lanes,
            scalar_read: self.scalar_per_wave * waves,
            lds_read: p.lds_read * lanes,
            lds_write: p.lds_write * lanes,
            scratch_read: p.scratch_read * lanes,
            scratch_write: p.scratch_write * lanes,
        }
    }

    fn totals_for(
        &self,
        workgroups: u64,
        waves: u64,
        lanes: u64,
        busy: u64,
        timeline: &WaveTimeline,
        k: &KernelProfile,
    ) -> Totals {
        Totals {
            workgroups,
            waves,
            lanes,
            instructions: k.counts.scaled(waves),
            bytes: self.bytes(waves, lanes),
            valu_active_lanes: k.counts.get(InstClass::Valu) * lanes,
            wave_cycles: timeline.cycles * waves,
            issue_cycles: timeline.issue_cycles * waves,
            stall_cycles: timeline.stall_cycles * waves,
            busy_cycles: busy,
            matrix: k.matrix.scaled(waves),
        }
    }

    /// Number of workgroups.
    pub fn workgroups(&self) -> u64 {
        self.totals.workgroups
    }

    /// Number of waves launched.
    pub fn waves(&self) -> u64 {
        self.totals.waves
    }

    /// (global CU, XCC, SE within XCC, CU within SE, sequence index on the CU) of workgroup `g`.
    fn place_workgroup(&self, g: u64) -> (u32, u32, u32, u32, u64) {
        let x = (g % u64::from(self.xccs)) as u32;
        let k = g / u64::from(self.xccs);
        let s = (k % u64::from(self.se_per_xcc)) as u32;
        let m = k / u64::from(self.se_per_xcc);
        let c_n = u64::from(self.cus_in_se[s as usize]);
        let c = (m % c_n) as u32;
        let j = m / c_n;
        (self.first_cu[(x * self.se_per_xcc + s) as usize] + c, x, s, c, j)
    }

    /// Workgroups (dispatch-order indices) that ran on CU `cu_in_se` of global SE `se`, in the order
    /// the CU ran them.
    pub fn workgroups_on_cu(&self, se: u32, cu_in_se: u32) -> impl Iterator<Item = u64> + '_ {
        let x = u64::from(se / self.se_per_xcc);
        let s = u64::from(se % self.se_per_xcc);
        let c_n = u64::from(self.cus_in_se.get(s as usize).copied().unwrap_or(1));
        let (xccs, se_per_xcc, total) = (u64::from(self.xccs), u64::from(self.se_per_xcc), self.totals.workgroups);
        let valid = u64::from(cu_in_se) < c_n && se < self.xccs * self.se_per_xcc;
        (0u64..)
            .map(move |j| x + xccs * (s + se_per_xcc * (u64::from(cu_in_se) + c_n * j)))
            .take_while(move |&g| valid && g < total)
    }

    /// Shader engines of the GPU (all XCCs).
    pub fn shader_engines(&self) -> u32 {
        self.xccs * self.se_per_xcc
    }

    /// CUs of global shader engine `se`.
    pub fn cus_of_se(&self, se: u32) -> u32 {
        self.cus_in_se.get((se % self.se_per_xcc.max(1)) as usize).copied().unwrap_or(0)
    }

    /// Waves of workgroup `g` (fewer than [`DispatchModel::waves_per_workgroup`] for a partial one).
    pub fn waves_in_workgroup(&self, g: u64) -> u32 {
        let grid = WorkgroupGrid::new(self.grid, self.workgroup);
        grid.items(grid.id(g)).div_ceil(u64::from(self.wavefront_size)) as u32
    }

    /// Wave `w` of workgroup `g`, or `None` when there is no such wave.
    pub fn wave(&self, g: u64, w: u32) -> Option<Wave> {
        let grid = WorkgroupGrid::new(self.grid, self.workgroup);
        self.wave_in(&grid, g, w)
    }

    fn wave_in(&self, grid: &WorkgroupGrid, g: u64, w: u32) -> Option<Wave> {
        if g >= grid.count() {
            return None;
        }
        let id = grid.id(g);
        let items = grid.items(id);
        let wf = u64::from(self.wavefront_size);
        if u64::from(w) >= items.div_ceil(wf) {
            return None;
        }
        let lanes = (items - u64::from(w) * wf).min(wf);
        let (cu, x, s, c, j) = self.place_workgroup(g);
        let per_cu = u64::from(self.occupancy.workgroups_per_cu.max(1));
        let (round, slot_wg) = (j / per_cu, (j % per_cu) as u32);
        let local = slot_wg * self.waves_per_workgroup + w;
        let start = round * self.wave_cycles;
        let mut work = self.full_wave;
        work.bytes = self.bytes(1, lanes);
        work.valu_active_lanes = work.instructions.get(InstClass::Valu) * lanes;
        Some(Wave {
            workgroup: g,
            workgroup_id: id,
            wave_in_group: w,
            lanes: lanes as u32,
            placement: WavePlacement {
                xcc: x,
                se: x * self.se_per_xcc + s,
                se_in_xcc: s,
                sa: self.target.sa_of_cu(c, self.cus_in_se[s as usize]),
                cu,
                cu_in_se: c,
                simd: local % self.simds_per_cu,
                slot: local / self.simds_per_cu,
            },
            start_cycle: start,
            end_cycle: start + self.wave_cycles,
            work,
        })
    }

    fn details(
        &self,
        grid: &WorkgroupGrid,
        req: &DetailRequest,
        timeline: &WaveTimeline,
        k: &KernelProfile,
    ) -> Vec<WaveDetail> {
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
                    for w in 0..self.waves_per_workgroup {
                        if out.len() >= req.max_waves {
                            return out;
                        }
                        let Some(d) = self.walked_detail(grid, g, w, timeline, k, req.max_instructions_per_wave) else {
                            break;
                        };
                        out.push(d);
                    }
                }
            }
        }
        out
    }

    /// Wave `w` of workgroup `g` with the walked kernel's instructions, at most `max` of them.
    fn walked_detail(
        &self,
        grid: &WorkgroupGrid,
        g: u64,
        w: u32,
        timeline: &WaveTimeline,
        k: &KernelProfile,
        max: usize,
    ) -> Option<WaveDetail> {
        let wave = self.wave_in(grid, g, w)?;
        let mask = if wave.lanes >= 64 { u64::MAX } else { (1u64 << wave.lanes) - 1 };
        let n = k.instructions.len().min(max);
        let instructions = k.instructions[..n]
            .iter()
            .zip(&timeline.issue)
            .map(|(i, &(at, stall))| InstructionDetail {
                pc_offset: i.pc_offset,
                class: i.class,
                issue_cycle: wave.start_cycle + at,
                stall_cycles: stall,
                exec_mask: mask,
            })
            .collect();
        Some(WaveDetail { wave, instructions, truncated: n < k.instructions.len(), grid_level: 0 })
    }

    /// [`DispatchModel::build`] with per-instruction detail (of the walked kernel, at most `max_instructions`
    /// per wave) for the waves `pick` lists, in its order, given the model without detail (PC sampling picks
    /// its waves by placement, as on the executed path).
    pub fn build_with_waves(
        input: &DispatchInput<'_>,
        max_instructions: usize,
        pick: impl FnOnce(&DispatchModel) -> Vec<(u64, u32)>,
    ) -> DispatchModel {
        let mut m = Self::build(input, &DetailRequest::NONE);
        let grid = WorkgroupGrid::new(input.grid, input.workgroup);
        let timeline = input.kernel.timeline(&CostModel::new(input.target, m.wavefront_size));
        let waves = pick(&m);
        m.detail = waves
            .into_iter()
            .filter_map(|(g, w)| m.walked_detail(&grid, g, w, &timeline, input.kernel, max_instructions))
            .collect();
        m
    }
}

fn sum(parts: &[Totals]) -> Totals {
    let mut t = Totals::default();
    for p in parts {
        t.add(p);
    }
    t
}

#[cfg(test)]
mod tests;
