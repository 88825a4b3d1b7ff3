//! The runtime's API tables (`hsa_api_trace.h`): the structure ROCr hands to a tool's `OnLoad` and that
//! every exported `hsa_*` function jumps through.
//!
//! Two layouts exist and both are defined here with their C names:
//! * the newest ROCr (`ROCm/rocm-systems` `projects/rocr-runtime`, root table major 3 step 1) at the crate
//!   root, and
//! * ROCm 5.2 (Debian bookworm `libhsa-runtime-dev` 5.2.3) in [`rocm_5_2`], whose `AmdExtTable` has 48
//!   entries in a different order from entry 17 on, whose `ImageExtTable` lacks `hsa_ext_sampler_create_v2`
//!   and whose root table has no `tools_` / `pc_sampling_ext_` pointers.
//!
//! `minor_id` of every table is its `sizeof` in bytes; a consumer must check `offset < minor_id` before
//! reading an entry, and key the layout on `(major_id, minor_id)`, never on a compile-time constant.

use crate::*;
use core::mem::{offset_of, size_of};

/// Version header at offset 0 of every API table.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ApiTableVersion {
    /// Layout family: a consumer interprets a table only if it knows this major.
    pub major_id: u32,
    /// `sizeof` the table in bytes as compiled into the runtime (not a minor version).
    pub minor_id: u32,
    /// Number of append-only additions since the major was introduced.
    pub step_id: u32,
    /// Always 0.
    pub reserved: u32,
}

/// Vendor-packet format byte of an intercept marker (`AMD_AQL_FORMAT_INTERCEPT_MARKER`); such packets are
/// consumed by the intercept queue and never reach the hardware queue.
pub const AMD_AQL_FORMAT_INTERCEPT_MARKER: u32 = 0xFE;

/// Called by an intercept queue when it meets a marker packet: the packet, the underlying hardware queue
/// and the index the next packet will get in that hardware queue.
pub type amd_intercept_marker_handler =
    Option<unsafe extern "C" fn(packet: *const amd_aql_intercept_marker_s, queue: *mut hsa_queue_t, packet_id: u64)>;

/// `amd_aql_intercept_marker_t`: a vendor-specific AQL packet (large model, little endian layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct amd_aql_intercept_marker_s {
    /// Packet type must be `HSA_PACKET_TYPE_VENDOR_SPECIFIC`.
    pub header: u16,
    /// Must be [`AMD_AQL_FORMAT_INTERCEPT_MARKER`].
    pub format: u8,
    /// Must be 0.
    pub reserved: [u8; 5],
    pub callback: amd_intercept_marker_handler,
    pub user_data: [u64; 6],
}
/// C typedef of [`amd_aql_intercept_marker_s`].
pub type amd_aql_intercept_marker_t = amd_aql_intercept_marker_s;

/// Passes (possibly rewritten) packets to the next stage of an intercept queue; callable only from inside
/// the handler it was given to, on the same thread.
pub type hsa_amd_queue_intercept_packet_writer = Option<unsafe extern "C" fn(pkts: *const c_void, pkt_count: u64)>;
/// Rewrite handler of an intercept queue: called once per packet with `pkt_count == 1`.
pub type hsa_amd_queue_intercept_handler = Option<
    unsafe extern "C" fn(
        pkts: *const c_void,
        pkt_count: u64,
        user_pkt_index: u64,
        data: *mut c_void,
        writer: hsa_amd_queue_intercept_packet_writer,
    ),
>;
/// Notified for queues the runtime creates for its own use.
pub type hsa_amd_runtime_queue_notifier =
    Option<unsafe extern "C" fn(queue: *const hsa_queue_t, agent: hsa_agent_t, data: *mut c_void)>;

/// Type of `hsa_amd_queue_intercept_register` (table only, not exported).
pub type PFN_hsa_amd_queue_intercept_register = unsafe extern "C" fn(
    queue: *mut hsa_queue_t,
    callback: hsa_amd_queue_intercept_handler,
    user_data: *mut c_void,
) -> hsa_status_t;
/// Type of `hsa_amd_queue_intercept_create` (table only, not exported); parameters as `hsa_queue_create`.
pub type PFN_hsa_amd_queue_intercept_create = unsafe extern "C" fn(
    agent_handle: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<unsafe extern "C" fn(status: hsa_status_t, source: *mut hsa_queue_t, data: *mut c_void)>,
    data: *mut c_void,
    private_segment_size: u32,
    group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t;
/// Type of `hsa_amd_runtime_queue_create_register` (table only, not exported).
pub type PFN_hsa_amd_runtime_queue_create_register =
    unsafe extern "C" fn(callback: hsa_amd_runtime_queue_notifier, user_data: *mut c_void) -> hsa_status_t;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_API_TABLE_MAJOR_VERSION: u32 = 3;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_API_TABLE_STEP_VERSION: u32 = 1;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_CORE_API_TABLE_MAJOR_VERSION: u32 = 2;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_CORE_API_TABLE_STEP_VERSION: u32 = 0;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_AMD_EXT_API_TABLE_MAJOR_VERSION: u32 = 2;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_AMD_EXT_API_TABLE_STEP_VERSION: u32 = 7;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_FINALIZER_API_TABLE_MAJOR_VERSION: u32 = 2;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_FINALIZER_API_TABLE_STEP_VERSION: u32 = 0;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_IMAGE_API_TABLE_MAJOR_VERSION: u32 = 2;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_IMAGE_API_TABLE_STEP_VERSION: u32 = 1;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION: u32 = 1;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_AQLPROFILE_API_TABLE_STEP_VERSION: u32 = 0;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_TOOLS_API_TABLE_MAJOR_VERSION: u32 = 1;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_TOOLS_API_TABLE_STEP_VERSION: u32 = 0;

/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION: u32 = 1;

/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).
pub const HSA_PC_SAMPLING_API_TABLE_STEP_VERSION: u32 = 0;

/// `ToolsApiTable`: Tool callbacks the runtime invokes around scratch allocation; NULL unless a tool stores one.
///
/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
/// is below `version.minor_id` (the byte size the runtime was compiled with).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ToolsApiTable {
    pub version: ApiTableVersion,
    pub hsa_amd_tool_scratch_event_alloc_start_fn: hsa_amd_tool_event,
    pub hsa_amd_tool_scratch_event_alloc_end_fn: hsa_amd_tool_event,
    pub hsa_amd_tool_scratch_event_free_start_fn: hsa_amd_tool_event,
    pub hsa_amd_tool_scratch_event_free_end_fn: hsa_amd_tool_event,
    pub hsa_amd_tool_scratch_event_async_reclaim_start_fn: hsa_amd_tool_event,
    pub hsa_amd_tool_scratch_event_async_reclaim_end_fn: hsa_amd_tool_event,
}

/// `FinalizerExtTable`: Finalizer extension functions (stubs in ROCr).
///
/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
/// is below `version.minor_id` (the byte size the runtime was compiled with).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct FinalizerExtTable {
    pub version: ApiTableVersion,
    pub hsa_ext_program_create_fn: Option<PFN_hsa_ext_program_create>,
    pub hsa_ext_program_destroy_fn: Option<PFN_hsa_ext_program_destroy>,
    pub hsa_ext_program_add_module_fn: Option<PFN_hsa_ext_program_add_module>,
    pub hsa_ext_program_iterate_modules_fn: Option<PFN_hsa_ext_program_iterate_modules>,
    pub hsa_ext_program_get_info_fn: Option<PFN_hsa_ext_program_get_info>,
    pub hsa_ext_program_finalize_fn: Option<PFN_hsa_ext_program_finalize>,
}

