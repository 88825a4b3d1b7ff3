//! AMD extension types, enums, vendor packets and function types (AMD `hsa_ext_amd.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub type hsa_signal_condition32_t = u32;

pub type hsa_amd_packet_type_t = c_uint;
pub const HSA_AMD_PACKET_TYPE_BARRIER_VALUE: hsa_amd_packet_type_t = 2;
pub const HSA_AMD_PACKET_TYPE_AIE_ERT: hsa_amd_packet_type_t = 3;

pub type hsa_amd_packet_type8_t = u8;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_packet_header_s {
    pub header: u16,
    pub AmdFormat: hsa_amd_packet_type8_t,
    pub reserved: u8,
}

pub type hsa_amd_vendor_packet_header_t = hsa_amd_packet_header_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_barrier_value_packet_s {
    pub header: hsa_amd_vendor_packet_header_t,
    pub reserved0: u32,
    pub signal: hsa_signal_t,
    pub value: hsa_signal_value_t,
    pub mask: hsa_signal_value_t,
    pub cond: hsa_signal_condition32_t,
    pub reserved1: u32,
    pub reserved2: u64,
    pub reserved3: u64,
    pub completion_signal: hsa_signal_t,
}

pub type hsa_amd_barrier_value_packet_t = hsa_amd_barrier_value_packet_s;

pub type hsa_amd_aie_ert_state = c_uint;
pub const HSA_AMD_AIE_ERT_STATE_NEW: hsa_amd_aie_ert_state = 1;
pub const HSA_AMD_AIE_ERT_STATE_QUEUED: hsa_amd_aie_ert_state = 2;
pub const HSA_AMD_AIE_ERT_STATE_RUNNING: hsa_amd_aie_ert_state = 3;
pub const HSA_AMD_AIE_ERT_STATE_COMPLETED: hsa_amd_aie_ert_state = 4;
pub const HSA_AMD_AIE_ERT_STATE_ERROR: hsa_amd_aie_ert_state = 5;
pub const HSA_AMD_AIE_ERT_STATE_ABORT: hsa_amd_aie_ert_state = 6;
pub const HSA_AMD_AIE_ERT_STATE_SUBMITTED: hsa_amd_aie_ert_state = 7;
pub const HSA_AMD_AIE_ERT_STATE_TIMEOUT: hsa_amd_aie_ert_state = 8;
pub const HSA_AMD_AIE_ERT_STATE_NORESPONSE: hsa_amd_aie_ert_state = 9;
pub const HSA_AMD_AIE_ERT_STATE_SKERROR: hsa_amd_aie_ert_state = 10;
pub const HSA_AMD_AIE_ERT_STATE_SKCRASHED: hsa_amd_aie_ert_state = 11;
pub const HSA_AMD_AIE_ERT_STATE_MAX: hsa_amd_aie_ert_state = 12;

pub type hsa_amd_aie_ert_cmd_opcode_t = c_uint;
pub const HSA_AMD_AIE_ERT_START_CU: hsa_amd_aie_ert_cmd_opcode_t = 0;
pub const HSA_AMD_AIE_ERT_START_KERNEL: hsa_amd_aie_ert_cmd_opcode_t = 0;
pub const HSA_AMD_AIE_ERT_CONFIGURE: hsa_amd_aie_ert_cmd_opcode_t = 2;
pub const HSA_AMD_AIE_ERT_EXIT: hsa_amd_aie_ert_cmd_opcode_t = 3;
pub const HSA_AMD_AIE_ERT_ABORT: hsa_amd_aie_ert_cmd_opcode_t = 4;
pub const HSA_AMD_AIE_ERT_EXEC_WRITE: hsa_amd_aie_ert_cmd_opcode_t = 5;
pub const HSA_AMD_AIE_ERT_CU_STAT: hsa_amd_aie_ert_cmd_opcode_t = 6;
pub const HSA_AMD_AIE_ERT_START_COPYBO: hsa_amd_aie_ert_cmd_opcode_t = 7;
pub const HSA_AMD_AIE_ERT_SK_CONFIG: hsa_amd_aie_ert_cmd_opcode_t = 8;
pub const HSA_AMD_AIE_ERT_SK_START: hsa_amd_aie_ert_cmd_opcode_t = 9;
pub const HSA_AMD_AIE_ERT_SK_UNCONFIG: hsa_amd_aie_ert_cmd_opcode_t = 10;
pub const HSA_AMD_AIE_ERT_INIT_CU: hsa_amd_aie_ert_cmd_opcode_t = 11;
pub const HSA_AMD_AIE_ERT_START_FA: hsa_amd_aie_ert_cmd_opcode_t = 12;
pub const HSA_AMD_AIE_ERT_CLK_CALIB: hsa_amd_aie_ert_cmd_opcode_t = 13;
pub const HSA_AMD_AIE_ERT_MB_VALIDATE: hsa_amd_aie_ert_cmd_opcode_t = 14;
pub const HSA_AMD_AIE_ERT_START_KEY_VAL: hsa_amd_aie_ert_cmd_opcode_t = 15;
pub const HSA_AMD_AIE_ERT_ACCESS_TEST_C: hsa_amd_aie_ert_cmd_opcode_t = 16;
pub const HSA_AMD_AIE_ERT_ACCESS_TEST: hsa_amd_aie_ert_cmd_opcode_t = 17;
pub const HSA_AMD_AIE_ERT_START_DPU: hsa_amd_aie_ert_cmd_opcode_t = 18;
pub const HSA_AMD_AIE_ERT_CMD_CHAIN: hsa_amd_aie_ert_cmd_opcode_t = 19;
pub const HSA_AMD_AIE_ERT_START_NPU: hsa_amd_aie_ert_cmd_opcode_t = 20;
pub const HSA_AMD_AIE_ERT_START_NPU_PREEMPT: hsa_amd_aie_ert_cmd_opcode_t = 21;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_aie_ert_start_kernel_data_s {
    pub pdi_addr: *mut c_void,
    pub data: [u32; 0],
}

pub type hsa_amd_aie_ert_start_kernel_data_t = hsa_amd_aie_ert_start_kernel_data_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_aie_ert_packet_s {
    pub header: hsa_amd_vendor_packet_header_t,
    /// bit-fields (LSB first): state:4 custom:8 count:11 opcode:5 type:4
    pub _bitfield_0: u32,
    pub reserved0: u64,
    pub reserved1: u64,
    pub reserved2: u64,
    pub reserved3: u64,
    pub reserved4: u64,
    pub reserved5: u64,
    pub payload_data: u64,
}

