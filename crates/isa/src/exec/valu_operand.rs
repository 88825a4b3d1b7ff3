//! The operand plumbing the VALU semantics in `valu.rs` share: lane arrays, output modifiers, the fast
//! paths' source operands (as resolved at decode or read from the operand codes), exec-masked row writes
//! and the register file seen as rows.

use crate::decode::{Inst, VGPR0};
use crate::pre::{Src, ARCH_ROWS};
use crate::wave::{Lanes32, Lanes64, Ty, Wave, MAX_LANES, REG_ROWS, SCRATCH_ROW};

pub(super) type L32 = Lanes32;
pub(super) type L64 = Lanes64;

#[inline]
pub(super) fn z32() -> L32 {
    [0; MAX_LANES]
}

#[inline]
pub(super) fn z64() -> L64 {
    [0; MAX_LANES]
}

/// The VOP3 output modifier, one rule for f32 and f64 results: `omod` scales by 2, 4 or 0.5, then
/// `clamp` limits the value to [0, 1] (a NaN becomes 0).
macro_rules! out_mod {
    ($name:ident, $t:ty) => {
        #[inline(always)]
        pub(super) fn $name(i: &Inst, v: $t) -> $t {
            let v = match i.mods.omod {
                1 => v * 2.0,
                2 => v * 4.0,
                3 => v * 0.5,
                _ => v,
            };
            if i.mods.clamp {
                if v.is_nan() {
                    0.0
                } else {
                    v.clamp(0.0, 1.0)
                }
            } else {
                v
            }
        }
    };
}

out_mod!(out_mod32, f32);
out_mod!(out_mod64, f64);

/// A source operand of the fast paths: a VGPR row (offset into the register file) or one value for all
/// lanes.
#[derive(Clone, Copy)]
pub(super) enum Opnd {
    Row(usize),
    Imm(u32),
}

#[inline(always)]
pub(super) fn opnd(w: &Wave, code: u16, lit: u32, ty: Ty) -> Opnd {
    if code >= VGPR0 {
        Opnd::Row((code - VGPR0) as usize * MAX_LANES)
    } else {
        Opnd::Imm(w.s32(code, lit, ty))
    }
}

/// The fast path applies: no SDWA/DPP, no input or output modifiers.
#[inline(always)]
pub(super) fn plain(i: &Inst) -> bool {
    matches!(i.extra, crate::decode::Extra::None)
        && i.mods.abs == 0
        && i.mods.neg == 0
        && i.mods.omod == 0
        && !i.mods.clamp
}

/// The fast path applies. `M` is the handler's form: 0, the instruction may have modifiers and the wave
/// either lane count (checked when it runs); 32 or 64, the handler was chosen at decode for a plain
/// instruction ([`crate::pre::Pre::plain`]) of a program whose waves have `M` lanes (plus [`WIDE`] for
/// 16-lane steps).
#[inline(always)]
pub(super) fn plain_m<const M: usize>(i: &Inst) -> bool {
    M != 0 || plain(i)
}

/// Added to a handler form `M` (32 or 64 lanes): the full-EXEC loops take 16 lanes per step (AVX-512
/// handlers) instead of 8.
pub(super) const WIDE: usize = 1 << 8;

/// Added to a handler form `M` (32 or 64 lanes): every source of the instruction is a VGPR row
/// ([`crate::pre::Pre::rows`], checked when the handler was chosen), so the sources are taken from
/// [`crate::pre::Pre::row`] with no operand-kind branch and the full-EXEC loops address every chunk at a
/// constant offset.
pub(super) const ROWS: usize = 1 << 9;

/// Added to a handler form `M` (32 or 64 lanes): source 0 is an SGPR or a constant and every other source
/// is a VGPR row ([`crate::pre::Form::Scalar0`], checked when the handler was chosen), so source 0 is read
/// as one value with no row case and the others as in [`ROWS`].
pub(super) const SCALAR0: usize = 1 << 10;

/// The lane count of handler form `M` (0 when it is decided at run time).
#[inline(always)]
pub(super) const fn lanes_of(m: usize) -> usize {
    m & !(WIDE | ROWS | SCALAR0)
}

/// Row `r` of the register file, for an index bounded at decode ([`crate::pre::ARCH_ROWS`]: a
/// [`Src::Row`] or the destination of a [`ROWS`]/[`SCALAR0`] form). The index stays checked against the
/// register file's (constant) row count: masking it with `ARCH_ROWS - 1` removed the check, but then LLVM
/// hoisted the partial-EXEC path's loads above the EXEC test in the wave32 handlers (15 scalar loads on
/// every full-EXEC call; gfx1030's valu loop lost ~10%). Taking the partial path out of line is the way to
/// drop the check (see the notes of speed11).
#[inline(always)]
pub(super) const fn ix(r: usize) -> usize {
    const { assert!(ARCH_ROWS as usize <= REG_ROWS) };
    r
}

/// The destination row of `i` in handler form `M`: from [`crate::pre::Pre::dst`] (bounded at decode) in the
/// [`ROWS`] and [`SCALAR0`] forms, else from the operand code.
#[inline(always)]
pub(super) fn dst_row<const M: usize>(i: &Inst) -> usize {
    if M & (ROWS | SCALAR0) != 0 {
        ix(usize::from(i.pre.dst))
    } else {
        usize::from(i.dst - VGPR0)
    }
}

/// EXEC of a wave of `N` lanes (32 or 64, the wave's lane count): no branch on the wave's lane count.
#[inline(always)]
pub(super) fn exec_n<const N: usize>(w: &Wave) -> u64 {
    let lo = u64::from(w.s[crate::decode::EXEC_LO as usize]);
    if N == 32 {
        lo
    } else {
        lo | u64::from(w.s[crate::decode::EXEC_HI as usize]) << 32
    }
}

