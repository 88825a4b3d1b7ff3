//! Packed math (VOP3P): two 16-bit halves per VGPR (`v_pk_*_f16/u16/i16`), the CDNA packed-f32 ops on VGPR
//! pairs (`v_pk_fma_f32`, `v_pk_mov_b32`) and the mixed-precision `v_fma_mix*`.
//!
//! Operand halves: the low result half reads the half `op_sel` names for each source, the high result half
//! the half `op_sel_hi` names; `neg`/`neg_hi` negate the low/high inputs of float ops.

use super::float::{f16_to_f32, f32_to_f16, fmax32, fmin32};
use super::Stop;
use crate::decode::Inst;
use crate::op::VOp;
use crate::wave::{Lanes32, Lanes64, Ty, Wave, MAX_LANES};

fn clamp01(v: f32, on: bool) -> f32 {
    if !on {
        return v;
    }
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// Halves of source `k` for the low and high results (as raw 16-bit values, float negation applied).
fn halves(i: &Inst, k: usize, v: u32, float: bool) -> (u16, u16) {
    let pick = |hi: bool| if hi { (v >> 16) as u16 } else { v as u16 };
    let mut lo = pick(i.mods.opsel >> k & 1 != 0);
    let mut hi = pick(i.mods.opsel_hi >> k & 1 != 0);
    if float {
        if i.mods.neg >> k & 1 != 0 {
            lo ^= 0x8000;
        }
        if i.mods.neg_hi >> k & 1 != 0 {
            hi ^= 0x8000;
        }
    }
    (lo, hi)
}

fn pk16(w: &mut Wave, i: &Inst, n: usize, float: bool, f: impl Fn(u16, u16, u16) -> u16) {
    let mut s: [Lanes32; 3] = [[0; MAX_LANES]; 3];
    let ty = if float { Ty::F16 } else { Ty::U };
    for (k, sk) in s.iter_mut().enumerate().take(n) {
        w.raw32(i.src[k], i.lit, ty, sk);
    }
    let mut d = [0u32; MAX_LANES];
    for l in 0..w.lanes {
        let mut h = [(0u16, 0u16); 3];
        for k in 0..n {
            h[k] = halves(i, k, s[k][l], float);
        }
        let lo = f(h[0].0, h[1].0, h[2].0);
        let hi = f(h[0].1, h[1].1, h[2].1);
        d[l] = u32::from(lo) | (u32::from(hi) << 16);
    }
    let m = w.vmask(i);
    w.write32(i.dst, m, &d);
}

fn hf(i: &Inst, f: impl Fn(f32, f32, f32) -> f32) -> impl Fn(u16, u16, u16) -> u16 {
    let clamp = i.mods.clamp;
    move |a, b, c| f32_to_f16(clamp01(f(f16_to_f32(a), f16_to_f32(b), f16_to_f32(c)), clamp))
}

/// Source `code` of a packed 32-bit operation as 64-bit lanes. An inline constant is a 32-bit value (the
/// f32 one for the float constants) in the low dword with 0 above it, as LLVM assumes: its code generator
/// gives a constant operand `op_sel_hi` 0 so that both halves read the low dword.
fn pk32_src(w: &Wave, code: u16, lit: u32, out: &mut Lanes64) {
    if matches!(code, 128..=208 | 240..=248) {
        out.fill(u64::from(w.s32(code, lit, Ty::F32)));
    } else {
        w.raw64(code, lit, Ty::U, out);
    }
}

/// Packed f32 on VGPR pairs: `f(lo inputs)` and `f(hi inputs)`.
fn pk32(w: &mut Wave, i: &Inst, n: usize, f: impl Fn(f32, f32, f32) -> f32) {
    let mut s: [Lanes64; 3] = [[0; MAX_LANES]; 3];
    for (k, sk) in s.iter_mut().enumerate().take(n) {
        pk32_src(w, i.src[k], i.lit, sk);
    }
    let mut d = [0u64; MAX_LANES];
    for l in 0..w.lanes {
        let mut lo = [0f32; 3];
        let mut hi = [0f32; 3];
        for k in 0..n {
            let v = s[k][l];
            let pick = |h: bool| f32::from_bits(if h { (v >> 32) as u32 } else { v as u32 });
            lo[k] = pick(i.mods.opsel >> k & 1 != 0);
            hi[k] = pick(i.mods.opsel_hi >> k & 1 != 0);
            if i.mods.neg >> k & 1 != 0 {
                lo[k] = -lo[k];
            }
            if i.mods.neg_hi >> k & 1 != 0 {
                hi[k] = -hi[k];
            }
        }
        let rl = clamp01(f(lo[0], lo[1], lo[2]), i.mods.clamp);
        let rh = clamp01(f(hi[0], hi[1], hi[2]), i.mods.clamp);
        d[l] = u64::from(rl.to_bits()) | (u64::from(rh.to_bits()) << 32);
    }
    let m = w.vmask(i);
    w.write64(i.dst, m, &d);
}

fn fma_mix(w: &mut Wave, i: &Inst, op: VOp) {
    let mut s: [Lanes32; 3] = [[0; MAX_LANES]; 3];
    for (k, sk) in s.iter_mut().enumerate() {
        // A source used as f16 takes f16 inline constants, one used as f32 takes f32 ones.
        let ty = if i.mods.opsel_hi >> k & 1 != 0 { Ty::F16 } else { Ty::F32 };
        w.raw32(i.src[k], i.lit, ty, sk);
    }
    let mut old = [0u32; MAX_LANES];
    w.raw32(i.dst, 0, Ty::U, &mut old);
    let mut d = [0u32; MAX_LANES];
    for l in 0..w.lanes {
        let mut x = [0f32; 3];
        for k in 0..3 {
            let v = s[k][l];
            let mut f = if i.mods.opsel_hi >> k & 1 == 0 {
                f32::from_bits(v)
            } else if i.mods.opsel >> k & 1 != 0 {
                f16_to_f32((v >> 16) as u16)
            } else {
                f16_to_f32(v as u16)
            };
            // For the mix ops, neg_hi is the abs modifier.
            if i.mods.neg_hi >> k & 1 != 0 {
                f = f.abs();
            }
            if i.mods.neg >> k & 1 != 0 {
                f = -f;
            }
            x[k] = f;
        }
        let r = clamp01(x[0].mul_add(x[1], x[2]), i.mods.clamp);
        d[l] = match op {
            VOp::FmaMixF32 => r.to_bits(),
            VOp::FmaMixloF16 => (old[l] & 0xffff_0000) | u32::from(f32_to_f16(r)),
            _ => (old[l] & 0xffff) | (u32::from(f32_to_f16(r)) << 16),
        };
    }
    let m = w.vmask(i);
    w.write32(i.dst, m, &d);
}

/// Executes a packed (VOP3P) operation.
pub(super) fn exec(w: &mut Wave, i: &Inst, op: VOp) -> Result<(), Stop> {
    use VOp::*;
    match op {
        FmaMixF32 | FmaMixloF16 | FmaMixhiF16 => fma_mix(w, i, op),
        PkAddF16 => pk16(w, i, 2, true, hf(i, |a, b, _| a + b)),
        PkMulF16 => pk16(w, i, 2, true, hf(i, |a, b, _| a * b)),
        PkFmaF16 => pk16(w, i, 3, true, hf(i, |a, b, c| (f64::from(a).mul_add(f64::from(b), f64::from(c))) as f32)),
        PkMinF16 => pk16(w, i, 2, true, hf(i, |a, b, _| fmin32(a, b))),
        PkMaxF16 => pk16(w, i, 2, true, hf(i, |a, b, _| fmax32(a, b))),
        PkAddU16 | PkAddI16 => pk16(w, i, 2, false, |a, b, _| a.wrapping_add(b)),
        PkSubU16 | PkSubI16 => pk16(w, i, 2, false, |a, b, _| a.wrapping_sub(b)),
        PkMulLoU16 => pk16(w, i, 2, false, |a, b, _| a.wrapping_mul(b)),
        PkLshlrevB16 => pk16(w, i, 2, false, |a, b, _| b << (a & 15)),
        PkLshrrevB16 => pk16(w, i, 2, false, |a, b, _| b >> (a & 15)),
        PkAshrrevI16 => pk16(w, i, 2, false, |a, b, _| ((b as i16) >> (a & 15)) as u16),
        PkMaxU16 => pk16(w, i, 2, false, |a, b, _| a.max(b)),
        PkMinU16 => pk16(w, i, 2, false, |a, b, _| a.min(b)),
        PkMaxI16 => pk16(w, i, 2, false, |a, b, _| (a as i16).max(b as i16) as u16),
        PkMinI16 => pk16(w, i, 2, false, |a, b, _| (a as i16).min(b as i16) as u16),
        PkMadU16 => pk16(w, i, 3, false, |a, b, c| a.wrapping_mul(b).wrapping_add(c)),
        PkFmaF32 => pk32(w, i, 3, f32::mul_add),
        PkMulF32 => pk32(w, i, 2, |a, b, _| a * b),
        PkAddF32 => pk32(w, i, 2, |a, b, _| a + b),
        PkMovB32 => {
            // D.lo = src0's half op_sel[0] names, D.hi = src1's half op_sel[1] names.
            let (mut a, mut b) = ([0u64; MAX_LANES], [0u64; MAX_LANES]);
            pk32_src(w, i.src[0], i.lit, &mut a);
            pk32_src(w, i.src[1], i.lit, &mut b);
            let mut d = [0u64; MAX_LANES];
            for l in 0..w.lanes {
                let lo = if i.mods.opsel & 1 != 0 { a[l] >> 32 } else { a[l] & 0xffff_ffff };
                let hi = if i.mods.opsel & 2 != 0 { b[l] >> 32 } else { b[l] & 0xffff_ffff };
                d[l] = lo | (hi << 32);
            }
            let m = w.vmask(i);
            w.write64(i.dst, m, &d);
        }
        _ => return Err(Stop::Unimplemented),
    }
    Ok(())
}
