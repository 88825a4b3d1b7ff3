//! Code-object readers, executables, loaded code objects and executable symbols.
//!
//! Loading follows ROCr's loader rules (`hsa-abi.md` §5.6): the ELF's ISA (from `e_flags`) must be accepted
//! by the agent (`INCOMPATIBLE_ARGUMENTS` otherwise), all PT_LOAD segments go into one 256-byte-aligned
//! block of `last.vaddr + last.memsz` bytes, `R_AMDGPU_RELATIVE64`/`ABS64` dynamic relocations are applied,
//! only global/weak `STT_OBJECT`/`STT_COMMON` symbols become HSA symbols, `*.kd` objects are kernels whose
//! properties come from the 64-byte kernel descriptor, and the executable must be unfrozen to load.
//! Symbol names keep `.kd`; NAME is written without a NUL, KERNARG_SEGMENT_ALIGNMENT is 16.

use std::collections::HashMap;
use std::collections::VecDeque;
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Arc, Mutex, RwLock};

use rocprof_hsa_sys::*;

use crate::agent::{self, Agent};
use crate::elf;
use crate::ffi::{put, put_chars, status, status_code, Status};
use crate::runtime::system;
use crate::signal;
use crate::table::slot;

const KD_SIZE: u64 = 64;

/// What the packet processor needs about a loaded kernel.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KernelInfo {
    pub(crate) kernarg_size: u32,
    pub(crate) group_segment_size: u32,
    pub(crate) private_segment_size: u32,
    pub(crate) wave32: bool,
    pub(crate) dynamic_stack: bool,
    /// Size of the kernel's machine code (its `STT_FUNC` symbol), for the device model.
    pub(crate) code_bytes: u64,
    /// Host address of the kernel's first instruction (descriptor address plus
    /// `kernel_code_entry_byte_offset`); its `code_bytes` bytes stay mapped (a destroyed executable's
    /// block is recycled, see [`Segment`]).
    pub(crate) code_addr: u64,
    /// `ROCPROF_RS_SIM_KERNEL_SCALE`'s factor for this kernel (1 when no rule matches its name).
    pub(crate) time_factor: f64,
}

/// Kernel descriptor address -> kernel properties, for every loaded kernel.
static KERNELS: RwLock<Option<HashMap<u64, KernelInfo>>> = RwLock::new(None);

/// What destroying an executable also forgets of each of its kernels (the elision entries and their
/// argument layouts). Set by the elision code before it remembers its first kernel: code objects sit
/// below elision and do not name it.
static KERNEL_DESTROYED: std::sync::OnceLock<fn(u64)> = std::sync::OnceLock::new();

/// Sets what destroying a kernel also forgets (once per process; later calls keep the first).
pub(crate) fn on_kernel_destroyed(f: fn(u64)) {
    let _ = KERNEL_DESTROYED.set(f);
}

/// `[base, base + size)` of every loaded code object (kernels may read constants next to their code).
pub(crate) fn loaded_ranges() -> Vec<(u64, u64)> {
    all_loaded().iter().map(|(_, l)| (l.load_base, l.load_base + l.load_size)).collect()
}

/// The name of the kernel whose descriptor is at `kernel_object` (without `.kd`).
pub(crate) fn kernel_name(kernel_object: u64) -> Option<String> {
    for e in live_executables() {
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = st.symbols.iter().find(|s| s.address == kernel_object && s.kernel.is_some()) {
            return Some(s.name.trim_end_matches(".kd").to_string());
        }
    }
    None
}

pub(crate) fn kernel_info(kernel_object: u64) -> Option<KernelInfo> {
    KERNELS.read().unwrap_or_else(|e| e.into_inner()).as_ref()?.get(&kernel_object).copied()
}

// ---------------------------------------------------------------- readers

pub(crate) struct Reader {
    pub(crate) bytes: Vec<u8>,
    pub(crate) uri: String,
}

static READERS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

fn lookup_reader(h: hsa_code_object_reader_t) -> Result<&'static Reader, Status> {
    if READERS.lock().unwrap_or_else(|e| e.into_inner()).contains(&(h.handle as usize)) {
        // SAFETY: registered readers are leaked boxes, freed only by `hsa_code_object_reader_destroy`
        // after they leave the list; the caller uses the reference within its own API call.
        Ok(unsafe { &*(h.handle as usize as *const Reader) })
    } else {
        Err(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER)
    }
}

fn new_reader(bytes: Vec<u8>, uri: String, out: *mut hsa_code_object_reader_t) -> Result<(), Status> {
    let r: &'static Reader = Box::leak(Box::new(Reader { bytes, uri }));
    READERS.lock().unwrap_or_else(|e| e.into_inner()).push(r as *const Reader as usize);
    // SAFETY: non-null out-pointer (checked by callers).
    unsafe { put(out.cast(), hsa_code_object_reader_t { handle: r as *const Reader as u64 }) };
    Ok(())
}

