//! The InfiniBand-like switch (`shared/spec/30-network.md`, switch architecture 2 and
//! "InfiniBand-like switch pipeline"), built from the shared pipeline stages
//! ([`super::stages`]):
//!
//! ```text
//!  link ─► input buffer ─► routing unit ─► VL allocation ─► switch allocation ─► crossbar ─► output buffer ─► output scheduler ─► link
//!          (shared by     (destination,    (per input,      (per output,        (speedup)   (shared by       (the fabric's port:
//!           the VLs)       SL2VL)           round robin      round robin                     the VLs)         VLArb, DTable, ...)
//!                                           over routed VLs) over the inputs)
//! ```
//! - **Time** counts in cycles of one 64-byte flit on a link (5.12 ns at 100 Gb/s);
//!   each stage takes its configured cycles ([`crate::scenario::StageCycles`], 1 each
//!   by default).
//! - **Input buffer, routing.** The fabric routes a header (output port and routing
//!   lane; the lane map gives the VL on the output link) and hands it over
//!   `input_buffer + routing + vl_allocation + switch_allocation` cycles after it
//!   arrived: the header then requests the crossbar. It joins the FIFO of its input VL
//!   in the port's input buffer, whose space the VLs share under the network's credit
//!   policy (the sender upstream only sends what fits).
//! - **VL allocation** (per input, [`super::stages::vl_allocation`]): among the VLs
//!   whose head is routed, bound for a crossbar output that is free and fitting the
//!   output buffer's lane it goes to, one is chosen round robin. A VL blocked by a full
//!   output lane or a busy output never blocks the others (*choice*: the allocator
//!   knows which outputs are busy; offering a head that cannot move would idle the
//!   input until that output frees).
//! - **Rounds.** Inputs that lost switch allocation try again in the next round at the
//!   same instant, with another VL if theirs lost its output: rounds repeat until one
//!   grants nothing (as an iterative separable allocator converging).
//! - **Switch allocation** (per output, [`super::stages::switch_allocation`]): among
//!   the free inputs whose VL winner requests it, one is granted round robin.
//!   Allocation runs whenever something changed (a header, a transfer ending, output
//!   space freed).
//! - **Crossbar.** A grant takes the output buffer space at once and starts a transfer
//!   at `speedup` times the link rate; it cannot end before the packet's tail has
//!   reached the input (virtual cut-through). Input and output of the crossbar are busy
//!   until it ends; then the input space is free (its credits go upstream).
//! - **SL2VL per output port.** The lane map gives every port's VL of each SL; the
//!   switch's `output_sl2vl` tables replace it at the ports they name (the output
//!   queue's lane in the output buffer and on the next link follows the port's table).
//! - **Output buffer.** The header is in the output queue `crossbar + output_buffer`
//!   cycles after the grant, the tail as long after the transfer's end; the fabric's
//!   output port then sends by its scheduler (a VL with a packet and credits
//!   downstream). Output space is free when the tail has left on the link.
//!
//! Unloaded, a header thus crosses an idle switch in the sum of the six stages' cycles
//! (6 cycles = 30.72 ns at 100 Gb/s by default) plus nothing else: the output port sends
//! at once.

use std::sync::Arc;

use super::stages::allocation::AllocationRound;
use super::stages::input_buffer::{InputBuffers, Routed};
use super::stages::output_buffer::OutputBuffers;
use super::stages::shared_ports::{SharedPorts, shared_port_accessors};
use super::stages::switch_allocation::SwitchAllocator;
use super::stages::vl_allocation::VlAllocator;
use super::{Header, SwitchAction, SwitchContext, SwitchModel, SwitchSetup, SwitchTimer};
use crate::error::EngineError;
use crate::scenario::InfinibandConfig;
use crate::time::Duration;

/// The InfiniBand-like switch behind the fabric's [`SwitchModel`] contract.
pub struct Infiniband {
    ports: u32,
    inputs: InputBuffers,
    vl: VlAllocator,
    sa: SwitchAllocator,
    outputs: OutputBuffers,
    /// Crossbar rate, cycle, header delay and buffer credits.
    shared: SharedPorts,
    /// Crossbar grant to the header in the output queue.
    to_output: Duration,
    /// Packets granted the crossbar and not yet in their output queue.
    in_flight: usize,
    /// The allocation rounds' scratch.
    round: AllocationRound,
    /// Tests: every round over every input, until one grants nothing (the allocation as
    /// first written), to compare with the rounds limited to what can move.
    #[cfg(test)]
    pub(super) exhaustive: bool,
}

