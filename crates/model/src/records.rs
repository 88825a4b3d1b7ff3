//! Plain owned records that describe one profiled process: agents, queues, code objects, kernel
//! symbols and kernel dispatches, the interned strings they refer to, process facts and the count
//! of records that were lost on the way.
//!
//! These are the values the writers format and the CLI reports on. They are not the on-disk
//! capture records (see [`crate::capture`]), which are fixed-size and allocation-free; the capture
//! reader decodes into these types. Derived values (durations, formatted kernel names, grid
//! products) are computed here once so that every writer prints the same thing.

use std::collections::HashMap;
use std::fmt;

// ------------------------------------------------------------------------------------------------
// Identifiers
// ------------------------------------------------------------------------------------------------

macro_rules! id_newtype {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub $inner);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

id_newtype!(
    /// An agent, identified by its KFD topology node id (`node_id`), which is also the agent id
    /// rocpd stores in `rocpd_info_agent.id` and CSV prints as `"Agent <n>"`.
    AgentId(u32)
);
id_newtype!(
    /// A queue as numbered by the profiler: 1, 2, ... in creation order within the process
    /// (rocprofv3 prints a small integer handle in `Queue_Id`; rocpd keeps id 0 for "Default Queue").
    QueueId(u64)
);
id_newtype!(
    /// A HIP stream as tracked by the profiler; 0 is the default stream / no stream tracking.
    StreamId(u64)
);
id_newtype!(
    /// A loaded code object, numbered 1, 2, ... in load order within the process.
    CodeObjectId(u64)
);
id_newtype!(
    /// A kernel symbol, numbered 1, 2, ... in load order within the process (`Kernel_Id`).
    KernelId(u64)
);
id_newtype!(
    /// A kernel dispatch, numbered 1, 2, ... per process (`Dispatch_Id`).
    DispatchId(u64)
);
id_newtype!(
    /// The profiler's internal correlation id, one process-wide counter starting at 1.
    CorrelationId(u64)
);
id_newtype!(
    /// An OS thread id (Linux `gettid()`).
    ThreadId(u32)
);
id_newtype!(
    /// An OS process id.
    ProcessId(u32)
);

/// A handle into a [`StringTable`]. Handles are only meaningful for the table that issued them.
/// The default, `StringId(0)`, is the empty string in every table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct StringId(pub u32);

impl StringId {
    /// The empty string, present in every [`StringTable`].
    pub const EMPTY: StringId = StringId(0);
}

// ------------------------------------------------------------------------------------------------
// Time
// ------------------------------------------------------------------------------------------------

/// Which clock a [`Timestamp`] was read from.
///
/// rocprofv3 reports everything on `CLOCK_BOOTTIME` (nanoseconds since boot); GPU timestamps are
/// converted into that domain by the profiling API, and so are ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum ClockDomain {
    /// Linux `CLOCK_BOOTTIME`, the domain of all rocprofv3 outputs.
    #[default]
    Boottime = 0,
    /// Linux `CLOCK_MONOTONIC`.
    Monotonic = 1,
    /// Linux `CLOCK_REALTIME` (Unix epoch).
    Realtime = 2,
}

impl ClockDomain {
    /// The raw value used by the capture format.
    pub fn as_u8(self) -> u8 {
        self as u8
    }

    /// The domain for a raw capture value, if known.
    pub fn from_u8(v: u8) -> Option<Self> {
        match v {
            0 => Some(Self::Boottime),
            1 => Some(Self::Monotonic),
            2 => Some(Self::Realtime),
            _ => None,
        }
    }
}

/// A point in time, in nanoseconds, in an explicit clock domain.
///
/// Ordering compares nanoseconds first; comparing timestamps of different domains is a bug the
/// caller must avoid (every record of one process uses [`SessionMeta::clock`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    /// Nanoseconds since the clock's origin.
    pub ns: u64,
    /// The clock the value was read from.
    pub domain: ClockDomain,
}

