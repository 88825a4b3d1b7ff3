//! Running a kernel dispatch: the kernel descriptor, the initial wave state the hardware sets up (user and
//! system SGPRs, work-item ids in VGPRs), workgroups on a few host threads with their waves scheduled
//! round robin until barriers, and the per-wave records.
//!
//! Determinism: each workgroup runs on one thread from start to end, so anything that does not race
//! between workgroups (the usual case: each workgroup writes its own outputs) gives the same results with
//! any thread count. Races between workgroups (atomics, float atomics in particular) resolve in whatever
//! order the threads reach them, as on a GPU; one thread ([`RunOptions::threads`] = 1) runs workgroups in
//! dispatch order.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::decode::{decode, Inst};
use crate::exec::valu_block::{self, Block};
use crate::exec::{handler, Chosen, Ctx, Flow, Go, Handler, LaneKernels, Stop};
use crate::gws::{Gws, Wait, Workers};
use crate::memory::{Memory, PRIVATE_BUFFER_BASE};
use crate::stats::{Costs, InstClass, Step, WaveRecord, WaveStats, WorkgroupRecord};
use crate::target::{Family, Target};
use crate::wave::{Wave, MAX_LANES};

pub use crate::descriptor::KernelDescriptor;
pub use crate::dispatch_error::{DispatchError, ErrorKind};

/// One kernel dispatch, as the packet processor sees it.
#[derive(Clone, Copy, Debug)]
pub struct Dispatch {
    /// The agent's target.
    pub target: &'static Target,
    /// Address of the kernel descriptor (`kernel_object`).
    pub kernel_object: u64,
    /// The descriptor.
    pub descriptor: KernelDescriptor,
    /// Grid size in work-items.
    pub grid: [u32; 3],
    /// Workgroup size in work-items.
    pub workgroup: [u32; 3],
    /// LDS per workgroup (AQL `group_segment_size`, dynamic LDS included).
    pub group_segment_size: u32,
    /// Scratch per work-item (AQL `private_segment_size`).
    pub private_segment_size: u32,
    /// Kernel arguments.
    pub kernarg: u64,
    /// Address of the dispatch packet (`dispatch_ptr` user SGPRs).
    pub dispatch_ptr: u64,
    /// Address of the `amd_queue_t` (`queue_ptr`).
    pub queue_ptr: u64,
    /// Dispatch id (`dispatch_id` user SGPRs).
    pub dispatch_id: u64,
}

impl Dispatch {
    /// The kernel's first instruction.
    pub fn entry(&self) -> u64 {
        self.kernel_object.wrapping_add(self.descriptor.kernel_code_entry_byte_offset as u64)
    }

    /// Lanes per wave.
    pub fn lanes(&self) -> usize {
        if self.target.family >= Family::Gfx10 && self.descriptor.wave32() {
            32
        } else {
            64
        }
    }

    /// Workgroups per dimension.
    pub fn workgroups(&self) -> [u64; 3] {
        [0, 1, 2].map(|d| u64::from(self.grid[d].div_ceil(self.workgroup[d].max(1))))
    }
}

/// Which waves get per-instruction detail.
pub type DetailFilter<'a> = &'a (dyn Fn(u64, u32) -> bool + Sync);

/// How to run.
#[derive(Clone, Copy)]
pub struct RunOptions<'a> {
    /// Host threads (at least 1).
    pub threads: usize,
    /// Waves to record instruction by instruction (`(workgroup, wave) -> bool`).
    pub detail: Option<DetailFilter<'a>>,
    /// At most this many steps per detailed wave.
    pub max_detail_steps: usize,
    /// A detailed wave that runs past `max_detail_steps` is thinned on a cycle grid ([`crate::decimate`],
    /// [`WaveRecord::grid_level`]) instead of cut: PC sampling needs the whole wave, not every step.
    pub decimate_detail: bool,
    /// A wave that executes more instructions than this stops the dispatch (a hung kernel).
    pub max_wave_instructions: u64,
    /// Cycle costs for the per-wave cycle accounting (all zero: no cycles counted).
    pub costs: Costs,
    /// Every workgroup of the grid is resident at once (a cooperative launch): each runs on its own host
    /// thread, so a grid-wide barrier (waves spinning on a global counter until every workgroup arrived)
    /// completes. At most [`MAX_CO_RESIDENT_WORKGROUPS`] workgroups.
    pub co_resident: bool,
    /// The global wave sync resources the dispatch's `ds_gws_*` instructions use (a queue's, shared by its
    /// dispatches: ROCclr initialises them in one dispatch and waits on them in the next). `None`: fresh
    /// ones for this dispatch.
    pub gws: Option<&'a Gws>,
    /// The per-lane code the VALU runs as: by default the fastest the host supports (the results are the
    /// same bit for bit either way).
    pub lanes: LaneKernels,
}

/// Most workgroups of a [`RunOptions::co_resident`] dispatch (one host thread each).
pub const MAX_CO_RESIDENT_WORKGROUPS: u64 = 4096;

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            detail: None,
            max_detail_steps: 1 << 16,
            decimate_detail: false,
            max_wave_instructions: 1 << 32,
            costs: Costs::default(),
            co_resident: false,
            gws: None,
            lanes: LaneKernels::Auto,
        }
    }
}

/// The outcome of a dispatch that ran to the end. Per-wave records are kept only for the waves the run
/// asked to detail ([`RunOptions::detail`]); every other wave is summed into its workgroup's record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DispatchRecord {
    /// One record per workgroup, in workgroup order.
    pub workgroups: Vec<WorkgroupRecord>,
    /// The waves the run detailed (with their steps), in (workgroup, wave) order.
    pub detailed: Vec<WaveRecord>,
    /// The counts of the dispatch's first wave (workgroup 0, wave 0).
    pub first_wave: WaveStats,
    /// Sum over all waves.
    pub totals: WaveStats,
}

impl DispatchRecord {
    /// Waves the dispatch ran.
    pub fn wave_count(&self) -> u64 {
        self.workgroups.iter().map(|g| u64::from(g.waves)).sum()
    }
}

/// Decoded instructions by PC, per thread (no sharing, no locks): each instruction is decoded once per
/// dispatch and thread, and carries the index of the instruction that follows it (scheduling hints skipped)
/// and, for a branch, of its target, so the interpreter walks straight-line code and loops by index without
/// looking the PC up again.
struct Program {
    target: &'static Target,
    base: u64,
    slots: Vec<u32>,
    far: HashMap<u64, u32>,
    insts: Vec<Inst>,
    /// Per instruction: its PC.
    pcs: Vec<u64>,
    /// Per instruction: what the interpreter's loop reads each time it runs it (16 bytes, one load).
    hot: Vec<Hot>,
    /// Per instruction ([`SUMMED`] once set): the class counts of its run, see [`Program::enter_run`].
    sums: Vec<RunCounts>,
    /// The instructions of the run [`Program::sum_run`] walks (kept to reuse its allocation).
    walk: Vec<u32>,
    /// The VALU blocks ([`BLOCK`]), by the index their first instruction keeps in [`Hot::taken`].
    blocks: Vec<Block>,
    /// Every instruction of a block but its first: its block and its position there (see
    /// [`Program::split_block_at`]).
    block_members: HashMap<u32, (u32, u32)>,
    /// The lane kernels, chosen once for the program.
    lanes: Chosen,
    /// Lanes of the dispatch's waves (32 or 64).
    wave_lanes: usize,
}

