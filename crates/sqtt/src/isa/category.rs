//! AMD's instruction categories as a mapping over `rocprof-isa`'s decode.
//!
//! AMD's trace decoder classifies an instruction from the mnemonic text its ISA callback returns
//! (`source/trie.cpp`: a prefix table, `v_*` is VALU, any other `s_*` is SALU). The decode itself
//! (size, encoding, mnemonic, operation) is `rocprof-isa`'s; this module only names the category
//! AMD's lookup gives that mnemonic, with the lookup's quirks (`s_gl1_inv` and `s_code_end` are
//! SALU because no prefix matches them; `s_round_mode` is SALU; gfx9's `s_barrier` has its own
//! category), and the few mnemonic facts the trace walker needs ([`flags`]).

use rocprof_isa::op::{Access, DsOp, Seg, SmemOp};
use rocprof_isa::table::Enc;
use rocprof_isa::{Family, Inst, Op};

use super::{flags, InstInfo, LineClass};

/// AMD's category and walker facts for `inst`, decoded for a target of `family`.
pub fn info_of(family: Family, inst: &Inst) -> InstInfo {
    let n = inst.name;
    let (class, f) = if inst.enc == Enc::Sopp { sopp(family, n) } else { other(family, inst) };
    let mut info = InstInfo::new(inst.size, class).with_flags(f);
    if inst.enc == Enc::Sopp {
        info.simm16 = inst.imm as i16;
    }
    info
}

/// SOPP (`s_nop` .. `s_endpgm`, branches, waits).
fn sopp(family: Family, n: &str) -> (LineClass, u8) {
    match n {
        "s_delay_alu" | "s_wait_alu" | "s_set_vgpr_msb" => (LineClass::Skip, 0),
        "s_endpgm" => (LineClass::Immed, flags::ENDPGM),
        "s_barrier_wait" => (LineClass::Immed, flags::BARRIER_WAIT),
        "s_barrier" if matches!(family, Family::Gfx9 | Family::Gfx10) => (LineClass::Gfx9Barrier, 0),
        "s_round_mode" | "s_denorm_mode" | "s_code_end" => (LineClass::Salu, 0),
        _ if n.starts_with("s_branch") || n.starts_with("s_cbranch") => (LineClass::Branch, 0),
        _ if n.starts_with("s_waitcnt") => (LineClass::Immed, flags::WAITCNT),
        _ => (LineClass::Immed, 0),
    }
}

/// Every other encoding.
fn other(family: Family, inst: &Inst) -> (LineClass, u8) {
    let n = inst.name;
    let load = |yes: bool| if yes { flags::LOAD } else { 0 };
    match inst.enc {
        Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc => match n {
            // message, version and (gfx12) named-barrier forms have no-pipe prefixes
            "s_sendmsg_rtn_b32"
            | "s_sendmsg_rtn_b64"
            | "s_version"
            | "s_barrier_signal"
            | "s_barrier_signal_isfirst"
            | "s_barrier_init"
            | "s_barrier_join"
            | "s_sleep_var" => (LineClass::Immed, 0),
            _ if n.starts_with("s_waitcnt") => (LineClass::Immed, flags::WAITCNT),
            _ => (LineClass::Salu, 0),
        },
        Enc::Smem if n == "s_gl1_inv" => (LineClass::Salu, 0),
        Enc::Smem => {
            let l = matches!(inst.op, Op::Smem(SmemOp::Load(_) | SmemOp::BufferLoad(_) | SmemOp::LoadSub { .. }));
            (LineClass::Smem, load(l))
        }
        Enc::Ds => {
            let l = matches!(inst.op, Op::Ds(DsOp::Access(Access::Load { .. }) | DsOp::Read2 { .. }));
            (LineClass::Lds, load(l))
        }
        Enc::Flat | Enc::Global | Enc::Scratch | Enc::Mubuf | Enc::Mtbuf => {
            let (seg, l) = match inst.op {
                Op::Vmem(seg, a) => (Some(seg), matches!(a, Access::Load { .. })),
                _ => (None, n.contains("_load_")),
            };
            match (inst.enc, seg) {
                (Enc::Flat, _) | (_, Some(Seg::Flat)) => (LineClass::Flat, load(l)),
                (Enc::Scratch, _) | (_, Some(Seg::Scratch)) => (LineClass::Vmem, load(l) | flags::SCRATCH),
                _ => (LineClass::Vmem, load(l)),
            }
        }
        Enc::Mimg if n.starts_with("image_bvh") => (LineClass::Bvh, 0),
        Enc::Mimg => (LineClass::Vmem, 0),
        _ if n.starts_with("ds_") || n.starts_with("lds_") => (LineClass::Lds, 0),
        _ if family == Family::Gfx12 && n == "v_mov_b64" => (LineClass::VMovB64, 0),
        _ if family == Family::Gfx9 && n.starts_with("v_mfma_scale_") => (LineClass::MfmaScale, 0),
        _ if n.starts_with("v_") => (LineClass::Valu, 0),
        _ => (LineClass::DontKnow, 0),
    }
}

