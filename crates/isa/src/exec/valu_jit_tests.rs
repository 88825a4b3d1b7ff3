//! The VALU blocks' host code: the emitter's bytes as LLVM's x86 disassembler reads them, and compiled
//! blocks against the table walker on long random blocks (more rows than registers, chains, destinations
//! that are sources, rows written twice, SGPRs and literals), wave64 and wave32. The table walker itself is
//! checked against the instructions' own handlers and the per-lane reference by `valu_block_tests`, which
//! also runs every block operation through the host code on this host.

use super::super::lanes::{Chosen, LaneKernels};
use super::super::valu_block::{Block, BLOCK_OPS};
use super::super::valu_tests::{inst, Rng};
use super::super::x86::{cmp, Asm, Base, Rm, V3};
use super::extra_consts;
use crate::decode::{Inst, VGPR0};
use crate::op::VOp;
use crate::operand::LITERAL;
use crate::stats::WaveStats;
use crate::target::TARGETS;
use crate::wave::{Wave, MAX_LANES};
use std::process::Command;

/// What `llvm-mc-19` disassembles `bytes` to (Intel syntax, one instruction per line, comments cut);
/// `None` (after `skip_or_fail`) when it is not installed.
fn disassemble(bytes: &[u8]) -> Option<Vec<String>> {
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
    let mut child = match Command::new("llvm-mc-19")
        .args(["--disassemble", "-triple=x86_64", "--output-asm-variant=1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(_) => {
            rocprof_test_inputs::skip_or_fail("x86 encodings", "llvm-mc-19 not found (Debian package llvm-19)");
            return None;
        }
    };
    use std::io::Write;
    child.stdin.take().unwrap().write_all(hex.join(" ").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("invalid"), "llvm-mc-19: {err}");
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split('#').next().unwrap().split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty() && !l.starts_with('.'))
            .collect(),
    )
}

#[test]
fn x86_encodings_disassemble_to_the_instructions_meant() {
    let mut a = Asm::default();
    let mut want: Vec<&str> = Vec::new();
    let mut at = |a: &mut Asm, f: &dyn Fn(&mut Asm), text: &'static str| {
        f(a);
        want.push(text);
    };
    at(&mut a, &|a| a.load(3, Rm::M(Base::Rdi, 2560)), "vmovups ymm3, ymmword ptr [rdi + 2560]");
    at(&mut a, &|a| a.load(12, Rm::M(Base::Rsi, 0)), "vmovups ymm12, ymmword ptr [rsi]");
    at(&mut a, &|a| a.store(Rm::M(Base::Rdi, 132_096), 9), "vmovups ymmword ptr [rdi + 132096], ymm9");
    at(&mut a, &|a| a.mov(13, 2), "vmovaps ymm13, ymm2");
    at(&mut a, &|a| a.mov(1, 14), "vmovaps ymm1, ymm14");
    let ops: [(V3, &str); 20] = [
        (V3::Addps, "vaddps"),
        (V3::Subps, "vsubps"),
        (V3::Mulps, "vmulps"),
        (V3::Andps, "vandps"),
        (V3::Andnps, "vandnps"),
        (V3::Orps, "vorps"),
        (V3::Paddd, "vpaddd"),
        (V3::Psubd, "vpsubd"),
        (V3::Pand, "vpand"),
        (V3::Pandn, "vpandn"),
        (V3::Por, "vpor"),
        (V3::Pxor, "vpxor"),
        (V3::Pmulld, "vpmulld"),
        (V3::Pminud, "vpminud"),
        (V3::Pmaxud, "vpmaxud"),
        (V3::Pminsd, "vpminsd"),
        (V3::Pmaxsd, "vpmaxsd"),
        (V3::Psllvd, "vpsllvd"),
        (V3::Psrlvd, "vpsrlvd"),
        (V3::Psravd, "vpsravd"),
    ];
    let mut texts = Vec::new();
    for (k, &(op, name)) in ops.iter().enumerate() {
        // Registers on both sides of 8 in every field.
        let (d, x, y) = ((k * 5 % 16) as u8, (k * 7 % 16) as u8, (15 - k % 16) as u8);
        a.v3(op, d, x, y);
        texts.push(format!("{name} ymm{d}, ymm{x}, ymm{y}"));
    }
    a.fmadd231(13, 0, 12);
    texts.push("vfmadd231ps ymm13, ymm0, ymm12".into());
    for (pred, name) in [
        (cmp::EQ_OQ, "vcmpeqps"),
        (cmp::UNORD_Q, "vcmpunordps"),
        (cmp::LT_OQ, "vcmplt_oqps"),
        (cmp::GT_OQ, "vcmpgt_oqps"),
    ] {
        a.cmpps(14, 9, 3, pred);
        texts.push(format!("{name} ymm14, ymm9, ymm3"));
    }
    a.blendvps(15, 1, 10, 13);
    texts.push("vblendvps ymm15, ymm1, ymm10, ymm13".into());
    a.cvtdq2ps(2, 11);
    texts.push("vcvtdq2ps ymm2, ymm11".into());
    a.psrld(8, 4, 16);
    texts.push("vpsrld ymm8, ymm4, 16".into());
    a.add_ptr(Base::Rdi, 32);
    texts.push("add rdi, 32".into());
    a.add_ptr(Base::Rsi, 32);
    texts.push("add rsi, 32".into());
    a.dec_edx();
    texts.push("dec edx".into());
    let Some(got) = disassemble(&a.bytes) else { return };
    let want: Vec<String> = want.iter().map(|s| s.to_string()).chain(texts).collect();
    assert_eq!(got, want);
    // The loop's branch back and the return.
    let mut b = Asm::default();
    b.dec_edx();
    b.jnz(0);
    b.vzeroupper_ret();
    let Some(got) = disassemble(&b.bytes) else { return };
    // `jne` to the start: 2 bytes of `dec` and 6 of `jne` back.
    assert_eq!(got, ["dec edx", "jne -8", "vzeroupper", "ret"]);
}

