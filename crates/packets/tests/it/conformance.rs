//! Conformance with AMD's aqlprofile: rebuilds every golden case in
//! `$ROCPROF_RS_PM4_GOLDENS` (default `<workspace>/../shared/conformance/pm4`)
//! from its recorded inputs and agent only, with buffer addresses from the
//! bump-allocator rule, and compares AQL packets, PM4 streams, buffer sizes,
//! sample order, allocations and failures. Input-only case files are generated
//! (and written to `$ROCPROF_RS_PM4_OUT` when set) but not compared.

use rocprof_launch::names;
use std::path::{Path, PathBuf};

use rocprof_packets::{Agent, BumpAllocator, Target};
use serde_json::{json, Map, Value};

use crate::util::{hex, num};

fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(targets) = std::fs::read_dir(dir) else { return out };
    let mut targets: Vec<_> = targets.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    targets.sort();
    for t in targets {
        let Ok(files) = std::fs::read_dir(&t) else { continue };
        let mut files: Vec<_> =
            files.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
        files.sort();
        out.extend(files);
    }
    out
}

fn agent_of(case: &Value) -> Result<Agent, String> {
    let a = &case["agent"];
    let name = a["gfxip"].as_str().or(case["target"].as_str()).ok_or("no agent.gfxip")?;
    let target = Target::from_name(name).map_err(|e| e.to_string())?;
    let field = |k: &str| num(&a[k]).map(|v| v as u32).ok_or(format!("agent.{k} missing"));
    Agent::new(target, field("cu_num")?, field("se_num")?, field("shader_arrays_per_se")?, field("xcc_num")?)
        .map_err(|e| e.to_string())
}

fn packet_json(p: &rocprof_packets::Pm4Packet) -> Value {
    json!({
        "aql_hex": hex(&p.aql),
        "ib_addr": format!("{:#x}", p.ib_addr),
        "ib_size_bytes": p.size_bytes(),
        "pm4_hex": hex(&p.pm4_bytes()),
    })
}

fn allocations_json(a: &BumpAllocator) -> Value {
    Value::Array(
        a.allocations()
            .iter()
            .enumerate()
            .map(|(i, x)| json!({"index": i, "addr": format!("{:#x}", x.addr), "size": x.size, "role": x.role.name()}))
            .collect(),
    )
}

/// Builds our answer for one case file, in the golden layout.
pub(crate) fn generate(case: &Value) -> Result<Value, String> {
    let agent = agent_of(case)?;
    let base = num(&case["arena_base"]).ok_or("arena_base missing")?;
    let mut alloc = BumpAllocator::new(base).map_err(|e| e.to_string())?;
    let kind = case["kind"].as_str().ok_or("kind missing")?;
    let mut out = Map::new();
    for k in ["schema", "target", "case", "kind", "api", "agent", "arena_base", "input"] {
        if let Some(v) = case.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    if kind == "pmc" {
        // aqlprofile_validate_pmc_event's verdict per requested event.
        let verdicts: Vec<Value> = pmc_events(case)
            .iter()
            .map(|e| json!({"valid": rocprof_packets::validate_event(&agent, e).is_ok()}))
            .collect();
        out.insert("validate".into(), Value::Array(verdicts));
    }
    let built: Result<Map<String, Value>, rocprof_packets::Error> = match kind {
        "pmc" => build_pmc(case, &agent, &mut alloc),
        "att" => build_att(case, &agent, &mut alloc),
        "codeobj_marker" => build_marker(case, &agent, &mut alloc),
        other => return Err(format!("unknown kind {other:?}")),
    };
    match built {
        Ok(m) => {
            out.insert("ok".into(), Value::Bool(true));
            out.extend(m);
        }
        Err(e) => {
            out.insert("ok".into(), Value::Bool(false));
            out.insert("error".into(), Value::String(e.to_string()));
        }
    }
    out.insert("allocations".into(), allocations_json(&alloc));
    Ok(Value::Object(out))
}

fn pmc_events(case: &Value) -> Vec<rocprof_packets::PmcEvent> {
    case["input"]["events"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| rocprof_packets::PmcEvent {
                    block_enum: num(&e["block_enum"]).unwrap_or(u64::MAX) as u32,
                    block_index: num(&e["block_index"]).unwrap_or(0) as u32,
                    event_id: num(&e["event_id"]).unwrap_or(0) as u32,
                    flags: num(&e["flags"]).unwrap_or(0) as u32,
                })
                .collect()
        })
        .unwrap_or_default()
}