impl Timestamp {
    /// A boot-clock timestamp, the usual case.
    pub fn boottime(ns: u64) -> Self {
        Self { ns, domain: ClockDomain::Boottime }
    }

    /// Nanoseconds from `earlier` to `self`, or 0 when `earlier` is later (a torn or bogus pair
    /// must not wrap around to a huge duration).
    pub fn saturating_since(self, earlier: Timestamp) -> u64 {
        debug_assert_eq!(self.domain, earlier.domain, "timestamps from different clocks");
        self.ns.saturating_sub(earlier.ns)
    }
}

// ------------------------------------------------------------------------------------------------
// Strings
// ------------------------------------------------------------------------------------------------

/// Interned strings: each distinct string is stored once and referred to by [`StringId`].
///
/// Ids are dense (0, 1, 2, ... in first-interned order) so writers can keep per-id side tables
/// in a `Vec`. Id 0 is always the empty string, so a defaulted [`StringId`] reads as `""`.
#[derive(Debug, Clone)]
pub struct StringTable {
    strings: Vec<Box<str>>,
    lookup: HashMap<Box<str>, StringId>,
}

impl Default for StringTable {
    fn default() -> Self {
        let mut t = Self { strings: Vec::new(), lookup: HashMap::new() };
        t.intern("");
        t
    }
}

impl StringTable {
    /// A table holding only the empty string (id 0).
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `s`, adding it if it is new.
    pub fn intern(&mut self, s: &str) -> StringId {
        if let Some(&id) = self.lookup.get(s) {
            return id;
        }
        let id = StringId(u32::try_from(self.strings.len()).expect("fewer than 2^32 distinct strings"));
        self.strings.push(s.into());
        self.lookup.insert(s.into(), id);
        id
    }

    /// The id of `s` if it was interned.
    pub fn find(&self, s: &str) -> Option<StringId> {
        self.lookup.get(s).copied()
    }

    /// The string for `id`, or `None` for an id this table did not issue.
    pub fn get(&self, id: StringId) -> Option<&str> {
        self.strings.get(id.0 as usize).map(|s| &**s)
    }

    /// The string for `id`, or `""` for an id this table did not issue. Writers use this: a
    /// dangling id (only possible from a corrupt capture) prints as an empty name, not a panic.
    pub fn resolve(&self, id: StringId) -> &str {
        self.get(id).unwrap_or("")
    }

    /// Number of distinct strings, including the empty string.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    /// True when nothing but the empty string is stored.
    pub fn is_empty(&self) -> bool {
        self.strings.len() <= 1
    }

    /// All strings with their ids, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (StringId, &str)> {
        self.strings.iter().enumerate().map(|(i, s)| (StringId(i as u32), &**s))
    }

    /// The strings with ids `from` and up, in id order: what was interned since the table had
    /// `from` strings. Streaming consumers replicate a table by interning these in order.
    pub fn since(&self, from: usize) -> impl Iterator<Item = &str> {
        self.strings.get(from..).unwrap_or(&[]).iter().map(|s| &**s)
    }
}

// ------------------------------------------------------------------------------------------------
// Agents
// ------------------------------------------------------------------------------------------------

/// The kind of an agent, as in `hsa_device_type_t` / rocprofiler's agent type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AgentType {
    /// A CPU agent.
    Cpu,
    /// A GPU agent.
    Gpu,
    /// Anything else (DSP, unknown).
    #[default]
    Unknown,
}

impl AgentType {
    /// The spelling in `agent_info.csv` and `rocpd_info_agent.type`: `CPU`, `GPU`, `UNK`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cpu => "CPU",
            Self::Gpu => "GPU",
            Self::Unknown => "UNK",
        }
    }
}

