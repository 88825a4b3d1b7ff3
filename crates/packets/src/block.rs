//! Counter blocks per target: the public view the counter database and planner
//! use (instances, counters per instance, sampling dimensions), and the
//! attribute bits the builders dispatch on.

use crate::error::{Error, Result};
use crate::target::{Agent, Family, Target};

/// Block attribute bits, as in aqlprofile's `CounterBlockAttr`.
pub mod attr {
    /// Ordinary global block.
    pub const DEFAULT: u32 = 0x1;
    /// Sampled once per shader engine.
    pub const SE: u32 = 0x2;
    /// SQ block (SQ control/mask registers).
    pub const SQ: u32 = 0x4;
    /// Counters must be cleared before use (gfx9 SX).
    pub const CLEAN: u32 = 0x8;
    /// Memory-controller style block (RSLT_CNTL control register).
    pub const MC: u32 = 0x10;
    /// SDMA block.
    pub const SDMA: u32 = 0x100;
    /// Texture-cache block (enables SQ_PERFCOUNTER_CTRL).
    pub const TC: u32 = 0x400;
    /// Register table has one row set per instance.
    pub const EXPL_INST: u32 = 0x800;
    /// GUS block (gfx10/11).
    pub const GUS: u32 = 0x4000;
    /// GRBM block.
    pub const GRBM: u32 = 0x8000;
    /// UMC block (MI300).
    pub const UMC: u32 = 0x10000;
    /// Sampled per shader array.
    pub const SA: u32 = 0x20000;
    /// MI300 AID block (SMN-addressed).
    pub const AID: u32 = 0x40000;
    /// SPI block (special ids take no counter).
    pub const SPI: u32 = 0x80000;
    /// Sampled per WGP (gfx12).
    pub const WGP: u32 = 0x100000;
    /// RPB style block.
    pub const RPB: u32 = 0x200000;
    /// ATC style block.
    pub const ATC: u32 = 0x400000;
    /// Blocks that take part in CP_PERFMON_CNTL programming.
    pub const CPMON: u32 = DEFAULT | SE | SQ | CLEAN | MC;
}

/// Registers of one hardware counter slot (absolute dword addresses, 0 = none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterRegs {
    /// Select (or CFG) register.
    pub select: u32,
    /// Control register (SQ_PERFCOUNTER_CTRL, RSLT_CNTL, ...).
    pub control: u32,
    /// Counter value, low dword.
    pub lo: u32,
    /// Counter value, high dword (0 for 32-bit counters).
    pub hi: u32,
}

/// One counter block of one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInfo {
    /// aqlprofile block name, e.g. `"TCC"`.
    pub name: &'static str,
    /// aqlprofile block enum (`aqlprofile_block_name_t`).
    pub block_enum: u32,
    /// aqlprofile's internal block id (SQ and SQ_CS share one on gfx9).
    pub internal_id: u32,
    /// Maximum instances (`block_index` must be below this).
    pub instances: u32,
    /// Hardware counters per instance.
    pub counters: u32,
    /// Highest valid event id.
    pub event_id_max: u32,
    /// Attribute bits, see [`attr`].
    pub attr: u32,
    pub(crate) select_fixed: u32,
    pub(crate) select_mask: u32,
    pub(crate) regs: &'static [CounterRegs],
}

/// Sampling dimensions of a block's counter on one agent, in the order
/// aqlprofile reports them (`XCD`, `AID`, `WGP` or `INSTANCE`, `SE`, `SA`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dimensions {
    /// `(name, extent)` pairs, slowest-varying first.
    pub dims: Vec<(&'static str, u32)>,
}

impl BlockInfo {
    /// True when the block has attribute bit(s) `a`.
    pub fn has(&self, a: u32) -> bool {
        self.attr & a != 0
    }

