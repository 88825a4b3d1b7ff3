//! Operands resolved once at decode, so the VALU fast paths do not re-derive them on every execution:
//! a source is a VGPR row, an SGPR or a constant (inline constant or literal, as a 32-bit value), and
//! the instruction is "plain" when it has no SDWA/DPP and no input or output modifiers.

use crate::operand::NONE;

/// A 32-bit source operand as the fast paths read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Src {
    /// VGPR (or AGPR) row `n` of the register file.
    Row(u16),
    /// SGPR, VCC, TTMP, M0 or EXEC half `n` (read when the instruction runs).
    Sgpr(u8),
    /// The same value for all lanes (inline constant, literal, NULL).
    Const(u32),
    /// A code read through `Wave::s32` when the instruction runs (`vccz`, `execz`, `scc`, none).
    Other(u16),
}

/// What decoding resolved for one instruction (`decode::pre_of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pre {
    pub(crate) src: [Src; 3],
    /// No SDWA/DPP, no abs/neg/omod/clamp.
    pub(crate) plain: bool,
}

impl Default for Pre {
    fn default() -> Self {
        Pre { src: [Src::Other(NONE); 3], plain: false }
    }
}
