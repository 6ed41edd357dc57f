//! Invariants of the link lab over random scenarios (proptest): packets are conserved
//! and delivered in FIFO order per class, no downstream buffer ever holds more than its
//! credits, the link is never idle while a class could send (work conservation), and a
//! DTable shares bandwidth by weight whatever the packet sizes.
//!
//! The random scenarios draw a scheduler of every kind in [`KINDS`] with random valid
//! parameters (valid per `scenario/validate.rs`; tables give every class an entry) and
//! every arrival process.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod scheduler_strategies;
mod size_strategies;

use proptest::prelude::*;
use qoslab_core::Run;
use scheduler_strategies::{KINDS, credits, scheduler_strategy};
use serde_json::{Value, json};
use size_strategies::size_strategy;

/// A random arrival process (every kind the scenario format has).
fn arrivals_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"kind": "constant"})),
        Just(json!({"kind": "poisson"})),
        (0.05f64..20.0, 0.0f64..20.0)
            .prop_map(|(on, off)| json!({"kind": "on_off", "mean_on_us": on, "mean_off_us": off})),
        (1u32..=20).prop_map(|packets| json!({"kind": "bursts", "packets": packets})),
    ]
}

#[derive(Debug, Clone)]
struct ClassSpec {
    size: Value,
    mtu: u32,
    load: f64,
    arrivals: Value,
    drain_gbps: Option<f64>,
}

fn class_strategy() -> impl Strategy<Value = ClassSpec> {
    (
        size_strategy(),
        0.0f64..0.8,
        arrivals_strategy(),
        prop_oneof![Just(None), (0.2f64..4.0).prop_map(Some)],
    )
        .prop_map(|((size, mtu), load, arrivals, drain_gbps)| ClassSpec {
            size,
            mtu,
            load,
            arrivals,
            drain_gbps,
        })
}

/// A random valid link-lab scenario: 1-6 classes, a random scheduler of any kind, small
/// buffers, slow drains, credit delays.
fn scenario_strategy() -> impl Strategy<Value = Value> {
    proptest::collection::vec(class_strategy(), 1..=6)
        .prop_flat_map(|classes| {
            let mtus: Vec<u32> = classes.iter().map(|c| c.mtu).collect();
            (
                Just(classes),
                scheduler_strategy(mtus),
                1u32..=4,
                0u32..2000,
                any::<u64>(),
            )
        })
        .prop_map(|(classes, scheduler, buffer_mtus, credit_delay_ns, seed)| {
            let max_mtu = classes.iter().map(|c| c.mtu).max().unwrap_or(64);
            json!({
                "version": 1,
                "name": "random",
                "seed": seed >> 11,
                "duration_us": 300,
                "warmup_us": 30,
                "model": {
                    "kind": "link_lab",
                    "link": {"rate_gbps": 2.0},
                    "downstream": {
                        "buffer_bytes": credits(max_mtu) * 64 * buffer_mtus,
                        "drain_rate_gbps": 2.0,
                        "credit_delay_ns": credit_delay_ns
                    },
                    "classes": classes.iter().enumerate().map(|(i, c)| {
                        let mut class = json!({
                            "name": format!("C{i}"),
                            "traffic": {
                                "load": c.load,
                                "arrivals": c.arrivals,
                                "size": c.size
                            }
                        });
                        if let Some(d) = c.drain_gbps {
                            class["drain_rate_gbps"] = json!(d);
                        }
                        class
                    }).collect::<Vec<_>>(),
                    "scheduler": scheduler
                }
            })
        })
}

