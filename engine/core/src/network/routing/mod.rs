//! Routing: where a packet goes next, and every route it may take.
//!
//! One object-safe trait, [`Router`], with one implementation per file:
//! - `up_down.rs` ([`UpDown`], kind `"up_down"`): deterministic up*/down* tables (MIN,
//!   tree, single switch, link); the default.
//! - `valiant.rs` ([`Valiant`], `"valiant"`): k-ary n-trees; up to a random top switch,
//!   then down the unique path.
//! - `dimension_order.rs` ([`DimensionOrder`], `"dimension_order"`): tori; dimension
//!   order with a dateline (two lanes per SL).
//! - `least_occupied.rs` ([`LeastOccupied`], `"least_occupied"`): every topology that
//!   up*/down* fits; a connection takes the least occupied of its minimal up*/down*
//!   routes, and its packets carry that route.
//!
//! [`build`] makes the router a scenario names, an [`AnyRouter`] (the enum the fabric
//! holds; one registration line per routing in the registry below, plus the routing's
//! variant of [`RoutingConfig`] and its rule in [`fits`]);
//! [`fits`] says whether a routing suits a topology without building its tables.
//! `block_table.rs` keeps a table of bytes as shared blocks (the up*/down* tables).
//!
//! # What the fabric does
//! - **Injection.** A datagram (a packet of no connection) gets
//!   `on_inject(topology, source, destination, rng)`. A connection, when it is admitted,
//!   gets one route index `i = connection_route(topology, source, destination, loads, rng)`
//!   (admission computes `loads[j]`, the occupancy of route `j` of
//!   `routes(topology, source, destination)`, e.g. the highest reserved fraction of its
//!   links) and reserves the links of route `i`; every packet of the connection then
//!   starts with `pin(topology, source, destination, i)` and follows exactly route `i`.
//!   The state is stored in the packet ([`RouteState`] is `Copy`, 12 bytes).
//! - **Each switch**, when a header arrives on local input port `input_port`, calls
//!   `next_hop(topology, switch_node, input_port, destination, &mut state, rng)` and gets
//!   a [`Hop`]: the local output port and the lane the packet uses on the link it leaves
//!   by (and in the buffers, credits and output queues of that lane at both ends). It
//!   stores the updated state back into the packet.
//! - **Lanes.** [`Router::lanes`] is the number of lanes per SL the routing needs: every
//!   SL's buffers and credits exist `lanes()` times per port, and the statistics stay per
//!   SL. Injection links and links to end points use lane 0. Only dimension order on a
//!   torus needs 2; all other routings use lane 0 only. The routings need no other
//!   condition than credit-based flow control per lane (a packet moves only into a buffer
//!   of its lane with room for all of it): no bubble, no extra credits.
//!
//! # Deadlock freedom
//! Each routing's module documentation gives its argument; tests check that the channel
//! dependency graph over (link direction, lane) is acyclic for small instances and
//! random shapes (`tests.rs`), and `docs/modelling.md` sums up.

mod block_table;
mod dimension_order;
mod least_occupied;
mod registry;
#[cfg(test)]
mod tests;
mod up_down;
mod valiant;

pub use dimension_order::DimensionOrder;
pub use least_occupied::LeastOccupied;
pub use up_down::UpDown;
pub use valiant::Valiant;

use super::topology::{NodeKind, Shape, Topology};
use crate::rng::RngStream;
use crate::scenario::tagged::tagged_enum;
use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

/// The routing of a network, as a scenario names it (`model.routing`, optional; see
/// `crate::scenario::NetworkConfig`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoutingConfig {
    /// Deterministic up-down (up*, then down*) tables (link, single switch, MIN, tree); the default.
    UpDown,
    /// Valiant routing on a tree: up to a random top-stage switch, then down.
    Valiant,
    /// Dimension-order routing on a torus, with a dateline (two lanes per class).
    DimensionOrder,
    /// Connections take the least occupied of their minimal up-down routes; other
    /// packets follow the up-down tables (link, single switch, MIN, tree).
    LeastOccupied,
}
tagged_enum!(RoutingConfig, "routing", {
    "up_down" => UpDown,
    "valiant" => Valiant,
    "dimension_order" => DimensionOrder,
    "least_occupied" => LeastOccupied,
});

