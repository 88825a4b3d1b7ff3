//! The `--list-avail` API: every counter with dimensions and a description.

use rocprof_counters::{counter_dimensions, format_dims, list_counters, Database, Dimension, InfoKind};

use crate::agent;

#[test]
fn lists_every_counter_of_each_target_with_a_description() {
    for (target, n) in [
        ("gfx908", 386),
        ("gfx90a", 473),
        ("gfx942", 419),
        ("gfx950", 628),
        ("gfx1030", 89),
        ("gfx1100", 80),
        ("gfx1201", 58),
    ] {
        let list = list_counters(&agent(target)).unwrap();
        assert_eq!(list.len(), n, "{target}");
        assert!(list.windows(2).all(|w| w[0].name < w[1].name), "{target}: sorted by name");
        for c in &list {
            assert!(!c.description.is_empty(), "{target} {}", c.name);
            assert!(!c.description.contains('\n'));
        }
    }
}

#[test]
fn entries_show_kind_dimensions_and_description() {
    let list = list_counters(&agent("gfx942")).unwrap();
    let find = |n: &str| list.iter().find(|c| c.name == n).unwrap();
    let waves = find("SQ_WAVES");
    assert_eq!(waves.kind, InfoKind::Hardware { block: "SQ".into(), event: 4 });
    assert_eq!(
        format_dims(&waves.dimensions),
        "DIMENSION_XCC[0:7] DIMENSION_INSTANCE[0:0] DIMENSION_SHADER_ENGINE[0:3]"
    );
    assert!(waves.description.starts_with("waves launched"));
    assert_eq!(
        waves.to_avail_text(),
        format!(
            "Counter_Name        :\tSQ_WAVES\nDescription         :\t{}\nBlock               :\tSQ\n\
             Dimensions          :\tDIMENSION_XCC[0:7] DIMENSION_INSTANCE[0:0] DIMENSION_SHADER_ENGINE[0:3]\n",
            waves.description
        )
    );
    let util = find("GPU_UTIL");
    assert!(
        matches!(&util.kind, InfoKind::Derived { expression } if expression == "100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)")
    );
    assert!(util.dimensions.is_empty());
    assert!(util.to_avail_text().ends_with("Expression          :\t100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)\nDimensions          :\tDIMENSION_INSTANCE[0:0]\n"));
    // Counters without a hand-written line get one built from their definition.
    assert_eq!(find("TCC_EA0_WRREQ_64B_sum").description, "TCC_EA0_WRREQ_64B, sum over all instances");
    assert_eq!(find("TCC_EA0_WRREQ").description, "TCC event 26: L2 cache channel");
}

#[test]
fn dimensions_follow_aqlprofile_per_family() {
    let db = Database::builtin();
    let dims = |t: &str, c: &str| counter_dimensions(db, &agent(t), c).unwrap();
    // gfx90a: 110 CUs over 8 SAs -> 14 CUs per SA; TA instances min(16, 14 + 1) = 15.
    let ta = dims("gfx90a", "TA_TA_BUSY");
    assert_eq!(
        ta.iter().map(|d| (d.dim, d.extent)).collect::<Vec<_>>(),
        [(Dimension::Instance, 15), (Dimension::ShaderEngine, 8)]
    );
    // gfx1100 SQ: WGP = ceil(96/2 / 12 SAs) = 4, 6 SE, 2 SA.
    let sq = dims("gfx1100", "SQ_WAVES");
    assert_eq!(
        sq.iter().map(|d| (d.dim, d.extent)).collect::<Vec<_>>(),
        [(Dimension::Wgp, 4), (Dimension::ShaderEngine, 6), (Dimension::ShaderArray, 2)]
    );
    // gfx1030 SQ: no WGP dimension on gfx10.
    let sq = dims("gfx1030", "SQ_WAVES");
    assert_eq!(
        sq.iter().map(|d| (d.dim, d.extent)).collect::<Vec<_>>(),
        [(Dimension::Instance, 1), (Dimension::ShaderEngine, 4)]
    );
    // Derived: a reduce without dimensions is one value; MfmaFlopsF64 keeps SQ's dimensions.
    assert!(dims("gfx942", "SQ_WAVES_sum").is_empty());
    assert_eq!(dims("gfx942", "MfmaFlopsF64").len(), 3);
    // Errors name the counter and target.
    let e = counter_dimensions(db, &agent("gfx1201"), "TCC_HIT").unwrap_err().to_string();
    assert!(e.starts_with("counter TCC_HIT is not available on gfx1201"), "{e}");
}
