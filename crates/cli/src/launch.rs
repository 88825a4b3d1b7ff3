//! Finding the interception library and the runtime, and running the application under them.
//!
//! The environment contract with the interception library and hsa-sim is fixed in the README
//! (`ROCPROF_RS_*` variables, `LD_PRELOAD`, `HSA_TOOLS_LIB`). Libraries are found next to our
//! own executable, with env overrides; when run from `target/release` we also look in
//! `target/stage` and accept cargo's `librocprof_sim_hsa.so` name for hsa-sim.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use anyhow::{bail, Context as _, Result};
use rocprof_launch::{names, CollectionPeriods, KernelNames, Setting};

use crate::config::{CompatOptions, Config, LinkResolution};

/// File name of the interception library.
pub(crate) const INTERCEPT_LIB: &str = "librocprof_intercept.so";
/// File name of the ROCTx library `--marker-trace` preloads (rocprofv3's name; ours has the
/// soname `libroctx64.so.4`).
pub(crate) const ROCTX_LIB: &str = "librocprofiler-sdk-roctx.so";
/// The ROCr soname applications load.
pub(crate) const ROCR_SONAME: &str = "libhsa-runtime64.so.1";
/// Cargo's name for the hsa-sim cdylib.
const SIM_CARGO_NAME: &str = "librocprof_sim_hsa.so";

/// Where our executable lives.
fn exe_dir() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("locating the rocprof-rs executable")?;
    let exe = exe.canonicalize().unwrap_or(exe);
    Ok(exe.parent().map(Path::to_path_buf).unwrap_or_default())
}

/// Directories searched for our libraries, in order: next to the executable, then `../stage`.
fn search_dirs() -> Result<Vec<PathBuf>> {
    let dir = exe_dir()?;
    let stage = dir.join("../stage");
    let stage = stage.canonicalize().unwrap_or(stage);
    Ok(vec![dir, stage])
}

/// `path`, else (as rocprofv3 resolves its libraries) `path.N` with `--sdk-soversion N`, else
/// `path.X.Y.Z` with `--sdk-version X.Y.Z`: the first that exists.
fn versioned(path: &Path, compat: &CompatOptions) -> Option<PathBuf> {
    let with = |suffix: &str| {
        let mut p = path.as_os_str().to_os_string();
        p.push(".");
        p.push(suffix);
        PathBuf::from(p)
    };
    std::iter::once(path.to_path_buf())
        .chain(compat.sdk_soversion.map(|n| with(&n.to_string())))
        .chain(compat.sdk_version.as_deref().map(with))
        .find(|p| p.is_file())
}

/// The interception library: `ROCPROF_RS_INTERCEPT_LIB`, else next to the executable (each also
/// with the `--sdk-soversion` / `--sdk-version` suffixes).
pub(crate) fn find_intercept(compat: &CompatOptions) -> Result<PathBuf> {
    if let Some(p) = std::env::var_os(names::INTERCEPT_LIB).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        let Some(found) = versioned(&p, compat) else {
            bail!("{} names {}, which does not exist", names::INTERCEPT_LIB, p.display());
        };
        return Ok(written(&found, compat.links));
    }
    let dirs = search_dirs()?;
    for d in &dirs {
        if let Some(p) = versioned(&d.join(INTERCEPT_LIB), compat) {
            return Ok(written(&p, compat.links));
        }
    }
    bail!(
        "cannot find {INTERCEPT_LIB} (looked in {}); build it with `cargo xtask build` or set {}",
        dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "),
        names::INTERCEPT_LIB
    )
}

/// Our ROCTx library as `--marker-trace` preloads it (see [`CompatOptions::marker_preload`]):
/// `librocprofiler-sdk-roctx.so` (or its versioned names) next to the interception library, else
/// next to the executable. None when it is not there.
pub(crate) fn find_roctx(intercept: &Path, compat: &CompatOptions) -> Option<PathBuf> {
    let dirs = intercept.parent().map(Path::to_path_buf).into_iter().chain(search_dirs().unwrap_or_default());
    dirs.into_iter().find_map(|d| versioned(&d.join(ROCTX_LIB), compat)).map(|p| written(&p, compat.links))
}

/// A library path as it goes into the application's environment: absolute, with symbolic links
/// kept or resolved as `--readlink` / `--realpath` say (rocprofv3's `resolve_library_path`).
fn written(p: &Path, links: LinkResolution) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    match links {
        LinkResolution::AsFound => abs,
        LinkResolution::Realpath => absolute(&abs),
        LinkResolution::Readlink => match std::fs::read_link(&abs) {
            Ok(target) if target.is_absolute() => target,
            Ok(target) => abs.parent().map_or(target.clone(), |dir| dir.join(&target)),
            Err(_) => abs,
        },
    }
}

