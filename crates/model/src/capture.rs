//! The versioned on-disk capture format, intercept -> CLI (filled in by issue 3).
