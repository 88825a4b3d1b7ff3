//! `cargo xtask codegen-isa [--check] [--llvm-mc CMD]`: generates `crates/isa/tables/<target>.txt`, the
//! opcode tables `rocprof-isa` decodes with, by asking LLVM's AMDGPU disassembler what every opcode of
//! every encoding is on each target: LLVM 21's `llvm-mc` from the sid chroot (`cargo xtask sid`) unless
//! `--llvm-mc` names another command line.
//!
//! Only facts are carried over: for each (encoding, opcode) the mnemonic LLVM prints (without its
//! `_e32`/`_e64`/`_sdwa`/`_dpp` encoding suffix) and the size LLVM gave the instruction when all its
//! operands are registers, so a size above the encoding's own says the instruction always carries a
//! literal (`v_fmaak_f32`, `s_setreg_imm32_b32`). Semantics are ours, keyed by those mnemonics.
//!
//! How the sweep works: for each opcode, a candidate instruction with register operands (`s0`, `v0`,
//! no literal) is followed by an `s_nop 0` (which a candidate needing a literal swallows) and a marker
//! `s_movk_i32 s0, 0x8000+index` (SOPK opcode 0 on every family), all in one `llvm-mc -disassemble`
//! run per encoding. The text between two markers belongs to one candidate; it counts only when the
//! re-encoded first dword carries the candidate's encoding and opcode bits (an invalid candidate makes
//! LLVM skip a dword and decode the rest as something else).
//!
//! Encodings not swept (no table, the decoder reports them undecodable): MIMG/VIMAGE/VSAMPLE, EXP,
//! VINTERP, LDSDIR; compute kernels of the simulated targets do not use them (images are decoded by
//! `rocprof_isa::image`). gfx12's typed buffer accesses (`tbuffer_*`) share VBUFFER with MUBUF.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

/// Where the generated tables live, relative to the repository root.
pub(crate) const OUTPUT_DIR: &str = "crates/isa/tables";

const NOP: u32 = 0xbf80_0000;

/// The chroot `cargo xtask sid` builds unless `ROCPROF_RS_SID_ROOT` says otherwise.
const DEFAULT_SID_ROOT: &str = "/var/cache/rocprof-rs/sid";

/// LLVM 21's `llvm-mc` in the Debian sid chroot, run through the chroot's own dynamic loader and
/// libraries (no root, no mounts): the disassembler asked when `--llvm-mc` is not given. LLVM 21 is what
/// hipcc 7 (clang-21) assembles with, knows gfx950, and corrects LLVM 19's decoding of a few opcodes
/// (gfx942 `buffer_wbinvl1`, gfx11 `buffer_load_lds_*`, gfx12 named barriers are not those targets').
fn default_llvm_mc() -> Result<Vec<String>> {
    let root = std::env::var(rocprof_launch::names::SID_ROOT)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or(DEFAULT_SID_ROOT.into());
    let mc = format!("{root}/usr/lib/llvm-21/bin/llvm-mc");
    if !std::path::Path::new(&mc).is_file() {
        bail!("{mc} not found: build the sid chroot (`cargo xtask sid`, or set ROCPROF_RS_SID_ROOT) or pass --llvm-mc CMD");
    }
    Ok(vec![
        format!("{root}/lib64/ld-linux-x86-64.so.2"),
        "--library-path".into(),
        format!("{root}/usr/lib/x86_64-linux-gnu:{root}/lib/x86_64-linux-gnu"),
        mc,
    ])
}

/// One encoding to sweep: its name in the table, the opcode count, the candidate for an opcode and the
/// dword-0 bits that must survive LLVM's re-encoding (encoding selector and opcode).
struct Enc {
    name: &'static str,
    ops: u32,
    make: fn(u32) -> Vec<u32>,
    mask: u32,
}

fn family(target: &str) -> u32 {
    match target {
        t if t.starts_with("gfx9") => 9,
        t if t.starts_with("gfx10") => 10,
        t if t.starts_with("gfx11") => 11,
        _ => 12,
    }
}

/// Three VGPR sources (v0) for the second dword of VOP3/VOP3P, with op_sel_hi set for VOP3P's defaults.
const VOP3_SRCS: u32 = 0x100 | (0x100 << 9) | (0x100 << 18);
/// Two sources (LLVM rejects a VOP3-encoded VOP2/VOPC with a third source).
const VOP3_SRCS_2: u32 = 0x100 | (0x100 << 9);
/// One source (VOP3-encoded VOP1).
const VOP3_SRCS_1: u32 = 0x100;

