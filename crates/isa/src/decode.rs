//! Instruction decoding: bytes to [`Inst`], for every encoding of the four families.
//!
//! Field positions follow AMD's ISA reference guides' "Microcode Formats" chapters (Vega/CDNA, RDNA2,
//! RDNA3, RDNA4); opcode numbers come from the generated per-target tables ([`crate::table`]). Operands are
//! normalised into one code space so the interpreter never looks at the family again:
//!
//! * `0..=127` scalar registers: SGPRs, [`VCC_LO`], TTMPs, [`M0`] = 124, [`NULL`] = 125, [`EXEC_LO`]
//!   (gfx11+ swap M0 and NULL in the encoding; the decoder swaps them back),
//! * `128..=255` constants and specials as the hardware numbers them (inline integers and floats,
//!   apertures, `vccz`/`execz`/`scc`, [`LITERAL`]),
//! * `256..=511` VGPR 0..255, `512..=767` AGPR 0..255 (CDNA's accumulation registers).

use crate::image;
use crate::op::{DsOp, GwsOp, Op};
use crate::pre::{Form, Pre, Src, ARCH_ROWS};
use crate::table::{Enc, Entry, OpTable};
use crate::target::{Family, Target};

pub use crate::operand::{AGPR0, EXEC_HI, EXEC_LO, LITERAL, M0, NONE, NULL, VCC_LO, VGPR0};

/// Flag bits of [`Inst::flags`].
pub mod flags {
    /// MUBUF: the VGPR address holds an offset.
    pub const OFFEN: u8 = 1;
    /// MUBUF: the VGPR address holds an index (first VGPR when both are set).
    pub const IDXEN: u8 = 2;
    /// Globally coherent / sc0 (affects atomics: return the old value).
    pub const GLC: u8 = 4;
    /// Scratch: the address VGPR is used (gfx940/gfx11 `sve`; always on gfx9 before gfx940 when addr is used).
    pub const SVE: u8 = 8;
    /// VOPC written to VCC implicitly (the e32 form) rather than to an explicit SGPR.
    pub const IMPLICIT_VCC: u8 = 16;
    /// MUBUF LDS-direct load (not supported).
    pub const LDS: u8 = 32;
    /// MTBUF (`tbuffer_*`): the texel format is the instruction's (in [`super::Inst::imm1`], as the V#'s
    /// word 3 holds it from bit 12), not the buffer resource's.
    pub const TFMT: u8 = 64;
}

/// Per-operand modifiers of VOP3/VOP3P (and the SDWA/DPP forms), bit `i` for source `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// `|x|` per source.
    pub abs: u8,
    /// `-x` per source (VOP3P: low half).
    pub neg: u8,
    /// VOP3P: negate the high half.
    pub neg_hi: u8,
    /// VOP3 (gfx9+): source/destination halves; VOP3P: which half feeds the low lanes. Bit 3 = destination.
    pub opsel: u8,
    /// VOP3P: which half feeds the high lanes.
    pub opsel_hi: u8,
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier: 0 none, 1 *2, 2 *4, 3 /2.
    pub omod: u8,
}

/// Sub-dword addressing (gfx9/gfx10 VOP1/VOP2/VOPC `_sdwa`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sdwa {
    /// Destination select: 0..3 bytes, 4/5 words, 6 dword.
    pub dst_sel: u8,
    /// What happens to the other destination bits: 0 pad with zeros, 1 sign-extend, 2 preserve.
    pub dst_unused: u8,
    /// Source selects (0..3 bytes, 4/5 words, 6 dword).
    pub src_sel: [u8; 2],
    /// Sign-extend the selected source bits.
    pub sext: [bool; 2],
}

/// Data-parallel primitives: a cross-lane read of src0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dpp {
    /// DPP16 (`dpp_ctrl`, `row_mask`, `bank_mask`, `bound_ctrl`, `fi`).
    Dpp16 {
        /// The control word (quad_perm, row_shl, ..., row_bcast).
        ctrl: u16,
        /// Rows (of 16 lanes) written.
        row_mask: u8,
        /// Banks (of 4 lanes within a row) written.
        bank_mask: u8,
        /// Invalid source lanes read 0 instead of disabling the write.
        bound_ctrl: bool,
        /// Fetch inactive lanes (gfx10+).
        fi: bool,
    },
    /// DPP8: eight 3-bit lane selects within each group of 8 lanes.
    Dpp8 {
        /// Lane selects, 3 bits each.
        sel: u32,
        /// Fetch inactive lanes.
        fi: bool,
    },
}

/// Lane transforms an instruction carries besides its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// None.
    None,
    /// `_sdwa`.
    Sdwa(Sdwa),
    /// `_dpp`.
    Dpp(Dpp),
}

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What it does.
    pub op: Op,
    /// Encoding.
    pub enc: Enc,
    /// Size in bytes, literal included.
    pub size: u8,
    /// LLVM mnemonic (without encoding suffix).
    pub name: &'static str,
    /// Destination operand (VGPR/AGPR code for vector results, scalar code for scalar ones).
    pub dst: u16,
    /// Scalar destination of VOP3b carries, VOPC results and `v_readlane`; [`NONE`] otherwise.
    pub sdst: u16,
    /// Sources. Memory: `[address, data, saddr/srsrc]`; DS: `[address, data0, data1]`; SMEM: `[sbase, -, -]`.
    pub src: [u16; 3],
    /// The literal dword, when an operand is [`LITERAL`] or the instruction always carries one.
    pub lit: u32,
    /// SOPK/SOPP `simm16` (sign-extended); memory offsets (SMEM, FLAT, MUBUF, DS offset0).
    pub imm: i32,
    /// DS `offset1`; MTBUF: the format (see [`flags::TFMT`]).
    pub imm1: u8,
    /// SMEM/MUBUF `soffset` operand code ([`NULL`] when absent).
    pub soffset: u16,
    /// VOP3/VOP3P/SDWA/DPP modifiers.
    pub mods: Mods,
    /// [`flags`] bits.
    pub flags: u8,
    /// SDWA/DPP.
    pub extra: Extra,
    /// The Y half of a VOPD instruction.
    pub y: Option<Box<Inst>>,
    /// Statistics class ([`crate::class_of`]; branches as not taken).
    pub class: crate::stats::InstClass,
    /// A scheduling hint that never issues (`s_delay_alu`, `s_wait_alu`, `s_set_vgpr_msb`): executed as a
    /// no-op but neither counted nor recorded, as the hardware's counters and thread traces skip it.
    pub hint: bool,
    /// The sources resolved for the fast paths (set by [`decode`]).
    pub(crate) pre: Pre,
    /// A copy of the instruction after this one when the interpreter runs the two (and a branch after
    /// them) as one handler (`exec::fused`); never set by [`decode`].
    pub(crate) then: Option<Box<Inst>>,
}

