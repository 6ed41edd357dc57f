//! The network-processor node: thousands of streams, each with its own queue, a
//! scheduler (DWCS, PCFQ, separate WFQ) asked whenever a server is free (or when it asked
//! to be woken), a server (the link itself, or k processing engines at the processor's
//! clock, each packet taking its actual cycles and possibly leaving with a changed
//! length, followed by a transmit queue onto the link: first come, first served unless
//! the scheduler orders it), drops counted, and generated = sent + dropped + queued
//! (sent packets are in processing, in the transmit queue, on the link or delivered).
//!
//! ```text
//!  stream 0 ─► queue 0 ─┐                   ┌ link ────────────────────────► out
//!  stream 1 ─► queue 1 ─┼─► scheduler ──────┤  or
//!  ...                  ┘  (send / drop)    └ k engines ─► transmit queue ─► link ─► out
//! ```
//! A packet's deadline is set when it arrives: `max(previous deadline + T, arrival + T)`,
//! so successive deadlines of a stream are T apart while it is backlogged; its service is
//! on time when it starts at or before the deadline. Delay runs from arrival to the end
//! of the packet's transmission on the link.

use std::collections::VecDeque;

use super::contract::{Decision, MemoryAccesses, NpScheduler, Processed, QueuedPacket, StreamView};
use super::cost::SramLatency;
use super::node_streams::{BuiltStreams, Pkt, Stream, build_streams, purpose};
use super::spec::NpSetup;
use super::stage::TxQueue;
use crate::error::EngineError;
use crate::kernel::EventQueue;
use crate::rng::{RngStreams, StreamId};
use crate::scenario::{NetworkProcessorConfig, NpServerConfig, Scenario};
use crate::stats::{ClassCounters, Window};
use crate::time::{BitRate, PS_PER_S, SimTime};

/// The stream queues (what a scheduler may read).
pub(super) struct Queues {
    pub q: Vec<VecDeque<Pkt>>,
    /// Streams with a packet queued.
    pub active: usize,
}

impl StreamView for Queues {
    fn streams(&self) -> usize {
        self.q.len()
    }
    fn head(&self, stream: u32) -> Option<QueuedPacket> {
        self.q[stream as usize].front().map(view)
    }
    fn tail(&self, stream: u32) -> Option<QueuedPacket> {
        self.q[stream as usize].back().map(view)
    }
    fn len(&self, stream: u32) -> usize {
        self.q[stream as usize].len()
    }
}

fn view(p: &Pkt) -> QueuedPacket {
    QueuedPacket {
        deadline: p.deadline,
        arrival: p.arrival,
        bytes: p.bytes,
    }
}

/// Events of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// A stream's next packet arrives.
    Arrive(u32),
    /// An engine finished processing its packet.
    EngineDone(u16),
    /// The packet on the link is fully transmitted.
    TxDone,
    /// The scheduler asked to be woken.
    Wake,
}

/// Per-group counters besides the class counters.
#[derive(Clone, Debug, Default)]
pub(super) struct GroupExtra {
    pub delay_sq_sum: f64,
    pub delay_count: u64,
    pub delay_sum: f64,
}

/// The network-processor node.
pub struct NpNode {
    events: EventQueue<Event>,
    pub(super) window: Window,
    pub(super) link: BitRate,
    pub(super) queues: Queues,
    pub(super) streams: Vec<Stream>,
    pub(super) names: Vec<String>,
    pub(super) counters: Vec<ClassCounters>,
    pub(super) extra: Vec<GroupExtra>,
    pub(super) scheduler: Box<dyn NpScheduler>,
    /// Engines (None: the link is the server).
    pub(super) engines: Option<Vec<Option<Pkt>>>,
    engine_ps_per_cycle: f64,
    pub(super) tx_fifo: TxQueue<Pkt>,
    tx_limit: usize,
    pub(super) on_link: Option<Pkt>,
    wake: Option<SimTime>,
    // Cost accounting.
    sram: SramLatency,
    pub(super) scratchpad_cycles: u64,
    last_mem: MemoryAccesses,
    pub(super) window_mem: MemoryAccesses,
    pub(super) window_scheduled: u64,
    pub(super) window_cycles: u64,
    pub(super) max_cycles: u64,
    pub(super) active_sum: u128,
    pub(super) active_samples: u64,
    pub(super) clock_mhz: f64,
    pub(super) config: NetworkProcessorConfig,
    /// The decision trace being recorded (the animation), if any.
    pub(super) tracer: Option<super::explain::NpTracer>,
}

