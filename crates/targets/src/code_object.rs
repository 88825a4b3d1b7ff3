//! Which code objects a target runs: ROCr's compatibility rule (`Isa::IsCompatible`) over the
//! ELF `e_flags` of a code object, with the generic processors (`gfx11-generic`, ...) whose code runs
//! on every processor of their family.

use crate::model::GpuModel;
use crate::table::{Target, MODELS, TARGETS};

impl GpuModel {
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
        let Some(generic) = GenericIsa::from_elf_mach(mach) else {
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

impl GenericIsa {
    /// The generic processor an `EF_AMDGPU_MACH` value (`e_flags & 0xff`) names.
    pub fn from_elf_mach(mach: u32) -> Option<&'static GenericIsa> {
        GENERIC_ISAS.iter().find(|g| g.elf_mach == mach)
    }

    /// The targets whose generic processor this is (they run its code), in [`TARGETS`] order.
    pub fn targets(&self) -> impl Iterator<Item = &'static Target> + '_ {
        TARGETS.iter().filter(move |t| t.model.generic == Some(self.name))
    }
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
    if let Some(m) = MODELS.iter().find(|m| m.elf_mach == mach) {
        return m.name.to_string();
    }
    match GenericIsa::from_elf_mach(mach) {
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
        // Which of our targets each generic covers (the inverse of the table above).
        for (generic, targets) in [
            ("gfx9-generic", &[][..]),
            ("gfx9-4-generic", &["gfx942", "gfx950"]),
            ("gfx10-1-generic", &[]),
            ("gfx10-3-generic", &["gfx1030"]),
            ("gfx11-generic", &["gfx1100"]),
            ("gfx12-generic", &["gfx1201"]),
        ] {
            let g = GENERIC_ISAS.iter().find(|g| g.name == generic).expect(generic);
            assert_eq!(GenericIsa::from_elf_mach(g.elf_mach), Some(g));
            assert_eq!(g.targets().map(|t| t.name).collect::<Vec<_>>(), targets, "{generic}");
        }
        assert_eq!(GenericIsa::from_elf_mach(0x041), None, "gfx1100 is not generic");
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