/// Why bytes did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than the instruction needs.
    Truncated,
    /// The first dword matches no encoding of the family.
    UnknownEncoding(u32),
    /// The encoding is known, the opcode is not (for this target); `size` is what the instruction would occupy.
    UnknownOpcode {
        /// Encoding.
        enc: Enc,
        /// Opcode number.
        opcode: u32,
        /// Size in bytes it would have.
        size: u8,
    },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Truncated => write!(f, "truncated instruction"),
            Self::UnknownEncoding(w) => write!(f, "unknown encoding {w:#010x}"),
            Self::UnknownOpcode { enc, opcode, .. } => write!(f, "unknown {} opcode {opcode:#x}", enc.name()),
        }
    }
}

impl std::error::Error for DecodeError {}

fn dword(bytes: &[u8], i: usize) -> Result<u32, DecodeError> {
    let b = bytes.get(4 * i..4 * i + 4).ok_or(DecodeError::Truncated)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn sext(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

/// Field decoding context of one family.
struct Ctx {
    fam: Family,
    table: &'static OpTable,
    /// [`Target::unified_agprs`].
    unified_agprs: bool,
}

impl Ctx {
    /// A scalar operand field (7 or 8 bits) into the canonical code space.
    fn scalar(&self, code: u32) -> u16 {
        let c = code as u16;
        if self.fam >= Family::Gfx11 {
            match c {
                124 => NULL,
                125 => M0,
                _ => c,
            }
        } else {
            c
        }
    }

    /// A 9-bit source field (scalar/constant below 256, VGPR from 256).
    fn src9(&self, code: u32) -> u16 {
        if code >= 256 {
            code as u16
        } else {
            self.scalar(code)
        }
    }

    fn entry(&self, enc: Enc, opcode: u32, size: u8) -> Result<&'static Entry, DecodeError> {
        self.table.get(enc, opcode).ok_or(DecodeError::UnknownOpcode { enc, opcode, size })
    }
}

pub(crate) fn base(op: Op, enc: Enc, size: u8, name: &'static str) -> Inst {
    Inst {
        op,
        enc,
        size,
        name,
        dst: NONE,
        sdst: NONE,
        src: [NONE; 3],
        lit: 0,
        imm: 0,
        imm1: 0,
        soffset: NULL,
        mods: Mods::default(),
        flags: 0,
        extra: Extra::None,
        y: None,
        class: crate::stats::class_of(&op, name),
        hint: matches!(name, "s_delay_alu" | "s_wait_alu" | "s_set_vgpr_msb"),
        pre: Pre::default(),
        then: None,
    }
}

/// Decodes the instruction at the start of `bytes` for `target`.
pub fn decode(target: &Target, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let table = crate::table::table(target.table).expect("every target names a table");
    let cx = Ctx { fam: target.family, table, unified_agprs: target.unified_agprs };
    let w = dword(bytes, 0)?;
    let mut i = match target.family {
        Family::Gfx9 => decode_gfx9(&cx, w, bytes),
        _ => decode_rdna(&cx, w, bytes),
    }?;
    i.pre = pre_of(&i);
    if let Some(y) = &mut i.y {
        y.pre = pre_of(y);
    }
    Ok(i)
}

/// The size of the instruction at the start of `bytes`, also for opcodes the target's table lacks.
pub fn size_of(target: &Target, bytes: &[u8]) -> Result<u8, DecodeError> {
    match decode(target, bytes) {
        Ok(i) => Ok(i.size),
        Err(DecodeError::UnknownOpcode { size, .. }) => Ok(size),
        Err(e) => Err(e),
    }
}

/// Reads the literal at `bytes[at..]` if `needed`, returning (size, literal).
fn with_literal(bytes: &[u8], at_dword: usize, needed: bool) -> Result<(u8, u32), DecodeError> {
    if needed {
        Ok((4 * at_dword as u8 + 4, dword(bytes, at_dword)?))
    } else {
        Ok((4 * at_dword as u8, 0))
    }
}

fn scalar_formats(cx: &Ctx, w: u32, bytes: &[u8]) -> Option<Result<Inst, DecodeError>> {
    let r = (|| {
        if w >> 23 == 0x17f {
            let opcode = (w >> 16) & 0x7f;
            let e = cx.entry(Enc::Sopp, opcode, 4)?;
            let mut i = base(e.op, Enc::Sopp, 4, e.name);
            i.imm = w as u16 as i16 as i32;
            return Ok(i);
        }
        if w >> 23 == 0x17d {
            let opcode = (w >> 8) & 0xff;
            let src0 = cx.scalar(w & 0xff);
            let (size, lit) = with_literal(bytes, 1, src0 == LITERAL)?;
            let e = cx.entry(Enc::Sop1, opcode, size)?;
            let mut i = base(e.op, Enc::Sop1, size, e.name);
            i.dst = cx.scalar((w >> 16) & 0x7f);
            i.src[0] = src0;
            i.lit = lit;
            return Ok(i);
        }
        if w >> 23 == 0x17e {
            let opcode = (w >> 16) & 0x7f;
            let (s0, s1) = (cx.scalar(w & 0xff), cx.scalar((w >> 8) & 0xff));
            let (size, lit) = with_literal(bytes, 1, s0 == LITERAL || s1 == LITERAL)?;
            let e = cx.entry(Enc::Sopc, opcode, size)?;
            let mut i = base(e.op, Enc::Sopc, size, e.name);
            i.src = [s0, s1, NONE];
            i.lit = lit;
            return Ok(i);
        }
        if w >> 28 == 0xb {
            let opcode = (w >> 23) & 0x1f;
            let lit_needed = cx.table.get(Enc::Sopk, opcode).is_some_and(|e| e.lit);
            let (size, lit) = with_literal(bytes, 1, lit_needed)?;
            let e = cx.entry(Enc::Sopk, opcode, size)?;
            let mut i = base(e.op, Enc::Sopk, size, e.name);
            i.dst = cx.scalar((w >> 16) & 0x7f);
            i.imm = w as u16 as i16 as i32;
            i.lit = lit;
            return Ok(i);
        }
        if w >> 30 == 0b10 {
            let opcode = (w >> 23) & 0x7f;
            let (s0, s1) = (cx.scalar(w & 0xff), cx.scalar((w >> 8) & 0xff));
            // gfx12 s_fmaak_f32/s_fmamk_f32 always carry their K.
            let mandatory = cx.table.get(Enc::Sop2, opcode).is_some_and(|e| e.lit);
            let (size, lit) = with_literal(bytes, 1, s0 == LITERAL || s1 == LITERAL || mandatory)?;
            let e = cx.entry(Enc::Sop2, opcode, size)?;
            let mut i = base(e.op, Enc::Sop2, size, e.name);
            i.dst = cx.scalar((w >> 16) & 0x7f);
            i.src = [s0, s1, NONE];
            i.lit = lit;
            return Ok(i);
        }
        Err(DecodeError::UnknownEncoding(w))
    })();
    match r {
        Err(DecodeError::UnknownEncoding(_)) => None,
        other => Some(other),
    }
}

/// VOP1/VOP2/VOPC (32-bit encodings, with SDWA/DPP/literal extensions).
fn vop_short(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let (enc, opcode, dst) = if w >> 25 == 0x3f {
        (Enc::Vop1, (w >> 9) & 0xff, VGPR0 + ((w >> 17) & 0xff) as u16)
    } else if w >> 25 == 0x3e {
        (Enc::Vopc, (w >> 17) & 0xff, NONE)
    } else {
        (Enc::Vop2, (w >> 25) & 0x3f, VGPR0 + ((w >> 17) & 0xff) as u16)
    };
    let src0_field = w & 0x1ff;
    let mut vsrc1 = VGPR0 + ((w >> 9) & 0xff) as u16;
    let mandatory = cx.table.get(enc, opcode).is_some_and(|e| e.lit);
    let gfx9 = cx.fam == Family::Gfx9;
    let (size, extra, src0, lit, mods, sdst) = match src0_field {
        0xf9 if cx.fam <= Family::Gfx10 => {
            let d1 = dword(bytes, 1)?;
            let s0_is_sgpr = d1 & (1 << 23) != 0;
            let src0 = if s0_is_sgpr { cx.scalar(d1 & 0xff) } else { VGPR0 + (d1 & 0xff) as u16 };
            // S1 (bit 31 of the SDWA dword): the VOP2/VOPC vsrc1 field names an SGPR or constant.
            if d1 & (1 << 31) != 0 {
                vsrc1 = cx.scalar((w >> 9) & 0xff);
            }
            let mut mods = Mods::default();
            let mut sdst = NONE;
            let sdwa = Sdwa {
                dst_sel: ((d1 >> 8) & 7) as u8,
                dst_unused: ((d1 >> 11) & 3) as u8,
                src_sel: [((d1 >> 16) & 7) as u8, ((d1 >> 24) & 7) as u8],
                sext: [d1 & (1 << 19) != 0, d1 & (1 << 27) != 0],
            };
            if enc == Enc::Vopc {
                // VOPC SDWA: sdst[14:8] with sd[15]; without sd the result goes to VCC.
                sdst = if d1 & (1 << 15) != 0 { cx.scalar((d1 >> 8) & 0x7f) } else { VCC_LO };
            } else {
                mods.clamp = d1 & (1 << 13) != 0;
                if gfx9 {
                    mods.omod = ((d1 >> 14) & 3) as u8;
                }
            }
            mods.neg = (((d1 >> 20) & 1) | (((d1 >> 28) & 1) << 1)) as u8;
            mods.abs = (((d1 >> 21) & 1) | (((d1 >> 29) & 1) << 1)) as u8;
            (8, Extra::Sdwa(sdwa), src0, 0, mods, sdst)
        }
        0xfa => {
            let d1 = dword(bytes, 1)?;
            let mods = Mods {
                neg: (((d1 >> 20) & 1) | (((d1 >> 22) & 1) << 1)) as u8,
                abs: (((d1 >> 21) & 1) | (((d1 >> 23) & 1) << 1)) as u8,
                ..Mods::default()
            };
            let dpp = Dpp::Dpp16 {
                ctrl: ((d1 >> 8) & 0x1ff) as u16,
                row_mask: (d1 >> 28) as u8,
                bank_mask: ((d1 >> 24) & 0xf) as u8,
                bound_ctrl: d1 & (1 << 19) != 0,
                fi: !gfx9 && d1 & (1 << 18) != 0,
            };
            (8, Extra::Dpp(dpp), VGPR0 + (d1 & 0xff) as u16, 0, mods, NONE)
        }
        0xe9 | 0xea if !gfx9 => {
            let d1 = dword(bytes, 1)?;
            let dpp = Dpp::Dpp8 { sel: d1 >> 8, fi: src0_field == 0xea };
            (8, Extra::Dpp(dpp), VGPR0 + (d1 & 0xff) as u16, 0, Mods::default(), NONE)
        }
        _ => {
            let src0 = cx.src9(src0_field);
            let (size, lit) = with_literal(bytes, 1, src0 == LITERAL || mandatory)?;
            (size, Extra::None, src0, lit, Mods::default(), NONE)
        }
    };
    let e = cx.entry(enc, opcode, size)?;
    let mut i = base(e.op, enc, size, e.name);
    i.dst = dst;
    if e.op == Op::Valu(crate::op::VOp::ReadfirstlaneB32) {
        // v_readfirstlane_b32's VOP1 destination field names an SGPR.
        i.dst = cx.scalar((w >> 17) & 0xff);
    }
    i.src = [src0, if enc == Enc::Vop1 { NONE } else { vsrc1 }, NONE];
    i.lit = lit;
    i.mods = mods;
    i.extra = extra;
    acc_operands(&mut i);
    if enc == Enc::Vop2 {
        use crate::op::VOp::*;
        if let Op::Valu(v) = e.op {
            if matches!(v, AddCoU32 | SubCoU32 | SubrevCoU32 | AddcCoU32 | SubbCoU32 | SubbrevCoU32) {
                i.sdst = VCC_LO;
            }
            if matches!(v, AddcCoU32 | SubbCoU32 | SubbrevCoU32 | CndmaskB32) {
                i.src[2] = VCC_LO;
            }
        }
    }
    if enc == Enc::Vopc {
        i.sdst = if sdst == NONE { VCC_LO } else { sdst };
        i.flags |= flags::IMPLICIT_VCC * u8::from(sdst == NONE || sdst == VCC_LO);
    }
    // VOP2 carry forms read/write VCC implicitly; a literal-carrying madmk/fmamk keeps its operand order
    // (src0 * K + vsrc1) and madak/fmaak (src0 * vsrc1 + K): the executor reads `lit` as K.
    Ok(i)
}

/// VOP3 / VOP3b (64-bit), with gfx10+ literal and gfx11+ DPP.
fn vop3(cx: &Ctx, w: u32, bytes: &[u8], opcode: u32) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let srcs = [d1 & 0x1ff, (d1 >> 9) & 0x1ff, (d1 >> 18) & 0x1ff];
    let mut src = srcs.map(|s| cx.src9(s));
    let mut extra = Extra::None;
    let mut size = 8;
    let mut lit = 0;
    if cx.fam >= Family::Gfx11 && matches!(srcs[0], 0xfa | 0xe9 | 0xea) {
        let d2 = dword(bytes, 2)?;
        size = 12;
        src[0] = VGPR0 + (d2 & 0xff) as u16;
        extra = Extra::Dpp(if srcs[0] == 0xfa {
            Dpp::Dpp16 {
                ctrl: ((d2 >> 8) & 0x1ff) as u16,
                row_mask: (d2 >> 28) as u8,
                bank_mask: ((d2 >> 24) & 0xf) as u8,
                bound_ctrl: d2 & (1 << 19) != 0,
                fi: d2 & (1 << 18) != 0,
            }
        } else {
            Dpp::Dpp8 { sel: d2 >> 8, fi: srcs[0] == 0xea }
        });
    } else if cx.fam >= Family::Gfx10 && src.contains(&LITERAL) {
        size = 12;
        lit = dword(bytes, 2)?;
    }
    let e = cx.entry(Enc::Vop3, opcode, size)?;
    let mut i = base(e.op, Enc::Vop3, size, e.name);
    i.lit = lit;
    i.extra = extra;
    i.dst = VGPR0 + (w & 0xff) as u16;
    // VOP3b (carry-out/scale forms) put an SGPR destination where abs/opsel live.
    let vop3b = matches!(
        e.op,
        Op::Valu(
            crate::op::VOp::AddCoU32
                | crate::op::VOp::SubCoU32
                | crate::op::VOp::SubrevCoU32
                | crate::op::VOp::AddcCoU32
                | crate::op::VOp::SubbCoU32
                | crate::op::VOp::SubbrevCoU32
                | crate::op::VOp::DivScaleF32
                | crate::op::VOp::DivScaleF64
                | crate::op::VOp::MadU64U32
                | crate::op::VOp::MadI64I32
        )
    );
    let mut mods =
        Mods { neg: (d1 >> 29) as u8, omod: ((d1 >> 27) & 3) as u8, clamp: w & (1 << 15) != 0, ..Mods::default() };
    if vop3b {
        i.sdst = cx.scalar((w >> 8) & 0x7f);
    } else {
        mods.abs = ((w >> 8) & 7) as u8;
        mods.opsel = ((w >> 11) & 0xf) as u8;
    }
    match e.op {
        Op::Vcmp { .. } => {
            // VOP3-encoded compares write an SGPR pair (or EXEC for gfx10+ v_cmpx) at vdst.
            i.sdst = cx.scalar(w & 0xff);
            i.dst = NONE;
        }
        Op::Valu(crate::op::VOp::ReadlaneB32 | crate::op::VOp::ReadfirstlaneB32) => {
            i.dst = cx.scalar(w & 0xff);
        }
        // gfx12's scalar transcendentals (`v_s_exp_f32 s6, s4`) write an SGPR.
        _ if e.name.starts_with("v_s_") => i.dst = cx.scalar(w & 0xff),
        _ => {}
    }
    i.src = src;
    i.mods = mods;
    Ok(i)
}

