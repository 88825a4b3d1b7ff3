#!/usr/bin/env python3
"""Step 4: write api_trace.rs (the HsaApiTable tree of the newest ROCr and of ROCm 5.2) and exports.rs
(the ROCR_1 export list) from the two hsa_api_trace.h files and hsacore.so.def.

Usage: tables.py <step-1 output dir (newest)> <newest include dir> <5.2 include dir> <hsacore.so.def> <crate src dir>"""
import sys
import re, json

meta = json.load(open(sys.argv[1] + '/meta.json'))
funcs = meta['funcs']
for f in ['hsa_amd_queue_intercept_create', 'hsa_amd_queue_intercept_register', 'hsa_amd_runtime_queue_create_register']:
    funcs[f] = ('api_trace', None)


def tables(path):
    src = open(path).read()
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    res = {}
    for m in re.finditer(r'struct (\w+)\s*\{(.*?)\};', src, re.S):
        name, body = m.group(1), m.group(2)
        ents = re.findall(r'decltype\((\w+)\)\s*\*\s*(\w+);', body)
        tool = re.findall(r'hsa_amd_tool_event\s+(\w+);', body)
        ptrs = re.findall(r'(\w+)\s*\*\s*(\w+_);', body)
        res[name] = (ents, tool, ptrs)
    return res


new = tables(sys.argv[2] + '/hsa/hsa_api_trace.h')
old = tables(sys.argv[3] + '/hsa/hsa_api_trace.h')

DOC = {
    'CoreApiTable': 'HSA core functions (125 entries; same order and size in ROCm 5.2 and the newest ROCr).',
    'AmdExtTable': 'AMD extension functions.',
    'FinalizerExtTable': 'Finalizer extension functions (stubs in ROCr).',
    'ImageExtTable': 'Image extension functions.',
    'ToolsApiTable': 'Tool callbacks the runtime invokes around scratch allocation; NULL unless a tool stores one.',
    'PcSamplingExtTable': 'PC-sampling extension functions.',
}


def emit_table(name, ents, tool, doc, indent=''):
    L = ['%s/// `%s`: %s' % (indent, name, doc),
         '%s///' % indent,
         '%s/// Entry *k* (1-based) sits at byte offset `8 + 8 * k`; it exists in a running runtime iff that offset' % indent,
         '%s/// is below `version.minor_id` (the byte size the runtime was compiled with).' % indent,
         '%s#[repr(C)]' % indent, '%s#[derive(Debug, Clone, Copy)]' % indent, '%spub struct %s {' % (indent, name),
         '%s    pub version: ApiTableVersion,' % indent]
    for fn, field in ents:
        assert fn in funcs, fn
        L.append('%s    pub %s: Option<PFN_%s>,' % (indent, field, fn))
    for field in tool:
        L.append('%s    pub %s: hsa_amd_tool_event,' % (indent, field))
    L.append('%s}' % indent)
    return '\n'.join(L)


