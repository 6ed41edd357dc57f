//! Network scenario validation: every refusal names the field and the rule.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod network_scenarios;

use network_scenarios::*;
use qoslab_core::Run;
use serde_json::{Value, json};

/// Errors name the field and the rule.
#[test]
fn validation_names_the_field() {
    let base: Value = serde_json::from_str(R2).unwrap();
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "model.topology.end_points",
            json!(63),
            "model.topology.end_points",
            "power of 4",
        ),
        (
            "model.topology.switch_ports",
            json!(7),
            "model.topology.switch_ports",
            "even",
        ),
        (
            "model.switch.speedup",
            json!(0.5),
            "model.switch.speedup",
            "from 1 to 16",
        ),
        (
            "model.switch.input_buffer_bytes",
            json!(1024),
            "model.switch.input_buffer_bytes",
            "at least one packet",
        ),
        (
            "model.interface.buffer_bytes",
            json!(10),
            "model.interface.buffer_bytes",
            "between 64",
        ),
        (
            "model.link.rate_gbps",
            json!(0),
            "model.link.rate_gbps",
            "above 0",
        ),
        (
            "model.link.credit_delay_ns",
            json!(2_000_000),
            "model.link.credit_delay_ns",
            "at most",
        ),
        (
            "model.classes[2].traffic.load",
            json!(-1),
            "model.classes[2].traffic.load",
            "fraction of the link rate",
        ),
        (
            "model.interface_scheduler.quanta_bytes",
            json!([1, 2]),
            "model.interface_scheduler.quanta_bytes",
            "one value per class",
        ),
        (
            "model.switch_scheduler",
            json!({"kind": "dtable", "table": [{"class": 0, "weight": 4}]}),
            "model.classes[1]",
            "no entry",
        ),
        (
            "model.admission.reserved",
            json!([0.5]),
            "model.admission.reserved",
            "one fraction per class: 7",
        ),
        (
            "model.admission.qos_cap",
            json!(1.5),
            "model.admission.qos_cap",
            "between 0 and 1",
        ),
        (
            "model.classes[1].traffic.generator.rate_bps",
            json!(0),
            "model.classes[1].traffic.generator.rate_bps",
            "bits per second",
        ),
        (
            "model.classes[2].traffic.generator.gop",
            json!("IBX"),
            "model.classes[2].traffic.generator.gop",
            "I, P and B",
        ),
        (
            "model.classes[4].traffic.destinations",
            json!({"kind": "hot_spot", "endpoint": 64, "fraction": 0.5}),
            "model.classes[4].traffic.destinations.endpoint",
            "not an end point",
        ),
        (
            "model.classes[0].traffic.generator",
            json!({"kind": "poisson"}),
            "model.classes[0].traffic.generator.kind",
            "bursts, cbr, video, video_trace",
        ),
        (
            "model.classes[3].traffic.generator.packet_bytes",
            json!(20_000),
            "model.switch.input_buffer_bytes",
            "sends up to 20000 B",
        ),
        (
            "model.topology",
            json!({"kind": "dragonfly"}),
            "model.topology.kind",
            "not a known topology",
        ),
        (
            "model.switch",
            json!({"kind": "cioq", "speedup": 1.5}),
            "model.switch.header_crossing_ns",
            "required",
        ),
    ];
    for (path, value, want_path, want_text) in cases {
        let mut doc = base.clone();
        let mut cur = &mut doc;
        for part in path.split('.') {
            let (key, index) = match part.split_once('[') {
                Some((k, rest)) => (
                    k,
                    Some(rest.trim_end_matches(']').parse::<usize>().unwrap()),
                ),
                None => (part, None),
            };
            cur = &mut cur[key];
            if let Some(i) = index {
                cur = &mut cur[i];
            }
        }
        *cur = value;
        let err = match Run::from_json(&doc.to_string()) {
            Ok(_) => panic!("{path}: accepted"),
            Err(e) => e,
        };
        let json = err.to_json();
        let qoslab_core::EngineError::Invalid { errors } = err else {
            panic!("{path}: {json}");
        };
        assert!(
            errors
                .iter()
                .any(|e| e.path == want_path && e.message.contains(want_text)),
            "{path}: {errors:?}"
        );
    }
}

/// Admission control without any connection class is refused (it would do nothing).
#[test]
fn admission_without_connections_is_refused() {
    let mut doc = network(
        json!({"kind": "single_switch", "ports": 4}),
        &[(0.1, poisson(fixed(256)), uniform())],
        json!({"kind": "fifo"}),
        json!({"kind": "fifo"}),
        (4096, 4096, 4096),
        link(2.0),
        100,
        1,
    );
    doc["model"]["admission"] = json!({"qos_cap": 1.0, "reserved": [0.5]});
    assert_refused(&doc, "model.admission", "no");
}

