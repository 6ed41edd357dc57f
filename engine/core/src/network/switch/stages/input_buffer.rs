//! Input buffers: per input port one buffer whose space its lanes share under the
//! network's credit policy, holding one FIFO of routed headers per lane (head-of-line
//! blocking inside a lane is part of the model: only a lane's head may move).
//!
//! The sender upstream decides, from its credits, whether a packet may enter; this
//! buffer keeps its own account of the space (a packet holds it from its header's
//! arrival to its tail leaving) and counts every packet that would not have fit as an
//! overflow: zero in a correct run, whatever the policy's minimum and maximum.

use std::collections::VecDeque;

use super::super::Header;
use super::credit_table::CreditTable;
use crate::network::lanes::CreditPolicyConfig;

/// A routed header waiting at its input lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routed {
    /// Packet handle.
    pub packet: u32,
    /// Output port.
    pub output: u32,
    /// Output queue at that port.
    pub queue: u16,
    /// Size in credits.
    pub credits: u32,
}

/// The input buffers of one switch.
///
/// Each lane's head is held in place, in one array in which an input's lanes lie side by
/// side, and only the headers behind it in a `VecDeque` of the lane's own: an allocation
/// round reads the head of every lane with one, and at most loads a lane holds one
/// header or none, so the round reads an input's few lines of heads instead of a deque
/// header and its separate buffer per lane (two cache misses per lane in a large
/// network).
pub struct InputBuffers {
    lanes: u32,
    /// `first[input * lanes + lane]`: the lane's head, when its bit of the input's
    /// `heads` is set (else meaningless).
    first: Vec<Routed>,
    /// `behind[input * lanes + lane]`: the headers behind the head, first to last.
    behind: Vec<VecDeque<Routed>>,
    /// Per input, which lanes have a head and which have headers behind it.
    masks: Vec<LaneMasks>,
    /// Per input, the space held per lane.
    space: CreditTable,
    overflows: u64,
    queued: usize,
}

/// An input's lanes (a bit each) with a head, and with headers behind their head; and
/// the outputs its heads are for.
#[derive(Clone, Copy, Debug, Default)]
struct LaneMasks {
    heads: u64,
    behind: u64,
    outputs: u64,
}

/// The bit of `output` in [`LaneMasks::outputs`]; all bits for an output beyond 63 (a
/// head for it is then counted for every output, which only widens a scan).
#[inline]
fn output_bit(output: u32) -> u64 {
    1u64.checked_shl(output).unwrap_or(u64::MAX)
}

/// An unused head cell.
const NO_HEAD: Routed = Routed {
    packet: u32::MAX,
    output: u32::MAX,
    queue: u16::MAX,
    credits: 0,
};

impl InputBuffers {
    /// Buffers of `total` credits for `ports` inputs of `lanes` lanes (at most 64)
    /// under `policy`.
    pub fn new(ports: u32, lanes: u16, total: u32, policy: &CreditPolicyConfig) -> InputBuffers {
        let l = u32::from(lanes.max(1));
        InputBuffers {
            lanes: l,
            first: vec![NO_HEAD; (ports * l) as usize],
            behind: vec![VecDeque::new(); (ports * l) as usize],
            masks: vec![LaneMasks::default(); ports as usize],
            space: CreditTable::new(ports, policy, lanes, total),
            overflows: 0,
            queued: 0,
        }
    }

    /// A header of `r.credits` has arrived on `lane` of `input`: it takes its space and
    /// queues at the tail of the lane's FIFO (an overflow is counted when the space was
    /// not free; the packet is kept, nothing is ever dropped).
    pub fn push(&mut self, input: u32, lane: u16, r: Routed) {
        if !self.reserve(input, lane, r.credits) {
            self.overflows += 1;
        }
        self.push_reserved(input, lane, r);
    }

    /// Queues an arriving `header` at its input lane (its packet `credits` in size).
    pub fn push_header(&mut self, header: &Header, credits: u32) {
        let routed = Routed {
            packet: header.packet,
            output: header.output,
            queue: header.queue,
            credits,
        };
        self.push(header.input, header.in_lane, routed);
    }

    /// Whether `credits` fit `lane` of `input` now (for a buffer the switch itself fills,
    /// such as a central crossbar's: it reserves before it sends).
    pub fn fits(&self, input: u32, lane: u16, credits: u32) -> bool {
        self.space.fits(input, usize::from(lane), credits)
    }

    /// Takes `credits` of `lane` at `input` ahead of the header (false, nothing taken,
    /// when they do not fit); [`InputBuffers::push_reserved`] queues the header later.
    pub fn reserve(&mut self, input: u32, lane: u16, credits: u32) -> bool {
        self.space.consume(input, usize::from(lane), credits)
    }

    /// Queues a header whose space [`InputBuffers::reserve`] took.
    pub fn push_reserved(&mut self, input: u32, lane: u16, r: Routed) {
        let i = (input * self.lanes + u32::from(lane)) as usize;
        let bit = 1u64 << lane;
        let masks = &mut self.masks[input as usize];
        if masks.heads & bit == 0 {
            self.first[i] = r;
            masks.heads |= bit;
            masks.outputs |= output_bit(r.output);
        } else {
            self.behind[i].push_back(r);
            masks.behind |= bit;
        }
        self.queued += 1;
    }

