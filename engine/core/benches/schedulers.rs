//! Scheduler decision speed: decisions per second of every scheduler kind with all
//! classes backlogged and random packet sizes (64 to 2048 B), never blocked by credits.
//!
//! Each kind runs with 8 classes and with many: 64 classes (64-entry tables for DTable),
//! except the Advanced Switching basic table (VC ids 0 to 31: 32 classes, 64 entries) and
//! InfiniBand VLArb (at most 15 data VLs: 8 classes with a 64-entry low table only).
//! The port refills each queue as its head leaves (one `on_enqueue` per decision, as in a
//! simulation) from a pre-drawn ring of sizes, so the measured loop does not allocate.

use std::collections::VecDeque;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qoslab_core::scenario::{
    AsBasicConfig, DTableConfig, DrrConfig, EdfConfig, FairQueueingConfig, IbaConfig,
    PriorityConfig, SchedulerConfig, TableEntry,
};
use qoslab_core::schedulers::{self, Head, PortSetup, PortView, Scheduler};
use qoslab_core::time::{BitRate, SimTime};

/// Decisions per measured iteration.
const DECISIONS: u64 = 10_000;
/// Packets kept in each queue.
const DEPTH: usize = 4;

/// A port whose queues never empty and whose credits never run out.
struct BenchPort {
    queues: Vec<VecDeque<(u64, u32)>>,
    sizes: Vec<u32>,
    next_size: usize,
    next_id: u64,
}

impl PortView for BenchPort {
    fn class_count(&self) -> usize {
        self.queues.len()
    }

    fn head(&self, class: usize) -> Option<Head> {
        self.queues[class].front().map(|&(id, bytes)| Head {
            id,
            bytes,
            credits: bytes.div_ceil(64),
            created: SimTime::ZERO,
        })
    }

    fn free_credits(&self, _class: usize) -> u32 {
        u32::MAX
    }
}

impl BenchPort {
    fn new(classes: usize) -> BenchPort {
        // xorshift64: reproducible sizes, uniform over 64..=2048 B.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let sizes = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                64 + (x % 1985) as u32
            })
            .collect();
        BenchPort {
            queues: (0..classes)
                .map(|_| VecDeque::with_capacity(DEPTH + 1))
                .collect(),
            sizes,
            next_size: 0,
            next_id: 0,
        }
    }

    fn enqueue(&mut self, s: &mut dyn Scheduler, now: SimTime, class: usize) {
        let bytes = self.sizes[self.next_size];
        self.next_size = (self.next_size + 1) % self.sizes.len();
        self.queues[class].push_back((self.next_id, bytes));
        self.next_id += 1;
        s.on_enqueue(now, class, bytes, self);
    }
}

/// A scheduler with every queue filled.
struct Bench {
    scheduler: Box<dyn Scheduler>,
    port: BenchPort,
    now: SimTime,
}

impl Bench {
    fn new(config: &SchedulerConfig, classes: usize) -> Bench {
        let link = BitRate::from_gbps(2.0).expect("valid rate");
        let mut scheduler = schedulers::build(config, PortSetup { classes, link });
        let mut port = BenchPort::new(classes);
        for _ in 0..DEPTH {
            for c in 0..classes {
                port.enqueue(&mut *scheduler, SimTime::ZERO, c);
            }
        }
        Bench {
            scheduler,
            port,
            now: SimTime::ZERO,
        }
    }

    /// One decision: select, send the head, refill that queue. Returns the class.
    fn step(&mut self) -> usize {
        let class = self
            .scheduler
            .select(self.now, &self.port)
            .expect("a backlogged port always has an active class");
        let (_, bytes) = self.port.queues[class]
            .pop_front()
            .expect("the scheduler chose a non-empty queue");
        self.scheduler.after_send(self.now, class, &self.port);
        // 2 Gb/s: 4000 ps per byte.
        self.now = self.now.plus_ps(u64::from(bytes) * 4000);
        self.port.enqueue(&mut *self.scheduler, self.now, class);
        class
    }
}

fn table(entries: usize, classes: usize, weight: impl Fn(usize) -> u32) -> Vec<TableEntry> {
    (0..entries)
        .map(|i| TableEntry {
            class: (i % classes) as u32,
            weight: weight(i),
        })
        .collect()
}

/// (label, classes, configuration) of every benchmarked case.
fn cases() -> Vec<(&'static str, usize, SchedulerConfig)> {
    let mut out = Vec::new();
    for &n in &[8usize, 64] {
        let as_classes = n.min(32);
        out.push((
            "as_basic",
            as_classes,
            SchedulerConfig::AsBasic(AsBasicConfig {
                table: (0..64).map(|i| (i % as_classes) as u32).collect(),
            }),
        ));
        if n == 8 {
            out.push((
                "iba",
                8,
                SchedulerConfig::Iba(IbaConfig {
                    high: Vec::new(),
                    low: table(64, 8, |i| 32 + (i % 4) as u32 * 16),
                    high_limit: 0,
                }),
            ));
        }
        out.push((
            "dtable",
            n,
            SchedulerConfig::Dtable(DTableConfig {
                table: table(64, n, |i| 32 + (i % 4) as u32 * 8),
            }),
        ));
        out.push((
            "drr",
            n,
            SchedulerConfig::Drr(DrrConfig {
                quanta_bytes: (0..n).map(|i| 2048 * (1 + (i % 4) as u32)).collect(),
            }),
        ));
        let weights = FairQueueingConfig {
            weights: (0..n).map(|i| 1.0 + (i % 4) as f64).collect(),
        };
        out.push(("scfq", n, SchedulerConfig::Scfq(weights.clone())));
        out.push(("wfq", n, SchedulerConfig::Wfq(weights.clone())));
        out.push(("wf2q_plus", n, SchedulerConfig::Wf2qPlus(weights.clone())));
        out.push(("sfq", n, SchedulerConfig::Sfq(weights)));
        out.push((
            "strict_priority",
            n,
            SchedulerConfig::StrictPriority(PriorityConfig {
                ties: None,
                priorities: (0..n).map(|i| (i % 8) as u32).collect(),
            }),
        ));
        out.push((
            "fifo",
            n,
            SchedulerConfig::Fifo(qoslab_core::scenario::FifoConfig {}),
        ));
        out.push((
            "edf",
            n,
            SchedulerConfig::Edf(EdfConfig {
                deadlines_ns: (0..n).map(|i| 1000 * (1 + (i % 8) as u64)).collect(),
            }),
        ));
    }
    out
}

fn decisions(c: &mut Criterion) {
    let mut group = c.benchmark_group("scheduler_decisions");
    group.throughput(Throughput::Elements(DECISIONS));
    group.sample_size(20);
    group.warm_up_time(std::time::Duration::from_millis(500));
    group.measurement_time(std::time::Duration::from_secs(2));
    for (kind, classes, config) in cases() {
        group.bench_function(BenchmarkId::new(kind, format!("{classes}_classes")), |b| {
            let mut bench = Bench::new(&config, classes);
            b.iter(|| {
                let mut sum = 0usize;
                for _ in 0..DECISIONS {
                    sum += bench.step();
                }
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, decisions);
criterion_main!(benches);
