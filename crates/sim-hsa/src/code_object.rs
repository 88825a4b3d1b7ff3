//! Code-object readers, executables, loaded code objects and executable symbols.
//!
//! Loading follows ROCr's loader rules (`hsa-abi.md` §5.6): the ELF's ISA (from `e_flags`) must be accepted
//! by the agent (`INCOMPATIBLE_ARGUMENTS` otherwise), all PT_LOAD segments go into one 256-byte-aligned
//! block of `last.vaddr + last.memsz` bytes, `R_AMDGPU_RELATIVE64`/`ABS64` dynamic relocations are applied,
//! only global/weak `STT_OBJECT`/`STT_COMMON` symbols become HSA symbols, `*.kd` objects are kernels whose
//! properties come from the 64-byte kernel descriptor, and the executable must be unfrozen to load.
//! Symbol names keep `.kd`; NAME is written without a NUL, KERNARG_SEGMENT_ALIGNMENT is 16.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Mutex, RwLock};

use rocprof_hsa_sys::*;

use crate::agent::{self, Agent};
use crate::api::{put, put_chars, status, status_code, Status};
use crate::elf;
use crate::runtime::system;

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
    /// `kernel_code_entry_byte_offset`); its `code_bytes` bytes stay mapped for the process's life.
    pub(crate) code_addr: u64,
    /// `ROCPROF_RS_SIM_KERNEL_SCALE`'s factor for this kernel (1 when no rule matches its name).
    pub(crate) time_factor: f64,
}

/// Kernel descriptor address -> kernel properties, for every loaded kernel.
static KERNELS: RwLock<Option<HashMap<u64, KernelInfo>>> = RwLock::new(None);

/// `[base, base + size)` of every loaded code object (kernels may read constants next to their code).
pub(crate) fn loaded_ranges() -> Vec<(u64, u64)> {
    let mut v = Vec::new();
    for exe in all_executables() {
        // SAFETY: registered executables are leaked, never freed.
        let e = unsafe { &*(exe as usize as *const Executable) };
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        v.extend(st.loaded.iter().map(|l| (l.load_base, l.load_base + l.load_size)));
    }
    v
}

/// The name of the kernel whose descriptor is at `kernel_object` (without `.kd`).
pub(crate) fn kernel_name(kernel_object: u64) -> Option<String> {
    for exe in all_executables() {
        // SAFETY: registered executables are leaked, never freed.
        let e = unsafe { &*(exe as usize as *const Executable) };
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

pub(crate) struct LoadedCodeObject {
    pub(crate) executable: u64,
    pub(crate) agent: &'static Agent,
    /// Host copy of the ELF image the loader keeps.
    pub(crate) elf: Vec<u8>,
    pub(crate) load_base: u64,
    pub(crate) load_size: u64,
    pub(crate) load_delta: i64,
    pub(crate) uri: String,
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
    pub(crate) loaded: Vec<&'static LoadedCodeObject>,
    pub(crate) symbols: Vec<&'static ExecSymbol>,
}

pub(crate) struct Executable {
    pub(crate) profile: u32,
    pub(crate) rounding: u32,
    pub(crate) state: Mutex<ExecState>,
}

/// Live executables, in creation order (the loader's `iterate_executables` order).
static EXECUTABLES: Mutex<Vec<usize>> = Mutex::new(Vec::new());

pub(crate) fn lookup_executable(h: hsa_executable_t) -> Result<&'static Executable, Status> {
    if EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).contains(&(h.handle as usize)) {
        // SAFETY: registered executables are leaked boxes, never freed.
        Ok(unsafe { &*(h.handle as usize as *const Executable) })
    } else {
        Err(HSA_STATUS_ERROR_INVALID_EXECUTABLE)
    }
}

pub(crate) fn all_executables() -> Vec<u64> {
    EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|a| *a as u64).collect()
}

fn create_executable(profile: u32, rounding: u32, out: *mut hsa_executable_t) -> Result<(), Status> {
    system()?;
    if out.is_null() || profile > HSA_PROFILE_FULL || rounding > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let e: &'static Executable = Box::leak(Box::new(Executable {
        profile,
        rounding,
        state: Mutex::new(ExecState { frozen: false, loaded: Vec::new(), symbols: Vec::new() }),
    }));
    EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).push(e as *const Executable as usize);
    // SAFETY: non-null out-pointer.
    unsafe { put(out.cast(), hsa_executable_t { handle: e as *const Executable as u64 }) };
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
        let e = lookup_executable(executable)?;
        EXECUTABLES.lock().unwrap_or_else(|e| e.into_inner()).retain(|a| *a != executable.handle as usize);
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut k = KERNELS.write().unwrap_or_else(|e| e.into_inner());
        if let Some(map) = k.as_mut() {
            for s in &st.symbols {
                if s.kernel.is_some() {
                    map.remove(&s.address);
                }
            }
        }
        // Segment memory stays mapped: tools may still translate addresses of a destroyed executable.
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

