//! The scenario: everything a run needs, as a versioned, serialisable document.
//!
//! A scenario is the single source of truth shared by the CLI, the browser and share
//! links. Its Rust types generate the JSON Schema (`schemars`) and the TypeScript types
//! (`ts-rs`) the web UI uses, so there is no hand-kept duplicate.
//!
//! Reading a scenario goes through three steps, each with errors that name the field:
//! [`parse`] (JSON syntax, then [`migrate`] older versions, then typed deserialisation)
//! and [`validate`] (every rule, all problems at once).

mod bounds;
mod infiniband_config;
mod lanes_rules;
mod migrate;
mod network;
mod network_processor;
mod network_rules;
pub mod omnipath_config;
mod parse;
pub(crate) mod rules;
mod switch_config;
pub(crate) mod tagged;
mod topology_config;
mod validate;

pub use crate::schedulers::as_basic::AsBasicConfig;
pub use crate::schedulers::drr::DrrConfig;
pub use crate::schedulers::dtable::DTableConfig;
pub use crate::schedulers::edf::EdfConfig;
pub use crate::schedulers::fifo::FifoConfig;
pub use crate::schedulers::iba::IbaConfig;
pub use crate::schedulers::strict_priority::{PriorityConfig, PriorityTies};
pub use crate::schedulers::{FairQueueingConfig, SchedulerConfig, TableEntry};
pub use crate::text::strip_bom;
pub use bounds::{WorkEstimate, work_estimate};
pub use migrate::{CURRENT_VERSION, migrate};
pub use network::{
    CentralCycles, CioqConfig, InfinibandConfig, InterfaceConfig, MinTopology, NetworkClassConfig,
    NetworkConfig, NetworkLinkConfig, OmnipathSwitchConfig, PortBuffers, PortSl2Vl, RoutingConfig,
    SingleSwitchTopology, StageCycles, SwitchConfig, TopologyConfig, TorusTopology, TreeTopology,
    TwoVcConfig, VcArbitration,
};
pub use network_processor::{
    DwcsHeapConfig, EnginesConfig, FixedWindow, NetworkProcessorConfig, NpArrivals,
    NpSchedulerConfig, NpServerConfig, ProcessorConfig, RandomWindow, StreamGroupConfig,
    WindowConfig,
};
pub use parse::{parse, parse_unvalidated};
pub use rules::MAX_DURATION_US;
pub use validate::validate;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use tagged::tagged_enum;

/// A complete, runnable scenario (format version [`CURRENT_VERSION`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Format version of this document; older versions are migrated on load.
    pub version: u32,
    /// Short human-readable name.
    pub name: String,
    /// Longer description (what the scenario shows).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[ts(as = "Option<String>", optional)]
    pub description: String,
    /// Seed of every random stream of the run (0 ..= 2^53 - 1, so it survives JavaScript).
    #[ts(type = "number")]
    pub seed: u64,
    /// Simulated time of the whole run, in microseconds.
    #[ts(type = "number")]
    pub duration_us: u64,
    /// Initial part of the run excluded from statistics, in microseconds.
    #[ts(type = "number")]
    pub warmup_us: u64,
    /// What is simulated.
    pub model: Model,
}

/// The simulated system. Later models (single switch, networks) are new variants.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Model {
    /// One output port fed by per-class sources, with credit-based flow control towards a
    /// downstream buffer per class.
    LinkLab(LinkLabConfig),
    /// A network of interfaces and switches.
    Network(NetworkConfig),
    /// A network-processor node: thousands of streams, a DWCS scheduler, engines or the
    /// link as the server.
    NetworkProcessor(NetworkProcessorConfig),
}
tagged_enum!(Model, "model", {
    "link_lab" => LinkLab(LinkLabConfig),
    "network" => Network(NetworkConfig),
    "network_processor" => NetworkProcessor(NetworkProcessorConfig),
});

/// The link lab: one output port, its scheduler, its sources and its downstream buffers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct LinkLabConfig {
    /// The output link.
    pub link: LinkConfig,
    /// The downstream buffers (one per class) that the link's credits refer to.
    pub downstream: DownstreamConfig,
    /// Traffic classes (virtual lanes / channels / service levels), in index order.
    pub classes: Vec<ClassConfig>,
    /// The output scheduler of the port.
    pub scheduler: SchedulerConfig,
}

