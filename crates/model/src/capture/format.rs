//! The record format of the capture: constants, header and chunk offsets, record kinds, the
//! commit word and checksums, [`FixedRecord`] with the `fixed_record!` macro every record part
//! uses, the fixed records of agents, code objects, kernels and dispatches, and the header and
//! chunk encoders. The layout is described in the [module above](super).

/// First eight bytes of every capture file.
pub const MAGIC: [u8; 8] = *b"RPRSCAP\0";
/// Format version written by this build. Readers reject other versions. Version 2: loss
/// counters by reason, per-record checksums, per-chunk hook time; API-call, memory-activity and
/// clock-sync records; dispatches carry the external correlation id and HIP stream. Version 3:
/// the record checksum whose multiplies run in parallel ([`record_checksum`]); the reader still
/// reads version 2 ([`record_checksum_v2`]).
pub const VERSION: u32 = 3;
/// Written as a little-endian u32; a reader sees `04 03 02 01` in a file from a little-endian writer.
pub const ENDIAN_MARKER: u32 = 0x0102_0304;
/// Size of the fixed part of the file header; the command line starts here.
pub const HEADER_FIXED_SIZE: usize = 256;
/// Alignment of `header_size` (chunks start on a page boundary so they can be mapped).
pub const HEADER_ALIGN: usize = 4096;
/// Bytes at the start of every chunk before its first record.
pub const CHUNK_HEADER_SIZE: usize = 64;
/// Magic of a claimed chunk (`"RPCK"` little-endian).
pub const CHUNK_MAGIC: u32 = u32::from_le_bytes(*b"RPCK");
/// Size of a record frame (commit word + reserved word).
pub const FRAME_SIZE: usize = 8;
/// Largest total size of one record (the size field is 16 bits, multiples of 8).
pub const MAX_RECORD_SIZE: usize = 0xFFF8;
/// Longest string a string record can carry; longer strings are cut by the writer.
pub const MAX_STRING_LEN: usize = MAX_RECORD_SIZE - FRAME_SIZE - 8;

/// Byte offsets of the fixed file-header fields.
pub mod header {
    /// `[u8; 8]` [`super::MAGIC`].
    pub const MAGIC: usize = 0;
    /// u32 format version.
    pub const VERSION: usize = 8;
    /// u32 [`super::ENDIAN_MARKER`].
    pub const ENDIAN: usize = 12;
    /// u32 offset of chunk 0 (multiple of [`super::HEADER_ALIGN`]).
    pub const HEADER_SIZE: usize = 16;
    /// u32 bytes per chunk.
    pub const CHUNK_SIZE: usize = 20;
    /// u32 pid of the profiled process.
    pub const PID: usize = 24;
    /// u32 its parent's pid.
    pub const PPID: usize = 28;
    /// u32 clock domain of every timestamp ([`super::ClockId`]).
    pub const CLOCK: usize = 32;
    /// u32 flags, updated in place ([`super::FLAG_CLEAN_EXIT`]).
    pub const FLAGS: usize = 36;
    /// u64 tool load time, ns.
    pub const START_NS: usize = 40;
    /// u64 last flush time, ns (0 until the process flushes at exit), updated in place.
    pub const END_NS: usize = 48;
    /// u64 reserved (version 1 kept its single drop counter here; see [`LOSSES`]).
    pub const RESERVED_56: usize = 56;
    /// u64 number of chunks claimed so far, updated in place (informational).
    pub const CHUNKS_CLAIMED: usize = 64;
    /// u32 length of the command line (arguments separated by NUL).
    pub const CMDLINE_LEN: usize = 72;
    /// u32 length of the agent section (starts 8-aligned after the command line).
    pub const AGENTS_LEN: usize = 76;
    /// u32 root `HsaApiTable` major seen by `OnLoad` (diagnostics).
    pub const TABLE_MAJOR: usize = 80;
    /// u32 AmdExt table size (`minor_id`) seen by `OnLoad` (diagnostics).
    pub const AMD_EXT_SIZE: usize = 84;
    /// `[u64; LossReason::IN_PROCESS]` loss counters, indexed by [`crate::LossReason`]
    /// discriminant, updated in place by the profiled process.
    pub const LOSSES: usize = 128;
}

