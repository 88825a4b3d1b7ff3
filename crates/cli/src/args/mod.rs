//! The command line as clap sees it, with rocprofv3's option names, and its conversion into
//! [`Config`]. No other module sees clap.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

mod att;
mod collection;
mod compat;
pub(crate) mod input;
mod kernel_filter;
mod pc_sampling;
mod pmc;
mod tracing;

use anyhow::{bail, Result};
use clap::{Parser, ValueEnum};

use crate::config::{Config, LogLevel, OutputFormat, SummaryOutput};
use rocprof_writers::csv::AgentIndex;
use rocprof_writers::stats::SummaryUnit;

const AFTER_HELP: &str = "\
Exit status: the application's own exit status; 128+N when it was killed by signal N (after
writing what was captured); 1 when rocprof-rs itself failed (message `rocprof-rs: error: ...`);
2 for a command-line error.

Outputs go to <output-directory>/<output-file>_<name>, default ./%hostname%/%pid%_results.db.
Path placeholders: %hostname% %pid% %ppid% %pgid% %psid% %psize% %job% %rank% %size% %nid% %cwd%
%launch_date% %launch_time% %argv% %argt% %args% %tag% %argN% %env{NAME}% (also {key} and the
short forms %h %p %j %r %s).

Example: rocprof-rs --simulate gfx942 --kernel-trace --stats -f rocpd csv -d out -- ./app";

/// rocprof-rs: profile an unmodified ROCm application (rocprofv3-compatible options).
#[derive(Debug, Parser)]
#[command(name = "rocprof-rs", about, after_help = AFTER_HELP, disable_version_flag = true)]
pub(crate) struct Args {
    /// Print the version information (rocprofv3's format) and exit.
    #[arg(short = 'v', long = "version", visible_short_alias = 'V')]
    version: bool,

    #[command(flatten)]
    tracing: tracing::TracingArgs,

    /// Directory for output files (placeholders allowed); default: $ROCPROF_OUTPUT_PATH, else the
    /// current directory.
    #[arg(short = 'd', long, value_name = "DIR")]
    output_directory: Option<String>,

    /// Output file-name prefix (placeholders allowed, may contain '/'); default:
    /// $ROCPROF_OUTPUT_FILE_NAME, else %hostname%/%pid%.
    #[arg(short = 'o', long, value_name = "PREFIX")]
    output_file: Option<String>,

    /// Output formats, one or more of: rocpd (default), csv.
    #[arg(short = 'f', long, value_name = "FORMAT", num_args = 1.., value_delimiter = ',')]
    output_format: Vec<String>,

    /// Write per-domain statistics (kernel_stats.csv, domain_stats.csv with csv output).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    stats: Option<bool>,

    /// Print a summary table of all traced domains to stdout at the end.
    #[arg(short = 'S', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    summary: Option<bool>,

    /// Print one summary table per traced domain.
    #[arg(short = 'D', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    summary_per_domain: Option<bool>,

    /// One summary table per regular expression, over the domains whose whole name it matches
    /// (e.g. 'KERNEL_DISPATCH|MEMORY_COPY' '.*_API').
    #[arg(long, value_name = "REGEX", num_args = 1..)]
    summary_groups: Vec<String>,

    /// Time unit of summary tables.
    #[arg(short = 'u', long, value_enum, value_name = "UNIT")]
    summary_units: Option<UnitArg>,

    /// How agents are named in CSV output.
    #[arg(short = 'A', long, value_enum, value_name = "MODE")]
    agent_index: Option<AgentIndexArg>,

    /// Kernel names: keep only the bare function name.
    #[arg(short = 'T', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    truncate_kernels: Option<bool>,

    /// Kernel names: keep the raw (mangled) symbol names, `.kd` included.
    #[arg(short = 'M', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    mangled_kernels: Option<bool>,

    /// Where summary tables go: stdout (default), stderr, or a file name (written as
    /// <output-directory>/<output-file>_<name>.txt).
    #[arg(long, value_name = "TARGET")]
    summary_output_file: Option<String>,

    /// Log level of rocprof-rs and its interception library.
    #[arg(long, value_enum, value_name = "LEVEL")]
    log_level: Option<LogLevelArg>,

