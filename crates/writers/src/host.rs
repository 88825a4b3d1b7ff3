//! Facts about the machine that go into rocpd's `rocpd_info_node`: machine id and the `uname`
//! fields, read from `/etc/machine-id` and `/proc/sys/kernel` (no libc call, so this crate stays
//! free of `unsafe`).

use std::path::Path;

/// The node row of a rocpd database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NodeInfo {
    /// `rocpd_info_node.id`: a stable 32-bit value derived from the machine id.
    pub(crate) id: i64,
    /// `rocpd_info_node.hash`: stable 63-bit hash of the machine id.
    pub(crate) hash: i64,
    pub(crate) machine_id: String,
    pub(crate) system_name: String,
    pub(crate) hostname: String,
    pub(crate) release: String,
    pub(crate) version: String,
    pub(crate) hardware_name: String,
    pub(crate) domain_name: String,
}

fn first_line(path: impl AsRef<Path>) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_string())
}

/// FNV-1a, 64 bit: stable across runs and Rust versions, unlike `std`'s hasher.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The host name, as `%hostname%` expands it.
pub fn hostname() -> String {
    first_line("/proc/sys/kernel/hostname")
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()))
        .unwrap_or_else(|| "UNKNOWN_HOSTNAME".to_string())
}

impl NodeInfo {
    pub(crate) fn current() -> Self {
        let kernel = |name: &str| first_line(Path::new("/proc/sys/kernel").join(name)).unwrap_or_default();
        let hostname = hostname();
        // Same fallback order as rocprofv3 for the first two; then the host name, so that the
        // UNIQUE machine_id column never receives an empty string.
        let machine_id = first_line("/etc/machine-id")
            .or_else(|| first_line("/var/lib/dbus/machine-id"))
            .unwrap_or_else(|| format!("host-{hostname}"));
        let hash = (fnv1a64(machine_id.as_bytes()) % i64::MAX as u64) as i64;
        Self {
            id: hash % i64::from(u32::MAX),
            hash,
            machine_id,
            system_name: {
                let s = kernel("ostype");
                if s.is_empty() {
                    "Linux".to_string()
                } else {
                    s
                }
            },
            hostname,
            release: kernel("osrelease"),
            version: kernel("version"),
            hardware_name: std::env::consts::ARCH.to_string(),
            domain_name: kernel("domainname"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_stable_and_in_range() {
        let a = NodeInfo::current();
        let b = NodeInfo::current();
        assert_eq!(a, b);
        assert!(a.id >= 0 && a.id < i64::from(u32::MAX));
        assert!(!a.machine_id.is_empty());
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
