//! The few Perfetto protobuf messages we write, encoded by hand on prost's wire-format
//! primitives (no generated code: ~50 M packets/s and a build in seconds, against ~10 M/s and a
//! 150 s build for the `perfetto_protos` types, which the tests use to decode what we write).
//!
//! Each field number is a `const` whose doc is its line in Perfetto's `.proto` files
//! (`protos/perfetto/trace/...`). Nested messages are encoded into a scratch buffer first and
//! then appended with their length; packets are a few hundred bytes, so the copies are cheap.

use prost::encoding::WireType;

/// `trace.proto`: `repeated TracePacket packet = 1;`
pub(crate) const TRACE_PACKET: u32 = 1;

/// Fields of `trace_packet.proto` `TracePacket`.
pub(crate) mod packet {
    /// `optional uint64 timestamp = 8;`
    pub(crate) const TIMESTAMP: u32 = 8;
    /// `uint32 trusted_packet_sequence_id = 10;`
    pub(crate) const TRUSTED_PACKET_SEQUENCE_ID: u32 = 10;
    /// `TrackEvent track_event = 11;`
    pub(crate) const TRACK_EVENT: u32 = 11;
    /// `optional InternedData interned_data = 12;`
    pub(crate) const INTERNED_DATA: u32 = 12;
    /// `optional uint32 sequence_flags = 13;`
    pub(crate) const SEQUENCE_FLAGS: u32 = 13;
    /// `TrackDescriptor track_descriptor = 60;`
    pub(crate) const TRACK_DESCRIPTOR: u32 = 60;
    /// `SEQ_INCREMENTAL_STATE_CLEARED = 1;`
    pub(crate) const SEQ_INCREMENTAL_STATE_CLEARED: u64 = 1;
    /// `SEQ_NEEDS_INCREMENTAL_STATE = 2;`
    pub(crate) const SEQ_NEEDS_INCREMENTAL_STATE: u64 = 2;
}

/// Fields of `interned_data/interned_data.proto` `InternedData` and the entries it holds
/// (`EventCategory`, `EventName`, `DebugAnnotationName`: `optional uint64 iid = 1;`,
/// `optional string name = 2;`).
pub(crate) mod interned {
    /// `repeated EventCategory event_categories = 1;`
    pub(crate) const EVENT_CATEGORIES: u32 = 1;
    /// `repeated EventName event_names = 2;`
    pub(crate) const EVENT_NAMES: u32 = 2;
    /// `repeated DebugAnnotationName debug_annotation_names = 3;`
    pub(crate) const DEBUG_ANNOTATION_NAMES: u32 = 3;
    /// `optional uint64 iid = 1;`
    pub(crate) const IID: u32 = 1;
    /// `optional string name = 2;`
    pub(crate) const NAME: u32 = 2;
}

/// Fields of `track_event/track_event.proto` `TrackEvent`.
pub(crate) mod event {
    /// `repeated uint64 category_iids = 3;`
    pub(crate) const CATEGORY_IIDS: u32 = 3;
    /// `repeated DebugAnnotation debug_annotations = 4;`
    pub(crate) const DEBUG_ANNOTATIONS: u32 = 4;
    /// `optional Type type = 9;`
    pub(crate) const TYPE: u32 = 9;
    /// `uint64 name_iid = 10;`
    pub(crate) const NAME_IID: u32 = 10;
    /// `optional uint64 track_uuid = 11;`
    pub(crate) const TRACK_UUID: u32 = 11;
    /// `int64 counter_value = 30;`
    pub(crate) const COUNTER_VALUE: u32 = 30;
    /// `repeated uint64 flow_ids_old = 36 [deprecated = true];` — the field every trace
    /// processor version reads (v20-era processors ignore `flow_ids = 47`).
    pub(crate) const FLOW_IDS_OLD: u32 = 36;
    /// `double double_counter_value = 44;`
    pub(crate) const DOUBLE_COUNTER_VALUE: u32 = 44;
    /// `TYPE_SLICE_BEGIN = 1;`
    pub(crate) const TYPE_SLICE_BEGIN: u64 = 1;
    /// `TYPE_SLICE_END = 2;`
    pub(crate) const TYPE_SLICE_END: u64 = 2;
    /// `TYPE_INSTANT = 3;`
    pub(crate) const TYPE_INSTANT: u64 = 3;
    /// `TYPE_COUNTER = 4;`
    pub(crate) const TYPE_COUNTER: u64 = 4;
}

