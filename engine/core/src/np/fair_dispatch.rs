//! The dispatch side PCFQ and the separate-WFQ baseline share: per flow, a queue of finish
//! tags parallel to the node's stream queue, a virtual clock over the backlogged flows,
//! and a heap that finds the head packet with the smallest finish tag. A flow joins the
//! backlogged set when a packet arrives to its empty queue and leaves it when its last
//! packet is dispatched to a processing engine.
//!
//! PCFQ is the composite form (weight phi_cpu + phi_bw, tag cost EP / phi_cpu +
//! 8 L lambda / (BW phi_bw)); the baseline's CPU-side WFQ the plain one (weight phi_cpu,
//! cost EP / phi_cpu), with the same predicted costs.

use std::collections::VecDeque;

use super::contract::{Decision, MemoryAccesses, NpScheduler, Processed, StreamView};
use super::explain::{Explanation, MAX_CANDIDATES, NpCandidate, NpValue};
use super::indexed_heap::IndexedHeap;
use super::predict::{FlowCost, PcfqConfig, Tag, VirtualClock};
use crate::time::SimTime;

/// A flow's setting as the node builds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FairFlow {
    /// CPU weight.
    pub phi_cpu: f64,
    /// Bandwidth weight.
    pub phi_bw: f64,
    /// The stream's window constraint (reported only: these schedulers ignore it).
    pub window: super::dwcs::Window,
}

impl FairFlow {
    /// The streams of a node being built, as flows (weights and windows).
    pub fn of(setup: &super::spec::NpSetup) -> Vec<FairFlow> {
        setup
            .specs
            .iter()
            .zip(setup.weights)
            .map(|(&(x, y, _), &(phi_cpu, phi_bw))| FairFlow {
                phi_cpu,
                phi_bw,
                window: super::dwcs::Window::new(x, y),
            })
            .collect()
    }
}

/// The tags of one queued packet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tags {
    /// Start tag S.
    pub start: f64,
    /// Finish tag F.
    pub finish: f64,
    /// Expected cycles EP the tag was computed with.
    pub expected_cycles: f64,
}

/// The shared dispatch state.
#[derive(Clone, Debug)]
pub struct FairDispatch {
    /// Options.
    pub cfg: PcfqConfig,
    composite: bool,
    pool_hz: f64,
    link_bps: f64,
    /// Per flow: weights and prediction.
    pub flows: Vec<FlowCost>,
    f_prev: Vec<f64>,
    tags: Vec<VecDeque<Tags>>,
    in_set: Vec<bool>,
    /// The virtual clock over the backlogged flows.
    pub clock: VirtualClock,
    heap: IndexedHeap<(Tag, u32)>,
    selections: u64,
    windows: Vec<super::dwcs::Window>,
}

impl FairDispatch {
    /// Dispatch for `flows`, engines worth `pool_hz` cycles per second in all, a link of
    /// `link_bps`; `composite`: PCFQ's tags (else the CPU-only WFQ's).
    pub fn new(
        cfg: PcfqConfig,
        composite: bool,
        flows: &[FairFlow],
        pool_hz: f64,
        link_bps: f64,
    ) -> FairDispatch {
        let n = flows.len();
        FairDispatch {
            cfg,
            composite,
            pool_hz,
            link_bps,
            flows: flows
                .iter()
                .map(|f| FlowCost::new(f.phi_cpu, f.phi_bw, cfg.initial_prediction_cycles))
                .collect(),
            f_prev: vec![0.0; n],
            tags: vec![VecDeque::new(); n],
            in_set: vec![false; n],
            clock: VirtualClock::default(),
            heap: IndexedHeap::new(n),
            selections: 0,
            windows: flows.iter().map(|f| f.window).collect(),
        }
    }

    /// The weight a flow counts for in the virtual clock.
    pub fn weight(&self, s: u32) -> f64 {
        let f = &self.flows[s as usize];
        if self.composite {
            f.phi_cpu + f.phi_bw
        } else {
            f.phi_cpu
        }
    }

    /// The tag cost of a packet of `len` bytes of flow `s`, and its expected cycles.
    pub fn cost(&self, s: u32, len: u32) -> (f64, f64) {
        let f = &self.flows[s as usize];
        let ep = f.expected_cycles(self.cfg.scaling, len);
        let mut cost = f.cpu_term(ep, self.pool_hz);
        if self.composite {
            cost += f.link_term(len, self.link_bps);
        }
        (cost, ep)
    }

