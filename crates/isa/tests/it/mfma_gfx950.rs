//! gfx950's dense MFMA shapes with four registers of A and B per lane: `v_mfma_f32_16x16x32_{f16,bf16}`,
//! `v_mfma_f32_32x32x16_{f16,bf16}`, `v_mfma_i32_16x16x64_i8`, `v_mfma_i32_32x32x32_i8`, each against a host
//! GEMM with non-symmetric random matrices. The operand layout is IREE's for these intrinsics
//! (`iree-org/iree`, `IREEGPUAttrs.cpp`, `getSingleSubgroupLayout`: A 16xK as 16 rows by 4 lane groups of
//! K/4 consecutive k, 32xK as 32 rows by 2 groups of K/2; B the same with columns; the 16x16 and 32x32
//! accumulators as for the CDNA3 shapes), transcribed below. AMD's matrix instruction calculator has no
//! CDNA4 yet. llvm-mc-19 does not know gfx950: the instructions are the bytes llvm-mc-21 gives for
//! `-mcpu=gfx950` (A v[10:13], B v[20:23], D v[40:..], C v[30:33] or v[60:75]).

use crate::classes::run_body_assembled_as;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Ty {
    F16,
    Bf16,
    I8,
}

struct Form {
    name: &'static str,
    ty: Ty,
    m: usize,
    k: usize,
    /// llvm-mc-21 `-mcpu=gfx950 -show-encoding`.
    bytes: [u8; 8],
}

const FORMS: [Form; 6] = [
    Form {
        name: "v_mfma_f32_16x16x32_f16",
        ty: Ty::F16,
        m: 16,
        k: 32,
        bytes: [0x28, 0x00, 0xd4, 0xd3, 0x0a, 0x29, 0x7a, 0x04],
    },
    Form {
        name: "v_mfma_f32_16x16x32_bf16",
        ty: Ty::Bf16,
        m: 16,
        k: 32,
        bytes: [0x28, 0x00, 0xb5, 0xd3, 0x0a, 0x29, 0x7a, 0x04],
    },
    Form {
        name: "v_mfma_f32_32x32x16_f16",
        ty: Ty::F16,
        m: 32,
        k: 16,
        bytes: [0x28, 0x00, 0xd5, 0xd3, 0x0a, 0x29, 0xf2, 0x04],
    },
    Form {
        name: "v_mfma_f32_32x32x16_bf16",
        ty: Ty::Bf16,
        m: 32,
        k: 16,
        bytes: [0x28, 0x00, 0xb7, 0xd3, 0x0a, 0x29, 0xf2, 0x04],
    },
    Form {
        name: "v_mfma_i32_16x16x64_i8",
        ty: Ty::I8,
        m: 16,
        k: 64,
        bytes: [0x28, 0x00, 0xb6, 0xd3, 0x0a, 0x29, 0x7a, 0x04],
    },
    Form {
        name: "v_mfma_i32_32x32x32_i8",
        ty: Ty::I8,
        m: 32,
        k: 32,
        bytes: [0x28, 0x00, 0xb8, 0xd3, 0x0a, 0x29, 0xf2, 0x04],
    },
];

impl Form {
    fn bits(&self) -> usize {
        if self.ty == Ty::I8 {
            8
        } else {
            16
        }
    }
    /// A[i][k] (or B[k][j] with j for i): (register, lane, bit). `k_per_lane` consecutive k in one lane,
    /// packed low to high over the four registers; lane group `k / k_per_lane`.
    fn in_at(&self, i: usize, k: usize) -> (usize, usize, usize) {
        let k_per_lane = if self.m == 16 { self.k / 4 } else { self.k / 2 };
        let bit = (k % k_per_lane) * self.bits();
        (bit / 32, i + self.m * (k / k_per_lane), bit % 32)
    }
    /// D[i][j]: 16x16 register `i%4`, lane `16*(i/4) + j`; 32x32 register `4*(i/8) + i%4`, lane
    /// `32*((i/4)%2) + j`.
    fn d_at(&self, i: usize, j: usize) -> (usize, usize) {
        if self.m == 16 {
            (i % 4, 16 * (i / 4) + j)
        } else {
            (4 * (i / 8) + i % 4, 32 * ((i / 4) % 2) + j)
        }
    }
    fn enc(&self, v: i64) -> u32 {
        match self.ty {
            Ty::F16 => {
                let h = half::f16_bits(v as f32);
                u32::from(h)
            }
            Ty::Bf16 => (v as f32).to_bits() >> 16,
            Ty::I8 => (v as u32) & 0xff,
        }
    }
}

mod half {
    /// f32 to f16 bits for small integers (exact).
    pub(super) fn f16_bits(v: f32) -> u16 {
        if v == 0.0 {
            return 0;
        }
        let b = v.to_bits();
        let sign = ((b >> 16) & 0x8000) as u16;
        let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
        let mant = ((b >> 13) & 0x3ff) as u16;
        assert!(e > 0 && e < 31 && b & 0x1fff == 0, "{v} not exact in f16");
        sign | ((e as u16) << 10) | mant
    }
}

fn lcg(x: &mut u32, lo: i64, span: u32) -> i64 {
    *x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
    lo + i64::from((*x >> 16) % span)
}

