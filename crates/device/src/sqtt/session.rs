//! The SQ thread-trace registers of one agent, as the PM4 executor sees them, and the per-SE
//! traces they drive (stage 3 of `hsa-sim-notes.md` section 3.4).
//!
//! Programming (aqlprofile's start/stop streams, `pm4-pmc-sqtt.md` section 9; registers are per
//! shader engine, selected by `GRBM_GFX_INDEX`, broadcast when it says so):
//! * gfx9: `SQ_THREAD_TRACE_BASE`/`BASE2` (buffer address >> 12), `SIZE` (bytes >> 12), `MASK`
//!   (target CU bits 0..4, SIMD enable bits 8..11), `CTRL` bit 31 (reset the buffer), and `MODE`
//!   bit 21 (on / off) start and stop an SE's trace;
//! * gfx11: `SQ_THREAD_TRACE_BUF0_BASE` (address >> 12) and `BUF0_SIZE` (size >> 12 in bits 8..29,
//!   address bits 44..47 in bits 0..3); gfx12: `BUF0_SIZE` (size >> 12), `BUF0_BASE_LO`/`HI`,
//!   `WPTR`; both: `MASK` (SIMD id bits 0..1, WGP bits 4..7), `CTRL` bit 0 (on / off), and
//!   `COMPUTE_THREAD_TRACE_ENABLE` per SE (waves of SEs without it are not traced);
//! * `SQ_THREAD_TRACE_USERDATA_2` writes go into every running trace as register tokens (the
//!   profiler's `"\0ROC"` header and code-object markers).
//!
//! While an SE's trace runs, every dispatch that completes on the agent is encoded into it
//! ([`SqttSession::dispatch`]). When the trace stops, its bytes are written to the SE's buffer (at
//! most the programmed size) and the stop stream reads back, per SE:
//! * `WPTR`: bytes written in 32-byte units (gfx11: the absolute address in 32-byte units, as
//!   the hardware reports it; gfx9 and gfx12 relative to the buffer);
//! * `STATUS`: no finish pending, not busy; gfx9 sets the buffer-full bit (bit 31) when data was
//!   dropped (gfx10+ hardware has no such bit);
//! * `CNTR` / `DROPPED_CNTR`: 32-byte units that did not fit the buffer (the sim's choice of unit;
//!   on hardware these registers count differently and the profiler treats them as a hint).

use std::collections::HashMap;

use rocprof_packets::regs::{COMPUTE_THREAD_TRACE_ENABLE, GRBM_GFX_INDEX, SQ_THREAD_TRACE_USERDATA_2};
use rocprof_packets::Family as PktFamily;

use super::encode::{traced_cu_in_se, PerfConfig, SeEncoder, SeStream, TracedUnit};
use crate::targets::GpuModel;
use crate::wave::{DetailRequest, DispatchModel};

/// Registers by family (absolute dword addresses, as the packet builder writes them).
#[derive(Debug, Clone, Copy)]
struct Regs {
    mask: u32,
    ctrl: u32,
    status: u32,
    cntr: u32,
    wptr: u32,
}

fn regs(family: PktFamily) -> Regs {
    match family {
        PktFamily::Gfx9 => Regs { mask: 0xC332, ctrl: 0xC335, status: 0xC33A, cntr: 0xC33C, wptr: 0xC339 },
        PktFamily::Gfx10 => Regs { mask: 0x2345, ctrl: 0x2347, status: 0x2348, cntr: 0x2349, wptr: 0x2344 },
        _ => Regs { mask: 0xD9ED, ctrl: 0xD9EC, status: 0xD9F4, cntr: 0xD9FA, wptr: 0xD9EF },
    }
}