/// The topology sizes the spec gives, through the scenario: 64 end points with 8-port
/// switches is 48 switches; with 16-port switches 16.
#[test]
fn min_sizes_through_the_scenario() {
    for (ports, switches, links) in [(8, 48, 192), (16, 16, 128)] {
        let mut doc: Value = serde_json::from_str(R2).unwrap();
        doc["model"]["topology"]["switch_ports"] = json!(ports);
        doc["duration_us"] = json!(10);
        doc["warmup_us"] = json!(1);
        let r = Run::from_json(&doc.to_string()).unwrap();
        let t = r.network().unwrap().topology();
        assert_eq!(
            (t.end_points(), t.switches(), t.links().len()),
            (64, switches, links)
        );
    }
}

/// A network too big to hold in memory is refused with the reason (1024 end points on
/// 64 switches of 64 ports with 64 classes need 64 x 64 x 64 x 64 = 16.8 million VOQs).
#[test]
fn oversized_networks_are_refused() {
    let mut doc: Value = serde_json::from_str(R2).unwrap();
    doc["model"]["topology"] = json!({"kind": "min", "end_points": 1024, "switch_ports": 64});
    let class = doc["model"]["classes"][0].clone();
    let classes: Vec<Value> = (0..64)
        .map(|i| {
            let mut c = class.clone();
            c["name"] = json!(format!("C{i}"));
            c
        })
        .collect();
    doc["model"]["classes"] = json!(classes);
    doc["model"]["interface_scheduler"] = json!({"kind": "fifo"});
    doc["model"]["switch_scheduler"] = json!({"kind": "fifo"});
    assert_refused(&doc, "model.topology", "virtual output queues");
}

/// Too many connections (64 kb/s voice at load 1 on 1024 end points: 31 250 each, 32
/// million, plus video and controlled load) are refused before any is built.
#[test]
fn too_many_connections_are_refused() {
    let mut doc: Value = serde_json::from_str(R2).unwrap();
    doc["model"]["topology"] = json!({"kind": "min", "end_points": 1024, "switch_ports": 8});
    doc["model"]["classes"][1]["traffic"]["load"] = json!(1.0);
    doc["duration_us"] = json!(10);
    doc["warmup_us"] = json!(1);
    assert_refused(&doc, "model.classes", "connections together");
}

/// 4096 end points on 4-port switches: 12 stages of 2048 switches, whose routing tables
/// would hold 100 million entries; refused before anything is built.
#[test]
fn networks_with_huge_routing_tables_are_refused() {
    let mut doc: Value = serde_json::from_str(R2).unwrap();
    doc["model"]["topology"] = json!({"kind": "min", "end_points": 4096, "switch_ports": 4});
    doc["duration_us"] = json!(10);
    doc["warmup_us"] = json!(1);
    assert_refused(&doc, "model.topology", "routing tables");
}

