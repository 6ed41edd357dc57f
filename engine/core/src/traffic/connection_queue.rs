//! The next packet of each connection of one end point and class, earliest first.
//!
//! Keys are (time, connection) and no two are equal (one key per connection), so any
//! structure popping the smallest key pops the same sequence. Two forms:
//! - [`ConnectionQueue::Sorted`], a ring sorted by key: for constant-bit-rate
//!   connections of one packet size, whose next packet is one period after the one just
//!   popped, a popped connection's next key is after nearly every other pending key, so
//!   a push is almost always at the back (checked first; otherwise a binary search and
//!   an insert that moves the shorter side). A pop is the front: no sift down the
//!   levels of a heap (R2's 1 438 voice connections per end point: 11 levels).
//! - [`ConnectionQueue::Heap`], a binary heap, for connections whose next packet may
//!   fall anywhere among the others (video frames, CBR with a size range).
//!
//! A property test compares both with a `BinaryHeap` on random pushes and pops.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::time::SimTime;

/// One pending packet: its time and its connection.
pub type Key = (SimTime, u32);

/// Pending keys, popped smallest first.
#[derive(Clone, Debug)]
pub enum ConnectionQueue {
    /// A ring kept sorted by key.
    Sorted(VecDeque<Key>),
    /// A binary min-heap.
    Heap(BinaryHeap<Reverse<Key>>),
}

impl ConnectionQueue {
    /// A queue holding `keys`: sorted if `periodic` (each connection's next key about a
    /// period after the one popped), a heap otherwise.
    pub fn new(periodic: bool, mut keys: Vec<Key>) -> ConnectionQueue {
        if periodic {
            keys.sort_unstable();
            ConnectionQueue::Sorted(keys.into())
        } else {
            ConnectionQueue::Heap(keys.into_iter().map(Reverse).collect())
        }
    }

    /// Adds `key`.
    #[inline]
    pub fn push(&mut self, key: Key) {
        match self {
            ConnectionQueue::Sorted(ring) => {
                if ring.back().is_none_or(|&last| last < key) {
                    ring.push_back(key);
                } else {
                    let at = ring.partition_point(|&k| k < key);
                    ring.insert(at, key);
                }
            }
            ConnectionQueue::Heap(heap) => heap.push(Reverse(key)),
        }
    }

    /// Removes and returns the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<Key> {
        match self {
            ConnectionQueue::Sorted(ring) => ring.pop_front(),
            ConnectionQueue::Heap(heap) => heap.pop().map(|Reverse(k)| k),
        }
    }

    /// Keys pending.
    pub fn len(&self) -> usize {
        match self {
            ConnectionQueue::Sorted(ring) => ring.len(),
            ConnectionQueue::Heap(heap) => heap.len(),
        }
    }

    /// Whether no key is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Operations: Some(delay) pushes the next free connection at the clock plus the
    /// delay; None pops (the clock moves to the popped time, as a generator's does).
    fn run(periodic: bool, initial: &[(u64, u32)], ops: &[Option<u64>]) -> Vec<Option<Key>> {
        let keys: Vec<Key> = initial.iter().map(|&(t, c)| (SimTime(t), c)).collect();
        let mut q = ConnectionQueue::new(periodic, keys.clone());
        let mut oracle: BinaryHeap<Reverse<Key>> = keys.iter().copied().map(Reverse).collect();
        let mut next_connection = initial.iter().map(|k| k.1 + 1).max().unwrap_or(0);
        let mut clock = 0;
        let mut popped = Vec::new();
        for op in ops {
            match op {
                Some(delay) => {
                    let key = (SimTime(clock + delay), next_connection);
                    next_connection += 1;
                    q.push(key);
                    oracle.push(Reverse(key));
                }
                None => {
                    let got = q.pop();
                    assert_eq!(got, oracle.pop().map(|Reverse(k)| k));
                    if let Some((t, _)) = got {
                        clock = t.0;
                    }
                    popped.push(got);
                }
            }
            assert_eq!(q.len(), oracle.len());
        }
        popped
    }

    proptest! {
        /// Both forms pop what a `BinaryHeap` pops, for pushes anywhere among the
        /// pending keys: at the back, in the middle, ties of time (ordered by
        /// connection), before the front.
        #[test]
        fn both_forms_pop_as_a_binary_heap(
            initial in proptest::collection::vec((0u64..50, 0u32..1000), 0..60),
            ops in proptest::collection::vec(proptest::option::weighted(0.5, 0u64..80), 0..400),
        ) {
            let mut seen = std::collections::BTreeSet::new();
            let initial: Vec<(u64, u32)> =
                initial.into_iter().filter(|k| seen.insert(k.1)).collect();
            let sorted = run(true, &initial, &ops);
            let heap = run(false, &initial, &ops);
            prop_assert_eq!(sorted, heap);
        }

        /// Periodic connections (each pushed back one period, or one more picosecond,
        /// after it pops), as CBR connections are: the same sequence as a heap.
        #[test]
        fn periodic_connections_pop_as_a_binary_heap(
            phases in proptest::collection::vec(0u64..1000, 1..200),
            period in 900u64..1100,
            extra in proptest::collection::vec(0u64..2, 1..50),
        ) {
            let keys: Vec<Key> =
                phases.iter().enumerate().map(|(c, &p)| (SimTime(p), c as u32)).collect();
            let mut q = ConnectionQueue::new(true, keys.clone());
            let mut oracle: BinaryHeap<Reverse<Key>> = keys.into_iter().map(Reverse).collect();
            for i in 0..2000 {
                let (t, c) = q.pop().unwrap();
                prop_assert_eq!(Some((t, c)), oracle.pop().map(|Reverse(k)| k));
                let next = (SimTime(t.0 + period + extra[i % extra.len()]), c);
                q.push(next);
                oracle.push(Reverse(next));
            }
        }
    }

    #[test]
    fn an_empty_queue_pops_nothing() {
        for periodic in [true, false] {
            let mut q = ConnectionQueue::new(periodic, Vec::new());
            assert!(q.is_empty());
            assert_eq!(q.pop(), None);
            q.push((SimTime(5), 1));
            q.push((SimTime(5), 0));
            q.push((SimTime(2), 7));
            assert_eq!(q.len(), 3);
            assert_eq!(q.pop(), Some((SimTime(2), 7)));
            assert_eq!(q.pop(), Some((SimTime(5), 0)));
            assert_eq!(q.pop(), Some((SimTime(5), 1)));
            assert!(q.is_empty());
        }
    }
}
