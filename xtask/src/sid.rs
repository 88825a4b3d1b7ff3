//! `cargo xtask sid`: the Debian sid chroot with ROCm 6.4 (HIP 6.4, hipcc 7 with clang-21, rocBLAS,
//! rocminfo 7.2, LLVM 21's tools) that the HIP 6.4 fixtures are built and run in, and staging those
//! fixtures (`fixtures/hip6/*.cpp`) with its hipcc.
//!
//! The chroot is built once with `debootstrap --variant=minbase sid` at `$ROCPROF_RS_SID_ROOT`
//! (default `/var/cache/rocprof-rs/sid`) and reused: its stamp (`etc/rocprof-rs-sid.stamp`) holds
//! the package list it was built for and the versions installed, so a later run only reads it. sid
//! moves daily; the versions a run used are printed and written to `target/stage/sid-versions.txt`,
//! and no test depends on an exact version. Nothing is installed on the host but `debootstrap`.
//! How a program runs inside (private mount namespace, host paths bound at the same place) is
//! `rocprof_test_inputs::sid`, shared with the e2e tests.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

use anyhow::{bail, Context, Result};
use rocprof_test_inputs::sid as chroot;

use crate::host::{root, status};

/// The sid packages installed in the chroot (with their recommends, as a user would get them). The
/// last four are AMD's test suites of rocSPARSE, rocRAND, hipRAND and rocBLAS that `tests/e2e/amd_suites.rs`
/// samples: about 40 MB to download for the first three with their libraries and data, and 12.4 MB for
/// rocBLAS's (10.9 MB program, 1.5 MB compressed test data that installs as 0.9 GB). rocPRIM's and
/// hipCUB's suites are 1.2 GB to download and are left out.
pub(crate) const PACKAGES: &[&str] = &[
    "hipcc",
    "libamdhip64-dev",
    "rocm-device-libs-21",
    "librocblas-dev",
    "rocminfo",
    "llvm-21",
    "librocsparse1-tests",
    "librocrand1-tests",
    "libhiprand1-tests",
    "librocblas4-tests",
    // rocFFT's suite (4.5 MB with librocfft0 and FFTW, its host reference): its kernels are compiled at run
    // time, a guard of gfx90a's packed f32 and legacy 16-bit instructions.
    "librocfft0-tests",
];

/// Packages whose versions are recorded besides [`PACKAGES`]: the runtimes the fixtures load.
const RECORDED: &[&str] = &["libamdhip64-6", "libhsa-runtime64-1", "librocblas4", "libamd-comgr3", "clang-21"];

/// Debian mirror debootstrap and apt use (`ROCPROF_RS_SID_MIRROR` overrides).
const DEFAULT_MIRROR: &str = "http://deb.debian.org/debian";

/// `cargo xtask sid [--rebuild]`: makes sure the chroot exists and is current, then prints its versions.
pub(crate) fn task(rest: &[String]) -> Result<()> {
    let rebuild = match rest {
        [] => false,
        [flag] if flag == "--rebuild" => true,
        other => bail!("usage: cargo xtask sid [--rebuild] (got {other:?})"),
    };
    let root = chroot::root();
    if rebuild && root.exists() {
        fs::remove_dir_all(&root).with_context(|| format!("removing {}", root.display()))?;
    }
    ensure(&root)?;
    print!("{}", versions_text(&root)?);
    Ok(())
}

/// What `cargo xtask test` calls: builds the chroot when it is missing or stale (as root), else
/// says how. Under `CI=true` a chroot that cannot be had is an error (the sid tests may not skip).
pub(crate) fn for_test(ci: bool) -> Result<()> {
    let root = chroot::root();
    if current(&root) {
        return Ok(());
    }
    if !is_root() {
        let msg = format!(
            "the sid chroot {} is missing or stale and building it needs root (sudo cargo xtask sid)",
            root.display()
        );
        if ci {
            bail!("{msg}");
        }
        eprintln!("xtask: sid: {msg}; the sid tests will skip");
        return Ok(());
    }
    ensure(&root)
}

/// True when `root` is complete and was built for today's [`PACKAGES`].
fn current(root: &Path) -> bool {
    fs::read_to_string(root.join(chroot::STAMP)).is_ok_and(|s| s.lines().next() == Some(&packages_line()))
}

