//! The discrete-event kernel: a time-ordered event queue with deterministic ties.
//!
//! Events with equal timestamps pop in the order they were scheduled, so a run never
//! depends on the queue's internals or hash order: the order is exactly (time,
//! insertion), as with the binary heap over (time, insertion number) this replaced (the
//! tests compare the queue with an ordered map).
//!
//! The queue is a *timing wheel* in front of a radix heap ([`radix`]). Time is cut into
//! slots of [`SLOT_PS`] ps; the wheel has [`SLOTS`] of them, from the slot of the clock
//! (the *current* slot) on. A queue for many more events at a time (a large network)
//! cuts its slots finer, 2 to 8 times, with as many more slots, so that a slot keeps
//! holding a few tens of events and the horizon stays the same
//! ([`EventQueue::with_finer_slots`]). An event within that horizon is pushed on its
//! slot's vector, O(1); an event beyond it waits in the radix heap and moves to its slot when the
//! horizon reaches it. When the clock enters a slot, its events stay in place and an
//! array of 8-byte keys (time within the slot, index in the slot) is sorted once, giving
//! the pop order (a slot holds tens of events at most network loads: about 20 at 64 end
//! points and load 0.5); an event scheduled into the current slot has its key inserted at
//! its place, except one at the clock's own time, which joins a FIFO that pops after the
//! slot's events at that time (a large group of ties would otherwise be moved by every
//! such insertion).
//! Only the slots holding events hold a buffer: a drained slot's buffer goes to a stack
//! of spares that the next slot to receive an event takes, keeping its capacity (no
//! buffer is regrown every time round the wheel, and the buffers in use stay in the
//! cache). A bitmap of non-empty slots (with a summary word) finds the next slot in two
//! find-first-set steps. So a pop costs no log n sift, as a binary heap's did, and an
//! event is moved once or twice instead of about log n times.
//!
//! Insertion order inside a slot holds because the events leaving the radix heap for a
//! slot do so (in their order) the moment the slot enters the horizon, before any event
//! can be scheduled into it directly.

mod radix;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use radix::RadixHeap;

use crate::time::SimTime;

/// A pending event: its time (ps) and its payload; its place in its slot or bucket keeps
/// its insertion order.
#[derive(Debug)]
struct Scheduled<E> {
    at: u64,
    event: E,
}

/// Bits of a time below the slot number: slots of 8 192 ps (about 8 ns). Measured on
/// the 64-end-point uniform scenario (paired CPU time): 1 ns slots x 4 096 were 16%
/// slower (each future slot's vector is a cache miss), 32 ns x 256 3% slower.
const SLOT_BITS: u32 = 13;
/// Width of a slot in ps.
pub const SLOT_PS: u64 = 1 << SLOT_BITS;
/// Slots of the wheel (a horizon of about 4.2 µs).
pub const SLOTS: usize = 512;
/// Most halvings of the slot width [`EventQueue::with_finer_slots`] takes: slots of
/// 1 024 ps, 4 096 of them (64 x 64: one summary word).
pub const MAX_FINER: u32 = 3;
/// Bitmap words of the finest wheel.
const MAX_WORDS: usize = (SLOTS << MAX_FINER) / 64;

