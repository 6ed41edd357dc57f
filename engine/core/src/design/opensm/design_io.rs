//! A design's complete OpenSM configuration (`qos TRUE`, the port-type prefix, both VLArb
//! tables, the high limit, `max_vls` and SL2VL), and reading such a file back into a table
//! and fabric settings. See `docs/opensm.md`, "Exporting a design".

use std::fmt::Write as _;

use super::{MAX_VLS_VALUES, OpenSmQos, Prefix, VlWeight, from_iba, parse, to_lines};
use crate::design::fabric::{self, ClassInfo, DROP_VL, FabricOptions, HighEntry};
use crate::design::{Design, DesignEntry, Technology};
use crate::error::{EngineError, FieldError};
use crate::scenario::{IbaConfig, TableEntry};

/// The class facts of a design the fabric defaults need.
fn infos(design: &Design) -> Vec<ClassInfo<'_>> {
    design
        .classes
        .iter()
        .map(|c| ClassInfo {
            name: &c.name,
            distance: c.distance,
            share: c.wanted_share,
        })
        .collect()
}

/// The OpenSM options of an InfiniBand design: the (possibly edited) table as the low table
/// (class `i` = VL `i`, weights in 64-byte units); the design's high table (empty: one
/// skipped `0:0` entry, written because an absent `vlarb_high` leaves OpenSM's default high
/// table in force); its high limit (default 0); `max_vls` the smallest allowed value that
/// covers the classes; its SL2VL (default: SL `i` to VL `i`, SLs without a class to the VL
/// of the most latency-tolerant class); under its prefix (default `qos_`).
///
/// Errors name the field: `technology`, `table[k]`, `fabric.high[k].class`, `fabric.…`
/// (the same rules as the requirements), `classes`, and `low[k].weight` / `high_limit` for
/// values OpenSM cannot hold.
pub fn from_design(design: &Design) -> Result<OpenSmQos, EngineError> {
    if design.technology != Technology::Infiniband {
        return Err(EngineError::invalid(
            "technology",
            format!(
                "OpenSM options describe InfiniBand VL arbitration: design with \"technology\": \"infiniband\" (got {})",
                design.technology.label()
            ),
        ));
    }
    let infos = infos(design);
    let mut errors = Vec::new();
    if let Some(f) = &design.fabric {
        errors.extend(fabric::validate(f, Technology::Infiniband, &infos));
    }
    let f = fabric::resolve(design.fabric.as_ref(), Technology::Infiniband, &infos);
    let vl_of = |name: &str| design.classes.iter().position(|c| c.name == name);
    let mut low = Vec::with_capacity(design.table.len());
    for (k, e) in design.table.iter().enumerate() {
        match (vl_of(&e.class), e.weight) {
            (Some(class), Some(weight)) => low.push(TableEntry {
                class: u32::try_from(class).unwrap_or(u32::MAX),
                weight: u32::try_from(weight).unwrap_or(u32::MAX),
            }),
            _ => errors.push(FieldError::new(
                format!("table[{k}]"),
                "names no class of the design or has no weight",
            )),
        }
    }
    let mut high: Vec<TableEntry> = f
        .high
        .iter()
        .filter_map(|e| {
            Some(TableEntry {
                class: u32::try_from(vl_of(&e.class)?).ok()?,
                weight: e.weight,
            })
        })
        .collect();
    if high.is_empty() {
        high.push(TableEntry {
            class: 0,
            weight: 0,
        });
    }
    let classes = design.classes.len();
    let max_vls = MAX_VLS_VALUES
        .into_iter()
        .find(|&v| usize::from(v) >= classes);
    if max_vls.is_none() {
        errors.push(FieldError::new(
            "classes",
            format!("{classes} classes: InfiniBand has at most 15 data VLs"),
        ));
    }
    let (Some(max_vls), true) = (max_vls, errors.is_empty()) else {
        return Err(EngineError::Invalid { errors });
    };
    let iba = IbaConfig {
        high,
        low,
        high_limit: f.high_limit.unwrap_or(0),
    };
    let prefix = f.prefix.unwrap_or(Prefix::Plain);
    let mut qos = from_iba(&iba, prefix, max_vls)?;
    let mut map = [DROP_VL; fabric::SLS];
    for (slot, &vl) in map.iter_mut().zip(f.sl2vl.iter().flatten()) {
        *slot = vl;
    }
    qos.sl2vl = Some(map);
    Ok(qos)
}

