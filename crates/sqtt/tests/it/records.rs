//! Shader-data and perf-counter records of synthetic streams. The expected rows are what AMD's
//! rocprof-trace-decoder 0.1.6 reports for the same bytes (checked with the AMD backend's
//! `synthetic_shaderdata_and_perf_agree_when_available` test).

use rocprof_sqtt::{CodeObject, Decoder, Family, PerfEvent, ShaderData};

#[test]
fn gfx12_shader_data_records() {
    let mut nibbles: Vec<u8> = Vec::new();
    let mut push = |value: u64, n: usize| nibbles.extend((0..n).map(|i| ((value >> (4 * i)) & 0xf) as u8));
    push(0x11 | (4 << 7), 16);
    push(0x06 | (2 << 7) | (1 << 10) | (2 << 11) | (5 << 13) | (7 << 17) | (0x1234_5678 << 22) | (1 << 54), 14);
    push(0x46 | (1 << 7) | (3 << 13) | (1 << 17) | (0xab << 22), 8);
    nibbles.resize(128, 0);
    let data: Vec<u8> = nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect();
    let code = CodeObject::from_text(Family::Gfx12, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
    let d = Decoder::new(&code).decode(&data).unwrap();
    assert_eq!(
        d.shaderdata,
        vec![
            ShaderData { time: 2, value: 0x1234_5678, cu: 0x85, simd: 2, wave_id: 7, flags: 2 },
            ShaderData { time: 3, value: 0xab, cu: 3, simd: 0, wave_id: 1, flags: 1 },
        ]
    );
}

#[test]
fn gfx9_userdata_and_perf_records() {
    let mut data = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
    let ud: u64 = 12 | (3 << 6) | (2 << 10) | (1 << 14) | (0xdead_beef << 16);
    data.extend_from_slice(&ud.to_le_bytes()[..6]);
    data.extend_from_slice(&(5u16 << 4).to_le_bytes());
    let perf: u64 = 14 | (2 << 6) | (1 << 10) | (1 << 12) | (2 << 25) | (3 << 38) | (4 << 51);
    data.extend_from_slice(&perf.to_le_bytes());
    data.resize(64, 0);
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &0xbf81_0000u32.to_le_bytes(), 0);
    let d = Decoder::new(&code).decode(&data).unwrap();
    assert_eq!(d.shaderdata, vec![ShaderData { time: 0, value: 0xdead_beef, cu: 3, simd: 1, wave_id: 2, flags: 0 }]);
    assert_eq!(d.perfevents, vec![PerfEvent { time: 12, events: [1, 2, 3, 4], cu: 2, bank: 1 }]);
}

