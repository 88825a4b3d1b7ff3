//! Diagnostics from inside the profiled process: one line to stderr, formatted into a fixed stack
//! buffer and written with a single `write(2)`, so it neither allocates nor takes the stdio lock.
//! Used on cold paths only (load, unload, failures); hooks on the hot path count instead.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU8, Ordering};

/// Verbosity, from `ROCPROF_RS_LOG_LEVEL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Level {
    /// Failures that disable part of the tool.
    Error = 0,
    /// Surprising conditions (default).
    Warning = 1,
    /// What the tool set up.
    Info = 2,
    /// Everything.
    Trace = 3,
}

static LEVEL: AtomicU8 = AtomicU8::new(Level::Warning as u8);

/// Sets the level from the launch setting.
pub fn set_level(level: rocprof_launch::LogLevel) {
    use rocprof_launch::LogLevel as L;
    let level = match level {
        L::Error => Level::Error,
        L::Warning => Level::Warning,
        L::Info => Level::Info,
        L::Trace => Level::Trace,
    };
    LEVEL.store(level as u8, Ordering::Relaxed);
}

/// Whether messages of `level` are printed.
pub fn enabled(level: Level) -> bool {
    level as u8 <= LEVEL.load(Ordering::Relaxed)
}

/// A fixed-capacity line buffer; text beyond its capacity is cut.
pub struct LineBuf {
    buf: [u8; 512],
    len: usize,
}

impl LineBuf {
    /// An empty buffer.
    pub const fn new() -> Self {
        Self { buf: [0; 512], len: 0 }
    }

    /// The text written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Default for LineBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Write for LineBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.buf.len() - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Writes one formatted line to stderr. Prefer the [`diag!`](crate::diag!) macro.
pub fn emit(level: Level, args: std::fmt::Arguments<'_>) {
    if !enabled(level) {
        return;
    }
    let mut line = LineBuf::new();
    let tag = match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "info",
        Level::Trace => "trace",
    };
    let _ = write!(line, "rocprof-rs[{}]: {tag}: ", std::process::id());
    let _ = line.write_fmt(args);
    let _ = line.write_str("\n");
    let bytes = line.as_bytes();
    // SAFETY: `bytes` is a valid, initialised buffer of `bytes.len()` bytes for the duration of
    // the call; fd 2 may be closed, in which case write fails harmlessly.
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
    }
}

/// `diag!(Level::Warning, "format {}", args)`: one stderr line, no allocation.
#[macro_export]
macro_rules! diag {
    ($level:expr, $($arg:tt)*) => {
        $crate::diag::emit($level, format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_buffer_cuts_instead_of_growing() {
        let mut b = LineBuf::new();
        for _ in 0..100 {
            let _ = write!(b, "0123456789");
        }
        assert_eq!(b.as_bytes().len(), 512);
        assert!(b.as_bytes().starts_with(b"0123456789"));
    }

    #[test]
    fn the_launch_level_sets_what_is_printed() {
        use rocprof_launch::LogLevel;
        set_level(LogLevel::Trace);
        assert!(enabled(Level::Trace));
        set_level(LogLevel::Error);
        assert!(!enabled(Level::Warning) && enabled(Level::Error));
        set_level(LogLevel::Warning);
        assert!(enabled(Level::Warning) && !enabled(Level::Info));
    }
}
