//! Checks the committed AMDGPU code objects in `fixtures/kernels/` without any runtime: ELF
//! identity, the processor in `e_flags`, the `.kd` / function symbol pairs, and the kernel
//! descriptor fields the simulator reports through symbol queries. Runs in plain `cargo test`.

use std::fs;

use crate::support::{repo_root, KERNELS, TARGETS};

/// `EF_AMDGPU_MACH` of each target (LLVM `ELF.h`, `EF_AMDGPU_MACH_AMDGCN_*`).
fn expected_mach(target: &str) -> u32 {
    match target {
        "gfx908" => 0x30,
        "gfx90a" => 0x3f,
        "gfx942" => 0x4c,
        "gfx950" => 0x4f,
        "gfx1030" => 0x36,
        "gfx1100" => 0x41,
        "gfx1201" => 0x4e,
        other => panic!("no EF_AMDGPU_MACH known for {other}"),
    }
}

/// (explicit kernarg bytes are documented in the README; these are the descriptor's totals)
fn expected_sizes(kernel: &str) -> (u32, u32) {
    // (kernarg_size, group_segment_fixed_size)
    match kernel {
        "vector_add" | "saxpy" => (288, 0),
        "fill" => (280, 0),
        "block_sum" => (20, 1024),
        other => panic!("unknown kernel {other}"),
    }
}

struct Elf<'a> {
    data: &'a [u8],
}

#[derive(Debug)]
struct Symbol {
    name: String,
    value: u64,
    size: u64,
    kind: u8,
    bind: u8,
}

impl<'a> Elf<'a> {
    fn u16(&self, at: usize) -> u16 {
        u16::from_le_bytes(self.data[at..at + 2].try_into().unwrap())
    }
    fn u32(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.data[at..at + 4].try_into().unwrap())
    }
    fn u64(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.data[at..at + 8].try_into().unwrap())
    }

    /// (type, offset, size, link, entsize) of each section header.
    fn sections(&self) -> Vec<(u32, usize, usize, u32, usize)> {
        let shoff = self.u64(0x28) as usize;
        let shentsize = self.u16(0x3a) as usize;
        let shnum = self.u16(0x3c) as usize;
        (0..shnum)
            .map(|i| {
                let h = shoff + i * shentsize;
                (
                    self.u32(h + 4),
                    self.u64(h + 0x18) as usize,
                    self.u64(h + 0x20) as usize,
                    self.u32(h + 0x28),
                    self.u64(h + 0x38) as usize,
                )
            })
            .collect()
    }

    /// Symbols of `.dynsym` (SHT_DYNSYM = 11), names from its linked string table.
    fn dynamic_symbols(&self) -> Vec<Symbol> {
        let sections = self.sections();
        let (_, off, size, link, entsize) = *sections.iter().find(|s| s.0 == 11).expect("a .dynsym section");
        let strtab = sections[link as usize].1;
        (1..size / entsize)
            .map(|i| {
                let s = off + i * entsize;
                let name_off = strtab + self.u32(s) as usize;
                let end = self.data[name_off..].iter().position(|&b| b == 0).unwrap() + name_off;
                Symbol {
                    name: String::from_utf8_lossy(&self.data[name_off..end]).into_owned(),
                    value: self.u64(s + 8),
                    size: self.u64(s + 16),
                    kind: self.data[s + 4] & 0xf,
                    bind: self.data[s + 4] >> 4,
                }
            })
            .collect()
    }

    /// File offset of a virtual address, through the PT_LOAD program headers.
    fn offset_of(&self, vaddr: u64) -> usize {
        let phoff = self.u64(0x20) as usize;
        let phentsize = self.u16(0x36) as usize;
        for i in 0..self.u16(0x38) as usize {
            let h = phoff + i * phentsize;
            let (kind, offset, va, filesz) = (self.u32(h), self.u64(h + 8), self.u64(h + 16), self.u64(h + 32));
            if kind == 1 && va <= vaddr && vaddr < va + filesz {
                return (offset + (vaddr - va)) as usize;
            }
        }
        panic!("address 0x{vaddr:x} is not in a PT_LOAD segment");
    }
}

