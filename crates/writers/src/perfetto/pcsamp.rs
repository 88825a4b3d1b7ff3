//! PC samples in a written Perfetto trace: one counter track per sampled GPU, `PC samples
//! (<method>) <agent>`, holding each dispatch's sample count from its start to its end (0 in
//! between dispatches). The CLI appends these packets to the `.pftrace` file after the writer
//! finished (PC samples are resolved to dispatches only once every record was read): a trace is
//! `repeated TracePacket packet = 1`, so packets appended to a complete trace are part of it. They
//! use their own packet sequence ([`SEQUENCE_ID`]), cleared at its first packet, and interned nothing.

use super::proto::{self, event, packet, track};

/// The packet sequence of the appended packets (the writer's is 1).
pub const SEQUENCE_ID: u64 = 0x5043;

/// One counter track: its uuid (unique in the trace), name and points `(ns, value)` in time order.
#[derive(Debug, Clone, Default)]
pub struct CounterTrack {
    /// Track uuid.
    pub uuid: u64,
    /// Track name.
    pub name: String,
    /// Points, in time order.
    pub points: Vec<(u64, i64)>,
}

/// The trace packets of `tracks` (field 1 of `Trace` each), ready to append to a trace file.
pub fn counter_track_packets(tracks: &[CounterTrack]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut first = true;
    let mut body = Vec::new();
    let mut inner = Vec::new();
    let wrap = |out: &mut Vec<u8>, body: &[u8]| proto::bytes(out, proto::TRACE_PACKET, body);
    for t in tracks {
        body.clear();
        proto::uint(&mut body, packet::TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
        if first {
            proto::uint(&mut body, packet::SEQUENCE_FLAGS, packet::SEQ_INCREMENTAL_STATE_CLEARED);
            first = false;
        }
        inner.clear();
        proto::uint(&mut inner, track::UUID, t.uuid);
        proto::string(&mut inner, track::NAME, &t.name);
        proto::bytes(&mut inner, track::COUNTER, &[]);
        proto::bytes(&mut body, packet::TRACK_DESCRIPTOR, &inner);
        wrap(&mut out, &body);
        for &(ts, value) in &t.points {
            body.clear();
            proto::uint(&mut body, packet::TIMESTAMP, ts);
            proto::uint(&mut body, packet::TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
            inner.clear();
            proto::uint(&mut inner, event::TYPE, event::TYPE_COUNTER);
            proto::uint(&mut inner, event::TRACK_UUID, t.uuid);
            proto::int(&mut inner, event::COUNTER_VALUE, value);
            proto::bytes(&mut body, packet::TRACK_EVENT, &inner);
            wrap(&mut out, &body);
        }
    }
    out
}
