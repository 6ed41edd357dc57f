//! Starting configurations against the worked cases the web used to compute itself and
//! against the invariants every starting table keeps (sizes, entries per class, limits,
//! spread, validation).

#![allow(clippy::unwrap_used, clippy::panic, clippy::float_cmp)]

use proptest::prelude::*;

use super::*;
use crate::error::EngineError;
use crate::problems::{ClassRef, Problems};
use crate::schedulers::TableEntry;
use crate::schedulers::as_basic::AS_TABLE_SIZES;
use crate::schedulers::iba::{IBA_MAX_ENTRIES, IBA_MAX_WEIGHT};
use crate::schedulers::starting::{
    apportion_shares, cap_weights, interleave, largest_packet_credits, normalise, six_digits,
};

fn cls(name: &str, bytes: u32) -> ClassConfig {
    serde_json::from_value(serde_json::json!({
        "name": name,
        "traffic": {"load": 0.2, "arrivals": {"kind": "constant"}, "size": {"kind": "fixed", "bytes": bytes}}
    }))
    .unwrap()
}

fn four() -> Vec<ClassConfig> {
    vec![cls("A", 64), cls("B", 256), cls("C", 1024), cls("D", 2048)]
}

fn config(json: serde_json::Value) -> SchedulerConfig {
    serde_json::from_value(json).unwrap()
}

fn convert(
    from: &SchedulerConfig,
    kind: &str,
    classes: &[ClassConfig],
    rate: f64,
) -> SchedulerConfig {
    starting_config(kind, from, classes, rate).unwrap()
}

fn mtu_credits(c: &ClassConfig) -> u32 {
    largest_packet_credits(&class_sizes(std::slice::from_ref(c))[0])
}

fn dtable() -> SchedulerConfig {
    config(serde_json::json!({"kind": "dtable", "table": [
        {"class": 0, "weight": 10}, {"class": 1, "weight": 20}, {"class": 2, "weight": 30},
        {"class": 3, "weight": 40}, {"class": 0, "weight": 10}
    ]}))
}

/// Bandwidth shares a configuration expresses (None for kinds without weights).
fn shares(c: &SchedulerConfig, classes: &[ClassConfig]) -> Option<Vec<f64>> {
    c.carries(&class_sizes(classes))
        .weights
        .map(|w| normalise(&w))
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol, "{a:?} vs {b:?}");
    }
}

/// Problems of `c` for `classes` (as scenario validation finds them).
fn problems(c: &SchedulerConfig, classes: &[ClassConfig]) -> Vec<String> {
    let refs: Vec<ClassRef<'_>> = classes
        .iter()
        .map(|k| ClassRef {
            name: &k.name,
            load: k.traffic.load,
            max_bytes: k.traffic.size.max_bytes(),
        })
        .collect();
    let mut p = Problems::default();
    c.validate(&refs, "s", &mut p);
    p.0.iter().map(|e| format!("{e:?}")).collect()
}

#[test]
fn apportion_shares_sums_and_keeps_every_positive_class() {
    assert_eq!(apportion_shares(&[1.0, 1.0, 2.0], 8), vec![2, 2, 4]);
    assert_eq!(apportion_shares(&[0.0, 1.0, 1.0], 5), vec![0, 3, 2]);
    // A tiny share still gets one entry; the others give it back.
    assert_eq!(apportion_shares(&[1000.0, 1.0], 10), vec![9, 1]);
    // Fewer units than classes: no minimum.
    assert_eq!(apportion_shares(&[1.0, 1.0, 1.0], 2).iter().sum::<u64>(), 2);
}

#[test]
fn interleave_spreads_each_class() {
    assert_eq!(interleave(&[2, 2]), vec![0, 1, 0, 1]);
    let list = interleave(&[4, 2, 1, 1]);
    assert_eq!(list.len(), 8);
    // Class 0's four entries never two apart by more than 2 slots.
    let at: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == 0)
        .map(|(i, _)| i)
        .collect();
    assert!(at.windows(2).all(|w| w[1] - w[0] <= 2), "{list:?}");
    assert!(interleave(&[0, 0]).is_empty());
}

