//! Cross-module properties of network traffic: generators built for a whole network with
//! admission control, their order, destinations, sizes, loads and determinism.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use proptest::prelude::*;

use qoslab_core::rng::RngStreams;
use qoslab_core::scenario::{FixedSize, ParetoSize, SizeConfig, UniformSize};
use qoslab_core::time::{BitRate, PS_PER_S, SimTime};
use qoslab_core::traffic::admission::AdmissionTable;
use qoslab_core::traffic::classes_8021d::{TrafficType, r2_admission, r2_classes};
use qoslab_core::traffic::config::{
    AdmissionConfig, ClassTrafficConfig, DestinationConfig, HotSpotConfig, PermutationConfig,
    PermutationPattern, ZipfConfig, ZipfRanking,
};
use qoslab_core::traffic::config_rules::{TrafficContext, validate_class_traffic};
use qoslab_core::traffic::generators::{
    BurstsConfig, CbrConfig, GeneratorConfig, VideoTraceConfig,
};
use qoslab_core::traffic::{ClassGenerator, Generated, NO_FLOW, NetworkTraffic};

fn link() -> BitRate {
    BitRate::from_gbps(2.0).unwrap()
}

/// A toy network for admission: end point `e` has an up link `2e` and a down link
/// `2e + 1`; a connection from `s` to `d` uses links `[2s, 2d + 1]`.
fn path(s: u32, d: u32) -> [u32; 2] {
    [2 * s, 2 * d + 1]
}

fn packets_until(g: &mut ClassGenerator, horizon_ps: u64) -> Vec<Generated> {
    let mut out = Vec::new();
    while let Some(p) = g.next_packet() {
        if p.time.as_ps() >= horizon_ps {
            break;
        }
        out.push(p);
    }
    out
}

/// R2 with admission on the toy network: nothing beyond any link's reservation, and each
/// end point offers the R2 loads (minus what admission refused).
#[test]
fn r2_traffic_respects_admission_and_offers_the_r2_loads() {
    let endpoints = 16;
    let classes: Vec<ClassTrafficConfig> = r2_classes(0.093).into_iter().map(|c| c.1).collect();
    let capacity = vec![link().bits_per_s(); 2 * endpoints as usize];
    let mut table = AdmissionTable::new(&capacity, &r2_admission());
    let rng = RngStreams::new(11);
    let traffic = NetworkTraffic::build(&classes, endpoints, link(), &rng, |s, c, d, r| {
        table.try_admit(&path(s, d), c, r)
    })
    .unwrap();

    for l in 0..2 * endpoints {
        let mut total = 0;
        for c in 0..7 {
            assert!(table.reserved(l, c) <= table.class_limit(l, c));
            total += table.reserved(l, c);
        }
        assert_eq!(total, table.total(l));
        assert!(total <= table.total_limit(l));
    }
    for (c, a) in traffic.admission.iter().enumerate() {
        let t = r2_classes(0.0)[c].0;
        assert_eq!(a.is_some(), t.is_connection(), "{t:?}");
        if let Some(a) = a {
            assert_eq!(a.admitted, table.admitted(c as u32));
            assert_eq!(a.refused(), table.refused(c as u32));
            assert_eq!(a.requested, a.admitted + a.refused());
        }
    }
    // VI asks for 302 x 3 Mb/s = 0.453 of every up link, under its 0.5 reservation; the
    // down links get a random share, so some refusals are expected there but most pass.
    let vi = traffic.admission[2].as_ref().unwrap();
    assert_eq!(vi.requested, 302 * u64::from(endpoints));
    assert!(vi.admitted * 10 >= vi.requested * 9, "{vi:?}");

    // Offered load per class at end point 0 over 2 s of simulated time.
    let horizon = 2 * PS_PER_S;
    let link_bytes = link().bits_per_s() as f64 / 8.0 * 2.0;
    for (c, g) in traffic.generators[0].iter().enumerate() {
        let Some(g) = g else {
            panic!("class {c} of end point 0 has no generator");
        };
        let mut g = g.clone();
        let got = packets_until(&mut g, horizon);
        let mut last = SimTime::ZERO;
        for p in &got {
            assert!(p.time >= last, "class {c}: time order");
            last = p.time;
            assert!(p.destination != 0 && p.destination < endpoints);
        }
        let load = got.iter().map(|p| p.bytes as f64).sum::<f64>() / link_bytes;
        let expected = match traffic.admission[c].as_ref() {
            // Connections: exactly what was admitted at this end point (CBR is exact,
            // video within its sampling noise).
            Some(_) => {
                let flows = got
                    .iter()
                    .map(|p| p.flow)
                    .collect::<std::collections::BTreeSet<_>>();
                let rate = match &classes[c].generator {
                    GeneratorConfig::Cbr(x) => x.rate_bps,
                    GeneratorConfig::Video(v) => v.rate_bps,
                    _ => unreachable!(),
                };
                flows.len() as f64 * rate as f64 / link().bits_per_s() as f64
            }
            None => {
                assert!(got.iter().all(|p| p.flow == NO_FLOW));
                classes[c].load
            }
        };
        let tolerance = match r2_classes(0.0)[c].0 {
            TrafficType::NetworkControl => 0.06, // few, heavy-tailed one-packet bursts
            TrafficType::ExcellentEffort | TrafficType::BestEffort | TrafficType::Background => {
                0.06
            }
            TrafficType::Video => 0.02,
            _ => 0.002,
        };
        assert!(
            (load / expected - 1.0).abs() < tolerance,
            "class {c}: offered {load:.5} for {expected:.5}"
        );
    }
}

