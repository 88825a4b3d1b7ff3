//! The PM4 executor (stage 2 of `hsa-sim-notes.md` section 3.4): a per-agent register file, one per
//! XCC, that executes the type-3 packets the profiler's command streams contain, and the performance
//! counters behind it.
//!
//! Executed: `SET_UCONFIG_REG`, `SET_SH_REG` (register writes), `COPY_DATA` (immediate or register to
//! register or memory, 32 or 64 bit; reads of counter registers return the counter model's value for
//! the instance `GRBM_GFX_INDEX` selects), `WRITE_DATA` (to registers or memory), `PRED_EXEC` (per-XCC
//! predication: a stream runs once on every XCC, each skipping what is not meant for it, as the CPs of
//! a multi-XCC part do), `WAIT_REG_MEM` (evaluated once: the sim never has work in flight, so an
//! unsatisfied wait would hang a real CP forever and is reported as an issue), and `EVENT_WRITE`,
//! `ACQUIRE_MEM`, `NOP` (ordering and cache operations: nothing to do when every packet completes
//! before the next starts). Anything else is reported and skipped.
//!
//! Counting: writing `COMPUTE_PERFCOUNT_ENABLE = 1` (every PMC start stream ends its programming with
//! it) or `CP_PERFMON_CNTL` state 1 starts counting, state 0 (`DISABLE_AND_RESET`) resets, state 2
//! (`STOP`) stops. Every kernel dispatch that completes on the agent while an XCC counts is added to
//! that XCC's list ([`Pm4Device::dispatch_completed`]). A counter register then reads, for the event
//! its select register was last programmed with (for the instance read), the sum over those
//! dispatches of [`crate::counters::event_value`]. The select register is found through the packets
//! crate's block tables, the same tables that built the streams, so the counters a stream reads are
//! exactly the ones it programmed.
//!
//! No FFI and no unsafe: memory goes through [`DeviceMemory`], which the sim implements.

use std::collections::HashMap;
use std::sync::Arc;

use rocprof_packets::block::{attr, BlockInfo};
use rocprof_packets::regs::{
    COMPUTE_PERFCOUNT_ENABLE, CP_PERFMON_CNTL, GRBM_GFX_INDEX, SQ_PERFCOUNTER0_SELECT, SQ_PERFCOUNTER_CTRL,
};
use rocprof_packets::{Family, Target};

use crate::counters::{event_value, Unit};
use crate::sqtt::SqttSession;
use crate::targets::GpuModel;
use crate::wave::DispatchModel;

/// Device memory as the executor sees it.
pub trait DeviceMemory {
    /// Copies `out.len()` bytes at `addr`; false when the range is not accessible.
    fn read(&self, addr: u64, out: &mut [u8]) -> bool;
    /// Writes `data` at `addr`; false when the range is not accessible.
    fn write(&self, addr: u64, data: &[u8]) -> bool;
    /// The GPU clock counter (`COPY_DATA` source `GPU_CLOCK_COUNT`, which gfx9 thread-trace
    /// streams copy to mark their start and end); 0 when the memory has no clock.
    fn gpu_clock(&self) -> u64 {
        0
    }
}

/// Most dispatches one counting period keeps; later ones are not counted (reported by
/// [`Pm4Device::overflowed`]). A PMC session counts one dispatch; only a stream that starts counting
/// and never stops reaches this.
pub const MAX_COUNTED_DISPATCHES: usize = 4096;

/// gfx9 `SQ_THREAD_TRACE_TOKEN_MASK` and its perf-token enable (bit 14).
const GFX9_SQTT_TOKEN_MASK: u32 = 0xC333;
const GFX9_SQTT_TOKEN_PERF: u32 = 0x4000;
/// gfx9 `SQ_THREAD_TRACE_MODE` and its mode-on bit (a trace starts with this write).
const GFX9_SQTT_MODE: u32 = 0xC336;
const GFX9_SQTT_MODE_ON: u32 = 1 << 21;

