//! A queue's scratch (private segment) memory as the queue holds it; what it means and the tool events
//! around it are `scratch.rs`.

/// A queue's scratch (main scratch only).
#[derive(Debug, Default)]
pub(crate) struct QueueScratch {
    /// Bytes held (0: none).
    pub(crate) size: u64,
    /// Bytes per work-item the scratch was sized for.
    pub(crate) per_thread: u64,
    /// Lanes per wave it was sized for.
    pub(crate) lanes: u64,
    /// The scratch is for one dispatch only (freed when it ends).
    pub(crate) use_once: bool,
}
