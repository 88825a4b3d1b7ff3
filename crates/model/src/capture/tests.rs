//! Unit tests of the capture format: encoding, checksums, headers and register counts.

use super::*;
use crate::health::LossReason;
use crate::records::*;
use crate::stream::{Record, RecordSource};
use crate::Trace;
use std::path::Path;

const CHUNK: usize = 4096;

/// A header with one GPU agent named `gfx942` (handle 0x100, node 1) built field by field.
fn header_bytes(dropped: u64, flags: u32) -> Vec<u8> {
    let mut agents = Vec::new();
    push_string_record(&mut agents, 1, b"gfx942");
    push_record(&mut agents, &AgentRecord { handle: 0x100, node_id: 1, agent_type: 2, name: 1, ..Default::default() });
    let mut h = encode_header(&HeaderInfo {
        pid: 4242,
        ppid: 1,
        clock: ClockId::Boottime as u32,
        start_ns: 1_000,
        chunk_size: CHUNK as u32,
        cmdline: b"./vector_add\x0016\x00".to_vec(),
        agents,
        table_major: 3,
        amd_ext_size: 608,
    });
    // Chunk pool empty is loss counter 0.
    h[header::LOSSES..header::LOSSES + 8].copy_from_slice(&dropped.to_le_bytes());
    h[header::FLAGS..header::FLAGS + 4].copy_from_slice(&flags.to_le_bytes());
    h
}

fn chunk(seq: u64, records: &[u8]) -> Vec<u8> {
    let mut c = vec![0u8; CHUNK];
    write_chunk_header(&mut c, seq, 77);
    c[CHUNK_HEADER_SIZE..CHUNK_HEADER_SIZE + records.len()].copy_from_slice(records);
    c
}

fn begin(id: u64) -> DispatchBeginRecord {
    DispatchBeginRecord {
        dispatch_id: id,
        correlation_id: id,
        kernel_id: 1,
        kernel_object: 0xdead_0000,
        agent_handle: 0x100,
        queue_id: 1,
        tid: 77,
        setup: 1,
        workgroup_x: 64,
        workgroup_y: 1,
        workgroup_z: 1,
        grid_x: 1024,
        grid_y: 1,
        grid_z: 1,
        ..Default::default()
    }
}

fn code_object_and_symbol() -> Vec<u8> {
    let mut r = Vec::new();
    push_string_record(&mut r, 2, b"file:///k.co");
    push_record(
        &mut r,
        &CodeObjectLoadRecord { code_object_id: 1, agent_handle: 0x100, storage: 2, uri: 2, ..Default::default() },
    );
    push_string_record(&mut r, 3, b"_Z10vector_addPKfS0_Pfi.kd");
    push_record(
        &mut r,
        &KernelSymbolRecord {
            kernel_id: 1,
            code_object_id: 1,
            kernel_object: 0xdead_0000,
            name: 3,
            kernarg_size: 28,
            // rsrc1: 3 VGPR granules, 2 SGPR granules; rsrc3: accum offset 1.
            pgm_rsrc1: 3 | (2 << 6),
            pgm_rsrc3: 1,
            descriptor_valid: 1,
            ..Default::default()
        },
    );
    r
}

#[test]
fn fixed_record_layout_is_packed_little_endian() {
    let e = DispatchEndRecord { dispatch_id: 0x0102, start_ns: 3, end_ns: 4, status: 1 };
    let mut out = [0xAAu8; 40];
    let n = encode_record(&e, &mut out);
    assert_eq!(DispatchEndRecord::BODY_SIZE, 28);
    assert_eq!(n, 40);
    assert_eq!(&out[0..4], &[8, 0, 40, 0]);
    assert_eq!(&out[4..8], &record_checksum(&out[8..40]).to_le_bytes(), "the frame's second word is the checksum");
    assert_eq!(&out[8..16], &[2, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(out[16], 3);
    assert_eq!(out[24], 4);
    assert_eq!(&out[32..36], &[1, 0, 0, 0]);
    assert_eq!(&out[36..40], &[0, 0, 0, 0], "padding is zeroed");
    assert_eq!(DispatchEndRecord::read_body(&out[8..]), e);
}

#[test]
fn round_trip_resolves_names_agents_and_timestamps() {
    let mut recs = code_object_and_symbol();
    push_record(&mut recs, &begin(1));
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 500, end_ns: 900, status: DISPATCH_OK });
    let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
    file.extend(chunk(1, &recs));
    let cap = parse_capture(&file).unwrap();
    let t = &cap.trace;
    assert!(cap.clean_exit);
    assert_eq!(t.meta.pid, ProcessId(4242));
    assert_eq!(t.meta.command, ["./vector_add", "16"]);
    assert_eq!(t.agents.len(), 1);
    assert_eq!(t.strings.resolve(t.agents[0].name), "gfx942");
    assert_eq!(t.dispatches.len(), 1);
    let d = &t.dispatches[0];
    assert_eq!((d.start.ns, d.end.ns), (500, 900));
    assert_eq!(d.agent, AgentId(1));
    assert_eq!(d.grid, Dim3::new(1024, 1, 1));
    assert_eq!(d.kernarg_size, 28);
    // gfx942: arch = (1 + 1) * 4 = 8, accum = (3 + 1) * 8 - 8 = 24, sgpr = (2 / 2 + 1) * 16 = 32.
    assert_eq!((d.arch_vgpr_count, d.accum_vgpr_count, d.sgpr_count), (8, 24, 32));
    let k = &t.kernel_symbols[0];
    assert_eq!(t.strings.resolve(k.name), "_Z10vector_addPKfS0_Pfi.kd");
    assert_eq!(t.strings.resolve(k.formatted_name), "vector_add(float const*, float const*, float*, int)");
    assert_eq!(t.health.lost.total(), 0);
    // Header: a string and an agent; chunk: two strings, code object, symbol, begin, end.
    assert_eq!(t.health.records_written, 8);
    assert!(t.health.clean_exit && t.health.is_complete());
    assert_eq!(cap.incomplete_dispatches, 0);
}

