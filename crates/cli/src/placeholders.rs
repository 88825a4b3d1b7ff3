//! rocprofv3's path placeholders (`%hostname%`, `%pid%`, `{pid}`, `%env{NAME}%`, ...), expanded
//! in `-d` and `-o` once the profiled process is known.
//!
//! rocprofv3 expands them inside the profiled process; we expand them in the CLI after the run
//! from the capture's header (pid, ppid, command line), which gives the same values. `%psize%`
//! (children of the parent) becomes the number of processes rocprof-rs captured in the run.
//! Dates are formatted in UTC (no time-zone database without libc).

/// The values placeholders expand to, for one profiled process.
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    pub(crate) hostname: String,
    pub(crate) pid: u32,
    pub(crate) ppid: u32,
    pub(crate) pgid: u32,
    pub(crate) psid: u32,
    pub(crate) psize: usize,
    pub(crate) cwd: String,
    /// Launch time, seconds since the Unix epoch.
    pub(crate) launch_secs: u64,
    /// The profiled command line, argv[0] first.
    pub(crate) argv: Vec<String>,
}

impl Context {
    /// A context for the current machine and the launch at `launch_secs` (seconds since the
    /// Unix epoch), for process `pid` / `ppid` running `argv`.
    pub(crate) fn new(pid: u32, ppid: u32, argv: Vec<String>, cwd: String, psize: usize, launch_secs: u64) -> Self {
        let (pgid, psid) = own_pgid_sid();
        Self { hostname: rocprof_writers::hostname(), pid, ppid, pgid, psid, psize, cwd, launch_secs, argv }
    }
}

/// Process group and session of this process (the application inherits both): fields 5 and 6
/// of `/proc/self/stat`, after the parenthesised command name.
fn own_pgid_sid() -> (u32, u32) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(") ").map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let get = |i: usize| fields.get(i).and_then(|f| f.parse().ok()).unwrap_or(0);
    (get(2), get(3))
}

fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// MPI rank / size from the usual launcher variables (later names win, as rocprofv3 does).
fn mpi_value(names: &[&str]) -> Option<String> {
    names.iter().rev().find_map(|n| env_nonempty(n))
}

/// rocprofv3's rank variables, generic to specific, plus MPICH's (Hydra's) `PMI_RANK` before
/// Open MPI's: Hydra also sets the node-local `MPI_LOCALRANKID`, which must not win.
const RANK_VARS: &[&str] =
    &["MPI_RANK", "MPI_LOCALRANKID", "MPI_RANKID", "MV2_COMM_WORLD_RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK"];
/// The matching size variables.
const SIZE_VARS: &[&str] =
    &["MPI_SIZE", "MPI_LOCALNRANKS", "MPI_NRANKS", "MV2_COMM_WORLD_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"];

/// `%rank%`: Slurm's `SLURM_PROCID` first (as rocprofv3), then the MPI launchers' variables.
fn rank() -> String {
    env_nonempty("SLURM_PROCID").or_else(|| mpi_value(RANK_VARS)).unwrap_or_else(|| "0".into())
}

/// `%size%`: the MPI launchers' variables, else Slurm's task count under `srun` (rocprofv3 has no
/// Slurm fallback and prints 1 there, next to a real `%rank%`).
fn size() -> String {
    mpi_value(SIZE_VARS)
        .or_else(|| env_nonempty("SLURM_PROCID").and_then(|_| env_nonempty("SLURM_NTASKS")))
        .unwrap_or_else(|| "1".into())
}

/// One argument as the argv-derived keys use it: trimmed, `/` -> `_`, leading `.`/`_` removed.
fn clean_arg(a: &str) -> String {
    a.trim().replace('/', "_").trim_start_matches(['.', '_']).to_string()
}