const GFX9_BASE: u32 = 0xC330;
const GFX9_SIZE: u32 = 0xC331;
const GFX9_MODE: u32 = 0xC336;
const GFX9_BASE2: u32 = 0xC337;
const GFX11_BUF0_BASE: u32 = 0xD9E8;
const GFX11_BUF0_SIZE: u32 = 0xD9E9;
const GFX12_BUF0_SIZE: u32 = 0xD9E6;
const GFX12_BUF0_BASE_LO: u32 = 0xD9E7;
const GFX12_BUF0_BASE_HI: u32 = 0xD9E8;
/// gfx9 `SQ_THREAD_TRACE_MODE` bits 21..22: mode on.
const GFX9_MODE_ON: u32 = 1 << 21;
/// gfx9 `SQ_THREAD_TRACE_STATUS` buffer full.
const GFX9_STATUS_FULL: u32 = 0x8000_0000;

/// One shader engine's trace registers and running trace.
#[derive(Default)]
struct SeTrace {
    base_lo: u32,
    base_hi: u32,
    size: u64,
    mask: u32,
    enabled: bool,
    running: Option<SeEncoder>,
    /// Bytes in the buffer after the last stop.
    written: u64,
    dropped: u64,
    waves_lost: u64,
}

/// What a stopped trace left, for the executor to write into device memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferWrite {
    /// Address of the SE's buffer.
    pub addr: u64,
    /// The trace bytes.
    pub bytes: Vec<u8>,
}

/// The thread-trace state of one agent.
pub struct SqttSession {
    target: &'static GpuModel,
    family: PktFamily,
    regs: Regs,
    ses: Vec<SeTrace>,
    pending: Vec<BufferWrite>,
    /// Per stopped SE: (global SE, stream statistics), for diagnostics and tests.
    finished: HashMap<u32, SeStream>,
    /// Per XCC: the streamed SQ counters programmed when its traces start (gfx9).
    perf: Vec<Option<PerfConfig>>,
}

impl std::fmt::Debug for SqttSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqttSession").field("target", &self.target.name).field("tracing", &self.is_tracing()).finish()
    }
}

/// SEs a `GRBM_GFX_INDEX` value selects within an XCC: one, or all on broadcast.
fn selected_ses(family: PktFamily, grbm: u32, per_xcc: u32) -> std::ops::Range<u32> {
    if grbm & (1 << 31) != 0 {
        return 0..per_xcc;
    }
    let se = if family == PktFamily::Gfx12 { (grbm >> 16) & 0xF } else { (grbm >> 16) & 0xFF };
    se..(se + 1).min(per_xcc.max(se + 1))
}

impl SqttSession {
    /// Registers after reset: no trace running.
    pub fn new(target: &'static GpuModel, family: PktFamily) -> SqttSession {
        SqttSession {
            target,
            family,
            regs: regs(family),
            ses: (0..target.shader_engines.max(1)).map(|_| SeTrace::default()).collect(),
            pending: Vec::new(),
            finished: HashMap::new(),
            perf: vec![None; target.xccs.max(1) as usize],
        }
    }

    /// The streamed SQ counters (gfx9 `SQ_PERFCOUNTERn_SELECT`, `SQ_PERFCOUNTER_CTRL`, token mask)
    /// of XCC `xcc` as they stand when its traces start; the executor sets them before it
    /// forwards the write that starts a trace.
    pub fn set_perf(&mut self, xcc: u32, perf: Option<PerfConfig>) {
        if let Some(p) = self.perf.get_mut(xcc as usize) {
            *p = perf;
        }
    }

    /// True when some SE's trace runs.
    pub fn is_tracing(&self) -> bool {
        self.ses.iter().any(|s| s.running.is_some())
    }

    fn per_xcc(&self) -> u32 {
        self.target.se_per_xcc()
    }

    fn base(&self, se: &SeTrace) -> u64 {
        match self.family {
            PktFamily::Gfx9 => (u64::from(se.base_lo) | u64::from(se.base_hi & 0xF) << 32) << 12,
            _ => (u64::from(se.base_lo) | u64::from(se.base_hi) << 32) << 12,
        }
    }

    fn unit(&self, se: &SeTrace) -> TracedUnit {
        match self.family {
            PktFamily::Gfx9 => TracedUnit { target_cu: se.mask & 0x1F, simd_select: (se.mask >> 8) & 0xF },
            _ => TracedUnit { target_cu: (se.mask >> 4) & 0xF, simd_select: se.mask & 3 },
        }
    }

