//! Helpers shared by the integration tests.
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use qoslab_core::np::contract::{QueuedPacket, StreamView};
use qoslab_core::{EngineError, scenario};
use serde_json::{Value, json};

/// The default preset as a JSON value.
pub fn default_preset() -> Value {
    serde_json::from_str(include_str!("../../../public/presets/default.json")).unwrap()
}

/// A small valid link-lab scenario with the given classes `(name, load, size)` and a
/// DTable with one entry of `weight` per class.
pub fn small(classes: &[(&str, f64, u32)], weight: u32, duration_us: u64) -> Value {
    json!({
        "version": 1,
        "name": "test",
        "seed": 42,
        "duration_us": duration_us,
        "warmup_us": duration_us / 10,
        "model": {
            "kind": "link_lab",
            "link": {"rate_gbps": 2.0},
            "downstream": {"buffer_bytes": 16384, "drain_rate_gbps": 2.0},
            "classes": classes.iter().map(|(name, load, bytes)| json!({
                "name": name,
                "traffic": {"load": load, "arrivals": {"kind": "poisson"}, "size": {"kind": "fixed", "bytes": bytes}}
            })).collect::<Vec<_>>(),
            "scheduler": {"kind": "dtable", "table": (0..classes.len()).map(|c| json!({"class": c, "weight": weight})).collect::<Vec<_>>()}
        }
    })
}

/// Sets `value` at a dotted path with `[i]` indices (test convenience).
pub fn set(doc: &mut Value, path: &str, value: Value) {
    let mut cur = doc;
    for part in path.split('.') {
        let (key, index) = match part.split_once('[') {
            Some((k, rest)) => (
                k,
                Some(rest.trim_end_matches(']').parse::<usize>().unwrap()),
            ),
            None => (part, None),
        };
        cur = &mut cur[key];
        if let Some(i) = index {
            cur = &mut cur[i];
        }
    }
    *cur = value;
}

/// A network-processor node's stream queues, by hand (stream `s`'s packets, head first),
/// for driving an `NpScheduler` through its contract.
pub struct Fake(pub Vec<Vec<QueuedPacket>>);

impl StreamView for Fake {
    fn streams(&self) -> usize {
        self.0.len()
    }
    fn head(&self, s: u32) -> Option<QueuedPacket> {
        self.0[s as usize].first().copied()
    }
    fn tail(&self, s: u32) -> Option<QueuedPacket> {
        self.0[s as usize].last().copied()
    }
    fn len(&self, s: u32) -> usize {
        self.0[s as usize].len()
    }
}

/// Parses (with validation) and returns the `(path, message)` pairs of the document's
/// problems (empty when it is valid).
pub fn problems(doc: &Value) -> Vec<(String, String)> {
    match scenario::parse(&doc.to_string()) {
        Ok(_) => vec![],
        Err(EngineError::Invalid { errors }) => {
            errors.into_iter().map(|e| (e.path, e.message)).collect()
        }
        Err(other) => vec![(String::new(), other.to_string())],
    }
}
