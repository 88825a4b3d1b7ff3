//! Performance-counter (PMC) sessions: event ordering and counter-slot
//! assignment, output-buffer sizing, and the start / stop / read PM4 streams,
//! reproducing aqlprofile's `aqlprofile_pmc_create_packets` byte for byte.
//!
//! Flow: [`PmcPlan::new`] validates the request and assigns hardware counters;
//! [`PmcPlan::build`] allocates the output buffer, builds the three streams,
//! allocates the command buffer and wraps each stream in an AQL packet.
//! [`PmcPlan::build_streams`] / [`PmcStreams::finish`] are the same two steps
//! for callers that manage memory themselves.

use std::collections::BTreeMap;

use crate::alloc::{Allocator, BufferRole};
use crate::aql::{align256, Pm4Packet};
use crate::block::{attr, block_by_enum, BlockGeometry, BlockInfo, CounterRegs};
use crate::error::{Error, Result};
use crate::pm4::{pred_exec_word, Pm4Stream};
use crate::regs::*;
use crate::target::{Agent, Family};

/// Accumulation flag LO_RES (`aqlprofile_pmc_event_flags_t.sq_flags.accum`).
pub const ACCUM_LO_RES: u32 = 1;
/// Accumulation flag HI_RES.
pub const ACCUM_HI_RES: u32 = 2;
/// Width of the `accum` bit field at the bottom of the event flags (3 bits).
pub const ACCUM_FIELD_MASK: u32 = 0x7;

/// SPI event ids at or above this take no hardware counter ("special" ids).
pub const SPI_SPECIAL_EVENT: u32 = 0x100_0000;

/// Extra output bytes aqlprofile reserves on every family ("room for the gfx10
/// GRBM counter"; quirk 3 of the reference).
const OUTPUT_SPARE_BYTES: u64 = 8;

/// One requested counter event, as passed to aqlprofile's v2 API (the launch contract's type:
/// the CLI plans it, the library programs it, the capture records it).
pub use rocprof_launch::PmcEvent;

/// An event after aqlprofile's ordering: request order, or sorted with
/// internal unflagged copies inserted when any event carries flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedEvent {
    /// The event.
    pub event: PmcEvent,
    /// Inserted by the planner; occupies a counter and output slots but is
    /// not reported.
    pub internal: bool,
    /// Block table entry.
    pub block: &'static BlockInfo,
}

/// One hardware counter the streams program and read.
#[derive(Debug, Clone, Copy)]
struct HwCounter {
    block: &'static BlockInfo,
    block_index: u32,
    slot: u32,
    /// Event id written to the select (accumulation id for flagged SQ events).
    select_event: u32,
    spi_skip: bool,
}

/// Where one reported 64-bit sample lives in the output buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleSlot {
    /// Index into [`PmcPlan::events`].
    pub event_index: usize,
    /// Block enum.
    pub block_enum: u32,
    /// Block instance.
    pub block_index: u32,
    /// Event id as requested.
    pub event_id: u32,
    /// Reported sample id (`xcc * instances * samples + block_index * samples + k`).
    pub sample_id: u64,
    /// XCC the sample was read on.
    pub xcc: u32,
    /// Byte offset of the sample in the output buffer.
    pub offset: u64,
}

/// A validated PMC request for one agent.
#[derive(Debug, Clone)]
pub struct PmcPlan {
    agent: Agent,
    events: Vec<PlannedEvent>,
    counters: Vec<HwCounter>,
    counters_attr: u32,
}

/// Sort key of aqlprofile's `EventRequest`: (block, index) then
/// (event id, flags, visible-after-internal).
fn order_key(e: &PmcEvent, internal: bool) -> (u64, u64) {
    let blk = u64::from(e.block_index) | u64::from(e.block_enum) << 32;
    let idx = u64::from(!internal) | u64::from(e.flags) << 1 | u64::from(e.event_id) << 33;
    (blk, idx)
}

