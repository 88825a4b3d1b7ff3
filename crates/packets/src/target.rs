//! Supported GPU targets, their families, and the agent geometry the builders
//! need (CU, SE, shader-array and XCC counts), as registered with aqlprofile.

use crate::error::{Error, Result};

/// GPU architecture family; selects the packet encodings and register map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// gfx9 (MI100, MI200, MI300, MI350).
    Gfx9,
    /// gfx10.3 (RDNA2).
    Gfx10,
    /// gfx11 (RDNA3).
    Gfx11,
    /// gfx12 (RDNA4).
    Gfx12,
}

/// One of the seven targets whose aqlprofile output this crate reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Target {
    /// MI100.
    Gfx908,
    /// MI200.
    Gfx90a,
    /// MI300 (gfx940/941/942 share the tables).
    Gfx942,
    /// MI350.
    Gfx950,
    /// RDNA2 (Navi21).
    Gfx1030,
    /// RDNA3 (Navi31).
    Gfx1100,
    /// RDNA4 (Navi48).
    Gfx1201,
}

impl Target {
    /// Every supported target, in table order.
    pub const ALL: [Target; 7] = [
        Target::Gfx908,
        Target::Gfx90a,
        Target::Gfx942,
        Target::Gfx950,
        Target::Gfx1030,
        Target::Gfx1100,
        Target::Gfx1201,
    ];

    /// Parses a gfxip name such as `"gfx942"` (a `:sramecc+`-style feature
    /// suffix is ignored; gfx940 and gfx941 map to gfx942).
    pub fn from_name(name: &str) -> Result<Target> {
        let base = name.split(':').next().unwrap_or(name).trim().to_ascii_lowercase();
        Ok(match base.as_str() {
            "gfx908" => Target::Gfx908,
            "gfx90a" => Target::Gfx90a,
            "gfx940" | "gfx941" | "gfx942" => Target::Gfx942,
            "gfx950" => Target::Gfx950,
            "gfx1030" => Target::Gfx1030,
            "gfx1100" => Target::Gfx1100,
            "gfx1201" => Target::Gfx1201,
            _ => return Err(Error::UnknownTarget(name.to_string())),
        })
    }

    /// Canonical gfxip name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Gfx908 => "gfx908",
            Target::Gfx90a => "gfx90a",
            Target::Gfx942 => "gfx942",
            Target::Gfx950 => "gfx950",
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1100 => "gfx1100",
            Target::Gfx1201 => "gfx1201",
        }
    }

    /// Architecture family.
    pub fn family(self) -> Family {
        match self {
            Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950 => Family::Gfx9,
            Target::Gfx1030 => Family::Gfx10,
            Target::Gfx1100 => Family::Gfx11,
            Target::Gfx1201 => Family::Gfx12,
        }
    }

    /// SQ accumulation event ids `(LO_RES, HI_RES)` that replace the select of
    /// an event carrying accumulation flags; `None` where aqlprofile rejects
    /// such flags (gfx12). Values from aqlprofile's per-ASIC factories.
    pub fn sq_accumulation_ids(self) -> Option<(u32, u32)> {
        match self {
            Target::Gfx908 => Some((1, 158)),
            Target::Gfx90a => Some((1, 185)),
            Target::Gfx942 => Some((1, 184)),
            Target::Gfx950 => Some((1, 200)),
            Target::Gfx1030 | Target::Gfx1100 => Some((1, 1)),
            Target::Gfx1201 => None,
        }
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
    /// the conformance goldens): gfx908 120 CU / 8 SE, gfx90a 110/8, gfx942
    /// 304/32 over 8 XCC, gfx950 256/32 over 8 XCC, gfx1030 80/4 x 2 SA,
    /// gfx1100 96/6 x 2 SA, gfx1201 64/4 x 2 SA.
    pub fn reference(target: Target) -> Agent {
        let (cu, se, sa, xcc) = match target {
            Target::Gfx908 => (120, 8, 1, 1),
            Target::Gfx90a => (110, 8, 1, 1),
            Target::Gfx942 => (304, 32, 1, 8),
            Target::Gfx950 => (256, 32, 1, 8),
            Target::Gfx1030 => (80, 4, 2, 1),
            Target::Gfx1100 => (96, 6, 2, 1),
            Target::Gfx1201 => (64, 4, 2, 1),
        };
        Agent { target, cu_num: cu, se_num: se, shader_arrays_per_se: sa, xcc_num: xcc }
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
