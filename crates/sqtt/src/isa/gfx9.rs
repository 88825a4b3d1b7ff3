//! gfx9 (CDNA: gfx90a, gfx942, gfx950) instruction encodings: sizes, classes, branch offsets.
//!
//! Encoding selectors and opcode numbers follow the CDNA3 ISA reference guide's microcode formats
//! and LLVM's gfx9 (`VI`-derived) opcode tables. VOP1/VOP2/VOPC grow by a dword for a literal
//! (source 255), SDWA (249) or DPP (250); VOP3/VOP3P/MFMA are 8 bytes (no literals on gfx9).

use super::{flags, InstInfo, LineClass};
use crate::cursor::le_u32;

/// Decodes one gfx9 instruction.
pub fn decode(bytes: &[u8]) -> Option<InstInfo> {
    let w = le_u32(bytes, 0)?;
    let info = if w >> 23 == 0x17f {
        let op = (w >> 16) & 0x7f;
        let (class, f) = match op {
            0x0c => (LineClass::Immed, flags::WAITCNT),          // s_waitcnt
            0x0a => (LineClass::Gfx9Barrier, 0),                 // s_barrier
            0x01 => (LineClass::Immed, flags::ENDPGM),           // s_endpgm
            0x02..=0x09 | 0x17..=0x1a => (LineClass::Branch, 0), // s_branch, s_cbranch_*
            0x1b..=0x1f => (LineClass::Immed, 0),                // s_endpgm_saved .. s_endpgm_ordered_ps_done
            0x16 => (LineClass::Immed, 0),                       // s_set_gpr_idx_off
            0x20..=0x21 => (LineClass::Salu, 0),                 // s_round_mode .. (prefix s_round / s_denorm)
            _ => (LineClass::Immed, 0),
        };
        let mut i = InstInfo::new(4, class).with_flags(f);
        i.simm16 = w as u16 as i16;
        i
    } else if w >> 23 == 0x17d {
        let lit = if w & 0xff == 0xff { 4 } else { 0 };
        InstInfo::new(4 + lit, LineClass::Salu)
    } else if w >> 23 == 0x17e {
        let lit = if w & 0xff == 0xff || (w >> 8) & 0xff == 0xff { 4 } else { 0 };
        InstInfo::new(4 + lit, LineClass::Salu)
    } else if w >> 28 == 0xb {
        let op = (w >> 23) & 0x1f;
        let size = if op == 0x14 { 8 } else { 4 }; // s_setreg_imm32_b32
        InstInfo::new(size, LineClass::Salu)
    } else if w >> 30 == 0b10 {
        let lit = if w & 0xff == 0xff || (w >> 8) & 0xff == 0xff { 4 } else { 0 };
        InstInfo::new(4 + lit, LineClass::Salu)
    } else if w >> 26 == 0b11_0000 {
        let op = (w >> 18) & 0xff;
        let f = if op < 0x10 || (0x20..0x30).contains(&op) { flags::LOAD } else { 0 };
        InstInfo::new(8, LineClass::Smem).with_flags(f)
    } else if w >> 31 == 0 {
        let src0 = w & 0x1ff;
        let mut size = 4 + if matches!(src0, 0xff | 0xf9 | 0xfa) { 4 } else { 0 };
        if w >> 25 != 0x3f && w >> 25 != 0x3e {
            let op = (w >> 25) & 0x3f;
            // v_madmk/v_madak (f32 0x17/0x18, f16 0x24/0x25) always carry a literal
            if matches!(op, 0x17 | 0x18 | 0x24 | 0x25) && src0 != 0xff {
                size += 4;
            }
        }
        InstInfo::new(size, LineClass::Valu)
    } else if w >> 26 == 0b11_0100 {
        // VOP3 / VOP3P / MFMA
        let class = if w >> 23 == 0x1a7 && matches!((w >> 16) & 0x7f, 0x37 | 0x2e) {
            LineClass::MfmaScale // v_mfma_scale_f32_* (gfx950)
        } else {
            LineClass::Valu
        };
        InstInfo::new(8, class)
    } else if w >> 26 == 0b11_0101 {
        InstInfo::new(4, LineClass::Valu) // VINTRP
    } else if w >> 26 == 0b11_0110 {
        let op = (w >> 17) & 0xff;
        let load = matches!(op, 0x36..=0x3c | 0x76..=0x78 | 0xfe | 0xff);
        InstInfo::new(8, LineClass::Lds).with_flags(if load { flags::LOAD } else { 0 })
    } else if w >> 26 == 0b11_0111 {
        let op = (w >> 18) & 0x7f;
        let load = if matches!(op, 0x10..=0x17 | 0x20..=0x25) { flags::LOAD } else { 0 };
        match (w >> 14) & 3 {
            0 => InstInfo::new(8, LineClass::Flat).with_flags(load),
            1 => InstInfo::new(8, LineClass::Vmem).with_flags(load | flags::SCRATCH),
            _ => InstInfo::new(8, LineClass::Vmem).with_flags(load),
        }
    } else if w >> 26 == 0b11_1000 || w >> 26 == 0b11_1010 {
        let op = (w >> 18) & 0x7f;
        let load = matches!(op, 0x00..=0x03 | 0x08..=0x0b | 0x10..=0x17 | 0x20..=0x25);
        InstInfo::new(8, LineClass::Vmem).with_flags(if load { flags::LOAD } else { 0 })
    } else if w >> 26 == 0b11_1100 {
        InstInfo::new(8, LineClass::Vmem)
    } else if w >> 26 == 0b11_0001 {
        InstInfo::new(8, LineClass::DontKnow) // export
    } else {
        InstInfo::new(4, LineClass::DontKnow)
    };
    Some(info)
}
