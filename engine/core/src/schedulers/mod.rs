//! Output schedulers: each time the output link is free, pick the class that sends next.
//!
//! Every scheduler implements [`Scheduler`] against a read-only [`PortView`] of the port
//! (queue heads and downstream credits). Schedulers are credit-aware: only *active*
//! classes (head packet present and fitting in the downstream credits) may be chosen.
//! Each scheduler lives in its own module; [`build`] turns a [`SchedulerConfig`] into one.

mod dtable;
mod table_index;

pub use dtable::DTable;
pub use table_index::TableIndex;

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use crate::scenario::SchedulerConfig;
use crate::time::SimTime;

/// The head packet of a class queue, as a scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
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
}

/// Work counters, so the cost of a scheduler can be shown and compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema, TS)]
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
}

/// An output scheduler.
pub trait Scheduler {
    /// Short identifier (the scenario's `kind`).
    fn kind(&self) -> &'static str;

    /// Chooses the class whose head packet is sent next, updating the scheduler's state as
    /// if that packet is sent. Returns `None` only when no class is active.
    fn select(&mut self, port: &dyn PortView) -> Option<usize>;

    /// Called after the chosen packet has left its queue and taken its credits.
    fn after_send(&mut self, _class: usize, _port: &dyn PortView) {}

    /// Called when a packet joins the queue of `class` (virtual-time schedulers tag here).
    fn on_enqueue(&mut self, _class: usize, _bytes: u32, _port: &dyn PortView) {}

    /// Work done so far.
    fn cost(&self) -> SchedulerCost;
}

/// Builds the scheduler a scenario asks for, for a port with `classes` classes.
/// The configuration must have been validated.
pub fn build(config: &SchedulerConfig, classes: usize) -> Box<dyn Scheduler> {
    match config {
        SchedulerConfig::Dtable(d) => Box::new(DTable::new(&d.table, classes)),
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! A hand-driven port for scheduler unit tests.
    use super::*;
    use std::collections::VecDeque;

    /// Queues of packet sizes (in credits) and free credits per class.
    #[derive(Clone, Debug, Default)]
    pub struct MockPort {
        pub queues: Vec<VecDeque<u32>>,
        pub free: Vec<u32>,
    }

    impl MockPort {
        pub fn new(classes: usize, free: u32) -> MockPort {
            MockPort {
                queues: vec![VecDeque::new(); classes],
                free: vec![free; classes],
            }
        }

        pub fn push(&mut self, class: usize, credits: u32, count: usize) {
            for _ in 0..count {
                self.queues[class].push_back(credits);
            }
        }

        /// One decision: select, dequeue, take credits, notify. Returns the class sent.
        pub fn step(&mut self, s: &mut dyn Scheduler) -> Option<usize> {
            let c = s.select(self)?;
            let credits = self.queues[c]
                .pop_front()
                .expect("scheduler chose an empty queue");
            assert!(
                credits <= self.free[c],
                "scheduler chose a class without credits"
            );
            self.free[c] -= credits;
            s.after_send(c, self);
            Some(c)
        }
    }

    impl PortView for MockPort {
        fn class_count(&self) -> usize {
            self.queues.len()
        }
        fn head(&self, class: usize) -> Option<Head> {
            self.queues[class].front().map(|&credits| Head {
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