#[test]
fn torn_tail_is_counted_and_earlier_records_survive() {
    let mut recs = code_object_and_symbol();
    push_record(&mut recs, &begin(1));
    push_record(&mut recs, &begin(2));
    // A third record whose body was written but whose commit word never was.
    let mut torn = Vec::new();
    push_record(&mut torn, &begin(3));
    torn[0..4].fill(0);
    recs.extend(&torn);
    let mut file = header_bytes(5, 0);
    file.extend(chunk(1, &recs));
    let cap = parse_capture(&file).unwrap();
    assert!(!cap.clean_exit);
    assert_eq!(cap.trace.dispatches.len(), 2);
    assert_eq!(cap.trace.health.lost.get(LossReason::TornTail), 1);
    assert_eq!(cap.trace.health.lost.get(LossReason::ChunkPoolEmpty), 5);
    assert_eq!(cap.incomplete_dispatches, 2, "no completion records were written");
}

#[test]
fn file_cut_in_the_middle_of_a_record_keeps_the_complete_ones() {
    let mut recs = code_object_and_symbol();
    push_record(&mut recs, &begin(1));
    push_record(&mut recs, &begin(2));
    let mut file = header_bytes(0, 0);
    let start = file.len();
    file.extend(chunk(1, &recs));
    file.truncate(start + CHUNK_HEADER_SIZE + recs.len() - 10);
    let cap = parse_capture(&file).unwrap();
    assert_eq!(cap.trace.dispatches.len(), 1);
    assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1, "the cut frame claims more bytes than exist");
}

#[test]
fn chunks_are_read_in_claim_order_and_empty_chunks_are_skipped() {
    let mut a = Vec::new();
    push_record(&mut a, &begin(2));
    let mut b = code_object_and_symbol();
    push_record(&mut b, &begin(1));
    let mut file = header_bytes(0, 0);
    file.extend(chunk(2, &a));
    file.extend(vec![0u8; CHUNK]); // pre-extended, never claimed
    file.extend(chunk(1, &b));
    let cap = parse_capture(&file).unwrap();
    let ids: Vec<u64> = cap.trace.dispatches.iter().map(|d| d.dispatch_id.0).collect();
    assert_eq!(ids, [1, 2]);
    assert_eq!(cap.trace.health.lost.total(), 0);
    assert_eq!(cap.trace.kernel_symbols.len(), 1);
}

#[test]
fn definitions_stream_before_events_even_from_later_chunks() {
    // Thread A's chunk (claimed first) holds the dispatch; thread B's chunk, claimed later,
    // holds the code object and kernel the dispatch runs. The stream still delivers the
    // symbol first and the dispatch gets the symbol's register counts.
    let mut a = Vec::new();
    push_record(&mut a, &begin(1));
    push_record(&mut a, &DispatchEndRecord { dispatch_id: 1, start_ns: 10, end_ns: 20, status: DISPATCH_OK });
    let b = code_object_and_symbol();
    let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
    file.extend(chunk(1, &a));
    file.extend(chunk(2, &b));
    let mut reader = CaptureReader::new(file.as_slice()).unwrap();
    let mut strings = StringTable::new();
    let mut kinds = Vec::new();
    let mut dispatch = None;
    while let Some(r) = reader.next_record(&mut strings).unwrap() {
        kinds.push(r.kind());
        if let Record::KernelDispatch(d) = r {
            dispatch = Some(d);
        }
    }
    assert_eq!(kinds, ["process", "agent", "code_object", "kernel_symbol", "kernel_dispatch", "run_health"]);
    let d = dispatch.unwrap();
    assert_eq!((d.arch_vgpr_count, d.accum_vgpr_count, d.sgpr_count, d.kernarg_size), (8, 24, 32, 28));
    assert_eq!(reader.info().events, 1);
    assert_eq!(reader.info().health.lost.total(), 0);
}

