//! The macro behind the scheduler registry in `schedulers/mod.rs`: ONE line per scheduler.
//!
//! Each line gives the scenario's `kind` tag, the variant of `SchedulerConfig`, the
//! configuration type and the module and type implementing
//! [`SchedulerSpec`](super::SchedulerSpec), declared by its `mod` line, and `inline` for a
//! scheduler of a few words of state that the ports hold in place (any other is boxed).
//! The macro re-exports the scheduler, and generates the enum (serde tag, JSON Schema, TypeScript type,
//! path-keeping deserialiser) and every dispatch over the kinds: `kind`, `validate`,
//! `build`, `build_static`, `table_layout`, `starting`, `carries` and `KINDS`, and
//! [`AnyScheduler`](super::AnyScheduler), the closed set of schedulers as an enum that
//! the ports hold: its methods match on the kind and call the scheduler directly (no
//! indirect call, and the scheduler's code can be inlined into the port's).

/// Generates `SchedulerConfig` and its dispatch from one line per scheduler.
macro_rules! scheduler_registry {
    ($( $(#[$doc:meta])* $kind:literal => $variant:ident($config:ty) by $module:ident :: $spec:ident $($inline:ident)?, )*) => {
        $( pub use $module::$spec; )*

        /// The output scheduler of a port (see `shared/spec/10-schedulers.md`).
        ///
        /// Every scheduler is credit-aware: only classes whose head packet fits in the downstream
        /// credits compete. Per-class lists (`weights`, `quanta_bytes`, ...) have one item per
        /// class, in class order.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema, ts_rs::TS)]
        #[serde(tag = "kind")]
        pub enum SchedulerConfig {
            $( $(#[$doc])* #[serde(rename = $kind)] $variant($config), )*
        }
        tagged_enum!(SchedulerConfig, "scheduler", { $( $kind => $variant($config), )* });

        /// One scheduler of any registered kind, dispatched statically: what the ports
        /// hold (a `Box<dyn Scheduler>` costs an indirect call per decision, and hides the
        /// scheduler's code from the port's). A scheduler registered `inline` is held in
        /// the enum, any other in a box of its own: the enum, and so every output port, is
        /// then as small as the inline ones (FIFO, the scale scenarios' scheduler) instead
        /// of the largest scheduler's state (IBA's 368 bytes), so that a port's hot fields
        /// share a cache line or two.
        #[derive(Clone, Debug)]
        pub enum AnyScheduler {
            $( #[allow(missing_docs)] $variant($crate::schedulers::registry::held!($module::$spec $(, $inline)?)), )*
        }

        $( impl From<$module::$spec> for AnyScheduler {
            fn from(s: $module::$spec) -> AnyScheduler {
                AnyScheduler::$variant($crate::schedulers::registry::hold!(s $(, $inline)?))
            }
        } )*

        impl Scheduler for AnyScheduler {
            #[inline]
            fn select(&mut self, now: SimTime, port: &dyn PortView) -> Option<usize> {
                match self { $( AnyScheduler::$variant(s) => s.select(now, port), )* }
            }
            #[inline]
            fn after_send(&mut self, now: SimTime, class: usize, port: &dyn PortView) {
                match self { $( AnyScheduler::$variant(s) => s.after_send(now, class, port), )* }
            }
            #[inline]
            fn on_enqueue(&mut self, now: SimTime, class: usize, bytes: u32, port: &dyn PortView) {
                match self { $( AnyScheduler::$variant(s) => s.on_enqueue(now, class, bytes, port), )* }
            }
            fn cost(&self) -> SchedulerCost {
                match self { $( AnyScheduler::$variant(s) => s.cost(), )* }
            }
            fn registers(&self) -> Registers {
                match self { $( AnyScheduler::$variant(s) => s.registers(), )* }
            }
            #[inline]
            fn select_in<P: PortView>(&mut self, now: SimTime, port: &P) -> Option<usize> {
                match self { $( AnyScheduler::$variant(s) => s.select_in(now, port), )* }
            }
            #[inline]
            fn after_send_in<P: PortView>(&mut self, now: SimTime, class: usize, port: &P) {
                match self { $( AnyScheduler::$variant(s) => s.after_send_in(now, class, port), )* }
            }
            #[inline]
            fn on_enqueue_in<P: PortView>(&mut self, now: SimTime, class: usize, bytes: u32, port: &P) {
                match self { $( AnyScheduler::$variant(s) => s.on_enqueue_in(now, class, bytes, port), )* }
            }
        }

        /// Every scheduler's `kind`, in registration order.
        pub const KINDS: &[&str] = &[$( $kind ),*];

        impl SchedulerConfig {
            /// The scenario's `kind` string of this scheduler.
            pub fn kind(&self) -> &'static str {
                match self { $( SchedulerConfig::$variant(_) => $kind, )* }
            }

            /// Checks the parameters against the port's classes; `at` is the scheduler's path.
            pub(crate) fn validate(
                &self,
                classes: &[$crate::problems::ClassRef<'_>],
                at: &str,
                p: &mut $crate::problems::Problems,
            ) {
                match self { $( SchedulerConfig::$variant(c) => <$module::$spec as SchedulerSpec>::validate(c, classes, at, p), )* }
            }

            /// Builds the scheduler of one port. The configuration must have been validated.
            pub fn build(&self, port: PortSetup) -> Box<dyn Scheduler> {
                match self { $( SchedulerConfig::$variant(c) => Box::new(<$module::$spec as SchedulerSpec>::build(c, port)), )* }
            }

            /// As [`SchedulerConfig::build`], statically dispatched (what ports hold).
            pub fn build_static(&self, port: PortSetup) -> AnyScheduler {
                match self { $( SchedulerConfig::$variant(c) => <$module::$spec as SchedulerSpec>::build(c, port).into(), )* }
            }

            /// The table(s) of a table-based scheduler, as traces list them.
            pub fn table_layout(&self) -> Vec<TraceTableEntry> {
                match self { $( SchedulerConfig::$variant(c) => <$module::$spec as SchedulerSpec>::table_layout(c), )* }
            }

            /// The starting configuration of `kind` (None when no scheduler has that kind).
            pub fn starting(kind: &str, carried: &$crate::schedulers::starting::Carried<'_>) -> Option<SchedulerConfig> {
                match kind {
                    $( $kind => Some(SchedulerConfig::$variant(<$module::$spec as SchedulerSpec>::starting(carried))), )*
                    _ => None,
                }
            }

            /// What this configuration carries over to another kind.
            pub fn carries(&self, classes: &[$crate::schedulers::starting::ClassSize]) -> $crate::schedulers::starting::Carries {
                match self { $( SchedulerConfig::$variant(c) => <$module::$spec as SchedulerSpec>::carries(c, classes), )* }
            }
        }
    };
}

/// How [`AnyScheduler`](super::AnyScheduler) holds a scheduler: in a box, or itself
/// when registered `inline`.
macro_rules! held {
    ($spec:ty) => { Box<$spec> };
    ($spec:ty, inline) => { $spec };
}

/// Wraps a scheduler as [`held`] says.
macro_rules! hold {
    ($s:expr) => {
        Box::new($s)
    };
    ($s:expr, inline) => {
        $s
    };
}

pub(super) use {held, hold, scheduler_registry};
