//! The per-instruction view of a decoded dispatch: every instruction of every kernel the traced
//! waves ran (rocprofv3 lists whole kernels, executed or not), numbered as code.json numbers them,
//! with totals over the traced waves (hits, latency, stall, idle). code.json, the stats CSV and
//! the hotspot report are all written from this one table.

use std::collections::HashMap;

use rocprof_sqtt::isa::class_text;
use rocprof_sqtt::Wave;

use crate::decode::Decoded;

/// One row of the listing: a kernel label (`; <symbol>`) or an instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// `LineNumber` (row id; wave records refer to rows by it).
    pub line: u64,
    /// Code-object id (0 = unknown).
    pub codeobj: u64,
    /// ELF virtual address in the code object.
    pub vaddr: u64,
    /// Absolute address (0 for labels).
    pub pc: u64,
    /// Disassembly, or `; <mangled symbol>` for a label.
    pub text: String,
    /// `file:line` (empty without debug info); the demangled kernel name on labels.
    pub source: String,
    /// Executions over every traced wave.
    pub hits: u64,
    /// Sum of durations.
    pub latency: i64,
    /// Sum of stalls.
    pub stall: i64,
    /// Sum of idle gaps before each execution.
    pub idle: i64,
    /// Index into [`Listing::kernels`].
    pub kernel: usize,
    /// A label row.
    pub is_label: bool,
}

/// A kernel (function symbol) of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// Mangled symbol name (or `<codeobj> / 0x<vaddr>` without symbols).
    pub symbol: String,
    /// Demangled name.
    pub name: String,
    /// Code-object id.
    pub codeobj: u64,
    /// Absolute address range of its code.
    pub start: u64,
    /// End (exclusive).
    pub end: u64,
}

/// Rows plus lookups.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Rows in file order (code object, address).
    pub rows: Vec<Row>,
    /// Kernels in row order.
    pub kernels: Vec<Kernel>,
    by_pc: HashMap<u64, usize>,
}

/// Supplies instruction text by absolute address and the instruction's bytes.
pub type TextFn<'a> = dyn FnMut(u64, &[u8]) -> Option<String> + 'a;

impl Listing {
    /// Row index of the instruction at absolute `pc`.
    pub fn row_of(&self, pc: u64) -> Option<usize> {
        self.by_pc.get(&pc).copied()
    }

    /// `LineNumber` a wave record with this PC refers to: its row, or 0 (the first label) for a
    /// record without a known PC, as rocprofv3 does.
    pub fn line_of(&self, pc: u64) -> u64 {
        self.row_of(pc).map_or(0, |r| self.rows[r].line)
    }

    /// Kernel index whose code holds absolute `pc`.
    pub fn kernel_of(&self, pc: u64) -> Option<usize> {
        self.kernels.iter().position(|k| pc >= k.start && pc < k.end)
    }