/// An output link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    /// Data rate in Gb/s (after line encoding, e.g. 2.0 for 2.5 Gb/s with 8b/10b).
    pub rate_gbps: f64,
}

/// The downstream buffers. Each class has its own buffer of `buffer_bytes`, drained by
/// its own server at `drain_rate_gbps` (unless the class overrides it); a packet's
/// credits return to the link `credit_delay_ns` after it has been drained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct DownstreamConfig {
    /// Buffer size per class in bytes; credits = buffer_bytes / 64 (rounded down).
    pub buffer_bytes: u32,
    /// Rate at which each class's downstream buffer drains, in Gb/s.
    pub drain_rate_gbps: f64,
    /// Delay from a packet leaving the downstream buffer to its credits being usable again.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(as = "Option<u32>", optional)]
    pub credit_delay_ns: u32,
}

/// One traffic class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ClassConfig {
    /// Display name (unique within the scenario).
    pub name: String,
    /// The class's source.
    pub traffic: TrafficConfig,
    /// Overrides the downstream drain rate for this class (e.g. a congested next hop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub drain_rate_gbps: Option<f64>,
}

/// A traffic source: how much, when and how big.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TrafficConfig {
    /// Offered load as a fraction of the link rate (0 = silent; above 1 overloads).
    pub load: f64,
    /// When packets are generated.
    pub arrivals: ArrivalConfig,
    /// How big packets are.
    pub size: SizeConfig,
}

/// Arrival process of a source. Every process offers `load` of the link on average.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArrivalConfig {
    /// Constant bit rate: each packet is followed by a gap of exactly its own size at the
    /// offered rate (random phase at start).
    Constant,
    /// Poisson arrivals: exponential gaps with the mean that gives the offered load.
    Poisson,
    /// On/off: exponentially distributed on and off periods; during an on period packets
    /// come at a constant rate high enough that the long-run average is the offered load.
    OnOff(OnOffArrivals),
    /// Bursts: `packets` packets generated back to back at one instant, with Poisson
    /// (exponential) gaps between bursts.
    Bursts(BurstArrivals),
}
tagged_enum!(ArrivalConfig, "arrival process", {
    "constant" => Constant,
    "poisson" => Poisson,
    "on_off" => OnOff(OnOffArrivals),
    "bursts" => Bursts(BurstArrivals),
});

/// Parameters of an on/off source.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct OnOffArrivals {
    /// Mean length of an on period, in microseconds (above 0).
    pub mean_on_us: f64,
    /// Mean length of an off period, in microseconds (0 or more).
    pub mean_off_us: f64,
}

/// Parameters of a bursty source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BurstArrivals {
    /// Packets per burst (1 to 100000).
    pub packets: u32,
}

/// Packet-size distribution of a source, in bytes (1 ..= 65536).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SizeConfig {
    /// Every packet has the same size.
    Fixed(FixedSize),
    /// Sizes uniform over the integers `min_bytes ..= max_bytes`.
    Uniform(UniformSize),
    /// Bounded Pareto sizes on `[min_bytes, max_bytes]`, rounded to whole bytes.
    Pareto(ParetoSize),
}
tagged_enum!(SizeConfig, "packet-size distribution", {
    "fixed" => Fixed(FixedSize),
    "uniform" => Uniform(UniformSize),
    "pareto" => Pareto(ParetoSize),
});

/// Fixed packet size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct FixedSize {
    /// Packet size in bytes.
    pub bytes: u32,
}

/// Uniformly distributed packet sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct UniformSize {
    /// Smallest size.
    pub min_bytes: u32,
    /// Largest size.
    pub max_bytes: u32,
}

/// Bounded-Pareto packet sizes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ParetoSize {
    /// Smallest size (the Pareto scale).
    pub min_bytes: u32,
    /// Largest size (the bound).
    pub max_bytes: u32,
    /// Tail index (> 0; smaller is heavier-tailed).
    pub shape: f64,
}

impl SizeConfig {
    /// Largest packet this distribution can produce (the class MTU), in bytes.
    pub fn max_bytes(&self) -> u32 {
        match self {
            SizeConfig::Fixed(f) => f.bytes,
            SizeConfig::Uniform(u) => u.max_bytes,
            SizeConfig::Pareto(p) => p.max_bytes,
        }
    }

