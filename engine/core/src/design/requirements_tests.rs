//! The rules of `validate_requirements` at their edges: each limit itself is accepted and
//! the first value past it is refused, with the field's path and the rule in the message
//! (`docs/robustness.md`, § Mutation testing, `requirements.rs`).

use super::*;

/// Two valid DTable classes (the spec's NC and VI, with shares adding up to 1), `w` = 2,
/// `k` = 0.5: every test changes one field of it.
fn base() -> Requirements {
    let class = |name: &str, distance, mtu_bytes, share| ClassRequirement {
        name: name.into(),
        distance,
        mtu_bytes,
        share,
    };
    Requirements {
        technology: Technology::Dtable,
        entries: 64,
        gmtu_bytes: 2048,
        w: Some(2.0),
        k: Some(0.5),
        classes: vec![
            class("NC", Some(2), 192, 0.5),
            class("VI", Some(8), 2048, 0.5),
        ],
        link_rate_gbps: None,
        fabric: None,
        switch_ports: None,
    }
}

/// `base()` with one class of share 1.
fn one_class() -> Requirements {
    let mut r = base();
    r.classes.truncate(1);
    r.classes[0].share = 1.0;
    r
}

fn accepted(r: &Requirements) {
    if let Err(e) = validate_requirements(r) {
        panic!("refused: {e:?}");
    }
}

/// Asserts that `r` is refused with exactly one problem, at `path`, whose message holds
/// `rule`.
fn refused_at(r: &Requirements, path: &str, rule: &str) {
    let errors = match validate_requirements(r) {
        Err(EngineError::Invalid { errors }) => errors,
        other => panic!("expected a problem at {path}, got {other:?}"),
    };
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, path, "{errors:?}");
    assert!(errors[0].message.contains(rule), "{errors:?}");
}

#[test]
fn the_base_requirements_are_valid() {
    accepted(&base());
    accepted(&one_class());
}

/// `w` and `k` are positive multiples of 0.1 up to 1000, held as integer tenths (spec
/// 20-table-design.md, "use integer tenths"); a float within 1e-6 of a tenth counts as it.
#[test]
fn tenths_are_multiples_of_a_tenth_from_one_tenth_to_a_thousand() {
    assert_eq!(tenths(0.1), Some(1));
    assert_eq!(tenths(1000.0), Some(MAX_TENTHS));
    assert_eq!(tenths(1000.1), None);
    assert_eq!(tenths(0.0), None);
    assert_eq!(tenths(0.04), None);
    assert_eq!(tenths(-0.1), None);
    assert_eq!(tenths(0.15), None);
    assert_eq!(tenths(f64::NAN), None);
    assert_eq!(tenths(f64::INFINITY), None);
    // 0.1 added 23 times is not 2.3 exactly, and still 23 tenths.
    let sum = (0..23).fold(0.0, |s, _| s + 0.1);
    assert_ne!(sum, 2.3);
    assert_eq!(tenths(sum), Some(23));
    // The tolerance: 10x is within 1e-6 of 23 (0.5e-6 off) or not (2e-6 off).
    assert_eq!(tenths(2.3 + 0.5e-7), Some(23));
    assert_eq!(tenths(2.3 - 0.5e-7), Some(23));
    assert_eq!(tenths(2.3 + 2e-7), None);
    assert_eq!(tenths(2.3 - 2e-7), None);
}

#[test]
fn w_and_k_go_from_a_tenth_to_a_thousand() {
    let mut r = base();
    r.w = Some(1000.0);
    r.k = Some(0.1);
    accepted(&r);
    r.w = Some(1000.1);
    refused_at(&r, "w", "must be a multiple of 0.1 between 0.1 and 1000");
    let mut r = base();
    r.k = Some(0.04);
    refused_at(&r, "k", "must be a multiple of 0.1 between 0.1 and 1000");
}

/// The spec's decoupling needs `k <= w` (`pool = N * GMTU * k`, "requires k <= w").
#[test]
fn k_may_equal_w_and_not_pass_it() {
    let mut r = base();
    r.k = Some(2.0);
    accepted(&r);
    r.k = Some(2.1);
    refused_at(&r, "k", "must be at most w (k = 2.1, w = 2)");
    // Compared in tenths: 0.1 added 21 times is above 2.1 as a float, not in tenths.
    let k = (0..21).fold(0.0, |s, _| s + 0.1);
    assert!(k > 2.1);
    r.k = Some(k);
    r.w = Some(2.1);
    accepted(&r);
}

