//! The VALU's lane kernels (the x86-64 baseline code and, on a host with AVX2 + FMA, the code compiled for
//! them) give the same bits: f32 fused multiply-adds (VOP3, VOP2 `fmac`, gfx10's `fmaak`/`fmamk` with a
//! literal, a negated source, a partial EXEC mask) and plain adds and multiplies, on wave64 (gfx90a) and
//! wave32 (gfx1030), each lane checked against the host's IEEE arithmetic (`f32::mul_add`, a single
//! rounding) and both paths against each other bit for bit. The inputs mix random bit patterns
//! (infinities, NaNs, denormals included), random values of similar magnitude (rounding in play) and
//! products that land exactly on a midpoint between two f32, nudged by a tiny addend, where computing the
//! product and sum in f64 and rounding that to f32 rounds twice and goes wrong.

use rocprof_isa::LaneKernels;

use crate::classes::run_body_on;

/// Lanes whose a*b is `1 + 2^-11 + 2^-24` (an f32 midpoint) and c is 0 or a tiny value of either sign,
/// then the same with the signs of the operands flipped.
fn midpoints() -> Vec<[f32; 3]> {
    let x = 1.0 + f32::powi(2.0, -12);
    let tiny = f32::powi(2.0, -80);
    let mut v = Vec::new();
    for c in [0.0, tiny, -tiny, f32::MIN_POSITIVE, -f32::MIN_POSITIVE, f32::powi(2.0, -30)] {
        v.push([x, x, c]);
        v.push([-x, x, -c]);
        v.push([x, -x, c]);
    }
    v
}

/// `n` triples from a xorshift generator: raw bit patterns for one in four, otherwise similar magnitudes.
fn random(seed: u64, n: usize) -> Vec<[f32; 3]> {
    let mut s = seed;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let r = next();
            if r % 4 == 0 {
                [0, 1, 2].map(|_| f32::from_bits(next() as u32))
            } else {
                // Sign and fraction random, exponents within a few binades of 1.
                [0, 1, 2].map(|_| {
                    let b = next();
                    f32::from_bits((b as u32 & 0x807f_ffff) | ((124 + (b >> 40) % 7) as u32) << 23)
                })
            }
        })
        .collect()
}

/// One result of `body` as the host computes it for lane inputs `[a, b, c]`.
type Oracle = fn([f32; 3]) -> f32;

/// Same bits, or both NaN (the ISA returns a quiet NaN; which payload is not checked here).
fn same(got: u32, want: f32) -> bool {
    got == want.to_bits() || (f32::from_bits(got).is_nan() && want.is_nan())
}

fn check(mcpu: &str, lanes: usize, body: &str, oracles: &[(&str, Oracle)], cases: &[[f32; 3]]) {
    for (k, chunk) in cases.chunks(lanes).enumerate() {
        let mut data = vec![0u8; 768];
        for (l, t) in chunk.iter().enumerate() {
            for j in 0..3 {
                data[256 * j + 4 * l..256 * j + 4 * l + 4].copy_from_slice(&t[j].to_bits().to_le_bytes());
            }
        }
        let Some(base) = run_body_on(mcpu, mcpu, lanes as u32, body, oracles.len(), &data, LaneKernels::Baseline)
        else {
            return;
        };
        let auto = run_body_on(mcpu, mcpu, lanes as u32, body, oracles.len(), &data, LaneKernels::Auto).unwrap();
        assert_eq!(base, auto, "{mcpu} run {k}: the baseline and the host's fastest lane kernels differ");
        for (r, (name, f)) in oracles.iter().enumerate() {
            for (l, t) in chunk.iter().enumerate() {
                let want = f(*t);
                assert!(
                    same(base[r][l], want),
                    "{mcpu} run {k} {name} lane {l}: {:?} gave {:#010x}, the host {:#010x}",
                    t,
                    base[r][l],
                    want.to_bits()
                );
            }
        }
    }
}