/// Byte offsets of the chunk-header fields.
pub mod chunk {
    /// u32 [`super::CHUNK_MAGIC`].
    pub const MAGIC: usize = 0;
    /// u64 claim sequence (1, 2, ... in claim order).
    pub const SEQ: usize = 8;
    /// u32 OS thread id of the owner.
    pub const TID: usize = 16;
    /// u64 ns the owner spent in packet hooks while it owned this chunk, updated in place.
    pub const HOOK_NS: usize = 24;
    /// u64 packets the owner handled in that time, updated in place.
    pub const HOOK_PACKETS: usize = 32;
    /// u64 ns the owner waited for capture space (lossless buffer policy) before it got this
    /// chunk, including earlier waits of the thread that ended without a chunk.
    pub const STALL_NS: usize = 40;
    /// u64 number of those waits.
    pub const STALLS: usize = 48;
    /// u64 the longest of them, ns.
    pub const STALL_MAX_NS: usize = 56;
}

/// Set in the header flags once the process flushed at exit (absent after a crash).
pub const FLAG_CLEAN_EXIT: u32 = 1;

/// Clock ids stored in the header. Values 0..=2 match [`ClockDomain::as_u8`](crate::ClockDomain::as_u8); 3 is
/// `CLOCK_MONOTONIC_RAW`, used by ROCr 5.2 for its system timestamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum ClockId {
    /// `CLOCK_BOOTTIME`.
    Boottime = 0,
    /// `CLOCK_MONOTONIC`.
    Monotonic = 1,
    /// `CLOCK_REALTIME`.
    Realtime = 2,
    /// `CLOCK_MONOTONIC_RAW`.
    MonotonicRaw = 3,
}

/// Record kinds. The body size of each fixed-size kind is `<Record>::BODY_SIZE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum RecordKind {
    /// A string: `id u32, len u32, bytes`.
    String = 1,
    /// [`AgentRecord`].
    Agent = 2,
    /// [`QueueRecord`].
    Queue = 3,
    /// [`CodeObjectLoadRecord`].
    CodeObjectLoad = 4,
    /// [`CodeObjectUnloadRecord`].
    CodeObjectUnload = 5,
    /// [`KernelSymbolRecord`].
    KernelSymbol = 6,
    /// [`DispatchBeginRecord`].
    DispatchBegin = 7,
    /// [`DispatchEndRecord`].
    DispatchEnd = 8,
    /// Filler with no meaning: a writer that reserved space but could not fill it commits this,
    /// so the records after it in the same chunk stay readable.
    Padding = 9,
    /// [`PmcGroupRecord`].
    PmcGroup = 10,
    /// A dispatch's counter output: a [`PmcOutputHeader`] followed by up to
    /// [`PMC_OUTPUT_MAX_PAYLOAD`] bytes of the output buffer (larger outputs take several records,
    /// each naming its offset).
    PmcOutput = 11,
    /// [`ApiCallRecord`](super::ApiCallRecord) followed by `nargs` argument words (variable length).
    ApiCall = 12,
    /// [`OperationNameRecord`](super::OperationNameRecord).
    OperationName = 13,
    /// [`MemoryCopyRecord`](super::MemoryCopyRecord).
    MemoryCopy = 14,
    /// [`MemoryAllocationRecord`](super::MemoryAllocationRecord).
    MemoryAllocation = 15,
    /// [`ScratchMemoryRecord`](super::ScratchMemoryRecord).
    ScratchMemory = 16,
    /// [`ClockSyncRecord`](super::ClockSyncRecord).
    ClockSync = 17,
    /// [`PcSampleRecord`](super::pcsamp::PcSampleRecord).
    PcSample = 18,
    /// [`PcSampleDispatchRecord`](super::pcsamp::PcSampleDispatchRecord).
    PcSampleDispatch = 19,
    /// [`HostFunctionRecord`](super::HostFunctionRecord).
    HostFunction = 20,
    /// [`PmcSourcesRecord`].
    PmcSources = 21,
    /// An API call without external id, return value or message: four header words
    /// ([`ApiCallRecord::short_header_words`](super::ApiCallRecord::short_header_words)) followed by `nargs` argument words.
    ApiCallShort = 22,
}

impl RecordKind {
    pub(super) fn from_u16(v: u16) -> Option<Self> {
        Some(match v {
            1 => Self::String,
            2 => Self::Agent,
            3 => Self::Queue,
            4 => Self::CodeObjectLoad,
            5 => Self::CodeObjectUnload,
            6 => Self::KernelSymbol,
            7 => Self::DispatchBegin,
            8 => Self::DispatchEnd,
            9 => Self::Padding,
            10 => Self::PmcGroup,
            11 => Self::PmcOutput,
            12 => Self::ApiCall,
            13 => Self::OperationName,
            14 => Self::MemoryCopy,
            15 => Self::MemoryAllocation,
            16 => Self::ScratchMemory,
            17 => Self::ClockSync,
            18 => Self::PcSample,
            19 => Self::PcSampleDispatch,
            20 => Self::HostFunction,
            21 => Self::PmcSources,
            22 => Self::ApiCallShort,
            _ => return None,
        })
    }
}

