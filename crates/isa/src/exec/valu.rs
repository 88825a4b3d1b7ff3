//! Vector ALU semantics (VOP1, VOP2, VOP3, VOP3b, VOPD halves; packed VOP3P ops are in `packed.rs`).
//!
//! Every operation reads its sources for all lanes into arrays (SGPRs and constants broadcast, SDWA/DPP
//! and abs/neg applied), computes per lane and writes the active lanes back, so the per-lane loops stay
//! simple enough for the compiler to vectorise. Float results get the output modifier and clamp.

use super::float::*;
#[cfg(target_arch = "x86_64")]
use super::lanes::Avx2Fma;
use super::lanes::{Base, Chosen, Isa};
use super::valu_bits::{i24, med3, perm_byte};
use super::valu_f64::fast64;
use super::valu_lane as lane;
use super::valu_operand::*;
use super::{Ctx, Flow, Go, Handler, Stop};
use crate::decode::{Inst, NONE, VGPR0};
use crate::op::VOp;
use crate::wave::{Ty, Wave, MAX_LANES};

// The full-EXEC paths below compute straight into the destination row, `W` lanes (8, or 16 in the AVX-512
// handlers) at a time: the chunk's sources are read before its lanes are written and lanes are independent,
// so a destination that is also a source is safe. Chunks of one host vector register (8 lanes for AVX2, 16
// for AVX-512) with every operand a row keep one loop body the compiler turns into vector code for 32 and
// 64 lanes alike (a 32-trip lane loop is unrolled before the loop
// vectoriser runs, and the SLP vectoriser then left it scalar: `perf` showed gfx1030's FMAs as `vfmadd..ss`).

/// Keeps the lanes of chunk `d` (lanes `k..k + W`) that `exec` leaves inactive as they were in row `o`
/// (`MASKED`; nothing under a full EXEC). A select per lane, so the masked loops stay vector code.
#[inline(always)]
fn keep<const W: usize, const MASKED: bool>(
    rows: &[[u32; MAX_LANES]],
    o: usize,
    k: usize,
    exec: u64,
    d: &mut [u32; W],
) {
    if MASKED {
        let old = chunk::<W>(rows, o, k);
        for l in 0..W {
            if exec >> (k + l) & 1 == 0 {
                d[l] = old[l];
            }
        }
    }
}

/// `d = f(a)` on the lanes of `exec` (all `N` unless `MASKED`).
#[inline(always)]
fn full1<const M: usize, const N: usize, const W: usize, const MASKED: bool>(
    w: &mut Wave,
    o: usize,
    a: Opnd,
    exec: u64,
    f: &impl Fn(u32) -> u32,
) {
    let rows = rows_mut(w);
    let splat = M & SCALAR0 != 0;
    let a = srcw::<W>(rows, a, 0, splat);
    let _ = &rows[o];
    for c in 0..N / W {
        let k = W * c;
        let x = chunkw::<W>(rows, a, k, splat);
        let mut d = [0u32; W];
        for l in 0..W {
            d[l] = f(x[l]);
        }
        keep::<W, MASKED>(rows, o, k, exec, &mut d);
        rows[o][k..k + W].copy_from_slice(&d);
    }
}

/// `d = f(a, b)` on the lanes of `exec` (all `N` unless `MASKED`).
#[inline(always)]
fn full2<const M: usize, const N: usize, const W: usize, const MASKED: bool>(
    w: &mut Wave,
    o: usize,
    (a, b): (Opnd, Opnd),
    exec: u64,
    f: &impl Fn(u32, u32) -> u32,
) {
    let rows = rows_mut(w);
    let splat = M & SCALAR0 != 0;
    let (a, b) = (srcw::<W>(rows, a, 0, splat), srcw::<W>(rows, b, 1, splat));
    let _ = &rows[o];
    for c in 0..N / W {
        let k = W * c;
        let (x, y) = (chunkw::<W>(rows, a, k, splat), chunkw::<W>(rows, b, k, splat));
        let mut d = [0u32; W];
        for l in 0..W {
            d[l] = f(x[l], y[l]);
        }
        keep::<W, MASKED>(rows, o, k, exec, &mut d);
        rows[o][k..k + W].copy_from_slice(&d);
    }
}

/// `d = f(a, b, c)` on the lanes of `exec` (all `N` unless `MASKED`).
#[inline(always)]
fn full3<const M: usize, const N: usize, const W: usize, const MASKED: bool>(
    w: &mut Wave,
    o: usize,
    (a, b, c): (Opnd, Opnd, Opnd),
    exec: u64,
    f: &impl Fn(u32, u32, u32) -> u32,
) {
    let rows = rows_mut(w);
    let splat = M & SCALAR0 != 0;
    let (a, b, c) = (srcw::<W>(rows, a, 0, splat), srcw::<W>(rows, b, 1, splat), srcw::<W>(rows, c, 2, splat));
    let _ = &rows[o];
    for q in 0..N / W {
        let k = W * q;
        let (x, y, z) =
            (chunkw::<W>(rows, a, k, splat), chunkw::<W>(rows, b, k, splat), chunkw::<W>(rows, c, k, splat));
        let mut d = [0u32; W];
        for l in 0..W {
            d[l] = f(x[l], y[l], z[l]);
        }
        keep::<W, MASKED>(rows, o, k, exec, &mut d);
        rows[o][k..k + W].copy_from_slice(&d);
    }
}

/// Runs `$body` with `N` the wave's lane count as a constant (32 or 64), so the per-lane loops of the fast
/// paths have a fixed trip count and a wave32 computes 32 lanes, not 64, and `W` the lanes of one step of
/// the full-EXEC loops (16 when `M` has [`WIDE`], else 8). With `M` non-zero the lane count is
/// `lanes_of(M)`, known when the handler was chosen.
macro_rules! by_lanes {
    ($m:ident, $w:expr, $name:ident, $($arg:expr),*) => {
        if lanes_of($m) == 32 {
            if $m & WIDE != 0 {
                $name::<$m, 32, 16>($w, $($arg),*)
            } else {
                $name::<$m, 32, 8>($w, $($arg),*)
            }
        } else if lanes_of($m) == MAX_LANES {
            if $m & WIDE != 0 {
                $name::<$m, MAX_LANES, 16>($w, $($arg),*)
            } else {
                $name::<$m, MAX_LANES, 8>($w, $($arg),*)
            }
        } else if $w.lanes == 32 {
            $name::<$m, 32, 8>($w, $($arg),*)
        } else {
            $name::<$m, MAX_LANES, 8>($w, $($arg),*)
        }
    };
}

/// `d = f(a)` over all lanes.
#[inline(always)]
fn fast1<const M: usize>(w: &mut Wave, i: &Inst, ty: Ty, f: impl Fn(u32) -> u32) {
    by_lanes!(M, w, fast1n, i, ty, &f)
}

#[inline(always)]
fn fast1n<const M: usize, const N: usize, const W: usize>(w: &mut Wave, i: &Inst, ty: Ty, f: &impl Fn(u32) -> u32) {
    let a = opnd_m::<M>(w, i, 0, ty);
    let exec = exec_n::<N>(w);
    if exec == u64::MAX >> (64 - N) {
        full1::<M, N, W, false>(w, dst_row::<M>(i), a, exec, f)
    } else {
        full1::<M, N, W, true>(w, dst_row::<M>(i), a, exec, f)
    }
}

/// `d = f(a, b)` over all lanes.
#[inline(always)]
fn fast2<const M: usize>(w: &mut Wave, i: &Inst, ty: Ty, f: impl Fn(u32, u32) -> u32) {
    by_lanes!(M, w, fast2n, i, ty, &f)
}

#[inline(always)]
fn fast2n<const M: usize, const N: usize, const W: usize>(
    w: &mut Wave,
    i: &Inst,
    ty: Ty,
    f: &impl Fn(u32, u32) -> u32,
) {
    let ab = (opnd_m::<M>(w, i, 0, ty), opnd_m::<M>(w, i, 1, ty));
    let exec = exec_n::<N>(w);
    if exec == u64::MAX >> (64 - N) {
        full2::<M, N, W, false>(w, dst_row::<M>(i), ab, exec, f)
    } else {
        full2::<M, N, W, true>(w, dst_row::<M>(i), ab, exec, f)
    }
}