#[test]
fn incomplete_dispatches_are_counted_and_left_out_of_the_stream() {
    let mut recs = code_object_and_symbol();
    for id in 1..=3 {
        push_record(&mut recs, &begin(id));
    }
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 2, start_ns: 10, end_ns: 20, status: DISPATCH_OK });
    // A completion whose dispatch record was dropped in the process.
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 9, start_ns: 30, end_ns: 40, status: DISPATCH_OK });
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    let mut reader = CaptureReader::new(file.as_slice()).unwrap();
    let t = Trace::collect(&mut reader).unwrap();
    assert_eq!(t.dispatches.iter().map(|d| d.dispatch_id.0).collect::<Vec<_>>(), [2]);
    assert_eq!(reader.info().incomplete_dispatches, 2);
    assert_eq!(reader.info().orphan_completions, 1);
    // parse_capture keeps them, with zero timestamps, for diagnostics.
    let cap = parse_capture(&file).unwrap();
    assert_eq!(cap.trace.dispatches.len(), 3);
    assert_eq!(cap.incomplete_dispatches, 2);
}

#[test]
fn dispatches_lost_in_the_process_are_left_out_and_not_counted_as_incomplete() {
    let mut recs = code_object_and_symbol();
    for id in 1..=3 {
        push_record(&mut recs, &begin(id));
    }
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 10, end_ns: 20, status: DISPATCH_OK });
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 2, start_ns: 0, end_ns: 0, status: DISPATCH_LOST });
    // The end first, as when another thread's chunk holds the begin.
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 4, start_ns: 0, end_ns: 0, status: DISPATCH_LOST });
    push_record(&mut recs, &begin(4));
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    let mut reader = CaptureReader::new(file.as_slice()).unwrap();
    let t = Trace::collect(&mut reader).unwrap();
    assert_eq!(t.dispatches.iter().map(|d| d.dispatch_id.0).collect::<Vec<_>>(), [1]);
    assert_eq!(reader.info().incomplete_dispatches, 1, "only dispatch 3");
    assert_eq!(reader.info().orphan_completions, 0);
    let cap = parse_capture(&file).unwrap();
    assert_eq!(cap.trace.dispatches.len(), 4, "kept without times for diagnostics");
}

#[test]
fn dispatches_completing_out_of_order_stream_in_dispatch_order() {
    let mut recs = code_object_and_symbol();
    for id in 1..=12u64 {
        push_record(&mut recs, &begin(id));
    }
    for id in (1..=12u64).rev() {
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: id, start_ns: id, end_ns: id + 1, status: 0 });
    }
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    let t = Trace::collect(&mut CaptureReader::new(file.as_slice()).unwrap()).unwrap();
    let ids: Vec<u64> = t.dispatches.iter().map(|d| d.dispatch_id.0).collect();
    assert_eq!(ids, (1..=12).collect::<Vec<_>>());
}

#[test]
fn unknown_kinds_are_skipped_and_counted() {
    let mut recs = Vec::new();
    recs.extend_from_slice(&[0x63, 0, 16, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    push_record(&mut recs, &begin(1));
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    let cap = parse_capture(&file).unwrap();
    assert_eq!(cap.trace.dispatches.len(), 1);
    assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1);
}

/// Offset of the `n`-th record (0-based) in a sequence built by `push_record`.
fn record_offset(recs: &[u8], n: usize) -> usize {
    let mut off = 0;
    for _ in 0..n {
        off += (u32::from_le_bytes(recs[off..off + 4].try_into().unwrap()) >> 16) as usize;
    }
    off
}

#[test]
fn a_damaged_record_costs_only_itself_and_is_counted() {
    let mut recs = code_object_and_symbol();
    for id in 1..=5 {
        push_record(&mut recs, &begin(id));
    }
    let first_begin = record_offset(&recs, 4);
    let base = header_bytes(0, 0).len() + CHUNK_HEADER_SIZE;
    // 1. A flipped bit inside the body of dispatch 2: the checksum catches it.
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    file[base + record_offset(&recs, 5) + 20] ^= 0x10;
    let cap = parse_capture(&file).unwrap();
    let ids: Vec<u64> = cap.trace.dispatches.iter().map(|d| d.dispatch_id.0).collect();
    assert_eq!(ids, [1, 3, 4, 5]);
    assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1);
    // 2. A garbled size in the frame of dispatch 3: the reader resyncs at dispatch 4.
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    file[base + record_offset(&recs, 6) + 2] = 0x13;
    let cap = parse_capture(&file).unwrap();
    let ids: Vec<u64> = cap.trace.dispatches.iter().map(|d| d.dispatch_id.0).collect();
    assert_eq!(ids, [1, 2, 4, 5]);
    assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1);
    assert_eq!(cap.trace.kernel_symbols.len(), 1, "records before the damage are intact");
    // 3. A damaged chunk header: its records are still read (after the intact chunks).
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs[..first_begin]));
    let mut rest = Vec::new();
    push_record(&mut rest, &begin(9));
    let mut c = chunk(2, &rest);
    c[0] ^= 0xFF;
    file.extend(c);
    let cap = parse_capture(&file).unwrap();
    assert_eq!(cap.trace.dispatches.len(), 1);
    assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 1, "the chunk header");
}