#[test]
fn cap_weights_scales_in_proportion() {
    let e = |class, weight| TableEntry { class, weight };
    assert_eq!(
        cap_weights(&[e(0, 1000), e(1, 500)], 255),
        vec![e(0, 255), e(1, 128)]
    );
    assert_eq!(
        cap_weights(&[e(0, 0), e(1, 5)], 255),
        vec![e(0, 1), e(1, 5)]
    );
}

#[test]
fn six_digits_rounds_significant_digits() {
    assert_eq!(six_digits(1234.56789), 1234.57);
    assert_eq!(six_digits(0.5), 0.5);
    assert_eq!(six_digits(0.0), 0.0);
}

#[test]
fn conversions_keep_shares() {
    let four = four();
    let want = [20.0 / 110.0, 20.0 / 110.0, 30.0 / 110.0, 40.0 / 110.0];
    close(&shares(&dtable(), &four).unwrap(), &want, 1e-12);
    for kind in ["drr", "scfq", "wfq", "wf2q_plus", "sfq", "iba", "dtable"] {
        let out = convert(&dtable(), kind, &four, 2.0);
        assert_eq!(out.kind(), kind);
        close(&shares(&out, &four).unwrap(), &want, 1e-3);
    }
    assert_eq!(
        convert(&dtable(), "wfq", &four, 2.0),
        config(serde_json::json!({"kind": "wfq", "weights": [20, 20, 30, 40]}))
    );
    let sfq = config(serde_json::json!({"kind": "sfq", "weights": [0.5, 2, 3, 4]}));
    assert_eq!(
        convert(&sfq, "scfq", &four, 2.0),
        config(serde_json::json!({"kind": "scfq", "weights": [0.5, 2, 3, 4]}))
    );
}

#[test]
fn drr_quanta_give_the_smallest_share_its_largest_packet() {
    let four = four();
    let eq = config(serde_json::json!({"kind": "wfq", "weights": [1, 1, 1, 1]}));
    assert_eq!(
        convert(&eq, "drr", &four, 2.0),
        config(serde_json::json!({"kind": "drr", "quanta_bytes": [2048, 2048, 2048, 2048]}))
    );
    let skew = config(serde_json::json!({"kind": "wfq", "weights": [4, 1, 1, 1]}));
    let SchedulerConfig::Drr(d) = convert(&skew, "drr", &four, 2.0) else {
        panic!()
    };
    assert!(d.quanta_bytes[1..].iter().all(|&q| q >= 2048));
    assert_eq!(d.quanta_bytes[0], 4 * d.quanta_bytes[1]);
}

#[test]
fn dtable_and_iba_keep_entries() {
    let four = four();
    let SchedulerConfig::Dtable(dt) = dtable() else {
        panic!()
    };
    let SchedulerConfig::Iba(iba) = convert(&dtable(), "iba", &four, 2.0) else {
        panic!()
    };
    assert_eq!(
        (iba.high.len(), &iba.low, iba.high_limit),
        (0, &dt.table, 255)
    );
    let big = config(
        serde_json::json!({"kind": "dtable", "table": [{"class": 0, "weight": 1000}, {"class": 1, "weight": 500}]}),
    );
    let SchedulerConfig::Iba(iba) = convert(&big, "iba", &four[..2], 2.0) else {
        panic!()
    };
    assert_eq!(
        iba.low,
        vec![
            TableEntry {
                class: 0,
                weight: 255
            },
            TableEntry {
                class: 1,
                weight: 128
            }
        ]
    );
    // Weight 0 (skipped in IBA) is not allowed in a DTable: it becomes 1; both tables carry.
    let from = config(
        serde_json::json!({"kind": "iba", "high": [{"class": 1, "weight": 5}], "low": [{"class": 0, "weight": 0}], "high_limit": 3}),
    );
    let back = convert(&from, "dtable", &four[..2], 2.0);
    assert_eq!(
        back,
        config(
            serde_json::json!({"kind": "dtable", "table": [{"class": 1, "weight": 5}, {"class": 0, "weight": 1}]})
        )
    );
    // A DTable entry always lets a packet of its class through.
    let skewed = config(serde_json::json!({"kind": "drr", "quanta_bytes": [64, 64, 64, 1000000]}));
    let SchedulerConfig::Dtable(dt) = convert(&skewed, "dtable", &four, 10.0) else {
        panic!()
    };
    assert!(
        dt.table
            .iter()
            .all(|e| e.weight >= mtu_credits(&four[e.class as usize]))
    );
}

