//! LDS dword accesses whose lanes address consecutive dwords (the interpreter's span path) and those that do
//! not (lane by lane) give what executing the lanes one after another gives, worked out on the host: with a
//! partial EXEC, with `ds_write2_b32` spans that overlap or coincide, across the end of the allocation
//! (reads give 0, writes are dropped) and with a stride. Also 64-bit global loads and stores in runs, and a
//! fault in the middle of a coalesced access naming the first unmapped lane's address and the PC.

use crate::classes::{assemble, gfx90a_dispatch, run_body};
use rocprof_isa::{run, ErrorKind, RunOptions};

/// The group segment `run_body` gives its kernels, in dwords.
const LDS_DWORDS: usize = 256;

/// The host's model of the LDS: lanes of `exec` in order, dword addresses, out of range dropped or 0.
struct Lds(Vec<u32>);

impl Lds {
    fn write(
        &mut self,
        lanes: usize,
        exec: impl Fn(usize) -> bool,
        addr: impl Fn(usize) -> usize,
        v: impl Fn(usize) -> u32,
    ) {
        for l in (0..lanes).filter(|&l| exec(l)) {
            if let Some(d) = self.0.get_mut(addr(l)) {
                *d = v(l);
            }
        }
    }

    fn read(&self, a: usize) -> u32 {
        self.0.get(a).copied().unwrap_or(0)
    }
}

#[test]
fn lds_dword_spans_match_lanes_run_one_after_another() {
    for (target, lanes) in [("gfx90a", 64usize), ("gfx1030", 32)] {
        let gfx9 = target.starts_with("gfx9");
        // Lanes below 20 run the masked part.
        let body = "
            v_lshlrev_b32 v10, 2, v0
            v_lshlrev_b32 v14, 3, v0
            v_add_u32 v11, 1000, v0
            v_add_u32 v12, 2000, v0
            v_add_u32 v13, 3000, v0
            v_mov_b32 v2, 7
            v_mov_b32 v3, 7
            ds_write2_b32 v10, v11, v12 offset1:1
            s_waitcnt lgkmcnt(0)
            ds_read_b32 v1, v10
            ds_write2_b32 v10, v11, v12 offset0:64 offset1:64
            v_cmp_gt_u32 {vcc}, 20, v0
            SAVEEXEC
            ds_write_b32 v10, v13 offset:512
            ds_read2_b32 v[2:3], v10 offset0:128 offset1:1
            RESTORE
            ds_write_b32 v10, v11 offset:960
            s_waitcnt lgkmcnt(0)
            ds_read_b32 v4, v14 offset:1000
            ds_read_b32 v5, v10 offset:960
            ds_read_b32 v6, v10 offset:256
            s_waitcnt lgkmcnt(0)";
        let body = if gfx9 {
            body.replace("SAVEEXEC", "s_and_saveexec_b64 s[8:9], vcc").replace("RESTORE", "s_mov_b64 exec, s[8:9]")
        } else {
            body.replace("SAVEEXEC", "s_and_saveexec_b32 s8, vcc_lo")
                .replace("RESTORE", "s_mov_b32 exec_lo, s8")
                .replace("v_add_u32", "v_add_nc_u32")
        };
        let Some(out) = run_body(target, lanes as u32, &body, 6, &[]) else { return };

        let mut lds = Lds(vec![0; LDS_DWORDS]);
        let all = |_: usize| true;
        let low = |l: usize| l < 20;
        let (v11, v12, v13) = (|l: usize| 1000 + l as u32, |l: usize| 2000 + l as u32, |l: usize| 3000 + l as u32);
        // ds_write2_b32 offset1:1: each lane writes dword l, then dword l + 1.
        for l in 0..lanes {
            lds.write(lanes, |k| k == l, |k| k, v11);
            lds.write(lanes, |k| k == l, |k| k + 1, v12);
        }
        let v1: Vec<u32> = (0..lanes).map(|l| lds.read(l)).collect();
        for l in 0..lanes {
            lds.write(lanes, |k| k == l, |k| 64 + k, v11);
            lds.write(lanes, |k| k == l, |k| 64 + k, v12);
        }
        lds.write(lanes, low, |k| 128 + k, v13);
        let v2: Vec<u32> = (0..lanes).map(|l| if low(l) { lds.read(128 + l) } else { 7 }).collect();
        let v3: Vec<u32> = (0..lanes).map(|l| if low(l) { lds.read(l + 1) } else { 7 }).collect();
        lds.write(lanes, all, |k| 240 + k, v11);
        // Byte address 1000 + 8l: dword 250 + 2l.
        let v4: Vec<u32> = (0..lanes).map(|l| lds.read(250 + 2 * l)).collect();
        let v5: Vec<u32> = (0..lanes).map(|l| lds.read(240 + l)).collect();
        let v6: Vec<u32> = (0..lanes).map(|l| lds.read(64 + l)).collect();
        for (k, want) in [v1, v2, v3, v4, v5, v6].iter().enumerate() {
            assert_eq!(&out[k][..lanes], &want[..], "{target}: v{}", k + 1);
        }
        // The host model itself: coinciding spans keep the second write, overlapping ones the later lane's
        // first, and the end of the allocation cuts the span.
        assert_eq!((out[5][3], out[0][5], out[4][15], out[4][16]), (2003, 1005, 1015, 0), "{target}");
    }
}

