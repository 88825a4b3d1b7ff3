//! Asks AMD's decoder how long each RDNA token type is: for every type pattern, a stream with
//! that token (other bits zero) padded to N nibbles and followed by a wave start/end pair is
//! decoded; the smallest N for which the pair is still found is AMD's token size. Prints
//! `layout pattern amd_nibbles native_nibbles`. Needs `ROCPROF_ATT_LIBRARY_PATH`.

use rocprof_sqtt::format::rdna::{LAYOUT3, LAYOUT4};
use rocprof_sqtt::{CodeObject, Family};
use rocprof_sqtt_amd::AmdDecoder;

fn stream(layout: u64, pattern: u64, n: usize) -> Vec<u8> {
    let mut nib: Vec<u8> = Vec::new();
    let mut push = |v: u64, k: usize| nib.extend((0..k).map(|i| ((v >> (4 * i)) & 0xf) as u8));
    push(0x11 | (layout << 7), 16);
    push(pattern, n.min(16));
    if n > 16 {
        push(0, n - 16);
    }
    push(0x0c | (1 << 5), 8); // WAVESTART cu 0 slot 0, delta 1
    push(0x15 | (1 << 5), 5); // WAVEEND cu 0 slot 0
    nib.resize(nib.len().div_ceil(128) * 128 + 128, 0);
    nib.chunks(2).map(|c| c[0] | (c[1] << 4)).collect()
}

fn main() {
    let amd = AmdDecoder::load(None).unwrap_or_else(|e| {
        eprintln!("sqtt-probe: error: {e}");
        std::process::exit(1)
    });
    if std::env::var_os("PROBE_DEBUG").is_some() {
        let code = CodeObject::from_text(Family::Gfx11, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
        let d = amd.decode(&stream(3, 0x08, 2), &code);
        println!("{d:?}");
        let n = rocprof_sqtt::Decoder::new(&code).decode(&stream(3, 0x08, 2));
        println!("{n:?}");
        return;
    }
    for (layout, family, table) in [(3u64, Family::Gfx11, &LAYOUT3), (4, Family::Gfx12, &LAYOUT4)] {
        let code = CodeObject::from_text(family, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
        let mut seen = std::collections::BTreeSet::new();
        for byte in 1u64..256 {
            let kind = table.kind_by_byte[byte as usize];
            // one representative per pattern: the smallest byte value of each kind
            if !seen.insert(format!("{kind:?}")) {
                continue;
            }
            let mut amd_n = None;
            for n in 1..=20 {
                let Ok(d) = amd.decode(&stream(layout, byte, n), &code) else { continue };
                let ok = d.occupancy.iter().any(|o| o.start && o.wave_id == 0 && o.cu == 0)
                    && d.occupancy.iter().any(|o| !o.start && o.wave_id == 0 && o.cu == 0);
                if ok {
                    amd_n = Some(n);
                    break;
                }
            }
            println!("layout {layout} byte {byte:#04x} {kind:?} amd {amd_n:?} native {}", table.nibbles[kind as usize]);
        }
    }
}
