//! The committed TypeScript types (web/src/generated) and JSON Schema
//! (public/schema/scenario.schema.json) must match what the Rust types generate now.
//! If this fails, run `npm run gen-types` and commit the result.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn generated_types_are_up_to_date() {
    let out = std::env::temp_dir().join(format!("qoslab-gen-{}", std::process::id()));
    let ts = out.join("ts");
    let schema = out.join("scenario.schema.json");
    let status = Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(["gen-types", "--ts-dir"])
        .arg(&ts)
        .arg("--schema")
        .arg(&schema)
        .status()
        .unwrap();
    assert!(status.success());
    let committed_ts = files(&repo().join("web/src/generated"));
    let fresh_ts = files(&ts);
    let names = |v: &[(String, String)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&committed_ts),
        names(&fresh_ts),
        "generated file set changed: run `npm run gen-types`"
    );
    for (a, b) in committed_ts.iter().zip(&fresh_ts) {
        assert_eq!(
            a.1, b.1,
            "web/src/generated/{} is stale: run `npm run gen-types`",
            a.0
        );
    }
    let committed_schema =
        std::fs::read_to_string(repo().join("public/schema/scenario.schema.json")).unwrap();
    assert_eq!(
        committed_schema,
        std::fs::read_to_string(&schema).unwrap(),
        "public/schema/scenario.schema.json is stale: run `npm run gen-types`"
    );
    std::fs::remove_dir_all(out).ok();
}
