//! Just enough ELF64 to find `.text` of an AMDGPU code object.
//!
//! Section headers are read directly (64-byte ELF64 entries) because some hand-assembled code
//! objects leave the header's data-encoding, machine and entry-size fields at zero.

use crate::cursor::{le_u16, le_u32, le_u64};
use crate::error::{DecodeError, DecodeErrorKind, Result};

/// `.text` of a code object: its ELF virtual address and bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text<'data> {
    /// Virtual address of `.text` in the ELF.
    pub vaddr: u64,
    /// The section bytes.
    pub bytes: &'data [u8],
}

const SHDR: usize = 64;

/// Finds `.text` in an ELF64 image.
pub fn text_section(elf: &[u8]) -> Result<Text<'_>> {
    let bad = |off: usize| DecodeError::new(off as u64, DecodeErrorKind::BadElf);
    if elf.get(0..4) != Some(b"\x7fELF") || elf.get(4) != Some(&2) {
        return Err(bad(0));
    }
    let shoff = le_u64(elf, 0x28).ok_or_else(|| bad(0x28))? as usize;
    let shnum = le_u16(elf, 0x3c).ok_or_else(|| bad(0x3c))? as usize;
    let shstrndx = le_u16(elf, 0x3e).ok_or_else(|| bad(0x3e))? as usize;
    let section = |i: usize| -> Result<(u32, u64, u64, u64)> {
        let base = i.checked_mul(SHDR).and_then(|o| o.checked_add(shoff)).ok_or_else(|| bad(0x28))?;
        if base.checked_add(SHDR).is_none_or(|end| end > elf.len()) {
            return Err(bad(base));
        }
        let name = le_u32(elf, base).ok_or_else(|| bad(base))?;
        let addr = le_u64(elf, base + 0x10).ok_or_else(|| bad(base))?;
        let off = le_u64(elf, base + 0x18).ok_or_else(|| bad(base))?;
        let size = le_u64(elf, base + 0x20).ok_or_else(|| bad(base))?;
        Ok((name, addr, off, size))
    };
    let bytes_of = |off: u64, size: u64, at: usize| -> Result<&[u8]> {
        let start = usize::try_from(off).map_err(|_| bad(at))?;
        let len = usize::try_from(size).map_err(|_| bad(at))?;
        elf.get(start..start.checked_add(len).ok_or_else(|| bad(at))?).ok_or_else(|| bad(at))
    };
    if shstrndx >= shnum {
        return Err(bad(0x3e));
    }
    let (_, _, stroff, strsize) = section(shstrndx)?;
    let strtab = bytes_of(stroff, strsize, shoff.wrapping_add(shstrndx * SHDR))?;
    for i in 0..shnum {
        let (name, addr, off, size) = section(i)?;
        let name = strtab.get(name as usize..).unwrap_or(&[]);
        if name.starts_with(b".text\0") {
            return Ok(Text { vaddr: addr, bytes: bytes_of(off, size, shoff.wrapping_add(i * SHDR))? });
        }
    }
    Err(DecodeError::new(0, DecodeErrorKind::NoText))
}

/// Bytes the code object spans once loaded: the end of its last `PT_LOAD` segment
/// (`p_vaddr + p_memsz`), what a loader reserves and a profiler's markers announce. `None` when
/// the program headers cannot be read.
pub fn load_span(elf: &[u8]) -> Option<u64> {
    const PT_LOAD: u32 = 1;
    let phoff = usize::try_from(le_u64(elf, 0x20)?).ok()?;
    let phentsize = usize::from(le_u16(elf, 0x36)?);
    let phnum = usize::from(le_u16(elf, 0x38)?);
    if phentsize < 56 {
        return None;
    }
    let mut end = None;
    for i in 0..phnum {
        let base = phoff.checked_add(i.checked_mul(phentsize)?)?;
        if le_u32(elf, base)? != PT_LOAD {
            continue;
        }
        let vaddr = le_u64(elf, base + 0x10)?;
        let memsz = le_u64(elf, base + 0x28)?;
        let e = vaddr.checked_add(memsz)?;
        end = Some(end.map_or(e, |x: u64| x.max(e)));
    }
    end
}

/// A function symbol of a code object: a kernel's (or device function's) code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Symbol name as stored (mangled).
    pub name: String,
    /// ELF virtual address of its first instruction.
    pub vaddr: u64,
    /// Size in bytes (0 when the symbol does not say).
    pub size: u64,
}