fn packages_line() -> String {
    format!("packages: {}", PACKAGES.join(" "))
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// Builds (debootstrap) or updates (apt-get install of a changed package list) the chroot at `root`;
/// nothing when it is current. The stamp is written last, so an interrupted build is redone.
fn ensure(root: &Path) -> Result<()> {
    if current(root) {
        return Ok(());
    }
    if !is_root() {
        bail!("building the sid chroot {} needs root (debootstrap, chroot)", root.display());
    }
    let mirror = std::env::var(rocprof_launch::names::SID_MIRROR).unwrap_or_else(|_| DEFAULT_MIRROR.into());
    let started = Instant::now();
    let _ = fs::remove_file(root.join(chroot::STAMP));
    if !root.join("usr/bin/apt-get").exists() {
        host_debootstrap()?;
        // debootstrap into a sibling and rename, so a half-made tree never sits at `root`.
        let partial = root.with_extension(format!("partial-{}", std::process::id()));
        let _ = fs::remove_dir_all(&partial);
        if let Some(parent) = root.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut boot = Command::new("debootstrap");
        boot.args(["--variant=minbase", "sid"]).arg(&partial).arg(&mirror);
        status(boot).context("debootstrap of Debian sid")?;
        if root.exists() {
            fs::remove_dir_all(root).with_context(|| format!("removing the incomplete {}", root.display()))?;
        }
        fs::rename(&partial, root).with_context(|| format!("moving {} to {}", partial.display(), root.display()))?;
        println!("xtask: sid: debootstrap took {:.0} s", started.elapsed().as_secs_f64());
    }
    // sid's Release file is often past its Valid-Until on machines whose clock runs ahead.
    fs::write(root.join("etc/apt/apt.conf.d/99no-valid-until"), "Acquire::Check-Valid-Until \"false\";\n")?;
    let installing = Instant::now();
    in_chroot(root, "apt-get", &["update", "-qq"])?;
    in_chroot(root, "apt-get", &[&["install", "-y", "-qq"][..], PACKAGES].concat())?;
    in_chroot(root, "apt-get", &["clean"])?;
    println!("xtask: sid: packages took {:.0} s", installing.elapsed().as_secs_f64());
    let versions = query_versions(root)?;
    fs::write(root.join(chroot::STAMP), format!("{}\n{versions}", packages_line()))?;
    println!("xtask: sid: chroot {} ready in {:.0} s", root.display(), started.elapsed().as_secs_f64());
    Ok(())
}

/// Installs debootstrap on the host when it is missing (the only host package this task needs).
fn host_debootstrap() -> Result<()> {
    if Path::new("/usr/sbin/debootstrap").exists() {
        return Ok(());
    }
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    status(update)?;
    let mut install = Command::new("apt-get");
    install
        .args(["install", "-y", "-qq", "--no-install-recommends", "debootstrap"])
        .env("DEBIAN_FRONTEND", "noninteractive");
    status(install).context("installing debootstrap on the host")
}

fn in_chroot(root: &Path, program: &str, args: &[&str]) -> Result<()> {
    let mut cmd = chroot::command(root, &[], program);
    cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    status(cmd).with_context(|| format!("{program} {} inside {}", args.join(" "), root.display()))
}

/// `name version` lines of [`PACKAGES`] and [`RECORDED`] as installed in `root`.
fn query_versions(root: &Path) -> Result<String> {
    let mut cmd = chroot::command(root, &[], "dpkg-query");
    cmd.args(["-W", "-f", "${binary:Package} ${Version}\n"]).args(PACKAGES).args(RECORDED);
    let out = cmd.output().context("dpkg-query inside the chroot")?;
    // dpkg-query fails when a recorded package is absent; the lines it printed still count.
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if PACKAGES.iter().any(|p| !text.lines().any(|l| l.split([' ', ':']).next() == Some(p))) {
        bail!("packages missing from the chroot after installing {}:\n{text}", PACKAGES.join(" "));
    }
    Ok(text)
}

/// The stamp's version lines, headed by the chroot's path.
fn versions_text(root: &Path) -> Result<String> {
    let stamp = fs::read_to_string(root.join(chroot::STAMP)).with_context(|| format!("reading {}", root.display()))?;
    let body: String = stamp.lines().skip(1).map(|l| format!("{l}\n")).collect();
    Ok(format!("# Debian sid chroot {}\n{body}", root.display()))
}

/// Builds every `fixtures/hip6/<stem>.cpp` with the chroot's hipcc into `stage/fixtures/hip6/<stem>`
/// (one fat binary for `rocprof_test_inputs::sid::HIP6_TARGETS`) and records the versions used in `stage/sid-versions.txt`.
/// A program newer than its source, `check.h` and the chroot's stamp is kept. A line
/// `// hipcc-args: ...` in a source adds arguments (libraries: `-lroctx64`, `-lrocblas`). Without a
/// complete chroot nothing is built (`cargo xtask test` has already failed under CI in that case).
/// Returns how many programs are staged.
pub(crate) fn stage_hip6(stage: &Path) -> Result<usize> {
    let src = root().join("fixtures").join("hip6");
    let mut sources: Vec<PathBuf> = match fs::read_dir(&src) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
            .collect(),
        Err(_) => return Ok(0),
    };
    sources.sort();
    let sid = chroot::root();
    if !chroot::is_complete(&sid) {
        eprintln!(
            "xtask: fixtures: no sid chroot at {} (`cargo xtask sid` as root), HIP 6.4 fixtures not built",
            sid.display()
        );
        return Ok(0);
    }
    let stage = &stage.canonicalize().with_context(|| format!("resolving {}", stage.display()))?;
    let versions = versions_text(&sid)?;
    fs::write(stage.join("sid-versions.txt"), &versions)?;
    // The versions this run builds and tests with, in the log (sid moves daily).
    let short: Vec<&str> = versions.lines().skip(1).collect();
    println!("xtask: sid: {} ({})", sid.display(), short.join(", "));
    let out = stage.join("fixtures").join("hip6");
    fs::create_dir_all(&out)?;
    let mtime = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    let shared_inputs: Vec<SystemTime> = [
        root().join("fixtures/hip/check.h"),
        root().join("fixtures/hip/printf_check.h"),
        root().join("fixtures/hip/cooperative_check.h"),
        sid.join(chroot::STAMP),
        stage.join("libroctx64.so.4"),
    ]
    .iter()
    .filter_map(|p| mtime(p))
    .collect();
    let stale: Vec<&PathBuf> = sources
        .iter()
        .filter(|s| {
            let built = mtime(&out.join(s.file_stem().expect("a .cpp file has a stem")));
            // Files of `fixtures/hip` the source includes by name (`#include "hip_api_loop.cpp"`).
            let included: Vec<SystemTime> = fs::read_to_string(s)
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.trim().strip_prefix("#include \"")?.strip_suffix('"'))
                .filter_map(|name| mtime(&root().join("fixtures/hip").join(name)))
                .collect();
            let newest = shared_inputs.iter().copied().chain(included).chain(mtime(s)).max();
            built.is_none() || built < newest
        })
        .collect();
    // hipcc with four targets takes tens of seconds per program: two at a time (CI has two cores).
    for pair in stale.chunks(2) {
        let mut children = Vec::new();
        for source in pair {
            let stem = source.file_stem().expect("a .cpp file has a stem").to_string_lossy().into_owned();
            let dest = out.join(&stem);
            let _ = fs::remove_file(&dest);
            let text = fs::read_to_string(source)?;
            let extra: Vec<&str> = text
                .lines()
                .filter_map(|l| l.trim().strip_prefix("// hipcc-args:"))
                .flat_map(str::split_whitespace)
                .collect();
            let mut cmd = chroot::command(&sid, &[stage], "/usr/bin/hipcc");
            for target in chroot::HIP6_TARGETS {
                cmd.arg(format!("--offload-arch={target}"));
            }
            cmd.args(["-O2", "-g", "-Wall"])
                .arg(format!("-I{}", root().join("fixtures/hip").display()))
                .arg(format!("-I{}", stage.join("include").display()))
                .arg(source.as_path())
                .arg("-o")
                .arg(&dest)
                .arg(format!("-L{}", stage.display()))
                .args(&extra);
            let shown = format!("{cmd:?}");
            let child = cmd.spawn().with_context(|| format!("starting {shown}"))?;
            children.push((stem, shown, child));
        }
        for (stem, shown, mut child) in children {
            let st = child.wait().with_context(|| format!("waiting for {shown}"))?;
            if !st.success() {
                bail!("building HIP 6.4 fixture {stem} with sid's hipcc: {shown} failed with {st}");
            }
        }
    }
    Ok(sources.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chroot counts as current only with a stamp naming today's package list; its versions are
    /// what `sid-versions.txt` gets.
    #[test]
    fn a_chroot_is_current_only_with_a_stamp_for_todays_package_list() {
        let root = std::env::temp_dir().join(format!("xtask-sid-stamp-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("etc")).unwrap();
        assert!(!current(&root), "no stamp");
        fs::write(root.join(chroot::STAMP), "packages: hipcc\nhipcc 7.0.2\n").unwrap();
        assert!(!current(&root), "a stamp for another package list");
        fs::write(root.join(chroot::STAMP), format!("{}\nhipcc 7.0.2+dfsg-3\nrocminfo 7.2.4-1\n", packages_line()))
            .unwrap();
        assert!(current(&root));
        let text = versions_text(&root).unwrap();
        assert_eq!(text, format!("# Debian sid chroot {}\nhipcc 7.0.2+dfsg-3\nrocminfo 7.2.4-1\n", root.display()));
        fs::remove_dir_all(&root).unwrap();
    }
}