fn vop3p(cx: &Ctx, w: u32, bytes: &[u8], opcode: u32) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let src = [d1 & 0x1ff, (d1 >> 9) & 0x1ff, (d1 >> 18) & 0x1ff].map(|s| cx.src9(s));
    let (size, lit) = if cx.fam >= Family::Gfx10 && src.contains(&LITERAL) { (12, dword(bytes, 2)?) } else { (8, 0) };
    let e = cx.entry(Enc::Vop3p, opcode, size)?;
    let mut i = base(e.op, Enc::Vop3p, size, e.name);
    i.dst = VGPR0 + (w & 0xff) as u16;
    i.src = src;
    i.lit = lit;
    i.mods = Mods {
        neg: (d1 >> 29) as u8,
        neg_hi: ((w >> 8) & 7) as u8,
        opsel: ((w >> 11) & 7) as u8,
        opsel_hi: (((d1 >> 27) & 3) | (((w >> 14) & 1) << 2)) as u8,
        clamp: w & (1 << 15) != 0,
        omod: 0,
        abs: 0,
    };
    // gfx950's `v_mfma_ld_scale_b32` is not MAI: its bits 60:59 are OP_SEL_HI (CDNA4 ISA guide, 7.2.1).
    let mai = (e.name.starts_with("v_mfma") && !matches!(e.op, Op::MfmaLdScale)) || e.name.starts_with("v_smfmac");
    if cx.fam == Family::Gfx9 && mai {
        mai_operands(cx, &mut i, w, d1);
    }
    acc_operands(&mut i);
    Ok(i)
}

