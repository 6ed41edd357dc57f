//! Resource bounds of the command line (issue 16, defects 6 and 10): byte-order marks,
//! files that are not UTF-8, terminal escape sequences in names, absurd durations, and a
//! run stopped by its budget. Each test failed before its fix.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::qoslab;

use std::path::Path;
use std::process::Output;

fn preset_text() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/presets/default.json"),
    )
    .unwrap()
}

fn temp_file(name: &str, bytes: &[u8]) -> tempfile::TempPath {
    common::temp_file("qoslab-bounds-", name, bytes)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn defect10_a_byte_order_mark_is_accepted() {
    let p = temp_file("bom.json", format!("\u{feff}{}", preset_text()).as_bytes());
    let out = qoslab(["validate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn defect10_non_utf8_is_invalid_input_with_a_position() {
    let p = temp_file("latin1.json", b"{\n  \"name\": \"caf\xe9\"\n}\n");
    let out = qoslab(["validate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not UTF-8 text (line 2, column 15, byte 16)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn defect10_names_with_escape_sequences_are_printed_escaped() {
    let mut doc: serde_json::Value = serde_json::from_str(&preset_text()).unwrap();
    doc["name"] = "\u{1b}[2J\u{1b}]0;owned\u{7}evil\u{202e}".into();
    let p = temp_file("esc.json", doc.to_string().as_bytes());
    let out = qoslab(["validate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}[2J"), "{text}");
    // In error messages too: a duplicate class name is quoted in the message.
    doc["model"]["classes"][0]["name"] = "\u{1b}[31mX".into();
    doc["model"]["classes"][1]["name"] = "\u{1b}[31mX".into();
    let p = temp_file("esc2.json", doc.to_string().as_bytes());
    let out = qoslab(["validate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains('\u{1b}'), "{:?}", stderr(&out));
    assert!(stderr(&out).contains("\\u{1b}[31mX"), "{}", stderr(&out));
}

#[test]
fn defect10_an_absurd_duration_is_refused_not_saturated() {
    let p = temp_file("dur.json", preset_text().as_bytes());
    for ms in ["1e300", "1000001", "inf"] {
        let out = qoslab(["run", p.to_str().unwrap(), "--duration-ms", ms, "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{ms}");
        assert!(
            stderr(&out).contains("--duration-ms must be between 0.001 and 1000000 ms"),
            "{ms}: {}",
            stderr(&out)
        );
    }
}

/// Defect 6: a run over its budget stops with exit status 3 and names the figure.
#[test]
fn defect6_a_run_over_budget_exits_3_naming_the_figure() {
    let mut doc: serde_json::Value = serde_json::from_str(&preset_text()).unwrap();
    let classes = doc["model"]["classes"].as_array_mut().unwrap();
    classes[0]["traffic"]["load"] = 4.0.into();
    classes[0]["traffic"]["size"] = serde_json::json!({"kind": "fixed", "bytes": 64});
    let p = temp_file("overload.json", doc.to_string().as_bytes());
    let out = qoslab(["run", p.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("more than the budget of 4194304 packets"),
        "{}",
        stderr(&out)
    );
}
