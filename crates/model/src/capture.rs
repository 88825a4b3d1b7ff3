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
//!   marker, pid/ppid, the clock domain and a few counters the profiled process keeps updated
//!   *inside the mapping* (dropped records, end time, a clean-exit flag), so they survive a crash.
//! * The agent section is a sequence of ordinary records (strings and agents), written once when
//!   the tool loads.
//! * Every chunk belongs to one producer thread, which appends records to it in order. A chunk
//!   starts with a [`CHUNK_HEADER_SIZE`]-byte header (magic, claim sequence, thread id).
//! * A record is an 8-byte frame followed by its body. The first u32 of the frame is the *commit
//!   word* `kind | total_size << 16`; it is stored last, with release ordering, after the body.
//!   A zero commit word therefore means "never committed": the reader stops reading that chunk
//!   there, and counts a torn record if any byte after it is non-zero (a producer died while
//!   writing). The second u32 is reserved (0). `total_size` includes the frame and is a multiple
//!   of 8.
//! * Fixed-size records have one body size per kind ([`RecordKind`]); string records are
//!   `id u32, len u32, bytes, zero padding`. Other records refer to strings by capture-local id
//!   (0 = empty string).
//!
//! Unknown record kinds with a plausible size are skipped and counted as undecodable, so an older
//! reader survives a newer writer's additions; incompatible changes bump [`VERSION`].

use std::collections::HashMap;
use std::path::Path;

use crate::records::{
    Agent, AgentId, AgentType, ClockDomain, CodeObject, CodeObjectId, CodeObjectStorage, CorrelationId, Dim3,
    DispatchId, DroppedRecords, KernelDispatch, KernelId, KernelSymbol, ProcessId, Queue, QueueId, SessionMeta,
    StreamId, ThreadId, Timestamp, Trace,
};

pub mod demangle;

/// First eight bytes of every capture file.
pub const MAGIC: [u8; 8] = *b"RPRSCAP\0";
/// Format version written by this build. Readers reject other versions.
pub const VERSION: u32 = 1;
/// Written as a little-endian u32; a reader sees `04 03 02 01` in a file from a little-endian writer.
pub const ENDIAN_MARKER: u32 = 0x0102_0304;
/// Size of the fixed part of the file header; the command line starts here.
pub const HEADER_FIXED_SIZE: usize = 128;
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
    /// u64 records dropped inside the process, updated in place.
    pub const DROPPED: usize = 56;
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
    }
);

/// [`DispatchEndRecord::status`]: timestamps are valid.
pub const DISPATCH_OK: u32 = 0;
/// [`DispatchEndRecord::status`]: the runtime could not report timestamps.
pub const DISPATCH_NO_TIME: u32 = 1;

fixed_record!(
    /// The completion of a kernel dispatch with its GPU start/end in the capture's clock domain.
    DispatchEndRecord = DispatchEnd {
        /// Dispatch id.
        dispatch_id: u64,
        /// GPU start, ns.
        start_ns: u64,
        /// GPU end, ns.
        end_ns: u64,
        /// [`DISPATCH_OK`] or [`DISPATCH_NO_TIME`].
        status: u32,
    }
);

/// Encodes a whole fixed record (frame + body, commit word included) into `out`, which must be
/// at least `R::TOTAL_SIZE` bytes. For writers that do not need the two-step commit (the header's
/// agent section, tests).
pub fn encode_record<R: FixedRecord>(rec: &R, out: &mut [u8]) -> usize {
    out[..R::TOTAL_SIZE].fill(0);
    rec.write_body(&mut out[FRAME_SIZE..]);
    out[0..4].copy_from_slice(&R::HEADER_WORD.to_le_bytes());
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
    rec[0..4].copy_from_slice(&record_header_word(RecordKind::String, total).to_le_bytes());
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
    chunk[0..4].copy_from_slice(&CHUNK_MAGIC.to_le_bytes());
    chunk[8..16].copy_from_slice(&seq.to_le_bytes());
    chunk[16..20].copy_from_slice(&tid.to_le_bytes());
}

// ------------------------------------------------------------------------------------------------
// Reader
// ------------------------------------------------------------------------------------------------

