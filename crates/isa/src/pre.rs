//! Operands resolved once at decode, so the VALU fast paths do not re-derive them on every execution:
//! a source is a VGPR row, an SGPR or a constant (inline constant or literal, as a 32-bit value), and
//! the instruction is "plain" when it has no SDWA/DPP and no input or output modifiers.

use crate::decode::{Extra, Inst, NULL, VGPR0};
use crate::wave::Wave;

/// A 32-bit source operand as the fast paths read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Src {
    /// VGPR (or AGPR) row `n` of the register file.
    Row(u16),
    /// SGPR, VCC, TTMP, M0 or EXEC half `n` (read when the instruction runs).
    Sgpr(u8),
    /// The same value for all lanes (inline constant, literal, NULL).
    Const(u32),
    /// A code read through [`Wave::s32`] when the instruction runs (`vccz`, `execz`, `scc`, none).
    Other(u16),
}

/// What [`Pre::of`] resolved for one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pre {
    pub(crate) src: [Src; 3],
    /// No SDWA/DPP, no abs/neg/omod/clamp.
    pub(crate) plain: bool,
}

impl Default for Pre {
    fn default() -> Self {
        Pre { src: [Src::Other(crate::decode::NONE); 3], plain: false }
    }
}

impl Pre {
    /// Resolves the sources of `i` as 32-bit integer or f32 operands (16-bit inline floats are not
    /// resolved: the fast paths read 32-bit operands only).
    pub(crate) fn of(i: &Inst) -> Pre {
        let src = i.src.map(|code| match code {
            c if c >= VGPR0 && c != crate::decode::NONE => Src::Row(c - VGPR0),
            NULL => Src::Const(0),
            0..=127 => Src::Sgpr(code as u8),
            251..=253 => Src::Other(code),
            c if c < VGPR0 => Src::Const(Wave::const32(c, i.lit, crate::wave::Ty::F32)),
            c => Src::Other(c),
        });
        let plain =
            matches!(i.extra, Extra::None) && i.mods.abs == 0 && i.mods.neg == 0 && i.mods.omod == 0 && !i.mods.clamp;
        Pre { src, plain }
    }
}