impl Infiniband {
    /// An InfiniBand-like switch of `setup.ports` ports (at most 64) and `setup.lanes`
    /// VLs.
    pub fn new(config: &InfinibandConfig, setup: SwitchSetup) -> Result<Infiniband, EngineError> {
        let shared = SharedPorts::new(config.port_buffers(), &setup, config.cycles.to_crossbar())?;
        let ports = setup.ports;
        Ok(Infiniband {
            ports,
            inputs: InputBuffers::new(ports, shared.lanes, shared.input_total, &setup.credits),
            vl: VlAllocator::new(ports),
            sa: SwitchAllocator::new(ports),
            outputs: OutputBuffers::new(
                shared.lanes,
                config.output_lane_tables(ports, setup.routing_lanes, &setup.lane_of_queue),
                shared.output_total,
                &setup.credits,
            ),
            to_output: shared.cycles(config.cycles.to_output_queue()),
            shared,
            in_flight: 0,
            round: AllocationRound::new(ports, ports),
            #[cfg(test)]
            exhaustive: false,
        })
    }

    /// One allocation round after another until nothing more can be granted now: VL
    /// allocation at every free input, then switch allocation at every free output.
    ///
    /// Only inputs in `scan` can have a head that may move (the caller's promise: after
    /// every allocation no free input has one, so only what the event changed can), and
    /// after a round only its losers can (a grant only makes an input and an output busy
    /// and takes output space, which lets no other head move): each later round runs over
    /// the losers alone, and none is run when there are none. So the rounds grant what
    /// rounds over every input until one grants nothing would (a property test compares
    /// the two: `exhaustive`).
    fn allocate(&mut self, cx: &mut SwitchContext, scan: u64) {
        #[cfg(test)]
        if self.exhaustive {
            while self.allocation_round(cx, AllocationRound::every(self.ports)) {}
            return;
        }
        let mut scan = scan;
        while scan != 0 && self.allocation_round(cx, scan) {
            scan = self.round.losers;
        }
        debug_assert!(
            !self.could_grant(),
            "an input was left out of allocation with a head that may move"
        );
    }

    /// Whether a round over every input would grant anything now (a check of
    /// [`Infiniband::allocate`]'s promise, in debug builds).
    fn could_grant(&mut self) -> bool {
        let (sa, outputs) = (&self.sa, &self.outputs);
        let every = AllocationRound::every(self.ports);
        self.round
            .run(&self.inputs, 0, self.ports, every, &self.vl, sa, |_, h| {
                (!sa.output_busy(h.output) && outputs.fits(h.output, h.queue, h.credits))
                    .then_some(h.output)
            });
        !self.round.grants.is_empty()
    }

    /// One round over the inputs in `scan`; true when something was granted.
    fn allocation_round(&mut self, cx: &mut SwitchContext, scan: u64) -> bool {
        let (sa, outputs) = (&self.sa, &self.outputs);
        self.round
            .run(&self.inputs, 0, self.ports, scan, &self.vl, sa, |_, h| {
                (!sa.output_busy(h.output) && outputs.fits(h.output, h.queue, h.credits))
                    .then_some(h.output)
            });
        let grants = std::mem::take(&mut self.round.grants);
        let mut granted = false;
        for g in &grants {
            if let Some(r) = self.inputs.pop(g.input, g.lane) {
                self.start(cx, g.input, g.lane as u16, r);
                granted = true;
            }
        }
        self.round.grants = grants;
        granted
    }

    /// Starts the crossbar transfer of `r` from `lane` of `input`.
    fn start(&mut self, cx: &mut SwitchContext, input: u32, lane: u16, r: Routed) {
        self.sa.grant(input, r.output);
        self.vl.granted(input, u32::from(lane));
        let taken = self.outputs.take(r.output, r.queue, r.credits);
        debug_assert!(taken, "VL allocation offers only heads that fit");
        let packet = cx.pool.get_mut(r.packet);
        let end =
            (cx.now + self.shared.rate.transmission_time(u64::from(packet.bytes))).max(packet.tail);
        packet.tail = end + self.to_output;
        cx.actions.push(SwitchAction::Wake {
            at: end,
            timer: Timer::Done {
                input,
                output: r.output,
                lane,
                credits: r.credits,
            }
            .encode(),
        });
        if self.to_output.as_ps() == 0 {
            cx.actions.push(SwitchAction::Enqueue {
                output: r.output,
                queue: r.queue,
                packet: r.packet,
            });
        } else {
            self.in_flight += 1;
            cx.actions.push(SwitchAction::Wake {
                at: cx.now + self.to_output,
                timer: Timer::Arrive {
                    output: r.output,
                    queue: r.queue,
                    packet: r.packet,
                }
                .encode(),
            });
        }
    }

