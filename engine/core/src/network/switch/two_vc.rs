//! The two-VC designs' switch (full QoS with two VCs at the switches, R4): the network
//! interfaces keep one VC per class and write each packet's priority level (7..0) into
//! it; the switch ports have a few VCs (two in the new designs: QoS and best effort; the
//! class-to-VC lane map puts each class on one), and the switch's arbiters respect the
//! priority the interfaces gave each packet.
//!
//! ```text
//!  input port i                       crossbar (speedup s)              output port o
//!  ┌ VC 0 FIFO ─► head ┐   pass 1: VC 0 heads   ┌ output buffer per VC ┐
//!  │ VC 1 FIFO ─► head ┘   pass 2: VC 1 heads ─►│ queues per class      │ ─► output scheduler ─► link
//!  (credits upstream per VC)  highest priority,  └──────────────────────┘   (switch_scheduler)
//!                             then round robin
//! ```
//! - **Input buffers.** One FIFO queue per input port and lane (VC, times the routing's
//!   lanes). Only its head may cross: head-of-line blocking inside a VC is part of the
//!   design (no virtual output queues).
//! - **Crossbar.** A transfer of a head from input `i` to output `o` may start when `i`
//!   and `o` are both free of other transfers and the output buffer of the packet's
//!   output lane has room for all of it (credits internal to the switch). The crossbar
//!   is arbitrated in passes by VC, VC 0 first: a lower VC has **absolute priority**,
//!   every head of it that can move is granted before any head of a higher VC. Within a
//!   pass, free outputs are visited round robin and each grants, among the free inputs
//!   whose head of that VC is bound for it and fits, the head with the highest packet
//!   priority level ([`VcArbitration::Priority`]), ties going round robin from the input
//!   after its last grant; with [`VcArbitration::RoundRobin`] (the traditional designs)
//!   the first such input in round-robin order, whatever its priority.
//! - **Timing and cut-through** as in the CIOQ switch (the shared
//!   [`super::stages::crossbar_timing`]): the header crosses after `header_crossing_ns`;
//!   the packet joins its output queue when its transfer starts; the transfer lasts
//!   `size / (s * r)` but cannot end before the tail has reached the input; input space
//!   (and the credits upstream) is freed when it ends; output space when the tail has
//!   left on the link.
//! - **Output.** The fabric's output port keeps a queue per class (SL) inside each VC's
//!   output buffer and its scheduler (`switch_scheduler`) is the output arbiter: the
//!   R4 presets use strict priority ranking classes by (VC, priority level), so the QoS
//!   VC wins over best effort and, within a VC, the highest-priority head goes.

use std::collections::VecDeque;
use std::sync::Arc;

use super::stages::crossbar_timing::{CrossbarTiming, Granted, crossbar_timing_accessors};
use super::stages::rotated_bits;
use super::{Header, SwitchContext, SwitchModel, SwitchSetup, SwitchTimer};
use crate::error::EngineError;
use crate::network::CreditCounter;
use crate::network::port::PacketPool;
use crate::scenario::{TwoVcConfig, VcArbitration};

/// The two-VC switch behind the fabric's [`SwitchModel`] contract: the crossbar state
/// ([`PriorityCrossbar`]) plus its timing.
pub struct TwoVc {
    crossbar: PriorityCrossbar,
    timing: CrossbarTiming,
}

impl TwoVc {
    /// A two-VC switch of `setup.ports` ports and `setup.lanes` lanes.
    pub fn new(config: &TwoVcConfig, setup: SwitchSetup) -> Result<TwoVc, EngineError> {
        let timing = CrossbarTiming::new(
            &setup,
            config.speedup,
            config.header_crossing_ns,
            config.input_buffer_bytes,
            config.output_buffer_bytes,
        )?;
        Ok(TwoVc {
            crossbar: PriorityCrossbar::new(
                setup.ports,
                setup.lane_of_queue,
                setup.lanes,
                setup.routing_lanes,
                config.arbitration,
                timing.output_credits,
            ),
            timing,
        })
    }

    /// Starts every crossbar transfer possible now (see the module documentation).
    fn arbitrate(&mut self, cx: &mut SwitchContext) {
        while let Some(g) = self.crossbar.grant(cx.pool) {
            self.timing.start(
                cx,
                Granted {
                    input: g.input,
                    in_lane: g.in_lane,
                    output: g.output,
                    queue: g.queue,
                    packet: g.packet,
                },
            );
        }
    }
}

