//! What the waves executed, for the device model: instruction counts by class, bytes per memory kind,
//! active lanes, and (for the waves a consumer asks for) the executed instructions with their EXEC masks.

use crate::op::{Access, Op, Seg};

/// Issue class of an executed instruction (the same classes as the device model's counters use).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum InstClass {
    /// Scalar ALU.
    Salu = 0,
    /// Scalar memory.
    Smem = 1,
    /// Vector ALU (compares included).
    Valu = 2,
    /// Vector memory load (global, scratch, buffer; atomics with return).
    VmemLoad = 3,
    /// Vector memory store (and atomics without return).
    VmemStore = 4,
    /// Flat load.
    FlatLoad = 5,
    /// Flat store.
    FlatStore = 6,
    /// LDS.
    Lds = 7,
    /// Branch taken.
    BranchTaken = 8,
    /// Branch not taken.
    BranchNotTaken = 9,
    /// Barrier.
    Barrier = 10,
    /// `s_waitcnt` / `s_wait_*`.
    Waitcnt = 11,
    /// Anything else (`s_nop`, `s_endpgm`, messages, cache maintenance).
    Other = 12,
}

/// Number of classes.
pub const CLASS_COUNT: usize = 13;

impl InstClass {
    /// Every class in numeric order.
    pub const ALL: [InstClass; CLASS_COUNT] = [
        InstClass::Salu,
        InstClass::Smem,
        InstClass::Valu,
        InstClass::VmemLoad,
        InstClass::VmemStore,
        InstClass::FlatLoad,
        InstClass::FlatStore,
        InstClass::Lds,
        InstClass::BranchTaken,
        InstClass::BranchNotTaken,
        InstClass::Barrier,
        InstClass::Waitcnt,
        InstClass::Other,
    ];
}

/// The statistics class of an instruction (branches count as not taken here; the executor corrects that).
pub fn class_of(op: &Op, name: &str) -> InstClass {
    match op {
        // gfx12's v_s_* transcendentals run on the VALU.
        Op::Salu(_) if name.starts_with("v_") => InstClass::Valu,
        Op::Salu(_) => InstClass::Salu,
        Op::Smem(_) => InstClass::Smem,
        Op::Valu(_) | Op::Vcmp { .. } | Op::Mfma(_) | Op::Wmma(_) | Op::MfmaLdScale => InstClass::Valu,
        Op::Vmem(seg, a) => {
            let load = match a {
                Access::Load { .. } => true,
                Access::Store { .. } => false,
                Access::Atomic { rtn, .. } => *rtn,
                Access::Format { store, .. } => !*store,
            };
            match (seg, load) {
                (Seg::Flat, true) => InstClass::FlatLoad,
                (Seg::Flat, false) => InstClass::FlatStore,
                (_, true) => InstClass::VmemLoad,
                (_, false) => InstClass::VmemStore,
            }
        }
        Op::Ds(_) => InstClass::Lds,
        Op::Image(crate::image::ImageOp::Store { .. }) => InstClass::VmemStore,
        Op::Image(_) => InstClass::VmemLoad,
        Op::Branch(_) => InstClass::BranchNotTaken,
        Op::Barrier => InstClass::Barrier,
        Op::Nop if name.starts_with("s_waitcnt") || name.starts_with("s_wait_") => InstClass::Waitcnt,
        Op::Unimplemented if name.starts_with("v_") => InstClass::Valu,
        Op::Unimplemented if name.starts_with("s_") => InstClass::Salu,
        _ => InstClass::Other,
    }
}

/// Bytes moved by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemBytes {
    /// Read from global memory (VMEM/FLAT, atomics included).
    pub global_read: u64,
    /// Written to global memory.
    pub global_write: u64,
    /// Read by scalar loads.
    pub scalar_read: u64,
    /// Read from LDS (DS and flat accesses that hit LDS).
    pub lds_read: u64,
    /// Written to LDS.
    pub lds_write: u64,
    /// Read from private memory.
    pub scratch_read: u64,
    /// Written to private memory.
    pub scratch_write: u64,
}

impl MemBytes {
    /// Adds `o`.
    pub fn add(&mut self, o: &MemBytes) {
        self.global_read += o.global_read;
        self.global_write += o.global_write;
        self.scalar_read += o.scalar_read;
        self.lds_read += o.lds_read;
        self.lds_write += o.lds_write;
        self.scratch_read += o.scratch_read;
        self.scratch_write += o.scratch_write;
    }
}

