//! The per-lane semantics of the common 32-bit VALU operations, one named function each, and the list of
//! the operations a VALU block may hold ([`block_ops`]). The executor's arms (`valu.rs`) and the blocks
//! (`valu_block.rs`) call the same functions, so an operation's semantics are written once.
//!
//! Integer add and subtract wrap here; with the VOP3 clamp bit the executor saturates instead (a clamped
//! instruction is never plain, so never in a block).

pub(super) use super::float::{fmax32, fmin32};
use super::lanes::Isa;
use super::valu_bits::{bfe, i24};

/// Applies `$m!` to the operations a VALU block may run: `Name: Shape = lane_function`. The shapes are
/// `U1`/`U2`/`U3` (integer sources and result), `F2`/`F3` (f32 sources and result; `F3Acc` takes source 2
/// from the destination, as `v_fmac`), `FromU` (integer source, f32 result) and `ToU` (the reverse).
/// Every one writes only its 32-bit VGPR destination (no carry, VCC or SGPR result, no lane selects).
macro_rules! block_ops {
    ($m:ident) => {
        $m! {
            MovB32: U1 = mov_b32,
            NotB32: U1 = not_b32,
            AddU32: U2 = add_u32,
            SubU32: U2 = sub_u32,
            SubrevU32: U2 = subrev_u32,
            AddI32: U2 = add_u32,
            SubI32: U2 = sub_u32,
            MulLoU32: U2 = mul_lo_u32,
            MulHiU32: U2 = mul_hi_u32,
            MulHiI32: U2 = mul_hi_i32,
            MulU32U24: U2 = mul_u32_u24,
            MulI32I24: U2 = mul_i32_i24,
            MinU32: U2 = min_u32,
            MaxU32: U2 = max_u32,
            MinI32: U2 = min_i32,
            MaxI32: U2 = max_i32,
            AndB32: U2 = and_b32,
            OrB32: U2 = or_b32,
            XorB32: U2 = xor_b32,
            XnorB32: U2 = xnor_b32,
            LshlrevB32: U2 = lshlrev_b32,
            LshrrevB32: U2 = lshrrev_b32,
            AshrrevI32: U2 = ashrrev_i32,
            Add3U32: U3 = add3_u32,
            LshlAddU32: U3 = lshl_add_u32,
            AddLshlU32: U3 = add_lshl_u32,
            LshlOrB32: U3 = lshl_or_b32,
            AndOrB32: U3 = and_or_b32,
            Or3B32: U3 = or3_b32,
            Xor3B32: U3 = xor3_b32,
            XadU32: U3 = xad_u32,
            BfeU32: U3 = bfe_u32,
            BfeI32: U3 = bfe_i32,
            BfiB32: U3 = bfi_b32,
            MadU32U24: U3 = mad_u32_u24,
            MadI32I24: U3 = mad_i32_i24,
            Min3U32: U3 = min3_u32,
            Max3U32: U3 = max3_u32,
            Min3I32: U3 = min3_i32,
            Max3I32: U3 = max3_i32,
            AddF32: F2 = add_f32,
            SubF32: F2 = sub_f32,
            SubrevF32: F2 = subrev_f32,
            MulF32: F2 = mul_f32,
            MinF32: F2 = fmin32,
            MaxF32: F2 = fmax32,
            FmaF32: F3 = fma_f32::<K>,
            FmacF32: F3Acc = fma_f32::<K>,
            MadF32: F3 = mad_f32,
            MacF32: F3Acc = mad_f32,
            CvtF32I32: FromU = cvt_f32_i32,
            CvtF32U32: FromU = cvt_f32_u32,
            CvtI32F32: ToU = cvt_i32_f32,
            CvtU32F32: ToU = cvt_u32_f32,
        }
    };
}
pub(super) use block_ops;

#[inline(always)]
pub(super) fn mov_b32(a: u32) -> u32 {
    a
}

#[inline(always)]
pub(super) fn not_b32(a: u32) -> u32 {
    !a
}

#[inline(always)]
pub(super) fn add_u32(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

#[inline(always)]
pub(super) fn sub_u32(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b)
}

#[inline(always)]
pub(super) fn subrev_u32(a: u32, b: u32) -> u32 {
    b.wrapping_sub(a)
}

#[inline(always)]
pub(super) fn mul_lo_u32(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

#[inline(always)]
pub(super) fn mul_hi_u32(a: u32, b: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) >> 32) as u32
}

#[inline(always)]
pub(super) fn mul_hi_i32(a: u32, b: u32) -> u32 {
    ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
}

#[inline(always)]
pub(super) fn mul_u32_u24(a: u32, b: u32) -> u32 {
    (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)
}

#[inline(always)]
pub(super) fn mul_i32_i24(a: u32, b: u32) -> u32 {
    (i24(a) * i24(b)) as u32
}

#[inline(always)]
pub(super) fn min_u32(a: u32, b: u32) -> u32 {
    a.min(b)
}

#[inline(always)]
pub(super) fn max_u32(a: u32, b: u32) -> u32 {
    a.max(b)
}