/// A future-event list ordered by (time, insertion order).
#[derive(Debug)]
pub struct EventQueue<E> {
    /// `slots[n % slots.len()]`: the events of absolute slot `n`, for `cur <= n < cur +
    /// slots.len()`, in insertion order. The current slot's events stay where they are
    /// until it is drained ([`EventQueue::current`] gives their pop order). An empty
    /// slot holds no buffer (capacity 0): it takes one from `spare` for its first event
    /// and gives it back when drained.
    slots: Vec<Vec<Scheduled<E>>>,
    /// Empty buffers of drained slots, the most recently drained last (still in the
    /// cache when the next slot takes it). Only the slots with events hold a buffer, so
    /// the buffers in use are as many as the slots with events, a fraction of the wheel
    /// (its horizon is longer than most delays), and a buffer keeps the capacity it grew
    /// to: a slot of a large network reallocates only while the busiest visits grow.
    spare: Vec<Vec<Scheduled<E>>>,
    /// Pop-order keys ([`pop_key`]) of the current slot's events not yet popped,
    /// descending (the next event is the last key).
    current: Vec<u64>,
    /// Bit `i % 64` of `words[i / 64]` set when `slots[i]` is not empty.
    words: [u64; MAX_WORDS],
    /// Bits of a time below its slot number.
    bits: u32,
    /// `slots.len() - 1` (a power of two).
    mask: u64,
    /// Bit `w` set when `words[w]` is not zero.
    summary: u64,
    /// Absolute number (time >> `bits`) of the current slot.
    cur: u64,
    /// Events scheduled at the clock's own time, in insertion order: they pop after the
    /// events at that time already in the current slot (scheduled before the clock got
    /// there) and before any later event. Without it each would be inserted in front of
    /// the current slot's events at that time, moving all of them.
    ready: VecDeque<Scheduled<E>>,
    /// Events at or beyond the horizon (`cur + slots.len()` slots).
    overflow: RadixHeap<E>,
    /// Earliest time in `overflow`.
    overflow_min: Option<u64>,
    len: usize,
    now: SimTime,
    popped: u64,
    /// Whether entering a slot starts fetching the next occupied slot's events
    /// ([`EventQueue::warm_ahead`]).
    warm_ahead: bool,
}

/// Most events of the next slot [`EventQueue::warm_ahead`] starts fetching.
const WARM_AHEAD_EVENTS: usize = 48;

/// Bits of a pop-order key below the event's offset in its slot: the event's index in
/// the slot's vector (its insertion order there).
const INDEX_BITS: u32 = 32;

/// The pop-order key of the event at `index` in its slot (of `bits` bits of time): its
/// offset from the slot's start, then its index, so that keys order events by (time,
/// insertion), each key unique. Sorting 8-byte integers moves a third of the bytes of
/// sorting the 24-byte events themselves, and as the keys are unique an unstable sort
/// keeps ties in insertion order.
#[inline]
fn pop_key(at: u64, index: usize, bits: u32) -> u64 {
    debug_assert!(index < 1 << INDEX_BITS, "slot of more than 2^32 events");
    (at & in_slot(bits)) << INDEX_BITS | index as u64
}

/// The event's index in its slot, from its pop-order key ([`pop_key`]).
#[inline]
fn index_of(key: u64) -> usize {
    (key & ((1 << INDEX_BITS) - 1)) as usize
}

/// The bits of a time below its slot number, for slots of `bits` bits: its offset in
/// its slot.
#[inline]
fn in_slot(bits: u32) -> u64 {
    (1 << bits) - 1
}

/// Fills `order` with the pop-order keys of `slot` (held in insertion order, slots of
/// `bits` bits of time), descending: the next event to pop is the last key.
fn sort_keys<E>(slot: &[Scheduled<E>], order: &mut Vec<u64>, bits: u32) {
    order.clear();
    order.extend(slot.iter().enumerate().map(|(n, s)| pop_key(s.at, n, bits)));
    order.sort_unstable_by(|a, b| b.cmp(a));
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_finer_slots(0)
    }
}

impl<E> EventQueue<E> {
    /// An empty queue at time zero whose slots are `finer` times halved (at most
    /// [`MAX_FINER`]), with as many times more of them (the same horizon). A queue
    /// holding many events at a time (thousands of end points) keeps a few tens of
    /// events per slot this way, where the default slots would hold hundreds (each
    /// sorted when the clock enters it, and regrown after being given back).
    pub fn with_finer_slots(finer: u32) -> Self {
        let finer = finer.min(MAX_FINER);
        let slots = SLOTS << finer;
        EventQueue {
            slots: (0..slots).map(|_| Vec::new()).collect(),
            spare: Vec::new(),
            current: Vec::new(),
            words: [0; MAX_WORDS],
            bits: SLOT_BITS - finer,
            mask: slots as u64 - 1,
            summary: 0,
            cur: 0,
            ready: VecDeque::new(),
            overflow: RadixHeap::default(),
            overflow_min: None,
            len: 0,
            now: SimTime::ZERO,
            popped: 0,
            warm_ahead: false,
        }
    }

