//! The configuration and rules the four virtual-time fair-queueing schedulers share
//! (SCFQ, WFQ, WF2Q+, SFQ).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rules::per_class_values;
use super::starting::{Carried, Carries, ClassSize, six_digits, usable};
use crate::problems::{ClassRef, Problems};

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

/// The starting weights of a fair-queueing kind: the previous kind's own weights (credits,
/// quanta, weights; a class without one gets the smallest), else the shares in percent;
/// 6 significant digits.
pub(crate) fn starting_weights(c: &Carried<'_>) -> FairQueueingConfig {
    let n = c.classes.len();
    let own = c
        .weights
        .as_ref()
        .filter(|w| w.iter().take(n).any(|&x| usable(x) > 0.0));
    let w: Vec<f64> = match own {
        Some(w) => (0..n)
            .map(|i| usable(w.get(i).copied().unwrap_or(0.0)))
            .collect(),
        None => c.shares.iter().map(|&s| s * 100.0).collect(),
    };
    let fallback = w
        .iter()
        .copied()
        .filter(|&x| x > 0.0)
        .fold(f64::INFINITY, f64::min);
    let fallback = if fallback.is_finite() { fallback } else { 1.0 };
    let weights = w
        .iter()
        .map(|&x| six_digits(if x > 0.0 { x } else { fallback }).min(MAX_WEIGHT))
        .collect();
    FairQueueingConfig { weights }
}

/// What a fair-queueing configuration carries over: its weights.
pub(crate) fn carried_weights(config: &FairQueueingConfig, classes: &[ClassSize]) -> Carries {
    let weights = (0..classes.len())
        .map(|i| usable(config.weights.get(i).copied().unwrap_or(0.0)))
        .collect();
    Carries {
        weights: Some(weights),
        ..Carries::default()
    }
}

/// `impl SchedulerSpec` for a fair-queueing scheduler: its rules are [`validate_weights`],
/// and `$build` (a `fn(&FairQueueingConfig, PortSetup) -> $ty`) builds it.
macro_rules! fair_queueing_spec {
    ($ty:ty, $build:expr) => {
        impl $crate::schedulers::SchedulerSpec for $ty {
            type Config = $crate::schedulers::FairQueueingConfig;

            fn validate(
                config: &Self::Config,
                classes: &[$crate::problems::ClassRef<'_>],
                at: &str,
                p: &mut $crate::problems::Problems,
            ) {
                $crate::schedulers::fair_queueing::validate_weights(config, classes, at, p);
            }

            fn build(config: &Self::Config, port: $crate::schedulers::PortSetup) -> Self {
                let build: fn(&Self::Config, $crate::schedulers::PortSetup) -> $ty = $build;
                build(config, port)
            }

            fn starting(c: &$crate::schedulers::starting::Carried<'_>) -> Self::Config {
                $crate::schedulers::fair_queueing::starting_weights(c)
            }

            fn carries(
                config: &Self::Config,
                classes: &[$crate::schedulers::starting::ClassSize],
            ) -> $crate::schedulers::starting::Carries {
                $crate::schedulers::fair_queueing::carried_weights(config, classes)
            }
        }
    };
}

pub(crate) use fair_queueing_spec;

#[cfg(test)]
mod tests {
    use crate::problems::{ClassRef, Problems};
    use crate::schedulers::SchedulerConfig;

    /// Every fair-queueing kind applies the weight rules at its own path.
    #[test]
    fn every_fair_queueing_kind_checks_its_weights() {
        let class = |name| ClassRef {
            name,
            load: 0.5,
            max_bytes: 64,
        };
        let classes = [class("a"), class("b")];
        for kind in ["scfq", "wfq", "wf2q_plus", "sfq"] {
            let bad: SchedulerConfig =
                serde_json::from_value(serde_json::json!({"kind": kind, "weights": [0.0, 2e9]}))
                    .unwrap();
            let mut p = Problems::default();
            bad.validate(&classes, "model.scheduler", &mut p);
            let paths: Vec<&str> = p.0.iter().map(|e| e.path.as_str()).collect();
            assert_eq!(
                paths,
                ["model.scheduler.weights[0]", "model.scheduler.weights[1]"],
                "{kind}"
            );
            let short: SchedulerConfig =
                serde_json::from_value(serde_json::json!({"kind": kind, "weights": [1.0]}))
                    .unwrap();
            let mut p = Problems::default();
            short.validate(&classes, "model.scheduler", &mut p);
            assert_eq!(p.0.len(), 1, "{kind}");
            assert_eq!(p.0[0].path, "model.scheduler.weights");
            let good: SchedulerConfig =
                serde_json::from_value(serde_json::json!({"kind": kind, "weights": [1.0, 3.0]}))
                    .unwrap();
            let mut p = Problems::default();
            good.validate(&classes, "model.scheduler", &mut p);
            assert!(p.0.is_empty(), "{kind}");
        }
    }
}
