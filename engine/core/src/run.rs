//! Running a scenario in chunks: the one entry point the CLI and the WebAssembly facade use.
//!
//! ```
//! let text = r#"{"version":1,"name":"demo","seed":1,"duration_us":100,"warmup_us":10,
//!   "model":{"kind":"link_lab","link":{"rate_gbps":2.0},
//!     "downstream":{"buffer_bytes":4096,"drain_rate_gbps":2.0},
//!     "classes":[{"name":"A","traffic":{"load":0.5,"arrivals":{"kind":"poisson"},
//!                 "size":{"kind":"fixed","bytes":256}}}],
//!     "scheduler":{"kind":"dtable","table":[{"class":0,"weight":4}]}}}"#;
//! let mut run = qoslab_core::Run::from_json(text).unwrap();
//! while !run.advance(10_000) {}
//! let results = run.results();
//! assert_eq!(results.classes.len(), 1);
//! assert!(results.classes[0].throughput > 0.4);
//! ```

use crate::budget::Budget;
use crate::error::EngineError;
use crate::network::{LinkLab, NetworkSim};
use crate::results::{ClassResults, ConnectionCounts, RunResults, SchedulerSummary};
use crate::scenario::{self, Model, Scenario};
use crate::schedulers::SchedulerCost;
use crate::stats::{ClassCounters, JitterTracker, Window};
use crate::time::BitRate;
use crate::time::PS_PER_NS;

/// A scenario being simulated.
pub struct Run {
    scenario: Scenario,
    model: ModelRun,
    budget: Budget,
}

enum ModelRun {
    LinkLab(Box<LinkLab>),
    Network(Box<NetworkSim>),
}

impl Run {
    /// Parses, validates and prepares a scenario given as JSON text.
    pub fn from_json(text: &str) -> Result<Run, EngineError> {
        // `new` validates; parse without validating here so it happens once.
        Run::new(scenario::parse_unvalidated(text)?)
    }

    /// Prepares a scenario (validating it).
    pub fn new(scenario: Scenario) -> Result<Run, EngineError> {
        scenario::validate(&scenario)?;
        let model = match &scenario.model {
            Model::LinkLab(lab) => ModelRun::LinkLab(Box::new(LinkLab::new(&scenario, lab)?)),
            Model::Network(net) => ModelRun::Network(Box::new(NetworkSim::new(&scenario, net)?)),
        };
        Ok(Run {
            scenario,
            model,
            budget: Budget::default(),
        })
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Processes up to `max_events` events; true when the run is complete or stopped by
    /// its run-time budget ([`Run::stopped`]).
    pub fn advance(&mut self, max_events: u64) -> bool {
        let model = &mut self.model;
        self.budget.advance(max_events, |n| match model {
            ModelRun::LinkLab(lab) => {
                let done = lab.advance(n);
                let held = lab.counters().iter().map(|c| c.generated - c.delivered);
                (done, held.sum(), lab.events_processed())
            }
            ModelRun::Network(net) => {
                let done = net.advance(n);
                (done, net.packets_stored() as u64, net.events_processed())
            }
        })
    }

    /// Why the run stopped early (a run-time budget it went over), if it did.
    pub fn stopped(&self) -> Option<&EngineError> {
        self.budget.stopped()
    }

    /// Replaces the run-time budget (tools and tests; the default is [`Budget::default`]).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        while !self.advance(1 << 16) {}
    }

    /// Whether the run is complete.
    pub fn is_done(&self) -> bool {
        match &self.model {
            ModelRun::LinkLab(lab) => lab.is_done(),
            ModelRun::Network(net) => net.is_done(),
        }
    }

    /// Fraction of simulated time done, in [0, 1].
    pub fn progress(&self) -> f64 {
        if self.is_done() {
            return 1.0;
        }
        let (now, end) = match &self.model {
            ModelRun::LinkLab(lab) => (lab.now(), lab.end()),
            ModelRun::Network(net) => (net.now(), net.end()),
        };
        now.as_ps() as f64 / end.as_ps().max(1) as f64
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        match &self.model {
            ModelRun::LinkLab(lab) => lab.events_processed(),
            ModelRun::Network(net) => net.events_processed(),
        }
    }

    /// The link lab, when that is the model (for tests and tools that inspect it).
    pub fn link_lab(&self) -> Option<&LinkLab> {
        match &self.model {
            ModelRun::LinkLab(lab) => Some(lab),
            ModelRun::Network(_) => None,
        }
    }

