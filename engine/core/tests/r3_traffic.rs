//! The traffic of R3 through the engine's front door: the class mix with its per-SL MTU
//! table, messages split into packets and their latency to the last packet, flits per
//! cycle per end point, validation of the new fields with their paths, and the work
//! estimate counting split packets. Results of scenarios without the new fields keep their
//! form (the golden test checks the bytes).
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used, missing_docs)]

use qoslab_core::Run;
use qoslab_core::error::EngineError;
use qoslab_core::scenario::{parse, work_estimate};
use qoslab_core::time::BitRate;
use qoslab_core::traffic::classes_r3::{
    R3_BEST_EFFORT_LOAD, R3_FLIT_BYTES, R3_LINK_GBPS, r3_network_classes,
};
use serde_json::{Value, json};

/// R3's classes on a 4-ary 2-tree (16 end points) of CIOQ switches with Valiant routing,
/// 100 Gb/s links and 64 B flits, DTable-free FIFO schedulers (the traffic is what is
/// under test), `us` µs with a tenth of warm-up.
fn r3(us: u64, seed: u64) -> Value {
    let link = BitRate::from_gbps(R3_LINK_GBPS).unwrap();
    let classes = serde_json::to_value(r3_network_classes(link, R3_BEST_EFFORT_LOAD)).unwrap();
    json!({
        "version": 1, "name": "r3 traffic", "seed": seed,
        "duration_us": us, "warmup_us": us / 10,
        "model": {
            "kind": "network",
            "link": {"rate_gbps": R3_LINK_GBPS},
            "topology": {"kind": "tree", "k": 4, "n": 2},
            "routing": {"kind": "valiant"},
            "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 20,
                       "input_buffer_bytes": 114688, "output_buffer_bytes": 114688},
            "interface": {"buffer_bytes": 229376},
            "flit_bytes": R3_FLIT_BYTES,
            "classes": classes,
            "interface_scheduler": {"kind": "fifo"},
            "switch_scheduler": {"kind": "fifo"}
        }
    })
}

fn run(doc: &Value) -> (qoslab_core::RunResults, Value) {
    let mut r = Run::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    r.run_to_end();
    let net = r.network().unwrap();
    assert_eq!(net.audit(), Some(Default::default()));
    let results = r.results();
    let json = serde_json::to_value(&results).unwrap();
    (results, json)
}

