//! WMMA beyond `wmma_layouts.rs`: gfx12's fp8/bf8 forms (OCP formats), the 4-bit integer forms (gfx11
//! `v_wmma_i32_16x16x16_iu4`, gfx12 also `_16x16x32_iu4`) with their signedness bits, the NEG/NEG_HI
//! modifiers of the 16-bit float forms, each against a host GEMM; and the pass-count timing.
//!
//! Operands are placed by the equations AMD's matrix instruction calculator prints
//! (`matrix_calculator.py -a RDNA3|RDNA4 -i <inst> -d`, "matrix element to register mapping", wave32 and
//! wave64), transcribed per case below; the NEG rules are the calculator README's ("Example of Using the
//! NEG Modifier"): NEG[0]/NEG_HI[0] negate the A values in bits 15:0/31:16 of their register, [1] the
//! same for B, NEG[2] negates C and NEG_HI[2] takes its absolute value first. Assembled with `llvm-mc-19`.

use rocprof_isa::{run, Costs, KernelDescriptor, RunOptions, Target, CLASS_COUNT};

use crate::classes::{assemble_with, gfx90a_dispatch, run_body};
use crate::smfmac::small_float;

/// (register, lane, bit offset) of `A[i][k]` (or `B[k][j]` with `j` for `i`).
type InAt = fn(usize, usize) -> (usize, usize, usize);
/// (register, lane) of `C`/`D[i][j]` (32-bit).
type OutAt = fn(usize, usize) -> (usize, usize);

#[derive(Clone, Copy, PartialEq, Debug)]
enum Ty {
    F16,
    /// OCP E4M3 (bias 7) and E5M2 (bias 15), gfx12's formats.
    Fp8,
    Bf8,
    /// 4-bit integers, signed or not.
    I4(bool),
}

impl Ty {
    fn bits(self) -> usize {
        match self {
            Ty::F16 => 16,
            Ty::Fp8 | Ty::Bf8 => 8,
            Ty::I4(_) => 4,
        }
    }
    /// The bits of the small integer `v`.
    fn enc(self, v: i64) -> u32 {
        match self {
            Ty::F16 => small_float(v, 5, 10, 15),
            Ty::Fp8 => small_float(v, 4, 3, 7),
            Ty::Bf8 => small_float(v, 5, 2, 15),
            Ty::I4(_) => (v as u32) & 0xf,
        }
    }
    /// A random value's range: (lowest, count).
    fn range(self) -> (i64, u32) {
        match self {
            Ty::I4(true) => (-8, 16),
            Ty::I4(false) => (0, 16),
            _ => (-8, 17),
        }
    }
}

struct Case {
    mcpu: &'static str,
    lanes: u32,
    name: &'static str,
    k: usize,
    a: Ty,
    b: Ty,
    in_regs: usize,
    acc_regs: usize,
    /// Lanes that hold a copy of each A/B element (gfx11 duplicates across lane groups).
    copies: &'static [usize],
    in_at: InAt,
    out_at: OutAt,
    /// `neg_lo` and `neg_hi` bits.
    neg: u8,
    neg_hi: u8,
}

fn random(rows: usize, cols: usize, seed: u32, (lo, span): (i64, u32)) -> Vec<Vec<i64>> {
    let mut x = seed;
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    lo + i64::from((x >> 16) % span)
                })
                .collect()
        })
        .collect()
}