#[test]
fn global_dwordx2_loads_and_stores_in_runs_keep_lane_order() {
    for (target, lanes) in [("gfx90a", 64usize), ("gfx1030", 32)] {
        // Element l of DATA is the u64 `l << 32 | (0x100 + l)`. Lane l loads element l (one run), stores it
        // to element 64 + l (one run) and to a copy with a 16-byte stride (no runs: lane by lane), then
        // reads the copies back as dwords.
        let body = "
            v_lshlrev_b32 v20, 3, v0
            global_load_dwordx2 v[10:11], v20, s[6:7]
            s_waitcnt vmcnt(0)
            global_store_dwordx2 v20, v[10:11], s[6:7] offset:512
            v_lshlrev_b32 v21, 4, v0
            global_store_dwordx2 v21, v[10:11], s[6:7] offset:1024
            s_waitcnt vmcnt(0)
            global_load_dword v1, v20, s[6:7] offset:512
            global_load_dword v2, v20, s[6:7] offset:516
            global_load_dword v3, v21, s[6:7] offset:1028
            s_waitcnt vmcnt(0)";
        let mut data = vec![0u8; 2048];
        for l in 0..64u64 {
            data[8 * l as usize..8 * l as usize + 8].copy_from_slice(&((l << 32) | (0x100 + l)).to_le_bytes());
        }
        let Some(out) = run_body(target, lanes as u32, body, 3, &data) else { return };
        for l in 0..lanes {
            let (lo, hi) = (0x100 + l as u32, l as u32);
            assert_eq!((out[0][l], out[1][l], out[2][l]), (lo, hi, hi), "{target} lane {l}");
        }
    }
}

#[test]
fn a_fault_inside_a_coalesced_load_names_the_first_unmapped_lane_and_the_pc() {
    // 64 lanes load 8 bytes each from 256 mapped bytes: lane 32 is the first outside.
    let text = "s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\nv_lshlrev_b32 v1, 3, v0\n\
                global_load_dwordx2 v[2:3], v1, s[4:5]\ns_waitcnt vmcnt(0)\ns_endpgm\n";
    let Some(code) = assemble("gfx90a", text) else { return };
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&(2u32 << 1).to_le_bytes());
    kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // the kernarg pointer in s[0:1]; its first argument is BUF
    const BUF: u64 = 0x6000_0000;
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, BUF, [64, 1, 1], [64, 1, 1], 0);
    mem.map(BUF, &[0x5a; 256]);
    let e = run(&d, &mem, &RunOptions::default()).unwrap_err();
    let ErrorKind::Fault(f) = e.kind else { panic!("not a fault: {e}") };
    assert_eq!((f.addr, f.len, f.write), (BUF + 256, 8, false), "{e}");
    // The load is the fourth instruction: 8 + 4 + 4 bytes after the entry.
    assert_eq!(e.pc_offset, 16, "{e}");
    assert_eq!(e.mnemonic, Some("global_load_dwordx2"), "{e}");
}
