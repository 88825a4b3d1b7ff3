//! Which machine code the per-lane loops run as, chosen once per program (never per instruction).
//!
//! The shipped library is built for the x86-64 baseline (SSE2, no FMA), where an exact f32 fused
//! multiply-add costs a TwoSum correction per lane and the loops are 4 lanes wide. On a host with AVX2 and
//! FMA the same generic lane code is compiled a second time inside `#[target_feature(enable = "avx2,fma")]`
//! handlers (see `valu::handler`): 8 lanes wide, and `fma32` is the hardware instruction. On a host with
//! AVX-512F the plain VALU handlers are compiled a third time, 16 lanes per step (a 64-lane row is four
//! vector registers, not eight). All compute the IEEE result (a fused multiply-add is exact either way), so
//! the choice changes speed, never bits.

/// The lane-level primitives whose best form depends on the host's instruction set.
pub(crate) trait Isa {
    /// `a * b + c` rounded once (IEEE fused multiply-add).
    fn fma32(a: f32, b: f32, c: f32) -> f32;
}

/// The x86-64 baseline (and every other host): what the crate is compiled for.
pub(crate) struct Base;

impl Isa for Base {
    #[inline(always)]
    fn fma32(a: f32, b: f32, c: f32) -> f32 {
        super::float::fma32(a, b, c)
    }
}

/// AVX2 + FMA: only ever instantiated inside functions compiled with those features enabled.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2Fma;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx2Fma {
    #[inline(always)]
    fn fma32(a: f32, b: f32, c: f32) -> f32 {
        // Inlined into an `avx2,fma` function this is one `vfmadd` (a call to libm's `fmaf` elsewhere).
        a.mul_add(b, c)
    }
}

/// AVX-512F (with AVX2 + FMA): only ever instantiated inside functions compiled with those features enabled.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx512 {
    #[inline(always)]
    fn fma32(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
}

/// Which lane kernels a dispatch runs ([`RunOptions::lanes`](crate::RunOptions::lanes)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LaneKernels {
    /// The fastest the host supports (AVX-512F, else AVX2 + FMA, when present), unless the environment
    /// variable `ROCPROF_RS_SIM_LANES` asks for `baseline` or `avx2`.
    #[default]
    Auto,
    /// At most AVX2 + FMA, even on a host with AVX-512 (for comparing the paths bit for bit, and for
    /// measuring); the baseline on a host without AVX2.
    Avx2,
    /// The x86-64 baseline code on every host (for comparing both paths bit for bit, and for measuring).
    Baseline,
}

/// The lane kernels a program uses: only constructed by [`Chosen::new`], which checks the host's features,
/// so holding `Chosen::Avx2Fma` proves the host runs AVX2, FMA and POPCNT instructions (POPCNT for the
/// active-lane count every VALU handler adds), and `Chosen::Avx512` that it also runs AVX-512F.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chosen {
    Base,
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Chosen {
    /// Decides once (per program) what `want` means on this host.
    pub(crate) fn new(want: LaneKernels) -> Chosen {
        let env = std::env::var_os(rocprof_launch::names::SIM_LANES);
        if want == LaneKernels::Baseline || env.as_ref().is_some_and(|v| v == "baseline") {
            return Chosen::Base;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            let cap = want == LaneKernels::Avx2 || env.is_some_and(|v| v == "avx2");
            if !cap && std::arch::is_x86_feature_detected!("avx512f") {
                return Chosen::Avx512;
            }
            return Chosen::Avx2Fma;
        }
        Chosen::Base
    }
}
