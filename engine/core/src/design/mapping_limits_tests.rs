//! Each target's limits at their edge (`docs/omnipath.md` and `shared/spec/20-table-design.md`,
//! "Other technologies"): a design exactly at a limit maps without that problem, one past
//! it gets the problem.

use super::*;
use crate::design::{MULTIMEDIA_VECTOR, design, parse_requirements};

/// `classes` classes of MTU 64 bytes (1 credit) with equal shares (a power of two, so the
/// decimal shares add up exactly; at most 1 in all), no distance.
fn equal_classes(technology: &str, entries: u32, classes: usize) -> Design {
    let list: Vec<String> = (0..classes)
        .map(|i| {
            format!(
                r#"{{"name": "C{i}", "distance": null, "mtu_bytes": 64, "share": {}}}"#,
                1.0 / classes.next_power_of_two() as f64
            )
        })
        .collect();
    design(
        &parse_requirements(&format!(
            r#"{{"technology": "{technology}", "entries": {entries}, "gmtu_bytes": 2048, "classes": [{}]}}"#,
            list.join(",")
        ))
        .unwrap(),
    )
    .unwrap()
}

#[test]
fn a_dtable_of_4096_entries_and_64_classes_maps_as_designed() {
    let m = &equal_classes("dtable", 4096, 2).mappings[0];
    assert_eq!(m.problems, Vec::<String>::new());
    let m = &equal_classes("dtable", 64, 64).mappings[0];
    assert_eq!(m.problems, Vec::<String>::new());
}

#[test]
fn an_as_table_names_32_vcs_and_equal_mtu_shares_are_not_below_wanted() {
    // 32 classes of one entry and one MTU each: every class gets 1/32 of the bytes with
    // MTU packets, exactly its wanted share.
    let m = &equal_classes("as", 32, 32).mappings[3];
    assert_eq!(m.problems, Vec::<String>::new());
    let m = &equal_classes("dtable", 64, 33).mappings[3];
    assert!(
        m.problems
            .iter()
            .any(|p| p == "33 classes: an AS basic table names at most 32 VCs."),
        "{:?}",
        m.problems
    );
}

#[test]
fn the_published_infiniband_layout_holds_16_deficit_counters() {
    let d = equal_classes("dtable", 64, 16);
    let layout = &d.mappings[1].details[3];
    assert!(
        layout.contains("it fits: 64 of 64 high entries, 16 of 16 counters"),
        "{layout}"
    );
    let d = equal_classes("dtable", 64, 17);
    let layout = &d.mappings[1].details[3];
    assert!(
        layout.contains("does not fit (17 classes need more than 16 deficit counters)"),
        "{layout}"
    );
}

#[test]
fn the_published_layout_s_8_bit_fields_at_their_edge() {
    let base = design(&parse_requirements(MULTIMEDIA_VECTOR).unwrap()).unwrap();
    // VI (class 2, MTU 32 credits) owns entry 3 (weight 64): deficit up to 31, register
    // up to 31 + 64 = 95.
    assert_eq!(base.table[3].class, "VI");
    let layout = |weight: u64| {
        let mut d = base.clone();
        d.table[3].weight = Some(weight);
        mappings(&d, 8)[1].details[3].clone()
    };
    assert!(
        layout(64).contains("it fits: 64 of 64 high entries, 7 of 16 counters, deficits up to 31 and the register up to 95"),
        "{}",
        layout(64)
    );
    // The register reaches 31 + 224 = 255: it still fits; 256 does not.
    assert!(layout(224).contains("it fits:"), "{}", layout(224));
    assert!(
        layout(225).contains("does not fit (the accumulated weight reaches 256,"),
        "{}",
        layout(225)
    );
    // A weight of 255 fits its 8-bit field (the register does not); 256 does not.
    assert!(
        !layout(255).contains("do not fit 8 bits"),
        "{}",
        layout(255)
    );
    assert!(
        layout(256).contains("weights up to 256 do not fit 8 bits"),
        "{}",
        layout(256)
    );
}

#[test]
fn the_vlarb_table_limits_at_their_edge() {
    let has = |d: &Design, start: &str| {
        mappings(d, 8)[1]
            .problems
            .iter()
            .any(|p| p.starts_with(start))
    };
    // 15 classes: every data VL of InfiniBand; 16 are too many.
    assert!(!has(&equal_classes("dtable", 64, 15), "15 classes"));
    assert!(has(&equal_classes("dtable", 64, 16), "16 classes"));
    let base = design(&parse_requirements(MULTIMEDIA_VECTOR).unwrap()).unwrap();
    let with = |weight: u64, vi_mtu_credits: u64| {
        let mut d = base.clone();
        d.table[3].weight = Some(weight);
        d.classes[2].mtu_credits = vi_mtu_credits;
        d
    };
    // A weight of 255 fits the VLArb weight field, 256 does not.
    assert_eq!(
        mappings(&with(255, 32), 8)[1].problems,
        Vec::<String>::new()
    );
    assert!(has(&with(256, 32), "Entry weights up to 256"));
    // A 4096-byte MTU (64 credits) is InfiniBand's largest; 65 credits is past it.
    assert_eq!(mappings(&with(64, 64), 8)[1].problems, Vec::<String>::new());
    assert!(has(&with(64, 65), "A class MTU of 4160 bytes"));
}