/// Minimal `strftime` over UTC for the conversions date formats use.
fn strftime(fmt: &str, secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let tod = secs % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let (hh, mm, ss) = (tod / 3600, tod / 60 % 60, tod % 60);
    let mut out = String::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('F') => out.push_str(&format!("{y:04}-{m:02}-{d:02}")),
            Some('Y') => out.push_str(&format!("{y:04}")),
            Some('m') => out.push_str(&format!("{m:02}")),
            Some('d') => out.push_str(&format!("{d:02}")),
            Some('H') => out.push_str(&format!("{hh:02}")),
            Some('M') => out.push_str(&format!("{mm:02}")),
            Some('S') => out.push_str(&format!("{ss:02}")),
            Some('T') => out.push_str(&format!("{hh:02}:{mm:02}:{ss:02}")),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// Replaces `%NAME{X}` style env references: `%env{X}%`, `$env{X}`, `$ENV{X}`, `%q{X}`.
fn expand_env(s: &str) -> String {
    let mut out = s.to_string();
    for (open, close) in [("%env{", "}%"), ("$env{", "}"), ("$ENV{", "}"), ("%q{", "}")] {
        // Scanning resumes after each inserted value: a value that itself contains a reference
        // (`X='%env{X}%'`) is left for the next round of `expand`, which is bounded, instead of
        // being expanded here forever.
        let mut from = 0;
        while let Some(start) = out[from..].find(open).map(|p| p + from) {
            let name_start = start + open.len();
            let Some(len) = out[name_start..].find(close) else { break };
            let name = &out[name_start..name_start + len];
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') {
                break;
            }
            let value = std::env::var(name).unwrap_or_default();
            let value = value.trim_start_matches(['\t', ' ', '/']).replace(['/', ' ', '\t'], "_");
            out.replace_range(start..name_start + len + close.len(), &value);
            from = start + value.len();
        }
    }
    out
}

/// Removes `%argN%` / `{argN}` for N beyond the command line, with any `-`, `/`, `_` after it.
fn expand_args(s: &str, argv: &[String]) -> String {
    let mut out = s.to_string();
    for (open, close) in [("%arg", "%"), ("{arg", "}")] {
        let mut from = 0;
        while let Some(pos) = out[from..].find(open).map(|p| p + from) {
            let digits_start = pos + open.len();
            let digits: String = out[digits_start..].chars().take_while(char::is_ascii_digit).collect();
            let end = digits_start + digits.len();
            if digits.is_empty() || !out[end..].starts_with(close) {
                from = pos + 1;
                continue;
            }
            let n: usize = digits.parse().unwrap_or(usize::MAX);
            let mut stop = end + close.len();
            let value = match argv.get(n) {
                Some(a) => clean_arg(a),
                None => {
                    while out[stop..].starts_with(['-', '/', '_']) {
                        stop += 1;
                    }
                    String::new()
                }
            };
            out.replace_range(pos..stop, &value);
            from = pos + value.len();
        }
    }
    out
}

