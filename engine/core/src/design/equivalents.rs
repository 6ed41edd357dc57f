//! The same bandwidth shares for the other schedulers of the study
//! (`shared/spec/20-table-design.md` §2, after the public test vector):
//! - **WF2Q emulation on a DTable**: every entry weighs GMTU; the `N` entries are shared in
//!   proportion to bandwidth (largest remainder, at least one entry per class) and placed by
//!   the WF2Q service list ([`super::service_list`]).
//! - **DRR**: quanta proportional to the shares, the smallest share (first on ties) getting
//!   its class MTU in credits; the others rounded to the nearest credit (at least 1).
//! - **SCFQ**: weight = share.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::apportion::apportion;
use super::{ServiceListKind, service_list};
use crate::error::EngineError;

/// One entry of a designed table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct DesignEntry {
    /// Class name.
    pub class: String,
    /// Weight in credits (`null` for tables without weights).
    pub weight: Option<u64>,
}

/// One class's parameters for the other schedulers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EquivalentClass {
    /// Class name.
    pub name: String,
    /// Entries of the class in the WF2Q-emulation table.
    pub wf2q_entries: u64,
    /// DRR quantum, in credits.
    pub drr_quantum_credits: u64,
    /// SCFQ weight (the share).
    pub scfq_weight: f64,
}

/// The other schedulers' parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Equivalents {
    /// The WF2Q-emulation DTable (`entries` entries of weight GMTU).
    pub wf2q_table: Vec<DesignEntry>,
    /// Per class, in input order.
    pub classes: Vec<EquivalentClass>,
}

/// Parameters for `shares` (each above 0), class MTUs in credits, a table of `entries`
/// entries (at least one per class) and GMTU in credits.
pub fn equivalents(
    names: &[String],
    shares: &[f64],
    mtus: &[u64],
    entries: u64,
    gmtu: u64,
) -> Result<Equivalents, EngineError> {
    let sum: f64 = shares.iter().sum();
    let quotas: Vec<f64> = shares.iter().map(|s| s / sum * entries as f64).collect();
    let counts = apportion(
        entries,
        &quotas,
        &vec![1; shares.len()],
        &vec![entries; shares.len()],
    );
    let weights: Vec<u32> = counts
        .iter()
        .map(|&c| u32::try_from(c).unwrap_or(u32::MAX))
        .collect();
    let list = service_list(ServiceListKind::Wf2q, &weights)?;
    let wf2q_table = list
        .into_iter()
        .map(|i| DesignEntry {
            class: names[i].clone(),
            weight: Some(gmtu),
        })
        .collect();
    let smallest = (0..shares.len())
        .min_by(|&a, &b| shares[a].total_cmp(&shares[b]).then(a.cmp(&b)))
        .ok_or_else(|| EngineError::invalid("classes", "at least one class is needed"))?;
    let unit = mtus[smallest] as f64 / shares[smallest];
    let classes = (0..shares.len())
        .map(|i| EquivalentClass {
            name: names[i].clone(),
            wf2q_entries: counts[i],
            drr_quantum_credits: ((shares[i] * unit).round() as u64).max(1),
            scfq_weight: shares[i],
        })
        .collect();
    Ok(Equivalents {
        wf2q_table,
        classes,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "equivalents_tests.rs"]
mod tests;
