//! Fuzz target: the capture-file reader (`rocprof_model::capture`), which reads files written by
//! a process that may have crashed mid-write, run out of disk, or been overwritten by anything.
//! Any input must decode to records plus loss counts, or to a typed error; never a panic, a hang
//! or a runaway allocation.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(cap) = rocprof_model::capture::parse_capture(data) {
        // Touch what the CLI reports, so that nothing is optimised away.
        std::hint::black_box(cap.trace.health.lost.total());
    }
});
