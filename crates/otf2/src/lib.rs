//! rocprof-otf2: writes OTF2 archives through the OTF2 reference library (Score-P's libotf2,
//! Debian package `libopen-trace-format2-10`), loaded at run time with libloading, behind a small
//! safe API: events per location ([`Archive::enter`], [`Archive::leave`]), then the global
//! definitions ([`Definitions`]) and [`Archive::close`].
//!
//! Why the library and not a native encoder: OTF2's on-disk encoding (chunked buffers, compressed
//! integers, the anchor file, per-location definition files) is specified only by that library's
//! source, and the checker users run (`otf2-print`, the Python bindings) is the same library, so
//! writing through it is what guarantees they read our archives. Loading it at run time keeps it
//! optional: [`Otf2::load`] fails with a one-line error naming the package when it is missing,
//! and the CLI asks before the application starts.
//!
//! Memory: the library would keep every event chunk of a location until the archive closes (311
//! MiB for 10 M kernels); our memory callbacks give each location at most four 2 MiB event chunks,
//! after which the library flushes them to the location's file (measured: 8 M events, 52 MiB peak).
//!
//! All `unsafe` is in this file: each call passes handles the library returned and that are still
//! open, and NUL-terminated strings that live across the call.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};
use std::path::Path;

/// File names tried, in order: Debian 12's, Debian 13's and later (package
/// `libopen-trace-format2-10u`, OTF2 3.1+, same soname major), then upstream's.
pub const LIBRARY_NAMES: [&str; 3] = ["libopen-trace-format2.so.10", "libopen_trace_format2.so.10", "libotf2.so.10"];

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The library could not be loaded.
    #[error("-f otf2 needs the OTF2 library ({}), which could not be loaded; on Debian: apt-get install libopen-trace-format2-10 (or -10u)", LIBRARY_NAMES.join(" or "))]
    NotInstalled,
    /// A function is missing from the library.
    #[error("the OTF2 library lacks {0}")]
    Symbol(&'static str),
    /// A call failed.
    #[error("OTF2 call {call} failed with error code {code}")]
    Call {
        /// The function.
        call: &'static str,
        /// OTF2_ErrorCode.
        code: i32,
    },
    /// A path or string with an interior NUL byte.
    #[error("OTF2 names cannot contain NUL bytes: {0:?}")]
    Nul(String),
}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

type Handle = *mut c_void;
type PreFlush = unsafe extern "C" fn(Handle, u8, u64, Handle, bool) -> u8;
type PostFlush = unsafe extern "C" fn(Handle, u8, u64) -> u64;

/// `OTF2_FlushCallbacks` (OTF2_Callbacks.h).
#[repr(C)]
struct FlushCallbacks {
    pre: PreFlush,
    post: PostFlush,
}

/// `OTF2_FLUSH`: always flush full buffers to the file.
unsafe extern "C" fn pre_flush(_: Handle, _: u8, _: u64, _: Handle, _: bool) -> u8 {
    1
}

/// No timestamp for buffer flush events.
unsafe extern "C" fn post_flush(_: Handle, _: u8, _: u64) -> u64 {
    0
}

static FLUSH: FlushCallbacks = FlushCallbacks { pre: pre_flush, post: post_flush };

/// `OTF2_MemoryCallbacks` (OTF2_Callbacks.h).
#[repr(C)]
struct MemoryCallbacks {
    allocate: MemoryAllocate,
    free_all: MemoryFreeAll,
}

type MemoryAllocate = unsafe extern "C" fn(Handle, u8, u64, *mut Handle, u64) -> Handle;
type MemoryFreeAll = unsafe extern "C" fn(Handle, u8, u64, *mut Handle, bool);

/// `OTF2_FILETYPE_EVENTS`.
const FILETYPE_EVENTS: u8 = 3;
/// Event chunks one location may hold before the library flushes them to its file.
const EVENT_CHUNKS_PER_LOCATION: usize = 4;