/// Fields of `track_event/debug_annotation.proto` `DebugAnnotation`.
pub(crate) mod annotation {
    /// `uint64 name_iid = 1;`
    pub(crate) const NAME_IID: u32 = 1;
    /// `bool bool_value = 2;`
    pub(crate) const BOOL_VALUE: u32 = 2;
    /// `uint64 uint_value = 3;`
    pub(crate) const UINT_VALUE: u32 = 3;
    /// `int64 int_value = 4;`
    pub(crate) const INT_VALUE: u32 = 4;
    /// `double double_value = 5;`
    pub(crate) const DOUBLE_VALUE: u32 = 5;
    /// `string string_value = 6;`
    pub(crate) const STRING_VALUE: u32 = 6;
    /// `uint64 pointer_value = 7;`
    pub(crate) const POINTER_VALUE: u32 = 7;
    /// `string name = 10;` (not interned: for keys outside the fixed table)
    pub(crate) const NAME: u32 = 10;
}

/// Fields of `track_event/track_descriptor.proto` `TrackDescriptor` and the descriptors in it.
pub(crate) mod track {
    /// `optional uint64 uuid = 1;`
    pub(crate) const UUID: u32 = 1;
    /// `string name = 2;`
    pub(crate) const NAME: u32 = 2;
    /// `optional ProcessDescriptor process = 3;`
    pub(crate) const PROCESS: u32 = 3;
    /// `optional ThreadDescriptor thread = 4;`
    pub(crate) const THREAD: u32 = 4;
    /// `optional uint64 parent_uuid = 5;`
    pub(crate) const PARENT_UUID: u32 = 5;
    /// `optional CounterDescriptor counter = 8;`
    pub(crate) const COUNTER: u32 = 8;
    /// `process_descriptor.proto`: `optional int32 pid = 1;`
    pub(crate) const PROCESS_PID: u32 = 1;
    /// `process_descriptor.proto`: `repeated string cmdline = 2;`
    pub(crate) const PROCESS_CMDLINE: u32 = 2;
    /// `process_descriptor.proto`: `optional string process_name = 6;`
    pub(crate) const PROCESS_NAME: u32 = 6;
    /// `thread_descriptor.proto`: `optional int32 pid = 1;`
    pub(crate) const THREAD_PID: u32 = 1;
    /// `thread_descriptor.proto`: `optional int32 tid = 2;`
    pub(crate) const THREAD_TID: u32 = 2;
    /// `thread_descriptor.proto`: `optional string thread_name = 5;`
    pub(crate) const THREAD_NAME: u32 = 5;
    /// `counter_descriptor.proto`: `optional Unit unit = 3;`
    pub(crate) const COUNTER_UNIT: u32 = 3;
    /// `counter_descriptor.proto`: `optional int64 unit_multiplier = 4;`
    pub(crate) const COUNTER_UNIT_MULTIPLIER: u32 = 4;
    /// `counter_descriptor.proto`: `UNIT_SIZE_BYTES = 3;`
    pub(crate) const UNIT_SIZE_BYTES: u64 = 3;
}

