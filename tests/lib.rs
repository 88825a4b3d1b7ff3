//! End-to-end tests: programs run under rocprof-rs with hsa-sim staged as libhsa-runtime64.so.1.
//!
//! This library holds the harness shared by the `e2e` test binary and the `rocprof-bench`
//! benchmark: finding the staged artifacts (`ROCPROF_RS_STAGE`, set by `cargo xtask test`),
//! running a fixture with or without the profiler, and reading what it wrote (CSV, rocpd, the
//! simulator's dispatch log). Without `ROCPROF_RS_STAGE` every test prints why it skips and
//! passes, so plain `cargo test` works; under `CI=true` such a test fails instead.

#![forbid(unsafe_code)]

use rocprof_launch::names;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicU32, Ordering};

/// The staged installation (`target/stage`).
#[derive(Debug, Clone)]
pub struct Stage {
    /// Its directory.
    pub dir: PathBuf,
}

/// The stage from `ROCPROF_RS_STAGE`, or `None` after printing why the caller skips (under
/// `CI=true` a missing stage fails the test instead: see `rocprof_test_inputs`).
#[track_caller]
pub fn stage(test: &str) -> Option<Stage> {
    rocprof_test_inputs::stage(test).map(|dir| Stage { dir })
}

impl Stage {
    /// The staged CLI.
    pub fn cli(&self) -> PathBuf {
        self.dir.join("rocprof-rs")
    }

    /// A staged fixture program, or `None` after printing why the caller skips (a failure under
    /// `CI=true`).
    #[track_caller]
    pub fn fixture(&self, name: &str, test: &str) -> Option<PathBuf> {
        rocprof_test_inputs::staged(test, &self.dir, &format!("fixtures/{name}"))
    }

    /// A staged HIP fixture (`fixtures/hip/`, built by `cargo xtask build` with Debian's `hipcc`),
    /// or `None` after printing why the caller skips: only where `hipcc` is not installed, and
    /// never under `CI=true` (CI installs it). With `hipcc` installed a missing program is a failure.
    #[track_caller]
    pub fn hip_fixture(&self, name: &str, test: &str) -> Option<PathBuf> {
        let p = self.dir.join("fixtures").join(name);
        if p.exists() {
            return Some(p);
        }
        rocprof_test_inputs::program(test, "hipcc", "hipcc libamdhip64-dev rocm-device-libs libhiprand-dev")?;
        panic!("{test}: HIP fixture {} is not staged although hipcc is installed; run `cargo xtask build`", p.display())
    }

    /// Environment that makes a program run on hsa-sim without the profiler.
    pub fn sim_env(&self, agents: &str) -> Vec<(String, String)> {
        vec![("LD_LIBRARY_PATH".into(), self.dir.display().to_string()), (names::SIM_AGENTS.into(), agents.into())]
    }
}

/// A fresh, empty scratch directory.
pub fn scratch(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "rocprof-e2e-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// Removes a scratch directory when dropped, unless the thread is panicking (a failing test
/// keeps its outputs for inspection; the failure message names the directory).
#[derive(Debug)]
pub struct ScratchGuard(pub PathBuf);

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// What a run produced.
#[derive(Debug)]
pub struct Run {
    /// Exit status.
    pub status: ExitStatus,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Both streams, for assertion messages.
    pub fn transcript(&self) -> String {
        format!("status: {:?}\n--- stdout\n{}\n--- stderr\n{}", self.status, self.stdout, self.stderr)
    }
}

/// A loaded machine, made by the caller itself (issue 26): more busy threads than cores (each
/// spins in its own process-wide share of CPU, as separate CPU-bound processes would) and a disk
/// writer that keeps writing and syncing 8 MiB blocks in `dir` (put it on the capture's
/// filesystem: extending the capture file then competes with the writer's syncs). Stops when
/// dropped.
pub struct Load {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
    dir: PathBuf,
}

impl Load {
    /// Starts `cores + extra` busy threads and the disk writer.
    pub fn start(extra: usize) -> Load {
        use std::sync::atomic::AtomicBool;
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let mut threads: Vec<std::thread::JoinHandle<()>> = (0..cores + extra)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        }
                        std::hint::black_box(x);
                    }
                })
            })
            .collect();
        let dir = scratch("load-disk-writer");
        let (file, flag) = (dir.join("blocks"), stop.clone());
        threads.push(std::thread::spawn(move || {
            use std::io::Write;
            let block = vec![0x5Au8; 8 << 20];
            while !flag.load(Ordering::Relaxed) {
                let Ok(mut f) = std::fs::File::create(&file) else { return };
                for _ in 0..16 {
                    if flag.load(Ordering::Relaxed) || f.write_all(&block).is_err() {
                        break;
                    }
                }
                let _ = f.sync_all();
            }
        }));
        Load { stop, threads, dir }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `program args` with extra environment variables.
