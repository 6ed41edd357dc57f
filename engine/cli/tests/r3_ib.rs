//! Reference scenario R3 (`shared/spec/50-reference-scenarios.md`) on the InfiniBand-like
//! switch: the four presets `public/presets/r3-<topology>-ib.json`.
//!
//! The presets are built here from their sources, never copied by hand: the traffic from
//! `traffic::classes_r3` (`r3_network_classes`: NC uniform 192 B, VO CBR 128 B, VI and CL
//! CBR 2048 B, EE/BE/BK Bursts4 of 1024 B messages with the per-SL MTU table), the table
//! from the designer run on `public/designs/r3-table.json` (N = 64, GMTU = 32 credits, the
//! study's distances and shares, w = 2.9 and k = 0.5 from its search), mapped the
//! InfiniBand way: one VL per SL (`sl2vl` identity; the dateline of dimension order
//! doubles the lanes on tori), the DTable at every output port over the VLs (the designer's
//! InfiniBand mapping panel shows how its entries, deficits and accumulator sit in the
//! VLArb tables; the simulation runs the DTable itself), the reference buffers shared by
//! the VLs with a minimum of one GMTU and a maximum of half the port.
//! `presets_are_what_the_designer_and_the_r3_traffic_produce` fails if a file drifts;
//! `QOSLAB_WRITE_PRESETS=1 cargo test -p qoslab-cli --test r3_ib` rewrites them.
//! The Omni-Path-like presets `r3-<topology>-opa.json` are built from the same scenarios
//! with the other switch and its lane map (`build_opa_preset`; the same test checks and
//! rewrites them); the run and sweep tests below cover both switch models.
//!
//! Behaviour (short runs): every preset validates; `qoslab run` and `qoslab sweep` give
//! results per SL with flits per cycle per end point; below saturation the QoS SLs get the
//! throughput they inject.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use std::path::PathBuf;

use common::{qoslab_json, repo_path};

use qoslab_core::design::{Design, design, parse_requirements};
use qoslab_core::scenario;
use qoslab_core::time::BitRate;
use qoslab_core::traffic::classes_r3::{
    R3_BEST_EFFORT_LOAD, R3_FLIT_BYTES, R3_LINK_GBPS, r3_classes, r3_network_classes,
};
use serde_json::{Value, json};

/// The four topologies: file stem, title, topology, routing, simulated µs by default.
struct Topology {
    stem: &'static str,
    title: &'static str,
    what: &'static str,
    /// How the Omni-Path-like preset's description names the network.
    opa_what: &'static str,
    topology: fn() -> Value,
    routing: &'static str,
    duration_us: u64,
}

const TOPOLOGIES: [Topology; 4] = [
    Topology {
        stem: "r3-4ary3tree",
        title: "4-ary 3-tree",
        what: "a 4-ary 3-tree (64 end points, 48 switches of 8 ports) with Valiant routing (up to a random top-stage switch, then down)",
        opa_what: "64 end points on a 4-ary 3-tree of 48 eight-port switches (2 MPorts each), Valiant routing",
        topology: || json!({"kind": "tree", "k": 4, "n": 3}),
        routing: "valiant",
        duration_us: 100,
    },
    Topology {
        stem: "r3-24ary2tree",
        title: "24-ary 2-tree",
        what: "a 24-ary 2-tree (576 end points, 48 switches of 48 ports) with Valiant routing (up to a random top-stage switch, then down)",
        opa_what: "576 end points on a 24-ary 2-tree of 48 switches of 48 ports (the reference 12 MPorts), Valiant routing",
        topology: || json!({"kind": "tree", "k": 24, "n": 2}),
        routing: "valiant",
        duration_us: 40,
    },
    Topology {
        stem: "r3-torus8x8",
        title: "8x8 torus",
        what: "an 8x8 2D torus (64 switches of 48 ports: 8 end points each and trunks of 10 ports per direction; 512 end points) with dimension-order routing and a dateline (two VLs per SL)",
        opa_what: "512 end points on an 8x8 torus of 48-port switches (8 end points each, trunks of 10 ports per direction), dimension-order routing with a dateline (a second SC and VL per SL)",
        topology: || json!({"kind": "torus", "dims": [8, 8], "trunk_ports": 10, "end_points_per_switch": 8}),
        routing: "dimension_order",
        duration_us: 40,
    },
    Topology {
        stem: "r3-torus8x8x8",
        title: "8x8x8 torus",
        what: "an 8x8x8 3D torus (512 switches of 28 ports: 4 end points each and trunks of 4 ports per direction; 2048 end points) with dimension-order routing and a dateline (two VLs per SL)",
        opa_what: "2048 end points on an 8x8x8 torus of 28-port switches (4 end points each, trunks of 4 ports per direction, 7 MPorts), dimension-order routing with a dateline (a second SC and VL per SL)",
        topology: || json!({"kind": "torus", "dims": [8, 8, 8], "trunk_ports": 4, "end_points_per_switch": 4}),
        routing: "dimension_order",
        duration_us: 20,
    },
];

