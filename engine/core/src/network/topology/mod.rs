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
//! the higher one; routing ([`super::routing`]) relies on it for up*/down* routes. The
//! switches of a torus are all at level 1 (no link between switches leads up).
//!
//! Builders, one file each, all checking their parameters against the limits below and
//! failing with a [`TopologyError`] that names the scenario field and the rule:
//! - [`Topology::link`], [`Topology::single_switch`] (`basic.rs`);
//! - [`Topology::folded_min`]: the folded perfect-shuffle MIN (`min.rs`);
//! - [`Topology::tree`]: the k-ary n-tree (`tree.rs`);
//! - [`Topology::torus`]: 1- to 3-dimensional tori with trunk links (`torus.rs`).
//!
//! A topology remembers its [`Shape`] (which builder made it and with which parameters),
//! so that routings written for one family (Valiant on trees, dimension order on tori)
//! can find coordinates without searching the graph.

mod basic;
mod min;
mod torus;
mod tree;

pub use torus::TorusShape;
pub use tree::TreeShape;

/// Marks an unused port in [`Topology::peer`].
pub const NO_PEER: u32 = u32::MAX;
/// Most switches of a topology.
pub const MAX_SWITCHES: u32 = 1 << 15;
/// Most ports of a switch (routing tables store local ports in a byte).
pub const MAX_SWITCH_PORTS: u32 = 64;
/// Most dimensions of a torus.
pub const MAX_TORUS_DIMS: usize = 3;
/// Most end points of a topology (the limit of the traffic model).
pub const MAX_END_POINTS: u32 = crate::traffic::config::MAX_ENDPOINTS;

/// The scenario path of the topology parameters; builder errors name fields below it.
pub const TOPOLOGY_PATH: &str = "model.topology";

/// A node of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A network interface with one port.
    EndPoint,
    /// A switch.
    Switch,
}

/// Which builder made a topology, with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// [`Topology::link`].
    Link,
    /// [`Topology::single_switch`].
    SingleSwitch,
    /// [`Topology::folded_min`].
    Min,
    /// [`Topology::tree`].
    Tree(TreeShape),
    /// [`Topology::torus`].
    Torus(TorusShape),
}

/// A graph of end points and switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    end_points: u32,
    shape: Shape,
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

/// Why a topology cannot be built from the given parameters: the scenario field at fault
/// (e.g. `model.topology.k`) and the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologyError {
    /// Full scenario path of the field (`model.topology` for the whole topology).
    pub field: String,
    /// The rule broken, with the value found.
    pub message: String,
}

impl TopologyError {
    /// An error about field `field` of the topology (`""` for the topology as a whole).
    pub fn new(field: &str, message: impl Into<String>) -> TopologyError {
        let field = if field.is_empty() {
            TOPOLOGY_PATH.to_string()
        } else {
            format!("{TOPOLOGY_PATH}.{field}")
        };
        TopologyError {
            field,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for TopologyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Checks the counts every builder shares: end points and switches within the limits.
fn check_size(end_points: u64, switches: u64, field: &str) -> Result<(), TopologyError> {
    if end_points > u64::from(MAX_END_POINTS) {
        return Err(TopologyError::new(
            field,
            format!("would make {end_points} end points, more than the limit of {MAX_END_POINTS}"),
        ));
    }
    if switches > u64::from(MAX_SWITCHES) {
        return Err(TopologyError::new(
            field,
            format!("would make {switches} switches, more than the limit of {MAX_SWITCHES}"),
        ));
    }
    Ok(())
}

impl Topology {
    /// An empty graph of `end_points` end points (one port each) and switches with the
    /// given (level, ports), no links yet.
    fn with_nodes(end_points: u32, switches: &[(u32, u32)], shape: Shape) -> Topology {
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
            shape,
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
            return Err(TopologyError::new(
                "",
                format!("no such port: node {a} port {pa} or node {b} port {pb}"),
            ));
        };
        if self.peer[ga as usize] != NO_PEER || self.peer[gb as usize] != NO_PEER || ga == gb {
            return Err(TopologyError::new(
                "",
                format!("port used twice: node {a} port {pa} or node {b} port {pb}"),
            ));
        }
        self.peer[ga as usize] = gb;
        self.peer[gb as usize] = ga;
        self.links.push((ga.min(gb), ga.max(gb)));
        Ok(())
    }

    /// Which builder made the topology.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Number of end points (nodes `0 .. end_points`).
    pub fn end_points(&self) -> u32 {
        self.end_points
    }

    /// Number of switches (nodes `end_points ..`).
    pub fn switches(&self) -> u32 {
        self.level.len() as u32 - self.end_points
    }

    /// Node number of switch `switch` (switches are numbered after the end points).
    #[inline]
    pub fn switch_node(&self, switch: u32) -> u32 {
        self.end_points + switch
    }

    /// Switch number of `node`, a switch's node (`node >= end_points`).
    #[inline]
    pub fn switch_of(&self, node: u32) -> u32 {
        node - self.end_points
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

#[cfg(test)]
pub(crate) mod check {
    //! Structural checks shared by the builders' tests.
    use super::*;
    use std::collections::VecDeque;

    /// Hop counts from `from` to every node over the undirected graph.
    pub(crate) fn bfs(t: &Topology, from: u32) -> Vec<u32> {
        let mut dist = vec![u32::MAX; t.nodes() as usize];
        dist[from as usize] = 0;
        let mut todo = VecDeque::from([from]);
        while let Some(v) = todo.pop_front() {
            for p in 0..t.ports(v) {
                if let Some(q) = t.global_port(v, p).and_then(|g| t.peer(g)) {
                    let w = t.port_owner(q).0;
                    if dist[w as usize] == u32::MAX {
                        dist[w as usize] = dist[v as usize] + 1;
                        todo.push_back(w);
                    }
                }
            }
        }
        dist
    }

    /// Every node can reach every other node over the links.
    pub(crate) fn connected(t: &Topology) -> bool {
        bfs(t, 0).iter().all(|&d| d != u32::MAX)
    }

    /// The peer relation is symmetric and the links list each used port exactly once;
    /// returns the number of unused ports.
    pub(crate) fn ports_used_once(t: &Topology) -> usize {
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
}
