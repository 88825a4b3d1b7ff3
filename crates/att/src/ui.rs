//! rocprofv3's thread-trace outputs for AMD's ROCprof Compute Viewer (RCV): the
//! `ui_output_agent_<agent>_dispatch_<dispatch>/` directory and the `stats_<dir>.csv` beside it.
//! File names, keys and row layouts follow `shared/reference/att-ui-output.md` (rocprofv3's SDK
//! writer, version "3.0.0"): compact JSON with sorted keys.
//!
//! Written: `filenames.json`, `code.json`, one `se<SE>_sm<SIMD>_sl<slot>_wv<N>.json` per traced
//! wave that has an instruction or at least three timeline entries, `occupancy.json`,
//! `realtime.json` (when the streams carry reference-clock markers) and
//! `se<SE>_perfcounter.json` (gfx9 streamed counters, when present). Not written: source
//! snapshots (no debug-info reader yet), `wstates*.json` (RCV ignores them), other-SIMD and
//! shaderdata side files.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::decode::Decoded;
use crate::error::{Error, Result};
use crate::listing::Listing;

/// Version string the SDK writes everywhere.
pub const VERSION: &str = "3.0.0";
/// Header of code.json (string form: RCV reads columns 0-9).
pub const CODE_HEADER: &str = "ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, Idle";
/// Reference-clock frequency written to realtime.json (100 MHz, the GPUs' reference clock).
pub const REALTIME_HZ: u64 = 100_000_000;

/// What else goes into the outputs.
#[derive(Debug, Clone, Default)]
pub struct UiOptions {
    /// Names of the streamed SQ counters (gfx9 `--att-perfcounters`), in hardware order.
    pub counter_names: Vec<String>,
}

/// Paths of what was written for one dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The `ui_output_*` directory.
    pub dir: PathBuf,
    /// The stats CSV beside it.
    pub stats: PathBuf,
    /// Wave files written.
    pub wave_files: usize,
}

/// `wave_filenames` below one SE: `{SIMD: {slot: {N: [file, begin, end]}}}`.
type Slots = BTreeMap<String, BTreeMap<String, BTreeMap<String, Value>>>;