/// Re-seals every record of `recs` (a sequence of whole records) with `sum`.
fn reseal(recs: &mut [u8], sum: fn(&[u8]) -> u32) {
    let mut off = 0;
    while off + FRAME_SIZE <= recs.len() {
        let size = (u32::from_le_bytes(recs[off..off + 4].try_into().unwrap()) >> 16) as usize;
        if size == 0 {
            break;
        }
        let s = sum(&recs[off + FRAME_SIZE..off + size]);
        recs[off + 4..off + 8].copy_from_slice(&s.to_le_bytes());
        off += size;
    }
}

#[test]
fn version_2_captures_are_read_with_their_own_checksum() {
    let mut recs = code_object_and_symbol();
    for id in 1..=3 {
        push_record(&mut recs, &begin(id));
        push_record(&mut recs, &DispatchEndRecord { dispatch_id: id, start_ns: 10, end_ns: 20, status: 0 });
    }
    let v2 = |resealed: bool| {
        let mut h = header_bytes(0, 0);
        h[header::VERSION..header::VERSION + 4].copy_from_slice(&2u32.to_le_bytes());
        let mut recs = recs.clone();
        if resealed {
            let start = (HEADER_FIXED_SIZE + u32_le(&h, header::CMDLINE_LEN) as usize + 7) & !7;
            let len = u32_le(&h, header::AGENTS_LEN) as usize;
            reseal(&mut h[start..start + len], record_checksum_v2);
            reseal(&mut recs, record_checksum_v2);
        }
        h.extend(chunk(1, &recs));
        parse_capture(&h).unwrap()
    };
    let cap = v2(true);
    assert_eq!(cap.trace.dispatches.len(), 3);
    assert_eq!(cap.trace.agents.len(), 1);
    assert_eq!(cap.trace.health.lost.get(LossReason::Damaged), 0);
    // The same records under a version-2 header but sealed with this version's checksum: the
    // reader must check each version with its own function, so none of them is intact.
    let cap = v2(false);
    assert!(cap.trace.dispatches.is_empty() && cap.trace.agents.is_empty());
    assert!(cap.trace.health.lost.get(LossReason::Damaged) > 0);
}

#[test]
fn the_checksum_of_a_split_body_equals_the_checksum_of_its_bytes() {
    // Every shape an API-call record takes: the short header (4 words) or the long one (9), then
    // 0 ..= MAX_API_ARGS argument words.
    fn check<const H: usize, const A: usize>() {
        let head: [u64; H] = std::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let args: [u64; A] = std::array::from_fn(|i| (i as u64 + 0x40).wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ 7);
        let bytes: Vec<u8> = head.iter().chain(&args).flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(record_checksum_split(&head, &args), record_checksum(&bytes), "{H} + {A} words");
    }
    macro_rules! shapes {
        ($($a:literal)*) => {$( check::<4, $a>(); check::<9, $a>(); )*};
    }
    shapes!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
    const _: () = assert!(crate::api::MAX_API_ARGS == 16, "cover every argument count");
}

fn u32_le(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}

