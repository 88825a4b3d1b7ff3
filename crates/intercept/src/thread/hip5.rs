//! The HIP 5.x frame stack a thread keeps between roctracer's callbacks. Plain data:
//! [`crate::hip::v5`] hands the records to HIP and records the calls.

use std::cell::{Cell, UnsafeCell};

use rocprof_hsa_sys::HIP_API_DATA_SIZE;

use super::ctx::Call;

/// Deepest nesting of HIP calls traced on one thread; deeper calls run untraced and count as
/// dropped records.
pub const DEPTH: usize = 16;

/// One traced call in progress on this thread.
#[repr(C, align(8))]
pub(crate) struct Frame {
    /// The `hip_api_data_t` HIP fills (correlation id, phase, arguments).
    pub(crate) data: [u8; HIP_API_DATA_SIZE],
    pub(crate) call: Option<Call>,
    pub(crate) id: u32,
    /// `api::set_stream`'s previous value, restored at the end (`u64::MAX`: not set).
    pub(crate) prev_stream: u64,
}

/// This thread's frames and how many of them are in use (part of [`super::Thread`]: one
/// thread-local lookup per callback).
pub(crate) struct Frames {
    pub(crate) frames: UnsafeCell<[Frame; DEPTH]>,
    pub(crate) top: Cell<usize>,
}

impl Frames {
    /// No call in progress.
    pub(crate) const fn new() -> Frames {
        Frames { frames: UnsafeCell::new([const { Frame::EMPTY }; DEPTH]), top: Cell::new(0) }
    }
}

impl Frame {
    const EMPTY: Frame = Frame { data: [0; HIP_API_DATA_SIZE], call: None, id: 0, prev_stream: u64::MAX };
}
