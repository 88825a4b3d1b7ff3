//! HIP API tracing, through whichever mechanism the HIP in the process offers (chosen at run time):
//!
//! * ROCm 6.2+ ([`install_tables`]): HIP hands its dispatch tables (`HipDispatchTable`,
//!   `HipCompilerDispatchTable`) to `rocprofiler_set_api_table`, which we export; every typed member
//!   is replaced by a generated wrapper ([`wrappers`]) that records the call and forwards to the
//!   saved original. Operation ids are the member indices (rocprofiler-sdk's
//!   `ROCPROFILER_HIP_{RUNTIME,COMPILER}_API_ID_*` follow the table order).
//! * HIP 5.x ([`v5`]): `libamdhip64.so.5` exports roctracer's hooks (`hipRegisterActivityCallback`,
//!   `hipRegisterApiCallback`); HIP asks our activity callback for an argument record at every call
//!   and tells it when the call is over. Operation ids are HIP's own `HIP_API_ID_*` (named at run
//!   time with `hipApiName`).
//! * HIP 6.x without rocprofiler-register ([`v6`], Debian's HIP 6.4): only roctracer's single
//!   `hipRegisterTracerCallback` is exported; HIP offers every call to our callback, which hands
//!   back the functions HIP calls before (arguments filled) and after the call body. Operation ids
//!   are HIP's `HIP_API_ID_*` again.
//!
//! When a HIP library is in the process but offers none of these, [`warn_if_untraced`] says so
//! once (never a silently empty HIP domain).
//!
//! Both record through [`record`]: one API-call record per call, in the runtime (`hip*`) or
//! compiler (`__hip*`) domain as rocprofv3 separates them. A traced call is a *runtime-level* call
//! for correlation (`api::Level::Runtime`): kernels and copies that HIP issues while it runs
//! carry its correlation id, and the HIP stream it names ([`api::set_stream`]).
//!
//! Operation names are written into the capture lazily, the first time an operation is recorded
//! (a string and a name record, allocation-free), so registration needs no capture file yet.

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU16, AtomicU8, AtomicUsize, Ordering};

use rocprof_hsa_sys::*;
use rocprof_model::api::ApiDomain;

use crate::api::{self, Call, Level};
use crate::state;
use crate::thread::{self, Thread};

pub mod v5;
pub mod v6;
mod wrappers;

/// Which HIP domains are traced (`ROCPROF_RS_TRACE` words `hip_runtime`,
/// `hip_compiler`), read once when tracing is set up.
static RUNTIME: AtomicBool = AtomicBool::new(false);
static COMPILER: AtomicBool = AtomicBool::new(false);
/// How HIP is traced in this process (see [`Mechanism`]).
static MECHANISM: AtomicU8 = AtomicU8::new(Mechanism::None as u8);

/// How HIP reached us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Mechanism {
    /// Not (yet).
    None = 0,
    /// HIP 5.x callbacks.
    Callbacks = 1,
    /// ROCm 6.2+ dispatch tables.
    Tables = 2,
    /// HIP 6.x roctracer callback (`hipRegisterTracerCallback`).
    Tracer = 3,
}

/// The mechanism in use.
pub fn mechanism() -> Mechanism {
    match MECHANISM.load(Ordering::Acquire) {
        1 => Mechanism::Callbacks,
        2 => Mechanism::Tables,
        3 => Mechanism::Tracer,
        _ => Mechanism::None,
    }
}

/// Sets the traced HIP domains (cold path).
pub fn configure(trace: rocprof_launch::Trace) {
    use rocprof_launch::TraceWord as W;
    RUNTIME.store(trace.has(W::HipRuntime), Ordering::Release);
    COMPILER.store(trace.has(W::HipCompiler), Ordering::Release);
}

/// True when some HIP domain is traced.
pub fn enabled() -> bool {
    RUNTIME.load(Ordering::Relaxed) || COMPILER.load(Ordering::Relaxed)
}

fn domain_of(compiler: bool) -> ApiDomain {
    if compiler {
        ApiDomain::HipCompiler
    } else {
        ApiDomain::HipRuntime
    }
}

fn domain_enabled(compiler: bool) -> bool {
    if compiler {
        COMPILER.load(Ordering::Relaxed)
    } else {
        RUNTIME.load(Ordering::Relaxed)
    }
}

/// Most operation ids per domain we name (HIP 5.x has ~400, the ROCm 6 runtime table ~480).
const MAX_OPS: usize = 1024;

