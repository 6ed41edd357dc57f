//! Hand-computed checks of the fabric with the CIOQ switch, and deadlock freedom in
//! practice (flooded networks drain) with every switch kind.

use super::*;
use crate::network::credits_for;
use crate::network::port::NetPacket;
use crate::network::routing::Router;
use crate::scenario::{Model, parse};
use crate::traffic::NO_FLOW;

impl NetworkSim {
    /// Puts a packet into `host`'s application queue now, as a generator would.
    fn inject(&mut self, host: u32, class: u16, bytes: u32, destination: u32) {
        let now = self.now();
        let packet = NetPacket {
            id: self.next_id,
            created: now,
            tail: now,
            bytes,
            credits: credits_for(bytes),
            source: host,
            destination,
            sl: class,
            lane: 0,
            priority: self.priorities[usize::from(class)],
            flow: NO_FLOW,
            route: self
                .routing
                .on_inject(&self.topology, host, destination, &mut self.route_rng),
        };
        if let Some(auditor) = self.auditor.as_mut() {
            auditor.on_generated(&packet);
        }
        self.next_id += 1;
        self.counters[usize::from(class)].on_generated(now, bytes, &self.window);
        self.interfaces[host as usize].application[usize::from(class)].push_back(packet);
        self.admit(now, host, usize::from(class));
        self.try_send(now, host);
    }
}

/// A silent network (load 0: no generator) to drive by hand.
fn silent(topology: &str, buffers: (u32, u32, u32), credit_delay_ns: u32) -> NetworkSim {
    silent_with(topology, "", buffers, credit_delay_ns)
}

/// A silent network with `extra` model fields (each followed by a comma), e.g. a
/// routing and lanes.
fn silent_with(
    topology: &str,
    extra: &str,
    buffers: (u32, u32, u32),
    credit_delay_ns: u32,
) -> NetworkSim {
    let switch = format!(
        r#"{{"kind":"cioq","speedup":1.5,"header_crossing_ns":145,
            "input_buffer_bytes":{},"output_buffer_bytes":{}}}"#,
        buffers.0, buffers.1
    );
    silent_switch(topology, extra, &switch, buffers.2, credit_delay_ns)
}

/// A silent network of `switch`es, interfaces of `nic_bytes` per class, links of
/// 2 Gb/s, two classes.
fn silent_switch(
    topology: &str,
    extra: &str,
    switch: &str,
    nic_bytes: u32,
    credit_delay_ns: u32,
) -> NetworkSim {
    let text = format!(
        r#"{{"version":1,"name":"t","seed":1,"duration_us":1000,"warmup_us":0,
        "model":{{"kind":"network",
          "link":{{"rate_gbps":2.0,"credit_delay_ns":{credit_delay_ns}}},
          "topology":{topology},{extra}
          "switch":{switch},
          "interface":{{"buffer_bytes":{nic_bytes}}},
          "classes":[{{"name":"A","traffic":{{"load":0,"generator":{{"kind":"bursts","packets":1,
                      "size":{{"kind":"fixed","bytes":2048}}}},"destinations":{{"kind":"uniform"}}}}}},
                     {{"name":"B","traffic":{{"load":0,"generator":{{"kind":"bursts","packets":1,
                      "size":{{"kind":"fixed","bytes":2048}}}},"destinations":{{"kind":"uniform"}}}}}}],
          "interface_scheduler":{{"kind":"fifo"}},"switch_scheduler":{{"kind":"fifo"}}}}}}"#
    );
    let s = parse(&text).unwrap();
    crate::scenario::validate(&s).unwrap();
    let Model::Network(net) = &s.model else {
        panic!("not a network")
    };
    NetworkSim::new(&s, net, true).unwrap()
}

/// Every switch kind with buffers of one 2048-byte packet per lane, for ports of `lanes`
/// lanes (the InfiniBand-like and Omni-Path-like switches' buffers are per port, shared
/// by its lanes; the Omni-Path-like one's central buffer per MPort, half per link).
fn every_switch(lanes: u32) -> Vec<String> {
    let per_port = 2048 * lanes;
    vec![
        r#"{"kind":"cioq","speedup":1.5,"header_crossing_ns":145,
            "input_buffer_bytes":2048,"output_buffer_bytes":2048}"#
            .to_string(),
        r#"{"kind":"two_vc","speedup":2,"header_crossing_ns":145,"arbitration":"priority",
            "input_buffer_bytes":2048,"output_buffer_bytes":2048}"#
            .to_string(),
        format!(
            r#"{{"kind":"infiniband","input_buffer_bytes":{per_port},"output_buffer_bytes":{per_port}}}"#
        ),
        format!(
            r#"{{"kind":"omnipath","input_buffer_bytes":{per_port},"output_buffer_bytes":{per_port},
                "central_buffer_bytes":{}}}"#,
            2 * per_port
        ),
    ]
}

