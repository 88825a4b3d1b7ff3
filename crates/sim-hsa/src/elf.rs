//! A small, bounds-checked ELF64 little-endian reader for AMDGPU code objects: header, program headers,
//! symbols and RELA relocations. Malformed input yields an [`ElfError`] naming the offset, never a panic.
//!
//! Conventions (`amd_hsa_elf.h`, LLVM AMDGPU usage): `e_machine = EM_AMDGPU (224)`, `EI_OSABI = 64`
//! (AMDGPU_HSA), `EI_ABIVERSION` 0..4 = code object v2..v6, processor in `e_flags` bits 0-7, xnack bits 8-9
//! and sramecc bits 10-11 (v4+; v3 uses single bits 0x100 / 0x200).

/// `EM_AMDGPU`.
pub(crate) const EM_AMDGPU: u16 = 224;
/// `ELFOSABI_AMDGPU_HSA`.
pub(crate) const ELFOSABI_AMDGPU_HSA: u8 = 64;
pub(crate) const PT_LOAD: u32 = 1;
pub(crate) const SHT_SYMTAB: u32 = 2;
pub(crate) const SHT_RELA: u32 = 4;
pub(crate) const SHT_DYNSYM: u32 = 11;
pub(crate) const SHT_NOTE: u32 = 7;
pub(crate) const PT_NOTE: u32 = 4;
pub(crate) const STT_OBJECT: u8 = 1;
pub(crate) const STT_FUNC: u8 = 2;
pub(crate) const STT_COMMON: u8 = 5;
pub(crate) const STB_LOCAL: u8 = 0;
/// `R_AMDGPU_ABS64` (`amd_hsa_elf.h`).
pub(crate) const R_AMDGPU_ABS64: u32 = 3;
/// `R_AMDGPU_RELATIVE64` (`amd_hsa_elf.h`).
pub(crate) const R_AMDGPU_RELATIVE64: u32 = 13;

