//! [`write_stream`]: one pass over a [`RecordSource`] feeding every requested writer, in bounded
//! memory.
//!
//! The calling thread pulls records from the source into batches of [`BATCH_RECORDS`]; each
//! batch carries the strings interned since the previous one and goes, shared, to one thread per
//! writer through a channel of depth [`QUEUE_DEPTH`]. Each writer thread keeps its own replica of
//! the string table (interning a batch's new strings in order reproduces the source's ids), so
//! writers read names without locks. Memory is a few batches, whatever the trace size; the run
//! takes as long as the slowest writer (or the source), not the sum.
//!
//! A writer that fails stops on its own (its partial files are removed, see
//! [`crate::OutputFile`]) while the others carry on; the failure is in its [`WriterResult`]. A
//! source that fails abandons every writer.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use rocprof_model::{Record, RecordSource, StringTable, Trace};

use crate::writer::{Error, Result, Session, Writer};

/// Records per batch handed to the writer threads.
pub(crate) const BATCH_RECORDS: usize = 4096;
/// Batches queued per writer before the source waits for it.
pub(crate) const QUEUE_DEPTH: usize = 4;
/// Streams expected to be smaller than this are written without a progress bar: they finish in
/// well under a second and a flashing bar is noise.
const PROGRESS_MIN_RECORDS: u64 = 200_000;

/// Whether [`write_stream`] shows a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Progress {
    /// A bar on stderr when it is a terminal and the stream is large enough to take a while.
    #[default]
    Auto,
    /// Never.
    Hidden,
}

/// Settings of [`write_stream`].
#[derive(Debug, Clone, Default)]
pub struct StreamOptions {
    /// Progress bar policy when no `bar` is given.
    pub progress: Progress,
    /// The bar to drive (the CLI's, which knows when drawing is allowed); its length is set from
    /// the source's estimate as the stream goes on.
    pub bar: Option<indicatif::ProgressBar>,
    /// Text before the bar (default `writing outputs`).
    pub label: Option<String>,
    /// Finish the writers even when the stream held no event records ([`Record::is_event`]);
    /// by default such a stream writes no files.
    pub write_empty: bool,
}

/// What one writer produced.
#[derive(Debug)]
pub struct WriterResult {
    /// The writer's [`Writer::name`].
    pub name: &'static str,
    /// The files it wrote, or why it failed.
    pub result: Result<Vec<PathBuf>>,
}

/// What [`write_stream`] did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Records read from the source.
    pub records: u64,
    /// Of which events ([`Record::is_event`]).
    pub events: u64,
    /// Records by [`Record::kind`].
    pub kinds: Vec<(&'static str, u64)>,
    /// Per writer, in the order given.
    pub writers: Vec<WriterResult>,
}

impl Outcome {
    /// Records of one kind ([`Record::kind`]) read from the source.
    pub fn count(&self, kind: &str) -> u64 {
        self.kinds.iter().find(|(k, _)| *k == kind).map_or(0, |(_, n)| *n)
    }

    fn add(&mut self, r: &Record) {
        self.events += u64::from(r.is_event());
        let kind = r.kind();
        match self.kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => self.kinds.push((kind, 1)),
        }
    }

    /// Every file written, writer by writer.
    pub fn files(&self) -> Vec<PathBuf> {
        self.writers.iter().filter_map(|w| w.result.as_ref().ok()).flatten().cloned().collect()
    }

    /// The files, or the first writer's error.
    pub fn into_result(self) -> Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        for w in self.writers {
            files.extend(w.result?);
        }
        Ok(files)
    }
}

/// A batch of records and the strings interned while they were read.
#[derive(Debug, Default)]
struct Batch {
    strings: Vec<Box<str>>,
    records: Vec<Record>,
}

enum Msg {
    Batch(Arc<Batch>),
    /// The stream is complete: finish (true) or abandon (false, nothing to write).
    End(bool),
}

/// Runs one writer over the batches it receives. Without an `End` message (the source failed)
/// the writer is abandoned.
fn run_writer(w: &mut dyn Writer, rx: Receiver<Msg>) -> Result<Vec<PathBuf>> {
    let mut strings = StringTable::new();
    let r = (|| {
        w.begin(&Session { strings: &strings })?;
        for msg in rx {
            match msg {
                Msg::Batch(batch) => {
                    for s in &batch.strings {
                        strings.intern(s);
                    }
                    let session = Session { strings: &strings };
                    for r in &batch.records {
                        w.write(&session, r)?;
                    }
                }
                Msg::End(true) => return w.finish(&Session { strings: &strings }).map(Some),
                Msg::End(false) => return Ok(None),
            }
        }
        Ok(None)
    })();
    match r {
        Ok(Some(files)) => Ok(files),
        Ok(None) => {
            w.abandon();
            Ok(Vec::new())
        }
        Err(e) => {
            w.abandon();
            Err(e)
        }
    }
}

