//! Random packet-size distributions for the property tests of the link lab
//! (`invariants.rs`) and of networks (`network.rs`): every kind the scenario format has.

use proptest::prelude::*;
use serde_json::{Value, json};

/// A random size distribution and its largest packet.
pub fn size_strategy() -> impl Strategy<Value = (Value, u32)> {
    prop_oneof![
        (1u32..=4096).prop_map(|b| (json!({"kind": "fixed", "bytes": b}), b)),
        (1u32..=2048, 0u32..=2048).prop_map(|(lo, extra)| {
            (
                json!({"kind": "uniform", "min_bytes": lo, "max_bytes": lo + extra}),
                lo + extra,
            )
        }),
        (1u32..=512, 0u32..=2048, 0.5f64..3.0).prop_map(|(lo, extra, shape)| {
            (
                json!({"kind": "pareto", "min_bytes": lo, "max_bytes": lo + extra, "shape": shape}),
                lo + extra,
            )
        }),
    ]
}