/// Loads a, b, c (lane `l`'s at data + 4l, + 256, + 512) into v10..v12.
const LOAD: &str = "global_load_dword v10, v100, s[6:7]\nglobal_load_dword v11, v100, s[6:7] offset:256\n\
    global_load_dword v12, v100, s[6:7] offset:512\ns_waitcnt vmcnt(0)\n";

const COMMON: &str = "v_fma_f32 v1, v10, v11, v12\nv_mov_b32 v2, v12\nv_fmac_f32 v2, v10, v11\n\
    v_add_f32 v3, v10, v12\nv_mul_f32 v4, v10, v11\nv_fma_f32 v5, -v10, v11, v12\n";

/// The destination as a source: v10 = fma(v10, v11, v12), copied to v6 (last: it overwrites a).
const IN_PLACE: &str = "v_fma_f32 v10, v10, v11, v12\nv_mov_b32 v6, v10\n";

fn cases() -> Vec<[f32; 3]> {
    let mut c = midpoints();
    c.extend(random(0x9e37_79b9_7f4a_7c15, 64 * 4 - c.len()));
    c
}

const ORACLES: [(&str, Oracle); 6] = [
    ("v_fma_f32", |[a, b, c]| a.mul_add(b, c)),
    ("v_fmac_f32", |[a, b, c]| a.mul_add(b, c)),
    ("v_add_f32", |[a, _, c]| a + c),
    ("v_mul_f32", |[a, b, _]| a * b),
    ("v_fma_f32 -a", |[a, b, c]| (-a).mul_add(b, c)),
    ("v_fma_f32 in place", |[a, b, c]| a.mul_add(b, c)),
];

/// Half the lanes under EXEC: v7 = fma(a, b, c) on even lanes, 0 elsewhere.
fn masked([a, b, c]: [f32; 3], lane_even: bool) -> f32 {
    if lane_even {
        a.mul_add(b, c)
    } else {
        0.0
    }
}

#[test]
fn f32_fma_lane_kernels_match_the_host_bit_for_bit_wave64() {
    let body = format!(
        "{LOAD}{COMMON}v_mov_b32 v7, 0\ns_mov_b32 exec_lo, 0x55555555\ns_mov_b32 exec_hi, 0x55555555\n\
         v_fma_f32 v7, v10, v11, v12\ns_mov_b64 exec, -1\n{IN_PLACE}"
    );
    let cases = cases();
    check("gfx90a", 64, &body, &ORACLES, &cases);
    // The masked result: checked here, lane parity known.
    for (k, chunk) in cases.chunks(64).enumerate() {
        let mut data = vec![0u8; 768];
        for (l, t) in chunk.iter().enumerate() {
            for j in 0..3 {
                data[256 * j + 4 * l..256 * j + 4 * l + 4].copy_from_slice(&t[j].to_bits().to_le_bytes());
            }
        }
        for kernels in [LaneKernels::Baseline, LaneKernels::Auto] {
            let Some(out) = run_body_on("gfx90a", "gfx90a", 64, &body, 7, &data, kernels) else { return };
            for (l, t) in chunk.iter().enumerate() {
                let want = masked(*t, l % 2 == 0);
                assert!(same(out[6][l], want), "run {k} {kernels:?} lane {l}: {:#010x}", out[6][l]);
            }
        }
    }
}

#[test]
fn f32_fma_lane_kernels_match_the_host_bit_for_bit_wave32() {
    // gfx10's VOP2 forms with a literal: fmaak = a * b + K, fmamk = a * K + b.
    let body =
        format!("{LOAD}{COMMON}v_fmaak_f32 v7, v10, v11, 0x3f800001\nv_fmamk_f32 v8, v11, 0xbf7fffff, v12\n{IN_PLACE}");
    let mut oracles = ORACLES.to_vec();
    oracles.push(("v_fmaak_f32", |[a, b, _]| a.mul_add(b, f32::from_bits(0x3f80_0001))));
    oracles.push(("v_fmamk_f32", |[_, b, c]| b.mul_add(f32::from_bits(0xbf7f_ffff), c)));
    check("gfx1030", 32, &body, &oracles, &cases());
}
