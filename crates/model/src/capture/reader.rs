//! The capture reader: a [`RecordSource`] over a capture file that holds one chunk in memory at
//! a time, so a capture of any size converts in bounded memory.
//!
//! Two passes over the chunks (in claim order), because a record may be written by one thread
//! before the record it refers to is written by another into a chunk claimed later (a dispatch on
//! a queue whose creating thread's chunk comes after it, a kernel loaded by another thread):
//!
//! 1. *definitions*: strings, agents, queues, code objects and kernel symbols are collected (they
//!    are few) and delivered first, after the [`Record::Process`] record;
//! 2. *events*: dispatch begin and end records are paired by dispatch id and delivered as
//!    [`KernelDispatch`]es. A small reorder window delivers them in dispatch-id order whenever
//!    they complete within [`REORDER_WINDOW`] dispatches of each other (always, in practice).
//!
//! Losses are counted, never silent: the profiled process's counters, torn and damaged records in
//! [`CaptureInfo::health`] (delivered last as [`Record::RunHealth`]), dispatches that never completed and completions without their
//! dispatch in [`CaptureInfo::incomplete_dispatches`] / [`CaptureInfo::orphan_completions`]
//! (final once the stream ended).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;

use super::activity::*;
use super::format::*;
use super::host_function::HostFunctionRecord;
use super::{activity, demangle};
use crate::counters::{PmcOutput, PmcStatus};
use crate::health::{LossReason, RunHealth};
use crate::records::StringId;
use crate::records::{
    Agent, AgentId, AgentType, ClockDomain, CodeObject, CodeObjectId, CodeObjectStorage, CorrelationId, Dim3,
    DispatchId, KernelDispatch, KernelId, KernelSymbol, ProcessId, Queue, QueueId, SessionMeta, StreamId, StringTable,
    ThreadId, Timestamp,
};
use crate::stream::{Record, RecordSource, SourceError};
use crate::trace::Trace;

fn u32_at(b: &[u8], off: usize) -> u32 {
    <u32 as Field>::get(&b[off..])
}

fn u64_at(b: &[u8], off: usize) -> u64 {
    <u64 as Field>::get(&b[off..])
}

/// Dispatches completed out of order by up to this many are still delivered in dispatch-id order.
pub const REORDER_WINDOW: usize = 1 << 16;

/// Chunks larger than this are a corrupt header, not a real capture (the interception library
/// uses 256 KiB).
const MAX_CHUNK_SIZE: usize = 1 << 30;

/// Errors of opening a capture.
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
    #[error("capture format version {found} is not supported (this build reads versions 2 to {VERSION})")]
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

/// Bytes the reader can fetch by offset: a file (read with `pread`) or a buffer in memory.
pub trait ReadAt {
    /// Total length in bytes.
    fn len(&self) -> u64;
    /// True when empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Fills `buf` from `offset`; the caller never reads past [`ReadAt::len`].
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
}

impl ReadAt for [u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let start = offset as usize;
        buf.copy_from_slice(&self[start..start + buf.len()]);
        Ok(())
    }
}

impl ReadAt for &[u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        (**self).read_at(buf, offset)
    }
}

/// A capture file, limited to the part the header says was claimed.
#[derive(Debug)]
pub struct CaptureFile {
    file: std::fs::File,
    len: u64,
    path: std::path::PathBuf,
}

impl ReadAt for CaptureFile {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
    }
}

/// Facts about a capture: from its header, and loss counts that are final once the stream ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaptureInfo {
    /// Process facts.
    pub meta: SessionMeta,
    /// True when the process flushed at exit (false after a crash or kill).
    pub clean_exit: bool,
    /// The clock the profiled process used (the trace's [`ClockDomain`] cannot name
    /// `CLOCK_MONOTONIC_RAW`, so it is kept here as well).
    pub clock: Option<ClockId>,
    /// Root API table major the tool saw.
    pub table_major: u32,
    /// AmdExt table size the tool saw.
    pub amd_ext_size: u32,
    /// The run's health: records written, lost by reason, hook time (final once the stream
    /// ended, when it is also delivered as the section's last record).
    pub health: RunHealth,
    /// Dispatches whose completion was never recorded (the process died first).
    pub incomplete_dispatches: u64,
    /// Completions whose dispatch record is missing (dropped in the process).
    pub orphan_completions: u64,
    /// Event records delivered so far.
    pub events: u64,
}

/// What to do with dispatches that never completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Incomplete {
    /// Count them, deliver nothing (outputs hold only complete dispatches).
    #[default]
    Drop,
    /// Count them and deliver them at the end with `start == end == 0` (tests, diagnostics).
    Keep,
}

/// Where the reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Process,
    Definitions,
    Events,
    Drain,
    Done,
}

/// A chunk: file offset, length, claim sequence (`u64::MAX` for a chunk whose header is damaged:
/// its records, which carry their own checksums, are read after the others).
#[derive(Debug, Clone, Copy)]
struct ChunkRef {
    offset: u64,
    len: usize,
    seq: u64,
}

/// What one walk over a record sequence found.
#[derive(Debug, Clone, Copy, Default)]
struct Walked {
    /// Intact records the callback decoded (padding excluded).
    records: u64,
    /// Damaged stretches skipped (bad frame or checksum, or a kind/body the callback rejected).
    damaged: u64,
    /// The sequence ends with a record a producer was writing when it died.
    torn: bool,
}

impl Walked {
    fn count_into(&self, h: &mut RunHealth) {
        h.records_written += self.records;
        h.lost.add(LossReason::Damaged, self.damaged);
        h.lost.add(LossReason::TornTail, u64::from(self.torn));
    }
}

