//! How the raw argument words of an [`super::ApiCall`] are named, typed and printed.
//!
//! The interception library copies each argument into a 64-bit word without looking at it
//! (integers zero- or sign-extended, pointers as addresses, handle structs as their `handle`
//! member). The descriptions here turn those words into the `rocpd_arg` rows (`type`, `name`,
//! `value` text) after the run, so the profiled process never formats anything.

use super::{hsa, ApiDomain};

/// How an argument word is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArgKind {
    /// An unsigned integer or enumeration, printed in decimal.
    Unsigned,
    /// A signed integer (sign-extended into the word), printed in decimal.
    Signed,
    /// A C `bool`, printed `1` or `0` (as a C++ stream prints it).
    Bool,
    /// A data or function pointer, printed as `0x` and lower-case hex (`0` when NULL).
    Pointer,
    /// A handle struct (`hsa_agent_t`, `hsa_signal_t`, ...), printed `{handle=N}`.
    Handle,
    /// Any other struct passed by value (`hsa_ext_control_directives_t`): not recorded (its word
    /// is 0), printed `{...}`.
    Struct,
    /// A `float` (its bits in the low half of the word).
    Float32,
    /// A `double` (its bits).
    Float64,
    /// HIP's `dim3`, packed x | y << 32 | z << 48 (y and z saturated at 65535), printed as
    /// rocprofiler-sdk prints it: `{z=Z, y=Y, x=X}`.
    Dim3,
}

/// One parameter of an API function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ApiArgInfo {
    /// Parameter name as in the C header (`agent`, `attribute`, ...).
    pub name: &'static str,
    /// C type as written in the header (`hsa_agent_t`, `void*`, `uint32_t`, ...).
    pub ty: &'static str,
    /// How its word is printed.
    pub kind: ArgKind,
}

/// The parameters of operation `op` of `domain`, when this build knows them.
pub fn arg_info(domain: ApiDomain, op: u32) -> Option<&'static [ApiArgInfo]> {
    hsa::operations(domain).and_then(|ops| ops.get(op as usize)).map(|o| o.args)
}

/// The parameters of an API call given its operation's name too: HIP's operation ids depend on
/// the HIP release, so HIP calls are described by name ([`super::hip::args`]).
pub fn arg_info_named(domain: ApiDomain, op: u32, name: &str) -> Option<&'static [ApiArgInfo]> {
    match domain {
        ApiDomain::HipRuntime | ApiDomain::HipCompiler => super::hip::args(name),
        _ => arg_info(domain, op),
    }
}

/// The text of one argument word, the way rocprofiler-sdk's argument streams print values.
pub fn render_arg(kind: ArgKind, word: u64) -> String {
    match kind {
        ArgKind::Unsigned => word.to_string(),
        ArgKind::Signed => (word as i64).to_string(),
        ArgKind::Bool => u8::from(word != 0).to_string(),
        ArgKind::Pointer if word == 0 => "0".to_string(),
        ArgKind::Pointer => format!("{word:#x}"),
        ArgKind::Handle => format!("{{handle={word}}}"),
        ArgKind::Struct => "{...}".to_string(),
        ArgKind::Float32 => f32::from_bits(word as u32).to_string(),
        ArgKind::Float64 => f64::from_bits(word).to_string(),
        ArgKind::Dim3 => format!("{{z={}, y={}, x={}}}", word >> 48, (word >> 32) & 0xFFFF, word & 0xFFFF_FFFF),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_print_by_kind() {
        assert_eq!(render_arg(ArgKind::Unsigned, 42), "42");
        assert_eq!(render_arg(ArgKind::Signed, (-3i64) as u64), "-3");
        assert_eq!(render_arg(ArgKind::Bool, 7), "1");
        assert_eq!(render_arg(ArgKind::Pointer, 0), "0");
        assert_eq!(render_arg(ArgKind::Pointer, 0x7f00_1000), "0x7f001000");
        assert_eq!(render_arg(ArgKind::Handle, 1234), "{handle=1234}");
        assert_eq!(render_arg(ArgKind::Struct, 0), "{...}");
        assert_eq!(render_arg(ArgKind::Dim3, 64 | 2 << 32 | 1 << 48), "{z=1, y=2, x=64}");
        assert_eq!(render_arg(ArgKind::Float32, u64::from(1.5f32.to_bits())), "1.5");
    }
}
