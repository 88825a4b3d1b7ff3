//! VALU blocks: a straight run of plain 32-bit VALU instructions (at least two, inside one run of the
//! program, see `dispatch`) executed by one call. A block is compiled once, when its run is first summed,
//! into a compact table: per instruction the operation's kind and its resolved operands (a VGPR row, an
//! SGPR copied into a scratch row when the block starts, or a constant row the block owns) and its
//! destination row. Under a full EXEC the block runs every operation in one loop: a `match` on the kind,
//! then the operation's lane loop over the wave's lanes (8 lanes per AVX2 vector, 16 per AVX-512 one),
//! with no EXEC test, no active-lane count and no bounds check per instruction; under any other EXEC it
//! runs nothing and the interpreter steps the instructions one by one through their own handlers. With
//! AVX2 and FMA lane kernels a block is also compiled into host code (`valu_jit`), which runs instead of
//! the table when there is some.
//!
//! Only operations whose lane function is in [`block_ops`] (`valu_lane.rs`, the functions the executor's
//! arms call too) and that write nothing but their VGPR destination can be in a block, so reading the SGPRs
//! once when the block starts gives what each instruction would read, and the instructions' results and
//! the counts are those of running them one by one.

#[cfg(target_arch = "x86_64")]
use super::lanes::{Avx2Fma, Avx512};
use super::lanes::{Base, Chosen, Isa};
use super::valu_jit::{self, JOp, JitCode, Loc};
#[cfg(test)]
pub(super) use super::valu_kind::{kind_for_tests, BLOCK_OPS};
use super::valu_kind::{kind_of, Kind, Shape};
use super::valu_lane::*;
use super::valu_operand::exec_n;
use crate::decode::{Inst, VGPR0};
use crate::op::Op;
use crate::pre::{Src, ARCH_ROWS};
use crate::stats::WaveStats;
use crate::wave::{Wave, MAX_LANES, REG_ROWS, SCRATCH_ROW};

/// One instruction of a block.
#[derive(Clone, Copy, Debug)]
struct BOp {
    kind: Kind,
    /// Sources the lane loop reads (`F3Acc`'s third is its destination's row, in `row[2]`).
    n: u8,
    /// Bit `k`: source `k` is a row of [`Block::consts`], not of the register file.
    konst: u8,
    /// The destination's row in the register file.
    dst: u16,
    /// Each source's row: a VGPR, a scratch row holding an SGPR's value (register file) or a constant row.
    row: [u16; 3],
}

/// The lane loop of an operation of shape `$0` with lane function `$f` (the float shapes convert the lanes'
/// bits around it, as the executor's fast paths do).
macro_rules! shape_call {
    (U1, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op1::<N, W>($vb, $cb, $o, $f)
    };
    (U2, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op2::<N, W>($vb, $cb, $o, $f)
    };
    (U3, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op3::<N, W>($vb, $cb, $o, $f)
    };
    (F2, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op2::<N, W>($vb, $cb, $o, |a, b| $f(f32::from_bits(a), f32::from_bits(b)).to_bits())
    };
    (F3, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op3::<N, W>($vb, $cb, $o, |a, b, c| $f(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)).to_bits())
    };
    (F3Acc, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        shape_call!(F3, $vb, $cb, $o, $f)
    };
    (FromU, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op1::<N, W>($vb, $cb, $o, |a| $f(a).to_bits())
    };
    (ToU, $vb:ident, $cb:ident, $o:ident, $f:path) => {
        op1::<N, W>($vb, $cb, $o, |a| $f(f32::from_bits(a)))
    };
}

macro_rules! run_ops {
    ($($name:ident: $shape:ident = $f:path),* $(,)?) => {
        /// Runs `o` on all `N` lanes, `W` at a time.
        ///
        /// # Safety
        /// `vb` points to a register file of [`REG_ROWS`] rows, `cb` to the rows of the block `o` belongs to,
        /// and `o`'s rows are inside them (checked by [`Block::build`]).
        #[inline(always)]
        #[allow(unsafe_code)]
        unsafe fn run_op<K: Isa, const N: usize, const W: usize>(vb: *mut u32, cb: *const u32, o: &BOp) {
            // SAFETY: the caller's promise, passed on.
            unsafe {
                match o.kind {
                    $(Kind::$name => shape_call!($shape, vb, cb, o, $f),)*
                }
            }
        }
    };
}

