//! How many instances a block reports on an agent and the dimensions of its counters' values
//! (aqlprofile's `EventAttribDimension` in `projects/aqlprofile/src/core/counter_dimensions.hpp`).

use crate::db::{Agent, Block, Family};
use crate::dims::{DimExtent, Dimension};

/// Block attribute bits (aqlprofile `CounterBlockAttr`, `src/def/gpu_block_info.h`): the targets
/// crate's.
pub(crate) use rocprof_targets::block::attr;

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
