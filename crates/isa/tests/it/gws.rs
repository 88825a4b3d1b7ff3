//! Global wave sync (`ds_gws_*`, encodings from llvm-mc-19 for gfx90a) against the rules of AMD's ISA
//! guides: `ds_gws_init` loads a resource's counter (resource `M0[21:16] + offset0`, as LLVM's AMDGPU
//! backend addresses it); with `init(n - 1)` no wave passes `ds_gws_barrier` before all `n` arrived, round
//! after round; `ds_gws_sema_p` waits until `sema_v`/`sema_br`/`sema_release_all` make the counter positive.
//! As in HIP, the init runs in a dispatch of its own and the resources outlive it (`RunOptions::gws`).

use rocprof_isa::{run, Dispatch, ErrorKind, FlatMemory, Gws, RunOptions};

use crate::classes::{assemble, gfx90a_dispatch};

const BUF: u64 = 0x3000_0000;
const BUF_SIZE: usize = 8192;

/// A gfx90a dispatch of `text` (s[0:1] kernarg pointer, s2 workgroup id x; the kernarg holds BUF's address)
/// over `groups` workgroups of `items` work-items.
fn dispatch(text: &str, groups: u32, items: u32) -> Option<(Dispatch, FlatMemory)> {
    let code = assemble("gfx90a", text)?;
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
    kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, BUF, [items * groups, 1, 1], [items, 1, 1], 0);
    mem.map(BUF, &vec![0; BUF_SIZE]);
    Some((d, mem))
}

