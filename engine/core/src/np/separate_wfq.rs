//! The baseline of PCFQ: two separate WFQ schedulers, the CPU then the link. The CPU-side
//! WFQ tags each arriving packet with F = max(F_prev, V_cpu) + EP / phi_cpu (EP: the same
//! predicted cost as PCFQ's, in seconds of the engine pool), V_cpu running over the
//! backlogged flows' phi_cpu, and sends the smallest F to a free engine. The link-side WFQ
//! orders the transmit queue instead of first come, first served: a processed packet of
//! L' bytes gets F = max(F_prev, V_bw) + 8 L' / (BW phi_bw), V_bw running over the flows
//! with packets in the transmit queue (phi_bw); a flow leaves that set when its last
//! packet there starts on the link.

use super::contract::NpScheduler;
use super::fair_dispatch::{FairDispatch, FairDispatched, FairFlow};
use super::predict::{PcfqConfig, VirtualClock};
use super::spec::{NodeFacts, NpSchedulerSpec, NpSetup};
use crate::problems::Problems;
use crate::time::SimTime;

/// Two separate WFQ schedulers.
#[derive(Clone, Debug)]
pub struct SeparateWfq {
    /// The CPU-side WFQ.
    pub cpu: FairDispatch,
    link_bps: f64,
    /// The link-side virtual clock.
    pub link_clock: VirtualClock,
    link_prev: Vec<f64>,
    in_transmit: Vec<u32>,
}

impl SeparateWfq {
    /// The pair over `flows`, engines worth `pool_hz` cycles per second in all, a link of
    /// `link_bps`.
    pub fn new(cfg: PcfqConfig, flows: &[FairFlow], pool_hz: f64, link_bps: f64) -> SeparateWfq {
        SeparateWfq {
            cpu: FairDispatch::new(cfg, false, flows, pool_hz, link_bps),
            link_bps,
            link_clock: VirtualClock::default(),
            link_prev: vec![0.0; flows.len()],
            in_transmit: vec![0; flows.len()],
        }
    }
}

/// The CPU side is the dispatch's; the link side orders the transmit queue.
impl FairDispatched for SeparateWfq {
    const KIND: &'static str = "separate_wfq";
    const NAME: &'static str = "Separate WFQ (CPU side)";

    fn fair(&self) -> &FairDispatch {
        &self.cpu
    }

    fn fair_mut(&mut self) -> &mut FairDispatch {
        &mut self.cpu
    }

    fn link_key(&mut self, now: SimTime, stream: u32, bytes: u32) -> Option<f64> {
        let i = stream as usize;
        let phi = self.cpu.flows[i].phi_bw;
        if self.in_transmit[i] == 0 {
            self.link_clock.join(now, phi);
        } else {
            self.link_clock.advance(now);
        }
        self.in_transmit[i] += 1;
        let cost = 8.0 * f64::from(bytes) / (self.link_bps * phi);
        let (_, f) = self.link_clock.tag(self.link_prev[i], cost);
        self.link_prev[i] = f;
        Some(f)
    }

    fn link_started(&mut self, now: SimTime, stream: u32) {
        let i = stream as usize;
        if self.in_transmit[i] == 0 {
            return;
        }
        self.in_transmit[i] -= 1;
        if self.in_transmit[i] == 0 {
            let phi = self.cpu.flows[i].phi_bw;
            self.link_clock.leave(now, phi);
        }
    }
}

impl NpSchedulerSpec for SeparateWfq {
    type Config = PcfqConfig;

    fn validate(config: &PcfqConfig, node: &NodeFacts, p: &mut Problems) {
        config.validate(node, p);
    }

    fn build(config: &PcfqConfig, setup: &NpSetup) -> Box<dyn NpScheduler> {
        Box::new(SeparateWfq::new(
            *config,
            &FairFlow::of(setup),
            setup.pool_hz,
            setup.link_bps,
        ))
    }
}
