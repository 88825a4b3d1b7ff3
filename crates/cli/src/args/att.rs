//! Thread-trace options (rocprofv3 section 10): `--att` and its `--att-*` parameters, validated
//! before the application starts into [`AttOptions`].

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use crate::options::{AttOptions, DecoderChoice, TargetEvents};

/// The SQ counters `--att-activity` streams (rocprofv3's list).
const ACTIVITY_COUNTERS: &[&str] = &[
    "SQ_BUSY_CU_CYCLES",
    "SQ_VALU_MFMA_BUSY_CYCLES",
    "SQ_ACTIVE_INST_VALU",
    "SQ_ACTIVE_INST_LDS",
    "SQ_ACTIVE_INST_VMEM",
    "SQ_ACTIVE_INST_FLAT",
    "SQ_ACTIVE_INST_SCA",
    "SQ_ACTIVE_INST_MISC",
];

/// `--att` and the `--att-*` options.
#[derive(Debug, Default, Args)]
pub(crate) struct AttArgs {
    /// Capture SQ thread traces (ATT) of the selected dispatches (default: the first dispatch of
    /// each kernel) and decode them after the run into rocprofv3's ui_output directories, stats
    /// CSVs and a hotspot report.
    #[arg(long, visible_alias = "advanced-thread-trace", value_name = "BOOL", num_args = 0..=1,
          default_missing_value = "true", value_parser = super::parse_bool)]
    att: Option<bool>,

    /// CU (gfx9) or WGP (gfx10+) whose waves get instruction tokens (0..15; default 1).
    #[arg(long, value_name = "N", value_parser = parse_int)]
    att_target_cu: Option<u64>,

    /// Shader engines to trace, as a bit mask (default 0x1).
    #[arg(long, value_name = "MASK", value_parser = parse_int)]
    att_shader_engine_mask: Option<u64>,

    /// SIMDs to trace: a bit mask on gfx9, a SIMD id on gfx10+ (default 0xF).
    #[arg(long, value_name = "N", value_parser = parse_int)]
    att_simd_select: Option<u64>,

    /// Trace buffer size in bytes, shared by the traced shader engines (default 0x10000000).
    #[arg(long, value_name = "BYTES", value_parser = parse_int)]
    att_buffer_size: Option<u64>,

    /// GPUs to trace, by index (comma list; default: all).
    #[arg(long, value_name = "N[,N...]", value_delimiter = ',')]
    att_gpu_index: Vec<u32>,

    /// Also serialise the dispatches that are not traced.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true",
          value_parser = super::parse_bool)]
    att_serialize_all: Option<bool>,

    /// gfx9: SQ counters streamed into the trace, "NAME[:simdmask] ..." (up to 8).
    #[arg(long, value_name = "COUNTERS")]
    att_perfcounters: Option<String>,

    /// gfx9: sampling period of the streamed counters (1..32); required with --att-perfcounters.
    #[arg(long, value_name = "N", value_parser = parse_int)]
    att_perfcounter_ctrl: Option<u64>,

    /// gfx9: shorthand for --att-perfcounter-ctrl N with the eight SQ activity counters (1..16).
    #[arg(long, value_name = "N", value_parser = parse_int)]
    att_activity: Option<u64>,

    /// AMD's decoder library (librocprof-trace-decoder.so) or directories holding it; decodes
    /// with it instead of the native decoder.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    att_library_path: Vec<PathBuf>,

    /// Decoder: native (default) or amd.
    #[arg(long, value_name = "native|amd")]
    att_decoder: Option<String>,
}

/// Integer in decimal or `0x` hex, as rocprofv3 accepts.
fn parse_int(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| format!("expected an integer (decimal or 0x hex), got '{s}'"))
}