impl RoutingConfig {
    /// The scenario name (`"up_down"`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            RoutingConfig::UpDown => "up_down",
            RoutingConfig::Valiant => "valiant",
            RoutingConfig::DimensionOrder => "dimension_order",
            RoutingConfig::LeastOccupied => "least_occupied",
        }
    }

    /// Lanes per SL this routing needs (what its [`Router::lanes`] answers; known before
    /// building, for validation).
    pub fn lanes(&self) -> u32 {
        match self {
            RoutingConfig::DimensionOrder => 2,
            RoutingConfig::UpDown | RoutingConfig::Valiant | RoutingConfig::LeastOccupied => 1,
        }
    }
}

/// [`RouteState::route`] of a packet that follows no pinned route.
pub const NO_ROUTE: u32 = u32::MAX;

/// What a packet carries for its routing (set at injection, updated at every switch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteState {
    /// The pinned route's remaining choices (routing-specific code), or [`NO_ROUTE`].
    pub route: u32,
    /// Valiant: the index of the top-stage switch the packet goes through.
    pub intermediate: u32,
    /// Torus: the physical port of every trunk the packet crosses.
    pub trunk: u16,
    /// Torus: the dimension the packet is travelling along (`u8::MAX` before the first
    /// switch-to-switch hop).
    pub dim: u8,
    /// The lane of the link the packet last left by.
    pub lane: u8,
}

impl Default for RouteState {
    fn default() -> RouteState {
        RouteState {
            route: NO_ROUTE,
            intermediate: 0,
            trunk: 0,
            dim: u8::MAX,
            lane: 0,
        }
    }
}

/// Where a packet goes from a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    /// Local output port of the switch.
    pub port: u32,
    /// Lane on the link leaving by `port` (below [`Router::lanes`]).
    pub lane: u8,
}

/// Why a routing cannot serve a topology (about the scenario field `model.routing`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutingError(pub String);

/// A routing algorithm over one topology (see the module documentation for how the
/// fabric calls it).
pub trait Router: std::fmt::Debug {
    /// The scenario name of the routing (`"up_down"`, `"valiant"`, ...).
    fn kind(&self) -> &'static str;

    /// Lanes per SL the routing needs on every link (1 unless documented).
    fn lanes(&self) -> u32 {
        1
    }

    /// Whether all datagrams from one end point to another take one path (so, with FIFO
    /// lanes, arrive in order). False for routings that spread them (Valiant). A property
    /// of the routing, not of its state: the audit reads it once, when the network is built.
    fn datagrams_keep_one_path(&self) -> bool {
        true
    }

    /// Whether all connections from one end point to another take the same path (true
    /// when a pair has one route). Each connection always keeps its own route. Read once,
    /// like [`Router::datagrams_keep_one_path`].
    fn connections_share_path(&self) -> bool {
        true
    }

    /// The route state of a datagram from `source` to `destination` (end points). The
    /// default, no state, fits routings whose every hop follows from the destination.
    fn on_inject(
        &self,
        _topology: &Topology,
        _source: u32,
        _destination: u32,
        _rng: &mut RngStream,
    ) -> RouteState {
        RouteState::default()
    }

    /// The route state that makes a packet follow route `route` of
    /// [`Router::routes`]`(topology, source, destination)`.
    fn pin(&self, topology: &Topology, source: u32, destination: u32, route: usize) -> RouteState;

    /// The route a new connection takes, given the occupancy of each of its routes
    /// (`loads[i]` for route `i` of [`Router::routes`]).
    fn connection_route(
        &self,
        topology: &Topology,
        source: u32,
        destination: u32,
        loads: &[f64],
        rng: &mut RngStream,
    ) -> usize;

