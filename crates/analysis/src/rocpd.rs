//! Reading rocpd databases, ours and AMD's (schema version 3): opening with checks, then the
//! records as (domain, name, duration) activities and the counter values per dispatch.
//!
//! Every query goes through the plain-named views (`rocpd_kernel_dispatch`, ...), as AMD's reader
//! does, so a file with several sessions (several uuid-suffixed table sets, or one written by
//! [`crate::merge`]) reads as one. Joins always match `guid` as well as the id: ids repeat across
//! sessions.
//!
//! Domains and names follow rocprofv3's statistics (`rocprofv3-outputs.md` §2.4): kernels by
//! display (formatted) name, API calls by function name in `HSA_API` / `HIP_API` / `RCCL_API` /
//! ..., markers by message, memory copies by direction (`MEMORY_COPY_HOST_TO_DEVICE`, ...),
//! allocations and scratch memory by operation.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rusqlite::{Connection, OpenFlags};

use crate::error::{sqlite, Error, Result};

/// rocpd schema version this reader understands (`rocpd_metadata.schema_version`).
pub const SCHEMA_VERSION: &str = "3";

/// rocprofv3's domain names, in the order its `-D` tables are printed.
pub const DOMAIN_ORDER: [&str; 10] = [
    HSA_API,
    HIP_API,
    MARKER_API,
    KERNEL_DISPATCH,
    MEMORY_COPY,
    SCRATCH_MEMORY,
    RCCL_API,
    MEMORY_ALLOCATION,
    ROCDECODE_API,
    ROCJPEG_API,
];

/// HSA API calls.
pub const HSA_API: &str = "HSA_API";
/// HIP API calls (runtime and compiler).
pub const HIP_API: &str = "HIP_API";
/// ROCTx markers and ranges.
pub const MARKER_API: &str = "MARKER_API";
/// Kernel dispatches.
pub const KERNEL_DISPATCH: &str = "KERNEL_DISPATCH";
/// Memory copies.
pub const MEMORY_COPY: &str = "MEMORY_COPY";
/// Scratch memory operations.
pub const SCRATCH_MEMORY: &str = "SCRATCH_MEMORY";
/// RCCL API calls.
pub const RCCL_API: &str = "RCCL_API";
/// Memory allocations and frees.
pub const MEMORY_ALLOCATION: &str = "MEMORY_ALLOCATION";
/// rocDecode API calls.
pub const ROCDECODE_API: &str = "ROCDECODE_API";
/// rocJPEG API calls.
pub const ROCJPEG_API: &str = "ROCJPEG_API";

/// The statistics domain of an event category (`rocpd_event.category_id`'s string, the SDK's
/// buffer-tracing kind name). Unknown categories keep their own name, so nothing is dropped.
pub fn domain_of_category(category: &str) -> &str {
    match category {
        c if c.starts_with("HSA_") && c.contains("_API") => HSA_API,
        c if c.starts_with("HIP_") && c.contains("_API") => HIP_API,
        c if c.starts_with("MARKER_") => MARKER_API,
        c if c.starts_with("RCCL_") => RCCL_API,
        c if c.starts_with("ROCDECODE_") => ROCDECODE_API,
        c if c.starts_with("ROCJPEG_") => ROCJPEG_API,
        "KERNEL_DISPATCH" => KERNEL_DISPATCH,
        "MEMORY_COPY" => MEMORY_COPY,
        "MEMORY_ALLOCATION" => MEMORY_ALLOCATION,
        "SCRATCH_MEMORY" => SCRATCH_MEMORY,
        other => other,
    }
}

