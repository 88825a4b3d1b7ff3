//! The versioned on-disk capture format that carries records from the interception library (in
//! the profiled process) to the CLI, and its reader.
//!
//! This module is shared by both sides: the interception library encodes records with the
//! allocation-free `write_body`/[`record_header_word`] functions below, straight into a
//! `MAP_SHARED` mapping of the capture file; the CLI decodes a finished (or crash-truncated)
//! file with [`read_capture`] into the owned records of [`crate::records`]. It is not for
//! anything else: writers never see these bytes.
//!
//! # Layout (all integers little-endian)
//!
//! ```text
//! [file header: HEADER_FIXED_SIZE fixed bytes, command line, agent section, zero padding
//!  up to header_size (a multiple of 4096)]
//! [chunk 0][chunk 1]...           each chunk_size bytes
//! ```
//!
//! * The fixed header ([`header`] offsets) holds the magic, the format version, an endianness
//!   marker, pid/ppid, the clock domain and counters the profiled process keeps updated *inside
//!   the mapping* (losses by [`LossReason`], end time, a clean-exit flag), so they survive a
//!   crash.
//! * The agent section is a sequence of ordinary records (strings and agents), written once when
//!   the tool loads.
//! * Every chunk belongs to one producer thread, which appends records to it in order. A chunk
//!   starts with a [`CHUNK_HEADER_SIZE`]-byte header ([`chunk`] offsets: magic, claim sequence,
//!   thread id, and the time that thread spent in hooks while it owned the chunk).
//! * A record is an 8-byte frame followed by its body. The first u32 of the frame is the *commit
//!   word* `kind | total_size << 16`; it is stored last, with release ordering, after the body.
//!   A zero commit word therefore means "never committed": the reader stops reading that chunk
//!   there, and counts a torn record if any byte after it is non-zero (a producer died while
//!   writing). The second u32 is the [`record_checksum`] of the body, so the reader can tell a
//!   damaged record from a good one: a damaged record is skipped and counted
//!   ([`LossReason::Damaged`]), and reading resumes at the next intact record (a resync over
//!   8-byte boundaries that accepts only a frame whose checksum matches). `total_size` includes
//!   the frame and is a multiple of 8.
//! * Fixed-size records have one body size per kind ([`RecordKind`]); string records are
//!   `id u32, len u32, bytes, zero padding`. Other records refer to strings by capture-local id
//!   (0 = empty string).
//!
//! Unknown record kinds with a plausible size and a good checksum are skipped and counted as
//! damaged, so an older reader survives a newer writer's additions; incompatible changes bump
//! [`VERSION`].
//!
//! The reader ([`CaptureReader`]) streams: see its module for the two passes it makes.

use crate::health::{LossReason, RunHealth};
use crate::records::{
    Agent, AgentId, AgentType, ClockDomain, CodeObject, CodeObjectId, CodeObjectStorage, CorrelationId, Dim3,
    DispatchId, KernelDispatch, KernelId, KernelSymbol, ProcessId, Queue, QueueId, SessionMeta, StreamId, StringTable,
    ThreadId, Timestamp,
};

pub mod demangle;
mod reader;

pub use reader::*;

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
    /// `[u64; LossReason::IN_PROCESS]` loss counters, indexed by [`super::LossReason`]
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

/// Clock ids stored in the header. Values 0..=2 match [`ClockDomain::as_u8`]; 3 is
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
    /// [`ApiCallRecord`] followed by `nargs` argument words (variable length).
    ApiCall = 12,
    /// [`OperationNameRecord`].
    OperationName = 13,
    /// [`MemoryCopyRecord`].
    MemoryCopy = 14,
    /// [`MemoryAllocationRecord`].
    MemoryAllocation = 15,
    /// [`ScratchMemoryRecord`].
    ScratchMemory = 16,
    /// [`ClockSyncRecord`].
    ClockSync = 17,
    /// [`PcSampleRecord`].
    PcSample = 18,
    /// [`PcSampleDispatchRecord`].
    PcSampleDispatch = 19,
}