    /// The link lab, mutably (for tracing).
    pub(crate) fn link_lab_mut(&mut self) -> Option<&mut LinkLab> {
        match &mut self.model {
            ModelRun::LinkLab(lab) => Some(lab),
            ModelRun::Network(_) => None,
        }
    }

    /// The network simulation, when that is the model (for tests and tools).
    pub fn network(&self) -> Option<&NetworkSim> {
        match &self.model {
            ModelRun::Network(net) => Some(net),
            ModelRun::LinkLab(_) => None,
        }
    }

    /// The results so far (final once [`Run::is_done`]).
    pub fn results(&self) -> RunResults {
        match &self.model {
            ModelRun::LinkLab(lab) => link_lab_results(&self.scenario, lab),
            ModelRun::Network(net) => network_results(&self.scenario, net),
        }
    }
}

fn link_lab_results(s: &Scenario, lab: &LinkLab) -> RunResults {
    let names: Vec<&str> = match &s.model {
        Model::LinkLab(config) => config.classes.iter().map(|c| c.name.as_str()).collect(),
        Model::Network(_) => Vec::new(),
    };
    let window = lab.window();
    let capacity = lab.link_rate().bytes_in(window.span());
    let classes = names
        .iter()
        .zip(lab.counters())
        .enumerate()
        .map(|(i, (name, c))| class_results(name, c, capacity, lab.in_flight(i)))
        .collect();
    let measured = Measured {
        window,
        link_rate: lab.link_rate(),
        events: lab.events_processed(),
        packet_hops: None,
        scheduler: lab.scheduler_cost(),
    };
    run_results(s, measured, classes)
}

/// Results of a network: per class, throughput and offered load normalised to the link
/// rate per end point, jitter and connection counts of connection classes; the scheduler
/// summary covers the switch output ports.
fn network_results(s: &Scenario, net: &NetworkSim) -> RunResults {
    let names: Vec<&str> = match &s.model {
        Model::Network(config) => config.classes.iter().map(|c| c.name.as_str()).collect(),
        Model::LinkLab(_) => Vec::new(),
    };
    let window = net.window();
    let capacity = net.link_rate().bytes_in(window.span()) * f64::from(net.end_points());
    let classes = names
        .iter()
        .zip(net.counters())
        .enumerate()
        .map(|(i, (name, c))| ClassResults {
            jitter_ns: net.jitter(i).map(JitterTracker::summary),
            connections: net.admission(i).map(|a| ConnectionCounts {
                requested: a.requested,
                admitted: a.admitted,
                refused: a.refused(),
            }),
            ..class_results(name, c, capacity, net.in_flight(i))
        })
        .collect();
    let measured = Measured {
        window,
        link_rate: net.link_rate(),
        events: net.events_processed(),
        packet_hops: Some(net.packet_hops()),
        scheduler: net.scheduler_cost(),
    };
    run_results(s, measured, classes)
}

/// What every model reports besides its classes.
struct Measured {
    window: Window,
    link_rate: BitRate,
    events: u64,
    packet_hops: Option<u64>,
    scheduler: (&'static str, SchedulerCost),
}

/// One class's results from its counters; `capacity` is the bytes the window could carry.
fn class_results(name: &str, c: &ClassCounters, capacity: f64, in_flight: u64) -> ClassResults {
    ClassResults {
        name: name.to_string(),
        offered: c.window_generated_bytes as f64 / capacity,
        throughput: c.window_delivered_bytes as f64 / capacity,
        packets: c.window_delivered_packets,
        generated: c.generated,
        delivered: c.delivered,
        in_flight,
        latency_ns: c.latency.summary(),
        jitter_ns: None,
        connections: None,
    }
}

fn run_results(s: &Scenario, m: Measured, classes: Vec<ClassResults>) -> RunResults {
    let (kind, cost) = m.scheduler;
    RunResults {
        engine: concat!("qoslab-core ", env!("CARGO_PKG_VERSION")).to_string(),
        scenario: s.name.clone(),
        seed: s.seed,
        duration_ns: m.window.end.as_ps() / PS_PER_NS,
        warmup_ns: m.window.start.as_ps() / PS_PER_NS,
        link_rate_gbps: m.link_rate.bits_per_s() as f64 / 1.0e9,
        events: m.events,
        packet_hops: m.packet_hops,
        generated: classes.iter().map(|c| c.generated).sum(),
        delivered: classes.iter().map(|c| c.delivered).sum(),
        in_flight: classes.iter().map(|c| c.in_flight).sum(),
        scheduler: SchedulerSummary {
            kind: kind.to_string(),
            cost,
        },
        classes,
    }
}
