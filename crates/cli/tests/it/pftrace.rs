//! A small reader of Perfetto traces for the CLI tests: the slices and instants of a `.pftrace`
//! with their category, name and track name. It walks the protobuf wire format with the field
//! numbers of Perfetto's `trace.proto`, `trace_packet.proto`, `track_event.proto`,
//! `track_descriptor.proto`, `thread_descriptor.proto` and `interned_data.proto`.

use std::collections::HashMap;
use std::path::Path;

/// One slice begin or instant: (category, name, track name).
pub(crate) type Slice = (String, String, String);

/// A field's value: a varint, or the bytes of a length-delimited field (fixed-size ones are skipped).
enum Value<'a> {
    Int(u64),
    Bytes(&'a [u8]),
    Fixed,
}

fn varint(b: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = b[*at];
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            break;
        }
    }
    v
}

/// The (field number, value) pairs of one message.
fn fields(b: &[u8]) -> Vec<(u64, Value<'_>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let key = varint(b, &mut at);
        let value = match key & 7 {
            0 => Value::Int(varint(b, &mut at)),
            1 => {
                at += 8;
                Value::Fixed
            }
            2 => {
                let n = varint(b, &mut at) as usize;
                at += n;
                Value::Bytes(&b[at - n..at])
            }
            5 => {
                at += 4;
                Value::Fixed
            }
            w => panic!("wire type {w} at byte {at}: not a Perfetto trace"),
        };
        out.push((key >> 3, value));
    }
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Repeated uint64 values of field `n`, packed or not.
fn ints(f: &[(u64, Value<'_>)], n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for (k, v) in f.iter().filter(|(k, _)| *k == n) {
        match v {
            Value::Int(x) => out.push(*x),
            Value::Bytes(b) => {
                let mut at = 0;
                while at < b.len() {
                    out.push(varint(b, &mut at));
                }
            }
            Value::Fixed => panic!("field {k}: fixed-size, expected uint64"),
        }
    }
    out
}

fn int(f: &[(u64, Value<'_>)], n: u64) -> Option<u64> {
    ints(f, n).last().copied()
}

/// The bytes of every length-delimited field `n` (they borrow the trace, not `f`).
fn bytes<'a>(f: &[(u64, Value<'a>)], n: u64) -> Vec<&'a [u8]> {
    f.iter()
        .filter(|(k, _)| *k == n)
        .filter_map(|(_, v)| match v {
            Value::Bytes(b) => Some(*b),
            _ => None,
        })
        .collect()
}

/// `(iid, name)` of interned entries (EventCategory / EventName: iid 1, name 2).
fn interned(b: &[u8]) -> (u64, String) {
    let f = fields(b);
    (int(&f, 1).unwrap_or(0), bytes(&f, 2).first().map(|b| text(b)).unwrap_or_default())
}

/// Every slice begin and instant of the trace at `path`, its track named by its descriptor (the
/// descriptor's name, else its thread's name).
pub(crate) fn slices(path: &Path) -> Vec<Slice> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut names, mut cats, mut tracks) = (HashMap::new(), HashMap::new(), HashMap::new());
    let mut events = Vec::new();
    // Trace: repeated TracePacket packet = 1.
    for packet in bytes(&fields(&data), 1).into_iter().map(fields) {
        // TracePacket: interned_data = 12, track_descriptor = 60, track_event = 11.
        for d in bytes(&packet, 12).into_iter().map(fields) {
            cats.extend(bytes(&d, 1).into_iter().map(interned));
            names.extend(bytes(&d, 2).into_iter().map(interned));
        }
        for d in bytes(&packet, 60).into_iter().map(fields) {
            // TrackDescriptor: uuid = 1, name = 2, static_name = 10, thread = 4 (thread_name = 5).
            let thread_name = || bytes(&d, 4).first().and_then(|t| bytes(&fields(t), 5).first().map(|b| text(b)));
            let name = bytes(&d, 2).into_iter().chain(bytes(&d, 10)).next().map(text).or_else(thread_name);
            tracks.insert(int(&d, 1).unwrap_or(0), name.unwrap_or_default());
        }
        for e in bytes(&packet, 11).into_iter().map(fields) {
            // TrackEvent: type = 9 (1 slice begin, 3 instant), track_uuid = 11, category_iids = 3,
            // categories = 22, name_iid = 10, name = 23.
            if !matches!(int(&e, 9), Some(1 | 3)) {
                continue;
            }
            let mut cat: Vec<String> = ints(&e, 3).iter().map(|i| cats.get(i).cloned().unwrap_or_default()).collect();
            cat.extend(bytes(&e, 22).into_iter().map(text));
            let name = match int(&e, 10) {
                Some(i) => names.get(&i).cloned().unwrap_or_default(),
                None => bytes(&e, 23).first().map(|b| text(b)).unwrap_or_default(),
            };
            events.push((cat.join(","), name, int(&e, 11).unwrap_or(0)));
        }
    }
    events
        .into_iter()
        .map(|(c, n, t)| (c, n, tracks.get(&t).cloned().unwrap_or_else(|| format!("<undeclared {t}>"))))
        .collect()
}
