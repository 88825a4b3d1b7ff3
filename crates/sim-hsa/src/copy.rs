//! Async copies (placeholder).
