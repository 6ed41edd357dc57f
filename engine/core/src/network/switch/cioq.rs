//! The combined input-output queued (CIOQ) switch, Advanced Switching style: input
//! buffers with virtual output queues, a crossbar with speedup and round-robin
//! scheduling, and output buffers, each per port and lane; the virtual output queues and
//! the output queues are per output queue `q` (SL and routing lane, see
//! [`crate::network::lanes`]; with the identity map and one routing lane, `q` is the
//! class and its lane).
//!
//! ```text
//!  input port i, class c                crossbar (speedup s)          output port o
//!  ┌ input buffer (credits upstream) ┐                              ┌ output buffer ┐
//!  │  VOQ(i, o0, c)  VOQ(i, o1, c) ..│ ─► one transfer per input ─► │  class queues │ ─► scheduler ─► link
//!  └─────────────────────────────────┘    and per output at a time  └───────────────┘
//! ```
//! Timing of a packet (all links run at the link rate `r`, the crossbar at `s * r`):
//! - Its header reaches the input at the time the upstream port started sending it plus
//!   the link latency; its tail `size / r` later. It joins the virtual output queue of
//!   its output port (from the routing) and output queue after the **header crossing
//!   time** (routing and arbitration; 145 ns in the reference).
//! - **Crossbar.** A transfer of packet `p` from input `i` to output `o` may start when
//!   `i` and `o` are both free of other transfers and the output buffer of `p`'s output
//!   lane has room for all of `p` (credits internal to the switch, taken when the
//!   transfer starts). Each free output, visited in round-robin order, grants the next
//!   input (in round-robin order from the one after its last grant) that is free and has
//!   a head packet for it that fits; within that input, queues are visited round robin
//!   from the one after the last queue served on that (input, output) pair. A transfer lasts
//!   `size / (s * r)` but cannot end before the packet's tail has reached the input; the
//!   input and the output are busy until it ends.
//! - **Virtual cut-through.** The packet joins its output queue when the transfer
//!   *starts* (its header is in the output buffer), so the output scheduler may send it
//!   at once; its tail leaves the output no earlier than the transfer's end. Its input
//!   buffer space is freed, and its credits start back upstream, when the transfer ends
//!   (the tail has left the input buffer); its output buffer space is freed when its
//!   tail has left on the output link.
//!
//! So a packet crossing `h` idle switches over links of latency `L` from an idle
//! interface arrives completely `size / r + h * header_crossing + (h + 1) * L` after it
//! was generated: serialisation counts once, as cut-through allows.

mod voq;

use std::sync::Arc;

use voq::LinkedQueues;

use super::stages::crossbar_timing::{CrossbarTiming, Granted, crossbar_timing_accessors};
use super::stages::rotated_bits;
use super::{Header, SwitchContext, SwitchModel, SwitchSetup, SwitchTimer};
use crate::error::EngineError;
use crate::network::CreditCounter;
use crate::network::port::PacketPool;
use crate::scenario::CioqConfig;

/// The CIOQ architecture behind the fabric's [`SwitchModel`] contract: the crossbar
/// state ([`CioqSwitch`]) plus its timing.
pub struct Cioq {
    crossbar: CioqSwitch,
    timing: CrossbarTiming,
}

impl Cioq {
    /// A CIOQ switch of `setup.ports` ports, `setup.lanes` lanes and the output queues of
    /// `setup.lane_of_queue`.
    pub fn new(config: &CioqConfig, setup: SwitchSetup) -> Result<Cioq, EngineError> {
        let timing = CrossbarTiming::new(&setup, config.basics())?;
        Ok(Cioq {
            crossbar: CioqSwitch::new(
                setup.ports,
                setup.lane_of_queue,
                setup.lanes,
                timing.output_credits,
            ),
            timing,
        })
    }

