//! rocprof-model: the records shared by the interception library, the writers and the CLI, and
//! the versioned capture format that carries them from the profiled process to the CLI.
//!
//! [`records`] holds plain owned values ([`Trace`], [`Agent`], [`KernelDispatch`], ...); they are
//! re-exported at the crate root. [`capture`] is the on-disk format written by the interception
//! library and decoded into a [`Trace`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod capture;
pub mod records;

pub use records::*;
