//! Capture records of API calls and memory activity, and their decoding into
//! [`crate::api::ApiCall`], [`crate::memory::MemoryCopy`], [`crate::memory::MemoryAllocation`]
//! and [`crate::memory::ScratchMemory`].
//!
//! API calls are the most frequent records, so their encoding is compact: an [`ApiCallRecord`]
//! header followed by exactly `nargs` raw argument words (a variable-length record, like
//! strings), and for the calls without external id, return value or message (almost all) a
//! four-word header instead of nine ([`RecordKind::ApiCallShort`]). Timestamps of host-side
//! records (API calls, allocations, scratch events) may be raw CPU time-stamp-counter ticks ([`TIME_TSC`] in their flags): reading the counter costs a few
//! nanoseconds where `clock_gettime` costs tens. [`ClockSyncRecord`]s, written when the tool
//! loads and then periodically by the writer thread, pair counter values with the capture clock;
//! the reader converts ticks by interpolating between them ([`ClockMap`]).

use std::collections::HashMap;

use super::format::{fixed_record, record_header_word, seal_record, Field, FixedRecord, RecordKind, FRAME_SIZE};
use super::marker::Markers;
use crate::api::{ApiCall, ApiDomain, ApiFamily, Correlation, MAX_API_ARGS};
use crate::memory::{
    MemoryAllocation, MemoryAllocationOp, MemoryCopy, MemoryCopyDirection, ScratchMemory, ScratchMemoryOp,
};
use crate::records::{
    AgentId, ClockDomain, CorrelationId, QueueId, StreamId, StringId, StringTable, ThreadId, Timestamp,
};
use crate::stream::Record;

/// Record flag: `start`/`end` are time-stamp-counter ticks, converted by the reader.
pub const TIME_TSC: u32 = 1;

fixed_record!(
    /// The fixed part of an API-call record; `nargs` argument words follow it.
    ApiCallRecord = ApiCall {
        /// The call's own correlation id.
        correlation_id: u64,
        /// The call active on the thread when this one started (0: none).
        ancestor_id: u64,
        /// External correlation id (0: none).
        external_id: u64,
        /// Entry time (ns, or ticks with [`TIME_TSC`]).
        start: u64,
        /// Exit time.
        end: u64,
        /// Raw return value.
        ret: u64,
        /// [`ApiDomain`] capture value.
        domain: u32,
        /// Operation id within the domain.
        operation: u32,
        /// Calling thread.
        tid: u32,
        /// Number of argument words after this header.
        nargs: u32,
        /// String id of a marker message (0: none).
        message: u32,
        /// [`TIME_TSC`] and future flags.
        flags: u32,
    }
);

impl ApiCallRecord {
    /// Total record size (frame + header + argument words) for `nargs` arguments.
    pub const fn total_size(nargs: usize) -> usize {
        (FRAME_SIZE + Self::BODY_SIZE + 8 * nargs + 7) & !7
    }

    /// Encodes header and argument words into `body` (at least `total_size - FRAME_SIZE` bytes).
    /// Allocation-free.
    pub fn write_with_args(&self, args: &[u64], body: &mut [u8]) {
        self.write_body(body);
        let mut off = Self::BODY_SIZE;
        for &w in args {
            body[off..off + 8].copy_from_slice(&w.to_le_bytes());
            off += 8;
        }
    }
}

// The header is a whole number of words (the word encoder below relies on it).
const _: () = assert!(ApiCallRecord::BODY_SIZE == 72);

impl ApiCallRecord {
    /// The header's part of the record body as little-endian words, with `nargs` argument words
    /// to follow (the argument words come next in the body). The same bytes as
    /// [`ApiCallRecord::write_with_args`] writes, built in registers, so the writer can checksum
    /// them ([`record_checksum_split`](super::record_checksum_split)) and store them without
    /// reading back narrower stores.
    #[inline(always)]
    pub fn header_words(&self, nargs: usize) -> [u64; 9] {
        let pair = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
        [
            self.correlation_id,
            self.ancestor_id,
            self.external_id,
            self.start,
            self.end,
            self.ret,
            pair(self.domain, self.operation),
            pair(self.tid, nargs as u32),
            pair(self.message, self.flags),
        ]
    }

    /// The body size of the short form ([`RecordKind::ApiCallShort`]): four words.
    pub const SHORT_BODY_SIZE: usize = 32;