/// Reference buffers of the InfiniBand-like switch and its interfaces (spec, 30-network.md).
const PORT_BUFFER_BYTES: u64 = 114_688;
const INTERFACE_BUFFER_BYTES: u64 = 229_376;
/// Each VL's share of a port buffer: at least one GMTU, at most half the port.
const VL_MIN_BYTES: u64 = 2048;
const VL_MAX_BYTES: u64 = PORT_BUFFER_BYTES / 2;

/// The preset of a topology for one switch model (`"ib"` or `"opa"`).
fn preset_path(stem: &str, switch: &str) -> PathBuf {
    repo_path(&format!("public/presets/{stem}-{switch}.json"))
}

fn r3_design() -> Design {
    let text = std::fs::read_to_string(repo_path("public/designs/r3-table.json")).unwrap();
    design(&parse_requirements(&text).unwrap()).unwrap()
}

/// The designed DTable as a scheduler configuration (class index = SL).
fn dtable(d: &Design, names: &[&str]) -> Value {
    let table: Vec<Value> = d
        .table
        .iter()
        .map(|e| {
            let class = names.iter().position(|n| *n == e.class).unwrap();
            json!({"class": class, "weight": e.weight.unwrap()})
        })
        .collect();
    json!({"kind": "dtable", "table": table})
}

fn build_preset(t: &Topology, d: &Design) -> Value {
    let link = BitRate::from_gbps(R3_LINK_GBPS).unwrap();
    let classes = r3_network_classes(link, R3_BEST_EFFORT_LOAD);
    let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
    let designed: Vec<&str> = d.classes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, designed, "the R3 table's classes are R3's SLs");
    let sched = dtable(d, &names);
    // Admission as R2's: each connection class (VO, VI, CL) may reserve its wanted share
    // of every link on its route, the share the DTable guarantees it.
    let reserved: Vec<f64> = r3_classes(link, R3_BEST_EFFORT_LOAD)
        .iter()
        .zip(&d.classes)
        .map(|(c, designed)| {
            if c.kind.is_connection() {
                designed.wanted_share
            } else {
                0.0
            }
        })
        .collect();
    let admission = json!({"qos_cap": 1.0, "reserved": reserved});
    let per_class = |f: &dyn Fn(&qoslab_core::design::ClassDesign) -> String| -> String {
        d.classes.iter().map(f).collect::<Vec<_>>().join(", ")
    };
    let shares = per_class(&|c| format!("{} every {} entries", c.name, 64 / c.entries.max(1)));
    let weights = per_class(&|c| {
        let w: Vec<u64> = d
            .table
            .iter()
            .filter(|e| e.class == c.name)
            .map(|e| e.weight.unwrap())
            .collect();
        format!("{} {}", c.name, w.first().copied().unwrap_or(0))
    });
    let warmup = t.duration_us / 10;
    json!({
        "version": 1,
        "name": format!("R3: {}, InfiniBand-like switches", t.title),
        "description": format!(
            "Reference scenario R3 (InfiniBand vs Omni-Path switches with DTable) on {}, with InfiniBand-like switches \
             (the reference model: 100 Gb/s links, flit = credit = 64 B, input buffer, routing unit, VL allocation, switch \
             allocation, crossbar and output buffer of one cycle each, 114 688 B per port in and out shared by the VLs with \
             {VL_MIN_BYTES} B reserved per VL and at most {VL_MAX_BYTES} B, 229 376 B per SL at the interfaces). One VL per SL \
             (SL2VL identity). Every output port and interface runs the study's DTable: the designer's table for \
             public/designs/r3-table.json (N = 64, GMTU = 32 credits, w = {}, k = {}, M = {}: {shares}; weights {weights} credits). \
             Traffic per end point: NC uniform 192 B 0.01, VO CBR 128 B 0.02, VI CBR 2048 B 0.30, CL CBR 2048 B 0.35 (QoS, fixed), \
             EE, BE, BK Bursts4 of 1024 B messages split by the per-SL MTU table, {R3_BEST_EFFORT_LOAD} each (total 0.80); uniform \
             destinations. Admission control as in R2: a VO, VI or CL connection (0.5 %, 10 % and 5 % of the link each) is admitted \
             only while its class stays within its wanted share of every link on its route (VO 0.164, VI 0.30, CL 0.35), so the \
             offered QoS load is what is admitted (the results count refusals). A sweep scales EE, BE and BK (qoslab sweep --loads 0.7,0.8,0.9,1.0). Latency per SL in ns from \
             generation, throughput in flits/cycle/node (a cycle = one 64 B flit on a link, 5.12 ns). {} µs simulated, the first {} µs \
             excluded as warm-up.",
            t.what,
            d.w.unwrap(),
            d.k.unwrap(),
            d.max_entry_weight.unwrap(),
            t.duration_us,
            warmup
        ),
        "seed": 1,
        "duration_us": t.duration_us,
        "warmup_us": warmup,
        "model": {
            "kind": "network",
            "link": {"rate_gbps": R3_LINK_GBPS, "latency_ns": 10},
            "topology": (t.topology)(),
            "routing": {"kind": t.routing},
            "switch": {
                "kind": "infiniband",
                "speedup": 1.0,
                "input_buffer_bytes": PORT_BUFFER_BYTES,
                "output_buffer_bytes": PORT_BUFFER_BYTES,
                "cycles": {"input_buffer": 1, "routing": 1, "vl_allocation": 1,
                           "switch_allocation": 1, "crossbar": 1, "output_buffer": 1}
            },
            "lanes": {
                "map": {"kind": "sl2vl", "sl2vl": (0..names.len()).collect::<Vec<_>>()},
                "credits": {"kind": "shared", "min_bytes": VL_MIN_BYTES, "max_bytes": VL_MAX_BYTES}
            },
            "interface": {"buffer_bytes": INTERFACE_BUFFER_BYTES},
            "flit_bytes": R3_FLIT_BYTES,
            "admission": admission,
            "classes": classes,
            "interface_scheduler": sched,
            "switch_scheduler": sched
        }
    })
}