/// Lane maps and credit policies: every refusal names the entry and the rule; valid
/// lanes open and run (the R2 network has 7 classes).
#[test]
fn lanes_errors_name_the_entry() {
    let with_lanes = |lanes: Value| {
        let mut d: Value = serde_json::from_str(R2).unwrap();
        d["model"]["lanes"] = lanes;
        d["duration_us"] = json!(20);
        d["warmup_us"] = json!(2);
        d
    };
    let cases = [
        (
            json!({"map": {"kind": "sl2vl", "sl2vl": [0, 1, 2, 3, 15, 0, 0]}}),
            "model.lanes.map.sl2vl[4]",
            "0 to 14",
        ),
        (
            json!({"map": {"kind": "sl2vl", "sl2vl": [0, 1]}}),
            "model.lanes.map.sl2vl",
            "each of the 7 classes",
        ),
        (
            json!({"map": {"kind": "omnipath", "sl2sc": [0, 1, 2, 3, 4, 5, 6],
                    "sc2vl": [0, 0, 1, 1, 2, 2, 3], "sc2sl": [0, 1, 2, 3, 4, 5, 5]}}),
            "model.lanes.map.sc2sl[6]",
            "back to SL 6",
        ),
        (
            json!({"map": {"kind": "class_to_vc", "vc": [0, 0, 0, 0, 1, 1, 32]}}),
            "model.lanes.map.vc[6]",
            "0 to 31",
        ),
        (
            json!({"map": {"kind": "vl_map"}}),
            "model.lanes.map.kind",
            "not a known lane map",
        ),
        (
            json!({"credits": {"kind": "shared", "min_bytes": 1024, "max_bytes": 16384}}),
            "model.lanes.credits.min_bytes",
            "largest packet",
        ),
        (
            json!({"credits": {"kind": "shared", "min_bytes": 4096, "max_bytes": 2048}}),
            "model.lanes.credits.max_bytes",
            "at least min_bytes",
        ),
        (
            json!({"credits": {"kind": "shared", "min_bytes": 4096, "max_bytes": 1000000}}),
            "model.lanes.credits.max_bytes",
            "at most the port's buffer",
        ),
        (
            json!({"credits": {"kind": "shared", "min_bytes": 16448, "max_bytes": 16448},
                   "map": {"kind": "class_to_vc", "vc": [0, 0, 0, 0, 1, 1, 1]}}),
            "model.lanes.credits.min_bytes",
            "must fit the port's buffer",
        ),
        (
            json!({"colour": "blue"}),
            "model.lanes.colour",
            "not a known field",
        ),
    ];
    for (lanes, path, text) in cases {
        let d = with_lanes(lanes.clone());
        assert!(Run::from_json(&d.to_string()).is_err(), "accepted: {lanes}");
        assert_refused(&d, path, text);
    }
    for lanes in [
        json!({"map": {"kind": "sl2vl", "sl2vl": [0, 0, 1, 1, 2, 2, 3, 3]}}),
        json!({"map": {"kind": "omnipath", "sl2sc": [1, 0, 3, 2, 5, 4, 6],
                "sc2vl": [0, 0, 1, 1, 2, 2, 3], "sc2sl": [1, 0, 3, 2, 5, 4, 6]}}),
        json!({"map": {"kind": "class_to_vc", "vc": [0, 0, 0, 0, 1, 1, 1]},
               "credits": {"kind": "shared", "min_bytes": 2048, "max_bytes": 24576}}),
    ] {
        let d = with_lanes(lanes.clone());
        let mut run = Run::from_json(&d.to_string()).unwrap_or_else(|e| panic!("{lanes}: {e}"));
        run.run_to_end();
        assert_eq!(
            run.network().unwrap().audit(),
            Some(Default::default()),
            "{lanes}"
        );
        assert!(run.results().delivered > 0);
    }
}

/// A class priority level above 7 is refused at the class's `priority`; 0 to 7 pass.
#[test]
fn priority_levels_are_zero_to_seven() {
    let mut doc = network(
        json!({"kind": "single_switch", "ports": 4}),
        &[
            (0.1, poisson(fixed(256)), uniform()),
            (0.1, poisson(fixed(256)), uniform()),
        ],
        json!({"kind": "fifo"}),
        json!({"kind": "fifo"}),
        (4096, 4096, 4096),
        link(2.0),
        100,
        1,
    );
    doc["model"]["classes"][0]["priority"] = json!(0);
    doc["model"]["classes"][1]["priority"] = json!(7);
    assert!(qoslab_core::Run::from_json(&doc.to_string()).is_ok());
    doc["model"]["classes"][1]["priority"] = json!(8);
    assert_refused(&doc, "model.classes[1].priority", "from 0 to 7");
}

