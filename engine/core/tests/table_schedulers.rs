//! Table schedulers (AS basic, InfiniBand VLArb) and the simple schedulers (strict
//! priority, FIFO, EDF) through the public API: `schedulers::build` driven by a small
//! port of our own, and whole runs through `Run::from_json`.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use std::collections::VecDeque;

use proptest::prelude::*;
use qoslab_core::Run;
use qoslab_core::network::{SendAudit, SendPort, send_one};
use qoslab_core::scenario::{
    AsBasicConfig, DTableConfig, EdfConfig, IbaConfig, PriorityConfig, SchedulerConfig, TableEntry,
};
use qoslab_core::schedulers::{self, Head, PortSetup, PortView, Scheduler, TableSide};
use qoslab_core::time::{BitRate, SimTime};
use serde_json::json;

/// Queues of head packets and free credits per class, as a port would hold them.
#[derive(Clone, Debug)]
struct Port {
    queues: Vec<VecDeque<Head>>,
    free: Vec<u32>,
    next_id: u64,
}

impl Port {
    fn new(classes: usize, free: u32) -> Port {
        Port {
            queues: vec![VecDeque::new(); classes],
            free: vec![free; classes],
            next_id: 0,
        }
    }

    /// A packet of `bytes` generated at `now` joins `class` (the scheduler is told).
    fn arrive(&mut self, s: &mut dyn Scheduler, now: SimTime, class: usize, bytes: u32) {
        self.queues[class].push_back(Head {
            id: self.next_id,
            bytes,
            credits: bytes.div_ceil(64),
            created: now,
        });
        self.next_id += 1;
        s.on_enqueue(now, class, bytes, self);
    }

    /// One decision by the ports' send protocol; panics if the scheduler chose a class
    /// without credits. Returns (class, bytes).
    fn step(&mut self, s: &mut dyn Scheduler, now: SimTime) -> Option<(usize, u32)> {
        let mut audit = SendAudit::default();
        let sent = send_one(now, &mut &mut *s, self, &mut audit);
        assert_eq!(audit.credit_violations, 0, "chose a class without credits");
        sent.map(|(c, head)| (c, head.bytes))
    }
}

impl SendPort for Port {
    type Item = Head;
    fn take_credits(&mut self, class: usize, credits: u32) -> bool {
        if credits > self.free[class] {
            return false;
        }
        self.free[class] -= credits;
        true
    }
    fn pop(&mut self, class: usize) -> Option<Head> {
        self.queues[class].pop_front()
    }
}

impl PortView for Port {
    fn class_count(&self) -> usize {
        self.queues.len()
    }
    fn head(&self, class: usize) -> Option<Head> {
        self.queues[class].front().copied()
    }
    fn free_credits(&self, class: usize) -> u32 {
        self.free[class]
    }
}

fn build(config: &SchedulerConfig, classes: usize) -> Box<dyn Scheduler> {
    schedulers::build(
        config,
        PortSetup {
            classes,
            link: BitRate::from_gbps(2.0).unwrap(),
        },
    )
}

fn entries(e: &[(u32, u32)]) -> Vec<TableEntry> {
    e.iter()
        .map(|&(class, weight)| TableEntry { class, weight })
        .collect()
}

/// Bytes sent per class in `decisions` decisions with every class kept backlogged with
/// fixed packet sizes `sizes`.
fn backlogged_bytes(config: &SchedulerConfig, sizes: &[u32], decisions: usize) -> Vec<u64> {
    let n = sizes.len();
    let mut s = build(config, n);
    let mut port = Port::new(n, u32::MAX);
    let mut bytes = vec![0u64; n];
    for _ in 0..decisions {
        for (c, &size) in sizes.iter().enumerate() {
            while port.queues[c].len() < 3 {
                port.arrive(s.as_mut(), SimTime::ZERO, c, size);
            }
        }
        let (c, b) = port.step(s.as_mut(), SimTime::ZERO).unwrap();
        bytes[c] += u64::from(b);
    }
    bytes
}

fn max_min_ratio(bytes: &[u64]) -> f64 {
    let max = *bytes.iter().max().unwrap() as f64;
    let min = *bytes.iter().min().unwrap() as f64;
    max / min
}

const SIZES: [u32; 4] = [64, 256, 1024, 2048];

/// AS basic, 32 entries, 8 per VC: over 10 whole table cycles (320 decisions) each VC
/// sends exactly 80 packets, so its bytes are 80 x its packet size.
#[test]
fn as_basic_equal_entries_give_equal_packets() {
    let config = SchedulerConfig::AsBasic(AsBasicConfig {
        table: (0..32).map(|i| i % 4).collect(),
    });
    let bytes = backlogged_bytes(&config, &SIZES, 320);
    let expect: Vec<u64> = SIZES.iter().map(|&s| 80 * u64::from(s)).collect();
    assert_eq!(bytes, expect);
}

