//! PC sampling through ROCr's PC-sampling extension (`hsa_ven_amd_pc_sampling`, table 1.00), as
//! rocprofiler-sdk drives it: the same calls run on a real MI200/MI300 and on hsa-sim.
//!
//! The launch setting `PcSampling` (`METHOD,UNIT,INTERVAL`, set by the CLI; `host_trap,time,N` is what the
//! runtime offers for gfx90a/gfx942) turns it on when the runtime is first seen: for every GPU, one
//! session is created with `hsa_ven_amd_pcs_create` and started. The runtime hands samples to
//! [`data_ready`] from its own thread; each becomes a [`PcSampleRecord`] in the capture, with the
//! instruction's bytes read through the loader's host address of the code. Samples the runtime reports
//! lost, and samples that could not be copied or recorded, are counted as
//! [`LossReason::PcSamplesLost`].
//!
//! A sample names its dispatch as the trap handler sees it (ring index and doorbell of the hardware
//! queue); the runtime reports that place to an intercept marker packet put right before the kernel
//! packet ([`marker_before`]), whose callback records a [`PcSampleDispatchRecord`] for the CLI to map
//! samples back to dispatches.
//!
//! Hot path: [`marker_before`] builds one packet on the stack; the marker callback (in the runtime's
//! packet writer) makes one `hsa_amd_queue_get_info` call and writes one record. No locks, no
//! allocation; the data-ready callback copies into a buffer allocated when sampling started.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use rocprof_hsa_sys::*;
use rocprof_model::capture::pcsamp::{PcSampleDispatchRecord, PcSampleRecord};
use rocprof_model::health::LossReason;

use crate::diag::Level;
use crate::state::{self, Global};
use crate::tables::Originals;
use crate::{clock, diag};

/// Bytes of the runtime's sample buffer per session (and of our copy of one delivery).
const BUFFER_BYTES: usize = 1 << 20;
/// Most GPUs sampled.
const MAX_SESSIONS: usize = 16;

/// What the CLI asked for, in the runtime's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// `hsa_ven_amd_pcs_method_kind_t`.
    pub method: u32,
    /// `hsa_ven_amd_pcs_units_t`.
    pub units: u32,
    /// Interval in `units`.
    pub interval: usize,
}

impl Request {
    /// The runtime's constants for the launch setting.
    pub fn new(s: &rocprof_launch::PcSampling) -> Request {
        use rocprof_launch::{PcsMethod, PcsUnit};
        let method = match s.method {
            PcsMethod::HostTrap => HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1,
            PcsMethod::Stochastic => HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1,
        };
        let units = match s.unit {
            PcsUnit::Time => HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS,
            PcsUnit::Cycles => HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES,
            PcsUnit::Instructions => HSA_VEN_AMD_PCS_INTERVAL_UNITS_INSTRUCTIONS,
        };
        Request { method, units, interval: s.interval as usize }
    }

    /// Whether configuration `c` takes this request.
    pub fn fits(&self, c: &hsa_ven_amd_pcs_configuration_t) -> bool {
        let pow2 = c.flags & u64::from(HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2) != 0;
        c.method == self.method
            && c.units == self.units
            && (c.min_interval..=c.max_interval).contains(&self.interval)
            && (!pow2 || self.interval.is_power_of_two())
    }
}

/// `hsa_ven_amd_pcs_iterate_configuration`.
type PfnIterateConfiguration =
    unsafe extern "C" fn(hsa_agent_t, hsa_ven_amd_pcs_iterate_configuration_callback_t, *mut c_void) -> hsa_status_t;

/// One agent's session.
struct Session {
    agent: u64,
    handle: hsa_ven_amd_pcs_t,
    /// Our copy of one delivery (allocated when the session starts). Host-trap and stochastic samples
    /// are both 64 bytes with the same common fields; a host-trap sample's snapshot words are reserved.
    buffer: Mutex<Vec<perf_sample_snapshot_v1_t>>,
}

struct Pcs {
    /// `HSA_VEN_AMD_PCS_METHOD_*` of every session.
    method: u32,
    table: hsa_ven_amd_pc_sampling_1_00_pfn_t,
    queue_get_info: Option<PFN_hsa_amd_queue_get_info>,
    query_host_address: Option<unsafe extern "C" fn(*const c_void, *mut *const c_void) -> hsa_status_t>,
    sessions: Vec<Session>,
}

