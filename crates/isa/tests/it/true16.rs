//! RDNA3 16-bit VGPR halves ("true16"): gfx11 code built by clang 19 and later (Debian's ROCm 6.4 libraries)
//! names the high half of VGPR n in VOP1/VOP2/VOPC encodings with register field `128 + n` (LLVM's `vN.h`) and
//! in VOP3 with `op_sel`. The instructions are given as bytes, each encoding taken from `llvm-mc-21
//! -mcpu=gfx1100 -mattr=+real-true16 -show-encoding` (Debian package llvm-21; llvm-mc-19 cannot assemble
//! most of them) and written next to it; the expected values are computed on the host.

use crate::classes::run_body;

const LANES: usize = 32;

/// (LLVM text, its encoding).
const CODE: &[(&str, &[u8])] = &[
    ("v_mov_b16_e32 v1.h, v2.l", &[0x02, 0x39, 0x02, 0x7f]),
    ("v_mov_b16_e32 v4.l, v3.h", &[0x83, 0x39, 0x08, 0x7e]),
    ("v_cvt_f16_u16_e32 v6.h, v0.l", &[0x00, 0xa1, 0x0c, 0x7f]),
    ("v_cvt_f16_u16_e32 v7.l, v2.l", &[0x02, 0xa1, 0x0e, 0x7e]),
    ("v_add_f16_e32 v5.h, v6.h, v7.l", &[0x86, 0x0f, 0x0a, 0x65]),
    ("v_cvt_u16_f16_e32 v8.l, v5.h", &[0x85, 0xa5, 0x10, 0x7e]),
    ("v_cndmask_b16 v9.h, v2.h, v3.l, vcc_lo", &[0x09, 0x48, 0x5d, 0xd6, 0x02, 0x07, 0xaa, 0x01]),
    ("v_and_b16 v10.l, v2.h, v3.h op_sel:[1,1,0]", &[0x0a, 0x18, 0x62, 0xd7, 0x02, 0x07, 0x02, 0x00]),
    ("v_or_b16 v11.h, v2.l, v3.l op_sel:[0,0,1]", &[0x0b, 0x40, 0x63, 0xd7, 0x02, 0x07, 0x02, 0x00]),
    ("v_xor_b16 v12.l, v3.h, v2.l op_sel:[1,0,0]", &[0x0c, 0x08, 0x64, 0xd7, 0x03, 0x05, 0x02, 0x00]),
    ("v_not_b16_e32 v13.h, v2.l", &[0x02, 0xd3, 0x1a, 0x7f]),
    ("v_cmp_lt_u16_e32 vcc_lo, v2.h, v3.l", &[0x82, 0x07, 0x72, 0x7c]),
];

/// The destinations' values before the instructions (their other halves must survive).
const INIT: [(usize, u32); 10] = [
    (1, 0x1111_2222),
    (4, 0x3333_4444),
    (5, 0x5555_6666),
    (8, 0x7777_8888),
    (9, 0x9999_aaaa),
    (10, 0xbbbb_cccc),
    (11, 0xdddd_eeee),
    (12, 0x1234_5678),
    (13, 0x9abc_def0),
    (6, 0),
];

fn body() -> String {
    // v2 = (l << 16) | 3l, v3 = (5l << 16) | 7l; VCC = lanes below 13.
    let mut t = String::from("v_mul_u32_u24 v2, 0x10003, v0\nv_mul_u32_u24 v3, 0x50007, v0\n");
    for (r, v) in INIT {
        t.push_str(&format!("v_mov_b32 v{r}, {v:#x}\n"));
    }
    t.push_str("v_cmp_gt_u32 {vcc}, 13, v0\n");
    for (text, bytes) in CODE {
        let b: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        t.push_str(&format!(".byte {} // {text}\n", b.join(",")));
    }
    t.push_str("v_cndmask_b32_e64 v14, 0, 1, {vcc}\n");
    t
}

