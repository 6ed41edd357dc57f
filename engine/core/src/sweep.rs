//! Offered-load sweeps: the same scenario at several total loads.
//!
//! All classes ramp together: a point at total load `x` scales every class's load by the
//! same factor so that the loads keep their proportions and add up to `x` (a fraction of
//! the link rate). Silent classes stay silent.

use crate::error::EngineError;
use crate::scenario::{self, Model, Scenario};

/// Highest total offered load of a sweep point (fraction of the link).
pub const MAX_TOTAL_LOAD: f64 = 4.0;

/// Sum of the classes' offered loads.
pub fn total_load(scenario: &Scenario) -> f64 {
    let Model::LinkLab(lab) = &scenario.model;
    lab.classes.iter().map(|c| c.traffic.load).sum()
}

/// The scenario with its class loads scaled to add up to `total` (validated).
pub fn at_load(scenario: &Scenario, total: f64) -> Result<Scenario, EngineError> {
    if !(total.is_finite() && total > 0.0 && total <= MAX_TOTAL_LOAD) {
        return Err(EngineError::invalid(
            "load",
            format!(
                "must be a total offered load above 0 and at most {MAX_TOTAL_LOAD} (got {total})"
            ),
        ));
    }
    let now = total_load(scenario);
    if !(now.is_finite() && now > 0.0) {
        return Err(EngineError::invalid(
            "model.classes",
            "every class is silent (load 0), so there is nothing to scale along the load axis",
        ));
    }
    let mut out = scenario.clone();
    let Model::LinkLab(lab) = &mut out.model;
    let factor = total / now;
    for class in &mut lab.classes {
        class.traffic.load *= factor;
    }
    scenario::validate(&out)?;
    Ok(out)
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
        let Model::LinkLab(lab) = &s.model;
        let loads: Vec<f64> = lab.classes.iter().map(|c| c.traffic.load).collect();
        assert!((loads[0] - 0.2).abs() < 1e-12 && (loads[1] - 0.6).abs() < 1e-12);
        assert_eq!(loads[2], 0.0);
        assert!((total_load(&s) - 0.8).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_loads() {
        for bad in [0.0, -1.0, f64::NAN, 5.0] {
            assert!(at_load(&base(), bad).is_err(), "{bad}");
        }
    }
}
