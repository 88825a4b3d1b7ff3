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
//!
//! Environment (set by the CLI): the launch contract of `rocprof_launch` (one type per setting,
//! every variable in `rocprof_launch::names`), decoded once by [`env`]: the capture directory
//! (required; the capture is `<dir>/<pid>.rpcap`), the traced domains, the log level, the buffer
//! policy, completion gating (see [`queue`]), counter collection (see [`pmc`]), thread trace
//! ([`att`]), PC sampling ([`pcsamp`]) and collection periods ([`period`]). Tests only: the KFD
//! topology directory agents are enriched from (see [`agents`]), table capacities (see
//! [`state::Limits`]) and fault injection (see [`fault`]).
//!
//! Architecture invariants:
//!
//! * Code reachable from a hook after `OnLoad` does not allocate, lock or make system calls on
//!   the per-dispatch path (`tests/it/hot_path.rs` checks this with a counting allocator); all
//!   tables are preallocated in `OnLoad`, the writer thread does the file upkeep and grows the
//!   signal pool.
//! * Every C entry point is in [`exports`] and runs in [`guard::ffi_guard`]: a panic disables the
//!   tool and the original function runs instead; the application's status codes pass through.
//! * The application's packets reach the runtime unchanged except for the completion signal,
//!   which moves to a trailing barrier packet (`tests/e2e/packets.rs` compares dispatch logs).
//! * Nothing that was committed to the capture is lost when the process dies: the file is the
//!   buffer.

pub mod agents;
pub mod api;
pub mod aql;
pub mod att;
pub mod clock;
pub mod code_object;
pub mod diag;
pub mod env;
pub mod exports;
pub mod fault;
pub mod guard;
pub mod hip;
pub mod host_functions;
pub mod hsa_api;
pub mod kernel_map;
pub mod kokkosp;
pub mod load;
pub mod memory;
pub mod mpmc;
pub mod padded;
pub mod pcsamp;
pub mod period;
pub mod pmc;
pub mod queue;
pub mod register;
pub mod roctx;
pub mod scratch;
pub mod sink;
pub mod state;
pub mod tables;
mod thread;
pub mod timer;
