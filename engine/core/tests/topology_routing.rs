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
}

/// Runs `d` and checks the fabric's audit; returns the results.
fn run_clean(d: &Value) -> qoslab_core::RunResults {
    let mut run = Run::from_json(&d.to_string()).unwrap_or_else(|e| panic!("{e}"));
    run.run_to_end();
    let net = run.network().unwrap();
    assert_eq!(
        net.audit(),
        Some(Default::default()),
        "{}",
        d["model"]["routing"]
    );
    let results = run.results();
    assert!(results.delivered > 0);
    for c in &results.classes {
        assert_eq!(c.generated, c.delivered + c.in_flight, "class {}", c.name);
    }
    results
}

/// Every routing runs the R2 traffic on a topology it fits, with every invariant kept.
#[test]
fn every_routing_runs_on_its_topology() {
    let tree = json!({"kind": "tree", "k": 2, "n": 3});
    let torus =
        json!({"kind": "torus", "dims": [3, 3], "trunk_ports": 2, "end_points_per_switch": 1});
    for (topology, kind) in [
        (&tree, "up_down"),
        (&tree, "valiant"),
        (&tree, "least_occupied"),
        (&torus, "dimension_order"),
    ] {
        run_clean(&doc(topology.clone(), Some(json!({ "kind": kind }))));
    }
}

/// Admitted connections take the least occupied of their routes: on a 4-ary 2-tree with
/// bit-reversal partners, the four end points of a leaf switch send to destinations whose
/// up*/down* routes all leave by the same up port, so admission fills that link; the
/// least occupied routes spread the connections over the four top switches and admit
/// more of them.
#[test]
fn least_occupied_routes_admit_more_connections_than_fixed_routes() {
    let tree = json!({"kind": "tree", "k": 4, "n": 2});
    let admitted = |kind: &str| -> u64 {
        let mut d = doc(tree.clone(), Some(json!({ "kind": kind })));
        d["model"]["admission"]["qos_cap"] = json!(0.3);
        for class in d["model"]["classes"].as_array_mut().unwrap() {
            class["traffic"]["destinations"] =
                json!({"kind": "permutation", "pattern": "bit_reversal"});
        }
        let results = run_clean(&d);
        results
            .classes
            .iter()
            .filter_map(|c| c.connections.as_ref().map(|n| n.admitted))
            .sum()
    };
    let (fixed, spread) = (admitted("up_down"), admitted("least_occupied"));
    assert!(spread > fixed, "least occupied {spread}, up*/down* {fixed}");
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
