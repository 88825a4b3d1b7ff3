//! gfx9 (CDNA) token map: an 8-byte capture header, then 16-bit-aligned tokens whose type is the
//! low 4 bits of their first word.
//!
//! Sources: tinygrad's CDNA packet tables (`tinygrad/renderer/amd/sqtt.py`), AMD's gfx9 decoder
//! (`source/gfx9/` in ROCm/rocm-systems `projects/rocprof-trace-decoder`) and
//! `shared/reference/sqtt-format.md` §3, checked against the gfx950 corpus.

/// Token type codes (low 4 bits).
pub mod kind {
    /// Time delta (x4 cycles) and misc flags, 16 bits.
    pub const MISC: u8 = 0;
    /// Absolute timestamp, 64 bits.
    pub const TIMESTAMP: u8 = 1;
    /// Register write, 64 bits.
    pub const REG: u8 = 2;
    /// Wave start, 32 bits.
    pub const WAVESTART: u8 = 3;
    /// Wave allocation, 16 bits.
    pub const WAVEALLOC: u8 = 4;
    /// Compute register write, 48 bits.
    pub const REG_CS: u8 = 5;
    /// Wave end, 16 bits.
    pub const WAVEEND: u8 = 6;
    /// Event, 16 bits.
    pub const EVENT: u8 = 7;
    /// Compute event, 16 bits.
    pub const EVENT_CS: u8 = 8;
    /// Graphics event, 16 bits.
    pub const EVENT_GFX1: u8 = 9;
    /// Instruction issue with a category op, 16 bits.
    pub const INST: u8 = 10;
    /// Instruction with its PC, 64 bits.
    pub const INST_PC: u8 = 11;
    /// `s_ttracedata` user data, 48 bits.
    pub const USERDATA: u8 = 12;
    /// SIMD issue slots, 32 bits.
    pub const ISSUE: u8 = 13;
    /// Performance counters, 64 bits.
    pub const PERF: u8 = 14;
    /// Privileged compute register write (PGM_LO/HI), 48 bits.
    pub const REG_CS_PRIV: u8 = 15;
}

/// Token size in 16-bit words by type.
pub const WORDS: [u8; 16] = [1, 4, 4, 2, 1, 3, 1, 1, 1, 1, 1, 4, 3, 2, 4, 3];

/// Fields of the 8-byte capture header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Legacy version (13 bits; 0 or 0x11).
    pub legacy_version: u16,
    /// Family version (3 bits: 4 = MI200 or older, 5 = MI300, 6 = MI350).
    pub version: u8,
    /// SIMDs with instruction tracing.
    pub simd_mask: u8,
    /// CU whose waves get wave records.
    pub target_cu: u8,
    /// Shader array bit.
    pub sa: u8,
    /// Shader engine id field.
    pub se: u8,
    /// Double-buffered capture.
    pub double_buffer: bool,
}

impl Header {
    /// Parses the header's first 8 bytes.
    pub const fn parse(raw: u64) -> Self {
        Self {
            legacy_version: (raw & 0x1fff) as u16,
            version: ((raw >> 13) & 7) as u8,
            simd_mask: ((raw >> 16) & 0xf) as u8,
            target_cu: ((raw >> 20) & 0x1f) as u8,
            sa: ((raw >> 25) & 1) as u8,
            se: ((raw >> 26) & 0x3f) as u8,
            double_buffer: (raw >> 32) & 1 != 0,
        }
    }

    /// AMD's decoder accepts family versions 4, 5 and 6 and refuses the rest.
    pub const fn is_supported(&self) -> bool {
        matches!(self.version, 4..=6)
    }
}

/// `(cu, simd, wave)` of WAVESTART / WAVEALLOC / WAVEEND: CU 6..9, wave 10..13, SIMD 14..15.
pub const fn wave_loc(raw: u64) -> (u8, u8, u8) {
    (((raw >> 6) & 0xf) as u8, ((raw >> 14) & 3) as u8, ((raw >> 10) & 0xf) as u8)
}

/// Shader-array bit (5) of wave tokens.
pub const fn wave_sh(raw: u64) -> u8 {
    ((raw >> 5) & 1) as u8
}

/// `(wave, simd, op)` of an INST token: wave 5..8, SIMD 9..10, op 11..15.
pub const fn inst(raw: u64) -> (u8, u8, u8) {
    (((raw >> 5) & 0xf) as u8, ((raw >> 9) & 3) as u8, ((raw >> 11) & 0x1f) as u8)
}

/// MISC: `(delta field, kind)`; the delta is in units of 4 cycles.
pub const fn misc(raw: u64) -> (u64, u8) {
    ((raw >> 4) & 0xff, ((raw >> 13) & 7) as u8)
}

/// REG_CS / REG_CS_PRIV: `(pipe, me, register, value)`.
pub const fn reg_cs(raw: u64) -> (u8, u8, u16, u32) {
    (((raw >> 5) & 3) as u8, ((raw >> 7) & 3) as u8, ((raw >> 9) & 0x7f) as u16, ((raw >> 16) & 0xffff_ffff) as u32)
}

/// REG: `(pipe, me, register, value)`: pipe 5..6, ME 7..8 (stored +1, as in REG_CS), register
/// 16..31, value 32..63 (`Reg` in AMD's `gfx9token.h`).
pub const fn reg(raw: u64) -> (u8, u8, u16, u32) {
    (((raw >> 5) & 3) as u8, ((((raw >> 7) & 3) + 1) & 1) as u8, ((raw >> 16) & 0xffff) as u16, (raw >> 32) as u32)
}

/// WAVESTART pipe (16..17) and ME (18..19).
pub const fn wave_start_pipe_me(raw: u64) -> (u8, u8) {
    (((raw >> 16) & 3) as u8, ((raw >> 18) & 3) as u8)
}

/// WAVESTART `count` (22..28).
pub const fn wave_start_count(raw: u64) -> u8 {
    ((raw >> 22) & 0x7f) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_header() {
        let h = Header::parse(0x0000_0000_010f_8011);
        assert_eq!((h.legacy_version, h.version, h.simd_mask, h.target_cu, h.sa), (0x11, 4, 0xf, 16, 0));
        assert!(h.is_supported());
        assert!(!Header::parse(0).is_supported());
        assert!(!Header::parse(0xf011).is_supported());
    }
}