impl PmcPlan {
    /// Validates `events` for `agent` and assigns hardware counters.
    ///
    /// Errors: unknown block, instance out of range, more events on one block
    /// instance than it has counters, accumulation flags where aqlprofile
    /// rejects them, SDMA/UMC blocks (not implemented), no events (except on
    /// gfx10, see below).
    ///
    /// Deliberate difference: aqlprofile's `create_packets` does not check
    /// `block_index` (only `validate_pmc_event` does) and builds packets with
    /// out-of-range instances (selecting instances the hardware lacks, or
    /// indexing past per-instance register tables) and reports overlapping
    /// sample ids; this builder refuses them, as the validate call does.
    pub fn new(agent: &Agent, events: &[PmcEvent]) -> Result<PmcPlan> {
        let target = agent.target;
        let mut list = Vec::with_capacity(events.len() + 4);
        for e in events {
            let block = validate_event(agent, e)?;
            let aid_without_mc_path = block.has(attr::AID) && !block.has(attr::RPB | attr::ATC);
            let aid_split = block.has(attr::AID) && agent.multi_xcc() && block.instances < AID_COUNT;
            if block.has(attr::UMC | attr::SDMA) || aid_without_mc_path || aid_split {
                return Err(Error::UnsupportedBlock {
                    block: block.name,
                    target: target.name(),
                    reason: "SDMA/UMC counters are not implemented",
                });
            }
            list.push(PlannedEvent { event: *e, internal: false, block });
        }

        // With any flagged event aqlprofile sorts the list and inserts an
        // internal unflagged twin for every flagged event that lacks one.
        if list.iter().any(|p| p.event.flags != 0) {
            list.sort_by_key(|p| order_key(&p.event, p.internal));
            let mut extra = Vec::new();
            for i in 0..list.len() {
                let cur = list[i];
                if cur.event.flags == 0 {
                    continue;
                }
                if i > 0 {
                    let prev = list[i - 1];
                    let same = prev.event.block_enum == cur.event.block_enum
                        && prev.event.block_index == cur.event.block_index
                        && prev.event.event_id == cur.event.event_id;
                    if same && (prev.event.flags == 0 || prev.internal) {
                        continue;
                    }
                }
                let mut twin = cur;
                twin.internal = true;
                twin.event.flags = 0;
                extra.push(twin);
            }
            if !extra.is_empty() {
                list.extend(extra);
                list.sort_by_key(|p| order_key(&p.event, p.internal));
            }
        }

        let mut slots: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let mut counters = Vec::with_capacity(list.len() + 1);
        let mut counters_attr = 0;
        for p in list.iter_mut() {
            let c = assign(agent, p.block, &p.event, &mut slots)?;
            // aqlprofile marks SPI "special" events internal while assigning
            // counters: they keep their output slots but are never reported.
            if c.spi_skip {
                p.internal = true;
            }
            counters_attr |= c.block.attr;
            counters.push(c);
        }
        // gfx10 always reads a GRBM counter first; when none was requested
        // aqlprofile appends GRBM event 0 to the hardware list (not reported).
        if agent.family() == Family::Gfx10 && counters_attr & attr::GRBM == 0 {
            let grbm = crate::block::block_by_name(target, "GRBM")?;
            let e = PmcEvent { block_enum: grbm.block_enum, block_index: 0, event_id: 0, flags: 0 };
            let c = assign(agent, grbm, &e, &mut slots)?;
            counters_attr |= c.block.attr;
            counters.push(c);
        }
        // An empty request fails in aqlprofile because its read stream then
        // writes no data; on gfx10 the appended GRBM counter above is read, so
        // an empty request builds packets for that counter alone.
        if counters.is_empty() {
            return Err(Error::NoEvents);
        }
        Ok(PmcPlan { agent: *agent, events: list, counters, counters_attr })
    }

    /// The agent.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// Events in output-buffer order (internal twins included).
    pub fn events(&self) -> &[PlannedEvent] {
        &self.events
    }

    /// Output buffer size in bytes: 8 spare bytes plus every event's samples.
    pub fn output_buffer_size(&self) -> u64 {
        OUTPUT_SPARE_BYTES + self.events.iter().map(|p| p.block.bytes_per_event(&self.agent)).sum::<u64>()
    }

    /// Reported samples in the order aqlprofile's `iterate_data` yields them.
    pub fn samples(&self) -> Vec<SampleSlot> {
        let a = &self.agent;
        let mut out = Vec::new();
        let mut offset = 0u64;
        for xcc in 0..a.xcc_num {
            for (i, p) in self.events.iter().enumerate() {
                let per = u64::from(p.block.samples_per_xcc(a));
                let per_xcc = u64::from(p.block.reported_instances(a)) * per;
                for k in 0..per {
                    if !p.internal {
                        out.push(SampleSlot {
                            event_index: i,
                            block_enum: p.event.block_enum,
                            block_index: p.event.block_index,
                            event_id: p.event.event_id,
                            sample_id: per_xcc * u64::from(xcc) + u64::from(p.event.block_index) * per + k,
                            xcc,
                            offset,
                        });
                    }
                    offset += 8;
                }
            }
        }
        out
    }

    /// Register row of a counter: explicitly indexed blocks have one row set
    /// per instance; MI300 AID blocks fold instances back onto one AID's rows.
    fn row(&self, c: &HwCounter) -> CounterRegs {
        let b = c.block;
        let mut index = c.block_index;
        if b.has(attr::AID) && self.agent.multi_xcc() {
            index %= (b.instances / AID_COUNT).max(1);
        }
        b.regs_for(index, c.slot).unwrap_or(ZERO_REGS)
    }

