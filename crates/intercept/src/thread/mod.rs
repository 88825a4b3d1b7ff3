//! Everything the interception library keeps per thread on its hot paths, in one thread-local.
//!
//! The library is a shared object, so every thread-local access is a call of `__tls_get_addr`
//! (the general-dynamic TLS model; initial-exec would make a library loaded with `dlopen` by
//! `HSA_TOOLS_LIB` depend on spare static TLS). A traced call used to touch six or seven separate
//! thread-locals (the correlation context twice, the frame stack, the thread id, the chunk cursor
//! twice); with one [`Thread`] a traced HSA call, a ROCm 6 HIP table call and each HIP 5.x or 6.x
//! callback make one lookup ([`current`]) and pass the reference on.
//!
//! The parts are leaves of plain data, each changed by the module that owns its meaning: the
//! correlation context and the call in progress ([`ctx`], used by [`crate::api`]), the capture
//! cursor ([`sink`], used by [`crate::sink`]) and the HIP 5.x and 6.x frame stacks ([`hip5`],
//! [`hip6`], used by [`crate::hip::v5`] and [`crate::hip::v6`]). They import nothing of the
//! library: the modules that use them sit above this one.

pub(crate) mod ctx;
pub(crate) mod hip5;
pub(crate) mod hip6;
pub(crate) mod sink;

pub(crate) use ctx::Ctx;
pub(crate) use sink::ThreadSink;

/// This thread's state.
pub(crate) struct Thread {
    /// Correlation context.
    pub(crate) api: Ctx,
    /// Capture chunk, offset, thread id, waits.
    pub(crate) sink: ThreadSink,
    /// HIP 5.x calls in progress.
    pub(crate) hip5: hip5::Frames,
    /// HIP 6.x calls in progress.
    pub(crate) hip6: hip6::Frames,
}

thread_local! {
    static STATE: Thread = const { Thread { api: Ctx::new(), sink: ThreadSink::new(), hip5: hip5::Frames::new(), hip6: hip6::Frames::new() } };
}

// No destructor (checked): the thread-local is never torn down, so calls made from exit handlers
// and other code's TLS destructors (HIP 6.4 calls from `__cxa_finalize`) still find it.
const _: () = assert!(!std::mem::needs_drop::<Thread>());

/// The calling thread's state (one `__tls_get_addr`). `None` only if the thread-local could not be
/// reached, which a constant-initialised thread-local without destructor never is; callers
/// degrade (fresh ids, no record) rather than panic.
#[inline]
pub(crate) fn current() -> Option<&'static Thread> {
    STATE
        .try_with(|t| {
            let p: *const Thread = t;
            // SAFETY: the thread-local has no destructor, so its storage stays valid until the
            // thread itself is gone. `Thread` is not `Sync` (it holds `Cell`s), so the reference
            // cannot reach another thread, and no code runs on this thread after it ends.
            unsafe { &*p }
        })
        .ok()
}