#[test]
fn the_checksum_catches_every_flipped_bit_and_every_swap_of_two_words() {
    // An API-call record's body with six argument words: 12 distinct 8-byte words.
    let mut body = [0u8; 96];
    for (i, b) in body.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(37).wrapping_add(11);
    }
    let sum = record_checksum(&body);
    for bit in 0..body.len() * 8 {
        let mut d = body;
        d[bit / 8] ^= 1 << (bit % 8);
        assert_ne!(record_checksum(&d), sum, "bit {bit} flipped");
    }
    for i in 0..12 {
        for j in i + 1..12 {
            let mut d = body;
            for k in 0..8 {
                d.swap(8 * i + k, 8 * j + k);
            }
            assert_ne!(record_checksum(&d), sum, "words {i} and {j} swapped");
        }
    }
    // Zero words are covered too (a body of zeros is not its own checksum's blind spot).
    let zeros = [0u8; 96];
    let mut one = zeros;
    one[95] = 1;
    assert_ne!(record_checksum(&zeros), record_checksum(&one));
    assert_ne!(record_checksum(&zeros[..88]), record_checksum(&zeros), "the length counts");
}

#[test]
fn hook_time_is_summed_over_chunks_and_losses_come_from_the_header() {
    let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
    file[header::END_NS..header::END_NS + 8].copy_from_slice(&1_001_000u64.to_le_bytes());
    let put = |f: &mut Vec<u8>, at: usize, v: u64| f[at..at + 8].copy_from_slice(&v.to_le_bytes());
    put(&mut file, header::LOSSES + 8 * LossReason::SignalPoolEmpty as usize, 3);
    put(&mut file, header::LOSSES + 8 * LossReason::KernelTableFull as usize, 2);
    // The header's last in-process slot (every one of the 16 now has a reason).
    put(&mut file, header::LOSSES + 8 * (LossReason::IN_PROCESS - 1), 7);
    for (seq, ns, packets) in [(1u64, 400u64, 4u64), (2, 600, 6)] {
        let mut c = chunk(seq, &[]);
        put(&mut c, chunk::HOOK_NS, ns);
        put(&mut c, chunk::HOOK_PACKETS, packets);
        file.extend(c);
    }
    let mut reader = CaptureReader::new(file.as_slice()).unwrap();
    let t = Trace::collect(&mut reader).unwrap();
    let h = t.health;
    assert_eq!(h, reader.info().health, "the streamed record is the reader's final count");
    assert_eq!((h.hook_ns, h.hook_packets, h.wall_ns), (1000, 10, 1_000_000));
    assert_eq!(h.overhead_fraction(), Some(0.001));
    assert_eq!(h.lost.get(LossReason::SignalPoolEmpty), 3);
    assert_eq!(h.lost.get(LossReason::KernelTableFull), 2);
    assert_eq!(h.lost.get(LossReason::PcSamplesLost), 7, "the last header slot is read");
    assert_eq!(h.lost.get(LossReason::Damaged), 0);
    assert_eq!(h.records_written, 2, "the header's string and agent");
}

#[test]
fn stalls_are_summed_and_the_worst_thread_is_the_largest_per_thread_total() {
    let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
    let put = |f: &mut Vec<u8>, at: usize, v: u64| f[at..at + 8].copy_from_slice(&v.to_le_bytes());
    // Thread 5 waited 300 + 400 ns over two chunks, thread 6 once for 500 ns.
    for (seq, tid, ns, n, max) in [(1u64, 5u32, 300u64, 2u64, 200u64), (2, 6, 500, 1, 500), (3, 5, 400, 1, 400)] {
        let mut c = vec![0u8; CHUNK];
        write_chunk_header(&mut c, seq, tid);
        put(&mut c, chunk::STALL_NS, ns);
        put(&mut c, chunk::STALLS, n);
        put(&mut c, chunk::STALL_MAX_NS, max);
        file.extend(c);
    }
    let h = parse_capture(&file).unwrap().trace.health;
    assert_eq!((h.stall_ns, h.stalls, h.stall_max_ns), (1200, 4, 500));
    assert_eq!(h.stall_thread_max_ns, 700, "thread 5: 300 + 400");
}

#[test]
fn bad_headers_are_typed_errors() {
    assert!(matches!(parse_capture(&[0u8; 10]), Err(Error::TruncatedHeader { len: 10 })));
    let mut h = header_bytes(0, 0);
    h[0] = b'X';
    assert!(matches!(parse_capture(&h), Err(Error::BadMagic)));
    let mut h = header_bytes(0, 0);
    h[header::VERSION] = 9;
    assert!(matches!(parse_capture(&h), Err(Error::UnsupportedVersion { found: 9 })));
    let mut h = header_bytes(0, 0);
    h[header::ENDIAN..header::ENDIAN + 4].copy_from_slice(&[1, 2, 3, 4]);
    assert!(matches!(parse_capture(&h), Err(Error::BadEndian { marker: 0x0403_0201 })));
    let mut h = header_bytes(0, 0);
    h[header::CHUNK_SIZE..header::CHUNK_SIZE + 4].copy_from_slice(&3u32.to_le_bytes());
    assert!(matches!(parse_capture(&h), Err(Error::CorruptHeader { what: "chunk_size" })));
    assert!(matches!(read_capture(Path::new("/nonexistent/x.rpcap")), Err(Error::Io { .. })));
}