    /// AID a counter instance lives on (always 0 on single-XCC parts).
    fn target_aid(&self, c: &HwCounter) -> u32 {
        let aids = if self.agent.multi_xcc() { AID_COUNT } else { 1 };
        c.block_index / (c.block.instances / aids).max(1)
    }

    /// Address of `reg` on AID `aid` as seen through SMN by the master XCC.
    fn smn(&self, reg: u32, aid: u32) -> u64 {
        let mut a = u64::from(reg);
        if self.agent.multi_xcc() {
            a |= 1 << SMN_USR_BIT | u64::from(aid) << SMN_AID_BIT;
        }
        a
    }

    fn stream(&self) -> Pm4Stream {
        Pm4Stream::new(self.agent.family(), !self.agent.multi_xcc())
    }

    fn set_perfmon_cntl(&self, s: &mut Pm4Stream, value: u32) {
        if self.counters_attr & attr::CPMON != 0 {
            s.set_uconfig(CP_PERFMON_CNTL, value);
        }
    }

    /// The start stream.
    pub fn start_stream(&self) -> Vec<u32> {
        let fam = self.agent.family();
        let mut s = self.stream();
        s.wait_idle();
        s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        if fam == Family::Gfx9 {
            s.set_uconfig(RLC_PERFMON_CLK_CNTL_GFX9, 1);
        }
        self.set_perfmon_cntl(&mut s, 0);
        if self.counters_attr & attr::TC != 0 {
            let v = match fam {
                Family::Gfx9 => 0xFFFF_007F,
                Family::Gfx10 => 0x7F,
                Family::Gfx11 | Family::Gfx12 => 0x55,
            };
            s.set_uconfig(SQ_PERFCOUNTER_CTRL, v);
        }
        if matches!(fam, Family::Gfx11 | Family::Gfx12) && self.counters_attr & (attr::TC | attr::SQ) != 0 {
            s.set_uconfig(SQ_PERFCOUNTER_CTRL2, 0x1_FFFF);
        }
        // GUS (gfx10/11) gets no RSLT_CNTL clear/enable and no second CFG
        // write: aqlprofile guards those packets with its gfx10/11 primitives
        // headers' include guards, but its PMC builder is included before
        // those headers, so the GUS-specific packets are compiled out. The
        // GUS CFG is programmed only by the generic select write below.
        let multi = self.agent.multi_xcc();
        let mut rpbs: BTreeMap<u32, u64> = BTreeMap::new();
        let mut atcs: BTreeMap<u32, u64> = BTreeMap::new();
        for c in &self.counters {
            if c.spi_skip {
                continue;
            }
            let b = c.block;
            let regs = self.row(c);
            // Quirk 13: WGP-scoped gfx12 blocks (SQ, TA, TCP, TD) program
            // their selects in broadcast even for block_index 1.
            let idx = if b.instances > 1 && !b.has(attr::WGP) { grbm_inst(fam, c.block_index) } else { GRBM_BROADCAST };
            s.set_uconfig(GRBM_GFX_INDEX, idx);
            if b.has(attr::MC) {
                s.write_pconfig(u64::from(regs.control), MC_CLEAR_ALL);
            }
            if b.has(attr::CLEAN) {
                for r in b.regs.iter().take(b.counters as usize) {
                    s.write_config(r.lo, 0);
                    s.write_config(r.hi, 0);
                }
            }
            if !b.has(attr::RPB | attr::ATC) {
                s.write_config(regs.select, b.select_value(c.select_event));
            }
            if b.has(attr::AID) {
                let aid = self.target_aid(c);
                let (select, control) = (self.smn(regs.select, aid), self.smn(regs.control, aid));
                s.predicated(multi, 0, |s| {
                    if b.has(attr::RPB | attr::ATC) {
                        let map = if b.has(attr::RPB) { &mut rpbs } else { &mut atcs };
                        map.entry(c.block_index).or_insert(control);
                        s.write_pconfig(select, b.select_value(c.select_event));
                    }
                });
            }
            if b.has(attr::MC) {
                s.write_pconfig(u64::from(regs.control), c.slot);
                s.write_pconfig(u64::from(regs.control), MC_ENABLE_ANY);
            }
            if b.has(attr::SQ) {
                if fam == Family::Gfx9 {
                    s.set_uconfig(SQ_PERFCOUNTER_MASK, 0xFFFF_FFFF);
                }
                let ctrl = match fam {
                    // PS, VS, GS, HS, CS enables; gfx9 headers lack VMID_MASK so
                    // aqlprofile ORs 0xFFFF0000 in.
                    Family::Gfx9 => 0xFFFF_0057,
                    Family::Gfx10 => 0x57,
                    Family::Gfx11 | Family::Gfx12 => 0x55,
                };
                s.set_uconfig(regs.control, ctrl);
            }
        }
        // RPB, then ATC instances: clear and enable each once.
        for map in [&rpbs, &atcs] {
            if !map.is_empty() {
                s.predicated(multi, 0, |s| {
                    for &control in map.values() {
                        s.write_pconfig(control, MC_CLEAR_ALL);
                        s.write_pconfig(control, MC_ENABLE_ANY);
                    }
                });
            }
        }
        s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        s.set_sh(COMPUTE_PERFCOUNT_ENABLE, 1);
        self.set_perfmon_cntl(&mut s, 0);
        self.set_perfmon_cntl(&mut s, 1);
        s.wait_idle();
        s.into_dwords()
    }