fn encodings(fam: u32) -> Vec<Enc> {
    let mut v = vec![
        // SOP2 opcodes 0x60.. and SOPK opcodes 0x1d.. are the encoding bits of SOPK and SOP1/SOPC/SOPP.
        Enc { name: "sop2", ops: 0x60, make: |op| vec![0x8000_0000 | (op << 23)], mask: 0xff80_0000 },
        Enc { name: "sopk", ops: 0x1d, make: |op| vec![0xb000_0000 | (op << 23)], mask: 0xff80_0000 },
        Enc { name: "sop1", ops: 256, make: |op| vec![0xbe80_0000 | (op << 8)], mask: 0xff80_ff00 },
        Enc { name: "sopc", ops: 128, make: |op| vec![0xbf00_0000 | (op << 16)], mask: 0xffff_0000 },
        Enc { name: "sopp", ops: 128, make: |op| vec![0xbf80_0000 | (op << 16)], mask: 0xffff_0000 },
        Enc { name: "vop2", ops: 62, make: |op| vec![(op << 25) | 0x100], mask: 0xfe00_0000 },
        Enc { name: "vop1", ops: 256, make: |op| vec![0x7e00_0000 | (op << 9) | 0x100], mask: 0xfe01_fe00 },
        Enc { name: "vopc", ops: 256, make: |op| vec![0x7c00_0000 | (op << 17) | 0x100], mask: 0xfffe_0000 },
    ];
    match fam {
        9 => v.extend([
            Enc { name: "smem", ops: 256, make: |op| vec![0xc002_0000 | (op << 18), 0], mask: 0xfffc_0000 },
            // gfx9 VOP3 opcodes 0x380.. are the VOP3P encoding (0xd38 = VOP3 with opcode bits 9:7 set).
            Enc { name: "vop3", ops: 0x380, make: |op| vec![0xd000_0000 | (op << 16), VOP3_SRCS], mask: 0xfdff_0000 },
            Enc { name: "vop3", ops: 0x380, make: |op| vec![0xd000_0000 | (op << 16), VOP3_SRCS_2], mask: 0xfdff_0000 },
            Enc { name: "vop3", ops: 0x380, make: |op| vec![0xd000_0000 | (op << 16), VOP3_SRCS_1], mask: 0xfdff_0000 },
            Enc {
                name: "vop3p",
                ops: 128,
                make: |op| vec![0xd380_0000 | (op << 16), VOP3_SRCS | (3 << 27)],
                mask: 0xffff_0000,
            },
            Enc {
                name: "vop3p",
                ops: 128,
                make: |op| vec![0xd380_0000 | (op << 16), VOP3_SRCS_2 | (3 << 27)],
                mask: 0xffff_0000,
            },
            // One source: v_accvgpr_read_b32 / v_accvgpr_write_b32.
            Enc {
                name: "vop3p",
                ops: 128,
                make: |op| vec![0xd380_0000 | (op << 16), VOP3_SRCS_1 | (3 << 27)],
                mask: 0xffff_0000,
            },
            Enc { name: "ds", ops: 256, make: |op| vec![0xd800_0000 | (op << 17), 0], mask: 0xfdff_0000 },
            Enc { name: "flat", ops: 128, make: |op| vec![0xdc00_0000 | (op << 18), 0], mask: 0xfdfc_c000 },
            Enc { name: "scratch", ops: 128, make: |op| vec![0xdc00_4000 | (op << 18), 0x7f << 16], mask: 0xfdfc_c000 },
            Enc { name: "global", ops: 128, make: |op| vec![0xdc00_8000 | (op << 18), 0x7f << 16], mask: 0xfdfc_c000 },
            Enc { name: "mubuf", ops: 128, make: |op| vec![0xe000_0000 | (op << 18), 0], mask: 0xfdfc_0000 },
            // MTBUF with DFMT 1 (8) and NFMT 0 (UNORM), a valid format.
            Enc { name: "mtbuf", ops: 16, make: |op| vec![0xe808_0000 | (op << 15), 0], mask: 0xfc07_8000 },
        ]),
        10 | 11 => {
            // gfx10's null SGPR is 125, gfx11's is 124 (m0 moved to 125).
            let (smem, flat, scratch, global) = if fam == 10 {
                (
                    Enc {
                        name: "smem",
                        ops: 256,
                        make: |op| vec![0xf400_0000 | (op << 18), 0x7d << 25],
                        mask: 0xfffc_0000,
                    },
                    Enc {
                        name: "flat",
                        ops: 128,
                        make: |op| vec![0xdc00_0000 | (op << 18), 0x7d << 16],
                        mask: 0xfdfc_c000,
                    },
                    Enc {
                        name: "scratch",
                        ops: 128,
                        make: |op| vec![0xdc00_4000 | (op << 18), 0x7d << 16],
                        mask: 0xfdfc_c000,
                    },
                    Enc {
                        name: "global",
                        ops: 128,
                        make: |op| vec![0xdc00_8000 | (op << 18), 0x7d << 16],
                        mask: 0xfdfc_c000,
                    },
                )
            } else {
                (
                    Enc {
                        name: "smem",
                        ops: 256,
                        make: |op| vec![0xf400_0000 | (op << 18), 0x7c << 25],
                        mask: 0xfffc_0000,
                    },
                    Enc {
                        name: "flat",
                        ops: 128,
                        make: |op| vec![0xdc00_0000 | (op << 18), 0x7c << 16],
                        mask: 0xfdff_0000,
                    },
                    Enc {
                        name: "scratch",
                        ops: 128,
                        make: |op| vec![0xdc01_0000 | (op << 18), 0x7c << 16],
                        mask: 0xfdff_0000,
                    },
                    Enc {
                        name: "global",
                        ops: 128,
                        make: |op| vec![0xdc02_0000 | (op << 18), 0x7c << 16],
                        mask: 0xfdff_0000,
                    },
                )
            };
            v.extend([
                smem,
                Enc {
                    name: "vop3",
                    ops: 1024,
                    make: |op| vec![0xd400_0000 | (op << 16), VOP3_SRCS],
                    mask: 0xfdff_0000,
                },
                Enc {
                    name: "vop3",
                    ops: 1024,
                    make: |op| vec![0xd400_0000 | (op << 16), VOP3_SRCS_2],
                    mask: 0xfdff_0000,
                },
                Enc {
                    name: "vop3",
                    ops: 1024,
                    make: |op| vec![0xd400_0000 | (op << 16), VOP3_SRCS_1],
                    mask: 0xfdff_0000,
                },
                Enc {
                    name: "vop3p",
                    ops: 128,
                    make: |op| vec![0xcc00_0000 | (op << 16), VOP3_SRCS | (3 << 27)],
                    mask: 0xff7f_0000,
                },
                Enc {
                    name: "vop3p",
                    ops: 128,
                    make: |op| vec![0xcc00_0000 | (op << 16), VOP3_SRCS_2 | (3 << 27)],
                    mask: 0xff7f_0000,
                },
                Enc { name: "ds", ops: 256, make: |op| vec![0xd800_0000 | (op << 18), 0], mask: 0xfffc_0000 },
                flat,
                scratch,
                global,
                Enc { name: "mubuf", ops: 256, make: |op| vec![0xe000_0000 | (op << 18), 0], mask: 0xfffc_0000 },
                // MTBUF with FORMAT 1 (8_UNORM). gfx10 splits the opcode: bits 0..2 at 16, bit 3 in dword 1 at 21.
                if fam == 10 {
                    Enc {
                        name: "mtbuf",
                        ops: 16,
                        make: |op| vec![0xe808_0000 | ((op & 7) << 16), ((op >> 3) & 1) << 21],
                        mask: 0xfc07_0000,
                    }
                } else {
                    Enc { name: "mtbuf", ops: 16, make: |op| vec![0xe808_0000 | (op << 15), 0], mask: 0xfc07_8000 }
                },
            ]);
            if fam == 11 {
                v.push(Enc {
                    name: "vopdx",
                    ops: 16,
                    make: |op| vec![0xc800_0000 | (op << 22) | (8 << 17) | 0x100, 0x0100_0100],
                    mask: 0xffc0_0000,
                });
                v.push(Enc {
                    name: "vopdy",
                    ops: 32,
                    make: |op| vec![0xca00_0000 | (op << 17) | 0x100, 0x0100_0100],
                    mask: 0xfc3e_0000,
                });
            }
        }
        _ => v.extend([
            Enc { name: "smem", ops: 64, make: |op| vec![0xf400_0000 | (op << 13), 0x7c << 25], mask: 0xfc07_e000 },
            Enc { name: "vop3", ops: 1024, make: |op| vec![0xd400_0000 | (op << 16), VOP3_SRCS], mask: 0xfdff_0000 },
            Enc { name: "vop3", ops: 1024, make: |op| vec![0xd400_0000 | (op << 16), VOP3_SRCS_2], mask: 0xfdff_0000 },
            Enc { name: "vop3", ops: 1024, make: |op| vec![0xd400_0000 | (op << 16), VOP3_SRCS_1], mask: 0xfdff_0000 },
            Enc {
                name: "vop3p",
                ops: 128,
                make: |op| vec![0xcc00_0000 | (op << 16), VOP3_SRCS | (3 << 27)],
                mask: 0xff7f_0000,
            },
            Enc {
                name: "vop3p",
                ops: 128,
                make: |op| vec![0xcc00_0000 | (op << 16), VOP3_SRCS_2 | (3 << 27)],
                mask: 0xff7f_0000,
            },
            // gfx12's WMMA/SWMMAC are valid only with all three OP_SEL_HI bits set (bit 14 is the third).
            Enc {
                name: "vop3p",
                ops: 128,
                make: |op| vec![0xcc00_4000 | (op << 16), VOP3_SRCS | (3 << 27)],
                mask: 0xff7f_0000,
            },
            Enc { name: "ds", ops: 256, make: |op| vec![0xd800_0000 | (op << 18), 0], mask: 0xfffc_0000 },
            Enc { name: "flat", ops: 128, make: |op| vec![0xec00_007c | (op << 14), 0, 0], mask: 0xff1f_c000 },
            Enc { name: "scratch", ops: 128, make: |op| vec![0xed00_007c | (op << 14), 0, 0], mask: 0xff1f_c000 },
            Enc { name: "global", ops: 128, make: |op| vec![0xee00_007c | (op << 14), 0, 0], mask: 0xff1f_c000 },
            Enc { name: "mubuf", ops: 256, make: |op| vec![0xc400_007c | (op << 14), 0, 0], mask: 0xfc3f_c000 },
            Enc {
                name: "vopdx",
                ops: 16,
                make: |op| vec![0xc800_0000 | (op << 22) | (8 << 17) | 0x100, 0x0100_0100],
                mask: 0xffc0_0000,
            },
            Enc {
                name: "vopdy",
                ops: 32,
                make: |op| vec![0xca00_0000 | (op << 17) | 0x100, 0x0100_0100],
                mask: 0xfc3e_0000,
            },
        ]),
    }
    v
}

