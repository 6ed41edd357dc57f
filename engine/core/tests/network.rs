//! The network simulator (`"kind": "network"`): invariants over random small networks
//! (proptest), hand-computed latencies of lone packets, throughput against offered load,
//! determinism, and the R2 network for 1 ms (validation messages: `network_validation.rs`).
//!
//! Invariants checked on every random run: every generated packet is delivered exactly
//! once or is still in the network (`generated = delivered + in_flight` per class, and
//! in flight = packets stored), no buffer ever holds more than its credits (counted from
//! what was sent and freed), packets of one class from one source to one destination
//! arrive in order, every packet reaches its own destination, no link idles while a class
//! could send (all from the simulator's `Audit`). The random networks draw every traffic
//! generator (bursts, CBR, synthetic video, video traces) and destination model (uniform,
//! Zipf, hot spot, permutations), with and without admission control.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod network_scenarios;
mod network_strategies;
mod scheduler_strategies;
mod size_strategies;

use network_scenarios::*;
use network_strategies::case_strategy;
use proptest::prelude::*;
use serde_json::{Value, json};

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Conservation, buffers within credits, FIFO per (source, destination, SL) where
    /// the routing keeps one path (per connection where connections take their own
    /// routes), right destination and SL, no duplicates, work conservation, on random
    /// small networks: MINs, single switches, links, k-ary n-trees and tori, every
    /// routing that fits, random lane maps and credit policies, CIOQ, two-VC and
    /// InfiniBand-like switches.
    #[test]
    fn random_networks_keep_every_invariant(case in case_strategy()) {
        let (results, audit, stored, peaks) = run(&case.doc);
        check_invariants(&results, audit, stored, peaks);
        // Liveness: packets generated are delivered. The first ones may come too late in a
        // short run to arrive before its end (a burst of large packets near the end), so a
        // run without deliveries is run again 10 ms longer (the same seed: the same packets
        // first), which must deliver.
        if results.generated >= 5 && results.delivered == 0 {
            let mut longer = case.doc.clone();
            let end = longer["duration_us"].as_u64().unwrap_or(0) + 10_000;
            longer["duration_us"] = json!(end);
            let (more, ..) = run(&longer);
            prop_assert!(more.delivered > 0, "nothing delivered, even 10 ms later: {more:?}");
        }
    }
}

/// Latencies of lone packets (load so low that packets never meet): a packet crossing
/// `h` switches over links of latency `L` arrives `size / rate + h * 145 ns + (h + 1) * L`
/// after its generation (virtual cut-through: serialisation counts once).
#[test]
fn lone_packet_latency_single_switch() {
    for (bytes, latency_ns, speedup, want) in [
        // 64 B at 2 Gb/s = 256 ns, + 145 ns.
        (64u32, 0u32, 1.5, 401.0),
        // 2048 B = 8192 ns, + 145 ns; the crossbar waits for the tail whatever its speed.
        (2048, 0, 1.5, 8337.0),
        (2048, 0, 1.0, 8337.0),
        // + 2 links of 100 ns.
        (64, 100, 1.5, 601.0),
    ] {
        let mut doc = network(
            json!({"kind": "single_switch", "ports": 4}),
            &[(0.0005, poisson(fixed(bytes)), uniform())],
            json!({"kind": "fifo"}),
            json!({"kind": "fifo"}),
            (4096, 4096, 4096),
            json!({"rate_gbps": 2.0, "latency_ns": latency_ns}),
            // About 50 packets whatever their size.
            u64::from(bytes) * 300,
            3,
        );
        doc["model"]["switch"]["speedup"] = json!(speedup);
        let (results, audit, stored, peaks) = run(&doc);
        check_invariants(&results, audit, stored, peaks);
        // Each packet crosses two links (to the switch, to its destination).
        let hops = results.packet_hops.unwrap();
        assert!(
            2 * results.delivered <= hops && hops <= 2 * results.generated,
            "{hops} hops for {} delivered",
            results.delivered
        );
        let l = &results.classes[0].latency_ns;
        assert!(l.samples > 10, "{} samples", l.samples);
        assert_eq!(
            (l.min, l.max, l.mean),
            (Some(want), Some(want), Some(want)),
            "{bytes} B"
        );
    }
}

