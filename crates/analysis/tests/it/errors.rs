//! Bad inputs: each gives one line naming the file and the problem.

use std::path::PathBuf;

use rocprof_analysis::diff::{diff_paths, DiffOptions};
use rocprof_analysis::rocpd::{find_databases, Database};
use rocprof_analysis::Error;
use rusqlite::Connection;

use crate::db::{physical, run_db, scratch};

fn open_err(p: &std::path::Path) -> String {
    let e = Database::open(p).unwrap_err().to_string();
    assert_eq!(e.lines().count(), 1, "{e}");
    e
}

#[test]
fn missing_empty_and_foreign_files_are_rejected_with_one_line() {
    let dir = scratch("bad-files");
    let missing = dir.join("nope.db");
    assert_eq!(open_err(&missing), format!("{}: no such file or directory", missing.display()));
    let empty = dir.join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(open_err(&empty), format!("{}: not a rocpd database (an empty file)", empty.display()));
    let text = dir.join("text.db");
    std::fs::write(&text, "this is a CSV file, not a database\n".repeat(100)).unwrap();
    assert_eq!(open_err(&text), format!("{}: not a rocpd database (not an SQLite file)", text.display()));
    let other = dir.join("other.db");
    Connection::open(&other).unwrap().execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);").unwrap();
    assert_eq!(
        open_err(&other),
        format!("{}: not a rocpd database (an SQLite file without the rocpd_metadata table)", other.display())
    );
    let nodb = dir.join("no-db-here");
    std::fs::create_dir_all(&nodb).unwrap();
    assert!(matches!(find_databases(&nodb), Err(Error::NoDatabases { .. })));
    assert_eq!(
        find_databases(&nodb).unwrap_err().to_string(),
        format!("{}: no rocpd databases (*.db) in this directory", nodb.display())
    );
}

#[test]
fn other_schema_versions_and_changed_tables_are_schema_mismatches() {
    let dir = scratch("mismatch");
    let db = run_db(&dir, "v2", 1, 8, 0.0, 1, &|_| 1.0);
    let c = Connection::open(&db).unwrap();
    let meta = physical(&c, "rocpd_metadata");
    c.execute(&format!("UPDATE \"{meta}\" SET value = '2' WHERE tag = 'schema_version'"), []).unwrap();
    drop(c);
    assert_eq!(open_err(&db), format!("{}: rocpd schema mismatch: schema version 2 (expected 3)", db.display()));

    let db = run_db(&dir, "cols", 1, 8, 0.0, 1, &|_| 1.0);
    let c = Connection::open(&db).unwrap();
    c.execute_batch("DROP VIEW rocpd_memory_copy; CREATE VIEW rocpd_memory_copy AS SELECT 1 AS id, 'x' AS guid;")
        .unwrap();
    drop(c);
    let e = open_err(&db);
    assert!(
        e.starts_with(&format!(
            "{}: rocpd schema mismatch: table rocpd_memory_copy has columns (id, guid), expected (id, guid, nid,",
            db.display()
        )),
        "{e}"
    );

    let db = run_db(&dir, "gone", 1, 8, 0.0, 1, &|_| 1.0);
    Connection::open(&db).unwrap().execute_batch("DROP VIEW rocpd_region;").unwrap();
    assert_eq!(open_err(&db), format!("{}: rocpd schema mismatch: no table rocpd_region", db.display()));
}

#[test]
fn a_database_without_records_is_empty() {
    let dir = scratch("empty-db");
    let db = run_db(&dir, "e", 1, 8, 0.0, 1, &|_| 1.0);
    let c = Connection::open(&db).unwrap();
    let t = physical(&c, "rocpd_kernel_dispatch");
    c.execute(&format!("DELETE FROM \"{t}\""), []).unwrap();
    drop(c);
    let good = run_db(&dir, "g", 2, 8, 0.0, 1, &|_| 1.0);
    let e = diff_paths(&[good], std::slice::from_ref(&db), &DiffOptions::default()).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "{}: the database is empty (no kernel dispatches, API calls, memory copies or allocations)",
            db.display()
        )
    );
}

#[test]
fn bad_options_are_usage_errors() {
    let dir = scratch("options");
    let db: PathBuf = run_db(&dir, "o", 1, 8, 0.0, 1, &|_| 1.0);
    for (opts, msg) in [
        (DiffOptions { alpha: 1.5, ..DiffOptions::default() }, "--alpha must be between 0 and 1, got 1.5"),
        (
            DiffOptions { threshold_percent: -1.0, ..DiffOptions::default() },
            "--threshold must be a percentage >= 0, got -1",
        ),
        (DiffOptions { min_samples: 0, ..DiffOptions::default() }, "--min-samples must be at least 1"),
    ] {
        let e = diff_paths(std::slice::from_ref(&db), std::slice::from_ref(&db), &opts).unwrap_err();
        assert!(matches!(e, Error::Usage(_)));
        assert_eq!(e.to_string(), msg);
    }
}
