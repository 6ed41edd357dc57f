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
use crate::model::Model as SimModel;
use crate::network::{LinkLab, NetworkSim};
use crate::results::RunResults;
use crate::scenario::{self, Model, Scenario};

/// A scenario being simulated.
pub struct Run {
    scenario: Scenario,
    model: Box<dyn SimModel>,
    budget: Budget,
}

/// How a scenario is run, beside what it describes. Nothing here changes a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Check the model's invariants while it runs ([`Run::audit_findings`]). A network
    /// then follows every buffer's fill against its size, the delivery order per
    /// (source, destination, SL), duplicates and misdelivery, which costs it 3 % of its
    /// instructions at 64 end points and about a tenth of its time at 1 024
    /// (`docs/performance.md`). [`Run::new`] audits (tests and tools); the CLI's runs
    /// and the browser's do not unless asked (`qoslab run --audit`). The link lab and
    /// the network processor always check theirs (a few counters).
    pub audit: bool,
}

impl RunOptions {
    /// How the product runs a scenario for its results (the CLI's `run` unless asked,
    /// `sweep`, `compare` and `bench`, and the browser's worker): without the audit.
    pub const UNAUDITED: RunOptions = RunOptions { audit: false };
}

impl Default for RunOptions {
    /// Audited.
    fn default() -> Self {
        RunOptions { audit: true }
    }
}

/// Builds the model a scenario describes: one line per kind of model.
fn build_model(scenario: &Scenario, options: RunOptions) -> Result<Box<dyn SimModel>, EngineError> {
    Ok(match &scenario.model {
        Model::LinkLab(lab) => Box::new(LinkLab::new(scenario, lab)?),
        Model::Network(net) => Box::new(NetworkSim::new(scenario, net, options.audit)?),
        Model::NetworkProcessor(np) => Box::new(crate::np::NpNode::new(scenario, np)?),
    })
}

impl Run {
    /// Parses, validates and prepares a scenario given as JSON text (audited, as
    /// [`Run::new`]).
    pub fn from_json(text: &str) -> Result<Run, EngineError> {
        Run::from_json_with(text, RunOptions::default())
    }

    /// Parses, validates and prepares a scenario given as JSON text, run as `options`
    /// say.
    pub fn from_json_with(text: &str, options: RunOptions) -> Result<Run, EngineError> {
        // `with_options` validates; parse without validating here so it happens once.
        Run::with_options(scenario::parse_unvalidated(text)?, options)
    }

    /// Prepares a scenario (validating it), audited ([`RunOptions::default`]).
    pub fn new(scenario: Scenario) -> Result<Run, EngineError> {
        Run::with_options(scenario, RunOptions::default())
    }

    /// Prepares a scenario (validating it), run as `options` say.
    pub fn with_options(scenario: Scenario, options: RunOptions) -> Result<Run, EngineError> {
        scenario::validate(&scenario)?;
        let model = build_model(&scenario, options)?;
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
        self.budget.advance(max_events, |n| {
            let done = model.advance(n);
            (done, model.packets_held(), model.events_processed())
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
        self.model.is_done()
    }

    /// Fraction of simulated time done, in [0, 1].
    pub fn progress(&self) -> f64 {
        if self.is_done() {
            return 1.0;
        }
        self.model.now().as_ps() as f64 / self.model.end().as_ps().max(1) as f64
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.model.events_processed()
    }

    /// The link lab, when that is the model (for tests and tools that inspect it).
    pub fn link_lab(&self) -> Option<&LinkLab> {
        self.model.as_any().downcast_ref()
    }

    /// The network simulation, when that is the model (for tests and tools).
    pub fn network(&self) -> Option<&NetworkSim> {
        self.model.as_any().downcast_ref()
    }

    /// The network-processor node, when that is the model (for tests and tools).
    pub fn network_processor(&self) -> Option<&crate::np::NpNode> {
        self.model.as_any().downcast_ref()
    }

    /// The results so far (final once [`Run::is_done`]).
    pub fn results(&self) -> RunResults {
        self.model.results(&self.scenario)
    }

    /// The breaches of the model's invariants found so far, one line each (empty when
    /// every invariant held); None when the run does not audit ([`RunOptions::audit`]).
    pub fn audit_findings(&self) -> Option<Vec<String>> {
        self.model.audit_findings()
    }
}