/// A CPU or GPU agent with every property rocprofv3 prints in `agent_info.csv` (the KFD topology
/// `properties` of the node, plus names). Field order follows the CSV column order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Agent {
    /// Our id for the agent (= `node_id`).
    pub id: AgentId,
    /// The `hsa_agent_t` handle in the profiled process; used to map runtime calls to agents.
    pub handle: u64,
    /// KFD topology node id (`Node_Id`).
    pub node_id: u32,
    /// Logical node id, cgroup aware (`Logical_Node_Id`).
    pub logical_node_id: u32,
    /// Index among agents of the same type (`GPU 0`, `CPU 0`, ...).
    pub logical_node_type_id: u32,
    /// `Agent_Type`.
    pub agent_type: AgentType,
    /// `Cpu_Cores_Count`.
    pub cpu_cores_count: u32,
    /// `Simd_Count`.
    pub simd_count: u32,
    /// `Cpu_Core_Id_Base`.
    pub cpu_core_id_base: u32,
    /// `Simd_Id_Base`.
    pub simd_id_base: u32,
    /// `Max_Waves_Per_Simd`.
    pub max_waves_per_simd: u32,
    /// `Lds_Size_In_Kb`.
    pub lds_size_in_kb: u32,
    /// `Gds_Size_In_Kb`.
    pub gds_size_in_kb: u32,
    /// `Num_Gws`.
    pub num_gws: u32,
    /// `Wave_Front_Size`.
    pub wave_front_size: u32,
    /// `Num_Xcc`.
    pub num_xcc: u32,
    /// `Cu_Count`.
    pub cu_count: u32,
    /// `Array_Count`.
    pub array_count: u32,
    /// `Num_Shader_Banks`.
    pub num_shader_banks: u32,
    /// `Simd_Arrays_Per_Engine`.
    pub simd_arrays_per_engine: u32,
    /// `Cu_Per_Simd_Array`.
    pub cu_per_simd_array: u32,
    /// `Simd_Per_Cu`.
    pub simd_per_cu: u32,
    /// `Max_Slots_Scratch_Cu`.
    pub max_slots_scratch_cu: u32,
    /// `Gfx_Target_Version`, e.g. 90402 for gfx942.
    pub gfx_target_version: u32,
    /// `Vendor_Id` (PCI).
    pub vendor_id: u32,
    /// `Device_Id` (PCI); rocpd stores it as `rocpd_info_agent.uuid`.
    pub device_id: u32,
    /// `Location_Id` (PCI BDF).
    pub location_id: u32,
    /// `Domain` (PCI domain).
    pub domain: u32,
    /// `Drm_Render_Minor`.
    pub drm_render_minor: u32,
    /// `Num_Sdma_Engines`.
    pub num_sdma_engines: u32,
    /// `Num_Sdma_Xgmi_Engines`.
    pub num_sdma_xgmi_engines: u32,
    /// `Num_Sdma_Queues_Per_Engine`.
    pub num_sdma_queues_per_engine: u32,
    /// `Num_Cp_Queues`.
    pub num_cp_queues: u32,
    /// `Max_Engine_Clk_Ccompute` (MHz).
    pub max_engine_clk_ccompute: u32,
    /// `Max_Engine_Clk_Fcompute` (MHz).
    pub max_engine_clk_fcompute: u32,
    /// `Sdma_Fw_Version`, raw 32-bit union value.
    pub sdma_fw_version: u32,
    /// `Fw_Version`, raw 32-bit union value.
    pub fw_version: u32,
    /// `Capability`, raw 32-bit union value.
    pub capability: u32,
    /// `Cu_Per_Engine`.
    pub cu_per_engine: u32,
    /// `Max_Waves_Per_Cu`.
    pub max_waves_per_cu: u32,
    /// `Family_Id`.
    pub family_id: u32,
    /// `Workgroup_Max_Size`.
    pub workgroup_max_size: u32,
    /// `Grid_Max_Size`.
    pub grid_max_size: u64,
    /// `Local_Mem_Size` in bytes.
    pub local_mem_size: u64,
    /// `Hive_Id`.
    pub hive_id: u64,
    /// `Gpu_Id` (KFD gpu id).
    pub gpu_id: u64,
    /// `Workgroup_Max_Dim_X/Y/Z`.
    pub workgroup_max_dim: Dim3,
    /// `Grid_Max_Dim_X/Y/Z`.
    pub grid_max_dim: Dim3,
    /// `Name`, e.g. `gfx942` or the CPU model string.
    pub name: StringId,
    /// `Vendor_Name`, e.g. `AMD` or `CPU`.
    pub vendor_name: StringId,
    /// `Product_Name`, the marketing name.
    pub product_name: StringId,
    /// `Model_Name`, e.g. `aldebaran`; may be empty.
    pub model_name: StringId,
}

