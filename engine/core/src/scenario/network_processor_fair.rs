//! Rules of the network processor's processing stage and of its fair schedulers (PCFQ and
//! the separate-WFQ baseline): cycle ranges, output lengths, weights, the predictor.

use super::super::rules::Problems;
use super::{NetworkProcessorConfig, NpSchedulerConfig, NpServerConfig, StreamGroupConfig};

/// Largest processing cycles of a packet.
pub const MAX_CYCLES: u32 = 100_000_000;
/// Largest output/input length ratio.
pub const MAX_OUTPUT_RATIO: f64 = 16.0;
/// Largest weight.
pub const MAX_WEIGHT: f64 = 1.0e6;

/// The scheduler's options and its need of engines.
pub(super) fn validate_fair(np: &NetworkProcessorConfig, p: &mut Problems) {
    let (NpSchedulerConfig::Pcfq(c) | NpSchedulerConfig::SeparateWfq(c)) = &np.scheduler else {
        return;
    };
    if !matches!(np.server, NpServerConfig::Engines(_)) {
        p.add(
            "model.server",
            format!(
                "must be processing engines with the {} scheduler (it schedules the CPU and the link; got the link as the server)",
                np.scheduler.kind()
            ),
        );
    }
    if !(c.alpha.is_finite() && c.alpha > 0.0 && c.alpha <= 1.0) {
        p.add(
            "model.scheduler.alpha",
            format!(
                "must be a smoothing factor in (0, 1] (0.4 in simulation, 0.5 on hardware; got {})",
                c.alpha
            ),
        );
    }
    let init = c.initial_prediction_cycles;
    if !(init.is_finite() && (0.0..=f64::from(MAX_CYCLES)).contains(&init)) {
        p.add(
            "model.scheduler.initial_prediction_cycles",
            format!("must be between 0 and {MAX_CYCLES} cycles (got {init})"),
        );
    }
}

/// A group's processing-stage and weight fields.
pub(super) fn validate_group(at: &str, g: &StreamGroupConfig, p: &mut Problems) {
    if let Some(max) = g.processing_cycles_max {
        if max < g.processing_cycles || max > MAX_CYCLES {
            p.add(
                format!("{at}.processing_cycles_max"),
                format!(
                    "must be between processing_cycles ({}) and {MAX_CYCLES} cycles (got {max})",
                    g.processing_cycles
                ),
            );
        }
    }
    if let Some(r) = g.output_ratio {
        if !(r.is_finite() && r > 0.0 && r <= MAX_OUTPUT_RATIO) {
            p.add(
                format!("{at}.output_ratio"),
                format!(
                    "must be an output/input length ratio above 0 and at most {MAX_OUTPUT_RATIO} (got {r})"
                ),
            );
        }
    }
    for (field, w) in [("weight_cpu", g.weight_cpu), ("weight_bw", g.weight_bw)] {
        if let Some(w) = w {
            if !(w.is_finite() && w > 0.0 && w <= MAX_WEIGHT) {
                p.add(
                    format!("{at}.{field}"),
                    format!("must be a weight above 0 and at most {MAX_WEIGHT} (got {w})"),
                );
            }
        }
    }
}