fn write_file(path: &Path, value: &Value) -> Result<()> {
    let text = serde_json::to_string(value).expect("JSON values serialise");
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// Writes the ui_output directory of `d` into `out_dir` (created if needed) and the stats CSV
/// beside it. The directory appears complete or not at all: it is written under a temporary
/// name and renamed (replacing an older one).
pub fn write(d: &Decoded, listing: &Listing, out_dir: &Path, opts: &UiOptions) -> Result<Written> {
    let name = d.capture.ui_output_name();
    std::fs::create_dir_all(out_dir).map_err(|e| Error::io(out_dir, e))?;
    let dir = out_dir.join(&name);
    let tmp = out_dir.join(format!(".{name}.partial"));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    }
    std::fs::create_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;

    // Wave files and the manifest.
    let mut manifest: BTreeMap<String, Slots> = BTreeMap::new();
    let mut wave_files = 0;
    for se in &d.ses {
        let mut order: Vec<&rocprof_sqtt::Wave> = se.decode.waves.iter().collect();
        order.sort_by_key(|w| (w.simd, w.wave_id, w.begin_time, w.end_time));
        let mut count: BTreeMap<(u8, u8), u64> = BTreeMap::new();
        for w in order {
            let n = count.entry((w.simd, w.wave_id)).or_insert(0);
            let id = *n;
            *n += 1;
            if w.instructions.is_empty() && w.timeline.len() < 3 {
                continue;
            }
            let file = format!("se{}_sm{}_sl{}_wv{id}.json", se.se, w.simd, w.wave_id);
            let insts: Vec<Value> = w
                .instructions
                .iter()
                .map(|i| json!([i.time, i.category as u8, i.stall, i.duration, listing.line_of(i.pc)]))
                .collect();
            let stitched = w.instructions.iter().filter(|i| listing.row_of(i.pc).is_some()).count();
            let timeline: Vec<Value> = w.timeline.iter().map(|(s, c)| json!([*s as u8, c])).collect();
            let v = json!({
                "duration": w.end_time - w.begin_time,
                "name": format!("SE{}", se.se),
                "num_insts": w.instructions.len(),
                "num_stitched": stitched,
                "wave": {
                    "begin": w.begin_time,
                    "cu": w.cu,
                    "end": w.end_time,
                    "id": id,
                    "instructions": insts,
                    "simd": w.simd,
                    "slot": w.wave_id,
                    "timeline": timeline,
                    "waitcnt": [],
                },
            });
            write_file(&tmp.join(&file), &v)?;
            wave_files += 1;
            manifest
                .entry(se.se.to_string())
                .or_default()
                .entry(w.simd.to_string())
                .or_default()
                .entry(w.wave_id.to_string())
                .or_default()
                .insert(id.to_string(), json!([file, w.begin_time, w.end_time]));
        }
    }
    let gfxip = d.gfxip();
    write_file(
        &tmp.join("filenames.json"),
        &json!({
            "counter_names": opts.counter_names,
            "gfxip": gfxip,
            "gfxv": if gfxip == 9 { "vega" } else { "navi" },
            "global_begin_time": 0,
            "version": VERSION,
            "wave_filenames": manifest,
        }),
    )?;

    // code.json
    let rows: Vec<Value> = listing
        .rows
        .iter()
        .map(|r| json!([r.text, 0, r.line, r.source, r.codeobj, r.vaddr, r.hits, r.latency, r.stall, r.idle]))
        .collect();
    write_file(&tmp.join("code.json"), &json!({"code": rows, "header": CODE_HEADER, "version": VERSION}))?;

    // occupancy.json
    let mut occ = serde_json::Map::new();
    for se in &d.ses {
        let rows: Vec<Value> = se
            .decode
            .occupancy
            .iter()
            .map(|o| {
                let kernel = if o.pc == 0 { 0 } else { listing.kernel_of(o.pc).map_or(0, |k| k + 1) };
                json!([o.time, o.cu, o.simd, o.wave_id, u8::from(o.start), kernel])
            })
            .collect();
        occ.insert(se.se.to_string(), Value::Array(rows));
    }
    let mut dispatches = serde_json::Map::new();
    dispatches.insert("0".into(), json!("0 / 0x0"));
    for (i, k) in listing.kernels.iter().enumerate() {
        dispatches.insert((i + 1).to_string(), json!(k.symbol));
    }
    occ.insert("dispatches".into(), Value::Object(dispatches));
    occ.insert("version".into(), json!(VERSION));
    write_file(&tmp.join("occupancy.json"), &Value::Object(occ))?;

    // realtime.json
    if d.ses.iter().any(|s| !s.decode.realtime.is_empty()) {
        let mut rt = serde_json::Map::new();
        rt.insert("metadata".into(), json!({"descriptor": "[gfx_clock, realtime_clock]", "frequency": REALTIME_HZ}));
        for se in &d.ses {
            let pairs: Vec<Value> =
                se.decode.realtime.iter().map(|r| json!([r.shader_clock, r.realtime_clock])).collect();
            rt.insert(format!("SE{}", se.se), Value::Array(pairs));
        }
        write_file(&tmp.join("realtime.json"), &Value::Object(rt))?;
    }

    // se<SE>_perfcounter.json
    for se in d.ses.iter().filter(|s| !s.decode.perfevents.is_empty()) {
        let data: Vec<Value> = se
            .decode
            .perfevents
            .iter()
            .map(|p| json!([p.time, p.events[0], p.events[1], p.events[2], p.events[3], p.cu, p.bank]))
            .collect();
        write_file(&tmp.join(format!("se{}_perfcounter.json", se.se)), &json!({ "data": data }))?;
    }

    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    }
    std::fs::rename(&tmp, &dir).map_err(|e| Error::io(&dir, e))?;
    let stats = out_dir.join(format!("stats_{name}.csv"));
    write_stats(&stats, listing)?;
    Ok(Written { dir, stats, wave_files })
}

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// `stats_<dir>.csv`: one row per listing row, strings quoted (as the SDK writes them), numbers bare.
pub fn write_stats(path: &Path, listing: &Listing) -> Result<()> {
    let tmp = path.with_extension("csv.partial");
    let mut out = Vec::new();
    let header = ["CodeObj", "Vaddr", "Instruction", "Hitcount", "Latency", "Stall", "Idle", "Source"];
    let header: Vec<String> = header.iter().map(|h| quoted(h)).collect();
    writeln!(out, "{}", header.join(",")).expect("writing to memory");
    for r in &listing.rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            r.codeobj,
            r.vaddr,
            quoted(&r.text),
            r.hits,
            r.latency,
            r.stall,
            r.idle,
            quoted(&r.source)
        )
        .expect("writing to memory");
    }
    std::fs::write(&tmp, out).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
}