/// The chunks of one buffer: (pointer, size).
type Chunks = Vec<(*mut u8, usize)>;

/// Allocates a chunk for a buffer; for event buffers, refuses (returns null) once the buffer
/// holds [`EVENT_CHUNKS_PER_LOCATION`] chunks, which makes the library flush the buffer to its
/// file and free its chunks before asking again. This bounds memory per location.
unsafe extern "C" fn allocate(_: Handle, file_type: u8, _: u64, per_buffer: *mut Handle, size: u64) -> Handle {
    // SAFETY: `per_buffer` is the library's slot for this buffer; it holds null or the Box we
    // leaked into it below.
    let chunks: &mut Chunks = unsafe {
        if (*per_buffer).is_null() {
            *per_buffer = Box::into_raw(Box::new(Chunks::new())) as Handle;
        }
        &mut *(*per_buffer as *mut Chunks)
    };
    if file_type == FILETYPE_EVENTS && chunks.len() >= EVENT_CHUNKS_PER_LOCATION {
        return std::ptr::null_mut();
    }
    let Ok(layout) = std::alloc::Layout::from_size_align(size as usize, 16) else { return std::ptr::null_mut() };
    // SAFETY: the layout has a non-zero size (the library's chunk size).
    let p = unsafe { std::alloc::alloc(layout) };
    if !p.is_null() {
        chunks.push((p, size as usize));
    }
    p as Handle
}

/// Frees every chunk of a buffer (and its list on the final call).
unsafe extern "C" fn free_all(_: Handle, _: u8, _: u64, per_buffer: *mut Handle, fin: bool) {
    // SAFETY: as in `allocate`; every pointer in the list came from `std::alloc::alloc` with the
    // recorded size and alignment 16, and is freed exactly once here.
    unsafe {
        if (*per_buffer).is_null() {
            return;
        }
        let chunks = &mut *(*per_buffer as *mut Chunks);
        for (p, size) in chunks.drain(..) {
            std::alloc::dealloc(p, std::alloc::Layout::from_size_align_unchecked(size, 16));
        }
        if fin {
            drop(Box::from_raw(*per_buffer as *mut Chunks));
            *per_buffer = std::ptr::null_mut();
        }
    }
}

static MEMORY: MemoryCallbacks = MemoryCallbacks { allocate, free_all };

macro_rules! functions {
    ($($name:ident: fn($($arg:ty),*) -> $ret:ty;)*) => {
        #[allow(non_snake_case)]
        struct Fns { $($name: unsafe extern "C" fn($($arg),*) -> $ret,)* }

        impl Fns {
            fn load(lib: &libloading::Library) -> Result<Self> {
                Ok(Self { $($name: {
                    // SAFETY: the symbol is OTF2's function of this name; its C signature (from
                    // the OTF2 3.0 headers) is the one declared here.
                    let s = unsafe { lib.get::<unsafe extern "C" fn($($arg),*) -> $ret>(concat!(stringify!($name), "\0").as_bytes()) };
                    *s.map_err(|_| Error::Symbol(stringify!($name)))?
                },)* })
            }
        }
    };
}

