//! Traces hsa-sim would write (rocprof-device's encoder, with the profiler's code-object markers)
//! decoded by both backends: AMD's decoder must find the same waves and instructions as ours.

use rocprof_device::sqtt::{family_of, gfx9_header, traced_cu_in_se, SeEncoder, TracedUnit};
use rocprof_device::targets::find;
use rocprof_device::{DetailRequest, DispatchInput, DispatchModel, KernelProfile};
use rocprof_sqtt::{code_object_markers, CodeObject, Decoder, Family, LoadedCode, SeDecode};

/// The `vector_add` fixture of a target: (ELF bytes, kernel code from the entry, entry vaddr).
fn kernel(target: &str) -> (Vec<u8>, Vec<u8>, u64) {
    let path = format!("{}/../../fixtures/kernels/vector_add-{target}.co", env!("CARGO_MANIFEST_DIR"));
    let elf = std::fs::read(&path).unwrap();
    let text = rocprof_sqtt::elf::text_section(&elf).unwrap();
    let f = rocprof_sqtt::elf::functions(&elf).into_iter().find(|f| f.name == "vector_add").unwrap();
    let off = (f.vaddr - text.vaddr) as usize;
    let code = text.bytes[off..off + f.size as usize].to_vec();
    (elf, code, f.vaddr)
}

/// The USERDATA_2 words rocprofiler-sdk's start sequence and a load marker write.
fn marker_words(id: u64, addr: u64, size: u64) -> Vec<u32> {
    let mut w = vec![0x434F_5200, 0x0008_0201];
    for (ch, v) in [(2, addr as u32), (3, (addr >> 32) as u32), (1, size as u32), (4, (size >> 32) as u32)] {
        w.extend([4 | ch << 8, v]);
    }
    w.extend([4, (id as u32) << 2 | 2]);
    w
}

/// One synthetic SE-0 stream of a vector_add dispatch on `target`, with the code object placed
/// at `load` under id 1.
pub(crate) fn synthetic_stream(target: &str, unit: TracedUnit, load: u64) -> (Vec<u8>, Vec<u8>, Family) {
    let t = find(target).unwrap();
    let (elf, code, entry_vaddr) = kernel(target);
    let k = KernelProfile::from_code(t, &code);
    let input = DispatchInput {
        target: t,
        grid: [64 * 2000, 1, 1],
        workgroup: [64, 1, 1],
        wavefront_size: t.wavefront_size,
        lds_bytes: 0,
        scratch_bytes: 0,
        kernel: &k,
    };
    let req = DetailRequest {
        se_mask: 1,
        cu_in_se: Some(traced_cu_in_se(t, unit)),
        max_waves: 64,
        max_instructions_per_wave: 4096,
    };
    let model = DispatchModel::build(&input, &req);
    let mut e = SeEncoder::new(t, 0, unit, 1 << 24).unwrap();
    for w in marker_words(1, load, rocprof_sqtt::elf::load_span(&elf).unwrap()) {
        e.userdata(w);
    }
    e.dispatch(&model, load + entry_vaddr, &code);
    let family = family_of(t).unwrap();
    let mut bytes = e.finish().bytes;
    if family == Family::Gfx9 {
        let mut h = gfx9_header(t, unit, 0).to_vec();
        h.extend_from_slice(&bytes);
        bytes = h;
    }
    (bytes, elf, family)
}

fn normalise(mut d: SeDecode) -> SeDecode {
    d.unknown_tokens = 0;
    d.damage = None;
    d.occupancy.sort_by_key(|o| (o.time, o.cu, o.simd, o.wave_id, o.start, o.pc));
    d.waves.sort_by_key(|w| (w.cu, w.simd, w.wave_id, w.begin_time, w.end_time));
    d
}

#[test]
fn synthetic_traces_carry_their_markers_and_decode_natively() {
    for target in ["gfx942", "gfx950", "gfx1100", "gfx1201"] {
        let load = 0x7f12_3400_0000;
        let (bytes, elf, family) = synthetic_stream(target, TracedUnit { target_cu: 1, simd_select: 0xF }, load);
        let m = code_object_markers(&bytes).unwrap();
        assert_eq!(m.len(), 1, "{target}: {m:?}");
        let span = rocprof_sqtt::elf::load_span(&elf).unwrap();
        assert_eq!((m[0].id, m[0].address, m[0].size, m[0].from_start), (1, load, span, true));
        let code = CodeObject::from_elfs(family, &[(LoadedCode { id: 1, address: load, size: span }, &elf)]).unwrap();
        let d = Decoder::new(&code).decode(&bytes).unwrap();
        let traced: Vec<_> = d.waves.iter().filter(|w| !w.instructions.is_empty()).collect();
        assert!(!traced.is_empty(), "{target}");
        for w in traced {
            assert!(w.instructions.iter().all(|i| code.resolve(i.pc).is_some_and(|(id, _)| id == 1)), "{target}");
        }
    }
}

#[test]
fn amd_decoder_agrees_on_synthetic_traces_when_available() {
    if std::env::var_os(rocprof_sqtt_amd::LIBRARY_ENV).is_none() {
        rocprof_test_inputs::skip_optional(
            "amd_decoder_agrees_on_synthetic_traces_when_available",
            "ROCPROF_ATT_LIBRARY_PATH does not name AMD's librocprof-trace-decoder.so",
        );
        return;
    }
    let amd = rocprof_sqtt_amd::AmdDecoder::load(None).expect("ROCPROF_ATT_LIBRARY_PATH names a loadable decoder");
    let mut compared = 0;
    for target in ["gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1201"] {
        for unit in [TracedUnit { target_cu: 1, simd_select: 0xF }, TracedUnit { target_cu: 0, simd_select: 0x1 }] {
            let load = 0x7f12_3400_0000;
            let (bytes, elf, family) = synthetic_stream(target, unit, load);
            let lc = LoadedCode { id: 1, address: load, size: rocprof_sqtt::elf::load_span(&elf).unwrap() };
            let code = CodeObject::from_elfs(family, &[(lc, &elf)]).unwrap();
            let native = normalise(Decoder::new(&code).decode(&bytes).unwrap());
            let theirs = normalise(amd.decode(&bytes, &code).unwrap());
            assert_eq!(native.occupancy, theirs.occupancy, "{target} {unit:?}: occupancy");
            assert_eq!(native.waves.len(), theirs.waves.len(), "{target} {unit:?}: waves");
            for (a, b) in native.waves.iter().zip(&theirs.waves) {
                let ia: Vec<_> = a.instructions.iter().map(|i| (i.pc, i.category)).collect();
                let ib: Vec<_> = b.instructions.iter().map(|i| (i.pc, i.category)).collect();
                assert_eq!(ia, ib, "{target} {unit:?}: wave {}/{}/{}", a.cu, a.simd, a.wave_id);
            }
            assert_eq!(native, theirs, "{target} {unit:?}: every record");
            compared += 1;
        }
    }
    println!("synthetic traces: native and AMD decoders agree on {compared} streams");
}