block_ops!(run_ops);

/// Source `k` of `o`: its row in the register file or in the block's constants.
///
/// # Safety
/// As for [`run_op`].
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn src(vb: *mut u32, cb: *const u32, o: &BOp, k: usize) -> *const u32 {
    let base = if o.konst >> k & 1 != 0 { cb } else { vb.cast_const() };
    // SAFETY: the row is inside the file it names (the caller's promise).
    unsafe { base.add(usize::from(o.row[k]) * MAX_LANES) }
}

/// `W` lanes at `p`.
///
/// # Safety
/// `p` is valid for reading `W` values.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn load<const W: usize>(p: *const u32) -> [u32; W] {
    // SAFETY: the caller's promise; `read_unaligned` needs no alignment.
    unsafe { p.cast::<[u32; W]>().read_unaligned() }
}

/// Writes `W` lanes at `p`.
///
/// # Safety
/// `p` is valid for writing `W` values.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn store<const W: usize>(p: *mut u32, v: [u32; W]) {
    // SAFETY: the caller's promise; `write_unaligned` needs no alignment.
    unsafe { p.cast::<[u32; W]>().write_unaligned(v) }
}

// The lane loops: each chunk's sources are read before its lanes are written, and lanes are independent,
// so a destination that is also a source is safe (as in the executor's full-EXEC paths).

/// `d = f(a)` on `N` lanes. # Safety: as for [`run_op`].
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn op1<const N: usize, const W: usize>(vb: *mut u32, cb: *const u32, o: &BOp, f: impl Fn(u32) -> u32) {
    // SAFETY: every row is inside its file and holds `MAX_LANES >= N` lanes (the caller's promise).
    unsafe {
        let (a, d) = (src(vb, cb, o, 0), vb.add(usize::from(o.dst) * MAX_LANES));
        for c in 0..N / W {
            let k = W * c;
            let x = load::<W>(a.add(k));
            let mut r = [0u32; W];
            for l in 0..W {
                r[l] = f(x[l]);
            }
            store::<W>(d.add(k), r);
        }
    }
}

/// `d = f(a, b)` on `N` lanes. # Safety: as for [`run_op`].
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn op2<const N: usize, const W: usize>(vb: *mut u32, cb: *const u32, o: &BOp, f: impl Fn(u32, u32) -> u32) {
    // SAFETY: every row is inside its file and holds `MAX_LANES >= N` lanes (the caller's promise).
    unsafe {
        let (a, b, d) = (src(vb, cb, o, 0), src(vb, cb, o, 1), vb.add(usize::from(o.dst) * MAX_LANES));
        for c in 0..N / W {
            let k = W * c;
            let (x, y) = (load::<W>(a.add(k)), load::<W>(b.add(k)));
            let mut r = [0u32; W];
            for l in 0..W {
                r[l] = f(x[l], y[l]);
            }
            store::<W>(d.add(k), r);
        }
    }
}

/// `d = f(a, b, c)` on `N` lanes. # Safety: as for [`run_op`].
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn op3<const N: usize, const W: usize>(vb: *mut u32, cb: *const u32, o: &BOp, f: impl Fn(u32, u32, u32) -> u32) {
    // SAFETY: every row is inside its file and holds `MAX_LANES >= N` lanes (the caller's promise).
    unsafe {
        let (a, b, c) = (src(vb, cb, o, 0), src(vb, cb, o, 1), src(vb, cb, o, 2));
        let d = vb.add(usize::from(o.dst) * MAX_LANES);
        for q in 0..N / W {
            let k = W * q;
            let (x, y, z) = (load::<W>(a.add(k)), load::<W>(b.add(k)), load::<W>(c.add(k)));
            let mut r = [0u32; W];
            for l in 0..W {
                r[l] = f(x[l], y[l], z[l]);
            }
            store::<W>(d.add(k), r);
        }
    }
}

/// Most distinct SGPRs a block reads (one scratch row each).
const MAX_SGPRS: usize = REG_ROWS - SCRATCH_ROW;

