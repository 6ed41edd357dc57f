//! Reference scenario R2 (`shared/spec/50-reference-scenarios.md`): the multimedia
//! network with DTable, DTable-WF2Q, SCFQ and DRR.
//!
//! The four presets `public/presets/r2-multimedia-*.json` are built here from their
//! sources, never copied by hand: the traffic from `traffic::classes_8021d` (`r2_classes`,
//! `r2_admission`), the schedulers from the table designer run on the public test vector
//! of `20-table-design.md` (the designed DTable, and its `equivalents`: WF2Q-emulation
//! table, SCFQ weights, DRR quanta). `presets_are_what_the_designer_produces` fails if a
//! file drifts; `QOSLAB_WRITE_PRESETS=1 cargo test -p qoslab-cli --test r2` rewrites them.
//!
//! The behaviour tests (what R2 must show) run short: 3 ms simulated with 0.5 ms warm-up
//! (instead of the presets' 10 ms), 3 seeds, total loads 0.8 and 1.0 on a 16-end-point
//! MIN for all four schedulers, and load 1.0 on the full 64-end-point network for DTable
//! and DRR.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use std::process::Command;

use common::{preset as preset_path, qoslab_json};

use qoslab_core::design::{Design, design, parse_requirements};
use qoslab_core::sweep::{SweepPoint, replications};
use qoslab_core::traffic::classes_8021d::{TrafficType, r2_admission, r2_classes};
use qoslab_core::{Run, RunResults, scenario};
use serde_json::{Value, json};

/// The public test vector (N = 64, GMTU 2048 B, w = 2, k = 0.5).
const VECTOR: &str = qoslab_core::design::MULTIMEDIA_VECTOR;

/// Load of each best-effort class in the presets: R2's highest point (total 0.996).
const BEST_EFFORT_LOAD: f64 = 0.093;
/// Default run of the presets: 10 ms simulated, the first 1 ms excluded.
const DURATION_US: u64 = 10_000;
const WARMUP_US: u64 = 1_000;

/// The four presets: file name, title, scheduler description.
const PRESETS: [(&str, &str, &str); 4] = [
    (
        "r2-multimedia-dtable",
        "R2: DTable",
        "the Deficit Table designed for the public test vector (64 entries, w = 2, k = 0.5: NC every 2nd entry weight 3, VO every 4th weight 3, VI every 8th weight 64, CL every 16th weight 52, EE every 32nd weight 48, BE and BK once with 48 and 16)",
    ),
    (
        "r2-multimedia-dtable-wf2q",
        "R2: DTable emulating WF2Q",
        "a Deficit Table emulating WF2Q: every entry weighs 32 credits (one 2048 B MTU) and the 64 entries are shared in proportion to bandwidth (NC 6, VO 3, VI 32, CL 13, EE 6, BE 3, BK 1), placed by WF2Q interleaving",
    ),
    (
        "r2-multimedia-scfq",
        "R2: SCFQ",
        "self-clocked fair queueing with weights equal to the shares of the public test vector",
    ),
    (
        "r2-multimedia-drr",
        "R2: DRR",
        "deficit round robin with quanta proportional to the shares, BK getting its 16-credit MTU: NC 96, VO 48, VI 512, CL 208, EE 96, BE 48, BK 16 credits",
    ),
];

fn vector_design() -> Design {
    design(&parse_requirements(VECTOR).unwrap()).unwrap()
}

/// The scheduler of a preset, from the designer's output.
fn scheduler(name: &str, d: &Design) -> Value {
    let index = |class: &str| d.classes.iter().position(|c| c.name == class).unwrap();
    let table = |entries: &[qoslab_core::design::DesignEntry]| -> Value {
        entries
            .iter()
            .map(|e| json!({"class": index(&e.class), "weight": e.weight.unwrap()}))
            .collect()
    };
    let e = &d.equivalents;
    match name {
        "r2-multimedia-dtable" => json!({"kind": "dtable", "table": table(&d.table)}),
        "r2-multimedia-dtable-wf2q" => json!({"kind": "dtable", "table": table(&e.wf2q_table)}),
        "r2-multimedia-scfq" => json!({
            "kind": "scfq",
            "weights": e.classes.iter().map(|c| c.scfq_weight).collect::<Vec<_>>()
        }),
        "r2-multimedia-drr" => json!({
            "kind": "drr",
            "quanta_bytes": e.classes.iter().map(|c| c.drr_quantum_credits * 64).collect::<Vec<_>>()
        }),
        other => panic!("no scheduler for {other}"),
    }
}

