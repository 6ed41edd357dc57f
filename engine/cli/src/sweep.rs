//! `qoslab sweep`: one scenario at several total offered loads and seeds, run on all cores.
//!
//! Every (load, seed) pair is an independent job taken from a shared queue by worker
//! threads; each result is stored in its job's slot, so the output is ordered by load then
//! seed and is byte-for-byte the same whatever the number of threads.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use qoslab_core::sweep::{Axis, MAX_RUNS, SweepPoint, SweepResult, at_point, replications};
use qoslab_core::{Run, RunOptions, RunResults, Scenario};

use crate::{emit, fail, report_invalid};

/// Most runs (loads x seeds) of one sweep.
pub const MAX_SWEEP_RUNS: usize = 10_000;

/// Environment variable that sets the number of worker threads (default: all cores).
pub const THREADS_ENV: &str = "QOSLAB_THREADS";

/// Worker threads to use for `jobs` jobs.
fn thread_count(jobs: usize) -> usize {
    let wanted = std::env::var(THREADS_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    wanted.clamp(1, jobs.max(1))
}

/// A checked sweep: the scenario at each load (its first and last seed validated), and
/// the number of seeds per load. Run `i` is load `i / seeds`, seed `first + i % seeds`;
/// the local sweep and the Slurm job array (`crate::slurm`) build their runs from here.
pub struct Plan {
    bases: Vec<Scenario>,
    seeds: u32,
    axis: Axis,
}

impl Plan {
    /// Checks `--loads` and `--seeds` and builds the scenario at every load; on a problem
    /// prints it (naming the option or the scenario file) and returns the exit code.
    pub fn new(
        path: &Path,
        scenario: &Scenario,
        loads: &[f64],
        seeds: u32,
        axis: Axis,
    ) -> Result<Plan, ExitCode> {
        if loads.is_empty() {
            return Err(fail(2, "--loads needs at least one total offered load"));
        }
        if !(1..=MAX_RUNS).contains(&seeds) {
            return Err(fail(
                2,
                &format!("--seeds must be between 1 and {MAX_RUNS} seeds per load (got {seeds})"),
            ));
        }
        let runs = loads.len().saturating_mul(seeds as usize);
        if runs > MAX_SWEEP_RUNS {
            return Err(fail(
                2,
                &format!(
                    "--loads x --seeds is {} x {seeds} = {runs} runs, more than the limit of {MAX_SWEEP_RUNS}",
                    loads.len()
                ),
            ));
        }
        // One scenario per load; each run's own copy is made when it is needed, so memory
        // does not grow with loads x seeds.
        let mut bases: Vec<Scenario> = Vec::with_capacity(loads.len());
        for &load in loads {
            let point = |s: &Scenario| match axis {
                Axis::Load => replications(s, load, 1),
                other => at_point(s, other, load).map(|one| vec![one]),
            };
            let checked = point(scenario).and_then(|mut one| {
                let base = one.remove(0);
                let mut last = base.clone();
                last.seed = base.seed.saturating_add(u64::from(seeds) - 1);
                point(&last).map(|_| base)
            });
            match checked {
                Ok(base) => bases.push(base),
                Err(e) => return Err(report_invalid(path, &e)),
            }
        }
        Ok(Plan { bases, seeds, axis })
    }

    /// Number of runs (loads x seeds).
    pub fn runs(&self) -> usize {
        self.bases.len() * self.seeds as usize
    }

    /// The scenario of run `i` (load `i / seeds`, seed `first + i % seeds`).
    pub fn run(&self, i: usize) -> Scenario {
        let mut s = self.bases[i / self.seeds as usize].clone();
        s.seed = s.seed.saturating_add((i % self.seeds as usize) as u64);
        s
    }
}

/// Runs the sweep and prints (or writes) its JSON.
pub fn sweep(
    scenario: &Scenario,
    plan: &Plan,
    loads: &[f64],
    output: Option<&Path>,
    quiet: bool,
) -> ExitCode {
    let results = match run_all(
        plan.runs(),
        |i| plan.run(i),
        !quiet && std::io::stderr().is_terminal(),
    ) {
        Ok(r) => r,
        Err(message) => return fail(1, &message),
    };
    let points = loads
        .iter()
        .zip(results.chunks(plan.seeds as usize))
        .map(|(&load, runs)| (load, runs.to_vec()))
        .collect();
    emit_sweep(&scenario.name, points, output, plan.axis)
}

/// The sweep's JSON from the runs of each point (`(load, runs in seed order)`, in the order
/// of `--loads`), printed or written: the one path of both `qoslab sweep` and `qoslab
/// merge`, so a merged job array prints exactly what the local sweep prints.
pub fn emit_sweep(
    scenario: &str,
    points: Vec<(f64, Vec<RunResults>)>,
    output: Option<&Path>,
    axis: Axis,
) -> ExitCode {
    let sweep = SweepResult {
        scenario: scenario.to_string(),
        axis: (axis != Axis::Load).then_some(axis),
        points: points
            .into_iter()
            .map(|(load, runs)| SweepPoint::from_runs(load, runs))
            .collect(),
    };
    match serde_json::to_string_pretty(&sweep) {
        Ok(text) => emit(output, &text),
        Err(e) => fail(1, &format!("cannot serialise the sweep: {e}")),
    }
}

/// Runs jobs `0..jobs` (`job(i)` builds job i's scenario) on a pool of threads; results
/// in job order.
fn run_all(
    jobs: usize,
    job: impl Fn(usize) -> Scenario + Sync,
    show_progress: bool,
) -> Result<Vec<RunResults>, String> {
    let slots: Vec<Mutex<Option<Result<RunResults, String>>>> =
        (0..jobs).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = thread_count(jobs);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs {
                        break;
                    }
                    let scenario = job(i);
                    let seed = scenario.seed;
                    let result = Run::with_options(scenario, RunOptions::UNAUDITED)
                        .map_err(|e| e.to_string())
                        .and_then(|mut run| {
                            run.run_to_end();
                            match run.stopped() {
                                Some(e) => Err(e.to_string()),
                                None => Ok(run.results()),
                            }
                        })
                        .map_err(|e| format!("run of seed {seed} failed: {e}"));
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(result);
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        if show_progress {
            loop {
                let finished = done.load(Ordering::Relaxed);
                eprint!(
                    "\r{finished}/{jobs} runs on {threads} threads, {:.1} s",
                    started.elapsed().as_secs_f64()
                );
                if finished >= jobs {
                    eprintln!();
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .map_err(|_| "a worker thread failed".to_string())?
                .unwrap_or_else(|| Err("a run did not finish".to_string()))
        })
        .collect()
}