functions! {
    OTF2_Archive_Open: fn(*const c_char, *const c_char, u8, u64, u64, u8, u8) -> Handle;
    OTF2_Archive_Close: fn(Handle) -> i32;
    OTF2_Archive_SetFlushCallbacks: fn(Handle, *const FlushCallbacks, Handle) -> i32;
    OTF2_Archive_SetSerialCollectiveCallbacks: fn(Handle) -> i32;
    OTF2_Archive_SetMemoryCallbacks: fn(Handle, *const MemoryCallbacks, Handle) -> i32;
    OTF2_Archive_SetCreator: fn(Handle, *const c_char) -> i32;
    OTF2_Archive_SetProperty: fn(Handle, *const c_char, *const c_char, bool) -> i32;
    OTF2_Archive_OpenEvtFiles: fn(Handle) -> i32;
    OTF2_Archive_CloseEvtFiles: fn(Handle) -> i32;
    OTF2_Archive_GetEvtWriter: fn(Handle, u64) -> Handle;
    OTF2_Archive_CloseEvtWriter: fn(Handle, Handle) -> i32;
    OTF2_Archive_OpenDefFiles: fn(Handle) -> i32;
    OTF2_Archive_CloseDefFiles: fn(Handle) -> i32;
    OTF2_Archive_GetDefWriter: fn(Handle, u64) -> Handle;
    OTF2_Archive_CloseDefWriter: fn(Handle, Handle) -> i32;
    OTF2_Archive_GetGlobalDefWriter: fn(Handle) -> Handle;
    OTF2_EvtWriter_Enter: fn(Handle, Handle, u64, u32) -> i32;
    OTF2_EvtWriter_Leave: fn(Handle, Handle, u64, u32) -> i32;
    OTF2_EvtWriter_Metric: fn(Handle, Handle, u64, u32, u8, *const u8, *const u64) -> i32;
    OTF2_AttributeList_New: fn() -> Handle;
    OTF2_AttributeList_Delete: fn(Handle) -> i32;
    OTF2_AttributeList_AddStringRef: fn(Handle, u32, u32) -> i32;
    OTF2_GlobalDefWriter_WriteClockProperties: fn(Handle, u64, u64, u64, u64) -> i32;
    OTF2_GlobalDefWriter_WriteString: fn(Handle, u32, *const c_char) -> i32;
    OTF2_GlobalDefWriter_WriteAttribute: fn(Handle, u32, u32, u32, u8) -> i32;
    OTF2_GlobalDefWriter_WriteSystemTreeNode: fn(Handle, u32, u32, u32, u32) -> i32;
    OTF2_GlobalDefWriter_WriteLocationGroup: fn(Handle, u32, u32, u8, u32, u32) -> i32;
    OTF2_GlobalDefWriter_WriteLocation: fn(Handle, u64, u32, u8, u64, u32) -> i32;
    OTF2_GlobalDefWriter_WriteLocationGroupProperty: fn(Handle, u32, u32, u8, u64) -> i32;
    OTF2_GlobalDefWriter_WriteRegion: fn(Handle, u32, u32, u32, u32, u8, u8, u32, u32, u32, u32) -> i32;
    OTF2_GlobalDefWriter_WriteMetricMember: fn(Handle, u32, u32, u32, u8, u8, u8, u8, i64, u32) -> i32;
    OTF2_GlobalDefWriter_WriteMetricClass: fn(Handle, u32, u8, *const u32, u8, u8) -> i32;
}

