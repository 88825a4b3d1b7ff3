//! The database set AMD's `rocpd` tools work on, built as its `RocpdImportData` builds it: an
//! in-memory SQLite connection with every input attached (`db0`, `db1`, ...), one temporary view
//! per `rocpd_*` table name unioning that table of every input, the rocpd data and summary views
//! on top (as temporary views), and the optional time window (`--start/--end`,
//! `--start-marker/--end-marker`, `--inclusive`) that narrows the `rocpd_*` views.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use rusqlite::functions::FunctionFlags;
use rusqlite::Connection;

/// Time-window options, as AMD's `rocpd` tools take them.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct WindowArgs {
    /// Start time: a percentage of the trace ('50%') or nanoseconds.
    #[arg(long, conflicts_with = "start_marker")]
    pub(crate) start: Option<String>,
    /// Named marker whose start is the window start.
    #[arg(long)]
    pub(crate) start_marker: Option<String>,
    /// End time: a percentage of the trace ('75%') or nanoseconds.
    #[arg(long, conflicts_with = "end_marker")]
    pub(crate) end: Option<String>,
    /// Named marker whose start is the window end.
    #[arg(long)]
    pub(crate) end_marker: Option<String>,
    /// True: keep events entirely inside the window; false: events that overlap it.
    #[arg(long, value_parser = parse_truthy, default_value = "true", action = clap::ArgAction::Set, value_name = "BOOL")]
    pub(crate) inclusive: bool,
}

fn parse_truthy(v: &str) -> Result<bool, String> {
    Ok(matches!(v.to_ascii_lowercase().as_str(), "true" | "t" | "yes" | "1"))
}

impl WindowArgs {
    /// None: no window. Some(false): by times; Some(true): by markers (AMD's precedence).
    fn mode(&self) -> Option<bool> {
        if self.start.is_some() || self.end.is_some() {
            Some(false)
        } else if self.start_marker.is_some() || self.end_marker.is_some() {
            Some(true)
        } else {
            None
        }
    }
}

/// The attached databases and their views.
pub(crate) struct Import {
    pub(crate) conn: Connection,
    /// `rocpd_*` base name -> one `SELECT * FROM dbN.<name>` per input holding it.
    tables: BTreeMap<String, Vec<String>>,
}

