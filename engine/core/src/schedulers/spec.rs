//! What every output scheduler declares about itself: its configuration, the rules that
//! configuration must keep, how to build it, and how its table shows in traces.
//!
//! A scheduler implements [`SchedulerSpec`] in its own file and is registered with one line
//! in `registry.rs`, which generates the scenario's `SchedulerConfig` (its `kind` tag, JSON
//! Schema and TypeScript type) and every dispatch over the kinds.

use super::starting::{Carried, Carries, ClassSize};
use super::{PortSetup, Scheduler, TraceTableEntry};
use crate::problems::{ClassRef, Problems};

/// The specification of one scheduler kind.
pub(crate) trait SchedulerSpec: Scheduler + Sized {
    /// The scenario's parameters of this scheduler (the fields next to `kind`).
    type Config;

    /// Checks `config` against the port's classes, adding a problem per broken rule with
    /// its path (`at` is the scheduler's own path, e.g. `model.scheduler`).
    fn validate(config: &Self::Config, classes: &[ClassRef<'_>], at: &str, p: &mut Problems);

    /// Builds the scheduler of one port. `config` has been validated.
    fn build(config: &Self::Config, port: PortSetup) -> Self;

    /// The scheduler's table(s) as traces list them (empty for schedulers without one).
    fn table_layout(_config: &Self::Config) -> Vec<TraceTableEntry> {
        Vec::new()
    }

    /// The configuration this kind starts as when a port switches to it: built from what
    /// the previous configuration carried over (see `starting.rs`, whose helpers give the
    /// engine's apportionment and interleaving). Every kind writes its own: a kind's
    /// parameters have no kind-independent default. The result should pass `validate`
    /// for `carried.classes` whenever their sizes are valid.
    fn starting(carried: &Carried<'_>) -> Self::Config;

    /// What `config` says that another kind can keep when the port switches away from it:
    /// per-class weights, tables, a priority order (nothing, by default).
    fn carries(_config: &Self::Config, _classes: &[ClassSize]) -> Carries {
        Carries::default()
    }
}
