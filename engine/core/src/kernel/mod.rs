//! The discrete-event kernel: a time-ordered event queue with deterministic ties.
//!
//! Events with equal timestamps pop in the order they were scheduled, so a run never
//! depends on the queue's internals or hash order: the order is exactly (time,
//! insertion number), as with the binary heap over (time, insertion number) this
//! replaced (the tests compare the queue with an ordered map, and with the queue before
//! explicit insertion numbers).
//!
//! Every event carries its insertion number. A model may also *reserve* a number
//! ([`EventQueue::reserve`]) for an event it may not need, and schedule it later with
//! that number ([`EventQueue::schedule_reserved`]): the event then pops exactly where it
//! would have popped had it been scheduled when the number was reserved. The network
//! keeps credit returns in the upstream port this way and schedules a wake-up only when
//! the port waits for them ([`crate::network::fabric`]).
//!
//! The queue is a *timing wheel* in front of a radix heap ([`radix`]). Time is cut into
//! slots of [`SLOT_PS`] ps; the wheel has [`SLOTS`] of them, from the slot of the clock
//! (the *current* slot) on. An event within that horizon is pushed on its slot's vector,
//! O(1); an event beyond it waits in the radix heap and moves to its slot when the
//! horizon reaches it. When the clock enters a slot, the slot is sorted once by time
//! by (time, insertion number) (a slot holds tens of events at most network loads: about
//! 20 at 64 end points and load 0.5); an event scheduled into the current slot is
//! inserted at its place, except one at the clock's own time, which joins a FIFO merged
//! with the slot by insertion number (a large group of ties would otherwise be moved by
//! every such insertion).
//! A bitmap of non-empty slots (with a summary word) finds the next slot in two
//! find-first-set steps. So a pop costs no log n sift, as a binary heap's did, and an
//! event is moved once or twice instead of about log n times.

#[cfg(test)]
mod oracle;
mod radix;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use radix::RadixHeap;

use crate::time::SimTime;

/// A pending event: its time (ps), its insertion number and its payload.
#[derive(Debug)]
struct Scheduled<E> {
    at: u64,
    seq: u64,
    event: E,
}

impl<E> Scheduled<E> {
    /// The order key: (time, insertion number), unique per event.
    #[inline]
    fn key(&self) -> (u64, u64) {
        (self.at, self.seq)
    }
}

/// Bits of a time below the slot number: slots of 8 192 ps (about 8 ns). Measured on
/// the 64-end-point uniform scenario (paired CPU time): 1 ns slots x 4 096 were 16%
/// slower (each future slot's vector is a cache miss), 32 ns x 256 3% slower.
const SLOT_BITS: u32 = 13;
/// Width of a slot in ps.
pub const SLOT_PS: u64 = 1 << SLOT_BITS;
/// Slots of the wheel (a horizon of about 4.2 µs); at most 64 x 64 (one summary word).
pub const SLOTS: usize = 512;
/// Capacity a drained slot keeps (events): enough for small networks (about 20 events
/// a slot at 64 end points) never to reallocate; at 4 096 end points a slot holds about
/// 1 500 events at its peak, and keeping that in all 512 slots held 32 MB.
const SLOT_KEEP: usize = 64;
const MASK: u64 = SLOTS as u64 - 1;
const WORDS: usize = SLOTS / 64;