#[inline(always)]
pub(super) fn min_i32(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}

#[inline(always)]
pub(super) fn max_i32(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}

#[inline(always)]
pub(super) fn and_b32(a: u32, b: u32) -> u32 {
    a & b
}

#[inline(always)]
pub(super) fn or_b32(a: u32, b: u32) -> u32 {
    a | b
}

#[inline(always)]
pub(super) fn xor_b32(a: u32, b: u32) -> u32 {
    a ^ b
}

#[inline(always)]
pub(super) fn xnor_b32(a: u32, b: u32) -> u32 {
    !(a ^ b)
}

#[inline(always)]
pub(super) fn lshlrev_b32(a: u32, b: u32) -> u32 {
    b << (a & 31)
}

#[inline(always)]
pub(super) fn lshrrev_b32(a: u32, b: u32) -> u32 {
    b >> (a & 31)
}

#[inline(always)]
pub(super) fn ashrrev_i32(a: u32, b: u32) -> u32 {
    ((b as i32) >> (a & 31)) as u32
}

#[inline(always)]
pub(super) fn add3_u32(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_add(b).wrapping_add(c)
}

#[inline(always)]
pub(super) fn lshl_add_u32(a: u32, b: u32, c: u32) -> u32 {
    (a << (b & 31)).wrapping_add(c)
}

#[inline(always)]
pub(super) fn add_lshl_u32(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_add(b) << (c & 31)
}

#[inline(always)]
pub(super) fn lshl_or_b32(a: u32, b: u32, c: u32) -> u32 {
    (a << (b & 31)) | c
}

#[inline(always)]
pub(super) fn and_or_b32(a: u32, b: u32, c: u32) -> u32 {
    (a & b) | c
}

#[inline(always)]
pub(super) fn or3_b32(a: u32, b: u32, c: u32) -> u32 {
    a | b | c
}

#[inline(always)]
pub(super) fn xor3_b32(a: u32, b: u32, c: u32) -> u32 {
    a ^ b ^ c
}

#[inline(always)]
pub(super) fn xad_u32(a: u32, b: u32, c: u32) -> u32 {
    (a ^ b).wrapping_add(c)
}

#[inline(always)]
pub(super) fn bfe_u32(a: u32, b: u32, c: u32) -> u32 {
    bfe(a, b, c, false)
}

#[inline(always)]
pub(super) fn bfe_i32(a: u32, b: u32, c: u32) -> u32 {
    bfe(a, b, c, true)
}

#[inline(always)]
pub(super) fn bfi_b32(a: u32, b: u32, c: u32) -> u32 {
    (a & b) | (!a & c)
}

#[inline(always)]
pub(super) fn mad_u32_u24(a: u32, b: u32, c: u32) -> u32 {
    (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c)
}

#[inline(always)]
pub(super) fn mad_i32_i24(a: u32, b: u32, c: u32) -> u32 {
    ((i24(a) * i24(b)) as u32).wrapping_add(c)
}

#[inline(always)]
pub(super) fn min3_u32(a: u32, b: u32, c: u32) -> u32 {
    a.min(b).min(c)
}

#[inline(always)]
pub(super) fn max3_u32(a: u32, b: u32, c: u32) -> u32 {
    a.max(b).max(c)
}

#[inline(always)]
pub(super) fn min3_i32(a: u32, b: u32, c: u32) -> u32 {
    (a as i32).min(b as i32).min(c as i32) as u32
}

#[inline(always)]
pub(super) fn max3_i32(a: u32, b: u32, c: u32) -> u32 {
    (a as i32).max(b as i32).max(c as i32) as u32
}

#[inline(always)]
pub(super) fn add_f32(a: f32, b: f32) -> f32 {
    a + b
}

#[inline(always)]
pub(super) fn sub_f32(a: f32, b: f32) -> f32 {
    a - b
}

#[inline(always)]
pub(super) fn subrev_f32(a: f32, b: f32) -> f32 {
    b - a
}

#[inline(always)]
pub(super) fn mul_f32(a: f32, b: f32) -> f32 {
    a * b
}

/// `v_fma_f32`/`v_fmac_f32`: one rounding, with the lane kernels' fused multiply-add.
#[inline(always)]
pub(super) fn fma_f32<K: Isa>(a: f32, b: f32, c: f32) -> f32 {
    K::fma32(a, b, c)
}

/// `v_mad_f32`/`v_mac_f32`: the product rounded, then the sum.
#[inline(always)]
pub(super) fn mad_f32(a: f32, b: f32, c: f32) -> f32 {
    a * b + c
}

#[inline(always)]
pub(super) fn cvt_f32_i32(a: u32) -> f32 {
    a as i32 as f32
}

#[inline(always)]
pub(super) fn cvt_f32_u32(a: u32) -> f32 {
    a as f32
}

#[inline(always)]
pub(super) fn cvt_i32_f32(a: f32) -> u32 {
    a as i32 as u32
}

#[inline(always)]
pub(super) fn cvt_u32_f32(a: f32) -> u32 {
    a as u32
}
