//! A small x86-64 code emitter for the host code of VALU blocks (`valu_jit`): the 256-bit AVX2/FMA
//! instructions the blocks need, in their VEX encodings (Intel SDM vol. 2, section 2.3), register or
//! `[rdi|rsi + disp32]` memory operands, and the few scalar instructions of the chunk loop; plus
//! [`Code`], executable memory holding finished code (written while writable, then made executable and
//! never written again).

/// A `ymm` register, 0..=15.
pub(crate) type Ymm = u8;

/// A pointer register for memory operands: the first two integer arguments of the System V ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Base {
    Rsi = 6,
    Rdi = 7,
}

/// The `r/m` operand of an instruction: a register or `[base + disp]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rm {
    Y(Ymm),
    M(Base, i32),
}

/// The VEX `pp` field: the implied legacy prefix.
#[derive(Clone, Copy)]
enum Pp {
    None = 0,
    P66 = 1,
}

/// The VEX `mmmmm` field: the implied opcode map.
#[derive(Clone, Copy)]
enum Map {
    M0f = 1,
    M0f38 = 2,
    M0f3a = 3,
}

/// `vcmpps` predicates (the AVX forms' 5-bit immediates).
pub(crate) mod cmp {
    pub(crate) const EQ_OQ: u8 = 0x00;
    pub(crate) const UNORD_Q: u8 = 0x03;
    pub(crate) const LT_OQ: u8 = 0x11;
    pub(crate) const GT_OQ: u8 = 0x1e;
}

/// Two-source 256-bit operations `d = op(a, b)` (`a` in VEX.vvvv, `b` the `r/m` operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum V3 {
    Addps,
    Subps,
    Mulps,
    Andps,
    /// `!a & b`.
    Andnps,
    Orps,
    Paddd,
    Psubd,
    Pand,
    /// `!a & b`.
    Pandn,
    Por,
    Pxor,
    Pmulld,
    Pminud,
    Pmaxud,
    Pminsd,
    Pmaxsd,
    /// `a << b` per lane (0 for counts above 31).
    Psllvd,
    /// `a >> b` per lane, logical.
    Psrlvd,
    /// `a >> b` per lane, arithmetic.
    Psravd,
}

impl V3 {
    fn encoding(self) -> (Pp, Map, u8) {
        use Map::*;
        use Pp::*;
        match self {
            V3::Addps => (None, M0f, 0x58),
            V3::Subps => (None, M0f, 0x5c),
            V3::Mulps => (None, M0f, 0x59),
            V3::Andps => (None, M0f, 0x54),
            V3::Andnps => (None, M0f, 0x55),
            V3::Orps => (None, M0f, 0x56),
            V3::Paddd => (P66, M0f, 0xfe),
            V3::Psubd => (P66, M0f, 0xfa),
            V3::Pand => (P66, M0f, 0xdb),
            V3::Pandn => (P66, M0f, 0xdf),
            V3::Por => (P66, M0f, 0xeb),
            V3::Pxor => (P66, M0f, 0xef),
            V3::Pmulld => (P66, M0f38, 0x40),
            V3::Pminud => (P66, M0f38, 0x3b),
            V3::Pmaxud => (P66, M0f38, 0x3f),
            V3::Pminsd => (P66, M0f38, 0x39),
            V3::Pmaxsd => (P66, M0f38, 0x3d),
            V3::Psllvd => (P66, M0f38, 0x47),
            V3::Psrlvd => (P66, M0f38, 0x45),
            V3::Psravd => (P66, M0f38, 0x46),
        }
    }
}

/// Machine code being written.
#[derive(Default)]
pub(crate) struct Asm {
    pub(crate) bytes: Vec<u8>,
}

impl Asm {
    /// A 256-bit VEX instruction (three-byte form, `L` = 1): `reg` the ModRM.reg field, `vvvv` the extra
    /// source (0 when unused), `rm` the ModRM.r/m operand.
    fn vex(&mut self, pp: Pp, map: Map, op: u8, reg: u8, vvvv: u8, rm: Rm) {
        let (b, modrm) = match rm {
            Rm::Y(r) => (r >> 3, 0xc0 | (r & 7)),
            Rm::M(base, _) => (0, 0x80 | base as u8),
        };
        let r = reg >> 3;
        self.bytes.extend_from_slice(&[
            0xc4,
            ((r ^ 1) << 7) | (1 << 6) | ((b ^ 1) << 5) | map as u8,
            ((!vvvv & 15) << 3) | (1 << 2) | pp as u8,
            op,
            modrm | ((reg & 7) << 3),
        ]);
        if let Rm::M(_, d) = rm {
            self.bytes.extend_from_slice(&d.to_le_bytes());
        }
    }

    /// `vmovups d, m`.
    pub(crate) fn load(&mut self, d: Ymm, m: Rm) {
        self.vex(Pp::None, Map::M0f, 0x10, d, 0, m);
    }

    /// `vmovups m, s`.
    pub(crate) fn store(&mut self, m: Rm, s: Ymm) {
        self.vex(Pp::None, Map::M0f, 0x11, s, 0, m);
    }