out = ['''//! The runtime's API tables (`hsa_api_trace.h`): the structure ROCr hands to a tool's `OnLoad` and that
//! every exported `hsa_*` function jumps through.
//!
//! Two layouts exist and both are defined here with their C names:
//! * the newest ROCr (`ROCm/rocm-systems` `projects/rocr-runtime`, root table major 3 step 1) at the crate
//!   root, and
//! * ROCm 5.2 (Debian bookworm `libhsa-runtime-dev` 5.2.3) in [`rocm_5_2`], whose `AmdExtTable` has 48
//!   entries in a different order from entry 17 on, whose `ImageExtTable` lacks `hsa_ext_sampler_create_v2`
//!   and whose root table has no `tools_` / `pc_sampling_ext_` pointers.
//!
//! `minor_id` of every table is its `sizeof` in bytes; a consumer must check `offset < minor_id` before
//! reading an entry, and key the layout on `(major_id, minor_id)`, never on a compile-time constant.

use crate::*;
use core::mem::{offset_of, size_of};

/// Version header at offset 0 of every API table.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ApiTableVersion {
    /// Layout family: a consumer interprets a table only if it knows this major.
    pub major_id: u32,
    /// `sizeof` the table in bytes as compiled into the runtime (not a minor version).
    pub minor_id: u32,
    /// Number of append-only additions since the major was introduced.
    pub step_id: u32,
    /// Always 0.
    pub reserved: u32,
}

/// Vendor-packet format byte of an intercept marker (`AMD_AQL_FORMAT_INTERCEPT_MARKER`); such packets are
/// consumed by the intercept queue and never reach the hardware queue.
pub const AMD_AQL_FORMAT_INTERCEPT_MARKER: u32 = 0xFE;

/// Called by an intercept queue when it meets a marker packet: the packet, the underlying hardware queue
/// and the index the next packet will get in that hardware queue.
pub type amd_intercept_marker_handler =
    Option<unsafe extern "C" fn(packet: *const amd_aql_intercept_marker_s, queue: *mut hsa_queue_t, packet_id: u64)>;

/// `amd_aql_intercept_marker_t`: a vendor-specific AQL packet (large model, little endian layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct amd_aql_intercept_marker_s {
    /// Packet type must be `HSA_PACKET_TYPE_VENDOR_SPECIFIC`.
    pub header: u16,
    /// Must be [`AMD_AQL_FORMAT_INTERCEPT_MARKER`].
    pub format: u8,
    /// Must be 0.
    pub reserved: [u8; 5],
    pub callback: amd_intercept_marker_handler,
    pub user_data: [u64; 6],
}
/// C typedef of [`amd_aql_intercept_marker_s`].
pub type amd_aql_intercept_marker_t = amd_aql_intercept_marker_s;

/// Passes (possibly rewritten) packets to the next stage of an intercept queue; callable only from inside
/// the handler it was given to, on the same thread.
pub type hsa_amd_queue_intercept_packet_writer = Option<unsafe extern "C" fn(pkts: *const c_void, pkt_count: u64)>;
/// Rewrite handler of an intercept queue: called once per packet with `pkt_count == 1`.
pub type hsa_amd_queue_intercept_handler = Option<
    unsafe extern "C" fn(
        pkts: *const c_void,
        pkt_count: u64,
        user_pkt_index: u64,
        data: *mut c_void,
        writer: hsa_amd_queue_intercept_packet_writer,
    ),
>;
/// Notified for queues the runtime creates for its own use.
pub type hsa_amd_runtime_queue_notifier =
    Option<unsafe extern "C" fn(queue: *const hsa_queue_t, agent: hsa_agent_t, data: *mut c_void)>;

/// Type of `hsa_amd_queue_intercept_register` (table only, not exported).
pub type PFN_hsa_amd_queue_intercept_register = unsafe extern "C" fn(
    queue: *mut hsa_queue_t,
    callback: hsa_amd_queue_intercept_handler,
    user_data: *mut c_void,
) -> hsa_status_t;
/// Type of `hsa_amd_queue_intercept_create` (table only, not exported); parameters as `hsa_queue_create`.
pub type PFN_hsa_amd_queue_intercept_create = unsafe extern "C" fn(
    agent_handle: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<unsafe extern "C" fn(status: hsa_status_t, source: *mut hsa_queue_t, data: *mut c_void)>,
    data: *mut c_void,
    private_segment_size: u32,
    group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t;
/// Type of `hsa_amd_runtime_queue_create_register` (table only, not exported).
pub type PFN_hsa_amd_runtime_queue_create_register =
    unsafe extern "C" fn(callback: hsa_amd_runtime_queue_notifier, user_data: *mut c_void) -> hsa_status_t;
''']

VERS = [('HSA_API_TABLE', 3, 1), ('HSA_CORE_API_TABLE', 2, 0), ('HSA_AMD_EXT_API_TABLE', 2, 7),
        ('HSA_FINALIZER_API_TABLE', 2, 0), ('HSA_IMAGE_API_TABLE', 2, 1), ('HSA_AQLPROFILE_API_TABLE', 1, 0),
        ('HSA_TOOLS_API_TABLE', 1, 0), ('HSA_PC_SAMPLING_API_TABLE', 1, 0)]
