//! Conformance: our decode of every corpus example equals AMD's reference decode exactly.
//!
//! Scoring follows `shared/tools/sqtt-compare/compare.py`: waves as a multiset of
//! `(cu, simd, wave_id, begin, end)`, instructions per wave slot (k-th wave of a slot by begin
//! time) row by row, timelines per paired wave, occupancy as a multiset, other lists equal.

use crate::corpus::{corpus_root, examples};
use rocprof_launch::names;
use serde_json::{json, Value};
use std::collections::HashMap;

#[derive(Default, Debug, Clone, Copy)]
struct Score {
    waves_exp: usize,
    waves_ok: usize,
    waves_cand: usize,
    insts_exp: usize,
    insts_ok: usize,
    insts_extra: usize,
    occ_exp: usize,
    occ_ok: usize,
    occ_cand: usize,
    timeline_exp: usize,
    timeline_ok: usize,
    other_bad: usize,
}

impl Score {
    fn exact(&self) -> bool {
        self.waves_ok == self.waves_exp
            && self.waves_cand == self.waves_exp
            && self.insts_ok == self.insts_exp
            && self.insts_extra == 0
            && self.occ_ok == self.occ_exp
            && self.occ_cand == self.occ_exp
            && self.timeline_ok == self.timeline_exp
            && self.other_bad == 0
    }
}

fn multiset(rows: impl Iterator<Item = String>) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for r in rows {
        *m.entry(r).or_default() += 1;
    }
    m
}

fn overlap(a: &HashMap<String, usize>, b: &HashMap<String, usize>) -> usize {
    a.iter().map(|(k, n)| (*n).min(*b.get(k).unwrap_or(&0))).sum()
}

fn wave_key(w: &Value) -> String {
    format!("{} {} {} {} {}", w["cu"], w["simd"], w["wave_id"], w["begin_time"], w["end_time"])
}

fn slots(waves: &[Value]) -> HashMap<String, &Value> {
    let mut by: HashMap<String, Vec<&Value>> = HashMap::new();
    for w in waves {
        by.entry(format!("{} {} {}", w["cu"], w["simd"], w["wave_id"])).or_default().push(w);
    }
    let mut out = HashMap::new();
    for (k, mut v) in by {
        v.sort_by_key(|w| (w["begin_time"].as_i64(), w["end_time"].as_i64()));
        for (n, w) in v.into_iter().enumerate() {
            out.insert(format!("{k} {n}"), w);
        }
    }
    out
}

fn arr(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or(&[])
}

fn compare_se(exp: &Value, cand: &Value, s: &mut Score, verbose: bool, name: &str) {
    let (ew, cw) = (arr(&exp["waves"]), arr(&cand["waves"]));
    s.waves_exp += ew.len();
    s.waves_cand += cw.len();
    s.waves_ok += overlap(&multiset(ew.iter().map(wave_key)), &multiset(cw.iter().map(wave_key)));
    let (es, cs) = (slots(ew), slots(cw));
    for (key, w) in &es {
        let insts = arr(&w["instructions"]);
        s.insts_exp += insts.len();
        let cinsts = cs.get(key).map(|c| arr(&c["instructions"])).unwrap_or(&[]);
        let mut first_bad = None;
        for (i, row) in insts.iter().enumerate() {
            if cinsts.get(i) == Some(row) {
                s.insts_ok += 1;
            } else if first_bad.is_none() {
                first_bad = Some(i);
            }
        }
        s.insts_extra += cinsts.len().saturating_sub(insts.len());
        s.timeline_exp += 1;
        let tl_ok = cs.get(key).is_some_and(|c| c["timeline"] == w["timeline"]);
        if tl_ok {
            s.timeline_ok += 1;
        }
        if verbose && (first_bad.is_some() || !tl_ok || cinsts.len() != insts.len()) {
            eprintln!("  {name} se{} slot {key}: {} exp rows, {} ours", exp["se"], insts.len(), cinsts.len());
            if let Some(i) = first_bad {
                for (j, row) in insts.iter().enumerate().skip(i.saturating_sub(1)).take(5) {
                    eprintln!("    row {j}: exp {row} ours {}", cinsts.get(j).unwrap_or(&Value::Null));
                }
            }
            if !tl_ok {
                eprintln!(
                    "    timeline exp {}\n    timeline ours {}",
                    w["timeline"],
                    cs.get(key).map(|c| &c["timeline"]).unwrap_or(&Value::Null)
                );
            }
        }
    }
    for (key, w) in &cs {
        if !es.contains_key(key) {
            s.insts_extra += arr(&w["instructions"]).len();
        }
    }
    let eo = multiset(arr(&exp["occupancy"]).iter().map(Value::to_string));
    let co = multiset(arr(&cand["occupancy"]).iter().map(Value::to_string));
    s.occ_exp += eo.values().sum::<usize>();
    s.occ_cand += co.values().sum::<usize>();
    s.occ_ok += overlap(&eo, &co);
    for k in ["perfevents", "shaderdata", "realtime", "inst_other_simd", "info"] {
        if arr(&exp[k]) != arr(&cand[k]) {
            s.other_bad += 1;
            if verbose {
                eprintln!(
                    "  {name} se{} {k} differs: exp {} ours {}",
                    exp["se"],
                    arr(&exp[k]).len(),
                    arr(&cand[k]).len()
                );
            }
        }
    }
    if verbose && (s.occ_ok != s.occ_exp || s.waves_ok != s.waves_exp) {
        eprintln!(
            "  {name} se{}: occupancy {}/{} waves {}/{}",
            exp["se"], s.occ_ok, s.occ_exp, s.waves_ok, s.waves_exp
        );
    }
}

