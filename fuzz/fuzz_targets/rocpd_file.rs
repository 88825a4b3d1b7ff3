//! Fuzz target: rocpd readers on mutated SQLite files. The input is the database file itself
//! (seed it with real databases our writer produced, see README.md); libFuzzer's byte mutations
//! give truncated, bit-flipped and spliced files. Every reader (`convert`, `summary`, `diff`,
//! `merge`) must answer with records or a typed one-line error.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "rocpd_common.rs"]
mod rocpd_common;

fuzz_target!(|data: &[u8]| {
    let db = rocpd_common::scratch().join("input.db");
    std::fs::write(&db, data).expect("writing the input database");
    rocpd_common::run_readers();
});
