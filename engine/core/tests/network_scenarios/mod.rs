//! Network scenarios for the integration tests: builders, running with the audit, the
//! invariants every finished run keeps, and refusal checks.
#![allow(dead_code)]

use qoslab_core::{Run, RunResults};
use serde_json::{Value, json};

pub const R2: &str = include_str!("../data/network-r2.json");

/// A network scenario with the given topology, classes `(load, generator, destinations)`
/// and schedulers.
#[allow(clippy::too_many_arguments)]
pub fn network(
    topology: Value,
    classes: &[(f64, Value, Value)],
    interface_scheduler: Value,
    switch_scheduler: Value,
    buffers: (u32, u32, u32),
    link: Value,
    duration_us: u64,
    seed: u64,
) -> Value {
    json!({
        "version": 1,
        "name": "network test",
        "seed": seed,
        "duration_us": duration_us,
        "warmup_us": duration_us / 10,
        "model": {
            "kind": "network",
            "link": link,
            "topology": topology,
            "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 145,
                       "input_buffer_bytes": buffers.0, "output_buffer_bytes": buffers.1},
            "interface": {"buffer_bytes": buffers.2},
            "classes": classes.iter().enumerate().map(|(i, (load, generator, destinations))| json!({
                "name": format!("C{i}"),
                "traffic": {"load": load, "generator": generator, "destinations": destinations}
            })).collect::<Vec<_>>(),
            "interface_scheduler": interface_scheduler,
            "switch_scheduler": switch_scheduler
        }
    })
}

pub fn run(
    doc: &Value,
) -> (
    RunResults,
    qoslab_core::network::NetworkAudit,
    usize,
    (f64, f64),
) {
    let mut r = Run::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}\n{doc:#}"));
    r.run_to_end();
    let net = r.network().unwrap();
    (
        r.results(),
        net.audit().expect("Run::from_json audits"),
        net.packets_stored(),
        net.peak_fill().expect("Run::from_json audits"),
    )
}

/// Asserts every invariant of a finished run.
pub fn check_invariants(
    results: &RunResults,
    audit: qoslab_core::network::NetworkAudit,
    stored: usize,
    peaks: (f64, f64),
) {
    assert_eq!(audit, Default::default(), "invariant breaches");
    for c in &results.classes {
        assert_eq!(c.generated, c.delivered + c.in_flight, "class {}", c.name);
        if let Some(n) = c.connections {
            assert_eq!(n.requested, n.admitted + n.refused, "class {}", c.name);
            assert!(
                c.jitter_ns.is_some(),
                "class {}: connections without jitter",
                c.name
            );
        }
    }
    assert_eq!(
        results.in_flight as usize, stored,
        "in flight = packets stored"
    );
    assert!(peaks.0 <= 1.0 && peaks.1 <= 1.0, "peak fill {peaks:?}");
}

pub fn fixed(bytes: u32) -> Value {
    json!({"kind": "fixed", "bytes": bytes})
}

/// Poisson traffic: one-packet bursts of `size`.
pub fn poisson(size: Value) -> Value {
    json!({"kind": "bursts", "packets": 1, "size": size})
}

pub fn uniform() -> Value {
    json!({"kind": "uniform"})
}

pub fn min(end_points: u32, switch_ports: u32) -> Value {
    json!({"kind": "min", "end_points": end_points, "switch_ports": switch_ports})
}

pub fn link(rate: f64) -> Value {
    json!({"rate_gbps": rate})
}

/// `doc` is refused with an error at `path` whose message contains `text`.
pub fn assert_refused(doc: &Value, path: &str, text: &str) {
    let Err(qoslab_core::EngineError::Invalid { errors }) = Run::from_json(&doc.to_string()) else {
        panic!("accepted");
    };
    assert!(
        errors
            .iter()
            .any(|e| e.path == path && e.message.contains(text)),
        "{errors:?}"
    );
}
