//! Every C entry point of the library: the exported `OnLoad`, `OnUnload` and
//! `HSA_AMD_TOOL_PRIORITY`, and the functions we install in the runtime's tables (the callbacks a
//! module hands to the runtime itself live beside that code: `queue::completion_handler`,
//! `memory::copy_completion_handler` and the owner callbacks, `pcsamp`'s data-ready and marker
//! callbacks). Each is a one-line trampoline through [`ffi_guard`] into safe(r) Rust; on a panic
//! the guard disables the tool and calls the original function instead.

use std::ffi::{c_char, c_int, c_void};

use rocprof_hsa_sys::*;

use crate::guard::ffi_guard;
use rocprof_model::MemoryAllocationOp;

use crate::tables::Wrappers;
use crate::{code_object, host_functions, load, memory, queue, register, scratch, state};

/// Tool priority for ROCr 5.3+ auto-discovery of preloaded tools (hsa-abi.md §1.4). The CLI also
/// names the library in `HSA_TOOLS_LIB`, which is required on 5.2; the runtime loads it once.
#[no_mangle]
#[used]
pub static HSA_AMD_TOOL_PRIORITY: u32 = 25;

/// Called by the runtime inside the first `hsa_init`.
///
/// # Safety
/// Called by ROCr with its live API table.
#[no_mangle]
pub unsafe extern "C" fn OnLoad(
    table: *mut HsaApiTable,
    _runtime_version: u64,
    _failed_count: u64,
    _failed: *const *const c_char,
) -> bool {
    // SAFETY: forwarding the runtime's table.
    ffi_guard("OnLoad", || true, || unsafe { load::on_load(table, &face()) })
}

/// rocprofiler-register's tool entry point: ROCm 6.2+ runtimes (HIP, ROCr, ROCTx) and our own
/// `libroctx64` hand their dispatch tables here (see [`register`]).
///
/// # Safety
/// Called with a library name and that library's live tables.
#[no_mangle]
pub unsafe extern "C" fn rocprofiler_set_api_table(
    name: *const c_char,
    lib_version: u64,
    _lib_instance: u64,
    tables: *mut *mut c_void,
    num_tables: u64,
) -> c_int {
    // SAFETY: forwarding the library's arguments.
    ffi_guard(
        "rocprofiler_set_api_table",
        || 0,
        || unsafe { register::set_api_table(name, lib_version, tables, num_tables, &face()) },
    )
}

/// Runs when the library is loaded (preloaded by the CLI: after the libraries the application
/// links, before the application's own constructors), so HIP 5.x callbacks are registered before
/// the first HIP call.
#[used]
#[link_section = ".init_array"]
static CONSTRUCTOR: extern "C" fn() = constructor;

extern "C" fn constructor() {
    ffi_guard("library constructor", || (), || load::early_init(&face()))
}

/// Interposes HIP's `__hipRegisterFunction` (the application's module constructor calls it once
/// per kernel through its PLT, which reaches this preloaded library first): the registration is
/// recorded ([`host_functions`]) and HIP's own function, found with `dlsym(RTLD_NEXT)`, runs with
/// the same arguments. Without a HIP after us nothing is called.
///
/// # Safety
/// HIP's `__hipRegisterFunction` contract: `device_function` NUL-terminated, the five pointers
/// NULL or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __hipRegisterFunction(
    modules: *mut c_void,
    host_function: *const c_void,
    device_function: *mut c_char,
    device_name: *const c_char,
    thread_limit: u32,
    tid: *mut c_void,
    bid: *mut c_void,
    block_dim: *mut c_void,
    grid_dim: *mut c_void,
    w_size: *mut c_int,
) {
    let call_hip = || {
        let f = host_functions::original();
        if f != 0 {
            // SAFETY: `f` is HIP's `__hipRegisterFunction` (dlsym by name), called with the
            // caller's arguments unchanged.
            unsafe {
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const c_void,
                    *mut c_char,
                    *const c_char,
                    u32,
                    *mut c_void,
                    *mut c_void,
                    *mut c_void,
                    *mut c_void,
                    *mut c_int,
                ) = std::mem::transmute::<usize, _>(f);
                f(
                    modules,
                    host_function,
                    device_function,
                    device_name,
                    thread_limit,
                    tid,
                    bid,
                    block_dim,
                    grid_dim,
                    w_size,
                )
            }
        }
    };
    ffi_guard("__hipRegisterFunction", call_hip, || {
        // SAFETY: the pointers are NULL or valid (the caller's contract).
        let reg = unsafe {
            host_functions::Registration {
                host_function: host_function as u64,
                modules: modules as u64,
                thread_limit,
                dims: [
                    host_functions::dim3_at(tid),
                    host_functions::dim3_at(bid),
                    host_functions::dim3_at(block_dim),
                    host_functions::dim3_at(grid_dim),
                ],
                workgroup_size: if w_size.is_null() { 0 } else { w_size.read_unaligned() as i64 as u64 },
            }
        };
        // SAFETY: NUL-terminated or NULL (the caller's contract).
        host_functions::register(&reg, unsafe { host_functions::name_bytes(device_function) });
        call_hip()
    })
}