fn words(mem: &FlatMemory, at: u64, n: usize) -> Vec<u32> {
    mem.get(at, 4 * n).unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// One wave runs `ds_gws_init` with `value` in v0 and `m0`/`offset` as given.
fn init(gws: &Gws, m0: u32, offset: u32, value: u32) -> Option<()> {
    let text = format!(
        "
        v_mov_b32 v0, {value}
        s_mov_b32 m0, {m0}
        ds_gws_init v0 offset:{offset} gds
        s_waitcnt lgkmcnt(0)
        s_endpgm
    "
    );
    let (d, mem) = dispatch(&text, 1, 64)?;
    run(&d, &mem, &RunOptions { gws: Some(gws), ..RunOptions::default() }).unwrap_or_else(|e| panic!("{e}"));
    Some(())
}

const GROUPS: u32 = 4;
const ITEMS: u32 = 128; // two waves per workgroup
const WAVES: u32 = GROUPS * ITEMS / 64;

/// Every lane adds 1 to BUF[0], the wave waits in `ds_gws_barrier` (value `WAVES - 1`, resource 0), reads
/// BUF[0] into out1; then a second round with BUF[1] into out2 (at BUF + 256 and BUF + 256 + 4 * GROUPS *
/// ITEMS). (Reading after a barrier what is added after it would race with the waves released first.)
fn two_rounds() -> String {
    format!(
        "
        s_load_dwordx2 s[4:5], s[0:1], 0x0
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v1, 0
        v_mov_b32 v2, 1
        s_mov_b32 m0, 0
        v_mov_b32 v6, {nwm1}
        global_atomic_add v1, v2, s[4:5]
        s_waitcnt vmcnt(0)
        ds_gws_barrier v6 gds
        s_waitcnt lgkmcnt(0)
        global_load_dword v3, v1, s[4:5] glc
        s_waitcnt vmcnt(0)
        global_atomic_add v1, v2, s[4:5] offset:4
        s_waitcnt vmcnt(0)
        ds_gws_barrier v6 gds
        s_waitcnt lgkmcnt(0)
        global_load_dword v4, v1, s[4:5] offset:4 glc
        s_waitcnt vmcnt(0)
        s_mul_i32 s6, s2, {bytes}
        v_lshlrev_b32 v5, 2, v0
        v_add_u32 v5, s6, v5
        global_store_dword v5, v3, s[4:5] offset:256
        global_store_dword v5, v4, s[4:5] offset:{second}
        s_endpgm
    ",
        nwm1 = WAVES - 1,
        bytes = 4 * ITEMS,
        second = 256 + 4 * GROUPS * ITEMS
    )
}

#[test]
fn gws_barrier_lets_no_wave_on_before_every_wave_of_the_grid_arrived_twice() {
    let gws = Gws::new();
    let Some(()) = init(&gws, 0, 0, WAVES - 1) else { return };
    assert_eq!(gws.counter(0), i64::from(WAVES - 1));
    let Some((d, mem)) = dispatch(&two_rounds(), GROUPS, ITEMS) else { return };
    let opts = RunOptions { threads: 1, co_resident: true, gws: Some(&gws), ..RunOptions::default() };
    let rec = run(&d, &mem, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rec.wave_count(), u64::from(WAVES));
    let n = (GROUPS * ITEMS) as usize;
    let first = words(&mem, BUF + 256, n);
    let second = words(&mem, BUF + 256 + 4 * n as u64, n);
    for k in 0..n {
        assert_eq!(first[k], GROUPS * ITEMS, "work-item {k} passed the first barrier before all arrived");
        assert_eq!(second[k], GROUPS * ITEMS, "work-item {k} passed the second barrier before all arrived");
    }
    // The last wave of each round reloaded the counter with its value.
    assert_eq!(gws.counter(0), i64::from(WAVES - 1));
}

#[test]
fn gws_barrier_of_more_waves_than_are_resident_ends_as_a_hang() {
    let gws = Gws::new();
    let Some(()) = init(&gws, 0, 0, WAVES - 1) else { return };
    let Some((d, mem)) = dispatch(&two_rounds(), GROUPS, ITEMS) else { return };
    // One host thread runs the workgroups one after the other: the first one's waves wait for ever.
    let opts = RunOptions { threads: 1, gws: Some(&gws), ..RunOptions::default() };
    let e = run(&d, &mem, &opts).expect_err("the first workgroup cannot pass the barrier alone");
    assert_eq!(e.kind, ErrorKind::Hang);
    assert_eq!(e.workgroup, 0);
}

#[test]
fn gws_init_picks_the_resource_m0_bits_21_to_16_plus_offset0() {
    let gws = Gws::new();
    let Some(()) = init(&gws, 3 << 16 | 0xffff, 2, 7) else { return };
    for rid in 0..rocprof_isa::GWS_RESOURCES {
        assert_eq!(gws.counter(rid), if rid == 5 { 7 } else { 0 }, "resource {rid}");
    }
    // M0[21:16] = 63 and offset 1 wrap around to resource 0 (how older LLVMs address resource 0).
    let Some(()) = init(&gws, u32::MAX, 1, 9) else { return };
    assert_eq!(gws.counter(0), 9);
}

/// One workgroup of three waves: waves 0 and 1 wait in `ds_gws_sema_p` (resource 1), then read BUF[0] into
/// out[work-item]; wave 2 stores 0x1234 to BUF[0] and runs `release`. Waves run in order until they wait, so
/// a `sema_p` that did not wait would read 0.
fn semaphore(release: &str) -> Option<(Result<(), ErrorKind>, Vec<u32>, i64)> {
    let text = format!(
        "
        s_load_dwordx2 s[4:5], s[0:1], 0x0
        s_waitcnt lgkmcnt(0)
        v_readfirstlane_b32 s7, v0
        s_lshr_b32 s7, s7, 6
        s_mov_b32 m0, 0
        v_mov_b32 v1, 0
        s_cmp_eq_u32 s7, 2
        s_cbranch_scc1 producer
        ds_gws_sema_p offset:1 gds
        s_waitcnt lgkmcnt(0)
        global_load_dword v3, v1, s[4:5] glc
        s_waitcnt vmcnt(0)
        v_lshlrev_b32 v5, 2, v0
        global_store_dword v5, v3, s[4:5] offset:256
        s_endpgm
    producer:
        v_mov_b32 v2, 0x1234
        global_store_dword v1, v2, s[4:5]
        s_waitcnt vmcnt(0)
        {release}
        s_waitcnt lgkmcnt(0)
        s_endpgm
    "
    );
    let (d, mem) = dispatch(&text, 1, 192)?;
    let gws = Gws::new();
    let opts = RunOptions { gws: Some(&gws), ..RunOptions::default() };
    let r = run(&d, &mem, &opts).map(|_| ()).map_err(|e| e.kind);
    Some((r, words(&mem, BUF + 256, 128), gws.counter(1)))
}

fn released_both(release: &str) {
    let Some((r, out, counter)) = semaphore(release) else { return };
    r.unwrap_or_else(|e| panic!("{e:?}"));
    for (k, &x) in out.iter().enumerate() {
        assert_eq!(x, 0x1234, "work-item {k} passed ds_gws_sema_p before the release");
    }
    assert_eq!(counter, 0, "each released wave took one unit");
}

#[test]
fn gws_sema_v_twice_releases_two_waves_waiting_in_sema_p() {
    released_both("ds_gws_sema_v offset:1 gds\n ds_gws_sema_v offset:1 gds");
}

#[test]
fn gws_sema_br_adds_its_value_and_releases_that_many_waves() {
    released_both("v_mov_b32 v4, 2\n ds_gws_sema_br v4 offset:1 gds");
}

#[test]
fn gws_sema_release_all_releases_every_waiting_wave() {
    released_both("ds_gws_sema_release_all offset:1 gds");
}

#[test]
fn gws_sema_v_once_leaves_the_second_waiting_wave_waiting() {
    let Some((r, out, _)) = semaphore("ds_gws_sema_v offset:1 gds") else { return };
    assert_eq!(r, Err(ErrorKind::Hang));
    // The first waiting wave went on and read the value.
    assert!(out[..64].iter().all(|&x| x == 0x1234), "{:x?}", &out[..64]);
    assert!(out[64..].iter().all(|&x| x == 0), "{:x?}", &out[64..]);
}
