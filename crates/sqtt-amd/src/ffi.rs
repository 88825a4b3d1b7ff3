//! The C boundary: AMD's record layouts (`include/trace_decoder_types.h` of rocprof-trace-decoder
//! 0.1.6, MIT), the three callbacks and the library handle. All `unsafe` of the crate lives here.

use crate::error::Error;
use rocprof_sqtt::isa::class_text;
use rocprof_sqtt::{
    Category, CodeObject, Info, Instruction, Occupancy, OtherSimd, PerfEvent, Realtime, SeDecode, ShaderData, Wave,
    WaveState,
};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// `rocprofiler_thread_trace_decoder_pc_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pc {
    address: u64,
    code_object_id: u64,
}

/// `rocprofiler_thread_trace_decoder_occupancy_t` (the start bit is bit 0 of `bits`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawOccupancy {
    pc: Pc,
    time: u64,
    reserved: u8,
    cu: u8,
    simd: u8,
    wave_id: u8,
    bits: u32,
}

/// `rocprofiler_thread_trace_decoder_inst_t` (category: bits 0..7 of `cat_stall`, stall: 8..31).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawInst {
    cat_stall: u32,
    duration: i32,
    time: i64,
    pc: Pc,
}

/// `rocprofiler_thread_trace_decoder_wave_state_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawState {
    kind: i32,
    duration: i32,
}

/// `rocprofiler_thread_trace_decoder_wave_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawWave {
    cu: u8,
    simd: u8,
    wave_id: u8,
    contexts: u8,
    _rsvd: [u32; 3],
    begin_time: i64,
    end_time: i64,
    timeline_size: u64,
    instructions_size: u64,
    timeline: *const RawState,
    instructions: *const RawInst,
}

/// `rocprofiler_thread_trace_decoder_realtime_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawRealtime {
    shader_clock: i64,
    realtime_clock: u64,
    reserved: u64,
}

/// `rocprofiler_thread_trace_decoder_perfevent_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawPerf {
    time: i64,
    events: [u16; 4],
    cu: u8,
    bank: u8,
}

/// `rocprofiler_thread_trace_decoder_shaderdata_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawShaderData {
    time: i64,
    value: u64,
    cu: u8,
    simd: u8,
    wave_id: u8,
    flags: u8,
    reserved: u32,
}

/// `rocprofiler_thread_trace_decoder_inst_other_simd_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawOtherSimd {
    size: u64,
    time: i64,
    cycles: u16,
    wgp: u8,
    category: u8,
}

const _: () = assert!(std::mem::size_of::<Pc>() == 16);
const _: () = assert!(std::mem::size_of::<RawOccupancy>() == 32);
const _: () = assert!(std::mem::size_of::<RawInst>() == 32);
const _: () = assert!(std::mem::size_of::<RawWave>() == 64);
const _: () = assert!(std::mem::size_of::<RawRealtime>() == 24);
const _: () = assert!(std::mem::size_of::<RawOtherSimd>() == 24);
const _: () = assert!(std::mem::size_of::<RawPerf>() == 24);
const _: () = assert!(std::mem::size_of::<RawShaderData>() == 24);

/// `rocprofiler_thread_trace_decoder_record_type_t` values.
mod record {
    pub(super) const GFXIP: u32 = 0;
    pub(super) const OCCUPANCY: u32 = 1;
    pub(super) const PERFEVENT: u32 = 2;
    pub(super) const WAVE: u32 = 3;
    pub(super) const INFO: u32 = 4;
    pub(super) const SHADERDATA: u32 = 6;
    pub(super) const REALTIME: u32 = 7;
    pub(super) const INST_OTHER_SIMD: u32 = 9;
}

/// `rocprofiler_thread_trace_decoder_status_t` values.
const STATUS_SUCCESS: u32 = 0;
const STATUS_ERROR: u32 = 1;
const STATUS_OUT_OF_RESOURCES: u32 = 2;
const STATUS_INVALID_ARGUMENT: u32 = 3;
const STATUS_NAMES: [&str; 5] =
    ["SUCCESS", "ERROR", "ERROR_OUT_OF_RESOURCES", "ERROR_INVALID_ARGUMENT", "ERROR_INVALID_SHADER_DATA"];

