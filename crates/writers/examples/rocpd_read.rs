//! Measures `convert`'s reading side: writes a rocpd database of the streamed synthetic
//! `--sys-trace` mix (API calls with arguments, dispatches, copies, allocations), then reads it
//! back with `RocpdSource` twice: alone (records/s of the reader) and into the CSV writer (what
//! `rocprof-rs convert -f csv` does).
//!
//! Usage: `rocpd_read RECORDS DIR [--kernel]` (`--kernel`: the kernel-dispatch-only mix).

use rocprof_model::{RecordSource, StringTable};
use rocprof_writers::csv::CsvWriter;
use rocprof_writers::rocpd::RocpdWriter;
use rocprof_writers::rocpd_source::RocpdSource;
use rocprof_writers::synthetic::{process_cpu_seconds, Source};
use rocprof_writers::{write_stream, OutputLocation, Progress, StreamOptions, Writer};

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: rocpd_read RECORDS DIR [--kernel]";
    let n: u64 = args.first().ok_or(usage)?.parse()?;
    let dir = std::path::PathBuf::from(args.get(1).ok_or(usage)?);
    std::fs::create_dir_all(&dir)?;
    let opts = StreamOptions { progress: Progress::Hidden, ..StreamOptions::default() };
    let mut source = if args.iter().any(|a| a == "--kernel") { Source::new(n) } else { Source::sys_trace(n) };
    let mut w = RocpdWriter::new(OutputLocation::new(&dir, "synthetic"));
    let (t, cpu) = (std::time::Instant::now(), process_cpu_seconds());
    let db = write_stream(&mut source, &mut [&mut w as &mut dyn Writer], &opts)?.into_result()?.remove(0);
    let (secs, cpu) = (t.elapsed().as_secs_f64(), process_cpu_seconds() - cpu);
    println!(
        "write:       {}: {} bytes, {n} records in {secs:.2} s ({:.0} per CPU second)",
        db.display(),
        std::fs::metadata(&db)?.len(),
        n as f64 / cpu.max(0.01)
    );

    let (t, cpu) = (std::time::Instant::now(), process_cpu_seconds());
    let mut src = RocpdSource::open(&db)?;
    let mut strings = StringTable::new();
    let mut records = 0u64;
    while src.next_record(&mut strings)?.is_some() {
        records += 1;
    }
    let (secs, cpu) = (t.elapsed().as_secs_f64(), process_cpu_seconds() - cpu);
    println!(
        "read:        {records} records in {secs:.2} s: {:.0} records/s ({:.0} per CPU second)",
        records as f64 / secs,
        records as f64 / cpu.max(0.01)
    );

    let (t, cpu) = (std::time::Instant::now(), process_cpu_seconds());
    let mut src = RocpdSource::open(&db)?;
    let mut csv = CsvWriter::new(OutputLocation::new(dir.join("csv"), "out"));
    let outcome = write_stream(&mut src, &mut [&mut csv as &mut dyn Writer], &opts)?;
    let (secs, cpu) = (t.elapsed().as_secs_f64(), process_cpu_seconds() - cpu);
    let records = outcome.records;
    outcome.into_result()?;
    println!(
        "read -> csv: {records} records in {secs:.2} s: {:.0} records/s ({:.0} per CPU second)",
        records as f64 / secs,
        records as f64 / cpu.max(0.01)
    );
    Ok(())
}