/// What the interpreter needs per executed instruction, packed together (32 bytes).
#[derive(Clone, Copy)]
struct Hot {
    /// Its handler (for the program's lane kernels).
    run: Handler,
    /// The handler `plain_run` calls: [`Hot::run`], or for the first instruction of a fused group
    /// ([`FUSED2`], [`FUSED3`]) the handler of the whole group.
    fast: Handler,
    /// Index of the next issuing instruction in program order ([`UNRESOLVED`] until first needed; an
    /// instruction that cannot be decoded is reported when it is reached, not before).
    next: u32,
    /// Index of the taken relative branch's target ([`UNRESOLVED`] until first needed). For the first
    /// instruction of a fused group (never a branch itself): the index of the branch that ends the group;
    /// for the first of a VALU block: the block's index in [`Program::blocks`].
    taken: u32,
    /// Its [`InstClass`].
    class: u8,
    /// [`GENERAL`], [`WAITCNT`], [`MATRIX`], [`RUN_END`], [`SUMMED`], [`IN_RUN`], [`FUSED2`], [`FUSED3`],
    /// [`BLOCK`].
    flags: u8,
    /// Once [`SUMMED`]: its run's class counts as up to 6 one-byte entries, class in the low and count in
    /// the high nibble, ending at the first 0 byte (0 as a whole: the run does not fit, see `sums`), in two
    /// parts (`pack_lo` the first two entries) so that `Hot` stays 24 bytes.
    pack_lo: u16,
    pack_hi: u32,
}

impl Hot {
    /// The packed class counts of its run (see [`Hot::pack_lo`]).
    #[inline(always)]
    fn pack(&self) -> u64 {
        u64::from(self.pack_lo) | (u64::from(self.pack_hi) << 16)
    }
}

/// A run's class counts packed as in [`Hot::pack_lo`] (a class with more than 15 instructions takes more
/// than one entry), or 0 when they need more than 6 entries.
fn pack_counts(c: &RunCounts) -> u64 {
    let mut p = 0u64;
    let mut k = 0;
    for (class, &n) in c.iter().enumerate() {
        let mut n = u64::from(n);
        while n > 0 {
            if k == 6 {
                return 0;
            }
            let part = n.min(15);
            p |= ((class as u64) | (part << 4)) << (8 * k);
            n -= part;
            k += 1;
        }
    }
    p
}

/// Instructions of a run by class ([`Program::enter_run`]).
type RunCounts = [u32; 16];

/// The handler is the general executor: it may read the wave's PC and [`Ctx::clock`], which the loop
/// then sets before calling it (the specialised handlers read neither).
const GENERAL: u8 = 1;
/// An `s_waitcnt` (stalls under cycle accounting).
const WAITCNT: u8 = 2;
/// A matrix instruction (holds the matrix core under cycle accounting).
const MATRIX: u8 = 4;
/// A run ends here ([`Program::enter_run`]): a branch, a barrier or an instruction for the general executor
/// (the instructions that may go elsewhere than the next one or end the time slice without an error).
const RUN_END: u8 = 8;
/// Its [`Program::sums`] entry is set.
const SUMMED: u8 = 16;
/// Summed and not the last of its run: its `next` is linked and summed too.
const IN_RUN: u8 = 32;
/// The first of two instructions `plain_run` runs with one handler ([`Hot::fast`], see `exec::fused`): a
/// scalar compare and the conditional branch that ends its run ([`Hot::taken`] is the branch's index).
const FUSED2: u8 = 64;
/// The first of three instructions run with one handler: a scalar add or subtract, a compare and the
/// branch ending the run.
const FUSED3: u8 = 128;
/// Either fused group; `flags >> 6` is the number of instructions the group has besides its first.
/// Both bits: [`BLOCK`].
const FUSED: u8 = FUSED2 | FUSED3;
/// The first instruction of a VALU block (`exec::valu_block`: two or more plain VALU instructions inside
/// one run, not its last), [`Hot::taken`] the block's index in [`Program::blocks`]. `plain_run` runs the
/// block with one call when EXEC is full and the block fits before its limit, else steps the instruction.
const BLOCK: u8 = FUSED2 | FUSED3;

/// `Hot` stays two to a cache line.
const _: () = assert!(std::mem::size_of::<Hot>() == 32);

/// Bytes of code around the entry decoded through the direct-mapped table.
const WINDOW: u64 = 1 << 20;

/// The loop's local class counts have 16 entries.
const _: () = assert!(crate::stats::CLASS_COUNT <= 16);

/// A successor index not looked up yet.
const UNRESOLVED: u32 = u32::MAX;

/// A decode failure at a PC: why, and the dwords there.
type FetchError = (Stop, Vec<u32>);

impl Program {
    fn new(target: &'static Target, base: u64, lanes: LaneKernels, wave_lanes: usize) -> Self {
        Program {
            target,
            base,
            slots: Vec::new(),
            far: HashMap::new(),
            insts: Vec::new(),
            pcs: Vec::new(),
            hot: Vec::new(),
            sums: Vec::new(),
            walk: Vec::new(),
            blocks: Vec::new(),
            block_members: HashMap::new(),
            lanes: Chosen::new(lanes),
            wave_lanes,
        }
    }

    /// The index of the instruction at `pc`, decoding it on first use.
    #[inline]
    fn fetch(&mut self, mem: &dyn Memory, pc: u64) -> Result<usize, FetchError> {
        let off = pc.wrapping_sub(self.base);
        if off < WINDOW && pc & 3 == 0 {
            let k = (off / 4) as usize;
            if let Some(&i) = self.slots.get(k) {
                if i != u32::MAX {
                    return Ok(i as usize);
                }
            }
            let i = self.decode_at(mem, pc)?;
            if self.slots.len() <= k {
                self.slots.resize(k + 1, u32::MAX);
            }
            self.slots[k] = i as u32;
            return Ok(i);
        }
        if let Some(&i) = self.far.get(&pc) {
            return Ok(i as usize);
        }
        let i = self.decode_at(mem, pc)?;
        self.far.insert(pc, i as u32);
        Ok(i)
    }

    /// The first issuing instruction at or after `pc` (hints are stepped over).
    fn fetch_issuing(&mut self, mem: &dyn Memory, mut pc: u64) -> Result<usize, (u64, FetchError)> {
        loop {
            let i = self.fetch(mem, pc).map_err(|e| (pc, e))?;
            if !self.insts[i].hint {
                return Ok(i);
            }
            pc += u64::from(self.insts[i].size);
        }
    }