/// Something in a stream the executor could not do as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pm4Issue {
    /// Not a type-3 header.
    BadHeader {
        /// Dword offset.
        offset_dw: usize,
        /// The word.
        word: u32,
    },
    /// The packet runs past the end of the stream.
    Truncated {
        /// Dword offset.
        offset_dw: usize,
    },
    /// An opcode the executor does not implement (skipped).
    UnknownOpcode {
        /// Dword offset.
        offset_dw: usize,
        /// IT opcode.
        opcode: u32,
    },
    /// A memory access outside accessible memory.
    BadAddress {
        /// Dword offset of the packet.
        offset_dw: usize,
        /// The address.
        addr: u64,
    },
    /// A `WAIT_REG_MEM` whose condition does not hold (a real CP would wait forever).
    WaitNeverSatisfied {
        /// Dword offset of the packet.
        offset_dw: usize,
    },
}

/// What one stream did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pm4Report {
    /// Packets executed, summed over XCCs (predicated-off packets not counted).
    pub packets: usize,
    /// Register writes.
    pub register_writes: usize,
    /// Bytes written to memory.
    pub memory_bytes_written: usize,
    /// `COPY_DATA`s of a performance-counter register to memory (a counter read-back).
    pub counter_reads: usize,
    /// Problems, in stream order (each at most once even on several XCCs).
    pub issues: Vec<Pm4Issue>,
}

/// Where a counter register of a block lives in the block's table.
#[derive(Debug, Clone, Copy)]
struct CounterReg {
    block: usize,
    row: usize,
    hi: bool,
}

#[derive(Debug, Default)]
struct Xcc {
    regs: HashMap<u32, u32>,
    /// Writes to counter select registers: (register, GRBM_GFX_INDEX at the time, value), in order.
    selects: Vec<(u32, u32, u32)>,
    counting: bool,
    counted: Vec<Arc<DispatchModel>>,
}

/// The PM4-visible state of one agent.
#[derive(Debug)]
pub struct Pm4Device {
    target: &'static GpuModel,
    family: Family,
    blocks: &'static [BlockInfo],
    counter_regs: HashMap<u32, Vec<CounterReg>>,
    select_regs: HashMap<u32, usize>,
    /// (block enum, event id) -> event name, from the counter database.
    events: HashMap<(String, u32), String>,
    xcc: Vec<Xcc>,
    overflowed: u64,
    /// Thread-trace registers and running traces.
    sqtt: SqttSession,
}

/// Decoded `GRBM_GFX_INDEX`: `None` = broadcast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Grbm {
    se: Option<u32>,
    sa: Option<u32>,
    instance: Option<u32>,
}

fn decode_grbm(family: Family, v: u32) -> Grbm {
    let (inst_mask, sa_mask, se_mask) = if family == Family::Gfx12 { (0x7F, 0x3, 0xF) } else { (0xFF, 0xFF, 0xFF) };
    Grbm {
        se: (v & (1 << 31) == 0).then_some((v >> 16) & se_mask),
        sa: (v & (1 << 29) == 0).then_some((v >> 8) & sa_mask),
        instance: (v & (1 << 30) == 0).then_some(v & inst_mask),
    }
}

/// Whether a select write made under `written` applies to the instance `read` names.
fn applies(written: Grbm, read: Grbm) -> bool {
    let ok = |w: Option<u32>, r: Option<u32>| w.is_none() || w == Some(r.unwrap_or(0));
    ok(written.se, read.se) && ok(written.sa, read.sa) && ok(written.instance, read.instance)
}

fn packets_target(m: &GpuModel) -> Option<Target> {
    Target::from_name(m.name).ok()
}

impl Pm4Device {
    /// The state of one agent of `target` after reset: registers zero, not counting.
    pub fn new(target: &'static GpuModel) -> Pm4Device {
        let pt = packets_target(target);
        let blocks = pt.map(rocprof_packets::blocks).unwrap_or(&[]);
        let mut counter_regs: HashMap<u32, Vec<CounterReg>> = HashMap::new();
        let mut select_regs = HashMap::new();
        for (b, info) in blocks.iter().enumerate() {
            for (row, r) in info.counter_registers().iter().enumerate() {
                if r.lo != 0 {
                    counter_regs.entry(r.lo).or_default().push(CounterReg { block: b, row, hi: false });
                }
                if r.hi != 0 {
                    counter_regs.entry(r.hi).or_default().push(CounterReg { block: b, row, hi: true });
                }
                if r.select != 0 {
                    select_regs.insert(r.select, b);
                }
            }
        }
        let mut events = HashMap::new();
        if let Ok(t) = rocprof_counters::Database::builtin().target(target.name) {
            for c in &t.counters {
                if let rocprof_counters::CounterKind::Base { block, event } = &c.kind {
                    events.insert((block.clone(), *event), c.name.clone());
                }
            }
        }
        Pm4Device {
            target,
            family: pt.map(Target::family).unwrap_or(Family::Gfx9),
            blocks,
            counter_regs,
            select_regs,
            events,
            xcc: (0..target.xccs.max(1)).map(|_| Xcc::default()).collect(),
            overflowed: 0,
            sqtt: SqttSession::new(target, pt.map(Target::family).unwrap_or(Family::Gfx9)),
        }
    }

