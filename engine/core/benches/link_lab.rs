//! Simulation speed of the link lab (events per second) with the default preset.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qoslab_core::Run;

fn default_preset(c: &mut Criterion) {
    let text = include_str!("../../../public/presets/default.json");
    let events = {
        let mut run = Run::from_json(text).expect("default preset is valid");
        run.run_to_end();
        run.events_processed()
    };
    let mut group = c.benchmark_group("link_lab");
    group.throughput(Throughput::Elements(events));
    group.sample_size(10);
    group.bench_function("default_preset", |b| {
        b.iter(|| {
            let mut run = Run::from_json(text).expect("default preset is valid");
            run.run_to_end();
            run.events_processed()
        })
    });
    group.finish();
}

criterion_group!(benches, default_preset);
criterion_main!(benches);
