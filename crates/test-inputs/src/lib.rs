//! Finding the inputs a test needs, and what a test does when one is missing: **skip or fail
//! under CI**.
//!
//! Every test crate of the workspace uses this (as a dev-dependency) instead of its own
//! "print SKIP and return" code, so one rule holds everywhere:
//!
//! * An input CI always has (`../shared`, the staged artifacts of `cargo xtask test`, `clang-19`,
//!   `rocminfo`, the C fixtures) is **required**: when it is missing, the test prints
//!   `SKIP <test>: <reason>` and passes on a developer machine, but **fails** under `CI=true`
//!   (a green CI run must never mean "the inputs were not there"). Use [`skip_or_fail`], or the
//!   finders [`shared`], [`stage`], [`program`] that call it.
//! * An input CI cannot have (AMD's closed decoder library, an AMD GPU) is **optional**: the test
//!   prints `SKIP <test>: <reason>` and passes everywhere. Use [`skip_optional`].
//!
//! ```
//! # fn test_body() -> Option<()> {
//! let Some(tables) = rocprof_test_inputs::shared("block_tables", "reference/pm4-block-tables.json") else {
//!     return None; // skipped (printed why); under CI=true the call above already failed the test
//! };
//! # let _ = tables; Some(()) }
//! ```
//!
//! `CI` counts as set when it is `true`, `1` or `yes` (any case), as GitHub, GitLab and most CI
//! services set it.

#![forbid(unsafe_code)]

pub mod sid;

use std::fmt::Display;
use std::path::{Path, PathBuf};

/// True when the suite runs under CI (`CI=true`, `1` or `yes`).
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| ci_value(&v))
}

fn ci_value(v: &str) -> bool {
    matches!(v.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes")
}

/// A **required** input of `test` is missing (one CI always has). Under `CI=true` this panics
/// (the test fails, naming the input); otherwise it prints `SKIP <test>: <reason>` and the caller
/// returns early.
#[track_caller]
pub fn skip_or_fail(test: &str, reason: impl Display) {
    decide(on_ci(), test, &reason.to_string());
}

#[track_caller]
fn decide(ci: bool, test: &str, reason: &str) {
    if ci {
        panic!("{test}: required input missing under CI=true (tests may not skip it there): {reason}");
    }
    eprintln!("SKIP {test}: {reason}");
}

/// An **optional** input of `test` is missing: one CI cannot have (AMD's closed decoder library,
/// an AMD GPU). Prints `SKIP <test>: <reason>`; never fails.
pub fn skip_optional(test: &str, reason: impl Display) {
    eprintln!("SKIP {test}: {reason} (not available on CI)");
}

/// The workspace root (the directory with the workspace `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/test-inputs lives two levels below the workspace root")
        .to_path_buf()
}

/// `../shared` beside the workspace root (the conformance corpora, references and tools CI
/// provides), whether or not it exists.
pub fn shared_root() -> PathBuf {
    workspace_root().join("..").join("shared")
}

/// `../shared/<rel>` when it exists; otherwise [`skip_or_fail`] and `None`.
#[track_caller]
pub fn shared(test: &str, rel: &str) -> Option<PathBuf> {
    let p = shared_root().join(rel);
    if p.exists() {
        return Some(p);
    }
    skip_or_fail(test, format_args!("{} is absent (../shared must sit beside the repository)", p.display()));
    None
}

/// A path given by environment variable `var` when set and non-empty, else `../shared/<rel>`;
/// when the chosen path does not exist, [`skip_or_fail`] and `None`.
#[track_caller]
pub fn shared_or_env(test: &str, var: &str, rel: &str) -> Option<PathBuf> {
    match std::env::var_os(var).filter(|v| !v.is_empty()) {
        Some(p) => {
            let p = PathBuf::from(p);
            if p.exists() {
                return Some(p);
            }
            skip_or_fail(test, format_args!("{var}={} does not exist", p.display()));
            None
        }
        None => shared(test, rel),
    }
}

