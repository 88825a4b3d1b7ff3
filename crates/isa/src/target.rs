//! The GPU targets the decoder and interpreter know: family, opcode table and the few properties that
//! change how a wave starts or what an instruction means.

/// An instruction-set family. Encodings and opcode numbers differ between families; within a family the
/// targets differ only in which opcodes exist (the per-target tables say).
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

/// One target's facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Target name without features, e.g. `gfx90a`.
    pub name: &'static str,
    /// Instruction-set family.
    pub family: Family,
    /// Name of the opcode table (`tables/<table>.txt`).
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
    /// Scratch is addressed through architected flat scratch (no private segment buffer or
    /// flat-scratch-init user SGPRs): gfx94x and gfx11+... gfx12.
    pub arch_flat_scratch: bool,
}

/// Every target with an opcode table.
pub static TARGETS: &[Target] = &[
    Target {
        name: "gfx908",
        family: Family::Gfx9,
        table: "gfx908",
        agprs: true,
        unified_agprs: false,
        packed_tid: false,
        arch_flat_scratch: false,
    },
    Target {
        name: "gfx90a",
        family: Family::Gfx9,
        table: "gfx90a",
        agprs: true,
        unified_agprs: true,
        packed_tid: true,
        arch_flat_scratch: false,
    },
    Target {
        name: "gfx942",
        family: Family::Gfx9,
        table: "gfx942",
        agprs: true,
        unified_agprs: true,
        packed_tid: true,
        arch_flat_scratch: true,
    },
    Target {
        name: "gfx950",
        family: Family::Gfx9,
        table: "gfx950",
        agprs: true,
        unified_agprs: true,
        packed_tid: true,
        arch_flat_scratch: true,
    },
    Target {
        name: "gfx1030",
        family: Family::Gfx10,
        table: "gfx1030",
        agprs: false,
        unified_agprs: false,
        packed_tid: false,
        arch_flat_scratch: false,
    },
    Target {
        name: "gfx1100",
        family: Family::Gfx11,
        table: "gfx1100",
        agprs: false,
        unified_agprs: false,
        packed_tid: true,
        arch_flat_scratch: true,
    },
    Target {
        name: "gfx1201",
        family: Family::Gfx12,
        table: "gfx1201",
        agprs: false,
        unified_agprs: false,
        packed_tid: true,
        arch_flat_scratch: true,
    },
];

impl Target {
    /// The target called `name`; features after a colon (`gfx90a:sramecc+:xnack-`) and an
    /// `amdgcn-amd-amdhsa--` prefix are ignored.
    pub fn find(name: &str) -> Option<&'static Target> {
        let name = name.rsplit("--").next().unwrap_or(name);
        let name = name.split(':').next().unwrap_or(name);
        TARGETS.iter().find(|t| t.name == name)
    }

    /// The target of an `EF_AMDGPU_MACH_*` value from a code object's ELF header (`amd_hsa_elf.h`).
    pub fn from_elf_mach(mach: u32) -> Option<&'static Target> {
        let name = match mach {
            0x030 => "gfx908",
            0x03f => "gfx90a",
            0x04c => "gfx942",
            0x04f => "gfx950",
            0x036 => "gfx1030",
            0x041 => "gfx1100",
            0x04e => "gfx1201",
            _ => return None,
        };
        Self::find(name)
    }
}
