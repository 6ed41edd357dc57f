//! The model contract: what every simulated system (the link lab, a network, and models
//! to come) offers the runner ([`crate::Run`]), and the pieces of [`RunResults`] all
//! models assemble the same way.
//!
//! Adding a model: a module implementing [`Model`], a variant in
//! [`crate::scenario::Model`], and one line in [`crate::run`]'s `build_model`.

use std::any::Any;

use crate::kernel::EventQueue;
use crate::results::{ClassResults, RunResults, SchedulerSummary};
use crate::scenario::Scenario;
use crate::schedulers::SchedulerCost;
use crate::stats::{ClassCounters, Window};
use crate::time::{BitRate, PS_PER_NS, SimTime};

/// A simulated system that runs in chunks of events.
pub trait Model: Any {
    /// Processes up to `max_events` events; true when the run is complete.
    fn advance(&mut self, max_events: u64) -> bool;
    /// Whether every event up to the end of the run has been processed.
    fn is_done(&self) -> bool;
    /// Simulated time reached.
    fn now(&self) -> SimTime;
    /// End of the run.
    fn end(&self) -> SimTime;
    /// Events processed so far.
    fn events_processed(&self) -> u64;
    /// Packets generated and not yet delivered (queued anywhere or on a link): what the
    /// run-time budget ([`crate::budget`]) bounds.
    fn packets_held(&self) -> u64;
    /// The results so far (final once done) of `scenario`, the one this model was built
    /// from.
    fn results(&self, scenario: &Scenario) -> RunResults;
    /// The model as [`Any`], for callers that inspect one kind of model.
    fn as_any(&self) -> &dyn Any;
    /// The breaches of its invariants found so far, one line each naming the invariant
    /// and how often it broke (empty when all held); None when this run does not audit
    /// ([`crate::RunOptions::audit`]).
    fn audit_findings(&self) -> Option<Vec<String>>;
}

/// The findings of an audit given as (invariant, breaches) pairs: a line for each
/// invariant that broke.
pub fn findings(counts: &[(&str, u64)]) -> Vec<String> {
    counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(what, n)| format!("{what}: {n}"))
        .collect()
}

/// What every model reports besides its classes.
pub struct Measured {
    /// The measurement window.
    pub window: Window,
    /// The link rate results are normalised to.
    pub link_rate: BitRate,
    /// Events processed.
    pub events: u64,
    /// Packets sent on a link (networks).
    pub packet_hops: Option<u64>,
    /// The scheduler kind reported and its work.
    pub scheduler: (&'static str, SchedulerCost),
}

/// One class's results from its counters; `capacity` is the bytes the window could carry.
pub fn class_results(name: &str, c: &ClassCounters, capacity: f64, in_flight: u64) -> ClassResults {
    ClassResults {
        name: name.to_string(),
        offered: c.window_generated_bytes as f64 / capacity,
        throughput: c.window_delivered_bytes as f64 / capacity,
        packets: c.window_delivered_packets,
        generated: c.generated,
        delivered: c.delivered,
        in_flight,
        latency_ns: c.latency.summary(),
        latency_std_ns: c.spread.as_ref().and_then(|s| s.std_ns()),
        delay_series: c.spread.as_ref().map(|s| s.series()),
        jitter_ns: None,
        connections: None,
        messages: None,
        flits: None,
    }
}

/// A run's results from what it measured and its classes' results.
pub fn run_results(s: &Scenario, m: Measured, classes: Vec<ClassResults>) -> RunResults {
    let (kind, cost) = m.scheduler;
    RunResults {
        engine: crate::results::ENGINE.to_string(),
        scenario: s.name.clone(),
        seed: s.seed,
        duration_ns: m.window.end.as_ps() / PS_PER_NS,
        warmup_ns: m.window.start.as_ps() / PS_PER_NS,
        link_rate_gbps: m.link_rate.bits_per_s() as f64 / 1.0e9,
        events: m.events,
        packet_hops: m.packet_hops,
        generated: classes.iter().map(|c| c.generated).sum(),
        delivered: classes.iter().map(|c| c.delivered).sum(),
        in_flight: classes.iter().map(|c| c.in_flight).sum(),
        scheduler: SchedulerSummary {
            kind: kind.to_string(),
            cost,
        },
        classes,
        hardware: None,
        network_processor: None,
    }
}

/// The results of a model measuring one link (the link lab, a network processor): class
/// `i` is `names[i]` with `counters[i]` and `in_flight[i]` packets still held, its bytes
/// normalised to what `m.link_rate` carries over `m.window`.
pub fn one_link_results(
    s: &Scenario,
    m: Measured,
    names: &[String],
    counters: &[ClassCounters],
    in_flight: &[u64],
) -> RunResults {
    let capacity = m.link_rate.bytes_in(m.window.span());
    let classes = names
        .iter()
        .zip(counters)
        .zip(in_flight)
        .map(|((name, c), &held)| class_results(name, c, capacity, held))
        .collect();
    run_results(s, m, classes)
}

/// Whether a model running on the one queue `events` has processed every event up to
/// its end `end`.
pub fn queue_done<E>(events: &EventQueue<E>, end: SimTime) -> bool {
    events.peek_time().is_none_or(|t| t > end)
}

#[cfg(test)]
mod tests {
    use super::findings;

    #[test]
    fn findings_name_each_broken_invariant_and_only_those() {
        assert!(findings(&[("a", 0), ("b", 0)]).is_empty());
        assert_eq!(
            findings(&[("a", 0), ("b", 2), ("c", 1)]),
            vec!["b: 2".to_string(), "c: 1".to_string()]
        );
    }
}
