//! A network's results, behind the model contract ([`crate::model::Model`]).

use super::NetworkSim;
use crate::model::{self, Measured, Model};
use crate::results::{ClassResults, ConnectionCounts, FlitResults, MessageResults, RunResults};
use crate::scenario::Scenario;
use crate::stats::JitterTracker;
use crate::time::SimTime;

impl Model for NetworkSim {
    fn advance(&mut self, max_events: u64) -> bool {
        NetworkSim::advance(self, max_events)
    }

    fn is_done(&self) -> bool {
        NetworkSim::is_done(self)
    }

    fn now(&self) -> SimTime {
        NetworkSim::now(self)
    }

    fn end(&self) -> SimTime {
        NetworkSim::end(self)
    }

    fn events_processed(&self) -> u64 {
        NetworkSim::events_processed(self)
    }

    fn packets_held(&self) -> u64 {
        self.packets_stored() as u64
    }

    /// Per class, throughput and offered load normalised to the link rate per end
    /// point, jitter and connection counts of connection classes; the scheduler summary
    /// covers the switch output ports.
    fn audit_findings(&self) -> Option<Vec<String>> {
        // Destructured, so that a new invariant cannot be left out of the findings.
        let super::Audit {
            buffer_overflows,
            credit_violations,
            idle_with_active_class,
            fifo_violations,
            duplicates,
            misdelivered,
        } = self.audit()?;
        Some(model::findings(&[
            ("buffer_overflows", buffer_overflows),
            ("credit_violations", credit_violations),
            ("idle_with_active_class", idle_with_active_class),
            ("fifo_violations", fifo_violations),
            ("duplicates", duplicates),
            ("misdelivered", misdelivered),
        ]))
    }

    fn results(&self, scenario: &Scenario) -> RunResults {
        let window = self.window();
        let capacity = self.link.bytes_in(window.span()) * f64::from(self.end_points());
        let classes = self
            .names
            .iter()
            .zip(self.counters())
            .enumerate()
            .map(|(i, (name, c))| ClassResults {
                jitter_ns: self.jitter(i).map(JitterTracker::summary),
                connections: self.admission(i).map(|a| ConnectionCounts {
                    requested: a.requested,
                    admitted: a.admitted,
                    refused: a.refused(),
                }),
                messages: self.message_results(i),
                flits: self.flit_results(i),
                ..model::class_results(name, c, capacity, self.in_flight(i))
            })
            .collect();
        let measured = Measured {
            window,
            link_rate: self.link,
            events: self.events_processed(),
            packet_hops: Some(self.packet_hops()),
            scheduler: self.scheduler_cost(),
        };
        let hardware = match &scenario.model {
            crate::scenario::Model::Network(net) if net.switch.kind() == "two_vc" => {
                let sw = net.switch.basics();
                Some(crate::network::cost::hardware_cost(
                    &self.topology,
                    u32::from(self.lanes.port_lanes()),
                    sw.input_buffer_bytes,
                    sw.output_buffer_bytes,
                ))
            }
            _ => None,
        };
        RunResults {
            hardware,
            ..model::run_results(scenario, measured, classes)
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl NetworkSim {
    /// The messages of `class` (None without an MTU).
    fn message_results(&self, class: usize) -> Option<MessageResults> {
        let c = self.messages(class)?;
        Some(MessageResults {
            mtu_bytes: self.messages.mtu(class)?,
            generated: c.generated,
            delivered: c.delivered,
            in_flight: self.messages_in_flight(class),
            latency_ns: c.latency.summary(),
        })
    }

    /// The flits of `class` per cycle per end point (None without a flit size).
    fn flit_results(&self, class: usize) -> Option<FlitResults> {
        let f = self.flits()?;
        // Cycles in the window: its length over one flit's time on a link.
        let flit_bits = f64::from(f.flit_bytes) * 8.0;
        let cycle_s = flit_bits / self.link.bits_per_s() as f64;
        let cycles = self.window().span().as_ps() as f64 / 1.0e12 / cycle_s;
        let per = cycles * f64::from(self.end_points());
        let rate = |flits: u64| if per > 0.0 { flits as f64 / per } else { 0.0 };
        Some(FlitResults {
            flit_bytes: f.flit_bytes,
            cycle_ns: cycle_s * 1.0e9,
            offered: rate(f.generated[class]),
            throughput: rate(f.delivered[class]),
        })
    }
}
