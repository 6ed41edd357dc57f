//! Building a network from its scenario: topology, routing, switches, output ports,
//! interfaces and their traffic (with admission control).

use std::collections::HashMap;

use super::audit::Auditor;
use super::buffer_fills::{BufferFills, BufferSizes};
use super::{Event, NetworkSim};
use crate::error::EngineError;
use crate::kernel::EventQueue;
use crate::network::interface::Interface;
use crate::network::lanes::{self, CreditPolicyConfig, LaneCredits, Lanes};
use crate::network::port::{OutputPort, PacketPool};
use crate::network::routing;
use crate::network::routing::Router;
use crate::network::send::SendAudit;
use crate::network::switch::{self, SwitchModel, SwitchSetup};
use crate::network::topology::NodeKind;
use crate::rng::RngStreams;
use crate::scenario::{NetworkConfig, Scenario};
use crate::schedulers::PortSetup;
use crate::stats::{ClassCounters, JitterTracker, Window};
use crate::time::{BitRate, Duration, PS_PER_NS, SimTime};
use crate::traffic::NetworkTraffic;
use crate::traffic::admission::AdmissionTable;

impl NetworkSim {
    /// Builds the network of a scenario that [`crate::scenario::validate`] accepted,
    /// checking its invariants as it runs when `audited` ([`crate::RunOptions::audit`]).
    pub(crate) fn new(
        scenario: &Scenario,
        net: &NetworkConfig,
        audited: bool,
    ) -> Result<NetworkSim, EngineError> {
        let link = BitRate::from_gbps(net.link.rate_gbps).ok_or_else(|| {
            EngineError::invalid("model.link.rate_gbps", "must be a rate in Gb/s above 0")
        })?;
        let topology = net
            .topology
            .build()
            .map_err(|e| EngineError::invalid("model.topology", e))?;
        let routing = routing::build(&net.routing(), &topology)
            .map_err(|e| EngineError::invalid("model.routing", e.0))?;
        let classes = net.classes.len();
        let map = lanes::build_map(&net.lane_map(), classes as u16)
            .map_err(|e| EngineError::invalid(format!("model.lanes.map.{}", e.field), e.message))?;
        let lanes = Lanes::new(map, classes as u16, routing.lanes() as u16);
        let port_lanes = usize::from(lanes.port_lanes());
        let n = topology.end_points();
        let policy = net.credit_policy();
        let switches = (0..topology.switches())
            .map(|s| {
                let setup = SwitchSetup {
                    ports: topology.ports(topology.switch_node(s)),
                    lanes: lanes.port_lanes(),
                    routing_lanes: lanes.routing_lanes(),
                    lane_of_queue: lanes.lane_table(),
                    link,
                    link_gbps: net.link.rate_gbps,
                    credits: policy,
                };
                switch::build(&net.switch, setup)
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Every switch of a network is of one architecture with one buffer configuration.
        let (in_port_credits, out_credits) = switches.first().map_or((0, 0), |s| {
            (s.input_port_credits(lanes.port_lanes()), s.output_credits())
        });
        let nic_credits = net.interface.buffer_bytes / crate::network::CREDIT_BYTES;
        let switch_input = || {
            crate::network::switch::stages::port_buffer(
                &policy,
                lanes.port_lanes(),
                in_port_credits,
            )
        };
        // Most credits one lane of a switch input buffer may hold (the audit's limit).
        let lane_limit = crate::network::switch::stages::lane_limit(
            &policy,
            lanes.port_lanes(),
            in_port_credits,
        );
        let shared_total =
            matches!(policy, CreditPolicyConfig::Shared(_)).then_some(in_port_credits);
        let setup = PortSetup { classes, link };
        let total_ports = topology.total_ports() as usize;
        let mut ports = Vec::with_capacity(total_ports);
        let mut buffer_sizes = Vec::with_capacity(if audited { total_ports } else { 0 });
        for g in 0..topology.total_ports() {
            let (node, _) = topology.port_owner(g);
            let downstream = match topology
                .peer(g)
                .map(|q| topology.kind(topology.port_owner(q).0))
            {
                Some(NodeKind::Switch) => switch_input(),
                Some(NodeKind::EndPoint) => LaneCredits::per_lane(port_lanes, nic_credits),
                None => LaneCredits::per_lane(port_lanes, 0),
            };
            let (scheduler, own_in, own_out) = match topology.kind(node) {
                NodeKind::EndPoint => (&net.interface_scheduler, nic_credits, nic_credits),
                NodeKind::Switch => (&net.switch_scheduler, lane_limit, out_credits),
            };
            // A switch may map SLs to lanes its own way at some output ports.
            let table = match topology.kind(node) {
                NodeKind::Switch => switches[topology.switch_of(node) as usize]
                    .output_lanes(topology.port_owner(g).1)
                    .unwrap_or_else(|| lanes.lane_table()),
                NodeKind::EndPoint => lanes.lane_table(),
            };
            let (from_end_point, link) = super::ports::link_of(&topology, &switches, g);
            ports.push(
                OutputPort::new(
                    table,
                    lanes.routing_lanes(),
                    downstream,
                    scheduler.build_static(setup),
                )
                .with_link(from_end_point, link),
            );
            if audited {
                buffer_sizes.push(BufferSizes {
                    input: own_in,
                    output: own_out,
                });
            }
        }
        let streams = RngStreams::new(scenario.seed);
        let mut events = EventQueue::with_finer_slots(finer_slots(n));
        if warms_events(total_ports) {
            events = events.warm_ahead();
        }
        let traffic_classes: Vec<_> = net.classes.iter().map(|c| c.traffic.clone()).collect();
        let mut table = net
            .admission
            .as_ref()
            .map(|a| AdmissionTable::new(&vec![link.bits_per_s(); total_ports], a));
        let mut route_rng = streams.stream(crate::rng::StreamId::Routing);
        // Per end point and class, the route of each admitted connection (in admission
        // order, which is the order of the connections' flow numbers).
        let mut pinned = vec![vec![Vec::new(); classes]; n as usize];
        // The routes of each (source, destination) pair asked about, computed once: a
        // scenario's connections ask about the same pairs many times (R2: 146 000
        // requests over its 4 032 pairs).
        let mut routes_of: HashMap<(u32, u32), Vec<Vec<u32>>> = HashMap::new();
        let traffic = NetworkTraffic::build(
            &traffic_classes,
            n,
            link,
            &streams,
            |endpoint, class, destination, rate| {
                // Every connection takes one route of the routing's routes for its pair,
                // chosen by the routing from their occupancy, and is admitted on its links.
                let (route, admitted) = match table.as_mut() {
                    None => {
                        let r = routing.connection_route(
                            &topology,
                            endpoint,
                            destination,
                            &[],
                            &mut route_rng,
                        );
                        (r, true)
                    }
                    Some(t) => {
                        let routes = routes_of
                            .entry((endpoint, destination))
                            .or_insert_with(|| routing.routes(&topology, endpoint, destination));
                        let loads = t.route_occupancies(routes);
                        let r = routing.connection_route(
                            &topology,
                            endpoint,
                            destination,
                            &loads,
                            &mut route_rng,
                        );
                        let path = routes.get(r).map_or(&[][..], Vec::as_slice);
                        (r, t.try_admit(path, class, rate))
                    }
                };
                if admitted {
                    pinned[endpoint as usize][class as usize].push(route as u32);
                }
                admitted
            },
        )
        .map_err(|e| EngineError::invalid("model.classes", e))?;
        let window_end = SimTime::from_us(scenario.duration_us);
        // The audit's fill tables hold, per port, a slot per lane (switch buffers,
        // reception buffers) or per class (injection buffers).
        let auditor = audited.then(|| {
            let width = port_lanes.max(classes);
            let fills = BufferFills::new(&buffer_sizes, width, port_lanes, shared_total);
            Auditor::new(fills, n, classes, &routing)
        });
        let mut interfaces = Vec::with_capacity(n as usize);
        for ((host, generators), routes) in (0..n).zip(traffic.generators).zip(pinned) {
            let mut interface = Interface::new(generators, routes, nic_credits);
            for c in 0..classes {
                if let Some(first) = interface.pull(c) {
                    if first <= window_end {
                        events.schedule(
                            first,
                            Event::Generate {
                                host,
                                class: c as u16,
                            },
                        );
                    }
                }
            }
            interfaces.push(interface);
        }
        let jitter = net
            .classes
            .iter()
            .map(|c| {
                c.traffic
                    .generator
                    .is_connections()
                    .then(JitterTracker::default)
            })
            .collect();
        let reported_scheduler = if topology.switches() > 0 {
            net.switch_scheduler.kind()
        } else {
            net.interface_scheduler.kind()
        };
        Ok(NetworkSim {
            reported_scheduler,
            events,
            topology,
            routing,
            route_rng,
            pool: PacketPool::default(),
            ports,
            switches,
            actions: Vec::new(),
            interfaces,
            priorities: (0..classes)
                .map(|c| net.classes[c].priority_level(c))
                .collect(),
            link,
            latency: Duration(u64::from(net.link.latency_ns) * PS_PER_NS),
            credit_delay: Duration(u64::from(net.link.credit_delay_ns) * PS_PER_NS),
            lanes,
            counters: vec![ClassCounters::default(); classes],
            jitter,
            admission: traffic.admission,
            window: Window {
                start: SimTime::from_us(scenario.warmup_us),
                end: window_end,
            },
            next_id: 0,
            packet_hops: 0,
            auditor,
            send_audit: SendAudit::default(),
            names: net.classes.iter().map(|c| c.name.clone()).collect(),
            messages: super::Messages::new(net.classes.iter().map(|c| c.mtu_bytes).collect()),
            flits: net.flit_bytes.map(|f| super::Flits::new(f, classes)),
            warm_events: warms_events(total_ports),
        })
    }
}

/// Bytes of output ports from which the fabric starts fetching each event's state one
/// event ahead: a core's second-level cache on the machines measured (1 MiB). Below it
/// (64 end points, R2) the state is still cached when its event comes and the hint only
/// costs (R2 at 30 ms: 1.04); at 1 024 end points (2 MB of ports) it saved a tenth
/// (`docs/performance.md`, twelfth stop).
const WARM_FROM_PORT_BYTES: usize = 1 << 20;

/// Whether a network of `ports` global ports warms its events ([`NetworkSim::warm`]):
/// never where there is no prefetch (WebAssembly).
fn warms_events(ports: usize) -> bool {
    crate::cache_hint::AVAILABLE
        && ports * std::mem::size_of::<OutputPort>() >= WARM_FROM_PORT_BYTES
}

/// How many times the event queue halves its slots for a network of `end_points`
/// ([`EventQueue::with_finer_slots`]): the events pending per slot grow with the end
/// points (about 20 at 64 end points and load 0.5, 350 at 1 024 with the default 8 ns
/// slots), so each doubling of the end points beyond 128 halves the slots, down to 1 ns
/// from 1 024 end points on. Up to 128 end points the default slots stay (finer ones
/// spread the same events over more slot vectors, each a cache line of its own).
fn finer_slots(end_points: u32) -> u32 {
    (end_points / 128)
        .max(1)
        .ilog2()
        .min(crate::kernel::MAX_FINER)
}

#[cfg(test)]
mod tests {
    use super::{finer_slots, warms_events};

    #[test]
    fn only_networks_of_many_ports_warm_their_events() {
        // R2's and the shared benchmarks' 64 end points: 64 + 48 x 8 ports; 1 024 end
        // points with 8-port switches: 1 024 + 1 280 x 8.
        assert!(!warms_events(64 + 48 * 8));
        assert_eq!(warms_events(1024 + 1280 * 8), crate::cache_hint::AVAILABLE);
    }

    #[test]
    fn slots_get_finer_with_the_end_points() {
        let cases = [
            (1, 0),
            (64, 0),
            (255, 0),
            (256, 1),
            (511, 1),
            (512, 2),
            (1024, 3),
        ];
        for (end_points, finer) in cases {
            assert_eq!(finer_slots(end_points), finer, "{end_points} end points");
        }
        assert_eq!(finer_slots(4096), crate::kernel::MAX_FINER);
    }
}