fn latencies(sim: &NetworkSim) -> (f64, f64, u64) {
    let l = sim.counters()[0].latency.summary();
    (l.min.unwrap(), l.max.unwrap(), l.samples)
}

/// Two 2048 B packets over a direct link whose receiver holds one packet: the
/// injection buffer (one packet) holds the second in the application queue until the
/// first has left (8192 ns); the reception credits come back 1000 ns after the first
/// is consumed (8192 + 1000), so the second arrives at 9192 + 8192 = 17384 ns.
#[test]
fn credits_pace_a_direct_link() {
    let mut sim = silent(r#"{"kind":"link"}"#, (2048, 2048, 2048), 1000);
    sim.inject(0, 0, 2048, 1);
    sim.inject(0, 0, 2048, 1);
    assert_eq!(sim.interfaces[0].backlog(0), 1);
    while !sim.advance(1000) {}
    assert_eq!(latencies(&sim), (8192.0, 17384.0, 2));
    assert_eq!(sim.audit(), Some(Audit::default()));
    assert_eq!(sim.packets_stored(), 0);
}

/// Two 2048 B packets from end points 0 and 1 to end point 2 of one switch, at time 0.
/// Both headers have crossed at 145 ns; input 0 wins output 2. Its transfer cannot end
/// before its tail has arrived (8192 ns) while the output link, cutting through, sends
/// it from 145 ns: delivered at 145 + 8192 = 8337 ns. Input 1's transfer starts when
/// output 2's crossbar side is free (8192 ns) and, its packet being all buffered,
/// takes 2048 B at 3 Gb/s = 5461.334 ns; the link is free at 8337 ns and sends it by
/// 8337 + 8192 = 16529 ns.
#[test]
fn one_transfer_per_output_and_cut_through() {
    let mut sim = silent(
        r#"{"kind":"single_switch","ports":3}"#,
        (16384, 16384, 32768),
        0,
    );
    sim.inject(0, 0, 2048, 2);
    sim.inject(1, 0, 2048, 2);
    while !sim.advance(1000) {}
    assert_eq!(latencies(&sim), (8337.0, 16529.0, 2));
    assert_eq!(sim.audit(), Some(Audit::default()));
}

/// Deadlock freedom in practice: every end point of a 16-end-point MIN (4 stages of
/// 4-port switches) and of the 64-end-point MIN puts 30 packets of mixed sizes for
/// mixed destinations into the network at once, with buffers of one packet everywhere
/// and two classes; with no new traffic, the network must drain completely.
#[test]
fn a_flooded_min_drains() {
    for (topology, n) in [
        (r#"{"kind":"min","end_points":16,"switch_ports":4}"#, 16u32),
        (r#"{"kind":"min","end_points":64,"switch_ports":8}"#, 64),
    ] {
        for switch in every_switch(2) {
            let sim = silent_switch(topology, "", &switch, 2048, 50);
            flood_and_drain(sim, n, &format!("{topology} {switch}"));
        }
    }
}

/// Floods `sim` (`n` end points) with 30 packets per end point at once, of mixed sizes
/// (64 to 2048 B), for mixed destinations, alternating the two classes; with no new
/// traffic the network must drain completely, with no breach of its invariants.
fn flood_and_drain(mut sim: NetworkSim, n: u32, what: &str) {
    flood_and_run(&mut sim, n);
    assert_eq!(sim.packets_stored(), 0, "{what}: packets stuck");
    assert_eq!(
        sim.counters()[0].delivered + sim.counters()[1].delivered,
        u64::from(30 * n),
        "{what}"
    );
    assert_eq!(sim.audit(), Some(Audit::default()), "{what}");
}

/// Deadlock freedom of dimension-order routing with its dateline lanes: flooded 2D and
/// 3D tori (rings of 4, whose wrap-around links close channel cycles without the
/// dateline), buffers of one packet per lane everywhere, drain completely; also with
/// the input buffers shared among the lanes (each lane keeps one packet's reservation).
#[test]
fn a_flooded_torus_with_dimension_order_drains() {
    let dor = r#""routing":{"kind":"dimension_order"},"#;
    let shared = r#""routing":{"kind":"dimension_order"},
        "lanes":{"credits":{"kind":"shared","min_bytes":2048,"max_bytes":4096}},"#;
    for (topology, n, extra) in [
        (
            r#"{"kind":"torus","dims":[4,4],"trunk_ports":2,"end_points_per_switch":2}"#,
            32u32,
            dor,
        ),
        (
            r#"{"kind":"torus","dims":[4,4,4],"trunk_ports":1,"end_points_per_switch":1}"#,
            64,
            dor,
        ),
        (
            r#"{"kind":"torus","dims":[5],"trunk_ports":1,"end_points_per_switch":3}"#,
            15,
            dor,
        ),
        (
            r#"{"kind":"torus","dims":[4,4],"trunk_ports":1,"end_points_per_switch":2}"#,
            32,
            shared,
        ),
    ] {
        for switch in every_switch(4) {
            let sim = silent_switch(topology, extra, &switch, 2048, 50);
            assert_eq!(
                sim.lanes().port_lanes(),
                4,
                "two classes x two dateline lanes"
            );
            flood_and_drain(sim, n, &format!("{topology} {switch}"));
        }
    }
}

/// Deadlock freedom of Valiant routing (up to a random top switch, then down): flooded
/// k-ary n-trees with buffers of one packet drain completely.
#[test]
fn a_flooded_tree_with_valiant_drains() {
    let valiant = r#""routing":{"kind":"valiant"},"#;
    for (topology, n) in [
        (r#"{"kind":"tree","k":4,"n":3}"#, 64u32),
        (r#"{"kind":"tree","k":2,"n":4}"#, 16),
    ] {
        for switch in every_switch(2) {
            let sim = silent_switch(topology, valiant, &switch, 2048, 50);
            flood_and_drain(sim, n, &format!("{topology} {switch}"));
        }
    }
}

/// Output buffers of one packet: three packets from three inputs to one output. The
/// crossbar moves a packet only when the output buffer has room for all of it, i.e.
/// after the previous one has left on the link; nothing is lost, and the buffers fill
/// up to, never beyond, their size.
#[test]
fn output_buffer_room_gates_the_crossbar() {
    let mut sim = silent(
        r#"{"kind":"single_switch","ports":4}"#,
        (2048, 2048, 2048),
        0,
    );
    for host in 0..3 {
        sim.inject(host, 0, 2048, 3);
    }
    while !sim.advance(1000) {}
    let (min, max, n) = latencies(&sim);
    assert_eq!((min, n), (8337.0, 3));
    // The second packet crosses once the first has left the output (8337 ns), at
    // 3 Gb/s; the link sends it 8337 .. 16529; the third waits for 16529 and ends at
    // 16529 + 8192 = 24721 ns.
    assert_eq!(max, 24721.0);
    assert_eq!(sim.audit(), Some(Audit::default()));
    assert_eq!(sim.peak_fill(), Some((1.0, 1.0)));
}

/// A lone 2048 B packet through an idle InfiniBand-like switch (2 Gb/s links: a cycle,
/// one 64 B flit, is 256 ns): the switch adds its six stages, 6 x 256 = 1536 ns, to the
/// serialisation (cut-through: it counts once), 8192 ns; with the reference's other
/// stage latencies, the sum of the configured cycles.
#[test]
fn a_lone_packet_crosses_an_idle_infiniband_switch_in_its_stage_cycles() {
    for (switch, cycles) in [
        (r#"{"kind":"infiniband"}"#, 6.0),
        (
            r#"{"kind":"infiniband","cycles":{"routing":3,"crossbar":2,"output_buffer":0}}"#,
            1.0 + 3.0 + 1.0 + 1.0 + 2.0,
        ),
    ] {
        let topology = r#"{"kind":"single_switch","ports":3}"#;
        let mut sim = silent_switch(topology, "", switch, 4096, 0);
        sim.inject(0, 0, 2048, 2);
        while !sim.advance(1000) {}
        let expect = 8192.0 + cycles * 256.0;
        assert_eq!(latencies(&sim), (expect, expect, 1), "{switch}");
        assert_eq!(sim.audit(), Some(Audit::default()));
    }
}

/// A lone 2048 B packet through an idle Omni-Path-like switch of 6 ports (MPorts 0-3
/// and 4-5; 2 Gb/s links, a cycle is 256 ns): to a port of its own MPort it takes the
/// six MPort stages, to the other MPort four more (central buffer, VL and switch
/// allocation, central crossbar); cut-through, the serialisation (8192 ns) counts once.
#[test]
fn a_lone_packet_crosses_an_idle_omnipath_switch_in_its_stage_cycles() {
    for (switch, to, cycles) in [
        (r#"{"kind":"omnipath"}"#, 2, 6.0),
        (r#"{"kind":"omnipath"}"#, 5, 10.0),
        (
            r#"{"kind":"omnipath","cycles":{"routing":3},"central_cycles":{"buffer":2,"crossbar":0}}"#,
            5,
            1.0 + 3.0 + 1.0 + 1.0 + 1.0 + 2.0 + 1.0 + 1.0 + 0.0 + 1.0,
        ),
    ] {
        let topology = r#"{"kind":"single_switch","ports":6}"#;
        let mut sim = silent_switch(topology, "", switch, 4096, 0);
        sim.inject(0, 0, 2048, to);
        while !sim.advance(1000) {}
        let expect = 8192.0 + cycles * 256.0;
        assert_eq!(latencies(&sim), (expect, expect, 1), "{switch} to {to}");
        assert_eq!(sim.audit(), Some(Audit::default()));
    }
}

/// SL2VL per output port: the switch's port 2 (to end point 2) swaps the two classes'
/// VLs. A class-0 packet from end point 0 leaves the switch on VL 1, so it fills VL 1 of
/// end point 2's reception buffer and never VL 0; the other ports keep the lane map.
#[test]
fn an_output_port_sl2vl_table_remaps_the_vl() {
    let topology = r#"{"kind":"single_switch","ports":3}"#;
    let switch = r#"{"kind":"infiniband","output_sl2vl":[{"ports":[2],"sl2vl":[1,0]}]}"#;
    let mut sim = silent_switch(topology, "", switch, 4096, 0);
    let base = sim.topology.end_points();
    let to_2 = sim.topology.global_port(base, 2).unwrap() as usize;
    let to_1 = sim.topology.global_port(base, 1).unwrap() as usize;
    assert_eq!(
        (
            sim.ports[to_2].lane_of_queue(0),
            sim.ports[to_2].lane_of_queue(1)
        ),
        (1, 0)
    );
    assert_eq!(sim.ports[to_1].lane_of_queue(0), 0);
    sim.inject(0, 0, 2048, 2);
    let mut peak = [0u32; 2];
    while !sim.advance(1) {
        for (lane, p) in peak.iter_mut().enumerate() {
            let fills = &sim.auditor.as_ref().unwrap().fills;
            *p = (*p).max(fills.input(2, lane as u16));
        }
    }
    assert_eq!(peak, [0, 32], "class 0 arrives on VL 1");
    assert_eq!(sim.counters()[0].delivered, 1);
    assert_eq!(sim.audit(), Some(Audit::default()));
}

/// Deadlock freedom with remapped ports: a flooded torus with dimension order whose
/// switches put both classes on VL 0 at some ports (the dateline lanes stay apart)
/// drains.
#[test]
fn a_flooded_torus_with_remapped_ports_drains() {
    let topology = r#"{"kind":"torus","dims":[4,4],"trunk_ports":1,"end_points_per_switch":2}"#;
    let extra = r#""routing":{"kind":"dimension_order"},"#;
    let switch = r#"{"kind":"infiniband","input_buffer_bytes":8192,"output_buffer_bytes":8192,
        "output_sl2vl":[{"ports":[0,2,4],"sl2vl":[0,0]},{"ports":[1],"sl2vl":[1,0]}]}"#;
    let sim = silent_switch(topology, extra, switch, 2048, 50);
    flood_and_drain(sim, 32, "remapped torus");
}

/// Fetching each event's state one event ahead, and each slot's events one slot ahead
/// (large networks only), is a hint: on a flooded 64-end-point MIN of every switch kind,
/// a run with it forced on delivers the same packets at the same times, in as many
/// events, as one without.
#[test]
fn warming_the_next_event_changes_nothing() {
    let topology = r#"{"kind":"min","end_points":64,"switch_ports":8}"#;
    for switch in every_switch(2) {
        let runs: Vec<_> = [false, true]
            .into_iter()
            .map(|warm| {
                let mut sim = silent_switch(topology, "", &switch, 2048, 50);
                assert!(!sim.warm_events, "64 end points do not warm");
                sim.warm_events = warm;
                if warm {
                    sim.events = std::mem::take(&mut sim.events).warm_ahead();
                }
                flood_and_run(&mut sim, 64);
                (latencies(&sim), sim.events.events_processed(), sim.now())
            })
            .collect();
        assert_eq!(runs[0], runs[1], "{switch}");
    }
}

/// Puts [`flood_and_drain`]'s packets into `sim` (`n` end points) and runs it to the end.
fn flood_and_run(sim: &mut NetworkSim, n: u32) {
    for k in 0..30u32 {
        for host in 0..n {
            let d = (host + 1 + (k * 7 + host * 3) % (n - 1)) % n;
            let bytes = 64 + (k * 331 + host * 97) % 1985;
            sim.inject(host, (k % 2) as u16, bytes.min(2048), d);
        }
    }
    while !sim.advance(10_000) {}
}

/// An event stays 16 bytes (24 with its time in the queue's slots) with the delivery's
/// audit entry (source and SL) carried beside the packet handle.
#[test]
fn an_event_is_sixteen_bytes() {
    assert_eq!(std::mem::size_of::<super::Event>(), 16);
}