    /// `vmovaps d, s`.
    pub(crate) fn mov(&mut self, d: Ymm, s: Ymm) {
        self.vex(Pp::None, Map::M0f, 0x28, d, 0, Rm::Y(s));
    }

    /// `d = op(a, b)`.
    pub(crate) fn v3(&mut self, op: V3, d: Ymm, a: Ymm, b: Ymm) {
        let (pp, map, code) = op.encoding();
        self.vex(pp, map, code, d, a, Rm::Y(b));
    }

    /// `vfmadd231ps d, a, b`: `d = a * b + d`, rounded once.
    pub(crate) fn fmadd231(&mut self, d: Ymm, a: Ymm, b: Ymm) {
        self.vex(Pp::P66, Map::M0f38, 0xb8, d, a, Rm::Y(b));
    }

    /// `vcmpps d, a, b, pred`: all ones in the lanes where `a pred b`.
    pub(crate) fn cmpps(&mut self, d: Ymm, a: Ymm, b: Ymm, pred: u8) {
        self.vex(Pp::None, Map::M0f, 0xc2, d, a, Rm::Y(b));
        self.bytes.push(pred);
    }

    /// `vblendvps d, a, b, mask`: `b` in the lanes whose `mask` sign bit is set, `a` in the others.
    pub(crate) fn blendvps(&mut self, d: Ymm, a: Ymm, b: Ymm, mask: Ymm) {
        self.vex(Pp::P66, Map::M0f3a, 0x4a, d, a, Rm::Y(b));
        self.bytes.push(mask << 4);
    }

    /// `vcvtdq2ps d, s`: signed integers to floats, rounded to nearest even (MXCSR's default).
    pub(crate) fn cvtdq2ps(&mut self, d: Ymm, s: Ymm) {
        self.vex(Pp::None, Map::M0f, 0x5b, d, 0, Rm::Y(s));
    }

    /// `vpsrld d, s, n`: every lane shifted right (logical) by `n`.
    pub(crate) fn psrld(&mut self, d: Ymm, s: Ymm, n: u8) {
        self.vex(Pp::P66, Map::M0f, 0x72, 2, d, Rm::Y(s));
        self.bytes.push(n);
    }

    /// `add rdi, n` / `add rsi, n`.
    pub(crate) fn add_ptr(&mut self, base: Base, n: i8) {
        self.bytes.extend_from_slice(&[0x48, 0x83, 0xc0 | base as u8, n as u8]);
    }

    /// `dec edx`.
    pub(crate) fn dec_edx(&mut self) {
        self.bytes.extend_from_slice(&[0xff, 0xca]);
    }

    /// `jnz` to the byte offset `target` (a 32-bit displacement).
    pub(crate) fn jnz(&mut self, target: usize) {
        let after = self.bytes.len() + 6;
        let rel = i32::try_from(target as i64 - after as i64).expect("code far smaller than 2 GiB");
        self.bytes.extend_from_slice(&[0x0f, 0x85]);
        self.bytes.extend_from_slice(&rel.to_le_bytes());
    }

    /// `vzeroupper; ret`.
    pub(crate) fn vzeroupper_ret(&mut self) {
        self.bytes.extend_from_slice(&[0xc5, 0xf8, 0x77, 0xc3]);
    }
}

/// Finished machine code in its own executable mapping (read and execute, never writable once made),
/// unmapped when dropped.
pub(crate) struct Code {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the mapping is never written after `Code::new` returns; sharing or moving its address between
// threads is sharing immutable bytes.
#[allow(unsafe_code)]
unsafe impl Send for Code {}
// SAFETY: as for `Send`.
#[allow(unsafe_code)]
unsafe impl Sync for Code {}

impl Code {
    /// Maps `bytes` as executable code: `None` when the host refuses (no memory, or a policy against
    /// executable mappings); the caller then interprets instead.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    pub(crate) fn new(bytes: &[u8]) -> Option<Code> {
        let len = bytes.len().div_ceil(4096).max(1) * 4096;
        // SAFETY: an anonymous private mapping of `len` bytes; every argument is valid for `mmap`.
        #[allow(unsafe_code)]
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        let code = Code { ptr: ptr.cast(), len };
        // SAFETY: the mapping is `len >= bytes.len()` bytes, writable, and nothing else refers to it yet.
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), code.ptr, bytes.len())
        };
        // SAFETY: `code.ptr`/`len` are the mapping made above (page-aligned, whole pages).
        #[allow(unsafe_code)]
        let rc = unsafe { libc::mprotect(ptr, len, libc::PROT_READ | libc::PROT_EXEC) };
        // On failure `code` is dropped here, which unmaps it.
        (rc == 0).then_some(code)
    }

    /// Not on this host: always interpret.
    #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
    pub(crate) fn new(_bytes: &[u8]) -> Option<Code> {
        None
    }

    /// The address of the code's first byte.
    pub(crate) fn entry(&self) -> *const u8 {
        self.ptr
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        // SAFETY: `ptr`/`len` are a mapping made by `Code::new` and owned by this value alone; whoever ran
        // the code has returned from it (it is only called through a borrow of its owner).
        #[allow(unsafe_code)]
        unsafe {
            libc::munmap(self.ptr.cast(), self.len);
        }
    }
}
