//! rocprofiler-sdk's numbering of record kinds and operations, which rocprofv3's outputs print as
//! integers (`kind`, `operation` in JSON buffer records and Perfetto annotations) and resolve
//! through the `strings` tables of `results.json`. Values from `rocprofiler-sdk/fwd.h`
//! (`rocprofiler_buffer_tracing_kind_t`, `rocprofiler_kernel_dispatch_operation_t`).

/// `ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH`.
pub const KERNEL_DISPATCH: u64 = 11;
/// `ROCPROFILER_KERNEL_DISPATCH_COMPLETE`: the operation of a kernel-dispatch buffer record.
pub const KERNEL_DISPATCH_COMPLETE: u64 = 2;

/// `rocprofiler_buffer_tracing_kind_t` names, indexed by value, as `strings.buffer_records`
/// lists them (without the `ROCPROFILER_BUFFER_TRACING_` prefix).
pub const BUFFER_TRACING_KINDS: [&str; 30] = [
    "NONE",
    "HSA_CORE_API",
    "HSA_AMD_EXT_API",
    "HSA_IMAGE_EXT_API",
    "HSA_FINALIZE_EXT_API",
    "HIP_RUNTIME_API",
    "HIP_COMPILER_API",
    "MARKER_CORE_API",
    "MARKER_CONTROL_API",
    "MARKER_NAME_API",
    "MEMORY_COPY",
    "KERNEL_DISPATCH",
    "SCRATCH_MEMORY",
    "CORRELATION_ID_RETIREMENT",
    "RCCL_API",
    "OMPT",
    "MEMORY_ALLOCATION",
    "RUNTIME_INITIALIZATION",
    "ROCDECODE_API",
    "ROCJPEG_API",
    "HIP_STREAM",
    "HIP_RUNTIME_API_EXT",
    "HIP_COMPILER_API_EXT",
    "ROCDECODE_API_EXT",
    "KFD_EVENT_PAGE_MIGRATE",
    "KFD_EVENT_PAGE_FAULT",
    "KFD_EVENT_QUEUE",
    "KFD_EVENT_UNMAP_FROM_GPU",
    "KFD_EVENT_DROPPED_EVENTS",
    "KFD_PAGE_MIGRATE",
];

/// Operation names of `KERNEL_DISPATCH` records (`rocprofiler_kernel_dispatch_operation_t`).
pub const KERNEL_DISPATCH_OPERATIONS: [&str; 3] =
    ["KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"];

/// Counter dimension names by `rocprofiler_profile_counter_instance_types` value (index 0 is
/// `DIMENSION_NONE`), as `counters[].dimension_ids` and `strings.counters.dimension_ids` number
/// them.
pub const COUNTER_DIMENSIONS: [&str; 8] = [
    "DIMENSION_NONE",
    "DIMENSION_XCC",
    "DIMENSION_AID",
    "DIMENSION_SHADER_ENGINE",
    "DIMENSION_AGENT",
    "DIMENSION_SHADER_ARRAY",
    "DIMENSION_WGP",
    "DIMENSION_INSTANCE",
];