impl Agent {
    /// Every plain number of the agent under its rocprofiler-sdk name (`rocprofiler_agent_t`'s
    /// fields, which are KFD's node properties), in field order: the one map from names to fields
    /// that the JSON and rocpd agent objects and the counter database's agent properties read. The
    /// bit-field words (`fw_version`, `sdma_fw_version`, `capability`), the maximum dimensions and
    /// the names are not plain numbers and are left to each output.
    pub fn kfd_properties(&self) -> [(&'static str, u64); 40] {
        [
            ("node_id", u64::from(self.node_id)),
            ("logical_node_id", u64::from(self.logical_node_id)),
            ("logical_node_type_id", u64::from(self.logical_node_type_id)),
            ("cpu_cores_count", u64::from(self.cpu_cores_count)),
            ("simd_count", u64::from(self.simd_count)),
            ("cpu_core_id_base", u64::from(self.cpu_core_id_base)),
            ("simd_id_base", u64::from(self.simd_id_base)),
            ("max_waves_per_simd", u64::from(self.max_waves_per_simd)),
            ("lds_size_in_kb", u64::from(self.lds_size_in_kb)),
            ("gds_size_in_kb", u64::from(self.gds_size_in_kb)),
            ("num_gws", u64::from(self.num_gws)),
            ("wave_front_size", u64::from(self.wave_front_size)),
            ("num_xcc", u64::from(self.num_xcc)),
            ("cu_count", u64::from(self.cu_count)),
            ("array_count", u64::from(self.array_count)),
            ("num_shader_banks", u64::from(self.num_shader_banks)),
            ("simd_arrays_per_engine", u64::from(self.simd_arrays_per_engine)),
            ("cu_per_simd_array", u64::from(self.cu_per_simd_array)),
            ("simd_per_cu", u64::from(self.simd_per_cu)),
            ("max_slots_scratch_cu", u64::from(self.max_slots_scratch_cu)),
            ("gfx_target_version", u64::from(self.gfx_target_version)),
            ("vendor_id", u64::from(self.vendor_id)),
            ("device_id", u64::from(self.device_id)),
            ("location_id", u64::from(self.location_id)),
            ("domain", u64::from(self.domain)),
            ("drm_render_minor", u64::from(self.drm_render_minor)),
            ("num_sdma_engines", u64::from(self.num_sdma_engines)),
            ("num_sdma_xgmi_engines", u64::from(self.num_sdma_xgmi_engines)),
            ("num_sdma_queues_per_engine", u64::from(self.num_sdma_queues_per_engine)),
            ("num_cp_queues", u64::from(self.num_cp_queues)),
            ("max_engine_clk_ccompute", u64::from(self.max_engine_clk_ccompute)),
            ("max_engine_clk_fcompute", u64::from(self.max_engine_clk_fcompute)),
            ("cu_per_engine", u64::from(self.cu_per_engine)),
            ("max_waves_per_cu", u64::from(self.max_waves_per_cu)),
            ("family_id", u64::from(self.family_id)),
            ("workgroup_max_size", u64::from(self.workgroup_max_size)),
            ("grid_max_size", self.grid_max_size),
            ("local_mem_size", self.local_mem_size),
            ("hive_id", self.hive_id),
            ("gpu_id", self.gpu_id),
        ]
    }

    /// One of [`Agent::kfd_properties`] by name.
    pub fn kfd_property(&self, name: &str) -> Option<u64> {
        self.kfd_properties().into_iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

/// Three dimensions (grid, work-group, maximum sizes), x first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dim3 {
    /// X dimension.
    pub x: u32,
    /// Y dimension.
    pub y: u32,
    /// Z dimension.
    pub z: u32,
}

impl Dim3 {
    /// A new triple.
    pub fn new(x: u32, y: u32, z: u32) -> Self {
        Self { x, y, z }
    }

    /// x * y * z, without overflow.
    pub fn product(self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }
}

// ------------------------------------------------------------------------------------------------
// Queues, code objects, kernel symbols
// ------------------------------------------------------------------------------------------------

/// A hardware queue created by the application.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Queue {
    /// Our id (1, 2, ... in creation order).
    pub id: QueueId,
    /// The agent the queue belongs to.
    pub agent: AgentId,
    /// The runtime's handle (`hsa_queue_t::id`), kept for diagnostics.
    pub handle: u64,
    /// Ring size in packets.
    pub size: u32,
    /// Thread that created the queue.
    pub thread: ThreadId,
    /// Creation time.
    pub created: Timestamp,
}

/// How a code object was supplied to the loader (`rocprofiler_code_object_storage_type_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CodeObjectStorage {
    /// Unknown / none (0).
    #[default]
    None,
    /// Loaded from a file (1).
    File,
    /// Loaded from memory (2).
    Memory,
}

