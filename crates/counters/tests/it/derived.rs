//! Derived metrics on hand-made samples. Each test states the inputs and works the expected
//! value out by hand in comments. Value counts follow the reference agents:
//! gfx908: GRBM 1, SQ 8 (8 SE), TCC 32, TA 16 x 8 SE = 128.
//! gfx90a: GRBM 1, SQ 8, CU_NUM 110.
//! gfx942: GRBM 8 (XCC), SQ 8 XCC x 4 SE = 32, TCC 8 x 16 = 128, TA/TCP 8 x 11 x 4 = 352.
//! gfx1100: GRBM 1, SQ 4 WGP x 6 SE x 2 SA = 48, GL2C 32.
//! gfx1201: GRBM 1, SQ 4 WGP x 4 SE x 2 SA = 32, GL2C 16, TA 2 x 4 SE x 2 SA = 16.

use rocprof_counters::{evaluate_expr, AccumulateMode, Database, Dimension, Expr, Samples, Values};

use crate::{agent, close, count, eval, eval1, put, put_all};

#[test]
fn value_counts_match_the_reference_agents() {
    let a = agent("gfx942");
    assert_eq!(
        (count(&a, "GRBM_COUNT"), count(&a, "SQ_WAVES"), count(&a, "TCC_HIT"), count(&a, "TA_TA_BUSY")),
        (8, 32, 128, 352)
    );
    let a = agent("gfx1100");
    assert_eq!((count(&a, "SQ_WAVES"), count(&a, "GL2C_HIT")), (48, 32));
    let a = agent("gfx1201");
    assert_eq!((count(&a, "SQ_WAVES"), count(&a, "GL2C_HIT"), count(&a, "TA_TA_BUSY")), (32, 16, 16));
}

// ---------------------------------------------------------------- gfx942 (MI300X, 8 XCC)

#[test]
fn gfx942_gpu_util() {
    // GPU_UTIL = 100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)
    // GUI_ACTIVE per XCC = 100, 200, ..., 800 -> max 800; GRBM_COUNT = 1000 everywhere.
    // 100 * 800 / 1000 = 80
    let a = agent("gfx942");
    let mut s = Samples::new();
    put(&mut s, &a, "GRBM_GUI_ACTIVE", (1..=8).map(|x| f64::from(x) * 100.0).collect());
    put_all(&mut s, &a, "GRBM_COUNT", 1000.0);
    close(eval1(&a, &s, "GPU_UTIL"), 80.0);
}

#[test]
fn gfx942_agent_constants() {
    // CU_NUM = simd_count/simd_per_cu = (304*4)/4 = 304; SIMD_NUM = 1216;
    // SE_NUM = array_count/simd_arrays_per_engine = (32 SE * 1 SA)/1 = 32; MAX_WAVE_SIZE = 64.
    let a = agent("gfx942");
    let s = Samples::new();
    assert_eq!(
        [eval1(&a, &s, "CU_NUM"), eval1(&a, &s, "SIMD_NUM"), eval1(&a, &s, "SE_NUM"), eval1(&a, &s, "MAX_WAVE_SIZE")],
        [304.0, 1216.0, 32.0, 64.0]
    );
}

#[test]
fn gfx942_valu_busy() {
    // VALUBusy = 100*reduce(SQ_ACTIVE_INST_VALU,sum)/CU_NUM/reduce(GRBM_GUI_ACTIVE,max)
    // SQ_ACTIVE_INST_VALU = 950 on each of 32 values -> 30400; CU_NUM 304; GUI max 1000.
    // 100 * 30400 / 304 / 1000 = 100 * 100 / 1000 = 10
    let a = agent("gfx942");
    let mut s = Samples::new();
    assert_eq!(put_all(&mut s, &a, "SQ_ACTIVE_INST_VALU", 950.0), 32);
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 1000.0);
    close(eval1(&a, &s, "VALUBusy"), 10.0);
}