/// EXEC of a wave in a handler of form `M` (the lane count a constant when `M` is not 0).
#[inline(always)]
pub(super) fn exec_m<const M: usize>(w: &Wave) -> u64 {
    match lanes_of(M) {
        32 => exec_n::<32>(w),
        MAX_LANES => exec_n::<MAX_LANES>(w),
        _ => w.exec(),
    }
}

/// Source `k` of `i` for the fast paths: from the operand codes (`M` = 0), or as resolved at decode.
#[inline(always)]
pub(super) fn opnd_m<const M: usize>(w: &Wave, i: &Inst, k: usize, ty: Ty) -> Opnd {
    if M == 0 {
        return opnd(w, i.src[k], i.lit, ty);
    }
    if M & ROWS != 0 || (M & SCALAR0 != 0 && k != 0) {
        return Opnd::Row(usize::from(i.pre.row[k]) * MAX_LANES);
    }
    if M & SCALAR0 != 0 {
        return Opnd::Imm(match i.pre.src[0] {
            Src::Sgpr(c) => w.s[usize::from(c & 127)],
            Src::Const(v) => v,
            // Not chosen for this form (`Form::Scalar0`); read as the operand code says.
            _ => w.s32(i.src[0], i.lit, ty),
        });
    }
    match i.pre.src[k] {
        Src::Row(r) => Opnd::Row(usize::from(r) * MAX_LANES),
        Src::Sgpr(c) => Opnd::Imm(w.s[usize::from(c & 127)]),
        Src::Const(v) => Opnd::Imm(v),
        Src::Other(c) => Opnd::Imm(w.s32(c, i.lit, ty)),
    }
}

/// Writes the `N` computed lanes (the wave's) to VGPR `dst` under EXEC.
#[inline(always)]
pub(super) fn put<const N: usize>(w: &mut Wave, dst: u16, d: &[u32; N]) {
    let exec = exec_n::<N>(w);
    let full = exec == u64::MAX >> (64 - N);
    let off = (dst - VGPR0) as usize * MAX_LANES;
    let row: &mut [u32; N] = (&mut w.v[off..off + N]).try_into().expect("a row");
    if full {
        *row = *d;
    } else {
        for l in 0..N {
            if exec >> l & 1 != 0 {
                row[l] = d[l];
            }
        }
    }
}

#[inline(always)]
pub(super) fn row<const N: usize>(v: &[u32], off: usize) -> &[u32; N] {
    (&v[off..off + N]).try_into().expect("a row")
}

/// The row the full-EXEC path reads operand `o` from: a VGPR's own row, or scratch row `k` filled with
/// the constant over the wave's `N` lanes.
#[inline(always)]
pub(super) fn row_of<const N: usize>(rows: &mut [[u32; MAX_LANES]], o: Opnd, k: usize) -> usize {
    match o {
        Opnd::Row(off) => ix(off / MAX_LANES),
        Opnd::Imm(x) => {
            rows[SCRATCH_ROW + k][..N].fill(x);
            SCRATCH_ROW + k
        }
    }
}

/// An operand of the full-EXEC paths, read `W` lanes (one host vector register: 8 for AVX2, 16 for
/// AVX-512) at a time: lanes `k & mask ..` of `row`. A VGPR is its own row (`mask` keeps every chunk); a
/// constant is broadcast into the first `W` lanes of scratch row `k` once and read there for every chunk
/// (`mask` 0): one vector store instead of filling a whole row, and still one loop body for every mix of
/// rows and constants. In a form where the operand's kind is known when the handler is compiled
/// ([`SCALAR0`]: `splat`), a constant is taken from `imm` as a register instead (no store, no reloads).
#[derive(Clone, Copy)]
pub(super) struct SrcW {
    row: usize,
    mask: usize,
    imm: u32,
}

/// Operand `o` (the `k`-th source) as a [`SrcW`] read `W` lanes at a time; `splat`: the handler's form
/// knows each operand's kind ([`SCALAR0`]), so a constant is not stored into a scratch row.
#[inline(always)]
pub(super) fn srcw<const W: usize>(rows: &mut [[u32; MAX_LANES]], o: Opnd, k: usize, splat: bool) -> SrcW {
    match o {
        Opnd::Row(off) => SrcW { row: ix(off / MAX_LANES), mask: MAX_LANES - W, imm: 0 },
        Opnd::Imm(x) => {
            if !splat {
                rows[SCRATCH_ROW + k][..W].fill(x);
            }
            SrcW { row: SCRATCH_ROW + k, mask: 0, imm: x }
        }
    }
}

/// Lanes `k..k + W` of operand `s` (`k` a multiple of `W`); `splat` as given to [`srcw`].
#[inline(always)]
pub(super) fn chunkw<const W: usize>(rows: &[[u32; MAX_LANES]], s: SrcW, k: usize, splat: bool) -> [u32; W] {
    if splat && s.mask == 0 {
        return [s.imm; W];
    }
    let at = k & s.mask & (MAX_LANES - W);
    rows[s.row][at..at + W].try_into().expect("W lanes")
}

/// The register file as rows.
#[inline(always)]
pub(super) fn rows_mut(w: &mut Wave) -> &mut [[u32; MAX_LANES]; REG_ROWS] {
    w.v.rows_mut()
}

/// Lanes `k..k + W` of row `r`.
#[inline(always)]
pub(super) fn chunk<const W: usize>(rows: &[[u32; MAX_LANES]], r: usize, k: usize) -> [u32; W] {
    rows[r][k..k + W].try_into().expect("W lanes")
}
