//! Random table-design requirements, shared by the designer's property tests (`design.rs`)
//! and the bound's simulation test (`design_bound.rs`).

#![allow(dead_code)]

use qoslab_core::design::{ClassRequirement, Requirements, Technology};

/// Requirements of random classes `(distance exponent or none, MTU bytes, share weight)`:
/// N = 2^`log_n`, GMTU 2048 B, w and k searched, shares in proportion to the weights.
pub fn requirements(
    technology: Technology,
    log_n: u32,
    raw: &[(Option<u32>, u32, u32)],
) -> Requirements {
    let n = 1u32 << log_n;
    let total: u32 = raw.iter().map(|r| r.2).sum();
    Requirements {
        technology,
        entries: n,
        gmtu_bytes: 2048,
        w: None,
        k: None,
        link_rate_gbps: None,
        fabric: None,
        switch_ports: None,
        classes: raw
            .iter()
            .enumerate()
            .map(|(i, &(d, mtu, s))| ClassRequirement {
                name: format!("C{i}"),
                distance: d.map(|l| 1 << l.min(log_n)),
                mtu_bytes: mtu,
                share: f64::from(s) / f64::from(total),
            })
            .collect(),
    }
}
