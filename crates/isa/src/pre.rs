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
    /// The row of each [`Src::Row`] source (0 for the others), read without matching on the kind.
    pub(crate) row: [u16; 3],
    /// Every source present is a VGPR row (an absent one is `Src::Other(NONE)`): the handler may take the
    /// all-row form, which reads `row` and compiles no constant or SGPR case.
    pub(crate) rows: bool,
}

impl Default for Pre {
    fn default() -> Self {
        Pre { src: [Src::Other(NONE); 3], plain: false, row: [0; 3], rows: false }
    }
}
