//! rocprof-writers: turns a [`Trace`](rocprof_model::Trace) into the files rocprofv3 users read.
//!
//! One module per format, all behind one streaming trait, [`Writer`]: `begin` once, `write`
//! once per [`Record`](rocprof_model::Record) of a record stream ([`rocprof_model::stream`]: process sections, parents
//! before children), `finish` once. [`write_stream`] runs several writers over one pass of a
//! [`rocprof_model::RecordSource`] in bounded memory; no writer holds the whole trace. Writers only format; derived values (durations, formatted names, LDS rounding) come
//! from `rocprof-model`. Table and column names come from `schemas/` (see [`schema`]).
//!
//! | module | files |
//! |---|---|
//! | [`rocpd`] | `<prefix>_results.db`, AMD rocpd SQLite schema version 3 |
//! | [`csv`] | `<prefix>_kernel_trace.csv`, `<prefix>_agent_info.csv` |
//! | [`json`] | `<prefix>_results.json` (rocprofv3's layout, schema in `schemas/json/`) |
//! | [`otf2`] | `<prefix>_results.otf2` + `.def` + `<prefix>_results/` (OTF2, through libotf2) |
//! | [`perfetto`] | `<prefix>_results.pftrace` (Perfetto, rocprofv3's track layout) |
//! | [`stats`] | `<prefix>_kernel_stats.csv`, `<prefix>_domain_stats.csv` (`--stats`), and the `-S` summary table |
//! | [`synthetic`] | synthetic traces for throughput measurements |
//!
//! ```no_run
//! use rocprof_writers::{write_trace, OutputLocation, Progress, Writer};
//! # fn demo(trace: &rocprof_model::Trace) -> rocprof_writers::Result<()> {
//! let out = OutputLocation::new("out", "host/1234");
//! let mut writers: Vec<Box<dyn Writer>> = vec![
//!     Box::new(rocprof_writers::rocpd::RocpdWriter::new(out.clone())),
//!     Box::new(rocprof_writers::csv::CsvWriter::new(out.clone())),
//! ];
//! let files = write_trace(trace, &mut writers, Progress::Hidden)?;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![recursion_limit = "256"]
#![warn(missing_docs)]

mod agent_object;
pub mod counter_stats;
pub mod csv;
mod host;
pub mod json;
pub mod json_schema;
pub mod kinds;
pub mod otf2;
pub mod perfetto;
mod pipeline;
pub use host::hostname;
pub use pipeline::{write_stream, write_trace, Outcome, Progress, StreamOptions, WriterResult};
mod numfmt;
pub mod rocpd;
pub mod rocpd_source;
pub mod schema;
pub mod stats;
pub mod stats_files;
pub mod synthetic;
mod writer;
pub use writer::{Error, Result, Session, Writer};

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Where output files go: `<dir>/<prefix>_<name>`, as rocprofv3 composes them. The prefix may
/// contain `/` (the default is `<hostname>/<pid>`); missing directories are created.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OutputLocation {
    dir: PathBuf,
    prefix: String,
}

impl OutputLocation {
    /// A location; `prefix` is used verbatim (placeholders must already be expanded).
    pub fn new(dir: impl Into<PathBuf>, prefix: impl Into<String>) -> Self {
        Self { dir: dir.into(), prefix: prefix.into() }
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file-name prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Path of the output file `name` (e.g. `kernel_trace.csv`): `<dir>/<prefix>_<name>`, or
    /// `<dir>/<name>` when the prefix is empty.
    pub fn file(&self, name: &str) -> PathBuf {
        if self.prefix.is_empty() {
            self.dir.join(name)
        } else {
            self.dir.join(format!("{}_{}", self.prefix, name))
        }
    }

    /// Starts the output file `name` under its partial name (see [`OutputFile`]), creating
    /// missing parent directories.
    pub fn create(&self, name: &str) -> Result<OutputFile> {
        let partial = PartialPath::prepare(self.file(name))?;
        let file = File::create(&partial.partial).map_err(|source| partial.io_error(source))?;
        Ok(OutputFile { file: BufWriter::with_capacity(1 << 16, file), partial })
    }
}

/// Creates the parent directory of `path` if needed.
fn create_parent(path: &Path) -> Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| Error::Io { path: parent.to_path_buf(), source })?;
    }
    Ok(())
}

