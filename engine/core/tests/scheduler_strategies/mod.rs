//! Random valid schedulers of every kind, shared by the property tests of the link lab
//! (`invariants.rs`) and of networks (`network.rs`).

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};
use serde_json::{Value, json};

/// Every scheduler kind of the format (one strategy each in [`scheduler_strategy`]; add a
/// kind in both places; `invariants.rs` checks the list against the format).
pub const KINDS: [&str; 11] = [
    "as_basic",
    "iba",
    "dtable",
    "drr",
    "scfq",
    "wfq",
    "wf2q_plus",
    "sfq",
    "strict_priority",
    "fifo",
    "edf",
];

/// Credits of 64 B for a packet.
pub fn credits(bytes: u32) -> u32 {
    bytes.div_ceil(64)
}

/// A random valid scheduler of `kind` for classes with these MTUs.
pub fn kind_strategy(kind: &'static str, mtus: Vec<u32>) -> BoxedStrategy<Value> {
    let n = mtus.len();
    match kind {
        // 32 or 64 entries: every class once, the rest random, shuffled.
        "as_basic" => (prop_oneof![Just(32usize), Just(64usize)], any::<u64>())
            .prop_flat_map(move |(size, _)| {
                proptest::collection::vec(0..n as u32, size - n)
                    .prop_map(move |rest| {
                        let mut t: Vec<u32> = (0..n as u32).collect();
                        t.extend(rest);
                        t
                    })
                    .prop_shuffle()
            })
            .prop_map(|table| json!({"kind": "as_basic", "table": table}))
            .boxed(),
        // High and low tables of random (VL, weight 0-255) entries, plus one weighted
        // entry per class in a random table; random high limit.
        "iba" => (
            proptest::collection::vec((0..n as u32, 0u32..=255), 0..8),
            proptest::collection::vec((0..n as u32, 0u32..=255), 0..8),
            proptest::collection::vec((any::<bool>(), 1u32..=255), n),
            0u32..=255,
        )
            .prop_map(move |(mut high, mut low, own, high_limit)| {
                for (class, (in_high, weight)) in own.into_iter().enumerate() {
                    let e = (class as u32, weight);
                    if in_high {
                        high.insert(class % (high.len() + 1), e);
                    } else {
                        low.insert(class % (low.len() + 1), e);
                    }
                }
                let entries = |t: Vec<(u32, u32)>| {
                    t.into_iter()
                        .map(|(class, weight)| json!({"class": class, "weight": weight}))
                        .collect::<Vec<_>>()
                };
                json!({"kind": "iba", "high": entries(high), "low": entries(low), "high_limit": high_limit})
            })
            .boxed(),
        // Every class once, weights at least the class MTU, plus random extra entries.
        "dtable" => proptest::collection::vec((0..n, 0u32..64), 0..12)
            .prop_map(move |extra| {
                let mut table: Vec<Value> = mtus
                    .iter()
                    .enumerate()
                    .map(|(i, &mtu)| json!({"class": i, "weight": credits(mtu)}))
                    .collect();
                for (class, more) in extra {
                    table.push(json!({"class": class, "weight": credits(mtus[class]) + more}));
                }
                json!({"kind": "dtable", "table": table})
            })
            .boxed(),
        // Quanta from 1 byte (many rounds per packet) to several MTUs.
        "drr" => proptest::collection::vec(1u32..=8192, n)
            .prop_map(|q| json!({"kind": "drr", "quanta_bytes": q}))
            .boxed(),
        "scfq" | "wfq" | "wf2q_plus" | "sfq" => proptest::collection::vec(
            prop_oneof![0.001f64..1000.0, Just(1.0e9), Just(1.0)],
            n,
        )
        .prop_map(move |w| json!({"kind": kind, "weights": w}))
        .boxed(),
        "strict_priority" => proptest::collection::vec(0u32..=255, n)
            .prop_map(|p| json!({"kind": "strict_priority", "priorities": p}))
            .boxed(),
        "fifo" => Just(json!({"kind": "fifo"})).boxed(),
        "edf" => proptest::collection::vec(
            prop_oneof![1u64..=100_000, Just(1_000_000_000_000u64)],
            n,
        )
        .prop_map(|d| json!({"kind": "edf", "deadlines_ns": d}))
        .boxed(),
        other => panic!("no strategy for scheduler kind {other}: add one"),
    }
}

/// A random scheduler of any kind in [`KINDS`].
pub fn scheduler_strategy(mtus: Vec<u32>) -> BoxedStrategy<Value> {
    Union::new(KINDS.iter().map(|&k| kind_strategy(k, mtus.clone()))).boxed()
}
