//! What can go wrong between captured files and written outputs. Every error names the file it is
//! about, and a damaged trace also the byte offset where the damage is.

use std::path::PathBuf;

/// An error of thread-trace post-processing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// A trace file is damaged: it cannot be decoded as a whole, or holds a token that is not
    /// part of any trace format.
    #[error("{}: corrupt thread trace: {} at byte offset {}", path.display(), error.kind, error.offset)]
    Corrupt {
        /// The `.att` file.
        path: PathBuf,
        /// Where and what.
        error: rocprof_sqtt::DecodeError,
    },
    /// A trace file ends in the middle of a 32-byte trace unit: it was cut short after capture
    /// (hardware writes whole units).
    #[error("{}: truncated thread trace: {len} bytes is not a whole number of 32-byte trace units (cut at byte offset {offset})", path.display())]
    Truncated {
        /// The `.att` file.
        path: PathBuf,
        /// File length.
        len: u64,
        /// Where the last whole unit ends.
        offset: u64,
    },
    /// A code object is not a readable ELF file.
    #[error("{}: code object: {error}", path.display())]
    CodeObject {
        /// The `.out` / `.elf` file.
        path: PathBuf,
        /// What is wrong with it.
        error: rocprof_sqtt::DecodeError,
    },
    /// A metadata file could not be understood.
    #[error("{}: {what}", path.display())]
    Metadata {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// The traces do not say where any code object was loaded, so no instruction can be placed.
    #[error("{}: the trace has no code-object markers and no load address is known (expected rocprofv3's *_code_object_id_<id>.out files with a capture that announces them, or code.elf + meta.json)", path.display())]
    NoCode {
        /// The first `.att` file of the dispatch.
        path: PathBuf,
    },
    /// AMD's decoder failed or could not be loaded.
    #[error("{}: AMD's decoder: {source}", path.display())]
    Amd {
        /// The `.att` file (or the library path when loading failed).
        path: PathBuf,
        /// The backend's error.
        #[source]
        source: rocprof_sqtt_amd::Error,
    },
    /// Nothing to decode.
    #[error("{}: no thread-trace files found (expected *_shader_engine_<se>_<dispatch>.att with *_code_object_id_<id>.out, or seN.att with code.elf and meta.json)", path.display())]
    Empty {
        /// The directory searched.
        path: PathBuf,
    },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io { path: path.into(), source }
    }
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, Error>;