/// Errors of [`read_capture`] and [`parse_capture`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read.
    #[error("reading capture {path}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Shorter than a file header.
    #[error("capture is truncated inside its header ({len} bytes)")]
    TruncatedHeader {
        /// Bytes available.
        len: usize,
    },
    /// Not a capture file.
    #[error("not a rocprof-rs capture (bad magic)")]
    BadMagic,
    /// Written by a big-endian or otherwise foreign writer.
    #[error("capture has an unsupported byte order marker {marker:#010x}")]
    BadEndian {
        /// The marker found.
        marker: u32,
    },
    /// A format version this reader does not know.
    #[error("capture format version {found} is not supported (this build reads version {VERSION})")]
    UnsupportedVersion {
        /// The version found.
        found: u32,
    },
    /// Inconsistent header sizes.
    #[error("capture header is corrupt: {what}")]
    CorruptHeader {
        /// Which field.
        what: &'static str,
    },
}

/// Result alias of this module.
pub type Result<T> = std::result::Result<T, Error>;

/// A decoded capture: the process's records as a [`Trace`], plus facts about the capture itself.
#[derive(Debug, Clone, Default)]
pub struct Capture {
    /// The records, ready for the writers; `trace.dropped_records` has the loss counts.
    pub trace: Trace,
    /// True when the process flushed at exit (false after a crash or kill).
    pub clean_exit: bool,
    /// Dispatches whose completion was never recorded (the process died first); they are kept in
    /// the trace with `start == end == 0`.
    pub incomplete_dispatches: u64,
    /// Completions whose dispatch record is missing (dropped in the process).
    pub orphan_completions: u64,
    /// The clock the profiled process used (the trace's [`ClockDomain`] cannot name
    /// `CLOCK_MONOTONIC_RAW`, so it is kept here as well).
    pub clock: Option<ClockId>,
    /// Root API table major the tool saw.
    pub table_major: u32,
    /// AmdExt table size the tool saw.
    pub amd_ext_size: u32,
}

/// Reads and decodes one capture file. Only the chunks the header says were claimed are read:
/// the writer extends the file ahead of use, and that (sparse) tail holds nothing.
pub fn read_capture(path: &Path) -> Result<Capture> {
    use std::io::Read;
    let io = |source| Error::Io { path: path.display().to_string(), source };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.by_ref().take(HEADER_FIXED_SIZE as u64).read_to_end(&mut bytes).map_err(io)?;
    let mut limit = u64::MAX;
    if bytes.len() == HEADER_FIXED_SIZE && bytes[..8] == MAGIC {
        let claimed = u64_at(&bytes, header::CHUNKS_CLAIMED);
        let header_size = u64::from(u32_at(&bytes, header::HEADER_SIZE));
        let chunk_size = u64::from(u32_at(&bytes, header::CHUNK_SIZE));
        if claimed > 0 {
            limit =
                claimed.saturating_mul(chunk_size).saturating_add(header_size).saturating_sub(HEADER_FIXED_SIZE as u64);
        }
    }
    file.take(limit).read_to_end(&mut bytes).map_err(io)?;
    parse_capture(&bytes)
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    <u32 as Field>::get(&b[off..])
}

fn u64_at(b: &[u8], off: usize) -> u64 {
    <u64 as Field>::get(&b[off..])
}

/// Raw records collected from a capture before they are turned into a [`Trace`].
#[derive(Default)]
struct Raw {
    strings: HashMap<u32, String>,
    agents: Vec<AgentRecord>,
    queues: Vec<QueueRecord>,
    code_objects: Vec<CodeObjectLoadRecord>,
    symbols: Vec<KernelSymbolRecord>,
    begins: Vec<DispatchBeginRecord>,
    ends: Vec<DispatchEndRecord>,
    dropped: DroppedRecords,
}

/// How a record sequence ended.
enum SeqEnd {
    /// Every byte was consumed, or the rest is zero.
    Clean,
    /// A record was being written when the producer died.
    Torn,
    /// A record frame made no sense; the rest of the sequence cannot be trusted.
    Corrupt,
}