/// Percent-encodes every byte outside `[A-Za-z0-9/_.~-]` (ROCr's URI rule).
pub(crate) fn percent_encode(path: &str) -> String {
    let mut s = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/_.~-".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// Reads `size` bytes (0 = to the end) at `offset` of an open fd, eagerly, without moving its position.
pub(crate) fn read_fd(fd: i32, offset: usize, size: usize) -> Result<(Vec<u8>, String, bool), Status> {
    // SAFETY: `stat` is plain old data; all-zero is a valid value.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fstat on a caller-supplied fd writes only into `st`.
    if fd < 0 || unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(HSA_STATUS_ERROR_INVALID_FILE);
    }
    let file_size = st.st_size as usize;
    if offset > file_size {
        return Err(HSA_STATUS_ERROR_INVALID_FILE);
    }
    let len = if size == 0 { file_size - offset } else { size.min(file_size - offset) };
    let mut buf = vec![0u8; len];
    let mut done = 0;
    while done < len {
        // SAFETY: writes at most `len - done` bytes into the rest of `buf`.
        let n =
            unsafe { libc::pread(fd, buf.as_mut_ptr().add(done).cast(), len - done, (offset + done) as libc::off_t) };
        if n <= 0 {
            return Err(HSA_STATUS_ERROR_INVALID_FILE);
        }
        done += n as usize;
    }
    let path =
        std::fs::read_link(format!("/proc/self/fd/{fd}")).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    Ok((buf, path, offset == 0 && len == file_size))
}

pub(crate) unsafe extern "C" fn hsa_code_object_reader_create_from_file(
    file: hsa_file_t,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        if code_object_reader.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let (bytes, path, _) = read_fd(file, 0, 0)?;
        new_reader(bytes, format!("file://{}", percent_encode(&path)), code_object_reader)
    })
}

pub(crate) fn reader_from_file_range(
    file: i32,
    offset: usize,
    size: usize,
    out: *mut hsa_code_object_reader_t,
) -> Result<(), Status> {
    system()?;
    if out.is_null() {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let (bytes, path, whole) = read_fd(file, offset, size)?;
    let mut uri = format!("file://{}", percent_encode(&path));
    if !whole {
        uri.push_str(&format!("#offset={offset}&size={}", bytes.len()));
    }
    new_reader(bytes, uri, out)
}

/// If `[addr, addr+size)` lies inside a file-backed PT_LOAD segment of a loaded ELF object (the executable or
/// a shared library, e.g. an embedded fat binary), that file's path and the file offset, as ROCr reports.
fn mapped_file_of(addr: usize, size: usize) -> Option<(String, usize)> {
    struct Search {
        addr: usize,
        size: usize,
        found: Option<(String, usize)>,
    }
    unsafe extern "C" fn each(info: *mut libc::dl_phdr_info, _len: usize, data: *mut c_void) -> libc::c_int {
        // SAFETY: the loader passes a valid record; `data` is the `Search` below.
        let (info, s) = unsafe { (&*info, &mut *data.cast::<Search>()) };
        for i in 0..info.dlpi_phnum as usize {
            // SAFETY: `dlpi_phdr` has `dlpi_phnum` entries.
            let ph = unsafe { &*info.dlpi_phdr.add(i) };
            if ph.p_type != libc::PT_LOAD {
                continue;
            }
            let start = info.dlpi_addr as usize + ph.p_vaddr as usize;
            if s.addr >= start && s.addr + s.size <= start + ph.p_filesz as usize {
                let name = if info.dlpi_name.is_null() {
                    String::new()
                } else {
                    // SAFETY: NUL-terminated name owned by the loader.
                    unsafe { CStr::from_ptr(info.dlpi_name) }.to_string_lossy().into_owned()
                };
                let path = if name.is_empty() {
                    std::fs::read_link("/proc/self/exe").map(|p| p.to_string_lossy().into_owned()).unwrap_or_default()
                } else {
                    name
                };
                s.found = Some((path, s.addr - start + ph.p_offset as usize));
                return 1;
            }
        }
        0
    }
    let mut s = Search { addr, size, found: None };
    // SAFETY: the callback only reads loader-owned data and writes into `s`.
    unsafe { libc::dl_iterate_phdr(Some(each), (&mut s as *mut Search).cast()) };
    s.found.filter(|(p, _)| !p.is_empty())
}

pub(crate) unsafe extern "C" fn hsa_code_object_reader_create_from_memory(
    code_object: *const c_void,
    size: usize,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        if code_object.is_null() || size == 0 || code_object_reader.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller passes `size` readable bytes; copied eagerly.
        let bytes = unsafe { std::slice::from_raw_parts(code_object.cast::<u8>(), size) }.to_vec();
        let uri = match mapped_file_of(code_object as usize, size) {
            Some((path, offset)) => format!("file://{}#offset={offset}&size={size}", percent_encode(&path)),
            None => format!("memory://{}#offset={:#x}&size={size}", std::process::id(), code_object as usize),
        };
        new_reader(bytes, uri, code_object_reader)
    })
}