/// [`KINDS`] is exactly the format's scheduler kinds (a kind added to the format but not
/// here fails), and the generator draws every one of them.
#[test]
fn every_scheduler_kind_is_generated() {
    let schema = qoslab_core::Scenario::json_schema();
    let mut format_kinds: Vec<String> = schema["$defs"]["SchedulerConfig"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            v["properties"]["kind"]["const"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    format_kinds.sort();
    let mut kinds: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
    kinds.sort();
    assert_eq!(kinds, format_kinds);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = scheduler_strategy(vec![64, 2048, 300]);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let v = strategy.new_tree(&mut runner).unwrap().current();
        seen.insert(v["kind"].as_str().unwrap().to_string());
    }
    let want: std::collections::BTreeSet<String> = KINDS.iter().map(|k| k.to_string()).collect();
    assert_eq!(seen, want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn link_lab_invariants_hold(doc in scenario_strategy()) {
        let mut run = Run::from_json(&doc.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Check conservation at several points during the run, not only at the end.
        loop {
            let done = run.advance(97);
            let lab = run.link_lab().unwrap();
            let queued: u64 = lab.queue_lengths().iter().map(|&q| q as u64).sum();
            let in_flight: u64 = (0..lab.counters().len()).map(|c| lab.in_flight(c)).sum();
            prop_assert_eq!(in_flight, queued + u64::from(lab.link_busy()), "packets lost or duplicated");
            if done { break; }
        }
        let lab = run.link_lab().unwrap();
        let audit = lab.audit();
        prop_assert_eq!(audit.fifo_violations, 0, "FIFO order within a class broken");
        prop_assert_eq!(audit.credit_violations, 0, "a packet was chosen without credits");
        prop_assert_eq!(audit.buffer_overflows, 0, "a downstream buffer overflowed");
        prop_assert_eq!(audit.idle_with_active_class, 0, "link idle while a class was active");
        for (peak, capacity) in lab.downstream_peaks() {
            prop_assert!(peak <= capacity);
        }
        let r = run.results();
        prop_assert_eq!(r.generated, r.delivered + r.in_flight);
        // Throughput counts packets whose delivery completes in the window, so one packet
        // that started before the warm-up ended may be counted whole (for one class as for
        // all together).
        let window_ps = (r.duration_ns - r.warmup_ns) as f64 * 1000.0;
        let one_mtu = 4096.0 * 8.0 / 2.0e9 * 1.0e12 / window_ps;
        for c in &r.classes {
            prop_assert_eq!(c.generated, c.delivered + c.in_flight);
            prop_assert!(c.throughput <= 1.0 + one_mtu, "class {}: {}", c.name, c.throughput);
        }
        let total: f64 = r.classes.iter().map(|c| c.throughput).sum();
        prop_assert!(total <= 1.0 + one_mtu, "more than the link delivered: {}", total);
    }

    /// All classes backlogged, random packet sizes: each class's share of the link
    /// converges to its share of the table weights, within 1% of the link. DTable counts
    /// credits (64 B): a class whose packets do not fill their last credit gets
    /// proportionally fewer bytes, so the expected byte share is
    /// `w_i * r_i / sum_j(w_j * r_j)` with `r = bytes / (64 * credits)` per packet.
    #[test]
    fn dtable_shares_converge_to_weights(
        sizes in proptest::collection::vec(64u32..=4096, 2..=5),
        extra in proptest::collection::vec(0u32..96, 5),
        seed in 0u64..1000,
    ) {
        let n = sizes.len();
        let credits = |b: u32| b.div_ceil(64);
        let weights: Vec<u32> = sizes.iter().zip(&extra).map(|(&b, e)| credits(b) + e).collect();
        let max_mtu = *sizes.iter().max().unwrap();
        let doc = json!({
            "version": 1, "name": "shares", "seed": seed, "duration_us": 10000, "warmup_us": 1000,
            "model": {
                "kind": "link_lab",
                "link": {"rate_gbps": 2.0},
                "downstream": {"buffer_bytes": credits(max_mtu) * 64 * 4, "drain_rate_gbps": 2.0},
                "classes": sizes.iter().enumerate().map(|(i, b)| json!({
                    "name": format!("C{i}"),
                    "traffic": {"load": 1.5, "arrivals": {"kind": "poisson"}, "size": {"kind": "fixed", "bytes": b}}
                })).collect::<Vec<_>>(),
                "scheduler": {"kind": "dtable", "table": weights.iter().enumerate().map(|(i, w)| json!({"class": i, "weight": w})).collect::<Vec<_>>()}
            }
        });
        let mut run = Run::from_json(&doc.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        run.run_to_end();
        let r = run.results();
        let fill = |b: u32| f64::from(b) / f64::from(credits(b) * 64);
        let norm: f64 = (0..n).map(|i| f64::from(weights[i]) * fill(sizes[i])).sum();
        let total_tp: f64 = r.classes.iter().map(|c| c.throughput).sum();
        prop_assert!(total_tp > 0.99, "saturated link must be fully used: {}", total_tp);
        for i in 0..n {
            let want = f64::from(weights[i]) * fill(sizes[i]) / norm;
            let got = r.classes[i].throughput;
            prop_assert!((got - want).abs() < 0.01, "class {}: share {} want {} (weights {:?}, sizes {:?})", i, got, want, weights, sizes);
        }
    }
}