pub type hsa_amd_aie_ert_packet_t = hsa_amd_aie_ert_packet_s;

pub const HSA_STATUS_ERROR_INVALID_MEMORY_POOL: c_uint = 40;
pub const HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: c_uint = 41;
pub const HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: c_uint = 42;
pub const HSA_STATUS_ERROR_MEMORY_FAULT: c_uint = 43;
pub const HSA_STATUS_CU_MASK_REDUCED: c_uint = 44;
pub const HSA_STATUS_ERROR_OUT_OF_REGISTERS: c_uint = 45;
pub const HSA_STATUS_ERROR_RESOURCE_BUSY: c_uint = 46;
pub const HSA_STATUS_ERROR_NOT_SUPPORTED: c_uint = 47;

pub type hsa_amd_iommu_version_t = c_uint;
pub const HSA_IOMMU_SUPPORT_NONE: hsa_amd_iommu_version_t = 0;
pub const HSA_IOMMU_SUPPORT_V2: hsa_amd_iommu_version_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_clock_counters_s {
    pub gpu_clock_counter: u64,
    pub cpu_clock_counter: u64,
    pub system_clock_counter: u64,
    pub system_clock_frequency: u64,
}

pub type hsa_amd_clock_counters_t = hsa_amd_clock_counters_s;

pub type hsa_amd_agent_info_t = c_uint;
pub type hsa_amd_agent_info_s = c_uint;
pub const HSA_AMD_AGENT_INFO_CHIP_ID: hsa_amd_agent_info_t = 40960;
pub const HSA_AMD_AGENT_INFO_CACHELINE_SIZE: hsa_amd_agent_info_t = 40961;
pub const HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: hsa_amd_agent_info_t = 40962;
pub const HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY: hsa_amd_agent_info_t = 40963;
pub const HSA_AMD_AGENT_INFO_DRIVER_NODE_ID: hsa_amd_agent_info_t = 40964;
pub const HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS: hsa_amd_agent_info_t = 40965;
pub const HSA_AMD_AGENT_INFO_BDFID: hsa_amd_agent_info_t = 40966;
pub const HSA_AMD_AGENT_INFO_MEMORY_WIDTH: hsa_amd_agent_info_t = 40967;
pub const HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY: hsa_amd_agent_info_t = 40968;
pub const HSA_AMD_AGENT_INFO_PRODUCT_NAME: hsa_amd_agent_info_t = 40969;
pub const HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU: hsa_amd_agent_info_t = 40970;
pub const HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU: hsa_amd_agent_info_t = 40971;
pub const HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES: hsa_amd_agent_info_t = 40972;
pub const HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE: hsa_amd_agent_info_t = 40973;
pub const HSA_AMD_AGENT_INFO_HDP_FLUSH: hsa_amd_agent_info_t = 40974;
pub const HSA_AMD_AGENT_INFO_DOMAIN: hsa_amd_agent_info_t = 40975;
pub const HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES: hsa_amd_agent_info_t = 40976;
pub const HSA_AMD_AGENT_INFO_UUID: hsa_amd_agent_info_t = 40977;
pub const HSA_AMD_AGENT_INFO_ASIC_REVISION: hsa_amd_agent_info_t = 40978;
pub const HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS: hsa_amd_agent_info_t = 40979;
pub const HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT: hsa_amd_agent_info_t = 40980;
pub const HSA_AMD_AGENT_INFO_MEMORY_AVAIL: hsa_amd_agent_info_t = 40981;
pub const HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY: hsa_amd_agent_info_t = 40982;
pub const HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID: hsa_amd_agent_info_t = 41223;
pub const HSA_AMD_AGENT_INFO_UCODE_VERSION: hsa_amd_agent_info_t = 41224;
pub const HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION: hsa_amd_agent_info_t = 41225;
pub const HSA_AMD_AGENT_INFO_NUM_SDMA_ENG: hsa_amd_agent_info_t = 41226;
pub const HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG: hsa_amd_agent_info_t = 41227;
pub const HSA_AMD_AGENT_INFO_IOMMU_SUPPORT: hsa_amd_agent_info_t = 41232;
pub const HSA_AMD_AGENT_INFO_NUM_XCC: hsa_amd_agent_info_t = 41233;
pub const HSA_AMD_AGENT_INFO_DRIVER_UID: hsa_amd_agent_info_t = 41234;
pub const HSA_AMD_AGENT_INFO_NEAREST_CPU: hsa_amd_agent_info_t = 41235;
pub const HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES: hsa_amd_agent_info_t = 41236;
pub const HSA_AMD_AGENT_INFO_AQL_EXTENSIONS: hsa_amd_agent_info_t = 41237;
pub const HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX: hsa_amd_agent_info_t = 41238;
pub const HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT: hsa_amd_agent_info_t = 41239;
pub const HSA_AMD_AGENT_INFO_CLOCK_COUNTERS: hsa_amd_agent_info_t = 41240;

pub type hsa_amd_agent_memory_properties_t = c_uint;
pub type hsa_amd_agent_memory_properties_s = c_uint;
pub const HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU: hsa_amd_agent_memory_properties_t = 1;

pub type hsa_amd_sdma_engine_id_t = c_uint;
pub type hsa_amd_sdma_engine_id = c_uint;
pub const HSA_AMD_SDMA_ENGINE_0: hsa_amd_sdma_engine_id_t = 1;
pub const HSA_AMD_SDMA_ENGINE_1: hsa_amd_sdma_engine_id_t = 2;
pub const HSA_AMD_SDMA_ENGINE_2: hsa_amd_sdma_engine_id_t = 4;
pub const HSA_AMD_SDMA_ENGINE_3: hsa_amd_sdma_engine_id_t = 8;
pub const HSA_AMD_SDMA_ENGINE_4: hsa_amd_sdma_engine_id_t = 16;
pub const HSA_AMD_SDMA_ENGINE_5: hsa_amd_sdma_engine_id_t = 32;
pub const HSA_AMD_SDMA_ENGINE_6: hsa_amd_sdma_engine_id_t = 64;
pub const HSA_AMD_SDMA_ENGINE_7: hsa_amd_sdma_engine_id_t = 128;
pub const HSA_AMD_SDMA_ENGINE_8: hsa_amd_sdma_engine_id_t = 256;
pub const HSA_AMD_SDMA_ENGINE_9: hsa_amd_sdma_engine_id_t = 512;
pub const HSA_AMD_SDMA_ENGINE_10: hsa_amd_sdma_engine_id_t = 1024;
pub const HSA_AMD_SDMA_ENGINE_11: hsa_amd_sdma_engine_id_t = 2048;
pub const HSA_AMD_SDMA_ENGINE_12: hsa_amd_sdma_engine_id_t = 4096;
pub const HSA_AMD_SDMA_ENGINE_13: hsa_amd_sdma_engine_id_t = 8192;
pub const HSA_AMD_SDMA_ENGINE_14: hsa_amd_sdma_engine_id_t = 16384;
pub const HSA_AMD_SDMA_ENGINE_15: hsa_amd_sdma_engine_id_t = 32768;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_hdp_flush_s {
    pub HDP_MEM_FLUSH_CNTL: *mut u32,
    pub HDP_REG_FLUSH_CNTL: *mut u32,
}

