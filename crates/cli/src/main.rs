//! The `rocprof-rs` binary: everything lives in the library (`src/lib.rs`).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    rocprof_cli::main()
}
