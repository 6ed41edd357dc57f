//! Random small networks for the invariants property test of `network.rs`: topologies
//! with the routings they admit, lane maps and credit policies, traffic generators,
//! destinations, admission, schedulers, buffers and link timing.

use super::network_scenarios::*;
use super::scheduler_strategies::scheduler_strategy;
use super::size_strategies::size_strategy;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};
use serde_json::{Value, json};

/// A random traffic generator of every kind and its largest packet. Connection rates are
/// kept high enough (1 Mb/s and up) that a class opens at most about 1200 connections per
/// end point, and video frame intervals short enough (0.1-5 ms) that streams send within
/// a short run.
fn generator_strategy() -> impl Strategy<Value = (Value, u32)> {
    prop_oneof![
        (1u32..=20, size_strategy()).prop_map(|(packets, (size, mtu))| {
            (
                json!({"kind": "bursts", "packets": packets, "size": size}),
                mtu,
            )
        }),
        (1_000_000u64..=100_000_000, 1u32..=4096).prop_map(|(rate, bytes)| {
            (
                json!({"kind": "cbr", "rate_bps": rate, "packet_bytes": bytes}),
                bytes,
            )
        }),
        (
            1_000_000u64..=20_000_000,
            100u32..=5000,
            "[IPB]{1,12}",
            (0.5f64..20.0, 0.5f64..10.0, 0.5f64..5.0),
            0.0f64..1.0,
            64u32..=4096,
        )
            .prop_map(|(rate, interval, gop, (i, p, b), variation, mtu)| {
                (
                    json!({"kind": "video", "rate_bps": rate, "frame_interval_us": interval,
                           "gop": gop, "i_ratio": i, "p_ratio": p, "b_ratio": b,
                           "variation": variation, "mtu_bytes": mtu}),
                    mtu,
                )
            }),
        (
            proptest::collection::vec(1u32..=20_000, 1..=12),
            100u32..=5000,
            proptest::option::of(1_000_000u64..=20_000_000),
            64u32..=4096,
        )
            .prop_map(|(frames, interval, rate, mtu)| {
                let trace: String = frames.iter().map(|f| format!("{f}\n")).collect();
                let mut g = json!({"kind": "video_trace", "trace": format!("# test\n{trace}"),
                                   "frame_interval_us": interval, "mtu_bytes": mtu});
                if let Some(r) = rate {
                    g["rate_bps"] = json!(r);
                }
                (g, mtu)
            }),
    ]
}

/// A random destination model for `n` end points (bit permutations only for a power of
/// two).
fn destinations_strategy(n: u32) -> BoxedStrategy<Value> {
    let mut options: Vec<BoxedStrategy<Value>> = vec![
        Just(json!({"kind": "uniform"})).boxed(),
        (0.0f64..3.0, any::<bool>())
            .prop_map(|(s, random)| {
                json!({"kind": "zipf", "exponent": s,
                       "ranking": if random { "random" } else { "distance" }})
            })
            .boxed(),
        (0..n, 0.0f64..=1.0)
            .prop_map(|(e, f)| json!({"kind": "hot_spot", "endpoint": e, "fraction": f}))
            .boxed(),
        Just(json!({"kind": "permutation", "pattern": "random_derangement"})).boxed(),
    ];
    if n.is_power_of_two() {
        options.push(
            prop_oneof![Just("bit_complement"), Just("bit_reversal")]
                .prop_map(|p| json!({"kind": "permutation", "pattern": p}))
                .boxed(),
        );
    }
    Union::new(options).boxed()
}

