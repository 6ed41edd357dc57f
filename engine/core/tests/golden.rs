//! Golden results: every shipped preset, at its own seed and a short duration, must give
//! byte-identical results to the files committed in `tests/data/golden/`. These files were
//! written before the fabric redesign (switch, routing and model contracts), so any change
//! of behaviour in a refactoring shows up here as a diff.
//!
//! Re-bless (only when a change of results is intended and explained in the commit):
//! `QOSLAB_BLESS=1 cargo test -p qoslab-core --test golden`.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used, missing_docs)]

use std::path::PathBuf;

use qoslab_core::run::Run;
use serde_json::Value;

/// (preset file, simulated µs, warm-up µs): short enough for a debug test run, long
/// enough for every class to deliver packets and every queue to fill.
const CASES: &[(&str, u64, u64)] = &[
    ("default", 5_000, 500),
    ("r1-as-basic", 5_000, 500),
    ("r1-iba-weighted", 5_000, 500),
    ("r1-dtable", 5_000, 500),
    ("r2-multimedia-dtable", 1_500, 300),
    ("r2-multimedia-dtable-wf2q", 1_500, 300),
    ("r2-multimedia-scfq", 1_500, 300),
    ("r2-multimedia-drr", 1_500, 300),
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn results_of(preset: &str, duration_us: u64, warmup_us: u64) -> String {
    let path = repo().join(format!("public/presets/{preset}.json"));
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["duration_us"] = duration_us.into();
    doc["warmup_us"] = warmup_us.into();
    let mut run = Run::from_json(&doc.to_string()).expect(preset);
    run.run_to_end();
    let mut results = serde_json::to_value(run.results()).unwrap();
    // The engine's version is not a result.
    results["engine"] = Value::from("qoslab-core");
    serde_json::to_string_pretty(&results).unwrap() + "\n"
}

#[test]
fn presets_give_the_golden_results() {
    let bless = std::env::var_os("QOSLAB_BLESS").is_some();
    let mut drifted = Vec::new();
    for &(preset, duration, warmup) in CASES {
        let got = results_of(preset, duration, warmup);
        let file = repo().join(format!("engine/core/tests/data/golden/{preset}.json"));
        if bless {
            std::fs::write(&file, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{}: {e} (bless with QOSLAB_BLESS=1)", file.display()));
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .map_or(0, |i| i + 1);
            drifted.push(format!("{preset} (first difference at line {line})"));
        }
    }
    assert!(drifted.is_empty(), "results drifted: {drifted:?}");
}