    /// Starts the crossbar transfer of `g`: the packet joins its output queue at once
    /// (cut-through) and its transfer ends at `max(now + size / rate, tail)`.
    fn start(&mut self, cx: &mut SwitchContext, g: Grant) {
        // The VOQ's next packet is read when it is granted in turn: start fetching it.
        if let Some(next) = self.crossbar.front_packet(g.input, g.output, g.queue) {
            cx.pool.prefetch(next);
        }
        let in_lane = cx.pool.get(g.packet).lane;
        self.timing.start(
            cx,
            Granted {
                input: g.input,
                in_lane,
                output: g.output,
                queue: g.queue,
                packet: g.packet,
            },
        );
    }
}

impl SwitchModel for Cioq {
    fn kind(&self) -> &'static str {
        "cioq"
    }

    crossbar_timing_accessors!(timing);

    // The switch is settled between events (every event below arbitrates), so each
    // arbitrates incrementally: exactly the grants a full `grant_all` pass would make.
    fn on_header(&mut self, cx: &mut SwitchContext, header: Header) {
        let g = self.crossbar.enqueue_and_grant(
            header.input,
            header.output,
            header.queue,
            header.packet,
            cx.pool,
        );
        if let Some(g) = g {
            self.start(cx, g);
        }
    }

    fn on_timer(&mut self, cx: &mut SwitchContext, timer: SwitchTimer) {
        let (input, output) = CrossbarTiming::ended(cx, timer);
        let grants = self.crossbar.transfer_done_and_grant(input, output);
        for g in grants.into_iter().flatten() {
            self.start(cx, g);
        }
    }

    fn on_output_freed(&mut self, cx: &mut SwitchContext, output: u32, lane: u16, credits: u32) {
        let g = self.crossbar.output_freed_and_grant(output, lane, credits);
        if let Some(g) = g {
            self.start(cx, g);
        }
    }

    fn queued(&self) -> usize {
        self.crossbar.queued()
    }

    /// The pair's VOQs: `on_header` reads them first, and in a large network they have
    /// left the cache (a line or two per pair, thousands of pairs).
    fn warm_header(&self, input: u32, output: u32) {
        self.crossbar.warm_pair(input, output);
    }
}

/// What the crossbar keeps per output, side by side because a grant reads and writes
/// both (two vectors cost a second bounds check and cache line).
#[derive(Clone, Copy, Debug, Default)]
struct OutputState {
    /// Bit `i` set when input `i` holds a packet for this output.
    requests: u64,
    /// The input after the last one granted.
    next_input: u32,
}

/// A transfer the crossbar has just granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    /// Input port.
    pub input: u32,
    /// Output port.
    pub output: u32,
    /// Output queue.
    pub queue: u16,
    /// Packet handle.
    pub packet: u32,
}

/// The queues, buffers and crossbar state of one CIOQ switch (the output ports' queues and
/// schedulers live in the fabric's [`OutputPort`](crate::network::port::OutputPort)s).
#[derive(Clone, Debug)]
pub struct CioqSwitch {
    ports: u32,
    /// Output queues per port.
    queues: u32,
    /// Lanes per port.
    lanes: u32,
    /// Per output queue, its lane.
    lane_of_queue: Arc<[u16]>,
    /// Per lane, bit `q` set for each output queue `q` of that lane.
    queues_of_lane: Vec<u64>,
    /// The VOQs, one group per (input, output) pair (group `input * ports + output`,
    /// queue `queue`), which also keeps which of the pair's VOQs hold packets and its
    /// round-robin pointer (the queue after the last one served): a grant reads and
    /// writes both, in one cache line. Per packet, its handle in the low 32 bits and
    /// its credits in the high 32 (so the crossbar checks whether a head fits without
    /// reading the packet pool).
    voq: LinkedQueues,
    /// Per output, its requests and round-robin pointer.
    outputs: Vec<OutputState>,
    /// Bit `o` set when output `o`'s requests are not empty.
    requested: u64,
    input_busy: u64,
    output_busy: u64,
    /// The output to visit first in the next arbitration.
    next_output: u32,
    /// `output_room[output * lanes + lane]`: free space of the output buffer.
    output_room: Vec<CreditCounter>,
}

