#!/usr/bin/env python3
"""Generates `src/hip_api_trace.rs` (HIP's ROCm 6.x dispatch tables) and the interception library's
wrappers for them (`crates/intercept/src/hip/wrappers.rs`).

ROCm 6.2+ HIP hands a tool its dispatch tables (`HipDispatchTable`, `HipCompilerDispatchTable`,
`hip/amd_detail/hip_api_trace.hpp`) through rocprofiler-register's `rocprofiler_set_api_table`.
Every table starts with its byte size; members are only ever appended (the header's rule, pinned
in HIP's `hip_api_trace.cpp` by `HIP_ENFORCE_ABI(table, member, index)`), so a member exists iff
its offset is below `size`.

Inputs (read from the fetched mirrors, never committed):
  * ROCm/clr `hipamd/include/hip/amd_detail/hip_api_trace.hpp` (function types, member order) and
    `hipamd/src/hip_api_trace.cpp` (the HIP_ENFORCE_ABI indices, checked against the order);
  * ROCm/rocm-systems `projects/rocprofiler-sdk/source/lib/rocprofiler-sdk/hip/abi.cpp`
    (rocprofiler-sdk's own ROCP_SDK_ENFORCE_ABI indices for the same tables, checked too);
  * the installed HIP 5.2 headers, through a C++ probe, for the size, alignment and kind of every
    type passed by value (pointers need no probe). A function with a by-value parameter this
    cannot classify is left unwrapped (its slot keeps HIP's function; listed in the output).

Each member gets a compile-time offset assertion (`8 + 8 * index`, the index from the header's
order, which the script checks against both ENFORCE_ABI lists), and the table sizes of the
header's step versions are asserted.

Usage: python3 xtask/codegen/hsa_sys/hip_api_trace.py
  (env CLR_MIRROR, default /work/.mirror/ROCm+clr/repo; SYSTEMS_MIRROR, default
   /work/.mirror/ROCm+rocm-systems/repo); then `cargo fmt --all`.
"""
import os
import re
import subprocess
import sys
import tempfile

from imports import PLACEHOLDER, resolve

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
CLR = os.environ.get('CLR_MIRROR', '/work/.mirror/ROCm+clr/repo')
SYSTEMS = os.environ.get('SYSTEMS_MIRROR', '/work/.mirror/ROCm+rocm-systems/repo')


def git_show(repo, path):
    return subprocess.run(['git', '-C', repo, 'show', 'HEAD:' + path], check=True, capture_output=True,
                          text=True).stdout


def split_top(p):
    out, depth, cur = [], 0, ''
    for ch in p:
        if ch in '(<':
            depth += 1
        if ch in ')>':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def norm(ty):
    ty = ' '.join(ty.replace('*', ' * ').split())
    return ty.replace(' *', '*')


def parse_param(p):
    """(C type, name) of one parameter declaration."""
    p = ' '.join(p.split())
    m = re.match(r'^(.*?[\s*])(\w+)$', p)
    if m and m.group(1).strip() not in ('', 'const', 'struct', 'enum') and m.group(2) not in C_WORDS:
        return norm(m.group(1)), m.group(2)
    return norm(p), None


C_WORDS = {'int', 'char', 'short', 'long', 'unsigned', 'signed', 'void', 'float', 'double'}


def typedefs(hpp):
    out = {}
    for ret, name, params in re.findall(r'typedef\s+([^;]*?)\(\*t_(\w+)\)\s*\(([^;]*?)\)\s*;', hpp, re.S):
        plist = [] if params.strip() in ('', 'void') else [parse_param(x) for x in split_top(' '.join(params.split()))]
        out[name] = (norm(ret), plist)
    return out


def members(hpp, struct):
    body = re.search(r'struct %s \{(.*?)\n\};' % struct, hpp, re.S).group(1)
    steps, out = {}, []
    for m in re.finditer(r'STEP_VERSION == (\d+)|\bt_(\w+)\s+(\w+)_fn\s*;', body):
        if m.group(1):
            steps[int(m.group(1))] = len(out)
        else:
            assert m.group(2) == m.group(3), m.group(0)
            out.append(m.group(2))
    return out, steps


