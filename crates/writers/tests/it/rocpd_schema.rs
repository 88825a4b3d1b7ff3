//! Our rocpd database has every table and view of AMD's schema with the same columns, and is
//! internally consistent. Views (including the plain-named view of each table, which readers
//! query) have AMD's column order; a physical table has the same column definitions, with those
//! whose shared default no row stores (`guid`, empty JSON) moved last (`rocpd_deferred_ddl`).

use rocprof_writers::rocpd::{uuid_suffix, RocpdOptions, RocpdWriter};
use rocprof_writers::{synthetic, write_trace, OutputLocation, Progress, Writer};
use rusqlite::Connection;

use crate::scratch;

/// (name, type) of the objects in `sqlite_master`, excluding SQLite's own.
fn objects(conn: &Connection) -> Vec<(String, String)> {
    let mut st = conn
        .prepare("SELECT name, type FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
}

/// (column name, declared type, not null, default, pk) in order.
fn columns(conn: &Connection, object: &str) -> Vec<(String, String, bool, Option<String>, i64)> {
    let mut st = conn.prepare(&format!("PRAGMA table_info(\"{object}\")")).unwrap();
    st.query_map([], |r| Ok((r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn write_ours(dir: &std::path::Path, guid: &str) -> std::path::PathBuf {
    let trace = synthetic::trace(64);
    let opts = RocpdOptions { guid: Some(guid.to_string()), ..Default::default() };
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(RocpdWriter::with_options(OutputLocation::new(dir, "s"), opts))];
    let files = write_trace(&trace, &mut w, Progress::Hidden).unwrap();
    assert_eq!(files.len(), 1);
    files[0].clone()
}

#[test]
fn every_amd_table_and_view_exists_with_the_same_columns() {
    let test = "every_amd_table_and_view_exists_with_the_same_columns";
    let Some(sql_dir) = rocprof_test_inputs::shared(test, "reference/rocpd-sql") else { return };
    let guid = "0000ddb5-8903-7903-b269-cd8d3745bb8a";
    let uuid = uuid_suffix(guid);

    // AMD's schema, in rocprofv3's statement order, into a scratch database.
    let amd = Connection::open_in_memory().unwrap();
    for f in ["rocpd_tables.sql", "rocpd_views.sql", "data_views.sql", "marker_views.sql", "summary_views.sql"] {
        let text = std::fs::read_to_string(sql_dir.join(f)).unwrap();
        amd.execute_batch(&text.replace("{{uuid}}", &uuid).replace("{{guid}}", guid))
            .unwrap_or_else(|e| panic!("AMD's {f} failed to load: {e}"));
    }

    let dir = scratch("schema");
    let ours = Connection::open(write_ours(&dir, guid)).unwrap();

    let amd_objects = objects(&amd);
    let our_objects = objects(&ours);
    assert!(amd_objects.len() >= 20 + 20 + 20, "AMD schema has {} objects", amd_objects.len());
    let mut checked = 0;
    for (name, kind) in &amd_objects {
        let found = our_objects.iter().find(|(n, _)| n == name);
        assert_eq!(found.map(|(_, k)| k.as_str()), Some(kind.as_str()), "{kind} {name} missing or of another type");
        let theirs = columns(&amd, name);
        let mine = columns(&ours, name);
        let names =
            |c: &[(String, String, bool, Option<String>, i64)]| c.iter().map(|c| c.0.clone()).collect::<Vec<_>>();
        if kind == "table" {
            // Tables agree on the set of columns with their declared type, NOT NULL, default value
            // and primary key (defaults compared without quote style: AMD writes "{}" where we
            // write '{}').
            let norm = |c: &[(String, String, bool, Option<String>, i64)]| {
                let mut v = c
                    .iter()
                    .map(|(n, t, nn, d, pk)| (n.clone(), t.clone(), *nn, d.as_ref().map(|d| d.replace('"', "'")), *pk))
                    .collect::<Vec<_>>();
                v.sort();
                v
            };
            assert_eq!(norm(&mine), norm(&theirs), "column definitions of table {name}");
        } else {
            assert_eq!(names(&mine), names(&theirs), "columns of {kind} {name}");
        }
        checked += 1;
    }
    println!("checked {checked} tables and views against AMD's schema");

    // Same metadata rows (ours add the run's health, `run_health.*`, after AMD's three).
    let meta = |c: &Connection| {
        let mut st = c
            .prepare("SELECT id, tag, value FROM rocpd_metadata WHERE tag NOT LIKE 'run_health.%' ORDER BY id")
            .unwrap();
        st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect::<Vec<_>>()
    };
    assert_eq!(meta(&ours), meta(&amd));
    let health: i64 =
        ours.query_row("SELECT COUNT(*) FROM rocpd_metadata WHERE tag LIKE 'run_health.%'", [], |r| r.get(0)).unwrap();
    assert_eq!(health as usize, rocprof_model::RunHealth::default().metadata().len());
}

#[test]
fn database_is_consistent_and_carries_one_guid() {
    let dir = scratch("integrity");
    let guid = "00000001-0002-7003-8004-000000000005";
    let conn = Connection::open(write_ours(&dir, guid)).unwrap();

    let fk_violations: i64 = conn.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
    assert_eq!(fk_violations, 0, "foreign key violations");

    let tables: Vec<String> = {
        let mut st =
            conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rocpd_%'").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(tables.len(), 20);
    let suffix = uuid_suffix(guid);
    for t in &tables {
        assert!(t.ends_with(&suffix), "physical table {t} lacks the uuid suffix");
        if t.starts_with("rocpd_metadata") {
            continue;
        }
        let other: i64 =
            conn.query_row(&format!("SELECT COUNT(*) FROM \"{t}\" WHERE guid <> ?1"), [guid], |r| r.get(0)).unwrap();
        assert_eq!(other, 0, "rows of {t} with another guid");
    }

    // Interned strings: ids from 1 in stream order, "" first, each text once.
    let strings: Vec<(i64, String)> = {
        let mut st = conn.prepare("SELECT id, string FROM rocpd_string ORDER BY id").unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(strings[0], (1, String::new()));
    assert!(strings.windows(2).all(|w| w[1].0 == w[0].0 + 1));
    let distinct: std::collections::HashSet<&str> = strings.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(distinct.len(), strings.len(), "a text with two rows");
    assert!(strings.iter().any(|(_, s)| s == "KERNEL_DISPATCH"));
    assert!(strings.iter().any(|(_, s)| s == "vector_add"));

    let dispatches: i64 = conn.query_row("SELECT COUNT(*) FROM rocpd_kernel_dispatch", [], |r| r.get(0)).unwrap();
    let kernels: i64 = conn.query_row("SELECT COUNT(*) FROM kernels", [], |r| r.get(0)).unwrap();
    assert_eq!((dispatches, kernels), (64, 64));
    let categories: Vec<String> = {
        let mut st = conn.prepare("SELECT DISTINCT category FROM kernels").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(categories, ["KERNEL_DISPATCH"]);
    let queues: Vec<String> = {
        let mut st = conn.prepare("SELECT name FROM rocpd_info_queue ORDER BY id").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(queues, ["Default Queue", "Queue 0", "Queue 1", "Queue 2", "Queue 3"]);
}

#[test]
fn rewriting_replaces_the_previous_database() {
    let dir = scratch("rewrite");
    let first = write_ours(&dir, "00000001-0002-7003-8004-000000000001");
    let second = write_ours(&dir, "00000001-0002-7003-8004-000000000002");
    assert_eq!(first, second);
    let conn = Connection::open(&second).unwrap();
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM rocpd_metadata WHERE tag NOT LIKE 'run_health.%'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 3, "old tables must not survive");
}

#[test]
fn synthetic_throughput_writes_every_row() {
    let dir = scratch("throughput");
    let t = synthetic::rocpd_throughput(20_000, &dir).unwrap();
    let conn = Connection::open(&t.path).unwrap();
    let n: i64 = conn.query_row("SELECT COUNT(*) FROM kernels", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 20_000);
    assert!(t.rows_per_sec() > 0.0);
    println!(
        "rocpd: {} rows in {:.3} s = {:.0} rows/s (debug or release as built)",
        t.rows,
        t.seconds,
        t.rows_per_sec()
    );
}

#[test]
fn failed_rocpd_write_keeps_the_previous_database_and_leaves_no_partial_file() {
    // Regression: the writer used to delete the previous database first and build the new one
    // under the final name, so a write that failed half-way (here: a corrupt capture with a
    // repeated dispatch id, which SQLite rejects; likewise a full disk) destroyed the old file
    // and left a torn one in its place.
    let dir = scratch("failed-rewrite");
    let good = write_ours(&dir, "00000001-0002-7003-8004-000000000001");
    let mut bad = synthetic::trace(64);
    bad.dispatches[40].dispatch_id = bad.dispatches[3].dispatch_id;
    let opts = RocpdOptions { guid: Some("00000001-0002-7003-8004-000000000002".into()), ..Default::default() };
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(RocpdWriter::with_options(OutputLocation::new(&dir, "s"), opts))];
    let err = write_trace(&bad, &mut w, Progress::Hidden).unwrap_err();
    assert!(err.to_string().contains(&good.display().to_string()), "the error names the database: {err}");
    drop(w);

    let conn = Connection::open(&good).unwrap();
    let guid: String = conn.query_row("SELECT value FROM rocpd_metadata WHERE tag = 'guid'", [], |r| r.get(0)).unwrap();
    assert_eq!(guid, "00000001-0002-7003-8004-000000000001");
    let n: i64 = conn.query_row("SELECT COUNT(*) FROM kernels", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 64);
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["s_results.db"], "no partial database left behind");
}