/// A preset as the designer and the R2 traffic definitions make it.
fn build_preset(name: &str, title: &str, what: &str, d: &Design) -> Value {
    let classes: Vec<Value> = r2_classes(BEST_EFFORT_LOAD)
        .into_iter()
        .map(|(t, traffic)| {
            json!({
                "name": t.short_name(),
                "best_effort": matches!(
                    t,
                    TrafficType::ExcellentEffort | TrafficType::BestEffort | TrafficType::Background
                ),
                "traffic": traffic
            })
        })
        .collect();
    let names: Vec<&str> = d.classes.iter().map(|c| c.name.as_str()).collect();
    let ours: Vec<&str> = classes
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ours, "the vector's classes are R2's classes");
    let sched = scheduler(name, d);
    json!({
        "version": 1,
        "name": title,
        "description": format!(
            "Reference scenario R2 (multimedia) with {what}, at the interfaces and at every switch output. \
             Network: folded perfect-shuffle MIN of 64 end points and 48 8-port CIOQ switches (virtual output queues, \
             crossbar speedup 1.5, round-robin crossbar, 145 ns header crossing), 2 Gb/s links (2.5 Gb/s with 8b/10b), \
             credit flow control, 32 KiB per class at the interfaces and 16 KiB per class at switch inputs and outputs. \
             Classes (IEEE 802.1D): NC one-packet bursts of Pareto sizes up to its 192 B MTU; VO 64 kb/s CBR connections \
             of 160 B; VI 3 Mb/s synthetic MPEG-4 video (25 frames/s, GOP IBBPBBPBBPBB, 2048 B packets); CL 750 kb/s CBR \
             connections of 2048 B; EE, BE, BK Bursts60 (60 packets to one destination, Pareto sizes up to their 1024 B MTU, \
             Poisson gaps); uniform destinations; admission control on VO, VI and CL (each may reserve its share of every \
             link on its route). Loads per end point: NC 0.015, VO 0.046, VI 0.453, CL 0.203 fixed; EE, BE, BK {BEST_EFFORT_LOAD} \
             each (total 0.996, R2's highest point); a sweep scales only EE, BE and BK (qoslab sweep --loads 0.76,0.88,1.0 \
             --seeds 10). The four R2 presets differ only in the scheduler. {} ms simulated, the first {} ms excluded as \
             warm-up (the network fills within a few hundred microseconds); voice and controlled-load connections send \
             every 20-22 ms, so their jitter needs runs over 25 ms (--duration-ms).",
            DURATION_US / 1000,
            WARMUP_US / 1000
        ),
        "seed": 1,
        "duration_us": DURATION_US,
        "warmup_us": WARMUP_US,
        "model": {
            "kind": "network",
            "link": {"rate_gbps": 2.0},
            "topology": {"kind": "min", "end_points": 64, "switch_ports": 8},
            "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 145,
                       "input_buffer_bytes": 16384, "output_buffer_bytes": 16384},
            "interface": {"buffer_bytes": 32768},
            "classes": classes,
            "admission": r2_admission(),
            "interface_scheduler": sched,
            "switch_scheduler": sched
        }
    })
}

fn expected_presets() -> Vec<(&'static str, Value)> {
    let d = vector_design();
    PRESETS
        .iter()
        .map(|&(name, title, what)| (name, build_preset(name, title, what, &d)))
        .collect()
}

fn read_preset(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(preset_path(name)).unwrap()).unwrap()
}

#[test]
fn presets_are_what_the_designer_produces() {
    let expected = expected_presets();
    if std::env::var_os("QOSLAB_WRITE_PRESETS").is_some() {
        for (name, doc) in &expected {
            // Through the engine, so the file is in its canonical form.
            let s = scenario::parse(&doc.to_string()).unwrap();
            std::fs::write(preset_path(name), s.to_json_pretty() + "\n").unwrap();
        }
    }
    for (name, doc) in &expected {
        let file = read_preset(name);
        let canonical: Value =
            serde_json::from_str(&scenario::parse(&doc.to_string()).unwrap().to_json_pretty())
                .unwrap();
        assert_eq!(
            file, canonical,
            "{name}.json differs from what the designer and the R2 traffic produce; \
             rerun with QOSLAB_WRITE_PRESETS=1 after checking why"
        );
    }
}

