//! `cargo xtask codegen-hsa-sim`: hsa-sim's mechanical files (`exports.rs`, `table_default.rs`,
//! `unsupported.rs` in `crates/sim-hsa/src`) from rocprof-hsa-sys's `PFN_*` types and the
//! hand-written implementations, by `xtask/codegen/hsa_sim.py`, then rustfmt. `--check` only
//! verifies that the committed files are what the generator writes.

use std::fs;
use std::process::Command;

use anyhow::{bail, Context as _, Result};

/// The generated files, relative to `crates/sim-hsa/src`.
const OUTPUTS: [&str; 3] = ["exports.rs", "table_default.rs", "unsupported.rs"];

pub(crate) fn codegen(rest: &[String]) -> Result<()> {
    let check = rest.iter().any(|a| a == "--check");
    for (name, text) in generate()? {
        let dest = crate::host::root().join("crates/sim-hsa/src").join(name);
        if check {
            if fs::read_to_string(&dest).unwrap_or_default() != text {
                bail!("{} is stale; run `cargo xtask codegen-hsa-sim` and commit the result", dest.display());
            }
            println!("{} is up to date", dest.display());
        } else {
            fs::write(&dest, text).with_context(|| format!("writing {}", dest.display()))?;
            println!("wrote {}", dest.display());
        }
    }
    Ok(())
}

/// Every generated file's name and text (the generator writes into a scratch directory).
fn generate() -> Result<Vec<(&'static str, String)>> {
    let root = crate::host::root();
    let tmp = root.join("target").join(format!("xtask-codegen-hsa-sim-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let script = root.join("xtask/codegen/hsa_sim.py");
    let status = Command::new("python3").arg(&script).arg(&tmp).status().context("running python3")?;
    if !status.success() {
        bail!("{} failed ({status})", script.display());
    }
    let generated: Vec<_> = OUTPUTS.iter().map(|f| tmp.join(f)).collect();
    let status = Command::new("rustfmt")
        .args(["--edition", "2021", "--config-path"])
        .arg(&root)
        .args(&generated)
        .status()
        .context("running rustfmt")?;
    if !status.success() {
        bail!("rustfmt failed on the generated files ({status})");
    }
    let mut out = Vec::new();
    for (name, path) in OUTPUTS.iter().zip(&generated) {
        out.push((*name, fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?));
    }
    let _ = fs::remove_dir_all(&tmp);
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn hsa_sim_generated_files_are_fresh() {
        for (name, text) in super::generate().unwrap() {
            let committed = std::fs::read_to_string(crate::host::root().join("crates/sim-hsa/src").join(name)).unwrap();
            assert!(committed == text, "crates/sim-hsa/src/{name} is stale; run `cargo xtask codegen-hsa-sim`");
        }
    }
}
