//! The fabric: network interfaces ([`super::interface`]) and switches (any
//! [`SwitchModel`]) on a topology ([`super::topology`]) with a routing
//! ([`super::routing`]), credit-based flow control on every link, virtual cut-through.
//! The fabric owns the event loop, link timing, credit return, the output ports and the
//! measurements; a switch architecture only decides what happens inside a switch (see
//! [`super::switch`]).
//!
//! Every output port (an interface's or a switch's) is an [`OutputPort`]: output queues
//! per SL and routing lane, the per-lane credits of the buffer at the other end of its
//! link (a switch input buffer, under the network's credit policy, or an interface's
//! reception buffer), a scheduler over SLs ([`super::lanes`] explains SLs, lanes and
//! queues). When its link is free it sends by the one send protocol ([`super::send`]):
//! - the credits of the packet's lane are taken when the header leaves, and the packet
//!   now occupies that lane downstream;
//! - the link is busy until the tail has left: `max(now + size / rate, tail)`, where
//!   `tail` is when the packet's tail reached this port's buffer (a cut-through packet
//!   can not leave faster than it arrives);
//! - at a switch, the packet is routed (output port and routing lane, hence its output
//!   queue) and handed to the switch `latency + header_delay` after the header left; at
//!   an interface it is delivered
//!   when its tail arrives (`latency` after it left), and consumed at once;
//! - credits go back upstream `credit_delay` after the tail leaves the downstream buffer
//!   (when the switch releases it, or at delivery at an interface).
//!
//! Traffic comes from [`NetworkTraffic`](crate::traffic::NetworkTraffic): one generator
//! per end point and class, built when the network is; connections of connection classes
//! are admitted in its round-robin order, each checked on the links of its route (the
//! global output ports it leaves through, each a directed link of the link rate) against
//! the scenario's `admission`.
//!
//! Per class, counters aggregate all end points: throughput and offered load are
//! normalised to the link rate per end point (bytes / (window x rate x end points)).
//! Latency runs from generation (the application queue counts) to the tail's arrival at
//! the destination, for packets generated in the window and delivered by the end.
//!
//! An [`Audit`] counts breaches of the model's invariants, each checked independently of
//! the mechanism that should prevent it (all zero in a correct run), in an audited run
//! ([`crate::RunOptions::audit`]: tests and `qoslab run --audit`). A run without it
//! keeps no fill or delivery-order tables and gives the same results.

mod audit;
mod buffer_fills;
mod build;
#[cfg(test)]
mod message_tests;
pub mod messages;
mod ports;
mod results;
mod switching;
#[cfg(test)]
mod tests;

pub use audit::Audit;
use audit::Auditor;
use messages::{Flits, MessageCounters, Messages};

use super::interface::Interface;
use super::lanes::Lanes;
use super::port::{OutputPort, PacketPool};
use super::routing::{AnyRouter, Router};
use super::send::SendAudit;
use super::switch::{AnySwitch, SwitchAction, SwitchModel, SwitchTimer};
use super::topology::{NodeKind, Topology};
use crate::kernel::EventQueue;
use crate::rng::RngStream;
use crate::schedulers::{Scheduler, SchedulerCost};
use crate::stats::{ClassCounters, JitterTracker, Window};
use crate::time::{BitRate, Duration, SimTime};
use crate::traffic::network_traffic::ClassAdmission;

/// Events of the network simulation (small and copyable: indices, not references).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// End point `host` generates its next packet of `class`.
    Generate { host: u32, class: u16 },
    /// A packet's header has crossed the input (global port `port`) of a switch. Its
    /// `destination` is there for [`NetworkSim::warm`] (the packet is read only after).
    HeaderCrossed {
        port: u32,
        packet: u32,
        destination: u32,
    },
    /// A switch's own timed event.
    Switch { switch: u32, timer: SwitchTimer },
    /// The output port `port` has finished sending a packet, which frees `credits` of
    /// `slot` in the output-side buffer (an interface's injection buffer of that class,
    /// or a switch output buffer's lane).
    LinkDone { port: u32, slot: u16, credits: u16 },
    /// A packet's tail has reached end point `host`. Its `source` and `sl` name its
    /// entry in the delivery-order audit, so that [`NetworkSim::warm`] can fetch that
    /// entry before the packet is read.
    Deliver {
        host: u32,
        packet: u32,
        source: u32,
        sl: u16,
    },
    /// Credits of `lane` come back to output port `port`.
    Credit { port: u32, lane: u16, credits: u16 },
}

