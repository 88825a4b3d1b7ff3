//! PC-sampling outputs: `pc_sampling_host_trap.csv` (rocprofv3's six columns) and the hotspot table on
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
use rocprof_model::capture::pcsamp::{PcSampleRecord, PcSamples};
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
    /// Kernel id -> (name, code object id).
    kernels: HashMap<u64, (String, u64)>,
    /// Code objects: (id, load base, load size).
    code_objects: Vec<(u64, u64, u64)>,
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
            Record::CodeObject(c) => self.code_objects.push((c.id.0, c.load_base, c.load_size)),
            Record::KernelSymbol(k) => {
                self.kernels.insert(k.id.0, (s(k.formatted_name), k.code_object.0));
            }
            Record::KernelDispatch(d) => {
                self.dispatches.insert(d.dispatch_id.0, (d.correlation_id.0, d.kernel.0));
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, _: &Session<'_>) -> rocprof_writers::Result<Vec<PathBuf>> {
        Ok(Vec::new())
    }
}

/// One sample, resolved.
struct Row<'a> {
    sample: &'a PcSampleRecord,
    dispatch: Option<u64>,
}

/// Instruction text by (target, pc), computed once per distinct PC.
struct Texts {
    llvm: HashMap<String, Option<LlvmDisassembler>>,
    cache: HashMap<u64, String>,
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

/// Writes the PC-sampling outputs of one process: the CSV with `csv` among the formats, the hotspot
/// table to stdout. Returns the files written; warns about samples no dispatch claims.
pub(crate) fn write(
    pid: u32,
    samples: &PcSamples,
    c: &Collector,
    out: &OutputLocation,
    csv: bool,
    top: usize,
) -> Result<Vec<PathBuf>> {
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
    let mut texts = Texts { llvm: HashMap::new(), cache: HashMap::new() };
    let target = |h: u64| c.agents.get(&h).cloned().unwrap_or_default();
    let mut files = Vec::new();
    if csv {
        let mut f = out.create("pc_sampling_host_trap.csv")?;
        let mut text = String::from(
            "\"Sample_Timestamp\",\"Exec_Mask\",\"Dispatch_Id\",\"Instruction\",\"Instruction_Comment\",\"Correlation_Id\"\n",
        );
        for r in &rows {
            let s = r.sample;
            let (dispatch, correlation) =
                r.dispatch.and_then(|d| c.dispatches.get(&d).map(|x| (d, x.0))).unwrap_or_default();
            let inst = texts.text(&target(s.agent_handle), s);
            let comment = if code_object_of(c, s.pc).is_some() {
                String::new()
            } else {
                format!("Unrecognized code object id, physical virtual address of PC:{}", s.pc)
            };
            text.push_str(&format!(
                "{},{},{dispatch},\"{inst}\",\"{comment}\",{correlation}\n",
                s.timestamp_ns, s.exec_mask
            ));
            if text.len() > 1 << 16 {
                f.write_all(text.as_bytes())?;
                text.clear();
            }
        }
        f.write_all(text.as_bytes())?;
        files.push(f.commit()?);
    }
    print!("{}", hotspots(&rows, c, &mut texts, &target, top));
    Ok(files)
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
    let mut out = format!("\nPC SAMPLING HOTSPOTS (host_trap, {} samples)\n", rows.len());
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