    /// Ancestors at most this far below the call's own id fit the short form.
    const SHORT_ANCESTOR_MAX: u64 = (1 << 24) - 1;

    /// The header words of the short form, or `None` for a call it cannot carry. A call fits
    /// when it has no external id, return value or message, its duration fits 32 bits, its
    /// ancestor (if any) is at most 2^24 - 1 ids below its own, and domain, operation, argument
    /// count and flags fit 8, 16, 8 and 8 bits (most calls: every HIP call, every HSA call that
    /// returns `HSA_STATUS_SUCCESS`). The words: correlation id; start; (end - start, tid);
    /// (operation, domain << 16, nargs << 24, flags << 32, (id - ancestor or 0) << 40). Half the
    /// capture per call of [`Self::header_words`] for a one-argument call (48 bytes instead of 88):
    /// every byte is a page of the capture file the kernel must allocate, zero and dirty.
    #[inline(always)]
    pub fn short_header_words(&self, nargs: usize) -> Option<[u64; 4]> {
        let id = self.correlation_id;
        let duration = self.end.wrapping_sub(self.start);
        let back = if self.ancestor_id == 0 { 0 } else { id.wrapping_sub(self.ancestor_id) };
        let fits = self.external_id | self.ret == 0
            && self.message == 0
            && self.flags <= 0xFF
            && nargs <= 0xFF
            && self.domain <= 0xFF
            && self.operation <= 0xFFFF
            && self.end >= self.start
            && duration <= u64::from(u32::MAX)
            && (self.ancestor_id == 0 || (self.ancestor_id < id && back <= Self::SHORT_ANCESTOR_MAX));
        if !fits {
            return None;
        }
        Some([
            id,
            self.start,
            duration | u64::from(self.tid) << 32,
            u64::from(self.operation)
                | u64::from(self.domain) << 16
                | (nargs as u64) << 24
                | u64::from(self.flags) << 32
                | back << 40,
        ])
    }

    /// Reads the header of a short-form body (external id, return value and message 0); the
    /// argument words follow at [`Self::SHORT_BODY_SIZE`].
    pub fn from_short(body: &[u8]) -> Option<ApiCallRecord> {
        if body.len() < Self::SHORT_BODY_SIZE {
            return None;
        }
        let word = |i: usize| <u64 as Field>::get(&body[8 * i..]);
        let (id, start, span, what) = (word(0), word(1), word(2), word(3));
        let back = what >> 40;
        Some(ApiCallRecord {
            correlation_id: id,
            ancestor_id: if back == 0 { 0 } else { id.wrapping_sub(back) },
            start,
            end: start.wrapping_add(span & 0xFFFF_FFFF),
            domain: ((what >> 16) & 0xFF) as u32,
            operation: (what & 0xFFFF) as u32,
            tid: (span >> 32) as u32,
            nargs: ((what >> 24) & 0xFF) as u32,
            flags: ((what >> 32) & 0xFF) as u32,
            ..Default::default()
        })
    }
}

/// Appends a whole API-call record (cold paths and tests; the interception library writes in
/// place the same bytes), in the short form when the call has one
/// ([`ApiCallRecord::short_header_words`]). `h.nargs` is set from `args`.
pub fn push_api_call(out: &mut Vec<u8>, h: &ApiCallRecord, args: &[u64]) {
    let args = &args[..args.len().min(MAX_API_ARGS)];
    let start = out.len();
    if let Some(head) = h.short_header_words(args.len()) {
        let words: Vec<u64> = head.iter().chain(args).copied().collect();
        let total = FRAME_SIZE + 8 * words.len();
        out.resize(start + total, 0);
        for (i, w) in words.iter().enumerate() {
            let at = start + FRAME_SIZE + 8 * i;
            out[at..at + 8].copy_from_slice(&w.to_le_bytes());
        }
        seal_record(&mut out[start..], record_header_word(RecordKind::ApiCallShort, total));
        return;
    }
    let total = ApiCallRecord::total_size(args.len());
    out.resize(start + total, 0);
    let h = ApiCallRecord { nargs: args.len() as u32, ..*h };
    h.write_with_args(args, &mut out[start + FRAME_SIZE..]);
    seal_record(&mut out[start..], record_header_word(RecordKind::ApiCall, total));
}

