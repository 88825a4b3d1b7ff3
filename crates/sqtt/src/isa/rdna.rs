//! gfx11 (RDNA3) and gfx12 (RDNA4) instruction encodings: sizes, classes, branch offsets.
//!
//! Encoding selectors (high bits of the first dword) and opcode numbers follow the RDNA3/RDNA4
//! ISA reference guides' microcode-format chapters and LLVM's `SOPInstructions.td`,
//! `SMInstructions.td`, `FLATInstructions.td`, `DSInstructions.td` (gfx11/gfx12 opcodes).
//! A literal constant (source operand 255) adds a dword, as do DPP16 (250) and DPP8 (233/234)
//! in the first source of VOP1/VOP2/VOPC/VOP3/VOP3P.

use super::{flags, InstInfo, LineClass};
use crate::cursor::le_u32;

const LITERAL: u32 = 0xff;

fn vop_src_extra(src0: u32) -> u8 {
    match src0 {
        LITERAL | 0xfa | 0xe9 | 0xea => 4,
        _ => 0,
    }
}

/// SOPP (`s_nop` .. `s_endpgm`, branches, waits): class and flags by opcode.
fn sopp(op: u32, gfx12: bool) -> (LineClass, u8) {
    match op {
        0x07 => (LineClass::Skip, 0),                             // s_delay_alu
        0x08 if gfx12 => (LineClass::Skip, 0),                    // s_wait_alu
        0x08 | 0x09 => (LineClass::Immed, flags::WAITCNT),        // gfx11 s_waitcnt_depctr, s_waitcnt
        0x11 | 0x12 => (LineClass::Salu, 0),                      // s_round_mode, s_denorm_mode
        0x14 if gfx12 => (LineClass::Immed, flags::BARRIER_WAIT), // s_barrier_wait
        0x1f => (LineClass::Salu, 0), // s_code_end: no prefix entry, falls back to s_* = SALU
        0x20..=0x2a => (LineClass::Branch, 0), // s_branch, s_cbranch_*
        0x30 => (LineClass::Immed, flags::ENDPGM),
        _ => (LineClass::Immed, 0),
    }
}

/// SOP1: everything is SALU except the message and barrier forms.
fn sop1(op: u32, gfx12: bool) -> LineClass {
    match op {
        0x4c | 0x4d => LineClass::Immed, // s_sendmsg_rtn_b32/b64
        // gfx12 s_barrier_signal, s_barrier_signal_isfirst, s_barrier_init, s_barrier_join, s_sleep_var
        0x4e | 0x4f | 0x51 | 0x52 | 0x58 if gfx12 => LineClass::Immed,
        _ => LineClass::Salu,
    }
}

