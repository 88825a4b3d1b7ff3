//! The GPU targets rocprof-rs knows, described once: for each target its instruction-set family and
//! the ISA properties the decoder and interpreter need, the board model hsa-sim presents (geometry,
//! clocks, memory), the SQ accumulation events and the PMC block tables (instances, counter slots,
//! register addresses) the packet builders program.
//!
//! The bottom floor of the house: every other crate that needs a fact about a target reads it here
//! (`rocprof-isa`, `rocprof-packets`, `rocprof-counters`, `rocprof-device`, `rocprof-sqtt`).
//! Adding a target touches this crate and its reference data only: an entry in `table.rs`, and its
//! block table in `../shared/reference/pm4-block-tables.json` (`cargo xtask codegen-targets`).

pub mod block;
mod block_tables;
mod model;
pub mod pc_sampling;
mod table;

pub use block::{BlockInfo, CounterRegs};
pub use model::{GenericIsa, GpuModel, GENERIC_ISAS};
pub use table::{MODELS, TARGETS};

/// An instruction-set (GFX IP) family. Encodings, opcode numbers, register maps and the packet
/// encodings differ between families; within a family targets differ in their tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// GCN5 / CDNA (gfx908, gfx90a, gfx942, gfx950): wave64.
    Gfx9,
    /// RDNA2 (gfx1030).
    Gfx10,
    /// RDNA3 (gfx1100).
    Gfx11,
    /// RDNA4 (gfx1201).
    Gfx12,
}

impl Family {
    /// Every family, oldest first.
    pub const ALL: [Family; 4] = [Family::Gfx9, Family::Gfx10, Family::Gfx11, Family::Gfx12];

    /// The family's name in the counter database and reference data: `gfx9`, `gfx10`, `gfx11`, `gfx12`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Gfx9 => "gfx9",
            Family::Gfx10 => "gfx10",
            Family::Gfx11 => "gfx11",
            Family::Gfx12 => "gfx12",
        }
    }

    /// The family of a target name by its GFX IP number (`gfx9xx`, `gfx10xx`, `gfx11xx`,
    /// `gfx12xx`), known target or not; an `amdgcn-amd-amdhsa--` prefix and `:feature` suffixes are
    /// ignored.
    pub fn of_name(name: &str) -> Option<Family> {
        let digits = strip_target_name(name).strip_prefix("gfx")?;
        let digits: String = digits.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        match (digits.len(), digits.get(..2)) {
            (4, Some("10")) => Some(Family::Gfx10),
            (4, Some("11")) => Some(Family::Gfx11),
            (4, Some("12")) => Some(Family::Gfx12),
            (3, _) if digits.starts_with('9') => Some(Family::Gfx9),
            _ => None,
        }
    }
}

/// One target's facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Target name without features, e.g. `gfx90a`.
    pub name: &'static str,
    /// Instruction-set family.
    pub family: Family,
    /// Name of the opcode table (`crates/isa/tables/<table>.txt`).
    pub table: &'static str,
    /// Accumulation VGPRs (AGPRs) exist (gfx908, gfx90a, gfx94x).
    pub agprs: bool,
    /// VGPRs and AGPRs share one file split at the kernel descriptor's `ACCUM_OFFSET`, and matrix
    /// instructions choose the accumulator's file with `ACC_CD` (gfx90a, gfx94x; gfx908 has separate
    /// files and keeps the accumulator in AGPRs).
    pub unified_agprs: bool,
    /// Work-item ids arrive packed in v0 (x | y << 10 | z << 20): gfx90a, gfx94x and gfx11+
    /// (LLVM AMDGPUUsage, "Initial Kernel Execution State").
    pub packed_tid: bool,
    /// The 8-bit floats of matrix instructions (`fp8`/`bf8`) are AMD's FNUZ formats (E4M3 bias 8 and
    /// E5M2 bias 16, 0x80 the only NaN, no infinities or negative zero): gfx94x. gfx950 and gfx12 use
    /// the OCP formats (E4M3FN bias 7, E5M2 bias 15); AMD's matrix instruction calculator (`amd_fp8`
    /// for CDNA3, `fp8` for RDNA4), LLVM's `FP8ConversionInsts`/`FP8ConversionScaleInsts`.
    pub fp8_fnuz: bool,
    /// Scratch is addressed through architected flat scratch (no private segment buffer or
    /// flat-scratch-init user SGPRs): gfx94x and gfx11+... gfx12.
    pub arch_flat_scratch: bool,
    /// Other names that share this target's PMC tables (gfx940 and gfx941 for gfx942), accepted by
    /// [`Target::find_with_aliases`].
    pub aliases: &'static [&'static str],
    /// SQ accumulation event ids `(LO_RES, HI_RES)` that replace the select of an event carrying
    /// accumulation flags; `None` where aqlprofile rejects such flags (gfx12).
    pub sq_accumulation: Option<(u32, u32)>,
    /// PMC blocks in aqlprofile's table order (generated from the reference dump).
    pub blocks: &'static [BlockInfo],
    /// The board hsa-sim presents for this target.
    pub model: GpuModel,
}