/// The staged installation from `ROCPROF_RS_STAGE` (set by `cargo xtask test`), when it holds
/// `rocprof-rs`; otherwise [`skip_or_fail`] and `None`.
#[track_caller]
pub fn stage(test: &str) -> Option<PathBuf> {
    match std::env::var_os(rocprof_launch::names::STAGE) {
        Some(dir) if Path::new(&dir).join("rocprof-rs").is_file() => Some(PathBuf::from(dir)),
        Some(dir) => {
            skip_or_fail(test, format_args!("{} has no rocprof-rs; run `cargo xtask test`", Path::new(&dir).display()));
            None
        }
        None => {
            let stage = rocprof_launch::names::STAGE;
            skip_or_fail(test, format_args!("{stage} is not set; run `cargo xtask test` to build and stage the tools"));
            None
        }
    }
}

/// `dir/<rel>` of the stage when it exists (a staged fixture program, the simulator); otherwise
/// [`skip_or_fail`] and `None`.
#[track_caller]
pub fn staged(test: &str, stage: &Path, rel: &str) -> Option<PathBuf> {
    let p = stage.join(rel);
    if p.exists() {
        return Some(p);
    }
    skip_or_fail(
        test,
        format_args!("{} is not staged (gcc or AMD's HSA headers missing? run `cargo xtask setup`)", p.display()),
    );
    None
}

/// A program CI installs (`clang-19`, `rocminfo`, `hipcc`...): an absolute path that exists, or
/// a name found on `PATH`; otherwise [`skip_or_fail`] (the reason says which Debian package
/// provides it) and `None`.
#[track_caller]
pub fn program(test: &str, name: &str, debian_package: &str) -> Option<PathBuf> {
    if let Some(p) = find_program(name) {
        return Some(p);
    }
    skip_or_fail(
        test,
        format_args!("{name} is not installed (apt-get install {debian_package}; `.ci/run` installs it)"),
    );
    None
}

/// `name` as an existing absolute path, or its first match on `PATH`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|c| c.is_file())
}

/// Where AMD's JSON schema of rocprofv3's `results.json` lives in ROCm/rocm-systems.
const AMD_RESULTS_SCHEMA: &str = "projects/rocprofiler-sdk/source/docs/rocprofv3-schema.json";

/// AMD's JSON schema of rocprofv3's `results.json`, read from the git dir of ROCm/rocm-systems
/// named by `ROCPD_MIRROR` (never copied into this repository). An optional input: CI has no
/// mirror, so `None` (after [`skip_optional`]'s line naming `test`) when it is not set or lacks
/// the file.
pub fn amd_results_schema(test: &str) -> Option<String> {
    amd_source(test, AMD_RESULTS_SCHEMA)
}

/// A file of AMD's ROCm/rocm-systems repository (`path` from its root, at HEAD), read from the
/// git dir named by `ROCPD_MIRROR`; an optional input like [`amd_results_schema`].
pub fn amd_source(test: &str, path: &str) -> Option<String> {
    let Some(mirror) = std::env::var_os("ROCPD_MIRROR") else {
        skip_optional(test, format!("AMD's {path}: ROCPD_MIRROR (a git dir of ROCm/rocm-systems) is not set"));
        return None;
    };
    let out = std::process::Command::new("git")
        .arg("--git-dir")
        .arg(&mirror)
        .args(["show", &format!("HEAD:{path}")])
        .output();
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8_lossy(&o.stdout).into_owned()),
        _ => {
            skip_optional(test, format!("{path} not readable from ROCPD_MIRROR"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_values_follow_the_common_services() {
        for v in ["true", "TRUE", "1", "yes", " true\n"] {
            assert!(ci_value(v), "{v:?}");
        }
        for v in ["", "false", "0", "no", "maybe"] {
            assert!(!ci_value(v), "{v:?}");
        }
    }

    #[test]
    fn a_missing_required_input_fails_under_ci_and_skips_elsewhere() {
        decide(false, "t", "x is absent");
        let err = std::panic::catch_unwind(|| decide(true, "t", "../shared/x is absent")).unwrap_err();
        let msg = err.downcast_ref::<String>().expect("a formatted panic message");
        assert!(msg.contains("t: required input missing under CI=true"), "{msg}");
        assert!(msg.contains("../shared/x is absent"), "{msg}");
    }

    #[test]
    fn the_workspace_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[workspace]"));
    }

    #[test]
    fn programs_are_found_on_path_or_by_absolute_path() {
        assert!(find_program("sh").is_some(), "sh is on every PATH");
        assert_eq!(find_program("/bin/sh"), Some(PathBuf::from("/bin/sh")));
        assert_eq!(find_program("/nonexistent/prog"), None);
        assert_eq!(find_program("rocprof-no-such-program"), None);
    }
}
