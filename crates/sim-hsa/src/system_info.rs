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
            // The PC-sampling table 1.00 (`hsa_ven_amd_pc_sampling_1_00_pfn_t`): the exported trampolines.
            let t = crate::table::defaults().ok_or(HSA_STATUS_ERROR_NOT_INITIALIZED)?.pcs_extension;
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
            // The images table 1.01 (`hsa_ext_images_1_pfn_t`; a shorter buffer gets the 1.00 prefix): the
            // exported trampolines.
            let t = crate::table::defaults().ok_or(HSA_STATUS_ERROR_NOT_INITIALIZED)?.images_extension;
            let n = table_length.min(size_of::<hsa_ext_images_1_pfn_t>());
            // SAFETY: copies `n` bytes of a local POD table into the caller's buffer of `table_length >= n` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping((&t as *const hsa_ext_images_1_pfn_t).cast::<u8>(), table.cast::<u8>(), n)
            };
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

#[cfg(test)]
mod tests {
    use super::hsa_system_get_major_extension_table;
    use crate::testing::*;
    use rocprof_hsa_sys::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    static CALLS: AtomicU32 = AtomicU32::new(0);

    unsafe extern "C" fn counting_sampler_destroy(_: hsa_agent_t, _: hsa_ext_sampler_t) -> hsa_status_t {
        CALLS.fetch_add(1, Ordering::Relaxed);
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT
    }

    /// The images table handed out holds the exported entry points, as ROCr's does: after a tool rewrote a
    /// slot of the live API table, a call made through the handed-out table reaches the tool's function; a
    /// buffer of the 1.00 table's size (AMD's `hsa_ext_images_1_00_pfn_t`) gets only that prefix.
    #[test]
    fn the_images_table_handed_out_calls_through_the_live_api_table() {
        let _g = TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        // SAFETY: all-zero is a valid table of nullable function pointers.
        let mut t: hsa_ext_images_1_pfn_t = unsafe { std::mem::zeroed() };
        // SAFETY: `t` is writable for its size.
        let rc = unsafe {
            hsa_system_get_major_extension_table(
                HSA_EXTENSION_IMAGES as u16,
                1,
                std::mem::size_of_val(&t),
                (&mut t as *mut hsa_ext_images_1_pfn_t).cast(),
            )
        };
        assert_eq!(rc, HSA_STATUS_SUCCESS);
        let live = crate::table::LIVE.get();
        // SAFETY: a whole-slot write into the live tables, as a tool makes it (the `LiveTables` invariant).
        let saved = unsafe { std::ptr::addr_of!((*live).image.hsa_ext_sampler_destroy_fn).read_volatile() };
        // SAFETY: as above.
        unsafe {
            std::ptr::addr_of_mut!((*live).image.hsa_ext_sampler_destroy_fn)
                .write_volatile(Some(counting_sampler_destroy))
        };
        // SAFETY: the handed-out entry point with a live agent; the tool's function ignores the sampler.
        let rc = unsafe { t.hsa_ext_sampler_destroy.unwrap()(gpu, hsa_ext_sampler_t { handle: 0 }) };
        // SAFETY: as above.
        unsafe { std::ptr::addr_of_mut!((*live).image.hsa_ext_sampler_destroy_fn).write_volatile(saved) };
        assert_eq!((rc, CALLS.load(Ordering::Relaxed)), (HSA_STATUS_ERROR_INVALID_CODE_OBJECT, 1));
        assert!(t.hsa_ext_sampler_create_v2.is_some());

        // SAFETY: all-zero is a valid table of nullable function pointers.
        let mut short: hsa_ext_images_1_pfn_t = unsafe { std::mem::zeroed() };
        // SAFETY: `short` is writable for more than the 1.00 prefix's size.
        let rc = unsafe {
            hsa_system_get_major_extension_table(
                HSA_EXTENSION_IMAGES as u16,
                1,
                std::mem::size_of::<hsa_ext_images_1_00_pfn_t>(),
                (&mut short as *mut hsa_ext_images_1_pfn_t).cast(),
            )
        };
        assert_eq!(rc, HSA_STATUS_SUCCESS);
        assert!(short.hsa_ext_sampler_destroy.is_some());
        assert!(short.hsa_ext_image_get_capability_with_layout.is_none(), "only the 1.00 prefix is copied");
        shut_down();
    }
}
