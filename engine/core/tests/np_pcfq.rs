//! PCFQ and its separate-WFQ baseline on the network-processor node: the finish-tag,
//! virtual-time and prediction formulas against hand-computed values through the
//! scheduler contract; a flow leaves the backlogged set when its last packet is
//! dispatched; with equal, known costs the shares of CPU and link converge to the weights
//! (property test); conservation on the R6 presets; validation messages. The hand-made
//! queues (`Fake`) are shared with `np_dwcs.rs` in `common.rs`.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use proptest::prelude::*;
mod common;

use common::Fake;
use qoslab_core::np::contract::{Decision, NpScheduler, Processed, QueuedPacket};
use qoslab_core::np::dwcs::Window;
use qoslab_core::np::fair_dispatch::FairFlow;
use qoslab_core::np::pcfq::Pcfq;
use qoslab_core::np::predict::{CostScaling, PcfqConfig};
use qoslab_core::np::separate_wfq::SeparateWfq;
use qoslab_core::time::SimTime;
use qoslab_core::{Run, scenario};
use serde_json::{Value, json};

fn us(t: u64) -> SimTime {
    SimTime::from_us(t)
}

fn arrive(q: &mut Fake, sched: &mut dyn NpScheduler, at: u64, s: u32, bytes: u32) {
    q.0[s as usize].push(QueuedPacket {
        deadline: us(at + 1000),
        arrival: us(at),
        bytes,
    });
    sched.on_arrival(us(at), s, q);
}

fn dispatch(q: &mut Fake, sched: &mut dyn NpScheduler, at: u64) -> u32 {
    let Decision::Send(s) = sched.decide(us(at), true, q) else {
        panic!("expected a send at {at} us");
    };
    q.0[s as usize].remove(0);
    sched.applied(us(at), Decision::Send(s), q);
    s
}

fn cfg() -> PcfqConfig {
    PcfqConfig {
        alpha: 0.4,
        initial_prediction_cycles: 1200.0,
        scaling: CostScaling::Header,
    }
}

