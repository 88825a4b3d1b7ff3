//! Result parsing: a filled PMC output buffer becomes per-counter samples with
//! their dimension coordinates, in the order the read stream wrote them; an
//! SQTT control buffer becomes per-SE data size, dropped-byte count and status.
//!
//! Inputs are plain byte slices copied back from the device; nothing here
//! touches device memory. Short or malformed buffers return typed errors.

use crate::att::{AttPlan, CONTROL_RECORD_BYTES};
use crate::block::{BlockGeometry, Dimensions};
use crate::error::{Error, Result};
use crate::pmc::PmcPlan;
use crate::target::Family;

/// One reported 64-bit counter sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PmcSample {
    /// Index into [`PmcPlan::events`] (the planner's order).
    pub event_index: usize,
    /// Block enum.
    pub block_enum: u32,
    /// Block instance requested.
    pub block_index: u32,
    /// Event id requested.
    pub event_id: u32,
    /// aqlprofile's reported sample id.
    pub sample_id: u64,
    /// Counter value: LO | HI << 32, or LO alone for 32-bit counters whose
    /// HI dword the read stream never writes (gfx11 SQ; gfx12 WGP blocks
    /// without a HI register, which aqlprofile zeroes from the host).
    pub value: u64,
    /// Dimension coordinates, aligned with `dimensions.dims`.
    pub coordinates: Vec<u32>,
    /// Dimension names and extents for this block.
    pub dimensions: Dimensions,
}

impl PmcSample {
    /// Coordinate of dimension `name` (`"XCD"`, `"SE"`, `"SA"`, `"WGP"`, `"INSTANCE"`).
    pub fn coordinate(&self, name: &str) -> Option<u32> {
        let i = self.dimensions.dims.iter().position(|(n, _)| *n == name)?;
        self.coordinates.get(i).copied()
    }
}

/// Parses a PMC output buffer filled by the read packet of `plan`.
pub fn parse_pmc(plan: &PmcPlan, output: &[u8]) -> Result<Vec<PmcSample>> {
    let needed = plan.output_buffer_size();
    if output.is_empty() {
        return Err(Error::ZeroSize { what: "output buffer" });
    }
    if (output.len() as u64) < needed {
        return Err(Error::BufferTooSmall { what: "output buffer", needed, actual: output.len() as u64 });
    }
    let agent = plan.agent();
    let mut out = Vec::new();
    for slot in plan.samples() {
        let at = slot.offset as usize;
        let bytes = output.get(at..at + 8).ok_or(Error::BufferTooSmall {
            what: "output buffer",
            needed: slot.offset + 8,
            actual: output.len() as u64,
        })?;
        let mut raw = [0u8; 8];
        raw.copy_from_slice(bytes);
        let block = plan.events()[slot.event_index].block;
        let lo_only = block.counter_registers().first().is_some_and(|r| r.hi == 0)
            && match agent.family() {
                Family::Gfx11 => block.has(crate::block::attr::SQ),
                Family::Gfx12 => block.has(crate::block::attr::WGP),
                _ => false,
            };
        if lo_only {
            raw[4..].fill(0);
        }
        let dimensions = block.dimensions(agent);
        let coordinates = dimensions.coordinates(slot.sample_id).unwrap_or_else(|| vec![0; dimensions.dims.len()]);
        out.push(PmcSample {
            event_index: slot.event_index,
            block_enum: slot.block_enum,
            block_index: slot.block_index,
            event_id: slot.event_id,
            sample_id: slot.sample_id,
            value: u64::from_le_bytes(raw),
            coordinates,
            dimensions,
        });
    }
    Ok(out)
}

/// Sums the samples of each reported event (in planner order), as a
/// `reduce(sum)` over all dimensions would.
pub fn totals(plan: &PmcPlan, samples: &[PmcSample]) -> Vec<(usize, u64)> {
    let mut sums: Vec<(usize, u64)> = Vec::new();
    for (i, e) in plan.events().iter().enumerate() {
        if !e.internal {
            let s = samples.iter().filter(|s| s.event_index == i).fold(0u64, |a, s| a.wrapping_add(s.value));
            sums.push((i, s));
        }
    }
    sums
}

/// One SE's thread-trace outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SqttSe {
    /// Shader engine (device-wide index).
    pub se: u32,
    /// Traced (SE mask bit set).
    pub enabled: bool,
    /// Raw SQ_THREAD_TRACE_STATUS.
    pub status: u32,
    /// Raw SQ_THREAD_TRACE_CNTR / DROPPED_CNTR.
    pub dropped: u32,
    /// Raw SQ_THREAD_TRACE_WPTR.
    pub wptr: u32,
    /// Trace data bytes written (clamped to `capacity_bytes`).
    pub data_bytes: u64,
    /// Bytes of trace buffer given to this SE.
    pub capacity_bytes: u64,
    /// Device address of this SE's data.
    pub data_addr: u64,
    /// The write pointer ran past the slice (data truncated).
    pub overflow: bool,
    /// The UTC (address translation) error bit is set.
    pub utc_error: bool,
    /// The buffer-full bit is set (gfx9 only; gfx10+ do not report it).
    pub full: bool,
}

