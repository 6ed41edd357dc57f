//! Evaluation of any table (designed or edited by hand) against the requirements: the
//! achieved shares, the distances, the worst-case wait bound of each class, and every
//! broken rule as a [`Violation`] with a short machine id and a sentence in words.
//!
//! Pool and `M` (`docs/table-design.md`, "Evaluating a table"): the design's when the
//! requirements give `w` and `k` (`M = min(floor(GMTU * w), field limit)`, `pool =
//! floor(N * GMTU * k)` with `N = entries`); without `k` the pool is the sum of the
//! table's weights, without `w` `M` is the technology's weight-field limit. The achieved
//! share of a class is always its weight total over the sum of the table's weights (what
//! the arbiter actually gives when every class is backlogged); the AS basic table has no
//! weights and shares entries (`n_i / N`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::bound::{Arbiter, BoundEntry, credits_to_ns, wait_credits};
use super::decoupling;
use super::equivalents::DesignEntry;
use super::requirements::{Requirements, credits, tenths, validate_requirements};
use crate::error::EngineError;
use crate::time::BitRate;

/// Tolerance of share comparisons.
const EPS: f64 = 1e-9;

/// One class of an evaluated table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ClassEvaluation {
    /// Class name.
    pub name: String,
    /// Entries naming the class.
    pub entries: u64,
    /// Sum of the class's entry weights (`null` for tables without weights).
    pub total_weight: Option<u64>,
    /// `n * MTU / pool` (tables without weights: `n / N`).
    pub min_share: f64,
    /// `n * M / pool` (tables without weights: `n / N`).
    pub max_share: f64,
    /// The share achieved: weight total / sum of the table's weights (tables without
    /// weights: `n / N`).
    pub share: f64,
    /// The share asked for.
    pub wanted_share: f64,
    /// Largest cyclic distance between consecutive entries that serve the class (the
    /// table's length when it has none; InfiniBand and Omni-Path skip weight-0 entries).
    pub max_distance: u64,
    /// Worst-case head-of-line wait in ns at the link rate for the technology's arbiter
    /// (`docs/table-design.md`, "Worst-case wait bound"); `null` when no entry serves the
    /// class (it is never served).
    pub bound_ns: Option<f64>,
}

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Violation {
    /// The class concerned, if any.
    pub class: Option<String>,
    /// The table entry concerned (0-based), if any.
    pub entry: Option<u32>,
    /// Short machine id: `entries_count`, `unknown_class`, `weight_field`,
    /// `weight_below_mtu`, `weight_above_max`, `no_entries`, `distance`,
    /// `share_below_wanted` (errors), `weights_unequal` (advice).
    pub rule: String,
    /// The problem as a sentence.
    pub message: String,
}

/// A table evaluated against requirements.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Evaluation {
    /// Link rate the bounds are computed for, in Gb/s.
    pub link_rate_gbps: f64,
    /// Pool the min/max shares refer to (`null` for tables without weights).
    pub pool: Option<u64>,
    /// `M`, the largest weight of one entry checked against (`null` for tables without
    /// weights).
    pub max_entry_weight: Option<u64>,
    /// Per class, in requirements order.
    pub classes: Vec<ClassEvaluation>,
    /// Every broken rule: table-wide first, then per entry in table order, then per class.
    pub violations: Vec<Violation>,
}

impl Evaluation {
    /// Whether the table breaks no rule (advice aside).
    pub fn is_ok(&self) -> bool {
        self.violations.iter().all(|v| v.rule == "weights_unequal")
    }
}

