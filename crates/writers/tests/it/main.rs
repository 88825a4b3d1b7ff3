//! Integration tests of rocprof-writers: rocpd schema conformance against AMD's DDL, agreement
//! between the rocpd views and the CSV files, and database integrity.

mod csv_columns;
mod json;
mod otf2;
mod perfetto;
mod rocpd_roundtrip;
mod rocpd_schema;
mod views_vs_csv;

use std::path::PathBuf;

/// A fresh, empty scratch directory under the system temp dir, unique per test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rocprof-writers-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
