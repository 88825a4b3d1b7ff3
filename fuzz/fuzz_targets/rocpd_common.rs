//! Shared by the rocpd fuzz targets: a per-process scratch directory on tmpfs, the hostile
//! database written there, and every reader of rocpd databases run over it through the CLI's own
//! subcommand code (`rocprof_cli::fuzzing::rocpd_readers`: `convert`, `summary`, `diff`, `merge`).
//! Errors are the expected outcome for most inputs; a panic, a hang (libFuzzer's -timeout) or a
//! runaway allocation is a bug.

use std::path::PathBuf;
use std::sync::OnceLock;

/// `/dev/shm/rocpd-fuzz-<pid>/` (or under the temporary directory when there is no /dev/shm).
pub fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base =
            if std::path::Path::new("/dev/shm").is_dir() { PathBuf::from("/dev/shm") } else { std::env::temp_dir() };
        let dir = base.join(format!("rocpd-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        dir
    })
}

/// Runs every reader over the database file at `scratch()/input.db`.
pub fn run_readers() {
    let db = scratch().join("input.db");
    std::hint::black_box(rocprof_cli::fuzzing::rocpd_readers(&db, scratch()));
}