fn absolute(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// A directory holding `libhsa-runtime64.so.1` = hsa-sim, to put first on `LD_LIBRARY_PATH`.
/// When only a file of another name exists (`librocprof_sim_hsa.so`, or an override), a
/// private directory with a symlink of the right name is made under `scratch`.
pub(crate) fn find_sim_dir(scratch: &Path) -> Result<PathBuf> {
    let link_dir = |file: &Path| -> Result<PathBuf> {
        let file = absolute(file);
        if file.file_name().is_some_and(|n| n == ROCR_SONAME) {
            return Ok(file.parent().map(Path::to_path_buf).unwrap_or_default());
        }
        let dir = scratch.join("sim-lib");
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let link = dir.join(ROCR_SONAME);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&file, &link).with_context(|| format!("linking {}", link.display()))?;
        Ok(dir)
    };
    if let Some(p) = std::env::var_os(names::SIM_LIB).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        if !p.is_file() {
            bail!("{} names {}, which does not exist", names::SIM_LIB, p.display());
        }
        return link_dir(&p);
    }
    let dirs = search_dirs()?;
    for d in &dirs {
        if d.join(ROCR_SONAME).is_file() {
            return link_dir(&d.join(ROCR_SONAME));
        }
    }
    for d in &dirs {
        if d.join(SIM_CARGO_NAME).is_file() {
            return link_dir(&d.join(SIM_CARGO_NAME));
        }
    }
    bail!(
        "cannot find hsa-sim ({ROCR_SONAME} or {SIM_CARGO_NAME}) in {}; build it with `cargo xtask build` or set {}",
        dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "),
        names::SIM_LIB
    )
}

/// The staged shims that let Debian's rocminfo start on hsa-sim (see `fixtures/rocminfo/`).
#[derive(Debug)]
pub(crate) struct RocminfoShims {
    /// Directory with the `lsmod` script, to put first on `PATH`.
    pub(crate) bin_dir: PathBuf,
    /// The `/dev/kfd` open redirect, to add to `LD_PRELOAD`.
    pub(crate) kfd_redirect: PathBuf,
}

/// Finds the rocminfo shims in `fixtures/rocminfo/` next to the executable or in `../stage`.
pub(crate) fn find_rocminfo_shims() -> Option<RocminfoShims> {
    search_dirs().ok()?.into_iter().find_map(|d| {
        let dir = d.join("fixtures/rocminfo");
        let shims = RocminfoShims { bin_dir: dir.join("bin"), kfd_redirect: dir.join("libkfd_redirect.so") };
        (shims.bin_dir.join("lsmod").is_file() && shims.kfd_redirect.is_file())
            .then(|| RocminfoShims { bin_dir: absolute(&shims.bin_dir), kfd_redirect: absolute(&shims.kfd_redirect) })
    })
}

/// Checks that a real ROCm runtime can work here: `libhsa-runtime64.so.1` is findable by the
/// dynamic loader and the amdgpu kernel driver interface `/dev/kfd` exists.
/// `rocm_root` (`--rocm-root`) is searched first.
pub(crate) fn check_real_rocr(rocm_root: Option<&Path>) -> Result<()> {
    let mut dirs: Vec<PathBuf> = rocm_root.map(|r| r.join("lib")).into_iter().collect();
    dirs.extend(
        std::env::var_os("LD_LIBRARY_PATH").map(|v| std::env::split_paths(&v).collect::<Vec<_>>()).unwrap_or_default(),
    );
    if let Some(rocm) = std::env::var_os("ROCM_PATH") {
        dirs.push(PathBuf::from(rocm).join("lib"));
    }
    dirs.extend(
        [
            "/opt/rocm/lib",
            "/usr/lib/x86_64-linux-gnu",
            "/lib/x86_64-linux-gnu",
            "/usr/lib64",
            "/usr/lib",
            "/usr/local/lib",
        ]
        .map(PathBuf::from),
    );
    let found = dirs.iter().any(|d| d.join(ROCR_SONAME).exists());
    if !found {
        bail!("no ROCm runtime found ({ROCR_SONAME} is not installed); to run on the simulated runtime, add --simulate gfx942");
    }
    if !Path::new("/dev/kfd").exists() {
        bail!("no AMD GPU driver found (/dev/kfd is missing), so the ROCm runtime cannot start; to run on the simulated runtime, add --simulate gfx942");
    }
    Ok(())
}

