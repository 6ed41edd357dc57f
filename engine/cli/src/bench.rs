//! `qoslab bench`: the standard benchmark set, each scenario run once in this process,
//! reporting events/s, packet-hops/s, ns per event and peak memory (see
//! docs/performance.md for the figures and how to compare two builds).
//!
//! The scenarios are compiled in: the link lab's default preset, the R2 preset (10 ms;
//! and 100 ms at the R2 study's lowest load point, 0.76, and at the preset's, 0.996),
//! the 64-end-point uniform scenarios shared with BookSim2 (loads 0.5 and 0.75), the
//! scale scenarios (MINs of 1 024 and 4 096 end points) and R3's largest network (the
//! 8x8x8 torus preset, 2 048 end points, InfiniBand-like switches, 20 µs). Timing is the CPU time of this
//! thread (Linux: `/proc/thread-self/schedstat`; elsewhere wall time), from the
//! scenario's parsing to the end of the run, results included. Peak memory is the
//! process's resident high-water mark, reset before each scenario (Linux:
//! `/proc/self/clear_refs`), so it is that scenario's peak plus the program itself.

use std::process::ExitCode;
use std::time::Instant;

use qoslab_core::{Run, RunOptions, scenario};
use serde::Serialize;

mod summary;

/// One scenario of the set.
struct Case {
    name: &'static str,
    what: &'static str,
    json: &'static str,
    /// The total offered load to run at instead of the scenario's (as `qoslab run
    /// --load`), if any.
    load: Option<f64>,
    /// The simulated time instead of the scenario's, µs (as `qoslab run --duration-ms`:
    /// the warm-up keeps its share), if any.
    duration_us: Option<u64>,
}

impl Case {
    /// The scenario `json` as it is.
    const fn new(name: &'static str, what: &'static str, json: &'static str) -> Case {
        Case {
            name,
            what,
            json,
            load: None,
            duration_us: None,
        }
    }

    /// Run at total offered load `load`.
    const fn at_load(self, load: f64) -> Case {
        Case {
            load: Some(load),
            ..self
        }
    }

    /// Simulate `us` µs.
    const fn for_us(self, us: u64) -> Case {
        Case {
            duration_us: Some(us),
            ..self
        }
    }
}

const CASES: &[Case] = &[
    Case::new(
        "link-lab",
        "link lab default preset, 4 classes, DTable, 2 s",
        include_str!("../../../public/presets/default.json"),
    ),
    Case::new(
        "r2",
        "R2 multimedia DTable, 64 end points, 7 classes, 10 ms",
        include_str!("../../../public/presets/r2-multimedia-dtable.json"),
    ),
    Case::new(
        "r2-100ms-0.76",
        "R2 at the study's lowest load point, 0.76, 100 ms",
        include_str!("../../../public/presets/r2-multimedia-dtable.json"),
    )
    .at_load(0.76)
    .for_us(100_000),
    Case::new(
        "r2-100ms-0.996",
        "R2 at the preset's load, 0.996, 100 ms",
        include_str!("../../../public/presets/r2-multimedia-dtable.json"),
    )
    .for_us(100_000),
    Case::new(
        "min64-0.5",
        "MIN 64 end points, uniform 64 B, load 0.5, 60 000 packet times",
        include_str!("../bench/min64-u64-L050.json"),
    ),
    Case::new(
        "min64-0.75",
        "MIN 64 end points, uniform 64 B, load 0.75, 60 000 packet times",
        include_str!("../bench/min64-u64-L075.json"),
    ),
    Case::new(
        "ib-tree64",
        "4-ary 3-tree, InfiniBand-like switches, 3 VLs, DTable, load 0.75, 1 ms",
        include_str!("../bench/ib-tree64.json"),
    ),
    Case::new(
        "min1024",
        "MIN 1 024 end points (8-port switches), load 0.5, 6 000 packet times",
        include_str!("../bench/scale-min1024-p8.json"),
    ),
    Case::new(
        "min4096",
        "MIN 4 096 end points (32-port switches), load 0.5, 6 000 packet times",
        include_str!("../bench/scale-min4096-p32.json"),
    ),
    Case::new(
        "r3-torus8x8x8",
        "R3 3D torus 8x8x8, 2 048 end points, InfiniBand-like switches, DOR, 20 µs",
        include_str!("../../../public/presets/r3-torus8x8x8-ib.json"),
    ),
];

