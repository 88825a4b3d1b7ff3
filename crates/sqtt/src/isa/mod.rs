//! The trace walker's view of AMDGPU code: byte size, AMD's issue category, branch offset and a few
//! mnemonic facts per instruction, over a kernel's `.text`.
//!
//! The decode and the instruction class are `rocprof-isa`'s (one decoder and one classifier for the
//! interpreter, the static walk and the trace decoder); [`category`] maps its classes to the categories
//! AMD's decoder derives from the mnemonic text (`source/trie.cpp`: prefix table, `v_*` is VALU, any
//! other `s_*` is SALU), with that lookup's quirks (for example `s_gl1_inv` and `s_code_end` are SALU).

pub mod category;

pub use category::{class_text, flags, InstInfo, LineClass};

use crate::family::Family;

/// The `rocprof-isa` targets whose opcode tables decode `family`'s instructions, tried in order: the
/// family's newest target in LLVM 19 (whose sizes AMD's decoder saw in LLVM's disassembly), then for
/// gfx9 gfx950 (its opcodes beyond gfx942's: the scaled MFMAs, conversions) and the older CDNA targets
/// (gfx90a's and gfx908's MFMAs that gfx940 dropped).
fn isa_targets(family: Family) -> &'static [&'static str] {
    match family {
        Family::Gfx9 => &["gfx942", "gfx950", "gfx90a", "gfx908"],
        Family::Gfx11 => &["gfx1100"],
        Family::Gfx12 => &["gfx1201"],
    }
}

/// Decodes the instruction at the start of `bytes` for `family`; `None` if fewer than 4 bytes remain.
///
/// The decode is `rocprof-isa`'s; the class and flags are AMD's category for its mnemonic
/// ([`category::info_of`]). An instruction running past the end of `bytes` is decoded as if zeros
/// followed. A word no table decodes is one dword of [`LineClass::DontKnow`] (what LLVM's
/// disassembler, which fed AMD's decoder, makes of it); an opcode unknown to the tables keeps the size
/// its encoding gives it.
pub fn decode(family: Family, bytes: &[u8]) -> Option<InstInfo> {
    if bytes.len() < 4 {
        return None;
    }
    let mut buf = [0u8; 16];
    let n = bytes.len().min(16);
    buf[..n].copy_from_slice(&bytes[..n]);
    let mut first = None;
    for name in isa_targets(family) {
        let target = rocprof_isa::Target::find(name).expect("rocprof-isa knows the SQTT families' targets");
        let r = rocprof_isa::decode(target, &buf);
        if r.is_ok() {
            return Some(info_or_unknown(target.family, &r));
        }
        first.get_or_insert((target.family, r));
    }
    first.map(|(f, r)| info_or_unknown(f, &r))
}

/// AMD's category of a `rocprof-isa` decode for a target of `family`, or of the word it could not
/// decode (see [`decode`]).
pub fn info_or_unknown(
    family: rocprof_isa::Family,
    r: &Result<rocprof_isa::Inst, rocprof_isa::DecodeError>,
) -> InstInfo {
    match r {
        Ok(inst) => category::info_of(family, inst),
        Err(rocprof_isa::DecodeError::UnknownOpcode { size, .. }) => InstInfo::new(*size, LineClass::DontKnow),
        Err(_) => InstInfo::new(4, LineClass::DontKnow),
    }
}

/// A kernel's code as the walker sees it: `.text` linearly disassembled at its load address, or
/// several code objects' `.text` at theirs (an application with more than one code object).
///
/// Like the reference decode (which answered from a linear LLVM disassembly of `.text`), only
/// addresses where the linear sweep starts an instruction are known; any other address is a miss.
#[derive(Clone, Debug)]
pub struct Program {
    family: Family,
    /// One per code object, ordered by address.
    segments: Vec<Segment>,
    lines: Vec<(u64, InstInfo)>,
}

/// One swept `.text`.
#[derive(Clone, Debug)]
struct Segment {
    /// Absolute address of `.text`.
    base: u64,
    /// Line index by dword offset in `.text` (`u32::MAX` = not an instruction start).
    index: Vec<u32>,
}

impl Program {
    /// Sweeps `text` (the `.text` bytes, loaded at absolute address `text_addr`).
    pub fn new(family: Family, text_addr: u64, text: &[u8]) -> Self {
        Self::with_texts(family, &[(text_addr, text)])
    }