/// The environment the application runs with, as (name, value) pairs to set.
pub(crate) fn launch_env(
    cfg: &Config,
    intercept: &Path,
    sim_dir: Option<&Path>,
    capture_dir: &Path,
) -> Vec<(String, OsString)> {
    let prepend = |name: &str, first: &Path, sep: &str| -> OsString {
        let mut v = OsString::from(first);
        if let Some(prev) = std::env::var_os(name).filter(|p| !p.is_empty()) {
            v.push(sep);
            v.push(prev);
        }
        v
    };
    // rocprofv3's order: the --preload libraries first (a sanitizer runtime must be the first
    // library loaded), then what LD_PRELOAD already held, then the tool library.
    let mut preload = OsString::new();
    for lib in
        cfg.compat.preload.iter().map(OsString::from).chain(std::env::var_os("LD_PRELOAD").filter(|p| !p.is_empty()))
    {
        preload.push(lib);
        preload.push(":");
    }
    preload.push(intercept);
    let disabled = cfg.compat.benchmark_mode == Some(crate::config::BenchmarkMode::DisabledSdkContexts);
    if cfg.tracing.marker && cfg.compat.marker_preload && !disabled {
        // After the tool library, as rocprofv3 appends its ROCTx library.
        if let Some(roctx) = find_roctx(intercept, &cfg.compat) {
            preload.push(":");
            preload.push(roctx);
        }
    }
    let mut env = vec![
        ("LD_PRELOAD".to_string(), preload),
        // ROCr reads HSA_TOOLS_LIB as a space-separated list; keep any tool the user named.
        ("HSA_TOOLS_LIB".to_string(), prepend("HSA_TOOLS_LIB", intercept, " ")),
        // ROCm 6.2+ runtimes (HIP, ROCr, ROCTx) hand their dispatch tables through
        // rocprofiler-register to the library named here (our `rocprofiler_set_api_table`).
        ("ROCPROFILER_REGISTER_LIBRARY".to_string(), OsString::from(intercept)),
        (names::CAPTURE_DIR.to_string(), OsString::from(capture_dir)),
    ];
    let mut set = |(name, value): (&'static str, String)| env.push((name.to_string(), OsString::from(value)));
    set(cfg.log_level.library_level().to_env());
    set(cfg.buffer_policy.to_env());
    // Thread traces are started and stopped around dispatches in the intercept queues, and counter
    // collection needs the dispatches traced (each counter row carries its dispatch).
    let mut tracing = cfg.tracing;
    if cfg.att.is_some() || cfg.pmc.is_some() || cfg.pc_sampling.is_some() {
        tracing.kernel = true;
    }
    if disabled {
        // The library is loaded and initialised, and records nothing.
        tracing = crate::config::Tracing::default();
    }
    if let Some(pcs) = cfg.pc_sampling.as_ref().filter(|_| !disabled) {
        set(pcs.settings().to_env());
    }
    if let Some(att) = cfg.att.as_ref().filter(|_| !disabled) {
        att.settings().to_env().into_iter().for_each(&mut set);
    }
    set(tracing.to_trace().to_env());
    if tracing.kokkos {
        // Kokkos loads the tools named here (';'-separated); ours is the interception library.
        // Appended after the user's tools, as rocprofv3 does.
        let mut v = std::env::var_os("KOKKOS_TOOLS_LIBS").filter(|p| !p.is_empty()).unwrap_or_default();
        if !v.is_empty() {
            v.push(";");
        }
        v.push(intercept);
        env.push(("KOKKOS_TOOLS_LIBS".to_string(), v));
    }
    let mut set = |(name, value): (&'static str, String)| env.push((name.to_string(), OsString::from(value)));
    if !cfg.collection.periods.is_empty() {
        // The library pauses collection outside the windows (see rocprof_intercept::period).
        let periods = cfg.collection.periods.iter().map(|p| (p.delay_ns, p.duration_ns, u64::from(p.repeat))).collect();
        set(CollectionPeriods(periods).to_env());
    }
    cfg.kernel_filter.to_env().into_iter().for_each(&mut set);
    // Kernel filters match the name as the outputs show it.
    set(if cfg.truncate_kernels {
        KernelNames::Truncated
    } else if cfg.mangled_kernels {
        KernelNames::Mangled
    } else {
        KernelNames::Demangled
    }
    .to_env());
    let mut library_path = std::env::var_os("LD_LIBRARY_PATH").filter(|p| !p.is_empty());
    if let (Some(dir), Some(targets)) = (sim_dir, &cfg.simulate) {
        library_path = Some(prepend("LD_LIBRARY_PATH", dir, ":"));
        env.push((names::SIM_AGENTS.to_string(), OsString::from(targets.join(","))));
    }
    if let Some(root) = &cfg.compat.rocm_root {
        // As rocprofv3: ROOT/lib after everything else.
        let mut v = library_path.map(|mut v| {
            v.push(":");
            v
        });
        v.get_or_insert_with(OsString::new).push(root.join("lib"));
        library_path = v;
    }
    if sim_dir.is_some() || cfg.compat.rocm_root.is_some() {
        if let Some(v) = library_path {
            env.push(("LD_LIBRARY_PATH".to_string(), v));
        }
    }
    env
}

/// How the application ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AppExit {
    /// `exit(code)`.
    Code(i32),
    /// Killed by signal N.
    Signal(i32),
}

impl AppExit {
    /// Our exit status for it: the code, or 128 + signal like a shell.
    pub(crate) fn status(self) -> u8 {
        match self {
            Self::Code(c) => (c & 0xff) as u8,
            Self::Signal(s) => (128 + s).clamp(0, 255) as u8,
        }
    }

    fn from_status(s: ExitStatus) -> Self {
        use std::os::unix::process::ExitStatusExt;
        match (s.code(), s.signal()) {
            (Some(c), _) => Self::Code(c),
            (None, Some(sig)) => Self::Signal(sig),
            (None, None) => Self::Code(1),
        }
    }
}

/// Runs the application with `env` added and waits for it. Errors name the application when it
/// cannot be started (not found, not executable).
///
/// While the application runs, SIGINT, SIGTERM, SIGQUIT and SIGHUP do not kill rocprof-rs, so
/// that it can still write what the application captured (rocprofv3 writes its outputs on those
/// signals too). A terminal's Ctrl-C reaches the application directly (same process group); a
/// signal some process sent to rocprof-rs alone (`kill`, `timeout`) is forwarded to it.
pub(crate) fn run_app(app: &[OsString], env: &[(String, OsString)]) -> Result<AppExit> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    use signal_hook::iterator::exfiltrator::WithOrigin;
    use signal_hook::iterator::SignalsInfo;

    let (program, args) = app.split_first().context("no application given")?;
    let mut cmd = Command::new(program);
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    die_with_parent(&mut cmd);
    let name = program.to_string_lossy();
    // Installed before the spawn so that no signal can slip in between; exec resets handled
    // signals to their defaults in the child.
    let mut signals =
        SignalsInfo::<WithOrigin>::new([SIGINT, SIGTERM, SIGQUIT, SIGHUP]).context("installing signal handlers")?;
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("application '{name}' not found (not a file, and not on PATH)")
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            bail!("application '{name}' cannot be executed (permission denied)")
        }
        Err(e) => return Err(e).with_context(|| format!("starting application '{name}'")),
    };
    let pid = child.id();
    let handle = signals.handle();
    let forwarder = std::thread::spawn(move || {
        for origin in signals.forever() {
            if origin.process.is_some() {
                forward_signal(pid, origin.signal);
            }
        }
    });
    let status = child.wait().with_context(|| format!("waiting for application '{name}'"));
    handle.close();
    let _ = forwarder.join();
    Ok(AppExit::from_status(status?))
}

