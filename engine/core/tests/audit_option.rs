//! The run option `audit` (`RunOptions::audit`): every shipped preset, at a short
//! duration (but the two 8x8x8 tori), gives the same results audited and not, every invariant holds in the audited
//! run, and only the network (whose audit is the costly one) can run without one.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used, missing_docs)]

use std::path::PathBuf;

use qoslab_core::{Run, RunOptions};
use serde_json::Value;

/// Every preset but the index, by file name.
fn presets() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../public/presets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "presets not found in {}", dir.display());
    files
        .into_iter()
        .map(|p| {
            let doc = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), doc)
        })
        .collect()
}

/// `doc` at most `us` µs long (a fifth of it warm-up), run as `options` say: its results
/// as JSON and its audit findings.
fn run(doc: &Value, us: u64, options: RunOptions) -> (String, Option<Vec<String>>, bool) {
    let mut doc = doc.clone();
    let duration = doc["duration_us"].as_u64().unwrap().min(us);
    doc["duration_us"] = duration.into();
    doc["warmup_us"] = (duration / 5).into();
    let mut run = Run::from_json_with(&doc.to_string(), options).unwrap();
    run.run_to_end();
    let results = serde_json::to_string(&run.results()).unwrap();
    (results, run.audit_findings(), run.network().is_some())
}

#[test]
fn every_preset_gives_the_same_results_audited_or_not() {
    for (name, doc) in presets() {
        if name.contains("8x8x8") {
            // Their set-up alone takes half a minute in a test build; the 8x8 tori have
            // the same switches, routing and traffic.
            continue;
        }
        let (audited, findings, network) = run(&doc, 20, RunOptions { audit: true });
        let (plain, plain_findings, _) = run(&doc, 20, RunOptions::UNAUDITED);
        assert_eq!(audited, plain, "{name}: the audit changed a result");
        assert_eq!(findings, Some(Vec::new()), "{name}: audited run");
        if network {
            assert_eq!(plain_findings, None, "{name}: a network without audit");
        } else {
            // The link lab and the network processor always check their invariants.
            assert_eq!(plain_findings, Some(Vec::new()), "{name}");
        }
    }
}

#[test]
fn the_default_run_is_audited() {
    let (name, doc) = presets()
        .into_iter()
        .find(|(n, _)| n == "network-starter.json")
        .unwrap();
    let mut doc = doc;
    doc["duration_us"] = 50.into();
    doc["warmup_us"] = 10.into();
    let run = Run::from_json(&doc.to_string()).unwrap();
    assert_eq!(RunOptions::default(), RunOptions { audit: true });
    assert!(run.network().unwrap().audit().is_some(), "{name}");
    assert!(run.network().unwrap().peak_fill().is_some(), "{name}");
}