/// `OTF2_UNDEFINED_UINT32`: no system tree parent, no creating group, no string.
pub const UNDEFINED: u32 = u32::MAX;
/// `OTF2_LOCATION_GROUP_TYPE_PROCESS`.
pub const LOCATION_GROUP_PROCESS: u8 = 1;
/// `OTF2_LOCATION_GROUP_TYPE_ACCELERATOR`.
pub const LOCATION_GROUP_ACCELERATOR: u8 = 2;
/// `OTF2_LOCATION_TYPE_CPU_THREAD`.
pub const LOCATION_CPU_THREAD: u8 = 1;
/// `OTF2_LOCATION_TYPE_ACCELERATOR_STREAM`.
pub const LOCATION_ACCELERATOR_STREAM: u8 = 2;
/// `OTF2_LOCATION_TYPE_METRIC`.
pub const LOCATION_METRIC: u8 = 3;
/// `OTF2_REGION_ROLE_FUNCTION`.
pub const ROLE_FUNCTION: u8 = 1;
/// `OTF2_REGION_ROLE_DATA_TRANSFER`.
pub const ROLE_DATA_TRANSFER: u8 = 30;
/// `OTF2_REGION_ROLE_ALLOCATE`.
pub const ROLE_ALLOCATE: u8 = 35;
/// `OTF2_TYPE_UINT64`.
pub const TYPE_UINT64: u8 = 4;
/// `OTF2_PARADIGM_USER`.
pub const PARADIGM_USER: u8 = 1;
/// `OTF2_PARADIGM_HIP`.
pub const PARADIGM_HIP: u8 = 23;
/// `OTF2_TYPE_STRING`.
pub const TYPE_STRING: u8 = 11;
/// `OTF2_TYPE_DOUBLE`.
pub const TYPE_DOUBLE: u8 = 10;
/// `OTF2_METRIC_TYPE_OTHER`.
const METRIC_TYPE_OTHER: u8 = 0;
/// `OTF2_METRIC_ABSOLUTE_NEXT`: an absolute value, valid from its sample until the next one.
const METRIC_ABSOLUTE_NEXT: u8 = 1 | (3 << 4);
/// `OTF2_BASE_DECIMAL`.
const BASE_DECIMAL: u8 = 1;
/// `OTF2_METRIC_ASYNCHRONOUS`: samples at any time, not tied to ENTER/LEAVE.
const METRIC_ASYNCHRONOUS: u8 = 2;
/// `OTF2_RECORDER_KIND_UNKNOWN`.
const RECORDER_KIND_UNKNOWN: u8 = 0;

/// The loaded library.
pub struct Otf2 {
    fns: Fns,
    _lib: libloading::Library,
}

impl std::fmt::Debug for Otf2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Otf2")
    }
}

fn check(call: &'static str, code: i32) -> Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(Error::Call { call, code })
    }
}

fn cstr(s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::Nul(s.to_string()))
}

impl Otf2 {
    /// Loads the library (see [`LIBRARY_NAMES`]).
    pub fn load() -> Result<Self> {
        for name in LIBRARY_NAMES {
            // SAFETY: loading OTF2 runs its (trivial) initialisers only; no other code of ours
            // depends on the load order.
            if let Ok(lib) = unsafe { libloading::Library::new(name) } {
                return Ok(Self { fns: Fns::load(&lib)?, _lib: lib });
            }
        }
        Err(Error::NotInstalled)
    }

    /// Whether the library can be loaded here.
    pub fn available() -> bool {
        Self::load().is_ok()
    }
}

/// An archive being written: `<dir>/<name>.otf2`, `<dir>/<name>.def`, `<dir>/<name>/`.
pub struct Archive<'l> {
    lib: &'l Otf2,
    archive: Handle,
    writers: HashMap<u64, Handle>,
    attributes: Handle,
    counts: HashMap<u64, u64>,
}

// SAFETY: the archive's handles belong to the library, not to a thread; an Archive is used by one
// thread at a time (it is not Sync), which is all OTF2's serial mode requires.
unsafe impl Send for Archive<'_> {}

impl std::fmt::Debug for Archive<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive").field("locations", &self.counts.len()).finish()
    }
}

