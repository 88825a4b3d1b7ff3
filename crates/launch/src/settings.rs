//! The settings carried in one variable each, and thread trace's (carried in several).

use std::ffi::OsString;
use std::path::PathBuf;

use crate::names;
use crate::setting::{process_env, Setting};

/// Where the capture goes ([`names::CAPTURE_DIR`]); a path, so carried as an `OsString`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureDir(pub PathBuf);

impl CaptureDir {
    /// `(name, value)` for the launch environment.
    pub fn to_env(&self) -> (&'static str, OsString) {
        (names::CAPTURE_DIR, self.0.clone().into_os_string())
    }

    /// This process's capture directory, if the variable is set.
    pub fn from_process_env() -> Option<CaptureDir> {
        std::env::var_os(names::CAPTURE_DIR).map(|v| CaptureDir(PathBuf::from(v)))
    }
}

/// The library's verbosity ([`names::LOG_LEVEL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Failures that disable part of the tool.
    Error,
    /// Surprising conditions (the library's default).
    Warning,
    /// What the tool set up.
    Info,
    /// Everything.
    Trace,
}

impl Setting for LogLevel {
    const NAME: &'static str = names::LOG_LEVEL;

    fn encode(&self) -> String {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
            Self::Trace => "trace",
        }
        .into()
    }

    fn decode(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "error" | "fatal" => Ok(Self::Error),
            "warning" | "warn" => Ok(Self::Warning),
            "info" => Ok(Self::Info),
            "trace" | "debug" => Ok(Self::Trace),
            other => Err(format!("unknown log level `{other}`")),
        }
    }
}

macro_rules! trace_words {
    ($($(#[$doc:meta])* $id:ident = $word:literal,)*) => {
        /// One word of [`names::TRACE`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        pub enum TraceWord { $($(#[$doc])* $id,)* }

        impl TraceWord {
            /// Every word, in the order the CLI writes them.
            pub const ALL: &'static [TraceWord] = &[$(TraceWord::$id),*];

            /// The word.
            pub fn as_str(self) -> &'static str {
                match self { $(TraceWord::$id => $word,)* }
            }
        }
    };
}

trace_words! {
    /// Kernel dispatches.
    Kernel = "kernel",
    /// HIP runtime API.
    HipRuntime = "hip_runtime",
    /// HIP compiler API.
    HipCompiler = "hip_compiler",
    /// HSA core API.
    HsaCore = "hsa_core",
    /// HSA AMD extension API.
    HsaAmd = "hsa_amd",
    /// HSA image extension API.
    HsaImage = "hsa_image",
    /// HSA finalizer extension API.
    HsaFinalizer = "hsa_finalizer",
    /// ROCTx markers and ranges.
    Marker = "marker",
    /// Memory copies.
    MemoryCopy = "memory_copy",
    /// Memory allocations.
    MemoryAllocation = "memory_allocation",
    /// Scratch memory events.
    ScratchMemory = "scratch_memory",
    /// RCCL API (accepted, not traced).
    Rccl = "rccl",
    /// rocDecode API (accepted, not traced).
    RocDecode = "rocdecode",
    /// rocJPEG API (accepted, not traced).
    RocJpeg = "rocjpeg",
    /// Kernels take the innermost ROCTx range's name.
    KernelRename = "kernel_rename",
    /// Collection starts paused and follows roctxProfilerResume/Pause.
    SelectedRegions = "selected_regions",
    /// Kernels and copies grouped by queue.
    GroupByQueue = "group_by_queue",
}

/// The traced domains and their modifiers ([`names::TRACE`]: words, comma-separated). Unknown
/// words are ignored (a newer CLI may know more). Unset, the library traces kernels only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Trace(u32);

impl Trace {
    /// What the library traces when the variable is unset.
    pub const UNSET: Trace = Trace(1 << TraceWord::Kernel as u8);

    /// Whether `word` is on.
    pub fn has(self, word: TraceWord) -> bool {
        self.0 & (1 << word as u8) != 0
    }

    /// Turns `word` on or off.
    pub fn set(&mut self, word: TraceWord, on: bool) {
        if on {
            self.0 |= 1 << word as u8;
        } else {
            self.0 &= !(1 << word as u8);
        }
    }

    /// The process's setting, [`Trace::UNSET`] when the variable is not set.
    pub fn from_process_env() -> Trace {
        Trace::from_env(process_env).map_or(Trace::UNSET, |t| t.unwrap_or(Trace::UNSET))
    }
}

impl Setting for Trace {
    const NAME: &'static str = names::TRACE;

    fn encode(&self) -> String {
        TraceWord::ALL.iter().filter(|w| self.has(**w)).map(|w| w.as_str()).collect::<Vec<_>>().join(",")
    }

    fn decode(text: &str) -> Result<Self, String> {
        let mut t = Trace::default();
        for word in text.split(',').map(str::trim) {
            if let Some(w) = TraceWord::ALL.iter().find(|w| w.as_str() == word) {
                t.set(*w, true);
            }
        }
        Ok(t)
    }
}

/// What the library does when a record finds no free capture chunk (the writer that extends the
/// capture is behind). Chosen with `--buffer-policy`, carried in [`names::BUFFER_POLICY`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BufferPolicy {
    /// The recording thread waits for the writer (a short spin, then a futex wait): nothing is
    /// dropped, and the waits are reported (`stall_*` in the run's health). The default, as in
    /// rocprofiler-sdk.
    #[default]
    Lossless,
    /// The record is dropped and counted (loss reason `WriterBehind`): the application's slowdown
    /// stays bounded.
    Drop,
}

