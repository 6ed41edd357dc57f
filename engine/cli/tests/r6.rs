//! Reference scenario R6 (`shared/spec/40-network-processors.md`): PCFQ against two
//! separate WFQ schedulers on the 16-flow network processor, through `qoslab compare` on
//! the bundled presets (shortened runs): the table has every category for both, and the
//! shape measured in docs/network-processors.md holds: in the low-bandwidth categories
//! PCFQ's delays have a smaller maximum and spread than the separate pair's.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::{preset, qoslab, qoslab_ok};

use serde_json::Value;

fn compare(extra: &[&str]) -> std::process::Output {
    let (pcfq, wfq) = (preset("r6-pcfq"), preset("r6-wfq"));
    let fixed = ["compare", pcfq.to_str().unwrap(), wfq.to_str().unwrap()];
    qoslab_ok(fixed.iter().chain(&["--duration-ms", "300"]).chain(extra))
}

#[test]
fn r6_table_from_the_cli() {
    let v: Value = serde_json::from_slice(&compare(&["--json"]).stdout).unwrap();
    assert_eq!(v["schedulers"], serde_json::json!(["pcfq", "separate_wfq"]));
    let classes: Vec<&str> = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(
        classes,
        [
            "high CPU, low BW",
            "low CPU, high BW",
            "low CPU, low BW",
            "high CPU, high BW",
            "medium CPU, medium BW"
        ]
    );
    let cell = |c: usize, s: usize, f: &str| v["delays"][c][s][f].as_f64().unwrap();
    for c in 0..classes.len() {
        for s in 0..2 {
            assert!(cell(c, s, "packets") > 1000.0);
            assert!(cell(c, s, "mean_us") > 0.0);
            assert!(cell(c, s, "max_us") >= cell(c, s, "mean_us"));
            assert!(cell(c, s, "std_us") > 0.0);
        }
    }
    // Low-bandwidth categories: PCFQ's maximum and standard deviation below the pair's.
    for c in [0, 2] {
        assert!(
            cell(c, 0, "std_us") < 0.8 * cell(c, 1, "std_us"),
            "{}: std {} vs {}",
            classes[c],
            cell(c, 0, "std_us"),
            cell(c, 1, "std_us")
        );
        assert!(
            cell(c, 0, "max_us") < cell(c, 1, "max_us"),
            "{}",
            classes[c]
        );
    }
}

#[test]
fn r6_text_table() {
    let text = String::from_utf8(compare(&[]).stdout).unwrap();
    assert!(text.starts_with("Delay per class, microseconds (mean / max / std dev)"));
    assert!(text.contains("pcfq") && text.contains("separate_wfq"));
    assert_eq!(text.lines().count(), 2 + 5, "{text}");
    assert!(text.lines().all(|l| l == l.trim_end()));
}

#[test]
fn compare_refuses_different_classes() {
    let out = qoslab([
        "compare".as_ref(),
        preset("r6-pcfq").as_os_str(),
        preset("r5-violations-heap").as_os_str(),
        "--duration-ms".as_ref(),
        "5".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("differ"));
}