/// The register files of a CDNA matrix instruction (VOP3P-MAI, CDNA ISA "Microcode Formats"): `ACC`
/// (bits 60:59) puts sources A and B in AGPRs, `ACC_CD` (bit 15, gfx90a+) the accumulator C and the
/// result D; gfx908 has no `ACC_CD` and always keeps C and D in AGPRs. The broadcast and negate fields
/// (`CBSZ`, `ABID`, `BLGP`) stay in [`Mods`] as the generic VOP3P fields that occupy their bits.
fn mai_operands(cx: &Ctx, i: &mut Inst, w: u32, d1: u32) {
    let to_agpr = |code: u16| if (VGPR0..AGPR0).contains(&code) { code - VGPR0 + AGPR0 } else { code };
    let acc = (d1 >> 27) & 3;
    for k in 0..2 {
        if acc >> k & 1 != 0 {
            i.src[k] = to_agpr(i.src[k]);
        }
    }
    if !cx.unified_agprs || w & (1 << 15) != 0 {
        i.dst = to_agpr(i.dst);
        // SMFMAC's SRC2 is its compression index, always in an ArchVGPR (AMD's matrix instruction
        // calculator); C is D there.
        if !matches!(i.op, Op::Mfma(m) if m.sparse) {
            i.src[2] = to_agpr(i.src[2]);
        }
    }
}

