//! Resource bounds (issue 16): inputs that pass validation run in bounded time and memory.
//! Each test is the regression test of one defect of the issue; it failed before its fix.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::{set, small};
use qoslab_core::{EngineError, Run};
use serde_json::{Value, json};

/// `doc` is refused with an error at `path` whose message contains `text`.
fn assert_refused(doc: &Value, path: &str, text: &str) {
    let errors = match Run::from_json(&doc.to_string()) {
        Err(EngineError::Invalid { errors }) => errors,
        Err(e) => panic!("refused otherwise: {e}"),
        Ok(_) => panic!("accepted: {doc}"),
    };
    assert!(
        errors
            .iter()
            .any(|e| e.path == path && e.message.contains(text)),
        "expected `{path}` / `{text}`, got {errors:?}"
    );
}

/// Runs `doc` with at most `events` events; panics unless the run completes.
fn completes_within(doc: &Value, events: u64) -> qoslab_core::RunResults {
    let mut run = Run::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let done = run.advance(events);
    assert!(
        done,
        "not done after {events} events ({} packets generated)",
        run.results().generated
    );
    run.results()
}

/// Defect 1: a near-zero load made an infinite inter-arrival gap into 1 ps.
#[test]
fn defect1_near_zero_load_is_refused_by_its_gap() {
    for load in [1e-320, 1e-310] {
        let doc = small(&[("A", load, 256)], 8, 1000);
        assert_refused(&doc, "model.classes[0].traffic.load", "gap");
    }
    // A small but ordinary load still runs (and sends next to nothing).
    let doc = small(&[("A", 1e-9, 256)], 8, 1000);
    let r = completes_within(&doc, 10_000);
    assert!(r.generated <= 1);
}

/// Defect 2: a tiny Pareto shape made the mean NaN and the gaps 1 ps.
#[test]
fn defect2_tiny_pareto_shape_keeps_a_finite_mean() {
    let mut doc = small(&[("A", 0.5, 256)], 32, 1000);
    set(
        &mut doc,
        "model.classes[0].traffic.size",
        json!({"kind": "pareto", "min_bytes": 64, "max_bytes": 2048, "shape": 1e-17}),
    );
    // 0.5 x 2 Gb/s x 1 ms = 125 kB; the mean of a log-uniform size on [64, 2048] is
    // 1984 / ln 32 = 572 B: about 220 packets.
    let r = completes_within(&doc, 100_000);
    assert!(
        (100..=400).contains(&r.generated),
        "generated {}",
        r.generated
    );
}

/// Defect 2, network side: the same class sent nothing in a network.
#[test]
fn defect2_tiny_pareto_shape_sends_in_a_network() {
    let doc = json!({
        "version": 1, "name": "pareto", "seed": 1, "duration_us": 1000, "warmup_us": 100,
        "model": {
            "kind": "network", "link": {"rate_gbps": 2.0}, "topology": {"kind": "link"},
            "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 145,
                       "input_buffer_bytes": 16384, "output_buffer_bytes": 16384},
            "interface": {"buffer_bytes": 32768},
            "classes": [{"name": "BE", "traffic": {"load": 0.5,
                "generator": {"kind": "bursts", "packets": 1,
                              "size": {"kind": "pareto", "min_bytes": 64, "max_bytes": 2048, "shape": 1e-17}},
                "destinations": {"kind": "uniform"}}}],
            "interface_scheduler": {"kind": "fifo"}, "switch_scheduler": {"kind": "fifo"}
        }
    });
    let r = completes_within(&doc, 1_000_000);
    assert!(r.generated > 200, "generated {}", r.generated);
}

fn on_off(on_us: f64, off_us: f64, load: f64, duration_us: u64) -> Value {
    let mut doc = small(&[("A", load, 256)], 8, duration_us);
    set(
        &mut doc,
        "model.classes[0].traffic.arrivals",
        json!({"kind": "on_off", "mean_on_us": on_us, "mean_off_us": off_us}),
    );
    doc
}

/// Defect 3: on/off periods below a picosecond (denormal or 1e-12 us) are refused.
#[test]
fn defect3_sub_picosecond_on_off_periods_are_refused() {
    let at = "model.classes[0].traffic.arrivals";
    assert_refused(
        &on_off(1e-310, 1.0, 0.3, 1000),
        &format!("{at}.mean_on_us"),
        "1 ps",
    );
    assert_refused(
        &on_off(1e-12, 1e-12, 0.3, 1000),
        &format!("{at}.mean_on_us"),
        "1 ps",
    );
    assert_refused(
        &on_off(1.0, 1e-310, 0.3, 1000),
        &format!("{at}.mean_off_us"),
        "1 ps",
    );
    // A peak rate so high that packets would be less than 1 ps apart.
    let mut doc = on_off(1e-6, 1e9, 0.3, 1000);
    set(&mut doc, "model.classes[0].traffic.size.bytes", json!(1));
    assert_refused(&doc, &format!("{at}.mean_on_us"), "gap");
}

