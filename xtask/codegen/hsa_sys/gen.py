#!/usr/bin/env python3
"""Step 1: preprocess AMD's HSA headers and translate every declaration into Rust source bodies
(`<module>.rs.body`) plus `meta.json` (function signatures, struct fields) for the later steps.

Usage: gen.py <include dir containing hsa/> <output dir> <work dir with fake libc headers>

Part of xtask/codegen/hsa_sys (run generate.py, not this file directly). Facts only: names, types,
values and layouts are read from AMD's headers; no header text is copied."""
import sys, os, re, subprocess, json
from pycparser import c_parser, c_ast

INC = sys.argv[1]          # include dir containing hsa/
OUT = sys.argv[2]          # output dir for .rs files
WORK = sys.argv[3]         # scratch dir; WORK/fake holds minimal libc headers
HEADERS = ['hsa.h', 'hsa_ext_amd.h', 'hsa_ext_image.h', 'hsa_ext_finalize.h', 'hsa_ven_amd_loader.h',
           'hsa_ven_amd_pc_sampling.h', 'hsa_amd_tool.h', 'amd_hsa_signal.h', 'amd_hsa_queue.h',
           'amd_hsa_kernel_code.h', 'amd_hsa_common.h']
MODS = {h: h[:-2] for h in HEADERS}
ALIGN = {'amd_signal_s': 64, 'amd_queue_s': 64, 'amd_queue_v2_s': 64, 'amd_kernel_code_s': 64,
         'amd_control_directives_s': 64}

src = '\n'.join('#include <hsa/%s>' % h for h in HEADERS if os.path.exists(os.path.join(INC, 'hsa', h)))
open(os.path.join(OUT, 'all.h'), 'w').write(src + '\n')
pp = subprocess.run(['gcc', '-E', '-nostdinc', '-I' + os.path.join(WORK, 'fake'), '-I' + INC, '-D__attribute__(x)=', '-D__extension__=',
                     os.path.join(OUT, 'all.h')], capture_output=True, text=True, check=True).stdout
ast = c_parser.CParser().parse(pp, filename='all.h')

PRIM = {
    ('void',): 'c_void', ('char',): 'c_char', ('signed', 'char'): 'i8', ('unsigned', 'char'): 'u8',
    ('short',): 'i16', ('unsigned', 'short'): 'u16', ('int',): 'c_int', ('unsigned', 'int'): 'c_uint',
    ('unsigned',): 'c_uint', ('long',): 'c_long', ('unsigned', 'long'): 'c_ulong',
    ('long', 'long'): 'i64', ('unsigned', 'long', 'long'): 'u64', ('float',): 'f32', ('double',): 'f64',
    ('_Bool',): 'bool', ('bool',): 'bool',
    ('int8_t',): 'i8', ('int16_t',): 'i16', ('int32_t',): 'i32', ('int64_t',): 'i64',
    ('uint8_t',): 'u8', ('uint16_t',): 'u16', ('uint32_t',): 'u32', ('uint64_t',): 'u64',
    ('size_t',): 'usize', ('uintptr_t',): 'usize', ('intptr_t',): 'isize', ('ptrdiff_t',): 'isize',
}
SKIP_TYPEDEFS = {'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t',
                 'size_t', 'uintptr_t', 'intptr_t', 'ptrdiff_t', 'bool'}

consts = {}     # enum constant -> int
items = {m: [] for m in MODS.values()}   # module -> list of (kind, name, text)
defined = set()
funcs = {}      # name -> (module, rust fn type)
struct_fields = {}  # rust struct name -> list of (field, ctype-ish) for the C checker
struct_c_name = {}  # rust name -> C expression for sizeof
extra_unions = []
enum_types = {}  # enum tag/typedef -> rust repr


def modof(node):
    f = node.coord.file if node.coord else ''
    b = os.path.basename(f)
    return MODS.get(b)


