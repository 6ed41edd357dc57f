//! OpenSM's silent traps: options that are valid but do not do what they seem to say.

use super::{Lint, LintKind, MAX_VLARB_ENTRIES, OpenSmQos, Opt, WEIGHT_UNIT_BYTES};

/// The lints of a model, with the weight-below-MTU lint for `mtu_bytes`; paths name the
/// option (`qos_swe_vlarb_low, entry 5`) since a model has no lines.
pub fn lint_with_mtu(qos: &OpenSmQos, mtu_bytes: u32) -> Vec<Lint> {
    lint_at(qos, Some(mtu_bytes), &|opt: Opt| {
        format!("{}{}", qos.prefix.as_str(), opt.suffix())
    })
}

/// The lints of a model without the MTU lint.
pub fn lint(qos: &OpenSmQos) -> Vec<Lint> {
    lint_at(qos, None, &|opt: Opt| {
        format!("{}{}", qos.prefix.as_str(), opt.suffix())
    })
}

pub(super) fn lint_at(
    qos: &OpenSmQos,
    mtu_bytes: Option<u32>,
    place: &dyn Fn(Opt) -> String,
) -> Vec<Lint> {
    let mut out = Vec::new();
    let mut push = |kind, path: String, message: String| {
        out.push(Lint {
            kind,
            path,
            message,
        })
    };
    for opt in Opt::ALL {
        let list = match opt {
            Opt::VlarbHigh => &qos.vlarb_high,
            Opt::VlarbLow => &qos.vlarb_low,
            _ => continue,
        };
        let Some(list) = list else { continue };
        let at = place(opt);
        for (k, &(vl, weight)) in list.iter().enumerate() {
            let entry = k + 1;
            if entry > MAX_VLARB_ENTRIES {
                break;
            }
            if vl == 15 {
                push(
                    LintKind::Vl15InVlarb,
                    format!("{at}, entry {entry}"),
                    format!(
                        "VL 15 is not an arbitrated VL: OpenSM takes the VL modulo 15 and \
                         programs this entry as VL 0 with weight {weight}"
                    ),
                );
            } else if let Some(max) = qos.max_vls.filter(|&m| vl >= m) {
                push(
                    LintKind::VlAboveMaxVls,
                    format!("{at}, entry {entry}"),
                    format!(
                        "VL {vl} is not operational with max_vls {max} (VLs 0-{}): \
                         this entry never sends and its turn is wasted",
                        max - 1
                    ),
                );
            }
            let bytes = u32::from(weight) * WEIGHT_UNIT_BYTES;
            if let Some(mtu) = mtu_bytes.filter(|&m| weight > 0 && bytes < m) {
                push(
                    LintKind::WeightBelowMtu,
                    format!("{at}, entry {entry}"),
                    format!(
                        "weight {weight} ({} bytes) is below one MTU ({mtu} bytes): each turn \
                         still sends a whole packet, so VL {} gets more than its weight says \
                         and the shares do not follow the weights",
                        bytes,
                        vl % 15
                    ),
                );
            }
        }
        if list.len() > MAX_VLARB_ENTRIES {
            push(
                LintKind::TooManyEntries,
                format!("{at}, entry {}", MAX_VLARB_ENTRIES + 1),
                format!(
                    "{} entries listed: OpenSM keeps the first {MAX_VLARB_ENTRIES} and drops \
                     entries {} to {}",
                    list.len(),
                    MAX_VLARB_ENTRIES + 1,
                    list.len()
                ),
            );
        }
    }
    if qos.high_limit == Some(255) {
        let low_entries = qos
            .vlarb_low
            .as_ref()
            .map_or(0, |l| l.iter().filter(|&&(_, w)| w > 0).count());
        if low_entries > 0 {
            push(
                LintKind::HighLimitStarvation,
                place(Opt::HighLimit),
                format!(
                    "high_limit 255 is unbounded: while the high table has packets the low \
                     table ({low_entries} non-zero entries) never gets a turn and can starve"
                ),
            );
        }
    }
    if let (Some(max), Some(map)) = (qos.max_vls, &qos.sl2vl) {
        for (sl, &vl) in map.iter().enumerate() {
            if vl != 15 && vl >= max {
                push(
                    LintKind::VlAboveMaxVls,
                    format!("{}, entry {}", place(Opt::Sl2vl), sl + 1),
                    format!(
                        "SL {sl} maps to VL {vl}, but max_vls {max} operates VLs 0-{} only: \
                         packets on SL {sl} have no operational VL and are dropped",
                        max - 1
                    ),
                );
            }
        }
    }
    out
}
