//! Finding captured thread traces on disk.
//!
//! Two layouts are understood:
//!
//! * **rocprofv3's** (and ours): `<prefix>_<agent>_shader_engine_<se>_<dispatch>.att`, one per
//!   traced shader engine of a dispatch, next to `<prefix>_<gfx>_code_object_id_<id>.out`, the
//!   code objects loaded in the process. Which object sat where comes from the code-object
//!   markers inside the streams (see `rocprof_sqtt::markers`). `<prefix>` is the `-o` prefix
//!   (`<pid>` by default); files of different prefixes (processes) are kept apart.
//! * **the conformance corpus'**: a directory with `seN.att`, `code.elf` and `meta.json` (whose
//!   `load_base` says where the code object was loaded; tinygrad's captures carry no markers).
//!
//! Directories are searched recursively; outputs are written relative to the directory a capture
//! was found in.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// One traced shader engine's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeFile {
    /// Shader engine index.
    pub se: u32,
    /// The `.att` file.
    pub path: PathBuf,
}

/// Where the code of a capture comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeSource {
    /// Code objects by the id the markers in the streams use (rocprofv3 layout).
    ById {
        /// `(id, .out file)`.
        objects: Vec<(u64, PathBuf)>,
    },
    /// One code object at a known load base (corpus layout).
    Fixed {
        /// The ELF file.
        elf: PathBuf,
        /// Absolute address of ELF virtual address 0.
        load_base: u64,
    },
}

/// One traced dispatch found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// Directory the files were found in (outputs go there, or to the same relative place under
    /// an output directory).
    pub dir: PathBuf,
    /// `-o` prefix of the files (empty for the corpus layout); names the process.
    pub prefix: String,
    /// Agent as written in the file names (rocprofv3's agent handle).
    pub agent: String,
    /// Dispatch id.
    pub dispatch: u64,
    /// GPU target from the code-object file names or metadata (`gfx942`), if known.
    pub target: Option<String>,
    /// Kernel name from metadata, if known (rocprofv3's layout takes it from the code objects).
    pub kernel: Option<String>,
    /// The streams, by shader engine.
    pub streams: Vec<SeFile>,
    /// The code.
    pub code: CodeSource,
}

impl Capture {
    /// `ui_output_agent_<agent>_dispatch_<dispatch>`, rocprofv3's directory name.
    pub fn ui_output_name(&self) -> String {
        format!("ui_output_agent_{}_dispatch_{}", self.agent, self.dispatch)
    }

    /// A short name for messages: the dispatch, and the process prefix or (corpus layout) the
    /// directory.
    pub fn label(&self) -> String {
        let s = format!("agent {} dispatch {}", self.agent, self.dispatch);
        match &self.code {
            CodeSource::Fixed { .. } => {
                let parts: Vec<_> = self.dir.components().rev().take(2).collect();
                let dir: PathBuf = parts.into_iter().rev().collect();
                format!("{} ({s})", dir.display())
            }
            CodeSource::ById { .. } if !self.prefix.is_empty() => format!("{} ({s})", self.prefix),
            CodeSource::ById { .. } => s,
        }
    }
}

/// `<prefix>_<agent>_shader_engine_<se>_<dispatch>.att` → `(prefix, agent, se, dispatch)`.
pub fn parse_att_name(name: &str) -> Option<(String, String, u32, u64)> {
    let stem = name.strip_suffix(".att")?;
    let (head, tail) = stem.rsplit_once("_shader_engine_")?;
    let (se, dispatch) = tail.split_once('_')?;
    let (se, dispatch) = (se.parse().ok()?, dispatch.parse().ok()?);
    let (prefix, agent) = match head.rsplit_once('_') {
        Some((p, a)) => (p.to_string(), a.to_string()),
        None => (String::new(), head.to_string()),
    };
    (!agent.is_empty()).then_some((prefix, agent, se, dispatch))
}

/// `<prefix>_<gfx>_code_object_id_<id>.out` → `(prefix, gfx, id)`.
pub fn parse_out_name(name: &str) -> Option<(String, String, u64)> {
    let stem = name.strip_suffix(".out")?;
    let (head, id) = stem.rsplit_once("_code_object_id_")?;
    let id = id.parse().ok()?;
    let (prefix, gfx) = match head.rsplit_once('_') {
        Some((p, g)) => (p.to_string(), g.to_string()),
        None => (String::new(), head.to_string()),
    };
    gfx.starts_with("gfx").then_some((prefix, gfx, id))
}