fn load(
    e: &'static Executable,
    exe_handle: u64,
    a: &'static Agent,
    r: &'static Reader,
) -> Result<&'static LoadedCodeObject, Status> {
    let m = a.gpu().ok_or(HSA_STATUS_ERROR_INVALID_AGENT)?;
    let co = elf::parse(&r.bytes).map_err(|err| {
        crate::diag!("code object {} rejected: {:?} at offset {:#x}", r.uri, err.kind, err.offset);
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT
    })?;
    if !m.accepts_elf_flags(co.flags_v4()) {
        return Err(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
    }
    let mut st = e.state.lock().unwrap_or_else(|e| e.into_inner());
    if st.frozen {
        return Err(HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
    }
    let size = co.load_size().max(1) as usize;
    let layout = std::alloc::Layout::from_size_align(size, 256).map_err(|_| HSA_STATUS_ERROR_INVALID_CODE_OBJECT)?;
    // SAFETY: non-zero size.
    let base = unsafe { std::alloc::alloc_zeroed(layout) };
    if base.is_null() {
        return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    }
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
    let lco: &'static LoadedCodeObject = Box::leak(Box::new(LoadedCodeObject {
        executable: exe_handle,
        agent: a,
        elf: r.bytes.clone(),
        load_base: base as u64,
        load_size: size as u64,
        load_delta: delta,
        uri: r.uri.clone(),
    }));
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
        st.symbols.push(Box::leak(Box::new(ExecSymbol {
            name: s.name.clone(),
            kind: if kernel.is_some() { HSA_SYMBOL_KIND_KERNEL } else { HSA_SYMBOL_KIND_VARIABLE },
            agent: a,
            address,
            size: s.size,
            kernel,
        })));
    }
    st.loaded.push(lco);
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
        let lco = load(e, executable.handle, a, r)?;
        if !loaded_code_object.is_null() {
            // SAFETY: non-null optional out-pointer.
            unsafe {
                put(
                    loaded_code_object.cast(),
                    hsa_loaded_code_object_t { handle: lco as *const LoadedCodeObject as u64 },
                )
            };
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
        let mut st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.frozen {
            return Err(HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
        }
        st.frozen = true;
        Ok(())
    })
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

fn symbol_handle(s: &'static ExecSymbol) -> hsa_executable_symbol_t {
    hsa_executable_symbol_t { handle: s as *const ExecSymbol as u64 }
}

fn lookup_symbol(h: hsa_executable_symbol_t) -> Result<&'static ExecSymbol, Status> {
    for exe in all_executables() {
        // SAFETY: registered executables are leaked.
        let e = unsafe { &*(exe as usize as *const Executable) };
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = st.symbols.iter().find(|s| symbol_handle(s).handle == h.handle) {
            return Ok(s);
        }
    }
    Err(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL)
}

fn find_symbol(e: &'static Executable, name: &str, agent: Option<u64>) -> Result<&'static ExecSymbol, Status> {
    let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
    st.symbols
        .iter()
        .find(|s| s.name == name && agent.map_or(true, |a| s.agent.handle().handle == a))
        .copied()
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
        let s = find_symbol(e, &name, a)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(symbol.cast(), symbol_handle(s)) };
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

fn symbols_of(executable: hsa_executable_t) -> Result<Vec<&'static ExecSymbol>, Status> {
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
            let r = unsafe { cb(executable, symbol_handle(s), data) };
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
            let r = unsafe { cb(executable, agent, symbol_handle(s), data) };
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

/// Loaded code object by handle.
pub(crate) fn lookup_lco(h: hsa_loaded_code_object_t) -> Result<(&'static LoadedCodeObject, bool), Status> {
    for exe in all_executables() {
        // SAFETY: registered executables are leaked.
        let e = unsafe { &*(exe as usize as *const Executable) };
        let st = e.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = st.loaded.iter().find(|l| **l as *const LoadedCodeObject as u64 == h.handle) {
            return Ok((l, true));
        }
    }
    Err(HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

/// Loaded code objects of an executable, in load order.
pub(crate) fn loaded_of(e: &'static Executable) -> Vec<&'static LoadedCodeObject> {
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
