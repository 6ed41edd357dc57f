//! The network processor's decision trace, for the decision animation: each dispatch with
//! the scheduler's reasons in words (its [`NpScheduler::explain`]), the candidates' keys,
//! its clock values, and what the node knows and the scheduler does not yet (the packet's
//! actual processing cycles), with the engines, the transmit queue and the link around it.
//!
//! A scheduler joins the animation by implementing `explain` (PCFQ and the separate WFQ
//! do; the DWCS schedulers can with the same one method). Steps are recorded for sends.
//!
//! [`NpScheduler::explain`]: super::contract::NpScheduler::explain

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use super::NpNode;
use super::explain::NpTracer;
pub use super::explain::{Explanation, MAX_CANDIDATES, NpCandidate, NpStep, NpValue};
use crate::error::EngineError;
use crate::scenario::{Model, Scenario};
use crate::time::{PS_PER_NS, SimTime};
use crate::trace::MAX_TRACE_DECISIONS;

/// A stream as the trace lists it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct NpTraceStream {
    /// Its group (category).
    pub group: String,
    /// CPU and bandwidth weights.
    pub weight_cpu: f64,
    /// Bandwidth weight.
    pub weight_bw: f64,
}

/// A network processor's decision trace.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct NpTrace {
    /// Scheduler kind.
    pub scheduler: String,
    /// Streams in number order.
    pub streams: Vec<NpTraceStream>,
    /// Engines (0: the link is the server).
    pub engines: u32,
    /// Engine clock, MHz.
    pub clock_mhz: f64,
    /// Link rate, Gb/s.
    pub link_rate_gbps: f64,
    /// Tracing started with the first dispatch at or after this time, ns.
    pub from_ns: f64,
    /// The dispatches.
    pub steps: Vec<NpStep>,
}

impl NpTrace {
    /// The trace as pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

pub(super) fn ns(t: SimTime) -> f64 {
    t.as_ps() as f64 / PS_PER_NS as f64
}

/// Runs `scenario` (a network processor, validated here) from the start and records its
/// first `decisions` dispatches (at most [`MAX_TRACE_DECISIONS`]) at or after `from_us`.
pub fn trace(scenario: Scenario, decisions: u32, from_us: u64) -> Result<NpTrace, EngineError> {
    crate::scenario::validate(&scenario)?;
    let Model::NetworkProcessor(np) = &scenario.model else {
        return Err(EngineError::invalid(
            "model.kind",
            "network-processor traces are recorded for kind \"network_processor\" only",
        ));
    };
    let from = SimTime::from_us(from_us);
    let mut node = NpNode::new(&scenario, np)?;
    node.tracer = Some(NpTracer {
        from,
        limit: decisions.clamp(1, MAX_TRACE_DECISIONS) as usize,
        steps: Vec::new(),
    });
    loop {
        let done = node.advance(4096);
        if done || node.tracer.as_ref().is_none_or(NpTracer::is_full) {
            break;
        }
    }
    let streams = node
        .streams
        .iter()
        .map(|s| {
            let g = &np.streams[usize::from(s.group)];
            NpTraceStream {
                group: g.name.clone(),
                weight_cpu: g.weight_cpu.unwrap_or(1.0),
                weight_bw: g.weight_bw.unwrap_or(1.0),
            }
        })
        .collect();
    Ok(NpTrace {
        scheduler: np.scheduler.kind().to_string(),
        streams,
        engines: node.engines.as_ref().map_or(0, |e| e.len() as u32),
        clock_mhz: np.processor.clock_mhz,
        link_rate_gbps: node.link.bits_per_s() as f64 / 1.0e9,
        from_ns: ns(from),
        steps: node.tracer.take().map(|t| t.steps).unwrap_or_default(),
    })
}

impl NpNode {
    /// The scheduler's account of `decision`, before it is carried out, when the dispatch
    /// is to be traced (outer None: not traced).
    pub(super) fn note_before(
        &self,
        now: SimTime,
        decision: super::contract::Decision,
    ) -> Option<Option<Explanation>> {
        let t = self.tracer.as_ref()?;
        if !t.wants(now) || !matches!(decision, super::contract::Decision::Send(_)) {
            return None;
        }
        Some(self.scheduler.explain(now, decision, &self.queues))
    }

    /// Records a traced dispatch of `pkt`, just started.
    pub(super) fn record_step(
        &mut self,
        now: SimTime,
        pkt: super::node_streams::Pkt,
        note: Option<Option<Explanation>>,
    ) {
        let Some(explanation) = note else {
            return;
        };
        let clock = self.config.processor.clock_mhz;
        let engines = self.engines.as_ref().map_or(0, Vec::len);
        let busy = self
            .engines
            .as_ref()
            .map_or(0, |e| e.iter().filter(|p| p.is_some()).count());
        let processed = (engines > 0).then(|| ns(now) + f64::from(pkt.cycles) / clock * 1000.0);
        let predicted = explanation
            .as_ref()
            .and_then(|_| self.scheduler.predicted_cycles(pkt.stream));
        let group = &self.names[usize::from(self.streams[pkt.stream as usize].group)];
        let mut words = explanation
            .as_ref()
            .map_or_else(String::new, |e| format!("{} ", e.words));
        if engines > 0 {
            words.push_str(&format!(
                "An engine takes it ({busy} of {engines} now busy): its actual cost is {} cycles, {:.2} µs at {clock} MHz",
                pkt.cycles,
                f64::from(pkt.cycles) / clock
            ));
            if let Some(pp) = predicted {
                words.push_str(&format!(
                    " (predicted {pp:.0}; the scheduler learns the actual cost only when processing ends)"
                ));
            }
            words.push_str(&format!(
                ". Then the transmit queue ({} waiting) and the link ({}).",
                self.tx_fifo.len(),
                if self.on_link.is_some() {
                    "busy"
                } else {
                    "idle"
                }
            ));
        } else {
            words.push_str("The link sends it.");
        }
        let Some(t) = self.tracer.as_mut() else {
            return;
        };
        let step = t.steps.len() as u32;
        t.steps.push(NpStep {
            step,
            time_ns: ns(now),
            stream: pkt.stream,
            bytes: pkt.bytes,
            out_bytes: pkt.out_bytes,
            predicted_cycles: predicted,
            actual_cycles: pkt.cycles,
            processed_ns: processed,
            engines_busy: busy as u32,
            transmit_queue: self.tx_fifo.len() as u32,
            link_busy: self.on_link.is_some(),
            explanation,
            words: format!("Stream {} ({group}): {words}", pkt.stream),
        });
    }
}
