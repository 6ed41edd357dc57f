//! OpenSM QoS options (`shared/spec/20-table-design.md`, section 4): a typed model of the
//! `qos_*` lines of an OpenSM options file, export to and import from that syntax, lints for
//! OpenSM's silent traps, and conversions to and from [`IbaConfig`]. See `docs/opensm.md`.
//!
//! One [`OpenSmQos`] holds the options of one target prefix (`qos_`, `qos_ca_`, `qos_rtr_`,
//! `qos_sw0_`, `qos_swe_`); an unset option is `None` (OpenSM then falls back to the plain
//! `qos_` value or its built-in default).

use std::fmt::Write as _;

use super::{Design, Technology};
use crate::error::{EngineError, FieldError};
use crate::scenario::{IbaConfig, TableEntry};

/// Entries OpenSM keeps per VL arbitration table (two blocks of 32); the rest are dropped.
pub const MAX_VLARB_ENTRIES: usize = 64;

/// Bytes per VL arbitration weight unit.
pub const WEIGHT_UNIT_BYTES: u32 = 64;

/// Longest options text imported, in bytes (1 MiB; OpenSM's own files are a few kB).
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Most errors one import reports; it stops reading after them.
pub const MAX_ERRORS: usize = 100;

/// Longest piece of the input quoted back in a message, in characters.
const MAX_QUOTED_CHARS: usize = 40;

/// The values `max_vls` may take (1, 2, 4, 8 or 15 operational VLs).
pub const MAX_VLS_VALUES: [u8; 5] = [1, 2, 4, 8, 15];

/// The target type an option applies to (the prefix of its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prefix {
    /// `qos_`: defaults for every target type.
    Plain,
    /// `qos_ca_`: channel adapters.
    Ca,
    /// `qos_rtr_`: routers.
    Rtr,
    /// `qos_sw0_`: switch port 0.
    Sw0,
    /// `qos_swe_`: switch external ports.
    Swe,
}

impl Prefix {
    /// Every prefix, in the order OpenSM documents them.
    pub const ALL: [Prefix; 5] = [
        Prefix::Plain,
        Prefix::Ca,
        Prefix::Rtr,
        Prefix::Sw0,
        Prefix::Swe,
    ];

    /// The prefix as written in option names (`qos_swe_`).
    pub fn as_str(self) -> &'static str {
        match self {
            Prefix::Plain => "qos_",
            Prefix::Ca => "qos_ca_",
            Prefix::Rtr => "qos_rtr_",
            Prefix::Sw0 => "qos_sw0_",
            Prefix::Swe => "qos_swe_",
        }
    }
}

/// One `VL:weight` entry of a VL arbitration list.
pub type VlWeight = (u8, u8);

/// The QoS options of one target prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenSmQos {
    /// Which target type.
    pub prefix: Prefix,
    /// `max_vls`: operational VLs (1, 2, 4, 8 or 15).
    pub max_vls: Option<u8>,
    /// `high_limit`: 0 to 255, in 4 KiB units; 255 = unbounded.
    pub high_limit: Option<u8>,
    /// `vlarb_high`: `(VL, weight)` entries of the high-priority table.
    pub vlarb_high: Option<Vec<VlWeight>>,
    /// `vlarb_low`: `(VL, weight)` entries of the low-priority table.
    pub vlarb_low: Option<Vec<VlWeight>>,
    /// `sl2vl`: the VL of each SL 0 to 15 (VL 15 = drop the SL).
    pub sl2vl: Option<[u8; 16]>,
}

impl OpenSmQos {
    /// A prefix with no option set.
    pub fn empty(prefix: Prefix) -> OpenSmQos {
        OpenSmQos {
            prefix,
            max_vls: None,
            high_limit: None,
            vlarb_high: None,
            vlarb_low: None,
            sl2vl: None,
        }
    }
}

/// The five options of a prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    MaxVls,
    HighLimit,
    VlarbHigh,
    VlarbLow,
    Sl2vl,
}

impl Opt {
    const ALL: [Opt; 5] = [
        Opt::MaxVls,
        Opt::HighLimit,
        Opt::VlarbHigh,
        Opt::VlarbLow,
        Opt::Sl2vl,
    ];

