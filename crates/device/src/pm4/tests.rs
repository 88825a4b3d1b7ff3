//! The executor against the packets crate's real PMC streams: program, count one dispatch, read,
//! parse with the packets crate and evaluate with the counters crate, on every target.

use std::cell::RefCell;
use std::sync::Arc;

use super::*;
use crate::targets::MODELS;
use crate::wave::{DetailRequest, DispatchInput, KernelProfile};

/// A flat memory window at `base`.
struct Window {
    base: u64,
    bytes: RefCell<Vec<u8>>,
}

impl DeviceMemory for Window {
    fn read(&self, addr: u64, out: &mut [u8]) -> bool {
        let b = self.bytes.borrow();
        let Some(off) = addr.checked_sub(self.base).map(|o| o as usize) else { return false };
        match b.get(off..off + out.len()) {
            Some(src) => {
                out.copy_from_slice(src);
                true
            }
            None => false,
        }
    }

    fn write(&self, addr: u64, data: &[u8]) -> bool {
        let mut b = self.bytes.borrow_mut();
        let Some(off) = addr.checked_sub(self.base).map(|o| o as usize) else { return false };
        match b.get_mut(off..off + data.len()) {
            Some(dst) => {
                dst.copy_from_slice(data);
                true
            }
            None => false,
        }
    }
}

fn model(t: &'static GpuModel, grid: u32) -> DispatchModel {
    // gfx9: s_load_dword, s_waitcnt, global_load_dword, s_waitcnt, v_add_f32, global_store_dword, s_endpgm.
    let gfx9: Vec<u8> = [0xC002_00C0u32, 0x2C, 0xBF8C_C07F, 0xDC50_8000, 0x067F_0004, 0xBF8C_0F70, 0x0204_0F06]
        .iter()
        .chain(&[0xDC70_8000u32, 0x007F_0200, 0xBF81_0000])
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let code = if t.wavefront_size == 64 { gfx9 } else { Vec::new() };
    let k = KernelProfile::from_code(t, &code);
    DispatchModel::build(
        &DispatchInput {
            target: t,
            grid: [grid, 1, 1],
            workgroup: [256, 1, 1],
            wavefront_size: t.wavefront_size,
            lds_bytes: 0,
            scratch_bytes: 0,
            kernel: &k,
        },
        &DetailRequest::NONE,
    )
}

const OUT: u64 = 0x7f00_0000_1000;

/// Programs `names`, counts `dispatches`, reads; returns each counter's values.
fn collect(
    t: &'static GpuModel,
    names: &[&str],
    dispatches: &[DispatchModel],
) -> (Vec<(String, rocprof_counters::Values)>, Pm4Report) {
    let agent = rocprof_counters::Agent::reference(t.name).unwrap();
    let db = rocprof_counters::Database::builtin().target(t.name).unwrap();
    let plan = rocprof_counters::plan(&agent, names).unwrap();
    assert!(plan.is_single_pass());
    let events = &plan.passes[0].events;
    let pmc = rocprof_counters::pmc_plan(&agent, events).unwrap();
    let streams = pmc.build_streams(OUT).unwrap();
    let mem = Window { base: OUT, bytes: RefCell::new(vec![0xAB; streams.output_size as usize]) };
    let mut dev = Pm4Device::new(t);
    let mut report = dev.execute(&streams.start, &mem);
    assert!(dev.is_counting(), "{}: the start stream starts counting", t.name);
    for d in dispatches {
        dev.dispatch_completed(Arc::new(d.clone()));
    }
    let stop = dev.execute(&streams.stop, &mem);
    let read = dev.execute(&streams.read, &mem);
    assert_eq!((report.counter_reads, stop.counter_reads), (0, 0), "{}: start and stop read nothing back", t.name);
    assert!(read.counter_reads >= names.len(), "{}: the read stream reads the counters back", t.name);
    report.packets += stop.packets + read.packets;
    report.memory_bytes_written += read.memory_bytes_written;
    report.issues.extend(stop.issues.into_iter().chain(read.issues));
    let requested: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let values = rocprof_counters::evaluate_output(db, &agent, &pmc, events, &requested, &mem.bytes.borrow()).unwrap();
    (values, report)
}

