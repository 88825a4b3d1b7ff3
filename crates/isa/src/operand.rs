//! Operand codes and the values of constant operands, the leaf under decoding, the pre-resolved operand
//! form and the wave's operand reads (it names no other module of the crate but the memory apertures).

use crate::memory::{APERTURE_SIZE, PRIVATE_APERTURE, SHARED_APERTURE};

/// `vcc_lo`.
pub const VCC_LO: u16 = 106;
/// `m0` (gfx9/gfx10 numbering).
pub const M0: u16 = 124;
/// `null` (gfx10 numbering; reads 0, writes are dropped).
pub const NULL: u16 = 125;
/// `exec_lo`.
pub const EXEC_LO: u16 = 126;
/// `exec_hi`.
pub const EXEC_HI: u16 = 127;
/// A 32-bit literal follows the instruction.
pub const LITERAL: u16 = 255;
/// First VGPR operand code.
pub const VGPR0: u16 = 256;
/// First AGPR operand code.
pub const AGPR0: u16 = 512;
/// "No operand".
pub const NONE: u16 = u16::MAX;

/// Operand type, for constants, literals and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// Unsigned/bitwise integer.
    U,
    /// Signed integer (64-bit literals sign-extend).
    I,
    /// 16-bit float.
    F16,
    /// 32-bit float.
    F32,
    /// 64-bit float.
    F64,
}

/// The bits of inline float constant `code` (240..=248) as `ty` (F16, F64, otherwise F32).
#[inline]
pub(crate) fn inline_float(code: u16, ty: Ty) -> u64 {
    // 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi)
    const F16: [u64; 9] = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
    const F32: [u64; 9] = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    const F64: [u64; 9] = [
        0x3fe0_0000_0000_0000,
        0xbfe0_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x4000_0000_0000_0000,
        0xc000_0000_0000_0000,
        0x4010_0000_0000_0000,
        0xc010_0000_0000_0000,
        0x3fc4_5f30_6dc9_c882,
    ];
    let i = (code - 240) as usize;
    match ty {
        Ty::F16 => F16[i],
        Ty::F64 => F64[i],
        _ => F32[i],
    }
}

/// A 32-bit operand that is the same for every wave: inline constants, apertures, the literal (0 for
/// other codes).
#[inline]
pub(crate) fn const32(code: u16, lit: u32, ty: Ty) -> u32 {
    match code {
        128..=192 => u32::from(code - 128),
        193..=208 => (-(i32::from(code) - 192)) as u32,
        235 => (SHARED_APERTURE >> 32) as u32,
        236 => ((SHARED_APERTURE + APERTURE_SIZE - 1) >> 32) as u32,
        237 => (PRIVATE_APERTURE >> 32) as u32,
        238 => ((PRIVATE_APERTURE + APERTURE_SIZE - 1) >> 32) as u32,
        240..=248 => inline_float(code, if ty == Ty::F16 { Ty::F16 } else { Ty::F32 }) as u32,
        LITERAL => lit,
        _ => 0,
    }
}