/// The commit word of a record frame: kind in the low 16 bits, total size (frame + body, rounded
/// up to 8) in the high 16 bits. Never 0 for a valid record.
pub const fn record_header_word(kind: RecordKind, total_size: usize) -> u32 {
    (kind as u32) | ((total_size as u32) << 16)
}

/// Total size (frame + body, 8-aligned) of a string record carrying `len` bytes.
pub const fn string_record_size(len: usize) -> usize {
    (FRAME_SIZE + 8 + len + 7) & !7
}

/// The checksum stored in a record frame's second word (format [`VERSION`] 3): the body's 8-byte
/// words taken in pairs, each pair XORed with secrets that depend on its position and multiplied
/// together (64 x 64 -> 128 bits, the halves folded), the products summed, and the sum finalised
/// with a full avalanche mix. The products are independent of each other, so the multiplies
/// overlap in the CPU instead of waiting for one another as in [`record_checksum_v2`]'s chain (a
/// 12-word API-call record: ~6 multiplies in parallel instead of 12 in series, which made the
/// checksum the largest single cost of a traced call). A changed word, or two words swapped,
/// changes the sum (the secrets differ per position). The body is zero-padded to a multiple of 8
/// in the file; a shorter tail is zero-padded here. Allocation-free.
#[inline]
pub fn record_checksum(body: &[u8]) -> u32 {
    let mut sum = 0u64;
    let mut step = 0u64;
    let mut pairs = body.chunks_exact(16);
    for p in &mut pairs {
        sum = sum.wrapping_add(checksum_pair(le_word(&p[..8]), le_word(&p[8..]), step));
        step = step.wrapping_add(CHECKSUM_STEP);
    }
    let rest = pairs.remainder();
    if !rest.is_empty() {
        let (lo, hi) = rest.split_at(rest.len().min(8));
        sum = sum.wrapping_add(checksum_pair(le_word(lo), le_word(hi), step));
    }
    checksum_finish(sum, body.len())
}

/// [`record_checksum`] of a body of `H` header words then `A` argument words, given as the words
/// (the same value as over their little-endian bytes), both counts known at compile time. For
/// writers that hold the body in registers: reading back bytes just written with narrower stores
/// stalls the CPU (the stores cannot be forwarded to the wider loads), which cost a traced call
/// about 10 ns; and with constant counts the pair loop unrolls into straight-line code (no
/// iterator state, no branch per word), so the multiplies of one record all issue together.
#[inline(always)]
pub fn record_checksum_split<const H: usize, const A: usize>(head: &[u64; H], args: &[u64; A]) -> u32 {
    let len = H + A;
    let word = |i: usize| if i < H { head[i] } else { args[i - H] };
    let (mut sum, mut step, mut i) = (0u64, 0u64, 0usize);
    while i < len {
        let b = if i + 1 < len { word(i + 1) } else { 0 };
        sum = sum.wrapping_add(checksum_pair(word(i), b, step));
        step = step.wrapping_add(CHECKSUM_STEP);
        i += 2;
    }
    checksum_finish(sum, 8 * len)
}

const CHECKSUM_SECRET: [u64; 3] = [0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x5899_65CC_7537_4CC3];
const CHECKSUM_STEP: u64 = 0x8EBC_6AF0_9C88_C6E3;

/// Up to 8 bytes as a little-endian word, zero-padded.
#[inline(always)]
fn le_word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(w)
}

/// The product of one pair of words, each XORed with its position's secret (64 x 64 -> 128 bits,
/// the halves folded).
#[inline(always)]
fn checksum_pair(a: u64, b: u64, step: u64) -> u64 {
    let p =
        u128::from(a ^ CHECKSUM_SECRET[0].wrapping_add(step)) * u128::from(b ^ CHECKSUM_SECRET[1].wrapping_add(step));
    (p as u64) ^ ((p >> 64) as u64)
}

/// Murmur3's 64-bit finaliser over the sum, seeded with the length, folded to 32 bits.
#[inline(always)]
fn checksum_finish(sum: u64, len: usize) -> u32 {
    let mut h = sum ^ (len as u64).wrapping_mul(CHECKSUM_SECRET[2]);
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    (h ^ (h >> 32)) as u32
}

/// The record checksum of format version 2 (a serial multiply-rotate chain over the body's
/// words); the reader still checks version-2 captures with it.
pub fn record_checksum_v2(body: &[u8]) -> u32 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ body.len() as u64;
    let mut words = body.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ v).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(29);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(last)).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(29);
    }
    (h ^ (h >> 32)) as u32
}

