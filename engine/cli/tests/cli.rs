//! The `qoslab` command line: output shape, exit codes and messages.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qoslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(args)
        .output()
        .unwrap()
}

fn preset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/presets/default.json")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("qoslab-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn run_prints_the_documented_results() {
    let out = qoslab(&["run", preset().to_str().unwrap(), "--quiet"]);
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

#[test]
fn seed_override_changes_the_run() {
    let a = qoslab(&["run", preset().to_str().unwrap(), "--seed", "7"]);
    let r: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(r["seed"], 7);
}

#[test]
fn run_writes_to_a_file_on_request() {
    let out_path = std::env::temp_dir().join(format!("qoslab-cli-{}-out.json", std::process::id()));
    let out = qoslab(&[
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

#[test]
fn validate_accepts_the_preset() {
    let out = qoslab(&["validate", preset().to_str().unwrap()]);
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
    let out = qoslab(&["validate", path.to_str().unwrap()]);
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
        qoslab(&["run", path.to_str().unwrap()]).status.code(),
        Some(2)
    );
}

#[test]
fn syntax_errors_and_missing_files() {
    let path = temp_file("syntax.json", "{\"version\": 1,,}");
    let out = qoslab(&["validate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
    let out = qoslab(&["validate", "/nonexistent/scenario.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn schema_is_json_schema() {
    let out = qoslab(&["schema"]);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["title"], "Scenario");
    assert!(s["$defs"]["SizeConfig"].is_object());
}
