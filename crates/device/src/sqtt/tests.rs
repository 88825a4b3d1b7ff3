//! The encoder against the decoder: encode a modelled dispatch of a real kernel, decode it with
//! `rocprof-sqtt`, and find exactly the waves and the instruction path the model ran.

use rocprof_sqtt::{CodeObject, Decoder, Family};

use super::*;
use crate::targets::find;
use crate::wave::{DetailRequest, DispatchInput, DispatchModel, KernelProfile};

/// The `vector_add` kernel of `fixtures/kernels/vector_add-<target>.co`: its code from the entry.
pub(crate) fn fixture_kernel(target: &str) -> Vec<u8> {
    let path = format!("{}/../../fixtures/kernels/vector_add-{target}.co", env!("CARGO_MANIFEST_DIR"));
    let elf = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = rocprof_sqtt::elf::text_section(&elf).unwrap();
    let f = rocprof_sqtt::elf::functions(&elf).into_iter().find(|f| f.name == "vector_add").unwrap();
    let off = (f.vaddr - text.vaddr) as usize;
    text.bytes[off..off + f.size as usize].to_vec()
}

struct Case {
    model: DispatchModel,
    code: Vec<u8>,
    entry: u64,
    unit: TracedUnit,
}

fn case(target: &str, grid: u32, unit: TracedUnit) -> Case {
    let t = find(target).unwrap();
    let code = fixture_kernel(target);
    let kernel = KernelProfile::from_code(t, &code);
    let input = DispatchInput {
        target: t,
        grid: [grid, 1, 1],
        workgroup: [64, 1, 1],
        wavefront_size: t.wavefront_size,
        lds_bytes: 0,
        scratch_bytes: 0,
        kernel: &kernel,
    };
    let req = DetailRequest {
        se_mask: 1,
        cu_in_se: Some(traced_cu_in_se(t, unit)),
        max_waves: 1000,
        max_instructions_per_wave: 10_000,
    };
    Case { model: DispatchModel::build(&input, &req), code, entry: 0x7f00_0000_1000, unit }
}

fn encode(c: &Case, capacity: u64) -> SeStream {
    let mut e = SeEncoder::new(c.model.target, 0, c.unit, capacity).unwrap();
    e.dispatch(&c.model, c.entry, &c.code);
    e.finish()
}

fn decode(c: &Case, s: &SeStream) -> rocprof_sqtt::SeDecode {
    let family = family_of(c.model.target).unwrap();
    let mut bytes = s.bytes.clone();
    if family == Family::Gfx9 {
        let mut with_header = gfx9_header(c.model.target, c.unit, 0).to_vec();
        with_header.extend_from_slice(&bytes);
        bytes = with_header;
    }
    let code = CodeObject::from_text(family, c.entry, &c.code, c.entry);
    Decoder::new(&code).decode(&bytes).unwrap()
}

/// The PCs one wave runs through the kernel: from the entry, falling through conditional branches,
/// until `s_endpgm` (vector_add has no unconditional branch).
fn code_path(c: &Case) -> Vec<u64> {
    let family = family_of(c.model.target).unwrap();
    let prog = rocprof_sqtt::Program::new(family, c.entry, &c.code);
    let mut out = Vec::new();
    let mut l = prog.line_at(c.entry);
    while let Some(i) = l {
        let (pc, info) = prog.line(i);
        if info.class != rocprof_sqtt::isa::LineClass::Skip {
            out.push(pc);
        }
        if info.flags & rocprof_sqtt::isa::flags::ENDPGM != 0 {
            break;
        }
        l = prog.next_line(i);
    }
    out
}

