//! Every key rocprofv3 honours in an input file's job (`-i FILE.json`): rocprofv3.py's
//! `parse_json`/`get_args` give a job's keys exactly the meaning of the options whose destination
//! names they are (plus the input-only `pmc_groups`/`pmc_group_interval`). Each key is run through
//! the CLI three ways on hsa-sim: without it, with it in a job, and with its option on the command
//! line. What a user can observe of a run (exit status, console, the application's environment,
//! every output file: CSV/JSON text, decoded Perfetto slices) must be the same for the job and the
//! option, and must differ from the run without it. The options' own effects are checked by their
//! tests; this one checks that an input file reaches each of them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rocprof_launch::names;

use crate::scratch;

/// What a user can observe of one run, with the run's directory, numbers (times, pids, ids) and
/// the `pass_N/` directory a job with counters writes under (rocprofv3: `pass_1` for a single job
/// with `pmc`) normalised away.
#[derive(Debug, PartialEq)]
struct Effect {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    env: String,
    files: BTreeMap<String, String>,
}

fn normalise(text: &str, dir: &Path) -> String {
    let text = text.replace(&dir.display().to_string(), "<DIR>");
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        // Addresses (0x...) vary between runs like numbers.
        if c == '0' && chars.peek() == Some(&'x') && !in_number {
            chars.next();
            while chars.peek().is_some_and(|h| h.is_ascii_hexdigit()) {
                chars.next();
            }
            out.push_str("0xH");
            continue;
        }
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// Every file under `dir` but the environment dump, relative.
fn files(dir: &Path, root: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, root, out);
        } else if p.file_name().is_some_and(|n| n != "env.txt") {
            out.push(p.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// A file as what a user reads of it: text normalised, a Perfetto trace as its sorted slices,
/// other binaries (databases, OTF2) by name only.
fn content(path: &Path, dir: &Path) -> String {
    let name = path.to_string_lossy();
    if name.ends_with(".pftrace") {
        let mut s: Vec<String> = crate::pftrace::slices(path)
            .into_iter()
            .map(|(c, n, t)| normalise(&format!("{c} {n} @ {t}"), dir))
            .collect();
        s.sort();
        return s.join("\n");
    }
    match std::fs::read(path) {
        Ok(b)
            if !b.contains(&0)
                && [".csv", ".json", ".txt", ".md", ".html", ".yaml"].iter().any(|e| name.ends_with(e)) =>
        {
            normalise(&String::from_utf8_lossy(&b), dir)
        }
        _ => "<binary>".into(),
    }
}

/// Runs `rocprof-rs --simulate gfx90a ARGS -- sh -c 'env > env.txt; exec APP...'` in a fresh
/// directory and collects its [`Effect`].
fn effect(stage: &Path, tag: &str, args: &[String], app: &[String]) -> Effect {
    let dir = scratch(&format!("jobs-{tag}"));
    let mut c = Command::new(stage.join("rocprof-rs"));
    for v in [names::INTERCEPT_LIB, names::SIM_LIB, names::PROBE, names::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    for v in ["LD_PRELOAD", "ROCPROF_PRELOAD", "ROCPROF_OUTPUT_PATH", "ROCPROF_OUTPUT_FILE_NAME", "KOKKOS_TOOLS_LIBS"] {
        c.env_remove(v);
    }
    let o = c
        .args(["--simulate", "gfx90a"])
        .args(args)
        .args(["--", "/bin/sh", "-c", "env | LC_ALL=C sort > env.txt; exec \"$@\"", "sh"])
        .args(app)
        .current_dir(&dir)
        .output()
        .unwrap();
    let mut list = Vec::new();
    files(&dir, &dir, &mut list);
    let files = list
        .iter()
        .map(|rel| {
            let key: Vec<String> = rel
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .filter(|c| !(c.starts_with("pass_") && c[5..].chars().all(|d| d.is_ascii_digit())))
                .collect();
            (normalise(&key.join("/"), &dir), content(&dir.join(rel), &dir))
        })
        .collect();
    // The simulator's elision notes and per-run overhead figures vary with timing: left out.
    let stderr: Vec<String> = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| !l.starts_with("hsa-sim: ") && !l.contains(" records written"))
        .map(|l| normalise(l, &dir))
        .collect();
    Effect {
        code: o.status.code(),
        stdout: normalise(&String::from_utf8_lossy(&o.stdout), &dir),
        stderr: stderr.join("\n"),
        env: normalise(&std::fs::read_to_string(dir.join("env.txt")).unwrap_or_default(), &dir),
        files,
    }
}

/// One job key: its JSON value, the same setting as command-line tokens, the other options every
/// run of it has (`None`: [`CONTEXT`]) and the application (`None`: `vector_add 3`).
struct Key {
    key: &'static str,
    json: String,
    cli: Vec<String>,
    context: Option<Vec<&'static str>>,
    app: Option<&'static str>,
}

const CONTEXT: &[&str] = &["-d", "out", "-f", "csv", "--kernel-trace"];

fn k(key: &'static str, json: &str, cli: &[&str]) -> Key {
    Key { key, json: json.to_string(), cli: cli.iter().map(|s| s.to_string()).collect(), context: None, app: None }
}

impl Key {
    fn ctx(mut self, extra: &[&'static str]) -> Self {
        self.context = Some(CONTEXT.iter().chain(extra).copied().collect());
        self
    }
    fn only(mut self, context: &[&'static str]) -> Self {
        self.context = Some(context.to_vec());
        self
    }
    fn app(mut self, app: &'static str) -> Self {
        self.app = Some(app);
        self
    }
}

/// rocprofv3's job keys: every option destination of rocprofv3.py but `input` and `version`, and
/// the input-only `pmc_groups`/`pmc_group_interval`.
fn keys(extra_counters: &str) -> Vec<Key> {
    let pcs = ["--pc-sampling-beta-enabled", "--pc-sampling-unit", "time", "--pc-sampling-method", "host_trap"];
    let summary = ["--summary"];
    let ec = format!("{extra_counters:?}");
    vec![
        k("output_file", r#""named""#, &["-o", "named"]),
        k("output_directory", r#""elsewhere""#, &["-d", "elsewhere"]).only(&["-f", "csv", "--kernel-trace"]),
        k("output_format", r#"["json"]"#, &["-f", "json"]).only(&["-d", "out", "--kernel-trace"]),
        k("output_config", "true", &["--output-config"]),
        k("log_level", r#""info""#, &["--log-level", "info"]),
        k("extra_counters", &ec, &["-E", extra_counters]).ctx(&["--pmc", "WAVES_PER_KCYCLE"]),
        k("runtime_trace", "true", &["--runtime-trace"]),
        k("sys_trace", "true", &["--sys-trace"]),
        k("hip_trace", "true", &["--hip-trace"]),
        k("marker_trace", "true", &["--marker-trace"]),
        k("kernel_trace", "true", &["--kernel-trace"]).only(&["-d", "out", "-f", "csv"]),
        k("memory_copy_trace", "true", &["--memory-copy-trace"]),
        k("memory_allocation_trace", "true", &["--memory-allocation-trace"]),
        k("scratch_memory_trace", "true", &["--scratch-memory-trace"]),
        k("hsa_trace", "true", &["--hsa-trace"]),
        k("rccl_trace", "true", &["--rccl-trace"]),
        k("kokkos_trace", "true", &["--kokkos-trace"]).app("kokkos_app"),
        k("rocdecode_trace", "true", &["--rocdecode-trace"]),
        k("rocjpeg_trace", "true", &["--rocjpeg-trace"]),
        k("hip_runtime_trace", "true", &["--hip-runtime-trace"]),
        k("hip_compiler_trace", "true", &["--hip-compiler-trace"]),
        k("hsa_core_trace", "true", &["--hsa-core-trace"]),
        k("hsa_amd_trace", "true", &["--hsa-amd-trace"]),
        k("hsa_image_trace", "true", &["--hsa-image-trace"]),
        k("hsa_finalizer_trace", "true", &["--hsa-finalizer-trace"]),
        k("pmc", r#"["SQ_WAVES", "GRBM_COUNT"]"#, &["--pmc", "SQ_WAVES", "GRBM_COUNT"]),
        k("pc_sampling_beta_enabled", "true", &["--pc-sampling-beta-enabled"]).ctx(&[
            "--pc-sampling-unit",
            "time",
            "--pc-sampling-method",
            "host_trap",
            "--pc-sampling-interval",
            "1",
        ]),
        k("pc_sampling_unit", r#""time""#, &["--pc-sampling-unit", "time"]).ctx(&[
            "--pc-sampling-beta-enabled",
            "--pc-sampling-method",
            "host_trap",
            "--pc-sampling-interval",
            "1",
        ]),
        k("pc_sampling_method", r#""host_trap""#, &["--pc-sampling-method", "host_trap"]).ctx(&[
            "--pc-sampling-beta-enabled",
            "--pc-sampling-unit",
            "time",
            "--pc-sampling-interval",
            "1",
        ]),
        k("pc_sampling_interval", "1", &["--pc-sampling-interval", "1"]).ctx(&pcs),
        k("stats", "true", &["--stats"]),
        k("summary", "true", &["--summary"]),
        k("summary_per_domain", "true", &["--summary-per-domain"]).ctx(&summary),
        k("summary_groups", r#"["KERNEL_DISPATCH"]"#, &["--summary-groups", "KERNEL_DISPATCH"]).ctx(&summary),
        k("summary_output_file", r#""sum""#, &["--summary-output-file", "sum"]).ctx(&summary),
        k("summary_units", r#""usec""#, &["--summary-units", "usec"]).ctx(&summary),
        k("mangled_kernels", "true", &["--mangled-kernels"]).app("hip_vector_add"),
        k("truncate_kernels", "true", &["--truncate-kernels"]).app("hip_vector_add"),
        k("kernel_rename", "true", &["--kernel-rename"]).ctx(&["--marker-trace"]).app("kokkos_app"),
        k("kernel_include_regex", r#""^nomatch$""#, &["--kernel-include-regex", "^nomatch$"]),
        k("kernel_exclude_regex", r#""vector""#, &["--kernel-exclude-regex", "vector"]),
        k("kernel_iteration_range", r#""[2]""#, &["--kernel-iteration-range", "[2]"]),
        k("collection_period", r#""0:1:1""#, &["--collection-period", "0:1:1"]),
        k("collection_period_unit", r#""nsec""#, &["--collection-period-unit", "nsec"])
            .ctx(&["--collection-period", "0:1:1"]),
        k("selected_regions", "true", &["--selected-regions"]),
        k("perfetto_backend", r#""system""#, &["--perfetto-backend", "system"]).ctx(&["-f", "pftrace"]),
        k("perfetto_buffer_size", "2048", &["--perfetto-buffer-size", "2048"]).ctx(&["-f", "pftrace"]),
        k("perfetto_buffer_fill_policy", r#""ring_buffer""#, &["--perfetto-buffer-fill-policy", "ring_buffer"])
            .ctx(&["-f", "pftrace"]),
        k("perfetto_shmem_size_hint", "128", &["--perfetto-shmem-size-hint", "128"]).ctx(&["-f", "pftrace"]),
        k("list_avail", "true", &["--list-avail"]),
        k("group_by_queue", "true", &["--group-by-queue"]).ctx(&["-f", "pftrace"]),
        k("preload", r#"["/nonexistent/libfirst.so"]"#, &["--preload", "/nonexistent/libfirst.so"]),
        k("rocm_root", r#""/nonexistent/rocm""#, &["--rocm-root", "/nonexistent/rocm"]),
        k("sdk_soversion", "7", &["--sdk-soversion", "7"]),
        k("sdk_version", r#""1.2.3""#, &["--sdk-version", "1.2.3"]).ctx(&["--sdk-soversion", "7"]),
        k("readlink", "true", &["--readlink"]),
        k("realpath", "true", &["--realpath"]),
        k("benchmark_mode", r#""disabled-sdk-contexts""#, &["--benchmark-mode", "disabled-sdk-contexts"]),
        k("agent_index", r#""type-relative""#, &["--agent-index", "type-relative"]),
        k("suppress_marker_preload", "true", &["--suppress-marker-preload"]).ctx(&["--marker-trace"]),
        k("echo", "true", &["--echo"]),
        k("disable_signal_handlers", "true", &["--disable-signal-handlers"]),
        k("minimum_output_data", "100000", &["--minimum-output-data", "100000"]),
        k("pid", "1", &["--pid", "1"]),
        k("advanced_thread_trace", "true", &["--advanced-thread-trace"]).only(&["-d", "out"]),
        k("att_library_path", r#""/nonexistent/att""#, &["--att-library-path", "/nonexistent/att"])
            .only(&["-d", "out", "--att"]),
        k("att_target_cu", "2", &["--att-target-cu", "2"]).only(&["-d", "out", "--att"]),
        k("att_simd_select", r#""0x3""#, &["--att-simd-select", "0x3"]).only(&["-d", "out", "--att"]),
        k("att_buffer_size", r#""0x100000""#, &["--att-buffer-size", "0x100000"]).only(&["-d", "out", "--att"]),
        k("att_shader_engine_mask", r#""0x3""#, &["--att-shader-engine-mask", "0x3"]).only(&["-d", "out", "--att"]),
        k("att_gpu_index", r#""0""#, &["--att-gpu-index", "0"]).only(&["-d", "out", "--att"]),
        k("att_perfcounters", r#""SQ_WAVES""#, &["--att-perfcounters", "SQ_WAVES"]).only(&["-d", "out", "--att"]),
        k("att_perfcounter_ctrl", "4", &["--att-perfcounter-ctrl", "4"]).only(&[
            "-d",
            "out",
            "--att",
            "--att-perfcounters",
            "SQ_WAVES",
        ]),
        k("att_activity", "8", &["--att-activity", "8"]).only(&["-d", "out", "--att"]),
        k("att_serialize_all", "true", &["--att-serialize-all"]).only(&["-d", "out", "--att"]),
        k("pmc_groups", r#"[["SQ_WAVES"], ["GRBM_COUNT"]]"#, &["--pmc-groups", "SQ_WAVES;GRBM_COUNT"]),
        k("pmc_group_interval", "2", &["--pmc-group-interval", "2"]).ctx(&["--pmc-groups", "SQ_WAVES;GRBM_COUNT"]),
    ]
    .into_iter()
    // PC sampling needs a kernel long enough to be sampled.
    .map(|k| if k.key.starts_with("pc_sampling") { k.app("hip_pc_sampling") } else { k })
    .collect()
}

/// Keys whose option changes nothing this test can observe on hsa-sim with the staged libraries
/// (for them only job == option is checked), and the test that checks the option's effect.
const UNOBSERVABLE_HERE: &[(&str, &str)] = &[
    ("sdk_soversion", "names a versioned SDK library; the stage's has none (compat::sdk_soversion_and_version_resolve_a_versioned_library_name)"),
    ("sdk_version", "as sdk_soversion"),
    ("readlink", "the stage's library paths hold no symlink (compat::readlink_and_realpath_resolve_the_preloaded_library_path)"),
    ("realpath", "as readlink"),
    ("disable_signal_handlers", "rocprof-rs installs no handler either way (staged::the_profiled_application_keeps_its_own_signal_handlers_with_or_without_disable_signal_handlers)"),
    ("att_target_cu", "changes the binary thread-trace data only (att_staged tests)"),
    ("att_buffer_size", "changes the binary thread-trace data only (att_staged tests)"),
];

#[test]
fn every_rocprofv3_jobs_key_has_the_effect_of_its_option() {
    let Some(stage) = rocprof_test_inputs::stage("input-file jobs test") else { return };
    let extra = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/inputs/extra_counters.yaml");
    let extra = extra.canonicalize().unwrap().display().to_string();
    let jobs_dir = scratch("jobs-files");
    let mut bases: BTreeMap<String, Effect> = BTreeMap::new();
    let mut failures = Vec::new();
    for key in keys(&extra) {
        let context: Vec<String> =
            key.context.clone().unwrap_or_else(|| CONTEXT.to_vec()).iter().map(|s| s.to_string()).collect();
        let app_name = key.app.unwrap_or("vector_add");
        let Some(app) = rocprof_test_inputs::staged(
            "every_rocprofv3_jobs_key_has_the_effect_of_its_option",
            &stage,
            &format!("fixtures/{app_name}"),
        ) else {
            return;
        };
        let mut app = vec![app.display().to_string()];
        if app_name == "vector_add" {
            app.push("3".into());
        }
        let base_id = format!("{context:?} {app:?}");
        if !bases.contains_key(&base_id) {
            let e = effect(&stage, &format!("base-{}", bases.len()), &context, &app);
            bases.insert(base_id.clone(), e);
        }
        let file = jobs_dir.join(format!("{}.json", key.key));
        std::fs::write(&file, format!(r#"{{"jobs": [{{"{}": {}}}]}}"#, key.key, key.json)).unwrap();
        let mut job_args = context.clone();
        job_args.extend(["-i".to_string(), file.display().to_string()]);
        let mut job = effect(&stage, &format!("{}-job", key.key), &job_args, &app);
        // A job's errors name the input file first, and a job with counters writes under pass_1/
        // (rocprofv3's behaviours, tested in args/input.rs): both taken out.
        let named = normalise(&format!("input file {}: ", file.display()), Path::new("/nonexistent"));
        job.stderr = job.stderr.replace(&named, "").replace("/pass_N/", "/");
        job.env = job.env.replace("/pass_N/", "/");
        let mut cli_args = context.clone();
        cli_args.extend(key.cli.iter().cloned());
        let mut cli = effect(&stage, &format!("{}-cli", key.key), &cli_args, &app);
        if key.key.starts_with("pc_sampling") {
            // Which PCs a timer samples varies from run to run: the samples' contents are left out.
            for e in [&mut job, &mut cli] {
                e.stdout.clear();
                e.files.values_mut().for_each(String::clear);
            }
        }
        if job != cli {
            failures.push(format!("{}: the job differs from {:?}:\n job: {job:?}\n cli: {cli:?}", key.key, key.cli));
        } else if &cli == bases.get(&base_id).unwrap() && !UNOBSERVABLE_HERE.iter().any(|(k, _)| *k == key.key) {
            failures.push(format!("{}: {:?} changes nothing observable over {context:?}: {cli:?}", key.key, key.cli));
        }
    }
    assert!(failures.is_empty(), "{} keys:\n{}", failures.len(), failures.join("\n\n"));
}
