//! System information and extension queries: `hsa_system_get_info`, the extension support queries, and the
//! extension function tables handed out by `hsa_system_get_major_extension_table` (loader, PC sampling,
//! images). The PC-sampling and images tables point at the exported trampolines, so a tool that rewrote a
//! slot of the API table sees the calls made through them.

use std::ffi::{c_char, c_void, CStr};

use rocprof_hsa_sys::*;

use crate::abi;
use crate::clock;
use crate::ffi::put;
use crate::runtime::system;

/// `HSA_AMD_SYSTEM_INFO_BUILD_VERSION` string.
static BUILD_VERSION: &CStr = c"hsa-sim (rocprof-rs) 1.0";

pub(crate) unsafe extern "C" fn hsa_system_get_info(attribute: hsa_system_info_t, value: *mut c_void) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's documented type at `value` (every arm).
        unsafe {
            match attribute {
                HSA_SYSTEM_INFO_VERSION_MAJOR => put(value, 1u16),
                HSA_SYSTEM_INFO_VERSION_MINOR => put(value, 1u16),
                HSA_SYSTEM_INFO_TIMESTAMP => put(value, clock::system_ns()),
                HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY => put(value, 1_000_000_000u64),
                HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT => put(value, u64::MAX),
                HSA_SYSTEM_INFO_ENDIANNESS => put(value, HSA_ENDIANNESS_LITTLE),
                HSA_SYSTEM_INFO_MACHINE_MODEL => put(value, HSA_MACHINE_MODEL_LARGE),
                HSA_SYSTEM_INFO_EXTENSIONS => {
                    let mut mask = [0u8; 128];
                    for ext in [HSA_EXTENSION_AMD_PROFILER, HSA_EXTENSION_AMD_LOADER, HSA_EXTENSION_AMD_PC_SAMPLING] {
                        mask[(ext / 8) as usize] |= 1 << (ext % 8);
                    }
                    put(value, mask)
                }
                HSA_AMD_SYSTEM_INFO_BUILD_VERSION => put(value, BUILD_VERSION.as_ptr()),
                HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED => put(value, true),
                HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT => put(value, false),
                HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED => put(value, false),
                HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED => put(value, false),
                HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED => put(value, false),
                HSA_AMD_SYSTEM_INFO_XNACK_ENABLED => put(value, false),
                HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR if !abi::abi_is_5_2() => put(value, 1u16),
                HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR if !abi::abi_is_5_2() => put(value, 11u16),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

/// Loader extension version 1.03 (seven functions); `hsa_system_major_extension_supported` reports minor 0
/// like ROCr while the table copies up to the 1.03 size.
fn loader_table() -> hsa_ven_amd_loader_1_03_pfn_t {
    hsa_ven_amd_loader_1_03_pfn_t {
        hsa_ven_amd_loader_query_host_address: Some(crate::loader::hsa_ven_amd_loader_query_host_address),
        hsa_ven_amd_loader_query_segment_descriptors: Some(crate::loader::hsa_ven_amd_loader_query_segment_descriptors),
        hsa_ven_amd_loader_query_executable: Some(crate::loader::hsa_ven_amd_loader_query_executable),
        hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Some(
            crate::loader::hsa_ven_amd_loader_executable_iterate_loaded_code_objects,
        ),
        hsa_ven_amd_loader_loaded_code_object_get_info: Some(
            crate::loader::hsa_ven_amd_loader_loaded_code_object_get_info,
        ),
        hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Some(
            crate::loader::hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size,
        ),
        hsa_ven_amd_loader_iterate_executables: Some(crate::loader::hsa_ven_amd_loader_iterate_executables),
    }
}

fn supported_extension(extension: u16) -> bool {
    [HSA_EXTENSION_AMD_LOADER, HSA_EXTENSION_AMD_PROFILER, HSA_EXTENSION_AMD_PC_SAMPLING, HSA_EXTENSION_IMAGES]
        .contains(&u32::from(extension))
}

pub(crate) unsafe extern "C" fn hsa_system_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: u16,
    result: *mut bool,
) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if result.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let ok = supported_extension(extension) && version_major == 1 && version_minor == 0;
        // SAFETY: `result` is a non-null out-pointer supplied by the caller.
        unsafe { put(result.cast(), ok) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_system_major_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if result.is_null() || version_minor.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let ok = supported_extension(extension) && version_major == 1;
        // SAFETY: both out-pointers are non-null and supplied by the caller.
        unsafe {
            put(result.cast(), ok);
            if ok {
                put(version_minor.cast(), 0u16);
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_system_get_major_extension_table(
    extension: u16,
    version_major: u16,
    table_length: usize,
    table: *mut c_void,
) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if table.is_null() || table_length == 0 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if u32::from(extension) == HSA_EXTENSION_AMD_PC_SAMPLING && version_major == 1 {
            // The PC-sampling table 1.00 (`hsa_ven_amd_pc_sampling_1_00_pfn_t`), through the live slots.
            let t = pcs_table();
            let n = table_length.min(size_of::<hsa_ven_amd_pc_sampling_1_00_pfn_t>());
            // SAFETY: copies `n` bytes of a local POD table into the caller's buffer of `table_length >= n` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (&t as *const hsa_ven_amd_pc_sampling_1_00_pfn_t).cast::<u8>(),
                    table.cast::<u8>(),
                    n,
                )
            };
            return Ok(());
        }
        if u32::from(extension) == HSA_EXTENSION_IMAGES && version_major == 1 {
            // SAFETY: `table` holds `table_length` bytes (checked non-null and non-empty above).
            unsafe { copy_images_table(table, table_length) };
            return Ok(());
        }
        if u32::from(extension) != HSA_EXTENSION_AMD_LOADER || version_major != 1 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let t = loader_table();
        let n = table_length.min(size_of::<hsa_ven_amd_loader_1_03_pfn_t>());
        // SAFETY: copies `n` bytes of a local POD table into the caller's buffer of `table_length >= n` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (&t as *const hsa_ven_amd_loader_1_03_pfn_t).cast::<u8>(),
                table.cast::<u8>(),
                n,
            )
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_system_get_extension_table(
    extension: u16,
    version_major: u16,
    version_minor: u16,
    table: *mut c_void,
) -> hsa_status_t {
    if version_minor != 0 {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // SAFETY: the deprecated entry point copies the 1.00 table (three functions) as ROCr does.
    unsafe {
        hsa_system_get_major_extension_table(
            extension,
            version_major,
            size_of::<hsa_ven_amd_loader_1_00_pfn_t>(),
            table,
        )
    }
}

pub(crate) unsafe extern "C" fn hsa_extension_get_name(extension: u16, name: *mut *const c_char) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if name.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let s: &'static CStr = match u32::from(extension) {
            HSA_EXTENSION_FINALIZER => c"HSA_EXTENSION_FINALIZER",
            HSA_EXTENSION_IMAGES => c"HSA_EXTENSION_IMAGES",
            HSA_EXTENSION_PERFORMANCE_COUNTERS => c"HSA_EXTENSION_PERFORMANCE_COUNTERS",
            HSA_EXTENSION_PROFILING_EVENTS => c"HSA_EXTENSION_PROFILING_EVENTS",
            HSA_EXTENSION_AMD_PROFILER => c"HSA_EXTENSION_AMD_PROFILER",
            HSA_EXTENSION_AMD_LOADER => c"HSA_EXTENSION_AMD_LOADER",
            HSA_EXTENSION_AMD_AQLPROFILE => c"HSA_EXTENSION_AMD_AQLPROFILE",
            _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
        };
        // SAFETY: `name` is a non-null out-pointer; the string is static.
        unsafe { put(name.cast(), s.as_ptr()) };
        Ok(())
    })
}