/// The record checksum of format `version` (`None`: a version this build does not read).
pub fn record_checksum_of(version: u32) -> Option<fn(&[u8]) -> u32> {
    match version {
        2 => Some(record_checksum_v2),
        VERSION => Some(record_checksum),
        _ => None,
    }
}

/// Writes the frame (checksum of `record[FRAME_SIZE..total]`, then the commit word) of a record
/// whose body is already in place; for writers that commit in one step (the agent section,
/// tests). The profiled process stores the checksum first and the commit word last itself.
pub fn seal_record(record: &mut [u8], word: u32) {
    let size = (word >> 16) as usize;
    let sum = record_checksum(&record[FRAME_SIZE..size]);
    record[4..8].copy_from_slice(&sum.to_le_bytes());
    record[0..4].copy_from_slice(&word.to_le_bytes());
}

/// Writes the body prefix of a string record (`id`, `len`) into `body[..8]`; the caller copies
/// the bytes to `body[8..8 + len]` and leaves the padding zero. Allocation-free.
pub fn write_string_prefix(id: u32, len: u32, body: &mut [u8]) {
    body[0..4].copy_from_slice(&id.to_le_bytes());
    body[4..8].copy_from_slice(&len.to_le_bytes());
}

// ------------------------------------------------------------------------------------------------
// Fixed-size records
// ------------------------------------------------------------------------------------------------

/// Little-endian field access on byte slices, used by the generated encoders and decoders.
pub(super) trait Field: Copy + Default {
    const SIZE: usize;
    fn put(self, b: &mut [u8]);
    fn get(b: &[u8]) -> Self;
}

macro_rules! le_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, b: &mut [u8]) {
                b[..Self::SIZE].copy_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..Self::SIZE]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
le_field!(u32, u64, i64);

/// A fixed-size capture record.
pub trait FixedRecord: Copy {
    /// Its kind.
    const KIND: RecordKind;
    /// Body bytes (fields packed in declaration order, no padding between them).
    const BODY_SIZE: usize;
    /// Total bytes including the frame, rounded up to 8.
    const TOTAL_SIZE: usize = (FRAME_SIZE + Self::BODY_SIZE + 7) & !7;
    /// The commit word for this record.
    const HEADER_WORD: u32 = record_header_word(Self::KIND, Self::TOTAL_SIZE);
    /// Encodes the body into `body[..BODY_SIZE]`. Allocation-free; panics only if `body` is
    /// shorter than `BODY_SIZE`, which callers size statically.
    fn write_body(&self, body: &mut [u8]);
    /// Decodes a body; `body` must hold at least `BODY_SIZE` bytes.
    fn read_body(body: &[u8]) -> Self;
}

macro_rules! fixed_record {
    ($(#[$doc:meta])* $name:ident = $kind:ident { $($(#[$fdoc:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        impl FixedRecord for $name {
            const KIND: RecordKind = RecordKind::$kind;
            const BODY_SIZE: usize = 0 $(+ <$ty as Field>::SIZE)*;

            fn write_body(&self, body: &mut [u8]) {
                let mut _off = 0usize;
                $(
                    <$ty as Field>::put(self.$field, &mut body[_off..]);
                    _off += <$ty as Field>::SIZE;
                )*
            }

            fn read_body(body: &[u8]) -> Self {
                let mut _off = 0usize;
                $(
                    let $field = <$ty as Field>::get(&body[_off..]);
                    _off += <$ty as Field>::SIZE;
                )*
                Self { $($field,)* }
            }
        }
    };
}
pub(super) use fixed_record;