/// Streams every record of `source` through every writer (see the module docs). Returns `Err`
/// only when the source fails; writer failures are in the [`Outcome`].
pub fn write_stream(
    source: &mut dyn RecordSource,
    writers: &mut [&mut dyn Writer],
    options: &StreamOptions,
) -> Result<Outcome> {
    let show = options.bar.is_some() || (options.progress == Progress::Auto && std::io::stderr().is_terminal());
    let mut bar: Option<indicatif::ProgressBar> = options.bar.clone();
    let names: Vec<&'static str> = writers.iter().map(|w| w.name()).collect();
    std::thread::scope(|scope| {
        let mut senders = Vec::new();
        let mut handles = Vec::new();
        for w in writers.iter_mut() {
            let (tx, rx) = sync_channel::<Msg>(QUEUE_DEPTH);
            let w: &mut dyn Writer = &mut **w;
            handles.push(scope.spawn(move || run_writer(w, rx)));
            senders.push(Some(tx));
        }
        let mut strings = StringTable::new();
        let mut outcome = Outcome::default();
        let mut source_error = None;
        loop {
            let before = strings.len();
            let mut records = Vec::with_capacity(BATCH_RECORDS);
            let mut done = false;
            while records.len() < BATCH_RECORDS {
                match source.next_record(&mut strings) {
                    Ok(Some(r)) => {
                        outcome.add(&r);
                        records.push(r);
                    }
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    Err(e) => {
                        source_error = Some(e);
                        break;
                    }
                }
            }
            if source_error.is_some() {
                break;
            }
            outcome.records += records.len() as u64;
            let batch = Arc::new(Batch { strings: strings.since(before).map(Box::from).collect(), records });
            for tx in &mut senders {
                // A writer that failed has dropped its receiver: it is left out from now on.
                if tx.as_ref().is_some_and(|t| t.send(Msg::Batch(Arc::clone(&batch))).is_err()) {
                    *tx = None;
                }
            }
            if show {
                if let Some(hint) = source.len_hint() {
                    let total = outcome.records + hint;
                    let b = bar.get_or_insert_with(|| {
                        let b = indicatif::ProgressBar::hidden();
                        if total >= PROGRESS_MIN_RECORDS {
                            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                        }
                        b.set_style(
                            indicatif::ProgressStyle::with_template(&format!(
                                "{} [{{bar:40}}] {{pos}}/{{len}} records ({{per_sec}}, {{eta}} left)",
                                options.label.as_deref().unwrap_or("writing outputs")
                            ))
                            .expect("static progress template is valid")
                            .progress_chars("=> "),
                        );
                        b
                    });
                    b.set_length(total);
                    b.set_position(outcome.records);
                }
            }
            if done {
                break;
            }
        }
        if source_error.is_none() {
            let finish = outcome.events > 0 || options.write_empty;
            for tx in senders.iter().flatten() {
                let _ = tx.send(Msg::End(finish));
            }
        }
        drop(senders);
        for (h, name) in handles.into_iter().zip(&names) {
            let result = h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            outcome.writers.push(WriterResult { name, result });
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        match source_error {
            Some(e) => Err(Error::Source(e)),
            None => Ok(outcome),
        }
    })
}

/// Streams every record of `trace` through every writer and returns the files they wrote; the
/// first writer error is returned (after every writer ran). For tests and small traces; the CLI
/// streams from the capture with [`write_stream`].
pub fn write_trace(trace: &Trace, writers: &mut [Box<dyn Writer>], progress: Progress) -> Result<Vec<PathBuf>> {
    let mut refs: Vec<&mut dyn Writer> = writers.iter_mut().map(|w| &mut **w as &mut dyn Writer).collect();
    let options = StreamOptions { progress, ..StreamOptions::default() };
    write_stream(&mut trace.source(), &mut refs, &options)?.into_result()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OutputLocation;
    use rocprof_model::{DispatchId, KernelDispatch, SourceError, Trace};

    /// Counts what it is given; fails at the `fail_at`-th record when set.
    struct Counting {
        records: u64,
        names_seen: Vec<String>,
        fail_at: Option<u64>,
        finished: bool,
        abandoned: bool,
    }

    impl Counting {
        fn new(fail_at: Option<u64>) -> Self {
            Self { records: 0, names_seen: Vec::new(), fail_at, finished: false, abandoned: false }
        }
    }

    impl Writer for Counting {
        fn name(&self) -> &'static str {
            "counting"
        }
        fn begin(&mut self, _: &Session<'_>) -> Result<()> {
            Ok(())
        }
        fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
            self.records += 1;
            if Some(self.records) == self.fail_at {
                return Err(Error::Unsupported("disk full".into()));
            }
            if let Record::KernelSymbol(k) = record {
                self.names_seen.push(session.strings.resolve(k.formatted_name).to_owned());
            }
            Ok(())
        }
        fn finish(&mut self, _: &Session<'_>) -> Result<Vec<PathBuf>> {
            self.finished = true;
            Ok(vec![PathBuf::from("done")])
        }
        fn abandon(&mut self) {
            self.abandoned = true;
        }
    }

    fn trace(dispatches: u64) -> Trace {
        crate::synthetic::trace(dispatches)
    }

    #[test]
    fn every_writer_sees_every_record_with_its_strings() {
        let t = trace(10_000);
        let (mut a, mut b) = (Counting::new(None), Counting::new(None));
        let out = write_stream(
            &mut t.source(),
            &mut [&mut a, &mut b],
            &StreamOptions { progress: Progress::Hidden, ..Default::default() },
        )
        .unwrap();
        assert_eq!(out.records, t.record_count());
        assert_eq!(out.events, 10_000);
        assert_eq!(out.count("kernel_dispatch"), 10_000);
        assert_eq!(out.count("kernel_symbol"), crate::synthetic::KERNELS.len() as u64);
        for w in [&a, &b] {
            assert_eq!(w.records, t.record_count());
            assert_eq!(w.names_seen, crate::synthetic::KERNELS);
            assert!(w.finished && !w.abandoned);
        }
    }

    #[test]
    fn a_failing_writer_does_not_stop_the_others() {
        let t = trace(20_000);
        let (mut bad, mut good) = (Counting::new(Some(9_000)), Counting::new(None));
        let out = write_stream(&mut t.source(), &mut [&mut bad, &mut good], &StreamOptions::default()).unwrap();
        assert!(matches!(out.writers[0].result, Err(Error::Unsupported(_))));
        assert_eq!(out.writers[1].result.as_ref().unwrap(), &[PathBuf::from("done")]);
        assert!(bad.abandoned && !bad.finished);
        assert_eq!(good.records, t.record_count());
        assert!(out.into_result().is_err());
    }

    #[test]
    fn a_stream_without_events_finishes_no_writer() {
        let mut t = trace(0);
        t.dispatches.clear();
        let mut w = Counting::new(None);
        let out = write_stream(&mut t.source(), &mut [&mut w], &StreamOptions::default()).unwrap();
        assert_eq!(out.events, 0);
        assert!(w.abandoned && !w.finished);
        assert!(out.files().is_empty());
    }

    /// Yields a few dispatches, then fails.
    struct Broken(u64);

    impl RecordSource for Broken {
        fn next_record(&mut self, _: &mut StringTable) -> std::result::Result<Option<Record>, SourceError> {
            self.0 += 1;
            if self.0 > 5000 {
                return Err("capture unreadable".into());
            }
            Ok(Some(Record::KernelDispatch(KernelDispatch { dispatch_id: DispatchId(self.0), ..Default::default() })))
        }
    }

    #[test]
    fn a_failing_source_abandons_every_writer_and_leaves_no_files() {
        let dir = std::env::temp_dir().join(format!("rocprof-writers-pipeline-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut csv = crate::csv::CsvWriter::new(OutputLocation::new(&dir, "p"));
        let mut w = Counting::new(None);
        let err = write_stream(&mut Broken(0), &mut [&mut w, &mut csv], &StreamOptions::default()).unwrap_err();
        assert!(matches!(err, Error::Source(_)), "{err}");
        assert!(w.abandoned && !w.finished);
        let left: Vec<_> = std::fs::read_dir(&dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
        assert!(left.is_empty(), "{left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