    fn suffix(self) -> &'static str {
        match self {
            Opt::MaxVls => "max_vls",
            Opt::HighLimit => "high_limit",
            Opt::VlarbHigh => "vlarb_high",
            Opt::VlarbLow => "vlarb_low",
            Opt::Sl2vl => "sl2vl",
        }
    }

    fn index(self) -> usize {
        match self {
            Opt::MaxVls => 0,
            Opt::HighLimit => 1,
            Opt::VlarbHigh => 2,
            Opt::VlarbLow => 3,
            Opt::Sl2vl => 4,
        }
    }
}

/// Which silent trap a [`Lint`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LintKind {
    /// VL 15 in a vlarb list: OpenSM takes the VL modulo 15, so the entry serves VL 0.
    Vl15InVlarb,
    /// More than 64 entries in a vlarb list: OpenSM drops the extra.
    TooManyEntries,
    /// A non-zero weight below one MTU: every turn still sends a whole packet.
    WeightBelowMtu,
    /// `high_limit 255` with a low table: the low table can starve.
    HighLimitStarvation,
    /// A VL at or above `max_vls` in a vlarb list or in `sl2vl`.
    VlAboveMaxVls,
}

/// A warning: the options are valid, but OpenSM will not do what they seem to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// Which trap.
    pub kind: LintKind,
    /// Where: `line 3 (qos_swe_vlarb_low), entry 5` (without `line N` when linting a model).
    pub path: String,
    /// What OpenSM will do, in words.
    pub message: String,
}

/// The option lines of `qos`, one per set option, in the order `max_vls`, `high_limit`,
/// `vlarb_high`, `vlarb_low`, `sl2vl`, each ending in a newline.
pub fn to_lines(qos: &OpenSmQos) -> String {
    let p = qos.prefix.as_str();
    let mut out = String::new();
    // An empty table is written as one entry of weight 0 (skipped by the arbiter): OpenSM
    // and this importer read an empty value as a missing one.
    let vlarb = |list: &[VlWeight]| {
        if list.is_empty() {
            return "0:0".to_string();
        }
        list.iter()
            .map(|(vl, w)| format!("{vl}:{w}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    if let Some(v) = qos.max_vls {
        let _ = writeln!(out, "{p}max_vls {v}");
    }
    if let Some(v) = qos.high_limit {
        let _ = writeln!(out, "{p}high_limit {v}");
    }
    if let Some(list) = &qos.vlarb_high {
        let _ = writeln!(out, "{p}vlarb_high {}", vlarb(list));
    }
    if let Some(list) = &qos.vlarb_low {
        let _ = writeln!(out, "{p}vlarb_low {}", vlarb(list));
    }
    if let Some(map) = &qos.sl2vl {
        let values: Vec<String> = map.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "{p}sl2vl {}", values.join(","));
    }
    out
}

/// The lines of several prefixes, in order.
pub fn to_file(qos: &[OpenSmQos]) -> String {
    qos.iter().map(to_lines).collect()
}

/// Parse an OpenSM options file; see [`parse_with_mtu`] (this one skips the MTU lint).
pub fn parse(text: &str) -> Result<(Vec<OpenSmQos>, Vec<Lint>), EngineError> {
    parse_with_mtu(text, None)
}

/// Parse the `qos_*` table options of an OpenSM options file: one [`OpenSmQos`] per prefix
/// present, in order of first appearance, and the lints of each (with the weight-below-MTU
/// lint when `mtu_bytes` is given).
///
/// Blank lines, lines starting with `#` and other options (`qos`, `qos_policy_file`, routing
/// options and so on) are ignored. A repeated option replaces the earlier one, as in OpenSM.
/// OpenSM's own "unset" markers (`max_vls 0`, `high_limit -1`, `(null)`, as written by
/// `opensm -c`) read as `None`.
///
/// Errors: every out-of-range or malformed value, each with the path
/// `line N (option)` or `line N (option), entry K`.
pub fn parse_with_mtu(
    text: &str,
    mtu_bytes: Option<u32>,
) -> Result<(Vec<OpenSmQos>, Vec<Lint>), EngineError> {
    let text = crate::text::strip_bom(text);
    if text.len() > MAX_TEXT_BYTES {
        return Err(EngineError::invalid(
            "file",
            format!(
                "the options text is {} bytes, more than the limit of {MAX_TEXT_BYTES}",
                text.len()
            ),
        ));
    }
    let mut found: Vec<(OpenSmQos, [usize; 5])> = Vec::new();
    let mut errors = Vec::new();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        if errors.len() >= MAX_ERRORS {
            break;
        }
        last_line = i + 1;
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = match line.split_once(char::is_whitespace) {
            Some((k, v)) => (k, v.trim()),
            None => (line, ""),
        };
        let Some((prefix, opt)) = split_key(key) else {
            continue;
        };
        let at = format!("line {line_no} ({key})");
        let slot = match found.iter().position(|(q, _)| q.prefix == prefix) {
            Some(s) => s,
            None => {
                found.push((OpenSmQos::empty(prefix), [0; 5]));
                found.len() - 1
            }
        };
        if value.is_empty() {
            errors.push(FieldError::new(at, "missing value"));
            continue;
        }
        let before = errors.len();
        let (qos, lines) = &mut found[slot];
        match opt {
            Opt::MaxVls => {
                if let Some(v) = parse_max_vls(value, &at, &mut errors) {
                    qos.max_vls = v;
                }
            }
            Opt::HighLimit => {
                if let Some(v) = parse_high_limit(value, &at, &mut errors) {
                    qos.high_limit = v;
                }
            }
            Opt::VlarbHigh | Opt::VlarbLow => {
                let list = if value == "(null)" {
                    None
                } else {
                    Some(parse_vlarb(value, &at, &mut errors))
                };
                if opt == Opt::VlarbHigh {
                    qos.vlarb_high = list;
                } else {
                    qos.vlarb_low = list;
                }
            }
            Opt::Sl2vl => {
                if value == "(null)" {
                    qos.sl2vl = None;
                } else if let Some(map) = parse_sl2vl(value, &at, &mut errors) {
                    qos.sl2vl = Some(map);
                }
            }
        }
        if errors.len() == before {
            lines[opt.index()] = line_no;
        }
    }
    if errors.len() >= MAX_ERRORS {
        errors.truncate(MAX_ERRORS);
        errors.push(FieldError::new(
            format!("line {last_line}"),
            format!("stopped reading after {MAX_ERRORS} errors; fix these and import again"),
        ));
    }
    if !errors.is_empty() {
        return Err(EngineError::Invalid { errors });
    }
    let mut lints = Vec::new();
    for (qos, lines) in &found {
        let place = |opt: Opt| {
            let key = format!("{}{}", qos.prefix.as_str(), opt.suffix());
            match lines[opt.index()] {
                0 => key,
                n => format!("line {n} ({key})"),
            }
        };
        lints.extend(lint_at(qos, mtu_bytes, &place));
    }
    Ok((found.into_iter().map(|(q, _)| q).collect(), lints))
}

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