/// Called by the runtime during the final `hsa_shut_down`.
#[no_mangle]
pub extern "C" fn OnUnload() {
    ffi_guard("OnUnload", || (), load::on_unload)
}

/// Replaces `hsa_queue_create`.
///
/// # Safety
/// The `hsa_queue_create` contract.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn queue_create_wrapper(
    agent: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<unsafe extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>,
    data: *mut c_void,
    private_segment_size: u32,
    group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t {
    let original = || match state::originals().and_then(|o| o.queue_create) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(agent, size, type_, callback, data, private_segment_size, group_segment_size, queue) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: the caller's arguments, under the contract this function documents.
    ffi_guard("hsa_queue_create", original, || unsafe {
        queue::create(
            agent,
            size,
            type_,
            callback,
            data,
            private_segment_size,
            group_segment_size,
            queue,
            Some(intercept_handler),
        )
    })
}

/// Replaces `hsa_queue_destroy`.
///
/// # Safety
/// The `hsa_queue_destroy` contract.
pub unsafe extern "C" fn queue_destroy_wrapper(queue: *mut hsa_queue_t) -> hsa_status_t {
    let original = || match state::originals().and_then(|o| o.queue_destroy) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(queue) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: the caller's arguments, under the contract this function documents.
    ffi_guard("hsa_queue_destroy", original, || unsafe { queue::destroy(queue) })
}

/// Replaces `hsa_executable_freeze`.
///
/// # Safety
/// The `hsa_executable_freeze` contract.
pub unsafe extern "C" fn executable_freeze_wrapper(exe: hsa_executable_t, options: *const c_char) -> hsa_status_t {
    let original = || match state::originals().and_then(|o| o.executable_freeze) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(exe, options) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: the caller's arguments, under the contract this function documents.
    ffi_guard("hsa_executable_freeze", original, || unsafe { code_object::freeze(exe, options) })
}

/// Replaces `hsa_executable_destroy`.
///
/// # Safety
/// The `hsa_executable_destroy` contract.
pub unsafe extern "C" fn executable_destroy_wrapper(exe: hsa_executable_t) -> hsa_status_t {
    let original = || match state::originals().and_then(|o| o.executable_destroy) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(exe) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: the caller's arguments, under the contract this function documents.
    ffi_guard("hsa_executable_destroy", original, || unsafe { code_object::destroy(exe) })
}

/// Replaces `hsa_signal_load_relaxed`: the application may learn here that a dispatch finished.
///
/// # Safety
/// The `hsa_signal_load_relaxed` contract.
pub unsafe extern "C" fn signal_load_relaxed_wrapper(signal: hsa_signal_t) -> hsa_signal_value_t {
    let original = || match state::originals().and_then(|o| o.signal_load_relaxed) {
        // SAFETY: forwarding the caller's argument to the original (same contract).
        Some(f) => unsafe { f(signal) },
        None => 0,
    };
    let v = original();
    ffi_guard("hsa_signal_load_relaxed", || (), || queue::on_app_signal_observed(signal));
    v
}

/// Replaces `hsa_signal_load_scacquire`.
///
/// # Safety
/// The `hsa_signal_load_scacquire` contract.
pub unsafe extern "C" fn signal_load_scacquire_wrapper(signal: hsa_signal_t) -> hsa_signal_value_t {
    let original = || match state::originals().and_then(|o| o.signal_load_scacquire) {
        // SAFETY: forwarding the caller's argument to the original (same contract).
        Some(f) => unsafe { f(signal) },
        None => 0,
    };
    let v = original();
    ffi_guard("hsa_signal_load_scacquire", || (), || queue::on_app_signal_observed(signal));
    v
}