/// Connections into one hot end point: its down link admits exactly up to the
/// reservation of each class, never more, and everything when the demand is under it.
#[test]
fn a_hot_spot_fills_the_reservation_and_no_more() {
    let endpoints = 32;
    let voice = |load| ClassTrafficConfig {
        load,
        generator: GeneratorConfig::Cbr(CbrConfig {
            max_packet_bytes: None,
            rate_bps: 64_000,
            packet_bytes: 160,
        }),
        destinations: DestinationConfig::HotSpot(HotSpotConfig {
            endpoint: 7,
            fraction: 1.0,
        }),
    };
    let cfg = AdmissionConfig {
        qos_cap: 0.7,
        reserved: vec![0.05],
    };
    let capacity = vec![link().bits_per_s(); 2 * endpoints as usize];
    // The hot down link can hold floor(0.05 x 2e9 / 64e3) = 1562 connections.
    for (load, expect_all) in [(0.01, false), (0.001, true)] {
        let mut table = AdmissionTable::new(&capacity, &cfg);
        let traffic = NetworkTraffic::build(
            &[voice(load)],
            endpoints,
            link(),
            &RngStreams::new(3),
            |s, c, d, r| table.try_admit(&path(s, d), c, r),
        )
        .unwrap();
        let a = traffic.admission[0].clone().unwrap();
        // 0.01: 313 per end point, 31 x 313 = 9703 to the hot one (+ 313 from it).
        // 0.001: 31 per end point, 961 + 31 < 1562.
        if expect_all {
            assert_eq!(a.refused(), 0);
        } else {
            assert_eq!(table.reserved(2 * 7 + 1, 0), 1562 * 64_000);
            assert_eq!(a.admitted, 1562 + 313);
        }
        assert!(table.reserved(2 * 7 + 1, 0) <= 100_000_000);
        // Round robin: every end point got a fair share of the hot link.
        let per_endpoint: Vec<usize> = traffic
            .generators
            .iter()
            .enumerate()
            .filter(|(e, _)| *e != 7)
            .map(|(_, g)| match &g[0] {
                Some(ClassGenerator::Connections(c)) => c.connections(),
                _ => 0,
            })
            .collect();
        let (lo, hi) = (
            per_endpoint.iter().min().unwrap(),
            per_endpoint.iter().max().unwrap(),
        );
        assert!(hi - lo <= 1, "{per_endpoint:?}");
    }
}

