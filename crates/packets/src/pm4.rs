//! PM4 type-3 packet encoder: one function per packet kind aqlprofile emits,
//! with the per-family control words (cache policies, temporal hints, ACQUIRE_MEM
//! layout). Bit layouts follow AMD's `soc15d.h` / `nvd.h` PM4 headers; see the
//! reference notes `pm4-pmc-sqtt.md` sections 2 and 3.
//!
//! This module only encodes; which packets to emit and in what order lives in
//! [`crate::pmc`], [`crate::att`] and [`crate::marker`].

use crate::target::Family;

/// IT opcode NOP (used by callers that pad streams).
pub const OP_NOP: u32 = 0x10;
/// IT opcode PRED_EXEC.
pub const OP_PRED_EXEC: u32 = 0x23;
/// IT opcode WAIT_REG_MEM.
pub const OP_WAIT_REG_MEM: u32 = 0x3C;
/// IT opcode INDIRECT_BUFFER.
pub const OP_INDIRECT_BUFFER: u32 = 0x3F;
/// IT opcode COPY_DATA.
pub const OP_COPY_DATA: u32 = 0x40;
/// IT opcode EVENT_WRITE.
pub const OP_EVENT_WRITE: u32 = 0x46;
/// IT opcode ACQUIRE_MEM.
pub const OP_ACQUIRE_MEM: u32 = 0x58;
/// IT opcode SET_SH_REG.
pub const OP_SET_SH_REG: u32 = 0x76;
/// IT opcode SET_UCONFIG_REG.
pub const OP_SET_UCONFIG_REG: u32 = 0x79;

/// First dword address of the UCONFIG register space (`UCONFIG_SPACE_START`).
pub const UCONFIG_SPACE_START: u32 = 0xC000;
/// First dword address of the persistent (SH) register space (`PERSISTENT_SPACE_START`).
pub const PERSISTENT_SPACE_START: u32 = 0x2C00;
/// Privileged CONFIG space, `CONFIG_SPACE_START..=CONFIG_SPACE_END`.
pub const CONFIG_SPACE: std::ops::RangeInclusive<u32> = 0x2000..=0x9FFF;

/// EVENT_WRITE type CS_PARTIAL_FLUSH (`vgt_event_type`), index 4.
const CS_PARTIAL_FLUSH: u32 = 7 | 4 << 8;

/// COPY_DATA selectors (`PACKET3_COPY_DATA__SRC_SEL/DST_SEL`).
pub(crate) mod sel {
    /// Memory-mapped register.
    pub(crate) const REG: u32 = 0;
    /// TC_L2 destination (gfx10+).
    pub(crate) const TC_L2: u32 = 2;
    /// Privileged perfcounter register.
    pub(crate) const PERFCOUNTER: u32 = 4;
    /// Immediate data (source) / memory (gfx9 destination).
    pub(crate) const IMM_OR_GFX9_MEM: u32 = 5;
}

/// Type-3 header for a packet of `total_dwords` dwords.
pub const fn header(opcode: u32, total_dwords: u32) -> u32 {
    0xC000_0000 | ((total_dwords - 2) & 0x3FFF) << 16 | (opcode & 0xFF) << 8
}

fn lo32(v: u64) -> u32 {
    v as u32
}

fn hi32(v: u64) -> u32 {
    (v >> 32) as u32
}

/// Whether `addr` lies in the UCONFIG register space.
pub fn is_uconfig(addr: u64) -> bool {
    (u64::from(UCONFIG_SPACE_START)..=0xFFFF).contains(&addr)
}

/// Whether the low 32 bits of `addr` lie in the privileged CONFIG space
/// (aqlprofile tests the truncated 32-bit value).
pub fn is_privileged_config(addr: u64) -> bool {
    CONFIG_SPACE.contains(&lo32(addr))
}