impl SwitchModel for TwoVc {
    fn kind(&self) -> &'static str {
        "two_vc"
    }

    crossbar_timing_accessors!(timing);

    fn on_header(&mut self, cx: &mut SwitchContext, header: Header) {
        self.crossbar.enqueue(header);
        self.arbitrate(cx);
    }

    fn on_timer(&mut self, cx: &mut SwitchContext, timer: SwitchTimer) {
        let (input, output) = CrossbarTiming::ended(cx, timer);
        self.crossbar.transfer_done(input, output);
        self.arbitrate(cx);
    }

    fn on_output_freed(&mut self, cx: &mut SwitchContext, output: u32, lane: u16, credits: u32) {
        self.crossbar.output_freed(output, lane, credits);
        self.arbitrate(cx);
    }

    fn queued(&self) -> usize {
        self.crossbar.queued()
    }
}

/// A transfer the crossbar has just granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    /// Input port.
    pub input: u32,
    /// Lane of the input buffer the packet leaves.
    pub in_lane: u16,
    /// Output port.
    pub output: u32,
    /// Output queue.
    pub queue: u16,
    /// Packet handle.
    pub packet: u32,
}

/// A packet waiting in an input FIFO, routed.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    packet: u32,
    output: u32,
    queue: u16,
}

/// The input FIFOs, output buffer room and crossbar state of one two-VC switch.
pub struct PriorityCrossbar {
    ports: u32,
    lanes: u32,
    /// Routing lanes per VC (lane `l` is in VC `l / routing_lanes`).
    routing_lanes: u32,
    vcs: u32,
    arbitration: VcArbitration,
    lane_of_queue: Arc<[u16]>,
    /// `fifo[input * lanes + lane]`.
    fifo: Vec<VecDeque<Waiting>>,
    /// `want[vc * ports + output]`: bit `i` set when a head of VC `vc` at input `i` is
    /// bound for `output`.
    want: Vec<u64>,
    input_busy: u64,
    output_busy: u64,
    /// Per output, the input after the last one granted.
    next_input: Vec<u32>,
    /// The output to visit first in the next pass.
    next_output: u32,
    /// `output_room[output * lanes + lane]`.
    output_room: Vec<CreditCounter>,
}

impl PriorityCrossbar {
    /// A crossbar of `ports` ports (at most 64), `lanes` lanes per port in VCs of
    /// `routing_lanes` lanes, output buffers of `output_credits` per port and lane.
    pub fn new(
        ports: u32,
        lane_of_queue: Arc<[u16]>,
        lanes: u16,
        routing_lanes: u16,
        arbitration: VcArbitration,
        output_credits: u32,
    ) -> PriorityCrossbar {
        let p = ports as usize;
        let l = u32::from(lanes.max(1));
        let r = u32::from(routing_lanes.max(1));
        let vcs = l.div_ceil(r);
        PriorityCrossbar {
            ports,
            lanes: l,
            routing_lanes: r,
            vcs,
            arbitration,
            lane_of_queue,
            fifo: vec![VecDeque::new(); p * l as usize],
            want: vec![0; vcs as usize * p],
            input_busy: 0,
            output_busy: 0,
            next_input: vec![0; p],
            next_output: 0,
            output_room: vec![CreditCounter::new(output_credits); p * l as usize],
        }
    }

    /// Queues a routed header at the tail of its input lane's FIFO.
    pub fn enqueue(&mut self, h: Header) {
        let f = (h.input * self.lanes + u32::from(h.in_lane)) as usize;
        self.fifo[f].push_back(Waiting {
            packet: h.packet,
            output: h.output,
            queue: h.queue,
        });
        if self.fifo[f].len() == 1 {
            let vc = u32::from(h.in_lane) / self.routing_lanes;
            self.want[(vc * self.ports + h.output) as usize] |= 1 << h.input;
        }
    }