/// A random small topology, its number of end points, and a routing it admits (None
/// for the default).
fn topology_strategy() -> impl Strategy<Value = (Value, u32, Option<&'static str>)> {
    let levelled = prop_oneof![
        Just((json!({"kind": "link"}), 2)),
        (2u32..=8).prop_map(|p| (json!({"kind": "single_switch", "ports": p}), p)),
        Just((min(4, 4), 4)),
        Just((min(8, 4), 8)),
        Just((min(16, 8), 16)),
        Just((min(16, 4), 16)),
    ];
    let up_down = prop_oneof![
        Just(None),
        Just(Some("up_down")),
        Just(Some("least_occupied"))
    ];
    let trees = (
        2u32..=3,
        1u32..=3,
        prop_oneof![Just("up_down"), Just("valiant"), Just("least_occupied")],
    )
        .prop_map(|(k, n, r)| (json!({"kind": "tree", "k": k, "n": n}), k.pow(n), Some(r)));
    let tori = (
        proptest::collection::vec(2u32..=4, 1..=3),
        1u32..=2,
        1u32..=2,
    )
        .prop_map(|(dims, trunk, eps)| {
            let n = dims.iter().product::<u32>() * eps;
            (
                json!({"kind": "torus", "dims": dims, "trunk_ports": trunk, "end_points_per_switch": eps}),
                n,
                Some("dimension_order"),
            )
        });
    prop_oneof![
        2 => (levelled, up_down).prop_map(|((t, n), r)| (t, n, r)),
        1 => trees,
        1 => tori,
    ]
}

/// A random lane map for `k` classes and credit policy for packets up to `mtu` bytes
/// (None for the defaults: identity, per lane).
fn lanes_strategy(k: usize, mtu: u32) -> impl Strategy<Value = Option<Value>> {
    let map = prop_oneof![
        Just(None),
        Just(Some(json!({"kind": "identity"}))),
        proptest::collection::vec(0u8..3, k)
            .prop_map(|t| Some(json!({"kind": "sl2vl", "sl2vl": t}))),
        proptest::collection::vec(0u8..2, k)
            .prop_map(|t| Some(json!({"kind": "class_to_vc", "vc": t}))),
        (proptest::collection::vec(0u8..3, 2 * k), 0u8..2).prop_map(move |(vl, shift)| {
            // SL s on SC 2s + shift (never 15 with at most 4 classes).
            let sc: Vec<u8> = (0..k as u8).map(|s| 2 * s + shift).collect();
            let mut back = vec![0u8; 2 * k + 1];
            for (s, &c) in sc.iter().enumerate() {
                back[usize::from(c)] = s as u8;
            }
            let mut vl = vl;
            vl.push(0);
            Some(json!({"kind": "omnipath", "sl2sc": sc, "sc2vl": vl, "sc2sl": back}))
        }),
    ];
    let min = mtu.next_multiple_of(64).max(64);
    let credits = prop_oneof![
        Just(None),
        Just(Some(json!({"kind": "per_lane"}))),
        // `max_bytes` is a percentage here, of the room above `min_bytes` in one lane's
        // share of the buffer; the case scales it once the buffer is drawn.
        (0u32..=100).prop_map(move |f| {
            Some(json!({"kind": "shared", "min_bytes": min, "max_bytes": f}))
        }),
    ];
    (map, credits).prop_map(|(map, credits)| match (map, credits) {
        (None, None) => None,
        (map, credits) => {
            let mut lanes = json!({});
            if let Some(m) = map {
                lanes["map"] = m;
            }
            if let Some(c) = credits {
                lanes["credits"] = c;
            }
            Some(lanes)
        }
    })
}

#[derive(Debug, Clone)]
pub struct Case {
    pub doc: Value,
}

