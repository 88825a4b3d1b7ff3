//! The contract every output format implements: [`Writer`], the [`Session`] it consults, and the
//! crate's [`Error`].

use std::path::PathBuf;

use rocprof_model::{Record, StringTable};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be created or written.
    #[error("cannot write {}", path.display())]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// SQLite rejected a statement while writing a database.
    #[error("sqlite error while {what} in {}", path.display())]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// What the writer was doing.
        what: &'static str,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// A schema file in `schemas/` is inconsistent (missing statement, wrong column count).
    #[error("schema error: {0}")]
    Schema(String),
    /// The record source failed (reading a capture or a database).
    #[error("reading the records")]
    Source(#[source] rocprof_model::SourceError),
    /// A writer got records it cannot write (e.g. a second process into one database).
    #[error("{0}")]
    Unsupported(String),
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What every writer may consult while writing: the string table that the records'
/// [`rocprof_model::StringId`]s point into. Process facts arrive as [`Record::Process`].
#[derive(Debug, Clone, Copy)]
pub struct Session<'a> {
    /// Strings referenced by the records delivered so far (it grows as the stream goes on).
    pub strings: &'a StringTable,
}

/// A streaming output format. Configuration happens in each writer's constructor and is
/// frozen afterwards. Writers are `Send` so that [`crate::write_stream`] can run them side by side.
///
/// Each writer ignores record kinds it does not write (`_ => Ok(())`), so adding a kind to the
/// model never breaks a writer; writing it is one match arm.
pub trait Writer: Send {
    /// Short name for progress and error messages (`rocpd`, `csv`, ...).
    fn name(&self) -> &'static str;
    /// Called once before any record.
    fn begin(&mut self, session: &Session<'_>) -> Result<()>;
    /// Called once per record, in stream order ([`rocprof_model::stream`]).
    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()>;
    /// Called once at the end of a complete stream; returns the files written (none when there
    /// was no data). Files appear under their final names only here.
    fn finish(&mut self, session: &Session<'_>) -> Result<Vec<PathBuf>>;
    /// Called instead of [`Writer::finish`] when the stream is abandoned (the source failed, or
    /// there was nothing to write): drops partial files. Writers that keep files open between
    /// `begin` and `finish` must release them here.
    fn abandon(&mut self) {}
}
