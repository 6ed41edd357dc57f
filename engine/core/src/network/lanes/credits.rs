//! Credit policies: how a buffer's space is split among its lanes, as the sender that
//! feeds it counts it (credit-based flow control: a packet is sent only when its lane
//! has room for all of it).
//!
//! - **Per lane** (the default): each lane owns `capacity` credits.
//! - **Shared** (InfiniBand-style): the port's buffer of `lanes x capacity` credits is
//!   shared; each lane is guaranteed `min` credits and may hold at most `max`. A lane may
//!   take `c` more credits when its use stays at most `max` and the part of all lanes'
//!   use above their minimum fits in the shared part, `total - lanes x min`. A lane
//!   whose use is below its minimum draws on its reservation first, so no other lane can
//!   take it away: with `min` at least one largest packet, every lane can always accept
//!   a packet once it is empty, which keeps each routing's per-lane deadlock argument.

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use crate::network::CreditCounter;
use crate::scenario::tagged::tagged_enum;

/// How a switch input buffer's credits are split among lanes (`model.lanes.credits`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CreditPolicyConfig {
    /// Each lane has the switch's input buffer size to itself; the default.
    PerLane,
    /// One buffer per port (the switch's input buffer size times the lanes) shared by the
    /// lanes, with a minimum and a maximum per lane.
    Shared(SharedCreditsConfig),
}
tagged_enum!(CreditPolicyConfig, "credit policy", {
    "per_lane" => PerLane,
    "shared" => Shared(SharedCreditsConfig),
});

/// The limits of a shared buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct SharedCreditsConfig {
    /// Space reserved for each lane, in bytes (at least the largest packet).
    pub min_bytes: u32,
    /// Most space one lane may hold, in bytes (at least `min_bytes`, at most the port's
    /// buffer).
    pub max_bytes: u32,
}

impl SharedCreditsConfig {
    /// Space reserved for each lane, in credits.
    pub fn min_credits(&self) -> u32 {
        self.min_bytes / crate::network::CREDIT_BYTES
    }

    /// Most space one lane may hold, in credits.
    pub fn max_credits(&self) -> u32 {
        self.max_bytes / crate::network::CREDIT_BYTES
    }
}

/// The credits of one downstream buffer, per lane, under a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneCredits {
    /// Each lane its own counter.
    PerLane(LaneCounters),
    /// One shared buffer.
    Shared(SharedCredits),
}

/// A buffer shared among lanes with a minimum and a maximum per lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedCredits {
    used: Vec<u32>,
    limits: SharedLimits,
    /// Credits of the pool in use: the sum of `used - min` over lanes above their minimum.
    pool_used: u32,
}

/// The limits of a buffer shared among lanes, and the arithmetic of its accounts (also
/// used by the switches' flat credit tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SharedLimits {
    /// Reserved for each lane.
    pub(crate) min: u32,
    /// Most one lane may hold (at most the buffer).
    pub(crate) max: u32,
    /// Credits above the lanes' minimums: `total - lanes x min`.
    pub(crate) pool: u32,
}

impl SharedLimits {
    /// The limits of a buffer of `total` credits for `lanes` lanes, `min` reserved and at
    /// most `max` for each.
    pub(crate) fn new(lanes: usize, total: u32, min: u32, max: u32) -> SharedLimits {
        let reserved = (lanes as u32).saturating_mul(min);
        SharedLimits {
            min,
            max: max.min(total),
            pool: total.saturating_sub(reserved),
        }
    }

    /// Credits a lane holding `used` could take when `pool_used` of the pool is in use.
    #[inline]
    pub(crate) fn free(self, used: u32, pool_used: u32) -> u32 {
        let own = self.min.saturating_sub(used);
        (own + (self.pool - pool_used)).min(self.max.saturating_sub(used))
    }

    /// How much more of the pool a lane holds at `after` credits than at `before` (the
    /// pool's use goes up by it; down by `pool_share(after, before)`).
    #[inline]
    pub(crate) fn pool_share(self, before: u32, after: u32) -> u32 {
        after.saturating_sub(self.min) - before.saturating_sub(self.min)
    }
}

impl LaneCredits {
    /// Separate counters of `capacity` credits for `lanes` lanes.
    pub fn per_lane(lanes: usize, capacity: u32) -> LaneCredits {
        LaneCredits::PerLane(LaneCounters::new(lanes, capacity))
    }