fn total(v: &rocprof_counters::Values) -> f64 {
    v.data().iter().sum()
}

#[test]
fn sq_waves_equal_the_waves_launched_on_every_target() {
    for t in MODELS {
        let m = model(t, 1 << 16);
        let (values, report) = collect(t, &["SQ_WAVES", "GRBM_COUNT", "GRBM_GUI_ACTIVE"], std::slice::from_ref(&m));
        assert_eq!(report.issues, [], "{}", t.name);
        assert!(report.memory_bytes_written > 0);
        let get = |n: &str| values.iter().find(|(name, _)| name == n).unwrap().1.clone();
        assert_eq!(total(&get("SQ_WAVES")), m.waves() as f64, "{}", t.name);
        assert_eq!(m.waves(), (1 << 16) / u64::from(t.wavefront_size));
        let (count, active) = (get("GRBM_COUNT"), get("GRBM_GUI_ACTIVE"));
        assert_eq!(count.data().len(), active.data().len());
        for (c, a) in count.data().iter().zip(active.data()) {
            assert_eq!(*c, m.dispatch_cycles as f64, "{}", t.name);
            assert!(a <= c && *a > 0.0, "{}: GUI_ACTIVE {a} > COUNT {c}", t.name);
        }
    }
}

#[test]
fn per_se_values_are_the_models_per_se_waves_and_derived_counters_evaluate() {
    let t = crate::targets::find("gfx942").unwrap();
    let m = model(t, 1 << 20);
    let (values, _) = collect(t, &["SQ_WAVES", "GPU_UTIL", "SQ_INSTS_VALU"], std::slice::from_ref(&m));
    let waves = &values.iter().find(|(n, _)| n == "SQ_WAVES").unwrap().1;
    // Dimensions XCC x8, INSTANCE x1, SE x4: the flat index is the global SE.
    assert_eq!(waves.data().len(), 32);
    for (se, v) in waves.data().iter().enumerate() {
        assert_eq!(*v, m.per_se[se].waves as f64, "SE {se}");
    }
    let util = values.iter().find(|(n, _)| n == "GPU_UTIL").unwrap().1.as_scalar().unwrap();
    assert!(util > 0.0 && util <= 100.0, "{util}");
    let valu = total(&values.iter().find(|(n, _)| n == "SQ_INSTS_VALU").unwrap().1);
    assert_eq!(valu, m.waves() as f64, "one VALU instruction per wave");
}

#[test]
fn two_dispatches_in_one_counting_period_add_up_and_a_new_start_resets() {
    let t = crate::targets::find("gfx90a").unwrap();
    let (a, b) = (model(t, 4096), model(t, 8192));
    let (values, _) = collect(t, &["SQ_WAVES"], &[a.clone(), b.clone()]);
    assert_eq!(total(&values[0].1), (a.waves() + b.waves()) as f64);
    let (values, _) = collect(t, &["SQ_WAVES"], &[]);
    assert_eq!(total(&values[0].1), 0.0);
}

#[test]
fn unsatisfied_waits_and_unknown_opcodes_are_reported() {
    let t = crate::targets::find("gfx942").unwrap();
    let mem = Window { base: OUT, bytes: RefCell::new(vec![0; 64]) };
    let mut dev = Pm4Device::new(t);
    // WAIT_REG_MEM memory == 1 at OUT (reads 0); opcode 0x99; COPY_DATA imm -> memory outside the window.
    let stream = [
        0xC005_3C00,
        0x13,
        OUT as u32,
        (OUT >> 32) as u32,
        1,
        0xFFFF_FFFF,
        4,
        0xC000_9900,
        0,
        0xC004_4000,
        0x505,
        7,
        0,
        0x10,
        0,
    ];
    let r = dev.execute(&stream, &mem);
    assert_eq!(
        r.issues,
        [
            Pm4Issue::WaitNeverSatisfied { offset_dw: 0 },
            Pm4Issue::UnknownOpcode { offset_dw: 7, opcode: 0x99 },
            Pm4Issue::BadAddress { offset_dw: 9, addr: 0x10 }
        ]
    );
}