fn marker(i: u32) -> u32 {
    0xb000_8000 | i
}

/// Strips LLVM's encoding suffixes from a printed mnemonic.
fn base_mnemonic(m: &str) -> &str {
    for suffix in ["_e32", "_e64_dpp", "_e64", "_sdwa", "_dpp8", "_dpp"] {
        if let Some(b) = m.strip_suffix(suffix) {
            return b;
        }
    }
    m
}

/// One `llvm-mc` line: mnemonic and encoding bytes. For a VOPD instruction (`v_dual_a ... :: v_dual_b ...`)
/// `y` picks the mnemonic of the Y half.
fn parse_line(line: &str, y: bool) -> Option<(String, Vec<u8>)> {
    let (text, enc) = line.split_once("; encoding: [")?;
    let text = if y { text.split_once("::").map_or(text, |(_, b)| b) } else { text };
    let mnemonic = text.split_whitespace().next()?.to_string();
    let bytes = enc
        .trim_end_matches(']')
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16))
        .collect::<Result<Vec<u8>, _>>()
        .ok()?;
    Some((mnemonic, bytes))
}

/// The `llvm-mc` to ask: a command line (`llvm-mc-19`, or `chroot /path/to/sid llvm-mc-21`).
struct LlvmMc {
    argv: Vec<String>,
}