fn build_pmc(
    case: &Value,
    agent: &Agent,
    alloc: &mut BumpAllocator,
) -> Result<Map<String, Value>, rocprof_packets::Error> {
    use rocprof_packets::PmcPlan;
    let events = pmc_events(case);
    let plan = PmcPlan::new(agent, &events)?;
    let pk = plan.build(alloc)?;
    let rows: Vec<Value> =
        plan.samples().iter().map(|s| json!([s.block_enum, s.block_index, s.event_id, s.sample_id])).collect();
    let mut m = Map::new();
    m.insert("output_buffer_size".into(), json!(pk.output_size));
    m.insert(
        "samples".into(),
        json!({"columns": ["block_enum", "block_index", "event_id", "sample_id"], "rows": rows}),
    );
    m.insert(
        "packets".into(),
        json!({"start": packet_json(&pk.start), "stop": packet_json(&pk.stop), "read": packet_json(&pk.read)}),
    );
    Ok(m)
}

fn build_att(
    case: &Value,
    agent: &Agent,
    alloc: &mut BumpAllocator,
) -> Result<Map<String, Value>, rocprof_packets::Error> {
    use rocprof_packets::att::{AttParameter, AttPlan};
    let params: Vec<AttParameter> = case["input"]["parameters"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| AttParameter {
                    id: num(&p["id"]).unwrap_or(u64::MAX) as u32,
                    value: num(&p["value"]).unwrap_or(0) as u32,
                })
                .collect()
        })
        .unwrap_or_default();
    let plan = AttPlan::new(agent, &params)?;
    let pk = plan.build(alloc)?;
    let mut m = Map::new();
    m.insert("output_buffer_size".into(), json!(pk.trace_size));
    m.insert("control_buffer_size".into(), json!(pk.control_size));
    m.insert("packets".into(), json!({"start": packet_json(&pk.start), "stop": packet_json(&pk.stop)}));
    Ok(m)
}

fn build_marker(
    case: &Value,
    agent: &Agent,
    alloc: &mut BumpAllocator,
) -> Result<Map<String, Value>, rocprof_packets::Error> {
    use rocprof_packets::marker::CodeObjectMarker;
    let i = &case["input"];
    let marker = CodeObjectMarker {
        id: num(&i["id"]).unwrap_or(0),
        addr: num(&i["addr"]).unwrap_or(0),
        size: num(&i["size"]).unwrap_or(0),
        is_unload: num(&i["is_unload"]).unwrap_or(0) != 0,
        from_start: num(&i["from_start"]).unwrap_or(0) != 0,
    };
    let pk = marker.build(agent, alloc)?;
    let mut m = Map::new();
    m.insert("packets".into(), json!({"marker": packet_json(&pk)}));
    Ok(m)
}

