//! RDNA3/RDNA4 dual-issue VALU (VOPD): every `v_dual_*` operation in both halves, assembled by `llvm-mc-19`
//! (Debian package llvm-19) for gfx1100 and gfx1201, against values computed on the host.
//!
//! Each VOPD instruction pairs the operation under test with a `v_dual_mov_b32` in the other half. Sources:
//! X reads `v82` and `v85`, Y reads `v88` and `v91` (the encoding wants src0 and vsrc1 of the two halves in
//! different VGPR banks); the k-th instruction writes `v(2k+1)` (X) and `v(2k+2)` (Y), which start at
//! `lane + 7.0` so that the accumulating operations have something to accumulate into.

use crate::classes::run_body;

const LANES: usize = 32;

fn lane_f(l: usize) -> f32 {
    l as f32
}

/// The sources per lane, as the prologue computes them.
fn srcs(l: usize) -> [f32; 4] {
    let x = lane_f(l);
    [x * 0.5 + 1.0, 3.0 - x * 0.25, x + 0.75, x - 2.5]
}

fn prologue(results: usize) -> String {
    let mut t = String::from(
        "v_cvt_f32_u32 v81, v0
         v_fma_f32 v82, v81, 0.5, 1.0
         v_mul_f32 v85, 0xbe800000, v81
         v_add_f32 v85, 0x40400000, v85
         v_add_f32 v88, 0x3f400000, v81
         v_add_f32 v91, 0xc0200000, v81
         v_add_f32 v1, 0x40e00000, v81
         v_cmp_gt_u32 vcc_lo, 13, v0
         ",
    );
    for k in 2..=results {
        t.push_str(&format!("v_mov_b32 v{k}, v1\n"));
    }
    t
}

/// f16 bits to f32 (normal numbers and zero; the tests' sources have no others).
fn h(x: u32) -> f32 {
    let x = x & 0xffff;
    let sign = if x & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((x >> 10) & 0x1f) as i32;
    let m = (x & 0x3ff) as f32 / 1024.0;
    if e == 0 && x & 0x3ff == 0 {
        return 0.0 * sign;
    }
    assert!(e != 0 && e != 31, "test source {x:#x} is not a normal f16");
    sign * (1.0 + m) * 2f32.powi(e - 15)
}

/// An operation's value from (src0, vsrc1, old destination, VCC bit).
type Eval = fn(f32, f32, f32, bool) -> f32;

/// One operation: its name on gfx11 and gfx12 (`None`: not on that family), whether it exists in the X half
/// (the integer operations are Y-only), and its value from (src0, vsrc1, old destination, VCC bit).
struct Case {
    gfx11: Option<&'static str>,
    gfx12: Option<&'static str>,
    x: bool,
    /// Operand text after the destination.
    operands: &'static str,
    eval: Eval,
}

