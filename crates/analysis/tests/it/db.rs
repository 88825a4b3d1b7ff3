//! Test databases: synthetic runs written by `RocpdWriter`, and AMD-layout rows added with SQL.

use std::path::{Path, PathBuf};

use rocprof_analysis::stats::Rng;
use rocprof_model::{ProcessId, Timestamp, Trace};
use rocprof_writers::rocpd::RocpdWriter;
use rocprof_writers::{write_trace, OutputLocation, Progress, Writer};
use rusqlite::{params, Connection};

/// A fresh scratch directory for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rocprof-analysis-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Standard normal draw (Box-Muller) from the crate's own generator.
pub(crate) fn normal(rng: &mut Rng) -> f64 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = ((rng.next_u64() >> 11) as f64) / (1u64 << 53) as f64;
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// One synthetic run: `dispatches` dispatches of the four synthetic kernels, each kernel's
/// duration multiplied by `scale(name)` and by log-normal noise of relative sd `jitter`.
pub(crate) fn run_db(
    dir: &Path,
    name: &str,
    pid: u32,
    dispatches: u64,
    jitter: f64,
    seed: u64,
    scale: &dyn Fn(&str) -> f64,
) -> PathBuf {
    let mut t: Trace = rocprof_writers::synthetic::trace(dispatches);
    t.meta.pid = ProcessId(pid);
    let mut rng = Rng::new(seed);
    let s2 = (1.0 + jitter * jitter).ln();
    let mut clock = t.meta.start.ns + 1_000;
    let names: Vec<(rocprof_model::KernelId, String)> =
        t.kernel_symbols.iter().map(|k| (k.id, t.strings.resolve(k.formatted_name).to_string())).collect();
    for d in &mut t.dispatches {
        let kname = &names.iter().find(|(id, _)| *id == d.kernel).unwrap().1;
        let base = 10_000.0 * (1.0 + d.kernel.0 as f64);
        let noise = (s2.sqrt() * normal(&mut rng) - s2 / 2.0).exp();
        let dur = (base * scale(kname) * noise).round() as u64;
        d.start = Timestamp::boottime(clock);
        d.end = Timestamp::boottime(clock + dur);
        clock += dur + 100;
    }
    t.meta.end = Timestamp::boottime(clock + 1_000);
    let out = OutputLocation::new(dir, name);
    let mut writers: Vec<Box<dyn Writer>> = vec![Box::new(RocpdWriter::new(out))];
    write_trace(&t, &mut writers, Progress::Hidden).unwrap().remove(0)
}

/// Interns `s` in the database's string table (appended; readers do not need sorted ids).
fn string_id(c: &Connection, s: &str) -> i64 {
    if let Ok(id) = c.query_row("SELECT id FROM rocpd_string WHERE string = ?1", [s], |r| r.get(0)) {
        return id;
    }
    let table = physical(c, "rocpd_string");
    c.execute(&format!("INSERT INTO \"{table}\" (string) VALUES (?1)"), [s]).unwrap();
    c.last_insert_rowid()
}

/// The physical (uuid-suffixed) table behind a plain name.
pub(crate) fn physical(c: &Connection, base: &str) -> String {
    let suffix: String = c.query_row("SELECT value FROM rocpd_metadata WHERE tag = 'uuid'", [], |r| r.get(0)).unwrap();
    format!("{base}{suffix}")
}

fn next_event(c: &Connection, category: &str) -> i64 {
    let cat = string_id(c, category);
    let t = physical(c, "rocpd_event");
    c.execute(
        &format!("INSERT INTO \"{t}\" (category_id, stack_id, parent_stack_id, correlation_id) VALUES (?1, 0, 0, 0)"),
        [cat],
    )
    .unwrap();
    c.last_insert_rowid()
}

