//! PM4 indirect-buffer vendor packets: validate the AQL wrapper and the INDIRECT_BUFFER, log the type-3
//! stream it points at (opcode name, dwords) to `ROCPROF_RS_SIM_PM4_LOG`, then execute it with the device
//! model's PM4 executor (`rocprof_device::pm4`, stage 2 of `hsa-sim-notes.md` §3.4): register writes,
//! counter reads, memory writes, per-XCC predication. Nothing is silently ignored: unknown opcodes,
//! unsatisfiable waits and bad addresses are logged and counted as violations; a malformed wrapper or an IB
//! outside live memory stops the queue with `HSA_STATUS_ERROR_INVALID_PACKET_FORMAT`, as a page fault would.
//!
//! Layout (AMD `hsa_ext_amd_aql_pm4_packet_t` with ROCr's `ExecutePM4`/aqlprofile contents): format u16 @2 = 1,
//! INDIRECT_BUFFER u32[4] @4 = header `0xC0023F00`, address lo (bits 31:2), address hi, control (IB_SIZE
//! bits 19:0 in dwords, VALID bit 23), `dw_cnt_remain` u32 @20 = 10, reserved u32[8] @24, completion @56.

use std::sync::atomic::{AtomicU64, Ordering};

use rocprof_device::pm4::{DeviceMemory, Pm4Device};
use rocprof_hsa_sys::*;

use crate::aql::{u32_at, u64_at};
use crate::ffi::Status;
use crate::queue::Queue;
use crate::{dispatch_log, memory};

/// Violations found so far (malformed wrappers, bad IBs, unknown opcodes, truncated packets).
static VIOLATIONS: AtomicU64 = AtomicU64::new(0);
/// PM4-IB packets executed.
static EXECUTED: AtomicU64 = AtomicU64::new(0);

/// Test hook: number of PM4 violations seen by this process.
#[no_mangle]
pub extern "C" fn rocprof_sim_pm4_violations() -> u64 {
    VIOLATIONS.load(Ordering::Relaxed)
}

/// Test hook: number of PM4-IB vendor packets executed by this process.
#[no_mangle]
pub extern "C" fn rocprof_sim_pm4_packets() -> u64 {
    EXECUTED.load(Ordering::Relaxed)
}

/// Name of a PM4 IT opcode (those our profiler and aqlprofile emit).
pub(crate) fn opcode_name(op: u32) -> Option<&'static str> {
    Some(match op {
        0x10 => "NOP",
        0x1E => "ATOMIC_MEM",
        0x23 => "PRED_EXEC",
        0x37 => "WRITE_DATA",
        0x3C => "WAIT_REG_MEM",
        0x3F => "INDIRECT_BUFFER",
        0x40 => "COPY_DATA",
        0x46 => "EVENT_WRITE",
        0x58 => "ACQUIRE_MEM",
        0x76 => "SET_SH_REG",
        0x79 => "SET_UCONFIG_REG",
        _ => return None,
    })
}

/// One parsed type-3 packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pm4Packet {
    pub(crate) offset_dw: usize,
    pub(crate) opcode: u32,
    pub(crate) body: Vec<u32>,
}

/// Problems found while parsing a PM4 stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pm4Issue {
    /// Not a type-3 header at this dword offset.
    BadHeader { offset_dw: usize, word: u32 },
    /// Packet runs past the end of the buffer.
    Truncated { offset_dw: usize },
    /// Opcode we do not know.
    UnknownOpcode { offset_dw: usize, opcode: u32 },
}

/// Parses a PM4 stream; stops at the first structural problem (unknown opcodes are reported but skipped).
pub(crate) fn parse(dwords: &[u32]) -> (Vec<Pm4Packet>, Vec<Pm4Issue>) {
    let mut out = Vec::new();
    let mut issues = Vec::new();
    let mut i = 0;
    while i < dwords.len() {
        let h = dwords[i];
        if h >> 30 != 3 {
            issues.push(Pm4Issue::BadHeader { offset_dw: i, word: h });
            break;
        }
        let count = ((h >> 16) & 0x3fff) as usize + 1;
        let opcode = (h >> 8) & 0xff;
        if i + 1 + count > dwords.len() {
            issues.push(Pm4Issue::Truncated { offset_dw: i });
            break;
        }
        if opcode_name(opcode).is_none() {
            issues.push(Pm4Issue::UnknownOpcode { offset_dw: i, opcode });
        }
        out.push(Pm4Packet { offset_dw: i, opcode, body: dwords[i + 1..i + 1 + count].to_vec() });
        i += 1 + count;
    }
    (out, issues)
}

