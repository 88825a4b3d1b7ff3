//! The table of simulated GPU targets: the one source of truth for which targets hsa-sim models and
//! what they look like (facts from `../shared/reference/sim-agents.md` plus board data from public
//! `rocminfo` dumps), the parsing of `ROCPROF_RS_SIM_AGENTS`, and the shader-engine / CU topology
//! the wave placement and the counter model use.
//!
//! Pure data: hsa-sim builds its HSA agent objects from these, the CLI checks `--simulate` against
//! [`MODELS`] and asks it for the agents' geometry before it launches an application.

/// Everything the simulator needs to know about one GPU target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuModel {
    /// Target name without features, e.g. `gfx942` (`HSA_AGENT_INFO_NAME`).
    pub name: &'static str,
    /// Full ISA name as ROCr reports it.
    pub isa: &'static str,
    /// Board marketing name (`HSA_AMD_AGENT_INFO_PRODUCT_NAME`).
    pub product: &'static str,
    /// `EF_AMDGPU_MACH_*` value of code objects built for this target (`amd_hsa_elf.h`).
    pub elf_mach: u32,
    /// xnack setting of the agent: `None` = feature not supported by the target.
    pub xnack: Option<bool>,
    /// sramecc setting of the agent: `None` = feature not supported by the target.
    pub sramecc: Option<bool>,
    /// PCI device id (`HSA_AMD_AGENT_INFO_CHIP_ID`).
    pub chip_id: u32,
    /// KFD family id.
    pub family_id: u32,
    /// Compute units over all XCCs.
    pub compute_units: u32,
    /// Shader engines over all XCCs.
    pub shader_engines: u32,
    /// Shader arrays per shader engine.
    pub shader_arrays_per_se: u32,
    /// Accelerator complexes (XCDs); 1 except on MI300-class parts.
    pub xccs: u32,
    /// SIMDs per CU.
    pub simds_per_cu: u32,
    /// Wave slots per SIMD.
    pub waves_per_simd: u32,
    /// Native wavefront size (64 on gfx9, 32 on RDNA; RDNA kernels may also run wave64).
    pub wavefront_size: u32,
    /// Engine clock in MHz; the timing model counts cycles at this clock.
    pub max_clock_mhz: u32,
    /// Device memory in bytes.
    pub memory_bytes: u64,
    /// Memory bus width in bits.
    pub memory_width_bits: u32,
    /// Memory clock in MHz.
    pub memory_clock_mhz: u32,
    /// L1 (per CU), L2 (per XCC), L3 (Infinity Cache, 0 = none) in bytes.
    pub cache_bytes: [u32; 3],
    /// Cache line size in bytes.
    pub cacheline_bytes: u32,
    /// LDS per CU (per workgroup at most) in bytes.
    pub lds_bytes: u32,
    /// SDMA engines.
    pub sdma_engines: u32,
    /// SDMA engines for XGMI links.
    pub sdma_xgmi_engines: u32,
}

const GIB: u64 = 1 << 30;
const KIB: u32 = 1 << 10;
const MIB: u32 = 1 << 20;

