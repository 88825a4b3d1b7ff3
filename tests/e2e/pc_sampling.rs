//! PC sampling (issue 22): `hip_pc_sampling` (kernels of different lengths, a pointer chase and a
//! kernel that narrows EXEC to the odd lanes) under `--pc-sampling-method host_trap` on hsa-sim.
//!
//! Oracles: the kernel trace's GPU times (each kernel's share of the samples follows its share of GPU
//! time), LLVM's own symbol table of the program's gfx90a code object (`llvm-objcopy` +
//! `clang-offload-bundler` + `llvm-readelf`: every sampled PC lies inside the code of the kernel its
//! dispatch ran), LLVM's line table and symbolizer of that code object (each sample's source line
//! and inlined call sites), and the program's source (which lanes run the loop of `odd_lanes`).

use rocprof_launch::names as launch;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use rocprof_e2e::{find_files, find_one, profile, read_csv, scratch, ScratchGuard};
use rocprof_model::capture::CaptureReader;
use rocprof_model::{Record, RecordSource, StringTable};

/// `hip_pc_sampling 1 ROUNDS` under PC sampling every `interval` µs, CSV and kept capture in `out`.
fn sampled(stage: &rocprof_e2e::Stage, app: &Path, interval: &str, out: &Path) -> rocprof_e2e::Run {
    let out_s = out.display().to_string();
    let keep = vec![(launch::KEEP_CAPTURE.to_string(), "1".to_string())];
    profile(
        stage,
        &[
            "--simulate",
            "gfx90a",
            "--kernel-trace",
            "--pc-sampling-beta-enabled",
            "--pc-sampling-method",
            "host_trap",
            "--pc-sampling-unit",
            "time",
            "--pc-sampling-interval",
            interval,
            "-f",
            "csv",
            "-d",
            &out_s,
        ],
        app,
        &["1", "2000"],
        &keep,
    )
}