def enforce(text, table, fmt):
    return {m.group(1): int(m.group(2)) for m in re.finditer(fmt % table, text)}


def base(ty):
    return ty.replace('const ', '').replace('struct ', '').replace('enum ', '').strip()


# Handle typedefs that are pointers in every HIP 6 release; also what the probe says for 5.2.
POINTER_HANDLES = {'hipUserObject_t', 'hipGraphicsResource_t', 'hipMemGenericAllocationHandle_t'}
SCALARS = {'GLenum': ('U', 4, 4), 'GLuint': ('U', 4, 4)}
# C enumerations newer than the HIP 5.2 headers the probe reads (int-sized, as every HIP enum).
NEWER_ENUMS = {'hipGraphMemAttributeType'}


def probe(types):
    """{type: (class, size, align)} for the by-value types the installed HIP 5.2 headers know."""
    known, todo = {}, sorted(types)
    with tempfile.TemporaryDirectory() as tmp:
        while todo:
            src = ['#include <hip/hip_runtime.h>', '#include <cstdio>', '#include <type_traits>',
                   'template <class T> static char cls() {',
                   '  if (std::is_pointer<T>::value) return \'P\';',
                   '  if (std::is_same<T, dim3>::value) return \'D\';',
                   '  if (std::is_same<T, bool>::value) return \'B\';',
                   '  if (std::is_floating_point<T>::value) return sizeof(T) == 4 ? \'F\' : \'G\';',
                   '  if (std::is_enum<T>::value) return \'E\';',
                   '  if (std::is_integral<T>::value) return std::is_signed<T>::value ? \'I\' : \'U\';',
                   '  return \'S\';', '}', 'int main() {']
            for i, t in enumerate(todo):
                src.append('  std::printf("%%d %%c %%zu %%zu\\n", %d, cls<%s>(), sizeof(%s), alignof(%s)); // T%d'
                           % (i, t, t, t, i))
            src += ['}', '']
            path = os.path.join(tmp, 'p.cpp')
            open(path, 'w').write('\n'.join(src))
            exe = os.path.join(tmp, 'p')
            r = subprocess.run(['g++', '-std=c++17', '-D__HIP_PLATFORM_AMD__', '-w', path, '-o', exe],
                               capture_output=True, text=True)
            if r.returncode != 0:
                bad = set()
                for line in r.stderr.split('\n'):
                    m = re.search(r'p\.cpp:(\d+):', line)
                    if m and 'error' in line:
                        n = int(m.group(1))
                        c = re.search(r'// T(\d+)$', src[n - 1])
                        if c:
                            bad.add(int(c.group(1)))
                assert bad, r.stderr[:2000]
                todo = [t for i, t in enumerate(todo) if i not in bad]
                continue
            for line in subprocess.run([exe], check=True, capture_output=True, text=True).stdout.split('\n'):
                if line:
                    i, c, size, align = line.split()
                    known[todo[int(i)]] = (c, int(size), int(align))
            break
    return known


INT_TYPES = {('I', 1): 'i8', ('I', 2): 'i16', ('I', 4): 'i32', ('I', 8): 'i64',
             ('U', 1): 'u8', ('U', 2): 'u16', ('U', 4): 'u32', ('U', 8): 'u64', ('E', 4): 'c_int'}

# By-value structs: only those whose members are all integers or pointers (so the SysV
# classification of a same-sized integer array is the same); checked by name against HIP's headers.
INTEGER_STRUCTS = {'hipChannelFormatDesc', 'hipExtent', 'hipPitchedPtr', 'hipPos', 'hipMemLocation',
                   'hipIpcMemHandle_t', 'hipIpcEventHandle_t', 'hipUUID', 'hipMemAccessDesc'}


def rust_type(ty, known, byval):
    if '*' in ty:
        return '*mut c_void'
    b = base(ty)
    if b == 'void':
        return None
    if b in SCALARS:
        c, size, _ = SCALARS[b]
        return INT_TYPES[(c, size)]
    if b in POINTER_HANDLES:
        return '*mut c_void'
    if b in NEWER_ENUMS:
        return 'c_int'
    if b not in known:
        raise KeyError(b)
    c, size, align = known[b]
    if c == 'P':
        return '*mut c_void'
    if c == 'D':
        return 'dim3'
    if c == 'B':
        return 'bool'
    if c == 'F':
        return 'f32'
    if c == 'G':
        return 'f64'
    if (c, size) in INT_TYPES:
        return INT_TYPES[(c, size)]
    if c == 'E':
        return 'c_int'
    if c == 'S' and b in INTEGER_STRUCTS:
        name = 'byval_' + b
        byval[name] = (b, size, align)
        return name
    raise KeyError(b)


