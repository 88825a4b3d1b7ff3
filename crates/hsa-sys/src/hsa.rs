//! HSA core types, enums, AQL packets and function types (AMD `hsa.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub type hsa_status_t = c_uint;
pub const HSA_STATUS_SUCCESS: hsa_status_t = 0;
pub const HSA_STATUS_INFO_BREAK: hsa_status_t = 1;
pub const HSA_STATUS_ERROR: hsa_status_t = 4096;
pub const HSA_STATUS_ERROR_INVALID_ARGUMENT: hsa_status_t = 4097;
pub const HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: hsa_status_t = 4098;
pub const HSA_STATUS_ERROR_INVALID_ALLOCATION: hsa_status_t = 4099;
pub const HSA_STATUS_ERROR_INVALID_AGENT: hsa_status_t = 4100;
pub const HSA_STATUS_ERROR_INVALID_REGION: hsa_status_t = 4101;
pub const HSA_STATUS_ERROR_INVALID_SIGNAL: hsa_status_t = 4102;
pub const HSA_STATUS_ERROR_INVALID_QUEUE: hsa_status_t = 4103;
pub const HSA_STATUS_ERROR_OUT_OF_RESOURCES: hsa_status_t = 4104;
pub const HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: hsa_status_t = 4105;
pub const HSA_STATUS_ERROR_RESOURCE_FREE: hsa_status_t = 4106;
pub const HSA_STATUS_ERROR_NOT_INITIALIZED: hsa_status_t = 4107;
pub const HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: hsa_status_t = 4108;
pub const HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: hsa_status_t = 4109;
pub const HSA_STATUS_ERROR_INVALID_INDEX: hsa_status_t = 4110;
pub const HSA_STATUS_ERROR_INVALID_ISA: hsa_status_t = 4111;
pub const HSA_STATUS_ERROR_INVALID_ISA_NAME: hsa_status_t = 4119;
pub const HSA_STATUS_ERROR_INVALID_CODE_OBJECT: hsa_status_t = 4112;
pub const HSA_STATUS_ERROR_INVALID_EXECUTABLE: hsa_status_t = 4113;
pub const HSA_STATUS_ERROR_FROZEN_EXECUTABLE: hsa_status_t = 4114;
pub const HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: hsa_status_t = 4115;
pub const HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: hsa_status_t = 4116;
pub const HSA_STATUS_ERROR_VARIABLE_UNDEFINED: hsa_status_t = 4117;
pub const HSA_STATUS_ERROR_EXCEPTION: hsa_status_t = 4118;
pub const HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: hsa_status_t = 4120;
pub const HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: hsa_status_t = 4121;
pub const HSA_STATUS_ERROR_INVALID_FILE: hsa_status_t = 4128;
pub const HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: hsa_status_t = 4129;
pub const HSA_STATUS_ERROR_INVALID_CACHE: hsa_status_t = 4130;
pub const HSA_STATUS_ERROR_INVALID_WAVEFRONT: hsa_status_t = 4131;
pub const HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: hsa_status_t = 4132;
pub const HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: hsa_status_t = 4133;
pub const HSA_STATUS_ERROR_FATAL: hsa_status_t = 4134;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_dim3_s {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

pub type hsa_dim3_t = hsa_dim3_s;

pub type hsa_access_permission_t = c_uint;
pub const HSA_ACCESS_PERMISSION_NONE: hsa_access_permission_t = 0;
pub const HSA_ACCESS_PERMISSION_RO: hsa_access_permission_t = 1;
pub const HSA_ACCESS_PERMISSION_WO: hsa_access_permission_t = 2;
pub const HSA_ACCESS_PERMISSION_RW: hsa_access_permission_t = 3;

pub type hsa_file_t = c_int;

pub type hsa_endianness_t = c_uint;
pub const HSA_ENDIANNESS_LITTLE: hsa_endianness_t = 0;
pub const HSA_ENDIANNESS_BIG: hsa_endianness_t = 1;

pub type hsa_machine_model_t = c_uint;
pub const HSA_MACHINE_MODEL_SMALL: hsa_machine_model_t = 0;
pub const HSA_MACHINE_MODEL_LARGE: hsa_machine_model_t = 1;

pub type hsa_profile_t = c_uint;
pub const HSA_PROFILE_BASE: hsa_profile_t = 0;
pub const HSA_PROFILE_FULL: hsa_profile_t = 1;

pub type hsa_system_info_t = c_uint;
pub const HSA_SYSTEM_INFO_VERSION_MAJOR: hsa_system_info_t = 0;
pub const HSA_SYSTEM_INFO_VERSION_MINOR: hsa_system_info_t = 1;
pub const HSA_SYSTEM_INFO_TIMESTAMP: hsa_system_info_t = 2;
pub const HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY: hsa_system_info_t = 3;
pub const HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT: hsa_system_info_t = 4;
pub const HSA_SYSTEM_INFO_ENDIANNESS: hsa_system_info_t = 5;
pub const HSA_SYSTEM_INFO_MACHINE_MODEL: hsa_system_info_t = 6;
pub const HSA_SYSTEM_INFO_EXTENSIONS: hsa_system_info_t = 7;
pub const HSA_AMD_SYSTEM_INFO_BUILD_VERSION: hsa_system_info_t = 512;
pub const HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: hsa_system_info_t = 513;
pub const HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: hsa_system_info_t = 514;
pub const HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED: hsa_system_info_t = 515;
pub const HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED: hsa_system_info_t = 516;
pub const HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED: hsa_system_info_t = 517;
pub const HSA_AMD_SYSTEM_INFO_XNACK_ENABLED: hsa_system_info_t = 518;
pub const HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR: hsa_system_info_t = 519;
pub const HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR: hsa_system_info_t = 520;

pub type hsa_extension_t = c_uint;
pub const HSA_EXTENSION_FINALIZER: hsa_extension_t = 0;
pub const HSA_EXTENSION_IMAGES: hsa_extension_t = 1;
pub const HSA_EXTENSION_PERFORMANCE_COUNTERS: hsa_extension_t = 2;
pub const HSA_EXTENSION_PROFILING_EVENTS: hsa_extension_t = 3;
pub const HSA_EXTENSION_STD_LAST: hsa_extension_t = 3;
pub const HSA_AMD_FIRST_EXTENSION: hsa_extension_t = 512;
pub const HSA_EXTENSION_AMD_PROFILER: hsa_extension_t = 512;
pub const HSA_EXTENSION_AMD_LOADER: hsa_extension_t = 513;
pub const HSA_EXTENSION_AMD_AQLPROFILE: hsa_extension_t = 514;
pub const HSA_EXTENSION_AMD_PC_SAMPLING: hsa_extension_t = 515;
pub const HSA_AMD_LAST_EXTENSION: hsa_extension_t = 515;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_agent_s {
    pub handle: u64,
}

pub type hsa_agent_t = hsa_agent_s;

pub type hsa_agent_feature_t = c_uint;
pub const HSA_AGENT_FEATURE_KERNEL_DISPATCH: hsa_agent_feature_t = 1;
pub const HSA_AGENT_FEATURE_AGENT_DISPATCH: hsa_agent_feature_t = 2;

pub type hsa_device_type_t = c_uint;
pub const HSA_DEVICE_TYPE_CPU: hsa_device_type_t = 0;
pub const HSA_DEVICE_TYPE_GPU: hsa_device_type_t = 1;
pub const HSA_DEVICE_TYPE_DSP: hsa_device_type_t = 2;
pub const HSA_DEVICE_TYPE_AIE: hsa_device_type_t = 3;

pub type hsa_default_float_rounding_mode_t = c_uint;
pub const HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT: hsa_default_float_rounding_mode_t = 0;
pub const HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO: hsa_default_float_rounding_mode_t = 1;
pub const HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR: hsa_default_float_rounding_mode_t = 2;

pub type hsa_agent_info_t = c_uint;
pub const HSA_AGENT_INFO_NAME: hsa_agent_info_t = 0;
pub const HSA_AGENT_INFO_VENDOR_NAME: hsa_agent_info_t = 1;
pub const HSA_AGENT_INFO_FEATURE: hsa_agent_info_t = 2;
pub const HSA_AGENT_INFO_MACHINE_MODEL: hsa_agent_info_t = 3;
pub const HSA_AGENT_INFO_PROFILE: hsa_agent_info_t = 4;
pub const HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_agent_info_t = 5;
pub const HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: hsa_agent_info_t = 23;
pub const HSA_AGENT_INFO_FAST_F16_OPERATION: hsa_agent_info_t = 24;
pub const HSA_AGENT_INFO_WAVEFRONT_SIZE: hsa_agent_info_t = 6;
pub const HSA_AGENT_INFO_WORKGROUP_MAX_DIM: hsa_agent_info_t = 7;
pub const HSA_AGENT_INFO_WORKGROUP_MAX_SIZE: hsa_agent_info_t = 8;
pub const HSA_AGENT_INFO_GRID_MAX_DIM: hsa_agent_info_t = 9;
pub const HSA_AGENT_INFO_GRID_MAX_SIZE: hsa_agent_info_t = 10;
pub const HSA_AGENT_INFO_FBARRIER_MAX_SIZE: hsa_agent_info_t = 11;
pub const HSA_AGENT_INFO_QUEUES_MAX: hsa_agent_info_t = 12;
pub const HSA_AGENT_INFO_QUEUE_MIN_SIZE: hsa_agent_info_t = 13;
pub const HSA_AGENT_INFO_QUEUE_MAX_SIZE: hsa_agent_info_t = 14;
pub const HSA_AGENT_INFO_QUEUE_TYPE: hsa_agent_info_t = 15;
pub const HSA_AGENT_INFO_NODE: hsa_agent_info_t = 16;
pub const HSA_AGENT_INFO_DEVICE: hsa_agent_info_t = 17;
pub const HSA_AGENT_INFO_CACHE_SIZE: hsa_agent_info_t = 18;
pub const HSA_AGENT_INFO_ISA: hsa_agent_info_t = 19;
pub const HSA_AGENT_INFO_EXTENSIONS: hsa_agent_info_t = 20;
pub const HSA_AGENT_INFO_VERSION_MAJOR: hsa_agent_info_t = 21;
pub const HSA_AGENT_INFO_VERSION_MINOR: hsa_agent_info_t = 22;
pub const HSA_AGENT_INFO_LAST: hsa_agent_info_t = 2147483647;

pub type hsa_exception_policy_t = c_uint;
pub const HSA_EXCEPTION_POLICY_BREAK: hsa_exception_policy_t = 1;
pub const HSA_EXCEPTION_POLICY_DETECT: hsa_exception_policy_t = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_cache_s {
    pub handle: u64,
}

pub type hsa_cache_t = hsa_cache_s;

pub type hsa_cache_info_t = c_uint;
pub const HSA_CACHE_INFO_NAME_LENGTH: hsa_cache_info_t = 0;
pub const HSA_CACHE_INFO_NAME: hsa_cache_info_t = 1;
pub const HSA_CACHE_INFO_LEVEL: hsa_cache_info_t = 2;
pub const HSA_CACHE_INFO_SIZE: hsa_cache_info_t = 3;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_signal_s {
    pub handle: u64,
}

pub type hsa_signal_t = hsa_signal_s;

pub type hsa_signal_value_t = i64;

pub type hsa_signal_condition_t = c_uint;
pub const HSA_SIGNAL_CONDITION_EQ: hsa_signal_condition_t = 0;
pub const HSA_SIGNAL_CONDITION_NE: hsa_signal_condition_t = 1;
pub const HSA_SIGNAL_CONDITION_LT: hsa_signal_condition_t = 2;
pub const HSA_SIGNAL_CONDITION_GTE: hsa_signal_condition_t = 3;

pub type hsa_wait_state_t = c_uint;
pub const HSA_WAIT_STATE_BLOCKED: hsa_wait_state_t = 0;
pub const HSA_WAIT_STATE_ACTIVE: hsa_wait_state_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_signal_group_s {
    pub handle: u64,
}

pub type hsa_signal_group_t = hsa_signal_group_s;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_region_s {
    pub handle: u64,
}

pub type hsa_region_t = hsa_region_s;

pub type hsa_queue_type_t = c_uint;
pub const HSA_QUEUE_TYPE_MULTI: hsa_queue_type_t = 0;
pub const HSA_QUEUE_TYPE_SINGLE: hsa_queue_type_t = 1;
pub const HSA_QUEUE_TYPE_COOPERATIVE: hsa_queue_type_t = 2;

pub type hsa_queue_type32_t = u32;

pub type hsa_queue_feature_t = c_uint;
pub const HSA_QUEUE_FEATURE_KERNEL_DISPATCH: hsa_queue_feature_t = 1;
pub const HSA_QUEUE_FEATURE_AGENT_DISPATCH: hsa_queue_feature_t = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_queue_s {
    pub r#type: hsa_queue_type32_t,
    pub features: u32,
    pub base_address: *mut c_void,
    pub doorbell_signal: hsa_signal_t,
    pub size: u32,
    pub reserved1: u32,
    pub id: u64,
}

pub type hsa_queue_t = hsa_queue_s;

pub type hsa_packet_type_t = c_uint;
pub const HSA_PACKET_TYPE_VENDOR_SPECIFIC: hsa_packet_type_t = 0;
pub const HSA_PACKET_TYPE_INVALID: hsa_packet_type_t = 1;
pub const HSA_PACKET_TYPE_KERNEL_DISPATCH: hsa_packet_type_t = 2;
pub const HSA_PACKET_TYPE_BARRIER_AND: hsa_packet_type_t = 3;
pub const HSA_PACKET_TYPE_AGENT_DISPATCH: hsa_packet_type_t = 4;
pub const HSA_PACKET_TYPE_BARRIER_OR: hsa_packet_type_t = 5;

pub type hsa_fence_scope_t = c_uint;
pub const HSA_FENCE_SCOPE_NONE: hsa_fence_scope_t = 0;
pub const HSA_FENCE_SCOPE_AGENT: hsa_fence_scope_t = 1;
pub const HSA_FENCE_SCOPE_SYSTEM: hsa_fence_scope_t = 2;

pub type hsa_packet_header_t = c_uint;
pub const HSA_PACKET_HEADER_TYPE: hsa_packet_header_t = 0;
pub const HSA_PACKET_HEADER_BARRIER: hsa_packet_header_t = 8;
pub const HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE: hsa_packet_header_t = 9;
pub const HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE: hsa_packet_header_t = 9;
pub const HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE: hsa_packet_header_t = 11;
pub const HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE: hsa_packet_header_t = 11;

pub type hsa_packet_header_width_t = c_uint;
pub const HSA_PACKET_HEADER_WIDTH_TYPE: hsa_packet_header_width_t = 8;
pub const HSA_PACKET_HEADER_WIDTH_BARRIER: hsa_packet_header_width_t = 1;
pub const HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE: hsa_packet_header_width_t = 2;
pub const HSA_PACKET_HEADER_WIDTH_ACQUIRE_FENCE_SCOPE: hsa_packet_header_width_t = 2;
pub const HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE: hsa_packet_header_width_t = 2;
pub const HSA_PACKET_HEADER_WIDTH_RELEASE_FENCE_SCOPE: hsa_packet_header_width_t = 2;

pub type hsa_kernel_dispatch_packet_setup_t = c_uint;
pub const HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS: hsa_kernel_dispatch_packet_setup_t = 0;

pub type hsa_kernel_dispatch_packet_setup_width_t = c_uint;
pub const HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS: hsa_kernel_dispatch_packet_setup_width_t = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_kernel_dispatch_packet_s {
    pub header: u16,
    pub setup: u16,
    pub workgroup_size_x: u16,
    pub workgroup_size_y: u16,
    pub workgroup_size_z: u16,
    pub reserved0: u16,
    pub grid_size_x: u32,
    pub grid_size_y: u32,
    pub grid_size_z: u32,
    pub private_segment_size: u32,
    pub group_segment_size: u32,
    pub kernel_object: u64,
    pub kernarg_address: *mut c_void,
    pub reserved2: u64,
    pub completion_signal: hsa_signal_t,
}

pub type hsa_kernel_dispatch_packet_t = hsa_kernel_dispatch_packet_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_agent_dispatch_packet_s {
    pub header: u16,
    pub r#type: u16,
    pub reserved0: u32,
    pub return_address: *mut c_void,
    pub arg: [u64; 4],
    pub reserved2: u64,
    pub completion_signal: hsa_signal_t,
}

pub type hsa_agent_dispatch_packet_t = hsa_agent_dispatch_packet_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_barrier_and_packet_s {
    pub header: u16,
    pub reserved0: u16,
    pub reserved1: u32,
    pub dep_signal: [hsa_signal_t; 5],
    pub reserved2: u64,
    pub completion_signal: hsa_signal_t,
}

pub type hsa_barrier_and_packet_t = hsa_barrier_and_packet_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_barrier_or_packet_s {
    pub header: u16,
    pub reserved0: u16,
    pub reserved1: u32,
    pub dep_signal: [hsa_signal_t; 5],
    pub reserved2: u64,
    pub completion_signal: hsa_signal_t,
}

pub type hsa_barrier_or_packet_t = hsa_barrier_or_packet_s;

pub type hsa_region_segment_t = c_uint;
pub const HSA_REGION_SEGMENT_GLOBAL: hsa_region_segment_t = 0;
pub const HSA_REGION_SEGMENT_READONLY: hsa_region_segment_t = 1;
pub const HSA_REGION_SEGMENT_PRIVATE: hsa_region_segment_t = 2;
pub const HSA_REGION_SEGMENT_GROUP: hsa_region_segment_t = 3;
pub const HSA_REGION_SEGMENT_KERNARG: hsa_region_segment_t = 4;

pub type hsa_region_global_flag_t = c_uint;
pub const HSA_REGION_GLOBAL_FLAG_KERNARG: hsa_region_global_flag_t = 1;
pub const HSA_REGION_GLOBAL_FLAG_FINE_GRAINED: hsa_region_global_flag_t = 2;
pub const HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED: hsa_region_global_flag_t = 4;
pub const HSA_REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED: hsa_region_global_flag_t = 8;

pub type hsa_region_info_t = c_uint;
pub const HSA_REGION_INFO_SEGMENT: hsa_region_info_t = 0;
pub const HSA_REGION_INFO_GLOBAL_FLAGS: hsa_region_info_t = 1;
pub const HSA_REGION_INFO_SIZE: hsa_region_info_t = 2;
pub const HSA_REGION_INFO_ALLOC_MAX_SIZE: hsa_region_info_t = 4;
pub const HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE: hsa_region_info_t = 8;
pub const HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED: hsa_region_info_t = 5;
pub const HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE: hsa_region_info_t = 6;
pub const HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT: hsa_region_info_t = 7;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_isa_s {
    pub handle: u64,
}

pub type hsa_isa_t = hsa_isa_s;

pub type hsa_isa_info_t = c_uint;
pub const HSA_ISA_INFO_NAME_LENGTH: hsa_isa_info_t = 0;
pub const HSA_ISA_INFO_NAME: hsa_isa_info_t = 1;
pub const HSA_ISA_INFO_CALL_CONVENTION_COUNT: hsa_isa_info_t = 2;
pub const HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE: hsa_isa_info_t = 3;
pub const HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT: hsa_isa_info_t = 4;
pub const HSA_ISA_INFO_MACHINE_MODELS: hsa_isa_info_t = 5;
pub const HSA_ISA_INFO_PROFILES: hsa_isa_info_t = 6;
pub const HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES: hsa_isa_info_t = 7;
pub const HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: hsa_isa_info_t = 8;
pub const HSA_ISA_INFO_FAST_F16_OPERATION: hsa_isa_info_t = 9;
pub const HSA_ISA_INFO_WORKGROUP_MAX_DIM: hsa_isa_info_t = 12;
pub const HSA_ISA_INFO_WORKGROUP_MAX_SIZE: hsa_isa_info_t = 13;
pub const HSA_ISA_INFO_GRID_MAX_DIM: hsa_isa_info_t = 14;
pub const HSA_ISA_INFO_GRID_MAX_SIZE: hsa_isa_info_t = 16;
pub const HSA_ISA_INFO_FBARRIER_MAX_SIZE: hsa_isa_info_t = 17;

pub type hsa_fp_type_t = c_uint;
pub const HSA_FP_TYPE_16: hsa_fp_type_t = 1;
pub const HSA_FP_TYPE_32: hsa_fp_type_t = 2;
pub const HSA_FP_TYPE_64: hsa_fp_type_t = 4;

pub type hsa_flush_mode_t = c_uint;
pub const HSA_FLUSH_MODE_FTZ: hsa_flush_mode_t = 1;
pub const HSA_FLUSH_MODE_NON_FTZ: hsa_flush_mode_t = 2;

pub type hsa_round_method_t = c_uint;
pub const HSA_ROUND_METHOD_SINGLE: hsa_round_method_t = 1;
pub const HSA_ROUND_METHOD_DOUBLE: hsa_round_method_t = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_wavefront_s {
    pub handle: u64,
}

pub type hsa_wavefront_t = hsa_wavefront_s;

pub type hsa_wavefront_info_t = c_uint;
pub const HSA_WAVEFRONT_INFO_SIZE: hsa_wavefront_info_t = 0;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_code_object_reader_s {
    pub handle: u64,
}

pub type hsa_code_object_reader_t = hsa_code_object_reader_s;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_executable_s {
    pub handle: u64,
}

pub type hsa_executable_t = hsa_executable_s;

pub type hsa_executable_state_t = c_uint;
pub const HSA_EXECUTABLE_STATE_UNFROZEN: hsa_executable_state_t = 0;
pub const HSA_EXECUTABLE_STATE_FROZEN: hsa_executable_state_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_loaded_code_object_s {
    pub handle: u64,
}

pub type hsa_loaded_code_object_t = hsa_loaded_code_object_s;

pub type hsa_executable_info_t = c_uint;
pub const HSA_EXECUTABLE_INFO_PROFILE: hsa_executable_info_t = 1;
pub const HSA_EXECUTABLE_INFO_STATE: hsa_executable_info_t = 2;
pub const HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_executable_info_t = 3;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_executable_symbol_s {
    pub handle: u64,
}

pub type hsa_executable_symbol_t = hsa_executable_symbol_s;

pub type hsa_symbol_kind_t = c_uint;
pub const HSA_SYMBOL_KIND_VARIABLE: hsa_symbol_kind_t = 0;
pub const HSA_SYMBOL_KIND_KERNEL: hsa_symbol_kind_t = 1;
pub const HSA_SYMBOL_KIND_INDIRECT_FUNCTION: hsa_symbol_kind_t = 2;

pub type hsa_symbol_linkage_t = c_uint;
pub const HSA_SYMBOL_LINKAGE_MODULE: hsa_symbol_linkage_t = 0;
pub const HSA_SYMBOL_LINKAGE_PROGRAM: hsa_symbol_linkage_t = 1;

pub type hsa_variable_allocation_t = c_uint;
pub const HSA_VARIABLE_ALLOCATION_AGENT: hsa_variable_allocation_t = 0;
pub const HSA_VARIABLE_ALLOCATION_PROGRAM: hsa_variable_allocation_t = 1;

pub type hsa_variable_segment_t = c_uint;
pub const HSA_VARIABLE_SEGMENT_GLOBAL: hsa_variable_segment_t = 0;
pub const HSA_VARIABLE_SEGMENT_READONLY: hsa_variable_segment_t = 1;

pub type hsa_executable_symbol_info_t = c_uint;
pub const HSA_EXECUTABLE_SYMBOL_INFO_TYPE: hsa_executable_symbol_info_t = 0;
pub const HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH: hsa_executable_symbol_info_t = 1;
pub const HSA_EXECUTABLE_SYMBOL_INFO_NAME: hsa_executable_symbol_info_t = 2;
pub const HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH: hsa_executable_symbol_info_t = 3;
pub const HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME: hsa_executable_symbol_info_t = 4;
pub const HSA_EXECUTABLE_SYMBOL_INFO_AGENT: hsa_executable_symbol_info_t = 20;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS: hsa_executable_symbol_info_t = 21;
pub const HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE: hsa_executable_symbol_info_t = 5;
pub const HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION: hsa_executable_symbol_info_t = 17;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION: hsa_executable_symbol_info_t = 6;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT: hsa_executable_symbol_info_t = 7;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT: hsa_executable_symbol_info_t = 8;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE: hsa_executable_symbol_info_t = 9;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST: hsa_executable_symbol_info_t = 10;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT: hsa_executable_symbol_info_t = 22;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: hsa_executable_symbol_info_t = 11;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT: hsa_executable_symbol_info_t = 12;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: hsa_executable_symbol_info_t = 13;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: hsa_executable_symbol_info_t = 14;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: hsa_executable_symbol_info_t = 15;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: hsa_executable_symbol_info_t = 18;
pub const HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_OBJECT: hsa_executable_symbol_info_t = 23;
pub const HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_CALL_CONVENTION: hsa_executable_symbol_info_t = 16;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_code_object_s {
    pub handle: u64,
}

pub type hsa_code_object_t = hsa_code_object_s;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_callback_data_s {
    pub handle: u64,
}

pub type hsa_callback_data_t = hsa_callback_data_s;

pub type hsa_code_object_type_t = c_uint;
pub const HSA_CODE_OBJECT_TYPE_PROGRAM: hsa_code_object_type_t = 0;

pub type hsa_code_object_info_t = c_uint;
pub const HSA_CODE_OBJECT_INFO_VERSION: hsa_code_object_info_t = 0;
pub const HSA_CODE_OBJECT_INFO_TYPE: hsa_code_object_info_t = 1;
pub const HSA_CODE_OBJECT_INFO_ISA: hsa_code_object_info_t = 2;
pub const HSA_CODE_OBJECT_INFO_MACHINE_MODEL: hsa_code_object_info_t = 3;
pub const HSA_CODE_OBJECT_INFO_PROFILE: hsa_code_object_info_t = 4;
pub const HSA_CODE_OBJECT_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_code_object_info_t = 5;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_code_symbol_s {
    pub handle: u64,
}

pub type hsa_code_symbol_t = hsa_code_symbol_s;

pub type hsa_code_symbol_info_t = c_uint;
pub const HSA_CODE_SYMBOL_INFO_TYPE: hsa_code_symbol_info_t = 0;
pub const HSA_CODE_SYMBOL_INFO_NAME_LENGTH: hsa_code_symbol_info_t = 1;
pub const HSA_CODE_SYMBOL_INFO_NAME: hsa_code_symbol_info_t = 2;
pub const HSA_CODE_SYMBOL_INFO_MODULE_NAME_LENGTH: hsa_code_symbol_info_t = 3;
pub const HSA_CODE_SYMBOL_INFO_MODULE_NAME: hsa_code_symbol_info_t = 4;
pub const HSA_CODE_SYMBOL_INFO_LINKAGE: hsa_code_symbol_info_t = 5;
pub const HSA_CODE_SYMBOL_INFO_IS_DEFINITION: hsa_code_symbol_info_t = 17;
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_ALLOCATION: hsa_code_symbol_info_t = 6;
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_SEGMENT: hsa_code_symbol_info_t = 7;
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_ALIGNMENT: hsa_code_symbol_info_t = 8;
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_SIZE: hsa_code_symbol_info_t = 9;
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_IS_CONST: hsa_code_symbol_info_t = 10;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: hsa_code_symbol_info_t = 11;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT: hsa_code_symbol_info_t = 12;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: hsa_code_symbol_info_t = 13;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: hsa_code_symbol_info_t = 14;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: hsa_code_symbol_info_t = 15;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: hsa_code_symbol_info_t = 18;
pub const HSA_CODE_SYMBOL_INFO_INDIRECT_FUNCTION_CALL_CONVENTION: hsa_code_symbol_info_t = 16;
pub const HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE: hsa_code_symbol_info_t = 19;

// Function types.

/// Type of `hsa_status_string` (and of its `hsa_status_string_fn` API-table slot, if it has one).
pub type PFN_hsa_status_string =
    unsafe extern "C" fn(status: hsa_status_t, status_string: *mut *const c_char) -> hsa_status_t;

/// Type of `hsa_init` (and of its `hsa_init_fn` API-table slot, if it has one).
pub type PFN_hsa_init = unsafe extern "C" fn() -> hsa_status_t;

/// Type of `hsa_shut_down` (and of its `hsa_shut_down_fn` API-table slot, if it has one).
pub type PFN_hsa_shut_down = unsafe extern "C" fn() -> hsa_status_t;

/// Type of `hsa_system_get_info` (and of its `hsa_system_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_system_get_info =
    unsafe extern "C" fn(attribute: hsa_system_info_t, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_extension_get_name` (and of its `hsa_extension_get_name_fn` API-table slot, if it has one).
pub type PFN_hsa_extension_get_name = unsafe extern "C" fn(extension: u16, name: *mut *const c_char) -> hsa_status_t;

/// Type of `hsa_system_extension_supported` (and of its `hsa_system_extension_supported_fn` API-table slot, if it has one).
pub type PFN_hsa_system_extension_supported =
    unsafe extern "C" fn(extension: u16, version_major: u16, version_minor: u16, result: *mut bool) -> hsa_status_t;

/// Type of `hsa_system_major_extension_supported` (and of its `hsa_system_major_extension_supported_fn` API-table slot, if it has one).
pub type PFN_hsa_system_major_extension_supported = unsafe extern "C" fn(
    extension: u16,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t;

/// Type of `hsa_system_get_extension_table` (and of its `hsa_system_get_extension_table_fn` API-table slot, if it has one).
pub type PFN_hsa_system_get_extension_table =
    unsafe extern "C" fn(extension: u16, version_major: u16, version_minor: u16, table: *mut c_void) -> hsa_status_t;

/// Type of `hsa_system_get_major_extension_table` (and of its `hsa_system_get_major_extension_table_fn` API-table slot, if it has one).
pub type PFN_hsa_system_get_major_extension_table =
    unsafe extern "C" fn(extension: u16, version_major: u16, table_length: usize, table: *mut c_void) -> hsa_status_t;

/// Type of `hsa_agent_get_info` (and of its `hsa_agent_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_get_info =
    unsafe extern "C" fn(agent: hsa_agent_t, attribute: hsa_agent_info_t, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_iterate_agents` (and of its `hsa_iterate_agents_fn` API-table slot, if it has one).
pub type PFN_hsa_iterate_agents = unsafe extern "C" fn(
    callback: Option<unsafe extern "C" fn(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_agent_get_exception_policies` (and of its `hsa_agent_get_exception_policies_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_get_exception_policies =
    unsafe extern "C" fn(agent: hsa_agent_t, profile: hsa_profile_t, mask: *mut u16) -> hsa_status_t;

/// Type of `hsa_cache_get_info` (and of its `hsa_cache_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_cache_get_info =
    unsafe extern "C" fn(cache: hsa_cache_t, attribute: hsa_cache_info_t, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_agent_iterate_caches` (and of its `hsa_agent_iterate_caches_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_iterate_caches = unsafe extern "C" fn(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(cache: hsa_cache_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_agent_extension_supported` (and of its `hsa_agent_extension_supported_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_extension_supported = unsafe extern "C" fn(
    extension: u16,
    agent: hsa_agent_t,
    version_major: u16,
    version_minor: u16,
    result: *mut bool,
) -> hsa_status_t;

/// Type of `hsa_agent_major_extension_supported` (and of its `hsa_agent_major_extension_supported_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_major_extension_supported = unsafe extern "C" fn(
    extension: u16,
    agent: hsa_agent_t,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t;

/// Type of `hsa_signal_create` (and of its `hsa_signal_create_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_create = unsafe extern "C" fn(
    initial_value: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    signal: *mut hsa_signal_t,
) -> hsa_status_t;

/// Type of `hsa_signal_destroy` (and of its `hsa_signal_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_destroy = unsafe extern "C" fn(signal: hsa_signal_t) -> hsa_status_t;

/// Type of `hsa_signal_load_scacquire` (and of its `hsa_signal_load_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_load_scacquire = unsafe extern "C" fn(signal: hsa_signal_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_load_relaxed` (and of its `hsa_signal_load_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_load_relaxed = unsafe extern "C" fn(signal: hsa_signal_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_load_acquire` (and of its `hsa_signal_load_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_load_acquire = unsafe extern "C" fn(signal: hsa_signal_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_store_relaxed` (and of its `hsa_signal_store_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_store_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_store_screlease` (and of its `hsa_signal_store_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_store_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_store_release` (and of its `hsa_signal_store_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_store_release = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_silent_store_relaxed` (and of its `hsa_signal_silent_store_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_silent_store_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_silent_store_screlease` (and of its `hsa_signal_silent_store_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_silent_store_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_exchange_scacq_screl` (and of its `hsa_signal_exchange_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_scacq_screl =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_exchange_acq_rel` (and of its `hsa_signal_exchange_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_acq_rel =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_exchange_scacquire` (and of its `hsa_signal_exchange_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_scacquire =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_exchange_acquire` (and of its `hsa_signal_exchange_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_acquire =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_exchange_relaxed` (and of its `hsa_signal_exchange_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_relaxed =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_exchange_screlease` (and of its `hsa_signal_exchange_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_screlease =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_exchange_release` (and of its `hsa_signal_exchange_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_exchange_release =
    unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_scacq_screl` (and of its `hsa_signal_cas_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_scacq_screl = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_acq_rel` (and of its `hsa_signal_cas_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_acq_rel = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_scacquire` (and of its `hsa_signal_cas_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_scacquire = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_acquire` (and of its `hsa_signal_cas_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_acquire = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_relaxed` (and of its `hsa_signal_cas_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_relaxed = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_screlease` (and of its `hsa_signal_cas_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_screlease = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_cas_release` (and of its `hsa_signal_cas_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_cas_release = unsafe extern "C" fn(
    signal: hsa_signal_t,
    expected: hsa_signal_value_t,
    value: hsa_signal_value_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_add_scacq_screl` (and of its `hsa_signal_add_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_scacq_screl = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_add_acq_rel` (and of its `hsa_signal_add_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_acq_rel = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_add_scacquire` (and of its `hsa_signal_add_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_scacquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_add_acquire` (and of its `hsa_signal_add_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_acquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_add_relaxed` (and of its `hsa_signal_add_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_add_screlease` (and of its `hsa_signal_add_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_add_release` (and of its `hsa_signal_add_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_add_release = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_scacq_screl` (and of its `hsa_signal_subtract_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_scacq_screl = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_acq_rel` (and of its `hsa_signal_subtract_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_acq_rel = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_scacquire` (and of its `hsa_signal_subtract_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_scacquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_acquire` (and of its `hsa_signal_subtract_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_acquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_relaxed` (and of its `hsa_signal_subtract_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_screlease` (and of its `hsa_signal_subtract_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_subtract_release` (and of its `hsa_signal_subtract_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_subtract_release = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_scacq_screl` (and of its `hsa_signal_and_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_scacq_screl = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_acq_rel` (and of its `hsa_signal_and_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_acq_rel = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_scacquire` (and of its `hsa_signal_and_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_scacquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_acquire` (and of its `hsa_signal_and_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_acquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_relaxed` (and of its `hsa_signal_and_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_screlease` (and of its `hsa_signal_and_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_and_release` (and of its `hsa_signal_and_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_and_release = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_scacq_screl` (and of its `hsa_signal_or_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_scacq_screl = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_acq_rel` (and of its `hsa_signal_or_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_acq_rel = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_scacquire` (and of its `hsa_signal_or_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_scacquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_acquire` (and of its `hsa_signal_or_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_acquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_relaxed` (and of its `hsa_signal_or_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_screlease` (and of its `hsa_signal_or_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_or_release` (and of its `hsa_signal_or_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_or_release = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_scacq_screl` (and of its `hsa_signal_xor_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_scacq_screl = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_acq_rel` (and of its `hsa_signal_xor_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_acq_rel = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_scacquire` (and of its `hsa_signal_xor_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_scacquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_acquire` (and of its `hsa_signal_xor_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_acquire = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_relaxed` (and of its `hsa_signal_xor_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_relaxed = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_screlease` (and of its `hsa_signal_xor_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_screlease = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_xor_release` (and of its `hsa_signal_xor_release_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_xor_release = unsafe extern "C" fn(signal: hsa_signal_t, value: hsa_signal_value_t);

/// Type of `hsa_signal_wait_scacquire` (and of its `hsa_signal_wait_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_wait_scacquire = unsafe extern "C" fn(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_wait_relaxed` (and of its `hsa_signal_wait_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_wait_relaxed = unsafe extern "C" fn(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_wait_acquire` (and of its `hsa_signal_wait_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_wait_acquire = unsafe extern "C" fn(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t;

/// Type of `hsa_signal_group_create` (and of its `hsa_signal_group_create_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_group_create = unsafe extern "C" fn(
    num_signals: u32,
    signals: *const hsa_signal_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    signal_group: *mut hsa_signal_group_t,
) -> hsa_status_t;

/// Type of `hsa_signal_group_destroy` (and of its `hsa_signal_group_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_group_destroy = unsafe extern "C" fn(signal_group: hsa_signal_group_t) -> hsa_status_t;

/// Type of `hsa_signal_group_wait_any_scacquire` (and of its `hsa_signal_group_wait_any_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_group_wait_any_scacquire = unsafe extern "C" fn(
    signal_group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    wait_state_hint: hsa_wait_state_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t;

/// Type of `hsa_signal_group_wait_any_relaxed` (and of its `hsa_signal_group_wait_any_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_signal_group_wait_any_relaxed = unsafe extern "C" fn(
    signal_group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    wait_state_hint: hsa_wait_state_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t;

/// Type of `hsa_queue_create` (and of its `hsa_queue_create_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_create = unsafe extern "C" fn(
    agent: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<unsafe extern "C" fn(status: hsa_status_t, source: *mut hsa_queue_t, data: *mut c_void)>,
    data: *mut c_void,
    private_segment_size: u32,
    group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t;

/// Type of `hsa_soft_queue_create` (and of its `hsa_soft_queue_create_fn` API-table slot, if it has one).
pub type PFN_hsa_soft_queue_create = unsafe extern "C" fn(
    region: hsa_region_t,
    size: u32,
    type_: hsa_queue_type32_t,
    features: u32,
    doorbell_signal: hsa_signal_t,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t;

/// Type of `hsa_queue_destroy` (and of its `hsa_queue_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_destroy = unsafe extern "C" fn(queue: *mut hsa_queue_t) -> hsa_status_t;

/// Type of `hsa_queue_inactivate` (and of its `hsa_queue_inactivate_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_inactivate = unsafe extern "C" fn(queue: *mut hsa_queue_t) -> hsa_status_t;

/// Type of `hsa_queue_load_read_index_acquire` (and of its `hsa_queue_load_read_index_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_load_read_index_acquire = unsafe extern "C" fn(queue: *const hsa_queue_t) -> u64;

/// Type of `hsa_queue_load_read_index_scacquire` (and of its `hsa_queue_load_read_index_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_load_read_index_scacquire = unsafe extern "C" fn(queue: *const hsa_queue_t) -> u64;

/// Type of `hsa_queue_load_read_index_relaxed` (and of its `hsa_queue_load_read_index_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_load_read_index_relaxed = unsafe extern "C" fn(queue: *const hsa_queue_t) -> u64;

/// Type of `hsa_queue_load_write_index_acquire` (and of its `hsa_queue_load_write_index_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_load_write_index_acquire = unsafe extern "C" fn(queue: *const hsa_queue_t) -> u64;

/// Type of `hsa_queue_load_write_index_scacquire` (and of its `hsa_queue_load_write_index_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_load_write_index_scacquire = unsafe extern "C" fn(queue: *const hsa_queue_t) -> u64;

/// Type of `hsa_queue_load_write_index_relaxed` (and of its `hsa_queue_load_write_index_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_load_write_index_relaxed = unsafe extern "C" fn(queue: *const hsa_queue_t) -> u64;

/// Type of `hsa_queue_store_write_index_relaxed` (and of its `hsa_queue_store_write_index_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_store_write_index_relaxed = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64);

/// Type of `hsa_queue_store_write_index_release` (and of its `hsa_queue_store_write_index_release_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_store_write_index_release = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64);

/// Type of `hsa_queue_store_write_index_screlease` (and of its `hsa_queue_store_write_index_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_store_write_index_screlease = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64);

/// Type of `hsa_queue_cas_write_index_acq_rel` (and of its `hsa_queue_cas_write_index_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_acq_rel =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_cas_write_index_scacq_screl` (and of its `hsa_queue_cas_write_index_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_scacq_screl =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_cas_write_index_acquire` (and of its `hsa_queue_cas_write_index_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_acquire =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_cas_write_index_scacquire` (and of its `hsa_queue_cas_write_index_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_scacquire =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_cas_write_index_relaxed` (and of its `hsa_queue_cas_write_index_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_relaxed =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_cas_write_index_release` (and of its `hsa_queue_cas_write_index_release_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_release =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_cas_write_index_screlease` (and of its `hsa_queue_cas_write_index_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_cas_write_index_screlease =
    unsafe extern "C" fn(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_acq_rel` (and of its `hsa_queue_add_write_index_acq_rel_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_acq_rel = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_scacq_screl` (and of its `hsa_queue_add_write_index_scacq_screl_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_scacq_screl = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_acquire` (and of its `hsa_queue_add_write_index_acquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_acquire = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_scacquire` (and of its `hsa_queue_add_write_index_scacquire_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_scacquire = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_relaxed` (and of its `hsa_queue_add_write_index_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_relaxed = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_release` (and of its `hsa_queue_add_write_index_release_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_release = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_add_write_index_screlease` (and of its `hsa_queue_add_write_index_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_add_write_index_screlease = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64) -> u64;

/// Type of `hsa_queue_store_read_index_relaxed` (and of its `hsa_queue_store_read_index_relaxed_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_store_read_index_relaxed = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64);

/// Type of `hsa_queue_store_read_index_release` (and of its `hsa_queue_store_read_index_release_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_store_read_index_release = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64);

/// Type of `hsa_queue_store_read_index_screlease` (and of its `hsa_queue_store_read_index_screlease_fn` API-table slot, if it has one).
pub type PFN_hsa_queue_store_read_index_screlease = unsafe extern "C" fn(queue: *const hsa_queue_t, value: u64);

/// Type of `hsa_region_get_info` (and of its `hsa_region_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_region_get_info =
    unsafe extern "C" fn(region: hsa_region_t, attribute: hsa_region_info_t, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_agent_iterate_regions` (and of its `hsa_agent_iterate_regions_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_iterate_regions = unsafe extern "C" fn(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(region: hsa_region_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_memory_allocate` (and of its `hsa_memory_allocate_fn` API-table slot, if it has one).
pub type PFN_hsa_memory_allocate =
    unsafe extern "C" fn(region: hsa_region_t, size: usize, ptr: *mut *mut c_void) -> hsa_status_t;

/// Type of `hsa_memory_free` (and of its `hsa_memory_free_fn` API-table slot, if it has one).
pub type PFN_hsa_memory_free = unsafe extern "C" fn(ptr: *mut c_void) -> hsa_status_t;

/// Type of `hsa_memory_copy` (and of its `hsa_memory_copy_fn` API-table slot, if it has one).
pub type PFN_hsa_memory_copy = unsafe extern "C" fn(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t;

/// Type of `hsa_memory_assign_agent` (and of its `hsa_memory_assign_agent_fn` API-table slot, if it has one).
pub type PFN_hsa_memory_assign_agent =
    unsafe extern "C" fn(ptr: *mut c_void, agent: hsa_agent_t, access: hsa_access_permission_t) -> hsa_status_t;

/// Type of `hsa_memory_register` (and of its `hsa_memory_register_fn` API-table slot, if it has one).
pub type PFN_hsa_memory_register = unsafe extern "C" fn(ptr: *mut c_void, size: usize) -> hsa_status_t;

/// Type of `hsa_memory_deregister` (and of its `hsa_memory_deregister_fn` API-table slot, if it has one).
pub type PFN_hsa_memory_deregister = unsafe extern "C" fn(ptr: *mut c_void, size: usize) -> hsa_status_t;

/// Type of `hsa_isa_from_name` (and of its `hsa_isa_from_name_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_from_name = unsafe extern "C" fn(name: *const c_char, isa: *mut hsa_isa_t) -> hsa_status_t;

/// Type of `hsa_agent_iterate_isas` (and of its `hsa_agent_iterate_isas_fn` API-table slot, if it has one).
pub type PFN_hsa_agent_iterate_isas = unsafe extern "C" fn(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(isa: hsa_isa_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_isa_get_info` (and of its `hsa_isa_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_get_info =
    unsafe extern "C" fn(isa: hsa_isa_t, attribute: hsa_isa_info_t, index: u32, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_isa_get_info_alt` (and of its `hsa_isa_get_info_alt_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_get_info_alt =
    unsafe extern "C" fn(isa: hsa_isa_t, attribute: hsa_isa_info_t, value: *mut c_void) -> hsa_status_t;

/// Type of `hsa_isa_get_exception_policies` (and of its `hsa_isa_get_exception_policies_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_get_exception_policies =
    unsafe extern "C" fn(isa: hsa_isa_t, profile: hsa_profile_t, mask: *mut u16) -> hsa_status_t;

/// Type of `hsa_isa_get_round_method` (and of its `hsa_isa_get_round_method_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_get_round_method = unsafe extern "C" fn(
    isa: hsa_isa_t,
    fp_type: hsa_fp_type_t,
    flush_mode: hsa_flush_mode_t,
    round_method: *mut hsa_round_method_t,
) -> hsa_status_t;

/// Type of `hsa_wavefront_get_info` (and of its `hsa_wavefront_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_wavefront_get_info = unsafe extern "C" fn(
    wavefront: hsa_wavefront_t,
    attribute: hsa_wavefront_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_isa_iterate_wavefronts` (and of its `hsa_isa_iterate_wavefronts_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_iterate_wavefronts = unsafe extern "C" fn(
    isa: hsa_isa_t,
    callback: Option<unsafe extern "C" fn(wavefront: hsa_wavefront_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_isa_compatible` (and of its `hsa_isa_compatible_fn` API-table slot, if it has one).
pub type PFN_hsa_isa_compatible =
    unsafe extern "C" fn(code_object_isa: hsa_isa_t, agent_isa: hsa_isa_t, result: *mut bool) -> hsa_status_t;

/// Type of `hsa_code_object_reader_create_from_file` (and of its `hsa_code_object_reader_create_from_file_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_reader_create_from_file =
    unsafe extern "C" fn(file: hsa_file_t, code_object_reader: *mut hsa_code_object_reader_t) -> hsa_status_t;

/// Type of `hsa_code_object_reader_create_from_memory` (and of its `hsa_code_object_reader_create_from_memory_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_reader_create_from_memory = unsafe extern "C" fn(
    code_object: *const c_void,
    size: usize,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t;

/// Type of `hsa_code_object_reader_destroy` (and of its `hsa_code_object_reader_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_reader_destroy =
    unsafe extern "C" fn(code_object_reader: hsa_code_object_reader_t) -> hsa_status_t;

/// Type of `hsa_executable_create` (and of its `hsa_executable_create_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_create = unsafe extern "C" fn(
    profile: hsa_profile_t,
    executable_state: hsa_executable_state_t,
    options: *const c_char,
    executable: *mut hsa_executable_t,
) -> hsa_status_t;

/// Type of `hsa_executable_create_alt` (and of its `hsa_executable_create_alt_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_create_alt = unsafe extern "C" fn(
    profile: hsa_profile_t,
    default_float_rounding_mode: hsa_default_float_rounding_mode_t,
    options: *const c_char,
    executable: *mut hsa_executable_t,
) -> hsa_status_t;

/// Type of `hsa_executable_destroy` (and of its `hsa_executable_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_destroy = unsafe extern "C" fn(executable: hsa_executable_t) -> hsa_status_t;

/// Type of `hsa_executable_load_program_code_object` (and of its `hsa_executable_load_program_code_object_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_load_program_code_object = unsafe extern "C" fn(
    executable: hsa_executable_t,
    code_object_reader: hsa_code_object_reader_t,
    options: *const c_char,
    loaded_code_object: *mut hsa_loaded_code_object_t,
) -> hsa_status_t;

/// Type of `hsa_executable_load_agent_code_object` (and of its `hsa_executable_load_agent_code_object_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_load_agent_code_object = unsafe extern "C" fn(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    code_object_reader: hsa_code_object_reader_t,
    options: *const c_char,
    loaded_code_object: *mut hsa_loaded_code_object_t,
) -> hsa_status_t;

/// Type of `hsa_executable_freeze` (and of its `hsa_executable_freeze_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_freeze =
    unsafe extern "C" fn(executable: hsa_executable_t, options: *const c_char) -> hsa_status_t;

/// Type of `hsa_executable_get_info` (and of its `hsa_executable_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_get_info = unsafe extern "C" fn(
    executable: hsa_executable_t,
    attribute: hsa_executable_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_global_variable_define` (and of its `hsa_executable_global_variable_define_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_global_variable_define = unsafe extern "C" fn(
    executable: hsa_executable_t,
    variable_name: *const c_char,
    address: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_agent_global_variable_define` (and of its `hsa_executable_agent_global_variable_define_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_agent_global_variable_define = unsafe extern "C" fn(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    variable_name: *const c_char,
    address: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_readonly_variable_define` (and of its `hsa_executable_readonly_variable_define_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_readonly_variable_define = unsafe extern "C" fn(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    variable_name: *const c_char,
    address: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_validate` (and of its `hsa_executable_validate_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_validate =
    unsafe extern "C" fn(executable: hsa_executable_t, result: *mut u32) -> hsa_status_t;

/// Type of `hsa_executable_validate_alt` (and of its `hsa_executable_validate_alt_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_validate_alt =
    unsafe extern "C" fn(executable: hsa_executable_t, options: *const c_char, result: *mut u32) -> hsa_status_t;

/// Type of `hsa_executable_get_symbol` (and of its `hsa_executable_get_symbol_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_get_symbol = unsafe extern "C" fn(
    executable: hsa_executable_t,
    module_name: *const c_char,
    symbol_name: *const c_char,
    agent: hsa_agent_t,
    call_convention: i32,
    symbol: *mut hsa_executable_symbol_t,
) -> hsa_status_t;

/// Type of `hsa_executable_get_symbol_by_name` (and of its `hsa_executable_get_symbol_by_name_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_get_symbol_by_name = unsafe extern "C" fn(
    executable: hsa_executable_t,
    symbol_name: *const c_char,
    agent: *const hsa_agent_t,
    symbol: *mut hsa_executable_symbol_t,
) -> hsa_status_t;

/// Type of `hsa_executable_symbol_get_info` (and of its `hsa_executable_symbol_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_symbol_get_info = unsafe extern "C" fn(
    executable_symbol: hsa_executable_symbol_t,
    attribute: hsa_executable_symbol_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_iterate_symbols` (and of its `hsa_executable_iterate_symbols_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_iterate_symbols = unsafe extern "C" fn(
    executable: hsa_executable_t,
    callback: Option<
        unsafe extern "C" fn(
            exec: hsa_executable_t,
            symbol: hsa_executable_symbol_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_iterate_agent_symbols` (and of its `hsa_executable_iterate_agent_symbols_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_iterate_agent_symbols = unsafe extern "C" fn(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    callback: Option<
        unsafe extern "C" fn(
            exec: hsa_executable_t,
            agent: hsa_agent_t,
            symbol: hsa_executable_symbol_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_iterate_program_symbols` (and of its `hsa_executable_iterate_program_symbols_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_iterate_program_symbols = unsafe extern "C" fn(
    executable: hsa_executable_t,
    callback: Option<
        unsafe extern "C" fn(
            exec: hsa_executable_t,
            symbol: hsa_executable_symbol_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_code_object_serialize` (and of its `hsa_code_object_serialize_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_serialize = unsafe extern "C" fn(
    code_object: hsa_code_object_t,
    alloc_callback: Option<
        unsafe extern "C" fn(size: usize, data: hsa_callback_data_t, address: *mut *mut c_void) -> hsa_status_t,
    >,
    callback_data: hsa_callback_data_t,
    options: *const c_char,
    serialized_code_object: *mut *mut c_void,
    serialized_code_object_size: *mut usize,
) -> hsa_status_t;

/// Type of `hsa_code_object_deserialize` (and of its `hsa_code_object_deserialize_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_deserialize = unsafe extern "C" fn(
    serialized_code_object: *mut c_void,
    serialized_code_object_size: usize,
    options: *const c_char,
    code_object: *mut hsa_code_object_t,
) -> hsa_status_t;

/// Type of `hsa_code_object_destroy` (and of its `hsa_code_object_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_destroy = unsafe extern "C" fn(code_object: hsa_code_object_t) -> hsa_status_t;

/// Type of `hsa_code_object_get_info` (and of its `hsa_code_object_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_get_info = unsafe extern "C" fn(
    code_object: hsa_code_object_t,
    attribute: hsa_code_object_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_executable_load_code_object` (and of its `hsa_executable_load_code_object_fn` API-table slot, if it has one).
pub type PFN_hsa_executable_load_code_object = unsafe extern "C" fn(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    code_object: hsa_code_object_t,
    options: *const c_char,
) -> hsa_status_t;

/// Type of `hsa_code_object_get_symbol` (and of its `hsa_code_object_get_symbol_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_get_symbol = unsafe extern "C" fn(
    code_object: hsa_code_object_t,
    symbol_name: *const c_char,
    symbol: *mut hsa_code_symbol_t,
) -> hsa_status_t;

/// Type of `hsa_code_object_get_symbol_from_name` (and of its `hsa_code_object_get_symbol_from_name_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_get_symbol_from_name = unsafe extern "C" fn(
    code_object: hsa_code_object_t,
    module_name: *const c_char,
    symbol_name: *const c_char,
    symbol: *mut hsa_code_symbol_t,
) -> hsa_status_t;

/// Type of `hsa_code_symbol_get_info` (and of its `hsa_code_symbol_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_code_symbol_get_info = unsafe extern "C" fn(
    code_symbol: hsa_code_symbol_t,
    attribute: hsa_code_symbol_info_t,
    value: *mut c_void,
) -> hsa_status_t;

/// Type of `hsa_code_object_iterate_symbols` (and of its `hsa_code_object_iterate_symbols_fn` API-table slot, if it has one).
pub type PFN_hsa_code_object_iterate_symbols = unsafe extern "C" fn(
    code_object: hsa_code_object_t,
    callback: Option<
        unsafe extern "C" fn(
            code_object: hsa_code_object_t,
            symbol: hsa_code_symbol_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t;
