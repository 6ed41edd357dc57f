//! The event queue alone: a hold model (pop the earliest event, schedule one in its
//! place) with `n` events pending, the pattern of a network run (about 1 350 pending at 64
//! end points, 80 000 at 4 096). Delays are drawn from a mix of a network's: ties at the
//! same time, link and switch delays of a few hundred ns, and generator gaps of up to
//! tens of µs (times in ps). Criterion reports events (one pop and one schedule) per
//! second of [`qoslab_core::kernel::EventQueue`], and of a binary heap over
//! (time, insertion) as the queue was before, for comparison.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qoslab_core::kernel::EventQueue;
use qoslab_core::time::SimTime;

/// Delays in ps, a fixed pseudo-random mix (xorshift), cycled.
fn delays(count: usize) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 8 {
                0 => 0,                                                      // a tie with now
                1..=5 => [256_000, 512_000, 768_000][(x >> 8) as usize % 3], // link, credit, header
                6 => (x >> 16) % 300_000,                                    // a transfer
                _ => (x >> 16) % 40_000_000,                                 // a generator's gap
            }
        })
        .collect()
}

const STEPS: usize = 100_000;

fn hold(c: &mut Criterion) {
    let d = delays(1 << 16);
    let mut group = c.benchmark_group("event_queue");
    group.throughput(Throughput::Elements(STEPS as u64));
    group.sample_size(20);
    for pending in [1_350usize, 80_000] {
        group.bench_with_input(BenchmarkId::new("wheel", pending), &pending, |b, &n| {
            b.iter(|| {
                let mut q = EventQueue::new();
                for i in 0..n {
                    q.schedule(SimTime(d[i % d.len()]), i as u32);
                }
                let mut sum = 0u64;
                for i in 0..STEPS {
                    let (t, e) = q.pop_until(SimTime(u64::MAX)).expect("pending");
                    sum = sum.wrapping_add(u64::from(e));
                    q.schedule(SimTime(t.0 + d[(i + n) % d.len()]), e);
                }
                sum
            })
        });
        group.bench_with_input(
            BenchmarkId::new("binary_heap", pending),
            &pending,
            |b, &n| {
                b.iter(|| {
                    let mut q = BinaryHeap::new();
                    let mut seq = 0u64;
                    for i in 0..n {
                        q.push(Reverse((d[i % d.len()], seq, i as u32)));
                        seq += 1;
                    }
                    let mut sum = 0u64;
                    for i in 0..STEPS {
                        let Reverse((t, _, e)) = q.pop().expect("pending");
                        sum = sum.wrapping_add(u64::from(e));
                        q.push(Reverse((t + d[(i + n) % d.len()], seq, e)));
                        seq += 1;
                    }
                    sum
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, hold);
criterion_main!(benches);