pub fn run(program: &Path, args: &[&str], env: &[(String, String)]) -> Run {
    let out = Command::new(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", program.display()));
    Run {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs a prepared command to completion, capturing both streams.
pub fn run_command(mut cmd: Command) -> Run {
    let out = cmd.output().unwrap_or_else(|e| panic!("running {cmd:?}: {e}"));
    Run {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `rocprof-rs <cli_args> -- <app> <app_args>`.
pub fn profile(stage: &Stage, cli_args: &[&str], app: &Path, app_args: &[&str], env: &[(String, String)]) -> Run {
    let app = app.display().to_string();
    let mut args: Vec<&str> = cli_args.to_vec();
    args.push("--");
    args.push(&app);
    args.extend_from_slice(app_args);
    run(&stage.cli(), &args, env)
}

/// Files under `dir` (recursively) whose name ends with `suffix`, sorted.
pub fn find_files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The single file under `dir` ending with `suffix` (panics with the directory listing otherwise).
pub fn find_one(dir: &Path, suffix: &str) -> PathBuf {
    let found = find_files(dir, suffix);
    assert_eq!(
        found.len(),
        1,
        "expected one *{suffix} under {}, found {found:?} (all files: {:?})",
        dir.display(),
        find_files(dir, "")
    );
    found.into_iter().next().expect("one element")
}

/// A CSV file in rocprofv3's dialect (quoted strings without escapes), as header + rows.
#[derive(Debug, Clone)]
pub struct Csv {
    /// Column names.
    pub header: Vec<String>,
    /// Rows, by column name.
    pub rows: Vec<HashMap<String, String>>,
}

fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// Reads a CSV file.
pub fn read_csv(path: &Path) -> Csv {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let mut lines = text.lines();
    let header = split_csv_line(lines.next().unwrap_or(""));
    let rows =
        lines.filter(|l| !l.is_empty()).map(|l| header.iter().cloned().zip(split_csv_line(l)).collect()).collect();
    Csv { header, rows }
}

/// One kernel row of the rocpd `kernels` view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbKernel {
    /// Dispatch id.
    pub dispatch_id: u64,
    /// Kernel name.
    pub name: String,
    /// Queue id.
    pub queue_id: u64,
    /// Start, ns.
    pub start: u64,
    /// End, ns.
    pub end: u64,
    /// Grid size.
    pub grid: [u64; 3],
    /// Workgroup size.
    pub workgroup: [u64; 3],
}

/// The rows of the `kernels` view, by dispatch id.
pub fn db_kernels(db: &Path) -> Vec<DbKernel> {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|e| panic!("opening {}: {e}", db.display()));
    let mut stmt = conn
        .prepare(
            "SELECT dispatch_id, name, queue_id, start, end, grid_x, grid_y, grid_z, workgroup_x, workgroup_y, workgroup_z \
             FROM kernels ORDER BY dispatch_id",
        )
        .expect("the kernels view exists");
    let rows = stmt
        .query_map([], |r| {
            Ok(DbKernel {
                dispatch_id: r.get::<_, i64>(0)? as u64,
                name: r.get(1)?,
                queue_id: r.get::<_, i64>(2)? as u64,
                start: r.get::<_, i64>(3)? as u64,
                end: r.get::<_, i64>(4)? as u64,
                grid: [r.get::<_, i64>(5)? as u64, r.get::<_, i64>(6)? as u64, r.get::<_, i64>(7)? as u64],
                workgroup: [r.get::<_, i64>(8)? as u64, r.get::<_, i64>(9)? as u64, r.get::<_, i64>(10)? as u64],
            })
        })
        .expect("querying kernels");
    rows.map(|r| r.expect("a kernels row")).collect()
}

/// `(start, end)` of the profiled process from `rocpd_info_process` (the tool's load and exit
/// times, in the same clock as the kernel timestamps).
pub fn db_process_window(db: &Path) -> (u64, u64) {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|e| panic!("opening {}: {e}", db.display()));
    conn.query_row("SELECT start, end FROM rocpd_info_process", [], |r| {
        Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
    })
    .expect("one rocpd_info_process row")
}

/// One packet of the simulator's dispatch log (`queue=<id> index=<n> <128 hex chars>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedPacket {
    /// Queue id.
    pub queue: u64,
    /// Ring index.
    pub index: u64,
    /// The 64 bytes.
    pub bytes: [u8; 64],
}

impl LoggedPacket {
    /// AQL packet type (header bits 0-7).
    pub fn packet_type(&self) -> u8 {
        self.bytes[0]
    }

    /// Little-endian u64 at `off`.
    pub fn u64_at(&self, off: usize) -> u64 {
        u64::from_le_bytes(self.bytes[off..off + 8].try_into().expect("8 bytes"))
    }
}

/// Parses a dispatch log; lines that do not match the format are ignored.
pub fn read_dispatch_log(path: &Path) -> Vec<LoggedPacket> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .filter_map(|line| {
            let mut queue = None;
            let mut index = None;
            let mut hex = None;
            for tok in line.split_whitespace() {
                if let Some(v) = tok.strip_prefix("queue=") {
                    queue = v.parse().ok();
                } else if let Some(v) = tok.strip_prefix("index=") {
                    index = v.parse().ok();
                } else if tok.len() == 128 && tok.bytes().all(|b| b.is_ascii_hexdigit()) {
                    hex = Some(tok);
                }
            }
            let hex = hex?;
            let mut bytes = [0u8; 64];
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
            }
            Some(LoggedPacket { queue: queue?, index: index?, bytes })
        })
        .collect()
}

