//! rocprof-intercept: the interception library loaded into the profiled process.
//!
//! ROCr loads it as an HSA tool (`HSA_TOOLS_LIB`, with `LD_PRELOAD` for the same path) and calls
//! [`exports::OnLoad`] with the live `HsaApiTable`. The library negotiates the table layout by
//! version and size ([`tables`]), keeps copies of the original functions, and installs wrappers:
//!
//! * `hsa_queue_create`/`hsa_queue_destroy`: GPU queues become *intercept queues*; every packet the
//!   application submits passes through [`queue`], which records kernel dispatches and adds a
//!   profiling completion signal without changing what the application's packets do.
//! * `hsa_executable_freeze`/`hsa_executable_destroy`: loaded code objects and their kernel symbols
//!   are recorded ([`code_object`]) so dispatches can be named.
//!
//! Records go straight into a `MAP_SHARED` mapping of the capture file ([`sink`]) in the format of
//! `rocprof_model::capture`, so whatever was handed off survives a crash of the application.
//!
//! Not for: formatting output, SQLite, or anything the CLI does after the run.

pub mod agents;
pub mod clock;
pub mod code_object;
pub mod diag;
pub mod exports;
pub mod guard;
pub mod kernel_map;
pub mod load;
pub mod mpmc;
pub mod queue;
pub mod sink;
pub mod state;
pub mod tables;