#[test]
fn counter_groups_and_outputs_follow_their_dispatch() {
    let mut recs = code_object_and_symbol();
    push_string_record(&mut recs, 4, b"GRBM_COUNT SQ_WAVES");
    push_string_record(&mut recs, 5, b"3.0.2.0,6.0.4.0");
    push_record(
        &mut recs,
        &PmcGroupRecord {
            agent_handle: 0x100,
            gpu_index: 0,
            group: 0,
            counters: 4,
            events: 5,
            output_size: 24,
            buffers: 8,
        },
    );
    push_string_record(&mut recs, 6, b"GRBM_COUNT@GRBM,SQ_WAVES@SQ");
    push_record(&mut recs, &PmcSourcesRecord { agent_handle: 0x100, group: 0, sources: 6 });
    // Group 1 as an older capture writes it: no sources record.
    push_record(
        &mut recs,
        &PmcGroupRecord {
            agent_handle: 0x100,
            gpu_index: 0,
            group: 1,
            counters: 4,
            events: 5,
            output_size: 24,
            buffers: 8,
        },
    );
    push_record(&mut recs, &begin(1));
    let payload: Vec<u8> = (0u8..24).collect();
    // The output in two pieces, the second first.
    let h = PmcOutputHeader { dispatch_id: 1, agent_handle: 0x100, total: 24, ..Default::default() };
    push_pmc_output(&mut recs, &PmcOutputHeader { offset: 16, len: 8, ..h }, &payload[16..]);
    push_pmc_output(&mut recs, &PmcOutputHeader { offset: 0, len: 16, ..h }, &payload[..16]);
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 5, end_ns: 9, status: 0 });
    // A dispatch whose counters were not read.
    push_record(&mut recs, &begin(2));
    push_pmc_output(&mut recs, &PmcOutputHeader { dispatch_id: 2, agent_handle: 0x100, status: 1, ..h }, &[]);
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 2, start_ns: 10, end_ns: 19, status: 0 });
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    let mut reader = CaptureReader::new(&file[..]).unwrap();
    let mut strings = StringTable::new();
    let mut kinds = Vec::new();
    let mut outputs = Vec::new();
    while let Some(r) = reader.next_record(&mut strings).unwrap() {
        kinds.push(r.kind());
        match r {
            Record::PmcGroup(g) => {
                assert_eq!(g.counters, ["GRBM_COUNT", "SQ_WAVES"]);
                assert_eq!(g.events.len(), 2);
                assert_eq!((g.agent, g.output_size), (AgentId(1), 24));
                let sources: Vec<(&str, &str)> =
                    g.sources.iter().map(|s| (s.counter.as_str(), s.block.as_str())).collect();
                match g.group {
                    0 => assert_eq!(sources, [("GRBM_COUNT", "GRBM"), ("SQ_WAVES", "SQ")]),
                    _ => assert_eq!(sources, []),
                }
            }
            Record::PmcOutput(o) => outputs.push(*o),
            _ => {}
        }
    }
    assert_eq!(
        kinds,
        [
            "process",
            "agent",
            "code_object",
            "kernel_symbol",
            "pmc_group",
            "pmc_group",
            "kernel_dispatch",
            "pmc_output",
            "kernel_dispatch",
            "pmc_output",
            "run_health"
        ]
    );
    assert_eq!(outputs[0].bytes, payload);
    assert_eq!((outputs[1].status, outputs[1].bytes.len()), (crate::counters::PmcStatus::PoolExhausted, 0));
}