/// `d = f(a, b, c)` over all lanes (`c` the destination itself when `acc`).
#[inline(always)]
fn fast3<const M: usize>(w: &mut Wave, i: &Inst, ty: Ty, acc: bool, f: impl Fn(u32, u32, u32) -> u32) {
    by_lanes!(M, w, fast3n, i, ty, acc, &f)
}

#[inline(always)]
fn fast3n<const M: usize, const N: usize, const W: usize>(
    w: &mut Wave,
    i: &Inst,
    ty: Ty,
    acc: bool,
    f: &impl Fn(u32, u32, u32) -> u32,
) {
    let c = if acc { Opnd::Row(dst_row::<M>(i) * MAX_LANES) } else { opnd_m::<M>(w, i, 2, ty) };
    let abc = (opnd_m::<M>(w, i, 0, ty), opnd_m::<M>(w, i, 1, ty), c);
    let exec = exec_n::<N>(w);
    if exec == u64::MAX >> (64 - N) {
        full3::<M, N, W, false>(w, dst_row::<M>(i), abc, exec, f)
    } else {
        full3::<M, N, W, true>(w, dst_row::<M>(i), abc, exec, f)
    }
}

/// `v_cndmask_b32` without modifiers over the wave's `N` lanes: `d = sel ? b : a` per lane, straight
/// into the destination row (a lane's sources are read before it is written).
#[inline(always)]
fn cndmask_n<const M: usize, const N: usize, const W: usize>(w: &mut Wave, i: &Inst) {
    let sel = w.read_mask(i.src[2], i.lit);
    let (a, b) = (opnd_m::<M>(w, i, 0, Ty::F32), opnd_m::<M>(w, i, 1, Ty::F32));
    let exec = exec_n::<N>(w);
    let o = dst_row::<M>(i);
    let rows = rows_mut(w);
    let (a, b) = (row_of::<N>(rows, a, 0), row_of::<N>(rows, b, 1));
    let _ = (&rows[a], &rows[b], &rows[o]);
    if exec == (u64::MAX >> (64 - N)) {
        for q in 0..N / W {
            let k = W * q;
            let (x, y) = (chunk::<W>(rows, a, k), chunk::<W>(rows, b, k));
            let mut d = [0u32; W];
            for l in 0..W {
                d[l] = if sel >> (k + l) & 1 != 0 { y[l] } else { x[l] };
            }
            rows[o][k..k + W].copy_from_slice(&d);
        }
    } else {
        for l in 0..N {
            if exec >> l & 1 != 0 {
                rows[o][l] = if sel >> l & 1 != 0 { rows[b][l] } else { rows[a][l] };
            }
        }
    }
}

/// Integer ops do not support clamp here; a clamped one is reported rather than computed wrongly.
fn no_clamp(i: &Inst) -> Result<(), Stop> {
    if i.mods.clamp {
        return Err(Stop::Invalid(format!("{} with clamp (integer saturation) is not supported", i.name)));
    }
    Ok(())
}

#[inline(always)]
fn u1<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(u32) -> u32) -> Result<(), Stop> {
    if M == 0 {
        no_clamp(i)?;
    }
    if plain_m::<M>(i) {
        fast1::<M>(w, i, Ty::U, f);
        return Ok(());
    }
    let mut a = z32();
    w.src32(i, 0, Ty::U, &mut a);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = f(a[l]);
    }
    w.write_result32(i, &mut d);
    Ok(())
}

#[inline(always)]
fn u2<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(u32, u32) -> u32) -> Result<(), Stop> {
    if M == 0 {
        no_clamp(i)?;
    }
    u2_any::<M>(w, i, f);
    Ok(())
}

/// An add or subtract whose VOP3 clamp bit saturates the integer result (AMD's ISA guides: "clamp"
/// on integer add/sub selects saturation instead of wrap-around): `wrap` without it, `sat` with it.
#[inline(always)]
fn u2_sat<const M: usize>(w: &mut Wave, i: &Inst, wrap: impl Fn(u32, u32) -> u32, sat: impl Fn(u32, u32) -> u32) {
    if M == 0 && i.mods.clamp {
        u2_any::<M>(w, i, sat);
    } else {
        u2_any::<M>(w, i, wrap);
    }
}

#[inline(always)]
fn u2_any<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(u32, u32) -> u32) {
    if plain_m::<M>(i) {
        fast2::<M>(w, i, Ty::U, f);
        return;
    }
    let (mut a, mut b) = (z32(), z32());
    w.src32(i, 0, Ty::U, &mut a);
    w.src32(i, 1, Ty::U, &mut b);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = f(a[l], b[l]);
    }
    w.write_result32(i, &mut d);
}

#[inline(always)]
fn u3<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(u32, u32, u32) -> u32) -> Result<(), Stop> {
    if M == 0 {
        no_clamp(i)?;
    }
    if plain_m::<M>(i) {
        fast3::<M>(w, i, Ty::U, false, f);
        return Ok(());
    }
    let (mut a, mut b, mut c) = (z32(), z32(), z32());
    w.src32(i, 0, Ty::U, &mut a);
    w.src32(i, 1, Ty::U, &mut b);
    w.src32(i, 2, Ty::U, &mut c);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = f(a[l], b[l], c[l]);
    }
    w.write_result32(i, &mut d);
    Ok(())
}

#[inline(always)]
fn f1<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(f32) -> f32) {
    if plain_m::<M>(i) {
        fast1::<M>(w, i, Ty::F32, |a| f(f32::from_bits(a)).to_bits());
        return;
    }
    let mut a = z32();
    w.src32(i, 0, Ty::F32, &mut a);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = out_mod32(i, f(f32::from_bits(a[l]))).to_bits();
    }
    w.write_result32(i, &mut d);
}

#[inline(always)]
fn f2<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(f32, f32) -> f32) {
    if plain_m::<M>(i) {
        fast2::<M>(w, i, Ty::F32, |a, b| f(f32::from_bits(a), f32::from_bits(b)).to_bits());
        return;
    }
    let (mut a, mut b) = (z32(), z32());
    w.src32(i, 0, Ty::F32, &mut a);
    w.src32(i, 1, Ty::F32, &mut b);
    let mut d = z32();
    if i.mods.omod == 0 && !i.mods.clamp {
        for l in 0..w.lanes {
            d[l] = f(f32::from_bits(a[l]), f32::from_bits(b[l])).to_bits();
        }
    } else {
        for l in 0..w.lanes {
            d[l] = out_mod32(i, f(f32::from_bits(a[l]), f32::from_bits(b[l]))).to_bits();
        }
    }
    w.write_result32(i, &mut d);
}

/// Three float sources; `src2` of `fmac`-style ops is the destination itself (`acc`).
#[inline(always)]
fn f3<const M: usize>(w: &mut Wave, i: &Inst, acc: bool, f: impl Fn(f32, f32, f32) -> f32) {
    if plain_m::<M>(i) {
        fast3::<M>(w, i, Ty::F32, acc, |a, b, c| f(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)).to_bits());
        return;
    }
    let (mut a, mut b, mut c) = (z32(), z32(), z32());
    w.src32(i, 0, Ty::F32, &mut a);
    w.src32(i, 1, Ty::F32, &mut b);
    if acc {
        w.raw32(i.dst, 0, Ty::F32, &mut c);
    } else {
        w.src32(i, 2, Ty::F32, &mut c);
    }
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = out_mod32(i, f(f32::from_bits(a[l]), f32::from_bits(b[l]), f32::from_bits(c[l]))).to_bits();
    }
    w.write_result32(i, &mut d);
}

#[inline(always)]
fn d1(w: &mut Wave, i: &Inst, f: impl Fn(f64) -> f64) {
    let mut a = z64();
    w.src64(i, 0, Ty::F64, &mut a);
    let mut d = z64();
    for l in 0..w.lanes {
        d[l] = out_mod64(i, f(f64::from_bits(a[l]))).to_bits();
    }
    let m = w.vmask(i);
    w.write64(i.dst, m, &d);
}