/// The Omni-Path-like preset: the InfiniBand-like one `ib` with the other switch (the
/// reference Omni-Path-like parameters) and its lane map (one SC and one VL per SL; the
/// dateline's second lane comes from the routing), so the R3 view compares the switches
/// alone.
fn build_opa_preset(t: &Topology, ib: &Value) -> Value {
    let mut doc = ib.clone();
    let warmup = t.duration_us / 10;
    doc["name"] = json!(format!("R3 Omni-Path-like: {}", t.title));
    doc["description"] = json!(format!(
        "{}; Omni-Path-like switches (the reference model: 100 Gb/s links, MPorts of 4 ports with 4x6 local crossbars, two \
         links per MPort into a central crossbar with 229 376 B per MPort, 3 flits per cycle, 114 688 B per port in and out \
         shared by the VLs with {VL_MIN_BYTES} B reserved per VL and at most half the port, one cycle per stage); SL2SC, SC2VL \
         and SC2SL one SC and one VL per SL; R3's traffic (NC 0.01, VO 0.02, VI 0.30, CL 0.35, EE/BE/BK Bursts4 of 1024 B \
         messages {R3_BEST_EFFORT_LOAD} each per end point, messages split by the per-SL MTUs) and the study's DTable (N = 64, \
         GMTU = 32 credits, w and k from public/designs/r3-table.json) at every interface and output port, the Omni-Path \
         adaptation: a deficit counter per SL and one accumulator per output. Admission control as in R2 and the \
         InfiniBand-like presets: a VO, VI or CL connection (0.5 %, 10 % and 5 % of the link each) is admitted only while its \
         class stays within its wanted share of every link on its route (VO 0.164, VI 0.30, CL 0.35), so the offered QoS load \
         is what is admitted (the results count refusals). The same traffic, table, admission, durations and seed as \
         {}-ib.json: only the switch (and its lane map: SL2SC, SC2VL, SC2SL) differs. One load point: {} us simulated, the \
         first {warmup} us excluded as warm-up.",
        t.opa_what, t.stem, t.duration_us
    ));
    doc["model"]["switch"] = json!({
        "kind": "omnipath",
        "speedup": 3.0,
        "input_buffer_bytes": PORT_BUFFER_BYTES,
        "output_buffer_bytes": PORT_BUFFER_BYTES,
        "central_buffer_bytes": 2 * PORT_BUFFER_BYTES,
        "cycles": {"input_buffer": 1, "routing": 1, "vl_allocation": 1,
                   "switch_allocation": 1, "crossbar": 1, "output_buffer": 1},
        "central_cycles": {"buffer": 1, "vl_allocation": 1, "switch_allocation": 1, "crossbar": 1}
    });
    let sls = ib["model"]["lanes"]["map"]["sl2vl"].clone();
    doc["model"]["lanes"]["map"] =
        json!({"kind": "omnipath", "sl2sc": sls, "sc2vl": sls, "sc2sl": sls});
    doc
}

