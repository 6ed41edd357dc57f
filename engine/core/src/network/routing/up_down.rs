//! Deterministic, deadlock-free up*/down* routing: a table per switch giving the output
//! port for each destination end point.
//!
//! Links are oriented by the node levels of [`Topology`]: a hop from a lower to a higher
//! level goes *up*, the reverse *down*. A legal route is a (possibly empty) sequence of
//! up hops followed by a (possibly empty) sequence of down hops; it never turns from
//! down to up. The tables give, at every switch, a shortest legal route:
//! - if the destination is reachable from the switch going only down, the route goes
//!   down (in a MIN that down path is unique; otherwise the lowest port index wins);
//! - otherwise it goes up through one of the up ports that start a shortest legal route.
//!   Among those `c` candidates (in port order) the switch at level `l` picks candidate
//!   `digit_j(destination) = (destination / c^j) mod c`, a base-`c` digit of the
//!   destination, with `j = 0` at level 1 and `j = s + 1 - l` above (`s` = the highest
//!   level). In the folded perfect-shuffle MIN ([`Topology::folded_min`]) this makes the
//!   up ports chosen on the way up exactly the destination digits that the down path
//!   does not fix, so the routes spread evenly: with 64 end points and 8-port switches
//!   every down link of the last stage carries the routes to exactly one destination.
//!   (Picking digit `l - 1`, as in k-ary n-trees, would leave a quarter of the last
//!   stage's links unused in the perfect-shuffle wiring.) All packets to one destination
//!   from one switch take the same path, so delivery per class is in order.
//!
//! **Deadlock freedom.** Number every channel (a link direction) by the level of the node
//! it leaves, up channels before down channels. A packet holding an up channel from level
//! `l` waits only for an up channel from level `l + 1` or for a down channel; a packet
//! holding a down channel from level `l` waits only for a down channel from level
//! `l - 1` (down never turns up). So every wait is for a channel strictly later in the
//! order "up channels by increasing level, then down channels by decreasing level": the
//! channel dependency graph is acyclic, and with credit-based flow control (a packet
//! moves only into a buffer with room for all of it, and each class has its own buffers
//! that no other class can fill) no cycle of waiting buffers can form (Dally and Seitz's
//! condition). The switch's crossbar adds no dependency: a transfer starts only when the
//! output buffer has room for the whole packet and then always finishes.

use super::block_table::BlockTable;
use super::{Hop, RouteState, Router, RoutingError};
use crate::network::topology::{NodeKind, Topology};
use crate::rng::RngStream;

/// Distance of a node that cannot reach the destination.
pub(super) const UNREACHABLE: u32 = u32::MAX;

/// Routing tables of every switch of a topology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpDown {
    /// Row `switch`, column `destination`: the local output port. Its blocks are shared
    /// ([`BlockTable`]): a table of bytes would miss the cache on nearly every hop of a
    /// large network.
    table: BlockTable,
}

impl UpDown {
    /// Up*/down* tables for `t` (see the module documentation). Fails if some switch
    /// cannot reach some end point by a legal route.
    pub fn new(t: &Topology) -> Result<UpDown, RoutingError> {
        let n = t.end_points();
        let mut table = vec![0u8; t.switches() as usize * n as usize];
        let mut candidates: Vec<u32> = Vec::new();
        let top = (0..t.nodes()).map(|v| t.level(v)).max().unwrap_or(0);
        distances(t, |d, down, updown| {
            for sw in 0..t.switches() {
                let v = n + sw;
                let going_down = down[v as usize] == updown[v as usize];
                first_hops(t, v, going_down, down, updown, &mut candidates);
                let pick = if going_down || candidates.len() <= 1 {
                    0
                } else {
                    let c = candidates.len() as u64;
                    let level = t.level(v);
                    let position = if level <= 1 { 0 } else { top + 1 - level };
                    let digit = u64::from(d) / c.saturating_pow(position);
                    (digit % c) as usize
                };
                let Some(&port) = candidates.get(pick) else {
                    return Err(RoutingError(format!(
                        "switch {sw} has no port towards end point {d}"
                    )));
                };
                table[sw as usize * n as usize + d as usize] = port as u8;
            }
            Ok(())
        })?;
        Ok(UpDown {
            table: BlockTable::new(&table, n as usize),
        })
    }

    /// The local output port of switch `switch` (counted among switches, from 0) for
    /// packets to end point `destination`.
    #[inline]
    pub fn output(&self, switch: u32, destination: u32) -> u32 {
        u32::from(self.table.get(switch as usize, destination as usize))
    }

