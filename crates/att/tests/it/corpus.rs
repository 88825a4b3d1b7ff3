//! The conformance corpus (real gfx950/gfx1100/gfx1200 captures) through the whole pipeline.

use std::collections::BTreeMap;
use std::path::Path;

use rocprof_att::report;
use rocprof_att::{decode_captures, discover, ui, Backend, Listing};

use crate::support::{json, scratch};

fn no_text(_: u64, _: &[u8]) -> Option<String> {
    None
}

/// Checks a ui_output directory the way RCV reads it (att-ui-output.md, "Checklist for a
/// compatible writer"), returning the number of wave files.
pub(crate) fn check_ui_output(dir: &Path) -> usize {
    let names = json(&dir.join("filenames.json"));
    let gfxip = names["gfxip"].as_u64().unwrap();
    assert_eq!(names["gfxv"], if gfxip == 9 { "vega" } else { "navi" });
    assert!(names["counter_names"].is_array());
    let code = json(&dir.join("code.json"));
    assert_eq!(code["header"], "ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, Idle");
    let rows = code["code"].as_array().unwrap();
    let mut lines = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        let r = r.as_array().unwrap();
        assert!(r.len() >= 10, "row {i} has {} columns", r.len());
        let line = r[2].as_u64().unwrap();
        assert!(lines.insert(line, i).is_none(), "line number {line} twice");
        if i == 0 {
            assert!(r[0].as_str().unwrap().starts_with("; "), "code.json starts with a kernel label");
        }
    }
    // Per-line totals in code.json equal the sums over the wave files.
    let mut sums: BTreeMap<u64, (u64, i64, i64)> = BTreeMap::new();
    let mut files = 0;
    for (se, simds) in names["wave_filenames"].as_object().unwrap() {
        for (simd, slots) in simds.as_object().unwrap() {
            for (slot, waves) in slots.as_object().unwrap() {
                for (n, entry) in waves.as_object().unwrap() {
                    let file = entry[0].as_str().unwrap();
                    assert_eq!(file, format!("se{se}_sm{simd}_sl{slot}_wv{n}.json"));
                    let w = json(&dir.join(file));
                    let wave = &w["wave"];
                    assert_eq!((&wave["begin"], &wave["end"]), (&entry[1], &entry[2]), "{file}: manifest times");
                    assert_eq!(wave["id"].as_u64().unwrap().to_string(), *n);
                    let (begin, end) = (wave["begin"].as_i64().unwrap(), wave["end"].as_i64().unwrap());
                    let mut t = 0;
                    for s in wave["timeline"].as_array().unwrap() {
                        assert!(s[0].as_u64().unwrap() <= 4, "{file}: state {}", s[0]);
                        t += s[1].as_i64().unwrap();
                    }
                    if gfxip != 9 {
                        assert_eq!(t, end - begin, "{file}: timeline covers the wave");
                    }
                    for i in wave["instructions"].as_array().unwrap() {
                        assert!(i[1].as_u64().unwrap() <= 13, "{file}: category {}", i[1]);
                        let line = i[4].as_u64().unwrap();
                        assert!(lines.contains_key(&line), "{file}: line {line} not in code.json");
                        let e = sums.entry(line).or_default();
                        e.0 += 1;
                        e.1 += i[3].as_i64().unwrap();
                        e.2 += i[2].as_i64().unwrap();
                    }
                    files += 1;
                }
            }
        }
    }
    for r in rows {
        let line = r[2].as_u64().unwrap();
        let (hits, latency, stall) = sums.get(&line).copied().unwrap_or_default();
        assert_eq!((r[6].as_u64().unwrap(), r[7].as_i64().unwrap(), r[8].as_i64().unwrap()), (hits, latency, stall));
    }
    let occ = json(&dir.join("occupancy.json"));
    assert_eq!(occ["dispatches"]["0"], "0 / 0x0");
    for (k, v) in occ.as_object().unwrap() {
        if let Ok(_se) = k.parse::<u32>() {
            for row in v.as_array().unwrap() {
                let id = row[5].as_u64().unwrap().to_string();
                assert!(occ["dispatches"].get(&id).is_some(), "kernel id {id} not in dispatches");
            }
        }
    }
    files
}

