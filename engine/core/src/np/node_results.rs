//! The node's side of the model contract and its results.

use super::hilq::sched::DwcsHilq;
use super::node::NpNode;
use super::results::{
    HilqCounts, MAX_LISTED_STREAMS, NpCategory, NpCost, NpProcessing, NpResults, NpStream,
};
use crate::model::{self, Measured, Model};
use crate::results::RunResults;
use crate::scenario::Scenario;
use crate::schedulers::SchedulerCost;
use crate::time::SimTime;

impl NpNode {
    /// The node's own results.
    pub fn np_results(&self) -> NpResults {
        let groups = self.names.len();
        let mut categories: Vec<NpCategory> = (0..groups)
            .map(|g| {
                let x = &self.extra[g];
                let std = (x.delay_count > 1).then(|| {
                    let n = x.delay_count as f64;
                    let mean = x.delay_sum / n;
                    (((x.delay_sq_sum / n) - mean * mean).max(0.0) * n / (n - 1.0)).sqrt()
                });
                NpCategory {
                    name: self.names[g].clone(),
                    streams: 0,
                    generated: self.counters[g].generated,
                    sent: 0,
                    dropped_late: 0,
                    lost_full: 0,
                    late_sent: 0,
                    violations: 0,
                    windows_violated: 0,
                    delay_std_ns: std,
                }
            })
            .collect();
        let mut per_stream = Vec::new();
        for (i, s) in self.streams.iter().enumerate() {
            let c = &mut categories[usize::from(s.group)];
            let violations = self.scheduler.violations(i as u32);
            c.streams += 1;
            c.sent += s.sent;
            c.dropped_late += s.dropped_late;
            c.lost_full += s.lost_full;
            c.late_sent += s.late_sent;
            c.violations += violations;
            c.windows_violated += s.windows_violated;
            if self.streams.len() <= MAX_LISTED_STREAMS {
                let w = self.scheduler.window(i as u32);
                per_stream.push(NpStream {
                    x: s.x,
                    y: s.y,
                    xc: w.xc,
                    yc: w.yc,
                    sent: s.sent,
                    dropped_late: s.dropped_late,
                    late_sent: s.late_sent,
                    violations,
                    windows_violated: s.windows_violated,
                });
            }
        }
        let sum = |f: fn(&NpCategory) -> u64| categories.iter().map(f).sum::<u64>();
        let per = |v: u64| {
            if self.window_scheduled == 0 {
                0.0
            } else {
                v as f64 / self.window_scheduled as f64
            }
        };
        let cycles = per(self.window_cycles);
        let mean_bytes: f64 = {
            let (mut bytes, mut rate) = (0.0, 0.0);
            for g in &self.config.streams {
                let r = f64::from(g.count) / (g.period_us * 1e-6);
                bytes += r * g.size.mean_bytes();
                rate += r;
            }
            if rate > 0.0 { bytes / rate } else { 0.0 }
        };
        let streams = self.streams.len() as u32;
        let total_rate: f64 = self
            .config
            .streams
            .iter()
            .map(|g| f64::from(g.count) / (g.period_us * 1e-6))
            .sum();
        let stream_rate = total_rate / f64::from(streams.max(1));
        let sustained = if cycles > 0.0 {
            self.clock_mhz * 1e6 / cycles
        } else {
            0.0
        };
        let cost = NpCost {
            scheduled: self.window_scheduled,
            accesses: self.window_mem,
            scratchpad_per_packet: per(self.window_mem.scratchpad),
            sram_per_packet: per(self.window_mem.sram),
            accesses_per_packet: per(self.window_mem.total()),
            cycles_per_packet: cycles,
            cycles_per_packet_max: self.max_cycles as f64,
            clock_mhz: self.clock_mhz,
            budget_cycles: mean_bytes * 8.0 / (self.link.bits_per_s() as f64)
                * self.clock_mhz
                * 1e6,
            sustained_packets_per_s: sustained,
            stream_rate_per_s: stream_rate,
            sustained_streams: if stream_rate > 0.0 {
                sustained / stream_rate
            } else {
                0.0
            },
        };
        let hilq = self.hilq_counts();
        NpResults {
            scheduler: self.scheduler.kind().to_string(),
            streams,
            utilisation: self.config.utilisation(),
            offered_load: self.config.offered_load(),
            generated: sum(|c| c.generated),
            sent: sum(|c| c.sent),
            dropped_late: sum(|c| c.dropped_late),
            lost_full: sum(|c| c.lost_full),
            queued: self.queued(),
            late_sent: sum(|c| c.late_sent),
            violations: sum(|c| c.violations),
            windows_violated: sum(|c| c.windows_violated),
            active_streams: if self.active_samples == 0 {
                0.0
            } else {
                self.active_sum as f64 / self.active_samples as f64
            },
            cost,
            hilq,
            categories,
            per_stream: (self.streams.len() <= MAX_LISTED_STREAMS).then_some(per_stream),
            processing: self.processing(),
        }
    }

