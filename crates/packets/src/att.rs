//! SQ thread trace (ATT): parameter handling, control/trace buffer layout and
//! the start / stop PM4 streams of `aqlprofile_att_create_packets`, per family.
//!
//! The trace buffer is split per SE: every masked-in SE gets `base_step`
//! bytes, every other SE 4 KiB, in SE order from the buffer start. The control
//! buffer holds one 32-byte [`crate::parse::SqttControl`] record per SE plus a
//! 256-byte prefix.

use crate::alloc::{Allocator, BufferRole};
use crate::aql::{align256, Pm4Packet};
use crate::error::{Error, Result};
use crate::pm4::Pm4Stream;
use crate::pmc::check_align;
use crate::regs::*;
use crate::target::{Agent, Family};

/// Parameter ids of the v2 ATT API (`aqlprofile_att_parameter_name_t`).
pub mod param {
    /// CU (gfx9) / WGP (gfx10+) to trace, 0..=15.
    pub const COMPUTE_UNIT_TARGET: u32 = 0;
    /// VM id mask (rejected by the v2 API).
    pub const VM_ID_MASK: u32 = 1;
    /// SEs to trace.
    pub const SE_MASK: u32 = 5;
    /// SIMD mask (gfx9) / SIMD id (gfx10+).
    pub const SIMD_SELECTION: u32 = 8;
    /// Occupancy-only token mask.
    pub const OCCUPANCY_MODE: u32 = 9;
    /// Low 32 bits of the trace buffer size in bytes.
    pub const ATT_BUFFER_SIZE: u32 = 10;
    /// High 32 bits of the trace buffer size.
    pub const BUFFER_SIZE_HIGH: u32 = 11;
    /// Real-time timestamps (value 2 disables them; gfx9 only).
    pub const RT_TIMESTAMP: u32 = 12;
    /// SQ perfcounter mask for perfcounter tokens (gfx9).
    pub const PERFCOUNTER_MASK: u32 = 240;
    /// SQ perfcounter control for perfcounter tokens (gfx9).
    pub const PERFCOUNTER_CTRL: u32 = 241;
    /// One SQ perfcounter for perfcounter tokens: `counter_id[27:0] | simd_mask[31:28]`.
    pub const PERFCOUNTER_NAME: u32 = 242;
}

/// `RT_TIMESTAMP` value that disables timestamps.
pub const RT_TIMESTAMP_DISABLE: u32 = 2;
/// Default trace buffer size (3 << 26 bytes = 192 MiB).
pub const DEFAULT_TRACE_BUFFER_SIZE: u64 = 3 << 26;
/// Bytes before the per-SE control records aqlprofile adds to the control buffer.
pub const CONTROL_PREFIX_BYTES: u64 = 0x100;
/// Size of one per-SE control record.
pub const CONTROL_RECORD_BYTES: u64 = 32;
/// Trace buffer granularity (4 KiB).
const TT_ALIGN: u64 = 1 << 12;

/// One `(id, value)` ATT parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttParameter {
    /// Parameter id, see [`param`].
    pub id: u32,
    /// Value.
    pub value: u32,
}

/// A validated thread-trace configuration for one agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttPlan {
    agent: Agent,
    target_cu: u32,
    simd_sel: u32,
    occupancy: bool,
    buffer_size: u64,
    rt_timestamp: bool,
    perf_mask: u32,
    perf_ctrl: u32,
    perfcounters: Vec<(u32, u32)>,
    se_mask: u64,
}

/// Everything a thread-trace session needs on the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttPackets {
    /// Control buffer address.
    pub control_addr: u64,
    /// Control buffer size in bytes.
    pub control_size: u64,
    /// Trace buffer address.
    pub trace_addr: u64,
    /// Trace buffer size in bytes.
    pub trace_size: u64,
    /// Command buffer address.
    pub command_addr: u64,
    /// Command buffer size in bytes.
    pub command_size: u64,
    /// Start packet.
    pub start: Pm4Packet,
    /// Stop packet.
    pub stop: Pm4Packet,
}

struct Regs {
    mask: u32,
    token_mask: u32,
    ctrl: u32,
    status: u32,
    cntr: u32,
    wptr: u32,
}

