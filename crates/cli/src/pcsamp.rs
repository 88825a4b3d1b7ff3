//! PC-sampling outputs: `pc_sampling_host_trap.csv` (rocprofv3's six columns),
//! `pc_sampling_stochastic.csv` (the six plus `Wave_Issued_Instruction`, `Instruction_Type`,
//! `Stall_Reason`, `Wave_Count`, named as rocprofiler-sdk names its enums) and the hotspot table on
//! stdout (the instructions that collected the most samples, with their kernel, code-object offset and
//! disassembly).
//!
//! Samples come from the capture ([`rocprof_model::capture::pcsamp`]); each is mapped to its dispatch
//! through the trap handler's correlation id, and the dispatch gives its correlation id and kernel.
//! Instruction text is LLVM's AMDGPU disassembly when an LLVM that knows the target loads
//! (`ROCPROF_LLVM_LIBRARY_PATH`, see `rocprof_sqtt_amd::llvm`), else the instruction's LLVM mnemonic
//! from rocprof-isa's decoder.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Result;
use rocprof_model::capture::pcsamp::{PcSampleRecord, PcSamples, INSTRUCTION_TYPES, NOT_ISSUED_REASONS};
use rocprof_model::Record;
use rocprof_sqtt_amd::llvm::LlvmDisassembler;
use rocprof_writers::{OutputLocation, Session, Writer};

/// Rows of the hotspot table.
pub(crate) const HOTSPOTS: usize = 20;

/// What the PC-sampling outputs need from the record stream; runs next to the other writers.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    /// Dispatch id -> (correlation id, kernel id).
    dispatches: HashMap<u64, (u64, u64)>,
    /// Dispatch id -> (start ns, end ns).
    spans: HashMap<u64, (u64, u64)>,
    /// Kernel id -> (name, code object id).
    kernels: HashMap<u64, (String, u64)>,
    /// Code objects: (id, load base, load size).
    code_objects: Vec<(u64, u64, u64)>,
    /// Code object id -> (URI, load delta), to find its image for source lines.
    code_object_uris: HashMap<u64, (String, i64)>,
    /// Agent handle -> target name.
    agents: HashMap<u64, String>,
}

impl Writer for Collector {
    fn name(&self) -> &'static str {
        "pc_sampling"
    }

    fn begin(&mut self, _: &Session<'_>) -> rocprof_writers::Result<()> {
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> rocprof_writers::Result<()> {
        let s = |id| session.strings.resolve(id).to_string();
        match record {
            Record::Agent(a) => {
                self.agents.insert(a.handle, s(a.name));
            }
            Record::CodeObject(c) => {
                self.code_objects.push((c.id.0, c.load_base, c.load_size));
                self.code_object_uris.insert(c.id.0, (s(c.uri), c.load_delta));
            }
            Record::KernelSymbol(k) => {
                self.kernels.insert(k.id.0, (s(k.formatted_name), k.code_object.0));
            }
            Record::KernelDispatch(d) => {
                self.dispatches.insert(d.dispatch_id.0, (d.correlation_id.0, d.kernel.0));
                self.spans.insert(d.dispatch_id.0, (d.start.ns, d.end.ns.max(d.start.ns)));
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, _: &Session<'_>) -> rocprof_writers::Result<Vec<PathBuf>> {
        Ok(Vec::new())
    }
}

/// Where the PC-sampling outputs go.
#[derive(Clone, Copy)]
pub(crate) struct Outputs<'a> {
    /// The output location of the process.
    pub(crate) out: &'a OutputLocation,
    /// Write the CSV files.
    pub(crate) csv: bool,
    /// The JSON writer's `results.json`, to put the samples into.
    pub(crate) json: Option<&'a std::path::Path>,
    /// The Perfetto writer's trace, to append the sample tracks to.
    pub(crate) pftrace: Option<&'a std::path::Path>,
    /// Write the `--stats` CSV files.
    pub(crate) stats: bool,
    /// Rows of the hotspot table.
    pub(crate) top: usize,
}

/// One sample, resolved.
struct Row<'a> {
    sample: &'a PcSampleRecord,
    dispatch: Option<u64>,
}