impl<'l> Archive<'l> {
    /// Opens a new archive for writing (serial, POSIX files, no compression, 2 MiB event and
    /// 8 MiB definition chunks, as rocprofv3 writes them).
    pub fn create(lib: &'l Otf2, dir: &Path, name: &str) -> Result<Self> {
        let d = cstr(&dir.display().to_string())?;
        let n = cstr(name)?;
        let f = &lib.fns;
        // SAFETY: both strings are NUL-terminated and outlive the call; mode 0 = write,
        // substrate 1 = POSIX, compression 1 = none.
        let archive = unsafe { (f.OTF2_Archive_Open)(d.as_ptr(), n.as_ptr(), 0, 2 << 20, 8 << 20, 1, 1) };
        if archive.is_null() {
            return Err(Error::Call { call: "OTF2_Archive_Open", code: -1 });
        }
        let mut a =
            Self { lib, archive, writers: HashMap::new(), attributes: std::ptr::null_mut(), counts: HashMap::new() };
        let creator = cstr("rocprof-rs")?;
        // SAFETY: `archive` is open; FLUSH is a static with 'static callbacks; the creator string
        // lives across the call.
        unsafe {
            check(
                "OTF2_Archive_SetFlushCallbacks",
                (f.OTF2_Archive_SetFlushCallbacks)(archive, &FLUSH, std::ptr::null_mut()),
            )?;
            check(
                "OTF2_Archive_SetMemoryCallbacks",
                (f.OTF2_Archive_SetMemoryCallbacks)(archive, &MEMORY, std::ptr::null_mut()),
            )?;
            check("OTF2_Archive_SetSerialCollectiveCallbacks", (f.OTF2_Archive_SetSerialCollectiveCallbacks)(archive))?;
            check("OTF2_Archive_SetCreator", (f.OTF2_Archive_SetCreator)(archive, creator.as_ptr()))?;
            check("OTF2_Archive_OpenEvtFiles", (f.OTF2_Archive_OpenEvtFiles)(archive))?;
            a.attributes = (f.OTF2_AttributeList_New)();
        }
        Ok(a)
    }

    fn writer(&mut self, location: u64) -> Result<Handle> {
        if let Some(&w) = self.writers.get(&location) {
            return Ok(w);
        }
        // SAFETY: the archive is open with its event files open.
        let w = unsafe { (self.lib.fns.OTF2_Archive_GetEvtWriter)(self.archive, location) };
        if w.is_null() {
            return Err(Error::Call { call: "OTF2_Archive_GetEvtWriter", code: -1 });
        }
        self.writers.insert(location, w);
        Ok(w)
    }

    /// An ENTER event on `location`, with the string attribute `attribute = value` when given.
    /// Times on one location must not decrease.
    pub fn enter(&mut self, location: u64, time: u64, region: u32, attribute: Option<(u32, u32)>) -> Result<()> {
        let w = self.writer(location)?;
        let f = &self.lib.fns;
        let list = match attribute {
            Some((attr, value)) => {
                // SAFETY: the list is ours and alive until close; the writer consumes (empties) it.
                check("OTF2_AttributeList_AddStringRef", unsafe {
                    (f.OTF2_AttributeList_AddStringRef)(self.attributes, attr, value)
                })?;
                self.attributes
            }
            None => std::ptr::null_mut(),
        };
        // SAFETY: `w` is an open event writer of this archive; `list` is null or our list.
        check("OTF2_EvtWriter_Enter", unsafe { (f.OTF2_EvtWriter_Enter)(w, list, time, region) })?;
        *self.counts.entry(location).or_insert(0) += 1;
        Ok(())
    }

    /// A LEAVE event on `location`.
    pub fn leave(&mut self, location: u64, time: u64, region: u32) -> Result<()> {
        let w = self.writer(location)?;
        // SAFETY: as in `enter`.
        check("OTF2_EvtWriter_Leave", unsafe {
            (self.lib.fns.OTF2_EvtWriter_Leave)(w, std::ptr::null_mut(), time, region)
        })?;
        *self.counts.entry(location).or_insert(0) += 1;
        Ok(())
    }

    /// A Metric event on `location`: metric class `metric` (one `double` member) has `value`
    /// from `time` on. Times on one location must not decrease.
    pub fn metric(&mut self, location: u64, time: u64, metric: u32, value: f64) -> Result<()> {
        let w = self.writer(location)?;
        let ty = [TYPE_DOUBLE];
        // OTF2_MetricValue is a union of int64/uint64/double: the double's bits.
        let v = [value.to_bits()];
        // SAFETY: as in `enter`; `ty` and `v` hold the one member's type and value and outlive
        // the call.
        check("OTF2_EvtWriter_Metric", unsafe {
            (self.lib.fns.OTF2_EvtWriter_Metric)(w, std::ptr::null_mut(), time, metric, 1, ty.as_ptr(), v.as_ptr())
        })?;
        *self.counts.entry(location).or_insert(0) += 1;
        Ok(())
    }

