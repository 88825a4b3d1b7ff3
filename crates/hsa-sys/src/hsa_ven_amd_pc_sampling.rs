//! AMD PC-sampling extension types and function types (AMD `hsa_ven_amd_pc_sampling.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct perf_sample_hosttrap_v1_t {
    pub pc: u64,
    pub exec_mask: u64,
    pub workgroup_id_x: u32,
    pub workgroup_id_y: u32,
    pub workgroup_id_z: u32,
    /// bit-fields (LSB first): wave_in_wg:6 chiplet:3 reserved:23
    pub _bitfield_0: u32,
    pub hw_id: u32,
    pub reserved0: u32,
    pub reserved1: u64,
    pub timestamp: u64,
    pub correlation_id: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct perf_sample_snapshot_v1_t {
    pub pc: u64,
    pub exec_mask: u64,
    pub workgroup_id_x: u32,
    pub workgroup_id_y: u32,
    pub workgroup_id_z: u32,
    /// bit-fields (LSB first): wave_in_wg:6 chiplet:3 reserved:23
    pub _bitfield_0: u32,
    pub hw_id: u32,
    pub perf_snapshot_data: u32,
    pub perf_snapshot_data1: u32,
    pub perf_snapshot_data2: u32,
    pub timestamp: u64,
    pub correlation_id: u64,
}

pub type hsa_ven_amd_pcs_method_kind_t = c_uint;
pub const HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1: hsa_ven_amd_pcs_method_kind_t = 0;
pub const HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1: hsa_ven_amd_pcs_method_kind_t = 1;

pub type hsa_ven_amd_pcs_units_t = c_uint;
pub const HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS: hsa_ven_amd_pcs_units_t = 0;
pub const HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES: hsa_ven_amd_pcs_units_t = 1;
pub const HSA_VEN_AMD_PCS_INTERVAL_UNITS_INSTRUCTIONS: hsa_ven_amd_pcs_units_t = 2;

pub type hsa_ven_amd_pcs_data_copy_callback_t = Option<
    unsafe extern "C" fn(hsa_callback_data: *mut c_void, data_size: usize, destination: *mut c_void) -> hsa_status_t,
>;

pub type hsa_ven_amd_pcs_data_ready_callback_t = Option<
    unsafe extern "C" fn(
        client_callback_data: *mut c_void,
        data_size: usize,
        lost_sample_count: usize,
        data_copy_callback: hsa_ven_amd_pcs_data_copy_callback_t,
        hsa_callback_data: *mut c_void,
    ),
>;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_ven_amd_pcs_t {
    pub handle: u64,
}

pub type hsa_ven_amd_pcs_configuration_flags_t = c_uint;
pub const HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2: hsa_ven_amd_pcs_configuration_flags_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_pcs_configuration_t {
    pub method: hsa_ven_amd_pcs_method_kind_t,
    pub units: hsa_ven_amd_pcs_units_t,
    pub min_interval: usize,
    pub max_interval: usize,
    pub flags: u64,
}

pub type hsa_ven_amd_pcs_iterate_configuration_callback_t = Option<
    unsafe extern "C" fn(
        configuration: *const hsa_ven_amd_pcs_configuration_t,
        callback_data: *mut c_void,
    ) -> hsa_status_t,
>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ven_amd_pc_sampling_1_00_pfn_t {
    pub hsa_ven_amd_pcs_iterate_configuration: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            configuration_callback: hsa_ven_amd_pcs_iterate_configuration_callback_t,
            callback_data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_pcs_create: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            method: hsa_ven_amd_pcs_method_kind_t,
            units: hsa_ven_amd_pcs_units_t,
            interval: usize,
            latency: usize,
            buffer_size: usize,
            data_ready_callback: hsa_ven_amd_pcs_data_ready_callback_t,
            client_callback_data: *mut c_void,
            pc_sampling: *mut hsa_ven_amd_pcs_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_pcs_create_from_id: Option<
        unsafe extern "C" fn(
            pcs_id: u32,
            agent: hsa_agent_t,
            method: hsa_ven_amd_pcs_method_kind_t,
            units: hsa_ven_amd_pcs_units_t,
            interval: usize,
            latency: usize,
            buffer_size: usize,
            data_ready_callback: hsa_ven_amd_pcs_data_ready_callback_t,
            client_callback_data: *mut c_void,
            pc_sampling: *mut hsa_ven_amd_pcs_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_pcs_destroy: Option<unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t>,
    pub hsa_ven_amd_pcs_start: Option<unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t>,
    pub hsa_ven_amd_pcs_stop: Option<unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t>,
    pub hsa_ven_amd_pcs_flush: Option<unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t>,
}

// Function types.

/// Type of `hsa_ven_amd_pcs_iterate_configuration` (and of its `hsa_ven_amd_pcs_iterate_configuration_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_iterate_configuration = unsafe extern "C" fn(
    agent: hsa_agent_t,
    configuration_callback: hsa_ven_amd_pcs_iterate_configuration_callback_t,
    callback_data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_ven_amd_pcs_create` (and of its `hsa_ven_amd_pcs_create_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_create = unsafe extern "C" fn(
    agent: hsa_agent_t,
    method: hsa_ven_amd_pcs_method_kind_t,
    units: hsa_ven_amd_pcs_units_t,
    interval: usize,
    latency: usize,
    buffer_size: usize,
    data_ready_callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_callback_data: *mut c_void,
    pc_sampling: *mut hsa_ven_amd_pcs_t,
) -> hsa_status_t;

/// Type of `hsa_ven_amd_pcs_create_from_id` (and of its `hsa_ven_amd_pcs_create_from_id_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_create_from_id = unsafe extern "C" fn(
    pcs_id: u32,
    agent: hsa_agent_t,
    method: hsa_ven_amd_pcs_method_kind_t,
    units: hsa_ven_amd_pcs_units_t,
    interval: usize,
    latency: usize,
    buffer_size: usize,
    data_ready_callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_callback_data: *mut c_void,
    pc_sampling: *mut hsa_ven_amd_pcs_t,
) -> hsa_status_t;

/// Type of `hsa_ven_amd_pcs_destroy` (and of its `hsa_ven_amd_pcs_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_destroy = unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t;

/// Type of `hsa_ven_amd_pcs_start` (and of its `hsa_ven_amd_pcs_start_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_start = unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t;

/// Type of `hsa_ven_amd_pcs_stop` (and of its `hsa_ven_amd_pcs_stop_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_stop = unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t;

/// Type of `hsa_ven_amd_pcs_flush` (and of its `hsa_ven_amd_pcs_flush_fn` API-table slot, if it has one).
pub type PFN_hsa_ven_amd_pcs_flush = unsafe extern "C" fn(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t;
