//! Input generators of the fuzzer (`fuzz.rs`): structured documents of every surface with
//! values drawn from ordinary ranges and from the edges (zero, denormals, 1e-17, huge
//! numbers, negative, wrong types), then sometimes damaged as text (a byte-order mark, a
//! cut, a replaced character).

#![allow(dead_code)]

pub mod presets;
#[path = "../scheduler_strategies/mod.rs"]
mod scheduler_strategies;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::{Value, json};

/// A float from ordinary ranges or the edges.
fn num() -> BoxedStrategy<f64> {
    prop_oneof![
        16 => 0.0..1.0f64,
        4 => 0.5..4.0f64,
        1 => prop::sample::select(vec![
            0.0, 1e-320, 1e-310, 1e-17, 1e-12, 1e-9, 1e-6, 1e-3, 1.0, 4.0, 4.000_001, 100.0,
            1e6, 1e9, 1e12, 1e300, -1.0, -0.0, f64::MAX, f64::MIN_POSITIVE,
        ]),
    ]
    .boxed()
}

/// An integer from ordinary ranges or the edges.
fn int() -> BoxedStrategy<u64> {
    prop_oneof![
        16 => 1u64..3000,
        1 => prop::sample::select(vec![
            0, 1, 2, 63, 64, 65, 2048, 65_536, 65_537, 100_000, 100_001, 1 << 24, 1 << 30,
            u64::from(u32::MAX), (1 << 53) - 1, 1 << 53, u64::MAX,
        ]),
    ]
    .boxed()
}

/// A JSON value of the wrong type now and then.
fn or_junk(v: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop_oneof![
        20 => v,
        1 => prop::sample::select(vec![json!(null), json!("x"), json!([]), json!({}), json!(-1), json!(1e300)]),
    ]
    .boxed()
}

fn size() -> BoxedStrategy<(Value, u32)> {
    prop_oneof![
        int().prop_map(|b| (json!({"kind": "fixed", "bytes": b}), b.min(65_536) as u32)),
        (int(), int()).prop_map(|(lo, hi)| (
            json!({"kind": "uniform", "min_bytes": lo, "max_bytes": hi}),
            hi.min(65_536) as u32
        )),
        (int(), int(), num()).prop_map(|(lo, hi, shape)| (
            json!({"kind": "pareto", "min_bytes": lo, "max_bytes": hi, "shape": shape}),
            hi.min(65_536) as u32
        )),
    ]
    .boxed()
}

fn arrivals() -> BoxedStrategy<Value> {
    or_junk(
        prop_oneof![
            Just(json!({"kind": "constant"})),
            Just(json!({"kind": "poisson"})),
            (num(), num()).prop_map(|(on, off)| json!({"kind": "on_off", "mean_on_us": on * 10.0, "mean_off_us": off * 10.0})),
            (num(), num()).prop_map(|(on, off)| json!({"kind": "on_off", "mean_on_us": on, "mean_off_us": off})),
            int().prop_map(|p| json!({"kind": "bursts", "packets": p})),
        ]
        .boxed(),
    )
}

fn duration() -> BoxedStrategy<u64> {
    prop_oneof![8 => 1u64..2000, 1 => int()].boxed()
}

/// A link-lab scenario.
fn link_lab() -> BoxedStrategy<Value> {
    (
        prop::collection::vec((num(), arrivals(), size()), 1..5),
        prop_oneof![4 => Just(2.0f64), 1 => num()],
        duration(),
        any::<u64>(),
    )
        .prop_flat_map(|(classes, rate, duration, seed)| {
            let mtus: Vec<u32> = classes.iter().map(|c| c.2.1.max(1)).collect();
            let scheduler = or_junk(scheduler_strategies::scheduler_strategy(mtus));
            (Just((classes, rate, duration, seed)), scheduler)
        })
        .prop_map(|((classes, rate, duration, seed), scheduler)| {
            json!({
                "version": 1, "name": "fuzz", "seed": seed >> 12,
                "duration_us": duration, "warmup_us": duration / 10,
                "model": {
                    "kind": "link_lab",
                    "link": {"rate_gbps": rate},
                    "downstream": {"buffer_bytes": 1 << 20, "drain_rate_gbps": rate},
                    "classes": classes.iter().enumerate().map(|(i, (load, arrivals, (size, _)))| json!({
                        "name": format!("C{i}"),
                        "traffic": {"load": load, "arrivals": arrivals, "size": size}
                    })).collect::<Vec<_>>(),
                    "scheduler": scheduler
                }
            })
        })
        .boxed()
}