    /// What a recording thread does when the capture has no free space yet (its writer is
    /// behind, e.g. on a loaded machine): `lossless` (default) waits for the writer, so nothing
    /// is lost and the waits are reported (run_health `stall_*`); `drop` never waits, bounding
    /// the application's slowdown, and counts what it dropped (`lost.writer_behind`). A full disk
    /// is a counted loss either way.
    #[arg(long, value_name = "POLICY", value_parser = parse_buffer_policy)]
    buffer_policy: Option<rocprof_model::BufferPolicy>,

    /// List the available agents (and, with an application, run it afterwards).
    #[arg(short = 'L', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    list_avail: Option<bool>,

    /// Run on hsa-sim, the simulated ROCr, with these GPU targets (e.g. gfx942 or gfx942,gfx1100).
    #[arg(long, value_name = "GFX[,GFX...]", value_delimiter = ',')]
    simulate: Option<Vec<String>>,

    /// Write the outputs from capture files kept by an earlier run (after a failed write)
    /// instead of running an application.
    #[arg(long, value_name = "DIR", conflicts_with = "app")]
    from_capture: Option<PathBuf>,

    #[command(flatten)]
    kernel_filter: kernel_filter::KernelFilterArgs,

    #[command(flatten)]
    collection: collection::CollectionArgs,

    #[command(flatten)]
    att: att::AttArgs,

    #[command(flatten)]
    pmc: pmc::PmcArgs,

    #[command(flatten)]
    pc_sampling: pc_sampling::PcSamplingArgs,

    #[command(flatten)]
    compat: compat::CompatArgs,

    /// Run configuration file (.txt with `pmc:` lines, or .yaml/.yml/.json with a `jobs` list of
    /// option settings); the application runs once per pass/job.
    #[arg(short = 'i', long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,

    /// The application and its arguments, after `--`.
    #[arg(last = true, value_name = "APP")]
    app: Vec<OsString>,
}

/// `--buffer-policy`: one of [`rocprof_model::BufferPolicy`]'s names.
fn parse_buffer_policy(s: &str) -> Result<rocprof_model::BufferPolicy, String> {
    rocprof_model::BufferPolicy::parse(s)
}

