//! The topology of a network scenario (`model.topology`): the kinds and their
//! parameters, and building the topology (validation calls the builders, which name the
//! field at fault).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::tagged::tagged_enum;
use crate::network::topology::{Topology, TopologyError};

/// How the end points and switches are connected.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TopologyConfig {
    /// Two end points joined by one link (no switch).
    Link,
    /// One switch with `ports` ports and one end point on each port.
    SingleSwitch(SingleSwitchTopology),
    /// The folded (bidirectional) perfect-shuffle multistage interconnection network.
    Min(MinTopology),
    /// The k-ary n-tree: `k^n` end points, `n` stages of `k^(n-1)` switches of `2k` ports.
    Tree(TreeTopology),
    /// A torus of 1 to 3 dimensions whose neighbouring switches are joined by trunks of
    /// several parallel ports.
    Torus(TorusTopology),
}
tagged_enum!(TopologyConfig, "topology", {
    "link" => Link,
    "single_switch" => SingleSwitch(SingleSwitchTopology),
    "min" => Min(MinTopology),
    "tree" => Tree(TreeTopology),
    "torus" => Torus(TorusTopology),
});

/// A k-ary n-tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TreeTopology {
    /// Arity: down ports and up ports per switch (2 to 32; switches have `2k` ports).
    pub k: u32,
    /// Stages (1 or more; `k^n` end points).
    pub n: u32,
}

/// A torus with trunk links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TorusTopology {
    /// Ring size of each dimension (1 to 3 dimensions, each 2 or more), e.g. `[8, 8]`.
    pub dims: Vec<u32>,
    /// Parallel ports of the trunk in each direction of each dimension (1 or more).
    pub trunk_ports: u32,
    /// End points on each switch (1 or more).
    pub end_points_per_switch: u32,
}

/// A single switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct SingleSwitchTopology {
    /// Ports of the switch, one end point each (2 to 64).
    pub ports: u32,
}

/// A folded perfect-shuffle MIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct MinTopology {
    /// End points: a power of `switch_ports / 2` (e.g. 64 with 8-port switches).
    pub end_points: u32,
    /// Ports per switch, half down and half up: even, 4 to 64.
    pub switch_ports: u32,
}

impl TopologyConfig {
    /// Builds the topology; the error names the field at fault.
    pub fn try_build(&self) -> Result<Topology, TopologyError> {
        match self {
            TopologyConfig::Link => Ok(Topology::link()),
            TopologyConfig::SingleSwitch(s) => Topology::single_switch(s.ports),
            TopologyConfig::Min(m) => Topology::folded_min(m.end_points, m.switch_ports),
            TopologyConfig::Tree(t) => Topology::tree(t.k, t.n),
            TopologyConfig::Torus(t) => {
                Topology::torus(&t.dims, t.trunk_ports, t.end_points_per_switch)
            }
        }
    }

    /// Builds the topology (the configuration must have been validated for `Ok`).
    pub fn build(&self) -> Result<Topology, String> {
        self.try_build().map_err(|e| e.to_string())
    }
}