impl CodeObjectStorage {
    /// rocprofiler's numeric value (0 none, 1 file, 2 memory).
    pub fn as_u32(self) -> u32 {
        match self {
            Self::None => 0,
            Self::File => 1,
            Self::Memory => 2,
        }
    }

    /// rocpd's `storage_type` text (`FILE`, `MEMORY`), `None` for unknown.
    pub fn as_rocpd_str(self) -> Option<&'static str> {
        match self {
            Self::None => None,
            Self::File => Some("FILE"),
            Self::Memory => Some("MEMORY"),
        }
    }
}

/// A code object loaded into an executable for one agent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CodeObject {
    /// Our id (1, 2, ... in load order).
    pub id: CodeObjectId,
    /// Agent it was loaded for.
    pub agent: AgentId,
    /// URI as the loader reports it (`file://...#offset=..&size=..` or `memory://pid#...`).
    pub uri: StringId,
    /// Load address.
    pub load_base: u64,
    /// Loaded size in bytes.
    pub load_size: u64,
    /// Delta from the ELF virtual addresses to the load addresses.
    pub load_delta: i64,
    /// How it was supplied.
    pub storage: CodeObjectStorage,
    /// For memory storage: where the ELF image lives in host memory.
    pub memory_base: u64,
    /// For memory storage: its size.
    pub memory_size: u64,
    /// When it was loaded.
    pub loaded: Timestamp,
}

/// A kernel symbol of a loaded code object, with the kernel-descriptor values the outputs print.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KernelSymbol {
    /// Our id (1, 2, ... in load order; `Kernel_Id`).
    pub id: KernelId,
    /// Code object that defines it.
    pub code_object: CodeObjectId,
    /// Raw symbol name as the loader reports it, usually ending in `.kd`.
    pub name: StringId,
    /// Demangled raw name (Itanium ABI; equal to the raw name when it is not mangled).
    pub demangled_name: StringId,
    /// The name outputs print: `.kd` removed, demangled ([`format_kernel_name`]).
    pub formatted_name: StringId,
    /// The bare function name ([`truncate_kernel_name`]), for `-T`.
    pub truncated_name: StringId,
    /// `kernel_object`: address of the kernel descriptor, as written into dispatch packets.
    pub kernel_object: u64,
    /// Kernarg segment size in bytes.
    pub kernarg_segment_size: u32,
    /// Kernarg segment alignment in bytes.
    pub kernarg_segment_alignment: u32,
    /// Static LDS (group segment) bytes.
    pub group_segment_size: u32,
    /// Static scratch (private segment) bytes per work-item.
    pub private_segment_size: u32,
    /// SGPRs used by the kernel.
    pub sgpr_count: u32,
    /// Architected VGPRs.
    pub arch_vgpr_count: u32,
    /// Accumulation VGPRs (AGPRs).
    pub accum_vgpr_count: u32,
    /// `kernel_code_entry_byte_offset` from the kernel descriptor.
    pub kernel_code_entry_byte_offset: i64,
    /// Address of the first instruction (kernel_object + entry offset).
    pub kernel_address: u64,
    /// With `--kernel-rename`: the symbol this one is a copy of, named after a ROCTx range or
    /// mark (`KernelId(0)`: an original symbol). rocprofv3's JSON keeps the original's id on the
    /// dispatch and gives the name through its external correlation id.
    pub renamed_from: KernelId,
}