/// The block operations the host code covers.
fn covered() -> Vec<VOp> {
    let probe = |op: VOp| {
        let i = inst("gfx90a", op, VGPR0 + 1, [VGPR0 + 2, VGPR0 + 3, VGPR0 + 4], 0);
        let seq = [&i, &i];
        let b = Block::build_with(&seq, Chosen::new(LaneKernels::Avx2), 64, true);
        b.len() == 1 && b[0].1.has_host_code()
    };
    BLOCK_OPS.iter().copied().filter(|&op| probe(op)).collect()
}

/// A source operand code: one of 20 VGPRs (more than the host code's 13 row registers), one of three
/// SGPRs, or the literal.
fn source(rng: &mut Rng) -> u16 {
    match rng.next() % 10 {
        0 => [8, 9, 20][(rng.next() % 3) as usize],
        1 => LITERAL,
        _ => VGPR0 + 1 + (rng.next() % 20) as u16,
    }
}

fn run_block(b: &Block, w: &mut Wave) -> u64 {
    let mut stats = WaveStats::default();
    assert!(b.run(w, &mut stats), "a full EXEC runs the block");
    stats.valu_active_lanes
}

/// Where the host code's registers differ from the table walker's after running the blocks of `seq` on
/// `w` (a NaN where the other has a NaN counts as equal; a payload that flows on into integer operations
/// must be the same, so the host code propagates NaNs in the table walker's order).
fn difference(seq: &[&Inst], k: Chosen, lanes: usize, w: &Wave) -> Option<String> {
    let walker = Block::build_with(seq, k, lanes, false);
    let host = Block::build_with(seq, k, lanes, true);
    let parts = |v: &[(usize, Block)]| v.iter().map(|(at, b)| (*at, b.len())).collect::<Vec<_>>();
    assert_eq!(parts(&walker), parts(&host), "the same blocks");
    let (mut got, mut want) = (w.clone(), w.clone());
    for ((_, h), (_, t)) in host.iter().zip(&walker) {
        assert!(h.has_host_code() && !t.has_host_code());
        assert_eq!(run_block(h, &mut got), run_block(t, &mut want), "active lanes");
    }
    assert_eq!(got.s, want.s, "SGPRs");
    let nan = |v: u32| v & 0x7f80_0000 == 0x7f80_0000 && v & 0x007f_ffff != 0;
    for r in 0..32 {
        for l in 0..lanes {
            let (g, x) = (got.vr(r, l), want.vr(r, l));
            if !(g == x || (nan(g) && nan(x))) {
                return Some(format!("v{r} lane {l}: host code {g:#x}, table walker {x:#x}"));
            }
        }
    }
    None
}

