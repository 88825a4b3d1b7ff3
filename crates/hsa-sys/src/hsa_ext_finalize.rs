//! HSA finalizer extension types and function types (AMD `hsa_ext_finalize.h`); ROCr ships stubs only.
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

/// Opaque BRIG module header (`struct BrigModuleHeader`, declared but not defined in `hsa_ext_finalize.h`).
#[repr(C)]
pub struct BrigModuleHeader {
    _private: [u8; 0],
}

pub type BrigModule_t = *mut BrigModuleHeader;

pub const HSA_EXT_STATUS_ERROR_INVALID_PROGRAM: c_uint = 8192;
pub const HSA_EXT_STATUS_ERROR_INVALID_MODULE: c_uint = 8193;
pub const HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE: c_uint = 8194;
pub const HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED: c_uint = 8195;
pub const HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH: c_uint = 8196;
pub const HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED: c_uint = 8197;
pub const HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH: c_uint = 8198;

pub type hsa_ext_module_t = BrigModule_t;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_ext_program_s {
    pub handle: u64,
}

pub type hsa_ext_program_t = hsa_ext_program_s;

pub type hsa_ext_program_info_t = c_uint;
pub const HSA_EXT_PROGRAM_INFO_MACHINE_MODEL: hsa_ext_program_info_t = 0;
pub const HSA_EXT_PROGRAM_INFO_PROFILE: hsa_ext_program_info_t = 1;
pub const HSA_EXT_PROGRAM_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_ext_program_info_t = 2;

pub type hsa_ext_finalizer_call_convention_t = c_int;
pub const HSA_EXT_FINALIZER_CALL_CONVENTION_AUTO: hsa_ext_finalizer_call_convention_t = -1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_control_directives_s {
    pub control_directives_mask: u64,
    pub break_exceptions_mask: u16,
    pub detect_exceptions_mask: u16,
    pub max_dynamic_group_size: u32,
    pub max_flat_grid_size: u64,
    pub max_flat_workgroup_size: u32,
    pub reserved1: u32,
    pub required_grid_size: [u64; 3],
    pub required_workgroup_size: hsa_dim3_t,
    pub required_dim: u8,
    pub reserved2: [u8; 75],
}

pub type hsa_ext_control_directives_t = hsa_ext_control_directives_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_finalizer_1_00_pfn_s {
    pub hsa_ext_program_create: Option<
        unsafe extern "C" fn(
            machine_model: hsa_machine_model_t,
            profile: hsa_profile_t,
            default_float_rounding_mode: hsa_default_float_rounding_mode_t,
            options: *const c_char,
            program: *mut hsa_ext_program_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_program_destroy: Option<unsafe extern "C" fn(program: hsa_ext_program_t) -> hsa_status_t>,
    pub hsa_ext_program_add_module:
        Option<unsafe extern "C" fn(program: hsa_ext_program_t, module: hsa_ext_module_t) -> hsa_status_t>,
    pub hsa_ext_program_iterate_modules: Option<
        unsafe extern "C" fn(
            program: hsa_ext_program_t,
            callback: Option<
                unsafe extern "C" fn(
                    program: hsa_ext_program_t,
                    module: hsa_ext_module_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_program_get_info: Option<
        unsafe extern "C" fn(
            program: hsa_ext_program_t,
            attribute: hsa_ext_program_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_program_finalize: Option<
        unsafe extern "C" fn(
            program: hsa_ext_program_t,
            isa: hsa_isa_t,
            call_convention: i32,
            control_directives: hsa_ext_control_directives_t,
            options: *const c_char,
            code_object_type: hsa_code_object_type_t,
            code_object: *mut hsa_code_object_t,
        ) -> hsa_status_t,
    >,
}

pub type hsa_ext_finalizer_1_00_pfn_t = hsa_ext_finalizer_1_00_pfn_s;

// Function types.

/// Type of `hsa_ext_program_create` (and of its `hsa_ext_program_create_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_program_create = unsafe extern "C" fn(
    machine_model: hsa_machine_model_t,
    profile: hsa_profile_t,
    default_float_rounding_mode: hsa_default_float_rounding_mode_t,
    options: *const c_char,
    program: *mut hsa_ext_program_t,
) -> hsa_status_t;

/// Type of `hsa_ext_program_destroy` (and of its `hsa_ext_program_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_program_destroy = unsafe extern "C" fn(program: hsa_ext_program_t) -> hsa_status_t;

/// Type of `hsa_ext_program_add_module` (and of its `hsa_ext_program_add_module_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_program_add_module =
    unsafe extern "C" fn(program: hsa_ext_program_t, module: hsa_ext_module_t) -> hsa_status_t;

/// Type of `hsa_ext_program_iterate_modules` (and of its `hsa_ext_program_iterate_modules_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_program_iterate_modules = unsafe extern "C" fn(
    program: hsa_ext_program_t,
    callback: Option<
        unsafe extern "C" fn(program: hsa_ext_program_t, module: hsa_ext_module_t, data: *mut c_void) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_ext_program_get_info` (and of its `hsa_ext_program_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_program_get_info = unsafe extern "C" fn(
    program: hsa_ext_program_t,
    attribute: hsa_ext_program_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_ext_program_finalize` (and of its `hsa_ext_program_finalize_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_program_finalize = unsafe extern "C" fn(
    program: hsa_ext_program_t,
    isa: hsa_isa_t,
    call_convention: i32,
    control_directives: hsa_ext_control_directives_t,
    options: *const c_char,
    code_object_type: hsa_code_object_type_t,
    code_object: *mut hsa_code_object_t,
) -> hsa_status_t;
