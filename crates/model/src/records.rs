//! Owned records shared by writers and the CLI (filled in by issue 3).
