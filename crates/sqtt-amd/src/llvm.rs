//! Instruction text from LLVM's AMDGPU disassembler, loaded at run time through LLVM's C API
//! (`llvm-c/Disassembler.h`): the text rocprofiler-sdk hands AMD's decoder, for the ATT outputs.
//!
//! The library is `$ROCPROF_LLVM_LIBRARY_PATH` when set, else the first of a few well-known
//! sonames that loads (LLVM 15+ knows gfx11, 18+ gfx12, 20+ gfx950). Without it, callers fall
//! back to [`rocprof_sqtt::isa::class_text`].

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::PathBuf;

/// Environment variable naming the LLVM shared library to use.
pub const LLVM_ENV: &str = "ROCPROF_LLVM_LIBRARY_PATH";

/// Sonames tried in order when `$ROCPROF_LLVM_LIBRARY_PATH` is not set.
pub const LLVM_SONAMES: &[&str] = &[
    "libLLVM.so.22.1",
    "libLLVM.so.21.1",
    "libLLVM.so.20.1",
    "libLLVM.so.19.1",
    "libLLVM-19.so",
    "libLLVM.so.18.1",
    "libLLVM-18.so",
    "libLLVM.so",
];

type InitFn = unsafe extern "C" fn();
type CreateFn =
    unsafe extern "C" fn(*const c_char, *const c_char, *mut c_void, c_int, *const c_void, *const c_void) -> *mut c_void;
type DisasmFn = unsafe extern "C" fn(*mut c_void, *mut u8, u64, u64, *mut c_char, usize) -> usize;
type DisposeFn = unsafe extern "C" fn(*mut c_void);
type VersionFn = unsafe extern "C" fn(*mut u32, *mut u32, *mut u32);

/// First LLVM major version that disassembles each processor. LLVM aborts the process for a
/// processor it does not know, so anything not listed (or too new for the loaded LLVM) is
/// refused before LLVM sees it.
pub fn min_llvm_major(cpu: &str) -> Option<u32> {
    Some(match cpu {
        "gfx900" | "gfx902" | "gfx904" | "gfx906" => 7,
        "gfx908" => 11,
        "gfx90a" | "gfx1030" | "gfx1031" | "gfx1032" | "gfx1033" | "gfx1034" | "gfx1035" => 13,
        "gfx1036" | "gfx1100" | "gfx1101" | "gfx1102" | "gfx1103" => 15,
        "gfx940" | "gfx941" | "gfx942" => 17,
        "gfx1150" | "gfx1151" | "gfx1200" | "gfx1201" => 18,
        "gfx1152" => 19,
        "gfx950" | "gfx1153" => 20,
        _ => return None,
    })
}

/// Errors of the LLVM text provider.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlvmError {
    /// No LLVM shared library could be loaded.
    #[error("cannot load LLVM for AMDGPU disassembly; tried {tried}: {reason} (set {LLVM_ENV})")]
    Load {
        /// Locations tried.
        tried: String,
        /// Loader message of the last attempt.
        reason: String,
    },
    /// The library lacks the C disassembler API or the AMDGPU target.
    #[error("{path} lacks {symbol} (no AMDGPU target?)")]
    Symbol {
        /// Library path.
        path: String,
        /// Missing symbol.
        symbol: &'static str,
    },
    /// LLVM does not know the processor.
    #[error("LLVM at {path} cannot disassemble for {cpu}")]
    Cpu {
        /// Library path.
        path: String,
        /// Requested processor.
        cpu: String,
    },
}

/// An LLVM AMDGPU disassembler for one processor (`gfx1100`, `gfx1201`, `gfx950`, ...).
///
/// Not thread-safe (LLVM's disassembler context is not), so it is neither `Send` nor `Sync`.
#[derive(Debug)]
pub struct LlvmDisassembler {
    ctx: *mut c_void,
    disasm: DisasmFn,
    dispose: DisposeFn,
    path: String,
    // Keeps the function pointers valid; dropped after `Drop::drop` disposed the context.
    _lib: libloading::Library,
}

impl LlvmDisassembler {
    /// Loads LLVM (see the module docs) and creates a disassembler for `cpu`.
    pub fn load(cpu: &str) -> Result<Self, LlvmError> {
        let candidates: Vec<PathBuf> = match std::env::var_os(LLVM_ENV) {
            Some(p) if !p.is_empty() => vec![PathBuf::from(p)],
            _ => LLVM_SONAMES.iter().map(PathBuf::from).collect(),
        };
        let mut reason = String::from("no candidate");
        for p in &candidates {
            // SAFETY: loading LLVM runs its static initialisers, which register targets and
            // options only; nothing else is executed.
            match unsafe { libloading::Library::new(p) } {
                Ok(lib) => return Self::with_library(lib, p.display().to_string(), cpu),
                Err(e) => reason = e.to_string(),
            }
        }
        let tried = candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        Err(LlvmError::Load { tried, reason })
    }

