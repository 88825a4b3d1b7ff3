//! The kernel arguments a code object declares: its AMDGPU metadata note (`NT_AMDGPU_METADATA`,
//! owner `AMDGPU`, code object v3 and later) is a MessagePack map whose `amdhsa.kernels` array gives,
//! per kernel, `.symbol` (`<name>.kd`), `.kernarg_segment_size` and `.args`, each argument with its
//! `.offset`, `.size` and `.value_kind` (explicit arguments and the hidden ones the runtime fills:
//! block counts, group sizes, grid dims, completion action, hostcall and printf buffers, dynamic LDS
//! size, ...). Bytes of the kernarg segment no argument covers are padding: the runtime need not
//! write them (ROCclr leaves them as the previous launch in that ring slot wrote them), and code built
//! from that metadata does not depend on them.
//!
//! Dispatch elision (`elide.rs`) compares and copies only the declared bytes. The reader is a small
//! MessagePack decoder of the subset the format defines (no extension semantics needed); malformed
//! input gives `None` (the kernel keeps the whole-segment comparison), never a panic.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::elf;

/// `NT_AMDGPU_METADATA` (`amd_hsa_note.h`, LLVM's `ELF.h`).
const NT_AMDGPU_METADATA: u32 = 32;

/// A decoded MessagePack value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Nil,
    Bool(bool),
    Uint(u64),
    Int(i64),
    Float(f64),
    Str(String),
    Bin(Vec<u8>),
    Array(Vec<Value>),
    Map(Vec<(Value, Value)>),
    Ext(i8, Vec<u8>),
}

impl Value {
    /// The value of `key` in a map with string keys.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m.iter().find(|(k, _)| matches!(k, Value::Str(s) if s == key)).map(|(_, v)| v),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Uint(v) => Some(v),
            Value::Int(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Nesting deeper than this is rejected (the metadata nests 4 levels).
const MAX_DEPTH: u32 = 64;

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.b.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    fn be(&mut self, n: usize) -> Option<u64> {
        Some(self.take(n)?.iter().fold(0u64, |a, &b| a << 8 | u64::from(b)))
    }

    fn len(&mut self, n: usize) -> Option<usize> {
        usize::try_from(self.be(n)?).ok()
    }

    fn str(&mut self, n: usize) -> Option<Value> {
        Some(Value::Str(String::from_utf8(self.take(n)?.to_vec()).ok()?))
    }

    fn array(&mut self, n: usize, depth: u32) -> Option<Value> {
        // Every element takes at least one byte: a huge stated length cannot allocate past the input.
        let mut v = Vec::with_capacity(n.min(self.b.len() - self.pos));
        for _ in 0..n {
            v.push(self.value(depth + 1)?);
        }
        Some(Value::Array(v))
    }

    fn map(&mut self, n: usize, depth: u32) -> Option<Value> {
        let mut v = Vec::with_capacity(n.min((self.b.len() - self.pos) / 2));
        for _ in 0..n {
            let k = self.value(depth + 1)?;
            v.push((k, self.value(depth + 1)?));
        }
        Some(Value::Map(v))
    }

    fn ext(&mut self, n: usize) -> Option<Value> {
        let t = self.take(1)?[0] as i8;
        Some(Value::Ext(t, self.take(n)?.to_vec()))
    }

    fn value(&mut self, depth: u32) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let t = self.take(1)?[0];
        Some(match t {
            0x00..=0x7f => Value::Uint(u64::from(t)),
            0x80..=0x8f => return self.map(usize::from(t & 0x0f), depth),
            0x90..=0x9f => return self.array(usize::from(t & 0x0f), depth),
            0xa0..=0xbf => return self.str(usize::from(t & 0x1f)),
            0xc0 => Value::Nil,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xc4..=0xc6 => {
                let n = self.len(1 << (t - 0xc4))?;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xc7..=0xc9 => {
                let n = self.len(1 << (t - 0xc7))?;
                return self.ext(n);
            }
            0xca => Value::Float(f64::from(f32::from_bits(self.be(4)? as u32))),
            0xcb => Value::Float(f64::from_bits(self.be(8)?)),
            0xcc..=0xcf => Value::Uint(self.be(1 << (t - 0xcc))?),
            0xd0..=0xd3 => {
                let n = 1usize << (t - 0xd0);
                let raw = self.be(n)?;
                let shift = 64 - 8 * n as u32;
                Value::Int(((raw << shift) as i64) >> shift)
            }
            0xd4..=0xd8 => return self.ext(1 << (t - 0xd4)),
            0xd9..=0xdb => {
                let n = self.len(1 << (t - 0xd9))?;
                return self.str(n);
            }
            0xdc | 0xdd => {
                let n = self.len(if t == 0xdc { 2 } else { 4 })?;
                return self.array(n, depth);
            }
            0xde | 0xdf => {
                let n = self.len(if t == 0xde { 2 } else { 4 })?;
                return self.map(n, depth);
            }
            0xe0..=0xff => Value::Int(i64::from(t as i8)),
            0xc1 => return None,
        })
    }
}

/// Decodes one MessagePack value from the start of `b` (bytes after it are ignored).
pub(crate) fn decode(b: &[u8]) -> Option<Value> {
    Reader { b, pos: 0 }.value(0)
}

/// One declared kernel argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Arg {
    pub(crate) offset: u32,
    pub(crate) size: u32,
    pub(crate) value_kind: String,
}