#[test]
fn host_code_gives_the_table_walkers_registers_on_long_random_blocks() {
    // The host code needs AVX2 and FMA.
    let k = Chosen::new(LaneKernels::Avx2);
    if k == Chosen::Base {
        eprintln!("SKIP host code: this host has no AVX2/FMA (the blocks run the table walker)");
        return;
    }
    let ops = covered();
    // Everything but the multiply-highs, signed 24-bit multiplies, bit-field extracts and float-to-integer
    // conversions.
    assert_eq!(ops.len(), BLOCK_OPS.len() - 8, "covered: {ops:?}");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for (target, lanes) in [("gfx90a", 64), ("gfx1030", 32)] {
        let family = TARGETS.iter().find(|t| t.name == target).unwrap().family;
        for round in 0..150 {
            let len = 2 + (rng.next() % 60) as usize;
            let insts: Vec<Inst> = (0..len)
                .map(|_| {
                    let op = ops[(rng.next() % ops.len() as u64) as usize];
                    let dst = VGPR0 + 1 + (rng.next() % 20) as u16;
                    let mut src = [source(&mut rng), source(&mut rng), source(&mut rng)];
                    // One literal per instruction: the others become VGPRs.
                    if let Some(p) = src.iter().position(|&s| s == LITERAL) {
                        for s in &mut src[p + 1..] {
                            if *s == LITERAL {
                                *s = VGPR0 + 5;
                            }
                        }
                    }
                    inst(target, op, dst, src, rng.value())
                })
                .collect();
            assert!(insts.iter().all(super::super::valu_block::blockable), "round {round}");
            let seq: Vec<&Inst> = insts.iter().collect();
            let mut w = Wave::new(family, lanes, 0);
            for r in 0..32 {
                for l in 0..MAX_LANES {
                    w.set_vr(r, l, rng.value());
                }
            }
            for s in [8u16, 9, 20] {
                w.set_s(s, rng.value());
            }
            w.set_exec(u64::MAX >> (64 - lanes));
            if let Some(d) = difference(&seq, k, lanes, &w) {
                // The shortest prefix of the block that differs names the instruction.
                let first = (2..=seq.len()).find(|&n| difference(&seq[..n], k, lanes, &w).is_some()).unwrap_or(1);
                let i = seq[first - 1];
                panic!(
                    "{target} round {round}: {d}; first at instruction {} {:?} dst {} sources {:?}",
                    first - 1,
                    i.op,
                    i.dst,
                    i.pre.src
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 300);
}

#[test]
fn a_block_with_an_operation_without_host_code_runs_the_table_walker() {
    let k = Chosen::new(LaneKernels::Avx2);
    for op in [VOp::MulHiU32, VOp::BfeU32, VOp::CvtI32F32] {
        assert!(BLOCK_OPS.contains(&op) && extra_consts(super::super::valu_block::kind_for_tests(op)).is_none());
        let a = inst("gfx90a", VOp::AddU32, VGPR0 + 1, [VGPR0 + 2, VGPR0 + 3, VGPR0 + 4], 0);
        let b = inst("gfx90a", op, VGPR0 + 5, [VGPR0 + 1, VGPR0 + 3, VGPR0 + 4], 0);
        let blocks = Block::build_with(&[&a, &b], k, 64, true);
        assert_eq!(blocks.len(), 1, "{op:?}");
        assert!(!blocks[0].1.has_host_code(), "{op:?}");
        // ... and still runs: v1 = v2 + v3 in every lane.
        let mut w = Wave::new(crate::target::Family::Gfx9, 64, 0);
        for l in 0..64 {
            w.set_vr(2, l, l as u32);
            w.set_vr(3, l, 1000);
        }
        w.set_exec(u64::MAX);
        assert_eq!(run_block(&blocks[0].1, &mut w), 128);
        assert!((0..64).all(|l| w.vr(1, l) == l as u32 + 1000), "{op:?}");
    }
}
