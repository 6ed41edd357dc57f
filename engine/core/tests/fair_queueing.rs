//! Fair-queueing schedulers (DRR, SCFQ, WFQ, WF2Q+, SFQ, and DTable for comparison):
//! long-run bandwidth shares through the real link lab, and properties of every
//! scheduler over random inputs on a hand-driven port (work conservation, only active
//! classes chosen, tags never decreasing within a class, virtual-time rules).

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use std::collections::VecDeque;

use proptest::prelude::*;
use qoslab_core::Run;
use qoslab_core::scenario::{DrrConfig, FairQueueingConfig, SchedulerConfig};
use qoslab_core::schedulers::{self, Head, PortSetup, PortView, Scheduler};
use qoslab_core::time::{BitRate, SimTime};
use serde_json::{Value, json};

const SHARES: [f64; 4] = [0.1, 0.2, 0.3, 0.4];

/// Four classes offered 0.5 of the link each (total 2.0), random sizes, a downstream that
/// never blocks (drains at link rate, large buffers).
fn overloaded(scheduler: Value, size: Value, duration_us: u64) -> String {
    json!({
        "version": 1,
        "name": "shares",
        "seed": 7,
        "duration_us": duration_us,
        "warmup_us": duration_us / 10,
        "model": {
            "kind": "link_lab",
            "link": {"rate_gbps": 10.0},
            "downstream": {"buffer_bytes": 1 << 20, "drain_rate_gbps": 10.0},
            "classes": (0..4).map(|i| json!({
                "name": format!("C{i}"),
                "traffic": {"load": 0.5, "arrivals": {"kind": "poisson"}, "size": size}
            })).collect::<Vec<_>>(),
            "scheduler": scheduler
        }
    })
    .to_string()
}

fn uniform() -> Value {
    json!({"kind": "uniform", "min_bytes": 64, "max_bytes": 2048})
}

fn pareto() -> Value {
    json!({"kind": "pareto", "min_bytes": 64, "max_bytes": 2048, "shape": 1.2})
}

/// Every scheduler under test, configured for the shares 0.1 : 0.2 : 0.3 : 0.4.
fn share_schedulers() -> Vec<(&'static str, Value)> {
    let weights = json!(SHARES);
    vec![
        (
            "dtable",
            // Entry weights >= the MTU in credits (2048 B = 32 credits).
            json!({"kind": "dtable", "table": (0..4).map(|c| json!({"class": c, "weight": 32 * (c + 1)})).collect::<Vec<_>>()}),
        ),
        (
            "drr",
            // The smallest share gets one MTU, the others proportionally.
            json!({"kind": "drr", "quanta_bytes": [2048, 4096, 6144, 8192]}),
        ),
        ("scfq", json!({"kind": "scfq", "weights": weights})),
        ("wfq", json!({"kind": "wfq", "weights": weights})),
        (
            "wf2q_plus",
            json!({"kind": "wf2q_plus", "weights": weights}),
        ),
        ("sfq", json!({"kind": "sfq", "weights": weights})),
    ]
}

fn check_shares(name: &str, scheduler: Value, size: Value) {
    // 10 Gb/s for 12 ms: about 14 000 packets of 1 KiB on average.
    let mut run = Run::from_json(&overloaded(scheduler, size, 12_000)).unwrap();
    run.run_to_end();
    let lab = run.link_lab().unwrap();
    let audit = lab.audit();
    assert_eq!(
        audit.idle_with_active_class, 0,
        "{name}: not work conserving"
    );
    assert_eq!(audit.credit_violations, 0, "{name}");
    let r = run.results();
    let total: f64 = r.classes.iter().map(|c| c.throughput).sum();
    assert!(total > 0.99, "{name}: link not saturated ({total})");
    for (c, share) in r.classes.iter().zip(SHARES) {
        assert!(
            c.offered > share + 0.05,
            "{name}: class {} not overloaded",
            c.name
        );
        assert!(
            (c.throughput - share).abs() < 0.01,
            "{name}: class {} got {:.4} of the link, configured {share}",
            c.name,
            c.throughput
        );
    }
    assert_eq!(r.scheduler.kind, name);
    assert!(
        r.scheduler.cost.decisions > 10_000,
        "{name}: {:?}",
        r.scheduler.cost
    );
}

#[test]
fn long_run_shares_uniform_sizes() {
    for (name, scheduler) in share_schedulers() {
        check_shares(name, scheduler, uniform());
    }
}

#[test]
fn long_run_shares_pareto_sizes() {
    for (name, scheduler) in share_schedulers() {
        check_shares(name, scheduler, pareto());
    }
}

