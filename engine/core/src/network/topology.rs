//! Topologies: end points (network interfaces) and switches with numbered ports, joined by
//! bidirectional links.
//!
//! Nodes are numbered end points first (`0 .. end_points`), then switches. Every node's
//! ports get a *global port index* (`port_base[node] + local port`), the index the
//! simulator keys its per-port state by. A link joins two global ports; each port is used
//! by at most one link.
//!
//! Every node has a *level*: end points are level 0, switches of stage `t` (counting from
//! the end points, from 0) are level `t + 1`. A link leads *up* from the lower level to
//! the higher one; routing ([`super::routing`]) relies on it for up*/down* routes.
//!
//! Builders:
//! - [`Topology::link`]: two end points joined by one link (no switch);
//! - [`Topology::single_switch`]: one switch with `ports` ports, end point `i` on port `i`;
//! - [`Topology::folded_min`]: the folded (bidirectional) perfect-shuffle multistage
//!   interconnection network (see its documentation).

/// Marks an unused port in [`Topology::peer`].
pub const NO_PEER: u32 = u32::MAX;

/// A node of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A network interface with one port.
    EndPoint,
    /// A switch.
    Switch,
}

/// A graph of end points and switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    end_points: u32,
    /// Per node, its level (0 for end points, stage + 1 for switches).
    level: Vec<u32>,
    /// Per node, the global index of its port 0; one extra entry holds the port count.
    port_base: Vec<u32>,
    /// Per global port, the global port at the other end of its link (or [`NO_PEER`]).
    peer: Vec<u32>,
    /// Per global port, its node.
    owner: Vec<u32>,
    /// Links as (lower global port, higher global port), in the order they were made.
    links: Vec<(u32, u32)>,
}

/// Why a topology cannot be built from the given parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologyError(pub String);

impl Topology {
    /// An empty graph of `end_points` end points (one port each) and switches with the
    /// given (level, ports), no links yet.
    fn with_nodes(end_points: u32, switches: &[(u32, u32)]) -> Topology {
        let nodes = end_points as usize + switches.len();
        let mut level = Vec::with_capacity(nodes);
        let mut port_base = Vec::with_capacity(nodes + 1);
        let mut total = 0u32;
        for _ in 0..end_points {
            level.push(0);
            port_base.push(total);
            total += 1;
        }
        for &(l, ports) in switches {
            level.push(l);
            port_base.push(total);
            total += ports;
        }
        port_base.push(total);
        let mut owner = Vec::with_capacity(total as usize);
        for node in 0..nodes {
            for _ in port_base[node]..port_base[node + 1] {
                owner.push(node as u32);
            }
        }
        Topology {
            end_points,
            level,
            port_base,
            peer: vec![NO_PEER; total as usize],
            owner,
            links: Vec::new(),
        }
    }

    /// Joins (node a, port pa) and (node b, port pb). Both ports must be free.
    fn connect(&mut self, a: u32, pa: u32, b: u32, pb: u32) -> Result<(), TopologyError> {
        let ga = self.global_port(a, pa);
        let gb = self.global_port(b, pb);
        let (Some(ga), Some(gb)) = (ga, gb) else {
            return Err(TopologyError(format!(
                "no such port: node {a} port {pa} or node {b} port {pb}"
            )));
        };
        if self.peer[ga as usize] != NO_PEER || self.peer[gb as usize] != NO_PEER || ga == gb {
            return Err(TopologyError(format!(
                "port used twice: node {a} port {pa} or node {b} port {pb}"
            )));
        }
        self.peer[ga as usize] = gb;
        self.peer[gb as usize] = ga;
        self.links.push((ga.min(gb), ga.max(gb)));
        Ok(())
    }

    /// Two end points joined by one link.
    pub fn link() -> Topology {
        let mut t = Topology::with_nodes(2, &[]);
        // Both ports exist and are free.
        let _ = t.connect(0, 0, 1, 0);
        t
    }

    /// One switch with `ports` ports (2 to 64); end point `i` is on switch port `i`.
    pub fn single_switch(ports: u32) -> Result<Topology, TopologyError> {
        if !(2..=64).contains(&ports) {
            return Err(TopologyError(format!(
                "a single switch needs 2 to 64 ports (got {ports})"
            )));
        }
        let mut t = Topology::with_nodes(ports, &[(1, ports)]);
        for i in 0..ports {
            t.connect(i, 0, ports, i)?;
        }
        Ok(t)
    }