    /// True when any XCC counts (the sim skips the dispatch bookkeeping otherwise).
    pub fn is_counting(&self) -> bool {
        self.xcc.iter().any(|x| x.counting)
    }

    /// Dispatches not counted because a counting period already held [`MAX_COUNTED_DISPATCHES`].
    pub fn overflowed(&self) -> u64 {
        self.overflowed
    }

    /// Records a kernel dispatch that completed on the agent: every XCC that counts counts it.
    pub fn dispatch_completed(&mut self, model: Arc<DispatchModel>) {
        for x in &mut self.xcc {
            if x.counting {
                if x.counted.len() < MAX_COUNTED_DISPATCHES {
                    x.counted.push(model.clone());
                } else {
                    self.overflowed += 1;
                }
            }
        }
    }

    /// True when a thread trace runs on some shader engine (the sim then asks
    /// [`Pm4Device::sqtt_detail_request`] before modelling a dispatch and hands the model to
    /// [`Pm4Device::sqtt_dispatch`]).
    pub fn is_tracing(&self) -> bool {
        self.sqtt.is_tracing()
    }

    /// The per-instruction detail the running thread traces need from a dispatch model.
    pub fn sqtt_detail_request(&self) -> Option<crate::wave::DetailRequest> {
        self.sqtt.detail_request()
    }

    /// A dispatch completed while thread traces run: its waves go into every running trace
    /// (`entry_pc`: absolute address of the kernel's first instruction; `code`: its code).
    pub fn sqtt_dispatch(&mut self, model: &DispatchModel, entry_pc: u64, code: &[u8]) {
        self.sqtt.dispatch(model, entry_pc, code);
    }

    /// The thread-trace state (for tests and diagnostics).
    pub fn sqtt(&self) -> &SqttSession {
        &self.sqtt
    }

    /// Value of register `addr` on XCC `xcc` (counter registers read the counter model).
    pub fn read_register(&self, xcc: usize, addr: u32) -> u32 {
        let x = &self.xcc[xcc];
        let grbm = x.regs.get(&GRBM_GFX_INDEX).copied().unwrap_or(0xE000_0000);
        if let Some(v) = self.sqtt.read(xcc as u32, grbm, addr) {
            return v;
        }
        if let Some(candidates) = self.counter_regs.get(&addr) {
            let grbm = decode_grbm(self.family, x.regs.get(&GRBM_GFX_INDEX).copied().unwrap_or(0xE000_0000));
            let value = self.counter_value(xcc, candidates, grbm);
            let hi = candidates.first().is_some_and(|c| c.hi);
            return if hi { (value >> 32) as u32 } else { value as u32 };
        }
        x.regs.get(&addr).copied().unwrap_or(0)
    }

    fn counter_value(&self, xcc: usize, candidates: &[CounterReg], grbm: Grbm) -> u64 {
        let x = &self.xcc[xcc];
        // Memory-controller style blocks share LO/HI between slots; their control register picks one.
        let c = if candidates.len() > 1 {
            let b = &self.blocks[candidates[0].block];
            let control = b.counter_registers()[candidates[0].row].control;
            let slot = x.regs.get(&control).copied().unwrap_or(0) as usize & 0xFF;
            candidates.iter().find(|c| c.row % b.counters.max(1) as usize == slot).unwrap_or(&candidates[0])
        } else {
            &candidates[0]
        };
        let block = &self.blocks[c.block];
        let regs = block.counter_registers()[c.row];
        let Some(&(_, _, select)) =
            x.selects.iter().rev().find(|(r, g, _)| *r == regs.select && applies(decode_grbm(self.family, *g), grbm))
        else {
            return 0;
        };
        let event = block.select_event(select);
        let Some(name) = self.events.get(&(block.name.to_string(), event)) else { return 0 };
        let instance = if block.has(attr::EXPL_INST) {
            (c.row / block.counters.max(1) as usize) as u32
        } else {
            grbm.instance.unwrap_or(0)
        };
        let Some(unit) = self.unit(block, xcc as u32, grbm, instance) else { return 0 };
        x.counted.iter().map(|m| event_value(m, name, &unit)).fold(0u64, u64::wrapping_add)
    }

