//! `-i/--input FILE`: rocprofv3's run-configuration files.
//!
//! * `.txt`: every line containing `pmc:` is one pass collecting the counters after it (`#` starts a
//!   comment); passes write under `pmc_1/`, `pmc_2/`, ...
//! * `.yaml`/`.yml`/`.json`: `{"jobs": [ {...}, ... ]}`; each job's keys are the option destination
//!   names (`kernel_trace`, `output_directory`, `pmc`, `kernel_iteration_range`, ...) plus the
//!   input-only `pmc_groups` and `pmc_group_interval`. Several jobs run the application once each,
//!   under `pass_1/`, `pass_2/`, ...; a single job uses `pass_1/` only when it has `pmc` (not for
//!   `pmc_groups`, as rocprofv3).
//!
//! Each job becomes a command line (ours, minus `-i FILE`, plus the job's options) parsed like any
//! other, so a job is validated exactly as the options would be. A key also given on the command line
//! with a different value is an error (`conflicting value for KEY: CLI vs JOB`), as in rocprofv3; keys
//! rocprof-rs has no option for are reported and ignored (rocprofv3 ignores unknown keys silently).
//! Bad files are one-line errors naming the file.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{anyhow, bail, Context as _, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory};
use serde_json::Value;

use crate::yaml::yaml_to_json;

use super::Args;

/// One run an input file asks for: its command line and output sub-directory.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Job {
    /// Command line (program name first), as if typed.
    pub(crate) argv: Vec<OsString>,
    /// `pmc_N` / `pass_N`, or none.
    pub(crate) subdir: Option<String>,
}

/// The jobs of `-i FILE`, given the command line `argv` that named it.
pub(crate) fn jobs(argv: &[OsString], file: &Path) -> Result<Vec<Job>> {
    let text = std::fs::read_to_string(file).with_context(|| format!("input file {}", file.display()))?;
    jobs_from_text(argv, file, &text)
}

/// [`jobs`] for the contents `text` of `file` (already read).
pub(crate) fn jobs_from_text(argv: &[OsString], file: &Path, text: &str) -> Result<Vec<Job>> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let (specs, prefix): (Vec<serde_json::Map<String, Value>>, &str) = match ext.as_str() {
        "txt" => (txt_jobs(text), "pmc_"),
        "json" => {
            let v: Value = serde_json::from_str(text).map_err(|e| anyhow!("input file {}: {e}", file.display()))?;
            (job_list(v, file)?, "pass_")
        }
        "yaml" | "yml" => (job_list(yaml_to_json(text, file)?, file)?, "pass_"),
        _ => bail!("input file '{}' does not have a recognized extension (.txt, .json, .yaml, .yml)", file.display()),
    };
    if specs.is_empty() {
        bail!("input file {} defines no job (no `pmc:` line / empty `jobs` list)", file.display());
    }
    let (head, app) = split_app(argv);
    let head = strip_input(&head);
    let matches = Args::command()
        .try_get_matches_from(head.iter().chain(std::iter::once(&OsString::from("--"))).chain(&app))
        .map_err(|e| anyhow!("{}", e.to_string().lines().next().unwrap_or("invalid command line")))?;
    let single = specs.len() == 1;
    let mut out = Vec::new();
    for (n, spec) in specs.iter().enumerate() {
        let mut argv = head.clone();
        for (key, value) in spec {
            let tokens = match option_tokens(key, value) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => bail!("input file {}: job {}: {e}", file.display(), n + 1),
            };
            // The same value on the command line and in the job (AMD's ATT tests give `--att`
            // and `advanced_thread_trace: true`): the option is given once.
            if !check_conflict(&matches, key, value)? {
                argv.extend(tokens);
            }
        }
        argv.push("--".into());
        argv.extend(app.iter().cloned());
        // rocprofv3: a single job writes under pass_1/ when it has `pmc`; `pmc_groups`
        // multiplexes in the one run and writes where the options say.
        let has_pmc = spec.get("pmc").is_some_and(|v| !matches!(v, Value::Null) && v != &Value::Array(vec![]));
        let subdir = (!single || has_pmc).then(|| format!("{prefix}{}", n + 1));
        out.push(Job { argv, subdir });
    }
    Ok(out)
}