fixed_record!(
    /// An agent with every property `agent_info.csv` prints. Written in the header's agent section.
    AgentRecord = Agent {
        /// `hsa_agent_t` handle, used by other records to refer to the agent.
        handle: u64,
        /// KFD node id (becomes [`AgentId`](crate::AgentId)).
        node_id: u32,
        /// Logical node id.
        logical_node_id: u32,
        /// Logical node id among agents of the same type.
        logical_node_type_id: u32,
        /// 0 unknown, 1 CPU, 2 GPU.
        agent_type: u32,
        /// CPU cores (CPU agents).
        cpu_cores_count: u32,
        /// SIMDs.
        simd_count: u32,
        /// First CPU core id.
        cpu_core_id_base: u32,
        /// First SIMD id.
        simd_id_base: u32,
        /// Waves per SIMD.
        max_waves_per_simd: u32,
        /// LDS KiB per workgroup.
        lds_size_in_kb: u32,
        /// GDS KiB.
        gds_size_in_kb: u32,
        /// Global wave syncs.
        num_gws: u32,
        /// Wavefront size.
        wave_front_size: u32,
        /// XCCs.
        num_xcc: u32,
        /// Compute units.
        cu_count: u32,
        /// Shader arrays.
        array_count: u32,
        /// Shader engines (banks).
        num_shader_banks: u32,
        /// Shader arrays per engine.
        simd_arrays_per_engine: u32,
        /// CUs per shader array.
        cu_per_simd_array: u32,
        /// SIMDs per CU.
        simd_per_cu: u32,
        /// Scratch slots per CU.
        max_slots_scratch_cu: u32,
        /// gfx target version, e.g. 90402.
        gfx_target_version: u32,
        /// PCI vendor id.
        vendor_id: u32,
        /// PCI device id.
        device_id: u32,
        /// PCI location (BDF).
        location_id: u32,
        /// PCI domain.
        domain: u32,
        /// DRM render minor.
        drm_render_minor: u32,
        /// SDMA engines.
        num_sdma_engines: u32,
        /// xGMI SDMA engines.
        num_sdma_xgmi_engines: u32,
        /// Queues per SDMA engine.
        num_sdma_queues_per_engine: u32,
        /// CP queues.
        num_cp_queues: u32,
        /// Max compute engine clock (MHz).
        max_engine_clk_ccompute: u32,
        /// Max fabric clock (MHz).
        max_engine_clk_fcompute: u32,
        /// SDMA firmware version.
        sdma_fw_version: u32,
        /// Firmware version.
        fw_version: u32,
        /// Capability bits.
        capability: u32,
        /// CUs per engine.
        cu_per_engine: u32,
        /// Waves per CU.
        max_waves_per_cu: u32,
        /// Family id.
        family_id: u32,
        /// Max work-items per workgroup.
        workgroup_max_size: u32,
        /// Max workgroup dims.
        workgroup_max_dim_x: u32,
        /// Max workgroup dims.
        workgroup_max_dim_y: u32,
        /// Max workgroup dims.
        workgroup_max_dim_z: u32,
        /// Max grid dims.
        grid_max_dim_x: u32,
        /// Max grid dims.
        grid_max_dim_y: u32,
        /// Max grid dims.
        grid_max_dim_z: u32,
        /// Name string id (e.g. `gfx942`).
        name: u32,
        /// Vendor name string id.
        vendor_name: u32,
        /// Product name string id.
        product_name: u32,
        /// Model name string id.
        model_name: u32,
        /// Max grid size.
        grid_max_size: u64,
        /// Local memory bytes.
        local_mem_size: u64,
        /// xGMI hive id.
        hive_id: u64,
        /// KFD gpu id.
        gpu_id: u64,
    }
);

fixed_record!(
    /// A queue created by the application (as the intercept queue it was given).
    QueueRecord = Queue {
        /// Our queue id (1, 2, ...).
        queue_id: u64,
        /// `hsa_queue_t::id`.
        hsa_queue_id: u64,
        /// Agent handle.
        agent_handle: u64,
        /// Creation time, ns.
        created_ns: u64,
        /// Ring size in packets.
        size: u32,
        /// Creating thread.
        tid: u32,
    }
);

fixed_record!(
    /// A code object loaded into a frozen executable.
    CodeObjectLoadRecord = CodeObjectLoad {
        /// Our code object id (1, 2, ...).
        code_object_id: u64,
        /// `hsa_executable_t` handle.
        executable: u64,
        /// Agent handle.
        agent_handle: u64,
        /// Load base.
        load_base: u64,
        /// Load size.
        load_size: u64,
        /// Load delta.
        load_delta: i64,
        /// Host address of the ELF image (memory storage).
        memory_base: u64,
        /// Size of the ELF image.
        memory_size: u64,
        /// Load time, ns.
        loaded_ns: u64,
        /// Storage type (0 none, 1 file, 2 memory).
        storage: u32,
        /// URI string id.
        uri: u32,
    }
);

fixed_record!(
    /// A code object about to be unloaded (executable destroyed).
    CodeObjectUnloadRecord = CodeObjectUnload {
        /// Our code object id.
        code_object_id: u64,
        /// Unload time, ns.
        unloaded_ns: u64,
    }
);

