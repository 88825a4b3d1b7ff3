//! Matrix instructions: CDNA's `v_mfma_*`/`v_smfmac_*` and RDNA's `v_wmma_*`, `D = A * B + C` over the whole wave, with the operand layouts of
//! AMD's matrix instruction calculator ([`Mfma::acc_position`], [`Mfma::a_position`], [`Mfma::b_position`]).
//!
//! Implemented: every gfx908/gfx90a/gfx94x `v_mfma_*` with f32, f16, bf16 (both the two-per-register
//! forms and `_1k`), i8, f64, (gfx942) xf32 (inputs truncated to 10 mantissa bits, [`MfmaTy::xf32`]) and
//! (gfx94x, gfx950) fp8/bf8 inputs in the target's 8-bit float formats, single- and multi-block (`4x4`, `16x16x1`, `32x32x1`, ...), with
//! the `CBSZ`/`ABID` block broadcast of A and the `BLGP` lane patterns of B. The accumulation order of
//! the hardware is not documented; each element is `C` followed by the `k` products added with fused
//! multiply-adds in `k` order, which is exact whenever the products and sums are (the tests use such
//! values); i8 products accumulate in i32 with wrap-around. On gfx950 EXEC is ignored (all 64 lanes read
//! and write, as AMD's CDNA4 ISA guide says); elsewhere EXEC must be all ones (a kernel that clears lanes
//! first is reported rather than guessed: no guide I had says it for CDNA1-3), and an f64 form
//! with BLGP set (gfx94x reuse the field as negate bits) is reported. The gfx94x `v_smfmac_*` (4:2
//! sparse A with an index register) run too ([`sparse`]), with gfx950's four-register forms, and so do
//! gfx950's `v_mfma_*_f8f6f4` with and without block scales ([`f8f6f4`], [`ld_scale`]) and gfx12's `v_swmmac_*` ([`swmmac`]).

use super::float::{f16_to_f32, f32_to_f16};
use super::{Flow, Stop};
use crate::decode::{Inst, VGPR0};
use crate::op::{F8f6f4, Mfma, MfmaTy, Wmma};
use crate::wave::{Lanes32, Wave, ROWS};

/// The register row of a VGPR/AGPR operand code.
fn row(code: u16) -> Option<usize> {
    (code >= VGPR0).then(|| usize::from(code - VGPR0))
}

/// The lane of B an instruction reads instead of `lane` under BLGP (AMD's calculator): 1 and 2 broadcast
/// the low or high 32 lanes, 3 rotates down by 16, 4..7 broadcast one group of 16 lanes.
pub(crate) fn blgp_lane(lane: usize, blgp: u8) -> usize {
    match blgp {
        1 => lane % 32,
        2 => 32 + lane % 32,
        3 => (lane + 16) % 64,
        4..=7 => usize::from(blgp - 4) * 16 + lane % 16,
        _ => lane,
    }
}

/// The block of A an instruction reads for block `blk` under CBSZ/ABID: block `abid` of each group of
/// `2^cbsz` blocks is broadcast to the group.
pub(crate) fn cbsz_block(blk: usize, cbsz: u8, abid: u8) -> usize {
    let group = 1usize << cbsz;
    blk / group * group + usize::from(abid)
}

/// One element of A or B at (register offset, lane, bit offset) as the accumulator type wants it.
#[derive(Clone, Copy)]
enum Val {
    F(f32),
    I(i32),
    D(f64),
}

fn read(w: &Wave, base: usize, (r, lane, bit): (usize, usize, usize), ty: MfmaTy) -> Val {
    let v = w.vr(base + r, lane) >> bit;
    match ty {
        MfmaTy::F32 => Val::F(f32::from_bits(v)),
        // Products of two 11-bit significands are exact in f32.
        MfmaTy::Xf32 => Val::F(MfmaTy::xf32(v)),
        MfmaTy::F16 => Val::F(f16_to_f32(v as u16)),
        // bf16 is the high half of an f32.
        MfmaTy::Bf16 => Val::F(f32::from_bits((v & 0xffff) << 16)),
        MfmaTy::I8 => Val::I(i32::from(v as u8 as i8)),
        MfmaTy::I4 => Val::I(i32::from(((v as u8) << 4) as i8 >> 4)),
        // 8-bit floats widen exactly; their products are exact in f32.
        MfmaTy::Fp8 | MfmaTy::Bf8 => Val::F(ty.f8_to_f32(v as u8, w.fp8_fnuz)),
        MfmaTy::F64 => Val::D(f64::from_bits(u64::from(v) | (u64::from(w.vr(base + r + 1, lane)) << 32))),
    }
}

