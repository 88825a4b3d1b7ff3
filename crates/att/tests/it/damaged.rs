//! Damaged inputs: typed errors that name the file and the byte offset, never a panic.

use rocprof_att::{decode_captures, discover, Backend, Error};

use crate::support::{copy_dir, scratch};

fn first_error(dir: &std::path::Path) -> Error {
    let captures = discover(dir).unwrap();
    decode_captures(captures, &Backend::Native, 1, &|| {}).into_iter().find_map(|r| r.err()).expect("an error")
}

#[test]
fn truncated_and_corrupt_traces_are_typed_errors_with_file_and_offset() {
    let Some(root) = rocprof_test_inputs::shared("truncated_and_corrupt_traces", "conformance/sqtt") else { return };
    // Truncated: 100 bytes cut off the end of gfx1100/gemm se0 (not a whole 32-byte unit).
    let d = scratch("att-truncated");
    copy_dir(&root.join("gfx1100/gemm"), &d);
    let se0 = d.join("se0.att");
    let bytes = std::fs::read(&se0).unwrap();
    std::fs::write(&se0, &bytes[..bytes.len() - 100]).unwrap();
    let e = first_error(&d);
    assert!(matches!(e, Error::Truncated { .. }), "{e:?}");
    let msg = e.to_string();
    let whole = (bytes.len() - 100) / 32 * 32;
    assert!(msg.contains("se0.att") && msg.contains(&format!("byte offset {whole}")), "{msg}");

    // Corrupt: a byte of unknown RDNA type bits (0x07) in the middle of gfx1200/gemm se1.
    let d = scratch("att-corrupt");
    copy_dir(&root.join("gfx1200/gemm"), &d);
    let se1 = d.join("se1.att");
    let mut bytes = std::fs::read(&se1).unwrap();
    let at = bytes.len() / 2;
    bytes[at..at + 32].fill(0x77);
    std::fs::write(&se1, &bytes).unwrap();
    let e = first_error(&d);
    let Error::Corrupt { path, error } = &e else { panic!("{e:?}") };
    assert!(path.ends_with("se1.att"));
    assert!(error.offset as usize >= at.saturating_sub(16) && (error.offset as usize) < at + 32, "{e}");
    assert!(e.to_string().contains("byte offset"), "{e}");

    // Not a trace at all: no RDNA layout header and no gfx9 header version.
    let d = scratch("att-garbage");
    copy_dir(&root.join("gfx950/plus"), &d);
    std::fs::write(d.join("se3.att"), [0u8; 64 + 8]).unwrap();
    let e = first_error(&d);
    assert!(matches!(&e, Error::Corrupt { path, error } if path.ends_with("se3.att") && error.offset == 0), "{e:?}");

    // A code object that is not an ELF file.
    let d = scratch("att-bad-elf");
    copy_dir(&root.join("gfx950/plus"), &d);
    std::fs::write(d.join("code.elf"), b"not an elf").unwrap();
    let e = first_error(&d);
    assert!(matches!(&e, Error::CodeObject { path, .. } if path.ends_with("code.elf")), "{e:?}");
}

#[test]
fn an_empty_directory_says_what_it_expected() {
    let d = scratch("att-empty");
    let e = discover(&d).unwrap_err();
    assert!(e.to_string().contains("no thread-trace files found"), "{e}");
}
