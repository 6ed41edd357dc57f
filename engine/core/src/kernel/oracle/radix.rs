//! The radix heap behind the timing wheel ([`super::EventQueue`]): events beyond the
//! wheel's horizon wait here.
//!
//! A *radix heap* (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) works because the clock never
//! runs backwards: every time pushed is at or after the time of the last event popped
//! (`last`). An event at time `t` waits in bucket `b`, the position of the highest bit in
//! which `t` differs from `last` (`near`: `t == last`). When `near` is empty, the lowest
//! non-empty bucket holds the earliest events: its smallest time becomes `last` and its
//! events are spread over lower buckets. Each event moves down a few buckets (at most
//! 64), each move a push on a vector. Every bucket keeps insertion order (see
//! [`RadixHeap::pop_until`]), so ties pop in insertion order with no counter.

use std::collections::VecDeque;

use super::Scheduled;

/// Buckets above `near`: one per bit of a time.
const BUCKETS: usize = 64;

/// Events ordered by (time, insertion order), for times never below the last one popped.
#[derive(Debug)]
pub(super) struct RadixHeap<E> {
    /// Events at exactly `last`, in insertion order.
    near: VecDeque<Scheduled<E>>,
    /// `far[b]`: events whose time differs from `last` first in bit `b` (counting from
    /// 0), in insertion order.
    far: Vec<Vec<Scheduled<E>>>,
    /// Bit `b` set when `far[b]` is not empty.
    occupied: u64,
    /// The time the buckets are relative to: the earliest pending time when `near` was
    /// last refilled (never after a pending event).
    last: u64,
}

impl<E> Default for RadixHeap<E> {
    fn default() -> Self {
        RadixHeap {
            near: VecDeque::new(),
            far: (0..BUCKETS).map(|_| Vec::new()).collect(),
            occupied: 0,
            last: 0,
        }
    }
}

impl<E> RadixHeap<E> {
    /// Adds an event at or after the last time popped.
    #[inline]
    pub(super) fn push(&mut self, s: Scheduled<E>) {
        debug_assert!(s.at >= self.last, "radix heap: time before the last popped");
        let diff = s.at ^ self.last;
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
        let min = self.far[b].iter().map(|s| s.at).min()?;
        Some((b, min))
    }

    /// Time of the earliest event.
    pub(super) fn peek_time(&self) -> Option<u64> {
        match self.near.front() {
            Some(s) => Some(s.at),
            None => self.lowest_far().map(|(_, t)| t),
        }
    }

    /// Removes the earliest event if it is at or before `limit`.
    pub(super) fn pop_until(&mut self, limit: u64) -> Option<Scheduled<E>> {
        if self.near.is_empty() {
            let (b, min) = self.lowest_far()?;
            if min > limit {
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
                self.push(s);
            }
            self.far[b] = moving;
        }
        if self.near.front()?.at > limit {
            return None;
        }
        self.near.pop_front()
    }
}