/// The parsed SQTT control buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqttResult {
    /// One entry per SE of the agent.
    pub ses: Vec<SqttSe>,
    /// gfx9 real-time timestamps per XCC `(start, end)` GPU clocks.
    pub gpu_clocks: Vec<(u64, u64)>,
}

fn u32_at(buf: &[u8], at: usize) -> Result<u32> {
    let b = buf.get(at..at + 4).ok_or(Error::BufferTooSmall {
        what: "control buffer",
        needed: at as u64 + 4,
        actual: buf.len() as u64,
    })?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u64_at(buf: &[u8], at: usize) -> Result<u64> {
    Ok(u64::from(u32_at(buf, at)?) | u64::from(u32_at(buf, at + 4)?) << 32)
}

/// Parses the control buffer written by the stop packet of `plan`, with the
/// trace buffer at `trace_addr` (needed for gfx11 write pointers, which are
/// absolute).
pub fn parse_sqtt_control(plan: &AttPlan, trace_addr: u64, control: &[u8]) -> Result<SqttResult> {
    let agent = plan.agent();
    let needed = CONTROL_RECORD_BYTES * u64::from(agent.se_num);
    if control.is_empty() {
        return Err(Error::ZeroSize { what: "control buffer" });
    }
    if (control.len() as u64) < needed {
        return Err(Error::BufferTooSmall { what: "control buffer", needed, actual: control.len() as u64 });
    }
    let fam = agent.family();
    let (wptr_mask, utc_mask, full_mask) = match fam {
        Family::Gfx9 => (0x3FFF_FFFFu64, 0x1000_0000u32, 0x8000_0000u32),
        _ => (0x1FFF_FFFF, 0x0100_0000, 0),
    };
    let mut ses = Vec::with_capacity(agent.se_num as usize);
    for (se, (addr, capacity)) in plan.se_slices(trace_addr).into_iter().enumerate() {
        let rec = se * CONTROL_RECORD_BYTES as usize;
        let status = u32_at(control, rec)?;
        let dropped = u32_at(control, rec + 4)?;
        let wptr = u32_at(control, rec + 8)?;
        let mut bytes = (u64::from(wptr) & wptr_mask) * 32;
        if fam == Family::Gfx11 {
            // gfx11 reports an absolute write pointer.
            bytes = bytes.wrapping_sub(addr) & ((1 << 29) - 1);
        }
        let overflow = bytes >= capacity;
        ses.push(SqttSe {
            se: se as u32,
            enabled: plan.se_enabled(se as u32),
            status,
            dropped,
            wptr,
            data_bytes: bytes.min(capacity),
            capacity_bytes: capacity,
            data_addr: addr,
            overflow,
            utc_error: status & utc_mask != 0,
            full: status & full_mask != 0,
        });
    }
    let mut gpu_clocks = Vec::new();
    if fam == Family::Gfx9 {
        for xcc in 0..agent.xcc_num as usize {
            let rec = xcc * CONTROL_RECORD_BYTES as usize;
            gpu_clocks.push((u64_at(control, rec + 16)?, u64_at(control, rec + 24)?));
        }
    }
    Ok(SqttResult { ses, gpu_clocks })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::att::{param, AttParameter};
    use crate::pmc::PmcEvent;
    use crate::target::{Agent, Target};

    fn put(buf: &mut [u8], at: usize, v: u32) {
        buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    #[test]
    fn pmc_values_follow_write_order_gfx9_per_se() {
        // gfx908: GRBM_GUI_ACTIVE (1 sample) then SQ_WAVES (8 SEs), 8 spare bytes.
        let agent = Agent::reference(Target::from_name("gfx908").unwrap());
        let events = [
            PmcEvent { block_enum: 3, block_index: 0, event_id: 2, flags: 0 },
            PmcEvent { block_enum: 6, block_index: 0, event_id: 4, flags: 0 },
        ];
        let plan = PmcPlan::new(&agent, &events).unwrap();
        assert_eq!(plan.output_buffer_size(), 8 + 8 + 64);
        let mut buf = vec![0u8; 80];
        put(&mut buf, 0, 1000); // GRBM LO
        put(&mut buf, 4, 1); // GRBM HI -> 1000 + 2^32
        for se in 0..8 {
            put(&mut buf, 8 + se * 8, 10 + se as u32);
        }
        let s = parse_pmc(&plan, &buf).unwrap();
        assert_eq!(s.len(), 9);
        assert_eq!(s[0].value, 1000 + (1 << 32));
        assert_eq!(s[0].block_enum, 3);
        assert_eq!((s[3].value, s[3].coordinate("SE"), s[3].coordinate("INSTANCE")), (12, Some(2), Some(0)));
        assert_eq!(totals(&plan, &s), vec![(0, 1000 + (1 << 32)), (1, (10..18).sum())]);
    }

    #[test]
    fn pmc_gfx11_sq_is_per_wgp_and_multi_xcc_has_xcd() {
        let agent = Agent::reference(Target::from_name("gfx1100").unwrap());
        let plan = PmcPlan::new(&agent, &[PmcEvent { block_enum: 6, block_index: 0, event_id: 4, flags: 0 }]).unwrap();
        // 6 SE x 2 SA x 4 WGP = 48 samples.
        let mut buf = vec![0u8; plan.output_buffer_size() as usize];
        put(&mut buf, 47 * 8, 7);
        put(&mut buf, 47 * 8 + 4, 0xDEAD); // never written by the read stream
        let s = parse_pmc(&plan, &buf).unwrap();
        assert_eq!(s.len(), 48);
        assert_eq!(s[47].value, 7);
        assert_eq!(s[47].dimensions.dims, vec![("WGP", 4), ("SE", 6), ("SA", 2)]);

        let agent = Agent::reference(Target::from_name("gfx942").unwrap());
        let plan =
            PmcPlan::new(&agent, &[PmcEvent { block_enum: 12, block_index: 1, event_id: 17, flags: 0 }]).unwrap();
        let mut buf = vec![0u8; plan.output_buffer_size() as usize];
        put(&mut buf, 3 * 8, 99); // XCC 3
        let s = parse_pmc(&plan, &buf).unwrap();
        assert_eq!(s.len(), 8);
        assert_eq!((s[3].value, s[3].coordinate("XCD"), s[3].coordinate("INSTANCE")), (99, Some(3), Some(1)));
    }

    #[test]
    fn pmc_short_buffer_is_an_error() {
        let agent = Agent::reference(Target::from_name("gfx1201").unwrap());
        let plan = PmcPlan::new(&agent, &[PmcEvent { block_enum: 3, block_index: 0, event_id: 0, flags: 0 }]).unwrap();
        assert_eq!(parse_pmc(&plan, &[]), Err(Error::ZeroSize { what: "output buffer" }));
        assert_eq!(
            parse_pmc(&plan, &[0; 15]),
            Err(Error::BufferTooSmall { what: "output buffer", needed: 16, actual: 15 })
        );
    }

    #[test]
    fn sqtt_control_gfx9_sizes_status_and_clocks() {
        let agent = Agent::reference(Target::from_name("gfx908").unwrap());
        let params = [
            AttParameter { id: param::SE_MASK, value: 0b11 },
            AttParameter { id: param::ATT_BUFFER_SIZE, value: 32 << 20 },
        ];
        let plan = AttPlan::new(&agent, &params).unwrap();
        let mut ctl = vec![0u8; plan.control_buffer_size() as usize];
        put(&mut ctl, 0, 0x8000_0000); // SE0: full
        put(&mut ctl, 4, 3); // SE0 dropped
        put(&mut ctl, 8, 100); // SE0: 100 * 32 bytes
        put(&mut ctl, 32 + 8, 0x4000_0000 | 0x7FFFF); // SE1: mask drops bit 30; beyond capacity
        put(&mut ctl, 16, 5); // clock start (xcc 0)
        put(&mut ctl, 24, 9); // clock end
        let r = parse_sqtt_control(&plan, 0x10_0000_1000, &ctl).unwrap();
        assert_eq!(r.ses.len(), 8);
        let step = plan.base_step();
        assert_eq!(step, 0xFE_1000);
        assert_eq!((r.ses[0].data_bytes, r.ses[0].dropped, r.ses[0].full, r.ses[0].overflow), (3200, 3, true, false));
        assert_eq!((r.ses[1].data_bytes, r.ses[1].overflow, r.ses[1].data_addr), (step, true, 0x10_0000_1000 + step));
        assert!(!r.ses[2].enabled);
        assert_eq!(r.ses[2].capacity_bytes, 4096);
        assert_eq!(r.gpu_clocks, vec![(5, 9)]);
    }

    #[test]
    fn sqtt_control_gfx11_wptr_is_absolute() {
        let agent = Agent::reference(Target::from_name("gfx1100").unwrap());
        let plan = AttPlan::new(&agent, &[AttParameter { id: param::SE_MASK, value: 1 }]).unwrap();
        let trace = 0x10_0000_1000u64;
        let mut ctl = vec![0u8; plan.control_buffer_size() as usize];
        // WPTR counts 32-byte units from address 0: base + 64 bytes.
        put(&mut ctl, 8, ((trace + 64) / 32) as u32 & 0x1FFF_FFFF);
        put(&mut ctl, 0, 0x0100_0000);
        let r = parse_sqtt_control(&plan, trace, &ctl).unwrap();
        assert_eq!(r.ses[0].data_bytes, 64);
        assert!(r.ses[0].utc_error);
        assert!(r.gpu_clocks.is_empty());
        assert!(matches!(parse_sqtt_control(&plan, trace, &ctl[..100]), Err(Error::BufferTooSmall { .. })));
    }
}
