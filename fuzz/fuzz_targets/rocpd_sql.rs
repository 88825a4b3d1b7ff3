//! Fuzz target: rocpd readers on real databases our writer produced, made hostile by SQL: the
//! input picks a seed database (`ROCPD_FUZZ_SEEDS`, a directory of `*.db`, see README.md) and a
//! list of 4-byte operations applied to it: drop a table or view, drop a column, replace an object
//! by a foreign table, set a column to NULL / huge / negative / text / blob / real values or to
//! ids that point nowhere, delete rows (dangling foreign keys), duplicate rows (duplicate ids),
//! rewrite rocpd_metadata (schema version, guids), and after closing, truncate the file or flip a
//! bit. Every reader (`convert`, `summary`, `diff`, `merge`) must answer with records or a typed
//! one-line error; byte-level mutation alone rarely gets past SQLite's own checks to these.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;

#[path = "rocpd_common.rs"]
mod rocpd_common;

fn seeds() -> &'static Vec<Vec<u8>> {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = std::env::var_os("ROCPD_FUZZ_SEEDS").expect("ROCPD_FUZZ_SEEDS names a directory of seed databases");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("ROCPD_FUZZ_SEEDS is readable")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "db"))
            .collect();
        paths.sort();
        let seeds: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).expect("seed database")).collect();
        assert!(!seeds.is_empty(), "no *.db in ROCPD_FUZZ_SEEDS");
        seeds
    })
}

/// The hostile values a column is set to.
const VALUES: [&str; 18] = [
    "NULL",
    "0",
    "-1",
    "1",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967296",
    "1e308",
    "-1e308",
    "0.5",
    "'x'",
    "''",
    "x'00ff'",
    "'{\"a\":'",
    "'{}'",
    "'GPU'",
    "(SELECT max(rowid) FROM \"{t}\") + 1000000",
    "(SELECT min(rowid) FROM \"{t}\")",
];

/// The tags of rocpd_metadata an operation rewrites.
const TAGS: [&str; 4] = ["schema_version", "guid", "uuid", "run_health.lost_total"];

fn objects(conn: &Connection) -> Vec<(String, String)> {
    conn.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .unwrap_or_default()
}

fn columns(conn: &Connection, table: &str) -> Vec<String> {
    conn.prepare(&format!("PRAGMA table_info(\"{table}\")"))
        .and_then(|mut s| s.query_map([], |r| r.get(1))?.collect())
        .unwrap_or_default()
}

/// Turns view `name` into a table with its rows (so that rows can be changed); no-op for tables.
fn materialise(conn: &Connection, kind: &str, name: &str) {
    if kind == "view" {
        let _ = conn.execute_batch(&format!(
            "CREATE TABLE \"__m\" AS SELECT * FROM \"{name}\"; DROP VIEW \"{name}\"; ALTER TABLE \"__m\" RENAME TO \"{name}\";"
        ));
        let _ = conn.execute_batch("DROP TABLE IF EXISTS \"__m\"");
    }
}

fuzz_target!(|data: &[u8]| {
    let seeds = seeds();
    let Some((&pick, ops)) = data.split_first() else { return };
    let db = rocpd_common::scratch().join("input.db");
    std::fs::write(&db, &seeds[usize::from(pick) % seeds.len()]).expect("writing the seed");
    let mut truncate = None;
    let mut flips = Vec::new();
    {
        let conn = Connection::open(&db).expect("the seed opens");
        let _ = conn.execute_batch("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA legacy_alter_table=ON;");
        for op in ops.chunks_exact(4).take(16) {
            let (o, a, b, c) = (op[0], op[1], op[2], op[3]);
            let all = objects(&conn);
            if all.is_empty() {
                break;
            }
            let (kind, name) = &all[usize::from(a) % all.len()];
            let cols = columns(&conn, name);
            let col = cols.get(usize::from(b) % cols.len().max(1)).cloned().unwrap_or_else(|| "id".into());
            let value = VALUES[usize::from(c) % VALUES.len()].replace("{t}", name);
            let every = usize::from(b % 4) + 1;
            let sql = match o % 9 {
                0 => format!("DROP {kind} \"{name}\""),
                1 => {
                    let keep: Vec<String> = cols.iter().filter(|k| **k != col).map(|k| format!("\"{k}\"")).collect();
                    if keep.is_empty() {
                        continue;
                    }
                    format!(
                        "CREATE TABLE \"__m\" AS SELECT {} FROM \"{name}\"; DROP {kind} \"{name}\"; \
                         ALTER TABLE \"__m\" RENAME TO \"{name}\";",
                        keep.join(", ")
                    )
                }
                2 => {
                    materialise(&conn, kind, name);
                    format!("UPDATE \"{name}\" SET \"{col}\" = {value} WHERE rowid % {every} = 0")
                }
                3 => {
                    materialise(&conn, kind, name);
                    format!("DELETE FROM \"{name}\" WHERE rowid % {every} = 0")
                }
                4 => {
                    materialise(&conn, kind, name);
                    format!("INSERT INTO \"{name}\" SELECT * FROM \"{name}\" WHERE rowid % {every} = 0")
                }
                5 => format!(
                    "DROP {kind} \"{name}\"; CREATE TABLE \"{name}\" (\"{col}\" TEXT, other BLOB); \
                     INSERT INTO \"{name}\" VALUES ({value}, x'00');"
                ),
                6 => {
                    materialise(&conn, "view", "rocpd_metadata");
                    let tag = TAGS[usize::from(b) % TAGS.len()];
                    let value = value.replace(name.as_str(), "rocpd_metadata");
                    format!("UPDATE rocpd_metadata SET value = {value} WHERE tag = '{tag}'")
                }
                7 => {
                    truncate = Some((u64::from(a) << 8 | u64::from(b)) * 64 + u64::from(c));
                    continue;
                }
                _ => {
                    flips.push((u64::from(a) << 16 | u64::from(b) << 8 | u64::from(c)) * 8 + u64::from(o >> 5));
                    continue;
                }
            };
            let _ = conn.execute_batch(&sql);
            let _ = conn.execute_batch("DROP TABLE IF EXISTS \"__m\"");
        }
    }
    if truncate.is_some() || !flips.is_empty() {
        let mut bytes = std::fs::read(&db).expect("reading back the database");
        for bit in flips {
            let i = (bit / 8) as usize % bytes.len().max(1);
            if let Some(byte) = bytes.get_mut(i) {
                *byte ^= 1 << (bit % 8);
            }
        }
        if let Some(n) = truncate {
            bytes.truncate(n as usize);
        }
        std::fs::write(&db, bytes).expect("writing the database");
    }
    rocpd_common::run_readers();
});
