//! Every opcode-table entry of every target against LLVM 21's disassembler (`llvm-mc` of the Debian sid
//! chroot that `cargo xtask sid` builds; `ROCPROF_RS_SID_ROOT`, default `/var/cache/rocprof-rs/sid`).
//!
//! For each entry the test encodes the instruction in up to four operand shapes written here from AMD's
//! "Microcode Formats" chapters, independently of the table generator's sweep: distinct registers and
//! offsets, a literal source (scalar, VOP1/2/C, gfx10+ VOP3/VOP3P), an SGPR source, and the all-zero
//! register form the generator uses. A shape counts when LLVM decodes exactly those bytes back to the
//! same bytes (it takes the encoding and opcode as given); then LLVM's mnemonic (without `_e32`/`_e64`
//! suffix), size and destination register must be what [`rocprof_isa::decode`] says, for both halves of a
//! VOPD instruction. Every entry must be confirmed by at least one shape.

use rocprof_launch::names;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use rocprof_isa::decode::{AGPR0, VGPR0};
use rocprof_isa::op::{Access, DsOp, Op, SmemOp};
use rocprof_isa::table::{table, Enc};
use rocprof_isa::{decode, Family, Target, TARGETS};

const NOP: u32 = 0xbf80_0000;
/// The literal of the literal shapes (0.25).
const K: u32 = 0x3e80_0000;

/// LLVM 21's llvm-mc, run with the chroot's own loader and libraries (no root needed).
fn llvm_mc_21(test: &str) -> Option<Command> {
    let root = std::env::var_os(names::SID_ROOT)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/cache/rocprof-rs/sid"));
    let mc = root.join("usr/lib/llvm-21/bin/llvm-mc");
    if !mc.is_file() {
        rocprof_test_inputs::skip_or_fail(
            test,
            format!("{} not found (the sid chroot of `cargo xtask sid`; ROCPROF_RS_SID_ROOT)", mc.display()),
        );
        return None;
    }
    let mut c = Command::new(root.join("lib64/ld-linux-x86-64.so.2"));
    c.arg("--library-path")
        .arg(format!("{0}/usr/lib/x86_64-linux-gnu:{0}/lib/x86_64-linux-gnu", root.display()))
        .arg(mc);
    Some(c)
}