    /// Sweeps several `.text` sections, each at its absolute address. Sections that overlap an
    /// earlier one (by address) are left out.
    pub fn with_texts(family: Family, texts: &[(u64, &[u8])]) -> Self {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].0);
        let mut segments: Vec<Segment> = Vec::with_capacity(texts.len());
        let mut lines = Vec::new();
        let mut end = 0u64;
        for i in order {
            let (text_addr, text) = texts[i];
            if !segments.is_empty() && text_addr < end {
                continue;
            }
            end = text_addr.saturating_add(text.len() as u64);
            let mut index = vec![u32::MAX; text.len().div_ceil(4)];
            let mut off = 0usize;
            while off + 4 <= text.len() {
                let Some(mut info) = decode(family, &text[off..]) else { break };
                if off + info.size as usize > text.len() {
                    info.size = (text.len() - off) as u8;
                }
                index[off / 4] = lines.len() as u32;
                lines.push((text_addr + off as u64, info));
                off += (info.size as usize).max(4);
            }
            segments.push(Segment { base: text_addr, index });
        }
        Self { family, segments, lines }
    }

    /// The family this code was decoded for.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Number of instructions found by the sweep.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True if `.text` held no instruction.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Line index of the instruction starting at absolute address `pc`.
    #[inline]
    pub fn line_at(&self, pc: u64) -> Option<usize> {
        for seg in &self.segments {
            let Some(off) = pc.checked_sub(seg.base) else { continue };
            if off & 3 != 0 {
                return None;
            }
            let Some(&i) = seg.index.get((off / 4) as usize) else { continue };
            return (i != u32::MAX).then_some(i as usize);
        }
        None
    }

    /// Address and facts of line `i`.
    #[inline]
    pub fn line(&self, i: usize) -> (u64, InstInfo) {
        self.lines[i]
    }

    /// Every line in address order: `(absolute pc, facts)`.
    pub fn lines(&self) -> &[(u64, InstInfo)] {
        &self.lines
    }

    /// Line after `i` in address order (`pc + size`), if it is an instruction start.
    #[inline]
    pub fn next_line(&self, i: usize) -> Option<usize> {
        let (pc, info) = self.lines[i];
        self.line_at(pc + u64::from(info.size.max(4)))
    }

    /// Branch target of line `i` (`pc + 4 + 4 * simm16`), if it is an instruction start.
    #[inline]
    pub fn jump_line(&self, i: usize) -> Option<usize> {
        let (pc, info) = self.lines[i];
        let target = (pc as i64).wrapping_add(4).wrapping_add(4 * i64::from(info.simm16));
        self.line_at(target as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_has_its_own_number_and_name() {
        let mut numbers: Vec<u8> = LineClass::NAMES.iter().map(|(c, _)| c.number()).collect();
        numbers.sort();
        numbers.dedup();
        assert_eq!(numbers.len(), LineClass::NAMES.len());
        assert_eq!(format!("{:?}", LineClass::Gfx9Barrier), "Gfx9Barrier");
        assert_eq!((LineClass::Immed.number(), LineClass::Branch.number()), (9, 21), "AMD's InstCategory numbers");
    }

    #[test]
    fn class_texts_keep_the_branch_offset() {
        let mut b = InstInfo::new(4, LineClass::Branch);
        b.simm16 = -3;
        assert_eq!(class_text(&b), "s_cbranch_scc0 65533");
        assert_eq!(class_text(&InstInfo::new(8, LineClass::Vmem).with_flags(flags::LOAD)), "global_load_b32");
    }

    #[test]
    fn program_sweeps_and_answers_only_instruction_starts() {
        // gfx11: s_load_b64 (8 bytes), s_waitcnt, s_cbranch_execz -2, s_endpgm
        let mut text = Vec::new();
        text.extend_from_slice(&0xf404_0000u32.to_le_bytes());
        text.extend_from_slice(&0u32.to_le_bytes());
        text.extend_from_slice(&0xbf89_fc07u32.to_le_bytes());
        text.extend_from_slice(&0xbfa5_fffeu32.to_le_bytes());
        text.extend_from_slice(&0xbfb0_0000u32.to_le_bytes());
        let p = Program::new(Family::Gfx11, 0x1000, &text);
        assert_eq!(p.len(), 4);
        assert_eq!(p.line_at(0x1004), None);
        let b = p.line_at(0x100c).unwrap();
        assert_eq!(p.line(b).1.class, LineClass::Branch);
        assert_eq!(p.jump_line(b), p.line_at(0x1008));
        assert_eq!(p.next_line(b), p.line_at(0x1010));
        assert_eq!(p.line(p.line_at(0x1010).unwrap()).1.flags, flags::ENDPGM);
        assert_eq!(p.next_line(p.line_at(0x1010).unwrap()), None);
    }

    #[test]
    fn several_texts_answer_at_their_own_addresses() {
        let endpgm = 0xbfb0_0000u32.to_le_bytes();
        let mut two = 0xbf89_fc07u32.to_le_bytes().to_vec();
        two.extend_from_slice(&endpgm);
        let p = Program::with_texts(Family::Gfx11, &[(0x9000, &two), (0x1000, &endpgm), (0x9004, &endpgm)]);
        assert_eq!(p.len(), 3, "the overlapping third text is left out");
        assert_eq!(p.line_at(0x1000), Some(0));
        assert_eq!(p.line_at(0x9000), Some(1));
        assert_eq!(p.next_line(1), Some(2));
        assert_eq!(p.line(2).0, 0x9004);
        assert_eq!(p.next_line(0), None, "no fall-through from one object into another");
        assert_eq!(p.line_at(0x5000), None);
    }
}