/// In the 64-end-point MIN a route crosses 1, 3 or 5 switches: 64 B packets alone in the
/// network take 256 + 145 = 401, 256 + 3 x 145 = 691 or 256 + 5 x 145 = 981 ns.
#[test]
fn lone_packet_latency_min() {
    let doc = network(
        min(64, 8),
        &[(0.00005, poisson(fixed(64)), uniform())],
        json!({"kind": "fifo"}),
        json!({"kind": "fifo"}),
        (16384, 16384, 32768),
        link(2.0),
        3_000,
        5,
    );
    let (results, audit, stored, peaks) = run(&doc);
    check_invariants(&results, audit, stored, peaks);
    let l = &results.classes[0].latency_ns;
    assert!(l.samples > 20, "{} samples", l.samples);
    assert_eq!(l.min, Some(401.0));
    assert_eq!(l.max, Some(981.0));
    // Every CDF step is one of the three path latencies (the histogram keeps 3 digits).
    for (v, _) in &l.cdf {
        assert!(
            [401.0, 691.0, 981.0]
                .iter()
                .any(|w| (v - w).abs() <= w * 0.001),
            "latency {v} ns is not a path latency"
        );
    }
    // 3 of the 63 destinations share the first switch; most routes cross 5 switches.
    let five = l
        .cdf
        .iter()
        .find(|p| (p.0 - 691.0).abs() < 1.0)
        .map_or(0.0, |p| p.1);
    assert!(five < 0.5, "fraction up to 3 switches {five}");
}

/// Throughput never exceeds the offered load; below saturation everything offered is
/// delivered (within the packets still in flight at the end).
#[test]
fn throughput_follows_offered_load() {
    for (load, topology) in [
        (0.4, min(64, 8)),
        (0.6, min(16, 8)),
        (0.7, json!({"kind": "single_switch", "ports": 8})),
    ] {
        let doc = network(
            topology.clone(),
            &[
                (load / 2.0, poisson(fixed(512)), uniform()),
                (
                    load / 2.0,
                    poisson(json!({"kind": "uniform", "min_bytes": 64, "max_bytes": 2048})),
                    uniform(),
                ),
            ],
            json!({"kind": "drr", "quanta_bytes": [2048, 2048]}),
            json!({"kind": "drr", "quanta_bytes": [2048, 2048]}),
            (16384, 16384, 32768),
            link(2.0),
            2_000,
            9,
        );
        let (results, audit, stored, peaks) = run(&doc);
        check_invariants(&results, audit, stored, peaks);
        let offered: f64 = results.classes.iter().map(|c| c.offered).sum();
        let delivered: f64 = results.classes.iter().map(|c| c.throughput).sum();
        assert!(
            (offered - load).abs() < 0.05 * load,
            "{topology}: offered {offered}"
        );
        assert!(
            delivered <= offered * 1.01,
            "{topology}: {delivered} > {offered}"
        );
        assert!(
            delivered >= offered * 0.97,
            "{topology}: {delivered} << {offered}"
        );
    }
    // Overload: 1.5 per end point offered, delivered at most the link rate per end point.
    let doc = network(
        json!({"kind": "single_switch", "ports": 4}),
        &[(1.5, poisson(fixed(1024)), uniform())],
        json!({"kind": "fifo"}),
        json!({"kind": "fifo"}),
        (4096, 4096, 4096),
        link(2.0),
        1_000,
        1,
    );
    let (results, audit, stored, peaks) = run(&doc);
    check_invariants(&results, audit, stored, peaks);
    let c = &results.classes[0];
    assert!(
        c.throughput <= 1.0 + 1e-9 && c.throughput > 0.8,
        "throughput {}",
        c.throughput
    );
    assert!(c.in_flight > 100, "the application queues grow");
}

