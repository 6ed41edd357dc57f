//! The rules of a network model (see [`super::network`] for the model itself): link,
//! switch, topology, routing and lanes, buffers, classes and their traffic, admission, and
//! the schedulers of the interfaces and switch ports.

use super::Scenario;
use super::network::{
    MAX_END_POINTS, MAX_PRIORITY, MAX_ROUTES, MAX_TOTAL_BUFFER_BYTES, MAX_TOTAL_CONNECTIONS,
    MAX_VOQS, NetworkClassConfig, NetworkConfig,
};
use super::rules::{ClassRef, MAX_BUFFER_BYTES, MAX_CLASSES, Problems, validate_class_name};
use super::switch_config::{MAX_DELAY_NS, SwitchConfig};
use crate::network::topology::Topology;
use crate::traffic::config::{MAX_PACKET_BYTES, MIN_MTU_BYTES};
use crate::traffic::config_rules::{TrafficContext, validate_admission, validate_class_traffic};

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
                .map(|s| t.ports(t.switch_node(s)))
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
                .map(|s| u64::from(t.ports(t.switch_node(s))).pow(2) * queues)
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
