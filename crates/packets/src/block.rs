//! Counter blocks per target: the public view the counter database and planner
//! use (instances, counters per instance, sampling dimensions), and the
//! attribute bits the builders dispatch on. The tables are the targets crate's.

pub use rocprof_targets::block::attr;
pub use rocprof_targets::{BlockInfo, CounterRegs};

use crate::error::{Error, Result};
use crate::target::{Agent, Family, Target};

/// Sampling dimensions of a block's counter on one agent, in the order
/// aqlprofile reports them (`XCD`, `AID`, `WGP` or `INSTANCE`, `SE`, `SA`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dimensions {
    /// `(name, extent)` pairs, slowest-varying first.
    pub dims: Vec<(&'static str, u32)>,
}

/// What a block's counters look like on one agent: samples, output size, instances and sampling
/// dimensions (they depend on the agent's geometry, so they live here rather than in the targets
/// crate's tables).
pub trait BlockGeometry {
    /// 64-bit samples one event of this block produces per XCC
    /// (SE x SA x WGP loops of the read stream).
    fn samples_per_xcc(&self, agent: &Agent) -> u32;
    /// Output-buffer bytes one event of this block needs (all XCCs).
    fn bytes_per_event(&self, agent: &Agent) -> u64;
    /// Instance count used to number samples (`sample_id`) and as the
    /// `INSTANCE` dimension: on gfx9 texture blocks sampled per SE it is
    /// `min(instances, ceil(cu_num / shader_arrays) + 1)`, else `instances`.
    fn reported_instances(&self, agent: &Agent) -> u32;
    /// Sampling dimensions as aqlprofile reports them for this block.
    fn dimensions(&self, agent: &Agent) -> Dimensions;
}

impl BlockGeometry for BlockInfo {
    /// 64-bit samples one event of this block produces per XCC
    /// (SE x SA x WGP loops of the read stream).
    fn samples_per_xcc(&self, agent: &Agent) -> u32 {
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
    fn bytes_per_event(&self, agent: &Agent) -> u64 {
        u64::from(self.samples_per_xcc(agent)) * u64::from(agent.xcc_num) * 8
    }

    /// Instance count used to number samples (`sample_id`) and as the
    /// `INSTANCE` dimension: on gfx9 texture blocks sampled per SE it is
    /// `min(instances, ceil(cu_num / shader_arrays) + 1)`, else `instances`.
    fn reported_instances(&self, agent: &Agent) -> u32 {
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
    fn dimensions(&self, agent: &Agent) -> Dimensions {
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
    target.info().blocks
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
        let sq = block_by_name(Target::from_name("gfx908").unwrap(), "SQ").unwrap();
        assert_eq!(sq.select_value(4), 0x0F0F_F004);
        let sx = block_by_name(Target::from_name("gfx908").unwrap(), "SX").unwrap();
        assert_eq!(sx.select_value(17), 0, "gfx9 SX never programs the event");
        let gcea = block_by_name(Target::from_name("gfx1030").unwrap(), "GCEA").unwrap();
        assert_eq!(gcea.select_value(1), 0x1000_0001);
        let grbm = block_by_name(Target::from_name("gfx1100").unwrap(), "grbm").unwrap();
        assert_eq!(grbm.select_value(0x41), 0x1);
    }

    #[test]
    fn lookups_fail_with_typed_errors() {
        assert_eq!(
            block_by_enum(Target::from_name("gfx1201").unwrap(), 2),
            Err(Error::UnknownBlock { block: 2, target: "gfx1201" })
        );
        assert!(matches!(
            block_by_name(Target::from_name("gfx908").unwrap(), "GL2C"),
            Err(Error::UnknownBlockName { .. })
        ));
    }

    #[test]
    fn reported_instances_and_dimensions() {
        let agent = Agent::reference(Target::from_name("gfx942").unwrap());
        let ta = block_by_name(Target::from_name("gfx942").unwrap(), "TA").unwrap();
        // ceil(304 CU / 32 arrays) + 1 = 11 (< 16 table instances).
        assert_eq!(ta.reported_instances(&agent), 11);
        assert_eq!(ta.dimensions(&agent).dims, vec![("XCD", 8), ("INSTANCE", 11), ("SE", 4)]);
        assert_eq!(ta.dimensions(&agent).coordinates(52), Some(vec![1, 2, 0]));
        assert_eq!(ta.dimensions(&agent).coordinates(8 * 44), None);
    }
}
