//! Invariants of the link lab over random scenarios (proptest): packets are conserved
//! and delivered in FIFO order per class, no downstream buffer ever holds more than its
//! credits, the link is never idle while a class could send (work conservation), and a
//! DTable shares bandwidth by weight whatever the packet sizes.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use proptest::prelude::*;
use qoslab_core::Run;
use serde_json::{Value, json};

/// A random size distribution and its largest packet.
fn size_strategy() -> impl Strategy<Value = (Value, u32)> {
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

#[derive(Debug, Clone)]
struct ClassSpec {
    size: Value,
    mtu: u32,
    load: f64,
    poisson: bool,
    drain_gbps: Option<f64>,
}

fn class_strategy() -> impl Strategy<Value = ClassSpec> {
    (
        size_strategy(),
        0.0f64..0.8,
        any::<bool>(),
        prop_oneof![Just(None), (0.2f64..4.0).prop_map(Some)],
    )
        .prop_map(|((size, mtu), load, poisson, drain_gbps)| ClassSpec {
            size,
            mtu,
            load,
            poisson,
            drain_gbps,
        })
}

/// A random valid link-lab scenario: 1-6 classes, random table (every class present,
/// weights at least the class MTU), small buffers, slow drains, credit delays.
fn scenario_strategy() -> impl Strategy<Value = Value> {
    proptest::collection::vec(class_strategy(), 1..=6)
        .prop_flat_map(|classes| {
            let n = classes.len();
            let extra = proptest::collection::vec((0..n, 0u32..64), 0..12);
            (Just(classes), extra, 1u32..=4, 0u32..2000, any::<u64>())
        })
        .prop_map(|(classes, extra, buffer_mtus, credit_delay_ns, seed)| {
            let max_mtu = classes.iter().map(|c| c.mtu).max().unwrap_or(64);
            let credits = |bytes: u32| bytes.div_ceil(64);
            let mut table: Vec<Value> = classes
                .iter()
                .enumerate()
                .map(|(i, c)| json!({"class": i, "weight": credits(c.mtu)}))
                .collect();
            for (class, more) in extra {
                table.push(json!({"class": class, "weight": credits(classes[class].mtu) + more}));
            }
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
                        "buffer_bytes": max_mtu.div_ceil(64) * 64 * buffer_mtus,
                        "drain_rate_gbps": 2.0,
                        "credit_delay_ns": credit_delay_ns
                    },
                    "classes": classes.iter().enumerate().map(|(i, c)| {
                        let mut class = json!({
                            "name": format!("C{i}"),
                            "traffic": {
                                "load": c.load,
                                "arrivals": {"kind": if c.poisson { "poisson" } else { "constant" }},
                                "size": c.size
                            }
                        });
                        if let Some(d) = c.drain_gbps {
                            class["drain_rate_gbps"] = json!(d);
                        }
                        class
                    }).collect::<Vec<_>>(),
                    "scheduler": {"kind": "dtable", "table": table}
                }
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

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
        for c in &r.classes {
            prop_assert_eq!(c.generated, c.delivered + c.in_flight);
            prop_assert!(c.throughput <= 1.0 + 1e-9);
        }
        // Throughput counts packets whose delivery completes in the window, so one packet
        // that started before the warm-up ended may be counted whole.
        let window_ps = (r.duration_ns - r.warmup_ns) as f64 * 1000.0;
        let one_mtu = 4096.0 * 8.0 / 2.0e9 * 1.0e12 / window_ps;
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
