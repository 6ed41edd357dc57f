//! The macro behind the generator registry in `traffic/generators/mod.rs`: ONE line per
//! traffic generator.
//!
//! Each line gives the scenario's `kind` tag, the variant of `GeneratorConfig` and the
//! module and configuration type, which implements
//! [`GeneratorSpec`](super::GeneratorSpec); its module is a plain `pub mod` line beside
//! the registry (cargo-mutants finds files only through `mod` items, never inside a macro).
//! The macro re-exports the configuration, and generates the enum (serde tag, JSON Schema, TypeScript type,
//! path-keeping deserialiser), `KINDS`, `connection_kinds`, `kind`, `is_connections` and `spec` (the configuration behind the
//! trait, through which every other question is asked).

/// Generates `GeneratorConfig` and its dispatch from one line per generator.
macro_rules! generator_registry {
    ($( $(#[$doc:meta])* $kind:literal => $variant:ident($module:ident :: $config:ident), )*) => {
        $( pub use $module::$config; )*

        /// How a class generates packets at one end point.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema, ts_rs::TS)]
        #[serde(tag = "kind")]
        pub enum GeneratorConfig {
            $( $(#[$doc])* #[serde(rename = $kind)] $variant($config), )*
        }
        tagged_enum!(GeneratorConfig, "traffic generator", { $( $kind => $variant($config), )* });

        /// Every generator's `kind`, in registration order.
        pub const KINDS: &[&str] = &[$( $kind ),*];

        /// The `kind`s of the generators of connections, in registration order.
        pub fn connection_kinds() -> Vec<&'static str> {
            [$( ($kind, <$config as GeneratorSpec>::connections()) ),*]
                .into_iter()
                .filter_map(|(kind, connections)| connections.then_some(kind))
                .collect()
        }

        impl GeneratorConfig {
            /// The scenario's `kind` string of this generator.
            pub fn kind(&self) -> &'static str {
                match self { $( GeneratorConfig::$variant(_) => $kind, )* }
            }

            /// Whether the class is made of connections (and so goes through admission
            /// control).
            pub fn is_connections(&self) -> bool {
                match self { $( GeneratorConfig::$variant(_) => <$config as GeneratorSpec>::connections(), )* }
            }

            /// The configuration as a [`GeneratorSpec`], which answers every question about it.
            pub(crate) fn spec(&self) -> &dyn GeneratorSpec {
                match self { $( GeneratorConfig::$variant(c) => c, )* }
            }
        }
    };
}

pub(super) use generator_registry;
