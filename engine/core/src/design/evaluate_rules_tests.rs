//! The table rules at their edges (`shared/spec/20-table-design.md`, "Evaluate a table"),
//! on small hand-written tables: a weight at the field's limit, a class exactly one unit
//! below its wanted share, weights within one of each other, the largest gap inside the
//! table, and the messages that say why a class is never served.

use super::*;
use crate::design::parse_requirements;

/// Two classes of MTU 2048 bytes (32 credits) wanting half each, `entries` entries.
fn two_classes(technology: &str, entries: u32, distance_a: Option<u32>) -> Requirements {
    let d = distance_a.map_or("null".to_string(), |d| d.to_string());
    parse_requirements(&format!(
        r#"{{"technology": "{technology}", "entries": {entries}, "gmtu_bytes": 2048,
            "classes": [{{"name": "A", "distance": {d}, "mtu_bytes": 2048, "share": 0.5}},
                        {{"name": "B", "distance": null, "mtu_bytes": 2048, "share": 0.5}}]}}"#
    ))
    .unwrap()
}

fn table(entries: &[(&str, Option<u64>)]) -> Vec<DesignEntry> {
    entries
        .iter()
        .map(|&(class, weight)| DesignEntry {
            class: class.into(),
            weight,
        })
        .collect()
}

/// The first violation of `rule` (the test fails without one).
fn violation<'a>(e: &'a Evaluation, rule: &str) -> &'a Violation {
    e.violations.iter().find(|v| v.rule == rule).unwrap()
}

fn rules(e: &Evaluation) -> Vec<(&str, Option<&str>)> {
    e.violations
        .iter()
        .map(|v| (v.rule.as_str(), v.class.as_deref()))
        .collect()
}

#[test]
fn one_unit_below_the_wanted_share_is_reported_and_less_is_not() {
    let r = two_classes("dtable", 4, None);
    // 160 credits of weight: B wants 80 and carries 79, exactly one unit below.
    let t = table(&[
        ("A", Some(41)),
        ("B", Some(40)),
        ("A", Some(40)),
        ("B", Some(39)),
    ]);
    let e = evaluate(&r, &t).unwrap();
    assert_eq!(rules(&e), [("share_below_wanted", Some("B"))]);
    assert!(!e.is_ok());
    // 162 credits, 81 each: nothing below, and weights one apart are no advice.
    let t = table(&[
        ("A", Some(41)),
        ("B", Some(41)),
        ("A", Some(40)),
        ("B", Some(40)),
    ]);
    let e = evaluate(&r, &t).unwrap();
    assert_eq!(rules(&e), []);
    assert!(e.is_ok());
    assert_eq!(e.classes[0].share, 0.5);
    assert_eq!(e.classes[0].total_weight, Some(81));
}

#[test]
fn weights_two_apart_are_advice_only() {
    let r = two_classes("dtable", 4, None);
    let t = table(&[
        ("A", Some(41)),
        ("B", Some(40)),
        ("A", Some(39)),
        ("B", Some(40)),
    ]);
    let e = evaluate(&r, &t).unwrap();
    assert_eq!(rules(&e), [("weights_unequal", Some("A"))]);
    assert!(e.is_ok(), "advice breaks no rule");
}

#[test]
fn a_weight_at_the_field_limit_fits_and_one_more_does_not() {
    let r = two_classes("infiniband", 4, None);
    let full = table(&[
        ("A", Some(255)),
        ("B", Some(255)),
        ("A", Some(255)),
        ("B", Some(255)),
    ]);
    assert_eq!(rules(&evaluate(&r, &full).unwrap()), []);
    let mut over = full;
    over[1].weight = Some(256);
    let e = evaluate(&r, &over).unwrap();
    assert!(rules(&e).contains(&("weight_field", Some("B"))), "{e:?}");
}

#[test]
fn why_an_entry_below_the_mtu_is_wrong_depends_on_the_arbiter() {
    let t = table(&[
        ("A", Some(0)),
        ("B", Some(40)),
        ("A", Some(40)),
        ("B", Some(1)),
    ]);
    let message = |tech: &str, entry: u32| {
        let e = evaluate(&two_classes(tech, 4, None), &t).unwrap();
        e.violations
            .iter()
            .find(|v| v.rule == "weight_below_mtu" && v.entry == Some(entry))
            .map(|v| v.message.clone())
            .unwrap()
    };
    // InfiniBand skips a weight-0 entry; a DTable entry of weight 0, or any entry below
    // the MTU, lets one packet overdraw it.
    assert!(message("infiniband", 0).ends_with("InfiniBand skips an entry of weight 0."));
    assert!(message("infiniband", 3).ends_with("one packet can overdraw the entry."));
    assert!(message("dtable", 0).ends_with("one packet can overdraw the entry."));
}

#[test]
fn a_class_never_served_is_told_why() {
    let r = two_classes("infiniband", 4, None);
    let t = table(&[
        ("A", Some(0)),
        ("B", Some(40)),
        ("A", Some(0)),
        ("B", Some(40)),
    ]);
    let e = evaluate(&r, &t).unwrap();
    let a = violation(&e, "no_entries");
    assert_eq!(
        a.message,
        "A has only entries of weight 0, which InfiniBand skips, so it is never served."
    );
    let t = table(&[
        ("B", Some(40)),
        ("B", Some(40)),
        ("B", Some(40)),
        ("B", Some(40)),
    ]);
    let e = evaluate(&r, &t).unwrap();
    let a = violation(&e, "no_entries");
    assert_eq!(
        a.message,
        "A has no entry in the table, so it is never served."
    );
}

#[test]
fn the_largest_gap_is_found_inside_the_table_and_ties_keep_the_first() {
    let r = two_classes("dtable", 12, Some(3));
    let gap_of = |positions: &[usize]| {
        let t: Vec<DesignEntry> = (0..12)
            .map(|p| DesignEntry {
                class: if positions.contains(&p) { "A" } else { "B" }.into(),
                weight: Some(40),
            })
            .collect();
        let e = evaluate(&r, &t).unwrap();
        let v = violation(&e, "distance");
        (v.entry, v.message.clone(), e.classes[0].max_distance)
    };
    // A at 0, 2 and 10: the gaps are 2, 8 (from 2 to 10) and 2 (10 round to 0).
    assert_eq!(
        gap_of(&[0, 2, 10]),
        (
            Some(2),
            "A: its consecutive entries 2 and 10 are 8 apart (7 entries in between are not its own), but its distance is 3.".to_string(),
            8
        )
    );
    // A at 0, 4 and 8: three gaps of 4; the one reported is the first, round the end.
    assert_eq!(gap_of(&[0, 4, 8]).0, Some(8));
}

#[test]
fn a_table_without_weights_shares_by_entries() {
    let r = two_classes("as", 32, None);
    let t: Vec<DesignEntry> = (0..32)
        .map(|p| DesignEntry {
            class: if p < 8 { "A" } else { "B" }.into(),
            weight: None,
        })
        .collect();
    let e = evaluate(&r, &t).unwrap();
    let a = &e.classes[0];
    assert_eq!((a.share, a.min_share, a.max_share), (0.25, 0.25, 0.25));
    assert_eq!(e.classes[1].share, 0.75);
    assert_eq!(rules(&e), [("share_below_wanted", Some("A"))]);
}
