//! HIP host functions: what `__hipRegisterFunction` told HIP (host stub address -> device
//! function name, in which fat binary), matched to the kernel symbols of the loaded code objects,
//! as rocprofv3 reports them (`host_functions` of its JSON output).
//!
//! rocprofiler-sdk keeps every registration by device function name and, when a kernel symbol
//! of a code object is reported, looks the symbol's device name (the code object metadata's
//! `.name`, i.e. the symbol without `.kd`) up among them: each match becomes one host function,
//! numbered 1, 2, ... in the order the symbols are reported, carrying the symbol's kernel and code
//! object ids. A kernel loaded in two code objects (two GPUs) has two host functions; a kernel
//! no registration names (a `hipModuleLoad`ed one, an HSA program's) has none.

use crate::records::{CodeObjectId, KernelId, StringId};

/// One host function: a registration matched to a kernel symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HostFunction {
    /// Our id, 1, 2, ... (rocprofv3's `host_function_id`).
    pub id: u64,
    /// The kernel symbol the registration matched.
    pub kernel: KernelId,
    /// That symbol's code object.
    pub code_object: CodeObjectId,
    /// The host function (stub) address the application launches with.
    pub host_function: u64,
    /// The `modules` handle of the fat binary it was registered with.
    pub modules: u64,
    /// The registered device function name (mangled, no `.kd`).
    pub device_function: StringId,
    /// The matched symbol's formatted name (rocprofv3's `formatted_host_function_name`, formatted
    /// from the same device name).
    pub formatted_name: StringId,
    /// The matched symbol's demangled name without `.kd` (`demangled_host_function_name`).
    pub demangled_name: StringId,
    /// The matched symbol's truncated name (`truncated_host_function_name`).
    pub truncated_name: StringId,
    /// `threadLimit` as registered.
    pub thread_limit: u32,
    /// `*tid` (0 when HIP passed no pointer, as it does).
    pub thread_ids: [u32; 3],
    /// `*bid`.
    pub block_ids: [u32; 3],
    /// `*blockDim`.
    pub block_dims: [u32; 3],
    /// `*gridDim`.
    pub grid_dims: [u32; 3],
    /// `*wSize`.
    pub workgroup_size: u64,
}
