//! Fuzz target: gfx11 (Gfx11) trace streams and code objects.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let header = (0x11u64 | (3 << 7)).to_le_bytes();
    common::run(rocprof_sqtt::Family::Gfx11, &header, data);
});
