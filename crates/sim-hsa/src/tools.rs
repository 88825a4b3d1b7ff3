//! Tool loading as ROCr's legacy path does it (`HSA_TOOLS_LIB` + `OnLoad` / `OnUnload`).
//!
//! * `HSA_TOOLS_LIB` is split on unquoted spaces; double quotes group, backslash escapes the next character.
//! * Each library is `dlopen`ed with `RTLD_LAZY`; failures go on the *failed list* and print
//!   `Tool lib "<name>" failed to load.` unless `HSA_TOOLS_REPORT_LOAD_FAILURE=0`.
//! * `OnLoad` must be defined by the library itself (not a dependency). Newest ABI: missing `OnLoad` or
//!   `OnLoad` returning false puts the library on the failed list and closes it. 5.2 ABI: a missing `OnLoad` is
//!   tolerated (the library stays loaded), as in the 5.2-era source.
//! * `OnLoad(table, root_major, failed_count, failed_names)` gets the live root table of the emulated layout.
//! * At the last `hsa_shut_down`, `OnUnload` runs in reverse load order, the tables are reset and, after the
//!   runtime is torn down, the libraries are closed.
//!
//! Auto-discovery of libraries exporting `HSA_AMD_TOOL_PRIORITY` (ROCm 5.3+) is implemented for the newest
//! ABI only: every loaded object whose dynamic string table names the symbol and that defines it becomes a
//! candidate with key `priority + number of HSA_TOOLS_LIB entries`.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::Mutex;

use crate::abi;
use crate::table;

type OnLoadFn = unsafe extern "C" fn(*mut c_void, u64, u64, *const *const c_char) -> bool;
type OnUnloadFn = unsafe extern "C" fn();

struct Tool {
    handle: usize,
    on_unload: Option<OnUnloadFn>,
}

static LOADED: Mutex<Vec<Tool>> = Mutex::new(Vec::new());