#[test]
fn as_basic_counts_packets_for_bytes() {
    let four = four();
    let eq = config(serde_json::json!({"kind": "wfq", "weights": [1, 1, 1, 1]}));
    let SchedulerConfig::AsBasic(a) = convert(&eq, "as_basic", &four, 2.0) else {
        panic!()
    };
    assert_eq!(a.table.len(), 32);
    let count = |c: u32| a.table.iter().filter(|&&x| x == c).count();
    // Equal bytes: entries in proportion to 1/64 : 1/256 : 1/1024 : 1/2048 = 32 : 8 : 2 : 1,
    // quotas of 32 entries 23.81, 5.95, 1.49, 0.74; each at least 1 (30 so far), the two
    // left to the largest remainders (0.95, then 0.81).
    assert_eq!((count(0), count(1), count(2), count(3)), (24, 6, 1, 1));
    // AS shares count bytes: equal entries of 64/256/1024/2048 B split as the sizes.
    let table = interleave(&[8, 8, 8, 8]);
    let s = shares(
        &SchedulerConfig::AsBasic(crate::schedulers::as_basic::AsBasicConfig { table }),
        &four,
    )
    .unwrap();
    close(
        &s,
        &[
            64.0 / 3392.0,
            256.0 / 3392.0,
            1024.0 / 3392.0,
            2048.0 / 3392.0,
        ],
        1e-12,
    );
}

#[test]
fn priorities_and_deadlines_keep_the_order() {
    let four = four();
    let fifo = config(serde_json::json!({"kind": "fifo"}));
    close(
        &shares(&convert(&fifo, "wfq", &four, 2.0), &four).unwrap(),
        &[0.25; 4],
        1e-12,
    );
    let prio = config(serde_json::json!({"kind": "strict_priority", "priorities": [0, 5, 2, 9]}));
    let SchedulerConfig::Edf(e) = convert(&prio, "edf", &four, 2.0) else {
        panic!()
    };
    assert_eq!(e.deadlines_ns, vec![10_000, 5_000, 8_000, 1_000]);
    let SchedulerConfig::StrictPriority(p) =
        convert(&SchedulerConfig::Edf(e), "strict_priority", &four, 2.0)
    else {
        panic!()
    };
    assert_eq!(p.priorities, vec![0, 2, 1, 3]);
    // 2048 B at a quarter of 2 Gb/s = 16384 bits / 0.5 bit/ns = 32768 ns.
    let eq = config(serde_json::json!({"kind": "wfq", "weights": [1, 1, 1, 1]}));
    assert_eq!(
        convert(&eq, "edf", &four, 2.0),
        config(serde_json::json!({"kind": "edf", "deadlines_ns": [1024, 4096, 16384, 32768]}))
    );
    assert_eq!(
        convert(&fifo, "strict_priority", &four, 2.0),
        config(serde_json::json!({"kind": "strict_priority", "priorities": [3, 2, 1, 0]}))
    );
}