/// Instruction text by (target, pc), computed once per distinct PC, and source lines.
struct Texts {
    llvm: HashMap<String, Option<LlvmDisassembler>>,
    cache: HashMap<u64, String>,
    lines: Lines,
}

/// The capture directory of the run whose outputs are written (where the library kept the images of
/// code objects loaded from memory, [`rocprof_model::capture::pcsamp::code_object_file`]).
static CAPTURE_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// `-L`'s PC-sampling part, after the counters: each GPU's configurations as rocprofv3-avail's
/// `info --pc-sampling` prints them (GPU index among the GPUs, the target the runtime reported).
pub(crate) fn pc_sampling_listing(agents: &[rocprof_model::Agent], strings: &rocprof_model::StringTable) -> String {
    agents
        .iter()
        .filter(|a| a.agent_type == rocprof_model::AgentType::Gpu)
        .enumerate()
        .map(|(i, a)| agent_configurations(i, strings.resolve(a.name)))
        .collect()
}

/// One GPU's PC-sampling configurations as rocprofv3-avail's `info --pc-sampling` prints them (also
/// the end of `-L`, which runs that command after `info --pmc`): `GPU     :\t<index>`, `Name    :\t<gfx>`,
/// `configs :`, then per configuration five lines `   <key, 20 wide>:\t<value>` (Method `host_trap` or
/// `stochastic`, Unit `time`, `cycle` or `instructions`, Min_Interval, Max_Interval, Flags `none` or
/// `interval pow2`), each configuration followed by two empty lines and the agent by one more. Empty for
/// a GPU without configurations: rocprofv3-avail lists only the agents that have some. The
/// configurations are the table hsa-sim answers `hsa_ven_amd_pcs_iterate_configuration` with
/// (`rocprof_targets::pc_sampling`), for the target the runtime reported.
pub(crate) fn agent_configurations(index: usize, target: &str) -> String {
    use rocprof_targets::pc_sampling::Unit;
    let configs = rocprof_targets::pc_sampling::configurations(target);
    if configs.is_empty() {
        return String::new();
    }
    let mut out = format!("{:8}:\t{index}\n{:8}:\t{target}\n{:8}:\n", "GPU", "Name", "configs");
    for c in configs {
        // rocprofv3-avail's unit names (`avail.py` `get_unit_string`), not the option's values.
        let unit = match c.unit {
            Unit::Time => "time",
            Unit::Cycles => "cycle",
            Unit::Instructions => "instructions",
        };
        let flags = if c.power_of_two { "interval pow2" } else { "none" };
        let min = c.min_interval.to_string();
        let max = c.max_interval.to_string();
        for (key, value) in [
            ("Method", c.method.name()),
            ("Unit", unit),
            ("Min_Interval", &min),
            ("Max_Interval", &max),
            ("Flags", flags),
        ] {
            out.push_str(&format!("   {key:20}:\t{value}\n"));
        }
        out.push_str("\n\n\n");
    }
    out.push_str("\n\n");
    out
}

/// Names the capture directory the outputs are written from (before [`write`]).
pub(crate) fn set_capture_dir(dir: &std::path::Path) {
    let _ = CAPTURE_DIR.set(dir.to_path_buf());
}

/// Source lines (`path:line`) of the sampled code objects, from their DWARF line tables.
struct Lines {
    pid: u32,
    /// Code object id -> its line table (`None`: no image, or a line table that cannot be read; warned
    /// once).
    tables: HashMap<u64, Option<rocprof_isa::dwarf_line::LineTable>>,
}

/// The image of a code object: the copy the library kept (loaded from memory), else the file range
/// its `file://PATH#offset=N&size=M` URI names.
fn code_object_image(pid: u32, id: u64, uri: &str) -> Option<Vec<u8>> {
    if let Some(dir) = CAPTURE_DIR.get() {
        if let Ok(b) = std::fs::read(rocprof_model::capture::pcsamp::code_object_file(dir, pid, id)) {
            return Some(b);
        }
    }
    let rest = uri.strip_prefix("file://")?;
    let (path, query) = rest.split_once('#').unwrap_or((rest, ""));
    let field = |k: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
            .and_then(|v| v.strip_prefix("0x").map_or_else(|| v.parse().ok(), |h| u64::from_str_radix(h, 16).ok()))
    };
    let bytes = std::fs::read(path).ok()?;
    let offset = field("offset").unwrap_or(0) as usize;
    let size = field("size").filter(|&n| n > 0).map_or(bytes.len().saturating_sub(offset), |n| n as usize);
    bytes.get(offset..offset.checked_add(size)?).map(<[u8]>::to_vec)
}

