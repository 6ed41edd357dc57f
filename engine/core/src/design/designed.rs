//! What the designer produces: a designed table with its per-class figures, its
//! equivalents for other schedulers and how it maps onto each technology. A leaf of the
//! design module: the designer builds it, `mapping` and `evaluate` read it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::equivalents::{DesignEntry, Equivalents};

use super::fabric::FabricOptions;
use super::omnipath::OmniPathMaps;
use super::requirements::Technology;

/// One class of a design.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ClassDesign {
    /// Class name.
    pub name: String,
    /// Requested distance (`null`: none).
    pub distance: Option<u32>,
    /// Entries of the class in the table.
    pub entries: u64,
    /// Class MTU in credits.
    pub mtu_credits: u64,
    /// `n * MTU / pool` (tables without weights: `n / N`).
    pub min_share: f64,
    /// `n * M / pool` (tables without weights: `n / N`).
    pub max_share: f64,
    /// The share asked for.
    pub wanted_share: f64,
    /// The share designed for: wanted, plus the bandwidth no class asked for if this is the
    /// class with the most entries.
    pub target_share: f64,
    /// The share achieved (class weight total / pool; tables without weights: `n / N`).
    pub share: f64,
    /// `share - target_share`.
    pub deviation: f64,
    /// Sum of the class's entry weights (`null` for tables without weights).
    pub total_weight: Option<u64>,
    /// Weights of the class's entries in table order (empty for tables without weights).
    pub entry_weights: Vec<u64>,
    /// Largest cyclic distance between consecutive entries of the class in the table.
    pub max_distance: u64,
    /// Worst-case head-of-line wait in ns at `link_rate_gbps` for the technology's arbiter
    /// (`docs/table-design.md`, "Worst-case wait bound").
    pub bound_ns: f64,
}

/// A designed table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Design {
    /// Target technology.
    pub technology: Technology,
    /// Table entries `N`.
    pub entries: u32,
    /// GMTU in credits.
    pub gmtu_credits: u64,
    /// `w` used (`null` for tables without weights).
    pub w: Option<f64>,
    /// `k` used (`null` for tables without weights).
    pub k: Option<f64>,
    /// Total weight distributed (`null` for tables without weights).
    pub pool: Option<u64>,
    /// Largest weight of one entry, `M` (`null` for tables without weights).
    pub max_entry_weight: Option<u64>,
    /// The table, in order.
    pub table: Vec<DesignEntry>,
    /// Per class, in input order.
    pub classes: Vec<ClassDesign>,
    /// The same shares for WF2Q emulation, DRR and SCFQ.
    pub equivalents: Equivalents,
    /// Link rate of the wait bounds, in Gb/s.
    pub link_rate_gbps: f64,
    /// How the design maps onto DTable, InfiniBand, Omni-Path and the AS basic table.
    pub mappings: Vec<TechnologyMapping>,
    /// Omni-Path designs: the SL2SC, SC2VL and SC2SL maps (class `k` = SL `k`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub omnipath: Option<OmniPathMaps>,
    /// InfiniBand and Omni-Path designs: the fabric-manager settings with every default
    /// filled in (`fabric::resolve`); the exports read them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fabric: Option<FabricOptions>,
}

impl Design {
    /// Pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// How a design maps onto one technology.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TechnologyMapping {
    /// The technology.
    pub technology: Technology,
    /// Whether the design maps without a problem (`problems` is empty).
    pub fits: bool,
    /// One sentence: how it maps.
    pub summary: String,
    /// How, and what is lost (sentences).
    pub details: Vec<String>,
    /// What prevents it from mapping or from keeping a wanted share (sentences).
    pub problems: Vec<String>,
    /// Omni-Path: the DTable adaptation's registers on the requirements' switch (a table,
    /// a deficit counter per SL and an accumulator per output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub omnipath_layout: Option<super::omnipath::OmniPathDTableLayout>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::design::{MULTIMEDIA_VECTOR, design, parse_requirements};

    /// The pretty JSON (`qoslab design --format json`, the web app's design) reads back
    /// as the same design, on several lines.
    #[test]
    fn pretty_json_reads_back_as_the_same_design() {
        let d = design(&parse_requirements(MULTIMEDIA_VECTOR).unwrap()).unwrap();
        let text = d.to_json_pretty();
        assert!(text.lines().count() > 100, "{text}");
        let back: Design = serde_json::from_str(&text).unwrap();
        assert_eq!(back, d);
    }
}