#[test]
fn requests_are_read_with_paths() {
    let classes = serde_json::to_value(four()).unwrap();
    let ok = serde_json::json!({"kind": "iba", "from": {"kind": "fifo"}, "classes": classes, "rate_gbps": 2});
    assert_eq!(starting_scheduler(&ok.to_string()).unwrap().kind(), "iba");
    let path_of = |v: serde_json::Value| match starting_scheduler(&v.to_string()) {
        Err(EngineError::Invalid { errors }) => errors[0].path.clone(),
        other => panic!("{other:?}"),
    };
    let bad_kind = serde_json::json!({"kind": "dwcs", "from": {"kind": "fifo"}, "classes": classes, "rate_gbps": 2});
    assert_eq!(path_of(bad_kind), "kind");
    let no_classes =
        serde_json::json!({"kind": "iba", "from": {"kind": "fifo"}, "classes": [], "rate_gbps": 2});
    assert_eq!(path_of(no_classes), "classes");
    let bad_from = serde_json::json!({"kind": "iba", "from": {"kind": "dtable", "table": [{"class": -1, "weight": 1}]}, "classes": classes, "rate_gbps": 2});
    assert_eq!(path_of(bad_from), "from.table[0].class");
    let missing = serde_json::json!({"kind": "iba", "classes": classes, "rate_gbps": 2});
    assert_eq!(path_of(missing), "from");
    assert!(matches!(
        starting_scheduler("{"),
        Err(EngineError::Syntax { .. })
    ));
}

fn size_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![Just(64u32), Just(128), Just(1500), Just(2048), 64u32..=4096]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every kind's start from every kind's start, for 1 to 12 classes of any sizes and
    /// any weights: valid for the classes, within the limits, every class present in a
    /// table, AS entries summing to a legal size and spread out.
    #[test]
    fn every_start_is_valid(
        sizes in proptest::collection::vec(size_strategy(), 1..=12),
        weights in proptest::collection::vec(0u32..=1000, 12),
        rate in 0.5f64..400.0,
    ) {
        let classes: Vec<ClassConfig> = sizes.iter().enumerate().map(|(i, &b)| cls(&format!("c{i}"), b)).collect();
        let n = classes.len();
        let fq: Vec<f64> = weights[..n].iter().map(|&w| f64::from(w.max(1))).collect();
        let first = SchedulerConfig::Wfq(crate::schedulers::FairQueueingConfig { weights: fq });
        for from_kind in KINDS {
            let from = convert(&first, from_kind, &classes, rate);
            prop_assert!(problems(&from, &classes).is_empty(), "{from:?}: {:?}", problems(&from, &classes));
            for kind in KINDS {
                let to = convert(&from, kind, &classes, rate);
                prop_assert_eq!(to.kind(), *kind);
                prop_assert!(problems(&to, &classes).is_empty(), "{from:?} -> {to:?}: {:?}", problems(&to, &classes));
                match &to {
                    SchedulerConfig::AsBasic(a) => {
                        prop_assert!(AS_TABLE_SIZES.contains(&a.table.len()));
                        for c in 0..n as u32 {
                            let at: Vec<usize> = a.table.iter().enumerate().filter(|(_, x)| **x == c).map(|(i, _)| i).collect();
                            prop_assert!(!at.is_empty());
                            // Spread: gaps between a class's entries differ by at most
                            // a factor the WF2Q list bounds (no class bunched at one end).
                            let ideal = a.table.len() as f64 / at.len() as f64;
                            prop_assert!(at.windows(2).all(|w| (w[1] - w[0]) as f64 <= 2.0 * ideal + 1.0), "{a:?}");
                        }
                    }
                    SchedulerConfig::Iba(i) => {
                        prop_assert!(i.low.len() <= IBA_MAX_ENTRIES && i.high.len() <= IBA_MAX_ENTRIES);
                        prop_assert!(i.low.iter().chain(&i.high).all(|e| (1..=IBA_MAX_WEIGHT).contains(&e.weight)));
                    }
                    SchedulerConfig::Dtable(d) => {
                        prop_assert!(d.table.iter().all(|e| e.weight >= mtu_credits(&classes[e.class as usize])));
                    }
                    _ => {}
                }
            }
        }
    }
}
