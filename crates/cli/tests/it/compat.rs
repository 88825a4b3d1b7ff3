//! rocprofv3's launcher options through the binary, with stand-in library paths and shell
//! applications that print what they were given (the shell never initialises HSA): each test
//! checks the option's effect on the application (its environment, whether it runs, whether it
//! outlives rocprof-rs) against rocprofv3.py's documented behaviour.

use rocprof_launch::names;
use std::path::Path;
use std::process::Output;

use crate::{assert_one_line_error, bin_with_stand_in_libs, scratch, stderr, stdout};

/// `rocprof-rs --simulate gfx942 --kernel-trace ARGS -- sh -c SCRIPT` with stand-in libraries in
/// `dir`, the outputs under `dir`.
fn run_sh(dir: &Path, args: &[&str], script: &str, env: &[(&str, &str)]) -> Output {
    let mut c = bin_with_stand_in_libs(dir);
    c.args(["--simulate", "gfx942", "--kernel-trace", "-d"]).arg(dir).args(args);
    c.args(["--", "/bin/sh", "-c", script]);
    for v in ["LD_PRELOAD", "ROCPROF_PRELOAD", "LD_LIBRARY_PATH", "ROCPROF_OUTPUT_PATH", "ROCPROF_OUTPUT_FILE_NAME"] {
        c.env_remove(v);
    }
    c.envs(env.iter().copied());
    c.output().unwrap()
}

/// The last line the application printed.
fn printed(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or("").to_string()
}

