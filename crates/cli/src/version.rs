//! `rocprof-rs -v` / `--version`: the build facts in rocprofv3's layout, one `    {key:>16}: {value}`
//! line per key, in its order, so scripts that parse rocprofv3's output read ours.

/// The version text, newline-terminated.
pub(crate) fn text() -> String {
    let arch = std::env::consts::ARCH;
    let os = match std::env::consts::OS {
        "linux" => "Linux",
        other => other,
    };
    let rows = [
        ("version", env!("CARGO_PKG_VERSION").to_string()),
        ("git_revision", env!("ROCPROF_RS_GIT_REVISION").to_string()),
        ("library_arch", format!("{arch}-{}-gnu", std::env::consts::OS)),
        ("system_name", os.to_string()),
        ("system_processor", arch.to_string()),
        ("system_version", env!("ROCPROF_RS_SYSTEM_VERSION").to_string()),
        ("compiler_id", "rustc".to_string()),
        ("compiler_version", env!("ROCPROF_RS_COMPILER_VERSION").to_string()),
        // Not built against any ROCm: the interception library takes ROCr's API tables at run time.
        ("rocm_version", "none (runtime tables from any ROCm; hsa-sim built in)".to_string()),
    ];
    rows.iter().map(|(k, v)| format!("    {k:>16}: {v}\n")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_rocprofv3s_in_its_order_and_alignment() {
        let t = super::text();
        let keys: Vec<&str> = t.lines().map(|l| l.split(':').next().unwrap().trim()).collect();
        assert_eq!(
            keys,
            [
                "version",
                "git_revision",
                "library_arch",
                "system_name",
                "system_processor",
                "system_version",
                "compiler_id",
                "compiler_version",
                "rocm_version"
            ]
        );
        assert!(t.starts_with(&format!("             version: {}\n", env!("CARGO_PKG_VERSION"))), "{t}");
        assert!(t.lines().all(|l| l.find(':') == Some(20)), "{t}");
    }
}