pub type hsa_amd_hdp_flush_t = hsa_amd_hdp_flush_s;

pub type hsa_amd_region_info_t = c_uint;
pub type hsa_amd_region_info_s = c_uint;
pub const HSA_AMD_REGION_INFO_HOST_ACCESSIBLE: hsa_amd_region_info_t = 40960;
pub const HSA_AMD_REGION_INFO_BASE: hsa_amd_region_info_t = 40961;
pub const HSA_AMD_REGION_INFO_BUS_WIDTH: hsa_amd_region_info_t = 40962;
pub const HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY: hsa_amd_region_info_t = 40963;

pub type hsa_amd_coherency_type_t = c_uint;
pub type hsa_amd_coherency_type_s = c_uint;
pub const HSA_AMD_COHERENCY_TYPE_COHERENT: hsa_amd_coherency_type_t = 0;
pub const HSA_AMD_COHERENCY_TYPE_NONCOHERENT: hsa_amd_coherency_type_t = 1;

pub type hsa_amd_dma_buf_mapping_type_t = c_uint;
pub type hsa_amd_dma_buf_mapping_type_s = c_uint;
pub const HSA_AMD_DMABUF_MAPPING_TYPE_NONE: hsa_amd_dma_buf_mapping_type_t = 0;
pub const HSA_AMD_DMABUF_MAPPING_TYPE_PCIE: hsa_amd_dma_buf_mapping_type_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_profiling_dispatch_time_s {
    pub start: u64,
    pub end: u64,
}

pub type hsa_amd_profiling_dispatch_time_t = hsa_amd_profiling_dispatch_time_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_profiling_async_copy_time_s {
    pub start: u64,
    pub end: u64,
}

pub type hsa_amd_profiling_async_copy_time_t = hsa_amd_profiling_async_copy_time_s;

pub type hsa_amd_signal_attribute_t = c_uint;
pub const HSA_AMD_SIGNAL_AMD_GPU_ONLY: hsa_amd_signal_attribute_t = 1;
pub const HSA_AMD_SIGNAL_IPC: hsa_amd_signal_attribute_t = 2;

pub type hsa_amd_signal_handler = Option<unsafe extern "C" fn(value: hsa_signal_value_t, arg: *mut c_void) -> bool>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_image_descriptor_s {
    pub version: u32,
    pub deviceID: u32,
    pub data: [u32; 1],
}

pub type hsa_amd_image_descriptor_t = hsa_amd_image_descriptor_s;

pub type hsa_amd_segment_t = c_uint;
pub const HSA_AMD_SEGMENT_GLOBAL: hsa_amd_segment_t = 0;
pub const HSA_AMD_SEGMENT_READONLY: hsa_amd_segment_t = 1;
pub const HSA_AMD_SEGMENT_PRIVATE: hsa_amd_segment_t = 2;
pub const HSA_AMD_SEGMENT_GROUP: hsa_amd_segment_t = 3;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_amd_memory_pool_s {
    pub handle: u64,
}

pub type hsa_amd_memory_pool_t = hsa_amd_memory_pool_s;

pub type hsa_amd_memory_pool_global_flag_t = c_uint;
pub type hsa_amd_memory_pool_global_flag_s = c_uint;
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT: hsa_amd_memory_pool_global_flag_t = 1;
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED: hsa_amd_memory_pool_global_flag_t = 2;
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED: hsa_amd_memory_pool_global_flag_t = 4;
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED: hsa_amd_memory_pool_global_flag_t = 8;

pub type hsa_amd_memory_pool_location_t = c_uint;
pub type hsa_amd_memory_pool_location_s = c_uint;
pub const HSA_AMD_MEMORY_POOL_LOCATION_CPU: hsa_amd_memory_pool_location_t = 0;
pub const HSA_AMD_MEMORY_POOL_LOCATION_GPU: hsa_amd_memory_pool_location_t = 1;

pub type hsa_amd_memory_pool_info_t = c_uint;
pub const HSA_AMD_MEMORY_POOL_INFO_SEGMENT: hsa_amd_memory_pool_info_t = 0;
pub const HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS: hsa_amd_memory_pool_info_t = 1;
pub const HSA_AMD_MEMORY_POOL_INFO_SIZE: hsa_amd_memory_pool_info_t = 2;
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: hsa_amd_memory_pool_info_t = 5;
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE: hsa_amd_memory_pool_info_t = 6;
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT: hsa_amd_memory_pool_info_t = 7;
pub const HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL: hsa_amd_memory_pool_info_t = 15;
pub const HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE: hsa_amd_memory_pool_info_t = 16;
pub const HSA_AMD_MEMORY_POOL_INFO_LOCATION: hsa_amd_memory_pool_info_t = 17;
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE: hsa_amd_memory_pool_info_t = 18;

pub type hsa_amd_memory_pool_flag_t = c_uint;
pub type hsa_amd_memory_pool_flag_s = c_uint;
pub const HSA_AMD_MEMORY_POOL_STANDARD_FLAG: hsa_amd_memory_pool_flag_t = 0;
pub const HSA_AMD_MEMORY_POOL_PCIE_FLAG: hsa_amd_memory_pool_flag_t = 1;
pub const HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG: hsa_amd_memory_pool_flag_t = 2;
pub const HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG: hsa_amd_memory_pool_flag_t = 4;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_pitched_ptr_s {
    pub base: *mut c_void,
    pub pitch: usize,
    pub slice: usize,
}

pub type hsa_pitched_ptr_t = hsa_pitched_ptr_s;

