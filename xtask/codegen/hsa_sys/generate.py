#!/usr/bin/env python3
"""Regenerates the definition files of rocprof-hsa-sys from AMD's headers.

    cargo xtask codegen-hsa-sys --rocm-systems <rocm-systems git dir>   (or, by hand:)
    python3 xtask/codegen/hsa_sys/generate.py \
        --rocr-inc <rocm-systems>/projects/rocr-runtime/runtime/hsa-runtime/inc \
        --def <rocm-systems>/projects/rocr-runtime/runtime/hsa-runtime/hsacore.so.def \
        [--debian-inc /usr/include] [--out crates/hsa-sys/src]

Needs gcc, rustfmt, Python's pycparser, the newest ROCr headers (`ROCm/rocm-systems`, e.g.
`git show HEAD:projects/rocr-runtime/runtime/hsa-runtime/inc/<file>`) and Debian's ROCm 5.2 headers
(`apt-get install libhsa-runtime-dev`). Steps: gen.py translates declarations, chk.py measures every
layout with a compiled C probe (newest and 5.2; differences in shared structs are printed),
assemble.py writes one module per header plus layout.rs (const asserts), tables.py writes
api_trace.rs (both table layouts) and exports.rs, imports.py gives each module the sibling imports it
needs. lib.rs is hand-written and not touched.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from imports import resolve  # noqa: E402

# The generated modules whose imports `imports.py` resolves (exports.rs needs none).
MODULES = ['hsa', 'hsa_ext_amd', 'hsa_ext_image', 'hsa_ext_finalize', 'hsa_ven_amd_loader', 'hsa_ven_amd_pc_sampling',
           'hsa_amd_tool', 'amd_hsa_signal', 'amd_hsa_queue', 'amd_hsa_kernel_code', 'layout', 'api_trace']

FAKE = {
    'stdint.h': 'typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;\n'
                'typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n'
                'typedef unsigned long uint64_t; typedef unsigned long uintptr_t; typedef long intptr_t;\n'
                '#define UINT64_MAX 0xffffffffffffffffUL\n#define UINT32_MAX 0xffffffffU\n#define INT32_MAX 0x7fffffff\n',
    'stddef.h': 'typedef unsigned long size_t; typedef long ptrdiff_t;\n#define NULL ((void*)0)\n#define offsetof(t,m) 0\n',
    'stdbool.h': 'typedef _Bool bool;\n#define true 1\n#define false 0\n',
    'string.h': '', 'stdlib.h': '', 'assert.h': '', 'stdio.h': '',
}


def run(*args):
    subprocess.run([sys.executable, *args], check=True)


def layout(path):
    d = {}
    for line in open(path):
        p = line.split()
        d[tuple(p[:-1]) if p[0] == 'F' else (p[0], p[1])] = p[2:] if p[0] == 'S' else p[-1]
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rocr-inc', required=True)
    ap.add_argument('--def', dest='defs', required=True)
    ap.add_argument('--debian-inc', default='/usr/include')
    ap.add_argument('--out', default=os.path.join(HERE, '..', '..', '..', 'crates', 'hsa-sys', 'src'))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix='hsa-sys-codegen-')
    try:
        os.makedirs(os.path.join(work, 'fake'))
        for name, text in FAKE.items():
            open(os.path.join(work, 'fake', name), 'w').write(text)
        newinc = os.path.join(work, 'newinc')
        os.makedirs(os.path.join(newinc, 'hsa'))
        for f in os.listdir(a.rocr_inc):
            if f.endswith('.h'):
                shutil.copy(os.path.join(a.rocr_inc, f), os.path.join(newinc, 'hsa', f))
        out_new, out_52 = os.path.join(work, 'out'), os.path.join(work, 'out52')
        os.makedirs(out_new)
        os.makedirs(out_52)
        run(os.path.join(HERE, 'gen.py'), newinc, out_new, work)
        run(os.path.join(HERE, 'gen.py'), a.debian_inc, out_52, work)
        run(os.path.join(HERE, 'chk.py'), os.path.join(out_new, 'meta.json'), newinc, os.path.join(out_new, 'layout.new.txt'))
        run(os.path.join(HERE, 'chk.py'), os.path.join(out_52, 'meta.json'), a.debian_inc, os.path.join(out_52, 'layout.52.txt'))
        new, old = layout(os.path.join(out_new, 'layout.new.txt')), layout(os.path.join(out_52, 'layout.52.txt'))
        for k, v in old.items():
            if k in new and new[k] != v:
                print('layout differs between 5.2 and newest:', k, '5.2 =', v, 'newest =', new[k])
        run(os.path.join(HERE, 'assemble.py'), out_new, out_52, a.out)
        run(os.path.join(HERE, 'tables.py'), out_new, newinc, a.debian_inc, a.defs, a.out)
        resolve(a.out, [m + '.rs' for m in MODULES])
        subprocess.run(['rustfmt', '--edition', '2021', os.path.join(a.out, 'lib.rs')], check=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