static PCS: OnceLock<Pcs> = OnceLock::new();
/// Where the images of code objects loaded from memory go (`<capture>/pcsamp/<pid>`), so the CLI can
/// read their source lines (DWARF `.debug_line`) after the process is gone.
static CODE_DIR: OnceLock<std::path::PathBuf> = OnceLock::new();

/// Keeps the image of a code object loaded from memory while PC sampling is on (cold path: the
/// executable's freeze). A code object loaded from a file is read from its URI later.
pub fn code_object_loaded(id: u64, memory_base: u64, memory_size: u64) {
    let Some(dir) = CODE_DIR.get() else { return };
    if !enabled() || memory_base == 0 || memory_size == 0 {
        return;
    }
    let path = rocprof_model::capture::pcsamp::code_object_file(dir, std::process::id(), id);
    // SAFETY: the loader reported this range as the code object's image in host memory, alive during
    // the freeze that loads it.
    let bytes = unsafe { std::slice::from_raw_parts(memory_base as *const u8, memory_size as usize) };
    let r = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(&path, bytes));
    if let Err(e) = r {
        diag!(Level::Warning, "PC sampling: cannot keep code object {id} for source lines ({}): {e}", path.display());
    }
}
/// Sampling is on (read per dispatch).
static ON: AtomicBool = AtomicBool::new(false);
/// Samples recorded (for the overhead figures).
static RECORDED: AtomicU64 = AtomicU64::new(0);

/// Whether dispatches get a correlation marker.
pub fn enabled() -> bool {
    ON.load(Ordering::Acquire)
}

fn pcs_table(o: &Originals) -> Option<hsa_ven_amd_pc_sampling_1_00_pfn_t> {
    let f = o.system_get_major_extension_table?;
    // SAFETY: the table is plain nullable function pointers; all-zero is a valid value.
    let mut t: hsa_ven_amd_pc_sampling_1_00_pfn_t = unsafe { std::mem::zeroed() };
    // SAFETY: `t` is writable for the length we pass.
    let rc = unsafe {
        f(
            HSA_EXTENSION_AMD_PC_SAMPLING as u16,
            1,
            std::mem::size_of::<hsa_ven_amd_pc_sampling_1_00_pfn_t>(),
            (&mut t as *mut hsa_ven_amd_pc_sampling_1_00_pfn_t).cast(),
        )
    };
    (rc == HSA_STATUS_SUCCESS).then_some(t)
}

/// Whether one of `agent`'s configurations (`hsa_ven_amd_pcs_iterate_configuration`) takes `req`: its
/// method and unit, the interval in its range, a power of two where the configuration says so.
fn offers(iterate: PfnIterateConfiguration, agent: u64, req: &Request) -> bool {
    unsafe extern "C" fn take(c: *const hsa_ven_amd_pcs_configuration_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the `(Request, bool)` of [`offers`], alive for the iteration; `c` is the runtime's
        // configuration, valid for the call (checked for null).
        let (req, found) = unsafe { &mut *data.cast::<(Request, bool)>() };
        // SAFETY: as above.
        let Some(c) = (unsafe { c.as_ref() }) else { return HSA_STATUS_SUCCESS };
        *found = req.fits(c);
        if *found {
            HSA_STATUS_INFO_BREAK
        } else {
            HSA_STATUS_SUCCESS
        }
    }
    let mut data = (*req, false);
    // SAFETY: a GPU agent of this runtime, a callback and its data valid for the call.
    let rc = unsafe { iterate(hsa_agent_t { handle: agent }, Some(take), (&mut data as *mut (Request, bool)).cast()) };
    // An iteration that fails says nothing about the agent: create decides (and reports).
    data.1 || (rc != HSA_STATUS_SUCCESS && rc != HSA_STATUS_INFO_BREAK)
}