#[test]
fn read_capture_stops_after_the_claimed_chunks() {
    let mut recs = code_object_and_symbol();
    push_record(&mut recs, &begin(1));
    let mut file = header_bytes(0, 0);
    file[header::CHUNKS_CLAIMED..header::CHUNKS_CLAIMED + 8].copy_from_slice(&1u64.to_le_bytes());
    file.extend(chunk(1, &recs));
    // A second chunk beyond the claimed count (garbage that must not be read).
    file.extend(vec![0xEEu8; CHUNK]);
    let path = std::env::temp_dir().join(format!("rocprof-model-claimed-{}.rpcap", std::process::id()));
    std::fs::write(&path, &file).unwrap();
    let cap = read_capture(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(cap.trace.dispatches.len(), 1);
    assert_eq!(cap.trace.health.lost.total(), 0, "the unclaimed tail was not read");
}

#[test]
fn an_agent_recorded_again_under_a_new_handle_is_one_agent() {
    // A second hsa_init cycle re-records the GPU (node 1) with handle 0x200 in a chunk.
    let mut recs = Vec::new();
    push_string_record(&mut recs, 0x8010_0001, b"gfx942");
    push_record(
        &mut recs,
        &AgentRecord { handle: 0x200, node_id: 1, agent_type: 2, name: 0x8010_0001, ..Default::default() },
    );
    push_record(&mut recs, &DispatchBeginRecord { agent_handle: 0x200, ..begin(1) });
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    let cap = parse_capture(&file).unwrap();
    assert_eq!(cap.trace.agents.len(), 1);
    assert_eq!(cap.trace.dispatches[0].agent, AgentId(1));
}

#[test]
fn corrupted_files_never_panic() {
    let mut recs = code_object_and_symbol();
    push_record(&mut recs, &begin(1));
    push_record(&mut recs, &DispatchEndRecord { dispatch_id: 1, start_ns: 5, end_ns: 9, status: 0 });
    let mut file = header_bytes(0, 0);
    file.extend(chunk(1, &recs));
    // Deterministic pseudo-random byte flips and cuts (a small LCG; no dependency needed).
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..2000 {
        let mut f = file.clone();
        for _ in 0..4 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let at = (x >> 33) as usize % f.len();
            f[at] = (x >> 17) as u8;
        }
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        if x & 1 == 0 {
            f.truncate((x >> 40) as usize % f.len());
        }
        let _ = parse_capture(&f);
    }
}

#[test]
fn api_calls_and_memory_activity_round_trip_with_tick_conversion() {
    use crate::api::ApiDomain;
    use crate::memory::{MemoryAllocationOp, MemoryCopyDirection, ScratchMemoryOp};
    let mut recs = Vec::new();
    push_record(&mut recs, &ClockSyncRecord { tsc: 10_000, ns: 5_000 });
    push_record(&mut recs, &ClockSyncRecord { tsc: 20_000, ns: 10_000 });
    // hsa_agent_get_info(agent, attribute, value): core operation 6, times in ticks.
    let api = ApiCallRecord {
        correlation_id: 4,
        ancestor_id: 3,
        start: 12_000,
        end: 14_000,
        domain: ApiDomain::HsaCore.as_u16().into(),
        operation: 6,
        tid: 77,
        flags: TIME_TSC,
        ..Default::default()
    };
    push_api_call(&mut recs, &api, &[0x100, 17, 0xdead]);
    push_string_record(&mut recs, 9, b"hipMalloc");
    push_record(&mut recs, &OperationNameRecord { domain: 5, operation: 33, name: 9, reserved: 0 });
    let hip = ApiCallRecord { correlation_id: 5, start: 1, end: 2, domain: 5, operation: 33, ..Default::default() };
    push_api_call(&mut recs, &hip, &[]);
    push_record(
        &mut recs,
        &MemoryCopyRecord {
            correlation_id: 4,
            start_ns: 6_000,
            end_ns: 6_500,
            src_agent: 0x100,
            dst_agent: 0x100,
            bytes: 4096,
            direction: 4,
            ..Default::default()
        },
    );
    push_record(
        &mut recs,
        &MemoryAllocationRecord {
            correlation_id: 6,
            start: 15_000,
            end: 16_000,
            agent_handle: 0x100,
            address: 0x7000,
            size: 64,
            operation: 1,
            flags: TIME_TSC,
            ..Default::default()
        },
    );
    push_record(
        &mut recs,
        &ScratchMemoryRecord {
            correlation_id: 7,
            start: 100,
            end: 200,
            agent_handle: 0x100,
            queue_id: 1,
            size: 1 << 20,
            operation: 1,
            alloc_flags: 1,
            ..Default::default()
        },
    );
    let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
    file.extend(chunk(1, &recs));
    let cap = parse_capture(&file).unwrap();
    let t = &cap.trace;
    assert_eq!(t.health.lost.total(), 0);
    assert_eq!(t.api_calls.len(), 2);
    let a = &t.api_calls[0];
    assert_eq!(t.strings.resolve(a.name), "hsa_agent_get_info");
    assert_eq!((a.start.ns, a.end.ns), (6_000, 7_000), "ticks converted at 0.5 ns per tick");
    assert_eq!((a.correlation.internal.0, a.correlation.ancestor.0), (4, 3));
    assert_eq!(&*a.args, &[0x100, 17, 0xdead]);
    assert_eq!(a.thread, ThreadId(77));
    assert_eq!(t.strings.resolve(t.api_calls[1].name), "hipMalloc");
    assert_eq!(t.api_calls[1].domain, ApiDomain::HipRuntime);
    let c = &t.memory_copies[0];
    assert_eq!((c.direction, c.bytes, c.dst_agent), (MemoryCopyDirection::DeviceToDevice, 4096, AgentId(1)));
    assert_eq!(c.duration_ns(), 500);
    let m = &t.memory_allocations[0];
    assert_eq!((m.operation, m.agent, m.size), (MemoryAllocationOp::Allocate, Some(AgentId(1)), 64));
    assert_eq!((m.start.ns, m.end.ns), (7_500, 8_000));
    let s = &t.scratch_memory[0];
    assert_eq!((s.operation, s.flags, s.size, s.queue), (ScratchMemoryOp::Alloc, 1, 1 << 20, QueueId(1)));
    assert_eq!((s.start.ns, s.end.ns), (100, 200), "ns timestamps pass through");
}

