//! OpenSM QoS options: round trip, every rejection rule with its exact path and message,
//! every lint (silent trap), the spec sample, and the `IbaConfig` conversions.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use proptest::prelude::*;
use qoslab_core::design::opensm::{
    LintKind, OpenSmQos, Prefix, from_iba, lint, lint_with_mtu, parse, parse_with_mtu, to_file,
    to_iba, to_lines,
};
use qoslab_core::scenario::{IbaConfig, TableEntry};
use qoslab_core::{EngineError, FieldError};

const SAMPLE: &str = "\
qos_swe_max_vls 15
qos_swe_high_limit 6
qos_swe_vlarb_high 0:4
qos_swe_vlarb_low 0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64
qos_swe_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7
";

fn sample() -> OpenSmQos {
    OpenSmQos {
        prefix: Prefix::Swe,
        max_vls: Some(15),
        high_limit: Some(6),
        vlarb_high: Some(vec![(0, 4)]),
        vlarb_low: Some(vec![
            (0, 0),
            (1, 64),
            (2, 128),
            (3, 192),
            (4, 0),
            (5, 64),
            (6, 64),
            (7, 64),
        ]),
        sl2vl: Some([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 7]),
    }
}

fn errors(text: &str) -> Vec<FieldError> {
    match parse(text) {
        Err(EngineError::Invalid { errors }) => errors,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

fn one_error(text: &str, path: &str, message: &str) {
    assert_eq!(errors(text), vec![FieldError::new(path, message)], "{text}");
}

#[test]
fn spec_sample_parses_to_expected_values_without_lints() {
    let (qos, lints) = parse(SAMPLE).unwrap();
    assert_eq!(qos, vec![sample()]);
    assert!(lints.is_empty(), "{lints:?}");
}

#[test]
fn spec_sample_exports_to_itself() {
    assert_eq!(to_lines(&sample()), SAMPLE);
}

#[test]
fn comments_blank_lines_and_other_options_are_ignored() {
    let text = format!(
        "# OpenSM options\n\nqos TRUE\nqos_policy_file /etc/opensm/qos-policy.conf\n\
         routing_engine ftree\n   # indented comment\n{SAMPLE}sm_priority 15\n"
    );
    let (qos, _) = parse(&text).unwrap();
    assert_eq!(qos, vec![sample()]);
}

#[test]
fn several_prefixes_parse_in_order_of_appearance() {
    let text = "qos_ca_max_vls 8\nqos_max_vls 4\nqos_ca_high_limit 0\nqos_rtr_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15\nqos_sw0_vlarb_high 1:1\n";
    let (qos, _) = parse(text).unwrap();
    let prefixes: Vec<Prefix> = qos.iter().map(|q| q.prefix).collect();
    assert_eq!(
        prefixes,
        vec![Prefix::Ca, Prefix::Plain, Prefix::Rtr, Prefix::Sw0]
    );
    assert_eq!(qos[0].max_vls, Some(8));
    assert_eq!(qos[0].high_limit, Some(0));
    assert_eq!(qos[1].max_vls, Some(4));
    assert_eq!(qos[3].vlarb_high, Some(vec![(1, 1)]));
    assert_eq!(parse(&to_file(&qos)).unwrap().0, qos);
}

// ---- rejections: each rule, exact path and message ----

#[test]
fn rejects_vl_above_15() {
    one_error(
        "\n\nqos_swe_vlarb_low 0:0,1:64,2:128,3:192,16:4\n",
        "line 3 (qos_swe_vlarb_low), entry 5",
        "VL 16 is out of range 0-15",
    );
}

#[test]
fn rejects_weight_above_255() {
    one_error(
        "qos_vlarb_high 0:256\n",
        "line 1 (qos_vlarb_high), entry 1",
        "weight 256 is out of range 0-255",
    );
}

#[test]
fn rejects_malformed_entries() {
    assert_eq!(
        errors("qos_ca_vlarb_high 0:1,5,x:3,3:y,2:064\n"),
        vec![
            FieldError::new(
                "line 1 (qos_ca_vlarb_high), entry 2",
                "`5` is not `VL:weight`"
            ),
            FieldError::new(
                "line 1 (qos_ca_vlarb_high), entry 3",
                "VL must be 0-15: `x` is not a number"
            ),
            FieldError::new(
                "line 1 (qos_ca_vlarb_high), entry 4",
                "weight must be 0-255: `y` is not a number"
            ),
            FieldError::new(
                "line 1 (qos_ca_vlarb_high), entry 5",
                "weight must be 0-255: `064` has a leading 0: OpenSM reads it as octal; write it without the 0"
            ),
        ]
    );
}

#[test]
fn rejects_high_limit_above_255() {
    one_error(
        "qos_swe_high_limit 300\n",
        "line 1 (qos_swe_high_limit)",
        "high_limit 300 is out of range 0-255",
    );
    one_error(
        "qos_swe_high_limit -2\n",
        "line 1 (qos_swe_high_limit)",
        "high_limit must be 0-255: `-2` is not a number",
    );
}

#[test]
fn rejects_max_vls_outside_the_allowed_set() {
    one_error(
        "qos_rtr_max_vls 3\n",
        "line 1 (qos_rtr_max_vls)",
        "max_vls 3 is not one of 1, 2, 4, 8, 15",
    );
    one_error(
        "qos_rtr_max_vls abc\n",
        "line 1 (qos_rtr_max_vls)",
        "max_vls must be one of 1, 2, 4, 8, 15: `abc` is not a number",
    );
}

#[test]
fn rejects_sl2vl_with_wrong_count_or_range() {
    one_error(
        "qos_sl2vl 0,1\n",
        "line 1 (qos_sl2vl)",
        "sl2vl needs 16 VLs (one per SL 0-15), found 2",
    );
    one_error(
        "qos_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,16\n",
        "line 1 (qos_sl2vl), entry 16",
        "VL 16 is out of range 0-15 (15 = drop)",
    );
}

#[test]
fn reports_all_problems_at_once_in_line_order() {
    let errs =
        errors("qos_swe_max_vls 3\n# c\nqos_swe_high_limit 256\nqos_swe_vlarb_low 20:1,1:300\n");
    let paths: Vec<&str> = errs.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "line 1 (qos_swe_max_vls)",
            "line 3 (qos_swe_high_limit)",
            "line 4 (qos_swe_vlarb_low), entry 1",
            "line 4 (qos_swe_vlarb_low), entry 2",
        ]
    );
}

