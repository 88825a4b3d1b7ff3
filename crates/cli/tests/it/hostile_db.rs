//! Issue 14: every reader of rocpd databases (`convert`, `summary`, `diff`, `merge`) on hostile
//! databases: truncated, bit-flipped, foreign, with a table missing columns, values of the wrong
//! type, NULLs, huge ids and times, duplicate ids and dangling references. Each command either
//! succeeds or prints exactly one `rocprof-rs: error:` line naming the file, with its documented
//! exit status (convert 1, the others 2); never a panic or a multi-line SQL dump. The base database
//! is a real one our rocpd writer produced from the `--sys-trace` synthetic mix (dispatches, HIP and
//! HSA calls, copies, allocations). The fuzz targets `rocpd_file` and `rocpd_sql` (fuzz/README.md)
//! explore the same classes at random.

use std::path::{Path, PathBuf};
use std::process::Output;

use rusqlite::Connection;

use crate::{bin, scratch, stderr};

/// A rocpd database of the `--sys-trace` synthetic mix (600 records) written by our writer.
fn base_db(dir: &Path) -> PathBuf {
    use rocprof_writers::{rocpd::RocpdWriter, write_stream, OutputLocation, StreamOptions, Writer};
    let mut w = RocpdWriter::new(OutputLocation::new(dir.join("base"), "base"));
    let mut source = rocprof_writers::synthetic::Source::sys_trace(600);
    let mut writers: [&mut dyn Writer; 1] = [&mut w];
    let outcome = write_stream(&mut source, &mut writers, &StreamOptions::default()).unwrap();
    let files = outcome.writers.into_iter().next().unwrap().result.unwrap();
    files.into_iter().find(|f| f.extension().is_some_and(|e| e == "db")).expect("a .db file")
}

/// The physical (session-suffixed) table behind view `view`.
fn physical(conn: &Connection, view: &str) -> String {
    conn.query_row(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?1 || '\\_0%' ESCAPE '\\' ORDER BY name",
        [view],
        |r| r.get(0),
    )
    .unwrap_or_else(|e| panic!("no table behind {view}: {e}"))
}

/// The physical table behind `view`, rebuilt without constraints (so NULLs and duplicates fit).
fn loose(conn: &Connection, view: &str) -> String {
    let t = physical(conn, view);
    conn.execute_batch(&format!(
        "CREATE TABLE __m AS SELECT * FROM \"{t}\"; DROP TABLE \"{t}\"; ALTER TABLE __m RENAME TO \"{t}\";"
    ))
    .unwrap();
    t
}

/// A copy of `base` named `name.db`, changed by `sql` (given the connection).
fn hostile(base: &Path, dir: &Path, name: &str, change: impl FnOnce(&Connection)) -> PathBuf {
    let p = dir.join(format!("{name}.db"));
    std::fs::copy(base, &p).unwrap();
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch("PRAGMA legacy_alter_table = ON; PRAGMA foreign_keys = OFF;").unwrap();
    change(&conn);
    drop(conn);
    p
}

