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
    /// `isa.cpp`; LLVM AMDGPUUsage "Generic Processors"): one of [`GENERIC_ISAS`], `None` where no
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

    /// The [`GenericIsa`] whose code objects this target runs, if any.
    pub fn generic_isa(&self) -> Option<&'static GenericIsa> {
        let name = self.generic?;
        GENERIC_ISAS.iter().find(|g| g.name == name)
    }

    /// Whether a code object with these ELF `e_flags` (v4+ encoding) may run on this target; see
    /// [`GpuModel::check_elf_flags`].
    pub fn accepts_elf_flags(&self, e_flags: u32) -> bool {
        self.check_elf_flags(e_flags).is_ok()
    }

    /// ROCr's rule (`Isa::IsCompatible`): xnack/sramecc either "any" or equal to the agent's setting,
    /// and the processor either this target's or its generic processor, the latter with a generic
    /// version (`e_flags` bits 24..31) at least the generic's minimum. `Err` says why not, in words.
    pub fn check_elf_flags(&self, e_flags: u32) -> Result<(), String> {
        let mach = e_flags & 0xff;
        let built_for = processor_of_mach(mach);
        for (feature, bits, agent) in
            [("sramecc", (e_flags >> 10) & 3, self.sramecc), ("xnack", (e_flags >> 8) & 3, self.xnack)]
        {
            if !feature_ok(bits, agent) {
                let want = if bits == 3 { '+' } else { '-' };
                let have = match agent {
                    Some(true) => "on",
                    Some(false) => "off",
                    None => "not supported",
                };
                return Err(format!("built for {built_for}:{feature}{want}, but {feature} is {have} on {}", self.name));
            }
        }
        if mach == self.elf_mach {
            return Ok(());
        }
        let Some(generic) = GENERIC_ISAS.iter().find(|g| g.elf_mach == mach) else {
            return Err(format!("built for {built_for}, not {}", self.name));
        };
        if self.generic != Some(generic.name) {
            let ours = self.generic.map_or_else(|| "no generic processor".to_string(), |g| format!("only {g}"));
            return Err(format!("built for {}, which does not cover {} (it runs {ours})", generic.name, self.name));
        }
        let version = e_flags >> 24;
        if version < generic.min_version {
            return Err(format!(
                "built for {} with generic version {version}, below the minimum {}",
                generic.name, generic.min_version
            ));
        }
        Ok(())
    }
}

/// A generic processor: code built for it (`-mcpu=gfx11-generic`, code object v6) runs on every
/// processor of its family. ROCr accepts it on an agent whose ISA names it as its generic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenericIsa {
    /// Processor name, e.g. `gfx11-generic`.
    pub name: &'static str,
    /// `EF_AMDGPU_MACH_AMDGCN_GFX*_GENERIC` (LLVM `BinaryFormat/ELF.h`, ROCr `amd_hsa_elf.h`).
    pub elf_mach: u32,
    /// Lowest generic version (`e_flags` bits 24..31) ROCr accepts
    /// (`IsaRegistry::GetSupportedGenericVersions`).
    pub min_version: u32,
}

/// The generic processors ROCr knows. gfx9-generic covers gfx900/902/904/906/909/90c, none of the
/// targets here; gfx10-1-generic covers gfx1010-gfx1013.
pub const GENERIC_ISAS: [GenericIsa; 6] = [
    GenericIsa { name: "gfx9-generic", elf_mach: 0x051, min_version: 1 },
    GenericIsa { name: "gfx9-4-generic", elf_mach: 0x05f, min_version: 1 },
    GenericIsa { name: "gfx10-1-generic", elf_mach: 0x052, min_version: 1 },
    GenericIsa { name: "gfx10-3-generic", elf_mach: 0x053, min_version: 1 },
    GenericIsa { name: "gfx11-generic", elf_mach: 0x054, min_version: 1 },
    GenericIsa { name: "gfx12-generic", elf_mach: 0x059, min_version: 1 },
];

/// The processor an `EF_AMDGPU_MACH` value names, for messages: a known target, a generic, or the
/// number.
fn processor_of_mach(mach: u32) -> String {
    if let Some(m) = crate::MODELS.iter().find(|m| m.elf_mach == mach) {
        return m.name.to_string();
    }
    match GENERIC_ISAS.iter().find(|g| g.elf_mach == mach) {
        Some(g) => g.name.to_string(),
        None => format!("EF_AMDGPU_MACH {mach:#05x}"),
    }
}

