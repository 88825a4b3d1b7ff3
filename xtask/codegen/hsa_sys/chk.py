"""Step 2: compile a C probe against the headers that prints sizeof/alignof/offsetof of every struct
found by gen.py, so the Rust mirrors can be pinned with const asserts.

Usage: chk.py <meta.json> <include dir> <output layout.txt>"""
import json, sys, subprocess
meta = json.load(open(sys.argv[1])); inc = sys.argv[2]; out = sys.argv[3]
hdrs = ['hsa.h','hsa_ext_amd.h','hsa_ext_image.h','hsa_ext_finalize.h','hsa_ven_amd_loader.h','hsa_ven_amd_pc_sampling.h','hsa_amd_tool.h','amd_hsa_signal.h','amd_hsa_queue.h','amd_hsa_kernel_code.h']
import os
src = ['#include <stdio.h>', '#include <stddef.h>', '#include <stdalign.h>']
src += ['#include <hsa/%s>' % h for h in hdrs if os.path.exists(os.path.join(inc,'hsa',h))]
src.append('int main(void){')
for name, fields in meta['structs'].items():
    if name in meta['unions']: continue
    c = meta['cname'].get(name, name)
    src.append('#ifdef CHECK_%s' % name) if False else None
    src.append('printf("S %s %%zu %%zu\\n", sizeof(%s), alignof(%s));' % (name, c, c))
    for f, acc in fields:
        if acc: src.append('printf("F %s %s %%zu\\n", offsetof(%s, %s));' % (name, f, c, acc))
src.append('return 0;}')
probe = os.path.join(os.path.dirname(out), 'chk'); open(probe + '.c','w').write('\n'.join(s for s in src if s))
r = subprocess.run(['gcc','-w','-I',inc,probe + '.c','-o',probe],capture_output=True,text=True)
if r.returncode: print(r.stderr[:3000]); sys.exit(1)
open(out,'w').write(subprocess.run([probe],capture_output=True,text=True).stdout)