    /// The index of the instruction after `i` in program order.
    #[inline]
    fn next_of(&mut self, mem: &dyn Memory, i: usize) -> Result<usize, (u64, FetchError)> {
        let n = self.hot[i].next;
        if n != UNRESOLVED {
            return Ok(n as usize);
        }
        let n = self.fetch_issuing(mem, self.pcs[i] + u64::from(self.insts[i].size))?;
        self.hot[i].next = n as u32;
        Ok(n)
    }

    /// The index of the target of relative branch `i`, taken.
    #[inline]
    fn taken_of(&mut self, mem: &dyn Memory, i: usize) -> Result<usize, (u64, FetchError)> {
        let n = self.hot[i].taken;
        if n != UNRESOLVED {
            return Ok(n as usize);
        }
        let target = (self.pcs[i] as i64).wrapping_add(4).wrapping_add(4 * i64::from(self.insts[i].imm)) as u64;
        let n = self.fetch_issuing(mem, target)?;
        self.hot[i].taken = n as u32;
        self.split_block_at(n);
        Ok(n)
    }

    /// The index of `target`, the taken branch `i` jumps to (relative branches always jump to the same
    /// place; other jumps look their target up).
    #[inline]
    fn jump_of(&mut self, mem: &dyn Memory, i: usize, target: u64) -> Result<usize, (u64, FetchError)> {
        let relative = matches!(self.insts[i].op, crate::op::Op::Branch(_));
        if relative {
            let n = self.hot[i].taken;
            if n != UNRESOLVED {
                return Ok(n as usize);
            }
        }
        let n = self.fetch_issuing(mem, target)?;
        if relative {
            self.hot[i].taken = n as u32;
        }
        self.split_block_at(n);
        Ok(n)
    }

    /// Adds to `counts` the class counts of the run that starts at instruction `i`: `i` and those after it in
    /// program order up to and including the first [`RUN_END`] one (straight-line code runs through or not
    /// at all, short of an error). The interpreter adds these when it enters a run instead of counting
    /// every instruction, and takes back the rest of a run it leaves early. Decodes ahead on first use; a
    /// run also ends before code that cannot be fetched (the error is reported when that code is reached).
    /// The counts come from the packed form in [`Hot`] when they fit.
    #[inline(always)]
    fn enter_run(&mut self, mem: &dyn Memory, i: usize, counts: &mut [u64; 16]) {
        if self.hot[i].flags & SUMMED == 0 {
            self.sum_run(mem, i);
        }
        add_run(counts, self.hot[i].pack(), &self.sums[i]);
    }

    /// Sets [`Program::sums`] for the run from `i` (once per instruction and program).
    #[cold]
    #[inline(never)]
    fn sum_run(&mut self, mem: &dyn Memory, i: usize) {
        let mut walk = std::mem::take(&mut self.walk);
        walk.clear();
        let mut acc: RunCounts = [0; 16];
        let mut j = i;
        loop {
            let flags = self.hot[j].flags;
            if flags & SUMMED != 0 {
                acc = self.sums[j];
                break;
            }
            walk.push(j as u32);
            if flags & RUN_END != 0 {
                break;
            }
            match self.next_of(mem, j) {
                Ok(n) => {
                    self.hot[j].flags |= IN_RUN;
                    j = n;
                }
                Err(_) => break,
            }
        }
        for &j in walk.iter().rev() {
            let j = j as usize;
            acc[usize::from(self.hot[j].class & 15)] += 1;
            self.sums[j] = acc;
            let p = pack_counts(&acc);
            let h = &mut self.hot[j];
            (h.pack_lo, h.pack_hi) = (p as u16, (p >> 16) as u32);
            h.flags |= SUMMED;
        }
        self.fuse_tail(&walk);
        self.make_blocks(&walk);
        self.walk = walk;
    }

    /// Compiles the VALU blocks of the run `walk` (its instructions in order, just summed): the longest
    /// sequences of [`valu_block::blockable`] instructions that are not the run's last one (so each has its
    /// `next` linked and a block's last instruction goes on inside the run). Each block's first instruction
    /// gets [`BLOCK`] and the block's index in [`Hot::taken`]; every instruction keeps its own handlers.
    fn make_blocks(&mut self, walk: &[u32]) {
        let inside = |p: &Program, j: usize| {
            let f = p.hot[j].flags;
            f & IN_RUN != 0 && f & (GENERAL | FUSED) == 0 && valu_block::blockable(&p.insts[j])
        };
        let mut k = 0;
        while k < walk.len() {
            let from = k;
            while k < walk.len() && inside(self, walk[k] as usize) {
                k += 1;
            }
            if k - from >= 2 {
                let seq: Vec<&Inst> = walk[from..k].iter().map(|&j| &self.insts[j as usize]).collect();
                let blocks = Block::build(&seq, self.lanes, self.wave_lanes);
                for (at, mut b) in blocks {
                    let first = walk[from + at] as usize;
                    let last = walk[from + at + b.len() as usize - 1] as usize;
                    b.next = self.hot[last].next;
                    for p in 1..b.len() as usize {
                        let j = walk[from + at + p];
                        self.block_members.insert(j, (self.blocks.len() as u32, p as u32));
                    }
                    let h = &mut self.hot[first];
                    (h.taken, h.flags) = (self.blocks.len() as u32, h.flags | BLOCK);
                    self.blocks.push(b);
                }
            }
            k += 1;
        }
    }

    /// Fuses the end of the run `walk` (its instructions in order, just summed) when it is a scalar compare
    /// and a conditional branch on SCC, with or without a scalar add or subtract before them
    /// (`exec::fused`): the group's first instruction gets the group's handler as [`Hot::fast`], [`FUSED2`]
    /// or [`FUSED3`], and the branch's index in [`Hot::taken`]. Every instruction keeps its own handler in
    /// [`Hot::run`] for the loops that step one instruction at a time.
    fn fuse_tail(&mut self, walk: &[u32]) {
        let Some((&br, body)) = walk.split_last() else { return };
        let br = br as usize;
        if self.hot[br].flags & RUN_END == 0 {
            return;
        }
        let Some(&c) = body.last() else { return };
        let c = c as usize;
        if let Some(h) = crate::exec::fused::pair(&self.insts[c], &self.insts[br]) {
            let hc = &mut self.hot[c];
            (hc.fast, hc.taken, hc.flags) = (h, br as u32, hc.flags | FUSED2);
        } else {
            return;
        }
        let Some(&a) = body.len().checked_sub(2).and_then(|k| body.get(k)) else { return };
        let a = a as usize;
        if let Some(h) = crate::exec::fused::triple(&self.insts[a], &self.insts[c], &self.insts[br]) {
            self.insts[a].then = Some(Box::new(self.insts[c].clone()));
            let ha = &mut self.hot[a];
            (ha.fast, ha.taken, ha.flags) = (h, br as u32, ha.flags | FUSED3);
        }
    }