#[test]
fn register_counts_follow_rocprofiler_sdk() {
    // gfx1100, wave32: (5 + 1) * 8 VGPRs, no AGPRs, 128 SGPRs.
    assert_eq!(arch_vgpr_count("gfx1100", 5, 0, 1 << 10), 48);
    assert_eq!(accum_vgpr_count("gfx1100", 5, 0, 1 << 10), 0);
    assert_eq!(sgpr_count("gfx1100", 0x3C0), 128);
    // gfx908: AGPRs reported equal to the architected count.
    assert_eq!(arch_vgpr_count("gfx908", 2, 0, 0), 12);
    assert_eq!(accum_vgpr_count("gfx908", 2, 0, 0), 12);
    assert_eq!(sgpr_count("gfx908", 5 << 6), 48);
    assert_eq!(sgpr_count("", 5 << 6), 0);
    // gfx90a/gfx94x: ACCUM_OFFSET 3 in rsrc3 -> (3 + 1) * 4 = 16 architected VGPRs; the
    // unified file from rsrc1 granules is (5 + 1) * 8 = 48, so 32 AGPRs.
    for gfx in ["gfx90a", "gfx942"] {
        assert_eq!(arch_vgpr_count(gfx, 5, 3, 0), 16, "{gfx}");
        assert_eq!(accum_vgpr_count(gfx, 5, 3, 0), 32, "{gfx}");
    }
    // gfx950 is not in rocprofiler-sdk's gfx94 family test: plain granules of 4, no AGPRs.
    assert_eq!(arch_vgpr_count("gfx950", 5, 3, 0), 24);
    assert_eq!(accum_vgpr_count("gfx950", 5, 3, 0), 0);
}

#[test]
fn hip_registrations_become_host_functions_of_the_symbols_they_name() {
    // Registrations come first (HIP registers in the module constructor), one names no kernel
    // of the capture, one names the loaded symbol without its `.kd`.
    let mut recs = Vec::new();
    push_string_record(&mut recs, 10, b"_Z5otherv");
    push_record(
        &mut recs,
        &HostFunctionRecord { host_function: 0x4000, modules: 0x9000, device_function: 10, ..Default::default() },
    );
    push_string_record(&mut recs, 11, b"_Z10vector_addPKfS0_Pfi");
    push_record(
        &mut recs,
        &HostFunctionRecord {
            host_function: 0x4100,
            modules: 0x9000,
            device_function: 11,
            thread_limit: 7,
            workgroup_size: 64,
            ..Default::default()
        },
    );
    let mut file = header_bytes(0, FLAG_CLEAN_EXIT);
    file.extend(chunk(1, &recs));
    file.extend(chunk(2, &code_object_and_symbol()));
    let t = parse_capture(&file).unwrap().trace;
    assert_eq!(t.host_functions.len(), 1, "{:?}", t.host_functions);
    let h = &t.host_functions[0];
    assert_eq!((h.id, h.kernel, h.code_object), (1, KernelId(1), CodeObjectId(1)));
    assert_eq!((h.host_function, h.modules, h.thread_limit, h.workgroup_size), (0x4100, 0x9000, 7, 64));
    assert_eq!(t.strings.resolve(h.device_function), "_Z10vector_addPKfS0_Pfi");
    assert_eq!(t.strings.resolve(h.truncated_name), "vector_add");
    assert_eq!(t.strings.resolve(h.demangled_name), "vector_add(float const*, float const*, float*, int)");
    assert_eq!(h.formatted_name, t.kernel_symbols[0].formatted_name);
    // In the stream, after the symbol it names.
    let mut src = Trace::source(&t);
    let mut strings = crate::StringTable::new();
    let mut kinds = Vec::new();
    while let Some(r) = src.next_record(&mut strings).unwrap() {
        kinds.push(r.kind());
    }
    let sym = kinds.iter().position(|k| *k == "kernel_symbol").unwrap();
    assert!(kinds.iter().position(|k| *k == "host_function").unwrap() > sym);
}