/// CDNA's AGPR moves name AGPRs in fields that otherwise hold VGPRs: `v_accvgpr_read_b32` (VOP3P) reads
/// an AGPR, `v_accvgpr_write_b32` (VOP3P) writes one, `v_accvgpr_mov_b32` (gfx90a+ VOP1) does both. The
/// operands are turned into AGPR codes here, from the table's operation, so the executor sees plain moves.
fn acc_operands(i: &mut Inst) {
    use crate::op::VOp::*;
    let to_agpr = |code: u16| if (VGPR0..AGPR0).contains(&code) { code - VGPR0 + AGPR0 } else { code };
    match i.op {
        Op::Valu(AccvgprRead) => i.src[0] = to_agpr(i.src[0]),
        Op::Valu(AccvgprWrite) => i.dst = to_agpr(i.dst),
        Op::Valu(AccvgprMov) => {
            i.src[0] = to_agpr(i.src[0]);
            i.dst = to_agpr(i.dst);
        }
        _ => {}
    }
}

fn smem(cx: &Ctx, w: u32, bytes: &[u8], opcode: u32) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let e = cx.entry(Enc::Smem, opcode, 8)?;
    let mut i = base(e.op, Enc::Smem, 8, e.name);
    i.dst = cx.scalar((w >> 6) & 0x7f);
    i.src[0] = ((w & 0x3f) << 1) as u16;
    match cx.fam {
        Family::Gfx9 => {
            let imm = w & (1 << 17) != 0;
            let soe = w & (1 << 14) != 0;
            match (imm, soe) {
                (true, false) => i.imm = sext(d1 & 0x1f_ffff, 21),
                (true, true) => {
                    i.imm = sext(d1 & 0x1f_ffff, 21);
                    i.soffset = cx.scalar(d1 >> 25);
                }
                (false, false) => i.soffset = cx.scalar(d1 & 0xff),
                (false, true) => i.soffset = cx.scalar(d1 >> 25),
            }
            i.flags |= flags::GLC * u8::from(w & (1 << 16) != 0);
        }
        Family::Gfx10 | Family::Gfx11 => {
            i.imm = sext(d1 & 0x1f_ffff, 21);
            i.soffset = cx.scalar(d1 >> 25);
        }
        Family::Gfx12 => {
            i.imm = sext(d1 & 0xff_ffff, 24);
            i.soffset = cx.scalar(d1 >> 25);
        }
    }
    Ok(i)
}

fn ds(cx: &Ctx, w: u32, bytes: &[u8], opcode: u32, acc: bool) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    // Global wave sync: GDS bit set (gfx9 bit 16, gfx10/gfx11 bit 17), opcodes the tables (swept without
    // GDS) lack: gfx9 0x98..=0x9d, gfx10/gfx11 0x18..=0x1d in [`GwsOp::ALL`] order (LLVM's encodings).
    let (gds, first) = if cx.fam == Family::Gfx9 { (w >> 16 & 1, 0x98) } else { (w >> 17 & 1, 0x18) };
    let (op, name) = match opcode.checked_sub(first).and_then(|k| GwsOp::ALL.get(k as usize)) {
        Some(&g) if gds == 1 && cx.fam <= Family::Gfx11 => (Op::Ds(DsOp::Gws(g)), g.name()),
        _ => {
            let e = cx.entry(Enc::Ds, opcode, 8)?;
            (e.op, e.name)
        }
    };
    let mut i = base(op, Enc::Ds, 8, name);
    let vreg = if acc { AGPR0 } else { VGPR0 };
    i.dst = vreg + (d1 >> 24) as u16;
    i.src = [VGPR0 + (d1 & 0xff) as u16, vreg + ((d1 >> 8) & 0xff) as u16, vreg + ((d1 >> 16) & 0xff) as u16];
    i.imm = (w & 0xff) as i32;
    i.imm1 = ((w >> 8) & 0xff) as u8;
    Ok(i)
}

/// FLAT/GLOBAL/SCRATCH for gfx9..gfx11 (64-bit encodings).
fn flat(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let opcode = (w >> 18) & 0x7f;
    let seg = if cx.fam == Family::Gfx11 { (w >> 16) & 3 } else { (w >> 14) & 3 };
    let enc = match seg {
        0 => Enc::Flat,
        1 => Enc::Scratch,
        2 => Enc::Global,
        _ => return Err(DecodeError::UnknownEncoding(w)),
    };
    let e = cx.entry(enc, opcode, 8)?;
    let mut i = base(e.op, enc, 8, e.name);
    let (offset, acc, sve) = match cx.fam {
        Family::Gfx9 => {
            let off = if enc == Enc::Flat { (w & 0xfff) as i32 } else { sext(w & 0x1fff, 13) };
            (off, d1 & (1 << 23) != 0, w & (1 << 13) != 0)
        }
        Family::Gfx10 => {
            let off = if enc == Enc::Flat { (w & 0x7ff) as i32 } else { sext(w & 0xfff, 12) };
            (off, false, false)
        }
        _ => (sext(w & 0x1fff, 13), false, d1 & (1 << 23) != 0),
    };
    let vreg = if acc { AGPR0 } else { VGPR0 };
    i.imm = offset;
    i.dst = vreg + (d1 >> 24) as u16;
    let saddr_field = (d1 >> 16) & 0x7f;
    let saddr_off = match cx.fam {
        Family::Gfx9 => saddr_field == 0x7f,
        Family::Gfx10 => saddr_field == 0x7d || saddr_field == 0x7f,
        _ => saddr_field == 0x7c || saddr_field == 0x7f,
    };
    i.src = [
        VGPR0 + (d1 & 0xff) as u16,
        vreg + ((d1 >> 8) & 0xff) as u16,
        if saddr_off { NULL } else { cx.scalar(saddr_field) },
    ];
    i.flags |= flags::GLC * u8::from(w & (1 << if cx.fam == Family::Gfx11 { 14 } else { 16 }) != 0);
    // Scratch uses its address VGPR when saddr is off (gfx9 before gfx940, gfx10) or when SVE says so.
    let uses_vaddr = match (cx.fam, enc) {
        (_, Enc::Scratch) if cx.fam == Family::Gfx10 => saddr_off,
        (Family::Gfx9, Enc::Scratch) => sve || saddr_off,
        (_, Enc::Scratch) => sve,
        _ => true,
    };
    i.flags |= flags::SVE * u8::from(uses_vaddr);
    Ok(i)
}