/// `STT_FUNC` symbols of `.symtab` (falling back to `.dynsym`), by address. An unreadable symbol
/// table yields no functions rather than an error: symbols only name what the trace shows.
pub fn functions(elf: &[u8]) -> Vec<Function> {
    const SHT_SYMTAB: u32 = 2;
    const SHT_DYNSYM: u32 = 11;
    const STT_FUNC: u8 = 2;
    let Some(shoff) = le_u64(elf, 0x28).and_then(|v| usize::try_from(v).ok()) else { return Vec::new() };
    let Some(shnum) = le_u16(elf, 0x3c).map(usize::from) else { return Vec::new() };
    let header = |i: usize| -> Option<(u32, u64, u64, u32)> {
        let base = shoff.checked_add(i.checked_mul(SHDR)?)?;
        let ty = le_u32(elf, base + 4)?;
        let off = le_u64(elf, base + 0x18)?;
        let size = le_u64(elf, base + 0x20)?;
        let link = le_u32(elf, base + 0x28)?;
        Some((ty, off, size, link))
    };
    let bytes = |off: u64, size: u64| -> Option<&[u8]> {
        let start = usize::try_from(off).ok()?;
        elf.get(start..start.checked_add(usize::try_from(size).ok()?)?)
    };
    let mut out = Vec::new();
    for want in [SHT_SYMTAB, SHT_DYNSYM] {
        for i in 0..shnum.min(1 << 16) {
            let Some((ty, off, size, link)) = header(i) else { break };
            if ty != want {
                continue;
            }
            let (Some(syms), Some(strtab)) =
                (bytes(off, size), header(link as usize).and_then(|(_, o, s, _)| bytes(o, s)))
            else {
                continue;
            };
            for sym in syms.chunks_exact(24) {
                if sym[4] & 0xf != STT_FUNC {
                    continue;
                }
                let name_off = u32::from_le_bytes([sym[0], sym[1], sym[2], sym[3]]) as usize;
                let Some(name) = strtab.get(name_off..).and_then(|n| n.split(|&b| b == 0).next()) else { continue };
                let vaddr = u64::from_le_bytes(sym[8..16].try_into().expect("8 bytes"));
                let size = u64::from_le_bytes(sym[16..24].try_into().expect("8 bytes"));
                out.push(Function { name: String::from_utf8_lossy(name).into_owned(), vaddr, size });
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out.sort_by(|a, b| (a.vaddr, &a.name).cmp(&(b.vaddr, &b.name)));
    out.dedup_by(|a, b| a.vaddr == b.vaddr);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF64: null section, .text (4 bytes at vaddr 0x1600), .shstrtab.
    fn tiny_elf() -> Vec<u8> {
        let mut e = vec![0u8; 64];
        e[0..4].copy_from_slice(b"\x7fELF");
        e[4] = 2;
        let text_off = e.len() as u64;
        e.extend_from_slice(&0xbfb0_0000u32.to_le_bytes());
        let str_off = e.len() as u64;
        e.extend_from_slice(b"\0.text\0.shstrtab\0");
        let shoff = e.len() as u64;
        e[0x28..0x30].copy_from_slice(&shoff.to_le_bytes());
        e[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        e[0x3e..0x40].copy_from_slice(&2u16.to_le_bytes());
        let mut sh = |name: u32, addr: u64, off: u64, size: u64| {
            let mut s = vec![0u8; 64];
            s[0..4].copy_from_slice(&name.to_le_bytes());
            s[0x10..0x18].copy_from_slice(&addr.to_le_bytes());
            s[0x18..0x20].copy_from_slice(&off.to_le_bytes());
            s[0x20..0x28].copy_from_slice(&size.to_le_bytes());
            e.extend_from_slice(&s);
        };
        sh(0, 0, 0, 0);
        sh(1, 0x1600, text_off, 4);
        sh(7, 0, str_off, 17);
        e
    }

    #[test]
    fn finds_text() {
        let e = tiny_elf();
        let t = text_section(&e).unwrap();
        assert_eq!(t.vaddr, 0x1600);
        assert_eq!(t.bytes, &0xbfb0_0000u32.to_le_bytes());
    }

    #[test]
    fn kernel_symbols_of_a_fixture() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/kernels/vector_add-gfx1100.co");
        let elf = std::fs::read(path).expect("fixture code object");
        let f = functions(&elf);
        let text = text_section(&elf).unwrap();
        assert!(f.iter().any(|f| f.name == "vector_add" && f.vaddr == text.vaddr && f.size > 0), "{f:?}");
        assert!(functions(b"garbage").is_empty());
        let span = load_span(&elf).unwrap();
        assert!(span >= text.vaddr + text.bytes.len() as u64, "{span:#x}");
        assert_eq!(load_span(b"garbage"), None);
    }

    #[test]
    fn rejects_garbage_and_truncation() {
        assert_eq!(text_section(b"nope").unwrap_err().kind, DecodeErrorKind::BadElf);
        let e = tiny_elf();
        // cut inside the magic, the header, and the last section header's size field
        for cut in [3, 10, 64, e.len() - 64 + 0x24] {
            assert_eq!(text_section(&e[..cut]).unwrap_err().kind, DecodeErrorKind::BadElf, "cut {cut}");
        }
    }
}