def word(rt, expr):
    return {'*mut c_void': '%s as u64', 'dim3': '%s.word()', 'bool': 'u64::from(%s)', 'f32': 'u64::from(%s.to_bits())',
            'f64': '%s.to_bits()', 'i8': '%s as i64 as u64', 'i16': '%s as i64 as u64', 'i32': '%s as i64 as u64',
            'i64': '%s as u64', 'c_int': '%s as i64 as u64', 'u8': 'u64::from(%s)', 'u16': 'u64::from(%s)',
            'u32': 'u64::from(%s)', 'u64': '%s'}.get(rt, '0 /* %s: by-value struct, not recorded */') % expr


def main():
    hpp = git_show(CLR, 'hipamd/include/hip/amd_detail/hip_api_trace.hpp')
    cpp = git_show(CLR, 'hipamd/src/hip_api_trace.cpp')
    sdk = git_show(SYSTEMS, 'projects/rocprofiler-sdk/source/lib/rocprofiler-sdk/hip/abi.cpp')
    clr_rev = subprocess.run(['git', '-C', CLR, 'log', '-1', '--format=%h %cs'], capture_output=True, text=True).stdout.strip()
    sys_rev = subprocess.run(['git', '-C', SYSTEMS, 'log', '-1', '--format=%h %cs'], capture_output=True, text=True).stdout.strip()
    step = {k: int(v) for k, v in re.findall(r'#define (HIP_\w*API_TABLE_\w+_VERSION) (\d+)', hpp)}
    tds = typedefs(hpp)
    tables = {}
    for struct in ('HipCompilerDispatchTable', 'HipDispatchTable'):
        order, steps = members(hpp, struct)
        clr_idx = enforce(cpp, struct, r'HIP_ENFORCE_ABI\(\s*%s,\s*(\w+)_fn,\s*(\d+)\s*\)')
        sdk_idx = enforce(sdk, struct, r'ROCP_SDK_ENFORCE_ABI\(\s*::%s,\s*(\w+)_fn,\s*(\d+)\s*\)')
        for i, name in enumerate(order):
            assert clr_idx.get(name) == i, (struct, name, i, clr_idx.get(name))
            if name in sdk_idx:
                assert sdk_idx[name] == i, ('rocprofiler-sdk disagrees', struct, name, i, sdk_idx[name])
        extra = sorted((i, n) for n, i in sdk_idx.items() if i >= len(order))
        tables[struct] = (order, steps, len([n for n in sdk_idx if n in order]), extra)

    byvalue = set()
    for name, (ret, params) in tds.items():
        for ty, _ in params + [(ret, None)]:
            if '*' not in ty:
                byvalue.add(base(ty))
    known = probe(byvalue - {'void'} - set(SCALARS))

    byval = {}
    sigs, unwrapped = {}, []
    for name, (ret, params) in tds.items():
        try:
            rps = [rust_type(ty, known, byval) for ty, _ in params]
            rret = rust_type(ret, known, byval)
            sigs[name] = (rret, rps)
        except KeyError as e:
            unwrapped.append((name, str(e)))

    R = ['//! HIP\'s ROCm 6.x dispatch tables (`hip/amd_detail/hip_api_trace.hpp`), as HIP hands them to a tool',
         '//! through rocprofiler-register\'s `rocprofiler_set_api_table("hip" | "hip_compiler", ...)`.',
         '//!',
         '//! Generated by `xtask/codegen/hsa_sys/hip_api_trace.py` from ROCm/clr %s (`HIP_RUNTIME_API_TABLE_STEP_VERSION`'
         % clr_rev,
         '//! %d, `HIP_COMPILER_API_TABLE_STEP_VERSION` %d). Member order checked against HIP\'s'
         % (step['HIP_RUNTIME_API_TABLE_STEP_VERSION'], step['HIP_COMPILER_API_TABLE_STEP_VERSION']),
         '//! `HIP_ENFORCE_ABI` indices and rocprofiler-sdk\'s `ROCP_SDK_ENFORCE_ABI` indices (ROCm/rocm-systems',
         '//! %s); every member\'s offset is asserted below. Types passed by value were classified with' % sys_rev,
         '//! a C++ probe against Debian\'s HIP 5.2 headers; functions whose by-value parameters could not',
         '//! be classified have an untyped slot (`*mut c_void`, listed in `HIP_UNWRAPPED`). Do not edit by hand.',
         '//!',
         '//! Tables only grow: a member exists iff its offset is below the table\'s `size` (the first member).',
         '',
         PLACEHOLDER,
         '',
         '/// `dim3`.',
         '#[repr(C)]',
         '#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]',
         'pub struct dim3 {',
         '    pub x: u32,',
         '    pub y: u32,',
         '    pub z: u32,',
         '}',
         '',
         'pub const HIP_API_TABLE_MAJOR_VERSION: u32 = %d;' % step['HIP_API_TABLE_MAJOR_VERSION'],
         'pub const HIP_RUNTIME_API_TABLE_MAJOR_VERSION: u32 = %d;' % step['HIP_RUNTIME_API_TABLE_MAJOR_VERSION'],
         'pub const HIP_RUNTIME_API_TABLE_STEP_VERSION: u32 = %d;' % step['HIP_RUNTIME_API_TABLE_STEP_VERSION'],
         'pub const HIP_COMPILER_API_TABLE_MAJOR_VERSION: u32 = %d;' % step['HIP_COMPILER_API_TABLE_MAJOR_VERSION'],
         'pub const HIP_COMPILER_API_TABLE_STEP_VERSION: u32 = %d;' % step['HIP_COMPILER_API_TABLE_STEP_VERSION'],
         '']
    for name, (b, size, align) in sorted(byval.items()):
        unit = {8: 'u64', 4: 'u32', 2: 'u16', 1: 'u8'}[align]
        R += ['/// `%s` passed by value: %d bytes, %d-aligned, integer and pointer members only.' % (b, size, align),
              '#[repr(C)]', '#[derive(Debug, Clone, Copy)]',
              'pub struct %s(pub [%s; %d]);' % (name, unit, size // align), '']
    for name in sorted(sigs):
        rret, rps = sigs[name]
        params = ', '.join('a%d: %s' % (i, t) for i, t in enumerate(rps))
        R.append('pub type t_%s = unsafe extern "C" fn(%s)%s;' % (name, params, '' if rret is None else ' -> ' + rret))
    R.append('')
    for struct in ('HipCompilerDispatchTable', 'HipDispatchTable'):
        order, steps, _, _ = tables[struct]
        R += ['/// `%s`.' % struct, '#[repr(C)]', '#[derive(Debug, Clone, Copy)]', 'pub struct %s {' % struct,
              '    pub size: usize,']
        for n in order:
            R.append('    pub %s_fn: %s,' % (n, 'Option<t_%s>' % n if n in sigs else '*mut c_void'))
        R += ['}', '']
    R.append('/// The parameters (name, C type) of every function of the tables, sorted by function name.')
    R.append('#[rustfmt::skip]')
    R.append('pub static HIP_API_PARAMS: [(&str, &[(&str, &str)]); %d] = [' % len(tds))
    for name in sorted(tds):
        ps = ', '.join('("%s", "%s")' % (p or 'arg%d' % i, ty) for i, (ty, p) in enumerate(tds[name][1]))
        R.append('    ("%s", &[%s]),' % (name, ps))
    R.append('];')
    R.append('')
    R.append('/// Functions of the tables left unwrapped, with the type that could not be classified.')
    R.append('pub const HIP_UNWRAPPED: &[(&str, &str)] = &[%s];'
             % ', '.join('("%s", "%s")' % (n, t.strip("'")) for n, t in sorted(unwrapped)))
    R.append('')
    R.append('use core::mem::{offset_of, size_of};')
    R.append('')
    for struct in ('HipCompilerDispatchTable', 'HipDispatchTable'):
        order, steps, _, _ = tables[struct]
        R.append('const _: () = assert!(size_of::<%s>() == %d);' % (struct, 8 + 8 * len(order)))
        for i, n in enumerate(order):
            R.append('const _: () = assert!(offset_of!(%s, %s_fn) == %d);' % (struct, n, 8 + 8 * i))
    R.append('const _: () = assert!(size_of::<dim3>() == 12);')
    for name, (b, size, align) in sorted(byval.items()):
        R.append('const _: () = assert!(size_of::<%s>() == %d && core::mem::align_of::<%s>() == %d);'
                 % (name, size, name, align))
    open(os.path.join(ROOT, 'crates', 'hsa-sys', 'src', 'hip_api_trace.rs'), 'w').write('\n'.join(R) + '\n')
    resolve(os.path.join(ROOT, 'crates', 'hsa-sys', 'src'), ['hip_api_trace.rs'])

    # The interception library's wrappers: one per typed member, recording through `super::traced`.
    W = ['//! One wrapper per typed member of HIP\'s ROCm 6.x dispatch tables: each records the call through',
         '//! [`super::traced`] and calls the original saved in [`super::ORIGINALS`].',
         '//!',
         '//! Generated by `xtask/codegen/hsa_sys/hip_api_trace.py` together with',
         '//! `rocprof_hsa_sys::HipDispatchTable`; do not edit by hand.',
         '//!',
         '//! Safety, for every wrapper: HIP calls it through the table member it replaced, with that',
         '//! member\'s C signature; the original it forwards to was saved from the same member (non-NULL)',
         '//! before the wrapper was installed, and receives the caller\'s arguments unchanged.',
         '',
         '#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments, clippy::unnecessary_cast)]',
         '#![allow(clippy::undocumented_unsafe_blocks)]',
         '',
         'use rocprof_hsa_sys::*;',
         '',
         'use super::{original, traced, Slot, Word};',
         '']
    slots = []
    for struct, domain in (('HipCompilerDispatchTable', 'Compiler'), ('HipDispatchTable', 'Runtime')):
        order = tables[struct][0]
        for i, n in enumerate(order):
            if n not in sigs:
                continue
            rret, rps = sigs[n]
            slot = len(slots)
            slots.append((struct, domain, i, n))
            params = ', '.join('a%d: %s' % (j, t) for j, t in enumerate(rps))
            names = [p for _, p in tds[n][1]]
            stream = next((j for j, (ty, p) in enumerate(tds[n][1]) if base(ty) == 'hipStream_t'), None)
            words = ', '.join('a%d.word()' % j for j in range(len(rps)))
            args = ', '.join('a%d' % j for j in range(len(rps)))
            ret = '' if rret is None else ' -> %s' % rret
            W.append('pub(crate) unsafe extern "C" fn %s(%s)%s {' % (n, params, ret))
            W.append('    let f: t_%s = unsafe { original(%d) };' % (n, slot))
            W.append('    traced(%d, %s, &[%s], || unsafe { f(%s) })' % (slot, 'a%d as u64' % stream if stream is not None else '0',
                                                                     words, args))
            W.append('}')
            W.append('')
            del names
    W.append('/// Every wrapped member: (table, is the compiler table, member index, name, wrapper).')
    W.append('pub(crate) static SLOTS: [Slot; %d] = [' % len(slots))
    for struct, domain, i, n in slots:
        W.append('    Slot { compiler: %s, index: %d, name: "%s", wrapper: %s as *const () },'
                 % ('true' if domain == 'Compiler' else 'false', i, n, n))
    W.append('];')
    out = os.path.join(ROOT, 'crates', 'intercept', 'src', 'hip', 'wrappers.rs')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    open(out, 'w').write('\n'.join(W) + '\n')
    for struct in tables:
        order, steps, checked, extra = tables[struct]
        print('%s: %d members (%d also pinned by rocprofiler-sdk; newer members there: %s)'
              % (struct, len(order), checked, ', '.join('%s@%d' % (n, i) for i, n in extra) or 'none'))
    print('typed: %d, unwrapped: %d (%s)' % (len(sigs), len(unwrapped), ', '.join(n for n, _ in unwrapped)))


main()