fn mubuf(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let opcode = if cx.fam == Family::Gfx9 { (w >> 18) & 0x7f } else { (w >> 18) & 0xff };
    let e = cx.entry(Enc::Mubuf, opcode, 8)?;
    let mut i = base(e.op, Enc::Mubuf, 8, e.name);
    let (offen, idxen, acc, lds) = match cx.fam {
        Family::Gfx9 => (w & (1 << 12) != 0, w & (1 << 13) != 0, d1 & (1 << 23) != 0, w & (1 << 16) != 0),
        Family::Gfx10 => (w & (1 << 12) != 0, w & (1 << 13) != 0, false, w & (1 << 16) != 0),
        _ => (d1 & (1 << 22) != 0, d1 & (1 << 23) != 0, false, false),
    };
    let vreg = if acc { AGPR0 } else { VGPR0 };
    i.imm = (w & 0xfff) as i32;
    i.dst = vreg + ((d1 >> 8) & 0xff) as u16;
    i.src = [VGPR0 + (d1 & 0xff) as u16, vreg + ((d1 >> 8) & 0xff) as u16, (((d1 >> 16) & 0x1f) << 2) as u16];
    i.soffset = cx.src9(d1 >> 24);
    i.flags |= (flags::OFFEN * u8::from(offen)) | (flags::IDXEN * u8::from(idxen)) | (flags::LDS * u8::from(lds));
    i.flags |= flags::GLC * u8::from(w & (1 << 14) != 0);
    Ok(i)
}

/// MTBUF (gfx9, gfx10, gfx11): MUBUF's operands with the texel format in the instruction. Field positions
/// from the ISA guides' "MTBUF" microcode format, checked against llvm-mc-21's encodings:
/// - gfx9: OP 4 bits at 15, DFMT 4 bits at 19, NFMT 3 bits at 23; OFFEN, IDXEN, GLC at 12, 13, 14; ACC at
///   dword 1 bit 23;
/// - gfx10: OP bits 0..2 at 16 and bit 3 at dword 1 bit 21, FORMAT 7 bits at 19; OFFEN, IDXEN, GLC as gfx9;
/// - gfx11: OP 4 bits at 15, FORMAT 7 bits at 19, GLC at 14; OFFEN and IDXEN at dword 1 bits 22 and 23.
///
/// Dword 1 is MUBUF's: VADDR, VDATA, SRSRC (in 4-register units) at 16, SOFFSET at 24.
fn mtbuf(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let opcode = match cx.fam {
        Family::Gfx10 => ((w >> 16) & 7) | (((d1 >> 21) & 1) << 3),
        _ => (w >> 15) & 0xf,
    };
    let e = cx.entry(Enc::Mtbuf, opcode, 8)?;
    let mut i = base(e.op, Enc::Mtbuf, 8, e.name);
    let (offen, idxen, acc) = match cx.fam {
        Family::Gfx9 => (w & (1 << 12) != 0, w & (1 << 13) != 0, d1 & (1 << 23) != 0),
        Family::Gfx10 => (w & (1 << 12) != 0, w & (1 << 13) != 0, false),
        _ => (d1 & (1 << 22) != 0, d1 & (1 << 23) != 0, false),
    };
    // As V# word 3 holds it from bit 12: gfx9 NUM_FORMAT (3 bits) below DATA_FORMAT (4 bits), gfx10+ FORMAT.
    i.imm1 = match cx.fam {
        Family::Gfx9 => ((((w >> 19) & 0xf) << 3) | ((w >> 23) & 7)) as u8,
        _ => ((w >> 19) & 0x7f) as u8,
    };
    let vreg = if acc { AGPR0 } else { VGPR0 };
    i.imm = (w & 0xfff) as i32;
    i.dst = vreg + ((d1 >> 8) & 0xff) as u16;
    i.src = [VGPR0 + (d1 & 0xff) as u16, vreg + ((d1 >> 8) & 0xff) as u16, (((d1 >> 16) & 0x1f) << 2) as u16];
    i.soffset = cx.src9(d1 >> 24);
    i.flags |= (flags::OFFEN * u8::from(offen)) | (flags::IDXEN * u8::from(idxen)) | flags::TFMT;
    i.flags |= flags::GLC * u8::from(w & (1 << 14) != 0);
    Ok(i)
}

fn decode_gfx9(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    if let Some(r) = scalar_formats(cx, w, bytes) {
        return r;
    }
    match w >> 26 {
        0b11_0000 => smem(cx, w, bytes, (w >> 18) & 0xff),
        0b11_0100 => {
            if w >> 23 == 0x1a7 {
                vop3p(cx, w, bytes, (w >> 16) & 0x7f)
            } else {
                vop3(cx, w, bytes, (w >> 16) & 0x3ff)
            }
        }
        0b11_0110 => ds(cx, w, bytes, (w >> 17) & 0xff, w & (1 << 25) != 0),
        0b11_0111 => flat(cx, w, bytes),
        0b11_1000 => mubuf(cx, w, bytes),
        0b11_1010 => mtbuf(cx, w, bytes),
        0b11_1100 => decode_mimg(cx.fam, cx.unified_agprs, w, bytes),
        _ if w >> 31 == 0 => vop_short(cx, w, bytes),
        _ => Err(DecodeError::UnknownEncoding(w)),
    }
}

fn vopd(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let (opx, opy) = ((w >> 22) & 0xf, (w >> 17) & 0x1f);
    let srcx0 = cx.src9(w & 0x1ff);
    let srcy0 = cx.src9(d1 & 0x1ff);
    let lit_x = cx.table.get(Enc::VopdX, opx).is_some_and(|e| e.lit);
    let lit_y = cx.table.get(Enc::VopdY, opy).is_some_and(|e| e.lit);
    let (size, lit) = with_literal(bytes, 2, srcx0 == LITERAL || srcy0 == LITERAL || lit_x || lit_y)?;
    let ex = cx.entry(Enc::VopdX, opx, size)?;
    let ey = cx.entry(Enc::VopdY, opy, size)?;
    let vdstx = (d1 >> 24) as u16;
    let vdsty = ((((d1 >> 17) & 0x7f) << 1) as u16) | ((vdstx & 1) ^ 1);
    let mut x = base(ex.op, Enc::VopdX, size, ex.name);
    x.dst = VGPR0 + vdstx;
    x.src = [srcx0, VGPR0 + ((w >> 9) & 0xff) as u16, NONE];
    x.lit = lit;
    let mut y = base(ey.op, Enc::VopdY, size, ey.name);
    y.dst = VGPR0 + vdsty;
    y.src = [srcy0, VGPR0 + ((d1 >> 9) & 0xff) as u16, NONE];
    y.lit = lit;
    // A VOPD half encodes only src0 and vsrc1; the third operand is implicit and depends on the operation
    // (RDNA3/RDNA4 ISA, "VOPD"): v_dual_fmac_f32 and v_dual_dot2acc_f32_f16 accumulate into their
    // destination, v_dual_cndmask_b32 selects with VCC (wave32 only), v_dual_fmaak/fmamk take the literal
    // as K and the others have two sources.
    for h in [&mut x, &mut y] {
        h.src[2] = vopd_src2(h.op, h.dst);
    }
    x.y = Some(Box::new(y));
    Ok(x)
}