#[test]
fn gmtu_limits_per_technology() {
    let mut r = one_class();
    r.gmtu_bytes = CREDIT_BYTES;
    r.classes[0].mtu_bytes = CREDIT_BYTES;
    accepted(&r);
    r.gmtu_bytes = CREDIT_BYTES - 1;
    r.classes[0].mtu_bytes = 1;
    refused_at(&r, "gmtu_bytes", "must be between 64 and 65536 (got 63)");
    r.gmtu_bytes = MAX_MTU_BYTES;
    accepted(&r);
    r.gmtu_bytes = MAX_MTU_BYTES + 1;
    refused_at(&r, "gmtu_bytes", "must be between 64 and 65536 (got 65537)");

    let mut r = one_class();
    r.technology = Technology::Infiniband;
    r.gmtu_bytes = IB_MAX_MTU_BYTES;
    accepted(&r);
    r.gmtu_bytes = IB_MAX_MTU_BYTES + 1;
    refused_at(&r, "gmtu_bytes", "must be at most 4096 for InfiniBand");
}

/// Omni-Path weights are 8-bit: a GMTU of 255 credits (16 320 B) is the largest whose
/// packet one entry can carry; one byte more is 256 credits.
#[test]
fn an_omnipath_gmtu_fits_the_largest_entry_weight() {
    let mut r = one_class();
    r.technology = Technology::Omnipath;
    r.gmtu_bytes = 255 * CREDIT_BYTES;
    accepted(&r);
    r.gmtu_bytes = 255 * CREDIT_BYTES + 1;
    refused_at(
        &r,
        "gmtu_bytes",
        "is 256 credits, more than the largest Omnipath entry weight 255",
    );
}

#[test]
fn a_link_rate_is_above_0_and_at_most_the_maximum() {
    let mut r = base();
    for rate in [MAX_LINK_RATE_GBPS, f64::MIN_POSITIVE, 5e-324, 2.5] {
        r.link_rate_gbps = Some(rate);
        accepted(&r);
    }
    let rule = "must be a rate in Gb/s above 0 and at most 1000000 or null";
    for rate in [
        MAX_LINK_RATE_GBPS.next_up(),
        0.0,
        -0.0,
        -1.0,
        f64::NAN,
        f64::INFINITY,
    ] {
        r.link_rate_gbps = Some(rate);
        refused_at(&r, "link_rate_gbps", rule);
    }
}

#[test]
fn switch_ports_go_from_1_to_the_maximum() {
    let mut r = base();
    for ports in [1, MAX_SWITCH_PORTS] {
        r.switch_ports = Some(ports);
        accepted(&r);
    }
    for ports in [0, MAX_SWITCH_PORTS + 1] {
        r.switch_ports = Some(ports);
        refused_at(
            &r,
            "switch_ports",
            "must be between 1 and 1024 ports or null",
        );
    }
}

/// Names are counted in characters, not bytes: 64 two-byte characters are allowed.
#[test]
fn a_class_name_has_1_to_64_characters_and_is_not_blank() {
    let mut r = base();
    for name in ["x".repeat(64), "é".repeat(64), "a".into()] {
        r.classes[1].name = name;
        accepted(&r);
    }
    let rule = "must be 1 to 64 characters, not blank";
    for name in ["x".repeat(65), "é".repeat(65), String::new(), "  \t".into()] {
        r.classes[1].name = name;
        refused_at(&r, "classes[1].name", rule);
    }
    r.classes[1].name = "NC".into();
    refused_at(&r, "classes[1].name", "\"NC\" is used by an earlier class");
}

#[test]
fn a_class_mtu_goes_from_1_byte_to_the_gmtu() {
    let mut r = base();
    for mtu in [1, 2048] {
        r.classes[1].mtu_bytes = mtu;
        accepted(&r);
    }
    for mtu in [0, 2049] {
        r.classes[1].mtu_bytes = mtu;
        refused_at(
            &r,
            "classes[1].mtu_bytes",
            &format!("must be between 1 and gmtu_bytes = 2048 (got {mtu})"),
        );
    }
}

