//! Host code for VALU blocks (x86-64 with AVX2 and FMA): a block's operations compiled once into a loop
//! over the wave's lanes, 8 at a time, that keeps the block's rows in `ymm` registers across its
//! operations. The table walker of `valu_block` runs the operations one after the other, each over all
//! lanes, so every result goes to its row in memory and the next operation reads it back; here each
//! 8-lane chunk of a row is loaded once, stays in a register while the block's operations use it, and is
//! stored once, when its register is needed for another row or at the end of the chunk.
//!
//! Lanes are independent, so running all operations on one chunk, then on the next, gives what running
//! each operation on all lanes gives. Registers are given out over the block's straight-line code in
//! order: a source not in a register is loaded into a free one or into the one whose row is read again
//! the furthest ahead (stored first if it was written); a result goes to the register its row already
//! has, to a source register whose row is read no more, or to a new one. Written rows are stored at the
//! end of each chunk. Rows with one value in every lane (constants and the SGPRs' copies) are the same
//! in every chunk: up to four of them are loaded once, before the loop, and keep their registers.
//! `ymm13..=15` are scratch for the longer sequences.
//!
//! Each operation's instructions give what its lane function (`valu_lane.rs`) gives: integer operations
//! are the same wrapping operations, shifts mask their count to 5 bits first, float add, subtract,
//! multiply, fused multiply-add and the integer-to-float conversions are the IEEE operations with
//! round-to-nearest-even (MXCSR's default, as the Rust code runs), `v_mad` multiplies and adds with two
//! roundings, and `v_min_f32`/`v_max_f32` are [`fmin32`](super::float::fmin32)'s and
//! [`fmax32`](super::float::fmax32)'s rules written with compares and blends. Operations without such a
//! sequence here (`v_mul_hi`, the signed 24-bit multiplies, `v_bfe`, float-to-integer conversions) leave
//! their block to the table walker. `valu_block_tests` runs every operation with a sequence through the
//! host code against the instructions' handlers; `valu_jit_tests` runs long random blocks through both.

use super::valu_kind::Kind;
use super::x86::{cmp, Asm, Base, Code, Rm, Ymm, V3};
use crate::wave::{MAX_LANES, SCRATCH_ROW};

/// Bytes from one lane-row to the next (register file and constant rows alike).
const ROW_BYTES: i32 = (MAX_LANES * 4) as i32;
/// Registers given to rows; the rest are scratch.
const ROWS_IN_REGS: usize = 13;
/// Most registers holding rows loaded once for all chunks (see [`invariant`]).
const HOISTED: usize = 4;
const T1: Ymm = 13;
const T2: Ymm = 14;
const T3: Ymm = 15;

/// Where an operand's lanes live: a row of the register file (`rdi`) or of the block's constants (`rsi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Loc {
    V(u16),
    C(u16),
}

impl Loc {
    fn mem(self) -> Rm {
        match self {
            Loc::V(r) => Rm::M(Base::Rdi, i32::from(r) * ROW_BYTES),
            Loc::C(c) => Rm::M(Base::Rsi, i32::from(c) * ROW_BYTES),
        }
    }
}

/// Whether `l` holds one value in every lane: a constant row or an SGPR's copy (scratch rows, which no
/// block instruction writes).
fn invariant(l: Loc) -> bool {
    match l {
        Loc::C(_) => true,
        Loc::V(r) => usize::from(r) >= SCRATCH_ROW,
    }
}

/// One operation of a block as the compiler sees it: `n` sources in `src`, the destination row `dst`.
#[derive(Clone, Copy, Debug)]
pub(super) struct JOp {
    pub(super) kind: Kind,
    pub(super) src: [Loc; 3],
    pub(super) n: usize,
    pub(super) dst: u16,
}

/// Compiled block code: `f(file, consts, chunks)` runs the block on `chunks` 8-lane chunks of the rows of
/// the register file at `file` and of the constant rows at `consts`.
pub(super) struct JitCode {
    code: Code,
}

/// The signature of the generated code.
type Entry = unsafe extern "sysv64" fn(*mut u32, *const u32, u64);