    /// The stop stream.
    pub fn stop_stream(&self) -> Vec<u32> {
        let fam = self.agent.family();
        let mut s = self.stream();
        s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
        if self.counters_attr & attr::AID != 0 {
            // aqlprofile emits the AID stop loop twice; reproduced on purpose.
            for _ in 0..2 {
                for c in self.counters.iter().filter(|c| c.block.has(attr::AID)) {
                    let control = self.smn(self.row(c).control, self.target_aid(c));
                    s.predicated(self.agent.multi_xcc(), 0, |s| {
                        if c.block.has(attr::RPB | attr::ATC) {
                            s.write_pconfig(control, 0);
                        }
                    });
                }
            }
        }
        self.set_perfmon_cntl(&mut s, if fam == Family::Gfx12 { 0x402 } else { 2 });
        if fam == Family::Gfx9 {
            s.set_uconfig(RLC_PERFMON_CLK_CNTL_GFX9, 0);
        }
        s.wait_idle();
        s.into_dwords()
    }

    /// The read stream for an output buffer at `output_addr`, and the number
    /// of bytes it writes.
    pub fn read_stream(&self, output_addr: u64) -> Result<(Vec<u32>, u64)> {
        check_align("output buffer", output_addr, 8)?;
        let a = &self.agent;
        let fam = a.family();
        let mut s = self.stream();
        let mut dw: u64 = 0; // aqlprofile's read_counter, in dwords
        self.set_perfmon_cntl(&mut s, 0x401);
        if self.counters_attr & attr::AID != 0 {
            // AID-attached (RPB/ATC) counters are read once, through SMN, first.
            for c in self.counters.iter().filter(|c| c.block.has(attr::AID)) {
                let r = self.row(c);
                let aid = self.target_aid(c);
                let out = dst(output_addr, dw)?;
                s.predicated(a.multi_xcc(), 0, |s| {
                    if self.counters_attr & (attr::RPB | attr::ATC) != 0 {
                        s.write_pconfig(self.smn(r.control, aid), c.slot);
                    }
                    s.copy_counter(self.smn(r.lo, aid), self.smn(r.hi, aid), out, 3);
                });
                dw += 2;
            }
        }
        let se_per_xcc = a.se_per_xcc();
        let wgp_per_sa = a.wgp_per_sa();
        for xcc in 0..a.xcc_num {
            let pred_at = s.len();
            if a.multi_xcc() {
                s.pred_exec(xcc, 0);
            }
            let body_start = s.len();
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            if fam == Family::Gfx10 {
                // Quirk 2: gfx10 copies the GRBM counter to offset 0 before the
                // wait-idle; the first counter's first sample overwrites it.
                if let Some(c) = self.counters.iter().find(|c| c.block.has(attr::GRBM)) {
                    let r = self.row(c);
                    s.copy_counter(u64::from(r.lo), u64::from(r.hi), output_addr, 3);
                }
            }
            s.wait_idle();
            // No GUS RSLT_CNTL stop here either (compiled out in aqlprofile,
            // see start_stream).
            for c in &self.counters {
                let b = c.block;
                if b.has(attr::AID) {
                    continue;
                }
                if c.spi_skip {
                    dw += 2 * u64::from(se_per_xcc);
                    continue;
                }
                let r = self.row(c);
                let (lo, hi) = (u64::from(r.lo), u64::from(r.hi));
                s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
                if b.has(attr::MC) {
                    let idx = if b.instances > 1 { grbm_inst(fam, c.block_index) } else { GRBM_BROADCAST };
                    s.set_uconfig(GRBM_GFX_INDEX, idx);
                    s.write_pconfig(u64::from(r.control), c.slot);
                    s.copy_counter(lo, hi, dst(output_addr, dw)?, 3);
                    dw += 2;
                    continue;
                }
                let se_end = if b.has(attr::SE) { se_per_xcc } else { 1 };
                let sa_end = if b.has(attr::SA) { 2 } else { 1 };
                let multi = b.instances > 1;
                for se in 0..se_end {
                    for sa in 0..sa_end {
                        let idx = if multi && b.has(attr::SA) {
                            grbm_inst_se_sa(fam, c.block_index, se, sa)
                        } else if multi && b.has(attr::SE) {
                            grbm_inst_se(fam, c.block_index, se)
                        } else if multi {
                            grbm_inst(fam, c.block_index)
                        } else if b.has(attr::SE) {
                            grbm_se(fam, se)
                        } else {
                            GRBM_BROADCAST
                        };
                        if fam == Family::Gfx11 && b.has(attr::SQ) {
                            // Quirk 6: gfx11 SQ counters are 32-bit; only LO is read.
                            for w in 0..wgp_per_sa {
                                s.set_uconfig(GRBM_GFX_INDEX, grbm_se_sa_wgp(fam, se, sa, w));
                                s.copy_counter(lo, hi, dst(output_addr, dw)?, 1);
                                dw += 2;
                            }
                        } else if fam == Family::Gfx12 && b.has(attr::WGP) {
                            for w in 0..wgp_per_sa {
                                let idx = if multi {
                                    grbm_inst_se_sa_wgp(fam, c.block_index, se, sa, w)
                                } else {
                                    grbm_se_sa_wgp(fam, se, sa, w)
                                };
                                s.set_uconfig(GRBM_GFX_INDEX, idx);
                                let mask = if r.hi != 0 { 3 } else { 1 };
                                s.copy_counter(lo, hi, dst(output_addr, dw)?, mask);
                                dw += 2;
                            }
                        } else {
                            s.set_uconfig(GRBM_GFX_INDEX, idx);
                            s.copy_counter(lo, hi, dst(output_addr, dw)?, 3);
                            dw += 2;
                        }
                    }
                }
            }
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            if a.multi_xcc() {
                let count = (s.len() - body_start) as u32;
                s.patch(pred_at + 1, pred_exec_word(xcc, count));
            }
        }
        let bytes = dw * 4;
        s.acquire_mem(output_addr, bytes);
        Ok((s.into_dwords(), bytes))
    }

