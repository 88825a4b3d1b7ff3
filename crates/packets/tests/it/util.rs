//! Helpers shared by the integration tests: locating `../shared` data next to
//! the workspace and hex formatting.

use std::path::PathBuf;

/// `<workspace root>/../shared/<rel>`, found by walking up from this crate to
/// the directory holding the workspace `Cargo.toml`.
pub(crate) fn shared_dir(rel: &str) -> Option<PathBuf> {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let manifest = dir.join("Cargo.toml");
        if manifest.is_file() {
            if let Ok(text) = std::fs::read_to_string(&manifest) {
                if text.contains("[workspace]") {
                    let p = dir.join("..").join("shared").join(rel);
                    return p.exists().then_some(p);
                }
            }
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// Lowercase hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses `"0x..."` or a JSON number as u64.
pub(crate) fn num(v: &serde_json::Value) -> Option<u64> {
    match v {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(s) => {
            let s = s.trim();
            match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => s.parse().ok(),
            }
        }
        _ => None,
    }
}