fn lint_at(qos: &OpenSmQos, mtu_bytes: Option<u32>, place: &dyn Fn(Opt) -> String) -> Vec<Lint> {
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

fn split_key(key: &str) -> Option<(Prefix, Opt)> {
    // Longest prefixes first: `qos_` is a prefix of all the others.
    for prefix in [
        Prefix::Ca,
        Prefix::Rtr,
        Prefix::Sw0,
        Prefix::Swe,
        Prefix::Plain,
    ] {
        if let Some(rest) = key.strip_prefix(prefix.as_str()) {
            if let Some(opt) = Opt::ALL.into_iter().find(|o| o.suffix() == rest) {
                return Some((prefix, opt));
            }
        }
    }
    None
}

/// A non-negative integer as OpenSM's `strtoul(.., 0)` reads it, refusing the octal trap:
/// decimal or `0x` hex; a leading `0` followed by digits is an error (OpenSM would read octal).
fn parse_number(text: &str) -> Result<u32, String> {
    let text = text.trim();
    let q = quoted(text);
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        // Hex digits only: `from_str_radix` would also take a sign (`0x+5`), OpenSM does not.
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("{q} is not a number"));
        }
        return u32::from_str_radix(hex, 16).map_err(|_| format!("{q} is too large"));
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{q} is not a number"));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(format!(
            "{q} has a leading 0: OpenSM reads it as octal; write it without the 0"
        ));
    }
    text.parse::<u32>().map_err(|_| format!("{q} is too large"))
}

/// `text` in backquotes for a message, cut to [`MAX_QUOTED_CHARS`] characters.
fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("`{head}...` ({} bytes)", text.len())
    } else {
        format!("`{head}`")
    }
}