pub type hsa_amd_copy_direction_t = c_uint;
pub const hsaHostToHost: hsa_amd_copy_direction_t = 0;
pub const hsaHostToDevice: hsa_amd_copy_direction_t = 1;
pub const hsaDeviceToHost: hsa_amd_copy_direction_t = 2;
pub const hsaDeviceToDevice: hsa_amd_copy_direction_t = 3;

pub type hsa_amd_memory_pool_access_t = c_uint;
pub const HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED: hsa_amd_memory_pool_access_t = 0;
pub const HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT: hsa_amd_memory_pool_access_t = 1;
pub const HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT: hsa_amd_memory_pool_access_t = 2;

pub type hsa_amd_link_info_type_t = c_uint;
pub const HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT: hsa_amd_link_info_type_t = 0;
pub const HSA_AMD_LINK_INFO_TYPE_QPI: hsa_amd_link_info_type_t = 1;
pub const HSA_AMD_LINK_INFO_TYPE_PCIE: hsa_amd_link_info_type_t = 2;
pub const HSA_AMD_LINK_INFO_TYPE_INFINBAND: hsa_amd_link_info_type_t = 3;
pub const HSA_AMD_LINK_INFO_TYPE_XGMI: hsa_amd_link_info_type_t = 4;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_memory_pool_link_info_s {
    pub min_latency: u32,
    pub max_latency: u32,
    pub min_bandwidth: u32,
    pub max_bandwidth: u32,
    pub atomic_support_32bit: bool,
    pub atomic_support_64bit: bool,
    pub coherent_support: bool,
    pub link_type: hsa_amd_link_info_type_t,
    pub numa_distance: u32,
}

pub type hsa_amd_memory_pool_link_info_t = hsa_amd_memory_pool_link_info_s;

pub type hsa_amd_agent_memory_pool_info_t = c_uint;
pub const HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS: hsa_amd_agent_memory_pool_info_t = 0;
pub const HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS: hsa_amd_agent_memory_pool_info_t = 1;
pub const HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO: hsa_amd_agent_memory_pool_info_t = 2;

pub type hsa_amd_pointer_type_t = c_uint;
pub const HSA_EXT_POINTER_TYPE_UNKNOWN: hsa_amd_pointer_type_t = 0;
pub const HSA_EXT_POINTER_TYPE_HSA: hsa_amd_pointer_type_t = 1;
pub const HSA_EXT_POINTER_TYPE_LOCKED: hsa_amd_pointer_type_t = 2;
pub const HSA_EXT_POINTER_TYPE_GRAPHICS: hsa_amd_pointer_type_t = 3;
pub const HSA_EXT_POINTER_TYPE_IPC: hsa_amd_pointer_type_t = 4;
pub const HSA_EXT_POINTER_TYPE_RESERVED_ADDR: hsa_amd_pointer_type_t = 5;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_pointer_info_s {
    pub size: u32,
    pub r#type: hsa_amd_pointer_type_t,
    pub agentBaseAddress: *mut c_void,
    pub hostBaseAddress: *mut c_void,
    pub sizeInBytes: usize,
    pub userData: *mut c_void,
    pub agentOwner: hsa_agent_t,
    pub global_flags: u32,
}

pub type hsa_amd_pointer_info_t = hsa_amd_pointer_info_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_ipc_memory_s {
    pub handle: [u32; 8],
}

pub type hsa_amd_ipc_memory_t = hsa_amd_ipc_memory_s;

pub type hsa_amd_ipc_signal_t = hsa_amd_ipc_memory_t;

pub type hsa_amd_event_type_t = c_uint;
pub type hsa_amd_event_type_s = c_uint;
pub const HSA_AMD_GPU_MEMORY_FAULT_EVENT: hsa_amd_event_type_t = 0;
pub const HSA_AMD_GPU_HW_EXCEPTION_EVENT: hsa_amd_event_type_t = 1;
pub const HSA_AMD_GPU_MEMORY_ERROR_EVENT: hsa_amd_event_type_t = 2;

pub type hsa_amd_memory_fault_reason_t = c_uint;
pub const HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT: hsa_amd_memory_fault_reason_t = 1;
pub const HSA_AMD_MEMORY_FAULT_READ_ONLY: hsa_amd_memory_fault_reason_t = 2;
pub const HSA_AMD_MEMORY_FAULT_NX: hsa_amd_memory_fault_reason_t = 4;
pub const HSA_AMD_MEMORY_FAULT_HOST_ONLY: hsa_amd_memory_fault_reason_t = 8;
pub const HSA_AMD_MEMORY_FAULT_DRAMECC: hsa_amd_memory_fault_reason_t = 16;
pub const HSA_AMD_MEMORY_FAULT_IMPRECISE: hsa_amd_memory_fault_reason_t = 32;
pub const HSA_AMD_MEMORY_FAULT_SRAMECC: hsa_amd_memory_fault_reason_t = 64;
pub const HSA_AMD_MEMORY_FAULT_HANG: hsa_amd_memory_fault_reason_t = 2147483648;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_gpu_memory_fault_info_s {
    pub agent: hsa_agent_t,
    pub virtual_address: u64,
    pub fault_reason_mask: u32,
}

pub type hsa_amd_gpu_memory_fault_info_t = hsa_amd_gpu_memory_fault_info_s;

pub type hsa_amd_memory_error_reason_t = c_uint;
pub const HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE: hsa_amd_memory_error_reason_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_gpu_memory_error_info_s {
    pub agent: hsa_agent_t,
    pub virtual_address: u64,
    pub error_reason_mask: u32,
}

pub type hsa_amd_gpu_memory_error_info_t = hsa_amd_gpu_memory_error_info_s;

pub type hsa_amd_hw_exception_reset_type_t = c_uint;
pub const HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER: hsa_amd_hw_exception_reset_type_t = 1;

pub type hsa_amd_hw_exception_reset_cause_t = c_uint;
pub const HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG: hsa_amd_hw_exception_reset_cause_t = 1;
pub const HSA_AMD_HW_EXCEPTION_CAUSE_ECC: hsa_amd_hw_exception_reset_cause_t = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_gpu_hw_exception_info_s {
    pub agent: hsa_agent_t,
    pub reset_type: hsa_amd_hw_exception_reset_type_t,
    pub reset_cause: hsa_amd_hw_exception_reset_cause_t,
}

