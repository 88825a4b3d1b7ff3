//! Hand-written gfx90a loop kernels shared by the tests of the interpreter's loop paths (`fused_tails`,
//! `valu_blocks`): the kernel as parts of source lines with their sizes and classes, each part run a number
//! of times, and a one-workgroup dispatch of it.

use rocprof_isa::{Dispatch, FlatMemory, InstClass};

use crate::classes::gfx90a_dispatch;

/// Where the kernels store their results (64 lanes x 4 dwords).
pub(crate) const OUT: u64 = 0x3000_0000;

/// A source line, its size in bytes and its class.
pub(crate) type Line = (&'static str, u64, InstClass);

/// The source text of `parts` (each `(lines, repeat)`; a label `loop<k>` before the `k`-th part run more
/// than once) and, per executed instruction in order, its offset and class (the last iteration's branch not
/// taken).
pub(crate) fn source_and_trace(parts: &[(Vec<Line>, u64)]) -> (String, Vec<(i64, InstClass)>) {
    let mut text = String::new();
    let mut trace = Vec::new();
    let mut offset = 0i64;
    let mut label = 0;
    for (lines, repeat) in parts {
        let repeat = *repeat;
        if repeat > 1 {
            label += 1;
            text.push_str(&format!("loop{label}:\n"));
        }
        let mut offsets = Vec::new();
        for &(line, size, class) in lines {
            text.push_str(&format!("    {line}\n"));
            offsets.push((offset, class));
            offset += size as i64;
        }
        for r in 0..repeat {
            for &(o, class) in &offsets {
                let class =
                    if class == InstClass::BranchTaken && r == repeat - 1 { InstClass::BranchNotTaken } else { class };
                trace.push((o, class));
            }
        }
    }
    (text, trace)
}

/// The bytes `parts` take (to check against what llvm-mc assembled).
pub(crate) fn size(parts: &[(Vec<Line>, u64)]) -> u64 {
    parts.iter().flat_map(|p| p.0.iter()).map(|l| l.1).sum()
}

/// A one-workgroup dispatch of `items` work-items (one wave64: EXEC has `items` lanes) with `OUT` mapped.
pub(crate) fn dispatch_and_memory(code: &[u8], items: u32) -> (Dispatch, FlatMemory) {
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
    kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
    let (d, mut mem) = gfx90a_dispatch(&kd, code, OUT, [items, 1, 1], [items, 1, 1], 0);
    mem.map(OUT, &[0; 64 * 16]);
    (d, mem)
}
