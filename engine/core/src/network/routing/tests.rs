//! Properties of every routing: routes end at the right end point, are minimal where the
//! routing is minimal, go through the top stage for Valiant, and the channel dependency
//! graph over (link direction, lane) is acyclic.

use super::*;
use crate::network::topology::check::bfs;
use proptest::prelude::*;

/// A route walked: source, destination, channels (global port, lane).
type Walk = (u32, u32, Vec<(u32, u8)>);

fn rng() -> RngStream {
    crate::rng::RngStreams::new(9).stream(crate::rng::StreamId::Arrivals(0))
}

/// Every route of every pair, as channels (global port, lane), walked from pinned states.
fn all_walks(r: &dyn Router, t: &Topology) -> Vec<Walk> {
    let mut rng = rng();
    let mut out = Vec::new();
    for s in 0..t.end_points() {
        for d in 0..t.end_points() {
            if s == d {
                continue;
            }
            let count = r.routes(t, s, d).len();
            assert!(count > 0, "{}: no route {s} -> {d}", r.kind());
            for i in 0..count {
                let state = r.pin(t, s, d, i);
                out.push((s, d, walk(r, t, s, d, state, &mut rng)));
            }
            let state = r.on_inject(t, s, d, &mut rng);
            out.push((s, d, walk(r, t, s, d, state, &mut rng)));
        }
    }
    out
}

