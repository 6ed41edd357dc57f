//! The network processor's schedulers, one registration line each.

use super::contract::NpScheduler;
use super::dwcs::Window;
use super::fair_dispatch::FairFlow;
use super::heap::DwcsHeap;
use super::hilq::sched::DwcsHilq;
use super::pcfq::Pcfq;
use super::separate_wfq::SeparateWfq;
use super::stream_state::StreamSpec;
use crate::scenario::{NetworkProcessorConfig, NpSchedulerConfig};

/// What a scheduler is built from: the streams' windows and weights, the engines' summed
/// clock (cycles per second) and the link rate (bits per second).
pub(super) struct Built<'a> {
    pub specs: &'a [StreamSpec],
    pub weights: &'a [(f64, f64)],
    pub pool_hz: f64,
    pub link_bps: f64,
}

/// The scheduler of a validated node.
pub(super) fn scheduler(np: &NetworkProcessorConfig, b: &Built) -> Box<dyn NpScheduler> {
    let flows = || -> Vec<FairFlow> {
        b.specs
            .iter()
            .zip(b.weights)
            .map(|(&(x, y, _), &(phi_cpu, phi_bw))| FairFlow {
                phi_cpu,
                phi_bw,
                window: Window::new(x, y),
            })
            .collect()
    };
    match &np.scheduler {
        NpSchedulerConfig::DwcsHeap(h) => Box::new(DwcsHeap::new(b.specs, h.zero_tie)),
        NpSchedulerConfig::DwcsHilq => Box::new(DwcsHilq::new(b.specs)),
        NpSchedulerConfig::Pcfq(c) => Box::new(Pcfq::new(*c, &flows(), b.pool_hz, b.link_bps)),
        NpSchedulerConfig::SeparateWfq(c) => {
            Box::new(SeparateWfq::new(*c, &flows(), b.pool_hz, b.link_bps))
        }
    }
}
