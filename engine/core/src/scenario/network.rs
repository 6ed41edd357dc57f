//! The network model of a scenario: a topology of network interfaces and switches, the
//! switch model, the links, the classes and their traffic, and the schedulers of the
//! interfaces and of the switch output ports.
//!
//! ```json
//! "model": {
//!   "kind": "network",
//!   "link": {"rate_gbps": 2.0, "latency_ns": 0, "credit_delay_ns": 0},
//!   "topology": {"kind": "min", "end_points": 64, "switch_ports": 8},
//!   "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 145,
//!              "input_buffer_bytes": 16384, "output_buffer_bytes": 16384},
//!   "interface": {"buffer_bytes": 32768},
//!   "classes": [{"name": "VO",
//!                "traffic": {"load": 0.046,
//!                            "generator": {"kind": "cbr", "rate_bps": 64000, "packet_bytes": 160},
//!                            "destinations": {"kind": "uniform"}}},
//!               {"name": "BE", "best_effort": true,
//!                "traffic": {"load": 0.5,
//!                            "generator": {"kind": "bursts", "packets": 1,
//!                                          "size": {"kind": "fixed", "bytes": 2048}},
//!                            "destinations": {"kind": "uniform"}}}],
//!   "admission": {"qos_cap": 1.0, "reserved": [0.05, 0.0]},
//!   "interface_scheduler": {"kind": "fifo"},
//!   "switch_scheduler": {"kind": "fifo"}
//! }
//! ```
//! Class traffic is the network traffic of [`crate::traffic::config`] (bursts, CBR and
//! video connections, destinations); Poisson traffic is one-packet bursts. Connection
//! classes (CBR, video) pass the admission control of `admission` on the links of their
//! route; without `admission` every connection is accepted.
//!
//! Validation lives in [`super::network_rules`] (called by [`super::validate`]; the shared
//! rules are in `rules` and each scheduler's own file).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::SchedulerConfig;
pub use super::switch_config::{
    CentralCycles, CioqConfig, InfinibandConfig, OmnipathSwitchConfig, PortBuffers, PortSl2Vl,
    StageCycles, SwitchConfig, TwoVcConfig, VcArbitration,
};
pub use super::topology_config::{
    MinTopology, SingleSwitchTopology, TopologyConfig, TorusTopology, TreeTopology,
};
pub use crate::network::lanes::{CreditPolicyConfig, LaneMapConfig, LanesConfig};
pub use crate::network::routing::RoutingConfig;
use crate::traffic::config::{AdmissionConfig, ClassTrafficConfig};

/// Most end points of a network.
pub const MAX_END_POINTS: u32 = 4096;
/// Most buffer space the whole network may hold, in bytes (bounds memory of a run).
pub const MAX_TOTAL_BUFFER_BYTES: f64 = 1.0e11;
/// Most virtual output queues of CIOQ switches (ports x ports x classes, summed over the
/// switches): each is a queue the simulator allocates, so this bounds the memory of a run.
pub const MAX_VOQS: u64 = 1 << 22;
/// Most connections of all classes and end points together: each is a packet process
/// the simulator keeps, so this bounds the memory of a run.
pub const MAX_TOTAL_CONNECTIONS: u64 = 1 << 21;
/// Most routing-table entries (switches x end points): bounds the memory and the time
/// to compute the tables.
pub const MAX_ROUTES: u64 = 1 << 22;

/// A network of interfaces and switches (see the module documentation for the shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// Every link of the network (interface-switch and switch-switch).
    pub link: NetworkLinkConfig,
    /// How interfaces and switches are connected.
    pub topology: TopologyConfig,
    /// How packets find their way (absent: "up_down", which suits every topology but the
    /// torus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub routing: Option<RoutingConfig>,
    /// The switch model (every switch of the network).
    pub switch: SwitchConfig,
    /// SLs to lanes, and how a switch input buffer's space is split among lanes (absent:
    /// every class its own lane and its own buffer space).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub lanes: Option<Box<LanesConfig>>,
    /// The network interfaces (every end point).
    pub interface: InterfaceConfig,
    /// Traffic classes (virtual channels), in index order. Every end point runs every
    /// class's traffic.
    pub classes: Vec<NetworkClassConfig>,
    /// Admission control of the connection classes (CBR, video): per class the fraction
    /// of every link it may reserve, and a cap on all of them together. Absent: every
    /// connection is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub admission: Option<AdmissionConfig>,
    /// The output scheduler of every network interface (choosing among its classes).
    pub interface_scheduler: SchedulerConfig,
    /// The output scheduler of every switch output port.
    pub switch_scheduler: SchedulerConfig,
    /// Flit size in bytes (e.g. 64 for the R3 switches): with it, the results also give
    /// each class's offered load and throughput in flits per cycle per end point, a cycle
    /// being one flit time on a link (`docs/modelling.md`, "Messages, MTUs and flits").
    /// Absent: not reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flit_bytes: Option<u32>,
}

