//! Resource bounds of the text inputs (issue 16, defects 8 and 10): OpenSM options text,
//! byte-order marks, top-level requirement errors, OpenSM numbers and the export of an
//! empty InfiniBand table. Each test failed before its fix.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use qoslab_core::design::opensm::{self, MAX_ERRORS, MAX_TEXT_BYTES, Prefix};
use qoslab_core::design::parse_requirements;
use qoslab_core::scenario::{IbaConfig, TableEntry};
use qoslab_core::traffic::frame_trace::FrameTrace;
use qoslab_core::{EngineError, FieldError, scenario};

fn opensm_errors(text: &str) -> Vec<FieldError> {
    match opensm::parse(text) {
        Err(EngineError::Invalid { errors }) => errors,
        other => panic!("expected Invalid, got {:?}", other.map(|r| r.0.len())),
    }
}

/// Defect 8: a million commas gave a million errors; the import stops after MAX_ERRORS.
#[test]
fn defect8_opensm_errors_are_capped() {
    let text = format!("qos_vlarb_low {}\n", ",".repeat(1_000_000));
    assert!(text.len() <= MAX_TEXT_BYTES);
    let errors = opensm_errors(&text);
    assert_eq!(errors.len(), MAX_ERRORS + 1, "{}", errors.len());
    let last = errors.last().unwrap();
    assert!(
        last.message.contains("stopped reading after 100 errors"),
        "{last}"
    );
    // Errors spread over many lines stop too.
    let lines = "qos_max_vls x\n".repeat(10_000);
    assert_eq!(opensm_errors(&lines).len(), MAX_ERRORS + 1);
}

/// Defect 8: no size cap; a text over MAX_TEXT_BYTES is refused before it is read.
#[test]
fn defect8_opensm_text_has_a_size_cap() {
    let text = format!("# {}\nqos_max_vls 8\n", "x".repeat(MAX_TEXT_BYTES));
    let errors = opensm_errors(&text);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].path, "file");
    assert!(
        errors[0].message.contains("limit of 1048576"),
        "{}",
        errors[0]
    );
}

/// Defect 8: each error repeated the whole value; quotes are cut to 40 characters.
#[test]
fn defect8_opensm_errors_do_not_repeat_the_value() {
    let long = "9".repeat(100_000);
    for text in [
        format!("qos_max_vls {long}x\n"),
        format!("qos_vlarb_low 1:{long}x\n"),
        format!("qos_vlarb_high {long}\n"),
    ] {
        for e in opensm_errors(&text) {
            assert!(
                e.message.len() < 200,
                "{} bytes: {}",
                e.message.len(),
                &e.message[..80]
            );
        }
    }
}

/// Defect 10: `0x+5` was read as 5; OpenSM refuses it.
#[test]
fn defect10_opensm_hex_takes_no_sign() {
    for v in ["0x+8", "0x-8", "0x", "0x 8"] {
        let errors = opensm_errors(&format!("qos_max_vls {v}\n"));
        assert_eq!(errors[0].path, "line 1 (qos_max_vls)", "{v}");
        assert!(
            errors[0].message.contains("not a number"),
            "{v}: {}",
            errors[0]
        );
    }
    let (q, _) = opensm::parse("qos_max_vls 0x8\n").unwrap();
    assert_eq!(q[0].max_vls, Some(8));
}

/// Defect 10: an IB design with an empty table exported `qos_vlarb_low ` (no value),
/// which the importer refused.
#[test]
fn defect10_an_empty_ib_table_round_trips() {
    let iba = IbaConfig {
        high: vec![
            TableEntry {
                class: 0,
                weight: 4,
            },
            TableEntry {
                class: 1,
                weight: 8,
            },
        ],
        low: vec![],
        high_limit: 10,
    };
    let text = opensm::to_lines(&opensm::from_iba(&iba, Prefix::Plain, 2).unwrap());
    assert!(text.contains("qos_vlarb_low 0:0\n"), "{text}");
    let (q, lints) = opensm::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(lints.is_empty(), "{lints:?}");
    let back = opensm::to_iba(&q[0]).unwrap();
    assert_eq!(back.high, iba.high);
    assert!(back.low.iter().all(|e| e.weight == 0), "{:?}", back.low);
}

/// Defect 10: a byte-order mark gave "expected value at line 1 column 1" (scenario,
/// requirements), an ignored first line (OpenSM) or a bad frame size (trace).
#[test]
fn defect10_a_byte_order_mark_is_skipped() {
    let preset = include_str!("../../../public/presets/default.json");
    scenario::parse(&format!("\u{feff}{preset}")).unwrap();
    let requirements = r#"{"technology":"dtable","entries":64,"gmtu_bytes":2048,"classes":[]}"#;
    let plain = parse_requirements(requirements).map(|_| ());
    assert_eq!(plain, Ok(()));
    let with_bom = parse_requirements(&format!("\u{feff}{requirements}")).map(|_| ());
    assert_eq!(with_bom, plain);
    let (q, _) = opensm::parse("\u{feff}qos_max_vls 8\n").unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].max_vls, Some(8));
    let t = FrameTrace::parse("\u{feff}1000\n2000\n").unwrap();
    assert_eq!(t.frames(), &[1000, 2000]);
}

/// Defect 10: requirement errors at the top level had an empty path.
#[test]
fn defect10_top_level_requirement_errors_name_a_path() {
    let path = |text: &str| match parse_requirements(text) {
        Err(EngineError::Invalid { errors }) => errors[0].path.clone(),
        other => panic!("{text}: {:?}", other.map(|_| ())),
    };
    assert_eq!(path("{}"), "technology");
    assert_eq!(path(r#"{"technology":"dtable"}"#), "entries");
    assert_eq!(path("[]"), "requirements");
    assert_eq!(path("3"), "requirements");
}
