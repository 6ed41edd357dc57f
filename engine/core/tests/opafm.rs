//! The Omni-Path fabric manager export (`opafm.xml` fragment and complete file), its import
//! with errors naming line, element and rule, the round trip, and the Linux ETS command
//! (`docs/omnipath.md`). The real `config_check` runs in `opafm_real.rs`.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod random_requirements;

use proptest::prelude::*;
use qoslab_core::design::opafm::{
    export_complete, export_fragment, groups, import, requirements_from,
};
use qoslab_core::design::{Design, MULTIMEDIA_VECTOR, Technology, design, ets, parse_requirements};
use qoslab_core::error::{EngineError, FieldError};

fn vector(technology: &str, fabric: Option<&str>) -> Design {
    let mut text = MULTIMEDIA_VECTOR.replace(r#""dtable""#, &format!("\"{technology}\""));
    if let Some(f) = fabric {
        text = text.replacen('{', &format!("{{\"fabric\": {f},"), 1);
    }
    design(&parse_requirements(&text).unwrap()).unwrap()
}

fn errors(e: EngineError) -> Vec<FieldError> {
    match e {
        EngineError::Invalid { errors } => errors,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn the_vector_becomes_seven_groups_with_whole_percentages() {
    let d = vector(
        "omnipath",
        Some(r#"{"high": [{"class": "NC", "weight": 4}]}"#),
    );
    let g = groups(&d).unwrap();
    let pct: Vec<Option<u32>> = g.iter().map(|g| g.bandwidth_percent).collect();
    assert_eq!(
        pct,
        [None, Some(5), Some(50), Some(20), Some(9), Some(5), Some(2)]
    );
    assert!(g[0].high_priority && g[1..].iter().all(|g| !g.high_priority));
    assert_eq!(
        g.iter().map(|g| g.base_sl.unwrap()).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5, 6]
    );
    let fragment = export_fragment(&d).unwrap();
    assert!(fragment.contains(
        "    <QOSGroup>\n      <Name>NC</Name>\n      <Enable>1</Enable>\n      <HighPriority>1</HighPriority>\n      <BaseSL>0</BaseSL>\n    </QOSGroup>\n"
    ));
    assert!(fragment.contains("      <Bandwidth>50%</Bandwidth>\n      <BaseSL>2</BaseSL>\n"));
    // The Admin partition uses the high-priority group; each class has its VirtualFabric.
    assert!(fragment.contains(
        "<PKey>0x7fff</PKey>\n      <Security>1</Security>\n      <QOSGroup>NC</QOSGroup>"
    ));
    assert!(fragment.contains("<Name>BK</Name>\n      <Enable>1</Enable>\n      <PKey>0x0007</PKey>\n      <QOSGroup>BK</QOSGroup>"));
    let full = export_complete(&d).unwrap();
    assert!(full.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"));
    assert!(full.contains(&fragment[fragment.find("  <QOSGroups>").unwrap()..]));
    assert!(!full.contains("QOS_FRAGMENT") && !full.contains("QOS_SUMMARY"));
    // Without a high table: every class shares, the percentages add up to 100.
    let plain = groups(&vector("dtable", None)).unwrap();
    let pct: Vec<u32> = plain.iter().map(|g| g.bandwidth_percent.unwrap()).collect();
    assert_eq!(pct, [9, 5, 50, 20, 9, 5, 2]);
}

#[test]
fn names_are_escaped_and_admin_is_refused() {
    let text = MULTIMEDIA_VECTOR.replace("\"NC\"", "\"N&C <1>\"");
    let d = design(&parse_requirements(&text).unwrap()).unwrap();
    let f = export_fragment(&d).unwrap();
    assert!(f.contains("<Name>N&amp;C &lt;1&gt;</Name>"), "{f}");
    assert_eq!(import(&f).unwrap()[0].name, "N&C <1>");
    let text = MULTIMEDIA_VECTOR.replace("\"VO\"", "\"Admin\"");
    let d = design(&parse_requirements(&text).unwrap()).unwrap();
    assert_eq!(errors(groups(&d).unwrap_err())[0].path, "classes[1].name");
}

#[test]
fn import_errors_name_the_line_element_and_rule() {
    let d = vector("omnipath", None);
    let good = export_complete(&d).unwrap();
    let line_of = |needle: &str| good[..good.find(needle).unwrap()].matches('\n').count() + 1;
    let bad = good.replace("<Bandwidth>50%</Bandwidth>", "<Bandwidth>120%</Bandwidth>");
    let e = errors(import(&bad).unwrap_err());
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        e[0].path,
        format!(
            "line {}, QOSGroup \"VI\" > Bandwidth",
            line_of("<Bandwidth>50%")
        )
    );
    assert_eq!(
        e[0].message,
        "must be a whole percentage 1-100%, e.g. 25% (got 120%)"
    );
    let cases = [
        (
            "<BaseSL>2</BaseSL>",
            "<BaseSL>16</BaseSL>",
            "QOSGroup \"VI\" > BaseSL",
            "must be 0-15 (got 16)",
        ),
        (
            "<BaseSL>2</BaseSL>",
            "<BaseSL>1</BaseSL>",
            "QOSGroup \"VI\" > BaseSL",
            "is the BaseSL of the QOSGroup",
        ),
        (
            "<Bandwidth>50%</Bandwidth>",
            "<Bandwidth>50.5%</Bandwidth>",
            "QOSGroup \"VI\" > Bandwidth",
            "whole percentage",
        ),
        (
            "<Name>CL</Name>\n      <Enable>1</Enable>\n      <HighPriority>0",
            "<Name>VI</Name>\n      <Enable>1</Enable>\n      <HighPriority>0",
            "QOSGroup \"VI\" > Name",
            "names an earlier QOSGroup",
        ),
        (
            "<HighPriority>0</HighPriority>",
            "<HighPriority>2</HighPriority>",
            "> HighPriority",
            "must be 0 or 1",
        ),
        (
            "<Bandwidth>20%</Bandwidth>",
            "<Bandwidth>30%</Bandwidth>",
            "QOSGroups",
            "adds up to 110%",
        ),
        (
            "<QOSGroup>BK</QOSGroup>",
            "<QOSGroup>XX</QOSGroup>",
            "VirtualFabric \"BK\" > QOSGroup",
            "\"XX\" is not an enabled QOSGroup",
        ),
        (
            "</QOSGroups>",
            "</QOSGroup>",
            "line ",
            "not well-formed XML",
        ),
    ];
    for (from, to, path, rule) in cases {
        let e = errors(import(&good.replacen(from, to, 1)).unwrap_err());
        assert!(
            e.iter()
                .any(|e| e.path.contains(path) && e.message.contains(rule)),
            "{to}: {e:?}"
        );
    }
    let none = good.replace(
        "<Enable>1</Enable>\n      <HighPriority>",
        "<Enable>0</Enable>\n      <HighPriority>",
    );
    assert_eq!(errors(import(&none).unwrap_err())[0].path, "QOSGroups");
}

#[test]
fn ets_command_lists_strict_bands_quanta_and_priomap() {
    let d = vector("dtable", None);
    assert_eq!(
        ets::command(&d).unwrap(),
        "# qoslab design: Linux ETS (sch_ets) for 7 classes; set DEV to the egress interface first (DEV=eth0)\n\
         # band 0 = NC: DRR quantum 6144 bytes\n\
         # band 1 = VO: DRR quantum 3072 bytes\n\
         # band 2 = VI: DRR quantum 32768 bytes\n\
         # band 3 = CL: DRR quantum 13312 bytes\n\
         # band 4 = EE: DRR quantum 6144 bytes\n\
         # band 5 = BE: DRR quantum 3072 bytes\n\
         # band 6 = BK: DRR quantum 1024 bytes\n\
         # priority p -> band of class p; priorities 7-15 -> band 5 (BE)\n\
         tc qdisc replace dev \"$DEV\" root handle 1: ets bands 7 quanta 6144 3072 32768 13312 6144 3072 1024 priomap 0 1 2 3 4 5 6 5 5 5 5 5 5 5 5 5\n"
    );
    // The high table's classes become strict bands, first; the priomap follows the bands.
    let d = vector(
        "infiniband",
        Some(r#"{"high": [{"class": "VI", "weight": 8}]}"#),
    );
    let cmd = ets::command(&d).unwrap();
    assert!(
        cmd.contains("# band 0 = VI: strict priority\n# band 1 = NC: DRR quantum 6144 bytes\n"),
        "{cmd}"
    );
    assert!(cmd.ends_with(
        "ets bands 7 strict 1 quanta 6144 3072 13312 6144 3072 1024 priomap 1 2 0 3 4 5 6 5 5 5 5 5 5 5 5 5\n"
    ), "{cmd}");
    // More than 16 classes: refused.
    let many: Vec<String> = (0..17)
        .map(|i| format!(r#"{{"name": "C{i}", "distance": null, "mtu_bytes": 64, "share": 0.05}}"#))
        .collect();
    let d = design(
        &parse_requirements(&format!(
            r#"{{"technology": "dtable", "entries": 64, "gmtu_bytes": 2048, "classes": [{}]}}"#,
            many.join(",")
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(errors(ets::command(&d).unwrap_err())[0].path, "classes");
    assert_eq!(errors(groups(&d).unwrap_err())[0].path, "classes");
}

fn random_design() -> impl Strategy<Value = Design> {
    (
        prop::collection::vec(
            (prop::option::of(1u32..=6), 64u32..=2048, 1u32..=20),
            1..=12,
        ),
        prop::collection::vec(any::<bool>(), 12),
    )
        .prop_filter_map("feasible", |(raw, high)| {
            let mut r = random_requirements::requirements(Technology::Omnipath, 6, &raw);
            let names: Vec<String> = r.classes.iter().map(|c| c.name.clone()).collect();
            let high: Vec<_> = names
                .iter()
                .zip(&high)
                .filter(|(_, h)| **h)
                .map(|(n, _)| qoslab_core::design::HighEntry {
                    class: n.clone(),
                    weight: 4,
                })
                .take(names.len().saturating_sub(1))
                .collect();
            r.fabric = Some(qoslab_core::design::FabricOptions {
                high,
                ..Default::default()
            });
            design(&r).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Export, import: the same groups (shares and priorities); the requirements built from
    /// them carry the same shares and the same high-priority classes, and export the same.
    #[test]
    fn export_import_round_trip(d in random_design()) {
        let g = groups(&d).unwrap();
        let back = import(&export_complete(&d).unwrap()).unwrap();
        prop_assert_eq!(&back, &g);
        prop_assert_eq!(import(&export_fragment(&d).unwrap()).unwrap(), g.clone());
        let r0 = qoslab_core::design::Requirements {
            technology: Technology::Omnipath, entries: 64, gmtu_bytes: 2048, w: None, k: None,
            classes: vec![], link_rate_gbps: None, fabric: None, switch_ports: None,
        };
        let r = requirements_from(&back, &r0).unwrap();
        for (c, g) in r.classes.iter().zip(&g) {
            prop_assert_eq!(&c.name, &g.name);
            if let Some(p) = g.bandwidth_percent {
                prop_assert!((c.share - f64::from(p) / 100.0).abs() < 1e-12);
            }
        }
        let high: Vec<&str> = r.fabric.iter().flat_map(|f| f.high.iter().map(|h| h.class.as_str())).collect();
        let want: Vec<&str> = g.iter().filter(|g| g.high_priority).map(|g| g.name.as_str()).collect();
        prop_assert_eq!(high, want);
    }
}
