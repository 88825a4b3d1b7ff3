//! Code-object and kernel-symbol tracking, so dispatches can be named.
//!
//! `hsa_executable_freeze` is wrapped: after the real freeze succeeds, every loaded code object
//! of the executable is recorded (loader extension `executable_iterate_loaded_code_objects`,
//! `loaded_code_object_get_info`), then every kernel symbol of its agent whose kernel object lies
//! inside that code object (`hsa_executable_iterate_agent_symbols`), with the raw words of its
//! kernel descriptor (read through the loader's `query_host_address`). `kernel_object -> kernel
//! id` goes into the lock-free [`crate::kernel_map`]. `hsa_executable_destroy` is wrapped to emit
//! unload records *before* the real destroy. This is what rocprofiler-sdk does; it is a cold
//! path, but it still writes names straight into the capture mapping instead of allocating.

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use rocprof_hsa_sys::*;
use rocprof_model::capture::{CodeObjectLoadRecord, CodeObjectUnloadRecord, KernelSymbolRecord};
use rocprof_model::LossReason;

use crate::clock;
use crate::guard::callback_guard;
use crate::state::{self, Global};
use crate::tables::Originals;

/// Context of one loaded code object while its symbols are iterated.
struct CoCtx<'a> {
    g: &'a Global,
    o: &'a Originals,
    id: u64,
    base: u64,
    size: u64,
}

/// The `hsa_executable_freeze` wrapper's body.
///
/// # Safety
/// Same contract as `hsa_executable_freeze`.
pub unsafe fn freeze(exe: hsa_executable_t, options: *const c_char) -> hsa_status_t {
    let Some(o) = state::originals() else {
        return HSA_STATUS_ERROR;
    };
    let Some(original) = o.executable_freeze else {
        return HSA_STATUS_ERROR;
    };
    // SAFETY: forwarding the caller's arguments.
    let status = unsafe { original(exe, options) };
    if status == HSA_STATUS_SUCCESS && state::is_active() {
        if let Some(g) = state::global() {
            record_executable(g, o, exe);
        }
    }
    status
}

/// The `hsa_executable_destroy` wrapper's body.
///
/// # Safety
/// Same contract as `hsa_executable_destroy`.
pub unsafe fn destroy(exe: hsa_executable_t) -> hsa_status_t {
    let Some(original) = state::originals().and_then(|o| o.executable_destroy) else {
        return HSA_STATUS_ERROR;
    };
    if let Some(g) = state::global() {
        let now = clock::now_ns();
        for e in g.code_objects.iter() {
            if exe.handle != 0 && e.executable.load(Ordering::Acquire) == exe.handle {
                let (base, size) = (e.base.load(Ordering::Acquire), e.size.load(Ordering::Acquire));
                g.kernels.forget_range(base, size);
                if state::is_active() {
                    g.sink.write(&CodeObjectUnloadRecord {
                        code_object_id: e.id.load(Ordering::Acquire),
                        unloaded_ns: now,
                    });
                }
                e.executable.store(0, Ordering::Release);
            }
        }
    }
    // SAFETY: forwarding the caller's argument.
    unsafe { original(exe) }
}

fn record_executable(g: &Global, o: &Originals, exe: hsa_executable_t) {
    let Some(iterate) = o.loader.and_then(|l| l.hsa_ven_amd_loader_executable_iterate_loaded_code_objects) else {
        return;
    };
    unsafe extern "C" fn each(exe: hsa_executable_t, lco: hsa_loaded_code_object_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the `(g, o)` pair passed below, alive for the iteration.
        let (g, o) = unsafe { *(data as *const (&Global, &Originals)) };
        callback_guard("code object callback", HSA_STATUS_ERROR, || {
            record_code_object(g, o, exe, lco);
            HSA_STATUS_SUCCESS
        })
    }
    let ctx: (&Global, &Originals) = (g, o);
    // SAFETY: `each` matches the callback type and `ctx` outlives the call.
    unsafe { iterate(exe, Some(each), (&ctx as *const (&Global, &Originals)) as *mut c_void) };
}