/// Code-object v4 feature encoding: 0 unsupported, 1 any, 2 off, 3 on.
fn feature_ok(bits: u32, agent: Option<bool>) -> bool {
    matches!((bits, agent), (0 | 1, _) | (2, Some(false)) | (3, Some(true)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Target;

    fn model(name: &str) -> &'static GpuModel {
        &Target::find(name).expect("a known target").model
    }

    #[test]
    fn generic_processors_follow_rocr_and_llvm() {
        // ROCr `isa.cpp` (ISAREG_ENTRY_GEN's last column): gfx908 and gfx90a have no generic.
        for (target, generic) in [
            ("gfx908", None),
            ("gfx90a", None),
            ("gfx942", Some("gfx9-4-generic")),
            ("gfx950", Some("gfx9-4-generic")),
            ("gfx1030", Some("gfx10-3-generic")),
            ("gfx1100", Some("gfx11-generic")),
            ("gfx1201", Some("gfx12-generic")),
        ] {
            assert_eq!(model(target).generic, generic, "{target}");
            assert_eq!(model(target).generic_isa().map(|g| g.name), generic, "{target}");
        }
        // LLVM `BinaryFormat/ELF.h` EF_AMDGPU_MACH_AMDGCN_GFX*_GENERIC; ROCr's minimum version is 1 for all.
        for (name, mach) in [
            ("gfx9-generic", 0x051),
            ("gfx9-4-generic", 0x05f),
            ("gfx10-1-generic", 0x052),
            ("gfx10-3-generic", 0x053),
            ("gfx11-generic", 0x054),
            ("gfx12-generic", 0x059),
        ] {
            let g = GENERIC_ISAS.iter().find(|g| g.name == name).expect(name);
            assert_eq!((g.elf_mach, g.min_version), (mach, 1), "{name}");
        }
    }

    #[test]
    fn generic_code_objects_load_on_their_family_only() {
        // `e_flags` as clang-19 writes them: -mcpu=gfx11-generic -mcode-object-version=6 gives
        // 0x1000054 (llvm-readelf: "gfx11-generic, generic_v1"); gfx12-generic 0x1000059.
        let gfx1100 = model("gfx1100");
        assert_eq!(gfx1100.check_elf_flags(0x1000054), Ok(()));
        assert_eq!(gfx1100.check_elf_flags(0x0000041), Ok(()));
        assert_eq!(
            gfx1100.check_elf_flags(0x1000059).unwrap_err(),
            "built for gfx12-generic, which does not cover gfx1100 (it runs only gfx11-generic)"
        );
        assert_eq!(
            gfx1100.check_elf_flags(0x0000054).unwrap_err(),
            "built for gfx11-generic with generic version 0, below the minimum 1"
        );
        assert_eq!(gfx1100.check_elf_flags(0x000004e).unwrap_err(), "built for gfx1201, not gfx1100");
        assert!(model("gfx1030").accepts_elf_flags(0x1000053));
        assert!(model("gfx1201").accepts_elf_flags(0x1000059));
        assert!(!model("gfx1201").accepts_elf_flags(0x1000054));
        // gfx942 (sramecc+, xnack-): gfx9-4-generic with features any (0x500) or matching.
        let gfx942 = model("gfx942");
        assert!(gfx942.accepts_elf_flags(0x100055f));
        assert!(gfx942.accepts_elf_flags(0x1000e5f)); // sramecc on, xnack off
        assert_eq!(
            gfx942.check_elf_flags(0x100095f).unwrap_err(), // sramecc off, xnack any
            "built for gfx9-4-generic:sramecc-, but sramecc is on on gfx942"
        );
        assert!(model("gfx950").accepts_elf_flags(0x100055f));
        // gfx9-generic covers neither gfx908 nor gfx90a.
        assert_eq!(
            model("gfx90a").check_elf_flags(0x1000551).unwrap_err(),
            "built for gfx9-generic, which does not cover gfx90a (it runs no generic processor)"
        );
        assert!(!model("gfx908").accepts_elf_flags(0x1000551));
        assert_eq!(
            model("gfx90a").check_elf_flags(0x00000ff).unwrap_err(),
            "built for EF_AMDGPU_MACH 0x0ff, not gfx90a"
        );
    }
}