/// Checks that every walk ends at its destination, matches `routes`, and returns whether
/// the channel dependency graph of the walks is acyclic (lanes merged if `merge_lanes`).
fn acyclic(r: &dyn Router, t: &Topology, walks: &[Walk], merge_lanes: bool) -> bool {
    let lanes = r.lanes();
    let channels = (t.total_ports() * lanes) as usize;
    let mut next: Vec<Vec<u32>> = vec![Vec::new(); channels];
    let id = |(g, l): (u32, u8)| g * lanes + if merge_lanes { 0 } else { u32::from(l) };
    for (s, d, w) in walks {
        assert!(!w.is_empty(), "{}: broken route {s} -> {d}", r.kind());
        assert!(w.iter().all(|&(_, l)| u32::from(l) < lanes));
        let last = t.peer(w[w.len() - 1].0).unwrap();
        assert_eq!(t.port_owner(last).0, *d);
        for pair in w.windows(2) {
            let (a, b) = (id(pair[0]), id(pair[1]));
            if !next[a as usize].contains(&b) {
                next[a as usize].push(b);
            }
        }
    }
    // Kahn's algorithm: acyclic iff every channel can be removed.
    let mut indegree = vec![0u32; channels];
    for out in &next {
        for &b in out {
            indegree[b as usize] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..channels).filter(|&c| indegree[c] == 0).collect();
    let mut removed = 0;
    while let Some(c) = ready.pop() {
        removed += 1;
        for &b in &next[c] {
            indegree[b as usize] -= 1;
            if indegree[b as usize] == 0 {
                ready.push(b as usize);
            }
        }
    }
    removed == channels
}

/// Every route is as long as the shortest path through the graph.
fn minimal(t: &Topology, walks: &[Walk]) {
    let mut dist: Vec<Option<Vec<u32>>> = vec![None; t.end_points() as usize];
    for (s, d, w) in walks {
        let row = dist[*s as usize].get_or_insert_with(|| bfs(t, *s));
        assert_eq!(
            w.len() as u32,
            row[*d as usize],
            "route {s} -> {d} is not minimal"
        );
    }
}

/// Never down then up.
fn up_down_legal(t: &Topology, walks: &[Walk]) {
    for (s, d, w) in walks {
        let dirs: Vec<bool> = w.iter().map(|&(g, _)| t.is_up(g)).collect();
        assert!(
            !dirs.windows(2).any(|p| !p[0] && p[1]),
            "route {s} -> {d}: {dirs:?}"
        );
    }
}

fn built(config: RoutingConfig, t: &Topology) -> Box<dyn Router> {
    Box::new(build(&config, t).unwrap())
}

#[test]
fn up_down_on_mins_and_trees_is_minimal_and_acyclic() {
    for t in [
        Topology::folded_min(64, 8).unwrap(),
        Topology::folded_min(16, 4).unwrap(),
        Topology::tree(4, 3).unwrap(),
        Topology::tree(3, 2).unwrap(),
        Topology::single_switch(4).unwrap(),
    ] {
        let r = built(RoutingConfig::UpDown, &t);
        let walks = all_walks(r.as_ref(), &t);
        minimal(&t, &walks);
        up_down_legal(&t, &walks);
        assert!(acyclic(r.as_ref(), &t, &walks, false));
    }
}

/// The up*/down* tables of a large MIN share their blocks: at 1 024 end points (1 280
/// switches) a table of bytes would take 1.3 MB and miss the cache on nearly every hop;
/// shared, they fit a core's first caches, and every entry still reads as computed
/// (the tables' paths end at their destinations).
#[test]
fn large_up_down_tables_share_their_blocks() {
    let t = Topology::folded_min(1024, 8).unwrap();
    let tables = UpDown::new(&t).unwrap();
    let plain = t.switches() as usize * 1024;
    assert_eq!(plain, 1_310_720);
    assert!(
        tables.table_bytes() < 128 * 1024,
        "{} bytes",
        tables.table_bytes()
    );
    for s in (0..1024).step_by(37) {
        for d in (0..1024).step_by(41) {
            if s != d {
                assert!(!tables.path(&t, s, d).is_empty(), "{s} -> {d}");
            }
        }
    }
}

/// The trait gives the ports of the tables: the fabric's choices stay byte-identical.
#[test]
fn up_down_router_follows_the_tables() {
    let t = Topology::folded_min(64, 8).unwrap();
    let tables = UpDown::new(&t).unwrap();
    let r = built(RoutingConfig::UpDown, &t);
    let mut rng = rng();
    for s in 0..64 {
        for d in 0..64 {
            if s != d {
                let w = walk(r.as_ref(), &t, s, d, RouteState::default(), &mut rng);
                let ports: Vec<u32> = w.iter().map(|&(g, _)| g).collect();
                assert_eq!(ports, tables.path(&t, s, d));
                assert_eq!(r.routes(&t, s, d), vec![tables.path(&t, s, d)]);
            }
        }
    }
}

#[test]
fn valiant_goes_through_the_top_stage() {
    for (k, n) in [(4, 3), (3, 2), (2, 4), (2, 1)] {
        let t = Topology::tree(k, n).unwrap();
        let r = built(RoutingConfig::Valiant, &t);
        let walks = all_walks(r.as_ref(), &t);
        up_down_legal(&t, &walks);
        assert!(acyclic(r.as_ref(), &t, &walks, false));
        for (s, d, w) in &walks {
            assert_eq!(w.len() as u32, 2 * n, "{k}-ary {n}-tree {s} -> {d}");
            let top = w.iter().any(|&(g, _)| t.level(t.port_owner(g).0) == n);
            assert!(top, "{k}-ary {n}-tree {s} -> {d} misses the top stage");
        }
        // One route per top switch, all different.
        let routes = r.routes(&t, 0, t.end_points() - 1);
        assert_eq!(routes.len() as u32, k.pow(n - 1));
        let mut unique = routes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), routes.len());
    }
}

#[test]
fn dimension_order_is_minimal_and_the_dateline_breaks_the_cycles() {
    for (dims, trunk, e) in [
        (vec![4, 4], 2, 1),
        (vec![5, 3], 1, 2),
        (vec![3, 3, 3], 2, 1),
        (vec![6], 3, 1),
        (vec![2, 3], 1, 1),
    ] {
        let t = Topology::torus(&dims, trunk, e).unwrap();
        let r = built(RoutingConfig::DimensionOrder, &t);
        assert_eq!(r.lanes(), 2);
        let walks = all_walks(r.as_ref(), &t);
        minimal(&t, &walks);
        assert!(acyclic(r.as_ref(), &t, &walks, false), "{dims:?}");
        if dims.iter().any(|&d| d >= 4) {
            assert!(
                !acyclic(r.as_ref(), &t, &walks, true),
                "{dims:?} has no cycle to break"
            );
        }
        // One route per trunk port, each using that port of every trunk.
        let routes = r.routes(&t, 0, t.end_points() - 1);
        assert_eq!(routes.len() as u32, trunk);
    }
}

