//! Locating and loading the SQTT conformance corpus (`../shared/conformance/sqtt` by default).

use rocprof_launch::names;
use rocprof_sqtt::{CodeObject, Decoder, Family, SeDecode};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The corpus root: `$ROCPROF_RS_SQTT_CORPUS`, else `<workspace>/../shared/conformance/sqtt`;
/// `None` after printing why `test` skips (a failure under `CI=true`).
#[track_caller]
pub(crate) fn corpus_root(test: &str) -> Option<PathBuf> {
    rocprof_test_inputs::shared_or_env(test, names::SQTT_CORPUS, "conformance/sqtt")
}

/// One example directory: `<arch>/<example>/`.
pub(crate) struct Example {
    pub(crate) name: String,
    pub(crate) dir: PathBuf,
    pub(crate) meta: Value,
}

/// All example directories under `root`, sorted by name.
pub(crate) fn examples(root: &Path) -> Vec<Example> {
    let mut out = Vec::new();
    let Ok(archs) = std::fs::read_dir(root) else { return out };
    for arch in archs.flatten() {
        if !arch.path().is_dir() {
            continue;
        }
        let Ok(exs) = std::fs::read_dir(arch.path()) else { continue };
        for ex in exs.flatten() {
            let dir = ex.path();
            let Ok(text) = std::fs::read_to_string(dir.join("meta.json")) else { continue };
            let meta: Value = serde_json::from_str(&text).expect("meta.json is JSON");
            let name = format!("{}/{}", arch.file_name().to_string_lossy(), ex.file_name().to_string_lossy());
            out.push(Example { name, dir, meta });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

impl Example {
    pub(crate) fn family(&self) -> Family {
        let target = self.meta["code_object_target"].as_str().or(self.meta["arch_dir"].as_str()).unwrap_or("");
        Family::from_target(target)
            .or_else(|| Family::from_target(self.meta["arch_dir"].as_str().unwrap_or("")))
            .expect("known family")
    }

    pub(crate) fn load_base(&self) -> u64 {
        self.meta["load_base"].as_u64().expect("load_base")
    }

    pub(crate) fn code(&self) -> CodeObject {
        let elf = std::fs::read(self.dir.join("code.elf")).expect("code.elf");
        CodeObject::from_elf(self.family(), &elf, self.load_base()).expect("code object decodes")
    }

    /// `(se, file name, bytes)` in ascending SE order.
    pub(crate) fn streams(&self) -> Vec<(u64, String, Vec<u8>)> {
        let mut v = Vec::new();
        for se in self.meta["shader_engines"].as_array().expect("shader_engines") {
            let file = se["file"].as_str().expect("file").to_string();
            let bytes = std::fs::read(self.dir.join(&file)).expect("stream file");
            v.push((se["se"].as_u64().expect("se"), file, bytes));
        }
        v.sort_by_key(|s| s.0);
        v
    }

    /// Decodes every stream; returns the per-SE JSON list in the corpus layout.
    pub(crate) fn decode_json(&self) -> Vec<Value> {
        let code = self.code();
        let mut dec = Decoder::new(&code);
        self.streams()
            .into_iter()
            .map(|(se, file, bytes)| {
                let d = dec.decode(&bytes).unwrap_or_else(|e| panic!("{} {file}: {e}", self.name));
                se_json(se, &file, bytes.len(), &d, code.load_base())
            })
            .collect()
    }
}

fn rel_pc(pc: u64, base: u64) -> Value {
    if pc == 0 {
        Value::Null
    } else {
        json!(pc.wrapping_sub(base))
    }
}

/// One decoded SE in the `sqtt-corpus-expected/1` per-SE layout.
pub(crate) fn se_json(se: u64, file: &str, bytes: usize, d: &SeDecode, base: u64) -> Value {
    let occupancy: Vec<Value> = d
        .occupancy
        .iter()
        .map(|o| json!([o.time, o.cu, o.simd, o.wave_id, u8::from(o.start), rel_pc(o.pc, base)]))
        .collect();
    let waves: Vec<Value> = d
        .waves
        .iter()
        .map(|w| {
            json!({
                "cu": w.cu, "simd": w.simd, "wave_id": w.wave_id, "contexts": w.contexts,
                "begin_time": w.begin_time, "end_time": w.end_time,
                "instructions": w.instructions.iter()
                    .map(|i| json!([rel_pc(i.pc, base), i.time, i.stall, i.duration, i.category as u8]))
                    .collect::<Vec<_>>(),
                "timeline": w.timeline.iter().map(|(s, n)| json!([*s as u8, n])).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "se": se, "file": file, "bytes": bytes, "gfxip": d.gfxip, "status": 0,
        "occupancy": occupancy,
        "waves": waves,
        "perfevents": d.perfevents.iter()
            .map(|p| json!([p.time, p.events[0], p.events[1], p.events[2], p.events[3], p.cu, p.bank]))
            .collect::<Vec<_>>(),
        "shaderdata": d.shaderdata.iter()
            .map(|s| json!([s.time, s.value, s.cu, s.simd, s.wave_id, s.flags]))
            .collect::<Vec<_>>(),
        "realtime": d.realtime.iter().map(|r| json!([r.shader_clock, r.realtime_clock])).collect::<Vec<_>>(),
        "rt_frequency": [],
        "inst_other_simd": d.other_simd.iter().map(|o| json!([o.time, o.cycles, o.wgp, o.category as u8])).collect::<Vec<_>>(),
        "info": d.info.iter().map(|i| json!([*i as u32, ""])).collect::<Vec<_>>(),
    })
}