fn parse_max_vls(value: &str, at: &str, errors: &mut Vec<FieldError>) -> Option<Option<u8>> {
    match parse_number(value) {
        Ok(0) => Some(None),
        Ok(v) if MAX_VLS_VALUES.iter().any(|&m| u32::from(m) == v) => Some(u8::try_from(v).ok()),
        Ok(v) => {
            errors.push(FieldError::new(
                at,
                format!("max_vls {v} is not one of 1, 2, 4, 8, 15"),
            ));
            None
        }
        Err(e) => {
            errors.push(FieldError::new(
                at,
                format!("max_vls must be one of 1, 2, 4, 8, 15: {e}"),
            ));
            None
        }
    }
}

fn parse_high_limit(value: &str, at: &str, errors: &mut Vec<FieldError>) -> Option<Option<u8>> {
    if value == "-1" {
        return Some(None);
    }
    match parse_number(value) {
        Ok(v) => match u8::try_from(v) {
            Ok(v) => Some(Some(v)),
            Err(_) => {
                errors.push(FieldError::new(
                    at,
                    format!("high_limit {v} is out of range 0-255"),
                ));
                None
            }
        },
        Err(e) => {
            errors.push(FieldError::new(
                at,
                format!("high_limit must be 0-255: {e}"),
            ));
            None
        }
    }
}

fn parse_vlarb(value: &str, at: &str, errors: &mut Vec<FieldError>) -> Vec<VlWeight> {
    let mut list = Vec::new();
    for (k, item) in value.split(',').enumerate() {
        if errors.len() > MAX_ERRORS {
            break;
        }
        let path = format!("{at}, entry {}", k + 1);
        let item = item.trim();
        let Some((vl, weight)) = item.split_once(':') else {
            errors.push(FieldError::new(
                path,
                format!("{} is not `VL:weight`", quoted(item)),
            ));
            continue;
        };
        let vl = match parse_number(vl) {
            Ok(v) if v <= 15 => u8::try_from(v).ok(),
            Ok(v) => {
                errors.push(FieldError::new(
                    path.clone(),
                    format!("VL {v} is out of range 0-15"),
                ));
                None
            }
            Err(e) => {
                errors.push(FieldError::new(
                    path.clone(),
                    format!("VL must be 0-15: {e}"),
                ));
                None
            }
        };
        let weight = match parse_number(weight) {
            Ok(w) => match u8::try_from(w) {
                Ok(w) => Some(w),
                Err(_) => {
                    errors.push(FieldError::new(
                        path,
                        format!("weight {w} is out of range 0-255"),
                    ));
                    None
                }
            },
            Err(e) => {
                errors.push(FieldError::new(path, format!("weight must be 0-255: {e}")));
                None
            }
        };
        if let (Some(vl), Some(weight)) = (vl, weight) {
            list.push((vl, weight));
        }
    }
    list
}

fn parse_sl2vl(value: &str, at: &str, errors: &mut Vec<FieldError>) -> Option<[u8; 16]> {
    let items: Vec<&str> = value.split(',').take(MAX_ERRORS + 17).collect();
    let count = value.split(',').count();
    let mut map = [0u8; 16];
    let mut ok = true;
    if count != 16 {
        errors.push(FieldError::new(
            at,
            format!("sl2vl needs 16 VLs (one per SL 0-15), found {count}"),
        ));
        ok = false;
    }
    for (k, item) in items.iter().enumerate() {
        if errors.len() > MAX_ERRORS {
            break;
        }
        let path = format!("{at}, entry {}", k + 1);
        match parse_number(item) {
            Ok(v) if v <= 15 => {
                if let (Some(slot), Ok(v)) = (map.get_mut(k), u8::try_from(v)) {
                    *slot = v;
                }
            }
            Ok(v) => {
                errors.push(FieldError::new(
                    path,
                    format!("VL {v} is out of range 0-15 (15 = drop)"),
                ));
                ok = false;
            }
            Err(e) => {
                errors.push(FieldError::new(path, format!("VL must be 0-15: {e}")));
                ok = false;
            }
        }
    }
    ok.then_some(map)
}

