//! Dimensions of counter values and how many instances a block reports on an agent.
//!
//! The rules are aqlprofile's (`EventAttribDimension` in `projects/aqlprofile/src/core/
//! counter_dimensions.hpp`): dimensions appear in the order XCC, AID, WGP-or-INSTANCE, SE, SA,
//! and a sample index decodes row-major over them (the last dimension varies fastest).

use std::fmt;

use crate::db::{Block, Family};
use crate::Agent;

/// One axis of a counter's values, named as rocprofiler-sdk names it in expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dimension {
    /// Accelerator complex (XCD), present when the agent has more than one.
    Xcc,
    /// MI300 active interposer die, for UMC-type blocks only.
    Aid,
    /// Workgroup processor (gfx11/gfx12 SQ).
    Wgp,
    /// Block instance.
    Instance,
    /// Shader engine, within one XCC.
    ShaderEngine,
    /// Shader array, within one SE.
    ShaderArray,
}

impl Dimension {
    /// All dimensions, in aqlprofile's order.
    pub const ALL: [Dimension; 6] = [
        Dimension::Xcc,
        Dimension::Aid,
        Dimension::Wgp,
        Dimension::Instance,
        Dimension::ShaderEngine,
        Dimension::ShaderArray,
    ];

    /// The name used in expressions, e.g. `DIMENSION_SHADER_ENGINE`.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Xcc => "DIMENSION_XCC",
            Dimension::Aid => "DIMENSION_AID",
            Dimension::Wgp => "DIMENSION_WGP",
            Dimension::Instance => "DIMENSION_INSTANCE",
            Dimension::ShaderEngine => "DIMENSION_SHADER_ENGINE",
            Dimension::ShaderArray => "DIMENSION_SHADER_ARRAY",
        }
    }

    /// Parses a `DIMENSION_*` name, or aqlprofile's short name (`XCD`, `AID`, `SE`, `SA`, `WGP`,
    /// `INSTANCE`).
    pub fn from_name(name: &str) -> Option<Dimension> {
        Some(match name {
            "DIMENSION_XCC" | "XCD" | "XCC" => Dimension::Xcc,
            "DIMENSION_AID" | "AID" => Dimension::Aid,
            "DIMENSION_WGP" | "WGP" => Dimension::Wgp,
            "DIMENSION_INSTANCE" | "INSTANCE" => Dimension::Instance,
            "DIMENSION_SHADER_ENGINE" | "SE" => Dimension::ShaderEngine,
            "DIMENSION_SHADER_ARRAY" | "SA" => Dimension::ShaderArray,
            _ => return None,
        })
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dimension with its number of coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DimExtent {
    /// Which axis.
    pub dim: Dimension,
    /// Number of coordinates along it (at least 1).
    pub extent: usize,
}

impl DimExtent {
    /// Shorthand constructor.
    pub fn new(dim: Dimension, extent: usize) -> Self {
        Self { dim, extent }
    }
}

impl fmt::Display for DimExtent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[0:{}]", self.dim, self.extent.saturating_sub(1))
    }
}