// ---- lints: OpenSM's silent traps ----

fn lints_of(text: &str, mtu: Option<u32>) -> Vec<(LintKind, String)> {
    let (_, lints) = parse_with_mtu(text, mtu).unwrap();
    lints.into_iter().map(|l| (l.kind, l.path)).collect()
}

#[test]
fn lints_vl_15_in_vlarb() {
    let (_, lints) = parse("qos_swe_vlarb_high 0:4,15:8\n").unwrap();
    assert_eq!(lints.len(), 1);
    assert_eq!(lints[0].kind, LintKind::Vl15InVlarb);
    assert_eq!(lints[0].path, "line 1 (qos_swe_vlarb_high), entry 2");
    assert!(
        lints[0].message.contains("as VL 0 with weight 8"),
        "{}",
        lints[0].message
    );
}

#[test]
fn lints_more_than_64_entries() {
    let list: Vec<String> = (0..70).map(|i| format!("{}:1", i % 8)).collect();
    let text = format!("qos_ca_vlarb_low {}\n", list.join(","));
    let (_, lints) = parse(&text).unwrap();
    assert_eq!(lints.len(), 1);
    assert_eq!(lints[0].kind, LintKind::TooManyEntries);
    assert_eq!(lints[0].path, "line 1 (qos_ca_vlarb_low), entry 65");
    assert!(lints[0].message.contains("drops entries 65 to 70"));
}