#[test]
fn encoded_traces_decode_to_the_modelled_waves_and_code_path() {
    for (target, unit) in [
        ("gfx942", TracedUnit { target_cu: 1, simd_select: 0xF }),
        ("gfx950", TracedUnit { target_cu: 1, simd_select: 0xF }),
        ("gfx90a", TracedUnit { target_cu: 0, simd_select: 0x5 }),
        ("gfx1100", TracedUnit { target_cu: 1, simd_select: 0xF }),
        ("gfx1201", TracedUnit { target_cu: 1, simd_select: 0 }),
    ] {
        let c = case(target, 64 * 4000, unit);
        let s = encode(&c, 1 << 24);
        assert_eq!(s.dropped_bytes, 0, "{target}");
        assert_eq!(s.bytes.len() % 32, 0);
        let d = decode(&c, &s);
        assert_eq!(d.unknown_tokens, 0, "{target}");
        // Every wave of SE 0 starts and ends once.
        let se0_waves: u64 = c.model.per_se[0].waves;
        assert_eq!(s.waves, se0_waves, "{target}");
        assert_eq!(d.occupancy.iter().filter(|o| o.start).count() as u64, se0_waves, "{target}");
        assert_eq!(d.occupancy.iter().filter(|o| !o.start).count() as u64, se0_waves, "{target}");
        let bad: Vec<_> = d.occupancy.iter().filter(|o| o.pc != c.entry).take(3).collect();
        assert!(bad.is_empty(), "{target}: every wave starts at the kernel entry: {bad:?}");
        // The traced unit's waves: as many as the model placed there, each running the code path.
        let traced = c
            .model
            .detail
            .iter()
            .filter(|w| {
                w.wave.placement.se == 0 && {
                    let l = trace_loc(c.model.target, &w.wave.placement);
                    l.sa == 0
                        && l.cu == unit.target_cu
                        && match family_of(c.model.target).unwrap() {
                            Family::Gfx9 => unit.simd_select & (1 << l.simd) != 0,
                            _ => l.simd == unit.simd_select & 3,
                        }
                }
            })
            .count();
        assert!(traced > 1, "{target}: the target unit ran several waves ({traced})");
        assert_eq!(s.waves_traced as usize, traced, "{target}");
        let with_insts: Vec<_> = d.waves.iter().filter(|w| !w.instructions.is_empty()).collect();
        assert_eq!(with_insts.len(), traced, "{target}: decoded waves with instructions");
        let path = code_path(&c);
        for w in &with_insts {
            let pcs: Vec<u64> = w.instructions.iter().map(|i| i.pc).collect();
            assert_eq!(pcs, path, "{target}: wave {}/{}/{}", w.cu, w.simd, w.wave_id);
        }
    }
}

#[test]
fn a_small_buffer_keeps_what_fits_and_counts_the_rest() {
    let c = case("gfx1100", 64 * 4000, TracedUnit { target_cu: 1, simd_select: 0 });
    let full = encode(&c, 1 << 24);
    let cap = full.bytes.len() as u64 * 2 / 3 / 32 * 32;
    let small = encode(&c, cap);
    assert_eq!(small.bytes.len() as u64, cap);
    assert_eq!(&small.bytes[..], &full.bytes[..cap as usize]);
    assert_eq!(small.dropped_bytes, full.bytes.len() as u64 - cap);
    assert!(small.waves_lost > 0 && small.waves_lost < small.waves, "{small:?}");
    // What fit still decodes.
    let d = decode(&c, &small);
    assert!(d.occupancy.iter().any(|o| o.start));
}

/// Device memory for the executor tests: one zeroed region.
struct Region {
    base: u64,
    bytes: std::cell::RefCell<Vec<u8>>,
}

impl crate::pm4::DeviceMemory for Region {
    fn read(&self, addr: u64, out: &mut [u8]) -> bool {
        let Some(off) = addr.checked_sub(self.base).map(|o| o as usize) else { return false };
        let b = self.bytes.borrow();
        let Some(src) = b.get(off..off + out.len()) else { return false };
        out.copy_from_slice(src);
        true
    }
    fn write(&self, addr: u64, data: &[u8]) -> bool {
        let Some(off) = addr.checked_sub(self.base).map(|o| o as usize) else { return false };
        let mut b = self.bytes.borrow_mut();
        let Some(dst) = b.get_mut(off..off + data.len()) else { return false };
        dst.copy_from_slice(data);
        true
    }
}

