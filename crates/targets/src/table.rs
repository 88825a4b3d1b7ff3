//! The table of GPU targets: one entry per target with everything the other crates know about it.
//!
//! Sources: the ISA properties follow LLVM's AMDGPUUsage ("Processors", "Initial Kernel Execution
//! State"); the SQ accumulation event ids come from aqlprofile's per-ASIC factories; the board data
//! of [`GpuModel`] from `../shared/reference/sim-agents.md` plus public `rocminfo` dumps; the block
//! tables are generated (`block_tables.rs`, `cargo xtask codegen-targets`).
//!
//! A new target is one `const` here, its entry in [`TARGETS`] and [`MODELS`], and its block table
//! in the reference data.

use crate::block::BlockInfo;
use crate::block_tables;
use crate::family::{strip_target_name, Family};
use crate::model::GpuModel;

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

const GIB: u64 = 1 << 30;
const KIB: u32 = 1 << 10;
const MIB: u32 = 1 << 20;

/// Every target, in the order listings use.
pub static TARGETS: &[Target] = &[GFX908, GFX90A, GFX942, GFX950, GFX1030, GFX1100, GFX1201];

/// The board model of every target, in [`TARGETS`]' order (hsa-sim's agents).
pub static MODELS: &[GpuModel] =
    &[GFX908.model, GFX90A.model, GFX942.model, GFX950.model, GFX1030.model, GFX1100.model, GFX1201.model];

const GFX908: Target = Target {
    name: "gfx908",
    family: Family::Gfx9,
    table: "gfx908",
    agprs: true,
    unified_agprs: false,
    fp8_fnuz: false,
    packed_tid: false,
    arch_flat_scratch: false,
    aliases: &[],
    sq_accumulation: Some((1, 158)),
    blocks: block_tables::GFX908,
    model: GpuModel {
        name: "gfx908",
        isa: "amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-",
        product: "AMD Instinct MI100",
        elf_mach: 0x030,
        generic: None,
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
};

const GFX90A: Target = Target {
    name: "gfx90a",
    family: Family::Gfx9,
    table: "gfx90a",
    agprs: true,
    unified_agprs: true,
    fp8_fnuz: false,
    packed_tid: true,
    arch_flat_scratch: false,
    aliases: &[],
    sq_accumulation: Some((1, 185)),
    blocks: block_tables::GFX90A,
    model: GpuModel {
        name: "gfx90a",
        isa: "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
        product: "AMD Instinct MI250X",
        elf_mach: 0x03f,
        generic: None,
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
};

const GFX942: Target = Target {
    name: "gfx942",
    family: Family::Gfx9,
    table: "gfx942",
    agprs: true,
    unified_agprs: true,
    fp8_fnuz: true,
    packed_tid: true,
    arch_flat_scratch: true,
    aliases: &["gfx940", "gfx941"],
    sq_accumulation: Some((1, 184)),
    blocks: block_tables::GFX942,
    model: GpuModel {
        name: "gfx942",
        isa: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
        product: "AMD Instinct MI300X",
        elf_mach: 0x04c,
        generic: Some("gfx9-4-generic"),
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
};

const GFX950: Target = Target {
    name: "gfx950",
    family: Family::Gfx9,
    table: "gfx950",
    agprs: true,
    unified_agprs: true,
    fp8_fnuz: false,
    packed_tid: true,
    arch_flat_scratch: true,
    aliases: &[],
    sq_accumulation: Some((1, 200)),
    blocks: block_tables::GFX950,
    model: GpuModel {
        name: "gfx950",
        isa: "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-",
        product: "AMD Instinct MI355X",
        elf_mach: 0x04f,
        generic: Some("gfx9-4-generic"),
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
};

const GFX1030: Target = Target {
    name: "gfx1030",
    family: Family::Gfx10,
    table: "gfx1030",
    agprs: false,
    unified_agprs: false,
    fp8_fnuz: false,
    packed_tid: false,
    arch_flat_scratch: false,
    aliases: &[],
    sq_accumulation: Some((1, 1)),
    blocks: block_tables::GFX1030,
    model: GpuModel {
        name: "gfx1030",
        isa: "amdgcn-amd-amdhsa--gfx1030",
        product: "AMD Radeon RX 6900 XT",
        elf_mach: 0x036,
        generic: Some("gfx10-3-generic"),
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
};

const GFX1100: Target = Target {
    name: "gfx1100",
    family: Family::Gfx11,
    table: "gfx1100",
    agprs: false,
    unified_agprs: false,
    fp8_fnuz: false,
    packed_tid: true,
    arch_flat_scratch: true,
    aliases: &[],
    sq_accumulation: Some((1, 1)),
    blocks: block_tables::GFX1100,
    model: GpuModel {
        name: "gfx1100",
        isa: "amdgcn-amd-amdhsa--gfx1100",
        product: "AMD Radeon RX 7900 XTX",
        elf_mach: 0x041,
        generic: Some("gfx11-generic"),
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
};

const GFX1201: Target = Target {
    name: "gfx1201",
    family: Family::Gfx12,
    table: "gfx1201",
    agprs: false,
    unified_agprs: false,
    fp8_fnuz: false,
    packed_tid: true,
    arch_flat_scratch: true,
    aliases: &[],
    sq_accumulation: None,
    blocks: block_tables::GFX1201,
    model: GpuModel {
        name: "gfx1201",
        isa: "amdgcn-amd-amdhsa--gfx1201",
        product: "AMD Radeon RX 9070 XT",
        elf_mach: 0x04e,
        generic: Some("gfx12-generic"),
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
};