/// Virtual-time schedulers report their counters and registers through a real run.
#[test]
fn cost_counters_are_filled() {
    for (name, scheduler) in share_schedulers().into_iter().skip(1) {
        let mut run = Run::from_json(&overloaded(scheduler, uniform(), 500)).unwrap();
        run.run_to_end();
        let cost = run.results().scheduler.cost;
        assert!(cost.decisions > 0, "{name}");
        if name == "drr" {
            assert!(cost.classes_examined >= cost.decisions, "{name}: {cost:?}");
        } else {
            assert!(cost.heap_operations >= cost.decisions, "{name}: {cost:?}");
            assert!(cost.tag_computations >= cost.decisions, "{name}: {cost:?}");
        }
        let regs = run.link_lab().unwrap().scheduler_registers();
        assert!(regs.selected.is_some(), "{name}");
        if name == "drr" {
            assert_eq!(regs.deficit.as_ref().map(Vec::len), Some(4));
        } else {
            assert!(regs.virtual_time.is_some(), "{name}");
            assert_eq!(regs.finish_tags.as_ref().map(Vec::len), Some(4), "{name}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Properties on a hand-driven port.

/// A port driven by the test: queues of (id, bytes) and free credits per class.
struct TestPort {
    queues: Vec<VecDeque<(u64, u32)>>,
    free: Vec<u32>,
    next_id: u64,
}

impl PortView for TestPort {
    fn class_count(&self) -> usize {
        self.queues.len()
    }
    fn head(&self, class: usize) -> Option<Head> {
        self.queues[class].front().map(|&(id, bytes)| Head {
            id,
            bytes,
            credits: bytes.div_ceil(64),
            created: SimTime::ZERO,
        })
    }
    fn free_credits(&self, class: usize) -> u32 {
        self.free[class]
    }
}

#[derive(Clone, Debug)]
enum Op {
    /// A packet of `bytes` joins `class`.
    Arrive(usize, u32),
    /// The link frees: one decision.
    Send,
    /// `credits` return to `class`.
    Credits(usize, u32),
}

fn op_strategy(classes: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..classes, 1u32..=4096).prop_map(|(c, b)| Op::Arrive(c, b)),
        4 => Just(Op::Send),
        1 => (0..classes, 1u32..=64).prop_map(|(c, n)| Op::Credits(c, n)),
    ]
}

#[derive(Clone, Debug)]
struct Case {
    config: SchedulerConfig,
    initial_credits: Vec<u32>,
    ops: Vec<Op>,
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (1usize..=6)
        .prop_flat_map(|n| {
            let config = prop_oneof![
                proptest::collection::vec(1u32..=10_000, n)
                    .prop_map(|quanta_bytes| SchedulerConfig::Drr(DrrConfig { quanta_bytes })),
                weights(n)
                    .prop_map(|weights| SchedulerConfig::Scfq(FairQueueingConfig { weights })),
                weights(n).prop_map(|weights| SchedulerConfig::Wfq(FairQueueingConfig { weights })),
                weights(n)
                    .prop_map(|weights| SchedulerConfig::Wf2qPlus(FairQueueingConfig { weights })),
                weights(n).prop_map(|weights| SchedulerConfig::Sfq(FairQueueingConfig { weights })),
            ];
            (
                config,
                proptest::collection::vec(0u32..=128, n),
                proptest::collection::vec(op_strategy(n), 1..300),
            )
        })
        .prop_map(|(config, initial_credits, ops)| Case {
            config,
            initial_credits,
            ops,
        })
}

fn weights(n: usize) -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(prop_oneof![0.001f64..1.0, 1.0f64..1000.0, Just(1.0)], n)
}

fn run_case(case: &Case) -> Result<(), TestCaseError> {
    let n = case.initial_credits.len();
    let link = BitRate::from_gbps(2.0).unwrap();
    let mut s: Box<dyn Scheduler> = schedulers::build(&case.config, PortSetup { classes: n, link });
    let kind = case.config.kind();
    let mut port = TestPort {
        queues: vec![VecDeque::new(); n],
        free: case.initial_credits.clone(),
        next_id: 0,
    };
    // Last (start, finish) tags served per class since the system last emptied.
    let mut last_tags: Vec<(f64, f64)> = vec![(f64::NEG_INFINITY, f64::NEG_INFINITY); n];
    let mut decisions = 0u64;
    let mut now = 0u64;
    let max_bytes = 4096i64;
    for op in &case.ops {
        // Time moves on by one 2 KiB packet per operation.
        now += 8_192_000;
        let t = SimTime(now);
        match *op {
            Op::Arrive(c, bytes) => {
                port.queues[c].push_back((port.next_id, bytes));
                port.next_id += 1;
                s.on_enqueue(t, c, bytes, &port);
            }
            Op::Credits(c, k) => port.free[c] = port.free[c].saturating_add(k),
            Op::Send => {
                let any_active = (0..n).any(|c| port.is_active(c));
                let before = s.registers();
                let choice = s.select(t, &port);
                prop_assert_eq!(choice.is_some(), any_active, "{}: work conservation", kind);
                let Some(c) = choice else { continue };
                prop_assert!(port.is_active(c), "{}: chose inactive class {}", kind, c);
                decisions += 1;
                let during = s.registers();
                if let Some(finish) = before.finish_tags.as_ref() {
                    let f = finish[c].unwrap_or(f64::NAN);
                    prop_assert!(
                        f.is_finite() && f >= 0.0,
                        "{}: head tag {:?}",
                        kind,
                        finish[c]
                    );
                    let s_tag = before
                        .start_tags
                        .as_ref()
                        .and_then(|st| st[c])
                        .unwrap_or(f64::NEG_INFINITY);
                    prop_assert!(f >= last_tags[c].1, "{}: finish tags decrease", kind);
                    prop_assert!(s_tag >= last_tags[c].0, "{}: start tags decrease", kind);
                    prop_assert!(s_tag <= f, "{}: start after finish", kind);
                    last_tags[c] = (s_tag, f);
                    let v = during.virtual_time.unwrap();
                    match kind {
                        "scfq" => prop_assert_eq!(v, f, "SCFQ: v = finish tag in service"),
                        "sfq" => prop_assert_eq!(v, s_tag, "SFQ: v = start tag in service"),
                        "wf2q_plus" => {
                            prop_assert!(s_tag <= v, "WF2Q+: sent before eligible")
                        }
                        _ => {}
                    }
                }
                let head = port.queues[c].pop_front().unwrap();
                port.free[c] -= head.1.div_ceil(64);
                s.after_send(t, c, &port);
                if let Some(deficit) = s.registers().deficit {
                    let SchedulerConfig::Drr(d) = &case.config else {
                        unreachable!()
                    };
                    for (i, &dc) in deficit.iter().enumerate() {
                        let bound = 2 * i64::from(d.quanta_bytes[i]) + max_bytes;
                        prop_assert!((0..=bound).contains(&dc), "DRR deficit {} of {}", dc, i);
                        if port.queues[i].is_empty() {
                            prop_assert_eq!(dc, 0, "DRR: empty queue keeps a deficit");
                        }
                    }
                }
                if port.queues.iter().all(VecDeque::is_empty) {
                    // The system empties: tags may restart.
                    last_tags.fill((f64::NEG_INFINITY, f64::NEG_INFINITY));
                }
            }
        }
        let regs = s.registers();
        for tags in [&regs.finish_tags, &regs.start_tags].into_iter().flatten() {
            for (c, tag) in tags.iter().enumerate() {
                prop_assert_eq!(
                    tag.is_some(),
                    !port.queues[c].is_empty(),
                    "{}: head tags",
                    kind
                );
            }
        }
    }
    prop_assert_eq!(s.cost().decisions, decisions);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn schedulers_are_work_conserving_and_monotone(case in case_strategy()) {
        run_case(&case)?;
    }
}

/// The classic WF2Q example (Bennett and Zhang): class 0 has share 1/2 and 10 packets,
/// classes 1..=10 share the other half and have one packet each, all of the same size
/// and all queued at time 0. WFQ tags class 0's packets L/0.5 = 2L, 4L, ..., 20L and every
/// other packet L/0.05 = 20L, so it sends 9 packets of class 0 back to back first; WF2Q+ only sends a
/// packet whose virtual start has been reached, so class 0 alternates with the others.
#[test]
fn wf2q_plus_interleaves_where_wfq_bursts() {
    let mut weights = vec![10.0];
    weights.extend([1.0; 10]);
    let order = |config: SchedulerConfig| -> Vec<usize> {
        let link = BitRate::from_gbps(2.0).unwrap();
        let mut s = schedulers::build(&config, PortSetup { classes: 11, link });
        let mut port = TestPort {
            queues: vec![VecDeque::new(); 11],
            free: vec![1000; 11],
            next_id: 0,
        };
        let arrive = |port: &mut TestPort, s: &mut Box<dyn Scheduler>, c: usize| {
            port.queues[c].push_back((port.next_id, 64));
            port.next_id += 1;
            s.on_enqueue(SimTime::ZERO, c, 64, port);
        };
        for _ in 0..10 {
            arrive(&mut port, &mut s, 0);
        }
        for c in 1..=10 {
            arrive(&mut port, &mut s, c);
        }
        let mut sent = Vec::new();
        let mut now = SimTime::ZERO;
        while let Some(c) = s.select(now, &port) {
            port.queues[c].pop_front();
            s.after_send(now, c, &port);
            sent.push(c);
            now = now + link.transmission_time(64);
        }
        sent
    };
    let longest_burst = |sent: &[usize]| {
        sent.chunk_by(|a, b| a == b && *a == 0)
            .filter(|run| run[0] == 0)
            .map(<[usize]>::len)
            .max()
            .unwrap_or(0)
    };
    let wfq = order(SchedulerConfig::Wfq(FairQueueingConfig {
        weights: weights.clone(),
    }));
    let wf2q = order(SchedulerConfig::Wf2qPlus(FairQueueingConfig { weights }));
    assert_eq!(wfq.len(), 20);
    assert_eq!(wf2q.len(), 20);
    assert_eq!(&wfq[..9], &[0; 9], "WFQ bursts class 0: {wfq:?}");
    // (The 10th packet ties at 20L with the others; rounding of the shares decides.)
    assert!(longest_burst(&wfq) >= 9, "{wfq:?}");
    // WF2Q+: 0, 1, 0, 2, 0, 3, ... class 0 never twice in a row while others wait.
    assert_eq!(longest_burst(&wf2q[..19]), 1, "{wf2q:?}");
    assert_eq!(
        &wf2q[..6],
        &[0, 1, 0, 2, 0, 3],
        "WF2Q+ interleaves: {wf2q:?}"
    );
}

/// Random link-lab scenarios with small buffers, slow drains and credit delays, so heads
/// are often blocked by credits: through the real port, every fair-queueing scheduler
/// stays work conserving and never sends without credits.
fn blocking_scenario() -> impl Strategy<Value = Value> {
    let class = (
        1u32..=2048,
        0u32..=2048,
        0.05f64..0.9,
        prop_oneof![Just(None), (0.2f64..4.0).prop_map(Some)],
    );
    (
        proptest::collection::vec(class, 1..=5),
        0usize..5,
        1u32..=3,
        0u32..2000,
        any::<u64>(),
        proptest::collection::vec(0.01f64..10.0, 5),
        proptest::collection::vec(1u32..=8192, 5),
    )
        .prop_map(
            |(classes, kind, buffer_mtus, credit_delay_ns, seed, weights, quanta)| {
                let n = classes.len();
                let max_mtu = classes.iter().map(|c| c.0 + c.1).max().unwrap_or(64);
                let scheduler = match kind {
                    0 => json!({"kind": "drr", "quanta_bytes": &quanta[..n]}),
                    1 => json!({"kind": "scfq", "weights": &weights[..n]}),
                    2 => json!({"kind": "wfq", "weights": &weights[..n]}),
                    3 => json!({"kind": "wf2q_plus", "weights": &weights[..n]}),
                    _ => json!({"kind": "sfq", "weights": &weights[..n]}),
                };
                json!({
                    "version": 1,
                    "name": "blocking",
                    "seed": seed >> 11,
                    "duration_us": 200,
                    "warmup_us": 20,
                    "model": {
                        "kind": "link_lab",
                        "link": {"rate_gbps": 2.0},
                        "downstream": {
                            "buffer_bytes": max_mtu.div_ceil(64) * 64 * buffer_mtus,
                            "drain_rate_gbps": 1.0,
                            "credit_delay_ns": credit_delay_ns
                        },
                        "classes": classes.iter().enumerate().map(|(i, (lo, extra, load, drain))| {
                            let mut class = json!({
                                "name": format!("C{i}"),
                                "traffic": {
                                    "load": load,
                                    "arrivals": {"kind": "poisson"},
                                    "size": {"kind": "uniform", "min_bytes": lo, "max_bytes": lo + extra}
                                }
                            });
                            if let Some(d) = drain {
                                class["drain_rate_gbps"] = json!(d);
                            }
                            class
                        }).collect::<Vec<_>>(),
                        "scheduler": scheduler
                    }
                })
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn real_port_with_credit_blocking(doc in blocking_scenario()) {
        let mut run = Run::from_json(&doc.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        run.run_to_end();
        let lab = run.link_lab().unwrap();
        let audit = lab.audit();
        prop_assert_eq!(audit.idle_with_active_class, 0, "link idle while a class was active");
        prop_assert_eq!(audit.credit_violations, 0);
        prop_assert_eq!(audit.buffer_overflows, 0);
        prop_assert_eq!(audit.fifo_violations, 0);
        let r = run.results();
        prop_assert_eq!(r.generated, r.delivered + r.in_flight);
        // A light class may generate next to nothing in 200 us; with a few packets at
        // least one must have got through.
        if r.generated >= 5 {
            prop_assert!(r.delivered > 0);
        }
    }
}