/// Whether a body of `body` bytes is possible for record kind `kind` (exact sizes for the fixed
/// kinds this reader knows; kinds it does not know are only checked for plausibility).
fn body_size_is_plausible(kind: u16, body: usize) -> bool {
    const fn padded(body: usize) -> usize {
        ((FRAME_SIZE + body + 7) & !7) - FRAME_SIZE
    }
    match RecordKind::from_u16(kind) {
        Some(RecordKind::String) => body >= 8,
        Some(RecordKind::Padding) | None => true,
        Some(RecordKind::Agent) => body == padded(AgentRecord::BODY_SIZE),
        Some(RecordKind::Queue) => body == padded(QueueRecord::BODY_SIZE),
        Some(RecordKind::CodeObjectLoad) => body == padded(CodeObjectLoadRecord::BODY_SIZE),
        Some(RecordKind::CodeObjectUnload) => body == padded(CodeObjectUnloadRecord::BODY_SIZE),
        Some(RecordKind::KernelSymbol) => body == padded(KernelSymbolRecord::BODY_SIZE),
        Some(RecordKind::DispatchBegin) => body == padded(DispatchBeginRecord::BODY_SIZE),
        Some(RecordKind::DispatchEnd) => body == padded(DispatchEndRecord::BODY_SIZE),
        Some(RecordKind::PmcGroup) => body == padded(PmcGroupRecord::BODY_SIZE),
        Some(RecordKind::PmcSources) => body == padded(PmcSourcesRecord::BODY_SIZE),
        Some(RecordKind::PmcOutput) => body >= PmcOutputHeader::BODY_SIZE,
        Some(RecordKind::ApiCall) => {
            body >= ApiCallRecord::BODY_SIZE && body <= padded(ApiCallRecord::BODY_SIZE + 8 * crate::api::MAX_API_ARGS)
        }
        Some(RecordKind::ApiCallShort) => {
            body >= ApiCallRecord::SHORT_BODY_SIZE
                && body <= padded(ApiCallRecord::SHORT_BODY_SIZE + 8 * crate::api::MAX_API_ARGS)
        }
        Some(RecordKind::OperationName) => body == padded(OperationNameRecord::BODY_SIZE),
        Some(RecordKind::MemoryCopy) => body == padded(MemoryCopyRecord::BODY_SIZE),
        Some(RecordKind::MemoryAllocation) => body == padded(MemoryAllocationRecord::BODY_SIZE),
        Some(RecordKind::ScratchMemory) => body == padded(ScratchMemoryRecord::BODY_SIZE),
        Some(RecordKind::ClockSync) => body == padded(ClockSyncRecord::BODY_SIZE),
        Some(RecordKind::PcSample) => body == padded(super::pcsamp::PcSampleRecord::BODY_SIZE),
        Some(RecordKind::PcSampleDispatch) => body == padded(super::pcsamp::PcSampleDispatchRecord::BODY_SIZE),
        Some(RecordKind::HostFunction) => body == padded(HostFunctionRecord::BODY_SIZE),
    }
}

/// What is at one offset of a record sequence.
enum Frame {
    /// Nothing was committed here (a zero commit word).
    Uncommitted,
    /// An intact record of `size` bytes (plausible frame, matching checksum).
    Intact { kind: u16, size: usize },
    /// A record whose frame or checksum is wrong.
    Damaged,
}

fn frame_at(b: &[u8], off: usize, sum: Checksum) -> Frame {
    let word = u32_at(b, off);
    if word == 0 {
        return Frame::Uncommitted;
    }
    let kind = (word & 0xFFFF) as u16;
    let size = (word >> 16) as usize;
    if size < FRAME_SIZE || size & 7 != 0 || off + size > b.len() || !body_size_is_plausible(kind, size - FRAME_SIZE) {
        return Frame::Damaged;
    }
    if u32_at(b, off + 4) != sum(&b[off + FRAME_SIZE..off + size]) {
        return Frame::Damaged;
    }
    Frame::Intact { kind, size }
}

/// Walks the records of one sequence (the agent section or a chunk body) up to its first
/// uncommitted frame, calling `f(kind, body)` for each intact record (`f` returns false for a
/// kind or body it cannot decode). A damaged record is skipped by a resync to the next intact
/// frame, so it costs only itself (and whatever bytes around it are damaged too).
fn walk(b: &[u8], sum: Checksum, mut f: impl FnMut(u16, &[u8]) -> bool) -> Walked {
    let mut w = Walked::default();
    let mut off = 0usize;
    while off + FRAME_SIZE <= b.len() {
        match frame_at(b, off, sum) {
            Frame::Uncommitted => {
                w.torn = b[off..].iter().any(|&x| x != 0);
                return w;
            }
            Frame::Intact { kind, size } => {
                if f(kind, &b[off + FRAME_SIZE..off + size]) {
                    w.records += u64::from(kind != RecordKind::Padding as u16);
                } else {
                    w.damaged += 1;
                }
                off += size;
            }
            Frame::Damaged => {
                // Resync at the next intact frame; a zero word here may lie inside the damaged
                // record's body, so only an intact frame ends the search.
                w.damaged += 1;
                off += 8;
                while off + FRAME_SIZE <= b.len() && !matches!(frame_at(b, off, sum), Frame::Intact { .. }) {
                    off += 8;
                }
                if off + FRAME_SIZE > b.len() {
                    return w;
                }
            }
        }
    }
    if b[off.min(b.len())..].iter().any(|&x| x != 0) {
        // Fewer than a frame's bytes left and not zero: the sequence was cut inside a record.
        w.damaged += 1;
    }
    w
}

fn fixed<R: FixedRecord>(body: &[u8]) -> Option<R> {
    (body.len() >= R::BODY_SIZE).then(|| R::read_body(body))
}

/// The per-kernel values a dispatch takes from its symbol.
#[derive(Debug, Clone, Copy, Default)]
struct SymbolValues {
    kernarg_size: u32,
    arch_vgpr_count: u32,
    accum_vgpr_count: u32,
    sgpr_count: u32,
}

