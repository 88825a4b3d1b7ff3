//! DWARF line tables (`.debug_line`, versions 2 to 5, as clang writes them for AMDGPU code objects):
//! the rows of every line program, and the address -> `file:line` map a profiler shows for a PC.
//!
//! [`rows`] runs each unit's line-number program (standard, extended and special opcodes of DWARF 5
//! §6.2) and returns its rows as `llvm-dwarfdump --debug-line` lists them. [`LineTable`] is what
//! rocprofiler-sdk's code-object decoder shows as an instruction's comment (`code_printing.hpp`): each
//! row with a non-zero line gives `path:line` from its address up to the next such address (a later row
//! at the same address wins), the last one up to the end of the code object. The path is the file entry
//! joined to its directory, and a relative directory to the unit's first directory (DWARF 5 puts the
//! compilation directory there; a DWARF 4 unit's compilation directory lives in `.debug_info`, not read
//! here, so its relative paths stay relative).

use std::collections::BTreeMap;

/// One row of a line table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Address (the code object's virtual address).
    pub address: u64,
    /// Source line (0: no line).
    pub line: u32,
    /// Column.
    pub column: u32,
    /// File index as the unit numbers its files (0-based from DWARF 5, 1-based before).
    pub file: u32,
    /// `end_sequence`: the first address after a sequence.
    pub end_sequence: bool,
    /// The file's path (directory joined), empty when the index names no file.
    pub path: String,
}

/// Why a line table could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(what: &str) -> Result<T, Error> {
    Err(Error(what.to_string()))
}

/// The contents of section `name` of a 64-bit little-endian ELF file.
pub fn section<'a>(elf: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(elf.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(elf.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(elf.get(o..o + 8)?.try_into().ok()?));
    if elf.get(..4)? != b"\x7fELF" || elf.get(4) != Some(&2) || elf.get(5) != Some(&1) {
        return None;
    }
    let shoff = u64_at(40)? as usize;
    let (entsize, num, strndx) = (u16_at(58)? as usize, u16_at(60)? as usize, u16_at(62)? as usize);
    let sh = |k: usize| shoff.checked_add(k.checked_mul(entsize)?);
    let names = u64_at(sh(strndx)? + 24)? as usize;
    for k in 0..num {
        let h = sh(k)?;
        let at = names.checked_add(u32_at(h)? as usize)?;
        let s = elf.get(at..)?;
        let end = s.iter().position(|&c| c == 0)?;
        if &s[..end] == name.as_bytes() {
            if u32_at(h + 4)? == 8 {
                return Some(&[]); // SHT_NOBITS
            }
            let (off, size) = (u64_at(h + 24)? as usize, u64_at(h + 32)? as usize);
            return elf.get(off..off.checked_add(size)?);
        }
    }
    None
}

/// A cursor over a section.
pub(crate) struct Cur<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Cur<'a> {
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len()).ok_or_else(|| Error("truncated".into()))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.bytes(1)?[0])
    }
    pub(crate) fn uint(&mut self, n: usize) -> Result<u64, Error> {
        let mut v = 0u64;
        for (i, &b) in self.bytes(n)?.iter().enumerate().take(8) {
            v |= u64::from(b) << (8 * i);
        }
        Ok(v)
    }
    pub(crate) fn uleb(&mut self) -> Result<u64, Error> {
        let (mut v, mut shift) = (0u64, 0u32);
        loop {
            let b = self.u8()?;
            if shift < 64 {
                v |= u64::from(b & 0x7f) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
    }
    pub(crate) fn sleb(&mut self) -> Result<i64, Error> {
        let (mut v, mut shift) = (0i64, 0u32);
        loop {
            let b = self.u8()?;
            if shift < 64 {
                v |= i64::from(b & 0x7f) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                if shift < 64 && b & 0x40 != 0 {
                    v |= -1i64 << shift;
                }
                return Ok(v);
            }
        }
    }
    pub(crate) fn cstr(&mut self) -> Result<String, Error> {
        let s = &self.b[self.at.min(self.b.len())..];
        let end = s.iter().position(|&c| c == 0).ok_or_else(|| Error("unterminated string".into()))?;
        self.at += end + 1;
        Ok(String::from_utf8_lossy(&s[..end]).into_owned())
    }
}

/// A NUL-terminated string at `off` of a string section.
fn str_at(sec: &[u8], off: u64) -> Result<String, Error> {
    let s = sec.get(off as usize..).ok_or_else(|| Error(format!("string offset {off:#x} outside its section")))?;
    let end = s.iter().position(|&c| c == 0).ok_or_else(|| Error("unterminated string".into()))?;
    Ok(String::from_utf8_lossy(&s[..end]).into_owned())
}

/// Sections a DWARF 5 line header refers to.
struct Strings<'a> {
    line_str: &'a [u8],
    str: &'a [u8],
}