/// A PM4 command stream under construction for one family.
#[derive(Debug, Clone)]
pub struct Pm4Stream {
    family: Family,
    /// aqlprofile's "perfcounter mode": privileged CONFIG registers are
    /// accessed with COPY_DATA sel 4. Off on multi-XCC parts (MI300 CP workaround).
    perfcounter_mode: bool,
    dw: Vec<u32>,
}

impl Pm4Stream {
    /// An empty stream.
    pub fn new(family: Family, perfcounter_mode: bool) -> Pm4Stream {
        Pm4Stream { family, perfcounter_mode, dw: Vec::new() }
    }

    /// The dwords emitted so far.
    pub fn dwords(&self) -> &[u32] {
        &self.dw
    }

    /// Consumes the stream, returning its dwords.
    pub fn into_dwords(self) -> Vec<u32> {
        self.dw
    }

    /// Current length in dwords.
    pub fn len(&self) -> usize {
        self.dw.len()
    }

    /// True when nothing was emitted.
    pub fn is_empty(&self) -> bool {
        self.dw.is_empty()
    }

    fn push(&mut self, words: &[u32]) {
        self.dw.extend_from_slice(words);
    }

    fn cache_bits(&self) -> u32 {
        // SRC_CACHE_POLICY [14:13] and DST_CACHE_POLICY [26:25]: gfx9 uses
        // "stream" (1) for counter reads, gfx12 the "LU" temporal hint (3).
        match self.family {
            Family::Gfx9 => 1 << 13 | 1 << 25,
            Family::Gfx10 | Family::Gfx11 => 0,
            Family::Gfx12 => 3 << 13 | 3 << 25,
        }
    }

    /// EVENT_WRITE CS_PARTIAL_FLUSH: aqlprofile's "wait idle".
    pub fn wait_idle(&mut self) {
        self.push(&[header(OP_EVENT_WRITE, 2), CS_PARTIAL_FLUSH]);
    }

    /// EVENT_WRITE of an arbitrary event type/index.
    pub fn event_write(&mut self, event_type: u32, event_index: u32) {
        self.push(&[header(OP_EVENT_WRITE, 2), (event_type & 0x3F) | (event_index & 0xF) << 8]);
    }

    /// SET_UCONFIG_REG of one register.
    pub fn set_uconfig(&mut self, addr: u32, value: u32) {
        self.push(&[header(OP_SET_UCONFIG_REG, 3), addr.wrapping_sub(UCONFIG_SPACE_START) & 0xFFFF, value]);
    }

    /// SET_SH_REG of one register.
    pub fn set_sh(&mut self, addr: u32, value: u32) {
        self.push(&[header(OP_SET_SH_REG, 3), addr.wrapping_sub(PERSISTENT_SPACE_START) & 0xFFFF, value]);
    }

    /// COPY_DATA immediate -> register ("write privileged config register").
    pub fn write_pconfig(&mut self, addr: u64, value: u32) {
        let dst = if is_privileged_config(addr) && (self.perfcounter_mode || self.family == Family::Gfx12) {
            sel::PERFCOUNTER
        } else {
            sel::REG
        };
        let cache = if self.family == Family::Gfx12 { 3 << 13 | 3 << 25 } else { 0 };
        let ctrl = sel::IMM_OR_GFX9_MEM | dst << 8 | cache;
        self.push(&[header(OP_COPY_DATA, 6), ctrl, value, 0, lo32(addr), hi32(addr)]);
    }

    /// "Write config register": SET_UCONFIG_REG when the address is in UCONFIG
    /// space, else COPY_DATA immediate.
    pub fn write_config(&mut self, addr: u32, value: u32) {
        if is_uconfig(u64::from(addr)) {
            self.set_uconfig(addr, value);
        } else {
            self.write_pconfig(u64::from(addr), value);
        }
    }