pub(crate) unsafe extern "C" fn hsa_code_object_reader_destroy(
    code_object_reader: hsa_code_object_reader_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let addr = code_object_reader.handle as usize;
        {
            let mut readers = READERS.lock().unwrap_or_else(|e| e.into_inner());
            let i = readers.iter().position(|a| *a == addr).ok_or(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER)?;
            readers.swap_remove(i);
        }
        // SAFETY: `addr` came from `Box::leak` in `new_reader` and was registered until the removal
        // above, which only one caller can win; a load copies what it needs from the reader during
        // its own call (using a reader while destroying it is the application's error, as in ROCr).
        // Freed, not leaked: an application that loads and unloads code objects in a loop must not
        // grow by a code object per cycle.
        drop(unsafe { Box::from_raw(addr as *mut Reader) });
        Ok(())
    })
}

// ---------------------------------------------------------------- executables

/// The block a code object's segments are loaded into (256-byte aligned, zeroed). Dropped with its
/// loaded code object when the executable is destroyed: the block goes to a pool of spare blocks that
/// the next load of the same size takes again (a load/unload loop reuses one block, and addresses of a
/// destroyed executable stay mapped, as a dispatch that outlives its executable may still read them);
/// beyond [`SPARE_BYTES`] of spare blocks the oldest are freed.
pub(crate) struct Segment {
    base: usize,
    layout: std::alloc::Layout,
}

/// Bytes of destroyed executables' blocks kept for reuse before the oldest is freed.
const SPARE_BYTES: usize = 16 << 20;

/// Spare blocks (oldest first) and their total size.
static SPARE: Mutex<(VecDeque<(usize, std::alloc::Layout)>, usize)> = Mutex::new((VecDeque::new(), 0));

impl Segment {
    fn new(size: usize) -> Result<Segment, Status> {
        let layout =
            std::alloc::Layout::from_size_align(size, 256).map_err(|_| HSA_STATUS_ERROR_INVALID_CODE_OBJECT)?;
        let reused = {
            let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
            let i = spare.0.iter().position(|(_, l)| *l == layout);
            i.and_then(|i| spare.0.remove(i)).map(|(base, _)| {
                spare.1 -= layout.size();
                base
            })
        };
        let base = match reused {
            Some(base) => {
                // SAFETY: a spare block of exactly this layout, owned by nobody else now.
                unsafe { std::ptr::write_bytes(base as *mut u8, 0, size) };
                base
            }
            None => {
                // SAFETY: non-zero size (callers pass at least 1).
                let p = unsafe { std::alloc::alloc_zeroed(layout) };
                if p.is_null() {
                    return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
                }
                p as usize
            }
        };
        Ok(Segment { base, layout })
    }

    fn ptr(&self) -> *mut u8 {
        self.base as *mut u8
    }
}

impl Drop for Segment {
    fn drop(&mut self) {
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        spare.0.push_back((self.base, self.layout));
        spare.1 += self.layout.size();
        while spare.1 > SPARE_BYTES {
            let Some((base, layout)) = spare.0.pop_front() else { break };
            spare.1 -= layout.size();
            // SAFETY: allocated by `Segment::new` with this layout; it left the pool just now and no
            // loaded code object owns it.
            unsafe { std::alloc::dealloc(base as *mut u8, layout) };
        }
    }
}

/// Number of spare code-object blocks and their bytes (tests).
#[cfg(test)]
pub(crate) fn spare_blocks() -> (usize, usize) {
    let spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    (spare.0.len(), spare.1)
}

pub(crate) struct LoadedCodeObject {
    pub(crate) executable: u64,
    pub(crate) agent: &'static Agent,
    /// Host copy of the ELF image the loader keeps.
    pub(crate) elf: Vec<u8>,
    pub(crate) load_base: u64,
    pub(crate) load_size: u64,
    pub(crate) load_delta: i64,
    pub(crate) uri: String,
    /// Owns `load_base .. load_base + load_size`.
    _segment: Segment,
}

pub(crate) struct ExecSymbol {
    pub(crate) name: String,
    pub(crate) kind: u32,
    pub(crate) agent: &'static Agent,
    pub(crate) address: u64,
    pub(crate) size: u64,
    pub(crate) kernel: Option<KernelInfo>,
}

pub(crate) struct ExecState {
    pub(crate) frozen: bool,
    pub(crate) loaded: Vec<Arc<LoadedCodeObject>>,
    pub(crate) symbols: Vec<Arc<ExecSymbol>>,
}

pub(crate) struct Executable {
    pub(crate) profile: u32,
    pub(crate) rounding: u32,
    pub(crate) state: Mutex<ExecState>,
}