fn canonical(doc: &Value) -> Value {
    let s = scenario::parse(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    scenario::validate(&s).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&s.to_json_pretty()).unwrap()
}

#[test]
fn presets_are_what_the_designer_and_the_r3_traffic_produce() {
    let d = r3_design();
    for t in &TOPOLOGIES {
        let ib = build_preset(t, &d);
        let opa = build_opa_preset(t, &ib);
        for (switch, doc) in [("ib", ib), ("opa", opa)] {
            let path = preset_path(t.stem, switch);
            if std::env::var_os("QOSLAB_WRITE_PRESETS").is_some() {
                let s = scenario::parse(&doc.to_string()).unwrap();
                std::fs::write(&path, s.to_json_pretty() + "\n").unwrap();
            }
            let file: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(
                file,
                canonical(&doc),
                "{}-{switch}.json differs from what the designer and the R3 traffic produce; \
                 rerun with QOSLAB_WRITE_PRESETS=1 after checking why",
                t.stem
            );
        }
    }
}

/// The table in the presets is the study's (the designer's numbers, checked by hand in
/// `core/tests/design_r3.rs`): 64 entries, NC at the even entries, CL weight within M = 92.
#[test]
fn presets_carry_the_study_table() {
    for t in &TOPOLOGIES {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(preset_path(t.stem, "ib")).unwrap())
                .unwrap();
        let table = doc["model"]["switch_scheduler"]["table"]
            .as_array()
            .unwrap();
        assert_eq!(table.len(), 64, "{}", t.stem);
        let class = |i: usize| table[i]["class"].as_u64().unwrap();
        assert!((0..64).step_by(2).all(|i| class(i) == 0), "{}", t.stem);
        let entries: Vec<usize> = (0..7u64)
            .map(|c| table.iter().filter(|e| e["class"] == c).count())
            .collect();
        assert_eq!(entries, [32, 16, 8, 4, 2, 1, 1], "{}", t.stem);
        assert!(
            table.iter().all(|e| e["weight"].as_u64().unwrap() <= 92),
            "{}",
            t.stem
        );
        assert_eq!(
            doc["model"]["interface_scheduler"],
            doc["model"]["switch_scheduler"]
        );
        assert_eq!(doc["model"]["switch"]["kind"], "infiniband");
        let mtus: Vec<u64> = doc["model"]["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["mtu_bytes"].as_u64().unwrap())
            .collect();
        assert_eq!(mtus, [192, 128, 2048, 2048, 1024, 1024, 1024]);
    }
}

/// Every preset is listed in the network presets of `public/presets/index.json`, group R3.
#[test]
fn presets_are_listed_in_group_r3() {
    let index: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_path("public/presets/index.json")).unwrap(),
    )
    .unwrap();
    let list = index["network_presets"].as_array().unwrap();
    for t in &TOPOLOGIES {
        let file = format!("{}-ib.json", t.stem);
        let entry = list
            .iter()
            .find(|e| e["file"] == file.as_str())
            .unwrap_or_else(|| panic!("{file} is not in index.json"));
        assert_eq!(entry["group"], "R3", "{file}");
    }
}

/// The Omni-Path-like presets (`<stem>-opa.json`) are the InfiniBand-like ones with another
/// switch: the same traffic, table, admission, seed and durations, so the R3 view compares
/// the switches alone. Only `model.switch`, `model.lanes` (SL2SC/SC2VL/SC2SL instead of
/// SL2VL), the name and the description may differ.
#[test]
fn opa_presets_differ_from_the_ib_ones_only_in_the_switch() {
    for t in &TOPOLOGIES {
        let read = |suffix: &str| -> Value {
            let path = repo_path(&format!("public/presets/{}-{suffix}.json", t.stem));
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
        };
        let (mut ib, mut opa) = (read("ib"), read("opa"));
        assert_eq!(ib["model"]["switch"]["kind"], "infiniband", "{}", t.stem);
        assert_eq!(opa["model"]["switch"]["kind"], "omnipath", "{}", t.stem);
        for doc in [&mut ib, &mut opa] {
            let o = doc.as_object_mut().unwrap();
            o.remove("name");
            o.remove("description");
            let m = o["model"].as_object_mut().unwrap();
            m.remove("switch");
            m.remove("lanes");
        }
        assert_eq!(
            ib, opa,
            "{}: the -ib and -opa presets differ beyond the switch",
            t.stem
        );
    }
}

