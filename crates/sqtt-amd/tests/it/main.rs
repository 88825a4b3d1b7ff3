//! Integration tests of the AMD backend: clear errors without the library, and (when
//! `ROCPROF_ATT_LIBRARY_PATH` names AMD's decoder) agreement with the native decoder on the corpus.

use rocprof_sqtt::{CodeObject, Decoder, Family};
use rocprof_sqtt_amd::{candidates, AmdDecoder, Error, LIBRARY_NAME};
use std::path::{Path, PathBuf};

#[test]
fn missing_library_is_a_clear_error() {
    let missing = Path::new("/nonexistent/rocprof-rs-test/librocprof-trace-decoder.so");
    let err = AmdDecoder::load_from(&[missing.to_path_buf()]).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::Load { .. }), "{err:?}");
    assert!(msg.contains("cannot load AMD's trace decoder"), "{msg}");
    assert!(msg.contains("/nonexistent/rocprof-rs-test/librocprof-trace-decoder.so"), "{msg}");
    assert!(msg.contains("--att-library-path") && msg.contains("ROCPROF_ATT_LIBRARY_PATH"), "{msg}");
}

#[test]
fn a_library_without_the_entry_point_is_reported() {
    // libc is loadable but is not AMD's decoder.
    let err = AmdDecoder::load_from(&[PathBuf::from("libc.so.6")]).unwrap_err();
    assert!(err.to_string().contains("has no symbol rocprof_trace_decoder_parse_data"), "{err}");
}

#[test]
fn search_order_is_explicit_then_environment_then_loader() {
    let dir = std::env::temp_dir();
    let c = candidates(Some(&dir), Some("/opt/rocm/lib/librocprof-trace-decoder.so"));
    assert_eq!(
        c,
        vec![
            dir.join(LIBRARY_NAME),
            PathBuf::from("/opt/rocm/lib/librocprof-trace-decoder.so"),
            PathBuf::from(LIBRARY_NAME)
        ]
    );
    assert_eq!(candidates(None, Some("")), vec![PathBuf::from(LIBRARY_NAME)]);
}

/// The shared SQTT corpus (required: a failure under `CI=true` when absent).
#[track_caller]
fn corpus(test: &str) -> Option<PathBuf> {
    rocprof_test_inputs::shared(test, "conformance/sqtt")
}

/// True when AMD's closed decoder library is named by `ROCPROF_ATT_LIBRARY_PATH`; otherwise the
/// test skips (CI cannot have that library), saying so.
fn amd_library(test: &str) -> bool {
    if std::env::var_os(rocprof_sqtt_amd::LIBRARY_ENV).is_some() {
        return true;
    }
    rocprof_test_inputs::skip_optional(test, "ROCPROF_ATT_LIBRARY_PATH is not set (AMD's closed decoder library)");
    false
}

