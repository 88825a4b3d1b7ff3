//! The DWARF line reader (`rocprof_isa::dwarf_line`) against LLVM's own dump: an OpenCL kernel with an
//! inlined function from a header, built by clang-19 with `-g` as DWARF 5 and as DWARF 4 for gfx90a and
//! linked into a code object; every row `llvm-dwarfdump-19 --debug-line` lists (address, line, column,
//! file, end of sequence) must come out the same, and in DWARF 5 each file's path is its
//! `include_directories` entry joined to its name.

use std::path::Path;
use std::process::Command;

use rocprof_isa::dwarf_line::{rows, LineTable, Row};

const HEADER: &str = "static inline float step(float x) {\n  return x * 1.5f + 2.0f;\n}\n";
const KERNEL: &str = "#include \"step.h\"\n\
__kernel void spin(__global float *a, int n) {\n\
  float x = a[0];\n\
  for (int i = 0; i < n; i++) {\n\
    x = step(x);\n\
    if (x > 100.0f)\n\
      x = x - a[i];\n\
  }\n\
  a[1] = x;\n\
}\n";

/// A row as compared: address, line, column, file, end of sequence.
type DumpRow = (u64, u32, u32, u32, bool);

/// Rows and (file index -> path) of `llvm-dwarfdump --debug-line` output.
fn dump_rows(text: &str) -> (Vec<DumpRow>, Vec<(u32, String)>) {
    let mut rows = Vec::new();
    let mut dirs: Vec<String> = Vec::new();
    let mut files = Vec::new();
    let mut file: Option<(u32, String)> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("include_directories[") {
            let v = rest.split_once("= \"").map(|(_, v)| v.trim_end_matches('"').to_string());
            dirs.push(v.unwrap_or_default());
        } else if let Some(rest) = t.strip_prefix("file_names[") {
            let k: u32 = rest.split(']').next().unwrap().trim().parse().unwrap();
            file = Some((k, String::new()));
        } else if let Some(name) = t.strip_prefix("name: \"") {
            if let Some(f) = file.as_mut() {
                f.1 = name.trim_end_matches('"').to_string();
            }
        } else if let Some(d) = t.strip_prefix("dir_index: ") {
            if let Some((k, name)) = file.take() {
                let d: usize = d.parse().unwrap();
                let path = match dirs.get(d) {
                    Some(dir) if !name.starts_with('/') => format!("{dir}/{name}"),
                    _ => name,
                };
                files.push((k, path));
            }
        } else if t.starts_with("0x") {
            let f: Vec<&str> = t.split_whitespace().collect();
            let n = |k: usize| f[k].parse::<u32>().unwrap();
            rows.push((u64::from_str_radix(&f[0][2..], 16).unwrap(), n(1), n(2), n(3), t.contains("end_sequence")));
        }
    }
    (rows, files)
}

