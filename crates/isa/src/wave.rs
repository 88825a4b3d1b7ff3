//! Wave state: scalar and vector registers, EXEC, VCC, SCC, M0, PC, MODE and the wave's private memory,
//! with the operand reads and writes every instruction shares (constants, literals, modifiers, SDWA and DPP
//! lane transforms, exec-masked writes).

use crate::decode::{Dpp, Extra, Inst, EXEC_HI, EXEC_LO, LITERAL, M0, NONE, NULL, VCC_LO, VGPR0};
use crate::memory::{APERTURE_SIZE, PRIVATE_APERTURE, SHARED_APERTURE};
use crate::target::Family;

/// Lanes of the widest wave.
pub(crate) const MAX_LANES: usize = 64;
/// VGPR rows a wave can name: 256 VGPRs, 256 AGPRs, plus slack so a 4-dword access at v255 stays in range.
pub(crate) const ROWS: usize = 516;
/// The first of three rows after the architectural ones that the VALU's full-EXEC path fills with a
/// constant operand, so that it computes every operand combination as row op row (see `exec::valu`).
pub(crate) const SCRATCH_ROW: usize = ROWS;

/// Largest private memory one wave may have (scratch per work-item times lanes); a kernel that accesses
/// scratch under a larger private segment is reported instead of allocating it.
const MAX_PRIVATE_BYTES: u64 = 64 << 20;

pub(crate) use crate::operand::Ty;

/// The register file's storage: `u32`s whose first one starts a 64-byte cache line, so that a row (256
/// bytes) is four whole lines and the VALU's 32- and 64-byte vector loads and stores never straddle two (a
/// `Vec<u32>` is only 16-byte aligned: every AVX-512 access of a row split across lines). Held as cache
/// lines, seen as `u32`s.
/// A fixed number of lines (every wave has the same register file), so every index into it is checked
/// against a constant (no load of a length).
#[derive(Clone)]
pub(crate) struct Regs(Box<[Line; REG_LINES]>);

/// The register file's rows: the architectural ones ([`ROWS`]) and the three scratch rows.
pub(crate) const REG_ROWS: usize = SCRATCH_ROW + 3;
/// The register file's cache lines.
const REG_LINES: usize = REG_ROWS * MAX_LANES / 16;

/// 16 registers, one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u32; 16]);

impl Regs {
    /// The zeroed register file ([`REG_ROWS`] rows).
    pub(crate) fn zeroed() -> Self {
        let lines = vec![Line([0; 16]); REG_LINES].into_boxed_slice();
        Regs(lines.try_into().unwrap_or_else(|_| unreachable!("REG_LINES lines")))
    }

    /// The register file as [`REG_ROWS`] rows of [`MAX_LANES`] registers (the length a constant, so the
    /// conversion's check folds away).
    #[inline(always)]
    pub(crate) fn rows_mut(&mut self) -> &mut [[u32; MAX_LANES]; REG_ROWS] {
        let rows: &mut [[u32; MAX_LANES]] = (**self).as_chunks_mut::<MAX_LANES>().0;
        rows.try_into().expect("REG_ROWS rows")
    }
}

impl std::ops::Deref for Regs {
    type Target = [u32];
    #[inline(always)]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[u32] {
        // SAFETY: `Line` is `repr(C)` around `[u32; 16]` with size 64 (no padding), so the vector's lines
        // are `16 * len` initialised, contiguous `u32`s, borrowed for as long as `self` is.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<u32>(), REG_LINES * 16) }
    }
}

impl std::ops::DerefMut for Regs {
    #[inline(always)]
    #[allow(unsafe_code)]
    fn deref_mut(&mut self) -> &mut [u32] {
        // SAFETY: as in `deref`, borrowed mutably for as long as `self` is (any bit pattern is a valid `u32`
        // and a valid `Line`).
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast::<u32>(), REG_LINES * 16) }
    }
}

impl std::fmt::Debug for Regs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Regs").field("len", &self.len()).finish()
    }
}