/// Needs AMD's library: runs only when `ROCPROF_ATT_LIBRARY_PATH` is set. Decodes every stream
/// of every corpus example (run-0 and run-1) with both decoders and requires identical records.
#[test]
fn agrees_with_the_native_decoder_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let Some(root) = corpus("missing_library_is_a_clear_error") else { return };
    let amd = AmdDecoder::load(None).expect("ROCPROF_ATT_LIBRARY_PATH names a loadable decoder");
    let (mut compared, mut differing) = (0, Vec::new());
    let mut with_llvm = 0;
    for (arch, cpu, family) in [
        ("gfx1100", "gfx1100", Family::Gfx11),
        ("gfx1200", "gfx1201", Family::Gfx12),
        ("gfx950", "gfx950", Family::Gfx9),
    ] {
        // With LLVM's text (what rocprofiler-sdk passes), when an LLVM for this target is installed.
        let llvm = rocprof_sqtt_amd::llvm::LlvmDisassembler::load(cpu).ok();
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(arch)).unwrap().flatten().map(|e| e.path()).collect();
        dirs.sort();
        for dir in dirs {
            let meta = std::fs::read_to_string(dir.join("meta.json")).unwrap();
            let base: u64 =
                meta.split("\"load_base\":").nth(1).unwrap().split(',').next().unwrap().trim().parse().unwrap();
            let code = CodeObject::from_elf(family, &std::fs::read(dir.join("code.elf")).unwrap(), base).unwrap();
            let mut native = Decoder::new(&code);
            for se in 0.. {
                let Ok(bytes) = std::fs::read(dir.join(format!("se{se}.att"))) else { break };
                let mut a = match &llvm {
                    Some(l) => {
                        with_llvm += 1;
                        let prog = code.program();
                        let elf = std::fs::read(dir.join("code.elf")).unwrap();
                        let elf_text = rocprof_sqtt::elf::text_section(&elf).unwrap();
                        let text_base = base + elf_text.vaddr;
                        let mut text = |pc: u64| {
                            prog.line_at(pc)?;
                            let off = usize::try_from(pc - text_base).ok()?;
                            l.text(elf_text.bytes.get(off..)?, pc).map(|(t, _)| t)
                        };
                        amd.decode_with_text(&bytes, &code, &mut text).unwrap()
                    }
                    None => amd.decode(&bytes, &code).unwrap(),
                };
                let mut n = native.decode(&bytes).unwrap();
                for d in [&mut a, &mut n] {
                    d.unknown_tokens = 0;
                    d.damage = None;
                    d.occupancy.sort_by_key(|o| (o.time, o.cu, o.simd, o.wave_id, o.start, o.pc));
                    d.waves.sort_by_key(|w| (w.cu, w.simd, w.wave_id, w.begin_time, w.end_time));
                }
                if a != n {
                    differing.push(format!("{}/se{se}", dir.display()));
                }
                compared += 1;
            }
        }
    }
    println!(
        "AMD backend: {compared} streams compared ({with_llvm} with LLVM's instruction text), {} differ",
        differing.len()
    );
    assert!(differing.is_empty(), "streams where the decoders differ: {differing:?}");
}