/// The operation name rocprofv3 uses for a `rocpd_memory_allocate` row, from its `type` and
/// `level` columns (the inverse of the writer's mapping, `rocpd-schema.md` §4.20), and its domain.
pub fn allocation_operation(kind: &str, level: &str) -> (&'static str, &'static str) {
    match (level, kind) {
        ("SCRATCH", "ALLOC") => (SCRATCH_MEMORY, "SCRATCH_MEMORY_ALLOC"),
        ("SCRATCH", "FREE") => (SCRATCH_MEMORY, "SCRATCH_MEMORY_FREE"),
        ("SCRATCH", _) => (SCRATCH_MEMORY, "SCRATCH_MEMORY_ASYNC_RECLAIM"),
        ("VIRTUAL", "ALLOC") => (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_VMEM_ALLOCATE"),
        ("VIRTUAL", "FREE") => (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_VMEM_FREE"),
        (_, "FREE") => (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_FREE"),
        _ => (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_ALLOCATE"),
    }
}

/// One timed record: a kernel dispatch, an API call, a marker, a copy or an allocation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Activity<'a> {
    /// rocprofv3 domain (`KERNEL_DISPATCH`, `HIP_API`, ...).
    pub domain: &'a str,
    /// Kernel display name, function name, marker message, copy direction or operation.
    pub name: &'a str,
    /// `end - start` in ns (0 when the end precedes the start).
    pub duration_ns: u64,
    /// OS process id of the record.
    pub pid: i64,
}

/// One counter value of one dispatch, summed over the counter's dimension instances (as the
/// `counters_collection` view does).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CounterValue<'a> {
    /// Display name of the dispatched kernel.
    pub kernel: &'a str,
    /// Counter name (`SQ_WAVES`, ...).
    pub counter: &'a str,
    /// The value.
    pub value: f64,
}

/// The expected column names of every rocpd table, in order, from our DDL (which a writers test
/// checks against AMD's).
fn expected_columns() -> &'static Vec<(&'static str, Vec<String>)> {
    static COLUMNS: OnceLock<Vec<(&'static str, Vec<String>)>> = OnceLock::new();
    COLUMNS.get_or_init(|| {
        let conn = Connection::open_in_memory().expect("an in-memory SQLite database opens");
        let ddl = rocprof_writers::schema::render(rocprof_writers::schema::ROCPD_TABLES_SQL, "", "x");
        conn.execute_batch(&ddl).expect("our own rocpd DDL is valid SQL");
        rocprof_writers::schema::rocpd_tables()
            .into_iter()
            .map(|t| (t, table_columns(&conn, t).expect("a table we just created has columns")))
            .collect()
    })
}

/// Column names of a table or view, in order (empty when it does not exist).
pub(crate) fn table_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA table_info(\"{table}\")"))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(1))?.collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(names)
}

/// An open rocpd database, checked to have schema version 3 and every table with the expected
/// columns.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    conn: Connection,
    guids: Vec<String>,
}