/// The complete OpenSM options text of an InfiniBand design: a comment header naming the
/// VLs, `qos TRUE` (OpenSM checks and applies the QoS options only with it), then the
/// options of [`from_design`].
pub fn export_file(design: &Design) -> Result<String, EngineError> {
    let qos = from_design(design)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# qoslab design: InfiniBand VL arbitration, {} entries, {} classes",
        design.table.len(),
        design.classes.len()
    );
    let vls: Vec<String> = design
        .classes
        .iter()
        .enumerate()
        .map(|(i, c)| format!("VL {i} = {}", c.name))
        .collect();
    let _ = writeln!(out, "# {}", vls.join(", "));
    if let Some(map) = &qos.sl2vl {
        let unused: Vec<String> = map
            .iter()
            .enumerate()
            .skip(design.classes.len())
            .map(|(sl, vl)| format!("SL {sl} -> VL {vl}"))
            .collect();
        if !unused.is_empty() {
            let _ = writeln!(out, "# SLs without a class: {}", unused.join(", "));
        }
    }
    out.push_str("qos TRUE\n");
    out.push_str(&to_lines(&qos));
    Ok(out)
}

/// Reads an OpenSM options file back into a table and fabric settings for the classes
/// `names` (VL `i` = class `i`): the first prefix that sets `vlarb_low` gives the table (as
/// OpenSM programs it: VL modulo 15, the first 64 entries), its high table (a single
/// skipped `0:0` entry reads as empty), high limit, SL2VL and the prefix itself. Options
/// the file leaves unset stay unset (defaults).
///
/// Errors: the parse errors (line, entry, rule), a file without `vlarb_low` (path `file`),
/// and every entry whose VL has no class (path `qos_…vlarb_low, entry K`).
pub fn import_design(
    text: &str,
    names: &[String],
) -> Result<(Vec<DesignEntry>, FabricOptions), EngineError> {
    let (found, _) = parse(text)?;
    let Some(qos) = found.iter().find(|q| q.vlarb_low.is_some()) else {
        return Err(EngineError::invalid(
            "file",
            "no vlarb_low option: the low-priority table is the designed table",
        ));
    };
    let p = qos.prefix.as_str();
    let mut errors = Vec::new();
    let mut entries = |option: &str, list: &[VlWeight]| -> Vec<(String, u8)> {
        let mut out = Vec::new();
        for (k, &(vl, weight)) in list.iter().take(super::MAX_VLARB_ENTRIES).enumerate() {
            match names.get(usize::from(vl % 15)) {
                Some(name) => out.push((name.clone(), weight)),
                None => errors.push(FieldError::new(
                    format!("{p}{option}, entry {}", k + 1),
                    format!(
                        "VL {vl} has no class: the requirements have {} classes (VL i = class i)",
                        names.len()
                    ),
                )),
            }
        }
        out
    };
    let low = entries("vlarb_low", qos.vlarb_low.as_deref().unwrap_or_default());
    let high = match qos.vlarb_high.as_deref() {
        None | Some([(0, 0)]) => Vec::new(),
        Some(list) => entries("vlarb_high", list),
    };
    if !errors.is_empty() {
        return Err(EngineError::Invalid { errors });
    }
    let table = low
        .into_iter()
        .map(|(class, w)| DesignEntry {
            class,
            weight: Some(u64::from(w)),
        })
        .collect();
    let fabric = FabricOptions {
        prefix: Some(qos.prefix),
        high: high
            .into_iter()
            .map(|(class, w)| HighEntry {
                class,
                weight: u32::from(w),
            })
            .collect(),
        high_limit: qos.high_limit.map(u32::from),
        sl2vl: qos.sl2vl.map(|m| m.to_vec()),
    };
    Ok((table, fabric))
}
