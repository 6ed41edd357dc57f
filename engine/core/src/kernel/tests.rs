//! The event queue against an ordered map of (time, insertion number).

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
fn the_upcoming_event_is_the_next_to_pop() {
    let mut q = EventQueue::new();
    assert_eq!(q.upcoming(), None);
    for (t, e) in [(30, 'c'), (10, 'a'), (20, 'b')] {
        q.schedule(SimTime(t), e);
    }
    assert_eq!(q.pop_until(SimTime(u64::MAX)), Some((SimTime(10), 'a')));
    assert_eq!(q.upcoming(), Some(&'b'));
    assert_eq!(q.pop_until(SimTime(u64::MAX)), Some((SimTime(20), 'b')));
    assert_eq!(q.upcoming(), Some(&'c'));
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

/// Only the slots with events hold a buffer: a drained slot gives its buffer back for the
/// next slot to take, so a steady stream of events a few slots ahead, carried round the
/// wheel many times, uses a few buffers, not one per slot it passes through.
#[test]
fn drained_slots_give_their_buffers_back() {
    let mut q = EventQueue::new();
    let buffers =
        |q: &EventQueue<u32>| q.spare.len() + q.slots.iter().filter(|s| s.capacity() > 0).count();
    let ahead = 3 * SLOT_PS;
    q.schedule(SimTime(ahead), 0);
    for n in 1..(4 * SLOTS as u32) {
        let (now, _) = q.pop_until(SimTime(u64::MAX)).expect("one event pending");
        q.schedule(SimTime(now.0 + ahead), n);
        q.schedule(SimTime(now.0 + ahead + 1), n);
        let (_, _) = q.pop_until(SimTime(u64::MAX)).expect("two pending");
        assert!(buffers(&q) <= 5, "{} buffers after {n} rounds", buffers(&q));
    }
    // Every slot the events passed through was visited: none kept its buffer.
    while q.pop_until(SimTime(u64::MAX)).is_some() {}
    assert_eq!(q.slots.iter().filter(|s| s.capacity() > 0).count(), 0);
}

proptest! {
    /// The queue agrees with a plain ordered map keyed by (time, insertion number).
    #[test]
    fn matches_btreemap_model(
        ops in proptest::collection::vec((0u64..50, any::<bool>()), 1..300),
        scale in prop_oneof![Just(1u64), Just(1_000), Just(1 << 40)],
        limit_step in prop_oneof![Just(u64::MAX), 1u64..100],
        finer in 0..=MAX_FINER,
        warm in any::<bool>(),
    ) {
        let mut q = EventQueue::with_finer_slots(finer);
        if warm {
            q = q.warm_ahead();
        }
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
                // The upcoming event is pending, and only events at the clock's own
                // time pop before it.
                if let Some(&e) = q.upcoming() {
                    let before: Vec<u64> = model
                        .iter()
                        .take_while(|&(_, &v)| v != e)
                        .map(|(&(t, _), _)| t)
                        .collect();
                    prop_assert!(before.len() < model.len(), "op {}: upcoming not pending", i);
                    prop_assert!(before.iter().all(|&t| t == q.now().0), "op {}", i);
                }
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
        finer in 0..=MAX_FINER,
        warm in any::<bool>(),
    ) {
        let mut q = EventQueue::with_finer_slots(finer);
        if warm {
            q = q.warm_ahead();
        }
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

proptest! {
    /// Times around the wheel's slot and horizon boundaries (multiples of the slot width
    /// and of the horizon, give or take a little), where events move between the wheel
    /// and the overflow, for every slot width.
    #[test]
    fn matches_btreemap_model_at_wheel_boundaries(
        ops in proptest::collection::vec((0u64..3 * SLOTS as u64, 0u64..3, any::<bool>()), 1..3000),
        finer in 0..=MAX_FINER,
        warm in any::<bool>(),
    ) {
        let mut q = EventQueue::with_finer_slots(finer);
        if warm {
            q = q.warm_ahead();
        }
        let (slot_ps, slot_count) = (SLOT_PS >> finer, (SLOTS as u64) << finer);
        let mut model = BTreeMap::new();
        for (seq, (slots, jitter, pop)) in ops.into_iter().enumerate() {
            if pop {
                let limit = q.now().0 + slot_ps * slot_count;
                let got = q.pop_until(SimTime(limit));
                let want = match model.first_key_value() {
                    Some((&(at, _), _)) if at <= limit => {
                        model.pop_first().map(|((t, _), v)| (SimTime(t), v))
                    }
                    _ => None,
                };
                prop_assert_eq!(got, want);
            } else {
                // On a slot boundary, just after it, or at the slot's last ps.
                let slots = slots << finer;
                let t = q.now().0 + slots * slot_ps + [0, 1, slot_ps - 1][jitter as usize];
                q.schedule(SimTime(t), seq as u64);
                model.insert((t, seq as u64), seq as u64);
            }
            prop_assert_eq!(q.peek_time(), model.keys().next().map(|&(t, _)| SimTime(t)));
            prop_assert_eq!(q.len(), model.len());
        }
        while let Some(got) = q.pop_until(SimTime(u64::MAX)) {
            let ((t, _), v) = model.pop_first().expect("model has the event");
            prop_assert_eq!(got, (SimTime(t), v));
        }
        prop_assert!(model.is_empty());
    }
}

proptest! {
    /// `sort_keys` gives a slot's events in the order of a stable sort by time (ties in
    /// insertion order), read from the back, for slots small and large, with many ties,
    /// ascending, descending or shuffled schedules, anywhere in the slot.
    #[test]
    fn sort_keys_is_stable_sort_reversed(
        offsets in proptest::collection::vec(0u64..40, 0..200),
        order in 0u8..3,
        slot in 0u64..1 << 30,
        spread in prop_oneof![Just(1u64), Just(SLOT_PS / 40)],
        finer in 0..=MAX_FINER,
    ) {
        let bits = SLOT_BITS - finer;
        let spread = spread >> finer;
        let mut offsets = offsets;
        match order {
            0 => offsets.sort(),
            1 => offsets.sort_by(|a, b| b.cmp(a)),
            _ => {}
        }
        let events: Vec<Scheduled<usize>> = offsets
            .iter()
            .enumerate()
            .map(|(event, &o)| Scheduled { at: (slot << bits) + o * spread.max(1), event })
            .collect();
        let mut want: Vec<(u64, usize)> = events.iter().map(|s| (s.at, s.event)).collect();
        want.sort_by_key(|&(at, _)| at);
        let mut keys = vec![7, 7]; // stale keys of an earlier slot are dropped
        sort_keys(&events, &mut keys, bits);
        let got: Vec<(u64, usize)> = keys
            .iter()
            .rev()
            .map(|&k| {
                let s = &events[(k & ((1 << INDEX_BITS) - 1)) as usize];
                prop_assert_eq!(s.at, slot << bits | k >> INDEX_BITS);
                Ok((s.at, s.event))
            })
            .collect::<Result<_, _>>()?;
        prop_assert_eq!(got, want);
    }
}