/// Needs AMD's library: shader data and perf samples of synthetic streams decode alike.
#[test]
fn synthetic_shaderdata_and_perf_agree_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    // gfx9: USERDATA (cu 3, wave 2, simd 1), MISC +20 cycles, PERF (cu 2, bank 1), padding.
    let mut g9 = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
    let ud: u64 = 12 | (3 << 6) | (2 << 10) | (1 << 14) | (0xdead_beef << 16);
    g9.extend_from_slice(&ud.to_le_bytes()[..6]);
    g9.extend_from_slice(&(5u16 << 4).to_le_bytes());
    let perf: u64 = 14 | (2 << 6) | (1 << 10) | (1 << 12) | (2 << 25) | (3 << 38) | (4 << 51);
    g9.extend_from_slice(&perf.to_le_bytes());
    g9.resize(64, 0);
    let code9 = CodeObject::from_text(Family::Gfx9, 0x1000, &0xbf81_0000u32.to_le_bytes(), 0);
    let a = amd.decode(&g9, &code9).unwrap();
    let n = Decoder::new(&code9).decode(&g9).unwrap();
    println!("gfx9 shaderdata amd {:?} ours {:?}", a.shaderdata, n.shaderdata);
    println!("gfx9 perf amd {:?} ours {:?}", a.perfevents, n.perfevents);
    assert_eq!(a.shaderdata, n.shaderdata);
    assert_eq!(a.perfevents, n.perfevents);

    // gfx12: layout header, SHADER_DATA (wgp 5, sa 1, simd 2, wave 7, value 0x12345678,
    // privileged), SHADER_DATA_SHORT (value 0xab), then NOP padding to 64 bytes.
    let mut nibbles: Vec<u8> = Vec::new();
    let mut push = |value: u64, n: usize| nibbles.extend((0..n).map(|i| ((value >> (4 * i)) & 0xf) as u8));
    push(0x11 | (4 << 7), 16);
    push(0x06 | (2 << 7) | (1 << 10) | (2 << 11) | (5 << 13) | (7 << 17) | (0x1234_5678 << 22) | (1 << 54), 14);
    push(0x46 | (1 << 7) | (3 << 13) | (1 << 17) | (0xab << 22), 8);
    nibbles.resize(128, 0);
    let g12: Vec<u8> = nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect();
    let code12 = CodeObject::from_text(Family::Gfx12, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
    let a = amd.decode(&g12, &code12).unwrap();
    let n = Decoder::new(&code12).decode(&g12).unwrap();
    println!("gfx12 shaderdata amd {:?} ours {:?}", a.shaderdata, n.shaderdata);
    assert_eq!(a.shaderdata, n.shaderdata);
    assert_eq!(n.shaderdata.len(), 2);

    // gfx11: SHADER_DATA, an invalid one, SHADER_DATA_SHORT.
    let g11 = rdna_stream(&[
        (0x11 | (3 << 7), 16),
        (0x06 | (2 << 5) | (1 << 8) | (2 << 9) | (5 << 11) | (7 << 15) | (0x1234_5678 << 20), 13),
        (0x06 | (1 << 14) | (0x55 << 20), 13),
        (0x16 | (1 << 5) | (3 << 11) | (1 << 15) | (0xab << 20), 7),
    ]);
    let code11 = CodeObject::from_text(Family::Gfx11, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
    let a = amd.decode(&g11, &code11).unwrap();
    let n = Decoder::new(&code11).decode(&g11).unwrap();
    assert_eq!(a.shaderdata, n.shaderdata);
    assert_eq!(n.shaderdata.len(), 2);
}

/// LLVM's AMDGPU disassembler, when a suitable libLLVM is installed: real instruction text.
#[test]
fn llvm_text_provider_when_available() {
    use rocprof_sqtt_amd::llvm::LlvmDisassembler;
    let d = match LlvmDisassembler::load("gfx1100") {
        Ok(d) => d,
        Err(e) => {
            // libLLVM comes with clang-19, which CI installs.
            rocprof_test_inputs::skip_or_fail(
                "llvm_text_provider_when_available",
                format_args!("LLVM text provider: {e}"),
            );
            return;
        }
    };
    // Words from a gfx1100 code object with the text LLVM 19 prints for them.
    let cases: &[(&[u32], &str, usize)] = &[
        (&[0xbfb0_0000], "s_endpgm", 4),
        (&[0xf408_0100, 0xf800_0000], "s_load_b128 s[4:7], s[0:1], null", 8),
        (&[0xbfa5_002b], "s_cbranch_execz 43", 4),
        (&[0xbf89_fc07], "s_waitcnt lgkmcnt(0)", 4),
    ];
    for (words, want, size) in cases {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(d.text(&bytes, 0x1600), Some((want.to_string(), *size)), "{words:x?} via {}", d.library_path());
    }
    // Unknown processors are refused before LLVM sees them (LLVM would abort the process).
    let e = LlvmDisassembler::load("gfx0").unwrap_err();
    assert!(e.to_string().contains("cannot disassemble for gfx0"), "{e}");
}

/// Packs `(value, nibbles)` tokens into an RDNA stream padded with zero bytes.
fn rdna_stream(tokens: &[(u64, usize)]) -> Vec<u8> {
    let mut nibbles: Vec<u8> = Vec::new();
    for &(v, n) in tokens {
        nibbles.extend((0..n).map(|i| if i < 16 { ((v >> (4 * i)) & 0xf) as u8 } else { 0 }));
    }
    nibbles.resize(nibbles.len().div_ceil(64) * 64 + 64, 0);
    nibbles.chunks(2).map(|c| c[0] | (c[1] << 4)).collect()
}

/// Needs AMD's library: rare INST ops (trap, halt, RFE, barrier, jump) on a traced wave.
#[test]
fn synthetic_rare_inst_ops_agree_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    // v_mov_b32 v0, 0 ; s_nop 0 ; v_mov_b32 v0, 0 ; s_nop 0 ; s_endpgm
    let words = [0x7e00_0280u32, 0xbf80_0000, 0x7e00_0280, 0xbf80_0000, 0xbfb0_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    for (layout, family) in [(3u64, Family::Gfx11), (4, Family::Gfx12)] {
        let code = CodeObject::from_text(family, 0x1000, &text, 0);
        let inst =
            |op: u64| if layout == 3 { (0x2 | (1 << 4) | (op << 13), 5) } else { (0x2 | (1 << 3) | (op << 12), 5) };
        // A wave64 VALU (flag bit 6) next to a wave32 one.
        let toks = [
            (0x11 | (layout << 7), 16),
            (0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16),
            (0x0c | (1 << 5), 8),
            (0x3 | (1 << 3) | (1 << 6), 3),
            (0x3 | (1 << 3), 3),
            (0xd | (1 << 4), 3),
            (0x15 | (7 << 5), 5),
        ];
        let data = rdna_stream(&toks);
        let a = amd.decode(&data, &code).unwrap();
        let n = Decoder::new(&code).decode(&data).unwrap();
        assert_eq!(a.waves, n.waves, "layout {layout} wave64 VALU");
        // wave64 INST tokens (w64h bit) for a SALU, a VALU and a VMEM op.
        let w64 = if layout == 3 { 1u64 << 7 } else { 1 << 6 };
        for op in [0u64, 10, 12, 13, 33, 34, 44] {
            let (v, n) = inst(op);
            let toks = [
                (0x11 | (layout << 7), 16),
                (0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16),
                (0x0c | (1 << 5), 8),
                (v | w64, n),
                (0x3 | (1 << 3), 3),
                (0xd | (1 << 4), 3),
                (0x15 | (7 << 5), 5),
            ];
            let data = rdna_stream(&toks);
            let a = amd.decode(&data, &code).unwrap();
            let nat = Decoder::new(&code).decode(&data).unwrap();
            assert_eq!(a.waves, nat.waves, "layout {layout} wave64 op {op}");
        }
        for op in [0u64, 5, 6, 7, 8, 9, 19, 20, 117] {
            let toks = [
                (0x11 | (layout << 7), 16),
                (0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16),
                (0x0c | (1 << 5), 8),
                (0x3 | (1 << 3), 3),
                inst(op),
                (0xd | (1 << 4), 3),
                (0x3 | (2 << 3), 3),
                (0xd | (1 << 4), 3),
                (0x15 | (7 << 5), 5),
            ];
            let data = rdna_stream(&toks);
            let a = amd.decode(&data, &code).unwrap();
            let n = Decoder::new(&code).decode(&data).unwrap();
            assert_eq!(a.waves, n.waves, "layout {layout} op {op}");
            assert_eq!(a.occupancy, n.occupancy, "layout {layout} op {op}");
        }
    }
}

/// Needs AMD's library: an indirect jump re-anchored by a NEW_PC token.
#[test]
fn synthetic_new_pc_agrees_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    // 0x1000 v_mov_b32 ; 0x1004 s_setpc_b64 s[0:1] ; 0x1008 v_mov_b32 ; 0x100c s_nop 0 ; 0x1010 s_endpgm
    let words = [0x7e00_0280u32, 0xbe80_4800, 0x7e00_0280, 0xbf80_0000, 0xbfb0_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    for (layout, family) in [(3u64, Family::Gfx11), (4, Family::Gfx12)] {
        let code = CodeObject::from_text(family, 0x1000, &text, 0);
        let inst =
            |op: u64| if layout == 3 { (0x2 | (1 << 4) | (op << 13), 5) } else { (0x2 | (1 << 3) | (op << 12), 5) };
        let new_pc = (0x21 | (1 << 8) | ((0x100c / 4) << 16), if layout == 3 { 16 } else { 18 });
        let toks = [
            (0x11 | (layout << 7), 16),
            (0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16),
            (0x0c | (1 << 5), 8),
            (0x3 | (1 << 3), 3),
            inst(5),
            new_pc,
            (0xd | (1 << 4), 3),
            (0x15 | (7 << 5), 5),
        ];
        let data = rdna_stream(&toks);
        let a = amd.decode(&data, &code).unwrap();
        let n = Decoder::new(&code).decode(&data).unwrap();
        println!(
            "layout {layout}: amd {:?}",
            a.waves.first().map(|w| w.instructions.iter().map(|i| i.pc).collect::<Vec<_>>())
        );
        assert_eq!(a.waves, n.waves, "layout {layout}");
        let pcs: Vec<u64> = n.waves[0].instructions.iter().map(|i| i.pc).collect();
        assert_eq!(pcs, vec![0x1000, 0x1004, 0x100c, 0x1010], "layout {layout}");
    }
}

/// Builds a gfx9 stream (capture header, then tokens given as `(value, 16-bit words)`).
fn gfx9_stream(tokens: &[(u64, usize)]) -> Vec<u8> {
    let mut v = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
    for &(t, words) in tokens {
        v.extend_from_slice(&t.to_le_bytes()[..2 * words]);
    }
    v.resize(v.len().div_ceil(32) * 32 + 32, 0);
    v
}

/// Needs AMD's library: gfx9 issue phases per SIMD, an indirect jump and the s_endpgm message.
#[test]
fn synthetic_gfx9_waves_agree_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    let misc = |d: u64| (d << 4, 1);
    let pgm = (0xf | (1 << 7) | (0x0c << 9) | (0x10 << 16), 3); // REG_CS_PRIV PGM_LO: entry 0x1000
                                                                // Three VALUs per wave on each SIMD with 1..3 MISC steps between issue and INST token.
    let words = [0x7e00_0280u32, 0x7e00_0280, 0x7e00_0280, 0xbf80_0000, 0xbf81_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &text, 0);
    for simd in 0..4u64 {
        for gap in 1..4u64 {
            let issue = (0xd | (simd << 5) | (2 << 8), 2);
            let valu = (0xa | (simd << 9) | (5 << 11), 1);
            let toks = [
                pgm,
                (0x3 | (simd << 14), 2),
                misc(2),
                issue,
                misc(gap),
                valu,
                misc(4),
                issue,
                misc(gap),
                valu,
                misc(4),
                issue,
                misc(gap),
                valu,
                misc(2),
                (0x6 | (simd << 14), 1),
            ];
            let data = gfx9_stream(&toks);
            let a = amd.decode(&data, &code).unwrap();
            let n = Decoder::new(&code).decode(&data).unwrap();
            assert_eq!(a.waves, n.waves, "simd {simd} gap {gap}");
        }
    }
    // 0x1000 v_mov_b32 ; 0x1004 s_setpc_b64 ; 0x1008 v_mov_b32 ; 0x100c s_nop 0 ; 0x1010 s_endpgm
    let words = [0x7e00_0280u32, 0xbe80_1d00, 0x7e00_0280, 0xbf80_0000, 0xbf81_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &text, 0);
    let issue = |status: u64| (0xd | (status << 8), 2);
    let inst = |op: u64| (0xa | (op << 11), 1);
    let toks = [
        pgm,
        (0x3, 2),
        misc(2),
        issue(2),
        misc(1),
        inst(5), // VALU
        misc(2),
        issue(2),
        misc(1),
        inst(7),                         // s_setpc (PC)
        (0xb | ((0x100c / 4) << 16), 4), // INST_PC 0x100c
        misc(3),
        issue(3), // s_nop (IMMED)
        misc(3),
        issue(2),
        misc(1),
        inst(15), // s_endpgm (message)
        misc(2),
        (0x6, 1),
    ];
    let data = gfx9_stream(&toks);
    let a = amd.decode(&data, &code).unwrap();
    let n = Decoder::new(&code).decode(&data).unwrap();
    assert_eq!(a.waves, n.waves);
    assert_eq!(a.occupancy, n.occupancy);

    // A backward indirect jump (INST_PC back to 0x1000) that only the INST_PC token explains.
    let toks = [
        pgm,
        (0x3, 2),
        misc(2),
        issue(2),
        misc(1),
        inst(5), // 0x1000 VALU
        misc(2),
        issue(2),
        misc(1),
        inst(7),                         // 0x1004 s_setpc
        (0xb | ((0x1000 / 4) << 16), 4), // INST_PC 0x1000
        misc(2),
        issue(2),
        misc(1),
        inst(5), // 0x1000 VALU again
        misc(2),
        issue(2),
        misc(1),
        inst(7),                         // 0x1004 s_setpc
        (0xb | ((0x100c / 4) << 16), 4), // INST_PC 0x100c
        misc(3),
        issue(3),
        misc(3),
        issue(2),
        misc(1),
        inst(15),
        misc(2),
        (0x6, 1),
    ];
    let data = gfx9_stream(&toks);
    let a = amd.decode(&data, &code).unwrap();
    let n = Decoder::new(&code).decode(&data).unwrap();
    let pcs: Vec<u64> = n.waves[0].instructions.iter().map(|i| i.pc).collect();
    println!("amd pcs {:?}", a.waves[0].instructions.iter().map(|i| i.pc).collect::<Vec<_>>());
    assert_eq!(a.waves, n.waves);
    assert_eq!(pcs, vec![0x1000, 0x1004, 0x1000, 0x1004, 0x100c, 0x1010]);
}