/// IBA with equal weights 34 (2176 B) for 4 VLs with packets of 64/256/1024/2048 B.
/// Per table cycle (each entry turn sends until its weight is used, the last packet
/// rounding up, no carry-over):
/// - 64 B = 1 credit: 34 packets = 2176 B;
/// - 256 B = 4 credits: 34 -> 30 -> ... -> 2 -> (sent anyway) 0: 9 packets = 2304 B;
/// - 1024 B = 16 credits: 34 -> 18 -> 2 -> 0: 3 packets = 3072 B;
/// - 2048 B = 32 credits: 34 -> 2 -> 0: 2 packets = 4096 B.
///
/// One cycle is 34 + 9 + 3 + 2 = 48 decisions; max/min = 4096 / 2176 = 1.88. AS basic
/// (one packet per entry) gives 2048 / 64 = 32; DTable (deficits carried) tends to 1.
#[test]
fn iba_shares_are_between_as_basic_and_dtable() {
    let iba = SchedulerConfig::Iba(IbaConfig {
        high: vec![],
        low: entries(&[(0, 34), (1, 34), (2, 34), (3, 34)]),
        high_limit: 0,
    });
    let iba_bytes = backlogged_bytes(&iba, &SIZES, 48 * 10);
    assert_eq!(iba_bytes, vec![21_760, 23_040, 30_720, 40_960]);

    let as_basic = SchedulerConfig::AsBasic(AsBasicConfig {
        table: (0..32).map(|i| i % 4).collect(),
    });
    let as_bytes = backlogged_bytes(&as_basic, &SIZES, 320);

    let dtable = SchedulerConfig::Dtable(DTableConfig {
        table: entries(&[(0, 34), (1, 34), (2, 34), (3, 34)]),
    });
    let dt_bytes = backlogged_bytes(&dtable, &SIZES, 20_000);

    let (as_r, iba_r, dt_r) = (
        max_min_ratio(&as_bytes),
        max_min_ratio(&iba_bytes),
        max_min_ratio(&dt_bytes),
    );
    assert_eq!(as_r, 32.0);
    assert!((iba_r - 4096.0 / 2176.0).abs() < 1e-12, "iba {iba_r}");
    assert!(as_r > iba_r && iba_r > 1.05, "as {as_r} iba {iba_r}");
    assert!(iba_r > dt_r && dt_r < 1.05, "iba {iba_r} dtable {dt_r}");
}

/// The IBA registers through the public API: high limit 0 alternates the tables, each
/// keeping its own pointer.
#[test]
fn iba_registers_follow_the_tables() {
    let config = SchedulerConfig::Iba(IbaConfig {
        high: entries(&[(0, 2), (1, 2)]),
        low: entries(&[(2, 0), (3, 2)]),
        high_limit: 0,
    });
    let mut s = build(&config, 4);
    let mut port = Port::new(4, 1000);
    for c in 0..4 {
        for _ in 0..4 {
            port.arrive(s.as_mut(), SimTime::ZERO, c, 128);
        }
    }
    let mut seen = vec![];
    for _ in 0..6 {
        let (c, _) = port.step(s.as_mut(), SimTime::ZERO).unwrap();
        let r = s.registers();
        seen.push((
            c,
            r.table.unwrap(),
            r.entry.unwrap(),
            r.remaining_weight.unwrap(),
        ));
        assert_eq!(r.high_limit_bytes, Some(0));
    }
    use TableSide::{High, Low};
    // Class 2 owns only a weight-0 entry: never served. 128 B = 2 credits empties a
    // weight-2 entry, so each high turn moves to the next high entry.
    assert_eq!(
        seen,
        vec![
            (0, High, 0, 0),
            (3, Low, 1, 0),
            (1, High, 1, 0),
            (3, Low, 1, 0),
            (0, High, 0, 0),
            (3, Low, 1, 0),
        ]
    );
}

/// A random configuration of one of the schedulers of this file, for `classes` classes.
fn any_config(classes: usize) -> impl Strategy<Value = SchedulerConfig> {
    let c = classes as u32;
    prop_oneof![
        proptest::collection::vec(0..c, 32)
            .prop_map(|table| SchedulerConfig::AsBasic(AsBasicConfig { table })),
        (
            proptest::collection::vec((0..c, 0u32..256), 0..12),
            proptest::collection::vec((0..c, 0u32..256), 0..12),
            prop_oneof![Just(0u32), Just(255), 0u32..256],
        )
            .prop_map(|(h, l, high_limit)| SchedulerConfig::Iba(IbaConfig {
                high: entries(&h),
                low: entries(&l),
                high_limit,
            })),
        proptest::collection::vec(0u32..4, classes).prop_map(|priorities| {
            SchedulerConfig::StrictPriority(PriorityConfig {
                priorities,
                ties: None,
            })
        }),
        Just(SchedulerConfig::Fifo(qoslab_core::scenario::FifoConfig {})),
        proptest::collection::vec(1u64..100_000, classes)
            .prop_map(|deadlines_ns| SchedulerConfig::Edf(EdfConfig { deadlines_ns })),
    ]
}