    /// Whether `addr` is a thread-trace register this session handles (the executor still keeps
    /// every register's last value in its register file).
    pub fn handles(&self, addr: u32) -> bool {
        let r = self.regs;
        addr == SQ_THREAD_TRACE_USERDATA_2
            || addr == COMPUTE_THREAD_TRACE_ENABLE
            || [r.mask, r.ctrl, r.status, r.cntr, r.wptr].contains(&addr)
            || match self.family {
                PktFamily::Gfx9 => [GFX9_BASE, GFX9_SIZE, GFX9_MODE, GFX9_BASE2].contains(&addr),
                PktFamily::Gfx11 => [GFX11_BUF0_BASE, GFX11_BUF0_SIZE].contains(&addr),
                PktFamily::Gfx12 => [GFX12_BUF0_SIZE, GFX12_BUF0_BASE_LO, GFX12_BUF0_BASE_HI].contains(&addr),
                PktFamily::Gfx10 => false,
            }
    }

    /// A register write on XCC `xcc` with `grbm` the current `GRBM_GFX_INDEX`.
    pub fn write(&mut self, xcc: u32, grbm: u32, addr: u32, value: u32) {
        let per_xcc = self.per_xcc();
        if addr == SQ_THREAD_TRACE_USERDATA_2 {
            // Each XCC's command processor writes its own SEs' user data.
            let first = (xcc * per_xcc) as usize;
            for s in self.ses.iter_mut().skip(first).take(per_xcc as usize) {
                if let Some(e) = s.running.as_mut() {
                    e.userdata(value);
                }
            }
            return;
        }
        for se_in_xcc in selected_ses(self.family, grbm, per_xcc) {
            let se = (xcc * per_xcc + se_in_xcc) as usize;
            if se >= self.ses.len() {
                continue;
            }
            self.write_se(se, addr, value);
        }
    }

    fn write_se(&mut self, se: usize, addr: u32, value: u32) {
        let r = self.regs;
        let fam = self.family;
        let s = &mut self.ses[se];
        match addr {
            a if a == r.mask => s.mask = value,
            a if a == COMPUTE_THREAD_TRACE_ENABLE => s.enabled = value & 1 != 0,
            GFX9_BASE if fam == PktFamily::Gfx9 => s.base_lo = value,
            GFX9_BASE2 if fam == PktFamily::Gfx9 => s.base_hi = value,
            GFX9_SIZE if fam == PktFamily::Gfx9 => s.size = u64::from(value) << 12,
            GFX11_BUF0_BASE if fam == PktFamily::Gfx11 => s.base_lo = value,
            GFX11_BUF0_SIZE if fam == PktFamily::Gfx11 => {
                s.size = u64::from((value >> 8) & 0x3F_FFFF) << 12;
                s.base_hi = value & 0xF;
            }
            GFX12_BUF0_SIZE if fam == PktFamily::Gfx12 => s.size = u64::from(value) << 12,
            GFX12_BUF0_BASE_LO if fam == PktFamily::Gfx12 => s.base_lo = value,
            GFX12_BUF0_BASE_HI if fam == PktFamily::Gfx12 => s.base_hi = value,
            a if a == r.wptr => s.written = 0,
            GFX9_MODE if fam == PktFamily::Gfx9 => {
                if value & GFX9_MODE_ON != 0 {
                    self.start(se);
                } else {
                    self.stop(se);
                }
            }
            a if a == r.ctrl => {
                if fam == PktFamily::Gfx9 {
                    if value & 0x8000_0000 != 0 {
                        s.written = 0;
                        s.dropped = 0;
                        s.waves_lost = 0;
                    }
                } else if value & 1 != 0 {
                    self.start(se);
                } else {
                    self.stop(se);
                }
            }
            _ => {}
        }
    }

