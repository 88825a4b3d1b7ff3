//! An agent as rocprofiler-sdk serialises its `rocprofiler_agent_t`: the object of the JSON output's
//! `agents` array and of rocpd's `rocpd_info_agent.extdata`. Written once here for both; the two
//! differ only where rocprofv3 writes them differently (see [`AgentForm`]).

use rocprof_model::{Agent, AgentType, StringTable};
use serde_json::{json, Value};

/// Which output's form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AgentForm {
    /// The JSON output: `id.handle` is the agent id, and the firmware and capability words are
    /// split into their KFD bit fields.
    Json,
    /// rocpd's `extdata`: `id.handle` is the runtime's agent handle, and the firmware and capability
    /// words are one field each (`uCodeSDMA`, `uCode`, `Value`).
    Rocpd,
}

/// `HSA_ENGINE_ID` (the agent's `fw_version`): bit-field names and widths, low bits first.
const FW_VERSION_BITS: [(&str, u32); 4] = [("uCode", 10), ("Major", 6), ("Minor", 8), ("Stepping", 8)];
/// `HSA_ENGINE_VERSION` (`sdma_fw_version`).
const SDMA_FW_VERSION_BITS: [(&str, u32); 2] = [("uCodeSDMA", 10), ("uCodeRes", 10)];
/// `HSA_CAPABILITY` (`capability`), as rocprofiler-sdk serialises it.
const CAPABILITY_BITS: [(&str, u32); 24] = [
    ("HotPluggable", 1),
    ("HSAMMUPresent", 1),
    ("SharedWithGraphics", 1),
    ("QueueSizePowerOfTwo", 1),
    ("QueueSize32bit", 1),
    ("QueueIdleEvent", 1),
    ("VALimit", 1),
    ("WatchPointsSupported", 1),
    ("WatchPointsTotalBits", 4),
    ("DoorbellType", 2),
    ("AQLQueueDoubleMap", 1),
    ("DebugTrapSupported", 1),
    ("WaveLaunchTrapOverrideSupported", 1),
    ("WaveLaunchModeSupported", 1),
    ("PreciseMemoryOperationsSupported", 1),
    ("DEPRECATED_SRAM_EDCSupport", 1),
    ("Mem_EDCSupport", 1),
    ("RASEventNotify", 1),
    ("ASICRevision", 4),
    ("SRAM_EDCSupport", 1),
    ("SVMAPISupported", 1),
    ("CoherentHostAccess", 1),
    ("DebugSupportedFirmware", 1),
    ("Reserved", 2),
];

/// A KFD bit-field union as rocprofiler-sdk writes it: one key per field.
fn bitfields(value: u32, fields: &[(&str, u32)]) -> Value {
    let mut shift = 0;
    let mut m = serde_json::Map::new();
    for &(name, width) in fields {
        m.insert(name.to_string(), Value::from((value >> shift) & ((1u32 << width) - 1)));
        shift += width;
    }
    Value::Object(m)
}

/// The agent's object in `form` (keys are written sorted: `serde_json`'s map is ordered by key).
pub(crate) fn agent_object(strings: &StringTable, a: &Agent, form: AgentForm) -> Value {
    let s = |id| strings.resolve(id);
    let mut m = serde_json::Map::new();
    for (name, value) in a.kfd_properties() {
        m.insert(name.to_string(), Value::from(value));
    }
    let (handle, sdma_fw, fw, capability) = match form {
        AgentForm::Json => (
            a.id.0.into(),
            bitfields(a.sdma_fw_version, &SDMA_FW_VERSION_BITS),
            bitfields(a.fw_version, &FW_VERSION_BITS),
            bitfields(a.capability, &CAPABILITY_BITS),
        ),
        AgentForm::Rocpd => (
            a.handle,
            json!({ "uCodeSDMA": a.sdma_fw_version }),
            json!({ "uCode": a.fw_version }),
            json!({ "Value": a.capability }),
        ),
    };
    let rest = json!({
        "size": 0,
        "id": { "handle": handle },
        "type": match a.agent_type { AgentType::Cpu => 1, AgentType::Gpu => 2, AgentType::Unknown => 0 },
        "mem_banks_count": 0,
        "caches_count": 0,
        "io_links_count": 0,
        "sdma_fw_version": sdma_fw,
        "fw_version": fw,
        "capability": capability,
        "workgroup_max_dim": { "x": a.workgroup_max_dim.x, "y": a.workgroup_max_dim.y, "z": a.workgroup_max_dim.z },
        "grid_max_dim": { "x": a.grid_max_dim.x, "y": a.grid_max_dim.y, "z": a.grid_max_dim.z },
        "name": s(a.name),
        "vendor_name": s(a.vendor_name),
        "product_name": s(a.product_name),
        "model_name": s(a.model_name),
    });
    if let Value::Object(rest) = rest {
        m.extend(rest);
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_forms_differ_only_in_the_id_and_the_firmware_words() {
        let mut strings = StringTable::new();
        let a = Agent {
            id: rocprof_model::AgentId(2),
            handle: 0x1234,
            agent_type: AgentType::Gpu,
            name: strings.intern("gfx942"),
            cu_count: 304,
            local_mem_size: 1 << 36,
            // HSA_ENGINE_ID: uCode 5, Major 9, Minor 4, Stepping 2 (low bits first).
            fw_version: 5 | (9 << 10) | (4 << 16) | (2 << 24),
            sdma_fw_version: 7 | (3 << 10),
            capability: 1 | (0xA << 8),
            ..Default::default()
        };
        let j = agent_object(&strings, &a, AgentForm::Json);
        let r = agent_object(&strings, &a, AgentForm::Rocpd);
        assert_eq!(j["id"]["handle"], 2);
        assert_eq!(r["id"]["handle"], 0x1234);
        assert_eq!(j["fw_version"], json!({ "uCode": 5, "Major": 9, "Minor": 4, "Stepping": 2 }));
        assert_eq!(r["fw_version"], json!({ "uCode": a.fw_version }));
        assert_eq!(j["sdma_fw_version"], json!({ "uCodeSDMA": 7, "uCodeRes": 3 }));
        assert_eq!(j["capability"]["HotPluggable"], 1);
        assert_eq!(j["capability"]["WatchPointsTotalBits"], 0xA);
        assert_eq!(r["capability"], json!({ "Value": a.capability }));
        assert_eq!(
            (j["cu_count"].clone(), j["local_mem_size"].clone(), j["name"].clone()),
            (304.into(), (1u64 << 36).into(), "gfx942".into())
        );
        let (Value::Object(jm), Value::Object(rm)) = (&j, &r) else { panic!("objects") };
        assert_eq!(jm.keys().collect::<Vec<_>>(), rm.keys().collect::<Vec<_>>());
        let differ: Vec<&String> = jm.keys().filter(|k| jm[*k] != rm[*k]).collect();
        assert_eq!(differ, ["capability", "fw_version", "id", "sdma_fw_version"]);
    }
}