fixed_record!(
    /// The name of an operation of a domain whose names are not built in (HIP's depend on the
    /// HIP version): written once per operation before its first call record.
    OperationNameRecord = OperationName {
        /// [`ApiDomain`] capture value.
        domain: u32,
        /// Operation id.
        operation: u32,
        /// String id of the name.
        name: u32,
        /// Reserved (0).
        reserved: u32,
    }
);

fixed_record!(
    /// One pairing of the time-stamp counter with the capture clock.
    ClockSyncRecord = ClockSync {
        /// Counter value.
        tsc: u64,
        /// The capture clock at the same moment, ns.
        ns: u64,
    }
);

/// [`MemoryCopyRecord::status`]: timestamps are valid.
pub const COPY_OK: u32 = 0;
/// [`MemoryCopyRecord::status`]: the runtime could not report the copy's times.
pub const COPY_NO_TIME: u32 = 1;

fixed_record!(
    /// A completed asynchronous copy with the engine's start/end (capture clock, ns).
    MemoryCopyRecord = MemoryCopy {
        /// The issuing API call's id.
        correlation_id: u64,
        /// The call active around it.
        ancestor_id: u64,
        /// External correlation id.
        external_id: u64,
        /// Copy start, ns.
        start_ns: u64,
        /// Copy end, ns.
        end_ns: u64,
        /// Source agent handle.
        src_agent: u64,
        /// Destination agent handle.
        dst_agent: u64,
        /// Source address.
        src_address: u64,
        /// Destination address.
        dst_address: u64,
        /// Bytes.
        bytes: u64,
        /// HIP stream (0: unknown).
        stream_id: u64,
        /// Issuing thread.
        tid: u32,
        /// [`MemoryCopyDirection`] value.
        direction: u32,
        /// [`COPY_OK`] or [`COPY_NO_TIME`].
        status: u32,
        /// Reserved (0).
        reserved: u32,
    }
);

fixed_record!(
    /// An allocation or free (written when the call returns).
    MemoryAllocationRecord = MemoryAllocation {
        /// Correlation id.
        correlation_id: u64,
        /// The call active around it.
        ancestor_id: u64,
        /// External correlation id.
        external_id: u64,
        /// Call entry.
        start: u64,
        /// Call exit.
        end: u64,
        /// Agent handle owning the pool/region (0: unknown or a free).
        agent_handle: u64,
        /// Address (or VMEM handle).
        address: u64,
        /// Bytes (0 for frees).
        size: u64,
        /// HIP stream (0: unknown).
        stream_id: u64,
        /// Calling thread.
        tid: u32,
        /// [`MemoryAllocationOp`] value.
        operation: u32,
        /// [`TIME_TSC`].
        flags: u32,
        /// Reserved (0).
        reserved: u32,
    }
);

fixed_record!(
    /// A scratch event pair (start..end) reported by the runtime's tool events.
    ScratchMemoryRecord = ScratchMemory {
        /// Correlation id.
        correlation_id: u64,
        /// The call active around it.
        ancestor_id: u64,
        /// Start event time.
        start: u64,
        /// End event time.
        end: u64,
        /// The queue's agent handle.
        agent_handle: u64,
        /// Our queue id (0: a queue we do not know).
        queue_id: u64,
        /// Bytes (allocations).
        size: u64,
        /// The dispatch that needed the scratch (allocations; 0 otherwise).
        dispatch_id: u64,
        /// Thread the runtime reported it on.
        tid: u32,
        /// [`ScratchMemoryOp`] value.
        operation: u32,
        /// `hsa_amd_event_scratch_alloc_flag_t` bits.
        alloc_flags: u32,
        /// [`TIME_TSC`].
        flags: u32,
    }
);

/// Converts time-stamp-counter ticks to capture-clock ns by interpolating between sync points.
#[derive(Debug, Clone, Default)]
pub struct ClockMap {
    /// (tsc, ns), sorted by tsc, strictly increasing in both.
    points: Vec<(u64, u64)>,
}

impl ClockMap {
    /// A map over `points` (any order; points that go backwards in either value are dropped).
    pub fn new(mut points: Vec<(u64, u64)>) -> Self {
        points.sort_unstable();
        let mut kept: Vec<(u64, u64)> = Vec::with_capacity(points.len());
        for p in points {
            if kept.last().is_none_or(|l| p.0 > l.0 && p.1 > l.1) {
                kept.push(p);
            }
        }
        Self { points: kept }
    }

