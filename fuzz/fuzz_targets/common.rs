//! Shared fuzz driver: the input is split into a code object and a trace stream.
//!
//! Byte 0 picks how many bytes of code follow (times 4); the rest is the stream body, decoded
//! both behind a valid header of the family (to reach the token state machines) and as-is (to
//! reach header validation). Any panic, hang or runaway allocation is a bug.

use rocprof_sqtt::{CodeObject, Decoder, Family};

pub fn run(family: Family, header: &[u8], data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else { return };
    let n = (usize::from(n) * 4).min(rest.len());
    let (text, body) = rest.split_at(n);
    let code = CodeObject::from_text(family, 0x1000, text, 0);
    let mut dec = Decoder::new(&code);
    let mut stream = header.to_vec();
    stream.extend_from_slice(body);
    if let Ok(d) = dec.decode(&stream) {
        assert!(d.occupancy.len() <= 8 * stream.len() + 64);
    }
    let _ = dec.decode(body);
    let _ = rocprof_sqtt::elf::text_section(body);
}
