//! What the command-line tests share: running the `qoslab` binary, the bundled presets,
//! and input files that remove themselves.
#![allow(dead_code, clippy::unwrap_used)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `qoslab` with `args` and returns what it printed and its exit status.
pub fn qoslab<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `qoslab` with `args`, fails the test with its stderr unless it succeeds.
pub fn qoslab_ok<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    let out = qoslab(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What `qoslab` with `args` printed on stdout, as JSON (the run must succeed).
pub fn qoslab_json<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> serde_json::Value {
    serde_json::from_slice(&qoslab_ok(args).stdout).unwrap()
}

/// A file of the repository, from its root (`public/presets/r2-multimedia-drr.json`).
pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// The bundled preset `public/presets/<name>.json`.
pub fn preset(name: &str) -> PathBuf {
    repo_path(&format!("public/presets/{name}.json"))
}

/// `bytes` in a file of its own named `<prefix><random>-<name>`, removed when the returned
/// path is dropped (a test's inputs never stay in the temporary directory).
pub fn temp_file(prefix: &str, name: &str, bytes: impl AsRef<[u8]>) -> tempfile::TempPath {
    let p = tempfile::Builder::new()
        .prefix(prefix)
        .suffix(&format!("-{name}"))
        .tempfile()
        .unwrap()
        .into_temp_path();
    std::fs::write(&p, bytes).unwrap();
    p
}
