//! The MessagePack reader against encodings from the MessagePack specification, and the kernel
//! argument layouts against `llvm-readelf-19 --notes` on real code objects (the fixtures, and
//! OpenCL kernels with printf, by-value structs, LDS pointers and no arguments compiled by clang-19
//! for code object v4, v5 and v6).

use super::*;
use std::path::Path;
use std::process::Command;

#[test]
fn msgpack_values_decode_as_the_specification_encodes_them() {
    let cases: Vec<(&[u8], Value)> = vec![
        (&[0x07], Value::Uint(7)),
        (&[0x7f], Value::Uint(127)),
        (&[0xff], Value::Int(-1)),
        (&[0xe0], Value::Int(-32)),
        (&[0xc0], Value::Nil),
        (&[0xc2], Value::Bool(false)),
        (&[0xc3], Value::Bool(true)),
        (&[0xcc, 0xc8], Value::Uint(200)),
        (&[0xcd, 0x01, 0x20], Value::Uint(288)),
        (&[0xce, 0x00, 0x01, 0x00, 0x00], Value::Uint(65536)),
        (&[0xcf, 0, 0, 0, 1, 0, 0, 0, 2], Value::Uint((1 << 32) + 2)),
        (&[0xd0, 0x80], Value::Int(-128)),
        (&[0xd1, 0xff, 0x00], Value::Int(-256)),
        (&[0xd2, 0xff, 0xff, 0xff, 0xfe], Value::Int(-2)),
        (&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0], Value::Int(i64::MIN)),
        (&[0xca, 0x3f, 0xc0, 0x00, 0x00], Value::Float(1.5)),
        (&[0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18], Value::Float(std::f64::consts::PI)),
        (&[0xa3, b'a', b'b', b'c'], Value::Str("abc".into())),
        (&[0xd9, 0x02, b'h', b'i'], Value::Str("hi".into())),
        (&[0xda, 0x00, 0x01, b'x'], Value::Str("x".into())),
        (&[0xdb, 0, 0, 0, 0], Value::Str(String::new())),
        (&[0xc4, 0x02, 0xde, 0xad], Value::Bin(vec![0xde, 0xad])),
        (&[0xd4, 0x05, 0x11], Value::Ext(5, vec![0x11])),
        (&[0xc7, 0x01, 0xfe, 0x22], Value::Ext(-2, vec![0x22])),
        (&[0x92, 0x01, 0xa1, b'z'], Value::Array(vec![Value::Uint(1), Value::Str("z".into())])),
        (&[0xdc, 0x00, 0x01, 0xc3], Value::Array(vec![Value::Bool(true)])),
        (&[0x81, 0xa1, b'k', 0x05], Value::Map(vec![(Value::Str("k".into()), Value::Uint(5))])),
        (&[0xde, 0x00, 0x01, 0x01, 0x02], Value::Map(vec![(Value::Uint(1), Value::Uint(2))])),
    ];
    for (bytes, want) in cases {
        assert_eq!(decode(bytes), Some(want), "{bytes:02x?}");
    }
}

#[test]
fn malformed_msgpack_gives_none_without_panicking() {
    for bad in [&[][..], &[0xc1], &[0xa3, b'a'], &[0xcd, 0x01], &[0x92, 0x01], &[0xdd, 0xff, 0xff, 0xff, 0xff]] {
        assert_eq!(decode(bad), None, "{bad:02x?}");
    }
    // Invalid UTF-8 in a string.
    assert_eq!(decode(&[0xa1, 0xff]), None);
    // Nesting past the limit.
    let deep = vec![0x91u8; 10_000];
    assert_eq!(decode(&deep), None);
}

/// Per kernel symbol: the segment size and the `(offset, size, value_kind)` of every argument, as
/// `llvm-readelf --notes` prints the metadata (YAML).
fn readelf_kernels(readelf: &Path, co: &Path) -> Vec<Kernel> {
    let out = Command::new(readelf).arg("--notes").arg(co).output().expect("llvm-readelf runs");
    assert!(out.status.success(), "llvm-readelf --notes {}", co.display());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut kernels: Vec<Kernel> = Vec::new();
    let (mut in_kernels, mut in_args) = (false, false);
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent == 0 {
            in_kernels = line.starts_with("amdhsa.kernels:");
        }
        if !in_kernels {
            continue;
        }
        let t = line.trim_start();
        let (item, t) = match t.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let key_indent = indent + if item { 2 } else { 0 };
        let Some((key, value)) = t.split_once(':') else { continue };
        let value = value.trim().trim_matches('\'').trim_matches('"');
        if key_indent == 4 {
            if item {
                kernels.push(Kernel { symbol: String::new(), kernarg_segment_size: 0, args: Vec::new() });
            }
            in_args = key == ".args";
            let k = kernels.last_mut().expect("a kernel entry");
            match key {
                ".symbol" => k.symbol = value.to_string(),
                ".kernarg_segment_size" => k.kernarg_segment_size = value.parse().expect("a number"),
                _ => {}
            }
        } else if key_indent == 8 && in_args {
            let args = &mut kernels.last_mut().expect("a kernel entry").args;
            if item {
                args.push(Arg { offset: 0, size: 0, value_kind: String::new() });
            }
            let a = args.last_mut().expect("an argument entry");
            match key {
                ".offset" => a.offset = value.parse().expect("a number"),
                ".size" => a.size = value.parse().expect("a number"),
                ".value_kind" => a.value_kind = value.to_string(),
                _ => {}
            }
        }
    }
    kernels
}

