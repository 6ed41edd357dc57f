//! Dimension-order routing on tori, made deadlock free by a dateline.
//!
//! A packet corrects its coordinates one dimension at a time, lowest dimension first; in
//! each dimension it goes the shorter way round the ring (the positive way on a tie).
//! Every packet of one (source, destination) pair uses the same port index `j` of every
//! trunk it crosses: `j` is a hash of the pair (`on_inject`), or a connection's own
//! choice (`pin`; `routes` lists one route per trunk port). So the routing keeps one
//! path per (source, destination), and, with FIFO lanes, packets of one SL arrive in
//! order, while different pairs spread over the parallel ports of the trunks.
//!
//! **Dateline (2 lanes per SL).** In every ring the link from coordinate `d - 1` to 0
//! (positive direction) and from 0 to `d - 1` (negative direction) is the dateline. A
//! packet uses lane 0 on every switch-to-switch link until it crosses the dateline of
//! the ring it travels in; from the dateline link on it uses lane 1 until it turns to
//! the next dimension, where it starts on lane 0 again. End-point links use lane 0.
//! [`Router::lanes`] is 2: the fabric keeps, for every SL, two lanes on each torus link,
//! each with its own buffer space and credits; [`Hop::lane`] names the lane to use.
//!
//! **Deadlock freedom.** Order the channels (link direction, lane): first by dimension;
//! within a dimension and direction, lane 0 channels by the coordinate they leave from,
//! counted from the dateline in the direction of travel (`x` for the positive direction,
//! `d - 1 - x` for the negative), then the lane-1 channels starting with the dateline
//! link and following the direction of travel, then the links to end points. A packet holding a lane-0 channel of a ring waits only for the
//! next lane-0 channel of the same ring (never across the dateline, which it takes on
//! lane 1), for the lane-1 dateline channel, or for a channel of a higher dimension or an
//! end point; holding a lane-1 channel it waits only for the next lane-1 channel (it
//! travels less than once round the ring, so it never reaches the dateline again), a
//! higher dimension or an end point. Every wait is for a later channel: the channel
//! dependency graph is acyclic (checked by `tests.rs` on small tori, where it is cyclic
//! without the lane switch), and with credit-based flow control per lane (a packet moves
//! only into a buffer of its lane with room for all of it) no deadlock can form. Parallel
//! trunk ports are distinct channels in the same place of the order, so trunks add no
//! dependency between them.

use super::{Hop, RouteState, Router, RoutingError, ports_of, unused_rng, walk};
use crate::network::topology::{Shape, Topology, TorusShape};
use crate::rng::RngStream;

/// Dimension-order routing over a torus, with a dateline per ring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimensionOrder {
    shape: TorusShape,
}

impl DimensionOrder {
    /// Dimension-order routing for `topology`, which must be a torus.
    pub fn new(topology: &Topology) -> Result<DimensionOrder, RoutingError> {
        match topology.shape() {
            Shape::Torus(shape) => Ok(DimensionOrder {
                shape: shape.clone(),
            }),
            _ => Err(RoutingError(
                "dimension-order routing needs topology kind \"torus\"".to_string(),
            )),
        }
    }

    /// The trunk port index of the pair (a fixed mix of both end points).
    fn trunk_of(&self, source: u32, destination: u32) -> u16 {
        let mut z = (u64::from(source) << 32) | u64::from(destination);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % u64::from(self.shape.trunk_ports)) as u16
    }
}

impl Router for DimensionOrder {
    fn kind(&self) -> &'static str {
        "dimension_order"
    }

    fn lanes(&self) -> u32 {
        2
    }

    fn on_inject(
        &self,
        _: &Topology,
        source: u32,
        destination: u32,
        _: &mut RngStream,
    ) -> RouteState {
        RouteState {
            trunk: self.trunk_of(source, destination),
            ..RouteState::default()
        }
    }

    fn pin(&self, _: &Topology, _: u32, _: u32, route: usize) -> RouteState {
        RouteState {
            trunk: (route as u32 % self.shape.trunk_ports) as u16,
            ..RouteState::default()
        }
    }

    fn connection_route(
        &self,
        _: &Topology,
        source: u32,
        destination: u32,
        _: &[f64],
        _: &mut RngStream,
    ) -> usize {
        usize::from(self.trunk_of(source, destination))
    }

    fn next_hop(
        &self,
        topology: &Topology,
        switch: u32,
        _: u32,
        destination: u32,
        state: &mut RouteState,
        _: &mut RngStream,
    ) -> Hop {
        let shape = &self.shape;
        let here = topology.switch_of(switch);
        let target = destination / shape.end_points_per_switch;
        let differs = (0..shape.dims.len())
            .find(|&i| shape.coordinate(here, i) != shape.coordinate(target, i));
        let Some(dim) = differs else {
            return Hop {
                port: destination % shape.end_points_per_switch,
                lane: 0,
            };
        };
        if usize::from(state.dim) != dim {
            state.dim = dim as u8;
            state.lane = 0;
        }
        let d = shape.dims[dim];
        let (x, y) = (shape.coordinate(here, dim), shape.coordinate(target, dim));
        let ahead = (y + d - x) % d;
        let positive = ahead <= d - ahead;
        let dateline = if positive { x == d - 1 } else { x == 0 };
        if dateline {
            state.lane = 1;
        }
        Hop {
            port: shape.trunk_port(dim, positive, u32::from(state.trunk)),
            lane: state.lane,
        }
    }

    fn routes(&self, topology: &Topology, source: u32, destination: u32) -> Vec<Vec<u32>> {
        let mut rng = unused_rng();
        (0..self.shape.trunk_ports as usize)
            .map(|j| {
                let state = self.pin(topology, source, destination, j);
                ports_of(walk(self, topology, source, destination, state, &mut rng))
            })
            .collect()
    }
}