pub(super) fn exec(w: &mut Wave, i: &Inst, m: Mfma) -> Result<Flow, Stop> {
    // The scales of a preceding `v_mfma_ld_scale_b32` belong to this instruction only (CDNA4 ISA guide,
    // 7.2.1: "used just for one instruction and does not carry forward into non-scale MFMA ops").
    let scale = w.mfma_scale.take();
    if w.lanes != 64 || (w.exec() != u64::MAX && !w.matrix_ignores_exec) {
        return Err(Stop::Invalid(format!(
            "{} with EXEC {:#x} (all 64 lanes run only on gfx950, where the CDNA4 ISA guide says EXEC is ignored)",
            i.name,
            w.exec()
        )));
    }
    // CBSZ (bits 10:8) sits where VOP3P's neg_hi is, ABID (14:11) where op_sel and op_sel_hi[2] are,
    // BLGP (63:61) where neg is.
    let cbsz = i.mods.neg_hi & 7;
    let abid = (i.mods.opsel & 7) | (((i.mods.opsel_hi >> 2) & 1) << 3);
    let blgp = i.mods.neg & 7;
    if m.sparse {
        return sparse(w, i, m, cbsz, abid, blgp);
    }
    if m.f8f6f4 {
        return f8f6f4(w, i, m, cbsz, abid, blgp, scale.as_deref());
    }
    if (cbsz != 0 || abid != 0) && (1usize << cbsz > usize::from(m.blocks) || usize::from(abid) >= 1 << cbsz) {
        return Err(Stop::Invalid(format!("{} with CBSZ {cbsz} ABID {abid} for {} blocks", i.name, m.blocks)));
    }
    // AMD's calculator (CDNA3): the fp8/bf8 and xf32 forms support neither CBSZ/ABID nor BLGP.
    let no_mods = matches!(m.ty, MfmaTy::Fp8 | MfmaTy::Bf8 | MfmaTy::Xf32);
    if no_mods && (cbsz | abid | blgp) != 0 {
        return Err(Stop::Invalid(format!("{} with CBSZ {cbsz} ABID {abid} BLGP {blgp} (not supported)", i.name)));
    }
    if blgp != 0 && m.ty == MfmaTy::F64 {
        return Err(Stop::Invalid(format!("{} with BLGP/negate {blgp} (not supported)", i.name)));
    }
    let (Some(a), Some(b), Some(d)) = (row(i.src[0]), row(i.src[1]), row(i.dst)) else {
        return Err(Stop::Invalid(format!("{} with a constant A or B operand (not supported)", i.name)));
    };
    let regs = m.acc_regs();
    let c_row = row(i.src[2]);
    if d + regs > ROWS || a + m.a_regs() > ROWS || b + m.b_regs() > ROWS || c_row.is_some_and(|c| c + regs > ROWS) {
        return Err(Stop::Invalid(format!("{}: operands past the register file", i.name)));
    }
    // C: registers, or one constant for every element (`0` is common).
    let c_const = match c_row {
        Some(_) => None,
        None if m.ty == MfmaTy::F64 => Some(Val::D(f64::from_bits(w.s64(i.src[2], i.lit, crate::wave::Ty::F64)))),
        None if m.ty == MfmaTy::I8 => Some(Val::I(w.s32(i.src[2], i.lit, crate::wave::Ty::I) as i32)),
        None => Some(Val::F(f32::from_bits(w.s32(i.src[2], i.lit, crate::wave::Ty::F32)))),
    };
    let (mm, nn, kk) = (usize::from(m.m), usize::from(m.n), usize::from(m.k));
    let mut out = vec![[0u32; 64]; regs];
    let c_elem = |w: &Wave, r: usize, lane: usize| match (c_const, c_row) {
        (Some(c), _) => c,
        (None, Some(c)) => match m.ty {
            MfmaTy::F64 => read(w, c, (r, lane, 0), MfmaTy::F64),
            MfmaTy::I8 => Val::I(w.vr(c + r, lane) as i32),
            _ => read(w, c, (r, lane, 0), MfmaTy::F32),
        },
        (None, None) => unreachable!("C is a constant or a register"),
    };
    // A and B are read once into row-major arrays (`a[blk][i][k]`, `b[blk][j][k]`: the k values of one
    // product contiguous), then every element of D is C plus its k products in k order.
    let blocks = usize::from(m.blocks);
    let mut av = Vec::with_capacity(blocks * mm * kk);
    let mut bv = Vec::with_capacity(blocks * nn * kk);
    for blk in 0..blocks {
        let ablk = cbsz_block(blk, cbsz, abid);
        for ii in 0..mm {
            for k in 0..kk {
                av.push(read(w, a, m.a_position(ablk, ii, k), m.ty));
            }
        }
        for j in 0..nn {
            for k in 0..kk {
                let (br, bl, bb) = m.b_position(blk, k, j);
                bv.push(read(w, b, (br, blgp_lane(bl, blgp), bb), m.b_ty));
            }
        }
    }
    for blk in 0..blocks {
        for ii in 0..mm {
            let arow = &av[(blk * mm + ii) * kk..][..kk];
            for j in 0..nn {
                let bcol = &bv[(blk * nn + j) * kk..][..kk];
                let (r, lane) = m.acc_position(blk, ii, j);
                match c_elem(w, r, lane) {
                    Val::F(c) => {
                        let mut acc = c;
                        for (x, y) in arow.iter().zip(bcol) {
                            if let (Val::F(x), Val::F(y)) = (x, y) {
                                acc = x.mul_add(*y, acc);
                            }
                        }
                        out[r][lane] = acc.to_bits();
                    }
                    Val::I(c) => {
                        let mut acc = c;
                        for (x, y) in arow.iter().zip(bcol) {
                            if let (Val::I(x), Val::I(y)) = (x, y) {
                                acc = acc.wrapping_add(x.wrapping_mul(*y));
                            }
                        }
                        out[r][lane] = acc as u32;
                    }
                    Val::D(c) => {
                        let mut acc = c;
                        for (x, y) in arow.iter().zip(bcol) {
                            if let (Val::D(x), Val::D(y)) = (x, y) {
                                acc = x.mul_add(*y, acc);
                            }
                        }
                        let bits = acc.to_bits();
                        out[r][lane] = bits as u32;
                        out[r + 1][lane] = (bits >> 32) as u32;
                    }
                }
            }
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// `v_smfmac_*` (gfx94x, gfx950): `D += A * B` with A 4:2 sparse. Each lane of A holds two values of every
/// group of four consecutive `k` ([`Mfma::sparse_a_position`], [`Mfma::sparse_k`]); the index register
/// (`SRC2`) holds for each stored value its 2-bit position in its group, the fields in the stored values'
/// order from the low bits. A set of fields has 2 bits per stored value of a lane (8 for 16-bit, 16 for
/// 8-bit inputs; 16 and 32 for gfx950's four-register forms), so a register holds `32 / set` sets: with
/// CBSZ 0, ABID picks one (its low bits: ABID[1:0] of four sets, ABID[0] of two, none of one), with
/// CBSZ set the first is read (AMD's calculator; CDNA4 ISA guide, 7.5). Each stored value is multiplied
/// by the row of B its index names ([`Mfma::sparse_b_position`]), in stored order; BLGP is not supported.
fn sparse(w: &mut Wave, i: &Inst, m: Mfma, cbsz: u8, abid: u8, blgp: u8) -> Result<Flow, Stop> {
    let kpl = usize::from(m.kpl);
    let stored = kpl / 2 * usize::from(m.halves);
    let sets = 32 / (2 * stored);
    let set = if cbsz == 0 { usize::from(abid) % sets } else { 0 };
    if blgp != 0 || cbsz > 3 {
        return Err(Stop::Invalid(format!("{} with CBSZ {cbsz} ABID {abid} BLGP {blgp} (not supported)", i.name)));
    }
    let (Some(a), Some(b), Some(d), Some(x)) = (row(i.src[0]), row(i.src[1]), row(i.dst), row(i.src[2])) else {
        return Err(Stop::Invalid(format!("{} with a constant operand (not supported)", i.name)));
    };
    let regs = m.acc_regs();
    if d + regs > ROWS || a + m.a_regs() > ROWS || b + m.b_regs() > ROWS || x >= ROWS {
        return Err(Stop::Invalid(format!("{}: operands past the register file", i.name)));
    }
    let (mm, nn, kk) = (usize::from(m.m), usize::from(m.n), usize::from(m.k));
    let groups = kk / usize::from(m.halves) / kpl;
    // Per row of A: (dense k, value) of every stored value, in stored order.
    let mut av = Vec::with_capacity(mm * kk / 2);
    for ii in 0..mm {
        for q in 0..groups {
            let lane = ii + mm * q;
            let idx = w.vr(x, lane) >> (set * 2 * stored);
            for slot in 0..stored {
                let pos = ((idx >> (2 * slot)) & 3) as usize;
                av.push((m.sparse_k(q, slot, pos), read(w, a, m.sparse_a_position(ii, q, slot), m.ty)));
            }
        }
    }
    let mut bv = Vec::with_capacity(nn * kk);
    for j in 0..nn {
        for k in 0..kk {
            bv.push(read(w, b, m.sparse_b_position(k, j), m.b_ty));
        }
    }
    let mut out = vec![[0u32; 64]; regs];
    for ii in 0..mm {
        let arow = &av[ii * kk / 2..][..kk / 2];
        for j in 0..nn {
            let bcol = &bv[j * kk..][..kk];
            let (r, lane) = m.acc_position(0, ii, j);
            let c = w.vr(d + r, lane);
            out[r][lane] = if m.ty == MfmaTy::I8 {
                let mut acc = c as i32;
                for &(k, x) in arow {
                    if let (Val::I(x), Val::I(y)) = (x, bcol[k]) {
                        acc = acc.wrapping_add(x.wrapping_mul(y));
                    }
                }
                acc as u32
            } else {
                let mut acc = f32::from_bits(c);
                for &(k, x) in arow {
                    if let (Val::F(x), Val::F(y)) = (x, bcol[k]) {
                        acc = x.mul_add(y, acc);
                    }
                }
                acc.to_bits()
            };
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// gfx950's `v_mfma_f32_{16x16x128,32x32x64}_f8f6f4`: `D = A * B + C` with A in the format CBSZ names
/// and B in the one BLGP names ([`F8f6f4`]: no broadcast here), laid out as [`F8f6f4::position`] says.
/// ABID[0] set (the second half of a `v_mfma_scale_*` pair) multiplies the dot product of each block of
/// 32 `k` by the E8M0 scales [`ld_scale`] picked: A's for row `i` and block `kb` in lane `i + M*kb`,
/// B's for column `j` in lane `j + M*kb` (CDNA4 ISA guide, 7.2 and 7.2.1: "the scales are applied after
/// the normal dot product prior to output/accumulation"). Every element is C plus its `k` products in `k`
/// order with fused multiply-adds (the small formats' products are exact in f32), per block when scaled,
/// each scaled block then added to the accumulator in block order. CDNA4 ISA guide, 7.1.5.
fn f8f6f4(
    w: &mut Wave,
    i: &Inst,
    m: Mfma,
    cbsz: u8,
    abid: u8,
    blgp: u8,
    scale: Option<&[[u8; 64]; 2]>,
) -> Result<Flow, Stop> {
    let (Some(fa), Some(fb)) = (F8f6f4::from_code(cbsz), F8f6f4::from_code(blgp)) else {
        return Err(Stop::Invalid(format!("{} with CBSZ {cbsz} BLGP {blgp} (no such format)", i.name)));
    };
    if abid > 1 {
        return Err(Stop::Invalid(format!("{} with ABID {abid} (only ABID[0], block scales, is defined)", i.name)));
    }
    let scale = match (abid, scale) {
        (0, _) => None,
        (_, Some(s)) => Some(s),
        (_, None) => {
            return Err(Stop::Invalid(format!(
                "{} with ABID[0] (block scales) not right after a v_mfma_ld_scale_b32",
                i.name
            )))
        }
    };
    let (Some(a), Some(b), Some(d)) = (row(i.src[0]), row(i.src[1]), row(i.dst)) else {
        return Err(Stop::Invalid(format!("{} with a constant A or B operand (not supported)", i.name)));
    };
    let regs = m.acc_regs();
    let c_row = row(i.src[2]);
    if d + regs > ROWS || a + fa.regs() > ROWS || b + fb.regs() > ROWS || c_row.is_some_and(|c| c + regs > ROWS) {
        return Err(Stop::Invalid(format!("{}: operands past the register file", i.name)));
    }
    let c_const = c_row.is_none().then(|| f32::from_bits(w.s32(i.src[2], i.lit, crate::wave::Ty::F32)));
    let (mm, kk) = (usize::from(m.m), usize::from(m.k));
    // One element: `bits` bits at `bit` of the lane's registers taken as one number (6-bit values cross
    // register boundaries).
    let elem = |w: &Wave, base: usize, f: F8f6f4, (lane, bit): (usize, usize)| {
        let lo = u64::from(w.vr(base + bit / 32, lane));
        let hi = if bit % 32 + f.bits() > 32 { u64::from(w.vr(base + bit / 32 + 1, lane)) << 32 } else { 0 };
        f.to_f32((((lo | hi) >> (bit % 32)) & ((1 << f.bits()) - 1)) as u32)
    };
    let mut av = Vec::with_capacity(mm * kk);
    let mut bv = Vec::with_capacity(mm * kk);
    for idx in 0..mm {
        for k in 0..kk {
            av.push(elem(w, a, fa, fa.position(mm, kk, idx, k)));
            bv.push(elem(w, b, fb, fb.position(mm, kk, idx, k)));
        }
    }
    let mut out = vec![[0u32; 64]; regs];
    for ii in 0..mm {
        let arow = &av[ii * kk..][..kk];
        for j in 0..mm {
            let bcol = &bv[j * kk..][..kk];
            let (r, lane) = m.acc_position(0, ii, j);
            let mut acc = match (c_const, c_row) {
                (Some(c), _) => c,
                (None, Some(c)) => f32::from_bits(w.vr(c + r, lane)),
                (None, None) => unreachable!("C is a constant or a register"),
            };
            match scale {
                None => {
                    for (x, y) in arow.iter().zip(bcol) {
                        acc = x.mul_add(*y, acc);
                    }
                }
                Some([sa, sb]) => {
                    for (kb, (xs, ys)) in arow.chunks(32).zip(bcol.chunks(32)).enumerate() {
                        let dot = xs.iter().zip(ys).fold(0f32, |d, (x, y)| x.mul_add(*y, d));
                        acc += e8m0_scaled(dot, sa[ii + mm * kb], sb[j + mm * kb]);
                    }
                }
            }
            out[r][lane] = acc.to_bits();
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// `x * 2^(ea-127) * 2^(eb-127)` for two E8M0 scales (bias 127, 0xFF is NaN: CDNA4 ISA guide, 7.2),
/// rounded once to f32.
fn e8m0_scaled(x: f32, ea: u8, eb: u8) -> f32 {
    if ea == 0xff || eb == 0xff {
        return f32::NAN;
    }
    (f64::from(x) * 2f64.powi(i32::from(ea) + i32::from(eb) - 254)) as f32
}

/// gfx950's `v_mfma_ld_scale_b32`, the first two dwords of a `v_mfma_scale_*` pair: per lane, the byte
/// `{OP_SEL_HI[0], OP_SEL[0]}` of SRC0 is A's scale and the byte `{OP_SEL_HI[1], OP_SEL[1]}` of SRC1 is
/// B's (CDNA4 ISA guide, 7.2.1), kept for the matrix instruction that follows ([`exec`] takes them). The
/// guide also allows inline float constants ("using only the exponent portion"); which byte of those the
/// select picks is not said, so a constant or SGPR scale is reported.
pub(super) fn ld_scale(w: &mut Wave, i: &Inst) -> Result<Flow, Stop> {
    let (Some(a), Some(b)) = (row(i.src[0]), row(i.src[1])) else {
        return Err(Stop::Invalid(format!("{} with a constant or SGPR scale (not supported)", i.name)));
    };
    if w.lanes != 64 || a >= ROWS || b >= ROWS {
        return Err(Stop::Invalid(format!("{}: 64 lanes of VGPRs expected", i.name)));
    }
    let byte = |n: u8| u32::from((i.mods.opsel >> n) & 1 | ((i.mods.opsel_hi >> n) & 1) << 1) * 8;
    let (sa, sb) = (byte(0), byte(1));
    let mut s = Box::new([[0u8; 64]; 2]);
    for lane in 0..64 {
        s[0][lane] = (w.vr(a, lane) >> sa) as u8;
        s[1][lane] = (w.vr(b, lane) >> sb) as u8;
    }
    w.mfma_scale = Some(s);
    Ok(Flow::Next)
}

/// One f32, f16 or bf16 element of a WMMA operand at (register offset, lane, high half); f16 and bf16
/// widen exactly to f32, so their products are exact and accumulate in f32.
fn elem(w: &Wave, base: usize, (r, lane, hi): (usize, usize, bool), ty: MfmaTy) -> f32 {
    match read(w, base, (r, lane, if hi { 16 } else { 0 }), ty) {
        Val::F(v) => v,
        Val::I(v) => v as f32,
        Val::D(v) => v as f32,
    }
}

/// `v_wmma_*` on gfx11 and gfx12, wave32 and wave64, with the layouts of [`Wmma::in_position`] and
/// [`Wmma::acc_position`]. 16-bit C and D: on gfx11 in the half OPSEL[2] selects (the other half of D
/// is kept), on gfx12 packed; the f32 sum is rounded to the output type once. Integer inputs (iu8,
/// iu4): NEG[0] and NEG[1] say A and B are signed (else unsigned), the i32 sum wraps, or saturates with
/// CLAMP. 16-bit float inputs (AMD's calculator, "NEG modifier"): NEG[0]/NEG_HI[0] negate the A values
/// read from bits 15:0/31:16, NEG[1]/NEG_HI[1] those of B, NEG_HI[2] takes C's absolute value and then
/// NEG[2] negates it; CLAMP does not affect float forms. fp8/bf8 (gfx12) take no NEG bits.
pub(super) fn wmma(w: &mut Wave, i: &Inst, x: Wmma) -> Result<Flow, Stop> {
    let gfx12 = match w.family {
        crate::target::Family::Gfx11 => false,
        crate::target::Family::Gfx12 => true,
        _ => return Err(Stop::Unimplemented),
    };
    let lanes = w.lanes;
    let all = if lanes == 64 { u64::MAX } else { u64::from(u32::MAX) };
    if w.exec() != all {
        return Err(Stop::Invalid(format!(
            "{} with EXEC {:#x} (only all {lanes} lanes are supported)",
            i.name,
            w.exec()
        )));
    }
    if x.sparse {
        return if gfx12 { swmmac(w, i, x) } else { Err(Stop::Unimplemented) };
    }
    let int = x.integer();
    let f8 = matches!(x.input, MfmaTy::Fp8 | MfmaTy::Bf8);
    let bad_mods = if int {
        i.mods.neg & 4 != 0 || i.mods.neg_hi != 0 || i.mods.opsel != 0
    } else if f8 {
        i.mods.neg != 0 || i.mods.neg_hi != 0 || i.mods.opsel != 0
    } else {
        i.mods.opsel & 3 != 0 || (gfx12 && i.mods.opsel != 0)
    };
    if bad_mods {
        return Err(Stop::Invalid(format!("{} with neg/op_sel modifiers it does not take", i.name)));
    }
    let (Some(a), Some(b), Some(d)) = (row(i.src[0]), row(i.src[1]), row(i.dst)) else {
        return Err(Stop::Invalid(format!("{} with a constant A or B operand (not supported)", i.name)));
    };
    let (ir, acc) = (x.in_regs(gfx12, lanes), x.acc_regs(gfx12, lanes));
    let c_row = row(i.src[2]);
    if d + acc > ROWS || a + ir > ROWS || b + ir > ROWS || c_row.is_some_and(|c| c + acc > ROWS) {
        return Err(Stop::Invalid(format!("{}: operands past the register file", i.name)));
    }
    let hi = x.out16 && !gfx12 && i.mods.opsel & 4 != 0;
    let c_const = match c_row {
        Some(_) => None,
        None if x.out16 => return Err(Stop::Invalid(format!("{} with a constant C (not supported)", i.name))),
        None => Some(w.s32(i.src[2], i.lit, if int { crate::wave::Ty::I } else { crate::wave::Ty::F32 })),
    };
    let (a_signed, b_signed) = (i.mods.neg & 1 != 0, i.mods.neg & 2 != 0);
    let bits = x.input.bits();
    let int_elem = |w: &Wave, base: usize, (r, lane, bit): (usize, usize, usize), signed: bool| {
        let v = u64::from(w.vr(base + r, lane) >> bit) & ((1u64 << bits) - 1);
        if signed && v >> (bits - 1) != 0 {
            v as i64 - (1i64 << bits)
        } else {
            v as i64
        }
    };
    // The sign a 16-bit float operand gets from NEG (low half) or NEG_HI (high half), bit `n`.
    let sign = |n: u8, bit: usize| {
        let m = if bit == 16 { i.mods.neg_hi } else { i.mods.neg };
        if m >> n & 1 != 0 {
            -1.0f32
        } else {
            1.0
        }
    };
    let kk = usize::from(x.k);
    let mut out: Vec<Lanes32> = (0..acc).map(|r| w.vrow(d + r)).collect();
    for ii in 0..16 {
        for j in 0..16 {
            let (r, lane, bit) = x.acc_position(gfx12, lanes, ii, j);
            let bit = if hi { 16 } else { bit };
            let value = if int {
                let mut sum = match (c_const, c_row) {
                    (Some(c), _) => i64::from(c as i32),
                    (None, Some(c)) => i64::from(w.vr(c + r, lane) as i32),
                    (None, None) => unreachable!("C is a constant or a register"),
                };
                for k in 0..kk {
                    let xa = int_elem(w, a, x.in_position(gfx12, lanes, ii, k), a_signed);
                    let yb = int_elem(w, b, x.in_position(gfx12, lanes, j, k), b_signed);
                    sum += xa * yb;
                }
                if i.mods.clamp {
                    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
                } else {
                    sum as i32 as u32
                }
            } else {
                let c_ty = if x.out16 { x.input } else { MfmaTy::F32 };
                let mut acc_v = match (c_const, c_row) {
                    (Some(c), _) => f32::from_bits(c),
                    (None, Some(c)) => elem(w, c, (r, lane, bit == 16), c_ty),
                    (None, None) => unreachable!("C is a constant or a register"),
                };
                if i.mods.neg_hi & 4 != 0 {
                    acc_v = acc_v.abs();
                }
                if i.mods.neg & 4 != 0 {
                    acc_v = -acc_v;
                }
                for k in 0..kk {
                    let (ra, la, ba) = x.in_position(gfx12, lanes, ii, k);
                    let (rb, lb, bb) = x.in_position(gfx12, lanes, j, k);
                    let (ya, yb) = if f8 {
                        (read(w, a, (ra, la, ba), x.input), read(w, b, (rb, lb, bb), x.b_input))
                    } else {
                        (
                            Val::F(sign(0, ba) * elem(w, a, (ra, la, ba == 16), x.input)),
                            Val::F(sign(1, bb) * elem(w, b, (rb, lb, bb == 16), x.b_input)),
                        )
                    };
                    if let (Val::F(ya), Val::F(yb)) = (ya, yb) {
                        acc_v = ya.mul_add(yb, acc_v);
                    }
                }
                if x.out16 {
                    let h = match x.input {
                        MfmaTy::Bf16 => bf16_rne(acc_v),
                        _ => u32::from(f32_to_f16(acc_v)),
                    };
                    out[r][lane] =
                        if bit == 16 { (out[r][lane] & 0xffff) | (h << 16) } else { (out[r][lane] & 0xffff_0000) | h };
                    continue;
                }
                acc_v.to_bits()
            };
            out[r][lane] = value;
        }
    }
    for (r, vals) in out.iter().enumerate() {
        w.set_vrow(d + r, vals);
    }
    Ok(Flow::Next)
}

/// gfx12's `v_swmmac_*`: `D += A * B` with A 4:2 sparse. Each group of four consecutive `k` of a row of
/// A is stored as two values ([`Wmma::sparse_a_position`]); the group's nibble in the index register
/// (`SRC2`, [`Wmma::index_position`]) holds their positions in the group, two bits each, first value
/// low; OPSEL picks the set of nibbles (`32 / sets` bits apart). Each stored value is multiplied by the
/// row of B its index names ([`Wmma::sparse_b_position`]), the products added to D in stored order.
/// NEG as for WMMA on A and B (16-bit floats: by the half the value sits in; integers: signedness);
/// NEG[2]/NEG_HI[2] do not exist here (C is D), fp8/bf8 take none; CLAMP saturates the integer forms.
fn swmmac(w: &mut Wave, i: &Inst, x: Wmma) -> Result<Flow, Stop> {
    let lanes = w.lanes;
    let int = x.integer();
    let f8 = matches!(x.input, MfmaTy::Fp8 | MfmaTy::Bf8);
    let set = usize::from(i.mods.opsel);
    let bad_mods = set >= x.index_sets(lanes)
        || i.mods.neg & 4 != 0
        || i.mods.neg_hi & 4 != 0
        || (int && i.mods.neg_hi != 0)
        || (f8 && (i.mods.neg | i.mods.neg_hi) != 0);
    if bad_mods {
        return Err(Stop::Invalid(format!("{} with neg/index_key modifiers it does not take", i.name)));
    }
    let (Some(a), Some(b), Some(d), Some(ix)) = (row(i.src[0]), row(i.src[1]), row(i.dst), row(i.src[2])) else {
        return Err(Stop::Invalid(format!("{} with a constant operand (not supported)", i.name)));
    };
    let (ar, br, acc) = (x.a_regs(true, lanes), x.in_regs(true, lanes), x.acc_regs(true, lanes));
    if d + acc > ROWS || a + ar > ROWS || b + br > ROWS || ix >= ROWS {
        return Err(Stop::Invalid(format!("{}: operands past the register file", i.name)));
    }
    let bits = x.input.bits();
    let set_bits = set * 32 / x.index_sets(lanes);
    // A value as f64 (exact for every input type; the float forms accumulate in f32 below).
    let value = |w: &Wave, base: usize, (r, lane, bit): (usize, usize, usize), ty: MfmaTy, n: u8| -> f64 {
        if int {
            let v = u64::from(w.vr(base + r, lane) >> bit) & ((1u64 << bits) - 1);
            let signed = i.mods.neg >> n & 1 != 0;
            return if signed && v >> (bits - 1) != 0 { v as f64 - (1u64 << bits) as f64 } else { v as f64 };
        }
        let neg = if bit == 16 { i.mods.neg_hi } else { i.mods.neg };
        let v = match read(w, base, (r, lane, bit), ty) {
            Val::F(v) => f64::from(v),
            Val::I(v) => f64::from(v),
            Val::D(v) => v,
        };
        if !f8 && neg >> n & 1 != 0 {
            -v
        } else {
            v
        }
    };
    let kk = usize::from(x.k);
    // Per row of A: (dense k, value) of every stored value, in stored order.
    let mut av = Vec::with_capacity(16 * kk / 2);
    for ii in 0..16 {
        for g in 0..kk / 4 {
            let (r, lane, bit) = x.sparse_a_position(lanes, ii, g);
            let (il, ib) = x.index_position(lanes, ii, g);
            let nib = (w.vr(ix, il) >> (ib + set_bits)) & 0xf;
            for s in 0..2 {
                let pos = ((nib >> (2 * s)) & 3) as usize;
                av.push((4 * g + pos, value(w, a, (r, lane, bit + s * bits), x.input, 0)));
            }
        }
    }
    let mut bv = Vec::with_capacity(16 * kk);
    for j in 0..16 {
        for k in 0..kk {
            bv.push(value(w, b, x.sparse_b_position(lanes, k, j), x.b_input, 1));
        }
    }
    let mut out: Vec<Lanes32> = (0..acc).map(|r| w.vrow(d + r)).collect();
    for ii in 0..16 {
        let arow = &av[ii * kk / 2..][..kk / 2];
        for j in 0..16 {
            let bcol = &bv[j * kk..][..kk];
            let (r, lane, bit) = x.acc_position(true, lanes, ii, j);
            let old = out[r][lane];
            out[r][lane] = if int {
                let sum = arow.iter().fold(i64::from(old as i32), |s, &(k, y)| s + (y * bcol[k]) as i64);
                if i.mods.clamp {
                    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
                } else {
                    sum as i32 as u32
                }
            } else {
                let c = if x.out16 { elem(w, d, (r, lane, bit == 16), x.input) } else { f32::from_bits(old) };
                let sum = arow.iter().fold(c, |s, &(k, y)| (y as f32).mul_add(bcol[k] as f32, s));
                if x.out16 {
                    let h = match x.input {
                        MfmaTy::Bf16 => bf16_rne(sum),
                        _ => u32::from(f32_to_f16(sum)),
                    };
                    if bit == 16 {
                        (old & 0xffff) | (h << 16)
                    } else {
                        (old & 0xffff_0000) | h
                    }
                } else {
                    sum.to_bits()
                }
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
