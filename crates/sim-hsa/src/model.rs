//! Per-target properties of the simulated GPUs (facts from `../shared/reference/sim-agents.md` plus board
//! data from public `rocminfo` dumps) and the parsing of `ROCPROF_RS_SIM_AGENTS`.
//!
//! Pure data, no FFI: the agent objects that HSA handles point at are built from these in `agent.rs`.

/// Everything the simulator needs to know about one GPU target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GpuModel {
    /// Target name without features, e.g. `gfx942` (`HSA_AGENT_INFO_NAME`).
    pub(crate) name: &'static str,
    /// Full ISA name as ROCr reports it.
    pub(crate) isa: &'static str,
    /// Board marketing name (`HSA_AMD_AGENT_INFO_PRODUCT_NAME`).
    pub(crate) product: &'static str,
    /// `EF_AMDGPU_MACH_*` value of code objects built for this target (`amd_hsa_elf.h`).
    pub(crate) elf_mach: u32,
    /// xnack setting of the agent: `None` = feature not supported by the target.
    pub(crate) xnack: Option<bool>,
    /// sramecc setting of the agent: `None` = feature not supported by the target.
    pub(crate) sramecc: Option<bool>,
    pub(crate) chip_id: u32,
    pub(crate) family_id: u32,
    pub(crate) compute_units: u32,
    /// Shader engines over all XCCs.
    pub(crate) shader_engines: u32,
    pub(crate) shader_arrays_per_se: u32,
    pub(crate) xccs: u32,
    pub(crate) simds_per_cu: u32,
    pub(crate) waves_per_simd: u32,
    pub(crate) wavefront_size: u32,
    pub(crate) max_clock_mhz: u32,
    pub(crate) memory_bytes: u64,
    pub(crate) memory_width_bits: u32,
    pub(crate) memory_clock_mhz: u32,
    /// L1 (per CU), L2 (per XCC), L3 (Infinity Cache, 0 = none) in bytes.
    pub(crate) cache_bytes: [u32; 3],
    pub(crate) cacheline_bytes: u32,
    pub(crate) lds_bytes: u32,
    pub(crate) sdma_engines: u32,
    pub(crate) sdma_xgmi_engines: u32,
}

const GIB: u64 = 1 << 30;
const KIB: u32 = 1 << 10;
const MIB: u32 = 1 << 20;

/// Every target the simulator knows; the order is only used for `hsa_isa_from_name` lookups.
pub(crate) static MODELS: &[GpuModel] = &[
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
pub(crate) const DEFAULT_AGENTS: &str = "gfx942";

pub(crate) fn find(name: &str) -> Option<&'static GpuModel> {
    MODELS.iter().find(|m| m.name == name)
}

/// Parses `ROCPROF_RS_SIM_AGENTS` (comma-separated targets; whitespace and empty items ignored).
pub(crate) fn parse_agents(spec: &str) -> Result<Vec<&'static GpuModel>, String> {
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

impl GpuModel {
    /// Most waves resident on one CU (`HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU`).
    pub(crate) fn max_waves_per_cu(&self) -> u32 {
        self.simds_per_cu * self.waves_per_simd
    }

    /// Whether a code object with these ELF `e_flags` (v4+ encoding) may run on this target: same processor,
    /// and xnack/sramecc either "any" or equal to the agent's setting (ROCr's rule).
    pub(crate) fn accepts_elf_flags(&self, e_flags: u32) -> bool {
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
}