/// Everything before the first `--`, and the application after it.
fn split_app(argv: &[OsString]) -> (Vec<OsString>, Vec<OsString>) {
    match argv.iter().position(|a| a == "--") {
        Some(i) => (argv[..i].to_vec(), argv[i + 1..].to_vec()),
        None => (argv.to_vec(), Vec::new()),
    }
}

/// The command line without `-i FILE` / `--input FILE` / `--input=FILE`.
fn strip_input(head: &[OsString]) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in head {
        if skip {
            skip = false;
            continue;
        }
        let s = a.to_string_lossy();
        if s == "-i" || s == "--input" {
            skip = true;
        } else if !(s.starts_with("--input=") || (s.starts_with("-i") && s.len() > 2 && !s.starts_with("--"))) {
            out.push(a.clone());
        }
    }
    out
}

fn txt_jobs(text: &str) -> Vec<serde_json::Map<String, Value>> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter_map(|l| l.split_once("pmc:").map(|(_, rest)| rest.trim().to_string()))
        .map(|rest| {
            let mut m = serde_json::Map::new();
            m.insert("pmc".into(), Value::String(rest));
            m
        })
        .collect()
}

fn job_list(v: Value, file: &Path) -> Result<Vec<serde_json::Map<String, Value>>> {
    let bad = |what: &str| anyhow!("input file {}: {what}", file.display());
    let jobs = v.get("jobs").ok_or_else(|| bad("no top-level `jobs` list"))?;
    let Value::Array(list) = jobs else { return Err(bad("`jobs` is not a list")) };
    list.iter()
        .enumerate()
        .map(|(i, j)| match j {
            Value::Object(m) => Ok(m.clone()),
            Value::Null => Ok(serde_json::Map::new()),
            _ => Err(bad(&format!("job {} is not a mapping", i + 1))),
        })
        .collect()
}

/// A job value as text (lists joined by spaces), for the conflict message and comparison.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(value_text).collect::<Vec<_>>().join(" "),
        Value::Bool(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// The option an input-file key sets: the key is an option's destination name (`kernel_trace`), or
/// its long name or an alias with `_` for `-` (`advanced_thread_trace` is `--advanced-thread-trace`,
/// `agent-index` is `--agent-index`).
fn arg_for(key: &str) -> Option<&'static clap::Arg> {
    // Building clap's command for ~70 options costs far more than the lookup: build it once
    // (a file with many keys, and the fuzz target, call this per key).
    static COMMAND: std::sync::OnceLock<clap::Command> = std::sync::OnceLock::new();
    let cmd = COMMAND.get_or_init(Args::command);
    let long = key.replace('_', "-");
    cmd.get_arguments().find(|a| {
        a.get_id() == key
            || a.get_long() == Some(long.as_str())
            || a.get_all_aliases().is_some_and(|l| l.contains(&long.as_str()))
    })
}

/// The tokens that set option `key` to `value`; `None` for a key without an option (reported).
fn option_tokens(key: &str, value: &Value) -> Result<Option<Vec<OsString>>> {
    if value.is_null() {
        return Ok(None);
    }
    if key == "pmc_groups" {
        let Value::Array(groups) = value else { bail!("pmc_groups must be a list of counter lists") };
        let text: Vec<String> = groups.iter().map(|g| value_text(g).replace(' ', ",")).collect();
        return Ok(Some(vec!["--pmc-groups".into(), text.join(";").into()]));
    }
    let Some(arg) = arg_for(key) else {
        eprintln!("rocprof-rs: warning: input file key '{key}' has no rocprof-rs option; ignored");
        return Ok(None);
    };
    let Some(long) = arg.get_long() else { return Ok(None) };
    let flag = format!("--{long}");
    let takes_values = arg.get_num_args().is_some_and(|n| n.takes_values());
    let tokens: Vec<OsString> = match value {
        Value::Bool(b) if !takes_values => {
            if *b {
                vec![flag.into()]
            } else {
                vec![]
            }
        }
        Value::Bool(b) => vec![format!("{flag}={b}").into()],
        Value::Array(items) => {
            let mut t: Vec<OsString> = vec![flag.into()];
            t.extend(items.iter().map(|v| OsString::from(value_text(v))));
            t
        }
        Value::Object(_) => bail!("{key} must not be a mapping"),
        other => vec![flag.into(), value_text(other).into()],
    };
    Ok(Some(tokens))
}