    /// The head of `lane` at `input`.
    #[inline]
    pub fn head(&self, input: u32, lane: u32) -> Option<&Routed> {
        if self.masks.get(input as usize)?.heads & (1 << lane) == 0 {
            return None;
        }
        self.first.get((input * self.lanes + lane) as usize)
    }

    /// Lanes of `input` with a head (bit per lane).
    #[inline]
    pub fn heads(&self, input: u32) -> u64 {
        self.masks[input as usize].heads
    }

    /// Takes the head of `lane` at `input` out of its FIFO (it still holds its space
    /// until [`InputBuffers::release`]).
    pub fn pop(&mut self, input: u32, lane: u32) -> Option<Routed> {
        let i = (input * self.lanes + lane) as usize;
        let bit = 1u64 << lane;
        let masks = &mut self.masks[input as usize];
        if masks.heads & bit == 0 {
            return None;
        }
        let r = self.first[i];
        if masks.behind & bit == 0 {
            masks.heads &= !bit;
        } else {
            let behind = &mut self.behind[i];
            if let Some(next) = behind.pop_front() {
                self.first[i] = next;
            }
            if behind.is_empty() {
                masks.behind &= !bit;
            }
        }
        let first = (input * self.lanes) as usize;
        masks.outputs = super::bits(masks.heads)
            .map(|l| output_bit(self.first[first + l as usize].output))
            .fold(0, |m, b| m | b);
        self.queued -= 1;
        Some(r)
    }

    /// The inputs (a bit each) with a lane whose head is for `output`.
    #[inline]
    pub fn inputs_with_head_for(&self, output: u32) -> u64 {
        let bit = output_bit(output);
        self.masks
            .iter()
            .enumerate()
            .filter(|(_, m)| m.outputs & bit != 0)
            .fold(0, |inputs, (i, _)| {
                inputs | 1u64.checked_shl(i as u32).unwrap_or(0)
            })
    }

    /// A packet's tail has left `lane` of `input`: its `credits` are free again.
    pub fn release(&mut self, input: u32, lane: u16, credits: u32) {
        self.space.give_back(input, usize::from(lane), credits);
    }

    /// Credits `lane` of `input` holds.
    pub fn in_use(&self, input: u32, lane: u16) -> u32 {
        self.space.in_use(input, usize::from(lane))
    }

    /// Headers that arrived when their lane had no room for them (zero when every
    /// sender respects its credits).
    pub fn overflows(&self) -> u64 {
        self.overflows
    }

    /// Headers waiting in the FIFOs.
    pub fn queued(&self) -> usize {
        self.queued
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::{InputBuffers, Routed};
    use crate::network::lanes::CreditPolicyConfig;

    proptest::proptest! {
        /// Any pushes and pops on any lanes of any inputs behave as one `VecDeque` per
        /// lane: the same heads, popped headers, lane masks and count.
        #[test]
        fn behaves_as_a_deque_per_lane(
            ops in proptest::collection::vec((0u32..3, 0u32..5, proptest::bool::ANY, 0u32..1000), 0..300),
        ) {
            let (ports, lanes) = (3u32, 5u16);
            let mut buffers = InputBuffers::new(ports, lanes, 1 << 20, &CreditPolicyConfig::PerLane);
            let mut plain = vec![VecDeque::new(); (ports * u32::from(lanes)) as usize];
            for (input, lane, push, n) in ops {
                let deque = &mut plain[(input * u32::from(lanes) + lane) as usize];
                if push {
                    let r = Routed { packet: n, output: n % 7, queue: (n % 3) as u16, credits: 1 + n % 4 };
                    buffers.push_reserved(input, lane as u16, r);
                    deque.push_back(r);
                } else {
                    proptest::prop_assert_eq!(buffers.pop(input, lane), deque.pop_front());
                }
                for i in 0..ports {
                    let mut mask = 0u64;
                    for l in 0..u32::from(lanes) {
                        let d = &plain[(i * u32::from(lanes) + l) as usize];
                        proptest::prop_assert_eq!(buffers.head(i, l), d.front());
                        if !d.is_empty() {
                            mask |= 1 << l;
                        }
                    }
                    proptest::prop_assert_eq!(buffers.heads(i), mask);
                }
                for output in 0..7 {
                    let want = (0..ports).filter(|&i| {
                        (0..u32::from(lanes)).any(|l| plain[(i * u32::from(lanes) + l) as usize].front().is_some_and(|r| r.output == output))
                    }).fold(0u64, |m, i| m | 1 << i);
                    proptest::prop_assert_eq!(buffers.inputs_with_head_for(output), want, "output {}", output);
                }
                proptest::prop_assert_eq!(buffers.queued(), plain.iter().map(VecDeque::len).sum::<usize>());
            }
        }
    }
}
