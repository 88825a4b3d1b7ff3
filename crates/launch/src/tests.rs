use std::collections::HashMap;
use std::path::Path;

use super::*;

fn env_of<'a>(pairs: &'a [(&'static str, String)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
}

#[test]
fn every_name_is_listed_once_with_the_prefix() {
    let mut seen = HashMap::new();
    for v in names::ALL {
        assert!(v.name.starts_with(names::PREFIX) && v.name.len() > names::PREFIX.len(), "{}", v.name);
        assert!(v.name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'), "{}", v.name);
        assert!(seen.insert(v.name, ()).is_none(), "{} listed twice", v.name);
    }
}

/// The Rust sources under `dirs` (relative to the workspace root), with their text.
fn sources(dirs: &[&str]) -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut stack: Vec<_> = dirs.iter().map(|d| root.join(d)).collect();
    let mut out = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p, text));
            }
        }
    }
    out
}

/// The `ROCPROF_RS_` names spelled in string literals of `line` (a literal that starts with the
/// prefix), unless the line is a comment or a build-time `env!` value.
fn spelled(line: &str) -> Vec<&str> {
    if line.trim_start().starts_with("//") || line.contains(&format!("env!(\"{}", names::PREFIX)) {
        return Vec::new();
    }
    let quoted = format!("\"{}", names::PREFIX);
    line.match_indices(&quoted)
        .map(|(at, _)| {
            let rest = &line[at + 1..];
            let end =
                rest.find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')).unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// The one list is the only Rust source of the workspace (every crate's sources, tests and examples,
/// the end-to-end tests and the benchmark, `cargo xtask`) that spells a `ROCPROF_RS_` name (build-time
/// `env!` values of the CLI's build script aside: they never reach a process's environment).
#[test]
fn no_launch_name_is_spelled_outside_the_list() {
    let all = sources(&["crates", "tests", "xtask"]);
    assert!(all.len() > 300, "the scan read only {} files", all.len());
    let mut found = Vec::new();
    for (p, text) in all {
        if p.ends_with("launch/src/names.rs") || p.ends_with("launch/src/tests.rs") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            // A test's expected message may quote a name (its oracle is the text users read).
            if !line.trim_start().starts_with("assert") && !spelled(line).is_empty() {
                found.push(format!("{}:{}: {}", p.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}* names spelled outside names.rs:\n{}", names::PREFIX, found.join("\n"));
}

/// Where a `ROCPROF_RS_` name is still spelled (a test's expected message), it is one of the list, so a
/// misspelt or unlisted variable fails here.
#[test]
fn every_spelled_launch_name_is_a_listed_name() {
    let listed: std::collections::HashSet<&str> = names::ALL.iter().map(|v| v.name).collect();
    let mut unknown = Vec::new();
    let mut seen = 0;
    for (p, text) in sources(&["crates", "tests", "xtask"]) {
        if p.ends_with("launch/src/names.rs") || p.ends_with("launch/src/tests.rs") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            for name in spelled(line) {
                seen += 1;
                if !listed.contains(name) {
                    unknown.push(format!("{}:{}: {name}", p.display(), i + 1));
                }
            }
        }
    }
    // device's knobs test quotes the messages users read.
    assert!(seen > 0, "the scan found no name");
    assert!(unknown.is_empty(), "names missing from launch/src/names.rs:\n{}", unknown.join("\n"));
}

#[test]
fn trace_words_round_trip_and_unknown_words_are_ignored() {
    let mut t = Trace::default();
    t.set(TraceWord::Kernel, true);
    t.set(TraceWord::HsaAmd, true);
    t.set(TraceWord::GroupByQueue, true);
    assert_eq!(t.encode(), "kernel,hsa_amd,group_by_queue");
    assert_eq!(Trace::decode("group_by_queue, kernel,hsa_amd,future_domain").unwrap(), t);
    assert_eq!(Trace::decode("").unwrap(), Trace::default());
    assert!(Trace::UNSET.has(TraceWord::Kernel) && !Trace::UNSET.has(TraceWord::Marker));
    let words: Vec<&str> = TraceWord::ALL.iter().map(|w| w.as_str()).collect();
    assert_eq!(words.len(), 17);
    assert_eq!(words.iter().collect::<std::collections::HashSet<_>>().len(), 17);
}

#[test]
fn single_variable_settings_round_trip() {
    for l in [LogLevel::Error, LogLevel::Warning, LogLevel::Info, LogLevel::Trace] {
        assert_eq!(LogLevel::decode(&l.encode()), Ok(l));
    }
    assert_eq!(LogLevel::decode("FATAL"), Ok(LogLevel::Error));
    assert!(LogLevel::decode("loud").is_err());
    for p in BufferPolicy::ALL {
        assert_eq!(BufferPolicy::decode(&p.encode()), Ok(p));
    }
    assert_eq!(BufferPolicy::decode("spill").unwrap_err(), "unknown buffer policy `spill` (expected lossless or drop)");
    assert_eq!(GateCompletions::decode(" 1"), Ok(GateCompletions(true)));
    assert_eq!(GateCompletions::decode("yes"), Ok(GateCompletions(false)));
    for k in [KernelNames::Mangled, KernelNames::Demangled, KernelNames::Truncated] {
        assert_eq!(KernelNames::decode(&k.encode()), Ok(k));
    }
    let p = CollectionPeriods(vec![(0, 5, 1), (100, 2, 3)]);
    assert_eq!(p.encode(), "0:5:1,100:2:3");
    assert_eq!(CollectionPeriods::decode(&p.encode()), Ok(p));
    assert!(CollectionPeriods::decode("1:2").is_err());
    let s = PcSampling { method: PcsMethod::Stochastic, unit: PcsUnit::Cycles, interval: 65536 };
    assert_eq!(s.encode(), "stochastic,cycles,65536");
    assert_eq!(PcSampling::decode(&s.encode()), Ok(s));
    for bad in ["host_trap,time,0", "host_trap,time", "trap,time,1", "host_trap,time,1,2"] {
        assert!(PcSampling::decode(bad).is_err(), "{bad}");
    }
    assert_eq!(LogLevel::from_env(env_of(&[LogLevel::Info.to_env()])), Some(Ok(LogLevel::Info)));
    assert_eq!(LogLevel::from_env(|_| None), None);
}

#[test]
fn att_settings_round_trip_and_bad_values_take_defaults() {
    let a = AttSettings {
        target_cu: 3,
        se_mask: 0x11,
        simd_select: 0x3,
        buffer_size: 0x200_0000,
        gpu_index: Some(vec![0, 2]),
        serialize_all: true,
        perf_ctrl: Some(4),
        perf_events: vec![("gfx942".into(), vec![(4, 0xf), (26, 0x3)]), ("gfx90a".into(), vec![(4, 0xf)])],
    };
    let env = a.to_env();
    assert!(env.iter().any(|(n, v)| *n == names::ATT_PERF_EVENTS && v == "gfx942=4:f,26:3;gfx90a=4:f"));
    assert_eq!(AttSettings::from_env(env_of(&env)), Some(a));
    assert_eq!(AttSettings::from_env(|_| None), None);
    let odd = [(names::ATT, "1".to_string()), (names::ATT_TARGET_CU, "x".into()), (names::ATT_PERF_CTRL, "99".into())];
    let d = AttSettings::from_env(env_of(&odd)).unwrap();
    assert_eq!((d.target_cu, d.se_mask, d.simd_select, d.buffer_size), (1, 1, 0xF, 0x1000_0000));
    assert_eq!((d.gpu_index, d.serialize_all, d.perf_ctrl), (None, false, None));
}

#[test]
fn counter_plans_round_trip_and_malformed_entries_are_returned() {
    let plan = CounterPlan {
        groups: vec![
            CounterGroup {
                gpu: 0,
                group: 0,
                counters: vec!["SQ_WAVES".into(), "GRBM_COUNT".into()],
                events: vec![PmcEvent { block_enum: 14, block_index: 0, event_id: 4, flags: 0 }],
                sources: vec![EventSource { counter: "SQ_WAVES".into(), block: "SQ".into() }],
            },
            CounterGroup {
                gpu: 1,
                group: 1,
                counters: vec!["TCC_HIT_sum".into()],
                events: vec![
                    PmcEvent { block_enum: 3, block_index: 0, event_id: 2, flags: 0 },
                    PmcEvent { block_enum: 3, block_index: 1, event_id: 2, flags: 1 },
                ],
                sources: vec![
                    EventSource { counter: "TCC_HIT".into(), block: "TCC".into() },
                    EventSource { counter: "TCC_HIT".into(), block: "TCC".into() },
                ],
            },
        ],
        interval: 3,
    };
    let env = plan.to_env();
    assert_eq!(
        env[0].1,
        "0|0|SQ_WAVES GRBM_COUNT|14.0.4.0|SQ_WAVES@SQ;1|1|TCC_HIT_sum|3.0.2.0,3.1.2.1|TCC_HIT@TCC,TCC_HIT@TCC"
    );
    assert_eq!(CounterPlan::from_env(env_of(&env)), Some((plan, vec![])));
    // A bad gpu, an event short of a field, a missing source, a source without its block.
    let bad = [(
        names::PMC,
        "0|0|A|1.2.3.4|A@B;x|0|B|1.2.3.4|B@B; 0|1|C|1.2.3|C@B;0|2|D|1.2.3.4|;0|3|E|1.2.3.4|E".to_string(),
    )];
    let (p, malformed) = CounterPlan::from_env(env_of(&bad)).unwrap();
    assert_eq!(p.groups.len(), 1);
    assert_eq!(p.interval, 1);
    assert_eq!(malformed, ["x|0|B|1.2.3.4|B@B", "0|1|C|1.2.3|C@B", "0|2|D|1.2.3.4|", "0|3|E|1.2.3.4|E"]);
    assert_eq!(CounterPlan::from_env(env_of(&[(names::PMC, " ".into())])), None);
    assert_eq!(PmcEvent::parse_list("3.0.2"), None);
    assert_eq!(PmcEvent::parse_list("3.0.2.0.1"), None);
}