impl CioqSwitch {
    /// A switch of `ports` ports (at most 64), the output queues of `lane_of_queue` (at
    /// most 64) and `lanes` lanes, with output buffers of `output_credits` credits per
    /// port and lane.
    pub fn new(
        ports: u32,
        lane_of_queue: Arc<[u16]>,
        lanes: u16,
        output_credits: u32,
    ) -> CioqSwitch {
        let p = ports as usize;
        let c = lane_of_queue.len();
        let queues = c as u32;
        let mut queues_of_lane = vec![0u64; usize::from(lanes)];
        for (q, &lane) in lane_of_queue.iter().enumerate() {
            if let Some(m) = queues_of_lane.get_mut(usize::from(lane)) {
                *m |= 1 << q;
            }
        }
        CioqSwitch {
            ports,
            queues,
            lanes: u32::from(lanes),
            queues_of_lane,
            lane_of_queue,
            voq: LinkedQueues::new(p * p, c),
            outputs: vec![OutputState::default(); p],
            requested: 0,
            input_busy: 0,
            output_busy: 0,
            next_output: 0,
            output_room: vec![CreditCounter::new(output_credits); p * usize::from(lanes)],
        }
    }

    /// Queues packet `h` from `input` for queue `queue` of `output` (its header has
    /// crossed).
    pub fn enqueue(&mut self, input: u32, output: u32, queue: u16, h: u32, pool: &PacketPool) {
        self.enqueue_credits(input, output, queue, h, pool.get(h).credits);
    }

    /// [`CioqSwitch::enqueue`] of a packet of `credits` credits.
    fn enqueue_credits(&mut self, input: u32, output: u32, queue: u16, h: u32, credits: u32) {
        let pair = self.pair(input, output);
        let item = u64::from(credits) << 32 | u64::from(h);
        self.voq.push_back(pair, u32::from(queue), item);
        self.outputs[output as usize].requests |= 1 << input;
        self.requested |= 1 << output;
    }

    /// Grants the next transfer, if any is possible now (see the module documentation),
    /// taking the packet out of its VOQ, marking input and output busy and taking the
    /// output buffer space.
    pub fn grant(&mut self) -> Option<Grant> {
        let outputs = self.requested & !self.output_busy;
        if outputs == 0 || self.input_busy == self.all_ports() {
            return None;
        }
        rotated_bits(outputs, self.next_output).find_map(|o| self.grant_output(o))
    }

    /// Every transfer possible now, in the order repeated calls of [`CioqSwitch::grant`]
    /// would grant them, in one pass over the outputs (replacing `grants`). Equivalent
    /// because a grant only makes one more input and output busy: an output that found
    /// no free input with a fitting head earlier in the pass still finds none, so
    /// `grant`'s next call, which starts after the output just granted and comes round
    /// to them again, grants what the pass grants next; the pass saves that last lap,
    /// which finds nothing.
    pub fn grant_all(&mut self, grants: &mut Vec<Grant>) {
        grants.clear();
        let outputs = self.requested & !self.output_busy;
        if outputs == 0 {
            return;
        }
        let all = self.all_ports();
        for output in rotated_bits(outputs, self.next_output) {
            if self.input_busy == all {
                return;
            }
            if let Some(g) = self.grant_output(output) {
                grants.push(g);
            }
        }
    }

    // Incremental arbitration. The fabric arbitrates after every event that changes the
    // switch (a header crosses, a transfer ends, output buffer space frees), so before
    // each of them the switch is *settled*: `grant` would find nothing (every free,
    // requested output sees no free input with a fitting head). An event then can only
    // create grants that involve what it changed, and the methods below look only there;
    // each gives exactly what `grant_all` would give after the same change (a property
    // test drives both with random events).

