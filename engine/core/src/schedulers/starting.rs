//! Starting configurations: what a scheduler of a kind starts as when the user switches
//! a port's scheduler to it (or a default is needed), keeping what the previous
//! configuration expressed: per-class shares (table weights, quanta, fair-queueing
//! weights, AS entry counts), table entries between DTable and IBA, and the priority
//! order between strict priority and EDF.
//!
//! Each kind writes its own [`SchedulerSpec::starting`](super::SchedulerSpec::starting)
//! from a [`Carried`] and says what it carries over in
//! [`SchedulerSpec::carries`](super::SchedulerSpec::carries); this module gathers the
//! carried values and holds the arithmetic the kinds share, built on the table designer's
//! own apportionment ([`crate::design::apportion`]) and WF2Q service lists
//! ([`crate::design::service_list`]). The web asks for these through the wasm call
//! `starting_scheduler` (`crate::starting_scheduler` reads its request) and keeps no copy
//! (`docs/architecture.md`, issue 20). Classes are seen only by their packet sizes
//! ([`ClassSize`]), so the schedulers do not depend on the scenario types.

use super::{SchedulerConfig, TableEntry};
use crate::design::apportion::apportion;
use crate::design::{ServiceListKind, service_list};

/// Bytes per credit (and per InfiniBand weight unit).
const UNIT_BYTES: u32 = crate::network::CREDIT_BYTES;
/// The largest packet assumed for a class whose sizes say nothing usable.
const UNKNOWN_PACKET_BYTES: u32 = 2048;

/// What a starting configuration needs to know of a class: its packet sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassSize {
    /// Largest packet, in bytes (0 when unknown).
    pub max_bytes: u32,
    /// Mean packet size, in bytes.
    pub mean_bytes: f64,
}

/// The arbitration tables a configuration holds (`main`: the table, or IBA's low table).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    /// The high-priority table (IBA; empty for one-table kinds).
    pub high: Vec<TableEntry>,
    /// The table, or IBA's low table.
    pub main: Vec<TableEntry>,
}

/// What one configuration says that another kind can keep (all `None` by default).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Carries {
    /// Relative weight of every class (not normalised), for kinds dividing bandwidth by weights.
    pub weights: Option<Vec<f64>>,
    /// Its arbitration tables, for kinds with tables.
    pub tables: Option<Tables>,
    /// Priority of every class (higher first), for kinds that order classes.
    pub priorities: Option<Vec<u32>>,
}

/// Everything a starting configuration is built from.
#[derive(Clone, Debug, PartialEq)]
pub struct Carried<'a> {
    /// The port's classes.
    pub classes: &'a [ClassSize],
    /// Link rate in Gb/s (positive).
    pub rate_gbps: f64,
    /// Bandwidth share of every class under the previous configuration (fractions summing
    /// to 1; equal shares when it had none or all its weights were 0).
    pub shares: Vec<f64>,
    /// The previous configuration's own relative weights, when it had some.
    pub weights: Option<Vec<f64>>,
    /// The previous configuration's tables, when it had some.
    pub tables: Option<Tables>,
    /// The previous configuration's priority order, when it had one.
    pub priorities: Option<Vec<u32>>,
    /// Credits of the largest packet of any class (at least 1).
    pub mtu_credits: u32,
}

impl<'a> Carried<'a> {
    /// What carries over from `from` to a configuration for `classes`.
    pub fn from_config(from: &SchedulerConfig, classes: &'a [ClassSize], rate_gbps: f64) -> Self {
        let n = classes.len();
        let carries = from.carries(classes);
        let shares = carries
            .weights
            .as_deref()
            .map(|w| normalise(&w[..w.len().min(n)]))
            .filter(|s| s.iter().any(|&x| x > 0.0))
            .map(|mut s| {
                s.resize(n, 0.0);
                s
            })
            .unwrap_or_else(|| vec![1.0 / n.max(1) as f64; n]);
        Carried {
            classes,
            rate_gbps: if rate_gbps.is_finite() && rate_gbps > 0.0 {
                rate_gbps
            } else {
                1.0
            },
            shares,
            weights: carries.weights,
            tables: carries.tables,
            priorities: carries.priorities,
            mtu_credits: classes
                .iter()
                .map(largest_packet_credits)
                .max()
                .unwrap_or(1)
                .max(1),
        }
    }
}