#[test]
fn every_kernel_exists_for_every_target_as_an_amdgpu_code_object() {
    let dir = repo_root().join("fixtures").join("kernels");
    let mut checked = 0;
    for target in TARGETS.iter() {
        for kernel in KERNELS {
            let path = dir.join(format!("{kernel}-{target}.co"));
            let data =
                fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask fixtures`)", path.display()));
            let elf = Elf { data: &data };
            assert_eq!(&data[..4], b"\x7fELF", "{}", path.display());
            assert_eq!(data[4], 2, "{}: ELFCLASS64", path.display());
            assert_eq!(data[5], 1, "{}: little-endian", path.display());
            assert_eq!(data[7], 64, "{}: EI_OSABI must be ELFOSABI_AMDGPU_HSA", path.display());
            assert_eq!(data[8], 3, "{}: EI_ABIVERSION 3 = code object v5", path.display());
            assert_eq!(elf.u16(0x10), 3, "{}: ET_DYN", path.display());
            assert_eq!(elf.u16(0x12), 224, "{}: EM_AMDGPU", path.display());
            let flags = elf.u32(0x30);
            assert_eq!(flags & 0xff, expected_mach(target), "{}: e_flags 0x{flags:x}", path.display());
            // gfx9 objects are built for xnack "any" and sramecc "any" so they load on every
            // feature variant; gfx10+ have neither feature.
            let features = if target.starts_with("gfx9") { 0x500 } else { 0 };
            assert_eq!(flags & 0xf00, features, "{}: xnack/sramecc bits of e_flags 0x{flags:x}", path.display());
            let needle = format!("amdgcn-amd-amdhsa--{target}");
            assert!(
                data.windows(needle.len()).any(|w| w == needle.as_bytes()),
                "{}: metadata note lacks {needle}",
                path.display()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, TARGETS.len() * KERNELS.len());
}

#[test]
fn kernel_descriptors_match_the_documented_sizes_and_point_at_the_code() {
    let dir = repo_root().join("fixtures").join("kernels");
    for target in TARGETS.iter() {
        for kernel in KERNELS {
            let path = dir.join(format!("{kernel}-{target}.co"));
            let data = fs::read(&path).unwrap();
            let elf = Elf { data: &data };
            let symbols = elf.dynamic_symbols();
            let kd_name = format!("{kernel}.kd");
            let kd = symbols
                .iter()
                .find(|s| s.name == kd_name)
                .unwrap_or_else(|| panic!("{}: no {kd_name} in {symbols:?}", path.display()));
            assert_eq!(
                (kd.kind, kd.bind, kd.size),
                (1, 1, 64),
                "{}: {kd_name} must be a global 64-byte STT_OBJECT",
                path.display()
            );
            assert_eq!(kd.value % 64, 0, "{}: descriptor alignment", path.display());
            let code = symbols
                .iter()
                .find(|s| s.name == *kernel)
                .unwrap_or_else(|| panic!("{}: no {kernel} function symbol", path.display()));
            assert_eq!(code.kind, 2, "{}: {kernel} must be STT_FUNC", path.display());

            let d = elf.offset_of(kd.value);
            let group = elf.u32(d);
            let private = elf.u32(d + 4);
            let kernarg = elf.u32(d + 8);
            let entry = elf.u64(d + 16) as i64;
            let properties = elf.u16(d + 56);
            assert_eq!((kernarg, group), expected_sizes(kernel), "{}: descriptor kernarg/group sizes", path.display());
            assert_eq!(private, 0, "{}: private segment", path.display());
            assert_eq!(
                kd.value as i64 + entry,
                code.value as i64,
                "{}: entry offset must reach {kernel}",
                path.display()
            );
            let wave32 = properties & (1 << 10) != 0;
            assert_eq!(
                wave32,
                !target.starts_with("gfx9"),
                "{}: wavefront32 bit of kernel_code_properties 0x{properties:x}",
                path.display()
            );
        }
    }
}

#[test]
fn kernels_readme_lists_every_source_and_target() {
    let dir = repo_root().join("fixtures").join("kernels");
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    for kernel in KERNELS {
        assert!(dir.join(format!("{kernel}.cl")).is_file(), "{kernel}.cl missing");
        assert!(readme.contains(&format!("`{kernel}.cl`")), "README does not describe {kernel}.cl");
    }
    for target in TARGETS.iter() {
        assert!(readme.contains(target), "README does not mention {target}");
    }
}

/// The same compile and link steps as `cargo xtask fixtures` (`xtask/src/fixtures.rs`).
fn rebuild_with(clang: &str, lld: &str, kernel: &str, target: &str, out_dir: &std::path::Path) -> Vec<u8> {
    use std::process::Command;
    let source = repo_root().join("fixtures").join("kernels").join(format!("{kernel}.cl"));
    let object = out_dir.join(format!("{kernel}-{target}.o"));
    let linked = out_dir.join(format!("{kernel}-{target}.co"));
    let st = Command::new(clang)
        .args(["-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "--target=amdgcn-amd-amdhsa", "-nogpulib", "-O2"])
        .arg(format!("-mcpu={target}"))
        .arg("-mcode-object-version=5")
        .arg("-c")
        .arg(&source)
        .arg("-o")
        .arg(&object)
        .status()
        .expect("running clang");
    assert!(st.success(), "{clang} failed on {kernel} for {target}");
    let st = Command::new(lld).arg("-shared").arg(&object).arg("-o").arg(&linked).status().expect("running ld.lld");
    assert!(st.success(), "{lld} failed on {kernel} for {target}");
    fs::read(&linked).unwrap()
}

#[test]
fn committed_code_objects_match_their_sources_when_clang_19_is_installed() {
    let test = "committed_code_objects_match_their_sources";
    let Some(clang) = rocprof_test_inputs::program(test, "/usr/bin/clang-19", "clang-19") else { return };
    let Some(lld) = rocprof_test_inputs::program(test, "/usr/bin/ld.lld-19", "lld-19") else { return };
    let (clang, lld) = (clang.to_str().expect("a UTF-8 path"), lld.to_str().expect("a UTF-8 path"));
    // gfx950 is built with a newer LLVM (see the README); every other target with Debian's 19.
    let out_dir = crate::support::temp_dir("rebuild-kernels");
    let dir = repo_root().join("fixtures").join("kernels");
    let mut stale = Vec::new();
    for target in TARGETS.iter().filter(|t| **t != "gfx950") {
        for kernel in KERNELS {
            let rebuilt = rebuild_with(clang, lld, kernel, target, &out_dir);
            if fs::read(dir.join(format!("{kernel}-{target}.co"))).unwrap() != rebuilt {
                stale.push(format!("{kernel}-{target}.co"));
            }
        }
    }
    let _ = fs::remove_dir_all(&out_dir);
    assert!(
        stale.is_empty(),
        "committed code objects differ from their sources, run `cargo xtask fixtures`: {stale:?}"
    );
}
