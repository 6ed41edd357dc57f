//! What a table design is asked for: technology, table size, GMTU, optional `w`/`k`, and
//! per class a distance, an MTU and a wanted share. Parsed strictly (unknown fields are
//! errors) and validated with every problem named by its JSON path.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::fabric::{self, ClassInfo, FabricOptions};
use crate::error::{EngineError, FieldError};

/// Bytes per credit (the unit of table weights and MTUs).
pub const CREDIT_BYTES: u32 = 64;
/// Largest GMTU and class MTU, in bytes.
pub const MAX_MTU_BYTES: u32 = 65_536;
/// Largest `w` or `k`, in tenths (1000.0).
pub const MAX_TENTHS: u32 = 10_000;
/// Link rate assumed when the requirements give none, in Gb/s: the data rate of the
/// spec's reference scenario R2 (2.5 Gb/s with 8b/10b coding).
pub const DEFAULT_LINK_RATE_GBPS: f64 = 2.0;
/// Largest InfiniBand MTU, in bytes (MTUs are 256, 512, 1024, 2048 or 4096 B).
pub const IB_MAX_MTU_BYTES: u32 = 4096;
/// Most ports of the switch whose registers the Omni-Path mapping counts.
pub const MAX_SWITCH_PORTS: u32 = 1024;
/// Largest link rate, in Gb/s (the simulator's limit).
pub const MAX_LINK_RATE_GBPS: f64 = 1.0e6;

/// The public test vector of `shared/spec/20-table-design.md` (multimedia scenario, 7
/// classes, N = 64, GMTU 2048 B, w = 2, k = 0.5) as requirements JSON for the generic
/// DTable: the reference the designer, the bound and the R2 presets are checked against.
pub const MULTIMEDIA_VECTOR: &str = r#"{
  "technology": "dtable", "entries": 64, "gmtu_bytes": 2048, "w": 2, "k": 0.5,
  "classes": [
    {"name": "NC", "distance": 2, "mtu_bytes": 192, "share": 0.09375},
    {"name": "VO", "distance": 4, "mtu_bytes": 192, "share": 0.046875},
    {"name": "VI", "distance": 8, "mtu_bytes": 2048, "share": 0.5},
    {"name": "CL", "distance": 16, "mtu_bytes": 2048, "share": 0.203125},
    {"name": "EE", "distance": 32, "mtu_bytes": 1024, "share": 0.09375},
    {"name": "BE", "distance": 64, "mtu_bytes": 1024, "share": 0.046875},
    {"name": "BK", "distance": 64, "mtu_bytes": 1024, "share": 0.015625}
  ]
}"#;

pub use super::technology::Technology;

/// One class's needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ClassRequirement {
    /// Unique name.
    pub name: String,
    /// Largest number of consecutive entries (cyclic) that may pass without one of this
    /// class; `null` for no latency need (the class takes the entries left free).
    #[serde(default)]
    pub distance: Option<u32>,
    /// Largest packet of the class, in bytes.
    pub mtu_bytes: u32,
    /// Wanted share of the link bandwidth (0 < share <= 1).
    pub share: f64,
}

/// The whole request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Requirements {
    /// Target technology (limits on entries, weights and classes).
    pub technology: Technology,
    /// Number of table entries `N`.
    pub entries: u32,
    /// General MTU in bytes.
    pub gmtu_bytes: u32,
    /// `w` (multiple of 0.1), or `null` to search it.
    #[serde(default)]
    pub w: Option<f64>,
    /// `k` (multiple of 0.1, at most `w`), or `null` to search it.
    #[serde(default)]
    pub k: Option<f64>,
    /// The classes, in the order they are reported.
    pub classes: Vec<ClassRequirement>,
    /// Data rate of the output link in Gb/s, for the worst-case wait bounds (absent or
    /// `null`: [`DEFAULT_LINK_RATE_GBPS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub link_rate_gbps: Option<f64>,
    /// InfiniBand and Omni-Path: the fabric manager's settings beyond the table (OpenSM
    /// prefix, high-priority table and limit, SL2VL; `docs/opensm.md`). Absent: defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fabric: Option<FabricOptions>,
    /// Ports of the switch whose arbiter registers the Omni-Path mapping counts (the
    /// DTable adaptation has a table, a deficit counter per SL and an accumulator per
    /// output); absent: 48, the Omni-Path reference switch (12 MPorts of 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub switch_ports: Option<u32>,
}

