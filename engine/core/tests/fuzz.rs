//! Structured fuzzing of every input surface (issue 16, docs/robustness.md): scenarios (link
//! lab and network, every generator and scheduler, extreme values), the presets with a few
//! values changed (every model a preset uses), design requirements, OpenSM options text and
//! frame-size traces. Each input runs under a budget:
//! - no panic (a panic fails the test and proptest prints the input);
//! - time: each input within [`INPUT_SECONDS`] of wall-clock time (a watchdog thread
//!   aborts the process, printing the input, after [`HANG_SECONDS`]);
//! - memory: the peak resident memory grows by at most [`MEMORY_BYTES`] (Linux `VmHWM`,
//!   reset before each input);
//! - an accepted scenario runs [`EVENTS_PER_RUN`] events (or to its end) in slices; a slice
//!   of [`SLICE_EVENTS`] events taking over [`SLICE_SECONDS`] is a hang too;
//! - an accepted scenario conserves packets, every invariant its model audits holds, and
//!   a second run of it, unaudited (`RunOptions::audit`), gives identical results
//!   (determinism: nothing may hang on a hash map's order or the clock; and the audit
//!   changes no result).
//!
//! `QOSLAB_FUZZ_SURFACES` picks surfaces (`scenario,presets,requirements,opensm,trace`;
//! default all),
//! `QOSLAB_FUZZ_EVENTS` the events per accepted scenario.
//! `QOSLAB_FUZZ_CASES` sets the inputs per surface (default 64: the short run of
//! `cargo test` / `npm test`). The long run (docs/robustness.md):
//! `QOSLAB_FUZZ_CASES=250000 cargo test --release -p qoslab-core --test fuzz -- --nocapture`.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod fuzz_inputs;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use qoslab_core::design::{self, opensm};
use qoslab_core::traffic::frame_trace::FrameTrace;
use qoslab_core::{EngineError, Run, RunOptions};

/// Wall-clock limit of one input (debug builds are slower: the limit is generous).
const INPUT_SECONDS: f64 = 20.0;
/// An input still running after this long is a hang: the process aborts.
const HANG_SECONDS: u64 = 60;
/// Most the peak resident memory may grow while an input is processed.
const MEMORY_BYTES: usize = 1 << 30;
/// Events an accepted scenario runs at most (`QOSLAB_FUZZ_EVENTS` overrides it).
const EVENTS_PER_RUN: u64 = 200_000;
/// Events per slice of a run.
const SLICE_EVENTS: u64 = 20_000;
/// Longest a slice may take.
const SLICE_SECONDS: f64 = 5.0;

/// Peak resident memory of the process in bytes since the last [`reset_peak`] (Linux:
/// `VmHWM` of /proc/self/status; None elsewhere, and then memory is not checked).
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Resets the peak resident memory to the current one (Linux `clear_refs` 5).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Start of the input being processed (ms since the watchdog's epoch; 0 = none).
static STARTED_MS: AtomicU64 = AtomicU64::new(0);
static CURRENT: Mutex<String> = Mutex::new(String::new());
/// Inputs accepted by the engine (validated; for scenarios, run), for the report.
static ACCEPTED: AtomicU64 = AtomicU64::new(0);
/// Inputs done in the current surface, for progress lines in long runs.
static DONE: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn start_watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        epoch();
        std::thread::spawn(|| {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let started = STARTED_MS.load(Ordering::Relaxed);
                let now = epoch().elapsed().as_millis() as u64;
                if started > 0 && now.saturating_sub(started) > HANG_SECONDS * 1000 {
                    let input = CURRENT.lock().map(|s| s.clone()).unwrap_or_default();
                    eprintln!("fuzz: HANG over {HANG_SECONDS} s on input:\n{input}");
                    std::process::abort();
                }
            }
        });
    });
}

