//! Agreement with `rocprof-packets`: both crates read aqlprofile's block tables independently
//! (we through the generated database), so a drift would make the planner accept sets the
//! packet builder rejects, or label samples with the wrong coordinates.

use rocprof_counters::{block_dimensions, block_instances, Database};
use rocprof_packets::BlockGeometry;

#[test]
fn blocks_slots_instances_and_dimensions_match_the_packet_builder() {
    let db = Database::builtin();
    let mut compared = 0;
    for t in db.targets() {
        let pt = rocprof_packets::Target::from_name(&t.name).unwrap();
        let pa = rocprof_packets::Agent::reference(pt);
        let a = &t.reference_agent;
        assert_eq!(
            (pa.cu_num, pa.se_num, pa.shader_arrays_per_se, pa.xcc_num),
            (a.cu_num, a.se_num, a.shader_arrays_per_se, a.xcc_num),
            "{}",
            t.name
        );
        let theirs = rocprof_packets::blocks(pt);
        assert_eq!(theirs.len(), t.blocks.len(), "{}", t.name);
        for b in &t.blocks {
            let p =
                rocprof_packets::block_by_name(pt, &b.name).unwrap_or_else(|e| panic!("{} {}: {e}", t.name, b.name));
            assert_eq!(
                (p.block_enum, p.instances, p.counters, p.attr, p.event_id_max),
                (b.enum_id, b.instances, b.counters, b.attr, b.event_max),
                "{} {}",
                t.name,
                b.name
            );
            assert_eq!(p.reported_instances(&pa), block_instances(t.family, b, a), "{} {}", t.name, b.name);
            let ours: Vec<(String, u32)> = block_dimensions(t.family, b, a)
                .iter()
                .map(|d| {
                    let short = match d.dim {
                        rocprof_counters::Dimension::Xcc => "XCD",
                        rocprof_counters::Dimension::Aid => "AID",
                        rocprof_counters::Dimension::Wgp => "WGP",
                        rocprof_counters::Dimension::Instance => "INSTANCE",
                        rocprof_counters::Dimension::ShaderEngine => "SE",
                        rocprof_counters::Dimension::ShaderArray => "SA",
                    };
                    (short.to_string(), d.extent as u32)
                })
                .collect();
            let theirs: Vec<(String, u32)> = p.dimensions(&pa).dims.iter().map(|(n, e)| (n.to_string(), *e)).collect();
            assert_eq!(ours, theirs, "{} {}", t.name, b.name);
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared}");
}