/// Live executables, in creation order (the loader's `iterate_executables` order). A handle is the
/// address of its `Executable`; `hsa_executable_destroy` removes it, and the executable, its loaded
/// code objects (with their ELF copies and blocks) and its symbols are freed once no API call that
/// looked them up still uses them. As on ROCr, handles of a destroyed executable, of its loaded code
/// objects and of its symbols are invalid afterwards.
static EXECUTABLES: Mutex<Vec<Arc<Executable>>> = Mutex::new(Vec::new());

fn live_executables() -> Vec<Arc<Executable>> {
    EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn executable_handle(e: &Arc<Executable>) -> u64 {
    Arc::as_ptr(e) as u64
}

pub(crate) fn lookup_executable(h: hsa_executable_t) -> Result<Arc<Executable>, Status> {
    EXECUTABLES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|e| executable_handle(e) == h.handle)
        .cloned()
        .ok_or(HSA_STATUS_ERROR_INVALID_EXECUTABLE)
}

pub(crate) fn all_executables() -> Vec<u64> {
    EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).iter().map(executable_handle).collect()
}

/// Every loaded code object with its executable handle, in executable creation and load order.
pub(crate) fn all_loaded() -> Vec<(u64, Arc<LoadedCodeObject>)> {
    let mut v = Vec::new();
    for e in live_executables() {
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        v.extend(st.loaded.iter().map(|l| (executable_handle(&e), l.clone())));
    }
    v
}

fn create_executable(profile: u32, rounding: u32, out: *mut hsa_executable_t) -> Result<(), Status> {
    system()?;
    if out.is_null() || profile > HSA_PROFILE_FULL || rounding > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let e = Arc::new(Executable {
        profile,
        rounding,
        state: Mutex::new(ExecState { frozen: false, loaded: Vec::new(), symbols: Vec::new() }),
    });
    let handle = executable_handle(&e);
    EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).push(e);
    // SAFETY: non-null out-pointer.
    unsafe { put(out.cast(), hsa_executable_t { handle }) };
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_executable_create_alt(
    profile: hsa_profile_t,
    default_float_rounding_mode: hsa_default_float_rounding_mode_t,
    _options: *const c_char,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    status(|| create_executable(profile, default_float_rounding_mode, executable))
}