    /// Bytes the tables take (their shared blocks and the blocks' numbers).
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The global output ports a packet from `source` to `destination` leaves through,
    /// from the source's own port to the last switch's port (empty if the route loops or
    /// breaks, which the tables never do).
    pub fn path(&self, t: &Topology, source: u32, destination: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let Some(mut g) = t.global_port(source, 0) else {
            return out;
        };
        for _ in 0..=t.nodes() {
            out.push(g);
            let Some(q) = t.peer(g) else {
                return Vec::new();
            };
            let (node, _) = t.port_owner(q);
            if t.kind(node) == NodeKind::EndPoint {
                return if node == destination { out } else { Vec::new() };
            }
            let sw = t.switch_of(node);
            let Some(next) = t.global_port(node, self.output(sw, destination)) else {
                return Vec::new();
            };
            g = next;
        }
        Vec::new()
    }
}

/// For every destination `d` in order, computes per node the hops of the shortest route
/// going only down (`down`) and of the shortest up*/down* route (`updown`), and calls
/// `each(d, down, updown)`. Fails if some switch cannot reach some end point.
pub(super) fn distances(
    t: &Topology,
    mut each: impl FnMut(u32, &[u32], &[u32]) -> Result<(), RoutingError>,
) -> Result<(), RoutingError> {
    let n = t.end_points();
    let nodes = t.nodes() as usize;
    let mut order: Vec<u32> = (0..t.nodes()).collect();
    order.sort_by_key(|&v| (t.level(v), v));
    let mut down = vec![UNREACHABLE; nodes];
    let mut updown = vec![UNREACHABLE; nodes];
    for d in 0..n {
        // Hops going only down, by increasing level.
        for &v in &order {
            down[v as usize] = match t.kind(v) {
                NodeKind::EndPoint => {
                    if v == d {
                        0
                    } else {
                        UNREACHABLE
                    }
                }
                NodeKind::Switch => {
                    best_neighbour(t, v, false, &down).map_or(UNREACHABLE, |h| h + 1)
                }
            };
        }
        // Hops of the shortest legal route, by decreasing level.
        for &v in order.iter().rev() {
            let via_up = best_neighbour(t, v, true, &updown).map_or(UNREACHABLE, |h| h + 1);
            updown[v as usize] = down[v as usize].min(via_up);
        }
        for sw in 0..t.switches() {
            if updown[(n + sw) as usize] == UNREACHABLE {
                return Err(RoutingError(format!(
                    "switch {sw} cannot reach end point {d} by an up*/down* route"
                )));
            }
        }
        each(d, &down, &updown)?;
    }
    Ok(())
}

/// The local ports of switch node `v` that start a shortest up*/down* route (down ports
/// if `going_down`, else up ports), in port order, into `out`.
pub(super) fn first_hops(
    t: &Topology,
    v: u32,
    going_down: bool,
    down: &[u32],
    updown: &[u32],
    out: &mut Vec<u32>,
) {
    out.clear();
    let here = updown[v as usize];
    for p in 0..t.ports(v) {
        let Some(g) = t.global_port(v, p) else {
            continue;
        };
        let Some(q) = t.peer(g) else {
            continue;
        };
        let other = t.port_owner(q).0 as usize;
        let ok = if going_down {
            !t.is_up(g) && down[other] != UNREACHABLE && down[other] + 1 == here
        } else {
            t.is_up(g) && updown[other] != UNREACHABLE && updown[other] + 1 == here
        };
        if ok {
            out.push(p);
        }
    }
}

impl Router for UpDown {
    fn kind(&self) -> &'static str {
        "up_down"
    }

    fn pin(&self, _: &Topology, _: u32, _: u32, _: usize) -> RouteState {
        RouteState::default()
    }

    fn connection_route(
        &self,
        _: &Topology,
        _: u32,
        _: u32,
        _: &[f64],
        _: &mut RngStream,
    ) -> usize {
        0
    }

    fn next_hop(
        &self,
        topology: &Topology,
        switch: u32,
        _: u32,
        destination: u32,
        _: &mut RouteState,
        _: &mut RngStream,
    ) -> Hop {
        Hop {
            port: self.output(topology.switch_of(switch), destination),
            lane: 0,
        }
    }

    #[inline]
    fn output_ahead(&self, topology: &Topology, switch: u32, destination: u32) -> Option<u32> {
        Some(self.output(switch.checked_sub(topology.end_points())?, destination))
    }

    fn routes(&self, topology: &Topology, source: u32, destination: u32) -> Vec<Vec<u32>> {
        let path = self.path(topology, source, destination);
        if path.is_empty() {
            Vec::new()
        } else {
            vec![path]
        }
    }
}

