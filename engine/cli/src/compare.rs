//! `qoslab compare`: runs two or more scenarios with the same classes and prints their
//! delay per class side by side: mean, maximum and standard deviation (R6's table: PCFQ
//! against separate WFQ per category), as text or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use qoslab_core::{Run, RunOptions, RunResults};
use serde::Serialize;

use crate::{Overrides, emit, fail, parse_scenario, report_invalid};

/// One class of one scenario.
#[derive(Serialize)]
struct Cell {
    mean_us: Option<f64>,
    max_us: Option<f64>,
    std_us: Option<f64>,
    packets: u64,
}

/// The comparison: per scenario its scheduler and per class its delays.
#[derive(Serialize)]
struct Comparison {
    scenarios: Vec<String>,
    schedulers: Vec<String>,
    classes: Vec<String>,
    /// `delays[class][scenario]`.
    delays: Vec<Vec<Cell>>,
}

fn run_one(path: &Path, o: &Overrides) -> Result<RunResults, ExitCode> {
    let s = parse_scenario(path, o)?;
    let mut run =
        Run::with_options(s, RunOptions::UNAUDITED).map_err(|e| report_invalid(path, &e))?;
    run.run_to_end();
    if let Some(e) = run.stopped() {
        return Err(fail(3, &format!("{}: {e}", path.display())));
    }
    Ok(run.results())
}

/// Runs `paths` and prints the table (or JSON).
pub fn compare(
    paths: &[PathBuf],
    seed: Option<u64>,
    duration_ms: Option<f64>,
    json: bool,
) -> ExitCode {
    if paths.len() < 2 {
        return fail(2, "compare needs two or more scenario files");
    }
    let o = Overrides {
        seed,
        load: None,
        duration_ms,
    };
    let mut results = Vec::new();
    for p in paths {
        match run_one(p, &o) {
            Ok(r) => results.push(r),
            Err(code) => return code,
        }
    }
    let classes: Vec<String> = results[0].classes.iter().map(|c| c.name.clone()).collect();
    for (r, p) in results.iter().zip(paths) {
        let names: Vec<&str> = r.classes.iter().map(|c| c.name.as_str()).collect();
        if names != classes.iter().map(String::as_str).collect::<Vec<_>>() {
            return fail(
                2,
                &format!(
                    "{}: its classes ({}) differ from those of {} ({})",
                    p.display(),
                    names.join(", "),
                    paths[0].display(),
                    classes.join(", ")
                ),
            );
        }
    }
    let us = |v: Option<f64>| v.map(|x| x / 1000.0);
    let delays = (0..classes.len())
        .map(|c| {
            results
                .iter()
                .map(|r| {
                    let k = &r.classes[c];
                    Cell {
                        mean_us: us(k.latency_ns.mean),
                        max_us: us(k.latency_ns.max),
                        std_us: us(k.latency_std_ns),
                        packets: k.latency_ns.samples,
                    }
                })
                .collect()
        })
        .collect();
    let cmp = Comparison {
        scenarios: results.iter().map(|r| r.scenario.clone()).collect(),
        schedulers: results.iter().map(|r| r.scheduler.kind.clone()).collect(),
        classes,
        delays,
    };
    if json {
        return emit(
            None,
            &serde_json::to_string_pretty(&cmp).unwrap_or_default(),
        );
    }
    emit(None, &table(&cmp))
}

fn table(c: &Comparison) -> String {
    let f = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |x| format!("{x:.1}"));
    let mut out = String::from("Delay per class, microseconds (mean / max / std dev)\n");
    out.push_str(&format!("{:<26}", "class"));
    for s in &c.schedulers {
        out.push_str(&format!(" | {:^28}", s));
    }
    let mut out = out.trim_end().to_string();
    out.push('\n');
    for (name, row) in c.classes.iter().zip(&c.delays) {
        out.push_str(&format!("{name:<26}"));
        for cell in row {
            let text = format!(
                "{} / {} / {}",
                f(cell.mean_us),
                f(cell.max_us),
                f(cell.std_us)
            );
            out.push_str(&format!(" | {text:>28}"));
        }
        out.push('\n');
    }
    out.trim_end().to_string()
}