pub(crate) unsafe extern "C" fn hsa_executable_create(
    profile: hsa_profile_t,
    executable_state: hsa_executable_state_t,
    _options: *const c_char,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    status(|| {
        if executable_state > HSA_EXECUTABLE_STATE_FROZEN {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        create_executable(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, executable)?;
        if executable_state == HSA_EXECUTABLE_STATE_FROZEN {
            // SAFETY: just written by create_executable.
            let h = unsafe { executable.read_unaligned() };
            lookup_executable(h)?.state.lock().unwrap_or_else(|e| e.into_inner()).frozen = true;
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t {
    status(|| {
        system()?;
        let e = {
            let mut all = EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner());
            let i = all
                .iter()
                .position(|e| executable_handle(e) == executable.handle)
                .ok_or(HSA_STATUS_ERROR_INVALID_EXECUTABLE)?;
            all.remove(i)
        };
        let mut st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        {
            let mut k = KERNELS.write().unwrap_or_else(|e| e.into_inner());
            if let Some(map) = k.as_mut() {
                for s in st.symbols.iter().filter(|s| s.kernel.is_some()) {
                    map.remove(&s.address);
                }
            }
        }
        for s in st.symbols.iter().filter(|s| s.kernel.is_some()) {
            // What is kept of the kernel: its elision entries and its walked code.
            if let Some(forget) = KERNEL_DESTROYED.get() {
                forget(s.address);
            }
            rocprof_device::run::forget_kernel(s.address);
        }
        // Released as ROCr releases them: the symbols, the loaded code objects' ELF copies and their
        // blocks (recycled, see `Segment`) go with the last reference (an API call of another thread
        // may still hold one for its duration).
        st.symbols.clear();
        st.loaded.clear();
        Ok(())
    })
}

/// Reads the 64-byte kernel descriptor at `kd` (host address) into a [`KernelInfo`].
///
/// # Safety
/// `kd` must point at 64 readable bytes.
unsafe fn read_descriptor(kd: *const u8, code_bytes: u64) -> KernelInfo {
    let mut d = [0u8; 64];
    // SAFETY: guaranteed by the caller.
    unsafe { std::ptr::copy_nonoverlapping(kd, d.as_mut_ptr(), 64) };
    let u32_at = |o: usize| u32::from_le_bytes(d[o..o + 4].try_into().expect("4 bytes"));
    let props = u16::from_le_bytes([d[56], d[57]]);
    let entry = i64::from_le_bytes(d[16..24].try_into().expect("8 bytes"));
    KernelInfo {
        group_segment_size: u32_at(0),
        private_segment_size: u32_at(4),
        kernarg_size: u32_at(8),
        wave32: props & (1 << 10) != 0,
        dynamic_stack: props & (1 << 11) != 0,
        code_bytes,
        code_addr: (kd as i64).wrapping_add(entry) as u64,
        time_factor: 1.0,
    }
}

fn load(e: &Executable, exe_handle: u64, a: &'static Agent, r: &Reader) -> Result<Arc<LoadedCodeObject>, Status> {
    let m = a.gpu().ok_or(HSA_STATUS_ERROR_INVALID_AGENT)?;
    let co = elf::parse(&r.bytes).map_err(|err| {
        crate::diag!("code object {} rejected: {:?} at offset {:#x}", r.uri, err.kind, err.offset);
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT
    })?;
    if let Err(why) = m.check_elf_flags(co.flags_v4()) {
        // ROCr refuses with the same status and no message; the reason is the user's only clue.
        crate::diag!("code object {} not loaded on {}: {why}", r.uri, m.name);
        return Err(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
    }
    let mut st = e.state.lock().unwrap_or_else(|e| e.into_inner());
    if st.frozen {
        return Err(HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
    }
    let size = co.load_size().max(1) as usize;
    let segment = Segment::new(size)?;
    let base = segment.ptr();
    for p in &co.segments {
        let n = p.filesz.min(p.memsz) as usize;
        // SAFETY: `parse` checked the file range; the segment fits in `load_size` bytes by construction.
        unsafe {
            std::ptr::copy_nonoverlapping(r.bytes.as_ptr().add(p.offset as usize), base.add(p.vaddr as usize), n)
        };
    }
    let first_vaddr = co.segments.iter().map(|p| p.vaddr).min().unwrap_or(0);
    let delta = base as i64 - first_vaddr as i64;
    for rel in &co.relocations {
        if rel.offset + 8 > size as u64 {
            continue;
        }
        let value = match rel.r_type {
            elf::R_AMDGPU_RELATIVE64 => Some((delta + rel.addend) as u64),
            elf::R_AMDGPU_ABS64 => co
                .dynsyms
                .get(rel.sym as usize)
                .filter(|s| s.shndx != 0)
                .map(|s| (s.value as i64 + delta + rel.addend) as u64),
            _ => None,
        };
        if let Some(v) = value {
            // SAFETY: bounds-checked against the allocation above.
            unsafe { base.add(rel.offset as usize).cast::<u64>().write_unaligned(v) };
        }
    }
    let lco = Arc::new(LoadedCodeObject {
        executable: exe_handle,
        agent: a,
        elf: r.bytes.clone(),
        load_base: base as u64,
        load_size: size as u64,
        load_delta: delta,
        uri: r.uri.clone(),
        _segment: segment,
    });
    let funcs: HashMap<&str, u64> =
        co.symbols.iter().filter(|s| s.kind == elf::STT_FUNC).map(|s| (s.name.as_str(), s.size)).collect();
    let mut kernels = KERNELS.write().unwrap_or_else(|e| e.into_inner());
    let kernels = kernels.get_or_insert_with(HashMap::new);
    for s in &co.symbols {
        if s.bind == elf::STB_LOCAL || !(s.kind == elf::STT_OBJECT || s.kind == elf::STT_COMMON) || s.name.is_empty() {
            continue;
        }
        let address = (s.value as i64 + delta) as u64;
        let kernel = if let Some(stem) = s.name.strip_suffix(".kd") {
            if s.value + KD_SIZE > size as u64 {
                return Err(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
            }
            // SAFETY: the descriptor lies inside the loaded block (checked just above).
            let mut k = unsafe { read_descriptor(address as *const u8, funcs.get(stem).copied().unwrap_or(0)) };
            // The device model reads the kernel's code from memory: only if it lies inside the block.
            let inside = k.code_addr >= base as u64
                && k.code_addr.checked_add(k.code_bytes).is_some_and(|end| end <= base as u64 + size as u64);
            if !inside {
                k.code_bytes = 0;
            }
            k.time_factor = crate::runtime::timing_knobs().kernel_scale(stem);
            kernels.insert(address, k);
            Some(k)
        } else {
            None
        };
        st.symbols.push(Arc::new(ExecSymbol {
            name: s.name.clone(),
            kind: if kernel.is_some() { HSA_SYMBOL_KIND_KERNEL } else { HSA_SYMBOL_KIND_VARIABLE },
            agent: a,
            address,
            size: s.size,
            kernel,
        }));
    }
    st.loaded.push(lco.clone());
    Ok(lco)
}

pub(crate) unsafe extern "C" fn hsa_executable_load_agent_code_object(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    code_object_reader: hsa_code_object_reader_t,
    _options: *const c_char,
    loaded_code_object: *mut hsa_loaded_code_object_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let e = lookup_executable(executable)?;
        let a = agent::lookup(agent)?;
        let r = lookup_reader(code_object_reader)?;
        let lco = load(&e, executable.handle, a, r)?;
        if !loaded_code_object.is_null() {
            // SAFETY: non-null optional out-pointer.
            unsafe { put(loaded_code_object.cast(), hsa_loaded_code_object_t { handle: lco_handle(&lco) }) };
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_freeze(
    executable: hsa_executable_t,
    _options: *const c_char,
) -> hsa_status_t {
    status(|| {
        system()?;
        let e = lookup_executable(executable)?;
        let gpu_code_objects = {
            let mut st = e.state.lock().unwrap_or_else(|e| e.into_inner());
            if st.frozen {
                return Err(HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
            }
            st.frozen = true;
            st.loaded.iter().filter(|l| !l.agent.is_cpu()).count()
        };
        for _ in 0..gpu_code_objects {
            invalidate_code_caches();
        }
        Ok(())
    })
}

/// What ROCr does for each loaded code object of a GPU agent when an executable is frozen
/// (loader `Segment::Freeze` -> `RegionMemory::Freeze` -> `GpuAgent::InvalidateCodeCaches` ->
/// `AqlQueue::ExecutePM4` on the utility queue, gfx9+): it creates a completion signal through the
/// public API (so tools see `hsa_signal_create`), the cache-invalidation packet completes it, it
/// waits on it (`hsa_signal_wait_scacquire`) and destroys it (`hsa_signal_destroy`), all three
/// through the API table. The simulated caches need no invalidation: only the signal's life is
/// modelled, with the same calls.
fn invalidate_code_caches() {
    let mut s = hsa_signal_t { handle: 0 };
    // Through the live table's slots, as the exported trampolines call (ROCr's public calls).
    let create = slot!(core, hsa_signal_create_fn).unwrap_or(signal::hsa_signal_create);
    // SAFETY: a valid out-pointer; the slot has `hsa_signal_create`'s type.
    if unsafe { create(1, 0, std::ptr::null(), &mut s) } != HSA_STATUS_SUCCESS {
        return;
    }
    if let Ok(sig) = signal::lookup(s) {
        // The packet's completion (the command processor's write, no API call).
        sig.store(0);
    }
    let wait = slot!(core, hsa_signal_wait_scacquire_fn).unwrap_or(signal::hsa_signal_wait_scacquire);
    // SAFETY: `s` is the signal just created, destroyed only below; the slot has the function's type.
    unsafe { wait(s, HSA_SIGNAL_CONDITION_LT, 1, u64::MAX, HSA_WAIT_STATE_BLOCKED) };
    let destroy = slot!(core, hsa_signal_destroy_fn).unwrap_or(signal::hsa_signal_destroy);
    // SAFETY: as above.
    unsafe { destroy(s) };
}

pub(crate) unsafe extern "C" fn hsa_executable_get_info(
    executable: hsa_executable_t,
    attribute: hsa_executable_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let e = lookup_executable(executable)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let frozen = e.state.lock().unwrap_or_else(|e| e.into_inner()).frozen;
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_EXECUTABLE_INFO_PROFILE => put(value, e.profile),
                HSA_EXECUTABLE_INFO_STATE => {
                    put(value, if frozen { HSA_EXECUTABLE_STATE_FROZEN } else { HSA_EXECUTABLE_STATE_UNFROZEN })
                }
                HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE => put(value, e.rounding),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_validate(
    executable: hsa_executable_t,
    result: *mut u32,
) -> hsa_status_t {
    status(|| {
        system()?;
        lookup_executable(executable)?;
        if result.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(result.cast(), 0u32) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_validate_alt(
    executable: hsa_executable_t,
    _options: *const c_char,
    result: *mut u32,
) -> hsa_status_t {
    // SAFETY: forwarded caller contract.
    unsafe { hsa_executable_validate(executable, result) }
}

fn symbol_handle(s: &Arc<ExecSymbol>) -> hsa_executable_symbol_t {
    hsa_executable_symbol_t { handle: Arc::as_ptr(s) as u64 }
}

fn lookup_symbol(h: hsa_executable_symbol_t) -> Result<Arc<ExecSymbol>, Status> {
    for e in live_executables() {
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = st.symbols.iter().find(|s| symbol_handle(s).handle == h.handle) {
            return Ok(s.clone());
        }
    }
    Err(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL)
}

fn find_symbol(e: &Executable, name: &str, agent: Option<u64>) -> Result<Arc<ExecSymbol>, Status> {
    let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
    st.symbols
        .iter()
        .find(|s| s.name == name && agent.map_or(true, |a| s.agent.handle().handle == a))
        .cloned()
        .ok_or(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME)
}

pub(crate) unsafe extern "C" fn hsa_executable_get_symbol_by_name(
    executable: hsa_executable_t,
    symbol_name: *const c_char,
    agent: *const hsa_agent_t,
    symbol: *mut hsa_executable_symbol_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let e = lookup_executable(executable)?;
        if symbol_name.is_null() || symbol.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: NUL-terminated name from the caller.
        let name = unsafe { CStr::from_ptr(symbol_name) }.to_string_lossy().into_owned();
        // SAFETY: optional agent pointer from the caller.
        let a = if agent.is_null() { None } else { Some(unsafe { agent.read_unaligned() }.handle) };
        let s = find_symbol(&e, &name, a)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(symbol.cast(), symbol_handle(&s)) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_get_symbol(
    executable: hsa_executable_t,
    _module_name: *const c_char,
    symbol_name: *const c_char,
    agent: hsa_agent_t,
    _call_convention: i32,
    symbol: *mut hsa_executable_symbol_t,
) -> hsa_status_t {
    // SAFETY: forwarded caller contract; the agent lives on this stack frame during the call.
    unsafe { hsa_executable_get_symbol_by_name(executable, symbol_name, &agent, symbol) }
}

pub(crate) unsafe extern "C" fn hsa_executable_symbol_get_info(
    executable_symbol: hsa_executable_symbol_t,
    attribute: hsa_executable_symbol_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let s = lookup_symbol(executable_symbol)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let k = s.kernel;
        let kernel_only = |v: Option<u32>| v.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_EXECUTABLE_SYMBOL_INFO_TYPE => put(value, s.kind),
                HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH => put(value, s.name.len() as u32),
                HSA_EXECUTABLE_SYMBOL_INFO_NAME => put_chars(value, &s.name, s.name.len()),
                HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH => put(value, 0u32),
                HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME => {}
                HSA_EXECUTABLE_SYMBOL_INFO_AGENT => put(value, s.agent.handle()),
                HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE => put(value, HSA_SYMBOL_LINKAGE_PROGRAM),
                HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION => put(value, true),
                HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS if k.is_none() => put(value, s.address),
                HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION if k.is_none() => {
                    put(value, HSA_VARIABLE_ALLOCATION_AGENT)
                }
                HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT if k.is_none() => put(value, HSA_VARIABLE_SEGMENT_GLOBAL),
                HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT if k.is_none() => put(value, 8u32),
                HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE if k.is_none() => put(value, s.size as u32),
                HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST if k.is_none() => put(value, false),
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT if k.is_some() => put(value, s.address),
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE => {
                    put(value, kernel_only(k.map(|k| k.kernarg_size))?)
                }
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT => put(value, kernel_only(k.map(|_| 16))?),
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE => {
                    put(value, kernel_only(k.map(|k| k.group_segment_size))?)
                }
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE => {
                    put(value, kernel_only(k.map(|k| k.private_segment_size))?)
                }
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK if k.is_some() => {
                    put(value, k.is_some_and(|k| k.dynamic_stack))
                }
                HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION if k.is_some() => put(value, 0u32),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

type SymbolCb =
    unsafe extern "C" fn(exec: hsa_executable_t, symbol: hsa_executable_symbol_t, data: *mut c_void) -> hsa_status_t;

fn symbols_of(executable: hsa_executable_t) -> Result<Vec<Arc<ExecSymbol>>, Status> {
    system()?;
    let e = lookup_executable(executable)?;
    let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
    Ok(st.symbols.clone())
}

pub(crate) unsafe extern "C" fn hsa_executable_iterate_symbols(
    executable: hsa_executable_t,
    callback: Option<SymbolCb>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for s in symbols_of(executable)? {
            // SAFETY: application callback with its own data.
            let r = unsafe { cb(executable, symbol_handle(&s), data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_iterate_agent_symbols(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    callback: Option<
        unsafe extern "C" fn(
            exec: hsa_executable_t,
            agent: hsa_agent_t,
            symbol: hsa_executable_symbol_t,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        agent::lookup(agent)?;
        for s in symbols_of(executable)?.into_iter().filter(|s| s.agent.handle().handle == agent.handle) {
            // SAFETY: application callback with its own data.
            let r = unsafe { cb(executable, agent, symbol_handle(&s), data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

pub(crate) unsafe extern "C" fn hsa_executable_iterate_program_symbols(
    executable: hsa_executable_t,
    callback: Option<SymbolCb>,
    _data: *mut c_void,
) -> hsa_status_t {
    // Agent code objects only: there are no program-allocated symbols.
    status_code(|| {
        callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        symbols_of(executable)?;
        Ok(HSA_STATUS_SUCCESS)
    })
}

/// The handle of a loaded code object (its address).
pub(crate) fn lco_handle(l: &Arc<LoadedCodeObject>) -> u64 {
    Arc::as_ptr(l) as u64
}

/// Loaded code object by handle (of a live executable).
pub(crate) fn lookup_lco(h: hsa_loaded_code_object_t) -> Result<Arc<LoadedCodeObject>, Status> {
    all_loaded()
        .into_iter()
        .map(|(_, l)| l)
        .find(|l| lco_handle(l) == h.handle)
        .ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

/// Loaded code objects of an executable, in load order.
pub(crate) fn loaded_of(e: &Executable) -> Vec<Arc<LoadedCodeObject>> {
    e.state.lock().unwrap_or_else(|e| e.into_inner()).loaded.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_encoding() {
        assert_eq!(percent_encode("/tmp/my dir/a+b.co"), "/tmp/my%20dir/a%2Bb.co");
        assert_eq!(percent_encode("/x/y_z.~-1"), "/x/y_z.~-1");
    }

    static EMBEDDED: [u8; 32] = *b"an embedded code object, say....";

    #[test]
    fn memory_inside_a_mapped_file_gets_a_file_uri() {
        let (path, offset) =
            mapped_file_of(EMBEDDED.as_ptr() as usize, EMBEDDED.len()).expect("a static lies in the test binary");
        let exe = std::fs::read_link("/proc/self/exe").unwrap();
        assert_eq!(std::path::Path::new(&path), exe);
        let file = std::fs::read(&exe).unwrap();
        assert_eq!(&file[offset..offset + 32], &EMBEDDED, "offset points at the same bytes in the file");
        let heap = Box::new([0u8; 64]);
        assert_eq!(mapped_file_of(heap.as_ptr() as usize, heap.len()), None);
    }

    /// One cycle as an application runs it: reader, executable, load, freeze, look the kernel up, then
    /// destroy both. Returns (executable, symbol, loaded code object, kernel object).
    fn load_cycle(gpu: hsa_agent_t, bytes: &[u8]) -> (hsa_executable_t, hsa_executable_symbol_t, u64, u64) {
        let k = crate::testing::load_kernel(gpu, bytes, "fill");
        assert!(kernel_info(k.kernel_object).is_some());
        assert_eq!(kernel_name(k.kernel_object).as_deref(), Some("fill"));
        // SAFETY: live handles made above; `bytes` outlives the reader.
        unsafe {
            assert_eq!(hsa_executable_destroy(k.exe), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_code_object_reader_destroy(k.reader), HSA_STATUS_SUCCESS);
        }
        (k.exe, k.sym, k.lco.handle, k.kernel_object)
    }

    /// Issue 14: a destroyed executable is released as on ROCr (its handle, its symbols' and loaded code
    /// objects' handles are invalid, its kernels are no longer dispatchable) and a load/unload loop reuses
    /// one block instead of growing by a code object per cycle.
    #[test]
    fn destroyed_executables_are_released_and_their_blocks_recycled() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = crate::testing::init_gpu();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels/fill-gfx942.co");
        let bytes = std::fs::read(path).unwrap();
        let live_before = all_executables().len();
        let (exe, sym, lco, kernel_object) = load_cycle(gpu, &bytes);
        assert_eq!(all_executables().len(), live_before);
        assert!(kernel_info(kernel_object).is_none(), "a destroyed executable's kernel is not dispatchable");
        assert_eq!(kernel_name(kernel_object), None);
        assert!(!loaded_ranges().iter().any(|(b, e)| (*b..*e).contains(&kernel_object)));
        let mut state = 0u32;
        let mut kind = 0u32;
        // SAFETY: stale handles are checked, never dereferenced; valid out-pointers.
        unsafe {
            assert_eq!(hsa_executable_destroy(exe), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
            assert_eq!(
                hsa_executable_get_info(exe, HSA_EXECUTABLE_INFO_STATE, (&mut state as *mut u32).cast()),
                HSA_STATUS_ERROR_INVALID_EXECUTABLE
            );
            assert_eq!(
                hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, (&mut kind as *mut u32).cast()),
                HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL
            );
        }
        assert_eq!(lookup_lco(hsa_loaded_code_object_t { handle: lco }).err(), Some(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        // The next load of the same code object takes the block back: the same kernel object address.
        let (_, _, _, again) = load_cycle(gpu, &bytes);
        assert_eq!(again, kernel_object, "the destroyed executable's block is reused");
        for _ in 0..500 {
            load_cycle(gpu, &bytes);
        }
        let (blocks, spare_bytes) = spare_blocks();
        assert!(blocks <= 2 && spare_bytes <= SPARE_BYTES, "{blocks} spare blocks, {spare_bytes} bytes");
        assert_eq!(all_executables().len(), live_before);
        crate::testing::shut_down();
    }

    #[test]
    fn descriptor_fields() {
        let mut kd = [0u8; 64];
        kd[0..4].copy_from_slice(&256u32.to_le_bytes());
        kd[4..8].copy_from_slice(&16u32.to_le_bytes());
        kd[8..12].copy_from_slice(&24u32.to_le_bytes());
        kd[56..58].copy_from_slice(&((1u16 << 10) | (1 << 11)).to_le_bytes());
        // SAFETY: 64 readable bytes.
        let k = unsafe { read_descriptor(kd.as_ptr(), 300) };
        assert_eq!((k.group_segment_size, k.private_segment_size, k.kernarg_size), (256, 16, 24));
        assert!(k.wave32 && k.dynamic_stack);
        assert_eq!(k.code_bytes, 300);
    }
}