    /// CUs (global indices) of shader array `sa` in SE `se_in_xcc` of XCC `xcc`.
    fn sa_cus(&self, xcc: u32, se_in_xcc: u32, sa: u32) -> std::ops::Range<u32> {
        let t = self.target;
        let n = t.cus_in_se(se_in_xcc);
        let first = t.first_cu_of_se(xcc, se_in_xcc);
        let in_sa: Vec<u32> = (0..n).filter(|&c| t.sa_of_cu(c, n) == sa).collect();
        match (in_sa.first(), in_sa.last()) {
            (Some(&a), Some(&b)) => first + a..first + b + 1,
            _ => first..first,
        }
    }

    /// The unit a counter instance covers (see the module docs of `crate::counters`).
    fn unit(&self, block: &BlockInfo, xcc: u32, grbm: Grbm, instance: u32) -> Option<Unit> {
        let t = self.target;
        if !block.has(attr::SE) && !block.has(attr::SA) && !block.has(attr::WGP) {
            if block.has(attr::TC) && block.instances > 1 {
                return Some(Unit::L2Channel { xcc, channel: instance, channels: block.instances });
            }
            return Some(Unit::Xcc(xcc));
        }
        let se = grbm.se.unwrap_or(0);
        if se >= t.se_per_xcc() {
            return None;
        }
        let first = t.first_cu_of_se(xcc, se);
        let se_cus = first..first + t.cus_in_se(se);
        let sa = grbm.sa.unwrap_or(0);
        let wgp_family = matches!(self.family, Family::Gfx11 | Family::Gfx12);
        if wgp_family && (block.has(attr::WGP) || block.has(attr::SQ)) {
            // GRBM instance field = wgp << 2 | row (gfx11 TA/TCP put the row at bit 1).
            let sa_cus = self.sa_cus(xcc, se, sa);
            let wgp = instance >> 2;
            let row = if self.family == Family::Gfx11 { (instance >> 1) & 1 } else { instance & 3 };
            let start = sa_cus.start + 2 * wgp;
            if block.has(attr::SQ) {
                return Some(Unit::Cus(start.min(sa_cus.end)..(start + 2).min(sa_cus.end)));
            }
            let cu = start + row;
            return Some(Unit::Cus(cu.min(sa_cus.end)..(cu + 1).min(sa_cus.end)));
        }
        let scope = if block.has(attr::SA) { self.sa_cus(xcc, se, sa) } else { se_cus };
        if block.has(attr::TC) && block.instances > 1 {
            // Per-CU texture blocks: instance i is the scope's i-th CU.
            let cu = scope.start + instance;
            return Some(Unit::Cus(cu.min(scope.end)..(cu + 1).min(scope.end)));
        }
        Some(Unit::Cus(scope))
    }

    /// gfx9's streamed SQ counters as XCC `xcc`'s registers program them: the token mask's perf
    /// bit, `SQ_PERFCOUNTERn_SELECT` (event in bits 0..8, SIMD mask in bits 24..27) and
    /// `SQ_PERFCOUNTER_CTRL`'s rate.
    fn sqtt_perf(&self, xcc: usize) -> Option<crate::sqtt::PerfConfig> {
        let regs = &self.xcc[xcc].regs;
        if regs.get(&GFX9_SQTT_TOKEN_MASK).copied().unwrap_or(0) & GFX9_SQTT_TOKEN_PERF == 0 {
            return None;
        }
        let mut p = crate::sqtt::PerfConfig {
            period: crate::sqtt::PerfConfig::period_for_ctrl(regs.get(&SQ_PERFCOUNTER_CTRL).copied().unwrap_or(0)),
            ..Default::default()
        };
        for (n, slot) in p.slots.iter_mut().enumerate() {
            let Some(&v) = regs.get(&(SQ_PERFCOUNTER0_SELECT + n as u32)) else { continue };
            if v == 0 {
                continue;
            }
            *slot = self.events.get(&("SQ".to_string(), v & 0x1FF)).map(|name| (name.clone(), (v >> 24) & 0xF));
        }
        Some(p)
    }

