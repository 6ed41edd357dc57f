//! The network-processor node and its DWCS schedulers: small hand-computed sequences of
//! the heap scheduler, the differential test of heap against HILQ on the same input, and
//! conservation (generated = sent + dropped + queued) on random nodes.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use proptest::prelude::*;
mod common;

use common::Fake;
use qoslab_core::np::contract::{Decision, NpScheduler, QueuedPacket};
use qoslab_core::np::dwcs::ZeroTie;
use qoslab_core::np::heap::DwcsHeap;
use qoslab_core::np::hilq::sched::DwcsHilq;
use qoslab_core::np::results::NpResults;
use qoslab_core::time::SimTime;
use qoslab_core::{Run, scenario};
use serde_json::{Value, json};

fn pkt(deadline: u64, arrival: u64) -> QueuedPacket {
    QueuedPacket {
        deadline: SimTime(deadline),
        arrival: SimTime(arrival),
        bytes: 1500,
    }
}

/// Carries out a decision on the fake queues and tells the scheduler.
fn apply(s: &mut dyn NpScheduler, q: &mut Fake, now: u64, d: Decision) {
    if let Decision::Send(i) | Decision::Drop(i) = d {
        q.0[i as usize].remove(0);
    }
    s.applied(SimTime(now), d, q);
}

/// Streams A (1/2), B (0/1), C (2/3), all with deadline 10: B (constraint 0) first, then
/// A (0.5), then C (0.67); the windows move as the rules say.
#[test]
fn heap_serves_equal_deadlines_by_constraint_and_adjusts_windows() {
    let mut h = DwcsHeap::new(
        &[(1, 2, true), (0, 1, true), (2, 3, true)],
        ZeroTie::default(),
    );
    let mut q = Fake(vec![vec![pkt(10, 0)], vec![pkt(10, 0)], vec![pkt(10, 0)]]);
    for s in 0..3 {
        h.on_arrival(SimTime(0), s, &q);
    }
    let mut order = Vec::new();
    for now in [1, 2, 3] {
        let d = h.decide(SimTime(now), true, &q);
        order.push(d);
        apply(&mut h, &mut q, now, d);
    }
    assert_eq!(
        order,
        vec![Decision::Send(1), Decision::Send(0), Decision::Send(2)]
    );
    // All on time: A 1/2 -> y' 1; B 0/1 -> 0/0 -> reset 0/1; C 2/3 -> 2/2.
    assert_eq!((h.window(0).xc, h.window(0).yc), (1, 1));
    assert_eq!((h.window(1).xc, h.window(1).yc), (0, 1));
    assert_eq!((h.window(2).xc, h.window(2).yc), (2, 2));
    assert_eq!(h.decide(SimTime(4), true, &q), Decision::Idle);
}

/// Late heads: a droppable one is dropped with a tolerated miss, then a violation; a
/// non-droppable one is charged once and sent late before anything else.
#[test]
fn heap_purges_late_heads() {
    let mut h = DwcsHeap::new(
        &[(1, 3, true), (0, 2, false), (0, 1, true)],
        ZeroTie::default(),
    );
    let mut q = Fake(vec![vec![], vec![], vec![]]);
    let arrivals = [(0, 5), (0, 6), (0, 100), (1, 7), (1, 200), (2, 50)];
    for (s, deadline) in arrivals {
        q.0[s].push(pkt(deadline, 0));
        h.on_arrival(SimTime(0), s as u32, &q);
    }
    // At 10, A's heads (5, 6) are late: dropped; the first is tolerated (1/3 -> 0/2), the
    // second a violation (y' += (3-1)/1 -> 0/4).
    let d = h.decide(SimTime(10), true, &q);
    assert_eq!(d, Decision::Drop(0));
    apply(&mut h, &mut q, 10, d);
    assert_eq!((h.window(0).xc, h.window(0).yc), (0, 2));
    let d = h.decide(SimTime(10), true, &q);
    assert_eq!(d, Decision::Drop(0));
    apply(&mut h, &mut q, 10, d);
    assert_eq!((h.window(0).xc, h.window(0).yc), (0, 4));
    assert_eq!(h.violations(0), 1);
    // B's head (7) is late and not droppable: charged (x' = 0: a violation, y' += 2), and
    // sent before C's on-time head.
    let d = h.decide(SimTime(10), true, &q);
    assert_eq!(d, Decision::Send(1));
    assert_eq!(h.violations(1), 1);
    assert_eq!((h.window(1).xc, h.window(1).yc), (0, 4));
    apply(&mut h, &mut q, 10, d);
    // Sent late without a second charge.
    assert_eq!((h.window(1).xc, h.window(1).yc), (0, 4));
    assert_eq!(h.decide(SimTime(11), true, &q), Decision::Send(2));
}