/// Definitions collected by pass 1.
#[derive(Default)]
struct Definitions {
    strings: HashMap<u32, StringId>,
    agents: Vec<AgentRecord>,
    queues: Vec<QueueRecord>,
    code_objects: Vec<CodeObjectLoadRecord>,
    symbols: Vec<KernelSymbolRecord>,
    /// `__hipRegisterFunction` calls.
    host_functions: Vec<HostFunctionRecord>,
    pmc_groups: Vec<PmcGroupRecord>,
    /// What each group's events sample, by (agent handle, group).
    pmc_sources: HashMap<(u64, u32), u32>,
    /// Clock sync points and operation names.
    activity: activity::ActivityDefs,
    /// Event records seen (for the progress estimate).
    events: u64,
    /// PC samples and the dispatches they map to.
    pc: super::pcsamp::PcSamples,
}

impl Definitions {
    /// Decodes one record of pass 1 (event kinds are only counted); false when a definition
    /// cannot be decoded.
    fn decode(&mut self, kind: u16, body: &[u8], strings: &mut StringTable) -> bool {
        match RecordKind::from_u16(kind) {
            Some(RecordKind::String) => {
                if body.len() < 8 {
                    return false;
                }
                let id = u32_at(body, 0);
                let len = u32_at(body, 4) as usize;
                let Some(bytes) = body.get(8..8 + len) else { return false };
                let s = String::from_utf8_lossy(bytes);
                self.strings.insert(id, strings.intern(&s));
            }
            Some(RecordKind::Agent) => self.agents.extend(fixed::<AgentRecord>(body)),
            Some(RecordKind::Queue) => self.queues.extend(fixed::<QueueRecord>(body)),
            Some(RecordKind::CodeObjectLoad) => self.code_objects.extend(fixed::<CodeObjectLoadRecord>(body)),
            Some(RecordKind::KernelSymbol) => self.symbols.extend(fixed::<KernelSymbolRecord>(body)),
            Some(RecordKind::HostFunction) => self.host_functions.extend(fixed::<HostFunctionRecord>(body)),
            Some(RecordKind::PmcGroup) => self.pmc_groups.extend(fixed::<PmcGroupRecord>(body)),
            Some(RecordKind::PmcSources) => {
                let Some(r) = fixed::<PmcSourcesRecord>(body) else { return false };
                self.pmc_sources.insert((r.agent_handle, r.group), r.sources);
            }
            Some(RecordKind::DispatchEnd) => self.events += 1,
            Some(k @ (RecordKind::PcSample | RecordKind::PcSampleDispatch)) => return self.pc.decode(k, body),
            Some(
                k @ (RecordKind::ApiCall
                | RecordKind::ApiCallShort
                | RecordKind::OperationName
                | RecordKind::MemoryCopy
                | RecordKind::MemoryAllocation
                | RecordKind::ScratchMemory
                | RecordKind::ClockSync),
            ) if self.activity.decode(k, body) => self.events += 1,
            Some(_) => {}
            None => return false,
        }
        true
    }
}

/// State of pass 2 and the lookups it needs from pass 1.
#[derive(Default)]
struct Events {
    agent_by_handle: HashMap<u64, AgentId>,
    symbols: HashMap<u64, SymbolValues>,
    begins: HashMap<u64, DispatchBeginRecord>,
    ends: HashMap<u64, DispatchEndRecord>,
    reorder: BTreeMap<u64, KernelDispatch>,
    /// Counter outputs by dispatch id, assembled from their records, until their dispatch is delivered.
    pmc: HashMap<u64, PmcOutput>,
    /// Capture string id -> string id (marker messages of API records).
    strings: HashMap<u32, StringId>,
    /// API calls and memory activity.
    activity: activity::ActivityEvents,
    /// `--kernel-rename`: dispatches inside a ROCTx range take its message as their name.
    rename: bool,
    /// ROCTx records are read (ranges, renaming) but not delivered.
    hide_markers: bool,
    /// The symbols dispatches may be renamed from (kept with `rename` only).
    symbol_records: HashMap<u64, KernelSymbol>,
    /// (kernel id, range message) -> the id of its renamed symbol.
    renamed: HashMap<(u64, StringId), u64>,
    /// Renamed symbols not delivered yet (they precede their first dispatch).
    new_symbols: Vec<KernelSymbol>,
    /// Largest kernel id in use (renamed symbols get the next ones).
    max_kernel: u64,
}

/// A streaming capture reader; see the module docs. Create it with [`CaptureReader::open`] (a
/// file) or [`CaptureReader::new`] (any [`ReadAt`]).
pub struct CaptureReader<R> {
    src: R,
    info: CaptureInfo,
    domain: ClockDomain,
    agent_section: (u64, usize),
    chunks: Vec<ChunkRef>,
    phase: Phase,
    next_chunk: usize,
    buf: Vec<u8>,
    defs: Definitions,
    events: Events,
    out: VecDeque<Record>,
    incomplete: Incomplete,
    expected_events: u64,
    pc: super::pcsamp::PcSamples,
    /// The record checksum of the file's format version.
    checksum: Checksum,
}

/// A record checksum function ([`record_checksum_of`]).
type Checksum = fn(&[u8]) -> u32;

impl<R> std::fmt::Debug for CaptureReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureReader").field("info", &self.info).field("phase", &self.phase).finish()
    }
}