def ev(e):
    if isinstance(e, c_ast.Constant):
        v = e.value.rstrip('uUlL')
        if v.startswith(('0x', '0X')):
            return int(v, 16)
        if e.type == 'char':
            return ord(e.value.strip("'"))
        return int(v, 8) if (len(v) > 1 and v.startswith('0')) else int(v)
    if isinstance(e, c_ast.ID):
        return consts[e.name]
    if isinstance(e, c_ast.UnaryOp):
        v = ev(e.expr)
        return {'-': -v, '~': ~v, '+': v}[e.op] if e.op != 'sizeof' else None
    if isinstance(e, c_ast.BinaryOp):
        a, b = ev(e.left), ev(e.right)
        return {'+': lambda: a + b, '-': lambda: a - b, '*': lambda: a * b, '<<': lambda: a << b,
                '>>': lambda: a >> b, '|': lambda: a | b, '&': lambda: a & b, '/': lambda: a // b}[e.op]()
    if isinstance(e, c_ast.Cast):
        return ev(e.expr)
    raise ValueError('cannot eval %r' % e)


def tyname(names):
    t = tuple(n for n in names if n not in ('const', 'volatile'))
    if t in PRIM:
        return PRIM[t]
    if len(t) == 1:
        return t[0]
    raise ValueError('unknown type %r' % (names,))


def rtype(t, ctx='', is_param=False):
    """Rust type for a c_ast type node."""
    if isinstance(t, c_ast.TypeDecl):
        q = t.quals
        inner = t.type
        if isinstance(inner, c_ast.IdentifierType):
            return tyname(inner.names)
        if isinstance(inner, (c_ast.Struct, c_ast.Union)):
            if inner.name is None:
                raise ValueError('anon aggregate in %s' % ctx)
            return inner.name
        if isinstance(inner, c_ast.Enum):
            return enum_types.get(inner.name, 'c_uint')
        raise ValueError('type %r' % inner)
    if isinstance(t, c_ast.PtrDecl):
        if isinstance(t.type, c_ast.FuncDecl):
            return 'Option<%s>' % fntype(t.type)
        pointee = t.type
        const = 'const' in getattr(pointee, 'quals', [])
        inner = rtype(pointee, ctx)
        return ('*const %s' if const else '*mut %s') % inner
    if isinstance(t, c_ast.ArrayDecl):
        n = ev(t.dim) if t.dim is not None else 0
        if is_param:
            inner = rtype(t.type, ctx)
            const = 'const' in getattr(t.type, 'quals', [])
            return ('*const %s' if const else '*mut %s') % inner
        return '[%s; %d]' % (rtype(t.type, ctx), n)
    if isinstance(t, c_ast.FuncDecl):
        return fntype(t)
    raise ValueError('type node %r' % t)


def fnparams(fd):
    ps = []
    if fd.args:
        for i, p in enumerate(fd.args.params):
            if isinstance(p, c_ast.EllipsisParam):
                ps.append('...')
                continue
            if isinstance(p.type, c_ast.TypeDecl) and isinstance(p.type.type, c_ast.IdentifierType) and \
                    p.type.type.names == ['void'] and not p.name:
                continue
            name = p.name or 'arg%d' % i
            if name in ('type', 'ref', 'match', 'fn', 'in', 'mod', 'self', 'use', 'loop', 'move', 'box'):
                name = name + '_'
            ps.append((name, rtype(p.type, is_param=True)))
    return ps


def fntype(fd):
    ps = fnparams(fd)
    ret = rtype(fd.type)
    s = 'unsafe extern "C" fn(%s)' % ', '.join(('%s: %s' % p) if p != '...' else '...' for p in ps)
    if ret != 'c_void':
        s += ' -> ' + ret
    return s


def emit(mod, text):
    items[mod].append(text)


def doc_of_bits(fields):
    return ' '.join('%s:%d' % (n, b) for n, b in fields)


def flatten_fields(decls, owner, out):
    """Produce list of (rust_field, rust_type, c_access or None) handling anonymous aggregates and bitfields."""
    bits = []
    bitn = [0]

    def flush():
        if bits:
            total = sum(b for _, b in bits)
            nwords = (total + 31) // 32
            for w in range(nwords):
                out.append(('_bitfield_%d' % bitn[0], 'u32', None, 'bit-fields (LSB first): ' + doc_of_bits(bits)))
                bitn[0] += 1
            bits.clear()
    for d in decls:
        if d.bitsize is not None:
            bits.append((d.name, ev(d.bitsize)))
            continue
        flush()
        t = d.type
        if d.name is None and isinstance(t, (c_ast.Struct, c_ast.Union)):
            agg = t
            if isinstance(agg, c_ast.Struct):
                flatten_fields(agg.decls, owner, out)
                continue
            # anonymous union
            first = agg.decls[0]
            if first.name is None and isinstance(first.type, c_ast.Struct):
                flatten_fields(first.type.decls, owner, out)
                continue
            sizes = set()
            simple = True
            for m in agg.decls:
                try:
                    rt = rtype(m.type, owner)
                except ValueError:
                    simple = False
                    break
                sizes.add(rt if rt.startswith('*') is False else 'ptr')
            names = ', '.join(m.name for m in agg.decls)
            if simple and all(rtype(m.type).startswith('*') or rtype(m.type) in ('i64', 'u64') for m in agg.decls):
                out.append((first.name, rtype(first.type, owner), first.name,
                            'C anonymous union of: %s (all 8 bytes)' % names))
                continue
            uname = '%s_anon_union' % owner
            ufields = []
            flatten_fields(agg.decls, uname, ufields)
            extra_unions.append((uname, ufields))
            out.append(('u', uname, None, 'C anonymous union of: %s' % names))
            continue
        out.append((d.name, rtype(t, owner), d.name, None))
    flush()


def emit_struct(mod, name, node, is_union=False):
    if name in defined:
        return
    defined.add(name)
    fields = []
    flatten_fields(node.decls or [], name, fields)
    emit_agg(mod, name, fields, is_union)


def emit_agg(mod, name, fields, is_union):
    al = ALIGN.get(name)
    rep = '#[repr(C, align(%d))]' % al if al else '#[repr(C)]'
    kw = 'union' if is_union else 'struct'
    lines = ['%s\n#[derive(Clone, Copy)]\npub %s %s {' % (rep, kw, name)]
    for fn, ft, _, doc in fields:
        if doc:
            lines.append('    /// %s' % doc)
        lines.append('    pub %s: %s,' % (fn, ft))
    lines.append('}')
    emit(mod, '\n'.join(lines))
    struct_fields[name] = [(f[0], f[2]) for f in fields]


enum_vals = {}


def handle_enum(en, tdname, mod):
    vals = []
    cur = -1
    for e in (en.values.enumerators if en.values else []):
        try:
            cur = ev(e.value) if e.value is not None else cur + 1
        except Exception as ex:
            print("ENUM", e.name, ex); cur = cur + 1; continue
        consts[e.name] = cur
        vals.append((e.name, cur))
    neg = any(v < 0 for _, v in vals)
    big = any(v > 0xffffffff or v < -0x80000000 for _, v in vals)
    if big:
        rt = 'i64' if neg else 'u64'
    else:
        rt = 'c_int' if neg or any(v > 0x7fffffff for _, v in vals) and False else ('c_int' if neg else 'c_uint')
    ename = tdname or en.name
    if en.name:
        enum_types[en.name] = rt
    if tdname:
        enum_types[tdname] = rt
    lines = []
    if ename and ename not in defined:
        defined.add(ename)
        lines.append('pub type %s = %s;' % (ename, rt))
    if en.name and tdname and en.name != tdname and en.name not in defined:
        defined.add(en.name)
        lines.append('pub type %s = %s;' % (en.name, rt))
    ctype = ename or rt
    for n, v in vals:
        if n in defined:
            continue
        defined.add(n)
        lines.append('pub const %s: %s = %s;' % (n, ctype, v if v >= 0 or rt != 'c_uint' else v & 0xffffffff))
    if lines:
        emit(mod, '\n'.join(lines))


for node in ast.ext:
    mod = modof(node)
    if mod is None:
        continue
    if isinstance(node, c_ast.Typedef):
        name = node.name
        if name in SKIP_TYPEDEFS:
            continue
        t = node.type
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Enum):
            handle_enum(t.type, name, mod)
            continue
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, (c_ast.Struct, c_ast.Union)):
            agg = t.type
            isu = isinstance(agg, c_ast.Union)
            if agg.decls is not None:
                tag = agg.name
                if tag:
                    emit_struct(mod, tag, agg, isu)
                    if name != tag and name not in defined:
                        defined.add(name)
                        emit(mod, 'pub type %s = %s;' % (name, tag))
                        struct_c_name[name] = name
                    struct_c_name[tag] = name
                else:
                    emit_struct(mod, name, agg, isu)
                    struct_c_name[name] = name
            else:
                # typedef struct tag name; (forward)
                tag = agg.name
                if name not in defined:
                    defined.add(name)
                    if tag in defined:
                        emit(mod, 'pub type %s = %s;' % (name, tag))
                    else:
                        emit(mod, '/// Opaque C type.\n#[repr(C)]\npub struct %s {\n    _private: [u8; 0],\n}' % name)
            continue
        if name in defined:
            continue
        defined.add(name)
        emit(mod, 'pub type %s = %s;' % (name, rtype(t, name)))
        continue
    if isinstance(node, c_ast.Decl):
        t = node.type
        if isinstance(t, c_ast.FuncDecl):
            if node.name and node.name not in funcs:
                funcs[node.name] = (mod, fntype(t))
            continue
        if isinstance(t, c_ast.Enum):
            handle_enum(t, None, mod)
            continue
        if isinstance(t, (c_ast.Struct, c_ast.Union)) and t.decls is not None and t.name:
            emit_struct(mod, t.name, t, isinstance(t, c_ast.Union))
            struct_c_name.setdefault(t.name, 'struct ' + t.name if isinstance(t, c_ast.Struct) else 'union ' + t.name)
            continue

for uname, ufields in extra_unions:
    pass

json.dump({'funcs': funcs, 'structs': {k: v for k, v in struct_fields.items()}, 'cname': struct_c_name,
           'unions': [u for u, _ in extra_unions], 'defined': sorted(defined)},
          open(os.path.join(OUT, 'meta.json'), 'w'), indent=1)
for m, its in items.items():
    with open(os.path.join(OUT, m + '.rs.body'), 'w') as f:
        f.write('\n\n'.join(its) + '\n')
# unions appended to their owner's module: write separately
with open(os.path.join(OUT, 'unions.rs.body'), 'w') as f:
    for uname, ufields in extra_unions:
        lines = ['#[repr(C)]\n#[derive(Clone, Copy)]\npub union %s {' % uname]
        for fn, ft, _, doc in ufields:
            lines.append('    pub %s: %s,' % (fn, ft))
        lines.append('}')
        f.write('\n'.join(lines) + '\n\n')
print('funcs', len(funcs), 'structs', len(struct_fields), 'consts', len(consts))
