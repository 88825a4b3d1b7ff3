//! Compile-time layout checks: every size, alignment and field offset below was measured by compiling
//! a probe against AMD's newest ROCr headers with gcc on x86-64 (and the shared structs agree with Debian's
//! ROCm 5.2 headers). A mismatch is a build error, so the Rust mirrors cannot drift from the C layout.

use crate::*;
use core::mem::{align_of, offset_of, size_of};

const _: () = assert!(size_of::<hsa_dim3_s>() == 12);
const _: () = assert!(align_of::<hsa_dim3_s>() == 4);
const _: () = assert!(offset_of!(hsa_dim3_s, x) == 0);
const _: () = assert!(offset_of!(hsa_dim3_s, y) == 4);
const _: () = assert!(offset_of!(hsa_dim3_s, z) == 8);
const _: () = assert!(size_of::<hsa_agent_s>() == 8);
const _: () = assert!(align_of::<hsa_agent_s>() == 8);
const _: () = assert!(offset_of!(hsa_agent_s, handle) == 0);
const _: () = assert!(size_of::<hsa_cache_s>() == 8);
const _: () = assert!(align_of::<hsa_cache_s>() == 8);
const _: () = assert!(offset_of!(hsa_cache_s, handle) == 0);
const _: () = assert!(size_of::<hsa_signal_s>() == 8);
const _: () = assert!(align_of::<hsa_signal_s>() == 8);
const _: () = assert!(offset_of!(hsa_signal_s, handle) == 0);
const _: () = assert!(size_of::<hsa_signal_group_s>() == 8);
const _: () = assert!(align_of::<hsa_signal_group_s>() == 8);
const _: () = assert!(offset_of!(hsa_signal_group_s, handle) == 0);
const _: () = assert!(size_of::<hsa_region_s>() == 8);
const _: () = assert!(align_of::<hsa_region_s>() == 8);
const _: () = assert!(offset_of!(hsa_region_s, handle) == 0);
const _: () = assert!(size_of::<hsa_queue_s>() == 40);
const _: () = assert!(align_of::<hsa_queue_s>() == 8);
const _: () = assert!(offset_of!(hsa_queue_s, r#type) == 0);
const _: () = assert!(offset_of!(hsa_queue_s, features) == 4);
const _: () = assert!(offset_of!(hsa_queue_s, base_address) == 8);
const _: () = assert!(offset_of!(hsa_queue_s, doorbell_signal) == 16);
const _: () = assert!(offset_of!(hsa_queue_s, size) == 24);
const _: () = assert!(offset_of!(hsa_queue_s, reserved1) == 28);
const _: () = assert!(offset_of!(hsa_queue_s, id) == 32);
const _: () = assert!(size_of::<hsa_kernel_dispatch_packet_s>() == 64);
const _: () = assert!(align_of::<hsa_kernel_dispatch_packet_s>() == 8);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, header) == 0);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, setup) == 2);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, workgroup_size_x) == 4);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, workgroup_size_y) == 6);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, workgroup_size_z) == 8);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, reserved0) == 10);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, grid_size_x) == 12);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, grid_size_y) == 16);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, grid_size_z) == 20);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, private_segment_size) == 24);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, group_segment_size) == 28);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, kernel_object) == 32);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, kernarg_address) == 40);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, reserved2) == 48);
const _: () = assert!(offset_of!(hsa_kernel_dispatch_packet_s, completion_signal) == 56);
const _: () = assert!(size_of::<hsa_agent_dispatch_packet_s>() == 64);
const _: () = assert!(align_of::<hsa_agent_dispatch_packet_s>() == 8);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, header) == 0);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, r#type) == 2);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, reserved0) == 4);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, return_address) == 8);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, arg) == 16);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, reserved2) == 48);
const _: () = assert!(offset_of!(hsa_agent_dispatch_packet_s, completion_signal) == 56);
const _: () = assert!(size_of::<hsa_barrier_and_packet_s>() == 64);
const _: () = assert!(align_of::<hsa_barrier_and_packet_s>() == 8);
const _: () = assert!(offset_of!(hsa_barrier_and_packet_s, header) == 0);
const _: () = assert!(offset_of!(hsa_barrier_and_packet_s, reserved0) == 2);
const _: () = assert!(offset_of!(hsa_barrier_and_packet_s, reserved1) == 4);
const _: () = assert!(offset_of!(hsa_barrier_and_packet_s, dep_signal) == 8);
const _: () = assert!(offset_of!(hsa_barrier_and_packet_s, reserved2) == 48);
const _: () = assert!(offset_of!(hsa_barrier_and_packet_s, completion_signal) == 56);
const _: () = assert!(size_of::<hsa_barrier_or_packet_s>() == 64);
const _: () = assert!(align_of::<hsa_barrier_or_packet_s>() == 8);
const _: () = assert!(offset_of!(hsa_barrier_or_packet_s, header) == 0);
const _: () = assert!(offset_of!(hsa_barrier_or_packet_s, reserved0) == 2);
const _: () = assert!(offset_of!(hsa_barrier_or_packet_s, reserved1) == 4);
const _: () = assert!(offset_of!(hsa_barrier_or_packet_s, dep_signal) == 8);
const _: () = assert!(offset_of!(hsa_barrier_or_packet_s, reserved2) == 48);
const _: () = assert!(offset_of!(hsa_barrier_or_packet_s, completion_signal) == 56);
const _: () = assert!(size_of::<hsa_isa_s>() == 8);
const _: () = assert!(align_of::<hsa_isa_s>() == 8);
const _: () = assert!(offset_of!(hsa_isa_s, handle) == 0);
const _: () = assert!(size_of::<hsa_wavefront_s>() == 8);
const _: () = assert!(align_of::<hsa_wavefront_s>() == 8);
const _: () = assert!(offset_of!(hsa_wavefront_s, handle) == 0);
const _: () = assert!(size_of::<hsa_code_object_reader_s>() == 8);
const _: () = assert!(align_of::<hsa_code_object_reader_s>() == 8);
const _: () = assert!(offset_of!(hsa_code_object_reader_s, handle) == 0);
const _: () = assert!(size_of::<hsa_executable_s>() == 8);
const _: () = assert!(align_of::<hsa_executable_s>() == 8);
const _: () = assert!(offset_of!(hsa_executable_s, handle) == 0);
const _: () = assert!(size_of::<hsa_loaded_code_object_s>() == 8);
const _: () = assert!(align_of::<hsa_loaded_code_object_s>() == 8);
const _: () = assert!(offset_of!(hsa_loaded_code_object_s, handle) == 0);
const _: () = assert!(size_of::<hsa_executable_symbol_s>() == 8);
const _: () = assert!(align_of::<hsa_executable_symbol_s>() == 8);
const _: () = assert!(offset_of!(hsa_executable_symbol_s, handle) == 0);
const _: () = assert!(size_of::<hsa_code_object_s>() == 8);
const _: () = assert!(align_of::<hsa_code_object_s>() == 8);
const _: () = assert!(offset_of!(hsa_code_object_s, handle) == 0);
const _: () = assert!(size_of::<hsa_callback_data_s>() == 8);
const _: () = assert!(align_of::<hsa_callback_data_s>() == 8);
const _: () = assert!(offset_of!(hsa_callback_data_s, handle) == 0);
const _: () = assert!(size_of::<hsa_code_symbol_s>() == 8);
const _: () = assert!(align_of::<hsa_code_symbol_s>() == 8);
const _: () = assert!(offset_of!(hsa_code_symbol_s, handle) == 0);
const _: () = assert!(size_of::<hsa_ext_image_s>() == 8);
const _: () = assert!(align_of::<hsa_ext_image_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_image_s, handle) == 0);
const _: () = assert!(size_of::<hsa_ext_image_format_s>() == 8);
const _: () = assert!(align_of::<hsa_ext_image_format_s>() == 4);
const _: () = assert!(offset_of!(hsa_ext_image_format_s, channel_type) == 0);
const _: () = assert!(offset_of!(hsa_ext_image_format_s, channel_order) == 4);
const _: () = assert!(size_of::<hsa_ext_image_descriptor_s>() == 48);
const _: () = assert!(align_of::<hsa_ext_image_descriptor_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_image_descriptor_s, geometry) == 0);
const _: () = assert!(offset_of!(hsa_ext_image_descriptor_s, width) == 8);
const _: () = assert!(offset_of!(hsa_ext_image_descriptor_s, height) == 16);
const _: () = assert!(offset_of!(hsa_ext_image_descriptor_s, depth) == 24);
const _: () = assert!(offset_of!(hsa_ext_image_descriptor_s, array_size) == 32);
const _: () = assert!(offset_of!(hsa_ext_image_descriptor_s, format) == 40);
const _: () = assert!(size_of::<hsa_ext_image_data_info_s>() == 16);
const _: () = assert!(align_of::<hsa_ext_image_data_info_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_image_data_info_s, size) == 0);
const _: () = assert!(offset_of!(hsa_ext_image_data_info_s, alignment) == 8);
const _: () = assert!(size_of::<hsa_ext_image_region_s>() == 24);
const _: () = assert!(align_of::<hsa_ext_image_region_s>() == 4);
const _: () = assert!(offset_of!(hsa_ext_image_region_s, offset) == 0);
const _: () = assert!(offset_of!(hsa_ext_image_region_s, range) == 12);
const _: () = assert!(size_of::<hsa_ext_sampler_s>() == 8);
const _: () = assert!(align_of::<hsa_ext_sampler_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_sampler_s, handle) == 0);
const _: () = assert!(size_of::<hsa_ext_sampler_descriptor_s>() == 12);
const _: () = assert!(align_of::<hsa_ext_sampler_descriptor_s>() == 4);
const _: () = assert!(offset_of!(hsa_ext_sampler_descriptor_s, coordinate_mode) == 0);
const _: () = assert!(offset_of!(hsa_ext_sampler_descriptor_s, filter_mode) == 4);
const _: () = assert!(offset_of!(hsa_ext_sampler_descriptor_s, address_mode) == 8);
const _: () = assert!(size_of::<hsa_ext_sampler_descriptor_v2_s>() == 20);
const _: () = assert!(align_of::<hsa_ext_sampler_descriptor_v2_s>() == 4);
const _: () = assert!(offset_of!(hsa_ext_sampler_descriptor_v2_s, coordinate_mode) == 0);
const _: () = assert!(offset_of!(hsa_ext_sampler_descriptor_v2_s, filter_mode) == 4);
const _: () = assert!(offset_of!(hsa_ext_sampler_descriptor_v2_s, address_modes) == 8);
const _: () = assert!(size_of::<hsa_ext_images_1_00_pfn_s>() == 80);
const _: () = assert!(align_of::<hsa_ext_images_1_00_pfn_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_get_capability) == 0);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_data_get_info) == 8);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_create) == 16);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_destroy) == 24);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_copy) == 32);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_import) == 40);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_export) == 48);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_image_clear) == 56);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_sampler_create) == 64);
const _: () = assert!(offset_of!(hsa_ext_images_1_00_pfn_s, hsa_ext_sampler_destroy) == 72);
const _: () = assert!(size_of::<hsa_ext_images_1_pfn_s>() == 112);
const _: () = assert!(align_of::<hsa_ext_images_1_pfn_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_get_capability) == 0);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_data_get_info) == 8);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_create) == 16);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_destroy) == 24);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_copy) == 32);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_import) == 40);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_export) == 48);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_clear) == 56);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_sampler_create) == 64);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_sampler_destroy) == 72);
const _: () = assert!(
    offset_of!(
        hsa_ext_images_1_pfn_s,
        hsa_ext_image_get_capability_with_layout
    ) == 80
);
const _: () = assert!(
    offset_of!(
        hsa_ext_images_1_pfn_s,
        hsa_ext_image_data_get_info_with_layout
    ) == 88
);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_image_create_with_layout) == 96);
const _: () = assert!(offset_of!(hsa_ext_images_1_pfn_s, hsa_ext_sampler_create_v2) == 104);
const _: () = assert!(size_of::<perf_sample_hosttrap_v1_t>() == 64);
const _: () = assert!(align_of::<perf_sample_hosttrap_v1_t>() == 8);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, pc) == 0);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, exec_mask) == 8);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, workgroup_id_x) == 16);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, workgroup_id_y) == 20);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, workgroup_id_z) == 24);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, hw_id) == 32);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, reserved0) == 36);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, reserved1) == 40);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, timestamp) == 48);
const _: () = assert!(offset_of!(perf_sample_hosttrap_v1_t, correlation_id) == 56);
const _: () = assert!(size_of::<perf_sample_snapshot_v1_t>() == 64);
const _: () = assert!(align_of::<perf_sample_snapshot_v1_t>() == 8);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, pc) == 0);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, exec_mask) == 8);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, workgroup_id_x) == 16);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, workgroup_id_y) == 20);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, workgroup_id_z) == 24);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, hw_id) == 32);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, perf_snapshot_data) == 36);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, perf_snapshot_data1) == 40);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, perf_snapshot_data2) == 44);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, timestamp) == 48);
const _: () = assert!(offset_of!(perf_sample_snapshot_v1_t, correlation_id) == 56);
const _: () = assert!(size_of::<hsa_ven_amd_pcs_t>() == 8);
const _: () = assert!(align_of::<hsa_ven_amd_pcs_t>() == 8);
const _: () = assert!(offset_of!(hsa_ven_amd_pcs_t, handle) == 0);
const _: () = assert!(size_of::<hsa_ven_amd_pcs_configuration_t>() == 32);
const _: () = assert!(align_of::<hsa_ven_amd_pcs_configuration_t>() == 8);
const _: () = assert!(offset_of!(hsa_ven_amd_pcs_configuration_t, method) == 0);
const _: () = assert!(offset_of!(hsa_ven_amd_pcs_configuration_t, units) == 4);
const _: () = assert!(offset_of!(hsa_ven_amd_pcs_configuration_t, min_interval) == 8);
const _: () = assert!(offset_of!(hsa_ven_amd_pcs_configuration_t, max_interval) == 16);
const _: () = assert!(offset_of!(hsa_ven_amd_pcs_configuration_t, flags) == 24);
const _: () = assert!(size_of::<hsa_ven_amd_pc_sampling_1_00_pfn_t>() == 56);
const _: () = assert!(align_of::<hsa_ven_amd_pc_sampling_1_00_pfn_t>() == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_pc_sampling_1_00_pfn_t,
        hsa_ven_amd_pcs_iterate_configuration
    ) == 0
);
const _: () = assert!(offset_of!(hsa_ven_amd_pc_sampling_1_00_pfn_t, hsa_ven_amd_pcs_create) == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_pc_sampling_1_00_pfn_t,
        hsa_ven_amd_pcs_create_from_id
    ) == 16
);
const _: () =
    assert!(offset_of!(hsa_ven_amd_pc_sampling_1_00_pfn_t, hsa_ven_amd_pcs_destroy) == 24);