/// `ImageExtTable`: Image extension functions.
///
/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
/// is below `version.minor_id` (the byte size the runtime was compiled with).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ImageExtTable {
    pub version: ApiTableVersion,
    pub hsa_ext_image_get_capability_fn: Option<PFN_hsa_ext_image_get_capability>,
    pub hsa_ext_image_data_get_info_fn: Option<PFN_hsa_ext_image_data_get_info>,
    pub hsa_ext_image_create_fn: Option<PFN_hsa_ext_image_create>,
    pub hsa_ext_image_import_fn: Option<PFN_hsa_ext_image_import>,
    pub hsa_ext_image_export_fn: Option<PFN_hsa_ext_image_export>,
    pub hsa_ext_image_copy_fn: Option<PFN_hsa_ext_image_copy>,
    pub hsa_ext_image_clear_fn: Option<PFN_hsa_ext_image_clear>,
    pub hsa_ext_image_destroy_fn: Option<PFN_hsa_ext_image_destroy>,
    pub hsa_ext_sampler_create_fn: Option<PFN_hsa_ext_sampler_create>,
    pub hsa_ext_sampler_destroy_fn: Option<PFN_hsa_ext_sampler_destroy>,
    pub hsa_ext_image_get_capability_with_layout_fn: Option<PFN_hsa_ext_image_get_capability_with_layout>,
    pub hsa_ext_image_data_get_info_with_layout_fn: Option<PFN_hsa_ext_image_data_get_info_with_layout>,
    pub hsa_ext_image_create_with_layout_fn: Option<PFN_hsa_ext_image_create_with_layout>,
    pub hsa_ext_sampler_create_v2_fn: Option<PFN_hsa_ext_sampler_create_v2>,
}

/// `PcSamplingExtTable`: PC-sampling extension functions.
///
/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
/// is below `version.minor_id` (the byte size the runtime was compiled with).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PcSamplingExtTable {
    pub version: ApiTableVersion,
    pub hsa_ven_amd_pcs_iterate_configuration_fn: Option<PFN_hsa_ven_amd_pcs_iterate_configuration>,
    pub hsa_ven_amd_pcs_create_fn: Option<PFN_hsa_ven_amd_pcs_create>,
    pub hsa_ven_amd_pcs_create_from_id_fn: Option<PFN_hsa_ven_amd_pcs_create_from_id>,
    pub hsa_ven_amd_pcs_destroy_fn: Option<PFN_hsa_ven_amd_pcs_destroy>,
    pub hsa_ven_amd_pcs_start_fn: Option<PFN_hsa_ven_amd_pcs_start>,
    pub hsa_ven_amd_pcs_stop_fn: Option<PFN_hsa_ven_amd_pcs_stop>,
    pub hsa_ven_amd_pcs_flush_fn: Option<PFN_hsa_ven_amd_pcs_flush>,
}

/// `AmdExtTable`: AMD extension functions.
///
/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
/// is below `version.minor_id` (the byte size the runtime was compiled with).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AmdExtTable {
    pub version: ApiTableVersion,
    pub hsa_amd_coherency_get_type_fn: Option<PFN_hsa_amd_coherency_get_type>,
    pub hsa_amd_coherency_set_type_fn: Option<PFN_hsa_amd_coherency_set_type>,
    pub hsa_amd_profiling_set_profiler_enabled_fn: Option<PFN_hsa_amd_profiling_set_profiler_enabled>,
    pub hsa_amd_profiling_async_copy_enable_fn: Option<PFN_hsa_amd_profiling_async_copy_enable>,
    pub hsa_amd_profiling_get_dispatch_time_fn: Option<PFN_hsa_amd_profiling_get_dispatch_time>,
    pub hsa_amd_profiling_get_async_copy_time_fn: Option<PFN_hsa_amd_profiling_get_async_copy_time>,
    pub hsa_amd_profiling_convert_tick_to_system_domain_fn: Option<PFN_hsa_amd_profiling_convert_tick_to_system_domain>,
    pub hsa_amd_signal_async_handler_fn: Option<PFN_hsa_amd_signal_async_handler>,
    pub hsa_amd_async_function_fn: Option<PFN_hsa_amd_async_function>,
    pub hsa_amd_signal_wait_any_fn: Option<PFN_hsa_amd_signal_wait_any>,
    pub hsa_amd_queue_cu_set_mask_fn: Option<PFN_hsa_amd_queue_cu_set_mask>,
    pub hsa_amd_memory_pool_get_info_fn: Option<PFN_hsa_amd_memory_pool_get_info>,
    pub hsa_amd_agent_iterate_memory_pools_fn: Option<PFN_hsa_amd_agent_iterate_memory_pools>,
    pub hsa_amd_memory_pool_allocate_fn: Option<PFN_hsa_amd_memory_pool_allocate>,
    pub hsa_amd_memory_pool_free_fn: Option<PFN_hsa_amd_memory_pool_free>,
    pub hsa_amd_memory_async_copy_fn: Option<PFN_hsa_amd_memory_async_copy>,
    pub hsa_amd_memory_async_copy_on_engine_fn: Option<PFN_hsa_amd_memory_async_copy_on_engine>,
    pub hsa_amd_memory_copy_engine_status_fn: Option<PFN_hsa_amd_memory_copy_engine_status>,
    pub hsa_amd_agent_memory_pool_get_info_fn: Option<PFN_hsa_amd_agent_memory_pool_get_info>,
    pub hsa_amd_agents_allow_access_fn: Option<PFN_hsa_amd_agents_allow_access>,
    pub hsa_amd_memory_pool_can_migrate_fn: Option<PFN_hsa_amd_memory_pool_can_migrate>,
    pub hsa_amd_memory_migrate_fn: Option<PFN_hsa_amd_memory_migrate>,
    pub hsa_amd_memory_lock_fn: Option<PFN_hsa_amd_memory_lock>,
    pub hsa_amd_memory_unlock_fn: Option<PFN_hsa_amd_memory_unlock>,
    pub hsa_amd_memory_fill_fn: Option<PFN_hsa_amd_memory_fill>,
    pub hsa_amd_interop_map_buffer_fn: Option<PFN_hsa_amd_interop_map_buffer>,
    pub hsa_amd_interop_unmap_buffer_fn: Option<PFN_hsa_amd_interop_unmap_buffer>,
    pub hsa_amd_image_create_fn: Option<PFN_hsa_amd_image_create>,
    pub hsa_amd_pointer_info_fn: Option<PFN_hsa_amd_pointer_info>,
    pub hsa_amd_pointer_info_set_userdata_fn: Option<PFN_hsa_amd_pointer_info_set_userdata>,
    pub hsa_amd_ipc_memory_create_fn: Option<PFN_hsa_amd_ipc_memory_create>,
    pub hsa_amd_ipc_memory_attach_fn: Option<PFN_hsa_amd_ipc_memory_attach>,
    pub hsa_amd_ipc_memory_detach_fn: Option<PFN_hsa_amd_ipc_memory_detach>,
    pub hsa_amd_signal_create_fn: Option<PFN_hsa_amd_signal_create>,
    pub hsa_amd_ipc_signal_create_fn: Option<PFN_hsa_amd_ipc_signal_create>,
    pub hsa_amd_ipc_signal_attach_fn: Option<PFN_hsa_amd_ipc_signal_attach>,
    pub hsa_amd_register_system_event_handler_fn: Option<PFN_hsa_amd_register_system_event_handler>,
    pub hsa_amd_queue_intercept_create_fn: Option<PFN_hsa_amd_queue_intercept_create>,
    pub hsa_amd_queue_intercept_register_fn: Option<PFN_hsa_amd_queue_intercept_register>,
    pub hsa_amd_queue_set_priority_fn: Option<PFN_hsa_amd_queue_set_priority>,
    pub hsa_amd_memory_async_copy_rect_fn: Option<PFN_hsa_amd_memory_async_copy_rect>,
    pub hsa_amd_runtime_queue_create_register_fn: Option<PFN_hsa_amd_runtime_queue_create_register>,
    pub hsa_amd_memory_lock_to_pool_fn: Option<PFN_hsa_amd_memory_lock_to_pool>,
    pub hsa_amd_register_deallocation_callback_fn: Option<PFN_hsa_amd_register_deallocation_callback>,
    pub hsa_amd_deregister_deallocation_callback_fn: Option<PFN_hsa_amd_deregister_deallocation_callback>,
    pub hsa_amd_signal_value_pointer_fn: Option<PFN_hsa_amd_signal_value_pointer>,
    pub hsa_amd_svm_attributes_set_fn: Option<PFN_hsa_amd_svm_attributes_set>,
    pub hsa_amd_svm_attributes_get_fn: Option<PFN_hsa_amd_svm_attributes_get>,
    pub hsa_amd_svm_prefetch_async_fn: Option<PFN_hsa_amd_svm_prefetch_async>,
    pub hsa_amd_spm_acquire_fn: Option<PFN_hsa_amd_spm_acquire>,
    pub hsa_amd_spm_release_fn: Option<PFN_hsa_amd_spm_release>,
    pub hsa_amd_spm_set_dest_buffer_fn: Option<PFN_hsa_amd_spm_set_dest_buffer>,
    pub hsa_amd_queue_cu_get_mask_fn: Option<PFN_hsa_amd_queue_cu_get_mask>,
    pub hsa_amd_portable_export_dmabuf_fn: Option<PFN_hsa_amd_portable_export_dmabuf>,
    pub hsa_amd_portable_close_dmabuf_fn: Option<PFN_hsa_amd_portable_close_dmabuf>,
    pub hsa_amd_vmem_address_reserve_fn: Option<PFN_hsa_amd_vmem_address_reserve>,
    pub hsa_amd_vmem_address_free_fn: Option<PFN_hsa_amd_vmem_address_free>,
    pub hsa_amd_vmem_handle_create_fn: Option<PFN_hsa_amd_vmem_handle_create>,
    pub hsa_amd_vmem_handle_release_fn: Option<PFN_hsa_amd_vmem_handle_release>,
    pub hsa_amd_vmem_map_fn: Option<PFN_hsa_amd_vmem_map>,
    pub hsa_amd_vmem_unmap_fn: Option<PFN_hsa_amd_vmem_unmap>,
    pub hsa_amd_vmem_set_access_fn: Option<PFN_hsa_amd_vmem_set_access>,
    pub hsa_amd_vmem_get_access_fn: Option<PFN_hsa_amd_vmem_get_access>,
    pub hsa_amd_vmem_export_shareable_handle_fn: Option<PFN_hsa_amd_vmem_export_shareable_handle>,
    pub hsa_amd_vmem_import_shareable_handle_fn: Option<PFN_hsa_amd_vmem_import_shareable_handle>,
    pub hsa_amd_vmem_retain_alloc_handle_fn: Option<PFN_hsa_amd_vmem_retain_alloc_handle>,
    pub hsa_amd_vmem_get_alloc_properties_from_handle_fn: Option<PFN_hsa_amd_vmem_get_alloc_properties_from_handle>,
    pub hsa_amd_agent_set_async_scratch_limit_fn: Option<PFN_hsa_amd_agent_set_async_scratch_limit>,
    pub hsa_amd_queue_get_info_fn: Option<PFN_hsa_amd_queue_get_info>,
    pub hsa_amd_vmem_address_reserve_align_fn: Option<PFN_hsa_amd_vmem_address_reserve_align>,
    pub hsa_amd_enable_logging_fn: Option<PFN_hsa_amd_enable_logging>,
    pub hsa_amd_signal_wait_all_fn: Option<PFN_hsa_amd_signal_wait_all>,
    pub hsa_amd_memory_get_preferred_copy_engine_fn: Option<PFN_hsa_amd_memory_get_preferred_copy_engine>,
    pub hsa_amd_portable_export_dmabuf_v2_fn: Option<PFN_hsa_amd_portable_export_dmabuf_v2>,
}