impl BufferPolicy {
    /// The variable.
    pub const ENV: &'static str = names::BUFFER_POLICY;
    /// Every policy.
    pub const ALL: [BufferPolicy; 2] = [Self::Lossless, Self::Drop];

    /// The policy's name on the command line and in the variable.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lossless => "lossless",
            Self::Drop => "drop",
        }
    }

    /// Parses a name of [`Self::as_str`].
    pub fn parse(s: &str) -> Result<Self, String> {
        let s = s.trim();
        Self::ALL.into_iter().find(|p| p.as_str() == s).ok_or_else(|| {
            format!("unknown buffer policy `{s}` (expected {})", Self::ALL.map(|p| p.as_str()).join(" or "))
        })
    }
}

impl Setting for BufferPolicy {
    const NAME: &'static str = names::BUFFER_POLICY;

    fn encode(&self) -> String {
        self.as_str().into()
    }

    fn decode(text: &str) -> Result<Self, String> {
        Self::parse(text)
    }
}

/// Completion signals gated in the queue instead of the default ([`names::GATE_COMPLETIONS`],
/// `1` = on; anything else is off).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GateCompletions(pub bool);

impl Setting for GateCompletions {
    const NAME: &'static str = names::GATE_COMPLETIONS;

    fn encode(&self) -> String {
        if self.0 { "1" } else { "0" }.into()
    }

    fn decode(text: &str) -> Result<Self, String> {
        Ok(GateCompletions(text.trim() == "1"))
    }
}

/// The kernel-name form kernel filters match ([`names::KERNEL_NAMES`]); anything but `mangled`
/// and `truncated` is the default, demangled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KernelNames {
    /// Raw symbol names (`-M`).
    Mangled,
    /// Demangled, `.kd` removed (default).
    #[default]
    Demangled,
    /// Bare function names (`-T`).
    Truncated,
}

impl Setting for KernelNames {
    const NAME: &'static str = names::KERNEL_NAMES;

    fn encode(&self) -> String {
        match self {
            Self::Mangled => "mangled",
            Self::Demangled => "demangled",
            Self::Truncated => "truncated",
        }
        .into()
    }

    fn decode(text: &str) -> Result<Self, String> {
        Ok(match text {
            "mangled" => Self::Mangled,
            "truncated" => Self::Truncated,
            _ => Self::Demangled,
        })
    }
}

/// `--collection-period` ([`names::COLLECTION_PERIODS`]): `delay_ns:duration_ns:repeat`
/// triplets, comma-separated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CollectionPeriods(pub Vec<(u64, u64, u64)>);

impl Setting for CollectionPeriods {
    const NAME: &'static str = names::COLLECTION_PERIODS;

    fn encode(&self) -> String {
        self.0.iter().map(|(d, du, r)| format!("{d}:{du}:{r}")).collect::<Vec<_>>().join(",")
    }

    fn decode(text: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let v: Vec<Option<u64>> = item.split(':').map(|x| x.trim().parse().ok()).collect();
            match v.as_slice() {
                [Some(d), Some(du), Some(r)] => out.push((*d, *du, *r)),
                _ => return Err(format!("{text:?} is not delay:duration:repeat,...")),
            }
        }
        Ok(CollectionPeriods(out))
    }
}

/// A PC-sampling method (rocprofv3's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PcsMethod {
    /// `host_trap`.
    HostTrap,
    /// `stochastic`.
    Stochastic,
}

/// A PC-sampling interval unit (rocprofv3's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PcsUnit {
    /// `time` (microseconds).
    Time,
    /// `cycles`.
    Cycles,
    /// `instructions`.
    Instructions,
}

/// PC sampling ([`names::PC_SAMPLING`]: `METHOD,UNIT,INTERVAL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PcSampling {
    /// The method.
    pub method: PcsMethod,
    /// The interval's unit.
    pub unit: PcsUnit,
    /// The interval (at least 1).
    pub interval: u64,
}

impl Setting for PcSampling {
    const NAME: &'static str = names::PC_SAMPLING;

    fn encode(&self) -> String {
        let method = match self.method {
            PcsMethod::HostTrap => "host_trap",
            PcsMethod::Stochastic => "stochastic",
        };
        let unit = match self.unit {
            PcsUnit::Time => "time",
            PcsUnit::Cycles => "cycles",
            PcsUnit::Instructions => "instructions",
        };
        format!("{method},{unit},{}", self.interval)
    }