    /// Builds the listing of `d`: kernels that hold any traced instruction or any wave entry.
    pub fn build(d: &Decoded, text: &mut TextFn<'_>) -> Listing {
        let mut pcs: Vec<u64> = Vec::new();
        for se in &d.ses {
            pcs.extend(se.decode.occupancy.iter().filter(|o| o.start && o.pc != 0).map(|o| o.pc));
            for w in &se.decode.waves {
                pcs.extend(w.instructions.iter().filter(|i| i.pc != 0).map(|i| i.pc));
            }
        }
        pcs.sort_unstable();
        pcs.dedup();
        let mut kernels: Vec<Kernel> = Vec::new();
        for &pc in &pcs {
            if kernels.iter().any(|k| pc >= k.start && pc < k.end) {
                continue;
            }
            if let Some(k) = kernel_at(d, pc) {
                kernels.push(k);
            }
        }
        kernels.sort_by_key(|k| (k.codeobj, k.start));
        let mut l = Listing { rows: Vec::new(), kernels, by_pc: HashMap::new() };
        let prog = d.code.program();
        let mut line = 0u64;
        for (ki, k) in l.kernels.iter().enumerate() {
            let (_, vaddr) = d.code.resolve(k.start).unwrap_or((k.codeobj, k.start));
            l.rows.push(Row {
                line,
                codeobj: k.codeobj,
                vaddr,
                pc: 0,
                text: format!("; {}", k.symbol),
                source: k.name.clone(),
                hits: 0,
                latency: 0,
                stall: 0,
                idle: 0,
                kernel: ki,
                is_label: true,
            });
            line += 1;
            let Some(first) = prog.line_at(k.start).or_else(|| prog.lines().iter().position(|(pc, _)| *pc >= k.start))
            else {
                continue;
            };
            for &(pc, info) in prog.lines()[first..].iter().take_while(|(pc, _)| *pc < k.end) {
                let (_, vaddr) = d.code.resolve(pc).unwrap_or((k.codeobj, pc));
                let bytes = instruction_bytes(d, pc, info.size);
                let t = bytes.and_then(|b| text(pc, b)).unwrap_or_else(|| class_text(&info));
                l.by_pc.insert(pc, l.rows.len());
                l.rows.push(Row {
                    line,
                    codeobj: k.codeobj,
                    vaddr,
                    pc,
                    text: t,
                    source: String::new(),
                    hits: 0,
                    latency: 0,
                    stall: 0,
                    idle: 0,
                    kernel: ki,
                    is_label: false,
                });
                line += 1;
            }
        }
        for se in &d.ses {
            for w in &se.decode.waves {
                l.add_wave(w);
            }
        }
        l
    }

    /// Adds one wave's executions to the totals.
    fn add_wave(&mut self, w: &Wave) {
        let mut last_end = w.begin_time;
        for i in &w.instructions {
            let idle = (i.time - last_end).max(0);
            last_end = last_end.max(i.time + i.duration);
            let row = self.row_of(i.pc).unwrap_or(0);
            if let Some(r) = self.rows.get_mut(row) {
                r.hits += 1;
                r.latency += i.duration;
                r.stall += i.stall;
                r.idle += idle;
            }
        }
    }
}

/// The `size` bytes of the instruction at absolute `pc`, from its code object.
fn instruction_bytes(d: &Decoded, pc: u64, size: u8) -> Option<&[u8]> {
    let (id, vaddr) = d.code.resolve(pc)?;
    let o = d.objects.iter().find(|o| o.id == id)?;
    let text = rocprof_sqtt::elf::text_section(&o.elf).ok()?;
    let off = usize::try_from(vaddr.checked_sub(text.vaddr)?).ok()?;
    text.bytes.get(off..off + usize::from(size.max(4)))
}

/// The kernel (function symbol) that holds absolute `pc`; without symbols, the code object's
/// whole `.text` under a `<codeobj> / 0x<vaddr>` name.
fn kernel_at(d: &Decoded, pc: u64) -> Option<Kernel> {
    let (id, vaddr) = d.code.resolve(pc)?;
    let o = d.objects.iter().find(|o| o.id == id)?;
    let funcs = &o.functions;
    let found = funcs.iter().enumerate().rev().find(|(_, f)| f.vaddr <= vaddr).and_then(|(i, f)| {
        let end = if f.size > 0 { f.vaddr + f.size } else { funcs.get(i + 1).map_or(u64::MAX, |n| n.vaddr) };
        (vaddr < end).then_some((f, end))
    });
    match found {
        Some((f, end)) => Some(Kernel {
            name: rocprof_model::capture::demangle::demangle(&f.name).unwrap_or_else(|| f.name.clone()),
            symbol: f.name.clone(),
            codeobj: id,
            start: o.address.wrapping_add(f.vaddr),
            end: o.address.wrapping_add(end.min(u64::MAX - o.address)),
        }),
        None => {
            let text = rocprof_sqtt::elf::text_section(&o.elf).ok()?;
            let start = o.address.wrapping_add(text.vaddr);
            let symbol = format!("{id} / {:#x}", text.vaddr);
            Some(Kernel { name: symbol.clone(), symbol, codeobj: id, start, end: start + text.bytes.len() as u64 })
        }
    }
}
