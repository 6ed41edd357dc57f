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
//! Validation lives in [`validate_network`] (called by [`super::validate`]; the shared
//! rules are in `rules` and each scheduler's own file).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rules::{ClassRef, MAX_BUFFER_BYTES, MAX_CLASSES, Problems, validate_class_name};
pub use super::switch_config::{
    CentralCycles, CioqConfig, InfinibandConfig, MAX_DELAY_NS, OmnipathSwitchConfig, PortBuffers,
    PortSl2Vl, StageCycles, SwitchConfig, TwoVcConfig, VcArbitration,
};
pub use super::topology_config::{
    MinTopology, SingleSwitchTopology, TopologyConfig, TorusTopology, TreeTopology,
};
use super::{Scenario, SchedulerConfig};
pub use crate::network::lanes::{CreditPolicyConfig, LaneMapConfig, LanesConfig};
pub use crate::network::routing::RoutingConfig;
use crate::network::topology::Topology;
use crate::traffic::config::{
    AdmissionConfig, ClassTrafficConfig, MAX_PACKET_BYTES, MIN_MTU_BYTES,
};
use crate::traffic::config_rules::{TrafficContext, validate_admission, validate_class_traffic};

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

/// Checks every rule of a network model.
pub(super) fn validate_network(s: &Scenario, net: &NetworkConfig, p: &mut Problems) {
    let link = p.rate("model.link.rate_gbps", net.link.rate_gbps);
    for (field, v) in [
        ("latency_ns", net.link.latency_ns),
        ("credit_delay_ns", net.link.credit_delay_ns),
    ] {
        if v > MAX_DELAY_NS {
            p.add(
                format!("model.link.{field}"),
                format!("must be at most {MAX_DELAY_NS} ns (got {v})"),
            );
        }
    }

    let topology = match net.topology.try_build() {
        Ok(t) if t.end_points() > MAX_END_POINTS => {
            p.add(
                "model.topology",
                format!(
                    "must have at most {MAX_END_POINTS} end points (this one has {})",
                    t.end_points()
                ),
            );
            None
        }
        Ok(t) => Some(t),
        Err(e) => {
            p.add(e.field, e.message);
            None
        }
    };
    if let Some(t) = &topology {
        if let Err(e) = crate::network::routing::fits(&net.routing(), t) {
            p.add("model.routing", e.0);
        }
    }

    let sw = net.switch.basics();
    super::switch_config::validate_switch(&sw, link, p);
    let buffers = [
        ("model.switch.input_buffer_bytes", sw.input_buffer_bytes),
        ("model.switch.output_buffer_bytes", sw.output_buffer_bytes),
        ("model.interface.buffer_bytes", net.interface.buffer_bytes),
    ];
    for (path, bytes) in buffers {
        if !(64..=MAX_BUFFER_BYTES).contains(&bytes) {
            p.add(
                path,
                format!(
                    "must be between 64 (one credit) and {MAX_BUFFER_BYTES} bytes (got {bytes})"
                ),
            );
        }
    }

    let n = net.classes.len();
    if n == 0 || n > MAX_CLASSES {
        p.add(
            "model.classes",
            format!("must hold between 1 and {MAX_CLASSES} classes (got {n})"),
        );
    }
    let end_points = topology.as_ref().map_or(0, Topology::end_points);
    let mtu = net
        .classes
        .iter()
        .map(NetworkClassConfig::max_packet_bytes)
        .max()
        .unwrap_or(0);
    let lanes = super::lanes_rules::LanesInput {
        classes: n,
        routing: net.routing(),
        map: net.lane_map(),
        credits: net.credit_policy(),
        switch: sw,
        mtu,
    };
    let port_lanes = super::lanes_rules::validate_lanes(&lanes, p).unwrap_or(n as u32);
    if let SwitchConfig::Infiniband(_) | SwitchConfig::Omnipath(_) = &net.switch {
        let sls = n.min(usize::from(u16::MAX)) as u16;
        let map_lanes =
            crate::network::lanes::build_map(&net.lane_map(), sls).map_or(sls, |m| m.lanes());
        let max_ports = topology.as_ref().map_or(64, |t| {
            (0..t.switches())
                .map(|s| t.ports(t.end_points() + s))
                .max()
                .unwrap_or(0)
        });
        let rules = super::infiniband_config::IbRulesInput {
            port_lanes,
            map_lanes,
            classes: sls,
            mtu,
            credits: net.credit_policy(),
            max_ports,
        };
        match &net.switch {
            SwitchConfig::Infiniband(ib) => ib.validate(&rules, p),
            SwitchConfig::Omnipath(opa) => opa.validate(&rules, p),
            _ => {}
        }
    }
    if let Some(t) = &topology {
        let total = f64::from(t.total_ports()) * sw.port_bytes(port_lanes) as f64
            + f64::from(end_points)
                * 2.0
                * f64::from(net.interface.buffer_bytes)
                * n.max(port_lanes as usize) as f64;
        let queues = n as u64 * u64::from(net.routing().lanes());
        // Only the CIOQ switch keeps a queue per (input, output, class, routing lane);
        // the others queue per input and lane, which the buffer rule below bounds.
        let voqs: u64 = if matches!(net.switch, SwitchConfig::Cioq(_)) {
            (0..t.switches())
                .map(|s| u64::from(t.ports(t.end_points() + s)).pow(2) * queues)
                .sum()
        } else {
            0
        };
        let routes = u64::from(t.switches()) * u64::from(end_points);
        if routes > MAX_ROUTES {
            p.add(
                "model.topology",
                format!(
                    "the routing tables would hold {routes} entries (switches x end points), more than the limit of {MAX_ROUTES}; use a smaller network or bigger switches"
                ),
            );
        }
        // Only the CIOQ switch keeps a queue per (input, output, class, routing lane); the
        // others' queues grow with ports x lanes and are bounded by the routes' limit.
        if voqs > MAX_VOQS && matches!(net.switch, SwitchConfig::Cioq(_)) {
            p.add(
                "model.topology",
                format!(
                    "the switches would need {voqs} virtual output queues (ports x ports x classes x routing lanes), more than the limit of {MAX_VOQS}; use fewer classes or a smaller network"
                ),
            );
        }
        if total > MAX_TOTAL_BUFFER_BYTES {
            p.add(
                "model.topology",
                format!(
                    "the network's buffers would add up to {total:.3e} bytes, more than the limit of {MAX_TOTAL_BUFFER_BYTES:.0e}"
                ),
            );
        }
    }
    let mut expected_packets = 0.0;
    let mut connections = 0u64;
    for (i, class) in net.classes.iter().enumerate() {
        let at = format!("model.classes[{i}]");
        validate_class_name(
            &at,
            &class.name,
            net.classes[..i].iter().map(|c| c.name.as_str()),
            p,
        );
        if let Some(level) = class.priority {
            if level > MAX_PRIORITY {
                p.add(
                    format!("{at}.priority"),
                    format!("must be a priority level from 0 to {MAX_PRIORITY} (got {level})"),
                );
            }
        }
        let t = &class.traffic;
        let before = p.len();
        if let Some(link) = link {
            // With a broken topology, check against the largest network (its own errors
            // are reported above).
            let endpoints = topology
                .as_ref()
                .map_or(crate::traffic::config::MAX_ENDPOINTS, Topology::end_points);
            let ctx = TrafficContext { endpoints, link };
            let mut errors = Vec::new();
            validate_class_traffic(&format!("{at}.traffic"), t, &ctx, &mut errors);
            p.extend(errors);
        }
        let class_mtu = class.mtu_bytes;
        if let Some(m) = class_mtu {
            if !(MIN_MTU_BYTES..=MAX_PACKET_BYTES).contains(&m) {
                p.add(
                    format!("{at}.mtu_bytes"),
                    format!(
                        "the SL's MTU must be between {MIN_MTU_BYTES} and {MAX_PACKET_BYTES} bytes (got {m})"
                    ),
                );
            }
        }
        if p.len() == before {
            let mtu = class.max_packet_bytes();
            for (path, bytes) in buffers {
                if mtu > bytes && (64..=MAX_BUFFER_BYTES).contains(&bytes) {
                    p.add(
                        path,
                        format!(
                            "must hold at least one packet of every class: class \"{}\" sends up to {mtu} B but the buffer has {bytes} B",
                            class.name
                        ),
                    );
                }
            }
            if let Some(link) = link {
                if let Ok(Some(rate)) = t.generator.mean_connection_rate() {
                    let count = crate::traffic::connections::connection_count(t.load, link, rate);
                    connections =
                        connections.saturating_add(count.saturating_mul(u64::from(end_points)));
                }
                if let Some(per_end_point) =
                    super::bounds::network_class_packets(&at, t, class_mtu, link, s.duration_us, p)
                {
                    expected_packets += per_end_point * f64::from(end_points);
                }
            }
        }
    }
    if connections > MAX_TOTAL_CONNECTIONS {
        p.add(
            "model.classes",
            format!(
                "the end points would open {connections} connections together, more than the limit of {MAX_TOTAL_CONNECTIONS}; \
                 lower the loads of the connection classes, raise their rates or use fewer end points"
            ),
        );
    }
    super::bounds::check_work(expected_packets, 0.0, p);
    if let Some(f) = net.flit_bytes {
        if !(1..=MAX_PACKET_BYTES).contains(&f) {
            p.add(
                "model.flit_bytes",
                format!("must be between 1 and {MAX_PACKET_BYTES} bytes (got {f})"),
            );
        }
    }

    if let Some(a) = &net.admission {
        let mut errors = Vec::new();
        validate_admission("model.admission", a, n, &mut errors);
        p.extend(errors);
        if !net
            .classes
            .iter()
            .any(|c| c.traffic.generator.is_connections())
        {
            p.add(
                "model.admission",
                format!(
                    "admission control applies to connection classes ({}) and there is none; remove it",
                    crate::traffic::generators::connection_kinds().join(", ")
                ),
            );
        }
    }

    let classes: Vec<ClassRef<'_>> = net
        .classes
        .iter()
        .map(|c| ClassRef {
            name: &c.name,
            load: c.traffic.load,
            max_bytes: c.max_packet_bytes(),
        })
        .collect();
    net.interface_scheduler
        .validate(&classes, "model.interface_scheduler", p);
    net.switch_scheduler
        .validate(&classes, "model.switch_scheduler", p);
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