/// The two tori of the spec route every sampled pair minimally and in one trunk port.
#[test]
fn dimension_order_on_the_spec_tori() {
    for (dims, trunk, e) in [(vec![8, 8], 10, 8), (vec![8, 8, 8], 4, 4)] {
        let t = Topology::torus(&dims, trunk, e).unwrap();
        let r = built(RoutingConfig::DimensionOrder, &t);
        let mut rng = rng();
        let n = t.end_points();
        let mut walks = Vec::new();
        for s in (0..n).step_by(37) {
            for d in (0..n).step_by(11) {
                if s != d {
                    let state = r.on_inject(&t, s, d, &mut rng);
                    walks.push((s, d, walk(r.as_ref(), &t, s, d, state, &mut rng)));
                }
            }
        }
        minimal(&t, &walks);
        assert!(acyclic(r.as_ref(), &t, &walks, false));
    }
}

#[test]
fn least_occupied_offers_every_minimal_route() {
    for t in [
        Topology::tree(4, 3).unwrap(),
        Topology::folded_min(64, 8).unwrap(),
    ] {
        let r = built(RoutingConfig::LeastOccupied, &t);
        let walks = all_walks(r.as_ref(), &t);
        minimal(&t, &walks);
        up_down_legal(&t, &walks);
        assert!(acyclic(r.as_ref(), &t, &walks, false));
        // Each pinned route is the route listed under its index.
        let routes = r.routes(&t, 0, 63);
        let mut rng = rng();
        for (i, route) in routes.iter().enumerate() {
            let w = walk(r.as_ref(), &t, 0, 63, r.pin(&t, 0, 63, i), &mut rng);
            assert_eq!(&w.iter().map(|&(g, _)| g).collect::<Vec<_>>(), route);
        }
        let mut unique = routes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), routes.len());
        // Datagrams follow the tables.
        let tables = UpDown::new(&t).unwrap();
        let w = walk(r.as_ref(), &t, 5, 40, RouteState::default(), &mut rng);
        assert_eq!(
            w.iter().map(|&(g, _)| g).collect::<Vec<_>>(),
            tables.path(&t, 5, 40)
        );
    }
    // In the 4-ary 3-tree, end points in different top subtrees have 16 routes, and a
    // connection takes the least loaded one.
    let t = Topology::tree(4, 3).unwrap();
    let r = built(RoutingConfig::LeastOccupied, &t);
    assert_eq!(r.routes(&t, 0, 63).len(), 16);
    assert_eq!(r.routes(&t, 0, 5).len(), 4);
    assert_eq!(r.routes(&t, 0, 1).len(), 1);
    let loads = [0.5, 0.25, 0.25, 0.75];
    assert_eq!(r.connection_route(&t, 0, 5, &loads, &mut rng()), 1);
}