fn check_against_readelf(readelf: &Path, co: &Path) -> usize {
    let bytes = std::fs::read(co).unwrap();
    let ours = kernels(&bytes).unwrap_or_else(|| panic!("{}: no metadata decoded", co.display()));
    let theirs = readelf_kernels(readelf, co);
    assert!(!theirs.is_empty(), "{}: llvm-readelf shows kernels", co.display());
    assert_eq!(ours, theirs, "{}", co.display());
    ours.len()
}

#[test]
fn kernel_arguments_match_llvm_readelf_on_the_fixture_code_objects() {
    let test = "kernel_arguments_match_llvm_readelf_on_the_fixture_code_objects";
    let Some(readelf) = rocprof_test_inputs::program(test, "llvm-readelf-19", "llvm-19") else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "co") {
            n += check_against_readelf(&readelf, &p);
        }
    }
    assert!(n >= 28, "4 kernels on 7 targets, got {n}");
}

#[test]
fn kernel_arguments_match_llvm_readelf_with_printf_structs_and_lds_on_code_object_v4_to_v6() {
    let test = "kernel_arguments_match_llvm_readelf_with_printf_structs_and_lds_on_code_object_v4_to_v6";
    let Some(readelf) = rocprof_test_inputs::program(test, "llvm-readelf-19", "llvm-19") else { return };
    let Some(clang) = rocprof_test_inputs::program(test, "clang-19", "clang-19") else { return };
    let dir = std::env::temp_dir().join(format!("rocprof-kernel-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.cl");
    std::fs::write(
        &src,
        r#"typedef struct { int a; char b; double c; } S;
kernel void with_printf(global int *out, S s, local float *tile, int n) {
  int l = __builtin_amdgcn_workitem_id_x();
  int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + l;
  tile[l] = s.c;
  __builtin_amdgcn_s_barrier();
  if (i < n) out[i] = s.a + s.b + (int)tile[0];
  if (i == 0) printf("n=%d\n", n);
}
kernel void no_args(void) {}
kernel void plain(global float *p, char c, long l) { p[__builtin_amdgcn_workitem_id_x()] = c + l; }
"#,
    )
    .unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for v in [4, 5, 6] {
        let co = dir.join(format!("k{v}.o"));
        let st = Command::new(&clang)
            .args([
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-target",
                "amdgcn-amd-amdhsa",
                "-mcpu=gfx90a",
                "-nogpulib",
                "-O2",
                "-c",
            ])
            .arg(format!("-mcode-object-version={v}"))
            .arg(&src)
            .arg("-o")
            .arg(&co)
            .output()
            .expect("clang-19 runs");
        assert!(st.status.success(), "clang-19: {}", String::from_utf8_lossy(&st.stderr));
        assert_eq!(check_against_readelf(&readelf, &co), 3, "code object v{v}");
        let bytes = std::fs::read(&co).unwrap();
        for k in kernels(&bytes).unwrap() {
            kinds.extend(k.args.into_iter().map(|a| a.value_kind));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    for k in ["by_value", "dynamic_shared_pointer", "hidden_printf_buffer", "hidden_completion_action"] {
        assert!(kinds.contains(k), "{k} among {kinds:?}");
    }
}

/// The declared ranges merge touching arguments and leave the padding out; an argument past the
/// segment voids the metadata.
#[test]
fn declared_ranges_merge_adjacent_arguments_and_skip_padding() {
    let arg = |offset, size| Arg { offset, size, value_kind: "by_value".into() };
    let k = Kernel {
        symbol: "k.kd".into(),
        kernarg_segment_size: 288,
        args: vec![arg(0, 8), arg(8, 8), arg(24, 4), arg(32, 4), arg(36, 2), arg(72, 8), arg(96, 2)],
    };
    assert_eq!(k.declared(), Some(vec![(0, 16), (24, 28), (32, 38), (72, 80), (96, 98)]));
    let bad = Kernel { args: vec![arg(0, 8), arg(284, 8)], ..k };
    assert_eq!(bad.declared(), None);
}