/// Replaces `hsa_signal_wait_relaxed`.
///
/// # Safety
/// The `hsa_signal_wait_relaxed` contract.
pub unsafe extern "C" fn signal_wait_relaxed_wrapper(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t {
    let original = || match state::originals().and_then(|o| o.signal_wait_relaxed) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(signal, condition, compare_value, timeout_hint, wait_state_hint) },
        None => 0,
    };
    let v = original();
    ffi_guard("hsa_signal_wait_relaxed", || (), || queue::on_app_signal_observed(signal));
    v
}

/// Replaces `hsa_signal_wait_scacquire`.
///
/// # Safety
/// The `hsa_signal_wait_scacquire` contract.
pub unsafe extern "C" fn signal_wait_scacquire_wrapper(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t {
    let original = || match state::originals().and_then(|o| o.signal_wait_scacquire) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(signal, condition, compare_value, timeout_hint, wait_state_hint) },
        None => 0,
    };
    let v = original();
    ffi_guard("hsa_signal_wait_scacquire", || (), || queue::on_app_signal_observed(signal));
    v
}

/// Replaces `hsa_amd_signal_wait_any`.
///
/// # Safety
/// The `hsa_amd_signal_wait_any` contract (`signals` holds `signal_count` handles).
pub unsafe extern "C" fn amd_signal_wait_any_wrapper(
    signal_count: u32,
    signals: *mut hsa_signal_t,
    conds: *mut hsa_signal_condition_t,
    values: *mut hsa_signal_value_t,
    timeout_hint: u64,
    wait_hint: hsa_wait_state_t,
    satisfying_value: *mut hsa_signal_value_t,
) -> u32 {
    let index = match state::originals().and_then(|o| o.amd_signal_wait_any) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(signal_count, signals, conds, values, timeout_hint, wait_hint, satisfying_value) },
        None => u32::MAX,
    };
    if index < signal_count && !signals.is_null() {
        // SAFETY: the runtime returned an index into the caller's array of `signal_count` signals.
        let signal = unsafe { *signals.add(index as usize) };
        ffi_guard("hsa_amd_signal_wait_any", || (), || queue::on_app_signal_observed(signal));
    }
    index
}

/// Replaces `hsa_amd_signal_wait_all`: when the wait is satisfied, every signal of the set was
/// observed.
///
/// # Safety
/// The `hsa_amd_signal_wait_all` contract (`signals` holds `signal_count` handles).
pub unsafe extern "C" fn amd_signal_wait_all_wrapper(
    signal_count: u32,
    signals: *mut hsa_signal_t,
    conds: *mut hsa_signal_condition_t,
    values: *mut hsa_signal_value_t,
    timeout_hint: u64,
    wait_hint: hsa_wait_state_t,
    satisfying_values: *mut hsa_signal_value_t,
) -> u32 {
    let rc = match state::originals().and_then(|o| o.amd_signal_wait_all) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(signal_count, signals, conds, values, timeout_hint, wait_hint, satisfying_values) },
        None => u32::MAX,
    };
    if rc == 0 && !signals.is_null() {
        for i in 0..signal_count as usize {
            // SAFETY: the caller's array holds `signal_count` signals.
            let signal = unsafe { *signals.add(i) };
            ffi_guard("hsa_amd_signal_wait_all", || (), || queue::on_app_signal_observed(signal));
        }
    }
    rc
}

