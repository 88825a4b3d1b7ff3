//! Cross-check of the decoder with LLVM 19's disassembler (`llvm-objdump-19`, Debian package llvm-19):
//! every instruction LLVM finds in a code object must decode here to the same mnemonic and size.
//! Corpus: the fixtures' code objects (seven targets) and, when installed, rocRAND's gfx90a and gfx1030
//! code objects (Debian's librocrand, a large real library: tens of thousands of instructions).

use std::path::Path;
use std::process::Command;

use rocprof_isa::{decode, CodeObject, Target};

const OBJDUMP: &str = "llvm-objdump-19";

/// LLVM's mnemonic without the encoding suffix.
fn base(m: &str) -> &str {
    for s in ["_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp8", "_dpp"] {
        if let Some(b) = m.strip_suffix(s) {
            return b;
        }
    }
    m
}

/// (address, mnemonic, size) of every instruction llvm-objdump prints.
fn llvm_lines(path: &Path, mcpu: &str) -> Vec<(u64, String, usize)> {
    let out = Command::new(OBJDUMP).args(["-d", &format!("--mcpu={mcpu}")]).arg(path).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut v = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix('\t') else { continue };
        let Some((inst, comment)) = rest.split_once("// ") else { continue };
        let Some((addr, words)) = comment.split_once(':') else { continue };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else { continue };
        let words: Vec<&str> =
            words.split_whitespace().take_while(|w| w.len() == 8 && w.chars().all(|c| c.is_ascii_hexdigit())).collect();
        let mnemonic = inst.split_whitespace().next().unwrap_or("").to_string();
        if mnemonic.is_empty() || words.is_empty() {
            continue;
        }
        v.push((addr, mnemonic, 4 * words.len()));
    }
    v
}

fn objdump_available(test: &str) -> bool {
    if Command::new(OBJDUMP).arg("--version").output().is_ok() {
        return true;
    }
    rocprof_test_inputs::skip_or_fail(test, format!("{OBJDUMP} not found (Debian package llvm-19)"));
    false
}

/// Checks every instruction of the code object at `path`; returns how many were compared.
fn check(path: &Path, elf: &[u8], mismatches: &mut Vec<String>) -> usize {
    let obj = CodeObject::parse(elf).expect("code object parses");
    let target: &Target = obj.target.expect("known target");
    // A generic object is disassembled by LLVM for its generic processor and decoded here with the
    // target `CodeObject::parse` chose for it.
    let mcpu = match obj.generic {
        Some(g) => g.name,
        None if target.name == "gfx950" => return 0,
        None => target.name,
    };
    let lines = llvm_lines(path, mcpu);
    assert!(!lines.is_empty(), "{}: llvm-objdump printed no instructions", path.display());
    for (addr, mnemonic, size) in &lines {
        let bytes = &obj.image[*addr as usize..(*addr as usize + 16).min(obj.image.len())];
        let what = format!("{} {mcpu} @{addr:#x} {mnemonic}", path.display());
        match decode(target, bytes) {
            Ok(i) => {
                if i.name != base(mnemonic) || usize::from(i.size) != *size {
                    mismatches.push(format!("{what}: decoded {} ({} bytes), LLVM {size} bytes", i.name, i.size));
                }
            }
            // `v_illegal` is LLVM's name for an encoding that raises an illegal-instruction trap; the
            // interpreter reports it as undecodable, which is what matters, with the right size.
            Err(rocprof_isa::DecodeError::UnknownOpcode { size: 4, .. }) if mnemonic == "v_illegal" && *size == 4 => {}
            Err(e) => mismatches.push(format!("{what}: {e}")),
        }
    }
    lines.len()
}

#[test]
fn fixture_code_objects_decode_like_llvm() {
    if !objdump_available("fixture_code_objects_decode_like_llvm") {
        return;
    }
    let dir = crate::harness::repo().join("fixtures/kernels");
    let mut n = 0;
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "co") {
            n += check(&p, &std::fs::read(&p).unwrap(), &mut bad);
        }
    }
    assert!(n > 500, "only {n} instructions compared");
    assert!(
        bad.is_empty(),
        "{} of {n} instructions differ from LLVM:\n{}",
        bad.len(),
        bad[..bad.len().min(40)].join("\n")
    );
    println!("\nllvm cross-check: {n} fixture instructions identical to llvm-objdump-19");
}

/// The code objects inside a host library's `.hip_fatbin` (clang offload bundles), by target name.
fn bundled_code_objects(lib: &[u8]) -> Vec<(String, Vec<u8>)> {
    const MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
    let u64_at = |o: usize| u64::from_le_bytes(lib[o..o + 8].try_into().unwrap()) as usize;
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(i) = lib[pos..].windows(MAGIC.len()).position(|w| w == MAGIC).map(|k| k + pos) {
        let mut p = i + MAGIC.len();
        let count = u64_at(p);
        p += 8;
        for _ in 0..count.min(64) {
            let (off, size, tl) = (u64_at(p), u64_at(p + 8), u64_at(p + 16));
            p += 24;
            let triple = String::from_utf8_lossy(&lib[p..p + tl]).into_owned();
            p += tl;
            if triple.contains("gfx") && i + off + size <= lib.len() {
                out.push((triple, lib[i + off..i + off + size].to_vec()));
            }
        }
        pos = i + 1;
    }
    out
}