impl RecordKind {
    fn from_u16(v: u16) -> Option<Self> {
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

/// [`record_checksum`] of a body given as its little-endian 8-byte words (the same value as over
/// their bytes). For writers that hold the body in registers: reading back bytes just written with
/// narrower stores stalls the CPU (the stores cannot be forwarded to the wider loads), which cost a
/// traced call about 10 ns.
#[inline]
pub fn record_checksum_words(words: impl IntoIterator<Item = u64>) -> u32 {
    let mut it = words.into_iter();
    let (mut sum, mut step, mut len) = (0u64, 0u64, 0usize);
    while let Some(a) = it.next() {
        let b = it.next();
        sum = sum.wrapping_add(checksum_pair(a, b.unwrap_or(0), step));
        step = step.wrapping_add(CHECKSUM_STEP);
        len += if b.is_some() { 16 } else { 8 };
        if b.is_none() {
            break;
        }
    }
    checksum_finish(sum, len)
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
trait Field: Copy + Default {
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

fixed_record!(
    /// An agent with every property `agent_info.csv` prints. Written in the header's agent section.
    AgentRecord = Agent {
        /// `hsa_agent_t` handle, used by other records to refer to the agent.
        handle: u64,
        /// KFD node id (becomes [`AgentId`]).
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
        /// String id: the programmed events (`PmcEventSpec::list_to_text`).
        events: u32,
        /// Output buffer bytes per dispatch.
        output_size: u32,
        /// Output buffers in the pool.
        buffers: u32,
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
mod activity;
pub mod marker;
pub use activity::*;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{Record, RecordSource};
    use crate::Trace;
    use std::path::Path;

    const CHUNK: usize = 4096;

    /// A header with one GPU agent named `gfx942` (handle 0x100, node 1) built field by field.
    fn header_bytes(dropped: u64, flags: u32) -> Vec<u8> {
        let mut agents = Vec::new();
        push_string_record(&mut agents, 1, b"gfx942");
        push_record(
            &mut agents,
            &AgentRecord { handle: 0x100, node_id: 1, agent_type: 2, name: 1, ..Default::default() },
        );
        let mut h = encode_header(&HeaderInfo {
            pid: 4242,
            ppid: 1,
            clock: ClockId::Boottime as u32,
            start_ns: 1_000,
            chunk_size: CHUNK as u32,
            cmdline: b"./vector_add\x0016\x00".to_vec(),
            agents,
            table_major: 3,
            amd_ext_size: 608,
        });
        // Chunk pool empty is loss counter 0.
        h[header::LOSSES..header::LOSSES + 8].copy_from_slice(&dropped.to_le_bytes());
        h[header::FLAGS..header::FLAGS + 4].copy_from_slice(&flags.to_le_bytes());
        h
    }

    fn chunk(seq: u64, records: &[u8]) -> Vec<u8> {
        let mut c = vec![0u8; CHUNK];
        write_chunk_header(&mut c, seq, 77);
        c[CHUNK_HEADER_SIZE..CHUNK_HEADER_SIZE + records.len()].copy_from_slice(records);
        c
    }

    fn begin(id: u64) -> DispatchBeginRecord {
        DispatchBeginRecord {
            dispatch_id: id,
            correlation_id: id,
            kernel_id: 1,
            kernel_object: 0xdead_0000,
            agent_handle: 0x100,
            queue_id: 1,
            tid: 77,
            setup: 1,
            workgroup_x: 64,
            workgroup_y: 1,
            workgroup_z: 1,
            grid_x: 1024,
            grid_y: 1,
            grid_z: 1,
            ..Default::default()
        }
    }

    fn code_object_and_symbol() -> Vec<u8> {
        let mut r = Vec::new();
        push_string_record(&mut r, 2, b"file:///k.co");
        push_record(
            &mut r,
            &CodeObjectLoadRecord { code_object_id: 1, agent_handle: 0x100, storage: 2, uri: 2, ..Default::default() },
        );
        push_string_record(&mut r, 3, b"_Z10vector_addPKfS0_Pfi.kd");
        push_record(
            &mut r,
            &KernelSymbolRecord {
                kernel_id: 1,
                code_object_id: 1,
                kernel_object: 0xdead_0000,
                name: 3,
                kernarg_size: 28,
                // rsrc1: 3 VGPR granules, 2 SGPR granules; rsrc3: accum offset 1.
                pgm_rsrc1: 3 | (2 << 6),
                pgm_rsrc3: 1,
                descriptor_valid: 1,
                ..Default::default()
            },
        );
        r
    }

    #[test]
    fn fixed_record_layout_is_packed_little_endian() {
        let e = DispatchEndRecord { dispatch_id: 0x0102, start_ns: 3, end_ns: 4, status: 1 };
        let mut out = [0xAAu8; 40];
        let n = encode_record(&e, &mut out);
        assert_eq!(DispatchEndRecord::BODY_SIZE, 28);
        assert_eq!(n, 40);
        assert_eq!(&out[0..4], &[8, 0, 40, 0]);
        assert_eq!(&out[4..8], &record_checksum(&out[8..40]).to_le_bytes(), "the frame's second word is the checksum");
        assert_eq!(&out[8..16], &[2, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(out[16], 3);
        assert_eq!(out[24], 4);
        assert_eq!(&out[32..36], &[1, 0, 0, 0]);
        assert_eq!(&out[36..40], &[0, 0, 0, 0], "padding is zeroed");
        assert_eq!(DispatchEndRecord::read_body(&out[8..]), e);
    }

    #[test]
    fn round_trip_resolves_names_agents_and_timestamps() {
        let mut recs = code_object_and_symbol();
        push_record(&mut recs, &begin(1));
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 500, end_ns: 900, status: DISPATCH_OK });
        let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
        file.extend(chunk(1, &recs));
        let cap = parse_capture(&file).unwrap();
        let t = &cap.trace;
        assert!(cap.clean_exit);
        assert_eq!(t.meta.pid, ProcessId(4242));
        assert_eq!(t.meta.command, ["./vector_add", "16"]);
        assert_eq!(t.agents.len(), 1);
        assert_eq!(t.strings.resolve(t.agents[0].name), "gfx942");
        assert_eq!(t.dispatches.len(), 1);
        let d = &t.dispatches[0];
        assert_eq!((d.start.ns, d.end.ns), (500, 900));
        assert_eq!(d.agent, AgentId(1));
        assert_eq!(d.grid, Dim3::new(1024, 1, 1));
        assert_eq!(d.kernarg_size, 28);
        // gfx942: arch = (1 + 1) * 4 = 8, accum = (3 + 1) * 8 - 8 = 24, sgpr = (2 / 2 + 1) * 16 = 32.
        assert_eq!((d.arch_vgpr_count, d.accum_vgpr_count, d.sgpr_count), (8, 24, 32));
        let k = &t.kernel_symbols[0];
        assert_eq!(t.strings.resolve(k.name), "_Z10vector_addPKfS0_Pfi.kd");
        assert_eq!(t.strings.resolve(k.formatted_name), "vector_add(float const*, float const*, float*, int)");
        assert_eq!(t.health.lost.total(), 0);
        // Header: a string and an agent; chunk: two strings, code object, symbol, begin, end.
        assert_eq!(t.health.records_written, 8);
        assert!(t.health.clean_exit && t.health.is_complete());
        assert_eq!(cap.incomplete_dispatches, 0);
    }

    #[test]
    fn torn_tail_is_counted_and_earlier_records_survive() {
        let mut recs = code_object_and_symbol();
        push_record(&mut recs, &begin(1));
        push_record(&mut recs, &begin(2));
        // A third record whose body was written but whose commit word never was.
        let mut torn = Vec::new();
        push_record(&mut torn, &begin(3));
        torn[0..4].fill(0);
        recs.extend(&torn);
        let mut file = header_bytes(5, 0);
        file.extend(chunk(1, &recs));
        let cap = parse_capture(&file).unwrap();
        assert!(!cap.clean_exit);
        assert_eq!(cap.trace.dispatches.len(), 2);
        assert_eq!(cap.trace.health.lost.get(LossReason::TornTail), 1);
        assert_eq!(cap.trace.health.lost.get(LossReason::ChunkPoolEmpty), 5);
        assert_eq!(cap.incomplete_dispatches, 2, "no completion records were written");
    }

    #[test]
    fn file_cut_in_the_middle_of_a_record_keeps_the_complete_ones() {
        let mut recs = code_object_and_symbol();
        push_record(&mut recs, &begin(1));
        push_record(&mut recs, &begin(2));
        let mut file = header_bytes(0, 0);
        let start = file.len();
        file.extend(chunk(1, &recs));
        file.truncate(start + CHUNK_HEADER_SIZE + recs.len() - 10);
        let cap = parse_capture(&file).unwrap();
        assert_eq!(cap.trace.dispatches.len(), 1);
        assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1, "the cut frame claims more bytes than exist");
    }

    #[test]
    fn chunks_are_read_in_claim_order_and_empty_chunks_are_skipped() {
        let mut a = Vec::new();
        push_record(&mut a, &begin(2));
        let mut b = code_object_and_symbol();
        push_record(&mut b, &begin(1));
        let mut file = header_bytes(0, 0);
        file.extend(chunk(2, &a));
        file.extend(vec![0u8; CHUNK]); // pre-extended, never claimed
        file.extend(chunk(1, &b));
        let cap = parse_capture(&file).unwrap();
        let ids: Vec<u64> = cap.trace.dispatches.iter().map(|d| d.dispatch_id.0).collect();
        assert_eq!(ids, [1, 2]);
        assert_eq!(cap.trace.health.lost.total(), 0);
        assert_eq!(cap.trace.kernel_symbols.len(), 1);
    }

    #[test]
    fn definitions_stream_before_events_even_from_later_chunks() {
        // Thread A's chunk (claimed first) holds the dispatch; thread B's chunk, claimed later,
        // holds the code object and kernel the dispatch runs. The stream still delivers the
        // symbol first and the dispatch gets the symbol's register counts.
        let mut a = Vec::new();
        push_record(&mut a, &begin(1));
        push_record(&mut a, &DispatchEndRecord { dispatch_id: 1, start_ns: 10, end_ns: 20, status: DISPATCH_OK });
        let b = code_object_and_symbol();
        let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
        file.extend(chunk(1, &a));
        file.extend(chunk(2, &b));
        let mut reader = CaptureReader::new(file.as_slice()).unwrap();
        let mut strings = StringTable::new();
        let mut kinds = Vec::new();
        let mut dispatch = None;
        while let Some(r) = reader.next_record(&mut strings).unwrap() {
            kinds.push(r.kind());
            if let Record::KernelDispatch(d) = r {
                dispatch = Some(d);
            }
        }
        assert_eq!(kinds, ["process", "agent", "code_object", "kernel_symbol", "kernel_dispatch", "run_health"]);
        let d = dispatch.unwrap();
        assert_eq!((d.arch_vgpr_count, d.accum_vgpr_count, d.sgpr_count, d.kernarg_size), (8, 24, 32, 28));
        assert_eq!(reader.info().events, 1);
        assert_eq!(reader.info().health.lost.total(), 0);
    }

    #[test]
    fn incomplete_dispatches_are_counted_and_left_out_of_the_stream() {
        let mut recs = code_object_and_symbol();
        for id in 1..=3 {
            push_record(&mut recs, &begin(id));
        }
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 2, start_ns: 10, end_ns: 20, status: DISPATCH_OK });
        // A completion whose dispatch record was dropped in the process.
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 9, start_ns: 30, end_ns: 40, status: DISPATCH_OK });
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        let mut reader = CaptureReader::new(file.as_slice()).unwrap();
        let t = Trace::collect(&mut reader).unwrap();
        assert_eq!(t.dispatches.iter().map(|d| d.dispatch_id.0).collect::<Vec<_>>(), [2]);
        assert_eq!(reader.info().incomplete_dispatches, 2);
        assert_eq!(reader.info().orphan_completions, 1);
        // parse_capture keeps them, with zero timestamps, for diagnostics.
        let cap = parse_capture(&file).unwrap();
        assert_eq!(cap.trace.dispatches.len(), 3);
        assert_eq!(cap.incomplete_dispatches, 2);
    }