    /// A jump lands on instruction `t` (linked once per branch): when `t` is inside a block but not its
    /// first instruction (a loop whose body continues straight-line code, so the body's VALU instructions
    /// joined those before the loop), the rest of that block from `t` becomes a block of its own, so the
    /// loop runs it with one call too. The block it came from is unchanged (its later instructions stay
    /// its members, so a jump to one of them splits that block again).
    #[cold]
    fn split_block_at(&mut self, t: usize) {
        let Some((b, p)) = self.block_members.remove(&(t as u32)) else { return };
        if let Some(tail) = self.blocks[b as usize].suffix(p as usize) {
            let h = &mut self.hot[t];
            (h.taken, h.flags) = (self.blocks.len() as u32, h.flags | BLOCK);
            self.blocks.push(tail);
        }
    }

    fn decode_at(&mut self, mem: &dyn Memory, pc: u64) -> Result<usize, FetchError> {
        let mut buf = [0u8; 16];
        // The last instruction of a code object may sit close to the end of its mapping.
        let mut n = 16;
        while n > 4 && mem.read(pc, &mut buf[..n]).is_err() {
            n -= 4;
        }
        if n == 4 {
            mem.read(pc, &mut buf[..4]).map_err(|f| (Stop::Fault(f), Vec::new()))?;
        }
        let words: Vec<u32> = buf[..n].chunks(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        match decode(self.target, &buf[..n]) {
            Ok(inst) => {
                let (run, general) = handler(&inst, self.lanes, self.wave_lanes);
                let mut flags = if general { GENERAL } else { 0 };
                if inst.class == InstClass::Waitcnt {
                    flags |= WAITCNT;
                }
                if matches!(inst.op, crate::op::Op::Mfma(_) | crate::op::Op::Wmma(_)) {
                    flags |= MATRIX;
                }
                if general || matches!(inst.op, crate::op::Op::Branch(_) | crate::op::Op::Barrier) {
                    flags |= RUN_END;
                }
                self.sums.push([0; 16]);
                self.hot.push(Hot {
                    run,
                    fast: run,
                    next: UNRESOLVED,
                    taken: UNRESOLVED,
                    class: inst.class as u8,
                    flags,
                    pack_lo: 0,
                    pack_hi: 0,
                });
                self.insts.push(inst);
                self.pcs.push(pc);
                Ok(self.insts.len() - 1)
            }
            Err(e) => Err((Stop::Decode(e), words)),
        }
    }
}

/// The interpreter loop without detail or cycle accounting, in a function of its own so that its state
/// stays in registers: runs instructions from `*idx` while their handlers go to the next instruction of a
/// run or to a linked successor whose run is summed (adding that run's counts to `counts`), and updates
/// `*idx` and `*n` (instructions executed). Returns `None` when `*n` reached `limit` (`*idx` not run yet),
/// or the result of the handler of `*idx` when the caller must look at it (`*n` counts it).
///
/// The common step (a handler inside a run returning [`Go::Next`]) touches one [`Hot`] entry and keeps six
/// values across the call (wave, context, the two tables, the index and the instructions left before
/// `limit`), so none is reloaded from the stack; the entry and the instruction are read without a bounds
/// check (see the `SAFETY` comments), and everything else (setting the PC for the general executor, the
/// links out of a run, adding a run's counts) is off that path.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn plain_run(
    program: &Program,
    w: &mut Wave,
    cx: &mut Ctx<'_>,
    idx: &mut usize,
    n: &mut u64,
    limit: u64,
    cycle: u64,
    counts: &mut [u64; 16],
) -> Option<Go> {
    let (hot, insts) = (&program.hot[..], &program.insts[..]);
    // Every decoded instruction has its entry in both (`decode_at` pushes them together), and the loop only
    // goes to `*idx` (checked here), to an `IN_RUN` entry's `next` (linked by `sum_run` to a decoded
    // instruction before it sets `IN_RUN`; a block's `next` is that of its last instruction, `IN_RUN`) or
    // to a link it checks against `hot`'s length.
    assert!(insts.len() == hot.len() && *idx < hot.len(), "instruction index out of the program");
    let mut i = *idx;
    // Instructions left before `limit` (the caller only calls with `*n < limit`).
    let budget = limit.saturating_sub(*n);
    let mut left = budget;
    let out = loop {
        if left == 0 {
            break None;
        }
        // SAFETY: `i < hot.len()`, see the assertion above.
        #[allow(unsafe_code)]
        let h = unsafe { hot.get_unchecked(i) };
        if h.flags & (GENERAL | FUSED) != 0 {
            if h.flags & GENERAL != 0 {
                w.pc = program.pcs[i];
                cx.clock = cycle.max((*n + budget - left) * 4);
            } else if h.flags & FUSED == BLOCK {
                // A VALU block: all of it in one call when it fits before `limit` and EXEC is full (the
                // block checks), else this instruction alone (the rest are stepped one by one).
                let b = &program.blocks[h.taken as usize];
                if left >= b.len() && b.run(w, cx.stats) {
                    left -= b.len();
                    i = b.next as usize;
                    continue;
                }
                // SAFETY: as for the call below.
                #[allow(unsafe_code)]
                let go = unsafe { (h.run)(w, cx, insts.get_unchecked(i)) };
                left -= 1;
                if go == Go::Next {
                    // A block's instructions are inside a run (`IN_RUN`).
                    i = h.next as usize;
                    continue;
                }
                break Some(go);
            } else if left <= u64::from(h.flags >> 6) {
                // The fused group does not fit before `limit`: the caller steps its first instruction.
                break None;
            }
        }
        // SAFETY: the handler was chosen by `handler` for `program.lanes`, a `Chosen` made by
        // `Chosen::new` after checking that the host has the instruction-set extensions it needs; `i` is
        // inside `insts`, which is as long as `hot` (the assertion above).
        #[allow(unsafe_code)]
        let go = unsafe { (h.fast)(w, cx, insts.get_unchecked(i)) };
        left -= 1;
        if go == Go::Next && h.flags & (IN_RUN | FUSED) == IN_RUN {
            i = h.next as usize;
            continue;
        }
        // After a fused group, go on as after its branch (the group's last instruction).
        let h = if h.flags & FUSED != 0 {
            left -= u64::from(h.flags >> 6);
            i = h.taken as usize;
            &hot[i]
        } else {
            h
        };
        let link = match go {
            Go::Next => h.next,
            Go::Taken => h.taken,
            Go::Other => break Some(go),
        };
        match hot.get(link as usize) {
            Some(t) if t.flags & SUMMED != 0 => {
                i = link as usize;
                add_run(counts, t.pack(), &program.sums[i]);
            }
            _ => break Some(go),
        }
    };
    (*idx, *n) = (i, *n + (budget - left));
    out
}

/// Adds a run's class counts to the loop's: from its packed form (`pack`, see [`Hot::pack_lo`]: one add
/// per class present, the common case of short runs between barriers and branches) or, when it did not
/// fit, from all 16 entries of `run`.
#[inline(always)]
fn add_run(counts: &mut [u64; 16], pack: u64, run: &RunCounts) {
    if pack == 0 {
        add_all(counts, run);
        return;
    }
    let mut p = pack;
    while p != 0 {
        let c = &mut counts[(p & 15) as usize];
        *c = c.wrapping_add((p >> 4) & 15);
        p >>= 8;
    }
}

