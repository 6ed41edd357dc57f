//! The complete OpenSM export of a design (`qos TRUE`, prefix, high and low tables, high
//! limit, SL2VL) and its import back into a table and fabric settings (`docs/opensm.md`).

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use proptest::prelude::*;
use qoslab_core::design::fabric::DROP_VL;
use qoslab_core::design::opensm::{Prefix, export_file, from_design, import_design, lint};
use qoslab_core::design::{
    Design, FabricOptions, HighEntry, MULTIMEDIA_VECTOR, design, parse_requirements,
};
use qoslab_core::error::EngineError;

/// The multimedia vector on InfiniBand, with `fabric` (JSON) added when given.
fn vector_ib(fabric: Option<&str>) -> Design {
    let mut text = MULTIMEDIA_VECTOR.replace(r#""dtable""#, r#""infiniband""#);
    if let Some(f) = fabric {
        text = text.replacen('{', &format!("{{\"fabric\": {f},"), 1);
    }
    design(&parse_requirements(&text).unwrap()).unwrap()
}

fn paths(e: EngineError) -> Vec<String> {
    match e {
        EngineError::Invalid { errors } => errors.into_iter().map(|e| e.path).collect(),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

fn names(d: &Design) -> Vec<String> {
    d.classes.iter().map(|c| c.name.clone()).collect()
}

#[test]
fn defaults_send_unused_sls_to_the_most_tolerant_class_never_to_vl15() {
    let d = vector_ib(None);
    let f = d.fabric.clone().unwrap();
    assert_eq!(f.prefix, Some(Prefix::Plain));
    assert_eq!(f.high_limit, Some(0));
    assert!(f.high.is_empty());
    // BE (VL 5): distance 64 like BK, with the larger share.
    assert_eq!(
        f.sl2vl.as_deref(),
        Some(&[0, 1, 2, 3, 4, 5, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5][..])
    );
    let qos = from_design(&d).unwrap();
    assert!(qos.sl2vl.unwrap().iter().all(|&vl| vl != DROP_VL));
    assert_eq!(qos.max_vls, Some(8));
    assert_eq!(qos.vlarb_high, Some(vec![(0, 0)]));
    assert!(lint(&qos).is_empty());
}

#[test]
fn the_complete_file_has_qos_true_prefix_both_tables_limit_and_sl2vl() {
    let d = vector_ib(Some(
        r#"{"prefix": "qos_swe_", "high": [{"class": "NC", "weight": 4}, {"class": "VO", "weight": 2}],
            "high_limit": 6, "sl2vl": [0,1,2,3,4,5,6,6,6,6,6,6,6,6,6,15]}"#,
    ));
    let text = export_file(&d).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "# qoslab design: InfiniBand VL arbitration, 64 entries, 7 classes",
            "# VL 0 = NC, VL 1 = VO, VL 2 = VI, VL 3 = CL, VL 4 = EE, VL 5 = BE, VL 6 = BK",
            "# SLs without a class: SL 7 -> VL 6, SL 8 -> VL 6, SL 9 -> VL 6, SL 10 -> VL 6, SL 11 -> VL 6, SL 12 -> VL 6, SL 13 -> VL 6, SL 14 -> VL 6, SL 15 -> VL 15",
        ]
    );
    assert_eq!(lines[3], "qos TRUE");
    assert_eq!(lines[4], "qos_swe_max_vls 8");
    assert_eq!(lines[5], "qos_swe_high_limit 6");
    assert_eq!(lines[6], "qos_swe_vlarb_high 0:4,1:2");
    assert!(
        lines[7].starts_with("qos_swe_vlarb_low 0:3,1:3,0:3,2:64,"),
        "{}",
        lines[7]
    );
    assert_eq!(lines[8], "qos_swe_sl2vl 0,1,2,3,4,5,6,6,6,6,6,6,6,6,6,15");
    assert_eq!(lines.len(), 9);
    // Read back: the same table and the same settings.
    let (table, fabric) = import_design(&text, &names(&d)).unwrap();
    assert_eq!(table, d.table);
    assert_eq!(Some(fabric), d.fabric);
}