#[test]
fn rocrand_code_objects_decode_like_llvm() {
    if !objdump_available("rocrand_code_objects_decode_like_llvm") {
        return;
    }
    let lib = Path::new("/usr/lib/x86_64-linux-gnu/librocrand.so.1");
    let Ok(bytes) = std::fs::read(lib) else {
        rocprof_test_inputs::skip_or_fail("rocrand_code_objects_decode_like_llvm", "librocrand1 is not installed");
        return;
    };
    let tmp = crate::harness::repo().join("target/isa-llvm-check");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut n = 0;
    let mut bad = Vec::new();
    for (triple, co) in bundled_code_objects(&bytes) {
        // One object per processor is enough (the xnack variants hold the same instruction mix).
        if !(triple.ends_with("gfx90a:xnack-") || triple.ends_with("gfx1030")) {
            continue;
        }
        let p = tmp.join(format!("{}.co", triple.rsplit("--").next().unwrap().replace(':', "_")));
        std::fs::write(&p, &co).unwrap();
        n += check(&p, &co, &mut bad);
    }
    assert!(n > 10_000, "only {n} rocRAND instructions compared");
    assert!(
        bad.is_empty(),
        "{} of {n} instructions differ from LLVM:\n{}",
        bad.len(),
        bad[..bad.len().min(40)].join("\n")
    );
    println!("\nllvm cross-check: {n} rocRAND instructions identical to llvm-objdump-19");
}

/// A generic code object (clang-19 `-mcpu=gfx11-generic`, code object v6, as Debian's rocSOLVER ships
/// for RDNA3): `CodeObject::parse` names its generic processor and decodes it with gfx1100's tables,
/// instruction for instruction as llvm-objdump-19 disassembles it for gfx11-generic; its vector_add
/// then computes c = a + b (host sums) on the interpreter.
#[test]
fn generic_code_objects_name_their_processor_and_decode_like_llvm() {
    let test = "generic_code_objects_name_their_processor_and_decode_like_llvm";
    if !objdump_available(test) {
        return;
    }
    let Some(clang) = rocprof_test_inputs::program(test, "clang-19", "clang-19") else { return };
    let Some(lld) = rocprof_test_inputs::program(test, "ld.lld-19", "lld-19") else { return };
    let repo = crate::harness::repo();
    let dir = repo.join("target/isa-llvm-check/generic");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut n, mut bad) = (0, Vec::new());
    for kernel in ["vector_add", "saxpy", "fill", "block_sum"] {
        let (object, co) = (dir.join(format!("{kernel}.o")), dir.join(format!("{kernel}-gfx11-generic.co")));
        let out = Command::new(&clang)
            .args(["-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "--target=amdgcn-amd-amdhsa", "-nogpulib", "-O2"])
            .args(["-mcpu=gfx11-generic", "-mcode-object-version=6", "-c"])
            .arg(repo.join(format!("fixtures/kernels/{kernel}.cl")))
            .arg("-o")
            .arg(&object)
            .output()
            .unwrap();
        assert!(out.status.success(), "clang-19 {kernel}: {}", String::from_utf8_lossy(&out.stderr));
        let out = Command::new(&lld).arg("-shared").arg(&object).arg("-o").arg(&co).output().unwrap();
        assert!(out.status.success(), "ld.lld-19 {kernel}: {}", String::from_utf8_lossy(&out.stderr));
        let elf = std::fs::read(&co).unwrap();
        // LLVM's EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC (0x054) with generic version 1.
        assert_eq!(u32::from_le_bytes(elf[48..52].try_into().unwrap()), 0x0100_0054, "{kernel}");
        let obj = CodeObject::parse(&elf).expect("parses");
        assert_eq!(obj.generic.map(|g| g.name), Some("gfx11-generic"), "{kernel}");
        assert_eq!(obj.target.map(|t| t.name), Some("gfx1100"), "{kernel}");
        n += check(&co, &elf, &mut bad);
    }
    assert!(n > 50, "only {n} instructions compared");
    assert!(bad.is_empty(), "{} of {n} instructions differ from LLVM:\n{}", bad.len(), bad.join("\n"));

    use crate::harness::{f32_bytes, kernarg_v5, load, DATA};
    let k = load(&std::fs::read(dir.join("vector_add-gfx11-generic.co")).unwrap(), "vector_add");
    let count = 300u32;
    let (a, b): (Vec<f32>, Vec<f32>) = (0..count).map(|i| (i as f32, 0.25 * i as f32)).unzip();
    let (pa, pb, pc) = (DATA, DATA + 0x10_0000, DATA + 0x20_0000);
    k.mem.map(pa, f32_bytes(&a));
    k.mem.map(pb, f32_bytes(&b));
    k.mem.map(pc, vec![0; 4 * count as usize]);
    let mut args: Vec<u8> = [pa, pb, pc].iter().flat_map(|p| p.to_le_bytes()).collect();
    args.extend_from_slice(&count.to_le_bytes());
    let (grid, wg) = ([320, 1, 1], [64, 1, 1]);
    let d = k.dispatch(grid, wg, 0, kernarg_v5(&args, grid, wg));
    k.run(&d, 1).expect("runs");
    let c = k.read_f32(pc, count as usize);
    for i in 0..count as usize {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
    println!("\nllvm cross-check: {n} gfx11-generic instructions identical to llvm-objdump-19");
}