/// A running network simulation.
pub struct NetworkSim {
    events: EventQueue<Event>,
    topology: Topology,
    routing: AnyRouter,
    /// The routing's random stream (Valiant's intermediates).
    route_rng: RngStream,
    pool: PacketPool,
    /// Output side of every global port.
    ports: Vec<OutputPort>,
    switches: Vec<AnySwitch>,
    /// What the switch called last asked for (reused, to allocate once).
    actions: Vec<SwitchAction>,
    interfaces: Vec<Interface>,
    /// Per class, the priority level its packets carry.
    priorities: Vec<u8>,
    /// SLs, lanes and output queues.
    lanes: Lanes,
    link: BitRate,
    latency: Duration,
    credit_delay: Duration,
    counters: Vec<ClassCounters>,
    /// Per class, the jitter of its connections (None for burst classes).
    jitter: Vec<Option<JitterTracker>>,
    /// Per class, the admission outcome of its connections (None for burst classes).
    admission: Vec<Option<ClassAdmission>>,
    window: Window,
    next_id: u64,
    /// Packets sent on any link (interface or switch output): the packet-hops done.
    packet_hops: u64,
    /// The audit of the run's invariants ([`crate::RunOptions::audit`]): the buffer
    /// fills, delivery order, duplicates and misdelivery. None in a run without it;
    /// results are the same either way.
    auditor: Option<Auditor>,
    send_audit: SendAudit,
    /// Class names, for the results.
    names: Vec<String>,
    /// Kind of the schedulers whose work is reported: the switches' when there are
    /// switches, else the interfaces'.
    reported_scheduler: &'static str,
    /// Whether to start fetching each event's state one event ahead ([`NetworkSim::warm`]):
    /// only in networks whose ports alone outgrow a core's second-level cache, where
    /// that state has left the caches by the time its event comes (see `build.rs`).
    warm_events: bool,
    /// Messages of the classes with an MTU (split into packets, latency to the last).
    messages: Messages,
    /// Flits per class, when the scenario gives a flit size.
    flits: Option<Flits>,
}

impl NetworkSim {
    /// Processes up to `max_events` events. Returns true when the run is complete.
    pub fn advance(&mut self, max_events: u64) -> bool {
        for _ in 0..max_events {
            let Some((now, event)) = self.events.pop_until(self.window.end) else {
                return true;
            };
            if self.warm_events {
                if let Some(&next) = self.events.upcoming() {
                    self.warm(next);
                }
            }
            match event {
                Event::Generate { host, class } => self.generate(now, host, class),
                Event::HeaderCrossed { port, packet, .. } => {
                    self.header_crossed(now, port, packet);
                }
                Event::Switch { switch, timer } => self.switch_timer(now, switch, timer),
                Event::LinkDone {
                    port,
                    slot,
                    credits,
                } => self.link_done(now, port, slot, credits),
                Event::Deliver { host, packet, .. } => self.deliver(now, host, packet),
                Event::Credit {
                    port,
                    lane,
                    credits,
                } => {
                    self.ports[port as usize]
                        .credits
                        .give_back(usize::from(lane), u32::from(credits));
                    self.try_send(now, port);
                }
            }
        }
        self.is_done()
    }

    /// Starts fetching what `event` will read first ([`crate::cache_hint`]): it is
    /// the next to be handled, and its state may have left the cache since it was
    /// scheduled.
    #[inline]
    fn warm(&self, event: Event) {
        match event {
            Event::HeaderCrossed {
                port,
                packet,
                destination,
            } => {
                self.pool.prefetch(packet);
                // The switch's state for the pair the header will take, where the
                // routing can tell the output already.
                let (node, input) = self.topology.port_owner(port);
                if let Some(output) = self.routing.output_ahead(&self.topology, node, destination) {
                    if let Some(s) = self.switches.get(self.topology.switch_of(node) as usize) {
                        s.warm_header(input, output);
                    }
                }
            }
            Event::Deliver {
                host,
                packet,
                source,
                sl,
            } => {
                self.pool.prefetch(packet);
                if let Some(auditor) = &self.auditor {
                    auditor.prefetch(source, host, sl);
                }
            }
            Event::LinkDone { port, .. } | Event::Credit { port, .. } => {
                // Every line: the credits are on the first, and the send that follows
                // reads the scheduler, the queues, the link and `busy` on the others.
                if let Some(p) = self.ports.get(port as usize) {
                    crate::cache_hint::prefetch_all(p);
                }
            }
            Event::Switch { switch, timer } => {
                // Where the timer frees input space, the port upstream takes its credits
                // back and tries to send (`input_left`).
                let Some(s) = self.switches.get(switch as usize) else {
                    return;
                };
                let Some(input) = s.input_released_by(timer) else {
                    return;
                };
                let node = self.topology.switch_node(switch);
                let upstream = self
                    .topology
                    .global_port(node, input)
                    .and_then(|g| self.topology.peer(g));
                if let Some(p) = upstream.and_then(|u| self.ports.get(u as usize)) {
                    crate::cache_hint::prefetch_all(p);
                }
            }
            Event::Generate { .. } => {}
        }
    }