/// Classes a table scheduler can serve (owning an entry of weight > 0); all classes for
/// the others.
fn servable(config: &SchedulerConfig, class: usize) -> bool {
    let c = class as u32;
    match config {
        SchedulerConfig::AsBasic(a) => a.table.contains(&c),
        SchedulerConfig::Iba(i) => i
            .high
            .iter()
            .chain(&i.low)
            .any(|e| e.class == c && e.weight > 0),
        _ => true,
    }
}

#[derive(Clone, Debug)]
enum Event {
    Arrive(usize, u32),
    Credits(usize, u32),
    Decide,
}

fn any_event(classes: usize) -> impl Strategy<Value = Event> {
    prop_oneof![
        2 => (0..classes, 1u32..4096).prop_map(|(c, b)| Event::Arrive(c, b)),
        1 => (0..classes, 1u32..80).prop_map(|(c, k)| Event::Credits(c, k)),
        3 => Just(Event::Decide),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Random arrivals, credit returns and decisions: `select` answers Some iff a
    /// servable class is active, never an inactive class; a table scheduler's chosen
    /// class owns its selected entry, of weight > 0; no panic.
    #[test]
    fn invariants_under_random_events(
        (config, events, free) in (2usize..6).prop_flat_map(|n| (
            any_config(n),
            proptest::collection::vec(any_event(n), 1..150),
            proptest::collection::vec(0u32..100, n),
        ))
    ) {
        let n = free.len();
        let mut s = build(&config, n);
        let mut port = Port::new(n, 0);
        port.free = free;
        let mut now = SimTime::ZERO;
        let mut sent = 0u64;
        for e in events {
            now = now.plus_ps(1_000);
            match e {
                Event::Arrive(c, b) => port.arrive(s.as_mut(), now, c, b),
                Event::Credits(c, k) => port.free[c] += k,
                Event::Decide => {
                    let before = port.clone();
                    let expect = (0..n).any(|c| before.is_active(c) && servable(&config, c));
                    match port.step(s.as_mut(), now) {
                        Some((c, _)) => {
                            sent += 1;
                            prop_assert!(before.is_active(c));
                            let r = s.registers();
                            prop_assert_eq!(r.selected, Some(c as u32));
                            match &config {
                                SchedulerConfig::AsBasic(a) => {
                                    prop_assert_eq!(a.table[r.entry.unwrap() as usize] as usize, c);
                                }
                                SchedulerConfig::Iba(i) => {
                                    let table = if r.table == Some(TableSide::High) { &i.high } else { &i.low };
                                    let entry = table[r.entry.unwrap() as usize];
                                    prop_assert_eq!(entry.class as usize, c);
                                    prop_assert!(entry.weight > 0);
                                }
                                _ => {}
                            }
                        }
                        None => prop_assert!(!expect),
                    }
                }
            }
        }
        prop_assert_eq!(s.cost().decisions, sent);
    }
}

/// A two-class overloaded link lab with an IBA arbiter: VL0 alone in the high table,
/// VL1 alone in the low table, both offering 0.8 of the link with 2048-byte packets.
fn iba_run(high_limit: u32) -> qoslab_core::RunResults {
    let mut doc = common::small(&[("hi", 0.8, 2048), ("lo", 0.8, 2048)], 32, 40_000);
    common::set(
        &mut doc,
        "model.scheduler",
        json!({
            "kind": "iba",
            "high": [{"class": 0, "weight": 255}],
            "low": [{"class": 1, "weight": 255}],
            "high_limit": high_limit
        }),
    );
    let mut run = Run::from_json(&doc.to_string()).unwrap();
    run.run_to_end();
    run.results()
}

/// Whole runs: with high limit 0 the tables alternate packet by packet (each VL gets
/// half the link); with 255 the high VL takes all it offers (0.8) and the low VL only
/// the rest.
#[test]
fn iba_high_limit_in_a_run() {
    let alternate = iba_run(0);
    let unbounded = iba_run(255);
    assert_eq!(alternate.scheduler.kind, "iba");
    let share = |r: &qoslab_core::RunResults, c: usize| r.classes[c].throughput;
    assert!(
        (share(&alternate, 0) - 0.5).abs() < 0.04,
        "{}",
        share(&alternate, 0)
    );
    assert!(
        (share(&alternate, 1) - 0.5).abs() < 0.04,
        "{}",
        share(&alternate, 1)
    );
    assert!(
        (share(&unbounded, 0) - 0.8).abs() < 0.05,
        "{}",
        share(&unbounded, 0)
    );
    assert!(share(&unbounded, 1) < 0.26, "{}", share(&unbounded, 1));
}