impl LlvmMc {
    fn command(&self) -> Command {
        let mut c = Command::new(&self.argv[0]);
        c.args(&self.argv[1..]);
        c
    }

    /// `LLVM <major>` from `--version` (`LLVM version 21.1.2`), for the tables' header.
    fn version(&self) -> Result<String> {
        let out =
            self.command().arg("--version").output().with_context(|| format!("running {}", self.argv.join(" ")))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let v = text
            .split("LLVM version ")
            .nth(1)
            .and_then(|r| r.split('.').next())
            .with_context(|| format!("{} --version printed no LLVM version", self.argv.join(" ")))?;
        Ok(format!("LLVM {v}"))
    }
}

fn sweep(mc: &LlvmMc, target: &str, enc: &Enc) -> Result<Vec<(u32, String, usize)>> {
    let mut input = String::new();
    let mut cands = Vec::new();
    for op in 0..enc.ops {
        let words = (enc.make)(op);
        cands.push(words.clone());
        for w in words.iter().chain([NOP, marker(op)].iter()) {
            let b = w.to_le_bytes();
            writeln!(input, "{:#04x},{:#04x},{:#04x},{:#04x}", b[0], b[1], b[2], b[3]).expect("string");
        }
    }
    let mut child = mc
        .command()
        .args(["-arch=amdgcn", &format!("-mcpu={target}"), "-disassemble", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", mc.argv.join(" ")))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output()?;
    feeder.join().expect("feeder thread")?;
    if !out.status.success() {
        bail!("{} -mcpu={target} failed on the {} sweep", mc.argv.join(" "), enc.name);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut found = Vec::new();
    let mut segment: Vec<(String, Vec<u8>)> = Vec::new();
    for line in text.lines() {
        let Some((m, bytes)) = parse_line(line, enc.name == "vopdy") else { continue };
        if bytes.len() == 4 {
            let w = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"));
            if w & 0xffff_8000 == 0xb000_8000 && m == "s_movk_i32" {
                let op = w & 0x7fff;
                if let (Some((m0, b0)), Some(cand)) = (segment.first(), cands.get(op as usize)) {
                    if b0.len() >= 4 {
                        let w0 = u32::from_le_bytes(b0[..4].try_into().expect("4 bytes"));
                        if w0 & enc.mask == cand[0] & enc.mask {
                            found.push((op, base_mnemonic(m0).to_string(), b0.len()));
                        }
                    }
                }
                segment.clear();
                continue;
            }
        }
        segment.push((m, bytes));
    }
    Ok(found)
}

fn generate(mc: &LlvmMc, version: &str, target: &str) -> Result<String> {
    let fam = family(target);
    let mut out = String::new();
    writeln!(out, "# {target}: opcode -> mnemonic, generated by `cargo xtask codegen-isa` from {version}'s llvm-mc.")?;
    writeln!(
        out,
        "# Columns: encoding, opcode (hex), mnemonic, and `lit` when the instruction always carries a literal."
    )?;
    let mut seen = std::collections::HashSet::new();
    for enc in encodings(fam) {
        let base = (enc.make)(0).len() * 4;
        for (op, m, size) in sweep(mc, target, &enc)? {
            // Encodings swept with several operand shapes (VOP3) keep the first answer per opcode.
            if !seen.insert((enc.name, op)) {
                continue;
            }
            // LLVM prints VOP3-encoded VOP1/VOP2/VOPC with their own names; a VOPD half's mnemonic is its
            // own (`v_dual_*`).
            let lit = if size > base { " lit" } else { "" };
            writeln!(out, "{} {op:#x} {m}{lit}", enc.name)?;
        }
    }
    Ok(out)
}

/// Entry point of the `codegen-isa` task.
pub(crate) fn codegen(rest: &[String]) -> Result<()> {
    let check = rest.iter().any(|a| a == "--check");
    let argv = match rest.iter().position(|a| a == "--llvm-mc") {
        Some(i) => rest.get(i + 1).context("--llvm-mc needs a command")?.split_whitespace().map(String::from).collect(),
        None => default_llvm_mc()?,
    };
    let mc = LlvmMc { argv };
    let version = mc.version()?;
    let dir = crate::host::root().join(OUTPUT_DIR);
    fs::create_dir_all(&dir)?;
    let mut stale = Vec::new();
    // Every opcode table a target of the targets crate names.
    for target in rocprof_targets::TARGETS.iter().map(|t| t.table) {
        let text = generate(&mc, &version, target)?;
        let path = dir.join(format!("{target}.txt"));
        if check {
            if fs::read_to_string(&path).unwrap_or_default() != text {
                stale.push(path.display().to_string());
            }
        } else {
            fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {} ({} opcodes)", path.display(), text.lines().count() - 2);
        }
    }
    if !stale.is_empty() {
        bail!("stale ISA tables: {}; run `cargo xtask codegen-isa` and commit the result", stale.join(", "));
    }
    if check {
        println!("{OUTPUT_DIR} is up to date");
    }
    Ok(())
}
