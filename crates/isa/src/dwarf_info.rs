//! Inlined calls from DWARF `.debug_info` (versions 4 and 5, as clang writes them for AMDGPU code
//! objects): every `DW_TAG_inlined_subroutine` with the addresses it covers and its call site
//! (`DW_AT_call_file`, `DW_AT_call_line`), so a profiler can name the call stack of an instruction
//! that came from an inlined function, as rocprofiler-sdk's code-object decoder does
//! (`code_printing.hpp`: the source line, then ` -> file:line` for each inlined call covering the
//! address, innermost first).
//!
//! The reader walks each unit's entries in their stored (pre-)order with its abbreviation table,
//! skipping every attribute by its form, and keeps only what the call stack needs. Address ranges come
//! from `DW_AT_low_pc`/`DW_AT_high_pc` (an address or a length), or `DW_AT_ranges` (`.debug_ranges` in
//! DWARF 4, `.debug_rnglists` in DWARF 5 with `DW_FORM_rnglistx` through `DW_AT_rnglists_base`);
//! indexed addresses go through `.debug_addr` and `DW_AT_addr_base`. A call file is the unit's line
//! table's file of that index, its directory joined ([`crate::dwarf_line::file_paths`]).

use crate::dwarf_line::{section, Cur, Error, LineTable};
use std::collections::BTreeMap;

/// One inlined call: the addresses its code covers and where it was called from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlinedCall {
    /// Half-open address ranges `[low, high)` of the inlined code.
    pub ranges: Vec<(u64, u64)>,
    /// Path of the file of the call site.
    pub call_file: String,
    /// Line of the call site.
    pub call_line: u32,
    /// Nesting depth (1: inlined into a function that is not itself inlined).
    pub depth: u32,
}

const DW_TAG_INLINED_SUBROUTINE: u64 = 0x1d;
const DW_AT_STMT_LIST: u64 = 0x10;
const DW_AT_LOW_PC: u64 = 0x11;
const DW_AT_HIGH_PC: u64 = 0x12;
const DW_AT_RANGES: u64 = 0x55;
const DW_AT_CALL_FILE: u64 = 0x58;
const DW_AT_CALL_LINE: u64 = 0x59;
const DW_AT_ADDR_BASE: u64 = 0x73;
const DW_AT_RNGLISTS_BASE: u64 = 0x74;

/// An attribute value as far as the call stack needs it.
#[derive(Clone, Copy, Debug)]
enum Val {
    /// `DW_FORM_addr`.
    Addr(u64),
    /// An index into `.debug_addr`.
    Addrx(u64),
    /// A constant.
    Const(u64),
    /// A section offset.
    Offset(u64),
    /// `DW_FORM_rnglistx`.
    Rnglistx(u64),
    /// Anything else (strings, blocks, references, flags).
    Other,
}

/// What reading forms of one unit needs.
struct Unit {
    version: u64,
    offset_size: usize,
    address_size: usize,
}