/// [`add_run`] for a run whose counts did not pack.
#[inline(never)]
fn add_all(counts: &mut [u64; 16], run: &RunCounts) {
    for (c, &r) in counts.iter_mut().zip(run) {
        *c = c.wrapping_add(u64::from(r));
    }
}

/// Takes the class counts of a run's part not executed back from the loop's.
#[inline(always)]
fn sub_run(counts: &mut [u64; 16], run: &RunCounts) {
    for (c, &r) in counts.iter_mut().zip(run) {
        *c = c.wrapping_sub(u64::from(r));
    }
}

/// A wave's place in its workgroup.
struct Slot {
    wave: Wave,
    stats: WaveStats,
    steps: Option<Vec<Step>>,
    truncated: bool,
    /// [`WaveRecord::grid_level`].
    grid_level: u32,
    lanes: u32,
    at_barrier: bool,
    /// Waiting in `ds_gws_barrier`/`ds_gws_sema_p`.
    gws_wait: Option<Wait>,
    /// The program index of the instruction at the wave's PC when its last time slice ended at a barrier,
    /// a GWS wait or the slice bound ([`UNRESOLVED`]: look the PC up).
    resume: u32,
    executed: u64,
    /// Current cycle and the completion cycle of the latest outstanding access (cycle accounting).
    cycle: u64,
    pending: u64,
    /// The cycle the wave's matrix core is free again: a matrix instruction holds it for its pass
    /// cycles ([`crate::op::Mfma::cycles`]), and the next one issues no earlier (cycle accounting).
    matrix_free: u64,
}

struct Worker<'a> {
    d: &'a Dispatch,
    mem: &'a dyn Memory,
    opts: &'a RunOptions<'a>,
    gws: &'a Gws,
    workers: &'a Workers,
    program: Program,
    lds: Vec<u8>,
    slots: Vec<Slot>,
    /// The run has [`Costs`] (cycles are counted).
    timing: bool,
}

fn error_at(
    d: &Dispatch,
    w: &Wave,
    stop: Stop,
    inst: Option<&Inst>,
    words: Vec<u32>,
    wg: u64,
    wave: u32,
) -> DispatchError {
    let kind = match stop {
        Stop::Unimplemented => ErrorKind::Unimplemented,
        Stop::Invalid(s) => ErrorKind::Unsupported(s),
        Stop::Fault(f) => ErrorKind::Fault(f),
        Stop::Trap => ErrorKind::Trap,
        Stop::Decode(e) => ErrorKind::Decode(e.to_string()),
    };
    DispatchError {
        kind,
        pc: w.pc,
        pc_offset: w.pc.wrapping_sub(d.entry()) as i64,
        mnemonic: inst.map(|i| i.name),
        words,
        workgroup: wg,
        wave,
    }
}

impl<'a> Worker<'a> {
    fn new(d: &'a Dispatch, mem: &'a dyn Memory, opts: &'a RunOptions<'a>, gws: &'a Gws, workers: &'a Workers) -> Self {
        Worker {
            d,
            mem,
            opts,
            gws,
            workers,
            program: Program::new(d.target, d.entry(), opts.lanes, d.lanes()),
            lds: vec![0; d.group_segment_size as usize],
            slots: Vec::new(),
            timing: opts.costs.issue.iter().chain(&opts.costs.latency).any(|&c| c != 0),
        }
    }

    /// Sets up the waves of workgroup `wg` (index in dispatch order).
    fn setup(&mut self, wg: u64) {
        let d = self.d;
        let n = d.workgroups();
        let id = [wg % n[0], wg / n[0] % n[1], wg / (n[0] * n[1])];
        // A partial workgroup at the grid's edge has fewer work-items; waves pack its real shape.
        let size: [u32; 3] = [0, 1, 2].map(|k| {
            let start = id[k] * u64::from(d.workgroup[k]);
            (u64::from(d.grid[k]) - start).min(u64::from(d.workgroup[k])) as u32
        });
        let items = size.iter().map(|&s| s as usize).product::<usize>();
        let lanes = d.lanes();
        let waves = items.div_ceil(lanes);
        let private = d.private_segment_size.max(d.descriptor.private_segment_fixed_size);
        while self.slots.len() < waves {
            let mut wave = Wave::new(d.target.family, lanes, private);
            wave.fp8_fnuz = d.target.fp8_fnuz;
            wave.matrix_ignores_exec = d.target.name == "gfx950";
            self.slots.push(Slot {
                wave,
                stats: WaveStats::default(),
                steps: None,
                truncated: false,
                grid_level: 0,
                lanes: 0,
                at_barrier: false,
                gws_wait: None,
                resume: UNRESOLVED,
                executed: 0,
                cycle: 0,
                pending: 0,
                matrix_free: 0,
            });
        }
        self.slots.truncate(waves);
        self.lds.fill(0);
        // The entry's index, looked up once for the workgroup's waves (an error is reported by the first
        // wave that starts, which then looks the PC up itself).
        let entry = self.program.fetch_issuing(self.mem, d.entry()).map_or(UNRESOLVED, |i| i as u32);
        let kd = &d.descriptor;
        let vgprs = kd.vgprs();
        // AGPRs in use: on gfx90a/gfx94x the unified file's rows above ACCUM_OFFSET ((rsrc3[5:0] + 1) * 4).
        let agprs = if d.target.unified_agprs {
            let accum = ((kd.rsrc3 & 0x3f) as usize + 1) * 4;
            vgprs.saturating_sub(accum)
        } else if d.target.agprs {
            256
        } else {
            0
        };
        for (k, slot) in self.slots.iter_mut().enumerate() {
            let w = &mut slot.wave;
            w.reset(vgprs, agprs);
            w.pc = d.entry();
            w.hw_id = k as u32;
            // User SGPRs in the order of kernel_code_properties.
            let mut s = 0u16;
            let props = kd.properties;
            let put2 = |w: &mut Wave, s: &mut u16, v: u64| {
                w.set_s64(*s, v);
                *s += 2;
            };
            if props & 1 != 0 {
                // Private segment buffer V#: its (48-bit) base is PRIVATE_BUFFER_BASE, so MUBUF scratch maps to
                // the wave's private memory; swizzle/add-tid bits as ROCr sets them do not matter to this model.
                w.set_s64(s, PRIVATE_BUFFER_BASE);
                w.set_s(s + 2, u32::MAX);
                w.set_s(s + 3, 0x0080_0000);
                s += 4;
            }
            if props & 2 != 0 {
                put2(w, &mut s, d.dispatch_ptr);
            }
            if props & 4 != 0 {
                put2(w, &mut s, d.queue_ptr);
            }
            if props & 8 != 0 {
                put2(w, &mut s, d.kernarg);
            }
            if props & 16 != 0 {
                put2(w, &mut s, d.dispatch_id);
            }
            if props & 32 != 0 {
                put2(w, &mut s, 0);
            }
            if props & 64 != 0 {
                w.set_s(s, private);
                s += 1;
            }
            // Preloaded kernel arguments follow (gfx940/gfx12, kernarg_preload[6:0] dwords from [15:7]).
            let preload = u32::from(kd.kernarg_preload & 0x7f);
            let preload_off = u64::from(kd.kernarg_preload >> 7) * 4;
            for p in 0..preload {
                let mut b = [0u8; 4];
                if self.mem.read(d.kernarg + preload_off + 4 * u64::from(p), &mut b).is_ok() {
                    w.set_s(s, u32::from_le_bytes(b));
                }
                s += 1;
            }
            // System SGPRs start at USER_SGPR_COUNT.
            let mut s = ((kd.rsrc2 >> 1) & 0x1f) as u16;
            for (dim, bit) in [(0, 7), (1, 8), (2, 9)] {
                if kd.rsrc2 & (1 << bit) != 0 {
                    w.set_s(s, id[dim] as u32);
                    s += 1;
                }
            }
            if kd.rsrc2 & (1 << 10) != 0 {
                w.set_s(s, 0); // workgroup info
                s += 1;
            }
            if kd.rsrc2 & 1 != 0 {
                w.set_s(s, 0); // private segment wave offset: private memory is per wave here
            }
            if d.target.family >= Family::Gfx12 {
                // Architected SGPRs (gfx12): the workgroup ids live in ttmp9 (x) and ttmp7 (y | z << 16).
                w.set_s(108 + 9, id[0] as u32);
                w.set_s(108 + 7, (id[1] as u32 & 0xffff) | ((id[2] as u32) << 16));
            }
            // Work-item ids and EXEC: flat ids k*lanes.. walk x fastest, then y, then z.
            let mut exec = 0u64;
            let packed = d.target.packed_tid;
            let first = k * lanes;
            let (mut x, mut y, mut z) = (
                (first % size[0] as usize) as u32,
                (first / size[0] as usize % size[1] as usize) as u32,
                (first / (size[0] as usize * size[1] as usize)) as u32,
            );
            for l in 0..lanes.min(items.saturating_sub(first)) {
                exec |= 1 << l;
                if packed {
                    w.set_vr(0, l, x | (y << 10) | (z << 20));
                } else {
                    w.set_vr(0, l, x);
                    w.set_vr(1, l, y);
                    w.set_vr(2, l, z);
                }
                x += 1;
                if x == size[0] {
                    x = 0;
                    y += 1;
                    if y == size[1] {
                        y = 0;
                        z += 1;
                    }
                }
            }
            w.set_exec(exec);
            slot.lanes = exec.count_ones();
            slot.stats = WaveStats::default();
            slot.at_barrier = false;
            slot.gws_wait = None;
            slot.resume = entry;
            slot.executed = 0;
            slot.cycle = 0;
            slot.pending = 0;
            slot.matrix_free = 0;
            slot.truncated = false;
            slot.grid_level = 0;
            slot.steps = match self.opts.detail {
                Some(f) if f(wg, k as u32) => Some(Vec::new()),
                _ => None,
            };
        }
    }