/// `CoreApiTable`: HSA core functions (125 entries; same order and size in ROCm 5.2 and the newest ROCr).
///
/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
/// is below `version.minor_id` (the byte size the runtime was compiled with).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CoreApiTable {
    pub version: ApiTableVersion,
    pub hsa_init_fn: Option<PFN_hsa_init>,
    pub hsa_shut_down_fn: Option<PFN_hsa_shut_down>,
    pub hsa_system_get_info_fn: Option<PFN_hsa_system_get_info>,
    pub hsa_system_extension_supported_fn: Option<PFN_hsa_system_extension_supported>,
    pub hsa_system_get_extension_table_fn: Option<PFN_hsa_system_get_extension_table>,
    pub hsa_iterate_agents_fn: Option<PFN_hsa_iterate_agents>,
    pub hsa_agent_get_info_fn: Option<PFN_hsa_agent_get_info>,
    pub hsa_queue_create_fn: Option<PFN_hsa_queue_create>,
    pub hsa_soft_queue_create_fn: Option<PFN_hsa_soft_queue_create>,
    pub hsa_queue_destroy_fn: Option<PFN_hsa_queue_destroy>,
    pub hsa_queue_inactivate_fn: Option<PFN_hsa_queue_inactivate>,
    pub hsa_queue_load_read_index_scacquire_fn: Option<PFN_hsa_queue_load_read_index_scacquire>,
    pub hsa_queue_load_read_index_relaxed_fn: Option<PFN_hsa_queue_load_read_index_relaxed>,
    pub hsa_queue_load_write_index_scacquire_fn: Option<PFN_hsa_queue_load_write_index_scacquire>,
    pub hsa_queue_load_write_index_relaxed_fn: Option<PFN_hsa_queue_load_write_index_relaxed>,
    pub hsa_queue_store_write_index_relaxed_fn: Option<PFN_hsa_queue_store_write_index_relaxed>,
    pub hsa_queue_store_write_index_screlease_fn: Option<PFN_hsa_queue_store_write_index_screlease>,
    pub hsa_queue_cas_write_index_scacq_screl_fn: Option<PFN_hsa_queue_cas_write_index_scacq_screl>,
    pub hsa_queue_cas_write_index_scacquire_fn: Option<PFN_hsa_queue_cas_write_index_scacquire>,
    pub hsa_queue_cas_write_index_relaxed_fn: Option<PFN_hsa_queue_cas_write_index_relaxed>,
    pub hsa_queue_cas_write_index_screlease_fn: Option<PFN_hsa_queue_cas_write_index_screlease>,
    pub hsa_queue_add_write_index_scacq_screl_fn: Option<PFN_hsa_queue_add_write_index_scacq_screl>,
    pub hsa_queue_add_write_index_scacquire_fn: Option<PFN_hsa_queue_add_write_index_scacquire>,
    pub hsa_queue_add_write_index_relaxed_fn: Option<PFN_hsa_queue_add_write_index_relaxed>,
    pub hsa_queue_add_write_index_screlease_fn: Option<PFN_hsa_queue_add_write_index_screlease>,
    pub hsa_queue_store_read_index_relaxed_fn: Option<PFN_hsa_queue_store_read_index_relaxed>,
    pub hsa_queue_store_read_index_screlease_fn: Option<PFN_hsa_queue_store_read_index_screlease>,
    pub hsa_agent_iterate_regions_fn: Option<PFN_hsa_agent_iterate_regions>,
    pub hsa_region_get_info_fn: Option<PFN_hsa_region_get_info>,
    pub hsa_agent_get_exception_policies_fn: Option<PFN_hsa_agent_get_exception_policies>,
    pub hsa_agent_extension_supported_fn: Option<PFN_hsa_agent_extension_supported>,
    pub hsa_memory_register_fn: Option<PFN_hsa_memory_register>,
    pub hsa_memory_deregister_fn: Option<PFN_hsa_memory_deregister>,
    pub hsa_memory_allocate_fn: Option<PFN_hsa_memory_allocate>,
    pub hsa_memory_free_fn: Option<PFN_hsa_memory_free>,
    pub hsa_memory_copy_fn: Option<PFN_hsa_memory_copy>,
    pub hsa_memory_assign_agent_fn: Option<PFN_hsa_memory_assign_agent>,
    pub hsa_signal_create_fn: Option<PFN_hsa_signal_create>,
    pub hsa_signal_destroy_fn: Option<PFN_hsa_signal_destroy>,
    pub hsa_signal_load_relaxed_fn: Option<PFN_hsa_signal_load_relaxed>,
    pub hsa_signal_load_scacquire_fn: Option<PFN_hsa_signal_load_scacquire>,
    pub hsa_signal_store_relaxed_fn: Option<PFN_hsa_signal_store_relaxed>,
    pub hsa_signal_store_screlease_fn: Option<PFN_hsa_signal_store_screlease>,
    pub hsa_signal_wait_relaxed_fn: Option<PFN_hsa_signal_wait_relaxed>,
    pub hsa_signal_wait_scacquire_fn: Option<PFN_hsa_signal_wait_scacquire>,
    pub hsa_signal_and_relaxed_fn: Option<PFN_hsa_signal_and_relaxed>,
    pub hsa_signal_and_scacquire_fn: Option<PFN_hsa_signal_and_scacquire>,
    pub hsa_signal_and_screlease_fn: Option<PFN_hsa_signal_and_screlease>,
    pub hsa_signal_and_scacq_screl_fn: Option<PFN_hsa_signal_and_scacq_screl>,
    pub hsa_signal_or_relaxed_fn: Option<PFN_hsa_signal_or_relaxed>,
    pub hsa_signal_or_scacquire_fn: Option<PFN_hsa_signal_or_scacquire>,
    pub hsa_signal_or_screlease_fn: Option<PFN_hsa_signal_or_screlease>,
    pub hsa_signal_or_scacq_screl_fn: Option<PFN_hsa_signal_or_scacq_screl>,
    pub hsa_signal_xor_relaxed_fn: Option<PFN_hsa_signal_xor_relaxed>,
    pub hsa_signal_xor_scacquire_fn: Option<PFN_hsa_signal_xor_scacquire>,
    pub hsa_signal_xor_screlease_fn: Option<PFN_hsa_signal_xor_screlease>,
    pub hsa_signal_xor_scacq_screl_fn: Option<PFN_hsa_signal_xor_scacq_screl>,
    pub hsa_signal_exchange_relaxed_fn: Option<PFN_hsa_signal_exchange_relaxed>,
    pub hsa_signal_exchange_scacquire_fn: Option<PFN_hsa_signal_exchange_scacquire>,
    pub hsa_signal_exchange_screlease_fn: Option<PFN_hsa_signal_exchange_screlease>,
    pub hsa_signal_exchange_scacq_screl_fn: Option<PFN_hsa_signal_exchange_scacq_screl>,
    pub hsa_signal_add_relaxed_fn: Option<PFN_hsa_signal_add_relaxed>,
    pub hsa_signal_add_scacquire_fn: Option<PFN_hsa_signal_add_scacquire>,
    pub hsa_signal_add_screlease_fn: Option<PFN_hsa_signal_add_screlease>,
    pub hsa_signal_add_scacq_screl_fn: Option<PFN_hsa_signal_add_scacq_screl>,
    pub hsa_signal_subtract_relaxed_fn: Option<PFN_hsa_signal_subtract_relaxed>,
    pub hsa_signal_subtract_scacquire_fn: Option<PFN_hsa_signal_subtract_scacquire>,
    pub hsa_signal_subtract_screlease_fn: Option<PFN_hsa_signal_subtract_screlease>,
    pub hsa_signal_subtract_scacq_screl_fn: Option<PFN_hsa_signal_subtract_scacq_screl>,
    pub hsa_signal_cas_relaxed_fn: Option<PFN_hsa_signal_cas_relaxed>,
    pub hsa_signal_cas_scacquire_fn: Option<PFN_hsa_signal_cas_scacquire>,
    pub hsa_signal_cas_screlease_fn: Option<PFN_hsa_signal_cas_screlease>,
    pub hsa_signal_cas_scacq_screl_fn: Option<PFN_hsa_signal_cas_scacq_screl>,
    pub hsa_isa_from_name_fn: Option<PFN_hsa_isa_from_name>,
    pub hsa_isa_get_info_fn: Option<PFN_hsa_isa_get_info>,
    pub hsa_isa_compatible_fn: Option<PFN_hsa_isa_compatible>,
    pub hsa_code_object_serialize_fn: Option<PFN_hsa_code_object_serialize>,
    pub hsa_code_object_deserialize_fn: Option<PFN_hsa_code_object_deserialize>,
    pub hsa_code_object_destroy_fn: Option<PFN_hsa_code_object_destroy>,
    pub hsa_code_object_get_info_fn: Option<PFN_hsa_code_object_get_info>,
    pub hsa_code_object_get_symbol_fn: Option<PFN_hsa_code_object_get_symbol>,
    pub hsa_code_symbol_get_info_fn: Option<PFN_hsa_code_symbol_get_info>,
    pub hsa_code_object_iterate_symbols_fn: Option<PFN_hsa_code_object_iterate_symbols>,
    pub hsa_executable_create_fn: Option<PFN_hsa_executable_create>,
    pub hsa_executable_destroy_fn: Option<PFN_hsa_executable_destroy>,
    pub hsa_executable_load_code_object_fn: Option<PFN_hsa_executable_load_code_object>,
    pub hsa_executable_freeze_fn: Option<PFN_hsa_executable_freeze>,
    pub hsa_executable_get_info_fn: Option<PFN_hsa_executable_get_info>,
    pub hsa_executable_global_variable_define_fn: Option<PFN_hsa_executable_global_variable_define>,
    pub hsa_executable_agent_global_variable_define_fn: Option<PFN_hsa_executable_agent_global_variable_define>,
    pub hsa_executable_readonly_variable_define_fn: Option<PFN_hsa_executable_readonly_variable_define>,
    pub hsa_executable_validate_fn: Option<PFN_hsa_executable_validate>,
    pub hsa_executable_get_symbol_fn: Option<PFN_hsa_executable_get_symbol>,
    pub hsa_executable_symbol_get_info_fn: Option<PFN_hsa_executable_symbol_get_info>,
    pub hsa_executable_iterate_symbols_fn: Option<PFN_hsa_executable_iterate_symbols>,
    pub hsa_status_string_fn: Option<PFN_hsa_status_string>,
    pub hsa_extension_get_name_fn: Option<PFN_hsa_extension_get_name>,
    pub hsa_system_major_extension_supported_fn: Option<PFN_hsa_system_major_extension_supported>,
    pub hsa_system_get_major_extension_table_fn: Option<PFN_hsa_system_get_major_extension_table>,
    pub hsa_agent_major_extension_supported_fn: Option<PFN_hsa_agent_major_extension_supported>,
    pub hsa_cache_get_info_fn: Option<PFN_hsa_cache_get_info>,
    pub hsa_agent_iterate_caches_fn: Option<PFN_hsa_agent_iterate_caches>,
    pub hsa_signal_silent_store_relaxed_fn: Option<PFN_hsa_signal_silent_store_relaxed>,
    pub hsa_signal_silent_store_screlease_fn: Option<PFN_hsa_signal_silent_store_screlease>,
    pub hsa_signal_group_create_fn: Option<PFN_hsa_signal_group_create>,
    pub hsa_signal_group_destroy_fn: Option<PFN_hsa_signal_group_destroy>,
    pub hsa_signal_group_wait_any_scacquire_fn: Option<PFN_hsa_signal_group_wait_any_scacquire>,
    pub hsa_signal_group_wait_any_relaxed_fn: Option<PFN_hsa_signal_group_wait_any_relaxed>,
    pub hsa_agent_iterate_isas_fn: Option<PFN_hsa_agent_iterate_isas>,
    pub hsa_isa_get_info_alt_fn: Option<PFN_hsa_isa_get_info_alt>,
    pub hsa_isa_get_exception_policies_fn: Option<PFN_hsa_isa_get_exception_policies>,
    pub hsa_isa_get_round_method_fn: Option<PFN_hsa_isa_get_round_method>,
    pub hsa_wavefront_get_info_fn: Option<PFN_hsa_wavefront_get_info>,
    pub hsa_isa_iterate_wavefronts_fn: Option<PFN_hsa_isa_iterate_wavefronts>,
    pub hsa_code_object_get_symbol_from_name_fn: Option<PFN_hsa_code_object_get_symbol_from_name>,
    pub hsa_code_object_reader_create_from_file_fn: Option<PFN_hsa_code_object_reader_create_from_file>,
    pub hsa_code_object_reader_create_from_memory_fn: Option<PFN_hsa_code_object_reader_create_from_memory>,
    pub hsa_code_object_reader_destroy_fn: Option<PFN_hsa_code_object_reader_destroy>,
    pub hsa_executable_create_alt_fn: Option<PFN_hsa_executable_create_alt>,
    pub hsa_executable_load_program_code_object_fn: Option<PFN_hsa_executable_load_program_code_object>,
    pub hsa_executable_load_agent_code_object_fn: Option<PFN_hsa_executable_load_agent_code_object>,
    pub hsa_executable_validate_alt_fn: Option<PFN_hsa_executable_validate_alt>,
    pub hsa_executable_get_symbol_by_name_fn: Option<PFN_hsa_executable_get_symbol_by_name>,
    pub hsa_executable_iterate_agent_symbols_fn: Option<PFN_hsa_executable_iterate_agent_symbols>,
    pub hsa_executable_iterate_program_symbols_fn: Option<PFN_hsa_executable_iterate_program_symbols>,
}

