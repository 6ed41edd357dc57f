//! Credit returns kept in the port give the same run as one event per credit return.

use super::*;
use crate::model::Model;
use crate::scenario::{Model as ScenarioModel, Scenario, parse};
use proptest::prelude::*;

/// A 16-end-point MIN of 4-port `switch`es, two classes (64 B packets, and bursts of two
/// 1 KiB packets), FIFO schedulers, a short run.
fn scenario(switch: &str, load: f64, credit_delay_ns: u32, nic_bytes: u32, seed: u64) -> Scenario {
    let text = format!(
        r#"{{"version":1,"name":"t","seed":{seed},"duration_us":60,"warmup_us":10,
        "model":{{"kind":"network",
          "link":{{"rate_gbps":2.0,"latency_ns":100,"credit_delay_ns":{credit_delay_ns}}},
          "topology":{{"kind":"min","end_points":16,"switch_ports":4}},
          "switch":{switch},
          "interface":{{"buffer_bytes":{nic_bytes}}},
          "classes":[{{"name":"A","traffic":{{"load":{load},"generator":{{"kind":"bursts","packets":1,
                      "size":{{"kind":"fixed","bytes":64}}}},"destinations":{{"kind":"uniform"}}}}}},
                     {{"name":"B","traffic":{{"load":{load},"generator":{{"kind":"bursts","packets":2,
                      "size":{{"kind":"fixed","bytes":1024}}}},"destinations":{{"kind":"uniform"}}}}}}],
          "interface_scheduler":{{"kind":"fifo"}},"switch_scheduler":{{"kind":"fifo"}}}}}}"#
    );
    let s = parse(&text).unwrap();
    crate::scenario::validate(&s).unwrap();
    s
}

/// Runs `s` to its end, with credit returns kept in the port or (`eager`) one event
/// each; returns the results, the events and the credit returns handled in the port.
fn run(s: &Scenario, eager: bool) -> (String, u64, u64) {
    let ScenarioModel::Network(net) = &s.model else {
        panic!("not a network")
    };
    let mut sim = NetworkSim::new(s, net).unwrap();
    sim.pending.eager = eager;
    while !sim.advance(977) {}
    let results = serde_json::to_string(&sim.results(s)).unwrap();
    (results, sim.events_processed(), sim.pending.folded)
}

fn switches(bytes: u32) -> Vec<String> {
    vec![
        format!(
            r#"{{"kind":"cioq","speedup":1.0,"header_crossing_ns":145,
            "input_buffer_bytes":{bytes},"output_buffer_bytes":1024}}"#
        ),
        format!(
            r#"{{"kind":"two_vc","speedup":2,"header_crossing_ns":145,"arbitration":"priority",
            "input_buffer_bytes":{bytes},"output_buffer_bytes":1024}}"#
        ),
        // Per port, shared by its two VLs.
        format!(
            r#"{{"kind":"infiniband","input_buffer_bytes":{},"output_buffer_bytes":2048}}"#,
            2 * bytes
        ),
    ]
}

/// The 64-node bench's shape in small: credits folded, and the run is the eager one's.
#[test]
fn folding_happens_and_changes_nothing() {
    let s = scenario(&switches(2048)[0], 0.6, 512, 2048, 7);
    let (folded_run, events, folded) = run(&s, false);
    let (eager_run, eager_events, eager_folded) = run(&s, true);
    assert!(
        folded > 1000,
        "only {folded} credit returns handled in the port"
    );
    assert_eq!(eager_folded, 0);
    assert_eq!(events, eager_events);
    assert_eq!(folded_run, eager_run);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random loads, credit delays (below a packet time, a few, beyond the event
    /// queue's wheel), small buffers (ports wait for credits often), switch kinds and
    /// seeds: identical results and event counts with credits kept in the port.
    #[test]
    fn same_run_as_one_event_per_credit_return(
        kind in 0usize..3,
        load in prop_oneof![Just(0.3), Just(0.7), Just(0.95)],
        credit_delay_ns in prop_oneof![Just(1u32), Just(200), Just(700), Just(3000), Just(6000)],
        input_bytes in prop_oneof![Just(1024u32), Just(2048), Just(4096)],
        nic_bytes in prop_oneof![Just(1024u32), Just(4096)],
        seed in 0u64..1000,
    ) {
        let s = scenario(&switches(input_bytes)[kind], load, credit_delay_ns, nic_bytes, seed);
        let (a, a_events, _) = run(&s, false);
        let (b, b_events, _) = run(&s, true);
        prop_assert_eq!(a_events, b_events);
        prop_assert_eq!(a, b);
    }
}

/// Events per packet-hop of the 64-node bench scenario and of R2, with credit returns
/// kept in the port (a measurement, not a check: `cargo test -p qoslab-core --lib
/// events_per_hop -- --ignored --nocapture`).
#[test]
#[ignore]
fn events_per_hop() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    for path in [
        "engine/cli/bench/min64-u64-L050.json",
        "engine/cli/bench/min64-u64-L075.json",
        "public/presets/r2-multimedia-dtable.json",
    ] {
        let text = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
        let s = parse(&text).unwrap();
        let ScenarioModel::Network(net) = &s.model else {
            panic!("not a network")
        };
        let mut sim = NetworkSim::new(&s, net).unwrap();
        while !sim.advance(1 << 16) {}
        let (events, folded, hops) = (
            sim.events_processed(),
            sim.credits_folded(),
            sim.packet_hops(),
        );
        println!(
            "{path}: {events} events ({:.3} per hop), {folded} credit returns in the port, \
             {} popped ({:.3} per hop), {hops} packet-hops",
            events as f64 / hops as f64,
            events - folded,
            (events - folded) as f64 / hops as f64
        );
    }
}