impl NpNode {
    /// Builds the node of a validated scenario.
    pub fn new(s: &Scenario, np: &NetworkProcessorConfig) -> Result<NpNode, EngineError> {
        let link = BitRate::from_gbps(np.link.rate_gbps)
            .ok_or_else(|| EngineError::invalid("model.link.rate_gbps", "invalid rate"))?;
        let rng = RngStreams::new(s.seed);
        let mut events = EventQueue::new();
        let BuiltStreams {
            streams,
            specs,
            first_arrivals,
        } = build_streams(np, &rng);
        for (id, first) in first_arrivals.into_iter().enumerate() {
            events.schedule(first, Event::Arrive(id as u32));
        }
        let (engines, tx_limit) = match &np.server {
            NpServerConfig::Link => (None, usize::MAX),
            NpServerConfig::Engines(e) => (
                Some(vec![None; e.count as usize]),
                e.transmit_fifo_packets as usize,
            ),
        };
        let weights: Vec<(f64, f64)> = streams
            .iter()
            .map(|st| {
                let g = &np.streams[usize::from(st.group)];
                (g.weight_cpu.unwrap_or(1.0), g.weight_bw.unwrap_or(1.0))
            })
            .collect();
        let pool_hz = np.processor.clock_mhz * 1.0e6 * engines.as_ref().map_or(1, Vec::len) as f64;
        let scheduler = np.scheduler.build(&NpSetup {
            specs: &specs,
            weights: &weights,
            pool_hz,
            link_bps: link.bits_per_s() as f64,
        });
        let groups = np.streams.len();
        Ok(NpNode {
            events,
            window: Window {
                start: SimTime::from_us(s.warmup_us),
                end: SimTime::from_us(s.duration_us),
            },
            link,
            queues: Queues {
                q: (0..streams.len()).map(|_| VecDeque::new()).collect(),
                active: 0,
            },
            streams,
            names: np.streams.iter().map(|g| g.name.clone()).collect(),
            counters: vec![ClassCounters::with_spread(); groups],
            extra: vec![GroupExtra::default(); groups],
            scheduler,
            engines,
            engine_ps_per_cycle: PS_PER_S as f64 / (np.processor.clock_mhz * 1.0e6),
            tx_fifo: TxQueue::default(),
            tx_limit,
            on_link: None,
            wake: None,
            sram: SramLatency::new(rng.stream(StreamId::NetworkProcessor {
                stream: u32::MAX,
                purpose: purpose::SRAM,
            })),
            scratchpad_cycles: u64::from(np.processor.scratchpad_cycles),
            last_mem: MemoryAccesses::default(),
            window_mem: MemoryAccesses::default(),
            window_scheduled: 0,
            window_cycles: 0,
            max_cycles: 0,
            active_sum: 0,
            active_samples: 0,
            clock_mhz: np.processor.clock_mhz,
            config: np.clone(),
            tracer: None,
        })
    }

    /// Processes up to `max_events` events; true when the run is complete.
    pub fn advance(&mut self, max_events: u64) -> bool {
        for _ in 0..max_events {
            let Some((now, event)) = self.events.pop_until(self.window.end) else {
                return true;
            };
            match event {
                Event::Arrive(s) => self.arrive(now, s),
                Event::EngineDone(e) => self.engine_done(now, e),
                Event::TxDone => self.tx_done(now),
                Event::Wake => {
                    if self.wake == Some(now) {
                        self.wake = None;
                    }
                }
            }
            self.serve(now);
        }
        self.is_done()
    }

    /// Whether the run is complete.
    pub fn is_done(&self) -> bool {
        crate::model::queue_done(&self.events, self.window.end)
    }

    /// Simulated time reached.
    pub fn now(&self) -> SimTime {
        self.events.now()
    }

    /// Events processed.
    pub fn events_processed(&self) -> u64 {
        self.events.events_processed()
    }

    /// The scheduler (tests and tools).
    pub fn scheduler(&self) -> &dyn NpScheduler {
        &*self.scheduler
    }

    /// Packets in service, in the transmit FIFO or on the link.
    pub fn in_service(&self) -> u64 {
        let engines = self
            .engines
            .as_ref()
            .map_or(0, |e| e.iter().filter(|p| p.is_some()).count());
        (engines + self.tx_fifo.len() + usize::from(self.on_link.is_some())) as u64
    }

    /// Packets queued in the stream queues.
    pub fn queued(&self) -> u64 {
        self.queues.q.iter().map(|q| q.len() as u64).sum()
    }

    fn arrive(&mut self, now: SimTime, s: u32) {
        let st = &mut self.streams[s as usize];
        self.events
            .schedule(now.plus_ps(st.next_gap()), Event::Arrive(s));
        let group = usize::from(st.group);
        let mut pkt = st.draw_packet(s, now, &self.config.streams[group]);
        self.counters[group].on_generated(now, pkt.bytes, &self.window);
        if self.queues.q[s as usize].len() >= st.limit {
            st.lost_full += 1;
            st.record_outcome(true);
            return;
        }
        pkt.deadline = st.next_deadline(now);
        let q = &mut self.queues.q[s as usize];
        if q.is_empty() {
            self.queues.active += 1;
        }
        q.push_back(pkt);
        self.scheduler.on_arrival(now, s, &self.queues);
    }