#[test]
fn gfx11_true16_halves_in_vop1_vop2_vopc_and_b16_ops_match_the_host() {
    let Some(out) = run_body("gfx1100", LANES as u32, &body(), 14, &[]) else { return };
    for l in 0..LANES as u32 {
        let (a_lo, a_hi, b_lo, b_hi) = (3 * l, l, 7 * l, 5 * l);
        let expect: [(usize, u32, u32); 11] = [
            (1, 0xffff_ffff, (a_lo << 16) | 0x2222),
            (4, 0xffff_ffff, 0x3333_0000 | b_hi),
            (5, 0xffff, 0x6666),
            // f16(l) + f16(3l) = 4l, exact for these small integers, converted back.
            (8, 0xffff_ffff, 0x7777_0000 | (4 * l)),
            (9, 0xffff_ffff, ((if l < 13 { b_lo } else { a_hi }) << 16) | 0xaaaa),
            (10, 0xffff_ffff, 0xbbbb_0000 | (a_hi & b_hi)),
            (11, 0xffff_ffff, ((a_lo | b_lo) << 16) | 0xeeee),
            (12, 0xffff_ffff, 0x1234_0000 | (b_hi ^ a_lo)),
            (13, 0xffff_ffff, ((!a_lo & 0xffff) << 16) | 0xdef0),
            (14, 0xffff_ffff, u32::from(a_hi < b_lo)),
            (2, 0xffff_ffff, (a_hi << 16) | a_lo),
        ];
        for (r, mask, want) in expect {
            let got = out[r - 1][l as usize] & mask;
            assert_eq!(got, want, "v{r} lane {l}: {got:#010x}, host {want:#010x}");
        }
    }
}

/// 16-bit three-source and widening operations, with halves chosen by `op_sel` (VOP3) or `.h` (VOP1).
const CODE3: &[(&str, &[u8])] = &[
    ("v_max3_u16 v15.l, v2.h, v3.l, v16.l", &[0x0f, 0x08, 0x4e, 0xd6, 0x02, 0x07, 0x42, 0x04]),
    ("v_min3_i16 v17.h, v2.l, v3.h, v16.h", &[0x11, 0x70, 0x4a, 0xd6, 0x02, 0x07, 0x42, 0x04]),
    ("v_med3_u16 v18.l, v2.l, v3.l, v16.l", &[0x12, 0x00, 0x51, 0xd6, 0x02, 0x07, 0x42, 0x04]),
    ("v_med3_i16 v19.l, v2.h, v3.h, v16.h", &[0x13, 0x38, 0x50, 0xd6, 0x02, 0x07, 0x42, 0x04]),
    ("v_mad_u16 v20.l, v2.l, v3.h, v16.l", &[0x14, 0x10, 0x41, 0xd6, 0x02, 0x07, 0x42, 0x04]),
    ("v_mad_u32_u16 v21, v2.h, v3.l, v16", &[0x15, 0x08, 0x59, 0xd6, 0x02, 0x07, 0x42, 0x04]),
    ("v_mad_i32_i16 v22, v2.l, v16.h, v3", &[0x16, 0x10, 0x5a, 0xd6, 0x02, 0x21, 0x0e, 0x04]),
    ("v_cvt_i32_i16_e32 v23, v16.h", &[0x90, 0xd5, 0x2e, 0x7e]),
    ("v_cvt_u32_u16_e32 v24, v2.h", &[0x82, 0xd7, 0x30, 0x7e]),
    ("v_max3_i16 v25.l, v2.l, v16.h, v3.l", &[0x19, 0x10, 0x4d, 0xd6, 0x02, 0x21, 0x0e, 0x04]),
    ("v_min3_u16 v26.l, v2.l, v16.l, v3.h", &[0x1a, 0x20, 0x4b, 0xd6, 0x02, 0x21, 0x0e, 0x04]),
];

/// The signed source `v16` of lane `l`: low half `5l - 40`, high half `20 - 3l` (both i16).
fn c16(l: u32) -> (i16, i16) {
    (5 * l as i16 - 40, 20 - 3 * l as i16)
}

fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    let mut v = [a, b, c];
    v.sort();
    v[1]
}

#[test]
fn gfx11_16_bit_min3_max3_med3_mad_and_widening_converts_match_the_host() {
    let data: Vec<u8> = (0..LANES as u32)
        .flat_map(|l| {
            let (lo, hi) = c16(l);
            ((u32::from(hi as u16) << 16) | u32::from(lo as u16)).to_le_bytes()
        })
        .collect();
    let mut t = String::from(
        "v_mul_u32_u24 v2, 0x10003, v0\nv_mul_u32_u24 v3, 0x50007, v0\n\
         global_load_dword v16, v100, s[6:7]\ns_waitcnt vmcnt(0)\n",
    );
    for (text, bytes) in CODE3 {
        let b: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        t.push_str(&format!(".byte {} // {text}\n", b.join(",")));
    }
    let Some(out) = run_body("gfx1100", LANES as u32, &t, 26, &data) else { return };
    for l in 0..LANES as u32 {
        let (a_lo, a_hi, b_lo, b_hi) = (3 * l as u16, l as u16, 7 * l as u16, 5 * l as u16);
        let (c_lo, c_hi) = c16(l);
        let v16 = (u32::from(c_hi as u16) << 16) | u32::from(c_lo as u16);
        let v3 = (u32::from(b_hi) << 16) | u32::from(b_lo);
        let s = |x: u16| x as i16;
        let lo = |r: usize| out[r - 1][l as usize] & 0xffff;
        let hi = |r: usize| out[r - 1][l as usize] >> 16;
        let full = |r: usize| out[r - 1][l as usize];
        let expect: [(&str, u32, u32); 11] = [
            ("v_max3_u16", lo(15), u32::from(a_hi.max(b_lo).max(c_lo as u16))),
            ("v_min3_i16", hi(17), u32::from(s(a_lo).min(s(b_hi)).min(c_hi) as u16)),
            ("v_med3_u16", lo(18), u32::from(med3(a_lo, b_lo, c_lo as u16))),
            ("v_med3_i16", lo(19), u32::from(med3(s(a_hi), s(b_hi), c_hi) as u16)),
            ("v_mad_u16", lo(20), u32::from(a_lo.wrapping_mul(b_hi).wrapping_add(c_lo as u16))),
            ("v_mad_u32_u16", full(21), u32::from(a_hi) * u32::from(b_lo) + v16),
            ("v_mad_i32_i16", full(22), ((i32::from(s(a_lo)) * i32::from(c_hi)) as u32).wrapping_add(v3)),
            ("v_cvt_i32_i16", full(23), i32::from(c_hi) as u32),
            ("v_cvt_u32_u16", full(24), u32::from(a_hi)),
            ("v_max3_i16", lo(25), u32::from(s(a_lo).max(c_hi).max(s(b_lo)) as u16)),
            ("v_min3_u16", lo(26), u32::from(a_lo.min(c_lo as u16).min(b_hi))),
        ];
        for (name, got, want) in expect {
            assert_eq!(got, want, "{name} lane {l}: {got:#x}, host {want:#x}");
        }
    }
}