#[inline(always)]
fn d2(w: &mut Wave, i: &Inst, f: impl Fn(f64, f64) -> f64) {
    let (mut a, mut b) = (z64(), z64());
    w.src64(i, 0, Ty::F64, &mut a);
    w.src64(i, 1, Ty::F64, &mut b);
    let mut d = z64();
    for l in 0..w.lanes {
        d[l] = out_mod64(i, f(f64::from_bits(a[l]), f64::from_bits(b[l]))).to_bits();
    }
    let m = w.vmask(i);
    w.write64(i.dst, m, &d);
}

#[inline(always)]
fn d3(w: &mut Wave, i: &Inst, acc: bool, f: impl Fn(f64, f64, f64) -> f64) {
    let (mut a, mut b, mut c) = (z64(), z64(), z64());
    w.src64(i, 0, Ty::F64, &mut a);
    w.src64(i, 1, Ty::F64, &mut b);
    if acc {
        w.raw64(i.dst, 0, Ty::F64, &mut c);
    } else {
        w.src64(i, 2, Ty::F64, &mut c);
    }
    let mut d = z64();
    for l in 0..w.lanes {
        d[l] = out_mod64(i, f(f64::from_bits(a[l]), f64::from_bits(b[l]), f64::from_bits(c[l]))).to_bits();
    }
    let m = w.vmask(i);
    w.write64(i.dst, m, &d);
}

/// A 16-bit source: the low half, or the high half when VOP3's `op_sel` bit for it is set; abs/neg act
/// on the selected half.
pub(super) fn src16(w: &Wave, i: &Inst, k: usize, ty: Ty, out: &mut L32) {
    let (code, half_hi) = w.half16(i, i.src[k]);
    if half_hi {
        let mut j = i.clone_without_y();
        j.src[k] = code;
        w.src32_nomods(&j, k, ty, out);
    } else {
        w.src32_nomods(i, k, ty, out);
    }
    let hi = half_hi || (i.mods.opsel >> k & 1 != 0 && i.enc == crate::table::Enc::Vop3);
    let bit = 1 << k;
    let (abs, neg) = (ty == Ty::F16 && i.mods.abs & bit != 0, ty == Ty::F16 && i.mods.neg & bit != 0);
    for x in out.iter_mut().take(w.lanes) {
        let mut v = if hi { *x >> 16 } else { *x } & 0xffff;
        if abs {
            v &= 0x7fff;
        }
        if neg {
            v ^= 0x8000;
        }
        *x = v;
    }
}

impl Inst {
    /// A copy without the VOPD Y half (for executing with adjusted operands).
    pub(crate) fn clone_without_y(&self) -> Inst {
        Inst {
            op: self.op,
            enc: self.enc,
            size: self.size,
            name: self.name,
            dst: self.dst,
            sdst: self.sdst,
            src: self.src,
            lit: self.lit,
            imm: self.imm,
            imm1: self.imm1,
            soffset: self.soffset,
            mods: self.mods,
            flags: self.flags,
            extra: self.extra,
            y: None,
            class: self.class,
            hint: self.hint,
            pre: self.pre,
            then: None,
        }
    }
}

fn h_out(i: &Inst, v: f32) -> u32 {
    u32::from(f32_to_f16(out_mod32(i, v)))
}

fn h1(w: &mut Wave, i: &Inst, f: impl Fn(f32) -> f32) {
    let mut a = z32();
    src16(w, i, 0, Ty::F16, &mut a);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = h_out(i, f(f16_to_f32(a[l] as u16)));
    }
    w.write_result16(i, &d);
}

fn h2(w: &mut Wave, i: &Inst, f: impl Fn(f32, f32) -> f32) {
    let (mut a, mut b) = (z32(), z32());
    src16(w, i, 0, Ty::F16, &mut a);
    src16(w, i, 1, Ty::F16, &mut b);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = h_out(i, f(f16_to_f32(a[l] as u16), f16_to_f32(b[l] as u16)));
    }
    w.write_result16(i, &d);
}

fn h3(w: &mut Wave, i: &Inst, acc: bool, f: impl Fn(f64, f64, f64) -> f64) {
    let (mut a, mut b, mut c) = (z32(), z32(), z32());
    src16(w, i, 0, Ty::F16, &mut a);
    src16(w, i, 1, Ty::F16, &mut b);
    if acc {
        let (dst, half_hi) = w.half16(i, i.dst);
        w.raw32(dst, 0, Ty::F16, &mut c);
        let hi = half_hi || i.mods.opsel & 8 != 0;
        for x in c.iter_mut() {
            *x = if hi { *x >> 16 } else { *x & 0xffff };
        }
    } else {
        src16(w, i, 2, Ty::F16, &mut c);
    }
    let mut d = z32();
    for l in 0..w.lanes {
        let r = f(
            f64::from(f16_to_f32(a[l] as u16)),
            f64::from(f16_to_f32(b[l] as u16)),
            f64::from(f16_to_f32(c[l] as u16)),
        );
        d[l] = h_out(i, r as f32);
    }
    w.write_result16(i, &d);
}

fn i16_2(w: &mut Wave, i: &Inst, f: impl Fn(u16, u16) -> u16) -> Result<(), Stop> {
    no_clamp(i)?;
    i16_2_any(w, i, f);
    Ok(())
}

/// 16-bit add/sub: wrap-around, or saturation with the clamp bit (see [`u2_sat`]).
fn i16_2_sat(w: &mut Wave, i: &Inst, wrap: impl Fn(u16, u16) -> u16, sat: impl Fn(u16, u16) -> u16) {
    if i.mods.clamp {
        i16_2_any(w, i, sat);
    } else {
        i16_2_any(w, i, wrap);
    }
}

fn i16_2_any(w: &mut Wave, i: &Inst, f: impl Fn(u16, u16) -> u16) {
    let (mut a, mut b) = (z32(), z32());
    src16(w, i, 0, Ty::U, &mut a);
    src16(w, i, 1, Ty::U, &mut b);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = u32::from(f(a[l] as u16, b[l] as u16));
    }
    w.write_result16(i, &d);
}

/// Carry-out ops: `f(a, b, carry_in) -> (result, carry_out)`; the carry mask goes to `sdst`.
#[inline(always)]
fn carry<const M: usize>(
    w: &mut Wave,
    i: &Inst,
    carry_in: bool,
    f: impl Fn(u32, u32, u32) -> (u32, bool),
) -> Result<(), Stop> {
    if M == 0 {
        no_clamp(i)?;
    }
    if plain_m::<M>(i) {
        by_lanes!(M, w, carry_n, i, carry_in, &f);
        return Ok(());
    }
    let (mut a, mut b) = (z32(), z32());
    w.src32(i, 0, Ty::U, &mut a);
    w.src32(i, 1, Ty::U, &mut b);
    let cin = if carry_in { w.read_mask(i.src[2], i.lit) } else { 0 };
    let mask = w.vmask(i);
    let mut d = z32();
    let mut cout = 0u64;
    for l in 0..w.lanes {
        let (r, c) = f(a[l], b[l], (cin >> l & 1) as u32);
        d[l] = r;
        if c && mask >> l & 1 != 0 {
            cout |= 1 << l;
        }
    }
    w.write_result32(i, &mut d);
    w.write_mask(i.sdst, cout);
    Ok(())
}

/// The fast path of [`carry`] over the wave's `N` lanes.
#[inline(always)]
fn carry_n<const M: usize, const N: usize, const W: usize>(
    w: &mut Wave,
    i: &Inst,
    carry_in: bool,
    f: &impl Fn(u32, u32, u32) -> (u32, bool),
) {
    let cin = if carry_in { w.read_mask(i.src[2], i.lit) } else { 0 };
    let mut d = [0u32; N];
    let mut c = [false; N];
    let (a, b) = (opnd_m::<M>(w, i, 0, Ty::U), opnd_m::<M>(w, i, 1, Ty::U));
    let av = match a {
        Opnd::Row(r) => *row::<N>(&w.v, r),
        Opnd::Imm(x) => [x; N],
    };
    let bv = match b {
        Opnd::Row(r) => *row::<N>(&w.v, r),
        Opnd::Imm(x) => [x; N],
    };
    for l in 0..N {
        let (r, co) = f(av[l], bv[l], (cin >> l & 1) as u32);
        d[l] = r;
        c[l] = co;
    }
    let mut cout = 0u64;
    for l in 0..N {
        cout |= u64::from(c[l]) << l;
    }
    let mask = exec_n::<N>(w);
    put(w, i.dst, &d);
    w.write_mask(i.sdst, cout & mask);
}