    fn decode(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is not METHOD,UNIT,INTERVAL");
        let mut it = text.split(',').map(str::trim);
        let method = match it.next() {
            Some("host_trap") => PcsMethod::HostTrap,
            Some("stochastic") => PcsMethod::Stochastic,
            _ => return Err(bad()),
        };
        let unit = match it.next() {
            Some("time") => PcsUnit::Time,
            Some("cycles") => PcsUnit::Cycles,
            Some("instructions") => PcsUnit::Instructions,
            _ => return Err(bad()),
        };
        let interval = it.next().and_then(|n| n.parse().ok()).filter(|&n: &u64| n > 0).ok_or_else(bad)?;
        if it.next().is_some() {
            return Err(bad());
        }
        Ok(PcSampling { method, unit, interval })
    }
}

/// Thread trace (`--att`), carried in the `ATT*` variables of [`names`]. Values the library
/// cannot read take their defaults (as rocprofv3's tool does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttSettings {
    /// `--att-target-cu` (default 1).
    pub target_cu: u32,
    /// `--att-shader-engine-mask` (default 1).
    pub se_mask: u32,
    /// `--att-simd-select` (default 0xF).
    pub simd_select: u32,
    /// `--att-buffer-size` in bytes (default 256 MiB).
    pub buffer_size: u64,
    /// `--att-gpu-index`: GPU indices traced (`None` = all).
    pub gpu_index: Option<Vec<u32>>,
    /// `--att-serialize-all`.
    pub serialize_all: bool,
    /// `--att-perfcounter-ctrl` (1..32) when counters are streamed (gfx9).
    pub perf_ctrl: Option<u32>,
    /// Per gfx9 target: the streamed counters' SQ events and SIMD masks (`--att-perfcounters`,
    /// resolved by the CLI), `gfx942=4:f,26:f;gfx90a=...` in the variable.
    pub perf_events: Vec<(String, Vec<(u32, u32)>)>,
}

impl AttSettings {
    /// `(name, value)` pairs for the launch environment.
    pub fn to_env(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![
            (names::ATT, "1".to_string()),
            (names::ATT_TARGET_CU, self.target_cu.to_string()),
            (names::ATT_SE_MASK, format!("{:#x}", self.se_mask)),
            (names::ATT_SIMD_SELECT, format!("{:#x}", self.simd_select)),
            (names::ATT_BUFFER_SIZE, format!("{:#x}", self.buffer_size)),
        ];
        if let Some(l) = self.gpu_index.as_ref().filter(|l| !l.is_empty()) {
            let l: Vec<String> = l.iter().map(u32::to_string).collect();
            v.push((names::ATT_GPU_INDEX, l.join(",")));
        }
        if self.serialize_all {
            v.push((names::ATT_SERIALIZE_ALL, "1".into()));
        }
        if let Some(ctrl) = self.perf_ctrl {
            let per_target: Vec<String> = self
                .perf_events
                .iter()
                .map(|(gfx, ev)| {
                    let l: Vec<String> = ev.iter().map(|(e, m)| format!("{e}:{m:x}")).collect();
                    format!("{gfx}={}", l.join(","))
                })
                .collect();
            v.push((names::ATT_PERF_CTRL, ctrl.to_string()));
            v.push((names::ATT_PERF_EVENTS, per_target.join(";")));
        }
        v
    }

    /// Decodes the settings from `get`; `None` when [`names::ATT`] is not `1`.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Option<AttSettings> {
        let get = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        if get(names::ATT).as_deref() != Some("1") {
            return None;
        }
        let num = |k: &str, d: u64| -> u64 {
            get(k)
                .and_then(|v| {
                    let v = v.trim();
                    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                        Some(h) => u64::from_str_radix(h, 16).ok(),
                        None => v.parse().ok(),
                    }
                })
                .unwrap_or(d)
        };
        Some(AttSettings {
            target_cu: num(names::ATT_TARGET_CU, 1) as u32,
            se_mask: num(names::ATT_SE_MASK, 1) as u32,
            simd_select: num(names::ATT_SIMD_SELECT, 0xF) as u32,
            buffer_size: num(names::ATT_BUFFER_SIZE, 0x1000_0000),
            gpu_index: get(names::ATT_GPU_INDEX).map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect()),
            serialize_all: get(names::ATT_SERIALIZE_ALL).as_deref() == Some("1"),
            perf_ctrl: get(names::ATT_PERF_CTRL).and_then(|v| v.trim().parse().ok()).filter(|c| (1..=32).contains(c)),
            perf_events: get(names::ATT_PERF_EVENTS).map(|v| parse_perf_events(&v)).unwrap_or_default(),
        })
    }
}

/// `gfx942=4:f,26:f;gfx90a=...` (event:hex SIMD mask per counter, per target); a malformed
/// target is left out.
fn parse_perf_events(v: &str) -> Vec<(String, Vec<(u32, u32)>)> {
    v.split(';')
        .filter_map(|t| {
            let (gfx, list) = t.split_once('=')?;
            let ev: Option<Vec<(u32, u32)>> = list
                .split(',')
                .map(|e| {
                    let (ev, mask) = e.split_once(':')?;
                    Some((ev.trim().parse().ok()?, u32::from_str_radix(mask.trim(), 16).ok()?))
                })
                .collect();
            Some((gfx.trim().to_string(), ev?))
        })
        .collect()
}
