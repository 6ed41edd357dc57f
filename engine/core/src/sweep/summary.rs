//! A sweep's results: its points, and per point and class the means over the runs with
//! 90% confidence half-widths (Student's t).

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use super::Axis;
use crate::results::RunResults;

/// Results of a whole sweep: one point per total offered load, in the order asked.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct SweepResult {
    /// The scenario's name.
    pub scenario: String,
    /// What the points vary when it is not the load (`streams`, `packet_bytes`); each
    /// point's `load` then holds that value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub axis: Option<Axis>,
    /// The points, in the order of the loads requested.
    pub points: Vec<SweepPoint>,
}

/// One point of a sweep: every run at one total offered load, and per-class summaries.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct SweepPoint {
    /// Total offered load (fraction of the link) of this point.
    pub load: f64,
    /// Number of runs (seeds) at this point.
    pub runs: u32,
    /// Per class, in class order: means over the runs with 90% confidence half-widths.
    pub classes: Vec<SweepClass>,
    /// Every run's results, in seed order.
    pub results: Vec<RunResults>,
}

/// One class at one sweep point, summarised over the runs.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct SweepClass {
    /// Class name.
    pub name: String,
    /// Mean offered load of the class (fraction of the link).
    pub offered: f64,
    /// Mean throughput of the class (fraction of the link).
    pub throughput: f64,
    /// Mean over the runs of each run's mean latency, in ns (null when no run measured a
    /// packet; runs without packets are left out).
    pub mean_ns: Option<f64>,
    /// Mean over the runs of each run's 99th-percentile latency, in ns.
    pub p99_ns: Option<f64>,
    /// Largest latency of any run, in ns.
    pub max_ns: Option<f64>,
    /// 90% confidence half-width of `throughput` (null with fewer than 2 runs).
    pub throughput_ci90: Option<f64>,
    /// 90% confidence half-width of `mean_ns` (null with fewer than 2 runs with packets).
    pub mean_ns_ci90: Option<f64>,
    /// Mean over the runs of each run's 99th percentile of the jitter magnitude, in ns
    /// (network connection classes only; runs without jitter samples are left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub jitter_p99_abs_ns: Option<f64>,
    /// Mean throughput in flits per cycle per end point (networks with a `flit_bytes`:
    /// R3's per-SL metric; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flits_per_cycle: Option<f64>,
    /// 90% confidence half-width of `flits_per_cycle` (absent with fewer than 2 runs or no
    /// flit size).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flits_per_cycle_ci90: Option<f64>,
}

impl SweepPoint {
    /// Summarises the runs of one point (all of the same scenario, so with the same
    /// classes; `results` in seed order).
    pub fn from_runs(load: f64, results: Vec<RunResults>) -> SweepPoint {
        let names: Vec<String> = results
            .first()
            .map(|r| r.classes.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default();
        let classes = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let per_run = |f: &dyn Fn(&crate::results::ClassResults) -> Option<f64>| {
                    results
                        .iter()
                        .filter_map(|r| r.classes.get(i).and_then(f))
                        .collect::<Vec<f64>>()
                };
                let offered = per_run(&|c| Some(c.offered));
                let throughput = per_run(&|c| Some(c.throughput));
                let means = per_run(&|c| c.latency_ns.mean);
                let p99s = per_run(&|c| c.latency_ns.p99);
                let maxes = per_run(&|c| c.latency_ns.max);
                let jitter = per_run(&|c| c.jitter_ns.as_ref().and_then(|j| j.p99_abs));
                let flits = per_run(&|c| c.flits.as_ref().map(|f| f.throughput));
                SweepClass {
                    name,
                    offered: mean(&offered).unwrap_or(0.0),
                    throughput: mean(&throughput).unwrap_or(0.0),
                    mean_ns: mean(&means),
                    p99_ns: mean(&p99s),
                    max_ns: maxes.iter().copied().reduce(f64::max),
                    throughput_ci90: ci90_half_width(&throughput),
                    mean_ns_ci90: ci90_half_width(&means),
                    jitter_p99_abs_ns: mean(&jitter),
                    flits_per_cycle: mean(&flits),
                    flits_per_cycle_ci90: ci90_half_width(&flits),
                }
            })
            .collect();
        SweepPoint {
            load,
            runs: u32::try_from(results.len()).unwrap_or(u32::MAX),
            classes,
            results,
        }
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

/// Half-width of the 90% confidence interval of the mean of `values` (independent
/// replications): `t(0.95, n - 1) * s / sqrt(n)` with the sample standard deviation `s`.
/// `None` with fewer than two values.
pub fn ci90_half_width(values: &[f64]) -> Option<f64> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let m = mean(values)?;
    let var = values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1) as f64;
    Some(student_t90(n as u32 - 1) * libm::sqrt(var / n as f64))
}

/// The 0.95 quantile of Student's t with `df` degrees of freedom (the factor of a
/// two-sided 90% interval): exact table values to 30, then the next lower tabulated
/// degrees of freedom (40, 60, 120: slightly conservative), and the normal 1.645 above 120.
/// `df = 0` has no interval; it returns infinity.
pub fn student_t90(df: u32) -> f64 {
    const TABLE: [f64; 30] = [
        6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782, 1.771,
        1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706,
        1.703, 1.701, 1.699, 1.697,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE.get(df as usize - 1).copied().unwrap_or(1.697),
        31..=39 => 1.697,
        40..=59 => 1.684,
        60..=119 => 1.671,
        120 => 1.658,
        _ => 1.645,
    }
}
