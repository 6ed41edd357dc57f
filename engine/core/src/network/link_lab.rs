//! The link lab: one output port, per-class sources and queues, a scheduler, and one
//! downstream buffer per class behind credit-based flow control.
//!
//! ```text
//!  source 0 ─► queue 0 ─┐                          ┌─► buffer 0 ─► drain 0 ─┐
//!  source 1 ─► queue 1 ─┼─► scheduler ─► link ─────┼─► buffer 1 ─► drain 1 ─┤ credits
//!  ...                  ┘  (credit-aware)          └─► ...                  │ return
//!                          ▲────────────────────────────────────────────────┘
//! ```
//! Source queues are unbounded (latency counts from generation). A packet takes its
//! credits when it starts on the link, is delivered when its tail reaches the downstream
//! buffer, is drained FIFO at the class's drain rate, and its credits come back
//! `credit_delay` after it leaves the buffer. The downstream occupancy is also tracked
//! from what was actually sent and drained, as an independent check of flow control.

use std::collections::VecDeque;

use super::send::{SendAudit, SendPort, send_one};
use super::{CreditCounter, Packet, credits_for};
use crate::error::EngineError;
use crate::kernel::EventQueue;
use crate::model::{self, Measured, Model};
use crate::results::RunResults;
use crate::rng::RngStreams;
use crate::scenario::{LinkLabConfig, Scenario};
use crate::schedulers::{self, AnyScheduler, Head, PortSetup, PortView, Scheduler, SchedulerCost};
use crate::stats::{ClassCounters, Window};
use crate::time::{BitRate, Duration, SimTime};
use crate::trace::{Decision, Tracer};
use crate::traffic::Source;

/// Events of the link lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// A class's source generates its next packet.
    Generate(u16),
    /// The packet on the link has fully arrived downstream.
    TransmitDone,
    /// A packet has left a class's downstream buffer.
    Drained { class: u16, credits: u32 },
    /// Credits of a class come back from downstream.
    CreditReturn { class: u16, credits: u32 },
}

/// The queues and credits of the port: what a scheduler may look at.
#[derive(Clone, Debug)]
struct Port {
    queues: Vec<VecDeque<Packet>>,
    credits: Vec<CreditCounter>,
}

impl PortView for Port {
    fn class_count(&self) -> usize {
        self.queues.len()
    }

    fn head(&self, class: usize) -> Option<Head> {
        self.queues[class].front().map(|p| Head {
            id: p.id,
            bytes: p.bytes,
            credits: p.credits,
            created: p.created,
        })
    }

    fn free_credits(&self, class: usize) -> u32 {
        self.credits[class].free()
    }
}

impl SendPort for Port {
    type Item = Packet;

    fn take_credits(&mut self, class: usize, credits: u32) -> bool {
        self.credits[class].consume(credits)
    }

    fn pop(&mut self, class: usize) -> Option<Packet> {
        self.queues[class].pop_front()
    }
}

/// Breaches of the model's invariants, counted as they happen (all zero in a correct run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// A packet delivered before an earlier packet of its class.
    pub fifo_violations: u64,
    /// The scheduler chose a class whose head did not fit its credits.
    pub credit_violations: u64,
    /// The link stayed idle while a class was active.
    pub idle_with_active_class: u64,
    /// A downstream buffer held more than its size (counted from what was actually sent
    /// and drained, independently of the credit counters).
    pub buffer_overflows: u64,
}

/// A running link-lab simulation.
pub struct LinkLab {
    events: EventQueue<Event>,
    port: Port,
    scheduler: AnyScheduler,
    /// The scenario's `kind` of the scheduler.
    scheduler_kind: &'static str,
    sources: Vec<Option<Source>>,
    link: BitRate,
    drain: Vec<BitRate>,
    drain_free_at: Vec<SimTime>,
    /// Credits actually occupied in each downstream buffer (sent, not yet drained).
    downstream_fill: Vec<u32>,
    /// Most credits ever occupied in each downstream buffer.
    downstream_peak: Vec<u32>,
    credit_delay: Duration,
    on_link: Option<Packet>,
    counters: Vec<ClassCounters>,
    last_delivered: Vec<Option<u64>>,
    window: Window,
    next_id: u64,
    audit: Audit,
    tracer: Option<Tracer>,
    /// Class names, for the results.
    names: Vec<String>,
}