    /// Grants the next transfer, if any is possible now: VC by VC, lowest first; within
    /// a VC, outputs round robin, and for each the best fitting head (see the module
    /// documentation). Takes the packet out of its FIFO, marks input and output busy and
    /// takes the output buffer space.
    pub fn grant(&mut self, pool: &PacketPool) -> Option<Grant> {
        let p = self.ports;
        for vc in 0..self.vcs {
            let row = (vc * p) as usize;
            let mut outputs = 0u64;
            for o in 0..p {
                if self.want[row + o as usize] & !self.input_busy != 0 {
                    outputs |= 1 << o;
                }
            }
            outputs &= !self.output_busy;
            for output in rotated_bits(outputs, self.next_output) {
                let candidates = self.want[row + output as usize] & !self.input_busy;
                let Some((input, lane)) = self.pick(vc, output, candidates, pool) else {
                    continue;
                };
                if let Some(g) = self.take(input, lane, output, pool) {
                    return Some(g);
                }
            }
        }
        None
    }

    /// Among `candidates` (inputs with a head of `vc` for `output`), the input and lane
    /// whose head fits and wins: the highest priority level, first in round-robin order
    /// among equals (or just the first in round-robin order).
    fn pick(&self, vc: u32, output: u32, candidates: u64, pool: &PacketPool) -> Option<(u32, u32)> {
        let mut best: Option<(u8, u32, u32)> = None;
        for input in rotated_bits(candidates, self.next_input[output as usize]) {
            for lane in vc * self.routing_lanes..((vc + 1) * self.routing_lanes).min(self.lanes) {
                let Some(w) = self.fifo[(input * self.lanes + lane) as usize].front() else {
                    continue;
                };
                if w.output != output {
                    continue;
                }
                let packet = pool.get(w.packet);
                if !self.output_room[self.room_index(output, w.queue)].fits(packet.credits) {
                    continue;
                }
                let level = match self.arbitration {
                    VcArbitration::Priority => packet.priority,
                    VcArbitration::RoundRobin => return Some((input, lane)),
                };
                if best.is_none_or(|(b, _, _)| level > b) {
                    best = Some((level, input, lane));
                }
            }
        }
        best.map(|(_, input, lane)| (input, lane))
    }

    /// Starts the transfer of the head of (`input`, `lane`) to `output`.
    fn take(&mut self, input: u32, lane: u32, output: u32, pool: &PacketPool) -> Option<Grant> {
        let f = (input * self.lanes + lane) as usize;
        let w = self.fifo[f].pop_front()?;
        self.refresh_want(input, lane / self.routing_lanes);
        let room = self.room_index(output, w.queue);
        self.output_room[room].consume(pool.get(w.packet).credits);
        self.input_busy |= 1 << input;
        self.output_busy |= 1 << output;
        self.next_input[output as usize] = (input + 1) % self.ports;
        self.next_output = (output + 1) % self.ports;
        Some(Grant {
            input,
            in_lane: lane as u16,
            output,
            queue: w.queue,
            packet: w.packet,
        })
    }

    /// Recomputes `input`'s bits of `want` for VC `vc` from its lanes' heads.
    fn refresh_want(&mut self, input: u32, vc: u32) {
        let row = (vc * self.ports) as usize;
        for o in 0..self.ports as usize {
            self.want[row + o] &= !(1 << input);
        }
        for lane in vc * self.routing_lanes..((vc + 1) * self.routing_lanes).min(self.lanes) {
            if let Some(w) = self.fifo[(input * self.lanes + lane) as usize].front() {
                self.want[row + w.output as usize] |= 1 << input;
            }
        }
    }

    /// Index in `output_room` of the lane of `output`'s queue `queue`.
    fn room_index(&self, output: u32, queue: u16) -> usize {
        (output * self.lanes + u32::from(self.lane_of_queue[usize::from(queue)])) as usize
    }

    /// A transfer from `input` to `output` has ended: both are free again.
    pub fn transfer_done(&mut self, input: u32, output: u32) {
        self.input_busy &= !(1 << input);
        self.output_busy &= !(1 << output);
    }

    /// A packet of `lane` and `credits` has left the output buffer of `output`.
    pub fn output_freed(&mut self, output: u32, lane: u16, credits: u32) {
        self.output_room[(output * self.lanes + u32::from(lane)) as usize].give_back(credits);
    }

    /// Packets waiting in the input FIFOs.
    pub fn queued(&self) -> usize {
        self.fifo.iter().map(VecDeque::len).sum()
    }
}

#[cfg(test)]
mod tests;