    /// Runs wave `k` until it ends, reaches a barrier or used its time slice.
    fn run_wave(&mut self, k: usize, wg: u64, budget: u64) -> Result<(), DispatchError> {
        match (self.slots[k].steps.is_some(), self.timing) {
            (false, false) => self.run_wave_as::<false, false>(k, wg, budget),
            (false, true) => self.run_wave_as::<false, true>(k, wg, budget),
            (true, false) => self.run_wave_as::<true, false>(k, wg, budget),
            (true, true) => self.run_wave_as::<true, true>(k, wg, budget),
        }
    }

    /// [`Self::run_wave`] with the per-instruction work known at compile time: `DETAIL`, the wave records
    /// its steps; `TIMING`, cycles are counted (the run has [`Costs`]). The loop itself reads one [`Hot`]
    /// entry, counts the class, calls the handler and follows the program's links.
    fn run_wave_as<const DETAIL: bool, const TIMING: bool>(
        &mut self,
        k: usize,
        wg: u64,
        budget: u64,
    ) -> Result<(), DispatchError> {
        let d = self.d;
        let entry = d.entry();
        let mem = self.mem;
        let opts = self.opts;
        let costs = &opts.costs;
        let Slot {
            wave: w,
            stats,
            steps,
            truncated,
            grid_level,
            executed,
            cycle,
            pending,
            matrix_free,
            at_barrier,
            gws_wait,
            resume,
            ..
        } = &mut self.slots[k];
        let program = &mut self.program;
        let fail = |w: &mut Wave, (pc, (stop, words)): (u64, FetchError)| {
            w.pc = pc;
            error_at(d, w, stop, None, words, wg, k as u32)
        };
        let mut idx = match std::mem::replace(resume, UNRESOLVED) {
            UNRESOLVED => match program.fetch_issuing(mem, w.pc) {
                Ok(i) => i,
                Err(e) => return Err(fail(w, e)),
            },
            i => i as usize,
        };
        let mut cx = Ctx { mem, lds: &mut self.lds, clock: 0, stats, gws: self.gws, stop: None, flow: Flow::Next };
        // The time slice and the hang limit in one bound (a wave past `max_wave_instructions` hangs).
        let mut n = *executed;
        let limit = n.saturating_add(budget).min(opts.max_wave_instructions.saturating_add(1));
        let (mut cyc, mut pend, mut mfree) = (*cycle, *pending, *matrix_free);
        // Class counts of this time slice, added to the wave's at the end: a local array (16 entries, so
        // the class byte indexes it without a bounds check) instead of a counter behind the context that
        // the loop reloaded and incremented in memory for every instruction.
        // Without detail the counts go by runs (`Program::enter_run`): added when the loop enters a run, the
        // part not executed taken back when it leaves one early (wrapping, as a run's counts are added first).
        let mut counts = [0u64; 16];
        if !DETAIL {
            program.enter_run(mem, idx, &mut counts);
        }
        let out = loop {
            // Without detail or cycle accounting the common path is `plain_run`'s own small loop (its state
            // stays in registers); it comes back at the slice bound or with a handler's result it does not
            // follow itself, which the code below then handles as for any instruction.
            let plain = if !DETAIL && !TIMING && n < limit {
                plain_run(program, w, &mut cx, &mut idx, &mut n, limit, cyc, &mut counts)
            } else {
                None
            };
            let (h, go, stall, issued_at, exec_before) = if let Some(go) = plain {
                (program.hot[idx], go, 0, cyc, 0)
            } else {
                if n >= limit {
                    if !DETAIL {
                        sub_run(&mut counts, &program.sums[idx]);
                    }
                    w.pc = program.pcs[idx];
                    *resume = idx as u32;
                    if n > opts.max_wave_instructions {
                        let mut e = error_at(d, w, Stop::Invalid(String::new()), None, Vec::new(), wg, k as u32);
                        e.kind = ErrorKind::Hang;
                        break Err(e);
                    }
                    break Ok(());
                }
                let h = program.hot[idx];
                let inst = &program.insts[idx];
                let class = h.class as usize;
                if DETAIL {
                    counts[class & 15] += 1;
                }
                let mut stall = 0u32;
                let issued_at = cyc;
                if TIMING {
                    if h.flags & WAITCNT != 0 && pend > cyc {
                        stall = (pend - cyc).min(u64::from(u32::MAX)) as u32;
                        cyc = pend;
                        cx.stats.stall_cycles += u64::from(stall);
                    }
                    // A matrix instruction waits until the previous one has left the matrix core (AMD's matrix
                    // instruction calculator: one instruction per "execution cycles"), then holds it as long.
                    if h.flags & MATRIX != 0 {
                        let passes = match inst.op {
                            crate::op::Op::Mfma(m) => u64::from(m.cycles),
                            crate::op::Op::Wmma(x) => u64::from(x.cycles(w.family >= crate::target::Family::Gfx12)),
                            _ => 0,
                        };
                        if passes > 0 {
                            if mfree > cyc {
                                let wait = mfree - cyc;
                                stall = stall.saturating_add(wait.min(u64::from(u32::MAX)) as u32);
                                cx.stats.stall_cycles += wait;
                                cyc = mfree;
                            }
                            mfree = cyc + passes;
                        }
                    }
                }
                let issued_at = if TIMING { cyc } else { issued_at };
                if TIMING {
                    let latency = u64::from(costs.latency[class]);
                    if latency > 0 {
                        pend = pend.max(cyc + latency);
                    }
                    let issue = u64::from(costs.issue[class]);
                    cyc += issue;
                    cx.stats.issue_cycles += issue;
                }
                if h.flags & GENERAL != 0 {
                    w.pc = program.pcs[idx];
                    cx.clock = cyc.max(n * 4);
                }
                let exec_before = if DETAIL { w.exec() } else { 0 };
                // SAFETY: the handler was chosen by `handler` for `program.lanes`, a `Chosen` made by
                // `Chosen::new` after checking that the host has the instruction-set extensions it needs.
                #[allow(unsafe_code)]
                let go = unsafe { (h.run)(w, &mut cx, inst) };
                n += 1;
                (h, go, stall, issued_at, exec_before)
            };
            let inst = &program.insts[idx];
            // The common case first: the next instruction or a taken branch, already linked.
            if !DETAIL {
                // Inside a run: its counts were added when the loop entered it.
                if go == Go::Next && h.flags & IN_RUN != 0 {
                    idx = h.next as usize;
                    continue;
                }
                let link = match go {
                    Go::Next => h.next,
                    Go::Taken => h.taken,
                    Go::Other => UNRESOLVED,
                };
                if link != UNRESOLVED {
                    idx = link as usize;
                    program.enter_run(mem, idx, &mut counts);
                    continue;
                }
                // Leaving the run before its end: the rest of it did not run.
                if h.flags & IN_RUN != 0 {
                    sub_run(&mut counts, &program.sums[h.next as usize]);
                }
            }
            let flow = match go {
                Go::Next => Flow::Next,
                Go::Taken => Flow::Taken,
                Go::Other => std::mem::replace(&mut cx.flow, Flow::Next),
            };
            if DETAIL {
                if let Some(steps) = steps {
                    if opts.decimate_detail && steps.len() >= opts.max_detail_steps.max(2) {
                        *grid_level = crate::stats::decimate(steps, *grid_level, opts.max_detail_steps);
                    }
                    if steps.len() < opts.max_detail_steps {
                        let class = h.class;
                        let class = if class == InstClass::BranchNotTaken as u8
                            && matches!(flow, Flow::Jump(_) | Flow::Taken)
                        {
                            InstClass::BranchTaken
                        } else {
                            InstClass::ALL[usize::from(class)]
                        };
                        steps.push(Step {
                            pc_offset: program.pcs[idx].wrapping_sub(entry) as i64,
                            class,
                            exec: exec_before,
                            cycle: issued_at,
                            stall,
                        });
                    } else {
                        *truncated = true;
                    }
                }
            }
            let link = match flow {
                Flow::Next if h.next != UNRESOLVED => {
                    idx = h.next as usize;
                    continue;
                }
                Flow::Next => program.next_of(mem, idx),
                Flow::Taken => program.taken_of(mem, idx),
                Flow::Jump(t) => {
                    w.pc = program.pcs[idx];
                    program.jump_of(mem, idx, t)
                }
                Flow::End => {
                    w.pc = program.pcs[idx];
                    w.done = true;
                    break Ok(());
                }
                Flow::Barrier => {
                    w.pc = program.pcs[idx] + u64::from(inst.size);
                    // Linked here (a barrier ends its run, so the loop never follows its `next`); code that
                    // cannot be fetched is reported when the wave goes on.
                    *resume = program.next_of(mem, idx).map_or(UNRESOLVED, |n| n as u32);
                    *at_barrier = true;
                    break Ok(());
                }
                Flow::Gws(wait) => {
                    w.pc = program.pcs[idx] + u64::from(inst.size);
                    *resume = program.next_of(mem, idx).map_or(UNRESOLVED, |n| n as u32);
                    *gws_wait = Some(wait);
                    break Ok(());
                }
                Flow::Stop => {
                    w.pc = program.pcs[idx];
                    let stop = cx.stop.take().unwrap_or(Stop::Unimplemented);
                    let words = words_of(inst, mem, w.pc);
                    break Err(error_at(d, w, stop, Some(inst), words, wg, k as u32));
                }
            };
            match link {
                Ok(i) => {
                    idx = i;
                    if !DETAIL {
                        program.enter_run(mem, idx, &mut counts);
                    }
                }
                Err(e) => break Err(fail(w, e)),
            }
        };
        for (total, &c) in cx.stats.counts.iter_mut().zip(&counts) {
            *total += c;
        }
        *executed = n;
        (*cycle, *pending, *matrix_free) = (cyc, pend, mfree);
        out
    }

