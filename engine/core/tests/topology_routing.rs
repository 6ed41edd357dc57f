//! Trees, tori and routings through the scenario: sizes, field-named errors, which
//! routing fits which topology, and a tree network that runs.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use qoslab_core::run::Run;
use serde_json::{Value, json};

const R2: &str = include_str!("data/network-r2.json");

/// The R2 network with another topology (and routing), short enough to run in a test.
fn doc(topology: Value, routing: Option<Value>) -> Value {
    let mut doc: Value = serde_json::from_str(R2).unwrap();
    doc["model"]["topology"] = topology;
    if let Some(r) = routing {
        doc["model"]["routing"] = r;
    }
    doc["duration_us"] = json!(20);
    doc["warmup_us"] = json!(2);
    doc
}

fn errors(doc: &Value) -> Vec<(String, String)> {
    match Run::from_json(&doc.to_string()) {
        Err(qoslab_core::EngineError::Invalid { errors }) => {
            errors.into_iter().map(|e| (e.path, e.message)).collect()
        }
        Err(e) => panic!("{e:?}"),
        Ok(_) => Vec::new(),
    }
}

fn assert_refused(doc: &Value, path: &str, text: &str) {
    let errors = errors(doc);
    assert!(
        errors.iter().any(|(p, m)| p == path && m.contains(text)),
        "{errors:?}"
    );
}

#[test]
fn a_tree_network_builds_and_runs_with_up_down() {
    for routing in [None, Some(json!({"kind": "up_down"}))] {
        let d = doc(json!({"kind": "tree", "k": 4, "n": 3}), routing);
        let mut run = Run::from_json(&d.to_string()).unwrap();
        let t = run.network().unwrap().topology();
        assert_eq!(
            (t.end_points(), t.switches(), t.links().len()),
            (64, 48, 192)
        );
        run.run_to_end();
        assert!(run.results().delivered > 0);
    }
}

#[test]
fn tree_and_torus_errors_name_the_field() {
    let tree = |k: u32, n: u32| doc(json!({"kind": "tree", "k": k, "n": n}), None);
    assert_refused(&tree(1, 3), "model.topology.k", "from 2 to 32");
    assert_refused(&tree(4, 0), "model.topology.n", "at least 1");
    assert_refused(&tree(4, 7), "model.topology", "at most 4096 end points");
    let torus = |dims: Value, t: u32, e: u32| {
        doc(
            json!({"kind": "torus", "dims": dims, "trunk_ports": t, "end_points_per_switch": e}),
            Some(json!({"kind": "dimension_order"})),
        )
    };
    assert_refused(
        &torus(json!([8, 1]), 1, 1),
        "model.topology.dims[1]",
        "at least 2",
    );
    assert_refused(&torus(json!([]), 1, 1), "model.topology.dims", "1 to 3");
    assert_refused(
        &torus(json!([8, 8]), 0, 1),
        "model.topology.trunk_ports",
        "at least 1",
    );
    assert_refused(
        &torus(json!([8, 8, 8]), 10, 8),
        "model.topology.trunk_ports",
        "68 ports",
    );
    assert_refused(
        &doc(json!({"kind": "tree", "k": 4}), None),
        "model.topology.n",
        "missing",
    );
}

#[test]
fn routings_must_fit_the_topology() {
    let torus =
        json!({"kind": "torus", "dims": [4, 4], "trunk_ports": 2, "end_points_per_switch": 2});
    let min = json!({"kind": "min", "end_points": 16, "switch_ports": 8});
    assert_refused(
        &doc(torus.clone(), None),
        "model.routing",
        "dimension_order",
    );
    assert_refused(
        &doc(min.clone(), Some(json!({"kind": "valiant"}))),
        "model.routing",
        "\"tree\"",
    );
    assert_refused(
        &doc(min, Some(json!({"kind": "dimension_order"}))),
        "model.routing",
        "\"torus\"",
    );
    assert_refused(
        &doc(torus, Some(json!({"kind": "up_down"}))),
        "model.routing",
        "torus",
    );
    assert_refused(
        &doc(
            json!({"kind": "tree", "k": 2, "n": 2}),
            Some(json!({"kind": "zigzag"})),
        ),
        "model.routing.kind",
        "",
    );
    // Built and tested, not yet simulated: refused with the reason.
    let tree = json!({"kind": "tree", "k": 2, "n": 3});
    for kind in ["valiant", "least_occupied"] {
        assert_refused(
            &doc(tree.clone(), Some(json!({ "kind": kind }))),
            "model.routing",
            "only \"up_down\" is simulated",
        );
    }
}

/// A scenario without `routing` serialises without it (old files and links unchanged).
#[test]
fn routing_is_optional_and_not_written_when_absent() {
    let d: Value = serde_json::from_str(R2).unwrap();
    let scenario = qoslab_core::scenario::parse(&d.to_string()).unwrap();
    let again = serde_json::to_value(&scenario).unwrap();
    assert!(again["model"].get("routing").is_none());
    assert!(again["model"].get("topology").is_some());
}