/// A 32-bit source operand of a VALU instruction, materialised per lane.
pub(crate) type Lanes32 = [u32; MAX_LANES];
/// A 64-bit source operand, per lane.
pub(crate) type Lanes64 = [u64; MAX_LANES];

/// One wave's architectural state.
#[derive(Clone, Debug)]
pub struct Wave {
    /// Scalar operand codes 0..127: SGPRs, VCC, TTMPs, M0, NULL, EXEC.
    pub(crate) s: [u32; 128],
    /// VGPRs (rows 0..255) and AGPRs (rows 256..511), `MAX_LANES` values per row, then the scratch rows
    /// ([`SCRATCH_ROW`]).
    pub(crate) v: Regs,
    /// Program counter (absolute address).
    pub pc: u64,
    /// Scalar condition code.
    pub scc: bool,
    /// Lanes: 32 or 64.
    pub lanes: usize,
    pub(crate) family: Family,
    /// Matrix instructions read 8-bit floats in AMD's FNUZ formats (the target's
    /// [`crate::Target::fp8_fnuz`]), else in the OCP formats.
    pub(crate) fp8_fnuz: bool,
    /// Matrix instructions run on all 64 lanes whatever EXEC says (gfx950: AMD's CDNA4 ISA guide, 7.1.2,
    /// 7.1.5 and 7.5, "Execution Mask: ignores exec mask ... and forces it to 1 for all threads"); on the
    /// other CDNA targets a partial EXEC is reported (no source I had documents it there).
    pub(crate) matrix_ignores_exec: bool,
    /// The E8M0 scale bytes of A and B per lane that gfx950's `v_mfma_ld_scale_b32` picked for the
    /// MFMA that follows it (the `v_mfma_scale_*` pair); every MFMA takes it.
    pub(crate) mfma_scale: Option<Box<[[u8; 64]; 2]>>,
    /// `MODE` hardware register (rounding, denormals).
    pub(crate) mode: u32,
    /// `TRAPSTS`.
    pub(crate) trapsts: u32,
    /// Flat-scratch base (gfx10+ `FLAT_SCRATCH` set through `s_setreg`; gfx9 keeps it in SGPRs 102/103).
    pub(crate) flat_scratch: u64,
    /// Private memory, `private_bytes` per lane, lane-major.
    pub(crate) private: Vec<u8>,
    pub(crate) private_bytes: u32,
    /// `HW_ID`-style identity for `s_getreg`.
    pub(crate) hw_id: u32,
    /// The wave reached `s_endpgm`.
    pub done: bool,
}

impl Wave {
    /// A wave with zeroed registers (`vgprs` VGPR rows and `agprs` AGPR rows are cleared; the rest is
    /// never read by a correct kernel).
    pub(crate) fn new(family: Family, lanes: usize, private_bytes: u32) -> Self {
        Wave {
            s: [0; 128],
            v: Regs::zeroed(),
            pc: 0,
            scc: false,
            lanes,
            family,
            fp8_fnuz: false,
            matrix_ignores_exec: false,
            mfma_scale: None,
            mode: 0,
            trapsts: 0,
            flat_scratch: 0,
            private: Vec::new(),
            private_bytes,
            hw_id: 0,
            done: false,
        }
    }

    /// Clears the state for reuse by another wave of the same dispatch.
    pub(crate) fn reset(&mut self, vgprs: usize, agprs: usize) {
        self.s = [0; 128];
        self.v[..vgprs.min(ROWS) * MAX_LANES].fill(0);
        if agprs > 0 {
            self.v[256 * MAX_LANES..(256 + agprs).min(ROWS) * MAX_LANES].fill(0);
        }
        self.private.clear();
        self.scc = false;
        self.done = false;
        self.mode = 0;
        self.trapsts = 0;
        self.flat_scratch = 0;
    }

    /// The EXEC mask (wave32 uses `exec_lo` only).
    #[inline]
    pub fn exec(&self) -> u64 {
        if self.lanes == 64 {
            u64::from(self.s[EXEC_LO as usize]) | (u64::from(self.s[EXEC_HI as usize]) << 32)
        } else {
            u64::from(self.s[EXEC_LO as usize])
        }
    }