type SeDataFn = unsafe extern "C" fn(*mut *mut u8, *mut u64, *mut c_void) -> u64;
type TraceFn = unsafe extern "C" fn(u32, *mut c_void, u64, *mut c_void) -> u32;
type IsaFn = unsafe extern "C" fn(*mut u8, *mut u64, *mut u64, Pc, *mut c_void) -> u32;
type ParseFn = unsafe extern "C" fn(SeDataFn, TraceFn, IsaFn, *mut c_void) -> u32;

const PARSE_SYMBOL: &str = "rocprof_trace_decoder_parse_data";

static PARSE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Zero bytes placed after the stream handed to AMD's decoder (it reads up to a 64-bit token
/// window past the end).
const TAIL_PADDING: usize = 64;

pub(crate) enum OpenError {
    Load(String),
    Symbol(&'static str, String),
}

/// The loaded library and its entry point.
#[derive(Debug)]
pub(crate) struct Library {
    parse: ParseFn,
    // Keeps `parse` valid: dropped after it, never unloaded while `parse` may run.
    _lib: libloading::Library,
}

impl Library {
    pub(crate) fn open(path: &Path) -> Result<Self, OpenError> {
        // SAFETY: loading runs the library's initialisers. AMD's decoder has no load-time side
        // effects beyond its own static state; a user pointing us at another library is the
        // documented contract of --att-library-path.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| OpenError::Load(e.to_string()))?;
        // SAFETY: the symbol's C type is `rocprof_trace_decoder_parse_data` from AMD's header,
        // which `ParseFn` spells out; the function pointer is copied out while `lib` stays alive in
        // the returned struct.
        let parse = unsafe { lib.get::<ParseFn>(PARSE_SYMBOL.as_bytes()) }
            .map(|s| *s)
            .map_err(|e| OpenError::Symbol(PARSE_SYMBOL, e.to_string()))?;
        Ok(Self { parse, _lib: lib })
    }

    pub(crate) fn parse<'a>(
        &self,
        stream: &'a [u8],
        code: &'a CodeObject,
        text: Option<&'a mut dyn FnMut(u64) -> Option<String>>,
    ) -> Result<SeDecode, Error> {
        // AMD's decoder reads a little past the end of the buffer it is given (its last token
        // window); hand it a copy followed by zeros so that it never reads outside our memory
        // and sees the zero padding a truncated trace file would give it.
        let mut padded = Vec::with_capacity(stream.len() + TAIL_PADDING);
        padded.extend_from_slice(stream);
        padded.resize(stream.len() + TAIL_PADDING, 0);
        let stream = &padded[..stream.len()];
        let mut st = CallState { stream, given: false, code, out: SeDecode::default(), failed: false, text };
        // AMD's 0.1.6 decoder keeps global state (concurrent calls from test threads produced
        // wrong records), so calls are serialised process-wide.
        let _guard = PARSE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the callbacks match AMD's typedefs; `st` outlives the call and is only reached
        // through the userdata pointer during it; the decoder does not retain the callbacks.
        let status = unsafe { (self.parse)(se_data, trace, isa, (&mut st as *mut CallState<'_, '_>).cast()) };
        if status != STATUS_SUCCESS || st.failed {
            let status = if st.failed { STATUS_ERROR } else { status };
            let name = STATUS_NAMES.get(status as usize).copied().unwrap_or("UNKNOWN");
            return Err(Error::Status { status, name });
        }
        Ok(st.out)
    }
}

struct CallState<'s, 'a> {
    stream: &'s [u8],
    given: bool,
    code: &'a CodeObject,
    out: SeDecode,
    failed: bool,
    /// Caller-supplied instruction text by absolute address.
    text: Option<&'a mut dyn FnMut(u64) -> Option<String>>,
}

