//! Prints how the decoder sees a code object's `.text`: one line per instruction with its
//! address, size, issue class, branch offset and stand-in text. `sqtt-isa FAMILY CODE.elf`
//! (FAMILY: a target such as gfx1100, gfx1201 or gfx950).

use rocprof_sqtt::isa::class_text;
use rocprof_sqtt::{CodeObject, Family};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(target), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: sqtt-isa FAMILY CODE.elf");
        std::process::exit(2);
    };
    let Some(family) = Family::from_target(target) else {
        eprintln!("sqtt-isa: error: unknown target {target}");
        std::process::exit(2);
    };
    let elf = match std::fs::read(path) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("sqtt-isa: error: reading {path}: {e}");
            std::process::exit(1);
        }
    };
    let code = match CodeObject::from_elf(family, &elf, 0) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sqtt-isa: error: {path}: {e}");
            std::process::exit(1);
        }
    };
    let prog = code.program();
    for i in 0..prog.len() {
        let (pc, info) = prog.line(i);
        println!("{pc} {} {:?} {} {}", info.size, info.class, info.simm16, class_text(&info));
    }
}