fixed_record!(
    /// A kernel symbol of a loaded code object, with the raw kernel-descriptor words; register
    /// counts are derived by the reader (they depend on the agent's architecture).
    KernelSymbolRecord = KernelSymbol {
        /// Our kernel id (1, 2, ...).
        kernel_id: u64,
        /// Owning code object.
        code_object_id: u64,
        /// `kernel_object` (descriptor address).
        kernel_object: u64,
        /// Descriptor `kernel_code_entry_byte_offset`.
        entry_byte_offset: i64,
        /// Name string id (raw symbol name, usually ending in `.kd`).
        name: u32,
        /// Kernarg segment size.
        kernarg_size: u32,
        /// Kernarg segment alignment.
        kernarg_alignment: u32,
        /// Static group segment size.
        group_segment_size: u32,
        /// Static private segment size.
        private_segment_size: u32,
        /// Descriptor `compute_pgm_rsrc1`.
        pgm_rsrc1: u32,
        /// Descriptor `compute_pgm_rsrc2`.
        pgm_rsrc2: u32,
        /// Descriptor `compute_pgm_rsrc3`.
        pgm_rsrc3: u32,
        /// Descriptor `kernel_code_properties`.
        code_properties: u32,
        /// 1 when the descriptor words above were read, 0 when the host copy was unavailable.
        descriptor_valid: u32,
    }
);

fixed_record!(
    /// A kernel dispatch as it was enqueued (written on the enqueuing thread, before submission,
    /// so it survives a crash that happens before the completion is seen).
    DispatchBeginRecord = DispatchBegin {
        /// Per-process dispatch number from 1.
        dispatch_id: u64,
        /// Correlation id.
        correlation_id: u64,
        /// Kernel id resolved from `kernel_object` (0 = unknown).
        kernel_id: u64,
        /// `kernel_object` from the packet.
        kernel_object: u64,
        /// Agent handle.
        agent_handle: u64,
        /// Our queue id.
        queue_id: u64,
        /// Enqueue time, ns.
        enqueue_ns: u64,
        /// Enqueuing thread.
        tid: u32,
        /// Packet `setup` (dimensions).
        setup: u32,
        /// Workgroup size.
        workgroup_x: u32,
        /// Workgroup size.
        workgroup_y: u32,
        /// Workgroup size.
        workgroup_z: u32,
        /// Grid size in work-items.
        grid_x: u32,
        /// Grid size in work-items.
        grid_y: u32,
        /// Grid size in work-items.
        grid_z: u32,
        /// Packet `private_segment_size`.
        private_segment_size: u32,
        /// Packet `group_segment_size`.
        group_segment_size: u32,
        /// External correlation id (0: none).
        external_id: u64,
        /// HIP stream of the issuing call (0: unknown).
        stream_id: u64,
    }
);

/// [`DispatchEndRecord::status`]: timestamps are valid.
pub const DISPATCH_OK: u32 = 0;
/// [`DispatchEndRecord::status`]: the runtime could not report timestamps.
pub const DISPATCH_NO_TIME: u32 = 1;
/// [`DispatchEndRecord::status`]: the dispatch's completion was not recorded (the interception
/// library counted it under a loss reason: a refused completion handler, a failed one). The reader
/// leaves such a dispatch out of the outputs like an incomplete one, but does not count it again as
/// incomplete.
pub const DISPATCH_LOST: u32 = 2;

fixed_record!(
    /// The completion of a kernel dispatch with its GPU start/end in the capture's clock domain.
    DispatchEndRecord = DispatchEnd {
        /// Dispatch id.
        dispatch_id: u64,
        /// GPU start, ns.
        start_ns: u64,
        /// GPU end, ns.
        end_ns: u64,
        /// [`DISPATCH_OK`], [`DISPATCH_NO_TIME`] or [`DISPATCH_LOST`].
        status: u32,
    }
);

fixed_record!(
    /// One counter group of one agent as the interception library programmed it (see
    /// `rocprof_model::counters::PmcGroup`).
    PmcGroupRecord = PmcGroup {
        /// Agent handle.
        agent_handle: u64,
        /// The agent's index among the GPUs.
        gpu_index: u32,
        /// Group number.
        group: u32,
        /// String id: the requested counter names, separated by spaces.
        counters: u32,
        /// String id: the programmed events (`PmcEvent::list_to_text`).
        events: u32,
        /// Output buffer bytes per dispatch.
        output_size: u32,
        /// Output buffers in the pool.
        buffers: u32,
    }
);

fixed_record!(
    /// What each programmed event of one counter group samples (the event-to-sample mapping the
    /// run used, so post-processing never plans again); written right after its [`PmcGroupRecord`].
    /// Captures written before this record existed have none: their counters are not evaluated.
    PmcSourcesRecord = PmcSources {
        /// Agent handle.
        agent_handle: u64,
        /// Group number.
        group: u32,
        /// String id: one `counter@block` per programmed event, in programming order
        /// (`EventSource::list_to_text`).
        sources: u32,
    }
);

