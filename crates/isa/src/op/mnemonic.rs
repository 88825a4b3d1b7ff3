//! LLVM mnemonics to operations: [`Op::from_mnemonic`] and the per-family spellings it accepts (the
//! opcode tables name instructions by mnemonic; the decoder asks here what each one does).

use super::{
    Access, AtomicOp, BranchCond, CmpTy, Cond, DsOp, Ext, FloatOp, Logic, Op, SOp, ScalarCvt, Seg, SmemOp, TransOp, VOp,
};
use crate::matrix::{Mfma, Wmma};

fn ds_access(rest: &str) -> Option<DsOp> {
    // LLVM gfx9 names: ds_read_b32, ds_read_u8, ds_read_i16, ds_read_u8_d16_hi, ds_write_b64, ds_write_b8_d16_hi,
    // ds_read2_b32, ds_read2st64_b64, ds_write2st64_b32, ds_add_u32, ds_add_rtn_u32, ds_cmpst_b32;
    // gfx11: ds_load_b32, ds_store_b32, ds_load_2addr_b32, ds_store_2addr_stride64_b32, ds_cmpstore_b32.
    let norm = rest
        .replace("read2st64_", "read2_stride64_")
        .replace("write2st64_", "write2_stride64_")
        .replace("load_2addr_", "read2_")
        .replace("store_2addr_", "write2_")
        .replace("load_", "read_")
        .replace("store_", "write_");
    if let Some(r) = norm.strip_prefix("read2_") {
        let (stride, ty) = r.strip_prefix("stride64_").map_or((1, r), |t| (64, t));
        return Some(DsOp::Read2 { bytes: size_of_ty(ty)?, stride });
    }
    if let Some(r) = norm.strip_prefix("write2_") {
        let (stride, ty) = r.strip_prefix("stride64_").map_or((1, r), |t| (64, t));
        return Some(DsOp::Write2 { bytes: size_of_ty(ty)?, stride });
    }
    if let Some(r) = norm.strip_prefix("read_") {
        if r.starts_with("addtid") {
            return None;
        }
        return load_shape(r).map(|(bytes, ext)| DsOp::Access(Access::Load { bytes, ext }));
    }
    if let Some(r) = norm.strip_prefix("write_") {
        if r.starts_with("addtid") {
            return None;
        }
        let hi = r.ends_with("_d16_hi");
        let ty = r.trim_end_matches("_d16_hi");
        return Some(DsOp::Access(Access::Store { bytes: size_of_ty(ty)?, hi }));
    }
    match rest {
        "swizzle_b32" => return Some(DsOp::Swizzle),
        "permute_b32" => return Some(DsOp::Permute),
        "bpermute_b32" => return Some(DsOp::Bpermute),
        "nop" => return Some(DsOp::Nop),
        _ => {}
    }
    // Atomics: <op>[_rtn]_<ty>, e.g. add_u32, add_rtn_u64, min_i32, max_rtn_f32, cmpst_rtn_b32,
    // wrxchg_rtn_b32, storexchg_rtn_b32, cmpstore_b32, add_f32, pk_add_f16.
    let (ty_pos, ty) = rest.rfind('_').map(|p| (p, &rest[p + 1..]))?;
    let bytes = match ty {
        "b32" | "u32" | "i32" | "f32" | "f16" => 4,
        "b64" | "u64" | "i64" | "f64" => 8,
        _ => return None,
    };
    let head = &rest[..ty_pos];
    let (head, rtn) = head.strip_suffix("_rtn").map_or((head, false), |h| (h, true));
    let float = ty.starts_with('f');
    let op = match head {
        "min" if float => AtomicOp::MinF,
        "max" if float => AtomicOp::MaxF,
        "add" if float => AtomicOp::AddF,
        "min" if ty.starts_with('i') => AtomicOp::MinI,
        "max" if ty.starts_with('i') => AtomicOp::MaxI,
        "min" => AtomicOp::MinU,
        "max" => AtomicOp::MaxU,
        "pk_add" => AtomicOp::PkAddF16,
        h => AtomicOp::parse(h)?,
    };
    if matches!(op, AtomicOp::MinF | AtomicOp::MaxF | AtomicOp::CmpSwap | AtomicOp::CmpStore) && float {
        // Float compare-exchange and float min/max are rare; cmpst_f32 compares as floats.
        if matches!(op, AtomicOp::CmpSwap | AtomicOp::CmpStore) {
            return None;
        }
    }
    Some(DsOp::Access(Access::Atomic { op, bytes, rtn }))
}

fn size_of_ty(ty: &str) -> Option<u8> {
    Some(match ty {
        "b8" | "u8" | "i8" | "byte" | "ubyte" | "sbyte" => 1,
        "b16" | "u16" | "i16" | "short" | "ushort" | "sshort" => 2,
        "b32" | "dword" => 4,
        "b64" | "dwordx2" => 8,
        "b96" | "dwordx3" => 12,
        "b128" | "dwordx4" => 16,
        _ => return None,
    })
}

