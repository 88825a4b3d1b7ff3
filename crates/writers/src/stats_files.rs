//! The one writer behind every statistics output: it feeds a [`Statistics`] accumulator while
//! records stream by and, unless it only collects (for the `-S` summary tables), writes the
//! accumulator's CSV files at the end.

use std::path::PathBuf;

use rocprof_model::Record;

use crate::{OutputLocation, Result, Session, Writer};

/// Statistics accumulated while records stream by, written as CSV files at the end.
pub trait Statistics: std::fmt::Debug + Send {
    /// The writer's name, for messages.
    const NAME: &'static str;

    /// No records yet.
    fn empty() -> Self;

    /// Adds one record (kinds without statistics are ignored).
    fn add_record(&mut self, session: &Session<'_>, record: &Record);

    /// The files to write, as (file name, text); none when nothing was collected.
    fn files(&self) -> Vec<(&'static str, String)>;
}

/// Collects [`Statistics`] and writes their files (see the module docs).
#[derive(Debug)]
pub struct StatsFiles<S> {
    out: Option<OutputLocation>,
    acc: S,
}

impl<S: Statistics> StatsFiles<S> {
    /// Collects statistics and writes their CSV files under `out`.
    pub fn new(out: OutputLocation) -> Self {
        Self { out: Some(out), acc: S::empty() }
    }

    /// Collects statistics without writing files (for the summary tables).
    pub fn collect_only() -> Self {
        Self { out: None, acc: S::empty() }
    }

    /// The statistics collected so far.
    pub fn stats(&self) -> &S {
        &self.acc
    }
}

impl<S: Statistics> Writer for StatsFiles<S> {
    fn name(&self) -> &'static str {
        S::NAME
    }

    fn begin(&mut self, _session: &Session<'_>) -> Result<()> {
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
        self.acc.add_record(session, record);
        Ok(())
    }

    fn finish(&mut self, _session: &Session<'_>) -> Result<Vec<PathBuf>> {
        let Some(out) = self.out.as_ref() else { return Ok(Vec::new()) };
        let mut files = Vec::new();
        for (name, text) in self.acc.files() {
            let mut f = out.create(name)?;
            f.write_all(text.as_bytes())?;
            files.push(f.commit()?);
        }
        Ok(files)
    }
}
