//! The Omni-Path-like hierarchical switch (`shared/spec/30-network.md`, switch
//! architecture 3 and "Omni-Path-like hierarchical switch"), built from the shared
//! pipeline stages ([`super::stages`]) used twice, once in each MPort and once in the
//! central crossbar:
//!
//! ```text
//!            MPort m (ports 4m .. 4m+3)                            central crossbar
//!  link ─► input buffer ─► routing ─► VL alloc. ─► local switch ─┬─► output buffer ─► output scheduler ─► link
//!          (shared by      (SL2SC,    (per input)  alloc. + 4x6   │   (own MPort: stays local)   (by SL, the fabric's port)
//!           the VLs)        SC2VL)                 crossbar       └─► central link (2 per MPort, buffered)
//!                                                                      ─► VL alloc. ─► central switch alloc. + 24x48 crossbar ─► output buffer
//! ```
//! - **Time** counts in cycles of one 64-byte flit on a link (5.12 ns at 100 Gb/s); each
//!   stage takes its configured cycles ([`crate::scenario::OmnipathSwitchConfig`]: the MPort's
//!   six as the InfiniBand-like switch's, the central crossbar's four), 1 each by
//!   default.
//! - **MPorts.** Port `p` belongs to MPort `p / 4` (a switch of 8 ports has 2 MPorts, one
//!   of 28 ports 7, one of 48 ports the reference 12).
//! - **Input buffer, routing.** As in the InfiniBand-like switch: the fabric routes a
//!   header (output port and routing lane) and hands it over after the input buffer,
//!   routing, VL allocation and switch allocation cycles; it joins the FIFO of its input
//!   VL in the port's buffer, shared by the VLs under the network's credit policy.
//! - **SL2SC, SC2VL, SC2SL** are the network's Omni-Path lane map (`model.lanes.map`,
//!   kind `"omnipath"`; the same tables at every device). **The SC changes at routing**:
//!   the routing unit gives the packet the SC of its SL on the routing lane it takes at
//!   this output (a torus's dateline lane is a second SC per SL, with its own VL), and
//!   SC2VL gives the VL of the output buffer and of the next link. Any other lane map
//!   works too (SL2VL, identity): the switch reads only each output queue's lane.
//! - **Local crossbar** (per MPort, 4 inputs x 6 outputs, [`super::stages::allocation`]):
//!   VL allocation per input, round robin among the VLs whose head may move now; switch
//!   allocation per crossbar output, round robin among the inputs. A head bound for a
//!   port of its own MPort requests that port's output buffer (free and with room for
//!   it: the traffic stays in the MPort); any other requests its input's central link
//!   (*choice*: ports `4m` and `4m + 2` send into the MPort's first link, `4m + 1` and
//!   `4m + 3` into the second, so the packets of one input and VL stay in order; free
//!   and with room in its central buffer), and only when its output buffer has room for
//!   it, which it then reserves (*choice*: so a packet in the central buffer never waits for downstream
//!   space, and the central FIFOs, shared by packets of every input, add no channel
//!   dependency: the routing's deadlock freedom carries over, as the flooded tori and
//!   trees of the fabric tests show; with FIFOs waiting for output space, a flooded
//!   ring deadlocks).
//! - **Central crossbar** (*choices*, the spec is silent): each MPort's 229 376 B are
//!   two buffers of 114 688 B, one per central link, shared by the VLs under the credit
//!   policy, with one FIFO per VL (the VL of the output queue); the space is taken when
//!   the local crossbar grants the transfer. The header is in its FIFO after the local
//!   crossbar's cycle and the central buffer's, VL allocation's and switch allocation's
//!   (one each), then faces allocation again: per central link, round robin among its
//!   VLs whose head's output is free; per output port, round robin among the central
//!   links. The central crossbar
//!   writes the output buffers through a port of its own, so an output buffer may take
//!   one packet from its MPort's local crossbar and one from the central crossbar at once.
//! - **Crossbars** (local, central links, central) move `speedup` flits per cycle (3 by
//!   default); a transfer cannot end before the packet's tail has reached the buffer it
//!   leaves (virtual cut-through). The input space is free when the local transfer ends
//!   (its credits go upstream), the central space when the central transfer ends.
//! - **Output buffer and scheduler.** As in the InfiniBand-like switch, the fabric's
//!   output port drains the output buffer by its scheduler, which arbitrates by SL and
//!   checks that SL's VLs for a packet and downstream credits; a DTable there is the
//!   Omni-Path adaptation (a dedicated table with a deficit counter per SL and one
//!   accumulated-weight register per output, [`crate::schedulers::DTable`]).
//!
//! Unloaded, a header crosses an idle switch in 6 cycles on an MPort-local path (input
//! buffer, routing, VL and switch allocation, local crossbar, output buffer) and in 10 on
//! a central path (those six plus central buffer, VL and switch allocation and the
//! central crossbar): 30.72 and 51.2 ns at 100 Gb/s.

