//! Thread-trace (ATT) post-processing, shared by `rocprof-rs --att` (after the run) and
//! `rocprof-rs att-decode DIR` (traces captured elsewhere, e.g. by rocprofv3 on a GPU):
//!
//! 1. [`input::discover`] finds the captures in a directory (rocprofv3's
//!    `*_shader_engine_<se>_<dispatch>.att` + `*_code_object_id_<id>.out`, or the conformance
//!    corpus' `seN.att` + `code.elf` + `meta.json`);
//! 2. [`decode::decode_captures`] decodes every shader engine's stream, in parallel, with our
//!    decoder or AMD's (`Backend`); code objects are placed by the markers in the streams;
//! 3. [`listing::Listing`] numbers the traced kernels' instructions and sums the waves' records
//!    per instruction;
//! 4. [`ui::write`] writes rocprofv3's `ui_output_agent_<agent>_dispatch_<id>/` for AMD's
//!    ROCprof Compute Viewer and the `stats_*.csv` beside it; [`report`] renders the hotspot
//!    report for the terminal.
//!
//! Damaged input is an [`Error`] naming the file (and for traces the byte offset), never a panic.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod decode;
mod error;
pub mod input;
pub mod listing;
pub mod report;
pub mod ui;

pub use decode::{decode_captures, Backend, Decoded};
pub use error::{Error, Result};
pub use input::{discover, Capture};
pub use listing::Listing;
pub use report::{SeLoss, Summary};