    /// Sets EXEC.
    #[inline]
    pub fn set_exec(&mut self, m: u64) {
        self.s[EXEC_LO as usize] = m as u32;
        if self.lanes == 64 {
            self.s[EXEC_HI as usize] = (m >> 32) as u32;
        }
    }

    /// All lanes of the wave.
    #[inline]
    pub(crate) fn full(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            u64::from(u32::MAX)
        }
    }

    /// Scalar register `code` (0..127).
    pub fn sgpr(&self, code: u16) -> u32 {
        self.s[code as usize & 127]
    }

    /// Sets scalar register `code`; writes to NULL are dropped.
    #[inline]
    pub(crate) fn set_s(&mut self, code: u16, v: u32) {
        if code < 128 && code != NULL {
            self.s[code as usize] = v;
        }
    }

    #[inline]
    pub(crate) fn set_s64(&mut self, code: u16, v: u64) {
        self.set_s(code, v as u32);
        self.set_s(code + 1, (v >> 32) as u32);
    }

    /// A lane mask in an SGPR (pair for wave64).
    #[inline]
    pub(crate) fn read_mask(&self, code: u16, lit: u32) -> u64 {
        if self.lanes == 64 {
            self.s64(code, lit, Ty::U)
        } else {
            u64::from(self.s32(code, lit, Ty::U))
        }
    }

    /// Writes a lane mask to an SGPR (pair for wave64).
    #[inline]
    pub(crate) fn write_mask(&mut self, code: u16, m: u64) {
        if code == NONE {
            return;
        }
        if self.lanes == 64 {
            self.set_s64(code, m);
        } else {
            self.set_s(code, m as u32);
        }
    }

    /// VCC as a lane mask.
    #[inline]
    pub(crate) fn vcc(&self) -> u64 {
        self.read_mask(VCC_LO, 0)
    }

    /// M0.
    #[inline]
    pub(crate) fn m0(&self) -> u32 {
        self.s[M0 as usize]
    }

    fn inline_float(code: u16, ty: Ty) -> u64 {
        crate::operand::inline_float(code, ty)
    }

    /// A 32-bit scalar source (register, constant, special or literal).
    #[inline]
    pub(crate) fn s32(&self, code: u16, lit: u32, ty: Ty) -> u32 {
        match code {
            0..=127 => {
                if code == NULL {
                    0
                } else {
                    self.s[code as usize]
                }
            }
            251 => u32::from(self.vcc() == 0),
            252 => u32::from(self.exec() == 0),
            253 => u32::from(self.scc),
            _ => Self::const32(code, lit, ty),
        }
    }

    /// A 32-bit operand that is the same for every wave: inline constants, apertures, the literal (0 for
    /// other codes; [`Self::s32`] reads registers and the wave's condition codes itself).
    #[inline]
    pub(crate) fn const32(code: u16, lit: u32, ty: Ty) -> u32 {
        crate::operand::const32(code, lit, ty)
    }

    /// A 64-bit scalar source.
    #[inline]
    pub(crate) fn s64(&self, code: u16, lit: u32, ty: Ty) -> u64 {
        match code {
            0..=127 => {
                if code == NULL {
                    0
                } else {
                    u64::from(self.s[code as usize]) | (u64::from(self.s[(code as usize + 1) & 127]) << 32)
                }
            }
            128..=192 => u64::from(code - 128),
            193..=208 => (-(i64::from(code) - 192)) as u64,
            235 => SHARED_APERTURE,
            236 => SHARED_APERTURE + APERTURE_SIZE - 1,
            237 => PRIVATE_APERTURE,
            238 => PRIVATE_APERTURE + APERTURE_SIZE - 1,
            240..=248 => Self::inline_float(code, if ty == Ty::F16 { Ty::F16 } else { Ty::F64 }),
            251..=253 => u64::from(self.s32(code, lit, ty)),
            // A 32-bit literal in a 64-bit operand: the high half of a double, sign-extended for signed
            // integers, zero-extended otherwise.
            LITERAL => match ty {
                Ty::F64 => u64::from(lit) << 32,
                Ty::I => lit as i32 as i64 as u64,
                _ => u64::from(lit),
            },
            _ => 0,
        }
    }

    /// VGPR row `r`, lane `l`.
    #[inline]
    pub(crate) fn vr(&self, row: usize, lane: usize) -> u32 {
        self.v[row * MAX_LANES + lane]
    }

    /// Sets VGPR row `r`, lane `l`.
    #[inline]
    pub(crate) fn set_vr(&mut self, row: usize, lane: usize, v: u32) {
        self.v[row * MAX_LANES + lane] = v;
    }

    /// Every lane of VGPR row `r`.
    #[inline]
    pub(crate) fn vrow(&self, row: usize) -> Lanes32 {
        let mut out = [0; MAX_LANES];
        out.copy_from_slice(&self.v[row * MAX_LANES..(row + 1) * MAX_LANES]);
        out
    }

    /// Sets every lane of VGPR row `r`.
    #[inline]
    pub(crate) fn set_vrow(&mut self, row: usize, vals: &Lanes32) {
        self.v[row * MAX_LANES..(row + 1) * MAX_LANES].copy_from_slice(vals);
    }

    /// The 32-bit value of VALU operand `code` in every lane, before modifiers.
    #[inline]
    pub(crate) fn raw32(&self, code: u16, lit: u32, ty: Ty, out: &mut Lanes32) {
        if code >= VGPR0 {
            let row = (code - VGPR0) as usize;
            out.copy_from_slice(&self.v[row * MAX_LANES..(row + 1) * MAX_LANES]);
        } else {
            out.fill(self.s32(code, lit, ty));
        }
    }

    /// The 64-bit value of VALU operand `code` in every lane.
    #[inline]
    pub(crate) fn raw64(&self, code: u16, lit: u32, ty: Ty, out: &mut Lanes64) {
        if code >= VGPR0 {
            // All 64 lanes of both rows (fixed-size slices: no bounds checks, the loop vectorises; lanes
            // past a wave32's 32 are never used).
            let row = (code - VGPR0) as usize;
            let lo: &[u32; MAX_LANES] = self.v[row * MAX_LANES..][..MAX_LANES].try_into().expect("a row");
            let hi: &[u32; MAX_LANES] = self.v[(row + 1) * MAX_LANES..][..MAX_LANES].try_into().expect("a row");
            for l in 0..MAX_LANES {
                out[l] = u64::from(lo[l]) | (u64::from(hi[l]) << 32);
            }
        } else {
            out.fill(self.s64(code, lit, ty));
        }
    }

    /// Source `k` of `i` as 32-bit lanes with SDWA/DPP transforms and abs/neg applied for `ty`.
    #[inline]
    pub(crate) fn src32(&self, i: &Inst, k: usize, ty: Ty, out: &mut Lanes32) {
        self.src32_nomods(i, k, ty, out);
        let bit = 1 << k;
        let (abs, neg) = (i.mods.abs & bit != 0, i.mods.neg & bit != 0);
        if abs || neg {
            let sign = match ty {
                Ty::F16 => 0x8000,
                Ty::F32 => 0x8000_0000,
                _ => return,
            };
            let clear = if abs { !sign } else { u32::MAX };
            let flip = if neg { sign } else { 0 };
            for x in out.iter_mut() {
                *x = (*x & clear) ^ flip;
            }
        }
    }

    /// Source `k` of `i` with SDWA/DPP transforms, constants typed by `ty`, no abs/neg.
    #[inline]
    pub(crate) fn src32_nomods(&self, i: &Inst, k: usize, ty: Ty, out: &mut Lanes32) {
        self.raw32(i.src[k], i.lit, ty, out);
        match i.extra {
            Extra::None => {}
            Extra::Sdwa(s) if k < 2 => {
                let (sel, sext) = (s.src_sel[k], s.sext[k]);
                if sel != 6 {
                    for x in out.iter_mut().take(self.lanes) {
                        *x = sdwa_select(*x, sel, sext);
                    }
                }
            }
            Extra::Sdwa(_) => {}
            Extra::Dpp(d) if k == 0 => self.dpp(d, out),
            Extra::Dpp(_) => {}
        }
    }

    /// Source `k` of `i` as 64-bit lanes with abs/neg applied for `ty`.
    pub(crate) fn src64(&self, i: &Inst, k: usize, ty: Ty, out: &mut Lanes64) {
        self.raw64(i.src[k], i.lit, ty, out);
        let bit = 1 << k;
        let (abs, neg) = (i.mods.abs & bit != 0, i.mods.neg & bit != 0);
        if ty == Ty::F64 && (abs || neg) {
            let clear = if abs { !(1u64 << 63) } else { u64::MAX };
            let flip = if neg { 1u64 << 63 } else { 0 };
            for x in out.iter_mut() {
                *x = (*x & clear) ^ flip;
            }
        }
    }

    /// Applies a DPP lane transform to `vals` (src0 of every lane, already read).
    fn dpp(&self, d: Dpp, vals: &mut Lanes32) {
        let src = *vals;
        let n = self.lanes;
        let exec = self.exec();
        match d {
            Dpp::Dpp8 { sel, .. } => {
                for l in 0..n {
                    let s = (l & !7) | ((sel >> (3 * (l & 7))) & 7) as usize;
                    vals[l] = src[s];
                }
            }
            Dpp::Dpp16 { ctrl, bound_ctrl, fi, .. } => {
                for l in 0..n {
                    let s = dpp16_source(ctrl, l, n, self.family);
                    vals[l] = match s {
                        Some(s) if s < n && (fi || exec >> s & 1 != 0) => src[s],
                        // An invalid or disabled source lane reads 0 with bound_ctrl, else the lane's write
                        // is disabled (handled by `dpp_write_mask`); either way 0 is a safe value here.
                        _ => {
                            let _ = bound_ctrl;
                            0
                        }
                    };
                }
            }
        }
    }

    /// Lanes whose DPP16 write stays enabled: row/bank masks, and lanes whose source was invalid without
    /// `bound_ctrl`.
    pub(crate) fn dpp_write_mask(&self, i: &Inst) -> u64 {
        let Extra::Dpp(Dpp::Dpp16 { ctrl, row_mask, bank_mask, bound_ctrl, fi }) = i.extra else {
            return u64::MAX;
        };
        let exec = self.exec();
        let mut m = 0u64;
        for l in 0..self.lanes {
            let row = l / 16;
            let bank = (l % 16) / 4;
            if row_mask >> row & 1 == 0 || bank_mask >> bank & 1 == 0 {
                continue;
            }
            let valid = matches!(dpp16_source(ctrl, l, self.lanes, self.family), Some(s) if s < self.lanes && (fi || exec >> s & 1 != 0));
            if valid || bound_ctrl {
                m |= 1 << l;
            }
        }
        m
    }

    /// Writes 32-bit lanes to VGPR operand `dst` under `mask` (EXEC and DPP/SDWA rules applied by callers
    /// through [`Wave::vmask`]).
    #[inline]
    pub(crate) fn write32(&mut self, dst: u16, mask: u64, vals: &Lanes32) {
        let row = (dst - VGPR0) as usize;
        let r = &mut self.v[row * MAX_LANES..(row + 1) * MAX_LANES];
        if mask == u64::MAX || (self.lanes == 32 && mask as u32 == u32::MAX) {
            r[..self.lanes].copy_from_slice(&vals[..self.lanes]);
        } else {
            for l in 0..self.lanes {
                if mask >> l & 1 != 0 {
                    r[l] = vals[l];
                }
            }
        }
    }

    /// Writes 64-bit lanes to the VGPR pair at `dst` under `mask`.
    #[inline]
    pub(crate) fn write64(&mut self, dst: u16, mask: u64, vals: &Lanes64) {
        let row = (dst - VGPR0) as usize;
        let (full, lanes) = (self.full(), self.lanes);
        let (lo, hi) = self.v[row * MAX_LANES..][..2 * MAX_LANES].split_at_mut(MAX_LANES);
        let lo: &mut [u32; MAX_LANES] = lo.try_into().expect("a row");
        let hi: &mut [u32; MAX_LANES] = hi.try_into().expect("a row");
        if mask & full == full {
            // Every lane of the wave: no per-lane mask test (lanes past a wave32's 32 are never read).
            for l in 0..MAX_LANES {
                lo[l] = vals[l] as u32;
                hi[l] = (vals[l] >> 32) as u32;
            }
        } else {
            for l in 0..lanes {
                if mask >> l & 1 != 0 {
                    lo[l] = vals[l] as u32;
                    hi[l] = (vals[l] >> 32) as u32;
                }
            }
        }
    }

    /// The write mask of a VALU instruction: EXEC, narrowed by DPP row/bank masks.
    #[inline]
    pub(crate) fn vmask(&self, i: &Inst) -> u64 {
        let m = self.exec();
        if matches!(i.extra, Extra::Dpp(Dpp::Dpp16 { .. })) {
            m & self.dpp_write_mask(i)
        } else {
            m
        }
    }

    /// A 16-bit VGPR operand of a VOP1/VOP2/VOPC instruction (and their DPP forms) on gfx11 and later: a
    /// register field of 128 or more names the high half of VGPR `field - 128` (the RDNA3/RDNA4 ISA's
    /// 16-bit VGPR addressing, LLVM's `vN.h`; `vN.l` is the field `N`). Returns the register code to use and
    /// whether the high half is meant; VOP3 selects halves with `op_sel` instead.
    #[inline]
    pub(crate) fn half16(&self, i: &Inst, code: u16) -> (u16, bool) {
        use crate::table::Enc;
        if self.family >= Family::Gfx11
            && matches!(i.enc, Enc::Vop1 | Enc::Vop2 | Enc::Vopc)
            && code >= VGPR0 + 128
            && code != NONE
        {
            (code - 128, true)
        } else {
            (code, false)
        }
    }

    /// Writes a 32-bit VALU result, applying SDWA's destination select.
    pub(crate) fn write_result32(&mut self, i: &Inst, vals: &mut Lanes32) {
        let mask = self.vmask(i);
        if let Extra::Sdwa(s) = i.extra {
            if s.dst_sel != 6 {
                let row = (i.dst - VGPR0) as usize;
                for l in 0..self.lanes {
                    let old = self.vr(row, l);
                    vals[l] = sdwa_place(old, vals[l], s.dst_sel, s.dst_unused);
                }
            }
        }
        self.write32(i.dst, mask, vals);
    }

    /// Writes a 16-bit VALU result into the low or high half of the destination. gfx9 zeroes the other half
    /// unless the result goes to the high half; gfx10+ preserve it.
    pub(crate) fn write_result16(&mut self, i: &Inst, vals: &Lanes32) {
        let (dst, half_hi) = self.half16(i, i.dst);
        if half_hi {
            let mut j = i.clone_without_y();
            j.dst = dst;
            j.mods.opsel |= 8;
            return self.write_result16(&j, vals);
        }
        let hi = i.mods.opsel & 8 != 0;
        let keep = self.family >= Family::Gfx10 || hi;
        let row = (i.dst - VGPR0) as usize;
        let mut out = [0u32; MAX_LANES];
        for l in 0..self.lanes {
            let old = if keep { self.vr(row, l) } else { 0 };
            let v = vals[l] & 0xffff;
            out[l] = if hi { (old & 0xffff) | (v << 16) } else { (old & 0xffff_0000) | v };
        }
        self.write_result32(i, &mut out);
    }

    /// Translates a flat private-aperture or scratch offset for lane `l` into this wave's private memory,
    /// which is allocated (zeroed) at the first access: most kernels never touch it, and a dispatch packet
    /// may declare far more than a kernel uses.
    pub(crate) fn private_range(&mut self, offset: u64, lane: usize, len: usize) -> Option<usize> {
        let per = u64::from(self.private_bytes);
        if offset.checked_add(len as u64)? > per {
            return None;
        }
        if self.private.is_empty() {
            let total = per.checked_mul(self.lanes as u64)?;
            if total > MAX_PRIVATE_BYTES {
                return None;
            }
            self.private = vec![0; total as usize];
        }
        Some((lane as u64 * per + offset) as usize)
    }

    /// Whether `addr` lies in the LDS aperture.
    #[inline]
    pub(crate) fn in_shared(addr: u64) -> bool {
        (SHARED_APERTURE..SHARED_APERTURE + APERTURE_SIZE).contains(&addr)
    }

    /// Whether `addr` lies in the private aperture.
    #[inline]
    pub(crate) fn in_private(addr: u64) -> bool {
        (PRIVATE_APERTURE..PRIVATE_APERTURE + APERTURE_SIZE).contains(&addr)
    }
}