fn flows(w: &[(f64, f64)]) -> Vec<FairFlow> {
    w.iter()
        .map(|&(phi_cpu, phi_bw)| FairFlow {
            phi_cpu,
            phi_bw,
            window: Window::new(0, 1),
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-15 + 1e-12 * b.abs()
}

/// 4 engines at 600 MHz (2.4e9 cycles/s), a 50 Mb/s link, PP = 1200 cycles to start.
#[test]
fn pcfq_tags_virtual_time_and_prediction_by_hand() {
    let mut p = Pcfq::new(cfg(), &flows(&[(1.0, 1.0), (2.0, 2.0)]), 2.4e9, 5.0e7);
    let mut q = Fake(vec![Vec::new(), Vec::new()]);
    // t = 0, flow 0, 50 B: V = 0, S = 0, EP / phi_cpu = 1200 / 2.4e9 = 5e-7 s,
    // 8 L / (BW phi_bw) = 400 / 5e7 = 8e-6 s: F = 8.5e-6. sum_w = 2.
    arrive(&mut q, &mut p, 0, 0, 50);
    let h = p.dispatch.head(0).unwrap();
    assert!(close(h.start, 0.0) && close(h.finish, 8.5e-6), "{h:?}");
    assert_eq!(p.dispatch.clock.sum_w(), 2.0);
    // t = 10 us, flow 1, 100 B: V = 10e-6 / 2 = 5e-6 = S; 1200 / 2.4e9 / 2 = 2.5e-7,
    // 800 / 5e7 / 2 = 8e-6: F = 1.325e-5. sum_w = 2 + 4 = 6.
    arrive(&mut q, &mut p, 10, 1, 100);
    let h = p.dispatch.head(1).unwrap();
    assert!(close(p.dispatch.clock.v(), 5.0e-6));
    assert!(close(h.start, 5.0e-6) && close(h.finish, 1.325e-5), "{h:?}");
    assert_eq!(p.dispatch.clock.sum_w(), 6.0);
    // t = 16 us, flow 0 again, 50 B: V = 5e-6 + 6e-6 / 6 = 6e-6 < F_prev = 8.5e-6, so
    // S = 8.5e-6 and F = 8.5e-6 + 8.5e-6 = 1.7e-5.
    arrive(&mut q, &mut p, 16, 0, 50);
    assert!(close(p.dispatch.clock.v(), 6.0e-6));
    assert!(close(p.dispatch.last_finish(0), 1.7e-5));
    // Smallest F first: flow 0 (8.5e-6), then flow 1 (1.325e-5), then flow 0 (1.7e-5).
    assert_eq!(dispatch(&mut q, &mut p, 18), 0);
    assert!(p.dispatch.backlogged(0), "flow 0 still has a packet queued");
    assert_eq!(dispatch(&mut q, &mut p, 20), 1);
    // Flow 1's last packet went to an engine: it leaves the backlogged set at 20 us
    // (V = 6e-6 + 4e-6 / 6), and sum_w drops back to 2.
    assert!(!p.dispatch.backlogged(1));
    assert!(close(p.dispatch.clock.v(), 6.0e-6 + 4.0e-6 / 6.0));
    assert_eq!(p.dispatch.clock.sum_w(), 2.0);
    // Processing flow 0's first packet showed 3000 cycles: PP = 0.4 x 3000 + 0.6 x 1200.
    p.served(
        us(21),
        Processed {
            stream: 0,
            cycles: 3000,
            bytes_in: 50,
            bytes_out: 50,
        },
    );
    assert!(close(p.predicted_cycles(0).unwrap(), 1920.0));
    assert!(
        p.dispatch.backlogged(0),
        "processing does not take a flow out"
    );
    // No engine free: nothing is dispatched.
    assert_eq!(p.decide(us(22), false, &q), Decision::Idle);
    assert_eq!(dispatch(&mut q, &mut p, 22), 0);
    assert!(!p.dispatch.backlogged(0));
    // Empty set: V jumps to the largest finish tag given (1.7e-5).
    assert!(close(p.dispatch.clock.v(), 1.7e-5));
    assert_eq!(p.decide(us(23), true, &q), Decision::Idle);
    assert_eq!(p.fault(), None);
}

#[test]
fn separate_wfq_tags_by_hand() {
    let mut w = SeparateWfq::new(cfg(), &flows(&[(1.0, 1.0), (2.0, 2.0)]), 2.4e9, 5.0e7);
    let mut q = Fake(vec![Vec::new(), Vec::new()]);
    // CPU side: weights phi_cpu only. Flow 0 at 0: F = 1200 / 2.4e9 = 5e-7.
    arrive(&mut q, &mut w, 0, 0, 50);
    assert!(close(w.cpu.head(0).unwrap().finish, 5.0e-7));
    // Flow 1 at 1 us: V = 1e-6 / 1 = 1e-6; F = 1e-6 + 1200 / 2.4e9 / 2 = 1.25e-6.
    arrive(&mut q, &mut w, 1, 1, 100);
    assert!(close(w.cpu.head(1).unwrap().finish, 1.25e-6));
    // Link side: flow 0's 100 B at 2 us: F = 800 / 5e7 / 1 = 1.6e-5; flow 1's 100 B at
    // 2 us: V still 0 + 0 (one flow, no time passed) -> F = 800 / 5e7 / 2 = 8e-6.
    let f0 = w.transmit_key(us(2), 0, 100).unwrap();
    let f1 = w.transmit_key(us(2), 1, 100).unwrap();
    assert!(close(f0, 1.6e-5) && close(f1, 8.0e-6), "{f0} {f1}");
    // At 4 us: V_bw = 2e-6 / 3; flow 1's next 100 B: S = max(8e-6, V) = 8e-6, F = 1.6e-5.
    let f1b = w.transmit_key(us(4), 1, 100).unwrap();
    assert!(close(w.link_clock.v(), 2.0e-6 / 3.0));
    assert!(close(f1b, 1.6e-5));
    // Flow 1 leaves the link set when its last packet there starts on the link.
    w.transmitting(us(5), 1);
    assert_eq!(w.link_clock.members(), 2);
    w.transmitting(us(6), 1);
    assert_eq!(w.link_clock.members(), 1);
    assert_eq!(w.link_clock.sum_w(), 1.0);
}

/// A node of flows with fixed, known costs (the prediction starts at the true cycles and
/// `alpha` = 1), every flow offering twice the bottleneck alone.
fn known_cost_node(
    kind: &str,
    weights: &[f64],
    cycles: u32,
    bytes: u32,
    fifo: u32,
    seed: u64,
) -> Value {
    let link_s = 8.0 * f64::from(bytes) / 5.0e7;
    let cpu_s = f64::from(cycles) / (600.0e6 * 2.0);
    let period_us = link_s.max(cpu_s) * 1.0e6 / 2.0;
    let streams: Vec<Value> = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            json!({"name": format!("f{i}"), "count": 1, "period_us": period_us,
                "window": {"kind": "fixed", "x": 0, "y": 1}, "droppable": false,
                "arrivals": "constant", "size": {"kind": "fixed", "bytes": bytes},
                "processing_cycles": cycles, "queue_packets": 64,
                "weight_cpu": w, "weight_bw": w})
        })
        .collect();
    json!({"version": 1, "name": "shares", "seed": seed, "duration_us": 40000, "warmup_us": 0,
        "model": {"kind": "network_processor", "link": {"rate_gbps": 0.05},
            "server": {"kind": "engines", "count": 2, "transmit_fifo_packets": fifo},
            "processor": {"clock_mhz": 600, "scratchpad_cycles": 4},
            "streams": streams,
            "scheduler": {"kind": kind, "alpha": 1.0,
                "initial_prediction_cycles": cycles}}})
}