/// Signed 16-bit compares, min/max, shifts and selects on VGPR halves: the forms rocPRIM's merge sort of
/// `signed char` keys uses on gfx1100 (Debian's `test_device_merge_sort`).
const CODE_SIGNED: &[(&str, &[u8])] = &[
    ("v_cmp_lt_i16_e64 s5, v2.h, v3.l op_sel:[1,0,0]", &[0x05, 0x08, 0x31, 0xd4, 0x02, 0x07, 0x02, 0x00]),
    ("v_cmp_ge_i16_e64 s6, v2.l, v3.h op_sel:[0,1,0]", &[0x06, 0x10, 0x36, 0xd4, 0x02, 0x07, 0x02, 0x00]),
    ("v_cmp_gt_i16_e64 s7, v2.h, v3.h op_sel:[1,1,0]", &[0x07, 0x18, 0x34, 0xd4, 0x02, 0x07, 0x02, 0x00]),
    ("v_cmp_lt_i16_e64 vcc_hi, v2.l, v3.l", &[0x6b, 0x00, 0x31, 0xd4, 0x02, 0x07, 0x02, 0x00]),
    ("v_min_i16 v4.h, v2.h, v3.l op_sel:[1,0,1]", &[0x04, 0x48, 0x0c, 0xd7, 0x02, 0x07, 0x02, 0x00]),
    ("v_max_i16 v5.l, v2.l, v3.h op_sel:[0,1,0]", &[0x05, 0x10, 0x0a, 0xd7, 0x02, 0x07, 0x02, 0x00]),
    ("v_max_i16 v6.h, v2.l, v3.l op_sel:[0,0,1]", &[0x06, 0x40, 0x0a, 0xd7, 0x02, 0x07, 0x02, 0x00]),
    ("v_lshlrev_b16 v7.h, 8, v2.l op_sel:[0,0,1]", &[0x07, 0x40, 0x38, 0xd7, 0x88, 0x04, 0x02, 0x00]),
    ("v_lshlrev_b16 v8.l, 8, v2.h op_sel:[0,1,0]", &[0x08, 0x10, 0x38, 0xd7, 0x88, 0x04, 0x02, 0x00]),
    ("v_ashrrev_i16 v9.l, 8, v2.h op_sel:[0,1,0]", &[0x09, 0x10, 0x3a, 0xd7, 0x88, 0x04, 0x02, 0x00]),
    ("v_cndmask_b16 v10.l, v2.h, v3.l, s5", &[0x0a, 0x08, 0x5d, 0xd6, 0x02, 0x07, 0x16, 0x00]),
    ("v_cndmask_b16 v11.h, v2.l, v3.h, s5", &[0x0b, 0x50, 0x5d, 0xd6, 0x02, 0x07, 0x16, 0x00]),
    (
        "v_and_b16 v12.l, 0xff00, v2.h op_sel:[0,1,0]",
        &[0x0c, 0x10, 0x62, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x00, 0xff, 0x00, 0x00],
    ),
    ("v_perm_b32 v13, v2, v3, 0x7050604", &[0x0d, 0x00, 0x44, 0xd6, 0x02, 0x07, 0xfe, 0x03, 0x04, 0x06, 0x05, 0x07]),
];

/// Lane `l`'s sources: scrambled halves of both signs.
fn signed_sources(l: u32) -> (u32, u32) {
    (l.wrapping_mul(0x0b5f_3c17) ^ 0x8421_1248, l.wrapping_mul(0x7a31_c4e5) ^ 0x80f0_0f80)
}