    fn write_register(&mut self, xcc: usize, addr: u32, value: u32) {
        if self.family == Family::Gfx9 && addr == GFX9_SQTT_MODE && value & GFX9_SQTT_MODE_ON != 0 {
            let perf = self.sqtt_perf(xcc);
            self.sqtt.set_perf(xcc as u32, perf);
        }
        if self.sqtt.handles(addr) {
            let grbm = self.xcc[xcc].regs.get(&GRBM_GFX_INDEX).copied().unwrap_or(0xE000_0000);
            self.sqtt.write(xcc as u32, grbm, addr, value);
        }
        let x = &mut self.xcc[xcc];
        if self.select_regs.contains_key(&addr) {
            let grbm = x.regs.get(&GRBM_GFX_INDEX).copied().unwrap_or(0xE000_0000);
            x.selects.retain(|(r, g, _)| !(*r == addr && *g == grbm));
            x.selects.push((addr, grbm, value));
        }
        x.regs.insert(addr, value);
        if addr == COMPUTE_PERFCOUNT_ENABLE {
            if value & 1 != 0 {
                x.counted.clear();
                x.counting = true;
            } else {
                x.counting = false;
            }
        } else if addr == CP_PERFMON_CNTL {
            match value & 0xF {
                0 => {
                    x.counted.clear();
                    x.counting = false;
                }
                1 => x.counting = true,
                2 => x.counting = false,
                _ => {}
            }
        }
    }

    /// Executes `dwords` on every XCC of the agent.
    pub fn execute(&mut self, dwords: &[u32], mem: &dyn DeviceMemory) -> Pm4Report {
        let mut report = Pm4Report::default();
        for xcc in 0..self.xcc.len() {
            self.execute_on(xcc, dwords, mem, &mut report);
            self.flush_traces(mem, &mut report);
        }
        report
    }

    /// Writes the buffers of thread traces that stopped into device memory (before the next packet
    /// of the stop stream reads their write pointers back).
    fn flush_traces(&mut self, mem: &dyn DeviceMemory, report: &mut Pm4Report) {
        for w in self.sqtt.take_writes() {
            if mem.write(w.addr, &w.bytes) {
                report.memory_bytes_written += w.bytes.len();
            } else if !w.bytes.is_empty() {
                report.issues.push(Pm4Issue::BadAddress { offset_dw: 0, addr: w.addr });
            }
        }
    }