/// Flits per cycle per end point of every class of a run's results, with the offered ones.
fn flits(results: &Value) -> Vec<(String, f64, f64)> {
    results["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let f = &c["flits"];
            (
                c["name"].as_str().unwrap().to_string(),
                f["offered"].as_f64().unwrap(),
                f["throughput"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// `qoslab run` on every preset of both switch models (shortened): results per SL with
/// flits per cycle per end point; checks of the audit and the SL names.
#[test]
fn every_preset_runs_with_results_per_sl() {
    for (t, switch) in TOPOLOGIES.iter().flat_map(|t| [(t, "ib"), (t, "opa")]) {
        let path = repo_path(&format!("public/presets/{}-{switch}.json", t.stem));
        let ms = if t.stem == "r3-torus8x8x8" {
            "0.002"
        } else {
            "0.005"
        };
        let v = qoslab_json([
            "run",
            path.to_str().unwrap(),
            "--duration-ms",
            ms,
            "--quiet",
        ]);
        let per_sl = flits(&v);
        let names: Vec<&str> = per_sl.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(
            names,
            ["NC", "VO", "VI", "CL", "EE", "BE", "BK"],
            "{}-{switch}",
            t.stem
        );
        for c in &v["classes"].as_array().unwrap()[..] {
            assert!(c["delivered"].as_u64().unwrap() > 0, "{}: {c}", t.stem);
            assert!(
                c["latency_ns"]["mean"].as_f64().unwrap() > 0.0,
                "{}",
                t.stem
            );
            assert_eq!(c["flits"]["flit_bytes"], 64);
        }
    }
}

/// `qoslab sweep` on the 4-ary 3-tree with either switch model: two loads below
/// saturation, two seeds, per-SL summaries with confidence half-widths; the QoS SLs (NC,
/// VO, VI, CL) get the throughput they inject (within 10 %), and best effort follows the
/// load axis.
#[test]
fn sweep_of_the_4ary3tree_gives_per_sl_results_and_qos_gets_what_it_injects() {
    for switch in ["ib", "opa"] {
        sweep_4ary3tree(switch);
    }
}

fn sweep_4ary3tree(switch: &str) {
    let path = repo_path(&format!("public/presets/r3-4ary3tree-{switch}.json"));
    let v = qoslab_json([
        "sweep",
        path.to_str().unwrap(),
        "--loads",
        "0.7,0.8",
        "--seeds",
        "2",
        "--duration-ms",
        "0.04",
        "--quiet",
    ]);
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    let mut best_effort = Vec::new();
    for p in points {
        assert_eq!(p["runs"], 2);
        let classes = p["classes"].as_array().unwrap();
        assert_eq!(classes.len(), 7);
        for c in classes {
            assert!(c["throughput_ci90"].is_number(), "{c}");
            assert!(c["mean_ns"].as_f64().unwrap() > 0.0, "{c}");
            // Flits per cycle per end point, summarised per SL; R3's packets are whole
            // flits, so they are the throughput normalised to the link.
            let flits = c["flits_per_cycle"].as_f64().unwrap();
            assert!(
                (flits - c["throughput"].as_f64().unwrap()).abs() < 1e-12,
                "{c}"
            );
            assert!(c["flits_per_cycle_ci90"].is_number(), "{c}");
        }
        for run in p["results"].as_array().unwrap() {
            for (name, offered, got) in &flits(run)[..4] {
                assert!(
                    (got / offered - 1.0).abs() < 0.1,
                    "{switch}: {name} at load {}: {got} of {offered} flits/cycle/node",
                    p["load"]
                );
            }
        }
        best_effort.push(
            classes[4..]
                .iter()
                .map(|c| c["offered"].as_f64().unwrap())
                .sum::<f64>(),
        );
    }
    // EE + BE + BK carry the load above the QoS classes' fixed 0.68.
    assert!((best_effort[0] - 0.02).abs() < 0.01, "{best_effort:?}");
    assert!((best_effort[1] - 0.12).abs() < 0.02, "{best_effort:?}");
}