/// Size and extension of a load type suffix (`u8`, `i16`, `b32`, `dwordx4`, `ubyte_d16_hi`, `short_d16`,
/// `d16_hi_u8`, `d16_b16`, ...).
fn load_shape(ty: &str) -> Option<(u8, Ext)> {
    // gfx11 spells d16 first (d16_hi_u8), gfx9 last (ubyte_d16_hi).
    let (d16, core) = if let Some(c) = ty.strip_prefix("d16_hi_") {
        (Some(true), c)
    } else if let Some(c) = ty.strip_prefix("d16_") {
        (Some(false), c)
    } else if let Some(c) = ty.strip_suffix("_d16_hi") {
        (Some(true), c)
    } else if let Some(c) = ty.strip_suffix("_d16") {
        (Some(false), c)
    } else {
        (None, ty)
    };
    let bytes = size_of_ty(core)?;
    let signed = matches!(core, "i8" | "i16" | "sbyte" | "sshort");
    let ext = match d16 {
        Some(true) => Ext::D16Hi(signed),
        Some(false) => Ext::D16Lo(signed),
        None if signed => Ext::Sign,
        None => Ext::Zero,
    };
    Some((bytes, ext))
}

/// `load_format_d16_xy` (gfx9), `load_d16_format_xy` (gfx10+), `store_format_d16_hi_x`, ...: the
/// [`Access::Format`] of a `buffer_` mnemonic's tail.
fn format_access(rest: &str) -> Option<Access> {
    let (store, r) = match rest.strip_prefix("load_") {
        Some(r) => (false, r),
        None => (true, rest.strip_prefix("store_")?),
    };
    let words: Vec<&str> = r.split('_').collect();
    let comps = match *words.last()? {
        "x" => 1,
        "xy" => 2,
        "xyz" => 3,
        "xyzw" => 4,
        _ => return None,
    };
    let mid = &words[..words.len() - 1];
    if !mid.contains(&"format") || mid.iter().any(|w| !matches!(*w, "format" | "d16" | "hi")) {
        return None;
    }
    Some(Access::Format { store, comps, d16: mid.contains(&"d16"), hi: mid.contains(&"hi") })
}

fn vmem_access(rest: &str) -> Option<Access> {
    if let Some(ty) = rest.strip_prefix("load_") {
        if ty.starts_with("lds") || ty.starts_with("addtid") || ty.starts_with("format") {
            return None;
        }
        let (bytes, ext) = load_shape(ty)?;
        return Some(Access::Load { bytes, ext });
    }
    if let Some(ty) = rest.strip_prefix("store_") {
        if ty.starts_with("addtid") || ty.starts_with("format") || ty.starts_with("lds") {
            return None;
        }
        let hi = ty.ends_with("_d16_hi") || ty.starts_with("d16_hi_");
        let core = ty.trim_end_matches("_d16_hi").trim_start_matches("d16_hi_");
        return Some(Access::Store { bytes: size_of_ty(core)?, hi });
    }
    let a = rest.strip_prefix("atomic_")?;
    // gfx9: add, add_x2, cmpswap_x2, smin, umax_x2, add_f32, pk_add_f16, add_f64, min_f64;
    // gfx11: add_u32, add_u64, cmpswap_b32, min_i32, max_u64, add_f32, csub_u32.
    let (a, wide) = a.strip_suffix("_x2").map_or((a, false), |h| (h, true));
    let (head, bytes) = if let Some(h) = a.strip_suffix("_u64").or(a.strip_suffix("_i64")).or(a.strip_suffix("_b64")) {
        (h, 8)
    } else if let Some(h) = a.strip_suffix("_u32").or(a.strip_suffix("_i32")).or(a.strip_suffix("_b32")) {
        (h, 4)
    } else if a.ends_with("_f64") {
        (a, 8)
    } else {
        (a, if wide { 8 } else { 4 })
    };
    let signed = a.ends_with("_i32") || a.ends_with("_i64");
    let op = match head {
        "min" if signed => AtomicOp::MinI,
        "max" if signed => AtomicOp::MaxI,
        "min" => AtomicOp::MinU,
        "max" => AtomicOp::MaxU,
        "sub_clamp" => AtomicOp::Csub,
        h => AtomicOp::parse(h)?,
    };
    if op == AtomicOp::Csub {
        return None;
    }
    Some(Access::Atomic { op, bytes, rtn: false })
}

fn smem(m: &str) -> Option<SmemOp> {
    let dwords = |ty: &str| -> Option<u8> {
        Some(match ty {
            "dword" | "b32" => 1,
            "dwordx2" | "b64" => 2,
            "dwordx3" | "b96" => 3,
            "dwordx4" | "b128" => 4,
            "dwordx8" | "b256" => 8,
            "dwordx16" | "b512" => 16,
            _ => return None,
        })
    };
    let sub = |t: &str, buffer: bool| -> Option<SmemOp> {
        let (bytes, signed) = match t {
            "u8" => (1, false),
            "i8" => (1, true),
            "u16" => (2, false),
            "i16" => (2, true),
            _ => return None,
        };
        Some(SmemOp::LoadSub { bytes, signed, buffer })
    };
    if let Some(t) = m.strip_prefix("s_buffer_load_") {
        return dwords(t).map(SmemOp::BufferLoad).or_else(|| sub(t, true));
    }
    if let Some(t) = m.strip_prefix("s_load_") {
        if let Some(s) = sub(t, false) {
            return Some(s);
        }
    }
    if let Some(t) = m.strip_prefix("s_load_") {
        return dwords(t).map(SmemOp::Load);
    }
    if let Some(t) = m.strip_prefix("s_buffer_store_") {
        return dwords(t).map(SmemOp::BufferStore);
    }
    if let Some(t) = m.strip_prefix("s_store_") {
        return dwords(t).map(SmemOp::Store);
    }
    match m {
        "s_memtime" | "s_memrealtime" => Some(SmemOp::Time),
        "s_dcache_inv"
        | "s_dcache_wb"
        | "s_dcache_inv_vol"
        | "s_dcache_wb_vol"
        | "s_gl1_inv"
        | "s_dcache_discard"
        | "s_dcache_discard_x2"
        | "s_scratch_inv"
        | "s_prefetch_data"
        | "s_prefetch_inst"
        | "s_prefetch_inst_pc_rel"
        | "s_prefetch_data_pc_rel"
        | "s_atc_probe"
        | "s_atc_probe_buffer"
        | "s_buffer_prefetch_data" => Some(SmemOp::Nop),
        _ => None,
    }
}