fn regs(family: Family) -> Regs {
    match family {
        Family::Gfx9 => {
            Regs { mask: 0xC332, token_mask: 0xC333, ctrl: 0xC335, status: 0xC33A, cntr: 0xC33C, wptr: 0xC339 }
        }
        Family::Gfx10 => {
            Regs { mask: 0x2345, token_mask: 0x2346, ctrl: 0x2347, status: 0x2348, cntr: 0x2349, wptr: 0x2344 }
        }
        Family::Gfx11 | Family::Gfx12 => {
            Regs { mask: 0xD9ED, token_mask: 0xD9EE, ctrl: 0xD9EC, status: 0xD9F4, cntr: 0xD9FA, wptr: 0xD9EF }
        }
    }
}

// gfx9-only SQTT registers (gc_9_* offsets).
const GFX9_TT_BASE: u32 = 0xC330;
const GFX9_TT_SIZE: u32 = 0xC331;
const GFX9_TT_PERF_MASK: u32 = 0xC334;
const GFX9_TT_MODE: u32 = 0xC336;
const GFX9_TT_BASE2: u32 = 0xC337;
const GFX9_TT_TOKEN_MASK2: u32 = 0xC338;
const GFX9_TT_HIWATER: u32 = 0xC33B;
/// Buffer registers on gfx10/11: BUF0_BASE, BUF0_SIZE.
const GFX10_BUF0: (u32, u32) = (0x2340, 0x2341);
const GFX11_BUF0: (u32, u32) = (0xD9E8, 0xD9E9);
/// gfx12: BUF0_SIZE, BUF0_BASE_LO, BUF0_BASE_HI, SPI_SQG_EVENT_CTL.
const GFX12_BUF0_SIZE: u32 = 0xD9E6;
const GFX12_BUF0_BASE_LO: u32 = 0xD9E7;
const GFX12_BUF0_BASE_HI: u32 = 0xD9E8;
const GFX12_SPI_SQG_EVENT_CTL: u32 = 0xC448;

/// "\0ROC" header word and the version word written to USERDATA_2 after start.
const ROC_HEADER: u32 = 0x434F_5200;
const ROC_VERSION: u32 = 0x0008_0201;

impl AttPlan {
    /// Applies `params` over aqlprofile's v2 defaults (CU 0, SIMD 0xF, SE mask
    /// 0x11, 192 MiB buffer, timestamps on, perf mask all ones).
    pub fn new(agent: &Agent, params: &[AttParameter]) -> Result<AttPlan> {
        let mut p = AttPlan {
            agent: *agent,
            target_cu: 0,
            simd_sel: 0xF,
            occupancy: false,
            buffer_size: DEFAULT_TRACE_BUFFER_SIZE,
            rt_timestamp: true,
            perf_mask: u32::MAX,
            perf_ctrl: 0,
            perfcounters: Vec::new(),
            // Quirk 9: the default SE mask 0x11 is not clipped to the agent.
            se_mask: 0x11,
        };
        let se_bits = if agent.se_num >= 64 { u64::MAX } else { (1u64 << agent.se_num) - 1 };
        for q in params {
            match q.id {
                param::SE_MASK => p.se_mask = u64::from(q.value) & se_bits,
                param::COMPUTE_UNIT_TARGET => {
                    if q.value > 15 {
                        return Err(Error::InvalidParameter { name: "COMPUTE_UNIT_TARGET", reason: "must be 0..=15" });
                    }
                    p.target_cu = q.value;
                }
                param::SIMD_SELECTION => p.simd_sel = q.value & 0xF,
                param::OCCUPANCY_MODE => p.occupancy = q.value != 0,
                param::ATT_BUFFER_SIZE => p.buffer_size = (p.buffer_size & !0xFFFF_FFFF) | u64::from(q.value),
                param::BUFFER_SIZE_HIGH => p.buffer_size = (p.buffer_size & 0xFFFF_FFFF) | u64::from(q.value) << 32,
                param::RT_TIMESTAMP => p.rt_timestamp = q.value != RT_TIMESTAMP_DISABLE,
                param::PERFCOUNTER_MASK => p.perf_mask = q.value,
                param::PERFCOUNTER_CTRL => p.perf_ctrl = (q.value & 0x1F) << 8 | 0xFFFF_007F,
                param::PERFCOUNTER_NAME => {
                    if p.perfcounters.len() >= 8 {
                        return Err(Error::InvalidParameter {
                            name: "PERFCOUNTER_NAME",
                            reason: "at most 8 perfcounters",
                        });
                    }
                    p.perfcounters.push((q.value & 0x0FFF_FFFF, q.value >> 28));
                }
                param::VM_ID_MASK => {
                    return Err(Error::InvalidParameter { name: "VM_ID_MASK", reason: "not accepted by the v2 API" })
                }
                _ => return Err(Error::InvalidParameter { name: "parameter id", reason: "unknown parameter" }),
            }
        }
        Ok(p)
    }

