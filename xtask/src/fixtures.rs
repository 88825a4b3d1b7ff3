//! The hsa-sim fixtures: staging them under `target/stage/fixtures/` (called from `build`) and
//! rebuilding the committed AMDGPU code objects from their OpenCL sources (`cargo xtask
//! fixtures`). What each fixture is and where it came from is in `fixtures/**/README.md`.
//!
//! Staging needs gcc and AMD's HSA headers (Debian `libhsa-runtime-dev`); the code objects are
//! committed, so only `cargo xtask fixtures` needs an AMDGPU-capable clang and lld.

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use rocprof_launch::names;

use crate::host::{root, status};

/// Targets every kernel is compiled for: every target of the targets crate (hsa-sim's agents).
fn targets() -> impl Iterator<Item = &'static str> {
    rocprof_targets::TARGETS.iter().map(|t| t.name)
}

/// Kernel sources in `fixtures/kernels/`; each becomes `<name>-<gfx>.co`.
pub(crate) const KERNELS: &[&str] = &["vector_add", "saxpy", "fill", "block_sum"];

/// The C programs in `fixtures/programs/` (each `<name>.c` plus the shared `common.c`).
const PROGRAMS: &[&str] = &[
    "vector_add",
    "multi_queue",
    "async_copy",
    "multi_code_object",
    "crash_after",
    "bad_input",
    "init_cycles",
    "svm",
    "kernel_mix",
    "fork_exec",
    "fork_only",
    "soak",
    "hsa_api_loop",
    "scratch",
    "copy_variants",
    "fake_hip",
    "kokkos_app",
];

/// Programs of [`PROGRAMS`] linked with `-rdynamic`, so that `dlsym(RTLD_DEFAULT, ..)` finds the
/// functions they define (`fake_hip`'s `hipGetDevice`).
const EXPORTING_PROGRAMS: &[&str] = &["fake_hip"];

/// C programs in `fixtures/programs/` that also use ROCTx: built against our `roctx.h` and linked
/// with `-lroctx64` from the stage.
const ROCTX_PROGRAMS: &[&str] = &["roctx_threads"];

/// The HIP programs in `fixtures/hip/` (`<name>.cpp`) and the extra libraries each links.
const HIP_PROGRAMS: &[(&str, &[&str])] = &[
    ("hip_trace_app", &["-lroctx64"]),
    ("hip_rand_app", &["-lhiprand"]),
    ("hip_api_loop", &[]),
    // Self-checking kernels for hsa-sim's interpreter (exit 0 only with correct results).
    ("hip_vector_add", &[]),
    ("hip_reduce", &[]),
    ("hip_transpose", &[]),
    ("hip_branches", &[]),
    ("hip_atomics", &[]),
    ("hip_memops", &[]),
    // Device printf through HIP's hostcall buffer, against the host's printf.
    ("hip_printf", &[]),
    // Cooperative launches: grid sync in ds_gws_barrier (global wave sync) on gfx90a and gfx1030.
    ("hip_cooperative", &[]),
    // Texture objects: images and samplers (hipMallocArray, hipCreateTextureObject, tex2D).
    ("hip_texture", &[]),
    ("hip_rand_check", &["-lhiprand"]),
    ("hip_sparse_check", &["-lrocsparse"]),
    // Kernels of different lengths, a memory-bound one and one that narrows EXEC (PC sampling).
    ("hip_pc_sampling", &[]),
];

/// GPU targets of the HIP fixtures: one fat binary. Debian's HIP 5.2 (clang 15) knows gfx908, gfx90a
/// and gfx1030 of hsa-sim's targets (`../shared/reference/hip-on-hsa-sim.md`).
const HIP_TARGETS: &[&str] = &["gfx90a", "gfx1030"];

/// Code-object version the kernels are built as (ROCm 6.x's default; `EI_ABIVERSION` 3).
const CODE_OBJECT_VERSION: &str = "5";

