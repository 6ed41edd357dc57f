//! The wasm call `scheduler_weights`: what the web asks for the share table under a
//! scheduler ([`WeightsRequest`]: the scheduler and the port's classes), answered with the
//! engine's own per-class weights (each kind's `SchedulerSpec::carries`, the weights a kind
//! switch keeps; an AS basic table's are entries x the class's mean packet size, the
//! bounded Pareto mean among them) and their shares. The web keeps no copy of these
//! formulas (`docs/architecture.md`, issue 20). Its request is read like
//! `starting_scheduler`'s, with errors naming the field.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::EngineError;
use crate::scenario::ClassConfig;
use crate::schedulers::SchedulerConfig;
use crate::schedulers::starting::normalise;
use crate::starting_scheduler::{check_classes, class_sizes, parse_request};

/// What the web asks for: the weights of `scheduler` over `classes`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct WeightsRequest {
    /// The port's scheduler (need not be valid for the classes: entries naming no class
    /// and unusable weights count as 0).
    pub scheduler: SchedulerConfig,
    /// The port's classes (1 to 64).
    pub classes: Vec<ClassConfig>,
}

/// The engine's answer: per-class weights and shares, or null for kinds that do not divide
/// bandwidth by weights (strict priority, FIFO, EDF).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SchedulerWeights {
    /// Relative weight of every class (not normalised; finite, at least 0): table entry
    /// weights summed per class, quanta, fair-queueing weights, or an AS basic table's
    /// entries x mean packet size in bytes.
    pub weights: Option<Vec<f64>>,
    /// The weights as fractions of their sum (summing to 1, or all 0 when every weight is 0).
    pub shares: Option<Vec<f64>>,
}

/// The weights and shares of `scheduler` over `classes` (one of each per class).
pub fn weights_of(scheduler: &SchedulerConfig, classes: &[ClassConfig]) -> SchedulerWeights {
    let weights = scheduler.carries(&class_sizes(classes)).weights;
    let shares = weights.as_deref().map(normalise);
    SchedulerWeights { weights, shares }
}

/// The weights asked for by `request` (JSON of a [`WeightsRequest`]); errors name the
/// field (`scheduler.table[2].weight`, `classes[1].traffic.size.shape`, `classes`, ...).
pub fn scheduler_weights(request: &str) -> Result<SchedulerWeights, EngineError> {
    let request: WeightsRequest = parse_request(request)?;
    check_classes(&request.classes)?;
    Ok(weights_of(&request.scheduler, &request.classes))
}

#[cfg(test)]
#[path = "scheduler_weights_tests.rs"]
mod tests;