    /// Builds the three streams for an output buffer at `output_addr`.
    pub fn build_streams(&self, output_addr: u64) -> Result<PmcStreams> {
        let (read, written) = self.read_stream(output_addr)?;
        let size = self.output_buffer_size();
        if written > size {
            return Err(Error::BufferTooSmall { what: "output buffer", needed: written, actual: size });
        }
        Ok(PmcStreams {
            family: self.agent.family(),
            output_addr,
            output_size: size,
            read,
            start: self.start_stream(),
            stop: self.stop_stream(),
        })
    }

    /// Allocates the output and command buffers through `alloc` (in that
    /// order, as aqlprofile does) and builds the three AQL packets.
    pub fn build(&self, alloc: &mut dyn Allocator) -> Result<PmcPackets> {
        let out = alloc.allocate(self.output_buffer_size(), BufferRole::PmcOutput)?;
        let streams = self.build_streams(out)?;
        let cmd = alloc.allocate(streams.command_buffer_size() as u64, BufferRole::Command)?;
        streams.finish(cmd)
    }
}

/// MC/GUS RSLT_CNTL CLEAR_ALL.
const MC_CLEAR_ALL: u32 = 0x0200_0000;
/// MC/GUS RSLT_CNTL ENABLE_ANY.
const MC_ENABLE_ANY: u32 = 0x0100_0000;

const ZERO_REGS: CounterRegs = CounterRegs { select: 0, control: 0, lo: 0, hi: 0 };

/// AIDs on a multi-XCC (MI300-class) part.
const AID_COUNT: u32 = 4;
/// SMN address bits aqlprofile sets for AID registers (`UMC_USR_BIT`, `UMC_AID_BIT`).
const SMN_USR_BIT: u32 = 32;
const SMN_AID_BIT: u32 = 30;

fn dst(base: u64, dw: u64) -> Result<u64> {
    base.checked_add(dw * 4).ok_or(Error::AddressOverflow { what: "output buffer" })
}

pub(crate) fn check_align(what: &'static str, addr: u64, align: u64) -> Result<()> {
    if !addr.is_multiple_of(align) {
        return Err(Error::Misaligned { what, addr, align });
    }
    Ok(())
}

