//! Reading OpenSM option lines: the `qos_*` table options of each prefix, every malformed or
//! out-of-range value reported with its line, option and entry.

use super::lint::lint_at;
use super::{Lint, MAX_ERRORS, MAX_TEXT_BYTES, MAX_VLS_VALUES, OpenSmQos, Opt, Prefix, VlWeight};
use crate::error::{EngineError, FieldError};

/// Longest piece of the input quoted back in a message, in characters.
const MAX_QUOTED_CHARS: usize = 40;

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