/// `HsaApiTable`: the root table (newest layout, 64 bytes). `tools_` and `pc_sampling_ext_` exist only when
/// `version.minor_id` covers their offsets (root major 3 and 3 step 1).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct HsaApiTable {
    pub version: ApiTableVersion,
    pub core_: *mut CoreApiTable,
    pub amd_ext_: *mut AmdExtTable,
    pub finalizer_ext_: *mut FinalizerExtTable,
    pub image_ext_: *mut ImageExtTable,
    pub tools_: *mut ToolsApiTable,
    pub pc_sampling_ext_: *mut PcSamplingExtTable,
}

/// `HsaApiTableContainer`: the root table followed by storage for every sub-table (newest layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct HsaApiTableContainer {
    pub root: HsaApiTable,
    pub core: CoreApiTable,
    pub amd_ext: AmdExtTable,
    pub finalizer_ext: FinalizerExtTable,
    pub image_ext: ImageExtTable,
    pub tools: ToolsApiTable,
    pub pc_sampling_ext: PcSamplingExtTable,
}

/// Size in bytes of the newest `AmdExtTable` for a given major-2 step: `552 + 8 * step`.
pub const fn amd_ext_table_size_major2(step: u32) -> u32 {
    552 + 8 * step
}

/// The ROCm 5.2 layout (Debian bookworm `libhsa-runtime-dev` 5.2.3, `/usr/include/hsa/hsa_api_trace.h`).
///
/// All majors are 1, all steps 0. `CoreApiTable` and `FinalizerExtTable` are identical to the newest ones
/// and re-exported; `AmdExtTable`, `ImageExtTable` and the root table differ.
pub mod rocm_5_2 {
    use crate::*;
    use core::mem::{offset_of, size_of};

