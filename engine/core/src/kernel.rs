//! The discrete-event kernel: a time-ordered event queue with deterministic ties.
//!
//! Events with equal timestamps pop in the order they were scheduled (an insertion
//! counter breaks ties), so a run never depends on the queue's internals or hash order.
//!
//! The queue is a *radix heap* (Ahuja, Mehlhorn, Orlin and Tarjan, 1990), which a
//! simulation may use because its clock never runs backwards: every scheduled time is at
//! or after the time of the last event popped (`last`). An event at time `t` waits in
//! bucket `b`, the position of the highest bit in which `t` differs from `last`
//! (bucket 0: `t == last`). When bucket 0 is empty, the lowest non-empty bucket holds the
//! earliest events: its smallest time becomes `last` and its events are spread over lower
//! buckets. Each event moves down a few buckets (at most 64), each move a push on a
//! vector, so scheduling is O(1) and popping O(1) amortised in practice, instead of a
//! binary heap's log n sift on every pop. Every bucket keeps insertion order (see
//! [`EventQueue::pop_until`]), so ties keep the exact (time, insertion) order of the
//! binary heap this replaced (the tests compare the queue with an ordered map).

use std::collections::VecDeque;

use crate::time::SimTime;

/// A pending event: its time and its payload (its place in a bucket keeps its
/// insertion order).
#[derive(Debug)]
struct Scheduled<E> {
    at: SimTime,
    event: E,
}

/// Buckets above bucket 0: one per bit of a time.
const BUCKETS: usize = 64;

/// A future-event list ordered by (time, insertion order).
#[derive(Debug)]
pub struct EventQueue<E> {
    /// Events at exactly `last`, in insertion order.
    near: VecDeque<Scheduled<E>>,
    /// `far[b]`: events whose time differs from `last` first in bit `b` (counting from
    /// 0), in no particular order.
    far: Vec<Vec<Scheduled<E>>>,
    /// Bit `b` set when `far[b]` is not empty.
    occupied: u64,
    /// The time the buckets are relative to: the earliest pending time when `near` was
    /// last refilled (never after `now`, never after a pending event).
    last: u64,
    len: usize,
    now: SimTime,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            near: VecDeque::new(),
            far: (0..BUCKETS).map(|_| Vec::new()).collect(),
            occupied: 0,
            last: 0,
            len: 0,
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
        self.len += 1;
        self.place(Scheduled { at, event });
    }

    /// Puts an event (at or after `last`) into its bucket.
    #[inline]
    fn place(&mut self, s: Scheduled<E>) {
        let diff = s.at.0 ^ self.last;
        if diff == 0 {
            self.near.push_back(s);
        } else {
            let b = (63 - diff.leading_zeros()) as usize;
            self.far[b].push(s);
            self.occupied |= 1 << b;
        }
    }

    /// The lowest non-empty far bucket and its earliest time (None when all are empty).
    fn lowest_far(&self) -> Option<(usize, u64)> {
        if self.occupied == 0 {
            return None;
        }
        let b = self.occupied.trailing_zeros() as usize;
        let min = self.far[b].iter().map(|s| s.at.0).min()?;
        Some((b, min))
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        match self.near.front() {
            Some(s) => Some(s.at),
            None => self.lowest_far().map(|(_, t)| SimTime(t)),
        }
    }

    /// Pops the earliest event if it is at or before `limit`, advancing the clock.
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        if self.near.is_empty() {
            let (b, min) = self.lowest_far()?;
            if min > limit.0 {
                return None;
            }
            // Refill `near`: every event of bucket `b` moves to a lower bucket relative to
            // the new `last` (those at `min` into `near`). Every bucket is in insertion
            // order: the lower buckets are empty now and receive the events in bucket
            // `b`'s order, and later events are appended. So `near` stays a FIFO of
            // insertion order and ties need no sort.
            self.last = min;
            self.occupied &= !(1 << b);
            let mut moving = std::mem::take(&mut self.far[b]);
            for s in moving.drain(..) {
                self.place(s);
            }
            self.far[b] = moving;
        }
        if self.near.front()?.at > limit {
            return None;
        }
        let s = self.near.pop_front()?;
        self.len -= 1;
        self.now = s.at;
        self.popped += 1;
        Some((s.at, s.event))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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

        /// As above, with times relative to the clock (as a simulation schedules them)
        /// over many magnitudes, many ties, long runs, limits before the earliest event,
        /// and the queue drained at the end.
        #[test]
        fn matches_btreemap_model_relative_times(
            ops in proptest::collection::vec(
                (0u32..64, 0u64..4, 0u8..4, any::<bool>()), 1..2000),
            limit_shift in 0u32..48,
        ) {
            let mut q = EventQueue::new();
            let mut model = BTreeMap::new();
            let mut seq = 0u64;
            for (i, (shift, low, kind, past)) in ops.into_iter().enumerate() {
                if kind == 0 {
                    let limit = q.now().0.saturating_add(1u64 << limit_shift);
                    let got = q.pop_until(SimTime(limit));
                    let want = match model.first_key_value() {
                        Some((&(at, _), _)) if at <= limit => {
                            model.pop_first().map(|((t, _), v)| (SimTime(t), v))
                        }
                        _ => None,
                    };
                    prop_assert_eq!(got, want, "op {}", i);
                } else {
                    // Deltas of 0 (a tie with now), small, or up to 2^63; sometimes a
                    // time in the past (clamped to now).
                    let delta = if shift == 0 { 0 } else { (1u64 << (shift - 1)) | low };
                    let t = if past {
                        q.now().0.saturating_sub(delta)
                    } else {
                        q.now().0.saturating_add(delta)
                    };
                    let at = t.max(q.now().0);
                    q.schedule(SimTime(t), seq);
                    model.insert((at, seq), seq);
                    seq += 1;
                }
                prop_assert_eq!(q.peek_time(), model.keys().next().map(|&(t, _)| SimTime(t)));
                prop_assert_eq!(q.len(), model.len());
                prop_assert_eq!(q.is_empty(), model.is_empty());
            }
            while let Some((at, v)) = q.pop_until(SimTime(u64::MAX)) {
                let ((t, _), w) = model.pop_first().expect("model has the event");
                prop_assert_eq!((at, v), (SimTime(t), w));
            }
            prop_assert!(model.is_empty());
            prop_assert_eq!(q.events_processed(), seq);
        }
    }
}
