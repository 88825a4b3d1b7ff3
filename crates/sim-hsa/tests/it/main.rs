//! Integration tests of hsa-sim (`libhsa-runtime64.so.1`) through real programs: the fixture C
//! applications, Debian's `rocminfo` and an `HSA_TOOLS_LIB` tool, all from `fixtures/`.
//!
//! Everything except `code_objects` runs staged artifacts and needs `ROCPROF_RS_STAGE` (set by
//! `cargo xtask test`); without it those tests print why they skipped and pass (under `CI=true` they fail), so plain
//! `cargo test` works on a machine that has built nothing.

mod bad_input;
mod code_objects;
mod programs;
mod rocminfo;
mod support;
mod tools;