    /// The folded (bidirectional) perfect-shuffle MIN with `end_points` end points and
    /// `switch_ports`-port switches.
    ///
    /// Each switch has `m = switch_ports / 2` *down* ports (`0 .. m`, towards the end
    /// points) and `m` *up* ports (`m .. 2m`). There are `s` stages with
    /// `end_points = m^s`, each of `m^(s-1)` switches. Lines are numbered per stage: down
    /// port `p` of switch `j` is line `j*m + p`, and so is up port `m + p`.
    /// - End point `i` is attached to line `i` of stage 0 (switch `i / m`, port `i % m`).
    /// - Up line `y` of stage `t` joins down line `shuffle(y)` of stage `t + 1`, where the
    ///   perfect shuffle rotates the base-`m` digits of `y` left by one:
    ///   `shuffle(y) = (y * m) mod n + (y * m) div n` — the wiring of an Omega network,
    ///   folded so that every stage is a column of bidirectional switches.
    /// - The up ports of the last stage are unused.
    ///
    /// Links: `n` end-point links plus `n` per pair of adjacent stages, `n * s` in all (64
    /// end points and 8-port switches: 3 stages of 16, 48 switches, 192 links counting the
    /// 64 end-point links; 16-port switches: 2 stages of 8, 16 switches, 128 links).
    pub fn folded_min(end_points: u32, switch_ports: u32) -> Result<Topology, TopologyError> {
        if switch_ports < 4 || switch_ports % 2 != 0 || switch_ports > 64 {
            return Err(TopologyError(format!(
                "MIN switches need an even number of ports from 4 to 64 (got {switch_ports})"
            )));
        }
        let m = switch_ports / 2;
        let Some(stages) = min_stages(end_points, m) else {
            return Err(TopologyError(format!(
                "a MIN of {switch_ports}-port switches connects a power of {m} end points ({m}, {}, {}, ...; got {end_points})",
                m * m,
                m * m * m
            )));
        };
        let n = end_points;
        let per_stage = n / m;
        let switches: Vec<(u32, u32)> = (0..stages)
            .flat_map(|t| (0..per_stage).map(move |_| (t + 1, switch_ports)))
            .collect();
        let mut t = Topology::with_nodes(n, &switches);
        let switch_node = |stage: u32, j: u32| n + stage * per_stage + j;
        for i in 0..n {
            t.connect(i, 0, switch_node(0, i / m), i % m)?;
        }
        let nm = u64::from(n);
        for stage in 0..stages.saturating_sub(1) {
            for y in 0..n {
                let ym = u64::from(y) * u64::from(m);
                let x = (ym % nm + ym / nm) as u32;
                t.connect(
                    switch_node(stage, y / m),
                    m + y % m,
                    switch_node(stage + 1, x / m),
                    x % m,
                )?;
            }
        }
        Ok(t)
    }

    /// Number of end points (nodes `0 .. end_points`).
    pub fn end_points(&self) -> u32 {
        self.end_points
    }

    /// Number of switches (nodes `end_points ..`).
    pub fn switches(&self) -> u32 {
        self.level.len() as u32 - self.end_points
    }

    /// Number of nodes.
    pub fn nodes(&self) -> u32 {
        self.level.len() as u32
    }

    /// Kind of `node`.
    pub fn kind(&self, node: u32) -> NodeKind {
        if node < self.end_points {
            NodeKind::EndPoint
        } else {
            NodeKind::Switch
        }
    }

    /// Level of `node` (0 for end points, stage + 1 for switches).
    pub fn level(&self, node: u32) -> u32 {
        self.level.get(node as usize).copied().unwrap_or(0)
    }

    /// Number of ports of `node`.
    pub fn ports(&self, node: u32) -> u32 {
        let n = node as usize;
        match (self.port_base.get(n), self.port_base.get(n + 1)) {
            (Some(a), Some(b)) => b - a,
            _ => 0,
        }
    }

    /// Total number of ports (the range of global port indices).
    pub fn total_ports(&self) -> u32 {
        self.peer.len() as u32
    }

    /// The global index of port `port` of `node`.
    pub fn global_port(&self, node: u32, port: u32) -> Option<u32> {
        (port < self.ports(node)).then(|| self.port_base[node as usize] + port)
    }

    /// The node and local port number of a global port.
    pub fn port_owner(&self, global: u32) -> (u32, u32) {
        let node = self.owner.get(global as usize).copied().unwrap_or(0);
        (node, global - self.port_base[node as usize])
    }

    /// The global port at the other end of `global`'s link, if it has one.
    pub fn peer(&self, global: u32) -> Option<u32> {
        self.peer
            .get(global as usize)
            .copied()
            .filter(|&p| p != NO_PEER)
    }

    /// Whether the link at `global` leads up (to a node of a higher level).
    pub fn is_up(&self, global: u32) -> bool {
        self.peer(global).is_some_and(|p| {
            self.level(self.port_owner(p).0) > self.level(self.port_owner(global).0)
        })
    }

    /// The links, each as (lower global port, higher global port).
    pub fn links(&self) -> &[(u32, u32)] {
        &self.links
    }
}