/// Decodes one gfx11 (`gfx12 == false`) or gfx12 instruction.
pub fn decode(bytes: &[u8], gfx12: bool) -> Option<InstInfo> {
    let w = le_u32(bytes, 0)?;
    let w1 = le_u32(bytes, 4).unwrap_or(0);
    let info = if w >> 23 == 0x17f {
        let (class, f) = sopp((w >> 16) & 0x7f, gfx12);
        let mut i = InstInfo::new(4, class).with_flags(f);
        i.simm16 = w as u16 as i16;
        i
    } else if w >> 23 == 0x17d {
        let lit = if w & 0xff == LITERAL { 4 } else { 0 };
        InstInfo::new(4 + lit, sop1((w >> 8) & 0xff, gfx12))
    } else if w >> 23 == 0x17e {
        let lit = if w & 0xff == LITERAL || (w >> 8) & 0xff == LITERAL { 4 } else { 0 };
        InstInfo::new(4 + lit, LineClass::Salu)
    } else if w >> 28 == 0xb {
        let op = (w >> 23) & 0x1f;
        let size = if op == 0x13 { 8 } else { 4 }; // s_setreg_imm32_b32 carries a literal
        match op {
            0x01 => InstInfo::new(size, LineClass::Immed), // s_version
            0x16..=0x19 if !gfx12 => InstInfo::new(size, LineClass::Immed).with_flags(flags::WAITCNT),
            _ => InstInfo::new(size, LineClass::Salu),
        }
    } else if w >> 30 == 0b10 {
        let lit = if w & 0xff == LITERAL || (w >> 8) & 0xff == LITERAL { 4 } else { 0 };
        InstInfo::new(4 + lit, LineClass::Salu)
    } else if w >> 26 == 0b11_1101 {
        // SMEM
        let op = if gfx12 { (w >> 13) & 0x3f } else { (w >> 18) & 0xff };
        if !gfx12 && op == 0x20 {
            InstInfo::new(8, LineClass::Salu) // s_gl1_inv: no prefix entry
        } else if op < 0x20 {
            InstInfo::new(8, LineClass::Smem).with_flags(flags::LOAD)
        } else {
            InstInfo::new(8, LineClass::Smem)
        }
    } else if w >> 31 == 0 {
        // VOP1 / VOPC / VOP2
        let src0 = w & 0x1ff;
        let mut size = 4 + vop_src_extra(src0);
        let mut class = LineClass::Valu;
        if w >> 25 == 0x3f {
            if gfx12 && (w >> 9) & 0xff == 0x1d {
                class = LineClass::VMovB64;
            }
        } else if w >> 25 != 0x3e {
            let op = (w >> 25) & 0x3f;
            if matches!(op, 0x2c | 0x2d | 0x37 | 0x38) && src0 != LITERAL {
                size += 4; // v_fmamk/v_fmaak always carry a literal
            }
        }
        InstInfo::new(size, class)
    } else if w >> 26 == 0b11_0101 || w >> 24 == 0xcc {
        // VOP3 (incl. VOP3SD) / VOP3P
        let s0 = w1 & 0x1ff;
        let s1 = (w1 >> 9) & 0x1ff;
        let s2 = (w1 >> 18) & 0x1ff;
        let lit = if s0 == LITERAL || s1 == LITERAL || s2 == LITERAL { 4 } else { 0 };
        let dpp = if matches!(s0, 0xfa | 0xe9 | 0xea) { 4 } else { 0 };
        let mut class = LineClass::Valu;
        if gfx12 && w >> 26 == 0b11_0101 && (w >> 16) & 0x3ff == 0x19d {
            class = LineClass::VMovB64;
        }
        InstInfo::new(8 + lit + dpp, class)
    } else if w >> 24 == 0xcd {
        InstInfo::new(8, LineClass::Valu) // VINTERP
    } else if w >> 24 == 0xce {
        InstInfo::new(4, LineClass::Lds) // LDSDIR / VDSDIR
    } else if w >> 26 == 0b11_0010 {
        // VOPD: one literal shared by both halves; fmaak/fmamk always have one
        let opx = (w >> 22) & 0xf;
        let opy = (w >> 17) & 0x1f;
        let lit = w & 0x1ff == LITERAL || w1 & 0x1ff == LITERAL || matches!(opx, 1 | 2) || matches!(opy, 1 | 2);
        InstInfo::new(if lit { 12 } else { 8 }, LineClass::Valu)
    } else if w >> 26 == 0b11_0110 {
        let op = (w >> 18) & 0xff;
        let load = matches!(op, 0x36..=0x3c | 0xa2..=0xa7 | 0xfe | 0xff);
        InstInfo::new(8, LineClass::Lds).with_flags(if load { flags::LOAD } else { 0 })
    } else if gfx12 {
        decode_gfx12_mem(w)
    } else {
        decode_gfx11_mem(w, w1)
    };
    Some(info)
}

fn flat_load(op: u32) -> bool {
    matches!(op, 0x10..=0x17 | 0x20..=0x25)
}

fn decode_gfx11_mem(w: u32, w1: u32) -> InstInfo {
    match w >> 26 {
        0b11_0111 => {
            let op = (w >> 18) & 0x7f;
            let load = if flat_load(op) { flags::LOAD } else { 0 };
            match (w >> 16) & 3 {
                0 => InstInfo::new(8, LineClass::Flat).with_flags(load),
                1 => InstInfo::new(8, LineClass::Vmem).with_flags(load | flags::SCRATCH),
                _ => InstInfo::new(8, LineClass::Vmem).with_flags(load),
            }
        }
        0b11_1000 => {
            let op = (w >> 18) & 0x7f;
            let load = matches!(op, 0x00..=0x03 | 0x08..=0x0b | 0x10..=0x17 | 0x20..=0x25);
            InstInfo::new(8, LineClass::Vmem).with_flags(if load { flags::LOAD } else { 0 })
        }
        0b11_1010 => {
            let op = (w >> 16) & 0xf;
            let load = matches!(op, 0x0..=0x3 | 0x8..=0xb);
            InstInfo::new(8, LineClass::Vmem).with_flags(if load { flags::LOAD } else { 0 })
        }
        0b11_1100 => {
            // MIMG; NSA forms (bit 0) carry extra address dwords (count in bits 1..2 of w).
            let op = (w >> 18) & 0xff;
            let class = if matches!(op, 0x19 | 0x1a) { LineClass::Bvh } else { LineClass::Vmem };
            let nsa = if w & 1 != 0 { 4 * (((w >> 1) & 3) + 1) as u8 } else { 0 };
            let _ = w1;
            InstInfo::new(8 + nsa, class)
        }
        0b11_1110 => InstInfo::new(8, LineClass::DontKnow), // export
        _ => InstInfo::new(4, LineClass::DontKnow),
    }
}

