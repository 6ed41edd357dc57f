//! The `qoslab` command line: output shape, exit codes and messages.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::qoslab;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn preset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/presets/default.json")
}

fn temp_file(name: &str, text: &str) -> tempfile::TempPath {
    common::temp_file("qoslab-cli-", name, text)
}

#[test]
fn run_prints_the_documented_results() {
    let out = qoslab(["run", preset().to_str().unwrap(), "--quiet"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["seed"], 1);
    let classes = r["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 4);
    for c in classes {
        for key in ["name", "offered", "throughput", "packets"] {
            assert!(!c[key].is_null(), "missing {key}");
        }
        let lat = &c["latency_ns"];
        for key in ["mean", "p50", "p99", "max"] {
            assert!(lat[key].as_f64().unwrap() > 0.0, "latency_ns.{key}");
        }
        let cdf = lat["cdf"].as_array().unwrap();
        assert!(cdf.len() > 10);
        assert_eq!(cdf.last().unwrap()[1], 1.0);
        let offered = c["offered"].as_f64().unwrap();
        let throughput = c["throughput"].as_f64().unwrap();
        assert!(
            (offered - throughput).abs() < 0.01,
            "stable load: throughput follows offered"
        );
    }
    assert_eq!(
        r["generated"].as_u64().unwrap(),
        r["delivered"].as_u64().unwrap() + r["in_flight"].as_u64().unwrap()
    );
}

/// `--audit` checks the model's invariants (a network's are off by default: they cost
/// time) and says so on stderr; the results are those of the run without it.
#[test]
fn run_audit_reports_the_invariants_and_changes_no_result() {
    let network =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/presets/network-starter.json");
    let network = network.to_str().unwrap();
    let plain = qoslab(["run", network, "--duration-ms", "0.2"]);
    let audited = qoslab(["run", network, "--duration-ms", "0.2", "--audit"]);
    assert!(plain.status.success());
    assert!(
        audited.status.success(),
        "{}",
        String::from_utf8_lossy(&audited.stderr)
    );
    assert_eq!(audited.stdout, plain.stdout);
    let said = String::from_utf8_lossy(&audited.stderr);
    assert!(said.contains("audit: every invariant held"), "{said}");
    assert!(!String::from_utf8_lossy(&plain.stderr).contains("audit"));
}

#[test]
fn seed_override_changes_the_run() {
    let a = qoslab(["run", preset().to_str().unwrap(), "--seed", "7"]);
    let r: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(r["seed"], 7);
}

#[test]
fn run_writes_to_a_file_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out.json");
    let out = qoslab([
        "run",
        preset().to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&out_path).unwrap();
    assert!(text.contains("\"classes\""));
}

/// `-o` onto something that is not a regular file writes through it instead of renaming a
/// file over it: a symbolic link stays a link (its target gets the results), and, on Unix,
/// `-o /dev/null` leaves the device alone (it once replaced it with a file, as root).
#[test]
fn run_writes_through_links_and_devices() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("results.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("latest.json");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link).unwrap();
    #[cfg(not(unix))]
    return;
    let out = qoslab([
        "run",
        preset().to_str().unwrap(),
        "--quiet",
        "-o",
        link.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("\"classes\"")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let out = qoslab([
            "run",
            preset().to_str().unwrap(),
            "--quiet",
            "-o",
            "/dev/null",
        ]);
        assert!(out.status.success());
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}

#[test]
fn validate_accepts_the_preset() {
    let out = qoslab(["validate", preset().to_str().unwrap()]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid"));
}

#[test]
fn validate_prints_every_problem_and_exits_2() {
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(preset()).unwrap()).unwrap();
    doc["name"] = "".into();
    doc["model"]["classes"][1]["traffic"]["load"] = 9.into();
    doc["model"]["scheduler"]["table"][2]["weight"] = 0.into();
    let path = temp_file("bad.json", &doc.to_string());
    let out = qoslab(["validate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("name: must not be empty"), "{err}");
    assert!(
        err.contains("model.classes[1].traffic.load: must be"),
        "{err}"
    );
    assert!(
        err.contains("model.scheduler.table[2].weight: must be between 1 and 65535"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 3, "{err}");
    // `run` refuses the same file the same way.
    assert_eq!(
        qoslab(["run", path.to_str().unwrap()]).status.code(),
        Some(2)
    );
}

#[test]
fn syntax_errors_and_missing_files() {
    let path = temp_file("syntax.json", "{\"version\": 1,,}");
    let out = qoslab(["validate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
    let out = qoslab(["validate", "/nonexistent/scenario.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn schema_is_json_schema() {
    let out = qoslab(["schema"]);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["title"], "Scenario");
    assert!(s["$defs"]["SizeConfig"].is_object());
}

fn qoslab_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qoslab"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn json_of(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const SWEEP: [&str; 7] = [
    "--loads",
    "0.3,0.9",
    "--seeds",
    "3",
    "--duration-ms",
    "2",
    "--quiet",
];

#[test]
fn sweep_prints_points_by_load_then_seed() {
    let p = preset();
    let mut args = vec!["sweep", p.to_str().unwrap()];
    args.extend(SWEEP);
    let s = json_of(&qoslab(&args));
    assert_eq!(s["scenario"], "DTable link lab: four classes");
    let points = s["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for (point, load) in points.iter().zip([0.3, 0.9]) {
        assert_eq!(point["load"], load);
        assert_eq!(point["runs"], 3);
        let results = point["results"].as_array().unwrap();
        let seeds: Vec<u64> = results
            .iter()
            .map(|r| r["seed"].as_u64().unwrap())
            .collect();
        assert_eq!(seeds, vec![1, 2, 3]);
        for r in results {
            assert_eq!(r["duration_ns"], 2_000_000);
            let offered: f64 = r["classes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["offered"].as_f64().unwrap())
                .sum();
            assert!((offered - load).abs() < 0.1, "offered {offered} at {load}");
        }
        let classes = point["classes"].as_array().unwrap();
        assert_eq!(classes.len(), 4);
        for (i, c) in classes.iter().enumerate() {
            for key in [
                "name",
                "offered",
                "throughput",
                "mean_ns",
                "p99_ns",
                "max_ns",
                "throughput_ci90",
                "mean_ns_ci90",
            ] {
                assert!(!c[key].is_null(), "point {load} class {i}: {key} is null");
            }
            // The summary is the mean of the runs.
            let mean: f64 = results
                .iter()
                .map(|r| r["classes"][i]["throughput"].as_f64().unwrap())
                .sum::<f64>()
                / 3.0;
            assert!((c["throughput"].as_f64().unwrap() - mean).abs() < 1e-12);
            assert!(c["throughput_ci90"].as_f64().unwrap() >= 0.0);
        }
    }
}

#[test]
fn sweep_is_the_same_whatever_the_thread_count() {
    let p = preset();
    let mut args = vec!["sweep", p.to_str().unwrap()];
    args.extend(SWEEP);
    let one = qoslab_env(&args, &[("QOSLAB_THREADS", "1")]);
    let three = qoslab_env(&args, &[("QOSLAB_THREADS", "3")]);
    let all = qoslab(&args);
    assert!(one.status.success() && three.status.success() && all.status.success());
    assert_eq!(one.stdout, all.stdout);
    assert_eq!(three.stdout, all.stdout);
}

#[test]
fn sweep_with_one_seed_has_no_interval() {
    let p = preset();
    let s = json_of(&qoslab([
        "sweep",
        p.to_str().unwrap(),
        "--loads",
        "0.5",
        "--duration-ms",
        "1",
    ]));
    let point = &s["points"][0];
    assert_eq!(point["runs"], 1);
    assert!(point["classes"][0]["throughput_ci90"].is_null());
    assert!(point["classes"][0]["mean_ns_ci90"].is_null());
    assert!(!point["classes"][0]["mean_ns"].is_null());
}

#[test]
fn sweep_rejects_bad_arguments() {
    let p = preset();
    let p = p.to_str().unwrap();
    for args in [
        vec!["sweep", p, "--loads", "0"],
        vec!["sweep", p, "--loads", "0.5,5"],
        vec!["sweep", p, "--loads", "abc"],
        vec!["sweep", p],
        vec!["sweep", p, "--loads", "0.5", "--seeds", "0"],
        vec!["sweep", p, "--loads", "0.5", "--duration-ms", "0"],
    ] {
        let out = qoslab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = qoslab(["sweep", p, "--loads", "0.5,5"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("load: must be a total offered load"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Defect 9 of issue 16: loads x seeds had no limit and every job was cloned up front.
#[test]
fn sweep_refuses_too_many_runs() {
    let p = preset();
    let loads = vec!["0.5"; 101].join(",");
    let out = qoslab([
        "sweep",
        p.to_str().unwrap(),
        "--loads",
        &loads,
        "--seeds",
        "100",
        "--duration-ms",
        "0.001",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("101 x 100 = 10100 runs"), "{err}");
    assert!(err.contains("limit of 10000"), "{err}");
}

#[test]
fn trace_prints_the_first_decisions() {
    let p = preset();
    let t = json_of(&qoslab([
        "trace",
        p.to_str().unwrap(),
        "--decisions",
        "7",
        "--from-us",
        "20",
    ]));
    assert_eq!(t["scheduler"], "dtable");
    assert_eq!(t["from_ns"], 20_000.0);
    let decisions = t["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 7);
    let mut last = 20_000.0;
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(d["step"], i);
        let at = d["time_ns"].as_f64().unwrap();
        assert!(at >= last, "decisions in time order from --from-us");
        last = d["end_ns"].as_f64().unwrap();
        assert_eq!(d["queue_lengths"].as_array().unwrap().len(), 4);
    }
    assert!(!t["table"].as_array().unwrap().is_empty());
    let out = qoslab(["trace", p.to_str().unwrap(), "--decisions", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn run_overrides_load_and_duration() {
    let p = preset();
    let p = p.to_str().unwrap();
    let r = json_of(&qoslab([
        "run",
        p,
        "--load",
        "0.5",
        "--duration-ms",
        "3",
        "--quiet",
    ]));
    assert_eq!(r["duration_ns"], 3_000_000);
    // The preset's warm-up is 5% of the run; the override keeps the share.
    assert_eq!(r["warmup_ns"], 150_000);
    let offered: f64 = r["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["offered"].as_f64().unwrap())
        .sum();
    assert!((offered - 0.5).abs() < 0.05, "offered {offered}");
    for bad in [
        vec!["run", p, "--load", "0"],
        vec!["run", p, "--load", "4.5"],
        vec!["run", p, "--duration-ms", "-1"],
        vec!["run", p, "--duration-ms", "2000000"],
    ] {
        assert_eq!(qoslab(&bad).status.code(), Some(2), "{bad:?}");
    }
}

/// The rows of `qoslab bench --quick --json --only ONLY` (which must succeed).
fn quick_bench(only: &str) -> Vec<serde_json::Value> {
    let out = qoslab(["bench", "--quick", "--json", "--only", only]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `qoslab bench --json` reports one row per chosen scenario, with the run's own event
/// and hop counts and rates consistent with them (the quick form: a smoke test).
#[test]
fn bench_reports_rates_consistent_with_its_counts() {
    let rows = quick_bench("link-lab,min64-0.5,r3-torus");
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["link-lab", "min64-0.5", "r3-torus8x8x8"]);
    for r in &rows {
        let events = r["events"].as_f64().unwrap();
        let seconds = r["seconds"].as_f64().unwrap();
        assert!(events > 1000.0 && seconds > 0.0);
        let rate = r["events_per_s"].as_f64().unwrap();
        assert!((rate * seconds / events - 1.0).abs() < 1e-9);
        let ns = r["ns_per_event"].as_f64().unwrap();
        assert!((ns * events / 1e9 / seconds - 1.0).abs() < 1e-9);
    }
    assert!(rows[0]["packet_hops"].is_null(), "the link lab has no hops");
    assert!(rows[1]["packet_hops"].as_u64().unwrap() > 100_000);
    assert!(rows[2]["packet_hops"].as_u64().unwrap() > 10_000);
    let bad = qoslab(["bench", "--only", "no-such-scenario"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `qoslab bench --repeat N --ratio A/B`: each row is the median of N runs with the
/// fastest and slowest around it, and A's row carries the rounds' ratio of ns per event,
/// whose median lies within what the runs allow. A ratio naming a scenario not chosen
/// is refused, naming the option.
#[test]
fn bench_repeats_and_reports_a_paired_ratio() {
    let out = qoslab([
        "bench",
        "--quick",
        "--json",
        "--only",
        "link-lab,min64-0.5",
        "--repeat",
        "3",
        "--ratio",
        "min64-0.5/link-lab",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.len(), 2);
    let f = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap();
    for r in &rows {
        assert_eq!(r["runs"].as_u64(), Some(3));
        let (lo, mid, hi) = (
            f(r, "ns_per_event_min"),
            f(r, "ns_per_event"),
            f(r, "ns_per_event_max"),
        );
        assert!(lo <= mid && mid <= hi, "{r}");
        assert!((f(r, "events_per_s") * f(r, "seconds") / f(r, "events") - 1.0).abs() < 1e-9);
    }
    assert!(rows[0].get("ratio").is_none());
    let q = &rows[1]["ratio"];
    assert_eq!(q["against"], "link-lab");
    assert_eq!(q["rounds"].as_u64(), Some(3));
    let (lo, mid, hi) = (f(q, "min"), f(q, "median"), f(q, "max"));
    assert!(lo <= mid && mid <= hi, "{q}");
    let bound_lo = f(&rows[1], "ns_per_event_min") / f(&rows[0], "ns_per_event_max");
    let bound_hi = f(&rows[1], "ns_per_event_max") / f(&rows[0], "ns_per_event_min");
    assert!(
        bound_lo <= lo * (1.0 + 1e-12) && hi <= bound_hi * (1.0 + 1e-12),
        "{q}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("round ").count(), 6, "{stderr}");

    let bad = qoslab([
        "bench",
        "--quick",
        "--only",
        "link-lab",
        "--ratio",
        "link-lab/min1024",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--ratio"));
    let zero = qoslab(["bench", "--quick", "--only", "link-lab", "--repeat", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}

/// The R2 rows of `qoslab bench` run the preset as they say: 10 ms, then 100 ms at the
/// study's lowest load point and at the preset's load (each a tenth in the quick form).
#[test]
fn bench_runs_r2_at_its_duration_and_load() {
    let rows = quick_bench("r2");
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["r2", "r2-100ms-0.76", "r2-100ms-0.996"]);
    let events: Vec<u64> = rows.iter().map(|r| r["events"].as_u64().unwrap()).collect();
    // Ten times the simulated time: about ten times the events (the connections' first
    // packets and the warm-up make it not exactly ten).
    assert!(events[2] > 8 * events[0], "{events:?}");
    // The same time at a lower load: fewer events.
    assert!(events[1] < events[2] * 9 / 10, "{events:?}");
}

/// R4 from the command line: each switch design's results carry its hardware (the spec's
/// counts and area table), and all eight classes are reported.
#[test]
fn r4_presets_report_their_hardware() {
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/presets");
    for (preset, switches, links, area_018) in [
        ("r4-traditional-8vc.json", 48, 192, 3792.0),
        ("r4-new-2vc-p.json", 16, 128, 1264.0),
    ] {
        let path = presets.join(preset);
        let r = json_of(&qoslab([
            "run",
            path.to_str().unwrap(),
            "--duration-ms",
            "0.2",
            "--quiet",
        ]));
        let hw = &r["hardware"];
        assert_eq!(hw["switches"], switches, "{preset}");
        assert_eq!(hw["links"], links, "{preset}");
        assert_eq!(hw["area"][0]["technology_um"], 0.18, "{preset}");
        assert_eq!(hw["area"][0]["total_mm2"], area_018, "{preset}");
        let classes: Vec<&str> = r["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            classes,
            ["NC", "VO", "VI", "CL", "EE", "PBE", "BE", "BK"],
            "{preset}"
        );
    }
}