/// The application must not outlive rocprof-rs: when rocprof-rs dies without forwarding a signal
/// (SIGKILL from a CI timeout, a crash), the kernel sends the application SIGKILL
/// (`PR_SET_PDEATHSIG`, set in the child between fork and exec). The parent-death signal follows
/// the thread that forked, so [`run_app`] is only called from rocprof-rs's main thread. If
/// rocprof-rs died before the child set it, the child is already orphaned: it exits instead of
/// running the application.
#[allow(unsafe_code)]
fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    let in_child = move || {
        // SAFETY: prctl(PR_SET_PDEATHSIG) takes a signal number; no pointers are passed.
        if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: getppid cannot fail and touches no memory.
        if unsafe { libc::getppid() } != parent {
            // SAFETY: ends the orphaned child at once, running nothing of the parent's state.
            unsafe { libc::_exit(128 + libc::SIGKILL) };
        }
        Ok(())
    };
    // SAFETY: the closure runs in the forked child before exec and only makes async-signal-safe
    // system calls (prctl, getppid, _exit) on a copied pid; it allocates nothing and takes no lock.
    unsafe {
        cmd.pre_exec(in_child);
    }
}

/// Sends `signal` to `pid` with the `kill` program (no `unsafe` in this crate).
fn forward_signal(pid: u32, signal: i32) {
    let _ = Command::new("kill")
        .args(["-s", &signal.to_string(), &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_deaths_map_to_128_plus_n() {
        assert_eq!(AppExit::Signal(11).status(), 139);
        assert_eq!(AppExit::Code(3).status(), 3);
        assert_eq!(AppExit::Code(256 + 7).status(), 7);
    }

    #[test]
    fn missing_application_is_reported_by_name() {
        let e = run_app(&["/nonexistent/rocprof-rs-test-app".into()], &[]).unwrap_err().to_string();
        assert_eq!(e, "application '/nonexistent/rocprof-rs-test-app' not found (not a file, and not on PATH)");
    }
}