    /// A packet of `len` bytes joined flow `s`'s queue at `now`.
    pub fn arrive(&mut self, now: SimTime, s: u32, len: u32) {
        let i = s as usize;
        if self.in_set[i] {
            self.clock.advance(now);
        } else {
            self.clock.join(now, self.weight(s));
            self.in_set[i] = true;
        }
        let (cost, ep) = self.cost(s, len);
        let (start, finish) = self.clock.tag(self.f_prev[i], cost);
        self.f_prev[i] = finish;
        self.tags[i].push_back(Tags {
            start,
            finish,
            expected_cycles: ep,
        });
        if self.tags[i].len() == 1 {
            self.heap.set(s, (Tag(finish), s));
        }
    }

    /// The flow whose head packet has the smallest finish tag (ties: lower flow number).
    pub fn pick(&mut self) -> Option<u32> {
        self.selections += 1;
        self.heap.peek().map(|(_, s)| s)
    }

    /// Flow `s`'s head packet was dispatched to an engine at `now`.
    pub fn dispatched(&mut self, now: SimTime, s: u32) {
        let i = s as usize;
        self.tags[i].pop_front();
        match self.tags[i].front() {
            Some(t) => self.heap.set(s, (Tag(t.finish), s)),
            None => {
                self.heap.remove(s);
                if self.in_set[i] {
                    self.in_set[i] = false;
                    self.clock.leave(now, self.weight(s));
                }
            }
        }
    }

    /// An engine processed a packet: the prediction learns its cost.
    pub fn observe(&mut self, p: Processed) {
        let alpha = self.cfg.alpha;
        if let Some(f) = self.flows.get_mut(p.stream as usize) {
            f.observe(alpha, p.cycles, p.bytes_in, p.bytes_out);
        }
    }

    /// Whether flow `s` is in the backlogged set.
    pub fn backlogged(&self, s: u32) -> bool {
        self.in_set[s as usize]
    }

    /// The tags of flow `s`'s head packet.
    pub fn head(&self, s: u32) -> Option<Tags> {
        self.tags[s as usize].front().copied()
    }

    /// Flow `s`'s window constraint, as configured.
    pub fn window(&self, s: u32) -> super::dwcs::Window {
        self.windows[s as usize]
    }

    /// Flow `s`'s last finish tag.
    pub fn last_finish(&self, s: u32) -> f64 {
        self.f_prev[s as usize]
    }

    /// The decision animation's account of dispatching flow `s`'s head now (`who`: the
    /// scheduler's name in the words).
    pub fn explain(
        &self,
        now: SimTime,
        s: u32,
        q: &dyn StreamView,
        who: &str,
    ) -> Option<Explanation> {
        const US: f64 = 1.0e6;
        let head = self.head(s)?;
        let f = &self.flows[s as usize];
        let len = q.head(s).map_or(0, |p| p.bytes);
        let cpu = f.cpu_term(head.expected_cycles, self.pool_hz);
        let v = self.clock.at(now);
        let mut candidates: Vec<NpCandidate> = self
            .tags
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                t.front().map(|h| NpCandidate {
                    stream: i as u32,
                    key: h.finish * US,
                })
            })
            .collect();
        candidates.sort_by(|a, b| a.key.total_cmp(&b.key).then(a.stream.cmp(&b.stream)));
        let backlogged = candidates.len();
        candidates.truncate(MAX_CANDIDATES);
        let mut words = format!(
            "{who}: an engine is free, so the head packet with the smallest finish tag goes: F = {:.3} µs. It was tagged on arrival: S = max(F_prev, V) = {:.3} µs, plus EP/φ_cpu = {:.3} µs (EP = SF·PP = {:.0} predicted cycles on the engine pool, φ_cpu = {})",
            head.finish * US,
            head.start * US,
            cpu * US,
            head.expected_cycles,
            f.phi_cpu
        );
        if self.composite {
            words.push_str(&format!(
                ", plus 8·L·λ/(BW·φ_bw) = {:.3} µs for its {len} B on the link (λ = {:.2}, φ_bw = {})",
                (head.finish - head.start - cpu) * US,
                f.lambda,
                f.phi_bw
            ));
        } else {
            words.push_str(" — the CPU's cost only: the link-side WFQ orders the transmit queue by 8·L′/(BW·φ_bw) after processing");
        }
        words.push_str(&format!(
            ". Virtual time V = {:.3} µs, advancing at 1/Σw with Σw = {} over {backlogged} backlogged flow{}.",
            v * US,
            self.clock.sum_w(),
            if backlogged == 1 { "" } else { "s" }
        ));
        if self.tags[s as usize].len() == 1 {
            words.push_str(&format!(
                " It was the flow's last queued packet: the flow leaves the backlogged set (Σw − {}).",
                self.weight(s)
            ));
        }
        Some(Explanation {
            words,
            key_name: "finish tag F (µs)".to_string(),
            candidates,
            values: vec![
                NpValue {
                    name: "V (µs)".to_string(),
                    value: v * US,
                },
                NpValue {
                    name: "Σw".to_string(),
                    value: self.clock.sum_w(),
                },
                NpValue {
                    name: "PP (cycles)".to_string(),
                    value: f.pp,
                },
            ],
        })
    }

    /// Memory accesses, counted as for the DWCS heap (one tag heap): one SRAM read per
    /// look at the top, six SRAM accesses per level moved.
    pub fn memory(&self) -> MemoryAccesses {
        MemoryAccesses {
            scratchpad: 0,
            sram: self.selections + 6 * self.heap.moves(),
        }
    }

    /// A broken invariant, if any.
    pub fn fault(&self) -> Option<String> {
        if let Err(e) = self.heap.check() {
            return Some(format!("tag heap: {e}"));
        }
        let members = self.in_set.iter().filter(|&&b| b).count();
        if members != self.clock.members() {
            return Some(format!(
                "{members} flows backlogged, the virtual clock counts {}",
                self.clock.members()
            ));
        }
        None
    }
}

