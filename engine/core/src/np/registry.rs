//! The macro behind the network-processor scheduler registry in `np/mod.rs`: ONE line per
//! scheduler.
//!
//! Each line gives the scenario's `kind` tag, the variant of `NpSchedulerConfig` with its
//! configuration type (none for a scheduler without parameters) and the module and type
//! implementing [`NpSchedulerSpec`](super::spec::NpSchedulerSpec) (its module is declared
//! by a plain `mod` line in `np/mod.rs`, where cargo-mutants sees it). The macro
//! re-exports the scheduler and generates the enum (serde tag, JSON Schema,
//! TypeScript type, path-keeping deserialiser) and every dispatch over the kinds: `kind`,
//! `KINDS`, `validate`, `check_period` and `build`.

/// Generates `NpSchedulerConfig` and its dispatch from one line per scheduler.
macro_rules! np_scheduler_registry {
    // A variant's binding in a pattern, and the configuration it hands the spec (`&()` for
    // a variant without parameters).
    (@bind $c:ident $config:ty) => { $c };
    (@config $c:ident $config:ty) => { $c };
    (@config $c:ident) => { &() };
    ($( $(#[$doc:meta])* $kind:literal => $variant:ident $(($config:ty))? by $module:ident :: $spec:ident, )*) => {
        $( pub use $module::$spec; )*

        /// The scheduler of a network processor.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema, ts_rs::TS)]
        #[serde(tag = "kind")]
        pub enum NpSchedulerConfig {
            $( $(#[$doc])* #[serde(rename = $kind)] $variant $(($config))?, )*
        }
        tagged_enum!(NpSchedulerConfig, "network-processor scheduler", {
            $( $kind => $variant $(($config))?, )*
        });

        /// Every network-processor scheduler's `kind`, in registration order.
        pub const KINDS: &[&str] = &[$( $kind ),*];

        impl NpSchedulerConfig {
            /// The scenario's `kind` of this scheduler.
            pub fn kind(&self) -> &'static str {
                match self { $( NpSchedulerConfig::$variant { .. } => $kind, )* }
            }

            /// Checks the options and what the scheduler needs of the node (`engines`:
            /// whether processing engines serve the packets).
            pub(crate) fn validate(&self, engines: bool, p: &mut $crate::problems::Problems) {
                let node = spec::NodeFacts { kind: self.kind(), engines };
                match self {
                    $( NpSchedulerConfig::$variant $(($crate::np::registry::np_scheduler_registry!(@bind c $config)))? =>
                        <$module::$spec as spec::NpSchedulerSpec>::validate(
                            $crate::np::registry::np_scheduler_registry!(@config c $($config)?), &node, p), )*
                }
            }

            /// Checks a stream group's request period in microseconds against what the
            /// scheduler can index: the message when it cannot.
            pub fn check_period(&self, period_us: f64) -> Result<(), String> {
                match self {
                    $( NpSchedulerConfig::$variant $(($crate::np::registry::np_scheduler_registry!(@bind c $config)))? =>
                        <$module::$spec as spec::NpSchedulerSpec>::check_period(
                            $crate::np::registry::np_scheduler_registry!(@config c $($config)?), period_us), )*
                }
            }

            /// Builds the scheduler of a node. The configuration must have been validated.
            pub fn build(&self, setup: &spec::NpSetup) -> Box<dyn contract::NpScheduler> {
                match self {
                    $( NpSchedulerConfig::$variant $(($crate::np::registry::np_scheduler_registry!(@bind c $config)))? =>
                        <$module::$spec as spec::NpSchedulerSpec>::build(
                            $crate::np::registry::np_scheduler_registry!(@config c $($config)?), setup), )*
                }
            }
        }
    };
}

pub(super) use np_scheduler_registry;