const DW_LNCT_PATH: u64 = 1;
const DW_LNCT_DIRECTORY_INDEX: u64 = 2;

/// One attribute value of a DWARF 5 entry format: a string or a number (what line headers use).
fn form_value(c: &mut Cur<'_>, form: u64, offset_size: usize, s: &Strings<'_>) -> Result<(Option<String>, u64), Error> {
    Ok(match form {
        0x08 => (Some(c.cstr()?), 0),                                 // string
        0x1f => (Some(str_at(s.line_str, c.uint(offset_size)?)?), 0), // line_strp
        0x0e => (Some(str_at(s.str, c.uint(offset_size)?)?), 0),      // strp
        0x0b => (None, c.uint(1)?),                                   // data1
        0x05 => (None, c.uint(2)?),                                   // data2
        0x06 => (None, c.uint(4)?),                                   // data4
        0x07 => (None, c.uint(8)?),                                   // data8
        0x1e => (None, c.bytes(16).map(|_| 0)?),                      // data16 (MD5)
        0x0f => (None, c.uleb()?),                                    // udata
        0x09 => {
            let n = c.uleb()? as usize; // block
            c.bytes(n)?;
            (None, 0)
        }
        f => return Err(Error(format!("unsupported form {f:#x} in a line table header"))),
    })
}

/// Entries of a DWARF 5 directory or file table: (path, directory index).
fn entries(c: &mut Cur<'_>, offset_size: usize, s: &Strings<'_>) -> Result<Vec<(String, u64)>, Error> {
    let nformats = c.u8()? as usize;
    let mut formats = Vec::with_capacity(nformats);
    for _ in 0..nformats {
        formats.push((c.uleb()?, c.uleb()?));
    }
    let n = c.uleb()? as usize;
    let mut out = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        let (mut path, mut dir) = (String::new(), 0);
        for &(kind, form) in &formats {
            let (text, num) = form_value(c, form, offset_size, s)?;
            match kind {
                DW_LNCT_PATH => path = text.unwrap_or_default(),
                DW_LNCT_DIRECTORY_INDEX => dir = num,
                _ => {}
            }
        }
        out.push((path, dir));
    }
    Ok(out)
}