#[test]
fn gfx942_valu_utilization() {
    // VALUUtilization = 100*reduce(SQ_THREAD_CYCLES_VALU,sum)/(reduce(SQ_ACTIVE_INST_VALU,sum)*MAX_WAVE_SIZE)
    // THREAD_CYCLES 1600 x 32 = 51200; ACTIVE_INST 50 x 32 = 1600; 1600 * 64 = 102400.
    // 100 * 51200 / 102400 = 50
    let a = agent("gfx942");
    let mut s = Samples::new();
    put_all(&mut s, &a, "SQ_THREAD_CYCLES_VALU", 1600.0);
    put_all(&mut s, &a, "SQ_ACTIVE_INST_VALU", 50.0);
    close(eval1(&a, &s, "VALUUtilization"), 50.0);
}

#[test]
fn gfx942_tcc_hit_sum() {
    // TCC_HIT_sum = reduce(TCC_HIT,sum); 128 values 0, 1, ..., 127 -> 127*128/2 = 8128
    let a = agent("gfx942");
    let mut s = Samples::new();
    put(&mut s, &a, "TCC_HIT", (0..128).map(f64::from).collect());
    close(eval1(&a, &s, "TCC_HIT_sum"), 8128.0);
}

#[test]
fn gfx942_mfma_flops_keeps_dimensions() {
    // MfmaFlopsF64 = SQ_INSTS_VALU_MFMA_MOPS_F64*512, not reduced: one value per XCC x SE.
    // Input: value k+1 at flat index k (XCC-major, SE fastest). At XCC 2, SE 3 the flat
    // index is 2*4+3 = 11, so the input is 12 and the result 12*512 = 6144.
    let a = agent("gfx942");
    let mut s = Samples::new();
    put(&mut s, &a, "SQ_INSTS_VALU_MFMA_MOPS_F64", (1..=32).map(f64::from).collect());
    let v = eval(&a, &s, "MfmaFlopsF64");
    assert_eq!(v.data().len(), 32);
    assert_eq!(v.get(&[(Dimension::Xcc, 2), (Dimension::ShaderEngine, 3)]), Some(6144.0));
    assert_eq!(v.data()[0], 512.0);
}

#[test]
fn gfx942_mean_occupancy_per_cu_uses_accumulated_samples() {
    // MeanOccupancyPerCU = reduce(accumulate(SQ_LEVEL_WAVES,HIGH_RES),sum)/reduce(GRBM_GUI_ACTIVE,max)/CU_NUM
    // accumulated SQ_LEVEL_WAVES = 9500 on 32 values -> 304000; GUI 100; CU 304.
    // 304000 / 100 / 304 = 10. The plain SQ_LEVEL_WAVES samples (1 each) must not be used.
    let a = agent("gfx942");
    let mut s = Samples::new();
    put_all(&mut s, &a, "SQ_LEVEL_WAVES", 1.0);
    let dims = rocprof_counters::counter_dimensions(Database::builtin(), &a, "SQ_LEVEL_WAVES").unwrap();
    s.insert_accumulated("SQ_LEVEL_WAVES", AccumulateMode::HighRes, Values::new(dims, vec![9500.0; 32]).unwrap());
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 100.0);
    close(eval1(&a, &s, "MeanOccupancyPerCU"), 10.0);
}

#[test]
fn gfx942_fetch_size() {
    // FETCH_SIZE = (TCC_BUBBLE_sum*128 + (TCC_EA0_RDREQ_sum-TCC_BUBBLE_sum-TCC_EA0_RDREQ_32B_sum)*64
    //               + TCC_EA0_RDREQ_32B_sum*32)/1024
    // 128 TCC values each: BUBBLE 1 -> 128, EA0_RDREQ 10 -> 1280, EA0_RDREQ_32B 2 -> 256.
    // (128*128 + (1280-128-256)*64 + 256*32)/1024 = (16384 + 57344 + 8192)/1024 = 80
    let a = agent("gfx942");
    let mut s = Samples::new();
    put_all(&mut s, &a, "TCC_BUBBLE", 1.0);
    put_all(&mut s, &a, "TCC_EA0_RDREQ", 10.0);
    put_all(&mut s, &a, "TCC_EA0_RDREQ_32B", 2.0);
    close(eval1(&a, &s, "FETCH_SIZE"), 80.0);
    // FetchSize is defined as FETCH_SIZE.
    close(eval1(&a, &s, "FetchSize"), 80.0);
}