fn build(dir: &Path, dwarf: &str) -> Option<Vec<u8>> {
    let co = dir.join(format!("spin-{dwarf}.hsaco"));
    let out = match Command::new("clang-19")
        .args(["-x", "cl", "-Xclang", "-finclude-default-header", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a"])
        .args(["-nogpulib", "-O1", &format!("-g{dwarf}"), "-o"])
        .arg(&co)
        .arg(dir.join("spin.cl"))
        .output()
    {
        Ok(o) => o,
        Err(_) => {
            rocprof_test_inputs::skip_or_fail(
                "dwarf line tables",
                "clang-19 not found (Debian packages clang-19 lld-19)",
            );
            return None;
        }
    };
    assert!(out.status.success(), "clang-19 failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(std::fs::read(&co).unwrap())
}

#[test]
fn line_rows_match_llvm_dwarfdump_for_dwarf4_and_dwarf5_code_objects() {
    let dir = std::env::temp_dir().join(format!("rocprof-isa-dwarf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("step.h"), HEADER).unwrap();
    std::fs::write(dir.join("spin.cl"), KERNEL).unwrap();
    for dwarf in ["dwarf-5", "dwarf-4"] {
        let Some(elf) = build(&dir, dwarf) else { return };
        let Some(dump) = rocprof_test_inputs::program("dwarf line tables", "llvm-dwarfdump-19", "llvm-19") else {
            return;
        };
        let co = dir.join(format!("spin-{dwarf}.hsaco"));
        let out = Command::new(dump).arg("--debug-line").arg(&co).output().unwrap();
        assert!(out.status.success());
        let (want, files) = dump_rows(&String::from_utf8_lossy(&out.stdout));
        assert!(want.len() > 8, "{dwarf}: llvm-dwarfdump listed {} rows", want.len());
        let got: Vec<Row> = rows(&elf).unwrap();
        let got_rows: Vec<_> = got.iter().map(|r| (r.address, r.line, r.column, r.file, r.end_sequence)).collect();
        assert_eq!(got_rows, want, "{dwarf}: rows differ from llvm-dwarfdump's");
        // Both files are used (the header's inlined function has rows of its own).
        let used: std::collections::BTreeSet<u32> = got.iter().map(|r| r.file).collect();
        assert!(used.len() >= 2, "{dwarf}: rows name files {used:?}");
        if dwarf == "dwarf-5" {
            for r in &got {
                let (_, path) = files.iter().find(|(k, _)| *k == r.file).expect("a listed file");
                assert_eq!(&r.path, path, "file {} of the row at {:#x}", r.file, r.address);
            }
            assert!(got.iter().any(|r| r.path.ends_with("/step.h")));
        }
        // A PC maps to the last row with a line at or before it (rocprofiler-sdk's comment).
        let table = LineTable::of_elf(&elf).unwrap();
        for w in got.windows(2).filter(|w| !w[0].end_sequence && w[0].line != 0) {
            for pc in (w[0].address..w[1].address).step_by(4) {
                // The highest address at or below pc; of rows at one address the later one.
                let last = got
                    .iter()
                    .filter(|r| r.line != 0 && r.address <= pc)
                    .fold(None, |b: Option<&Row>, r| match b {
                        Some(b) if b.address > r.address => Some(b),
                        _ => Some(r),
                    })
                    .unwrap();
                let want = format!("{}:{}", last.path, last.line);
                assert_eq!(table.lookup(pc), Some(want.as_str()), "{dwarf}: pc {pc:#x}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const NESTED_HEADER: &str = "static inline __attribute__((always_inline)) float twice(float x) {\n\
  return x * 2.0f;\n\
}\n\
static inline __attribute__((always_inline)) float step(float x) {\n\
  return twice(x) + 1.0f;\n\
}\n";
const NESTED_KERNEL: &str = "#include \"nested.h\"\n\
__kernel void chain(__global float *a, int n) {\n\
  float x = a[0];\n\
  for (int i = 0; i < n; i++) {\n\
    x = step(x);\n\
    if (x > 100.0f)\n\
      x = twice(x) - a[i];\n\
  }\n\
  a[1] = x;\n\
}\n";

/// `llvm-symbolizer --inlining` frames of each address (innermost first) as `path:line`.
fn symbolize(symbolizer: &Path, co: &Path, addresses: &[u64]) -> Vec<Vec<String>> {
    use std::io::Write;
    let mut child = Command::new(symbolizer)
        .args(["--inlining", "--functions=none"])
        .arg(format!("--obj={}", co.display()))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = addresses.iter().map(|a| format!("{a:#x}\n")).collect();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let frames: Vec<Vec<String>> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| {
            // path:line:column -> path:line
            b.lines().map(|l| l.rsplit_once(':').map_or(l, |x| x.0).to_string()).collect()
        })
        .collect();
    assert_eq!(frames.len(), addresses.len(), "{text}");
    frames
}

/// Inlined call stacks (`DW_TAG_inlined_subroutine`, nested two deep) against LLVM's symbolizer: at
/// every line row's address the comment is the row's `path:line` then ` -> file:line` for each
/// inlined call covering it, innermost first (rocprofiler-sdk's `code_printing.hpp`), which is
/// `llvm-symbolizer --inlining`'s frame list (its outer frames are the call sites). DWARF 5 and 4;
/// DWARF 4 relative paths compared by file name.
#[test]
fn inlined_call_stacks_match_llvm_symbolizer_frames() {
    let dir = std::env::temp_dir().join(format!("rocprof-isa-inline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("nested.h"), NESTED_HEADER).unwrap();
    std::fs::write(dir.join("chain.cl"), NESTED_KERNEL).unwrap();
    for dwarf in ["dwarf-5", "dwarf-4"] {
        let co = dir.join(format!("chain-{dwarf}.hsaco"));
        let out = match Command::new("clang-19")
            .args(["-x", "cl", "-Xclang", "-finclude-default-header", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a"])
            .args(["-nogpulib", "-O1", &format!("-g{dwarf}"), "-o"])
            .arg(&co)
            .arg(dir.join("chain.cl"))
            .output()
        {
            Ok(o) => o,
            Err(_) => {
                rocprof_test_inputs::skip_or_fail(
                    "inlined calls",
                    "clang-19 not found (Debian packages clang-19 lld-19)",
                );
                return;
            }
        };
        assert!(out.status.success(), "clang-19 failed: {}", String::from_utf8_lossy(&out.stderr));
        let Some(symbolizer) = rocprof_test_inputs::program("inlined calls", "llvm-symbolizer-19", "llvm-19") else {
            return;
        };
        let elf = std::fs::read(&co).unwrap();
        let mut table = LineTable::of_elf(&elf).unwrap();
        table.add_inlined_calls(&rocprof_isa::dwarf_info::inlined_calls(&elf).unwrap());
        let starts: Vec<u64> = {
            let mut v: Vec<u64> =
                rows(&elf).unwrap().iter().filter(|r| r.line != 0 && !r.end_sequence).map(|r| r.address).collect();
            v.dedup();
            v
        };
        let frames = symbolize(Path::new(&symbolizer), &co, &starts);
        let norm = |s: &str| -> String {
            if dwarf == "dwarf-4" {
                s.split(" -> ").map(|f| f.rsplit('/').next().unwrap()).collect::<Vec<_>>().join(" -> ")
            } else {
                s.to_string()
            }
        };
        let mut deepest = 0;
        for (a, f) in starts.iter().zip(&frames) {
            deepest = deepest.max(f.len());
            let want = norm(&f.join(" -> "));
            assert_eq!(table.lookup(*a).map(norm), Some(want), "{dwarf}: address {a:#x}");
        }
        assert!(deepest >= 3, "{dwarf}: no address is two inlined calls deep");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