fn decode_gfx12_mem(w: u32) -> InstInfo {
    match w >> 24 {
        0xec => {
            InstInfo::new(12, LineClass::Flat).with_flags(if flat_load((w >> 14) & 0x7f) { flags::LOAD } else { 0 })
        }
        0xed => InstInfo::new(12, LineClass::Vmem)
            .with_flags(flags::SCRATCH | if flat_load((w >> 14) & 0x7f) { flags::LOAD } else { 0 }),
        0xee => {
            InstInfo::new(12, LineClass::Vmem).with_flags(if flat_load((w >> 14) & 0x7f) { flags::LOAD } else { 0 })
        }
        _ => match w >> 26 {
            0b11_0001 => {
                let op = (w >> 14) & 0xff;
                let load = matches!(op, 0x00..=0x03 | 0x08..=0x0b | 0x10..=0x17 | 0x20..=0x25);
                InstInfo::new(12, LineClass::Vmem).with_flags(if load { flags::LOAD } else { 0 })
            }
            0b11_0100 | 0b11_1001 => {
                let op = (w >> 14) & 0xff;
                let class = if matches!(op, 0x19 | 0x1a) { LineClass::Bvh } else { LineClass::Vmem };
                InstInfo::new(12, class)
            }
            0b11_1110 => InstInfo::new(8, LineClass::DontKnow), // export
            _ => InstInfo::new(4, LineClass::DontKnow),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(words: &[u32], gfx12: bool) -> InstInfo {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode(&bytes, gfx12).unwrap()
    }

    // Encodings below are words of the corpus code objects with LLVM's sizes for them.
    #[test]
    fn gfx11_sizes_and_classes() {
        let e = d(&[0xbfb00000], false);
        assert_eq!((e.size, e.class, e.flags), (4, LineClass::Immed, flags::ENDPGM));
        assert_eq!(d(&[0xf4080100, 0], false), InstInfo::new(8, LineClass::Smem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xd6560001, 0], false).size, 8);
        assert_eq!(d(&[0xbf870112], false).class, LineClass::Skip);
        assert_eq!((d(&[0xbf89fc07], false).class, d(&[0xbf89fc07], false).flags), (LineClass::Immed, flags::WAITCNT));
        assert_eq!(d(&[0xdc560000, 0], false), InstInfo::new(8, LineClass::Vmem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xca000080, 0], false).size, 8);
        assert_eq!(d(&[0xd8340000, 0], false).class, LineClass::Lds);
        let b = d(&[0xbfa5002b], false);
        assert_eq!((b.class, b.simm16), (LineClass::Branch, 43));
        assert_eq!(d(&[0x7c9800ff, 0x7f], false).size, 8);
        assert_eq!(d(&[0xbfbd0000], false).class, LineClass::Immed);
        assert_eq!(d(&[0x8402850f], false).class, LineClass::Salu);
        assert_eq!(d(&[0xbe80007e], false).class, LineClass::Salu);
        assert_eq!(d(&[0xbf9f0000], false).class, LineClass::Salu);
    }

    #[test]
    fn gfx12_sizes_and_classes() {
        assert_eq!(d(&[0xee05407c, 0, 0], true), InstInfo::new(12, LineClass::Vmem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xee068000, 0, 0], true).size, 12);
        assert_eq!(d(&[0xbf88fffd], true).class, LineClass::Skip);
        assert_eq!(d(&[0xbfc70000], true).class, LineClass::Immed);
        assert_eq!(
            (d(&[0xbf94ffff], true).class, d(&[0xbf94ffff], true).flags),
            (LineClass::Immed, flags::BARRIER_WAIT)
        );
        assert_eq!(d(&[0xbe804ec1], true).class, LineClass::Immed);
        assert_eq!(d(&[0xf4004100, 0], true).class, LineClass::Smem);
        assert_eq!(d(&[0xcc404026, 0], true).size, 8);
        let b = d(&[0xbfa1ffa3], true);
        assert_eq!((b.class, b.simm16), (LineClass::Branch, -93));
        assert_eq!(d(&[0xbfb60003], true).class, LineClass::Immed);
    }
}