pub type hsa_amd_gpu_hw_exception_info_t = hsa_amd_gpu_hw_exception_info_s;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct hsa_amd_event_s {
    pub event_type: hsa_amd_event_type_t,
    /// C anonymous union of: memory_fault, hw_exception, memory_error
    pub u: hsa_amd_event_s_anon_union,
}

pub type hsa_amd_event_t = hsa_amd_event_s;

pub type hsa_amd_system_event_callback_t =
    Option<unsafe extern "C" fn(event: *const hsa_amd_event_t, data: *mut c_void) -> hsa_status_t>;

pub type hsa_amd_queue_priority_t = c_uint;
pub type hsa_amd_queue_priority_s = c_uint;
pub const HSA_AMD_QUEUE_PRIORITY_LOW: hsa_amd_queue_priority_t = 0;
pub const HSA_AMD_QUEUE_PRIORITY_NORMAL: hsa_amd_queue_priority_t = 1;
pub const HSA_AMD_QUEUE_PRIORITY_HIGH: hsa_amd_queue_priority_t = 2;

pub type hsa_amd_queue_create_flag_t = c_uint;
pub const HSA_AMD_QUEUE_CREATE_SYSTEM_MEM: hsa_amd_queue_create_flag_t = 0;
pub const HSA_AMD_QUEUE_CREATE_DEVICE_MEM_RING_BUF: hsa_amd_queue_create_flag_t = 1;
pub const HSA_AMD_QUEUE_CREATE_DEVICE_MEM_QUEUE_DESCRIPTOR: hsa_amd_queue_create_flag_t = 2;

pub type hsa_amd_deallocation_callback_t = Option<unsafe extern "C" fn(ptr: *mut c_void, user_data: *mut c_void)>;

pub type hsa_amd_svm_model_t = c_uint;
pub type hsa_amd_svm_model_s = c_uint;
pub const HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED: hsa_amd_svm_model_t = 0;
pub const HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED: hsa_amd_svm_model_t = 1;
pub const HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE: hsa_amd_svm_model_t = 2;

pub type hsa_amd_svm_attribute_t = c_uint;
pub type hsa_amd_svm_attribute_s = c_uint;
pub const HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG: hsa_amd_svm_attribute_t = 0;
pub const HSA_AMD_SVM_ATTRIB_READ_ONLY: hsa_amd_svm_attribute_t = 1;
pub const HSA_AMD_SVM_ATTRIB_HIVE_LOCAL: hsa_amd_svm_attribute_t = 2;
pub const HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY: hsa_amd_svm_attribute_t = 3;
pub const HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: hsa_amd_svm_attribute_t = 4;
pub const HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION: hsa_amd_svm_attribute_t = 5;
pub const HSA_AMD_SVM_ATTRIB_READ_MOSTLY: hsa_amd_svm_attribute_t = 6;
pub const HSA_AMD_SVM_ATTRIB_GPU_EXEC: hsa_amd_svm_attribute_t = 7;
pub const HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE: hsa_amd_svm_attribute_t = 512;
pub const HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE: hsa_amd_svm_attribute_t = 513;
pub const HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS: hsa_amd_svm_attribute_t = 514;
pub const HSA_AMD_SVM_ATTRIB_ACCESS_QUERY: hsa_amd_svm_attribute_t = 515;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_svm_attribute_pair_s {
    pub attribute: u64,
    pub value: u64,
}

pub type hsa_amd_svm_attribute_pair_t = hsa_amd_svm_attribute_pair_s;

pub type hsa_amd_vmem_address_reserve_flag_t = c_uint;
pub type hsa_amd_vmem_address_reserve_flag_s = c_uint;
pub const HSA_AMD_VMEM_ADDRESS_NO_REGISTER: hsa_amd_vmem_address_reserve_flag_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_amd_vmem_alloc_handle_s {
    pub handle: u64,
}

pub type hsa_amd_vmem_alloc_handle_t = hsa_amd_vmem_alloc_handle_s;

pub type hsa_amd_memory_type_t = c_uint;
pub const MEMORY_TYPE_NONE: hsa_amd_memory_type_t = 0;
pub const MEMORY_TYPE_PINNED: hsa_amd_memory_type_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_memory_access_desc_s {
    pub permissions: hsa_access_permission_t,
    pub agent_handle: hsa_agent_t,
}

pub type hsa_amd_memory_access_desc_t = hsa_amd_memory_access_desc_s;

pub type hsa_queue_info_attribute_t = c_uint;
pub const HSA_AMD_QUEUE_INFO_AGENT: hsa_queue_info_attribute_t = 0;
pub const HSA_AMD_QUEUE_INFO_DOORBELL_ID: hsa_queue_info_attribute_t = 1;

pub type hsa_amd_log_flag_t = c_uint;
pub type hsa_amd_log_flag_s = c_uint;
pub const HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS: hsa_amd_log_flag_t = 0;

#[repr(C)]
#[derive(Clone, Copy)]
pub union hsa_amd_event_s_anon_union {
    pub memory_fault: hsa_amd_gpu_memory_fault_info_t,
    pub hw_exception: hsa_amd_gpu_hw_exception_info_t,
    pub memory_error: hsa_amd_gpu_memory_error_info_t,
}

// Function types.

/// Type of `hsa_amd_coherency_get_type` (and of its `hsa_amd_coherency_get_type_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_coherency_get_type =
    unsafe extern "C" fn(agent: hsa_agent_t, type_: *mut hsa_amd_coherency_type_t) -> hsa_status_t;

/// Type of `hsa_amd_coherency_set_type` (and of its `hsa_amd_coherency_set_type_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_coherency_set_type =
    unsafe extern "C" fn(agent: hsa_agent_t, type_: hsa_amd_coherency_type_t) -> hsa_status_t;

/// Type of `hsa_amd_profiling_set_profiler_enabled` (and of its `hsa_amd_profiling_set_profiler_enabled_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_profiling_set_profiler_enabled =
    unsafe extern "C" fn(queue: *mut hsa_queue_t, enable: c_int) -> hsa_status_t;

/// Type of `hsa_amd_profiling_async_copy_enable` (and of its `hsa_amd_profiling_async_copy_enable_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_profiling_async_copy_enable = unsafe extern "C" fn(enable: bool) -> hsa_status_t;

/// Type of `hsa_amd_profiling_get_dispatch_time` (and of its `hsa_amd_profiling_get_dispatch_time_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_profiling_get_dispatch_time = unsafe extern "C" fn(
    agent: hsa_agent_t,
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_dispatch_time_t,
) -> hsa_status_t;

