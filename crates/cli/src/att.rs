//! Thread-trace post-processing for the CLI: decode every capture under a directory (after an
//! `--att` run, or for `rocprof-rs att-decode DIR`), write rocprofv3's ui_output directories and
//! stats CSVs, and render the hotspot report. Decoding runs on every core, with a progress bar on
//! a terminal; one bad capture does not stop the others.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use rocprof_att::report::{self, SeLoss, Summary};
use rocprof_att::{decode_captures, ui, Backend, Decoded, Listing};
use rocprof_sqtt_amd::llvm::LlvmDisassembler;

/// The capture directory of the run, whose `att/<pid>/` holds each process's thread traces until
/// [`after_run`] moves them next to the outputs.
static CAPTURE_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Records the run's capture directory (see [`files_of`]).
pub(crate) fn set_capture_dir(dir: &Path) {
    let _ = CAPTURE_DIR.set(dir.to_path_buf());
}

/// A process's thread-trace files under the names [`after_run`] gives them next to its outputs.
#[derive(Debug, Clone, Default)]
pub(crate) struct AttFiles {
    /// `*_shader_engine_<se>_<dispatch>.att`, sorted.
    pub(crate) traces: Vec<String>,
    /// `<gfx>_code_object_id_<id>.out` by code object id.
    pub(crate) code_objects: std::collections::BTreeMap<u64, String>,
}

/// The thread-trace files of process `pid` as they will be named under `out`.
pub(crate) fn files_of(pid: u32, out: &rocprof_writers::OutputLocation) -> AttFiles {
    let mut files = AttFiles::default();
    let Some(root) = CAPTURE_DIR.get() else { return files };
    let Ok(entries) = std::fs::read_dir(root.join("att").join(pid.to_string())) else { return files };
    let mut names: Vec<String> = entries.flatten().filter_map(|e| e.file_name().into_string().ok()).collect();
    names.sort();
    for name in names {
        let dest = out.file(&name);
        let Some(file) = dest.file_name().map(|f| f.to_string_lossy().into_owned()) else { continue };
        if name.ends_with(".att") {
            files.traces.push(file);
        } else if let Some(id) = name
            .strip_suffix(".out")
            .and_then(|stem| stem.rsplit_once("_code_object_id_"))
            .and_then(|(_, id)| id.parse::<u64>().ok())
        {
            files.code_objects.insert(id, file);
        }
    }
    files
}

/// What to decode and how.
pub(crate) struct Request<'a> {
    /// Directory searched for captures.
    pub(crate) input: &'a Path,
    /// Outputs go to the same relative places under this directory.
    pub(crate) output: &'a Path,
    pub(crate) backend: &'a Backend,
    /// Streamed SQ counter names (gfx9), for filenames.json.
    pub(crate) counter_names: Vec<String>,
    /// Rows per hotspot ranking.
    pub(crate) top: usize,
    /// Loss known from the capture, by (agent, dispatch) as the file names spell them.
    pub(crate) loss: HashMap<(String, u64), Vec<SeLoss>>,
    /// Print the files written.
    pub(crate) verbose: bool,
    /// Only captures with these `-o` prefixes (`None`: all found).
    pub(crate) prefixes: Option<Vec<String>>,
}

/// What came out.
pub(crate) struct Outcome {
    pub(crate) written: Vec<ui::Written>,
    pub(crate) summaries: Vec<Summary>,
    pub(crate) errors: Vec<rocprof_att::Error>,
}