fn pid_tid_nid(c: &Connection) -> (i64, i64, i64) {
    c.query_row("SELECT pid, tid, nid FROM rocpd_info_thread LIMIT 1", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
}

/// Adds API regions in AMD's layout: one `rocpd_event` (category) and one `rocpd_region`
/// (operation name) per call, durations as given.
pub(crate) fn add_api_calls(db: &Path, category: &str, function: &str, durations: &[u64]) {
    let c = Connection::open(db).unwrap();
    c.execute_batch("PRAGMA synchronous = OFF; BEGIN").unwrap();
    let (pid, tid, nid) = pid_tid_nid(&c);
    let name = string_id(&c, function);
    let table = physical(&c, "rocpd_region");
    let mut t = 5_000_000_000i64;
    for &d in durations {
        let ev = next_event(&c, category);
        c.execute(
            &format!("INSERT INTO \"{table}\" (nid, pid, tid, start, end, name_id, event_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
            params![nid, pid, tid, t, t + d as i64, name, ev],
        )
        .unwrap();
        t += d as i64 + 10;
    }
    c.execute_batch("COMMIT").unwrap();
}

/// Adds memory copies of one direction (`MEMORY_COPY_HOST_TO_DEVICE`, ...) between agents 0 and 1.
pub(crate) fn add_copies(db: &Path, direction: &str, durations: &[u64]) {
    let c = Connection::open(db).unwrap();
    c.execute_batch("PRAGMA synchronous = OFF; BEGIN").unwrap();
    let (pid, tid, nid) = pid_tid_nid(&c);
    let name = string_id(&c, direction);
    let table = physical(&c, "rocpd_memory_copy");
    let mut t = 6_000_000_000i64;
    for &d in durations {
        let ev = next_event(&c, "MEMORY_COPY");
        c.execute(
            &format!(
                "INSERT INTO \"{table}\" (nid, pid, tid, start, end, name_id, dst_agent_id, dst_address, src_agent_id, src_address, size, stream_id, event_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, 4096, 0, 8192, 1048576, 0, ?7)"
            ),
            params![nid, pid, tid, t, t + d as i64, name, ev],
        )
        .unwrap();
        t += d as i64 + 10;
    }
    c.execute_batch("COMMIT").unwrap();
}

/// Adds counter `counter` to every dispatch of kernel `kernel` in AMD's layout: one
/// `rocpd_info_pmc` row and `instances` `rocpd_pmc_event` rows per dispatch (one per shader
/// engine), each `value / instances`. The dispatches get an event row first if they lack one.
pub(crate) fn add_counter(db: &Path, kernel: &str, counter: &str, value: f64, instances: u32) {
    let c = Connection::open(db).unwrap();
    c.execute_batch("PRAGMA synchronous = OFF; BEGIN").unwrap();
    let (pid, _, nid) = pid_tid_nid(&c);
    let pmc = physical(&c, "rocpd_info_pmc");
    let pmc_id: i64 =
        c.query_row(&format!("SELECT COALESCE(MAX(id), 0) + 1 FROM \"{pmc}\""), [], |r| r.get(0)).unwrap();
    c.execute(
        &format!(
            "INSERT INTO \"{pmc}\" (id, nid, pid, agent_id, target_arch, name, symbol, description, component, value_type, block, expression, is_constant, is_derived)
             VALUES (?1, ?2, ?3, 1, 'GPU', ?4, ?4, 'test counter', 'rocm', 'ABS', 'SQ', '', 0, 0)"
        ),
        params![pmc_id, nid, pid, counter],
    )
    .unwrap();
    let events: Vec<i64> = c
        .prepare(
            "SELECT D.event_id FROM rocpd_kernel_dispatch D JOIN rocpd_info_kernel_symbol K ON K.id = D.kernel_id
             WHERE K.display_name = ?1 ORDER BY D.id",
        )
        .unwrap()
        .query_map([kernel], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(!events.is_empty(), "no dispatches of {kernel}");
    let pe = physical(&c, "rocpd_pmc_event");
    for ev in events {
        for _ in 0..instances {
            c.execute(
                &format!("INSERT INTO \"{pe}\" (event_id, pmc_id, value) VALUES (?1, ?2, ?3)"),
                params![ev, pmc_id, value / f64::from(instances)],
            )
            .unwrap();
        }
    }
    c.execute_batch("COMMIT").unwrap();
}
