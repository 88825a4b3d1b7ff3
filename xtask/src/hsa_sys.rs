//! `cargo xtask codegen-hsa-sys`: rocprof-hsa-sys's definition files (one module per ROCr header,
//! `layout.rs`, `api_trace.rs`, `exports.rs` in `crates/hsa-sys/src`) from AMD's headers, by the
//! scripts in `xtask/codegen/hsa_sys` (`generate.py`, see its docstring), then rustfmt. `--check`
//! only verifies that the committed files are what the generator writes.
//!
//! Inputs: the newest ROCr headers and `hsacore.so.def`, read from a git directory of
//! `ROCm/rocm-systems` (`--rocm-systems GIT_DIR`, its `HEAD`; a bare mirror will do) or given as
//! `--rocr-inc DIR --def FILE`; Debian's ROCm 5.2 headers (`--debian-inc DIR`, default `/usr/include`,
//! from `libhsa-runtime-dev`); gcc and Python's pycparser.
//!
//! HIP's tables (`hip_prof.rs`, `hip_prof_6_4.rs`, `hip_api_trace.rs`) come from other inputs (HIP's
//! headers, ROCm/clr) and have their own scripts beside these (`hip_prof.py`, `hip_api_trace.py`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

/// The generated files, relative to `crates/hsa-sys/src`.
const OUTPUTS: [&str; 13] = [
    "hsa.rs",
    "hsa_ext_amd.rs",
    "hsa_ext_image.rs",
    "hsa_ext_finalize.rs",
    "hsa_ven_amd_loader.rs",
    "hsa_ven_amd_pc_sampling.rs",
    "hsa_amd_tool.rs",
    "amd_hsa_signal.rs",
    "amd_hsa_queue.rs",
    "amd_hsa_kernel_code.rs",
    "layout.rs",
    "api_trace.rs",
    "exports.rs",
];

/// Hand-written modules of the crate, copied beside the generated ones so that rustfmt can follow
/// `lib.rs`'s module tree.
const HAND_WRITTEN: [&str; 5] = ["lib.rs", "roctx.rs", "hip_prof.rs", "hip_prof_6_4.rs", "hip_api_trace.rs"];

/// Where the ROCr inputs come from.
enum Rocr {
    /// A git directory of `ROCm/rocm-systems`; its `HEAD` is read.
    Git(PathBuf),
    /// The header directory and `hsacore.so.def`.
    Files { inc: PathBuf, def: PathBuf },
}

pub(crate) fn codegen(rest: &[String]) -> Result<()> {
    let mut check = false;
    let (mut git, mut inc, mut def) = (None, None, None);
    let mut debian = PathBuf::from("/usr/include");
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().map(PathBuf::from).with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--check" => check = true,
            "--rocm-systems" => git = Some(value(a)?),
            "--rocr-inc" => inc = Some(value(a)?),
            "--def" => def = Some(value(a)?),
            "--debian-inc" => debian = value(a)?,
            other => bail!("codegen-hsa-sys: unknown argument `{other}`"),
        }
    }
    let rocr = match (git, inc, def) {
        (Some(g), None, None) => Rocr::Git(g),
        (None, Some(inc), Some(def)) => Rocr::Files { inc, def },
        _ => bail!("codegen-hsa-sys needs either --rocm-systems GIT_DIR or both --rocr-inc DIR and --def FILE"),
    };
    let src = crate::host::root().join("crates/hsa-sys/src");
    let mut stale = Vec::new();
    for (name, text) in generate(&rocr, &debian)? {
        let dest = src.join(name);
        if check {
            if fs::read_to_string(&dest).unwrap_or_default() != text {
                stale.push(dest.display().to_string());
            }
        } else {
            fs::write(&dest, text).with_context(|| format!("writing {}", dest.display()))?;
            println!("wrote {}", dest.display());
        }
    }
    if !stale.is_empty() {
        bail!(
            "stale (run `cargo xtask codegen-hsa-sys` with the same inputs and commit the result): {}",
            stale.join(", ")
        );
    }
    if check {
        println!("{} files of {} are up to date", OUTPUTS.len(), src.display());
    }
    Ok(())
}

/// Every generated file's name and text (the generator writes into a scratch directory).
fn generate(rocr: &Rocr, debian: &Path) -> Result<Vec<(&'static str, String)>> {
    let root = crate::host::root();
    let tmp = root.join("target").join(format!("xtask-codegen-hsa-sys-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let out = tmp.join("src");
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    for f in HAND_WRITTEN {
        fs::copy(root.join("crates/hsa-sys/src").join(f), out.join(f)).with_context(|| format!("copying {f}"))?;
    }
    let (inc, def) = match rocr {
        Rocr::Files { inc, def } => (inc.clone(), def.clone()),
        Rocr::Git(git) => extract(git, &tmp)?,
    };
    let script = root.join("xtask/codegen/hsa_sys/generate.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg("--rocr-inc")
        .arg(&inc)
        .arg("--def")
        .arg(&def)
        .arg("--debian-inc")
        .arg(debian)
        .arg("--out")
        .arg(&out)
        .status()
        .context("running python3")?;
    if !status.success() {
        bail!("{} failed ({status})", script.display());
    }
    let status = Command::new("rustfmt")
        .args(["--edition", "2021", "--config-path"])
        .arg(&root)
        .arg(out.join("lib.rs"))
        .status()
        .context("running rustfmt")?;
    if !status.success() {
        bail!("rustfmt failed on the generated files ({status})");
    }
    let mut files = Vec::new();
    for name in OUTPUTS {
        let path = out.join(name);
        files.push((name, fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?));
    }
    let _ = fs::remove_dir_all(&tmp);
    Ok(files)
}

/// Writes ROCr's headers and `hsacore.so.def` at `HEAD` of the git directory `git` under `tmp`.
fn extract(git: &Path, tmp: &Path) -> Result<(PathBuf, PathBuf)> {
    const RUNTIME: &str = "projects/rocr-runtime/runtime/hsa-runtime";
    let show = |path: &str| -> Result<Vec<u8>> {
        let o = Command::new("git").arg("-C").arg(git).args(["show", &format!("HEAD:{path}")]).output()?;
        if !o.status.success() {
            bail!("git -C {} show HEAD:{path}: {}", git.display(), String::from_utf8_lossy(&o.stderr).trim());
        }
        Ok(o.stdout)
    };
    let listing = String::from_utf8(show(&format!("{RUNTIME}/inc/"))?).context("listing ROCr's headers")?;
    let inc = tmp.join("rocr-inc");
    fs::create_dir_all(&inc)?;
    for name in listing.lines().filter(|n| n.ends_with(".h")) {
        fs::write(inc.join(name), show(&format!("{RUNTIME}/inc/{name}"))?)?;
    }
    let def = tmp.join("hsacore.so.def");
    fs::write(&def, show(&format!("{RUNTIME}/hsacore.so.def"))?)?;
    Ok((inc, def))
}