/// `name` without an `amdgcn-amd-amdhsa--` prefix and `:feature` suffixes.
fn strip_target_name(name: &str) -> &str {
    let name = name.rsplit("--").next().unwrap_or(name);
    name.split(':').next().unwrap_or(name)
}

impl Target {
    /// The target called `name`; features after a colon (`gfx90a:sramecc+:xnack-`) and an
    /// `amdgcn-amd-amdhsa--` prefix are ignored.
    pub fn find(name: &str) -> Option<&'static Target> {
        let name = strip_target_name(name);
        TARGETS.iter().find(|t| t.name == name)
    }

    /// Like [`Target::find`], also accepting [`Target::aliases`], any letter case and surrounding
    /// blanks (the PMC tables' rule: gfx940 and gfx941 use gfx942's).
    pub fn find_with_aliases(name: &str) -> Option<&'static Target> {
        let name = strip_target_name(name.trim()).trim().to_ascii_lowercase();
        TARGETS.iter().find(|t| t.name == name || t.aliases.contains(&name.as_str()))
    }

    /// The target of an `EF_AMDGPU_MACH_*` value from a code object's ELF header (`amd_hsa_elf.h`).
    pub fn from_elf_mach(mach: u32) -> Option<&'static Target> {
        TARGETS.iter().find(|t| t.model.elf_mach == mach)
    }

    /// Position of this target in [`TARGETS`] (a stable order for sorting).
    pub fn index(&self) -> usize {
        TARGETS.iter().position(|t| t.name == self.name).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_families_and_elf_machines_follow_amd_numbering() {
        // EF_AMDGPU_MACH_AMDGCN_* values of LLVM's `BinaryFormat/ELF.h`.
        for (mach, name) in [
            (0x030, "gfx908"),
            (0x03f, "gfx90a"),
            (0x04c, "gfx942"),
            (0x04f, "gfx950"),
            (0x036, "gfx1030"),
            (0x041, "gfx1100"),
            (0x04e, "gfx1201"),
        ] {
            assert_eq!(Target::from_elf_mach(mach).map(|t| t.name), Some(name), "{mach:#x}");
        }
        for t in TARGETS {
            assert_eq!(Family::of_name(t.name), Some(t.family), "{}", t.name);
            assert_eq!(t.model.name, t.name);
            assert_eq!(t.table, t.name);
            assert!(!t.blocks.is_empty(), "{}", t.name);
        }
        assert_eq!(TARGETS.iter().map(|t| t.model).collect::<Vec<_>>(), MODELS);
        assert_eq!(Target::find("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-").map(|t| t.name), Some("gfx90a"));
        assert_eq!(Target::find("gfx940"), None);
        assert_eq!(Target::find_with_aliases(" GFX940 ").map(|t| t.name), Some("gfx942"));
        assert_eq!(Family::of_name("gfx906"), Some(Family::Gfx9));
        assert_eq!(Family::of_name("gfx1036"), Some(Family::Gfx10));
        assert_eq!(Family::of_name("sm_90"), None);
        for f in Family::ALL {
            assert_eq!(Family::of_name(&format!("{}00", f.name())).map(Family::name), Some(f.name()));
        }
    }
}
