//! The share table's weights against worked cases (the ones the web's copy was tested
//! with, a bounded Pareto class of an AS basic table), the kinds without weights, the
//! request's errors by field, and inputs that must not panic.

#![allow(clippy::unwrap_used, clippy::panic, clippy::float_cmp)]

use proptest::prelude::*;

use super::*;
use crate::scenario::bounded_pareto_mean;
use crate::schedulers::KINDS;
use crate::starting_scheduler::starting_config;

fn class(size: serde_json::Value) -> ClassConfig {
    serde_json::from_value(serde_json::json!({
        "name": "c",
        "traffic": {"load": 0.2, "arrivals": {"kind": "poisson"}, "size": size}
    }))
    .unwrap()
}

fn fixed(bytes: u32) -> ClassConfig {
    class(serde_json::json!({"kind": "fixed", "bytes": bytes}))
}

fn four() -> Vec<ClassConfig> {
    vec![fixed(64), fixed(256), fixed(1024), fixed(2048)]
}

fn config(json: serde_json::Value) -> SchedulerConfig {
    serde_json::from_value(json).unwrap()
}

fn close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len(), "{a:?} against {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-12, "{a:?} against {b:?}");
    }
}

#[test]
fn weighted_kinds_answer_their_weights_and_shares() {
    let classes = four();
    let dtable = config(serde_json::json!({"kind": "dtable", "table": [
        {"class": 0, "weight": 10}, {"class": 1, "weight": 20}, {"class": 2, "weight": 30},
        {"class": 3, "weight": 40}, {"class": 0, "weight": 10}, {"class": 9, "weight": 50}
    ]}));
    let w = weights_of(&dtable, &classes);
    // The entry naming no class (9) is left out.
    assert_eq!(w.weights, Some(vec![20.0, 20.0, 30.0, 40.0]));
    close(
        &w.shares.unwrap(),
        &[20.0 / 110.0, 20.0 / 110.0, 30.0 / 110.0, 40.0 / 110.0],
    );
    let drr = config(serde_json::json!({"kind": "drr", "quanta_bytes": [100, 300, 0, 600]}));
    close(
        &weights_of(&drr, &classes).shares.unwrap(),
        &[0.1, 0.3, 0.0, 0.6],
    );
    // A list shorter than the classes gives the missing ones 0.
    let wfq = config(serde_json::json!({"kind": "wfq", "weights": [1, 1, 2]}));
    close(
        &weights_of(&wfq, &classes).shares.unwrap(),
        &[0.25, 0.25, 0.5, 0.0],
    );
    let iba = config(serde_json::json!({"kind": "iba", "high_limit": 1,
        "high": [{"class": 3, "weight": 2}], "low": [{"class": 0, "weight": 1}, {"class": 3, "weight": 1}]}));
    close(
        &weights_of(&iba, &classes).shares.unwrap(),
        &[0.25, 0.0, 0.0, 0.75],
    );
    // AS basic: one entry per class sends bytes in proportion to its packet size.
    let as_basic = config(serde_json::json!({"kind": "as_basic", "table": [0, 1, 2, 3]}));
    let a = weights_of(&as_basic, &classes);
    assert_eq!(a.weights, Some(vec![64.0, 256.0, 1024.0, 2048.0]));
    close(
        &a.shares.unwrap(),
        &[
            64.0 / 3392.0,
            256.0 / 3392.0,
            1024.0 / 3392.0,
            2048.0 / 3392.0,
        ],
    );
    // Every weight 0: shares all 0, not NaN.
    let zero = config(serde_json::json!({"kind": "drr", "quanta_bytes": [0, 0, 0, 0]}));
    assert_eq!(weights_of(&zero, &classes).shares, Some(vec![0.0; 4]));
}

#[test]
fn an_as_basic_table_weighs_a_pareto_class_by_its_bounded_pareto_mean() {
    let pareto = class(
        serde_json::json!({"kind": "pareto", "min_bytes": 64, "max_bytes": 4096, "shape": 1.2}),
    );
    let uniform = class(serde_json::json!({"kind": "uniform", "min_bytes": 100, "max_bytes": 300}));
    let classes = vec![pareto, uniform, fixed(1024)];
    let table = config(serde_json::json!({"kind": "as_basic", "table": [0, 0, 1, 2]}));
    let w = weights_of(&table, &classes);
    let mean = bounded_pareto_mean(64.0, 4096.0, 1.2);
    assert!(mean > 64.0 && mean < 4096.0);
    assert_eq!(w.weights, Some(vec![2.0 * mean, 200.0, 1024.0]));
    let total = 2.0 * mean + 200.0 + 1024.0;
    close(
        &w.shares.unwrap(),
        &[2.0 * mean / total, 200.0 / total, 1024.0 / total],
    );
    // A shape so small that the textbook formula loses every digit still gives a finite share.
    let tiny = class(
        serde_json::json!({"kind": "pareto", "min_bytes": 64, "max_bytes": 4096, "shape": 1e-9}),
    );
    let t = weights_of(&table, &[tiny, fixed(200), fixed(1024)]);
    let tw = t.weights.unwrap();
    assert!(
        tw[0].is_finite() && tw[0] > 2.0 * 64.0 && tw[0] < 2.0 * 4096.0,
        "{tw:?}"
    );
}