#[test]
fn preload_libraries_come_first_then_the_users_ld_preload_then_ours() {
    let dir = scratch("compat-preload");
    let fake = dir.join("libfake.so").display().to_string();
    // ld.so warns about preload entries it cannot load and goes on; the shell prints the list.
    let o = run_sh(
        &dir,
        &["--preload", "/nonexistent/libasan.so", "/nonexistent/libtsan.so"],
        "echo \"$LD_PRELOAD\"",
        &[("LD_PRELOAD", "/nonexistent/libuser.so")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(printed(&o), format!("/nonexistent/libasan.so:/nonexistent/libtsan.so:/nonexistent/libuser.so:{fake}"));
    // ROCPROF_PRELOAD is --preload's default (colon-separated), and an explicit --preload wins.
    let o = run_sh(&dir, &[], "echo \"$LD_PRELOAD\"", &[("ROCPROF_PRELOAD", "/nonexistent/a.so::/nonexistent/b.so")]);
    assert_eq!(printed(&o), format!("/nonexistent/a.so:/nonexistent/b.so:{fake}"));
    let o = run_sh(&dir, &["--preload", "/nonexistent/c.so"], "echo \"$LD_PRELOAD\"", &[("ROCPROF_PRELOAD", "/x.so")]);
    assert_eq!(printed(&o), format!("/nonexistent/c.so:{fake}"));
    // Without any, our library is the only entry.
    let o = run_sh(&dir, &[], "echo \"$LD_PRELOAD\"", &[]);
    assert_eq!(printed(&o), fake);
}

#[test]
fn sigkill_of_rocprof_rs_takes_the_application_with_it() {
    use std::os::unix::process::CommandExt;
    let dir = scratch("compat-pdeathsig");
    let pid_file = dir.join("app.pid");
    let mut child = bin_with_stand_in_libs(&dir)
        .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
        .arg(&dir)
        .args(["--", "/bin/sh", "-c"])
        .arg(format!("echo $$ > {}.tmp && mv {0}.tmp {0} && exec sleep 600", pid_file.display()))
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    let app: u32 = loop {
        if let Some(p) = std::fs::read_to_string(&pid_file).ok().and_then(|s| s.trim().parse().ok()) {
            break p;
        }
        assert!(t0.elapsed().as_secs() < 30, "the application never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // A CI timeout's SIGKILL: rocprof-rs cannot forward anything.
    child.kill().unwrap();
    child.wait().unwrap();
    // The kernel's parent-death signal ends the application (it is then gone or a zombie
    // waiting for init). Without it, `sleep 600` would still be running.
    let state = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next().map(str::to_string)))
    };
    let t0 = std::time::Instant::now();
    while let Some(s) = state(app).filter(|s| s != "Z" && s != "X") {
        assert!(t0.elapsed().as_secs() < 30, "application {app} outlived a SIGKILLed rocprof-rs (state {s})");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn echo_prints_the_command_rocprofv3s_way_and_runs_nothing() {
    let dir = scratch("compat-echo");
    let marker = dir.join("ran");
    let script = format!("touch {}", marker.display());
    let o = run_sh(&dir, &["--echo"], &script, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Python's repr of the list ['/bin/sh', '-c', script].
    assert_eq!(stdout(&o), format!("command: ['/bin/sh', '-c', '{script}']\n"));
    assert!(!marker.exists(), "--echo must not run the application");
    // Checks still run first: a command line rocprofv3 refuses is refused with --echo too.
    let o = bin_with_stand_in_libs(&dir).args(["--summary", "--echo", "--", "true"]).output().unwrap();
    assert_one_line_error(&o, 1, "no tracing options were enabled for the --summary option");
}

#[test]
fn pid_option_is_refused_with_rocprofv3s_reason() {
    let dir = scratch("compat-pid");
    let o = bin_with_stand_in_libs(&dir).args(["-p", "1234", "--kernel-trace", "--", "true"]).output().unwrap();
    assert_one_line_error(&o, 2, "the shorthand of --collection-period is the upper-case -P");
}

#[test]
fn sdk_soversion_and_version_resolve_a_versioned_library_name() {
    let dir = scratch("compat-soversion");
    let plain = dir.join("libtool.so");
    let so7 = dir.join("libtool.so.7");
    let full = dir.join("libtool.so.1.2.3");
    std::fs::write(&so7, b"").unwrap();
    std::fs::write(&full, b"").unwrap();
    let run = |args: &[&str]| {
        bin_with_stand_in_libs(&dir)
            .env(names::INTERCEPT_LIB, &plain)
            .env_remove("LD_PRELOAD")
            .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
            .arg(&dir)
            .args(args)
            .args(["--", "/bin/sh", "-c", "echo \"$LD_PRELOAD\""])
            .output()
            .unwrap()
    };
    let o = run(&[]);
    assert_one_line_error(&o, 1, "libtool.so, which does not exist");
    let o = run(&["--sdk-soversion", "7"]);
    assert_eq!(printed(&o), so7.display().to_string(), "{}", stderr(&o));
    let o = run(&["--sdk-soversion", "8", "--sdk-version", "1.2.3"]);
    assert_eq!(printed(&o), full.display().to_string(), "{}", stderr(&o));
    // The plain name wins when it exists, as in rocprofv3.
    std::fs::write(&plain, b"").unwrap();
    let o = run(&["--sdk-soversion", "7"]);
    assert_eq!(printed(&o), plain.display().to_string(), "{}", stderr(&o));
}

#[test]
fn rocm_root_lib_is_appended_to_the_library_path() {
    let dir = scratch("compat-rocm-root");
    let root = dir.join("rocm");
    std::fs::create_dir_all(root.join("lib")).unwrap();
    let o = run_sh(&dir, &["--rocm-root"], "", &[]);
    assert_eq!(o.status.code(), Some(2), "--rocm-root needs a value: {}", stderr(&o));
    let o = run_sh(&dir, &["--rocm-root", "/nonexistent/rocm"], "true", &[]);
    assert_one_line_error(&o, 2, "--rocm-root /nonexistent/rocm: not a directory");
    // With hsa-sim the library path gets hsa-sim first and ROOT/lib last.
    let o = run_sh(
        &dir,
        &["--rocm-root", root.to_str().unwrap()],
        "echo \"$LD_LIBRARY_PATH\"",
        &[("LD_LIBRARY_PATH", "/nonexistent/user")],
    );
    let path = printed(&o);
    let parts: Vec<&str> = path.split(':').collect();
    assert_eq!(parts.len(), 3, "{path} / {}", stderr(&o));
    assert_eq!(parts[1..], ["/nonexistent/user", root.canonicalize().unwrap().join("lib").to_str().unwrap()]);
}

#[test]
fn perfetto_options_are_validated_and_never_silently_ignored() {
    let dir = scratch("compat-perfetto");
    let o = run_sh(
        &dir,
        &[
            "--perfetto-shmem-size-hint",
            "128",
            "--perfetto-buffer-size",
            "2048000",
            "--perfetto-buffer-fill-policy",
            "ring_buffer",
            "--perfetto-backend",
            "inprocess",
        ],
        "true",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("rocprof-rs: note: --perfetto-* (inprocess backend, 2048000 KB buffer, ring_buffer policy, 128 KB shared-memory hint) do not apply"), "{e}");
    let o = run_sh(&dir, &["--perfetto-backend", "system"], "true", &[]);
    assert_one_line_error(&o, 2, "--perfetto-backend system needs Perfetto's traced daemons");
    let o = run_sh(&dir, &["--perfetto-buffer-fill-policy", "overwrite"], "true", &[]);
    assert_eq!(o.status.code(), Some(2), "rocprofv3's choices only: {}", stderr(&o));
    let o = run_sh(&dir, &[], "true", &[]);
    assert!(!stderr(&o).contains("--perfetto-*"), "no note without the options: {}", stderr(&o));
}

#[test]
fn benchmark_mode_disabled_sdk_contexts_loads_the_library_with_tracing_off() {
    let dir = scratch("compat-benchmark");
    let o = run_sh(&dir, &["--benchmark-mode", "disabled-sdk-contexts"], "echo \"trace=[$ROCPROF_RS_TRACE]\"", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(printed(&o), "trace=[]");
    assert!(stderr(&o).contains("benchmark-mode disabled-sdk-contexts: the application ran for"), "{}", stderr(&o));
    let o = run_sh(&dir, &["--benchmark-mode", "tool-runtime-overhead"], "echo \"trace=[$ROCPROF_RS_TRACE]\"", &[]);
    assert_eq!(printed(&o), "trace=[kernel]");
    let o = run_sh(&dir, &["--benchmark-mode", "sdk-callback-overhead"], "true", &[]);
    assert_one_line_error(
        &o,
        2,
        "--benchmark-mode sdk-callback-overhead measures rocprofiler-sdk's own callback machinery",
    );
}

#[test]
fn marker_trace_preloads_the_roctx_library_after_ours_unless_suppressed() {
    // rocprofv3.py: with --marker-trace, librocprofiler-sdk-roctx.so is appended to LD_PRELOAD
    // (after the tool library) unless --suppress-marker-preload; it is looked up next to the tool.
    let dir = scratch("compat-roctx-preload");
    let fake = dir.join("libfake.so").display().to_string();
    let roctx = dir.join("librocprofiler-sdk-roctx.so");
    std::fs::write(&roctx, b"").unwrap();
    let o = run_sh(&dir, &["--marker-trace"], "echo \"$LD_PRELOAD\"", &[]);
    assert_eq!(printed(&o), format!("{fake}:{}", roctx.display()), "{}", stderr(&o));
    let o = run_sh(&dir, &["--marker-trace", "--suppress-marker-preload"], "echo \"$LD_PRELOAD\"", &[]);
    assert_eq!(printed(&o), fake, "{}", stderr(&o));
    let o = run_sh(&dir, &["--marker-trace", "--suppress-marker-preload", "false"], "echo \"$LD_PRELOAD\"", &[]);
    assert_eq!(printed(&o), format!("{fake}:{}", roctx.display()), "{}", stderr(&o));
    let o = run_sh(&dir, &[], "echo \"$LD_PRELOAD\"", &[]);
    assert_eq!(printed(&o), fake, "no marker tracing, nothing added: {}", stderr(&o));
    // Not next to the interception library: the one next to the executable (a staged build),
    // else the run goes on and says why markers may be missing.
    std::fs::remove_file(&roctx).unwrap();
    let o = run_sh(&dir, &["--marker-trace"], "echo \"$LD_PRELOAD\"", &[]);
    match printed(&o).strip_prefix(&format!("{fake}:")) {
        Some(other) => assert!(other.ends_with("/librocprofiler-sdk-roctx.so") && other != roctx.to_str().unwrap()),
        None => {
            assert_eq!(printed(&o), fake);
            assert!(stderr(&o).contains("librocprofiler-sdk-roctx.so is not next to"), "{}", stderr(&o));
        }
    }
}

#[test]
fn readlink_and_realpath_resolve_the_preloaded_library_path() {
    // rocprofv3's resolve_library_path: a symlinked library is written as found, as its link
    // target (--readlink, relative to the link's directory) or fully resolved (--realpath).
    let dir = scratch("compat-links").canonicalize().unwrap();
    std::fs::create_dir_all(dir.join("real")).unwrap();
    std::fs::write(dir.join("real/libtool.so"), b"").unwrap();
    std::os::unix::fs::symlink("real", dir.join("alias")).unwrap();
    std::os::unix::fs::symlink("alias/libtool.so", dir.join("libtool.so")).unwrap();
    let run = |args: &[&str]| {
        let mut c = bin_with_stand_in_libs(&dir);
        c.env(names::INTERCEPT_LIB, dir.join("libtool.so")).env_remove("LD_PRELOAD");
        c.args(["--simulate", "gfx942", "--kernel-trace", "-d"]).arg(&dir).args(args);
        let o = c.args(["--", "/bin/sh", "-c", "echo \"$LD_PRELOAD\""]).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        printed(&o)
    };
    let show = |p: &str| dir.join(p).display().to_string();
    assert_eq!(run(&[]), show("libtool.so"));
    assert_eq!(run(&["--readlink"]), show("alias/libtool.so"));
    assert_eq!(run(&["--realpath"]), show("real/libtool.so"));
    assert_eq!(run(&["--readlink", "--realpath"]), show("real/libtool.so"));
}

#[test]
fn att_library_path_searches_only_the_named_places_not_the_environment() {
    // rocprofv3's get_att_paths: --att-library-path replaces $ROCPROF_ATT_LIBRARY_PATH (AMD's
    // att-library-path-env-var-will-fail test); without it the environment is searched.
    let dir = scratch("compat-att-libpath");
    let run = |args: &[&str]| {
        let mut c = bin_with_stand_in_libs(&dir);
        c.env("ROCPROF_ATT_LIBRARY_PATH", "/nonexistent/env-dir");
        c.args(["--simulate", "gfx90a", "--att"]).args(args).args(["--echo", "--", "true"]).output().unwrap()
    };
    let o = run(&["--att-library-path", dir.to_str().unwrap()]);
    let named = dir.join("librocprof-trace-decoder.so").display().to_string();
    assert_one_line_error(&o, 2, &format!("tried {named}:"));
    assert!(!stderr(&o).contains("env-dir"), "{}", stderr(&o));
    let o = run(&[]);
    assert_one_line_error(&o, 2, "tried /nonexistent/env-dir");
}

#[test]
fn pc_sampling_needs_the_beta_switch_or_rocprofv3s_environment_variable() {
    // rocprofv3.py: PC sampling options are refused unless --pc-sampling-beta-enabled or
    // ROCPROFILER_PC_SAMPLING_BETA_ENABLED is set in the environment.
    let dir = scratch("compat-pcs-beta");
    let marker = dir.join("ran");
    let run = |args: &[&str], env: Option<&str>| {
        let mut c = bin_with_stand_in_libs(&dir);
        c.args(["--simulate", "gfx942", "-d"]).arg(&dir);
        c.args(["--pc-sampling-unit", "time", "--pc-sampling-method", "host_trap", "--pc-sampling-interval", "1"]);
        c.args(args).args(["--", "/bin/sh", "-c"]).arg(format!("touch {}", marker.display()));
        c.env_remove("ROCPROFILER_PC_SAMPLING_BETA_ENABLED").env_remove("LD_PRELOAD");
        if let Some(v) = env {
            c.env("ROCPROFILER_PC_SAMPLING_BETA_ENABLED", v);
        }
        c.output().unwrap()
    };
    let o = run(&[], None);
    assert_one_line_error(&o, 2, "PC sampling unavailable. The feature is implicitly disabled");
    assert!(!marker.exists(), "refused before the application starts");
    for (args, env) in [(&["--pc-sampling-beta-enabled"][..], None), (&[][..], Some("ON"))] {
        let o = run(args, env);
        assert_eq!(o.status.code(), Some(0), "{args:?} {env:?}: {}", stderr(&o));
        assert!(marker.exists(), "{args:?} {env:?}: the application ran");
        std::fs::remove_file(&marker).unwrap();
    }
}

#[test]
fn list_avail_alone_says_in_one_line_when_the_probe_cannot_list_agents() {
    // rocprofv3 -L without an application runs rocprofv3-avail; rocprof-rs runs the agent probe
    // (ROCPROF_RS_PROBE) under the tool instead. A probe that does not exist, or one that exits
    // without starting the HSA runtime (true), leaves no agents: one error line naming it.
    let dir = scratch("compat-list-probe");
    let run = |probe: &str| {
        let mut c = bin_with_stand_in_libs(&dir);
        c.env(names::PROBE, probe).args(["--simulate", "gfx942", "-L", "-d"]).arg(&dir).output().unwrap()
    };
    let o = run("/nonexistent/rocprof-probe");
    assert_one_line_error(&o, 1, "(/nonexistent/rocprof-probe could not be run:");
    let o = run("true");
    assert_one_line_error(&o, 1, "the probe true did not start the HSA runtime, so there are no agents to list");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}