/// Defect 3: the per-packet work of very short on periods counts in the estimate.
#[test]
fn defect3_on_off_period_changes_count_in_the_estimate() {
    // 1 ps periods and 256 B packets: each gap spans the 4096-change cap, so 488 000
    // packets in 1 s would take 2e9 period draws.
    assert_refused(
        &on_off(1e-6, 1e-6, 0.5, 1_000_000),
        "duration_us",
        "on/off period changes",
    );
    // The same periods for 100 us are fine and finish promptly.
    completes_within(&on_off(1e-6, 1e-6, 0.5, 100), 100_000);
}

/// A two-end-point network with one connection class.
fn one_class_network(generator: Value, load: f64, duration_us: u64) -> Value {
    json!({
        "version": 1, "name": "video", "seed": 1, "duration_us": duration_us,
        "warmup_us": duration_us / 10,
        "model": {
            "kind": "network", "link": {"rate_gbps": 2.0}, "topology": {"kind": "link"},
            "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 145,
                       "input_buffer_bytes": 16384, "output_buffer_bytes": 16384},
            "interface": {"buffer_bytes": 32768},
            "classes": [{"name": "VI", "traffic": {"load": load, "generator": generator,
                          "destinations": {"kind": "uniform"}}}],
            "interface_scheduler": {"kind": "fifo"}, "switch_scheduler": {"kind": "fifo"}
        }
    })
}

/// Defect 4: video frames never go below 1 byte; the estimate now counts that floor.
#[test]
fn defect4_video_frame_floor_counts_in_the_estimate() {
    // 100 b/s streams with 1 us frames: 20 000 connections per end point each sending a
    // 1-byte frame every microsecond (2e10 packets/s where the load says 2.5e5): 4e9
    // packets in 0.1 s.
    let video = json!({"kind": "video", "rate_bps": 100, "frame_interval_us": 1,
        "gop": "I", "i_ratio": 1.0, "p_ratio": 1.0, "b_ratio": 1.0, "variation": 0.0,
        "mtu_bytes": 2048});
    assert_refused(
        &one_class_network(video.clone(), 0.001, 100_000),
        "duration_us",
        "packets",
    );
    // The same for a trace replayed at a tiny rate.
    let trace = json!({"kind": "video_trace", "trace": "1000\n2000\n", "frame_interval_us": 1,
        "rate_bps": 100, "mtu_bytes": 2048});
    assert_refused(
        &one_class_network(trace, 0.001, 100_000),
        "duration_us",
        "packets",
    );
    // A short run of it is accepted and sends what the estimate says.
    let r = completes_within(&one_class_network(video, 0.000_001, 100), 10_000_000);
    assert!(r.generated > 0);
}

/// Packets a link lab holds (generated, not delivered).
fn held(run: &Run) -> u64 {
    let lab = run.link_lab().unwrap();
    lab.counters()
        .iter()
        .map(|c| c.generated - c.delivered)
        .sum()
}

/// Defect 6: the packet limit counted packets generated, not held, so an overloaded
/// class queued without bound (a valid 2 s run at load 4 would hold 23 million packets).
/// The run now stops at the default budget of packets held, naming the figure.
#[test]
fn defect6_an_overloaded_class_stops_at_the_packets_held_budget() {
    let doc = small(&[("A", 4.0, 64)], 1, 2_000_000);
    let mut run = Run::from_json(&doc.to_string()).unwrap();
    let slice = qoslab_core::budget::CHECK_EVERY_EVENTS;
    while !run.advance(slice) {
        assert!(held(&run) <= qoslab_core::budget::MAX_PACKETS_HELD);
    }
    match run.stopped() {
        Some(EngineError::Budget {
            figure,
            value,
            limit,
            message,
        }) => {
            assert_eq!(figure, "packets_held");
            assert_eq!(*limit, qoslab_core::budget::MAX_PACKETS_HELD);
            assert!(*value > *limit && *value <= *limit + slice, "{value}");
            assert!(message.contains("4194304 packets"), "{message}");
        }
        other => panic!("not stopped by the budget: {other:?}"),
    }
    // The results so far stay readable.
    assert!(run.results().generated > qoslab_core::budget::MAX_PACKETS_HELD);
}

/// Defect 6, the events budget and a custom budget: a small budget stops a run early.
#[test]
fn defect6_a_small_budget_stops_on_events() {
    let doc = small(&[("A", 0.5, 256)], 8, 100_000);
    let mut run = Run::from_json(&doc.to_string()).unwrap();
    run.set_budget(qoslab_core::budget::Budget::new(1_000, 50_000));
    run.run_to_end();
    let Some(EngineError::Budget { figure, value, .. }) = run.stopped() else {
        panic!("not stopped: {:?}", run.stopped());
    };
    assert_eq!(figure, "events");
    assert!(*value > 50_000 && *value <= 50_000 + qoslab_core::budget::CHECK_EVERY_EVENTS);
    assert!(!run.is_done(), "stopped before the end of simulated time");
}