fn join(dir: &str, name: &str) -> String {
    if name.starts_with('/') || dir.is_empty() {
        name.to_string()
    } else if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The rows of every line program in `.debug_line` of the ELF file `elf` (none when it has no
/// `.debug_line`).
pub fn rows(elf: &[u8]) -> Result<Vec<Row>, Error> {
    let Some(lines) = section(elf, ".debug_line") else { return Ok(Vec::new()) };
    let s = Strings {
        line_str: section(elf, ".debug_line_str").unwrap_or_default(),
        str: section(elf, ".debug_str").unwrap_or_default(),
    };
    let mut out = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        at = unit(lines, at, &s, &mut out)?.0;
    }
    Ok(out)
}

/// The file paths of every line program in `.debug_line` (by the offset of its unit, what a unit's
/// `DW_AT_stmt_list` names), indexed as the unit numbers its files (directory joined, as [`Row::path`]).
pub fn file_paths(elf: &[u8]) -> Result<std::collections::HashMap<u64, Vec<String>>, Error> {
    let mut out = std::collections::HashMap::new();
    let Some(lines) = section(elf, ".debug_line") else { return Ok(out) };
    let s = Strings {
        line_str: section(elf, ".debug_line_str").unwrap_or_default(),
        str: section(elf, ".debug_str").unwrap_or_default(),
    };
    let mut at = 0;
    let mut rows = Vec::new();
    while at < lines.len() {
        let (next, paths) = unit(lines, at, &s, &mut rows)?;
        out.insert(at as u64, paths);
        rows.clear();
        at = next;
    }
    Ok(out)
}

/// Decodes the unit at `start`; returns where the next one starts and its files' paths.
fn unit(sec: &[u8], start: usize, s: &Strings<'_>, out: &mut Vec<Row>) -> Result<(usize, Vec<String>), Error> {
    let mut c = Cur { b: sec, at: start };
    let (mut length, mut offset_size) = (c.uint(4)?, 4);
    if length == 0xffff_ffff {
        length = c.uint(8)?;
        offset_size = 8;
    } else if length >= 0xffff_fff0 {
        return err("reserved unit length in .debug_line");
    }
    let end =
        c.at.checked_add(length as usize)
            .filter(|&e| e <= sec.len())
            .ok_or_else(|| Error("unit past the section".into()))?;
    let version = c.uint(2)?;
    if !(2..=5).contains(&version) {
        return Err(Error(format!("line table version {version} is not 2..5")));
    }
    if version >= 5 {
        let _address_size = c.u8()?;
        let _segment_selector_size = c.u8()?;
    }
    let header_length = c.uint(offset_size)? as usize;
    let program =
        c.at.checked_add(header_length).filter(|&p| p <= end).ok_or_else(|| Error("header past its unit".into()))?;
    let min_inst = u64::from(c.u8()?);
    let max_ops = if version >= 4 { c.u8()? } else { 1 };
    if max_ops != 1 {
        return err("VLIW line tables (maximum_operations_per_instruction > 1) are not supported");
    }
    let _default_is_stmt = c.u8()?;
    let line_base = c.u8()? as i8 as i64;
    let line_range = u64::from(c.u8()?);
    let opcode_base = c.u8()?;
    if line_range == 0 {
        return err("line_range 0");
    }
    let lengths = c.bytes(usize::from(opcode_base.saturating_sub(1)))?.to_vec();
    // Directories and files (with the directory index of each).
    let (dirs, files): (Vec<String>, Vec<(String, u64)>) = if version >= 5 {
        let dirs = entries(&mut c, offset_size, s)?.into_iter().map(|(p, _)| p).collect();
        (dirs, entries(&mut c, offset_size, s)?)
    } else {
        let mut dirs = vec![String::new()]; // 0: the compilation directory (in .debug_info)
        loop {
            let d = c.cstr()?;
            if d.is_empty() {
                break;
            }
            dirs.push(d);
        }
        let mut files = vec![(String::new(), 0)]; // numbered from 1
        loop {
            let f = c.cstr()?;
            if f.is_empty() {
                break;
            }
            let dir = c.uleb()?;
            let (_mtime, _len) = (c.uleb()?, c.uleb()?);
            files.push((f, dir));
        }
        (dirs, files)
    };
    let comp_dir = if version >= 5 { dirs.first().cloned().unwrap_or_default() } else { String::new() };
    let path_of = |files: &[(String, u64)], k: u32| -> String {
        let Some((name, d)) = files.get(k as usize) else { return String::new() };
        if name.is_empty() {
            return String::new();
        }
        let dir = dirs.get(*d as usize).map_or("", String::as_str);
        let dir =
            if dir.starts_with('/') || comp_dir.is_empty() || *d == 0 { dir.to_string() } else { join(&comp_dir, dir) };
        join(&dir, name)
    };
    let mut files = files;
    c.at = program;
    let first_file = if version >= 5 { 0 } else { 1 };
    let reset = |r: &mut Row| {
        *r = Row { address: 0, line: 1, column: 0, file: first_file, end_sequence: false, path: String::new() }
    };
    let mut r = Row { address: 0, line: 1, column: 0, file: first_file, end_sequence: false, path: String::new() };
    let emit = |r: &Row, files: &[(String, u64)], out: &mut Vec<Row>| {
        out.push(Row { path: path_of(files, r.file), ..r.clone() });
    };
    while c.at < end {
        let op = c.u8()?;
        if op >= opcode_base {
            let adj = u64::from(op - opcode_base);
            r.address = r.address.wrapping_add(adj / line_range * min_inst);
            r.line = (i64::from(r.line) + line_base + (adj % line_range) as i64) as u32;
            emit(&r, &files, out);
            continue;
        }
        match op {
            0 => {
                let n = c.uleb()? as usize;
                let body_end =
                    c.at.checked_add(n)
                        .filter(|&e| e <= end)
                        .ok_or_else(|| Error("extended opcode past its unit".into()))?;
                if n == 0 {
                    continue;
                }
                match c.u8()? {
                    1 => {
                        r.end_sequence = true;
                        emit(&r, &files, out);
                        reset(&mut r);
                    }
                    2 => r.address = c.uint(n - 1)?,
                    3 => {
                        let f = c.cstr()?;
                        let dir = c.uleb()?;
                        files.push((f, dir));
                    }
                    _ => {} // set_discriminator and vendor opcodes: skipped by their length
                }
                c.at = body_end;
            }
            1 => emit(&r, &files, out),                                                // copy
            2 => r.address = r.address.wrapping_add(c.uleb()?.wrapping_mul(min_inst)), // advance_pc
            3 => r.line = (i64::from(r.line) + c.sleb()?) as u32,                      // advance_line
            4 => r.file = c.uleb()? as u32,                                            // set_file
            5 => r.column = c.uleb()? as u32,                                          // set_column
            6..=7 | 10..=11 => {} // stmt, basic block, prologue/epilogue
            8 => r.address = r.address.wrapping_add((255 - u64::from(opcode_base)) / line_range * min_inst), // const_add_pc
            9 => r.address = r.address.wrapping_add(c.uint(2)?), // fixed_advance_pc
            _ => {
                // Unknown standard opcode (or set_isa): skip its ULEB operands.
                for _ in 0..lengths.get(usize::from(op) - 1).copied().unwrap_or(0) {
                    c.uleb()?;
                }
            }
        }
    }
    Ok((end, (0..files.len() as u32).map(|k| path_of(&files, k)).collect()))
}

/// Address -> `path:line`, as rocprofiler-sdk's code-object decoder names an instruction's source.
#[derive(Clone, Debug, Default)]
pub struct LineTable {
    /// Start address -> `path:line` (to the next start, the last to the end of the code object);
    /// `dwarf_info` appends inlined call sites to these texts.
    pub(crate) starts: BTreeMap<u64, String>,
    /// Size of the code object (the last entry's end).
    end: u64,
}

impl LineTable {
    /// The table of an ELF code object; empty when it has no line table.
    pub fn of_elf(elf: &[u8]) -> Result<LineTable, Error> {
        Ok(LineTable::from_rows(&rows(elf)?, elf.len() as u64))
    }

    /// The table of `rows` (of a code object of `size` bytes).
    pub fn from_rows(rows: &[Row], size: u64) -> LineTable {
        let mut starts = BTreeMap::new();
        for r in rows.iter().filter(|r| r.line != 0) {
            starts.insert(r.address, format!("{}:{}", r.path, r.line));
        }
        LineTable { starts, end: size }
    }

    /// Whether the code object had no line rows.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// `path:line` of the instruction at `address` (a virtual address of the code object).
    pub fn lookup(&self, address: u64) -> Option<&str> {
        let mut before = self.starts.range(..=address);
        let (&start, text) = before.next_back()?;
        // The last entry reaches the end of the code object (rocprofiler-sdk: `size - start` bytes).
        let last = self.starts.range(start + 1..).next().is_none();
        (!last || address - start < self.end.wrapping_sub(start)).then_some(text.as_str())
    }
}
