//! What a fabric manager needs beyond the arbitration table (`shared/spec/20-table-design.md`,
//! "InfiniBand export, complete"): the OpenSM port-type prefix, the high-priority table and
//! its limit, and the SL-to-VL map. Given in the requirements (`"fabric"`), validated with
//! every problem named by its path, and carried into the design resolved (defaults filled in).
//!
//! Class `i` of the requirements is SL `i` and VL `i`. An SL that carries no class goes to a
//! VL the user picks; left unpicked it goes to the VL of the most latency-tolerant class
//! ([`default_unused_vl`]), never silently to VL 15 (drop).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::opensm::{MAX_VLARB_ENTRIES, Prefix};
use super::technology::Technology;
use crate::error::FieldError;

/// SLs of an InfiniBand SL2VL map.
pub const SLS: usize = 16;
/// The VL that drops an SL.
pub const DROP_VL: u8 = 15;

/// One entry of the high-priority table: a class and its weight (64-byte units, 0-255).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct HighEntry {
    /// Class name (its VL is its index in the requirements).
    pub class: String,
    /// Weight, 0 to 255 (0 = skipped).
    pub weight: u32,
}

/// Fabric-manager settings of an InfiniBand or Omni-Path design.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct FabricOptions {
    /// InfiniBand: the OpenSM port type the options apply to (`qos_` = every type, the
    /// default; `qos_ca_`, `qos_rtr_`, `qos_sw0_`, `qos_swe_`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prefix: Option<Prefix>,
    /// The high-priority table (InfiniBand VLArb high; Omni-Path: the classes listed get
    /// `HighPriority`). Empty by default.
    #[serde(default)]
    pub high: Vec<HighEntry>,
    /// InfiniBand: the high limit, 0-255 in 4 KiB units (255 = unbounded); default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub high_limit: Option<u32>,
    /// InfiniBand: the VL of each SL 0-15. SL `i` of a class must go to VL `i`; an SL
    /// without a class goes to the VL of a class, or to 15 (drop) when chosen. Absent: the
    /// SLs without a class go to [`default_unused_vl`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sl2vl: Option<Vec<u8>>,
}

/// What the defaults need to know of a class: its name, distance and wanted share.
#[derive(Clone, Copy, Debug)]
pub struct ClassInfo<'a> {
    /// Class name.
    pub name: &'a str,
    /// Requested distance (`None`: no latency need).
    pub distance: Option<u32>,
    /// Wanted share.
    pub share: f64,
}

/// The VL for SLs that carry no class when the user picked none: the most latency-tolerant
/// class (no distance, else the largest distance), ties to the larger wanted share, then to
/// the earlier class. In the multimedia vector that is BE (distance 64, share 0.047).
pub fn default_unused_vl(classes: &[ClassInfo<'_>]) -> u8 {
    let tolerance = |c: &ClassInfo<'_>| c.distance.map_or(u64::MAX, u64::from);
    let best = classes
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| {
            tolerance(a)
                .cmp(&tolerance(b))
                .then(a.share.total_cmp(&b.share))
                .then(j.cmp(i))
        })
        .map_or(0, |(i, _)| i);
    u8::try_from(best).unwrap_or(0)
}