/// aqlprofile's `aqlprofile_validate_pmc_event`: the block exists on the
/// target and `block_index` is below its instance count. Like aqlprofile, the
/// event id is not range-checked (compare with [`BlockInfo::event_id_max`]).
pub fn validate_event(agent: &Agent, e: &PmcEvent) -> Result<&'static BlockInfo> {
    let block = block_by_enum(agent.target, e.block_enum)?;
    if e.block_index >= block.instances {
        return Err(Error::InstanceOutOfRange {
            block: block.name,
            index: e.block_index,
            instances: block.instances,
            target: agent.target.name(),
        });
    }
    Ok(block)
}

fn assign(
    agent: &Agent,
    block: &'static BlockInfo,
    e: &PmcEvent,
    slots: &mut BTreeMap<(u32, u32), u32>,
) -> Result<HwCounter> {
    let target = agent.target;
    // Quirk 14: slots are counted per internal block id, so gfx9 SQ_CS (an
    // alias of SQ) shares SQ's counters.
    let slot = slots.entry((block.internal_id, e.block_index)).or_insert(0);
    if block.has(attr::SPI) && e.event_id >= SPI_SPECIAL_EVENT {
        return Ok(HwCounter {
            block,
            block_index: e.block_index,
            slot: *slot,
            select_event: e.event_id,
            spi_skip: true,
        });
    }
    if *slot >= block.counters {
        return Err(Error::TooManyCounters {
            block: block.name,
            index: e.block_index,
            counters: block.counters,
            target: target.name(),
        });
    }
    let mut select_event = e.event_id;
    if e.flags != 0 {
        // Only the SQ block (enum 6) accepts any flags. There, only the 3-bit
        // `accum` field values LO_RES and HI_RES swap in the accumulation id
        // (and fail where the target has none, gfx12); any other non-zero
        // flags keep the event id, on every target (aqlprofile's
        // HandleSQFlagsBlock compares `sq_flags.accum` with 1 and 2 only).
        let unsupported =
            || Error::AccumulationUnsupported { block: block.name, flags: e.flags, target: target.name() };
        if block.block_enum != 6 {
            return Err(unsupported());
        }
        match e.flags & ACCUM_FIELD_MASK {
            ACCUM_LO_RES => select_event = target.sq_accumulation_ids().ok_or_else(unsupported)?.0,
            ACCUM_HI_RES => select_event = target.sq_accumulation_ids().ok_or_else(unsupported)?.1,
            _ => {}
        }
    }
    let c = HwCounter { block, block_index: e.block_index, slot: *slot, select_event, spi_skip: false };
    *slot += 1;
    Ok(c)
}

/// The three PMC streams before they are placed in a command buffer.
#[derive(Debug, Clone)]
pub struct PmcStreams {
    family: Family,
    /// Output buffer address the read stream writes to.
    pub output_addr: u64,
    /// Output buffer size in bytes.
    pub output_size: u64,
    /// Read stream.
    pub read: Vec<u32>,
    /// Start stream.
    pub start: Vec<u32>,
    /// Stop stream.
    pub stop: Vec<u32>,
}

impl PmcStreams {
    /// Command buffer bytes: each stream rounded up to 256 bytes.
    pub fn command_buffer_size(&self) -> usize {
        align256(self.read.len() * 4) + align256(self.start.len() * 4) + align256(self.stop.len() * 4)
    }

    /// Places the streams in a command buffer at `command_addr` (read first,
    /// then start, then stop, each on a 256-byte boundary) and builds the AQL packets.
    pub fn finish(self, command_addr: u64) -> Result<PmcPackets> {
        check_align("command buffer", command_addr, 256)?;
        let size = self.command_buffer_size();
        let read_at = command_addr;
        let start_at = read_at + align256(self.read.len() * 4) as u64;
        let stop_at = start_at + align256(self.start.len() * 4) as u64;
        command_addr.checked_add(size as u64).ok_or(Error::AddressOverflow { what: "command buffer" })?;
        Ok(PmcPackets {
            output_addr: self.output_addr,
            output_size: self.output_size,
            command_addr,
            command_size: size as u64,
            read: Pm4Packet::new(self.family, read_at, self.read)?,
            start: Pm4Packet::new(self.family, start_at, self.start)?,
            stop: Pm4Packet::new(self.family, stop_at, self.stop)?,
        })
    }
}

