//! Matrix instructions: CDNA's `v_mfma_*` and RDNA3's `v_wmma_*`, `D = A * B + C` over the whole wave, with the operand layouts of
//! AMD's matrix instruction calculator ([`Mfma::acc_position`], [`Mfma::a_position`], [`Mfma::b_position`]).
//!
//! Implemented: the single-block shapes `v_mfma_f32_16x16x4f32`, `v_mfma_f32_32x32x2f32`,
//! `v_mfma_f64_16x16x4f64`, `v_mfma_f32_16x16x16f16`, `v_mfma_f32_32x32x8f16` and their bf16 forms
//! (`v_mfma_f32_16x16x16bf16_1k`, `v_mfma_f32_32x32x8bf16_1k`; gfx94x drop the `_1k`). The
//! accumulation order of the hardware is not documented; each element is `C` followed by the `k` products
//! added with fused multiply-adds in `k` order, which is exact whenever the products and sums are (the
//! tests use such values). The broadcast controls (`CBSZ`, `ABID`, `BLGP`) must be 0 and EXEC all ones
//! (the hardware ignores EXEC for these; a kernel that clears lanes first is reported rather than guessed).

use super::float::{f16_to_f32, f32_to_f16};
use super::{Flow, Stop};
use crate::decode::{Inst, VGPR0};
use crate::op::{Mfma, MfmaTy, Wmma};
use crate::wave::{Lanes32, Wave, ROWS};

/// The register row of a VGPR/AGPR operand code.
fn row(code: u16) -> Option<usize> {
    (code >= VGPR0).then(|| usize::from(code - VGPR0))
}