/// Checks the AQL wrapper; returns (IB address, IB size in dwords).
pub(crate) fn check_wrapper(pkt: &[u8; 64]) -> Result<(u64, usize), &'static str> {
    if u16::from_le_bytes([pkt[2], pkt[3]]) != 1 {
        return Err("format is not PM4_IB (1)");
    }
    let ib_header = u32_at(pkt, 4);
    if ib_header != 0xC002_3F00 {
        return Err("dword @4 is not an INDIRECT_BUFFER header (0xC0023F00)");
    }
    let lo = u32_at(pkt, 8);
    if lo & 3 != 0 {
        return Err("IB address is not dword aligned");
    }
    let addr = u64::from(lo) | (u64::from(u32_at(pkt, 12) & 0xffff) << 32);
    let control = u32_at(pkt, 16);
    let size = (control & 0xf_ffff) as usize;
    if control & (1 << 23) == 0 {
        return Err("IB VALID bit (23) is clear");
    }
    if size == 0 {
        return Err("IB size is 0");
    }
    if u32_at(pkt, 20) != 10 {
        return Err("dw_cnt_remain is not 10");
    }
    if (24..56).step_by(4).any(|o| u32_at(pkt, o) != 0) {
        return Err("reserved dwords 24..56 are not zero");
    }
    Ok((addr, size))
}

fn violation(q: &Queue, index: u64, what: &str) {
    VIOLATIONS.fetch_add(1, Ordering::Relaxed);
    dispatch_log::pm4_line(&format!("queue={} index={index} VIOLATION {what}", q.id()));
}

/// Executes (validates, parses, logs) one PM4-IB packet.
/// Returns whether the packet completed: false when the simulator-only fault `pmc_read` of
/// `ROCPROF_RS_SIM_FAIL` drops the completion of a packet that read counters back (see `faults`).
pub(crate) fn execute_ib(q: &'static Queue, index: u64, pkt: &[u8; 64]) -> Result<bool, Status> {
    EXECUTED.fetch_add(1, Ordering::Relaxed);
    let (addr, size) = match check_wrapper(pkt) {
        Ok(v) => v,
        Err(what) => {
            violation(q, index, what);
            return Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
        }
    };
    if !memory::contains(addr as usize, size * 4) {
        violation(q, index, &format!("IB {addr:#x}+{} dwords is not inside a live allocation", size));
        return Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    }
    let mut dwords = vec![0u32; size];
    // SAFETY: the range lies inside a live allocation (checked above); read as plain bytes.
    unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, dwords.as_mut_ptr().cast::<u8>(), size * 4) };
    if dispatch_log::pm4_enabled() {
        let (packets, _) = parse(&dwords);
        dispatch_log::pm4_line(&format!(
            "queue={} index={index} PM4_IB addr={addr:#x} dwords={size} packets={} completion={:#x}",
            q.id(),
            packets.len(),
            u64_at(pkt, 56)
        ));
        for p in &packets {
            let body: Vec<String> = p.body.iter().map(|d| format!("{d:08x}")).collect();
            dispatch_log::pm4_line(&format!(
                "  +{} {} {}",
                p.offset_dw,
                opcode_name(p.opcode).unwrap_or("UNKNOWN"),
                body.join(" ")
            ));
        }
    }
    let Some(model) = q.agent.gpu() else {
        violation(q, index, "PM4 IB on an agent without a command processor");
        return Ok(true);
    };
    let device = q.agent.pm4.get_or_init(|| std::sync::Mutex::new(Pm4Device::new(model)));
    let report = device.lock().unwrap_or_else(|e| e.into_inner()).execute(&dwords, &SimMemory);
    for i in report.issues {
        violation(q, index, &format!("{i:?}"));
    }
    Ok(report.counter_reads == 0 || !crate::faults::fail(crate::faults::PMC_READ))
}

/// Device memory for the executor: any live allocation (pool memory is host memory in the sim).
struct SimMemory;