/// One kernel's argument layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Kernel {
    /// The kernel descriptor's symbol (`<name>.kd`).
    pub(crate) symbol: String,
    pub(crate) kernarg_segment_size: u32,
    pub(crate) args: Vec<Arg>,
}

impl Kernel {
    /// The byte ranges `[start, end)` the arguments cover, sorted and merged; `None` when an argument
    /// lies outside the segment (the metadata cannot be trusted then).
    pub(crate) fn declared(&self) -> Option<Vec<(u32, u32)>> {
        let mut r: Vec<(u32, u32)> = Vec::with_capacity(self.args.len());
        for a in &self.args {
            let end = a.offset.checked_add(a.size)?;
            if end > self.kernarg_segment_size {
                return None;
            }
            if a.size > 0 {
                r.push((a.offset, end));
            }
        }
        r.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(r.len());
        for (s, e) in r {
            match out.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => out.push((s, e)),
            }
        }
        Some(out)
    }
}

/// The kernels of a code object's AMDGPU metadata note; `None` without a decodable note.
pub(crate) fn kernels(elf_bytes: &[u8]) -> Option<Vec<Kernel>> {
    let notes = elf::notes(elf_bytes).ok()?;
    let note = notes.iter().find(|n| n.name == "AMDGPU" && n.n_type == NT_AMDGPU_METADATA)?;
    let meta = decode(elf_bytes.get(note.desc.clone())?)?;
    let mut out = Vec::new();
    for k in meta.get("amdhsa.kernels")?.as_array()? {
        let u32_of = |v: &Value, key: &str| v.get(key)?.as_u64().and_then(|x| u32::try_from(x).ok());
        let mut args = Vec::new();
        // A kernel without arguments may leave `.args` out.
        for a in k.get(".args").and_then(Value::as_array).unwrap_or(&[]) {
            args.push(Arg {
                offset: u32_of(a, ".offset")?,
                size: u32_of(a, ".size")?,
                value_kind: a.get(".value_kind")?.as_str()?.to_string(),
            });
        }
        out.push(Kernel {
            symbol: k.get(".symbol")?.as_str()?.to_string(),
            kernarg_segment_size: u32_of(k, ".kernarg_segment_size")?,
            args,
        });
    }
    Some(out)
}

/// Merged `[start, end)` byte ranges of a kernarg segment.
pub(crate) type Ranges = Arc<[(u32, u32)]>;

/// Declared ranges per kernel object (`None`: keep the whole segment), filled on first use.
static DECLARED: Mutex<Option<HashMap<u64, Option<Ranges>>>> = Mutex::new(None);

fn declared_map() -> MutexGuard<'static, Option<HashMap<u64, Option<Ranges>>>> {
    DECLARED.lock().unwrap_or_else(|e| e.into_inner())
}

/// The declared byte ranges of the kernarg segment of the loaded kernel at `kernel_object`, whose
/// descriptor states `kernarg_size` bytes; `None` when its code object has no usable metadata for
/// it (no note, no entry for its symbol, a segment size other than the descriptor's, or an argument
/// outside the segment).
pub(crate) fn declared(kernel_object: u64, kernarg_size: u32) -> Option<Ranges> {
    if let Some(d) = declared_map().as_ref().and_then(|m| m.get(&kernel_object)) {
        return d.clone();
    }
    // Looked up without holding `DECLARED`: destroying an executable takes its state lock and then
    // `forget`'s.
    let found = lookup(kernel_object, kernarg_size);
    declared_map().get_or_insert_with(HashMap::new).insert(kernel_object, found.clone());
    found
}

fn lookup(kernel_object: u64, kernarg_size: u32) -> Option<Ranges> {
    let symbol = format!("{}.kd", crate::code_object::kernel_name(kernel_object)?);
    let (_, lco) = crate::code_object::all_loaded()
        .into_iter()
        .find(|(_, l)| l.load_base <= kernel_object && kernel_object < l.load_base + l.load_size)?;
    let k = kernels(&lco.elf)?.into_iter().find(|k| k.symbol == symbol)?;
    if k.kernarg_segment_size != kernarg_size {
        return None;
    }
    k.declared().map(Arc::from)
}

/// Forgets the layout of `kernel_object` (its executable is destroyed).
pub(crate) fn forget(kernel_object: u64) {
    if let Some(m) = declared_map().as_mut() {
        m.remove(&kernel_object);
    }
}

/// Whether the layout of `kernel_object` is remembered.
#[cfg(test)]
pub(crate) fn remembers(kernel_object: u64) -> bool {
    declared_map().as_ref().is_some_and(|m| m.contains_key(&kernel_object))
}

#[cfg(test)]
#[path = "kernel_args_tests.rs"]
mod tests;
