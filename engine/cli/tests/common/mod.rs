//! What the command-line tests share: running the `qoslab` binary, and input files that
//! remove themselves.
#![allow(dead_code, clippy::unwrap_used)]

use std::process::{Command, Output};

/// Runs `qoslab` with `args` and returns what it printed and its exit status.
pub fn qoslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(args)
        .output()
        .unwrap()
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
