//! `qoslab design`: output, exit codes and messages.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::qoslab;

/// The spec's multimedia vector with `w` and `k` left to the search.
fn vector() -> String {
    qoslab_core::design::MULTIMEDIA_VECTOR.replace(r#""w": 2, "k": 0.5"#, r#""w": null, "k": null"#)
}

fn temp_file(name: &str, text: &str) -> tempfile::TempPath {
    common::temp_file("qoslab-design-", name, text)
}

#[test]
fn design_prints_the_public_vector() {
    let p = temp_file("vector.json", &vector());
    for args in [
        vec!["design", p.to_str().unwrap()],
        vec!["design", p.to_str().unwrap(), "--format", "json"],
    ] {
        let out = qoslab(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(d["w"], 2.0);
        assert_eq!(d["k"], 0.5);
        assert_eq!(d["pool"], 1024);
        assert_eq!(d["max_entry_weight"], 64);
        assert_eq!(d["table"].as_array().unwrap().len(), 64);
        assert_eq!(
            d["table"][0],
            serde_json::json!({"class": "NC", "weight": 3})
        );
        let weights: Vec<u64> = d["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["entry_weights"][0].as_u64().unwrap())
            .collect();
        assert_eq!(weights, vec![3, 3, 64, 52, 48, 48, 16]);
        assert_eq!(d["classes"][2]["max_distance"], 8);
        assert_eq!(d["equivalents"]["classes"][3]["wf2q_entries"], 13);
        // The worst-case wait bound of every class, at the default 2 Gb/s.
        assert_eq!(d["link_rate_gbps"], 2.0);
        for c in d["classes"].as_array().unwrap() {
            let b = c["bound_ns"].as_f64().unwrap();
            assert!(b > 0.0 && b.is_finite(), "{c}");
        }
        // BK (its one entry): 16 + 1008 + 96 credits of 256 ns, plus 1 ps per credit.
        assert_eq!(d["classes"][6]["bound_ns"], 286_721.12);
        // How the design maps onto each technology.
        let techs: Vec<&str> = d["mappings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["technology"].as_str().unwrap())
            .collect();
        assert_eq!(techs, vec!["dtable", "infiniband", "omnipath", "as"]);
        assert_eq!(d["mappings"][1]["fits"], true);
        assert_eq!(d["mappings"][3]["fits"], false);
    }
}

#[test]
fn invalid_requirements_exit_2_naming_fields() {
    let bad = vector()
        .replace("\"distance\": 4,", "\"distance\": 0,")
        .replace("\"share\": 0.5", "\"share\": 0.6");
    let p = temp_file("bad.json", &bad);
    let out = qoslab(["design", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("classes[1].distance: must be between 1 and entries"),
        "{err}"
    );
    assert!(err.contains("classes: the shares add up to"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn unmeetable_requirements_exit_2_naming_the_class() {
    let bad = vector().replace("\"dtable\"", "\"infiniband\"").replace(
        "\"mtu_bytes\": 192, \"share\": 0.09375",
        "\"mtu_bytes\": 2048, \"share\": 0.09375",
    );
    let p = temp_file("unmeetable.json", &bad);
    let out = qoslab(["design", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("classes[2].share"), "{err}");
}

#[test]
fn syntax_errors_exit_2_and_missing_files_exit_1() {
    let p = temp_file("syntax.json", "{\"technology\": ");
    let out = qoslab(["design", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid JSON"));
    let out = qoslab(["design", "/nonexistent/requirements.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn unknown_formats_are_refused_by_clap() {
    let p = temp_file("fmt.json", &vector());
    let out = qoslab(["design", p.to_str().unwrap(), "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn design_exports_opensm_lines_for_infiniband() {
    let p = temp_file(
        "vector-ib.json",
        &vector().replace("\"dtable\"", "\"infiniband\""),
    );
    let out = qoslab(["design", p.to_str().unwrap(), "--format", "opensm"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (qos, lints) = qoslab_core::design::opensm::parse(&text).unwrap();
    assert!(lints.is_empty(), "{lints:?}");
    assert_eq!(qos.len(), 1);
    assert_eq!(qos[0].max_vls, Some(8));
    let iba = qoslab_core::design::opensm::to_iba(&qos[0]).unwrap();
    // The low table is the design: 64 entries, VL i = class i, the vector's entry weights.
    assert_eq!(iba.low.len(), 64);
    let weights = [3, 3, 64, 52, 48, 48, 16];
    for e in &iba.low {
        assert_eq!(e.weight, weights[e.class as usize], "{e:?}");
    }
    assert_eq!(iba.low.iter().map(|e| e.weight).sum::<u32>(), 1024);
    // The high table only holds a skipped entry.
    assert!(iba.high.iter().all(|e| e.weight == 0));

    // Not an InfiniBand design: refused, naming the field.
    let p = temp_file("vector-dt.json", &vector());
    let out = qoslab(["design", p.to_str().unwrap(), "--format", "opensm"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("technology"));
}

#[test]
fn omnipath_designs_carry_their_sl_sc_vl_maps_and_at_most_31_classes() {
    let p = temp_file("opa.json", &vector().replace("\"dtable\"", "\"omnipath\""));
    let out = qoslab(["design", p.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sl2sc = d["omnipath"]["sl2sc"].as_array().unwrap();
    assert_eq!(sl2sc.len(), 32);
    assert_eq!(sl2sc[6], 6);
    assert!(sl2sc[7].is_null());
    assert_eq!(d["omnipath"]["sc2sl"][3], 3);
    // Other technologies have no Omni-Path maps.
    let dt = temp_file("dt.json", &vector());
    let out = qoslab(["design", dt.to_str().unwrap()]);
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(d.get("omnipath").is_none());
    // 32 classes: SC 15 / VL 15 are management, so only 31 data lanes.
    let classes: Vec<String> = (0..32)
        .map(|i| format!(r#"{{"name": "C{i}", "distance": null, "mtu_bytes": 64, "share": 0.03}}"#))
        .collect();
    let many = temp_file(
        "opa32.json",
        &format!(
            r#"{{"technology": "omnipath", "entries": 64, "gmtu_bytes": 2048, "classes": [{}]}}"#,
            classes.join(",")
        ),
    );
    let out = qoslab(["design", many.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("at most 31 classes"), "{err}");
}

#[test]
fn design_exports_opafm_fragment_and_ets() {
    let p = temp_file(
        "vector-opa.json",
        &vector().replace("\"dtable\"", "\"omnipath\""),
    );
    let run = |format: &str| {
        let out = qoslab(["design", p.to_str().unwrap(), "--format", format]);
        assert!(
            out.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let d = qoslab_core::design::design(
        &qoslab_core::design::parse_requirements(&vector().replace("\"dtable\"", "\"omnipath\""))
            .unwrap(),
    )
    .unwrap();
    use qoslab_core::design::{ets, opafm};
    assert_eq!(
        run("opafm").trim_end(),
        opafm::export_complete(&d).unwrap().trim_end()
    );
    assert_eq!(
        run("opafm-fragment").trim_end(),
        opafm::export_fragment(&d).unwrap().trim_end()
    );
    assert_eq!(run("ets").trim_end(), ets::command(&d).unwrap().trim_end());
    assert!(run("ets").contains("ets bands 7 quanta 6144 3072 32768 13312 6144 3072 1024"));
    // OpenSM lines stay InfiniBand only.
    let out = qoslab(["design", p.to_str().unwrap(), "--format", "opensm"]);
    assert_eq!(out.status.code(), Some(2));
}
