//! The simulated machine's objects: agents, memory pools (= regions), caches and ISAs, built once (first
//! `hsa_init`) from the board models of the targets crate and leaked, so a handle is an address; and the
//! limits an agent reports (queue sizes). Plain types: handle validation is `runtime`'s (it holds the
//! system), the `*_get_info` queries are `agent`'s.

use rocprof_hsa_sys::*;

use crate::clock;
use rocprof_device::targets::GpuModel;

/// Smallest GPU queue in packets (ROCr `GpuAgent::minAqlSize_`, 4 KiB), reported as `QUEUE_MIN_SIZE`.
pub(crate) const MIN_QUEUE_PACKETS: u32 = 0x40;
/// Largest GPU queue in packets (ROCr `GpuAgent::maxAqlSize_`, 8 MiB), reported as `QUEUE_MAX_SIZE`.
pub(crate) const MAX_QUEUE_PACKETS: u32 = 0x20000;

/// CPU or GPU.
#[derive(Debug, Clone, Copy)]
pub(crate) enum AgentKind {
    Cpu { cores: u32 },
    Gpu(&'static GpuModel),
}

#[derive(Debug)]
pub(crate) struct Pool {
    pub(crate) owner: usize,
    pub(crate) segment: u32,
    pub(crate) flags: u32,
    pub(crate) size: u64,
    pub(crate) alloc_allowed: bool,
    pub(crate) granule: u64,
    pub(crate) alignment: u64,
    pub(crate) accessible_by_all: bool,
    pub(crate) location_gpu: bool,
}

#[derive(Debug)]
pub(crate) struct Cache {
    pub(crate) name: &'static str,
    pub(crate) level: u8,
    pub(crate) size: u32,
}

#[derive(Debug)]
pub(crate) struct Isa {
    pub(crate) model: &'static GpuModel,
}

#[derive(Debug)]
pub(crate) struct Agent {
    /// Position in iteration order (CPU = 0).
    pub(crate) index: u32,
    pub(crate) kind: AgentKind,
    pub(crate) pools: Vec<&'static Pool>,
    pub(crate) caches: Vec<&'static Cache>,
    pub(crate) isa: Option<&'static Isa>,
    pub(crate) tick_offset: u64,
    /// PM4 register file and performance counters of a GPU (the device model's executor), made at the
    /// agent's first PM4-IB packet.
    pub(crate) pm4: std::sync::OnceLock<std::sync::Mutex<rocprof_device::pm4::Pm4Device>>,
}

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

fn host_memory_bytes() -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let (pages, page) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    if pages > 0 && page > 0 {
        pages as u64 * page as u64
    } else {
        16 << 30
    }
}

/// Builds the CPU agent plus one GPU agent per model.
pub(crate) fn build_agents(gpus: &[&'static GpuModel]) -> Vec<&'static Agent> {
    let mut agents = Vec::new();
    let cores = std::thread::available_parallelism().map(|n| n.get() as u32).unwrap_or(1);
    let cpu_mem = host_memory_bytes();
    let mk_cpu_pool = |flags: u32| Pool {
        owner: 0,
        segment: HSA_AMD_SEGMENT_GLOBAL,
        flags,
        size: cpu_mem,
        alloc_allowed: true,
        granule: 4096,
        alignment: 4096,
        accessible_by_all: true,
        location_gpu: false,
    };
    agents.push(leak(Agent {
        index: 0,
        kind: AgentKind::Cpu { cores },
        pools: vec![
            leak(mk_cpu_pool(
                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
            )),
            leak(mk_cpu_pool(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)),
            leak(mk_cpu_pool(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)),
        ],
        caches: vec![
            leak(Cache { name: "L1", level: 1, size: 32 << 10 }),
            leak(Cache { name: "L2", level: 2, size: 1 << 20 }),
        ],
        isa: None,
        tick_offset: 0,
        pm4: std::sync::OnceLock::new(),
    }));
    for (i, m) in gpus.iter().enumerate() {
        let index = i as u32 + 1;
        let gpu_pool = |flags: u32| Pool {
            owner: index as usize,
            segment: HSA_AMD_SEGMENT_GLOBAL,
            flags,
            size: m.memory_bytes,
            alloc_allowed: true,
            granule: 4096,
            alignment: 4096,
            accessible_by_all: false,
            location_gpu: true,
        };
        let mut caches = vec![
            leak(Cache { name: "L1", level: 1, size: m.cache_bytes[0] }),
            leak(Cache { name: "L2", level: 2, size: m.cache_bytes[1] }),
        ];
        if m.cache_bytes[2] != 0 {
            caches.push(leak(Cache { name: "L3", level: 3, size: m.cache_bytes[2] }));
        }
        agents.push(leak(Agent {
            index,
            kind: AgentKind::Gpu(m),
            pools: vec![
                leak(gpu_pool(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)),
                leak(gpu_pool(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)),
                leak(Pool {
                    owner: index as usize,
                    segment: HSA_AMD_SEGMENT_GROUP,
                    flags: 0,
                    size: u64::from(m.lds_bytes),
                    alloc_allowed: false,
                    granule: 0,
                    alignment: 0,
                    accessible_by_all: false,
                    location_gpu: true,
                }),
            ],
            caches,
            isa: Some(isa_of(m)),
            tick_offset: clock::tick_offset(index),
            pm4: std::sync::OnceLock::new(),
        }));
    }
    agents
}

/// One ISA object per model, shared by all agents of that target.
pub(crate) fn isa_of(m: &'static GpuModel) -> &'static Isa {
    static ISAS: std::sync::OnceLock<Vec<&'static Isa>> = std::sync::OnceLock::new();
    let all = ISAS.get_or_init(|| rocprof_device::targets::MODELS.iter().map(|m| leak(Isa { model: m })).collect());
    all.iter().find(|i| i.model.name == m.name).copied().expect("every model has an ISA")
}

impl Agent {
    pub(crate) fn handle(&'static self) -> hsa_agent_t {
        hsa_agent_t { handle: self as *const Agent as u64 }
    }

    pub(crate) fn is_cpu(&self) -> bool {
        matches!(self.kind, AgentKind::Cpu { .. })
    }

    pub(crate) fn gpu(&self) -> Option<&'static GpuModel> {
        match self.kind {
            AgentKind::Gpu(m) => Some(m),
            AgentKind::Cpu { .. } => None,
        }
    }

    pub(crate) fn name(&self) -> String {
        match self.kind {
            AgentKind::Cpu { .. } => "hsa-sim x86-64 CPU".to_string(),
            AgentKind::Gpu(m) => m.name.to_string(),
        }
    }
}

/// A pool's handle (pools and regions are the same objects).
pub(crate) fn pool_handle(p: &'static Pool) -> u64 {
    p as *const Pool as u64
}
