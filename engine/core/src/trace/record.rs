//! Recording a trace: a fresh link lab run with a [`Tracer`] attached.

use super::{Trace, TraceClass, Tracer, ns};
use crate::error::EngineError;
use crate::network::LinkLab;
use crate::scenario::{Model, Scenario};
use crate::time::SimTime;

/// Runs `scenario` (validated here) from the start and records its scheduler's first
/// `decisions` decisions (at most [`MAX_TRACE_DECISIONS`]) made at or after `from_us`.
/// The trace ends early if the run ends first.
pub fn trace(scenario: Scenario, decisions: u32, from_us: u64) -> Result<Trace, EngineError> {
    crate::scenario::validate(&scenario)?;
    let from = SimTime::from_us(from_us);
    let Model::LinkLab(lab_config) = &scenario.model else {
        return Err(EngineError::invalid(
            "model.kind",
            "decision traces are only recorded for the link lab (kind \"link_lab\")",
        ));
    };
    let mut lab = LinkLab::new(&scenario, lab_config)?;
    lab.set_tracer(Tracer::new(from, decisions));
    loop {
        let done = lab.advance(4096);
        if done || lab.tracer().is_none_or(Tracer::is_full) {
            break;
        }
    }
    let link_rate_gbps = lab.link_rate().bits_per_s() as f64 / 1.0e9;
    let (kind, _) = lab.scheduler_cost();
    let peaks = lab.downstream_peaks();
    let registers_now = lab.scheduler_registers();
    let tracer = lab.take_tracer().ok_or_else(|| EngineError::Internal {
        message: "the tracer vanished".to_string(),
    })?;
    Ok(Trace {
        scheduler: kind.to_string(),
        classes: lab_config
            .classes
            .iter()
            .zip(peaks)
            .map(|(c, (_, capacity))| TraceClass {
                name: c.name.clone(),
                mtu_bytes: c.traffic.size.max_bytes(),
                buffer_credits: capacity,
            })
            .collect(),
        link_rate_gbps,
        from_ns: ns(from),
        table: lab_config.scheduler.table_layout(),
        initial: tracer.initial.unwrap_or(registers_now),
        decisions: tracer.decisions,
    })
}