fn check(cs: &Case, seed: u32) {
    let (ir, acc, k) = (cs.in_regs, cs.acc_regs, cs.k);
    let int = matches!(cs.a, Ty::I4(_));
    let a = random(16, k, seed, cs.a.range());
    let b = random(k, 16, seed + 1, cs.b.range());
    let c = random(16, 16, seed + 2, (-50, 101));
    let mut data = vec![0u8; 0x100 * (2 * ir + acc)];
    let mut put = |region: usize, lane: usize, bit: usize, bits: usize, v: u32| {
        let o = 0x100 * region + 4 * lane;
        let old = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
        let mask = if bits == 32 { u32::MAX } else { ((1u32 << bits) - 1) << bit };
        data[o..o + 4].copy_from_slice(&((old & !mask) | ((v << bit) & mask)).to_le_bytes());
    };
    for i in 0..16 {
        for kk in 0..k {
            let (r, lane, bit) = (cs.in_at)(i, kk);
            for &off in cs.copies {
                put(r, lane + off, bit, cs.a.bits(), cs.a.enc(a[i][kk]));
                put(ir + r, lane + off, bit, cs.b.bits(), cs.b.enc(b[kk][i]));
            }
        }
    }
    for i in 0..16 {
        for j in 0..16 {
            let (r, lane) = (cs.out_at)(i, j);
            put(2 * ir + r, lane, 0, 32, if int { c[i][j] as i32 as u32 } else { (c[i][j] as f32).to_bits() });
        }
    }
    let mut body = String::new();
    let loads = (0..ir)
        .map(|r| (r, 10 + r))
        .chain((0..ir).map(|r| (ir + r, 20 + r)))
        .chain((0..acc).map(|r| (2 * ir + r, 30 + r)));
    for (region, reg) in loads {
        body.push_str(&format!(
            "v_add_nc_u32 v101, {:#x}, v100\nglobal_load_b32 v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    let range = |base: usize, n: usize| if n == 1 { format!("v{base}") } else { format!("v[{base}:{}]", base + n - 1) };
    let bits3 = |m: u8| format!("[{},{},{}]", m & 1, (m >> 1) & 1, (m >> 2) & 1);
    let mut mods = String::new();
    if cs.neg != 0 {
        mods.push_str(&format!(" neg_lo:{}", bits3(cs.neg)));
    }
    if cs.neg_hi != 0 {
        mods.push_str(&format!(" neg_hi:{}", bits3(cs.neg_hi)));
    }
    let wait = if cs.mcpu.starts_with("gfx12") { "s_wait_loadcnt 0" } else { "s_waitcnt vmcnt(0)" };
    body.push_str(&format!(
        "{wait}\n{} {}, {}, {}, {}{mods}\n",
        cs.name,
        range(40, acc),
        range(10, ir),
        range(20, ir),
        range(30, acc)
    ));
    for r in 0..acc {
        body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
    }
    let Some(out) = run_body(cs.mcpu, cs.lanes, &body, acc, &data) else { return };
    // The sign NEG/NEG_HI bit `n` gives a 16-bit float operand at bit offset `bit`.
    let sign = |n: u8, bit: usize| {
        let m = if bit == 16 { cs.neg_hi } else { cs.neg };
        if !int && m >> n & 1 != 0 {
            -1
        } else {
            1
        }
    };
    for i in 0..16 {
        for j in 0..16 {
            let mut cv = c[i][j];
            if !int && cs.neg_hi & 4 != 0 {
                cv = cv.abs();
            }
            if !int && cs.neg & 4 != 0 {
                cv = -cv;
            }
            let want = cv
                + (0..k)
                    .map(|kk| {
                        let (_, _, bit) = (cs.in_at)(i, kk);
                        let (_, _, bbit) = (cs.in_at)(j, kk);
                        sign(0, bit) * a[i][kk] * sign(1, bbit) * b[kk][j]
                    })
                    .sum::<i64>();
            let (r, lane) = (cs.out_at)(i, j);
            let got = if int { i64::from(out[r][lane] as i32) } else { f32::from_bits(out[r][lane]) as i64 };
            assert_eq!(got, want, "{} {} wave{} {:?}: D[{i}][{j}]", cs.mcpu, cs.name, cs.lanes, cs.a);
        }
    }
}

// RDNA4 D of the 32-bit outputs: wave32 register `i%8`, lane `16*floor(i/8) + j`; wave64 register `i%4`,
// lane `32*(floor(i/4)%2) + 16*floor(i/8) + j`.
fn gfx12_d32(i: usize, j: usize) -> (usize, usize) {
    (i % 8, 16 * (i / 8) + j)
}
fn gfx12_d64(i: usize, j: usize) -> (usize, usize) {
    (i % 4, 32 * ((i / 4) % 2) + 16 * (i / 8) + j)
}

#[test]
fn gfx12_wmma_fp8_and_bf8_forms_match_a_host_gemm_in_ocp_formats() {
    let forms = [
        ("v_wmma_f32_16x16x16_fp8_fp8", Ty::Fp8, Ty::Fp8),
        ("v_wmma_f32_16x16x16_fp8_bf8", Ty::Fp8, Ty::Bf8),
        ("v_wmma_f32_16x16x16_bf8_fp8", Ty::Bf8, Ty::Fp8),
        ("v_wmma_f32_16x16x16_bf8_bf8", Ty::Bf8, Ty::Bf8),
    ];
    for (n, (name, a, b)) in forms.into_iter().enumerate() {
        // wave32: A[i][k] in register `floor(k/4)%2`, bits `8*(k%4)`, lane `16*floor(k/8) + i`.
        let w32 = Case {
            mcpu: "gfx1201",
            lanes: 32,
            name,
            k: 16,
            a,
            b,
            in_regs: 2,
            acc_regs: 8,
            copies: &[0],
            in_at: |i, k| ((k / 4) % 2, 16 * (k / 8) + i, 8 * (k % 4)),
            out_at: gfx12_d32,
            neg: 0,
            neg_hi: 0,
        };
        check(&w32, 10 + n as u32);
        // wave64: A[i][k] in register 0, bits `8*(k%4)`, lane `32*(floor(k/4)%2) + 16*(floor(k/8)%2) + i`.
        check(
            &Case {
                lanes: 64,
                in_regs: 1,
                acc_regs: 4,
                in_at: |i, k| (0, 32 * ((k / 4) % 2) + 16 * ((k / 8) % 2) + i, 8 * (k % 4)),
                out_at: gfx12_d64,
                ..w32
            },
            20 + n as u32,
        );
    }
}

#[test]
fn wmma_iu4_multiplies_signed_or_unsigned_nibbles_as_neg_lo_says() {
    for (s, (a_signed, b_signed)) in [(true, true), (false, false), (false, true)].into_iter().enumerate() {
        let (a, b) = (Ty::I4(a_signed), Ty::I4(b_signed));
        let neg = u8::from(a_signed) | (u8::from(b_signed) << 1);
        let seed = 100 * (s as u32 + 1);
        // RDNA3 wave32: A[i][k] in register `floor(k/8)`, bits `4*(k%8)`, lanes i and i+16; D[i][j] in
        // register `floor(i/2)`, lane `(16*i)%32 + j`.
        let gfx11 = Case {
            mcpu: "gfx1100",
            lanes: 32,
            name: "v_wmma_i32_16x16x16_iu4",
            k: 16,
            a,
            b,
            in_regs: 2,
            acc_regs: 8,
            copies: &[0, 16],
            in_at: |i, k| (k / 8, i, 4 * (k % 8)),
            out_at: |i, j| (i / 2, (16 * i) % 32 + j),
            neg,
            neg_hi: 0,
        };
        check(&gfx11, seed);
        // RDNA3 wave64: the same registers, lanes i, i+16, i+32, i+48; D[i][j] register `floor(i/4)`, lane
        // `(16*i)%64 + j`.
        check(
            &Case {
                lanes: 64,
                acc_regs: 4,
                copies: &[0, 16, 32, 48],
                out_at: |i, j| (i / 4, (16 * i) % 64 + j),
                ..gfx11
            },
            seed + 1,
        );
        // RDNA4 16x16x16, wave32 and wave64 alike: A[i][k] in register 0, bits `4*(k%8)`, lane
        // `16*floor(k/8) + i`.
        let k16 = Case {
            mcpu: "gfx1201",
            in_regs: 1,
            copies: &[0],
            in_at: |i, k| (0, 16 * (k / 8) + i, 4 * (k % 8)),
            out_at: gfx12_d32,
            ..gfx11
        };
        check(&k16, seed + 2);
        check(&Case { lanes: 64, acc_regs: 4, out_at: gfx12_d64, ..k16 }, seed + 3);
        // RDNA4 16x16x32: wave32 register `floor(k/8)%2`, lane `16*floor(k/16) + i`; wave64 register 0,
        // lane `32*(floor(k/8)%2) + 16*(floor(k/16)%2) + i`; bits `4*(k%8)`.
        let k32 = Case {
            name: "v_wmma_i32_16x16x32_iu4",
            k: 32,
            in_regs: 2,
            in_at: |i, k| ((k / 8) % 2, 16 * (k / 16) + i, 4 * (k % 8)),
            ..k16
        };
        check(&k32, seed + 4);
        check(
            &Case {
                lanes: 64,
                in_regs: 1,
                acc_regs: 4,
                in_at: |i, k| (0, 32 * ((k / 8) % 2) + 16 * ((k / 16) % 2) + i, 4 * (k % 8)),
                out_at: gfx12_d64,
                ..k32
            },
            seed + 5,
        );
    }
}

#[test]
fn wmma_f16_neg_and_neg_hi_negate_halves_of_a_and_b_and_abs_negate_c() {
    for (neg, neg_hi) in [(1, 0), (2, 2), (4, 0), (0, 4), (5, 6), (7, 7)] {
        // RDNA3 wave32: A[i][k] in register `floor(k/2)`, bits `16*(k%2)`, lanes i and i+16.
        check(
            &Case {
                mcpu: "gfx1100",
                lanes: 32,
                name: "v_wmma_f32_16x16x16_f16",
                k: 16,
                a: Ty::F16,
                b: Ty::F16,
                in_regs: 8,
                acc_regs: 8,
                copies: &[0, 16],
                in_at: |i, k| (k / 2, i, 16 * (k % 2)),
                out_at: |i, j| (i / 2, (16 * i) % 32 + j),
                neg,
                neg_hi,
            },
            300 + u32::from(neg),
        );
        // RDNA4 wave32: A[i][k] in register `2*floor(k/8) + floor(k/2)%2`, bits `16*(k%2)`, lane
        // `16*(floor(k/4)%2) + i`.
        check(
            &Case {
                mcpu: "gfx1201",
                lanes: 32,
                name: "v_wmma_f32_16x16x16_f16",
                k: 16,
                a: Ty::F16,
                b: Ty::F16,
                in_regs: 4,
                acc_regs: 8,
                copies: &[0],
                in_at: |i, k| (2 * (k / 8) + (k / 2) % 2, 16 * ((k / 4) % 2) + i, 16 * (k % 2)),
                out_at: gfx12_d32,
                neg,
                neg_hi,
            },
            400 + u32::from(neg_hi),
        );
    }
}

/// The calculator's "Execution cycles": RDNA3 32 (iu4 16), RDNA4 16 for f16 and 8 for iu4. A WMMA holds
/// the wave's matrix unit that long; the next one issues no earlier, other VALU work does not wait.
#[test]
fn wmmas_issue_one_per_pass_count_on_gfx11_and_gfx12() {
    for (mcpu, f16, iu4) in [("gfx1100", 32u64, 16u64), ("gfx1201", 16, 8)] {
        let Some(code) = assemble_with(
            mcpu,
            &["-mattr=+wavefrontsize32"],
            "
            v_wmma_f32_16x16x16_f16 v[40:47], v[10:17], v[20:27], v[30:37]
            v_add_f32 v3, v1, v2
            v_wmma_f32_16x16x16_f16 v[50:57], v[10:17], v[20:27], v[30:37]
            v_wmma_i32_16x16x16_iu4 v[40:47], v[10:11], v[20:21], v[30:37]
            v_add_f32 v4, v1, v2
            v_wmma_i32_16x16x16_iu4 v[50:57], v[10:11], v[20:21], v[30:37]
            s_endpgm
            "
            .replace("v[10:17], v[20:27]", if mcpu == "gfx1100" { "v[10:17], v[20:27]" } else { "v[10:13], v[20:23]" })
            .replace("v[10:11], v[20:21]", if mcpu == "gfx1100" { "v[10:11], v[20:21]" } else { "v10, v20" })
            .as_str(),
        ) else {
            return;
        };
        let mut kd = [0u8; 64];
        kd[16..24].copy_from_slice(&256i64.to_le_bytes());
        kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
        // kernel_code_properties: ENABLE_WAVEFRONT_SIZE32 (bit 10).
        kd[56..58].copy_from_slice(&(1u16 << 10).to_le_bytes());
        let (mut d, mem) = gfx90a_dispatch(&kd, &code, 0x3000_0000, [32, 1, 1], [32, 1, 1], 0);
        d.target = Target::find(mcpu).unwrap();
        d.descriptor = KernelDescriptor::parse(&kd);
        let costs = Costs { issue: [4; CLASS_COUNT], latency: [0; CLASS_COUNT] };
        let all = |_: u64, _: u32| true;
        let rec = run(&d, &mem, &RunOptions { costs, detail: Some(&all), ..RunOptions::default() }).unwrap();
        let steps = rec.detailed[0].steps.as_ref().unwrap();
        let at: Vec<(u64, u32)> = steps.iter().map(|s| (s.cycle, s.stall)).collect();
        // wmma at 0, add at 4, the second f16 wmma waits for `f16`, the iu4 for another `f16`, the add
        // does not wait, the second iu4 waits for the first's `iu4` cycles.
        let t = 2 * f16 + iu4.max(8);
        let want = [
            (0, 0),
            (4, 0),
            (f16, (f16 - 8) as u32),
            (2 * f16, (f16 - 4) as u32),
            (2 * f16 + 4, 0),
            (t, (t - 2 * f16 - 8) as u32),
            (t + 4, 0),
        ];
        assert_eq!(at, want, "{mcpu}");
    }
}
