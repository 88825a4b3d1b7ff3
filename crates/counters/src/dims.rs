//! Dimensions of counter values: the axes expressions name and a value list's extents (how a block
//! is laid out on an agent is `layout.rs`).
//!
//! The rules are aqlprofile's (`EventAttribDimension` in `projects/aqlprofile/src/core/
//! counter_dimensions.hpp`): dimensions appear in the order XCC, AID, WGP-or-INSTANCE, SE, SA,
//! and a sample index decodes row-major over them (the last dimension varies fastest).

use std::fmt;

/// One axis of a counter's values, named as rocprofiler-sdk names it in expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dimension {
    /// Accelerator complex (XCD), present when the agent has more than one.
    Xcc,
    /// MI300 active interposer die, for UMC-type blocks only.
    Aid,
    /// Workgroup processor (gfx11/gfx12 SQ).
    Wgp,
    /// Block instance.
    Instance,
    /// Shader engine, within one XCC.
    ShaderEngine,
    /// Shader array, within one SE.
    ShaderArray,
}

impl Dimension {
    /// All dimensions, in aqlprofile's order.
    pub const ALL: [Dimension; 6] = [
        Dimension::Xcc,
        Dimension::Aid,
        Dimension::Wgp,
        Dimension::Instance,
        Dimension::ShaderEngine,
        Dimension::ShaderArray,
    ];

    /// The name used in expressions, e.g. `DIMENSION_SHADER_ENGINE`.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Xcc => "DIMENSION_XCC",
            Dimension::Aid => "DIMENSION_AID",
            Dimension::Wgp => "DIMENSION_WGP",
            Dimension::Instance => "DIMENSION_INSTANCE",
            Dimension::ShaderEngine => "DIMENSION_SHADER_ENGINE",
            Dimension::ShaderArray => "DIMENSION_SHADER_ARRAY",
        }
    }

    /// Parses a `DIMENSION_*` name, or aqlprofile's short name (`XCD`, `AID`, `SE`, `SA`, `WGP`,
    /// `INSTANCE`).
    pub fn from_name(name: &str) -> Option<Dimension> {
        Some(match name {
            "DIMENSION_XCC" | "XCD" | "XCC" => Dimension::Xcc,
            "DIMENSION_AID" | "AID" => Dimension::Aid,
            "DIMENSION_WGP" | "WGP" => Dimension::Wgp,
            "DIMENSION_INSTANCE" | "INSTANCE" => Dimension::Instance,
            "DIMENSION_SHADER_ENGINE" | "SE" => Dimension::ShaderEngine,
            "DIMENSION_SHADER_ARRAY" | "SA" => Dimension::ShaderArray,
            _ => return None,
        })
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dimension with its number of coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DimExtent {
    /// Which axis.
    pub dim: Dimension,
    /// Number of coordinates along it (at least 1).
    pub extent: usize,
}

impl DimExtent {
    /// Shorthand constructor.
    pub fn new(dim: Dimension, extent: usize) -> Self {
        Self { dim, extent }
    }
}

impl fmt::Display for DimExtent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[0:{}]", self.dim, self.extent.saturating_sub(1))
    }
}

/// Formats a dimension list as rocprofv3-avail does, `DIMENSION_INSTANCE[0:0]
/// DIMENSION_SHADER_ENGINE[0:7]`; a single value prints as `DIMENSION_INSTANCE[0:0]`.
pub fn format_dims(dims: &[DimExtent]) -> String {
    if dims.is_empty() {
        return DimExtent::new(Dimension::Instance, 1).to_string();
    }
    dims.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// Number of values a dimension list describes.
pub fn element_count(dims: &[DimExtent]) -> usize {
    dims.iter().map(|d| d.extent).product()
}
