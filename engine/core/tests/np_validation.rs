//! The network-processor schedulers' validation, message by message: the request periods
//! each scheduler can index (HILQ's horizon), the fair schedulers' options and their need
//! of engines, unknown kinds and parameters. The messages are pinned word for word, so a
//! change to the scheduler registry (`np/mod.rs`) cannot change what a user reads.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::problems;
use serde_json::{Value, json};

/// A node of one group of `period_us`, with `server` and `scheduler`.
fn node(period_us: f64, server: Value, scheduler: Value) -> Value {
    json!({"version":1,"name":"np","seed":1,"duration_us":1000,"warmup_us":0,
      "model":{"kind":"network_processor","link":{"rate_gbps":1.0},"server":server,
        "processor":{"clock_mhz":232,"scratchpad_cycles":4},
        "streams":[{"name":"S","count":1,"period_us":period_us,
          "window":{"kind":"fixed","x":1,"y":2},"droppable":true,"arrivals":"constant",
          "size":{"kind":"fixed","bytes":100},"processing_cycles":10,"queue_packets":8}],
        "scheduler":scheduler}})
}

fn link() -> Value {
    json!({"kind":"link"})
}

fn engines() -> Value {
    json!({"kind":"engines","count":2,"transmit_fifo_packets":8})
}

fn heap() -> Value {
    json!({"kind":"dwcs_heap","zero_tie":"highest_y_first"})
}

fn hilq() -> Value {
    json!({"kind":"dwcs_hilq"})
}

fn pcfq(kind: &str, alpha: f64, init: f64) -> Value {
    json!({"kind":kind,"alpha":alpha,"initial_prediction_cycles":init})
}

fn one(path: &str, message: &str) -> Vec<(String, String)> {
    vec![(path.to_string(), message.to_string())]
}

const PERIOD: &str = "model.streams[0].period_us";

#[test]
fn periods_within_each_schedulers_limits() {
    // The heap takes up to 10 s, the limit included.
    assert_eq!(problems(&node(1.0e7, link(), heap())), vec![]);
    assert_eq!(
        problems(&node(1.0e7 + 1.0, link(), heap())),
        one(
            PERIOD,
            "must be a period between 0.01 and 10000000 us (got 10000001)"
        )
    );
    assert_eq!(
        problems(&node(0.001, link(), heap())),
        one(
            PERIOD,
            "must be a period between 0.01 and 10000000 us (got 0.001)"
        )
    );
    // HILQ: below its 100 ms horizon, the horizon itself refused with the reason.
    assert_eq!(problems(&node(99_999.0, link(), hilq())), vec![]);
    assert_eq!(
        problems(&node(100_000.0, link(), hilq())),
        one(
            PERIOD,
            "must be below 100000 us (100 ms) with HILQ: it indexes deadlines one segment per ms, 100 segments ahead, so a deadline 100 ms ahead would alias into the segment of 0 ms (got 100000)"
        )
    );
    assert_eq!(
        problems(&node(250_000.0, link(), hilq())),
        one(
            PERIOD,
            "must be below 100000 us (100 ms) with HILQ: it indexes deadlines one segment per ms, 100 segments ahead, so a deadline 250 ms ahead would alias into the segment of 50 ms (got 250000)"
        )
    );
    assert_eq!(
        problems(&node(0.001, link(), hilq())),
        one(
            PERIOD,
            "must be a period between 0.01 and 100000 us (got 0.001)"
        )
    );
    // The fair schedulers take the heap's range.
    for kind in ["pcfq", "separate_wfq"] {
        assert_eq!(
            problems(&node(1.0e7, engines(), pcfq(kind, 0.5, 100.0))),
            vec![]
        );
        assert_eq!(
            problems(&node(2.0e7, engines(), pcfq(kind, 0.5, 100.0))),
            one(
                PERIOD,
                "must be a period between 0.01 and 10000000 us (got 20000000)"
            )
        );
    }
}

#[test]
fn fair_schedulers_need_engines_and_good_options() {
    for kind in ["pcfq", "separate_wfq"] {
        assert_eq!(
            problems(&node(1000.0, link(), pcfq(kind, 0.0, -1.0))),
            vec![
                (
                    "model.server".to_string(),
                    format!(
                        "must be processing engines with the {kind} scheduler (it schedules the CPU and the link; got the link as the server)"
                    )
                ),
                (
                    "model.scheduler.alpha".to_string(),
                    "must be a smoothing factor in (0, 1] (0.4 in simulation, 0.5 on hardware; got 0)"
                        .to_string()
                ),
                (
                    "model.scheduler.initial_prediction_cycles".to_string(),
                    "must be between 0 and 100000000 cycles (got -1)".to_string()
                ),
            ]
        );
    }
    // The DWCS schedulers take either server.
    assert_eq!(problems(&node(1000.0, engines(), heap())), vec![]);
    assert_eq!(problems(&node(1000.0, engines(), hilq())), vec![]);
}

#[test]
fn unknown_kinds_and_parameters_are_named() {
    assert_eq!(
        problems(&node(1000.0, link(), json!({"kind":"dwcs"}))),
        one(
            "model.scheduler.kind",
            "\"dwcs\" is not a known network-processor scheduler; expected one of: dwcs_heap, dwcs_hilq, pcfq, separate_wfq"
        )
    );
    assert_eq!(
        problems(&node(
            1000.0,
            link(),
            json!({"kind":"dwcs_hilq","zero_tie":"x"})
        )),
        one(
            "model.scheduler.zero_tie",
            "is not a known field here (this kind takes no parameters)"
        )
    );
    assert_eq!(
        problems(&node(1000.0, link(), json!({"kind":"dwcs_heap"}))),
        one("model.scheduler.zero_tie", "is required but missing")
    );
}