/// Operations whose name record is in the capture, per domain (runtime, compiler).
static NAMED: [[AtomicBool; MAX_OPS]; 2] =
    [[const { AtomicBool::new(false) }; MAX_OPS], [const { AtomicBool::new(false) }; MAX_OPS]];

/// Writes the name of `op` once (the first record of an operation; a few hundred per run).
#[inline]
fn ensure_named(compiler: bool, op: u32, name: impl FnOnce() -> &'static str) {
    let Some(flag) = NAMED[compiler as usize].get(op as usize) else { return };
    if flag.load(Ordering::Relaxed) {
        return;
    }
    if api::name_operation(domain_of(compiler), op, name()) {
        flag.store(true, Ordering::Relaxed);
    }
}

/// Writes the record of a finished HIP call. `name` gives the operation's name (asked for once
/// per capture); `ret` is the return value's raw bits; `args` the argument words; `t` the calling
/// thread's state ([`crate::thread::current`]).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn record(
    t: Option<&Thread>,
    compiler: bool,
    op: u32,
    name: impl FnOnce() -> &'static str,
    call: &Call,
    end: u64,
    ret: u64,
    args: &[u64],
) {
    ensure_named(compiler, op, name);
    api::record_on(t, domain_of(compiler), op, call, end, ret, args, 0);
}

/// True when a call of this domain is to be recorded now (domain enabled, tool active,
/// collection not paused by `--selected-regions`).
#[inline]
fn recording(compiler: bool) -> bool {
    domain_enabled(compiler) && state::host_active() && state::collecting()
}

// ---------------------------------------------------------------------------------------------
// ROCm 6.2+: dispatch tables

/// One wrapped member of a HIP dispatch table.
pub(crate) struct Slot {
    /// Member of `HipCompilerDispatchTable` (else `HipDispatchTable`).
    pub(crate) compiler: bool,
    /// Member index (0 = the first function pointer, after `size`); the operation id.
    pub(crate) index: usize,
    /// Function name.
    pub(crate) name: &'static str,
    /// Our wrapper.
    pub(crate) wrapper: *const (),
}

// SAFETY: `wrapper` is the address of a function, immutable and valid everywhere.
unsafe impl Sync for Slot {}

/// The original function of every slot of [`wrappers::SLOTS`] (0 until its table is installed).
static ORIGINALS: [AtomicUsize; wrappers::SLOTS.len()] = [const { AtomicUsize::new(0) }; wrappers::SLOTS.len()];

/// The original function saved for `slot`, as its function-pointer type.
///
/// # Safety
/// `F` is the function-pointer type of the slot's member, and the slot was installed (its
/// original saved, non-NULL) — true inside the slot's wrapper, which HIP can only reach after
/// [`install_tables`] stored the original.
#[inline(always)]
pub(crate) unsafe fn original<F: Copy>(slot: usize) -> F {
    debug_assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<usize>());
    let addr = ORIGINALS[slot].load(Ordering::Acquire);
    // SAFETY: a non-zero function address of type `F` (caller's contract).
    unsafe { std::mem::transmute_copy::<usize, F>(&addr) }
}

/// An argument or return value as a raw 64-bit record word.
pub(crate) trait Word {
    /// The word (integers sign- or zero-extended, pointers as addresses, `float`/`double` as their
    /// bits, `dim3` packed as x | y << 32 | z << 48 with y and z saturated at 65535, other
    /// by-value structs 0).
    fn word(&self) -> u64;
}