/// Same seed, same traffic; the generators of other classes do not change when a class
/// is added.
#[test]
fn deterministic_and_classes_are_independent() {
    let classes: Vec<ClassTrafficConfig> = r2_classes(0.05).into_iter().map(|c| c.1).collect();
    let take = |classes: &[ClassTrafficConfig], seed| {
        let t = NetworkTraffic::build(classes, 8, link(), &RngStreams::new(seed), |_, _, _, _| {
            true
        })
        .unwrap();
        t.generators
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|g| {
                        let mut g = g.unwrap();
                        (0..200)
                            .map(|_| g.next_packet().unwrap())
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let a = take(&classes, 1);
    assert_eq!(a, take(&classes, 1));
    assert_ne!(a, take(&classes, 2));
    let fewer = take(&classes[..4], 1);
    for (e, row) in fewer.iter().enumerate() {
        assert_eq!(row[..], a[e][..4]);
    }
}

fn destination_strategy() -> impl Strategy<Value = DestinationConfig> {
    prop_oneof![
        Just(DestinationConfig::Uniform),
        (0.0..3.0f64, any::<bool>()).prop_map(|(exponent, random)| {
            DestinationConfig::Zipf(ZipfConfig {
                exponent,
                ranking: if random {
                    ZipfRanking::Random
                } else {
                    ZipfRanking::Distance
                },
            })
        }),
        (0u32..4, 0.0..=1.0f64).prop_map(|(endpoint, fraction)| {
            DestinationConfig::HotSpot(HotSpotConfig { endpoint, fraction })
        }),
        prop_oneof![
            Just(PermutationPattern::BitComplement),
            Just(PermutationPattern::BitReversal),
            Just(PermutationPattern::RandomDerangement),
        ]
        .prop_map(|pattern| DestinationConfig::Permutation(PermutationConfig { pattern })),
    ]
}

fn size_strategy() -> impl Strategy<Value = SizeConfig> {
    prop_oneof![
        (1u32..4096).prop_map(|bytes| SizeConfig::Fixed(FixedSize { bytes })),
        (1u32..2048, 0u32..2048).prop_map(|(min, extra)| SizeConfig::Uniform(UniformSize {
            min_bytes: min,
            max_bytes: min + extra,
        })),
        (1u32..512, 0u32..2048, 0.3..3.0f64).prop_map(|(min, extra, shape)| {
            SizeConfig::Pareto(ParetoSize {
                min_bytes: min,
                max_bytes: min + extra,
                shape,
            })
        }),
    ]
}

fn generator_strategy() -> impl Strategy<Value = GeneratorConfig> {
    prop_oneof![
        (1u32..80, size_strategy())
            .prop_map(|(packets, size)| GeneratorConfig::Bursts(BurstsConfig { packets, size })),
        (200_000u64..10_000_000, 1u32..4096).prop_map(|(rate_bps, packet_bytes)| {
            GeneratorConfig::Cbr(CbrConfig {
                max_packet_bytes: None,
                rate_bps,
                packet_bytes,
            })
        }),
        (
            prop::collection::vec(1_000u32..50_000, 1..20),
            1_000u32..100_000,
            proptest::option::of(200_000u64..10_000_000),
            64u32..4096
        )
            .prop_map(|(frames, frame_interval_us, rate_bps, mtu_bytes)| {
                let trace = frames.iter().map(|f| format!("{f}\n")).collect();
                GeneratorConfig::VideoTrace(VideoTraceConfig {
                    trace,
                    frame_interval_us,
                    rate_bps,
                    mtu_bytes,
                })
            }),
    ]
}

/// Largest packet a generator can produce.
fn max_bytes(g: &GeneratorConfig) -> u32 {
    match g {
        GeneratorConfig::Bursts(b) => b.size.max_bytes(),
        GeneratorConfig::Cbr(c) => c.packet_bytes,
        GeneratorConfig::Video(v) => v.mtu_bytes,
        GeneratorConfig::VideoTrace(t) => t.mtu_bytes,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any valid class: packets come in time order, never to the source, within the
    /// network, with sizes in range; connection packets carry their connection's flow.
    #[test]
    fn any_valid_class_generates_well_formed_packets(
        endpoints in prop_oneof![Just(2u32), Just(4), Just(8), Just(16), 3u32..40],
        load in 0.001..0.05f64,
        generator in generator_strategy(),
        destinations in destination_strategy(),
        seed in 0u64..1000,
    ) {
        let cfg = ClassTrafficConfig { load, generator, destinations };
        let ctx = TrafficContext { endpoints, link: link() };
        let mut errors = Vec::new();
        validate_class_traffic("c", &cfg, &ctx, &mut errors);
        prop_assume!(errors.is_empty());
        let t = NetworkTraffic::build(
            std::slice::from_ref(&cfg), endpoints, link(), &RngStreams::new(seed),
            |_, _, _, _| true,
        ).unwrap();
        let mtu = max_bytes(&cfg.generator);
        for (e, row) in t.generators.iter().enumerate() {
            let Some(g) = row[0].as_ref() else { continue };
            let mut g = g.clone();
            let mut last = SimTime::ZERO;
            let mut flow_dest = std::collections::BTreeMap::new();
            for _ in 0..300 {
                let Some(p) = g.next_packet() else { break };
                prop_assert!(p.time >= last);
                last = p.time;
                prop_assert!(p.destination != e as u32 && p.destination < endpoints);
                prop_assert!(p.bytes >= 1 && p.bytes <= mtu);
                if cfg.generator.is_connections() {
                    let d = flow_dest.entry(p.flow).or_insert(p.destination);
                    prop_assert_eq!(*d, p.destination);
                } else {
                    prop_assert_eq!(p.flow, NO_FLOW);
                }
            }
        }
    }

    /// Admission never exceeds a cap, and admits every request while demand stays under
    /// all caps.
    #[test]
    fn admission_keeps_every_link_within_its_caps(
        reserved in prop::collection::vec(0.0..=1.0f64, 1..4),
        qos_cap in 0.0..=1.0f64,
        requests in prop::collection::vec(
            (prop::collection::vec(0u32..6, 0..4), 0u32..4, 1u64..400_000), 1..200),
    ) {
        let capacity = [1_000_000u64, 2_000_000, 1_000_000, 500_000, 3_000_000, 1_000_000];
        let cfg = AdmissionConfig { qos_cap, reserved: reserved.clone() };
        let mut t = AdmissionTable::new(&capacity, &cfg);
        let mut refused = 0;
        for (links, class, rate) in &requests {
            let before: Vec<u64> = (0..6).map(|l| t.total(l)).collect();
            let ok = t.try_admit(links, *class, *rate);
            if !ok {
                // Requests of classes the table does not know are refused, uncounted.
                if (*class as usize) < reserved.len() {
                    refused += 1;
                }
                let after: Vec<u64> = (0..6).map(|l| t.total(l)).collect();
                prop_assert_eq!(before, after, "a refusal changes nothing");
            }
            for l in 0..6 {
                prop_assert!(t.total(l) <= t.total_limit(l));
                for c in 0..reserved.len() as u32 {
                    prop_assert!(t.reserved(l, c) <= t.class_limit(l, c));
                }
            }
        }
        let counted: u64 = (0..4).map(|c| t.refused(c)).sum();
        prop_assert_eq!(counted, refused);

        // Under the caps: total demand per (class, link) within the smallest limit.
        let mut t = AdmissionTable::new(&capacity, &AdmissionConfig { qos_cap: 1.0, reserved: vec![1.0; 4] });
        let mut demand = [0u64; 6];
        let mut all_fit = true;
        for (links, class, rate) in &requests {
            if links.is_empty() { continue; }
            for &l in links {
                demand[l as usize] += rate;
            }
            all_fit &= links.iter().all(|&l| demand[l as usize] <= capacity[l as usize]);
            if all_fit {
                prop_assert!(t.try_admit(links, *class, *rate));
            }
        }
    }
}

/// Jitter of real connections through a busy FIFO server: per connection the samples
/// telescope to (last latency - first latency), and no sample exceeds the largest latency.
#[test]
fn jitter_of_voice_through_a_busy_queue() {
    use qoslab_core::stats::{JitterTracker, flow_key};
    let cfg = ClassTrafficConfig {
        load: 0.046,
        generator: GeneratorConfig::Cbr(CbrConfig {
            max_packet_bytes: None,
            rate_bps: 64_000,
            packet_bytes: 160,
        }),
        destinations: DestinationConfig::Uniform,
    };
    let t =
        NetworkTraffic::build(&[cfg], 4, link(), &RngStreams::new(8), |_, _, _, _| true).unwrap();
    let mut g = t.generators[0][0].clone().unwrap();
    // 92 Mb/s offered to a 100 Mb/s server: 12.8 us per 160-byte packet.
    let service_ps = 160 * 8 * PS_PER_S / 100_000_000;
    let mut free_at = 0u64;
    let mut tracker = JitterTracker::default();
    let mut first_last = std::collections::BTreeMap::new();
    let mut max_latency = 0u64;
    for p in packets_until(&mut g, PS_PER_S / 5) {
        let done = free_at.max(p.time.as_ps()) + service_ps;
        free_at = done;
        let latency = done - p.time.as_ps();
        max_latency = max_latency.max(latency);
        let e = first_last.entry(p.flow).or_insert((latency, latency));
        e.1 = latency;
        tracker.on_delivered(flow_key(0, p.flow), p.time, SimTime(done), true);
    }
    let s = tracker.summary();
    assert_eq!(s.samples as usize, 10 * first_last.len() - first_last.len());
    let telescoped: i128 = first_last
        .values()
        .map(|&(a, b)| i128::from(b) - i128::from(a))
        .sum();
    let mean_ns = s.mean.unwrap();
    let expected_ns = telescoped as f64 / s.samples as f64 / 1000.0;
    assert!(
        (mean_ns - expected_ns).abs() < 1e-6,
        "{mean_ns} vs {expected_ns}"
    );
    assert!(s.mean_abs.unwrap() > 0.0, "a busy queue does jitter");
    let max_ns = max_latency as f64 / 1000.0;
    assert!(s.max.unwrap() <= max_ns && -s.min.unwrap() <= max_ns);
    assert!(s.p99_abs.unwrap() <= max_ns);
}