impl Lines {
    /// `path:line` of `pc` (empty when its code object has no line table), then ` -> file:line` for
    /// each inlined call it lies in, innermost first, as rocprofv3's `Instruction_Comment`.
    fn comment(&mut self, c: &Collector, pc: u64) -> String {
        let Some((id, _)) = code_object_of(c, pc) else { return String::new() };
        let (uri, delta) = c.code_object_uris.get(&id).cloned().unwrap_or_default();
        let pid = self.pid;
        let table = self.tables.entry(id).or_insert_with(|| {
            let image = code_object_image(pid, id, &uri)?;
            match rocprof_isa::dwarf_line::LineTable::of_elf(&image) {
                Ok(mut t) => {
                    // Rows inside inlined code name their call stack (` -> file:line`, innermost first).
                    match rocprof_isa::dwarf_info::inlined_calls(&image) {
                        Ok(calls) => t.add_inlined_calls(&calls),
                        Err(e) => eprintln!("rocprof-rs: warning: code object {id} ({uri}): its inlined calls (.debug_info) cannot be read ({e}); its PC samples name the innermost source line only"),
                    }
                    Some(t)
                }
                Err(e) => {
                    eprintln!("rocprof-rs: warning: code object {id} ({uri}): its DWARF line table cannot be read ({e}); its PC samples have no source lines");
                    None
                }
            }
        });
        // The line table holds virtual addresses of the code object: the PC less the load delta.
        let vaddr = (pc as i64).wrapping_sub(delta) as u64;
        table.as_ref().and_then(|t| t.lookup(vaddr)).unwrap_or_default().to_string()
    }
}

impl Texts {
    fn text(&mut self, target: &str, s: &PcSampleRecord) -> String {
        if let Some(t) = self.cache.get(&s.pc) {
            return t.clone();
        }
        let bytes = PcSamples::instruction_bytes(s);
        let llvm = self.llvm.entry(target.to_string()).or_insert_with(|| LlvmDisassembler::load(target).ok());
        let text = llvm
            .as_ref()
            .and_then(|d| d.text(&bytes, s.pc).map(|(t, _)| t))
            .or_else(|| {
                let t = rocprof_isa::Target::find(target)?;
                rocprof_isa::decode(t, &bytes).ok().map(|i| i.name.to_string())
            })
            .unwrap_or_default();
        self.cache.insert(s.pc, text.clone());
        text
    }
}