impl Database {
    /// Opens `path` read-only and checks that it is a rocpd database of schema version 3 with all
    /// 20 tables (as views or tables under their plain names) and their columns. Errors name the
    /// file and the problem in one line.
    pub fn open(path: &Path) -> Result<Self> {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::NotFound { path: path.to_path_buf() },
            _ => Error::Io { path: path.to_path_buf(), source: e },
        })?;
        if meta.is_dir() {
            return Err(Error::NotRocpd { path: path.to_path_buf(), why: "a directory".into() });
        }
        if meta.len() == 0 {
            return Err(Error::NotRocpd { path: path.to_path_buf(), why: "an empty file".into() });
        }
        let conn =
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .map_err(sqlite(path, "opening"))?;
        let not_rocpd = |why: String| Error::NotRocpd { path: path.to_path_buf(), why };
        let objects: Vec<String> = match conn
            .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<Vec<String>>>())
        {
            Ok(o) => o,
            Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::NotADatabase => {
                return Err(not_rocpd("not an SQLite file".into()));
            }
            Err(e) => return Err(sqlite(path, "listing tables")(e)),
        };
        if !objects.iter().any(|o| o == "rocpd_metadata") {
            return Err(not_rocpd("an SQLite file without the rocpd_metadata table".into()));
        }
        let mut versions: Vec<String> = conn
            .prepare("SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .map_err(sqlite(path, "reading rocpd_metadata"))?;
        versions.dedup();
        match versions.as_slice() {
            [] => return Err(not_rocpd("rocpd_metadata has no schema_version".into())),
            [v] if v == SCHEMA_VERSION => {}
            other => {
                return Err(Error::SchemaMismatch {
                    path: path.to_path_buf(),
                    why: format!("schema version {} (expected {SCHEMA_VERSION})", other.join(", ")),
                })
            }
        }
        for (table, want) in expected_columns() {
            if !objects.iter().any(|o| o == table) {
                return Err(Error::SchemaMismatch { path: path.to_path_buf(), why: format!("no table {table}") });
            }
            let have = table_columns(&conn, table).map_err(sqlite(path, "reading the schema"))?;
            if &have != want {
                return Err(Error::SchemaMismatch {
                    path: path.to_path_buf(),
                    why: format!("table {table} has columns ({}), expected ({})", have.join(", "), want.join(", ")),
                });
            }
        }
        let guids = conn
            .prepare("SELECT value FROM rocpd_metadata WHERE tag = 'guid' ORDER BY id")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .map_err(sqlite(path, "reading rocpd_metadata"))?;
        Ok(Self { path: path.to_path_buf(), conn, guids })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The session guids the file holds (one per profiled process; several after a merge by
    /// attaching).
    pub fn guids(&self) -> &[String] {
        &self.guids
    }

    /// The SQLite connection (read-only).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Number of rows of every rocpd table, in DDL order.
    pub fn row_counts(&self) -> Result<Vec<(&'static str, u64)>> {
        expected_columns()
            .iter()
            .map(|(t, _)| {
                let n: i64 = self
                    .conn
                    .query_row(&format!("SELECT COUNT(*) FROM \"{t}\""), [], |r| r.get(0))
                    .map_err(sqlite(&self.path, "counting rows"))?;
                Ok((*t, n as u64))
            })
            .collect()
    }

    /// Calls `f` for every timed record: kernel dispatches, API regions and marker ranges,
    /// marker instants (duration 0), memory copies, allocations. Returns the number of records.
    pub fn for_each_activity(&self, mut f: impl FnMut(&Activity<'_>)) -> Result<u64> {
        let mut count = 0u64;
        let err = |what| sqlite(&self.path, what);
        let mut run =
            |sql: &str, what: &'static str, row: &mut dyn FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<()>| {
                let mut stmt = self.conn.prepare(sql).map_err(err(what))?;
                let mut rows = stmt.query([]).map_err(err(what))?;
                while let Some(r) = rows.next().map_err(err(what))? {
                    row(r).map_err(err(what))?;
                    count += 1;
                }
                Ok::<(), Error>(())
            };
        run(
            "SELECT COALESCE(K.display_name, 'kernel_' || D.kernel_id), D.start, D.end, D.pid
             FROM rocpd_kernel_dispatch D
             LEFT JOIN rocpd_info_kernel_symbol K ON K.id = D.kernel_id AND K.guid = D.guid",
            "reading kernel dispatches",
            &mut |r| {
                let name: String = r.get(0)?;
                f(&Activity { domain: KERNEL_DISPATCH, name: &name, duration_ns: duration(r, 1, 2)?, pid: r.get(3)? });
                Ok(())
            },
        )?;
        run(
            "SELECT COALESCE(C.string, ''), N.string, R.start, R.end, R.pid,
                    CASE WHEN json_valid(E.extdata) THEN json_extract(E.extdata, '$.message') END
             FROM rocpd_region R
             JOIN rocpd_string N ON N.id = R.name_id AND N.guid = R.guid
             LEFT JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
             LEFT JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid",
            "reading API regions",
            &mut |r| {
                let category: String = r.get(0)?;
                let op: String = r.get(1)?;
                let message: Option<String> = r.get(5).ok().flatten();
                let domain = domain_of_category(&category);
                let name = match (&message, domain) {
                    (Some(m), MARKER_API) if !m.is_empty() => m.as_str(),
                    _ => op.as_str(),
                };
                f(&Activity { domain, name, duration_ns: duration(r, 2, 3)?, pid: r.get(4)? });
                Ok(())
            },
        )?;
        run(
            "SELECT COALESCE(C.string, ''), T.pid,
                    CASE WHEN json_valid(E.extdata) THEN json_extract(E.extdata, '$.message') END
             FROM rocpd_sample S
             JOIN rocpd_track T ON T.id = S.track_id AND T.guid = S.guid
             LEFT JOIN rocpd_event E ON E.id = S.event_id AND E.guid = S.guid
             LEFT JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid",
            "reading samples",
            &mut |r| {
                let category: String = r.get(0)?;
                let message: Option<String> = r.get(2).ok().flatten();
                let domain = domain_of_category(&category);
                let name = message.as_deref().unwrap_or(category.as_str());
                f(&Activity { domain, name, duration_ns: 0, pid: r.get::<_, Option<i64>>(1)?.unwrap_or(0) });
                Ok(())
            },
        )?;
        run(
            "SELECT N.string, M.start, M.end, M.pid FROM rocpd_memory_copy M
             JOIN rocpd_string N ON N.id = M.name_id AND N.guid = M.guid",
            "reading memory copies",
            &mut |r| {
                let name: String = r.get(0)?;
                f(&Activity { domain: MEMORY_COPY, name: &name, duration_ns: duration(r, 1, 2)?, pid: r.get(3)? });
                Ok(())
            },
        )?;
        run(
            "SELECT COALESCE(type, ''), COALESCE(level, ''), start, end, pid FROM rocpd_memory_allocate",
            "reading memory allocations",
            &mut |r| {
                let (domain, name) = allocation_operation(&r.get::<_, String>(0)?, &r.get::<_, String>(1)?);
                f(&Activity { domain, name, duration_ns: duration(r, 2, 3)?, pid: r.get(4)? });
                Ok(())
            },
        )?;
        Ok(count)
    }

    /// Calls `f` for every (dispatch, counter) value, summed over dimension instances. Returns the
    /// number of values.
    pub fn for_each_counter_value(&self, mut f: impl FnMut(&CounterValue<'_>)) -> Result<u64> {
        let what = "reading counter values";
        let mut stmt = self
            .conn
            .prepare(
                "SELECT COALESCE(K.display_name, 'kernel_' || D.kernel_id), I.name, SUM(P.value)
                 FROM rocpd_pmc_event P
                 JOIN rocpd_info_pmc I ON I.id = P.pmc_id AND I.guid = P.guid
                 JOIN rocpd_kernel_dispatch D ON D.event_id = P.event_id AND D.guid = P.guid
                 LEFT JOIN rocpd_info_kernel_symbol K ON K.id = D.kernel_id AND K.guid = D.guid
                 GROUP BY P.guid, D.id, I.id
                 ORDER BY P.guid, D.id, I.name",
            )
            .map_err(sqlite(&self.path, what))?;
        let mut rows = stmt.query([]).map_err(sqlite(&self.path, what))?;
        let mut count = 0;
        while let Some(r) = rows.next().map_err(sqlite(&self.path, what))? {
            let get = || -> rusqlite::Result<(String, String, f64)> {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, Option<f64>>(2)?.unwrap_or(0.0)))
            };
            let (kernel, counter, value) = get().map_err(sqlite(&self.path, what))?;
            f(&CounterValue { kernel: &kernel, counter: &counter, value });
            count += 1;
        }
        Ok(count)
    }

    /// Number of records per domain (the domains present), for "empty database" checks and
    /// messages.
    pub fn domain_counts(&self) -> Result<HashMap<String, u64>> {
        let mut counts: HashMap<String, u64> = HashMap::new();
        self.for_each_activity(|a| *counts.entry(a.domain.to_string()).or_default() += 1)?;
        Ok(counts)
    }
}