#[test]
fn sqtt_conformance() {
    let Some(root) = corpus_root("sqtt_conformance") else { return };
    let verbose = std::env::var_os(names::SQTT_VERBOSE).is_some();
    let out_root = std::env::var_os(names::SQTT_OUT).map(std::path::PathBuf::from);
    let (mut identical, mut compared) = (0, 0);
    let mut failures = Vec::new();
    for ex in examples(&root) {
        let ours = ex.decode_json();
        // Decoding is deterministic: a second pass gives the same records.
        assert_eq!(ours, ex.decode_json(), "{}: decode not deterministic", ex.name);
        if let Some(out) = &out_root {
            let dir = out.join(&ex.name);
            std::fs::create_dir_all(&dir).expect("create output dir");
            let doc = json!({
                "schema": "sqtt-corpus-expected/1",
                "decoder": {"name": "rocprof-sqtt", "version": env!("CARGO_PKG_VERSION")},
                "example": {"dir": ex.name, "load_base": ex.load_base()},
                "shader_engines": ours,
            });
            std::fs::write(dir.join("expected.json"), serde_json::to_string(&doc).expect("json")).expect("write");
        }
        let exp_path = ex.dir.join("expected.json");
        let Ok(text) = std::fs::read_to_string(&exp_path) else {
            println!("{:28} decoded {} SEs (no reference)", ex.name, ours.len());
            continue;
        };
        let exp: Value = serde_json::from_str(&text).expect("expected.json is JSON");
        let mut s = Score::default();
        let by_se: HashMap<u64, &Value> = ours.iter().map(|v| (v["se"].as_u64().unwrap(), v)).collect();
        for se in arr(&exp["shader_engines"]) {
            let cand = by_se.get(&se["se"].as_u64().unwrap()).copied().unwrap_or(&Value::Null);
            compare_se(se, cand, &mut s, verbose, &ex.name);
        }
        compared += 1;
        let exact = s.exact();
        if exact {
            identical += 1;
        } else {
            failures.push(ex.name.clone());
        }
        println!(
            "{:28} waves matched {}/{} instructions matched {}/{} occupancy {}/{} timelines {}/{}{} {}",
            ex.name,
            s.waves_ok,
            s.waves_exp,
            s.insts_ok,
            s.insts_exp,
            s.occ_ok,
            s.occ_exp,
            s.timeline_ok,
            s.timeline_exp,
            if s.other_bad > 0 { format!(" other-lists-differing {}", s.other_bad) } else { String::new() },
            if exact { "EXACT" } else { "DIFF" }
        );
    }
    // Leading newline: under `cargo test -q` libtest's progress dots share the line otherwise.
    println!("\nsqtt conformance: {identical}/{compared} examples identical");
    assert!(failures.is_empty(), "examples differing from the reference decode: {failures:?}");
}

#[test]
fn per_pc_aggregates_match_the_reference_rows() {
    let Some(root) = corpus_root("per_pc_aggregates_match_the_reference_rows") else { return };
    // A corpus given through ROCPROF_RS_SQTT_CORPUS may lack this example or its reference decode
    // (held-back cases): then there is nothing to compare against here.
    let Some(ex) =
        examples(&root).into_iter().find(|e| e.name == "gfx1200/handwritten" && e.dir.join("expected.json").is_file())
    else {
        let why = format_args!("no gfx1200/handwritten example with an expected.json in {}", root.display());
        if std::env::var_os(names::SQTT_CORPUS).is_some() {
            println!("aggregates: {why}, skipping (a corpus given by ROCPROF_RS_SQTT_CORPUS may hold back cases)");
        } else {
            rocprof_test_inputs::skip_or_fail("per_pc_aggregates_match_the_reference_rows", why);
        }
        return;
    };
    let code = ex.code();
    let mut dec = rocprof_sqtt::Decoder::new(&code);
    let mut table = rocprof_sqtt::aggregate::PcTable::new();
    for (_, _, bytes) in ex.streams() {
        table.add_waves(&dec.decode(&bytes).expect("decodes").waves);
    }
    // Reference: count rows and sum durations per pc straight from expected.json.
    let exp: Value = serde_json::from_str(&std::fs::read_to_string(ex.dir.join("expected.json")).unwrap()).unwrap();
    let mut want: HashMap<u64, (u64, i64, i64)> = HashMap::new();
    for se in arr(&exp["shader_engines"]) {
        for w in arr(&se["waves"]) {
            for r in arr(&w["instructions"]) {
                let e = want.entry(r[0].as_u64().unwrap()).or_default();
                e.0 += 1;
                e.1 += r[3].as_i64().unwrap();
                e.2 += r[2].as_i64().unwrap();
            }
        }
    }
    assert_eq!(table.len(), want.len());
    for s in table.iter() {
        let w = want[&(s.pc - code.load_base())];
        assert_eq!((s.hits, s.latency, s.stall), w, "pc {:#x}", s.pc - code.load_base());
    }
    // Every reference row is counted once (1092 instructions in the shared corpus).
    assert_eq!(table.iter().map(|s| s.hits).sum::<u64>(), want.values().map(|w| w.0).sum::<u64>());
    assert!(!table.is_empty(), "the handwritten example has instructions");
}