fn invalid(doc: &Value) -> Vec<(String, String)> {
    match Run::from_json(&doc.to_string()) {
        Err(EngineError::Invalid { errors }) => {
            errors.into_iter().map(|e| (e.path, e.message)).collect()
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn r3_runs_with_messages_and_flits_per_sl() {
    let (results, _) = run(&r3(40, 1));
    for c in &results.classes {
        let m = c.messages.as_ref().unwrap_or_else(|| panic!("{}", c.name));
        // With R3's MTUs no message is split: a message is a packet.
        assert_eq!(
            (m.generated, m.delivered),
            (c.generated, c.delivered),
            "{}",
            c.name
        );
        assert_eq!(m.in_flight, c.in_flight, "{}", c.name);
        assert!(m.latency_ns.samples > 0, "{}", c.name);
        assert_eq!(m.latency_ns.mean, c.latency_ns.mean, "{}", c.name);
        let f = c.flits.as_ref().unwrap();
        assert_eq!(f.flit_bytes, 64);
        // 64 B at 100 Gb/s: a cycle is 5.12 ns.
        assert!((f.cycle_ns - 5.12).abs() < 1e-12);
        // Every R3 packet is a whole number of flits, so flits per cycle per end point
        // are the byte throughput normalised to the link.
        assert!((f.throughput - c.throughput).abs() < 1e-12, "{}", c.name);
        assert!((f.offered - c.offered).abs() < 1e-12, "{}", c.name);
    }
    // Below saturation (0.8 of every link) the QoS SLs get what they inject.
    for c in &results.classes[..4] {
        let f = c.flits.as_ref().unwrap();
        assert!(
            (f.throughput / f.offered - 1.0).abs() < 0.1,
            "{}: {} of {}",
            c.name,
            f.throughput,
            f.offered
        );
    }
}

#[test]
fn a_smaller_mtu_splits_bursts4_messages() {
    let mut doc = r3(20, 2);
    for c in 4..7 {
        doc["model"]["classes"][c]["mtu_bytes"] = json!(256);
    }
    let (results, _) = run(&doc);
    for c in &results.classes[4..] {
        let m = c.messages.as_ref().unwrap();
        assert_eq!(m.mtu_bytes, 256);
        // Every 1024 B message is 4 packets of 256 B.
        assert_eq!(c.generated, 4 * m.generated, "{}", c.name);
        assert_eq!(m.generated, m.delivered + m.in_flight, "{}", c.name);
        assert!(c.delivered >= 4 * m.delivered, "{}", c.name);
        // A message waits for its last packet.
        assert!(
            m.latency_ns.mean.unwrap() >= c.latency_ns.mean.unwrap(),
            "{}",
            c.name
        );
        assert!(
            m.latency_ns.min.unwrap() >= c.latency_ns.min.unwrap(),
            "{}",
            c.name
        );
    }
    // The work estimate counts the split packets: four per best-effort message (the
    // QoS classes silenced, so only the messages of EE, BE and BK count).
    let estimate = |mtu: Option<u32>| {
        let mut d = r3(20, 2);
        for c in 0..7 {
            if c < 4 {
                d["model"]["classes"][c]["traffic"]["load"] = json!(0);
            } else if let Some(m) = mtu {
                d["model"]["classes"][c]["mtu_bytes"] = json!(m);
            }
        }
        work_estimate(&parse(&d.to_string()).unwrap()).packets
    };
    let (plain, split) = (estimate(None), estimate(Some(256)));
    assert!(plain > 0.0);
    assert!((split / plain - 4.0).abs() < 1e-9, "{split} vs {plain}");
    // With a 1000 B MTU a 1024 B message is 2 packets (1000 and 24 B).
    assert!((estimate(Some(1000)) / plain - 2.0).abs() < 1e-9);
}

#[test]
fn without_the_new_fields_results_keep_their_form() {
    let mut doc = r3(10, 3);
    doc["model"].as_object_mut().unwrap().remove("flit_bytes");
    for c in 0..7 {
        doc["model"]["classes"][c]
            .as_object_mut()
            .unwrap()
            .remove("mtu_bytes");
    }
    let (_, json) = run(&doc);
    for c in json["classes"].as_array().unwrap() {
        assert!(
            c.get("messages").is_none() && c.get("flits").is_none(),
            "{c}"
        );
    }
}

#[test]
fn mtu_and_flit_fields_are_validated_with_their_paths() {
    let mut doc = r3(10, 1);
    doc["model"]["classes"][2]["mtu_bytes"] = json!(32);
    doc["model"]["classes"][5]["mtu_bytes"] = json!(70_000);
    doc["model"]["flit_bytes"] = json!(0);
    let errors = invalid(&doc);
    let paths: Vec<&str> = errors.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        paths,
        [
            "model.classes[2].mtu_bytes",
            "model.classes[5].mtu_bytes",
            "model.flit_bytes"
        ],
        "{errors:?}"
    );
    assert!(
        errors[0].1.contains("between 64 and 65536 bytes (got 32)"),
        "{errors:?}"
    );
    assert!(
        errors[2].1.contains("between 1 and 65536 bytes (got 0)"),
        "{errors:?}"
    );
    // A negative MTU is refused by the parser, with the path.
    doc["model"]["classes"][2]["mtu_bytes"] = json!(-1);
    let errors = invalid(&doc);
    assert!(
        errors
            .iter()
            .any(|e| e.0.starts_with("model.classes[2].mtu_bytes")),
        "{errors:?}"
    );
}

#[test]
fn an_mtu_lets_buffers_and_tables_hold_packets_not_messages() {
    // 4096 B messages in buffers of 2048 B: refused without an MTU, accepted with 2048 B.
    let mut doc = r3(10, 1);
    doc["model"]["classes"][4]["traffic"]["generator"]["size"]["bytes"] = json!(4096);
    doc["model"]["classes"][4]["mtu_bytes"] = json!(4096);
    doc["model"]["interface"]["buffer_bytes"] = json!(2048);
    doc["model"]["switch"]["input_buffer_bytes"] = json!(2048);
    doc["model"]["switch"]["output_buffer_bytes"] = json!(2048);
    let errors = invalid(&doc);
    assert!(
        errors
            .iter()
            .any(|e| e.1.contains("class \"EE\" sends up to 4096 B")),
        "{errors:?}"
    );
    doc["model"]["classes"][4]["mtu_bytes"] = json!(2048);
    let (results, _) = run(&doc);
    let ee = &results.classes[4];
    assert_eq!(ee.generated, 2 * ee.messages.as_ref().unwrap().generated);
}