/// The final path of an output file and the `<path>.partial` name it is written under.
///
/// Files are renamed into place only when complete, so a failed write (full disk, a corrupt
/// capture SQLite rejects, a crash) never leaves a truncated file under the name users and
/// scripts read, and never destroys the file a previous run left there. Dropped without
/// [`PartialPath::commit`], the partial file is removed.
#[derive(Debug)]
pub(crate) struct PartialPath {
    path: PathBuf,
    partial: PathBuf,
    committed: bool,
}

impl PartialPath {
    /// Creates the parent directory of `path` and removes a stale partial file of an earlier,
    /// interrupted run.
    pub(crate) fn prepare(path: PathBuf) -> Result<Self> {
        create_parent(&path)?;
        let mut partial = path.clone().into_os_string();
        partial.push(".partial");
        let this = Self { path, partial: PathBuf::from(partial), committed: false };
        match std::fs::remove_file(&this.partial) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(Error::Io { path: this.partial.clone(), source }),
        }
        Ok(this)
    }

    /// The name the file is written under.
    pub(crate) fn partial(&self) -> &Path {
        &self.partial
    }

    /// The final name.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// An I/O error about this output file (named by its final path).
    pub(crate) fn io_error(&self, source: std::io::Error) -> Error {
        Error::Io { path: self.path.clone(), source }
    }

    /// Renames the finished file to its final name and returns that name.
    pub(crate) fn commit(mut self) -> Result<PathBuf> {
        std::fs::rename(&self.partial, &self.path).map_err(|source| self.io_error(source))?;
        self.committed = true;
        Ok(std::mem::take(&mut self.path))
    }
}

impl Drop for PartialPath {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}

/// A text output file being written: buffered, under its partial name until
/// [`OutputFile::commit`] flushes it and renames it into place. Dropped without a commit (an
/// error on the way), it leaves nothing behind.
#[derive(Debug)]
pub struct OutputFile {
    file: BufWriter<File>,
    partial: PartialPath,
}

impl OutputFile {
    /// The final path (for messages).
    pub fn path(&self) -> &Path {
        self.partial.path()
    }

    /// Appends `bytes`; an error names the file.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        use std::io::Write as _;
        self.file.write_all(bytes).map_err(|source| self.partial.io_error(source))
    }

    /// Flushes and renames the file to its final name, which it returns.
    pub fn commit(mut self) -> Result<PathBuf> {
        use std::io::Write as _;
        self.file.flush().map_err(|source| self.partial.io_error(source))?;
        self.partial.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_file_names_follow_rocprofv3() {
        let out = OutputLocation::new("out", "host/42");
        assert_eq!(out.file("results.db"), Path::new("out/host/42_results.db"));
        let out = OutputLocation::new("out", "");
        assert_eq!(out.file("kernel_trace.csv"), Path::new("out/kernel_trace.csv"));
    }

    #[test]
    fn output_files_appear_under_their_name_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("rocprof-writers-unit-{}-partial", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = OutputLocation::new(&dir, "p");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(out.file("a.csv"), "previous run\n").unwrap();

        // Abandoned (an error on the way): the previous file survives, no partial file stays.
        let mut f = out.create("a.csv").unwrap();
        f.write_all(b"half a row").unwrap();
        assert!(dir.join("p_a.csv.partial").is_file());
        drop(f);
        assert_eq!(std::fs::read_to_string(out.file("a.csv")).unwrap(), "previous run\n");
        assert!(!dir.join("p_a.csv.partial").exists());

        let mut f = out.create("a.csv").unwrap();
        f.write_all(b"new\n").unwrap();
        assert_eq!(f.commit().unwrap(), out.file("a.csv"));
        assert_eq!(std::fs::read_to_string(out.file("a.csv")).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