use std::sync::Arc;

use super::stages::allocation::{AllocationRound, Grant};
use super::stages::input_buffer::{InputBuffers, Routed};
use super::stages::output_buffer::OutputBuffers;
use super::stages::shared_ports::{SharedPorts, shared_port_accessors};
use super::stages::switch_allocation::SwitchAllocator;
use super::stages::vl_allocation::VlAllocator;
use super::{Header, SwitchAction, SwitchContext, SwitchModel, SwitchSetup, SwitchTimer};
use crate::error::EngineError;
use crate::network::CREDIT_BYTES;
use crate::scenario::OmnipathSwitchConfig;
use crate::scenario::omnipath_config::{MPORT_LINKS, MPORT_PORTS};
use crate::time::{Duration, SimTime};

/// Outputs of a local crossbar: its MPort's ports, then its central links.
const LOCAL_OUTPUTS: u32 = MPORT_PORTS + MPORT_LINKS;

/// The Omni-Path-like switch behind the fabric's [`SwitchModel`] contract.
pub struct Omnipath {
    ports: u32,
    mports: u32,
    /// Per port, its input buffer.
    inputs: InputBuffers,
    vl: VlAllocator,
    /// Per MPort, its local crossbar (inputs: its ports; outputs: its ports, then its
    /// central links).
    local: Vec<SwitchAllocator>,
    local_round: AllocationRound,
    /// Per central link (`2m`, `2m + 1` of MPort `m`), its buffer, one FIFO per VL.
    central: InputBuffers,
    central_vl: VlAllocator,
    central_sa: SwitchAllocator,
    central_round: AllocationRound,
    outputs: OutputBuffers,
    /// Crossbar rate, cycle, header delay and port buffer credits.
    shared: SharedPorts,
    /// Local crossbar grant to the header in the output queue.
    to_output: Duration,
    /// Local crossbar grant to the header's request for the central crossbar.
    to_central: Duration,
    /// Central crossbar grant to the header in the output queue.
    central_to_output: Duration,
    /// Packets between two buffers (granted, header not yet in the next FIFO or queue).
    in_flight: usize,
    /// Tests: every MPort's local crossbar visited at every event (the allocation as
    /// first written), to compare with visiting those the event changed.
    #[cfg(test)]
    pub(super) exhaustive: bool,
    /// Pending timers by slot (the [`SwitchTimer`] is the slot), and the free slots.
    timers: Vec<Timer>,
    free_timers: Vec<u32>,
}

/// The switch's timed events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    /// A local crossbar transfer from `input` (crossbar output `to`) has ended.
    LocalDone {
        input: u32,
        to: u32,
        lane: u16,
        credits: u32,
    },
    /// A header has reached its FIFO at central link `link`.
    CentralHeader {
        link: u32,
        lane: u16,
        routed: Routed,
    },
    /// A central crossbar transfer from `link` to `output` has ended.
    CentralDone {
        link: u32,
        output: u32,
        lane: u16,
        credits: u32,
    },
    /// A header has reached its output queue.
    Arrive {
        output: u32,
        queue: u16,
        packet: u32,
    },
}