macro_rules! word_as {
    ($($t:ty => $e:expr),* $(,)?) => { $(impl Word for $t { #[inline(always)] fn word(&self) -> u64 { let v = *self; $e(v) } })* };
}

word_as! {
    i8 => |v: i8| v as i64 as u64,
    i16 => |v: i16| v as i64 as u64,
    i32 => |v: i32| v as i64 as u64,
    i64 => |v: i64| v as u64,
    u8 => |v: u8| u64::from(v),
    u16 => |v: u16| u64::from(v),
    u32 => |v: u32| u64::from(v),
    u64 => |v: u64| v,
    bool => |v: bool| u64::from(v),
    f32 => |v: f32| u64::from(v.to_bits()),
    f64 => |v: f64| v.to_bits(),
    *mut c_void => |v: *mut c_void| v as u64,
    () => |_v: ()| 0,
    byval_hipChannelFormatDesc => |_v| 0,
    byval_hipExtent => |_v| 0,
    byval_hipIpcEventHandle_t => |_v| 0,
    byval_hipIpcMemHandle_t => |_v| 0,
    byval_hipPitchedPtr => |_v| 0,
}

impl Word for dim3 {
    #[inline(always)]
    fn word(&self) -> u64 {
        pack_dim3(self.x, self.y, self.z)
    }
}

/// `dim3` in one word: x in bits 0-31, y in 32-47, z in 48-63 (y, z saturated at 65535).
#[inline(always)]
pub(crate) fn pack_dim3(x: u32, y: u32, z: u32) -> u64 {
    u64::from(x) | u64::from(y.min(0xFFFF)) << 32 | u64::from(z.min(0xFFFF)) << 48
}

/// Copies the argument words of `f`'s parameters out of a `hip_api_data_t` record at `data`
/// (`len` bytes) into `out`; returns how many (integers sign- or zero-extended, `dim3` packed as
/// [`pack_dim3`], other by-value structs 0). Reads only the parameters' own bytes: the rest of the
/// record's union may be uninitialised (HIP fills only the members of the current call).
///
/// # Safety
/// `data` points to `len` readable bytes in which the parameters of `f` (those inside `len`) are
/// initialised.
pub(crate) unsafe fn copy_args(f: &HipProfFunction, data: *const u8, len: usize, out: &mut [u64]) -> usize {
    let mut n = 0;
    for (a, slot) in f.args.iter().zip(out.iter_mut()) {
        let off = usize::from(a.offset);
        let size = usize::from(a.size);
        if off + size > len {
            break;
        }
        // Inside the record (`off + size <= len`), so the same pointer as `data.add(off)`.
        let p = data.wrapping_add(off);
        // The parameter's bytes as a little-endian word, read at their own width (1, 2, 4 or 8
        // bytes for almost every parameter): a copy of a run-time length was a `memcpy` call per
        // argument, 2% of a traced HIP 5.2 call's profile.
        // SAFETY: `p` starts `size <= len - off` initialised bytes of the record (caller's
        // contract); every arm reads exactly `size` of them (unaligned reads), or none.
        let raw = unsafe {
            match size {
                1 => u64::from(p.read()),
                2 => u64::from(u16::from_le(p.cast::<u16>().read_unaligned())),
                4 => u64::from(u32::from_le(p.cast::<u32>().read_unaligned())),
                8 => u64::from_le(p.cast::<u64>().read_unaligned()),
                3 | 5..=7 => {
                    let mut w = [0u8; 8];
                    std::ptr::copy_nonoverlapping(p, w.as_mut_ptr(), size);
                    u64::from_le_bytes(w)
                }
                _ => 0,
            }
        };
        *slot = match a.class {
            HipArgClass::Dim3 if size == 12 => {
                let mut b = [0u8; 12];
                // SAFETY: `p` starts `size` = 12 initialised bytes of the record (caller's contract).
                unsafe { std::ptr::copy_nonoverlapping(p, b.as_mut_ptr(), 12) };
                let x = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                let y = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
                let z = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
                pack_dim3(x, y, z)
            }
            HipArgClass::Struct | HipArgClass::Dim3 => 0,
            HipArgClass::Signed | HipArgClass::Enum if (1..=8).contains(&size) => {
                let shift = 64 - 8 * size as u32;
                ((raw << shift) as i64 >> shift) as u64
            }
            _ => raw,
        };
        n += 1;
    }
    n
}

/// The body of every generated wrapper: records the call around `f` (unless its domain is off
/// or collection is paused) with the HIP stream it names (`stream`, 0 = none/default).
#[inline(always)]
pub(crate) fn traced<R: Word>(slot: usize, stream: u64, args: &[u64], f: impl FnOnce() -> R) -> R {
    let s = &wrappers::SLOTS[slot];
    if !recording(s.compiler) {
        return f();
    }
    let t = thread::current();
    let call = api::enter_on(t, Level::Runtime);
    let prev_stream = api::set_stream_on(t, stream);
    let r = f();
    api::set_stream_on(t, prev_stream);
    let end = api::leave_on(t, &call);
    record(t, s.compiler, s.index as u32, || s.name, &call, end, r.word(), args);
    r
}

/// What the HIP 5.x callbacks ([`v5`]) and HIP 6.x tracer ([`v6`]) know about one HIP API id,
/// filled at registration (one table per mechanism, indexed by HIP's operation id).
pub(super) struct Operation {
    /// `hipApiName(id)` (a static string in HIP), NULL if unknown.
    pub(super) name: AtomicPtr<c_char>,
    /// Index into the mechanism's pinned argument-layout table + 1 (0: no layout known).
    pub(super) layout: AtomicU16,
    /// 1: a `__hip*` compiler function.
    pub(super) compiler: AtomicU8,
    /// Offset of the `stream` parameter in the record + 1 (0: none).
    pub(super) stream: AtomicU16,
}

impl Operation {
    /// An id nothing is known of yet.
    pub(super) const fn new() -> Operation {
        Operation {
            name: AtomicPtr::new(std::ptr::null_mut()),
            layout: AtomicU16::new(0),
            compiler: AtomicU8::new(0),
            stream: AtomicU16::new(0),
        }
    }

    /// The operation's name as HIP's `hipApiName` gave it ("" when unknown).
    pub(super) fn name(&self) -> &'static str {
        let p = self.name.load(Ordering::Relaxed);
        if p.is_null() {
            return "";
        }
        // SAFETY: `hipApiName` returns pointers to static NUL-terminated strings in libamdhip64,
        // which is never unloaded while our callbacks or tracer are registered.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
    }
}

/// The address of a symbol anywhere in the process (`dlsym(RTLD_DEFAULT)`), NULL if none.
pub(super) fn lookup(symbol: &CStr) -> *mut c_void {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name.
    unsafe { libc::dlsym(libc::RTLD_DEFAULT, symbol.as_ptr()) }
}

/// Set once the "HIP not traced" warning has been printed.
static WARNED_UNTRACED: AtomicBool = AtomicBool::new(false);

/// With a HIP domain traced, says once (naming the library) when a HIP runtime is in the process
/// but none of our mechanisms reached it, so an empty HIP trace never reads as "no calls". Before
/// the application runs (`at_exit` false) only a HIP that cannot hand us anything is reported (one
/// linked with rocprofiler-register may still hand over its dispatch tables); at exit, any. Cold
/// path.
pub fn warn_if_untraced(at_exit: bool) {
    if !enabled() || mechanism() != Mechanism::None || WARNED_UNTRACED.load(Ordering::Relaxed) {
        return;
    }
    let hip = lookup(c"hipGetDevice");
    if hip.is_null() {
        return;
    }
    let register = lookup(c"rocprofiler_register_library_api_table");
    if !at_exit && !register.is_null() {
        return;
    }
    if WARNED_UNTRACED.swap(true, Ordering::Relaxed) {
        return;
    }
    let mut info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: `hip` is the address of a loaded function; `info` is ours to fill.
    let found = unsafe { libc::dladdr(hip, &mut info) } != 0 && !info.dli_fname.is_null();
    let path = if found {
        // SAFETY: dladdr's file name is a NUL-terminated string owned by the dynamic loader.
        unsafe { CStr::from_ptr(info.dli_fname) }.to_str().unwrap_or("the HIP runtime")
    } else {
        "the HIP runtime"
    };
    let how = if register.is_null() {
        "it offers no tracing interface rocprof-rs knows (no hipRegisterTracerCallback, no HIP 5.x callbacks, not linked with rocprofiler-register)"
    } else {
        "it is linked with rocprofiler-register but never handed over its dispatch tables"
    };
    crate::diag!(
        crate::diag::Level::Warning,
        "--hip-trace: {} is loaded but {}; its HIP calls are not in the outputs",
        path,
        how
    );
}

/// Members a table of `size` bytes has: the first `(size - 8) / 8` function pointers.
fn members(size: usize) -> usize {
    size.saturating_sub(8) / 8
}

/// `rocprofiler_set_api_table("hip" | "hip_compiler", ..)`: replaces every typed member the
/// table has (by its size field) with our wrapper, saving the original. Members that are NULL or
/// already ours are left alone. Returns the number of members wrapped.
///
/// # Safety
/// `table` points to HIP's live `HipDispatchTable` (or `HipCompilerDispatchTable` when
/// `compiler`), which starts with its size in bytes; nobody calls through it concurrently
/// (HIP registers it during its initialisation).
pub unsafe fn install_tables(table: *mut c_void, compiler: bool) -> usize {
    if table.is_null() {
        return 0;
    }
    // SAFETY: every table starts with its size (caller's contract).
    let size = unsafe { *(table as *const usize) };
    let have = members(size);
    let slots = table as *mut usize;
    let mut wrapped = 0;
    for (i, s) in wrappers::SLOTS.iter().enumerate() {
        if s.compiler != compiler || s.index >= have {
            continue;
        }
        // SAFETY: member `index` lies inside the table (`index < have`), after the size word.
        let member = unsafe { slots.add(1 + s.index) };
        // SAFETY: as above; the table is not being called through concurrently.
        let current = unsafe { member.read() };
        if current == 0 || current == s.wrapper as usize {
            continue;
        }
        ORIGINALS[i].store(current, Ordering::Release);
        // SAFETY: as above.
        unsafe { member.write(s.wrapper as usize) };
        wrapped += 1;
    }
    MECHANISM.store(Mechanism::Tables as u8, Ordering::Release);
    wrapped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_of_every_width_are_read_at_their_own_bytes_only() {
        use rocprof_hsa_sys::{HipArgClass as C, HipProfArg, HipProfFunction};
        let arg = |offset: u16, size: u16, class: C| HipProfArg { name: "a", ty: "t", offset, size, class };
        let args: &'static [HipProfArg] = Box::leak(Box::new([
            arg(1, 1, C::Unsigned),
            arg(2, 2, C::Unsigned),
            arg(4, 4, C::Unsigned),
            arg(8, 8, C::Pointer),
            arg(16, 1, C::Signed),
            arg(17, 2, C::Signed),
            arg(20, 4, C::Enum),
            arg(24, 8, C::Signed),
            arg(33, 3, C::Unsigned),
            arg(36, 6, C::Signed),
            arg(44, 12, C::Dim3),
            arg(56, 16, C::Struct),
        ]));
        let f = HipProfFunction { name: "f", args };
        // Each parameter's bytes, and 0xEE in every byte no parameter owns: a read wider than an
        // unsigned parameter would show them in its word. (A wider read whose excess is masked
        // or shifted out, as sign extension does, gives the right words and is not caught here:
        // the bytes it reads may be uninitialised, which only a checker such as Miri sees.)
        let mut data = [0xEEu8; 80];
        let mut put = |off: usize, bytes: &[u8]| data[off..off + bytes.len()].copy_from_slice(bytes);
        put(1, &[0x81]);
        put(2, &0x8182u16.to_le_bytes());
        put(4, &0x8182_8384u32.to_le_bytes());
        put(8, &0x0102_0304_0506_0708u64.to_le_bytes());
        put(16, &[0xFE]);
        put(17, &(-300i16).to_le_bytes());
        put(20, &(-5i32).to_le_bytes());
        put(24, &(-7i64).to_le_bytes());
        put(33, &[1, 2, 3]);
        put(36, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
        put(44, &[7, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0]);
        put(56, &[0x11; 16]);
        let mut out = [0u64; 16];
        // SAFETY: `data` is 80 initialised bytes.
        let n = unsafe { copy_args(&f, data.as_ptr(), data.len(), &mut out) };
        assert_eq!(n, 12);
        assert_eq!(
            out[..12],
            [
                0x81,
                0x8182,
                0x8182_8384,
                0x0102_0304_0506_0708,
                -2i64 as u64,
                -300i64 as u64,
                -5i64 as u64,
                -7i64 as u64,
                0x03_0201,
                -1i64 as u64,
                pack_dim3(7, 3, 1),
                0,
            ]
        );
        // A record too short for a parameter ends the copy there.
        // SAFETY: the first 20 bytes of `data`.
        assert_eq!(unsafe { copy_args(&f, data.as_ptr(), 20, &mut out) }, 6);
    }

    #[test]
    fn dim3_packs_into_one_word() {
        assert_eq!(pack_dim3(16, 1, 1), 16 | 1 << 32 | 1 << 48);
        assert_eq!(pack_dim3(u32::MAX, 70_000, 2), u64::from(u32::MAX) | 0xFFFF << 32 | 2 << 48);
        assert_eq!(dim3 { x: 3, y: 2, z: 1 }.word(), pack_dim3(3, 2, 1));
        assert_eq!((-2i32).word(), u64::MAX - 1);
        assert_eq!(1.5f32.word(), u64::from(1.5f32.to_bits()));
    }

    #[test]
    fn every_slot_names_a_member_of_its_table() {
        let runtime = wrappers::SLOTS.iter().filter(|s| !s.compiler).count();
        let compiler = wrappers::SLOTS.iter().filter(|s| s.compiler).count();
        assert_eq!(compiler, members(std::mem::size_of::<HipCompilerDispatchTable>()));
        assert_eq!(
            runtime + HIP_UNWRAPPED.len() - compiler_unwrapped(),
            members(std::mem::size_of::<HipDispatchTable>())
        );
        let launch = wrappers::SLOTS.iter().find(|s| s.name == "hipLaunchKernel").unwrap();
        assert_eq!(8 + 8 * launch.index, std::mem::offset_of!(HipDispatchTable, hipLaunchKernel_fn));
    }

    fn compiler_unwrapped() -> usize {
        HIP_UNWRAPPED.iter().filter(|(n, _)| n.starts_with("__hip")).count()
    }
}