impl CaptureReader<CaptureFile> {
    /// Opens a capture file. Only the chunks the header says were claimed are read: the writer
    /// extends the file ahead of use, and that (sparse) tail holds nothing.
    pub fn open(path: &Path) -> Result<Self> {
        let io = |source| Error::Io { path: path.display().to_string(), source };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut len = file.metadata().map_err(io)?.len();
        let mut fixed = [0u8; HEADER_FIXED_SIZE];
        if len >= HEADER_FIXED_SIZE as u64 {
            std::os::unix::fs::FileExt::read_exact_at(&file, &mut fixed, 0).map_err(io)?;
            if fixed[..8] == MAGIC {
                let claimed = u64_at(&fixed, header::CHUNKS_CLAIMED);
                let header_size = u64::from(u32_at(&fixed, header::HEADER_SIZE));
                let chunk_size = u64::from(u32_at(&fixed, header::CHUNK_SIZE));
                if claimed > 0 {
                    len = len.min(claimed.saturating_mul(chunk_size).saturating_add(header_size));
                }
            }
        }
        Self::new(CaptureFile { file, len, path: path.to_path_buf() }).map_err(|e| match e {
            Error::Io { source, .. } => io(source),
            e => e,
        })
    }
}

impl CaptureReader<CaptureFile> {
    /// The file being read.
    pub fn path(&self) -> &Path {
        &self.src.path
    }
}