/// aqlprofile's start stream, a code-object marker, one dispatch, the stop stream: what the stop
/// stream copied to the control buffer names the data, which decodes to the dispatch.
#[test]
fn the_att_packets_program_a_trace_that_decodes() {
    use rocprof_packets::att::{param, AttParameter, AttPlan};
    use rocprof_packets::marker::CodeObjectMarker;
    use rocprof_packets::{parse::parse_sqtt_control, Agent, Target};
    for (name, pt) in [
        ("gfx942", Target::from_name("gfx942").unwrap()),
        ("gfx1100", Target::from_name("gfx1100").unwrap()),
        ("gfx1201", Target::from_name("gfx1201").unwrap()),
    ] {
        let t = find(name).unwrap();
        let agent = Agent::reference(pt);
        let params = [
            AttParameter { id: param::SE_MASK, value: 1 },
            AttParameter { id: param::COMPUTE_UNIT_TARGET, value: 1 },
            AttParameter { id: param::SIMD_SELECTION, value: 0xF },
            AttParameter { id: param::ATT_BUFFER_SIZE, value: 1 << 20 },
        ];
        let plan = AttPlan::new(&agent, &params).unwrap();
        let (control, trace) = (0x10_0000_0000u64, 0x10_0001_0000u64);
        let mem = Region { base: control, bytes: std::cell::RefCell::new(vec![0; (0x1_0000 + (1 << 20)) as usize]) };
        let mut dev = crate::pm4::Pm4Device::new(t);
        let start = plan.start_stream(control, trace).unwrap();
        let r = dev.execute(&start, &mem);
        assert!(r.issues.is_empty(), "{name}: {:?}", r.issues);
        assert!(dev.is_tracing(), "{name}");
        let code = fixture_kernel(name);
        let entry = 0x7f00_0000_1900u64;
        let marker = CodeObjectMarker { id: 3, addr: entry - 0x1900, size: 0x4000, is_unload: false, from_start: true };
        assert!(dev.execute(&marker.stream(&agent), &mem).issues.is_empty());
        let req = dev.sqtt_detail_request().expect("a trace runs");
        let kernel = KernelProfile::from_code(t, &code);
        let input = DispatchInput {
            target: t,
            grid: [64 * 300, 1, 1],
            workgroup: [64, 1, 1],
            wavefront_size: t.wavefront_size,
            lds_bytes: 0,
            scratch_bytes: 0,
            kernel: &kernel,
        };
        let model = DispatchModel::build(&input, &req);
        dev.sqtt_dispatch(&model, entry, &code);
        let stop = plan.stop_stream(control, trace).unwrap();
        let r = dev.execute(&stop, &mem);
        assert!(r.issues.is_empty(), "{name}: {:?}", r.issues);
        assert!(!dev.is_tracing());
        let ctl = mem.bytes.borrow()[..plan.control_buffer_size() as usize].to_vec();
        let res = parse_sqtt_control(&plan, trace, &ctl).unwrap();
        let se0 = res.ses[0];
        assert!(se0.enabled && !se0.overflow && se0.data_bytes > 64, "{name}: {se0:?}");
        let off = (se0.data_addr - control) as usize;
        let mut data = mem.bytes.borrow()[off..off + se0.data_bytes as usize].to_vec();
        let family = family_of(t).unwrap();
        if family == Family::Gfx9 {
            let unit = TracedUnit { target_cu: 1, simd_select: 0xF };
            let mut h = gfx9_header(t, unit, 0).to_vec();
            h.append(&mut data);
            data = h;
        }
        let markers = rocprof_sqtt::code_object_markers(&data).unwrap();
        assert_eq!(markers.iter().map(|m| (m.id, m.address)).collect::<Vec<_>>(), [(3, entry - 0x1900)], "{name}");
        let co = CodeObject::from_text(family, entry, &code, entry);
        let d = Decoder::new(&co).decode(&data).unwrap();
        assert_eq!(d.occupancy.iter().filter(|o| o.start).count() as u64, model.per_se[0].waves, "{name}");
        assert!(d.waves.iter().any(|w| !w.instructions.is_empty()), "{name}");
    }
}