    /// Runs workgroup `wg`; its summed record goes to `groups`, its detailed waves to `detailed`, and
    /// wave 0's counts to `first` when `wg` is 0.
    fn run_workgroup(
        &mut self,
        wg: u64,
        groups: &mut Vec<WorkgroupRecord>,
        detailed: &mut Vec<WaveRecord>,
        first: &mut Option<WaveStats>,
    ) -> Result<(), DispatchError> {
        self.setup(wg);
        const SLICE: u64 = 1 << 14;
        loop {
            let mut live = 0;
            for k in 0..self.slots.len() {
                let s = &mut self.slots[k];
                if s.wave.done || s.at_barrier {
                    continue;
                }
                if let Some(wait) = s.gws_wait {
                    if !self.gws.try_resume(wait) {
                        continue;
                    }
                    s.gws_wait = None;
                }
                live += 1;
                self.run_wave(k, wg, SLICE)?;
            }
            if live == 0 {
                // Waves waiting in GWS: the others can only go on after them (or are done).
                let waits: Vec<Option<Wait>> = self.slots.iter().map(|s| s.gws_wait).collect();
                if waits.iter().any(Option::is_some) {
                    match self.gws.wait_any(&waits, self.workers) {
                        Some(k) => self.slots[k].gws_wait = None,
                        None => {
                            let k = waits.iter().position(Option::is_some).expect("a wave waits");
                            let w = &self.slots[k].wave;
                            let mut e =
                                error_at(self.d, w, Stop::Invalid(String::new()), None, Vec::new(), wg, k as u32);
                            e.kind = ErrorKind::Hang;
                            return Err(e);
                        }
                    }
                    continue;
                }
                // Everyone is done or waiting: release the barrier (ended waves do not take part).
                let waiting = self.slots.iter().filter(|s| s.at_barrier).count();
                if waiting == 0 {
                    break;
                }
                for s in &mut self.slots {
                    s.at_barrier = false;
                }
            }
        }
        let mut group = WorkgroupRecord { workgroup: wg, ..WorkgroupRecord::default() };
        for (k, s) in self.slots.iter_mut().enumerate() {
            group.add_wave(&s.stats, s.lanes);
            if wg == 0 && k == 0 {
                *first = Some(s.stats);
            }
            if let Some(steps) = s.steps.take() {
                detailed.push(WaveRecord {
                    workgroup: wg,
                    wave: k as u32,
                    lanes: s.lanes,
                    stats: s.stats,
                    steps: Some(steps),
                    truncated: s.truncated,
                    grid_level: s.grid_level,
                });
            }
        }
        groups.push(group);
        Ok(())
    }
}