/// `end - start` of columns `s` and `e`, 0 when the end precedes the start or is missing.
fn duration(r: &rusqlite::Row<'_>, s: usize, e: usize) -> rusqlite::Result<u64> {
    let start: Option<i64> = r.get(s)?;
    let end: Option<i64> = r.get(e)?;
    Ok(match (start, end) {
        (Some(s), Some(e)) if e > s => e.abs_diff(s),
        _ => 0,
    })
}

/// The databases a command-line argument names: the file itself, or every `*.db` file under a
/// directory (recursively, sorted by path). A directory without any is an error.
pub fn find_databases(path: &Path) -> Result<Vec<PathBuf>> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::NotFound { path: path.to_path_buf() },
        _ => Error::Io { path: path.to_path_buf(), source: e },
    })?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut dirs = vec![path.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        for entry in entries {
            let entry = entry.map_err(|source| Error::Io { path: dir.clone(), source })?;
            let p = entry.path();
            let ty = entry.file_type().map_err(|source| Error::Io { path: p.clone(), source })?;
            if ty.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "db") {
                found.push(p);
            }
        }
    }
    if found.is_empty() {
        return Err(Error::NoDatabases { path: path.to_path_buf() });
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_map_to_rocprofv3_domains() {
        assert_eq!(domain_of_category("HSA_CORE_API"), HSA_API);
        assert_eq!(domain_of_category("HSA_AMD_EXT_API"), HSA_API);
        assert_eq!(domain_of_category("HIP_RUNTIME_API_EXT"), HIP_API);
        assert_eq!(domain_of_category("HIP_COMPILER_API_EXT"), HIP_API);
        assert_eq!(domain_of_category("MARKER_CORE_RANGE_API"), MARKER_API);
        assert_eq!(domain_of_category("RCCL_API"), RCCL_API);
        assert_eq!(domain_of_category("ROCDECODE_API_EXT"), ROCDECODE_API);
        assert_eq!(domain_of_category("KERNEL_DISPATCH"), KERNEL_DISPATCH);
        assert_eq!(domain_of_category("SOMETHING_NEW"), "SOMETHING_NEW");
    }

    #[test]
    fn allocation_rows_map_back_to_operations() {
        assert_eq!(allocation_operation("ALLOC", "REAL"), (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_ALLOCATE"));
        assert_eq!(allocation_operation("FREE", "REAL"), (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_FREE"));
        assert_eq!(allocation_operation("ALLOC", "VIRTUAL"), (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_VMEM_ALLOCATE"));
        assert_eq!(allocation_operation("FREE", "VIRTUAL"), (MEMORY_ALLOCATION, "MEMORY_ALLOCATION_VMEM_FREE"));
        assert_eq!(allocation_operation("ALLOC", "SCRATCH"), (SCRATCH_MEMORY, "SCRATCH_MEMORY_ALLOC"));
        assert_eq!(allocation_operation("RECLAIM", "SCRATCH"), (SCRATCH_MEMORY, "SCRATCH_MEMORY_ASYNC_RECLAIM"));
    }

    #[test]
    fn our_ddl_lists_twenty_tables_with_columns() {
        let cols = expected_columns();
        assert_eq!(cols.len(), 20);
        let dispatch = &cols.iter().find(|(t, _)| *t == "rocpd_kernel_dispatch").unwrap().1;
        assert_eq!(dispatch[..3], ["id", "guid", "nid"]);
        assert!(dispatch.contains(&"region_name_id".to_string()));
    }
}