/// Starts sampling on every GPU of `gpus` when the PC-sampling setting asks for it (once per process,
/// when the runtime is first seen; `OnLoad` context).
pub fn init(o: &Originals, gpus: &[u64], capture_dir: Option<&std::path::Path>) {
    let Some(setting) = &crate::env::env().pc_sampling else { return };
    if let Some(d) = capture_dir {
        let _ = CODE_DIR.set(d.to_path_buf());
    }
    let (req, text) = match setting {
        Ok(s) => (Request::new(s), rocprof_launch::Setting::encode(s)),
        Err(e) => {
            diag!(Level::Error, "{}: {e}; no PC sampling", rocprof_launch::names::PC_SAMPLING);
            return;
        }
    };
    let Some(table) = pcs_table(o) else {
        diag!(Level::Error, "the runtime has no PC-sampling extension (HSA_EXTENSION_AMD_PC_SAMPLING); no PC sampling");
        return;
    };
    let (Some(create), Some(start)) = (table.hsa_ven_amd_pcs_create, table.hsa_ven_amd_pcs_start) else {
        diag!(Level::Error, "the runtime's PC-sampling table lacks create/start; no PC sampling");
        return;
    };
    let mut sessions = Vec::new();
    for &agent in gpus.iter().take(MAX_SESSIONS) {
        // As rocprofiler-sdk configures sampling on every agent: an agent none of whose configurations
        // takes the request is skipped (the CLI said so before launch), not a failure.
        if let Some(iterate) = table.hsa_ven_amd_pcs_iterate_configuration {
            if !offers(iterate, agent, &req) {
                diag!(Level::Info, "agent {agent:#x} offers no PC-sampling configuration for {text}; not sampled");
                continue;
            }
        }
        let mut handle = hsa_ven_amd_pcs_t { handle: 0 };
        // The session index is the callback's data (the session list is final before any start).
        let index = sessions.len();
        // SAFETY: a GPU agent of this runtime, a callback that stays valid for the process, an out-pointer.
        let rc = unsafe {
            create(
                hsa_agent_t { handle: agent },
                req.method,
                req.units,
                req.interval,
                0,
                BUFFER_BYTES,
                Some(pc_sampling_data_ready),
                index as *mut c_void,
                &mut handle,
            )
        };
        if rc != HSA_STATUS_SUCCESS {
            diag!(Level::Error, "hsa_ven_amd_pcs_create on agent {agent:#x} failed ({rc:#x}); that GPU is not sampled");
            continue;
        }
        let n = BUFFER_BYTES / std::mem::size_of::<perf_sample_snapshot_v1_t>();
        // SAFETY: all-zero is a valid sample (plain integers).
        let zero: perf_sample_snapshot_v1_t = unsafe { std::mem::zeroed() };
        sessions.push(Session { agent, handle, buffer: Mutex::new(vec![zero; n]) });
    }
    let loader = o.loader.and_then(|l| l.hsa_ven_amd_loader_query_host_address);
    if PCS
        .set(Pcs { method: req.method, table, queue_get_info: o.queue_get_info, query_host_address: loader, sessions })
        .is_err()
    {
        return;
    }
    let Some(p) = PCS.get() else { return };
    ON.store(true, Ordering::Release);
    for s in &p.sessions {
        // SAFETY: a session we created.
        let rc = unsafe { start(s.handle) };
        if rc != HSA_STATUS_SUCCESS {
            diag!(Level::Error, "hsa_ven_amd_pcs_start on agent {:#x} failed ({rc:#x})", s.agent);
        }
    }
    diag!(Level::Info, "PC sampling on {} GPU(s): {text}", p.sessions.len());
}

/// Stops every session and hands over what the runtime still buffers (before the capture is sealed);
/// the sessions are destroyed at the final `OnUnload`.
pub fn finish(destroy: bool) {
    let Some(p) = PCS.get() else { return };
    if destroy {
        ON.store(false, Ordering::Release);
    }
    for s in &p.sessions {
        // SAFETY: sessions we created; stop fails harmlessly on a stopped one.
        unsafe {
            if let Some(stop) = p.table.hsa_ven_amd_pcs_stop {
                stop(s.handle);
            }
            if let Some(flush) = p.table.hsa_ven_amd_pcs_flush {
                flush(s.handle);
            }
            if destroy {
                if let Some(d) = p.table.hsa_ven_amd_pcs_destroy {
                    d(s.handle);
                }
            }
        }
    }
}

/// Samples recorded so far.
pub fn recorded() -> u64 {
    RECORDED.load(Ordering::Relaxed)
}

