//! Linux ETS (`sch_ets`, IEEE 802.1Qaz enhanced transmission selection) for a design: a
//! `tc qdisc ... ets` command line whose DRR bands carry the design's DRR quanta
//! (`equivalents`), whose strict bands are the classes of the high table, and whose priomap
//! sends Linux priority `p` to class `p`'s band. See `docs/omnipath.md`, "Linux ETS".

use std::fmt::Write as _;

use super::Design;
use super::fabric::{self, ClassInfo};
use super::requirements::CREDIT_BYTES;
use crate::error::EngineError;

/// Bands `sch_ets` offers (and Linux priorities it maps: 0-15).
pub const MAX_BANDS: usize = 16;

/// The command: comment lines explaining the bands, then
/// `tc qdisc replace dev "$DEV" root handle 1: ets bands N [strict S] [quanta Q...] priomap P0..P15`.
///
/// Bands 0 to S-1 are strict (the classes of `fabric.high`, in class order), then one DRR band
/// per other class in class order, quantum = the class's DRR quantum in bytes (credits x 64).
/// Priority `p` goes to the band of class `p`; priorities without a class go to the band of
/// the most latency-tolerant class (as SLs without a class do in the OpenSM export).
///
/// Errors (path `classes`): more than 16 classes.
pub fn command(design: &Design) -> Result<String, EngineError> {
    let n = design.classes.len();
    if n > MAX_BANDS {
        return Err(EngineError::invalid(
            "classes",
            format!("Linux ETS has at most {MAX_BANDS} bands: {n} classes"),
        ));
    }
    let high: Vec<&str> = design
        .fabric
        .iter()
        .flat_map(|f| f.high.iter().map(|h| h.class.as_str()))
        .collect();
    let strict: Vec<usize> = (0..n)
        .filter(|&i| high.contains(&design.classes[i].name.as_str()))
        .collect();
    let shared: Vec<usize> = (0..n).filter(|i| !strict.contains(i)).collect();
    let order: Vec<usize> = strict.iter().chain(&shared).copied().collect();
    let band_of = |class: usize| order.iter().position(|&c| c == class).unwrap_or(0);
    let quantum = |class: usize| {
        design
            .equivalents
            .classes
            .get(class)
            .map_or(0, |e| e.drr_quantum_credits * u64::from(CREDIT_BYTES))
    };
    let infos: Vec<ClassInfo<'_>> = design
        .classes
        .iter()
        .map(|c| ClassInfo {
            name: &c.name,
            distance: c.distance,
            share: c.wanted_share,
        })
        .collect();
    let default_class = usize::from(fabric::default_unused_vl(&infos));
    let priomap: Vec<String> = (0..MAX_BANDS)
        .map(|p| band_of(if p < n { p } else { default_class }).to_string())
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# qoslab design: Linux ETS (sch_ets) for {n} classes; set DEV to the egress interface first (DEV=eth0)"
    );
    for (band, &c) in order.iter().enumerate() {
        let name = &design.classes[c].name;
        if strict.contains(&c) {
            let _ = writeln!(out, "# band {band} = {name}: strict priority");
        } else {
            let _ = writeln!(
                out,
                "# band {band} = {name}: DRR quantum {} bytes",
                quantum(c)
            );
        }
    }
    if n < MAX_BANDS {
        let _ = writeln!(
            out,
            "# priority p -> band of class p; priorities {n}-15 -> band {} ({})",
            band_of(default_class),
            design
                .classes
                .get(default_class)
                .map_or("", |c| c.name.as_str())
        );
    }
    let _ = write!(
        out,
        "tc qdisc replace dev \"$DEV\" root handle 1: ets bands {n}"
    );
    if !strict.is_empty() {
        let _ = write!(out, " strict {}", strict.len());
    }
    if !shared.is_empty() {
        let q: Vec<String> = shared.iter().map(|&c| quantum(c).to_string()).collect();
        let _ = write!(out, " quanta {}", q.join(" "));
    }
    let _ = writeln!(out, " priomap {}", priomap.join(" "));
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "ets_tests.rs"]
mod tests;