    fn may_send(&self) -> bool {
        match &self.engines {
            None => self.on_link.is_none(),
            Some(engines) => {
                let busy = engines.iter().filter(|e| e.is_some()).count();
                busy < engines.len() && self.tx_fifo.len() + busy < self.tx_limit
            }
        }
    }

    /// Asks the scheduler until it has nothing to do, carrying out its decisions.
    fn serve(&mut self, now: SimTime) {
        loop {
            let may_send = self.may_send();
            let decision = self.scheduler.decide(now, may_send, &self.queues);
            let stream = match decision {
                Decision::Idle => break,
                Decision::Send(s) | Decision::Drop(s) => s,
            };
            let note = self.note_before(now, decision);
            let Some(pkt) = self.pop(stream) else {
                break;
            };
            let send = matches!(decision, Decision::Send(_));
            self.active_sum += self.queues.active as u128;
            self.active_samples += 1;
            let st = &mut self.streams[stream as usize];
            if send {
                let late = pkt.deadline < now;
                st.sent += 1;
                st.late_sent += u64::from(late);
                st.record_outcome(late);
                self.scheduler.applied(now, decision, &self.queues);
                self.start_service(now, pkt);
                self.record_step(now, pkt, note);
            } else {
                st.dropped_late += 1;
                st.record_outcome(true);
                self.scheduler.applied(now, decision, &self.queues);
            }
            self.charge(now);
        }
        if let Some(at) = self.scheduler.wake_at() {
            if at > now && self.wake.is_none_or(|w| w != at) {
                self.wake = Some(at);
                self.events.schedule(at, Event::Wake);
            }
        }
    }

    fn pop(&mut self, stream: u32) -> Option<Pkt> {
        let q = &mut self.queues.q[stream as usize];
        let pkt = q.pop_front()?;
        if q.is_empty() {
            self.queues.active -= 1;
        }
        Some(pkt)
    }

    /// Charges the memory accesses since the last scheduled packet to this one.
    fn charge(&mut self, now: SimTime) {
        let mem = self.scheduler.memory();
        let used = mem.since(&self.last_mem);
        self.last_mem = mem;
        if !self.window.contains(now) {
            return;
        }
        let cycles = used.scratchpad * self.scratchpad_cycles + self.sram.cycles(used.sram);
        self.window_mem.scratchpad += used.scratchpad;
        self.window_mem.sram += used.sram;
        self.window_scheduled += 1;
        self.window_cycles += cycles;
        self.max_cycles = self.max_cycles.max(cycles);
    }

    fn start_service(&mut self, now: SimTime, pkt: Pkt) {
        match &mut self.engines {
            None => self.start_link(now, pkt),
            Some(engines) => {
                let Some(e) = engines.iter().position(|e| e.is_none()) else {
                    return;
                };
                engines[e] = Some(pkt);
                let ps = (f64::from(pkt.cycles) * self.engine_ps_per_cycle).round() as u64;
                self.events
                    .schedule(now.plus_ps(ps), Event::EngineDone(e as u16));
            }
        }
    }

    fn start_link(&mut self, now: SimTime, pkt: Pkt) {
        self.on_link = Some(pkt);
        self.scheduler.transmitting(now, pkt.stream);
        let done: SimTime = now + self.link.transmission_time(u64::from(pkt.out_bytes));
        self.events.schedule(done, Event::TxDone);
    }

    fn engine_done(&mut self, now: SimTime, e: u16) {
        let Some(pkt) = self
            .engines
            .as_mut()
            .and_then(|engines| engines.get_mut(usize::from(e)))
            .and_then(Option::take)
        else {
            return;
        };
        let st = &mut self.streams[pkt.stream as usize];
        let cycles = u64::from(pkt.cycles);
        st.processed += 1;
        st.cycles_sum += cycles;
        st.cycles_min = st.cycles_min.min(cycles);
        st.cycles_max = st.cycles_max.max(cycles);
        self.scheduler.served(
            now,
            Processed {
                stream: pkt.stream,
                cycles,
                bytes_in: pkt.bytes,
                bytes_out: pkt.out_bytes,
            },
        );
        let key = self.scheduler.transmit_key(now, pkt.stream, pkt.out_bytes);
        self.tx_fifo.push(key, pkt);
        if self.on_link.is_none() {
            if let Some(next) = self.tx_fifo.pop() {
                self.start_link(now, next);
            }
        }
    }

    fn tx_done(&mut self, now: SimTime) {
        let Some(pkt) = self.on_link.take() else {
            return;
        };
        let group = usize::from(self.streams[pkt.stream as usize].group);
        self.counters[group].on_delivered(pkt.arrival, now, pkt.out_bytes, &self.window);
        if self.window.contains(pkt.arrival) {
            let d = (now - pkt.arrival).as_ps() as f64 / 1000.0;
            let x = &mut self.extra[group];
            x.delay_count += 1;
            x.delay_sum += d;
            x.delay_sq_sum += d * d;
        }
        if let Some(next) = self.tx_fifo.pop() {
            self.start_link(now, next);
        }
    }
}