impl<R: ReadAt> CaptureReader<R> {
    /// A reader over `src`; checks the header and lists the chunks.
    pub fn new(src: R) -> Result<Self> {
        let io = |source| Error::Io { path: String::new(), source };
        let total = src.len();
        if total < HEADER_FIXED_SIZE as u64 {
            return Err(Error::TruncatedHeader { len: total as usize });
        }
        let mut h = vec![0u8; HEADER_FIXED_SIZE];
        src.read_at(&mut h, 0).map_err(io)?;
        if h[..8] != MAGIC {
            return Err(Error::BadMagic);
        }
        let marker = u32_at(&h, header::ENDIAN);
        if marker != ENDIAN_MARKER {
            return Err(Error::BadEndian { marker });
        }
        let version = u32_at(&h, header::VERSION);
        let Some(checksum) = record_checksum_of(version) else {
            return Err(Error::UnsupportedVersion { found: version });
        };
        let header_size = u32_at(&h, header::HEADER_SIZE) as usize;
        let chunk_size = u32_at(&h, header::CHUNK_SIZE) as usize;
        let cmd_len = u32_at(&h, header::CMDLINE_LEN) as usize;
        let agents_len = u32_at(&h, header::AGENTS_LEN) as usize;
        let agents_start = (HEADER_FIXED_SIZE + cmd_len + 7) & !7;
        if header_size < agents_start + agents_len || header_size & (HEADER_ALIGN - 1) != 0 {
            return Err(Error::CorruptHeader { what: "header_size" });
        }
        if chunk_size < CHUNK_HEADER_SIZE + FRAME_SIZE || chunk_size & 7 != 0 || chunk_size > MAX_CHUNK_SIZE {
            return Err(Error::CorruptHeader { what: "chunk_size" });
        }
        if total < (agents_start + agents_len) as u64 {
            return Err(Error::TruncatedHeader { len: total as usize });
        }
        let mut cmd = vec![0u8; cmd_len];
        src.read_at(&mut cmd, HEADER_FIXED_SIZE as u64).map_err(io)?;

        let mut info = CaptureInfo::default();
        for i in 0..LossReason::IN_PROCESS {
            let n = u64_at(&h, header::LOSSES + 8 * i);
            match LossReason::from_index(i) {
                Some(r) => info.health.lost.add(r, n),
                // A counter this reader has no name for (a newer writer): still reported.
                None => info.health.lost.add(LossReason::Damaged, n),
            }
        }
        info.clock = match u32_at(&h, header::CLOCK) {
            0 => Some(ClockId::Boottime),
            1 => Some(ClockId::Monotonic),
            2 => Some(ClockId::Realtime),
            3 => Some(ClockId::MonotonicRaw),
            _ => None,
        };
        let domain = match info.clock {
            Some(ClockId::Monotonic) | Some(ClockId::MonotonicRaw) => ClockDomain::Monotonic,
            Some(ClockId::Realtime) => ClockDomain::Realtime,
            _ => ClockDomain::Boottime,
        };
        info.clean_exit = u32_at(&h, header::FLAGS) & FLAG_CLEAN_EXIT != 0;
        info.health.clean_exit = info.clean_exit;
        info.table_major = u32_at(&h, header::TABLE_MAJOR);
        info.amd_ext_size = u32_at(&h, header::AMD_EXT_SIZE);
        info.meta = SessionMeta {
            pid: ProcessId(u32_at(&h, header::PID)),
            ppid: ProcessId(u32_at(&h, header::PPID)),
            command: cmd
                .split(|&c| c == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect(),
            start: Timestamp { ns: u64_at(&h, header::START_NS), domain },
            end: Timestamp { ns: u64_at(&h, header::END_NS), domain },
            clock: domain,
        };

        let end = info.meta.end.ns;
        info.health.wall_ns = if end != 0 { end.saturating_sub(info.meta.start.ns) } else { 0 };

        // Chunks in claim order. An unclaimed chunk (pre-extended but never used) is all zero; a
        // chunk with a damaged header but other bytes is counted and still read.
        let mut chunks = Vec::new();
        let mut stall_by_thread = std::collections::HashMap::new();
        let mut chunk_header = [0u8; CHUNK_HEADER_SIZE];
        let mut off = header_size as u64;
        while off < total {
            let len = (total - off).min(chunk_size as u64) as usize;
            let claimed = len >= CHUNK_HEADER_SIZE && {
                src.read_at(&mut chunk_header, off).map_err(io)?;
                u32_at(&chunk_header, chunk::MAGIC) == CHUNK_MAGIC
            };
            if claimed {
                let h = &mut info.health;
                h.hook_ns = h.hook_ns.saturating_add(u64_at(&chunk_header, chunk::HOOK_NS));
                h.hook_packets = h.hook_packets.saturating_add(u64_at(&chunk_header, chunk::HOOK_PACKETS));
                let stall = u64_at(&chunk_header, chunk::STALL_NS);
                h.stall_ns = h.stall_ns.saturating_add(stall);
                h.stalls = h.stalls.saturating_add(u64_at(&chunk_header, chunk::STALLS));
                h.stall_max_ns = h.stall_max_ns.max(u64_at(&chunk_header, chunk::STALL_MAX_NS));
                if stall > 0 {
                    let t = stall_by_thread.entry(u32_at(&chunk_header, chunk::TID)).or_insert(0u64);
                    *t = t.saturating_add(stall);
                }
                chunks.push(ChunkRef { offset: off, len, seq: u64_at(&chunk_header, chunk::SEQ) });
            } else if len >= CHUNK_HEADER_SIZE {
                let mut rest = vec![0u8; len];
                src.read_at(&mut rest, off).map_err(io)?;
                if rest.iter().any(|&x| x != 0) {
                    info.health.lost.add(LossReason::Damaged, 1);
                    chunks.push(ChunkRef { offset: off, len, seq: u64::MAX });
                }
            } else {
                let mut rest = vec![0u8; len];
                src.read_at(&mut rest, off).map_err(io)?;
                if rest.iter().any(|&x| x != 0) {
                    info.health.lost.add(LossReason::Damaged, 1);
                }
            }
            off += chunk_size as u64;
        }
        chunks.sort_by_key(|c| c.seq);
        info.health.stall_thread_max_ns = stall_by_thread.values().copied().max().unwrap_or(0);
        Ok(Self {
            src,
            info,
            domain,
            agent_section: (agents_start as u64, agents_len),
            chunks,
            phase: Phase::Process,
            next_chunk: 0,
            buf: Vec::new(),
            defs: Definitions::default(),
            pc: Default::default(),
            events: Events::default(),
            out: VecDeque::new(),
            incomplete: Incomplete::Drop,
            expected_events: 0,
            checksum,
        })
    }

    /// `--kernel-rename`: a dispatch issued inside a ROCTx range (its external correlation id is
    /// the range's) is named after the innermost range: it refers to a kernel symbol with the
    /// range's message as its name, delivered before it (default: off).
    pub fn kernel_rename(mut self, on: bool) -> Self {
        self.events.rename = on;
        self
    }

    /// Whether ROCTx records (`MARKER_*` API calls) are delivered (default: yes). Off when the
    /// capture has them only for `--kernel-rename` or `--selected-regions`, not `--marker-trace`.
    pub fn marker_records(mut self, on: bool) -> Self {
        self.events.hide_markers = !on;
        self
    }

    /// Chooses what happens to dispatches that never completed (default: [`Incomplete::Drop`]).
    pub fn incomplete(mut self, incomplete: Incomplete) -> Self {
        self.incomplete = incomplete;
        self
    }

    /// Header facts, and loss counts (final once [`RecordSource::next_record`] returned `None`).
    pub fn info(&self) -> &CaptureInfo {
        &self.info
    }

    /// The capture's PC samples and sampled dispatches (read with the definitions, so complete once
    /// the first record was read).
    pub fn pc_samples(&self) -> &super::pcsamp::PcSamples {
        &self.pc
    }

    /// Reads `len` bytes at `offset` into the reused buffer.
    fn load(&mut self, offset: u64, len: usize) -> std::io::Result<()> {
        self.buf.resize(len, 0);
        self.src.read_at(&mut self.buf, offset)
    }

    /// Pass 1 over the agent section and every chunk; queues the definitions.
    fn definitions(&mut self, strings: &mut StringTable) -> std::io::Result<()> {
        let (off, len) = self.agent_section;
        self.load(off, len)?;
        let mut defs = std::mem::take(&mut self.defs);
        // The agent section is walked once, here; chunks are counted in pass 2.
        walk(&self.buf, self.checksum, |kind, body| defs.decode(kind, body, strings)).count_into(&mut self.info.health);
        for i in 0..self.chunks.len() {
            let c = self.chunks[i];
            self.load(c.offset, c.len)?;
            walk(&self.buf[CHUNK_HEADER_SIZE..], self.checksum, |kind, body| defs.decode(kind, body, strings));
        }
        self.expected_events = defs.events;
        self.pc = std::mem::take(&mut defs.pc);
        self.build_definitions(defs, strings);
        Ok(())
    }

    /// Turns the raw definitions into model records (agents sorted by node id and deduplicated,
    /// derived names and register counts computed) and queues them.
    fn build_definitions(&mut self, defs: Definitions, strings: &mut StringTable) {
        let domain = self.domain;
        let ts = move |ns: u64| Timestamp { ns, domain };
        let string = |id: u32| defs.strings.get(&id).copied().unwrap_or(StringId::EMPTY);
        let ev = &mut self.events;

        let mut agent_name: HashMap<u64, StringId> = HashMap::new();
        let mut agents: Vec<Agent> = Vec::new();
        for a in &defs.agents {
            let id = AgentId(a.node_id);
            ev.agent_by_handle.insert(a.handle, id);
            agent_name.insert(a.handle, string(a.name));
            if agents.iter().any(|x| x.id == id) {
                // The same agent again under a new handle (the runtime was initialised again).
                continue;
            }
            agents.push(agent(a, id, &string));
        }
        agents.sort_by_key(|a| a.node_id);
        let agent_id = |h: u64| ev.agent_by_handle.get(&h).copied().unwrap_or_default();
        self.out.extend(agents.into_iter().map(|a| Record::Agent(Box::new(a))));

        for q in &defs.queues {
            self.out.push_back(Record::Queue(Queue {
                id: QueueId(q.queue_id),
                agent: agent_id(q.agent_handle),
                handle: q.hsa_queue_id,
                size: q.size,
                thread: ThreadId(q.tid),
                created: ts(q.created_ns),
            }));
        }

        let mut co_agent: HashMap<u64, u64> = HashMap::new();
        for c in &defs.code_objects {
            co_agent.insert(c.code_object_id, c.agent_handle);
            self.out.push_back(Record::CodeObject(CodeObject {
                id: CodeObjectId(c.code_object_id),
                agent: agent_id(c.agent_handle),
                uri: string(c.uri),
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
            }));
        }

        let mut built = Vec::with_capacity(defs.symbols.len());
        for s in &defs.symbols {
            let gfx = co_agent.get(&s.code_object_id).and_then(|h| agent_name.get(h)).copied().unwrap_or_default();
            let gfx = strings.resolve(gfx).to_owned();
            let (sgpr, arch, accum) = if s.descriptor_valid != 0 {
                (
                    sgpr_count(&gfx, s.pgm_rsrc1),
                    arch_vgpr_count(&gfx, s.pgm_rsrc1, s.pgm_rsrc3, s.code_properties),
                    accum_vgpr_count(&gfx, s.pgm_rsrc1, s.pgm_rsrc3, s.code_properties),
                )
            } else {
                (0, 0, 0)
            };
            let raw_name = strings.resolve(string(s.name)).to_owned();
            let demangled = match demangle::demangle(raw_name.strip_suffix(".kd").unwrap_or(&raw_name)) {
                Some(d) if raw_name.ends_with(".kd") => format!("{d}.kd"),
                Some(d) => d,
                None => raw_name.clone(),
            };
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
            }
            .with_names(strings, &raw_name, &demangled);
            ev.symbols.insert(
                s.kernel_id,
                SymbolValues {
                    kernarg_size: sym.kernarg_segment_size,
                    arch_vgpr_count: sym.arch_vgpr_count,
                    accum_vgpr_count: sym.accum_vgpr_count,
                    sgpr_count: sym.sgpr_count,
                },
            );
            ev.max_kernel = ev.max_kernel.max(s.kernel_id);
            if ev.rename {
                ev.symbol_records.insert(s.kernel_id, sym.clone());
            }
            built.push(sym.clone());
            self.out.push_back(Record::KernelSymbol(sym));
        }
        let host = super::host_function::match_host_functions(&defs.host_functions, &built, strings, string);
        self.out.extend(host.into_iter().map(Record::HostFunction));

        for g in &defs.pmc_groups {
            let counters = strings.resolve(string(g.counters)).split_whitespace().map(str::to_string).collect();
            let events = crate::counters::PmcEvent::parse_list(strings.resolve(string(g.events))).unwrap_or_default();
            let sources = defs
                .pmc_sources
                .get(&(g.agent_handle, g.group))
                .and_then(|&s| crate::counters::EventSource::parse_list(strings.resolve(string(s))))
                .unwrap_or_default();
            self.out.push_back(Record::PmcGroup(Box::new(crate::counters::PmcGroup {
                agent: agent_id(g.agent_handle),
                gpu_index: g.gpu_index,
                group: g.group,
                counters,
                events,
                sources,
                output_size: g.output_size,
            })));
        }
        ev.activity = defs.activity.finish(&string);
        ev.activity.markers.hide(ev.hide_markers);
        ev.strings = defs.strings;
    }

