//! AMDGPU instruction-length and control-flow decoding, enough to walk a wave's PC through a
//! code object: byte size, issue class, branch offset and a few mnemonic facts per instruction.
//!
//! Our own tables, written from the ISA documents' encoding maps and LLVM's AMDGPU opcode
//! numbering. The class of an instruction is what AMD's decoder derives from the mnemonic text
//! the ISA callback returns (`source/trie.cpp`: prefix table, unmatched characters skipped,
//! `v_*` is VALU, any other `s_*` is SALU), so quirks of that lookup are reproduced here per opcode
//! (for example `s_gl1_inv` is SALU, `s_dcache_inv` is SMEM, `s_code_end` is SALU).

pub mod gfx9;
pub mod rdna;

use crate::family::Family;

/// What kind of trace token an instruction pairs with, numbered like AMD's `InstCategory`
/// (the numeric order matters: "skippable" is `class != Salu && class <= Immed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum LineClass {
    /// Never traced (`s_delay_alu`, `s_wait_alu`, `s_set_vgpr_msb`, ...); stepped over.
    Skip = 0,
    /// Scalar memory.
    Smem = 1,
    /// Scalar ALU.
    Salu = 2,
    /// Vector memory (including global and scratch).
    Vmem = 3,
    /// Flat memory.
    Flat = 4,
    /// LDS.
    Lds = 5,
    /// Vector ALU.
    Valu = 6,
    /// No-pipe instruction.
    Immed = 9,
    /// Ray tracing.
    Bvh = 12,
    /// Unknown mnemonic.
    DontKnow = 20,
    /// Any branch (`s_branch`, `s_cbranch_*`).
    Branch = 21,
    /// gfx12 `s_barrier_wait` that the trace omitted (set while walking).
    BarrierWaitExcluded = 22,
    /// gfx9 `v_mfma_scale_*`.
    MfmaScale = 23,
    /// gfx9 `s_barrier`.
    Gfx9Barrier = 24,
    /// gfx12 `v_mov_b64`.
    VMovB64 = 25,
}

/// Mnemonic facts the walker needs beyond the class.
pub mod flags {
    /// Mnemonic starts with `s_waitcnt`.
    pub const WAITCNT: u8 = 1;
    /// Mnemonic contains `_load_`.
    pub const LOAD: u8 = 2;
    /// Mnemonic contains `scratch_`.
    pub const SCRATCH: u8 = 4;
    /// gfx12 `s_barrier_wait`.
    pub const BARRIER_WAIT: u8 = 8;
    /// `s_endpgm`.
    pub const ENDPGM: u8 = 16;
}

/// Decoded facts about one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstInfo {
    /// Size in bytes (4 to 16).
    pub size: u8,
    /// Issue class.
    pub class: LineClass,
    /// Branch offset in dwords (`simm16`) for [`LineClass::Branch`].
    pub simm16: i16,
    /// [`flags`] bits.
    pub flags: u8,
}

impl InstInfo {
    pub(crate) const fn new(size: u8, class: LineClass) -> Self {
        Self { size, class, simm16: 0, flags: 0 }
    }
    pub(crate) const fn with_flags(mut self, flags: u8) -> Self {
        self.flags |= flags;
        self
    }
}

/// A mnemonic-level stand-in for the instruction's text: a representative LLVM mnemonic (and,
/// for branches, the decimal offset operand) that AMD's decoder classifies exactly like the
/// instruction itself. This is what the AMD backend's ISA callback answers with; it is not a
/// full disassembly (operands are omitted).
pub fn class_text(info: &InstInfo) -> String {
    let f = info.flags;
    let text = match info.class {
        LineClass::Skip => "s_delay_alu",
        LineClass::Smem if f & flags::LOAD != 0 => "s_load_b32",
        LineClass::Smem => "s_dcache_inv",
        LineClass::Salu => "s_mov_b32",
        LineClass::Vmem if f & flags::SCRATCH != 0 && f & flags::LOAD != 0 => "scratch_load_b32",
        LineClass::Vmem if f & flags::SCRATCH != 0 => "scratch_store_b32",
        LineClass::Vmem if f & flags::LOAD != 0 => "global_load_b32",
        LineClass::Vmem => "global_store_b32",
        LineClass::Flat if f & flags::LOAD != 0 => "flat_load_b32",
        LineClass::Flat => "flat_store_b32",
        LineClass::Lds if f & flags::LOAD != 0 => "ds_load_b32",
        LineClass::Lds => "ds_store_b32",
        LineClass::Valu => "v_mov_b32",
        LineClass::Immed if f & flags::ENDPGM != 0 => "s_endpgm",
        LineClass::Immed if f & flags::WAITCNT != 0 => "s_waitcnt 0",
        LineClass::Immed if f & flags::BARRIER_WAIT != 0 => "s_barrier_wait 0xffff",
        LineClass::Immed => "s_nop 0",
        LineClass::Bvh => "image_bvh_intersect_ray",
        LineClass::DontKnow => "exp",
        LineClass::Branch => return format!("s_cbranch_scc0 {}", info.simm16 as u16),
        LineClass::BarrierWaitExcluded => "s_barrier_wait 0xffff",
        LineClass::MfmaScale => "v_mfma_scale_f32_16x16x128_f8f6f4",
        LineClass::Gfx9Barrier => "s_barrier",
        LineClass::VMovB64 => "v_mov_b64",
    };
    text.to_string()
}