/// Expands every placeholder in `template`, repeating until nothing changes.
pub(crate) fn expand(template: &str, ctx: &Context) -> String {
    let args: Vec<String> = ctx.argv.iter().skip(1).filter(|a| a.as_str() != "--").map(|a| clean_arg(a)).collect();
    let argv0 = ctx.argv.first().map(|a| clean_arg(a)).unwrap_or_default();
    let tag = ctx.argv.first().map(|a| a.rsplit('/').next().unwrap_or(a).to_string()).unwrap_or_default();
    let argv_all = std::iter::once(argv0).chain(args.iter().cloned()).collect::<Vec<_>>().join("_");
    let argt = std::iter::once(clean_arg(&tag)).chain(args.iter().cloned()).collect::<Vec<_>>().join("_");
    let date_fmt = std::env::var("ROCPROF_DATE_FORMAT").unwrap_or_else(|_| "%F".into());
    let time_fmt = std::env::var("ROCPROF_TIME_FORMAT").unwrap_or_else(|_| "%F_%H.%M".into());
    let job = env_nonempty("SLURM_JOB_ID").unwrap_or_else(|| "0".into());
    let rank = rank();
    let size = size();
    let long: Vec<(&str, String)> = vec![
        ("hostname", ctx.hostname.clone()),
        ("pid", ctx.pid.to_string()),
        ("ppid", ctx.ppid.to_string()),
        ("pgid", ctx.pgid.to_string()),
        ("psid", ctx.psid.to_string()),
        ("psize", ctx.psize.to_string()),
        ("job", job.clone()),
        ("rank", rank.clone()),
        ("size", size.clone()),
        ("nid", rank.clone()),
        ("cwd", ctx.cwd.clone()),
        ("launch_date", strftime(&date_fmt, ctx.launch_secs)),
        ("launch_time", strftime(&time_fmt, ctx.launch_secs)),
        ("argv", argv_all),
        ("argt", argt),
        ("args", args.join("_")),
        ("tag", tag),
    ];
    let short = [("%h", ctx.hostname.clone()), ("%p", ctx.pid.to_string()), ("%j", job), ("%r", rank), ("%s", size)];
    let mut current = template.to_string();
    for _ in 0..16 {
        let mut next = expand_env(&current);
        next = expand_args(&next, &ctx.argv);
        for (key, value) in &long {
            next = next.replace(&format!("%{key}%"), value).replace(&format!("{{{key}}}"), value);
        }
        for (key, value) in &short {
            next = replace_short(&next, key, value);
        }
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// Replaces a short form like `%p` unless it starts a longer `%name%` placeholder.
fn replace_short(s: &str, key: &str, value: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find(key) {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + key.len()..];
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(key);
        } else {
            out.push_str(value);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Context {
        Context {
            hostname: "node7".into(),
            pid: 1234,
            ppid: 99,
            pgid: 1200,
            psid: 1100,
            psize: 1,
            cwd: "/work".into(),
            launch_secs: 1_700_000_000, // 2023-11-14 22:13:20 UTC
            argv: vec!["./bin/vector_add".into(), "64".into(), "--fast".into()],
        }
    }

    #[test]
    fn default_prefix_expands_hostname_and_pid() {
        assert_eq!(expand("%hostname%/%pid%", &ctx()), "node7/1234");
        assert_eq!(expand("{hostname}-{pid}-{ppid}", &ctx()), "node7-1234-99");
        assert_eq!(expand("%h.%p", &ctx()), "node7.1234");
        assert_eq!(expand("run_%pgid%_%psid%_%psize%", &ctx()), "run_1200_1100_1");
    }

    #[test]
    fn argv_keys_follow_rocprofv3() {
        assert_eq!(expand("%tag%", &ctx()), "vector_add");
        assert_eq!(expand("%args%", &ctx()), "64_--fast");
        assert_eq!(expand("%argv%", &ctx()), "bin_vector_add_64_--fast");
        assert_eq!(expand("%argt%", &ctx()), "vector_add_64_--fast");
        assert_eq!(expand("a_%arg1%_b", &ctx()), "a_64_b");
        assert_eq!(expand("a_%arg9%_b", &ctx()), "a_b");
        assert_eq!(expand("x/{arg0}", &ctx()), "x/bin_vector_add");
    }

    #[test]
    fn dates_env_and_mpi_defaults() {
        assert_eq!(expand("%launch_date%", &ctx()), "2023-11-14");
        assert_eq!(strftime("%F_%H.%M", 1_700_000_000), "2023-11-14_22.13");
        assert_eq!(strftime("%T", 59), "00:00:59");
        assert_eq!(expand("%cwd%", &ctx()), "/work");
        std::env::set_var("RPRS_PLACEHOLDER_TEST_VAR", " /a/b c");
        assert_eq!(expand("%env{RPRS_PLACEHOLDER_TEST_VAR}%", &ctx()), "a_b_c");
        assert_eq!(expand("$ENV{RPRS_PLACEHOLDER_TEST_VAR}", &ctx()), "a_b_c");
        assert_eq!(expand("%q{RPRS_PLACEHOLDER_TEST_UNSET}x", &ctx()), "x");
        assert_eq!(expand("plain/path", &ctx()), "plain/path");
        assert_eq!(expand("100%", &ctx()), "100%");
    }

    #[test]
    fn a_self_referencing_env_placeholder_terminates() {
        // Regression: `X='%env{X}%'` made the expansion loop forever (rocprof-rs hung after
        // the run, before writing anything).
        std::env::set_var("RPRS_PLACEHOLDER_TEST_SELF_REF", "%env{RPRS_PLACEHOLDER_TEST_SELF_REF}%");
        assert_eq!(
            expand("a_%env{RPRS_PLACEHOLDER_TEST_SELF_REF}%", &ctx()),
            "a_%env{RPRS_PLACEHOLDER_TEST_SELF_REF}%"
        );
    }
}