/// The runtime's data-ready callback (see [`pc_sampling_data_ready`]).
///
/// # Safety
/// The extension's contract: `copy` with `hsa_data` copies up to `data_size` bytes of samples during
/// this call.
pub unsafe fn data_ready(
    session: usize,
    data_size: usize,
    lost: usize,
    copy: hsa_ven_amd_pcs_data_copy_callback_t,
    hsa_data: *mut c_void,
) {
    let Some(g) = state::global() else { return };
    for _ in 0..lost {
        g.sink.count_loss(LossReason::PcSamplesLost);
    }
    const _: () =
        assert!(std::mem::size_of::<perf_sample_hosttrap_v1_t>() == std::mem::size_of::<perf_sample_snapshot_v1_t>());
    let sample = std::mem::size_of::<perf_sample_snapshot_v1_t>();
    let (Some(p), Some(copy)) = (PCS.get(), copy) else {
        count(g, data_size / sample);
        return;
    };
    let Some(s) = p.sessions.get(session) else {
        count(g, data_size / sample);
        return;
    };
    let mut buf = s.buffer.lock().unwrap_or_else(|e| e.into_inner());
    let n = (data_size / sample).min(buf.len());
    // SAFETY: `buf` holds at least `n` samples; the runtime copies `n * sample` bytes into it.
    let rc = unsafe { copy(hsa_data, n * sample, buf.as_mut_ptr().cast()) };
    if rc != HSA_STATUS_SUCCESS {
        count(g, data_size / sample);
        return;
    }
    count(g, data_size / sample - n);
    let stochastic = p.method == HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1;
    for x in &buf[..n] {
        let (inst_lo, inst_hi, inst_len) = instruction_at(p, x.pc);
        let rec = PcSampleRecord {
            agent_handle: s.agent,
            pc: x.pc,
            exec_mask: x.exec_mask,
            timestamp_ns: clock::from_runtime(x.timestamp),
            trap_correlation: x.correlation_id,
            inst_lo,
            inst_hi,
            workgroup_x: x.workgroup_id_x,
            workgroup_y: x.workgroup_id_y,
            workgroup_z: x.workgroup_id_z,
            wave_chiplet: x._bitfield_0 & 0x1ff,
            hw_id: x.hw_id,
            inst_len,
            method: p.method,
            // Host trap's words here are reserved.
            snapshot: if stochastic { x.perf_snapshot_data } else { 0 },
            snapshot1: if stochastic { x.perf_snapshot_data1 } else { 0 },
            snapshot2: if stochastic { x.perf_snapshot_data2 } else { 0 },
        };
        if g.sink.write(&rec) {
            RECORDED.fetch_add(1, Ordering::Relaxed);
        } else {
            g.sink.count_loss(LossReason::PcSamplesLost);
        }
    }
}

fn count(g: &Global, n: usize) {
    for _ in 0..n {
        g.sink.count_loss(LossReason::PcSamplesLost);
    }
}

/// Up to 16 bytes of code at `pc`, through the loader's host copy of the code object.
fn instruction_at(p: &Pcs, pc: u64) -> (u64, u64, u32) {
    let Some(q) = p.query_host_address else { return (0, 0, 0) };
    let mut host: *const c_void = std::ptr::null();
    // SAFETY: the loader answers for any device address (an error for one it does not know).
    if unsafe { q(pc as *const c_void, &mut host) } != HSA_STATUS_SUCCESS || host.is_null() {
        return (0, 0, 0);
    }
    let mut b = [0u8; 16];
    // The loader's host copy of a loaded segment: instructions are at most 12 bytes, and a kernel's code
    // is followed by padding or other code in the same segment, so 8 bytes are always readable and the
    // next 8 are when they lie in the same 4 KiB page (a segment is page-granular).
    let len = if (host as usize & 0xfff) <= 0x1000 - 16 { 16 } else { 8 };
    // SAFETY: `host` points into the loader's mapped host copy of the segment holding `pc` (above).
    unsafe { std::ptr::copy_nonoverlapping(host.cast::<u8>(), b.as_mut_ptr(), len) };
    let lo = u64::from_le_bytes(b[..8].try_into().unwrap_or_default());
    let hi = u64::from_le_bytes(b[8..].try_into().unwrap_or_default());
    (lo, hi, len as u32)
}

/// A dispatch's packets with the marker before its kernel packet, 64-byte aligned like queue slots.
#[repr(C, align(64))]
pub struct Marked(pub [[u8; 64]; 7]);