fn form(c: &mut Cur<'_>, f: u64, implicit: i64, u: &Unit) -> Result<Val, Error> {
    let skip = |c: &mut Cur<'_>, n: usize| c.bytes(n).map(|_| Val::Other);
    Ok(match f {
        0x01 => Val::Addr(c.uint(u.address_size)?),
        0x03 => {
            let n = c.uint(2)? as usize;
            skip(c, n)?
        }
        0x04 => {
            let n = c.uint(4)? as usize;
            skip(c, n)?
        }
        0x05 => Val::Const(c.uint(2)?),
        0x06 => Val::Const(c.uint(4)?),
        0x07 => Val::Const(c.uint(8)?),
        0x08 => {
            c.cstr()?;
            Val::Other
        }
        0x09 | 0x18 => {
            let n = c.uleb()? as usize;
            skip(c, n)?
        }
        0x0a => {
            let n = c.uint(1)? as usize;
            skip(c, n)?
        }
        0x0b => Val::Const(c.uint(1)?),
        0x0c => skip(c, 1)?,
        0x0d => Val::Const(c.sleb()? as u64),
        0x0f => Val::Const(c.uleb()?),
        0x10 => skip(c, if u.version <= 2 { u.address_size } else { u.offset_size })?,
        0x11 | 0x25 => skip(c, 1)?,
        0x12 | 0x26 => skip(c, 2)?,
        0x13 | 0x1c | 0x28 => skip(c, 4)?,
        0x14 | 0x20 | 0x24 => skip(c, 8)?,
        0x27 => skip(c, 3)?,
        0x15 | 0x1a | 0x22 | 0x1f02 => {
            c.uleb()?;
            Val::Other
        }
        0x16 => {
            let f = c.uleb()?;
            form(c, f, implicit, u)?
        }
        0x17 => Val::Offset(c.uint(u.offset_size)?),
        0x0e | 0x1d | 0x1f | 0x1f20 | 0x1f21 => skip(c, u.offset_size)?,
        0x19 => Val::Other,
        0x1b | 0x1f01 => Val::Addrx(c.uleb()?),
        0x1e => skip(c, 16)?,
        0x21 => Val::Const(implicit as u64),
        0x23 => Val::Rnglistx(c.uleb()?),
        0x29 => Val::Addrx(c.uint(1)?),
        0x2a => Val::Addrx(c.uint(2)?),
        0x2b => Val::Addrx(c.uint(3)?),
        0x2c => Val::Addrx(c.uint(4)?),
        f => return Err(Error(format!("unsupported form {f:#x} in .debug_info"))),
    })
}

/// An abbreviation: tag, whether entries have children, (attribute, form, implicit constant).
type Abbrev = (u64, bool, Vec<(u64, u64, i64)>);

fn abbrevs(sec: &[u8], at: usize) -> Result<std::collections::HashMap<u64, Abbrev>, Error> {
    let mut c = Cur { b: sec, at };
    let mut out = std::collections::HashMap::new();
    loop {
        let code = c.uleb()?;
        if code == 0 {
            return Ok(out);
        }
        let tag = c.uleb()?;
        let children = c.u8()? != 0;
        let mut attrs = Vec::new();
        loop {
            let (a, f) = (c.uleb()?, c.uleb()?);
            if a == 0 && f == 0 {
                break;
            }
            let implicit = if f == 0x21 { c.sleb()? } else { 0 };
            attrs.push((a, f, implicit));
        }
        out.insert(code, (tag, children, attrs));
    }
}

/// The sections the reader resolves values in.
struct Sections<'a> {
    addr: &'a [u8],
    ranges: &'a [u8],
    rnglists: &'a [u8],
}

/// What a unit's top entry says for the entries below it.
#[derive(Default, Clone, Copy)]
struct UnitBase {
    low_pc: u64,
    addr_base: u64,
    rnglists_base: u64,
}

fn address(v: Val, u: &Unit, base: &UnitBase, s: &Sections<'_>) -> Option<u64> {
    match v {
        Val::Addr(a) => Some(a),
        Val::Addrx(i) => {
            let at = base.addr_base.checked_add(i.checked_mul(u.address_size as u64)?)? as usize;
            let mut c = Cur { b: s.addr, at };
            c.uint(u.address_size).ok()
        }
        _ => None,
    }
}