/// Every target the simulator knows; the order is only used for `hsa_isa_from_name` lookups and listings.
pub static MODELS: &[GpuModel] = &[
    GpuModel {
        name: "gfx908",
        isa: "amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-",
        product: "AMD Instinct MI100",
        elf_mach: 0x030,
        xnack: Some(false),
        sramecc: Some(true),
        chip_id: 0x738c,
        family_id: 141,
        compute_units: 120,
        shader_engines: 8,
        shader_arrays_per_se: 1,
        xccs: 1,
        simds_per_cu: 4,
        waves_per_simd: 10,
        wavefront_size: 64,
        max_clock_mhz: 1502,
        memory_bytes: 32 * GIB,
        memory_width_bits: 4096,
        memory_clock_mhz: 1200,
        cache_bytes: [16 * KIB, 8 * MIB, 0],
        cacheline_bytes: 64,
        lds_bytes: 64 * KIB,
        sdma_engines: 8,
        sdma_xgmi_engines: 0,
    },
    GpuModel {
        name: "gfx90a",
        isa: "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
        product: "AMD Instinct MI250X",
        elf_mach: 0x03f,
        xnack: Some(false),
        sramecc: Some(true),
        chip_id: 0x740c,
        family_id: 141,
        compute_units: 110,
        shader_engines: 8,
        shader_arrays_per_se: 1,
        xccs: 1,
        simds_per_cu: 4,
        waves_per_simd: 8,
        wavefront_size: 64,
        max_clock_mhz: 1700,
        memory_bytes: 64 * GIB,
        memory_width_bits: 4096,
        memory_clock_mhz: 1600,
        cache_bytes: [16 * KIB, 8 * MIB, 0],
        cacheline_bytes: 128,
        lds_bytes: 64 * KIB,
        sdma_engines: 2,
        sdma_xgmi_engines: 3,
    },
    GpuModel {
        name: "gfx942",
        isa: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
        product: "AMD Instinct MI300X",
        elf_mach: 0x04c,
        xnack: Some(false),
        sramecc: Some(true),
        chip_id: 0x74a1,
        family_id: 141,
        compute_units: 304,
        shader_engines: 32,
        shader_arrays_per_se: 1,
        xccs: 8,
        simds_per_cu: 4,
        waves_per_simd: 8,
        wavefront_size: 64,
        max_clock_mhz: 2100,
        memory_bytes: 192 * GIB,
        memory_width_bits: 8192,
        memory_clock_mhz: 2600,
        cache_bytes: [32 * KIB, 4 * MIB, 256 * MIB],
        cacheline_bytes: 128,
        lds_bytes: 64 * KIB,
        sdma_engines: 2,
        sdma_xgmi_engines: 14,
    },
    GpuModel {
        name: "gfx950",
        isa: "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-",
        product: "AMD Instinct MI355X",
        elf_mach: 0x04f,
        xnack: Some(false),
        sramecc: Some(true),
        chip_id: 0x75a3,
        family_id: 141,
        compute_units: 256,
        shader_engines: 32,
        shader_arrays_per_se: 1,
        xccs: 8,
        simds_per_cu: 4,
        waves_per_simd: 8,
        wavefront_size: 64,
        max_clock_mhz: 2400,
        memory_bytes: 288 * GIB,
        memory_width_bits: 8192,
        memory_clock_mhz: 4000,
        cache_bytes: [32 * KIB, 4 * MIB, 256 * MIB],
        cacheline_bytes: 128,
        lds_bytes: 160 * KIB,
        sdma_engines: 2,
        sdma_xgmi_engines: 14,
    },
    GpuModel {
        name: "gfx1030",
        isa: "amdgcn-amd-amdhsa--gfx1030",
        product: "AMD Radeon RX 6900 XT",
        elf_mach: 0x036,
        xnack: None,
        sramecc: None,
        chip_id: 0x73bf,
        family_id: 143,
        compute_units: 80,
        shader_engines: 4,
        shader_arrays_per_se: 2,
        xccs: 1,
        simds_per_cu: 2,
        waves_per_simd: 16,
        wavefront_size: 32,
        max_clock_mhz: 2250,
        memory_bytes: 16 * GIB,
        memory_width_bits: 256,
        memory_clock_mhz: 1000,
        cache_bytes: [16 * KIB, 4 * MIB, 128 * MIB],
        cacheline_bytes: 128,
        lds_bytes: 64 * KIB,
        sdma_engines: 2,
        sdma_xgmi_engines: 0,
    },
    GpuModel {
        name: "gfx1100",
        isa: "amdgcn-amd-amdhsa--gfx1100",
        product: "AMD Radeon RX 7900 XTX",
        elf_mach: 0x041,
        xnack: None,
        sramecc: None,
        chip_id: 0x744c,
        family_id: 145,
        compute_units: 96,
        shader_engines: 6,
        shader_arrays_per_se: 2,
        xccs: 1,
        simds_per_cu: 2,
        waves_per_simd: 16,
        wavefront_size: 32,
        max_clock_mhz: 2500,
        memory_bytes: 24 * GIB,
        memory_width_bits: 384,
        memory_clock_mhz: 1250,
        cache_bytes: [32 * KIB, 6 * MIB, 96 * MIB],
        cacheline_bytes: 128,
        lds_bytes: 64 * KIB,
        sdma_engines: 2,
        sdma_xgmi_engines: 0,
    },
    GpuModel {
        name: "gfx1201",
        isa: "amdgcn-amd-amdhsa--gfx1201",
        product: "AMD Radeon RX 9070 XT",
        elf_mach: 0x04e,
        xnack: None,
        sramecc: None,
        chip_id: 0x7550,
        family_id: 152,
        compute_units: 64,
        shader_engines: 4,
        shader_arrays_per_se: 2,
        xccs: 1,
        simds_per_cu: 2,
        waves_per_simd: 16,
        wavefront_size: 32,
        max_clock_mhz: 2970,
        memory_bytes: 16 * GIB,
        memory_width_bits: 256,
        memory_clock_mhz: 1258,
        cache_bytes: [32 * KIB, 8 * MIB, 64 * MIB],
        cacheline_bytes: 128,
        lds_bytes: 64 * KIB,
        sdma_engines: 2,
        sdma_xgmi_engines: 0,
    },
];

