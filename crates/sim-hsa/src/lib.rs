#![doc = include_str!("../README.md")]
// Generated trampolines and table-facing functions use the C names and signatures of the HSA API.
#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments, unreachable_pub)]
// The crate keeps to the workspace MSRV (1.80), so newer helpers such as `is_multiple_of` are not used.
#![allow(clippy::manual_is_multiple_of, clippy::unnecessary_map_or)]

/// Prints one diagnostic line on stderr, prefixed `hsa-sim:` (cold paths only).
#[macro_export]
#[doc(hidden)]
macro_rules! diag {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = writeln!(::std::io::stderr().lock(), "hsa-sim: {}", format_args!($($arg)*));
    }};
}

mod abi;
mod agent;
mod aql;
mod clock;
mod code_object;
mod copy;
mod dispatch_log;
mod elf;
mod elide;
mod events;
mod exec;
mod exports;
mod faults;
mod ffi;
mod futex;
mod image_info;
mod images;
mod intercept;
mod kernel_args;
mod lifecycle;
mod loader;
mod memory;
mod packet;
mod pcs;
mod pm4;
mod profiling;
mod queue;
mod queue_api;
mod queue_scratch;
mod runtime;
mod scratch;
mod signal;
mod svm;
mod system_info;
mod table;
mod table_default;
#[cfg(test)]
mod testing;
mod tools;
mod topology;
mod unsupported;
mod write_watch;