    fn start(&mut self, se: usize) {
        if self.ses[se].running.is_some() {
            return;
        }
        let unit = self.unit(&self.ses[se]);
        let capacity = self.ses[se].size;
        let perf = self.perf.get(se / self.per_xcc().max(1) as usize).cloned().flatten();
        let s = &mut self.ses[se];
        s.written = 0;
        s.dropped = 0;
        s.waves_lost = 0;
        s.running = SeEncoder::new(self.target, se as u32, unit, capacity);
        if let Some(e) = s.running.as_mut() {
            e.set_perf(perf);
        }
    }

    fn stop(&mut self, se: usize) {
        let Some(enc) = self.ses[se].running.take() else { return };
        let out = enc.finish();
        let addr = self.base(&self.ses[se]);
        let s = &mut self.ses[se];
        s.written = out.bytes.len() as u64;
        s.dropped = out.dropped_bytes;
        s.waves_lost = out.waves_lost;
        self.pending.push(BufferWrite { addr, bytes: out.bytes.clone() });
        self.finished.insert(se as u32, out);
    }

    /// Buffer contents of traces stopped since the last call, to be written to device memory
    /// before the stop stream reads the write pointers back.
    pub fn take_writes(&mut self) -> Vec<BufferWrite> {
        std::mem::take(&mut self.pending)
    }

    /// A register read on XCC `xcc` (`grbm`: the current `GRBM_GFX_INDEX`); `None` for registers
    /// this session does not answer.
    pub fn read(&self, xcc: u32, grbm: u32, addr: u32) -> Option<u32> {
        let r = self.regs;
        if ![r.status, r.cntr, r.wptr].contains(&addr) {
            return None;
        }
        let se_in_xcc = selected_ses(self.family, grbm, self.per_xcc()).start;
        let s = self.ses.get((xcc * self.per_xcc() + se_in_xcc) as usize)?;
        Some(if addr == r.wptr {
            let units = if self.family == PktFamily::Gfx11 { (self.base(s) + s.written) / 32 } else { s.written / 32 };
            let mask = if self.family == PktFamily::Gfx9 { 0x3FFF_FFFF } else { 0x1FFF_FFFF };
            (units & mask) as u32
        } else if addr == r.cntr {
            (s.dropped / 32).min(u64::from(u32::MAX)) as u32
        } else if self.family == PktFamily::Gfx9 && s.dropped > 0 {
            GFX9_STATUS_FULL
        } else {
            0
        })
    }

    /// Which waves a dispatch model must detail for the running traces (`None`: no trace runs).
    pub fn detail_request(&self) -> Option<DetailRequest> {
        let mut se_mask = 0u64;
        let mut cu = None;
        for (i, s) in self.ses.iter().enumerate() {
            if s.running.is_some() && self.traces_waves(s) && i < 64 {
                se_mask |= 1 << i;
                cu = Some(traced_cu_in_se(self.target, self.unit(s)));
            }
        }
        (se_mask != 0).then_some(DetailRequest {
            se_mask,
            cu_in_se: cu,
            max_waves: 4096,
            max_instructions_per_wave: 1 << 16,
        })
    }

    fn traces_waves(&self, s: &SeTrace) -> bool {
        self.family == PktFamily::Gfx9 || s.enabled
    }

    /// A dispatch completed on the agent: every running trace of an SE that traces waves records
    /// it (kernel code at absolute `entry_pc`, `code` from the entry on).
    pub fn dispatch(&mut self, model: &DispatchModel, entry_pc: u64, code: &[u8]) {
        for i in 0..self.ses.len() {
            let traces = self.traces_waves(&self.ses[i]);
            if let (true, Some(e)) = (traces, self.ses[i].running.as_mut()) {
                e.dispatch(model, entry_pc, code);
            }
        }
    }

    /// What the last stop of SE `se` (global index) left: bytes, dropped bytes, lost waves.
    pub fn finished(&self, se: u32) -> Option<&SeStream> {
        self.finished.get(&se)
    }

    /// `GRBM_GFX_INDEX` register address (the executor passes its current value along).
    pub const GRBM: u32 = GRBM_GFX_INDEX;
}