/// `--att-perfcounters` on gfx9: aqlprofile's start stream with five SQ counters (two banks) and a
/// sampling rate; the trace carries `PERF` samples for the CUs of shader array 0 whose counts,
/// summed per CU, are the counter model's values for that CU.
#[test]
fn streamed_sq_counters_sum_to_the_counter_model_per_cu() {
    use rocprof_packets::att::{param, AttParameter, AttPlan};
    use rocprof_packets::{parse::parse_sqtt_control, Agent, Target};
    let names = ["SQ_WAVES", "SQ_INSTS_VALU", "SQ_INSTS_SALU", "SQ_BUSY_CU_CYCLES", "SQ_INSTS_SMEM"];
    let db = rocprof_counters::Database::builtin();
    for (name, pt, ctrl) in
        [("gfx942", Target::from_name("gfx942").unwrap(), 1u32), ("gfx90a", Target::from_name("gfx90a").unwrap(), 2)]
    {
        let t = find(name).unwrap();
        let agent = Agent::reference(pt);
        let mut params = vec![
            AttParameter { id: param::SE_MASK, value: 1 },
            AttParameter { id: param::COMPUTE_UNIT_TARGET, value: 1 },
            AttParameter { id: param::SIMD_SELECTION, value: 0xF },
            AttParameter { id: param::ATT_BUFFER_SIZE, value: 1 << 22 },
            // rocprofv3 passes --att-perfcounter-ctrl minus one.
            AttParameter { id: param::PERFCOUNTER_CTRL, value: ctrl - 1 },
        ];
        for n in names {
            let rocprof_counters::CounterKind::Base { event, .. } = db.resolve(name, n).unwrap().kind else {
                panic!("{n} is a base counter")
            };
            params.push(AttParameter { id: param::PERFCOUNTER_NAME, value: event | 0xF << 28 });
        }
        let plan = AttPlan::new(&agent, &params).unwrap();
        let (control, trace) = (0x10_0000_0000u64, 0x10_0001_0000u64);
        let mem = Region { base: control, bytes: std::cell::RefCell::new(vec![0; (0x1_0000 + (1 << 22)) as usize]) };
        let mut dev = crate::pm4::Pm4Device::new(t);
        assert!(dev.execute(&plan.start_stream(control, trace).unwrap(), &mem).issues.is_empty());
        let req = dev.sqtt_detail_request().expect("a trace runs");
        let code = fixture_kernel(name);
        let entry = 0x7f00_0000_1900u64;
        let kernel = KernelProfile::from_code(t, &code);
        let input = DispatchInput {
            target: t,
            grid: [64 * 2000, 1, 1],
            workgroup: [64, 1, 1],
            wavefront_size: t.wavefront_size,
            lds_bytes: 0,
            scratch_bytes: 0,
            kernel: &kernel,
        };
        let model = DispatchModel::build(&input, &req);
        dev.sqtt_dispatch(&model, entry, &code);
        assert!(dev.execute(&plan.stop_stream(control, trace).unwrap(), &mem).issues.is_empty());
        let stream = dev.sqtt().finished(0).unwrap().clone();
        assert_eq!(stream.perf_saturated, 0, "{name}");
        let ctl = mem.bytes.borrow()[..plan.control_buffer_size() as usize].to_vec();
        let se0 = parse_sqtt_control(&plan, trace, &ctl).unwrap().ses[0];
        let off = (se0.data_addr - control) as usize;
        let unit = TracedUnit { target_cu: 1, simd_select: 0xF };
        let mut data = gfx9_header(t, unit, 0).to_vec();
        data.extend_from_slice(&mem.bytes.borrow()[off..off + se0.data_bytes as usize]);
        let co = CodeObject::from_text(Family::Gfx9, entry, &code, entry);
        let d = Decoder::new(&co).decode(&data).unwrap();
        assert_eq!(d.unknown_tokens, 0, "{name}");
        assert_eq!(d.perfevents.len() as u64, stream.perf_tokens, "{name}");
        // Samples are a period apart per CU and bank.
        let period = 64 * u64::from(ctrl);
        let cu0: Vec<i64> = d.perfevents.iter().filter(|p| p.cu == 0 && p.bank == 0).map(|p| p.time).collect();
        assert!(cu0.len() >= 3, "{name}: {} samples", cu0.len());
        assert!(cu0.windows(2).all(|w| (w[1] - w[0]) as u64 == period), "{name}: {cu0:?}");
        // Per CU of shader array 0 and counter: the samples sum to the model's value.
        let n = t.cus_in_se(0);
        let mut checked = 0;
        for cu in (0..n).filter(|&c| t.sa_of_cu(c, n) == 0) {
            for (k, counter) in names.iter().enumerate() {
                let sum: u64 = d
                    .perfevents
                    .iter()
                    .filter(|p| u32::from(p.cu) == cu && usize::from(p.bank) == k / 4)
                    .map(|p| u64::from(p.events[k % 4]))
                    .sum();
                let g = t.first_cu_of_se(0, 0) + cu;
                let want = crate::counters::event_value(&model, counter, &crate::counters::Unit::Cus(g..g + 1));
                assert_eq!(sum, want, "{name}: CU {cu} {counter}");
                checked += u64::from(want > 0);
            }
        }
        assert!(checked >= 2 * names.len() as u64, "{name}: too few non-zero counters ({checked})");
    }
}