fn trace_lines() -> BoxedStrategy<String> {
    prop::collection::vec(int(), 1..50)
        .prop_map(|v| v.iter().map(|n| format!("{n}\n")).collect())
        .boxed()
}

fn generator() -> BoxedStrategy<(Value, u32)> {
    prop_oneof![
        (int(), size()).prop_map(|(p, (s, mtu))| (json!({"kind": "bursts", "packets": p % 200, "size": s}), mtu)),
        (int(), int()).prop_map(|(r, b)| (json!({"kind": "cbr", "rate_bps": r.saturating_mul(1000), "packet_bytes": b}), b.min(65_536) as u32)),
        (int(), int(), "[IPB]{1,12}", num(), int()).prop_map(|(r, iv, gop, var, mtu)| (
            json!({"kind": "video", "rate_bps": r.saturating_mul(1000), "frame_interval_us": iv, "gop": gop,
                   "i_ratio": 10.0, "p_ratio": 4.0, "b_ratio": 1.0, "variation": var, "mtu_bytes": mtu}),
            mtu.min(65_536) as u32
        )),
        (trace_lines(), int(), prop::option::of(int()), int()).prop_map(|(t, iv, r, mtu)| (
            json!({"kind": "video_trace", "trace": t, "frame_interval_us": iv,
                   "rate_bps": r.map(|r| r.saturating_mul(1000)), "mtu_bytes": mtu}),
            mtu.min(65_536) as u32
        )),
    ]
    .boxed()
}

fn destinations() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(json!({"kind": "uniform"})),
        num().prop_map(|e| json!({"kind": "zipf", "exponent": e, "ranking": "random"})),
        (int(), num())
            .prop_map(|(ep, f)| json!({"kind": "hot_spot", "endpoint": ep % 20, "fraction": f})),
        Just(json!({"kind": "permutation", "pattern": "random_derangement"})),
    ]
    .boxed()
}

/// A network scenario.
fn network() -> BoxedStrategy<Value> {
    (
        prop::collection::vec((num(), generator(), destinations()), 1..4),
        prop_oneof![
            Just(json!({"kind": "link"})),
            (2u32..9).prop_map(|p| json!({"kind": "single_switch", "ports": p})),
            Just(json!({"kind": "min", "end_points": 8, "switch_ports": 4})),
        ],
        duration(),
        any::<u64>(),
    )
        .prop_flat_map(|(classes, topology, duration, seed)| {
            let mtus: Vec<u32> = classes.iter().map(|c| c.1.1.max(1)).collect();
            let s = scheduler_strategies::scheduler_strategy(mtus);
            (Just((classes, topology, duration, seed)), s.clone(), s)
        })
        .prop_map(|((classes, topology, duration, seed), ifs, sws)| {
            json!({
                "version": 1, "name": "fuzz", "seed": seed >> 12,
                "duration_us": duration, "warmup_us": duration / 10,
                "model": {
                    "kind": "network", "link": {"rate_gbps": 2.0}, "topology": topology,
                    "switch": {"kind": "cioq", "speedup": 1.5, "header_crossing_ns": 145,
                               "input_buffer_bytes": 1 << 17, "output_buffer_bytes": 1 << 17},
                    "interface": {"buffer_bytes": 1 << 17},
                    "classes": classes.iter().enumerate().map(|(i, (load, (g, _), d))| json!({
                        "name": format!("C{i}"), "best_effort": i % 2 == 1,
                        "traffic": {"load": load, "generator": g, "destinations": d}
                    })).collect::<Vec<_>>(),
                    "interface_scheduler": ifs, "switch_scheduler": sws
                }
            })
        })
        .boxed()
}

/// Damages `text` now and then: a byte-order mark, a cut, a replaced character.
fn damaged(text: BoxedStrategy<String>) -> BoxedStrategy<String> {
    (text, 0u8..10, any::<prop::sample::Index>(), any::<char>())
        .prop_map(|(t, how, at, c)| {
            let mut cut = at.index(t.len() + 1);
            while !t.is_char_boundary(cut) {
                cut -= 1;
            }
            match how {
                0 => format!("\u{feff}{t}"),
                1 => t[..cut].to_string(),
                2 => format!("{}{c}{}", &t[..cut], &t[cut..]),
                _ => t,
            }
        })
        .boxed()
}