/// A copy of `base` whose bytes are changed by `change`.
fn hostile_bytes(base: &Path, dir: &Path, name: &str, change: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let p = dir.join(format!("{name}.db"));
    let mut bytes = std::fs::read(base).unwrap();
    change(&mut bytes);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// `convert`, `summary`, `diff` (the file against itself) and `merge`, in that order.
fn readers(db: &Path, dir: &Path) -> [(&'static str, Output); 4] {
    let out = dir.join("out");
    let merged = dir.join("merged.db");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&merged);
    let run = |args: &[&std::ffi::OsStr]| bin().args(args).output().unwrap();
    let convert = run(&[
        "convert".as_ref(),
        db.as_os_str(),
        "-f".as_ref(),
        "csv".as_ref(),
        "json".as_ref(),
        "pftrace".as_ref(),
        "--stats".as_ref(),
        "-d".as_ref(),
        out.as_os_str(),
    ]);
    let summary = run(&["summary".as_ref(), db.as_os_str(), "-S".as_ref(), "-D".as_ref()]);
    let diff = run(&["diff".as_ref(), "--base".as_ref(), db.as_os_str(), "--head".as_ref(), db.as_os_str()]);
    let merge = run(&["merge".as_ref(), db.as_os_str(), "-o".as_ref(), merged.as_os_str()]);
    [("convert", convert), ("summary", summary), ("diff", diff), ("merge", merge)]
}

/// What a command must do with a hostile database.
#[derive(Clone, Copy, Debug)]
enum Want {
    /// Exit 0, no error line.
    Ok,
    /// Its error status (convert 1, others 2) and one error line naming the file and containing
    /// the text.
    Error(&'static str),
}

/// Runs the four readers on `db` and checks each against `want` (convert, summary, diff, merge).
fn check(db: &Path, dir: &Path, want: [Want; 4]) {
    let name = db.file_name().unwrap().to_string_lossy().into_owned();
    for ((cmd, o), want) in readers(db, dir).iter().zip(want) {
        let err = stderr(o);
        assert!(!err.contains("panicked"), "{cmd} {name} panicked:\n{err}");
        let errors: Vec<&str> = err.lines().filter(|l| !l.starts_with("rocprof-rs: wrote ")).collect();
        match want {
            Want::Ok => {
                assert_eq!(o.status.code(), Some(0), "{cmd} {name}:\n{err}");
                assert!(errors.iter().all(|l| !l.contains("error")), "{cmd} {name}:\n{err}");
            }
            Want::Error(text) => {
                let code = if *cmd == "convert" { 1 } else { 2 };
                assert_eq!(o.status.code(), Some(code), "{cmd} {name}:\n{err}");
                assert_eq!(errors.len(), 1, "{cmd} {name}: one line, got:\n{err}");
                assert!(errors[0].starts_with("rocprof-rs: error: "), "{cmd} {name}:\n{err}");
                assert!(errors[0].contains(&name), "{cmd} {name}: the error names the file:\n{err}");
                assert!(errors[0].contains(text), "{cmd} {name}: expected {text:?} in:\n{err}");
            }
        }
    }
}

#[test]
fn truncated_and_bit_flipped_databases_are_one_line_errors() {
    let dir = scratch("hostile-bytes");
    let base = base_db(&dir);
    let all = |t| [Want::Error(t); 4];
    check(&hostile_bytes(&base, &dir, "cut_in_header", |b| b.truncate(60)), &dir, all("malformed"));
    check(&hostile_bytes(&base, &dir, "cut_in_half", |b| b.truncate(b.len() / 2)), &dir, all("malformed"));
    // The first page's b-tree header (the schema table's root) garbled.
    let flipped = hostile_bytes(&base, &dir, "flipped_schema_page", |b| {
        for byte in &mut b[100..108] {
            *byte ^= 0x5a;
        }
    });
    check(&flipped, &dir, all("malformed"));
    // The magic string of the SQLite header.
    check(&hostile_bytes(&base, &dir, "flipped_magic", |b| b[3] ^= 1), &dir, all("not a rocpd database"));
}

#[test]
fn foreign_databases_and_missing_columns_are_one_line_errors() {
    let dir = scratch("hostile-foreign");
    let base = base_db(&dir);
    let foreign = dir.join("customers.db");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch(
            "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'a');",
        )
        .unwrap();
    check(&foreign, &dir, [Want::Error("not a rocpd database (an SQLite file without the rocpd_metadata table)"); 4]);
    let other_table = hostile(&base, &dir, "dispatch_replaced", |c| {
        c.execute_batch("DROP VIEW rocpd_kernel_dispatch; CREATE TABLE rocpd_kernel_dispatch (x TEXT);").unwrap();
    });
    check(&other_table, &dir, [Want::Error("rocpd schema mismatch: table rocpd_kernel_dispatch has columns (x)"); 4]);
    let missing = hostile(&base, &dir, "missing_columns", |c| {
        let t = physical(c, "rocpd_kernel_dispatch");
        c.execute_batch(&format!(
            "DROP VIEW rocpd_kernel_dispatch; CREATE VIEW rocpd_kernel_dispatch AS SELECT id, guid FROM \"{t}\";"
        ))
        .unwrap();
    });
    check(
        &missing,
        &dir,
        [Want::Error("table rocpd_kernel_dispatch has columns (id, guid), expected (id, guid, nid"); 4],
    );
    let no_table = hostile(&base, &dir, "no_region_table", |c| c.execute_batch("DROP VIEW rocpd_region;").unwrap());
    check(&no_table, &dir, [Want::Error("rocpd schema mismatch: no table rocpd_region"); 4]);
    let version = hostile(&base, &dir, "schema_version_9", |c| {
        let t = physical(c, "rocpd_metadata");
        c.execute_batch(&format!("UPDATE \"{t}\" SET value = '9' WHERE tag = 'schema_version';")).unwrap();
    });
    check(&version, &dir, [Want::Error("rocpd schema mismatch: schema version 9 (expected 3)"); 4]);
}

#[test]
fn wrong_types_nulls_and_huge_values_are_read_or_refused_in_one_line() {
    let dir = scratch("hostile-values");
    let base = base_db(&dir);
    let wrong_types = hostile(&base, &dir, "wrong_types", |c| {
        let t = physical(c, "rocpd_kernel_dispatch");
        c.execute_batch(&format!("UPDATE \"{t}\" SET start = 'soon', kernel_id = x'00ff';")).unwrap();
    });
    check(
        &wrong_types,
        &dir,
        [
            Want::Error("Invalid column type Blob"),
            Want::Error("sqlite error while reading kernel dispatches"),
            Want::Error("sqlite error while reading kernel dispatches"),
            // merge copies values as they are.
            Want::Ok,
        ],
    );
    let nulls = hostile(&base, &dir, "nulls", |c| {
        let t = loose(c, "rocpd_kernel_dispatch");
        let s = loose(c, "rocpd_string");
        c.execute_batch(&format!(
            "UPDATE \"{t}\" SET start = NULL, \"end\" = NULL, kernel_id = NULL, pid = NULL, tid = NULL, agent_id = NULL;
             UPDATE \"{s}\" SET string = NULL;"
        ))
        .unwrap();
    });
    check(
        &nulls,
        &dir,
        [
            // convert reads a missing value as 0.
            Want::Ok,
            Want::Error("Invalid column type Null"),
            Want::Error("Invalid column type Null"),
            Want::Error("NOT NULL constraint failed"),
        ],
    );
    let huge = hostile(&base, &dir, "huge_values", |c| {
        let t = physical(c, "rocpd_kernel_dispatch");
        let r = physical(c, "rocpd_region");
        c.execute_batch(&format!(
            "UPDATE \"{t}\" SET start = -9223372036854775808, \"end\" = 9223372036854775807,
                 dispatch_id = -1, grid_size_x = 9223372036854775807, workgroup_size_x = -5;
             UPDATE \"{r}\" SET start = 9223372036854775807, \"end\" = -9223372036854775808;"
        ))
        .unwrap();
    });
    check(&huge, &dir, [Want::Ok; 4]);
}

#[test]
fn duplicate_ids_and_dangling_references_are_read_or_refused_in_one_line() {
    let dir = scratch("hostile-ids");
    let base = base_db(&dir);
    // Every dispatch twice, under the same ids (a view over the session's table, twice).
    let dup = hostile(&base, &dir, "duplicate_ids", |c| {
        let sql: String = c
            .query_row("SELECT sql FROM sqlite_master WHERE name = 'rocpd_kernel_dispatch'", [], |r| r.get(0))
            .unwrap();
        let select = sql.split_once(" AS ").unwrap().1.to_string();
        c.execute_batch(&format!(
            "DROP VIEW rocpd_kernel_dispatch; CREATE VIEW rocpd_kernel_dispatch AS {select} UNION ALL {select};"
        ))
        .unwrap();
    });
    check(&dup, &dir, [Want::Ok, Want::Ok, Want::Ok, Want::Error("UNIQUE constraint failed")]);
    // Kernel symbols, strings, agents and events gone: dispatches and regions point nowhere.
    let dangling = hostile(&base, &dir, "dangling_references", |c| {
        for v in ["rocpd_info_kernel_symbol", "rocpd_string", "rocpd_info_agent", "rocpd_event"] {
            let t = physical(c, v);
            c.execute_batch(&format!("DELETE FROM \"{t}\";")).unwrap();
        }
    });
    check(&dangling, &dir, [Want::Ok, Want::Ok, Want::Ok, Want::Error("NOT NULL constraint failed")]);
    // Ids far past the end: a dispatch whose kernel, agent and queue ids exist nowhere.
    let far = hostile(&base, &dir, "ids_past_the_end", |c| {
        let t = physical(c, "rocpd_kernel_dispatch");
        c.execute_batch(&format!(
            "UPDATE \"{t}\" SET kernel_id = 9223372036854775807, agent_id = 4294967296, queue_id = -1, event_id = 123456789;"
        ))
        .unwrap();
    });
    check(&far, &dir, [Want::Ok; 4]);
}

/// The fuzz targets (a separate workspace under `fuzz/`, built only with nightly) call the CLI
/// through `rocprof_cli::fuzzing`; this keeps those entry points working on real inputs, so a
/// change that breaks them shows up in the suite: every reader succeeds on a sound database, and
/// the `-i` files of `fixtures/inputs` give their number of jobs.
#[test]
fn the_fuzz_targets_entry_points_run_real_inputs() {
    let dir = scratch("fuzz-entry-points");
    let db = base_db(&dir);
    let codes = rocprof_cli::fuzzing::rocpd_readers(&db, &dir);
    assert_eq!(
        format!("{codes:?}"),
        format!("{:?}", [std::process::ExitCode::SUCCESS; 4]),
        "convert, summary, diff, merge"
    );
    for f in ["csv", "json", "pftrace"] {
        assert!(
            std::fs::read_dir(dir.join("convert"))
                .unwrap()
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == f)),
            "convert wrote no .{f}"
        );
    }
    assert!(dir.join("merged.db").is_file());
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/inputs");
    let jobs = |name: &str| {
        let text = std::fs::read_to_string(inputs.join(name)).unwrap();
        rocprof_cli::fuzzing::input_file(name, &text)
    };
    assert_eq!(
        ["two_passes.txt", "two_jobs.yml", "two_jobs.json", "multiplex.yml", "filtering.yml", "malformed.json"]
            .map(jobs),
        [2, 2, 2, 1, 1, 0]
    );
}