/// The `rocprof-isa` target whose opcode table sizes `family`'s instructions: the family's newest target
/// in LLVM 19 (its opcodes are a superset of the older targets' for the encodings that matter here).
fn isa_target(family: Family) -> &'static rocprof_isa::Target {
    let name = match family {
        Family::Gfx9 => "gfx942",
        Family::Gfx11 => "gfx1100",
        Family::Gfx12 => "gfx1201",
    };
    rocprof_isa::Target::find(name).expect("rocprof-isa knows the SQTT families' targets")
}

/// Decodes the instruction at the start of `bytes` for `family`; `None` if fewer than 4 bytes remain.
///
/// The size is `rocprof-isa`'s (from LLVM 19's opcode tables, the sizes AMD's decoder saw in LLVM's
/// disassembly) whenever it knows the instruction; the class and flags are this module's, which
/// reproduce AMD's mnemonic-based classification and its quirks. For words `rocprof-isa` does not
/// decode (gfx950-only opcodes, garbage) this module's own size rules apply. [`own_decode`] is the
/// table-free decoder alone (the two agree on every instruction of the fixtures, checked by a test).
pub fn decode(family: Family, bytes: &[u8]) -> Option<InstInfo> {
    let mut info = own_decode(family, bytes)?;
    if let Ok(size) = rocprof_isa::decode(isa_target(family), bytes).map(|i| i.size) {
        info.size = size;
    }
    Some(info)
}

/// This module's own decoder (size rules per encoding, no opcode tables).
pub fn own_decode(family: Family, bytes: &[u8]) -> Option<InstInfo> {
    match family {
        Family::Gfx9 => gfx9::decode(bytes),
        Family::Gfx11 => rdna::decode(bytes, false),
        Family::Gfx12 => rdna::decode(bytes, true),
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
    fn class_texts_keep_the_branch_offset() {
        let mut b = InstInfo::new(4, LineClass::Branch);
        b.simm16 = -3;
        assert_eq!(class_text(&b), "s_cbranch_scc0 65533");
        assert_eq!(class_text(&InstInfo::new(8, LineClass::Vmem).with_flags(flags::LOAD)), "global_load_b32");
    }

    /// The size rules here agree with rocprof-isa's opcode tables (LLVM's sizes) on every instruction of
    /// the fixtures' code objects of the three families, so either may size a sweep.
    #[test]
    fn own_sizes_agree_with_rocprof_isa_on_the_fixture_kernels() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels");
        let mut compared = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "co") {
                continue;
            }
            let elf = std::fs::read(&path).unwrap();
            let obj = rocprof_isa::CodeObject::parse(&elf).unwrap();
            let target = obj.target.unwrap();
            let family = match target.family {
                rocprof_isa::Family::Gfx9 => Family::Gfx9,
                rocprof_isa::Family::Gfx11 => Family::Gfx11,
                rocprof_isa::Family::Gfx12 => Family::Gfx12,
                rocprof_isa::Family::Gfx10 => continue,
            };
            let text = obj.text_bytes();
            let mut off = 0;
            while off + 4 <= text.len() {
                let own = own_decode(family, &text[off..]).unwrap();
                if let Ok(i) = rocprof_isa::decode(target, &text[off..]) {
                    assert_eq!(own.size, i.size, "{} +{off:#x} {}", path.display(), i.name);
                    compared += 1;
                }
                off += usize::from(own.size.max(4));
            }
        }
        assert!(compared > 2000, "{compared}");
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
