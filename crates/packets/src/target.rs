//! Supported GPU targets, their families, and the agent geometry the builders
//! need (CU, SE, shader-array and XCC counts), as registered with aqlprofile.

use crate::error::{Error, Result};

pub use rocprof_targets::Family;

/// A target whose aqlprofile output this crate reproduces: a handle on its entry in the targets
/// crate (family, block tables, SQ accumulation events, reference geometry).
#[derive(Debug, Clone, Copy)]
pub struct Target(&'static rocprof_targets::Target);

impl Target {
    /// Every supported target, in table order.
    pub fn all() -> impl Iterator<Item = Target> {
        rocprof_targets::TARGETS.iter().map(Target)
    }

    /// Parses a gfxip name such as `"gfx942"` (a `:sramecc+`-style feature
    /// suffix is ignored; gfx940 and gfx941 map to gfx942).
    pub fn from_name(name: &str) -> Result<Target> {
        rocprof_targets::Target::find_with_aliases(name)
            .map(Target)
            .ok_or_else(|| Error::UnknownTarget(name.to_string()))
    }

    /// The target's entry in the targets crate.
    pub fn info(self) -> &'static rocprof_targets::Target {
        self.0
    }

    /// Canonical gfxip name.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Architecture family.
    pub fn family(self) -> Family {
        self.0.family
    }

    /// SQ accumulation event ids `(LO_RES, HI_RES)` that replace the select of
    /// an event carrying accumulation flags; `None` where aqlprofile rejects
    /// such flags (gfx12). Values from aqlprofile's per-ASIC factories.
    pub fn sq_accumulation_ids(self) -> Option<(u32, u32)> {
        self.0.sq_accumulation
    }
}

impl PartialEq for Target {
    fn eq(&self, other: &Target) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Target {}

impl std::hash::Hash for Target {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl PartialOrd for Target {
    fn partial_cmp(&self, other: &Target) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Target {
    /// Table order.
    fn cmp(&self, other: &Target) -> std::cmp::Ordering {
        self.0.index().cmp(&other.0.index())
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The agent as registered with aqlprofile: totals over the whole device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agent {
    /// Target.
    pub target: Target,
    /// Compute units, total over all XCCs.
    pub cu_num: u32,
    /// Shader engines, total over all XCCs.
    pub se_num: u32,
    /// Shader arrays per SE.
    pub shader_arrays_per_se: u32,
    /// Accelerator complexes (XCDs).
    pub xcc_num: u32,
}

impl Agent {
    /// Validates and builds an agent description.
    pub fn new(target: Target, cu_num: u32, se_num: u32, shader_arrays_per_se: u32, xcc_num: u32) -> Result<Agent> {
        let bad = |reason| Err(Error::InvalidAgent { target: target.name(), reason });
        if cu_num == 0 {
            return bad("cu_num is zero");
        }
        if se_num == 0 {
            return bad("se_num is zero");
        }
        if shader_arrays_per_se == 0 {
            return bad("shader_arrays_per_se is zero");
        }
        if xcc_num == 0 || xcc_num > 32 {
            return bad("xcc_num must be 1..=32");
        }
        if xcc_num > 1 && target.family() != Family::Gfx9 {
            return bad("only gfx9 parts have more than one XCC");
        }
        if !se_num.is_multiple_of(xcc_num) {
            return bad("se_num is not a multiple of xcc_num");
        }
        if se_num > 64 {
            return bad("se_num above 64");
        }
        if cu_num > 4096 || shader_arrays_per_se > 16 {
            return bad("cu_num or shader_arrays_per_se implausibly large");
        }
        Ok(Agent { target, cu_num, se_num, shader_arrays_per_se, xcc_num })
    }

    /// The geometry aqlprofile's oracle used for each target (the defaults of
    /// the conformance goldens): the board of the targets crate's model
    /// (gfx908 120 CU / 8 SE, gfx90a 110/8, gfx942 304/32 over 8 XCC, gfx950
    /// 256/32 over 8 XCC, gfx1030 80/4 x 2 SA, gfx1100 96/6 x 2 SA, gfx1201 64/4 x 2 SA).
    pub fn reference(target: Target) -> Agent {
        let m = &target.info().model;
        Agent {
            target,
            cu_num: m.compute_units,
            se_num: m.shader_engines,
            shader_arrays_per_se: m.shader_arrays_per_se,
            xcc_num: m.xccs,
        }
    }

    /// Architecture family.
    pub fn family(&self) -> Family {
        self.target.family()
    }

    /// Shader engines per XCC.
    pub fn se_per_xcc(&self) -> u32 {
        self.se_num / self.xcc_num
    }

    /// WGPs per shader array as the PMC builder computes it:
    /// `ceil((cu_num / 2) / (se_per_xcc * sa_per_se))` on gfx11/12, 1 elsewhere.
    pub fn wgp_per_sa(&self) -> u32 {
        match self.family() {
            Family::Gfx11 | Family::Gfx12 => {
                let arrays = self.shader_arrays_per_se * self.se_per_xcc();
                (self.cu_num / 2).div_ceil(arrays)
            }
            _ => 1,
        }
    }

    /// Whether the packets must be predicated per XCC (multi-XCC gfx9 parts).
    pub(crate) fn multi_xcc(&self) -> bool {
        self.xcc_num > 1
    }
}