/// Writes the PC-sampling outputs of one process: the CSV with `csv` among the formats, the samples
/// into the JSON writer's `results.json` at `json`, the hotspot table to stdout. Returns the files written; warns about samples no dispatch claims.
pub(crate) fn write(pid: u32, samples: &PcSamples, c: &Collector, to: &Outputs<'_>) -> Result<Vec<PathBuf>> {
    let Outputs { out, csv, json, pftrace, stats, top } = *to;
    if samples.samples.is_empty() {
        return Ok(Vec::new());
    }
    let ids = samples.resolve();
    let rows: Vec<Row<'_>> =
        samples.samples.iter().zip(ids).map(|(sample, dispatch)| Row { sample, dispatch }).collect();
    let unresolved = rows.iter().filter(|r| r.dispatch.is_none_or(|d| !c.dispatches.contains_key(&d))).count();
    if unresolved > 0 {
        eprintln!(
            "rocprof-rs: warning: process {pid}: {unresolved} PC samples belong to no traced dispatch (their Dispatch_Id is 0)"
        );
    }
    let lines = Lines { pid, tables: HashMap::new() };
    let mut texts = Texts { llvm: HashMap::new(), cache: HashMap::new(), lines };
    let target = |h: u64| c.agents.get(&h).cloned().unwrap_or_default();
    let mut files = Vec::new();
    if csv {
        for stochastic in [false, true] {
            let mine: Vec<&Row<'_>> = rows.iter().filter(|r| r.sample.is_stochastic() == stochastic).collect();
            if mine.is_empty() {
                continue;
            }
            let name = if stochastic { "pc_sampling_stochastic.csv" } else { "pc_sampling_host_trap.csv" };
            let mut f = out.create(name)?;
            let mut text = String::from(
                "\"Sample_Timestamp\",\"Exec_Mask\",\"Dispatch_Id\",\"Instruction\",\"Instruction_Comment\",\"Correlation_Id\"",
            );
            if stochastic {
                text.push_str(",\"Wave_Issued_Instruction\",\"Instruction_Type\",\"Stall_Reason\",\"Wave_Count\"");
            }
            text.push('\n');
            for r in mine {
                let s = r.sample;
                let (dispatch, correlation) =
                    r.dispatch.and_then(|d| c.dispatches.get(&d).map(|x| (d, x.0))).unwrap_or_default();
                let known = code_object_of(c, s.pc).is_some();
                let inst = if known { texts.text(&target(s.agent_handle), s) } else { String::new() };
                let comment = if known {
                    texts.lines.comment(c, s.pc)
                } else {
                    format!("Unrecognized code object id, physical virtual address of PC:{}", s.pc)
                };
                text.push_str(&format!(
                    "{},{},{dispatch},\"{inst}\",\"{comment}\",{correlation}",
                    s.timestamp_ns, s.exec_mask
                ));
                if stochastic {
                    let x = s.snapshot();
                    text.push_str(&format!(
                        ",{},\"{}\",\"{}\",{}",
                        u32::from(x.issued),
                        instruction_type_name(x.inst_type),
                        not_issued_reason_name(x.reason),
                        x.wave_count
                    ));
                }
                text.push('\n');
                if text.len() > 1 << 16 {
                    f.write_all(text.as_bytes())?;
                    text.clear();
                }
            }
            f.write_all(text.as_bytes())?;
            files.push(f.commit()?);
        }
    }
    if let Some(path) = json {
        splice_json(path, &rows, c, &mut texts, &target)?;
    }
    if let Some(path) = pftrace {
        append_perfetto(path, &rows, c)?;
    }
    if stats {
        files.extend(write_stats(out, &rows, c)?);
    }
    print!("{}", hotspots(&rows, c, &mut texts, &target, top));
    Ok(files)
}

/// rocprofiler-sdk's name of a gfx9 instruction type code (`rocprofiler_get_pc_sampling_instruction_type_name`).
pub(crate) fn instruction_type_name(code: u32) -> String {
    let word = match code {
        31 => "DUAL_VALU",
        c => INSTRUCTION_TYPES.get(c as usize).copied().unwrap_or("LAST"),
    };
    format!("ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_{word}")
}

/// rocprofiler-sdk's name of a gfx9 reason-not-issued code.
pub(crate) fn not_issued_reason_name(code: u32) -> String {
    let word = NOT_ISSUED_REASONS.get(code as usize).copied().unwrap_or("LAST");
    format!("ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_{word}")
}

/// The code object (id, offset of `pc` in it) holding `pc`.
fn code_object_of(c: &Collector, pc: u64) -> Option<(u64, u64)> {
    c.code_objects.iter().find(|&&(_, base, size)| base <= pc && pc < base + size).map(|&(id, base, _)| (id, pc - base))
}

/// The hotspot table: the `top` instructions by samples.
fn hotspots(rows: &[Row<'_>], c: &Collector, texts: &mut Texts, target: &dyn Fn(u64) -> String, top: usize) -> String {
    let mut by_pc: HashMap<u64, (u64, &PcSampleRecord, Option<u64>)> = HashMap::new();
    for r in rows {
        let e = by_pc.entry(r.sample.pc).or_insert((0, r.sample, r.dispatch));
        e.0 += 1;
    }
    let mut list: Vec<_> = by_pc.into_values().collect();
    list.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.pc.cmp(&b.1.pc)));
    let total = rows.len() as f64;
    let method = if rows.first().is_some_and(|r| r.sample.is_stochastic()) { "stochastic" } else { "host_trap" };
    let mut out = format!("\nPC SAMPLING HOTSPOTS ({method}, {} samples)\n", rows.len());
    out.push_str(&format!(
        "{:>8} {:>7}  {:<18} {:<12} {:<40} {}\n",
        "Samples", "%", "Code object+off", "PC", "Instruction", "Kernel"
    ));
    for (n, s, dispatch) in list.into_iter().take(top) {
        let kernel = dispatch
            .and_then(|d| c.dispatches.get(&d))
            .and_then(|(_, k)| c.kernels.get(k))
            .map_or("?", |(name, _)| name.as_str());
        let place = code_object_of(c, s.pc).map_or_else(|| "?".to_string(), |(id, off)| format!("{id}+{off:#x}"));
        let text = texts.text(&target(s.agent_handle), s);
        out.push_str(&format!(
            "{n:>8} {:>6.2}%  {place:<18} {:<12} {text:<40} {kernel}\n",
            100.0 * n as f64 / total,
            format!("{:#x}", s.pc)
        ));
    }
    out
}

