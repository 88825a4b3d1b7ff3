//! Loader extension (placeholder).

pub(crate) fn memory_freed(_addr: usize, _size: usize) {}

/// `struct r_debug` as glibc defines it; ROCr exports one named `_amdgpu_r_debug` for GPU debuggers.
#[repr(C)]
pub struct RDebug {
    r_version: i32,
    r_map: usize,
    r_brk: usize,
    r_state: i32,
    r_ldbase: usize,
}

/// Exported like ROCr's (debuggers look it up); the simulator keeps no GPU link map, so the list is empty.
#[no_mangle]
pub static _amdgpu_r_debug: RDebug = RDebug { r_version: 1, r_map: 0, r_brk: 0, r_state: 0, r_ldbase: 0 };
