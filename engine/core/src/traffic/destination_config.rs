//! The destination models' configurations (a leaf: the traffic configuration, its rules
//! and the destination models read them; re-exported by `config`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::scenario::tagged::tagged_enum;

/// Where packets go. Never to their own end point.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DestinationConfig {
    /// Uniform over the other end points.
    Uniform,
    /// Zipf: the destination of rank k (1-based) has weight 1 / k^exponent.
    Zipf(ZipfConfig),
    /// A fraction of the traffic to one hot end point, the rest uniform.
    HotSpot(HotSpotConfig),
    /// A fixed partner per end point.
    Permutation(PermutationConfig),
}
tagged_enum!(DestinationConfig, "destination model", {
    "uniform" => Uniform,
    "zipf" => Zipf(ZipfConfig),
    "hot_spot" => HotSpot(HotSpotConfig),
    "permutation" => Permutation(PermutationConfig),
});

/// Zipf destinations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ZipfConfig {
    /// The exponent s (0 = uniform; 1 = classic Zipf; larger = hotter hot spots).
    pub exponent: f64,
    /// How end points are ranked.
    pub ranking: ZipfRanking,
}

/// How Zipf destinations are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ZipfRanking {
    /// One seeded random ranking of all end points, shared by every source (so the same
    /// end points are hot for everyone); a source skips itself.
    Random,
    /// By index distance on a ring from the source: source+1, source-1, source+2, ...
    Distance,
}

/// Hot-spot destinations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct HotSpotConfig {
    /// The hot end point.
    pub endpoint: u32,
    /// Fraction of each other end point's bursts / connections sent to the hot end point
    /// (0 to 1); the rest is uniform over the other end points (the hot one included).
    pub fraction: f64,
}

/// Permutation destinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PermutationConfig {
    /// The permutation.
    pub pattern: PermutationPattern,
}

/// A fixed-partner pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PermutationPattern {
    /// Partner = the index with every bit flipped (needs a power-of-two count).
    BitComplement,
    /// Partner = the index with its bits in reverse order (needs a power-of-two count);
    /// end points whose index is a bit palindrome use the bit complement instead.
    BitReversal,
    /// A seeded random cyclic permutation (one cycle through all end points).
    RandomDerangement,
}
