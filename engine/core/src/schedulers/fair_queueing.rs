//! The configuration and rules the four virtual-time fair-queueing schedulers share
//! (SCFQ, WFQ, WF2Q+, SFQ).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rules::per_class_values;
use crate::scenario::problems::{ClassRef, Problems};

/// Largest weight of a fair-queueing class.
pub const MAX_WEIGHT: f64 = 1.0e9;

/// A virtual-time fair-queueing scheduler (SCFQ, WFQ, WF2Q+, SFQ).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct FairQueueingConfig {
    /// Relative weight of each class (above 0); the bandwidth share of class i is
    /// `weights[i] / sum(weights)`.
    pub weights: Vec<f64>,
}

/// One weight per class, each above 0 and at most [`MAX_WEIGHT`].
pub(crate) fn validate_weights(
    config: &FairQueueingConfig,
    classes: &[ClassRef<'_>],
    at: &str,
    p: &mut Problems,
) {
    per_class_values(
        &config.weights,
        classes.len(),
        &format!("{at}.weights"),
        p,
        |w| w.is_finite() && w > 0.0 && w <= MAX_WEIGHT,
        "must be a weight above 0 and at most 1e9",
    );
}

/// `impl SchedulerSpec` for a fair-queueing scheduler: its rules are [`validate_weights`],
/// and `$build` (a `fn(&FairQueueingConfig, PortSetup) -> $ty`) builds it.
macro_rules! fair_queueing_spec {
    ($ty:ty, $build:expr) => {
        impl $crate::schedulers::SchedulerSpec for $ty {
            type Config = $crate::schedulers::FairQueueingConfig;

            fn validate(
                config: &Self::Config,
                classes: &[$crate::scenario::problems::ClassRef<'_>],
                at: &str,
                p: &mut $crate::scenario::problems::Problems,
            ) {
                $crate::schedulers::fair_queueing::validate_weights(config, classes, at, p);
            }

            fn build(
                config: &Self::Config,
                port: $crate::schedulers::PortSetup,
            ) -> Box<dyn $crate::schedulers::Scheduler> {
                let build: fn(&Self::Config, $crate::schedulers::PortSetup) -> $ty = $build;
                Box::new(build(config, port))
            }
        }
    };
}

pub(crate) use fair_queueing_spec;