/// The smallest `dist` among the neighbours of `v` reached through its up ports (`up`) or
/// its down ports (`!up`).
fn best_neighbour(t: &Topology, v: u32, up: bool, dist: &[u32]) -> Option<u32> {
    (0..t.ports(v))
        .filter_map(|p| t.global_port(v, p))
        .filter(|&g| t.is_up(g) == up)
        .filter_map(|g| t.peer(g))
        .map(|q| dist[t.port_owner(q).0 as usize])
        .filter(|&h| h != UNREACHABLE)
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Shortest hop count between two nodes over the undirected graph.
    fn bfs(t: &Topology, from: u32, to: u32) -> u32 {
        let mut dist = vec![u32::MAX; t.nodes() as usize];
        dist[from as usize] = 0;
        let mut todo = VecDeque::from([from]);
        while let Some(v) = todo.pop_front() {
            for p in 0..t.ports(v) {
                if let Some(q) = t.peer(t.global_port(v, p).unwrap()) {
                    let w = t.port_owner(q).0;
                    if dist[w as usize] == u32::MAX {
                        dist[w as usize] = dist[v as usize] + 1;
                        todo.push_back(w);
                    }
                }
            }
        }
        dist[to as usize]
    }

    /// Every route exists, is up*/down* (never down then up), and is as short as any path
    /// through the graph.
    fn check_all_routes(t: &Topology) -> Vec<usize> {
        let r = UpDown::new(t).unwrap();
        let mut lengths = Vec::new();
        for s in 0..t.end_points() {
            for d in 0..t.end_points() {
                if s == d {
                    continue;
                }
                let path = r.path(t, s, d);
                assert!(!path.is_empty(), "no route {s} -> {d}");
                let dirs: Vec<bool> = path.iter().map(|&g| t.is_up(g)).collect();
                let turns_up = dirs.windows(2).any(|w| !w[0] && w[1]);
                assert!(
                    !turns_up,
                    "route {s} -> {d} turns from down to up: {dirs:?}"
                );
                assert_eq!(
                    path.len() as u32,
                    bfs(t, s, d),
                    "route {s} -> {d} is not minimal"
                );
                lengths.push(path.len() - 1);
            }
        }
        lengths
    }

    #[test]
    fn min_64_routes_are_minimal_up_down() {
        let t = Topology::folded_min(64, 8).unwrap();
        let lengths = check_all_routes(&t);
        // Switches crossed: 1 within a first-stage switch, 3 or 5 otherwise.
        assert!(lengths.iter().all(|&l| l == 1 || l == 3 || l == 5));
        assert_eq!(lengths.iter().filter(|&&l| l == 1).count(), 64 * 3);
        assert!(lengths.contains(&5));
    }

    #[test]
    fn other_shapes_route_everywhere() {
        check_all_routes(&Topology::folded_min(64, 16).unwrap());
        check_all_routes(&Topology::folded_min(16, 4).unwrap());
        check_all_routes(&Topology::folded_min(8, 4).unwrap());
        let single = check_all_routes(&Topology::single_switch(5).unwrap());
        assert!(single.iter().all(|&l| l == 1));
        let link = Topology::link();
        let r = UpDown::new(&link).unwrap();
        assert_eq!(r.path(&link, 0, 1).len(), 1);
    }

    /// Destination-based choice spreads routes: in MINs of several shapes every link
    /// direction between switches carries some route, and none carries more than twice
    /// another.
    #[test]
    fn up_links_share_the_routes() {
        for (n, k) in [(64, 8), (16, 4), (64, 4), (64, 16), (512, 16)] {
            links_share_routes(&Topology::folded_min(n, k).unwrap());
        }
    }

    /// The claim of the module documentation: in the 64-end-point MIN of 8-port switches,
    /// each down link of the last stage carries routes to exactly one destination.
    #[test]
    fn last_stage_down_links_serve_one_destination_each() {
        let t = Topology::folded_min(64, 8).unwrap();
        let r = UpDown::new(&t).unwrap();
        let mut dests: Vec<Vec<u32>> = vec![Vec::new(); t.total_ports() as usize];
        for s in 0..64 {
            for d in 0..64 {
                for g in r.path(&t, s, d) {
                    if t.level(t.port_owner(g).0) == 3 && !dests[g as usize].contains(&d) {
                        dests[g as usize].push(d);
                    }
                }
            }
        }
        let used: Vec<usize> = dests.iter().map(Vec::len).filter(|&l| l > 0).collect();
        assert_eq!(used.len(), 64);
        assert!(used.iter().all(|&l| l == 1));
    }

    fn links_share_routes(t: &Topology) {
        let t = t.clone();
        let n = t.end_points();
        let r = UpDown::new(&t).unwrap();
        let mut load = vec![0u32; t.total_ports() as usize];
        for s in 0..n {
            for d in 0..n {
                if s != d {
                    for g in r.path(&t, s, d) {
                        load[g as usize] += 1;
                    }
                }
            }
        }
        let used: Vec<u32> = t
            .links()
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|&g| t.kind(t.port_owner(g).0) == NodeKind::Switch)
            .map(|g| load[g as usize])
            .collect();
        let (lo, hi) = (used.iter().min().unwrap(), used.iter().max().unwrap());
        assert!(*lo > 0, "an inter-switch link carries no route");
        assert!(hi <= &(lo * 2), "unbalanced routes: {lo} .. {hi}");
    }
}