/// The 64-byte kernel descriptor of symbol `name` (e.g. `vector_add.kd`) in an AMDGPU code
/// object (ELF64): found through the symbol tables and the PT_LOAD segment that holds it.
pub fn kernel_descriptor(code_object: &Path, name: &str) -> Option<[u8; 64]> {
    let d = std::fs::read(code_object).ok()?;
    let u16_at = |o: usize| -> Option<u64> { Some(u16::from_le_bytes(d.get(o..o + 2)?.try_into().ok()?).into()) };
    let u32_at = |o: usize| -> Option<u64> { Some(u32::from_le_bytes(d.get(o..o + 4)?.try_into().ok()?).into()) };
    let u64_at = |o: usize| -> Option<u64> { Some(u64::from_le_bytes(d.get(o..o + 8)?.try_into().ok()?)) };
    if d.get(..4)? != b"\x7fELF" {
        return None;
    }
    let (shoff, shentsize, shnum) = (u64_at(0x28)? as usize, u16_at(0x3A)? as usize, u16_at(0x3C)? as usize);
    let mut value = None;
    for i in 0..shnum {
        let sh = shoff + i * shentsize;
        let sh_type = u32_at(sh + 4)?;
        if sh_type != 2 && sh_type != 11 {
            continue; // SHT_SYMTAB / SHT_DYNSYM only
        }
        let (off, size, link, entsize) = (
            u64_at(sh + 0x18)? as usize,
            u64_at(sh + 0x20)? as usize,
            u32_at(sh + 0x28)? as usize,
            u64_at(sh + 0x38)? as usize,
        );
        let strtab = u64_at(shoff + link * shentsize + 0x18)? as usize;
        for j in 0..size / entsize.max(1) {
            let sym = off + j * entsize;
            let name_off = strtab + u32_at(sym)? as usize;
            let end = d[name_off..].iter().position(|&b| b == 0)? + name_off;
            if &d[name_off..end] == name.as_bytes() {
                value = Some(u64_at(sym + 8)?);
            }
        }
    }
    let vaddr = value?;
    let (phoff, phentsize, phnum) = (u64_at(0x20)? as usize, u16_at(0x36)? as usize, u16_at(0x38)? as usize);
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        let (p_type, p_offset, p_vaddr, p_filesz) =
            (u32_at(ph)?, u64_at(ph + 8)?, u64_at(ph + 0x10)?, u64_at(ph + 0x20)?);
        if p_type == 1 && vaddr >= p_vaddr && vaddr + 64 <= p_vaddr + p_filesz {
            let o = (p_offset + vaddr - p_vaddr) as usize;
            return d.get(o..o + 64)?.try_into().ok();
        }
    }
    None
}