/// Runs `f` on `input` under the time and memory budget; Err names the overrun.
fn budgeted(input: &str, f: impl FnOnce() -> Result<(), String>) -> Result<(), TestCaseError> {
    if let Ok(mut c) = CURRENT.lock() {
        c.clear();
        c.extend(input.chars().take(4096));
    }
    reset_peak();
    let base = peak_rss();
    let t = Instant::now();
    STARTED_MS.store(epoch().elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
    let result = f();
    STARTED_MS.store(0, Ordering::Relaxed);
    let done = DONE.fetch_add(1, Ordering::Relaxed) + 1;
    if done % 50_000 == 0 {
        eprintln!(
            "fuzz progress: {done} inputs of this surface, {} accepted",
            ACCEPTED.load(Ordering::Relaxed)
        );
    }
    let secs = t.elapsed().as_secs_f64();
    let grew = match (base, peak_rss()) {
        (Some(b), Some(p)) => p.saturating_sub(b),
        _ => 0,
    };
    result.map_err(TestCaseError::fail)?;
    prop_assert!(secs <= INPUT_SECONDS, "took {secs:.1} s");
    prop_assert!(grew <= MEMORY_BYTES, "resident memory grew by {grew} bytes");
    Ok(())
}

/// Runs `run` in slices of [`SLICE_EVENTS`] until it ends or has run `limit` events; Err
/// when a slice takes over [`SLICE_SECONDS`].
fn run_in_slices(run: &mut Run, limit: u64) -> Result<(), String> {
    let mut events = 0;
    while events < limit {
        let t = Instant::now();
        let done = run.advance(SLICE_EVENTS);
        let secs = t.elapsed().as_secs_f64();
        if secs > SLICE_SECONDS {
            return Err(format!("a slice of {SLICE_EVENTS} events took {secs:.1} s"));
        }
        if done {
            break;
        }
        events += SLICE_EVENTS;
    }
    Ok(())
}

/// Parses, validates and (if accepted) runs a scenario in slices, twice, audited and then
/// not: every invariant must hold, packets be conserved, and the two runs' results be
/// identical (same scenario and seed; the audit changes no result).
fn scenario_case(text: &str) -> Result<(), String> {
    let Ok(mut run) = Run::from_json(text) else {
        return Ok(());
    };
    ACCEPTED.fetch_add(1, Ordering::Relaxed);
    let limit = std::env::var("QOSLAB_FUZZ_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(EVENTS_PER_RUN);
    run_in_slices(&mut run, limit)?;
    match run.stopped() {
        None | Some(EngineError::Budget { .. }) => {}
        Some(other) => return Err(format!("stopped with {other}")),
    }
    let r = run.results();
    // A network processor also drops late packets and loses arrivals to full queues.
    let gone = r
        .network_processor
        .as_ref()
        .map_or(0, |np| np.dropped_late + np.lost_full);
    if r.generated != r.delivered + gone + r.in_flight {
        return Err(format!(
            "generated {} != delivered {} + dropped or lost {gone} + in flight {}",
            r.generated, r.delivered, r.in_flight
        ));
    }
    match run.audit_findings() {
        Some(findings) if findings.is_empty() => {}
        Some(findings) => return Err(format!("invariants broken: {}", findings.join(", "))),
        None => return Err("Run::from_json did not audit".into()),
    }
    drop(run);
    // The second run without the audit: the audit must change no result either.
    let mut again = Run::from_json_with(text, RunOptions::UNAUDITED)
        .map_err(|e| format!("accepted once, then: {e}"))?;
    run_in_slices(&mut again, limit)?;
    let (first, second) = (
        serde_json::to_string(&r).map_err(|e| e.to_string())?,
        serde_json::to_string(&again.results()).map_err(|e| e.to_string())?,
    );
    if first != second {
        return Err(format!(
            "two runs of one scenario differ:\n{first}\n{second}"
        ));
    }
    Ok(())
}

fn requirements_case(text: &str) -> Result<(), String> {
    if let Ok(r) = design::parse_requirements(text)
        && design::validate_requirements(&r).is_ok()
        && let Ok(d) = design::design(&r)
    {
        ACCEPTED.fetch_add(1, Ordering::Relaxed);
        let _ = design::evaluate(&r, &d.table);
    }
    Ok(())
}

fn opensm_case(text: &str) -> Result<(), String> {
    if let Ok((found, _)) = opensm::parse_with_mtu(text, Some(2048)) {
        ACCEPTED.fetch_add(1, Ordering::Relaxed);
        for q in &found {
            let lines = opensm::to_lines(q);
            if let Ok(iba) = opensm::to_iba(q)
                && let Ok(back) = opensm::from_iba(&iba, q.prefix, q.max_vls.unwrap_or(8))
            {
                let text = opensm::to_lines(&back);
                opensm::parse(&text).map_err(|e| format!("export not importable: {e}\n{text}"))?;
            }
            opensm::parse(&lines).map_err(|e| format!("lines not importable: {e}\n{lines}"))?;
        }
    } else if let Err(EngineError::Invalid { errors }) = opensm::parse(text)
        && errors.len() > opensm::MAX_ERRORS + 1
    {
        return Err(format!("{} errors", errors.len()));
    }
    Ok(())
}

fn trace_case(text: &str) -> Result<(), String> {
    if let Ok(t) = FrameTrace::parse(text) {
        ACCEPTED.fetch_add(1, Ordering::Relaxed);
        let _ = t.mean_rate_bps(40_000);
    }
    Ok(())
}

/// Whether surface `name` runs: all, or those listed in `QOSLAB_FUZZ_SURFACES`
/// (comma separated, e.g. `opensm,trace`).
fn wanted(name: &str) -> bool {
    std::env::var("QOSLAB_FUZZ_SURFACES").map_or(true, |v| v.split(',').any(|s| s.trim() == name))
}

fn cases() -> u32 {
    std::env::var("QOSLAB_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

/// Runs `cases()` inputs of `strategy` through `case`; returns the count.
fn fuzz(
    name: &str,
    strategy: impl Strategy<Value = String>,
    case: fn(&str) -> Result<(), String>,
) -> u32 {
    if !wanted(name) {
        return 0;
    }
    let n = cases();
    let config = Config {
        cases: n,
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    };
    let t = Instant::now();
    ACCEPTED.store(0, Ordering::Relaxed);
    DONE.store(0, Ordering::Relaxed);
    let mut runner = TestRunner::new(config);
    let result = runner.run(&strategy, |text| budgeted(&text, || case(&text)));
    if let Err(e) = result {
        panic!("fuzz surface {name}: {e}");
    }
    eprintln!(
        "fuzz {name}: {n} inputs ({} accepted), 0 panics / hangs / overruns, {:.1} s",
        ACCEPTED.load(Ordering::Relaxed),
        t.elapsed().as_secs_f64()
    );
    n
}

/// One test for all surfaces, so the memory peak belongs to one input at a time.
#[test]
fn fuzz_every_surface() {
    start_watchdog();
    let mut total = 0;
    total += fuzz("scenario", fuzz_inputs::scenario(), scenario_case);
    total += fuzz(
        "presets",
        fuzz_inputs::presets::mutated_preset(),
        scenario_case,
    );
    total += fuzz(
        "requirements",
        fuzz_inputs::requirements(),
        requirements_case,
    );
    total += fuzz("opensm", fuzz_inputs::opensm_text(), opensm_case);
    total += fuzz("trace", fuzz_inputs::trace_text(), trace_case);
    eprintln!("fuzz: {total} inputs in all");
}
