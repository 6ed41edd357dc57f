//! Offered-load sweeps: the same scenario at several total loads.
//!
//! Link lab: all classes ramp together; a point at total load `x` scales every class's
//! load by the same factor so that the loads keep their proportions and add up to `x` (a
//! fraction of the link rate). Silent classes stay silent.
//!
//! Network: QoS classes (`best_effort: false`) keep their loads, and only the best-effort
//! classes scale so that the total offered load per end point is `x` (the spec's "QoS
//! classes inject a fixed amount; best-effort classes scale with the offered load"):
//! their loads keep their proportions, or are equal when they are all silent.
//!
//! Each point runs `runs` independent replications (seeds `seed`, `seed + 1`, ...); a
//! [`SweepPoint`] keeps every run's results and, per class, the mean over the runs with a
//! 90% confidence half-width from Student's t with `runs - 1` degrees of freedom.

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use crate::error::EngineError;
use crate::results::RunResults;
use crate::scenario::{self, Model, Scenario};

/// Most runs (seeds) per sweep point.
pub const MAX_RUNS: u32 = 1000;

/// Highest total offered load of a sweep point (fraction of the link).
pub const MAX_TOTAL_LOAD: f64 = 4.0;

/// Sum of the classes' offered loads (per end point for a network; QoS and best-effort
/// classes together).
pub fn total_load(scenario: &Scenario) -> f64 {
    match &scenario.model {
        Model::LinkLab(lab) => lab.classes.iter().map(|c| c.traffic.load).sum(),
        Model::Network(net) => net.classes.iter().map(|c| c.traffic.load).sum(),
        Model::NetworkProcessor(np) => np.utilisation(),
    }
}

/// The scenario at total offered load `total` (validated): every class scaled for a link
/// lab; for a network the best-effort classes scaled over the fixed QoS classes (see the
/// module documentation).
pub fn at_load(scenario: &Scenario, total: f64) -> Result<Scenario, EngineError> {
    if !(total.is_finite() && total > 0.0 && total <= MAX_TOTAL_LOAD) {
        return Err(EngineError::invalid(
            "load",
            format!(
                "must be a total offered load above 0 and at most {MAX_TOTAL_LOAD} (got {total})"
            ),
        ));
    }
    let mut out = scenario.clone();
    match &mut out.model {
        Model::LinkLab(lab) => {
            let now: f64 = lab.classes.iter().map(|c| c.traffic.load).sum();
            if !(now.is_finite() && now > 0.0) {
                return Err(EngineError::invalid(
                    "model.classes",
                    "every class is silent (load 0), so there is nothing to scale along the load axis",
                ));
            }
            let factor = total / now;
            for class in &mut lab.classes {
                class.traffic.load *= factor;
            }
        }
        Model::Network(net) => {
            let fixed: f64 = net
                .classes
                .iter()
                .filter(|c| !c.best_effort)
                .map(|c| c.traffic.load)
                .sum();
            let best_effort: Vec<usize> = (0..net.classes.len())
                .filter(|&i| net.classes[i].best_effort)
                .collect();
            if best_effort.is_empty() {
                return Err(EngineError::invalid(
                    "model.classes",
                    "no class is best_effort, so nothing scales along the load axis (QoS classes keep their loads); mark the classes that should follow the offered load with \"best_effort\": true",
                ));
            }
            // A total equal to the fixed part up to rounding leaves best effort silent.
            let room = total - fixed;
            if room < -1e-9 || !fixed.is_finite() {
                return Err(EngineError::invalid(
                    "load",
                    format!(
                        "must be at least the fixed load of the QoS classes ({fixed}): only best-effort classes scale (got {total})"
                    ),
                ));
            }
            let room = room.max(0.0);
            let now: f64 = best_effort
                .iter()
                .map(|&i| net.classes[i].traffic.load)
                .sum();
            for &i in &best_effort {
                let load = &mut net.classes[i].traffic.load;
                *load = if now > 0.0 {
                    *load * room / now
                } else {
                    room / best_effort.len() as f64
                };
            }
        }
        Model::NetworkProcessor(np) => {
            if !np.scale_to_utilisation(total) {
                return Err(EngineError::invalid(
                    "model.streams",
                    "the utilisation U is 0 (every window allows all packets to be late), so there is nothing to scale along the load axis",
                ));
            }
        }
    }
    scenario::validate(&out)?;
    Ok(out)
}