    /// COPY_DATA register -> memory, 32 bit.
    pub fn copy_reg_to_mem(&mut self, src_reg: u64, dst: u64, confirm: bool) {
        let src = if is_privileged_config(src_reg) && self.perfcounter_mode { sel::PERFCOUNTER } else { sel::REG };
        let dst_sel = if self.family == Family::Gfx9 { sel::IMM_OR_GFX9_MEM } else { sel::TC_L2 };
        let ctrl = src | dst_sel << 8 | self.cache_bits() | u32::from(confirm) << 20;
        self.push(&[header(OP_COPY_DATA, 6), ctrl, lo32(src_reg), hi32(src_reg), lo32(dst) & !3, hi32(dst)]);
    }

    /// Copies a counter's LO (mask bit 0) and HI (mask bit 1) dwords to `dst`
    /// and `dst + 4`. Register addresses may carry SMN high bits (MI300 AID
    /// blocks). Returns the number of dwords written.
    pub fn copy_counter(&mut self, lo: u64, hi: u64, dst: u64, mask: u32) -> u32 {
        let mut n = 0;
        if mask & 1 != 0 {
            self.copy_reg_to_mem(lo, dst, false);
            n += 1;
        }
        if mask & 2 != 0 {
            self.copy_reg_to_mem(hi, dst.wrapping_add(4 * u64::from(n)), false);
            n += 1;
        }
        n
    }

    /// A raw COPY_DATA with an explicit control word (used by the gfx9 SQTT
    /// timestamp sequence).
    pub fn copy_data_raw(&mut self, ctrl: u32, src: u64, dst: u64) {
        self.push(&[header(OP_COPY_DATA, 6), ctrl, lo32(src), hi32(src), lo32(dst), hi32(dst)]);
    }

    /// PRED_EXEC restricting the next `exec_count` dwords to XCC `xcc`.
    pub fn pred_exec(&mut self, xcc: u32, exec_count: u32) {
        self.push(&[header(OP_PRED_EXEC, 2), pred_exec_word(xcc, exec_count)]);
    }

    /// Runs `body`; when `enabled` (multi-XCC parts) the packets it emits are
    /// preceded by a PRED_EXEC restricting them to XCC `xcc`, whose count is
    /// patched in afterwards, as aqlprofile's `PrecExecBuilder` does.
    pub fn predicated<R>(&mut self, enabled: bool, xcc: u32, body: impl FnOnce(&mut Pm4Stream) -> R) -> R {
        if !enabled {
            return body(self);
        }
        let at = self.len();
        self.pred_exec(xcc, 0);
        let start = self.len();
        let r = body(self);
        let count = (self.len() - start) as u32;
        self.patch(at + 1, pred_exec_word(xcc, count));
        r
    }

    /// Overwrites dword `at` (used to patch a PRED_EXEC count in place).
    pub(crate) fn patch(&mut self, at: usize, value: u32) {
        if let Some(w) = self.dw.get_mut(at) {
            *w = value;
        }
    }

    /// WAIT_REG_MEM polling a register (`mem_space` false) or memory.
    pub fn wait_reg_mem(&mut self, mem_space: bool, addr: u64, func_eq: bool, mask: u32, reference: u32) {
        let function = if func_eq { 3 } else { 4 };
        let ctrl = function | u32::from(mem_space) << 4;
        let poll = if self.family == Family::Gfx11 { 0x10 } else { 4 };
        let hi = if mem_space { hi32(addr) } else { 0 };
        self.push(&[header(OP_WAIT_REG_MEM, 7), ctrl, lo32(addr) & !3, hi, reference, mask, poll]);
    }

    /// ACQUIRE_MEM write-back of `[addr, addr + size)`.
    pub fn acquire_mem(&mut self, addr: u64, size: u64) {
        // Size in 256-byte units, plus one when the start is not 256-aligned,
        // exactly as aqlprofile computes it.
        let units = ((addr % 256 + size) >> 8) + (size.saturating_add(0xFF) >> 8) - (size >> 8);
        let base_lo = lo32(addr >> 8);
        let base_hi = (addr >> 40) as u32 & 0xFF;
        match self.family {
            Family::Gfx9 => self.push(&[
                header(OP_ACQUIRE_MEM, 7),
                0x28C4_0000,
                lo32(units),
                hi32(units) & 0xFF,
                base_lo,
                base_hi,
                0x10,
            ]),
            _ => self.push(&[
                header(OP_ACQUIRE_MEM, 8),
                0,
                lo32(units),
                hi32(units) & 0xFF,
                base_lo,
                base_hi,
                0x10,
                0x0001_8000,
            ]),
        }
    }
}