/// A constant operand in every lane, aligned as the register file's rows are (a 32-byte load of it never
/// spans two cache lines).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct ConstRow([u32; MAX_LANES]);

/// A compiled VALU block (see the module's documentation).
pub(crate) struct Block {
    ops: Box<[BOp]>,
    /// One row per distinct constant operand, the value in every lane.
    consts: Box<[ConstRow]>,
    /// The SGPRs (operand codes) copied into scratch rows `SCRATCH_ROW..` when the block starts.
    sgprs: Box<[u8]>,
    /// The program index of the instruction after the block's last one (set by the interpreter).
    pub(crate) next: u32,
    run: BlockFn,
    /// The block's host code (`valu_jit`), run instead of the table walker when there is some.
    jit: Option<JitCode>,
}

/// Whether blocks get host code for lane kernels `k`: only with AVX2 and FMA (the code's instructions)
/// and unless `ROCPROF_RS_SIM_JIT=off` (or `0`, `false`, `no`) asks for the table walker.
pub(super) fn jit_wanted(k: Chosen) -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let off = *OFF.get_or_init(|| {
        let v = std::env::var(rocprof_launch::names::SIM_JIT);
        matches!(v.as_deref().map(str::trim), Ok("off" | "0" | "false" | "no"))
    });
    host_code_can_run(k) && !off
}

/// Whether lane kernels `k` were chosen for a host with AVX2 and FMA (what the host code needs).
fn host_code_can_run(k: Chosen) -> bool {
    #[cfg(target_arch = "x86_64")]
    return matches!(k, Chosen::Avx2Fma | Chosen::Avx512);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = k;
        false
    }
}

/// Host code for `ops` (constant rows' values in `consts`, which grows by what the code reads).
fn jit_of(ops: &[BOp], consts: &mut Vec<u32>) -> Option<JitCode> {
    let jops: Vec<JOp> = ops
        .iter()
        .map(|o| {
            let loc = |k: usize| if o.konst >> k & 1 != 0 { Loc::C(o.row[k]) } else { Loc::V(o.row[k]) };
            JOp { kind: o.kind, src: [loc(0), loc(1), loc(2)], n: usize::from(o.n), dst: o.dst }
        })
        .collect();
    valu_jit::compile(&jops, consts)
}

/// A block's code for the program's lane kernels and lane count: `false` (nothing done) unless EXEC is
/// full. `unsafe`: compiled for the instruction-set extensions of a [`Chosen`], checked when it was made.
type BlockFn = unsafe fn(&Block, &mut Wave, &mut WaveStats) -> bool;

/// The source kind of `s` a block can read: a row, an SGPR or a constant.
fn block_src(s: Src) -> bool {
    matches!(s, Src::Row(_) | Src::Sgpr(_) | Src::Const(_))
}

/// Whether `i` can be part of a block: a plain VOP1/VOP2/VOP3 (not VOPD) instruction of an operation in
/// [`block_ops`] whose destination is a VGPR or AGPR and whose sources are rows, SGPRs or constants.
pub(crate) fn blockable(i: &Inst) -> bool {
    let Op::Valu(op) = i.op else { return false };
    let Some((_, shape)) = kind_of(op) else { return false };
    i.y.is_none()
        && i.pre.plain
        && i.dst >= VGPR0
        && i.dst - VGPR0 < ARCH_ROWS
        && i.pre.src[..shape.sources()].iter().all(|&s| block_src(s))
}

impl Block {
    /// The blocks of `seq` (consecutive instructions of one run, each [`blockable`]) for the lane kernels
    /// `k` and waves of `lanes` lanes, each with the position of its first instruction in `seq`: as long
    /// as possible, a new block when one would read more SGPRs than there are scratch rows, none shorter
    /// than two instructions. [`Block::next`] is left for the caller.
    pub(crate) fn build(seq: &[&Inst], k: Chosen, lanes: usize) -> Vec<(usize, Block)> {
        Block::build_with(seq, k, lanes, jit_wanted(k))
    }