impl Omnipath {
    /// An Omni-Path-like switch of `setup.ports` ports (at most 64) and `setup.lanes` VLs.
    pub fn new(config: &OmnipathSwitchConfig, setup: SwitchSetup) -> Result<Omnipath, EngineError> {
        let c = &config.cycles;
        let cc = &config.central_cycles;
        let shared = SharedPorts::new(config.port_buffers(), &setup, c.to_crossbar())?;
        let cycles = |n: u64| shared.cycles(n);
        let lanes = shared.lanes;
        let ports = setup.ports;
        let mports = ports.div_ceil(MPORT_PORTS);
        let links = mports * MPORT_LINKS;
        let central_total = config.central_link_bytes() / CREDIT_BYTES;
        Ok(Omnipath {
            ports,
            mports,
            inputs: InputBuffers::new(ports, lanes, shared.input_total, &setup.credits),
            vl: VlAllocator::new(ports),
            local: (0..mports)
                .map(|_| SwitchAllocator::new(LOCAL_OUTPUTS))
                .collect(),
            local_round: AllocationRound::new(MPORT_PORTS, LOCAL_OUTPUTS),
            central: InputBuffers::new(links, lanes, central_total, &setup.credits),
            central_vl: VlAllocator::new(links),
            central_sa: SwitchAllocator::new(links.max(ports)),
            central_round: AllocationRound::new(links, ports),
            outputs: OutputBuffers::new(
                lanes,
                vec![Arc::clone(&setup.lane_of_queue); ports as usize],
                shared.output_total,
                &setup.credits,
            ),
            to_output: cycles(c.to_output_queue()),
            to_central: cycles(cc.to_central_request(c.crossbar)),
            central_to_output: cycles(u64::from(cc.crossbar) + u64::from(c.output_buffer)),
            shared,
            in_flight: 0,
            #[cfg(test)]
            exhaustive: false,
            timers: Vec::new(),
            free_timers: Vec::new(),
        })
    }

    /// The MPort of port `p`.
    pub fn mport(p: u32) -> u32 {
        p / MPORT_PORTS
    }

    /// The central link (0 or 1 of its MPort) input port `p` sends into: ports 4m and
    /// 4m + 2 the first, 4m + 1 and 4m + 3 the second.
    pub fn link_of(p: u32) -> u32 {
        (p % MPORT_PORTS) % MPORT_LINKS
    }

    /// When a transfer of packet `packet` starting now ends (not before its tail is in).
    fn transfer_end(&self, cx: &SwitchContext, packet: u32) -> SimTime {
        let p = cx.pool.get(packet);
        (cx.now + self.shared.rate.transmission_time(u64::from(p.bytes))).max(p.tail)
    }

    /// Starts local crossbar grant `g` of MPort `m`.
    fn start_local(&mut self, cx: &mut SwitchContext, m: u32, g: Grant) {
        let Some(r) = self.inputs.pop(g.input, g.lane) else {
            return;
        };
        let lane = g.lane as u16;
        self.local[m as usize].grant(g.input - m * MPORT_PORTS, g.output);
        self.vl.granted(g.input, g.lane);
        let end = self.transfer_end(cx, r.packet);
        self.wake(
            cx,
            end,
            Timer::LocalDone {
                input: g.input,
                to: g.output,
                lane,
                credits: r.credits,
            },
        );
        let taken = self.outputs.take(r.output, r.queue, r.credits);
        debug_assert!(taken, "the local crossbar grants only heads that fit");
        if g.output < MPORT_PORTS {
            self.enqueue_after(cx, r, end, self.to_output);
            return;
        }
        let l = g.output - MPORT_PORTS;
        let link = m * MPORT_LINKS + l;
        let out_lane = self.outputs.lane(r.output, r.queue);
        let taken = self.central.reserve(link, out_lane, r.credits);
        debug_assert!(taken, "the local crossbar grants only heads that fit");
        cx.pool.get_mut(r.packet).tail = end + self.to_central;
        let header = Timer::CentralHeader {
            link,
            lane: out_lane,
            routed: r,
        };
        if self.to_central.as_ps() == 0 {
            self.central.push_reserved(link, out_lane, r);
        } else {
            self.in_flight += 1;
            self.wake(cx, cx.now + self.to_central, header);
        }
    }

    /// Starts central crossbar grant `g`.
    fn start_central(&mut self, cx: &mut SwitchContext, g: Grant) {
        let Some(r) = self.central.pop(g.input, g.lane) else {
            return;
        };
        self.central_sa.grant(g.input, g.output);
        self.central_vl.granted(g.input, g.lane);
        let end = self.transfer_end(cx, r.packet);
        self.wake(
            cx,
            end,
            Timer::CentralDone {
                link: g.input,
                output: g.output,
                lane: g.lane as u16,
                credits: r.credits,
            },
        );
        self.enqueue_after(cx, r, end, self.central_to_output);
    }

