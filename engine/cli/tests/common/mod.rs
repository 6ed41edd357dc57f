//! What the command-line tests share: running the `qoslab` binary.
#![allow(dead_code, clippy::unwrap_used)]

use std::process::{Command, Output};

/// Runs `qoslab` with `args` and returns what it printed and its exit status.
pub fn qoslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(args)
        .output()
        .unwrap()
}