/// Formats a dimension list as rocprofv3-avail does, `DIMENSION_INSTANCE[0:0]
/// DIMENSION_SHADER_ENGINE[0:7]`; a single value prints as `DIMENSION_INSTANCE[0:0]`.
pub fn format_dims(dims: &[DimExtent]) -> String {
    if dims.is_empty() {
        return DimExtent::new(Dimension::Instance, 1).to_string();
    }
    dims.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// Number of values a dimension list describes.
pub fn element_count(dims: &[DimExtent]) -> usize {
    dims.iter().map(|d| d.extent).product()
}

/// Block attribute bits (aqlprofile `CounterBlockAttr`, `src/def/gpu_block_info.h`).
pub(crate) mod attr {
    /// `CounterBlockSeAttr`: one counter set per shader engine.
    pub(crate) const SE: u32 = 0x2;
    /// `CounterBlockSqAttr`: a sequencer block.
    pub(crate) const SQ: u32 = 0x4;
    /// `CounterBlockTcAttr`: texture-cache block.
    pub(crate) const TC: u32 = 0x400;
    /// `CounterBlockUmcAttr`: memory controller (MI300: per AID).
    pub(crate) const UMC: u32 = 0x1_0000;
    /// `CounterBlockSaAttr`: one counter set per shader array.
    pub(crate) const SA: u32 = 0x2_0000;
    /// `CounterBlockSPIAttr`: SPI, whose ids at or above `SPI_SPECIAL_EVENT` take no slot.
    pub(crate) const SPI: u32 = 0x8_0000;
}

/// SPI event ids from this value on are "special" and use no hardware counter slot
/// (`pm4-pmc-sqtt.md` section 5, step 3).
pub(crate) const SPI_SPECIAL_EVENT: u32 = 0x100_0000;

/// How a block is laid out on an agent (aqlprofile `EventAttribDimension`).
struct Layout {
    xcc: usize,
    aid: usize,
    per_se: bool,
    per_sa: bool,
    per_wgp: bool,
    wgp_per_sa: usize,
    instances: usize,
}

fn layout(family: Family, block: &Block, agent: &Agent) -> Layout {
    let has = |bit: u32| block.attr & bit != 0;
    let mut xcc = agent.xcc_num.max(1) as usize;
    let mut aid = 1usize;
    if xcc > 1 && has(attr::UMC) {
        xcc = 1;
        aid = 4;
    }
    let per_se = has(attr::SE);
    // gfx9 texture blocks are indexed by CU within the shader array; gfx11/12 SQ by WGP.
    let per_cu = family == Family::Gfx9 && has(attr::TC) && per_se;
    let per_wgp = matches!(family, Family::Gfx11 | Family::Gfx12) && has(attr::SQ);
    let arrays = (agent.shader_arrays_per_se.max(1) * agent.se_num.max(1)) as usize;
    let cu = agent.cu_num as usize;
    let instances = if has(attr::UMC) {
        block.instances as usize / aid
    } else if per_cu {
        (block.instances as usize).min(cu.div_ceil(arrays) + 1)
    } else {
        block.instances as usize
    };
    Layout { xcc, aid, per_se, per_sa: has(attr::SA), per_wgp, wgp_per_sa: (cu / 2).div_ceil(arrays), instances }
}

/// How many instances of `block` a counter is collected from on `agent`: the block table's
/// count, except that gfx9 per-CU texture blocks (TA, TD, TCP) stop at CUs per shader array
/// plus one, and MI300 UMC blocks count per AID. This is the `instance_count` aqlprofile
/// reports to rocprofiler-sdk, which programs block indices `0..instance_count`.
pub fn block_instances(family: Family, block: &Block, agent: &Agent) -> u32 {
    layout(family, block, agent).instances as u32
}

/// The dimensions of one hardware counter of `block` on `agent`.
pub fn block_dimensions(family: Family, block: &Block, agent: &Agent) -> Vec<DimExtent> {
    let l = layout(family, block, agent);
    let mut dims = Vec::new();
    if l.xcc > 1 {
        dims.push(DimExtent::new(Dimension::Xcc, l.xcc));
    }
    if l.aid > 1 {
        dims.push(DimExtent::new(Dimension::Aid, l.aid));
    }
    if l.per_wgp {
        dims.push(DimExtent::new(Dimension::Wgp, l.wgp_per_sa));
    } else {
        dims.push(DimExtent::new(Dimension::Instance, l.instances));
    }
    if l.per_se {
        dims.push(DimExtent::new(Dimension::ShaderEngine, (agent.se_num / agent.xcc_num.max(1)).max(1) as usize));
    }
    if l.per_sa {
        dims.push(DimExtent::new(Dimension::ShaderArray, agent.shader_arrays_per_se.max(1) as usize));
    }
    dims
}