#[test]
fn a_share_is_above_0_and_at_most_1() {
    let mut r = one_class();
    for share in [1.0, f64::MIN_POSITIVE, 5e-324] {
        r.classes[0].share = share;
        accepted(&r);
    }
    for share in [1.0_f64.next_up(), 0.0, -0.0, -0.5, f64::NAN, f64::INFINITY] {
        r.classes[0].share = share;
        refused_at(&r, "classes[0].share", "must be above 0 and at most 1");
    }
}

/// The shares may add up to more than 1 by float rounding, up to 1e-9; beyond that the
/// whole list is refused at `classes`.
#[test]
fn the_shares_add_up_to_at_most_1_within_rounding() {
    let mut r = base();
    r.classes[0].share = 1.0;
    r.classes[1].share = 1e-9;
    accepted(&r);
    r.classes[1].share = 2e-9;
    refused_at(&r, "classes", "more than 1");
    r.classes[0].share = 0.75;
    r.classes[1].share = 0.5;
    refused_at(&r, "classes", "the shares add up to 1.25, more than 1");
    // Tenths that add up to 1 on paper: as floats, 0.2 + 0.4 + 0.3 + 0.1 is
    // 1.0000000000000002 and ten times 0.1 is 0.9999999999999999.
    for shares in [vec![0.2, 0.4, 0.3, 0.1], vec![0.1; 10]] {
        r.classes = (shares.iter().enumerate())
            .map(|(i, &share)| ClassRequirement {
                name: format!("C{i}"),
                distance: None,
                mtu_bytes: 64,
                share,
            })
            .collect();
        assert_ne!(shares.iter().fold(0.0, |s, x| s + x), 1.0);
        accepted(&r);
    }
}

#[test]
fn a_distance_goes_from_1_to_the_entries_or_is_null() {
    let mut r = base();
    for distance in [Some(1), Some(64), None] {
        r.classes[1].distance = distance;
        accepted(&r);
    }
    for d in [0, 65] {
        r.classes[1].distance = Some(d);
        refused_at(
            &r,
            "classes[1].distance",
            &format!("must be between 1 and entries = 64 or null (got {d})"),
        );
    }
}

/// Advanced Switching tables have no weights, so no `w` or `k` either.
#[test]
fn an_as_table_takes_no_w_or_k() {
    let mut r = base();
    r.technology = Technology::As;
    r.w = None;
    r.k = None;
    accepted(&r);
    r.w = Some(2.0);
    refused_at(&r, "w", "must be null: As tables have no weights");
    r.w = None;
    r.k = Some(0.5);
    refused_at(&r, "k", "must be null: As tables have no weights");
}

fn parse_error_paths(text: &str) -> Vec<String> {
    match parse_requirements(text) {
        Err(EngineError::Invalid { errors }) => errors.into_iter().map(|e| e.path).collect(),
        other => panic!("{other:?}"),
    }
}

/// serde reports a problem of the document's own fields at `.`: the path is then the
/// field it names, or `requirements` for the whole document; deeper problems keep
/// serde's path.
#[test]
fn parse_errors_name_the_field_or_the_document() {
    let vector: serde_json::Value = serde_json::from_str(MULTIMEDIA_VECTOR).unwrap();
    let without = |field: &str| {
        let mut v = vector.clone();
        v.as_object_mut().unwrap().remove(field);
        v.to_string()
    };
    assert_eq!(parse_error_paths(&without("technology")), ["technology"]);
    assert_eq!(parse_error_paths(&without("classes")), ["classes"]);
    let with_colour = MULTIMEDIA_VECTOR.replacen("\"entries\"", "\"colour\": 1, \"entries\"", 1);
    assert_eq!(parse_error_paths(&with_colour), ["colour"]);
    assert_eq!(parse_error_paths("[]"), ["requirements"]);
    assert_eq!(parse_error_paths(r#"{"": 1}"#), ["requirements"]);
    let bad_name = MULTIMEDIA_VECTOR.replacen("\"NC\"", "7", 1);
    assert_eq!(parse_error_paths(&bad_name), ["classes[0].name"]);
    assert_eq!(
        parse_error_paths(&MULTIMEDIA_VECTOR.replacen("64,", "-1,", 1)),
        ["entries"]
    );
    assert_eq!(top_level_path("missing field `gmtu_bytes`"), "gmtu_bytes");
    assert_eq!(
        top_level_path("unknown field ``, expected one of"),
        "requirements"
    );
    assert_eq!(top_level_path("invalid type: map"), "requirements");
}
