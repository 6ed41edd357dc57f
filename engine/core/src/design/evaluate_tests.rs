use super::*;
use crate::design::{design, parse_requirements};

const VECTOR: &str = crate::design::MULTIMEDIA_VECTOR;

fn rules(e: &Evaluation) -> Vec<(&str, Option<&str>, Option<u32>)> {
    e.violations
        .iter()
        .map(|v| (v.rule.as_str(), v.class.as_deref(), v.entry))
        .collect()
}

#[test]
fn the_designed_vector_breaks_nothing() {
    let r = parse_requirements(VECTOR).unwrap();
    let d = design(&r).unwrap();
    let e = evaluate(&r, &d.table).unwrap();
    assert!(e.violations.is_empty(), "{:?}", e.violations);
    assert_eq!(e.pool, Some(1024));
    assert_eq!(e.max_entry_weight, Some(64));
    assert_eq!(e.link_rate_gbps, 2.0);
    for (c, dc) in e.classes.iter().zip(&d.classes) {
        assert_eq!(c.share, dc.share);
        assert_eq!(c.min_share, dc.min_share);
        assert_eq!(c.max_share, dc.max_share);
        assert_eq!(c.max_distance, dc.max_distance);
        assert_eq!(c.bound_ns, Some(dc.bound_ns));
    }
    // BK (one entry, MTU 16): 16 + the other 1008 credits of weight + the other
    // classes' MTU - 1 (2 + 2 + 31 + 31 + 15 + 15 = 96) = 1120 credits = 286720 ns
    // at 2 Gb/s, plus 1 ps per credit.
    assert_eq!(e.classes[6].bound_ns, Some(286_721.12));
}

/// Every rule, each in a hand-edited table.
#[test]
fn every_rule_is_reported() {
    let r = parse_requirements(VECTOR).unwrap();
    let mut t = design(&r).unwrap().table;
    t[3].weight = Some(70); // VI above M = 64 (and unequal)
    t[11].weight = Some(20); // VI below its MTU of 32
    t[1].class = "XX".into(); // unknown class, and VO's distance breaks (entry 1 gone)
    t[63].class = "BE".into(); // BK loses its only entry; BE's share rises
    t[7].weight = Some(70_000); // CL: beyond the 16-bit field
    let e = evaluate(&r, &t).unwrap();
    let got = rules(&e);
    let want = vec![
        ("unknown_class", Some("XX"), Some(1)),
        ("weight_above_max", Some("VI"), Some(3)),
        ("weight_field", Some("CL"), Some(7)),
        ("weight_below_mtu", Some("VI"), Some(11)),
        ("distance", Some("VO"), Some(61)),
        ("weights_unequal", Some("VI"), None),
        ("weights_unequal", Some("CL"), None),
        ("no_entries", Some("BK"), None),
    ];
    // Shares: the total weight changed; classes whose share fell by a unit or more.
    for w in &want {
        assert!(got.contains(w), "missing {w:?} in {got:?}");
    }
    assert!(got.contains(&("share_below_wanted", Some("NC"), None)));
    let vo = e.violations.iter().find(|v| v.rule == "distance").unwrap();
    assert_eq!(
        vo.message,
        "VO: its consecutive entries 61 and 5 are 8 apart (7 entries in between are not its own), but its distance is 4."
    );
    assert!(!e.is_ok());
    assert_eq!(e.classes[6].bound_ns, None);
    assert_eq!(e.classes[6].entries, 0);

    let short = evaluate(&r, &t[..63]).unwrap();
    assert_eq!(short.violations[0].rule, "entries_count");
    assert_eq!(
        short.violations[0].message,
        "The table has 63 entries, but the requirements ask for 64."
    );
}

#[test]
fn technology_rules() {
    let r = parse_requirements(&VECTOR.replace("dtable", "infiniband")).unwrap();
    let mut t = design(&r).unwrap().table;
    t[63].weight = Some(0); // BK: only a weight-0 entry, which InfiniBand skips
    t[0].weight = None;
    t[2].weight = Some(300);
    let e = evaluate(&r, &t).unwrap();
    let got = rules(&e);
    assert!(got.contains(&("weight_field", Some("NC"), Some(0))));
    assert!(got.contains(&("weight_field", Some("NC"), Some(2))));
    assert!(got.contains(&("weight_below_mtu", Some("BK"), Some(63))));
    assert!(got.contains(&("no_entries", Some("BK"), None)));
    assert_eq!(e.classes[6].entries, 1);
    let too_long: Vec<DesignEntry> = t.iter().chain(t.iter()).cloned().collect();
    let e = evaluate(&r, &too_long).unwrap();
    assert_eq!(
        e.violations[0].message,
        "The table has 128 entries, but InfiniBand tables hold between 1 and 64."
    );

    let r = parse_requirements(
        &VECTOR
            .replace("dtable", "as")
            .replace("\"w\": 2, \"k\": 0.5", "\"w\": null, \"k\": null"),
    )
    .unwrap();
    let mut t = design(&r).unwrap().table;
    let e = evaluate(&r, &t).unwrap();
    assert_eq!(e.pool, None);
    // The AS table shares packets: VI's 8 of 64 entries are below its wanted 0.5.
    assert_eq!(
        rules(&e),
        vec![
            ("share_below_wanted", Some("VI"), None),
            ("share_below_wanted", Some("CL"), None),
            ("share_below_wanted", Some("EE"), None),
            ("share_below_wanted", Some("BE"), None)
        ]
    );
    t[4].weight = Some(3);
    assert!(rules(&evaluate(&r, &t).unwrap()).contains(&("weight_field", Some("NC"), Some(4))));
}

#[test]
fn link_rate_is_validated_and_used() {
    let mut r = parse_requirements(VECTOR).unwrap();
    let t = design(&r).unwrap().table;
    r.link_rate_gbps = Some(4.0);
    let fast = evaluate(&r, &t).unwrap();
    assert_eq!(fast.link_rate_gbps, 4.0);
    assert_eq!(fast.classes[6].bound_ns, Some(143_361.12));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        r.link_rate_gbps = Some(bad);
        let err = evaluate(&r, &t).unwrap_err().to_string();
        assert!(err.contains("link_rate_gbps"), "{err}");
    }
}
