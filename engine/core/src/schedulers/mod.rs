//! Output schedulers: each time the output link is free, pick the class that sends next.
//!
//! Every scheduler implements [`Scheduler`] against a read-only [`PortView`] of the port
//! (queue heads and downstream credits). Schedulers are credit-aware: only *active*
//! classes (head packet present and fitting in the downstream credits) may be chosen.
//! Each scheduler lives in its own module behind [`SchedulerSpec`] and is registered with
//! one line below; [`build`] turns a [`SchedulerConfig`] into one.

pub(crate) mod fair_queueing;
mod head_heap;
mod registers;
mod registry;
mod rules;
mod self_clocked;
mod spec;
pub mod starting;
mod table_entry;
mod table_index;
mod table_layout;

pub use fair_queueing::FairQueueingConfig;
pub use registers::{Registers, TableSide};
pub use rules::{MAX_DTABLE_WEIGHT, MAX_TABLE_ENTRIES};
pub(crate) use spec::SchedulerSpec;
pub use table_entry::TableEntry;
pub use table_index::TableIndex;
pub(crate) use table_index::classes_in;
pub use table_layout::TraceTableEntry;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::scenario::tagged::tagged_enum;
use crate::time::{BitRate, SimTime};

// The schedulers' modules: plain `mod` lines, each with its one line in the registry
// below (cargo-mutants finds files only through `mod` items, so the macro cannot declare
// them).
pub mod as_basic;
pub mod drr;
pub mod dtable;
pub mod edf;
pub mod fifo;
pub mod iba;
pub mod scfq;
pub mod sfq;
pub mod strict_priority;
pub mod wf2q_plus;
pub mod wfq;

// The registry: one line per scheduler (see `registry.rs` and `docs/architecture.md`).
registry::scheduler_registry! {
    /// Advanced Switching basic table: the entry's class sends one packet, whatever its size.
    "as_basic" => AsBasic(as_basic::AsBasicConfig) by as_basic::AsBasic,
    /// InfiniBand VLArb: high and low tables of (VL, weight) entries and the high limit.
    "iba" => Iba(iba::IbaConfig) by iba::Iba,
    /// Deficit Table: a table of (class, weight) entries with deficit counters.
    "dtable" => Dtable(dtable::DTableConfig) by dtable::DTable,
    /// Deficit Round Robin with a quantum per class.
    "drr" => Drr(drr::DrrConfig) by drr::Drr,
    /// Self-Clocked Fair Queueing.
    "scfq" => Scfq(FairQueueingConfig) by scfq::Scfq,
    /// Weighted Fair Queueing (packet-by-packet GPS).
    "wfq" => Wfq(FairQueueingConfig) by wfq::Wfq,
    /// Worst-case Fair Weighted Fair Queueing plus (WF2Q+).
    "wf2q_plus" => Wf2qPlus(FairQueueingConfig) by wf2q_plus::Wf2qPlus,
    /// Start-time Fair Queueing.
    "sfq" => Sfq(FairQueueingConfig) by sfq::Sfq,
    /// Strict priority: the highest-priority active class sends.
    "strict_priority" => StrictPriority(strict_priority::PriorityConfig) by strict_priority::StrictPriority,
    /// First in, first out across classes (by generation time).
    "fifo" => Fifo(fifo::FifoConfig) by fifo::Fifo inline,
    /// Earliest deadline first: each packet's deadline is its generation time plus its
    /// class's relative deadline.
    "edf" => Edf(edf::EdfConfig) by edf::Edf,
}

/// The head packet of a class queue, as a scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// Generation order of the packet across all classes of the port (unique, increasing).
    pub id: u64,
    /// Size in bytes.
    pub bytes: u32,
    /// Size in credits.
    pub credits: u32,
    /// Generation time.
    pub created: SimTime,
}

/// What a scheduler may see of its port.
pub trait PortView {
    /// Number of classes (queues) at the port.
    fn class_count(&self) -> usize;
    /// The head packet of `class`, if its queue is not empty.
    fn head(&self, class: usize) -> Option<Head>;
    /// Free downstream credits of `class`.
    fn free_credits(&self, class: usize) -> u32;
    /// Whether `class` may send now: a head packet that fits in its free credits.
    fn is_active(&self, class: usize) -> bool {
        self.head(class)
            .is_some_and(|h| h.credits <= self.free_credits(class))
    }
    /// The active classes as a mask, bit `c` for class `c` (a scenario has at most 64):
    /// the table schedulers ask this once per table step, a port may answer it in one
    /// call instead of one (dynamically dispatched) `is_active` per class.
    fn active_mask(&self) -> u64 {
        (0..self.class_count())
            .filter(|&c| self.is_active(c))
            .fold(0, |m, c| m | 1 << c)
    }
}