impl LinkLab {
    /// Builds the link lab of a scenario that [`crate::scenario::validate`] accepted
    /// ([`crate::Run::new`] validates before calling this).
    pub(crate) fn new(scenario: &Scenario, lab: &LinkLabConfig) -> Result<LinkLab, EngineError> {
        let rate = |path: &str, gbps: f64| {
            BitRate::from_gbps(gbps)
                .ok_or_else(|| EngineError::invalid(path, "must be a rate in Gb/s above 0"))
        };
        let link = rate("model.link.rate_gbps", lab.link.rate_gbps)?;
        let default_drain = rate(
            "model.downstream.drain_rate_gbps",
            lab.downstream.drain_rate_gbps,
        )?;
        let n = lab.classes.len();
        let streams = RngStreams::new(scenario.seed);
        let buffer_credits = lab.downstream.buffer_bytes / super::CREDIT_BYTES;
        let mut lab_sim = LinkLab {
            events: EventQueue::new(),
            port: Port {
                queues: vec![VecDeque::new(); n],
                credits: vec![CreditCounter::new(buffer_credits); n],
            },
            scheduler: lab.scheduler.build_static(PortSetup { classes: n, link }),
            scheduler_kind: lab.scheduler.kind(),
            sources: Vec::with_capacity(n),
            link,
            drain: lab
                .classes
                .iter()
                .map(|c| {
                    c.drain_rate_gbps
                        .and_then(BitRate::from_gbps)
                        .unwrap_or(default_drain)
                })
                .collect(),
            drain_free_at: vec![SimTime::ZERO; n],
            downstream_fill: vec![0; n],
            downstream_peak: vec![0; n],
            credit_delay: Duration(u64::from(lab.downstream.credit_delay_ns) * 1000),
            on_link: None,
            counters: vec![ClassCounters::default(); n],
            last_delivered: vec![None; n],
            window: Window {
                start: SimTime::from_us(scenario.warmup_us),
                end: SimTime::from_us(scenario.duration_us),
            },
            next_id: 0,
            audit: Audit::default(),
            tracer: None,
            names: lab.classes.iter().map(|c| c.name.clone()).collect(),
        };
        for (i, class) in lab.classes.iter().enumerate() {
            let mut source = Source::new(i as u32, &class.traffic, link, &streams);
            if let Some(s) = source.as_mut() {
                let first = SimTime::ZERO + s.first_gap();
                lab_sim.events.schedule(first, Event::Generate(i as u16));
            }
            lab_sim.sources.push(source);
        }
        Ok(lab_sim)
    }

    /// Processes up to `max_events` events. Returns true when the run is complete.
    pub fn advance(&mut self, max_events: u64) -> bool {
        for _ in 0..max_events {
            let Some((now, event)) = self.events.pop_until(self.window.end) else {
                return true;
            };
            match event {
                Event::Generate(class) => self.generate(now, class),
                Event::TransmitDone => self.transmit_done(now),
                Event::Drained { class, credits } => {
                    let c = usize::from(class);
                    self.downstream_fill[c] = self.downstream_fill[c].saturating_sub(credits);
                    if self.credit_delay.as_ps() == 0 {
                        self.port.credits[c].give_back(credits);
                    } else {
                        let at = now + self.credit_delay;
                        self.events
                            .schedule(at, Event::CreditReturn { class, credits });
                    }
                }
                Event::CreditReturn { class, credits } => {
                    self.port.credits[usize::from(class)].give_back(credits);
                }
            }
            self.try_send(now);
        }
        self.is_done()
    }

    /// Whether every event up to the end of the run has been processed.
    pub fn is_done(&self) -> bool {
        model::queue_done(&self.events, self.window.end)
    }

    /// Simulated time reached.
    pub fn now(&self) -> SimTime {
        self.events.now()
    }

    /// End of the run.
    pub fn end(&self) -> SimTime {
        self.window.end
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.events.events_processed()
    }

    /// The measurement window.
    pub fn window(&self) -> Window {
        self.window
    }

    /// Per-class counters.
    pub fn counters(&self) -> &[ClassCounters] {
        &self.counters
    }

    /// Packets of `class` generated but not yet delivered (queued or on the link).
    pub fn in_flight(&self, class: usize) -> u64 {
        let c = &self.counters[class];
        c.generated - c.delivered
    }

    /// Packets waiting in each class queue.
    pub fn queue_lengths(&self) -> Vec<usize> {
        self.port.queues.iter().map(VecDeque::len).collect()
    }

    /// The link rate.
    pub fn link_rate(&self) -> BitRate {
        self.link
    }

    /// The scheduler's kind and work counters.
    pub fn scheduler_cost(&self) -> (&'static str, SchedulerCost) {
        (self.scheduler_kind, self.scheduler.cost())
    }

    /// Invariant breaches so far.
    pub fn audit(&self) -> Audit {
        self.audit
    }

    /// Per class: the most credits ever occupied in the downstream buffer, and its size.
    pub fn downstream_peaks(&self) -> Vec<(u32, u32)> {
        self.downstream_peak
            .iter()
            .zip(&self.port.credits)
            .map(|(&peak, c)| (peak, c.capacity()))
            .collect()
    }

    /// The scheduler's registers now.
    pub fn scheduler_registers(&self) -> schedulers::Registers {
        self.scheduler.registers()
    }

    /// Starts recording the scheduler's decisions (see [`crate::trace`]).
    pub(crate) fn set_tracer(&mut self, tracer: Tracer) {
        self.tracer = Some(tracer);
    }