    /// [`CioqSwitch::enqueue`], then the transfer that makes possible in a settled
    /// switch, if any: only the new packet can move, and only when its input and output
    /// are free and it is the head of its VOQ (a head already there did not fit).
    #[inline]
    pub fn enqueue_and_grant(
        &mut self,
        input: u32,
        output: u32,
        queue: u16,
        h: u32,
        pool: &PacketPool,
    ) -> Option<Grant> {
        let was_empty = self
            .voq
            .is_empty(self.pair(input, output), u32::from(queue));
        let credits = pool.get(h).credits;
        self.enqueue_credits(input, output, queue, h, credits);
        if !was_empty
            || self.input_busy & (1 << input) != 0
            || self.output_busy & (1 << output) != 0
        {
            return None;
        }
        let fits = self.output_room[self.room_index(output, queue)].fits(credits);
        if !fits {
            return None;
        }
        self.take(input, output, u32::from(queue))
    }

    /// [`CioqSwitch::transfer_done`], then every transfer that makes possible in a settled
    /// switch, in `grant_all`'s order: `output`, now free, may grant any free input;
    /// another free output only `input`, now free (its other free inputs had no fitting
    /// head before and still have none). So every grant involves `output` or `input`,
    /// each busy once granted: at most two, returned in an array rather than a vector.
    #[inline]
    pub fn transfer_done_and_grant(&mut self, input: u32, output: u32) -> [Option<Grant>; 2] {
        self.transfer_done(input, output);
        let mut grants = [None; 2];
        let mut made = 0;
        let outputs = self.requested & !self.output_busy;
        for o in rotated_bits(outputs, self.next_output) {
            let g = if o == output {
                self.grant_output(o)
            } else if (self.outputs[o as usize].requests & !self.input_busy) & (1 << input) != 0 {
                self.fitting_queue(input, o)
                    .and_then(|queue| self.take(input, o, queue))
            } else {
                continue;
            };
            if g.is_some() {
                grants[made] = g;
                made += 1;
                if made == grants.len() {
                    break;
                }
            }
        }
        grants
    }

    /// [`CioqSwitch::output_freed`], then the transfer that makes possible in a settled
    /// switch, if any: only `output` gained room, so only it can grant, and only a head
    /// of one of `lane`'s queues can have come to fit (the others saw no change in
    /// room, and did not fit before), so only those heads are examined: the first of
    /// them in round-robin order is the first of all that fit.
    #[inline]
    pub fn output_freed_and_grant(
        &mut self,
        output: u32,
        lane: u16,
        credits: u32,
    ) -> Option<Grant> {
        self.output_freed(output, lane, credits);
        if self.output_busy & (1 << output) != 0 {
            return None;
        }
        let queues = self.queues_of_lane[usize::from(lane)];
        self.grant_output_among(output, queues)
    }

    /// Grants `output` (free and requested) the next free input, round robin, with a
    /// head for it that fits, if any.
    fn grant_output(&mut self, output: u32) -> Option<Grant> {
        self.grant_output_among(output, u64::MAX)
    }

    /// [`CioqSwitch::grant_output`] looking only at the heads of the output queues in
    /// `queues` (a mask).
    fn grant_output_among(&mut self, output: u32, queues: u64) -> Option<Grant> {
        let arbiter = self.outputs[output as usize];
        let candidates = arbiter.requests & !self.input_busy;
        if candidates == 0 {
            return None;
        }
        let start = arbiter.next_input;
        rotated_bits(candidates, start).find_map(|input| {
            let queue = self.fitting_queue_among(input, output, queues)?;
            self.take(input, output, queue)
        })
    }

