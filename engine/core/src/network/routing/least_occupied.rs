//! Least-occupied routes for connections, over the minimal up*/down* routes.
//!
//! The routes of a pair are all its shortest up*/down* routes: at every switch where the
//! shortest legal route goes up, any up port that starts one may be taken (`c` choices);
//! where it can go down it goes down, as in `up_down.rs`. A route is therefore a
//! sequence of choices, coded as the mixed-radix number `sum(choice_h * prod(c_j, j <
//! h))` over its up hops `h`. A connection takes the route of least occupancy
//! (`connection_route`: the first route with the smallest load), and its packets carry
//! the code in [`RouteState::route`]: each up hop takes choice `route mod c` and divides
//! the code by `c`. Packets of no connection follow the up*/down* tables (exactly the
//! ports of [`UpDown`]).
//!
//! **Deadlock freedom.** Every route, pinned or not, is up*/down*, so the argument of
//! `up_down.rs` holds: one lane, acyclic channel dependencies.

use super::up_down::{UNREACHABLE, distances};
use super::{Hop, NO_ROUTE, RouteState, Router, RoutingError, UpDown, ports_of, unused_rng, walk};
use crate::network::topology::{NodeKind, Topology};
use crate::rng::RngStream;

/// Marks, in [`LeastOccupied`]'s distances, a switch that goes down towards the
/// destination.
const DOWN: u8 = 0x80;

/// Minimal up*/down* routes chosen per connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeastOccupied {
    tables: UpDown,
    end_points: u32,
    /// Per (switch, destination): hops of the shortest legal route, `| DOWN` if it goes
    /// down from there.
    hops: Vec<u8>,
}

impl LeastOccupied {
    /// Least-occupied routing for `topology` (any topology up*/down* routing serves).
    pub fn new(topology: &Topology) -> Result<LeastOccupied, RoutingError> {
        let tables = UpDown::new(topology)?;
        let n = topology.end_points();
        let mut hops = vec![0u8; topology.switches() as usize * n as usize];
        distances(topology, |d, down, updown| {
            for sw in 0..topology.switches() {
                let v = (n + sw) as usize;
                if updown[v] == UNREACHABLE || updown[v] >= u32::from(DOWN) {
                    return Err(RoutingError(format!(
                        "routes of more than {} hops are not supported",
                        DOWN - 1
                    )));
                }
                let flag = if down[v] == updown[v] { DOWN } else { 0 };
                hops[sw as usize * n as usize + d as usize] = updown[v] as u8 | flag;
            }
            Ok(())
        })?;
        Ok(LeastOccupied {
            tables,
            end_points: n,
            hops,
        })
    }

    fn entry(&self, switch_node: u32, destination: u32) -> u8 {
        let sw = (switch_node - self.end_points) as usize;
        self.hops[sw * self.end_points as usize + destination as usize]
    }

    /// The up ports of switch node `v` that start a shortest route to `destination` (empty
    /// if the route goes down from `v`).
    fn up_choices(&self, t: &Topology, v: u32, destination: u32, out: &mut Vec<u32>) {
        out.clear();
        let here = self.entry(v, destination);
        if here & DOWN != 0 {
            return;
        }
        for p in 0..t.ports(v) {
            let next = t
                .global_port(v, p)
                .filter(|&g| t.is_up(g))
                .and_then(|g| t.peer(g));
            if let Some(q) = next {
                let w = t.port_owner(q).0;
                if t.kind(w) == NodeKind::Switch && (self.entry(w, destination) & !DOWN) + 1 == here
                {
                    out.push(p);
                }
            }
        }
    }

    /// The codes of all routes from `source` to `destination`, in the order of `routes`.
    fn codes(&self, t: &Topology, source: u32, destination: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let first = t.global_port(source, 0).and_then(|g| t.peer(g));
        let Some(q) = first else {
            return out;
        };
        let mut stack = vec![(t.port_owner(q).0, 0u32, 1u32)];
        let mut choices = Vec::new();
        while let Some((v, code, scale)) = stack.pop() {
            if t.kind(v) == NodeKind::EndPoint {
                out.push(code);
                continue;
            }
            self.up_choices(t, v, destination, &mut choices);
            if choices.is_empty() {
                out.push(code);
                continue;
            }
            let c = choices.len() as u32;
            for (i, &p) in choices.iter().enumerate().rev() {
                let next = t.global_port(v, p).and_then(|g| t.peer(g));
                if let Some(q) = next {
                    let w = t.port_owner(q).0;
                    stack.push((w, code + i as u32 * scale, scale.saturating_mul(c)));
                }
            }
        }
        out
    }
}

impl Router for LeastOccupied {
    fn connections_share_path(&self) -> bool {
        false
    }

    fn kind(&self) -> &'static str {
        "least_occupied"
    }

    fn pin(&self, topology: &Topology, source: u32, destination: u32, route: usize) -> RouteState {
        let codes = self.codes(topology, source, destination);
        RouteState {
            route: codes.get(route).copied().unwrap_or(0),
            ..RouteState::default()
        }
    }

    fn connection_route(
        &self,
        _: &Topology,
        _: u32,
        _: u32,
        loads: &[f64],
        _: &mut RngStream,
    ) -> usize {
        let mut best = 0;
        for (i, &l) in loads.iter().enumerate() {
            if l < loads[best] {
                best = i;
            }
        }
        best
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
        let table = Hop {
            port: self.tables.output(switch - self.end_points, destination),
            lane: 0,
        };
        if state.route == NO_ROUTE {
            return table;
        }
        let mut choices = Vec::new();
        self.up_choices(topology, switch, destination, &mut choices);
        if choices.is_empty() {
            return table;
        }
        let c = choices.len() as u32;
        let port = choices[(state.route % c) as usize];
        state.route /= c;
        Hop { port, lane: 0 }
    }

    fn routes(&self, topology: &Topology, source: u32, destination: u32) -> Vec<Vec<u32>> {
        let mut rng = unused_rng();
        self.codes(topology, source, destination)
            .into_iter()
            .map(|code| {
                let state = RouteState {
                    route: code,
                    ..RouteState::default()
                };
                ports_of(walk(self, topology, source, destination, state, &mut rng))
            })
            .collect()
    }
}