/// Jitter of connections: one 20 Mb/s CBR connection per end point of a 4-port switch,
/// each to its bit-complement partner (no two share an output), nothing else: every
/// packet has the same latency, so every jitter sample is exactly 0. With Poisson
/// cross traffic of 2048 B packets through the same FIFO ports, the connections'
/// spacing changes: jitter appears, both signs, and its mean stays near 0.
#[test]
fn jitter_is_zero_on_a_quiet_path_and_grows_with_cross_traffic() {
    let cbr = json!({"kind": "cbr", "rate_bps": 20_000_000, "packet_bytes": 500});
    let partner = json!({"kind": "permutation", "pattern": "bit_complement"});
    let fifo = json!({"kind": "fifo"});
    let quiet = network(
        json!({"kind": "single_switch", "ports": 4}),
        &[(0.01, cbr.clone(), partner.clone())],
        fifo.clone(),
        fifo.clone(),
        (16384, 16384, 16384),
        link(2.0),
        2_000,
        1,
    );
    let (results, audit, stored, peaks) = run(&quiet);
    check_invariants(&results, audit, stored, peaks);
    let c = &results.classes[0];
    let n = c.connections.unwrap();
    // round(0.01 x 2 Gb/s / 20 Mb/s) = 1 connection per end point, all admitted.
    assert_eq!((n.requested, n.admitted, n.refused), (4, 4, 0));
    let j = c.jitter_ns.as_ref().unwrap();
    // 500 B every 200 us for 1.8 ms: about 8 samples per connection.
    assert!(j.samples >= 28, "{} samples", j.samples);
    assert_eq!(
        (j.min, j.max, j.mean_abs),
        (Some(0.0), Some(0.0), Some(0.0))
    );
    assert_eq!(c.latency_ns.min, c.latency_ns.max);

    let busy = network(
        json!({"kind": "single_switch", "ports": 4}),
        &[(0.01, cbr, partner), (0.6, poisson(fixed(2048)), uniform())],
        fifo.clone(),
        fifo,
        (16384, 16384, 16384),
        link(2.0),
        2_000,
        1,
    );
    let (results, audit, stored, peaks) = run(&busy);
    check_invariants(&results, audit, stored, peaks);
    let j = results.classes[0].jitter_ns.as_ref().unwrap();
    assert!(j.samples >= 28, "{} samples", j.samples);
    assert!(j.max.unwrap() > 1000.0 && j.min.unwrap() < -1000.0, "{j:?}");
    // Jitter telescopes: the mean is (last latency - first latency) / samples per
    // connection, small against the spread.
    assert!(j.mean.unwrap().abs() < j.mean_abs.unwrap(), "{j:?}");
    assert!(
        results.classes[1].jitter_ns.is_none(),
        "bursts have no jitter"
    );
}

/// Admission control on the route: a 4-port switch, 100 Mb/s CBR connections of 1000 B,
/// each class allowed 20% of every link (400 Mb/s = 4 connections). End points 0-2 send
/// all their 6 connections (load 0.3) to the hot end point 3, whose link admits 4 in all
/// (asked in rounds: 0, 1, 2 in round 0, then 0 in round 1); end point 3 spreads its 6
/// uniformly over 0-2 and its own link admits 4. So 24 requested, 8 admitted, 16 refused,
/// and the class delivers 8 x 100 Mb/s over 4 end points = 0.1 of the link each.
#[test]
fn admission_control_limits_connections_on_their_route() {
    let mut doc = network(
        json!({"kind": "single_switch", "ports": 4}),
        &[(
            0.3,
            json!({"kind": "cbr", "rate_bps": 100_000_000, "packet_bytes": 1000}),
            json!({"kind": "hot_spot", "endpoint": 3, "fraction": 1.0}),
        )],
        json!({"kind": "fifo"}),
        json!({"kind": "fifo"}),
        (16384, 16384, 16384),
        link(2.0),
        1_000,
        1,
    );
    doc["model"]["admission"] = json!({"qos_cap": 1.0, "reserved": [0.2]});
    let (results, audit, stored, peaks) = run(&doc);
    check_invariants(&results, audit, stored, peaks);
    let c = &results.classes[0];
    let n = c.connections.unwrap();
    assert_eq!((n.requested, n.admitted, n.refused), (24, 8, 16));
    assert!((c.offered - 0.1).abs() < 0.005, "offered {}", c.offered);
    assert!(
        (c.throughput - 0.1).abs() < 0.005,
        "throughput {}",
        c.throughput
    );
    // The QoS cap binds too: a cap of 10% leaves 2 connections per link.
    doc["model"]["admission"] = json!({"qos_cap": 0.1, "reserved": [0.2]});
    let n = run(&doc).0.classes[0].connections.unwrap();
    assert_eq!((n.admitted, n.refused), (4, 20));
    // Without admission control every connection is opened.
    doc["model"].as_object_mut().unwrap().remove("admission");
    let n = run(&doc).0.classes[0].connections.unwrap();
    assert_eq!((n.requested, n.admitted, n.refused), (24, 24, 0));
}

