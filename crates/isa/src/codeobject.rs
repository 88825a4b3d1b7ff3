//! A minimal reader of AMDGPU code objects (ELF64, `EM_AMDGPU`): the loadable image, the symbols (kernel
//! descriptors are `<kernel>.kd`) and the `.text` section. Enough to run a kernel from a `.co` file in
//! tests, benchmarks and tools; loaders that relocate (hsa-sim) have their own.

use crate::target::{GenericIsa, Target};

/// A symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// Virtual address (offset in the image).
    pub value: u64,
    /// Size in bytes.
    pub size: u64,
}

/// A parsed code object.
#[derive(Clone, Debug)]
pub struct CodeObject {
    /// The target whose tables decode and run the code: the processor `e_flags` names or, for a
    /// generic code object ([`CodeObject::generic`]), the first of our targets that processor covers
    /// (gfx11-generic: gfx1100; gfx9-4-generic: gfx942), whose decoder reads every instruction
    /// generic code may hold. `None` for any other processor (gfx9-generic and gfx10-1-generic cover
    /// none of ours). Tools that disassemble a captured code object (ATT, PC sampling) use the
    /// agent's target instead, which also runs a generic object.
    pub target: Option<&'static Target>,
    /// The generic processor `e_flags` names (`-mcpu=gfx11-generic`, code object v6), if any.
    pub generic: Option<&'static GenericIsa>,
    /// The loaded image: every `PT_LOAD` segment at its virtual address (zero-filled gaps and bss).
    pub image: Vec<u8>,
    /// Symbols of `.symtab` (or `.dynsym`).
    pub symbols: Vec<Symbol>,
    /// `.text`: virtual address and size.
    pub text: (u64, u64),
    /// File offset of `.text`.
    pub text_offset: u64,
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

impl CodeObject {
    /// Parses an ELF code object; `None` if it is not a well-formed 64-bit little-endian AMDGPU ELF.
    pub fn parse(elf: &[u8]) -> Option<CodeObject> {
        if elf.get(..4)? != b"\x7fELF" || elf[4] != 2 || elf[5] != 1 || u16_at(elf, 18)? != 224 {
            return None;
        }
        let flags = u32_at(elf, 48)?;
        let generic = GenericIsa::from_elf_mach(flags & 0xff);
        let target = Target::from_elf_mach(flags & 0xff).or_else(|| generic?.targets().next());
        let (phoff, shoff) = (u64_at(elf, 32)? as usize, u64_at(elf, 40)? as usize);
        let (phentsize, phnum) = (u16_at(elf, 54)? as usize, u16_at(elf, 56)? as usize);
        let (shentsize, shnum, shstrndx) =
            (u16_at(elf, 58)? as usize, u16_at(elf, 60)? as usize, u16_at(elf, 62)? as usize);
        let mut image = Vec::new();
        for k in 0..phnum {
            let p = phoff + k * phentsize;
            if u32_at(elf, p)? != 1 {
                continue;
            }
            let (off, vaddr) = (u64_at(elf, p + 8)? as usize, u64_at(elf, p + 16)? as usize);
            let (filesz, memsz) = (u64_at(elf, p + 32)? as usize, u64_at(elf, p + 40)? as usize);
            if memsz > 1 << 30 || filesz > memsz {
                return None;
            }
            if image.len() < vaddr + memsz {
                image.resize(vaddr + memsz, 0);
            }
            image[vaddr..vaddr + filesz].copy_from_slice(elf.get(off..off + filesz)?);
        }
        let sh = |k: usize| shoff + k * shentsize;
        let shstr_off = u64_at(elf, sh(shstrndx) + 24)? as usize;
        let name_at = |base: usize, o: usize| -> Option<String> {
            let s = elf.get(base + o..)?;
            let end = s.iter().position(|&c| c == 0)?;
            Some(String::from_utf8_lossy(&s[..end]).into_owned())
        };
        let mut symbols = Vec::new();
        let mut text = (0, 0);
        let mut text_offset = 0;
        let mut symtab = None;
        for k in 0..shnum {
            let h = sh(k);
            let name = name_at(shstr_off, u32_at(elf, h)? as usize)?;
            let ty = u32_at(elf, h + 4)?;
            if name == ".text" {
                text = (u64_at(elf, h + 16)?, u64_at(elf, h + 32)?);
                text_offset = u64_at(elf, h + 24)?;
            }
            if ty == 2 || (ty == 11 && symtab.is_none()) {
                symtab = Some(k);
            }
        }
        if let Some(k) = symtab {
            let h = sh(k);
            let (off, size, link, entsize) = (
                u64_at(elf, h + 24)? as usize,
                u64_at(elf, h + 32)? as usize,
                u32_at(elf, h + 40)? as usize,
                u64_at(elf, h + 56)? as usize,
            );
            let str_off = u64_at(elf, sh(link) + 24)? as usize;
            for e in (off..off + size).step_by(entsize.max(24)) {
                let name = name_at(str_off, u32_at(elf, e)? as usize)?;
                if name.is_empty() {
                    continue;
                }
                symbols.push(Symbol { name, value: u64_at(elf, e + 8)?, size: u64_at(elf, e + 16)? });
            }
        }
        Some(CodeObject { target, generic, image, symbols, text, text_offset })
    }

    /// The address (in the image) of `<kernel>.kd`.
    pub fn kernel_descriptor(&self, kernel: &str) -> Option<u64> {
        let kd = format!("{kernel}.kd");
        self.symbols.iter().find(|s| s.name == kd).map(|s| s.value)
    }

    /// Names of the kernels (symbols with a `.kd` twin).
    pub fn kernels(&self) -> Vec<&str> {
        self.symbols.iter().filter_map(|s| s.name.strip_suffix(".kd")).collect()
    }

    /// The bytes of `.text`.
    pub fn text_bytes(&self) -> &[u8] {
        let (a, n) = (self.text.0 as usize, self.text.1 as usize);
        self.image.get(a..a + n).unwrap_or(&[])
    }
}