/// Default agent list when `ROCPROF_RS_SIM_AGENTS` is unset or empty.
pub const DEFAULT_AGENTS: &str = "gfx942";

/// The target called `name` (exact, without feature suffix), if hsa-sim models it.
pub fn find(name: &str) -> Option<&'static GpuModel> {
    MODELS.iter().find(|m| m.name == name)
}

/// Parses `ROCPROF_RS_SIM_AGENTS` (comma-separated targets; whitespace and empty items ignored).
pub fn parse_agents(spec: &str) -> Result<Vec<&'static GpuModel>, String> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match find(item) {
            Some(m) => out.push(m),
            None => {
                let known: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
                return Err(format!("unknown target {item:?} in ROCPROF_RS_SIM_AGENTS (known: {})", known.join(", ")));
            }
        }
    }
    if out.is_empty() {
        out.push(find(DEFAULT_AGENTS).expect("default target is in the table"));
    }
    Ok(out)
}

/// GFX IP generation of a target: decides instruction encodings, register maps and counter blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Generation {
    /// CDNA / gfx9 (gfx908, gfx90a, gfx942, gfx950).
    Gfx9,
    /// RDNA2 (gfx1030).
    Gfx10,
    /// RDNA3 (gfx1100).
    Gfx11,
    /// RDNA4 (gfx1201).
    Gfx12,
}

/// Names of every simulated target, in table order (for messages such as "it simulates ...").
pub fn names() -> impl Iterator<Item = &'static str> {
    MODELS.iter().map(|m| m.name)
}

impl GpuModel {
    /// The target's GFX IP generation (from the name: `gfx9xx`, `gfx10xx`, `gfx11xx`, `gfx12xx`).
    pub fn generation(&self) -> Generation {
        match self.name.get(3..5) {
            Some("10") => Generation::Gfx10,
            Some("11") => Generation::Gfx11,
            Some("12") => Generation::Gfx12,
            _ => Generation::Gfx9,
        }
    }

    /// Shader engines per XCC.
    pub fn se_per_xcc(&self) -> u32 {
        (self.shader_engines / self.xccs.max(1)).max(1)
    }

    /// Compute units per XCC.
    pub fn cus_per_xcc(&self) -> u32 {
        (self.compute_units / self.xccs.max(1)).max(1)
    }

    /// Compute units in shader engine `se_in_xcc` of an XCC. The CUs of an XCC are spread over its
    /// SEs as evenly as the count allows, the first SEs taking one more (gfx942: 38 CUs per XCC over
    /// 4 SEs = 10, 10, 9, 9, as on a harvested MI300X die).
    pub fn cus_in_se(&self, se_in_xcc: u32) -> u32 {
        let (per, rest) = (self.cus_per_xcc() / self.se_per_xcc(), self.cus_per_xcc() % self.se_per_xcc());
        per + u32::from(se_in_xcc < rest)
    }

    /// Global index of the first CU of shader engine `se_in_xcc` in XCC `xcc` (CUs are numbered XCC by
    /// XCC, SE by SE).
    pub fn first_cu_of_se(&self, xcc: u32, se_in_xcc: u32) -> u32 {
        let before: u32 = (0..se_in_xcc).map(|s| self.cus_in_se(s)).sum();
        xcc * self.cus_per_xcc() + before
    }

    /// Shader array of the `cu_in_se`-th CU of a shader engine with `cus_in_se` CUs: CUs are split
    /// over the arrays in order, as evenly as the count allows.
    pub fn sa_of_cu(&self, cu_in_se: u32, cus_in_se: u32) -> u32 {
        let sas = self.shader_arrays_per_se.max(1);
        let (per, rest) = (cus_in_se / sas, cus_in_se % sas);
        // The first `rest` arrays hold `per + 1` CUs.
        let big = rest * (per + 1);
        if cu_in_se < big {
            cu_in_se / (per + 1)
        } else {
            rest + (cu_in_se - big) / per.max(1)
        }
    }

    /// Most waves resident on one CU (`HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU`).
    pub fn max_waves_per_cu(&self) -> u32 {
        self.simds_per_cu * self.waves_per_simd
    }

