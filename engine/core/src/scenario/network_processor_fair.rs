//! Rules of the network processor's processing stage and of the weights its fair
//! schedulers (PCFQ and the separate-WFQ baseline) read: cycle ranges, output lengths,
//! weights. The fair schedulers' own options are checked by their spec
//! (`np::predict::PcfqConfig::validate`).

use super::super::rules::Problems;
use super::StreamGroupConfig;
use crate::np::predict::MAX_CYCLES;

/// Largest output/input length ratio.
pub const MAX_OUTPUT_RATIO: f64 = 16.0;
/// Largest weight.
pub const MAX_WEIGHT: f64 = 1.0e6;

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
