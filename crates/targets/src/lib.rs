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
mod code_object;
mod family;
mod model;
pub mod pc_sampling;
mod table;

pub use block::{BlockInfo, CounterRegs};
pub use code_object::{GenericIsa, GENERIC_ISAS};
pub use family::Family;
pub use model::GpuModel;
pub use table::{Target, MODELS, TARGETS};

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