/// HILQ: the collector drops what is left of a passed segment and applies the miss rule.
#[test]
fn hilq_collector_drops_and_charges_passed_segments() {
    let ms = 1_000_000_000u64;
    let mut h = DwcsHilq::new(&[(1, 2, true), (0, 1, true)]);
    let mut q = Fake(vec![vec![], vec![]]);
    q.0[0].push(pkt(ms / 2, 0));
    h.on_arrival(SimTime(0), 0, &q);
    q.0[1].push(pkt(ms / 2, 0));
    h.on_arrival(SimTime(0), 1, &q);
    assert_eq!(h.wake_at(), Some(SimTime(ms)));
    // Nothing sent during ms 0; at 1 ms both are collected in slot order (B's 0/1 in
    // slot 0, A's 1/2 in slot 501): B a violation, A tolerated.
    let d = h.decide(SimTime(ms), false, &q);
    assert_eq!(d, Decision::Drop(1));
    apply(&mut h, &mut q, ms, d);
    let d = h.decide(SimTime(ms), false, &q);
    assert_eq!(d, Decision::Drop(0));
    apply(&mut h, &mut q, ms, d);
    assert_eq!((h.window(0).xc, h.window(0).yc), (0, 1));
    assert_eq!(h.violations(0), 0);
    assert_eq!(h.violations(1), 1);
    assert_eq!(h.collected(), 2);
    assert_eq!(h.decide(SimTime(ms), true, &q), Decision::Idle);
}

/// A node of `streams` streams with R5's random windows, synchronous periodic arrivals
/// and `scheduler`, scaled to utilisation `u` (1500 B packets on a 0.5 Gb/s link: 24 us
/// each, so 100 streams or more keep periods above HILQ's 1 ms segment for U <= 1).
fn node(seed: u64, streams: u32, u: f64, scheduler: Value, droppable: bool) -> Value {
    let doc = json!({"version":1,"name":"np","seed":seed,"duration_us":60000,"warmup_us":5000,
      "model":{"kind":"network_processor","link":{"rate_gbps":0.5},"server":{"kind":"link"},
        "processor":{"clock_mhz":232,"scratchpad_cycles":4},
        "streams":[{"name":"S","count":streams,"period_us":1000.0 * f64::from(streams) / 100.0,
          "window":{"kind":"random","min_ratio":0.2,"max_ratio":0.8,"max_x":19,"max_y":29},
          "droppable":droppable,"arrivals":"synchronous","size":{"kind":"fixed","bytes":1500},
          "queue_packets":64}],
        "scheduler":scheduler}});
    let s = scenario::parse(&doc.to_string()).unwrap();
    serde_json::to_value(qoslab_core::sweep::at_load(&s, u).unwrap()).unwrap()
}

fn run(doc: &Value) -> NpResults {
    let mut run = Run::from_json(&doc.to_string()).unwrap();
    while !run.advance(20_000) {
        let node = run.network_processor().unwrap();
        assert_eq!(node.audit(), Ok(()));
    }
    let node = run.network_processor().unwrap();
    assert_eq!(node.audit(), Ok(()));
    run.results().network_processor.unwrap()
}

fn heap() -> Value {
    json!({"kind":"dwcs_heap","zero_tie":"highest_y_first"})
}

fn hilq() -> Value {
    json!({"kind":"dwcs_hilq"})
}

