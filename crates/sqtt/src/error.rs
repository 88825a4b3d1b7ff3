//! Decoder errors: a byte offset plus a small `Copy` kind, never a string payload.

/// What went wrong while decoding; see [`DecodeError`] for the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The stream is shorter than its mandatory header.
    #[error("stream shorter than its header")]
    TruncatedHeader,
    /// The first token of an RDNA stream is not a layout header, or names a layout we do not decode.
    #[error("unknown RDNA trace layout {0}")]
    UnknownLayout(u8),
    /// The 8-byte gfx9 header has a version field the decoder does not accept (AMD's refuses it too).
    #[error("unsupported gfx9 trace header version {0}")]
    BadGfx9Header(u8),
    /// A token whose type bits match no known token.
    #[error("unknown token type bits {0:#04x}")]
    UnknownToken(u8),
    /// A token runs past the end of the buffer.
    #[error("token cut off by the end of the buffer")]
    TruncatedToken,
    /// The code object is not a readable ELF64 file.
    #[error("code object is not a readable ELF64 file")]
    BadElf,
    /// The code object has no `.text` section.
    #[error("code object has no .text section")]
    NoText,
}

/// A decoding failure at a byte offset of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{kind} at byte offset {offset}")]
pub struct DecodeError {
    /// Byte offset in the input where the problem was found.
    pub offset: u64,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    pub(crate) fn new(offset: u64, kind: DecodeErrorKind) -> Self {
        Self { offset, kind }
    }
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, DecodeError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_offset_and_kind() {
        let e = DecodeError::new(17, DecodeErrorKind::UnknownToken(0x41));
        assert_eq!(e.to_string(), "unknown token type bits 0x41 at byte offset 17");
    }
}