pub(super) fn exec(w: &mut Wave, i: &Inst, m: Mfma) -> Result<Flow, Stop> {
    if w.lanes != 64 || w.exec() != u64::MAX {
        return Err(Stop::Invalid(format!("{} with EXEC {:#x} (only all 64 lanes are supported)", i.name, w.exec())));
    }
    // CBSZ (bits 10:8), ABID (14:11) sit where VOP3P's neg_hi and op_sel are; BLGP where neg is.
    if i.mods.neg_hi != 0 || i.mods.opsel != 0 || i.mods.opsel_hi & 4 != 0 || i.mods.neg != 0 {
        return Err(Stop::Invalid(format!("{} with CBSZ/ABID/BLGP broadcast (not supported)", i.name)));
    }
    let (Some(a), Some(b), Some(d)) = (row(i.src[0]), row(i.src[1]), row(i.dst)) else {
        return Err(Stop::Invalid(format!("{} with a constant A or B operand (not supported)", i.name)));
    };
    let regs = m.acc_regs();
    let c_row = row(i.src[2]);
    if d + regs > ROWS || c_row.is_some_and(|c| c + regs > ROWS) {
        return Err(Stop::Invalid(format!("{}: accumulator registers past the register file", i.name)));
    }
    // C: registers, or one constant for every element (`0` is common).
    let c_const = c_row.is_none().then(|| f32::from_bits(w.s32(i.src[2], i.lit, crate::wave::Ty::F32)));
    let (mm, nn, kk) = (usize::from(m.m), usize::from(m.n), usize::from(m.k));
    if m.ty == MfmaTy::F64 {
        return exec_f64(w, i, m, a, b, d, c_row);
    }
    let mut out = vec![[0u32; 64]; regs];
    for ii in 0..mm {
        for j in 0..nn {
            let (r, lane) = m.acc_position(ii, j);
            let mut acc = match (c_const, c_row) {
                (Some(c), _) => c,
                (None, Some(c)) => f32::from_bits(w.vr(c + r, lane)),
                (None, None) => unreachable!("C is a constant or a register"),
            };
            for k in 0..kk {
                let x = elem(w, a, m.a_position(ii, k), m.ty);
                let y = elem(w, b, m.b_position(k, j), m.ty);
                acc = x.mul_add(y, acc);
            }
            out[r][lane] = acc.to_bits();
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// One f32, f16 or bf16 element of A or B at (register offset, lane, high half); f16 and bf16 widen
/// exactly to f32, so their products are exact and accumulate in f32.
fn elem(w: &Wave, base: usize, (r, lane, hi): (usize, usize, bool), ty: MfmaTy) -> f32 {
    let v = w.vr(base + r, lane);
    let half = if hi { v >> 16 } else { v & 0xffff };
    match ty {
        MfmaTy::F16 => f16_to_f32(half as u16),
        // bf16 is the high half of an f32.
        MfmaTy::Bf16 => f32::from_bits(half << 16),
        _ => f32::from_bits(v),
    }
}

/// The f64 shapes: every element a register pair (low dword first), A and B one pair per lane.
fn exec_f64(w: &mut Wave, i: &Inst, m: Mfma, a: usize, b: usize, d: usize, c_row: Option<usize>) -> Result<Flow, Stop> {
    let pair = |w: &Wave, r: usize, lane: usize| {
        f64::from_bits(u64::from(w.vr(r, lane)) | (u64::from(w.vr(r + 1, lane)) << 32))
    };
    let c_const = match c_row {
        Some(_) => None,
        None => Some(f64::from_bits(w.s64(i.src[2], i.lit, crate::wave::Ty::F64))),
    };
    let (mm, nn, kk) = (usize::from(m.m), usize::from(m.n), usize::from(m.k));
    let mut out = vec![[0u32; 64]; m.acc_regs()];
    for ii in 0..mm {
        for j in 0..nn {
            let (r, lane) = m.acc_position(ii, j);
            let mut acc = match (c_const, c_row) {
                (Some(c), _) => c,
                (None, Some(c)) => pair(w, c + r, lane),
                (None, None) => unreachable!("C is a constant or a register"),
            };
            for k in 0..kk {
                acc = pair(w, a, m.a_position(ii, k).1).mul_add(pair(w, b, m.b_position(k, j).1), acc);
            }
            let bits = acc.to_bits();
            out[r][lane] = bits as u32;
            out[r + 1][lane] = (bits >> 32) as u32;
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// gfx11 `v_wmma_*_16x16x16_f16/bf16` in wave32 (AMD's matrix instruction calculator, `-a RDNA3 -w 32`):
/// `A[i][k]` in register `k/2`, half `k%2` of lanes `i` and `i + 16` (RDNA3 duplicates A and B across the
/// lane halves; the lower copy is read), `B[k][j]` likewise in lanes `j` and `j + 16`, `C`/`D[i][j]` in
/// register `i/2`, lane `j + 16*(i%2)`; 16-bit C and D sit in the half OPSEL[2] selects (the other half
/// of D is kept), and the f32 sum is rounded to the output type once. gfx12's layout (no duplication)
/// and wave64 are not implemented.
pub(super) fn wmma(w: &mut Wave, i: &Inst, x: Wmma) -> Result<Flow, Stop> {
    if w.family != crate::target::Family::Gfx11 || w.lanes != 32 {
        return Err(Stop::Unimplemented);
    }
    if w.exec() != u64::from(u32::MAX) {
        return Err(Stop::Invalid(format!("{} with EXEC {:#x} (only all 32 lanes are supported)", i.name, w.exec())));
    }
    if i.mods.neg != 0 || i.mods.neg_hi != 0 || i.mods.clamp || i.mods.opsel & 3 != 0 {
        return Err(Stop::Invalid(format!("{} with neg/clamp/op_sel[1:0] modifiers (not supported)", i.name)));
    }
    let (Some(a), Some(b), Some(d)) = (row(i.src[0]), row(i.src[1]), row(i.dst)) else {
        return Err(Stop::Invalid(format!("{} with a constant A or B operand (not supported)", i.name)));
    };
    let c_row = row(i.src[2]);
    if d + 8 > ROWS || a + 8 > ROWS || b + 8 > ROWS || c_row.is_some_and(|c| c + 8 > ROWS) {
        return Err(Stop::Invalid(format!("{}: operands past the register file", i.name)));
    }
    let hi = x.out16 && i.mods.opsel & 4 != 0;
    let c_ty = if x.out16 { x.input } else { MfmaTy::F32 };
    let c_const = match c_row {
        Some(_) => None,
        None if x.out16 => return Err(Stop::Invalid(format!("{} with a constant C (not supported)", i.name))),
        None => Some(f32::from_bits(w.s32(i.src[2], i.lit, crate::wave::Ty::F32))),
    };
    let mut out: Vec<Lanes32> = (0..8).map(|r| w.vrow(d + r)).collect();
    for ii in 0..16 {
        for j in 0..16 {
            let (r, lane) = (ii / 2, j + 16 * (ii % 2));
            let mut acc = match (c_const, c_row) {
                (Some(c), _) => c,
                (None, Some(c)) => elem(w, c, (r, lane, hi), c_ty),
                (None, None) => unreachable!("C is a constant or a register"),
            };
            for k in 0..16 {
                let xa = elem(w, a, (k / 2, ii, k % 2 == 1), x.input);
                let yb = elem(w, b, (k / 2, j, k % 2 == 1), x.input);
                acc = xa.mul_add(yb, acc);
            }
            out[r][lane] = if x.out16 {
                let h = match x.input {
                    MfmaTy::Bf16 => bf16_rne(acc),
                    _ => u32::from(f32_to_f16(acc)),
                };
                if hi {
                    (out[r][lane] & 0xffff) | (h << 16)
                } else {
                    (out[r][lane] & 0xffff_0000) | h
                }
            } else {
                acc.to_bits()
            };
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// f32 to bf16 bits, round to nearest even (NaN kept quiet).
fn bf16_rne(v: f32) -> u32 {
    let b = v.to_bits();
    if v.is_nan() {
        return (b >> 16) | 0x40;
    }
    (b + 0x7fff + ((b >> 16) & 1)) >> 16
}