    /// The agent.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// Effective SE mask.
    pub fn se_mask(&self) -> u64 {
        self.se_mask
    }

    /// Whether SE `se` is traced.
    pub fn se_enabled(&self, se: u32) -> bool {
        // aqlprofile tests `(1 << se) & mask` with an int shift; SEs >= 64 never match.
        se < 64 && self.se_mask & (1u64 << se) != 0
    }

    /// Trace buffer size in bytes.
    pub fn trace_buffer_size(&self) -> u64 {
        self.buffer_size
    }

    /// Control buffer size in bytes: one 32-byte record per SE plus a 256-byte prefix.
    pub fn control_buffer_size(&self) -> u64 {
        CONTROL_RECORD_BYTES * u64::from(self.agent.se_num) + CONTROL_PREFIX_BYTES
    }

    /// Bytes given to each masked-in SE: `(size - (64 - n) * 4 KiB) / n`
    /// rounded down to 4 KiB, `n` = enabled SEs per mask (at least 1).
    pub fn base_step(&self) -> u64 {
        let n = u64::from(self.se_mask.count_ones()).max(1);
        let disabled = (64 - n) << 12;
        (self.buffer_size.saturating_sub(disabled) / n) & !(TT_ALIGN - 1)
    }

    fn check_step(&self) -> Result<u64> {
        if self.buffer_size == 0 {
            return Err(Error::ZeroSize { what: "trace buffer" });
        }
        let step = self.base_step();
        let max = if self.agent.family() == Family::Gfx11 { 1 << 29 } else { 1 << 34 };
        if step >= max || step < 1 << 17 {
            return Err(Error::TraceBufferSize { size: self.buffer_size, slice: step, min: 1 << 17, max });
        }
        Ok(step)
    }

    /// Per-SE `(address, capacity)` of the trace buffer slices.
    pub fn se_slices(&self, trace_addr: u64) -> Vec<(u64, u64)> {
        let step = self.base_step();
        let mut addr = trace_addr;
        (0..self.agent.se_num)
            .map(|se| {
                let size = if self.se_enabled(se) { step } else { TT_ALIGN };
                let r = (addr, size);
                addr = addr.wrapping_add(size);
                r
            })
            .collect()
    }

    fn stream(&self) -> Pm4Stream {
        Pm4Stream::new(self.agent.family(), !self.agent.multi_xcc())
    }

    /// Writes a thread-trace register the way each family's SQTT builder does:
    /// SET_UCONFIG_REG on gfx11, COPY_DATA immediate on gfx10 and gfx12 (quirk 11).
    fn write_tt(&self, s: &mut Pm4Stream, addr: u32, value: u32) {
        match self.agent.family() {
            Family::Gfx11 => s.set_uconfig(addr, value),
            _ => s.write_pconfig(u64::from(addr), value),
        }
    }

    /// Emits `body` under PRED_EXEC for `xcc` on multi-XCC parts.
    fn with_xcc(&self, s: &mut Pm4Stream, xcc: u32, body: impl FnOnce(&mut Pm4Stream)) {
        s.predicated(self.agent.multi_xcc(), xcc, body);
    }

    /// gfx9 real-time timestamp: GPU clock into the control record and, through
    /// it, into USERDATA_3.
    fn timestamp(s: &mut Pm4Stream, dst: u64) {
        s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        s.set_uconfig(SQ_THREAD_TRACE_USERDATA_3, 5);
        // COPY_DATA gpu clock -> memory, 64 bit, confirm (stream policies).
        s.copy_data_raw(0x0211_2509, 0, dst & !7);
        // memory -> register, 32 bit, low then high word.
        s.copy_data_raw(0x0200_2001, dst, u64::from(SQ_THREAD_TRACE_USERDATA_3));
        s.copy_data_raw(0x0200_2001, dst + 4, u64::from(SQ_THREAD_TRACE_USERDATA_3));
        // gpu clock -> register, 32 bit, confirm.
        s.copy_data_raw(0x0210_2009, 0, u64::from(SQ_THREAD_TRACE_USERDATA_3));
    }