impl DeviceMemory for SimMemory {
    fn read(&self, addr: u64, out: &mut [u8]) -> bool {
        if !memory::contains(addr as usize, out.len()) {
            return false;
        }
        // SAFETY: the range lies inside a live allocation (checked above).
        unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, out.as_mut_ptr(), out.len()) };
        true
    }

    fn gpu_clock(&self) -> u64 {
        crate::clock::gpu_ticks(0)
    }

    fn write(&self, addr: u64, data: &[u8]) -> bool {
        if !memory::contains(addr as usize, data.len()) {
            return false;
        }
        // SAFETY: the range lies inside a live allocation (checked above); device writes race with host
        // access exactly as they do on hardware (the profiler reads only after the packet completed).
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), addr as *mut u8, data.len()) };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_register_writes_and_flags_unknown_opcodes() {
        // SET_UCONFIG_REG reg 0x3000 = 5; EVENT_WRITE CS_PARTIAL_FLUSH; opcode 0x99 (unknown) with 1 dword.
        let s = [0xC001_7900, 0x3000, 5, 0xC000_4600, 0x407, 0xC000_9900, 0];
        let (p, issues) = parse(&s);
        assert_eq!(p.len(), 3);
        assert_eq!((p[0].opcode, p[0].body.clone()), (0x79, vec![0x3000, 5]));
        assert_eq!(p[1].opcode, 0x46);
        assert_eq!(issues, vec![Pm4Issue::UnknownOpcode { offset_dw: 5, opcode: 0x99 }]);
    }

    #[test]
    fn detects_truncation_and_bad_headers() {
        assert_eq!(parse(&[0xC001_7900, 1]).1, vec![Pm4Issue::Truncated { offset_dw: 0 }]);
        assert_eq!(parse(&[0x1234]).1, vec![Pm4Issue::BadHeader { offset_dw: 0, word: 0x1234 }]);
    }

    fn wrapper(addr: u64, size: u32) -> [u8; 64] {
        let mut p = [0u8; 64];
        p[2] = 1;
        p[4..8].copy_from_slice(&0xC002_3F00u32.to_le_bytes());
        p[8..12].copy_from_slice(&((addr as u32) & !3).to_le_bytes());
        p[12..16].copy_from_slice(&((addr >> 32) as u32).to_le_bytes());
        p[16..20].copy_from_slice(&(0x1080_0000u32 | size).to_le_bytes());
        p[20..24].copy_from_slice(&10u32.to_le_bytes());
        p
    }

    #[test]
    fn wrapper_checks() {
        assert_eq!(check_wrapper(&wrapper(0x7f00_1234_5000, 12)), Ok((0x7f00_1234_5000, 12)));
        let mut bad = wrapper(0x1000, 12);
        bad[20] = 9;
        assert!(check_wrapper(&bad).unwrap_err().contains("dw_cnt_remain"));
        assert!(check_wrapper(&wrapper(0x1000, 0)).unwrap_err().contains("size"));
        let mut hdr = wrapper(0x1000, 4);
        hdr[5] = 0x40;
        assert!(check_wrapper(&hdr).unwrap_err().contains("INDIRECT_BUFFER"));
    }

    use crate::memory::hsa_amd_memory_pool_free;
    use crate::queue_api::{hsa_queue_create, hsa_queue_destroy};
    use crate::signal::hsa_signal_wait_scacquire;
    use crate::testing::*;
    use std::sync::atomic::AtomicU32;

    static ERRORS: AtomicU32 = AtomicU32::new(0);

    unsafe extern "C" fn on_error(status: hsa_status_t, _q: *mut hsa_queue_t, _d: *mut std::ffi::c_void) {
        assert_eq!(status, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
        ERRORS.fetch_add(1, Ordering::SeqCst);
    }

    #[test]
    fn pm4_ib_packets_execute_from_pool_memory_and_stop_the_queue_otherwise() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let sys = crate::runtime::system().unwrap();
        let pool = sys.cpu().pools[0];
        let ib = crate::memory::allocate(pool, 4096).unwrap().cast::<u32>();
        let stream = [0xC001_7900u32, 0x3000, 5, 0xC000_4600, 0x407];
        // SAFETY: `ib` is a fresh 4 KiB allocation.
        unsafe { std::ptr::copy_nonoverlapping(stream.as_ptr(), ib, stream.len()) };
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        let created = unsafe {
            hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, Some(on_error), std::ptr::null_mut(), 0, 0, &mut q)
        };
        assert_eq!(created, HSA_STATUS_SUCCESS);
        let done = signal(1);
        let (packets, violations) = (rocprof_sim_pm4_packets(), rocprof_sim_pm4_violations());
        let mut p = wrapper(ib as u64, stream.len() as u32);
        p[0..2].copy_from_slice(&((HSA_PACKET_TYPE_VENDOR_SPECIFIC as u16) | (1 << 8)).to_le_bytes());
        p[56..64].copy_from_slice(&done.handle.to_le_bytes());
        submit(q, &p);
        // SAFETY: live signal.
        let value = unsafe {
            hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 5_000_000_000, HSA_WAIT_STATE_BLOCKED)
        };
        assert_eq!(value, 0);
        assert_eq!(rocprof_sim_pm4_packets(), packets + 1);
        assert_eq!(rocprof_sim_pm4_violations(), violations, "a well-formed IB is no violation");
        // An IB outside any allocation is a fault: the queue stops and reports through its callback.
        let stack_ib = [0u32; 8];
        let mut bad = wrapper(stack_ib.as_ptr() as u64, 8);
        bad[0..2].copy_from_slice(&(HSA_PACKET_TYPE_VENDOR_SPECIFIC as u16).to_le_bytes());
        submit(q, &bad);
        for _ in 0..2000 {
            if ERRORS.load(Ordering::SeqCst) == 1 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(ERRORS.load(Ordering::SeqCst), 1);
        assert_eq!(rocprof_sim_pm4_violations(), violations + 1);
        // SAFETY: queue and allocation created above.
        unsafe {
            assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_amd_memory_pool_free(ib.cast()), HSA_STATUS_SUCCESS);
        }
        shut_down();
    }
}