    fn with_library(lib: libloading::Library, path: String, cpu: &str) -> Result<Self, LlvmError> {
        let missing = |symbol| LlvmError::Symbol { path: path.clone(), symbol };
        // SAFETY: each symbol is looked up with the C signature from llvm-c/Target.h and
        // llvm-c/Disassembler.h; the copied function pointers stay valid while `lib` lives,
        // and `lib` is stored in the returned value.
        let (inits, create, disasm, dispose) = unsafe {
            let mut inits = Vec::new();
            for name in
                ["LLVMInitializeAMDGPUTargetInfo", "LLVMInitializeAMDGPUTargetMC", "LLVMInitializeAMDGPUDisassembler"]
            {
                inits.push(*lib.get::<InitFn>(name.as_bytes()).map_err(|_| missing(name))?);
            }
            let create = *lib.get::<CreateFn>(b"LLVMCreateDisasmCPU").map_err(|_| missing("LLVMCreateDisasmCPU"))?;
            let disasm =
                *lib.get::<DisasmFn>(b"LLVMDisasmInstruction").map_err(|_| missing("LLVMDisasmInstruction"))?;
            let dispose = *lib.get::<DisposeFn>(b"LLVMDisasmDispose").map_err(|_| missing("LLVMDisasmDispose"))?;
            (inits, create, disasm, dispose)
        };
        // SAFETY: LLVMGetVersion (llvm-c/Core.h, LLVM 16+) writes three unsigned integers.
        let major = unsafe {
            let f = *lib.get::<VersionFn>(b"LLVMGetVersion").map_err(|_| missing("LLVMGetVersion"))?;
            let (mut major, mut minor, mut patch) = (0u32, 0u32, 0u32);
            f(&mut major, &mut minor, &mut patch);
            major
        };
        if min_llvm_major(cpu).is_none_or(|m| major < m) {
            return Err(LlvmError::Cpu { path, cpu: cpu.to_string() });
        }
        for init in inits {
            // SAFETY: the AMDGPU initialisers take no arguments and are idempotent.
            unsafe { init() };
        }
        let cpu_c = CString::new(cpu).map_err(|_| LlvmError::Cpu { path: path.clone(), cpu: cpu.to_string() })?;
        let triple = CString::new("amdgcn-amd-amdhsa").expect("literal has no NUL");
        // SAFETY: both strings are NUL-terminated and outlive the call; null callbacks and
        // DisInfo are allowed by the API (no symbolic operands).
        let ctx = unsafe {
            create(triple.as_ptr(), cpu_c.as_ptr(), std::ptr::null_mut(), 0, std::ptr::null(), std::ptr::null())
        };
        if ctx.is_null() {
            return Err(LlvmError::Cpu { path, cpu: cpu.to_string() });
        }
        Ok(Self { ctx, disasm, dispose, path, _lib: lib })
    }

    /// Path of the loaded LLVM library.
    pub fn library_path(&self) -> &str {
        &self.path
    }

    /// Text and size of the instruction at the start of `bytes` (which sits at address `pc`):
    /// mnemonic, one space, operands, no comment, as rocprofiler-sdk passes it to AMD's decoder.
    pub fn text(&self, bytes: &[u8], pc: u64) -> Option<(String, usize)> {
        let mut input = bytes[..bytes.len().min(16)].to_vec();
        let mut out = vec![0u8; 256];
        // SAFETY: `ctx` is a live context; `input` and `out` are valid for the given lengths and
        // LLVM writes a NUL-terminated string of at most `out.len()` bytes.
        let size = unsafe {
            (self.disasm)(self.ctx, input.as_mut_ptr(), input.len() as u64, pc, out.as_mut_ptr().cast(), out.len())
        };
        if size == 0 {
            return None;
        }
        let end = out.iter().position(|&b| b == 0).unwrap_or(out.len());
        let raw = String::from_utf8_lossy(&out[..end]);
        let raw = raw.split(';').next().unwrap_or("").trim();
        // LLVM separates mnemonic and operands with whitespace (a tab in some printers).
        let text = match raw.split_once(char::is_whitespace) {
            Some((m, ops)) => format!("{m} {}", ops.trim()),
            None => raw.to_string(),
        };
        Some((text, size))
    }
}

impl Drop for LlvmDisassembler {
    fn drop(&mut self) {
        // SAFETY: `ctx` came from LLVMCreateDisasmCPU and is disposed exactly once, before the
        // library is unloaded (fields drop after this).
        unsafe { (self.dispose)(self.ctx) };
    }
}