/// The OpenSM options for an [`IbaConfig`] on ports with `max_vls` operational VLs: the two
/// tables as they are, the high limit, and `sl2vl` mapping SL `s` to VL `s` for
/// `s < max_vls` (and `s < 15`) and to VL 15 (drop) otherwise, so that no SL silently shares
/// a VL it was not designed for.
///
/// Errors (paths `high[k].class`, `low[k].weight`, `high_limit`, `max_vls`) when a value does
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

/// The OpenSM options of an InfiniBand table design: the design's entries (class `i` of the
/// requirements = VL `i`) as the low table; a high table whose only entry, `0:0`, has
/// weight 0 and is skipped (written out, because an absent `vlarb_high` would leave
/// OpenSM's default high table in force); high limit 0; `max_vls` the smallest allowed
/// value that covers the classes; SL `i` mapped to VL `i` for each class `i`, the other SLs
/// to VL 15 (drop).
pub fn from_design(design: &Design, prefix: Prefix) -> Result<OpenSmQos, EngineError> {
    if design.technology != Technology::Infiniband {
        return Err(EngineError::invalid(
            "technology",
            format!(
                "OpenSM options describe InfiniBand VL arbitration: design with \"technology\": \"infiniband\" (got {})",
                serde_json::to_string(&design.technology).unwrap_or_default()
            ),
        ));
    }
    let vl_of = |name: &str| design.classes.iter().position(|c| c.name == name);
    let mut low = Vec::with_capacity(design.table.len());
    for (k, e) in design.table.iter().enumerate() {
        let (Some(class), Some(weight)) = (vl_of(&e.class), e.weight) else {
            return Err(EngineError::invalid(
                format!("table[{k}]"),
                "names no class of the design or has no weight",
            ));
        };
        low.push(TableEntry {
            class: class as u32,
            weight: u32::try_from(weight).unwrap_or(u32::MAX),
        });
    }
    let classes = design.classes.len();
    let max_vls = MAX_VLS_VALUES
        .into_iter()
        .find(|&v| usize::from(v) >= classes)
        .ok_or_else(|| {
            EngineError::invalid(
                "classes",
                format!("{classes} classes: InfiniBand has at most 15 data VLs"),
            )
        })?;
    let iba = IbaConfig {
        high: vec![TableEntry {
            class: 0,
            weight: 0,
        }],
        low,
        high_limit: 0,
    };
    let mut qos = from_iba(&iba, prefix, max_vls)?;
    // SLs without a class are dropped (VL 15) rather than sent to a VL with no entries.
    if let Some(map) = qos.sl2vl.as_mut() {
        for vl in map.iter_mut().skip(classes) {
            *vl = 15;
        }
    }
    Ok(qos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(text: &str) -> Vec<FieldError> {
        match parse(text) {
            Err(EngineError::Invalid { errors }) => errors,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn key_split_picks_longest_prefix() {
        assert_eq!(
            split_key("qos_swe_vlarb_low"),
            Some((Prefix::Swe, Opt::VlarbLow))
        );
        assert_eq!(split_key("qos_max_vls"), Some((Prefix::Plain, Opt::MaxVls)));
        assert_eq!(split_key("qos_policy_file"), None);
        assert_eq!(split_key("qos"), None);
    }

    #[test]
    fn numbers_refuse_octal_and_accept_hex() {
        assert_eq!(parse_number("64"), Ok(64));
        assert_eq!(parse_number("0x40"), Ok(64));
        assert_eq!(parse_number("0"), Ok(0));
        assert!(parse_number("064").is_err());
        assert!(parse_number("-1").is_err());
        assert!(parse_number("").is_err());
    }

    #[test]
    fn opensm_unset_markers_read_as_none() {
        let (q, lints) = parse(
            "qos_max_vls 0\nqos_high_limit -1\nqos_vlarb_high (null)\nqos_vlarb_low (null)\nqos_sl2vl (null)\n",
        )
        .expect("parses");
        assert_eq!(q, vec![OpenSmQos::empty(Prefix::Plain)]);
        assert!(lints.is_empty());
    }

    #[test]
    fn later_option_wins() {
        let (q, _) = parse("qos_ca_max_vls 8\nqos_ca_max_vls 4\n").expect("parses");
        assert_eq!(q[0].max_vls, Some(4));
    }

    #[test]
    fn missing_value_is_an_error() {
        assert_eq!(
            invalid("qos_swe_sl2vl\n"),
            vec![FieldError::new("line 1 (qos_swe_sl2vl)", "missing value")]
        );
    }
}
