//! Project automation: `cargo xtask <task>`. Builds and stages the shared libraries, runs the
//! test suite, the benchmarks and the demo job. Only std and anyhow, so it builds in seconds.

use std::env;
use std::process::{Command, ExitCode};

use anyhow::{bail, Context, Result};

mod counters;
mod fixtures;
mod host;
mod hsa_api;
mod hsa_sim;
mod hsa_sys;
mod isa_tables;
mod json;
mod sid;
mod stage;
mod targets;

use host::{cargo, root, status};

/// One line of help per task, printed by `cargo xtask help`.
const TASKS: &[(&str, &str)] = &[
    ("setup", "install the Debian packages the C fixtures and rocminfo tests need (root only)"),
    ("build", "build the workspace in release mode and stage it under target/stage/"),
    ("demo", "build, then profile the vector-add fixture on hsa-sim (gfx942) into ./rocprof-demo"),
    ("test", "fmt and clippy gates, setup, build, then the whole test suite against the staged artifacts"),
    ("bench", "run the benchmarks (tracing overhead, rocpd write rate, SQTT decode rate, ISA interpreter rate)"),
    ("ci", "what .ci/run does: test"),
    ("sid", "build (or check) the Debian sid chroot with ROCm 6.4 at $ROCPROF_RS_SID_ROOT (root; --rebuild: from scratch)"),
    ("fixtures", "rebuild the AMDGPU code objects from fixtures/kernels/*.cl (--check: compare; --stage DIR: stage C fixtures only)"),
    ("codegen-isa", "regenerate crates/isa/tables/*.txt from LLVM 21's llvm-mc in the sid chroot (--check: only verify; --llvm-mc CMD: another)"),
    ("codegen-counters", "regenerate schemas/counters/counters.txt from ../shared/reference (--check: only verify)"),
    ("codegen-targets", "regenerate crates/targets/src/block_tables.rs from ../shared/reference (--check: only verify)"),
    ("codegen-hsa-api", "regenerate the HSA API operation tables and tracing wrapper lists from crates/hsa-sys (--check: only verify)"),
    ("codegen-hsa-sys", "regenerate crates/hsa-sys's definition files from AMD's headers (--rocm-systems GIT_DIR or --rocr-inc DIR --def FILE; --debian-inc DIR; --check: only verify)"),
    ("codegen-hsa-sim", "regenerate hsa-sim's exports, default tables and stubs from crates/hsa-sys and its implementations (--check: only verify)"),
];

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = env::args().skip(1).collect();
    let task = args.first().map(String::as_str).unwrap_or("help");
    let rest = &args[args.len().min(1)..];
    match task {
        "setup" => stage::setup(),
        "build" => stage::build().map(|_| ()),
        "demo" => demo(rest),
        "test" | "ci" => test(rest),
        "bench" => bench(rest),
        "sid" => sid::task(rest),
        "codegen-isa" => isa_tables::codegen(rest),
        "fixtures" => fixtures::rebuild_kernels(rest),
        "codegen-counters" => counters::codegen(rest),
        "codegen-hsa-api" => hsa_api::codegen(rest),
        "codegen-hsa-sim" => hsa_sim::codegen(rest),
        "codegen-hsa-sys" => hsa_sys::codegen(rest),
        "codegen-targets" => targets::codegen(rest),
        "help" | "--help" | "-h" => {
            println!("usage: cargo xtask <task>\n");
            for (name, help) in TASKS {
                println!("  {name:<8} {help}");
            }
            Ok(())
        }
        other => bail!("unknown task `{other}`; `cargo xtask help` lists the tasks"),
    }
}

fn demo(rest: &[String]) -> Result<()> {
    stage::setup()?;
    let stage = stage::build()?;
    let out = root().join("rocprof-demo");
    let dispatches = rest.first().cloned().unwrap_or_else(|| "200".into());
    let mut cmd = Command::new(stage.join("rocprof-rs"));
    cmd.args(["--simulate", "gfx942", "--kernel-trace", "--stats", "-S", "-f", "rocpd", "csv", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures").join("vector_add"))
        .arg(&dispatches);
    status(cmd)?;
    println!("\nrocprof-rs demo: outputs written under {}", out.display());
    Ok(())
}

fn test(rest: &[String]) -> Result<()> {
    ci_inputs()?;
    lint()?;
    stage::setup()?;
    sid::for_test(rocprof_test_inputs::on_ci())?;
    let stage = stage::build()?;
    let mut cmd = cargo();
    cmd.args(["test", "--release", "--workspace"]).args(rest).env(rocprof_launch::names::STAGE, &stage);
    status(cmd)
}

/// Under `CI=true` (also `1`/`yes`), the inputs CI is given must be there before anything is
/// built: a CI run that finds `../shared` missing fails at once, naming it, instead of building for
/// minutes and then failing test by test (each such test fails too; none may pass by skipping).
fn ci_inputs() -> Result<()> {
    let ci = std::env::var("CI").is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes"));
    if !ci {
        return Ok(());
    }
    let shared = root().join("..").join("shared");
    let missing: Vec<String> = ["conformance", "reference", "tools"]
        .iter()
        .map(|d| shared.join(d))
        .filter(|p| !p.is_dir())
        .map(|p| p.display().to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "CI=true but the inputs CI provides are missing: {} (a clone for CI needs ../shared beside it; \
             tests may not skip them under CI)",
            missing.join(", ")
        );
    }
    Ok(())
}

/// The gates every change passes before the tests run: rustfmt's house style and clippy without warnings,
/// over every target of the workspace.
fn lint() -> Result<()> {
    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--check"]);
    status(fmt).context("rustfmt: run `cargo fmt --all`")?;
    let mut clippy = cargo();
    clippy.args(["clippy", "--release", "--workspace", "--all-targets", "--", "-D", "warnings"]);
    status(clippy).context("clippy found warnings")?;
    Ok(())
}

/// Benchmarks, each a release binary of its own crate; one that does not exist yet is skipped.
const BENCHES: &[(&str, &str, &str)] = &[
    // (package, kind, target name); the source path is checked before running.
    ("rocprof-e2e", "bin", "rocprof-bench"),
    ("rocprof-sqtt-amd", "example", "sqtt-bench"),
    ("rocprof-isa", "example", "isa-bench"),
    ("rocprof-isa", "example", "mfma-bench"),
];

fn bench(rest: &[String]) -> Result<()> {
    let stage = stage::build()?;
    for (package, kind, name) in BENCHES {
        let dir = match *package {
            "rocprof-e2e" => root().join("tests"),
            p => root().join("crates").join(p.trim_start_matches("rocprof-")),
        };
        let src = match *kind {
            "bin" => dir.join("src").join("bin").join(format!("{name}.rs")),
            _ => dir.join("examples").join(format!("{name}.rs")),
        };
        if !src.exists() {
            println!("bench {name}: skipped ({} does not exist yet)", src.display());
            continue;
        }
        let mut cmd = cargo();
        cmd.args(["run", "--release", "--package", package, &format!("--{kind}"), name, "--"])
            .args(rest)
            .env(rocprof_launch::names::STAGE, &stage);
        status(cmd)?;
    }
    Ok(())
}