fn sopp(m: &str) -> Option<Op> {
    Some(match m {
        "s_endpgm" => Op::Endpgm,
        "s_barrier" | "s_barrier_wait" => Op::Barrier,
        "s_branch" => Op::Branch(BranchCond::Always),
        "s_cbranch_scc0" => Op::Branch(BranchCond::Scc0),
        "s_cbranch_scc1" => Op::Branch(BranchCond::Scc1),
        "s_cbranch_vccz" => Op::Branch(BranchCond::Vccz),
        "s_cbranch_vccnz" => Op::Branch(BranchCond::Vccnz),
        "s_cbranch_execz" => Op::Branch(BranchCond::Execz),
        "s_cbranch_execnz" => Op::Branch(BranchCond::Execnz),
        "s_trap" => Op::Trap,
        "s_sendmsg" | "s_sendmsghalt" | "s_sendmsg_rtn_b32" | "s_sendmsg_rtn_b64" => Op::Sendmsg,
        "s_nop"
        | "s_waitcnt"
        | "s_waitcnt_vscnt"
        | "s_waitcnt_vmcnt"
        | "s_waitcnt_expcnt"
        | "s_waitcnt_lgkmcnt"
        | "s_waitcnt_depctr"
        | "s_wait_idle"
        | "s_sleep"
        | "s_setprio"
        | "s_clause"
        | "s_delay_alu"
        | "s_inst_prefetch"
        | "s_icache_inv"
        | "s_incperflevel"
        | "s_decperflevel"
        | "s_ttracedata"
        | "s_ttracedata_imm"
        | "s_code_end"
        | "s_wait_alu"
        | "s_wait_loadcnt"
        | "s_wait_storecnt"
        | "s_wait_samplecnt"
        | "s_wait_bvhcnt"
        | "s_wait_expcnt"
        | "s_wait_dscnt"
        | "s_wait_kmcnt"
        | "s_wait_loadcnt_dscnt"
        | "s_wait_storecnt_dscnt"
        | "s_wait_event"
        | "s_singleuse_vdst"
        | "s_set_inst_prefetch_distance"
        | "s_version"
        | "s_setkill"
        | "s_round_mode"
        | "s_denorm_mode"
        | "s_barrier_signal"
        | "s_wakeup" => Op::Nop,
        // gfx12: sleep for a count in an SGPR; no functional effect.
        "s_sleep_var" => Op::Nop,
        _ => return None,
    })
}

