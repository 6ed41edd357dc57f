//! PCFQ, prediction-based composite fair queueing (`shared/spec/40-network-processors.md`,
//! "PCFQ exact form"): the CPU and the link scheduled in one virtual time. At arrival,
//! S = max(F_prev, V), EP = SF x PP and F = S + EP / phi_cpu + 8 L lambda / (BW phi_bw);
//! V advances by the real time over the backlogged flows' summed phi_cpu + phi_bw; the head
//! packet with the smallest F goes to a free engine (only when one is free); the engines
//! feed the node's FIFO transmit queue; after each processed packet PP <- alpha P +
//! (1 - alpha) PP. See [`super::fair_dispatch`] for the shared machinery.

use super::contract::{Decision, MemoryAccesses, NpScheduler, Processed, StreamView};
use super::dwcs::Window;
use super::fair_dispatch::{FairDispatch, FairFlow};
use super::predict::PcfqConfig;
use crate::time::SimTime;

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

impl NpScheduler for Pcfq {
    fn kind(&self) -> &'static str {
        "pcfq"
    }

    fn on_arrival(&mut self, now: SimTime, stream: u32, q: &dyn StreamView) {
        let len = q.tail(stream).map_or(0, |p| p.bytes);
        self.dispatch.arrive(now, stream, len);
    }

    fn decide(&mut self, _now: SimTime, may_send: bool, _q: &dyn StreamView) -> Decision {
        if !may_send {
            return Decision::Idle;
        }
        self.dispatch.pick().map_or(Decision::Idle, Decision::Send)
    }

    fn applied(&mut self, now: SimTime, decision: Decision, _q: &dyn StreamView) {
        if let Decision::Send(s) = decision {
            self.dispatch.dispatched(now, s);
        }
    }

    fn served(&mut self, _now: SimTime, p: Processed) {
        self.dispatch.observe(p);
    }

    fn explain(
        &self,
        now: SimTime,
        decision: Decision,
        q: &dyn StreamView,
    ) -> Option<crate::np::explain::Explanation> {
        let Decision::Send(s) = decision else {
            return None;
        };
        self.dispatch.explain(now, s, q, "PCFQ")
    }

    fn predicted_cycles(&self, stream: u32) -> Option<f64> {
        self.dispatch.flows.get(stream as usize).map(|f| f.pp)
    }

    fn memory(&self) -> MemoryAccesses {
        self.dispatch.memory()
    }

    fn window(&self, stream: u32) -> Window {
        self.dispatch.window(stream)
    }

    fn violations(&self, _stream: u32) -> u64 {
        0
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn fault(&self) -> Option<String> {
        self.dispatch.fault()
    }
}