impl JitCode {
    /// Runs the code on the first `chunks` 8-lane chunks of every row.
    ///
    /// # Safety
    /// The host has AVX2 and FMA; `file` and `consts` point to row files holding every row the block's
    /// operations name (rows of [`MAX_LANES`] lanes); `1 <= chunks <= MAX_LANES / 8` (the loop tests its
    /// count after a chunk: 0 would run 2^32 chunks).
    #[allow(unsafe_code)]
    pub(super) unsafe fn run(&self, file: *mut u32, consts: *const u32, chunks: u64) {
        debug_assert!((1..=(MAX_LANES / 8) as u64).contains(&chunks));
        // SAFETY: `code` holds a function of this signature, written by `compile` (System V ABI: it uses
        // only the argument registers, `rax`-free, and `ymm0..15`, all caller-saved, and ends with
        // `vzeroupper; ret`).
        unsafe {
            let f: Entry = std::mem::transmute::<*const u8, Entry>(self.code.entry());
            f(file, consts, chunks)
        }
    }
}

/// The constant row holding `v` in `consts` (added when missing).
fn konst(consts: &mut Vec<u32>, v: u32) -> Loc {
    let at = consts.iter().position(|&x| x == v).unwrap_or_else(|| {
        consts.push(v);
        consts.len() - 1
    });
    Loc::C(at as u16)
}

/// The extra constant operands `kind`'s sequence reads (after its own sources), `None` when there is no
/// sequence for `kind`.
pub(super) fn extra_consts(kind: Kind) -> Option<&'static [u32]> {
    use Kind::*;
    Some(match kind {
        MovB32 | AddU32 | SubU32 | SubrevU32 | AddI32 | SubI32 | MulLoU32 | MinU32 | MaxU32 | MinI32 | MaxI32
        | AndB32 | OrB32 | XorB32 | Add3U32 | AndOrB32 | Or3B32 | Xor3B32 | XadU32 | BfiB32 | Min3U32 | Max3U32
        | Min3I32 | Max3I32 | AddF32 | SubF32 | SubrevF32 | MulF32 | FmaF32 | FmacF32 | MadF32 | MacF32 | CvtF32I32 => {
            &[]
        }
        NotB32 | XnorB32 => &[u32::MAX],
        LshlrevB32 | LshrrevB32 | AshrrevI32 | LshlAddU32 | AddLshlU32 | LshlOrB32 => &[31],
        MulU32U24 | MadU32U24 => &[0xff_ffff],
        MinF32 | MaxF32 => &[0x40_0000],
        // 65536.0.
        CvtF32U32 => &[0xffff, 0x4780_0000],
        MulHiU32 | MulHiI32 | MulI32I24 | MadI32I24 | BfeU32 | BfeI32 | CvtI32F32 | CvtU32F32 => return None,
    })
}

