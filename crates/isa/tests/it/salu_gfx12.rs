//! gfx12's renamed and added scalar instructions (the carry-out add/sub family, scalar float arithmetic,
//! conversions and compares, sub-dword scalar loads), assembled by `llvm-mc-19` for gfx1201 and checked
//! against values computed on the host.

use crate::classes::run_body;

/// Runs `body` on gfx1201; each `(expression, sgpr)` afterwards is copied to a VGPR and read back (lane 0).
fn scalar(body: &str, outs: &[&str], data: &[u8]) -> Option<Vec<u32>> {
    let mut text = String::from(body);
    for (k, s) in outs.iter().enumerate() {
        text.push_str(&format!("\nv_mov_b32 v{}, {s}", k + 1));
    }
    let out = run_body("gfx1201", 32, &text, outs.len(), data)?;
    Some(out.iter().map(|r| r[0]).collect())
}

/// f16 bits of `x`, which must be exactly representable as a normal f16 (the tests pick such values).
fn h(x: f32) -> u32 {
    let b = x.to_bits();
    let (sign, exp, man) = (b >> 31, ((b >> 23) & 0xff) as i32 - 127, b & 0x7f_ffff);
    if x == 0.0 {
        return sign << 15;
    }
    assert!((-14..=15).contains(&exp) && man & 0x1fff == 0, "{x} is not an exact normal f16");
    (sign << 15) | (((exp + 15) as u32) << 10) | (man >> 13)
}

#[test]
fn gfx12_add_sub_co_family_computes_and_sets_scc_like_the_gfx11_names() {
    // hipMemset's fill kernel (__amd_rocclr_fillBufferAligned) uses s_add_co_i32 on gfx12.
    let body = "
        s_mov_b32 s10, -1
        s_add_co_u32 s11, s10, 2
        s_cselect_b32 s12, 1, 0
        s_add_co_ci_u32 s13, 5, 0
        s_mov_b32 s14, 3
        s_sub_co_u32 s15, s14, 5
        s_cselect_b32 s16, 1, 0
        s_sub_co_ci_u32 s17, 10, 0
        s_mov_b32 s18, 0x7fffffff
        s_add_co_i32 s19, s18, 1
        s_cselect_b32 s20, 1, 0
        s_add_co_i32 s21, s14, -5
        s_cselect_b32 s22, 1, 0
        s_mov_b32 s23, 0x80000000
        s_sub_co_i32 s24, s23, 1
        s_cselect_b32 s25, 1, 0
        s_mov_b32 s26, 0x7ffffff0
        s_addk_co_i32 s26, 0x20
        s_cselect_b32 s27, 1, 0
    ";
    let outs = ["s11", "s12", "s13", "s15", "s16", "s17", "s19", "s20", "s21", "s22", "s24", "s25", "s26", "s27"];
    let Some(r) = scalar(body, &outs, &[]) else { return };
    let (sum, carry) = u32::MAX.overflowing_add(2);
    let (diff, borrow) = 3u32.overflowing_sub(5);
    let (ov, ov_flag) = i32::MAX.overflowing_add(1);
    let (small, small_flag) = 3i32.overflowing_add(-5);
    let (un, un_flag) = i32::MIN.overflowing_sub(1);
    let (k, k_flag) = 0x7fff_fff0i32.overflowing_add(0x20);
    let want = [
        sum,
        u32::from(carry),
        5 + u32::from(carry),
        diff,
        u32::from(borrow),
        10 - u32::from(borrow),
        ov as u32,
        u32::from(ov_flag),
        small as u32,
        u32::from(small_flag),
        un as u32,
        u32::from(un_flag),
        k as u32,
        u32::from(k_flag),
    ];
    for (k, name) in outs.iter().enumerate() {
        assert_eq!(
            r[k],
            want[k],
            "{name} ({})",
            body.lines().filter(|l| l.contains(name)).collect::<Vec<_>>().join(" / ")
        );
    }
}

