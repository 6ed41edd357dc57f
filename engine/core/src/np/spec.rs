//! What every network-processor scheduler declares about itself: its configuration, the
//! rules that configuration and the node must keep (the request periods it can index
//! among them), and how to build it.
//!
//! A scheduler implements [`NpSchedulerSpec`] in its own file and is registered with one
//! line in `np/mod.rs` (the macro is `registry.rs`), which generates the scenario's
//! `NpSchedulerConfig` (its `kind` tag, JSON Schema and TypeScript type) and every
//! dispatch over the kinds.

use super::contract::NpScheduler;
use super::stream_state::StreamSpec;
use crate::problems::Problems;

/// Shortest request period, in microseconds.
pub const MIN_PERIOD_US: f64 = 0.01;
/// Longest request period, in microseconds (10 s), unless the scheduler sets a lower one.
pub const MAX_PERIOD_US: f64 = 1.0e7;

/// What a scheduler's rules need to know of the node.
pub struct NodeFacts {
    /// The scheduler's `kind`.
    pub kind: &'static str,
    /// Whether processing engines serve the packets (else the link itself).
    pub engines: bool,
}

/// What a scheduler is built from: the streams' windows and weights, the engines' summed
/// clock (cycles per second) and the link rate (bits per second).
pub struct NpSetup<'a> {
    /// Per stream: window (x, y) and whether late packets are dropped.
    pub specs: &'a [StreamSpec],
    /// Per stream: CPU and bandwidth weights.
    pub weights: &'a [(f64, f64)],
    /// The engines' summed clock, cycles per second (the processor's clock for the link).
    pub pool_hz: f64,
    /// The link rate, bits per second.
    pub link_bps: f64,
}

/// The specification of one network-processor scheduler kind.
pub(crate) trait NpSchedulerSpec {
    /// The scenario's parameters of this scheduler (the fields next to `kind`; `()` for
    /// none).
    type Config;

    /// Checks `config` and what it needs of the node, adding a problem per broken rule
    /// with its path (`model.scheduler...`, `model.server`).
    fn validate(_config: &Self::Config, _node: &NodeFacts, _p: &mut Problems) {}

    /// Checks a stream group's request period `t` in microseconds: the message when the
    /// scheduler cannot take it. By default a period in [`MIN_PERIOD_US`, `MAX_PERIOD_US`].
    fn check_period(_config: &Self::Config, t: f64) -> Result<(), String> {
        period_within(t, MAX_PERIOD_US, true)
    }

    /// Builds the scheduler of a node. `config` has been validated.
    fn build(config: &Self::Config, setup: &NpSetup) -> Box<dyn NpScheduler>;
}

/// A period in [`MIN_PERIOD_US`, `most`] (`most` itself excluded unless `inclusive`).
pub fn period_within(t: f64, most: f64, inclusive: bool) -> Result<(), String> {
    if t.is_finite() && t >= MIN_PERIOD_US && (t < most || (inclusive && t == most)) {
        Ok(())
    } else {
        Err(format!(
            "must be a period between {MIN_PERIOD_US} and {most} us (got {t})"
        ))
    }
}