    /// Pass 2 over one chunk: decodes its events and queues those that are ready.
    fn events_of_next_chunk(&mut self, strings: &mut StringTable) -> std::io::Result<()> {
        let c = self.chunks[self.next_chunk];
        self.next_chunk += 1;
        self.load(c.offset, c.len)?;
        let mut ready = Vec::new();
        let out = &mut self.out;
        let ev = &mut self.events;
        let domain = self.domain;
        let keep = self.incomplete == Incomplete::Keep;
        let walked = walk(&self.buf[CHUNK_HEADER_SIZE..], self.checksum, |kind, body| {
            let ok = match RecordKind::from_u16(kind) {
                Some(RecordKind::DispatchBegin) => {
                    fixed::<DispatchBeginRecord>(body).map(|b| match ev.ends.remove(&b.dispatch_id) {
                        Some(e) => ev.completed(&b, &e, domain, keep, &mut ready),
                        None => {
                            ev.begins.insert(b.dispatch_id, b);
                        }
                    })
                }
                Some(RecordKind::DispatchEnd) => {
                    fixed::<DispatchEndRecord>(body).map(|e| match ev.begins.remove(&e.dispatch_id) {
                        Some(b) => ev.completed(&b, &e, domain, keep, &mut ready),
                        None => {
                            ev.ends.insert(e.dispatch_id, e);
                        }
                    })
                }
                Some(RecordKind::PmcOutput) => fixed::<PmcOutputHeader>(body).and_then(|h| {
                    let payload = body.get(PmcOutputHeader::BODY_SIZE..PmcOutputHeader::BODY_SIZE + h.len as usize)?;
                    let agent = ev.agent_by_handle.get(&h.agent_handle).copied().unwrap_or_default();
                    let out = ev.pmc.entry(h.dispatch_id).or_insert_with(|| PmcOutput {
                        dispatch: DispatchId(h.dispatch_id),
                        agent,
                        group: h.group,
                        status: PmcStatus::from_u32(h.status),
                        bytes: Vec::new(),
                    });
                    if out.status != PmcStatus::Ok {
                        return Some(());
                    }
                    if out.bytes.len() < h.total as usize {
                        out.bytes.resize(h.total as usize, 0);
                    }
                    let end = h.offset as usize + payload.len();
                    out.bytes.get_mut(h.offset as usize..end)?.copy_from_slice(payload);
                    Some(())
                }),
                // Definitions were read by pass 1.
                Some(RecordKind::PmcGroup) => fixed::<PmcGroupRecord>(body).map(drop),
                Some(RecordKind::PmcSources) => fixed::<PmcSourcesRecord>(body).map(drop),
                Some(RecordKind::String) => Some(()).filter(|()| body.len() >= 8),
                Some(RecordKind::Agent) => fixed::<AgentRecord>(body).map(drop),
                Some(RecordKind::Queue) => fixed::<QueueRecord>(body).map(drop),
                Some(RecordKind::CodeObjectLoad) => fixed::<CodeObjectLoadRecord>(body).map(drop),
                Some(RecordKind::KernelSymbol) => fixed::<KernelSymbolRecord>(body).map(drop),
                Some(RecordKind::HostFunction) => fixed::<HostFunctionRecord>(body).map(drop),
                Some(RecordKind::CodeObjectUnload) => fixed::<CodeObjectUnloadRecord>(body).map(drop),
                Some(RecordKind::Padding) => Some(()),
                Some(RecordKind::ClockSync) => fixed::<ClockSyncRecord>(body).map(drop),
                Some(RecordKind::OperationName) => fixed::<OperationNameRecord>(body).map(drop),
                // PC samples were read by pass 1 ([`CaptureReader::pc_samples`]).
                Some(RecordKind::PcSample | RecordKind::PcSampleDispatch) => Some(()),
                Some(
                    k @ (RecordKind::ApiCall
                    | RecordKind::ApiCallShort
                    | RecordKind::MemoryCopy
                    | RecordKind::MemoryAllocation
                    | RecordKind::ScratchMemory),
                ) => {
                    let agents = &ev.agent_by_handle;
                    let names = &ev.strings;
                    let resolve = activity::Resolve {
                        agent: &|h| agents.get(&h).copied(),
                        string: &|id| names.get(&id).copied().unwrap_or(StringId::EMPTY),
                        domain,
                    };
                    ev.activity.decode(k, body, strings, &resolve).map(|r| out.extend(r))
                }
                None => None,
            };
            ok.is_some()
        });
        walked.count_into(&mut self.info.health);
        self.out.extend(self.events.new_symbols.drain(..).map(Record::KernelSymbol));
        for d in ready {
            self.reorder(d);
        }
        Ok(())
    }