impl Raw {
    /// Decodes records from `b` until the first uncommitted frame.
    fn scan(&mut self, b: &[u8]) -> SeqEnd {
        let mut off = 0usize;
        while off + FRAME_SIZE <= b.len() {
            let word = u32_at(b, off);
            if word == 0 {
                return if b[off..].iter().all(|&x| x == 0) { SeqEnd::Clean } else { SeqEnd::Torn };
            }
            let kind = (word & 0xFFFF) as u16;
            let size = (word >> 16) as usize;
            if size < FRAME_SIZE || size & 7 != 0 || off + size > b.len() {
                return SeqEnd::Corrupt;
            }
            let body = &b[off + FRAME_SIZE..off + size];
            if !self.decode(kind, body) {
                self.dropped.undecodable += 1;
            }
            off += size;
        }
        if b[off..].iter().all(|&x| x == 0) {
            SeqEnd::Clean
        } else {
            SeqEnd::Torn
        }
    }

    /// Decodes one record body; false when the kind is unknown or the body too short.
    fn decode(&mut self, kind: u16, body: &[u8]) -> bool {
        fn fixed<R: FixedRecord>(body: &[u8], out: &mut Vec<R>) -> bool {
            if body.len() < R::BODY_SIZE {
                return false;
            }
            out.push(R::read_body(body));
            true
        }
        match RecordKind::from_u16(kind) {
            Some(RecordKind::String) => {
                if body.len() < 8 {
                    return false;
                }
                let id = u32_at(body, 0);
                let len = u32_at(body, 4) as usize;
                let Some(bytes) = body.get(8..8 + len) else {
                    return false;
                };
                self.strings.insert(id, String::from_utf8_lossy(bytes).into_owned());
                true
            }
            Some(RecordKind::Agent) => fixed(body, &mut self.agents),
            Some(RecordKind::Queue) => fixed(body, &mut self.queues),
            Some(RecordKind::CodeObjectLoad) => fixed(body, &mut self.code_objects),
            Some(RecordKind::CodeObjectUnload) => body.len() >= CodeObjectUnloadRecord::BODY_SIZE,
            Some(RecordKind::KernelSymbol) => fixed(body, &mut self.symbols),
            Some(RecordKind::DispatchBegin) => fixed(body, &mut self.begins),
            Some(RecordKind::DispatchEnd) => fixed(body, &mut self.ends),
            Some(RecordKind::Padding) => true,
            None => false,
        }
    }

    fn count_end(&mut self, end: SeqEnd) {
        match end {
            SeqEnd::Clean => {}
            SeqEnd::Torn => self.dropped.torn_tail += 1,
            SeqEnd::Corrupt => self.dropped.undecodable += 1,
        }
    }
}

