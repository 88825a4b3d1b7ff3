//! Decoding the captures found on disk: read the streams, place the code objects, decode every
//! shader engine's stream (in parallel, over all dispatches at once) with the chosen backend.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rocprof_sqtt::elf::{self, Function};
use rocprof_sqtt::{code_object_markers, CodeObject, DecodeErrorKind, Decoder, Family, LoadedCode, SeDecode};

use crate::error::{Error, Result};
use crate::input::{Capture, CodeSource};

/// Which decoder turns streams into records.
#[derive(Debug)]
pub enum Backend {
    /// Ours (`rocprof-sqtt`).
    Native,
    /// AMD's `librocprof-trace-decoder.so`.
    Amd(rocprof_sqtt_amd::AmdDecoder),
}

impl Backend {
    /// Name for messages and outputs.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Native => "native",
            Backend::Amd(_) => "amd",
        }
    }
}

/// A code object of a decoded dispatch.
#[derive(Debug, Clone)]
pub struct ObjectInfo {
    /// Code-object id (0 when the capture has none).
    pub id: u64,
    /// The file it was read from.
    pub path: PathBuf,
    /// Absolute address of ELF virtual address 0.
    pub address: u64,
    /// Its function (kernel) symbols.
    pub functions: Vec<Function>,
    /// Bytes it spans once loaded (from its marker; `u64::MAX` when unknown).
    pub size: u64,
    /// The ELF bytes.
    pub elf: Vec<u8>,
}

/// One decoded shader-engine stream.
#[derive(Debug, Clone)]
pub struct SeResult {
    /// Shader engine.
    pub se: u32,
    /// The `.att` file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The records.
    pub decode: SeDecode,
}

/// A decoded dispatch.
#[derive(Debug)]
pub struct Decoded {
    /// What was found on disk.
    pub capture: Capture,
    /// Trace format family.
    pub family: Family,
    /// The code, placed.
    pub code: CodeObject,
    /// The code objects, by id.
    pub objects: Vec<ObjectInfo>,
    /// Per shader engine, ascending.
    pub ses: Vec<SeResult>,
}

impl Decoded {
    /// GFX IP major version (9, 11, 12).
    pub fn gfxip(&self) -> u8 {
        match self.family {
            Family::Gfx9 => 9,
            Family::Gfx11 => 11,
            Family::Gfx12 => 12,
        }
    }
}

/// Runs `f` over `items` on up to `threads` threads; results in item order.
pub(crate) fn parallel<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let workers = threads.clamp(1, items.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()).expect("every item was processed"))
        .collect()
}