/// The ranges of `DW_AT_ranges` with value `v` (base address: the unit's low_pc).
fn ranges(v: Val, u: &Unit, base: &UnitBase, s: &Sections<'_>) -> Result<Vec<(u64, u64)>, Error> {
    let mut out = Vec::new();
    if u.version < 5 {
        let (Val::Offset(off) | Val::Const(off)) = v else { return Ok(out) };
        let mut c = Cur { b: s.ranges, at: off as usize };
        let max = if u.address_size == 8 { u64::MAX } else { (1u64 << (8 * u.address_size)) - 1 };
        let mut b = base.low_pc;
        loop {
            let (lo, hi) = (c.uint(u.address_size)?, c.uint(u.address_size)?);
            if lo == 0 && hi == 0 {
                return Ok(out);
            }
            if lo == max {
                b = hi;
            } else {
                out.push((b.wrapping_add(lo), b.wrapping_add(hi)));
            }
        }
    }
    let at = match v {
        Val::Offset(off) => off,
        Val::Rnglistx(i) => {
            let mut c = Cur { b: s.rnglists, at: (base.rnglists_base + i * u.offset_size as u64) as usize };
            base.rnglists_base + c.uint(u.offset_size)?
        }
        _ => return Ok(out),
    };
    let mut c = Cur { b: s.rnglists, at: at as usize };
    let mut b = base.low_pc;
    let addrx = |i: u64| address(Val::Addrx(i), u, base, s).ok_or_else(|| Error("bad address index".into()));
    loop {
        match c.u8()? {
            0 => return Ok(out),
            1 => b = addrx(c.uleb()?)?,
            2 => {
                let (lo, hi) = (addrx(c.uleb()?)?, addrx(c.uleb()?)?);
                out.push((lo, hi));
            }
            3 => {
                let lo = addrx(c.uleb()?)?;
                out.push((lo, lo.wrapping_add(c.uleb()?)));
            }
            4 => {
                let (lo, hi) = (c.uleb()?, c.uleb()?);
                out.push((b.wrapping_add(lo), b.wrapping_add(hi)));
            }
            5 => b = c.uint(u.address_size)?,
            6 => {
                let (lo, hi) = (c.uint(u.address_size)?, c.uint(u.address_size)?);
                out.push((lo, hi));
            }
            7 => {
                let lo = c.uint(u.address_size)?;
                out.push((lo, lo.wrapping_add(c.uleb()?)));
            }
            k => return Err(Error(format!("unknown range list entry {k}"))),
        }
    }
}

