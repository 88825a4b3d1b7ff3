//! `merge`: many rocpd databases (typically one per process of a run: MPI ranks, forked
//! children) into one file with one session guid, readable by AMD's `rocpd` tools and ours.
//!
//! Every row of every input is kept; only keys change:
//! - strings are pooled, de-duplicated and numbered again in byte-wise sorted order from 1 (the
//!   writer's convention, so `""` stays id 1), and every `name_id` / `category_id` /
//!   `region_name_id` follows;
//! - nodes are de-duplicated by `machine_id` (the column is UNIQUE);
//! - processes and threads keep their OS ids (the schema's convention) unless another input
//!   already used the id for a different process or thread, which then gets the next free id;
//! - every other table's ids are shifted past the ids already merged, and the columns that
//!   refer to them are shifted alike.
//!
//! The `dispatch_id`, correlation and stack ids stay as recorded (they are per process). The
//! JSON `extdata` columns are copied unchanged, so they keep the original ids for reference.
//! One `rocpd_metadata` row `merge_source` per input session records its guid and file.
//!
//! Which column refers to which table follows from the column name (`pid` -> process, `nid` ->
//! node, `agent_id` -> agent, ...); a unit test checks this rule against every FOREIGN KEY of
//! the DDL, so a schema change that breaks it fails the tests.

use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use rocprof_writers::rocpd::{new_guid, uuid_suffix};
use rocprof_writers::schema::{self, render};
use rusqlite::{params, Connection};

use crate::error::{sqlite, Error, Result};
use crate::rocpd::{table_columns, Database};