impl AttArgs {
    /// Whether any `--att-*` parameter was given (they need `--att`).
    fn any_parameter(&self) -> bool {
        self.att_target_cu.is_some()
            || self.att_shader_engine_mask.is_some()
            || self.att_simd_select.is_some()
            || self.att_buffer_size.is_some()
            || !self.att_gpu_index.is_empty()
            || self.att_serialize_all.is_some()
            || self.att_perfcounters.is_some()
            || self.att_perfcounter_ctrl.is_some()
            || self.att_activity.is_some()
    }

    /// Validates into the configuration (`None` without `--att`). `pmc`: whether `--pmc` was
    /// given (rocprofv3 refuses the streamed-counter options with it).
    pub(crate) fn into_options(self, pmc: bool) -> Result<Option<AttOptions>> {
        if !self.att.unwrap_or(false) {
            if self.any_parameter() {
                bail!("--att-* options need --att");
            }
            return Ok(None);
        }
        let target_cu = self.att_target_cu.unwrap_or(1);
        if target_cu > 15 {
            bail!("--att-target-cu: {target_cu} is out of range (0..15)");
        }
        let se_mask = self.att_shader_engine_mask.unwrap_or(1);
        if se_mask == 0 || se_mask > u64::from(u32::MAX) {
            bail!("--att-shader-engine-mask: {se_mask:#x} selects no shader engine or is too wide (32 bits)");
        }
        let simd_select = self.att_simd_select.unwrap_or(0xF);
        if simd_select > 0xF {
            bail!("--att-simd-select: {simd_select:#x} is out of range (0..0xF)");
        }
        let buffer_size = self.att_buffer_size.unwrap_or(0x1000_0000);
        if buffer_size < 1 << 17 {
            bail!("--att-buffer-size: {buffer_size} bytes is too small (at least 0x20000 per traced shader engine)");
        }
        if self.att_activity.is_some() && (self.att_perfcounters.is_some() || self.att_perfcounter_ctrl.is_some()) {
            bail!("--att-activity cannot be combined with --att-perfcounters or --att-perfcounter-ctrl");
        }
        if pmc
            && (self.att_activity.is_some() || self.att_perfcounters.is_some() || self.att_perfcounter_ctrl.is_some())
        {
            bail!("--att-perfcounters, --att-perfcounter-ctrl and --att-activity cannot be combined with --pmc");
        }
        let (perfcounters, ctrl) = if let Some(n) = self.att_activity {
            if !(1..=16).contains(&n) {
                bail!("--att-activity: {n} is out of range (1..16)");
            }
            (ACTIVITY_COUNTERS.iter().map(|c| (c.to_string(), None)).collect(), Some(n as u32))
        } else {
            let list = match &self.att_perfcounters {
                Some(s) => parse_perfcounters(s)?,
                None => Vec::new(),
            };
            match (list.is_empty(), self.att_perfcounter_ctrl) {
                (true, None) => (list, None),
                (false, Some(c)) if (1..=32).contains(&c) => (list, Some(c as u32)),
                (_, Some(c)) if !(1..=32).contains(&c) => bail!("--att-perfcounter-ctrl: {c} is out of range (1..32)"),
                _ => bail!("ATT perf requires setting both --att-perfcounter-ctrl and --att-perfcounters"),
            }
        };
        let perf_events = perf_events(&perfcounters)?;
        let decoder = DecoderChoice::resolve(self.att_decoder.as_deref(), &self.att_library_path)?;
        if let DecoderChoice::Amd(path) = &decoder {
            // Fail before the application runs, not after. With --att-library-path only the
            // named places are searched, not $ROCPROF_ATT_LIBRARY_PATH (rocprofv3's get_att_paths).
            let loaded = if self.att_library_path.is_empty() {
                rocprof_sqtt_amd::AmdDecoder::load(path.as_deref()).map(drop)
            } else {
                let named: Vec<PathBuf> = self
                    .att_library_path
                    .iter()
                    .map(|p| if p.is_dir() { p.join(rocprof_sqtt_amd::LIBRARY_NAME) } else { p.clone() })
                    .collect();
                rocprof_sqtt_amd::AmdDecoder::load_from(&named).map(drop)
            };
            if let Err(e) = loaded {
                bail!("{e}");
            }
        }
        Ok(Some(AttOptions {
            target_cu: target_cu as u32,
            se_mask: se_mask as u32,
            simd_select: simd_select as u32,
            buffer_size,
            gpu_index: self.att_gpu_index,
            serialize_all: self.att_serialize_all.unwrap_or(false),
            perfcounters,
            perfcounter_ctrl: ctrl,
            perf_events,
            decoder,
        }))
    }
}

