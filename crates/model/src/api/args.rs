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

/// The word [`render_arg`] printed as `text` (the inverse, for reading `rocpd_arg` values back);
/// `None` when the text is not in that form (a value another writer printed differently).
pub fn parse_arg(kind: ArgKind, text: &str) -> Option<u64> {
    let text = text.trim();
    let int = |t: &str| -> Option<u64> {
        match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => t.parse::<u64>().ok().or_else(|| t.parse::<i64>().ok().map(|v| v as u64)),
        }
    };
    let field = |t: &str, key: &str| -> Option<u64> {
        t.split(',').find_map(|p| p.trim().strip_prefix(key)?.strip_prefix('=')).and_then(|v| int(v.trim()))
    };
    match kind {
        ArgKind::Unsigned | ArgKind::Signed | ArgKind::Pointer => int(text),
        ArgKind::Bool => match text {
            "true" => Some(1),
            "false" => Some(0),
            t => int(t).map(|v| u64::from(v != 0)),
        },
        ArgKind::Handle => {
            let inner = text.strip_prefix('{')?.strip_suffix('}')?;
            field(inner, "handle")
        }
        ArgKind::Struct => Some(0),
        ArgKind::Float32 => text.parse::<f32>().ok().map(|f| u64::from(f.to_bits())),
        ArgKind::Float64 => text.parse::<f64>().ok().map(f64::to_bits),
        ArgKind::Dim3 => {
            let inner = text.strip_prefix('{')?.strip_suffix('}')?;
            let (x, y, z) = (field(inner, "x")?, field(inner, "y")?, field(inner, "z")?);
            Some((x & 0xFFFF_FFFF) | (y & 0xFFFF) << 32 | z << 48)
        }
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

    #[test]
    fn printed_words_parse_back() {
        let cases = [
            (ArgKind::Unsigned, u64::MAX),
            (ArgKind::Signed, (-3i64) as u64),
            (ArgKind::Bool, 1),
            (ArgKind::Bool, 0),
            (ArgKind::Pointer, 0),
            (ArgKind::Pointer, 0xffff_8000_7f00_1000),
            (ArgKind::Handle, 1234),
            (ArgKind::Struct, 0),
            (ArgKind::Float32, u64::from(0.1f32.to_bits())),
            (ArgKind::Float64, 1e-300f64.to_bits()),
            (ArgKind::Dim3, 64 | 2 << 32 | 1 << 48),
        ];
        for (kind, word) in cases {
            assert_eq!(parse_arg(kind, &render_arg(kind, word)), Some(word), "{kind:?} {word:#x}");
        }
        assert_eq!(parse_arg(ArgKind::Handle, "7"), None);
        assert_eq!(parse_arg(ArgKind::Unsigned, "hipMemcpyHostToDevice"), None);
    }
}
