//! Reference scenario R1 (`shared/spec/50-reference-scenarios.md`): variable packet sizes
//! break simple tables. The three presets differ only in the scheduler; four classes of
//! 64, 256, 1024 and 2048 B packets each offer 1.0 of the link (each alone saturates it).
//!
//! Expected shares when classes are backlogged (derived from the spec's rules):
//! - AS basic (one packet per entry, equal entries): bandwidth in proportion to packet
//!   size, all backlogged: 64, 256, 1024 and 2048 of 3392 B per cycle, i.e. 0.0189, 0.0755,
//!   0.302, 0.604.
//! - IBA (weight 34 units = 2176 B per entry, excess not carried): per entry 34 x 64 B =
//!   2176 B, 9 x 256 B = 2304 B, 3 x 1024 B = 3072 B, 2 x 2048 B = 4096 B; shares of
//!   11648 B: 0.187, 0.198, 0.264, 0.352.
//! - DTable (equal weights, deficits kept): 0.25 each.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::{preset, qoslab_json, qoslab_ok};

use qoslab_core::{Run, RunResults};

fn run(name: &str) -> RunResults {
    let text = std::fs::read_to_string(preset(name)).unwrap();
    let mut run = Run::from_json(&text).unwrap();
    run.run_to_end();
    run.results()
}

fn throughputs(r: &RunResults) -> Vec<f64> {
    r.classes.iter().map(|c| c.throughput).collect()
}

fn assert_shares(name: &str, got: &[f64], want: &[f64], tolerance: f64) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() < tolerance,
            "{name} class {i}: throughput {g}, expected {w} (all: {got:?})"
        );
    }
}

/// The presets are comparable: same traffic, seed, duration and buffers.
#[test]
fn presets_differ_only_in_the_scheduler() {
    let docs: Vec<serde_json::Value> = ["r1-as-basic", "r1-iba-weighted", "r1-dtable"]
        .iter()
        .map(|n| serde_json::from_str(&std::fs::read_to_string(preset(n)).unwrap()).unwrap())
        .collect();
    let strip = |d: &serde_json::Value| {
        let mut d = d.clone();
        for key in ["name", "description"] {
            d.as_object_mut().unwrap().remove(key);
        }
        d["model"].as_object_mut().unwrap().remove("scheduler");
        d
    };
    assert_eq!(strip(&docs[0]), strip(&docs[1]));
    assert_eq!(strip(&docs[0]), strip(&docs[2]));
    let names: Vec<&str> = docs[0]["model"]["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["64 B", "256 B", "1024 B", "2048 B"]);
    for d in &docs {
        assert!(!d["description"].as_str().unwrap().is_empty());
    }
}

#[test]
fn dtable_gives_every_packet_size_the_same_throughput() {
    let r = run("r1-dtable");
    let t = throughputs(&r);
    let (min, max) = t
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(max <= min * 1.05, "within 5%: {t:?}");
    assert!(
        t.iter().sum::<f64>() > 0.99,
        "saturated link fully used: {t:?}"
    );
    assert_shares("dtable", &t, &[0.25; 4], 0.01);
}

#[test]
fn as_basic_splits_by_packet_size() {
    let r = run("r1-as-basic");
    let t = throughputs(&r);
    assert!(t[3] >= 8.0 * t[0], "2048 B at least 8x 64 B: {t:?}");
    assert!(
        t[0] < t[1] && t[1] < t[2] && t[2] < t[3],
        "ordered by size: {t:?}"
    );
    assert_shares("as_basic", &t, &[0.0189, 0.0755, 0.302, 0.604], 0.02);
}

#[test]
fn iba_is_between_the_as_table_and_dtable() {
    let iba = throughputs(&run("r1-iba-weighted"));
    let as_basic = throughputs(&run("r1-as-basic"));
    let ratio = |t: &[f64]| t[3] / t[0];
    assert!(
        ratio(&iba) > 1.2 && ratio(&iba) < 8.0,
        "IBA 2048 B / 64 B ratio {} ({iba:?})",
        ratio(&iba)
    );
    assert!(ratio(&iba) < ratio(&as_basic));
    assert_shares("iba", &iba, &[0.187, 0.198, 0.264, 0.352], 0.02);
}

/// The binary runs and validates the presets too.
#[test]
fn cli_runs_the_dtable_preset() {
    for name in ["r1-as-basic", "r1-iba-weighted", "r1-dtable"] {
        qoslab_ok(["validate".as_ref(), preset(name).as_os_str()]);
    }
    let r = qoslab_json([
        "run".as_ref(),
        preset("r1-dtable").as_os_str(),
        "--quiet".as_ref(),
    ]);
    for c in r["classes"].as_array().unwrap() {
        let t = c["throughput"].as_f64().unwrap();
        assert!((t - 0.25).abs() < 0.01, "{c}");
    }
}