/// The implicit third operand of a VOPD half.
fn vopd_src2(op: Op, dst: u16) -> u16 {
    use crate::op::VOp::*;
    match op {
        Op::Valu(FmacF32 | Dot2cF32F16) => dst,
        Op::Valu(CndmaskB32) => VCC_LO,
        _ => NONE,
    }
}

fn decode_gfx12_mem(cx: &Ctx, w: u32, bytes: &[u8]) -> Option<Result<Inst, DecodeError>> {
    let enc = match w >> 24 {
        0xec => Enc::Flat,
        0xed => Enc::Scratch,
        0xee => Enc::Global,
        _ if w >> 26 == 0b11_0001 => Enc::Mubuf,
        _ => return None,
    };
    Some((|| {
        let d1 = dword(bytes, 1)?;
        let d2 = dword(bytes, 2)?;
        let opcode = (w >> 14) & if enc == Enc::Mubuf { 0xff } else { 0x7f };
        let e = cx.entry(enc, opcode, 12)?;
        let mut i = base(e.op, enc, 12, e.name);
        i.imm = sext(d2 >> 8, 24);
        i.dst = VGPR0 + (d1 & 0xff) as u16;
        if enc == Enc::Mubuf {
            i.src = [VGPR0 + (d2 & 0xff) as u16, VGPR0 + (d1 & 0xff) as u16, ((d1 >> 9) & 0x7f) as u16];
            i.soffset = cx.scalar(w & 0x7f);
            i.flags |= (flags::OFFEN * u8::from(d1 & (1 << 30) != 0)) | (flags::IDXEN * u8::from(d1 & (1 << 31) != 0));
            // `tbuffer_*` (VBUFFER opcodes 0x80..0x8f): FORMAT, 7 bits at dword 1 bit 23.
            if e.name.starts_with("tbuffer_") {
                i.flags |= flags::TFMT;
                i.imm1 = ((d1 >> 23) & 0x7f) as u8;
            }
        } else {
            let saddr = w & 0x7f;
            i.src = [
                VGPR0 + (d2 & 0xff) as u16,
                VGPR0 + ((d1 >> 23) & 0xff) as u16,
                if saddr == 0x7c { NULL } else { cx.scalar(saddr) },
            ];
            let sve = d1 & (1 << 17) != 0;
            i.flags |= flags::SVE * u8::from(enc != Enc::Scratch || sve);
        }
        // gfx12 has no GLC bit; atomics return the old value when th says so (TH_ATOMIC_RETURN = bit 0).
        i.flags |= flags::GLC * u8::from((d1 >> 20) & 1 != 0);
        Ok(i)
    })())
}

fn decode_rdna(cx: &Ctx, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    if let Some(r) = scalar_formats(cx, w, bytes) {
        return r;
    }
    if cx.fam == Family::Gfx12 {
        if let Some(r) = decode_gfx12_mem(cx, w, bytes) {
            return r;
        }
    }
    match w >> 26 {
        0b11_1101 => {
            let opcode = if cx.fam == Family::Gfx12 { (w >> 13) & 0x3f } else { (w >> 18) & 0xff };
            smem(cx, w, bytes, opcode)
        }
        0b11_0101 => vop3(cx, w, bytes, (w >> 16) & 0x3ff),
        0b11_0011 if w >> 24 == 0xcc => vop3p(cx, w, bytes, (w >> 16) & 0x7f),
        0b11_0010 if cx.fam >= Family::Gfx11 => vopd(cx, w, bytes),
        0b11_0110 => ds(cx, w, bytes, (w >> 18) & 0xff, false),
        0b11_0111 if cx.fam <= Family::Gfx11 => flat(cx, w, bytes),
        0b11_1000 if cx.fam <= Family::Gfx11 => mubuf(cx, w, bytes),
        0b11_1010 if cx.fam <= Family::Gfx11 => mtbuf(cx, w, bytes),
        0b11_1100 if cx.fam <= Family::Gfx11 => decode_mimg(cx.fam, false, w, bytes),
        0b11_0100 | 0b11_1001 if cx.fam == Family::Gfx12 => decode_vimage(w, bytes),
        _ if w >> 31 == 0 => vop_short(cx, w, bytes),
        _ => Err(DecodeError::UnknownEncoding(w)),
    }
}

/// The VGPR code of address register `k` of image instruction `i` (consecutive registers, or the NSA list).
pub fn image_address(i: &Inst, k: usize) -> u16 {
    if i.imm & image::bits::NSA == 0 || k == 0 {
        i.src[0] + k as u16
    } else {
        let extra = u64::from(i.lit) | (u64::from(i.imm1) << 32);
        VGPR0 + ((extra >> (8 * (k - 1))) & 0xff) as u16
    }
}

