//! Prints the tokens of one SQTT stream (RDNA layout 3/4, or gfx9 with its 8-byte capture
//! header) with their times: `sqtt-dump FILE [FROM_TIME TO_TIME]`.

use rocprof_sqtt::format::rdna;
use rocprof_sqtt::tokens::{Gfx9Tokens, RdnaTokens};
use rocprof_sqtt::Family;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: sqtt-dump FILE [FROM_TIME TO_TIME]");
        std::process::exit(2);
    };
    let from: i64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(i64::MIN);
    let to: i64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(i64::MAX);
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("sqtt-dump: error: reading {path}: {e}");
            std::process::exit(1);
        }
    };
    if Family::sniff(&data) == Some(Family::Gfx9) {
        dump_gfx9(&data, from, to, path);
        return;
    }
    let toks = match RdnaTokens::new(&data) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sqtt-dump: error: {path}: {e}");
            std::process::exit(1);
        }
    };
    let layout = toks.layout();
    let mut out = std::io::stdout().lock();
    for t in toks {
        match t {
            Ok(t) if t.time >= from && t.time <= to => {
                let detail = match t.kind {
                    rdna::RdnaKind::Inst => format!("{:?}", rdna::inst(t.raw, layout)),
                    rdna::RdnaKind::ValuInst | rdna::RdnaKind::Immediate => format!("slot {}", rdna::slot7(t.raw)),
                    rdna::RdnaKind::WaveRdy | rdna::RdnaKind::ImmediateMask => {
                        format!("mask {:#x}", rdna::mask16(t.raw))
                    }
                    rdna::RdnaKind::WaveStart => format!("{:?}", rdna::wave_start(t.raw, layout)),
                    rdna::RdnaKind::WaveEnd => format!("{:?}", rdna::wave_end(t.raw, layout)),
                    _ => format!("{:#x}", t.raw),
                };
                if writeln!(out, "{:>10} {:>7} {:?} {}", t.time, t.nibble, t.kind, detail).is_err() {
                    return; // e.g. a closed pipe
                }
            }
            Ok(_) => {}
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
            }
        }
    }
}

fn dump_gfx9(data: &[u8], from: i64, to: i64, path: &str) {
    let toks = match Gfx9Tokens::new(data) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sqtt-dump: error: {path}: {e}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "header {:?}", toks.header());
    const NAMES: [&str; 16] = [
        "MISC",
        "TIMESTAMP",
        "REG",
        "WAVESTART",
        "WAVEALLOC",
        "REG_CS",
        "WAVEEND",
        "EVENT",
        "EVENT_CS",
        "EVENT_GFX1",
        "INST",
        "INST_PC",
        "USERDATA",
        "ISSUE",
        "PERF",
        "REG_CS_PRIV",
    ];
    for t in toks {
        match t {
            Ok(t) if t.time >= from && t.time <= to => {
                if writeln!(out, "{:>10} {:>7} {} {:#x}", t.time, t.offset, NAMES[usize::from(t.kind & 0xf)], t.raw)
                    .is_err()
                {
                    return;
                }
            }
            Ok(_) => {}
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
            }
        }
    }
}
