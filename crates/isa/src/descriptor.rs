//! The AMDHSA kernel descriptor a dispatch starts from.

/// The fields of an AMDHSA kernel descriptor (code object v3+, 64 bytes; `amd_hsa_kernel_descriptor.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// LDS the kernel declares.
    pub group_segment_fixed_size: u32,
    /// Scratch per work-item the kernel declares.
    pub private_segment_fixed_size: u32,
    /// Kernel argument bytes.
    pub kernarg_size: u32,
    /// Entry point relative to the descriptor's address.
    pub kernel_code_entry_byte_offset: i64,
    /// `COMPUTE_PGM_RSRC3`.
    pub rsrc3: u32,
    /// `COMPUTE_PGM_RSRC1`.
    pub rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`.
    pub rsrc2: u32,
    /// `kernel_code_properties`.
    pub properties: u16,
    /// `kernarg_preload` (gfx940, gfx12).
    pub kernarg_preload: u16,
}

impl KernelDescriptor {
    /// Parses 64 descriptor bytes.
    pub fn parse(b: &[u8; 64]) -> Self {
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(b[16..24].try_into().expect("8 bytes")),
            rsrc3: u32_at(44),
            rsrc1: u32_at(48),
            rsrc2: u32_at(52),
            properties: u16::from_le_bytes([b[56], b[57]]),
            kernarg_preload: u16::from_le_bytes([b[58], b[59]]),
        }
    }

    /// The kernel runs in wave32 (`ENABLE_WAVEFRONT_SIZE32`, gfx10+).
    pub fn wave32(&self) -> bool {
        self.properties & (1 << 10) != 0
    }

    /// VGPR rows the kernel may use (granulated count, generous; AGPRs separately).
    pub(crate) fn vgprs(&self) -> usize {
        (((self.rsrc1 & 0x3f) as usize + 1) * 8).min(256)
    }
}
