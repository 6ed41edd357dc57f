//! The space of a switch's buffers of one kind (its input buffers, or its output
//! buffers), every port's lanes under the same credit policy, in one flat array.
//!
//! The shared policy's arithmetic is [`SharedLimits`]'s, as for a `LaneCredits`. It
//! keeps exactly the accounts a [`LaneCredits`](crate::network::lanes::LaneCredits)
//! per port would keep (a property test drives both), but a port's counters lie side by
//! side in one array of the switch's: a shared buffer's per-lane use was a heap block of
//! its own per port, a cache miss on every check of a head in a large network.

use crate::network::lanes::CreditPolicyConfig;
use crate::network::lanes::credits::SharedLimits;

/// The lanes' space of `ports` buffers of one size and policy.
#[derive(Clone, Debug)]
pub struct CreditTable {
    lanes: usize,
    /// Words per port.
    stride: usize,
    /// Per port, `stride` words: with [`Policy::PerLane`] each lane's free credits; with
    /// [`Policy::Shared`] the credits of the pool in use (the sum over lanes of the use
    /// above the minimum), then each lane's use.
    words: Vec<u32>,
    policy: Policy,
}

/// How a port's space is split among its lanes.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Each lane has `capacity` credits to itself.
    PerLane { capacity: u32 },
    /// One buffer shared under these limits.
    Shared(SharedLimits),
}

impl CreditTable {
    /// `ports` buffers of `total` credits for `lanes` lanes under `policy`: an equal
    /// share of `total / lanes` each, or shared with the policy's minimum and maximum
    /// per lane (the scenario was validated: `lanes x min <= total`, `min <= max`).
    pub fn new(ports: u32, policy: &CreditPolicyConfig, lanes: u16, total: u32) -> CreditTable {
        let lanes = usize::from(lanes.max(1));
        let ports = ports as usize;
        match policy {
            CreditPolicyConfig::PerLane => {
                let capacity = total / lanes as u32;
                CreditTable {
                    lanes,
                    stride: lanes,
                    words: vec![capacity; ports * lanes],
                    policy: Policy::PerLane { capacity },
                }
            }
            CreditPolicyConfig::Shared(c) => {
                let limits = SharedLimits::new(lanes, total, c.min_credits(), c.max_credits());
                CreditTable {
                    lanes,
                    stride: 1 + lanes,
                    words: vec![0; ports * (1 + lanes)],
                    policy: Policy::Shared(limits),
                }
            }
        }
    }

    /// Index of `port`'s first word; `lane` must be one of its lanes.
    #[inline]
    fn base(&self, port: u32, lane: usize) -> usize {
        assert!(lane < self.lanes, "lane {lane} of {} lanes", self.lanes);
        port as usize * self.stride
    }

    /// Credits `lane` of `port` could take now.
    #[inline]
    pub fn free(&self, port: u32, lane: usize) -> u32 {
        self.free_at(self.base(port, lane), lane)
    }

    /// Credits `lane` of the port whose words start at `b` could take now.
    #[inline]
    fn free_at(&self, b: usize, lane: usize) -> u32 {
        match self.policy {
            Policy::PerLane { .. } => self.words[b + lane],
            Policy::Shared(limits) => limits.free(self.words[b + 1 + lane], self.words[b]),
        }
    }

    /// Whether `credits` fit `lane` of `port` now.
    #[inline]
    pub fn fits(&self, port: u32, lane: usize, credits: u32) -> bool {
        credits <= self.free(port, lane)
    }

    /// Takes `credits` for `lane` of `port`; false (and nothing taken) when they do not
    /// fit.
    #[inline]
    pub fn consume(&mut self, port: u32, lane: usize, credits: u32) -> bool {
        let b = self.base(port, lane);
        if credits > self.free_at(b, lane) {
            return false;
        }
        match self.policy {
            Policy::PerLane { .. } => self.words[b + lane] -= credits,
            Policy::Shared(limits) => {
                let used = self.words[b + 1 + lane];
                self.words[b + 1 + lane] = used + credits;
                self.words[b] += limits.pool_share(used, used + credits);
            }
        }
        true
    }

    /// Gives `credits` of `lane` of `port` back (never below zero use).
    #[inline]
    pub fn give_back(&mut self, port: u32, lane: usize, credits: u32) {
        let b = self.base(port, lane);
        match self.policy {
            Policy::PerLane { capacity } => {
                let free = &mut self.words[b + lane];
                *free = (*free + credits).min(capacity);
            }
            Policy::Shared(limits) => {
                let used = self.words[b + 1 + lane];
                let after = used.saturating_sub(credits);
                self.words[b + 1 + lane] = after;
                self.words[b] -= limits.pool_share(after, used);
            }
        }
    }

    /// Credits `lane` of `port` holds.
    pub fn in_use(&self, port: u32, lane: usize) -> u32 {
        let b = self.base(port, lane);
        match self.policy {
            Policy::PerLane { capacity } => capacity - self.words[b + lane],
            Policy::Shared(_) => self.words[b + 1 + lane],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CreditTable;
    use crate::network::lanes::CreditPolicyConfig;
    use crate::network::lanes::credits::SharedCreditsConfig;
    use crate::network::switch::stages::port_buffer;
    use proptest::prelude::*;

    proptest! {
        /// Under either policy, any takes and returns on any lanes of any ports keep the
        /// accounts of one `LaneCredits` per port: the same answers, free credits and use.
        #[test]
        fn keeps_the_accounts_of_a_lane_credits_per_port(
            shared in any::<bool>(),
            lanes in 1u16..6,
            min in 0u32..4,
            extra in 0u32..20,
            ops in prop::collection::vec((0u32..3, 0usize..6, any::<bool>(), 0u32..9), 0..200),
        ) {
            let ports = 3u32;
            let total = u32::from(lanes) * min + extra;
            let policy = if shared {
                CreditPolicyConfig::Shared(SharedCreditsConfig {
                    min_bytes: min * crate::network::CREDIT_BYTES,
                    max_bytes: (min + extra / 2) * crate::network::CREDIT_BYTES,
                })
            } else {
                CreditPolicyConfig::PerLane
            };
            let mut table = CreditTable::new(ports, &policy, lanes, total);
            let mut each: Vec<_> = (0..ports).map(|_| port_buffer(&policy, lanes, total)).collect();
            for (port, lane, take, credits) in ops {
                let lane = lane % usize::from(lanes);
                let one = &mut each[port as usize];
                if take {
                    prop_assert_eq!(table.consume(port, lane, credits), one.consume(lane, credits));
                } else {
                    table.give_back(port, lane, credits);
                    one.give_back(lane, credits);
                }
                for p in 0..ports {
                    for l in 0..usize::from(lanes) {
                        prop_assert_eq!(table.free(p, l), each[p as usize].free(l), "port {} lane {}", p, l);
                        prop_assert_eq!(table.in_use(p, l), each[p as usize].in_use(l));
                        prop_assert_eq!(table.fits(p, l, credits), each[p as usize].fits(l, credits));
                    }
                }
            }
        }
    }

    /// A lane beyond the port's lanes is out of range, as with `LaneCredits`.
    #[test]
    fn a_lane_beyond_the_ports_lanes_is_out_of_range() {
        let table = CreditTable::new(2, &CreditPolicyConfig::PerLane, 3, 30);
        assert!(std::panic::catch_unwind(|| table.free(0, 3)).is_err());
    }
}
