//! Build-time check of the HIP 5.x tracing ABI the library reads argument words from.
//!
//! `rocprof_hsa_sys::HIP_PROF_FUNCTIONS_5_2` (offsets of every parameter in HIP's
//! `hip_api_data_t`) was generated from Debian's HIP 5.2 header through a C++ probe
//! (`xtask/codegen/hsa_sys/hip_prof.py`); its output is committed as
//! `crates/hsa-sys/probes/hip_prof_layout.txt`. Where a HIP header is installed, this script
//! compiles the same probe against it and fails the build if any function both know lays out its
//! parameters differently (or the record head moved), so the library never reads a HIP whose
//! layout it was not built for. Without the header (or a C++ compiler) there is nothing to check.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const HEADER: &str = "/usr/include/hip/amd_detail/hip_prof_str.h";

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let probes = root.join("..").join("hsa-sys").join("probes");
    let probe = probes.join("hip_prof_probe.cpp");
    let expected = probes.join("hip_prof_layout.txt");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={HEADER}");
    println!("cargo:rerun-if-changed={}", probe.display());
    println!("cargo:rerun-if-changed={}", expected.display());
    if !Path::new(HEADER).exists() {
        return;
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("hip_prof_probe");
    let built = Command::new(&cxx)
        .args(["-std=c++17", "-D__HIP_PLATFORM_AMD__", "-w"])
        .arg(&probe)
        .arg("-o")
        .arg(&out)
        .status();
    match built {
        Ok(s) if s.success() => {}
        Ok(s) => panic!(
            "{HEADER} is installed but the HIP layout probe {} does not compile against it ({s}); \
             regenerate with `python3 xtask/codegen/hsa_sys/hip_prof.py`",
            probe.display()
        ),
        Err(e) => {
            println!("cargo:warning=HIP layout not checked: cannot run {cxx}: {e}");
            return;
        }
    }
    let run = Command::new(&out).output().expect("running the HIP layout probe");
    assert!(run.status.success(), "the HIP layout probe failed: {}", run.status);
    let installed = parse(&String::from_utf8_lossy(&run.stdout));
    let committed = parse(&std::fs::read_to_string(&expected).expect("reading hip_prof_layout.txt"));
    let mut differences = Vec::new();
    for (key, ours) in &committed {
        if let Some(theirs) = installed.get(key) {
            if theirs != ours {
                differences.push(format!("{key}: installed {theirs}, ours {ours}"));
            }
        }
    }
    differences.sort();
    assert!(
        differences.is_empty(),
        "HIP's {HEADER} lays out hip_api_data_t differently from what rocprof-rs reads \
         (crates/hsa-sys/probes/hip_prof_layout.txt):\n  {}\nregenerate with `python3 xtask/codegen/hsa_sys/hip_prof.py`",
        differences.join("\n  ")
    );
}

/// `function param` (or `hip_api_data_t`) -> the rest of the probe's line.
fn parse(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ' ');
            let (a, b, rest) = (parts.next()?, parts.next()?, parts.next()?);
            if a == "hip_api_data_t" {
                Some((a.to_string(), format!("{b} {rest}")))
            } else {
                Some((format!("{a} {b}"), rest.to_string()))
            }
        })
        .collect()
}