/// The options with every default filled in: prefix `qos_`, high limit 0 and a full SL2VL
/// map (InfiniBand only; Omni-Path keeps only the high table).
pub fn resolve(
    options: Option<&FabricOptions>,
    technology: Technology,
    classes: &[ClassInfo<'_>],
) -> FabricOptions {
    let given = options.cloned().unwrap_or_default();
    if technology != Technology::Infiniband {
        return FabricOptions {
            high: given.high,
            ..FabricOptions::default()
        };
    }
    let unused = default_unused_vl(classes);
    let sl2vl = given.sl2vl.unwrap_or_else(|| {
        (0..SLS)
            .map(|sl| {
                if sl < classes.len() {
                    u8::try_from(sl).unwrap_or(DROP_VL)
                } else {
                    unused
                }
            })
            .collect()
    });
    FabricOptions {
        prefix: Some(given.prefix.unwrap_or(Prefix::Plain)),
        high: given.high,
        high_limit: Some(given.high_limit.unwrap_or(0)),
        sl2vl: Some(sl2vl),
    }
}

/// Every problem of `f` for a design of `classes` on `technology`, paths under `fabric`.
pub fn validate(
    f: &FabricOptions,
    technology: Technology,
    classes: &[ClassInfo<'_>],
) -> Vec<FieldError> {
    let mut p = Vec::new();
    let mut add = |path: String, message: String| p.push(FieldError::new(path, message));
    if !matches!(technology, Technology::Infiniband | Technology::Omnipath) {
        add(
            "fabric".into(),
            format!(
                "fabric settings are for InfiniBand or Omni-Path designs (technology is {})",
                technology.label()
            ),
        );
        return p;
    }
    if technology == Technology::Omnipath {
        for (name, set) in [
            ("prefix", f.prefix.is_some()),
            ("high_limit", f.high_limit.is_some()),
            ("sl2vl", f.sl2vl.is_some()),
        ] {
            if set {
                add(
                    format!("fabric.{name}"),
                    "is an OpenSM (InfiniBand) setting; Omni-Path maps SL to SC to VL itself (the design's omnipath maps)".into(),
                );
            }
        }
    }
    if f.high.len() > MAX_VLARB_ENTRIES {
        add(
            "fabric.high".into(),
            format!(
                "{} entries: the high-priority table holds at most {MAX_VLARB_ENTRIES}",
                f.high.len()
            ),
        );
    }
    for (k, e) in f.high.iter().enumerate() {
        if !classes.iter().any(|c| c.name == e.class) {
            add(
                format!("fabric.high[{k}].class"),
                format!("\"{}\" is not a class of the requirements", e.class),
            );
        }
        if e.weight > 255 {
            add(
                format!("fabric.high[{k}].weight"),
                format!("must be 0-255, in 64-byte units (got {})", e.weight),
            );
        }
    }
    if let Some(limit) = f.high_limit
        && limit > 255
    {
        add(
            "fabric.high_limit".into(),
            format!("must be 0-255, in 4 KiB units, 255 = unbounded (got {limit})"),
        );
    }
    if let Some(map) = &f.sl2vl {
        if map.len() != SLS {
            add(
                "fabric.sl2vl".into(),
                format!("needs 16 VLs, one per SL 0-15 (got {})", map.len()),
            );
        }
        let n = classes.len();
        for (sl, &vl) in map.iter().enumerate().take(SLS) {
            if let Some(class) = classes.get(sl) {
                if usize::from(vl) != sl {
                    add(
                        format!("fabric.sl2vl[{sl}]"),
                        format!(
                            "SL {sl} carries class {}, whose table entries are VL {sl}: it must map to VL {sl} (got {vl})",
                            class.name
                        ),
                    );
                }
            } else if usize::from(vl) >= n && vl != DROP_VL {
                add(
                    format!("fabric.sl2vl[{sl}]"),
                    format!(
                        "SL {sl} carries no class: map it to the VL of a class (0-{}) or to 15 to drop it (got {vl})",
                        n.saturating_sub(1)
                    ),
                );
            }
        }
    }
    p
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::design::{MULTIMEDIA_VECTOR, parse_requirements};

    fn with<T>(f: impl FnOnce(&[ClassInfo<'_>]) -> T) -> T {
        let r = parse_requirements(MULTIMEDIA_VECTOR).unwrap();
        let infos: Vec<ClassInfo<'_>> = r.class_infos();
        f(&infos)
    }

    #[test]
    fn unused_sls_default_to_the_most_tolerant_class() {
        with(|c| {
            assert_eq!(default_unused_vl(c), 5); // BE: distance 64, larger share than BK
            let r = resolve(None, Technology::Infiniband, c);
            assert_eq!(
                r.sl2vl.unwrap(),
                vec![0, 1, 2, 3, 4, 5, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5]
            );
            assert_eq!((r.prefix, r.high_limit), (Some(Prefix::Plain), Some(0)));
            let mut no_distance = c.to_vec();
            no_distance[2].distance = None;
            assert_eq!(default_unused_vl(&no_distance), 2);
        });
    }

    #[test]
    fn every_bad_setting_is_named() {
        with(|c| {
            let f = FabricOptions {
                prefix: None,
                high: vec![
                    HighEntry {
                        class: "XX".into(),
                        weight: 4,
                    },
                    HighEntry {
                        class: "NC".into(),
                        weight: 256,
                    },
                ],
                high_limit: Some(300),
                sl2vl: Some(vec![0, 1, 2, 3, 4, 6, 6, 7, 15, 0, 0, 0, 0, 0, 0, 0]),
            };
            let paths: Vec<String> = validate(&f, Technology::Infiniband, c)
                .into_iter()
                .map(|e| e.path)
                .collect();
            assert_eq!(
                paths,
                [
                    "fabric.high[0].class",
                    "fabric.high[1].weight",
                    "fabric.high_limit",
                    "fabric.sl2vl[5]",
                    "fabric.sl2vl[7]",
                ]
            );
            let short = FabricOptions {
                sl2vl: Some(vec![0; 3]),
                ..FabricOptions::default()
            };
            assert_eq!(
                validate(&short, Technology::Infiniband, c)[0].path,
                "fabric.sl2vl"
            );
            let opa = FabricOptions {
                high_limit: Some(1),
                ..FabricOptions::default()
            };
            assert_eq!(
                validate(&opa, Technology::Omnipath, c)[0].path,
                "fabric.high_limit"
            );
            assert_eq!(validate(&opa, Technology::Dtable, c)[0].path, "fabric");
        });
    }

    #[test]
    fn each_limit_is_itself_valid_and_one_past_it_is_refused() {
        with(|c| {
            let entry = |weight| HighEntry {
                class: "NC".into(),
                weight,
            };
            let paths = |f: &FabricOptions| -> Vec<String> {
                validate(f, Technology::Infiniband, c)
                    .into_iter()
                    .map(|e| e.path)
                    .collect()
            };
            // A full high table (64 entries) of the largest weight, the largest limit.
            let full = FabricOptions {
                high: vec![entry(255); MAX_VLARB_ENTRIES],
                high_limit: Some(255),
                ..FabricOptions::default()
            };
            assert_eq!(paths(&full), Vec::<String>::new());
            let long = FabricOptions {
                high: vec![entry(1); MAX_VLARB_ENTRIES + 1],
                ..FabricOptions::default()
            };
            assert_eq!(paths(&long), ["fabric.high"]);
            let heavy = FabricOptions {
                high: vec![entry(256)],
                high_limit: Some(256),
                ..FabricOptions::default()
            };
            assert_eq!(
                paths(&heavy),
                ["fabric.high[0].weight", "fabric.high_limit"]
            );
            // Omni-Path keeps the high table (its classes get HighPriority), nothing else.
            let opa = resolve(Some(&full), Technology::Omnipath, c);
            assert_eq!((opa.high.len(), opa.high_limit), (MAX_VLARB_ENTRIES, None));
        });
    }
}
