//! Decode throughput of the native SQTT decoder on the conformance corpus, per family.
//!
//! Every `seN.att` blob is decoded repeatedly until at least `ROCPROF_RS_SQTT_BENCH_MB`
//! (default 4) MB of it have gone through one decoder on one thread. Blobs of shader engines with
//! instruction tracing and wave-only blobs are reported separately. The corpus comes from
//! `ROCPROF_RS_SQTT_CORPUS`, else `<workspace>/../shared/conformance/sqtt`.
//!
//! When AMD's `librocprof-trace-decoder.so` can be loaded (`ROCPROF_ATT_LIBRARY_PATH` or the
//! library path), the same blobs are decoded with it too and the speed ratio is printed.

use rocprof_sqtt::{CodeObject, Decoder, Family};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn corpus_root() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ROCPROF_RS_SQTT_CORPUS") {
        return Some(PathBuf::from(p));
    }
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    while !dir.join("xtask").exists() {
        if !dir.pop() {
            return None;
        }
    }
    let p = dir.join("../shared/conformance/sqtt");
    p.is_dir().then_some(p)
}

struct Blob {
    family: Family,
    itrace: bool,
    code: usize,
    bytes: Vec<u8>,
}

fn field<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    let at = json.find(&format!("\"{key}\""))? + key.len() + 2;
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = rest.find([',', '}', '\n']).unwrap_or(rest.len());
    Some(rest[..end].trim().trim_matches('"'))
}

fn main() {
    let Some(root) = corpus_root() else {
        println!("sqtt-bench: corpus not found (set ROCPROF_RS_SQTT_CORPUS), nothing to measure");
        return;
    };
    let tokens_only = std::env::args().any(|a| a == "--tokens");
    let target_mb: f64 = std::env::var("ROCPROF_RS_SQTT_BENCH_MB").ok().and_then(|s| s.parse().ok()).unwrap_or(4.0);
    let mut codes = Vec::new();
    let mut blobs = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|a| std::fs::read_dir(a.path()).into_iter().flatten().flatten().map(|e| e.path()))
        .filter(|p| p.join("meta.json").exists())
        .collect();
    dirs.sort();
    for dir in dirs {
        let Ok(meta) = std::fs::read_to_string(dir.join("meta.json")) else { continue };
        let arch = field(&meta, "arch_dir").unwrap_or("");
        let Some(family) = Family::from_target(arch) else { continue };
        let Some(base) = field(&meta, "load_base").and_then(|s| s.parse::<u64>().ok()) else { continue };
        let Ok(elf) = std::fs::read(dir.join("code.elf")) else { continue };
        let Ok(code) = CodeObject::from_elf(family, &elf, base) else { continue };
        codes.push(code);
        // Shader engines 0 and 1 carry instruction tokens in this corpus (meta.json itrace_se).
        for se in 0.. {
            let Ok(bytes) = std::fs::read(dir.join(format!("se{se}.att"))) else { break };
            blobs.push(Blob { family, itrace: se < 2, code: codes.len() - 1, bytes });
        }
    }
    println!("sqtt-bench: {} blobs, each decoded until {target_mb} MB went through (one thread)", blobs.len());
    let amd = rocprof_sqtt_amd::AmdDecoder::load(None).ok();
    if amd.is_none() {
        println!("sqtt-bench: AMD's decoder not found (set ROCPROF_ATT_LIBRARY_PATH to compare)");
    }
    for family in [Family::Gfx9, Family::Gfx11, Family::Gfx12] {
        for itrace in [true, false] {
            let set: Vec<&Blob> = blobs.iter().filter(|b| b.family == family && b.itrace == itrace).collect();
            if set.is_empty() {
                continue;
            }
            let (mut bytes, mut secs, mut insts) = (0usize, 0f64, 0usize);
            for b in &set {
                let mut dec = Decoder::new(&codes[b.code]);
                let reps = ((target_mb * 1e6) / b.bytes.len() as f64).ceil() as usize;
                let t = Instant::now();
                for _ in 0..reps {
                    if tokens_only {
                        // Token reading alone, to separate it from wave reconstruction.
                        insts += count_tokens(family, &b.bytes);
                        continue;
                    }
                    let d = dec.decode(std::hint::black_box(&b.bytes)).expect("corpus blob decodes");
                    insts += d.waves.iter().map(|w| w.instructions.len()).sum::<usize>();
                }
                secs += t.elapsed().as_secs_f64();
                bytes += reps * b.bytes.len();
            }
            println!(
                "sqtt-bench: {:<5} {:<17} {:>4} blobs {:>8.1} MB in {:>6.3} s = {:>7.1} MB/s ({:.1} M {}/s)",
                format!("{family:?}").to_lowercase(),
                if itrace { "instruction-trace" } else { "wave-only" },
                set.len(),
                bytes as f64 / 1e6,
                secs,
                bytes as f64 / 1e6 / secs,
                insts as f64 / 1e6 / secs,
                if tokens_only { "tokens" } else { "instructions" }
            );
            if let (Some(amd), false) = (&amd, tokens_only) {
                let (mut abytes, mut asecs) = (0usize, 0f64);
                for b in &set {
                    let reps = ((target_mb * 1e6 / 4.0) / b.bytes.len() as f64).ceil() as usize;
                    let t = Instant::now();
                    for _ in 0..reps {
                        amd.decode(std::hint::black_box(&b.bytes), &codes[b.code]).expect("AMD decodes corpus blob");
                    }
                    asecs += t.elapsed().as_secs_f64();
                    abytes += reps * b.bytes.len();
                }
                let amd_mbs = abytes as f64 / 1e6 / asecs;
                println!(
                    "sqtt-bench: {:<5} {:<17} AMD's decoder {:>7.1} MB/s; native is {:.1}x faster",
                    format!("{family:?}").to_lowercase(),
                    if itrace { "instruction-trace" } else { "wave-only" },
                    amd_mbs,
                    (bytes as f64 / 1e6 / secs) / amd_mbs
                );
            }
        }
    }
}

fn count_tokens(family: Family, bytes: &[u8]) -> usize {
    match family {
        Family::Gfx9 => bytes.len() / 2,
        Family::Gfx11 | Family::Gfx12 => match rocprof_sqtt::tokens::RdnaTokens::new(std::hint::black_box(bytes)) {
            Ok(t) => t.count(),
            Err(_) => 0,
        },
    }
}