    pub use crate::api_trace::{ApiTableVersion, CoreApiTable, FinalizerExtTable};

    /// Major version of every ROCm 5.2 table (`HSA_*_API_TABLE_MAJOR_VERSION`).
    pub const API_TABLE_MAJOR_VERSION: u32 = 1;
    /// Step version of every ROCm 5.2 table.
    pub const API_TABLE_STEP_VERSION: u32 = 0;

    /// `AmdExtTable`: AMD extension functions. (ROCm 5.2 layout)
    ///
    /// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
    /// is below `version.minor_id` (the byte size the runtime was compiled with).
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct AmdExtTable {
        pub version: ApiTableVersion,
        pub hsa_amd_coherency_get_type_fn: Option<PFN_hsa_amd_coherency_get_type>,
        pub hsa_amd_coherency_set_type_fn: Option<PFN_hsa_amd_coherency_set_type>,
        pub hsa_amd_profiling_set_profiler_enabled_fn: Option<PFN_hsa_amd_profiling_set_profiler_enabled>,
        pub hsa_amd_profiling_async_copy_enable_fn: Option<PFN_hsa_amd_profiling_async_copy_enable>,
        pub hsa_amd_profiling_get_dispatch_time_fn: Option<PFN_hsa_amd_profiling_get_dispatch_time>,
        pub hsa_amd_profiling_get_async_copy_time_fn: Option<PFN_hsa_amd_profiling_get_async_copy_time>,
        pub hsa_amd_profiling_convert_tick_to_system_domain_fn:
            Option<PFN_hsa_amd_profiling_convert_tick_to_system_domain>,
        pub hsa_amd_signal_async_handler_fn: Option<PFN_hsa_amd_signal_async_handler>,
        pub hsa_amd_async_function_fn: Option<PFN_hsa_amd_async_function>,
        pub hsa_amd_signal_wait_any_fn: Option<PFN_hsa_amd_signal_wait_any>,
        pub hsa_amd_queue_cu_set_mask_fn: Option<PFN_hsa_amd_queue_cu_set_mask>,
        pub hsa_amd_memory_pool_get_info_fn: Option<PFN_hsa_amd_memory_pool_get_info>,
        pub hsa_amd_agent_iterate_memory_pools_fn: Option<PFN_hsa_amd_agent_iterate_memory_pools>,
        pub hsa_amd_memory_pool_allocate_fn: Option<PFN_hsa_amd_memory_pool_allocate>,
        pub hsa_amd_memory_pool_free_fn: Option<PFN_hsa_amd_memory_pool_free>,
        pub hsa_amd_memory_async_copy_fn: Option<PFN_hsa_amd_memory_async_copy>,
        pub hsa_amd_agent_memory_pool_get_info_fn: Option<PFN_hsa_amd_agent_memory_pool_get_info>,
        pub hsa_amd_agents_allow_access_fn: Option<PFN_hsa_amd_agents_allow_access>,
        pub hsa_amd_memory_pool_can_migrate_fn: Option<PFN_hsa_amd_memory_pool_can_migrate>,
        pub hsa_amd_memory_migrate_fn: Option<PFN_hsa_amd_memory_migrate>,
        pub hsa_amd_memory_lock_fn: Option<PFN_hsa_amd_memory_lock>,
        pub hsa_amd_memory_unlock_fn: Option<PFN_hsa_amd_memory_unlock>,
        pub hsa_amd_memory_fill_fn: Option<PFN_hsa_amd_memory_fill>,
        pub hsa_amd_interop_map_buffer_fn: Option<PFN_hsa_amd_interop_map_buffer>,
        pub hsa_amd_interop_unmap_buffer_fn: Option<PFN_hsa_amd_interop_unmap_buffer>,
        pub hsa_amd_image_create_fn: Option<PFN_hsa_amd_image_create>,
        pub hsa_amd_pointer_info_fn: Option<PFN_hsa_amd_pointer_info>,
        pub hsa_amd_pointer_info_set_userdata_fn: Option<PFN_hsa_amd_pointer_info_set_userdata>,
        pub hsa_amd_ipc_memory_create_fn: Option<PFN_hsa_amd_ipc_memory_create>,
        pub hsa_amd_ipc_memory_attach_fn: Option<PFN_hsa_amd_ipc_memory_attach>,
        pub hsa_amd_ipc_memory_detach_fn: Option<PFN_hsa_amd_ipc_memory_detach>,
        pub hsa_amd_signal_create_fn: Option<PFN_hsa_amd_signal_create>,
        pub hsa_amd_ipc_signal_create_fn: Option<PFN_hsa_amd_ipc_signal_create>,
        pub hsa_amd_ipc_signal_attach_fn: Option<PFN_hsa_amd_ipc_signal_attach>,
        pub hsa_amd_register_system_event_handler_fn: Option<PFN_hsa_amd_register_system_event_handler>,
        pub hsa_amd_queue_intercept_create_fn: Option<PFN_hsa_amd_queue_intercept_create>,
        pub hsa_amd_queue_intercept_register_fn: Option<PFN_hsa_amd_queue_intercept_register>,
        pub hsa_amd_queue_set_priority_fn: Option<PFN_hsa_amd_queue_set_priority>,
        pub hsa_amd_memory_async_copy_rect_fn: Option<PFN_hsa_amd_memory_async_copy_rect>,
        pub hsa_amd_runtime_queue_create_register_fn: Option<PFN_hsa_amd_runtime_queue_create_register>,
        pub hsa_amd_memory_lock_to_pool_fn: Option<PFN_hsa_amd_memory_lock_to_pool>,
        pub hsa_amd_register_deallocation_callback_fn: Option<PFN_hsa_amd_register_deallocation_callback>,
        pub hsa_amd_deregister_deallocation_callback_fn: Option<PFN_hsa_amd_deregister_deallocation_callback>,
        pub hsa_amd_signal_value_pointer_fn: Option<PFN_hsa_amd_signal_value_pointer>,
        pub hsa_amd_svm_attributes_set_fn: Option<PFN_hsa_amd_svm_attributes_set>,
        pub hsa_amd_svm_attributes_get_fn: Option<PFN_hsa_amd_svm_attributes_get>,
        pub hsa_amd_svm_prefetch_async_fn: Option<PFN_hsa_amd_svm_prefetch_async>,
        pub hsa_amd_queue_cu_get_mask_fn: Option<PFN_hsa_amd_queue_cu_get_mask>,
    }
    /// `ImageExtTable`: Image extension functions. (ROCm 5.2 layout)
    ///
    /// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset
    /// is below `version.minor_id` (the byte size the runtime was compiled with).
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct ImageExtTable {
        pub version: ApiTableVersion,
        pub hsa_ext_image_get_capability_fn: Option<PFN_hsa_ext_image_get_capability>,
        pub hsa_ext_image_data_get_info_fn: Option<PFN_hsa_ext_image_data_get_info>,
        pub hsa_ext_image_create_fn: Option<PFN_hsa_ext_image_create>,
        pub hsa_ext_image_import_fn: Option<PFN_hsa_ext_image_import>,
        pub hsa_ext_image_export_fn: Option<PFN_hsa_ext_image_export>,
        pub hsa_ext_image_copy_fn: Option<PFN_hsa_ext_image_copy>,
        pub hsa_ext_image_clear_fn: Option<PFN_hsa_ext_image_clear>,
        pub hsa_ext_image_destroy_fn: Option<PFN_hsa_ext_image_destroy>,
        pub hsa_ext_sampler_create_fn: Option<PFN_hsa_ext_sampler_create>,
        pub hsa_ext_sampler_destroy_fn: Option<PFN_hsa_ext_sampler_destroy>,
        pub hsa_ext_image_get_capability_with_layout_fn: Option<PFN_hsa_ext_image_get_capability_with_layout>,
        pub hsa_ext_image_data_get_info_with_layout_fn: Option<PFN_hsa_ext_image_data_get_info_with_layout>,
        pub hsa_ext_image_create_with_layout_fn: Option<PFN_hsa_ext_image_create_with_layout>,
    }
    /// `HsaApiTable` of ROCm 5.2 (48 bytes, four sub-table pointers).
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct HsaApiTable {
        pub version: ApiTableVersion,
        pub core_: *mut CoreApiTable,
        pub amd_ext_: *mut AmdExtTable,
        pub finalizer_ext_: *mut FinalizerExtTable,
        pub image_ext_: *mut ImageExtTable,
    }

