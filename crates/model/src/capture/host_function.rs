//! HIP function registrations in the capture ([`HostFunctionRecord`], one per
//! `__hipRegisterFunction` call) and their matching to kernel symbols
//! ([`match_host_functions`], rocprofiler-sdk's rule, see [`crate::host_function`]).

use std::collections::HashMap;

use super::format::{fixed_record, Field, FixedRecord, RecordKind};
use crate::host_function::HostFunction;
use crate::records::{KernelSymbol, StringId, StringTable};

fixed_record!(
    /// One `__hipRegisterFunction(modules, hostFunction, deviceFunction, deviceName, threadLimit,
    /// tid, bid, blockDim, gridDim, wSize)` call, the pointed-to values read (0 for NULL).
    HostFunctionRecord = HostFunction {
        /// `hostFunction`.
        host_function: u64,
        /// `modules`.
        modules: u64,
        /// `*wSize`.
        workgroup_size: u64,
        /// String id of `deviceFunction`.
        device_function: u32,
        /// `threadLimit`.
        thread_limit: u32,
        /// `tid->x`.
        tid_x: u32,
        /// `tid->y`.
        tid_y: u32,
        /// `tid->z`.
        tid_z: u32,
        /// `bid->x`.
        bid_x: u32,
        /// `bid->y`.
        bid_y: u32,
        /// `bid->z`.
        bid_z: u32,
        /// `blockDim->x`.
        block_x: u32,
        /// `blockDim->y`.
        block_y: u32,
        /// `blockDim->z`.
        block_z: u32,
        /// `gridDim->x`.
        grid_x: u32,
        /// `gridDim->y`.
        grid_y: u32,
        /// `gridDim->z`.
        grid_z: u32,
    }
);

/// The host functions of a capture: every kernel symbol (in kernel id order, the order
/// rocprofiler-sdk reports them) whose name without `.kd` a registration names gets one, numbered
/// from 1, with the symbol's formatted and truncated names (its demangled name without `.kd`
/// interned into `strings`). `device_name` resolves a registration's capture string id.
pub(crate) fn match_host_functions(
    registrations: &[HostFunctionRecord],
    symbols: &[KernelSymbol],
    strings: &mut StringTable,
    device_name: impl Fn(u32) -> StringId,
) -> Vec<HostFunction> {
    // The first registration of a name wins, as rocprofiler-sdk's map keeps the first emplace.
    let mut by_name: HashMap<String, &HostFunctionRecord> = HashMap::new();
    for r in registrations {
        by_name.entry(strings.resolve(device_name(r.device_function)).to_owned()).or_insert(r);
    }
    let mut order: Vec<&KernelSymbol> = symbols.iter().collect();
    order.sort_by_key(|s| s.id);
    let mut out = Vec::new();
    for s in order {
        let raw = strings.resolve(s.name);
        let Some(r) = by_name.get(raw.strip_suffix(".kd").unwrap_or(raw)).copied() else { continue };
        let demangled = strings.resolve(s.demangled_name);
        let demangled = demangled.strip_suffix(".kd").unwrap_or(demangled).to_owned();
        out.push(HostFunction {
            id: out.len() as u64 + 1,
            kernel: s.id,
            code_object: s.code_object,
            host_function: r.host_function,
            modules: r.modules,
            device_function: device_name(r.device_function),
            formatted_name: s.formatted_name,
            demangled_name: strings.intern(&demangled),
            truncated_name: s.truncated_name,
            thread_limit: r.thread_limit,
            thread_ids: [r.tid_x, r.tid_y, r.tid_z],
            block_ids: [r.bid_x, r.bid_y, r.bid_z],
            block_dims: [r.block_x, r.block_y, r.block_z],
            grid_dims: [r.grid_x, r.grid_y, r.grid_z],
            workgroup_size: r.workgroup_size,
        });
    }
    out
}