#[test]
fn gfx12_scalar_f32_arithmetic_matches_the_host() {
    let (a, b, c) = (1.75f32, -3.125f32, 0.3f32);
    let body = format!(
        "
        s_mov_b32 s10, {a:#x}
        s_mov_b32 s11, {b:#x}
        s_mov_b32 s12, {c:#x}
        s_mov_b32 s13, 0x7fc00000
        s_add_f32 s20, s10, s11
        s_sub_f32 s21, s10, s11
        s_mul_f32 s22, s10, s12
        s_min_num_f32 s23, s10, s13
        s_max_num_f32 s24, s13, s11
        s_minimum_f32 s25, s10, s11
        s_maximum_f32 s26, s10, s13
        s_mov_b32 s27, s12
        s_fmac_f32 s27, s10, s11
        s_fmaak_f32 s28, s10, s11, {c:#x}
        s_fmamk_f32 s29, s10, {c:#x}, s11
        s_ceil_f32 s30, s11
        s_floor_f32 s31, s11
        s_trunc_f32 s32, s11
        s_mov_b32 s33, 2.5
        s_rndne_f32 s33, s33
        s_mov_b32 s35, 0x80000000
        s_minimum_f32 s34, 0, s35
        ",
        a = a.to_bits(),
        b = b.to_bits(),
        c = c.to_bits()
    );
    let outs =
        ["s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31", "s32", "s33", "s34"];
    let Some(r) = scalar(&body, &outs, &[]) else { return };
    let want = [
        (a + b).to_bits(),
        (a - b).to_bits(),
        (a * c).to_bits(),
        a.to_bits(),
        b.to_bits(),
        b.to_bits(),
        f32::NAN.to_bits(),
        a.mul_add(b, c).to_bits(),
        a.mul_add(b, c).to_bits(),
        a.mul_add(c, b).to_bits(),
        b.ceil().to_bits(),
        b.floor().to_bits(),
        b.trunc().to_bits(),
        2.0f32.to_bits(),
        (-0.0f32).to_bits(),
    ];
    for (k, name) in outs.iter().enumerate() {
        // Any quiet NaN is a NaN result.
        if f32::from_bits(want[k]).is_nan() {
            assert!(f32::from_bits(r[k]).is_nan(), "{name}: {:#x} is not NaN", r[k]);
        } else {
            assert_eq!(r[k], want[k], "{name}: got {} want {}", f32::from_bits(r[k]), f32::from_bits(want[k]));
        }
    }
}

#[test]
fn gfx12_scalar_f16_arithmetic_matches_the_host() {
    // Values whose results are exact in f16, so the host's f32 arithmetic is the f16 result.
    let (a, b, c) = (1.5f32, -2.25f32, 0.75f32);
    let body = format!(
        "
        s_mov_b32 s10, {a:#x}
        s_mov_b32 s11, {b:#x}
        s_mov_b32 s12, {c:#x}
        s_add_f16 s20, s10, s11
        s_sub_f16 s21, s10, s11
        s_mul_f16 s22, s10, s11
        s_min_num_f16 s23, s10, s11
        s_max_num_f16 s24, s10, s11
        s_mov_b32 s25, s12
        s_fmac_f16 s25, s10, s11
        s_ceil_f16 s26, s11
        s_floor_f16 s27, s11
        s_trunc_f16 s28, s11
        s_rndne_f16 s29, s11
        s_minimum_f16 s30, s10, s11
        s_maximum_f16 s31, s10, s11
        ",
        a = h(a),
        b = h(b),
        c = h(c)
    );
    let outs = ["s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31"];
    let Some(r) = scalar(&body, &outs, &[]) else { return };
    let want = [a + b, a - b, a * b, b, a, a.mul_add(b, c), b.ceil(), b.floor(), b.trunc(), b.round_ties_even(), b, a];
    for (k, name) in outs.iter().enumerate() {
        assert_eq!(r[k] & 0xffff, h(want[k]), "{name}: want {}", want[k]);
    }
}

#[test]
fn gfx12_scalar_conversions_match_the_host() {
    let body = format!(
        "
        s_mov_b32 s10, -7
        s_cvt_f32_i32 s20, s10
        s_cvt_f32_u32 s21, s10
        s_mov_b32 s11, {m375:#x}
        s_cvt_i32_f32 s22, s11
        s_cvt_u32_f32 s23, s11
        s_mov_b32 s12, {big:#x}
        s_cvt_i32_f32 s24, s12
        s_mov_b32 s13, 0x7fc00000
        s_cvt_i32_f32 s25, s13
        s_cvt_f16_f32 s26, s11
        s_mov_b32 s14, {pair:#x}
        s_cvt_f32_f16 s27, s14
        s_cvt_hi_f32_f16 s28, s14
        s_mov_b32 s15, {third:#x}
        s_cvt_pk_rtz_f16_f32 s29, s15, s11
        ",
        m375 = (-3.75f32).to_bits(),
        big = 1e10f32.to_bits(),
        pair = h(0.625) | (h(-6.5) << 16),
        third = (1.0f32 / 3.0).to_bits(),
    );
    let outs = ["s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29"];
    let Some(r) = scalar(&body, &outs, &[]) else { return };
    // 1/3 rounded toward zero to f16: 0x3555 (0.33325195), the nearest-even would be the same here, so the
    // packed check is on -3.75 too (exact).
    let third_rtz = 0x3555u32;
    let want = [
        (-7.0f32).to_bits(),
        ((-7i32) as u32 as f32).to_bits(),
        (-3.75f32 as i32) as u32,
        -3.75f32 as u32,
        1e10f32 as i32 as u32,
        0,
        h(-3.75),
        0.625f32.to_bits(),
        (-6.5f32).to_bits(),
        third_rtz | (h(-3.75) << 16),
    ];
    for (k, name) in outs.iter().enumerate() {
        let got = if *name == "s26" { r[k] & 0xffff } else { r[k] };
        assert_eq!(got, want[k], "{name}");
    }
}

#[test]
fn gfx12_scalar_float_compares_set_scc() {
    let cases: &[(&str, f32, f32)] = &[
        ("lt", 1.0, 2.0),
        ("lt", 2.0, 1.0),
        ("eq", -0.0, 0.0),
        ("lg", 1.0, f32::NAN),
        ("neq", 1.0, f32::NAN),
        ("o", 1.0, f32::NAN),
        ("u", 1.0, f32::NAN),
        ("nge", 1.0, f32::NAN),
        ("ge", 3.0, 3.0),
        ("nlt", 1.0, 2.0),
    ];
    let mut body = String::new();
    let mut outs = Vec::new();
    for (k, (c, a, b)) in cases.iter().enumerate() {
        for half in [false, true] {
            let (x, y, ty) = if half { (h_nan(*a), h_nan(*b), "f16") } else { (a.to_bits(), b.to_bits(), "f32") };
            let dst = 20 + 2 * k + usize::from(half);
            body.push_str(&format!(
                "s_mov_b32 s10, {x:#x}\ns_mov_b32 s11, {y:#x}\ns_cmp_{c}_{ty} s10, s11\ns_cselect_b32 s{dst}, 1, 0\n"
            ));
            outs.push(format!("s{dst}"));
        }
    }
    let outs_ref: Vec<&str> = outs.iter().map(String::as_str).collect();
    let Some(r) = scalar(&body, &outs_ref, &[]) else { return };
    // The ISA's definitions: `lg` is ordered (false with a NaN), `neq` is not.
    #[allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]
    for (k, (c, a, b)) in cases.iter().enumerate() {
        let want = match *c {
            "lt" => a < b,
            "eq" => a == b,
            "lg" => a < b || a > b,
            "neq" => a != b,
            "o" => !a.is_nan() && !b.is_nan(),
            "u" => a.is_nan() || b.is_nan(),
            "nge" => !(a >= b),
            "ge" => a >= b,
            "nlt" => !(a < b),
            _ => unreachable!(),
        };
        for half in [0, 1] {
            assert_eq!(r[2 * k + half], u32::from(want), "s_cmp_{c}_{} {a} {b}", ["f32", "f16"][half]);
        }
    }
}

/// f16 bits of an exact value, or a quiet NaN.
fn h_nan(x: f32) -> u32 {
    if x.is_nan() {
        0x7e00
    } else {
        h(x)
    }
}

#[test]
fn gfx12_scalar_sub_dword_loads_zero_and_sign_extend() {
    let data = [0x80u8, 0xff, 0x34, 0x82, 0x7f, 0x01, 0, 0];
    let body = "
        s_load_u8 s20, s[6:7], 0x0
        s_load_i8 s21, s[6:7], 0x0
        s_load_u8 s22, s[6:7], 0x4
        s_load_u16 s23, s[6:7], 0x2
        s_load_i16 s24, s[6:7], 0x2
        s_load_i16 s25, s[6:7], 0x4
        s_wait_kmcnt 0
    ";
    let outs = ["s20", "s21", "s22", "s23", "s24", "s25"];
    let Some(r) = scalar(body, &outs, &data) else { return };
    let u16_at = |o: usize| u16::from_le_bytes([data[o], data[o + 1]]);
    let want = [
        u32::from(data[0]),
        data[0] as i8 as i32 as u32,
        u32::from(data[4]),
        u32::from(u16_at(2)),
        u16_at(2) as i16 as i32 as u32,
        u16_at(4) as i16 as i32 as u32,
    ];
    assert_eq!(r, want);
}

#[test]
fn gfx12_scalar_transcendentals_write_an_sgpr() {
    // Arguments whose results are exact, so the hardware's approximations and the host agree.
    let body = format!(
        "
        s_mov_b32 s10, {three:#x}
        s_mov_b32 s11, {eight:#x}
        s_mov_b32 s12, {four:#x}
        s_mov_b32 s13, {sixteen:#x}
        s_mov_b32 s14, {two25:#x}
        v_s_exp_f32 s20, s10
        v_s_log_f32 s21, s11
        v_s_rcp_f32 s22, s12
        v_s_rsq_f32 s23, s13
        v_s_sqrt_f32 s24, s14
        s_mov_b32 s15, {h3:#x}
        s_mov_b32 s16, {h16:#x}
        v_s_exp_f16 s25, s15
        v_s_rsq_f16 s26, s16
        v_s_sqrt_f16 s27, s16
        ",
        three = 3.0f32.to_bits(),
        eight = 8.0f32.to_bits(),
        four = 4.0f32.to_bits(),
        sixteen = 16.0f32.to_bits(),
        two25 = 2.25f32.to_bits(),
        h3 = h(3.0),
        h16 = h(16.0),
    );
    let outs = ["s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27"];
    let Some(r) = scalar(&body, &outs, &[]) else { return };
    let want = [
        3.0f32.exp2().to_bits(),
        8.0f32.log2().to_bits(),
        (1.0 / 4.0f32).to_bits(),
        (1.0 / 16.0f32.sqrt()).to_bits(),
        2.25f32.sqrt().to_bits(),
        h(3.0f32.exp2()),
        h(1.0 / 16.0f32.sqrt()),
        h(16.0f32.sqrt()),
    ];
    for (k, name) in outs.iter().enumerate() {
        let got = if k >= 5 { r[k] & 0xffff } else { r[k] };
        assert_eq!(got, want[k], "{name}");
    }
}

#[test]
fn s_bitreplicate_b64_b32_doubles_every_bit() {
    let src = 0x8000_0005u32;
    let body = format!("s_mov_b32 s10, {src:#x}\ns_bitreplicate_b64_b32 s[20:21], s10");
    let Some(r) = scalar(&body, &["s20", "s21"], &[]) else { return };
    let want: u64 = (0..32).filter(|b| src >> b & 1 != 0).map(|b| 3u64 << (2 * b)).sum();
    assert_eq!(u64::from(r[0]) | (u64::from(r[1]) << 32), want);
}