/// The number of stages `s` with `m^s = end_points`, if there is one (s >= 1).
fn min_stages(end_points: u32, m: u32) -> Option<u32> {
    if m < 2 || end_points < m {
        return None;
    }
    let mut s = 0;
    let mut v = 1u64;
    while v < u64::from(end_points) {
        v *= u64::from(m);
        s += 1;
    }
    (v == u64::from(end_points)).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Every node can reach every other node over the links.
    fn connected(t: &Topology) -> bool {
        let mut seen = vec![false; t.nodes() as usize];
        let mut todo = VecDeque::from([0u32]);
        seen[0] = true;
        while let Some(node) = todo.pop_front() {
            for p in 0..t.ports(node) {
                let g = t.global_port(node, p).unwrap();
                if let Some(q) = t.peer(g) {
                    let other = t.port_owner(q).0;
                    if !seen[other as usize] {
                        seen[other as usize] = true;
                        todo.push_back(other);
                    }
                }
            }
        }
        seen.iter().all(|&s| s)
    }

    /// The peer relation is symmetric, and the links list each used port exactly once.
    fn ports_used_once(t: &Topology) -> usize {
        let mut uses = vec![0u32; t.total_ports() as usize];
        for &(a, b) in t.links() {
            uses[a as usize] += 1;
            uses[b as usize] += 1;
            assert_eq!(t.peer(a), Some(b));
            assert_eq!(t.peer(b), Some(a));
        }
        assert!(uses.iter().all(|&u| u <= 1), "a port is used twice");
        for g in 0..t.total_ports() {
            assert_eq!(t.peer(g).is_some(), uses[g as usize] == 1);
        }
        uses.iter().filter(|&&u| u == 0).count()
    }

    #[test]
    fn min_64_with_8_port_switches() {
        let t = Topology::folded_min(64, 8).unwrap();
        assert_eq!(t.end_points(), 64);
        assert_eq!(t.switches(), 48);
        // 64 end-point links + 64 between stages 1-2 + 64 between stages 2-3.
        assert_eq!(t.links().len(), 192);
        let unused = ports_used_once(&t);
        // Only the up ports of the 16 last-stage switches are free.
        assert_eq!(unused, 16 * 4);
        for s in 0..48 {
            let node = 64 + s;
            assert_eq!(t.ports(node), 8);
            assert_eq!(t.level(node), 1 + s / 16);
            for p in 0..8 {
                let g = t.global_port(node, p).unwrap();
                let used = t.peer(g).is_some();
                assert_eq!(used, p < 4 || s < 32, "switch {s} port {p}");
                if used {
                    assert_eq!(t.is_up(g), p >= 4, "switch {s} port {p}");
                }
            }
        }
        for e in 0..64 {
            assert_eq!(t.kind(e), NodeKind::EndPoint);
            assert!(t.is_up(t.global_port(e, 0).unwrap()));
        }
        assert!(connected(&t));
    }

    #[test]
    fn min_64_with_16_port_switches() {
        let t = Topology::folded_min(64, 16).unwrap();
        assert_eq!(t.switches(), 16);
        assert_eq!(t.links().len(), 128);
        assert_eq!(ports_used_once(&t), 8 * 8);
        assert!(connected(&t));
    }

    #[test]
    fn perfect_shuffle_wiring() {
        // 16 end points, 4-port switches: m = 2, 4 stages of 8 switches.
        let t = Topology::folded_min(16, 4).unwrap();
        assert_eq!(t.switches(), 32);
        assert_eq!(t.links().len(), 64);
        // Up line 5 (switch 2, up port 3) of stage 0 -> shuffle(5) = 10 (switch 5 port 0)
        // of stage 1.
        let g = t.global_port(16 + 2, 3).unwrap();
        assert_eq!(t.port_owner(t.peer(g).unwrap()), (16 + 8 + 5, 0));
        // Up line 9 (switch 4 up port 3): shuffle(9) = 18 mod 16 + 1 = 3 (switch 1 port 1).
        let g = t.global_port(16 + 4, 3).unwrap();
        assert_eq!(t.port_owner(t.peer(g).unwrap()), (16 + 8 + 1, 1));
        assert!(connected(&t));
    }

    #[test]
    fn single_switch_and_link() {
        let t = Topology::single_switch(8).unwrap();
        assert_eq!((t.end_points(), t.switches(), t.links().len()), (8, 1, 8));
        assert_eq!(ports_used_once(&t), 0);
        assert!(connected(&t));
        let l = Topology::link();
        assert_eq!((l.end_points(), l.switches(), l.links().len()), (2, 0, 1));
        assert_eq!(ports_used_once(&l), 0);
    }

    #[test]
    fn rejects_impossible_shapes() {
        assert!(Topology::folded_min(63, 8).is_err());
        assert!(Topology::folded_min(64, 7).is_err());
        assert!(Topology::folded_min(64, 2).is_err());
        assert!(Topology::folded_min(2, 8).is_err());
        assert!(Topology::single_switch(1).is_err());
        assert!(Topology::single_switch(65).is_err());
        assert_eq!(min_stages(4, 4), Some(1));
        assert_eq!(min_stages(512, 8), Some(3));
    }
}