#[test]
fn lints_weight_below_one_mtu_but_not_weight_zero() {
    // 2048-byte MTU = 32 units; weight 31 is below, 32 is not, 0 is "skip".
    let text = "qos_vlarb_low 0:31,1:32,2:0\n";
    assert_eq!(
        lints_of(text, Some(2048)),
        vec![(
            LintKind::WeightBelowMtu,
            "line 1 (qos_vlarb_low), entry 1".to_string()
        )]
    );
    assert!(lints_of(text, None).is_empty());
    let (qos, _) = parse(text).unwrap();
    let model = lint_with_mtu(&qos[0], 2048);
    assert_eq!(model.len(), 1);
    assert_eq!(model[0].path, "qos_vlarb_low, entry 1");
    assert!(model[0].message.contains("below one MTU (2048 bytes)"));
}

#[test]
fn lints_high_limit_255_with_a_low_table() {
    let text = "qos_swe_high_limit 255\nqos_swe_vlarb_high 0:4\nqos_swe_vlarb_low 1:8\n";
    let (_, lints) = parse(text).unwrap();
    assert_eq!(lints.len(), 1);
    assert_eq!(lints[0].kind, LintKind::HighLimitStarvation);
    assert_eq!(lints[0].path, "line 1 (qos_swe_high_limit)");
    assert!(lints[0].message.contains("can starve"));
    // A low table of only zero weights (or none) cannot starve.
    assert!(
        parse("qos_swe_high_limit 255\nqos_swe_vlarb_low 1:0\n")
            .unwrap()
            .1
            .is_empty()
    );
}

#[test]
fn lints_vls_at_or_above_max_vls() {
    let text =
        "qos_max_vls 4\nqos_vlarb_high 3:1,4:1\nqos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,0,1,2,15\n";
    assert_eq!(
        lints_of(text, None),
        vec![
            (
                LintKind::VlAboveMaxVls,
                "line 2 (qos_vlarb_high), entry 2".to_string()
            ),
            (
                LintKind::VlAboveMaxVls,
                "line 3 (qos_sl2vl), entry 5".to_string()
            ),
            (
                LintKind::VlAboveMaxVls,
                "line 3 (qos_sl2vl), entry 6".to_string()
            ),
            (
                LintKind::VlAboveMaxVls,
                "line 3 (qos_sl2vl), entry 7".to_string()
            ),
            (
                LintKind::VlAboveMaxVls,
                "line 3 (qos_sl2vl), entry 8".to_string()
            ),
        ]
    );
    let (_, lints) = parse(text).unwrap();
    assert!(lints[1].message.contains("SL 4 maps to VL 4"));
    assert!(lints[1].message.contains("dropped"));
}

#[test]
fn model_lint_names_the_option_without_a_line() {
    let mut q = sample();
    q.vlarb_high = Some(vec![(15, 1)]);
    let lints = lint(&q);
    assert_eq!(lints.len(), 1);
    assert_eq!(lints[0].path, "qos_swe_vlarb_high, entry 1");
}

// ---- conversions ----

fn entry(class: u32, weight: u32) -> TableEntry {
    TableEntry { class, weight }
}