#[test]
fn gfx942_write_size() {
    // WRITE_SIZE = ((TCC_EA0_WRREQ_sum-TCC_EA0_WRREQ_64B_sum)*32+TCC_EA0_WRREQ_64B_sum*64)/1024
    // 128 values: WRREQ 4 -> 512, WRREQ_64B 1 -> 128. ((512-128)*32 + 128*64)/1024 = 20480/1024 = 20
    let a = agent("gfx942");
    let mut s = Samples::new();
    put_all(&mut s, &a, "TCC_EA0_WRREQ", 4.0);
    put_all(&mut s, &a, "TCC_EA0_WRREQ_64B", 1.0);
    close(eval1(&a, &s, "WRITE_SIZE"), 20.0);
}

#[test]
fn gfx942_mem_unit_stalled() {
    // MemUnitStalled = 100*TCP_TCP_TA_DATA_STALL_CYCLES_max/reduce(GRBM_GUI_ACTIVE,max)/SE_NUM
    // 352 TCP values, all 0 except one 640 -> max 640; GUI 100; SE_NUM 32.
    // 100 * 640 / 100 / 32 = 20
    let a = agent("gfx942");
    let mut s = Samples::new();
    let mut v = vec![0.0; 352];
    v[200] = 640.0;
    put(&mut s, &a, "TCP_TCP_TA_DATA_STALL_CYCLES", v);
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 100.0);
    close(eval1(&a, &s, "MemUnitStalled"), 20.0);
}

#[test]
fn gfx942_ta_busy_reductions() {
    // TA_TA_BUSY: 352 values, the first 176 are 10, the rest 30.
    // TA_BUSY_avr = (176*10 + 176*30)/352 = 20; TA_BUSY_min = 10; TA_BUSY_max = 30.
    let a = agent("gfx942");
    let mut s = Samples::new();
    put(&mut s, &a, "TA_TA_BUSY", (0..352).map(|i| if i < 176 { 10.0 } else { 30.0 }).collect());
    close(eval1(&a, &s, "TA_BUSY_avr"), 20.0);
    close(eval1(&a, &s, "TA_BUSY_min"), 10.0);
    close(eval1(&a, &s, "TA_BUSY_max"), 30.0);
}

#[test]
fn gfx942_reduce_over_shader_engines_keeps_xcc() {
    // reduce(SQ_WAVES,sum,[DIMENSION_SHADER_ENGINE]) on values k (k = 0..31, SE fastest):
    // XCC x holds 4x..4x+3, so its sum is 16x + 6: [6, 22, 38, ..., 118].
    let a = agent("gfx942");
    let db = Database::builtin();
    let mut s = Samples::new();
    put(&mut s, &a, "SQ_WAVES", (0..32).map(f64::from).collect());
    let e = Expr::parse("reduce(SQ_WAVES, sum, [DIMENSION_SHADER_ENGINE, DIMENSION_INSTANCE])").unwrap();
    let v = evaluate_expr(db.target("gfx942").unwrap(), &a, &e, &s).unwrap();
    assert_eq!(v.dims().len(), 1);
    assert_eq!(v.dims()[0].dim, Dimension::Xcc);
    let want: Vec<f64> = (0..8).map(|x| f64::from(16 * x + 6)).collect();
    assert_eq!(v.data(), want.as_slice());
}

// ---------------------------------------------------------------- gfx908 / gfx90a

