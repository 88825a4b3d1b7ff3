//! `v_dot4_u32_u8` and `v_dot4_i32_i8` (VOP3P): D = S2 + the sum of the products of the four bytes of S0
//! and S1 (unsigned, or signed), wrapping, or saturating to the result type with `clamp` (CDNA3 and RDNA2
//! ISA guides, "V_DOT4_U32_U8"/"V_DOT4_I32_I8"). rocThrust's `inner_product` of `char` on gfx90a and
//! gfx1100 uses the unsigned form. The instructions are assembled by llvm-mc-21; expected values are the
//! host's sums over the same bytes.

use crate::classes::run_body;

/// Per lane: (S0, S1, S2), spread over the byte range; S2 near the top of the range on some lanes so the
/// clamped forms saturate.
fn operands(l: u32) -> (u32, u32, u32) {
    let a = l.wrapping_mul(0x9e37_79b9) ^ 0x8040_20ff;
    let b = l.wrapping_mul(0x85eb_ca6b).rotate_left(7) | 0x0180_8001;
    let c = if l % 4 == 3 {
        u32::MAX - l
    } else if l % 4 == 2 {
        0x7fff_ff00 + l
    } else {
        l * 1000
    };
    (a, b, c)
}

fn data(lanes: u32) -> Vec<u8> {
    let mut d = vec![0u8; 768];
    for l in 0..lanes {
        let (a, b, c) = operands(l);
        for (k, x) in [a, b, c].into_iter().enumerate() {
            let at = 256 * k + 4 * l as usize;
            d[at..at + 4].copy_from_slice(&x.to_le_bytes());
        }
    }
    d
}

fn body(insn: &str) -> String {
    format!(
        "global_load_dword v4, v100, s[6:7]
        global_load_dword v5, v100, s[6:7] offset:256
        global_load_dword v6, v100, s[6:7] offset:512
        s_waitcnt vmcnt(0)
        {insn} v1, v4, v5, v6
        {insn} v2, v4, v5, v6 clamp"
    )
}

fn expected(l: u32, signed: bool) -> (u32, u32) {
    let (a, b, c) = operands(l);
    let byte = |x: u32, k: u32| {
        let v = (x >> (8 * k)) as u8;
        if signed {
            i64::from(v as i8)
        } else {
            i64::from(v)
        }
    };
    let acc = if signed { i64::from(c as i32) } else { i64::from(c) };
    let sum = (0..4).map(|k| byte(a, k) * byte(b, k)).sum::<i64>() + acc;
    let clamped = if signed {
        sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32
    } else {
        sum.min(i64::from(u32::MAX)) as u32
    };
    (sum as u32, clamped)
}

fn check(mcpu: &str, lanes: u32, insn: &str, signed: bool) {
    let Some(got) = run_body(mcpu, lanes, &body(insn), 2, &data(lanes)) else { return };
    let mut saturated = 0;
    for l in 0..lanes {
        let (wrap, clamp) = expected(l, signed);
        saturated += usize::from(wrap != clamp);
        assert_eq!(got[0][l as usize], wrap, "{mcpu} {insn} lane {l}");
        assert_eq!(got[1][l as usize], clamp, "{mcpu} {insn} clamp lane {l}");
    }
    assert!(saturated > 0, "{mcpu} {insn}: no lane saturates, so clamp is untested");
}

#[test]
fn v_dot4_u32_u8_sums_unsigned_byte_products_and_saturates_with_clamp() {
    for (mcpu, lanes) in [("gfx90a", 64), ("gfx942", 64), ("gfx1030", 32), ("gfx1100", 32)] {
        check(mcpu, lanes, "v_dot4_u32_u8", false);
    }
}

#[test]
fn v_dot4_i32_i8_sums_signed_byte_products_and_saturates_with_clamp() {
    for (mcpu, lanes) in [("gfx90a", 64), ("gfx1030", 32)] {
        check(mcpu, lanes, "v_dot4_i32_i8", true);
    }
}