fixed_record!(
    /// The fixed part of a [`RecordKind::PmcOutput`] record; the payload follows it.
    PmcOutputHeader = PmcOutput {
        /// Dispatch id.
        dispatch_id: u64,
        /// Agent handle.
        agent_handle: u64,
        /// Group number.
        group: u32,
        /// `rocprof_model::counters::PmcStatus` as a number.
        status: u32,
        /// Offset of this record's payload in the output buffer.
        offset: u32,
        /// Total output bytes of the dispatch.
        total: u32,
        /// Payload bytes in this record.
        len: u32,
        /// Reserved (0).
        reserved: u32,
    }
);

/// Most payload bytes one [`RecordKind::PmcOutput`] record carries.
pub const PMC_OUTPUT_MAX_PAYLOAD: usize = (MAX_RECORD_SIZE - FRAME_SIZE - PmcOutputHeader::BODY_SIZE) & !7;

/// Encodes a whole fixed record (frame + body, commit word included) into `out`, which must be
/// at least `R::TOTAL_SIZE` bytes. For writers that do not need the two-step commit (the header's
/// agent section, tests).
pub fn encode_record<R: FixedRecord>(rec: &R, out: &mut [u8]) -> usize {
    out[..R::TOTAL_SIZE].fill(0);
    rec.write_body(&mut out[FRAME_SIZE..]);
    seal_record(out, R::HEADER_WORD);
    R::TOTAL_SIZE
}

/// Appends a whole string record to `out` (cold paths: the header's agent section, tests).
/// Strings longer than [`MAX_STRING_LEN`] are cut.
pub fn push_string_record(out: &mut Vec<u8>, id: u32, s: &[u8]) {
    let s = &s[..s.len().min(MAX_STRING_LEN)];
    let total = string_record_size(s.len());
    let start = out.len();
    out.resize(start + total, 0);
    let rec = &mut out[start..];
    write_string_prefix(id, s.len() as u32, &mut rec[FRAME_SIZE..]);
    rec[FRAME_SIZE + 8..FRAME_SIZE + 8 + s.len()].copy_from_slice(s);
    seal_record(rec, record_header_word(RecordKind::String, total));
}

/// Total size (frame + header + payload, 8-aligned) of a [`RecordKind::PmcOutput`] record with
/// `len` payload bytes.
pub const fn pmc_output_record_size(len: usize) -> usize {
    (FRAME_SIZE + PmcOutputHeader::BODY_SIZE + len + 7) & !7
}

/// Writes the body of a [`RecordKind::PmcOutput`] record (header, then `payload`) into `body`, which
/// must hold `PmcOutputHeader::BODY_SIZE + payload.len()` bytes. Allocation-free.
pub fn write_pmc_output_body(h: &PmcOutputHeader, payload: &[u8], body: &mut [u8]) {
    h.write_body(body);
    body[PmcOutputHeader::BODY_SIZE..PmcOutputHeader::BODY_SIZE + payload.len()].copy_from_slice(payload);
}

/// Appends a whole [`RecordKind::PmcOutput`] record to `out` (tests; the interception library writes
/// them in place with [`write_pmc_output_body`]).
pub fn push_pmc_output(out: &mut Vec<u8>, h: &PmcOutputHeader, payload: &[u8]) {
    let total = pmc_output_record_size(payload.len());
    let start = out.len();
    out.resize(start + total, 0);
    write_pmc_output_body(h, payload, &mut out[start + FRAME_SIZE..]);
    seal_record(&mut out[start..], record_header_word(RecordKind::PmcOutput, total));
}

/// Appends a whole fixed record to `out`.
pub fn push_record<R: FixedRecord>(out: &mut Vec<u8>, rec: &R) {
    let start = out.len();
    out.resize(start + R::TOTAL_SIZE, 0);
    encode_record(rec, &mut out[start..]);
}

/// What goes into a file header, for the writer side.
#[derive(Debug, Clone, Default)]
pub struct HeaderInfo {
    /// Profiled process.
    pub pid: u32,
    /// Its parent.
    pub ppid: u32,
    /// Clock of every timestamp.
    pub clock: u32,
    /// Tool load time.
    pub start_ns: u64,
    /// Chunk size the writer uses (multiple of 4096).
    pub chunk_size: u32,
    /// Command line, arguments separated by NUL (as in `/proc/self/cmdline`).
    pub cmdline: Vec<u8>,
    /// Agent section: string and agent records, each built with [`push_string_record`] /
    /// [`push_record`].
    pub agents: Vec<u8>,
    /// Root table major seen by `OnLoad`.
    pub table_major: u32,
    /// AmdExt table size seen by `OnLoad`.
    pub amd_ext_size: u32,
}

