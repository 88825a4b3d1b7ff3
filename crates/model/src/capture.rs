//! The versioned on-disk capture format that carries records from the interception library (in
//! the profiled process) to the CLI, and its reader.
//!
//! This module is shared by both sides: the interception library encodes records with the
//! allocation-free `write_body`/[`record_header_word`] functions below, straight into a
//! `MAP_SHARED` mapping of the capture file; the CLI decodes a finished (or crash-truncated)
//! file with [`read_capture`] into the owned records of [`crate::records`]. It is not for
//! anything else: writers never see these bytes.
//!
//! # Layout (all integers little-endian)
//!
//! ```text
//! [file header: HEADER_FIXED_SIZE fixed bytes, command line, agent section, zero padding
//!  up to header_size (a multiple of 4096)]
//! [chunk 0][chunk 1]...           each chunk_size bytes
//! ```
//!
//! * The fixed header ([`header`] offsets) holds the magic, the format version, an endianness
//!   marker, pid/ppid, the clock domain and counters the profiled process keeps updated *inside
//!   the mapping* (losses by [`LossReason`](crate::LossReason), end time, a clean-exit flag), so they survive a
//!   crash.
//! * The agent section is a sequence of ordinary records (strings and agents), written once when
//!   the tool loads.
//! * Every chunk belongs to one producer thread, which appends records to it in order. A chunk
//!   starts with a [`CHUNK_HEADER_SIZE`]-byte header ([`chunk`] offsets: magic, claim sequence,
//!   thread id, and the time that thread spent in hooks while it owned the chunk).
//! * A record is an 8-byte frame followed by its body. The first u32 of the frame is the *commit
//!   word* `kind | total_size << 16`; it is stored last, with release ordering, after the body.
//!   A zero commit word therefore means "never committed": the reader stops reading that chunk
//!   there, and counts a torn record if any byte after it is non-zero (a producer died while
//!   writing). The second u32 is the [`record_checksum`] of the body, so the reader can tell a
//!   damaged record from a good one: a damaged record is skipped and counted
//!   ([`LossReason::Damaged`](crate::LossReason::Damaged)), and reading resumes at the next intact record (a resync over
//!   8-byte boundaries that accepts only a frame whose checksum matches). `total_size` includes
//!   the frame and is a multiple of 8.
//! * Fixed-size records have one body size per kind ([`RecordKind`]); string records are
//!   `id u32, len u32, bytes, zero padding`. Other records refer to strings by capture-local id
//!   (0 = empty string).
//!
//! Unknown record kinds with a plausible size and a good checksum are skipped and counted as
//! damaged, so an older reader survives a newer writer's additions; incompatible changes bump
//! [`VERSION`].
//!
//! The reader ([`CaptureReader`]) streams: see its module for the two passes it makes.

// The record format is the leaf `format`; the module root only declares the parts and hands
// their names on, so every part imports the format and nothing imports back up.
mod activity;
pub mod demangle;
mod format;
pub mod host_function;
pub mod marker;
pub mod pcsamp;
mod reader;

pub use activity::*;
pub use format::*;
pub use host_function::HostFunctionRecord;
pub use reader::*;

#[cfg(test)]
mod tests;