/// Above U = 1 violations appear (both versions, same input).
#[test]
fn violations_appear_above_u_1() {
    let h = run(&node(3, 200, 1.5, heap(), true));
    let q = run(&node(3, 200, 1.5, hilq(), true));
    assert!(
        h.violations > 100 && q.violations > 100,
        "{} {}",
        h.violations,
        q.violations
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    /// With U <= 0.95 exact DWCS (the heap) violates no window (by DWCS's own count), on
    /// random windows, stream counts and seeds. HILQ orders heads by deadline only to its
    /// 1 ms segments (inside one it goes by x'/y'), so it may miss a deadline the heap
    /// meets (the two cases in `np_dwcs.proptest-regressions`: 1 violation at U = 0.857,
    /// 3 in 2 501 packets at U = 0.942). Its violations stay under 1% of the packets sent
    /// (checked over 300 random cases with `cases: 300` below).
    #[test]
    fn no_violations_at_u_up_to_095(seed in 0u64..1000, streams in 100u32..300, u in 0.3f64..0.95) {
        let exact = run(&node(seed, streams, u, heap(), true));
        prop_assert_eq!(exact.violations, 0, "heap at U = {}", u);
        let hilq = run(&node(seed, streams, u, hilq(), true));
        prop_assert!(
            hilq.violations * 100 <= hilq.sent,
            "HILQ: {} violations in {} packets at U = {}", hilq.violations, hilq.sent, u
        );
    }

    /// Above U = 1, HILQ's violations stay close to the heap's on the same input: at most
    /// 5% of the generated packets more (measured over 100-300 streams, U 0.98-1.6,
    /// 3 seeds: at most 3.3% more near U = 1, where HILQ's collector works on values up
    /// to 1 ms stale; from U = 1.2 on HILQ counts fewer; docs/network-processors.md).
    #[test]
    fn hilq_stays_close_to_the_heap_above_u_1(seed in 0u64..1000, streams in 100u32..300, u in 1.05f64..1.6) {
        let h = run(&node(seed, streams, u, heap(), true));
        let q = run(&node(seed, streams, u, hilq(), true));
        prop_assert!(q.violations as f64 <= h.violations as f64 + 0.05 * h.generated as f64,
            "HILQ {} vs heap {} of {} packets at U = {}", q.violations, h.violations, h.generated, u);
        prop_assert_eq!(h.generated, q.generated);
    }

    /// Packets are conserved on random nodes (both schedulers, droppable or not, link or
    /// engines, constant, synchronous or Poisson arrivals): the audit checks
    /// generated = sent + dropped + lost + queued and the schedulers' structures as it runs.
    #[test]
    fn packets_are_conserved(
        seed in 0u64..1000,
        streams in 1u32..60,
        u in 0.2f64..2.0,
        droppable in any::<bool>(),
        arrivals in prop_oneof![Just("constant"), Just("synchronous"), Just("poisson")],
        engines in any::<bool>(),
        use_hilq in any::<bool>(),
        queue in 1u32..20,
    ) {
        let mut doc = node(seed, streams, u, if use_hilq { hilq() } else { heap() }, droppable);
        let m = &mut doc["model"];
        m["streams"][0]["arrivals"] = json!(arrivals);
        m["streams"][0]["queue_packets"] = json!(queue);
        if engines {
            m["server"] = json!({"kind":"engines","count":2,"transmit_fifo_packets":4});
            m["streams"][0]["processing_cycles"] = json!(3000);
        }
        let r = run(&doc);
        prop_assert_eq!(r.generated, r.sent + r.dropped_late + r.lost_full + r.queued);
    }
}

/// DWCS in the decision trace: each send names the deadline, on time or late, and the
/// window; the earliest deadline heads the candidates.
#[test]
fn dwcs_decisions_are_explained_in_words() {
    for (sched, who) in [(heap(), "DWCS (heap)"), (hilq(), "DWCS (HILQ)")] {
        let doc = node(3, 100, 0.9, sched, true);
        let s = scenario::parse(&doc.to_string()).unwrap();
        let t = qoslab_core::np::trace::trace(s, 30, 10_000).unwrap();
        assert_eq!(t.steps.len(), 30);
        for step in &t.steps {
            let e = step.explanation.as_ref().unwrap();
            assert!(step.words.contains(who), "{}", step.words);
            assert!(step.words.contains("deadline") && step.words.contains("x′/y′"));
            assert!(e.candidates.windows(2).all(|w| w[0].key <= w[1].key));
            assert!(
                e.candidates.iter().any(|c| c.stream == step.stream) || e.candidates.len() == 12
            );
            assert_eq!(step.processed_ns, None, "the link is the server");
            if who == "DWCS (HILQ)" {
                hilq_names_its_slot(&step.words);
            }
        }
    }
}

/// HILQ's words name the slot it found the head in, and the slot is the one its formula
/// gives for the x′/y′ it names: 20 × constraint index + min(x′, 19).
fn hilq_names_its_slot(words: &str) {
    let after = |key: &str| -> &str {
        let at = words
            .find(key)
            .unwrap_or_else(|| panic!("no {key:?} in {words}"));
        &words[at + key.len()..]
    };
    let number = |text: &str| -> u32 {
        text.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap()
    };
    let slot = number(after("at slot "));
    let window = after("x′/y′ = ");
    let x = number(window);
    let y = number(&window[window.find('/').unwrap() + 1..]);
    let expected = qoslab_core::np::hilq::constraint_index(x, y) * 20 + x.min(19);
    assert_eq!(slot, expected, "{words}");
    assert!(words.contains("segment of millisecond"), "{words}");
}
