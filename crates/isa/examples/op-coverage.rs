//! `op-coverage [PREFIX]`: per target, how many opcode-table entries (LLVM 21's) the interpreter does
//! not execute (`Op::Unimplemented`), optionally only those whose mnemonic starts with PREFIX, and with
//! `-v` their names.

use rocprof_isa::{op::Op, table::table, TARGETS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let prefix = args.iter().find(|a| *a != "-v").map_or("", String::as_str);
    for t in TARGETS {
        let tab = table(t.table).expect("table");
        let entries: Vec<_> = tab.entries().filter(|(_, _, e)| e.name.starts_with(prefix)).collect();
        let missing: Vec<&str> =
            entries.iter().filter(|(_, _, e)| matches!(e.op, Op::Unimplemented)).map(|(_, _, e)| e.name).collect();
        println!("{}: {} of {} entries unimplemented", t.name, missing.len(), entries.len());
        if verbose {
            println!("  {}", missing.join(" "));
        }
    }
}