    /// Credits `lane` of `input`'s buffer holds (for tests and audits).
    pub fn input_in_use(&self, input: u32, lane: u16) -> u32 {
        self.inputs.in_use(input, lane)
    }

    /// Credits `lane` of `output`'s buffer holds.
    pub fn output_in_use(&self, output: u32, lane: u16) -> u32 {
        self.outputs.in_use(output, lane)
    }

    /// Headers that arrived at an input lane without room (zero in a correct run).
    pub fn input_overflows(&self) -> u64 {
        self.inputs.overflows()
    }
}

/// The switch's timed events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    /// A crossbar transfer has ended: input and output free, input space released.
    Done {
        input: u32,
        output: u32,
        lane: u16,
        credits: u32,
    },
    /// A granted packet's header has reached its output queue.
    Arrive {
        output: u32,
        queue: u16,
        packet: u32,
    },
}

const ARRIVE: u64 = 1 << 63;

impl Timer {
    fn encode(self) -> SwitchTimer {
        SwitchTimer(match self {
            Timer::Done {
                input,
                output,
                lane,
                credits,
            } => {
                u64::from(input & 0xff)
                    | u64::from(output & 0xff) << 8
                    | u64::from(lane) << 16
                    | u64::from(credits) << 32
            }
            Timer::Arrive {
                output,
                queue,
                packet,
            } => {
                ARRIVE | u64::from(packet) | u64::from(output & 0xff) << 32 | u64::from(queue) << 40
            }
        })
    }

    fn decode(t: SwitchTimer) -> Timer {
        let t = t.0;
        if t & ARRIVE != 0 {
            Timer::Arrive {
                packet: t as u32,
                output: (t >> 32) as u32 & 0xff,
                queue: (t >> 40) as u16,
            }
        } else {
            Timer::Done {
                input: t as u32 & 0xff,
                output: (t >> 8) as u32 & 0xff,
                lane: (t >> 16) as u16,
                credits: (t >> 32) as u32 & 0x7fff_ffff,
            }
        }
    }
}

impl SwitchModel for Infiniband {
    fn kind(&self) -> &'static str {
        "infiniband"
    }

    shared_port_accessors!(shared);

    fn output_lanes(&self, output: u32) -> Option<Arc<[u16]>> {
        Some(Arc::clone(self.outputs.table(output)))
    }

    fn on_header(&mut self, cx: &mut SwitchContext, header: Header) {
        let credits = cx.pool.get(header.packet).credits;
        self.inputs.push_header(&header, credits);
        // Only this input has a new head.
        self.allocate(cx, 1 << header.input);
    }

    fn on_timer(&mut self, cx: &mut SwitchContext, timer: SwitchTimer) {
        match Timer::decode(timer) {
            Timer::Done {
                input,
                output,
                lane,
                credits,
            } => {
                self.sa.release(input, output);
                self.inputs.release(input, lane, credits);
                cx.actions.push(SwitchAction::ReleaseInput {
                    input,
                    lane,
                    credits,
                });
                // The freed input may send any of its heads, the freed output take any
                // input's head for it; no other input's heads changed.
                let scan = 1 << input | self.inputs.inputs_with_head_for(output);
                self.allocate(cx, scan);
            }
            Timer::Arrive {
                output,
                queue,
                packet,
            } => {
                self.in_flight -= 1;
                cx.actions.push(SwitchAction::Enqueue {
                    output,
                    queue,
                    packet,
                });
            }
        }
    }

    fn input_released_by(&self, timer: SwitchTimer) -> Option<u32> {
        match Timer::decode(timer) {
            Timer::Done { input, .. } => Some(input),
            Timer::Arrive { .. } => None,
        }
    }

    fn on_output_freed(&mut self, cx: &mut SwitchContext, output: u32, lane: u16, credits: u32) {
        self.outputs.freed(output, lane, credits);
        // Only heads for the output may fit now.
        let scan = self.inputs.inputs_with_head_for(output);
        self.allocate(cx, scan);
    }

    fn queued(&self) -> usize {
        self.inputs.queued() + self.in_flight
    }
}

#[cfg(test)]
mod allocation_tests;
#[cfg(test)]
mod tests;