#[cfg(test)]
mod tests {
    use crate::family::Family;
    use crate::isa::{decode, flags, InstInfo, LineClass};

    fn d(words: &[u32], family: Family) -> InstInfo {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode(family, &bytes).unwrap()
    }

    // Encodings below are words of the corpus code objects with LLVM's sizes for them; the classes are
    // AMD's categories of their mnemonics.
    #[test]
    fn gfx11_sizes_and_classes() {
        let g = Family::Gfx11;
        let e = d(&[0xbfb00000], g);
        assert_eq!((e.size, e.class, e.flags), (4, LineClass::Immed, flags::ENDPGM));
        assert_eq!(d(&[0xf4080100, 0], g), InstInfo::new(8, LineClass::Smem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xd6560001, 0], g).size, 8);
        assert_eq!(d(&[0xbf870112], g).class, LineClass::Skip);
        assert_eq!((d(&[0xbf89fc07], g).class, d(&[0xbf89fc07], g).flags), (LineClass::Immed, flags::WAITCNT));
        assert_eq!(d(&[0xdc560000, 0], g), InstInfo::new(8, LineClass::Vmem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xca000080, 0], g).size, 8);
        assert_eq!(d(&[0xd8340000, 0], g).class, LineClass::Lds);
        let b = d(&[0xbfa5002b], g);
        assert_eq!((b.class, b.simm16), (LineClass::Branch, 43));
        assert_eq!(d(&[0x7c9800ff, 0x7f], g).size, 8);
        assert_eq!(d(&[0xbfbd0000], g).class, LineClass::Immed);
        assert_eq!(d(&[0x8402850f], g).class, LineClass::Salu);
        assert_eq!(d(&[0xbe80007e], g).class, LineClass::Salu);
        assert_eq!(d(&[0xbf9f0000], g).class, LineClass::Salu, "s_code_end: no prefix entry, SALU");
    }

    /// gfx11's SOPK waits are LLVM's opcodes 0x18..=0x1b (`s_waitcnt_vscnt` .. `s_waitcnt_lgkmcnt`);
    /// 0x16/0x17 are `s_subvector_loop_begin/end`, plain SALU by AMD's `s_*` rule.
    #[test]
    fn gfx11_sopk_waits_are_no_pipe_waits() {
        let g = Family::Gfx11;
        for op in 0x18..=0x1b {
            let i = d(&[0xb000_0000 | (op << 23)], g);
            assert_eq!((i.class, i.flags), (LineClass::Immed, flags::WAITCNT), "{op:#x}");
        }
        for op in [0x16, 0x17] {
            assert_eq!(d(&[0xb000_0000 | (op << 23)], g).class, LineClass::Salu, "{op:#x}");
        }
    }

    #[test]
    fn gfx12_sizes_and_classes() {
        let g = Family::Gfx12;
        assert_eq!(d(&[0xee05407c, 0, 0], g), InstInfo::new(12, LineClass::Vmem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xee068000, 0, 0], g).size, 12);
        assert_eq!(d(&[0xbf88fffd], g).class, LineClass::Skip);
        assert_eq!(d(&[0xbfc70000], g).class, LineClass::Immed);
        assert_eq!((d(&[0xbf94ffff], g).class, d(&[0xbf94ffff], g).flags), (LineClass::Immed, flags::BARRIER_WAIT));
        assert_eq!(d(&[0xbe804ec1], g).class, LineClass::Immed);
        assert_eq!(d(&[0xf4004100, 0], g).class, LineClass::Smem);
        assert_eq!(d(&[0xcc404026, 0], g).size, 8);
        let b = d(&[0xbfa1ffa3], g);
        assert_eq!((b.class, b.simm16), (LineClass::Branch, -93));
        assert_eq!(d(&[0xbfb60003], g).class, LineClass::Immed);
    }

    /// gfx9 words of every CDNA generation decode: gfx942's tables first, then gfx950's and the older
    /// targets' (a gfx90a-only bf16 MFMA from rocBLAS's gfx90a Tensile kernels, LLVM: 8 bytes).
    #[test]
    fn gfx9_decodes_every_cdna_generation() {
        let g = Family::Gfx9;
        assert_eq!(d(&[0xd3ed8000, 0x04020900], g), InstInfo::new(8, LineClass::Valu));
        assert_eq!(d(&[0xbf8a0000], g).class, LineClass::Gfx9Barrier);
        assert_eq!((d(&[0xbf8cc07f], g).class, d(&[0xbf8cc07f], g).flags), (LineClass::Immed, flags::WAITCNT));
        assert_eq!(d(&[0xc0020002, 0x2c], g), InstInfo::new(8, LineClass::Smem).with_flags(flags::LOAD));
        assert_eq!(d(&[0x00000000], Family::Gfx11), InstInfo::new(4, LineClass::DontKnow), "no instruction");
    }
}
