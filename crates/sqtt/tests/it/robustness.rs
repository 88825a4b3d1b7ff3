//! Robustness: truncated, bit-flipped and random input never panics or hangs, errors carry an
//! offset, and output stays proportional to the input.

use crate::corpus::{corpus_root, examples};
use rocprof_sqtt::{CodeObject, DecodeErrorKind, Decoder, Family, SeDecode};
use std::time::{Duration, Instant};

/// xorshift64*: deterministic pseudo-random bytes without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// A small loop kernel per family: s_nop, a VALU, a backward conditional branch, s_endpgm.
fn synthetic_code(family: Family) -> CodeObject {
    let words: &[u32] = match family {
        // v_mov_b32 v0, 0 ; s_nop 0 ; s_cbranch_scc0 -3 ; s_endpgm
        Family::Gfx9 => &[0x7e00_0280, 0xbf80_0000, 0xbf84_fffd, 0xbf81_0000],
        Family::Gfx11 | Family::Gfx12 => &[0x7e00_0280, 0xbf80_0000, 0xbfa1_fffd, 0xbfb0_0000],
    };
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    CodeObject::from_text(family, 0x1000, &text, 0)
}

fn header(family: Family) -> Vec<u8> {
    match family {
        Family::Gfx9 => 0x0000_0000_000f_8011u64.to_le_bytes().to_vec(),
        Family::Gfx11 => (0x11u64 | (3 << 7)).to_le_bytes().to_vec(),
        Family::Gfx12 => (0x11u64 | (4 << 7)).to_le_bytes().to_vec(),
    }
}

/// Decodes and checks the properties every result must have.
fn check(dec: &mut Decoder<'_>, data: &[u8], what: &str) -> Option<SeDecode> {
    let start = Instant::now();
    let r = dec.decode(data);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "{what}: decode of {} bytes took {took:?}", data.len());
    match r {
        Ok(d) => {
            // Every record is backed by at least one token of 4 bits or more (occupancy rows:
            // two per wave token at most; instructions: a few per token at most).
            let bound = 8 * data.len() + 64;
            let insts: usize = d.waves.iter().map(|w| w.instructions.len()).sum();
            assert!(
                d.occupancy.len() <= bound,
                "{what}: {} occupancy rows from {} bytes",
                d.occupancy.len(),
                data.len()
            );
            assert!(insts <= 4 * bound, "{what}: {insts} instructions from {} bytes", data.len());
            assert!(d.waves.len() <= bound, "{what}: {} waves", d.waves.len());
            Some(d)
        }
        Err(e) => {
            assert!(e.offset <= data.len() as u64, "{what}: error offset {} past {} bytes", e.offset, data.len());
            None
        }
    }
}

fn corpus_streams(family: Family) -> Vec<(CodeObject, Vec<Vec<u8>>)> {
    let Some(root) = corpus_root(&format!("{family:?} robustness on corpus streams")) else { return Vec::new() };
    examples(&root)
        .into_iter()
        .filter(|e| e.family() == family && !e.name.ends_with("_run1"))
        .map(|e| (e.code(), e.streams().into_iter().map(|s| s.2).collect()))
        .collect()
}

fn family_robustness(family: Family, seed: u64) {
    let mut rng = Rng(seed);
    let synth = synthetic_code(family);

    // Random bodies behind a valid header, and fully random buffers.
    let mut dec = Decoder::new(&synth);
    for i in 0..200 {
        let n = rng.below(16 * 1024);
        let mut data = header(family);
        data.extend(rng.bytes(n));
        check(&mut dec, &data, &format!("{family:?} random body #{i}"));
        let len = rng.below(4096);
        let raw = rng.bytes(len);
        check(&mut dec, &raw, &format!("{family:?} random buffer #{i}"));
    }
    // A long random stream exercises unbounded growth paths (one 1 MiB decode).
    let mut data = header(family);
    data.extend(rng.bytes(1 << 20));
    check(&mut dec, &data, &format!("{family:?} 1 MiB random"));

    // Truncations and bit flips of real streams, when the corpus is present.
    let corpus = corpus_streams(family);
    if corpus.is_empty() {
        println!("robustness {family:?}: corpus not found, synthetic input only");
    }
    for (code, streams) in &corpus {
        let mut dec = Decoder::new(code);
        for s in streams.iter().take(3) {
            let full = check(&mut dec, s, "full stream").expect("corpus stream decodes");
            let step = (s.len() / 97).max(1);
            for cut in (0..s.len()).step_by(step) {
                if let Some(d) = check(&mut dec, &s[..cut], &format!("{family:?} truncated at {cut}")) {
                    assert!(d.occupancy.len() <= full.occupancy.len() + 64, "truncation cannot add records");
                }
            }
            for i in 0..150 {
                let mut m = s.clone();
                for _ in 0..1 + rng.below(8) {
                    let at = rng.below(m.len());
                    m[at] ^= 1 << rng.below(8);
                }
                check(&mut dec, &m, &format!("{family:?} bit flips #{i}"));
            }
        }
    }
}