/// What a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    /// Total offered load ([`at_load`]); for a network processor, the utilisation U.
    Load,
    /// Streams of a network processor, shared among its groups in proportion, at the
    /// same U.
    Streams,
    /// Every packet of a network processor this many bytes, at the same U.
    PacketBytes,
}

impl Axis {
    /// Every axis, in the order of the documentation.
    pub const ALL: [Axis; 3] = [Axis::Load, Axis::Streams, Axis::PacketBytes];

    /// The axis's name in options and files.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Load => "load",
            Axis::Streams => "streams",
            Axis::PacketBytes => "packet_bytes",
        }
    }

    /// The axis called `name` (`load`, `streams`, `packet_bytes`), or an error at path
    /// `axis` naming the axes there are.
    pub fn from_name(name: &str) -> Result<Axis, EngineError> {
        Axis::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                EngineError::invalid(
                    "axis",
                    format!("must be one of load, streams, packet_bytes (got \"{name}\")"),
                )
            })
    }
}

/// The scenario at `value` along `axis` (validated).
pub fn at_point(scenario: &Scenario, axis: Axis, value: f64) -> Result<Scenario, EngineError> {
    if axis == Axis::Load {
        return at_load(scenario, value);
    }
    let Model::NetworkProcessor(np) = &scenario.model else {
        return Err(EngineError::invalid(
            "axis",
            format!(
                "\"{}\" sweeps only network-processor scenarios; sweep a link lab or a network along \"load\"",
                axis.name()
            ),
        ));
    };
    let mut np = np.clone();
    let whole = (1.0..=1.0e6).contains(&value) && value.fract() == 0.0;
    let ok = whole
        && match axis {
            Axis::Streams => np.scale_to_streams(value as u32),
            Axis::PacketBytes => np.scale_to_packet_bytes(value as u32),
            Axis::Load => false,
        };
    if !ok {
        return Err(EngineError::invalid(
            axis.name(),
            format!(
                "must be a whole number from 1 (and at least one per stream group) with a utilisation above 0 (got {value})"
            ),
        ));
    }
    let mut out = scenario.clone();
    out.model = Model::NetworkProcessor(np);
    scenario::validate(&out)?;
    Ok(out)
}

