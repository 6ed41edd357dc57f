//! The discrete-event kernel: a time-ordered event queue with deterministic ties.
//!
//! Events with equal timestamps pop in the order they were scheduled (an insertion
//! counter breaks ties), so a run never depends on heap internals or hash order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::time::SimTime;

/// A pending event: its time, its insertion number and its payload.
#[derive(Debug)]
struct Scheduled<E> {
    at: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Scheduled<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}
impl<E> Eq for Scheduled<E> {}
impl<E> PartialOrd for Scheduled<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Scheduled<E> {
    /// Reversed so that `BinaryHeap` (a max-heap) pops the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .at
            .cmp(&self.at)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// A future-event list ordered by (time, insertion order).
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Scheduled<E>>,
    next_seq: u64,
    now: SimTime,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            next_seq: 0,
            now: SimTime::ZERO,
            popped: 0,
        }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue at time zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// The time of the last popped event (the simulation clock).
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Number of events popped so far.
    pub fn events_processed(&self) -> u64 {
        self.popped
    }

    /// Schedules `event` at `at`. Times in the past are clamped to now, so the clock never
    /// runs backwards.
    pub fn schedule(&mut self, at: SimTime, event: E) {
        let at = at.max(self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Scheduled { at, seq, event });
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|s| s.at)
    }

    /// Pops the earliest event if it is at or before `limit`, advancing the clock.
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        if self.heap.peek()?.at > limit {
            return None;
        }
        let s = self.heap.pop()?;
        self.now = s.at;
        self.popped += 1;
        Some((s.at, s.event))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn equal_times_pop_in_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(5), 'a');
        q.schedule(SimTime(1), 'b');
        q.schedule(SimTime(5), 'c');
        q.schedule(SimTime(1), 'd');
        let order: Vec<char> =
            std::iter::from_fn(|| q.pop_until(SimTime(u64::MAX)).map(|e| e.1)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c']);
    }

    #[test]
    fn pop_until_respects_limit_and_clock() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(10), 1);
        q.schedule(SimTime(20), 2);
        assert_eq!(q.pop_until(SimTime(15)), Some((SimTime(10), 1)));
        assert_eq!(q.pop_until(SimTime(15)), None);
        assert_eq!(q.now(), SimTime(10));
        q.schedule(SimTime(3), 3); // in the past: clamped to now
        assert_eq!(q.pop_until(SimTime(15)), Some((SimTime(10), 3)));
    }

    proptest! {
        /// The queue agrees with a plain ordered map keyed by (time, insertion number).
        #[test]
        fn matches_btreemap_model(
            ops in proptest::collection::vec((0u64..50, any::<bool>()), 1..300),
            scale in prop_oneof![Just(1u64), Just(1_000), Just(1 << 40)],
            limit_step in prop_oneof![Just(u64::MAX), 1u64..100],
        ) {
            let mut q = EventQueue::new();
            let mut model = BTreeMap::new();
            let mut seq = 0u64;
            for (i, (t, pop)) in ops.into_iter().enumerate() {
                let t = t * scale;
                if pop {
                    // A limit that sometimes lies before the earliest event (nothing pops).
                    let limit = SimTime(q.now().0.saturating_add(limit_step.saturating_mul(scale)));
                    let got = q.pop_until(limit);
                    let want = match model.first_key_value() {
                        Some((&(at, _), _)) if at <= limit.0 => {
                            model.pop_first().map(|((t, _), v)| (SimTime(t), v))
                        }
                        _ => None,
                    };
                    prop_assert_eq!(got, want, "op {}", i);
                    prop_assert_eq!(q.peek_time(), model.keys().next().map(|&(t, _)| SimTime(t)));
                    prop_assert_eq!(q.len(), model.len());
                } else {
                    let at = t.max(q.now().0);
                    q.schedule(SimTime(t), seq);
                    model.insert((at, seq), seq);
                    seq += 1;
                }
            }
        }
    }
}