    /// A shared buffer of `total` credits for `lanes` lanes, `min` reserved and at most
    /// `max` for each (the scenario was validated: `lanes x min <= total`, `min <= max`).
    pub fn shared(lanes: usize, total: u32, min: u32, max: u32) -> LaneCredits {
        LaneCredits::Shared(SharedCredits {
            used: vec![0; lanes],
            limits: SharedLimits::new(lanes, total, min, max),
            pool_used: 0,
        })
    }

    /// Credits lane `lane` could take now.
    pub fn free(&self, lane: usize) -> u32 {
        match self {
            LaneCredits::PerLane(c) => c[lane].free(),
            LaneCredits::Shared(s) => s.free(lane),
        }
    }

    /// Whether `credits` fit lane `lane` now.
    pub fn fits(&self, lane: usize, credits: u32) -> bool {
        credits <= self.free(lane)
    }

    /// Takes `credits` for lane `lane`; false (and nothing taken) when they do not fit.
    pub fn consume(&mut self, lane: usize, credits: u32) -> bool {
        match self {
            LaneCredits::PerLane(c) => c[lane].consume(credits),
            LaneCredits::Shared(s) => s.consume(lane, credits),
        }
    }

    /// Gives `credits` of lane `lane` back (never below zero use).
    pub fn give_back(&mut self, lane: usize, credits: u32) {
        match self {
            LaneCredits::PerLane(c) => c[lane].give_back(credits),
            LaneCredits::Shared(s) => s.give_back(lane, credits),
        }
    }

    /// Credits lane `lane` holds.
    pub fn in_use(&self, lane: usize) -> u32 {
        match self {
            LaneCredits::PerLane(c) => c[lane].in_use(),
            LaneCredits::Shared(s) => s.used[lane],
        }
    }
}

/// Lanes whose counters [`LaneCounters`] holds in place.
const IN_PLACE: usize = 4;

/// One counter per lane. Up to [`IN_PLACE`] lanes (the common case) the counters are held
/// in place, inside the output port, so a credit return or a send's credit check touches
/// no other cache line; with thousands of ports a separate heap block per port was a cache
/// miss per credit event. More lanes go on the heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneCounters {
    /// The first `lanes` counters are the lanes'; the rest stay at capacity 0.
    InPlace {
        /// The counters, lanes first.
        counters: [CreditCounter; IN_PLACE],
        /// Lanes in use.
        lanes: u8,
    },
    /// More lanes than fit in place.
    Heap(Vec<CreditCounter>),
}

impl LaneCounters {
    /// `lanes` counters of `capacity` credits.
    fn new(lanes: usize, capacity: u32) -> LaneCounters {
        if lanes <= IN_PLACE {
            let mut counters = [CreditCounter::new(0); IN_PLACE];
            for c in &mut counters[..lanes] {
                *c = CreditCounter::new(capacity);
            }
            LaneCounters::InPlace {
                counters,
                lanes: lanes as u8,
            }
        } else {
            LaneCounters::Heap(vec![CreditCounter::new(capacity); lanes])
        }
    }

    /// The counters, one per lane.
    fn as_slice(&self) -> &[CreditCounter] {
        match self {
            LaneCounters::InPlace { counters, lanes } => &counters[..usize::from(*lanes)],
            LaneCounters::Heap(v) => v,
        }
    }

    /// The counters, one per lane, mutably.
    fn as_mut_slice(&mut self) -> &mut [CreditCounter] {
        match self {
            LaneCounters::InPlace { counters, lanes } => &mut counters[..usize::from(*lanes)],
            LaneCounters::Heap(v) => v,
        }
    }
}

impl std::ops::Index<usize> for LaneCounters {
    type Output = CreditCounter;

    #[inline]
    fn index(&self, lane: usize) -> &CreditCounter {
        &self.as_slice()[lane]
    }
}

impl std::ops::IndexMut<usize> for LaneCounters {
    #[inline]
    fn index_mut(&mut self, lane: usize) -> &mut CreditCounter {
        &mut self.as_mut_slice()[lane]
    }
}

impl SharedCredits {
    fn free(&self, lane: usize) -> u32 {
        self.limits.free(self.used[lane], self.pool_used)
    }

    fn consume(&mut self, lane: usize, credits: u32) -> bool {
        if credits > self.free(lane) {
            return false;
        }
        let used = self.used[lane];
        self.used[lane] = used + credits;
        self.pool_used += self.limits.pool_share(used, used + credits);
        true
    }