/// rocprofv3's rule: a key set on the command line and in the job to different values is an error.
/// Returns true when the command line already gives it the same value.
fn check_conflict(matches: &ArgMatches, key: &str, value: &Value) -> Result<bool> {
    let Some(id) = arg_for(key).map(|a| a.get_id().as_str()) else { return Ok(false) };
    let Ok(Some(raw)) = matches.try_get_raw(id) else { return Ok(false) };
    if matches.value_source(id) != Some(ValueSource::CommandLine) {
        return Ok(false);
    }
    let cli: Vec<String> = raw.map(|v| v.to_string_lossy().into_owned()).collect();
    let cli = cli.join(" ");
    let job = value_text(value);
    let norm = |s: &str| match s.to_ascii_lowercase().as_str() {
        "y" | "yes" | "t" | "true" | "on" | "1" => "true".to_string(),
        "n" | "no" | "f" | "false" | "off" | "0" => "false".to_string(),
        other => other.split([',', ' ']).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" "),
    };
    if norm(&cli) != norm(&job) {
        bail!("conflicting value for {key} : {cli} vs {job}");
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("rocprof-rs-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn argv(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    fn strs(v: &[OsString]) -> Vec<String> {
        v.iter().map(|s| s.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn txt_lines_are_passes_under_pmc_n() {
        let f = write("in.txt", "# comment\npmc: SQ_WAVES GRBM_COUNT\n\npmc: GRBM_GUI_ACTIVE # trailing\nignored\n");
        let j = jobs(&argv(&["rocprof-rs", "-i", f.to_str().unwrap(), "-d", "out", "--", "app", "1"]), &f).unwrap();
        assert_eq!(j.len(), 2);
        assert_eq!(strs(&j[0].argv), ["rocprof-rs", "-d", "out", "--pmc", "SQ_WAVES GRBM_COUNT", "--", "app", "1"]);
        assert_eq!(j[1].subdir.as_deref(), Some("pmc_2"));
    }

    #[test]
    fn yaml_and_json_jobs_become_options() {
        let y = write(
            "in.yml",
            "jobs:\n  - pmc: [SQ_WAVES]\n    kernel_include_regex: \".*_kernel\"\n    kernel_iteration_range:\n    - \"[1-2]\"\n    - \"[3-4]\"\n    truncate_kernels: true\n  -\n    pmc_groups: [[\"SQ_WAVES\", \"GRBM_COUNT\"], [\"GRBM_GUI_ACTIVE\"]]\n    pmc_group_interval: 1\n",
        );
        let j = jobs(&argv(&["rocprof-rs", "--input", y.to_str().unwrap(), "--", "app"]), &y).unwrap();
        let a = strs(&j[0].argv);
        assert!(a.windows(2).any(|w| w == ["--kernel-include-regex", ".*_kernel"]), "{a:?}");
        assert!(a.windows(3).any(|w| w == ["--kernel-iteration-range", "[1-2]", "[3-4]"]), "{a:?}");
        assert!(a.contains(&"--truncate-kernels=true".to_string()), "{a:?}");
        let b = strs(&j[1].argv);
        assert!(b.windows(2).any(|w| w == ["--pmc-groups", "SQ_WAVES,GRBM_COUNT;GRBM_GUI_ACTIVE"]), "{b:?}");
        assert!(b.windows(2).any(|w| w == ["--pmc-group-interval", "1"]), "{b:?}");
        assert_eq!(j[1].subdir.as_deref(), Some("pass_2"));
        let js = write("in.json", r#"{"jobs": [{"kernel_trace": true}]}"#);
        let j = jobs(&argv(&["rocprof-rs", "-i", js.to_str().unwrap(), "--", "app"]), &js).unwrap();
        assert_eq!(j[0].subdir, None, "a single job without counters writes where -d says");
        // rocprofv3's main(): pass_1 for a single job only when it has `pmc`; `pmc_groups`
        // multiplex in one run (AMD's counter-collection/multiplex reads -d's directory).
        let g = write(
            "groups.json",
            r#"{"jobs": [{"pmc_groups": [["SQ_WAVES"], ["GRBM_COUNT"]], "pmc_group_interval": 1}]}"#,
        );
        let j = jobs(&argv(&["rocprof-rs", "-i", g.to_str().unwrap(), "--", "app"]), &g).unwrap();
        assert_eq!(j[0].subdir, None);
        let p = write("pmc.json", r#"{"jobs": [{"pmc": ["SQ_WAVES"]}]}"#);
        let j = jobs(&argv(&["rocprof-rs", "-i", p.to_str().unwrap(), "--", "app"]), &p).unwrap();
        assert_eq!(j[0].subdir.as_deref(), Some("pass_1"));
    }

    #[test]
    fn keys_may_name_an_options_long_name_or_alias() {
        // AMD's advanced-thread-trace/att_input.json and agent-index inputs.
        let js = write(
            "att.json",
            r#"{"jobs": [{"advanced_thread_trace": true, "att_target_cu": 1, "agent-index": "absolute",
                "perfetto_buffer_size": 2048, "summary_groups": ["KERNEL_DISPATCH", ".*_API"]}]}"#,
        );
        let j = jobs(&argv(&["rocprof-rs", "-i", js.to_str().unwrap(), "--", "app"]), &js).unwrap();
        let a = strs(&j[0].argv);
        assert!(a.contains(&"--att=true".to_string()), "{a:?}");
        assert!(a.windows(2).any(|w| w == ["--agent-index", "absolute"]), "{a:?}");
        assert!(a.windows(2).any(|w| w == ["--perfetto-buffer-size", "2048"]), "{a:?}");
        assert!(a.windows(3).any(|w| w == ["--summary-groups", "KERNEL_DISPATCH", ".*_API"]), "{a:?}");
        // The conflict rule applies to such keys as well.
        let e = jobs(&argv(&["rocprof-rs", "--att=false", "-i", js.to_str().unwrap(), "--", "app"]), &js).unwrap_err();
        assert_eq!(e.to_string(), "conflicting value for advanced_thread_trace : false vs true");
        // The same value on both (AMD's att_input.json with --att): given once, so it parses.
        let j = jobs(&argv(&["rocprof-rs", "--att", "-i", js.to_str().unwrap(), "--", "app"]), &js).unwrap();
        let a = strs(&j[0].argv);
        assert_eq!(a.iter().filter(|t| *t == "--att" || t.starts_with("--att=")).count(), 1, "{a:?}");
        assert!(<super::Args as clap::Parser>::try_parse_from(&j[0].argv).is_ok(), "{a:?}");
    }

    #[test]
    fn conflicts_and_bad_files_are_one_line_errors() {
        let js = write("c.json", r#"{"jobs": [{"output_directory": "elsewhere"}]}"#);
        let e = jobs(&argv(&["rocprof-rs", "-d", "here", "-i", js.to_str().unwrap(), "--", "app"]), &js).unwrap_err();
        assert_eq!(e.to_string(), "conflicting value for output_directory : here vs elsewhere");
        let here = write("same.json", r#"{"jobs": [{"output_directory": "here"}]}"#);
        assert!(jobs(&argv(&["rocprof-rs", "-d", "here", "-i", here.to_str().unwrap(), "--", "a"]), &here).is_ok());
        let bad = write("bad.json", "{\"jobs\": [");
        let e = jobs(&argv(&["rocprof-rs", "--", "a"]), &bad).unwrap_err().to_string();
        assert!(e.starts_with("input file ") && !e.contains('\n'), "{e}");
        let e = jobs(&argv(&["rocprof-rs", "--", "a"]), &write("x.ini", "")).unwrap_err().to_string();
        assert!(e.contains("does not have a recognized extension"), "{e}");
        let e = jobs(&argv(&["rocprof-rs", "--", "a"]), &write("nojobs.yaml", "foo: 1\n")).unwrap_err().to_string();
        assert!(e.contains("no top-level `jobs` list"), "{e}");
    }
}
