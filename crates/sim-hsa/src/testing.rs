//! In-process helpers for unit tests that drive the runtime through its table implementations.

use std::sync::Mutex;

use rocprof_hsa_sys::*;

use crate::code_object::{
    hsa_code_object_reader_create_from_memory, hsa_executable_create_alt, hsa_executable_freeze,
    hsa_executable_get_symbol_by_name, hsa_executable_load_agent_code_object, hsa_executable_symbol_get_info,
};
use crate::lifecycle::{hsa_init, hsa_shut_down};
use crate::queue_api::hsa_queue_add_write_index_scacq_screl;
use crate::signal::{hsa_signal_create, hsa_signal_store_screlease};

/// Serializes unit tests that touch process-wide runtime state (ABI, refcount, environment).
pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

/// Brings the runtime up (default configuration) and returns the first GPU agent.
pub(crate) fn init_gpu() -> hsa_agent_t {
    // A test that failed half-way may have left the runtime initialized; start from scratch so one
    // failure does not cascade into the next test.
    while crate::runtime::is_initialized() {
        // SAFETY: plain call of the runtime's own entry point.
        unsafe { hsa_shut_down() };
    }
    // SAFETY: plain calls of the runtime's own entry points.
    assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
    let sys = crate::runtime::system().expect("initialized");
    sys.agents.iter().find(|a| !a.is_cpu()).expect("a GPU agent").handle()
}

pub(crate) fn shut_down() {
    // SAFETY: balances `init_gpu`.
    assert_eq!(unsafe { hsa_shut_down() }, HSA_STATUS_SUCCESS);
}

/// Writes a packet into slot `index` of `q` (body first, header last with release) and rings.
pub(crate) fn submit(q: *mut hsa_queue_t, pkt: &[u8; 64]) -> u64 {
    // SAFETY: `q` is a live queue created by the test; the reserved slot is ours until published.
    unsafe {
        let index = hsa_queue_add_write_index_scacq_screl(q, 1);
        let base = (*q).base_address.cast::<u8>();
        let slot = base.add((index % u64::from((*q).size)) as usize * 64);
        std::ptr::copy_nonoverlapping(pkt.as_ptr().add(4), slot.add(4), 60);
        (*(slot as *const std::sync::atomic::AtomicU32))
            .store(u32::from_le_bytes(pkt[0..4].try_into().unwrap()), std::sync::atomic::Ordering::Release);
        hsa_signal_store_screlease((*q).doorbell_signal, index as i64);
        index
    }
}

/// A barrier-AND packet waiting for `dep` (0 = none) and completing `completion`.
pub(crate) fn barrier_and(dep: u64, completion: u64, barrier_bit: bool) -> [u8; 64] {
    let mut p = [0u8; 64];
    let header = HSA_PACKET_TYPE_BARRIER_AND as u16 | if barrier_bit { 1 << 8 } else { 0 } | (2 << 9) | (2 << 11);
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[8..16].copy_from_slice(&dep.to_le_bytes());
    p[56..64].copy_from_slice(&completion.to_le_bytes());
    p
}

pub(crate) fn signal(initial: i64) -> hsa_signal_t {
    let mut s = hsa_signal_t { handle: 0 };
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { hsa_signal_create(initial, 0, std::ptr::null(), &mut s) }, HSA_STATUS_SUCCESS);
    s
}

/// A kernel loaded the way an application loads one: a reader over the code object, a new executable,
/// the code object loaded on the GPU, frozen, the kernel's symbol looked up.
pub(crate) struct LoadedKernel {
    pub(crate) reader: hsa_code_object_reader_t,
    pub(crate) exe: hsa_executable_t,
    pub(crate) sym: hsa_executable_symbol_t,
    pub(crate) lco: hsa_loaded_code_object_t,
    pub(crate) kernel_object: u64,
    pub(crate) group_segment_size: u32,
}

/// Loads code-object `bytes` on `gpu` through the runtime's entry points and looks up `kernel` (its
/// name without `.kd`). `bytes` must outlive the reader: destroy the reader first or leak the bytes.
pub(crate) fn load_kernel(gpu: hsa_agent_t, bytes: &[u8], kernel: &str) -> LoadedKernel {
    let mut k = LoadedKernel {
        reader: hsa_code_object_reader_t { handle: 0 },
        exe: hsa_executable_t { handle: 0 },
        sym: hsa_executable_symbol_t { handle: 0 },
        lco: hsa_loaded_code_object_t { handle: 0 },
        kernel_object: 0,
        group_segment_size: 0,
    };
    let name = std::ffi::CString::new(format!("{kernel}.kd")).unwrap();
    // SAFETY: valid buffers and out-pointers; the caller keeps `bytes` alive as long as the reader.
    unsafe {
        assert_eq!(
            hsa_code_object_reader_create_from_memory(bytes.as_ptr().cast(), bytes.len(), &mut k.reader),
            HSA_STATUS_SUCCESS
        );
        assert_eq!(
            hsa_executable_create_alt(
                HSA_PROFILE_FULL,
                HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                std::ptr::null(),
                &mut k.exe
            ),
            HSA_STATUS_SUCCESS
        );
        assert_eq!(
            hsa_executable_load_agent_code_object(k.exe, gpu, k.reader, std::ptr::null(), &mut k.lco),
            HSA_STATUS_SUCCESS
        );
        assert_eq!(hsa_executable_freeze(k.exe, std::ptr::null()), HSA_STATUS_SUCCESS);
        assert_eq!(hsa_executable_get_symbol_by_name(k.exe, name.as_ptr(), &gpu, &mut k.sym), HSA_STATUS_SUCCESS);
        let ko: *mut u64 = &mut k.kernel_object;
        assert_eq!(
            hsa_executable_symbol_get_info(k.sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, ko.cast()),
            HSA_STATUS_SUCCESS
        );
        let gs: *mut u32 = &mut k.group_segment_size;
        assert_eq!(
            hsa_executable_symbol_get_info(k.sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, gs.cast()),
            HSA_STATUS_SUCCESS
        );
    }
    k
}