/// Replaces `hsa_signal_group_wait_any_relaxed`.
///
/// # Safety
/// The `hsa_signal_group_wait_any_relaxed` contract.
pub unsafe extern "C" fn signal_group_wait_any_relaxed_wrapper(
    group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    wait_state_hint: hsa_wait_state_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t {
    let status = match state::originals().and_then(|o| o.signal_group_wait_any_relaxed) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(group, conditions, compare_values, wait_state_hint, signal, value) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: on success the runtime wrote the satisfying signal to the caller's out-pointer.
    unsafe { observe_group_result(status, signal, "hsa_signal_group_wait_any_relaxed") };
    status
}

/// Replaces `hsa_signal_group_wait_any_scacquire`.
///
/// # Safety
/// The `hsa_signal_group_wait_any_scacquire` contract.
pub unsafe extern "C" fn signal_group_wait_any_scacquire_wrapper(
    group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    wait_state_hint: hsa_wait_state_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t {
    let status = match state::originals().and_then(|o| o.signal_group_wait_any_scacquire) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(group, conditions, compare_values, wait_state_hint, signal, value) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: as in the relaxed variant.
    unsafe { observe_group_result(status, signal, "hsa_signal_group_wait_any_scacquire") };
    status
}

/// After a successful group wait, the signal the runtime reported as satisfied was observed.
///
/// # Safety
/// `signal` is the caller's out-pointer (NULL or valid), written by the runtime on success.
unsafe fn observe_group_result(status: hsa_status_t, signal: *const hsa_signal_t, what: &str) {
    if status != HSA_STATUS_SUCCESS || signal.is_null() {
        return;
    }
    // SAFETY: non-null out-pointer the runtime filled (caller).
    let s = unsafe { *signal };
    ffi_guard(what, || (), || queue::on_app_signal_observed(s));
}

/// The intercept-queue packet handler.
///
/// # Safety
/// Called by the runtime with `pkt_count` valid packets and its writer for this call.
pub unsafe extern "C" fn intercept_handler(
    pkts: *const c_void,
    pkt_count: u64,
    _user_pkt_index: u64,
    data: *mut c_void,
    writer: hsa_amd_queue_intercept_packet_writer,
) {
    let Some(write) = writer else { return };
    // No batch-wide guard here: `on_packets` guards each packet, so a panic forwards only the
    // packets not yet forwarded (see there).
    // SAFETY: the caller's arguments, under the contract this function documents.
    unsafe { queue::on_packets(pkts, pkt_count, data as usize, write) }
}

/// atexit hook.
pub extern "C" fn at_exit_handler() {
    ffi_guard("exit handler", || (), load::at_exit)
}

/// fork child hook.
pub extern "C" fn at_fork_child_handler() {
    // No guard: it only stores to an atomic.
    load::at_fork_child()
}

/// Replaces `hsa_amd_memory_async_copy`: traced through [`memory::copy`].
///
/// # Safety
/// The `hsa_amd_memory_async_copy` contract.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn memory_async_copy_hook(
    dst: *mut c_void,
    dst_agent: hsa_agent_t,
    src: *const c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    let call = |signal: hsa_signal_t| match state::originals().and_then(|o| o.memory_async_copy) {
        // SAFETY: forwarding the caller's arguments to the original (same contract), with our
        // completion signal in place of the caller's when traced.
        Some(f) => unsafe { f(dst, dst_agent, src, src_agent, size, num_dep_signals, dep_signals, signal) },
        None => HSA_STATUS_ERROR,
    };
    let args = memory::CopyArgs {
        dst: dst as u64,
        dst_agent: dst_agent.handle,
        src: src as u64,
        src_agent: src_agent.handle,
        bytes: size as u64,
    };
    ffi_guard("hsa_amd_memory_async_copy", || call(completion_signal), || memory::copy(args, completion_signal, call))
}

/// Replaces `hsa_amd_memory_async_copy_on_engine`.
///
/// # Safety
/// The `hsa_amd_memory_async_copy_on_engine` contract.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn memory_async_copy_on_engine_hook(
    dst: *mut c_void,
    dst_agent: hsa_agent_t,
    src: *const c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
    engine_id: hsa_amd_sdma_engine_id_t,
    force_copy_on_sdma: bool,
) -> hsa_status_t {
    let call = |signal: hsa_signal_t| match state::originals().and_then(|o| o.memory_async_copy_on_engine) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe {
            f(dst, dst_agent, src, src_agent, size, num_dep_signals, dep_signals, signal, engine_id, force_copy_on_sdma)
        },
        None => HSA_STATUS_ERROR,
    };
    let args = memory::CopyArgs {
        dst: dst as u64,
        dst_agent: dst_agent.handle,
        src: src as u64,
        src_agent: src_agent.handle,
        bytes: size as u64,
    };
    ffi_guard(
        "hsa_amd_memory_async_copy_on_engine",
        || call(completion_signal),
        || memory::copy(args, completion_signal, call),
    )
}