    fn xcc_has_enabled_se(&self, xcc: u32) -> bool {
        let per = self.agent.se_per_xcc();
        (0..per).any(|se| self.se_enabled(se + xcc * per))
    }

    /// The start stream.
    pub fn start_stream(&self, control_addr: u64, trace_addr: u64) -> Result<Vec<u32>> {
        let step = self.check_step()?;
        let fam = self.agent.family();
        let r = regs(fam);
        let se_num = self.agent.se_num;
        let per_xcc = self.agent.se_per_xcc();
        let mut s = self.stream();
        if fam == Family::Gfx9 {
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            s.wait_idle();
            // CU_SEL | SIMD_EN | REG/SPI/SQ stall enables.
            s.set_uconfig(r.mask, (self.target_cu & 0x1F) | (self.simd_sel & 0xF) << 8 | 0xC080);
            let perf = !self.perfcounters.is_empty();
            if perf {
                s.set_uconfig(RLC_PERFMON_CLK_CNTL_GFX9, 1);
                s.set_sh(COMPUTE_PERFCOUNT_ENABLE, 1);
                s.set_uconfig(CP_PERFMON_CNTL, 0);
                for n in 0..8u32 {
                    let v = self.perfcounters.get(n as usize).map_or(0, |&(id, simd)| id | simd << 24);
                    s.write_config(SQ_PERFCOUNTER0_SELECT + n, v);
                }
                s.set_uconfig(GFX9_TT_PERF_MASK, self.perf_mask);
                s.set_uconfig(SQ_PERFCOUNTER_MASK, self.perf_mask);
                s.write_config(SQ_PERFCOUNTER_CTRL, self.perf_ctrl);
                s.set_uconfig(CP_PERFMON_CNTL, 1);
                s.wait_idle();
            }
            let mut token = if self.occupancy { 0x000F_906F } else { 0x000F_BC6F };
            if perf {
                token |= 0x4000;
            }
            s.set_uconfig(r.token_mask, token);
            s.set_uconfig(GFX9_TT_MODE, 0x0204_0000);
            s.set_uconfig(GFX9_TT_HIWATER, 6);
            for (se, (addr, _)) in self.se_slices(trace_addr).into_iter().enumerate() {
                let se = se as u32;
                if !self.se_enabled(se) {
                    continue;
                }
                self.with_xcc(&mut s, se / per_xcc, |s| {
                    s.set_uconfig(GRBM_GFX_INDEX, grbm_se_sa(fam, se % per_xcc, 0));
                    s.set_uconfig(GFX9_TT_TOKEN_MASK2, 0xFFFF_FFFF);
                    s.write_pconfig(u64::from(r.status), 0);
                    s.set_uconfig(GFX9_TT_BASE, (addr >> 12) as u32);
                    s.set_uconfig(GFX9_TT_BASE2, (addr >> 44) as u32 & 0xF);
                    s.set_uconfig(GFX9_TT_SIZE, (step >> 12) as u32);
                    s.set_uconfig(r.ctrl, 0x8000_0000);
                    s.wait_idle();
                    s.set_uconfig(GFX9_TT_MODE, 0x0224_0000);
                });
            }
        } else {
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            s.write_pconfig(u64::from(r.status), 0);
            if fam == Family::Gfx12 {
                self.write_tt(&mut s, GFX12_SPI_SQG_EVENT_CTL, 3);
            }
            let (token_on, token_occ, token_off, ctrl_on) = match fam {
                Family::Gfx10 => (0x0008_0683, 0x0308_07CF, 0x0300_07FF, 0xA042_3F41),
                Family::Gfx11 => (0x0C08_0683, 0x0308_07CF, 0x0F00_07FF, 0xA042_3941),
                _ => (0x8C1F_4003, 0x0308_07FF, 0x1F00_07FF, 0xA040_5941),
            };
            let mask_hi = if fam == Family::Gfx10 { 0x1_0000 } else { 0x3_0000 };
            let mask = (self.simd_sel & 3) | (self.target_cu & 0xF) << 4 | mask_hi;
            for (se, (addr, size)) in self.se_slices(trace_addr).into_iter().enumerate() {
                let se = se as u32;
                let base = addr >> 12;
                s.set_uconfig(GRBM_GFX_INDEX, grbm_se_sa(fam, se, 0));
                match fam {
                    Family::Gfx12 => {
                        self.write_tt(&mut s, GFX12_BUF0_SIZE, (size >> 12) as u32);
                        self.write_tt(&mut s, GFX12_BUF0_BASE_LO, base as u32);
                        self.write_tt(&mut s, GFX12_BUF0_BASE_HI, (base >> 32) as u32);
                        self.write_tt(&mut s, r.wptr, 0);
                    }
                    _ => {
                        let (buf_base, buf_size) = if fam == Family::Gfx10 { GFX10_BUF0 } else { GFX11_BUF0 };
                        let size_reg = ((size >> 12) as u32 & 0x3F_FFFF) << 8 | ((base >> 32) as u32 & 0xF);
                        self.write_tt(&mut s, buf_size, size_reg);
                        self.write_tt(&mut s, buf_base, base as u32);
                    }
                }
                self.write_tt(&mut s, r.mask, mask);
                let token = if !self.se_enabled(se) {
                    token_off
                } else if self.occupancy {
                    token_occ
                } else {
                    token_on
                };
                self.write_tt(&mut s, r.token_mask, token);
                self.write_tt(&mut s, r.ctrl, ctrl_on);
            }
            for se in 0..se_num {
                if self.se_enabled(se) {
                    s.set_uconfig(GRBM_GFX_INDEX, grbm_se_sa(fam, se, 0));
                    s.set_sh(COMPUTE_THREAD_TRACE_ENABLE, 1);
                }
            }
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        }
        s.wait_idle();
        s.set_uconfig(SQ_THREAD_TRACE_USERDATA_2, ROC_HEADER);
        s.set_uconfig(SQ_THREAD_TRACE_USERDATA_2, ROC_VERSION);
        if fam == Family::Gfx9 && self.rt_timestamp {
            for xcc in 0..self.agent.xcc_num {
                if self.xcc_has_enabled_se(xcc) {
                    let dst = control_addr + CONTROL_RECORD_BYTES * u64::from(xcc) + 16;
                    self.with_xcc(&mut s, xcc, |s| Self::timestamp(s, dst));
                }
            }
        }
        Ok(s.into_dwords())
    }

