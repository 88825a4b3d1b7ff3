//! Decodes one stream with both backends and prints where they differ:
//! `sqtt-diff TARGET CODE.elf LOAD_BASE STREAM` (AMD's library from `ROCPROF_ATT_LIBRARY_PATH`).

use rocprof_sqtt::{CodeObject, Decoder, Family};
use rocprof_sqtt_amd::AmdDecoder;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 5 {
        eprintln!("usage: sqtt-diff TARGET CODE.elf LOAD_BASE STREAM");
        std::process::exit(2);
    }
    let family = Family::from_target(&a[1]).expect("known target");
    let base: u64 = a[3].parse().expect("decimal load base");
    let code = CodeObject::from_elf(family, &std::fs::read(&a[2]).expect("code object"), base).expect("elf");
    let file = std::fs::read(&a[4]).expect("stream");
    let stream = &file[..];
    let amd = AmdDecoder::load(None).unwrap_or_else(|e| {
        eprintln!("sqtt-diff: error: {e}");
        std::process::exit(1)
    });
    let mut x = amd.decode(stream, &code).expect("AMD decode");
    let mut y = Decoder::new(&code).decode(stream).expect("native decode");
    for d in [&mut x, &mut y] {
        // AMD's decoder does not count skipped unknown tokens.
        d.unknown_tokens = 0;
        d.damage = None;
        d.occupancy.sort_by_key(|o| (o.time, o.cu, o.simd, o.wave_id, o.start, o.pc));
        d.waves.sort_by_key(|w| (w.cu, w.simd, w.wave_id, w.begin_time, w.end_time));
    }
    let rel = |pc: u64| if pc == 0 { -1 } else { pc.wrapping_sub(base) as i64 };
    println!("occupancy amd {} native {} equal {}", x.occupancy.len(), y.occupancy.len(), x.occupancy == y.occupancy);
    for (i, (p, q)) in x.occupancy.iter().zip(&y.occupancy).enumerate() {
        if p != q {
            println!("  occ {i}: amd {p:?}\n          ours {q:?}");
            break;
        }
    }
    if std::env::var_os("SQTT_DIFF_OCC").is_some() {
        for o in &x.occupancy {
            if !y.occupancy.contains(o) {
                println!("  only amd: {o:?}");
            }
        }
        for o in &y.occupancy {
            if !x.occupancy.contains(o) {
                println!("  only ours: {o:?}");
            }
        }
    }
    println!(
        "realtime equal {} other_simd equal {} info amd {:?} ours {:?}",
        x.realtime == y.realtime,
        x.other_simd == y.other_simd,
        x.info,
        y.info
    );
    if x.realtime != y.realtime {
        println!("realtime amd {} ours {}", x.realtime.len(), y.realtime.len());
        for (i, (p, q)) in x.realtime.iter().zip(&y.realtime).enumerate() {
            if p != q {
                println!("  rt {i}: amd {p:?} ours {q:?}");
            }
        }
        if x.realtime.len() > y.realtime.len() {
            println!("  amd extra {:?}", &x.realtime[y.realtime.len()..]);
        } else {
            println!("  ours extra {:?}", &y.realtime[x.realtime.len()..]);
        }
    }
    if x.shaderdata != y.shaderdata || x.perfevents != y.perfevents || x.gfxip != y.gfxip {
        println!(
            "shaderdata amd {:?}\n  ours {:?}\nperf amd {:?}\n  ours {:?}",
            x.shaderdata, y.shaderdata, x.perfevents, y.perfevents
        );
    }
    println!("waves amd {} native {}", x.waves.len(), y.waves.len());
    for (p, q) in x.waves.iter().zip(&y.waves) {
        if p == q {
            continue;
        }
        println!(
            "wave amd cu {} simd {} slot {} {}..{} ({} insts) ours {}..{} ({} insts)",
            p.cu,
            p.simd,
            p.wave_id,
            p.begin_time,
            p.end_time,
            p.instructions.len(),
            q.begin_time,
            q.end_time,
            q.instructions.len()
        );
        for (i, (r, s)) in p.instructions.iter().zip(&q.instructions).enumerate() {
            if r != s {
                for j in i.saturating_sub(2)..(i + 3).min(p.instructions.len()).min(q.instructions.len()) {
                    let (r, s) = (&p.instructions[j], &q.instructions[j]);
                    println!(
                        "  row {j}: amd [{}, {}, {}, {}, {}] ours [{}, {}, {}, {}, {}]",
                        rel(r.pc),
                        r.time,
                        r.stall,
                        r.duration,
                        r.category.name(),
                        rel(s.pc),
                        s.time,
                        s.stall,
                        s.duration,
                        s.category.name()
                    );
                }
                break;
            }
        }
        if p.timeline != q.timeline {
            println!("  timeline amd {:?}\n  timeline ours {:?}", p.timeline, q.timeline);
        }
    }
    std::process::exit(i32::from(x != y));
}
