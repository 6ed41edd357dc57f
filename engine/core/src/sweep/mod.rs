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
use crate::scenario::{self, Model, Scenario};

mod summary;
#[cfg(test)]
mod tests;

pub use summary::{SweepClass, SweepPoint, SweepResult, ci90_half_width, student_t90};

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
