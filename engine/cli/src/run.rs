//! `qoslab run`: one scenario to the end, its results as JSON, and with `--audit` the
//! model's invariants checked on the way.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use qoslab_core::{Run, RunOptions};

use crate::{Overrides, emit, fail, parse_scenario, report_invalid};

/// Runs the scenario at `path` (with `overrides`) to the end and writes its results to
/// `output` (stdout when None), audited when `audit`.
pub(crate) fn run(
    path: &Path,
    overrides: &Overrides,
    output: Option<&Path>,
    quiet: bool,
    audit: bool,
) -> ExitCode {
    let scenario = match parse_scenario(path, overrides) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut run = match Run::with_options(scenario, RunOptions { audit }) {
        Ok(r) => r,
        Err(e) => return report_invalid(path, &e),
    };
    let show_progress = !quiet && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last_shown = started;
    while !run.advance(1 << 16) {
        if show_progress && last_shown.elapsed().as_millis() >= 200 {
            last_shown = Instant::now();
            eprint!("\r{:5.1}% simulated", run.progress() * 100.0);
        }
    }
    if let Some(e) = run.stopped() {
        if show_progress {
            eprintln!();
        }
        return fail(3, &format!("{}: {e}", path.display()));
    }
    let results = run.results();
    if show_progress && started.elapsed().as_millis() >= 200 {
        let secs = started.elapsed().as_secs_f64();
        let hops = results
            .packet_hops
            .map(|h| format!(", {:.2} M packet-hops/s", h as f64 / secs / 1.0e6))
            .unwrap_or_default();
        eprintln!(
            "\r100.0% simulated in {secs:.1} s ({:.2} M events/s{hops})",
            results.events as f64 / secs / 1.0e6
        );
    }
    let written = emit(output, &results.to_json_pretty());
    if written != ExitCode::SUCCESS {
        return written;
    }
    match run.audit_findings() {
        None => ExitCode::SUCCESS,
        Some(findings) if findings.is_empty() => {
            if !quiet {
                eprintln!("{}: audit: every invariant held", path.display());
            }
            ExitCode::SUCCESS
        }
        Some(findings) => fail(
            4,
            &format!(
                "{}: audit: invariants broken: {}",
                path.display(),
                findings.join(", ")
            ),
        ),
    }
}
