//! The designer on a table without weights (Advanced Switching, `shared/spec/20-table-design.md`,
//! "Other technologies"): one packet per entry, so every share a class can get is its
//! fraction of the entries, and the deviation is that share minus its target.

use super::*;
use crate::design::{MULTIMEDIA_VECTOR, parse_requirements};

#[test]
fn an_as_design_shares_by_entries() {
    let text = MULTIMEDIA_VECTOR
        .replace("\"dtable\"", "\"as\"")
        .replace("\"w\": 2, \"k\": 0.5", "\"w\": null, \"k\": null");
    let d = design(&parse_requirements(&text).unwrap()).unwrap();
    assert_eq!(
        (d.w, d.k, d.pool, d.max_entry_weight),
        (None, None, None, None)
    );
    // Entries by distance: NC 32, VO 16, VI 8, CL 4, EE 2, BE 1, BK 1 of 64.
    let entries: Vec<u64> = d.classes.iter().map(|c| c.entries).collect();
    assert_eq!(entries, vec![32, 16, 8, 4, 2, 1, 1]);
    for c in &d.classes {
        let share = c.entries as f64 / 64.0;
        assert_eq!(
            (c.min_share, c.max_share, c.share),
            (share, share, share),
            "{}",
            c.name
        );
        assert_eq!(c.deviation, share - c.target_share, "{}", c.name);
        assert_eq!(
            (c.total_weight, c.entry_weights.len()),
            (None, 0),
            "{}",
            c.name
        );
    }
    // NC: 32/64 = 0.5 of the packets against a target of 0.09375.
    assert_eq!(d.classes[0].deviation, 0.5 - 0.09375);
    assert!(d.table.iter().all(|e| e.weight.is_none()));
}

/// Bandwidth nobody asked for goes to the class with the most entries (ties to the
/// earlier class) as its target; the wanted share stays as asked.
#[test]
fn the_leftover_share_goes_to_the_class_with_most_entries() {
    let r = parse_requirements(
        r#"{"technology": "dtable", "entries": 8, "gmtu_bytes": 2048, "classes": [
            {"name": "A", "distance": 2, "mtu_bytes": 64, "share": 0.25},
            {"name": "B", "distance": null, "mtu_bytes": 64, "share": 0.25},
            {"name": "C", "distance": null, "mtu_bytes": 64, "share": 0.25}]}"#,
    )
    .unwrap();
    let d = design(&r).unwrap();
    let entries: Vec<u64> = d.classes.iter().map(|c| c.entries).collect();
    assert_eq!(entries, vec![4, 2, 2]);
    let targets: Vec<(f64, f64)> = d
        .classes
        .iter()
        .map(|c| (c.wanted_share, c.target_share))
        .collect();
    assert_eq!(targets, vec![(0.25, 0.5), (0.25, 0.25), (0.25, 0.25)]);
}

/// Entries left free when every class has a distance go to the class of the smallest
/// distance, whose gaps then shrink below its distance: that is no broken distance.
#[test]
fn extra_entries_make_gaps_smaller_than_the_distance() {
    let r = parse_requirements(
        r#"{"technology": "dtable", "entries": 8, "gmtu_bytes": 2048, "classes": [
            {"name": "A", "distance": 4, "mtu_bytes": 64, "share": 0.5},
            {"name": "B", "distance": 4, "mtu_bytes": 64, "share": 0.5}]}"#,
    )
    .unwrap();
    let d = design(&r).unwrap();
    let got: Vec<(u64, u64)> = d
        .classes
        .iter()
        .map(|c| (c.entries, c.max_distance))
        .collect();
    assert_eq!(got, vec![(6, 2), (2, 4)]);
}

/// Thirds cannot be met exactly in integer weights: each class's deviation is its share
/// of the pool minus its target, and they are not all zero.
#[test]
fn deviations_are_share_minus_target() {
    let r = parse_requirements(
        r#"{"technology": "dtable", "entries": 8, "gmtu_bytes": 2048, "classes": [
            {"name": "A", "distance": null, "mtu_bytes": 64, "share": 0.3333},
            {"name": "B", "distance": null, "mtu_bytes": 64, "share": 0.3333},
            {"name": "C", "distance": null, "mtu_bytes": 64, "share": 0.3334}]}"#,
    )
    .unwrap();
    let d = design(&r).unwrap();
    let pool = d.pool.unwrap() as f64;
    for c in &d.classes {
        let total = c.total_weight.unwrap();
        assert_eq!(c.share, total as f64 / pool, "{}", c.name);
        assert_eq!(c.deviation, c.share - c.target_share, "{}", c.name);
        assert_eq!(c.entry_weights.iter().sum::<u64>(), total, "{}", c.name);
    }
    assert!(
        d.classes.iter().any(|c| c.deviation != 0.0),
        "{:?}",
        d.classes
    );
}