for n, maj, st in VERS:
    out.append('/// Major version of the newest ROCr for this table (`hsa_api_trace_version.h`).\npub const %s_MAJOR_VERSION: u32 = %d;' % (n, maj))
    out.append('/// Step version of the newest ROCr for this table (`hsa_api_trace_version.h`).\npub const %s_STEP_VERSION: u32 = %d;' % (n, st))

for t in ['ToolsApiTable', 'FinalizerExtTable', 'ImageExtTable', 'PcSamplingExtTable', 'AmdExtTable', 'CoreApiTable']:
    ents, tool, _ = new[t]
    out.append(emit_table(t, ents, tool, DOC[t]))

out.append('''/// `HsaApiTable`: the root table (newest layout, 64 bytes). `tools_` and `pc_sampling_ext_` exist only when
/// `version.minor_id` covers their offsets (root major 3 and 3 step 1).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct HsaApiTable {
    pub version: ApiTableVersion,
    pub core_: *mut CoreApiTable,
    pub amd_ext_: *mut AmdExtTable,
    pub finalizer_ext_: *mut FinalizerExtTable,
    pub image_ext_: *mut ImageExtTable,
    pub tools_: *mut ToolsApiTable,
    pub pc_sampling_ext_: *mut PcSamplingExtTable,
}

/// `HsaApiTableContainer`: the root table followed by storage for every sub-table (newest layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct HsaApiTableContainer {
    pub root: HsaApiTable,
    pub core: CoreApiTable,
    pub amd_ext: AmdExtTable,
    pub finalizer_ext: FinalizerExtTable,
    pub image_ext: ImageExtTable,
    pub tools: ToolsApiTable,
    pub pc_sampling_ext: PcSamplingExtTable,
}

/// Size in bytes of the newest `AmdExtTable` for a given major-2 step: `552 + 8 * step`.
pub const fn amd_ext_table_size_major2(step: u32) -> u32 {
    552 + 8 * step
}
''')

# 5.2 module
m = ['''/// The ROCm 5.2 layout (Debian bookworm `libhsa-runtime-dev` 5.2.3, `/usr/include/hsa/hsa_api_trace.h`).
///
/// All majors are 1, all steps 0. `CoreApiTable` and `FinalizerExtTable` are identical to the newest ones
/// and re-exported; `AmdExtTable`, `ImageExtTable` and the root table differ.
pub mod rocm_5_2 {
    use crate::*;
    use core::mem::{offset_of, size_of};

    pub use crate::api_trace::{ApiTableVersion, CoreApiTable, FinalizerExtTable};

    /// Major version of every ROCm 5.2 table (`HSA_*_API_TABLE_MAJOR_VERSION`).
    pub const API_TABLE_MAJOR_VERSION: u32 = 1;
    /// Step version of every ROCm 5.2 table.
    pub const API_TABLE_STEP_VERSION: u32 = 0;
''']
for t in ['AmdExtTable', 'ImageExtTable']:
    ents, tool, _ = old[t]
    m.append(emit_table(t, ents, tool, DOC[t] + ' (ROCm 5.2 layout)', '    '))
m.append('''    /// `HsaApiTable` of ROCm 5.2 (48 bytes, four sub-table pointers).
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct HsaApiTable {
        pub version: ApiTableVersion,
        pub core_: *mut CoreApiTable,
        pub amd_ext_: *mut AmdExtTable,
        pub finalizer_ext_: *mut FinalizerExtTable,
        pub image_ext_: *mut ImageExtTable,
    }

    /// `HsaApiTableContainer` of ROCm 5.2.
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct HsaApiTableContainer {
        pub root: HsaApiTable,
        pub core: CoreApiTable,
        pub amd_ext: AmdExtTable,
        pub finalizer_ext: FinalizerExtTable,
        pub image_ext: ImageExtTable,
    }
''')
# 5.2 asserts
a = ['    const _: () = assert!(size_of::<HsaApiTable>() == 48);',
     '    const _: () = assert!(size_of::<AmdExtTable>() == %d);' % (16 + 8 * len(old['AmdExtTable'][0])),
     '    const _: () = assert!(size_of::<ImageExtTable>() == %d);' % (16 + 8 * len(old['ImageExtTable'][0]))]