/// Type of `hsa_amd_profiling_get_async_copy_time` (and of its `hsa_amd_profiling_get_async_copy_time_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_profiling_get_async_copy_time =
    unsafe extern "C" fn(signal: hsa_signal_t, time: *mut hsa_amd_profiling_async_copy_time_t) -> hsa_status_t;

/// Type of `hsa_amd_profiling_convert_tick_to_system_domain` (and of its `hsa_amd_profiling_convert_tick_to_system_domain_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_profiling_convert_tick_to_system_domain =
    unsafe extern "C" fn(agent: hsa_agent_t, agent_tick: u64, system_tick: *mut u64) -> hsa_status_t;

/// Type of `hsa_amd_signal_create` (and of its `hsa_amd_signal_create_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_signal_create = unsafe extern "C" fn(
    initial_value: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    attributes: u64,
    signal: *mut hsa_signal_t,
) -> hsa_status_t;

/// Type of `hsa_amd_signal_value_pointer` (and of its `hsa_amd_signal_value_pointer_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_signal_value_pointer =
    unsafe extern "C" fn(signal: hsa_signal_t, value_ptr: *mut *mut hsa_signal_value_t) -> hsa_status_t;

/// Type of `hsa_amd_signal_async_handler` (and of its `hsa_amd_signal_async_handler_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_signal_async_handler = unsafe extern "C" fn(
    signal: hsa_signal_t,
    cond: hsa_signal_condition_t,
    value: hsa_signal_value_t,
    handler: hsa_amd_signal_handler,
    arg: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_signal_wait_all` (and of its `hsa_amd_signal_wait_all_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_signal_wait_all = unsafe extern "C" fn(
    signal_count: u32,
    signals: *mut hsa_signal_t,
    conds: *mut hsa_signal_condition_t,
    values: *mut hsa_signal_value_t,
    timeout_hint: u64,
    wait_hint: hsa_wait_state_t,
    satisfying_values: *mut hsa_signal_value_t,
) -> u32;

/// Type of `hsa_amd_signal_wait_any` (and of its `hsa_amd_signal_wait_any_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_signal_wait_any = unsafe extern "C" fn(
    signal_count: u32,
    signals: *mut hsa_signal_t,
    conds: *mut hsa_signal_condition_t,
    values: *mut hsa_signal_value_t,
    timeout_hint: u64,
    wait_hint: hsa_wait_state_t,
    satisfying_value: *mut hsa_signal_value_t,
) -> u32;

