//! Shared virtual memory: `hsa_amd_svm_attributes_set` / `_get` and `hsa_amd_svm_prefetch_async`.
//!
//! hsa-sim reports `HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED`, and HIP's `hipMallocManaged` relies on it: it
//! maps host memory and sets SVM attributes on the range, then may prefetch it to a GPU. In the
//! simulator every byte is host memory that "GPUs" reach directly, so nothing moves; what is kept is
//! the attribute state, per page range, with ROCr's validation (`core/runtime/runtime.cpp`
//! `SetSvmAttrib` / `GetSvmAttrib` / `SvmPrefetch`) and the KFD's defaults for a range never set
//! (fine-grained, host-accessible, no GPU access, migration granularity 9 = 2 MiB, no preferred
//! location, prefetched to system memory).
//!
//! Simplification, stated: `_get` over a span that covers ranges with different attributes answers
//! from the page that holds `ptr` (the KFD would merge flags over the whole span).

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Mutex;
use std::time::Duration;

use rocprof_hsa_sys::*;

use crate::agent::{self, Agent};
use crate::ffi::{status, Status};
use crate::runtime::system;
use crate::signal::{self, Signal, ANY_SIGNAL};

const PAGE: u64 = 4096;

/// The KFD's default migration granularity (2^9 pages).
const DEFAULT_GRANULARITY: u64 = 9;

/// What one page range has been told.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Attributes {
    fine_grained: bool,
    read_only: bool,
    hive_local: bool,
    read_mostly: bool,
    gpu_exec: bool,
    host_access: bool,
    granularity: u64,
    /// Agent handle, 0 = none.
    preferred: u64,
    /// Agent handle, 0 = system memory (reported as the CPU agent).
    prefetched: u64,
    /// GPU agent handle -> `HSA_AMD_SVM_ATTRIB_AGENT_*` (absent: no access).
    access: Vec<(u64, hsa_amd_svm_attribute_t)>,
}

impl Default for Attributes {
    fn default() -> Self {
        Self {
            fine_grained: true,
            read_only: false,
            hive_local: false,
            read_mostly: false,
            gpu_exec: false,
            host_access: true,
            granularity: DEFAULT_GRANULARITY,
            preferred: 0,
            prefetched: 0,
            access: Vec::new(),
        }
    }
}

/// Page ranges `[start, end)` with their attributes; non-overlapping, keyed by start.
static RANGES: Mutex<BTreeMap<u64, (u64, Attributes)>> = Mutex::new(BTreeMap::new());

/// Every SVM range with attributes (agents may access them).
pub(crate) fn ranges() -> Vec<(u64, u64)> {
    RANGES.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|(&s, (e, _))| (s, *e)).collect()
}

fn page_span(ptr: *mut c_void, size: usize) -> (u64, u64) {
    let start = ptr as u64 & !(PAGE - 1);
    let end = (ptr as u64).saturating_add(size as u64).div_ceil(PAGE) * PAGE;
    (start, end)
}

/// Applies `update` to every page of `[start, end)`, splitting existing ranges at the edges and
/// filling gaps with default attributes first.
fn update(start: u64, end: u64, update: impl Fn(&mut Attributes)) {
    let mut map = RANGES.lock().unwrap_or_else(|e| e.into_inner());
    // Split the ranges that straddle `start` or `end`.
    for cut in [start, end] {
        let straddling = map.range(..cut).next_back().map(|(&s, (e, a))| (s, *e, a.clone()));
        if let Some((s, e, a)) = straddling {
            if s < cut && cut < e {
                map.insert(s, (cut, a.clone()));
                map.insert(cut, (e, a));
            }
        }
    }
    // Fill the gaps inside [start, end) with defaults.
    let mut gaps = Vec::new();
    let mut at = start;
    for (&s, (e, _)) in map.range(start..end) {
        if s > at {
            gaps.push((at, s));
        }
        at = *e;
    }
    if at < end {
        gaps.push((at, end));
    }
    for (s, e) in gaps {
        map.insert(s, (e, Attributes::default()));
    }
    for (_, (_, a)) in map.range_mut(start..end) {
        update(a);
    }
}

/// The attributes of the page holding `addr`.
fn attributes_at(addr: u64) -> Attributes {
    let map = RANGES.lock().unwrap_or_else(|e| e.into_inner());
    match map.range(..=addr).next_back() {
        Some((_, (end, a))) if addr < *end => a.clone(),
        _ => Attributes::default(),
    }
}