/// The designer's numbers are the spec's (so the presets carry the published parameters).
#[test]
fn presets_carry_the_published_parameters() {
    let weights = |doc: &Value| -> Vec<(u64, u64)> {
        doc["model"]["switch_scheduler"]["table"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["class"].as_u64().unwrap(), e["weight"].as_u64().unwrap()))
            .collect()
    };
    let per_class = |t: &[(u64, u64)]| -> Vec<(usize, u64)> {
        (0..7u64)
            .map(|c| {
                let w: Vec<u64> = t.iter().filter(|e| e.0 == c).map(|e| e.1).collect();
                (w.len(), w.iter().sum())
            })
            .collect()
    };
    let dtable = weights(&read_preset("r2-multimedia-dtable"));
    assert_eq!(dtable.len(), 64);
    assert_eq!(
        per_class(&dtable),
        [
            (32, 96),
            (16, 48),
            (8, 512),
            (4, 208),
            (2, 96),
            (1, 48),
            (1, 16)
        ]
    );
    // NC at even entries, VO at 1, 5, 9, ..., BK alone at 63.
    assert!(dtable.iter().step_by(2).all(|e| e.0 == 0));
    assert_eq!((dtable[1].0, dtable[63].0), (1, 6));
    let wf2q = weights(&read_preset("r2-multimedia-dtable-wf2q"));
    assert_eq!(
        per_class(&wf2q).iter().map(|c| c.0).collect::<Vec<_>>(),
        [6, 3, 32, 13, 6, 3, 1]
    );
    assert!(wf2q.iter().all(|e| e.1 == 32));
    // WF2Q interleaving: VI (half the entries) never twice in a row.
    assert!(wf2q.windows(2).all(|w| !(w[0].0 == 2 && w[1].0 == 2)));
    let drr = read_preset("r2-multimedia-drr");
    assert_eq!(
        drr["model"]["switch_scheduler"]["quanta_bytes"],
        json!([
            96 * 64,
            48 * 64,
            512 * 64,
            208 * 64,
            96 * 64,
            48 * 64,
            16 * 64
        ])
    );
    let scfq = read_preset("r2-multimedia-scfq");
    assert_eq!(
        scfq["model"]["switch_scheduler"]["weights"],
        json!([
            0.09375, 0.046875, 0.5, 0.203125, 0.09375, 0.046875, 0.015625
        ])
    );
    for (name, _, _) in PRESETS {
        let doc = read_preset(name);
        assert_eq!(
            doc["model"]["interface_scheduler"], doc["model"]["switch_scheduler"],
            "{name}"
        );
    }
}

/// The presets are comparable: same network, traffic, seed, duration; they are in the
/// preset index.
#[test]
fn presets_differ_only_in_the_scheduler_and_are_indexed() {
    let strip = |name: &str| {
        let mut d = read_preset(name);
        for key in ["name", "description"] {
            d.as_object_mut().unwrap().remove(key);
        }
        for key in ["interface_scheduler", "switch_scheduler"] {
            d["model"].as_object_mut().unwrap().remove(key);
        }
        d
    };
    for (name, _, _) in &PRESETS[1..] {
        assert_eq!(strip(name), strip(PRESETS[0].0), "{name}");
    }
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(preset_path("index")).unwrap()).unwrap();
    let listed: Vec<(&str, &str)> = index["network_presets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["group"] == json!("R2"))
        .map(|p| (p["file"].as_str().unwrap(), p["title"].as_str().unwrap()))
        .collect();
    let want: Vec<(String, &str)> = PRESETS
        .iter()
        .map(|(n, t, _)| (format!("{n}.json"), *t))
        .collect();
    assert_eq!(
        listed,
        want.iter()
            .map(|(f, t)| (f.as_str(), *t))
            .collect::<Vec<_>>()
    );
}

// ---- what R2 must show ----