    /// Sets a trace-file property of the archive (stored in the anchor file, shown by
    /// `otf2-print -A`): `name` is `NAMESPACE::...::NAME` of `[A-Z0-9_]` parts (OTF2 upper-cases
    /// it), `value` any text.
    pub fn property(&mut self, name: &str, value: &str) -> Result<()> {
        let (n, v) = (cstr(name)?, cstr(value)?);
        // SAFETY: the archive is open for writing; both strings outlive the call.
        check("OTF2_Archive_SetProperty", unsafe {
            (self.lib.fns.OTF2_Archive_SetProperty)(self.archive, n.as_ptr(), v.as_ptr(), true)
        })
    }

    /// Events written on `location` so far (what its definition declares).
    pub fn events(&self, location: u64) -> u64 {
        self.counts.get(&location).copied().unwrap_or(0)
    }

    /// Closes the event files, writes the (empty) local definitions of every location, lets
    /// `defs` write the global definitions, and closes the archive.
    pub fn close(mut self, defs: impl FnOnce(&mut Definitions<'_>) -> Result<()>) -> Result<()> {
        let f = &self.lib.fns;
        let a = self.archive;
        // SAFETY: every writer in `writers` came from this archive and is closed exactly once
        // here; the archive stays open until OTF2_Archive_Close below, after which `self` is
        // forgotten (Drop would close it again).
        unsafe {
            for (_, w) in self.writers.drain() {
                check("OTF2_Archive_CloseEvtWriter", (f.OTF2_Archive_CloseEvtWriter)(a, w))?;
            }
            check("OTF2_Archive_CloseEvtFiles", (f.OTF2_Archive_CloseEvtFiles)(a))?;
            check("OTF2_Archive_OpenDefFiles", (f.OTF2_Archive_OpenDefFiles)(a))?;
            let mut locs: Vec<u64> = self.counts.keys().copied().collect();
            locs.sort_unstable();
            for l in locs {
                let dw = (f.OTF2_Archive_GetDefWriter)(a, l);
                if !dw.is_null() {
                    check("OTF2_Archive_CloseDefWriter", (f.OTF2_Archive_CloseDefWriter)(a, dw))?;
                }
            }
            check("OTF2_Archive_CloseDefFiles", (f.OTF2_Archive_CloseDefFiles)(a))?;
            let g = (f.OTF2_Archive_GetGlobalDefWriter)(a);
            if g.is_null() {
                return Err(Error::Call { call: "OTF2_Archive_GetGlobalDefWriter", code: -1 });
            }
            defs(&mut Definitions { fns: f, writer: g })?;
            (f.OTF2_AttributeList_Delete)(self.attributes);
            self.attributes = std::ptr::null_mut();
            let code = (f.OTF2_Archive_Close)(a);
            self.archive = std::ptr::null_mut();
            check("OTF2_Archive_Close", code)
        }
    }
}

impl Drop for Archive<'_> {
    fn drop(&mut self) {
        if !self.archive.is_null() {
            // SAFETY: an archive not closed by `close` (an error on the way) is closed once here;
            // the library closes its writers with it.
            unsafe {
                if !self.attributes.is_null() {
                    (self.lib.fns.OTF2_AttributeList_Delete)(self.attributes);
                }
                (self.lib.fns.OTF2_Archive_Close)(self.archive);
            }
        }
    }
}

/// The global definition writer, during [`Archive::close`].
pub struct Definitions<'a> {
    fns: &'a Fns,
    writer: Handle,
}

impl std::fmt::Debug for Definitions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Definitions")
    }
}