/// Needs AMD's library: the packet-lost flag of timestamp tokens.
#[test]
fn synthetic_packet_lost_flag_agrees_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    for (layout, family, n, pl_bit, rt_bit) in [(3u64, Family::Gfx11, 12usize, 8, 9), (4, Family::Gfx12, 16, 8, 7)] {
        let code = CodeObject::from_text(family, 0x1000, &0xbfb0_0000u32.to_le_bytes(), 0);
        for (pl, rt) in [(0u64, 0u64), (1, 0), (0, 1), (1, 1)] {
            let ts = 0x01 | (pl << pl_bit) | (rt << rt_bit) | (0x40 << 12);
            let data = rdna_stream(&[(0x11 | (layout << 7), 16), (ts, n), (0x0c | (1 << 5), 8), (0x15 | (1 << 5), 5)]);
            let a = amd.decode(&data, &code).unwrap();
            let nat = Decoder::new(&code).decode(&data).unwrap();
            println!(
                "layout {layout} pl {pl} rt {rt}: amd info {:?} occ {:?} rt {:?}",
                a.info, a.occupancy, a.realtime
            );
            assert_eq!(
                (a.info, a.occupancy, a.realtime),
                (nat.info, nat.occupancy, nat.realtime),
                "layout {layout} pl {pl} rt {rt}"
            );
        }
        // Data lost and an incomplete target wave: the order of the two INFO records.
        let ts = 0x01 | (1 << pl_bit) | (0x40 << 12);
        let data = rdna_stream(&[
            (0x11 | (layout << 7), 16),
            (0x0c | (1 << 5), 8),
            (0x3 | (1 << 3), 3),
            (ts, n),
            (0x3 | (1 << 3), 3),
        ]);
        let a = amd.decode(&data, &code).unwrap();
        let nat = Decoder::new(&code).decode(&data).unwrap();
        println!("layout {layout} incomplete: amd info {:?}", a.info);
        assert_eq!(a.info, nat.info, "layout {layout} info order");
    }
}