    /// Mean packet size in bytes (analytic; the Pareto mean ignores rounding to whole bytes).
    pub fn mean_bytes(&self) -> f64 {
        match self {
            SizeConfig::Fixed(f) => f64::from(f.bytes),
            SizeConfig::Uniform(u) => (f64::from(u.min_bytes) + f64::from(u.max_bytes)) / 2.0,
            SizeConfig::Pareto(p) => {
                bounded_pareto_mean(f64::from(p.min_bytes), f64::from(p.max_bytes), p.shape)
            }
        }
    }
}

/// Mean of a bounded Pareto distribution on `[lo, hi]` with tail index `a`.
///
/// For tiny `a` the textbook formula loses every digit (`1 - (lo/hi)^a` rounds to 0 and
/// the mean to NaN); there the mean is computed with `expm1`, which tends to the
/// log-uniform mean `(hi - lo) / ln(hi / lo)` as `a` tends to 0. Ordinary shapes keep the
/// textbook formula, so existing results do not move.
pub fn bounded_pareto_mean(lo: f64, hi: f64, a: f64) -> f64 {
    if hi <= lo {
        return lo;
    }
    let tail = 1.0 - libm::pow(lo / hi, a);
    if (a - 1.0).abs() < 1e-12 {
        lo * libm::log(hi / lo) / tail
    } else if tail > PARETO_STABLE_TAIL {
        a * libm::pow(lo, a) * (libm::pow(hi, 1.0 - a) - libm::pow(lo, 1.0 - a))
            / ((1.0 - a) * tail)
    } else {
        let l = libm::log(hi / lo);
        a * lo * libm::expm1((1.0 - a) * l) / ((1.0 - a) * -libm::expm1(-a * l))
    }
}

/// Below this `1 - (lo/hi)^a`, bounded Pareto maths switches to its `expm1` forms.
pub const PARETO_STABLE_TAIL: f64 = 1e-6;

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl Scenario {
    /// The scenario as pretty-printed JSON (the format of preset files and downloads).
    pub fn to_json_pretty(&self) -> String {
        // Serialising these plain data types cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The JSON Schema of the scenario format.
    pub fn json_schema() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(Scenario)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pareto_mean_matches_sampling() {
        let mut s = crate::rng::RngStreams::new(11).stream(crate::rng::StreamId::Sizes(0));
        let n = 400_000;
        let sum: f64 = (0..n).map(|_| s.bounded_pareto(64.0, 2048.0, 1.1)).sum();
        let sampled = sum / n as f64;
        let analytic = bounded_pareto_mean(64.0, 2048.0, 1.1);
        assert!(
            (sampled - analytic).abs() / analytic < 0.01,
            "{sampled} vs {analytic}"
        );
        let a1 = bounded_pareto_mean(64.0, 2048.0, 1.0);
        let near = bounded_pareto_mean(64.0, 2048.0, 1.000_001);
        assert!((a1 - near).abs() / a1 < 1e-4);
    }

    /// Defect 2 of issue 16: a shape of 1e-17 gave a NaN mean and constant minimum sizes.
    #[test]
    fn tiny_pareto_shapes_have_the_log_uniform_mean() {
        let log_uniform = (2048.0 - 64.0) / libm::log(32.0);
        for a in [1e-17, 1e-12, 1e-8] {
            let mean = bounded_pareto_mean(64.0, 2048.0, a);
            assert!((mean / log_uniform - 1.0).abs() < 1e-4, "shape {a}: {mean}");
            let mut s = crate::rng::RngStreams::new(11).stream(crate::rng::StreamId::Sizes(0));
            let n = 200_000;
            let sum: f64 = (0..n).map(|_| s.bounded_pareto(64.0, 2048.0, a)).sum();
            let sampled = sum / n as f64;
            assert!(
                (sampled / mean - 1.0).abs() < 0.01,
                "shape {a}: sampled {sampled}"
            );
        }
        // The switch between the two forms is continuous.
        let (below, above) = (
            bounded_pareto_mean(64.0, 2048.0, 2.8e-7),
            bounded_pareto_mean(64.0, 2048.0, 2.9e-7),
        );
        assert!((below / above - 1.0).abs() < 1e-4, "{below} vs {above}");
    }
}
