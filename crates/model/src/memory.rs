//! Memory activity records: asynchronous copies ([`MemoryCopy`]), allocations and frees
//! ([`MemoryAllocation`]) and the runtime's scratch-memory events ([`ScratchMemory`]), with the
//! operation names rocprofv3 prints (`MEMORY_COPY_HOST_TO_DEVICE`, ...). Operation values are
//! rocprofiler-sdk's (`rocprofiler_memory_copy_operation_t`, ...).

use crate::api::Correlation;
use crate::records::{AgentId, QueueId, StreamId, ThreadId, Timestamp};

/// Direction of a memory copy (`rocprofiler_memory_copy_operation_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
pub enum MemoryCopyDirection {
    /// Unknown direction (an agent was not recognised).
    #[default]
    None = 0,
    /// Host to host.
    HostToHost = 1,
    /// Host to device.
    HostToDevice = 2,
    /// Device to host.
    DeviceToHost = 3,
    /// Device to device (also between two GPUs).
    DeviceToDevice = 4,
}

impl MemoryCopyDirection {
    /// The value of a capture record.
    pub fn from_u32(v: u32) -> Self {
        match v {
            1 => Self::HostToHost,
            2 => Self::HostToDevice,
            3 => Self::DeviceToHost,
            4 => Self::DeviceToDevice,
            _ => Self::None,
        }
    }

    /// The direction of a copy from an agent of one kind to another (`true` = GPU).
    pub fn between(src_is_gpu: bool, dst_is_gpu: bool) -> Self {
        match (src_is_gpu, dst_is_gpu) {
            (false, false) => Self::HostToHost,
            (false, true) => Self::HostToDevice,
            (true, false) => Self::DeviceToHost,
            (true, true) => Self::DeviceToDevice,
        }
    }

    /// The name rocprofv3 prints (`Direction` column, rocpd `name_id`, stats name).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "MEMORY_COPY_NONE",
            Self::HostToHost => "MEMORY_COPY_HOST_TO_HOST",
            Self::HostToDevice => "MEMORY_COPY_HOST_TO_DEVICE",
            Self::DeviceToHost => "MEMORY_COPY_DEVICE_TO_HOST",
            Self::DeviceToDevice => "MEMORY_COPY_DEVICE_TO_DEVICE",
        }
    }
}

/// One asynchronous memory copy with its engine start/end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryCopy {
    /// Direction.
    pub direction: MemoryCopyDirection,
    /// Thread that issued the copy.
    pub thread: ThreadId,
    /// The issuing API call's ids (`internal` is the copy's `Correlation_Id`).
    pub correlation: Correlation,
    /// Copy start (runtime copy profiling, system clock).
    pub start: Timestamp,
    /// Copy end.
    pub end: Timestamp,
    /// Source agent.
    pub src_agent: AgentId,
    /// Destination agent.
    pub dst_agent: AgentId,
    /// Source address.
    pub src_address: u64,
    /// Destination address.
    pub dst_address: u64,
    /// Bytes copied.
    pub bytes: u64,
    /// HIP stream, 0 when unknown.
    pub stream: StreamId,
}

impl MemoryCopy {
    /// `end - start` in ns (0 for an inverted pair).
    pub fn duration_ns(&self) -> u64 {
        self.end.saturating_since(self.start)
    }
}

/// What a [`MemoryAllocation`] record did (`rocprofiler_memory_allocation_operation_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
pub enum MemoryAllocationOp {
    /// Unknown.
    #[default]
    None = 0,
    /// `hsa_memory_allocate`, `hsa_amd_memory_pool_allocate`.
    Allocate = 1,
    /// `hsa_amd_vmem_handle_create`.
    VmemAllocate = 2,
    /// `hsa_memory_free`, `hsa_amd_memory_pool_free`.
    Free = 3,
    /// `hsa_amd_vmem_handle_release`.
    VmemFree = 4,
}

impl MemoryAllocationOp {
    /// The value of a capture record.
    pub fn from_u32(v: u32) -> Self {
        match v {
            1 => Self::Allocate,
            2 => Self::VmemAllocate,
            3 => Self::Free,
            4 => Self::VmemFree,
            _ => Self::None,
        }
    }

    /// The name rocprofv3 prints (`Operation` column, stats name).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "MEMORY_ALLOCATION_NONE",
            Self::Allocate => "MEMORY_ALLOCATION_ALLOCATE",
            Self::VmemAllocate => "MEMORY_ALLOCATION_VMEM_ALLOCATE",
            Self::Free => "MEMORY_ALLOCATION_FREE",
            Self::VmemFree => "MEMORY_ALLOCATION_VMEM_FREE",
        }
    }

    /// rocpd `rocpd_memory_allocate` (`type`, `level`).
    pub fn rocpd_type_level(self) -> (&'static str, &'static str) {
        match self {
            Self::Allocate | Self::None => ("ALLOC", "REAL"),
            Self::VmemAllocate => ("ALLOC", "VIRTUAL"),
            Self::Free => ("FREE", "REAL"),
            Self::VmemFree => ("FREE", "VIRTUAL"),
        }
    }

    /// True for the operations that name an agent (the two allocations).
    pub fn is_allocation(self) -> bool {
        matches!(self, Self::Allocate | Self::VmemAllocate)
    }
}