/// Needs AMD's library: gfx9 packet-lost MISC tokens.
#[test]
fn synthetic_gfx9_packet_lost_agrees_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &0xbf81_0000u32.to_le_bytes(), 0);
    let lost = ((2u64 << 13) | (1 << 4), 1);
    let end = (6u64 | (3 << 6) | (2 << 10), 1); // wave end without start
    for toks in [vec![lost, end], vec![end, lost], vec![(0x3u64, 2), lost, (1 << 4, 1), (0x6, 1)]] {
        let data = gfx9_stream(&toks);
        let a = amd.decode(&data, &code).unwrap();
        let n = Decoder::new(&code).decode(&data).unwrap();
        println!("amd info {:?} occ {:?}", a.info, a.occupancy);
        assert_eq!((a.info, a.occupancy), (n.info, n.occupancy));
    }
}

/// Needs AMD's library: context save and restore of a traced RDNA wave.
#[test]
fn synthetic_context_save_restore_agrees_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    let words = [0x7e00_0280u32, 0x7e00_0280, 0xbf80_0000, 0xbfb0_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    for (layout, family) in [(3u64, Family::Gfx11), (4, Family::Gfx12)] {
        let code = CodeObject::from_text(family, 0x1000, &text, 0);
        for (save, restore) in [(66u64, 68u64), (67, 69), (70, 72), (71, 75)] {
            let start = |count: u64| (0x0c | (1 << 5) | (count << 25), 8);
            let toks = [
                (0x11 | (layout << 7), 16),
                (0x9 | (1 << 15) | (0x0c << 16) | (0x10 << 32), 16),
                start(0),
                (0x3 | (1 << 3), 3),
                (0x8 | (3 << 4), 2),
                start(save),
                (0x8 | (3 << 4), 2),
                start(restore),
                (0x3 | (1 << 3), 3),
                (0xd | (1 << 4), 3),
                (0x15 | (7 << 5), 5),
            ];
            let data = rdna_stream(&toks);
            let a = amd.decode(&data, &code).unwrap();
            let n = Decoder::new(&code).decode(&data).unwrap();
            assert_eq!(a.occupancy, n.occupancy, "layout {layout} counts {save}/{restore}");
            assert_eq!(a.waves, n.waves, "layout {layout} counts {save}/{restore}");
        }
    }
}