/// Copies the kernels and builds the C programs, the `HSA_TOOLS_LIB` test tool and the rocminfo
/// shims into `stage/fixtures`. Missing gcc or HSA headers skip the C parts with a message, so
/// that `cargo xtask build` still stages the Rust artifacts on a machine without them.
pub(crate) fn stage_fixtures(stage: &Path) -> Result<()> {
    let src = root().join("fixtures");
    let out = stage.join("fixtures");
    let kernels_out = out.join("kernels");
    fs::create_dir_all(&kernels_out)?;
    let mut copied = 0;
    for entry in fs::read_dir(src.join("kernels")).context("reading fixtures/kernels")? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "co") {
            let dest = kernels_out.join(path.file_name().expect("a file from read_dir has a name"));
            replace_file(&path, &dest)?;
            copied += 1;
        }
    }

    if !Path::new("/usr/include/hsa/hsa.h").exists() || which("gcc").is_none() {
        eprintln!(
            "xtask: fixtures: gcc or /usr/include/hsa/hsa.h missing, C fixtures not built \
             (run `cargo xtask setup` as root, or apt-get install libhsa-runtime-dev gcc)"
        );
        return Ok(());
    }

    // Programs link with -lhsa-runtime64 like a real application: against the staged simulator
    // when it exists (-L stage comes first), otherwise against Debian's ROCr, which has the same
    // soname and `ROCR_1` version node. At run time LD_LIBRARY_PATH picks the simulator.
    let programs = src.join("programs");
    let roctx_staged = stage.join("libroctx64.so").exists();
    for name in PROGRAMS.iter().chain(ROCTX_PROGRAMS.iter().filter(|_| roctx_staged)) {
        let dest = out.join(name);
        let _ = fs::remove_file(&dest);
        let roctx = ROCTX_PROGRAMS.contains(name);
        let gcc = |search_stage: bool| {
            let mut cmd = Command::new("gcc");
            cmd.args(["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-pthread"])
                .arg(programs.join(format!("{name}.c")))
                .arg(programs.join("common.c"))
                .arg("-o")
                .arg(&dest);
            if EXPORTING_PROGRAMS.contains(name) {
                cmd.arg("-rdynamic");
            }
            if search_stage || roctx {
                cmd.arg(format!("-L{}", stage.display())).arg(format!("-Wl,-rpath-link,{}", stage.display()));
            }
            if roctx {
                cmd.arg(format!("-I{}", stage.join("include").display())).arg("-lroctx64");
            }
            cmd.arg("-lhsa-runtime64");
            cmd
        };
        if status(gcc(true)).is_err() {
            // A simulator that lacks an export the program uses must not break the whole build:
            // link against Debian's ROCr instead, so the program fails at run time, in the tests
            // that use it, with the missing symbol named by the dynamic loader.
            eprintln!("xtask: fixtures: {name} does not link against the staged libhsa-runtime64.so; linking against the system's");
            status(gcc(false)).with_context(|| format!("building fixture program {name}"))?;
        }
    }

    // The HSA_TOOLS_LIB test tool: it reaches the runtime only through the table it is given.
    let tool = out.join("libcount_tool.so");
    let _ = fs::remove_file(&tool);
    let mut cmd = Command::new("gcc");
    cmd.args(["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-shared", "-fPIC", "-pthread"])
        .arg(src.join("tool").join("count_tool.c"))
        .arg("-o")
        .arg(&tool);
    status(cmd).context("building the test tool library")?;

    // rocminfo's two pre-flight shims: an `lsmod` that lists amdgpu, an open() redirect for /dev/kfd.
    let shim_dir = out.join("rocminfo");
    fs::create_dir_all(shim_dir.join("bin"))?;
    let lsmod = shim_dir.join("bin").join("lsmod");
    replace_file(&src.join("rocminfo").join("lsmod"), &lsmod)?;
    set_executable(&lsmod)?;
    let redirect = shim_dir.join("libkfd_redirect.so");
    let _ = fs::remove_file(&redirect);
    let mut cmd = Command::new("gcc");
    cmd.args(["-std=gnu11", "-O2", "-Wall", "-Wextra", "-shared", "-fPIC"])
        .arg(src.join("rocminfo").join("kfd_redirect.c"))
        .arg("-o")
        .arg(&redirect)
        .arg("-ldl");
    status(cmd).context("building the /dev/kfd open() redirect")?;

    let hip = stage_hip_programs(stage, &src.join("hip"), &out)?;
    let hip6 = crate::sid::stage_hip6(stage)?;
    println!(
        "xtask: fixtures: {copied} code objects, {} C programs, {hip} HIP programs, {hip6} HIP 6.4 programs, test tool and rocminfo shims in {}",
        PROGRAMS.len() + if roctx_staged { ROCTX_PROGRAMS.len() } else { 0 },
        out.display()
    );
    Ok(())
}