    /// A packet whose transfer into its output buffer ends at `end` reaches its output
    /// queue `delay` after now (its tail `delay` after `end`).
    fn enqueue_after(&mut self, cx: &mut SwitchContext, r: Routed, end: SimTime, delay: Duration) {
        cx.pool.get_mut(r.packet).tail = end + delay;
        if delay.as_ps() == 0 {
            cx.actions.push(SwitchAction::Enqueue {
                output: r.output,
                queue: r.queue,
                packet: r.packet,
            });
        } else {
            self.in_flight += 1;
            let at = cx.now + delay;
            self.wake(
                cx,
                at,
                Timer::Arrive {
                    output: r.output,
                    queue: r.queue,
                    packet: r.packet,
                },
            );
        }
    }

    /// Asks the fabric for `timer` at `at`.
    fn wake(&mut self, cx: &mut SwitchContext, at: SimTime, timer: Timer) {
        let slot = match self.free_timers.pop() {
            Some(s) => {
                self.timers[s as usize] = timer;
                s
            }
            None => {
                self.timers.push(timer);
                (self.timers.len() - 1) as u32
            }
        };
        cx.actions.push(SwitchAction::Wake {
            at,
            timer: SwitchTimer(u64::from(slot)),
        });
    }

    /// Credits `lane` of `input`'s buffer holds.
    pub fn input_in_use(&self, input: u32, lane: u16) -> u32 {
        self.inputs.in_use(input, lane)
    }

    /// Credits `lane` of `output`'s buffer holds.
    pub fn output_in_use(&self, output: u32, lane: u16) -> u32 {
        self.outputs.in_use(output, lane)
    }

    /// Credits `lane` of central link `link`'s buffer holds.
    pub fn central_in_use(&self, link: u32, lane: u16) -> u32 {
        self.central.in_use(link, lane)
    }

    /// Headers that arrived at an input lane without room (zero in a correct run).
    pub fn input_overflows(&self) -> u64 {
        self.inputs.overflows() + self.central.overflows()
    }
}

impl SwitchModel for Omnipath {
    fn kind(&self) -> &'static str {
        "omnipath"
    }

    shared_port_accessors!(shared);

    fn on_header(&mut self, cx: &mut SwitchContext, header: Header) {
        let credits = cx.pool.get(header.packet).credits;
        self.inputs.push_header(&header, credits);
        self.allocate(cx, 1 << Self::mport(header.input));
    }

    fn input_released_by(&self, timer: SwitchTimer) -> Option<u32> {
        match self.timers.get(timer.0 as usize)? {
            Timer::LocalDone { input, .. } => Some(*input),
            Timer::CentralHeader { .. } | Timer::CentralDone { .. } | Timer::Arrive { .. } => None,
        }
    }

    fn on_timer(&mut self, cx: &mut SwitchContext, timer: SwitchTimer) {
        let slot = timer.0 as u32;
        let t = self.timers[slot as usize];
        self.free_timers.push(slot);
        // The MPorts whose local crossbar the timer changes.
        let changed = match t {
            Timer::LocalDone {
                input,
                to,
                lane,
                credits,
            } => {
                let m = Self::mport(input);
                self.local[m as usize].release(input - m * MPORT_PORTS, to);
                self.inputs.release(input, lane, credits);
                cx.actions.push(SwitchAction::ReleaseInput {
                    input,
                    lane,
                    credits,
                });
                1 << m
            }
            Timer::CentralHeader { link, lane, routed } => {
                // Its space was taken at the local grant: no local crossbar changes.
                self.in_flight -= 1;
                self.central.push_reserved(link, lane, routed);
                0
            }
            Timer::CentralDone {
                link,
                output,
                lane,
                credits,
            } => {
                self.central_sa.release(link, output);
                self.central.release(link, lane, credits);
                // Room on the link: its MPort's heads bound for it may move.
                1 << (link / MPORT_LINKS)
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
                return;
            }
        };
        self.allocate(cx, changed);
    }

    fn on_output_freed(&mut self, cx: &mut SwitchContext, output: u32, lane: u16, credits: u32) {
        self.outputs.freed(output, lane, credits);
        // Only heads bound for the output may fit now: the MPorts of the inputs with one.
        let mports = super::stages::bits(self.inputs.inputs_with_head_for(output))
            .fold(0u64, |m, input| m | 1 << Self::mport(input));
        self.allocate(cx, mports);
    }

    fn queued(&self) -> usize {
        self.inputs.queued() + self.central.queued() + self.in_flight
    }
}

mod allocation;
#[cfg(test)]
mod allocation_tests;
#[cfg(test)]
mod tests;