fn salu(m: &str) -> Option<SOp> {
    use SOp::*;
    let m = m.strip_prefix("s_")?;
    if let Some(r) = m.strip_prefix("cmpk_") {
        let (c, t) = r.split_once('_')?;
        return Some(Cmpk(Cond::parse(c)?, CmpTy::parse(t)?));
    }
    if let Some(r) = m.strip_prefix("cmp_") {
        let (c, t) = r.split_once('_')?;
        return Some(Cmp(Cond::parse(c)?, CmpTy::parse(t)?));
    }
    if let Some(r) = m.strip_suffix("_saveexec_b32").or(m.strip_suffix("_saveexec_b64")) {
        let wide = m.ends_with("b64");
        let l = match r {
            "and" => Logic::And,
            "or" => Logic::Or,
            "xor" => Logic::Xor,
            "andn2" | "and_not1" => Logic::AndNotExec,
            "orn2" | "or_not1" => Logic::OrNotExec,
            "nand" => Logic::Nand,
            "nor" => Logic::Nor,
            "xnor" => Logic::Xnor,
            "andn1" | "and_not0" => Logic::NotSAndExec,
            "orn1" | "or_not0" => Logic::NotSOrExec,
            _ => return None,
        };
        return Some(Saveexec(l, wide));
    }
    match m {
        "andn1_wrexec_b32" | "and_not0_wrexec_b32" => return Some(Saveexec(Logic::NotSAndExecWr, false)),
        "andn1_wrexec_b64" | "and_not0_wrexec_b64" => return Some(Saveexec(Logic::NotSAndExecWr, true)),
        "andn2_wrexec_b32" | "and_not1_wrexec_b32" => return Some(Saveexec(Logic::AndNotExecWr, false)),
        "andn2_wrexec_b64" | "and_not1_wrexec_b64" => return Some(Saveexec(Logic::AndNotExecWr, true)),
        _ => {}
    }
    if let Some(r) = m.strip_suffix("_f32").or(m.strip_suffix("_f16")) {
        let half = m.ends_with("_f16");
        let f = match r {
            "add" => Some(FloatOp::Add),
            "sub" => Some(FloatOp::Sub),
            "mul" => Some(FloatOp::Mul),
            "min_num" => Some(FloatOp::MinNum),
            "max_num" => Some(FloatOp::MaxNum),
            "minimum" => Some(FloatOp::Minimum),
            "maximum" => Some(FloatOp::Maximum),
            "fmac" => Some(FloatOp::Fmac),
            "fmaak" => Some(FloatOp::Fmaak),
            "fmamk" => Some(FloatOp::Fmamk),
            "ceil" => Some(FloatOp::Ceil),
            "floor" => Some(FloatOp::Floor),
            "trunc" => Some(FloatOp::Trunc),
            "rndne" => Some(FloatOp::Rndne),
            _ => None,
        };
        if let Some(f) = f {
            return Some(Float(f, half));
        }
    }
    let cvt = match m {
        "cvt_f32_i32" => Some(ScalarCvt::F32I32),
        "cvt_f32_u32" => Some(ScalarCvt::F32U32),
        "cvt_i32_f32" => Some(ScalarCvt::I32F32),
        "cvt_u32_f32" => Some(ScalarCvt::U32F32),
        "cvt_f16_f32" => Some(ScalarCvt::F16F32),
        "cvt_f32_f16" => Some(ScalarCvt::F32F16),
        "cvt_hi_f32_f16" => Some(ScalarCvt::HiF32F16),
        "cvt_pk_rtz_f16_f32" => Some(ScalarCvt::PkRtzF16F32),
        _ => None,
    };
    if let Some(c) = cvt {
        return Some(Cvt(c));
    }
    // gfx12 renamed the carry-out/in forms of scalar add/sub (`s_add_u32` -> `s_add_co_u32`, `s_addc_u32`
    // -> `s_add_co_ci_u32`, `s_addk_i32` -> `s_addk_co_i32`); the semantics, SCC included, are unchanged.
    Some(match m {
        "add_u32" | "add_co_u32" => AddU32,
        "sub_u32" | "sub_co_u32" => SubU32,
        "add_i32" | "add_co_i32" => AddI32,
        "sub_i32" | "sub_co_i32" => SubI32,
        "addc_u32" | "add_co_ci_u32" => AddcU32,
        "subb_u32" | "sub_co_ci_u32" => SubbU32,
        "min_i32" => MinI32,
        "min_u32" => MinU32,
        "max_i32" => MaxI32,
        "max_u32" => MaxU32,
        "cselect_b32" => CselectB32,
        "cselect_b64" => CselectB64,
        "and_b32" => AndB32,
        "and_b64" => AndB64,
        "or_b32" => OrB32,
        "or_b64" => OrB64,
        "xor_b32" => XorB32,
        "xor_b64" => XorB64,
        "andn2_b32" | "and_not1_b32" => Andn2B32,
        "andn2_b64" | "and_not1_b64" => Andn2B64,
        "orn2_b32" | "or_not1_b32" => Orn2B32,
        "orn2_b64" | "or_not1_b64" => Orn2B64,
        "nand_b32" => NandB32,
        "nand_b64" => NandB64,
        "nor_b32" => NorB32,
        "nor_b64" => NorB64,
        "xnor_b32" => XnorB32,
        "xnor_b64" => XnorB64,
        "lshl_b32" => LshlB32,
        "lshl_b64" => LshlB64,
        "lshr_b32" => LshrB32,
        "lshr_b64" => LshrB64,
        "ashr_i32" => AshrI32,
        "ashr_i64" => AshrI64,
        "bfm_b32" => BfmB32,
        "bfm_b64" => BfmB64,
        "mul_i32" => MulI32,
        "bfe_u32" => BfeU32,
        "bfe_i32" => BfeI32,
        "bfe_u64" => BfeU64,
        "bfe_i64" => BfeI64,
        "absdiff_i32" => AbsdiffI32,
        "mul_hi_u32" => MulHiU32,
        "mul_hi_i32" => MulHiI32,
        "add_nc_u64" => AddNcU64,
        "sub_nc_u64" => SubNcU64,
        "mul_u64" => MulU64,
        "lshl1_add_u32" => Lshl1AddU32,
        "lshl2_add_u32" => Lshl2AddU32,
        "lshl3_add_u32" => Lshl3AddU32,
        "lshl4_add_u32" => Lshl4AddU32,
        "pack_ll_b32_b16" => PackLlB32B16,
        "pack_lh_b32_b16" => PackLhB32B16,
        "pack_hh_b32_b16" => PackHhB32B16,
        "pack_hl_b32_b16" => PackHlB32B16,
        "mov_b32" => MovB32,
        "mov_b64" => MovB64,
        "cmov_b32" => CmovB32,
        "cmov_b64" => CmovB64,
        "not_b32" => NotB32,
        "not_b64" => NotB64,
        "wqm_b32" => WqmB32,
        "wqm_b64" => WqmB64,
        "brev_b32" => BrevB32,
        "brev_b64" => BrevB64,
        "bcnt0_i32_b32" => Bcnt0B32,
        "bcnt0_i32_b64" => Bcnt0B64,
        "bcnt1_i32_b32" => Bcnt1B32,
        "bcnt1_i32_b64" => Bcnt1B64,
        "ff0_i32_b32" => Ff0B32,
        "ff0_i32_b64" => Ff0B64,
        "ff1_i32_b32" | "ctz_i32_b32" => Ff1B32,
        "ff1_i32_b64" | "ctz_i32_b64" => Ff1B64,
        "flbit_i32_b32" | "clz_i32_u32" => FlbitB32,
        "flbit_i32_b64" | "clz_i32_u64" => FlbitB64,
        "flbit_i32" | "cls_i32" => FlbitI32,
        "flbit_i32_i64" | "cls_i32_i64" => FlbitI64,
        "sext_i32_i8" => SextI8,
        "sext_i32_i16" => SextI16,
        "bitset0_b32" => Bitset0B32,
        "bitset0_b64" => Bitset0B64,
        "bitset1_b32" => Bitset1B32,
        "bitset1_b64" => Bitset1B64,
        "getpc_b64" => GetpcB64,
        "setpc_b64" => SetpcB64,
        "swappc_b64" => SwappcB64,
        "abs_i32" => AbsI32,
        "movrels_b32" => MovrelsB32,
        "movrels_b64" => MovrelsB64,
        "movreld_b32" => MovreldB32,
        "movreld_b64" => MovreldB64,
        "quadmask_b32" => QuadmaskB32,
        "quadmask_b64" => QuadmaskB64,
        "bitreplicate_b64_b32" => BitreplicateB64B32,
        "movk_i32" => MovkI32,
        "cmovk_i32" => CmovkI32,
        "addk_i32" | "addk_co_i32" => AddkI32,
        "mulk_i32" => MulkI32,
        "getreg_b32" => GetregB32,
        "setreg_b32" => SetregB32,
        "setreg_imm32_b32" => SetregImm32B32,
        "call_b64" => CallB64,
        "bitcmp0_b32" => Bitcmp(false, false),
        "bitcmp1_b32" => Bitcmp(true, false),
        "bitcmp0_b64" => Bitcmp(false, true),
        "bitcmp1_b64" => Bitcmp(true, true),
        _ => return None,
    })
}