    /// True when no sync point exists (ticks cannot be converted).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Nanoseconds per tick over the whole map (1.0 with fewer than two points).
    fn overall_rate(&self) -> f64 {
        match (self.points.first(), self.points.last()) {
            (Some(a), Some(b)) if b.0 > a.0 => (b.1 - a.1) as f64 / (b.0 - a.0) as f64,
            _ => 1.0,
        }
    }

    /// The capture-clock time of `tsc`: linear between the surrounding sync points, and with
    /// the overall rate before the first and after the last.
    pub fn to_ns(&self, tsc: u64) -> u64 {
        let Some(&first) = self.points.first() else { return 0 };
        let i = self.points.partition_point(|p| p.0 <= tsc);
        let along = |a: (u64, u64), rate: f64| -> u64 {
            let d = (tsc as f64 - a.0 as f64) * rate;
            (a.1 as f64 + d).max(0.0) as u64
        };
        if i == 0 {
            return along(first, self.overall_rate());
        }
        let a = self.points[i - 1];
        match self.points.get(i) {
            Some(&b) => {
                let rate = (b.1 - a.1) as f64 / (b.0 - a.0) as f64;
                a.1 + ((tsc - a.0) as f64 * rate) as u64
            }
            None => along(a, self.overall_rate()),
        }
    }
}

/// Activity definitions collected by the reader's first pass: clock sync points and operation
/// names (both few).
#[derive(Default)]
pub(super) struct ActivityDefs {
    clock: Vec<(u64, u64)>,
    op_names: Vec<OperationNameRecord>,
}

impl ActivityDefs {
    /// First pass: keeps sync points and operation names; returns whether `kind` is an activity
    /// event (counted for the progress estimate).
    pub(super) fn decode(&mut self, kind: RecordKind, body: &[u8]) -> bool {
        match kind {
            RecordKind::ClockSync => {
                if let Some(c) = fixed::<ClockSyncRecord>(body) {
                    self.clock.push((c.tsc, c.ns));
                }
                false
            }
            RecordKind::OperationName => {
                self.op_names.extend(fixed::<OperationNameRecord>(body));
                false
            }
            RecordKind::ApiCall
            | RecordKind::ApiCallShort
            | RecordKind::MemoryCopy
            | RecordKind::MemoryAllocation
            | RecordKind::ScratchMemory => true,
            _ => false,
        }
    }

    /// What the second pass needs: the tick converter and the run-time operation names
    /// (`string` resolves capture string ids).
    pub(super) fn finish(self, string: &dyn Fn(u32) -> StringId) -> ActivityEvents {
        let mut names = HashMap::new();
        for n in &self.op_names {
            if let Ok(d) = u16::try_from(n.domain) {
                names.insert((d, n.operation), string(n.name));
            }
        }
        ActivityEvents { clock: ClockMap::new(self.clock), names, ..Default::default() }
    }
}

/// Second-pass state: converts activity records into model records.
#[derive(Default)]
pub(super) struct ActivityEvents {
    clock: ClockMap,
    names: HashMap<(u16, u32), StringId>,
    /// ROCTx push/pop and start/stop pairing.
    pub(super) markers: Markers,
    /// HIP stream handles -> rocprofv3's small stream ids.
    pub(super) streams: StreamIds,
}

/// rocprofv3's `Stream_Id`s: 0 for the default (NULL) stream, then 1, 2, ... for HIP stream
/// handles in the order they are first seen.
#[derive(Debug, Default)]
pub(super) struct StreamIds(HashMap<u64, u64>);

impl StreamIds {
    /// The id of stream handle `handle`.
    pub(super) fn id(&mut self, handle: u64) -> u64 {
        if handle == 0 {
            return 0;
        }
        let next = self.0.len() as u64 + 1;
        *self.0.entry(handle).or_insert(next)
    }
}

fn fixed<R: FixedRecord>(body: &[u8]) -> Option<R> {
    (body.len() >= R::BODY_SIZE).then(|| R::read_body(body))
}

/// How the second pass resolves references of activity records.
pub(super) struct Resolve<'a> {
    /// Agent handle -> agent id.
    pub(super) agent: &'a dyn Fn(u64) -> Option<AgentId>,
    /// Capture string id -> string id.
    pub(super) string: &'a dyn Fn(u32) -> StringId,
    /// The capture's clock domain.
    pub(super) domain: ClockDomain,
}