/// # Safety
/// `userdata` is the `CallState` passed to `parse`; `buffer` and `size` are writable.
unsafe extern "C" fn se_data(buffer: *mut *mut u8, size: *mut u64, userdata: *mut c_void) -> u64 {
    // SAFETY: per this function's contract userdata is our live, exclusively used CallState.
    let st = unsafe { &mut *userdata.cast::<CallState<'_, '_>>() };
    if st.given {
        return 0;
    }
    st.given = true;
    // SAFETY: the decoder passes valid out-pointers; it only reads the buffer (the header's
    // pointer type is not const, the data is never written), and the buffer is followed by
    // TAIL_PADDING readable zero bytes for its over-read.
    unsafe {
        *buffer = st.stream.as_ptr().cast_mut();
        *size = st.stream.len() as u64;
    }
    st.stream.len() as u64
}

/// # Safety
/// `userdata` is our `CallState`; `events` points at `count` records of the layout `kind` names.
unsafe extern "C" fn trace(kind: u32, events: *mut c_void, count: u64, userdata: *mut c_void) -> u32 {
    // SAFETY: as in `se_data`.
    let st = unsafe { &mut *userdata.cast::<CallState<'_, '_>>() };
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: forwarded contract of this function.
        unsafe { collect(&mut st.out, st.code, kind, events, count as usize) }
    }));
    if r.is_err() {
        st.failed = true;
        return STATUS_ERROR;
    }
    STATUS_SUCCESS
}

fn category(c: u32) -> Category {
    use Category::*;
    [None, Smem, Salu, Vmem, Flat, Lds, Valu, Jump, Next, Immed, Context, Message, Bvh]
        .get(c as usize)
        .copied()
        .unwrap_or(None)
}

fn state(s: i32) -> WaveState {
    match s {
        1 => WaveState::Idle,
        2 => WaveState::Exec,
        3 => WaveState::Wait,
        4 => WaveState::Stall,
        _ => WaveState::Empty,
    }
}

/// Slice view of a record array, empty for a null pointer.
///
/// # Safety
/// Non-null `p` points at `n` initialised `T` valid for the callback's duration.
unsafe fn records<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: per this function's contract.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