/// How one column of a source row becomes a column of the merged row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rekey {
    /// Copied as is.
    Keep,
    /// Left to its DEFAULT (the merged file's guid).
    Default,
    /// Looked up in the id map of a table (strings, nodes, processes, threads).
    Map(&'static str),
    /// Shifted by the offset of a table.
    Shift(&'static str),
}

/// Tables whose ids go through a lookup map rather than a shift.
const MAPPED: [&str; 4] = ["rocpd_string", "rocpd_info_node", "rocpd_info_process", "rocpd_info_thread"];

/// The rule: what a column of `table` refers to, by its name.
fn rekey(table: &'static str, column: &str) -> Rekey {
    let target = match column {
        "guid" => return Rekey::Default,
        "id" => table,
        "nid" => "rocpd_info_node",
        "pid" => "rocpd_info_process",
        "tid" => "rocpd_info_thread",
        "name_id" | "category_id" | "region_name_id" => "rocpd_string",
        "agent_id" | "dst_agent_id" | "src_agent_id" => "rocpd_info_agent",
        "queue_id" => "rocpd_info_queue",
        "stream_id" => "rocpd_info_stream",
        "pmc_id" => "rocpd_info_pmc",
        "code_object_id" => "rocpd_info_code_object",
        "kernel_id" => "rocpd_info_kernel_symbol",
        "track_id" => "rocpd_track",
        "event_id" => "rocpd_event",
        _ => return Rekey::Keep,
    };
    if MAPPED.contains(&target) {
        Rekey::Map(target)
    } else {
        Rekey::Shift(target)
    }
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeSummary {
    /// The merged file.
    pub output: PathBuf,
    /// Its session guid.
    pub guid: String,
    /// Input sessions merged (files x sessions per file).
    pub sessions: usize,
    /// Rows per table in the output, DDL order.
    pub rows: Vec<(&'static str, u64)>,
    /// Processes whose id was taken by an earlier input: (file, old id, new id).
    pub renumbered_processes: Vec<(PathBuf, i64, i64)>,
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_path_buf(), source }
}

/// Merges `inputs` into `output` (replaced if it exists; written as `<output>.partial` and
/// renamed when complete). Each input is checked first, so a bad input fails before anything
/// is written.
pub fn merge(inputs: &[PathBuf], output: &Path, progress: &ProgressBar) -> Result<MergeSummary> {
    if inputs.is_empty() {
        return Err(Error::Usage("merge needs at least one input database".into()));
    }
    let mut sessions: Vec<(PathBuf, String)> = Vec::new();
    for p in inputs {
        if same_file(p, output) {
            return Err(Error::Usage(format!("the output {} is also an input", output.display())));
        }
        let db = Database::open(p)?;
        for g in db.guids() {
            sessions.push((p.clone(), g.clone()));
        }
        if db.guids().is_empty() {
            return Err(Error::NotRocpd { path: p.clone(), why: "rocpd_metadata has no guid".into() });
        }
    }
    let tables: Vec<&'static str> = schema::rocpd_tables().into_iter().filter(|t| *t != "rocpd_metadata").collect();
    progress.set_length((sessions.len() * (tables.len() + 1)) as u64);

    let mut partial = output.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    match std::fs::remove_file(&partial) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(&partial)(e)),
        _ => {}
    }
    let result = write_merged(&partial, output, &sessions, &tables, progress);
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
        return result;
    }
    std::fs::rename(&partial, output).map_err(io_err(output))?;
    result
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn write_merged(
    partial: &Path,
    output: &Path,
    sessions: &[(PathBuf, String)],
    tables: &[&'static str],
    progress: &ProgressBar,
) -> Result<MergeSummary> {
    let err = |what| sqlite(output, what);
    let conn = Connection::open(partial).map_err(err("creating the output"))?;
    let now_ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let guid = new_guid(now_ns, std::process::id());
    let suffix = uuid_suffix(&guid);
    let ddl = format!(
        "PRAGMA foreign_keys = OFF;\nPRAGMA journal_mode = OFF;\nPRAGMA synchronous = OFF;\nPRAGMA user_version = {};\n{}\n{}\n{}\n{}",
        schema::ROCPD_USER_VERSION,
        render(schema::ROCPD_TABLES_SQL, &suffix, &guid),
        schema::rocpd_alias_views_sql(&suffix),
        render(schema::ROCPD_DATA_VIEWS_SQL, &suffix, &guid),
        render(schema::ROCPD_SUMMARY_VIEWS_SQL, &suffix, &guid),
    );
    conn.execute_batch(&ddl).map_err(err("creating the schema"))?;
    let mut temp = String::from("CREATE TEMP TABLE merge_strings (string TEXT PRIMARY KEY) WITHOUT ROWID;\n");
    for t in MAPPED {
        // `old` is the rowid: each lookup is one B-tree probe.
        temp.push_str(&format!(
            "CREATE TEMP TABLE {} (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);\n",
            map_table(t)
        ));
    }
    conn.execute_batch(&temp).map_err(err("preparing the merge"))?;

    // Pass 1: the pooled, sorted string table.
    let mut files: Vec<&PathBuf> = sessions.iter().map(|(p, _)| p).collect();
    files.dedup();
    for f in &files {
        attach(&conn, f, output)?;
        conn.execute("INSERT OR IGNORE INTO merge_strings SELECT string FROM src.rocpd_string", [])
            .map_err(err("pooling strings"))?;
        detach(&conn, output)?;
    }
    conn.execute(
        &format!(
            "INSERT INTO \"rocpd_string{suffix}\" (id, string)
             SELECT ROW_NUMBER() OVER (ORDER BY string COLLATE BINARY), string FROM merge_strings"
        ),
        [],
    )
    .map_err(err("writing strings"))?;

    // Pass 2: the rows, one input session at a time.
    let mut renumbered = Vec::new();
    for (path, session_guid) in sessions {
        attach(&conn, path, output)?;
        conn.execute_batch("BEGIN").map_err(err("starting a transaction"))?;
        let reset: String = MAPPED.iter().map(|t| format!("DELETE FROM {};\n", map_table(t))).collect();
        conn.execute_batch(&reset).map_err(err("resetting id maps"))?;
        conn.execute(
            &format!(
                "INSERT INTO merge_map_string SELECT s.id, o.id FROM src.rocpd_string s
                 JOIN \"rocpd_string{suffix}\" o ON o.string = s.string WHERE s.guid = ?1"
            ),
            [session_guid],
        )
        .map_err(err("mapping strings"))?;
        let mut deltas: std::collections::HashMap<&'static str, i64> = std::collections::HashMap::new();
        progress.inc(1);
        for &table in tables.iter().filter(|t| **t != "rocpd_string") {
            let cols = table_columns(&conn, &format!("{table}{suffix}")).map_err(err("reading the schema"))?;
            if let Some(delta) = plan_ids(&conn, table, &suffix, session_guid, path, &mut renumbered, output)? {
                deltas.insert(table, delta);
            }
            let mut names = Vec::new();
            let mut exprs = Vec::new();
            for c in &cols {
                let e = match rekey(table, c) {
                    Rekey::Default => continue,
                    Rekey::Keep => format!("s.\"{c}\""),
                    Rekey::Map(t) => format!("(SELECT new FROM {} WHERE old = s.\"{c}\")", map_table(t)),
                    // Parents come first in DDL order, so their shift is planned already.
                    Rekey::Shift(t) => format!("s.\"{c}\" + {}", deltas.get(t).copied().unwrap_or(0)),
                };
                names.push(format!("\"{c}\""));
                exprs.push(e);
            }
            let sql = format!(
                "INSERT INTO \"{table}{suffix}\" ({}) SELECT {} FROM src.\"{table}\" s WHERE s.guid = ?1{} ORDER BY s.id",
                names.join(", "),
                exprs.join(", "),
                row_filter(table, &suffix)
            );
            // A row the output's schema refuses (NULL where rocpd needs a value, an id that is
            // not an integer, ...) is the input's fault: the error names the input.
            conn.execute(&sql, [session_guid]).map_err(sqlite(path, "copying its rows into the merged database"))?;
            progress.inc(1);
        }
        conn.execute(
            &format!("INSERT INTO \"rocpd_metadata{suffix}\" (tag, value) VALUES ('merge_source', ?1)"),
            [format!("{session_guid} {}", path.display())],
        )
        .map_err(err("recording the sources"))?;
        conn.execute_batch("COMMIT").map_err(err("committing"))?;
        detach(&conn, output)?;
    }
    let mut rows = Vec::new();
    for t in schema::rocpd_tables() {
        let n: i64 = conn
            .query_row(&format!("SELECT COUNT(*) FROM \"{t}{suffix}\""), [], |r| r.get(0))
            .map_err(err("counting rows"))?;
        rows.push((t, n as u64));
    }
    let drop: String = std::iter::once("DROP TABLE temp.merge_strings;\n".to_string())
        .chain(MAPPED.iter().map(|t| format!("DROP TABLE temp.{};\n", map_table(t))))
        .collect();
    conn.execute_batch(&drop).map_err(err("cleaning up"))?;
    conn.close().map_err(|(_, e)| err("closing the output")(e))?;
    Ok(MergeSummary {
        output: output.to_path_buf(),
        guid,
        sessions: sessions.len(),
        rows,
        renumbered_processes: renumbered,
    })
}

fn attach(conn: &Connection, path: &Path, output: &Path) -> Result<()> {
    let p = path.to_str().ok_or_else(|| Error::Usage(format!("{}: path is not valid UTF-8", path.display())))?;
    conn.execute("ATTACH DATABASE ?1 AS src", [p]).map_err(sqlite(output, "attaching an input"))?;
    Ok(())
}

fn detach(conn: &Connection, output: &Path) -> Result<()> {
    conn.execute_batch("DETACH DATABASE src").map_err(sqlite(output, "detaching an input"))
}

/// The temporary id map of a mapped table (`merge_map_string`, ...).
fn map_table(table: &str) -> String {
    format!("merge_map_{}", table.trim_start_matches("rocpd_").trim_start_matches("info_"))
}

/// Prepares the ids of `table` for one session: the shift past the ids already in the output
/// (returned), or, for nodes, processes and threads, a map that keeps ids where they are free
/// (filled in; `None` returned).
fn plan_ids(
    conn: &Connection,
    table: &'static str,
    suffix: &str,
    session: &str,
    path: &Path,
    renumbered: &mut Vec<(PathBuf, i64, i64)>,
    output: &Path,
) -> Result<Option<i64>> {
    let err = |what| sqlite(output, what);
    let out = format!("\"{table}{suffix}\"");
    if !MAPPED.contains(&table) {
        let delta: i64 = conn
            .query_row(
                &format!(
                    "SELECT CASE WHEN (SELECT COUNT(*) FROM {out}) = 0 THEN 0
                            ELSE (SELECT MAX(id) FROM {out}) + 1 - COALESCE((SELECT MIN(id) FROM src.\"{table}\" WHERE guid = ?1), 0) END"
                ),
                [session],
                |r| r.get(0),
            )
            .map_err(err("planning ids"))?;
        return Ok(Some(delta));
    }
    let map = map_table(table);
    // Nodes are the same machine when their machine_id is (the row is then not copied again, see
    // `row_filter`); processes and threads are distinct per session (an OS id seen twice belongs
    // to processes of different runs or hosts).
    let ids: Vec<(i64, Option<i64>)> = if table == "rocpd_info_node" {
        conn.prepare(&format!(
            "SELECT s.id, o.id FROM src.\"{table}\" s LEFT JOIN {out} o ON o.machine_id = s.machine_id WHERE s.guid = ?1 ORDER BY s.id"
        ))
        .and_then(|mut st| st.query_map([session], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
    } else {
        conn.prepare(&format!("SELECT s.id, NULL FROM src.\"{table}\" s WHERE s.guid = ?1 ORDER BY s.id"))
            .and_then(|mut st| st.query_map([session], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
    }
    .map_err(err("planning ids"))?;
    for (old, existing) in ids {
        let new = match existing {
            Some(id) => id,
            None => {
                // Taken: in the output already, or handed out earlier in this session.
                let taken: bool = conn
                    .query_row(
                        &format!(
                            "SELECT EXISTS (SELECT 1 FROM {out} WHERE id = ?1)
                                 OR EXISTS (SELECT 1 FROM {map} WHERE new = ?1)"
                        ),
                        [old],
                        |r| r.get(0),
                    )
                    .map_err(err("planning ids"))?;
                if taken {
                    let next: i64 = conn
                        .query_row(
                            &format!(
                                "SELECT MAX(COALESCE((SELECT MAX(id) FROM {out}), 0),
                                            COALESCE((SELECT MAX(new) FROM {map}), 0)) + 1"
                            ),
                            [],
                            |r| r.get(0),
                        )
                        .map_err(err("planning ids"))?;
                    if table == "rocpd_info_process" {
                        renumbered.push((path.to_path_buf(), old, next));
                    }
                    next
                } else {
                    old
                }
            }
        };
        conn.execute(&format!("INSERT INTO {map} (old, new) VALUES (?1, ?2)"), params![old, new])
            .map_err(err("planning ids"))?;
    }
    Ok(None)
}

/// Extra condition on the source rows of `table`: node rows of machines already in the output
/// are not copied again (their ids map to the existing row).
fn row_filter(table: &str, suffix: &str) -> String {
    if table == "rocpd_info_node" {
        format!(" AND s.machine_id NOT IN (SELECT machine_id FROM \"rocpd_info_node{suffix}\")")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_naming_rule_matches_every_foreign_key_of_the_ddl() {
        let mut table = "";
        let mut checked = 0;
        for line in schema::ROCPD_TABLES_SQL.lines() {
            let l = line.trim();
            if let Some(rest) = l.strip_prefix("CREATE TABLE IF NOT EXISTS \"") {
                table = schema::rocpd_tables()
                    .into_iter()
                    .find(|t| rest.starts_with(&format!("{t}{{{{uuid}}}}")))
                    .expect("a known table");
            }
            if let Some(rest) = l.strip_prefix("FOREIGN KEY (\"") {
                let column = &rest[..rest.find('"').unwrap()];
                let target = rest.split("REFERENCES \"").nth(1).unwrap().split("{{uuid}}").next().unwrap();
                let got = match rekey(table, column) {
                    Rekey::Map(t) | Rekey::Shift(t) => t,
                    other => panic!("{table}.{column} -> {other:?}"),
                };
                assert_eq!(got, target, "{table}.{column}");
                checked += 1;
            }
        }
        assert!(checked >= 50, "only {checked} foreign keys found");
        assert_eq!(rekey("rocpd_event", "id"), Rekey::Shift("rocpd_event"));
        assert_eq!(rekey("rocpd_info_process", "id"), Rekey::Map("rocpd_info_process"));
        assert_eq!(rekey("rocpd_kernel_dispatch", "dispatch_id"), Rekey::Keep);
        assert_eq!(rekey("rocpd_kernel_dispatch", "guid"), Rekey::Default);
    }
}