/// What each instruction class costs a wave, for the interpreter's cycle accounting: issue cycles, and the
/// latency an `s_waitcnt` waits for (the embedder's timing model; the interpreter itself has none). A wave's
/// time is `sum(issue) + sum(stalls)`, where an `s_waitcnt` stalls until every earlier access with a
/// latency has completed — the same rule the device model's static walk applies to a kernel's code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Costs {
    /// Issue cycles per class.
    pub issue: [u32; CLASS_COUNT],
    /// Latency per class (0: nothing waits for it).
    pub latency: [u32; CLASS_COUNT],
}

/// One wave's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WaveStats {
    /// Instructions by [`InstClass`].
    pub counts: [u64; CLASS_COUNT],
    /// Bytes by kind.
    pub bytes: MemBytes,
    /// Sum over VALU instructions of the active lanes.
    pub valu_active_lanes: u64,
    /// Cycles spent issuing under the run's [`Costs`].
    pub issue_cycles: u64,
    /// Cycles stalled at `s_waitcnt` under the run's [`Costs`].
    pub stall_cycles: u64,
    /// Matrix (MFMA) instructions by input type, their operations and pass cycles.
    pub matrix: crate::matrix::MatrixStats,
}

impl WaveStats {
    /// All instructions.
    pub fn instructions(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Count of `c`.
    pub fn count(&self, c: InstClass) -> u64 {
        self.counts[c as usize]
    }

    /// Adds `o`.
    pub fn add(&mut self, o: &WaveStats) {
        for (a, b) in self.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
        self.bytes.add(&o.bytes);
        self.valu_active_lanes += o.valu_active_lanes;
        self.issue_cycles += o.issue_cycles;
        self.stall_cycles += o.stall_cycles;
        self.matrix.add(&o.matrix);
    }

    /// The wave's lifetime in cycles (`issue + stall`, at least 1).
    pub fn cycles(&self) -> u64 {
        (self.issue_cycles + self.stall_cycles).max(1)
    }

    /// Moves the last counted branch from not-taken to taken.
    pub(crate) fn branch_taken(&mut self) {
        self.counts[InstClass::BranchTaken as usize] += 1;
        // With per-run counting the branch's run (which counts it as not taken) may be added after this
        // call, so the count can dip below zero for a moment; it wraps back when the run's counts land.
        let not_taken = &mut self.counts[InstClass::BranchNotTaken as usize];
        *not_taken = not_taken.wrapping_sub(1);
    }
}

/// One executed instruction of a wave with detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Byte offset of the instruction from the kernel's entry.
    pub pc_offset: i64,
    /// Class (branches as taken or not).
    pub class: InstClass,
    /// EXEC when it issued.
    pub exec: u64,
    /// Issue cycle relative to the wave's start (under the run's [`Costs`]).
    pub cycle: u64,
    /// Cycles it stalled before issuing.
    pub stall: u32,
}

/// What one wave did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveRecord {
    /// Workgroup index in dispatch order (x fastest).
    pub workgroup: u64,
    /// Wave index within the workgroup.
    pub wave: u32,
    /// Work-items in the wave.
    pub lanes: u32,
    /// Its counts.
    pub stats: WaveStats,
    /// Executed instructions, for waves the run was asked to detail.
    pub steps: Option<Vec<Step>>,
    /// More instructions ran than the detail limit kept.
    pub truncated: bool,
    /// 0: `steps` holds every executed instruction (up to the limit). `L > 0`: the wave ran longer than
    /// the limit and the run was asked to thin it ([`crate::RunOptions::decimate_detail`]): `steps` holds,
    /// over the whole wave, the owners of the points of the grid of `2^L`-cycle cells ([`grid_point`]).
    pub grid_level: u32,
}

/// The cycle a step's time begins: when the wave began waiting for it (its stall) or, without a stall,
/// issued it. A step owns the cycles from its begin to the next step's.
pub fn step_begin(s: &Step) -> u64 {
    s.cycle.saturating_sub(u64::from(s.stall))
}

/// The sample point (a wave-relative cycle) of cell `cell` of the grid of `2^level`-cycle cells: a cycle
/// inside the cell, chosen pseudo-randomly (so a loop whose period divides the grid does not alias onto
/// one instruction) and nested: a cell's point is the point of one of its two halves one level down, so
/// thinning a record to a coarser grid keeps the owners of that grid's points.
pub fn grid_point(level: u32, cell: u64) -> u64 {
    let mut c = cell;
    for l in (1..=level.min(62)).rev() {
        // splitmix64's finalizer of (level, cell): one bit picks the half.
        let mut z = c ^ (u64::from(l) << 58) ^ 0x9e37_79b9_7f4a_7c15;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        c = (c << 1) | (z & 1);
    }
    c
}