const _: () = assert!(offset_of!(hsa_ven_amd_pc_sampling_1_00_pfn_t, hsa_ven_amd_pcs_start) == 32);
const _: () = assert!(offset_of!(hsa_ven_amd_pc_sampling_1_00_pfn_t, hsa_ven_amd_pcs_stop) == 40);
const _: () = assert!(offset_of!(hsa_ven_amd_pc_sampling_1_00_pfn_t, hsa_ven_amd_pcs_flush) == 48);
const _: () = assert!(size_of::<hsa_amd_packet_header_s>() == 4);
const _: () = assert!(align_of::<hsa_amd_packet_header_s>() == 2);
const _: () = assert!(offset_of!(hsa_amd_packet_header_s, header) == 0);
const _: () = assert!(offset_of!(hsa_amd_packet_header_s, AmdFormat) == 2);
const _: () = assert!(offset_of!(hsa_amd_packet_header_s, reserved) == 3);
const _: () = assert!(size_of::<hsa_amd_barrier_value_packet_s>() == 64);
const _: () = assert!(align_of::<hsa_amd_barrier_value_packet_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, header) == 0);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, reserved0) == 4);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, signal) == 8);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, value) == 16);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, mask) == 24);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, cond) == 32);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, reserved1) == 36);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, reserved2) == 40);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, reserved3) == 48);
const _: () = assert!(offset_of!(hsa_amd_barrier_value_packet_s, completion_signal) == 56);
const _: () = assert!(size_of::<hsa_amd_aie_ert_start_kernel_data_s>() == 8);
const _: () = assert!(align_of::<hsa_amd_aie_ert_start_kernel_data_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_start_kernel_data_s, pdi_addr) == 0);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_start_kernel_data_s, data) == 8);
const _: () = assert!(size_of::<hsa_amd_aie_ert_packet_s>() == 64);
const _: () = assert!(align_of::<hsa_amd_aie_ert_packet_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, header) == 0);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, reserved0) == 8);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, reserved1) == 16);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, reserved2) == 24);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, reserved3) == 32);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, reserved4) == 40);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, reserved5) == 48);
const _: () = assert!(offset_of!(hsa_amd_aie_ert_packet_s, payload_data) == 56);
const _: () = assert!(size_of::<hsa_amd_clock_counters_s>() == 32);
const _: () = assert!(align_of::<hsa_amd_clock_counters_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_clock_counters_s, gpu_clock_counter) == 0);
const _: () = assert!(offset_of!(hsa_amd_clock_counters_s, cpu_clock_counter) == 8);
const _: () = assert!(offset_of!(hsa_amd_clock_counters_s, system_clock_counter) == 16);
const _: () = assert!(offset_of!(hsa_amd_clock_counters_s, system_clock_frequency) == 24);
const _: () = assert!(size_of::<hsa_amd_hdp_flush_s>() == 16);
const _: () = assert!(align_of::<hsa_amd_hdp_flush_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_hdp_flush_s, HDP_MEM_FLUSH_CNTL) == 0);
const _: () = assert!(offset_of!(hsa_amd_hdp_flush_s, HDP_REG_FLUSH_CNTL) == 8);
const _: () = assert!(size_of::<hsa_amd_profiling_dispatch_time_s>() == 16);
const _: () = assert!(align_of::<hsa_amd_profiling_dispatch_time_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_profiling_dispatch_time_s, start) == 0);
const _: () = assert!(offset_of!(hsa_amd_profiling_dispatch_time_s, end) == 8);
const _: () = assert!(size_of::<hsa_amd_profiling_async_copy_time_s>() == 16);
const _: () = assert!(align_of::<hsa_amd_profiling_async_copy_time_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_profiling_async_copy_time_s, start) == 0);
const _: () = assert!(offset_of!(hsa_amd_profiling_async_copy_time_s, end) == 8);
const _: () = assert!(size_of::<hsa_amd_image_descriptor_s>() == 12);
const _: () = assert!(align_of::<hsa_amd_image_descriptor_s>() == 4);
const _: () = assert!(offset_of!(hsa_amd_image_descriptor_s, version) == 0);
const _: () = assert!(offset_of!(hsa_amd_image_descriptor_s, deviceID) == 4);
const _: () = assert!(offset_of!(hsa_amd_image_descriptor_s, data) == 8);
const _: () = assert!(size_of::<hsa_amd_memory_pool_s>() == 8);
const _: () = assert!(align_of::<hsa_amd_memory_pool_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_s, handle) == 0);
const _: () = assert!(size_of::<hsa_pitched_ptr_s>() == 24);
const _: () = assert!(align_of::<hsa_pitched_ptr_s>() == 8);
const _: () = assert!(offset_of!(hsa_pitched_ptr_s, base) == 0);
const _: () = assert!(offset_of!(hsa_pitched_ptr_s, pitch) == 8);
const _: () = assert!(offset_of!(hsa_pitched_ptr_s, slice) == 16);
const _: () = assert!(size_of::<hsa_amd_memory_pool_link_info_s>() == 28);
const _: () = assert!(align_of::<hsa_amd_memory_pool_link_info_s>() == 4);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, min_latency) == 0);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, max_latency) == 4);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, min_bandwidth) == 8);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, max_bandwidth) == 12);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, atomic_support_32bit) == 16);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, atomic_support_64bit) == 17);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, coherent_support) == 18);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, link_type) == 20);
const _: () = assert!(offset_of!(hsa_amd_memory_pool_link_info_s, numa_distance) == 24);
const _: () = assert!(size_of::<hsa_amd_pointer_info_s>() == 56);
const _: () = assert!(align_of::<hsa_amd_pointer_info_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, size) == 0);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, r#type) == 4);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, agentBaseAddress) == 8);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, hostBaseAddress) == 16);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, sizeInBytes) == 24);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, userData) == 32);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, agentOwner) == 40);
const _: () = assert!(offset_of!(hsa_amd_pointer_info_s, global_flags) == 48);
const _: () = assert!(size_of::<hsa_amd_ipc_memory_s>() == 32);
const _: () = assert!(align_of::<hsa_amd_ipc_memory_s>() == 4);
const _: () = assert!(offset_of!(hsa_amd_ipc_memory_s, handle) == 0);
const _: () = assert!(size_of::<hsa_amd_gpu_memory_fault_info_s>() == 24);
const _: () = assert!(align_of::<hsa_amd_gpu_memory_fault_info_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_gpu_memory_fault_info_s, agent) == 0);
const _: () = assert!(offset_of!(hsa_amd_gpu_memory_fault_info_s, virtual_address) == 8);
const _: () = assert!(offset_of!(hsa_amd_gpu_memory_fault_info_s, fault_reason_mask) == 16);
const _: () = assert!(size_of::<hsa_amd_gpu_memory_error_info_s>() == 24);
const _: () = assert!(align_of::<hsa_amd_gpu_memory_error_info_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_gpu_memory_error_info_s, agent) == 0);
const _: () = assert!(offset_of!(hsa_amd_gpu_memory_error_info_s, virtual_address) == 8);
const _: () = assert!(offset_of!(hsa_amd_gpu_memory_error_info_s, error_reason_mask) == 16);
const _: () = assert!(size_of::<hsa_amd_gpu_hw_exception_info_s>() == 16);
const _: () = assert!(align_of::<hsa_amd_gpu_hw_exception_info_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_gpu_hw_exception_info_s, agent) == 0);
const _: () = assert!(offset_of!(hsa_amd_gpu_hw_exception_info_s, reset_type) == 8);
const _: () = assert!(offset_of!(hsa_amd_gpu_hw_exception_info_s, reset_cause) == 12);
const _: () = assert!(size_of::<hsa_amd_event_s>() == 32);
const _: () = assert!(align_of::<hsa_amd_event_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_s, event_type) == 0);
const _: () = assert!(size_of::<hsa_amd_svm_attribute_pair_s>() == 16);
const _: () = assert!(align_of::<hsa_amd_svm_attribute_pair_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_svm_attribute_pair_s, attribute) == 0);
const _: () = assert!(offset_of!(hsa_amd_svm_attribute_pair_s, value) == 8);
const _: () = assert!(size_of::<hsa_amd_vmem_alloc_handle_s>() == 8);
const _: () = assert!(align_of::<hsa_amd_vmem_alloc_handle_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_vmem_alloc_handle_s, handle) == 0);
const _: () = assert!(size_of::<hsa_amd_memory_access_desc_s>() == 16);
const _: () = assert!(align_of::<hsa_amd_memory_access_desc_s>() == 8);
const _: () = assert!(offset_of!(hsa_amd_memory_access_desc_s, permissions) == 0);
const _: () = assert!(offset_of!(hsa_amd_memory_access_desc_s, agent_handle) == 8);
const _: () = assert!(size_of::<hsa_ext_program_s>() == 8);
const _: () = assert!(align_of::<hsa_ext_program_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_program_s, handle) == 0);
const _: () = assert!(size_of::<hsa_ext_control_directives_s>() == 144);
const _: () = assert!(align_of::<hsa_ext_control_directives_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, control_directives_mask) == 0);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, break_exceptions_mask) == 8);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, detect_exceptions_mask) == 10);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, max_dynamic_group_size) == 12);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, max_flat_grid_size) == 16);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, max_flat_workgroup_size) == 24);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, reserved1) == 28);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, required_grid_size) == 32);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, required_workgroup_size) == 56);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, required_dim) == 68);
const _: () = assert!(offset_of!(hsa_ext_control_directives_s, reserved2) == 69);
const _: () = assert!(size_of::<hsa_ext_finalizer_1_00_pfn_s>() == 48);
const _: () = assert!(align_of::<hsa_ext_finalizer_1_00_pfn_s>() == 8);
const _: () = assert!(offset_of!(hsa_ext_finalizer_1_00_pfn_s, hsa_ext_program_create) == 0);
const _: () = assert!(offset_of!(hsa_ext_finalizer_1_00_pfn_s, hsa_ext_program_destroy) == 8);
const _: () = assert!(offset_of!(hsa_ext_finalizer_1_00_pfn_s, hsa_ext_program_add_module) == 16);
const _: () = assert!(
    offset_of!(
        hsa_ext_finalizer_1_00_pfn_s,
        hsa_ext_program_iterate_modules
    ) == 24
);
const _: () = assert!(offset_of!(hsa_ext_finalizer_1_00_pfn_s, hsa_ext_program_get_info) == 32);
const _: () = assert!(offset_of!(hsa_ext_finalizer_1_00_pfn_s, hsa_ext_program_finalize) == 40);
const _: () = assert!(size_of::<hsa_ven_amd_loader_segment_descriptor_s>() == 64);
const _: () = assert!(align_of::<hsa_ven_amd_loader_segment_descriptor_s>() == 8);
const _: () = assert!(offset_of!(hsa_ven_amd_loader_segment_descriptor_s, agent) == 0);
const _: () = assert!(offset_of!(hsa_ven_amd_loader_segment_descriptor_s, executable) == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_segment_descriptor_s,
        code_object_storage_type
    ) == 16
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_segment_descriptor_s,
        code_object_storage_base
    ) == 24
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_segment_descriptor_s,
        code_object_storage_size
    ) == 32
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_segment_descriptor_s,
        code_object_storage_offset
    ) == 40
);
const _: () = assert!(offset_of!(hsa_ven_amd_loader_segment_descriptor_s, segment_base) == 48);
const _: () = assert!(offset_of!(hsa_ven_amd_loader_segment_descriptor_s, segment_size) == 56);
const _: () = assert!(size_of::<hsa_ven_amd_loader_1_00_pfn_s>() == 24);
const _: () = assert!(align_of::<hsa_ven_amd_loader_1_00_pfn_s>() == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_00_pfn_s,
        hsa_ven_amd_loader_query_host_address
    ) == 0
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_00_pfn_s,
        hsa_ven_amd_loader_query_segment_descriptors
    ) == 8
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_00_pfn_s,
        hsa_ven_amd_loader_query_executable
    ) == 16
);
const _: () = assert!(size_of::<hsa_ven_amd_loader_1_01_pfn_s>() == 40);
const _: () = assert!(align_of::<hsa_ven_amd_loader_1_01_pfn_s>() == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_01_pfn_s,
        hsa_ven_amd_loader_query_host_address
    ) == 0
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_01_pfn_s,
        hsa_ven_amd_loader_query_segment_descriptors
    ) == 8
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_01_pfn_s,
        hsa_ven_amd_loader_query_executable
    ) == 16
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_01_pfn_s,
        hsa_ven_amd_loader_executable_iterate_loaded_code_objects
    ) == 24
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_01_pfn_s,
        hsa_ven_amd_loader_loaded_code_object_get_info
    ) == 32
);
const _: () = assert!(size_of::<hsa_ven_amd_loader_1_02_pfn_s>() == 48);
const _: () = assert!(align_of::<hsa_ven_amd_loader_1_02_pfn_s>() == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_02_pfn_s,
        hsa_ven_amd_loader_query_host_address
    ) == 0
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_02_pfn_s,
        hsa_ven_amd_loader_query_segment_descriptors
    ) == 8
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_02_pfn_s,
        hsa_ven_amd_loader_query_executable
    ) == 16
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_02_pfn_s,
        hsa_ven_amd_loader_executable_iterate_loaded_code_objects
    ) == 24
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_02_pfn_s,
        hsa_ven_amd_loader_loaded_code_object_get_info
    ) == 32
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_02_pfn_s,
        hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size
    ) == 40
);
const _: () = assert!(size_of::<hsa_ven_amd_loader_1_03_pfn_s>() == 56);
const _: () = assert!(align_of::<hsa_ven_amd_loader_1_03_pfn_s>() == 8);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_query_host_address
    ) == 0
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_query_segment_descriptors
    ) == 8
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_query_executable
    ) == 16
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_executable_iterate_loaded_code_objects
    ) == 24
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_loaded_code_object_get_info
    ) == 32
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size
    ) == 40
);
const _: () = assert!(
    offset_of!(
        hsa_ven_amd_loader_1_03_pfn_s,
        hsa_ven_amd_loader_iterate_executables
    ) == 48
);
const _: () = assert!(size_of::<hsa_amd_tool_event_none_t>() == 4);
const _: () = assert!(align_of::<hsa_amd_tool_event_none_t>() == 4);
const _: () = assert!(offset_of!(hsa_amd_tool_event_none_t, kind) == 0);
const _: () = assert!(size_of::<hsa_amd_event_scratch_alloc_start_t>() == 32);
const _: () = assert!(align_of::<hsa_amd_event_scratch_alloc_start_t>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_start_t, kind) == 0);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_start_t, queue) == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_start_t, flags) == 16);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_start_t, dispatch_id) == 24);
const _: () = assert!(size_of::<hsa_amd_event_scratch_alloc_end_t>() == 48);
const _: () = assert!(align_of::<hsa_amd_event_scratch_alloc_end_t>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_end_t, kind) == 0);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_end_t, queue) == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_end_t, flags) == 16);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_end_t, dispatch_id) == 24);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_end_t, size) == 32);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_alloc_end_t, num_slots) == 40);
const _: () = assert!(size_of::<hsa_amd_event_scratch_free_start_t>() == 24);
const _: () = assert!(align_of::<hsa_amd_event_scratch_free_start_t>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_free_start_t, kind) == 0);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_free_start_t, queue) == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_free_start_t, flags) == 16);
const _: () = assert!(size_of::<hsa_amd_event_scratch_free_end_t>() == 24);
const _: () = assert!(align_of::<hsa_amd_event_scratch_free_end_t>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_free_end_t, kind) == 0);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_free_end_t, queue) == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_free_end_t, flags) == 16);
const _: () = assert!(size_of::<hsa_amd_event_scratch_async_reclaim_start_t>() == 24);
const _: () = assert!(align_of::<hsa_amd_event_scratch_async_reclaim_start_t>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_async_reclaim_start_t, kind) == 0);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_async_reclaim_start_t, queue) == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_async_reclaim_start_t, flags) == 16);
const _: () = assert!(size_of::<hsa_amd_event_scratch_async_reclaim_end_t>() == 24);
const _: () = assert!(align_of::<hsa_amd_event_scratch_async_reclaim_end_t>() == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_async_reclaim_end_t, kind) == 0);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_async_reclaim_end_t, queue) == 8);
const _: () = assert!(offset_of!(hsa_amd_event_scratch_async_reclaim_end_t, flags) == 16);
const _: () = assert!(size_of::<hsa_amd_tool_event_t>() == 8);
const _: () = assert!(align_of::<hsa_amd_tool_event_t>() == 8);
const _: () = assert!(size_of::<amd_queue_s>() == 256);
const _: () = assert!(align_of::<amd_queue_s>() == 64);
const _: () = assert!(offset_of!(amd_queue_s, hsa_queue) == 0);
const _: () = assert!(offset_of!(amd_queue_s, caps) == 40);
const _: () = assert!(offset_of!(amd_queue_s, reserved1) == 44);
const _: () = assert!(offset_of!(amd_queue_s, write_dispatch_id) == 56);
const _: () = assert!(offset_of!(amd_queue_s, group_segment_aperture_base_hi) == 64);
const _: () = assert!(offset_of!(amd_queue_s, private_segment_aperture_base_hi) == 68);
const _: () = assert!(offset_of!(amd_queue_s, max_cu_id) == 72);
const _: () = assert!(offset_of!(amd_queue_s, max_wave_id) == 76);
const _: () = assert!(offset_of!(amd_queue_s, max_legacy_doorbell_dispatch_id_plus_1) == 80);
const _: () = assert!(offset_of!(amd_queue_s, legacy_doorbell_lock) == 88);
const _: () = assert!(offset_of!(amd_queue_s, reserved2) == 92);
const _: () = assert!(offset_of!(amd_queue_s, read_dispatch_id) == 128);
const _: () = assert!(offset_of!(amd_queue_s, read_dispatch_id_field_base_byte_offset) == 136);
const _: () = assert!(offset_of!(amd_queue_s, compute_tmpring_size) == 140);
const _: () = assert!(offset_of!(amd_queue_s, scratch_resource_descriptor) == 144);
const _: () = assert!(offset_of!(amd_queue_s, scratch_backing_memory_location) == 160);
const _: () = assert!(offset_of!(amd_queue_s, reserved3) == 168);
const _: () = assert!(offset_of!(amd_queue_s, scratch_wave64_lane_byte_size) == 176);
const _: () = assert!(offset_of!(amd_queue_s, queue_properties) == 180);
const _: () = assert!(offset_of!(amd_queue_s, reserved4) == 184);
const _: () = assert!(offset_of!(amd_queue_s, queue_inactive_signal) == 192);
const _: () = assert!(offset_of!(amd_queue_s, reserved5) == 200);
const _: () = assert!(size_of::<scratch_last_used_index_xcc_s>() == 16);
const _: () = assert!(align_of::<scratch_last_used_index_xcc_s>() == 8);
const _: () = assert!(offset_of!(scratch_last_used_index_xcc_s, main) == 0);
const _: () = assert!(offset_of!(scratch_last_used_index_xcc_s, alt) == 8);
const _: () = assert!(size_of::<amd_queue_v2_s>() == 2304);
const _: () = assert!(align_of::<amd_queue_v2_s>() == 64);
const _: () = assert!(offset_of!(amd_queue_v2_s, hsa_queue) == 0);
const _: () = assert!(offset_of!(amd_queue_v2_s, caps) == 40);
const _: () = assert!(offset_of!(amd_queue_v2_s, reserved1) == 44);
const _: () = assert!(offset_of!(amd_queue_v2_s, write_dispatch_id) == 56);
const _: () = assert!(offset_of!(amd_queue_v2_s, group_segment_aperture_base_hi) == 64);
const _: () = assert!(offset_of!(amd_queue_v2_s, private_segment_aperture_base_hi) == 68);
const _: () = assert!(offset_of!(amd_queue_v2_s, max_cu_id) == 72);
const _: () = assert!(offset_of!(amd_queue_v2_s, max_wave_id) == 76);
const _: () = assert!(offset_of!(amd_queue_v2_s, max_legacy_doorbell_dispatch_id_plus_1) == 80);
const _: () = assert!(offset_of!(amd_queue_v2_s, legacy_doorbell_lock) == 88);
const _: () = assert!(offset_of!(amd_queue_v2_s, reserved2) == 92);
const _: () = assert!(offset_of!(amd_queue_v2_s, read_dispatch_id) == 128);
const _: () = assert!(offset_of!(amd_queue_v2_s, read_dispatch_id_field_base_byte_offset) == 136);
const _: () = assert!(offset_of!(amd_queue_v2_s, compute_tmpring_size) == 140);
const _: () = assert!(offset_of!(amd_queue_v2_s, scratch_resource_descriptor) == 144);
const _: () = assert!(offset_of!(amd_queue_v2_s, scratch_backing_memory_location) == 160);
const _: () = assert!(offset_of!(amd_queue_v2_s, scratch_backing_memory_byte_size) == 168);
const _: () = assert!(offset_of!(amd_queue_v2_s, scratch_wave64_lane_byte_size) == 176);
const _: () = assert!(offset_of!(amd_queue_v2_s, queue_properties) == 180);
const _: () = assert!(offset_of!(amd_queue_v2_s, scratch_max_use_index) == 184);
const _: () = assert!(offset_of!(amd_queue_v2_s, queue_inactive_signal) == 192);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_max_use_index) == 200);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_resource_descriptor) == 208);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_backing_memory_location) == 224);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_dispatch_limit_x) == 232);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_dispatch_limit_y) == 236);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_dispatch_limit_z) == 240);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_scratch_wave64_lane_byte_size) == 244);
const _: () = assert!(offset_of!(amd_queue_v2_s, alt_compute_tmpring_size) == 248);
const _: () = assert!(offset_of!(amd_queue_v2_s, reserved5) == 252);
const _: () = assert!(offset_of!(amd_queue_v2_s, scratch_last_used_index) == 256);
const _: () = assert!(size_of::<amd_signal_s>() == 64);
const _: () = assert!(align_of::<amd_signal_s>() == 64);
const _: () = assert!(offset_of!(amd_signal_s, kind) == 0);
const _: () = assert!(offset_of!(amd_signal_s, value) == 8);
const _: () = assert!(offset_of!(amd_signal_s, event_mailbox_ptr) == 16);
const _: () = assert!(offset_of!(amd_signal_s, event_id) == 24);
const _: () = assert!(offset_of!(amd_signal_s, reserved1) == 28);
const _: () = assert!(offset_of!(amd_signal_s, start_ts) == 32);
const _: () = assert!(offset_of!(amd_signal_s, end_ts) == 40);
const _: () = assert!(offset_of!(amd_signal_s, queue_ptr) == 48);
const _: () = assert!(offset_of!(amd_signal_s, reserved3) == 56);
const _: () = assert!(size_of::<amd_control_directives_s>() == 128);
const _: () = assert!(align_of::<amd_control_directives_s>() == 64);
const _: () = assert!(offset_of!(amd_control_directives_s, enabled_control_directives) == 0);
const _: () = assert!(offset_of!(amd_control_directives_s, enable_break_exceptions) == 8);
const _: () = assert!(offset_of!(amd_control_directives_s, enable_detect_exceptions) == 10);
const _: () = assert!(offset_of!(amd_control_directives_s, max_dynamic_group_size) == 12);
const _: () = assert!(offset_of!(amd_control_directives_s, max_flat_grid_size) == 16);
const _: () = assert!(offset_of!(amd_control_directives_s, max_flat_workgroup_size) == 24);
const _: () = assert!(offset_of!(amd_control_directives_s, required_dim) == 28);
const _: () = assert!(offset_of!(amd_control_directives_s, reserved1) == 29);
const _: () = assert!(offset_of!(amd_control_directives_s, required_grid_size) == 32);
const _: () = assert!(offset_of!(amd_control_directives_s, required_workgroup_size) == 56);
const _: () = assert!(offset_of!(amd_control_directives_s, reserved2) == 68);
const _: () = assert!(size_of::<amd_kernel_code_s>() == 256);
const _: () = assert!(align_of::<amd_kernel_code_s>() == 64);
const _: () = assert!(offset_of!(amd_kernel_code_s, amd_kernel_code_version_major) == 0);
const _: () = assert!(offset_of!(amd_kernel_code_s, amd_kernel_code_version_minor) == 4);
const _: () = assert!(offset_of!(amd_kernel_code_s, amd_machine_kind) == 8);
const _: () = assert!(offset_of!(amd_kernel_code_s, amd_machine_version_major) == 10);
const _: () = assert!(offset_of!(amd_kernel_code_s, amd_machine_version_minor) == 12);
const _: () = assert!(offset_of!(amd_kernel_code_s, amd_machine_version_stepping) == 14);
const _: () = assert!(offset_of!(amd_kernel_code_s, kernel_code_entry_byte_offset) == 16);
const _: () = assert!(offset_of!(amd_kernel_code_s, kernel_code_prefetch_byte_offset) == 24);
const _: () = assert!(offset_of!(amd_kernel_code_s, kernel_code_prefetch_byte_size) == 32);
const _: () = assert!(offset_of!(amd_kernel_code_s, max_scratch_backing_memory_byte_size) == 40);
const _: () = assert!(offset_of!(amd_kernel_code_s, compute_pgm_rsrc1) == 48);
const _: () = assert!(offset_of!(amd_kernel_code_s, compute_pgm_rsrc2) == 52);
const _: () = assert!(offset_of!(amd_kernel_code_s, kernel_code_properties) == 56);
const _: () = assert!(offset_of!(amd_kernel_code_s, workitem_private_segment_byte_size) == 60);
const _: () = assert!(offset_of!(amd_kernel_code_s, workgroup_group_segment_byte_size) == 64);
const _: () = assert!(offset_of!(amd_kernel_code_s, gds_segment_byte_size) == 68);
const _: () = assert!(offset_of!(amd_kernel_code_s, kernarg_segment_byte_size) == 72);
const _: () = assert!(offset_of!(amd_kernel_code_s, workgroup_fbarrier_count) == 80);
const _: () = assert!(offset_of!(amd_kernel_code_s, wavefront_sgpr_count) == 84);
const _: () = assert!(offset_of!(amd_kernel_code_s, workitem_vgpr_count) == 86);
const _: () = assert!(offset_of!(amd_kernel_code_s, reserved_vgpr_first) == 88);
const _: () = assert!(offset_of!(amd_kernel_code_s, reserved_vgpr_count) == 90);
const _: () = assert!(offset_of!(amd_kernel_code_s, reserved_sgpr_first) == 92);
const _: () = assert!(offset_of!(amd_kernel_code_s, reserved_sgpr_count) == 94);
const _: () = assert!(
    offset_of!(
        amd_kernel_code_s,
        debug_wavefront_private_segment_offset_sgpr
    ) == 96
);
const _: () = assert!(offset_of!(amd_kernel_code_s, debug_private_segment_buffer_sgpr) == 98);
const _: () = assert!(offset_of!(amd_kernel_code_s, kernarg_segment_alignment) == 100);
const _: () = assert!(offset_of!(amd_kernel_code_s, group_segment_alignment) == 101);
const _: () = assert!(offset_of!(amd_kernel_code_s, private_segment_alignment) == 102);
const _: () = assert!(offset_of!(amd_kernel_code_s, wavefront_size) == 103);
const _: () = assert!(offset_of!(amd_kernel_code_s, call_convention) == 104);
const _: () = assert!(offset_of!(amd_kernel_code_s, reserved1) == 108);
const _: () = assert!(offset_of!(amd_kernel_code_s, runtime_loader_kernel_symbol) == 120);
const _: () = assert!(offset_of!(amd_kernel_code_s, control_directives) == 128);
const _: () = assert!(size_of::<amd_runtime_loader_debug_info_s>() == 32);
const _: () = assert!(align_of::<amd_runtime_loader_debug_info_s>() == 8);
const _: () = assert!(offset_of!(amd_runtime_loader_debug_info_s, elf_raw) == 0);
const _: () = assert!(offset_of!(amd_runtime_loader_debug_info_s, elf_size) == 8);
const _: () = assert!(offset_of!(amd_runtime_loader_debug_info_s, kernel_name) == 16);
const _: () = assert!(offset_of!(amd_runtime_loader_debug_info_s, owning_segment) == 24);