#[test]
fn gfx9_damaged_input_never_panics() {
    family_robustness(Family::Gfx9, 0x9e37_79b9_7f4a_7c15);
}

#[test]
fn gfx11_damaged_input_never_panics() {
    family_robustness(Family::Gfx11, 0xd1b5_4a32_d192_ed03);
}

#[test]
fn gfx12_damaged_input_never_panics() {
    family_robustness(Family::Gfx12, 0x8cb9_2ba7_2f3d_8dd7);
}

#[test]
fn unusable_streams_are_typed_errors_with_offsets() {
    let code = synthetic_code(Family::Gfx11);
    let mut dec = Decoder::new(&code);
    let e = dec.decode(&[0u8; 64]).unwrap_err();
    assert_eq!((e.offset, e.kind), (0, DecodeErrorKind::UnknownLayout(0)));
    let e = dec.decode(&[0x11, 0x01]).unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::TruncatedHeader);
    let gfx9 = synthetic_code(Family::Gfx9);
    let mut dec = Decoder::new(&gfx9);
    let e = dec.decode(&0x0000_0000_000f_f011u64.to_le_bytes()).unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::BadGfx9Header(7));
    assert_eq!(e.to_string(), "unsupported gfx9 trace header version 7 at byte offset 0");
}

#[test]
fn synthetic_rdna_wave_walks_the_loop() {
    // gfx11 stream: header (target WGP 0 SIMD 0), PGM_LO = 0x10 (entry 0x1000), a wave start,
    // VALU, IMMEDIATE (s_nop), INST taken branch, VALU, IMMEDIATE, INST not taken, wave end.
    let mut nibbles: Vec<u8> = Vec::new();
    let mut push = |value: u64, n: usize| {
        for i in 0..n {
            nibbles.push(((value >> (4 * i)) & 0xf) as u8);
        }
    };
    push(0x11 | (3 << 7), 16);
    push(0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16); // REG CS PGM_LO
    push(0x0c | (1 << 5), 8); // WAVESTART slot 0, delta 1
    push(0x3 | (1 << 3), 3); // VALUINST slot 0 (v_mov)
    push(0xd | (1 << 4), 3); // IMMEDIATE slot 0 (s_nop)
    push(0x2 | (1 << 4) | (3 << 13), 5); // INST op 3 = branch taken
    push(0x3 | (1 << 3), 3);
    push(0xd | (1 << 4), 3);
    push(0x2 | (1 << 4) | (4 << 13), 5); // INST op 4 = not taken
    push(0x15 | (7 << 5), 5); // WAVEEND slot 0 after 7 cycles
    if nibbles.len() % 2 == 1 {
        nibbles.push(0);
    }
    let data: Vec<u8> = nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect();
    let code = synthetic_code(Family::Gfx11);
    let d = Decoder::new(&code).decode(&data).unwrap();
    assert_eq!(d.gfxip, 11);
    assert_eq!(d.occupancy.len(), 2);
    assert_eq!(d.waves.len(), 1);
    let pcs: Vec<u64> = d.waves[0].instructions.iter().map(|i| i.pc).collect();
    assert_eq!(pcs, vec![0x1000, 0x1004, 0x1008, 0x1000, 0x1004, 0x1008, 0x100c]);
    let cats: Vec<_> = d.waves[0].instructions.iter().map(|i| i.category.name()).collect();
    assert_eq!(cats, vec!["VALU", "IMMED", "JUMP", "VALU", "IMMED", "NEXT", "MESSAGE"]);
    let w = &d.waves[0];
    let span: i64 = w.timeline.iter().map(|s| s.1).sum();
    assert_eq!(span, w.end_time - w.begin_time);
}
