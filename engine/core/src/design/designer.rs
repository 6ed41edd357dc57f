//! The method end to end: validate, place entries by distance, assign bandwidth left over,
//! search `w`/`k` (or check the given ones), apportion weights, and report.

use super::apportion::spread;
use super::decoupling::{self, ClassNeed};
use super::designed::{ClassDesign, Design};
use super::equivalents::{DesignEntry, equivalents};
use super::evaluate::evaluate;
use super::fabric;
use super::mapping::mappings;
use super::omnipath;
use super::placement::{max_cyclic_distance, place};
use super::requirements::{Requirements, Technology, credits, tenths, validate_requirements};
use crate::error::EngineError;

/// Designs a table for `r`. Errors name the field and the rule.
pub fn design(r: &Requirements) -> Result<Design, EngineError> {
    let mut d = design_table(r)?;
    let e = evaluate(r, &d.table)?;
    for (c, ce) in d.classes.iter_mut().zip(e.classes) {
        c.bound_ns = ce.bound_ns.ok_or_else(|| EngineError::Internal {
            message: format!("class {} got no entry that serves it", c.name),
        })?;
    }
    d.mappings = mappings(&d, r.switch_ports());
    if d.technology == Technology::Omnipath {
        d.omnipath = omnipath::maps(d.classes.len());
    }
    if matches!(d.technology, Technology::Infiniband | Technology::Omnipath) {
        d.fabric = Some(fabric::resolve(
            r.fabric.as_ref(),
            d.technology,
            &r.class_infos(),
        ));
    }
    Ok(d)
}

/// Everything but the bounds.
fn design_table(r: &Requirements) -> Result<Design, EngineError> {
    validate_requirements(r)?;
    let n = r.entries as usize;
    let distances: Vec<Option<u32>> = r.classes.iter().map(|c| c.distance).collect();
    let slots = place(n, &distances)?;
    let classes = r.classes.len();
    let counts: Vec<u64> = (0..classes)
        .map(|i| slots.iter().filter(|&&s| s == i).count() as u64)
        .collect();
    let mut targets: Vec<f64> = r.classes.iter().map(|c| c.share).collect();
    let leftover = (1.0 - targets.iter().sum::<f64>()).max(0.0);
    let most = (0..classes)
        .max_by(|&a, &b| counts[a].cmp(&counts[b]).then(b.cmp(&a)))
        .ok_or_else(|| EngineError::invalid("classes", "must hold at least one class"))?;
    targets[most] += leftover;
    let mtus: Vec<u64> = r.classes.iter().map(|c| credits(c.mtu_bytes)).collect();
    let gmtu = credits(r.gmtu_bytes);
    let names: Vec<String> = r.classes.iter().map(|c| c.name.clone()).collect();
    let mut max_distance = Vec::with_capacity(classes);
    for (i, d) in distances.iter().enumerate() {
        let m = max_cyclic_distance(&slots, i).unwrap_or(n) as u64;
        if d.is_some_and(|d| m > u64::from(d)) {
            return Err(EngineError::Internal {
                message: format!("placement broke the distance of class {i}"),
            });
        }
        max_distance.push(m);
    }
    let equivalents = equivalents(&names, &targets, &mtus, u64::from(r.entries), gmtu)?;
    let class = |i: usize| ClassDesign {
        name: names[i].clone(),
        distance: distances[i],
        entries: counts[i],
        mtu_credits: mtus[i],
        min_share: 0.0,
        max_share: 0.0,
        wanted_share: r.classes[i].share,
        target_share: targets[i],
        share: 0.0,
        deviation: 0.0,
        total_weight: None,
        entry_weights: Vec::new(),
        max_distance: max_distance[i],
        bound_ns: 0.0,
    };
    let Some(cap) = r.technology.max_weight() else {
        let table = slots
            .iter()
            .map(|&s| DesignEntry {
                class: names[s].clone(),
                weight: None,
            })
            .collect();
        let classes = (0..classes)
            .map(|i| {
                let share = counts[i] as f64 / n as f64;
                ClassDesign {
                    min_share: share,
                    max_share: share,
                    share,
                    deviation: share - targets[i],
                    ..class(i)
                }
            })
            .collect();
        return Ok(Design {
            technology: r.technology,
            entries: r.entries,
            gmtu_credits: gmtu,
            w: None,
            k: None,
            pool: None,
            max_entry_weight: None,
            table,
            classes,
            equivalents,
            link_rate_gbps: r.link_rate(),
            mappings: Vec::new(),
            omnipath: None,
            fabric: None,
        });
    };
    let needs: Vec<ClassNeed> = (0..classes)
        .map(|i| ClassNeed {
            entries: counts[i],
            mtu: mtus[i],
            share: targets[i],
        })
        .collect();
    let d = decoupling::search(
        &needs,
        u64::from(r.entries),
        gmtu,
        cap,
        r.w.and_then(tenths),
        r.k.and_then(tenths),
    )?;
    let mut per_class: Vec<std::vec::IntoIter<u64>> = (0..classes)
        .map(|i| spread(d.totals[i], counts[i]).into_iter())
        .collect();
    let mut table = Vec::with_capacity(n);
    let mut entry_weights: Vec<Vec<u64>> = vec![Vec::new(); classes];
    for &s in &slots {
        let weight = per_class[s].next().unwrap_or(0);
        entry_weights[s].push(weight);
        table.push(DesignEntry {
            class: names[s].clone(),
            weight: Some(weight),
        });
    }
    let pool = d.pool as f64;
    let classes = entry_weights
        .into_iter()
        .enumerate()
        .map(|(i, weights)| {
            let share = d.totals[i] as f64 / pool;
            ClassDesign {
                min_share: decoupling::min_share(&needs[i], d.pool),
                max_share: decoupling::max_share(&needs[i], d.pool, d.max_entry_weight),
                share,
                deviation: share - targets[i],
                total_weight: Some(d.totals[i]),
                entry_weights: weights,
                ..class(i)
            }
        })
        .collect();
    Ok(Design {
        technology: r.technology,
        entries: r.entries,
        gmtu_credits: gmtu,
        w: Some(f64::from(d.w_tenths) / 10.0),
        k: Some(f64::from(d.k_tenths) / 10.0),
        pool: Some(d.pool),
        max_entry_weight: Some(d.max_entry_weight),
        table,
        classes,
        equivalents,
        link_rate_gbps: r.link_rate(),
        mappings: Vec::new(),
        omnipath: None,
        fabric: None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "designer_tests.rs"]
mod tests;
