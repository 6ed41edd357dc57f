//! The baseline of PCFQ: two separate WFQ schedulers, the CPU then the link. The CPU-side
//! WFQ tags each arriving packet with F = max(F_prev, V_cpu) + EP / phi_cpu (EP: the same
//! predicted cost as PCFQ's, in seconds of the engine pool), V_cpu running over the
//! backlogged flows' phi_cpu, and sends the smallest F to a free engine. The link-side WFQ
//! orders the transmit queue instead of first come, first served: a processed packet of
//! L' bytes gets F = max(F_prev, V_bw) + 8 L' / (BW phi_bw), V_bw running over the flows
//! with packets in the transmit queue (phi_bw); a flow leaves that set when its last
//! packet there starts on the link.

use super::contract::{Decision, MemoryAccesses, NpScheduler, Processed, StreamView};
use super::dwcs::Window;
use super::fair_dispatch::{FairDispatch, FairFlow};
use super::predict::{PcfqConfig, VirtualClock};
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

impl NpScheduler for SeparateWfq {
    fn kind(&self) -> &'static str {
        "separate_wfq"
    }

    fn on_arrival(&mut self, now: SimTime, stream: u32, q: &dyn StreamView) {
        let len = q.tail(stream).map_or(0, |p| p.bytes);
        self.cpu.arrive(now, stream, len);
    }

    fn decide(&mut self, _now: SimTime, may_send: bool, _q: &dyn StreamView) -> Decision {
        if !may_send {
            return Decision::Idle;
        }
        self.cpu.pick().map_or(Decision::Idle, Decision::Send)
    }

    fn applied(&mut self, now: SimTime, decision: Decision, _q: &dyn StreamView) {
        if let Decision::Send(s) = decision {
            self.cpu.dispatched(now, s);
        }
    }

    fn served(&mut self, _now: SimTime, p: Processed) {
        self.cpu.observe(p);
    }

    fn transmit_key(&mut self, now: SimTime, stream: u32, bytes: u32) -> Option<f64> {
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

    fn transmitting(&mut self, now: SimTime, stream: u32) {
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

    fn explain(
        &self,
        now: SimTime,
        decision: Decision,
        q: &dyn StreamView,
    ) -> Option<crate::np::explain::Explanation> {
        let Decision::Send(s) = decision else {
            return None;
        };
        self.cpu.explain(now, s, q, "Separate WFQ (CPU side)")
    }

    fn predicted_cycles(&self, stream: u32) -> Option<f64> {
        self.cpu.flows.get(stream as usize).map(|f| f.pp)
    }

    fn memory(&self) -> MemoryAccesses {
        self.cpu.memory()
    }

    fn window(&self, stream: u32) -> Window {
        self.cpu.window(stream)
    }

    fn violations(&self, _stream: u32) -> u64 {
        0
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn fault(&self) -> Option<String> {
        self.cpu.fault()
    }
}