/// The links of a network (all alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NetworkLinkConfig {
    /// Data rate in Gb/s (after line encoding, e.g. 2.0 for 2.5 Gb/s with 8b/10b).
    pub rate_gbps: f64,
    /// Time from a bit leaving a port to it reaching the other end, in ns (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(as = "Option<u32>", optional)]
    pub latency_ns: u32,
    /// Delay from a packet's tail leaving a buffer to its credits being usable by the
    /// sender feeding that buffer, in ns (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(as = "Option<u32>", optional)]
    pub credit_delay_ns: u32,
}

/// The network interfaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct InterfaceConfig {
    /// Injection buffer per class, in bytes (also the reception buffer per class that the
    /// last switch's credits refer to).
    pub buffer_bytes: u32,
}

/// One class of a network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NetworkClassConfig {
    /// Display name (unique within the scenario).
    pub name: String,
    /// Traffic of the class at every end point; `load` is per end point, as a fraction of
    /// the link rate.
    pub traffic: ClassTrafficConfig,
    /// Whether the class is best effort (its load follows the offered-load axis of a
    /// sweep; QoS classes keep theirs). Default false.
    #[serde(default)]
    pub best_effort: bool,
    /// Priority level 0 to 7 (7 highest) that the network interfaces give the class's
    /// packets, read by switch arbiters that respect it (the two-VC designs). Absent:
    /// `7 - index` for the first eight classes (so 7..0 in class order), 0 after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub priority: Option<u8>,
    /// The class's (SL's) MTU in bytes, its entry of the per-SL MTU table: every message
    /// the generator yields is split into packets of at most this size (the last one
    /// smaller), and the results also give the class's message latency, from generation
    /// to the arrival of the message's last packet. Absent: a generated message is one
    /// packet and no message results are given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mtu_bytes: Option<u32>,
}

/// Highest packet priority level.
pub const MAX_PRIORITY: u8 = 7;

impl NetworkClassConfig {
    /// The largest packet the class sends: its generator's largest, cut to its MTU.
    pub fn max_packet_bytes(&self) -> u32 {
        let generated = self.traffic.generator.max_packet_bytes();
        self.mtu_bytes.map_or(generated, |m| generated.min(m))
    }

    /// The priority level of the class at `index`: its `priority`, or by default
    /// `7 - index` (0 from the ninth class on).
    pub fn priority_level(&self, index: usize) -> u8 {
        self.priority
            .unwrap_or_else(|| usize::from(MAX_PRIORITY).saturating_sub(index) as u8)
    }
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl NetworkConfig {
    /// The routing in effect (up*/down* when the scenario names none).
    pub fn routing(&self) -> RoutingConfig {
        self.routing.unwrap_or(RoutingConfig::UpDown)
    }

    /// The lane map in effect (identity when the scenario names none).
    pub fn lane_map(&self) -> LaneMapConfig {
        self.lanes
            .as_ref()
            .and_then(|l| l.map.clone())
            .unwrap_or(LaneMapConfig::Identity)
    }

    /// The credit policy in effect (per lane when the scenario names none).
    pub fn credit_policy(&self) -> CreditPolicyConfig {
        self.lanes
            .as_ref()
            .and_then(|l| l.credits)
            .unwrap_or(CreditPolicyConfig::PerLane)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Absent priorities are 7..0 in class order, then 0; a given one is kept.
    #[test]
    fn default_priority_levels_count_down_from_seven() {
        let class = |priority| NetworkClassConfig {
            name: "C".into(),
            traffic: ClassTrafficConfig {
                load: 0.0,
                generator: crate::traffic::generators::GeneratorConfig::Cbr(
                    crate::traffic::generators::CbrConfig {
                        max_packet_bytes: None,
                        rate_bps: 64_000,
                        packet_bytes: 64,
                    },
                ),
                destinations: crate::traffic::config::DestinationConfig::Uniform,
            },
            best_effort: false,
            priority,
            mtu_bytes: None,
        };
        let levels: Vec<u8> = (0..10).map(|i| class(None).priority_level(i)).collect();
        assert_eq!(levels, vec![7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
        assert_eq!(class(Some(2)).priority_level(0), 2);
    }
}