    fn give_back(&mut self, lane: usize, credits: u32) {
        let used = self.used[lane];
        let after = used.saturating_sub(credits);
        self.used[lane] = after;
        self.pool_used -= self.limits.pool_share(after, used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In place (up to four lanes) and on the heap, the counters behave as a vector of
    /// counters: independent, each within its capacity, and a lane beyond the port's
    /// lanes is out of range.
    #[test]
    fn per_lane_counters_in_place_and_on_the_heap_act_as_a_vector() {
        for lanes in 1..=6 {
            let mut c = LaneCredits::per_lane(lanes, 5);
            let mut model = vec![CreditCounter::new(5); lanes];
            for step in 0..40 {
                let lane = (step * 7 + lanes) % lanes;
                let credits = (step % 4) as u32;
                if step % 3 == 0 {
                    c.give_back(lane, credits);
                    model[lane].give_back(credits);
                } else {
                    assert_eq!(c.consume(lane, credits), model[lane].consume(credits));
                }
                for (l, m) in model.iter().enumerate() {
                    assert_eq!(c.free(l), m.free(), "{lanes} lanes, lane {l}, step {step}");
                    assert_eq!(c.in_use(l), m.in_use());
                }
            }
            let beyond = std::panic::catch_unwind(|| LaneCredits::per_lane(lanes, 5).free(lanes));
            assert!(
                beyond.is_err(),
                "lane {lanes} of {lanes} must be out of range"
            );
        }
    }

    #[test]
    fn per_lane_counters_are_independent() {
        let mut c = LaneCredits::per_lane(2, 4);
        assert!(c.consume(0, 4));
        assert!(!c.consume(0, 1));
        assert_eq!(c.free(1), 4);
        c.give_back(0, 3);
        assert_eq!(c.free(0), 3);
    }

    /// Worked example: 3 lanes, 12 credits, 2 reserved each (pool of 6), at most 7 per lane.
    #[test]
    fn shared_reserves_minimums_and_caps_maximums() {
        let mut c = LaneCredits::shared(3, 12, 2, 7);
        assert_eq!(c.free(0), 7, "capped by the maximum");
        assert!(c.consume(0, 7)); // 2 own + 5 of the pool
        assert_eq!(c.free(1), 3, "own 2 + the pool's last 1");
        assert!(c.consume(1, 3));
        assert_eq!(c.free(2), 2, "lane 2 keeps its reservation");
        assert!(!c.consume(2, 3));
        assert!(c.consume(2, 2));
        assert_eq!((0..3).map(|l| c.free(l)).collect::<Vec<_>>(), vec![0, 0, 0]);
        c.give_back(0, 4);
        assert_eq!(c.in_use(0), 3);
        assert_eq!(
            c.free(1),
            4,
            "4 back: lane 1 at 3 may reach 7 - 3 = 4, the pool has 4 free"
        );
        c.give_back(1, 3);
        assert_eq!(c.free(1), 7, "own 2 + pool 5, capped at 7");
    }

    proptest::proptest! {
        /// Whatever the sequence of takes and returns: no lane above its maximum, the
        /// total within the buffer, a lane below its minimum can always take up to it,
        /// and `consume` succeeds exactly when `free` says the credits fit.
        #[test]
        fn shared_invariants_hold_for_random_sequences(
            lanes in 1usize..5,
            min in 0u32..5,
            extra in 0u32..20,
            max_pick in 0u32..1000,
            ops in proptest::collection::vec((0usize..5, proptest::bool::ANY, 0u32..6), 0..200),
        ) {
            let total = min * lanes as u32 + extra;
            let lo = min.max(1).min(total.max(1));
            let max = lo + max_pick % (total.max(1) - lo + 1);
            let mut c = LaneCredits::shared(lanes, total, min, max);
            let mut used = vec![0u32; lanes];
            for (lane, take, k) in ops {
                let lane = lane % lanes;
                if take {
                    let fits = c.free(lane) >= k;
                    proptest::prop_assert_eq!(c.consume(lane, k), fits);
                    if fits {
                        used[lane] += k;
                    }
                } else {
                    let k = k.min(used[lane]);
                    c.give_back(lane, k);
                    used[lane] -= k;
                }
                proptest::prop_assert!(used.iter().all(|&u| u <= max));
                proptest::prop_assert!(used.iter().sum::<u32>() <= total);
                for (l, &u) in used.iter().enumerate() {
                    proptest::prop_assert_eq!(c.in_use(l), u);
                    if u < min {
                        proptest::prop_assert!(c.free(l) >= (min - u).min(max - u));
                    }
                }
            }
        }
    }
}
