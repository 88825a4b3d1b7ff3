//! Fuzz target: gfx9 (Gfx9) trace streams and code objects.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let header = 0x0000_0000_000f_8011u64.to_le_bytes();
    common::run(rocprof_sqtt::Family::Gfx9, &header, data);
});
