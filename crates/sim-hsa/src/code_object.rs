//! Code objects (placeholder).

/// What the packet processor needs about a loaded kernel.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KernelInfo {
    pub(crate) kernarg_size: u32,
    pub(crate) group_segment_size: u32,
    pub(crate) private_segment_size: u32,
    pub(crate) wave32: bool,
    pub(crate) code_bytes: u64,
}

pub(crate) fn kernel_info(_kernel_object: u64) -> Option<KernelInfo> {
    None
}