    /// [`Block::build`], with host code for the blocks (`valu_jit`) when `jit`, the lane kernels `k` need
    /// AVX2 and FMA (so the host has them) and the code can be made; else the table walker.
    pub(crate) fn build_with(seq: &[&Inst], k: Chosen, lanes: usize, jit: bool) -> Vec<(usize, Block)> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < seq.len() {
            let mut ops = Vec::new();
            let mut consts: Vec<u32> = Vec::new();
            let mut sgprs: Vec<u8> = Vec::new();
            let mut end = start;
            while end < seq.len() {
                let i = seq[end];
                debug_assert!(blockable(i));
                let Op::Valu(op) = i.op else { break };
                let Some((kind, shape)) = kind_of(op) else { break };
                let n = shape.sources();
                let mut need = sgprs.clone();
                for s in &i.pre.src[..n] {
                    if let Src::Sgpr(c) = *s {
                        if !need.contains(&c) {
                            need.push(c);
                        }
                    }
                }
                if need.len() > MAX_SGPRS {
                    break;
                }
                sgprs = need;
                let dst = i.dst - VGPR0;
                let reads = if shape == Shape::F3Acc { 3 } else { n as u8 };
                let mut o = BOp { kind, n: reads, konst: 0, dst, row: [dst; 3] };
                for (s, src) in i.pre.src[..n].iter().enumerate() {
                    o.row[s] = match *src {
                        Src::Row(r) => r,
                        Src::Sgpr(c) => (SCRATCH_ROW + sgprs.iter().position(|&x| x == c).expect("added above")) as u16,
                        Src::Const(v) => {
                            o.konst |= 1 << s;
                            let at = consts.iter().position(|&x| x == v).unwrap_or_else(|| {
                                consts.push(v);
                                consts.len() - 1
                            });
                            at as u16
                        }
                        Src::Other(_) => unreachable!("not blockable"),
                    };
                }
                ops.push(o);
                end += 1;
            }
            if end - start >= 2 {
                let code = if jit && host_code_can_run(k) { jit_of(&ops, &mut consts) } else { None };
                let consts: Box<[ConstRow]> = consts.iter().map(|&v| ConstRow([v; MAX_LANES])).collect();
                // The rows `run_op` may rely on: register-file rows below `REG_ROWS`, constant rows inside
                // `consts`.
                assert!(ops.iter().all(|o| {
                    usize::from(o.dst) < REG_ROWS
                        && (0..3).all(|s| {
                            let r = usize::from(o.row[s]);
                            if o.konst >> s & 1 != 0 {
                                r < consts.len()
                            } else {
                                r < REG_ROWS
                            }
                        })
                }));
                out.push((
                    start,
                    Block {
                        ops: ops.into(),
                        consts,
                        sgprs: sgprs.into(),
                        next: u32::MAX,
                        run: runner(k, lanes),
                        jit: code,
                    },
                ));
            }
            start = end.max(start + 1);
        }
        out
    }

    /// The block of this one's instructions from position `p` on (the same operands and constants; host
    /// code compiled again for the shorter block when this one has some), when that is at least two
    /// instructions.
    pub(crate) fn suffix(&self, p: usize) -> Option<Block> {
        (p + 2 <= self.ops.len()).then(|| {
            let ops = &self.ops[p..];
            let (mut consts, mut jit) = (self.consts.clone(), None);
            if self.jit.is_some() {
                // The constants the suffix's sequences read are among the block's (added for its code).
                let mut values: Vec<u32> = self.consts.iter().map(|c| c.0[0]).collect();
                jit = jit_of(ops, &mut values);
                consts = values.iter().map(|&v| ConstRow([v; MAX_LANES])).collect();
            }
            Block { ops: ops.into(), consts, sgprs: self.sgprs.clone(), next: self.next, run: self.run, jit }
        })
    }

    /// Whether the block runs host code (`valu_jit`) rather than the table walker.
    #[cfg(test)]
    pub(crate) fn has_host_code(&self) -> bool {
        self.jit.is_some()
    }

    /// Instructions in the block.
    pub(crate) fn len(&self) -> u64 {
        self.ops.len() as u64
    }

    /// Runs the block on `w` when its EXEC is full (adding the active lanes to `stats`) and says so; does
    /// nothing otherwise. `w` is a wave of the program the block was built for.
    #[inline(always)]
    pub(crate) fn run(&self, w: &mut Wave, stats: &mut WaveStats) -> bool {
        // SAFETY: `self.run` was chosen by `runner` for a `Chosen`, which is only made after checking that
        // the host has the instruction-set extensions the code needs.
        #[allow(unsafe_code)]
        unsafe {
            (self.run)(self, w, stats)
        }
    }
}