/// The SQ events of the streamed counters on every gfx9 target of the counter database that has
/// them all (streamed counters are a gfx9 feature). A name that is no SQ hardware counter on any
/// gfx9 target is an error before launch.
fn perf_events(counters: &[(String, Option<u32>)]) -> Result<Vec<TargetEvents>> {
    if counters.is_empty() {
        return Ok(Vec::new());
    }
    let db = rocprof_counters::Database::builtin();
    let gfx9: Vec<_> = db.targets().iter().filter(|t| t.family == rocprof_counters::Family::Gfx9).collect();
    let sq_event = |t: &rocprof_counters::Target, name: &str| match t.counter(name).map(|c| &c.kind) {
        Some(rocprof_counters::CounterKind::Base { block, event }) if block == "SQ" => Some(*event),
        _ => None,
    };
    for (name, mask) in counters {
        if !gfx9.iter().any(|t| sq_event(t, name).is_some()) {
            bail!("--att-perfcounters: {name} is not an SQ hardware counter of any gfx9 target (see rocprof-rs avail; derived counters cannot be streamed)");
        }
        if mask.is_some_and(|m| m == 0 || m > 0xF) {
            bail!("--att-perfcounters: the SIMD mask of {name} must be 1..f");
        }
    }
    Ok(gfx9
        .iter()
        .filter_map(|t| {
            let ev: Option<Vec<(u32, u32)>> =
                counters.iter().map(|(n, m)| sq_event(t, n).map(|e| (e, m.unwrap_or(0xF)))).collect();
            ev.map(|ev| (t.name.clone(), ev))
        })
        .collect())
}

