//! What every network traffic generator declares about itself: the rules its
//! configuration must keep, its packet sizes, the work of a run for the estimate that
//! bounds it, and how it builds the generators of a class.
//!
//! A generator's configuration implements [`GeneratorSpec`] in its own file and is
//! registered with one line in `mod.rs` (see `registry.rs`), which generates the
//! scenario's `GeneratorConfig` (its `kind` tag, JSON Schema and TypeScript type) and the
//! dispatch over the kinds.

use crate::error::FieldError;
use crate::rng::{RngStream, RngStreams};
use crate::time::BitRate;
use crate::traffic::class_generator::ClassGenerator;
use crate::traffic::connections::{ConnectionGenerator, ConnectionPlan, ConnectionProcess};
use crate::traffic::destinations::DestinationSetup;

/// The specification of one traffic generator kind, implemented by its configuration.
pub(crate) trait GeneratorSpec {
    /// Checks the parameters, appending a problem per broken rule with its path below
    /// `path` (the generator's own path, e.g. `model.classes[2].traffic.generator`).
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>);

    /// Whether the class is made of connections (and so goes through admission control,
    /// its load setting the number of connections; see `traffic::connections`).
    fn connections() -> bool
    where
        Self: Sized,
    {
        false
    }

    /// The mean rate of one connection in b/s: None for a generator without
    /// connections, an error when the configuration cannot tell (an invalid trace).
    fn connection_rate(&self) -> Result<Option<u64>, String> {
        Ok(None)
    }

    /// The largest packet the generator can make, in bytes (buffers and scheduler
    /// entries must hold it).
    fn max_packet_bytes(&self) -> u32;

    /// An estimate of the mean packet size in bytes, to bound the work of a run (the
    /// caller keeps it finite and at least 1).
    fn mean_packet_bytes(&self) -> f64;

    /// How many packets one end point offering `load` (above 0) of `link` generates, as
    /// the work estimate of a run counts them (an upper estimate).
    fn work(&self, load: f64, link: BitRate) -> GeneratorWork;

    /// The generators of one class, one per end point (None where it sends nothing).
    /// The configuration has been validated; an error names what is wrong without the
    /// class (the caller adds it).
    fn build(&self, class: &ClassSetup<'_>) -> Result<Vec<Option<ClassGenerator>>, String>;
}

/// The packets one end point generates, for the work estimate of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GeneratorWork {
    /// Groups of `packets` packets of `bytes` in all, with exponential gaps that offer
    /// the class's load (the estimate checks that the mean gap can be simulated).
    Groups {
        /// Packets per group.
        packets: f64,
        /// Mean bytes per group.
        bytes: f64,
    },
    /// At most this many packets per second.
    PerSecond(f64),
}

/// What building the generators of one class needs.
pub struct ClassSetup<'a> {
    /// The class (its index).
    pub class: u32,
    /// Offered load of each end point, a fraction of its link rate.
    pub load: f64,
    /// Number of end points.
    pub endpoints: u32,
    /// Data rate of an end point's link.
    pub link: BitRate,
    /// The class's destination model.
    pub destinations: &'a DestinationSetup,
    /// The class's connection plans with admission decided (for generators with
    /// connections; empty for a silent class or a generator without them).
    pub plans: Vec<&'a ConnectionPlan>,
    /// The run's random streams.
    pub rng: &'a RngStreams,
}

impl ClassSetup<'_> {
    /// The generators of a connection class: for each end point with an admitted
    /// connection, a [`ConnectionGenerator`] whose connections are built by `process`
    /// from the phase stream and the connection's own stream of sizes (see
    /// [`ConnectionGenerator::new`]).
    pub fn connections(
        &self,
        mut process: impl FnMut(&mut RngStream, RngStream) -> Result<Box<dyn ConnectionProcess>, String>,
    ) -> Result<Vec<Option<ClassGenerator>>, String> {
        let mut generators: Vec<Option<ClassGenerator>> =
            (0..self.endpoints).map(|_| None).collect();
        for plan in &self.plans {
            if plan.admitted() > 0 {
                let g = ConnectionGenerator::new(plan, &mut process, self.rng)?;
                if let Some(slot) = generators.get_mut(plan.endpoint as usize) {
                    *slot = Some(ClassGenerator::Connections(g));
                }
            }
        }
        Ok(generators)
    }
}
