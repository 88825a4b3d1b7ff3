//! The AMD loader extension (`hsa_ven_amd_loader_*`, version 1.03), reachable only through
//! `hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, ...)` as in ROCr, plus the exported
//! `_amdgpu_r_debug` debugger anchor.
//!
//! Host and device addresses are the same in the simulator, so `query_host_address` is the identity for
//! addresses inside a loaded segment (and `INVALID_ARGUMENT` otherwise, like ROCr). Storage type is always
//! MEMORY (2), as ROCr reports even for file-loaded code objects; LOAD_DELTA is `load_base - first vaddr`.

use std::ffi::c_void;

use rocprof_hsa_sys::*;

use crate::ffi::{put, put_chars, status, status_code};
use std::sync::Arc;

use crate::code_object::{self, all_loaded, LoadedCodeObject};
use crate::runtime::system;

fn containing(addr: u64) -> Option<(u64, Arc<LoadedCodeObject>)> {
    all_loaded().into_iter().find(|(_, l)| addr >= l.load_base && addr < l.load_base + l.load_size)
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_query_host_address(
    device_address: *const c_void,
    host_address: *mut *const c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        if device_address.is_null() || host_address.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        containing(device_address as u64).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(host_address.cast(), device_address) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_query_segment_descriptors(
    segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
    num_segment_descriptors: *mut usize,
) -> hsa_status_t {
    status(|| {
        system()?;
        if num_segment_descriptors.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let all = all_loaded();
        if segment_descriptors.is_null() {
            // SAFETY: non-null out-pointer.
            unsafe { put(num_segment_descriptors.cast(), all.len()) };
            return Ok(());
        }
        // SAFETY: the caller passes the capacity in `*num_segment_descriptors`.
        let cap = unsafe { num_segment_descriptors.read_unaligned() };
        if cap < all.len() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        for (i, (exe, l)) in all.iter().enumerate() {
            let d = hsa_ven_amd_loader_segment_descriptor_t {
                agent: l.agent.handle(),
                executable: hsa_executable_t { handle: *exe },
                code_object_storage_type: HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY,
                code_object_storage_base: l.elf.as_ptr().cast(),
                code_object_storage_size: l.elf.len(),
                code_object_storage_offset: 0,
                segment_base: l.load_base as *const c_void,
                segment_size: l.load_size as usize,
            };
            // SAFETY: index below the caller's capacity (checked).
            unsafe { segment_descriptors.add(i).write_unaligned(d) };
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(num_segment_descriptors.cast(), all.len()) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_query_executable(
    device_address: *const c_void,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        if device_address.is_null() || executable.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let (exe, _) = containing(device_address as u64).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(executable.cast(), hsa_executable_t { handle: exe }) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    executable: hsa_executable_t,
    callback: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            loaded_code_object: hsa_loaded_code_object_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        system()?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        let e = code_object::lookup_executable(executable)?;
        for l in code_object::loaded_of(&e) {
            // SAFETY: tool callback with its own data.
            let r = unsafe { cb(executable, hsa_loaded_code_object_t { handle: code_object::lco_handle(&l) }, data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_loaded_code_object_get_info(
    loaded_code_object: hsa_loaded_code_object_t,
    attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let l = code_object::lookup_lco(loaded_code_object)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE => {
                    put(value, hsa_executable_t { handle: l.executable })
                }
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND => {
                    put(value, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT)
                }
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT => put(value, l.agent.handle()),
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE => {
                    put(value, HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY)
                }
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE => {
                    put(value, l.elf.as_ptr() as u64)
                }
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE => {
                    put(value, l.elf.len() as u64)
                }
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA => put(value, l.load_delta),
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE => put(value, l.load_base),
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE => put(value, l.load_size),
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH => put(value, l.uri.len() as u32),
                HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI => put_chars(value, &l.uri, l.uri.len()),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    file: hsa_file_t,
    offset: usize,
    size: usize,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    status(|| code_object::reader_from_file_range(file, offset, size, code_object_reader))
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_loader_iterate_executables(
    callback: Option<unsafe extern "C" fn(executable: hsa_executable_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        system()?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for exe in code_object::all_executables() {
            // SAFETY: tool callback with its own data.
            let r = unsafe { cb(hsa_executable_t { handle: exe }, data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

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
