//! The worst-case head-of-line wait bound of a design (`docs/table-design.md`, "Worst-case
//! wait bound") against simulation: designed tables run in the link lab (DTable, and the
//! InfiniBand low table / AS basic table for those technologies) with random packet sizes
//! up to each class MTU and overloaded or bursty sources, downstream buffers large and fast
//! enough that credits never block; every head-of-line wait read from the decision trace
//! must stay within the class's bound.
//!
//! Reading waits from a trace: the link lab dequeues a packet when it starts on the link,
//! so when a decision sends class `c` with two or more packets queued, the next packet of
//! `c` is at the head from that decision's start. A packet that reached an empty queue is
//! first seen in the snapshot of the next decision; it is taken as head from that
//! decision's start, which is exact when the link was idle before it and never longer
//! than the true wait otherwise (so the check stays sound).

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod random_requirements;

use proptest::prelude::*;
use qoslab_core::design::{Design, Requirements, Technology, design, parse_requirements};
use qoslab_core::scenario;
use qoslab_core::trace::{MAX_TRACE_DECISIONS, trace};
use random_requirements::requirements;
use serde_json::{Value, json};

const VECTOR: &str = qoslab_core::design::MULTIMEDIA_VECTOR;

/// How one class's source behaves in a run.
#[derive(Clone, Copy, Debug)]
struct Load {
    load: f64,
    bursts: Option<u32>,
    /// Uniform sizes from 1 byte (true) or from half the MTU.
    small: bool,
}

/// The scheduler configuration that runs `d`'s table.
fn scheduler(d: &Design) -> Value {
    let class = |name: &str| d.classes.iter().position(|c| c.name == name).unwrap();
    match d.technology {
        Technology::Dtable => json!({"kind": "dtable", "table": d.table.iter().map(|e| json!({
            "class": class(&e.class), "weight": e.weight.unwrap()})).collect::<Vec<_>>()}),
        Technology::Infiniband | Technology::Omnipath => json!({"kind": "iba",
            "high": [], "high_limit": 255,
            "low": d.table.iter().map(|e| json!({
            "class": class(&e.class), "weight": e.weight.unwrap()})).collect::<Vec<_>>()}),
        Technology::As => json!({"kind": "as_basic",
            "table": d.table.iter().map(|e| class(&e.class)).collect::<Vec<_>>()}),
    }
}

/// A link-lab scenario running `d` with one source per class.
fn scenario_for(d: &Design, r: &Requirements, loads: &[Load], seed: u64) -> scenario::Scenario {
    let classes: Vec<Value> = r
        .classes
        .iter()
        .zip(loads)
        .map(|(c, l)| {
            let arrivals = match l.bursts {
                Some(n) => json!({"kind": "bursts", "packets": n}),
                None => json!({"kind": "poisson"}),
            };
            let min = if l.small { 1 } else { c.mtu_bytes.div_ceil(2) };
            json!({"name": c.name, "traffic": {"load": l.load, "arrivals": arrivals,
                "size": {"kind": "uniform", "min_bytes": min, "max_bytes": c.mtu_bytes}}})
        })
        .collect();
    let rate = d.link_rate_gbps;
    // Long enough for the traced decisions at any packet size, short enough that the
    // scenario's limit on generated packets (2e8) is not reached.
    let packets_per_us: f64 = r
        .classes
        .iter()
        .zip(loads)
        .map(|(c, l)| {
            let min = if l.small { 1 } else { c.mtu_bytes.div_ceil(2) };
            l.load * rate * 1e3 / 8.0 / ((f64::from(min) + f64::from(c.mtu_bytes)) / 2.0)
        })
        .sum();
    let duration_us = (1e8 / packets_per_us).min(2e6) as u64;
    let doc = json!({
        "version": 1, "name": "bound", "seed": seed, "duration_us": duration_us, "warmup_us": 0,
        "model": {"kind": "link_lab", "link": {"rate_gbps": rate},
            // Buffers of 16 MiB drained 100 times faster than the link: credits never block.
            "downstream": {"buffer_bytes": 16 << 20, "drain_rate_gbps": rate * 100.0},
            "classes": classes, "scheduler": scheduler(d)}
    });
    scenario::parse(&doc.to_string()).unwrap()
}