    /// The stop stream.
    pub fn stop_stream(&self, control_addr: u64, trace_addr: u64) -> Result<Vec<u32>> {
        self.check_step()?;
        let fam = self.agent.family();
        let r = regs(fam);
        let se_num = self.agent.se_num;
        let per_xcc = self.agent.se_per_xcc();
        let control_records = CONTROL_RECORD_BYTES * u64::from(se_num);
        let record = |se: u32| control_addr + CONTROL_RECORD_BYTES * u64::from(se);
        let mut s = self.stream();
        s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        s.wait_idle();
        if fam == Family::Gfx9 {
            if self.rt_timestamp {
                for xcc in 0..self.agent.xcc_num {
                    if self.xcc_has_enabled_se(xcc) {
                        let dst = record(xcc) + 24;
                        self.with_xcc(&mut s, xcc, |s| Self::timestamp(s, dst));
                    }
                }
                s.wait_idle();
            }
            s.set_uconfig(GFX9_TT_MODE, 0x0204_0000);
            s.wait_idle();
            if !self.perfcounters.is_empty() {
                s.set_uconfig(CP_PERFMON_CNTL, 2);
                s.set_uconfig(CP_PERFMON_CNTL, 0);
                s.set_uconfig(RLC_PERFMON_CLK_CNTL_GFX9, 0);
                s.wait_idle();
            }
            for se in 0..se_num {
                if !self.se_enabled(se) {
                    continue;
                }
                self.with_xcc(&mut s, se / per_xcc, |s| {
                    s.set_uconfig(GRBM_GFX_INDEX, grbm_se_sa(fam, se % per_xcc, 0));
                    // Quirk 1: aqlprofile passes the UCONFIG offset of STATUS
                    // (0x33A, truncated to 0x338) with "!= 1" on BUSY: always true.
                    s.wait_reg_mem(false, u64::from(r.status - 0xC000), false, 0x4000_0000, 1);
                    s.copy_reg_to_mem(u64::from(r.status), record(se), true);
                    s.copy_reg_to_mem(u64::from(r.cntr), record(se) + 4, true);
                    s.copy_reg_to_mem(u64::from(r.wptr), record(se) + 8, true);
                });
            }
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            s.acquire_mem(control_addr, control_records);
            s.acquire_mem(trace_addr, self.buffer_size);
            s.set_uconfig(GFX9_TT_SIZE, 0);
            s.set_uconfig(r.ctrl, 0x8000_0000);
            s.wait_idle();
        } else {
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            s.set_sh(COMPUTE_THREAD_TRACE_ENABLE, 0);
            if fam == Family::Gfx12 {
                // EVENT_WRITE THREAD_TRACE_FINISH.
                s.event_write(0x37, 0);
            }
            s.wait_reg_mem(false, u64::from(r.status), true, 0x3FC, 0);
            let ctrl_off = match fam {
                Family::Gfx10 => 0xA042_3F40,
                Family::Gfx11 => 0xA042_3940,
                _ => 0xA040_5940,
            };
            self.write_tt(&mut s, r.ctrl, ctrl_off);
            s.wait_reg_mem(false, u64::from(r.status), true, 0x0200_0000, 0);
            for se in 0..se_num {
                s.set_uconfig(GRBM_GFX_INDEX, grbm_se_sa(fam, se, 0));
                s.copy_reg_to_mem(u64::from(r.status), record(se), true);
                s.copy_reg_to_mem(u64::from(r.cntr), record(se) + 4, true);
                s.copy_reg_to_mem(u64::from(r.wptr), record(se) + 8, true);
            }
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        }
        // Quirk 10: gfx10 has no final ACQUIRE_MEM.
        if fam != Family::Gfx10 {
            s.acquire_mem(control_addr, control_records);
        }
        s.wait_idle();
        Ok(s.into_dwords())
    }