/// Same seed, same results (every number); another seed, other results.
#[test]
fn same_seed_same_results() {
    let doc: Value = serde_json::from_str(R2).unwrap();
    let mut short = doc.clone();
    short["duration_us"] = json!(200);
    short["warmup_us"] = json!(20);
    let a = run(&short).0.to_json_pretty();
    let b = run(&short).0.to_json_pretty();
    assert_eq!(a, b);
    short["seed"] = json!(2);
    assert_ne!(run(&short).0.to_json_pretty(), a);
}

/// The R2 network and traffic (MIN 64, CIOQ speedup 1.5, 145 ns, 2 Gb/s, 32/16/16 KiB per
/// class, NC bursts, VO and CL CBR connections, VI video, EE/BE/BK Bursts60, admission
/// control on VO, VI, CL; DRR with the test vector's quanta) for 1 ms at load 0.867 per
/// end point: every invariant holds; the QoS classes get what they offer (within 10%:
/// in 1 ms the packets still in flight at the end weigh a few percent); best-effort
/// Bursts60 classes, whose 60-packet bursts take long to drain, at least 60%;
/// admission control refuses some connections (links where the uniform destinations pile
/// up more than the class's reservation) but admits almost all.
#[test]
fn r2_network_for_one_millisecond() {
    let doc: Value = serde_json::from_str(R2).unwrap();
    assert_eq!(doc["duration_us"], json!(1000));
    let (results, audit, stored, peaks) = run(&doc);
    check_invariants(&results, audit, stored, peaks);
    assert_eq!(results.classes.len(), 7);
    for (i, c) in results.classes.iter().enumerate() {
        let best_effort = doc["model"]["classes"][i]["best_effort"] == json!(true);
        assert!(
            c.throughput <= c.offered * 1.05,
            "{}: {} > {}",
            c.name,
            c.throughput,
            c.offered
        );
        let least = if best_effort { 0.6 } else { 0.9 };
        assert!(
            c.throughput >= c.offered * least,
            "{}: {} << {}",
            c.name,
            c.throughput,
            c.offered
        );
        assert!(c.latency_ns.samples > 1000, "{}", c.name);
        let connection = ["VO", "VI", "CL"].contains(&c.name.as_str());
        assert_eq!(c.connections.is_some(), connection, "{}", c.name);
        assert_eq!(c.jitter_ns.is_some(), connection, "{}", c.name);
        if let Some(n) = c.connections {
            assert!(
                n.requested > 0 && n.refused * 50 < n.requested,
                "{}: {n:?}",
                c.name
            );
        }
    }
    // VO: round(0.046 x 2 Gb/s / 64 kb/s) = 1438 connections per end point.
    assert_eq!(results.classes[1].connections.unwrap().requested, 1438 * 64);
    // VI packets of one frame are spread over the frame time: jitter samples in 1 ms.
    assert!(results.classes[2].jitter_ns.as_ref().unwrap().samples > 0);
    let total: f64 = results.classes.iter().map(|c| c.offered).sum();
    assert!((total - 0.867).abs() < 0.03, "offered {total}");
    assert_eq!(results.scheduler.kind, "drr");
}

/// The InfiniBand-like demo preset (a 4-ary 2-tree, Valiant, DTable over three VLs,
/// shared buffers): every invariant holds, and below saturation every class, the QoS
/// ones first, gets the throughput it injects.
#[test]
fn infiniband_tree_demo_delivers_what_it_offers() {
    let doc: Value =
        serde_json::from_str(include_str!("../../../public/presets/ib-tree-demo.json")).unwrap();
    let (results, audit, stored, peaks) = run(&doc);
    check_invariants(&results, audit, stored, peaks);
    for c in &results.classes {
        assert!(
            (c.throughput - c.offered).abs() < 0.03 * c.offered,
            "{}: {} of {}",
            c.name,
            c.throughput,
            c.offered
        );
    }
}