/// The shapes of one entry, most informative first.
fn shapes(fam: Family, enc: Enc, op: u32, lit: bool) -> Vec<Vec<u32>> {
    let g9 = fam == Family::Gfx9;
    let null = match fam {
        Family::Gfx9 => 0x7f,
        Family::Gfx10 => 0x7d,
        _ => 0x7c,
    };
    let mut v: Vec<Vec<u32>> = match enc {
        Enc::Sop2 => {
            let w = 0x8000_0000 | (op << 23);
            vec![vec![w | (8 << 16) | (4 << 8) | 6], vec![w | (8 << 16) | (4 << 8) | 0xff, K], vec![w]]
        }
        Enc::Sopk => vec![vec![0xb000_0000 | (op << 23) | (8 << 16) | 0x1234], vec![0xb000_0000 | (op << 23)]],
        Enc::Sop1 => {
            let w = 0xbe80_0000 | (op << 8);
            vec![vec![w | (8 << 16) | 4], vec![w | (8 << 16) | 0xff, K], vec![w]]
        }
        Enc::Sopc => {
            let w = 0xbf00_0000 | (op << 16);
            vec![vec![w | (6 << 8) | 4], vec![w | (6 << 8) | 0xff, K], vec![w]]
        }
        Enc::Sopp => vec![vec![0xbf80_0000 | (op << 16) | 3], vec![0xbf80_0000 | (op << 16)]],
        Enc::Smem => match fam {
            Family::Gfx9 => {
                vec![vec![0xc002_0000 | (op << 18) | (8 << 6) | 2, 0x40], vec![0xc002_0000 | (op << 18), 0]]
            }
            Family::Gfx10 | Family::Gfx11 => {
                let w = 0xf400_0000 | (op << 18);
                // The last two: no base or offset (s_memtime, s_dcache_inv, s_gl1_inv).
                vec![
                    vec![w | (8 << 6) | 2, (null << 25) | 0x40],
                    vec![w, null << 25],
                    vec![w | (8 << 6), 0],
                    vec![w, 0],
                ]
            }
            Family::Gfx12 => {
                let w = 0xf400_0000 | (op << 13);
                vec![vec![w | (8 << 6) | 2, (null << 25) | 0x40], vec![w, null << 25], vec![w, 0]]
            }
        },
        Enc::Vop2 | Enc::Vop1 | Enc::Vopc => {
            let w = match enc {
                Enc::Vop2 => (op << 25) | (6 << 17) | (4 << 9),
                Enc::Vop1 => 0x7e00_0000 | (6 << 17) | (op << 9),
                _ => 0x7c00_0000 | (op << 17) | (4 << 9),
            };
            let plain = match enc {
                Enc::Vop2 => op << 25,
                Enc::Vop1 => 0x7e00_0000 | (op << 9),
                _ => 0x7c00_0000 | (op << 17),
            };
            // The last: no operands at all (v_nop, v_clrexcp, v_pipeflush).
            vec![vec![w | 0x102], vec![w | 0xff, K], vec![w | 4], vec![plain | 0x100], vec![plain & !(0xff << 17)]]
        }
        Enc::Vop3 | Enc::Vop3p => {
            let (base, hi) = match (enc, g9) {
                (Enc::Vop3, true) => (0xd000_0000, 0),
                (Enc::Vop3, false) => (0xd400_0000, 0),
                (_, true) => (0xd380_0000, 3 << 27),
                (_, false) => (0xcc00_0000, 3 << 27),
            };
            // VOP3P's op_sel_hi[2] (bit 14) defaults to 1, and LLVM writes the default back.
            let ws: &[u32] = if enc == Enc::Vop3p { &[1 << 14, 0] } else { &[0] };
            let mut s = Vec::new();
            for (n, &b14) in [3, 2, 1].into_iter().flat_map(|n| ws.iter().map(move |b| (n, b))) {
                let w = base | (op << 16) | b14;
                let srcs =
                    |a: u32, b: u32, c: u32| hi | a | if n > 1 { b << 9 } else { 0 } | if n > 2 { c << 18 } else { 0 };
                s.push(vec![w | 6, srcs(0x102, 4, 0x108)]);
                if !g9 {
                    s.push(vec![w | 6, srcs(0xff, 0x104, 0x108), K]);
                }
                s.push(vec![w, srcs(0x100, 0x100, 0x100)]);
                if enc == Enc::Vop3 && !g9 {
                    // gfx10+ VOP3 v_cmpx: the destination field holds EXEC_LO.
                    s.push(vec![w | 0x7e, srcs(0x102, 4, 0x108)]);
                }
            }
            s
        }
        Enc::Ds => {
            let w = if g9 { 0xd800_0000 | (op << 17) } else { 0xd800_0000 | (op << 18) };
            vec![vec![w | (2 << 8) | 0x10, (6 << 24) | (8 << 16) | (4 << 8) | 2], vec![w, 0]]
        }
        Enc::Flat | Enc::Scratch | Enc::Global => {
            let seg = match enc {
                Enc::Flat => 0,
                Enc::Scratch => 1,
                _ => 2,
            };
            match fam {
                Family::Gfx12 => {
                    let w = [0xec00_0000, 0xed00_0000, 0xee00_0000][seg as usize] | (op << 14) | null;
                    vec![vec![w, 6 | (4 << 23), 2 | (0x10 << 8)], vec![w, 0, 0]]
                }
                _ => {
                    let w = 0xdc00_0000 | (op << 18) | if fam == Family::Gfx11 { seg << 16 } else { seg << 14 };
                    let saddr = if enc == Enc::Flat && g9 { 0 } else { null };
                    let plain_saddr = if enc == Enc::Flat && fam == Family::Gfx9 { 0 } else { null };
                    vec![vec![w | 0x10, (6 << 24) | (saddr << 16) | (4 << 8) | 2], vec![w, plain_saddr << 16]]
                }
            }
        }
        Enc::Mubuf => match fam {
            Family::Gfx12 => {
                let w = 0xc400_0000 | (op << 14) | null;
                vec![vec![w, 4 | (4 << 9) | (1 << 30), 2 | (0x10 << 8)], vec![w, 0, 0]]
            }
            Family::Gfx9 | Family::Gfx10 => {
                let w = 0xe000_0000 | (op << 18);
                vec![vec![w | (1 << 12) | 0x10, (0x80 << 24) | (1 << 16) | (4 << 8) | 2], vec![w, 0]]
            }
            Family::Gfx11 => {
                let w = 0xe000_0000 | (op << 18);
                vec![vec![w | 0x10, (0x80 << 24) | (1 << 22) | (1 << 16) | (4 << 8) | 2], vec![w, 0]]
            }
        },
        // vaddr v2, vdata v4, s[4:7], soffset 0 with offen and offset 16; and everything 0. Format 32 FLOAT
        // (gfx9 DFMT 4 NFMT 7, gfx10/gfx11 FORMAT 22).
        Enc::Mtbuf => {
            let d1 = (0x80 << 24) | (1 << 16) | (4 << 8) | 2;
            match fam {
                Family::Gfx9 => {
                    let w = 0xe800_0000 | (op << 15) | (4 << 19) | (7 << 23);
                    vec![vec![w | (1 << 12) | 0x10, d1], vec![w, 0]]
                }
                Family::Gfx10 => {
                    let (w, hi) = (0xe800_0000 | ((op & 7) << 16) | (22 << 19), ((op >> 3) & 1) << 21);
                    vec![vec![w | (1 << 12) | 0x10, d1 | hi], vec![w, hi]]
                }
                _ => {
                    let w = 0xe800_0000 | (op << 15) | (22 << 19);
                    vec![vec![w | 0x10, d1 | (1 << 22)], vec![w, 0]]
                }
            }
        }
        Enc::VopdX | Enc::VopdY => {
            let (x, y) = if enc == Enc::VopdX { (op, 8) } else { (8, op) };
            let w = 0xc800_0000 | (x << 22) | (y << 17);
            // srcX0 v2 (bank 2), vsrcX1 v5 (1), srcY0 v4 (0), vsrcY1 v7 (3); vdstX v6, vdstY v9.
            vec![vec![w | (5 << 9) | 0x102, (6 << 24) | (4 << 17) | (7 << 9) | 0x104], vec![w | 0x100, 0x0100_0100]]
        }
        // Image instructions are not in the generated tables (rocprof_isa::image decodes them).
        Enc::Mimg => unreachable!("no table lists mimg opcodes"),
    };
    if lit {
        // An instruction that always carries a literal (fmaak, setreg_imm32): the literal follows.
        for s in &mut v {
            if s.last() != Some(&K) {
                s.push(K);
            }
        }
    }
    v
}