/// The longest head-of-line wait of each class (ns) over `decisions` decisions.
fn worst_waits(s: scenario::Scenario, classes: usize, decisions: u32) -> Vec<f64> {
    let t = trace(s, decisions, 0).unwrap();
    assert_eq!(t.decisions.len(), decisions as usize, "the run ended early");
    let mut head_since: Vec<Option<f64>> = vec![None; classes];
    let mut worst = vec![0.0f64; classes];
    for d in &t.decisions {
        for (c, since) in head_since.iter_mut().enumerate() {
            if since.is_none() && d.queue_lengths[c] > 0 {
                *since = Some(d.time_ns);
            }
            // Credits never block, as the bound assumes.
            assert!(d.queue_lengths[c] == 0 || d.free_credits[c] >= d.queues[c][0].div_ceil(64));
        }
        let c = d.class as usize;
        let since = head_since[c].unwrap();
        worst[c] = worst[c].max(d.time_ns - since);
        head_since[c] = (d.queue_lengths[c] >= 2).then_some(d.time_ns);
    }
    worst
}

/// Runs `d` under the given loads and seeds; asserts every wait is within its bound and
/// returns the largest wait / bound ratio of each class.
fn check(d: &Design, r: &Requirements, loads: &[Load], seeds: &[u64], decisions: u32) -> Vec<f64> {
    let mut ratio = vec![0.0f64; d.classes.len()];
    for &seed in seeds {
        let worst = worst_waits(scenario_for(d, r, loads, seed), d.classes.len(), decisions);
        for (i, c) in d.classes.iter().enumerate() {
            assert!(
                worst[i] <= c.bound_ns + 1e-6,
                "{:?} seed {seed}: class {} waited {} ns, above its bound {} ns (loads {loads:?})",
                d.technology,
                c.name,
                worst[i],
                c.bound_ns
            );
            ratio[i] = ratio[i].max(worst[i] / c.bound_ns);
        }
    }
    ratio
}

/// Every class overloaded (queues stay backlogged), small and large packets.
fn overloaded(n: usize) -> Vec<Load> {
    (0..n)
        .map(|i| Load {
            load: 1.0,
            bursts: None,
            small: i % 2 == 0,
        })
        .collect()
}

/// The spec vector on each technology, under overload and under a mix where one class at
/// a time is light (its packets often find an empty queue) while the others are bursty.
#[test]
fn spec_vector_waits_stay_within_the_bounds() {
    for (tech, w_k) in [
        ("dtable", true),
        ("infiniband", true),
        ("omnipath", true),
        ("as", false),
    ] {
        let mut text = VECTOR.replace("\"dtable\"", &format!("\"{tech}\""));
        if !w_k {
            text = text.replace("\"w\": 2, \"k\": 0.5", "\"w\": null, \"k\": null");
        }
        let r = parse_requirements(&text).unwrap();
        let d = design(&r).unwrap();
        let n = d.classes.len();
        let mut ratio = check(&d, &r, &overloaded(n), &[1, 2, 3], MAX_TRACE_DECISIONS);
        for light in 0..n {
            let loads: Vec<Load> = (0..n)
                .map(|i| Load {
                    load: if i == light { 0.02 } else { 0.5 },
                    bursts: (i != light).then_some(8),
                    small: i % 2 == 1,
                })
                .collect();
            let r2 = check(&d, &r, &loads, &[7], 3000);
            for (a, b) in ratio.iter_mut().zip(r2) {
                *a = a.max(b);
            }
        }
        let shown: Vec<String> = d
            .classes
            .iter()
            .zip(&ratio)
            .map(|(c, q)| {
                format!(
                    "{} {:.0}/{:.0} ns ({:.0}%)",
                    c.name,
                    q * c.bound_ns,
                    c.bound_ns,
                    q * 100.0
                )
            })
            .collect();
        println!("{tech}: {}", shown.join(", "));
        // Not absurdly loose: under overload some class comes close to its bound.
        assert!(
            ratio.iter().cloned().fold(0.0, f64::max) > 0.5,
            "{tech}: {shown:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random feasible requirements on each technology, random loads: no wait above the
    /// bound.
    #[test]
    fn random_designs_waits_stay_within_the_bounds(
        tech in prop_oneof![Just(Technology::Dtable), Just(Technology::Infiniband), Just(Technology::As)],
        log_n in 5u32..7,
        raw in proptest::collection::vec(
            (proptest::option::weighted(0.8, 1u32..6), 1u32..=2048, 1u32..100),
            1..7,
        ),
        loads in proptest::collection::vec((0.05f64..1.5, proptest::option::of(1u32..16), any::<bool>()), 7),
        rate in prop_oneof![Just(2.0), Just(2.5), Just(10.0)],
        seed in 0u64..1000,
    ) {
        let mut r = requirements(tech, log_n, &raw);
        r.link_rate_gbps = Some(rate);
        let Ok(d) = design(&r) else { return Ok(()) };
        let loads: Vec<Load> = loads
            .iter()
            .take(r.classes.len())
            .map(|&(load, bursts, small)| Load { load, bursts, small })
            .collect();
        check(&d, &r, &loads, &[seed], 2000);
    }
}
