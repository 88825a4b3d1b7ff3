//! A second SQTT decoding backend: AMD's `librocprof-trace-decoder.so`, loaded at run time with
//! `libloading`, behind the same interface as the native decoder ([`rocprof_sqtt::SeDecode`]).
//!
//! Users who have AMD's decoder installed can cross-check the native decoder with it, and the
//! benchmark can compare both. The library is found, in order, at the path given explicitly
//! (the CLI's `--att-library-path`), in `$ROCPROF_ATT_LIBRARY_PATH`, or by the dynamic loader's
//! normal search (`LD_LIBRARY_PATH`, the system library path). A path may name the `.so` file
//! or the directory that holds it.
//!
//! The ISA callback answers with [`rocprof_sqtt::isa::class_text`] for the instruction at the
//! asked address (AMD's category of `rocprof-isa`'s decode, as the native decoder sees it) and the
//! true instruction size, or with any text the caller supplies ([`AmdDecoder::decode_with_text`]),
//! e.g. LLVM's from [`llvm`].
//!
//! The [`llvm`] module also provides real instruction text for the ATT outputs through LLVM's
//! AMDGPU disassembler when an LLVM shared library is installed.
//!
//! ```no_run
//! use rocprof_sqtt::{CodeObject, Family};
//! use rocprof_sqtt_amd::AmdDecoder;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let amd = AmdDecoder::load(None)?;
//! let code = CodeObject::from_elf(Family::Gfx11, &std::fs::read("code.elf")?, 0x2000_0100_8000)?;
//! let se = amd.decode(&std::fs::read("se0.att")?, &code)?;
//! println!("{} waves", se.waves.len());
//! # Ok(()) }
//! ```

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod error;
mod ffi;
pub mod llvm;

use rocprof_sqtt::{CodeObject, SeDecode};
use std::path::{Path, PathBuf};

pub use error::{Error, LIBRARY_ENV, LIBRARY_NAME};

/// Where to look for the library, in order: explicit path, environment value, loader search.
pub fn candidates(explicit: Option<&Path>, env_value: Option<&str>) -> Vec<PathBuf> {
    let expand = |p: &Path| if p.is_dir() { p.join(LIBRARY_NAME) } else { p.to_path_buf() };
    let mut v = Vec::new();
    if let Some(p) = explicit {
        v.push(expand(p));
    }
    if let Some(e) = env_value.filter(|e| !e.is_empty()) {
        v.push(expand(Path::new(e)));
    }
    v.push(PathBuf::from(LIBRARY_NAME));
    v
}

/// AMD's decoder, loaded.
#[derive(Debug)]
pub struct AmdDecoder {
    lib: ffi::Library,
}

impl AmdDecoder {
    /// Loads the library from `explicit`, else `$ROCPROF_ATT_LIBRARY_PATH`, else the loader's search path.
    pub fn load(explicit: Option<&Path>) -> Result<Self, Error> {
        let env = std::env::var(LIBRARY_ENV).ok();
        Self::load_from(&candidates(explicit, env.as_deref()))
    }

    /// Loads the first loadable library among `paths`. An explicit or environment path that
    /// exists but fails to load is reported rather than skipped.
    pub fn load_from(paths: &[PathBuf]) -> Result<Self, Error> {
        let mut reason = String::from("no candidate");
        for p in paths {
            match ffi::Library::open(p) {
                Ok(lib) => return Ok(Self { lib }),
                Err(ffi::OpenError::Load(e)) => reason = e,
                Err(ffi::OpenError::Symbol(symbol, e)) => {
                    return Err(Error::Symbol { path: p.display().to_string(), symbol, reason: e })
                }
            }
        }
        let tried = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        Err(Error::Load { tried, reason })
    }

    /// Decodes one shader-engine stream with AMD's decoder (one `parse_data` call, as rocprofv3
    /// does), answering its ISA queries from `code`.
    pub fn decode(&self, stream: &[u8], code: &CodeObject) -> Result<SeDecode, Error> {
        self.lib.parse(stream, code, None)
    }

    /// Like [`AmdDecoder::decode`], but the ISA callback answers with `text(absolute_pc)` when it
    /// returns `Some` (for example LLVM's disassembly, as rocprofiler-sdk does), and with the
    /// native stand-in otherwise. Sizes always come from the native instruction decoder.
    pub fn decode_with_text(
        &self,
        stream: &[u8],
        code: &CodeObject,
        text: &mut dyn FnMut(u64) -> Option<String>,
    ) -> Result<SeDecode, Error> {
        self.lib.parse(stream, code, Some(text))
    }
}