/// Appends a varint (the loop prost's `encode_varint` runs, on a `Vec` directly: prost's
/// generic `BufMut` path was a fifth of the writer's time).
#[inline]
pub(crate) fn varint(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push(v as u8 | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

/// Appends a field key.
#[inline]
fn key(buf: &mut Vec<u8>, field: u32, wire: WireType) {
    varint(buf, u64::from(field << 3 | wire as u32));
}

/// Appends a varint field.
#[inline]
pub(crate) fn uint(buf: &mut Vec<u8>, field: u32, v: u64) {
    key(buf, field, WireType::Varint);
    varint(buf, v);
}

/// Starts a length-delimited field whose content is encoded in place after it, with `reserve`
/// bytes (1-3) left for the length; returns where the content starts, for [`close`].
#[inline]
pub(crate) fn open(buf: &mut Vec<u8>, field: u32, reserve: usize) -> usize {
    key(buf, field, WireType::LengthDelimited);
    buf.extend_from_slice(&[0u8; 3][..reserve]);
    buf.len()
}

/// Writes the length of the field [`open`] started at `start`: in the reserved bytes (a shorter
/// length padded as a non-minimal varint, which protobuf parsers accept: Perfetto's own
/// protozero writer pads lengths the same way), or, when it needs more, moved to make room.
#[inline]
pub(crate) fn close(buf: &mut Vec<u8>, start: usize, reserve: usize) {
    let len = buf.len() - start;
    let at = start - reserve;
    if reserve == 1 && len < 0x80 {
        buf[at] = len as u8;
    } else if len < 1 << (7 * reserve) {
        for i in 0..reserve {
            let more = if i + 1 < reserve { 0x80 } else { 0 };
            buf[at + i] = (len >> (7 * i)) as u8 & 0x7f | more;
        }
    } else {
        let mut tmp = Vec::with_capacity(10);
        varint(&mut tmp, len as u64);
        buf.splice(at..start, tmp);
    }
}

/// Appends an `int64`/`int32` field (two's complement varint, as protobuf encodes them).
pub(crate) fn int(buf: &mut Vec<u8>, field: u32, v: i64) {
    uint(buf, field, v as u64);
}

/// Appends a `double` field.
pub(crate) fn double(buf: &mut Vec<u8>, field: u32, v: f64) {
    key(buf, field, WireType::SixtyFourBit);
    buf.extend_from_slice(&v.to_le_bytes());
}

/// Appends a length-delimited field (string, bytes or an encoded message).
pub(crate) fn bytes(buf: &mut Vec<u8>, field: u32, b: &[u8]) {
    key(buf, field, WireType::LengthDelimited);
    varint(buf, b.len() as u64);
    buf.extend_from_slice(b);
}

/// Appends a string field.
pub(crate) fn string(buf: &mut Vec<u8>, field: u32, s: &str) {
    bytes(buf, field, s.as_bytes());
}

/// Appends an interned entry (`iid`, `name`) as field `field` of `InternedData`.
pub(crate) fn interned_entry(buf: &mut Vec<u8>, field: u32, iid: u64, name: &str, scratch: &mut Vec<u8>) {
    scratch.clear();
    uint(scratch, interned::IID, iid);
    string(scratch, interned::NAME, name);
    bytes(buf, field, scratch);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_encode_as_protobuf_does() {
        let mut b = Vec::new();
        uint(&mut b, 8, 300);
        assert_eq!(b, [0x40, 0xAC, 0x02]);
        b.clear();
        int(&mut b, 4, -1);
        assert_eq!(b, [0x20, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]);
        b.clear();
        string(&mut b, 2, "ab");
        assert_eq!(b, [0x12, 2, b'a', b'b']);
        b.clear();
        double(&mut b, 5, 1.0);
        assert_eq!(b, [0x29, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F]);
        b.clear();
        uint(&mut b, 60, 1);
        assert_eq!(b, [0xE0, 0x03, 1], "field numbers above 15 take two key bytes");
        let mut want = Vec::new();
        for v in [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX] {
            b.clear();
            want.clear();
            varint(&mut b, v);
            prost::encoding::encode_varint(v, &mut want);
            assert_eq!(b, want, "{v}");
        }
    }

    #[test]
    fn nested_lengths_are_patched_in_place_or_moved() {
        for (len, reserve, want) in [
            (5usize, 1usize, vec![5u8]),
            (5, 2, vec![0x85, 0x00]),
            (300, 2, vec![0xAC, 0x02]),
            (300, 1, vec![0xAC, 0x02]),
            (20_000, 2, vec![0xA0, 0x9C, 0x01]),
        ] {
            let mut b = vec![0xEE];
            let start = open(&mut b, 1, reserve);
            b.extend(std::iter::repeat_n(7u8, len));
            close(&mut b, start, reserve);
            assert_eq!(b[1], 0x0A, "key of field 1, length-delimited");
            assert_eq!(&b[2..2 + want.len()], want.as_slice(), "{len} in {reserve}");
            assert_eq!(b.len(), 2 + want.len() + len);
            // A protobuf decoder reads the padded length as the same value.
            let mut rest = &b[2..];
            assert_eq!(prost::encoding::decode_varint(&mut rest).unwrap(), len as u64);
        }
    }
}