    /// The recorder of decisions, if tracing.
    pub(crate) fn tracer(&self) -> Option<&Tracer> {
        self.tracer.as_ref()
    }

    /// Takes the recorder of decisions out.
    pub(crate) fn take_tracer(&mut self) -> Option<Tracer> {
        self.tracer.take()
    }

    /// Whether a packet is on the link now.
    pub fn link_busy(&self) -> bool {
        self.on_link.is_some()
    }

    fn generate(&mut self, now: SimTime, class: u16) {
        let c = usize::from(class);
        let Some(source) = self.sources[c].as_mut() else {
            return;
        };
        let bytes = source.next_size();
        let gap = source.gap_after(bytes);
        let packet = Packet {
            id: self.next_id,
            class,
            bytes,
            credits: credits_for(bytes),
            created: now,
        };
        self.next_id += 1;
        self.counters[c].on_generated(now, bytes, &self.window);
        self.port.queues[c].push_back(packet);
        self.scheduler.on_enqueue_in(now, c, bytes, &self.port);
        let next = now + gap;
        if next <= self.window.end {
            self.events.schedule(next, Event::Generate(class));
        }
    }

    fn transmit_done(&mut self, now: SimTime) {
        let Some(packet) = self.on_link.take() else {
            return;
        };
        let c = usize::from(packet.class);
        if self.last_delivered[c].is_some_and(|last| last >= packet.id) {
            self.audit.fifo_violations += 1;
        }
        self.last_delivered[c] = Some(packet.id);
        self.counters[c].on_delivered(packet.created, now, packet.bytes, &self.window);
        // The downstream buffer drains FIFO at the class's drain rate.
        let start = now.max(self.drain_free_at[c]);
        let drained = start + self.drain[c].transmission_time(u64::from(packet.bytes));
        self.drain_free_at[c] = drained;
        self.events.schedule(
            drained,
            Event::Drained {
                class: packet.class,
                credits: packet.credits,
            },
        );
    }

    /// If the link is free, asks the scheduler for the next packet and starts sending it.
    fn try_send(&mut self, now: SimTime) {
        if self.on_link.is_some() {
            return;
        }
        let before = self.tracer.as_mut().and_then(|t| {
            t.wants(now)
                .then(|| t.snapshot_before(&self.port.queues, &self.port.credits, &self.scheduler))
        });
        let mut send = SendAudit::default();
        let sent = send_one(now, &mut self.scheduler, &mut self.port, &mut send);
        self.audit.credit_violations += send.credit_violations;
        self.audit.idle_with_active_class += send.idle_with_active_class;
        let Some((class, packet)) = sent else {
            return;
        };
        // The packet's header reaches the downstream buffer now (virtual cut-through).
        self.downstream_fill[class] += packet.credits;
        self.downstream_peak[class] = self.downstream_peak[class].max(self.downstream_fill[class]);
        if self.downstream_fill[class] > self.port.credits[class].capacity() {
            self.audit.buffer_overflows += 1;
        }
        self.on_link = Some(packet);
        let done = now + self.link.transmission_time(u64::from(packet.bytes));
        if let (Some(tracer), Some(before)) = (self.tracer.as_mut(), before) {
            tracer.record(Decision::new(before, now, done, &packet, &self.scheduler));
        }
        self.events.schedule(done, Event::TransmitDone);
    }
}

impl Model for LinkLab {
    fn advance(&mut self, max_events: u64) -> bool {
        LinkLab::advance(self, max_events)
    }

    fn is_done(&self) -> bool {
        LinkLab::is_done(self)
    }

    fn now(&self) -> SimTime {
        LinkLab::now(self)
    }

    fn end(&self) -> SimTime {
        LinkLab::end(self)
    }

    fn events_processed(&self) -> u64 {
        LinkLab::events_processed(self)
    }

    fn packets_held(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.generated - c.delivered)
            .sum()
    }

    /// Per class, throughput and offered load normalised to the link rate.
    fn results(&self, scenario: &Scenario) -> RunResults {
        let in_flight: Vec<u64> = (0..self.counters.len())
            .map(|i| self.in_flight(i))
            .collect();
        let measured = Measured {
            window: self.window,
            link_rate: self.link,
            events: self.events_processed(),
            packet_hops: None,
            scheduler: self.scheduler_cost(),
        };
        model::one_link_results(scenario, measured, &self.names, &self.counters, &in_flight)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    /// Always audited.
    fn audit_findings(&self) -> Option<Vec<String>> {
        // Destructured, so that a new invariant cannot be left out of the findings.
        let Audit {
            fifo_violations,
            credit_violations,
            idle_with_active_class,
            buffer_overflows,
        } = self.audit;
        Some(model::findings(&[
            ("fifo_violations", fifo_violations),
            ("credit_violations", credit_violations),
            ("idle_with_active_class", idle_with_active_class),
            ("buffer_overflows", buffer_overflows),
        ]))
    }
}