    /// `HsaApiTableContainer` of ROCm 5.2.
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct HsaApiTableContainer {
        pub root: HsaApiTable,
        pub core: CoreApiTable,
        pub amd_ext: AmdExtTable,
        pub finalizer_ext: FinalizerExtTable,
        pub image_ext: ImageExtTable,
    }

    const _: () = assert!(size_of::<HsaApiTable>() == 48);
    const _: () = assert!(size_of::<AmdExtTable>() == 400);
    const _: () = assert!(size_of::<ImageExtTable>() == 120);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_coherency_get_type_fn) == 16);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_coherency_set_type_fn) == 24);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_set_profiler_enabled_fn) == 32);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_async_copy_enable_fn) == 40);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_get_dispatch_time_fn) == 48);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_get_async_copy_time_fn) == 56);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_convert_tick_to_system_domain_fn) == 64);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_async_handler_fn) == 72);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_async_function_fn) == 80);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_wait_any_fn) == 88);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_cu_set_mask_fn) == 96);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_get_info_fn) == 104);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agent_iterate_memory_pools_fn) == 112);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_allocate_fn) == 120);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_free_fn) == 128);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_async_copy_fn) == 136);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agent_memory_pool_get_info_fn) == 144);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agents_allow_access_fn) == 152);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_can_migrate_fn) == 160);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_migrate_fn) == 168);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_lock_fn) == 176);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_unlock_fn) == 184);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_fill_fn) == 192);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_interop_map_buffer_fn) == 200);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_interop_unmap_buffer_fn) == 208);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_image_create_fn) == 216);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_pointer_info_fn) == 224);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_pointer_info_set_userdata_fn) == 232);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_memory_create_fn) == 240);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_memory_attach_fn) == 248);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_memory_detach_fn) == 256);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_create_fn) == 264);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_signal_create_fn) == 272);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_signal_attach_fn) == 280);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_register_system_event_handler_fn) == 288);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_intercept_create_fn) == 296);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_intercept_register_fn) == 304);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_set_priority_fn) == 312);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_async_copy_rect_fn) == 320);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_runtime_queue_create_register_fn) == 328);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_lock_to_pool_fn) == 336);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_register_deallocation_callback_fn) == 344);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_deregister_deallocation_callback_fn) == 352);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_value_pointer_fn) == 360);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_svm_attributes_set_fn) == 368);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_svm_attributes_get_fn) == 376);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_svm_prefetch_async_fn) == 384);
    const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_cu_get_mask_fn) == 392);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_get_capability_fn) == 16);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_data_get_info_fn) == 24);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_create_fn) == 32);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_import_fn) == 40);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_export_fn) == 48);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_copy_fn) == 56);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_clear_fn) == 64);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_destroy_fn) == 72);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_sampler_create_fn) == 80);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_sampler_destroy_fn) == 88);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_get_capability_with_layout_fn) == 96);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_data_get_info_with_layout_fn) == 104);
    const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_create_with_layout_fn) == 112);
}

