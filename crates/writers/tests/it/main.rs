//! Integration tests of rocprof-writers: rocpd schema conformance against AMD's DDL, agreement
//! between the rocpd views and the CSV files, and database integrity.

mod rocpd_schema;
mod views_vs_csv;

use std::path::{Path, PathBuf};

/// A fresh, empty scratch directory under the system temp dir, unique per test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rocprof-writers-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// `../shared` next to the workspace root, if present.
pub(crate) fn shared_dir() -> Option<PathBuf> {
    let mut dir: &Path = Path::new(env!("CARGO_MANIFEST_DIR"));
    loop {
        let manifest = dir.join("Cargo.toml");
        if manifest.is_file() && std::fs::read_to_string(&manifest).is_ok_and(|t| t.contains("[workspace]")) {
            let shared = dir.join("../shared");
            return shared.is_dir().then_some(shared);
        }
        dir = dir.parent()?;
    }
}