impl KernelSymbol {
    /// `LDS_Block_Size` as rocprofv3's `kernel_trace.csv` prints it: the symbol's static group
    /// segment size rounded up to a multiple of 512 bytes (`generateCSV.cpp`, `lds_block_size`).
    pub fn lds_block_size(&self) -> u64 {
        lds_block_size(self.group_segment_size)
    }
}

/// `bytes` rounded up to a multiple of the 512-byte LDS allocation granule.
pub fn lds_block_size(bytes: u32) -> u64 {
    u64::from(bytes).div_ceil(512) * 512
}

// ------------------------------------------------------------------------------------------------
// Dispatches
// ------------------------------------------------------------------------------------------------

/// One kernel dispatch with its GPU start/end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KernelDispatch {
    /// Per-process dispatch number from 1.
    pub dispatch_id: DispatchId,
    /// Internal correlation id: of the API call that issued the dispatch (the innermost HIP
    /// call, else the HSA call that rang the doorbell), or a fresh id when no call was traced.
    pub correlation_id: CorrelationId,
    /// External correlation id (rocpd `rocpd_event.correlation_id`; the enclosing ROCTx range
    /// with `--kernel-rename`), 0 when none.
    pub external_id: u64,
    /// GPU agent that ran it.
    pub agent: AgentId,
    /// Queue it was submitted to.
    pub queue: QueueId,
    /// HIP stream, 0 when unknown.
    pub stream: StreamId,
    /// Thread that enqueued it.
    pub thread: ThreadId,
    /// Kernel symbol.
    pub kernel: KernelId,
    /// Grid size in work-items.
    pub grid: Dim3,
    /// Work-group size.
    pub workgroup: Dim3,
    /// LDS bytes of this dispatch (packet `group_segment_size`: static + dynamic).
    pub group_segment_size: u32,
    /// Scratch bytes per work-item of this dispatch (packet `private_segment_size`).
    pub private_segment_size: u32,
    /// Kernarg bytes of the kernel (from the kernel descriptor / symbol).
    pub kernarg_size: u32,
    /// Architected VGPRs (from the kernel descriptor).
    pub arch_vgpr_count: u32,
    /// Accumulation VGPRs (from the kernel descriptor).
    pub accum_vgpr_count: u32,
    /// SGPRs (from the kernel descriptor).
    pub sgpr_count: u32,
    /// GPU start.
    pub start: Timestamp,
    /// GPU end.
    pub end: Timestamp,
}

impl KernelDispatch {
    /// `end - start` in ns (0 for an inverted pair).
    pub fn duration_ns(&self) -> u64 {
        self.end.saturating_since(self.start)
    }

    /// This dispatch's LDS rounded up to the 512-byte allocation granule.
    pub fn lds_block_size(&self) -> u64 {
        lds_block_size(self.group_segment_size)
    }
}

// ------------------------------------------------------------------------------------------------
// Kernel naming
// ------------------------------------------------------------------------------------------------

/// The "formatted" kernel name of rocprofv3's default settings: the demangled name with a
/// trailing `.kd` removed (the raw symbol name of an unmangled kernel is `vector_add.kd`).
pub fn format_kernel_name(demangled: &str) -> &str {
    demangled.strip_suffix(".kd").unwrap_or(demangled)
}