/// # Safety
/// `events` points at `count` records of type `kind` (or carries the GFX IP for GFXIP).
unsafe fn collect(out: &mut SeDecode, code: &CodeObject, kind: u32, events: *mut c_void, count: usize) {
    // With code-object markers in the stream the decoder reports (id, offset) PCs.
    let abs = |pc: Pc| code.absolute(pc.code_object_id, pc.address).unwrap_or(pc.address);
    match kind {
        record::GFXIP => out.gfxip = events as usize as u8,
        record::OCCUPANCY => {
            // SAFETY: OCCUPANCY records are `rocprofiler_thread_trace_decoder_occupancy_t`.
            for o in unsafe { records(events.cast::<RawOccupancy>(), count) } {
                out.occupancy.push(Occupancy {
                    time: o.time as i64,
                    cu: o.cu,
                    simd: o.simd,
                    wave_id: o.wave_id,
                    start: o.bits & 1 != 0,
                    pc: abs(o.pc),
                });
            }
        }
        record::WAVE => {
            // SAFETY: WAVE records are `rocprofiler_thread_trace_decoder_wave_t`.
            for w in unsafe { records(events.cast::<RawWave>(), count) } {
                // SAFETY: the wave's arrays hold the announced number of elements.
                let insts = unsafe { records(w.instructions, w.instructions_size as usize) };
                // SAFETY: as above.
                let states = unsafe { records(w.timeline, w.timeline_size as usize) };
                out.waves.push(Wave {
                    cu: w.cu,
                    simd: w.simd,
                    wave_id: w.wave_id,
                    contexts: w.contexts,
                    begin_time: w.begin_time,
                    end_time: w.end_time,
                    instructions: insts
                        .iter()
                        .map(|i| Instruction {
                            pc: abs(i.pc),
                            time: i.time,
                            stall: i64::from(i.cat_stall >> 8),
                            duration: i64::from(i.duration),
                            category: category(i.cat_stall & 0xff),
                        })
                        .collect(),
                    timeline: states.iter().map(|s| (state(s.kind), i64::from(s.duration))).collect(),
                });
            }
        }
        record::INFO => {
            // SAFETY: INFO records are 32-bit `rocprofiler_thread_trace_decoder_info_t` values.
            for &i in unsafe { records(events.cast::<u32>(), count) } {
                match i {
                    1 => out.info.push(Info::DataLost),
                    2 => out.info.push(Info::StitchIncomplete),
                    3 => out.info.push(Info::WaveIncomplete),
                    _ => {}
                }
            }
        }
        record::PERFEVENT => {
            // SAFETY: PERFEVENT records are `rocprofiler_thread_trace_decoder_perfevent_t`.
            for p in unsafe { records(events.cast::<RawPerf>(), count) } {
                out.perfevents.push(PerfEvent { time: p.time, events: p.events, cu: p.cu, bank: p.bank });
            }
        }
        record::SHADERDATA => {
            // SAFETY: SHADERDATA records are `rocprofiler_thread_trace_decoder_shaderdata_t`.
            for d in unsafe { records(events.cast::<RawShaderData>(), count) } {
                let _ = d.reserved;
                out.shaderdata.push(ShaderData {
                    time: d.time,
                    value: d.value,
                    cu: d.cu,
                    simd: d.simd,
                    wave_id: d.wave_id,
                    flags: d.flags,
                });
            }
        }
        record::REALTIME => {
            // SAFETY: REALTIME records are `rocprofiler_thread_trace_decoder_realtime_t`.
            for r in unsafe { records(events.cast::<RawRealtime>(), count) } {
                out.realtime.push(Realtime { shader_clock: r.shader_clock, realtime_clock: r.realtime_clock });
            }
        }
        record::INST_OTHER_SIMD => {
            // SAFETY: INST_OTHER_SIMD records are `rocprofiler_thread_trace_decoder_inst_other_simd_t`.
            for o in unsafe { records(events.cast::<RawOtherSimd>(), count) } {
                let _ = o.size;
                out.other_simd.push(OtherSimd {
                    time: o.time,
                    cycles: o.cycles,
                    wgp: o.wgp,
                    category: category(u32::from(o.category)),
                });
            }
        }
        _ => {}
    }
}

/// # Safety
/// `text` has room for `*size` bytes; `memory_size` and `size` are writable; `userdata` is ours.
unsafe extern "C" fn isa(text: *mut u8, memory_size: *mut u64, size: *mut u64, pc: Pc, userdata: *mut c_void) -> u32 {
    // SAFETY: as in `se_data`.
    let st = unsafe { &mut *userdata.cast::<CallState<'_, '_>>() };
    let prog = st.code.program();
    // With code-object markers in the stream the decoder asks by (id, offset in the object).
    let Some(address) = st.code.absolute(pc.code_object_id, pc.address) else { return STATUS_INVALID_ARGUMENT };
    let Some(line) = prog.line_at(address) else { return STATUS_INVALID_ARGUMENT };
    let (_, info) = prog.line(line);
    let supplied = match st.text.as_mut() {
        Some(f) => catch_unwind(AssertUnwindSafe(|| f(address))).ok().flatten(),
        None => None,
    };
    let line_text = supplied.unwrap_or_else(|| class_text(&info));
    // SAFETY: the decoder passes valid in/out pointers for the sizes.
    let room = unsafe { *size } as usize;
    // SAFETY: as above.
    unsafe { *size = line_text.len() as u64 };
    if room < line_text.len() {
        return STATUS_OUT_OF_RESOURCES;
    }
    // SAFETY: `text` has `room` >= len writable bytes; the regions cannot overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(line_text.as_ptr(), text, line_text.len());
        *memory_size = u64::from(info.size);
    }
    STATUS_SUCCESS
}