/// Short runs for the behaviour tests.
const TEST_DURATION_US: u64 = 3_000;
const TEST_WARMUP_US: u64 = 500;
const SEEDS: u32 = 3;

/// One sweep point of a preset (3 seeds) on the short run, on a MIN of `end_points`.
fn point(name: &str, load: f64, end_points: u32) -> SweepPoint {
    let text = std::fs::read_to_string(preset_path(name)).unwrap();
    let mut s = scenario::parse(&text).unwrap();
    s.duration_us = TEST_DURATION_US;
    s.warmup_us = TEST_WARMUP_US;
    if let qoslab_core::scenario::Model::Network(net) = &mut s.model {
        if let qoslab_core::scenario::TopologyConfig::Min(m) = &mut net.topology {
            m.end_points = end_points;
        }
    }
    let runs: Vec<RunResults> = replications(&s, load, SEEDS)
        .unwrap()
        .into_iter()
        .map(|s| {
            let mut r = Run::new(s).unwrap();
            r.run_to_end();
            let net = r.network().unwrap();
            assert_eq!(
                net.audit(),
                Some(Default::default()),
                "{name} at {load}: audit"
            );
            let results = r.results();
            for c in &results.classes {
                assert_eq!(c.generated, c.delivered + c.in_flight, "{name}: {}", c.name);
            }
            assert_eq!(results.in_flight as usize, net.packets_stored());
            let (input, output) = net.peak_fill().expect("Run::new audits");
            assert!(
                input <= 1.0 && output <= 1.0,
                "{name}: buffers over their credits"
            );
            results
        })
        .collect();
    SweepPoint::from_runs(load, runs)
}

/// What R2 must show at one sweep point (see the tests below):
/// - the classes under admission control (VO, VI, CL) receive what they offer: the mean
///   throughput over 3 seeds is within 3% of the mean offered load, or within the 90%
///   confidence half-width of the throughput when that is larger (3% covers the edge of
///   a 2.5 ms window: packets generated in the window and still in flight at its end,
///   tens of microseconds of traffic);
/// - so is NC (a QoS class with no connections but a small fixed load);
/// - below 0.9 the best-effort classes are not saturated (at least 85% of their offered
///   load; their 60-packet bursts take long to drain, so short windows lose more);
/// - at 1.0 the best-effort classes saturate and are served in the order of their
///   shares (EE 0.094 > BE 0.047 > BK 0.016 of the link): each gets less than it offers,
///   BK much less (under 75%), and EE > BE > BK.
fn check_point(name: &str, p: &SweepPoint) {
    let load = p.load;
    let c = |n: &str| p.classes.iter().find(|c| c.name == n).unwrap();
    let report = p
        .classes
        .iter()
        .map(|c| format!("{} {:.4}/{:.4}", c.name, c.throughput, c.offered))
        .collect::<Vec<_>>()
        .join(", ");
    for qos in ["NC", "VO", "VI", "CL"] {
        let k = c(qos);
        let allowed = (0.03 * k.offered).max(k.throughput_ci90.unwrap());
        assert!(
            (k.throughput - k.offered).abs() <= allowed,
            "{name} at {load}: {qos} gets {} of {} offered ({report})",
            k.throughput,
            k.offered
        );
    }
    let (ee, be, bk) = (c("EE"), c("BE"), c("BK"));
    if load < 0.9 {
        for k in [ee, be, bk] {
            assert!(
                k.throughput >= 0.85 * k.offered,
                "{name} at {load}: {} saturated ({report})",
                k.name
            );
        }
    } else {
        assert!(
            ee.throughput > be.throughput && be.throughput > bk.throughput,
            "{name} at {load}: best effort not ordered by share ({report})"
        );
        assert!(
            bk.throughput < 0.75 * bk.offered,
            "{name} at {load}: BK not saturated ({report})"
        );
        for k in [ee, be, bk] {
            assert!(k.throughput < k.offered, "{name}: {report}");
        }
    }
}