for t in ['AmdExtTable', 'ImageExtTable']:
    for i, (fn, field) in enumerate(old[t][0]):
        a.append('    const _: () = assert!(offset_of!(%s, %s) == %d);' % (t, field, 16 + 8 * i))
m.append('\n'.join(a))
m.append('}')
out.append('\n'.join(m))

# newest asserts
a = ['const _: () = assert!(size_of::<ApiTableVersion>() == 16);',
     'const _: () = assert!(size_of::<amd_aql_intercept_marker_t>() == 64);',
     'const _: () = assert!(offset_of!(amd_aql_intercept_marker_t, callback) == 8);',
     'const _: () = assert!(offset_of!(amd_aql_intercept_marker_t, user_data) == 16);',
     'const _: () = assert!(size_of::<HsaApiTable>() == 64);',
     'const _: () = assert!(offset_of!(HsaApiTable, tools_) == 48);',
     'const _: () = assert!(offset_of!(HsaApiTable, pc_sampling_ext_) == 56);']
for t in ['CoreApiTable', 'AmdExtTable', 'FinalizerExtTable', 'ImageExtTable', 'ToolsApiTable', 'PcSamplingExtTable']:
    ents, tool, _ = new[t]
    fields = [f for _, f in ents] + tool
    a.append('const _: () = assert!(size_of::<%s>() == %d);' % (t, 16 + 8 * len(fields)))
    for i, f in enumerate(fields):
        a.append('const _: () = assert!(offset_of!(%s, %s) == %d);' % (t, f, 16 + 8 * (i + 1) - 8))
a.append('const _: () = assert!(size_of::<AmdExtTable>() as u32 == amd_ext_table_size_major2(HSA_AMD_EXT_API_TABLE_STEP_VERSION));')
out.append('\n'.join(a))

open(sys.argv[5] + '/api_trace.rs', 'w').write('\n\n'.join(out) + '\n')

# exports list
names = re.findall(r'\b(hsa_\w+);', open(sys.argv[4]).read())
aliases = []
for n in names:
    for suf, sc in [('_acq_rel', '_scacq_screl'), ('_acquire', '_scacquire'), ('_release', '_screlease')]:
        if n.startswith(('hsa_signal_', 'hsa_queue_')) and n.endswith(suf) and not n.endswith('_sc' + suf[1:]):
            aliases.append((n, n[:-len(suf)] + sc))
            break
e = ['''//! The symbol surface of `libhsa-runtime64.so.1`: the `hsa_*` functions the newest ROCr exports in its
//! `ROCR_1` version node (`hsacore.so.def`), and the deprecated alias names that share an implementation
//! (and a table slot) with their `sc` twin.
''', '/// Version node every exported function carries.\npub const ROCR_VERSION_NODE: &str = "ROCR_1";',
     '/// Every `hsa_*` function the newest ROCr exports, in `hsacore.so.def` order (%d names).\npub const EXPORTED_FUNCTIONS: &[&str] = &[\n%s\n];' % (
         len(names), '\n'.join('    "%s",' % n for n in names)),
     '/// Deprecated alias -> the `sc` function whose implementation (and table slot) it shares (%d pairs).\npub const DEPRECATED_ALIASES: &[(&str, &str)] = &[\n%s\n];' % (
         len(aliases), '\n'.join('    ("%s", "%s"),' % p for p in aliases))]
open(sys.argv[5] + '/exports.rs', 'w').write('\n\n'.join(e) + '\n')
print(len(names), len(aliases))