impl Definitions<'_> {
    /// ClockProperties: ticks per second, global offset, trace length, realtime timestamp.
    pub fn clock_properties(&mut self, resolution: u64, offset: u64, length: u64, realtime: u64) -> Result<()> {
        // SAFETY: `writer` is the archive's global definition writer, open during `close`.
        check("WriteClockProperties", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteClockProperties)(self.writer, resolution, offset, length, realtime)
        })
    }

    /// A String definition.
    pub fn string(&mut self, id: u32, s: &str) -> Result<()> {
        let c = cstr(s)?;
        // SAFETY: as above; `c` lives across the call.
        check("WriteString", unsafe { (self.fns.OTF2_GlobalDefWriter_WriteString)(self.writer, id, c.as_ptr()) })
    }

    /// An Attribute definition.
    pub fn attribute(&mut self, id: u32, name: u32, description: u32, ty: u8) -> Result<()> {
        // SAFETY: as above.
        check("WriteAttribute", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteAttribute)(self.writer, id, name, description, ty)
        })
    }

    /// A SystemTreeNode definition.
    pub fn system_tree_node(&mut self, id: u32, name: u32, class: u32, parent: u32) -> Result<()> {
        // SAFETY: as above.
        check("WriteSystemTreeNode", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteSystemTreeNode)(self.writer, id, name, class, parent)
        })
    }

    /// A LocationGroup definition.
    pub fn location_group(&mut self, id: u32, name: u32, ty: u8, parent: u32, creator: u32) -> Result<()> {
        // SAFETY: as above.
        check("WriteLocationGroup", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteLocationGroup)(self.writer, id, name, ty, parent, creator)
        })
    }

    /// A Location definition with its number of events.
    pub fn location(&mut self, id: u64, name: u32, ty: u8, events: u64, group: u32) -> Result<()> {
        // SAFETY: as above.
        check("WriteLocation", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteLocation)(self.writer, id, name, ty, events, group)
        })
    }

    /// A LocationGroupProperty definition with an unsigned 64-bit value (`OTF2_TYPE_UINT64`).
    pub fn location_group_property(&mut self, group: u32, name: u32, value: u64) -> Result<()> {
        // SAFETY: as above; OTF2_AttributeValue is an 8-byte union of integer and floating
        // members, passed like a `uint64_t` (the member used here).
        check("WriteLocationGroupProperty", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteLocationGroupProperty)(self.writer, group, name, TYPE_UINT64, value)
        })
    }

    /// A Region definition (name, canonical name and description all `name`).
    pub fn region(&mut self, id: u32, name: u32, role: u8, paradigm: u8) -> Result<()> {
        // SAFETY: as above.
        check("WriteRegion", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteRegion)(
                self.writer,
                id,
                name,
                name,
                name,
                role,
                paradigm,
                0,
                UNDEFINED,
                0,
                0,
            )
        })
    }

    /// A MetricMember definition: an absolute `double` value valid until the next sample
    /// (type OTHER, base 10, exponent 0).
    pub fn metric_member(&mut self, id: u32, name: u32, description: u32, unit: u32) -> Result<()> {
        // SAFETY: as above.
        check("WriteMetricMember", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteMetricMember)(
                self.writer,
                id,
                name,
                description,
                METRIC_TYPE_OTHER,
                METRIC_ABSOLUTE_NEXT,
                TYPE_DOUBLE,
                BASE_DECIMAL,
                0,
                unit,
            )
        })
    }

    /// A MetricClass definition with the one member `member`, sampled asynchronously.
    pub fn metric_class(&mut self, id: u32, member: u32) -> Result<()> {
        let members = [member];
        // SAFETY: as above; `members` outlives the call.
        check("WriteMetricClass", unsafe {
            (self.fns.OTF2_GlobalDefWriter_WriteMetricClass)(
                self.writer,
                id,
                1,
                members.as_ptr(),
                METRIC_ASYNCHRONOUS,
                RECORDER_KIND_UNKNOWN,
            )
        })
    }
}