#[test]
fn gfx908_alu_stalled_by_lds() {
    // ALUStalledByLDS = 400*reduce(SQ_WAIT_INST_LDS,sum)/reduce(SQ_WAVES,sum)/reduce(GRBM_GUI_ACTIVE,max)
    // WAIT_INST_LDS per SE = 10, 20, ..., 80 -> 360; SQ_WAVES 9 per SE -> 72; GUI 50.
    // 400 * 360 / 72 / 50 = 400 * 5 / 50 = 40
    let a = agent("gfx908");
    let mut s = Samples::new();
    put(&mut s, &a, "SQ_WAIT_INST_LDS", (1..=8).map(|x| f64::from(x) * 10.0).collect());
    put_all(&mut s, &a, "SQ_WAVES", 9.0);
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 50.0);
    close(eval1(&a, &s, "ALUStalledByLDS"), 40.0);
}

#[test]
fn gfx908_l2_cache_hit() {
    // L2CacheHit = 100*reduce(TCC_HIT,sum)/(reduce(TCC_HIT,sum)+reduce(TCC_MISS,sum))
    // 32 channels: HIT 3 -> 96, MISS 1 -> 32. 100 * 96 / 128 = 75
    let a = agent("gfx908");
    let mut s = Samples::new();
    assert_eq!(put_all(&mut s, &a, "TCC_HIT", 3.0), 32);
    put_all(&mut s, &a, "TCC_MISS", 1.0);
    close(eval1(&a, &s, "L2CacheHit"), 75.0);
}

#[test]
fn gfx908_lds_bank_conflict() {
    // LDSBankConflict = 100*reduce(SQ_LDS_BANK_CONFLICT,sum)/reduce(GRBM_GUI_ACTIVE,max)/CU_NUM
    // 30 per SE x 8 = 240; GUI 10; CU_NUM 120. 100 * 240 / 10 / 120 = 20
    let a = agent("gfx908");
    let mut s = Samples::new();
    put_all(&mut s, &a, "SQ_LDS_BANK_CONFLICT", 30.0);
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 10.0);
    close(eval1(&a, &s, "LDSBankConflict"), 20.0);
}

#[test]
fn gfx908_write_requests_through_aliases() {
    // WRITE_REQ_32B = TCC_EA_WRREQ_64B_sum*2+(TCC_EA_WRREQ_sum-TCC_EA_WRREQ_64B_sum)
    // 32 channels: WRREQ_64B 1 -> 32, WRREQ 3 -> 96. 32*2 + (96-32) = 128.
    // MemWrites32B is defined as WRITE_REQ_32B, so it is 128 too.
    let a = agent("gfx908");
    let mut s = Samples::new();
    put_all(&mut s, &a, "TCC_EA_WRREQ_64B", 1.0);
    put_all(&mut s, &a, "TCC_EA_WRREQ", 3.0);
    close(eval1(&a, &s, "WRITE_REQ_32B"), 128.0);
    close(eval1(&a, &s, "MemWrites32B"), 128.0);
}

#[test]
fn gfx908_vfetch_insts() {
    // VFetchInsts = (reduce(SQ_INSTS_VMEM_RD,sum)-TA_FLAT_READ_WAVEFRONTS_sum)/reduce(SQ_WAVES,sum)
    // VMEM_RD 25 per SE -> 200; TA_FLAT_READ_WAVEFRONTS: 40 on one of 128 values -> 40;
    // SQ_WAVES 2 per SE -> 16. (200 - 40) / 16 = 10
    let a = agent("gfx908");
    let mut s = Samples::new();
    put_all(&mut s, &a, "SQ_INSTS_VMEM_RD", 25.0);
    let mut flat = vec![0.0; 128];
    flat[77] = 40.0;
    put(&mut s, &a, "TA_FLAT_READ_WAVEFRONTS", flat);
    put_all(&mut s, &a, "SQ_WAVES", 2.0);
    close(eval1(&a, &s, "VFetchInsts"), 10.0);
}