impl Requirements {
    /// Name, distance and wanted share of each class, for the fabric defaults.
    pub fn class_infos(&self) -> Vec<ClassInfo<'_>> {
        self.classes
            .iter()
            .map(|c| ClassInfo {
                name: &c.name,
                distance: c.distance,
                share: c.share,
            })
            .collect()
    }

    /// The switch ports the Omni-Path mapping counts registers for (the given number, or
    /// the reference switch's 48).
    pub fn switch_ports(&self) -> u32 {
        self.switch_ports
            .unwrap_or(super::omnipath::REFERENCE_PORTS)
    }

    /// The link rate in Gb/s (the given one, or [`DEFAULT_LINK_RATE_GBPS`]).
    pub fn link_rate(&self) -> f64 {
        self.link_rate_gbps.unwrap_or(DEFAULT_LINK_RATE_GBPS)
    }
}

/// Credits for `bytes` (rounded up).
pub fn credits(bytes: u32) -> u64 {
    u64::from(bytes.div_ceil(CREDIT_BYTES))
}

/// A `w` or `k` value in integer tenths, if it is a positive multiple of 0.1 up to 1000.
pub fn tenths(x: f64) -> Option<u32> {
    let t = (x * 10.0).round();
    let ok = x.is_finite() && (x * 10.0 - t).abs() < 1e-6 && t >= 1.0 && t <= f64::from(MAX_TENTHS);
    ok.then_some(t as u32)
}

/// Parses a requirements document (without checking the rules).
pub fn parse_requirements(text: &str) -> Result<Requirements, EngineError> {
    let text = crate::text::strip_bom(text);
    let raw: serde_json::Value = serde_json::from_str(text).map_err(|e| EngineError::Syntax {
        message: {
            let m = e.to_string();
            m.rfind(" at line ")
                .map_or(m.clone(), |i| m[..i].to_string())
        },
        line: u32::try_from(e.line()).unwrap_or(u32::MAX),
        column: u32::try_from(e.column()).unwrap_or(u32::MAX),
    })?;
    serde_path_to_error::deserialize::<_, Requirements>(raw).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string();
        EngineError::invalid(
            // "." is the document; "" a key with no name (`{"": 1}`).
            if path == "." || path.is_empty() {
                top_level_path(&message)
            } else {
                path
            },
            message,
        )
    })
}

/// The path of a problem serde reports at the top of the document: the missing or
/// unknown field it names, else `requirements` (the whole document).
fn top_level_path(message: &str) -> String {
    ["missing field `", "unknown field `"]
        .iter()
        .find_map(|lead| {
            let rest = message.strip_prefix(lead)?;
            rest.split('`').next().map(str::to_string)
        })
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "requirements".to_string())
}