/// Simulated GPU targets (`../shared/reference/sim-agents.md`), from the device model's one list.
pub static TARGETS: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| rocprof_device::targets::names().collect());

/// The value of `run_health.<key>` in a rocpd database's metadata (`lost.kernel_table_full`,
/// `records_written`, `clean_exit`, ...), or None when the row is absent.
pub fn db_health(db: &Path, key: &str) -> Option<String> {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|e| panic!("opening {}: {e}", db.display()));
    conn.query_row("SELECT value FROM rocpd_metadata WHERE tag = ?1", [format!("run_health.{key}")], |r| {
        r.get::<_, String>(0)
    })
    .ok()
}

/// The profiled process's pid from a rocpd database.
pub fn db_pid(db: &Path) -> u64 {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|e| panic!("opening {}: {e}", db.display()));
    conn.query_row("SELECT pid FROM rocpd_info_process", [], |r| r.get::<_, i64>(0))
        .unwrap_or_else(|e| panic!("pid of {}: {e}", db.display())) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_split_on_unquoted_commas_only() {
        assert_eq!(
            split_csv_line(r#""KERNEL_DISPATCH","k(int, float)",3,"""#),
            ["KERNEL_DISPATCH", "k(int, float)", "3", ""]
        );
    }

    #[test]
    fn kernel_descriptors_are_found_in_committed_code_objects() {
        let co = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/kernels/vector_add-gfx942.co");
        let kd = kernel_descriptor(&co, "vector_add.kd").expect("vector_add.kd in the gfx942 code object");
        let entry = i64::from_le_bytes(kd[16..24].try_into().unwrap());
        assert!(entry > 0, "the code follows the descriptor: entry offset {entry:#x}");
        let rsrc3 = u32::from_le_bytes(kd[44..48].try_into().unwrap());
        assert_eq!(rsrc3 & 0x3F, 1, "gfx942 vector_add uses 8 architected VGPRs (ACCUM_OFFSET 1)");
        assert_eq!(kernel_descriptor(&co, "no_such_kernel.kd"), None);
        assert_eq!(kernel_descriptor(Path::new("/nonexistent.co"), "vector_add.kd"), None);
    }

    #[test]
    fn dispatch_log_lines_parse() {
        let dir = scratch("log");
        let p = dir.join("log.txt");
        let hex: String = (0..64).map(|i| format!("{:02x}", i)).collect();
        std::fs::write(&p, format!("queue=3 index=7 {hex}\nnoise\n")).unwrap();
        let log = read_dispatch_log(&p);
        assert_eq!(log.len(), 1);
        assert_eq!((log[0].queue, log[0].index, log[0].packet_type()), (3, 7, 0));
        assert_eq!(log[0].u64_at(56), u64::from_le_bytes([56, 57, 58, 59, 60, 61, 62, 63]));
    }
}