    /// Builds both streams and places them in a command buffer at
    /// `command_addr` (start at offset 0, stop at the next 256-byte boundary).
    pub fn build_at(&self, control_addr: u64, trace_addr: u64, command_addr: u64) -> Result<AttPackets> {
        let (start, stop) = self.streams(control_addr, trace_addr)?;
        Self::finish(self, control_addr, trace_addr, command_addr, start, stop)
    }

    fn streams(&self, control_addr: u64, trace_addr: u64) -> Result<(Vec<u32>, Vec<u32>)> {
        check_align("control buffer", control_addr, 8)?;
        check_align("trace buffer", trace_addr, TT_ALIGN)?;
        trace_addr.checked_add(self.buffer_size).ok_or(Error::AddressOverflow { what: "trace buffer" })?;
        control_addr
            .checked_add(self.control_buffer_size())
            .ok_or(Error::AddressOverflow { what: "control buffer" })?;
        Ok((self.start_stream(control_addr, trace_addr)?, self.stop_stream(control_addr, trace_addr)?))
    }

    fn finish(
        &self,
        control_addr: u64,
        trace_addr: u64,
        command_addr: u64,
        start: Vec<u32>,
        stop: Vec<u32>,
    ) -> Result<AttPackets> {
        check_align("command buffer", command_addr, 256)?;
        let fam = self.agent.family();
        let start_size = align256(start.len() * 4) as u64;
        let command_size = start_size + align256(stop.len() * 4) as u64;
        command_addr.checked_add(command_size).ok_or(Error::AddressOverflow { what: "command buffer" })?;
        Ok(AttPackets {
            control_addr,
            control_size: self.control_buffer_size(),
            trace_addr,
            trace_size: self.buffer_size,
            command_addr,
            command_size,
            start: Pm4Packet::new(fam, command_addr, start)?,
            stop: Pm4Packet::new(fam, command_addr + start_size, stop)?,
        })
    }

    /// Allocates control, trace and command buffers through `alloc` (in that
    /// order, as aqlprofile does) and builds the packets.
    pub fn build(&self, alloc: &mut dyn Allocator) -> Result<AttPackets> {
        let control = alloc.allocate(self.control_buffer_size(), BufferRole::SqttControl)?;
        let trace = alloc.allocate(self.buffer_size, BufferRole::SqttTrace)?;
        let (start, stop) = self.streams(control, trace)?;
        let command_size = align256(start.len() * 4) + align256(stop.len() * 4);
        let command = alloc.allocate(command_size as u64, BufferRole::Command)?;
        self.finish(control, trace, command, start, stop)
    }
}