/// Every inlined call of the ELF file `elf`, in the order of `.debug_info` (an inlined call comes
/// after the calls it is inlined into); none when it has no `.debug_info`.
pub fn inlined_calls(elf: &[u8]) -> Result<Vec<InlinedCall>, Error> {
    let Some(info) = section(elf, ".debug_info") else { return Ok(Vec::new()) };
    let abbrev = section(elf, ".debug_abbrev").unwrap_or_default();
    let s = Sections {
        addr: section(elf, ".debug_addr").unwrap_or_default(),
        ranges: section(elf, ".debug_ranges").unwrap_or_default(),
        rnglists: section(elf, ".debug_rnglists").unwrap_or_default(),
    };
    let files = crate::dwarf_line::file_paths(elf)?;
    let mut out = Vec::new();
    let mut at = 0;
    while at < info.len() {
        let mut c = Cur { b: info, at };
        let (mut length, mut offset_size) = (c.uint(4)?, 4);
        if length == 0xffff_ffff {
            length = c.uint(8)?;
            offset_size = 8;
        }
        let end =
            c.at.checked_add(length as usize)
                .filter(|&e| e <= info.len())
                .ok_or_else(|| Error("unit past .debug_info".into()))?;
        at = end;
        let version = c.uint(2)?;
        let (abbrev_at, address_size) = if version >= 5 {
            let unit_type = c.u8()?;
            let address_size = c.u8()? as usize;
            let abbrev_at = c.uint(offset_size)?;
            match unit_type {
                1 | 3 => {} // compile, partial
                4 | 5 => {
                    c.uint(8)?; // skeleton, split compile: dwo id
                }
                _ => continue, // type units have no code
            }
            (abbrev_at, address_size)
        } else if (2..=4).contains(&version) {
            let abbrev_at = c.uint(offset_size)?;
            (abbrev_at, c.u8()? as usize)
        } else {
            return Err(Error(format!(".debug_info version {version} is not 2..5")));
        };
        let u = Unit { version, offset_size, address_size };
        let table = abbrevs(abbrev, abbrev_at as usize)?;
        let mut base = UnitBase::default();
        let mut unit_files: &[String] = &[];
        let mut depth_of: Vec<bool> = Vec::new(); // per open level: is it an inlined call
        let mut first = true;
        while c.at < end {
            let code = c.uleb()?;
            if code == 0 {
                depth_of.pop();
                continue;
            }
            let (tag, children, attrs) =
                table.get(&code).ok_or_else(|| Error(format!("abbreviation {code} not in its table")))?;
            let mut vals: Vec<(u64, Val)> = Vec::new();
            for &(a, f, implicit) in attrs {
                let v = form(&mut c, f, implicit, &u)?;
                if matches!(
                    a,
                    DW_AT_STMT_LIST
                        | DW_AT_LOW_PC
                        | DW_AT_HIGH_PC
                        | DW_AT_RANGES
                        | DW_AT_CALL_FILE
                        | DW_AT_CALL_LINE
                        | DW_AT_ADDR_BASE
                        | DW_AT_RNGLISTS_BASE
                ) {
                    vals.push((a, v));
                }
            }
            let get = |a: u64| vals.iter().find(|v| v.0 == a).map(|v| v.1);
            let inlined = *tag == DW_TAG_INLINED_SUBROUTINE;
            if first {
                first = false;
                if let Some(Val::Offset(b) | Val::Const(b)) = get(DW_AT_ADDR_BASE) {
                    base.addr_base = b;
                }
                if let Some(Val::Offset(b) | Val::Const(b)) = get(DW_AT_RNGLISTS_BASE) {
                    base.rnglists_base = b;
                }
                base.low_pc = get(DW_AT_LOW_PC).and_then(|v| address(v, &u, &base, &s)).unwrap_or(0);
                if let Some(Val::Offset(o) | Val::Const(o)) = get(DW_AT_STMT_LIST) {
                    unit_files = files.get(&o).map_or(&[], Vec::as_slice);
                }
            } else if inlined {
                let low = get(DW_AT_LOW_PC).and_then(|v| address(v, &u, &base, &s));
                let rs = match (low, get(DW_AT_HIGH_PC)) {
                    (Some(lo), Some(Val::Const(n))) => vec![(lo, lo.wrapping_add(n))],
                    (Some(lo), Some(v)) => address(v, &u, &base, &s).map(|hi| vec![(lo, hi)]).unwrap_or_default(),
                    _ => match get(DW_AT_RANGES) {
                        Some(v) => ranges(v, &u, &base, &s)?,
                        None => Vec::new(),
                    },
                };
                if let (Some(Val::Const(f)), Some(Val::Const(line))) = (get(DW_AT_CALL_FILE), get(DW_AT_CALL_LINE)) {
                    if let Some(path) = unit_files.get(f as usize).filter(|p| !p.is_empty()) {
                        let depth = depth_of.iter().filter(|&&x| x).count() as u32 + 1;
                        out.push(InlinedCall { ranges: rs, call_file: path.clone(), call_line: line as u32, depth });
                    }
                }
            }
            if *children {
                depth_of.push(inlined);
            }
        }
    }
    Ok(out)
}

impl LineTable {
    /// Names the call stack of rows inside inlined code as rocprofiler-sdk does: appends to each
    /// entry ` -> file:line` for each of `calls` ([`inlined_calls`], in
    /// `.debug_info` order, outer before inner) covering its start address, innermost first.
    pub fn add_inlined_calls(&mut self, calls: &[InlinedCall]) {
        let mut frames: BTreeMap<u64, Vec<&InlinedCall>> = BTreeMap::new();
        for call in calls {
            for &(lo, hi) in &call.ranges {
                for (&a, _) in self.starts.range(lo..hi.max(lo)) {
                    frames.entry(a).or_default().push(call);
                }
            }
        }
        for (a, mut calls) in frames {
            calls.dedup_by(|x, y| std::ptr::eq(*x, *y));
            if let Some(text) = self.starts.get_mut(&a) {
                for call in calls.iter().rev() {
                    text.push_str(&format!(" -> {}:{}", call.call_file, call.call_line));
                }
            }
        }
    }
}