/// What one scenario measured.
#[derive(Serialize)]
struct Row {
    name: &'static str,
    scenario: &'static str,
    events: u64,
    packet_hops: Option<u64>,
    /// CPU seconds of the run (wall seconds where the CPU time cannot be read).
    seconds: f64,
    /// Whether `seconds` is CPU time.
    cpu_time: bool,
    events_per_s: f64,
    packet_hops_per_s: Option<f64>,
    ns_per_event: f64,
    /// Resident high-water mark during the scenario, MiB (None where it cannot be read).
    peak_mib: Option<f64>,
    /// Runs of the scenario (`--repeat`): `seconds` and the rates are those of the median
    /// run, the peak the highest.
    runs: usize,
    /// The fastest and slowest runs' ns per event.
    ns_per_event_min: f64,
    ns_per_event_max: f64,
    /// Its ns per event against another scenario's, round by round (`--ratio`).
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio: Option<summary::Ratio>,
}

/// CPU time of the calling thread in ns (Linux).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Resets the process's resident high-water mark; false where that is not possible.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's resident high-water mark in MiB (Linux).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn measure(case: &Case, quick: bool) -> Result<Row, String> {
    let peak_known = reset_peak();
    let cpu0 = thread_cpu_ns();
    let wall0 = Instant::now();
    let mut s = scenario::parse(case.json).map_err(|e| format!("{}: {e}", case.name))?;
    if let Some(us) = case.duration_us {
        crate::set_duration_us(&mut s, us);
    }
    if let Some(load) = case.load {
        s = qoslab_core::sweep::at_load(&s, load).map_err(|e| format!("{}: {e}", case.name))?;
    }
    if quick {
        // A tenth of the run (keeping the warm-up's share), for a smoke test.
        s.duration_us = (s.duration_us / 10).max(2);
        s.warmup_us = (s.warmup_us / 10).min(s.duration_us - 1);
    }
    // As `qoslab run` without `--audit`: the product's speed.
    let mut run =
        Run::with_options(s, RunOptions::UNAUDITED).map_err(|e| format!("{}: {e}", case.name))?;
    run.run_to_end();
    if let Some(e) = run.stopped() {
        return Err(format!("{}: {e}", case.name));
    }
    let results = run.results();
    let (seconds, cpu_time) = match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) => (b.saturating_sub(a) as f64 / 1e9, true),
        _ => (wall0.elapsed().as_secs_f64(), false),
    };
    let seconds = seconds.max(1e-9);
    let events = results.events;
    let ns_per_event = seconds * 1e9 / events.max(1) as f64;
    Ok(Row {
        name: case.name,
        scenario: case.what,
        events,
        packet_hops: results.packet_hops,
        seconds,
        cpu_time,
        events_per_s: events as f64 / seconds,
        packet_hops_per_s: results.packet_hops.map(|h| h as f64 / seconds),
        ns_per_event,
        peak_mib: if peak_known { peak_mib() } else { None },
        runs: 1,
        ns_per_event_min: ns_per_event,
        ns_per_event_max: ns_per_event,
        ratio: None,
    })
}

/// What `qoslab bench` was asked.
pub struct BenchOptions {
    /// Only the cases whose name contains one of these (all when empty).
    pub only: Vec<String>,
    /// JSON instead of a table.
    pub json: bool,
    /// A tenth of each run.
    pub quick: bool,
    /// Rounds over the chosen cases (at least 1).
    pub repeat: usize,
    /// `A/B`: report case A's ns per event over case B's, round by round.
    pub ratio: Option<String>,
}