/// Builds the complete file header (fixed part, command line, agent section, zero padding to a
/// multiple of [`HEADER_ALIGN`]).
pub fn encode_header(info: &HeaderInfo) -> Vec<u8> {
    let cmd_end = HEADER_FIXED_SIZE + info.cmdline.len();
    let agents_start = (cmd_end + 7) & !7;
    let end = agents_start + info.agents.len();
    let size = end.div_ceil(HEADER_ALIGN) * HEADER_ALIGN;
    let mut h = vec![0u8; size];
    h[header::MAGIC..header::MAGIC + 8].copy_from_slice(&MAGIC);
    let put32 = |h: &mut Vec<u8>, off: usize, v: u32| h[off..off + 4].copy_from_slice(&v.to_le_bytes());
    put32(&mut h, header::VERSION, VERSION);
    put32(&mut h, header::ENDIAN, ENDIAN_MARKER);
    put32(&mut h, header::HEADER_SIZE, size as u32);
    put32(&mut h, header::CHUNK_SIZE, info.chunk_size);
    put32(&mut h, header::PID, info.pid);
    put32(&mut h, header::PPID, info.ppid);
    put32(&mut h, header::CLOCK, info.clock);
    put32(&mut h, header::CMDLINE_LEN, info.cmdline.len() as u32);
    put32(&mut h, header::AGENTS_LEN, info.agents.len() as u32);
    put32(&mut h, header::TABLE_MAJOR, info.table_major);
    put32(&mut h, header::AMD_EXT_SIZE, info.amd_ext_size);
    h[header::START_NS..header::START_NS + 8].copy_from_slice(&info.start_ns.to_le_bytes());
    h[HEADER_FIXED_SIZE..cmd_end].copy_from_slice(&info.cmdline);
    h[agents_start..end].copy_from_slice(&info.agents);
    h
}

/// Writes a chunk header into `chunk[..CHUNK_HEADER_SIZE]`.
pub fn write_chunk_header(chunk: &mut [u8], seq: u64, tid: u32) {
    chunk[..CHUNK_HEADER_SIZE].fill(0);
    chunk[chunk::MAGIC..chunk::MAGIC + 4].copy_from_slice(&CHUNK_MAGIC.to_le_bytes());
    chunk[chunk::SEQ..chunk::SEQ + 8].copy_from_slice(&seq.to_le_bytes());
    chunk[chunk::TID..chunk::TID + 4].copy_from_slice(&tid.to_le_bytes());
}

/// Architected VGPRs of a kernel, from its descriptor, the way rocprofiler-sdk computes them
/// (`code_object.cpp`, `arch_vgpr_count`): gfx90a/gfx94x read `ACCUM_OFFSET` (rsrc3 bits 0-5),
/// others the granulated VGPR count (rsrc1 bits 0-5) in granules of 4 (8 in wave32 mode).
pub fn arch_vgpr_count(gfx: &str, rsrc1: u32, rsrc3: u32, code_properties: u32) -> u32 {
    if gfx == "gfx90a" || gfx.starts_with("gfx94") {
        return ((rsrc3 & 0x3F) + 1) * 4;
    }
    let granule = if code_properties & (1 << 10) != 0 { 8 } else { 4 };
    ((rsrc1 & 0x3F) + 1) * granule
}

/// Accumulation VGPRs (rocprofiler-sdk `accum_vgpr_count`): gfx908 reports the architected count,
/// gfx90a/gfx94x the unified count (granules of 8) minus the architected part, others 0.
pub fn accum_vgpr_count(gfx: &str, rsrc1: u32, rsrc3: u32, code_properties: u32) -> u32 {
    if gfx == "gfx908" {
        return arch_vgpr_count(gfx, rsrc1, rsrc3, code_properties);
    }
    if gfx == "gfx90a" || gfx.starts_with("gfx94") {
        return (((rsrc1 & 0x3F) + 1) * 8).saturating_sub(arch_vgpr_count(gfx, rsrc1, rsrc3, code_properties));
    }
    0
}

/// SGPRs (rocprofiler-sdk `sgpr_count`): gfx10 and later always allocate 128; earlier targets
/// use the granulated SGPR count (rsrc1 bits 6-9): `(granules / 2 + 1) * 16`.
pub fn sgpr_count(gfx: &str, rsrc1: u32) -> u32 {
    let digits: String = gfx.chars().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit()).collect();
    match digits.parse::<u32>() {
        Ok(n) if n >= 1000 => 128,
        Ok(_) => (((rsrc1 >> 6) & 0xF) / 2 + 1) * 16,
        Err(_) => 0,
    }
}
