//! Build facts for `rocprof-rs --version` (rocprofv3 prints the same keys): the git revision of
//! the source tree, the compiler version and the build machine's kernel release.

use std::process::Command;

fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok().filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let revision =
        output(Command::new("git").args(["-C", &dir, "rev-parse", "HEAD"])).unwrap_or_else(|| "unknown".into());
    // Rebuild when the checkout moves to another commit (HEAD and its reflog change then).
    if let Some(git_dir) = output(Command::new("git").args(["-C", &dir, "rev-parse", "--absolute-git-dir"])) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/logs/HEAD");
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let compiler = output(Command::new(rustc).arg("--version"))
        .and_then(|v| v.split_whitespace().nth(1).map(str::to_string))
        .unwrap_or_else(|| "unknown".into());
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=ROCPROF_RS_GIT_REVISION={revision}");
    println!("cargo:rustc-env=ROCPROF_RS_COMPILER_VERSION={compiler}");
    println!("cargo:rustc-env=ROCPROF_RS_SYSTEM_VERSION={release}");
    println!("cargo:rerun-if-changed=build.rs");
}