/// Everything a PMC session needs on the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PmcPackets {
    /// Output buffer address.
    pub output_addr: u64,
    /// Output buffer size in bytes.
    pub output_size: u64,
    /// Command buffer address.
    pub command_addr: u64,
    /// Command buffer size in bytes.
    pub command_size: u64,
    /// Start packet (submit before the dispatch).
    pub start: Pm4Packet,
    /// Stop packet (after the dispatch).
    pub stop: Pm4Packet,
    /// Read packet (after stop; fills the output buffer).
    pub read: Pm4Packet,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    fn ev(block_enum: u32, block_index: u32, event_id: u32, flags: u32) -> PmcEvent {
        PmcEvent { block_enum, block_index, event_id, flags }
    }

    /// (absolute register, value) of every single-register SET_UCONFIG_REG
    /// packet in a PM4 stream (aqlprofile writes config registers this way).
    fn uconfig_writes(dw: &[u32]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < dw.len() {
            let h = dw[i];
            let n = ((h >> 16) & 0x3FFF) as usize + 2;
            if h >> 30 == 3 && (h >> 8) & 0xFF == 0x79 && n == 3 {
                out.push((dw[i + 1] + 0xC000, dw[i + 2]));
            }
            i += if h >> 30 == 3 { n } else { 1 };
        }
        out
    }

    #[test]
    fn gus_is_programmed_by_its_select_write_only() {
        // Rule: aqlprofile's GUS-specific packets (RSLT_CNTL clear + enable in
        // start, a second CFG write, RSLT_CNTL stop in read) sit behind
        // `#if defined(_GFX10_PRIMITIVES_H_) || defined(_GFX11_PRIMITIVES_H_)`
        // in a header included before those primitives, so they never exist.
        for t in [Target::from_name("gfx1030").unwrap(), Target::from_name("gfx1100").unwrap()] {
            let agent = Agent::reference(t);
            // GUS (enum 31) event 7 in slot 0: CFG0 (0xDE03) = ENABLE (bit 28) | 7.
            let plan = PmcPlan::new(&agent, &[ev(31, 0, 7, 0)]).unwrap();
            let start = uconfig_writes(&plan.start_stream());
            let cfg: Vec<_> = start.iter().filter(|w| w.0 == 0xDE03).collect();
            assert_eq!(cfg, vec![&(0xDE03, 0x1000_0007)], "{t:?}: one CFG write");
            let (read, _) = plan.read_stream(0x1000).unwrap();
            for (what, stream) in
                [("start", start), ("stop", uconfig_writes(&plan.stop_stream())), ("read", uconfig_writes(&read))]
            {
                assert!(stream.iter().all(|w| w.0 != GUS_PERFCOUNTER_RSLT_CNTL), "{t:?}: RSLT_CNTL written in {what}");
            }
        }
    }

    #[test]
    fn accumulation_inserts_internal_twins_in_sorted_order() {
        let agent = Agent::reference(Target::from_name("gfx90a").unwrap());
        // [SQ_LEVEL_WAVES + HI_RES, SQ_WAVES] -> SQ_WAVES, LEVEL (internal), LEVEL (accum).
        let plan = PmcPlan::new(&agent, &[ev(6, 0, 5, ACCUM_HI_RES), ev(6, 0, 4, 0)]).unwrap();
        let order: Vec<_> = plan.events().iter().map(|p| (p.event.event_id, p.event.flags, p.internal)).collect();
        assert_eq!(order, vec![(4, 0, false), (5, 0, true), (5, 2, false)]);
        // The accumulating event's select carries gfx90a's HI_RES id 185.
        assert_eq!(plan.counters[2].select_event, 185);
        // Two flagged copies without a plain twin each get an internal copy (aqlprofile does this).
        let plan = PmcPlan::new(&agent, &[ev(6, 0, 5, 1), ev(6, 0, 5, 2)]).unwrap();
        assert_eq!(plan.events().iter().filter(|p| p.internal).count(), 2);
    }

    #[test]
    fn sq_flags_other_than_lo_or_hi_res_keep_the_event_id() {
        // Rule: on SQ only accum (flags & 7) == 1 or 2 selects the
        // accumulation id; other non-zero flags build the plain event (with
        // the internal twin every flagged event gets), even on gfx12 where
        // LO/HI_RES fail. Non-SQ blocks reject any non-zero flags.
        for (t, flags) in [
            (Target::from_name("gfx1201").unwrap(), 3),
            (Target::from_name("gfx90a").unwrap(), 5),
            (Target::from_name("gfx90a").unwrap(), 6),
            (Target::from_name("gfx1100").unwrap(), 8),
        ] {
            let agent = Agent::reference(t);
            let plan = PmcPlan::new(&agent, &[ev(6, 0, 20, flags)]).unwrap();
            let selects: Vec<_> = plan.counters.iter().map(|c| c.select_event).collect();
            assert_eq!(selects, vec![20, 20], "{t:?} flags {flags}: internal twin + flagged event, both id 20");
        }
        // gfx90a accum 2 (HI_RES) still maps to 185; gfx12 LO/HI_RES fail.
        let plan = PmcPlan::new(&Agent::reference(Target::from_name("gfx90a").unwrap()), &[ev(6, 0, 20, 2)]).unwrap();
        assert_eq!(plan.counters[1].select_event, 185);
        for f in [1, 2, 9] {
            assert!(
                PmcPlan::new(&Agent::reference(Target::from_name("gfx1201").unwrap()), &[ev(6, 0, 20, f)]).is_err(),
                "gfx1201 flags {f}"
            );
        }
        // GRBM (enum 3) with flags 3: invalid everywhere.
        assert!(PmcPlan::new(&Agent::reference(Target::from_name("gfx90a").unwrap()), &[ev(3, 0, 2, 3)]).is_err());
    }

    #[test]
    fn empty_request_fails_except_on_gfx10_where_grbm_is_appended() {
        // Rule: aqlprofile fails when the read stream writes no data; gfx10's
        // implicit GRBM counter (event 0) gives an empty request data to read.
        for t in [
            Target::from_name("gfx908").unwrap(),
            Target::from_name("gfx942").unwrap(),
            Target::from_name("gfx1100").unwrap(),
            Target::from_name("gfx1201").unwrap(),
        ] {
            assert_eq!(PmcPlan::new(&Agent::reference(t), &[]).unwrap_err(), Error::NoEvents, "{t:?}");
        }
        let plan = PmcPlan::new(&Agent::reference(Target::from_name("gfx1030").unwrap()), &[]).unwrap();
        assert!(plan.events().is_empty() && plan.samples().is_empty());
        assert_eq!(plan.counters.len(), 1);
        assert_eq!((plan.counters[0].block.name, plan.counters[0].select_event), ("GRBM", 0));
        // Only the 8 spare bytes, which the gfx10 GRBM copy fills.
        assert_eq!(plan.output_buffer_size(), 8);
        let (_, written) = plan.read_stream(0x1000).unwrap();
        assert_eq!(written, 8);
    }

    #[test]
    fn spi_special_events_take_slots_but_are_not_reported() {
        let agent = Agent::reference(Target::from_name("gfx908").unwrap());
        let plan = PmcPlan::new(&agent, &[ev(5, 0, SPI_SPECIAL_EVENT, 0), ev(5, 0, 52, 0)]).unwrap();
        assert!(plan.events()[0].internal);
        // Both take 8 SE samples; only the second is reported, at offset 64.
        assert_eq!(plan.output_buffer_size(), 8 + 2 * 64);
        let s = plan.samples();
        assert_eq!(s.len(), 8);
        assert_eq!((s[0].offset, s[0].event_id), (64, 52));
        // The real SPI event gets hardware counter 0 (special ids take none).
        assert_eq!(plan.counters[1].slot, 0);
    }

    #[test]
    fn gfx10_appends_grbm_counter_and_reads_it_last() {
        let agent = Agent::reference(Target::from_name("gfx1030").unwrap());
        let plan = PmcPlan::new(&agent, &[ev(6, 0, 4, 0)]).unwrap();
        assert_eq!(plan.counters.len(), 2);
        assert_eq!(plan.counters[1].block.name, "GRBM");
        // 4 SE samples + 8 spare bytes; the read stream fills all of it.
        let (_, written) = plan.read_stream(0x1000).unwrap();
        assert_eq!(written, plan.output_buffer_size());
    }

    #[test]
    fn mi300_rpb_is_read_once_through_smn_under_pred_exec() {
        let agent = Agent::reference(Target::from_name("gfx942").unwrap());
        let plan = PmcPlan::new(&agent, &[ev(24, 2, 7, 0)]).unwrap();
        let (read, written) = plan.read_stream(0x10_0000_0000).unwrap();
        // CP_PERFMON_CNTL is not written (RPB is not a CPMON block); first packet
        // is PRED_EXEC on XCC 0 covering one control write and two copies.
        assert_eq!(read[0] >> 8 & 0xFF, 0x23);
        assert_eq!(read[1], 1 << 24 | 18);
        // Control write to AID 2 through SMN: bit 32 | aid << 30.
        assert_eq!((read[2], read[3], read[6], read[7]), (0xC004_4000, 0x5, 0xD07 | 2 << 30, 1));
        assert_eq!(read[4], 0, "counter slot 0 selected");
        // The RPB sample is written once; the XCC loops read nothing else, yet
        // the output buffer reserves one sample per XCC (iterate walks them).
        assert_eq!(written, 8);
        assert_eq!(plan.output_buffer_size(), 8 + 8 * 8);
        let stop = plan.stop_stream();
        // BCAST, then the AID stop write twice, each under its own PRED_EXEC.
        let preds = stop.iter().filter(|&&w| w == 0xC000_2300).count();
        assert_eq!(preds, 2);
    }
}