/// Builds the HIP programs with Debian's `hipcc` into `out` (see `fixtures/hip/README.md`);
/// returns how many are there. Without `hipcc` they are skipped with a message (the tests that need
/// them then skip too, except under `CI=true`, where `.ci/run` installs `hipcc`). A program newer
/// than its source, our ROCTx header and library is not rebuilt (hipcc takes seconds per program).
fn stage_hip_programs(stage: &Path, src: &Path, out: &Path) -> Result<usize> {
    let Some(hipcc) = which("hipcc") else {
        eprintln!(
            "xtask: fixtures: hipcc not found, HIP fixtures ({}) not built (apt-get install {})",
            HIP_PROGRAMS.iter().map(|p| p.0).collect::<Vec<_>>().join(", "),
            crate::host::APT_PACKAGES.join(" ")
        );
        return Ok(0);
    };
    let include = stage.join("include");
    let inputs_newest = |name: &str| -> Option<std::time::SystemTime> {
        let source = src.join(format!("{name}.cpp"));
        // The headers of `fixtures/hip` the source includes by name (`#include "texture_check.h"`).
        let included: Vec<PathBuf> = fs::read_to_string(&source)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().strip_prefix("#include \"")?.strip_suffix('"'))
            .map(|h| src.join(h))
            .collect();
        [source, src.join("check.h"), include.join("roctx.h"), stage.join("libroctx64.so.4")]
            .iter()
            .chain(&included)
            .filter_map(|p| fs::metadata(p).and_then(|m| m.modified()).ok())
            .max()
    };
    // hipcc takes seconds per program: the stale ones build two at a time (CI has two cores).
    let stale: Vec<&(&str, &[&str])> = HIP_PROGRAMS
        .iter()
        .filter(|(name, _)| {
            let built = fs::metadata(out.join(name)).and_then(|m| m.modified()).ok();
            built.is_none() || built < inputs_newest(name)
        })
        .collect();
    for pair in stale.chunks(2) {
        let mut children = Vec::new();
        for (name, libs) in pair {
            let dest = out.join(name);
            let _ = fs::remove_file(&dest);
            let mut cmd = Command::new(&hipcc);
            for target in HIP_TARGETS {
                cmd.arg(format!("--offload-arch={target}"));
            }
            cmd.args(["-O2", "-g", "-Wall"])
                .arg(format!("-I{}", include.display()))
                .arg(src.join(format!("{name}.cpp")))
                .arg("-o")
                .arg(&dest)
                .arg(format!("-L{}", stage.display()))
                .args(*libs);
            let shown = format!("{cmd:?}");
            let child = cmd.spawn().with_context(|| format!("starting {shown}"))?;
            children.push((name, shown, child));
        }
        for (name, shown, mut child) in children {
            let st = child.wait().with_context(|| format!("waiting for {shown}"))?;
            if !st.success() {
                anyhow::bail!("building HIP fixture {name} with {}: {shown} failed with {st}", hipcc.display());
            }
        }
    }
    Ok(HIP_PROGRAMS.len())
}