/// A sample as rocprofv3's JSON writes it (`buffer_records.pc_sample_host_trap` / `_stochastic`
/// elements): `{"record": {...}, "inst_index": N}` with the record's fields in rocprofiler-sdk's
/// serialization order (`cxx/serialization/save.hpp`), the `HW_ID` register split as its gfx9 parser
/// splits it (`parser/translation.hpp`).
fn sample_json(r: &Row<'_>, dispatch: u64, correlation: u64, pc: (u64, u64), inst_index: i64) -> String {
    let s = r.sample;
    let h = s.hw_id;
    let f = |lo: u32, n: u32| (h >> lo) & ((1 << n) - 1);
    // The ROCr header puts the chiplet after the 6 bits of wave in workgroup.
    let chiplet = (s.wave_chiplet >> 6) & 7;
    let hw = format!(
        "{{\"chiplet\":{chiplet},\"wave_id\":{},\"simd_id\":{},\"pipe_id\":{},\"cu_or_wgp_id\":{},\"shader_array_id\":{},\"shader_engine_id\":{},\"workgroup_id \":{},\"vm_id\":{},\"queue_id\":{},\"microengine_id\":{}}}",
        f(0, 4),
        f(4, 2),
        f(6, 2),
        f(8, 4),
        f(12, 1),
        f(13, 3),
        f(16, 4),
        f(20, 4),
        f(24, 3),
        f(30, 2)
    );
    let common = format!(
        "\"hw_id\":{hw},\"pc\":{{\"code_object_id\":{},\"code_object_offset\":{}}},\"exec_mask\":{},\"timestamp\":{},\"dispatch_id\":{dispatch},\"corr_id\":{{\"internal\":{correlation},\"external\":0}},\"wrkgrp_id\":{{\"x\":{},\"y\":{},\"z\":{}}},\"wave_in_grp\":{}",
        pc.0,
        pc.1,
        s.exec_mask,
        s.timestamp_ns,
        s.workgroup_x,
        s.workgroup_y,
        s.workgroup_z,
        s.wave_chiplet & 0x3f
    );
    if !s.is_stochastic() {
        return format!("{{\"record\":{{{common}}},\"inst_index\":{inst_index}}}");
    }
    let x = s.snapshot();
    let a = |bit: u32| (x.arb_state >> bit) & 1;
    // Issue bits 0..8 and stall bits 8..16: misc, exp, flat, lds, vmem_tex, scalar, matrix, valu.
    let snapshot = format!(
        "{{\"stall_reason\":\"{}\",\"dual_issue_valu\":{},\"arb_state_issue_valu\":{},\"arb_state_issue_matrix\":{},\"arb_state_issue_lds\":{},\"arb_state_issue_lds_direct\":0,\"arb_state_issue_scalar\":{},\"arb_state_issue_vmem_tex\":{},\"arb_state_issue_flat\":{},\"arb_state_issue_exp\":{},\"arb_state_issue_misc\":{},\"arb_state_issue_brmsg\":0,\"arb_state_stall_valu\":{},\"arb_state_stall_matrix\":{},\"arb_state_stall_lds\":{},\"arb_state_stall_lds_direct\":0,\"arb_state_stall_scalar\":{},\"arb_state_stall_vmem_tex\":{},\"arb_state_stall_flat\":{},\"arb_state_stall_exp\":{},\"arb_state_stall_misc\":{},\"arb_state_stall_brmsg\":0}}",
        not_issued_reason_name(x.reason),
        u32::from(x.dual_issue_valu),
        a(7),
        a(6),
        a(3),
        a(5),
        a(4),
        a(2),
        a(1),
        a(0),
        a(15),
        a(14),
        a(11),
        a(13),
        a(12),
        a(10),
        a(9),
        a(8)
    );
    format!(
        "{{\"record\":{{\"flags\":{{\"has_mem_cnt\":0}},{common},\"wave_issued\":{},\"inst_type\":\"{}\",\"wave_cnt\":{},\"snapshot\":{snapshot}}},\"inst_index\":{inst_index}}}",
        u32::from(x.issued),
        instruction_type_name(x.inst_type),
        x.wave_count
    )
}

