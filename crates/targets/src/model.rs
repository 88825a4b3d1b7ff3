//! The board model of a target as hsa-sim presents it: geometry, clocks, memory, caches and the
//! HSA agent properties, and the shader-engine / CU topology the wave placement and the counter model
//! use.

use crate::family::Family;

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
    /// The generic processor whose code objects also run on this target (ROCr's ISA registry,
    /// `isa.cpp`; LLVM AMDGPUUsage "Generic Processors"): one of [`crate::GENERIC_ISAS`], `None` where no
    /// generic covers the target (gfx908 and gfx90a are not in gfx9-generic).
    pub generic: Option<&'static str>,
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

impl GpuModel {
    /// The target's GFX IP generation (its [`Family`], from the name: `gfx9xx`, `gfx10xx`, `gfx11xx`,
    /// `gfx12xx`).
    pub fn generation(&self) -> Family {
        Family::of_name(self.name).unwrap_or(Family::Gfx9)
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
}