impl Outcome {
    /// The hotspot report.
    pub(crate) fn report(&self) -> String {
        report::render(&self.summaries)
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// LLVM's AMDGPU disassembler for the capture's target (one per thread and target), when an LLVM
/// that knows it is installed; the listing falls back to mnemonic-level text otherwise.
fn text_for<'a>(cache: &'a mut HashMap<String, Option<LlvmDisassembler>>, d: &Decoded) -> Option<&'a LlvmDisassembler> {
    let cpu = d.capture.target.clone().unwrap_or_else(|| {
        match d.family {
            rocprof_sqtt::Family::Gfx9 => "gfx942",
            rocprof_sqtt::Family::Gfx11 => "gfx1100",
            rocprof_sqtt::Family::Gfx12 => "gfx1201",
        }
        .to_string()
    });
    cache.entry(cpu.clone()).or_insert_with(|| LlvmDisassembler::load(&cpu).ok()).as_ref()
}

/// Decodes everything under `req.input` and writes the outputs.
pub(crate) fn decode_dir(req: &Request<'_>) -> Result<Outcome> {
    let mut captures = rocprof_att::discover(req.input)?;
    if let Some(p) = &req.prefixes {
        captures.retain(|c| p.contains(&c.prefix));
    }
    let streams: u64 = captures.iter().map(|c| c.streams.len() as u64).sum();
    let bar = crate::progress::bar(streams, "decoding thread traces (streams)");
    let decoded = decode_captures(captures, req.backend, threads(), &|| bar.inc(1));
    bar.finish_and_clear();

    let mut errors = Vec::new();
    let ok: Vec<Decoded> = decoded
        .into_iter()
        .filter_map(|r| match r {
            Ok(d) => Some(d),
            Err(e) => {
                errors.push(e);
                None
            }
        })
        .collect();
    let opts = ui::UiOptions { counter_names: req.counter_names.clone() };
    // Listing and writing per dispatch, in parallel; LLVM contexts are per thread.
    let next = std::sync::atomic::AtomicUsize::new(0);
    type Done = (usize, std::result::Result<(ui::Written, Summary), rocprof_att::Error>);
    let results: std::sync::Mutex<Vec<Done>> = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads().min(ok.len()).max(1) {
            s.spawn(|| {
                let mut llvm: HashMap<String, Option<LlvmDisassembler>> = HashMap::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(d) = ok.get(i) else { break };
                    let dis = text_for(&mut llvm, d);
                    let mut text = |pc: u64, bytes: &[u8]| dis.and_then(|l| l.text(bytes, pc)).map(|(t, _)| t);
                    let listing = Listing::build(d, &mut text);
                    let rel = d.capture.dir.strip_prefix(req.input).unwrap_or(Path::new(""));
                    let out = req.output.join(rel);
                    let loss =
                        req.loss.get(&(d.capture.agent.clone(), d.capture.dispatch)).map(Vec::as_slice).unwrap_or(&[]);
                    let r =
                        ui::write(d, &listing, &out, &opts).map(|w| (w, report::summarize(d, &listing, req.top, loss)));
                    results.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut outcome = Outcome { written: Vec::new(), summaries: Vec::new(), errors };
    for (_, r) in results {
        match r {
            Ok((w, s)) => {
                if req.verbose {
                    eprintln!(
                        "rocprof-rs: wrote {} ({} wave files) and {}",
                        w.dir.display(),
                        w.wave_files,
                        w.stats.display()
                    );
                }
                outcome.written.push(w);
                outcome.summaries.push(s);
            }
            Err(e) => outcome.errors.push(e),
        }
    }
    Ok(outcome)
}

/// After an `--att` run: moves the raw `.att` / `.out` files the interception library wrote into
/// `<capture dir>/att/<pid>/` to rocprofv3's places (`<output dir>/<prefix>_<name>`), reports
/// trace-buffer loss on stderr, decodes everything into `ui_output_*` directories and stats CSVs
/// in the output directory, and prints the hotspot report. Returns false when a capture could not
/// be decoded (each is named on stderr).
pub(crate) fn after_run(cfg: &crate::config::Config, capture_dir: &Path) -> Result<bool> {
    use crate::placeholders::{expand, Context};
    let Some(att) = &cfg.att else { return Ok(true) };
    let root = capture_dir.join("att");
    let Ok(entries) = std::fs::read_dir(&root) else {
        eprintln!("rocprof-rs: warning: --att: the application traced no dispatch (no GPU kernel ran)");
        return Ok(true);
    };
    let argv: Vec<String> = cfg.app.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let mut ok = true;
    let mut any = false;
    let mut unsupported = false;
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let ctx = Context::new(pid, 0, argv.clone(), cfg.launch_dir.display().to_string(), 1, cfg.launch_secs);
        let dir = expand(&cfg.output_directory_template(), &ctx);
        let dir = if Path::new(&dir).is_absolute() { PathBuf::from(dir) } else { cfg.launch_dir.join(dir) };
        let out = rocprof_writers::OutputLocation::new(&dir, expand(&cfg.output_file_template(), &ctx));
        let mut loss: HashMap<(String, u64), Vec<SeLoss>> = HashMap::new();
        let mut input: Option<PathBuf> = None;
        let mut traces = false;
        let mut files: Vec<PathBuf> = std::fs::read_dir(e.path())?.flatten().map(|f| f.path()).collect();
        files.sort();
        for f in files {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            if name == "loss.tsv" {
                for line in std::fs::read_to_string(&f).unwrap_or_default().lines() {
                    let cols: Vec<&str> = line.split('\t').collect();
                    match cols.as_slice() {
                        ["unsupported", gfx] => {
                            eprintln!(
                                "rocprof-rs: warning: --att: thread trace is not supported on {gfx} (gfx9, gfx11 and gfx12 are); its dispatches were not traced"
                            );
                            unsupported = true;
                        }
                        ["unserialized", n] => eprintln!(
                            "rocprof-rs: warning: --att-serialize-all: {n} dispatches ran unserialised (more than 1023 dispatches of one GPU were in flight, or signals could not be created)"
                        ),
                        ["busy", n] => eprintln!(
                            "rocprof-rs: warning: thread trace: {n} selected dispatches were not traced (a trace was already running on their GPU)"
                        ),
                        [agent, dispatch, se, bytes] => {
                            let (Ok(d), Ok(se), Ok(b)) = (dispatch.parse(), se.parse(), bytes.parse()) else { continue };
                            loss.entry((agent.to_string(), d)).or_default().push(SeLoss { se, bytes_lost: b, waves_lost: 0 });
                        }
                        _ => {}
                    }
                }
                continue;
            }
            let dest = out.file(&name);
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent)?;
                input.get_or_insert_with(|| parent.to_path_buf());
            }
            if std::fs::rename(&f, &dest).is_err() {
                std::fs::copy(&f, &dest)?;
            }
            traces |= name.ends_with(".att");
        }
        any |= traces;
        // Code objects alone (no dispatch traced in this process) are kept but not decoded.
        let Some(input) = input.filter(|_| traces) else { continue };
        let prefix = Path::new(out.prefix()).file_name().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        let backend = att.decoder.load()?;
        let outcome = decode_dir(&Request {
            input: &input,
            output: &dir,
            backend: &backend,
            counter_names: att.counter_names(),
            top: 10,
            loss,
            verbose: cfg.log_level.shows_info(),
            prefixes: Some(vec![prefix]),
        })?;
        for s in &outcome.summaries {
            for l in &s.capture_loss {
                eprintln!(
                    "rocprof-rs: warning: thread trace of {}: the trace buffer of shader engine {} was full: {} bytes and {} waves lost (raise --att-buffer-size)",
                    s.label, l.se, l.bytes_lost, l.waves_lost
                );
            }
        }
        crate::console::to_console(std::io::stdout().lock(), &outcome.report())?;
        for e in &outcome.errors {
            eprintln!("rocprof-rs: error: {e}");
            ok = false;
        }
    }
    if !any && !unsupported {
        eprintln!("rocprof-rs: warning: --att: no dispatch was traced (did the kernel filter select any kernel?)");
    }
    Ok(ok)
}
