//! The discrete-event kernel: a time-ordered event queue with deterministic ties.
//!
//! Events with equal timestamps pop in the order they were scheduled (an insertion
//! counter breaks ties), so a run never depends on the queue's internals or hash order.
//!
//! The queue is a radix heap over the key `(time, insertion number)` packed into a
//! `u128`. A discrete-event simulation only ever schedules at or after the clock, so keys
//! never go below the last one popped, which is what a radix heap needs: an event goes into
//! bucket `b` = the number of significant bits of `key XOR last popped key`; popping takes
//! the first non-empty bucket, and if that is not bucket 0, finds its smallest key, makes it
//! the new base and redistributes the bucket into lower ones. Scheduling is O(1), and an
//! event moves down at most 128 buckets in its life, so popping is O(1) amortised in the
//! number of pending events, where a binary heap pays about log2(n) levels per pop.

use crate::time::SimTime;

/// Buckets: 0 (key equal to the base) and 1..=128 (highest differing bit).
const BUCKETS: usize = 129;

/// A pending event's key: time in the high 64 bits, insertion number in the low 64.
fn key(at: SimTime, seq: u64) -> u128 {
    (u128::from(at.0) << 64) | u128::from(seq)
}

fn time_of(key: u128) -> SimTime {
    SimTime((key >> 64) as u64)
}

/// The bucket of `key` against `base` (`key >= base`).
fn bucket(key: u128, base: u128) -> usize {
    (128 - (key ^ base).leading_zeros()) as usize
}

/// A future-event list ordered by (time, insertion order).
#[derive(Debug)]
pub struct EventQueue<E> {
    buckets: Vec<Vec<(u128, E)>>,
    /// Bit `b` set when bucket `b + 1` is not empty (bucket 0 is checked directly).
    nonempty: u128,
    /// The key of the last event popped (every pending key is at least this).
    base: u128,
    len: usize,
    next_seq: u64,
    now: SimTime,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            nonempty: 0,
            base: 0,
            len: 0,
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
        self.insert(key(at, seq), event);
    }

    fn insert(&mut self, k: u128, event: E) {
        let b = bucket(k, self.base);
        self.buckets[b].push((k, event));
        if b > 0 {
            self.nonempty |= 1 << (b - 1);
        }
        self.len += 1;
    }

    /// The first non-empty bucket.
    fn first_bucket(&self) -> Option<usize> {
        if !self.buckets[0].is_empty() {
            return Some(0);
        }
        (self.nonempty != 0).then(|| self.nonempty.trailing_zeros() as usize + 1)
    }

    /// The smallest pending key.
    fn min_key(&self) -> Option<u128> {
        let b = self.first_bucket()?;
        self.buckets[b].iter().map(|&(k, _)| k).min()
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.min_key().map(time_of)
    }

    /// Pops the earliest event if it is at or before `limit`, advancing the clock.
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        let b = self.first_bucket()?;
        if b > 0 {
            let min = self.buckets[b].iter().map(|&(k, _)| k).min()?;
            if time_of(min) > limit {
                return None;
            }
            // The smallest key becomes the base; the bucket's events move to lower buckets
            // (the smallest into bucket 0).
            self.base = min;
            self.nonempty &= !(1 << (b - 1));
            let mut moving = std::mem::take(&mut self.buckets[b]);
            self.len -= moving.len();
            for (k, event) in moving.drain(..) {
                self.insert(k, event);
            }
            self.buckets[b] = moving;
        }
        let (k, _) = self.buckets[0].last()?;
        if time_of(*k) > limit {
            return None;
        }
        let (k, event) = self.buckets[0].pop()?;
        self.len -= 1;
        self.now = time_of(k);
        self.popped += 1;
        Some((self.now, event))
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
    }
}