/// An intercept marker for the kernel packet of `dispatch_id` that will follow it.
pub fn marker_before(dispatch_id: u64, agent: u64) -> [u8; 64] {
    let m = amd_aql_intercept_marker_s {
        header: HSA_PACKET_TYPE_VENDOR_SPECIFIC as u16,
        format: AMD_AQL_FORMAT_INTERCEPT_MARKER as u8,
        reserved: [0; 5],
        callback: Some(pc_sampling_marker),
        user_data: [dispatch_id, agent, crate::clock::now_ns(), 0, 0, 0],
    };
    // SAFETY: the marker is a 64-byte plain-old-data packet (layout pinned in hsa-sys).
    unsafe { std::mem::transmute::<amd_aql_intercept_marker_s, [u8; 64]>(m) }
}

/// The marker's callback: the runtime is about to write the kernel packet at `packet_id` of `queue`.
///
/// # Safety
/// `packet` is the marker [`marker_before`] built; `queue` a live hardware queue.
pub unsafe fn on_marker(packet: *const amd_aql_intercept_marker_s, queue: *mut hsa_queue_t, packet_id: u64) {
    let (Some(g), Some(p)) = (state::global(), PCS.get()) else { return };
    if packet.is_null() || queue.is_null() {
        return;
    }
    // SAFETY: valid for the call (caller).
    let (m, size) = unsafe { (&*packet, u64::from((*queue).size)) };
    let mut doorbell = 0u64;
    if let Some(f) = p.queue_get_info {
        // SAFETY: a live queue and an out-pointer of the attribute's type (u64).
        unsafe { f(queue, HSA_AMD_QUEUE_INFO_DOORBELL_ID, (&mut doorbell as *mut u64).cast()) };
    }
    let rec = PcSampleDispatchRecord {
        dispatch_id: m.user_data[0],
        agent_handle: m.user_data[1],
        doorbell_id: doorbell,
        write_index: packet_id,
        queue_size: size,
        submitted_ns: m.user_data[2],
    };
    if !g.sink.write(&rec) {
        g.sink.count_loss(LossReason::PcSamplesLost);
    }
}

/// The PC-sampling extension's data-ready callback: records the samples ([`data_ready`]).
///
/// # Safety
/// Called by the runtime with the session index we registered and the extension's copy callback.
pub unsafe extern "C" fn pc_sampling_data_ready(
    client: *mut c_void,
    data_size: usize,
    lost: usize,
    copy: hsa_ven_amd_pcs_data_copy_callback_t,
    hsa_data: *mut c_void,
) {
    // SAFETY: forwarded contract.
    crate::guard::callback_guard("PC-sampling data callback", (), || unsafe {
        data_ready(client as usize, data_size, lost, copy, hsa_data)
    })
}

/// The intercept marker's callback before a sampled kernel packet ([`on_marker`]).
///
/// # Safety
/// Called by the runtime's packet writer with the marker and the hardware queue.
pub unsafe extern "C" fn pc_sampling_marker(
    packet: *const amd_aql_intercept_marker_s,
    queue: *mut hsa_queue_t,
    packet_id: u64,
) {
    // SAFETY: forwarded contract.
    crate::guard::callback_guard("PC-sampling marker", (), || unsafe { on_marker(packet, queue, packet_id) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(method: u32, units: u32, min: usize, max: usize, pow2: bool) -> hsa_ven_amd_pcs_configuration_t {
        let flags = if pow2 { u64::from(HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2) } else { 0 };
        hsa_ven_amd_pcs_configuration_t { method, units, min_interval: min, max_interval: max, flags }
    }

    /// `hsa_ven_amd_pc_sampling.h`: a configuration takes a request of its method and units whose
    /// interval lies in `[min_interval, max_interval]`, a power of two when its flags say so.
    #[test]
    fn a_request_fits_a_configuration_of_its_method_unit_and_interval_range() {
        let (ht, st) = (HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1, HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1);
        let (us, cyc) = (HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS, HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES);
        let host = config(ht, us, 1, 1_000_000, false);
        let stoch = config(st, cyc, 256, 1 << 31, true);
        let req = |method, units, interval| Request { method, units, interval };
        assert!(req(ht, us, 1).fits(&host));
        assert!(req(ht, us, 1_000_000).fits(&host));
        assert!(!req(ht, us, 0).fits(&host));
        assert!(!req(ht, us, 1_000_001).fits(&host));
        assert!(!req(ht, cyc, 10).fits(&host));
        assert!(!req(st, cyc, 1024).fits(&host));
        assert!(req(st, cyc, 1024).fits(&stoch));
        assert!(!req(st, cyc, 1000).fits(&stoch), "not a power of two");
        assert!(!req(st, cyc, 128).fits(&stoch), "below the range");
    }
}