#[test]
fn gfx11_signed_16_bit_compares_min_max_shifts_and_selects_on_halves_match_the_host() {
    let data: Vec<u8> = (0..LANES as u32)
        .flat_map(|l| {
            let (a, b) = signed_sources(l);
            [a.to_le_bytes(), b.to_le_bytes()].concat()
        })
        .collect();
    // v2, v3 from the data (8 bytes per lane); v4..v12 start with known values.
    let mut t =
        String::from("v_lshlrev_b32 v101, 3, v0\nglobal_load_dwordx2 v[2:3], v101, s[6:7]\ns_waitcnt vmcnt(0)\n");
    for r in 4..=12 {
        t.push_str(&format!("v_mov_b32 v{r}, {:#x}\n", 0x1111_1111u32 * r));
    }
    for (text, bytes) in CODE_SIGNED {
        let b: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        t.push_str(&format!(".byte {} // {text}\n", b.join(",")));
    }
    for (r, s) in [(1, "s5"), (14, "s6"), (15, "s7"), (16, "vcc_hi")] {
        t.push_str(&format!("v_cndmask_b32_e64 v{r}, 0, 1, {s}\n"));
    }
    // VOPC e32 with halves in the register fields (VCC), and v_cmpx (EXEC; saved, then all lanes again).
    for (r, text, bytes) in [
        (17, "v_cmp_lt_i16_e32 vcc_lo, v2.h, v3.l", [0x82, 0x07, 0x62, 0x7c]),
        (18, "v_cmp_ge_i16_e32 vcc_lo, v2.l, v3.h", [0x02, 0x07, 0x6d, 0x7c]),
        (19, "v_cmpx_lt_i16_e32 v2.h, v3.l", [0x82, 0x07, 0x62, 0x7d]),
        (20, "v_cmpx_lt_i16_e32 v2.l, v3.h", [0x02, 0x07, 0x63, 0x7d]),
    ] {
        let b: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        t.push_str(&format!(".byte {} // {text}\n", b.join(",")));
        t.push_str("s_mov_b32 s8, exec_lo\ns_mov_b32 s9, vcc_lo\ns_mov_b32 exec_lo, -1\n");
        t.push_str(&format!("v_cndmask_b32_e64 v{r}, 0, 1, {}\n", if r < 19 { "s9" } else { "s8" }));
    }
    let Some(out) = run_body("gfx1100", LANES as u32, &t, 20, &data) else { return };
    for l in 0..LANES as u32 {
        let (a, b) = signed_sources(l);
        let (al, ah, bl, bh) = (a as u16, (a >> 16) as u16, b as u16, (b >> 16) as u16);
        let s = |x: u16| x as i16;
        let keep_hi = |r: u32, lo: u16| (0x1111_1111 * r) & 0xffff_0000 | u32::from(lo);
        let keep_lo = |r: u32, hi: u16| (0x1111_1111 * r) & 0xffff | (u32::from(hi) << 16);
        let s5 = s(ah) < s(bl);
        let perm = |sel: u32| {
            let c = (u64::from(a) << 32) | u64::from(b);
            (0..4).map(|k| (((c >> (8 * ((sel >> (8 * k)) & 0xff))) & 0xff) as u32) << (8 * k)).sum::<u32>()
        };
        let expect: [(&str, usize, u32); 19] = [
            ("v_cmp_lt_i16_e32 .h,.l", 17, u32::from(s5)),
            ("v_cmp_ge_i16_e32 .l,.h", 18, u32::from(s(al) >= s(bh))),
            ("v_cmpx_lt_i16_e32 .h,.l", 19, u32::from(s5)),
            ("v_cmpx_lt_i16_e32 .l,.h", 20, u32::from(s(al) < s(bh))),
            ("v_cmp_lt_i16 .h,.l", 1, u32::from(s5)),
            ("v_cmp_ge_i16 .l,.h", 14, u32::from(s(al) >= s(bh))),
            ("v_cmp_gt_i16 .h,.h", 15, u32::from(s(ah) > s(bh))),
            ("v_cmp_lt_i16 -> vcc_hi", 16, u32::from(s(al) < s(bl))),
            ("v_min_i16", 4, keep_lo(4, s(ah).min(s(bl)) as u16)),
            ("v_max_i16 .l", 5, keep_hi(5, s(al).max(s(bh)) as u16)),
            ("v_max_i16 .h", 6, keep_lo(6, s(al).max(s(bl)) as u16)),
            ("v_lshlrev_b16 .h", 7, keep_lo(7, al << 8)),
            ("v_lshlrev_b16 .l", 8, keep_hi(8, ah << 8)),
            ("v_ashrrev_i16", 9, keep_hi(9, (s(ah) >> 8) as u16)),
            ("v_cndmask_b16 .l", 10, keep_hi(10, if s5 { bl } else { ah })),
            ("v_cndmask_b16 .h", 11, keep_lo(11, if s5 { bh } else { al })),
            ("v_and_b16", 12, keep_hi(12, 0xff00 & ah)),
            ("v_perm_b32", 13, perm(0x0705_0604)),
            ("v2", 2, a),
        ];
        for (name, r, want) in expect {
            let got = out[r - 1][l as usize];
            assert_eq!(got, want, "{name} (v{r}) lane {l}: {got:#010x}, host {want:#010x}");
        }
    }
}
