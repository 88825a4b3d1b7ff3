//! Property-style robustness tests: a small deterministic PRNG drives random
//! agents, event lists, ATT parameters, addresses and result buffers through
//! the builders and parsers. Nothing may panic; every success must produce
//! well-formed PM4 (type-3 headers whose lengths tile the stream, AQL packets
//! whose IB points at the stream), and every failure must be a typed error.

use rocprof_packets::att::{param, AttParameter, AttPlan};
use rocprof_packets::marker::CodeObjectMarker;
use rocprof_packets::parse::{parse_pmc, parse_sqtt_control};
use rocprof_packets::{blocks, Agent, BumpAllocator, Error, Pm4Packet, PmcEvent, PmcPlan, Target};

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const OPCODES: [u32; 10] = [0x10, 0x23, 0x37, 0x3C, 0x3F, 0x40, 0x46, 0x58, 0x76, 0x79];

/// Walks a PM4 stream: every header is type 3 with a known opcode and the
/// packet lengths tile the stream exactly.
fn assert_well_formed(dw: &[u32], what: &str) {
    let mut i = 0;
    while i < dw.len() {
        let h = dw[i];
        assert_eq!(h >> 30, 3, "{what}: dword {i} is not a type-3 header: {h:#010x}");
        let op = (h >> 8) & 0xFF;
        assert!(OPCODES.contains(&op), "{what}: unexpected opcode {op:#x} at dword {i}");
        let len = (((h >> 16) & 0x3FFF) + 2) as usize;
        if op == 0x23 {
            // PRED_EXEC covers exactly the following EXEC_COUNT dwords.
            let count = (dw[i + 1] & 0x3FFF) as usize;
            assert!(count > 0 && i + 2 + count <= dw.len(), "{what}: PRED_EXEC count {count} at {i}");
        }
        i += len;
    }
    assert_eq!(i, dw.len(), "{what}: packets overrun the stream");
}

fn assert_packet(p: &Pm4Packet, what: &str) {
    assert_well_formed(&p.pm4, what);
    let ctrl = u32::from_le_bytes(p.aql[16..20].try_into().unwrap());
    assert_eq!((ctrl & 0xF_FFFF) as usize, p.pm4.len(), "{what}: IB size");
    let lo = u32::from_le_bytes(p.aql[8..12].try_into().unwrap());
    let hi = u32::from_le_bytes(p.aql[12..16].try_into().unwrap());
    assert_eq!(u64::from(lo) | u64::from(hi) << 32, p.ib_addr, "{what}: IB address");
}

fn random_agent(rng: &mut Rng, target: Target) -> Agent {
    if rng.below(3) == 0 {
        return Agent::reference(target);
    }
    let xcc = if target.family() == rocprof_packets::Family::Gfx9 { rng.pick(&[1u32, 1, 2, 4, 8]) } else { 1 };
    let se = xcc * (1 + rng.below(8) as u32);
    let sa = rng.pick(&[1u32, 2]);
    let cu = 1 + rng.below(320) as u32;
    Agent::new(target, cu, se, sa, xcc).expect("valid random agent")
}

#[test]
fn random_pmc_requests_build_or_fail_cleanly() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut built, mut failed) = (0, 0);
    for round in 0..600 {
        let target = rng.pick(&Target::all().collect::<Vec<_>>());
        let agent = random_agent(&mut rng, target);
        let table = blocks(target);
        let n = 1 + rng.below(6);
        let events: Vec<PmcEvent> = (0..n)
            .map(|_| {
                let b = rng.pick(table);
                PmcEvent {
                    block_enum: if rng.below(20) == 0 { rng.below(64) as u32 } else { b.block_enum },
                    block_index: if rng.below(10) == 0 {
                        b.instances + rng.below(4) as u32
                    } else {
                        rng.below(u64::from(b.instances)) as u32
                    },
                    event_id: if rng.below(30) == 0 {
                        0x100_0000 + rng.below(4) as u32
                    } else {
                        rng.below(u64::from(b.event_id_max) + 1) as u32
                    },
                    flags: if rng.below(8) == 0 { rng.below(4) as u32 } else { 0 },
                }
            })
            .collect();
        let plan = match PmcPlan::new(&agent, &events) {
            Ok(p) => p,
            Err(e) => {
                // Typed errors only; the message names the thing.
                assert!(!e.to_string().is_empty());
                failed += 1;
                continue;
            }
        };
        let base = (1 + rng.below(1 << 20)) << 12;
        let mut alloc = BumpAllocator::new(base).unwrap();
        let pk = plan.build(&mut alloc).unwrap_or_else(|e| panic!("round {round}: {e}: {agent:?} {events:?}"));
        for (p, what) in [(&pk.start, "start"), (&pk.stop, "stop"), (&pk.read, "read")] {
            assert_packet(p, what);
        }
        assert_eq!(pk.output_size, plan.output_buffer_size());
        let samples = plan.samples();
        assert!(samples.iter().all(|s| s.offset + 8 <= pk.output_size));
        let buf: Vec<u8> = (0..pk.output_size).map(|_| rng.next() as u8).collect();
        let parsed = parse_pmc(&plan, &buf).unwrap();
        assert_eq!(parsed.len(), samples.len());
        // Misaligned output / command addresses are rejected.
        assert!(matches!(plan.build_streams(base + 4), Err(Error::Misaligned { .. })));
        let streams = plan.build_streams(base).unwrap();
        assert!(matches!(streams.finish(base + 0x80), Err(Error::Misaligned { .. })));
        built += 1;
    }
    println!("random pmc: {built} built, {failed} rejected");
    assert!(built > 200 && failed > 20, "generator should exercise both paths ({built}/{failed})");
}