#[test]
fn gfx908_division_by_zero_is_zero() {
    // GPU_UTIL with GRBM_COUNT = 0: rocprofiler-sdk defines x/0 as 0.
    let a = agent("gfx908");
    let mut s = Samples::new();
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 5.0);
    put_all(&mut s, &a, "GRBM_COUNT", 0.0);
    close(eval1(&a, &s, "GPU_UTIL"), 0.0);
}

#[test]
fn gfx90a_agg_sys_cycles_and_active_threads() {
    // AggSysCycles = reduce(GRBM_GUI_ACTIVE,max)*CU_NUM = 1000 * 110 = 110000
    // AvgNumActiveThreads = reduce(SQ_THREAD_CYCLES_VALU,sum)/reduce(SQ_ACTIVE_INST_VALU,sum)
    //   = (8 * 480) / (8 * 10) = 48
    let a = agent("gfx90a");
    let mut s = Samples::new();
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 1000.0);
    put_all(&mut s, &a, "SQ_THREAD_CYCLES_VALU", 480.0);
    put_all(&mut s, &a, "SQ_ACTIVE_INST_VALU", 10.0);
    close(eval1(&a, &s, "AggSysCycles"), 110000.0);
    close(eval1(&a, &s, "AvgNumActiveThreads"), 48.0);
}

// ---------------------------------------------------------------- gfx1100 (RDNA3)

#[test]
fn gfx1100_occupancy_percent() {
    // OccupancyPercent = 100*reduce(SQ_WAVE_CYCLES,sum)/reduce(GRBM_GUI_ACTIVE,max)/CU_NUM/32
    // 48 SQ values of 64 -> 3072; GUI 10; CU_NUM 96. 100 * 3072 / 10 / 96 / 32 = 10
    let a = agent("gfx1100");
    let mut s = Samples::new();
    assert_eq!(put_all(&mut s, &a, "SQ_WAVE_CYCLES", 64.0), 48);
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 10.0);
    close(eval1(&a, &s, "OccupancyPercent"), 10.0);
}

#[test]
fn gfx1100_lds_latency() {
    // LdsLatency = reduce(accumulate(SQ_INST_LEVEL_LDS,HIGH_RES),sum)/reduce(SQ_INSTS_LDS,sum)
    // accumulated level 30 x 48 = 1440; SQ_INSTS_LDS 1 x 48 = 48. 1440 / 48 = 30
    let a = agent("gfx1100");
    let mut s = Samples::new();
    let dims = rocprof_counters::counter_dimensions(Database::builtin(), &a, "SQ_INST_LEVEL_LDS").unwrap();
    s.insert_accumulated("SQ_INST_LEVEL_LDS", AccumulateMode::HighRes, Values::new(dims, vec![30.0; 48]).unwrap());
    put_all(&mut s, &a, "SQ_INSTS_LDS", 1.0);
    close(eval1(&a, &s, "LdsLatency"), 30.0);
}

#[test]
fn gfx1100_fetch_size() {
    // FETCH_SIZE = (GL2C_EA_RDREQ_32B_sum*32+GL2C_EA_RDREQ_64B_sum*64+GL2C_EA_RDREQ_96B_sum*96
    //               +GL2C_EA_RDREQ_128B_sum*128)/1024
    // 32 channels: 32B 1 -> 32, 64B 1 -> 32, 96B 0, 128B 2 -> 64.
    // (32*32 + 32*64 + 0 + 64*128)/1024 = (1024 + 2048 + 8192)/1024 = 11
    let a = agent("gfx1100");
    let mut s = Samples::new();
    put_all(&mut s, &a, "GL2C_EA_RDREQ_32B", 1.0);
    put_all(&mut s, &a, "GL2C_EA_RDREQ_64B", 1.0);
    put_all(&mut s, &a, "GL2C_EA_RDREQ_96B", 0.0);
    put_all(&mut s, &a, "GL2C_EA_RDREQ_128B", 2.0);
    close(eval1(&a, &s, "FETCH_SIZE"), 11.0);
}

