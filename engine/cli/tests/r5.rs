//! Reference scenario R5 (`shared/spec/40-network-processors.md`): DWCS with a heap and
//! with HILQ on a network processor, the three experiments through `qoslab sweep` on the
//! bundled presets (shortened runs), checked for the expected shapes:
//! - memory accesses per packet grow with the streams for the heap, stay flat for HILQ,
//!   and HILQ needs fewer from a few tens of streams;
//! - HILQ's cycles per packet stay within the link's budget from 128 B on, the heap's at
//!   4000 streams do not;
//! - no window violations at U <= 1 with the heap, violations above, and HILQ's no more
//!   than the heap's at U = 1.4.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::{preset, qoslab_json};

use serde_json::Value;

/// `qoslab sweep` of a preset; per point, the node results of its runs.
fn sweep(name: &str, args: &[&str]) -> Vec<(f64, Vec<Value>)> {
    let path = preset(name);
    let fixed = ["sweep", path.to_str().unwrap()];
    let v = qoslab_json(
        fixed
            .iter()
            .chain(args)
            .chain(&["--quiet", "--duration-ms", "80"]),
    );
    v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let runs = p["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["network_processor"].clone())
                .collect();
            (p["load"].as_f64().unwrap(), runs)
        })
        .collect()
}

fn cost(points: &[(f64, Vec<Value>)], field: &str) -> Vec<f64> {
    points
        .iter()
        .map(|(_, runs)| runs[0]["cost"][field].as_f64().unwrap())
        .collect()
}

#[test]
fn accesses_per_packet_against_streams() {
    let args = ["--axis", "streams", "--values", "10,100,1000,10000"];
    let heap = cost(&sweep("r5-accesses-heap", &args), "accesses_per_packet");
    let hilq = cost(&sweep("r5-accesses-hilq", &args), "accesses_per_packet");
    assert!(
        heap.windows(2).all(|w| w[1] > w[0] * 1.05),
        "heap grows: {heap:?}"
    );
    let (lo, hi) = hilq
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(hi < lo * 1.5, "HILQ about constant: {hilq:?}");
    assert!(
        hilq[1..].iter().zip(&heap[1..]).all(|(q, h)| q < h),
        "{hilq:?} {heap:?}"
    );
}

#[test]
fn cycles_per_packet_against_the_link_budget() {
    let args = ["--axis", "packet-bytes", "--values", "128,512,1024"];
    let heap = sweep("r5-budget-heap", &args);
    let hilq = sweep("r5-budget-hilq", &args);
    let budget = cost(&hilq, "budget_cycles");
    // 128 B at 1 Gb/s = 1.024 us = 237.6 cycles at 232 MHz; 1 KB 1900.5.
    assert!((budget[0] - 237.568).abs() < 0.01 && (budget[2] - 1900.544).abs() < 0.01);
    let q = cost(&hilq, "cycles_per_packet");
    let h = cost(&heap, "cycles_per_packet");
    assert!(
        q.iter().zip(&budget).all(|(c, b)| c < b),
        "HILQ {q:?} in {budget:?}"
    );
    assert!(h[0] > budget[0], "heap {h:?} over {budget:?} at 128 B");
}

#[test]
fn window_violations_against_utilisation() {
    let args = ["--loads", "0.6,0.9,1.0,1.4", "--seeds", "2"];
    let heap = sweep("r5-violations-heap", &args);
    let hilq = sweep("r5-violations-hilq", &args);
    let total = |runs: &[Value]| {
        runs.iter()
            .map(|r| r["violations"].as_u64().unwrap())
            .sum::<u64>()
    };
    for (u, runs) in &heap[..3] {
        assert_eq!(total(runs), 0, "heap at U = {u}");
    }
    assert_eq!(total(&hilq[0].1), 0);
    assert!(total(&heap[3].1) > 0);
    assert!(total(&hilq[3].1) <= total(&heap[3].1));
}