    /// Whether every event up to the end of the run has been processed.
    pub fn is_done(&self) -> bool {
        self.events.peek_time().is_none_or(|t| t > self.window.end)
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

    /// The link rate.
    pub fn link_rate(&self) -> BitRate {
        self.link
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Number of end points.
    pub fn end_points(&self) -> u32 {
        self.topology.end_points()
    }

    /// Per-class counters (all end points together).
    pub fn counters(&self) -> &[ClassCounters] {
        &self.counters
    }

    /// The network's SLs, lanes and output queues.
    pub fn lanes(&self) -> &Lanes {
        &self.lanes
    }

    /// Packets of `class` generated but not yet delivered.
    pub fn in_flight(&self, class: usize) -> u64 {
        let c = &self.counters[class];
        c.generated - c.delivered
    }

    /// The message counters of `class` (None for a class without an MTU).
    pub fn messages(&self, class: usize) -> Option<&MessageCounters> {
        self.messages.counters(class)
    }

    /// Messages of `class` on their way, counted from the pending messages and packets
    /// in flight (independently of the message counters; 0 for a class without an MTU).
    pub fn messages_in_flight(&self, class: usize) -> u64 {
        if self.messages.counters(class).is_none() {
            return 0;
        }
        self.messages.in_flight(class, self.in_flight(class))
    }

    /// The flit counters (None without a flit size).
    pub fn flits(&self) -> Option<&Flits> {
        self.flits.as_ref()
    }

    /// Per class, the jitter of its connections (None for burst classes).
    pub fn jitter(&self, class: usize) -> Option<&JitterTracker> {
        self.jitter.get(class).and_then(Option::as_ref)
    }

    /// Per class, how many connections were requested and admitted (None for burst
    /// classes and silent connection classes).
    pub fn admission(&self, class: usize) -> Option<&ClassAdmission> {
        self.admission.get(class).and_then(Option::as_ref)
    }

    /// Packets stored anywhere in the network or its interfaces now (all classes).
    pub fn packets_stored(&self) -> usize {
        self.pool.len()
            + self
                .interfaces
                .iter()
                .flat_map(|i| i.application.iter())
                .map(std::collections::VecDeque::len)
                .sum::<usize>()
    }

    /// Packets sent on a link so far (one per link crossed: the packet-hops of the run).
    pub fn packet_hops(&self) -> u64 {
        self.packet_hops
    }

    /// Invariant breaches so far; None when the run does not audit
    /// ([`crate::RunOptions::audit`]).
    pub fn audit(&self) -> Option<Audit> {
        self.auditor.as_ref().map(|a| a.report(&self.send_audit))
    }

    /// The highest occupancy any (input-side, output-side) buffer reached, as a fraction
    /// of its size; None when the run does not audit.
    pub fn peak_fill(&self) -> Option<(f64, f64)> {
        self.auditor.as_ref().map(|a| a.fills.peak())
    }

    /// The scheduler kind of the switch output ports (of the interfaces when there is no
    /// switch) and the work of all those schedulers together.
    pub fn scheduler_cost(&self) -> (&'static str, SchedulerCost) {
        let want = if self.topology.switches() > 0 {
            NodeKind::Switch
        } else {
            NodeKind::EndPoint
        };
        let mut total = SchedulerCost::default();
        for (g, port) in self.ports.iter().enumerate() {
            let node = self.topology.port_owner(g as u32).0;
            if self.topology.kind(node) != want {
                continue;
            }
            let c = port.scheduler.cost();
            total.decisions += c.decisions;
            total.entries_visited += c.entries_visited;
            total.bitmap_words += c.bitmap_words;
            total.classes_examined += c.classes_examined;
            total.tag_computations += c.tag_computations;
            total.heap_operations += c.heap_operations;
        }
        (self.reported_scheduler, total)
    }
}