fn mbcnt(w: &mut Wave, i: &Inst, hi: bool) -> Result<(), Stop> {
    let (mut a, mut b) = (z32(), z32());
    w.src32(i, 0, Ty::U, &mut a);
    w.src32(i, 1, Ty::U, &mut b);
    let mut d = z32();
    for l in 0..w.lanes {
        let below: u64 = (1u64 << l).wrapping_sub(1);
        let m = if hi { (below >> 32) as u32 } else { below as u32 };
        d[l] = (a[l] & m).count_ones().wrapping_add(b[l]);
    }
    w.write_result32(i, &mut d);
    Ok(())
}

/// Three 16-bit sources (halves by `op_sel`) to a 16-bit result; `clamp` unsupported.
fn i16_3(w: &mut Wave, i: &Inst, f: impl Fn(u16, u16, u16) -> u16) -> Result<(), Stop> {
    no_clamp(i)?;
    let (mut a, mut b, mut c) = (z32(), z32(), z32());
    src16(w, i, 0, Ty::U, &mut a);
    src16(w, i, 1, Ty::U, &mut b);
    src16(w, i, 2, Ty::U, &mut c);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = u32::from(f(a[l] as u16, b[l] as u16, c[l] as u16));
    }
    w.write_result16(i, &d);
    Ok(())
}

/// `v_mad_{u,i}32_{u,i}16`: a 16-bit product (halves by `op_sel`) plus a 32-bit addend, `clamp` unsupported.
fn mad32_16(w: &mut Wave, i: &Inst, signed: bool) -> Result<(), Stop> {
    no_clamp(i)?;
    let (mut a, mut b, mut c) = (z32(), z32(), z32());
    src16(w, i, 0, Ty::U, &mut a);
    src16(w, i, 1, Ty::U, &mut b);
    w.src32(i, 2, Ty::U, &mut c);
    let mut d = z32();
    for l in 0..w.lanes {
        let p =
            if signed { (i32::from(a[l] as u16 as i16) * i32::from(b[l] as u16 as i16)) as u32 } else { a[l] * b[l] };
        d[l] = p.wrapping_add(c[l]);
    }
    w.write_result32(i, &mut d);
    Ok(())
}

/// Executes one vector ALU instruction (the baseline lane kernels; VOPD halves).
pub(super) fn exec(w: &mut Wave, i: &Inst, op: VOp) -> Result<Flow, Stop> {
    exec_op::<Base, 0>(w, i, op)
}

/// The handler of a VALU instruction (not VOPD): [`exec_op`] with the operation a constant, so the
/// compiler keeps only its arm, and with the lane kernels `k` (their per-lane code compiled for AVX2 + FMA
/// when `k` says the host has them). One handler per operation of the [`VOp`] table; the semantics stay in
/// [`exec_op`]'s arms.
pub(super) fn handler(op: VOp, k: Chosen) -> Handler {
    match k {
        Chosen::Base => handler_base(op),
        #[cfg(target_arch = "x86_64")]
        // The AVX-512 set adds plain handlers only: the others are the AVX2 ones (the host has AVX2).
        Chosen::Avx2Fma | Chosen::Avx512 => handler_avx2(op),
    }
}

