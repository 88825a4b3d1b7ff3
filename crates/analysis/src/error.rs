//! The error type of the crate: every message is one line that names the file and says what is
//! wrong with it, because the CLI prints it as is (`rocprof-rs: error: ...`, exit status 2).

use std::path::PathBuf;

/// Errors of rocprof-analysis.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input path does not exist.
    #[error("{}: no such file or directory", path.display())]
    NotFound {
        /// The path given.
        path: PathBuf,
    },
    /// A directory given as input holds no database.
    #[error("{}: no rocpd databases (*.db) in this directory", path.display())]
    NoDatabases {
        /// The directory.
        path: PathBuf,
    },
    /// The file is not a rocpd database (not SQLite, or SQLite without the rocpd tables).
    #[error("{}: not a rocpd database ({why})", path.display())]
    NotRocpd {
        /// The file.
        path: PathBuf,
        /// What is missing or wrong.
        why: String,
    },
    /// The database has another rocpd schema version, or tables whose columns differ from
    /// rocpd schema version 3.
    #[error("{}: rocpd schema mismatch: {why}", path.display())]
    SchemaMismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// The database holds no records this command can use.
    #[error("{}: the database is empty ({why})", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
        /// What was looked for.
        why: String,
    },
    /// SQLite failed while reading or writing.
    #[error("{}: sqlite error while {what}: {source}", path.display())]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What the crate was doing.
        what: &'static str,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// An option value is unusable (a bad regular expression, a threshold out of range, ...).
    #[error("{0}")]
    Usage(String),
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A closure turning a rusqlite error into [`Error::Sqlite`] for `path`.
pub(crate) fn sqlite<'p>(path: &'p std::path::Path, what: &'static str) -> impl Fn(rusqlite::Error) -> Error + 'p {
    move |source| Error::Sqlite { path: path.to_path_buf(), what, source }
}