    fn execute_on(&mut self, xcc: usize, dw: &[u32], mem: &dyn DeviceMemory, report: &mut Pm4Report) {
        let issue = |report: &mut Pm4Report, i: Pm4Issue| {
            if !report.issues.contains(&i) {
                report.issues.push(i);
            }
        };
        let mut i = 0;
        let mut skip_until = 0usize;
        while i < dw.len() {
            let h = dw[i];
            if h >> 30 != 3 {
                issue(report, Pm4Issue::BadHeader { offset_dw: i, word: h });
                return;
            }
            let count = ((h >> 16) & 0x3FFF) as usize + 1;
            let op = (h >> 8) & 0xFF;
            if i + 1 + count > dw.len() {
                issue(report, Pm4Issue::Truncated { offset_dw: i });
                return;
            }
            let body = &dw[i + 1..i + 1 + count];
            let at = i;
            i += 1 + count;
            if at < skip_until {
                continue;
            }
            report.packets += 1;
            self.flush_traces(mem, report);
            match op {
                // SET_UCONFIG_REG / SET_SH_REG: offset, then consecutive values.
                0x79 | 0x76 => {
                    let base = if op == 0x79 { 0xC000 } else { 0x2C00 };
                    let start = base + (body[0] & 0xFFFF);
                    for (k, &v) in body[1..].iter().enumerate() {
                        self.write_register(xcc, start + k as u32, v);
                        report.register_writes += 1;
                    }
                }
                // COPY_DATA: control, src lo, src hi, dst lo, dst hi.
                0x40 if body.len() >= 5 => {
                    let ctrl = body[0];
                    let (src_sel, dst_sel) = (ctrl & 0xF, (ctrl >> 8) & 0xF);
                    let wide = ctrl & (1 << 16) != 0;
                    let src = u64::from(body[1]) | u64::from(body[2]) << 32;
                    let dst = u64::from(body[3]) | u64::from(body[4]) << 32;
                    let value: u64 = match src_sel {
                        0 | 4 => {
                            let lo = self.read_register(xcc, src as u32);
                            let hi = if wide { self.read_register(xcc, src as u32 + 1) } else { 0 };
                            u64::from(lo) | u64::from(hi) << 32
                        }
                        5 => src,
                        // GPU_CLOCK_COUNT.
                        9 => mem.gpu_clock(),
                        1 | 2 => {
                            let mut b = [0u8; 8];
                            let n = if wide { 8 } else { 4 };
                            if !mem.read(src, &mut b[..n]) {
                                issue(report, Pm4Issue::BadAddress { offset_dw: at, addr: src });
                                continue;
                            }
                            u64::from_le_bytes(b)
                        }
                        _ => {
                            issue(report, Pm4Issue::UnknownOpcode { offset_dw: at, opcode: op });
                            continue;
                        }
                    };
                    match dst_sel {
                        0 | 4 => {
                            self.write_register(xcc, dst as u32, value as u32);
                            report.register_writes += 1;
                        }
                        2 | 5 => {
                            let n = if wide { 8 } else { 4 };
                            if mem.write(dst, &value.to_le_bytes()[..n]) {
                                report.memory_bytes_written += n;
                                if matches!(src_sel, 0 | 4) && self.counter_regs.contains_key(&(src as u32)) {
                                    report.counter_reads += 1;
                                }
                            } else {
                                issue(report, Pm4Issue::BadAddress { offset_dw: at, addr: dst });
                            }
                        }
                        _ => issue(report, Pm4Issue::UnknownOpcode { offset_dw: at, opcode: op }),
                    }
                }
                // WRITE_DATA: control, dst lo, dst hi, data...
                0x37 if body.len() >= 3 => {
                    let dst_sel = (body[0] >> 8) & 0xF;
                    let dst = u64::from(body[1]) | u64::from(body[2]) << 32;
                    let data = &body[3..];
                    if dst_sel == 0 {
                        for (k, &v) in data.iter().enumerate() {
                            self.write_register(xcc, dst as u32 + k as u32, v);
                            report.register_writes += 1;
                        }
                    } else {
                        let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
                        if mem.write(dst, &bytes) {
                            report.memory_bytes_written += bytes.len();
                        } else {
                            issue(report, Pm4Issue::BadAddress { offset_dw: at, addr: dst });
                        }
                    }
                }
                // PRED_EXEC: EXEC_COUNT[13:0], XCC mask [31:24].
                0x23 => {
                    let mask = body[0] >> 24;
                    if mask & (1 << xcc) == 0 {
                        skip_until = i + (body[0] & 0x3FFF) as usize;
                    }
                }
                // WAIT_REG_MEM: control, addr lo, addr hi, reference, mask, poll interval.
                0x3C if body.len() >= 5 => {
                    let ctrl = body[0];
                    let addr = u64::from(body[1]) | u64::from(body[2]) << 32;
                    let value = if ctrl & (1 << 4) != 0 {
                        let mut b = [0u8; 4];
                        if !mem.read(addr, &mut b) {
                            issue(report, Pm4Issue::BadAddress { offset_dw: at, addr });
                            continue;
                        }
                        u32::from_le_bytes(b)
                    } else {
                        self.read_register(xcc, addr as u32)
                    };
                    let (v, r) = (value & body[4], body[3]);
                    let ok = match ctrl & 7 {
                        0 => true,
                        1 => v < r,
                        2 => v <= r,
                        3 => v == r,
                        4 => v != r,
                        5 => v >= r,
                        6 => v > r,
                        _ => false,
                    };
                    if !ok {
                        issue(report, Pm4Issue::WaitNeverSatisfied { offset_dw: at });
                    }
                }
                // NOP, EVENT_WRITE, ACQUIRE_MEM: nothing to order or flush in the sim.
                0x10 | 0x46 | 0x58 => {}
                _ => issue(report, Pm4Issue::UnknownOpcode { offset_dw: at, opcode: op }),
            }
        }
    }
}

#[cfg(test)]
mod tests;
