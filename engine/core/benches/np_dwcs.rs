//! DWCS on a network processor: wall-clock cost of one scheduled packet (decide, send,
//! and the arrival that refills the stream) for the exact heap and for HILQ at 10, 100,
//! 1000 and 10 000 streams, every stream backlogged (4 packets each) with periodic
//! deadlines, the clock advancing one 512 B packet time (4.096 us at 1 Gb/s) per packet.
//! HILQ's cost per packet should stay within 2x from 10 to 10 000 streams.

use std::collections::VecDeque;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qoslab_core::np::contract::{Decision, NpScheduler, QueuedPacket, StreamView};
use qoslab_core::np::dwcs::ZeroTie;
use qoslab_core::np::heap::DwcsHeap;
use qoslab_core::np::hilq::sched::DwcsHilq;
use qoslab_core::time::SimTime;

/// Packets per measured iteration.
const PACKETS: u64 = 10_000;
/// One 512 B packet on a 1 Gb/s link, in ps.
const SERVICE_PS: u64 = 4_096_000;

struct Node {
    queues: Vec<VecDeque<QueuedPacket>>,
    last: Vec<SimTime>,
    period_ps: u64,
    now: SimTime,
}

impl StreamView for Node {
    fn streams(&self) -> usize {
        self.queues.len()
    }
    fn head(&self, s: u32) -> Option<QueuedPacket> {
        self.queues[s as usize].front().copied()
    }
    fn tail(&self, s: u32) -> Option<QueuedPacket> {
        self.queues[s as usize].back().copied()
    }
    fn len(&self, s: u32) -> usize {
        self.queues[s as usize].len()
    }
}

impl Node {
    fn arrive(&mut self, s: u32, sched: &mut dyn NpScheduler) {
        let d = SimTime(self.last[s as usize].as_ps() + self.period_ps).max(self.now);
        self.last[s as usize] = d;
        self.queues[s as usize].push_back(QueuedPacket {
            deadline: d,
            arrival: self.now,
            bytes: 1500,
        });
        sched.on_arrival(self.now, s, self);
    }
}

/// A node of `n` backlogged streams whose period is n packet times (the link just full).
fn setup(n: u32, sched: &mut dyn NpScheduler) -> Node {
    let period_ps = u64::from(n) * SERVICE_PS;
    let mut node = Node {
        queues: vec![VecDeque::new(); n as usize],
        last: (0..n)
            .map(|s| SimTime(u64::from(s) * period_ps / u64::from(n)))
            .collect(),
        period_ps,
        now: SimTime::ZERO,
    };
    for _ in 0..4 {
        for s in 0..n {
            node.arrive(s, sched);
        }
    }
    node
}

fn step(node: &mut Node, sched: &mut dyn NpScheduler, packets: u64) {
    for _ in 0..packets {
        loop {
            let d = sched.decide(node.now, true, node);
            let s = match d {
                Decision::Send(s) | Decision::Drop(s) => s,
                Decision::Idle => break,
            };
            node.queues[s as usize].pop_front();
            sched.applied(node.now, d, node);
            node.arrive(s, sched);
            if matches!(d, Decision::Send(_)) {
                break;
            }
        }
        node.now = node.now.plus_ps(SERVICE_PS);
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("np_dwcs");
    group.throughput(Throughput::Elements(PACKETS));
    for n in [10u32, 100, 1000, 10_000] {
        let specs: Vec<(u32, u32, bool)> = (0..n).map(|i| (i % 5, 5 + i % 20, true)).collect();
        type Make = fn(&[(u32, u32, bool)]) -> Box<dyn NpScheduler>;
        let kinds: [(&str, Make); 2] = [
            ("heap", |s| {
                Box::new(DwcsHeap::new(s, ZeroTie::HighestYFirst))
            }),
            ("hilq", |s| Box::new(DwcsHilq::new(s))),
        ];
        for (name, make) in kinds {
            let mut sched = make(&specs);
            let mut node = setup(n, &mut *sched);
            // Warm up past the first period so the structures are in their steady state.
            step(&mut node, &mut *sched, u64::from(n) * 4);
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| step(&mut node, &mut *sched, PACKETS));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
