//! ELF reading (placeholder, filled in with the code-object loader).