/// Needs AMD's library: gfx9 context save (MISC) and the CWSR wave starts.
#[test]
fn synthetic_gfx9_context_save_agrees_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    let words = [0x7e00_0280u32, 0x7e00_0280, 0xbf80_0000, 0xbf81_0000];
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = CodeObject::from_text(Family::Gfx9, 0x1000, &text, 0);
    let misc = |d: u64| (d << 4, 1);
    let issue = |status: u64| (0xd | (status << 8), 2);
    let inst = |op: u64| (0xa | (op << 11), 1);
    for kind in 3..8u64 {
        let toks = [
            (0xf | (1 << 7) | (0x0c << 9) | (0x10 << 16), 3),
            (0x3, 2),
            misc(2),
            issue(2),
            misc(1),
            inst(5),
            ((kind << 13) | (1 << 4), 1), // MISC of the given kind
            misc(2),
            (0x3 | (70 << 22), 2), // CWSR wave start (count > 64)
            misc(2),
            (0x3 | (70 << 22), 2),
            misc(2),
            issue(2),
            misc(1),
            inst(7), // PC after the restore
            misc(2),
            issue(2),
            misc(1),
            inst(5),
            misc(3),
            issue(2),
            misc(1),
            inst(15),
            misc(2),
            (0x6, 1),
        ];
        let data = gfx9_stream(&toks);
        let a = amd.decode(&data, &code).unwrap();
        let n = Decoder::new(&code).decode(&data).unwrap();
        assert_eq!(a.occupancy, n.occupancy, "misc kind {kind}");
        assert_eq!(a.waves, n.waves, "misc kind {kind}");
    }
}

