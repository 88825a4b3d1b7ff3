//! Decode throughput of the native SQTT decoder on the conformance corpus, per family.
//!
//! Every `seN.att` blob is decoded repeatedly until at least `ROCPROF_RS_SQTT_BENCH_MB`
//! (default 4) MB of it have gone through one decoder on one thread, split over `--rounds`
//! (default 5) rounds whose fastest counts. Blobs of shader engines with
//! instruction tracing and wave-only blobs are reported separately. The corpus comes from
//! `ROCPROF_RS_SQTT_CORPUS`, else `<workspace>/../shared/conformance/sqtt`.
//!
//! When AMD's `librocprof-trace-decoder.so` can be loaded (`ROCPROF_ATT_LIBRARY_PATH` or the
//! library path), the same blobs are decoded with it too, in rounds alternating with ours, and
//! the speed ratio of the best rounds is printed. `--family gfx9|gfx11|gfx12` measures one
//! family only (for example under callgrind).

use rocprof_launch::names;
use rocprof_sqtt::{CodeObject, Decoder, Family};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn corpus_root() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(names::SQTT_CORPUS) {
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
    // `--family gfx12` (or gfx9, gfx11) measures one family only, e.g. under callgrind.
    let only: Option<Family> = std::env::args().skip_while(|a| a != "--family").nth(1).map(|f| match f.as_str() {
        "gfx9" => Family::Gfx9,
        "gfx11" => Family::Gfx11,
        "gfx12" => Family::Gfx12,
        _ => panic!("--family: expected gfx9, gfx11 or gfx12, got '{f}'"),
    });
    let target_mb: f64 = std::env::var(names::SQTT_BENCH_MB).ok().and_then(|s| s.parse().ok()).unwrap_or(4.0);
    let rounds: usize = std::env::args()
        .skip_while(|a| a != "--rounds")
        .nth(1)
        .map(|r| r.parse().expect("--rounds takes a number"))
        .unwrap_or(5)
        .max(1);
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
        if only.is_some_and(|f| f != family) {
            continue;
        }
        for itrace in [true, false] {
            let set: Vec<&Blob> = blobs.iter().filter(|b| b.family == family && b.itrace == itrace).collect();
            if set.is_empty() {
                continue;
            }
            // Native and AMD alternate over `rounds` rounds and the best round of each counts, so
            // that load from other processes on the machine hits both alike.
            let mut native = Best::default();
            let mut theirs = Best::default();
            for _ in 0..rounds {
                let (mut bytes, mut secs, mut insts) = (0usize, 0f64, 0usize);
                for b in &set {
                    let mut dec = Decoder::new(&codes[b.code]);
                    let reps = ((target_mb * 1e6 / rounds as f64) / b.bytes.len() as f64).ceil() as usize;
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
                native.add(bytes, secs, insts);
                if let (Some(amd), false) = (&amd, tokens_only) {
                    let (mut bytes, mut secs) = (0usize, 0f64);
                    for b in &set {
                        let reps = ((target_mb * 1e6 / 4.0 / rounds as f64) / b.bytes.len() as f64).ceil() as usize;
                        let t = Instant::now();
                        for _ in 0..reps {
                            amd.decode(std::hint::black_box(&b.bytes), &codes[b.code])
                                .expect("AMD decodes corpus blob");
                        }
                        secs += t.elapsed().as_secs_f64();
                        bytes += reps * b.bytes.len();
                    }
                    theirs.add(bytes, secs, 0);
                }
            }
            let label = if itrace { "instruction-trace" } else { "wave-only" };
            let fam = format!("{family:?}").to_lowercase();
            println!(
                "sqtt-bench: {fam:<5} {label:<17} {:>4} blobs {:>8.1} MB/round, best of {rounds}: {:>7.1} MB/s ({:.1} M {}/s)",
                set.len(),
                native.bytes as f64 / 1e6,
                native.mbs(),
                native.items as f64 / 1e6 / native.secs,
                if tokens_only { "tokens" } else { "instructions" }
            );
            if theirs.secs > 0.0 {
                println!(
                    "sqtt-bench: {fam:<5} {label:<17} AMD's decoder {:>7.1} MB/s; native is {:.1}x faster",
                    theirs.mbs(),
                    native.mbs() / theirs.mbs()
                );
            }
        }
    }
}

/// The fastest round of a measurement.
#[derive(Default)]
struct Best {
    bytes: usize,
    secs: f64,
    items: usize,
}

impl Best {
    fn mbs(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.secs
    }

    fn add(&mut self, bytes: usize, secs: f64, items: usize) {
        if self.secs == 0.0 || bytes as f64 / secs > self.bytes as f64 / self.secs {
            *self = Best { bytes, secs, items };
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
