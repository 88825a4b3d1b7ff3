#!/usr/bin/env python3
"""Resolves the imports of rocprof-hsa-sys's modules.

The generators write the line `PLACEHOLDER` where a module's imports go. `resolve` replaces it with
one `use crate::<sibling>::*;` per sibling module that defines a name the file refers to, and a
`use core::ffi::{..};` of the C types it uses: never `use crate::*;` (the crate root only re-exports
the modules), so no import runs back up to `lib.rs`. The sibling lists come from the names each
file defines at top level and the identifiers it uses outside comments and string literals; an
import circle between siblings is an error.

Usage (the HIP scripts call `resolve` themselves; by hand):
    python3 xtask/codegen/hsa_sys/imports.py crates/hsa-sys/src FILE.rs...
"""
import os
import re
import sys

PLACEHOLDER = '// @imports (resolved by xtask/codegen/hsa_sys/imports.py)'
C_TYPES = ('c_char', 'c_int', 'c_long', 'c_uint', 'c_ulong', 'c_void')
DEF = re.compile(r'^pub (?:unsafe )?(?:const fn|fn|struct|union|enum|type|const|static|mod|trait) (\w+)', re.M)
STRING = re.compile(r'b?"(?:[^"\\]|\\.)*"')
IDENT = re.compile(r'\b[A-Za-z_]\w*\b')


def _code(text):
    """`text` without comments, string literals and the import lines themselves."""
    lines = [l.split('//')[0] if '"' not in l else l for l in text.split('\n')]
    lines = [l for l in lines if not l.lstrip().startswith(('//', 'use ', 'pub use '))]
    return STRING.sub('""', '\n'.join(lines))


def definitions(src):
    """Module name -> the names it defines at top level (every `.rs` of `src` but `lib.rs`)."""
    defs = {}
    for f in sorted(os.listdir(src)):
        if f.endswith('.rs') and f != 'lib.rs':
            defs[f[:-3]] = set(DEF.findall(open(os.path.join(src, f)).read()))
    return defs


def uses(mod, text, defs):
    """The sibling modules and C types the module `mod` (source `text`) refers to."""
    idents = set(IDENT.findall(_code(text)))
    own = defs.get(mod, set())
    mods = sorted(m for m, names in defs.items() if m != mod and (idents & names) - own)
    return mods, [c for c in C_TYPES if c in idents]


def _circle(graph):
    state = {}

    def visit(m, path):
        if state.get(m) == 1:
            return path[path.index(m):] + [m]
        if state.get(m) == 2:
            return None
        state[m] = 1
        for n in graph.get(m, ()):
            c = visit(n, path + [m])
            if c:
                return c
        state[m] = 2
        return None

    for m in sorted(graph):
        c = visit(m, [])
        if c:
            return c
    return None


def resolve(src, files):
    """Replaces `PLACEHOLDER` in each of `files` (names in `src`) with the imports it needs."""
    defs = definitions(src)
    graph = {}
    for f in sorted(os.listdir(src)):
        if f.endswith('.rs') and f != 'lib.rs':
            graph[f[:-3]] = uses(f[:-3], open(os.path.join(src, f)).read(), defs)[0]
    circle = _circle(graph)
    if circle:
        sys.exit('imports.py: import circle between sibling modules: ' + ' -> '.join(circle))
    for f in files:
        path = os.path.join(src, f)
        text = open(path).read()
        if PLACEHOLDER not in text:
            sys.exit('imports.py: %s has no import placeholder' % path)
        mods, ctypes = uses(f[:-3], text, defs)
        lines = []
        if ctypes:
            lines.append('use core::ffi::{%s};' % ', '.join(ctypes))
        lines += ['use crate::%s::*;' % m for m in mods]
        open(path, 'w').write(text.replace(PLACEHOLDER, '\n'.join(lines), 1))


if __name__ == '__main__':
    resolve(sys.argv[1], sys.argv[2:])