/// Decodes a MIMG instruction (first dword `w`, bits 31:26 = 0b111100) of gfx9, gfx10 or gfx11.
pub(crate) fn decode_mimg(fam: Family, agpr_bit: bool, w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let gfx11 = fam >= Family::Gfx11;
    let opcode =
        if gfx11 { (w >> 18) & 0xff } else { ((w >> 18) & 0x7f) | if fam == Family::Gfx10 { (w & 1) << 7 } else { 0 } };
    let dmask = (w >> 8) & 0xf;
    let (dim, unorm, a16, d16, da, tfe_lwe) = match fam {
        Family::Gfx9 => {
            (0, w >> 12 & 1, w >> 15 & 1, d1 >> 31, w >> 14 & 1, if agpr_bit { w >> 17 & 1 } else { w >> 16 & 3 })
        }
        Family::Gfx10 => ((w >> 3) & 7, w >> 12 & 1, d1 >> 30 & 1, d1 >> 31, 0, w >> 16 & 3),
        _ => ((w >> 2) & 7, w >> 7 & 1, w >> 16 & 1, w >> 17 & 1, 0, d1 >> 21 & 3),
    };
    let nsa_words = match fam {
        Family::Gfx9 => 0,
        Family::Gfx10 => (w >> 1) & 3,
        _ => w & 1,
    };
    let entry = image::OPCODES.iter().find(|e| (if gfx11 { e.1 } else { e.0 }) == opcode);
    let mut size = 8u8;
    if nsa_words > 0 {
        let n = match (fam, entry) {
            (Family::Gfx10, _) => 4 * nsa_words,
            (_, Some(e)) => {
                let regs = u32::from(image::address_count(e.2, dim as u8));
                let regs = if a16 != 0 { regs.div_ceil(2) } else { regs };
                4 * (regs.saturating_sub(1)).div_ceil(4)
            }
            // Unknown gfx11 opcode: assume one NSA dword (the common size).
            _ => 4,
        };
        size += n as u8;
    }
    let Some(&(_, _, op, name)) = entry else {
        return Err(DecodeError::UnknownOpcode { enc: Enc::Mimg, opcode, size });
    };
    if tfe_lwe != 0 {
        // Texture-fail/LOD-warning results are not modelled; report the instruction as unknown to the table.
        return Err(DecodeError::UnknownOpcode { enc: Enc::Mimg, opcode, size });
    }
    let mut extra = 0u64;
    if nsa_words > 0 {
        for k in 0..usize::from(size - 8) {
            extra |= u64::from(*bytes.get(8 + k).ok_or(DecodeError::Truncated)?) << (8 * k);
        }
    }
    let acc = agpr_bit && fam == Family::Gfx9 && w >> 16 & 1 != 0;
    let vdata = if acc { AGPR0 } else { VGPR0 } + ((d1 >> 8) & 0xff) as u16;
    let mut i = base(Op::Image(op), Enc::Mimg, size, name);
    i.dst = vdata;
    i.src = [VGPR0 + (d1 & 0xff) as u16, vdata, (((d1 >> 16) & 0x1f) << 2) as u16];
    i.sdst = if matches!(op, image::ImageOp::Sample { .. }) {
        let ssamp = if gfx11 { (d1 >> 26) & 0x1f } else { (d1 >> 21) & 0x1f };
        (ssamp << 2) as u16
    } else {
        NONE
    };
    i.imm = (dmask as i32)
        | ((dim as i32) << image::bits::DIM_SHIFT)
        | if unorm != 0 { image::bits::UNORM } else { 0 }
        | if a16 != 0 { image::bits::A16 } else { 0 }
        | if d16 != 0 { image::bits::D16 } else { 0 }
        | if da != 0 { image::bits::DA } else { 0 }
        | if nsa_words > 0 { image::bits::NSA } else { 0 }
        | if fam == Family::Gfx9 { image::bits::NO_DIM } else { 0 };
    i.lit = extra as u32;
    i.imm1 = (extra >> 32) as u8;
    let glc_bit = if gfx11 { 14 } else { 13 };
    i.flags |= flags::GLC * u8::from(w >> glc_bit & 1 != 0);
    Ok(i)
}

/// Decodes a gfx12 VIMAGE (bits 31:26 = 0b110100) or VSAMPLE (0b111001) instruction: three dwords, every
/// address in its own VGPR field (VADDR0..3 in the third dword, VADDR4 of VIMAGE in bits 31:24 of the
/// second). Fields as LLVM encodes them: DIM 2:0, R128 4, D16 5, A16 6, VSAMPLE's TFE 3 and UNORM 13, OP
/// 21:14, DMASK 25:22; VDATA 7:0, RSRC 17:9 (an SGPR number), VIMAGE's TFE 23, VSAMPLE's LWE 8 and SAMP 31:23.
pub(crate) fn decode_vimage(w: u32, bytes: &[u8]) -> Result<Inst, DecodeError> {
    let d1 = dword(bytes, 1)?;
    let d2 = dword(bytes, 2)?;
    let sample = w >> 26 == 0b11_1001;
    let opcode = (w >> 14) & 0xff;
    let entry = image::OPCODES.iter().find(|e| e.1 == opcode && matches!(e.2, image::ImageOp::Sample { .. }) == sample);
    let tfe_lwe = if sample { (w >> 3) & 1 | (d1 >> 8) & 1 } else { (d1 >> 23) & 1 };
    let Some(&(_, _, op, name)) = entry.filter(|_| tfe_lwe == 0) else {
        // Unknown opcodes and texture-fail/LOD-warning results (not modelled) are unknown to the table.
        return Err(DecodeError::UnknownOpcode { enc: Enc::Mimg, opcode, size: 12 });
    };
    let (dim, a16, d16) = (w & 7, (w >> 6) & 1, (w >> 5) & 1);
    let regs = u32::from(image::address_count(op, dim as u8));
    if (if a16 != 0 { regs.div_ceil(2) } else { regs }) > 4 {
        // A fifth address (VADDR4) is never needed by the instructions above.
        return Err(DecodeError::UnknownOpcode { enc: Enc::Mimg, opcode, size: 12 });
    }
    let vdata = VGPR0 + (d1 & 0xff) as u16;
    let mut i = base(Op::Image(op), Enc::Mimg, 12, name);
    i.dst = vdata;
    i.src = [VGPR0 + (d2 & 0xff) as u16, vdata, ((d1 >> 9) & 0x7f) as u16];
    i.sdst = if sample { ((d1 >> 23) & 0x7f) as u16 } else { NONE };
    let unorm = sample && (w >> 13) & 1 != 0;
    i.imm = (((w >> 22) & 0xf) as i32)
        | ((dim as i32) << image::bits::DIM_SHIFT)
        | if unorm { image::bits::UNORM } else { 0 }
        | if a16 != 0 { image::bits::A16 } else { 0 }
        | if d16 != 0 { image::bits::D16 } else { 0 }
        | image::bits::NSA;
    // VADDR1..3 in the NSA list's first three bytes ([`image_address`]).
    i.lit = d2 >> 8;
    Ok(i)
}

/// Resolves the sources of `i` as 32-bit integer or f32 operands (16-bit inline floats are not
/// resolved: the fast paths read 32-bit operands only).
pub(crate) fn pre_of(i: &Inst) -> Pre {
    let is_row = |c: u16| c >= VGPR0 && c - VGPR0 < ARCH_ROWS;
    let src = i.src.map(|code| match code {
        c if is_row(c) => Src::Row(c - VGPR0),
        NULL => Src::Const(0),
        0..=127 => Src::Sgpr(code as u8),
        251..=253 => Src::Other(code),
        c if c < VGPR0 => Src::Const(crate::operand::const32(c, i.lit, crate::operand::Ty::F32)),
        c => Src::Other(c),
    });
    let plain =
        matches!(i.extra, Extra::None) && i.mods.abs == 0 && i.mods.neg == 0 && i.mods.omod == 0 && !i.mods.clamp;
    let row = src.map(|s| if let Src::Row(r) = s { r } else { 0 });
    let dst = if is_row(i.dst) { i.dst - VGPR0 } else { 0 };
    let rest_rows = src[1..].iter().all(|s| matches!(s, Src::Row(_) | Src::Other(NONE)));
    let form = match src[0] {
        _ if !is_row(i.dst) => Form::Any,
        Src::Row(_) if rest_rows => Form::Rows,
        Src::Sgpr(_) | Src::Const(_) if rest_rows => Form::Scalar0,
        _ => Form::Any,
    };
    Pre { src, plain, row, dst, form }
}
