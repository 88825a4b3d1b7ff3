//! Writes the list of opcode tables to compile in: one per table a target of the targets crate names
//! (`Target::table`), so adding a target there is all it takes (with its `tables/<table>.txt`).

use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut names: Vec<&str> = Vec::new();
    for t in rocprof_targets::TARGETS {
        if !names.contains(&t.table) {
            names.push(t.table);
        }
    }
    let mut out = String::from("tables!(");
    for (i, name) in names.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        write!(out, "{sep}{name:?}").expect("writing to a String");
    }
    out.push_str(");\n");
    let path = std::path::Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("tables.rs");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