/// Writes `kind`'s instructions: sources in `s` (the operation's, then its [`extra_consts`]), result to
/// `d`, which may be one of the source registers: `d` is written by the last instruction only, after
/// every source has been read (or, for the FMA, first when it is no source).
fn emit(a: &mut Asm, kind: Kind, d: Ymm, s: &[Ymm]) {
    use Kind::*;
    let v3 = |a: &mut Asm, op, x, y| a.v3(op, d, x, y);
    match kind {
        MovB32 => a.mov(d, s[0]),
        NotB32 => v3(a, V3::Pxor, s[0], s[1]),
        AddU32 | AddI32 => v3(a, V3::Paddd, s[0], s[1]),
        SubU32 | SubI32 => v3(a, V3::Psubd, s[0], s[1]),
        SubrevU32 => v3(a, V3::Psubd, s[1], s[0]),
        MulLoU32 => v3(a, V3::Pmulld, s[0], s[1]),
        MinU32 => v3(a, V3::Pminud, s[0], s[1]),
        MaxU32 => v3(a, V3::Pmaxud, s[0], s[1]),
        MinI32 => v3(a, V3::Pminsd, s[0], s[1]),
        MaxI32 => v3(a, V3::Pmaxsd, s[0], s[1]),
        AndB32 => v3(a, V3::Pand, s[0], s[1]),
        OrB32 => v3(a, V3::Por, s[0], s[1]),
        XorB32 => v3(a, V3::Pxor, s[0], s[1]),
        XnorB32 => {
            a.v3(V3::Pxor, T1, s[0], s[1]);
            v3(a, V3::Pxor, T1, s[2]);
        }
        // `b << (a & 31)` and the right shifts: the count is source 0.
        LshlrevB32 | LshrrevB32 | AshrrevI32 => {
            a.v3(V3::Pand, T1, s[0], s[2]);
            let op = match kind {
                LshlrevB32 => V3::Psllvd,
                LshrrevB32 => V3::Psrlvd,
                _ => V3::Psravd,
            };
            v3(a, op, s[1], T1);
        }
        Add3U32 => {
            a.v3(V3::Paddd, T1, s[0], s[1]);
            v3(a, V3::Paddd, T1, s[2]);
        }
        // `(a << (b & 31)) + c` / `| c`.
        LshlAddU32 | LshlOrB32 => {
            a.v3(V3::Pand, T1, s[1], s[3]);
            a.v3(V3::Psllvd, T1, s[0], T1);
            v3(a, if kind == LshlAddU32 { V3::Paddd } else { V3::Por }, T1, s[2]);
        }
        // `(a + b) << (c & 31)`.
        AddLshlU32 => {
            a.v3(V3::Paddd, T1, s[0], s[1]);
            a.v3(V3::Pand, T2, s[2], s[3]);
            v3(a, V3::Psllvd, T1, T2);
        }
        AndOrB32 => {
            a.v3(V3::Pand, T1, s[0], s[1]);
            v3(a, V3::Por, T1, s[2]);
        }
        Or3B32 => {
            a.v3(V3::Por, T1, s[0], s[1]);
            v3(a, V3::Por, T1, s[2]);
        }
        Xor3B32 => {
            a.v3(V3::Pxor, T1, s[0], s[1]);
            v3(a, V3::Pxor, T1, s[2]);
        }
        XadU32 => {
            a.v3(V3::Pxor, T1, s[0], s[1]);
            v3(a, V3::Paddd, T1, s[2]);
        }
        // `(a & b) | (!a & c)`.
        BfiB32 => {
            a.v3(V3::Pand, T1, s[0], s[1]);
            a.v3(V3::Pandn, T2, s[0], s[2]);
            v3(a, V3::Por, T1, T2);
        }
        MulU32U24 | MadU32U24 => {
            a.v3(V3::Pand, T1, s[0], s[s.len() - 1]);
            a.v3(V3::Pand, T2, s[1], s[s.len() - 1]);
            if kind == MulU32U24 {
                v3(a, V3::Pmulld, T1, T2);
            } else {
                a.v3(V3::Pmulld, T1, T1, T2);
                v3(a, V3::Paddd, T1, s[2]);
            }
        }
        Min3U32 | Max3U32 | Min3I32 | Max3I32 => {
            let op = match kind {
                Min3U32 => V3::Pminud,
                Max3U32 => V3::Pmaxud,
                Min3I32 => V3::Pminsd,
                _ => V3::Pmaxsd,
            };
            a.v3(op, T1, s[0], s[1]);
            v3(a, op, T1, s[2]);
        }
        AddF32 => v3(a, V3::Addps, s[0], s[1]),
        SubF32 => v3(a, V3::Subps, s[0], s[1]),
        SubrevF32 => v3(a, V3::Subps, s[1], s[0]),
        MulF32 => v3(a, V3::Mulps, s[0], s[1]),
        // `a * b + c`, one rounding (`v_fmac`'s third source is its destination's row).
        // `vfmadd231` with the addend in the result's register: a NaN result carries the payload of the
        // first NaN among `c`, `a`, `b` in every form below, as the table walker's code gives it (a payload
        // flows on into integer operations, so the two must agree, not only both be NaNs).
        FmaF32 | FmacF32 => {
            if d == s[2] {
                a.fmadd231(d, s[0], s[1]);
            } else if d != s[0] && d != s[1] {
                // `d` is no source, so writing it first reads nothing too late.
                a.mov(d, s[2]);
                a.fmadd231(d, s[0], s[1]);
            } else {
                a.mov(T1, s[2]);
                a.fmadd231(T1, s[0], s[1]);
                a.mov(d, T1);
            }
        }
        MadF32 | MacF32 => {
            a.v3(V3::Mulps, T1, s[0], s[1]);
            v3(a, V3::Addps, T1, s[2]);
        }
        // `fmin32`/`fmax32`: a NaN `a` gives `b` (quieted when a NaN), a NaN `b` gives `a`, else the
        // smaller (larger) with -0 below +0.
        MinF32 | MaxF32 => {
            let (x, y, quiet) = (s[0], s[1], s[2]);
            if kind == MinF32 {
                a.cmpps(T1, x, y, cmp::LT_OQ);
                a.cmpps(T2, x, y, cmp::EQ_OQ);
                // Equal and `x` negative (the sign bit is what the blend reads).
                a.v3(V3::Andps, T2, T2, x);
            } else {
                a.cmpps(T1, x, y, cmp::GT_OQ);
                a.cmpps(T2, x, y, cmp::EQ_OQ);
                // Equal and `x` not negative.
                a.v3(V3::Andnps, T2, x, T2);
            }
            a.v3(V3::Orps, T1, T1, T2);
            a.blendvps(T1, y, x, T1);
            a.cmpps(T2, y, y, cmp::UNORD_Q);
            a.blendvps(T1, T1, x, T2);
            a.cmpps(T3, x, x, cmp::UNORD_Q);
            a.v3(V3::Andps, T2, T2, quiet);
            a.v3(V3::Orps, T2, T2, y);
            a.blendvps(d, T1, T2, T3);
        }
        CvtF32I32 => a.cvtdq2ps(d, s[0]),
        // `hi * 65536 + lo` with both halves exact as floats: one rounding, as `u32 as f32`.
        CvtF32U32 => {
            a.psrld(T1, s[0], 16);
            a.cvtdq2ps(T1, T1);
            a.v3(V3::Pand, T2, s[0], s[1]);
            a.cvtdq2ps(T2, T2);
            a.fmadd231(T2, T1, s[2]);
            a.mov(d, T2);
        }
        MulHiU32 | MulHiI32 | MulI32I24 | MadI32I24 | BfeU32 | BfeI32 | CvtI32F32 | CvtU32F32 => {
            unreachable!("no sequence (extra_consts says None)")
        }
    }
}