fn valu(m: &str) -> Option<VOp> {
    use VOp::*;
    let m = m.strip_prefix("v_")?;
    // VOPD halves are v_dual_<op>.
    let m = m.strip_prefix("dual_").unwrap_or(m);
    Some(match m {
        "mov_b32" | "mov_fed_b32" => MovB32,
        "mov_b64" => MovB64,
        "cndmask_b32" => CndmaskB32,
        "mov_b16" => MovB16,
        "cndmask_b16" => CndmaskB16,
        "and_b16" => AndB16,
        "or_b16" => OrB16,
        "xor_b16" => XorB16,
        "not_b16" => NotB16,
        "min3_u16" => Min3U16,
        "max3_u16" => Max3U16,
        "med3_u16" => Med3U16,
        "min3_i16" => Min3I16,
        "max3_i16" => Max3I16,
        "med3_i16" => Med3I16,
        // gfx9's `_legacy` forms are VI's encodings (no op_sel): the same value, the high half zeroed as
        // every gfx9 16-bit result without op_sel[3] is here.
        "mad_u16" | "mad_legacy_u16" => MadU16,
        "mad_i16" | "mad_legacy_i16" => MadI16,
        "mad_u32_u16" => MadU32U16,
        "mad_i32_i16" => MadI32I16,
        "cvt_u32_u16" => CvtU32U16,
        "cvt_i32_i16" => CvtI32I16,
        "readlane_b32" => ReadlaneB32,
        "readfirstlane_b32" => ReadfirstlaneB32,
        "writelane_b32" => WritelaneB32,
        "accvgpr_read_b32" | "accvgpr_read" => AccvgprRead,
        "accvgpr_write_b32" | "accvgpr_write" => AccvgprWrite,
        "accvgpr_mov_b32" => AccvgprMov,
        "swap_b32" => SwapB32,
        "movrels_b32" => MovrelsB32,
        "movreld_b32" => MovreldB32,
        "nop" => Nop,
        "permlanex16_b32" => PermlaneX16,
        "permlane16_b32" => Permlane16,
        // gfx9 v_add_u32 has no carry; gfx9 v_add_co_u32 = gfx10+ VOP3b v_add_co_u32.
        "add_u32" | "add_nc_u32" => AddU32,
        "sub_u32" | "sub_nc_u32" => SubU32,
        "subrev_u32" | "subrev_nc_u32" => SubrevU32,
        "add_co_u32" => AddCoU32,
        "sub_co_u32" => SubCoU32,
        "subrev_co_u32" => SubrevCoU32,
        "addc_co_u32" | "add_co_ci_u32" => AddcCoU32,
        "subb_co_u32" | "sub_co_ci_u32" => SubbCoU32,
        "subbrev_co_u32" | "subrev_co_ci_u32" => SubbrevCoU32,
        "add_i32" | "add_nc_i32" => AddI32,
        "sub_i32" | "sub_nc_i32" => SubI32,
        "mul_lo_u32" | "mul_lo_i32" => MulLoU32,
        "mul_hi_u32" => MulHiU32,
        "mul_hi_i32" => MulHiI32,
        "mul_u32_u24" => MulU32U24,
        "mul_hi_u32_u24" => MulHiU32U24,
        "mul_i32_i24" => MulI32I24,
        "mul_hi_i32_i24" => MulHiI32I24,
        "min_u32" => MinU32,
        "max_u32" => MaxU32,
        "min_i32" => MinI32,
        "max_i32" => MaxI32,
        "and_b32" => AndB32,
        "or_b32" => OrB32,
        "xor_b32" => XorB32,
        "xnor_b32" => XnorB32,
        "not_b32" => NotB32,
        "lshlrev_b32" => LshlrevB32,
        "lshrrev_b32" => LshrrevB32,
        "ashrrev_i32" => AshrrevI32,
        "bfm_b32" => BfmB32,
        "bcnt_u32_b32" => BcntU32B32,
        "mbcnt_lo_u32_b32" => MbcntLoU32B32,
        "mbcnt_hi_u32_b32" => MbcntHiU32B32,
        "bfrev_b32" => BfrevB32,
        "ffbh_u32" | "clz_i32_u32" => FfbhU32,
        "ffbl_b32" | "ctz_i32_b32" => FfblB32,
        "ffbh_i32" | "cls_i32" => FfbhI32,
        "add3_u32" => Add3U32,
        "lshl_add_u32" => LshlAddU32,
        "add_lshl_u32" => AddLshlU32,
        "lshl_or_b32" => LshlOrB32,
        "and_or_b32" => AndOrB32,
        "or3_b32" => Or3B32,
        "xor3_b32" => Xor3B32,
        "xad_u32" => XadU32,
        "bfe_u32" => BfeU32,
        "bfe_i32" => BfeI32,
        "bfi_b32" => BfiB32,
        "alignbit_b32" => AlignbitB32,
        "alignbyte_b32" => AlignbyteB32,
        "perm_b32" => PermB32,
        "mad_u32_u24" => MadU32U24,
        "mad_i32_i24" => MadI32I24,
        "mad_u64_u32" | "mad_co_u64_u32" => MadU64U32,
        "mad_i64_i32" | "mad_co_i64_i32" => MadI64I32,
        "min3_i32" => Min3I32,
        "max3_i32" => Max3I32,
        "med3_i32" => Med3I32,
        "min3_u32" => Min3U32,
        "max3_u32" => Max3U32,
        "med3_u32" => Med3U32,
        "sad_u32" => SadU32,
        "lshlrev_b64" => LshlrevB64,
        "lshrrev_b64" => LshrrevB64,
        "ashrrev_i64" => AshrrevI64,
        "lshl_add_u64" => LshlAddU64,
        "add_u16" | "add_nc_u16" => AddU16,
        "sub_u16" | "sub_nc_u16" => SubU16,
        "subrev_u16" => SubrevU16,
        "mul_lo_u16" => MulLoU16,
        "lshlrev_b16" => LshlrevB16,
        "lshrrev_b16" => LshrrevB16,
        "ashrrev_i16" => AshrrevI16,
        "max_u16" => MaxU16,
        "max_i16" => MaxI16,
        "min_u16" => MinU16,
        "min_i16" => MinI16,
        "add_nc_i16" | "add_i16" => AddNcI16,
        "sub_nc_i16" | "sub_i16" => SubNcI16,
        "add_f32" => AddF32,
        "sub_f32" => SubF32,
        "subrev_f32" => SubrevF32,
        "mul_f32" => MulF32,
        "mul_legacy_f32" | "mul_dx9_zero_f32" => MulLegacyF32,
        "fma_f32" => FmaF32,
        "mad_f32" | "mad_legacy_f32" => MadF32,
        "mac_f32" => MacF32,
        "fmac_f32" => FmacF32,
        "fmamk_f32" => FmamkF32,
        "fmaak_f32" => FmaakF32,
        "madmk_f32" => MadmkF32,
        "madak_f32" => MadakF32,
        "min_f32" | "min_num_f32" => MinF32,
        "max_f32" | "max_num_f32" => MaxF32,
        "min3_f32" | "min3_num_f32" => Min3F32,
        "max3_f32" | "max3_num_f32" => Max3F32,
        "med3_f32" | "med3_num_f32" => Med3F32,
        "rcp_f32" => RcpF32,
        "rcp_iflag_f32" => RcpIflagF32,
        "rsq_f32" => RsqF32,
        "sqrt_f32" => SqrtF32,
        "log_f32" => LogF32,
        "exp_f32" => ExpF32,
        "sin_f32" => SinF32,
        "cos_f32" => CosF32,
        "floor_f32" => FloorF32,
        "ceil_f32" => CeilF32,
        "trunc_f32" => TruncF32,
        "rndne_f32" => RndneF32,
        "fract_f32" => FractF32,
        "ldexp_f32" => LdexpF32,
        "frexp_mant_f32" => FrexpMantF32,
        "frexp_exp_i32_f32" => FrexpExpI32F32,
        "div_scale_f32" => DivScaleF32,
        "div_fmas_f32" => DivFmasF32,
        "div_fixup_f32" => DivFixupF32,
        "cvt_f32_i32" => CvtF32I32,
        "cvt_f32_u32" => CvtF32U32,
        "cvt_i32_f32" => CvtI32F32,
        "cvt_u32_f32" => CvtU32F32,
        "cvt_rpi_i32_f32" | "cvt_nearest_i32_f32" => CvtRpiI32F32,
        "cvt_flr_i32_f32" | "cvt_floor_i32_f32" => CvtFlrI32F32,
        "cvt_f32_ubyte0" => CvtF32Ubyte0,
        "cvt_f32_ubyte1" => CvtF32Ubyte1,
        "cvt_f32_ubyte2" => CvtF32Ubyte2,
        "cvt_f32_ubyte3" => CvtF32Ubyte3,
        "cvt_pkrtz_f16_f32" | "cvt_pk_rtz_f16_f32" => CvtPkrtzF16F32,
        "fma_mix_f32" => FmaMixF32,
        "fma_mixlo_f16" => FmaMixloF16,
        "fma_mixhi_f16" => FmaMixhiF16,
        "dot2c_f32_f16" | "dot2acc_f32_f16" => Dot2cF32F16,
        "dot4_u32_u8" => Dot4U32U8,
        "dot4_i32_i8" => Dot4I32I8,
        "fmac_legacy_f32" | "fmac_dx9_zero_f32" => FmacLegacyF32,
        "add_f64" | "add_f64_e64" => AddF64,
        "mul_f64" => MulF64,
        "fma_f64" => FmaF64,
        "fmac_f64" => FmacF64,
        "min_f64" | "min_num_f64" => MinF64,
        "max_f64" | "max_num_f64" => MaxF64,
        "ldexp_f64" => LdexpF64,
        "div_scale_f64" => DivScaleF64,
        "div_fmas_f64" => DivFmasF64,
        "div_fixup_f64" => DivFixupF64,
        "rcp_f64" => RcpF64,
        "rsq_f64" => RsqF64,
        "sqrt_f64" => SqrtF64,
        "fract_f64" => FractF64,
        "floor_f64" => FloorF64,
        "ceil_f64" => CeilF64,
        "trunc_f64" => TruncF64,
        "rndne_f64" => RndneF64,
        "frexp_mant_f64" => FrexpMantF64,
        "frexp_exp_i32_f64" => FrexpExpI32F64,
        "cvt_f64_i32" => CvtF64I32,
        "cvt_f64_u32" => CvtF64U32,
        "cvt_i32_f64" => CvtI32F64,
        "cvt_u32_f64" => CvtU32F64,
        "cvt_f32_f64" => CvtF32F64,
        "cvt_f64_f32" => CvtF64F32,
        "trig_preop_f64" => TrigPreopF64,
        "add_f16" => AddF16,
        "sub_f16" => SubF16,
        "subrev_f16" => SubrevF16,
        "mul_f16" => MulF16,
        "fma_f16" | "fma_legacy_f16" => FmaF16,
        "fmac_f16" => FmacF16,
        "mad_f16" | "mad_legacy_f16" => MadF16,
        "mac_f16" => MacF16,
        "min_f16" | "min_num_f16" => MinF16,
        "max_f16" | "max_num_f16" => MaxF16,
        "sqrt_f16" => SqrtF16,
        "rcp_f16" => RcpF16,
        "rsq_f16" => RsqF16,
        "log_f16" => LogF16,
        "exp_f16" => ExpF16,
        "floor_f16" => FloorF16,
        "ceil_f16" => CeilF16,
        "trunc_f16" => TruncF16,
        "rndne_f16" => RndneF16,
        "fract_f16" => FractF16,
        "ldexp_f16" => LdexpF16,
        "cvt_f32_f16" => CvtF32F16,
        "cvt_f16_f32" => CvtF16F32,
        "cvt_f16_u16" => CvtF16U16,
        "cvt_f16_i16" => CvtF16I16,
        "cvt_u16_f16" => CvtU16F16,
        "cvt_i16_f16" => CvtI16F16,
        "pack_b32_f16" => PackB32F16,
        "med3_f16" => Med3F16,
        "max3_f16" => Max3F16,
        "min3_f16" => Min3F16,
        "fmamk_f16" => FmamkF16,
        "fmaak_f16" => FmaakF16,
        "pk_add_f16" => PkAddF16,
        "pk_mul_f16" => PkMulF16,
        "pk_fma_f16" => PkFmaF16,
        "pk_min_f16" => PkMinF16,
        "pk_max_f16" => PkMaxF16,
        "pk_add_u16" => PkAddU16,
        "pk_sub_u16" => PkSubU16,
        "pk_add_i16" => PkAddI16,
        "pk_sub_i16" => PkSubI16,
        "pk_mul_lo_u16" => PkMulLoU16,
        "pk_lshlrev_b16" => PkLshlrevB16,
        "pk_lshrrev_b16" => PkLshrrevB16,
        "pk_ashrrev_i16" => PkAshrrevI16,
        "pk_max_u16" => PkMaxU16,
        "pk_min_u16" => PkMinU16,
        "pk_max_i16" => PkMaxI16,
        "pk_min_i16" => PkMinI16,
        "pk_mad_u16" => PkMadU16,
        "pk_mov_b32" => PkMovB32,
        "pk_fma_f32" => PkFmaF32,
        "pk_mul_f32" => PkMulF32,
        "pk_add_f32" => PkAddF32,
        _ => return None,
    })
}