    /// The output port and lane at switch node `switch` for a packet that arrived on
    /// local port `input_port` bound for end point `destination`; updates `state`.
    fn next_hop(
        &self,
        topology: &Topology,
        switch: u32,
        input_port: u32,
        destination: u32,
        state: &mut RouteState,
        rng: &mut RngStream,
    ) -> Hop;

    /// The local output port [`Router::next_hop`] gives at switch node `switch` for
    /// `destination`, when that follows from them alone (no route state, no random
    /// draw), else None (the default). Only a hint, to start fetching the switch's
    /// state for a header about to arrive; routing always asks `next_hop`.
    fn output_ahead(&self, _topology: &Topology, _switch: u32, _destination: u32) -> Option<u32> {
        None
    }

    /// Every route the routing may give a packet from `source` to `destination`, each as
    /// the global output ports it leaves by, from the source's own port to the last
    /// switch's port. Route `i` is the one [`Router::pin`] selects with `i`. A function
    /// of its arguments alone: the fabric asks once per pair while it admits connections
    /// and keeps the answer.
    fn routes(&self, topology: &Topology, source: u32, destination: u32) -> Vec<Vec<u32>>;
}

/// Whether routing `config` suits `topology` (the rule of [`build`], without building).
pub fn fits(config: &RoutingConfig, topology: &Topology) -> Result<(), RoutingError> {
    let shape = topology.shape();
    let torus = matches!(shape, Shape::Torus(_));
    let (ok, rule) = match config {
        RoutingConfig::UpDown | RoutingConfig::LeastOccupied => (
            !torus,
            "up*/down* routes need a topology with levels (link, single_switch, min, tree); a torus needs \"dimension_order\"",
        ),
        RoutingConfig::Valiant => (
            matches!(shape, Shape::Tree(_)),
            "Valiant routing goes through the top stage of a k-ary n-tree: it needs topology kind \"tree\"",
        ),
        RoutingConfig::DimensionOrder => (
            torus,
            "dimension-order routing needs topology kind \"torus\"",
        ),
    };
    if ok {
        Ok(())
    } else {
        Err(RoutingError(rule.to_string()))
    }
}

// The routing registry: ONE line per routing (the variant of `RoutingConfig`, then the
// module and type implementing `Router`); it generates `AnyRouter` and `build`.
registry::routing_registry! {
    UpDown => up_down::UpDown,
    Valiant => valiant::Valiant,
    DimensionOrder => dimension_order::DimensionOrder,
    LeastOccupied => least_occupied::LeastOccupied,
}

/// The channels a packet with route state `state` takes from `source` to `destination`:
/// per hop the global output port and the lane. Empty if the route breaks or loops
/// (which a correct router never does). The fabric's sequence of calls, without the
/// fabric.
pub fn walk(
    router: &dyn Router,
    topology: &Topology,
    source: u32,
    destination: u32,
    mut state: RouteState,
    rng: &mut RngStream,
) -> Vec<(u32, u8)> {
    let mut out = Vec::new();
    let Some(mut g) = topology.global_port(source, 0) else {
        return out;
    };
    let mut lane = 0u8;
    for _ in 0..=topology.total_ports() {
        out.push((g, lane));
        let Some(q) = topology.peer(g) else {
            return Vec::new();
        };
        let (node, input) = topology.port_owner(q);
        if topology.kind(node) == NodeKind::EndPoint {
            return if node == destination { out } else { Vec::new() };
        }
        let hop = router.next_hop(topology, node, input, destination, &mut state, rng);
        let Some(next) = topology.global_port(node, hop.port) else {
            return Vec::new();
        };
        g = next;
        lane = hop.lane;
    }
    Vec::new()
}

/// The ports of a walk (dropping the lanes).
fn ports_of(channels: Vec<(u32, u8)>) -> Vec<u32> {
    channels.into_iter().map(|(g, _)| g).collect()
}

/// A random stream for the walks of [`Router::routes`] (the routes follow pinned
/// states, which draw nothing).
fn unused_rng() -> RngStream {
    crate::rng::RngStreams::new(0).stream(crate::rng::StreamId::Arrivals(0))
}