/// Decodes a capture held in memory. A file cut anywhere after its header decodes to the records
/// that were complete; torn or garbled records are counted in `trace.dropped_records`.
pub fn parse_capture(b: &[u8]) -> Result<Capture> {
    if b.len() < HEADER_FIXED_SIZE {
        return Err(Error::TruncatedHeader { len: b.len() });
    }
    if b[..8] != MAGIC {
        return Err(Error::BadMagic);
    }
    let marker = u32_at(b, header::ENDIAN);
    if marker != ENDIAN_MARKER {
        return Err(Error::BadEndian { marker });
    }
    let version = u32_at(b, header::VERSION);
    if version != VERSION {
        return Err(Error::UnsupportedVersion { found: version });
    }
    let header_size = u32_at(b, header::HEADER_SIZE) as usize;
    let chunk_size = u32_at(b, header::CHUNK_SIZE) as usize;
    let cmd_len = u32_at(b, header::CMDLINE_LEN) as usize;
    let agents_len = u32_at(b, header::AGENTS_LEN) as usize;
    let agents_start = (HEADER_FIXED_SIZE + cmd_len + 7) & !7;
    if header_size < agents_start + agents_len || header_size & (HEADER_ALIGN - 1) != 0 {
        return Err(Error::CorruptHeader { what: "header_size" });
    }
    if chunk_size < CHUNK_HEADER_SIZE + FRAME_SIZE || chunk_size & 7 != 0 {
        return Err(Error::CorruptHeader { what: "chunk_size" });
    }
    if b.len() < agents_start + agents_len {
        return Err(Error::TruncatedHeader { len: b.len() });
    }

    let mut raw = Raw::default();
    raw.dropped.in_process = u64_at(b, header::DROPPED);
    let end = raw.scan(&b[agents_start..agents_start + agents_len]);
    raw.count_end(end);

    // Chunks in claim order. An unclaimed chunk (pre-extended but never used) is all zero.
    let mut chunks: Vec<(u64, &[u8])> = Vec::new();
    let mut off = header_size;
    while off < b.len() {
        let chunk = &b[off..b.len().min(off + chunk_size)];
        off += chunk_size;
        if chunk.len() < CHUNK_HEADER_SIZE || u32_at(chunk, 0) != CHUNK_MAGIC {
            if chunk.iter().any(|&x| x != 0) {
                raw.dropped.undecodable += 1;
            }
            continue;
        }
        chunks.push((u64_at(chunk, 8), &chunk[CHUNK_HEADER_SIZE..]));
    }
    chunks.sort_by_key(|c| c.0);
    for (_, body) in chunks {
        let end = raw.scan(body);
        raw.count_end(end);
    }

    let clock = match u32_at(b, header::CLOCK) {
        0 => Some(ClockId::Boottime),
        1 => Some(ClockId::Monotonic),
        2 => Some(ClockId::Realtime),
        3 => Some(ClockId::MonotonicRaw),
        _ => None,
    };
    let domain = match clock {
        Some(ClockId::Monotonic) | Some(ClockId::MonotonicRaw) => ClockDomain::Monotonic,
        Some(ClockId::Realtime) => ClockDomain::Realtime,
        _ => ClockDomain::Boottime,
    };
    let flags = u32_at(b, header::FLAGS);
    let command = b[HEADER_FIXED_SIZE..HEADER_FIXED_SIZE + cmd_len]
        .split(|&c| c == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let meta = SessionMeta {
        pid: ProcessId(u32_at(b, header::PID)),
        ppid: ProcessId(u32_at(b, header::PPID)),
        command,
        start: Timestamp { ns: u64_at(b, header::START_NS), domain },
        end: Timestamp { ns: u64_at(b, header::END_NS), domain },
    };
    let mut cap = Capture {
        clean_exit: flags & FLAG_CLEAN_EXIT != 0,
        clock,
        table_major: u32_at(b, header::TABLE_MAJOR),
        amd_ext_size: u32_at(b, header::AMD_EXT_SIZE),
        ..Capture::default()
    };
    build_trace(raw, meta, domain, &mut cap);
    Ok(cap)
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

fn build_trace(raw: Raw, meta: SessionMeta, domain: ClockDomain, cap: &mut Capture) {
    let mut t = Trace { meta, clock: domain, dropped_records: raw.dropped, ..Trace::default() };
    let ts = |ns: u64| Timestamp { ns, domain };
    let string = |id: u32| raw.strings.get(&id).map(String::as_str).unwrap_or("");

    // Agents: id = node id; remember handle -> (id, name) for the other records.
    let mut agent_by_handle: HashMap<u64, (AgentId, String)> = HashMap::new();
    for a in &raw.agents {
        let id = AgentId(a.node_id);
        let name = string(a.name).to_owned();
        agent_by_handle.insert(a.handle, (id, name.clone()));
        if t.agents.iter().any(|x| x.id == id) {
            // The same agent again under a new handle (the runtime was initialised again).
            continue;
        }
        let agent = Agent {
            id,
            handle: a.handle,
            node_id: a.node_id,
            logical_node_id: a.logical_node_id,
            logical_node_type_id: a.logical_node_type_id,
            agent_type: match a.agent_type {
                1 => AgentType::Cpu,
                2 => AgentType::Gpu,
                _ => AgentType::default(),
            },
            cpu_cores_count: a.cpu_cores_count,
            simd_count: a.simd_count,
            cpu_core_id_base: a.cpu_core_id_base,
            simd_id_base: a.simd_id_base,
            max_waves_per_simd: a.max_waves_per_simd,
            lds_size_in_kb: a.lds_size_in_kb,
            gds_size_in_kb: a.gds_size_in_kb,
            num_gws: a.num_gws,
            wave_front_size: a.wave_front_size,
            num_xcc: a.num_xcc,
            cu_count: a.cu_count,
            array_count: a.array_count,
            num_shader_banks: a.num_shader_banks,
            simd_arrays_per_engine: a.simd_arrays_per_engine,
            cu_per_simd_array: a.cu_per_simd_array,
            simd_per_cu: a.simd_per_cu,
            max_slots_scratch_cu: a.max_slots_scratch_cu,
            gfx_target_version: a.gfx_target_version,
            vendor_id: a.vendor_id,
            device_id: a.device_id,
            location_id: a.location_id,
            domain: a.domain,
            drm_render_minor: a.drm_render_minor,
            num_sdma_engines: a.num_sdma_engines,
            num_sdma_xgmi_engines: a.num_sdma_xgmi_engines,
            num_sdma_queues_per_engine: a.num_sdma_queues_per_engine,
            num_cp_queues: a.num_cp_queues,
            max_engine_clk_ccompute: a.max_engine_clk_ccompute,
            max_engine_clk_fcompute: a.max_engine_clk_fcompute,
            sdma_fw_version: a.sdma_fw_version,
            fw_version: a.fw_version,
            capability: a.capability,
            cu_per_engine: a.cu_per_engine,
            max_waves_per_cu: a.max_waves_per_cu,
            family_id: a.family_id,
            workgroup_max_size: a.workgroup_max_size,
            grid_max_size: a.grid_max_size,
            local_mem_size: a.local_mem_size,
            hive_id: a.hive_id,
            gpu_id: a.gpu_id,
            workgroup_max_dim: Dim3::new(a.workgroup_max_dim_x, a.workgroup_max_dim_y, a.workgroup_max_dim_z),
            grid_max_dim: Dim3::new(a.grid_max_dim_x, a.grid_max_dim_y, a.grid_max_dim_z),
            name: t.strings.intern(&name),
            vendor_name: t.strings.intern(string(a.vendor_name)),
            product_name: t.strings.intern(string(a.product_name)),
            model_name: t.strings.intern(string(a.model_name)),
        };
        t.agents.push(agent);
    }
    t.agents.sort_by_key(|a| a.node_id);
    let agent_id = |h: u64| agent_by_handle.get(&h).map(|a| a.0).unwrap_or_default();

    for q in &raw.queues {
        t.queues.push(Queue {
            id: QueueId(q.queue_id),
            agent: agent_id(q.agent_handle),
            handle: q.hsa_queue_id,
            size: q.size,
            thread: ThreadId(q.tid),
            created: ts(q.created_ns),
        });
    }

    let mut co_agent: HashMap<u64, u64> = HashMap::new();
    for c in &raw.code_objects {
        co_agent.insert(c.code_object_id, c.agent_handle);
        t.code_objects.push(CodeObject {
            id: CodeObjectId(c.code_object_id),
            agent: agent_id(c.agent_handle),
            uri: t.strings.intern(string(c.uri)),
            load_base: c.load_base,
            load_size: c.load_size,
            load_delta: c.load_delta,
            storage: match c.storage {
                1 => CodeObjectStorage::File,
                2 => CodeObjectStorage::Memory,
                _ => CodeObjectStorage::None,
            },
            memory_base: c.memory_base,
            memory_size: c.memory_size,
            loaded: ts(c.loaded_ns),
        });
    }

    let mut sym_by_id: HashMap<u64, KernelSymbol> = HashMap::new();
    for s in &raw.symbols {
        let gfx =
            co_agent.get(&s.code_object_id).and_then(|h| agent_by_handle.get(h)).map(|a| a.1.as_str()).unwrap_or("");
        let (sgpr, arch, accum) = if s.descriptor_valid != 0 {
            (
                sgpr_count(gfx, s.pgm_rsrc1),
                arch_vgpr_count(gfx, s.pgm_rsrc1, s.pgm_rsrc3, s.code_properties),
                accum_vgpr_count(gfx, s.pgm_rsrc1, s.pgm_rsrc3, s.code_properties),
            )
        } else {
            (0, 0, 0)
        };
        let raw_name = string(s.name);
        let demangled = demangle::demangle(raw_name.strip_suffix(".kd").unwrap_or(raw_name));
        let sym = KernelSymbol {
            id: KernelId(s.kernel_id),
            code_object: CodeObjectId(s.code_object_id),
            kernel_object: s.kernel_object,
            kernarg_segment_size: s.kernarg_size,
            kernarg_segment_alignment: s.kernarg_alignment,
            group_segment_size: s.group_segment_size,
            private_segment_size: s.private_segment_size,
            sgpr_count: sgpr,
            arch_vgpr_count: arch,
            accum_vgpr_count: accum,
            kernel_code_entry_byte_offset: s.entry_byte_offset,
            kernel_address: s.kernel_object.wrapping_add(s.entry_byte_offset as u64),
            ..KernelSymbol::default()
        };
        let demangled = match demangled {
            Some(d) if raw_name.ends_with(".kd") => format!("{d}.kd"),
            Some(d) => d,
            None => raw_name.to_owned(),
        };
        let stored = t.push_kernel_symbol(sym, raw_name, &demangled).clone();
        sym_by_id.insert(s.kernel_id, stored);
    }

    let mut ends: HashMap<u64, DispatchEndRecord> = HashMap::with_capacity(raw.ends.len());
    for e in &raw.ends {
        ends.insert(e.dispatch_id, *e);
    }
    let mut begins = raw.begins;
    begins.sort_by_key(|d| d.dispatch_id);
    for d in &begins {
        let sym = sym_by_id.get(&d.kernel_id);
        let (start, end) = match ends.remove(&d.dispatch_id) {
            Some(e) if e.status == DISPATCH_OK => (e.start_ns, e.end_ns),
            Some(_) => (0, 0),
            None => {
                cap.incomplete_dispatches += 1;
                (0, 0)
            }
        };
        t.dispatches.push(KernelDispatch {
            dispatch_id: DispatchId(d.dispatch_id),
            correlation_id: CorrelationId(d.correlation_id),
            agent: agent_id(d.agent_handle),
            queue: QueueId(d.queue_id),
            stream: StreamId(0),
            thread: ThreadId(d.tid),
            kernel: KernelId(d.kernel_id),
            grid: Dim3::new(d.grid_x, d.grid_y, d.grid_z),
            workgroup: Dim3::new(d.workgroup_x, d.workgroup_y, d.workgroup_z),
            group_segment_size: d.group_segment_size,
            private_segment_size: d.private_segment_size,
            kernarg_size: sym.map(|s| s.kernarg_segment_size).unwrap_or(0),
            arch_vgpr_count: sym.map(|s| s.arch_vgpr_count).unwrap_or(0),
            accum_vgpr_count: sym.map(|s| s.accum_vgpr_count).unwrap_or(0),
            sgpr_count: sym.map(|s| s.sgpr_count).unwrap_or(0),
            start: ts(start),
            end: ts(end),
        });
    }
    cap.orphan_completions = ends.len() as u64;
    cap.trace = t;
}

#[cfg(test)]
mod tests {
    use super::*;

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
        h[header::DROPPED..header::DROPPED + 8].copy_from_slice(&dropped.to_le_bytes());
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
        assert_eq!(&out[4..8], &[0, 0, 0, 0]);
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
        assert_eq!(t.dropped_records.total(), 0);
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
        assert_eq!(cap.trace.dropped_records.torn_tail, 1);
        assert_eq!(cap.trace.dropped_records.in_process, 5);
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
        assert_eq!(cap.trace.dropped_records.undecodable, 1, "the cut frame claims more bytes than exist");
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
        assert_eq!(cap.trace.dropped_records.total(), 0);
        assert_eq!(cap.trace.kernel_symbols.len(), 1);
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
        assert_eq!(cap.trace.dropped_records.undecodable, 1);
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
        assert_eq!(cap.trace.dropped_records.total(), 0, "the unclaimed tail was not read");
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