/// One allocation or free of device-visible memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryAllocation {
    /// What happened.
    pub operation: MemoryAllocationOp,
    /// Calling thread.
    pub thread: ThreadId,
    /// The API call's ids.
    pub correlation: Correlation,
    /// Call entry.
    pub start: Timestamp,
    /// Call exit.
    pub end: Timestamp,
    /// The agent owning the pool or region (allocations only; `None` for frees or when unknown).
    pub agent: Option<AgentId>,
    /// Address allocated or freed (for VMEM handles, the handle).
    pub address: u64,
    /// Bytes allocated (0 for frees).
    pub size: u64,
    /// HIP stream, 0 when unknown.
    pub stream: StreamId,
}

impl MemoryAllocation {
    /// `end - start` in ns (0 for an inverted pair).
    pub fn duration_ns(&self) -> u64 {
        self.end.saturating_since(self.start)
    }
}

/// What a [`ScratchMemory`] record did (`rocprofiler_scratch_memory_operation_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
pub enum ScratchMemoryOp {
    /// Unknown.
    #[default]
    None = 0,
    /// The runtime allocated scratch for a queue.
    Alloc = 1,
    /// The runtime freed a queue's scratch.
    Free = 2,
    /// The runtime reclaimed scratch asynchronously.
    AsyncReclaim = 3,
}

impl ScratchMemoryOp {
    /// The value of a capture record.
    pub fn from_u32(v: u32) -> Self {
        match v {
            1 => Self::Alloc,
            2 => Self::Free,
            3 => Self::AsyncReclaim,
            _ => Self::None,
        }
    }

    /// The name rocprofv3 prints (`Operation` column, stats name).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "SCRATCH_MEMORY_NONE",
            Self::Alloc => "SCRATCH_MEMORY_ALLOC",
            Self::Free => "SCRATCH_MEMORY_FREE",
            Self::AsyncReclaim => "SCRATCH_MEMORY_ASYNC_RECLAIM",
        }
    }

    /// rocpd `rocpd_memory_allocate.type` (level is always `SCRATCH`). Async reclaim is written
    /// `RECLAIM`, the value the schema's check allows (upstream's `ASYNC_RECLAIM` fails it).
    pub fn rocpd_type(self) -> &'static str {
        match self {
            Self::Alloc | Self::None => "ALLOC",
            Self::Free => "FREE",
            Self::AsyncReclaim => "RECLAIM",
        }
    }
}

/// One scratch-memory event of the runtime (allocation, free or asynchronous reclaim), from the
/// start event to the matching end event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScratchMemory {
    /// What happened.
    pub operation: ScratchMemoryOp,
    /// The thread the runtime reported it on.
    pub thread: ThreadId,
    /// The API call active on that thread, if any (else a fresh id).
    pub correlation: Correlation,
    /// Start event.
    pub start: Timestamp,
    /// End event.
    pub end: Timestamp,
    /// The queue's agent.
    pub agent: AgentId,
    /// The queue the scratch belongs to.
    pub queue: QueueId,
    /// `hsa_amd_event_scratch_alloc_flag_t` bits (`Alloc_Flags`).
    pub flags: u32,
    /// Bytes (allocations; 0 otherwise).
    pub size: u64,
}

impl ScratchMemory {
    /// `end - start` in ns (0 for an inverted pair).
    pub fn duration_ns(&self) -> u64 {
        self.end.saturating_since(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_names_follow_rocprofv3() {
        assert_eq!(MemoryCopyDirection::between(false, true).as_str(), "MEMORY_COPY_HOST_TO_DEVICE");
        assert_eq!(MemoryCopyDirection::between(true, true), MemoryCopyDirection::DeviceToDevice);
        assert_eq!(MemoryCopyDirection::from_u32(3), MemoryCopyDirection::DeviceToHost);
        assert_eq!(MemoryCopyDirection::from_u32(99), MemoryCopyDirection::None);
        assert_eq!(MemoryAllocationOp::from_u32(2).rocpd_type_level(), ("ALLOC", "VIRTUAL"));
        assert_eq!(MemoryAllocationOp::Free.as_str(), "MEMORY_ALLOCATION_FREE");
        assert!(!MemoryAllocationOp::VmemFree.is_allocation());
        assert_eq!(ScratchMemoryOp::from_u32(3).rocpd_type(), "RECLAIM");
        assert_eq!(ScratchMemoryOp::Alloc.as_str(), "SCRATCH_MEMORY_ALLOC");
    }
}