#[test]
fn gfx950_four_register_mfma_shapes_match_a_host_gemm() {
    for (n, f) in FORMS.iter().enumerate() {
        check(f, 17 + n as u32, None);
    }
}

/// AMD's CDNA4 ISA guide (7.1.2, "Execution Mask: ignores exec mask ... and forces it to 1 for all
/// threads"): with only some lanes in EXEC, the MFMA still reads A, B and C from, and writes D to, all 64
/// lanes; the host GEMM is checked on every element.
#[test]
fn gfx950_mfma_ignores_a_partial_exec_and_computes_every_lane() {
    for (n, f) in FORMS.iter().enumerate().filter(|(n, _)| n % 2 == 0) {
        check(f, 90 + n as u32, Some(0x0000_ff00_0000_0001));
    }
}

/// On gfx942 no source I had says what a partial EXEC does to an MFMA: the dispatch stops with a
/// message naming the instruction and the EXEC value instead of guessing.
#[test]
fn gfx942_mfma_under_a_partial_exec_is_reported_not_guessed() {
    let body = "s_mov_b64 exec, 0xff\nv_mfma_f32_16x16x16_f16 v[40:43], v[10:11], v[20:21], v[30:33]\ns_nop 7\ns_mov_b64 exec, -1\nv_mov_b32 v1, v40\n";
    let got = std::panic::catch_unwind(|| run_body_assembled_as("gfx942", "gfx942", 64, body, 1, &[]));
    match got {
        Ok(None) => {}
        Ok(Some(_)) => panic!("a partial-EXEC MFMA ran on gfx942"),
        Err(e) => {
            let text = e.downcast_ref::<String>().cloned().unwrap_or_default();
            assert!(text.contains("v_mfma_f32_16x16x16_f16 with EXEC 0xff"), "{text}");
        }
    }
}

fn check(f: &Form, seed: u32, exec: Option<u64>) {
    {
        let mut x = seed;
        let (m, k) = (f.m, f.k);
        let range = if f.ty == Ty::I8 { (-100, 201) } else { (-8, 17) };
        let a: Vec<Vec<i64>> = (0..m).map(|_| (0..k).map(|_| lcg(&mut x, range.0, range.1)).collect()).collect();
        let b: Vec<Vec<i64>> = (0..k).map(|_| (0..m).map(|_| lcg(&mut x, range.0, range.1)).collect()).collect();
        let c: Vec<Vec<i64>> = (0..m).map(|_| (0..m).map(|_| lcg(&mut x, -50, 101)).collect()).collect();
        let acc = m * m / 64;
        let mut data = vec![0u8; 0x100 * (8 + acc)];
        let mut put = |region: usize, lane: usize, bit: usize, width: usize, v: u32| {
            let o = 0x100 * region + 4 * lane;
            let old = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
            let mask = if width == 32 { u32::MAX } else { ((1u32 << width) - 1) << bit };
            data[o..o + 4].copy_from_slice(&((old & !mask) | ((v << bit) & mask)).to_le_bytes());
        };
        for i in 0..m {
            for kk in 0..k {
                let (r, lane, bit) = f.in_at(i, kk);
                put(r, lane, bit, f.bits(), f.enc(a[i][kk]));
                put(4 + r, lane, bit, f.bits(), f.enc(b[kk][i]));
            }
        }
        for i in 0..m {
            for j in 0..m {
                let (r, lane) = f.d_at(i, j);
                let v = if f.ty == Ty::I8 { c[i][j] as i32 as u32 } else { (c[i][j] as f32).to_bits() };
                put(8 + r, lane, 0, 32, v);
            }
        }
        let c_base = if m == 16 { 30 } else { 60 };
        let mut body = String::new();
        let loads = (0..4)
            .map(|r| (r, 10 + r))
            .chain((0..4).map(|r| (4 + r, 20 + r)))
            .chain((0..acc).map(|r| (8 + r, c_base + r)));
        for (region, reg) in loads {
            body.push_str(&format!(
                "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
                0x100 * region
            ));
        }
        let bytes: Vec<String> = f.bytes.iter().map(|b| format!("{b:#04x}")).collect();
        body.push_str("s_waitcnt vmcnt(0)\n");
        if let Some(mask) = exec {
            body.push_str(&format!("s_mov_b32 exec_lo, {:#x}\ns_mov_b32 exec_hi, {:#x}\n", mask as u32, mask >> 32));
        }
        body.push_str(&format!(
            ".byte {} // {}\ns_nop 7\ns_nop 7\ns_nop 7\ns_mov_b64 exec, -1\n",
            bytes.join(","),
            f.name
        ));
        for r in 0..acc {
            body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
        }
        let Some(out) = run_body_assembled_as("gfx950", "gfx942", 64, &body, acc, &data) else { return };
        for i in 0..m {
            for j in 0..m {
                let want = c[i][j] + (0..k).map(|kk| a[i][kk] * b[kk][j]).sum::<i64>();
                let (r, lane) = f.d_at(i, j);
                let got =
                    if f.ty == Ty::I8 { i64::from(out[r][lane] as i32) } else { f32::from_bits(out[r][lane]) as i64 };
                assert_eq!(got, want, "{}: D[{i}][{j}]", f.name);
            }
        }
    }
}
