//! `rocprof-rs att-decode DIR`: real captures into rocprofv3's outputs, and damaged ones into
//! one-line errors naming the file and offset (exit status 1), never a panic.

use crate::{bin, scratch, stderr};

fn copy_example(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn att_decode_writes_ui_output_stats_and_the_hotspot_report() {
    let Some(root) = rocprof_test_inputs::shared("att_decode_writes_ui_output", "conformance/sqtt/gfx1100/plus") else {
        return;
    };
    let dir = scratch("att-decode-plus");
    copy_example(&root, &dir.join("in"));
    let out = dir.join("out");
    let o =
        bin().args(["att-decode", "--att-decoder", "native"]).arg(dir.join("in")).arg("-d").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ui = out.join("ui_output_agent_0_dispatch_1");
    for f in ["filenames.json", "code.json", "occupancy.json", "realtime.json", "se1_sm0_sl0_wv0.json"] {
        assert!(ui.join(f).is_file(), "{f} missing");
    }
    assert!(out.join("stats_ui_output_agent_0_dispatch_1.csv").is_file());
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(report.contains("E_3") && report.contains("1 waves traced, 12 instructions"), "{report}");
    assert!(report.contains("top by stall") && report.contains("loss: none"), "{report}");
}

#[test]
fn att_decode_names_the_damaged_file_and_offset() {
    let Some(root) = rocprof_test_inputs::shared("att_decode_names_the_damaged_file", "conformance/sqtt/gfx1200/plus")
    else {
        return;
    };
    let dir = scratch("att-decode-damaged");
    copy_example(&root, &dir);
    let se0 = dir.join("se0.att");
    let bytes = std::fs::read(&se0).unwrap();
    std::fs::write(&se0, &bytes[..bytes.len() - 7]).unwrap();
    let o = bin().arg("att-decode").arg(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    let line = e.lines().find(|l| l.starts_with("rocprof-rs: error:")).unwrap_or_else(|| panic!("{e}"));
    assert!(line.contains("se0.att") && line.contains("truncated") && line.contains("byte offset"), "{line}");
    assert!(!e.contains("panicked"), "{e}");
    // A missing directory is a plain error too.
    let o = bin().args(["att-decode", "/nonexistent/att"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/nonexistent/att"), "{}", stderr(&o));
}
