//! Valiant routing on k-ary n-trees: every packet goes up to a top-stage switch chosen at
//! random (the random intermediate), then down the unique path to its destination.
//!
//! In the tree of [`Topology::tree`] the way up from a stage-0 switch to top switch `r`
//! is unique (from stage `t`, up port `k + digit_t(r)`), and so is the way down (at
//! stage `t`, down port `digit_t(destination)`). A packet goes up even when its source
//! and destination share a lower switch: the route always crosses `2n` switch-to-switch
//! or end-point links (`2n` output ports), which spreads any traffic pattern evenly over
//! the top stage at the price of longer routes.
//!
//! A packet that arrived at a switch on an up port (or is at the top stage) is going
//! down; otherwise it is going up. The state holds only the intermediate.
//!
//! **Deadlock freedom.** Every route is up*/down*: up hops then down hops, never down
//! then up. The argument of `up_down.rs` applies unchanged (channels ordered by level, up
//! channels before down channels), one lane is enough.
//!
//! Datagrams draw their intermediate per packet (`on_inject`); a connection draws one
//! intermediate when it is admitted (`connection_route`, ignoring the loads) and keeps it,
//! so its packets stay in order.

use super::{Hop, RouteState, Router, RoutingError, ports_of, unused_rng, walk};
use crate::network::topology::{Shape, Topology, TreeShape};
use crate::rng::RngStream;

/// Valiant routing over a k-ary n-tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Valiant {
    shape: TreeShape,
}

impl Valiant {
    /// Valiant routing for `topology`, which must be a k-ary n-tree.
    pub fn new(topology: &Topology) -> Result<Valiant, RoutingError> {
        match topology.shape() {
            Shape::Tree(shape) => Ok(Valiant { shape: *shape }),
            _ => Err(RoutingError(
                "Valiant routing needs topology kind \"tree\"".to_string(),
            )),
        }
    }
}

impl Router for Valiant {
    fn datagrams_keep_one_path(&self) -> bool {
        false
    }

    fn connections_share_path(&self) -> bool {
        false
    }

    fn kind(&self) -> &'static str {
        "valiant"
    }

    fn on_inject(&self, _: &Topology, _: u32, _: u32, rng: &mut RngStream) -> RouteState {
        RouteState {
            intermediate: rng.uniform_u32(0, self.shape.per_stage() - 1),
            ..RouteState::default()
        }
    }

    fn pin(&self, _: &Topology, _: u32, _: u32, route: usize) -> RouteState {
        RouteState {
            intermediate: route as u32 % self.shape.per_stage(),
            ..RouteState::default()
        }
    }

    fn connection_route(
        &self,
        _: &Topology,
        _: u32,
        _: u32,
        _: &[f64],
        rng: &mut RngStream,
    ) -> usize {
        rng.uniform_u32(0, self.shape.per_stage() - 1) as usize
    }

    fn next_hop(
        &self,
        _: &Topology,
        switch: u32,
        input_port: u32,
        destination: u32,
        state: &mut RouteState,
        _: &mut RngStream,
    ) -> Hop {
        let TreeShape { k, n } = self.shape;
        let (stage, _) = self.shape.position(switch);
        let going_down = stage + 1 == n || input_port >= k;
        let port = if going_down {
            self.shape.digit(destination, stage)
        } else {
            k + self.shape.digit(state.intermediate, stage)
        };
        Hop { port, lane: 0 }
    }

    fn routes(&self, topology: &Topology, source: u32, destination: u32) -> Vec<Vec<u32>> {
        let mut rng = unused_rng();
        (0..self.shape.per_stage() as usize)
            .map(|r| {
                let state = self.pin(topology, source, destination, r);
                ports_of(walk(self, topology, source, destination, state, &mut rng))
            })
            .collect()
    }
}
