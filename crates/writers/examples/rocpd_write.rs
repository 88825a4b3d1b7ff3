//! Writes a rocpd database of a streamed synthetic trace, for measuring the rocpd writer alone
//! (`valgrind --tool=callgrind --separate-threads=yes` counts the writer thread's
//! instructions apart from the source's; `sqlite3 DB "SELECT ... FROM dbstat"` shows where
//! the bytes go).
//!
//! Usage: `rocpd_write DISPATCHES DIR` (the database is `DIR/synthetic_results.db`).

use rocprof_writers::rocpd::RocpdWriter;
use rocprof_writers::{write_stream, OutputLocation, Progress, StreamOptions, Writer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().ok_or("usage: rocpd_write DISPATCHES DIR")?.parse()?;
    let dir = std::path::PathBuf::from(args.next().ok_or("usage: rocpd_write DISPATCHES DIR")?);
    std::fs::create_dir_all(&dir)?;
    let mut w = RocpdWriter::new(OutputLocation::new(&dir, "synthetic"));
    let mut source = rocprof_writers::synthetic::Source::new(n);
    let t = std::time::Instant::now();
    let outcome = write_stream(
        &mut source,
        &mut [&mut w as &mut dyn Writer],
        &StreamOptions { progress: Progress::Hidden, ..StreamOptions::default() },
    )?;
    let secs = t.elapsed().as_secs_f64();
    for f in outcome.into_result()? {
        let bytes = std::fs::metadata(&f)?.len();
        println!(
            "{}: {n} dispatches in {secs:.2} s ({:.0} rows/s), {bytes} bytes ({:.1} per dispatch)",
            f.display(),
            n as f64 / secs,
            bytes as f64 / n.max(1) as f64
        );
    }
    Ok(())
}
