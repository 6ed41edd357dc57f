//! Same scenario and seed: identical results, byte for byte. Different seed: different.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::{default_preset, set};
use qoslab_core::Run;
use serde_json::json;

fn run_json(text: &str) -> String {
    let mut run = Run::from_json(text).unwrap();
    run.run_to_end();
    run.results().to_json_pretty()
}

#[test]
fn same_scenario_and_seed_give_identical_json() {
    let text = default_preset().to_string();
    let a = run_json(&text);
    let b = run_json(&text);
    assert_eq!(a, b);
    assert!(a.contains("\"seed\": 1"));
}

#[test]
fn chunking_does_not_change_results() {
    let text = default_preset().to_string();
    let whole = run_json(&text);
    let mut run = Run::from_json(&text).unwrap();
    while !run.advance(997) {}
    assert_eq!(run.results().to_json_pretty(), whole);
}

#[test]
fn another_seed_gives_other_numbers() {
    let mut doc = default_preset();
    let a = run_json(&doc.to_string());
    set(&mut doc, "seed", json!(2));
    let b = run_json(&doc.to_string());
    assert_ne!(a, b);
}

/// The traffic a class sees depends only on the seed and its index, not on the scheduler
/// table: two runs with different weights generate exactly the same packets.
#[test]
fn traffic_is_independent_of_the_scheduler() {
    let mut doc = default_preset();
    let a: serde_json::Value = serde_json::from_str(&run_json(&doc.to_string())).unwrap();
    set(&mut doc, "model.scheduler.table[1].weight", json!(64));
    let b: serde_json::Value = serde_json::from_str(&run_json(&doc.to_string())).unwrap();
    for (ca, cb) in a["classes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(b["classes"].as_array().unwrap())
    {
        assert_eq!(ca["generated"], cb["generated"]);
        assert_eq!(ca["offered"], cb["offered"]);
    }
}

/// The InfiniBand-like switch's network: the demo preset gives one JSON whether run
/// twice or in chunks (the wasm facade runs it in chunks).
#[test]
fn infiniband_network_is_deterministic_and_chunk_independent() {
    let text = include_str!("../../../public/presets/ib-tree-demo.json");
    let whole = run_json(text);
    assert_eq!(run_json(text), whole);
    let mut run = Run::from_json(text).unwrap();
    while !run.advance(997) {}
    assert_eq!(run.results().to_json_pretty(), whole);
}