/// `"NAME[:simdmask_hex] ..."` (space or comma separated, upper-cased, at most 8).
fn parse_perfcounters(s: &str) -> Result<Vec<(String, Option<u32>)>> {
    let mut out = Vec::new();
    for item in s.split([' ', ',']).filter(|t| !t.is_empty()) {
        let (name, mask) = match item.split_once(':') {
            Some((n, m)) => {
                let m = u32::from_str_radix(m.trim_start_matches("0x"), 16)
                    .map_err(|_| anyhow::anyhow!("--att-perfcounters: bad SIMD mask in '{item}' (hex expected)"))?;
                (n, Some(m))
            }
            None => (item, None),
        };
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            bail!("--att-perfcounters: '{name}' is not a counter name");
        }
        out.push((name.to_ascii_uppercase(), mask));
    }
    if out.len() > 8 {
        bail!("--att-perfcounters: at most 8 counters (2 banks of 4), got {}", out.len());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        att: AttArgs,
    }

    fn opts(args: &[&str]) -> Result<Option<AttOptions>> {
        let t =
            T::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map_err(|e| anyhow::anyhow!("{e}"))?;
        t.att.into_options(false)
    }

    #[test]
    fn defaults_are_rocprofv3s() {
        let o = opts(&["--att"]).unwrap().unwrap();
        assert_eq!((o.target_cu, o.se_mask, o.simd_select, o.buffer_size), (1, 1, 0xF, 0x1000_0000));
        // Native unless the environment names AMD's library (as when the suite runs with it).
        let env = std::env::var_os("ROCPROF_ATT_LIBRARY_PATH").filter(|p| !p.is_empty());
        match env {
            None => assert_eq!(o.decoder, DecoderChoice::Native),
            Some(p) => assert_eq!(o.decoder, DecoderChoice::Amd(Some(p.into()))),
        }
        assert_eq!(opts(&["--att", "--att-decoder", "native"]).unwrap().unwrap().decoder, DecoderChoice::Native);
        assert!(opts(&["--advanced-thread-trace", "--att-target-cu", "0x3"])
            .unwrap()
            .is_some_and(|o| o.target_cu == 3));
        assert_eq!(opts(&[]).unwrap(), None);
    }

    #[test]
    fn streamed_counters_resolve_to_sq_events_per_gfx9_target() {
        let o = opts(&["--att", "--att-perfcounters", "SQ_WAVES:3 SQ_INSTS_VALU", "--att-perfcounter-ctrl", "4"])
            .unwrap()
            .unwrap();
        // The database's SQ events: SQ_WAVES 4, SQ_INSTS_VALU 26 on gfx908 (counters.txt).
        let gfx908 = o.perf_events.iter().find(|(g, _)| g == "gfx908").unwrap();
        assert_eq!(gfx908.1, [(4, 3), (26, 0xF)]);
        let targets: Vec<&str> = o.perf_events.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(targets, ["gfx908", "gfx90a", "gfx942", "gfx950"]);
        let env = o.settings().to_env();
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()).unwrap();
        assert_eq!(get(rocprof_launch::names::ATT_PERF_CTRL), "4");
        assert!(get(rocprof_launch::names::ATT_PERF_EVENTS).starts_with("gfx908=4:3,26:f;gfx90a="));
        // SQ_VALU_MFMA_BUSY_CYCLES (in --att-activity's set) is not a gfx908 counter: gfx908 is left out.
        let o = opts(&["--att", "--att-activity", "1"]).unwrap().unwrap();
        assert!(o.perf_events.iter().all(|(g, ev)| g != "gfx908" && ev.len() == 8));
        assert!(!o.perf_events.is_empty());
    }

    #[test]
    fn invalid_combinations_are_one_line_errors() {
        let e = |a: &[&str]| opts(a).unwrap_err().to_string();
        assert!(e(&["--att-target-cu", "2"]).contains("need --att"));
        assert!(e(&["--att", "--att-target-cu", "16"]).contains("out of range"));
        assert!(e(&["--att", "--att-buffer-size", "4096"]).contains("too small"));
        assert!(e(&["--att", "--att-perfcounters", "SQ_WAVES"]).contains("both"));
        assert!(e(&["--att", "--att-activity", "4", "--att-perfcounter-ctrl", "2"]).contains("cannot be combined"));
        assert!(e(&["--att", "--att-decoder", "llvm"]).contains("native or amd"));
        let o = opts(&["--att", "--att-activity", "8"]).unwrap().unwrap();
        assert_eq!((o.perfcounters.len(), o.perfcounter_ctrl), (8, Some(8)));
        let o = opts(&["--att", "--att-perfcounters", "sq_waves:3 SQ_BUSY_CYCLES", "--att-perfcounter-ctrl", "4"])
            .unwrap()
            .unwrap();
        assert_eq!(o.counter_names(), ["SQ_WAVES:3", "SQ_BUSY_CYCLES"]);
        let e2 = |a: &[&str]| opts(a).unwrap_err().to_string();
        let err = e2(&["--att", "--att-perfcounters", "SQ_WAVES GRBM_COUNT", "--att-perfcounter-ctrl", "2"]);
        assert!(err.contains("GRBM_COUNT is not an SQ hardware counter"), "{err}");
        assert!(e2(&["--att", "--att-perfcounters", "SQ_WAVES:0", "--att-perfcounter-ctrl", "2"]).contains("SIMD mask"));
        let t = T::try_parse_from(["t", "--att", "--att-activity", "2"]).unwrap();
        assert!(t.att.into_options(true).unwrap_err().to_string().contains("--pmc"));
    }
}