/// Body dword of PRED_EXEC: EXEC_COUNT[13:0] | VIRTUAL_XCC_ID_SELECT[31:24].
pub(crate) fn pred_exec_word(xcc: u32, exec_count: u32) -> u32 {
    (exec_count & 0x3FFF) | (1u32.checked_shl(xcc).unwrap_or(0) & 0xFF) << 24
}

/// Little-endian bytes of a dword stream.
pub fn to_bytes(dwords: &[u32]) -> Vec<u8> {
    dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_match_documented_constants() {
        assert_eq!(header(OP_SET_UCONFIG_REG, 3), 0xC001_7900);
        assert_eq!(header(OP_SET_SH_REG, 3), 0xC001_7600);
        assert_eq!(header(OP_INDIRECT_BUFFER, 4), 0xC002_3F00);
        assert_eq!(header(OP_EVENT_WRITE, 2), 0xC000_4600);
    }

    #[test]
    fn wait_idle_is_cs_partial_flush() {
        let mut s = Pm4Stream::new(Family::Gfx9, true);
        s.wait_idle();
        assert_eq!(s.dwords(), &[0xC000_4600, 0x407]);
    }

    #[test]
    fn copy_controls_per_family() {
        let mut s = Pm4Stream::new(Family::Gfx9, true);
        s.copy_reg_to_mem(0xD040, 0x10_0000_0006, false);
        assert_eq!(s.dwords(), &[0xC004_4000, 0x0200_2500, 0xD040, 0, 0x4, 0x10]);
        let mut s = Pm4Stream::new(Family::Gfx9, true);
        s.copy_reg_to_mem(0x2AFC, 0, false);
        assert_eq!(s.dwords()[1], 0x0200_2504);
        let mut s = Pm4Stream::new(Family::Gfx9, false);
        s.copy_reg_to_mem(0x2AFC, 0, false);
        assert_eq!(s.dwords()[1], 0x0200_2500);
        let mut s = Pm4Stream::new(Family::Gfx11, true);
        s.copy_reg_to_mem(0xD9F4, 0, true);
        assert_eq!(s.dwords()[1], 0x0010_0200);
        let mut s = Pm4Stream::new(Family::Gfx12, true);
        s.copy_reg_to_mem(0xD9F4, 0, true);
        assert_eq!(s.dwords()[1], 0x0610_6200);
    }

    #[test]
    fn acquire_mem_rounds_partial_chunks() {
        let mut s = Pm4Stream::new(Family::Gfx10, true);
        s.acquire_mem(0x10_0000_0000, 88);
        assert_eq!(s.dwords(), &[0xC006_5800, 0, 1, 0, 0x1000_0000, 0, 0x10, 0x18000]);
        // An unaligned start that spills into a second 256-byte chunk.
        let mut s = Pm4Stream::new(Family::Gfx9, true);
        s.acquire_mem(0x80, 0x90);
        assert_eq!(s.dwords()[2], 2);
        // aqlprofile's formula gives one chunk for (0x80, 0x100) although the
        // range touches two; reproduced as is.
        let mut s = Pm4Stream::new(Family::Gfx9, true);
        s.acquire_mem(0x80, 0x100);
        assert_eq!(s.dwords()[2], 1);
    }

    #[test]
    fn pred_exec_packs_mask_and_count() {
        assert_eq!(pred_exec_word(3, 188), 0x0800_00BC);
        assert_eq!(pred_exec_word(40, 1), 1);
    }
}