/// Compares our answer with the golden; returns human-readable mismatches.
fn compare(golden: &Value, ours: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    if let Some(gv) = golden["validate"].as_array() {
        let g: Vec<_> = gv.iter().map(|v| v["valid"].as_bool()).collect();
        let o: Vec<_> =
            ours["validate"].as_array().map_or(vec![], |a| a.iter().map(|v| v["valid"].as_bool()).collect());
        if g != o {
            diffs.push(format!("validate: golden {g:?}, ours {o:?}"));
        }
    }
    let g_ok = golden["ok"].as_bool().unwrap_or(true);
    let o_ok = ours["ok"].as_bool().unwrap_or(false);
    if g_ok != o_ok {
        diffs.push(format!("ok: golden {g_ok}, ours {o_ok} ({})", ours["error"].as_str().unwrap_or("")));
        return diffs;
    }
    if !g_ok {
        return diffs;
    }
    for k in ["output_buffer_size", "control_buffer_size"] {
        if golden.get(k).is_some() && num(&golden[k]) != num(&ours[k]) {
            diffs.push(format!("{k}: golden {}, ours {}", golden[k], ours[k]));
        }
    }
    if golden.get("samples").is_some() && golden["samples"]["rows"] != ours["samples"]["rows"] {
        let g = golden["samples"]["rows"].as_array().map_or(0, |a| a.len());
        let o = ours["samples"]["rows"].as_array().map_or(0, |a| a.len());
        let first = (0..g.max(o)).find(|&i| golden["samples"]["rows"][i] != ours["samples"]["rows"][i]);
        diffs.push(format!(
            "samples: golden {g} rows, ours {o}; first difference at row {first:?}: golden {} ours {}",
            first.map_or(Value::Null, |i| golden["samples"]["rows"][i].clone()),
            first.map_or(Value::Null, |i| ours["samples"]["rows"][i].clone()),
        ));
    }
    if let Some(galloc) = golden["allocations"].as_array() {
        let oalloc = ours["allocations"].as_array().cloned().unwrap_or_default();
        if galloc.len() != oalloc.len() {
            diffs.push(format!("allocations: golden {}, ours {}", galloc.len(), oalloc.len()));
        }
        for (g, o) in galloc.iter().zip(&oalloc) {
            if num(&g["addr"]) != num(&o["addr"]) || num(&g["size"]) != num(&o["size"]) || g["role"] != o["role"] {
                diffs.push(format!(
                    "allocation {}: golden {} {} {}, ours {} {} {}",
                    g["index"], g["role"], g["addr"], g["size"], o["role"], o["addr"], o["size"]
                ));
            }
        }
    }
    if let Some(packets) = golden["packets"].as_object() {
        for (name, gp) in packets {
            let op = &ours["packets"][name];
            if gp["aql_hex"] != op["aql_hex"] {
                diffs.push(format!("{name}.aql_hex: golden {}, ours {}", gp["aql_hex"], op["aql_hex"]));
            }
            if gp["pm4_hex"] != op["pm4_hex"] {
                let g = gp["pm4_hex"].as_str().unwrap_or("");
                let o = op["pm4_hex"].as_str().unwrap_or("");
                let (gd, od) = (dwords(g), dwords(o));
                let first = (0..gd.len().max(od.len())).find(|&i| gd.get(i) != od.get(i)).unwrap_or(0);
                let listing = gp["pm4_listing"]
                    .as_array()
                    .and_then(|l| {
                        l.iter().rev().find_map(|s| {
                            let s = s.as_str()?;
                            let at: usize = s.strip_prefix('[')?.split(']').next()?.parse().ok()?;
                            (at <= first).then(|| s.to_string())
                        })
                    })
                    .unwrap_or_default();
                diffs.push(format!(
                    "{name}.pm4: golden {} dw, ours {} dw; first difference at dword {first}: golden {:08x?} ours {:08x?} (golden packet: {listing})",
                    gd.len(),
                    od.len(),
                    &gd[first.min(gd.len())..(first + 4).min(gd.len())],
                    &od[first.min(od.len())..(first + 4).min(od.len())],
                ));
            }
        }
    }
    diffs
}

fn dwords(hexs: &str) -> Vec<u32> {
    let b: Vec<u8> = (0..hexs.len() / 2).filter_map(|i| u8::from_str_radix(&hexs[2 * i..2 * i + 2], 16).ok()).collect();
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// A case file that carries answers (as opposed to inputs only).
fn has_answers(case: &Value) -> bool {
    ["packets", "ok", "allocations", "output_buffer_size", "samples", "status"].iter().any(|k| case.get(*k).is_some())
}

#[test]
fn pm4_conformance() {
    let Some(dir) = rocprof_test_inputs::shared_or_env("pm4_conformance", names::PM4_GOLDENS, "conformance/pm4") else {
        return;
    };
    let out_dir = std::env::var_os(names::PM4_OUT).map(PathBuf::from);
    let files = case_files(&dir);
    assert!(!files.is_empty(), "no case files under {}", dir.display());
    let (mut identical, mut compared, mut generated) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        let case: Value = match std::fs::read_to_string(f)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{rel}: unreadable: {e}"));
                compared += 1;
                continue;
            }
        };
        let ours = match generate(&case) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                compared += 1;
                continue;
            }
        };
        if let Some(out) = &out_dir {
            let target = case["target"].as_str().or(case["agent"]["gfxip"].as_str()).unwrap_or("unknown");
            let name = f.file_name().map(|n| n.to_owned()).unwrap_or_default();
            let d = out.join(target);
            std::fs::create_dir_all(&d).expect("create ROCPROF_RS_PM4_OUT directory");
            let text = serde_json::to_string_pretty(&ours).expect("serialize generated case");
            std::fs::write(d.join(name), text + "\n").expect("write generated case");
        }
        if !has_answers(&case) {
            generated += 1;
            continue;
        }
        compared += 1;
        let diffs = compare(&case, &ours);
        if diffs.is_empty() {
            identical += 1;
        } else {
            for d in diffs {
                failures.push(format!("{rel}: {d}"));
            }
        }
    }
    for f in &failures {
        println!("MISMATCH {f}");
    }
    if generated > 0 {
        println!("pm4 conformance: generated {generated} input-only case(s) without comparing");
    }
    // Leading newline: under `cargo test -q` libtest's progress dots share the line otherwise.
    println!("\npm4 conformance: {identical}/{compared} identical");
    assert_eq!(identical, compared, "pm4 conformance: {identical}/{compared} identical");
}
