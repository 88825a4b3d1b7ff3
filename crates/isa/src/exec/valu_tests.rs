//! Every plain VALU handler (`valu_forms::plain_handler`: the baseline, AVX2 and AVX-512 sets, whichever the host
//! runs) against the general executor's per-lane loop: random register contents (NaNs, infinities,
//! denormals, signed zeros, small shift counts and random bits), operands as rows, the destination as a
//! source, a literal, an SGPR and inline constants, full and partial EXEC masks, wave64 (gfx90a) and wave32
//! (gfx1030). The reference runs the general handler (`M` = 0, operands read from the operand codes) twice,
//! on the even and on the odd lanes of EXEC, so it never takes a full-EXEC vector path; the handlers under
//! test, and their all-row or scalar-source-0 forms where the sources allow one, must give the same VGPRs,
//! SGPRs (carry-outs) and active-lane count, bit for bit.

use super::lanes::{Chosen, LaneKernels};
use super::valu::handler;
use super::valu_forms::{plain_handler, PLAIN_OPS};
use super::{Ctx, Flow, Go};
use crate::decode::{decode, Inst, VGPR0};
use crate::memory::VecMemory;
use crate::op::{Op, VOp};
use crate::operand::{LITERAL, VCC_LO};
use crate::pre::Form;
use crate::stats::WaveStats;
use crate::target::{Family, TARGETS};
use crate::wave::{Wave, MAX_LANES};

/// A xorshift generator.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A lane value: special floats, small integers (shift counts, bit-field widths), floats near 1 or
    /// raw bits.
    pub(super) fn value(&mut self) -> u32 {
        const SPECIAL: [u32; 16] = [
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_0001,
            0xffc0_1234,
            0x0000_0001,
            0x807f_ffff,
            0x0040_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0xffff_ffff,
            0x7fff_ffff,
            0x8000_0001,
        ];
        let r = self.next();
        match r % 5 {
            0 => SPECIAL[(r >> 8) as usize % SPECIAL.len()],
            1 => (r >> 8) as u32 % 40,
            2 => ((r >> 8) as u32 & 0x807f_ffff) | ((124 + (r >> 40) % 7) as u32) << 23,
            _ => (r >> 16) as u32,
        }
    }
}

/// `(dst, src0, src1, src2)` operand codes (src2 of carry-in ops and `v_cndmask` is replaced by `s[20:21]`).
pub(super) const LAYOUTS: [(u16, [u16; 3]); 8] = [
    // Rows.
    (VGPR0 + 1, [VGPR0 + 10, VGPR0 + 11, VGPR0 + 12]),
    // The destination is a source.
    (VGPR0 + 10, [VGPR0 + 10, VGPR0 + 11, VGPR0 + 12]),
    // A literal and an SGPR.
    (VGPR0 + 2, [LITERAL, 8, VGPR0 + 12]),
    // Inline constants (1.0, -1), the destination as src2 (the accumulator of `fmac`/`mac`).
    (VGPR0 + 12, [VGPR0 + 11, 242, 193]),
    // An SGPR and an inline integer, the same row twice.
    (VGPR0 + 3, [9, VGPR0 + 11, VGPR0 + 11]),
    // A literal, then rows (the scalar-source-0 form: `v_xor_b32 v4, lit, v11`).
    (VGPR0 + 4, [LITERAL, VGPR0 + 11, VGPR0 + 12]),
    // An SGPR, then rows, the destination a source.
    (VGPR0 + 11, [8, VGPR0 + 11, VGPR0 + 10]),
    // An inline constant (0.5), then rows, the destination as src2 (`v_mul_f32 v12, 0.5, v12`).
    (VGPR0 + 12, [240, VGPR0 + 12, VGPR0 + 12]),
];

/// The EXEC masks tried on a wave of `lanes` lanes.
pub(super) fn masks(lanes: usize, rng: &mut Rng) -> Vec<u64> {
    let full = u64::MAX >> (64 - lanes);
    vec![full, rng.next() & full, full & !1, 1 << (lanes - 1), 0, u64::from(u32::MAX) & full, (rng.next() | 1) & full]
}

pub(super) fn run(h: super::Handler, w: &mut Wave, i: &Inst) -> u64 {
    let mem = VecMemory::new();
    let mut lds = [0u8; 0];
    let mut stats = WaveStats::default();
    let gws = crate::gws::Gws::new();
    let mut cx = Ctx { mem: &mem, lds: &mut lds, clock: 0, stats: &mut stats, gws: &gws, stop: None, flow: Flow::Next };
    // SAFETY: every handler run here comes from a `Chosen` made by `Chosen::new`, which checked the host.
    #[allow(unsafe_code)]
    let go = unsafe { h(w, &mut cx, i) };
    assert_eq!(go, Go::Next, "{}: {:?}", i.name, cx.stop);
    stats.valu_active_lanes
}

/// The instruction: a decoded VOP3 `v_fma_f32` with the operation and operands replaced.
pub(super) fn inst(target: &str, op: VOp, dst: u16, src: [u16; 3], lit: u32) -> Inst {
    let t = TARGETS.iter().find(|t| t.name == target).unwrap();
    let words: [u32; 2] =
        if t.family == Family::Gfx9 { [0xd1cb_0001, 0x042e_1501] } else { [0xd54b_0001, 0x042e_1501] };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut i = decode(t, &bytes).unwrap();
    i.op = Op::Valu(op);
    i.dst = dst;
    i.src = src;
    if matches!(op, VOp::AddcCoU32 | VOp::SubbCoU32 | VOp::SubbrevCoU32 | VOp::CndmaskB32) {
        i.src[2] = 20;
    }
    i.sdst = VCC_LO;
    i.lit = lit;
    i.pre = crate::decode::pre_of(&i);
    assert!(i.pre.plain);
    i
}