    /// Whether a code object with these ELF `e_flags` (v4+ encoding) may run on this target: same processor,
    /// and xnack/sramecc either "any" or equal to the agent's setting (ROCr's rule).
    pub fn accepts_elf_flags(&self, e_flags: u32) -> bool {
        if e_flags & 0xff != self.elf_mach {
            return false;
        }
        feature_ok((e_flags >> 8) & 3, self.xnack) && feature_ok((e_flags >> 10) & 3, self.sramecc)
    }
}

/// Code-object v4 feature encoding: 0 unsupported, 1 any, 2 off, 3 on.
fn feature_ok(bits: u32, agent: Option<bool>) -> bool {
    matches!((bits, agent), (0 | 1, _) | (2, Some(false)) | (3, Some(true)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_agent_lists() {
        let v = parse_agents("gfx942, gfx1100,,").unwrap();
        assert_eq!(v.iter().map(|m| m.name).collect::<Vec<_>>(), ["gfx942", "gfx1100"]);
        assert_eq!(parse_agents("").unwrap()[0].name, "gfx942");
        let err = parse_agents("gfx942,gfx9000").unwrap_err();
        assert!(err.contains("gfx9000"), "{err}");
    }

    #[test]
    fn reference_numbers() {
        let m = find("gfx942").unwrap();
        assert_eq!((m.compute_units, m.shader_engines, m.xccs, m.max_clock_mhz), (304, 32, 8, 2100));
        assert_eq!(m.max_waves_per_cu(), 32);
        let r = find("gfx1201").unwrap();
        assert_eq!((r.compute_units, r.shader_engines, r.shader_arrays_per_se, r.wavefront_size), (64, 4, 2, 32));
    }

    #[test]
    fn topology_spreads_cus_over_engines_and_arrays() {
        let m = find("gfx942").unwrap();
        assert_eq!((m.se_per_xcc(), m.cus_per_xcc()), (4, 38));
        assert_eq!((0..4).map(|s| m.cus_in_se(s)).collect::<Vec<_>>(), [10, 10, 9, 9]);
        assert_eq!(m.first_cu_of_se(1, 2), 38 + 20);
        let r = find("gfx1100").unwrap();
        assert_eq!(r.cus_in_se(0), 16);
        assert_eq!((0..16).map(|c| r.sa_of_cu(c, 16)).filter(|&a| a == 1).count(), 8);
        assert_eq!(r.sa_of_cu(14, 15), 1);
        assert_eq!(r.sa_of_cu(7, 15), 0);
        for m in MODELS {
            let total: u32 = (0..m.xccs).map(|_| (0..m.se_per_xcc()).map(|s| m.cus_in_se(s)).sum::<u32>()).sum();
            assert_eq!(total, m.compute_units, "{}", m.name);
        }
        assert_eq!(find("gfx1030").unwrap().generation(), Generation::Gfx10);
        assert_eq!(find("gfx950").unwrap().generation(), Generation::Gfx9);
        assert_eq!(names().count(), MODELS.len());
    }

    #[test]
    fn elf_flags_matching() {
        let m = find("gfx90a").unwrap();
        assert!(m.accepts_elf_flags(0x53f)); // xnack any, sramecc any
        assert!(m.accepts_elf_flags(0x23f | 0xc00)); // xnack off, sramecc on
        assert!(!m.accepts_elf_flags(0x33f)); // xnack on
        assert!(!m.accepts_elf_flags(0x54c)); // gfx942
        let n = find("gfx1100").unwrap();
        assert!(n.accepts_elf_flags(0x041));
        assert!(!n.accepts_elf_flags(0x241));
    }

    /// The build tools and the ISA tests cannot depend on this crate (xtask builds the fixtures and
    /// tables this crate is tested with; the ISA crate is below it), so they carry the target list as
    /// text: it must be this list, in this order.
    #[test]
    fn every_other_target_list_is_this_one() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let ours: Vec<&str> = names().collect();
        for file in ["xtask/src/fixtures.rs", "xtask/src/counters.rs", "crates/isa/tests/it/fixtures.rs"] {
            let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let start = text.find("TARGETS: &[").unwrap_or_else(|| panic!("{file}: no TARGETS list"));
            let end = start + text[start..].find("];").unwrap_or_else(|| panic!("{file}: TARGETS not closed"));
            // A list of tuples names the target first in each.
            let list = &text[start..end];
            let pattern = if list.contains('(') { r#"\("(gfx[0-9a-f]+)""# } else { r#""(gfx[0-9a-f]+)""# };
            let listed: Vec<&str> =
                regex::Regex::new(pattern).unwrap().captures_iter(list).map(|c| c.get(1).unwrap().as_str()).collect();
            assert_eq!(listed, ours, "{file} lists other targets than crates/device/src/targets.rs");
        }
    }
}