/// `cargo xtask fixtures [--check]`: rebuilds `fixtures/kernels/<kernel>-<gfx>.co` from the
/// OpenCL sources; `--check` builds into a temporary directory and fails if any committed file
/// differs (same compiler versions as recorded in `fixtures/kernels/README.md` required).
/// `cargo xtask fixtures --stage <dir>` only runs the staging step into `<dir>` (which should hold
/// a `libhsa-runtime64.so`), for iterating on the C fixtures without a release build.
pub(crate) fn rebuild_kernels(rest: &[String]) -> Result<()> {
    let check = match rest {
        [] => false,
        [flag] if flag == "--check" => true,
        [flag, dir] if flag == "--stage" => return stage_fixtures(Path::new(dir)),
        other => bail!("usage: cargo xtask fixtures [--check | --stage <dir>] (got {other:?})"),
    };
    let dir = root().join("fixtures").join("kernels");
    let tmp = root().join("target").join("xtask-fixtures");
    fs::create_dir_all(&tmp)?;
    let mut toolchains = Toolchains::discover();
    let mut stale = Vec::new();
    for target in targets() {
        let Some(tc) = toolchains.for_target(target)? else {
            bail!(
                "no clang with an AMDGPU backend that supports {target} found; tried {} \
                 (for gfx950, LLVM 20+ is needed: e.g. `pip install ziglang` and rerun, or set \
                 ROCPROF_RS_CLANG/ROCPROF_RS_LLD)",
                toolchains.describe_candidates()
            );
        };
        for kernel in KERNELS {
            let object = tmp.join(format!("{kernel}-{target}.o"));
            let built = tmp.join(format!("{kernel}-{target}.co"));
            let mut cc = tc.clang();
            cc.args(["-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "--target=amdgcn-amd-amdhsa", "-nogpulib", "-O2"])
                .arg(format!("-mcpu={target}"))
                .arg(format!("-mcode-object-version={CODE_OBJECT_VERSION}"))
                .arg("-c")
                .arg(dir.join(format!("{kernel}.cl")))
                .arg("-o")
                .arg(&object);
            status(cc).with_context(|| format!("compiling {kernel} for {target}"))?;
            let mut ld = tc.lld();
            ld.arg("-shared").arg(&object).arg("-o").arg(&built);
            status(ld).with_context(|| format!("linking {kernel} for {target}"))?;
            let committed = dir.join(format!("{kernel}-{target}.co"));
            if check {
                let same = fs::read(&committed).ok() == Some(fs::read(&built)?);
                if !same {
                    stale.push(committed.display().to_string());
                }
            } else {
                replace_file(&built, &committed)?;
            }
        }
        println!("xtask: fixtures: {target}: {} ({})", KERNELS.join(", "), tc.label);
    }
    if !stale.is_empty() {
        bail!(
            "{} code objects differ from their sources; run `cargo xtask fixtures`:\n  {}",
            stale.len(),
            stale.join("\n  ")
        );
    }
    Ok(())
}

/// One way to invoke clang and ld.lld (a Debian `clang-N`, or the LLVM inside zig).
struct Toolchain {
    label: String,
    clang: Vec<String>,
    lld: Vec<String>,
}

impl Toolchain {
    fn clang(&self) -> Command {
        let mut cmd = Command::new(&self.clang[0]);
        cmd.args(&self.clang[1..]);
        cmd
    }

    fn lld(&self) -> Command {
        let mut cmd = Command::new(&self.lld[0]);
        cmd.args(&self.lld[1..]);
        cmd
    }

    /// The AMDGPU processors this clang knows, from `--print-supported-cpus`.
    fn supported_cpus(&self) -> Option<Vec<String>> {
        let out =
            self.clang().args(["--target=amdgcn-amd-amdhsa", "-nogpulib", "--print-supported-cpus"]).output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let cpus: Vec<String> = text.split_whitespace().filter(|w| w.starts_with("gfx")).map(str::to_owned).collect();
        (!cpus.is_empty()).then_some(cpus)
    }
}

/// Candidate toolchains in order of preference: an explicit override, Debian's packaged LLVMs
/// (19 is in Debian 12), then zig's bundled clang (PyPI `ziglang`), which is LLVM 20+ and the
/// only packaged way to get gfx950 on Debian 12.
struct Toolchains {
    candidates: Vec<Toolchain>,
    supported: BTreeMap<usize, Option<Vec<String>>>,
}

impl Toolchains {
    fn discover() -> Self {
        let mut candidates = Vec::new();
        if let (Ok(clang), Ok(lld)) = (env::var(names::CLANG), env::var(names::LLD)) {
            candidates.push(Toolchain { label: format!("{clang} + {lld}"), clang: vec![clang], lld: vec![lld] });
        }
        for version in 19..=22 {
            let clang = format!("clang-{version}");
            let lld = format!("ld.lld-{version}");
            if which(&clang).is_some() && which(&lld).is_some() {
                candidates.push(Toolchain {
                    label: format!("Debian {clang} + {lld}"),
                    clang: vec![clang],
                    lld: vec![lld],
                });
            }
        }
        let zig = env::var(names::ZIG).ok().map(PathBuf::from).or_else(|| which("zig")).or_else(pypi_zig);
        if let Some(zig) = zig {
            let zig = zig.display().to_string();
            candidates.push(Toolchain {
                label: format!("{zig} clang + ld.lld"),
                clang: vec![zig.clone(), "clang".into()],
                lld: vec![zig, "ld.lld".into()],
            });
        }
        Toolchains { candidates, supported: BTreeMap::new() }
    }

    fn for_target(&mut self, target: &str) -> Result<Option<&Toolchain>> {
        for i in 0..self.candidates.len() {
            let cpus = self.supported.entry(i).or_insert_with(|| self.candidates[i].supported_cpus());
            if cpus.as_ref().is_some_and(|c| c.iter().any(|c| c == target)) {
                return Ok(Some(&self.candidates[i]));
            }
        }
        Ok(None)
    }

    fn describe_candidates(&self) -> String {
        if self.candidates.is_empty() {
            return "none (no clang-19..22 with ld.lld, no zig)".into();
        }
        self.candidates.iter().map(|c| c.label.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// The zig binary of a pip-installed `ziglang` package, if python3 can import it.
fn pypi_zig() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))"])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (out.status.success() && path.is_file()).then_some(path)
}

/// The first `name` on PATH.
fn which(name: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// Copies `from` over `to`, removing `to` first: a running process may map the old file.
fn replace_file(from: &Path, to: &Path) -> Result<()> {
    let _ = fs::remove_file(to);
    fs::copy(from, to).with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
    Ok(())
}

fn set_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).with_context(|| format!("chmod {}", path.display()))
}