/// Every capture under `dir`, sorted by directory, prefix, agent and dispatch.
pub fn discover(dir: &Path) -> Result<Vec<Capture>> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let mut files = Vec::new();
        for e in std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))? {
            let e = e.map_err(|e| Error::io(&d, e))?;
            let path = e.path();
            let ty = e.file_type().map_err(|e| Error::io(&path, e))?;
            if ty.is_dir() {
                // Our own outputs hold no traces; skip them (and hidden directories) quickly.
                let name = e.file_name();
                let name = name.to_string_lossy();
                if !name.starts_with("ui_output_") && !name.starts_with('.') {
                    dirs.push(path);
                }
            } else {
                files.push(path);
            }
        }
        files.sort();
        in_directory(&d, &files, &mut out)?;
    }
    if out.is_empty() {
        return Err(Error::Empty { path: dir.to_path_buf() });
    }
    out.sort_by(|a, b| (&a.dir, &a.prefix, &a.agent, a.dispatch).cmp(&(&b.dir, &b.prefix, &b.agent, b.dispatch)));
    Ok(out)
}

fn file_name(p: &Path) -> &str {
    p.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

fn in_directory(dir: &Path, files: &[PathBuf], out: &mut Vec<Capture>) -> Result<()> {
    // rocprofv3 layout.
    type Key = (String, String, u64);
    let mut streams: BTreeMap<Key, Vec<SeFile>> = BTreeMap::new();
    let mut objects: BTreeMap<String, Vec<(u64, String, PathBuf)>> = BTreeMap::new();
    for f in files {
        let name = file_name(f);
        if let Some((prefix, agent, se, dispatch)) = parse_att_name(name) {
            streams.entry((prefix, agent, dispatch)).or_default().push(SeFile { se, path: f.clone() });
        } else if let Some((prefix, gfx, id)) = parse_out_name(name) {
            objects.entry(prefix).or_default().push((id, gfx, f.clone()));
        }
    }
    for ((prefix, agent, dispatch), mut ses) in streams {
        ses.sort_by_key(|s| s.se);
        let objs = objects.get(&prefix).cloned().unwrap_or_default();
        out.push(Capture {
            dir: dir.to_path_buf(),
            target: objs.first().map(|(_, g, _)| g.clone()),
            kernel: None,
            prefix,
            agent,
            dispatch,
            streams: ses,
            code: CodeSource::ById { objects: objs.into_iter().map(|(id, _, p)| (id, p)).collect() },
        });
    }
    // Corpus layout.
    let meta = dir.join("meta.json");
    let elf = dir.join("code.elf");
    if files.contains(&meta) && files.contains(&elf) {
        let mut ses: Vec<SeFile> = files
            .iter()
            .filter_map(|f| {
                let n = file_name(f);
                let se = n.strip_prefix("se")?.strip_suffix(".att")?.parse().ok()?;
                Some(SeFile { se, path: f.clone() })
            })
            .collect();
        if !ses.is_empty() {
            ses.sort_by_key(|s| s.se);
            let text = std::fs::read_to_string(&meta).map_err(|e| Error::io(&meta, e))?;
            let v: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| Error::Metadata { path: meta.clone(), what: format!("not JSON: {e}") })?;
            let load_base = v["load_base"].as_u64().ok_or_else(|| Error::Metadata {
                path: meta.clone(),
                what: "no numeric \"load_base\" (where code.elf was loaded)".into(),
            })?;
            let target = v["code_object_target"]
                .as_str()
                .map(|t| t.split(':').next().unwrap_or(t).to_string())
                .filter(|t| t.starts_with("gfx"));
            out.push(Capture {
                dir: dir.to_path_buf(),
                prefix: String::new(),
                agent: "0".into(),
                dispatch: v["dispatch_index"].as_u64().unwrap_or(0) + 1,
                target,
                kernel: v["kernel_name"].as_str().map(str::to_string),
                streams: ses,
                code: CodeSource::Fixed { elf, load_base },
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rocprofv3_file_names() {
        assert_eq!(parse_att_name("12345_13757_shader_engine_3_17.att"), Some(("12345".into(), "13757".into(), 3, 17)));
        assert_eq!(parse_att_name("13757_shader_engine_0_1.att"), Some(("".into(), "13757".into(), 0, 1)));
        assert_eq!(parse_att_name("run_a_13757_shader_engine_0_x.att"), None);
        assert_eq!(parse_att_name("se0.att"), None);
        assert_eq!(parse_out_name("12345_gfx942_code_object_id_2.out"), Some(("12345".into(), "gfx942".into(), 2)));
        assert_eq!(parse_out_name("gfx1100_code_object_id_1.out"), Some(("".into(), "gfx1100".into(), 1)));
        assert_eq!(parse_out_name("12345_code_object_id_2.out"), None, "no gfx name");
    }
}
