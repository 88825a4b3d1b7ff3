//! The AQL packets the library adds around an application's dispatch, shared by the queue
//! rewriting ([`crate::queue`]), counter collection ([`crate::pmc`]) and thread trace
//! ([`crate::att`]).

use rocprof_hsa_sys::*;

/// The packet type bits of a header.
pub const PACKET_TYPE_MASK: u16 = 0xFF;
/// The barrier bit of a header.
pub const BARRIER_BIT: u16 = 1 << HSA_PACKET_HEADER_BARRIER;
/// The acquire and release fence scope bits of a header.
pub const FENCE_BITS: u16 = 0b1111 << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE;

/// The barrier-AND packet that carries the application's completion signal: barrier bit set,
/// the application's fence scopes, waiting for our profiling signal `gate` (0: no dependency).
pub fn completion_barrier(app_header: u16, app_signal: hsa_signal_t, gate: hsa_signal_t) -> hsa_barrier_and_packet_t {
    let mut dep_signal = [hsa_signal_t { handle: 0 }; 5];
    dep_signal[0] = gate;
    hsa_barrier_and_packet_t {
        header: HSA_PACKET_TYPE_BARRIER_AND as u16 | BARRIER_BIT | (app_header & FENCE_BITS),
        reserved0: 0,
        reserved1: 0,
        dep_signal,
        reserved2: 0,
        completion_signal: app_signal,
    }
}

/// The packets one application dispatch becomes, 64-byte aligned like a queue slot: at most a
/// serialising barrier, the PMC start, the kernel, the PMC stop and read, and the barrier that
/// completes the application's signal.
#[repr(C, align(64))]
pub struct Sequence {
    /// The packets.
    pub packets: [[u8; 64]; 6],
    /// How many are used.
    pub count: usize,
    /// Index of the kernel packet.
    pub kernel_at: usize,
    /// Index of the first packet after the profiling of the kernel (the application's completion
    /// barrier, or `count`): a thread trace's stop goes there.
    pub body_end: usize,
}
