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

/// Which operand plumbing a plain VALU handler may assume, decided at decode from the sources' kinds (the
/// handler forms of `exec::valu_forms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Any mix of rows, SGPRs and constants: the kind is matched when the instruction runs.
    Any,
    /// Every source present is a VGPR row (an absent one is `Src::Other(NONE)`) and so is the destination:
    /// the handler reads [`Pre::row`] and compiles no constant or SGPR case.
    Rows,
    /// Source 0 is an SGPR or a constant ([`Src::Sgpr`], [`Src::Const`]), every other source present and the
    /// destination are VGPR rows: the VOP2 shape `v_op vD, const|sgpr, vB` (`v_mul_f32 v14, 0.5, v14`).
    Scalar0,
}

/// Rows of the register file an instruction can name: 256 VGPRs and 256 AGPRs (codes `VGPR0..VGPR0 +
/// 512`). A [`Src::Row`] and [`Pre::dst`] under [`Form::Rows`]/[`Form::Scalar0`] are below it (other codes
/// are not rows), so a handler's row index is always inside the register file (`exec::valu_operand::ix`).
pub(crate) const ARCH_ROWS: u16 = 512;

/// What decoding resolved for one instruction (`decode::pre_of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pre {
    pub(crate) src: [Src; 3],
    /// No SDWA/DPP, no abs/neg/omod/clamp.
    pub(crate) plain: bool,
    /// The row of each [`Src::Row`] source (0 for the others), read without matching on the kind.
    pub(crate) row: [u16; 3],
    /// The destination's row (0 when the destination is not a VGPR or AGPR).
    pub(crate) dst: u16,
    /// The handler form the sources allow.
    pub(crate) form: Form,
}

impl Default for Pre {
    fn default() -> Self {
        Pre { src: [Src::Other(NONE); 3], plain: false, row: [0; 3], dst: 0, form: Form::Any }
    }
}