#[test]
fn plain_valu_handlers_match_the_per_lane_reference_for_every_lane_kernel_set() {
    let mut sets = vec![Chosen::new(LaneKernels::Baseline)];
    for k in [Chosen::new(LaneKernels::Avx2), Chosen::new(LaneKernels::Auto)] {
        if !sets.contains(&k) {
            sets.push(k);
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    let mut all_rows = 0;
    let mut scalar0 = 0;
    for (target, lanes) in [("gfx90a", 64), ("gfx1030", 32)] {
        let family = TARGETS.iter().find(|t| t.name == target).unwrap().family;
        for &op in PLAIN_OPS {
            for (dst, src) in LAYOUTS {
                let i = inst(target, op, dst, src, rng.value());
                for exec in masks(lanes, &mut rng) {
                    let mut w = Wave::new(family, lanes, 0);
                    for r in [1, 2, 3, 10, 11, 12] {
                        for l in 0..MAX_LANES {
                            w.set_vr(r, l, rng.value());
                        }
                    }
                    for s in [8, 9, 20, 21, VCC_LO, VCC_LO + 1] {
                        w.set_s(s, rng.next() as u32);
                    }
                    // The reference: the general handler on the even lanes, then on the odd ones.
                    let mut want = w.clone();
                    let general = handler(op, Chosen::Base);
                    let even = 0x5555_5555_5555_5555 & exec;
                    want.set_exec(even);
                    let mut lanes_want = run(general, &mut want, &i);
                    let vcc_even = want.read_mask(VCC_LO, 0);
                    want.set_exec(exec & !even);
                    lanes_want += run(general, &mut want, &i);
                    if matches!(
                        op,
                        VOp::AddCoU32
                            | VOp::SubCoU32
                            | VOp::SubrevCoU32
                            | VOp::AddcCoU32
                            | VOp::SubbCoU32
                            | VOp::SubbrevCoU32
                    ) {
                        let odd = want.read_mask(VCC_LO, 0);
                        want.write_mask(VCC_LO, vcc_even | odd);
                    }
                    want.set_exec(exec);
                    // Every set, in its general form and in the form the sources allow (all rows, or source 0
                    // a scalar and the others rows).
                    let forms =
                        [Form::Any, i.pre.form].into_iter().enumerate().filter(|&(n, f)| n == 0 || f != Form::Any);
                    for (k, form) in forms.flat_map(|(_, f)| sets.iter().map(move |&k| (k, f))) {
                        let h = plain_handler(op, k, lanes, form).unwrap();
                        all_rows += usize::from(form == Form::Rows);
                        scalar0 += usize::from(form == Form::Scalar0);
                        let mut got = w.clone();
                        got.set_exec(exec);
                        let lanes_got = run(h, &mut got, &i);
                        let what = format!("{target} {} {k:?} {form:?} dst {dst} src {src:?} exec {exec:#x}", i.name);
                        assert_eq!(lanes_got, lanes_want, "{what}: active lanes");
                        assert_eq!(got.s, want.s, "{what}: SGPRs");
                        // A float result may be any NaN where the reference has a NaN: the
                        // compiler does not keep NaN payloads when it vectorises the same lane code
                        // (lane_kernels.rs compares against the host the same way).
                        let float = i.name.contains("_f");
                        let nan = |v: u32| v & 0x7f80_0000 == 0x7f80_0000 && v & 0x007f_ffff != 0;
                        // An f64 result: the destination pair compared as one 64-bit value each lane.
                        let f64_op = matches!(
                            op,
                            VOp::AddF64 | VOp::MulF64 | VOp::MinF64 | VOp::MaxF64 | VOp::FmaF64 | VOp::FmacF64
                        );
                        let pair = f64_op.then_some((dst - VGPR0) as usize);
                        let nan64 = |v: u64| v & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 && v << 12 != 0;
                        let v64 =
                            |x: &Wave, r: usize, l: usize| u64::from(x.vr(r, l)) | u64::from(x.vr(r + 1, l)) << 32;
                        for r in 0..256 {
                            for l in 0..lanes {
                                if let Some(p) = pair.filter(|&p| r == p || r == p + 1) {
                                    let (g, x) = (v64(&got, p, l), v64(&want, p, l));
                                    assert!(
                                        g == x || (nan64(g) && nan64(x)),
                                        "{what}: v[{p}:{}] lane {l}: {g:#x}, the reference {x:#x}",
                                        p + 1
                                    );
                                    continue;
                                }
                                if float && pair.is_none() && nan(got.vr(r, l)) && nan(want.vr(r, l)) {
                                    continue;
                                }
                                assert_eq!(
                                    got.vr(r, l),
                                    want.vr(r, l),
                                    "{what}: v{r} lane {l} (the reference {:#x})",
                                    want.vr(r, l)
                                );
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= 2 * PLAIN_OPS.len() * LAYOUTS.len() * 7);
    // The two all-row layouts, for every operation without a carry-in or lane-select SGPR, both targets.
    assert!(all_rows >= 2 * (PLAIN_OPS.len() - 4) * 2 * 7, "{all_rows} all-row checks");
    // The four layouts with a scalar source 0 and rows, for the same operations, both targets.
    assert!(scalar0 >= 2 * (PLAIN_OPS.len() - 4) * 4 * 7, "{scalar0} scalar-source-0 checks");
}