macro_rules! valu_handlers {
    ($($name:ident),* $(,)?) => {
        fn handler_base(op: VOp) -> Handler {
            match op {
                $(VOp::$name => {
                    fn h(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                        cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
                        let r = exec_op::<Base, 0>(w, i, VOp::$name);
                        super::done(cx, r)
                    }
                    h
                })*
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        fn handler_avx2(op: VOp) -> Handler {
            match op {
                $(VOp::$name => {
                    /// # Safety
                    /// The host must support AVX2, FMA and POPCNT (only installed for [`Chosen::Avx2Fma`]).
                    #[target_feature(enable = "avx2,fma,popcnt")]
                    unsafe fn h(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                        cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
                        let r = exec_op::<Avx2Fma, 0>(w, i, VOp::$name);
                        super::done(cx, r)
                    }
                    h
                })*
            }
        }
    };
}

crate::op::for_each_vop!(valu_handlers);

#[inline(always)]
pub(super) fn exec_op<K: Isa, const M: usize>(w: &mut Wave, i: &Inst, op: VOp) -> Result<Flow, Stop> {
    use VOp::*;
    match op {
        Nop => {}
        MovB32 if plain_m::<M>(i) => fast1::<M>(w, i, Ty::F32, lane::mov_b32),
        CndmaskB32 if plain_m::<M>(i) => by_lanes!(M, w, cndmask_n, i),
        MovB32 => {
            let mut a = z32();
            w.src32(i, 0, Ty::F32, &mut a);
            w.write_result32(i, &mut a);
        }
        MovB64 => {
            let mut a = z64();
            w.src64(i, 0, Ty::U, &mut a);
            let m = w.vmask(i);
            w.write64(i.dst, m, &a);
        }
        CndmaskB32 => {
            let (mut a, mut b) = (z32(), z32());
            w.src32(i, 0, Ty::F32, &mut a);
            w.src32(i, 1, Ty::F32, &mut b);
            let sel = w.read_mask(i.src[2], i.lit);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = if sel >> l & 1 != 0 { b[l] } else { a[l] };
            }
            w.write_result32(i, &mut d);
        }
        ReadlaneB32 => {
            let lane = (w.s32(i.src[1], i.lit, Ty::U) as usize) % w.lanes;
            let v = w.vr((i.src[0] - VGPR0) as usize, lane);
            w.set_s(i.dst, v);
        }
        ReadfirstlaneB32 => {
            let exec = w.exec();
            let lane = if exec == 0 { 0 } else { exec.trailing_zeros() as usize };
            let v =
                if i.src[0] >= VGPR0 { w.vr((i.src[0] - VGPR0) as usize, lane) } else { w.s32(i.src[0], i.lit, Ty::U) };
            w.set_s(i.dst, v);
        }
        WritelaneB32 => {
            let v = w.s32(i.src[0], i.lit, Ty::U);
            let lane = (w.s32(i.src[1], i.lit, Ty::U) as usize) % w.lanes;
            w.set_vr((i.dst - VGPR0) as usize, lane, v);
        }
        AccvgprRead | AccvgprWrite | AccvgprMov => {
            // The decoder names the AGPR operands with AGPR codes: a plain 32-bit move.
            let mut a = z32();
            w.src32(i, 0, Ty::U, &mut a);
            w.write_result32(i, &mut a);
        }
        SwapB32 => {
            let (mut a, mut b) = (z32(), z32());
            w.raw32(i.src[0], 0, Ty::U, &mut a);
            w.raw32(i.dst, 0, Ty::U, &mut b);
            let m = w.exec();
            w.write32(i.dst, m, &a);
            w.write32(i.src[0], m, &b);
        }
        MovrelsB32 | MovreldB32 => {
            let m0 = w.m0() as u16;
            let mut src = i.clone_without_y();
            if op == MovrelsB32 {
                src.src[0] = src.src[0].wrapping_add(m0);
            } else {
                src.dst = src.dst.wrapping_add(m0);
            }
            if src.src[0] >= 512 || src.dst >= 512 {
                return Err(Stop::Invalid(format!("{} indexes past the VGPRs (m0 = {m0})", i.name)));
            }
            let mut a = z32();
            w.src32(&src, 0, Ty::U, &mut a);
            w.write_result32(&src, &mut a);
        }
        PermlaneX16 | Permlane16 => return Err(Stop::Unimplemented),
        AddU32 => u2_sat::<M>(w, i, lane::add_u32, u32::saturating_add),
        SubU32 => u2_sat::<M>(w, i, lane::sub_u32, u32::saturating_sub),
        SubrevU32 => u2_sat::<M>(w, i, lane::subrev_u32, |a, b| b.saturating_sub(a)),
        AddI32 => u2_sat::<M>(w, i, lane::add_u32, |a, b| (a as i32).saturating_add(b as i32) as u32),
        SubI32 => u2_sat::<M>(w, i, lane::sub_u32, |a, b| (a as i32).saturating_sub(b as i32) as u32),
        AddCoU32 => carry::<M>(w, i, false, |a, b, _| {
            let (r, c) = a.overflowing_add(b);
            (r, c)
        })?,
        SubCoU32 => carry::<M>(w, i, false, |a, b, _| (a.wrapping_sub(b), b > a))?,
        SubrevCoU32 => carry::<M>(w, i, false, |a, b, _| (b.wrapping_sub(a), a > b))?,
        AddcCoU32 => carry::<M>(w, i, true, |a, b, c| {
            let t = u64::from(a) + u64::from(b) + u64::from(c);
            (t as u32, t >> 32 != 0)
        })?,
        SubbCoU32 => carry::<M>(w, i, true, |a, b, c| {
            (a.wrapping_sub(b).wrapping_sub(c), u64::from(b) + u64::from(c) > u64::from(a))
        })?,
        SubbrevCoU32 => carry::<M>(w, i, true, |a, b, c| {
            (b.wrapping_sub(a).wrapping_sub(c), u64::from(a) + u64::from(c) > u64::from(b))
        })?,
        MulLoU32 => u2::<M>(w, i, lane::mul_lo_u32)?,
        MulHiU32 => u2::<M>(w, i, lane::mul_hi_u32)?,
        MulHiI32 => u2::<M>(w, i, lane::mul_hi_i32)?,
        MulU32U24 => u2::<M>(w, i, lane::mul_u32_u24)?,
        MulHiU32U24 => u2::<M>(w, i, |a, b| ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32)?,
        MulI32I24 => u2::<M>(w, i, lane::mul_i32_i24)?,
        MulHiI32I24 => u2::<M>(w, i, |a, b| ((i24(a) * i24(b)) >> 32) as u32)?,
        MinU32 => u2::<M>(w, i, lane::min_u32)?,
        MaxU32 => u2::<M>(w, i, lane::max_u32)?,
        MinI32 => u2::<M>(w, i, lane::min_i32)?,
        MaxI32 => u2::<M>(w, i, lane::max_i32)?,
        AndB32 => u2::<M>(w, i, lane::and_b32)?,
        OrB32 => u2::<M>(w, i, lane::or_b32)?,
        XorB32 => u2::<M>(w, i, lane::xor_b32)?,
        XnorB32 => u2::<M>(w, i, lane::xnor_b32)?,
        NotB32 => u1::<M>(w, i, lane::not_b32)?,
        LshlrevB32 => u2::<M>(w, i, lane::lshlrev_b32)?,
        LshrrevB32 => u2::<M>(w, i, lane::lshrrev_b32)?,
        AshrrevI32 => u2::<M>(w, i, lane::ashrrev_i32)?,
        BfmB32 => u2::<M>(w, i, |a, b| ((1u64 << (a & 31)) as u32).wrapping_sub(1) << (b & 31))?,
        BcntU32B32 => u2::<M>(w, i, |a, b| a.count_ones().wrapping_add(b))?,
        MbcntLoU32B32 => mbcnt(w, i, false)?,
        MbcntHiU32B32 => mbcnt(w, i, true)?,
        BfrevB32 => u1::<M>(w, i, u32::reverse_bits)?,
        FfbhU32 => u1::<M>(w, i, |a| if a == 0 { u32::MAX } else { a.leading_zeros() })?,
        FfblB32 => u1::<M>(w, i, |a| if a == 0 { u32::MAX } else { a.trailing_zeros() })?,
        FfbhI32 => u1::<M>(w, i, |a| {
            let x = if (a as i32) < 0 { !a } else { a };
            if x == 0 {
                u32::MAX
            } else {
                x.leading_zeros() - 1
            }
        })?,
        Add3U32 => u3::<M>(w, i, lane::add3_u32)?,
        LshlAddU32 => u3::<M>(w, i, lane::lshl_add_u32)?,
        AddLshlU32 => u3::<M>(w, i, lane::add_lshl_u32)?,
        LshlOrB32 => u3::<M>(w, i, lane::lshl_or_b32)?,
        AndOrB32 => u3::<M>(w, i, lane::and_or_b32)?,
        Or3B32 => u3::<M>(w, i, lane::or3_b32)?,
        Xor3B32 => u3::<M>(w, i, lane::xor3_b32)?,
        XadU32 => u3::<M>(w, i, lane::xad_u32)?,
        BfeU32 => u3::<M>(w, i, lane::bfe_u32)?,
        BfeI32 => u3::<M>(w, i, lane::bfe_i32)?,
        BfiB32 => u3::<M>(w, i, lane::bfi_b32)?,
        AlignbitB32 => u3::<M>(w, i, |a, b, c| (((u64::from(a) << 32) | u64::from(b)) >> (c & 31)) as u32)?,
        AlignbyteB32 => u3::<M>(w, i, |a, b, c| (((u64::from(a) << 32) | u64::from(b)) >> (8 * (c & 3))) as u32)?,
        PermB32 => u3::<M>(w, i, |a, b, c| {
            let data = (u64::from(a) << 32) | u64::from(b);
            (0..4).map(|k| perm_byte(data, (c >> (8 * k)) & 0xff) << (8 * k)).fold(0, |x, y| x | y)
        })?,
        MadU32U24 => u3::<M>(w, i, lane::mad_u32_u24)?,
        MadI32I24 => u3::<M>(w, i, lane::mad_i32_i24)?,
        Min3I32 => u3::<M>(w, i, lane::min3_i32)?,
        Max3I32 => u3::<M>(w, i, lane::max3_i32)?,
        Med3I32 => u3::<M>(w, i, |a, b, c| med3(a as i32, b as i32, c as i32) as u32)?,
        Min3U32 => u3::<M>(w, i, lane::min3_u32)?,
        Max3U32 => u3::<M>(w, i, lane::max3_u32)?,
        Med3U32 => u3::<M>(w, i, med3)?,
        SadU32 => u3::<M>(w, i, |a, b, c| a.abs_diff(b).wrapping_add(c))?,
        MadU64U32 | MadI64I32 => {
            no_clamp(i)?;
            let (mut a, mut b, mut c) = (z32(), z32(), z64());
            w.src32(i, 0, Ty::U, &mut a);
            w.src32(i, 1, Ty::U, &mut b);
            w.src64(i, 2, if op == MadU64U32 { Ty::U } else { Ty::I }, &mut c);
            let mask = w.vmask(i);
            let mut d = z64();
            let mut cout = 0u64;
            for l in 0..w.lanes {
                let (r, carry) = if op == MadU64U32 {
                    let t = u128::from(a[l]) * u128::from(b[l]) + u128::from(c[l]);
                    (t as u64, t >> 64 != 0)
                } else {
                    let t = i128::from(a[l] as i32) * i128::from(b[l] as i32) + i128::from(c[l] as i64);
                    (t as u64, t != i128::from(t as i64))
                };
                d[l] = r;
                if carry && mask >> l & 1 != 0 {
                    cout |= 1 << l;
                }
            }
            w.write64(i.dst, mask, &d);
            w.write_mask(i.sdst, cout);
        }
        LshlrevB64 | LshrrevB64 | AshrrevI64 => {
            let (mut a, mut b) = (z32(), z64());
            w.src32(i, 0, Ty::U, &mut a);
            w.src64(i, 1, Ty::U, &mut b);
            let mut d = z64();
            for l in 0..w.lanes {
                let s = a[l] & 63;
                d[l] = match op {
                    LshlrevB64 => b[l] << s,
                    LshrrevB64 => b[l] >> s,
                    _ => ((b[l] as i64) >> s) as u64,
                };
            }
            let m = w.vmask(i);
            w.write64(i.dst, m, &d);
        }
        LshlAddU64 => {
            let (mut a, mut b, mut c) = (z64(), z32(), z64());
            w.src64(i, 0, Ty::U, &mut a);
            w.src32(i, 1, Ty::U, &mut b);
            w.src64(i, 2, Ty::U, &mut c);
            let mut d = z64();
            for l in 0..w.lanes {
                d[l] = (a[l] << (b[l] & 7)).wrapping_add(c[l]);
            }
            let m = w.vmask(i);
            w.write64(i.dst, m, &d);
        }
        AddU16 => i16_2_sat(w, i, u16::wrapping_add, u16::saturating_add),
        SubU16 => i16_2_sat(w, i, u16::wrapping_sub, u16::saturating_sub),
        SubrevU16 => i16_2_sat(w, i, |a, b| b.wrapping_sub(a), |a, b| b.saturating_sub(a)),
        AddNcI16 => i16_2_sat(w, i, u16::wrapping_add, |a, b| (a as i16).saturating_add(b as i16) as u16),
        SubNcI16 => i16_2_sat(w, i, u16::wrapping_sub, |a, b| (a as i16).saturating_sub(b as i16) as u16),
        MulLoU16 => i16_2(w, i, u16::wrapping_mul)?,
        LshlrevB16 => i16_2(w, i, |a, b| b << (a & 15))?,
        LshrrevB16 => i16_2(w, i, |a, b| b >> (a & 15))?,
        AshrrevI16 => i16_2(w, i, |a, b| ((b as i16) >> (a & 15)) as u16)?,
        MaxU16 => i16_2(w, i, u16::max)?,
        Min3U16 => i16_3(w, i, |a, b, c| a.min(b).min(c))?,
        Max3U16 => i16_3(w, i, |a, b, c| a.max(b).max(c))?,
        Med3U16 => i16_3(w, i, med3)?,
        Min3I16 => i16_3(w, i, |a, b, c| (a as i16).min(b as i16).min(c as i16) as u16)?,
        Max3I16 => i16_3(w, i, |a, b, c| (a as i16).max(b as i16).max(c as i16) as u16)?,
        Med3I16 => i16_3(w, i, |a, b, c| med3(a as i16, b as i16, c as i16) as u16)?,
        MadU16 => i16_3(w, i, |a, b, c| a.wrapping_mul(b).wrapping_add(c))?,
        MadI16 => i16_3(w, i, |a, b, c| a.wrapping_mul(b).wrapping_add(c))?,
        MadU32U16 => mad32_16(w, i, false)?,
        MadI32I16 => mad32_16(w, i, true)?,
        CvtU32U16 | CvtI32I16 => {
            let mut a = z32();
            src16(w, i, 0, Ty::U, &mut a);
            if op == CvtI32I16 {
                a.iter_mut().for_each(|x| *x = *x as u16 as i16 as i32 as u32);
            }
            w.write_result32(i, &mut a);
        }
        AndB16 => i16_2(w, i, |a, b| a & b)?,
        OrB16 => i16_2(w, i, |a, b| a | b)?,
        XorB16 => i16_2(w, i, |a, b| a ^ b)?,
        MovB16 | NotB16 => {
            let mut a = z32();
            src16(w, i, 0, Ty::U, &mut a);
            if op == NotB16 {
                a.iter_mut().for_each(|x| *x = !*x & 0xffff);
            }
            w.write_result16(i, &a);
        }
        CndmaskB16 => {
            // VOP3 only; abs/neg act on the selected halves as f16 (as v_cndmask_b32's do on f32).
            let (mut a, mut b) = (z32(), z32());
            src16(w, i, 0, Ty::F16, &mut a);
            src16(w, i, 1, Ty::F16, &mut b);
            let sel = w.read_mask(i.src[2], i.lit);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = if sel >> l & 1 != 0 { b[l] } else { a[l] };
            }
            w.write_result16(i, &d);
        }
        MinU16 => i16_2(w, i, u16::min)?,
        MaxI16 => i16_2(w, i, |a, b| (a as i16).max(b as i16) as u16)?,
        MinI16 => i16_2(w, i, |a, b| (a as i16).min(b as i16) as u16)?,
        AddF32 => f2::<M>(w, i, lane::add_f32),
        SubF32 => f2::<M>(w, i, lane::sub_f32),
        SubrevF32 => f2::<M>(w, i, lane::subrev_f32),
        MulF32 => f2::<M>(w, i, lane::mul_f32),
        MulLegacyF32 => f2::<M>(w, i, |a, b| if a == 0.0 || b == 0.0 { 0.0 } else { a * b }),
        FmacLegacyF32 => f3::<M>(w, i, true, |a, b, c| if a == 0.0 || b == 0.0 { c } else { a.mul_add(b, c) }),
        MinF32 => f2::<M>(w, i, lane::fmin32),
        MaxF32 => f2::<M>(w, i, lane::fmax32),
        LdexpF32 => {
            let (mut a, mut b) = (z32(), z32());
            w.src32(i, 0, Ty::F32, &mut a);
            w.src32(i, 1, Ty::U, &mut b);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = out_mod32(i, ldexp32(f32::from_bits(a[l]), b[l] as i32)).to_bits();
            }
            w.write_result32(i, &mut d);
        }
        FmaF32 => f3::<M>(w, i, false, lane::fma_f32::<K>),
        FmacF32 => f3::<M>(w, i, true, lane::fma_f32::<K>),
        MadF32 => f3::<M>(w, i, false, lane::mad_f32),
        MacF32 => f3::<M>(w, i, true, lane::mad_f32),
        FmamkF32 | MadmkF32 | FmaakF32 | MadakF32 => {
            let k = f32::from_bits(i.lit);
            let fused = matches!(op, FmamkF32 | FmaakF32);
            let mk = matches!(op, FmamkF32 | MadmkF32);
            // VOPD halves have only src0/vsrc1; their addend for fmaak/fmamk is the same as VOP2's.
            let mut j = i.clone_without_y();
            j.src[2] = NONE;
            f2::<0>(w, &j, |a, b| {
                let (m, add) = if mk { (k, b) } else { (b, k) };
                if fused {
                    K::fma32(a, m, add)
                } else {
                    a * m + add
                }
            });
        }
        Min3F32 => f3::<M>(w, i, false, |a, b, c| fmin32(fmin32(a, b), c)),
        Max3F32 => f3::<M>(w, i, false, |a, b, c| fmax32(fmax32(a, b), c)),
        Med3F32 => f3::<M>(w, i, false, med3_32),
        RcpF32 | RcpIflagF32 => f1::<M>(w, i, |a| 1.0 / a),
        RsqF32 => f1::<M>(w, i, |a| 1.0 / a.sqrt()),
        SqrtF32 => f1::<M>(w, i, f32::sqrt),
        LogF32 => f1::<M>(w, i, f32::log2),
        ExpF32 => f1::<M>(w, i, f32::exp2),
        SinF32 => f1::<M>(w, i, |a| (f64::from(a) * std::f64::consts::TAU).sin() as f32),
        CosF32 => f1::<M>(w, i, |a| (f64::from(a) * std::f64::consts::TAU).cos() as f32),
        FloorF32 => f1::<M>(w, i, f32::floor),
        CeilF32 => f1::<M>(w, i, f32::ceil),
        TruncF32 => f1::<M>(w, i, f32::trunc),
        RndneF32 => f1::<M>(w, i, f32::round_ties_even),
        FractF32 => {
            f1::<M>(w, i, |a| if a.is_infinite() { f32::NAN } else { (a - a.floor()).min(f32::from_bits(0x3f7f_ffff)) })
        }
        FrexpMantF32 => f1::<M>(w, i, |a| frexp_mant64(f64::from(a)) as f32),
        FrexpExpI32F32 => {
            let mut a = z32();
            w.src32(i, 0, Ty::F32, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = frexp_exp64(f64::from(f32::from_bits(a[l]))) as u32;
            }
            w.write_result32(i, &mut d);
        }
        DivScaleF32 => {
            let (mut a, mut b, mut c) = (z32(), z32(), z32());
            w.src32(i, 0, Ty::F32, &mut a);
            w.src32(i, 1, Ty::F32, &mut b);
            w.src32(i, 2, Ty::F32, &mut c);
            let mask = w.vmask(i);
            let mut d = z32();
            let mut vcc = 0u64;
            for l in 0..w.lanes {
                let (r, v) = div_scale32(f32::from_bits(a[l]), f32::from_bits(b[l]), f32::from_bits(c[l]));
                d[l] = r.to_bits();
                if v && mask >> l & 1 != 0 {
                    vcc |= 1 << l;
                }
            }
            w.write_result32(i, &mut d);
            w.write_mask(i.sdst, vcc);
        }
        DivScaleF64 => {
            let (mut a, mut b, mut c) = (z64(), z64(), z64());
            w.src64(i, 0, Ty::F64, &mut a);
            w.src64(i, 1, Ty::F64, &mut b);
            w.src64(i, 2, Ty::F64, &mut c);
            let mask = w.vmask(i);
            let mut d = z64();
            let mut vcc = 0u64;
            for l in 0..w.lanes {
                let (r, v) = div_scale64(f64::from_bits(a[l]), f64::from_bits(b[l]), f64::from_bits(c[l]));
                d[l] = r.to_bits();
                if v && mask >> l & 1 != 0 {
                    vcc |= 1 << l;
                }
            }
            w.write64(i.dst, mask, &d);
            w.write_mask(i.sdst, vcc);
        }
        DivFmasF32 => {
            let vcc = w.vcc();
            let (mut a, mut b, mut c) = (z32(), z32(), z32());
            w.src32(i, 0, Ty::F32, &mut a);
            w.src32(i, 1, Ty::F32, &mut b);
            w.src32(i, 2, Ty::F32, &mut c);
            let mut d = z32();
            for l in 0..w.lanes {
                let r = f32::from_bits(a[l]).mul_add(f32::from_bits(b[l]), f32::from_bits(c[l]));
                let r = if vcc >> l & 1 != 0 { ldexp32(r, 32) } else { r };
                d[l] = out_mod32(i, r).to_bits();
            }
            w.write_result32(i, &mut d);
        }
        DivFmasF64 => {
            let vcc = w.vcc();
            let (mut a, mut b, mut c) = (z64(), z64(), z64());
            w.src64(i, 0, Ty::F64, &mut a);
            w.src64(i, 1, Ty::F64, &mut b);
            w.src64(i, 2, Ty::F64, &mut c);
            let mut d = z64();
            for l in 0..w.lanes {
                let r = f64::from_bits(a[l]).mul_add(f64::from_bits(b[l]), f64::from_bits(c[l]));
                let r = if vcc >> l & 1 != 0 { ldexp64(r, 64) } else { r };
                d[l] = out_mod64(i, r).to_bits();
            }
            let m = w.vmask(i);
            w.write64(i.dst, m, &d);
        }
        DivFixupF32 => f3::<M>(w, i, false, div_fixup32),
        DivFixupF64 => d3(w, i, false, div_fixup64),
        CvtF32I32 => cvt_from_u32::<M>(w, i, lane::cvt_f32_i32),
        CvtF32U32 => cvt_from_u32::<M>(w, i, lane::cvt_f32_u32),
        CvtI32F32 => cvt_to_u32::<M>(w, i, lane::cvt_i32_f32),
        CvtU32F32 => cvt_to_u32::<M>(w, i, lane::cvt_u32_f32),
        CvtRpiI32F32 => cvt_to_u32::<M>(w, i, |a| (a + 0.5).floor() as i32 as u32),
        CvtFlrI32F32 => cvt_to_u32::<M>(w, i, |a| a.floor() as i32 as u32),
        CvtF32Ubyte0 => cvt_from_u32::<M>(w, i, |a| (a & 0xff) as f32),
        CvtF32Ubyte1 => cvt_from_u32::<M>(w, i, |a| ((a >> 8) & 0xff) as f32),
        CvtF32Ubyte2 => cvt_from_u32::<M>(w, i, |a| ((a >> 16) & 0xff) as f32),
        CvtF32Ubyte3 => cvt_from_u32::<M>(w, i, |a| (a >> 24) as f32),
        CvtPkrtzF16F32 => {
            let (mut a, mut b) = (z32(), z32());
            w.src32(i, 0, Ty::F32, &mut a);
            w.src32(i, 1, Ty::F32, &mut b);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = u32::from(f32_to_f16_rtz(f32::from_bits(a[l])))
                    | (u32::from(f32_to_f16_rtz(f32::from_bits(b[l]))) << 16);
            }
            w.write_result32(i, &mut d);
        }
        // Plain f64 ops: joined, computed and split 8 lanes at a time (`valu_f64`).
        AddF64 if plain_m::<M>(i) => fast64(w, i, 2, false, |a, b, _| a + b),
        MulF64 if plain_m::<M>(i) => fast64(w, i, 2, false, |a, b, _| a * b),
        MinF64 if plain_m::<M>(i) => fast64(w, i, 2, false, |a, b, _| fmin64(a, b)),
        MaxF64 if plain_m::<M>(i) => fast64(w, i, 2, false, |a, b, _| fmax64(a, b)),
        FmaF64 if plain_m::<M>(i) => fast64(w, i, 3, false, f64::mul_add),
        FmacF64 if plain_m::<M>(i) => fast64(w, i, 3, true, f64::mul_add),
        AddF64 => d2(w, i, |a, b| a + b),
        MulF64 => d2(w, i, |a, b| a * b),
        MinF64 => d2(w, i, fmin64),
        MaxF64 => d2(w, i, fmax64),
        FmaF64 => d3(w, i, false, f64::mul_add),
        FmacF64 => d3(w, i, true, f64::mul_add),
        LdexpF64 | TrigPreopF64 => {
            let (mut a, mut b) = (z64(), z32());
            w.src64(i, 0, Ty::F64, &mut a);
            w.src32(i, 1, Ty::U, &mut b);
            let mut d = z64();
            for l in 0..w.lanes {
                let x = f64::from_bits(a[l]);
                let r = if op == LdexpF64 { ldexp64(x, b[l] as i32) } else { trig_preop(x, b[l]) };
                d[l] = out_mod64(i, r).to_bits();
            }
            let m = w.vmask(i);
            w.write64(i.dst, m, &d);
        }
        RcpF64 => d1(w, i, |a| 1.0 / a),
        RsqF64 => d1(w, i, |a| 1.0 / a.sqrt()),
        SqrtF64 => d1(w, i, f64::sqrt),
        FractF64 => d1(w, i, |a| {
            if a.is_infinite() {
                f64::NAN
            } else {
                (a - a.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
            }
        }),
        FloorF64 => d1(w, i, f64::floor),
        CeilF64 => d1(w, i, f64::ceil),
        TruncF64 => d1(w, i, f64::trunc),
        RndneF64 => d1(w, i, f64::round_ties_even),
        FrexpMantF64 => d1(w, i, frexp_mant64),
        FrexpExpI32F64 => {
            let mut a = z64();
            w.src64(i, 0, Ty::F64, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = frexp_exp64(f64::from_bits(a[l])) as u32;
            }
            w.write_result32(i, &mut d);
        }
        CvtF64I32 | CvtF64U32 | CvtF64F32 => {
            let mut a = z32();
            w.src32(i, 0, if op == CvtF64F32 { Ty::F32 } else { Ty::U }, &mut a);
            let mut d = z64();
            for l in 0..w.lanes {
                let x = match op {
                    CvtF64I32 => f64::from(a[l] as i32),
                    CvtF64U32 => f64::from(a[l]),
                    _ => f64::from(f32::from_bits(a[l])),
                };
                d[l] = out_mod64(i, x).to_bits();
            }
            let m = w.vmask(i);
            w.write64(i.dst, m, &d);
        }
        CvtI32F64 | CvtU32F64 | CvtF32F64 => {
            let mut a = z64();
            w.src64(i, 0, Ty::F64, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                let x = f64::from_bits(a[l]);
                d[l] = match op {
                    CvtI32F64 => x as i32 as u32,
                    CvtU32F64 => x as u32,
                    _ => out_mod32(i, x as f32).to_bits(),
                };
            }
            w.write_result32(i, &mut d);
        }
        AddF16 => h2(w, i, |a, b| a + b),
        SubF16 => h2(w, i, |a, b| a - b),
        SubrevF16 => h2(w, i, |a, b| b - a),
        MulF16 => h2(w, i, |a, b| a * b),
        MinF16 => h2(w, i, fmin32),
        MaxF16 => h2(w, i, fmax32),
        FmaF16 => h3(w, i, false, f64::mul_add),
        FmacF16 => h3(w, i, true, f64::mul_add),
        MadF16 => h3(w, i, false, |a, b, c| f64::from(f16_to_f32(f32_to_f16((a * b) as f32))) + c),
        MacF16 => h3(w, i, true, |a, b, c| f64::from(f16_to_f32(f32_to_f16((a * b) as f32))) + c),
        Min3F16 => h3(w, i, false, |a, b, c| fmin64(fmin64(a, b), c)),
        Max3F16 => h3(w, i, false, |a, b, c| fmax64(fmax64(a, b), c)),
        Med3F16 => h3(w, i, false, |a, b, c| f64::from(med3_32(a as f32, b as f32, c as f32))),
        FmamkF16 | FmaakF16 => {
            let k = f64::from(f16_to_f32(i.lit as u16));
            let mk = op == FmamkF16;
            let mut j = i.clone_without_y();
            j.src[2] = NONE;
            let (mut a, mut b) = (z32(), z32());
            src16(w, &j, 0, Ty::F16, &mut a);
            src16(w, &j, 1, Ty::F16, &mut b);
            let mut d = z32();
            for l in 0..w.lanes {
                let (x, y) = (f64::from(f16_to_f32(a[l] as u16)), f64::from(f16_to_f32(b[l] as u16)));
                let r = if mk { x.mul_add(k, y) } else { x.mul_add(y, k) };
                d[l] = u32::from(f32_to_f16(r as f32));
            }
            w.write_result16(&j, &d);
        }
        SqrtF16 => h1(w, i, f32::sqrt),
        RcpF16 => h1(w, i, |a| 1.0 / a),
        RsqF16 => h1(w, i, |a| 1.0 / a.sqrt()),
        LogF16 => h1(w, i, f32::log2),
        ExpF16 => h1(w, i, f32::exp2),
        FloorF16 => h1(w, i, f32::floor),
        CeilF16 => h1(w, i, f32::ceil),
        TruncF16 => h1(w, i, f32::trunc),
        RndneF16 => h1(w, i, f32::round_ties_even),
        FractF16 => h1(w, i, |a| if a.is_infinite() { f32::NAN } else { a - a.floor() }),
        LdexpF16 => {
            let (mut a, mut b) = (z32(), z32());
            src16(w, i, 0, Ty::F16, &mut a);
            src16(w, i, 1, Ty::U, &mut b);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = h_out(i, ldexp32(f16_to_f32(a[l] as u16), i32::from(b[l] as i16)));
            }
            w.write_result16(i, &d);
        }
        CvtF32F16 => {
            let mut a = z32();
            src16(w, i, 0, Ty::F16, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = out_mod32(i, f16_to_f32(a[l] as u16)).to_bits();
            }
            w.write_result32(i, &mut d);
        }
        CvtF16F32 => {
            let mut a = z32();
            w.src32(i, 0, Ty::F32, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = h_out(i, f32::from_bits(a[l]));
            }
            w.write_result16(i, &d);
        }
        CvtF16U16 | CvtF16I16 => {
            let mut a = z32();
            src16(w, i, 0, Ty::U, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                let x = if op == CvtF16U16 { f32::from(a[l] as u16) } else { f32::from(a[l] as u16 as i16) };
                d[l] = h_out(i, x);
            }
            w.write_result16(i, &d);
        }
        CvtU16F16 | CvtI16F16 => {
            let mut a = z32();
            src16(w, i, 0, Ty::F16, &mut a);
            let mut d = z32();
            for l in 0..w.lanes {
                let x = f16_to_f32(a[l] as u16);
                d[l] = if op == CvtU16F16 { u32::from(x as u16) } else { u32::from(x as i16 as u16) };
            }
            w.write_result16(i, &d);
        }
        PackB32F16 => {
            let (mut a, mut b) = (z32(), z32());
            src16(w, i, 0, Ty::F16, &mut a);
            src16(w, i, 1, Ty::F16, &mut b);
            let mut d = z32();
            for l in 0..w.lanes {
                d[l] = (a[l] & 0xffff) | (b[l] << 16);
            }
            let mut j = i.clone_without_y();
            j.mods.opsel &= 7;
            w.write_result32(&j, &mut d);
        }
        Dot2cF32F16 => {
            let (mut a, mut b, mut c) = (z32(), z32(), z32());
            w.src32(i, 0, Ty::U, &mut a);
            w.src32(i, 1, Ty::U, &mut b);
            w.raw32(i.dst, 0, Ty::F32, &mut c);
            let mut d = z32();
            for l in 0..w.lanes {
                let lo = f16_to_f32(a[l] as u16) * f16_to_f32(b[l] as u16);
                let hi = f16_to_f32((a[l] >> 16) as u16) * f16_to_f32((b[l] >> 16) as u16);
                d[l] = (f32::from_bits(c[l]) + lo + hi).to_bits();
            }
            w.write_result32(i, &mut d);
        }
        // D = S2 + the sum of the four byte products of S0 and S1 (unsigned or signed bytes); with clamp the
        // sum saturates to the result type instead of wrapping (VOP3P, CDNA/RDNA ISA "V_DOT4_*").
        Dot4U32U8 | Dot4I32I8 => {
            let (mut a, mut b, mut c) = (z32(), z32(), z32());
            w.src32(i, 0, Ty::U, &mut a);
            w.src32(i, 1, Ty::U, &mut b);
            w.src32(i, 2, Ty::U, &mut c);
            let signed = op == Dot4I32I8;
            let mut d = z32();
            for l in 0..w.lanes {
                let byte = |x: u32, k: u32| {
                    let v = (x >> (8 * k)) as u8;
                    if signed {
                        i64::from(v as i8)
                    } else {
                        i64::from(v)
                    }
                };
                let acc = if signed { i64::from(c[l] as i32) } else { i64::from(c[l]) };
                let sum = (0..4).fold(acc, |s, k| s + byte(a[l], k) * byte(b[l], k));
                d[l] = match (i.mods.clamp, signed) {
                    (true, true) => sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
                    (true, false) => sum.min(i64::from(u32::MAX)) as u32,
                    (false, _) => sum as u32,
                };
            }
            w.write_result32(i, &mut d);
        }
        FmaMixF32 | FmaMixloF16 | FmaMixhiF16 | PkAddF16 | PkMulF16 | PkFmaF16 | PkMinF16 | PkMaxF16 | PkAddU16
        | PkSubU16 | PkAddI16 | PkSubI16 | PkMulLoU16 | PkLshlrevB16 | PkLshrrevB16 | PkAshrrevI16 | PkMaxU16
        | PkMinU16 | PkMaxI16 | PkMinI16 | PkMadU16 | PkMovB32 | PkFmaF32 | PkMulF32 | PkAddF32 => {
            super::packed::exec(w, i, op)?
        }
    }
    Ok(Flow::Next)
}

fn cvt_from_u32<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(u32) -> f32) {
    if plain_m::<M>(i) {
        return fast1::<M>(w, i, Ty::U, |a| f(a).to_bits());
    }
    let mut a = z32();
    w.src32(i, 0, Ty::U, &mut a);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = out_mod32(i, f(a[l])).to_bits();
    }
    w.write_result32(i, &mut d);
}

fn cvt_to_u32<const M: usize>(w: &mut Wave, i: &Inst, f: impl Fn(f32) -> u32) {
    if plain_m::<M>(i) {
        return fast1::<M>(w, i, Ty::F32, |a| f(f32::from_bits(a)));
    }
    let mut a = z32();
    w.src32(i, 0, Ty::F32, &mut a);
    let mut d = z32();
    for l in 0..w.lanes {
        d[l] = f(f32::from_bits(a[l]));
    }
    w.write_result32(i, &mut d);
}
