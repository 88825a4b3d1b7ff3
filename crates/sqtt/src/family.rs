//! GPU families the decoder knows, chosen once per stream from its header.

/// A thread-trace format family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// CDNA / gfx9 (MI200, MI300, MI350): 16-bit tokens after an 8-byte capture header.
    Gfx9,
    /// RDNA3 (gfx11): nibble tokens, trace layout 3.
    Gfx11,
    /// RDNA4 (gfx12): nibble tokens, trace layout 4.
    Gfx12,
}

impl Family {
    /// GFX IP major version as AMD's decoder announces it.
    pub fn gfxip(self) -> u8 {
        match self {
            Self::Gfx9 => 9,
            Self::Gfx11 => 11,
            Self::Gfx12 => 12,
        }
    }

    /// Family of a code-object target name such as `gfx1100`, `gfx1201` or `gfx950` (the targets
    /// crate's family rule; gfx10 has no thread-trace format here).
    pub fn from_target(target: &str) -> Option<Self> {
        match rocprof_targets::Family::of_name(target)? {
            rocprof_targets::Family::Gfx9 => Some(Self::Gfx9),
            rocprof_targets::Family::Gfx10 => None,
            rocprof_targets::Family::Gfx11 => Some(Self::Gfx11),
            rocprof_targets::Family::Gfx12 => Some(Self::Gfx12),
        }
    }

    /// Family from the first bytes of a trace stream: an RDNA layout header, else gfx9.
    pub fn sniff(stream: &[u8]) -> Option<Self> {
        let b = stream.first()?;
        if b & 0x7f == 0x11 && stream.len() >= 2 {
            let layout = (u16::from_le_bytes([stream[0], stream[1]]) >> 7) & 0x3f;
            match layout {
                3 => return Some(Self::Gfx11),
                4 => return Some(Self::Gfx12),
                _ => {}
            }
        }
        Some(Self::Gfx9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_and_sniffing() {
        assert_eq!(Family::from_target("gfx1100"), Some(Family::Gfx11));
        assert_eq!(Family::from_target("gfx1201"), Some(Family::Gfx12));
        assert_eq!(Family::from_target("gfx950:sramecc+:xnack+"), Some(Family::Gfx9));
        assert_eq!(Family::from_target("gfx90a"), Some(Family::Gfx9));
        assert_eq!(Family::from_target("sm_90"), None);
        assert_eq!(Family::sniff(&[0x91, 0x01, 0x90, 0x68]), Some(Family::Gfx11));
        assert_eq!(Family::sniff(&[0x11, 0x80, 0x0f, 0x00]), Some(Family::Gfx9));
        assert_eq!(Family::sniff(&[]), None);
    }
}