#[test]
fn routings_fit_their_topologies() {
    let tree = Topology::tree(2, 2).unwrap();
    let torus = Topology::torus(&[3, 3], 1, 1).unwrap();
    let min = Topology::folded_min(16, 4).unwrap();
    use RoutingConfig::*;
    for (config, t, kind) in [
        (UpDown, &tree, Some("up_down")),
        (UpDown, &min, Some("up_down")),
        (UpDown, &torus, None),
        (Valiant, &tree, Some("valiant")),
        (Valiant, &min, None),
        (Valiant, &torus, None),
        (DimensionOrder, &torus, Some("dimension_order")),
        (DimensionOrder, &tree, None),
        (LeastOccupied, &min, Some("least_occupied")),
        (LeastOccupied, &torus, None),
    ] {
        assert_eq!(fits(&config, t).is_ok(), kind.is_some(), "{config:?}");
        match build(&config, t) {
            Ok(r) => {
                assert_eq!(Some(r.kind()), kind);
                assert_eq!(
                    r.lanes(),
                    config.lanes(),
                    "{config:?}: lanes known before building"
                );
            }
            Err(e) => assert!(kind.is_none() && !e.0.is_empty()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_tori_route_minimally_without_cycles(
        dims in prop::collection::vec(2u32..5, 1..=3),
        trunk in 1u32..3,
        e in 1u32..3,
    ) {
        let t = Topology::torus(&dims, trunk, e).unwrap();
        let r = built(RoutingConfig::DimensionOrder, &t);
        let walks = all_walks(r.as_ref(), &t);
        minimal(&t, &walks);
        prop_assert!(acyclic(r.as_ref(), &t, &walks, false));
    }

    #[test]
    fn random_trees_route_without_cycles(k in 2u32..5, n in 1u32..4) {
        let t = Topology::tree(k, n).unwrap();
        for config in [RoutingConfig::UpDown, RoutingConfig::Valiant, RoutingConfig::LeastOccupied] {
            let r = built(config, &t);
            let walks = all_walks(r.as_ref(), &t);
            up_down_legal(&t, &walks);
            if config != RoutingConfig::Valiant {
                minimal(&t, &walks);
            }
            prop_assert!(acyclic(r.as_ref(), &t, &walks, false));
        }
    }
}

/// What a router answers for topology `t`: its kind, lanes and flags, every pair's routes,
/// pinned states, injections, connection routes under random loads and random walks (the
/// same random stream for both routers compared).
fn router_answers(r: &dyn Router, t: &Topology) -> Vec<String> {
    let mut rng = rng();
    let mut out = vec![format!(
        "{} {} {} {}",
        r.kind(),
        r.lanes(),
        r.datagrams_keep_one_path(),
        r.connections_share_path()
    )];
    let n = t.end_points();
    for s in 0..n {
        for d in (0..n).filter(|&d| d != s) {
            let routes = r.routes(t, s, d);
            let loads: Vec<f64> = (0..routes.len())
                .map(|i| ((i * 7 + s as usize) % 5) as f64 / 4.0)
                .collect();
            let chosen = r.connection_route(t, s, d, &loads, &mut rng);
            let state = r.on_inject(t, s, d, &mut rng);
            let pinned: Vec<RouteState> = (0..routes.len()).map(|i| r.pin(t, s, d, i)).collect();
            let walked = walk(r, t, s, d, state, &mut rng);
            out.push(format!(
                "{s} {d} {routes:?} {chosen} {state:?} {pinned:?} {walked:?}"
            ));
        }
    }
    out
}

/// The enum the fabric holds ([`AnyRouter`], generated by the registry) answers exactly as
/// the router it wraps, built directly, for every routing on topologies it fits.
#[test]
fn any_router_answers_as_its_router() {
    let trees = [Topology::tree(4, 2).unwrap(), Topology::tree(2, 3).unwrap()];
    let mins = [
        Topology::folded_min(16, 4).unwrap(),
        Topology::single_switch(4).unwrap(),
    ];
    let tori = [
        Topology::torus(&[3, 4], 1, 1).unwrap(),
        Topology::torus(&[4, 2], 2, 2).unwrap(),
    ];
    for t in trees.iter().chain(&mins) {
        let any = build(&RoutingConfig::UpDown, t).unwrap();
        assert_eq!(
            router_answers(&any, t),
            router_answers(&UpDown::new(t).unwrap(), t)
        );
        let any = build(&RoutingConfig::LeastOccupied, t).unwrap();
        let direct = LeastOccupied::new(t).unwrap();
        assert_eq!(router_answers(&any, t), router_answers(&direct, t));
    }
    for t in &trees {
        let any = build(&RoutingConfig::Valiant, t).unwrap();
        assert_eq!(
            router_answers(&any, t),
            router_answers(&Valiant::new(t).unwrap(), t)
        );
    }
    for t in &tori {
        let any = build(&RoutingConfig::DimensionOrder, t).unwrap();
        let direct = DimensionOrder::new(t).unwrap();
        assert_eq!(router_answers(&any, t), router_answers(&direct, t));
    }
    assert!(matches!(
        build(&RoutingConfig::Valiant, &tori[0]),
        Err(RoutingError(_))
    ));
}
