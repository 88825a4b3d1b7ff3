//! The correlation context a thread keeps between API calls, and the call in progress that the
//! HIP frames hold. Plain data: what the fields mean, and the code that changes them, is
//! [`crate::api`]'s.

use std::cell::Cell;

/// This thread's correlation context (part of [`super::Thread`]).
pub(crate) struct Ctx {
    /// The id of the API call running on the thread (any domain; 0: none).
    pub(crate) innermost: Cell<u64>,
    /// The call around `innermost`.
    pub(crate) parent: Cell<u64>,
    /// The innermost runtime-level (HIP) call: GPU work issued while it runs belongs to it.
    pub(crate) runtime: Cell<u64>,
    /// The external correlation id in force (ROCTx ranges with `--kernel-rename`).
    pub(crate) external: Cell<u64>,
    /// The HIP stream of the innermost runtime call that names one.
    pub(crate) stream: Cell<u64>,
}

impl Ctx {
    /// A thread's context before its first call.
    pub(crate) const fn new() -> Ctx {
        Ctx {
            innermost: Cell::new(0),
            parent: Cell::new(0),
            runtime: Cell::new(0),
            external: Cell::new(0),
            stream: Cell::new(0),
        }
    }
}

/// An API call in progress, from [`crate::api::enter`] to [`crate::api::leave`].
#[derive(Debug, Clone, Copy)]
pub struct Call {
    /// Its correlation id.
    pub id: u64,
    /// The call that was running when it started (0: none).
    pub ancestor: u64,
    /// The external id in force when it started.
    pub external: u64,
    /// Entry time ([`crate::timer::now`] units).
    pub start: u64,
    /// The thread's `parent` before the call, restored when it ends.
    pub(crate) prev_parent: u64,
    /// The thread's `runtime` before the call, restored when it ends.
    pub(crate) prev_runtime: u64,
}