/// Splits `HSA_TOOLS_LIB` like ROCr.
pub(crate) fn parse_tools_lib(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quotes = false;
    let mut have = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                    have = true;
                }
            }
            '"' => {
                in_quotes = !in_quotes;
                have = true;
            }
            ' ' if !in_quotes => {
                if have && !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
                have = false;
            }
            c => {
                cur.push(c);
                have = true;
            }
        }
    }
    if have && !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn dl_error() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated thread-local string.
    let p = unsafe { libc::dlerror() };
    if p.is_null() {
        String::new()
    } else {
        // SAFETY: non-null, NUL-terminated (see above).
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

#[repr(C)]
struct LinkMap {
    l_addr: usize,
    l_name: *const c_char,
    l_ld: *mut c_void,
    l_next: *mut LinkMap,
    l_prev: *mut LinkMap,
}

/// Whether `sym` (from `dlsym(handle, ..)`) is defined in the object `handle` refers to.
fn defined_in(handle: *mut c_void, sym: *mut c_void) -> bool {
    let mut lm: *mut LinkMap = std::ptr::null_mut();
    // SAFETY: `handle` is a live dlopen handle and `lm` a writable pointer slot, as RTLD_DI_LINKMAP requires.
    if unsafe { libc::dlinfo(handle, libc::RTLD_DI_LINKMAP, (&mut lm as *mut *mut LinkMap).cast()) } != 0
        || lm.is_null()
    {
        return false;
    }
    let mut info: libc::Dl_info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: `sym` is an address from dlsym and `info` is writable.
    if unsafe { libc::dladdr(sym, &mut info) } == 0 || info.dli_fname.is_null() {
        return false;
    }
    // SAFETY: `lm` was filled by dlinfo and points at the loader's link-map entry, live while `handle` is.
    let name = unsafe { (*lm).l_name };
    if name.is_null() {
        return false;
    }
    // SAFETY: both are NUL-terminated strings owned by the dynamic loader.
    unsafe { CStr::from_ptr(name) == CStr::from_ptr(info.dli_fname) }
}

fn report_load_failure() -> bool {
    std::env::var("HSA_TOOLS_REPORT_LOAD_FAILURE").map(|v| v.trim() != "0").unwrap_or(true)
}

/// Shared objects already in the process that define `HSA_AMD_TOOL_PRIORITY` (path, priority).
fn discover_priority_tools() -> Vec<(String, u32)> {
    unsafe extern "C" fn each(info: *mut libc::dl_phdr_info, _size: usize, data: *mut c_void) -> c_int {
        // SAFETY: the loader passes a valid info record; `data` is the Vec we passed below.
        let (info, out) = unsafe { (&*info, &mut *(data.cast::<Vec<String>>())) };
        if info.dlpi_name.is_null() {
            return 0;
        }
        // SAFETY: NUL-terminated name owned by the loader.
        let name = unsafe { CStr::from_ptr(info.dlpi_name) }.to_string_lossy().into_owned();
        if !name.is_empty() && !name.contains("linux-vdso") {
            out.push(name);
        }
        0
    }
    let mut paths: Vec<String> = Vec::new();
    // SAFETY: the callback only reads loader-owned data and pushes into `paths`.
    unsafe { libc::dl_iterate_phdr(Some(each), (&mut paths as *mut Vec<String>).cast()) };
    let mut found = Vec::new();
    for path in paths {
        let Ok(c) = CString::new(path.clone()) else { continue };
        // SAFETY: RTLD_NOLOAD only returns a handle for an object already loaded.
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
        if h.is_null() {
            continue;
        }
        // SAFETY: `h` is live; the symbol name is a C string literal.
        let sym = unsafe { libc::dlsym(h, c"HSA_AMD_TOOL_PRIORITY".as_ptr()) };
        if !sym.is_null() && defined_in(h, sym) {
            // SAFETY: the symbol is a `const uint32_t` by the tool contract.
            let prio = unsafe { sym.cast::<u32>().read_unaligned() };
            found.push((path, prio));
        }
        // SAFETY: balances the RTLD_NOLOAD reference taken above.
        unsafe { libc::dlclose(h) };
    }
    found
}

/// Loads the tools; called inside the first `hsa_init` with the tables freshly reset.
pub(crate) fn load_tools() {
    let listed = parse_tools_lib(&std::env::var("HSA_TOOLS_LIB").unwrap_or_default());
    let mut candidates: Vec<(u64, String)> = listed.iter().enumerate().map(|(i, n)| (i as u64, n.clone())).collect();
    if !abi::abi_is_5_2() {
        let base = listed.len() as u64;
        for (path, prio) in discover_priority_tools() {
            candidates.push((u64::from(prio) + base, path));
        }
    }
    candidates.sort_by_key(|(k, _)| *k);
    // Keep only the lowest key per library (a listed library that is also discovered counts once).
    let mut seen_handles: Vec<usize> = Vec::new();
    let mut failed: Vec<CString> = Vec::new();
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    for (_, name) in candidates {
        let Ok(cname) = CString::new(name.clone()) else {
            failed.push(CString::new(name.replace('\0', "")).unwrap_or_default());
            continue;
        };
        // SAFETY: dlopen with a valid C string; it runs the library's constructors (that is the point).
        let handle = unsafe { libc::dlopen(cname.as_ptr(), libc::RTLD_LAZY) };
        if handle.is_null() {
            if report_load_failure() {
                eprintln!("Tool lib \"{name}\" failed to load.");
                if std::env::var_os(rocprof_launch::names::SIM_VERBOSE).is_some() {
                    crate::diag!("dlopen: {}", dl_error());
                }
            }
            failed.push(cname);
            continue;
        }
        if seen_handles.contains(&(handle as usize)) {
            // SAFETY: drop the extra reference of a library already handled.
            unsafe { libc::dlclose(handle) };
            continue;
        }
        seen_handles.push(handle as usize);
        // SAFETY: `handle` is live; symbol names are C string literals.
        let on_load = unsafe { libc::dlsym(handle, c"OnLoad".as_ptr()) };
        // SAFETY: as above.
        let on_unload = unsafe { libc::dlsym(handle, c"OnUnload".as_ptr()) };
        let on_load_ok = !on_load.is_null() && defined_in(handle, on_load);
        let on_unload = if !on_unload.is_null() && defined_in(handle, on_unload) {
            // SAFETY: the tool contract gives `OnUnload` the type `void(void)`.
            Some(unsafe { std::mem::transmute::<*mut c_void, OnUnloadFn>(on_unload) })
        } else {
            None
        };
        if !on_load_ok {
            if abi::abi_is_5_2() {
                loaded.push(Tool { handle: handle as usize, on_unload });
            } else {
                failed.push(cname);
                // SAFETY: the library is not kept as a tool.
                unsafe { libc::dlclose(handle) };
            }
            continue;
        }
        // SAFETY: the tool contract gives `OnLoad` this C signature.
        let f = unsafe { std::mem::transmute::<*mut c_void, OnLoadFn>(on_load) };
        let ptrs: Vec<*const c_char> = failed.iter().map(|c| c.as_ptr()).collect();
        // SAFETY: calls the tool with the live root table (valid for the process lifetime) and an array of
        // `ptrs.len()` C strings that outlives the call.
        let ok = unsafe { f(table::root_ptr(), table::root_major(), ptrs.len() as u64, ptrs.as_ptr()) };
        if ok {
            loaded.push(Tool { handle: handle as usize, on_unload });
        } else {
            failed.push(cname);
            // SAFETY: the tool declined; it is closed as ROCr does.
            unsafe { libc::dlclose(handle) };
        }
    }
}

/// Calls every loaded tool's `OnUnload`, in reverse load order.
pub(crate) fn unload_tools() {
    let hooks: Vec<OnUnloadFn> = {
        let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        loaded.iter().rev().filter_map(|t| t.on_unload).collect()
    };
    for f in hooks {
        // SAFETY: `OnUnload` of a library that is still loaded; the runtime is still fully usable.
        unsafe { f() };
    }
}

/// Closes the tool libraries after the runtime was torn down.
pub(crate) fn close_tools() {
    let tools = std::mem::take(&mut *LOADED.lock().unwrap_or_else(|e| e.into_inner()));
    for t in tools.into_iter().rev() {
        // SAFETY: each handle came from a successful dlopen and is closed once.
        unsafe { libc::dlclose(t.handle as *mut c_void) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_rocr() {
        assert_eq!(parse_tools_lib("a.so b.so"), ["a.so", "b.so"]);
        assert_eq!(parse_tools_lib("  a.so   "), ["a.so"]);
        assert_eq!(parse_tools_lib(r#""/my dir/t.so" x.so"#), ["/my dir/t.so", "x.so"]);
        assert_eq!(parse_tools_lib(r"/my\ dir/t.so"), ["/my dir/t.so"]);
        assert!(parse_tools_lib("").is_empty());
    }

    #[test]
    fn missing_library_is_reported_not_fatal() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        std::env::set_var("HSA_TOOLS_LIB", "/nonexistent/libtool.so");
        load_tools();
        std::env::remove_var("HSA_TOOLS_LIB");
        assert!(LOADED.lock().unwrap().is_empty());
    }

    /// A tool that is only *loaded* (like an `LD_PRELOAD`ed library), not listed in `HSA_TOOLS_LIB`,
    /// becomes a tool in the newest ABI because it exports `HSA_AMD_TOOL_PRIORITY`, and is ignored in the
    /// 5.2 ABI. The library is compiled from C at test time; without a C compiler the test says so and
    /// passes.
    #[test]
    fn priority_symbol_discovers_loaded_tools_in_the_newest_abi_only() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let dir = std::env::temp_dir().join(format!("hsa-sim-tool-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("prio_tool.c");
        let lib = dir.join("libprio_tool.so");
        std::fs::write(
            &src,
            "#include <stdbool.h>\n#include <stdint.h>\n\
             const uint32_t HSA_AMD_TOOL_PRIORITY = 50;\n\
             int loads, unloads; uint64_t version;\n\
             bool OnLoad(void *table, uint64_t v, uint64_t n, const char *const *f) { (void)table; (void)n; (void)f; version = v; loads++; return true; }\n\
             void OnUnload(void) { unloads++; }\n",
        )
        .unwrap();
        let built = std::process::Command::new("cc").args(["-shared", "-fPIC", "-o"]).arg(&lib).arg(&src).status();
        if !built.is_ok_and(|s| s.success()) {
            rocprof_test_inputs::skip_or_fail(
                "priority_symbol_discovers_loaded_tools_in_the_newest_abi_only",
                "no C compiler (cc; apt-get install gcc)",
            );
            return;
        }
        let c = CString::new(lib.to_str().unwrap()).unwrap();
        // SAFETY: loads our freshly built test library, the way LD_PRELOAD would have.
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
        assert!(!h.is_null(), "{}", dl_error());
        // The tool's counters change behind our back (the runtime calls into the library), so they are
        // read through raw pointers with volatile reads: a `&i32` would let the optimiser keep the first
        // value it read, which made this test fail in release builds only.
        let sym = |name: &std::ffi::CStr| {
            // SAFETY: looks up a symbol of the library we just loaded; a null result is checked below.
            let p = unsafe { libc::dlsym(h, name.as_ptr()) };
            assert!(!p.is_null(), "{}", dl_error());
            p
        };
        let (loads, unloads, version) =
            (sym(c"loads") as *const i32, sym(c"unloads") as *const i32, sym(c"version") as *const u64);
        // SAFETY: the pointers are the test library's own globals of the types written above; the library stays
        // loaded (we hold a reference) until the dlclose at the end.
        let read = || unsafe { (loads.read_volatile(), unloads.read_volatile(), version.read_volatile()) };
        std::env::set_var(rocprof_launch::names::SIM_ABI, "5.2");
        crate::testing::init_gpu();
        crate::testing::shut_down();
        std::env::remove_var(rocprof_launch::names::SIM_ABI);
        let (l, u, _) = read();
        assert_eq!((l, u), (0, 0), "5.2 has no HSA_AMD_TOOL_PRIORITY discovery");
        crate::testing::init_gpu();
        let (l, _, v) = read();
        assert_eq!((l, v), (1, 3), "discovered and given the root table major");
        crate::testing::shut_down();
        assert_eq!(read().1, 1);
        // SAFETY: drops our own reference (the runtime closed its one at shutdown); the references into the
        // library are not used after this.
        unsafe { libc::dlclose(h) };
        let _ = std::fs::remove_dir_all(&dir);
    }
}