/// The block code for lane kernels `k` and `lanes`-lane waves.
fn runner(k: Chosen, lanes: usize) -> BlockFn {
    let w32 = lanes == 32;
    match k {
        Chosen::Base => {
            if w32 {
                run_base::<32>
            } else {
                run_base::<MAX_LANES>
            }
        }
        #[cfg(target_arch = "x86_64")]
        Chosen::Avx2Fma => {
            if w32 {
                run_avx2::<32>
            } else {
                run_avx2::<MAX_LANES>
            }
        }
        #[cfg(target_arch = "x86_64")]
        Chosen::Avx512 => {
            if w32 {
                run_avx512::<32>
            } else {
                run_avx512::<MAX_LANES>
            }
        }
    }
}

fn run_base<const N: usize>(b: &Block, w: &mut Wave, stats: &mut WaveStats) -> bool {
    body::<Base, N, 8>(b, w, stats)
}

/// # Safety
/// The host must support AVX2, FMA and POPCNT (only chosen for [`Chosen::Avx2Fma`]).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx2,fma,popcnt")]
unsafe fn run_avx2<const N: usize>(b: &Block, w: &mut Wave, stats: &mut WaveStats) -> bool {
    body::<Avx2Fma, N, 8>(b, w, stats)
}

/// # Safety
/// The host must support AVX-512F, AVX2, FMA and POPCNT (only chosen for [`Chosen::Avx512`]).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx512f,avx2,fma,popcnt")]
unsafe fn run_avx512<const N: usize>(b: &Block, w: &mut Wave, stats: &mut WaveStats) -> bool {
    body::<Avx512, N, 16>(b, w, stats)
}

/// The block on a wave of `N` lanes, `W` lanes per step.
#[inline(always)]
fn body<K: Isa, const N: usize, const W: usize>(b: &Block, w: &mut Wave, stats: &mut WaveStats) -> bool {
    debug_assert_eq!(w.lanes, N);
    if exec_n::<N>(w) != u64::MAX >> (64 - N) {
        return false;
    }
    let mut values = [0u32; MAX_SGPRS];
    for (v, &c) in values.iter_mut().zip(b.sgprs.iter()) {
        *v = w.s[usize::from(c & 127)];
    }
    let rows = w.v.rows_mut();
    for (r, &v) in rows[SCRATCH_ROW..].iter_mut().zip(&values[..b.sgprs.len()]) {
        r[..N].fill(v);
    }
    let vb = rows.as_mut_ptr().cast::<u32>();
    let cb = b.consts.as_ptr().cast::<u32>();
    if let Some(code) = &b.jit {
        // SAFETY: code is only made for lane kernels that need AVX2 and FMA (`host_code_can_run`), chosen after
        // checking the host has them; `vb` is the wave's register file and `cb` the block's constant rows,
        // holding every row the code names (checked by `Block::build`, the code's own constants added
        // before the rows were made); `N / 8` chunks of 8 lanes are inside rows of `MAX_LANES >= N`.
        #[allow(unsafe_code)]
        unsafe {
            code.run(vb, cb, (N / 8) as u64)
        };
        stats.valu_active_lanes += (N * b.ops.len()) as u64;
        return true;
    }
    for o in b.ops.iter() {
        // SAFETY: `vb` is the wave's register file ([`REG_ROWS`] rows), `cb` the block's constant rows, and
        // `Block::build` checked that each of the block's rows is inside the one it names.
        #[allow(unsafe_code)]
        unsafe {
            run_op::<K, N, W>(vb, cb, o)
        };
    }
    stats.valu_active_lanes += (N * b.ops.len()) as u64;
    true
}

#[cfg(test)]
#[path = "valu_block_tests.rs"]
mod tests;