/// An environment variable's value, when set and not empty.
fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// rocprofv3's BOOL words.
fn parse_bool(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "y" | "yes" | "t" | "true" | "on" | "1" => Ok(true),
        "n" | "no" | "f" | "false" | "off" | "0" => Ok(false),
        _ => Err(format!("expected a boolean (yes/no, true/false, on/off, 1/0), got '{s}'")),
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum UnitArg {
    Sec,
    Msec,
    Usec,
    Nsec,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AgentIndexArg {
    Absolute,
    Relative,
    TypeRelative,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LogLevelArg {
    Fatal,
    Error,
    Warning,
    Info,
    Trace,
    Env,
    Config,
}

impl Args {
    /// `-v` / `--version` was given: print the version and do nothing else.
    pub(crate) fn wants_version(&self) -> bool {
        self.version
    }

    /// Validates and converts into the internal configuration.
    pub(crate) fn into_config(self) -> Result<Config> {
        let mut formats = Vec::new();
        for f in self.output_format.iter().flat_map(|f| f.split([' ', '\t', ';', ':'])).filter(|f| !f.is_empty()) {
            let format = match OutputFormat::from_name(f) {
                Some(format) => format,
                None => bail!("unknown output format '{f}' (supported: {})", OutputFormat::names()),
            };
            if format == OutputFormat::Otf2 {
                // Before the application starts: the OTF2 library is loaded at run time.
                rocprof_writers::otf2::check_available().map_err(|e| anyhow::anyhow!(e))?;
            }
            if !formats.contains(&format) {
                formats.push(format);
            }
        }
        if formats.is_empty() {
            formats.push(OutputFormat::Rocpd);
        }
        let simulate = match self.simulate {
            Some(list) => {
                let list: Vec<String> =
                    list.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                if list.is_empty() {
                    bail!("--simulate needs at least one GPU target, e.g. --simulate gfx942");
                }
                // Checked against the targets table (the one hsa-sim simulates), so that a typo fails
                // before the application starts rather than as a runtime error inside it.
                let models = rocprof_targets::MODELS;
                if let Some(bad) = list.iter().find(|g| !models.iter().any(|m| m.name == g.as_str())) {
                    let known: Vec<&str> = models.iter().map(|m| m.name).collect();
                    bail!("--simulate: hsa-sim has no target '{bad}' (it simulates {})", known.join(", "));
                }
                Some(list)
            }
            None => None,
        };
        let log_level = match self.log_level {
            None => LogLevel::Warning,
            Some(LogLevelArg::Fatal) => LogLevel::Fatal,
            Some(LogLevelArg::Error) => LogLevel::Error,
            Some(LogLevelArg::Warning) => LogLevel::Warning,
            Some(LogLevelArg::Info) => LogLevel::Info,
            Some(LogLevelArg::Trace) => LogLevel::Trace,
            Some(LogLevelArg::Env) => LogLevel::Env,
            Some(LogLevelArg::Config) => LogLevel::Config,
        };
        // rocprofv3 refuses these without a tracing option (they would report nothing).
        let needs_tracing = [
            (self.stats == Some(true), "--stats"),
            (self.summary == Some(true), "--summary"),
            (self.summary_per_domain == Some(true), "--summary-per-domain"),
            (self.summary_output_file.is_some(), "--summary-output-file"),
            (self.summary_units.is_some(), "--summary-units"),
            (!self.summary_groups.is_empty(), "--summary-groups"),
        ]
        .into_iter()
        .find_map(|(given, opt)| given.then_some(opt));
        let compat = self.compat.into_options()?;
        let mut summary_groups = Vec::new();
        for g in self.summary_groups.iter().flat_map(|g| g.split_whitespace()) {
            if regex::Regex::new(g).is_err() {
                bail!("--summary-groups: invalid regular expression '{g}'");
            }
            summary_groups.push(g.to_string());
        }
        if self.app.is_empty() && !self.list_avail.unwrap_or(false) && self.from_capture.is_none() && !compat.echo {
            bail!("no application given; usage: rocprof-rs [options] -- <application> [arguments]");
        }
        let kernel_filter = self.kernel_filter.into_spec()?;
        let collection = self.collection.into_spec()?;
        let pmc = self.pmc.into_request()?;
        // As rocprofv3: --att and --pmc together trace and count the same dispatches; only ATT's own
        // streamed counters (they use the same SQ counter registers) conflict with --pmc.
        let att = self.att.into_options(pmc.is_some())?;
        let pc_sampling = self.pc_sampling.into_request(simulate.as_deref(), att.is_some())?;
        Ok(Config {
            pc_sampling,
            kernel_filter,
            att,
            collection,
            pmc,
            output_subdir: None,
            tracing: self.tracing.resolve(),
            needs_tracing,
            // rocprofv3's defaults for -d and -o.
            output_directory: self.output_directory.or_else(|| env_nonempty("ROCPROF_OUTPUT_PATH")),
            output_file: self.output_file.or_else(|| env_nonempty("ROCPROF_OUTPUT_FILE_NAME")),
            formats,
            stats: self.stats.unwrap_or(false),
            summary: self.summary.unwrap_or(false),
            summary_per_domain: self.summary_per_domain.unwrap_or(false),
            summary_groups,
            summary_unit: match self.summary_units {
                None | Some(UnitArg::Nsec) => SummaryUnit::Nsec,
                Some(UnitArg::Usec) => SummaryUnit::Usec,
                Some(UnitArg::Msec) => SummaryUnit::Msec,
                Some(UnitArg::Sec) => SummaryUnit::Sec,
            },
            agent_index: match self.agent_index {
                None | Some(AgentIndexArg::Relative) => AgentIndex::Relative,
                Some(AgentIndexArg::Absolute) => AgentIndex::Absolute,
                Some(AgentIndexArg::TypeRelative) => AgentIndex::TypeRelative,
            },
            truncate_kernels: self.truncate_kernels.unwrap_or(false),
            mangled_kernels: self.mangled_kernels.unwrap_or(false),
            summary_output: match self.summary_output_file.as_deref() {
                None => SummaryOutput::Stdout,
                Some(t) if t.eq_ignore_ascii_case("stdout") => SummaryOutput::Stdout,
                Some(t) if t.eq_ignore_ascii_case("stderr") => SummaryOutput::Stderr,
                Some("") => bail!("--summary-output-file needs a value (stdout, stderr or a file name)"),
                Some(t) => SummaryOutput::File(t.to_string()),
            },
            log_level,
            buffer_policy: self.buffer_policy.unwrap_or_default(),
            list_avail: self.list_avail.unwrap_or(false),
            from_capture: self.from_capture,
            compat,
            simulate,
            app: self.app,
            launch_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            launch_secs: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config> {
        let argv = std::iter::once("rocprof-rs").chain(args.iter().copied());
        Args::try_parse_from(argv).map_err(|e| anyhow::anyhow!("{e}"))?.into_config()
    }

    #[test]
    fn buffer_policy_defaults_to_lossless_and_refuses_unknown_names() {
        use rocprof_model::BufferPolicy;
        assert_eq!(parse(&["--", "app"]).unwrap().buffer_policy, BufferPolicy::Lossless);
        assert_eq!(parse(&["--buffer-policy", "drop", "--", "app"]).unwrap().buffer_policy, BufferPolicy::Drop);
        assert_eq!(parse(&["--buffer-policy=lossless", "--", "app"]).unwrap().buffer_policy, BufferPolicy::Lossless);
        let e = parse(&["--buffer-policy", "block", "--", "app"]).unwrap_err().to_string();
        assert!(e.contains("lossless or drop"), "{e}");
    }

    #[test]
    fn bool_options_accept_rocprofv3_words() {
        assert!(parse(&["--kernel-trace", "--", "app"]).unwrap().tracing.kernel);
        assert!(!parse(&["--kernel-trace=no", "--", "app"]).unwrap().tracing.kernel);
        assert!(!parse(&["--kernel-trace", "off", "--", "app"]).unwrap().tracing.kernel);
        assert!(parse(&["--kernel-trace=maybe", "--", "app"]).is_err());
    }

    #[test]
    fn formats_accept_several_values_and_reject_unknown_ones() {
        let c = parse(&["-f", "csv", "rocpd", "-d", "out", "--", "app"]).unwrap();
        assert_eq!(c.formats, [OutputFormat::Csv, OutputFormat::Rocpd]);
        assert_eq!(c.output_directory.as_deref(), Some("out"));
        assert_eq!(parse(&["-f", "CSV,rocpd", "--", "a"]).unwrap().formats, [OutputFormat::Csv, OutputFormat::Rocpd]);
        assert_eq!(parse(&["--", "a"]).unwrap().formats, [OutputFormat::Rocpd]);
        let e = parse(&["-f", "xml", "--", "a"]).unwrap_err().to_string();
        assert!(e.contains("unknown output format 'xml'"), "{e}");
        assert_eq!(e, "unknown output format 'xml' (supported: csv, json, otf2, pftrace, rocpd)");
        let c = parse(&["-f", "pftrace", "json", "--", "a"]).unwrap();
        assert_eq!(c.formats, [OutputFormat::Pftrace, OutputFormat::Json]);
    }

    #[test]
    fn simulate_takes_a_comma_list_of_targets() {
        let c = parse(&["--simulate", "gfx942,gfx1100", "--", "a"]).unwrap();
        assert_eq!(c.simulate.unwrap(), ["gfx942", "gfx1100"]);
        assert!(parse(&["--simulate", "942", "--", "a"]).is_err());
        let err = parse(&["--simulate", "gfx942,gfx999", "--", "a"]).unwrap_err().to_string();
        assert!(err.contains("hsa-sim has no target 'gfx999'") && err.contains("gfx1201"), "{err}");
    }

    #[test]
    fn kernel_filter_options_are_validated_before_launch() {
        let c =
            parse(&["--kernel-include-regex", "add", "--kernel-iteration-range", "[1,", "3-4]", "--", "a"]).unwrap();
        assert_eq!(c.kernel_filter.include.as_deref(), Some("add"));
        assert_eq!(c.kernel_filter.iterations, [(1, 1), (3, 4)]);
        let e = parse(&["--kernel-iteration-range", "4-2", "--", "a"]).unwrap_err().to_string();
        assert_eq!(
            e,
            "--kernel-iteration-range: bad range '4-2' (expected N or A-B with 1 <= A <= B, e.g. \"[1, 3-5]\")"
        );
        let e = parse(&["--kernel-exclude-regex", "a(", "--", "a"]).unwrap_err().to_string();
        assert!(e.starts_with("--kernel-exclude-regex: invalid regular expression 'a('"), "{e}");
    }

    /// AMD's `dotdict` (pytest_utils) turns every list element that is a list into a dict, which
    /// fails: `metadata.config` may hold scalars and lists of scalars only.
    fn assert_no_nested_list(v: &serde_json::Value, path: &str) {
        match v {
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    assert!(!x.is_array() && !x.is_object(), "{path}[{i}] is {x}");
                }
            }
            serde_json::Value::Object(m) => {
                m.iter().for_each(|(k, x)| assert_no_nested_list(x, &format!("{path}.{k}")))
            }
            _ => {}
        }
    }

    #[test]
    fn json_metadata_config_has_rocprofv3s_output_keys_and_no_nested_lists() {
        let c = parse(&[
            "--kernel-trace",
            "--pmc",
            "SQ_WAVES",
            "GRBM_COUNT",
            "--kernel-iteration-range",
            "[2-3]",
            "-S",
            "--summary-groups",
            "KERNEL_DISPATCH|MEMORY_COPY",
            ".*_API",
            "--summary-output-file",
            "summary",
            "-f",
            "json",
            "pftrace",
            "--",
            "a",
        ])
        .unwrap();
        let v = c.output_config_json();
        assert_no_nested_list(&v, "config");
        // summary/validate.py's expectations of `metadata.config`.
        assert_eq!(v["summary"], true);
        assert_eq!(v["summary_unit"], "nsec");
        assert_eq!(v["summary_file"], "summary");
        assert_eq!(v["summary_groups"], serde_json::json!(["KERNEL_DISPATCH|MEMORY_COPY", ".*_API"]));
        assert_eq!(
            (v["json_output"].clone(), v["pftrace_output"].clone(), v["csv_output"].clone()),
            (true.into(), true.into(), false.into())
        );
        // The full configuration keeps rocprofv3's counter groups as a list of name lists (its
        // std::set, sorted).
        assert_eq!(c.to_json()["counters"], serde_json::json!([["GRBM_COUNT", "SQ_WAVES"]]));
        assert_eq!(c.to_json()["kernel_filter_range"], serde_json::json!([2, 3]));
    }

    #[test]
    fn output_path_and_file_name_default_to_rocprofv3s_environment() {
        // One test touches these variables (tests run in threads of one process).
        std::env::set_var("ROCPROF_OUTPUT_PATH", "/from/env");
        std::env::set_var("ROCPROF_OUTPUT_FILE_NAME", "envprefix");
        let c = parse(&["--kernel-trace", "--", "a"]).unwrap();
        let d = parse(&["--kernel-trace", "-d", "cli", "-o", "p", "--", "a"]).unwrap();
        std::env::remove_var("ROCPROF_OUTPUT_PATH");
        std::env::remove_var("ROCPROF_OUTPUT_FILE_NAME");
        assert_eq!((c.output_directory.as_deref(), c.output_file.as_deref()), (Some("/from/env"), Some("envprefix")));
        assert_eq!((d.output_directory.as_deref(), d.output_file.as_deref()), (Some("cli"), Some("p")));
    }

    #[test]
    fn app_and_its_arguments_come_after_double_dash() {
        let c = parse(&["--kernel-trace", "--", "./app", "--kernel-trace", "7"]).unwrap();
        assert_eq!(c.app, ["./app", "--kernel-trace", "7"]);
        assert!(parse(&["--kernel-tr", "--", "a"]).is_err(), "no abbreviations");
    }
}