#[test]
fn gfx1100_write_size() {
    // WRITE_SIZE = ((GL2C_MC_WRREQ_sum-GL2C_EA_WRREQ_64B_sum)*32+GL2C_EA_WRREQ_64B_sum*64)/1024
    // 32 channels: MC_WRREQ 3 -> 96, EA_WRREQ_64B 1 -> 32. ((96-32)*32 + 32*64)/1024 = 4
    let a = agent("gfx1100");
    let mut s = Samples::new();
    put_all(&mut s, &a, "GL2C_MC_WRREQ", 3.0);
    put_all(&mut s, &a, "GL2C_EA_WRREQ_64B", 1.0);
    close(eval1(&a, &s, "WRITE_SIZE"), 4.0);
}

#[test]
fn gfx1100_write_unit_stalled() {
    // WriteUnitStalled = 100*GL2C_WRREQ_STALL_max/reduce(GRBM_GUI_ACTIVE,max)
    // GL2C_WRREQ_STALL_max = reduce(GL2C_MC_WRREQ_STALL,max): channel 7 = 25, others 5 -> 25.
    // GUI 50. 100 * 25 / 50 = 50
    let a = agent("gfx1100");
    let mut s = Samples::new();
    let mut v = vec![5.0; 32];
    v[7] = 25.0;
    put(&mut s, &a, "GL2C_MC_WRREQ_STALL", v);
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 50.0);
    close(eval1(&a, &s, "WriteUnitStalled"), 50.0);
}

#[test]
fn gfx1100_mean_occupancy_per_active_cu_and_constants() {
    // MeanOccupancyPerActiveCU = reduce(SQ_WAVE_CYCLES,sum)/reduce(SQ_BUSY_CYCLES,sum)
    // 48 x 64 = 3072 over 48 x 16 = 768 -> 4.
    // SE_NUM = array_count/simd_arrays_per_engine = (6*2)/2 = 6; CU_NUM = (96*2)/2 = 96.
    let a = agent("gfx1100");
    let mut s = Samples::new();
    put_all(&mut s, &a, "SQ_WAVE_CYCLES", 64.0);
    put_all(&mut s, &a, "SQ_BUSY_CYCLES", 16.0);
    close(eval1(&a, &s, "MeanOccupancyPerActiveCU"), 4.0);
    close(eval1(&a, &s, "SE_NUM"), 6.0);
    close(eval1(&a, &s, "CU_NUM"), 96.0);
}

// ---------------------------------------------------------------- gfx1201 (RDNA4)

#[test]
fn gfx1201_l2_cache_hit() {
    // L2CacheHit = 100*reduce(GL2C_HIT,sum)/(reduce(GL2C_HIT,sum)+reduce(GL2C_MISS,sum))
    // 16 channels: HIT 9 -> 144, MISS 7 -> 112. 100 * 144 / 256 = 56.25
    let a = agent("gfx1201");
    let mut s = Samples::new();
    assert_eq!(put_all(&mut s, &a, "GL2C_HIT", 9.0), 16);
    put_all(&mut s, &a, "GL2C_MISS", 7.0);
    close(eval1(&a, &s, "L2CacheHit"), 56.25);
}

#[test]
fn gfx1201_wave_dep_wait() {
    // WAVE_DEP_WAIT = 100*reduce(SQ_WAIT_ANY,sum)/reduce(SQ_WAVE_CYCLES,sum)
    // 32 SQ values: WAIT_ANY 5 -> 160, WAVE_CYCLES 20 -> 640. 100 * 160 / 640 = 25
    let a = agent("gfx1201");
    let mut s = Samples::new();
    assert_eq!(put_all(&mut s, &a, "SQ_WAIT_ANY", 5.0), 32);
    put_all(&mut s, &a, "SQ_WAVE_CYCLES", 20.0);
    close(eval1(&a, &s, "WAVE_DEP_WAIT"), 25.0);
}