/// The source lane of DPP16 control `ctrl` for lane `l` (`None`: no valid source).
fn dpp16_source(ctrl: u16, l: usize, n: usize, family: Family) -> Option<usize> {
    let row_base = l & !15;
    let in_row = l & 15;
    let c = ctrl as usize;
    match c {
        0x000..=0x0ff => Some((l & !3) | ((c >> (2 * (l & 3))) & 3)),
        0x101..=0x10f => {
            // row_shl: lane reads lane + n of its row.
            let s = in_row + (c - 0x100);
            (s < 16).then_some(row_base + s)
        }
        0x111..=0x11f => {
            let sh = c - 0x110;
            (in_row >= sh).then(|| row_base + in_row - sh)
        }
        0x121..=0x12f => Some(row_base + ((in_row + 16 - (c - 0x120)) & 15)),
        0x130 if family == Family::Gfx9 => (l + 1 < n).then_some(l + 1), // wave_shl1
        0x134 if family == Family::Gfx9 => Some((l + 1) % n),            // wave_rol1
        0x138 if family == Family::Gfx9 => l.checked_sub(1),             // wave_shr1
        0x13c if family == Family::Gfx9 => Some((l + n - 1) % n),        // wave_ror1
        0x140 => Some(row_base + 15 - in_row),                           // row_mirror
        0x141 => Some(row_base + (in_row & 8) + 7 - (in_row & 7)),       // row_half_mirror
        0x142 if family == Family::Gfx9 => {
            // row_bcast:15: lane 15 of the previous row into rows 1..3.
            (row_base >= 16).then(|| row_base - 1)
        }
        0x143 if family == Family::Gfx9 => (l >= 32).then_some(31), // row_bcast:31
        0x150..=0x15f if family != Family::Gfx9 => Some(row_base + (c & 15)), // row_share
        0x160..=0x16f if family != Family::Gfx9 => Some(row_base + ((c & 15) ^ in_row)), // row_xmask
        _ => None,
    }
}

/// SDWA source select: bytes 0..3 (sel 0..3), words 0..1 (4, 5), dword (6).
#[inline]
fn sdwa_select(v: u32, sel: u8, sext: bool) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * sel as u32, 8),
        4 | 5 => (16 * (sel as u32 - 4), 16),
        _ => return v,
    };
    let x = (v >> shift) & ((1 << bits) - 1);
    if sext {
        (((x << (32 - bits)) as i32) >> (32 - bits)) as u32
    } else {
        x
    }
}

/// SDWA destination placement: the result's low bits go to the selected byte/word; the other bits are
/// zero (unused 0), sign-extended (1) or preserved (2).
#[inline]
fn sdwa_place(old: u32, v: u32, sel: u8, unused: u8) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * sel as u32, 8),
        4 | 5 => (16 * (sel as u32 - 4), 16),
        _ => return v,
    };
    let field = ((1u64 << bits) - 1) as u32;
    let x = v & field;
    match unused {
        2 => (old & !(field << shift)) | (x << shift),
        1 => {
            let s = (((x << (32 - bits)) as i32) >> (32 - bits)) as u32;
            // Sign-extend upwards, zero below the field.
            (s << shift) & !((1u32 << shift) - 1)
        }
        _ => x << shift,
    }
}