/// Puts the samples into the `results.json` the JSON writer wrote (`path`): the records into
/// `buffer_records.pc_sample_host_trap` / `pc_sample_stochastic`, the instruction texts and comments
/// their `inst_index` points at into `strings.pc_sample_instructions` / `pc_sample_comments` (one per
/// distinct code object and offset, as rocprofv3's metadata keeps them; -1 and no text for a PC in no
/// code object). The writer leaves those four arrays empty; each is found by its key followed by `[]`,
/// which cannot occur inside a JSON string (a quote there is escaped).
fn splice_json(
    path: &std::path::Path,
    rows: &[Row<'_>],
    c: &Collector,
    texts: &mut Texts,
    target: &dyn Fn(u64) -> String,
) -> Result<()> {
    let mut index: HashMap<(u64, u64), i64> = HashMap::new();
    let (mut instructions, mut comments) = (Vec::<String>::new(), Vec::<String>::new());
    let (mut host_trap, mut stochastic) = (String::new(), String::new());
    for r in rows {
        let s = r.sample;
        let (dispatch, correlation) =
            r.dispatch.and_then(|d| c.dispatches.get(&d).map(|x| (d, x.0))).unwrap_or_default();
        let (pc, inst_index) = match code_object_of(c, s.pc) {
            Some(place) => {
                let next = instructions.len() as i64;
                let k = *index.entry(place).or_insert(next);
                if k == next {
                    instructions.push(texts.text(&target(s.agent_handle), s));
                    comments.push(texts.lines.comment(c, s.pc));
                }
                (place, k)
            }
            None => ((0, s.pc), -1),
        };
        let out = if s.is_stochastic() { &mut stochastic } else { &mut host_trap };
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(&sample_json(r, dispatch, correlation, pc, inst_index));
    }
    let text = std::fs::read_to_string(path)?;
    let strings = |v: &[String]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    let mut fills = Vec::new();
    for (key, value) in [
        ("pc_sample_instructions", strings(&instructions)),
        ("pc_sample_comments", strings(&comments)),
        ("pc_sample_host_trap", format!("[{host_trap}]")),
        ("pc_sample_stochastic", format!("[{stochastic}]")),
    ] {
        let marker = format!("\"{key}\":[]");
        let Some(at) = text.find(&marker) else {
            anyhow::bail!("{}: no empty {key} array to fill", path.display());
        };
        fills.push((at, marker.len(), key, value));
    }
    // The writer's key order is not ours (its `strings` object is sorted): fill in file order.
    fills.sort_by_key(|f| f.0);
    let mut out = String::with_capacity(text.len() + fills.iter().map(|f| f.3.len()).sum::<usize>());
    let mut done = 0;
    for (at, len, key, value) in fills {
        out.push_str(&text[done..at]);
        out.push_str(&format!("\"{key}\":{value}"));
        done = at + len;
    }
    out.push_str(&text[done..]);
    let tmp = path.with_extension("json.pcs");
    std::fs::write(&tmp, out)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// The samples of each dispatch as counter tracks, one per sampled agent and method (see
/// `rocprof_writers::perfetto::pcsamp`), appended to the trace at `path`.
fn append_perfetto(path: &std::path::Path, rows: &[Row<'_>], c: &Collector) -> Result<()> {
    use rocprof_writers::perfetto::pcsamp::{counter_track_packets, CounterTrack};
    // (agent handle, stochastic) -> dispatch -> samples.
    let mut counts: std::collections::BTreeMap<(u64, bool), std::collections::BTreeMap<u64, i64>> = Default::default();
    for r in rows {
        if let Some(d) = r.dispatch.filter(|d| c.spans.contains_key(d)) {
            *counts.entry((r.sample.agent_handle, r.sample.is_stochastic())).or_default().entry(d).or_default() += 1;
        }
    }
    let mut tracks = Vec::new();
    for (k, ((agent, stochastic), per_dispatch)) in counts.into_iter().enumerate() {
        let mut spans: Vec<(u64, u64, i64)> =
            per_dispatch.iter().map(|(d, &n)| (c.spans[d].0, c.spans[d].1, n)).collect();
        spans.sort_unstable();
        let mut points: Vec<(u64, i64)> = Vec::new();
        for (start, end, n) in spans {
            // Overlapping dispatches (several queues) add up while both run.
            points.push((start, n));
            points.push((end, -n));
        }
        points.sort_by_key(|p| p.0);
        let mut level = 0;
        let points = points
            .into_iter()
            .map(|(t, delta)| {
                level += delta;
                (t, level)
            })
            .collect();
        let method = if stochastic { "stochastic" } else { "host_trap" };
        let gpu = c.agents.get(&agent).map_or("GPU", String::as_str);
        tracks.push(CounterTrack {
            uuid: 0x5043_0000_0000_0000 | k as u64,
            name: format!("PC samples ({method}) {gpu} {agent:#x}"),
            points,
        });
    }
    let bytes = counter_track_packets(&tracks);
    let mut f = std::fs::OpenOptions::new().append(true).open(path)?;
    std::io::Write::write_all(&mut f, &bytes)?;
    Ok(())
}

/// With `--stats`: `pc_sampling_<method>_stats.csv`, one row per kernel: its samples and their
/// share, and for stochastic samples how many found the wave issuing and the commonest reason
/// it did not (rocprofv3 names these files but writes none yet: its PC-sampling statistics are a
/// TODO in `generateStats.cpp`).
fn write_stats(out: &OutputLocation, rows: &[Row<'_>], c: &Collector) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for stochastic in [false, true] {
        let mine: Vec<&Row<'_>> = rows.iter().filter(|r| r.sample.is_stochastic() == stochastic).collect();
        if mine.is_empty() {
            continue;
        }
        // Kernel -> (samples, issued, reason -> count).
        let mut per: HashMap<String, (u64, u64, HashMap<u32, u64>)> = HashMap::new();
        for r in &mine {
            let name = r
                .dispatch
                .and_then(|d| c.dispatches.get(&d))
                .and_then(|(_, k)| c.kernels.get(k))
                .map_or_else(|| "(unknown dispatch)".to_string(), |(n, _)| n.clone());
            let e = per.entry(name).or_default();
            e.0 += 1;
            if stochastic {
                let x = r.sample.snapshot();
                if x.issued {
                    e.1 += 1;
                } else {
                    *e.2.entry(x.reason).or_default() += 1;
                }
            }
        }
        let mut list: Vec<_> = per.into_iter().collect();
        list.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
        let total = mine.len() as f64;
        let method = if stochastic { "stochastic" } else { "host_trap" };
        let mut text = String::from("\"Name\",\"Samples\",\"Percentage\"");
        if stochastic {
            text.push_str(",\"Issued\",\"Not_Issued\",\"Top_Stall_Reason\"");
        }
        text.push('\n');
        for (name, (n, issued, reasons)) in list {
            let quoted = name.replace('"', "\"\"");
            text.push_str(&format!("\"{quoted}\",{n},{:.6}", 100.0 * n as f64 / total));
            if stochastic {
                let top = reasons.iter().max_by_key(|(r, k)| (**k, std::cmp::Reverse(**r))).map(|(r, _)| *r);
                let top = top.map(not_issued_reason_name).unwrap_or_default();
                text.push_str(&format!(",{issued},{},\"{top}\"", n - issued));
            }
            text.push('\n');
        }
        let mut f = out.create(&format!("pc_sampling_{method}_stats.csv"))?;
        f.write_all(text.as_bytes())?;
        files.push(f.commit()?);
    }
    Ok(files)
}