/// Work counters, so the cost of a scheduler can be shown and compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SchedulerCost {
    /// Packets chosen.
    #[ts(type = "number")]
    pub decisions: u64,
    /// Table entries a hardware arbiter would step over (linear scan), summed.
    #[ts(type = "number")]
    pub entries_visited: u64,
    /// 64-entry bitmap words examined by the software find-first-set scan, summed.
    #[ts(type = "number")]
    pub bitmap_words: u64,
    /// Classes (queues) looked at: round-robin visits, priority and deadline scans.
    #[ts(type = "number")]
    pub classes_examined: u64,
    /// Virtual-time tags computed (start and finish tags, virtual-time updates).
    #[ts(type = "number")]
    pub tag_computations: u64,
    /// Operations on a sorted structure (heap pushes and pops).
    #[ts(type = "number")]
    pub heap_operations: u64,
}

impl SchedulerCost {
    /// The work done between `earlier` and `self` (counters only grow).
    pub fn since(&self, earlier: &SchedulerCost) -> SchedulerCost {
        SchedulerCost {
            decisions: self.decisions - earlier.decisions,
            entries_visited: self.entries_visited - earlier.entries_visited,
            bitmap_words: self.bitmap_words - earlier.bitmap_words,
            classes_examined: self.classes_examined - earlier.classes_examined,
            tag_computations: self.tag_computations - earlier.tag_computations,
            heap_operations: self.heap_operations - earlier.heap_operations,
        }
    }
}

/// An output scheduler.
///
/// The port calls, in this order for each packet sent: [`Scheduler::select`] (the
/// scheduler answers a class whose head is active and updates its state as if that head
/// is sent), then removes the head and takes its credits, then [`Scheduler::after_send`].
/// [`Scheduler::on_enqueue`] is called after each packet joins a queue.
pub trait Scheduler {
    /// Chooses the class whose head packet is sent next, updating the scheduler's state as
    /// if that packet is sent. Returns `None` only when no class is active.
    fn select(&mut self, now: SimTime, port: &dyn PortView) -> Option<usize>;

    /// Called after the chosen packet has left its queue and taken its credits.
    fn after_send(&mut self, _now: SimTime, _class: usize, _port: &dyn PortView) {}

    /// Called after a packet of `bytes` joined the queue of `class` (virtual-time
    /// schedulers tag it here).
    fn on_enqueue(&mut self, _now: SimTime, _class: usize, _bytes: u32, _port: &dyn PortView) {}

    /// Work done so far.
    fn cost(&self) -> SchedulerCost;

    /// The scheduler's registers now (pointer, counters, tags), for traces and teaching.
    fn registers(&self) -> Registers;

    /// [`Scheduler::select`] against a port whose type is known (what the ports call,
    /// through [`AnyScheduler`]): a scheduler may answer it with its code generic over the
    /// view, so the port's reads inline instead of being one indirect call each. The
    /// default is the dynamic `select`; an override must decide exactly as it does.
    #[inline]
    fn select_in<P: PortView>(&mut self, now: SimTime, port: &P) -> Option<usize>
    where
        Self: Sized,
    {
        self.select(now, port)
    }

    /// [`Scheduler::after_send`] against a port whose type is known (see
    /// [`Scheduler::select_in`]).
    #[inline]
    fn after_send_in<P: PortView>(&mut self, now: SimTime, class: usize, port: &P)
    where
        Self: Sized,
    {
        self.after_send(now, class, port)
    }

    /// [`Scheduler::on_enqueue`] against a port whose type is known (see
    /// [`Scheduler::select_in`]).
    #[inline]
    fn on_enqueue_in<P: PortView>(&mut self, now: SimTime, class: usize, bytes: u32, port: &P)
    where
        Self: Sized,
    {
        self.on_enqueue(now, class, bytes, port)
    }
}

/// A borrowed scheduler is one (the dynamic methods forwarded), so the send protocol can
/// drive a `&mut dyn Scheduler` as well as an [`AnyScheduler`].
impl<S: Scheduler + ?Sized> Scheduler for &mut S {
    fn select(&mut self, now: SimTime, port: &dyn PortView) -> Option<usize> {
        (**self).select(now, port)
    }
    fn after_send(&mut self, now: SimTime, class: usize, port: &dyn PortView) {
        (**self).after_send(now, class, port)
    }
    fn on_enqueue(&mut self, now: SimTime, class: usize, bytes: u32, port: &dyn PortView) {
        (**self).on_enqueue(now, class, bytes, port)
    }
    fn cost(&self) -> SchedulerCost {
        (**self).cost()
    }
    fn registers(&self) -> Registers {
        (**self).registers()
    }
}