impl Import {
    /// Attaches `paths` and creates the views.
    pub(crate) fn open(paths: &[PathBuf]) -> Result<Self> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch("PRAGMA foreign_keys = ON")?;
        // AMD's summary SQL uses SQRT, one of SQLite's optional math functions (Python's
        // sqlite3 has them; the bundled SQLite is built without): the same function, NULL-safe.
        conn.create_scalar_function(
            "SQRT",
            1,
            FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
            |ctx| Ok(ctx.get::<Option<f64>>(0)?.map(f64::sqrt)),
        )?;
        let mut dbs = Vec::new();
        let mut uuids: Vec<String> = Vec::new();
        for (i, p) in paths.iter().enumerate() {
            if !p.exists() {
                bail!("File '{}' does not exist.", p.display());
            }
            let name = format!("db{i}");
            conn.execute(&format!("ATTACH DATABASE ?1 AS {name}"), [p.to_string_lossy()])
                .with_context(|| format!("attaching {}", p.display()))?;
            let mut st = conn
                .prepare(&format!("SELECT value FROM {name}.rocpd_metadata WHERE tag='uuid'"))
                .with_context(|| format!("{} is not a rocpd database (no rocpd_metadata)", p.display()))?;
            for u in st.query_map([], |r| r.get::<_, String>(0))? {
                let u = u?;
                if !uuids.contains(&u) {
                    uuids.push(u);
                }
            }
            dbs.push(name);
        }
        let mut tables: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for db in &dbs {
            let mut st = conn
                .prepare(&format!("SELECT name FROM {db}.sqlite_master WHERE type='table' AND name LIKE 'rocpd_%'"))?;
            let names: Vec<String> = st.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
            for t in names {
                for u in uuids.iter().filter(|u| !u.is_empty() && t.contains(u.as_str())) {
                    let base = t.replace(u.as_str(), "");
                    let select = format!("SELECT * FROM {db}.{base}");
                    let list = tables.entry(base).or_default();
                    if !list.contains(&select) {
                        list.push(select);
                    }
                }
            }
        }
        for (base, selects) in &tables {
            conn.execute_batch(&format!("CREATE TEMPORARY VIEW {base} AS {}", selects.join(" UNION ALL ")))?;
        }
        for sql in [rocprof_writers::schema::ROCPD_DATA_VIEWS_SQL, rocprof_writers::schema::ROCPD_SUMMARY_VIEWS_SQL] {
            conn.execute_batch(&sql.replace("CREATE VIEW", "CREATE TEMPORARY VIEW"))
                .context("creating the rocpd views")?;
        }
        Ok(Self { conn, tables })
    }

    /// The earliest start and latest end of regions, samples, dispatches, allocations and copies.
    fn bounds(&self) -> Result<(Option<i64>, Option<i64>)> {
        let sql = "SELECT MIN(min_time), MAX(max_time) FROM (
            SELECT start AS min_time, end AS max_time FROM regions_and_samples
            UNION ALL SELECT start AS min_time, end AS max_time FROM rocpd_kernel_dispatch
            UNION ALL SELECT start AS min_time, end AS max_time FROM rocpd_memory_allocate
            UNION ALL SELECT start AS min_time, end AS max_time FROM rocpd_memory_copy)";
        Ok(self.conn.query_row(sql, [], |r| Ok((r.get(0)?, r.get(1)?)))?)
    }

    /// The start of the one marker named `name` (a ROCTx mark or range: its function name or
    /// message). Ranges are regions, `roctxMarkA` marks are samples: AMD's `markers` view reads
    /// `regions_and_samples`.
    fn marker_start(&self, name: &str, which: &str) -> Result<f64> {
        let mut st = self.conn.prepare(
            "SELECT start FROM regions_and_samples WHERE category LIKE 'MARKER_%' AND \
             (name = ?1 OR json_extract(extdata, '$.message') = ?1)",
        )?;
        let starts: Vec<i64> = st.query_map([name], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        match starts.as_slice() {
            [] => bail!("{which} marker \"{name}\" not found"),
            [one] => Ok(*one as f64),
            _ => bail!("ambiguous reference - multiple {which} markers found with name \"{name}\""),
        }
    }

    /// The `[start, end]` window (ns) the options name, None without window options.
    pub(crate) fn window(&mut self, w: &WindowArgs) -> Result<Option<(u64, u64)>> {
        let Some(by_marker) = w.mode() else { return Ok(None) };
        let (Some(lo), Some(hi)) = self.bounds()? else {
            bail!("cannot create time window - trace file contains no timing data");
        };
        let (start, end) = if by_marker {
            let s = w.start_marker.as_deref().map(|m| self.marker_start(m, "start")).transpose()?;
            let e = w.end_marker.as_deref().map(|m| self.marker_start(m, "end")).transpose()?;
            (s.unwrap_or(lo as f64), e.unwrap_or(hi as f64))
        } else {
            let conv = |t: Option<&str>, default: i64| -> Result<f64> {
                let Some(t) = t.filter(|t| !t.is_empty()) else { return Ok(default as f64) };
                if let Some(p) = t.strip_suffix('%') {
                    let f: f64 = p.trim().parse().with_context(|| format!("invalid percentage '{t}'"))?;
                    if !(0.0..=100.0).contains(&f) {
                        bail!("invalid percentage '{t}' - must be between '0%' and '100%'");
                    }
                    return Ok(lo as f64 + (hi - lo) as f64 * f / 100.0);
                }
                t.parse().with_context(|| {
                    format!("invalid time value '{t}' - must be percentage (e.g., '50%') or a number (nanoseconds)")
                })
            };
            (conv(w.start.as_deref(), lo)?, conv(w.end.as_deref(), hi)?)
        };
        if end <= start {
            bail!("invalid time range - end time ({end}) must be greater than start time ({start})");
        }
        Ok(Some((start.max(0.0) as u64, end.max(0.0) as u64)))
    }

    /// Narrows every timed `rocpd_*` view to the window (no-op without window options); prints
    /// the bounds before and after, as AMD's tools do.
    pub(crate) fn apply_window(&mut self, w: &WindowArgs) -> Result<()> {
        let Some((b, e)) = self.window(w)? else { return Ok(()) };
        let print = |label: &str, lo: i64, hi: i64| {
            println!("# {label:>8} time bounds: {lo} : {hi} nsec (delta={} nsec)", hi - lo);
            (hi - lo) as f64
        };
        let (lo, hi) = self.bounds()?;
        let before = print("Initial", lo.unwrap_or(0), hi.unwrap_or(0));
        for (table, selects) in &self.tables {
            if table.starts_with("rocpd_info_") {
                continue;
            }
            let cols = self.columns(table)?;
            let filter = if cols.iter().any(|c| c == "start") && cols.iter().any(|c| c == "end") {
                if w.inclusive {
                    format!("start >= {b} AND end <= {e}")
                } else {
                    format!("start <= {e} AND end >= {b}")
                }
            } else if cols.iter().any(|c| c == "timestamp") {
                format!("timestamp >= {b} AND timestamp <= {e}")
            } else {
                continue;
            };
            let union: Vec<String> = selects.iter().map(|s| format!("{s} WHERE {filter}")).collect();
            self.conn.execute_batch(&format!(
                "DROP VIEW IF EXISTS temp.{table}; CREATE TEMPORARY VIEW {table} AS {};",
                union.join(" UNION ALL ")
            ))?;
        }
        let (lo2, hi2) = self.bounds()?;
        let after = print("Windowed", lo2.unwrap_or(0), hi2.unwrap_or(0));
        let reduction = if before > 0.0 { (1.0 - after / before) * 100.0 } else { 0.0 };
        println!("# Time windowing reduced the duration by {reduction:6.2}%");
        Ok(())
    }

    /// Column names of a table or view.
    pub(crate) fn columns(&self, name: &str) -> Result<Vec<String>> {
        let st = self.conn.prepare(&format!("SELECT * FROM \"{name}\" LIMIT 0"))?;
        Ok(st.column_names().into_iter().map(str::to_string).collect())
    }

    /// Names of the temporary views, in creation order.
    pub(crate) fn temp_views(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare("SELECT name FROM sqlite_temp_master WHERE type='view'")?;
        let v = st.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        Ok(v)
    }
}