impl ActivityEvents {
    fn time(&self, v: u64, flags: u32, domain: ClockDomain) -> Timestamp {
        let ns = if flags & TIME_TSC != 0 { self.clock.to_ns(v) } else { v };
        Timestamp { ns, domain }
    }

    /// Second pass: the model record of one activity record (`Some(None)` when it is held back:
    /// a marker range still open), `None` when the body is undecodable (or `kind` is not an
    /// activity event).
    pub(super) fn decode(
        &mut self,
        kind: RecordKind,
        body: &[u8],
        strings: &mut StringTable,
        r: &Resolve<'_>,
    ) -> Option<Option<Record>> {
        let d = r.domain;
        match kind {
            RecordKind::ApiCall | RecordKind::ApiCallShort => {
                let (h, at) = if kind == RecordKind::ApiCall {
                    (fixed::<ApiCallRecord>(body)?, ApiCallRecord::BODY_SIZE)
                } else {
                    (ApiCallRecord::from_short(body)?, ApiCallRecord::SHORT_BODY_SIZE)
                };
                let room = (body.len() - at) / 8;
                if h.nargs as usize > room {
                    return None;
                }
                let domain = u16::try_from(h.domain).ok().and_then(ApiDomain::from_u16)?;
                let n = (h.nargs as usize).min(MAX_API_ARGS);
                let args: Box<[u64]> = (0..n).map(|i| <u64 as Field>::get(&body[at + 8 * i..])).collect();
                let name = *self.names.entry((domain.as_u16(), h.operation)).or_insert_with(|| {
                    match domain.operation_name(h.operation) {
                        Some(n) => strings.intern(n),
                        None => strings.intern(&format!("{}_OPERATION_{}", domain.as_str(), h.operation)),
                    }
                });
                let start = self.time(h.start, h.flags, d);
                let mut end = self.time(h.end, h.flags, d);
                if domain.family() != ApiFamily::Marker && end.ns <= start.ns && start.ns != 0 {
                    // A call shorter than the clock resolves still took time: 1 ns, not an
                    // instant (rocpd stores instants as samples, so the databases and the JSON
                    // would disagree on the call count; rocprofv3 never sees a 0 ns call).
                    end.ns = start.ns + 1;
                }
                let call = ApiCall {
                    domain,
                    operation: h.operation,
                    name,
                    message: if h.message == 0 { StringId::EMPTY } else { (r.string)(h.message) },
                    thread: ThreadId(h.tid),
                    correlation: Correlation {
                        internal: CorrelationId(h.correlation_id),
                        ancestor: CorrelationId(h.ancestor_id),
                        external: h.external_id,
                    },
                    start,
                    end,
                    return_value: h.ret,
                    args,
                };
                // Marker pushes and starts are held until their range closes.
                Some(self.markers.on_call(call, strings).map(Record::ApiCall))
            }
            RecordKind::MemoryCopy => {
                let c = fixed::<MemoryCopyRecord>(body)?;
                let ok = c.status == COPY_OK;
                Some(Some(Record::MemoryCopy(MemoryCopy {
                    direction: MemoryCopyDirection::from_u32(c.direction),
                    thread: ThreadId(c.tid),
                    correlation: Correlation {
                        internal: CorrelationId(c.correlation_id),
                        ancestor: CorrelationId(c.ancestor_id),
                        external: c.external_id,
                    },
                    start: Timestamp { ns: if ok { c.start_ns } else { 0 }, domain: d },
                    end: Timestamp { ns: if ok { c.end_ns } else { 0 }, domain: d },
                    src_agent: (r.agent)(c.src_agent).unwrap_or_default(),
                    dst_agent: (r.agent)(c.dst_agent).unwrap_or_default(),
                    src_address: c.src_address,
                    dst_address: c.dst_address,
                    bytes: c.bytes,
                    stream: StreamId(self.streams.id(c.stream_id)),
                })))
            }
            RecordKind::MemoryAllocation => {
                let a = fixed::<MemoryAllocationRecord>(body)?;
                let operation = MemoryAllocationOp::from_u32(a.operation);
                Some(Some(Record::MemoryAllocation(MemoryAllocation {
                    operation,
                    thread: ThreadId(a.tid),
                    correlation: Correlation {
                        internal: CorrelationId(a.correlation_id),
                        ancestor: CorrelationId(a.ancestor_id),
                        external: a.external_id,
                    },
                    start: self.time(a.start, a.flags, d),
                    end: self.time(a.end, a.flags, d),
                    agent: if operation.is_allocation() { (r.agent)(a.agent_handle) } else { None },
                    address: a.address,
                    size: a.size,
                    stream: StreamId(self.streams.id(a.stream_id)),
                })))
            }
            RecordKind::ScratchMemory => {
                let s = fixed::<ScratchMemoryRecord>(body)?;
                Some(Some(Record::ScratchMemory(ScratchMemory {
                    operation: ScratchMemoryOp::from_u32(s.operation),
                    thread: ThreadId(s.tid),
                    correlation: Correlation {
                        internal: CorrelationId(s.correlation_id),
                        ancestor: CorrelationId(s.ancestor_id),
                        external: 0,
                    },
                    start: self.time(s.start, s.flags, d),
                    end: self.time(s.end, s.flags, d),
                    agent: (r.agent)(s.agent_handle).unwrap_or_default(),
                    queue: QueueId(s.queue_id),
                    flags: s.alloc_flags,
                    size: s.size,
                })))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_words_and_arguments_are_the_bytes_write_with_args_writes() {
        let h = ApiCallRecord {
            correlation_id: 0x0102_0304_0506_0708,
            ancestor_id: 2,
            external_id: 3,
            start: 4,
            end: 5,
            ret: u64::MAX - 1,
            domain: 0xA1,
            operation: 0xB2,
            tid: 0xC3,
            nargs: 0,
            message: 0xD4,
            flags: 0xE5,
        };
        for n in [0usize, 1, 5, MAX_API_ARGS] {
            let args: Vec<u64> = (0..n as u64).map(|i| i * 0x1111 + 7).collect();
            let words: Vec<u64> = h.header_words(n).into_iter().chain(args.iter().copied()).collect();
            let mut rec = Vec::new();
            push_api_call(&mut rec, &h, &args);
            let body: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(&rec[FRAME_SIZE..], &body[..], "{n} arguments");
            let sum = u32::from_le_bytes(rec[4..8].try_into().unwrap());
            assert_eq!(super::super::format::record_checksum(&body), sum);
        }
    }

    #[test]
    fn ticks_interpolate_between_sync_points_and_extrapolate_outside() {
        let m = ClockMap::new(vec![(2000, 1_000), (1000, 500), (3000, 1_600), (2500, 900)]);
        // (2500, 900) goes backwards in ns and is dropped.
        assert_eq!(m.to_ns(1000), 500);
        assert_eq!(m.to_ns(1500), 750);
        assert_eq!(m.to_ns(2500), 1_300);
        // Overall rate: 1100 ns over 2000 ticks.
        assert_eq!(m.to_ns(5000), 1_600 + 1_100);
        assert_eq!(m.to_ns(0), 0);
        assert_eq!(ClockMap::default().to_ns(77), 0);
        assert!(ClockMap::default().is_empty());
    }

    #[test]
    fn api_records_carry_exactly_their_argument_words() {
        let h = ApiCallRecord { correlation_id: 9, domain: 1, operation: 6, nargs: 3, tid: 5, ..Default::default() };
        let total = ApiCallRecord::total_size(3);
        assert_eq!(total, FRAME_SIZE + ApiCallRecord::BODY_SIZE + 24);
        let mut body = vec![0u8; total - FRAME_SIZE];
        h.write_with_args(&[1, 2, u64::MAX], &mut body);
        let mut ev = ActivityEvents::default();
        let mut strings = StringTable::new();
        let r = Resolve { agent: &|_| None, string: &|_| StringId::EMPTY, domain: ClockDomain::Boottime };
        let Some(Some(Record::ApiCall(call))) = ev.decode(RecordKind::ApiCall, &body, &mut strings, &r) else {
            panic!("not an API call")
        };
        assert_eq!(&*call.args, &[1, 2, u64::MAX]);
        assert_eq!(strings.resolve(call.name), "hsa_agent_get_info");
        // A call the clock could not resolve (end == start) lasts 1 ns; a marker's stays as it is.
        let quick = ApiCallRecord { start: 700, end: 700, nargs: 0, ..h };
        let mut short = vec![0u8; ApiCallRecord::total_size(0) - FRAME_SIZE];
        quick.write_with_args(&[], &mut short);
        let Some(Some(Record::ApiCall(call))) = ev.decode(RecordKind::ApiCall, &short, &mut strings, &r) else {
            panic!("not an API call")
        };
        assert_eq!((call.start.ns, call.end.ns), (700, 701));
        // A header claiming more words than the record holds is undecodable.
        let bad = ApiCallRecord { nargs: 4, ..h };
        bad.write_body(&mut body);
        assert!(ev.decode(RecordKind::ApiCall, &body, &mut strings, &r).is_none());
    }

    #[test]
    fn a_call_without_external_id_return_value_or_message_is_written_short_and_reads_back_the_same() {
        let r = Resolve { agent: &|_| None, string: &|_| StringId::EMPTY, domain: ClockDomain::Boottime };
        let decode = |kind: RecordKind, body: &[u8]| {
            let mut ev = ActivityEvents::default();
            let mut strings = StringTable::new();
            match ev.decode(kind, body, &mut strings, &r) {
                Some(Some(Record::ApiCall(call))) => {
                    let name = strings.resolve(call.name).to_owned();
                    Some((call, name))
                }
                _ => None,
            }
        };
        let id = u64::MAX - 3;
        let base = ApiCallRecord {
            correlation_id: id,
            ancestor_id: 0,
            start: 1_000,
            end: 1_250,
            domain: 1,
            operation: 6,
            tid: u32::MAX - 1,
            flags: TIME_TSC,
            ..Default::default()
        };
        let furthest = id - ((1 << 24) - 1);
        let longest = 1_000 + u64::from(u32::MAX);
        for h in [
            base,
            ApiCallRecord { ancestor_id: id - 1, ..base },
            ApiCallRecord { ancestor_id: furthest, end: longest, operation: 0xFFFF, ..base },
        ] {
            for n in [0usize, 1, 3, MAX_API_ARGS] {
                let args: Vec<u64> = (0..n as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1).collect();
                let mut rec = Vec::new();
                push_api_call(&mut rec, &h, &args);
                let word = u32::from_le_bytes(rec[..4].try_into().unwrap());
                assert_eq!(word & 0xFFFF, RecordKind::ApiCallShort as u32, "{h:?}, {n} arguments: short form");
                assert_eq!(rec.len(), FRAME_SIZE + ApiCallRecord::SHORT_BODY_SIZE + 8 * n);
                // The oracle is the nine-word form of the same call.
                let full = ApiCallRecord { nargs: n as u32, ..h };
                let mut long = vec![0u8; ApiCallRecord::total_size(n) - FRAME_SIZE];
                full.write_with_args(&args, &mut long);
                let (a, b) = (decode(RecordKind::ApiCallShort, &rec[FRAME_SIZE..]), decode(RecordKind::ApiCall, &long));
                assert!(a.is_some());
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{h:?}, {n} arguments");
                // A record claiming more arguments than it holds is undecodable.
                if n > 0 {
                    assert!(decode(RecordKind::ApiCallShort, &rec[FRAME_SIZE..rec.len() - 8]).is_none());
                }
            }
        }
        // Anything the short form cannot carry keeps the long one.
        for h in [
            ApiCallRecord { external_id: 7, ..base },
            ApiCallRecord { ret: 1, ..base },
            ApiCallRecord { message: 3, ..base },
            ApiCallRecord { flags: 0x100, ..base },
            ApiCallRecord { domain: 0x100, ..base },
            ApiCallRecord { operation: 0x1_0000, ..base },
            ApiCallRecord { end: longest + 1, ..base },
            ApiCallRecord { end: base.start - 1, ..base },
            ApiCallRecord { ancestor_id: furthest - 1, ..base },
            ApiCallRecord { ancestor_id: id + 1, ..base },
            ApiCallRecord { correlation_id: 0, ancestor_id: 5, ..base },
        ] {
            let mut rec = Vec::new();
            push_api_call(&mut rec, &h, &[5]);
            assert_eq!(u32::from_le_bytes(rec[..4].try_into().unwrap()) & 0xFFFF, RecordKind::ApiCall as u32);
            assert!(h.short_header_words(1).is_none(), "{h:?}");
        }
    }
}
