//! AMD loader extension: loaded-code-object queries and the extension function tables (AMD `hsa_ven_amd_loader.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub type hsa_ven_amd_loader_code_object_storage_type_t = c_uint;
pub const HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE: hsa_ven_amd_loader_code_object_storage_type_t = 0;
pub const HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE: hsa_ven_amd_loader_code_object_storage_type_t = 1;
pub const HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY: hsa_ven_amd_loader_code_object_storage_type_t = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_loader_segment_descriptor_s {
    pub agent: hsa_agent_t,
    pub executable: hsa_executable_t,
    pub code_object_storage_type: hsa_ven_amd_loader_code_object_storage_type_t,
    pub code_object_storage_base: *const c_void,
    pub code_object_storage_size: usize,
    pub code_object_storage_offset: usize,
    pub segment_base: *const c_void,
    pub segment_size: usize,
}

pub type hsa_ven_amd_loader_segment_descriptor_t = hsa_ven_amd_loader_segment_descriptor_s;

pub type hsa_ven_amd_loader_loaded_code_object_kind_t = c_uint;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM: hsa_ven_amd_loader_loaded_code_object_kind_t = 1;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT: hsa_ven_amd_loader_loaded_code_object_kind_t = 2;

pub type hsa_ven_amd_loader_loaded_code_object_info_t = c_uint;
pub type hsa_ven_amd_loader_loaded_code_object_info_e = c_uint;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE: hsa_ven_amd_loader_loaded_code_object_info_t = 1;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND: hsa_ven_amd_loader_loaded_code_object_info_t = 2;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT: hsa_ven_amd_loader_loaded_code_object_info_t = 3;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 4;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 5;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 6;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 7;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA: hsa_ven_amd_loader_loaded_code_object_info_t = 8;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE: hsa_ven_amd_loader_loaded_code_object_info_t = 9;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE: hsa_ven_amd_loader_loaded_code_object_info_t = 10;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH: hsa_ven_amd_loader_loaded_code_object_info_t = 11;
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI: hsa_ven_amd_loader_loaded_code_object_info_t = 12;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_loader_1_00_pfn_s {
    pub hsa_ven_amd_loader_query_host_address:
        Option<unsafe extern "C" fn(device_address: *const c_void, host_address: *mut *const c_void) -> hsa_status_t>,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable:
        Option<unsafe extern "C" fn(device_address: *const c_void, executable: *mut hsa_executable_t) -> hsa_status_t>,
}

pub type hsa_ven_amd_loader_1_00_pfn_t = hsa_ven_amd_loader_1_00_pfn_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_loader_1_01_pfn_s {
    pub hsa_ven_amd_loader_query_host_address:
        Option<unsafe extern "C" fn(device_address: *const c_void, host_address: *mut *const c_void) -> hsa_status_t>,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable:
        Option<unsafe extern "C" fn(device_address: *const c_void, executable: *mut hsa_executable_t) -> hsa_status_t>,
    pub hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    loaded_code_object: hsa_loaded_code_object_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_loaded_code_object_get_info: Option<
        unsafe extern "C" fn(
            loaded_code_object: hsa_loaded_code_object_t,
            attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
}

pub type hsa_ven_amd_loader_1_01_pfn_t = hsa_ven_amd_loader_1_01_pfn_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_loader_1_02_pfn_s {
    pub hsa_ven_amd_loader_query_host_address:
        Option<unsafe extern "C" fn(device_address: *const c_void, host_address: *mut *const c_void) -> hsa_status_t>,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable:
        Option<unsafe extern "C" fn(device_address: *const c_void, executable: *mut hsa_executable_t) -> hsa_status_t>,
    pub hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    loaded_code_object: hsa_loaded_code_object_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_loaded_code_object_get_info: Option<
        unsafe extern "C" fn(
            loaded_code_object: hsa_loaded_code_object_t,
            attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Option<
        unsafe extern "C" fn(
            file: hsa_file_t,
            offset: usize,
            size: usize,
            code_object_reader: *mut hsa_code_object_reader_t,
        ) -> hsa_status_t,
    >,
}

pub type hsa_ven_amd_loader_1_02_pfn_t = hsa_ven_amd_loader_1_02_pfn_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_loader_1_03_pfn_s {
    pub hsa_ven_amd_loader_query_host_address:
        Option<unsafe extern "C" fn(device_address: *const c_void, host_address: *mut *const c_void) -> hsa_status_t>,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable:
        Option<unsafe extern "C" fn(device_address: *const c_void, executable: *mut hsa_executable_t) -> hsa_status_t>,
    pub hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    loaded_code_object: hsa_loaded_code_object_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_loaded_code_object_get_info: Option<
        unsafe extern "C" fn(
            loaded_code_object: hsa_loaded_code_object_t,
            attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Option<
        unsafe extern "C" fn(
            file: hsa_file_t,
            offset: usize,
            size: usize,
            code_object_reader: *mut hsa_code_object_reader_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_iterate_executables: Option<
        unsafe extern "C" fn(
            callback: Option<unsafe extern "C" fn(executable: hsa_executable_t, data: *mut c_void) -> hsa_status_t>,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
}

pub type hsa_ven_amd_loader_1_03_pfn_t = hsa_ven_amd_loader_1_03_pfn_s;

// Function types.

/// Type of `hsa_ven_amd_loader_query_host_address` (and of its `hsa_ven_amd_loader_query_host_address_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_query_host_address =
    unsafe extern "C" fn(device_address: *const c_void, host_address: *mut *const c_void) -> hsa_status_t;

/// Type of `hsa_ven_amd_loader_query_segment_descriptors` (and of its `hsa_ven_amd_loader_query_segment_descriptors_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_query_segment_descriptors = unsafe extern "C" fn(
    segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
    num_segment_descriptors: *mut usize,
) -> hsa_status_t;

/// Type of `hsa_ven_amd_loader_query_executable` (and of its `hsa_ven_amd_loader_query_executable_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_query_executable =
    unsafe extern "C" fn(device_address: *const c_void, executable: *mut hsa_executable_t) -> hsa_status_t;

/// Type of `hsa_ven_amd_loader_executable_iterate_loaded_code_objects` (and of its `hsa_ven_amd_loader_executable_iterate_loaded_code_objects_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_executable_iterate_loaded_code_objects = unsafe extern "C" fn(
    executable: hsa_executable_t,
    callback: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            loaded_code_object: hsa_loaded_code_object_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_ven_amd_loader_loaded_code_object_get_info` (and of its `hsa_ven_amd_loader_loaded_code_object_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_loaded_code_object_get_info = unsafe extern "C" fn(
    loaded_code_object: hsa_loaded_code_object_t,
    attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size` (and of its `hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
    unsafe extern "C" fn(
        file: hsa_file_t,
        offset: usize,
        size: usize,
        code_object_reader: *mut hsa_code_object_reader_t,
    ) -> hsa_status_t;

/// Type of `hsa_ven_amd_loader_iterate_executables` (and of its `hsa_ven_amd_loader_iterate_executables_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_loader_iterate_executables = unsafe extern "C" fn(
    callback: Option<unsafe extern "C" fn(executable: hsa_executable_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;
