//! Messages split by per-SL MTUs through the fabric: packet sizes and counts, latency to
//! the last packet by hand, conservation of messages, and a property test over random MTU
//! tables and message sizes.

use proptest::prelude::*;

use super::*;
use crate::scenario::{Model, parse};
use crate::traffic::{Generated, NO_FLOW};

impl NetworkSim {
    /// `host` generates a message of `bytes` for `destination` now, as its generator
    /// would (split by the class's MTU).
    fn message(&mut self, host: u32, class: u16, bytes: u32, destination: u32) {
        let now = self.now();
        self.interfaces[host as usize].next[usize::from(class)] = Some(Generated {
            time: now,
            bytes,
            destination,
            flow: NO_FLOW,
        });
        self.generate(now, host, class);
    }
}

/// A silent network (load 0) on `topology` whose classes have the MTUs `mtus` (`null`:
/// none), 2 Gb/s links, buffers of 16 KiB, flits of 64 B.
fn silent(topology: &str, mtus: &[Option<u32>]) -> NetworkSim {
    let classes: Vec<String> = mtus
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mtu = m.map_or(String::new(), |m| format!(r#","mtu_bytes":{m}"#));
            format!(
                r#"{{"name":"C{i}"{mtu},"traffic":{{"load":0,"generator":{{"kind":"bursts","packets":4,
                   "size":{{"kind":"fixed","bytes":1024}}}},"destinations":{{"kind":"uniform"}}}}}}"#
            )
        })
        .collect();
    let text = format!(
        r#"{{"version":1,"name":"t","seed":1,"duration_us":100000,"warmup_us":0,
        "model":{{"kind":"network","link":{{"rate_gbps":2.0}},"topology":{topology},
          "switch":{{"kind":"cioq","speedup":1.5,"header_crossing_ns":145,
                     "input_buffer_bytes":16384,"output_buffer_bytes":16384}},
          "interface":{{"buffer_bytes":16384}},"flit_bytes":64,
          "classes":[{}],
          "interface_scheduler":{{"kind":"fifo"}},"switch_scheduler":{{"kind":"fifo"}}}}}}"#,
        classes.join(",")
    );
    let s = parse(&text).unwrap();
    crate::scenario::validate(&s).unwrap();
    let Model::Network(net) = &s.model else {
        panic!("not a network")
    };
    NetworkSim::new(&s, net, true).unwrap()
}

/// A 1000 B message with a 256 B MTU on a direct 2 Gb/s link: packets of 256, 256, 256
/// and 232 B, sent back to back (1024 ns per 256 B), arrive at 1024, 2048, 3072 and
/// 3072 + 928 = 4000 ns; the message's latency is its last packet's, 4000 ns.
#[test]
fn latency_of_a_message_is_its_last_packets() {
    let mut sim = silent(r#"{"kind":"link"}"#, &[Some(256)]);
    sim.message(0, 0, 1000, 1);
    assert_eq!(sim.counters()[0].generated, 4);
    assert_eq!(sim.messages_in_flight(0), 1);
    while !sim.advance(1000) {}
    let packets = sim.counters()[0].latency.summary();
    assert_eq!(
        (packets.min, packets.max, packets.samples),
        (Some(1024.0), Some(4000.0), 4)
    );
    let m = sim.messages(0).unwrap();
    assert_eq!((m.generated, m.delivered), (1, 1));
    let l = m.latency.summary();
    assert_eq!((l.min, l.max, l.samples), (Some(4000.0), Some(4000.0), 1));
    assert_eq!(sim.messages_in_flight(0), 0);
    // Flits: 4 + 4 + 4 + ceil(232 / 64) = 16.
    assert_eq!(sim.flits().unwrap().delivered[0], 16);
    assert_eq!(sim.audit(), Some(Audit::default()));
}

/// Without an MTU a message is one packet, and no message is counted.
#[test]
fn without_an_mtu_a_message_is_one_packet() {
    let mut sim = silent(r#"{"kind":"link"}"#, &[None]);
    sim.message(0, 0, 1000, 1);
    while !sim.advance(1000) {}
    assert_eq!(sim.counters()[0].delivered, 1);
    assert_eq!(sim.counters()[0].latency.summary().max, Some(4000.0));
    assert!(sim.messages(0).is_none());
    assert_eq!(sim.messages_in_flight(0), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random MTU tables (or none per SL) and message sizes through a 4-ary 2-tree with
    /// Valiant routing (packets of one message take different paths): at every point,
    /// messages generated = delivered + in flight (counted independently); at the end
    /// every message is delivered, packets = sum of ceil(size / MTU), bytes add up, and no
    /// message arrives before its slowest packet.
    #[test]
    fn messages_are_conserved(
        mtus in proptest::collection::vec(proptest::option::of(64u32..=4096), 1..=3),
        messages in proptest::collection::vec((0u32..16, 1u32..16, 1u32..=8192, 0usize..3), 1..40),
        cut in 1u64..400,
    ) {
        let topology = r#"{"kind":"tree","k":4,"n":2},"routing":{"kind":"valiant"}"#;
        let mut sim = silent(topology, &mtus);
        let mut packets = vec![0u64; mtus.len()];
        let mut bytes = vec![0u64; mtus.len()];
        for &(host, hop, size, class) in &messages {
            let class = class % mtus.len();
            sim.message(host, class as u16, size, (host + hop) % 16);
            packets[class] += u64::from(size.div_ceil(mtus[class].unwrap_or(size)));
            bytes[class] += u64::from(size);
        }
        let mut done = sim.advance(cut);
        loop {
            for c in 0..mtus.len() {
                if let Some(m) = sim.messages(c) {
                    prop_assert_eq!(m.generated, m.delivered + sim.messages_in_flight(c));
                }
            }
            if done {
                break;
            }
            done = sim.advance(cut);
        }
        prop_assert_eq!(sim.packets_stored(), 0);
        for (c, mtu) in mtus.iter().enumerate() {
            let k = &sim.counters()[c];
            prop_assert_eq!(k.generated, packets[c]);
            prop_assert_eq!(k.delivered, packets[c]);
            prop_assert_eq!(k.window_delivered_bytes, bytes[c]);
            match (mtu, sim.messages(c)) {
                (Some(_), Some(m)) => {
                    let sent = messages.iter().filter(|x| x.3 % mtus.len() == c).count() as u64;
                    prop_assert_eq!((m.generated, m.delivered), (sent, sent));
                    let (ml, pl) = (m.latency.summary(), k.latency.summary());
                    prop_assert_eq!(ml.max, pl.max);
                    prop_assert!(ml.min >= pl.min);
                }
                (None, None) => {}
                _ => prop_assert!(false, "message counters without an MTU or the reverse"),
            }
        }
        prop_assert_eq!(sim.audit().map(|a| a.misdelivered), Some(0));
        prop_assert_eq!(sim.audit().map(|a| a.buffer_overflows), Some(0));
    }
}