#[test]
fn corpus_decodes_into_rcv_outputs_and_a_report() {
    let Some(root) = rocprof_test_inputs::shared("corpus_decodes_into_rcv_outputs_and_a_report", "conformance/sqtt")
    else {
        return;
    };
    let captures = discover(&root).unwrap();
    assert_eq!(captures.len(), 28, "28 example directories");
    let out = scratch("att-corpus");
    let decoded = decode_captures(captures, &Backend::Native, 2, &|| {});
    let mut reports = Vec::new();
    let mut waves_total = 0;
    for d in decoded {
        let d = d.unwrap_or_else(|e| panic!("{e}"));
        for se in &d.ses {
            assert_eq!(se.decode.unknown_tokens, 0, "{}: real captures have no unknown tokens", se.path.display());
        }
        let listing = Listing::build(&d, &mut no_text);
        let rel = d.capture.dir.strip_prefix(&root).unwrap();
        let w = ui::write(&d, &listing, &out.join(rel), &ui::UiOptions::default()).unwrap();
        assert!(w.stats.exists());
        assert_eq!(w.dir.file_name().unwrap().to_string_lossy(), d.capture.ui_output_name());
        let files = check_ui_output(&w.dir);
        assert_eq!(files, w.wave_files);
        // As rocprofv3: a file for every wave with an instruction or at least three timeline entries.
        let expected = d
            .ses
            .iter()
            .flat_map(|s| &s.decode.waves)
            .filter(|w| !w.instructions.is_empty() || w.timeline.len() >= 3)
            .count();
        assert_eq!(files, expected, "{}", d.capture.dir.display());
        waves_total += files;
        let s = report::summarize(&d, &listing, 5, &[]);
        // The stats CSV has one line per listing row, plus the header.
        let csv = std::fs::read_to_string(&w.stats).unwrap();
        assert_eq!(csv.lines().count(), listing.rows.len() + 1);
        assert!(csv.starts_with("\"CodeObj\",\"Vaddr\",\"Instruction\",\"Hitcount\""));
        reports.push((d.capture.dir.clone(), s));
    }
    assert_eq!(waves_total, 76, "wave files over the corpus");
    // gfx1100/plus: one traced wave of E_3, 12 instructions; its longest stall is a wait.
    let (_, plus) = reports.iter().find(|(d, _)| d.ends_with("gfx1100/plus")).unwrap();
    assert_eq!(plus.kernels, ["E_3"]);
    assert_eq!((plus.waves, plus.instructions), (1, 12));
    assert_eq!(plus.by_stall[0].vaddr, 5656, "s_waitcnt lgkmcnt(0) after the loads stalls most");
    assert_eq!(plus.by_stall[0].stall, 1403);
    let text = report::render(std::slice::from_ref(plus));
    assert!(text.contains("E_3") && text.contains("0x1618") && text.contains("1403"), "{text}");
}

#[test]
fn amd_backend_writes_the_same_outputs_when_available() {
    if std::env::var_os(rocprof_sqtt_amd::LIBRARY_ENV).is_none() {
        rocprof_test_inputs::skip_optional(
            "amd_backend_writes_the_same_outputs_when_available",
            "ROCPROF_ATT_LIBRARY_PATH not set",
        );
        return;
    }
    let Some(root) = rocprof_test_inputs::shared("amd_backend_writes_the_same_outputs", "conformance/sqtt") else {
        return;
    };
    let amd = Backend::Amd(rocprof_sqtt_amd::AmdDecoder::load(None).unwrap());
    let mut compared = 0;
    for (backend, name) in [(&Backend::Native, "native"), (&amd, "amd")] {
        let out = scratch(&format!("att-backend-{name}"));
        for d in decode_captures(discover(&root).unwrap(), backend, 2, &|| {}) {
            let d = d.unwrap();
            let listing = Listing::build(&d, &mut no_text);
            ui::write(&d, &listing, &out.join(d.capture.dir.strip_prefix(&root).unwrap()), &Default::default())
                .unwrap();
        }
    }
    for e in walk(&scratch_path("att-backend-native")) {
        let rel = e.strip_prefix(scratch_path("att-backend-native")).unwrap();
        let other = scratch_path("att-backend-amd").join(rel);
        if e.extension().is_some_and(|x| x == "json") && !e.ends_with("occupancy.json") {
            assert_eq!(json(&e), json(&other), "{}", rel.display());
            compared += 1;
        }
    }
    println!("att outputs: {compared} JSON files identical between the native and AMD backends");
    assert!(compared > 100);
}

fn scratch_path(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