/// A scheduler that dispatches to the engines through a [`FairDispatch`] (PCFQ and the
/// separate-WFQ baseline): implementing it implements [`NpScheduler`], every method
/// delegating to the dispatch; only what happens on the link side is the scheduler's own.
pub trait FairDispatched: 'static {
    /// The scenario's `kind`.
    const KIND: &'static str;
    /// The scheduler's name in the decision animation's words.
    const NAME: &'static str;
    /// The dispatch state.
    fn fair(&self) -> &FairDispatch;
    /// The dispatch state, to change.
    fn fair_mut(&mut self) -> &mut FairDispatch;
    /// [`NpScheduler::transmit_key`]: first come, first served unless overridden.
    fn link_key(&mut self, _now: SimTime, _stream: u32, _bytes: u32) -> Option<f64> {
        None
    }
    /// [`NpScheduler::transmitting`].
    fn link_started(&mut self, _now: SimTime, _stream: u32) {}
}

impl<T: FairDispatched> NpScheduler for T {
    fn kind(&self) -> &'static str {
        T::KIND
    }

    fn on_arrival(&mut self, now: SimTime, stream: u32, q: &dyn StreamView) {
        let len = q.tail(stream).map_or(0, |p| p.bytes);
        self.fair_mut().arrive(now, stream, len);
    }

    fn decide(&mut self, _now: SimTime, may_send: bool, _q: &dyn StreamView) -> Decision {
        if !may_send {
            return Decision::Idle;
        }
        self.fair_mut()
            .pick()
            .map_or(Decision::Idle, Decision::Send)
    }

    fn applied(&mut self, now: SimTime, decision: Decision, _q: &dyn StreamView) {
        if let Decision::Send(s) = decision {
            self.fair_mut().dispatched(now, s);
        }
    }

    fn served(&mut self, _now: SimTime, p: Processed) {
        self.fair_mut().observe(p);
    }

    fn transmit_key(&mut self, now: SimTime, stream: u32, bytes: u32) -> Option<f64> {
        self.link_key(now, stream, bytes)
    }

    fn transmitting(&mut self, now: SimTime, stream: u32) {
        self.link_started(now, stream);
    }

    fn explain(&self, now: SimTime, decision: Decision, q: &dyn StreamView) -> Option<Explanation> {
        let Decision::Send(s) = decision else {
            return None;
        };
        self.fair().explain(now, s, q, T::NAME)
    }

    fn predicted_cycles(&self, stream: u32) -> Option<f64> {
        self.fair().flows.get(stream as usize).map(|f| f.pp)
    }

    fn memory(&self) -> MemoryAccesses {
        self.fair().memory()
    }

    fn window(&self, stream: u32) -> super::dwcs::Window {
        self.fair().window(stream)
    }

    fn violations(&self, _stream: u32) -> u64 {
        0
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn fault(&self) -> Option<String> {
        self.fair().fault()
    }
}