const _: () = assert!(size_of::<ApiTableVersion>() == 16);
const _: () = assert!(size_of::<amd_aql_intercept_marker_t>() == 64);
const _: () = assert!(offset_of!(amd_aql_intercept_marker_t, callback) == 8);
const _: () = assert!(offset_of!(amd_aql_intercept_marker_t, user_data) == 16);
const _: () = assert!(size_of::<HsaApiTable>() == 64);
const _: () = assert!(offset_of!(HsaApiTable, tools_) == 48);
const _: () = assert!(offset_of!(HsaApiTable, pc_sampling_ext_) == 56);
const _: () = assert!(size_of::<CoreApiTable>() == 1016);
const _: () = assert!(offset_of!(CoreApiTable, hsa_init_fn) == 16);
const _: () = assert!(offset_of!(CoreApiTable, hsa_shut_down_fn) == 24);
const _: () = assert!(offset_of!(CoreApiTable, hsa_system_get_info_fn) == 32);
const _: () = assert!(offset_of!(CoreApiTable, hsa_system_extension_supported_fn) == 40);
const _: () = assert!(offset_of!(CoreApiTable, hsa_system_get_extension_table_fn) == 48);
const _: () = assert!(offset_of!(CoreApiTable, hsa_iterate_agents_fn) == 56);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_get_info_fn) == 64);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_create_fn) == 72);
const _: () = assert!(offset_of!(CoreApiTable, hsa_soft_queue_create_fn) == 80);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_destroy_fn) == 88);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_inactivate_fn) == 96);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_load_read_index_scacquire_fn) == 104);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_load_read_index_relaxed_fn) == 112);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_load_write_index_scacquire_fn) == 120);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_load_write_index_relaxed_fn) == 128);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_store_write_index_relaxed_fn) == 136);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_store_write_index_screlease_fn) == 144);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_cas_write_index_scacq_screl_fn) == 152);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_cas_write_index_scacquire_fn) == 160);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_cas_write_index_relaxed_fn) == 168);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_cas_write_index_screlease_fn) == 176);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_add_write_index_scacq_screl_fn) == 184);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_add_write_index_scacquire_fn) == 192);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_add_write_index_relaxed_fn) == 200);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_add_write_index_screlease_fn) == 208);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_store_read_index_relaxed_fn) == 216);
const _: () = assert!(offset_of!(CoreApiTable, hsa_queue_store_read_index_screlease_fn) == 224);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_iterate_regions_fn) == 232);
const _: () = assert!(offset_of!(CoreApiTable, hsa_region_get_info_fn) == 240);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_get_exception_policies_fn) == 248);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_extension_supported_fn) == 256);
const _: () = assert!(offset_of!(CoreApiTable, hsa_memory_register_fn) == 264);
const _: () = assert!(offset_of!(CoreApiTable, hsa_memory_deregister_fn) == 272);
const _: () = assert!(offset_of!(CoreApiTable, hsa_memory_allocate_fn) == 280);
const _: () = assert!(offset_of!(CoreApiTable, hsa_memory_free_fn) == 288);
const _: () = assert!(offset_of!(CoreApiTable, hsa_memory_copy_fn) == 296);
const _: () = assert!(offset_of!(CoreApiTable, hsa_memory_assign_agent_fn) == 304);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_create_fn) == 312);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_destroy_fn) == 320);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_load_relaxed_fn) == 328);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_load_scacquire_fn) == 336);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_store_relaxed_fn) == 344);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_store_screlease_fn) == 352);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_wait_relaxed_fn) == 360);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_wait_scacquire_fn) == 368);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_and_relaxed_fn) == 376);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_and_scacquire_fn) == 384);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_and_screlease_fn) == 392);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_and_scacq_screl_fn) == 400);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_or_relaxed_fn) == 408);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_or_scacquire_fn) == 416);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_or_screlease_fn) == 424);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_or_scacq_screl_fn) == 432);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_xor_relaxed_fn) == 440);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_xor_scacquire_fn) == 448);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_xor_screlease_fn) == 456);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_xor_scacq_screl_fn) == 464);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_exchange_relaxed_fn) == 472);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_exchange_scacquire_fn) == 480);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_exchange_screlease_fn) == 488);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_exchange_scacq_screl_fn) == 496);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_add_relaxed_fn) == 504);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_add_scacquire_fn) == 512);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_add_screlease_fn) == 520);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_add_scacq_screl_fn) == 528);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_subtract_relaxed_fn) == 536);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_subtract_scacquire_fn) == 544);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_subtract_screlease_fn) == 552);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_subtract_scacq_screl_fn) == 560);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_cas_relaxed_fn) == 568);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_cas_scacquire_fn) == 576);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_cas_screlease_fn) == 584);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_cas_scacq_screl_fn) == 592);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_from_name_fn) == 600);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_get_info_fn) == 608);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_compatible_fn) == 616);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_serialize_fn) == 624);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_deserialize_fn) == 632);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_destroy_fn) == 640);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_get_info_fn) == 648);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_get_symbol_fn) == 656);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_symbol_get_info_fn) == 664);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_iterate_symbols_fn) == 672);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_create_fn) == 680);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_destroy_fn) == 688);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_load_code_object_fn) == 696);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_freeze_fn) == 704);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_get_info_fn) == 712);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_global_variable_define_fn) == 720);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_agent_global_variable_define_fn) == 728);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_readonly_variable_define_fn) == 736);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_validate_fn) == 744);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_get_symbol_fn) == 752);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_symbol_get_info_fn) == 760);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_iterate_symbols_fn) == 768);
const _: () = assert!(offset_of!(CoreApiTable, hsa_status_string_fn) == 776);
const _: () = assert!(offset_of!(CoreApiTable, hsa_extension_get_name_fn) == 784);
const _: () = assert!(offset_of!(CoreApiTable, hsa_system_major_extension_supported_fn) == 792);
const _: () = assert!(offset_of!(CoreApiTable, hsa_system_get_major_extension_table_fn) == 800);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_major_extension_supported_fn) == 808);
const _: () = assert!(offset_of!(CoreApiTable, hsa_cache_get_info_fn) == 816);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_iterate_caches_fn) == 824);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_silent_store_relaxed_fn) == 832);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_silent_store_screlease_fn) == 840);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_group_create_fn) == 848);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_group_destroy_fn) == 856);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_group_wait_any_scacquire_fn) == 864);
const _: () = assert!(offset_of!(CoreApiTable, hsa_signal_group_wait_any_relaxed_fn) == 872);
const _: () = assert!(offset_of!(CoreApiTable, hsa_agent_iterate_isas_fn) == 880);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_get_info_alt_fn) == 888);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_get_exception_policies_fn) == 896);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_get_round_method_fn) == 904);
const _: () = assert!(offset_of!(CoreApiTable, hsa_wavefront_get_info_fn) == 912);
const _: () = assert!(offset_of!(CoreApiTable, hsa_isa_iterate_wavefronts_fn) == 920);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_get_symbol_from_name_fn) == 928);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_reader_create_from_file_fn) == 936);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_reader_create_from_memory_fn) == 944);
const _: () = assert!(offset_of!(CoreApiTable, hsa_code_object_reader_destroy_fn) == 952);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_create_alt_fn) == 960);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_load_program_code_object_fn) == 968);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_load_agent_code_object_fn) == 976);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_validate_alt_fn) == 984);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_get_symbol_by_name_fn) == 992);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_iterate_agent_symbols_fn) == 1000);
const _: () = assert!(offset_of!(CoreApiTable, hsa_executable_iterate_program_symbols_fn) == 1008);
const _: () = assert!(size_of::<AmdExtTable>() == 608);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_coherency_get_type_fn) == 16);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_coherency_set_type_fn) == 24);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_set_profiler_enabled_fn) == 32);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_async_copy_enable_fn) == 40);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_get_dispatch_time_fn) == 48);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_get_async_copy_time_fn) == 56);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_profiling_convert_tick_to_system_domain_fn) == 64);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_async_handler_fn) == 72);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_async_function_fn) == 80);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_wait_any_fn) == 88);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_cu_set_mask_fn) == 96);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_get_info_fn) == 104);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agent_iterate_memory_pools_fn) == 112);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_allocate_fn) == 120);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_free_fn) == 128);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_async_copy_fn) == 136);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_async_copy_on_engine_fn) == 144);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_copy_engine_status_fn) == 152);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agent_memory_pool_get_info_fn) == 160);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agents_allow_access_fn) == 168);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_pool_can_migrate_fn) == 176);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_migrate_fn) == 184);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_lock_fn) == 192);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_unlock_fn) == 200);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_fill_fn) == 208);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_interop_map_buffer_fn) == 216);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_interop_unmap_buffer_fn) == 224);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_image_create_fn) == 232);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_pointer_info_fn) == 240);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_pointer_info_set_userdata_fn) == 248);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_memory_create_fn) == 256);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_memory_attach_fn) == 264);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_memory_detach_fn) == 272);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_create_fn) == 280);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_signal_create_fn) == 288);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_ipc_signal_attach_fn) == 296);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_register_system_event_handler_fn) == 304);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_intercept_create_fn) == 312);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_intercept_register_fn) == 320);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_set_priority_fn) == 328);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_async_copy_rect_fn) == 336);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_runtime_queue_create_register_fn) == 344);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_lock_to_pool_fn) == 352);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_register_deallocation_callback_fn) == 360);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_deregister_deallocation_callback_fn) == 368);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_value_pointer_fn) == 376);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_svm_attributes_set_fn) == 384);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_svm_attributes_get_fn) == 392);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_svm_prefetch_async_fn) == 400);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_spm_acquire_fn) == 408);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_spm_release_fn) == 416);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_spm_set_dest_buffer_fn) == 424);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_cu_get_mask_fn) == 432);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_portable_export_dmabuf_fn) == 440);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_portable_close_dmabuf_fn) == 448);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_address_reserve_fn) == 456);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_address_free_fn) == 464);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_handle_create_fn) == 472);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_handle_release_fn) == 480);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_map_fn) == 488);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_unmap_fn) == 496);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_set_access_fn) == 504);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_get_access_fn) == 512);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_export_shareable_handle_fn) == 520);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_import_shareable_handle_fn) == 528);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_retain_alloc_handle_fn) == 536);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_get_alloc_properties_from_handle_fn) == 544);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_agent_set_async_scratch_limit_fn) == 552);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_queue_get_info_fn) == 560);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_vmem_address_reserve_align_fn) == 568);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_enable_logging_fn) == 576);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_signal_wait_all_fn) == 584);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_memory_get_preferred_copy_engine_fn) == 592);
const _: () = assert!(offset_of!(AmdExtTable, hsa_amd_portable_export_dmabuf_v2_fn) == 600);
const _: () = assert!(size_of::<FinalizerExtTable>() == 64);
const _: () = assert!(offset_of!(FinalizerExtTable, hsa_ext_program_create_fn) == 16);
const _: () = assert!(offset_of!(FinalizerExtTable, hsa_ext_program_destroy_fn) == 24);
const _: () = assert!(offset_of!(FinalizerExtTable, hsa_ext_program_add_module_fn) == 32);
const _: () = assert!(offset_of!(FinalizerExtTable, hsa_ext_program_iterate_modules_fn) == 40);
const _: () = assert!(offset_of!(FinalizerExtTable, hsa_ext_program_get_info_fn) == 48);
const _: () = assert!(offset_of!(FinalizerExtTable, hsa_ext_program_finalize_fn) == 56);
const _: () = assert!(size_of::<ImageExtTable>() == 128);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_get_capability_fn) == 16);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_data_get_info_fn) == 24);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_create_fn) == 32);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_import_fn) == 40);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_export_fn) == 48);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_copy_fn) == 56);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_clear_fn) == 64);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_destroy_fn) == 72);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_sampler_create_fn) == 80);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_sampler_destroy_fn) == 88);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_get_capability_with_layout_fn) == 96);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_data_get_info_with_layout_fn) == 104);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_image_create_with_layout_fn) == 112);
const _: () = assert!(offset_of!(ImageExtTable, hsa_ext_sampler_create_v2_fn) == 120);
const _: () = assert!(size_of::<ToolsApiTable>() == 64);
const _: () = assert!(offset_of!(ToolsApiTable, hsa_amd_tool_scratch_event_alloc_start_fn) == 16);
const _: () = assert!(offset_of!(ToolsApiTable, hsa_amd_tool_scratch_event_alloc_end_fn) == 24);
const _: () = assert!(offset_of!(ToolsApiTable, hsa_amd_tool_scratch_event_free_start_fn) == 32);
const _: () = assert!(offset_of!(ToolsApiTable, hsa_amd_tool_scratch_event_free_end_fn) == 40);
const _: () = assert!(offset_of!(ToolsApiTable, hsa_amd_tool_scratch_event_async_reclaim_start_fn) == 48);
const _: () = assert!(offset_of!(ToolsApiTable, hsa_amd_tool_scratch_event_async_reclaim_end_fn) == 56);
const _: () = assert!(size_of::<PcSamplingExtTable>() == 72);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_iterate_configuration_fn) == 16);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_create_fn) == 24);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_create_from_id_fn) == 32);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_destroy_fn) == 40);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_start_fn) == 48);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_stop_fn) == 56);
const _: () = assert!(offset_of!(PcSamplingExtTable, hsa_ven_amd_pcs_flush_fn) == 64);
const _: () = assert!(size_of::<AmdExtTable>() as u32 == amd_ext_table_size_major2(HSA_AMD_EXT_API_TABLE_STEP_VERSION));