/// An operation with all its sources (its own, then the constants its sequence reads).
struct Full {
    kind: Kind,
    src: Vec<Loc>,
    dst: Loc,
}

/// Register state while compiling one chunk's code.
#[derive(Clone, Copy, Default)]
struct Slot {
    loc: Option<Loc>,
    dirty: bool,
}

/// What happens next to `l` after operation `i`: read (at that operation), or overwritten first, or
/// nothing until the block's end.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Next {
    Read(usize),
    /// Written before any read: its current value is dead (no store needed).
    Dead,
    /// Neither read nor written again: its value is final (stored when written).
    End,
}

/// Per location, the operations that read or write it, in order: `(index, read)` (an operation that reads
/// and writes a row counts as a read), so [`Uses::next`] is a binary search, not a scan of the block.
struct Uses(std::collections::HashMap<Loc, Vec<(usize, bool)>>);

impl Uses {
    fn of(ops: &[Full]) -> Uses {
        let mut m: std::collections::HashMap<Loc, Vec<(usize, bool)>> = std::collections::HashMap::new();
        for (j, o) in ops.iter().enumerate() {
            for &l in &o.src {
                let v = m.entry(l).or_default();
                if v.last() != Some(&(j, true)) {
                    v.push((j, true));
                }
            }
            let v = m.entry(o.dst).or_default();
            if v.last().is_none_or(|e| e.0 != j) {
                v.push((j, false));
            }
        }
        Uses(m)
    }

    /// What happens next to `l` after operation `i`.
    fn next(&self, l: Loc, i: usize) -> Next {
        let Some(v) = self.0.get(&l) else { return Next::End };
        match v.get(v.partition_point(|e| e.0 <= i)) {
            Some(&(j, true)) => Next::Read(j),
            Some(&(_, false)) => Next::Dead,
            None => Next::End,
        }
    }
}

