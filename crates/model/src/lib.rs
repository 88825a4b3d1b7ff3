//! rocprof-model: the records shared by the interception library, the writers and the CLI, and
//! the versioned capture format that carries them from the profiled process to the CLI.
#![forbid(unsafe_code)]

pub mod capture;
pub mod records;