/// Checks every rule; returns all problems found.
pub fn validate_requirements(r: &Requirements) -> Result<(), EngineError> {
    let mut p: Vec<FieldError> = Vec::new();
    let mut add = |path: String, message: String| p.push(FieldError::new(path, message));
    let tech = r.technology;
    let (ok, rule) = tech.entries_rule(r.entries);
    if !ok {
        add(
            "entries".into(),
            format!("must be {rule} for {tech:?} (got {})", r.entries),
        );
    }
    if !(CREDIT_BYTES..=MAX_MTU_BYTES).contains(&r.gmtu_bytes) {
        add(
            "gmtu_bytes".into(),
            format!(
                "must be between {CREDIT_BYTES} and {MAX_MTU_BYTES} (got {})",
                r.gmtu_bytes
            ),
        );
    } else if tech == Technology::Infiniband && r.gmtu_bytes > IB_MAX_MTU_BYTES {
        add(
            "gmtu_bytes".into(),
            format!(
                "must be at most {IB_MAX_MTU_BYTES} for InfiniBand, its largest MTU (got {})",
                r.gmtu_bytes
            ),
        );
    } else if let Some(cap) = tech.max_weight()
        && credits(r.gmtu_bytes) > cap
    {
        add(
            "gmtu_bytes".into(),
            format!(
                "is {} credits, more than the largest {tech:?} entry weight {cap}",
                credits(r.gmtu_bytes)
            ),
        );
    }
    if let Some(rate) = r.link_rate_gbps
        && !(rate.is_finite() && rate > 0.0 && rate <= MAX_LINK_RATE_GBPS)
    {
        add(
            "link_rate_gbps".into(),
            format!(
                "must be a rate in Gb/s above 0 and at most {MAX_LINK_RATE_GBPS} or null (got {rate})"
            ),
        );
    }
    if let Some(ports) = r.switch_ports
        && !(1..=MAX_SWITCH_PORTS).contains(&ports)
    {
        add(
            "switch_ports".into(),
            format!("must be between 1 and {MAX_SWITCH_PORTS} ports or null (got {ports})"),
        );
    }
    let w = r.w.map(tenths);
    let k = r.k.map(tenths);
    for (name, given, value) in [("w", w, r.w), ("k", k, r.k)] {
        match (tech.max_weight(), given, value) {
            (None, _, Some(_)) => add(
                name.into(),
                format!("must be null: {tech:?} tables have no weights"),
            ),
            (Some(_), Some(None), Some(v)) => add(
                name.into(),
                format!("must be a multiple of 0.1 between 0.1 and 1000 (got {v})"),
            ),
            _ => {}
        }
    }
    if let (Some(Some(w)), Some(Some(k))) = (w, k)
        && k > w
    {
        add(
            "k".into(),
            format!(
                "must be at most w (k = {}, w = {})",
                f64::from(k) / 10.0,
                f64::from(w) / 10.0
            ),
        );
    }
    if r.classes.is_empty() {
        add("classes".into(), "must hold at least one class".into());
    } else if r.classes.len() > tech.max_classes() {
        add(
            "classes".into(),
            format!(
                "{tech:?} allows at most {} classes (got {})",
                tech.max_classes(),
                r.classes.len()
            ),
        );
    } else if r.classes.len() > r.entries as usize {
        add(
            "classes".into(),
            format!(
                "every class needs an entry: {} classes for {} entries",
                r.classes.len(),
                r.entries
            ),
        );
    }
    let mut total = 0.0;
    for (i, c) in r.classes.iter().enumerate() {
        if c.name.trim().is_empty() || c.name.chars().count() > 64 {
            add(
                format!("classes[{i}].name"),
                "must be 1 to 64 characters, not blank".into(),
            );
        } else if r.classes[..i].iter().any(|o| o.name == c.name) {
            add(
                format!("classes[{i}].name"),
                format!("\"{}\" is used by an earlier class", c.name),
            );
        }
        if let Some(d) = c.distance
            && (d == 0 || d > r.entries)
        {
            add(
                format!("classes[{i}].distance"),
                format!(
                    "must be between 1 and entries = {} or null (got {d})",
                    r.entries
                ),
            );
        }
        if c.mtu_bytes == 0 || c.mtu_bytes > r.gmtu_bytes.max(1) {
            add(
                format!("classes[{i}].mtu_bytes"),
                format!(
                    "must be between 1 and gmtu_bytes = {} (got {})",
                    r.gmtu_bytes, c.mtu_bytes
                ),
            );
        }
        if !(c.share.is_finite() && c.share > 0.0 && c.share <= 1.0) {
            add(
                format!("classes[{i}].share"),
                format!("must be above 0 and at most 1 (got {})", c.share),
            );
        } else {
            total += c.share;
        }
    }
    if total > 1.0 + 1e-9 {
        add(
            "classes".into(),
            format!("the shares add up to {total}, more than 1"),
        );
    }
    if let Some(f) = &r.fabric {
        p.extend(fabric::validate(f, tech, &r.class_infos()));
    }
    if p.is_empty() {
        Ok(())
    } else {
        Err(EngineError::Invalid { errors: p })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "requirements_tests.rs"]
mod tests;