/// The extension's function table as `hsa_system_get_major_extension_table` hands it out: the exported
/// trampolines, so a tool that rewrote a slot of the API table sees the calls made through it.
fn pcs_table() -> hsa_ven_amd_pc_sampling_1_00_pfn_t {
    hsa_ven_amd_pc_sampling_1_00_pfn_t {
        hsa_ven_amd_pcs_iterate_configuration: Some(crate::exports::hsa_ven_amd_pcs_iterate_configuration),
        hsa_ven_amd_pcs_create: Some(crate::exports::hsa_ven_amd_pcs_create),
        hsa_ven_amd_pcs_create_from_id: Some(crate::exports::hsa_ven_amd_pcs_create_from_id),
        hsa_ven_amd_pcs_destroy: Some(crate::exports::hsa_ven_amd_pcs_destroy),
        hsa_ven_amd_pcs_start: Some(crate::exports::hsa_ven_amd_pcs_start),
        hsa_ven_amd_pcs_stop: Some(crate::exports::hsa_ven_amd_pcs_stop),
        hsa_ven_amd_pcs_flush: Some(crate::exports::hsa_ven_amd_pcs_flush),
    }
}

/// Copies the images extension's function table 1.01 (`hsa_ext_images_1_pfn_t`; a shorter buffer gets the
/// 1.00 prefix) into `table`: the exported entry points, so calls go through the live API table as direct
/// calls do.
///
/// # Safety
/// `table` is valid for writes of `len` bytes.
unsafe fn copy_images_table(table: *mut c_void, len: usize) {
    use crate::exports as x;
    let t = hsa_ext_images_1_pfn_t {
        hsa_ext_image_get_capability: Some(x::hsa_ext_image_get_capability),
        hsa_ext_image_data_get_info: Some(x::hsa_ext_image_data_get_info),
        hsa_ext_image_create: Some(x::hsa_ext_image_create),
        hsa_ext_image_destroy: Some(x::hsa_ext_image_destroy),
        hsa_ext_image_copy: Some(x::hsa_ext_image_copy),
        hsa_ext_image_import: Some(x::hsa_ext_image_import),
        hsa_ext_image_export: Some(x::hsa_ext_image_export),
        hsa_ext_image_clear: Some(x::hsa_ext_image_clear),
        hsa_ext_sampler_create: Some(x::hsa_ext_sampler_create),
        hsa_ext_sampler_destroy: Some(x::hsa_ext_sampler_destroy),
        hsa_ext_image_get_capability_with_layout: Some(x::hsa_ext_image_get_capability_with_layout),
        hsa_ext_image_data_get_info_with_layout: Some(x::hsa_ext_image_data_get_info_with_layout),
        hsa_ext_image_create_with_layout: Some(x::hsa_ext_image_create_with_layout),
        hsa_ext_sampler_create_v2: Some(x::hsa_ext_sampler_create_v2),
    };
    let n = len.min(size_of::<hsa_ext_images_1_pfn_t>());
    // SAFETY: copies `n <= len` bytes of a local POD table into the caller's buffer.
    unsafe { std::ptr::copy_nonoverlapping((&t as *const hsa_ext_images_1_pfn_t).cast::<u8>(), table.cast::<u8>(), n) };
}