    fn reorder(&mut self, d: KernelDispatch) {
        self.events.reorder.insert(d.dispatch_id.0, d);
        if self.events.reorder.len() > REORDER_WINDOW {
            if let Some((_, first)) = self.events.reorder.pop_first() {
                self.deliver(first);
            }
        }
    }

    /// Queues a dispatch, followed by its counter output if it has one.
    fn deliver(&mut self, d: KernelDispatch) {
        let pmc = self.events.pmc.remove(&d.dispatch_id.0);
        self.out.push_back(Record::KernelDispatch(d));
        if let Some(p) = pmc {
            self.out.push_back(Record::PmcOutput(Box::new(p)));
        }
    }

    /// After the last chunk: counts unmatched halves, closes the marker ranges still open at the
    /// process end and flushes the reorder window.
    fn drain(&mut self, strings: &mut StringTable) {
        let open = self.events.activity.markers.drain(self.info.meta.end, strings);
        self.out.extend(open.into_iter().map(Record::ApiCall));
        self.info.incomplete_dispatches = self.events.begins.len() as u64;
        self.info.orphan_completions = self.events.ends.len() as u64;
        self.info.health.incomplete_dispatches = self.info.incomplete_dispatches;
        if self.incomplete == Incomplete::Keep {
            let begins: Vec<DispatchBeginRecord> = self.events.begins.drain().map(|(_, b)| b).collect();
            for b in begins {
                let d = self.events.dispatch(&b, None, self.domain);
                self.events.reorder.insert(d.dispatch_id.0, d);
            }
            self.out.extend(self.events.new_symbols.drain(..).map(Record::KernelSymbol));
        }
        let window = std::mem::take(&mut self.events.reorder);
        for d in window.into_values() {
            self.deliver(d);
        }
        // Outputs whose dispatch never completed (or was dropped) follow on their own, so the loss is
        // reported rather than silent.
        let mut rest: Vec<PmcOutput> = self.events.pmc.drain().map(|(_, p)| p).collect();
        rest.sort_by_key(|p| p.dispatch);
        self.out.extend(rest.into_iter().map(|p| Record::PmcOutput(Box::new(p))));
        self.out.push_back(Record::RunHealth(Box::new(self.info.health)));
    }
}

impl Events {
    /// The kernel a dispatch is reported under: its own, or with `--kernel-rename` inside a ROCTx
    /// range, a copy of its symbol named after the range (made once per kernel and message).
    fn kernel_of(&mut self, d: &DispatchBeginRecord) -> u64 {
        if !self.rename {
            return d.kernel_id;
        }
        let Some(message) = self.activity.markers.rename(d.external_id) else { return d.kernel_id };
        if let Some(&id) = self.renamed.get(&(d.kernel_id, message)) {
            return id;
        }
        let Some(original) = self.symbol_records.get(&d.kernel_id) else { return d.kernel_id };
        self.max_kernel += 1;
        let id = self.max_kernel;
        let sym = KernelSymbol {
            id: KernelId(id),
            formatted_name: message,
            truncated_name: message,
            renamed_from: original.id,
            ..original.clone()
        };
        self.new_symbols.push(sym);
        self.renamed.insert((d.kernel_id, message), id);
        id
    }

    /// A dispatch whose begin and end records were both read goes to `ready`, unless its end says
    /// it was lost ([`DISPATCH_LOST`], counted by the interception library): then it is left out
    /// (with [`Incomplete::Keep`], delivered without times like an incomplete one) and so is its
    /// counter output.
    fn completed(
        &mut self,
        b: &DispatchBeginRecord,
        e: &DispatchEndRecord,
        domain: ClockDomain,
        keep: bool,
        ready: &mut Vec<KernelDispatch>,
    ) {
        if e.status == DISPATCH_LOST {
            self.pmc.remove(&b.dispatch_id);
            if !keep {
                return;
            }
        }
        ready.push(self.dispatch(b, Some(e), domain));
    }