/// `w` when it is a finite positive number, else 0.
pub fn usable(w: f64) -> f64 {
    if w.is_finite() && w > 0.0 { w } else { 0.0 }
}

/// Shares (fractions summing to 1, or all 0) of `weights`.
pub fn normalise(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().map(|&w| usable(w)).sum();
    weights
        .iter()
        .map(|&w| if total > 0.0 { usable(w) / total } else { 0.0 })
        .collect()
}

/// Largest packet of a class in bytes (2048 when its sizes give none).
pub fn largest_packet(c: &ClassSize) -> u32 {
    match c.max_bytes {
        0 => UNKNOWN_PACKET_BYTES,
        b => b,
    }
}

/// Credits of a class's largest packet (at least 1).
pub fn largest_packet_credits(c: &ClassSize) -> u32 {
    largest_packet(c).div_ceil(UNIT_BYTES).max(1)
}

/// Splits `total` into integers in proportion to `shares` by the table designer's
/// largest-remainder apportionment, giving every class with a positive share at least
/// one unit while that is possible (and none to the others).
pub fn apportion_shares(shares: &[f64], total: u64) -> Vec<u64> {
    let s = normalise(shares);
    let positive = s.iter().filter(|&&x| x > 0.0).count() as u64;
    let floor = u64::from(positive <= total);
    let quotas: Vec<f64> = s.iter().map(|&x| x * total as f64).collect();
    let lower: Vec<u64> = s.iter().map(|&x| if x > 0.0 { floor } else { 0 }).collect();
    let upper: Vec<u64> = s.iter().map(|&x| if x > 0.0 { total } else { 0 }).collect();
    apportion(total, &quotas, &lower, &upper)
}

/// Class indices, each class `i` appearing `counts[i]` times, spread as the WF2Q service
/// list spreads them (empty when every count is 0 or they exceed a list's length).
pub fn interleave(counts: &[u64]) -> Vec<u32> {
    let weights: Vec<u32> = counts
        .iter()
        .map(|&c| u32::try_from(c).unwrap_or(u32::MAX))
        .collect();
    service_list(ServiceListKind::Wf2q, &weights)
        .map(|list| {
            list.into_iter()
                .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
                .collect()
        })
        .unwrap_or_default()
}

/// One entry per class with a positive weight, in class order.
pub fn entries_from_weights(weights: &[u64]) -> Vec<TableEntry> {
    weights
        .iter()
        .enumerate()
        .filter(|&(_, &w)| w > 0)
        .map(|(i, &w)| TableEntry {
            class: u32::try_from(i).unwrap_or(u32::MAX),
            weight: u32::try_from(w).unwrap_or(u32::MAX),
        })
        .collect()
}

/// Entry weights scaled down so the largest is at most `max` (each at least 1).
pub fn cap_weights(entries: &[TableEntry], max: u32) -> Vec<TableEntry> {
    let top = entries.iter().map(|e| e.weight).max().unwrap_or(0);
    let f = if top > max {
        f64::from(max) / f64::from(top)
    } else {
        1.0
    };
    entries
        .iter()
        .map(|e| TableEntry {
            class: e.class,
            weight: ((f64::from(e.weight) * f).round() as u32).clamp(1, max.max(1)),
        })
        .collect()
}

/// Sum of entry weights per class (entries naming none of the `n` classes left out).
pub fn entry_weight_sums(entries: &[TableEntry], n: usize) -> Vec<f64> {
    let mut sums = vec![0.0; n];
    for e in entries {
        if let Some(s) = sums.get_mut(e.class as usize) {
            *s += f64::from(e.weight);
        }
    }
    sums
}

/// Priorities by class index: class 0 highest (`n - 1`), clamped to `0..=max`.
pub fn index_priorities(n: usize, max: u32) -> Vec<u32> {
    (0..n)
        .map(|i| u32::try_from(n - 1 - i).unwrap_or(u32::MAX).min(max))
        .collect()
}

/// `x` rounded to 6 significant digits (weights carried between kinds stay readable).
pub fn six_digits(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{x:.5e}").parse().unwrap_or(x)
}
