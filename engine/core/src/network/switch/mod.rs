//! Switch architectures. Each is one module behind [`SwitchModel`]; the fabric
//! ([`super::NetworkSim`]) owns the event loop, the links, the credits returned upstream,
//! the output ports (queues, output schedulers, sending) and the measurements, and calls a
//! switch at three moments:
//! - [`SwitchModel::on_header`]: a routed packet's header has crossed an input (the
//!   fabric delays it by [`SwitchModel::header_delay`] after its arrival on the link);
//! - [`SwitchModel::on_timer`]: one of the switch's own timed events, asked for by a
//!   [`SwitchAction::Wake`], is due;
//! - [`SwitchModel::on_output_freed`]: a packet's tail has left an output buffer on its
//!   link.
//!
//! The switch answers by pushing [`SwitchAction`]s, which the fabric carries out in the
//! order given: put a packet into an output port's queue, free input buffer space (whose
//! credits go back upstream), or wake the switch later. Ports are the switch's local port
//! numbers. A packet occupies its input buffer on its *input lane* (the lane of the link
//! it came by) and is bound for an *output queue* (its SL and routing lane at the output
//! port), whose packets use the *output lane* `lane_of_queue[queue]` in the output
//! buffer and on the next link (see [`crate::network::lanes`]).
//!
//! Adding a switch architecture: a new file here implementing [`SwitchModel`], a variant
//! in [`crate::scenario::SwitchConfig`], and one line in the registry below (which
//! generates [`AnySwitch`], the enum the fabric holds, and [`build`]).

use super::port::PacketPool;
use crate::error::EngineError;
use crate::scenario::SwitchConfig;
use crate::time::{BitRate, Duration, SimTime};

#[cfg(test)]
mod any_switch_tests;
pub mod cioq;
pub mod infiniband;
pub mod omnipath;
mod registry;
pub mod stages;
#[cfg(test)]
pub(crate) mod test_rig;
pub mod two_vc;

/// A switch's own timed event, opaque to the fabric (each model encodes what it needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchTimer(pub u64);

/// What a switch asks the fabric to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchAction {
    /// Put `packet` into queue `queue` of output port `output` (its header is in the
    /// output buffer); the fabric tells the port's scheduler and tries to send.
    Enqueue {
        /// Local output port.
        output: u32,
        /// Output queue at that port.
        queue: u16,
        /// Packet handle.
        packet: u32,
    },
    /// A packet's tail has left the buffer of input `input`: `credits` of `lane` are free
    /// again and go back upstream.
    ReleaseInput {
        /// Local input port.
        input: u32,
        /// Lane of the buffer.
        lane: u16,
        /// Credits freed.
        credits: u32,
    },
    /// Call [`SwitchModel::on_timer`] with `timer` at `at`.
    Wake {
        /// When.
        at: SimTime,
        /// What.
        timer: SwitchTimer,
    },
}

/// The state a switch may touch during a call: the time, the packets, and where its
/// answers go.
pub struct SwitchContext<'a> {
    /// Now.
    pub now: SimTime,
    /// Every packet in the network (a switch may update the tail time of those it moves).
    pub pool: &'a mut PacketPool,
    /// The answers, carried out by the fabric in order after the call.
    pub actions: &'a mut Vec<SwitchAction>,
}

/// One switch architecture (see the module documentation for the protocol).
pub trait SwitchModel {
    /// The model's kind name, as in the scenario.
    fn kind(&self) -> &'static str;
    /// Time from a header's arrival on an input link to [`SwitchModel::on_header`].
    fn header_delay(&self) -> Duration;
    /// Credits per lane of each input buffer (what upstream ports may send into; with
    /// a shared credit policy, the port's buffer is this times its lanes).
    fn input_credits(&self) -> u32;
    /// Credits of each input port's buffer when its `lanes` lanes share it (the
    /// network's credit policy is shared): by default the credits per lane times the
    /// lanes; a switch whose buffers are sized per port answers that size.
    fn input_port_credits(&self, lanes: u16) -> u32 {
        self.input_credits() * u32::from(lanes)
    }
    /// Most credits one lane of each output buffer may hold.
    fn output_credits(&self) -> u32;
    /// The lane of each output queue at output port `output`, where the switch maps
    /// SLs to lanes its own way there (None: the network's lane map,
    /// [`SwitchSetup::lane_of_queue`]). Lanes stay below [`SwitchSetup::lanes`].
    fn output_lanes(&self, _output: u32) -> Option<std::sync::Arc<[u16]>> {
        None
    }
    /// Packet `packet`'s header has crossed input `input`, where it occupies `in_lane`;
    /// routing sent it to output queue `queue` of `output`.
    fn on_header(&mut self, cx: &mut SwitchContext, header: Header);
    /// A timer the switch asked for is due.
    fn on_timer(&mut self, cx: &mut SwitchContext, timer: SwitchTimer);
    /// A packet of `lane` and `credits` has left output `output`'s buffer on the link.
    fn on_output_freed(&mut self, cx: &mut SwitchContext, output: u32, lane: u16, credits: u32);
    /// Packets held inside the switch and not yet in an output port's queue.
    fn queued(&self) -> usize;
    /// A header is about to cross `input` for `output`: start fetching the state its
    /// [`SwitchModel::on_header`] reads first ([`crate::cache_hint`]), if that is worth
    /// it. A hint: changes nothing. The default does nothing.
    fn warm_header(&self, _input: u32, _output: u32) {}
    /// The local input whose buffer space timer `timer` will release, where the switch
    /// can tell without reading cold state: the fabric then starts fetching the port
    /// upstream of it, whose credits go back ([`crate::cache_hint`]). A hint: changes
    /// nothing. The default tells nothing.
    fn input_released_by(&self, _timer: SwitchTimer) -> Option<u32> {
        None
    }
}

/// A routed header, as [`SwitchModel::on_header`] gets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Local input port.
    pub input: u32,
    /// Lane of the input buffer the packet is in.
    pub in_lane: u16,
    /// Local output port.
    pub output: u32,
    /// Output queue at that port (its lane is `lane_of_queue[queue]`).
    pub queue: u16,
    /// Packet handle.
    pub packet: u32,
}

/// What every switch of a network is built from.
#[derive(Clone, Debug)]
pub struct SwitchSetup {
    /// Ports of this switch.
    pub ports: u32,
    /// Lanes (credit pools) per port.
    pub lanes: u16,
    /// Routing lanes per VC of the lane map: lane `l` belongs to VC `l / routing_lanes`.
    pub routing_lanes: u16,
    /// Per output queue, its lane (so the number of output queues per port too).
    pub lane_of_queue: std::sync::Arc<[u16]>,
    /// The link rate.
    pub link: BitRate,
    /// The link rate in Gb/s as the scenario gives it (rates derived from it, such as a
    /// crossbar's, are rounded once from this figure).
    pub link_gbps: f64,
    /// How buffers split their space among lanes (the network's credit policy): for a
    /// switch whose buffers are shared by its lanes.
    pub credits: crate::network::lanes::CreditPolicyConfig,
}

// The switch registry: ONE line per model (the variant of `SwitchConfig`, then the
// module and type implementing `SwitchModel`).
registry::switch_registry! {
    Cioq => cioq::Cioq,
    TwoVc => two_vc::TwoVc,
    Infiniband => infiniband::Infiniband,
    Omnipath => omnipath::Omnipath,
}
