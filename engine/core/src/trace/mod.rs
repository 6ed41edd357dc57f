//! Decision traces: the first N decisions of a port's scheduler, with what it saw (queues,
//! credits) and what it did (class, packet, registers, work), for the animation and for
//! teaching. A trace is taken from a fresh run of the scenario, so it is as deterministic
//! as the run itself.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use crate::network::{CreditCounter, Packet};

pub use crate::schedulers::TraceTableEntry;
use crate::schedulers::{Registers, Scheduler, SchedulerCost};
use crate::time::{PS_PER_NS, SimTime};

mod record;
pub use record::trace;

/// Most decisions one trace may hold.
pub const MAX_TRACE_DECISIONS: u32 = 10_000;
/// Packets listed per queue in each decision (the queue's length is always exact).
pub const TRACE_QUEUE_DEPTH: usize = 32;

/// A scheduler's first decisions from a point in simulated time.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct Trace {
    /// The scheduler's kind.
    pub scheduler: String,
    /// The port's classes, in index order.
    pub classes: Vec<TraceClass>,
    /// Link rate in Gb/s.
    pub link_rate_gbps: f64,
    /// Tracing started with the first decision at or after this time, in ns.
    pub from_ns: f64,
    /// The arbitration table(s) in order (empty for schedulers without a table). IBA lists
    /// its high table, then its low table; `index` is the position within its own table.
    pub table: Vec<TraceTableEntry>,
    /// The registers just before the first traced decision.
    pub initial: Registers,
    /// The decisions, in order.
    pub decisions: Vec<Decision>,
}

/// A class as the trace shows it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct TraceClass {
    /// Display name.
    pub name: String,
    /// Largest packet of the class, in bytes.
    pub mtu_bytes: u32,
    /// Downstream buffer of the class, in credits.
    pub buffer_credits: u32,
}

/// One decision of the scheduler.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct Decision {
    /// Position in the trace (0-based).
    pub step: u32,
    /// When the packet started on the link, in ns.
    pub time_ns: f64,
    /// When its last bit left, in ns.
    pub end_ns: f64,
    /// Class chosen.
    pub class: u32,
    /// Size of the packet sent, in bytes.
    pub bytes: u32,
    /// Size of the packet sent, in credits.
    pub credits: u32,
    /// Before the decision: packet sizes in bytes of each queue, head first (at most
    /// [`TRACE_QUEUE_DEPTH`] per queue).
    pub queues: Vec<Vec<u32>>,
    /// Before the decision: packets in each queue.
    pub queue_lengths: Vec<u32>,
    /// Before the decision: free downstream credits of each class.
    pub free_credits: Vec<u32>,
    /// The scheduler's registers after the decision.
    pub registers: Registers,
    /// Work this decision took.
    pub work: SchedulerCost,
}

/// What the port looked like just before a traced decision.
#[derive(Clone, Debug)]
pub(crate) struct Before {
    queues: Vec<Vec<u32>>,
    queue_lengths: Vec<u32>,
    free_credits: Vec<u32>,
    cost: SchedulerCost,
}

impl Decision {
    /// The record of a decision: the port before it, the packet chosen and the registers
    /// after it.
    pub(crate) fn new(
        before: Before,
        start: SimTime,
        end: SimTime,
        packet: &Packet,
        scheduler: &dyn Scheduler,
    ) -> Decision {
        Decision {
            step: 0,
            time_ns: ns(start),
            end_ns: ns(end),
            class: u32::from(packet.class),
            bytes: packet.bytes,
            credits: packet.credits,
            queues: before.queues,
            queue_lengths: before.queue_lengths,
            free_credits: before.free_credits,
            registers: scheduler.registers(),
            work: scheduler.cost().since(&before.cost),
        }
    }
}

pub(crate) fn ns(t: SimTime) -> f64 {
    t.as_ps() as f64 / PS_PER_NS as f64
}

/// Records decisions of one port from a start time until it holds enough.
#[derive(Clone, Debug)]
pub(crate) struct Tracer {
    from: SimTime,
    limit: usize,
    initial: Option<Registers>,
    decisions: Vec<Decision>,
}

impl Tracer {
    /// A recorder of up to `limit` decisions made at or after `from`.
    pub(crate) fn new(from: SimTime, limit: u32) -> Tracer {
        Tracer {
            from,
            limit: limit.min(MAX_TRACE_DECISIONS) as usize,
            initial: None,
            decisions: Vec::new(),
        }
    }

    /// Whether a decision at `now` is to be recorded.
    pub(crate) fn wants(&self, now: SimTime) -> bool {
        now >= self.from && !self.is_full()
    }

    /// Whether the trace holds all the decisions asked for.
    pub(crate) fn is_full(&self) -> bool {
        self.decisions.len() >= self.limit
    }

    /// Notes the port and the scheduler just before a decision.
    pub(crate) fn snapshot_before(
        &mut self,
        queues: &[VecDeque<Packet>],
        credits: &[CreditCounter],
        scheduler: &dyn Scheduler,
    ) -> Before {
        if self.initial.is_none() {
            self.initial = Some(scheduler.registers());
        }
        Before {
            queues: queues
                .iter()
                .map(|q| q.iter().take(TRACE_QUEUE_DEPTH).map(|p| p.bytes).collect())
                .collect(),
            queue_lengths: queues
                .iter()
                .map(|q| u32::try_from(q.len()).unwrap_or(u32::MAX))
                .collect(),
            free_credits: credits.iter().map(CreditCounter::free).collect(),
            cost: scheduler.cost(),
        }
    }

    /// Adds a decision.
    pub(crate) fn record(&mut self, mut decision: Decision) {
        decision.step = self.decisions.len() as u32;
        self.decisions.push(decision);
    }
}

impl Trace {
    /// The trace as pretty-printed JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