/// Scenario documents (link lab and network), sometimes damaged.
pub fn scenario() -> BoxedStrategy<String> {
    damaged(
        prop_oneof![link_lab(), network()]
            .prop_map(|v| v.to_string())
            .boxed(),
    )
}

/// Design requirements documents: mostly plausible (so the designer runs), with edges.
pub fn requirements() -> BoxedStrategy<String> {
    let class = (
        prop_oneof![8 => 64u64..2048, 1 => int()],
        prop::option::of(prop_oneof![8 => 2u64..64, 1 => int()]),
        prop_oneof![8 => 0.01..0.2f64, 1 => num()],
    )
        .prop_map(|(mtu, d, share)| {
            json!({"name": format!("c{mtu}{d:?}"), "distance": d, "mtu_bytes": mtu, "share": share})
        });
    let doc = (
        prop::sample::select(vec!["dtable", "dtable", "infiniband", "omnipath", "as", "x"]),
        prop_oneof![8 => prop::sample::select(vec![32u64, 64, 128, 256, 1024]), 1 => int()],
        prop_oneof![8 => Just(2048u64), 1 => int()],
        prop::option::of(num()),
        prop::option::of(num()),
        prop::collection::vec(class, 0..6),
        prop::option::of(num()),
    )
        .prop_map(|(tech, entries, gmtu, w, k, classes, rate)| {
            json!({"technology": tech, "entries": entries % 5000, "gmtu_bytes": gmtu,
                   "w": w.map(|w| (w * 100.0).round() / 10.0), "k": k.map(|k| (k * 10.0).round() / 10.0),
                   "classes": classes, "link_rate_gbps": rate})
            .to_string()
        });
    damaged(doc.boxed())
}

fn opensm_number() -> BoxedStrategy<String> {
    prop_oneof![
        int().prop_map(|n| (n % 300).to_string()),
        int().prop_map(|n| format!("0x{:x}", n % 300)),
        prop::sample::select(vec![
            "0x+5",
            "0x",
            "-1",
            "064",
            "(null)",
            "",
            "99999999999999999999",
            "0X1F"
        ])
        .prop_map(str::to_string),
    ]
    .boxed()
}

fn opensm_value(opt: &str) -> BoxedStrategy<String> {
    let pair = (opensm_number(), opensm_number()).prop_map(|(v, w)| format!("{v}:{w}"));
    match opt {
        "vlarb_high" | "vlarb_low" => prop_oneof![
            6 => prop::collection::vec(pair, 0..80).prop_map(|v| v.join(",")),
            1 => (1usize..5000).prop_map(|n| ",".repeat(n)),
            1 => Just("(null)".to_string()),
        ]
        .boxed(),
        "sl2vl" => prop::collection::vec(opensm_number(), 0..20)
            .prop_map(|v| v.join(","))
            .boxed(),
        _ => opensm_number(),
    }
}

/// OpenSM options text.
pub fn opensm_text() -> BoxedStrategy<String> {
    let line = (
        prop::sample::select(vec!["qos_", "qos_ca_", "qos_rtr_", "qos_sw0_", "qos_swe_"]),
        prop::sample::select(vec![
            "max_vls",
            "high_limit",
            "vlarb_high",
            "vlarb_low",
            "sl2vl",
        ]),
    )
        .prop_flat_map(|(p, o)| (Just(format!("{p}{o}")), opensm_value(o)))
        .prop_map(|(k, v)| format!("{k} {v}"));
    let any_line = prop_oneof![
        8 => line,
        1 => Just("# comment".to_string()),
        1 => Just(String::new()),
        1 => "[ -~]{0,40}",
    ];
    damaged(
        prop::collection::vec(any_line, 0..12)
            .prop_map(|v| v.join("\n"))
            .boxed(),
    )
}

/// Frame-size trace text.
pub fn trace_text() -> BoxedStrategy<String> {
    let line = prop_oneof![
        8 => int().prop_map(|n| n.to_string()),
        1 => Just("# comment".to_string()),
        1 => Just("  12 # b\r".to_string()),
        1 => "[ -~]{0,12}",
    ];
    damaged(
        prop::collection::vec(line, 0..40)
            .prop_map(|v| v.join("\n"))
            .boxed(),
    )
}