fn run_audited(doc: &Value) -> Value {
    let mut run = Run::from_json(&doc.to_string()).unwrap();
    while !run.advance(5_000) {
        assert_eq!(run.network_processor().unwrap().audit(), Ok(()));
    }
    assert_eq!(run.network_processor().unwrap().audit(), Ok(()));
    serde_json::to_value(run.results()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Equal, known costs, every flow backlogged: each flow's share of the packets
    /// dispatched (so of the CPU cycles and of the link bytes) converges to its weight's
    /// share, whether the link (small transmit FIFO) or the CPU is the bottleneck.
    #[test]
    fn pcfq_shares_converge_to_the_weights(
        weights in proptest::collection::vec(1u32..=5, 2..=5),
        cycles in prop_oneof![100u32..400, 20_000u32..40_000],
        bytes in 40u32..200,
        seed in 1u64..1000,
    ) {
        let w: Vec<f64> = weights.iter().map(|&x| f64::from(x)).collect();
        let r = run_audited(&known_cost_node("pcfq", &w, cycles, bytes, 1, seed));
        let np = &r["network_processor"];
        let sent: Vec<f64> = np["per_stream"].as_array().unwrap().iter()
            .map(|s| s["sent"].as_f64().unwrap()).collect();
        let processed: Vec<f64> = np["processing"].as_array().unwrap().iter()
            .map(|s| s["processed"].as_f64().unwrap()).collect();
        let total: f64 = sent.iter().sum();
        let wsum: f64 = w.iter().sum();
        prop_assert!(total > 300.0, "only {total} packets");
        for i in 0..w.len() {
            let share = sent[i] / total;
            let want = w[i] / wsum;
            prop_assert!((share - want).abs() < 0.02,
                "flow {i}: share {share:.4} of the dispatches, weight share {want:.4} ({sent:?})");
            // CPU share: cycles processed are cycles x packets processed.
            let cpu = processed[i] / processed.iter().sum::<f64>();
            prop_assert!((cpu - want).abs() < 0.02, "flow {i}: CPU share {cpu:.4}, want {want:.4}");
        }
        // Link share: bytes delivered per class.
        let thr: Vec<f64> = r["classes"].as_array().unwrap().iter()
            .map(|c| c["throughput"].as_f64().unwrap()).collect();
        let tsum: f64 = thr.iter().sum();
        for i in 0..w.len() {
            prop_assert!((thr[i] / tsum - w[i] / wsum).abs() < 0.02,
                "flow {i}: link share {:.4}, want {:.4}", thr[i] / tsum, w[i] / wsum);
        }
    }
}

fn preset(name: &str, duration_us: u64) -> Value {
    let path = format!(
        "{}/../../public/presets/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["duration_us"] = duration_us.into();
    doc["warmup_us"] = (duration_us / 10).into();
    doc
}

/// generated = sent + dropped + lost + queued, sent = delivered + in processing, in the
/// transmit queue or on the link; the cycles observed lie in each category's range and
/// the predictions between them.
#[test]
fn r6_presets_conserve_packets_and_observe_costs() {
    for name in ["r6-pcfq", "r6-wfq"] {
        let doc = preset(name, 60_000);
        let mut run = Run::from_json(&doc.to_string()).unwrap();
        while !run.advance(4_000) {
            let node = run.network_processor().unwrap();
            assert_eq!(node.audit(), Ok(()), "{name}");
        }
        let node = run.network_processor().unwrap();
        assert_eq!(node.audit(), Ok(()));
        let held = node.queued() + node.in_service();
        let r = run.results();
        let np = r.network_processor.as_ref().unwrap();
        assert_eq!(
            np.generated,
            np.sent + np.dropped_late + np.lost_full + np.queued,
            "{name}"
        );
        assert_eq!(r.generated, r.delivered + held, "{name}");
        assert!(np.generated > 3000);
        let groups = &doc["model"]["streams"];
        for p in np.processing.as_ref().unwrap() {
            let g = groups
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["name"] == p.group.as_str())
                .unwrap();
            let (lo, hi) = (
                g["processing_cycles"].as_u64().unwrap(),
                g["processing_cycles_max"].as_u64().unwrap(),
            );
            assert!(p.cycles_min.unwrap() >= lo && p.cycles_max.unwrap() <= hi);
            let pp = p.predicted_cycles.unwrap();
            assert!(
                pp >= lo as f64 * 0.99 && pp <= hi as f64 * 1.01,
                "{pp} in {lo}..{hi}"
            );
        }
        for c in &r.classes {
            assert!(c.latency_std_ns.is_some(), "{name}: {}", c.name);
            let series = c.delay_series.as_ref().unwrap();
            assert!(!series.points.is_empty() && series.points.len() <= 1024);
        }
    }
}

#[test]
fn bad_fair_settings_name_their_field() {
    let mut doc = preset("r6-pcfq", 10_000);
    doc["model"]["server"] = json!({"kind": "link"});
    doc["model"]["scheduler"]["alpha"] = json!(0.0);
    doc["model"]["streams"][1]["processing_cycles_max"] = json!(10);
    doc["model"]["streams"][2]["weight_bw"] = json!(-1.0);
    doc["model"]["streams"][3]["output_ratio"] = json!(100.0);
    let err = scenario::parse(&doc.to_string()).unwrap_err().to_string();
    for path in [
        "model.server",
        "model.scheduler.alpha",
        "model.streams[1].processing_cycles_max",
        "model.streams[2].weight_bw",
        "model.streams[3].output_ratio",
    ] {
        assert!(err.contains(path), "{path} missing from: {err}");
    }
}

/// A changed output length goes onto the link, and PCFQ learns it (lambda): a flow whose
/// packets leave at half their length gets about twice the packets through, so the link's
/// bytes stay shared equally between two flows of equal weights.
#[test]
fn output_ratio_changes_what_the_link_carries() {
    let mut doc = known_cost_node("pcfq", &[1.0, 1.0], 200, 100, 1, 3);
    doc["model"]["streams"][0]["output_ratio"] = json!(0.5);
    let r = run_audited(&doc);
    let thr = |i: usize| r["classes"][i]["throughput"].as_f64().unwrap();
    let sent = |i: usize| {
        r["network_processor"]["per_stream"][i]["sent"]
            .as_f64()
            .unwrap()
    };
    let share = thr(0) / (thr(0) + thr(1));
    assert!((share - 0.5).abs() < 0.03, "link share of flow 0: {share}");
    assert!(sent(0) > 1.8 * sent(1), "{} vs {}", sent(0), sent(1));
}

/// The decision trace explains each PCFQ dispatch: the chosen flow is the candidate with
/// the smallest finish tag, the words give V, the tag's terms, the predicted and the actual
/// cost, and the engines and the link.
#[test]
fn pcfq_decisions_are_explained_in_words() {
    let doc = preset("r6-pcfq", 20_000);
    let s = scenario::parse(&doc.to_string()).unwrap();
    let t = qoslab_core::np::trace::trace(s, 40, 2000).unwrap();
    assert_eq!(t.scheduler, "pcfq");
    assert_eq!(t.steps.len(), 40);
    assert_eq!(t.engines, 4);
    for step in &t.steps {
        let e = step.explanation.as_ref().unwrap();
        assert_eq!(e.candidates[0].stream, step.stream, "step {}", step.step);
        assert!(e.candidates.windows(2).all(|w| w[0].key <= w[1].key));
        for needle in [
            "PCFQ",
            "finish tag",
            "V = ",
            "EP/φ_cpu",
            "8·L·λ/(BW·φ_bw)",
            "actual cost",
            "transmit queue",
        ] {
            assert!(
                step.words.contains(needle),
                "{needle} missing: {}",
                step.words
            );
        }
        assert!(step.time_ns >= 2.0e6);
        let cat = &t.streams[step.stream as usize].group;
        let (lo, hi) = if cat.starts_with("high CPU") {
            (2400, 3600)
        } else if cat.starts_with("low CPU") {
            (78, 134)
        } else {
            (1200, 1800)
        };
        assert!(
            (lo..=hi).contains(&step.actual_cycles),
            "{cat}: {}",
            step.actual_cycles
        );
        assert!(step.predicted_cycles.is_some());
        assert!(step.engines_busy >= 1 && step.engines_busy <= 4);
    }
    // The baseline explains itself too, as the CPU side.
    let doc = preset("r6-wfq", 20_000);
    let t =
        qoslab_core::np::trace::trace(scenario::parse(&doc.to_string()).unwrap(), 5, 0).unwrap();
    assert!(
        t.steps
            .iter()
            .all(|s| s.words.contains("Separate WFQ (CPU side)"))
    );
}
