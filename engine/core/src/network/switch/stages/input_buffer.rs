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
use crate::network::lanes::{CreditPolicyConfig, LaneCredits};

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
pub struct InputBuffers {
    lanes: u32,
    /// `fifo[input * lanes + lane]`.
    fifo: Vec<VecDeque<Routed>>,
    /// Per input, bit `lane` set when that lane's FIFO is not empty.
    nonempty: Vec<u64>,
    /// Per input, the space held per lane.
    space: Vec<LaneCredits>,
    overflows: u64,
    queued: usize,
}

impl InputBuffers {
    /// Buffers of `total` credits for `ports` inputs of `lanes` lanes (at most 64)
    /// under `policy`.
    pub fn new(ports: u32, lanes: u16, total: u32, policy: &CreditPolicyConfig) -> InputBuffers {
        let l = u32::from(lanes.max(1));
        InputBuffers {
            lanes: l,
            fifo: vec![VecDeque::new(); (ports * l) as usize],
            nonempty: vec![0; ports as usize],
            space: (0..ports)
                .map(|_| super::port_buffer(policy, lanes, total))
                .collect(),
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
        self.space[input as usize].fits(usize::from(lane), credits)
    }

    /// Takes `credits` of `lane` at `input` ahead of the header (false, nothing taken,
    /// when they do not fit); [`InputBuffers::push_reserved`] queues the header later.
    pub fn reserve(&mut self, input: u32, lane: u16, credits: u32) -> bool {
        self.space[input as usize].consume(usize::from(lane), credits)
    }

    /// Queues a header whose space [`InputBuffers::reserve`] took.
    pub fn push_reserved(&mut self, input: u32, lane: u16, r: Routed) {
        self.fifo[(input * self.lanes + u32::from(lane)) as usize].push_back(r);
        self.nonempty[input as usize] |= 1 << lane;
        self.queued += 1;
    }

    /// The head of `lane` at `input`.
    pub fn head(&self, input: u32, lane: u32) -> Option<&Routed> {
        self.fifo[(input * self.lanes + lane) as usize].front()
    }

    /// Lanes of `input` with a head (bit per lane).
    pub fn heads(&self, input: u32) -> u64 {
        self.nonempty[input as usize]
    }

    /// Takes the head of `lane` at `input` out of its FIFO (it still holds its space
    /// until [`InputBuffers::release`]).
    pub fn pop(&mut self, input: u32, lane: u32) -> Option<Routed> {
        let f = &mut self.fifo[(input * self.lanes + lane) as usize];
        let r = f.pop_front()?;
        if f.is_empty() {
            self.nonempty[input as usize] &= !(1 << lane);
        }
        self.queued -= 1;
        Some(r)
    }

    /// A packet's tail has left `lane` of `input`: its `credits` are free again.
    pub fn release(&mut self, input: u32, lane: u16, credits: u32) {
        self.space[input as usize].give_back(usize::from(lane), credits);
    }

    /// Credits `lane` of `input` holds.
    pub fn in_use(&self, input: u32, lane: u16) -> u32 {
        self.space[input as usize].in_use(usize::from(lane))
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