#[test]
fn random_att_parameters_build_or_fail_cleanly() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let ids = [0u32, 1, 5, 8, 9, 10, 11, 12, 240, 241, 242, 77];
    let (mut built, mut failed) = (0, 0);
    for _ in 0..400 {
        let target = rng.pick(&Target::all().collect::<Vec<_>>());
        let agent = random_agent(&mut rng, target);
        let n = rng.below(8);
        let mut params: Vec<AttParameter> = (0..n)
            .map(|_| {
                let id = rng.pick(&ids);
                let value = match id {
                    param::ATT_BUFFER_SIZE => rng.pick(&[0u32, 4096, 1 << 20, 32 << 20, 96 << 20, u32::MAX]),
                    param::BUFFER_SIZE_HIGH => rng.below(3) as u32,
                    param::COMPUTE_UNIT_TARGET => rng.below(18) as u32,
                    _ => rng.next() as u32,
                };
                AttParameter { id, value }
            })
            .collect();
        if rng.below(2) == 0 {
            params.push(AttParameter { id: param::ATT_BUFFER_SIZE, value: 64 << 20 });
        }
        let plan = match AttPlan::new(&agent, &params) {
            Ok(p) => p,
            Err(e) => {
                assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
                failed += 1;
                continue;
            }
        };
        let mut alloc = BumpAllocator::new(0x10_0000_0000).unwrap();
        match plan.build(&mut alloc) {
            Ok(pk) => {
                assert_packet(&pk.start, "att start");
                assert_packet(&pk.stop, "att stop");
                assert_eq!(pk.control_size, 32 * u64::from(agent.se_num) + 256);
                let slices = plan.se_slices(pk.trace_addr);
                assert!(slices.iter().map(|s| s.1).sum::<u64>() <= pk.trace_size.max(64 * 4096));
                let ctl: Vec<u8> = (0..pk.control_size).map(|_| rng.next() as u8).collect();
                let r = parse_sqtt_control(&plan, pk.trace_addr, &ctl).unwrap();
                assert!(r.ses.iter().all(|s| s.data_bytes <= s.capacity_bytes));
                built += 1;
            }
            Err(e) => {
                assert!(matches!(e, Error::TraceBufferSize { .. } | Error::ZeroSize { .. }), "{e}");
                failed += 1;
            }
        }
    }
    println!("random att: {built} built, {failed} rejected");
    assert!(built > 100 && failed > 20);
}

#[test]
fn markers_and_parsers_never_panic_on_garbage() {
    let mut rng = Rng(42);
    for _ in 0..300 {
        let target = rng.pick(&Target::all().collect::<Vec<_>>());
        let agent = random_agent(&mut rng, target);
        let m = CodeObjectMarker {
            id: rng.next() >> rng.below(64),
            addr: rng.next(),
            size: rng.next() >> 20,
            is_unload: rng.below(2) == 0,
            from_start: rng.below(2) == 0,
        };
        let p = m.build_at(&agent, (rng.below(1 << 30)) << 2).unwrap();
        assert_packet(&p, "marker");
        assert!(matches!(m.build_at(&agent, 2), Err(Error::Misaligned { .. })));

        // Random-length garbage into the parsers.
        let plan = AttPlan::new(&agent, &[]).unwrap();
        let len = rng.below(4096) as usize;
        let junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = parse_sqtt_control(&plan, rng.next(), &junk);
        let ev = [PmcEvent { block_enum: 3, block_index: 0, event_id: 1, flags: 0 }];
        let pmc = PmcPlan::new(&agent, &ev).unwrap();
        let r = parse_pmc(&pmc, &junk);
        assert_eq!(r.is_ok(), junk.len() as u64 >= pmc.output_buffer_size());
    }
}