#[test]
fn gfx1201_ta_busy_reductions() {
    // TA_TA_BUSY: 16 values 1..16 -> max 16, min 1, avr 136/16 = 8.5
    let a = agent("gfx1201");
    let mut s = Samples::new();
    put(&mut s, &a, "TA_TA_BUSY", (1..=16).map(f64::from).collect());
    close(eval1(&a, &s, "TA_BUSY_max"), 16.0);
    close(eval1(&a, &s, "TA_BUSY_min"), 1.0);
    close(eval1(&a, &s, "TA_BUSY_avr"), 8.5);
}

#[test]
fn gfx1201_lds_bank_conflict() {
    // LDSBankConflict = 100*reduce(SQC_LDS_BANK_CONFLICT,sum)/reduce(SQC_LDS_IDX_ACTIVE,sum)
    // 32 values: conflicts 1 -> 32, active 8 -> 256. 100 * 32 / 256 = 12.5
    let a = agent("gfx1201");
    let mut s = Samples::new();
    put_all(&mut s, &a, "SQC_LDS_BANK_CONFLICT", 1.0);
    put_all(&mut s, &a, "SQC_LDS_IDX_ACTIVE", 8.0);
    close(eval1(&a, &s, "LDSBankConflict"), 12.5);
}

#[test]
fn gfx1201_gpu_util_and_fetch_size() {
    // GPU_UTIL = 100 * 750 / 1000 = 75.
    // FETCH_SIZE = (GL2C_EA_RDREQ_32B_sum*32+GL2C_EA_RDREQ_64B_sum*64+GL2C_EA_RDREQ_128B_sum*128)/1024
    // 16 channels: 32B 2 -> 32, 64B 1 -> 16, 128B 4 -> 64. (1024 + 1024 + 8192)/1024 = 10
    let a = agent("gfx1201");
    let mut s = Samples::new();
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 750.0);
    put_all(&mut s, &a, "GRBM_COUNT", 1000.0);
    put_all(&mut s, &a, "GL2C_EA_RDREQ_32B", 2.0);
    put_all(&mut s, &a, "GL2C_EA_RDREQ_64B", 1.0);
    put_all(&mut s, &a, "GL2C_EA_RDREQ_128B", 4.0);
    close(eval1(&a, &s, "GPU_UTIL"), 75.0);
    close(eval1(&a, &s, "FETCH_SIZE"), 10.0);
}

// ---------------------------------------------------------------- failures

#[test]
fn missing_samples_and_shape_mismatch_are_errors() {
    let a = agent("gfx942");
    let db = Database::builtin();
    let t = db.target("gfx942").unwrap();
    let mut s = Samples::new();
    put_all(&mut s, &a, "GRBM_GUI_ACTIVE", 1.0);
    let e = rocprof_counters::evaluate(t, &a, "GPU_UTIL", &s).unwrap_err().to_string();
    assert_eq!(e, "cannot evaluate GPU_UTIL on gfx942: no samples for hardware counter GRBM_COUNT");
    // 32 SQ values against 128 TCC values cannot be combined element-wise.
    put_all(&mut s, &a, "SQ_WAVES", 1.0);
    put_all(&mut s, &a, "TCC_HIT", 1.0);
    let e = evaluate_expr(t, &a, &Expr::parse("SQ_WAVES+TCC_HIT").unwrap(), &s).unwrap_err().to_string();
    assert!(e.contains("operands have different sizes: 32 values"), "{e}");
    // accumulate() without accumulated samples.
    let e = rocprof_counters::evaluate(t, &a, "MeanOccupancyPerCU", &s).unwrap_err().to_string();
    assert!(e.contains("no samples for SQ_LEVEL_WAVES collected with accumulate mode HIGH_RES"), "{e}");
    // Unknown name in a free expression.
    let e = evaluate_expr(t, &a, &Expr::parse("FOO*2").unwrap(), &s).unwrap_err().to_string();
    assert!(e.contains("FOO is neither a counter of gfx942 nor an agent property"), "{e}");
}