/// The InfiniBand-like switch: the reference by default, and its refusals name the
/// field: VL 15 carries no data, at most 15 data VLs per port (map lanes x routing
/// lanes), stage cycles in range, every VL's share of a buffer holding a packet, shared
/// minimums fitting the output buffer too.
#[test]
fn infiniband_switch_rules_name_the_field() {
    let ib = |edit: &dyn Fn(&mut Value)| {
        let mut d: Value = serde_json::from_str(R2).unwrap();
        d["model"]["switch"] = json!({"kind": "infiniband"});
        d["duration_us"] = json!(20);
        d["warmup_us"] = json!(2);
        edit(&mut d);
        d
    };
    assert!(Run::from_json(&ib(&|_| {}).to_string()).is_ok());
    let torus = |d: &mut Value| {
        d["model"]["topology"] =
            json!({"kind": "torus", "dims": [4, 4], "trunk_ports": 1, "end_points_per_switch": 4});
        d["model"]["routing"] = json!({"kind": "dimension_order"});
    };
    // Seven classes with dateline lanes: 14 data VLs, accepted.
    assert!(Run::from_json(&ib(&torus).to_string()).is_ok());
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            ib(&|d| {
                d["model"]["lanes"] =
                    json!({"map": {"kind": "sl2vl", "sl2vl": [0, 1, 15, 3, 4, 5, 6]}})
            }),
            "model.lanes.map.sl2vl[2]",
            "VL 15 carries subnet management only",
        ),
        (
            ib(&|d| {
                torus(d);
                d["model"]["lanes"] =
                    json!({"map": {"kind": "sl2vl", "sl2vl": [0, 1, 2, 3, 4, 5, 7]}});
            }),
            "model.lanes.map",
            "at most 15 data VLs",
        ),
        (
            ib(&|d| d["model"]["switch"]["cycles"] = json!({"routing": 5000})),
            "model.switch.cycles.routing",
            "at most 1000 cycles",
        ),
        (
            ib(&|d| d["model"]["switch"]["cycles"] = json!({"routeing": 2})),
            "model.switch.cycles.routeing",
            "",
        ),
        (
            ib(&|d| d["model"]["switch"]["input_buffer_bytes"] = json!(8192)),
            "model.switch.input_buffer_bytes",
            "divided among the port's 7 VLs",
        ),
        (
            ib(&|d| d["model"]["switch"]["speedup"] = json!(0)),
            "model.switch.speedup",
            "from 1 to 16",
        ),
        (
            ib(&|d| {
                d["model"]["switch"]["output_buffer_bytes"] = json!(16384);
                d["model"]["lanes"] =
                    json!({"credits": {"kind": "shared", "min_bytes": 4096, "max_bytes": 16384}});
            }),
            "model.lanes.credits.min_bytes",
            "output buffer",
        ),
        (
            ib(&|d| {
                d["model"]["lanes"] =
                    json!({"credits": {"kind": "shared", "min_bytes": 4096, "max_bytes": 200000}});
            }),
            "model.lanes.credits.max_bytes",
            "at most the port's buffer, 114688 B (model.switch.input_buffer_bytes)",
        ),
        (
            ib(&|d| {
                d["model"]["switch"]["output_sl2vl"] =
                    json!([{"ports": [1, 9], "sl2vl": [0, 0, 0, 0, 0, 0, 0]}]);
            }),
            "model.switch.output_sl2vl[0].ports[1]",
            "switch port from 0 to 7",
        ),
        (
            ib(&|d| {
                d["model"]["switch"]["output_sl2vl"] =
                    json!([{"ports": [1], "sl2vl": [0, 0, 0, 0, 0, 0, 7]}]);
            }),
            "model.switch.output_sl2vl[0].sl2vl[6]",
            "from 0 to 6",
        ),
        (
            ib(&|d| {
                d["model"]["switch"]["output_sl2vl"] = json!([{"ports": [1], "sl2vl": [0, 0]}]);
            }),
            "model.switch.output_sl2vl[0].sl2vl",
            "each of the 7 classes",
        ),
    ];
    for (doc, path, text) in cases {
        assert_refused(&doc, path, text);
    }
    let remapped = ib(&|d| {
        d["model"]["switch"]["output_sl2vl"] =
            json!([{"ports": [0, 1, 2, 3], "sl2vl": [0, 0, 1, 1, 2, 2, 6]}]);
    });
    assert!(Run::from_json(&remapped.to_string()).is_ok());
}

/// The Omni-Path-like switch: the reference by default (also on a torus with dateline
/// lanes), and its refusals name the field: the central buffer's size and cycles, and a
/// shared minimum per VL that must fit each central link's half of the central buffer.
#[test]
fn omnipath_switch_rules_name_the_field() {
    let opa = |edit: &dyn Fn(&mut Value)| {
        let mut d: Value = serde_json::from_str(R2).unwrap();
        d["model"]["switch"] = json!({"kind": "omnipath"});
        d["duration_us"] = json!(20);
        d["warmup_us"] = json!(2);
        edit(&mut d);
        d
    };
    assert!(Run::from_json(&opa(&|_| {}).to_string()).is_ok());
    assert!(
        Run::from_json(
            &opa(&|d| {
                d["model"]["topology"] = json!({"kind": "torus", "dims": [4, 4], "trunk_ports": 1,
                    "end_points_per_switch": 4});
                d["model"]["routing"] = json!({"kind": "dimension_order"});
            })
            .to_string()
        )
        .is_ok()
    );
    assert_refused(
        &opa(&|d| d["model"]["switch"]["central_buffer_bytes"] = json!(64)),
        "model.switch.central_buffer_bytes",
        "between 128",
    );
    assert_refused(
        &opa(&|d| d["model"]["switch"]["central_cycles"] = json!({"crossbar": 5000})),
        "model.switch.central_cycles.crossbar",
        "at most 1000 cycles",
    );
    assert_refused(
        &opa(&|d| {
            d["model"]["switch"]["central_buffer_bytes"] = json!(32768);
            d["model"]["lanes"] =
                json!({"credits": {"kind": "shared", "min_bytes": 4096, "max_bytes": 16384}});
        }),
        "model.lanes.credits.min_bytes",
        "central buffer",
    );
}