/// Whether a step owning the cycles `[a, b)` owns a point of the grid of `level`.
fn owns_point(level: u32, a: u64, b: u64) -> bool {
    if a >= b {
        return false;
    }
    let (k0, k1) = (a >> level, (b - 1) >> level);
    if k1 > k0 + 1 {
        return true;
    }
    let inside = |k: u64| (a..b).contains(&grid_point(level, k));
    inside(k0) || (k1 != k0 && inside(k1))
}

/// Thins a wave's steps (in execution order; thinned to `level` but for those recorded since) to the owners
/// of the points of that grid, then of coarser ones, one level at a time until at most `max / 2` remain; returns the new level. The last step is
/// always kept: its span is still open. For every point of the returned level, the last kept step that
/// began at or before it is the step that owned it in the full record.
pub fn decimate(steps: &mut Vec<Step>, mut level: u32, max: usize) -> u32 {
    // The current level first: the steps recorded since the last thinning are still whole.
    loop {
        let n = steps.len();
        let mut kept = 0;
        for i in 0..n {
            // `steps[i + 1]` is not yet overwritten: `kept <= i`.
            let keep = i + 1 == n || owns_point(level, step_begin(&steps[i]), step_begin(&steps[i + 1]));
            if keep {
                steps[kept] = steps[i];
                kept += 1;
            }
        }
        steps.truncate(kept);
        if steps.len() <= max / 2 || level >= 62 {
            return level;
        }
        level += 1;
    }
}

/// What one workgroup's waves did, summed: the device model needs per-CU totals and each workgroup's
/// longest wave, not a record per wave (a 9920 x 9920 transpose has 1.5 million waves).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkgroupRecord {
    /// Workgroup index in dispatch order (x fastest).
    pub workgroup: u64,
    /// Waves it ran.
    pub waves: u32,
    /// Work-items over its waves.
    pub lanes: u64,
    /// Its waves' counts, summed.
    pub stats: WaveStats,
    /// Sum over its waves of [`WaveStats::cycles`].
    pub wave_cycles: u64,
    /// The longest of its waves' [`WaveStats::cycles`].
    pub max_cycles: u64,
}

impl WorkgroupRecord {
    /// Adds wave `s` of `lanes` work-items.
    pub fn add_wave(&mut self, s: &WaveStats, lanes: u32) {
        self.waves += 1;
        self.lanes += u64::from(lanes);
        self.stats.add(s);
        let c = s.cycles();
        self.wave_cycles += c;
        self.max_cycles = self.max_cycles.max(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The owner of cycle `c` in `steps`: the last step that began at or before it.
    fn owner(steps: &[Step], c: u64) -> Option<i64> {
        let k = steps.partition_point(|s| step_begin(s) <= c);
        k.checked_sub(1).map(|k| steps[k].pc_offset)
    }

    /// A wave of uneven steps (issue 1..4 cycles, now and then a long stall) fed through a small limit as
    /// the dispatch loop does: every point of the final grid has the owner it had in the full record, and
    /// points fall on different instructions of a loop whose period divides the grid (no aliasing).
    #[test]
    fn decimated_steps_keep_the_owner_of_every_grid_point() {
        let mut full = Vec::new();
        let mut cycle = 0u64;
        let mut x = 12345u64;
        for i in 0..100_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let stall = if x >> 60 == 0 { (x >> 40) as u32 % 500 } else { 0 };
            cycle += u64::from(stall);
            // A loop of 8 instructions, 4 cycles each: period 32, a power of two.
            full.push(Step { pc_offset: (i % 8) as i64 * 4, class: InstClass::Valu, exec: 0, cycle, stall });
            cycle += 4;
        }
        let (max, mut level, mut kept) = (4096, 0, Vec::new());
        for s in &full {
            if kept.len() >= max {
                level = decimate(&mut kept, level, max);
            }
            kept.push(*s);
        }
        assert!(level > 0 && level < 20 && kept.len() <= max, "level {level}, {} kept", kept.len());
        let cells = cycle >> level;
        let mut seen = std::collections::BTreeSet::new();
        for k in 0..cells {
            let p = grid_point(level, k);
            assert_eq!(p >> level, k, "the point lies in its cell");
            assert_eq!(owner(&kept, p), owner(&full, p), "cell {k} at level {level}");
            seen.insert(owner(&kept, p));
        }
        assert_eq!(seen.len(), 8, "every instruction of the loop owns some points");
    }
}