    /// Register rows of the counter slots (one set per instance for
    /// explicitly indexed blocks).
    pub fn counter_registers(&self) -> &'static [CounterRegs] {
        self.regs
    }

    /// Select register value programmed for `event_id`.
    pub fn select_value(&self, event_id: u32) -> u32 {
        self.select_fixed | (event_id & self.select_mask)
    }

    /// Event id a select register value programs (the inverse of [`BlockInfo::select_value`]).
    pub fn select_event(&self, value: u32) -> u32 {
        value & self.select_mask
    }

    /// Registers of counter slot `slot` for instance `index`.
    pub(crate) fn regs_for(&self, index: u32, slot: u32) -> Option<CounterRegs> {
        let base = if self.has(attr::EXPL_INST) { index as usize * self.counters as usize } else { 0 };
        self.regs.get(base + slot as usize).copied()
    }

    /// 64-bit samples one event of this block produces per XCC
    /// (SE x SA x WGP loops of the read stream).
    pub fn samples_per_xcc(&self, agent: &Agent) -> u32 {
        let mut n = 1;
        if self.has(attr::SE) {
            n *= agent.se_per_xcc();
        }
        if self.has(attr::SA) {
            n *= 2;
        }
        if self.has(attr::WGP) {
            n *= agent.wgp_per_sa();
        }
        if self.has(attr::SQ) && agent.family() == Family::Gfx11 {
            n *= agent.wgp_per_sa();
        }
        n
    }

    /// Output-buffer bytes one event of this block needs (all XCCs).
    pub fn bytes_per_event(&self, agent: &Agent) -> u64 {
        u64::from(self.samples_per_xcc(agent)) * u64::from(agent.xcc_num) * 8
    }

    /// Instance count used to number samples (`sample_id`) and as the
    /// `INSTANCE` dimension: on gfx9 texture blocks sampled per SE it is
    /// `min(instances, ceil(cu_num / shader_arrays) + 1)`, else `instances`.
    pub fn reported_instances(&self, agent: &Agent) -> u32 {
        if self.has(attr::UMC) && agent.xcc_num > 1 {
            return self.instances / 4;
        }
        if agent.family() == Family::Gfx9 && self.has(attr::TC) && self.has(attr::SE) {
            let arrays = agent.shader_arrays_per_se * agent.se_num;
            let cu_per_array = agent.cu_num.div_ceil(arrays);
            return self.instances.min(cu_per_array + 1);
        }
        self.instances
    }

    /// Sampling dimensions as aqlprofile reports them for this block.
    pub fn dimensions(&self, agent: &Agent) -> Dimensions {
        let mut dims = Vec::new();
        let umc_multi = agent.xcc_num > 1 && self.has(attr::UMC);
        if agent.xcc_num > 1 && !umc_multi {
            dims.push(("XCD", agent.xcc_num));
        }
        if umc_multi {
            dims.push(("AID", 4));
        }
        let wgp = matches!(agent.family(), Family::Gfx11 | Family::Gfx12) && self.has(attr::SQ);
        if wgp {
            let arrays = agent.shader_arrays_per_se * agent.se_num;
            dims.push(("WGP", (agent.cu_num / 2).div_ceil(arrays)));
        } else {
            dims.push(("INSTANCE", self.reported_instances(agent)));
        }
        let xccs = if umc_multi { 1 } else { agent.xcc_num };
        if self.has(attr::SE) {
            dims.push(("SE", agent.se_num / xccs));
        }
        if self.has(attr::SA) {
            dims.push(("SA", agent.shader_arrays_per_se));
        }
        Dimensions { dims }
    }
}

impl Dimensions {
    /// Splits a reported `sample_id` into one coordinate per dimension
    /// (mixed radix, last dimension fastest); `None` if it is out of range.
    pub fn coordinates(&self, sample_id: u64) -> Option<Vec<u32>> {
        let mut rest = sample_id;
        let mut out = vec![0; self.dims.len()];
        for (i, &(_, extent)) in self.dims.iter().enumerate().rev() {
            let extent = u64::from(extent.max(1));
            out[i] = (rest % extent) as u32;
            rest /= extent;
        }
        (rest == 0).then_some(out)
    }
}

/// All blocks of `target`, in aqlprofile's table order.
pub fn blocks(target: Target) -> &'static [BlockInfo] {
    use crate::tables as t;
    match target {
        Target::Gfx908 => t::GFX908,
        Target::Gfx90a => t::GFX90A,
        Target::Gfx942 => t::GFX942,
        Target::Gfx950 => t::GFX950,
        Target::Gfx1030 => t::GFX1030,
        Target::Gfx1100 => t::GFX1100,
        Target::Gfx1201 => t::GFX1201,
    }
}

/// Looks a block up by its aqlprofile enum value.
pub fn block_by_enum(target: Target, block_enum: u32) -> Result<&'static BlockInfo> {
    blocks(target)
        .iter()
        .find(|b| b.block_enum == block_enum)
        .ok_or(Error::UnknownBlock { block: block_enum, target: target.name() })
}

/// Looks a block up by name (case-insensitive), e.g. `"GL2C"`.
pub fn block_by_name(target: Target, name: &str) -> Result<&'static BlockInfo> {
    blocks(target)
        .iter()
        .find(|b| b.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| Error::UnknownBlockName { name: name.to_string(), target: target.name() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_encodings() {
        let sq = block_by_name(Target::Gfx908, "SQ").unwrap();
        assert_eq!(sq.select_value(4), 0x0F0F_F004);
        let sx = block_by_name(Target::Gfx908, "SX").unwrap();
        assert_eq!(sx.select_value(17), 0, "gfx9 SX never programs the event");
        let gcea = block_by_name(Target::Gfx1030, "GCEA").unwrap();
        assert_eq!(gcea.select_value(1), 0x1000_0001);
        let grbm = block_by_name(Target::Gfx1100, "grbm").unwrap();
        assert_eq!(grbm.select_value(0x41), 0x1);
    }

    #[test]
    fn lookups_fail_with_typed_errors() {
        assert_eq!(block_by_enum(Target::Gfx1201, 2), Err(Error::UnknownBlock { block: 2, target: "gfx1201" }));
        assert!(matches!(block_by_name(Target::Gfx908, "GL2C"), Err(Error::UnknownBlockName { .. })));
    }

    #[test]
    fn reported_instances_and_dimensions() {
        let agent = Agent::reference(Target::Gfx942);
        let ta = block_by_name(Target::Gfx942, "TA").unwrap();
        // ceil(304 CU / 32 arrays) + 1 = 11 (< 16 table instances).
        assert_eq!(ta.reported_instances(&agent), 11);
        assert_eq!(ta.dimensions(&agent).dims, vec![("XCD", 8), ("INSTANCE", 11), ("SE", 4)]);
        assert_eq!(ta.dimensions(&agent).coordinates(52), Some(vec![1, 2, 0]));
        assert_eq!(ta.dimensions(&agent).coordinates(8 * 44), None);
    }
}