/// A future-event list ordered by (time, insertion order).
#[derive(Debug)]
pub struct EventQueue<E> {
    /// `slots[n % SLOTS]`: the events of absolute slot `n`, for `cur <= n < cur + SLOTS`.
    /// The current slot is sorted by (time, insertion number), descending (it pops from
    /// the back); the others are in no particular order.
    slots: Vec<Vec<Scheduled<E>>>,
    /// Bit `i % 64` of `words[i / 64]` set when `slots[i]` is not empty.
    words: [u64; WORDS],
    /// Bit `w` set when `words[w]` is not zero.
    summary: u64,
    /// Absolute number (time / [`SLOT_PS`]) of the current slot.
    cur: u64,
    /// Events scheduled (not reserved) at the clock's own time, in insertion order:
    /// merged by insertion number with the current slot's events at that time (those
    /// were scheduled before the clock got there, or reserved), before any later event.
    /// Without it each would be inserted in front of the current slot's events at that
    /// time, moving all of them.
    ready: VecDeque<Scheduled<E>>,
    /// Events at or beyond the horizon (`cur + SLOTS` slots).
    overflow: RadixHeap<E>,
    /// Earliest time in `overflow`.
    overflow_min: Option<u64>,
    len: usize,
    now: SimTime,
    /// Insertion number of the last popped event (0 before the first).
    now_seq: u64,
    /// The next insertion number (numbers start at 1).
    next_seq: u64,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            slots: (0..SLOTS).map(|_| Vec::new()).collect(),
            words: [0; WORDS],
            summary: 0,
            cur: 0,
            ready: VecDeque::new(),
            overflow: RadixHeap::default(),
            overflow_min: None,
            len: 0,
            now: SimTime::ZERO,
            now_seq: 0,
            next_seq: 1,
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

    /// The (time, insertion number) of the last popped event: an event reserved or
    /// scheduled with a smaller key would have popped before it.
    pub fn position(&self) -> (SimTime, u64) {
        (self.now, self.now_seq)
    }

