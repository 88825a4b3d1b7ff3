//! The AMD backend's errors and the library names they quote.

/// File name of AMD's decoder library.
pub const LIBRARY_NAME: &str = "librocprof-trace-decoder.so";
/// Environment variable naming the library (file or directory).
pub const LIBRARY_ENV: &str = "ROCPROF_ATT_LIBRARY_PATH";

/// Errors of the AMD backend.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The library could not be loaded from any candidate location.
    #[error("cannot load AMD's trace decoder ({LIBRARY_NAME}); tried {tried}: {reason} (install rocprof-trace-decoder, or pass --att-library-path / set {LIBRARY_ENV})")]
    Load {
        /// Every location tried, comma separated.
        tried: String,
        /// The loader's message for the last attempt.
        reason: String,
    },
    /// The library lacks the entry point.
    #[error("{path} has no symbol {symbol}: {reason}")]
    Symbol {
        /// Library path.
        path: String,
        /// Missing symbol.
        symbol: &'static str,
        /// The loader's message.
        reason: String,
    },
    /// The decoder call returned a status other than success.
    #[error("AMD's trace decoder returned status {status} ({name})")]
    Status {
        /// Raw status.
        status: u32,
        /// Status name from AMD's header.
        name: &'static str,
    },
}