fn vcmp(m: &str) -> Option<Op> {
    let (x, rest) =
        if let Some(r) = m.strip_prefix("v_cmpx_") { (true, r) } else { (false, m.strip_prefix("v_cmp_")?) };
    let (c, t) = rest.split_once('_')?;
    let ty = CmpTy::parse(t)?;
    if c == "class" {
        return Some(Op::Vcmp { cond: Cond::F, ty, x, class: true });
    }
    Some(Op::Vcmp { cond: Cond::parse(c)?, ty, x, class: false })
}

impl Op {
    /// The operation of an LLVM mnemonic (without `_e32`/`_e64`/`_sdwa`/`_dpp`).
    pub fn from_mnemonic(m: &str) -> Op {
        if let Some(op) = sopp(m) {
            return op;
        }
        if let Some(s) = smem(m) {
            return Op::Smem(s);
        }
        if m.starts_with("s_") {
            return salu(m).map_or(Op::Unimplemented, Op::Salu);
        }
        if m == "v_mfma_ld_scale_b32" {
            return Op::MfmaLdScale;
        }
        if let Some(x) = Mfma::parse(m) {
            return Op::Mfma(x);
        }
        if let Some(x) = Wmma::parse(m) {
            return Op::Wmma(x);
        }
        if let Some(r) = m.strip_prefix("v_s_") {
            let half = r.ends_with("_f16");
            let t = match r.trim_end_matches("_f32").trim_end_matches("_f16") {
                "exp" => Some(TransOp::Exp),
                "log" => Some(TransOp::Log),
                "rcp" => Some(TransOp::Rcp),
                "rsq" => Some(TransOp::Rsq),
                "sqrt" => Some(TransOp::Sqrt),
                _ => None,
            };
            return t.map_or(Op::Unimplemented, |t| Op::Salu(SOp::Trans(t, half)));
        }
        if m.starts_with("v_cmp") {
            return vcmp(m).unwrap_or(Op::Unimplemented);
        }
        if m.starts_with("v_") {
            return valu(m).map_or(Op::Unimplemented, Op::Valu);
        }
        if let Some(r) = m.strip_prefix("ds_") {
            return ds_access(r).map_or(Op::Unimplemented, Op::Ds);
        }
        // Typed buffer accesses: a format access whose format the instruction names.
        if let Some(r) = m.strip_prefix("tbuffer_") {
            return format_access(r).map_or(Op::Unimplemented, |a| Op::Vmem(Seg::Buffer, a));
        }
        for (prefix, seg) in
            [("global_", Seg::Global), ("flat_", Seg::Flat), ("scratch_", Seg::Scratch), ("buffer_", Seg::Buffer)]
        {
            if let Some(r) = m.strip_prefix(prefix) {
                if matches!(
                    r,
                    "wbinvl1" | "wbinvl1_vol" | "gl0_inv" | "gl1_inv" | "wbl2" | "invl2" | "inv" | "wb" | "wbinvl1_sc"
                ) {
                    return Op::Nop;
                }
                let format = if seg == Seg::Buffer { format_access(r) } else { None };
                return format.or_else(|| vmem_access(r)).map_or(Op::Unimplemented, |a| Op::Vmem(seg, a));
            }
        }
        Op::Unimplemented
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_of_renamed_instructions_agree() {
        for (gfx9, gfx11) in [
            ("global_load_dword", "global_load_b32"),
            ("global_load_dwordx4", "global_load_b128"),
            ("global_load_ubyte", "global_load_u8"),
            ("global_load_sshort", "global_load_i16"),
            ("global_store_short_d16_hi", "global_store_d16_hi_b16"),
            ("global_load_short_d16_hi", "global_load_d16_hi_b16"),
            ("global_atomic_add", "global_atomic_add_u32"),
            ("global_atomic_cmpswap_x2", "global_atomic_cmpswap_b64"),
            ("global_atomic_smax", "global_atomic_max_i32"),
            ("ds_write_b32", "ds_store_b32"),
            ("ds_read_u8", "ds_load_u8"),
            ("ds_read2st64_b32", "ds_load_2addr_stride64_b32"),
            ("ds_write2_b64", "ds_store_2addr_b64"),
            ("s_load_dwordx2", "s_load_b64"),
            ("s_andn2_b32", "s_and_not1_b32"),
            ("s_andn2_saveexec_b64", "s_and_not1_saveexec_b64"),
            ("s_ff1_i32_b32", "s_ctz_i32_b32"),
            ("v_add_u32", "v_add_nc_u32"),
            ("v_addc_co_u32", "v_add_co_ci_u32"),
            ("v_ffbh_u32", "v_clz_i32_u32"),
        ] {
            let (a, b) = (Op::from_mnemonic(gfx9), Op::from_mnemonic(gfx11));
            assert_ne!(a, Op::Unimplemented, "{gfx9}");
            assert_eq!(a, b, "{gfx9} vs {gfx11}");
        }
    }

    #[test]
    fn shapes_of_memory_mnemonics() {
        assert_eq!(
            Op::from_mnemonic("global_load_sbyte"),
            Op::Vmem(Seg::Global, Access::Load { bytes: 1, ext: Ext::Sign })
        );
        assert_eq!(
            Op::from_mnemonic("buffer_store_dwordx3"),
            Op::Vmem(Seg::Buffer, Access::Store { bytes: 12, hi: false })
        );
        assert_eq!(
            Op::from_mnemonic("ds_add_rtn_u32"),
            Op::Ds(DsOp::Access(Access::Atomic { op: AtomicOp::Add, bytes: 4, rtn: true }))
        );
        assert_eq!(
            Op::from_mnemonic("flat_atomic_add_f32"),
            Op::Vmem(Seg::Flat, Access::Atomic { op: AtomicOp::AddF, bytes: 4, rtn: false })
        );
        assert_eq!(
            Op::from_mnemonic("v_cmpx_lt_u64"),
            Op::Vcmp { cond: Cond::Lt, ty: CmpTy::U64, x: true, class: false }
        );
        assert_eq!(Op::from_mnemonic("s_cmpk_lg_u32"), Op::Salu(SOp::Cmpk(Cond::Lg, CmpTy::U32)));
        assert_eq!(Op::from_mnemonic("v_frobnicate_b32"), Op::Unimplemented);
    }
}