/// Streams and code of one capture, ready to decode.
struct Prepared {
    streams: Vec<(u32, PathBuf, Vec<u8>)>,
    family: Family,
    code: CodeObject,
    objects: Vec<ObjectInfo>,
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// Hardware writes whole 32-byte units (gfx9 streams carry the 8-byte header a profiler adds in
/// front); anything else was cut short after capture.
fn check_length(path: &Path, family: Family, len: usize) -> Result<()> {
    let header = if family == Family::Gfx9 { 8 } else { 0 };
    let body = len.saturating_sub(header);
    if len < header || body % 32 != 0 {
        return Err(Error::Truncated {
            path: path.to_path_buf(),
            len: len as u64,
            offset: (header + body / 32 * 32).min(len) as u64,
        });
    }
    Ok(())
}

fn prepare(c: &Capture) -> Result<Prepared> {
    let mut streams = Vec::with_capacity(c.streams.len());
    for s in &c.streams {
        streams.push((s.se, s.path.clone(), read(&s.path)?));
    }
    let family = streams
        .iter()
        .find(|(_, _, b)| !b.is_empty())
        .and_then(|(_, _, b)| Family::sniff(b))
        .or_else(|| c.target.as_deref().and_then(Family::from_target))
        .unwrap_or(Family::Gfx9);
    for (_, path, bytes) in &streams {
        if !bytes.is_empty() {
            check_length(path, family, bytes.len())?;
        }
    }
    let first = c.streams.first().map(|s| s.path.clone()).unwrap_or_else(|| c.dir.clone());
    let mut objects = Vec::new();
    match &c.code {
        CodeSource::Fixed { elf, load_base } => {
            let bytes = read(elf)?;
            objects.push(ObjectInfo {
                id: 0,
                path: elf.clone(),
                address: *load_base,
                size: u64::MAX,
                functions: elf::functions(&bytes),
                elf: bytes,
            });
        }
        CodeSource::ById { objects: files } => {
            // Loads announced in any stream, first address per id.
            let mut placed: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
            for (_, path, bytes) in &streams {
                if bytes.is_empty() {
                    continue;
                }
                let markers =
                    code_object_markers(bytes).map_err(|error| Error::Corrupt { path: path.clone(), error })?;
                for m in markers.iter().filter(|m| !m.unload) {
                    placed.entry(m.id).or_insert((m.address, m.size));
                }
            }
            for (id, path) in files {
                let Some(&(address, size)) = placed.get(id) else { continue };
                let bytes = read(path)?;
                objects.push(ObjectInfo {
                    id: *id,
                    path: path.clone(),
                    address,
                    size: if size == 0 { u64::MAX } else { size },
                    functions: elf::functions(&bytes),
                    elf: bytes,
                });
            }
            if objects.is_empty() {
                return Err(Error::NoCode { path: first });
            }
        }
    }
    let sizes: Vec<u64> = objects.iter().map(|o| o.size).collect();
    let loaded: Vec<(LoadedCode, &[u8])> = objects
        .iter()
        .zip(&sizes)
        .map(|(o, &size)| (LoadedCode { id: o.id, address: o.address, size }, o.elf.as_slice()))
        .collect();
    let code = CodeObject::from_elfs(family, &loaded)
        .map_err(|(i, error)| Error::CodeObject { path: objects[i].path.clone(), error })?;
    Ok(Prepared { streams, family, code, objects })
}

fn decode_one(
    backend: &Backend,
    amd_lock: &Mutex<()>,
    code: &CodeObject,
    path: &Path,
    bytes: &[u8],
) -> Result<SeDecode> {
    if bytes.is_empty() {
        return Ok(SeDecode::default());
    }
    let corrupt = |error| Error::Corrupt { path: path.to_path_buf(), error };
    let d = match backend {
        Backend::Native => Decoder::new(code).decode(bytes).map_err(corrupt)?,
        Backend::Amd(amd) => {
            // The native reader finds damage the same way for both backends.
            let native = Decoder::new(code).decode(bytes).map_err(corrupt)?;
            if let Some(e) = native.damage.filter(|e| e.kind != DecodeErrorKind::TruncatedToken) {
                return Err(corrupt(e));
            }
            let _one_at_a_time = amd_lock.lock().unwrap_or_else(|e| e.into_inner());
            amd.decode(bytes, code).map_err(|source| Error::Amd { path: path.to_path_buf(), source })?
        }
    };
    // A cut-off last token is normal (the buffer ends in the middle of one); unknown type bits
    // are not part of any trace.
    if let Some(e) = d.damage.filter(|e| e.kind != DecodeErrorKind::TruncatedToken) {
        return Err(corrupt(e));
    }
    Ok(d)
}

/// Decodes every capture with `backend` on up to `threads` threads; `progress` is called once per
/// decoded stream (for a progress bar). One result per capture, in order.
pub fn decode_captures(
    captures: Vec<Capture>,
    backend: &Backend,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Result<Decoded>> {
    let prepared = parallel(&captures, threads, prepare);
    let amd_lock = Mutex::new(());
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    for (ci, p) in prepared.iter().enumerate() {
        if let Ok(p) = p {
            jobs.extend((0..p.streams.len()).map(|si| (ci, si)));
        }
    }
    let decoded = parallel(&jobs, threads, |&(ci, si)| {
        let p = prepared[ci].as_ref().expect("jobs only for prepared captures");
        let (_, path, bytes) = &p.streams[si];
        let r = decode_one(backend, &amd_lock, &p.code, path, bytes);
        progress();
        r
    });
    let mut by_capture: Vec<Vec<Result<SeDecode>>> = captures.iter().map(|_| Vec::new()).collect();
    for ((ci, _), r) in jobs.into_iter().zip(decoded) {
        by_capture[ci].push(r);
    }
    captures
        .into_iter()
        .zip(prepared)
        .zip(by_capture)
        .map(|((capture, p), ses)| {
            let p = p?;
            let mut out = Vec::with_capacity(ses.len());
            for ((se, path, bytes), d) in p.streams.into_iter().zip(ses) {
                out.push(SeResult { se, path, bytes: bytes.len() as u64, decode: d? });
            }
            Ok(Decoded { capture, family: p.family, code: p.code, objects: p.objects, ses: out })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_must_be_whole_units() {
        let p = Path::new("x.att");
        assert!(check_length(p, Family::Gfx11, 64).is_ok());
        assert!(check_length(p, Family::Gfx9, 8 + 64).is_ok());
        let e = check_length(p, Family::Gfx12, 70).unwrap_err().to_string();
        assert!(e.contains("x.att") && e.contains("70 bytes") && e.contains("byte offset 64"), "{e}");
        let e = check_length(p, Family::Gfx9, 8 + 33).unwrap_err().to_string();
        assert!(e.contains("byte offset 40"), "{e}");
    }

    #[test]
    fn parallel_keeps_order() {
        let v: Vec<u32> = (0..100).collect();
        assert_eq!(parallel(&v, 3, |x| x * 2), (0..100).map(|x| x * 2).collect::<Vec<_>>());
    }
}