/// The replications of one sweep point: the scenario at `total` load with seeds
/// `seed, seed + 1, ..., seed + runs - 1` (each validated; the seed must stay at most
/// 2^53 - 1).
pub fn replications(
    scenario: &Scenario,
    total: f64,
    runs: u32,
) -> Result<Vec<Scenario>, EngineError> {
    if !(1..=MAX_RUNS).contains(&runs) {
        return Err(EngineError::invalid(
            "runs",
            format!("must be between 1 and {MAX_RUNS} seeds per point (got {runs})"),
        ));
    }
    let base = at_load(scenario, total)?;
    (0..u64::from(runs))
        .map(|i| {
            let mut s = base.clone();
            s.seed = base.seed.saturating_add(i);
            scenario::validate(&s)?;
            Ok(s)
        })
        .collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Scenario {
        scenario::parse(
            r#"{"version":1,"name":"s","seed":1,"duration_us":100,"warmup_us":10,
            "model":{"kind":"link_lab","link":{"rate_gbps":2.0},
              "downstream":{"buffer_bytes":4096,"drain_rate_gbps":2.0},
              "classes":[
                {"name":"A","traffic":{"load":0.1,"arrivals":{"kind":"poisson"},"size":{"kind":"fixed","bytes":64}}},
                {"name":"B","traffic":{"load":0.3,"arrivals":{"kind":"poisson"},"size":{"kind":"fixed","bytes":64}}},
                {"name":"C","traffic":{"load":0.0,"arrivals":{"kind":"poisson"},"size":{"kind":"fixed","bytes":64}}}],
              "scheduler":{"kind":"fifo"}}}"#,
        )
        .unwrap()
    }

    #[test]
    fn scales_loads_in_proportion() {
        let s = at_load(&base(), 0.8).unwrap();
        let Model::LinkLab(lab) = &s.model else {
            panic!("link lab")
        };
        let loads: Vec<f64> = lab.classes.iter().map(|c| c.traffic.load).collect();
        assert!((loads[0] - 0.2).abs() < 1e-12 && (loads[1] - 0.6).abs() < 1e-12);
        assert_eq!(loads[2], 0.0);
        assert!((total_load(&s) - 0.8).abs() < 1e-12);
    }

    /// An R2-like network: QoS classes 0.717 in all stay fixed, the three best-effort
    /// classes share the rest in their proportions (equal here).
    fn network() -> Scenario {
        let text = include_str!("../tests/data/network-r2.json");
        scenario::parse(text).unwrap()
    }

    fn network_loads(s: &Scenario) -> Vec<(bool, f64)> {
        let Model::Network(net) = &s.model else {
            panic!("network")
        };
        net.classes
            .iter()
            .map(|c| (c.best_effort, c.traffic.load))
            .collect()
    }

    #[test]
    fn networks_scale_only_best_effort_classes() {
        let base = network_loads(&network());
        for total in [0.762, 0.88, 1.0, 1.3] {
            let s = at_load(&network(), total).unwrap();
            let loads = network_loads(&s);
            for (i, (&(be, load), &(_, was))) in loads.iter().zip(&base).enumerate() {
                if be {
                    assert!(
                        (load - (total - 0.717) / 3.0).abs() < 1e-12,
                        "class {i}: {load}"
                    );
                } else {
                    assert_eq!(load, was, "QoS class {i} keeps its load");
                }
            }
            assert!((total_load(&s) - total).abs() < 1e-12);
        }
        // Exactly the fixed part: best effort silent.
        let s = at_load(&network(), 0.717).unwrap();
        assert!(network_loads(&s).iter().filter(|c| c.0).all(|c| c.1 == 0.0));
        // Unequal best-effort loads keep their proportions; all silent ones share equally.
        let mut doc = network();
        let Model::Network(net) = &mut doc.model else {
            panic!("network")
        };
        for (class, load) in net.classes[4..].iter_mut().zip([0.1, 0.2, 0.0]) {
            class.traffic.load = load;
        }
        let loads = network_loads(&at_load(&doc, 0.717 + 0.6).unwrap());
        assert!((loads[4].1 - 0.2).abs() < 1e-12 && (loads[5].1 - 0.4).abs() < 1e-12);
        assert_eq!(loads[6].1, 0.0);
        let silent = at_load(&doc, 0.717).unwrap();
        let loads = network_loads(&at_load(&silent, 0.717 + 0.3).unwrap());
        assert!(
            loads[4..].iter().all(|c| (c.1 - 0.1).abs() < 1e-12),
            "{loads:?}"
        );
    }

    #[test]
    fn networks_need_room_and_a_best_effort_class() {
        let err = at_load(&network(), 0.7).unwrap_err();
        let EngineError::Invalid { errors } = err else {
            panic!("invalid")
        };
        assert_eq!(errors[0].path, "load");
        assert!(
            errors[0]
                .message
                .contains("fixed load of the QoS classes (0.717"),
            "{}",
            errors[0].message
        );
        let mut doc = network();
        let Model::Network(net) = &mut doc.model else {
            panic!("network")
        };
        for c in &mut net.classes {
            c.best_effort = false;
        }
        let EngineError::Invalid { errors } = at_load(&doc, 1.0).unwrap_err() else {
            panic!("invalid")
        };
        assert_eq!(errors[0].path, "model.classes");
        assert!(errors[0].message.contains("no class is best_effort"));
    }

    #[test]
    fn rejects_bad_loads() {
        for bad in [0.0, -1.0, f64::NAN, 5.0] {
            assert!(at_load(&base(), bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replications_use_consecutive_seeds() {
        let reps = replications(&base(), 0.5, 3).unwrap();
        let seeds: Vec<u64> = reps.iter().map(|s| s.seed).collect();
        assert_eq!(seeds, vec![1, 2, 3]);
        assert!((total_load(&reps[2]) - 0.5).abs() < 1e-12);
        assert!(replications(&base(), 0.5, 0).is_err());
        let mut high = base();
        high.seed = (1 << 53) - 2;
        assert!(replications(&high, 0.5, 2).is_ok());
        assert!(replications(&high, 0.5, 3).is_err(), "seed beyond 2^53 - 1");
    }

    /// Worked example: values 1, 2, 3 have mean 2, s = 1, so the half-width is
    /// t(0.95, 2) / sqrt(3) = 2.920 / 1.732 = 1.6859.
    #[test]
    fn confidence_half_width() {
        let h = ci90_half_width(&[1.0, 2.0, 3.0]).unwrap();
        assert!((h - 2.920 / 3.0f64.sqrt()).abs() < 1e-12, "{h}");
        assert_eq!(ci90_half_width(&[5.0]), None);
        assert_eq!(ci90_half_width(&[4.0, 4.0]), Some(0.0));
        assert_eq!(student_t90(1), 6.314);
        assert_eq!(student_t90(30), 1.697);
        assert_eq!(student_t90(45), 1.684);
        assert_eq!(student_t90(10_000), 1.645);
        // The table decreases towards the normal quantile.
        for df in 1..200 {
            assert!(student_t90(df) >= student_t90(df + 1));
        }
    }

    #[test]
    fn point_summarises_runs() {
        // DTable rather than the base's FIFO: this branch runs with the DTable scheduler.
        let mut s = base();
        let Model::LinkLab(lab) = &mut s.model else {
            panic!("link lab")
        };
        lab.scheduler = crate::scenario::SchedulerConfig::Dtable(crate::scenario::DTableConfig {
            table: vec![
                crate::scenario::TableEntry {
                    class: 0,
                    weight: 4,
                },
                crate::scenario::TableEntry {
                    class: 1,
                    weight: 4,
                },
            ],
        });
        let runs: Vec<RunResults> = replications(&s, 0.4, 4)
            .unwrap()
            .into_iter()
            .map(|s| {
                let mut r = crate::Run::new(s).unwrap();
                r.run_to_end();
                r.results()
            })
            .collect();
        let p = SweepPoint::from_runs(0.4, runs.clone());
        assert_eq!(p.runs, 4);
        assert_eq!(p.classes.len(), 3);
        let tp: Vec<f64> = runs.iter().map(|r| r.classes[1].throughput).collect();
        assert!((p.classes[1].throughput - tp.iter().sum::<f64>() / 4.0).abs() < 1e-12);
        assert_eq!(p.classes[1].throughput_ci90, ci90_half_width(&tp));
        assert!(p.classes[1].throughput_ci90.unwrap() > 0.0);
        let max = runs
            .iter()
            .map(|r| r.classes[0].latency_ns.max.unwrap())
            .fold(0.0, f64::max);
        assert_eq!(p.classes[0].max_ns, Some(max));
        // The silent class has no latency at all.
        assert_eq!(p.classes[2].mean_ns, None);
        assert_eq!(p.classes[2].mean_ns_ci90, None);
        let one = SweepPoint::from_runs(0.4, runs[..1].to_vec());
        assert_eq!(one.classes[0].throughput_ci90, None);
    }
}