    /// Per group: packets generated and not yet delivered, dropped or lost.
    pub(super) fn in_flight_per_group(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self
            .counters
            .iter()
            .map(|c| c.generated - c.delivered)
            .collect();
        for s in &self.streams {
            let g = &mut out[usize::from(s.group)];
            *g = g.saturating_sub(s.dropped_late + s.lost_full);
        }
        out
    }

    /// Checks the node's invariants: packets conserved per group, the scheduler's own
    /// structures. Returns the first problem found.
    pub fn audit(&self) -> Result<(), String> {
        if let Some(f) = self.scheduler.fault() {
            return Err(f);
        }
        let generated: u64 = self.counters.iter().map(|c| c.generated).sum();
        let (sent, dropped, lost) = self.streams.iter().fold((0, 0, 0), |a, s| {
            (a.0 + s.sent, a.1 + s.dropped_late, a.2 + s.lost_full)
        });
        let delivered: u64 = self.counters.iter().map(|c| c.delivered).sum();
        let queued = self.queued();
        if generated != sent + dropped + lost + queued {
            return Err(format!(
                "generated {generated} != sent {sent} + dropped {dropped} + lost {lost} + queued {queued}"
            ));
        }
        if sent != delivered + self.in_service() {
            return Err(format!(
                "sent {sent} != delivered {delivered} + in service {}",
                self.in_service()
            ));
        }
        let active = self.queues.q.iter().filter(|q| !q.is_empty()).count();
        if active != self.queues.active {
            return Err(format!("{active} active, {} counted", self.queues.active));
        }
        Ok(())
    }

    /// Per stream, the observed processing cost (engines server, listed streams only).
    fn processing(&self) -> Option<Vec<NpProcessing>> {
        if self.engines.is_none() || self.streams.len() > MAX_LISTED_STREAMS {
            return None;
        }
        let list = self
            .streams
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let any = s.processed > 0;
                NpProcessing {
                    group: self.names[usize::from(s.group)].clone(),
                    processed: s.processed,
                    cycles_mean: any.then(|| s.cycles_sum as f64 / s.processed as f64),
                    cycles_min: any.then_some(s.cycles_min),
                    cycles_max: any.then_some(s.cycles_max),
                    predicted_cycles: self.scheduler.predicted_cycles(i as u32),
                }
            })
            .collect();
        Some(list)
    }

    fn hilq_counts(&self) -> Option<HilqCounts> {
        // Only HILQ has these counters.
        let h = self.scheduler.as_any().downcast_ref::<DwcsHilq>();
        h.map(|h| HilqCounts {
            clamped: h.clamped(),
            collected: h.collected(),
            segments_scanned: h.index().segments_scanned(),
        })
    }
}

impl Model for NpNode {
    fn advance(&mut self, max_events: u64) -> bool {
        NpNode::advance(self, max_events)
    }

    fn is_done(&self) -> bool {
        NpNode::is_done(self)
    }

    fn now(&self) -> SimTime {
        NpNode::now(self)
    }

    fn end(&self) -> SimTime {
        self.window.end
    }

    fn events_processed(&self) -> u64 {
        NpNode::events_processed(self)
    }

    fn packets_held(&self) -> u64 {
        self.queued() + self.in_service()
    }

    fn results(&self, scenario: &Scenario) -> RunResults {
        let measured = Measured {
            window: self.window,
            link_rate: self.link,
            events: self.events_processed(),
            packet_hops: None,
            scheduler: (
                self.scheduler.kind(),
                SchedulerCost {
                    decisions: self.window_scheduled,
                    ..SchedulerCost::default()
                },
            ),
        };
        let in_flight = self.in_flight_per_group();
        let mut r =
            model::one_link_results(scenario, measured, &self.names, &self.counters, &in_flight);
        r.network_processor = Some(self.np_results());
        r
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    /// Always audited: the scheduler's own fault and packet conservation.
    fn audit_findings(&self) -> Option<Vec<String>> {
        Some(self.audit().err().into_iter().collect())
    }
}