    /// Takes the next insertion number without scheduling anything, for an event that
    /// may be scheduled later ([`EventQueue::schedule_reserved`]) or never.
    #[inline]
    pub fn reserve(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Schedules `event` at `at` with the insertion number `seq` taken earlier by
    /// [`EventQueue::reserve`]: it pops where it would have, had it been scheduled when
    /// the number was taken. The key (`at`, `seq`) must be after [`EventQueue::position`]
    /// and each reserved number used at most once.
    pub fn schedule_reserved(&mut self, at: SimTime, seq: u64, event: E) {
        debug_assert!(seq < self.next_seq, "event queue: number never reserved");
        debug_assert!(
            (at.0, seq) > (self.now.0, self.now_seq),
            "event queue: reserved event before the clock"
        );
        let at = at.max(self.now).0;
        self.len += 1;
        self.place(Scheduled { at, seq, event });
    }

    /// Number of events popped so far.
    pub fn events_processed(&self) -> u64 {
        self.popped
    }

    /// Schedules `event` at `at`. Times in the past are clamped to now, so the clock never
    /// runs backwards.
    #[inline]
    pub fn schedule(&mut self, at: SimTime, event: E) {
        let at = at.max(self.now).0;
        self.len += 1;
        let seq = self.reserve();
        let s = Scheduled { at, seq, event };
        if at == self.now.0 {
            self.ready.push_back(s);
            return;
        }
        self.place(s);
    }

    /// Puts `s` on the wheel (its slot, in order if it is the current one) or in the
    /// overflow.
    #[inline]
    fn place(&mut self, s: Scheduled<E>) {
        let at = s.at;
        let abs = at >> SLOT_BITS;
        if abs >= self.cur + SLOTS as u64 {
            self.overflow.push(s);
            self.overflow_min = Some(self.overflow_min.map_or(at, |m| m.min(at)));
            return;
        }
        let i = (abs & MASK) as usize;
        let slot = &mut self.slots[i];
        if abs == self.cur {
            // After every event already there with a smaller key.
            let key = s.key();
            let place = slot.partition_point(|e| e.key() > key);
            slot.insert(place, s);
        } else {
            slot.push(s);
        }
        self.words[i / 64] |= 1 << (i % 64);
        self.summary |= 1 << (i / 64);
    }

    /// The first non-empty slot at or after index `from`, going round the wheel.
    fn next_occupied(&self, from: usize) -> Option<usize> {
        let w = from / 64;
        let here = self.words[w] & (u64::MAX << (from % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        let later = if w + 1 < WORDS {
            self.summary & (u64::MAX << (w + 1))
        } else {
            0
        };
        let w = if later != 0 { later } else { self.summary };
        if w == 0 {
            return None;
        }
        let w = w.trailing_zeros() as usize;
        Some(w * 64 + self.words[w].trailing_zeros() as usize)
    }

    /// The next non-empty slot after the current one (absolute number) and its earliest
    /// time, from the wheel or else the overflow.
    fn next_slot(&self) -> Option<(u64, u64)> {
        let here = (self.cur & MASK) as usize;
        match self.next_occupied((here + 1) % SLOTS) {
            Some(i) => {
                let abs = self.cur + ((i as u64).wrapping_sub(here as u64) & MASK);
                let at = self.slots[i].iter().map(|s| s.at).min()?;
                Some((abs, at))
            }
            None => self.overflow_min.map(|t| (t >> SLOT_BITS, t)),
        }
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        let slot = self.slots[(self.cur & MASK) as usize].last();
        if !self.ready.is_empty() && slot.is_none_or(|s| s.at > self.now.0) {
            return Some(self.now);
        }
        if let Some(s) = slot {
            return Some(SimTime(s.at));
        }
        self.next_slot().map(|(_, t)| SimTime(t))
    }

    /// Pops the earliest event if it is at or before `limit`, advancing the clock.
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        loop {
            let i = (self.cur & MASK) as usize;
            let slot_first = self.slots[i].last().is_some_and(|s| {
                s.at == self.now.0 && self.ready.front().is_none_or(|r| s.seq < r.seq)
            });
            if !slot_first && !self.ready.is_empty() {
                if self.now > limit {
                    return None;
                }
                let s = self.ready.pop_front()?;
                self.len -= 1;
                self.now_seq = s.seq;
                self.popped += 1;
                return Some((self.now, s.event));
            }
            if let Some(s) = self.slots[i].last() {
                if s.at > limit.0 {
                    return None;
                }
                let s = self.slots[i].pop()?;
                if self.slots[i].is_empty() {
                    self.clear(i);
                    // A slot keeps the capacity of its busiest visit; with hundreds of
                    // events per slot (thousands of end points) that is most of the
                    // queue's memory, held by every slot of the wheel. Give back all but
                    // a small slot's worth when the slot is drained.
                    self.slots[i].shrink_to(SLOT_KEEP);
                }
                self.len -= 1;
                self.now = SimTime(s.at);
                self.now_seq = s.seq;
                self.popped += 1;
                return Some((self.now, s.event));
            }
            let (abs, at) = self.next_slot()?;
            if at > limit.0 {
                return None;
            }
            self.enter(abs);
        }
    }

    /// Marks slot `i` empty.
    fn clear(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
        if self.words[i / 64] == 0 {
            self.summary &= !(1 << (i / 64));
        }
    }

    /// Makes absolute slot `abs` (after the current one, holding the earliest event) the
    /// current slot: brings the overflow's events within the new horizon onto the wheel
    /// and sorts the slot.
    fn enter(&mut self, abs: u64) {
        self.cur = abs;
        let horizon = abs + SLOTS as u64;
        while let Some(t) = self.overflow_min {
            if t >> SLOT_BITS >= horizon {
                break;
            }
            let Some(s) = self.overflow.pop_until(t) else {
                break;
            };
            let i = ((s.at >> SLOT_BITS) & MASK) as usize;
            self.slots[i].push(s);
            self.words[i / 64] |= 1 << (i % 64);
            self.summary |= 1 << (i / 64);
            self.overflow_min = self.overflow.peek_time();
        }
        // Keys are unique, so an unstable sort gives the one order.
        let slot = &mut self.slots[(abs & MASK) as usize];
        slot.sort_unstable_by_key(|s| std::cmp::Reverse(s.key()));
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