/// One llvm-mc output line: the text before `;` and the encoding bytes.
fn parse(line: &str) -> Option<(String, Vec<u8>)> {
    let (text, enc) = line.split_once("; encoding: [")?;
    let bytes = enc
        .trim_end_matches(']')
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16))
        .collect::<Result<Vec<u8>, _>>()
        .ok()?;
    Some((text.trim().to_string(), bytes))
}

fn base(m: &str) -> &str {
    for s in ["_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp8", "_dpp"] {
        if let Some(b) = m.strip_suffix(s) {
            return b;
        }
    }
    m
}

/// The register an operand token names, in the decoder's code space (`v6` -> 262, `s[8:9]` -> 8,
/// `a[6:9]` -> 518); `None` for anything else (`vcc`, constants, `off`).
fn reg(tok: &str) -> Option<u16> {
    let tok = tok.trim().trim_end_matches(',');
    let (kind, rest) = tok.split_at(1);
    let num = rest.strip_prefix('[').map_or(rest, |r| r.split(':').next().unwrap_or(""));
    let n: u16 = num.parse().ok()?;
    match kind {
        "v" => Some(VGPR0 + n),
        "a" => Some(AGPR0 + n),
        "s" => Some(n),
        _ => None,
    }
}

/// Whether the decoder's destination field is LLVM's first operand for this instruction.
fn dst_is_first_operand(enc: Enc, op: &Op, fam: Family) -> bool {
    match enc {
        Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Vop1 | Enc::Vop2 | Enc::Vop3 | Enc::Vop3p => {
            !matches!(op, Op::Vcmp { x: true, .. } if fam >= Family::Gfx10)
        }
        Enc::Smem => {
            matches!(op, Op::Smem(SmemOp::Load(_) | SmemOp::BufferLoad(_) | SmemOp::LoadSub { .. } | SmemOp::Time))
        }
        Enc::VopdX | Enc::VopdY => true,
        Enc::Ds => matches!(op, Op::Ds(DsOp::Access(Access::Load { .. }))),
        Enc::Flat | Enc::Global | Enc::Scratch | Enc::Mubuf => matches!(op, Op::Vmem(_, Access::Load { .. })),
        Enc::Mtbuf => matches!(op, Op::Vmem(_, Access::Format { store: false, .. })),
        _ => false,
    }
}

