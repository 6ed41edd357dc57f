//! R4 (full QoS with two VCs at the switches): admission at 70% per link with the least
//! occupied route per connection on the 64-end-point MINs, and the four design presets
//! (short runs: every invariant, the topology counts and the area table in the results,
//! QoS ahead of best effort).

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod network_scenarios;

use network_scenarios::check_invariants;
use qoslab_core::network::routing::{self, Router, RoutingConfig};
use qoslab_core::network::topology::Topology;
use qoslab_core::rng::{RngStreams, StreamId};
use qoslab_core::traffic::admission::AdmissionTable;
use qoslab_core::traffic::config::AdmissionConfig;
use serde_json::Value;

/// Admits voice connections (512 kb/s) from every end point to pseudo-random
/// destinations, the way the fabric does: each request takes the route the routing
/// chooses from the occupancy of its candidate routes, and is admitted on its links.
/// Returns the table, the links' capacity and how many were admitted.
fn admit_all(
    topology: &Topology,
    routing: RoutingConfig,
    requests: u32,
) -> (AdmissionTable, u64, u32) {
    let router = routing::build(&routing, topology).unwrap();
    let capacity = 8_000_000_000u64;
    let cfg = AdmissionConfig {
        qos_cap: 0.7,
        reserved: vec![0.7],
    };
    let mut table = AdmissionTable::new(&vec![capacity; topology.total_ports() as usize], &cfg);
    let mut rng = RngStreams::new(7).stream(StreamId::Routing);
    let n = topology.end_points();
    let mut admitted = 0;
    for k in 0..requests {
        let source = k % n;
        // Hot destinations: a quarter of the requests go to end point 5.
        let destination = if k % 4 == 0 && source != 5 {
            5
        } else {
            (source + 1 + (k * 37) % (n - 1)) % n
        };
        let routes = router.routes(topology, source, destination);
        let loads = table.route_occupancies(&routes);
        let r = router.connection_route(topology, source, destination, &loads, &mut rng);
        if table.try_admit(&routes[r], 0, 512_000 * 40) {
            admitted += 1;
        }
    }
    (table, capacity, admitted)
}

/// However many connections ask, no directed link carries QoS reservations above 70%
/// of its rate, on both MINs of R4 and with either routing.
#[test]
fn admission_never_puts_qos_above_70_percent_of_a_link() {
    for ports in [8, 16] {
        let t = Topology::folded_min(64, ports).unwrap();
        for routing in [RoutingConfig::UpDown, RoutingConfig::LeastOccupied] {
            let (table, capacity, admitted) = admit_all(&t, routing, 40_000);
            assert!(admitted > 1000, "{admitted}");
            let limit = capacity * 7 / 10;
            let mut full = 0;
            for link in 0..t.total_ports() {
                let total = table.total(link);
                assert!(total <= limit, "link {link}: {total} > {limit}");
                if total + 512_000 * 40 > limit {
                    full += 1;
                }
            }
            assert!(full > 0, "the requests should fill some links");
        }
    }
}

/// Least-occupied routes spread admitted connections: on the 8-port MIN (several
/// minimal routes per pair across stages), with the same requests all admitted, the
/// busiest link between switches carries less than with the one up*/down* route per
/// pair.
#[test]
fn least_occupied_routes_spread_admitted_connections() {
    let t = Topology::folded_min(64, 8).unwrap();
    let busiest = |table: &AdmissionTable| {
        (0..t.total_ports())
            .filter(|&g| {
                let owner = t.port_owner(g).0;
                owner >= t.end_points()
                    && t.peer(g)
                        .is_some_and(|p| t.port_owner(p).0 >= t.end_points())
            })
            .map(|g| table.total(g))
            .max()
            .unwrap()
    };
    let (a, _, na) = admit_all(&t, RoutingConfig::UpDown, 1_000);
    let (b, _, nb) = admit_all(&t, RoutingConfig::LeastOccupied, 1_000);
    assert_eq!((na, nb), (1_000, 1_000));
    assert!(
        busiest(&b) * 10 < busiest(&a) * 9,
        "least occupied {} vs up*/down* {}",
        busiest(&b),
        busiest(&a)
    );
}

const DESIGNS: [(&str, u32, u32, u32); 4] = [
    // preset, switches, links, ports per switch
    ("r4-traditional-8vc", 48, 192, 8),
    ("r4-traditional-2vc", 48, 192, 8),
    ("r4-new-2vc-p", 16, 128, 16),
    ("r4-new-2vc-b", 48, 192, 8),
];

fn preset(name: &str) -> Value {
    let path = format!(
        "{}/../../public/presets/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Each design preset runs (0.3 ms here) with every invariant kept; its results carry
/// the topology counts, the VCs and the spec's area figures; voice (QoS VC) has a lower
/// mean latency than background traffic (best-effort VC).
#[test]
fn the_four_design_presets_run_and_report_their_cost() {
    for (name, switches, links, ports) in DESIGNS {
        let mut doc = preset(name);
        doc["duration_us"] = 300.into();
        doc["warmup_us"] = 100.into();
        let (results, audit, stored, peaks) = network_scenarios::run(&doc);
        check_invariants(&results, audit, stored, peaks);
        let hw = results
            .hardware
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no cost"));
        assert_eq!(
            (hw.switches, hw.links, hw.ports_per_switch),
            (switches, links, ports),
            "{name}"
        );
        let vcs = if name.ends_with("8vc") { 8 } else { 2 };
        assert_eq!(hw.vcs_per_port, vcs, "{name}");
        assert_eq!(hw.buffer_bytes_per_switch, 512 * 1024, "{name}");
        let total_018 = hw.area[0].total_mm2;
        let want = match name {
            "r4-new-2vc-p" => 16.0 * 79.0,
            "r4-traditional-8vc" => 48.0 * 79.0,
            _ => 48.0 * 71.5,
        };
        assert_eq!(total_018, want, "{name}");
        let mean = |c: &str| {
            let class = results.classes.iter().find(|k| k.name == c).unwrap();
            class.latency_ns.mean.unwrap()
        };
        assert!(
            mean("VO") < mean("BK"),
            "{name}: VO {} BK {}",
            mean("VO"),
            mean("BK")
        );
    }
}