#[test]
fn malformed_inputs_return_typed_errors() {
    let agent = Agent::reference(Target::from_name("gfx942").unwrap());
    let ev = |block_enum, block_index, event_id, flags| PmcEvent { block_enum, block_index, event_id, flags };
    assert_eq!(PmcPlan::new(&agent, &[]).unwrap_err(), Error::NoEvents);
    assert_eq!(
        PmcPlan::new(&agent, &[ev(29, 0, 1, 0)]).unwrap_err(),
        Error::UnknownBlock { block: 29, target: "gfx942" }
    );
    assert_eq!(
        PmcPlan::new(&agent, &[ev(12, 16, 1, 0)]).unwrap_err(),
        Error::InstanceOutOfRange { block: "TCC", index: 16, instances: 16, target: "gfx942" }
    );
    let five_grbm: Vec<_> = (0..3).map(|i| ev(3, 0, i, 0)).collect();
    assert_eq!(
        PmcPlan::new(&agent, &five_grbm).unwrap_err(),
        Error::TooManyCounters { block: "GRBM", index: 0, counters: 2, target: "gfx942" }
    );
    // gfx9: SQ and SQ_CS share the 8 SQ counters.
    let nine: Vec<_> = (0..9).map(|i| ev(if i % 2 == 0 { 6 } else { 7 }, 0, i, 0)).collect();
    assert!(matches!(PmcPlan::new(&agent, &nine), Err(Error::TooManyCounters { block: "SQ" | "SQ_CS", .. })));
    // Accumulation only on SQ, and never on gfx12.
    assert!(matches!(PmcPlan::new(&agent, &[ev(12, 0, 1, 1)]), Err(Error::AccumulationUnsupported { .. })));
    let gfx12 = Agent::reference(Target::from_name("gfx1201").unwrap());
    assert_eq!(
        PmcPlan::new(&gfx12, &[ev(6, 0, 4, 1)]).unwrap_err(),
        Error::AccumulationUnsupported { block: "SQ", flags: 1, target: "gfx1201" }
    );
    // Zero-size and misaligned buffers.
    let mut a = BumpAllocator::new(0x1000).unwrap();
    assert!(matches!(
        AttPlan::new(&agent, &[AttParameter { id: param::ATT_BUFFER_SIZE, value: 0 }]).unwrap().build(&mut a),
        Err(Error::ZeroSize { .. })
    ));
    assert_eq!(
        AttPlan::new(&agent, &[AttParameter { id: param::ATT_BUFFER_SIZE, value: 0 }])
            .unwrap()
            .build_at(0x1000, 0x2000, 0x4000),
        Err(Error::ZeroSize { what: "trace buffer" })
    );
    assert!(matches!(Agent::new(Target::from_name("gfx1100").unwrap(), 96, 12, 2, 2), Err(Error::InvalidAgent { .. })));
    let att = AttPlan::new(&agent, &[]).unwrap();
    assert!(matches!(att.build_at(0x1000, 0x1800, 0x4000), Err(Error::Misaligned { what: "trace buffer", .. })));
    assert!(matches!(att.build_at(0x1004, 0x2000, 0x4000), Err(Error::Misaligned { what: "control buffer", .. })));
    assert!(matches!(BumpAllocator::new(0x10), Err(Error::Misaligned { .. })));
    // Bad agents and targets.
    assert!(matches!(Agent::new(Target::from_name("gfx942").unwrap(), 304, 30, 1, 8), Err(Error::InvalidAgent { .. })));
    assert!(matches!(Target::from_name("gfx1036"), Err(Error::UnknownTarget(_))));
    assert!(matches!(
        AttPlan::new(&agent, &[AttParameter { id: param::VM_ID_MASK, value: 1 }]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        AttPlan::new(&agent, &[AttParameter { id: param::COMPUTE_UNIT_TARGET, value: 16 }]),
        Err(Error::InvalidParameter { name: "COMPUTE_UNIT_TARGET", .. })
    ));
}
