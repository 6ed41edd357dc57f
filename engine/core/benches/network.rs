//! Simulation speed of the network model: the R2 preset (DTable, 64 end points, 48 CIOQ
//! switches, seven classes with connections and admission control) at its load (0.996)
//! for 2 ms simulated. Criterion reports events per second; the packet-hops (packets sent
//! on a link) of the run are printed once so hops per second follow from the same time.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qoslab_core::{Run, Scenario, scenario};

fn r2_short() -> Scenario {
    let text = include_str!("../../../public/presets/r2-multimedia-dtable.json");
    let mut s = scenario::parse(text).expect("R2 preset is valid");
    s.duration_us = 2_000;
    s.warmup_us = 200;
    s
}

fn r2_dtable(c: &mut Criterion) {
    let s = r2_short();
    let (events, hops) = {
        let mut run = Run::new(s.clone()).expect("R2 preset is valid");
        run.run_to_end();
        let r = run.results();
        (r.events, r.packet_hops.unwrap_or(0))
    };
    eprintln!("r2_dtable_2ms: {events} events, {hops} packet-hops per run");
    let mut group = c.benchmark_group("network");
    group.throughput(Throughput::Elements(events));
    group.sample_size(10);
    group.bench_function("r2_dtable_2ms", |b| {
        b.iter(|| {
            let mut run = Run::new(s.clone()).expect("R2 preset is valid");
            run.run_to_end();
            run.events_processed()
        })
    });
    group.finish();
}

criterion_group!(benches, r2_dtable);
criterion_main!(benches);