    /// Starts the transfer of the head of VOQ (`input`, `output`, `queue`), which fits:
    /// takes it out of its VOQ, marks input and output busy, takes the output buffer
    /// space and moves the round-robin pointers past it.
    #[inline]
    fn take(&mut self, input: u32, output: u32, queue: u32) -> Option<Grant> {
        let p = self.ports;
        let pair = self.pair(input, output);
        let item = self.voq.pop_front(pair, queue)?;
        let (h, credits) = (item as u32, (item >> 32) as u32);
        if self.voq.nonempty(pair) == 0 {
            self.outputs[output as usize].requests &= !(1 << input);
            if self.outputs[output as usize].requests == 0 {
                self.requested &= !(1 << output);
            }
        }
        let room = self.room_index(output, queue as u16);
        self.output_room[room].consume(credits);
        self.input_busy |= 1 << input;
        self.output_busy |= 1 << output;
        // The pointers wrap by a comparison: a `%` per pointer is a division per grant.
        self.outputs[output as usize].next_input = next_round_robin(input, p);
        self.voq
            .set_pointer(pair, next_round_robin(queue, self.queues));
        self.next_output = next_round_robin(output, p);
        Some(Grant {
            input,
            output,
            queue: queue as u16,
            packet: h,
        })
    }

    /// Starts fetching the (`input`, `output`) pair's VOQs ([`crate::cache_hint`]).
    pub fn warm_pair(&self, input: u32, output: u32) {
        if input < self.ports && output < self.ports {
            self.voq.warm_group(self.pair(input, output));
        }
    }

    /// The (`input`, `output`) pair's index: its group of VOQs.
    #[inline]
    fn pair(&self, input: u32, output: u32) -> usize {
        (input * self.ports + output) as usize
    }

    /// Index in `output_room` of the lane of `output`'s queue `queue`.
    fn room_index(&self, output: u32, queue: u16) -> usize {
        (output * self.lanes + u32::from(self.lane_of_queue[usize::from(queue)])) as usize
    }

    /// Bits of every port.
    fn all_ports(&self) -> u64 {
        if self.ports >= 64 {
            u64::MAX
        } else {
            (1 << self.ports) - 1
        }
    }

    /// The first queue, round robin from the pair's pointer, whose VOQ head fits the
    /// output buffer.
    fn fitting_queue(&self, input: u32, output: u32) -> Option<u32> {
        self.fitting_queue_among(input, output, u64::MAX)
    }

    /// [`CioqSwitch::fitting_queue`] among the output queues in `queues` (a mask).
    #[inline]
    fn fitting_queue_among(&self, input: u32, output: u32, queues: u64) -> Option<u32> {
        let pair = self.pair(input, output);
        let start = self.voq.pointer(pair);
        rotated_bits(self.voq.nonempty(pair) & queues, start).find(|&queue| {
            self.voq.front(pair, queue).is_some_and(|item| {
                self.output_room[self.room_index(output, queue as u16)].fits((item >> 32) as u32)
            })
        })
    }

    /// The packet at the head of VOQ (`input`, `output`, `queue`), if any.
    #[inline]
    pub fn front_packet(&self, input: u32, output: u32, queue: u16) -> Option<u32> {
        self.voq
            .front(self.pair(input, output), u32::from(queue))
            .map(|item| item as u32)
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

    /// Output buffer credits (free, capacity) of `output` and `lane`.
    pub fn output_room(&self, output: u32, lane: u16) -> (u32, u32) {
        let c = &self.output_room[(output * self.lanes + u32::from(lane)) as usize];
        (c.free(), c.capacity())
    }

    /// Packets waiting in the virtual output queues.
    pub fn queued(&self) -> usize {
        self.voq.len()
    }
}

/// The round-robin pointer after `served` among `count` (`(served + 1) % count`, for
/// `served < count`).
#[inline]
fn next_round_robin(served: u32, count: u32) -> u32 {
    let next = served + 1;
    if next == count { 0 } else { next }
}

#[cfg(test)]
mod tests;