/// The FUNC symbols (name -> [value, value + size)) of the program's gfx90a code object, by LLVM's tools;
/// `None` (with a message) when they are not installed.
fn kernel_extents(app: &Path, dir: &Path) -> Option<HashMap<String, (u64, u64)>> {
    fn tool(names: &[&'static str]) -> Option<&'static str> {
        names.iter().find(|n| Command::new(n).arg("--version").output().is_ok()).copied()
    }
    let (Some(objcopy), Some(bundler), Some(readelf)) = (
        tool(&["llvm-objcopy", "llvm-objcopy-15", "llvm-objcopy-19"]),
        tool(&["clang-offload-bundler-15", "clang-offload-bundler"]),
        tool(&["llvm-readelf", "llvm-readelf-15", "llvm-readelf-19"]),
    ) else {
        assert!(
            std::env::var("CI").is_err(),
            "llvm-objcopy, clang-offload-bundler and llvm-readelf are needed under CI"
        );
        eprintln!("skipping the PC-range check: LLVM's objcopy/offload-bundler/readelf not installed");
        return None;
    };
    let fat = dir.join("fat.bin");
    let co = dir.join("gfx90a.co");
    let ok = |c: &mut Command| assert!(c.status().unwrap().success(), "{c:?}");
    ok(Command::new(objcopy)
        .arg(format!("--dump-section=.hip_fatbin={}", fat.display()))
        .arg(app)
        .arg(dir.join("app.o")));
    ok(Command::new(bundler).args([
        "--type=o",
        &format!("--input={}", fat.display()),
        "--targets=hipv4-amdgcn-amd-amdhsa--gfx90a",
        &format!("--output={}", co.display()),
        "--unbundle",
    ]));
    let syms = Command::new(readelf).args(["--symbols", "--wide"]).arg(&co).output().unwrap();
    let mut out = HashMap::new();
    for line in String::from_utf8_lossy(&syms.stdout).lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        // Num: Value Size Type Bind Vis Ndx Name
        if f.len() >= 8 && f[3] == "FUNC" {
            let value = u64::from_str_radix(f[1], 16).unwrap();
            let size: u64 = f[2].parse().unwrap();
            out.insert(f[7].to_string(), (value, value + size));
        }
    }
    assert!(out.len() >= 4, "kernels in the code object: {out:?}");
    Some(out)
}

#[test]
fn pc_samples_fall_in_the_code_of_their_dispatch_in_proportion_to_gpu_time_with_the_waves_exec_mask() {
    let test = "pc_samples_fall_in_the_code_of_their_dispatch_in_proportion_to_gpu_time_with_the_waves_exec_mask";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_pc_sampling", test) else { return };
    let out = scratch("pc-sampling");
    let _guard = ScratchGuard(out.clone());
    let run = sampled(&stage, &app, "1", &out);
    assert!(run.status.success(), "{}", run.transcript());
    assert!(run.stdout.contains("hip_pc_sampling: ok"), "results stay right under sampling:\n{}", run.transcript());
    assert!(!run.stderr.contains("pc_samples_lost"), "{}", run.transcript());

    let trace = read_csv(&find_one(&out, "kernel_trace.csv"));
    let samples = read_csv(&find_one(&out, "pc_sampling_host_trap.csv"));
    assert_eq!(
        samples.header,
        ["Sample_Timestamp", "Exec_Mask", "Dispatch_Id", "Instruction", "Instruction_Comment", "Correlation_Id"]
    );
    // Dispatch -> (kernel name without arguments, GPU ns, correlation id).
    let mut kernels: HashMap<String, (String, u64, String)> = HashMap::new();
    for r in &trace.rows {
        let name = r["Kernel_Name"].split('(').next().unwrap().to_string();
        let ns = r["End_Timestamp"].parse::<u64>().unwrap() - r["Start_Timestamp"].parse::<u64>().unwrap();
        kernels.insert(r["Dispatch_Id"].clone(), (name, ns, r["Correlation_Id"].clone()));
    }
    assert_eq!(kernels.len(), 4, "{:?}", trace.rows);
    let total_ns: u64 = kernels.values().map(|k| k.1).sum();
    let mut per_kernel: HashMap<&str, u64> = HashMap::new();
    let odd_lanes: u64 = (0..32).map(|k| 1u64 << (2 * k + 1)).sum();
    let mut odd_masks = 0;
    for s in &samples.rows {
        let (name, _, corr) = kernels.get(&s["Dispatch_Id"]).unwrap_or_else(|| panic!("sample of no dispatch: {s:?}"));
        assert_eq!(&s["Correlation_Id"], corr, "{s:?}");
        assert!(!s["Instruction"].is_empty(), "{s:?}");
        *per_kernel.entry(name).or_default() += 1;
        let exec: u64 = s["Exec_Mask"].parse().unwrap();
        if name == "odd_lanes" {
            // Outside the `if` every lane of the 256-thread blocks is active; inside it the odd ones.
            assert!(exec == u64::MAX || exec == odd_lanes, "odd_lanes EXEC {exec:#x}");
            odd_masks += u64::from(exec == odd_lanes);
        } else {
            assert_eq!(exec, u64::MAX, "{name}: full waves, uniform control flow");
        }
    }
    let n = samples.rows.len() as f64;
    assert!(n > 200.0, "{n} samples at 1 µs over {total_ns} ns of kernels");
    for (d, (name, ns, _)) in &kernels {
        let time_share = *ns as f64 / total_ns as f64;
        let sample_share = per_kernel.get(name.as_str()).copied().unwrap_or(0) as f64 / n;
        assert!(
            (time_share - sample_share).abs() < 0.04,
            "dispatch {d} ({name}): {:.1}% of GPU time but {:.1}% of the samples",
            100.0 * time_share,
            100.0 * sample_share
        );
    }
    // The loop of odd lanes is where odd_lanes spends its time.
    assert!(odd_masks as f64 > 0.8 * per_kernel["odd_lanes"] as f64, "{odd_masks} of {}", per_kernel["odd_lanes"]);

    // Every sampled PC lies in the code of its dispatch's kernel (LLVM's symbol extents), and the
    // capture's samples are the CSV's rows.
    let Some(extents) = kernel_extents(&app, &out) else { return };
    let captures = find_files(&out, ".rpcap");
    let [capture] = captures.as_slice() else { panic!("one kept capture expected: {captures:?}") };
    let mut reader = CaptureReader::open(capture).unwrap();
    let mut strings = StringTable::new();
    let (mut bases, mut symbols, mut dispatch_kernel) = (Vec::new(), HashMap::new(), HashMap::new());
    while let Some(r) = reader.next_record(&mut strings).unwrap() {
        match r {
            Record::CodeObject(c) => bases.push((c.load_base, c.load_size)),
            Record::KernelSymbol(k) => {
                symbols.insert(k.id.0, strings.resolve(k.name).trim_end_matches(".kd").to_string());
            }
            Record::KernelDispatch(d) => {
                dispatch_kernel.insert(d.dispatch_id.0, d.kernel.0);
            }
            _ => {}
        }
    }
    let pcs = reader.pc_samples();
    assert_eq!(pcs.samples.len(), samples.rows.len());
    let lines = source_lines(&out.join("gfx90a.co"));
    // Comment of each sampled line row (its address in the code object).
    let mut comments = std::collections::BTreeMap::<u64, String>::new();
    // Waves of every shader engine are sampled (8 workgroups on gfx90a's 8 engines), and a workgroup is
    // always on the same engine and CU (`HW_ID`: CU 11:8, shader engine 15:13).
    let mut place_of_group: HashMap<(u64, u32), (u32, u32)> = HashMap::new();
    for (s, id) in pcs.samples.iter().zip(pcs.resolve()) {
        let place = ((s.hw_id >> 13) & 7, (s.hw_id >> 8) & 0xf);
        let id = id.unwrap_or_default();
        assert_eq!(*place_of_group.entry((id, s.workgroup_x)).or_insert(place), place, "workgroup {}", s.workgroup_x);
    }
    let engines: std::collections::BTreeSet<u32> = place_of_group.values().map(|p| p.0).collect();
    assert_eq!(engines.len(), 8, "shader engines sampled: {engines:?}");
    for ((s, id), row) in pcs.samples.iter().zip(pcs.resolve()).zip(&samples.rows) {
        let id = id.expect("every sample resolves to a dispatch");
        let symbol = &symbols[&dispatch_kernel[&id]];
        let &(base, _) = bases.iter().find(|&&(b, size)| b <= s.pc && s.pc < b + size).expect("PC in a code object");
        let (lo, hi) = extents[symbol];
        assert!((lo..hi).contains(&(s.pc - base)), "PC offset {:#x} outside {symbol} [{lo:#x}, {hi:#x})", s.pc - base);
        // The source line: the last row of LLVM's line table with a line at or before the PC's offset.
        if let Some(lines) = &lines {
            // Inlined code adds its call sites after it (` -> file:line`, innermost first).
            let want = lines.range(..=(s.pc - base)).next_back().map(|(_, l)| l.as_str()).unwrap_or_default();
            let innermost = row["Instruction_Comment"].split(" -> ").next().unwrap_or_default();
            assert_eq!(innermost, want, "PC offset {:#x} in {symbol}", s.pc - base);
            if let Some((&row_address, _)) = lines.range(..=(s.pc - base)).next_back() {
                comments.insert(row_address, row["Instruction_Comment"].clone());
            }
        }
    }
    if let Some(lines) = &lines {
        assert!(lines.values().any(|l| l.contains("hip_pc_sampling.cpp:")), "{lines:?}");
        // The kernels call inlined functions: their samples name the call sites, as LLVM's symbolizer
        // lists the frames at the line row's address (rocprofiler-sdk takes them there).
        assert!(comments.values().any(|c| c.contains(" -> ")), "no sample inside inlined code: {comments:?}");
        if let Some(symbolizer) = rocprof_test_inputs::program(test, "llvm-symbolizer-19", "llvm-19") {
            let addresses: Vec<u64> = comments.keys().copied().collect();
            let input: String = addresses.iter().map(|a| format!("{a:#x}\n")).collect();
            let mut child = Command::new(symbolizer)
                .args(["--inlining", "--functions=none"])
                .arg(format!("--obj={}", out.join("gfx90a.co").display()))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
            let text = String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned();
            let frames: Vec<String> = text
                .split("\n\n")
                .filter(|b| !b.trim().is_empty())
                .map(|b| b.lines().map(|l| l.rsplit_once(':').map_or(l, |x| x.0)).collect::<Vec<_>>().join(" -> "))
                .collect();
            assert_eq!(frames.len(), addresses.len(), "{text}");
            for (a, want) in addresses.iter().zip(&frames) {
                assert_eq!(&comments[a], want, "line row at {a:#x}");
            }
        }
    }
}

/// `path:line` by address from `llvm-dwarfdump --debug-line` of the code object `co`: each row with a
/// non-zero line, a later row at the same address replacing an earlier one (rocprofiler-sdk's rule);
/// the path is the file's `include_directories` entry (a relative one under entry 0, the compilation
/// directory) joined to its name. `None` without the tool.
fn source_lines(co: &Path) -> Option<std::collections::BTreeMap<u64, String>> {
    let dump = ["llvm-dwarfdump-15", "llvm-dwarfdump", "llvm-dwarfdump-19"]
        .into_iter()
        .find(|n| Command::new(n).arg("--version").output().is_ok());
    let Some(dump) = dump else {
        assert!(std::env::var("CI").is_err(), "llvm-dwarfdump is needed under CI");
        eprintln!("skipping the source-line check: llvm-dwarfdump not installed");
        return None;
    };
    let out = Command::new(dump).arg("--debug-line").arg(co).output().unwrap();
    assert!(out.status.success(), "{dump} --debug-line {}", co.display());
    let (mut dirs, mut files) = (Vec::<String>::new(), HashMap::<u32, String>::new());
    let (mut file, mut map) = (None::<(u32, String)>, std::collections::BTreeMap::new());
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let t = line.trim();
        if t.starts_with("debug_line[") {
            (dirs, files) = (Vec::new(), HashMap::new());
        } else if let Some(rest) = t.strip_prefix("include_directories[") {
            dirs.push(rest.split_once("= \"").map_or("", |(_, v)| v.trim_end_matches('"')).to_string());
        } else if let Some(rest) = t.strip_prefix("file_names[") {
            file = Some((rest.split(']').next().unwrap().trim().parse().unwrap(), String::new()));
        } else if let Some(name) = t.strip_prefix("name: \"") {
            if let Some(f) = file.as_mut() {
                f.1 = name.trim_end_matches('"').to_string();
            }
        } else if let Some(d) = t.strip_prefix("dir_index: ") {
            if let Some((k, name)) = file.take() {
                // A relative directory is under the compilation directory (entry 0), as elfutils joins it.
                let d: usize = d.parse().unwrap();
                let dir = dirs.get(d).filter(|_| !name.starts_with('/')).map(|dir| match dirs.first() {
                    Some(comp) if d != 0 && !dir.starts_with('/') => format!("{comp}/{dir}"),
                    _ => dir.clone(),
                });
                files.insert(k, dir.map_or(name.clone(), |d| format!("{d}/{name}")));
            }
        } else if t.starts_with("0x") {
            let f: Vec<&str> = t.split_whitespace().collect();
            let (address, line) = (u64::from_str_radix(&f[0][2..], 16).unwrap(), f[1].parse::<u32>().unwrap());
            if line != 0 {
                map.insert(
                    address,
                    format!("{}:{line}", files.get(&f[3].parse().unwrap()).cloned().unwrap_or_default()),
                );
            }
        }
    }
    Some(map)
}

