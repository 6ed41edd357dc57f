//! Every input problem is reported with the field's path and the rule, never a panic.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::{default_preset, problems, set, small};
use qoslab_core::{EngineError, Run, scenario};
use serde_json::{Value, json};

fn assert_problem(doc: &Value, path: &str, message_part: &str) {
    let found = problems(doc);
    assert!(
        found
            .iter()
            .any(|(p, m)| p == path && m.contains(message_part)),
        "expected a problem at `{path}` containing `{message_part}`, got {found:?}"
    );
}

#[test]
fn default_preset_is_valid() {
    assert!(problems(&default_preset()).is_empty());
}

#[test]
fn rule_violations_name_field_and_rule() {
    let cases: &[(&str, Value, &str, &str)] = &[
        ("name", json!(" "), "name", "must not be empty"),
        ("seed", json!(9_007_199_254_740_992u64), "seed", "2^53 - 1"),
        ("duration_us", json!(0), "duration_us", "between 1 and"),
        (
            "warmup_us",
            json!(2_000_000),
            "warmup_us",
            "shorter than duration_us",
        ),
        (
            "model.link.rate_gbps",
            json!(0.0),
            "model.link.rate_gbps",
            "above 0",
        ),
        (
            "model.downstream.drain_rate_gbps",
            json!(-1.0),
            "model.downstream.drain_rate_gbps",
            "above 0",
        ),
        (
            "model.downstream.buffer_bytes",
            json!(32),
            "model.downstream.buffer_bytes",
            "between 64",
        ),
        (
            "model.downstream.buffer_bytes",
            json!(1024),
            "model.downstream.buffer_bytes",
            "at least one packet",
        ),
        (
            "model.classes[1].name",
            json!("Voice"),
            "model.classes[1].name",
            "unique",
        ),
        (
            "model.classes[2].traffic.load",
            json!(7.5),
            "model.classes[2].traffic.load",
            "between 0 and 4",
        ),
        (
            "model.classes[0].traffic.size.bytes",
            json!(0),
            "model.classes[0].traffic.size.bytes",
            "between 1 and 65536",
        ),
        (
            "model.classes[1].traffic.size.max_bytes",
            json!(100),
            "model.classes[1].traffic.size.max_bytes",
            "at least min_bytes",
        ),
        (
            "model.classes[3].traffic.size.shape",
            json!(0.0),
            "model.classes[3].traffic.size.shape",
            "tail index",
        ),
        (
            "model.scheduler.table[1].class",
            json!(9),
            "model.scheduler.table[1].class",
            "not a class index",
        ),
        (
            "model.scheduler.table[1].weight",
            json!(0),
            "model.scheduler.table[1].weight",
            "between 1 and 65535",
        ),
        (
            "model.scheduler.table[1].weight",
            json!(31),
            "model.scheduler.table[1].weight",
            "below the MTU of class \"Video\"",
        ),
        (
            "model.scheduler.table",
            json!([]),
            "model.scheduler.table",
            "between 1 and 4096",
        ),
    ];
    for (path, value, want_path, want_message) in cases {
        let mut doc = default_preset();
        set(&mut doc, path, value.clone());
        assert_problem(&doc, want_path, want_message);
    }
    let mut doc = default_preset();
    doc.as_object_mut().unwrap().insert(String::new(), json!(1));
    assert_problem(&doc, "[\"\"]", "not a known field");
}

#[test]
fn class_without_table_entry_is_refused() {
    let mut doc = default_preset();
    // Drop every entry of class 2 ("Bulk").
    let table: Vec<Value> = doc["model"]["scheduler"]["table"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["class"] != 2)
        .cloned()
        .collect();
    set(&mut doc, "model.scheduler.table", Value::Array(table));
    assert_problem(
        &doc,
        "model.classes[2]",
        "no entry in the scheduler's table",
    );
}

#[test]
fn all_rule_violations_are_reported_at_once() {
    let mut doc = default_preset();
    set(&mut doc, "name", json!(""));
    set(&mut doc, "model.classes[0].traffic.load", json!(-1));
    set(&mut doc, "model.scheduler.table[0].weight", json!(0));
    assert_eq!(problems(&doc).len(), 3, "{:?}", problems(&doc));
}

#[test]
fn oversized_runs_are_refused_before_they_start() {
    let mut doc = default_preset();
    set(&mut doc, "duration_us", json!(900_000_000));
    set(&mut doc, "warmup_us", json!(0));
    assert_problem(&doc, "duration_us", "packets, more than the limit");
}

#[test]
fn type_and_shape_errors_name_the_field() {
    let cases: &[(&str, Value, &str, &str)] = &[
        (
            "model.scheduler.table[2].weight",
            json!("heavy"),
            "model.scheduler.table[2].weight",
            "invalid type",
        ),
        (
            "model.classes[1].traffic.size.kind",
            json!("gaussian"),
            "model.classes[1].traffic.size.kind",
            "not a known packet-size distribution",
        ),
        (
            "model.classes[1].traffic.arrivals",
            json!({"kind": "poisson", "rate": 2}),
            "model.classes[1].traffic.arrivals.rate",
            "not a known field",
        ),
        (
            "model.scheduler",
            json!({"table": []}),
            "model.scheduler.kind",
            "is required",
        ),
        (
            "model.kind",
            json!("torus"),
            "model.kind",
            "not a known model",
        ),
        (
            "model.link",
            json!({}),
            "model.link.rate_gbps",
            "is required but missing",
        ),
        (
            "model.downstream.typo",
            json!(1),
            "model.downstream.typo",
            "not a known field",
        ),
        ("seed", json!(-1), "seed", "invalid value"),
        // A key with no name is still shown in the path.
        ("model.", json!(1), "model[\"\"]", "not a known field"),
        (
            "model.classes[0].",
            json!(1),
            "model.classes[0][\"\"]",
            "not a known field",
        ),
    ];
    for (path, value, want_path, want_message) in cases {
        let mut doc = default_preset();
        set(&mut doc, path, value.clone());
        assert_problem(&doc, want_path, want_message);
    }
}

#[test]
fn syntax_errors_give_line_and_column() {
    let err = scenario::parse("{\n  \"version\": 1,\n  oops\n}").unwrap_err();
    match err {
        EngineError::Syntax { line, column, .. } => assert_eq!((line, column), (3, 3)),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn versions_are_checked() {
    let mut doc = default_preset();
    set(&mut doc, "version", json!(2));
    assert_problem(&doc, "version", "newer than this qoslab");
    doc.as_object_mut().unwrap().remove("version");
    assert_problem(&doc, "version", "missing");
}

#[test]
fn run_refuses_invalid_scenarios_too() {
    let mut doc = small(&[("A", 0.5, 256)], 4, 100);
    set(&mut doc, "model.scheduler.table[0].class", json!(3));
    assert!(Run::from_json(&doc.to_string()).is_err());
}