/// Evaluates `table` (entries name classes of `r`) against `r`. Errors only for invalid
/// requirements; everything wrong with the table is a [`Violation`].
pub fn evaluate(r: &Requirements, table: &[DesignEntry]) -> Result<Evaluation, EngineError> {
    validate_requirements(r)?;
    let rate = BitRate::from_gbps(r.link_rate()).ok_or_else(|| {
        EngineError::invalid(
            "link_rate_gbps",
            format!("is too small to simulate (got {})", r.link_rate()),
        )
    })?;
    let tech = r.technology;
    let arbiter = Arbiter::of(tech);
    let cap = tech.max_weight();
    let gmtu = credits(r.gmtu_bytes);
    let mtus: Vec<u64> = r.classes.iter().map(|c| credits(c.mtu_bytes)).collect();
    let n = table.len();
    let mut v: Vec<Violation> = Vec::new();
    let mut add = |class: Option<&str>, entry: Option<usize>, rule: &str, message: String| {
        v.push(Violation {
            class: class.map(str::to_string),
            entry: entry.map(|e| e as u32),
            rule: rule.to_string(),
            message,
        })
    };

    let (ok, rule) = tech.entries_rule(u32::try_from(n).unwrap_or(u32::MAX));
    if !ok {
        add(
            None,
            None,
            "entries_count",
            format!(
                "The table has {n} entries, but {} tables hold {rule}.",
                tech.label()
            ),
        );
    } else if n != r.entries as usize {
        add(
            None,
            None,
            "entries_count",
            format!(
                "The table has {n} entries, but the requirements ask for {}.",
                r.entries
            ),
        );
    }

    let m = cap.map(|cap| match r.w.and_then(tenths) {
        Some(w) => decoupling::max_entry_weight(gmtu, w, cap),
        None => cap,
    });
    let bound_entries: Vec<BoundEntry> = table
        .iter()
        .map(|e| BoundEntry {
            class: r.classes.iter().position(|c| c.name == e.class),
            weight: e.weight,
        })
        .collect();
    for (p, (e, b)) in table.iter().zip(&bound_entries).enumerate() {
        let name = e.class.as_str();
        let Some(c) = b.class else {
            add(
                Some(name),
                Some(p),
                "unknown_class",
                format!(
                    "Entry {p} names class \"{name}\", which is not one of the requirements' classes."
                ),
            );
            continue;
        };
        match (cap, e.weight) {
            (None, Some(w)) => add(
                Some(name),
                Some(p),
                "weight_field",
                format!(
                    "Entry {p} ({name}) has weight {w}, but {} entries carry no weight.",
                    tech.label()
                ),
            ),
            (Some(_), None) => add(
                Some(name),
                Some(p),
                "weight_field",
                format!(
                    "Entry {p} ({name}) has no weight, but {} entries need one.",
                    tech.label()
                ),
            ),
            (Some(cap), Some(w)) if w > cap => add(
                Some(name),
                Some(p),
                "weight_field",
                format!(
                    "Entry {p} ({name}) has weight {w}, more than the {} weight field holds ({cap}).",
                    tech.label()
                ),
            ),
            (Some(_), Some(w)) => {
                if w < mtus[c] {
                    let why = if w == 0 && arbiter == Arbiter::Iba {
                        format!("{} skips an entry of weight 0", tech.label())
                    } else {
                        "one packet can overdraw the entry".to_string()
                    };
                    add(
                        Some(name),
                        Some(p),
                        "weight_below_mtu",
                        format!(
                            "Entry {p} ({name}) has weight {w}, below the class MTU of {} credits; {why}.",
                            mtus[c]
                        ),
                    );
                }
                if let Some(m) = m
                    && w > m
                {
                    add(
                        Some(name),
                        Some(p),
                        "weight_above_max",
                        format!(
                            "Entry {p} ({name}) has weight {w}, above the largest entry weight M = {m}{}.",
                            match r.w {
                                Some(w) => format!(" (GMTU {gmtu} credits x w {w})"),
                                None => String::new(),
                            }
                        ),
                    );
                }
            }
            (None, None) => {}
        }
    }

    let total: u64 = table.iter().filter_map(|e| e.weight).sum();
    let pool = cap.map(|_| match r.k.and_then(tenths) {
        Some(k) => decoupling::pool(u64::from(r.entries), gmtu, k),
        None => total,
    });
    let bounds = wait_credits(arbiter, &bound_entries, &mtus, gmtu);
    let mut classes = Vec::with_capacity(r.classes.len());
    for (i, c) in r.classes.iter().enumerate() {
        let name = c.name.as_str();
        let mine: Vec<usize> = (0..n)
            .filter(|&p| bound_entries[p].class == Some(i))
            .collect();
        let entries = mine.len() as u64;
        let serving: Vec<usize> = mine
            .iter()
            .copied()
            .filter(|&p| arbiter.serves(table[p].weight))
            .collect();
        let weights: Vec<u64> = mine.iter().filter_map(|&p| table[p].weight).collect();
        let class_total: u64 = weights.iter().sum();
        let (min_share, max_share, share, total_weight) = match (pool, m) {
            (Some(pool), Some(m)) => (
                (entries * mtus[i]) as f64 / pool.max(1) as f64,
                (entries * m) as f64 / pool.max(1) as f64,
                if total == 0 {
                    0.0
                } else {
                    class_total as f64 / total as f64
                },
                Some(class_total),
            ),
            _ => {
                let s = if n == 0 {
                    0.0
                } else {
                    entries as f64 / n as f64
                };
                (s, s, s, None)
            }
        };
        let (gap, from, to) = largest_gap(&serving, n);
        if serving.is_empty() {
            add(
                Some(name),
                None,
                "no_entries",
                if entries > 0 {
                    format!(
                        "{name} has only entries of weight 0, which {} skips, so it is never served.",
                        tech.label()
                    )
                } else {
                    format!("{name} has no entry in the table, so it is never served.")
                },
            );
        } else if let Some(d) = c.distance
            && gap > d as usize
        {
            add(
                Some(name),
                Some(from),
                "distance",
                format!(
                    "{name}: its consecutive entries {from} and {to} are {gap} apart ({between} entries in between are not its own), but its distance is {d}.",
                    between = gap - 1
                ),
            );
        }
        // Below wanted by at least one unit of weight (entries for AS): the designer's
        // rounding stays within one unit of its target, which is at least the wanted share.
        let units = if pool.is_some() { total } else { n as u64 };
        let got = if pool.is_some() { class_total } else { entries };
        if c.share * units as f64 - got as f64 >= 1.0 - EPS {
            add(
                Some(name),
                None,
                "share_below_wanted",
                if pool.is_some() {
                    format!(
                        "{name}: its entries carry {got} of the table's {units} credits of weight, a share of {share:.6}, below the wanted {}.",
                        c.share
                    )
                } else {
                    format!(
                        "{name}: it has {got} of the table's {units} entries, a share of {share:.6} of the packets, below the wanted {}.",
                        c.share
                    )
                },
            );
        }
        if let (Some(lo), Some(hi)) = (weights.iter().min(), weights.iter().max())
            && hi - lo > 1
        {
            add(
                Some(name),
                None,
                "weights_unequal",
                format!(
                    "{name}: its entry weights range from {lo} to {hi}; the designer keeps a class's entries within 1 of each other (advice: only the latency of its worst gap changes)."
                ),
            );
        }
        classes.push(ClassEvaluation {
            name: c.name.clone(),
            entries,
            total_weight,
            min_share,
            max_share,
            share,
            wanted_share: c.share,
            max_distance: gap as u64,
            bound_ns: bounds[i].map(|b| credits_to_ns(b, rate)),
        });
    }
    Ok(Evaluation {
        link_rate_gbps: r.link_rate(),
        pool,
        max_entry_weight: m,
        classes,
        violations: v,
    })
}

/// The largest cyclic gap between consecutive `positions` (sorted) in a table of `n`
/// entries, with the entry it starts from and the one it ends at (`(n, 0, 0)` when there
/// are none; a single entry has gap `n`, from and to itself).
fn largest_gap(positions: &[usize], n: usize) -> (usize, usize, usize) {
    let (Some(&first), Some(&last)) = (positions.first(), positions.last()) else {
        return (n, 0, 0);
    };
    let mut best = (first + n - last, last, first);
    for w in positions.windows(2) {
        if w[1] - w[0] > best.0 {
            best = (w[1] - w[0], w[0], w[1]);
        }
    }
    best
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "evaluate_tests.rs"]
mod tests;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "evaluate_rules_tests.rs"]
mod rules_tests;