fn words_of(inst: &Inst, mem: &dyn Memory, pc: u64) -> Vec<u32> {
    let mut b = vec![0u8; inst.size as usize];
    if mem.read(pc, &mut b).is_err() {
        return Vec::new();
    }
    b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
}

/// Whether every workgroup of `d` provably runs exactly as workgroup 0 does, so that workgroup 0's
/// record stands for all of them (the proof and its conditions: `uniform`).
pub fn workgroups_alike(d: &Dispatch, mem: &dyn Memory) -> bool {
    let shape = crate::uniform::Shape {
        target: d.target,
        entry: d.entry(),
        rsrc2: d.descriptor.rsrc2,
        grid: d.grid,
        workgroup: d.workgroup,
    };
    crate::uniform::alike(&shape, mem)
}

/// Turns the record of workgroup 0 alone (every wave detailed when `wanted` is given) into the record of
/// all `total` workgroups: each a copy with its own index, and a copy of each detailed wave `wanted` asks
/// for.
fn replicate(rec: &mut DispatchRecord, total: u64, wanted: Option<DetailFilter<'_>>) {
    let Some(&g0) = rec.workgroups.first() else { return };
    let waves = std::mem::take(&mut rec.detailed);
    rec.workgroups = (0..total).map(|g| WorkgroupRecord { workgroup: g, ..g0 }).collect();
    if let Some(f) = wanted {
        for g in 0..total {
            for w in waves.iter().filter(|w| f(g, w.wave)) {
                rec.detailed.push(WaveRecord { workgroup: g, ..w.clone() });
            }
        }
    }
}

/// Runs `d` to completion on `mem`. On an error, no further workgroups start; the error reported is the
/// one of the lowest workgroup index that failed (the same with any thread count).
pub fn run(d: &Dispatch, mem: &dyn Memory, opts: &RunOptions<'_>) -> Result<DispatchRecord, DispatchError> {
    let n = d.workgroups();
    let total = n[0] * n[1] * n[2];
    if d.workgroup.iter().product::<u32>() == 0 || total == 0 {
        return Ok(DispatchRecord::default());
    }
    if d.workgroup.iter().map(|&x| x as usize).product::<usize>() > 1024 || d.lanes() > MAX_LANES {
        return Err(DispatchError {
            kind: ErrorKind::Unsupported("workgroup larger than 1024 work-items".into()),
            pc: d.entry(),
            pc_offset: 0,
            mnemonic: None,
            words: Vec::new(),
            workgroup: 0,
            wave: 0,
        });
    }
    if opts.co_resident && total > MAX_CO_RESIDENT_WORKGROUPS {
        return Err(DispatchError {
            kind: ErrorKind::Unsupported(format!(
                "cooperative grid of {total} workgroups (at most {MAX_CO_RESIDENT_WORKGROUPS} resident at once)"
            )),
            pc: d.entry(),
            pc_offset: 0,
            mnemonic: None,
            words: Vec::new(),
            workgroup: 0,
            wave: 0,
        });
    }
    // Workgroups that provably run alike: workgroup 0 runs (every wave detailed when any is asked for) and
    // its record stands for the others (`uniform`).
    let alike = total > 1 && !opts.co_resident && workgroups_alike(d, mem);
    let all_waves = |_: u64, _: u32| true;
    let one = RunOptions { detail: opts.detail.map(|_| &all_waves as DetailFilter<'_>), ..*opts };
    let (opts, wanted, total) = if alike { (&one, opts.detail, 1) } else { (opts, None, total) };
    let threads = if opts.co_resident { total as usize } else { opts.threads.clamp(1, 64).min(total as usize) };
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<(Vec<WorkgroupRecord>, Vec<WaveRecord>)>> = Mutex::new(Vec::new());
    let first_wave: Mutex<Option<WaveStats>> = Mutex::new(None);
    let own_gws;
    let gws = match opts.gws {
        Some(g) => g,
        None => {
            own_gws = Gws::new();
            &own_gws
        }
    };
    let workers = Workers::new(threads);
    let errors: Mutex<Vec<DispatchError>> = Mutex::new(Vec::new());
    let work = || {
        let mut worker = Worker::new(d, mem, opts, gws, &workers);
        let mut groups: Vec<WorkgroupRecord> = Vec::new();
        let mut detailed: Vec<WaveRecord> = Vec::new();
        let mut first = None;
        loop {
            if failed.load(Ordering::Relaxed) {
                break;
            }
            let wg = next.fetch_add(1, Ordering::Relaxed);
            if wg >= total {
                break;
            }
            match worker.run_workgroup(wg, &mut groups, &mut detailed, &mut first) {
                Ok(()) => {}
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    errors.lock().unwrap_or_else(|e| e.into_inner()).push(e);
                    break;
                }
            }
        }
        if first.is_some() {
            *first_wave.lock().unwrap_or_else(|e| e.into_inner()) = first;
        }
        results.lock().unwrap_or_else(|e| e.into_inner()).push((groups, detailed));
        gws.worker_done(&workers);
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.workgroup);
        return Err(errors.swap_remove(0));
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut rec = DispatchRecord {
        first_wave: first_wave.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_default(),
        ..DispatchRecord::default()
    };
    rec.workgroups.reserve(total as usize);
    for (groups, detailed) in results {
        rec.workgroups.extend(groups);
        rec.detailed.extend(detailed);
    }
    if alike {
        replicate(&mut rec, d.workgroups().iter().product(), wanted);
    }
    // Each thread's lists are in its own order; the record's is the dispatch's, whatever the threads did.
    rec.workgroups.sort_unstable_by_key(|g| g.workgroup);
    rec.detailed.sort_unstable_by_key(|w| (w.workgroup, w.wave));
    for g in &rec.workgroups {
        rec.totals.add(&g.stats);
    }
    Ok(rec)
}
