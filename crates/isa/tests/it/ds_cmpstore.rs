//! LDS compare-and-store: the two data operands swapped roles between generations. gfx9/gfx10's
//! `ds_cmpst_{rtn_}b32/b64` take the compare value in data0 and the new value in data1; gfx11/gfx12's
//! `ds_cmpstore_*` (the same opcode) take the new value in data0 and the compare value in data1 (AMD's
//! RDNA3 ISA, DS_CMPSTORE_B32: `src = DATA, cmp = DATA2`). LLVM's encodings show it: `llvm-mc-19
//! -mcpu=gfx1100` puts `ds_cmpstore_rtn_b32 v1, v100, v22, v21`'s v22 in the data0 field, and clang-21's
//! gfx1100 build of rocSPARSE's `csrgemm_nnz_wf_per_row` hash insert passes the column in data0 and the
//! empty marker -1 in data1 (gfx90a's build: -1 in data0). The expected values are worked out on the host
//! from those definitions.

use crate::classes::run_body;

/// The kernel: LDS word `4l` holds `l` and qword `512 + 8l` holds `{l, l | 0x7000}`; the compare values
/// match them in even lanes only; returns the old values and what LDS holds afterwards.
fn body(mcpu: &str) -> String {
    let gfx11 = mcpu.starts_with("gfx11") || mcpu.starts_with("gfx12");
    let (op32, op64) = if gfx11 {
        // new value first, compare value second
        ("ds_cmpstore_rtn_b32 v1, v100, v22, v21", "ds_cmpstore_rtn_b64 v[30:31], v101, v[28:29], v[26:27] offset:512")
    } else {
        // compare value first, new value second
        ("ds_cmpst_rtn_b32 v1, v100, v21, v22", "ds_cmpst_rtn_b64 v[30:31], v101, v[26:27], v[28:29] offset:512")
    };
    format!(
        "v_lshlrev_b32 v101, 3, v0
        v_or_b32 v20, 0x10000, v0
        v_and_b32 v23, 1, v0
        v_cmp_eq_u32 {{vcc}}, 0, v23
        v_cndmask_b32 v21, v20, v0, {{vcc}}
        v_or_b32 v22, 0x5000, v0
        v_mov_b32 v24, v0
        v_or_b32 v25, 0x7000, v0
        v_mov_b32 v26, v21
        v_mov_b32 v27, v25
        v_mov_b32 v28, v22
        v_or_b32 v29, 0x9000, v0
        ds_write_b32 v100, v0
        ds_write_b64 v101, v[24:25] offset:512
        s_waitcnt lgkmcnt(0)
        {op32}
        {op64}
        s_waitcnt lgkmcnt(0)
        ds_read_b32 v2, v100
        ds_read_b64 v[32:33], v101 offset:512
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v3, v30
        v_mov_b32 v4, v31
        v_mov_b32 v5, v32
        v_mov_b32 v6, v33"
    )
}

fn check(mcpu: &str, lanes: u32) {
    let Some(out) = run_body(mcpu, lanes, &body(mcpu), 6, &[]) else { return };
    for l in 0..lanes {
        let even = l % 2 == 0;
        let want = [
            ("b32 old", l),
            ("b32 after", if even { 0x5000 | l } else { l }),
            ("b64 old lo", l),
            ("b64 old hi", 0x7000 | l),
            ("b64 after lo", if even { 0x5000 | l } else { l }),
            ("b64 after hi", if even { 0x9000 | l } else { 0x7000 | l }),
        ];
        for (k, (what, w)) in want.into_iter().enumerate() {
            let got = out[k][l as usize];
            assert_eq!(got, w, "{mcpu} lane {l} {what}: {got:#x}, expected {w:#x}");
        }
    }
}

#[test]
fn gfx11_and_gfx12_ds_cmpstore_takes_the_new_value_in_data0_and_the_compare_value_in_data1() {
    check("gfx1100", 32);
    check("gfx1201", 32);
}

#[test]
fn gfx9_and_gfx10_ds_cmpst_takes_the_compare_value_in_data0_and_the_new_value_in_data1() {
    check("gfx90a", 64);
    check("gfx1030", 32);
}