/// The R3 preset of the 4-ary 3-tree with Omni-Path-like switches (MPort-local and
/// central paths, the study's DTable at every output by SL, SCs and VLs one per SL) at
/// half R3's reference load per class (the reference point, 0.8 of every link, saturates
/// the destinations its CBR connections happen to crowd), 100 us: every invariant holds,
/// and every SL, the QoS ones (NC, VO, VI, CL) within 3 %, gets the throughput it
/// injects.
#[test]
fn omnipath_r3_tree_gives_every_sl_what_it_injects() {
    let mut doc: Value = serde_json::from_str(include_str!(
        "../../../public/presets/r3-4ary3tree-opa.json"
    ))
    .unwrap();
    assert_eq!(doc["model"]["switch"]["kind"], json!("omnipath"));
    doc["duration_us"] = json!(100);
    for c in doc["model"]["classes"].as_array_mut().unwrap() {
        let load = c["traffic"]["load"].as_f64().unwrap();
        c["traffic"]["load"] = json!(load * 0.5);
    }
    let (results, audit, stored, peaks) = run(&doc);
    check_invariants(&results, audit, stored, peaks);
    let names: Vec<&str> = results.classes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["NC", "VO", "VI", "CL", "EE", "BE", "BK"]);
    for (sl, c) in results.classes.iter().enumerate() {
        let tolerance = if sl < 4 { 0.03 } else { 0.05 };
        assert!(
            (c.throughput - c.offered).abs() < tolerance * c.offered,
            "{}: {} of {}",
            c.name,
            c.throughput,
            c.offered
        );
        assert!(c.latency_ns.mean.unwrap() > 0.0, "{}", c.name);
    }
}

/// VLArb over the InfiniBand-like switch's VLs: every end point of the demo tree sends
/// control (in VLArb's high table, 0.02 of its link) and best effort (low table, 0.35) to
/// end point 0, whose link saturates. With a crossbar speedup of 1.5 the output buffer
/// fills and the output scheduler decides: VLArb gives control all it injects, with
/// little wait, while FIFO leaves it a share in proportion to what arrives. (At speedup
/// 1 the crossbar output is as slow as the link, the output buffer stays almost empty,
/// and the VL-blind switch allocation decides: `docs/modelling.md`.)
#[test]
fn vlarb_high_table_protects_its_vl_on_the_infiniband_switch() {
    let run_with = |scheduler: Value| {
        let mut doc: Value =
            serde_json::from_str(include_str!("../../../public/presets/ib-tree-demo.json"))
                .unwrap();
        doc["model"]["switch"]["speedup"] = json!(1.5);
        doc["model"]["switch_scheduler"] = scheduler.clone();
        doc["model"]["interface_scheduler"] = scheduler;
        doc["model"]["classes"][0]["traffic"]["load"] = json!(0.02);
        doc["model"]["classes"][1]["traffic"]["load"] = json!(0.0);
        for c in 0..3 {
            doc["model"]["classes"][c]["traffic"]["destinations"] =
                json!({"kind": "hot_spot", "endpoint": 0, "fraction": 1.0});
        }
        let (results, audit, stored, peaks) = run(&doc);
        check_invariants(&results, audit, stored, peaks);
        results.classes
    };
    let vlarb = run_with(json!({"kind": "iba", "high": [{"class": 0, "weight": 8}],
        "low": [{"class": 1, "weight": 32}, {"class": 2, "weight": 32}], "high_limit": 4}));
    let fifo = run_with(json!({"kind": "fifo"}));
    let (control, best) = (&vlarb[0], &vlarb[2]);
    assert!(
        (control.throughput - control.offered).abs() < 0.03 * control.offered,
        "{control:?}"
    );
    assert!(best.throughput < 0.5 * best.offered, "saturated: {best:?}");
    assert!(
        control.latency_ns.mean.unwrap() * 100.0 < best.latency_ns.mean.unwrap(),
        "{control:?} {best:?}"
    );
    assert!(
        fifo[0].throughput < 0.5 * fifo[0].offered,
        "FIFO does not protect it: {:?}",
        fifo[0]
    );
}