/// A candidate: encoding, opcode, table mnemonic and the instruction's dwords.
type Cand = (Enc, u32, &'static str, Vec<u32>);

/// llvm-mc-21's output for the candidates `ks` (each followed by `s_nop 0` and its marker
/// `s_movk_i32 s0, 0x8000 + k`); `None` when llvm-mc crashed.
fn disassemble(target: &Target, cands: &[Cand], ks: &[usize]) -> Option<String> {
    let mut input = String::new();
    for &k in ks {
        for w in cands[k].3.iter().chain(&[NOP, 0xb000_8000 | k as u32]) {
            let b = w.to_le_bytes();
            input.push_str(&format!("{:#04x},{:#04x},{:#04x},{:#04x}\n", b[0], b[1], b[2], b[3]));
        }
    }
    let mut child = llvm_mc_21("every_table_entry_decodes_like_llvm_21")?
        .args(["-arch=amdgcn", &format!("-mcpu={}", target.name), "-disassemble", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("llvm-mc-21 starts");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Checks one target; returns (entries, shapes compared, mismatches, unconfirmed entries).
fn check_target(target: &Target) -> (usize, usize, Vec<String>, Vec<String>) {
    let t = table(target.table).unwrap();
    let mut cands: Vec<Cand> = Vec::new();
    for (enc, op, e) in t.entries() {
        for s in shapes(target.family, enc, op, e.lit) {
            cands.push((enc, op, e.name, s));
        }
    }
    assert!(cands.len() < 0x8000, "{}: more candidates than markers", target.name);
    // LLVM 21 crashes on a few byte sequences (gfx90a+ `v_accvgpr_mov_b32` with a literal): candidates go
    // in chunks, and a chunk that crashes is halved until the crashing candidates are alone.
    let mut text = String::new();
    let mut crashed = Vec::new();
    let mut todo: Vec<Vec<usize>> = (0..cands.len()).collect::<Vec<_>>().chunks(512).map(<[usize]>::to_vec).collect();
    todo.reverse();
    while let Some(chunk) = todo.pop() {
        match disassemble(target, &cands, &chunk) {
            Some(t) => text.push_str(&t),
            None if chunk.len() == 1 => crashed.push(chunk[0]),
            None => {
                // Halve until the crashing candidates are alone.
                let (a, b) = chunk.split_at(chunk.len() / 2);
                todo.push(b.to_vec());
                todo.push(a.to_vec());
            }
        }
    }
    let mut confirmed = vec![false; cands.len()];
    let (mut compared, mut bad) = (0, Vec::new());
    let mut first: Option<(String, Vec<u8>)> = None;
    for line in text.lines() {
        let Some((txt, bytes)) = parse(line) else { continue };
        let marker =
            bytes.len() == 4 && u32::from_le_bytes(bytes[..4].try_into().unwrap()) & 0xffff_8000 == 0xb000_8000;
        if marker && txt.starts_with("s_movk_i32") {
            let k = (u32::from_le_bytes(bytes[..4].try_into().unwrap()) & 0x7fff) as usize;
            if let (Some((txt0, b0)), Some((enc, op, name, words))) = (first.take(), cands.get(k)) {
                let mine: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                if b0 == mine {
                    confirmed[k] = true;
                    compared += 1;
                    let what = format!("{} {} {op:#x} {name} [{}]", target.name, enc.name(), txt0);
                    let (x_txt, y_txt) = txt0.split_once("::").map_or((txt0.as_str(), None), |(a, b)| (a, Some(b)));
                    let llvm_m = |t: &str| base(t.split_whitespace().next().unwrap_or("")).to_string();
                    let first_op = |t: &str| t.split_whitespace().nth(1).and_then(reg);
                    match decode(target, &mine) {
                        Err(e) => bad.push(format!("{what}: {e}")),
                        Ok(i) => {
                            if i.name != llvm_m(x_txt) || usize::from(i.size) != mine.len() {
                                bad.push(format!("{what}: decoded {} ({} bytes)", i.name, i.size));
                            } else if let Some(r) =
                                first_op(x_txt).filter(|_| dst_is_first_operand(*enc, &i.op, target.family))
                            {
                                if i.dst != r && i.sdst != r {
                                    bad.push(format!(
                                        "{what}: destination {r} decoded as dst {} sdst {}",
                                        i.dst, i.sdst
                                    ));
                                }
                            }
                            if let Some(y_txt) = y_txt {
                                match &i.y {
                                    Some(y)
                                        if y.name == llvm_m(y_txt) && first_op(y_txt).is_none_or(|r| r == y.dst) => {}
                                    Some(y) => bad.push(format!("{what}: Y decoded as {} dst {}", y.name, y.dst)),
                                    None => bad.push(format!("{what}: no Y half decoded")),
                                }
                            }
                        }
                    }
                }
            }
            continue;
        }
        if first.is_none() {
            first = Some((txt, bytes));
        }
    }
    for k in crashed {
        let (enc, op, name, words) = &cands[k];
        println!("{} {} {op:#x} {name}: llvm-mc-21 crashes on {words:08x?}", target.name, enc.name());
    }
    // Entries none of whose shapes LLVM confirmed.
    let mut unconfirmed = Vec::new();
    let mut k = 0;
    while k < cands.len() {
        let (enc, op, name, _) = &cands[k];
        let mut any = false;
        while k < cands.len() && (cands[k].0, cands[k].1) == (*enc, *op) {
            any |= confirmed[k];
            k += 1;
        }
        if !any {
            unconfirmed.push(format!("{} {} {op:#x} {name}", target.name, enc.name()));
        }
    }
    (t.entries().count(), compared, bad, unconfirmed)
}

#[test]
fn every_table_entry_decodes_like_llvm_21() {
    let test = "every_table_entry_decodes_like_llvm_21";
    let Some(_) = llvm_mc_21(test) else { return };
    let (mut all_bad, mut all_unconfirmed) = (Vec::new(), Vec::new());
    for target in TARGETS {
        let (entries, compared, bad, unconfirmed) = check_target(target);
        println!(
            "{}: {entries} entries, {compared} encodings compared, {} mismatches, {} unconfirmed",
            target.name,
            bad.len(),
            unconfirmed.len()
        );
        all_bad.extend(bad);
        all_unconfirmed.extend(unconfirmed);
    }
    assert!(
        all_bad.is_empty() && all_unconfirmed.is_empty(),
        "{} mismatches with LLVM 21:\n{}\n{} entries LLVM 21 confirmed in no shape:\n{}",
        all_bad.len(),
        all_bad[..all_bad.len().min(60)].join("\n"),
        all_unconfirmed.len(),
        all_unconfirmed[..all_unconfirmed.len().min(60)].join("\n")
    );
}