/// Runs `points` (preset, load, end points) on one thread per point and checks each.
fn check_points(points: &[(&'static str, f64, u32)]) {
    let done: Vec<(&str, SweepPoint)> = std::thread::scope(|scope| {
        let handles: Vec<_> = points
            .iter()
            .map(|&(name, load, n)| scope.spawn(move || (name, point(name, load, n))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, p) in &done {
        check_point(name, p);
    }
}

/// Each of the four schedulers at total loads 0.8 and 1.0, reduced to a 16-end-point MIN
/// (2 stages of 8-port switches; same classes, loads, buffers and admission per link) so
/// the test stays fast.
#[test]
fn r2_protects_admitted_classes_and_differentiates_best_effort() {
    let points: Vec<(&str, f64, u32)> = PRESETS
        .iter()
        .flat_map(|&(name, _, _)| [(name, 0.8, 16), (name, 1.0, 16)])
        .collect();
    check_points(&points);
}

/// The same at load 1.0 on the full 64-end-point network with DTable and DRR.
#[test]
fn r2_full_network_at_load_one() {
    check_points(&[
        ("r2-multimedia-dtable", 1.0, 64),
        ("r2-multimedia-drr", 1.0, 64),
    ]);
}

/// `qoslab sweep` on an R2 preset: loads 0.76, 0.88, 1.0, 3 seeds, 2 ms each. The JSON has
/// one point per load in order, each with 3 runs and per-class means with 90% confidence
/// half-widths; the best-effort classes follow the load and the QoS classes stay put.
#[test]
fn cli_sweeps_an_r2_preset() {
    let preset = preset_path("r2-multimedia-dtable");
    let v = qoslab_json([
        "sweep",
        preset.to_str().unwrap(),
        "--loads",
        "0.76,0.88,1.0",
        "--seeds",
        "3",
        "--duration-ms",
        "2",
    ]);
    let points = v["points"].as_array().unwrap();
    let loads: Vec<f64> = points.iter().map(|p| p["load"].as_f64().unwrap()).collect();
    assert_eq!(loads, [0.76, 0.88, 1.0]);
    let mut be_offered = Vec::new();
    for p in points {
        assert_eq!(p["runs"], json!(3));
        assert_eq!(p["results"].as_array().unwrap().len(), 3);
        let classes = p["classes"].as_array().unwrap();
        assert_eq!(classes.len(), 7);
        for c in classes {
            let hw = c["throughput_ci90"].as_f64().unwrap();
            assert!(hw.is_finite() && hw >= 0.0, "{c}");
            assert!(c["mean_ns_ci90"].as_f64().is_some(), "{c}");
        }
        // Runs carry jitter and admission counts of the connection classes; the summary
        // has VI's jitter (its frames' packets are spread over the frame time, so a
        // 2 ms run has samples), none for burst classes.
        let vo = &p["results"][0]["classes"][1];
        assert!(vo["connections"]["admitted"].as_u64().unwrap() > 0);
        assert!(vo["jitter_ns"]["samples"].is_u64());
        assert!(classes[2]["jitter_p99_abs_ns"].as_f64().unwrap() > 0.0);
        assert!(classes[6].get("jitter_p99_abs_ns").is_none());
        be_offered.push(classes[6]["offered"].as_f64().unwrap());
        // VI stays near its fixed 0.453 at every load.
        let vi = classes[2]["offered"].as_f64().unwrap();
        assert!((vi - 0.453).abs() < 0.02, "VI offered {vi}");
    }
    // BK follows the load axis: (0.76 - 0.717) / 3 = 0.014 up to (1.0 - 0.717) / 3 = 0.094.
    assert!(
        be_offered[0] < be_offered[1] && be_offered[1] < be_offered[2],
        "{be_offered:?}"
    );
    assert!((be_offered[2] - 0.094).abs() < 0.02, "{be_offered:?}");
}

/// The sweep shows its progress on stderr when stderr is a terminal (run under
/// `script`, which gives the command a pseudo-terminal; stdout goes to a file).
#[test]
fn cli_sweep_shows_progress_on_a_terminal() {
    let preset = preset_path("r2-multimedia-drr");
    let out_file = common::temp_file("qoslab-r2-sweep", "out.json", "");
    let command = format!(
        "{} sweep {} --loads 0.8,1.0 --seeds 2 --duration-ms 1 -o {}",
        env!("CARGO_BIN_EXE_qoslab"),
        preset.display(),
        out_file.display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("`script` (util-linux) is needed to give the sweep a terminal");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("4/4 runs on"),
        "progress not shown: {shown:?}"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(v["points"].as_array().unwrap().len(), 2);
}
