//! Pipeline stages a switch architecture composes (the InfiniBand-like switch
//! [`super::infiniband`] uses all of them; a hierarchical switch reuses them per stage):
//! - [`input_buffer`]: one FIFO of routed headers per input port and lane, in a buffer
//!   whose space the lanes share under the network's credit policy (a minimum and a
//!   maximum per lane, or an equal share each);
//! - [`vl_allocation`]: per input, round robin among the lanes whose head is routed and
//!   may move;
//! - [`switch_allocation`]: per output, round robin among the inputs that won their VL
//!   allocation for it; which crossbar inputs and outputs are busy;
//! - [`allocation`]: one round of both allocations over any crossbar, the switch
//!   saying which crossbar output each head would take now;
//! - [`output_buffer`]: the room per output port and lane the crossbar writes into,
//!   shared among the lanes like the input buffer. The output scheduler that drains it
//!   is the fabric's output port (any [`crate::schedulers::Scheduler`] over its queues);
//! - [`crossbar_timing`]: the timing the CIOQ and two-VC switches wrap around their
//!   crossbars (header time, cut-through transfers at the crossbar rate, their end);
//! - [`shared_ports`]: the rate, cycle and credits a switch of such buffers derives
//!   from its config, and the [`super::SwitchModel`] accessors reporting them.

pub mod allocation;
pub mod credit_table;
pub mod crossbar_timing;
pub mod input_buffer;
pub mod output_buffer;
pub mod shared_ports;
pub mod switch_allocation;
pub mod vl_allocation;

use crate::network::lanes::CreditPolicyConfig;

/// A buffer of `total` credits for `lanes` lanes under `policy`: an equal share of
/// `total / lanes` each, or shared with the policy's minimum and maximum per lane. The
/// switches keep theirs in a [`credit_table::CreditTable`]; the fabric keeps one of these
/// per port upstream of a switch input, and the tests model upstream senders with them.
pub fn port_buffer(
    policy: &CreditPolicyConfig,
    lanes: u16,
    total: u32,
) -> crate::network::lanes::LaneCredits {
    let lanes = usize::from(lanes.max(1));
    match policy {
        CreditPolicyConfig::PerLane => {
            crate::network::lanes::LaneCredits::per_lane(lanes, total / lanes as u32)
        }
        CreditPolicyConfig::Shared(c) => crate::network::lanes::LaneCredits::shared(
            lanes,
            total,
            c.min_credits(),
            c.max_credits(),
        ),
    }
}

/// Most credits one lane of a buffer of `total` credits may hold under `policy`.
pub fn lane_limit(policy: &CreditPolicyConfig, lanes: u16, total: u32) -> u32 {
    match policy {
        CreditPolicyConfig::PerLane => total / u32::from(lanes.max(1)),
        CreditPolicyConfig::Shared(c) => c.max_credits().min(total),
    }
}

/// The set bits of `mask`, starting at bit `start` and wrapping around (round-robin
/// order from `start`).
#[inline]
pub fn rotated_bits(mask: u64, start: u32) -> impl Iterator<Item = u32> {
    // Rotating the mask right by `start` puts bits `start..64` first and `0..start`
    // after them, each in increasing order: one loop over one word gives the
    // round-robin order (two chained loops, high bits then low, cost more per bit).
    let start = start.min(63);
    let mut rotated = mask.rotate_right(start);
    std::iter::from_fn(move || {
        if rotated == 0 {
            return None;
        }
        let b = rotated.trailing_zeros();
        rotated &= rotated - 1;
        Some((b + start) & 63)
    })
}

/// The set bits of `mask`, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let b = mask.trailing_zeros();
        mask &= mask - 1;
        Some(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The rotated loop gives the set bits from `start` up, then from 0 up to
        /// `start` (the order of two chained passes), for any mask and start.
        #[test]
        fn rotated_bits_is_the_wrapped_scan(mask in proptest::num::u64::ANY, start in 0u32..70) {
            let from = start.min(63);
            let want: Vec<u32> = (from..64).chain(0..from).filter(|&b| mask >> b & 1 == 1).collect();
            proptest::prop_assert_eq!(rotated_bits(mask, start).collect::<Vec<_>>(), want);
        }
    }

    #[test]
    fn rotated_bits_start_at_the_pointer_and_wrap() {
        let order: Vec<u32> = rotated_bits(0b1011_0101, 3).collect();
        assert_eq!(order, vec![4, 5, 7, 0, 2]);
        assert_eq!(rotated_bits(0, 5).count(), 0);
        assert_eq!(rotated_bits(1 << 63, 63).collect::<Vec<_>>(), vec![63]);
    }
}
