//! A network's results, behind the model contract ([`crate::model::Model`]).

use super::NetworkSim;
use crate::model::{self, Measured, Model};
use crate::results::{ClassResults, ConnectionCounts, RunResults};
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