#[test]
fn pc_sampling_options_the_agent_cannot_honour_fail_before_launch_in_one_line() {
    let test = "pc_sampling_options_the_agent_cannot_honour_fail_before_launch_in_one_line";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_pc_sampling", test) else { return };
    let base = ["--pc-sampling-beta-enabled", "--pc-sampling-unit"];
    for (gpu, unit, method, interval, want) in [
        ("gfx90a", "cycles", "stochastic", "1024", "gfx90a does not support method stochastic with unit cycles"),
        ("gfx90a", "time", "host_trap", "2000000", "interval 2000000 is out of range for host_trap time on gfx90a"),
        ("gfx1030", "time", "host_trap", "10", "gfx1030 has no PC-sampling configuration"),
        ("gfx90a", "time", "host_trap", "-5", "PC sampling interval must be a positive number."),
        ("gfx942", "time", "stochastic", "1024", "gfx942 does not support method stochastic with unit time"),
        ("gfx942", "cycles", "host_trap", "1024", "gfx942 does not support method host_trap with unit cycles"),
        ("gfx942", "cycles", "stochastic", "1000", "interval 1000 is out of range for stochastic cycles on gfx942"),
        ("gfx942", "cycles", "stochastic", "128", "interval 128 is out of range for stochastic cycles on gfx942"),
        (
            "gfx942",
            "instructions",
            "stochastic",
            "1024",
            "gfx942 does not support method stochastic with unit instructions",
        ),
    ] {
        let args = [
            "--simulate",
            gpu,
            base[0],
            base[1],
            unit,
            "--pc-sampling-method",
            method,
            "--pc-sampling-interval",
            interval,
        ];
        let r = profile(&stage, &args, &app, &["1", "10"], &[]);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", r.transcript());
        assert!(r.stdout.is_empty(), "the application never ran: {}", r.transcript());
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(want), "{args:?}: {}", r.stderr);
        // Every refusal but rocprofv3.py's own interval check is one no agent can honour: it
        // matches AMD's skip pattern for PC-sampling tests (tests/rocprofv3/pc-sampling/CMakeLists.txt).
        if interval != "-5" {
            assert!(r.stderr.contains("PC sampling configuration is not supported"), "{args:?}: {}", r.stderr);
        }
    }
}