fn valid_agent(handle: u64) -> Result<&'static Agent, Status> {
    agent::lookup(hsa_agent_t { handle })
}

/// One attribute of a `_set` call, validated.
enum Change {
    Flag(fn(&mut Attributes) -> &mut bool, bool),
    Granularity(u64),
    Preferred(u64),
    Access(&'static Agent, hsa_amd_svm_attribute_t),
}

fn parse_set(list: &[hsa_amd_svm_attribute_pair_t]) -> Result<Vec<Change>, Status> {
    let mut seen_attributes = 0u32;
    let mut seen_agents: Vec<u64> = Vec::new();
    let mut changes = Vec::new();
    for pair in list {
        let (attribute, value) = (pair.attribute as hsa_amd_svm_attribute_t, pair.value);
        if attribute <= HSA_AMD_SVM_ATTRIB_GPU_EXEC && attribute != HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION {
            if seen_attributes & (1 << attribute) != 0 {
                return Err(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
            }
            seen_attributes |= 1 << attribute;
        }
        changes.push(match attribute {
            HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG => match value as hsa_amd_svm_model_t {
                HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED => Change::Flag(|a| &mut a.fine_grained, true),
                HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED => Change::Flag(|a| &mut a.fine_grained, false),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            },
            HSA_AMD_SVM_ATTRIB_READ_ONLY => Change::Flag(|a| &mut a.read_only, value != 0),
            HSA_AMD_SVM_ATTRIB_HIVE_LOCAL => Change::Flag(|a| &mut a.hive_local, value != 0),
            HSA_AMD_SVM_ATTRIB_READ_MOSTLY => Change::Flag(|a| &mut a.read_mostly, value != 0),
            HSA_AMD_SVM_ATTRIB_GPU_EXEC => Change::Flag(|a| &mut a.gpu_exec, value != 0),
            // At most 1 GiB (2^18 pages), as ROCr clamps it.
            HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY => Change::Granularity(value.min(18)),
            HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION => {
                if value != 0 {
                    valid_agent(value)?;
                }
                Change::Preferred(value)
            }
            HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE
            | HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE
            | HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS => {
                let agent = valid_agent(value)?;
                if seen_agents.contains(&value) {
                    return Err(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
                }
                seen_agents.push(value);
                Change::Access(agent, attribute)
            }
            _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
        });
    }
    Ok(changes)
}

fn apply(a: &mut Attributes, changes: &[Change]) {
    // ROCr grants host access if any CPU entry asks for it, whatever the order.
    let mut host = None;
    for c in changes {
        match *c {
            Change::Flag(field, v) => *field(a) = v,
            Change::Granularity(g) => a.granularity = g,
            Change::Preferred(h) => a.preferred = h,
            Change::Access(agent, kind) if agent.is_cpu() => {
                let grant = kind != HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS;
                host = Some(host.unwrap_or(false) || grant);
            }
            Change::Access(agent, kind) => {
                let h = agent.handle().handle;
                a.access.retain(|(x, _)| *x != h);
                if kind != HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS {
                    a.access.push((h, kind));
                }
            }
        }
    }
    if let Some(h) = host {
        a.host_access = h;
    }
}

/// # Safety
/// `attribute_list` holds `attribute_count` pairs (the `hsa_amd_svm_attributes_set` contract).
pub(crate) unsafe extern "C" fn hsa_amd_svm_attributes_set(
    ptr: *mut c_void,
    size: usize,
    attribute_list: *mut hsa_amd_svm_attribute_pair_t,
    attribute_count: usize,
) -> hsa_status_t {
    status(|| {
        system()?;
        if attribute_count > 0 && attribute_list.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let list = if attribute_count == 0 {
            &[][..]
        } else {
            // SAFETY: the caller passes `attribute_count` pairs (checked non-null).
            unsafe { std::slice::from_raw_parts(attribute_list, attribute_count) }
        };
        let changes = parse_set(list)?;
        if size == 0 {
            // The KFD refuses an empty range (ROCr: "hsaKmtSVMSetAttr failed").
            return Err(HSA_STATUS_ERROR);
        }
        let (start, end) = page_span(ptr, size);
        update(start, end, |a| apply(a, &changes));
        Ok(())
    })
}

/// # Safety
/// `attribute_list` holds `attribute_count` writable pairs (the `hsa_amd_svm_attributes_get` contract).
pub(crate) unsafe extern "C" fn hsa_amd_svm_attributes_get(
    ptr: *mut c_void,
    size: usize,
    attribute_list: *mut hsa_amd_svm_attribute_pair_t,
    attribute_count: usize,
) -> hsa_status_t {
    status(|| {
        let sys = system()?;
        if attribute_count > 0 && attribute_list.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if attribute_count == 0 {
            return Ok(());
        }
        // SAFETY: the caller passes `attribute_count` writable pairs (checked non-null).
        let list = unsafe { std::slice::from_raw_parts_mut(attribute_list, attribute_count) };
        let a = attributes_at(page_span(ptr, size).0);
        // Validate everything before writing anything, as ROCr does.
        for pair in list.iter() {
            match pair.attribute as hsa_amd_svm_attribute_t {
                HSA_AMD_SVM_ATTRIB_ACCESS_QUERY => {
                    valid_agent(pair.value)?;
                }
                HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG
                | HSA_AMD_SVM_ATTRIB_READ_ONLY
                | HSA_AMD_SVM_ATTRIB_HIVE_LOCAL
                | HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY
                | HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION
                | HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION
                | HSA_AMD_SVM_ATTRIB_READ_MOSTLY => {}
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        for pair in list.iter_mut() {
            match pair.attribute as hsa_amd_svm_attribute_t {
                HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG => {
                    pair.value = if a.fine_grained {
                        HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED
                    } else {
                        HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED
                    } as u64
                }
                HSA_AMD_SVM_ATTRIB_READ_ONLY => pair.value = a.read_only as u64,
                HSA_AMD_SVM_ATTRIB_HIVE_LOCAL => pair.value = a.hive_local as u64,
                HSA_AMD_SVM_ATTRIB_READ_MOSTLY => pair.value = a.read_mostly as u64,
                HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY => pair.value = a.granularity,
                HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION => pair.value = a.preferred,
                HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION => {
                    pair.value = if a.prefetched == 0 { sys.cpu().handle().handle } else { a.prefetched }
                }
                HSA_AMD_SVM_ATTRIB_ACCESS_QUERY => {
                    // The answer is the attribute itself: ACCESSIBLE, ACCESSIBLE_IN_PLACE or NO_ACCESS;
                    // the value (the agent) stays.
                    let agent = valid_agent(pair.value)?;
                    let kind = if agent.is_cpu() {
                        if a.host_access {
                            HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE
                        } else {
                            HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS
                        }
                    } else {
                        a.access
                            .iter()
                            .find(|(h, _)| *h == pair.value)
                            .map_or(HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, |(_, k)| *k)
                    };
                    pair.attribute = kind as _;
                }
                _ => unreachable!("validated above"),
            }
        }
        Ok(())
    })
}

/// # Safety
/// `dep_signals` holds `num_dep_signals` handles (the `hsa_amd_svm_prefetch_async` contract).
pub(crate) unsafe extern "C" fn hsa_amd_svm_prefetch_async(
    ptr: *mut c_void,
    size: usize,
    agent: hsa_agent_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let target = agent::lookup(agent)?;
        if num_dep_signals > 0 && dep_signals.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let deps = (0..num_dep_signals as usize)
            // SAFETY: `num_dep_signals` handles at `dep_signals` (checked non-null).
            .map(|i| signal::lookup(unsafe { dep_signals.add(i).read_unaligned() }))
            .collect::<Result<Vec<&'static Signal>, Status>>()?;
        let completion = if completion_signal.handle == 0 { None } else { Some(signal::lookup(completion_signal)?) };
        let (start, end) = page_span(ptr, size);
        let location = if target.is_cpu() { 0 } else { target.handle().handle };
        let finish = move || {
            // Nothing moves: simulated device memory is host memory.
            update(start, end, |a| a.prefetched = location);
            if let Some(c) = completion {
                c.subtract(1);
            }
        };
        if deps.iter().all(|s| s.load() == 0) {
            finish();
        } else {
            std::thread::Builder::new()
                .name("hsa-sim-prefetch".into())
                .spawn(move || {
                    loop {
                        let seen = ANY_SIGNAL.generation();
                        if deps.iter().all(|s| s.load() == 0) {
                            break;
                        }
                        ANY_SIGNAL.wait(seen, Duration::from_millis(1));
                    }
                    finish();
                })
                .map_err(|_| HSA_STATUS_ERROR_OUT_OF_RESOURCES)?;
        }
        Ok(())
    })
}