/// rocprofv3's `-T` truncation: the bare function name of a demangled signature,
/// `void add<float>(float*, int) [clone .kd]` -> `add`.
///
/// Trailing `(...)`, `<...>` and `[...]` groups are removed (balanced, from the end), then
/// everything up to the last space or `:` before the name.
pub fn truncate_kernel_name(name: &str) -> &str {
    let mut s = format_kernel_name(name).trim_end();
    while let Some(last) = s.chars().last() {
        let open = match last {
            ')' => '(',
            '>' => '<',
            ']' => '[',
            _ => break,
        };
        let mut depth = 0usize;
        let mut cut = None;
        for (i, c) in s.char_indices().rev() {
            if c == last {
                depth += 1;
            } else if c == open {
                depth -= 1;
                if depth == 0 {
                    cut = Some(i);
                    break;
                }
            }
        }
        match cut {
            Some(i) => s = s[..i].trim_end(),
            None => break,
        }
    }
    match s.rfind([' ', ':']) {
        Some(i) => &s[i + 1..],
        None => s,
    }
}

// ------------------------------------------------------------------------------------------------
// Session container
// ------------------------------------------------------------------------------------------------

/// Facts about the profiled process and the session, printed in headers and rocpd's
/// `rocpd_info_process`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SessionMeta {
    /// OS process id of the profiled process.
    pub pid: ProcessId,
    /// Its parent.
    pub ppid: ProcessId,
    /// Its command line, one element per argument.
    pub command: Vec<String>,
    /// When profiling of the process started (tool load).
    pub start: Timestamp,
    /// When it ended (last flush; equal to the last record's time after a crash).
    pub end: Timestamp,
    /// Clock domain of every timestamp recorded for the process.
    pub clock: ClockDomain,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_returns_the_same_id_for_the_same_text() {
        let mut t = StringTable::new();
        let a = t.intern("vector_add");
        let b = t.intern("other");
        assert_eq!(t.intern("vector_add"), a);
        assert_ne!(a, b);
        assert_eq!(t.get(b), Some("other"));
        assert_eq!(t.len(), 3);
        assert_eq!(t.resolve(StringId::default()), "");
        assert_eq!(t.intern(""), StringId::EMPTY);
        assert_eq!(t.get(StringId(7)), None);
        assert_eq!(t.resolve(StringId(7)), "");
    }

    #[test]
    fn lds_block_size_rounds_up_to_512() {
        let mut d = KernelDispatch { group_segment_size: 0, ..Default::default() };
        assert_eq!(d.lds_block_size(), 0);
        d.group_segment_size = 1;
        assert_eq!(d.lds_block_size(), 512);
        d.group_segment_size = 512;
        assert_eq!(d.lds_block_size(), 512);
        d.group_segment_size = 4100;
        assert_eq!(d.lds_block_size(), 4608);
    }

    #[test]
    fn duration_never_wraps() {
        let d = KernelDispatch { start: Timestamp::boottime(100), end: Timestamp::boottime(40), ..Default::default() };
        assert_eq!(d.duration_ns(), 0);
        let d = KernelDispatch { end: Timestamp::boottime(250), ..d };
        assert_eq!(d.duration_ns(), 150);
    }

    #[test]
    fn kernel_names_are_formatted_and_truncated_like_rocprofv3() {
        assert_eq!(format_kernel_name("vector_add.kd"), "vector_add");
        assert_eq!(format_kernel_name("vector_add"), "vector_add");
        assert_eq!(truncate_kernel_name("void addition_kernel<float>(float*, float const*, int)"), "addition_kernel");
        assert_eq!(truncate_kernel_name("ns::k(int) [clone .kd]"), "k");
        assert_eq!(truncate_kernel_name("vector_add.kd"), "vector_add");
        assert_eq!(truncate_kernel_name(""), "");
        // Unbalanced input must not panic.
        assert_eq!(truncate_kernel_name("f)"), "f)");
    }

    #[test]
    fn dim3_product_does_not_overflow() {
        assert_eq!(Dim3::new(u32::MAX, u32::MAX, 1).product(), u64::from(u32::MAX) * u64::from(u32::MAX));
        assert_eq!(Dim3::new(1024, 1, 1).product(), 1024);
    }
}