/// Type of `hsa_amd_async_function` (and of its `hsa_amd_async_function_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_async_function =
    unsafe extern "C" fn(callback: Option<unsafe extern "C" fn(arg: *mut c_void)>, arg: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_image_create` (and of its `hsa_amd_image_create_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_image_create = unsafe extern "C" fn(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_layout: *const hsa_amd_image_descriptor_t,
    image_data: *const c_void,
    access_permission: hsa_access_permission_t,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t;

/// Type of `hsa_amd_image_get_info_max_dim` (and of its `hsa_amd_image_get_info_max_dim_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_image_get_info_max_dim =
    unsafe extern "C" fn(agent: hsa_agent_t, attribute: hsa_agent_info_t, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_queue_cu_set_mask` (and of its `hsa_amd_queue_cu_set_mask_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_queue_cu_set_mask =
    unsafe extern "C" fn(queue: *const hsa_queue_t, num_cu_mask_count: u32, cu_mask: *const u32) -> hsa_status_t;

/// Type of `hsa_amd_queue_cu_get_mask` (and of its `hsa_amd_queue_cu_get_mask_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_queue_cu_get_mask =
    unsafe extern "C" fn(queue: *const hsa_queue_t, num_cu_mask_count: u32, cu_mask: *mut u32) -> hsa_status_t;

/// Type of `hsa_amd_memory_pool_get_info` (and of its `hsa_amd_memory_pool_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_pool_get_info = unsafe extern "C" fn(
    memory_pool: hsa_amd_memory_pool_t,
    attribute: hsa_amd_memory_pool_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_agent_iterate_memory_pools` (and of its `hsa_amd_agent_iterate_memory_pools_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_agent_iterate_memory_pools = unsafe extern "C" fn(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(memory_pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_pool_allocate` (and of its `hsa_amd_memory_pool_allocate_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_pool_allocate = unsafe extern "C" fn(
    memory_pool: hsa_amd_memory_pool_t,
    size: usize,
    flags: u32,
    ptr: *mut *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_pool_free` (and of its `hsa_amd_memory_pool_free_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_pool_free = unsafe extern "C" fn(ptr: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_memory_async_copy` (and of its `hsa_amd_memory_async_copy_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_async_copy = unsafe extern "C" fn(
    dst: *mut c_void,
    dst_agent: hsa_agent_t,
    src: *const c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_async_copy_on_engine` (and of its `hsa_amd_memory_async_copy_on_engine_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_async_copy_on_engine = unsafe extern "C" fn(
    dst: *mut c_void,
    dst_agent: hsa_agent_t,
    src: *const c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
    engine_id: hsa_amd_sdma_engine_id_t,
    force_copy_on_sdma: bool,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_copy_engine_status` (and of its `hsa_amd_memory_copy_engine_status_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_copy_engine_status =
    unsafe extern "C" fn(dst_agent: hsa_agent_t, src_agent: hsa_agent_t, engine_ids_mask: *mut u32) -> hsa_status_t;

/// Type of `hsa_amd_memory_get_preferred_copy_engine` (and of its `hsa_amd_memory_get_preferred_copy_engine_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_get_preferred_copy_engine = unsafe extern "C" fn(
    dst_agent: hsa_agent_t,
    src_agent: hsa_agent_t,
    recommended_ids_mask: *mut u32,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_async_copy_rect` (and of its `hsa_amd_memory_async_copy_rect_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_async_copy_rect = unsafe extern "C" fn(
    dst: *const hsa_pitched_ptr_t,
    dst_offset: *const hsa_dim3_t,
    src: *const hsa_pitched_ptr_t,
    src_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
    copy_agent: hsa_agent_t,
    dir: hsa_amd_copy_direction_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t;

/// Type of `hsa_amd_agent_memory_pool_get_info` (and of its `hsa_amd_agent_memory_pool_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_agent_memory_pool_get_info = unsafe extern "C" fn(
    agent: hsa_agent_t,
    memory_pool: hsa_amd_memory_pool_t,
    attribute: hsa_amd_agent_memory_pool_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_agents_allow_access` (and of its `hsa_amd_agents_allow_access_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_agents_allow_access = unsafe extern "C" fn(
    num_agents: u32,
    agents: *const hsa_agent_t,
    flags: *const u32,
    ptr: *const c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_pool_can_migrate` (and of its `hsa_amd_memory_pool_can_migrate_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_pool_can_migrate = unsafe extern "C" fn(
    src_memory_pool: hsa_amd_memory_pool_t,
    dst_memory_pool: hsa_amd_memory_pool_t,
    result: *mut bool,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_migrate` (and of its `hsa_amd_memory_migrate_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_migrate =
    unsafe extern "C" fn(ptr: *const c_void, memory_pool: hsa_amd_memory_pool_t, flags: u32) -> hsa_status_t;

/// Type of `hsa_amd_memory_lock` (and of its `hsa_amd_memory_lock_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_lock = unsafe extern "C" fn(
    host_ptr: *mut c_void,
    size: usize,
    agents: *mut hsa_agent_t,
    num_agent: c_int,
    agent_ptr: *mut *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_lock_to_pool` (and of its `hsa_amd_memory_lock_to_pool_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_lock_to_pool = unsafe extern "C" fn(
    host_ptr: *mut c_void,
    size: usize,
    agents: *mut hsa_agent_t,
    num_agent: c_int,
    pool: hsa_amd_memory_pool_t,
    flags: u32,
    agent_ptr: *mut *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_memory_unlock` (and of its `hsa_amd_memory_unlock_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_unlock = unsafe extern "C" fn(host_ptr: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_memory_fill` (and of its `hsa_amd_memory_fill_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_memory_fill = unsafe extern "C" fn(ptr: *mut c_void, value: u32, count: usize) -> hsa_status_t;

/// Type of `hsa_amd_interop_map_buffer` (and of its `hsa_amd_interop_map_buffer_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_interop_map_buffer = unsafe extern "C" fn(
    num_agents: u32,
    agents: *mut hsa_agent_t,
    interop_handle: c_int,
    flags: u32,
    size: *mut usize,
    ptr: *mut *mut c_void,
    metadata_size: *mut usize,
    metadata: *mut *const c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_interop_unmap_buffer` (and of its `hsa_amd_interop_unmap_buffer_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_interop_unmap_buffer = unsafe extern "C" fn(ptr: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_pointer_info` (and of its `hsa_amd_pointer_info_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_pointer_info = unsafe extern "C" fn(
    ptr: *const c_void,
    info: *mut hsa_amd_pointer_info_t,
    alloc: Option<unsafe extern "C" fn(arg0: usize) -> *mut c_void>,
    num_agents_accessible: *mut u32,
    accessible: *mut *mut hsa_agent_t,
) -> hsa_status_t;

/// Type of `hsa_amd_pointer_info_set_userdata` (and of its `hsa_amd_pointer_info_set_userdata_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_pointer_info_set_userdata =
    unsafe extern "C" fn(ptr: *const c_void, userdata: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_ipc_memory_create` (and of its `hsa_amd_ipc_memory_create_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_ipc_memory_create =
    unsafe extern "C" fn(ptr: *mut c_void, len: usize, handle: *mut hsa_amd_ipc_memory_t) -> hsa_status_t;

/// Type of `hsa_amd_ipc_memory_attach` (and of its `hsa_amd_ipc_memory_attach_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_ipc_memory_attach = unsafe extern "C" fn(
    handle: *const hsa_amd_ipc_memory_t,
    len: usize,
    num_agents: u32,
    mapping_agents: *const hsa_agent_t,
    mapped_ptr: *mut *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_ipc_memory_detach` (and of its `hsa_amd_ipc_memory_detach_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_ipc_memory_detach = unsafe extern "C" fn(mapped_ptr: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_ipc_signal_create` (and of its `hsa_amd_ipc_signal_create_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_ipc_signal_create =
    unsafe extern "C" fn(signal: hsa_signal_t, handle: *mut hsa_amd_ipc_signal_t) -> hsa_status_t;

/// Type of `hsa_amd_ipc_signal_attach` (and of its `hsa_amd_ipc_signal_attach_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_ipc_signal_attach =
    unsafe extern "C" fn(handle: *const hsa_amd_ipc_signal_t, signal: *mut hsa_signal_t) -> hsa_status_t;

/// Type of `hsa_amd_register_system_event_handler` (and of its `hsa_amd_register_system_event_handler_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_register_system_event_handler =
    unsafe extern "C" fn(callback: hsa_amd_system_event_callback_t, data: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_queue_set_priority` (and of its `hsa_amd_queue_set_priority_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_queue_set_priority =
    unsafe extern "C" fn(queue: *mut hsa_queue_t, priority: hsa_amd_queue_priority_t) -> hsa_status_t;

/// Type of `hsa_amd_register_deallocation_callback` (and of its `hsa_amd_register_deallocation_callback_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_register_deallocation_callback = unsafe extern "C" fn(
    ptr: *mut c_void,
    callback: hsa_amd_deallocation_callback_t,
    user_data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_deregister_deallocation_callback` (and of its `hsa_amd_deregister_deallocation_callback_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_deregister_deallocation_callback =
    unsafe extern "C" fn(ptr: *mut c_void, callback: hsa_amd_deallocation_callback_t) -> hsa_status_t;

/// Type of `hsa_amd_svm_attributes_set` (and of its `hsa_amd_svm_attributes_set_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_svm_attributes_set = unsafe extern "C" fn(
    ptr: *mut c_void,
    size: usize,
    attribute_list: *mut hsa_amd_svm_attribute_pair_t,
    attribute_count: usize,
) -> hsa_status_t;

/// Type of `hsa_amd_svm_attributes_get` (and of its `hsa_amd_svm_attributes_get_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_svm_attributes_get = unsafe extern "C" fn(
    ptr: *mut c_void,
    size: usize,
    attribute_list: *mut hsa_amd_svm_attribute_pair_t,
    attribute_count: usize,
) -> hsa_status_t;

/// Type of `hsa_amd_svm_prefetch_async` (and of its `hsa_amd_svm_prefetch_async_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_svm_prefetch_async = unsafe extern "C" fn(
    ptr: *mut c_void,
    size: usize,
    agent: hsa_agent_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t;

/// Type of `hsa_amd_spm_acquire` (and of its `hsa_amd_spm_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_spm_acquire = unsafe extern "C" fn(preferred_agent: hsa_agent_t) -> hsa_status_t;

/// Type of `hsa_amd_spm_release` (and of its `hsa_amd_spm_release_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_spm_release = unsafe extern "C" fn(preferred_agent: hsa_agent_t) -> hsa_status_t;

/// Type of `hsa_amd_spm_set_dest_buffer` (and of its `hsa_amd_spm_set_dest_buffer_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_spm_set_dest_buffer = unsafe extern "C" fn(
    preferred_agent: hsa_agent_t,
    size_in_bytes: usize,
    timeout: *mut u32,
    size_copied: *mut u32,
    dest: *mut c_void,
    is_data_loss: *mut bool,
) -> hsa_status_t;

/// Type of `hsa_amd_portable_export_dmabuf` (and of its `hsa_amd_portable_export_dmabuf_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_portable_export_dmabuf =
    unsafe extern "C" fn(ptr: *const c_void, size: usize, dmabuf: *mut c_int, offset: *mut u64) -> hsa_status_t;

/// Type of `hsa_amd_portable_export_dmabuf_v2` (and of its `hsa_amd_portable_export_dmabuf_v2_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_portable_export_dmabuf_v2 = unsafe extern "C" fn(
    ptr: *const c_void,
    size: usize,
    dmabuf: *mut c_int,
    offset: *mut u64,
    flags: u64,
) -> hsa_status_t;

/// Type of `hsa_amd_portable_close_dmabuf` (and of its `hsa_amd_portable_close_dmabuf_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_portable_close_dmabuf = unsafe extern "C" fn(dmabuf: c_int) -> hsa_status_t;

/// Type of `hsa_amd_vmem_address_reserve` (and of its `hsa_amd_vmem_address_reserve_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_address_reserve =
    unsafe extern "C" fn(va: *mut *mut c_void, size: usize, address: u64, flags: u64) -> hsa_status_t;

/// Type of `hsa_amd_vmem_address_reserve_align` (and of its `hsa_amd_vmem_address_reserve_align_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_address_reserve_align =
    unsafe extern "C" fn(va: *mut *mut c_void, size: usize, address: u64, alignment: u64, flags: u64) -> hsa_status_t;

/// Type of `hsa_amd_vmem_address_free` (and of its `hsa_amd_vmem_address_free_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_address_free = unsafe extern "C" fn(va: *mut c_void, size: usize) -> hsa_status_t;

/// Type of `hsa_amd_vmem_handle_create` (and of its `hsa_amd_vmem_handle_create_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_handle_create = unsafe extern "C" fn(
    pool: hsa_amd_memory_pool_t,
    size: usize,
    type_: hsa_amd_memory_type_t,
    flags: u64,
    memory_handle: *mut hsa_amd_vmem_alloc_handle_t,
) -> hsa_status_t;

/// Type of `hsa_amd_vmem_handle_release` (and of its `hsa_amd_vmem_handle_release_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_handle_release =
    unsafe extern "C" fn(memory_handle: hsa_amd_vmem_alloc_handle_t) -> hsa_status_t;

/// Type of `hsa_amd_vmem_map` (and of its `hsa_amd_vmem_map_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_map = unsafe extern "C" fn(
    va: *mut c_void,
    size: usize,
    in_offset: usize,
    memory_handle: hsa_amd_vmem_alloc_handle_t,
    flags: u64,
) -> hsa_status_t;

/// Type of `hsa_amd_vmem_unmap` (and of its `hsa_amd_vmem_unmap_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_unmap = unsafe extern "C" fn(va: *mut c_void, size: usize) -> hsa_status_t;

/// Type of `hsa_amd_vmem_set_access` (and of its `hsa_amd_vmem_set_access_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_set_access = unsafe extern "C" fn(
    va: *mut c_void,
    size: usize,
    desc: *const hsa_amd_memory_access_desc_t,
    desc_cnt: usize,
) -> hsa_status_t;

/// Type of `hsa_amd_vmem_get_access` (and of its `hsa_amd_vmem_get_access_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_get_access = unsafe extern "C" fn(
    va: *mut c_void,
    perms: *mut hsa_access_permission_t,
    agent_handle: hsa_agent_t,
) -> hsa_status_t;

/// Type of `hsa_amd_vmem_export_shareable_handle` (and of its `hsa_amd_vmem_export_shareable_handle_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_export_shareable_handle =
    unsafe extern "C" fn(dmabuf_fd: *mut c_int, handle: hsa_amd_vmem_alloc_handle_t, flags: u64) -> hsa_status_t;

/// Type of `hsa_amd_vmem_import_shareable_handle` (and of its `hsa_amd_vmem_import_shareable_handle_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_import_shareable_handle =
    unsafe extern "C" fn(dmabuf_fd: c_int, handle: *mut hsa_amd_vmem_alloc_handle_t) -> hsa_status_t;

/// Type of `hsa_amd_vmem_retain_alloc_handle` (and of its `hsa_amd_vmem_retain_alloc_handle_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_retain_alloc_handle =
    unsafe extern "C" fn(memory_handle: *mut hsa_amd_vmem_alloc_handle_t, addr: *mut c_void) -> hsa_status_t;

/// Type of `hsa_amd_vmem_get_alloc_properties_from_handle` (and of its `hsa_amd_vmem_get_alloc_properties_from_handle_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_vmem_get_alloc_properties_from_handle = unsafe extern "C" fn(
    memory_handle: hsa_amd_vmem_alloc_handle_t,
    pool: *mut hsa_amd_memory_pool_t,
    type_: *mut hsa_amd_memory_type_t,
) -> hsa_status_t;

/// Type of `hsa_amd_agent_set_async_scratch_limit` (and of its `hsa_amd_agent_set_async_scratch_limit_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_agent_set_async_scratch_limit =
    unsafe extern "C" fn(agent: hsa_agent_t, threshold: usize) -> hsa_status_t;

/// Type of `hsa_amd_queue_get_info` (and of its `hsa_amd_queue_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_queue_get_info = unsafe extern "C" fn(
    queue: *mut hsa_queue_t,
    attribute: hsa_queue_info_attribute_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_amd_enable_logging` (and of its `hsa_amd_enable_logging_fn` API-table slot, if it has one).
pub type PFN_hsa_amd_enable_logging = unsafe extern "C" fn(flags: *mut u8, file: *mut c_void) -> hsa_status_t;