    /// The queue, entering each slot starting to fetch the events of the next occupied
    /// one ([`crate::cache_hint`]): in a large network the slot's buffer, written when
    /// its events were scheduled, has left the cache by the time the clock reaches it.
    /// Changes no order and no result.
    pub fn warm_ahead(self) -> Self {
        EventQueue {
            warm_ahead: true,
            ..self
        }
    }

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
    ///
    /// Inlined: nearly every event goes to a later slot of the wheel (a link, credit or
    /// switch delay ahead), a push and two bit sets; a call with its register saves cost
    /// as much again. The other cases are out of line ([`EventQueue::schedule_other`]).
    #[inline(always)]
    pub fn schedule(&mut self, at: SimTime, event: E) {
        let abs = at.0 >> self.bits;
        // Strictly after the current slot and before the horizon. The clock is in the
        // current slot or an earlier one, so such a time is after now (no clamp, not the
        // FIFO of ties with now).
        if abs.wrapping_sub(self.cur + 1) < self.mask {
            self.push_to_slot(abs, Scheduled { at: at.0, event });
        } else {
            self.schedule_other(at, event);
        }
    }

    /// The index in `slots` of absolute slot `abs`.
    #[inline(always)]
    fn wheel_index(&self, abs: u64) -> usize {
        (abs & self.mask) as usize
    }

    /// Appends `s` to the wheel's slot of absolute number `abs` (at most a horizon ahead).
    #[inline(always)]
    fn push_to_slot(&mut self, abs: u64, s: Scheduled<E>) {
        self.len += 1;
        let i = self.wheel_index(abs);
        self.push_at(i, s);
    }

    /// Appends `s` to `slots[i]`, giving the slot a spare buffer if it has none, and
    /// marks it occupied.
    #[inline(always)]
    fn push_at(&mut self, i: usize, s: Scheduled<E>) {
        let slot = &mut self.slots[i];
        if slot.capacity() == 0 {
            *slot = self.spare.pop().unwrap_or_default();
        }
        slot.push(s);
        self.words[i / 64] |= 1 << (i % 64);
        self.summary |= 1 << (i / 64);
    }

    /// [`EventQueue::schedule`] of an event at the clock's time or before (the FIFO), in
    /// the current slot, or beyond the horizon (the overflow).
    #[inline(never)]
    fn schedule_other(&mut self, at: SimTime, event: E) {
        let at = at.max(self.now).0;
        let s = Scheduled { at, event };
        if at == self.now.0 {
            self.len += 1;
            self.ready.push_back(s);
            return;
        }
        let abs = at >> self.bits;
        if abs > self.cur + self.mask {
            self.len += 1;
            self.overflow.push(s);
            self.overflow_min = Some(self.overflow_min.map_or(at, |m| m.min(at)));
            return;
        }
        if abs == self.cur {
            // After every key of an event at or before `at` (keys are unique).
            let slot = &self.slots[self.wheel_index(abs)];
            let key = pop_key(at, slot.len(), self.bits);
            let place = self.current.partition_point(|&k| k > key);
            self.current.insert(place, key);
        }
        self.push_to_slot(abs, s);
    }