#[test]
fn bad_settings_are_refused_naming_the_field() {
    let text = MULTIMEDIA_VECTOR.replace(r#""dtable""#, r#""infiniband""#).replacen(
        '{',
        r#"{"fabric": {"high": [{"class": "XX", "weight": 300}], "high_limit": 256, "sl2vl": [0,1,2,3,4,5,7,7,7,7,7,7,7,7,7,7]},"#,
        1,
    );
    let e = design(&parse_requirements(&text).unwrap()).unwrap_err();
    let p = paths(e);
    assert_eq!(
        p,
        [
            "fabric.high[0].class",
            "fabric.high[0].weight",
            "fabric.high_limit",
            "fabric.sl2vl[6]",
            "fabric.sl2vl[7]",
            "fabric.sl2vl[8]",
            "fabric.sl2vl[9]",
            "fabric.sl2vl[10]",
            "fabric.sl2vl[11]",
            "fabric.sl2vl[12]",
            "fabric.sl2vl[13]",
            "fabric.sl2vl[14]",
            "fabric.sl2vl[15]",
        ]
    );
    // A design JSON edited after the design is checked again on export.
    let mut d = vector_ib(None);
    d.fabric.as_mut().unwrap().sl2vl.as_mut().unwrap()[9] = 12;
    assert_eq!(paths(from_design(&d).unwrap_err()), ["fabric.sl2vl[9]"]);
    // Fabric settings on a DTable design are refused.
    let dt = MULTIMEDIA_VECTOR.replacen('{', r#"{"fabric": {},"#, 1);
    let e = design(&parse_requirements(&dt).unwrap()).unwrap_err();
    assert_eq!(paths(e), ["fabric"]);
}

#[test]
fn infiniband_mtus_go_up_to_4096_bytes() {
    let r = |gmtu: u32, mtu: u32| {
        format!(
            r#"{{"technology": "infiniband", "entries": 64, "gmtu_bytes": {gmtu},
                "classes": [{{"name": "A", "distance": 2, "mtu_bytes": {mtu}, "share": 0.5}},
                            {{"name": "B", "distance": null, "mtu_bytes": {mtu}, "share": 0.4}}]}}"#
        )
    };
    let d = design(&parse_requirements(&r(4096, 4096)).unwrap()).unwrap();
    assert_eq!(d.gmtu_credits, 64);
    assert!(d.table.iter().all(|e| e.weight.unwrap() >= 64));
    let text = export_file(&d).unwrap();
    assert!(text.contains("qos_vlarb_low "), "{text}");
    let e = design(&parse_requirements(&r(8192, 4096)).unwrap()).unwrap_err();
    let EngineError::Invalid { errors } = e else {
        panic!()
    };
    assert_eq!(errors[0].path, "gmtu_bytes");
    assert!(
        errors[0].message.contains("at most 4096 for InfiniBand"),
        "{}",
        errors[0].message
    );
}

#[test]
fn import_names_entries_without_a_class() {
    let d = vector_ib(None);
    let text = export_file(&d).unwrap();
    let few: Vec<String> = names(&d)[..3].to_vec();
    let p = paths(import_design(&text, &few).unwrap_err());
    assert!(
        p.iter().all(|p| p.starts_with("qos_vlarb_low, entry ")),
        "{p:?}"
    );
    assert_eq!(
        paths(import_design("qos TRUE\nqos_max_vls 8\n", &few).unwrap_err()),
        ["file"]
    );
}

fn prefix() -> impl Strategy<Value = Prefix> {
    prop::sample::select(Prefix::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any valid settings for the vector: export, import, the same table and settings.
    #[test]
    fn any_settings_round_trip(
        p in prefix(),
        high in prop::collection::vec((0usize..7, 0u32..=255), 0..=64),
        limit in 0u32..=255,
        unused in prop::collection::vec(prop::sample::select(vec![0u8, 1, 2, 3, 4, 5, 6, 15]), 9),
    ) {
        let base = vector_ib(None);
        let classes = names(&base);
        let mut sl2vl: Vec<u8> = (0..7).collect();
        sl2vl.extend(unused);
        let fabric = FabricOptions {
            prefix: Some(p),
            high: high.iter().map(|&(c, w)| HighEntry { class: classes[c].clone(), weight: w }).collect(),
            high_limit: Some(limit),
            sl2vl: Some(sl2vl),
        };
        let d = vector_ib(Some(&serde_json::to_string(&fabric).unwrap()));
        let text = export_file(&d).unwrap();
        let (table, back) = import_design(&text, &classes).unwrap();
        prop_assert_eq!(table, d.table.clone());
        // A high table of one weight-0 entry of VL 0 is how an empty one is written.
        let mut expected = fabric.clone();
        if expected.high.len() == 1 && expected.high[0].weight == 0 && expected.high[0].class == classes[0] {
            expected.high.clear();
        }
        prop_assert_eq!(back, expected);
    }
}