#[test]
fn new_pc_reanchors_the_walk_after_an_indirect_jump() {
    // 0x1000 v_mov_b32 ; 0x1004 s_setpc_b64 ; 0x1008 v_mov_b32 ; 0x100c s_nop 0 ; 0x1010 s_endpgm.
    // Trace: VALU, INST op 5 (jump), NEW_PC 0x100c, IMMEDIATE, wave end. AMD's decoder reports
    // the PCs 0x1000, 0x1004, 0x100c, 0x1010 for the same bytes (both layouts).
    let words = [0x7e00_0280u32, 0xbe80_4800, 0x7e00_0280, 0xbf80_0000, 0xbfb0_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    for (layout, family) in [(3u64, Family::Gfx11), (4, Family::Gfx12)] {
        let code = CodeObject::from_text(family, 0x1000, &text, 0);
        let inst = if layout == 3 { 0x2 | (1 << 4) | (5 << 13) } else { 0x2 | (1 << 3) | (5 << 12) };
        let mut nibbles: Vec<u8> = Vec::new();
        let mut push =
            |v: u64, n: usize| nibbles.extend((0..n).map(|i| if i < 16 { ((v >> (4 * i)) & 0xf) as u8 } else { 0 }));
        push(0x11 | (layout << 7), 16);
        push(0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16);
        push(0x0c | (1 << 5), 8);
        push(0x3 | (1 << 3), 3);
        push(inst, 5);
        push(0x21 | (1 << 8) | ((0x100c / 4) << 16), if layout == 3 { 16 } else { 18 });
        push(0xd | (1 << 4), 3);
        push(0x15 | (7 << 5), 5);
        nibbles.resize(256, 0);
        let data: Vec<u8> = nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect();
        let d = Decoder::new(&code).decode(&data).unwrap();
        let pcs: Vec<u64> = d.waves[0].instructions.iter().map(|i| i.pc).collect();
        assert_eq!(pcs, vec![0x1000, 0x1004, 0x100c, 0x1010], "layout {layout}");
    }
}

#[test]
fn gfx9_issue_phase_per_simd() {
    // Three VALUs per wave; the INST token comes `gap` MISC steps (4 cycles each) after the
    // issue. Durations are what AMD's decoder reports for these bytes: the issue phase depends
    // on the SIMD and a counter that starts at 3.
    let words = [0x7e00_0280u32, 0x7e00_0280, 0x7e00_0280, 0xbf80_0000, 0xbf81_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &text, 0);
    let want = [[4, 8, 12], [8, 12, 16], [8, 12, 16], [4, 8, 12]];
    for simd in 0..4u64 {
        for gap in 1..4u64 {
            let mut data = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
            let mut push = |v: u64, words: usize| data.extend_from_slice(&v.to_le_bytes()[..2 * words]);
            push(0xf | (1 << 7) | (0x0c << 9) | (0x10 << 16), 3);
            push(0x3 | (simd << 14), 2);
            push(2 << 4, 1);
            for k in 0..3 {
                if k > 0 {
                    push(4 << 4, 1);
                }
                push(0xd | (simd << 5) | (2 << 8), 2);
                push(gap << 4, 1);
                push(0xa | (simd << 9) | (5 << 11), 1);
            }
            push(2 << 4, 1);
            push(0x6 | (simd << 14), 1);
            data.resize(96, 0);
            let d = Decoder::new(&code).decode(&data).unwrap();
            let durations: Vec<i64> = d.waves[0].instructions.iter().map(|i| i.duration).collect();
            let w = want[simd as usize][gap as usize - 1];
            assert_eq!(durations, vec![w, w, w], "simd {simd} gap {gap}");
        }
    }
}

#[test]
fn gfx11_shader_data_records() {
    // Layout 3: SHADER_DATA (52 bits) wgp 5, SA 1, simd 2, wave 7, value 0x12345678; SHADER_DATA
    // with the invalid bit (dropped); SHADER_DATA_SHORT (28 bits) wgp 3, wave 1, value 0xab.
    let mut nibbles: Vec<u8> = Vec::new();
    let mut push = |value: u64, n: usize| nibbles.extend((0..n).map(|i| ((value >> (4 * i)) & 0xf) as u8));
    push(0x11 | (3 << 7), 16);
    push(0x06 | (2 << 5) | (1 << 8) | (2 << 9) | (5 << 11) | (7 << 15) | (0x1234_5678 << 20), 13);
    push(0x06 | (1 << 14) | (0x55 << 20), 13);
    push(0x16 | (1 << 5) | (3 << 11) | (1 << 15) | (0xab << 20), 7);
    nibbles.resize(128, 0);
    let data: Vec<u8> = nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect();
    let code = CodeObject::from_text(Family::Gfx11, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
    let d = Decoder::new(&code).decode(&data).unwrap();
    assert_eq!(
        d.shaderdata,
        vec![
            ShaderData { time: 2, value: 0x1234_5678, cu: 0x85, simd: 2, wave_id: 7, flags: 0 },
            ShaderData { time: 3, value: 0xab, cu: 3, simd: 0, wave_id: 1, flags: 1 },
        ]
    );
}

#[test]
fn wave64_instructions_take_twice_the_cycles() {
    // gfx11: VALUINST with the wave64 flag (bit 6), then INST op 34 (2-cycle VMEM) with w64h
    // (bit 7): AMD's decoder reports durations 2 and 4 for these.
    let words = [0x7e00_0280u32, 0xdc52_0000, 0x0000_0000, 0xbf80_0000, 0xbfb0_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = CodeObject::from_text(Family::Gfx11, 0x1000, &text, 0);
    let mut nibbles: Vec<u8> = Vec::new();
    let mut push = |v: u64, n: usize| nibbles.extend((0..n).map(|i| ((v >> (4 * i)) & 0xf) as u8));
    push(0x11 | (3 << 7), 16);
    push(0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16);
    push(0x0c | (1 << 5), 8);
    push(0x3 | (1 << 3) | (1 << 6), 3);
    push(0x2 | (1 << 4) | (1 << 7) | (34 << 13), 5);
    push(0xd | (4 << 4), 3);
    push(0x15 | (7 << 5), 5);
    nibbles.resize(128, 0);
    let data: Vec<u8> = nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect();
    let d = Decoder::new(&code).decode(&data).unwrap();
    let rows: Vec<(u64, i64)> = d.waves[0].instructions.iter().map(|i| (i.pc, i.duration)).collect();
    assert_eq!(&rows[..2], &[(0x1000, 2), (0x1004, 4)]);
}

#[test]
fn gfx9_inst_pc_reanchors_the_walk() {
    // 0x1000 v_mov ; 0x1004 s_setpc ; 0x1008 v_mov ; 0x100c s_nop ; 0x1010 s_endpgm. The wave
    // jumps back to 0x1000 once, then to 0x100c; AMD's decoder reports the same PCs.
    let words = [0x7e00_0280u32, 0xbe80_1d00, 0x7e00_0280, 0xbf80_0000, 0xbf81_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &text, 0);
    let mut data = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
    let mut push = |v: u64, words: usize| data.extend_from_slice(&v.to_le_bytes()[..2 * words]);
    let misc = |d: u64| d << 4;
    let issue = |status: u64| 0xd | (status << 8);
    let inst = |op: u64| 0xa | (op << 11);
    push(0xf | (1 << 7) | (0x0c << 9) | (0x10 << 16), 3);
    push(0x3, 2);
    for target in [0x1000u64, 0x100c] {
        push(misc(2), 1);
        push(issue(2), 2);
        push(misc(1), 1);
        push(inst(5), 1);
        push(misc(2), 1);
        push(issue(2), 2);
        push(misc(1), 1);
        push(inst(7), 1);
        push(0xb | ((target / 4) << 16), 4);
    }
    push(misc(3), 1);
    push(issue(3), 2);
    push(misc(3), 1);
    push(issue(2), 2);
    push(misc(1), 1);
    push(inst(15), 1);
    push(misc(2), 1);
    push(0x6, 1);
    data.resize(data.len() + 32, 0);
    let d = Decoder::new(&code).decode(&data).unwrap();
    let pcs: Vec<u64> = d.waves[0].instructions.iter().map(|i| i.pc).collect();
    assert_eq!(pcs, vec![0x1000, 0x1004, 0x1000, 0x1004, 0x100c, 0x1010]);
}