/// Needs AMD's library: prefixes of the corpus streams (a trace buffer that filled up) decode
/// alike, cut tokens included.
#[test]
fn truncated_streams_agree_when_available() {
    if !amd_library("missing_library_is_a_clear_error") {
        return;
    }
    let Some(root) = corpus("missing_library_is_a_clear_error") else { return };
    let amd = AmdDecoder::load(None).expect("loadable decoder");
    let (mut compared, mut differing) = (0, Vec::new());
    for (arch, family) in [("gfx1100", Family::Gfx11), ("gfx1200", Family::Gfx12), ("gfx950", Family::Gfx9)] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(arch)).unwrap().flatten().map(|e| e.path()).collect();
        dirs.sort();
        for dir in dirs {
            let meta = std::fs::read_to_string(dir.join("meta.json")).unwrap();
            let base: u64 =
                meta.split("\"load_base\":").nth(1).unwrap().split(',').next().unwrap().trim().parse().unwrap();
            let code = CodeObject::from_elf(family, &std::fs::read(dir.join("code.elf")).unwrap(), base).unwrap();
            let mut native = Decoder::new(&code);
            for se in 0..2 {
                let bytes = std::fs::read(dir.join(format!("se{se}.att"))).unwrap();
                for k in [1usize, 2, 3, 5, 7, 11, 13, 17, 19, 23] {
                    // A prefix of the whole stream: the backend copies it into zero-padded
                    // memory, since AMD's decoder reads past the end of its buffer.
                    let cut = &bytes[..bytes.len() * k / 29];
                    let (Ok(mut a), Ok(mut n)) = (amd.decode(cut, &code), native.decode(cut)) else { continue };
                    for d in [&mut a, &mut n] {
                        d.unknown_tokens = 0;
                        d.damage = None;
                        d.occupancy.sort_by_key(|o| (o.time, o.cu, o.simd, o.wave_id, o.start, o.pc));
                        d.waves.sort_by_key(|w| (w.cu, w.simd, w.wave_id, w.begin_time, w.end_time));
                    }
                    if a != n {
                        differing.push(format!("{}/se{se}[..{}]", dir.display(), cut.len()));
                    }
                    compared += 1;
                }
            }
        }
    }
    println!("AMD backend: {compared} truncated streams compared, {} differ", differing.len());
    assert!(differing.is_empty(), "{differing:?}");
}