    #[test]
    fn dispatches_lost_in_the_process_are_left_out_and_not_counted_as_incomplete() {
        let mut recs = code_object_and_symbol();
        for id in 1..=3 {
            push_record(&mut recs, &begin(id));
        }
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 10, end_ns: 20, status: DISPATCH_OK });
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 2, start_ns: 0, end_ns: 0, status: DISPATCH_LOST });
        // The end first, as when another thread's chunk holds the begin.
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 4, start_ns: 0, end_ns: 0, status: DISPATCH_LOST });
        push_record(&mut recs, &begin(4));
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        let mut reader = CaptureReader::new(file.as_slice()).unwrap();
        let t = Trace::collect(&mut reader).unwrap();
        assert_eq!(t.dispatches.iter().map(|d| d.dispatch_id.0).collect::<Vec<_>>(), [1]);
        assert_eq!(reader.info().incomplete_dispatches, 1, "only dispatch 3");
        assert_eq!(reader.info().orphan_completions, 0);
        let cap = parse_capture(&file).unwrap();
        assert_eq!(cap.trace.dispatches.len(), 4, "kept without times for diagnostics");
    }

    #[test]
    fn dispatches_completing_out_of_order_stream_in_dispatch_order() {
        let mut recs = code_object_and_symbol();
        for id in 1..=12u64 {
            push_record(&mut recs, &begin(id));
        }
        for id in (1..=12u64).rev() {
            push_record(&mut recs, &DispatchEndRecord { dispatch_id: id, start_ns: id, end_ns: id + 1, status: 0 });
        }
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        let t = Trace::collect(&mut CaptureReader::new(file.as_slice()).unwrap()).unwrap();
        let ids: Vec<u64> = t.dispatches.iter().map(|d| d.dispatch_id.0).collect();
        assert_eq!(ids, (1..=12).collect::<Vec<_>>());
    }

    #[test]
    fn unknown_kinds_are_skipped_and_counted() {
        let mut recs = Vec::new();
        recs.extend_from_slice(&[0x63, 0, 16, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
        push_record(&mut recs, &begin(1));
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        let cap = parse_capture(&file).unwrap();
        assert_eq!(cap.trace.dispatches.len(), 1);
        assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1);
    }

    /// Offset of the `n`-th record (0-based) in a sequence built by `push_record`.
    fn record_offset(recs: &[u8], n: usize) -> usize {
        let mut off = 0;
        for _ in 0..n {
            off += (u32::from_le_bytes(recs[off..off + 4].try_into().unwrap()) >> 16) as usize;
        }
        off
    }

    #[test]
    fn a_damaged_record_costs_only_itself_and_is_counted() {
        let mut recs = code_object_and_symbol();
        for id in 1..=5 {
            push_record(&mut recs, &begin(id));
        }
        let first_begin = record_offset(&recs, 4);
        let base = header_bytes(0, 0).len() + CHUNK_HEADER_SIZE;
        // 1. A flipped bit inside the body of dispatch 2: the checksum catches it.
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        file[base + record_offset(&recs, 5) + 20] ^= 0x10;
        let cap = parse_capture(&file).unwrap();
        let ids: Vec<u64> = cap.trace.dispatches.iter().map(|d| d.dispatch_id.0).collect();
        assert_eq!(ids, [1, 3, 4, 5]);
        assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1);
        // 2. A garbled size in the frame of dispatch 3: the reader resyncs at dispatch 4.
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        file[base + record_offset(&recs, 6) + 2] = 0x13;
        let cap = parse_capture(&file).unwrap();
        let ids: Vec<u64> = cap.trace.dispatches.iter().map(|d| d.dispatch_id.0).collect();
        assert_eq!(ids, [1, 2, 4, 5]);
        assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1);
        assert_eq!(cap.trace.kernel_symbols.len(), 1, "records before the damage are intact");
        // 3. A damaged chunk header: its records are still read (after the intact chunks).
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs[..first_begin]));
        let mut rest = Vec::new();
        push_record(&mut rest, &begin(9));
        let mut c = chunk(2, &rest);
        c[0] ^= 0xFF;
        file.extend(c);
        let cap = parse_capture(&file).unwrap();
        assert_eq!(cap.trace.dispatches.len(), 1);
        assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1, "the chunk header");
    }

    /// Re-seals every record of `recs` (a sequence of whole records) with `sum`.
    fn reseal(recs: &mut [u8], sum: fn(&[u8]) -> u32) {
        let mut off = 0;
        while off + FRAME_SIZE <= recs.len() {
            let size = (u32::from_le_bytes(recs[off..off + 4].try_into().unwrap()) >> 16) as usize;
            if size == 0 {
                break;
            }
            let s = sum(&recs[off + FRAME_SIZE..off + size]);
            recs[off + 4..off + 8].copy_from_slice(&s.to_le_bytes());
            off += size;
        }
    }

    #[test]
    fn version_2_captures_are_read_with_their_own_checksum() {
        let mut recs = code_object_and_symbol();
        for id in 1..=3 {
            push_record(&mut recs, &begin(id));
            push_record(&mut recs, &DispatchEndRecord { dispatch_id: id, start_ns: 10, end_ns: 20, status: 0 });
        }
        let v2 = |resealed: bool| {
            let mut h = header_bytes(0, 0);
            h[header::VERSION..header::VERSION + 4].copy_from_slice(&2u32.to_le_bytes());
            let mut recs = recs.clone();
            if resealed {
                let start = (HEADER_FIXED_SIZE + u32_le(&h, header::CMDLINE_LEN) as usize + 7) & !7;
                let len = u32_le(&h, header::AGENTS_LEN) as usize;
                reseal(&mut h[start..start + len], record_checksum_v2);
                reseal(&mut recs, record_checksum_v2);
            }
            h.extend(chunk(1, &recs));
            parse_capture(&h).unwrap()
        };
        let cap = v2(true);
        assert_eq!(cap.trace.dispatches.len(), 3);
        assert_eq!(cap.trace.agents.len(), 1);
        assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 0);
        // The same records under a version-2 header but sealed with this version's checksum: the
        // reader must check each version with its own function, so none of them is intact.
        let cap = v2(false);
        assert!(cap.trace.dispatches.is_empty() && cap.trace.agents.is_empty());
        assert!(cap.trace.health.lost.get(LossReason::Damaged) > 0);
    }

    #[test]
    fn the_checksum_of_words_equals_the_checksum_of_their_bytes() {
        for n in 0..20usize {
            let words: Vec<u64> = (0..n as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x55).collect();
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(record_checksum_words(words.iter().copied()), record_checksum(&bytes), "{n} words");
        }
    }

    fn u32_le(b: &[u8], off: usize) -> u32 {
        u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
    }

    #[test]
    fn the_checksum_catches_every_flipped_bit_and_every_swap_of_two_words() {
        // An API-call record's body with six argument words: 12 distinct 8-byte words.
        let mut body = [0u8; 96];
        for (i, b) in body.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37).wrapping_add(11);
        }
        let sum = record_checksum(&body);
        for bit in 0..body.len() * 8 {
            let mut d = body;
            d[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(record_checksum(&d), sum, "bit {bit} flipped");
        }
        for i in 0..12 {
            for j in i + 1..12 {
                let mut d = body;
                for k in 0..8 {
                    d.swap(8 * i + k, 8 * j + k);
                }
                assert_ne!(record_checksum(&d), sum, "words {i} and {j} swapped");
            }
        }
        // Zero words are covered too (a body of zeros is not its own checksum's blind spot).
        let zeros = [0u8; 96];
        let mut one = zeros;
        one[95] = 1;
        assert_ne!(record_checksum(&zeros), record_checksum(&one));
        assert_ne!(record_checksum(&zeros[..88]), record_checksum(&zeros), "the length counts");
    }

    #[test]
    fn hook_time_is_summed_over_chunks_and_losses_come_from_the_header() {
        let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
        file[header::END_NS..header::END_NS + 8].copy_from_slice(&1_001_000u64.to_le_bytes());
        let put = |f: &mut Vec<u8>, at: usize, v: u64| f[at..at + 8].copy_from_slice(&v.to_le_bytes());
        put(&mut file, header::LOSSES + 8 * LossReason::SignalPoolEmpty as usize, 3);
        put(&mut file, header::LOSSES + 8 * LossReason::KernelTableFull as usize, 2);
        // The header's last in-process slot (every one of the 16 now has a reason).
        put(&mut file, header::LOSSES + 8 * (LossReason::IN_PROCESS - 1), 7);
        for (seq, ns, packets) in [(1u64, 400u64, 4u64), (2, 600, 6)] {
            let mut c = chunk(seq, &[]);
            put(&mut c, chunk::HOOK_NS, ns);
            put(&mut c, chunk::HOOK_PACKETS, packets);
            file.extend(c);
        }
        let mut reader = CaptureReader::new(file.as_slice()).unwrap();
        let t = Trace::collect(&mut reader).unwrap();
        let h = t.health;
        assert_eq!(h, reader.info().health, "the streamed record is the reader's final count");
        assert_eq!((h.hook_ns, h.hook_packets, h.wall_ns), (1000, 10, 1_000_000));
        assert_eq!(h.overhead_fraction(), Some(0.001));
        assert_eq!(h.lost.get(LossReason::SignalPoolEmpty), 3);
        assert_eq!(h.lost.get(LossReason::KernelTableFull), 2);
        assert_eq!(h.lost.get(LossReason::PcSamplesLost), 7, "the last header slot is read");
        assert_eq!(h.lost.get(LossReason::Damaged), 0);
        assert_eq!(h.records_written, 2, "the header's string and agent");
    }

    #[test]
    fn stalls_are_summed_and_the_worst_thread_is_the_largest_per_thread_total() {
        let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
        let put = |f: &mut Vec<u8>, at: usize, v: u64| f[at..at + 8].copy_from_slice(&v.to_le_bytes());
        // Thread 5 waited 300 + 400 ns over two chunks, thread 6 once for 500 ns.
        for (seq, tid, ns, n, max) in [(1u64, 5u32, 300u64, 2u64, 200u64), (2, 6, 500, 1, 500), (3, 5, 400, 1, 400)] {
            let mut c = vec![0u8; CHUNK];
            write_chunk_header(&mut c, seq, tid);
            put(&mut c, chunk::STALL_NS, ns);
            put(&mut c, chunk::STALLS, n);
            put(&mut c, chunk::STALL_MAX_NS, max);
            file.extend(c);
        }
        let h = parse_capture(&file).unwrap().trace.health;
        assert_eq!((h.stall_ns, h.stalls, h.stall_max_ns), (1200, 4, 500));
        assert_eq!(h.stall_thread_max_ns, 700, "thread 5: 300 + 400");
    }

    #[test]
    fn bad_headers_are_typed_errors() {
        assert!(matches!(parse_capture(&[0u8; 10]), Err(Error::TruncatedHeader { len: 10 })));
        let mut h = header_bytes(0, 0);
        h[0] = b'X';
        assert!(matches!(parse_capture(&h), Err(Error::BadMagic)));
        let mut h = header_bytes(0, 0);
        h[header::VERSION] = 9;
        assert!(matches!(parse_capture(&h), Err(Error::UnsupportedVersion { found: 9 })));
        let mut h = header_bytes(0, 0);
        h[header::ENDIAN..header::ENDIAN + 4].copy_from_slice(&[1, 2, 3, 4]);
        assert!(matches!(parse_capture(&h), Err(Error::BadEndian { marker: 0x0403_0201 })));
        let mut h = header_bytes(0, 0);
        h[header::CHUNK_SIZE..header::CHUNK_SIZE + 4].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(parse_capture(&h), Err(Error::CorruptHeader { what: "chunk_size" })));
        assert!(matches!(read_capture(Path::new("/nonexistent/x.rpcap")), Err(Error::Io { .. })));
    }

    #[test]
    fn counter_groups_and_outputs_follow_their_dispatch() {
        let mut recs = code_object_and_symbol();
        push_string_record(&mut recs, 4, b"GRBM_COUNT SQ_WAVES");
        push_string_record(&mut recs, 5, b"3.0.2.0,6.0.4.0");
        push_record(
            &mut recs,
            &PmcGroupRecord {
                agent_handle: 0x100,
                gpu_index: 0,
                group: 0,
                counters: 4,
                events: 5,
                output_size: 24,
                buffers: 8,
            },
        );
        push_record(&mut recs, &begin(1));
        let payload: Vec<u8> = (0u8..24).collect();
        // The output in two pieces, the second first.
        let h = PmcOutputHeader { dispatch_id: 1, agent_handle: 0x100, total: 24, ..Default::default() };
        push_pmc_output(&mut recs, &PmcOutputHeader { offset: 16, len: 8, ..h }, &payload[16..]);
        push_pmc_output(&mut recs, &PmcOutputHeader { offset: 0, len: 16, ..h }, &payload[..16]);
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 5, end_ns: 9, status: 0 });
        // A dispatch whose counters were not read.
        push_record(&mut recs, &begin(2));
        push_pmc_output(&mut recs, &PmcOutputHeader { dispatch_id: 2, agent_handle: 0x100, status: 1, ..h }, &[]);
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 2, start_ns: 10, end_ns: 19, status: 0 });
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        let mut reader = CaptureReader::new(&file[..]).unwrap();
        let mut strings = StringTable::new();
        let mut kinds = Vec::new();
        let mut outputs = Vec::new();
        while let Some(r) = reader.next_record(&mut strings).unwrap() {
            kinds.push(r.kind());
            match r {
                Record::PmcGroup(g) => {
                    assert_eq!(g.counters, ["GRBM_COUNT", "SQ_WAVES"]);
                    assert_eq!(g.events.len(), 2);
                    assert_eq!((g.agent, g.output_size), (AgentId(1), 24));
                }
                Record::PmcOutput(o) => outputs.push(*o),
                _ => {}
            }
        }
        assert_eq!(
            kinds,
            [
                "process",
                "agent",
                "code_object",
                "kernel_symbol",
                "pmc_group",
                "kernel_dispatch",
                "pmc_output",
                "kernel_dispatch",
                "pmc_output",
                "run_health"
            ]
        );
        assert_eq!(outputs[0].bytes, payload);
        assert_eq!((outputs[1].status, outputs[1].bytes.len()), (crate::counters::PmcStatus::PoolExhausted, 0));
    }

    #[test]
    fn read_capture_stops_after_the_claimed_chunks() {
        let mut recs = code_object_and_symbol();
        push_record(&mut recs, &begin(1));
        let mut file = header_bytes(0, 0);
        file[header::CHUNKS_CLAIMED..header::CHUNKS_CLAIMED + 8].copy_from_slice(&1u64.to_le_bytes());
        file.extend(chunk(1, &recs));
        // A second chunk beyond the claimed count (garbage that must not be read).
        file.extend(vec![0xEEu8; CHUNK]);
        let path = std::env::temp_dir().join(format!("rocprof-model-claimed-{}.rpcap", std::process::id()));
        std::fs::write(&path, &file).unwrap();
        let cap = read_capture(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(cap.trace.dispatches.len(), 1);
        assert_eq!(cap.trace.health.lost.total(), 0, "the unclaimed tail was not read");
    }

    #[test]
    fn an_agent_recorded_again_under_a_new_handle_is_one_agent() {
        // A second hsa_init cycle re-records the GPU (node 1) with handle 0x200 in a chunk.
        let mut recs = Vec::new();
        push_string_record(&mut recs, 0x8010_0001, b"gfx942");
        push_record(
            &mut recs,
            &AgentRecord { handle: 0x200, node_id: 1, agent_type: 2, name: 0x8010_0001, ..Default::default() },
        );
        push_record(&mut recs, &DispatchBeginRecord { agent_handle: 0x200, ..begin(1) });
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        let cap = parse_capture(&file).unwrap();
        assert_eq!(cap.trace.agents.len(), 1);
        assert_eq!(cap.trace.dispatches[0].agent, AgentId(1));
    }

    #[test]
    fn corrupted_files_never_panic() {
        let mut recs = code_object_and_symbol();
        push_record(&mut recs, &begin(1));
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 5, end_ns: 9, status: 0 });
        let mut file = header_bytes(0, 0);
        file.extend(chunk(1, &recs));
        // Deterministic pseudo-random byte flips and cuts (a small LCG; no dependency needed).
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..2000 {
            let mut f = file.clone();
            for _ in 0..4 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let at = (x >> 33) as usize % f.len();
                f[at] = (x >> 17) as u8;
            }
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            if x & 1 == 0 {
                f.truncate((x >> 40) as usize % f.len());
            }
            let _ = parse_capture(&f);
        }
    }

    #[test]
    fn api_calls_and_memory_activity_round_trip_with_tick_conversion() {
        use crate::api::ApiDomain;
        use crate::memory::{MemoryAllocationOp, MemoryCopyDirection, ScratchMemoryOp};
        let mut recs = Vec::new();
        push_record(&mut recs, &ClockSyncRecord { tsc: 10_000, ns: 5_000 });
        push_record(&mut recs, &ClockSyncRecord { tsc: 20_000, ns: 10_000 });
        // hsa_agent_get_info(agent, attribute, value): core operation 6, times in ticks.
        let api = ApiCallRecord {
            correlation_id: 4,
            ancestor_id: 3,
            start: 12_000,
            end: 14_000,
            domain: ApiDomain::HsaCore.as_u16().into(),
            operation: 6,
            tid: 77,
            flags: TIME_TSC,
            ..Default::default()
        };
        push_api_call(&mut recs, &api, &[0x100, 17, 0xdead]);
        push_string_record(&mut recs, 9, b"hipMalloc");
        push_record(&mut recs, &OperationNameRecord { domain: 5, operation: 33, name: 9, reserved: 0 });
        let hip = ApiCallRecord { correlation_id: 5, start: 1, end: 2, domain: 5, operation: 33, ..Default::default() };
        push_api_call(&mut recs, &hip, &[]);
        push_record(
            &mut recs,
            &MemoryCopyRecord {
                correlation_id: 4,
                start_ns: 6_000,
                end_ns: 6_500,
                src_agent: 0x100,
                dst_agent: 0x100,
                bytes: 4096,
                direction: 4,
                ..Default::default()
            },
        );
        push_record(
            &mut recs,
            &MemoryAllocationRecord {
                correlation_id: 6,
                start: 15_000,
                end: 16_000,
                agent_handle: 0x100,
                address: 0x7000,
                size: 64,
                operation: 1,
                flags: TIME_TSC,
                ..Default::default()
            },
        );
        push_record(
            &mut recs,
            &ScratchMemoryRecord {
                correlation_id: 7,
                start: 100,
                end: 200,
                agent_handle: 0x100,
                queue_id: 1,
                size: 1 << 20,
                operation: 1,
                alloc_flags: 1,
                ..Default::default()
            },
        );
        let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
        file.extend(chunk(1, &recs));
        let cap = parse_capture(&file).unwrap();
        let t = &cap.trace;
        assert_eq!(t.health.lost.total(), 0);
        assert_eq!(t.api_calls.len(), 2);
        let a = &t.api_calls[0];
        assert_eq!(t.strings.resolve(a.name), "hsa_agent_get_info");
        assert_eq!((a.start.ns, a.end.ns), (6_000, 7_000), "ticks converted at 0.5 ns per tick");
        assert_eq!((a.correlation.internal.0, a.correlation.ancestor.0), (4, 3));
        assert_eq!(&*a.args, &[0x100, 17, 0xdead]);
        assert_eq!(a.thread, ThreadId(77));
        assert_eq!(t.strings.resolve(t.api_calls[1].name), "hipMalloc");
        assert_eq!(t.api_calls[1].domain, ApiDomain::HipRuntime);
        let c = &t.memory_copies[0];
        assert_eq!((c.direction, c.bytes, c.dst_agent), (MemoryCopyDirection::DeviceToDevice, 4096, AgentId(1)));
        assert_eq!(c.duration_ns(), 500);
        let m = &t.memory_allocations[0];
        assert_eq!((m.operation, m.agent, m.size), (MemoryAllocationOp::Allocate, Some(AgentId(1)), 64));
        assert_eq!((m.start.ns, m.end.ns), (7_500, 8_000));
        let s = &t.scratch_memory[0];
        assert_eq!((s.operation, s.flags, s.size, s.queue), (ScratchMemoryOp::Alloc, 1, 1 << 20, QueueId(1)));
        assert_eq!((s.start.ns, s.end.ns), (100, 200), "ns timestamps pass through");
    }

    #[test]
    fn register_counts_follow_rocprofiler_sdk() {
        // gfx1100, wave32: (5 + 1) * 8 VGPRs, no AGPRs, 128 SGPRs.
        assert_eq!(arch_vgpr_count("gfx1100", 5, 0, 1 << 10), 48);
        assert_eq!(accum_vgpr_count("gfx1100", 5, 0, 1 << 10), 0);
        assert_eq!(sgpr_count("gfx1100", 0x3C0), 128);
        // gfx908: AGPRs reported equal to the architected count.
        assert_eq!(arch_vgpr_count("gfx908", 2, 0, 0), 12);
        assert_eq!(accum_vgpr_count("gfx908", 2, 0, 0), 12);
        assert_eq!(sgpr_count("gfx908", 5 << 6), 48);
        assert_eq!(sgpr_count("", 5 << 6), 0);
        // gfx90a/gfx94x: ACCUM_OFFSET 3 in rsrc3 -> (3 + 1) * 4 = 16 architected VGPRs; the
        // unified file from rsrc1 granules is (5 + 1) * 8 = 48, so 32 AGPRs.
        for gfx in ["gfx90a", "gfx942"] {
            assert_eq!(arch_vgpr_count(gfx, 5, 3, 0), 16, "{gfx}");
            assert_eq!(accum_vgpr_count(gfx, 5, 3, 0), 32, "{gfx}");
        }
        // gfx950 is not in rocprofiler-sdk's gfx94 family test: plain granules of 4, no AGPRs.
        assert_eq!(arch_vgpr_count("gfx950", 5, 3, 0), 24);
        assert_eq!(accum_vgpr_count("gfx950", 5, 3, 0), 0);
    }
}

// After `fixed_record!`, which it uses.
pub mod pcsamp;