/// Compiles `ops` (a block's operations, constant operands in `consts`, which may grow by the constants
/// the sequences need). `None` when an operation has no sequence here.
pub(super) fn compile(ops: &[JOp], consts: &mut Vec<u32>) -> Option<JitCode> {
    let mut full = Vec::with_capacity(ops.len());
    for o in ops {
        let extra = extra_consts(o.kind)?;
        let mut src = o.src[..o.n].to_vec();
        src.extend(extra.iter().map(|&v| konst(consts, v)));
        full.push(Full { kind: o.kind, src, dst: Loc::V(o.dst) });
    }
    let uses = Uses::of(&full);
    let mut a = Asm::default();
    let mut regs = [Slot::default(); ROWS_IN_REGS];
    // Rows with one value in every lane (constants, SGPR copies) are the same in every chunk: the most
    // read ones (up to HOISTED) are loaded once, before the loop, into the top registers and stay there.
    let mut reads: Vec<(Loc, usize)> = Vec::new();
    for l in full.iter().flat_map(|o| o.src.iter().copied()).filter(|&l| invariant(l)) {
        match reads.iter_mut().find(|u| u.0 == l) {
            Some(u) => u.1 += 1,
            None => reads.push((l, 1)),
        }
    }
    reads.sort_by_key(|u| std::cmp::Reverse(u.1));
    let pool = ROWS_IN_REGS - reads.len().min(HOISTED);
    for (k, &(l, _)) in reads.iter().take(HOISTED).enumerate() {
        a.load((pool + k) as Ymm, l.mem());
        regs[pool + k] = Slot { loc: Some(l), dirty: false };
    }
    let top = a.bytes.len();
    let find = |regs: &[Slot; ROWS_IN_REGS], l: Loc| regs.iter().position(|s| s.loc == Some(l));
    for (i, o) in full.iter().enumerate() {
        // Sources into registers, pinned for this operation (those already in one first, so loading the
        // others never evicts them).
        let mut pinned = [false; ROWS_IN_REGS];
        for &l in &o.src {
            if let Some(r) = find(&regs, l) {
                pinned[r] = true;
            }
        }
        let mut sregs = Vec::with_capacity(o.src.len());
        for &l in &o.src {
            let r = match find(&regs, l) {
                Some(r) => r,
                None => {
                    let r = victim(&uses, &regs, &pinned, pool, i);
                    spill(&mut a, &mut regs, r, &uses, i);
                    a.load(r as Ymm, l.mem());
                    regs[r] = Slot { loc: Some(l), dirty: false };
                    r
                }
            };
            pinned[r] = true;
            sregs.push(r as Ymm);
        }
        // The result's register: the destination row's own, else a source register whose row is not read
        // again, else a free or evicted one.
        let d = match find(&regs, o.dst) {
            Some(r) => r,
            None => {
                let read_again = |r: usize| {
                    let l = regs[r].loc.expect("a source");
                    matches!(uses.next(l, i), Next::Read(_))
                };
                // (Never a hoisted register: the next chunk reads it again.)
                let reuse = sregs.iter().map(|&r| usize::from(r)).find(|&r| r < pool && !read_again(r));
                let r = reuse.unwrap_or_else(|| victim(&uses, &regs, &pinned, pool, i));
                spill(&mut a, &mut regs, r, &uses, i);
                r
            }
        };
        emit(&mut a, o.kind, d as Ymm, &sregs);
        regs[d] = Slot { loc: Some(o.dst), dirty: true };
    }
    for (r, s) in regs.iter().enumerate() {
        if let (Some(l), true) = (s.loc, s.dirty) {
            a.store(l.mem(), r as Ymm);
        }
    }
    a.add_ptr(Base::Rdi, 32);
    a.add_ptr(Base::Rsi, 32);
    a.dec_edx();
    a.jnz(top);
    a.vzeroupper_ret();
    Code::new(&a.bytes).map(|code| JitCode { code })
}

/// Stores register `r`'s row when it was written and its value is still wanted after operation `i` (read later or
/// final), and frees it.
fn spill(a: &mut Asm, regs: &mut [Slot; ROWS_IN_REGS], r: usize, uses: &Uses, i: usize) {
    if let (Some(l), true) = (regs[r].loc, regs[r].dirty) {
        if uses.next(l, i) != Next::Dead {
            // Never a constant: only destinations are dirty.
            a.store(l.mem(), r as Ymm);
        }
    }
    regs[r] = Slot::default();
}

/// The register to give a new row at operation `i` among the first `pool`: a free one, else the unpinned one whose row is read
/// again the furthest ahead (dead or final rows first).
fn victim(uses: &Uses, regs: &[Slot; ROWS_IN_REGS], pinned: &[bool; ROWS_IN_REGS], pool: usize, i: usize) -> usize {
    if let Some(r) = (0..pool).find(|&r| regs[r].loc.is_none()) {
        return r;
    }
    (0..pool)
        .filter(|&r| !pinned[r])
        .max_by_key(|&r| {
            let l = regs[r].loc.expect("not free");
            match uses.next(l, i) {
                Next::Read(j) => (0, j),
                // Dead rows cost nothing; final ones a store.
                Next::Dead => (2, 0),
                Next::End => (1, 0),
            }
        })
        .expect("at most 4 sources pinned of at least 9 registers")
}

#[cfg(test)]
#[path = "valu_jit_tests.rs"]
mod tests;