/// Why a code object was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ElfError {
    pub(crate) offset: u64,
    pub(crate) kind: ElfErrorKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ElfErrorKind {
    BadMagic,
    NotElf64LittleEndian,
    NotAmdgpu,
    UnsupportedAbiVersion(u8),
    Truncated,
    NoLoadSegments,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct ProgramHeader {
    pub(crate) p_type: u32,
    pub(crate) offset: u64,
    pub(crate) vaddr: u64,
    pub(crate) filesz: u64,
    pub(crate) memsz: u64,
}

#[derive(Debug, Clone)]
pub(crate) struct Symbol {
    pub(crate) name: String,
    pub(crate) kind: u8,
    pub(crate) bind: u8,
    pub(crate) shndx: u16,
    pub(crate) value: u64,
    pub(crate) size: u64,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Rela {
    pub(crate) offset: u64,
    pub(crate) sym: u32,
    pub(crate) r_type: u32,
    pub(crate) addend: i64,
}

/// A parsed code object.
#[derive(Debug, Clone)]
pub(crate) struct CodeObject {
    pub(crate) abi_version: u8,
    pub(crate) e_flags: u32,
    pub(crate) segments: Vec<ProgramHeader>,
    /// `.symtab` if present, else `.dynsym`.
    pub(crate) symbols: Vec<Symbol>,
    /// Dynamic symbols, which RELA entries refer to.
    pub(crate) dynsyms: Vec<Symbol>,
    pub(crate) relocations: Vec<Rela>,
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn get<const N: usize>(&self, off: u64) -> Result<[u8; N], ElfError> {
        let o = usize::try_from(off).map_err(|_| err(off, ElfErrorKind::Truncated))?;
        self.0
            .get(o..o.checked_add(N).ok_or(err(off, ElfErrorKind::Truncated))?)
            .map(|s| s.try_into().expect("N bytes"))
            .ok_or(err(off, ElfErrorKind::Truncated))
    }
    fn u8(&self, off: u64) -> Result<u8, ElfError> {
        Ok(self.get::<1>(off)?[0])
    }
    fn u16(&self, off: u64) -> Result<u16, ElfError> {
        Ok(u16::from_le_bytes(self.get(off)?))
    }
    fn u32(&self, off: u64) -> Result<u32, ElfError> {
        Ok(u32::from_le_bytes(self.get(off)?))
    }
    fn u64(&self, off: u64) -> Result<u64, ElfError> {
        Ok(u64::from_le_bytes(self.get(off)?))
    }
    fn cstr(&self, off: u64) -> Result<String, ElfError> {
        let o = usize::try_from(off).map_err(|_| err(off, ElfErrorKind::Truncated))?;
        let rest = self.0.get(o..).ok_or(err(off, ElfErrorKind::Truncated))?;
        let end = rest.iter().position(|&b| b == 0).ok_or(err(off, ElfErrorKind::Truncated))?;
        Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
    }
}

fn err(offset: u64, kind: ElfErrorKind) -> ElfError {
    ElfError { offset, kind }
}

struct Section {
    sh_type: u32,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
    entsize: u64,
}

fn read_symbols(b: &Bytes<'_>, sections: &[Section], s: &Section) -> Result<Vec<Symbol>, ElfError> {
    let strtab = sections.get(s.link as usize).ok_or(err(s.offset, ElfErrorKind::Truncated))?;
    let ent = if s.entsize == 0 { 24 } else { s.entsize };
    let mut out = Vec::new();
    for i in 0..s.size / ent {
        let o = s.offset + i * ent;
        let name_off = b.u32(o)?;
        let info = b.u8(o + 4)?;
        out.push(Symbol {
            name: if name_off == 0 { String::new() } else { b.cstr(strtab.offset + u64::from(name_off))? },
            kind: info & 0xf,
            bind: info >> 4,
            shndx: b.u16(o + 6)?,
            value: b.u64(o + 8)?,
            size: b.u64(o + 16)?,
        });
    }
    Ok(out)
}

/// Parses an AMDGPU code object.
pub(crate) fn parse(data: &[u8]) -> Result<CodeObject, ElfError> {
    let b = Bytes(data);
    if b.get::<4>(0)? != *b"\x7fELF" {
        return Err(err(0, ElfErrorKind::BadMagic));
    }
    if b.u8(4)? != 2 || b.u8(5)? != 1 {
        return Err(err(4, ElfErrorKind::NotElf64LittleEndian));
    }
    if b.u8(7)? != ELFOSABI_AMDGPU_HSA || b.u16(18)? != EM_AMDGPU {
        return Err(err(7, ElfErrorKind::NotAmdgpu));
    }
    let abi = b.u8(8)?;
    if abi > 4 {
        return Err(err(8, ElfErrorKind::UnsupportedAbiVersion(abi)));
    }
    let e_flags = b.u32(48)?;
    let phoff = b.u64(32)?;
    let shoff = b.u64(40)?;
    let phentsize = u64::from(b.u16(54)?);
    let phnum = u64::from(b.u16(56)?);
    let shentsize = u64::from(b.u16(58)?);
    let shnum = u64::from(b.u16(60)?);
    let mut segments = Vec::new();
    for i in 0..phnum {
        let o = phoff + i * phentsize;
        segments.push(ProgramHeader {
            p_type: b.u32(o)?,
            offset: b.u64(o + 8)?,
            vaddr: b.u64(o + 16)?,
            filesz: b.u64(o + 32)?,
            memsz: b.u64(o + 40)?,
        });
    }
    let loads: Vec<ProgramHeader> = segments.iter().copied().filter(|p| p.p_type == PT_LOAD).collect();
    if loads.is_empty() {
        return Err(err(phoff, ElfErrorKind::NoLoadSegments));
    }
    for p in &loads {
        if p.filesz > 0 {
            b.get::<1>(p.offset + p.filesz - 1)?;
        }
    }
    let mut sections = Vec::new();
    for i in 0..shnum {
        let o = shoff + i * shentsize;
        sections.push(Section {
            sh_type: b.u32(o + 4)?,
            addr: b.u64(o + 16)?,
            offset: b.u64(o + 24)?,
            size: b.u64(o + 32)?,
            link: b.u32(o + 40)?,
            entsize: b.u64(o + 56)?,
        });
    }
    let mut symtab = Vec::new();
    let mut dynsyms = Vec::new();
    for s in &sections {
        match s.sh_type {
            SHT_SYMTAB => symtab = read_symbols(&b, &sections, s)?,
            SHT_DYNSYM => dynsyms = read_symbols(&b, &sections, s)?,
            _ => {}
        }
    }
    let mut relocations = Vec::new();
    for s in sections.iter().filter(|s| s.sh_type == SHT_RELA) {
        // Only dynamic relocations (those whose symbol table is .dynsym) are applied by a loader.
        if sections.get(s.link as usize).map(|l| l.sh_type) != Some(SHT_DYNSYM) && s.link != 0 {
            continue;
        }
        let ent = if s.entsize == 0 { 24 } else { s.entsize };
        for i in 0..s.size / ent {
            let o = s.offset + i * ent;
            let info = b.u64(o + 8)?;
            relocations.push(Rela {
                offset: b.u64(o)?,
                sym: (info >> 32) as u32,
                r_type: info as u32,
                addend: b.u64(o + 16)? as i64,
            });
        }
    }
    let mut symbols = if symtab.is_empty() { dynsyms.clone() } else { symtab };
    let extents: Vec<(u64, u64)> = sections.iter().map(|s| (s.addr, s.addr.saturating_add(s.size))).collect();
    size_functions(&mut symbols, &extents);
    Ok(CodeObject { abi_version: abi, e_flags, segments: loads, symbols, dynsyms, relocations })
}

/// One ELF note: its owner name (without the NUL), type and descriptor bytes (a range of the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Note {
    pub(crate) name: String,
    pub(crate) n_type: u32,
    pub(crate) desc: std::ops::Range<usize>,
}

/// The notes of a code object: those of its `SHT_NOTE` sections, or of its `PT_NOTE` segments when it
/// has no section headers. Entries are `namesz`, `descsz`, `type`, then name and descriptor each padded
/// to the section's alignment (4, or 8 where the section says so).
pub(crate) fn notes(data: &[u8]) -> Result<Vec<Note>, ElfError> {
    let b = Bytes(data);
    if b.get::<4>(0)? != *b"\x7fELF" || b.u8(4)? != 2 || b.u8(5)? != 1 {
        return Err(err(0, ElfErrorKind::NotElf64LittleEndian));
    }
    let shoff = b.u64(40)?;
    let shentsize = u64::from(b.u16(58)?);
    let shnum = u64::from(b.u16(60)?);
    // (file offset, size, alignment) of every note area.
    let mut areas = Vec::new();
    for i in 0..shnum {
        let o = shoff + i * shentsize;
        if b.u32(o + 4)? == SHT_NOTE {
            areas.push((b.u64(o + 24)?, b.u64(o + 32)?, b.u64(o + 48)?));
        }
    }
    if shnum == 0 {
        let phoff = b.u64(32)?;
        let phentsize = u64::from(b.u16(54)?);
        for i in 0..u64::from(b.u16(56)?) {
            let o = phoff + i * phentsize;
            if b.u32(o)? == PT_NOTE {
                areas.push((b.u64(o + 8)?, b.u64(o + 32)?, b.u64(o + 48)?));
            }
        }
    }
    let mut out = Vec::new();
    for (off, size, align) in areas {
        let align = if align == 8 { 8 } else { 4 };
        let end = off.checked_add(size).ok_or(err(off, ElfErrorKind::Truncated))?;
        if size > 0 {
            b.get::<1>(end - 1)?;
        }
        let mut p = off;
        while p + 12 <= end {
            let (namesz, descsz, n_type) = (u64::from(b.u32(p)?), u64::from(b.u32(p + 4)?), b.u32(p + 8)?);
            let name_at = p + 12;
            let desc_at = name_at + namesz.next_multiple_of(align);
            let next = desc_at + descsz.next_multiple_of(align);
            if desc_at + descsz > end {
                return Err(err(p, ElfErrorKind::Truncated));
            }
            let name = &data[name_at as usize..(name_at + namesz) as usize];
            let name = String::from_utf8_lossy(name.strip_suffix(&[0]).unwrap_or(name)).into_owned();
            out.push(Note { name, n_type, desc: desc_at as usize..(desc_at + descsz) as usize });
            p = next;
        }
    }
    Ok(out)
}

/// Gives every `STT_FUNC` symbol of size 0 the extent a disassembler gives it: up to the next function
/// of its section, else to the section's end (`extents`: each section's address range). Kernels assembled
/// from `.s` files without a `.size` directive have such symbols (rocBLAS's Tensile code objects: every
/// kernel symbol has size 0); the device model reads a kernel's code through its function's size.
fn size_functions(symbols: &mut [Symbol], extents: &[(u64, u64)]) {
    let mut starts: Vec<(u16, u64)> =
        symbols.iter().filter(|s| s.kind == STT_FUNC && s.shndx != 0).map(|s| (s.shndx, s.value)).collect();
    starts.sort_unstable();
    for s in symbols.iter_mut().filter(|s| s.kind == STT_FUNC && s.size == 0 && s.shndx != 0) {
        let Some(&(start, end)) = extents.get(usize::from(s.shndx)) else { continue };
        if s.value < start || s.value >= end {
            continue;
        }
        let next = starts.partition_point(|&k| k <= (s.shndx, s.value));
        let limit = starts.get(next).filter(|k| k.0 == s.shndx).map_or(end, |k| k.1.min(end));
        s.size = limit - s.value;
    }
}

impl CodeObject {
    /// `e_flags` in the v4+ feature encoding (v3 single bits mapped: set = on, clear = any).
    pub(crate) fn flags_v4(&self) -> u32 {
        if self.abi_version <= 1 {
            let mach = self.e_flags & 0xff;
            let xnack = if self.e_flags & 0x100 != 0 { 3 } else { 1 };
            let sramecc = if self.e_flags & 0x200 != 0 { 3 } else { 1 };
            mach | xnack << 8 | sramecc << 10
        } else {
            self.e_flags
        }
    }

    /// Size of the single allocation holding every PT_LOAD segment (`last.vaddr + last.memsz`).
    pub(crate) fn load_size(&self) -> u64 {
        self.segments.iter().map(|p| p.vaddr + p.memsz).max().unwrap_or(0)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Builds a minimal AMDGPU ELF in memory: one PT_LOAD of `code` at vaddr 0, a `.symtab` with the given
    /// (name, type, value, size) symbols.
    pub(crate) fn build(e_flags: u32, abi: u8, load: &[u8], syms: &[(&str, u8, u64, u64)]) -> Vec<u8> {
        let mut strtab = vec![0u8];
        let mut symtab = vec![0u8; 24];
        for (name, ty, value, size) in syms {
            let off = strtab.len() as u32;
            strtab.extend_from_slice(name.as_bytes());
            strtab.push(0);
            let mut s = [0u8; 24];
            s[0..4].copy_from_slice(&off.to_le_bytes());
            s[4] = (1 << 4) | ty; // GLOBAL
            s[6..8].copy_from_slice(&1u16.to_le_bytes());
            s[8..16].copy_from_slice(&value.to_le_bytes());
            s[16..24].copy_from_slice(&size.to_le_bytes());
            symtab.extend_from_slice(&s);
        }
        let phoff = 64u64;
        let load_off = 0x100u64;
        let sym_off = load_off + load.len() as u64;
        let str_off = sym_off + symtab.len() as u64;
        let shoff = (str_off + strtab.len() as u64 + 7) & !7;
        let mut f = vec![0u8; shoff as usize + 3 * 64];
        f[0..4].copy_from_slice(b"\x7fELF");
        f[4] = 2;
        f[5] = 1;
        f[6] = 1;
        f[7] = ELFOSABI_AMDGPU_HSA;
        f[8] = abi;
        f[16..18].copy_from_slice(&3u16.to_le_bytes());
        f[18..20].copy_from_slice(&EM_AMDGPU.to_le_bytes());
        f[32..40].copy_from_slice(&phoff.to_le_bytes());
        f[40..48].copy_from_slice(&shoff.to_le_bytes());
        f[48..52].copy_from_slice(&e_flags.to_le_bytes());
        f[54..56].copy_from_slice(&56u16.to_le_bytes());
        f[56..58].copy_from_slice(&1u16.to_le_bytes());
        f[58..60].copy_from_slice(&64u16.to_le_bytes());
        f[60..62].copy_from_slice(&3u16.to_le_bytes());
        let p = phoff as usize;
        f[p..p + 4].copy_from_slice(&PT_LOAD.to_le_bytes());
        f[p + 8..p + 16].copy_from_slice(&load_off.to_le_bytes());
        f[p + 32..p + 40].copy_from_slice(&(load.len() as u64).to_le_bytes());
        f[p + 40..p + 48].copy_from_slice(&(load.len() as u64).to_le_bytes());
        f[load_off as usize..sym_off as usize].copy_from_slice(load);
        f[sym_off as usize..str_off as usize].copy_from_slice(&symtab);
        f[str_off as usize..str_off as usize + strtab.len()].copy_from_slice(&strtab);
        for (i, (ty, off, size, link)) in [
            (0u32, 0u64, 0u64, 0u32),
            (SHT_SYMTAB, sym_off, symtab.len() as u64, 2),
            (3, str_off, strtab.len() as u64, 0),
        ]
        .iter()
        .enumerate()
        {
            let o = shoff as usize + i * 64;
            f[o + 4..o + 8].copy_from_slice(&ty.to_le_bytes());
            f[o + 24..o + 32].copy_from_slice(&off.to_le_bytes());
            f[o + 32..o + 40].copy_from_slice(&size.to_le_bytes());
            f[o + 40..o + 44].copy_from_slice(&link.to_le_bytes());
            f[o + 56..o + 64].copy_from_slice(&(if *ty == SHT_SYMTAB { 24u64 } else { 0 }).to_le_bytes());
        }
        f
    }

    #[test]
    fn parses_symbols_and_segments() {
        let elf = build(0x54c, 2, &[0u8; 0x200], &[("k.kd", STT_OBJECT, 0x40, 64), ("k", STT_FUNC, 0x100, 0x80)]);
        let co = parse(&elf).unwrap();
        assert_eq!(co.load_size(), 0x200);
        assert_eq!(co.flags_v4() & 0xff, 0x4c);
        let names: Vec<_> = co.symbols.iter().map(|s| (s.name.as_str(), s.kind, s.value)).collect();
        assert_eq!(names, [("", 0, 0), ("k.kd", STT_OBJECT, 0x40), ("k", STT_FUNC, 0x100)]);
    }

    /// Functions without a size (Tensile's assembled kernels) reach the next function of their section or
    /// the section's end; sized functions, other sections' symbols and labels keep theirs.
    #[test]
    fn unsized_functions_reach_the_next_function_or_their_sections_end() {
        let sym =
            |name: &str, kind, shndx, value, size| Symbol { name: name.into(), kind, bind: 1, shndx, value, size };
        let mut syms = vec![
            sym("b", STT_FUNC, 2, 0x1200, 0),
            sym("a", STT_FUNC, 2, 0x1000, 0),
            sym("label", 0, 2, 0x1100, 0),
            sym("c", STT_FUNC, 2, 0x1300, 0x40),
            sym("d", STT_FUNC, 2, 0x1400, 0),
            sym("a.kd", STT_OBJECT, 1, 0x400, 64),
            sym("other", STT_FUNC, 3, 0x1500, 0),
        ];
        size_functions(&mut syms, &[(0, 0), (0x400, 0x500), (0x1000, 0x1480), (0x1480, 0x1480)]);
        let sizes: Vec<(&str, u64)> = syms.iter().map(|s| (s.name.as_str(), s.size)).collect();
        assert_eq!(
            sizes,
            [("b", 0x100), ("a", 0x200), ("label", 0), ("c", 0x40), ("d", 0x80), ("a.kd", 64), ("other", 0)]
        );
    }

    #[test]
    fn rejects_garbage_without_panicking() {
        assert_eq!(parse(b"hello").unwrap_err().kind, ElfErrorKind::BadMagic);
        assert_eq!(parse(b"\x7fE").unwrap_err().kind, ElfErrorKind::Truncated);
        assert_eq!(parse(&[0u8; 64]).unwrap_err().kind, ElfErrorKind::BadMagic);
        let mut elf = build(0x54c, 2, &[0u8; 16], &[]);
        elf[18] = 62; // x86-64
        assert_eq!(parse(&elf).unwrap_err().kind, ElfErrorKind::NotAmdgpu);
        let elf = build(0x54c, 2, &[0u8; 16], &[]);
        for cut in [10, 60, 100, elf.len() - 1] {
            assert!(parse(&elf[..cut]).is_err(), "cut at {cut}");
        }
    }
}
