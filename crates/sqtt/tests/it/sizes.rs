//! The instruction sweep (rocprof-isa's decode) starts an instruction at every address LLVM's
//! disassembler does on the corpus code objects, with LLVM's size (`code.disasm.json`: `llvm-mc`'s
//! disassembly that AMD's decoder was given), and the few mnemonic facts the walker reads agree with
//! LLVM's text.

use crate::corpus::{corpus_root, examples};
use rocprof_sqtt::isa::{flags, LineClass};
use serde_json::Value;

#[test]
fn sweep_matches_llvm_disassembly_of_the_corpus_code_objects() {
    let Some(root) = corpus_root("sweep_matches_llvm_disassembly_of_the_corpus_code_objects") else { return };
    let mut compared = 0;
    for ex in examples(&root) {
        let Ok(text) = std::fs::read_to_string(ex.dir.join("code.disasm.json")) else { continue };
        let lines: Vec<Value> = serde_json::from_str(&text).expect("code.disasm.json is JSON");
        let code = ex.code();
        let program = code.program();
        for l in &lines {
            let pc = l["pc"].as_u64().unwrap();
            let size = l["size"].as_u64().unwrap();
            let text = l["text"].as_str().unwrap();
            let mnemonic = text.split_whitespace().next().unwrap_or("");
            let at = code.load_base() + pc;
            let i = program.line_at(at).unwrap_or_else(|| panic!("{} {pc:#x} {text}: no line", ex.name));
            let (_, info) = program.line(i);
            assert_eq!(u64::from(info.size), size, "{} {pc:#x} {text}", ex.name);
            let facts = (
                info.flags & flags::WAITCNT != 0,
                info.flags & flags::ENDPGM != 0,
                info.class == LineClass::Branch,
                info.class == LineClass::Valu || info.class == LineClass::VMovB64 || info.class == LineClass::MfmaScale,
            );
            let expected = (
                mnemonic.starts_with("s_waitcnt"),
                mnemonic == "s_endpgm",
                mnemonic.starts_with("s_branch") || mnemonic.starts_with("s_cbranch"),
                mnemonic.starts_with("v_"),
            );
            assert_eq!(facts, expected, "{} {pc:#x} {text}: {info:?}", ex.name);
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}