/// A random valid network: topology, 1-4 classes of random traffic (any generator and
/// destination model, load per end point up to 0.6 each, so some runs overload), random
/// admission control (or none), random schedulers of any kind at interfaces and
/// switches, buffers of 1-3 MTUs, link latency and credit delay, random class
/// priority levels (or the default), and the CIOQ, the two-VC switch (priority or
/// round-robin arbitration), the InfiniBand-like switch (buffers per port shared by
/// its lanes, random routing and crossbar cycles) or the Omni-Path-like switch (the
/// same, with random central crossbar cycles).
pub fn case_strategy() -> impl Strategy<Value = Case> {
    (
        topology_strategy(),
        proptest::collection::vec((generator_strategy(), 0.0f64..0.6), 1..=4),
    )
        .prop_flat_map(|((topology, n, routing), classes)| {
            let mtus: Vec<u32> = classes.iter().map(|c| c.0.1).collect();
            let k = classes.len();
            let mtu = mtus.iter().copied().max().unwrap_or(64).max(64);
            (
                Just((topology, classes, routing)),
                lanes_strategy(k, mtu),
                proptest::collection::vec(destinations_strategy(n), k),
                proptest::option::of((0.0f64..=1.0, proptest::collection::vec(0.0f64..=1.0, k))),
                scheduler_strategy(mtus.clone()),
                scheduler_strategy(mtus),
                (1u32..=3, 1u32..=3, 1u32..=3),
                (0u32..200, 0u32..300, 1.0f64..2.0),
                proptest::collection::vec(proptest::option::of(0u8..=7), k),
                prop_oneof![
                    Just(None),
                    Just(Some("priority")),
                    Just(Some("round_robin")),
                    Just(Some("infiniband")),
                    Just(Some("omnipath")),
                ],
                any::<u64>(),
            )
        })
        .prop_map(
            |(
                (topology, classes, routing),
                lanes,
                destinations,
                admission,
                nic,
                sw,
                (bi, bo, bn),
                (lat, credit, speedup),
                priorities,
                two_vc,
                seed,
            )| {
                let mtu = classes.iter().map(|c| c.0.1).max().unwrap_or(64).max(64);
                let buf = |k: u32| k * mtu.next_multiple_of(64);
                let connections = classes.iter().any(|c| c.0.0["kind"] != json!("bursts"));
                let classes: Vec<(f64, Value, Value)> = classes
                    .into_iter()
                    .zip(destinations)
                    .map(|(((generator, _), load), d)| (load, generator, d))
                    .collect();
                let mut doc = network(
                    topology,
                    &classes,
                    nic,
                    sw,
                    (buf(bi), buf(bo), buf(bn)),
                    json!({"rate_gbps": 2.0, "latency_ns": lat, "credit_delay_ns": credit}),
                    200,
                    seed >> 11,
                );
                doc["model"]["switch"]["speedup"] = json!(speedup);
                match two_vc {
                    Some("infiniband") => {
                        // Buffers per port, shared by its lanes: the per-lane size times
                        // the most lanes a case can have (3 VLs or 4 classes, times 2
                        // dateline lanes), so every lane can hold its largest packet.
                        let lanes = classes.len().max(3) as u32 * 2;
                        doc["model"]["switch"] = json!({
                            "kind": "infiniband", "speedup": speedup,
                            "input_buffer_bytes": buf(bi) * lanes,
                            "output_buffer_bytes": buf(bo) * lanes,
                            "cycles": {"routing": lat % 3, "crossbar": credit % 2}
                        });
                    }
                    Some("omnipath") => {
                        // As the InfiniBand-like switch's, and each central link's half
                        // of the central buffer as large as an output buffer.
                        let lanes = classes.len().max(3) as u32 * 2;
                        doc["model"]["switch"] = json!({
                            "kind": "omnipath", "speedup": speedup,
                            "input_buffer_bytes": buf(bi) * lanes,
                            "output_buffer_bytes": buf(bo) * lanes,
                            "central_buffer_bytes": 2 * buf(bo) * lanes,
                            "cycles": {"routing": lat % 3, "crossbar": credit % 2},
                            "central_cycles": {"buffer": lat % 2, "crossbar": credit % 3}
                        });
                    }
                    Some(arbitration) => {
                        doc["model"]["switch"]["kind"] = json!("two_vc");
                        doc["model"]["switch"]["arbitration"] = json!(arbitration);
                    }
                    None => {}
                }
                for (i, p) in priorities.iter().enumerate() {
                    if let Some(p) = p {
                        doc["model"]["classes"][i]["priority"] = json!(p);
                    }
                }
                if let Some(r) = routing {
                    doc["model"]["routing"] = json!({"kind": r});
                }
                if let Some(mut l) = lanes {
                    if let Some(percent) = l["credits"]["max_bytes"].as_u64() {
                        let min = u64::from(mtu.next_multiple_of(64));
                        let room = u64::from(buf(bi)) - min;
                        l["credits"]["max_bytes"] = json!(min + room * percent / 100);
                    }
                    doc["model"]["lanes"] = l;
                }
                if let (Some((cap, reserved)), true) = (admission, connections) {
                    doc["model"]["admission"] = json!({"qos_cap": cap, "reserved": reserved});
                }
                Case { doc }
            },
        )
}