fn fb(x: f32) -> u32 {
    x.to_bits()
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            gfx11: Some("v_dual_fmac_f32"),
            gfx12: Some("v_dual_fmac_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, c, _| a.mul_add(b, c),
        },
        Case {
            gfx11: Some("v_dual_fmaak_f32"),
            gfx12: Some("v_dual_fmaak_f32"),
            x: true,
            operands: "S0, S1, 0x3fa00000",
            eval: |a, b, _, _| a.mul_add(b, 1.25),
        },
        Case {
            gfx11: Some("v_dual_fmamk_f32"),
            gfx12: Some("v_dual_fmamk_f32"),
            x: true,
            operands: "S0, 0x3fa00000, S1",
            eval: |a, b, _, _| a.mul_add(1.25, b),
        },
        Case {
            gfx11: Some("v_dual_mul_f32"),
            gfx12: Some("v_dual_mul_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| a * b,
        },
        Case {
            gfx11: Some("v_dual_add_f32"),
            gfx12: Some("v_dual_add_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| a + b,
        },
        Case {
            gfx11: Some("v_dual_sub_f32"),
            gfx12: Some("v_dual_sub_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| a - b,
        },
        Case {
            gfx11: Some("v_dual_subrev_f32"),
            gfx12: Some("v_dual_subrev_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| b - a,
        },
        Case {
            gfx11: Some("v_dual_mul_dx9_zero_f32"),
            gfx12: Some("v_dual_mul_dx9_zero_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| if a == 0.0 || b == 0.0 { 0.0 } else { a * b },
        },
        Case {
            gfx11: Some("v_dual_mov_b32"),
            gfx12: Some("v_dual_mov_b32"),
            x: true,
            operands: "S0",
            eval: |a, _, _, _| a,
        },
        Case {
            gfx11: Some("v_dual_cndmask_b32"),
            gfx12: Some("v_dual_cndmask_b32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, vcc| if vcc { b } else { a },
        },
        Case {
            gfx11: Some("v_dual_max_f32"),
            gfx12: Some("v_dual_max_num_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| a.max(b),
        },
        Case {
            gfx11: Some("v_dual_min_f32"),
            gfx12: Some("v_dual_min_num_f32"),
            x: true,
            operands: "S0, S1",
            eval: |a, b, _, _| a.min(b),
        },
        Case {
            gfx11: Some("v_dual_dot2acc_f32_f16"),
            gfx12: None,
            x: true,
            operands: "S0, S1",
            eval: |a, b, c, _| c + h(fb(a)) * h(fb(b)) + h(fb(a) >> 16) * h(fb(b) >> 16),
        },
        Case {
            gfx11: Some("v_dual_add_nc_u32"),
            gfx12: Some("v_dual_add_nc_u32"),
            x: false,
            operands: "S0, S1",
            eval: |a, b, _, _| f32::from_bits(fb(a).wrapping_add(fb(b))),
        },
        Case {
            gfx11: Some("v_dual_lshlrev_b32"),
            gfx12: Some("v_dual_lshlrev_b32"),
            x: false,
            operands: "S0, S1",
            eval: |a, b, _, _| f32::from_bits(fb(b) << (fb(a) & 31)),
        },
        Case {
            gfx11: Some("v_dual_and_b32"),
            gfx12: Some("v_dual_and_b32"),
            x: false,
            operands: "S0, S1",
            eval: |a, b, _, _| f32::from_bits(fb(a) & fb(b)),
        },
    ]
}

/// Runs every case of `filter` in both halves on `mcpu`, comparing each lane with the host.
fn check(mcpu: &str, filter: impl Fn(&str) -> bool) {
    let gfx12 = mcpu.starts_with("gfx12");
    let mut lines = Vec::new();
    let mut expect: Vec<(String, usize, Eval, bool)> = Vec::new();
    let mut k = 0;
    for c in cases() {
        let Some(name) = (if gfx12 { c.gfx12 } else { c.gfx11 }) else { continue };
        if !filter(name) {
            continue;
        }
        let (dx, dy) = (2 * k + 1, 2 * k + 2);
        let x_ops = c.operands.replace("S0", "v82").replace("S1", "v85");
        let y_ops = c.operands.replace("S0", "v88").replace("S1", "v91");
        if c.x {
            lines.push(format!("{name} v{dx}, {x_ops} :: v_dual_mov_b32 v{dy}, v88"));
            expect.push((format!("{name} (X)"), dx, c.eval, true));
            expect.push((format!("v_dual_mov_b32 (Y beside {name})"), dy, |a, _, _, _| a, false));
            k += 1;
        }
        let (dx, dy) = (2 * k + 1, 2 * k + 2);
        lines.push(format!("v_dual_mov_b32 v{dx}, v82 :: {name} v{dy}, {y_ops}"));
        expect.push((format!("v_dual_mov_b32 (X beside {name})"), dx, |a, _, _, _| a, true));
        expect.push((format!("{name} (Y)"), dy, c.eval, false));
        k += 1;
    }
    assert!(!lines.is_empty(), "{mcpu}: no case selected");
    let results = 2 * k;
    let body = format!("{}{}", prologue(results), lines.join("\n"));
    let Some(out) = run_body(mcpu, LANES as u32, &body, results, &[]) else { return };
    let mut bad = Vec::new();
    for (what, dst, eval, x_half) in &expect {
        for l in 0..LANES {
            let s = srcs(l);
            let (a, b) = if *x_half { (s[0], s[1]) } else { (s[2], s[3]) };
            let want = eval(a, b, lane_f(l) + 7.0, l < 13).to_bits();
            let got = out[dst - 1][l];
            if got != want {
                bad.push(format!(
                    "{mcpu} {what} lane {l}: got {got:#010x} ({}), want {want:#010x} ({})",
                    f32::from_bits(got),
                    f32::from_bits(want)
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{} wrong lanes:\n{}\n{body}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

#[test]
fn vopd_cndmask_selects_with_vcc_in_either_half() {
    // Issue 19: the decoder gave every VOPD half src2 = its destination, so v_dual_cndmask_b32 took its lane
    // mask from a VGPR instead of VCC.
    for t in ["gfx1100", "gfx1201"] {
        check(t, |n| n == "v_dual_cndmask_b32");
    }
}

#[test]
fn vopd_y_half_executes_its_own_operation() {
    // The Y opcode table once named every Y operation v_dual_mov_b32 (the generator read the X half's
    // mnemonic); every operation in the Y half, beside a mov in X.
    for t in ["gfx1100", "gfx1201"] {
        check(t, |n| !matches!(n, "v_dual_cndmask_b32" | "v_dual_fmac_f32" | "v_dual_dot2acc_f32_f16"));
    }
}

#[test]
fn vopd_fmac_and_dot2acc_accumulate_into_their_destination() {
    for t in ["gfx1100", "gfx1201"] {
        check(t, |n| matches!(n, "v_dual_fmac_f32" | "v_dual_dot2acc_f32_f16"));
    }
}

/// Constants in the source-0 slot of either half: the instruction's one literal (rocThrust's gfx1100
/// partition kernel has `v_dual_mov_b32 v24, v1 :: v_dual_and_b32 v23, 0xffff, v2`) and inline constants,
/// against host arithmetic on the lane's values.
#[test]
fn vopd_literal_and_inline_constants_reach_the_half_that_names_them() {
    let body = "
        v_mul_u32_u24 v82, 0x10203, v0
        v_add_nc_u32 v85, 0xabcd1234, v0
        v_dual_mov_b32 v1, v82 :: v_dual_and_b32 v2, 0xffff, v85
        v_dual_mov_b32 v3, 0x12345 :: v_dual_add_nc_u32 v4, 5, v85
        v_dual_mov_b32 v5, 0 :: v_dual_add_nc_u32 v6, 0x12345, v82";
    for mcpu in ["gfx1100", "gfx1201"] {
        let Some(r) = crate::classes::run_body(mcpu, 32, body, 6, &[]) else { return };
        for l in 0..32u32 {
            let (a, b) = (0x10203 * l, 0xabcd_1234u32.wrapping_add(l));
            let want = [a, b & 0xffff, 0x12345, b.wrapping_add(5), 0, a.wrapping_add(0x12345)];
            for (k, w) in want.iter().enumerate() {
                assert_eq!(r[k][l as usize], *w, "{mcpu} lane {l} v{}", k + 1);
            }
        }
    }
}
