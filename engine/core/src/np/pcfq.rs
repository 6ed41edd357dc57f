//! PCFQ, prediction-based composite fair queueing (`shared/spec/40-network-processors.md`,
//! "PCFQ exact form"): the CPU and the link scheduled in one virtual time. At arrival,
//! S = max(F_prev, V), EP = SF x PP and F = S + EP / phi_cpu + 8 L lambda / (BW phi_bw);
//! V advances by the real time over the backlogged flows' summed phi_cpu + phi_bw; the head
//! packet with the smallest F goes to a free engine (only when one is free); the engines
//! feed the node's FIFO transmit queue; after each processed packet PP <- alpha P +
//! (1 - alpha) PP. See [`super::fair_dispatch`] for the shared machinery.

use super::contract::NpScheduler;
use super::fair_dispatch::{FairDispatch, FairDispatched, FairFlow};
use super::predict::PcfqConfig;
use super::spec::{NodeFacts, NpSchedulerSpec, NpSetup};
use crate::problems::Problems;

/// The PCFQ scheduler.
#[derive(Clone, Debug)]
pub struct Pcfq {
    /// The dispatch state (tags, virtual clock, predictions).
    pub dispatch: FairDispatch,
}

impl Pcfq {
    /// PCFQ over `flows`, engines worth `pool_hz` cycles per second in all, a link of
    /// `link_bps`.
    pub fn new(cfg: PcfqConfig, flows: &[FairFlow], pool_hz: f64, link_bps: f64) -> Pcfq {
        Pcfq {
            dispatch: FairDispatch::new(cfg, true, flows, pool_hz, link_bps),
        }
    }
}

/// Every `NpScheduler` method is the dispatch's; the engines feed a FIFO transmit queue.
impl FairDispatched for Pcfq {
    const KIND: &'static str = "pcfq";
    const NAME: &'static str = "PCFQ";

    fn fair(&self) -> &FairDispatch {
        &self.dispatch
    }

    fn fair_mut(&mut self) -> &mut FairDispatch {
        &mut self.dispatch
    }
}

impl NpSchedulerSpec for Pcfq {
    type Config = PcfqConfig;

    fn validate(config: &PcfqConfig, node: &NodeFacts, p: &mut Problems) {
        config.validate(node, p);
    }

    fn build(config: &PcfqConfig, setup: &NpSetup) -> Box<dyn NpScheduler> {
        Box::new(Pcfq::new(
            *config,
            &FairFlow::of(setup),
            setup.pool_hz,
            setup.link_bps,
        ))
    }
}
