//! What every technology mapping (`mapping`, `omnipath_mapping`) needs of a design: its
//! entries for the wait bounds, class MTUs, largest weight and register values, and the
//! limits they share. A leaf both mapping files import.

use super::bound::{Arbiter, BoundEntry, credits_to_ns, wait_credits};
use super::designed::{Design, TechnologyMapping};
use super::requirements::{CREDIT_BYTES, Technology};
use crate::time::BitRate;

/// Largest Omni-Path MTU in bytes (10 KiB).
pub(super) const OPA_MAX_MTU_BYTES: u64 = 10_240;
/// Entries of each InfiniBand VLArb table.
pub(super) const IB_TABLE_ENTRIES: usize = 64;
/// Largest value of an 8-bit weight field (and of the registers kept in one).
pub(super) const BYTE_FIELD: u64 = 255;

/// The limits of a weighted table target (at most [`IB_TABLE_ENTRIES`] entries, 8-bit
/// weights), with the words each message uses for them.
pub(super) struct TableLimits {
    /// After "{n} entries: ", the rule broken.
    pub(super) entries_rule: String,
    /// After "{classes} classes: ", the rule broken.
    pub(super) classes_rule: String,
    /// The weight field's name ("the VLArb weight field").
    pub(super) weight_field: &'static str,
    /// Whose packets carry at most `max_mtu_bytes` ("InfiniBand").
    pub(super) packets: &'static str,
    pub(super) max_mtu_bytes: u64,
}

/// What every mapping needs of the design.
pub(super) struct Context<'a> {
    pub(super) d: &'a Design,
    entries: Vec<BoundEntry>,
    pub(super) mtus: Vec<u64>,
    pub(super) weighted: bool,
    rate: Option<BitRate>,
}

impl<'a> Context<'a> {
    pub(super) fn new(d: &'a Design) -> Context<'a> {
        let entries: Vec<BoundEntry> = d
            .table
            .iter()
            .map(|e| BoundEntry {
                class: d.classes.iter().position(|c| c.name == e.class),
                weight: e.weight,
            })
            .collect();
        Context {
            d,
            weighted: d.table.iter().all(|e| e.weight.is_some()),
            entries,
            mtus: d.classes.iter().map(|c| c.mtu_credits).collect(),
            rate: BitRate::from_gbps(d.link_rate_gbps),
        }
    }

    pub(super) fn max_weight(&self) -> u64 {
        self.d
            .table
            .iter()
            .filter_map(|e| e.weight)
            .max()
            .unwrap_or(0)
    }

    pub(super) fn max_mtu_bytes(&self) -> u64 {
        self.mtus.iter().copied().max().unwrap_or(0) * u64::from(CREDIT_BYTES)
    }

    /// The worst-case waits under `arbiter`, as "NC 25.1 us, VO ..." at the design's rate.
    pub(super) fn waits(&self, arbiter: Arbiter) -> String {
        let Some(rate) = self.rate else {
            return String::from("(no valid link rate)");
        };
        let bounds = wait_credits(arbiter, &self.entries, &self.mtus, self.d.gmtu_credits);
        self.d
            .classes
            .iter()
            .zip(bounds)
            .map(|(c, b)| match b {
                Some(b) => format!("{} {:.1} us", c.name, credits_to_ns(b, rate) / 1000.0),
                None => format!("{} never served", c.name),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The largest value the accumulated-weight register reaches: deficit (at most
    /// `MTU - 1`) plus the entry's weight.
    pub(super) fn max_accumulated(&self) -> u64 {
        self.entries
            .iter()
            .filter_map(|e| Some(self.mtus.get(e.class?)? - 1 + e.weight?))
            .max()
            .unwrap_or(0)
    }

    /// The problems of loading the design into a weighted table with `limits`: no weights,
    /// too many entries or classes, a weight past the 8-bit field, an MTU past the largest
    /// packet (each worded for the target).
    pub(super) fn table_limit_problems(
        &self,
        tech: Technology,
        limits: &TableLimits,
    ) -> Vec<String> {
        let n = self.d.table.len();
        let classes = self.d.classes.len();
        let mut problems = Vec::new();
        if !self.weighted {
            problems.push(self.no_weights(tech));
        }
        if n > IB_TABLE_ENTRIES {
            problems.push(format!("{n} entries: {}.", limits.entries_rule));
        }
        if classes > tech.max_classes() {
            problems.push(format!("{classes} classes: {}.", limits.classes_rule));
        }
        let w = self.max_weight();
        if self.weighted && w > BYTE_FIELD {
            problems.push(format!(
                "Entry weights up to {w}: {} holds at most {BYTE_FIELD}.",
                limits.weight_field
            ));
        }
        let mtu = self.max_mtu_bytes();
        if mtu > limits.max_mtu_bytes {
            problems.push(format!(
                "A class MTU of {mtu} bytes: {} packets carry at most {} bytes.",
                limits.packets, limits.max_mtu_bytes
            ));
        }
        problems
    }

    pub(super) fn no_weights(&self, tech: Technology) -> String {
        format!(
            "The design has no weights (it was made for {}): design it for {} to get them.",
            self.d.technology.label(),
            tech.label()
        )
    }
}

pub(super) fn mapping(
    technology: Technology,
    summary: String,
    details: Vec<String>,
    problems: Vec<String>,
) -> TechnologyMapping {
    TechnologyMapping {
        technology,
        fits: problems.is_empty(),
        summary,
        details,
        problems,
        omnipath_layout: None,
    }
}