fn record_code_object(g: &Global, o: &Originals, exe: hsa_executable_t, lco: hsa_loaded_code_object_t) {
    let Some(get) = o.loader.and_then(|l| l.hsa_ven_amd_loader_loaded_code_object_get_info) else {
        return;
    };
    let info = |attr: u32, out: *mut c_void| -> bool {
        // SAFETY: `out` points to storage of the attribute's documented type.
        unsafe { get(lco, attr, out) == HSA_STATUS_SUCCESS }
    };
    let mut agent = hsa_agent_t { handle: 0 };
    let (mut storage, mut uri_len) = (0u32, 0u32);
    let (mut mem_base, mut mem_size, mut base, mut size) = (0u64, 0u64, 0u64, 0u64);
    let mut delta = 0i64;
    info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, (&mut agent as *mut hsa_agent_t).cast());
    info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE, (&mut storage as *mut u32).cast());
    info(
        HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE,
        (&mut mem_base as *mut u64).cast(),
    );
    info(
        HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE,
        (&mut mem_size as *mut u64).cast(),
    );
    info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, (&mut delta as *mut i64).cast());
    info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, (&mut base as *mut u64).cast());
    info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, (&mut size as *mut u64).cast());
    let uri = if info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, (&mut uri_len as *mut u32).cast())
        && uri_len > 0
    {
        runtime_string(g, uri_len as usize, |buf| {
            info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, buf.as_mut_ptr().cast())
        })
    } else {
        0
    };
    let id = g.next_code_object.fetch_add(1, Ordering::Relaxed);
    g.sink.write(&CodeObjectLoadRecord {
        code_object_id: id,
        executable: exe.handle,
        agent_handle: agent.handle,
        load_base: base,
        load_size: size,
        load_delta: delta,
        memory_base: mem_base,
        memory_size: mem_size,
        loaded_ns: clock::now_ns(),
        storage,
        uri,
    });
    if !g.add_code_object(exe.handle, base, size, id) {
        g.sink.count_loss(LossReason::CodeObjectTableFull);
    }
    crate::att::code_object_loaded(o, agent, id, mem_base, mem_size);
    crate::pcsamp::code_object_loaded(id, mem_base, mem_size);

    let Some(iterate) = o.executable_iterate_agent_symbols else {
        return;
    };
    unsafe extern "C" fn each(
        _: hsa_executable_t,
        _: hsa_agent_t,
        sym: hsa_executable_symbol_t,
        data: *mut c_void,
    ) -> hsa_status_t {
        // SAFETY: `data` is the `CoCtx` passed below, alive for the iteration.
        let ctx = unsafe { &*(data as *const CoCtx<'_>) };
        callback_guard("kernel symbol callback", HSA_STATUS_ERROR, || {
            record_symbol(ctx, sym);
            HSA_STATUS_SUCCESS
        })
    }
    let ctx = CoCtx { g, o, id, base, size };
    // SAFETY: `each` matches the callback type and `ctx` outlives the call.
    unsafe { iterate(exe, agent, Some(each), (&ctx as *const CoCtx<'_>) as *mut c_void) };
}

/// Writes a string the runtime produces (`len` bytes, perhaps plus a NUL, with no way to bound
/// what it writes): straight into the capture when it fits a string record, otherwise into a
/// heap buffer first (a rare, cold case) and then cut to the longest string a record holds.
fn runtime_string(g: &Global, len: usize, get: impl FnOnce(&mut [u8]) -> bool) -> u32 {
    if len < rocprof_model::capture::MAX_STRING_LEN - 1 {
        return g.sink.write_string_with(len, get);
    }
    let mut buf = vec![0u8; len + 1];
    if !get(&mut buf) {
        return 0;
    }
    g.sink.write_string(&buf[..len])
}

/// Raw words of a 64-byte kernel descriptor (hsa-abi.md §5.5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DescriptorWords {
    /// `kernel_code_entry_byte_offset` @16.
    pub entry_offset: i64,
    /// `compute_pgm_rsrc3` @44.
    pub rsrc3: u32,
    /// `compute_pgm_rsrc1` @48.
    pub rsrc1: u32,
    /// `compute_pgm_rsrc2` @52.
    pub rsrc2: u32,
    /// `kernel_code_properties` @56 (u16).
    pub properties: u32,
}

/// Decodes the descriptor fields we record.
pub fn descriptor_words(kd: &[u8; 64]) -> DescriptorWords {
    let u32_at = |o: usize| u32::from_le_bytes([kd[o], kd[o + 1], kd[o + 2], kd[o + 3]]);
    let mut e = [0u8; 8];
    e.copy_from_slice(&kd[16..24]);
    DescriptorWords {
        entry_offset: i64::from_le_bytes(e),
        rsrc3: u32_at(44),
        rsrc1: u32_at(48),
        rsrc2: u32_at(52),
        properties: u32::from(u16::from_le_bytes([kd[56], kd[57]])),
    }
}

fn record_symbol(ctx: &CoCtx<'_>, sym: hsa_executable_symbol_t) {
    let Some(get) = ctx.o.executable_symbol_get_info else {
        return;
    };
    let info = |attr: u32, out: *mut c_void| -> bool {
        // SAFETY: `out` points to storage of the attribute's documented type.
        unsafe { get(sym, attr, out) == HSA_STATUS_SUCCESS }
    };
    let mut kind: u32 = u32::MAX;
    if !info(HSA_EXECUTABLE_SYMBOL_INFO_TYPE, (&mut kind as *mut u32).cast()) || kind != HSA_SYMBOL_KIND_KERNEL {
        return;
    }
    let mut kernel_object = 0u64;
    info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, (&mut kernel_object as *mut u64).cast());
    if ctx.size != 0 && !(kernel_object >= ctx.base && kernel_object - ctx.base < ctx.size) {
        return; // Belongs to another code object of the same agent.
    }
    let (mut name_len, mut kernarg, mut align, mut group, mut private) = (0u32, 0u32, 0u32, 0u32, 0u32);
    info(HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, (&mut name_len as *mut u32).cast());
    info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, (&mut kernarg as *mut u32).cast());
    info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, (&mut align as *mut u32).cast());
    info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, (&mut group as *mut u32).cast());
    info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, (&mut private as *mut u32).cast());
    let name = if name_len > 0 {
        runtime_string(ctx.g, name_len as usize, |buf| info(HSA_EXECUTABLE_SYMBOL_INFO_NAME, buf.as_mut_ptr().cast()))
    } else {
        0
    };
    let mut words = DescriptorWords::default();
    let mut valid = 0;
    if let Some(query) = ctx.o.loader.and_then(|l| l.hsa_ven_amd_loader_query_host_address) {
        let mut host: *const c_void = std::ptr::null();
        // SAFETY: valid out-pointer; the runtime checks the device address.
        let rc = unsafe { query(kernel_object as *const c_void, &mut host) };
        if rc == HSA_STATUS_SUCCESS && !host.is_null() {
            // SAFETY: the loader returned the host address of a loaded 64-byte kernel descriptor.
            let kd = unsafe { std::ptr::read_unaligned(host as *const [u8; 64]) };
            words = descriptor_words(&kd);
            valid = 1;
        }
    }
    let kernel_id = ctx.g.next_kernel.fetch_add(1, Ordering::Relaxed);
    ctx.g.sink.write(&KernelSymbolRecord {
        kernel_id,
        code_object_id: ctx.id,
        kernel_object,
        entry_byte_offset: words.entry_offset,
        name,
        kernarg_size: kernarg,
        kernarg_alignment: align,
        group_segment_size: group,
        private_segment_size: private,
        pgm_rsrc1: words.rsrc1,
        pgm_rsrc2: words.rsrc2,
        pgm_rsrc3: words.rsrc3,
        code_properties: words.properties,
        descriptor_valid: valid,
    });
    if !ctx.g.kernels.insert(kernel_object, kernel_id) {
        ctx.g.sink.count_loss(LossReason::KernelTableFull);
    }
    if crate::att::enabled() && name_len > 0 {
        // Cold path: the thread-trace kernel filter matches names once per kernel.
        let mut buf = vec![0u8; name_len as usize + 1];
        if info(HSA_EXECUTABLE_SYMBOL_INFO_NAME, buf.as_mut_ptr().cast()) {
            crate::att::kernel_loaded(kernel_id, &buf[..name_len as usize]);
        }
    }
    if let Some(p) = crate::pmc::state() {
        // Kernel filters match names once per kernel, here (cold path), not per dispatch.
        let mut buf = vec![0u8; name_len as usize + 1];
        let raw = if name_len > 0 && info(HSA_EXECUTABLE_SYMBOL_INFO_NAME, buf.as_mut_ptr().cast()) {
            String::from_utf8_lossy(&buf[..name_len as usize]).into_owned()
        } else {
            String::new()
        };
        p.classify_kernel(kernel_id, raw.trim_end_matches('\0'));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_fields_come_from_their_documented_offsets() {
        let mut kd = [0u8; 64];
        kd[16..24].copy_from_slice(&0x1180i64.to_le_bytes());
        kd[44..48].copy_from_slice(&0x0001_0003u32.to_le_bytes());
        kd[48..52].copy_from_slice(&0x00AF_0042u32.to_le_bytes());
        kd[52..56].copy_from_slice(&0x0000_0090u32.to_le_bytes());
        kd[56..58].copy_from_slice(&0x0408u16.to_le_bytes());
        let w = descriptor_words(&kd);
        assert_eq!(
            w,
            DescriptorWords {
                entry_offset: 0x1180,
                rsrc3: 0x0001_0003,
                rsrc1: 0x00AF_0042,
                rsrc2: 0x90,
                properties: 0x408
            }
        );
    }
}