/// Replaces `hsa_amd_memory_async_copy_rect`.
///
/// # Safety
/// The `hsa_amd_memory_async_copy_rect` contract.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn memory_async_copy_rect_hook(
    dst: *const hsa_pitched_ptr_t,
    dst_offset: *const hsa_dim3_t,
    src: *const hsa_pitched_ptr_t,
    src_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
    copy_agent: hsa_agent_t,
    dir: hsa_amd_copy_direction_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    let call = |signal: hsa_signal_t| match state::originals().and_then(|o| o.memory_async_copy_rect) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe {
            f(dst, dst_offset, src, src_offset, range, copy_agent, dir, num_dep_signals, dep_signals, signal)
        },
        None => HSA_STATUS_ERROR,
    };
    ffi_guard(
        "hsa_amd_memory_async_copy_rect",
        || call(completion_signal),
        || {
            // SAFETY: the pointers are NULL or valid for reading (the caller's contract).
            let (d, s, bytes) = unsafe {
                (
                    dst.as_ref().map_or(0, |p| p.base as u64),
                    src.as_ref().map_or(0, |p| p.base as u64),
                    range.as_ref().map_or(0, |r| r.x as u64 * r.y.max(1) as u64 * r.z.max(1) as u64),
                )
            };
            memory::copy(memory::CopyArgs::rect(d, s, bytes, copy_agent.handle, dir), completion_signal, call)
        },
    )
}

/// Replaces `hsa_amd_profiling_get_async_copy_time`: answers for application signals we
/// substituted.
///
/// # Safety
/// The `hsa_amd_profiling_get_async_copy_time` contract.
pub unsafe extern "C" fn get_async_copy_time_hook(
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_async_copy_time_t,
) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.get_async_copy_time) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(signal, time) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: the caller's out-pointer, under the contract this function documents.
    ffi_guard("hsa_amd_profiling_get_async_copy_time", call, || unsafe { memory::async_copy_time(signal, time, call) })
}

/// Replaces `hsa_memory_allocate`.
///
/// # Safety
/// The `hsa_memory_allocate` contract.
pub unsafe extern "C" fn memory_allocate_hook(
    region: hsa_region_t,
    size: usize,
    ptr: *mut *mut c_void,
) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.memory_allocate) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(region, size, ptr) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: after a successful call the runtime wrote the caller's out-pointer.
    let address = || unsafe { ptr.as_ref().map_or(0, |p| *p as u64) };
    ffi_guard("hsa_memory_allocate", call, || {
        memory::allocation(MemoryAllocationOp::Allocate, region.handle, size as u64, call, address)
    })
}

/// Replaces `hsa_memory_free`.
///
/// # Safety
/// The `hsa_memory_free` contract.
pub unsafe extern "C" fn memory_free_hook(ptr: *mut c_void) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.memory_free) {
        // SAFETY: forwarding the caller's argument to the original (same contract).
        Some(f) => unsafe { f(ptr) },
        None => HSA_STATUS_ERROR,
    };
    ffi_guard("hsa_memory_free", call, || memory::allocation(MemoryAllocationOp::Free, 0, 0, call, || ptr as u64))
}

/// Replaces `hsa_amd_memory_pool_allocate`.
///
/// # Safety
/// The `hsa_amd_memory_pool_allocate` contract.
pub unsafe extern "C" fn memory_pool_allocate_hook(
    pool: hsa_amd_memory_pool_t,
    size: usize,
    flags: u32,
    ptr: *mut *mut c_void,
) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.memory_pool_allocate) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(pool, size, flags, ptr) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: after a successful call the runtime wrote the caller's out-pointer.
    let address = || unsafe { ptr.as_ref().map_or(0, |p| *p as u64) };
    ffi_guard("hsa_amd_memory_pool_allocate", call, || {
        memory::allocation(MemoryAllocationOp::Allocate, pool.handle, size as u64, call, address)
    })
}

/// Replaces `hsa_amd_memory_pool_free`.
///
/// # Safety
/// The `hsa_amd_memory_pool_free` contract.
pub unsafe extern "C" fn memory_pool_free_hook(ptr: *mut c_void) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.memory_pool_free) {
        // SAFETY: forwarding the caller's argument to the original (same contract).
        Some(f) => unsafe { f(ptr) },
        None => HSA_STATUS_ERROR,
    };
    ffi_guard("hsa_amd_memory_pool_free", call, || {
        memory::allocation(MemoryAllocationOp::Free, 0, 0, call, || ptr as u64)
    })
}

/// Replaces `hsa_amd_vmem_handle_create`.
///
/// # Safety
/// The `hsa_amd_vmem_handle_create` contract.
pub unsafe extern "C" fn vmem_handle_create_hook(
    pool: hsa_amd_memory_pool_t,
    size: usize,
    type_: hsa_amd_memory_type_t,
    flags: u64,
    handle: *mut hsa_amd_vmem_alloc_handle_t,
) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.vmem_handle_create) {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        Some(f) => unsafe { f(pool, size, type_, flags, handle) },
        None => HSA_STATUS_ERROR,
    };
    // SAFETY: after a successful call the runtime wrote the caller's out-pointer.
    let address = || unsafe { handle.as_ref().map_or(0, |h| h.handle) };
    ffi_guard("hsa_amd_vmem_handle_create", call, || {
        memory::allocation(MemoryAllocationOp::VmemAllocate, pool.handle, size as u64, call, address)
    })
}