    /// A dispatch from its begin and (if recorded) end record.
    fn dispatch(
        &mut self,
        d: &DispatchBeginRecord,
        end: Option<&DispatchEndRecord>,
        domain: ClockDomain,
    ) -> KernelDispatch {
        let sym = self.symbols.get(&d.kernel_id).copied().unwrap_or_default();
        let (start, end) = match end {
            Some(e) if e.status == DISPATCH_OK => (e.start_ns, e.end_ns),
            _ => (0, 0),
        };
        KernelDispatch {
            dispatch_id: DispatchId(d.dispatch_id),
            correlation_id: CorrelationId(d.correlation_id),
            external_id: d.external_id,
            agent: self.agent_by_handle.get(&d.agent_handle).copied().unwrap_or_default(),
            queue: QueueId(d.queue_id),
            stream: StreamId(self.activity.streams.id(d.stream_id)),
            thread: ThreadId(d.tid),
            kernel: KernelId(self.kernel_of(d)),
            grid: Dim3::new(d.grid_x, d.grid_y, d.grid_z),
            workgroup: Dim3::new(d.workgroup_x, d.workgroup_y, d.workgroup_z),
            group_segment_size: d.group_segment_size,
            private_segment_size: d.private_segment_size,
            kernarg_size: sym.kernarg_size,
            arch_vgpr_count: sym.arch_vgpr_count,
            accum_vgpr_count: sym.accum_vgpr_count,
            sgpr_count: sym.sgpr_count,
            start: Timestamp { ns: start, domain },
            end: Timestamp { ns: end, domain },
        }
    }
}

/// The model agent of an agent record.
fn agent(a: &AgentRecord, id: AgentId, string: &impl Fn(u32) -> StringId) -> Agent {
    Agent {
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
        name: string(a.name),
        vendor_name: string(a.vendor_name),
        product_name: string(a.product_name),
        model_name: string(a.model_name),
    }
}

impl<R: ReadAt> RecordSource for CaptureReader<R> {
    fn next_record(&mut self, strings: &mut StringTable) -> std::result::Result<Option<Record>, SourceError> {
        loop {
            if let Some(r) = self.out.pop_front() {
                if r.is_event() {
                    self.info.events += 1;
                }
                return Ok(Some(r));
            }
            match self.phase {
                Phase::Process => {
                    self.out.push_back(Record::Process(Box::new(self.info.meta.clone())));
                    self.phase = Phase::Definitions;
                }
                Phase::Definitions => {
                    self.definitions(strings)?;
                    self.phase = Phase::Events;
                }
                Phase::Events => {
                    if self.next_chunk < self.chunks.len() {
                        self.events_of_next_chunk(strings)?;
                    } else {
                        self.phase = Phase::Drain;
                    }
                }
                Phase::Drain => {
                    self.drain(strings);
                    self.phase = Phase::Done;
                }
                Phase::Done => return Ok(None),
            }
        }
    }

    fn len_hint(&self) -> Option<u64> {
        match self.phase {
            Phase::Process | Phase::Definitions => None,
            _ => Some(self.expected_events.saturating_sub(self.info.events) + self.out.len() as u64),
        }
    }
}

/// A decoded capture held in memory: the process's records as a [`Trace`], plus facts about the
/// capture itself. For tests and small tools; outputs stream through [`CaptureReader`].
#[derive(Debug, Clone, Default)]
pub struct Capture {
    /// The records; `trace.health` has the loss counts and the overhead.
    pub trace: Trace,
    /// True when the process flushed at exit (false after a crash or kill).
    pub clean_exit: bool,
    /// Dispatches whose completion was never recorded (the process died first); they are kept in
    /// the trace with `start == end == 0`.
    pub incomplete_dispatches: u64,
    /// Completions whose dispatch record is missing (dropped in the process).
    pub orphan_completions: u64,
    /// The clock the profiled process used.
    pub clock: Option<ClockId>,
    /// Root API table major the tool saw.
    pub table_major: u32,
    /// AmdExt table size the tool saw.
    pub amd_ext_size: u32,
}

fn collect<R: ReadAt>(reader: CaptureReader<R>, path: &str) -> Result<Capture> {
    let mut reader = reader.incomplete(Incomplete::Keep);
    let mut trace = Trace::collect(&mut reader).map_err(|e| Error::Io {
        path: path.to_string(),
        source: match e.downcast::<std::io::Error>() {
            Ok(io) => *io,
            Err(other) => std::io::Error::other(other),
        },
    })?;
    let info = reader.info().clone();
    trace.health = info.health;
    Ok(Capture {
        trace,
        clean_exit: info.clean_exit,
        incomplete_dispatches: info.incomplete_dispatches,
        orphan_completions: info.orphan_completions,
        clock: info.clock,
        table_major: info.table_major,
        amd_ext_size: info.amd_ext_size,
    })
}

/// Reads and decodes a whole capture file into memory (dispatches that never completed are kept
/// with zero timestamps). Outputs use [`CaptureReader`] instead.
pub fn read_capture(path: &Path) -> Result<Capture> {
    collect(CaptureReader::open(path)?, &path.display().to_string())
}

/// Decodes a capture held in memory. A file cut anywhere after its header decodes to the records
/// that were complete; torn or damaged records are counted in `trace.health.lost`, and only they
/// are lost.
pub fn parse_capture(b: &[u8]) -> Result<Capture> {
    collect(CaptureReader::new(b)?, "<memory>")
}
