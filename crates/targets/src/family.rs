//! The instruction-set (GFX IP) families, and reading a target name's family.

/// An instruction-set (GFX IP) family. Encodings, opcode numbers, register maps and the packet
/// encodings differ between families; within a family targets differ in their tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// GCN5 / CDNA (gfx908, gfx90a, gfx942, gfx950): wave64.
    Gfx9,
    /// RDNA2 (gfx1030).
    Gfx10,
    /// RDNA3 (gfx1100).
    Gfx11,
    /// RDNA4 (gfx1201).
    Gfx12,
}

impl Family {
    /// Every family, oldest first.
    pub const ALL: [Family; 4] = [Family::Gfx9, Family::Gfx10, Family::Gfx11, Family::Gfx12];

    /// The family's name in the counter database and reference data: `gfx9`, `gfx10`, `gfx11`, `gfx12`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Gfx9 => "gfx9",
            Family::Gfx10 => "gfx10",
            Family::Gfx11 => "gfx11",
            Family::Gfx12 => "gfx12",
        }
    }

    /// The family of a target name by its GFX IP number (`gfx9xx`, `gfx10xx`, `gfx11xx`,
    /// `gfx12xx`), known target or not; an `amdgcn-amd-amdhsa--` prefix and `:feature` suffixes are
    /// ignored.
    pub fn of_name(name: &str) -> Option<Family> {
        let digits = strip_target_name(name).strip_prefix("gfx")?;
        let digits: String = digits.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        match (digits.len(), digits.get(..2)) {
            (4, Some("10")) => Some(Family::Gfx10),
            (4, Some("11")) => Some(Family::Gfx11),
            (4, Some("12")) => Some(Family::Gfx12),
            (3, _) if digits.starts_with('9') => Some(Family::Gfx9),
            _ => None,
        }
    }
}

/// `name` without an `amdgcn-amd-amdhsa--` prefix and `:feature` suffixes.
pub(crate) fn strip_target_name(name: &str) -> &str {
    let name = name.rsplit("--").next().unwrap_or(name);
    name.split(':').next().unwrap_or(name)
}
