//! Conversions between the OpenSM options of one prefix and the engine's [`IbaConfig`].

use super::{MAX_VLARB_ENTRIES, MAX_VLS_VALUES, OpenSmQos, Prefix, VlWeight};
use crate::error::{EngineError, FieldError};
use crate::scenario::{IbaConfig, TableEntry};

/// not fit OpenSM: VL above 14, weight above 255, more than 64 entries, high limit above 255,
/// `max_vls` not one of 1, 2, 4, 8, 15.
pub fn from_iba(iba: &IbaConfig, prefix: Prefix, max_vls: u8) -> Result<OpenSmQos, EngineError> {
    let mut errors = Vec::new();
    if !MAX_VLS_VALUES.contains(&max_vls) {
        errors.push(FieldError::new(
            "max_vls",
            format!("max_vls {max_vls} is not one of 1, 2, 4, 8, 15"),
        ));
    }
    let mut table = |name: &str, entries: &[TableEntry]| -> Vec<VlWeight> {
        if entries.len() > MAX_VLARB_ENTRIES {
            errors.push(FieldError::new(
                name,
                format!(
                    "{} entries: an InfiniBand table holds at most {MAX_VLARB_ENTRIES}",
                    entries.len()
                ),
            ));
        }
        let mut out = Vec::new();
        for (k, e) in entries.iter().enumerate() {
            let vl = u8::try_from(e.class).ok().filter(|&v| v <= 14);
            let weight = u8::try_from(e.weight).ok();
            if vl.is_none() {
                errors.push(FieldError::new(
                    format!("{name}[{k}].class"),
                    format!("VL {} is out of range 0-14", e.class),
                ));
            }
            if weight.is_none() {
                errors.push(FieldError::new(
                    format!("{name}[{k}].weight"),
                    format!("weight {} is out of range 0-255", e.weight),
                ));
            }
            if let (Some(vl), Some(weight)) = (vl, weight) {
                out.push((vl, weight));
            }
        }
        out
    };
    let high = table("high", &iba.high);
    let low = table("low", &iba.low);
    let high_limit = u8::try_from(iba.high_limit).ok();
    if high_limit.is_none() {
        errors.push(FieldError::new(
            "high_limit",
            format!("high limit {} is out of range 0-255", iba.high_limit),
        ));
    }
    if !errors.is_empty() {
        return Err(EngineError::Invalid { errors });
    }
    let mut sl2vl = [15u8; 16];
    for (sl, vl) in (0u8..).zip(sl2vl.iter_mut()) {
        if sl < max_vls && sl < 15 {
            *vl = sl;
        }
    }
    Ok(OpenSmQos {
        prefix,
        max_vls: Some(max_vls),
        high_limit,
        vlarb_high: Some(high),
        vlarb_low: Some(low),
        sl2vl: Some(sl2vl),
    })
}

/// The [`IbaConfig`] OpenSM programs for `qos`: VLs taken modulo 15 (VL 15 becomes VL 0) and
/// at most 64 entries per table, as OpenSM does. `sl2vl` and `max_vls` do not enter an
/// `IbaConfig`.
///
/// Errors (path: the option name) when `vlarb_high`, `vlarb_low` or `high_limit` is unset:
/// OpenSM would fall back to the plain `qos_` value or its built-in default, which this
/// conversion does not guess.
pub fn to_iba(qos: &OpenSmQos) -> Result<IbaConfig, EngineError> {
    let p = qos.prefix.as_str();
    let mut errors = Vec::new();
    let unset = |name: &str| {
        FieldError::new(
            format!("{p}{name}"),
            "not set: OpenSM would use the plain qos_ value or its default; set it explicitly",
        )
    };
    let table = |list: &[VlWeight]| -> Vec<TableEntry> {
        list.iter()
            .take(MAX_VLARB_ENTRIES)
            .map(|&(vl, weight)| TableEntry {
                class: u32::from(vl % 15),
                weight: u32::from(weight),
            })
            .collect()
    };
    if qos.vlarb_high.is_none() {
        errors.push(unset("vlarb_high"));
    }
    if qos.vlarb_low.is_none() {
        errors.push(unset("vlarb_low"));
    }
    if qos.high_limit.is_none() {
        errors.push(unset("high_limit"));
    }
    match (&qos.vlarb_high, &qos.vlarb_low, qos.high_limit) {
        (Some(high), Some(low), Some(limit)) => Ok(IbaConfig {
            high: table(high),
            low: table(low),
            high_limit: u32::from(limit),
        }),
        _ => Err(EngineError::Invalid { errors }),
    }
}