/// Runs the set (the cases whose name contains one of `only`, all when empty) `repeat`
/// times, round after round, and prints a table, or JSON with `json`.
pub fn bench(o: &BenchOptions) -> ExitCode {
    let cases: Vec<&Case> = CASES
        .iter()
        .filter(|c| o.only.is_empty() || o.only.iter().any(|n| c.name.contains(n.as_str())))
        .collect();
    if cases.is_empty() {
        let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
        return crate::fail(
            2,
            &format!("no benchmark matches; the set: {}", names.join(", ")),
        );
    }
    let names: Vec<&str> = cases.iter().map(|c| c.name).collect();
    let pair = match o.ratio.as_deref().map(|r| summary::ratio_pair(r, &names)) {
        None => None,
        Some(Ok(pair)) => Some(pair),
        Some(Err(e)) => return crate::fail(2, &e),
    };
    let progressive = o.repeat == 1 && !o.json;
    if progressive {
        print_header(false);
    }
    let mut runs: Vec<Vec<Row>> = cases.iter().map(|_| Vec::new()).collect();
    for round in 1..=o.repeat {
        for (case, done) in cases.iter().zip(&mut runs) {
            let row = match measure(case, o.quick) {
                Ok(row) => row,
                Err(e) => return crate::fail(1, &e),
            };
            if progressive {
                print_row(&row);
            } else if o.repeat > 1 {
                eprintln!(
                    "round {round}/{}: {} {:.1} ns/event",
                    o.repeat, row.name, row.ns_per_event
                );
            }
            done.push(row);
        }
    }
    let ratio = pair.map(|(a, b)| (a, summary::ratio(names[b], &runs[a], &runs[b])));
    let mut rows: Vec<Row> = runs.into_iter().map(summary::summarize).collect();
    if let Some((a, r)) = ratio {
        rows[a].ratio = Some(r);
    }
    if o.json {
        match serde_json::to_string_pretty(&rows) {
            Ok(text) => println!("{text}"),
            Err(e) => return crate::fail(1, &format!("cannot write results: {e}")),
        }
        return ExitCode::SUCCESS;
    }
    if !progressive {
        print_header(true);
        rows.iter().for_each(print_row);
    }
    for r in &rows {
        if let Some(q) = &r.ratio {
            println!(
                "ns per event, {} / {}: median {:.3} ({:.3} … {:.3}) over {} rounds",
                r.name, q.against, q.median, q.min, q.max, q.rounds
            );
        }
    }
    if rows.iter().any(|r| !r.cpu_time) {
        println!("(seconds are wall time: this system does not report a thread's CPU time)");
    }
    ExitCode::SUCCESS
}

/// The table's header; with `spread`, the column of the runs' fastest and slowest ns
/// per event.
fn print_header(spread: bool) {
    print!(
        "{:<14} {:>12} {:>11} {:>8} {:>10} {:>12} {:>9} {:>9}",
        "scenario", "events", "hops", "seconds", "M events/s", "M hops/s", "ns/event", "peak MiB"
    );
    println!(
        "{}",
        if spread {
            "  ns/event min … max (runs)"
        } else {
            ""
        }
    );
}

/// One row of the table (with the runs' spread when there were several).
fn print_row(row: &Row) {
    let opt = |v: Option<f64>, scale: f64, prec: usize| {
        v.map_or("-".to_string(), |x| format!("{:.prec$}", x / scale))
    };
    print!(
        "{:<14} {:>12} {:>11} {:>8.3} {:>10.2} {:>12} {:>9.1} {:>9}",
        row.name,
        row.events,
        row.packet_hops.map_or("-".to_string(), |h| h.to_string()),
        row.seconds,
        row.events_per_s / 1e6,
        opt(row.packet_hops_per_s, 1e6, 2),
        row.ns_per_event,
        opt(row.peak_mib, 1.0, 1),
    );
    if row.runs > 1 {
        println!(
            "  {:.1} … {:.1} ({})",
            row.ns_per_event_min, row.ns_per_event_max, row.runs
        );
    } else {
        println!();
    }
}