/// What a scheduler needs to know of its port when it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortSetup {
    /// Number of classes (queues).
    pub classes: usize,
    /// Rate of the output link (virtual-time schedulers convert time to work with it).
    pub link: BitRate,
}

/// Builds the scheduler a scenario asks for. The configuration must have been validated.
pub fn build(config: &SchedulerConfig, port: PortSetup) -> Box<dyn Scheduler> {
    config.build(port)
}

#[cfg(test)]
#[path = "cost_tests.rs"]
mod cost_tests;

#[cfg(test)]
#[path = "any_scheduler_tests.rs"]
mod any_scheduler_tests;

#[cfg(test)]
pub(crate) mod testing {
    //! A hand-driven port for scheduler unit tests.
    use super::*;
    use std::collections::VecDeque;

    /// Queues of packet sizes (in credits) and free credits per class. Packets get
    /// increasing ids in push order (their arrival order across classes).
    #[derive(Clone, Debug, Default)]
    pub struct MockPort {
        pub queues: Vec<VecDeque<u32>>,
        pub ids: Vec<VecDeque<u64>>,
        pub free: Vec<u32>,
        pub next_id: u64,
    }

    impl MockPort {
        pub fn new(classes: usize, free: u32) -> MockPort {
            MockPort {
                queues: vec![VecDeque::new(); classes],
                ids: vec![VecDeque::new(); classes],
                free: vec![free; classes],
                next_id: 0,
            }
        }

        /// Queues `count` packets of `credits` credits (64 B each) on `class`, without
        /// telling a scheduler (see [`MockPort::arrive`]).
        pub fn push(&mut self, class: usize, credits: u32, count: usize) {
            for _ in 0..count {
                self.queues[class].push_back(credits);
                self.ids[class].push_back(self.next_id);
                self.next_id += 1;
            }
        }

        /// Queues one packet and tells the scheduler (`on_enqueue`), as a port does.
        pub fn arrive(&mut self, now: SimTime, s: &mut dyn Scheduler, class: usize, credits: u32) {
            self.push(class, credits, 1);
            s.on_enqueue(now, class, credits * 64, self);
        }

        /// As [`MockPort::arrive`], through the scheduler's form generic over the port
        /// (`on_enqueue_in`, what the network's ports call).
        pub fn arrive_in<S: Scheduler>(
            &mut self,
            now: SimTime,
            s: &mut S,
            class: usize,
            credits: u32,
        ) {
            self.push(class, credits, 1);
            s.on_enqueue_in(now, class, credits * 64, self);
        }

        /// As [`MockPort::step_at`], through the scheduler's forms generic over the port
        /// (`select_in`, `after_send_in`: the send protocol as the network's ports run it).
        pub fn step_in<S: Scheduler>(&mut self, now: SimTime, s: &mut S) -> Option<usize> {
            let mut audit = crate::network::SendAudit::default();
            let sent = crate::network::send_one(now, s, self, &mut audit);
            assert_eq!(
                audit.credit_violations, 0,
                "scheduler chose a class without credits"
            );
            sent.map(|(class, _)| class)
        }

        /// One decision at time zero: select, dequeue, take credits, notify. Returns the
        /// class sent.
        pub fn step(&mut self, s: &mut dyn Scheduler) -> Option<usize> {
            self.step_at(SimTime::ZERO, s)
        }

        /// One decision at `now`, by the ports' one send protocol; panics if the
        /// scheduler chose a class without credits (staying idle while a class could
        /// send is allowed here: a table may leave a class out).
        pub fn step_at(&mut self, now: SimTime, s: &mut dyn Scheduler) -> Option<usize> {
            let mut audit = crate::network::SendAudit::default();
            let sent = crate::network::send_one(now, &mut &mut *s, self, &mut audit);
            assert_eq!(
                audit.credit_violations, 0,
                "scheduler chose a class without credits"
            );
            sent.map(|(class, _)| class)
        }
    }

    impl crate::network::SendPort for MockPort {
        type Item = u32;
        fn take_credits(&mut self, class: usize, credits: u32) -> bool {
            if credits > self.free[class] {
                return false;
            }
            self.free[class] -= credits;
            true
        }
        fn pop(&mut self, class: usize) -> Option<u32> {
            self.ids[class].pop_front();
            self.queues[class].pop_front()
        }
    }

    impl PortView for MockPort {
        fn class_count(&self) -> usize {
            self.queues.len()
        }
        fn head(&self, class: usize) -> Option<Head> {
            self.queues[class].front().map(|&credits| Head {
                id: self.ids[class].front().copied().unwrap_or(0),
                bytes: credits * 64,
                credits,
                created: SimTime::ZERO,
            })
        }
        fn free_credits(&self, class: usize) -> u32 {
            self.free[class]
        }
    }
}