/// Replaces `hsa_amd_vmem_handle_release`.
///
/// # Safety
/// The `hsa_amd_vmem_handle_release` contract.
pub unsafe extern "C" fn vmem_handle_release_hook(handle: hsa_amd_vmem_alloc_handle_t) -> hsa_status_t {
    let call = || match state::originals().and_then(|o| o.vmem_handle_release) {
        // SAFETY: forwarding the caller's argument to the original (same contract).
        Some(f) => unsafe { f(handle) },
        None => HSA_STATUS_ERROR,
    };
    ffi_guard("hsa_amd_vmem_handle_release", call, || {
        memory::allocation(MemoryAllocationOp::VmemFree, 0, 0, call, || handle.handle)
    })
}

macro_rules! scratch_hooks {
    ($($name:ident = $index:expr;)*) => {$(
        /// A scratch-memory tool event of the runtime (`ToolsApiTable`), see [`scratch`].
        ///
        /// # Safety
        /// Called by the runtime with an event valid for the call.
        pub unsafe extern "C" fn $name(event: hsa_amd_tool_event_t) -> hsa_status_t {
            // The runtime may raise the event inside one of our hooks (a free inside
            // hsa_queue_destroy), so this is guarded like a callback, not like an entry point.
            // SAFETY: forwarded contract.
            crate::guard::callback_guard("scratch event", HSA_STATUS_SUCCESS, || unsafe { scratch::on_event($index, event) })
        }
    )*};
}

scratch_hooks! {
    scratch_alloc_start_hook = 0;
    scratch_alloc_end_hook = 1;
    scratch_free_start_hook = 2;
    scratch_free_end_hook = 3;
    scratch_reclaim_start_hook = 4;
    scratch_reclaim_end_hook = 5;
}

/// The library's face as the loader installs it (see [`load::Face`]).
pub fn face() -> load::Face {
    load::Face {
        wrappers: Wrappers {
            queue_create: queue_create_wrapper,
            queue_destroy: queue_destroy_wrapper,
            executable_freeze: executable_freeze_wrapper,
            executable_destroy: executable_destroy_wrapper,
            signal_load_relaxed: signal_load_relaxed_wrapper,
            signal_load_scacquire: signal_load_scacquire_wrapper,
            signal_wait_relaxed: signal_wait_relaxed_wrapper,
            signal_wait_scacquire: signal_wait_scacquire_wrapper,
            amd_signal_wait_any: amd_signal_wait_any_wrapper,
            amd_signal_wait_all: amd_signal_wait_all_wrapper,
            signal_group_wait_any_relaxed: signal_group_wait_any_relaxed_wrapper,
            signal_group_wait_any_scacquire: signal_group_wait_any_scacquire_wrapper,
        },
        memory: memory_hooks(),
        scratch: scratch_hooks(),
        at_exit: at_exit_handler,
        at_fork_child: at_fork_child_handler,
    }
}

/// The scratch event hooks, for [`scratch::install`].
fn scratch_hooks() -> scratch::Hooks {
    scratch::Hooks {
        events: [
            scratch_alloc_start_hook,
            scratch_alloc_end_hook,
            scratch_free_start_hook,
            scratch_free_end_hook,
            scratch_reclaim_start_hook,
            scratch_reclaim_end_hook,
        ],
    }
}

/// The copy and allocation hooks, for [`memory::install`] / [`memory::unwrap`].
fn memory_hooks() -> memory::Hooks {
    memory::Hooks {
        async_copy: memory_async_copy_hook,
        async_copy_on_engine: memory_async_copy_on_engine_hook,
        async_copy_rect: memory_async_copy_rect_hook,
        get_async_copy_time: get_async_copy_time_hook,
        memory_allocate: memory_allocate_hook,
        memory_free: memory_free_hook,
        pool_allocate: memory_pool_allocate_hook,
        pool_free: memory_pool_free_hook,
        vmem_create: vmem_handle_create_hook,
        vmem_release: vmem_handle_release_hook,
    }
}