    /// The first non-empty slot at or after index `from`, going round the wheel.
    fn next_occupied(&self, from: usize) -> Option<usize> {
        let w = from / 64;
        let here = self.words[w] & (u64::MAX << (from % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        let later = if w + 1 < self.slots.len() / 64 {
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

    /// The wheel's next non-empty slot after the current one: its index and its
    /// absolute number.
    fn next_on_wheel(&self) -> Option<(usize, u64)> {
        let here = self.wheel_index(self.cur);
        let i = self.next_occupied((here + 1) & self.mask as usize)?;
        Some((
            i,
            self.cur + ((i as u64).wrapping_sub(here as u64) & self.mask),
        ))
    }

    /// The next non-empty slot after the current one (absolute number) and its earliest
    /// time, from the wheel or else the overflow.
    fn next_slot(&self) -> Option<(u64, u64)> {
        match self.next_on_wheel() {
            Some((i, abs)) => {
                let at = self.slots[i].iter().map(|s| s.at).min()?;
                Some((abs, at))
            }
            None => self.overflow_min.map(|t| (t >> self.bits, t)),
        }
    }

    /// Time of the current slot's next event to pop.
    #[inline]
    fn current_next(&self) -> Option<u64> {
        let key = *self.current.last()?;
        Some(self.cur << self.bits | key >> INDEX_BITS)
    }

    /// The event the next pop takes from the current slot, if it holds one (an event
    /// at the clock's own time may pop first): what is about to be handled, for a model
    /// to start fetching its memory ([`crate::cache_hint`]). Changes nothing.
    #[inline]
    pub fn upcoming(&self) -> Option<&E> {
        let key = *self.current.last()?;
        let slot = &self.slots[self.wheel_index(self.cur)];
        slot.get(index_of(key)).map(|s| &s.event)
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        let slot = self.current_next();
        if !self.ready.is_empty() && slot.is_none_or(|at| at > self.now.0) {
            return Some(self.now);
        }
        if let Some(at) = slot {
            return Some(SimTime(at));
        }
        self.next_slot().map(|(_, t)| SimTime(t))
    }

    /// Pops the earliest event if it is at or before `limit`, advancing the clock.
    ///
    /// Inlined into the model's loop: the common case pops from the current slot or the
    /// FIFO; moving to the next slot is out of line ([`EventQueue::enter_next`]).
    #[inline]
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)>
    where
        E: Copy,
    {
        loop {
            let next = self.current_next();
            let slot_first = next == Some(self.now.0);
            if !slot_first && !self.ready.is_empty() {
                if self.now > limit {
                    return None;
                }
                let s = self.ready.pop_front()?;
                self.len -= 1;
                self.popped += 1;
                return Some((self.now, s.event));
            }
            if let Some(at) = next {
                if at > limit.0 {
                    return None;
                }
                let key = self.current.pop()?;
                let i = self.wheel_index(self.cur);
                let event = self.slots[i][index_of(key)].event;
                if self.current.is_empty() {
                    let mut drained = std::mem::take(&mut self.slots[i]);
                    drained.clear();
                    self.spare.push(drained);
                    self.clear(i);
                }
                self.len -= 1;
                self.now = SimTime(at);
                self.popped += 1;
                return Some((self.now, event));
            }
            if !self.enter_next(limit) {
                return None;
            }
        }
    }

    /// Enters the next occupied slot if its earliest event is at or before `limit`;
    /// false (nothing changed) otherwise.
    #[inline]
    fn enter_next(&mut self, limit: SimTime) -> bool {
        let abs = match self.next_on_wheel() {
            Some((i, abs)) => {
                // A slot that ends by `limit` (the common case: the limit is the run's
                // end) needs no scan for its earliest time: `enter` sorts it anyway.
                if (abs << self.bits | in_slot(self.bits)) > limit.0
                    && self.slots[i].iter().all(|s| s.at > limit.0)
                {
                    return false;
                }
                abs
            }
            None => match self.overflow_min {
                Some(t) if t <= limit.0 => t >> self.bits,
                _ => return false,
            },
        };
        self.enter(abs);
        true
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
    /// and sorts the slot. Out of line: it runs once per slot (about 20 events at 64
    /// end points), and inlined into a model's event loop it only crowds that loop
    /// (measured: 2 % more instructions at 64 end points when the compiler chose to).
    #[inline(never)]
    fn enter(&mut self, abs: u64) {
        self.cur = abs;
        let horizon = abs + self.mask + 1;
        while let Some(t) = self.overflow_min {
            if t >> self.bits >= horizon {
                break;
            }
            let Some(s) = self.overflow.pop_until(t) else {
                break;
            };
            let i = self.wheel_index(s.at >> self.bits);
            self.push_at(i, s);
            self.overflow_min = self.overflow.peek_time();
        }
        sort_keys(
            &self.slots[self.wheel_index(abs)],
            &mut self.current,
            self.bits,
        );
        if self.warm_ahead {
            if let Some((i, _)) = self.next_on_wheel() {
                // Its first events (the hardware's own prefetch follows a long slot).
                let slot = &self.slots[i];
                crate::cache_hint::prefetch_all(&slot[..slot.len().min(WARM_AHEAD_EVENTS)]);
            }
        }
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