#[test]
fn only_strict_priority_fifo_and_edf_have_no_weights_and_shares_sum_to_one() {
    let classes = four();
    let from = config(serde_json::json!({"kind": "wfq", "weights": [1, 2, 3, 4]}));
    for kind in KINDS {
        let start = starting_config(kind, &from, &classes, 10.0).unwrap();
        let w = weights_of(&start, &classes);
        if ["strict_priority", "fifo", "edf"].contains(kind) {
            assert_eq!(
                w,
                SchedulerWeights {
                    weights: None,
                    shares: None
                },
                "{kind}"
            );
        } else {
            let weights = w.weights.unwrap();
            let shares = w.shares.unwrap();
            assert_eq!(weights.len(), 4, "{kind}");
            assert!(
                weights.iter().all(|x| x.is_finite() && *x > 0.0),
                "{kind}: {weights:?}"
            );
            assert!(
                (shares.iter().sum::<f64>() - 1.0).abs() < 1e-12,
                "{kind}: {shares:?}"
            );
        }
    }
}

#[test]
fn requests_are_read_with_paths() {
    let classes = serde_json::to_value(four()).unwrap();
    let ok = serde_json::json!({"scheduler": {"kind": "drr", "quanta_bytes": [1, 1, 1, 1]}, "classes": classes});
    assert_eq!(
        scheduler_weights(&ok.to_string()).unwrap().shares,
        Some(vec![0.25; 4])
    );
    let path_of = |v: serde_json::Value| match scheduler_weights(&v.to_string()) {
        Err(EngineError::Invalid { errors }) => errors[0].path.clone(),
        other => panic!("{other:?}"),
    };
    let no_classes = serde_json::json!({"scheduler": {"kind": "fifo"}, "classes": []});
    assert_eq!(path_of(no_classes), "classes");
    let too_many =
        serde_json::json!({"scheduler": {"kind": "fifo"}, "classes": vec![classes[0].clone(); 65]});
    assert_eq!(path_of(too_many), "classes");
    let bad_entry = serde_json::json!({"scheduler": {"kind": "as_basic", "table": [0, -1]}, "classes": classes});
    assert_eq!(path_of(bad_entry), "scheduler.table[1]");
    let mut bad_shape = classes.clone();
    bad_shape[2]["traffic"]["size"] =
        serde_json::json!({"kind": "pareto", "min_bytes": 64, "max_bytes": 4096, "shape": null});
    let bad_class = serde_json::json!({"scheduler": {"kind": "fifo"}, "classes": bad_shape});
    assert_eq!(path_of(bad_class), "classes[2].traffic.size.shape");
    let missing = serde_json::json!({"classes": classes});
    assert_eq!(path_of(missing), "scheduler");
    let unknown =
        serde_json::json!({"scheduler": {"kind": "fifo"}, "classes": classes, "rate_gbps": 1});
    assert!(path_of(unknown).contains("rate_gbps"));
    assert!(matches!(
        scheduler_weights("{"),
        Err(EngineError::Syntax { .. })
    ));
    assert!(matches!(
        scheduler_weights("[]"),
        Err(EngineError::Invalid { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text answers (weights or an error), and any AS basic table over any sizes gives
    /// finite weights and shares: nothing here can panic across the wasm boundary.
    #[test]
    fn never_panics(
        text in ".{0,200}",
        table in proptest::collection::vec(0u32..100, 0..40),
        lo in 0u32..5000,
        hi in 0u32..70000,
        shape in prop_oneof![Just(0.0f64), Just(1.0), 1e-12f64..1e-3, -5.0f64..200.0],
    ) {
        let _ = scheduler_weights(&text);
        let size = serde_json::json!({"kind": "pareto", "min_bytes": lo, "max_bytes": hi, "shape": shape});
        let request = serde_json::json!({
            "scheduler": {"kind": "as_basic", "table": table},
            "classes": [class(size), fixed(lo)],
        });
        let w = scheduler_weights(&request.to_string()).unwrap();
        let weights = w.weights.unwrap();
        let shares = w.shares.unwrap();
        prop_assert!(weights.iter().chain(&shares).all(|x| x.is_finite() && *x >= 0.0));
        let sum: f64 = shares.iter().sum();
        prop_assert!(sum == 0.0 || (sum - 1.0).abs() < 1e-9);
    }
}
