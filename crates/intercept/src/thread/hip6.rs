//! The HIP 6.x call stack a thread keeps between the tracer callback and `phase_exit`. Plain
//! data: [`crate::hip::v6`] opens and records the calls.

use std::cell::{Cell, UnsafeCell};

use super::ctx::Call;

/// Deepest nesting of HIP calls traced on one thread; deeper calls run untraced and are counted as
/// `hip_nesting_too_deep`.
pub const DEPTH: usize = 16;

/// This thread's calls in progress and how many of them there are (part of [`super::Thread`],
/// which is constant initialised and without destructor: usable at exit, after the thread's
/// other TLS is gone).
pub(crate) struct Frames {
    pub(crate) calls: UnsafeCell<[Option<Call>; DEPTH]>,
    pub(crate) top: Cell<usize>,
}

impl Frames {
    /// No call in progress.
    pub(crate) const fn new() -> Frames {
        Frames { calls: UnsafeCell::new([None; DEPTH]), top: Cell::new(0) }
    }
}