#[test]
fn from_iba_builds_tables_and_identity_sl2vl_with_drop_above_max_vls() {
    let iba = IbaConfig {
        high: vec![entry(0, 4)],
        low: vec![entry(1, 64), entry(2, 128)],
        high_limit: 6,
    };
    let q = from_iba(&iba, Prefix::Ca, 4).unwrap();
    assert_eq!(q.max_vls, Some(4));
    assert_eq!(q.high_limit, Some(6));
    assert_eq!(q.vlarb_high, Some(vec![(0, 4)]));
    assert_eq!(q.vlarb_low, Some(vec![(1, 64), (2, 128)]));
    assert_eq!(
        q.sl2vl,
        Some([0, 1, 2, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15])
    );
    assert_eq!(
        from_iba(&iba, Prefix::Ca, 15).unwrap().sl2vl,
        Some([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    );
    assert_eq!(to_iba(&q).unwrap(), iba);
    assert!(lint(&q).is_empty());
}

#[test]
fn from_iba_rejects_values_opensm_cannot_hold() {
    let iba = IbaConfig {
        high: vec![entry(15, 4)],
        low: vec![entry(1, 256)],
        high_limit: 256,
    };
    match from_iba(&iba, Prefix::Swe, 3) {
        Err(EngineError::Invalid { errors }) => assert_eq!(
            errors,
            vec![
                FieldError::new("max_vls", "max_vls 3 is not one of 1, 2, 4, 8, 15"),
                FieldError::new("high[0].class", "VL 15 is out of range 0-14"),
                FieldError::new("low[0].weight", "weight 256 is out of range 0-255"),
                FieldError::new("high_limit", "high limit 256 is out of range 0-255"),
            ]
        ),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn to_iba_applies_opensm_vl_modulo_and_64_entry_cut() {
    let mut q = sample();
    let mut low: Vec<(u8, u8)> = vec![(15, 9)];
    low.extend(std::iter::repeat_n((1, 1), 70));
    q.vlarb_low = Some(low);
    let iba = to_iba(&q).unwrap();
    assert_eq!(iba.low.len(), 64);
    assert_eq!(iba.low[0], entry(0, 9));
    assert_eq!(iba.high, vec![entry(0, 4)]);
    assert_eq!(iba.high_limit, 6);
}

#[test]
fn to_iba_requires_tables_and_high_limit() {
    match to_iba(&OpenSmQos::empty(Prefix::Rtr)) {
        Err(EngineError::Invalid { errors }) => {
            let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
            assert_eq!(
                paths,
                vec![
                    "qos_rtr_vlarb_high",
                    "qos_rtr_vlarb_low",
                    "qos_rtr_high_limit"
                ]
            );
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
}

// ---- round trip ----

fn prefix_strategy() -> impl Strategy<Value = Prefix> {
    prop::sample::select(Prefix::ALL.to_vec())
}

fn vlarb_strategy() -> impl Strategy<Value = Option<Vec<(u8, u8)>>> {
    prop::option::of(prop::collection::vec((0u8..=15, any::<u8>()), 1..=80))
}

fn qos_strategy() -> impl Strategy<Value = OpenSmQos> {
    (
        prefix_strategy(),
        prop::option::of(prop::sample::select(vec![1u8, 2, 4, 8, 15])),
        prop::option::of(any::<u8>()),
        vlarb_strategy(),
        vlarb_strategy(),
        prop::option::of(prop::array::uniform16(0u8..=15)),
    )
        .prop_map(
            |(prefix, max_vls, high_limit, vlarb_high, vlarb_low, sl2vl)| OpenSmQos {
                prefix,
                max_vls,
                high_limit,
                vlarb_high,
                vlarb_low,
                sl2vl,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn export_then_import_is_identity(qs in prop::collection::vec(qos_strategy(), 1..=5)) {
        // One model per prefix (a file holds each prefix once after merging).
        let mut seen = Vec::new();
        let qs: Vec<OpenSmQos> = qs.into_iter().filter(|q| {
            let fresh = !seen.contains(&q.prefix);
            seen.push(q.prefix);
            fresh
        }).collect();
        let text = to_file(&qs);
        let (back, lints) = parse(&text).unwrap();
        // A model with no option set writes no line, so it does not come back.
        let expected: Vec<OpenSmQos> =
            qs.iter().filter(|q| !to_lines(q).is_empty()).cloned().collect();
        prop_assert_eq!(&back, &expected);
        // The lints of the file are those of the models, with line numbers added.
        let model_lints: usize = expected.iter().map(|q| lint(q).len()).sum();
        prop_assert_eq!(lints.len(), model_lints);
    }
}
