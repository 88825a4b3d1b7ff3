//! Shared helpers: finding the stage and the repository, running a staged program against
//! hsa-sim with a timeout and a clean environment, and parsing what the programs print.

use rocprof_launch::names as launch;
use std::collections::BTreeMap;
use std::env;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Targets the fixtures are built for (`fixtures/kernels/README.md`) and hsa-sim can present: the
/// device model's one list.
pub(crate) static TARGETS: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| rocprof_device::targets::names().collect());

/// Kernels of `fixtures/kernels/`.
pub(crate) const KERNELS: &[&str] = &["vector_add", "saxpy", "fill", "block_sum"];

/// The workspace root (two levels above this crate's manifest).
pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/sim-hsa lives two levels below the root")
        .to_path_buf()
}

/// The stage directory from `ROCPROF_RS_STAGE`, or `None` after printing why the test skips
/// (under `CI=true` the test fails instead, see `rocprof_test_inputs`). A stage without the
/// simulator or the fixtures is an error, not a skip: `cargo xtask test` promised to build them.
#[track_caller]
pub(crate) fn stage(test: &str) -> Option<PathBuf> {
    let dir = rocprof_test_inputs::stage(test)?;
    let lib = dir.join("libhsa-runtime64.so.1");
    assert!(lib.is_file(), "{test}: {} is missing: the stage has no hsa-sim (run `cargo xtask build`)", lib.display());
    let vector_add = dir.join("fixtures").join("vector_add");
    assert!(
        vector_add.is_file(),
        "{test}: {} is missing: the C fixtures were not built (needs gcc and libhsa-runtime-dev; run `cargo xtask setup` as root)",
        vector_add.display()
    );
    Some(dir)
}

/// What a finished program did.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) what: String,
}

impl Run {
    /// Panics with the full output unless the program exited 0.
    pub(crate) fn assert_ok(&self) -> &Self {
        assert!(
            self.status.success(),
            "{} failed with {}\n--- stdout\n{}\n--- stderr\n{}",
            self.what,
            self.status,
            self.stdout,
            self.stderr
        );
        self
    }

    /// The counts of the `api-calls:` line the fixture programs print last.
    pub(crate) fn api_calls(&self) -> BTreeMap<String, u64> {
        let line = self
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("api-calls:"))
            .unwrap_or_else(|| panic!("{}: no api-calls line in\n{}", self.what, self.stdout));
        parse_pairs(line.split_whitespace())
    }
}

/// `key=value` words into a map of numbers (non-numbers are skipped).
pub(crate) fn parse_pairs<'a>(words: impl Iterator<Item = &'a str>) -> BTreeMap<String, u64> {
    words.filter_map(|w| w.split_once('=')).filter_map(|(k, v)| Some((k.to_owned(), v.parse().ok()?))).collect()
}

/// A command for a staged fixture program, with the simulator on LD_LIBRARY_PATH, the given
/// agents, and nothing inherited that could change the runtime's behaviour.
pub(crate) fn fixture(stage: &Path, program: &str, agents: Option<&str>) -> Command {
    let mut cmd = Command::new(stage.join("fixtures").join(program));
    sim_env(&mut cmd, stage, agents);
    cmd
}

/// Applies the hsa-sim environment to any command.
pub(crate) fn sim_env(cmd: &mut Command, stage: &Path, agents: Option<&str>) {
    for var in [
        "HSA_TOOLS_LIB",
        "LD_PRELOAD",
        launch::SIM_ABI,
        launch::SIM_AGENTS,
        launch::SIM_DISPATCH_LOG,
        "COUNT_TOOL_INTERCEPT",
        "COUNT_TOOL_OUTPUT",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("LD_LIBRARY_PATH", stage);
    if let Some(agents) = agents {
        cmd.env(launch::SIM_AGENTS, agents);
    }
}

/// Runs a command to completion, killing it after `timeout`.
pub(crate) fn run(mut cmd: Command, timeout: Duration) -> Run {
    let what = format!("{cmd:?}");
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let out_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let status = child.wait().expect("waiting for the killed child");
            let stdout = out_reader.join().unwrap_or_default();
            let stderr = err_reader.join().unwrap_or_default();
            panic!("{what} did not finish within {timeout:?} ({status})\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
        }
        thread::sleep(Duration::from_millis(5));
    };
    Run { status, stdout: out_reader.join().unwrap_or_default(), stderr: err_reader.join().unwrap_or_default(), what }
}

/// A fresh, empty temporary directory for one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = env::temp_dir().join(format!("rocprof-sim-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a temporary directory");
    dir
}

/// One line of the simulator's dispatch log: `queue=<id> index=<n> <128 hex chars>`.
#[derive(Debug, Clone)]
pub(crate) struct LoggedPacket {
    pub(crate) queue: u64,
    pub(crate) index: u64,
    pub(crate) bytes: [u8; 64],
}

impl LoggedPacket {
    pub(crate) fn header(&self) -> u16 {
        u16::from_le_bytes([self.bytes[0], self.bytes[1]])
    }
    pub(crate) fn packet_type(&self) -> u8 {
        self.bytes[0]
    }
    pub(crate) fn u16_at(&self, offset: usize) -> u16 {
        u16::from_le_bytes(self.bytes[offset..offset + 2].try_into().expect("two bytes"))
    }
    pub(crate) fn u32_at(&self, offset: usize) -> u32 {
        u32::from_le_bytes(self.bytes[offset..offset + 4].try_into().expect("four bytes"))
    }
    pub(crate) fn u64_at(&self, offset: usize) -> u64 {
        u64::from_le_bytes(self.bytes[offset..offset + 8].try_into().expect("eight bytes"))
    }
}

/// Parses a dispatch log; panics with the offending line if it is not in the documented format.
pub(crate) fn read_dispatch_log(path: &Path) -> Vec<LoggedPacket> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading dispatch log {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(parse_log_line).collect()
}

fn parse_log_line(line: &str) -> LoggedPacket {
    let bad = || -> ! { panic!("dispatch log line not `queue=<id> index=<n> <128 hex>`: {line:?}") };
    let mut words = line.split_whitespace();
    let queue: u64 =
        words.next().and_then(|w| w.strip_prefix("queue=")).and_then(|v| v.parse().ok()).unwrap_or_else(|| bad());
    let index: u64 =
        words.next().and_then(|w| w.strip_prefix("index=")).and_then(|v| v.parse().ok()).unwrap_or_else(|| bad());
    let hex = words.next().unwrap_or_else(|| bad());
    if hex.len() != 128 || !hex.is_ascii() {
        bad();
    }
    let mut bytes = [0u8; 64];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or_else(|_| bad());
    }
    LoggedPacket { queue, index, bytes }
}

/// The hex number after `label` in `text` (e.g. `object 0x7f...`).
pub(crate) fn hex_after(text: &str, label: &str) -> Option<u64> {
    let rest = &text[text.find(label)? + label.len()..];
    let rest = rest.trim_start().strip_prefix("0x")?;
    let end = rest.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(rest.len());
    u64::from_str_radix(&rest[..end], 16).ok()
}
