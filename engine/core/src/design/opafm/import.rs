//! Reading an `opafm.xml` (or a fragment of one) back: the enabled QOSGroups become classes,
//! their `Bandwidth` the shares and `HighPriority` the high table. Every problem names the
//! line, the element and the rule.

use quick_xml::Reader;
use quick_xml::events::Event;

use super::{ADMIN_VF, MAX_GROUPS, MAX_NAME_CHARS, OpaGroup};
use crate::design::fabric::{FabricOptions, HighEntry};
use crate::design::{ClassRequirement, Requirements, Technology};
use crate::error::{EngineError, FieldError};

/// Longest text imported (1 MiB; the packaged default is 140 kB).
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// One QOSGroup as read, with where it starts.
#[derive(Default)]
struct Raw {
    line: usize,
    name: Option<String>,
    enable: Option<String>,
    high: Option<String>,
    bandwidth: Option<(usize, String)>,
    base_sl: Option<(usize, String)>,
}

fn line_of(text: &str, pos: u64) -> usize {
    let pos = usize::try_from(pos).unwrap_or(usize::MAX).min(text.len());
    text.as_bytes()[..pos]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The enabled QOSGroups of an `opafm.xml` text, in document order, and the names of the
/// groups the enabled VirtualFabrics use.
///
/// Rules (each error: `line N, QOSGroup "name" > Element` and the rule): well-formed XML;
/// `Name` present, 1-64 characters, unique; `Enable` and `HighPriority` 0 or 1; `Bandwidth`
/// a whole percentage 1-100 (`N%`), required unless `HighPriority` is 1; `BaseSL` 0-15,
/// unique; at most 16 enabled groups; their `Bandwidth` adds up to at most 100%; an enabled
/// VirtualFabric's `QOSGroup` names an enabled group; at least one enabled group.
pub fn import(text: &str) -> Result<Vec<OpaGroup>, EngineError> {
    let text = crate::text::strip_bom(text);
    if text.len() > MAX_TEXT_BYTES {
        return Err(EngineError::invalid(
            "file",
            format!(
                "the file is {} bytes, more than the limit of {MAX_TEXT_BYTES}",
                text.len()
            ),
        ));
    }
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<String> = Vec::new();
    let mut raws: Vec<Raw> = Vec::new();
    let mut vfs: Vec<Vf> = Vec::new();
    let mut content = String::new();
    loop {
        let at = line_of(text, reader.buffer_position());
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                return Err(EngineError::invalid(
                    format!("line {}", line_of(text, reader.error_position())),
                    format!("not well-formed XML: {e}"),
                ));
            }
        };
        match event {
            Event::Start(e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                match (stack.last().map(String::as_str), name.as_str()) {
                    (Some("QOSGroups"), "QOSGroup") => raws.push(Raw {
                        line: at,
                        ..Raw::default()
                    }),
                    (Some("VirtualFabrics"), "VirtualFabric") => vfs.push((at, None, None, None)),
                    _ => {}
                }
                stack.push(name);
                content.clear();
            }
            Event::Text(t) => content.push_str(&t.decode().unwrap_or_default()),
            Event::CData(t) => content.push_str(&t.decode().unwrap_or_default()),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => Some(c.to_string()),
                    _ => match r.decode().unwrap_or_default().as_ref() {
                        "amp" => Some("&".into()),
                        "lt" => Some("<".into()),
                        "gt" => Some(">".into()),
                        "quot" => Some("\"".into()),
                        "apos" => Some("'".into()),
                        _ => None,
                    },
                };
                let Some(s) = resolved else {
                    return Err(EngineError::invalid(
                        format!("line {at}"),
                        "unknown entity reference: only &amp; &lt; &gt; &quot; &apos; and character references are read",
                    ));
                };
                content.push_str(&s);
            }
            Event::End(_) => {
                let name = stack.pop().unwrap_or_default();
                let value = content.trim().to_string();
                let parent = stack.last().map(String::as_str);
                let grand = stack
                    .len()
                    .checked_sub(2)
                    .and_then(|i| stack.get(i))
                    .map(String::as_str);
                if parent == Some("QOSGroup")
                    && grand == Some("QOSGroups")
                    && let Some(raw) = raws.last_mut()
                {
                    match name.as_str() {
                        "Name" => raw.name = Some(value),
                        "Enable" => raw.enable = Some(value),
                        "HighPriority" => raw.high = Some(value),
                        "Bandwidth" => raw.bandwidth = Some((at, value)),
                        "BaseSL" => raw.base_sl = Some((at, value)),
                        _ => {}
                    }
                } else if parent == Some("VirtualFabric")
                    && grand == Some("VirtualFabrics")
                    && let Some(vf) = vfs.last_mut()
                {
                    match name.as_str() {
                        "Name" => vf.1 = Some(value),
                        "Enable" => vf.2 = Some(value),
                        "QOSGroup" => vf.3 = Some(value),
                        _ => {}
                    }
                }
                content.clear();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    check(raws, &vfs)
}

/// A VirtualFabric as read: its line, `Name`, `Enable` and `QOSGroup`.
type Vf = (usize, Option<String>, Option<String>, Option<String>);

fn check(raws: Vec<Raw>, vfs: &[Vf]) -> Result<Vec<OpaGroup>, EngineError> {
    let mut errors = Vec::new();
    let mut groups: Vec<OpaGroup> = Vec::new();
    let mut sl_lines: Vec<(u8, usize)> = Vec::new();
    for (k, raw) in raws.into_iter().enumerate() {
        let label = match &raw.name {
            Some(n) => format!("QOSGroup \"{n}\""),
            None => format!("QOSGroup {}", k + 1),
        };
        let mut err = |line: usize, element: &str, rule: String| {
            errors.push(FieldError::new(
                format!("line {line}, {label} > {element}"),
                rule,
            ));
        };
        let flag = |v: &Option<String>| {
            v.as_deref()
                .map(|s| s.parse::<u8>().ok().filter(|&b| b <= 1))
        };
        match flag(&raw.enable) {
            Some(None) => err(raw.line, "Enable", "must be 0 or 1".into()),
            Some(Some(0)) | None => continue, // disabled (the FM's default): not a class
            Some(Some(_)) => {}
        }
        let high = match flag(&raw.high) {
            Some(None) => {
                err(raw.line, "HighPriority", "must be 0 or 1".into());
                false
            }
            Some(Some(b)) => b == 1,
            None => false,
        };
        let name = raw.name.clone().unwrap_or_default();
        if raw.name.is_none() {
            err(raw.line, "Name", "every QOSGroup needs a Name".into());
        } else if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            err(
                raw.line,
                "Name",
                format!("must be 1 to {MAX_NAME_CHARS} characters"),
            );
        } else if name == ADMIN_VF {
            err(
                raw.line,
                "Name",
                "\"Admin\" is the administration VirtualFabric's name, not a class".into(),
            );
        } else if groups.iter().any(|g| g.name == name) {
            err(
                raw.line,
                "Name",
                format!("\"{name}\" names an earlier QOSGroup too"),
            );
        }
        let bandwidth = match &raw.bandwidth {
            Some((line, v)) => {
                let pct = v
                    .strip_suffix('%')
                    .and_then(|n| n.trim().parse::<u32>().ok())
                    .filter(|p| (1..=100).contains(p));
                if pct.is_none() {
                    err(
                        *line,
                        "Bandwidth",
                        format!("must be a whole percentage 1-100%, e.g. 25% (got {v})"),
                    );
                }
                pct
            }
            None if !high => {
                err(
                    raw.line,
                    "Bandwidth",
                    "needed unless HighPriority is 1: it is the class's share".into(),
                );
                None
            }
            None => None,
        };
        let base_sl = match &raw.base_sl {
            Some((line, v)) => {
                let sl = v.parse::<u8>().ok().filter(|&s| s <= 15);
                match sl {
                    None => err(*line, "BaseSL", format!("must be 0-15 (got {v})")),
                    Some(s) => {
                        if let Some((_, first)) = sl_lines.iter().find(|(x, _)| *x == s) {
                            err(
                                *line,
                                "BaseSL",
                                format!("SL {s} is the BaseSL of the QOSGroup at line {first} too"),
                            );
                        }
                        sl_lines.push((s, *line));
                    }
                }
                sl
            }
            None => None,
        };
        groups.push(OpaGroup {
            name,
            high_priority: high,
            bandwidth_percent: if high { None } else { bandwidth },
            base_sl,
        });
    }
    if groups.is_empty() && errors.is_empty() {
        errors.push(FieldError::new(
            "QOSGroups",
            "no enabled QOSGroup (<Enable>1</Enable>): nothing to import",
        ));
    }
    if groups.len() > MAX_GROUPS {
        errors.push(FieldError::new(
            "QOSGroups",
            format!(
                "{} enabled QOSGroups: qoslab reads at most {MAX_GROUPS} (one per BaseSL 0-15)",
                groups.len()
            ),
        ));
    }
    let total: u32 = groups.iter().filter_map(|g| g.bandwidth_percent).sum();
    if total > 100 {
        errors.push(FieldError::new(
            "QOSGroups",
            format!("the Bandwidth of the enabled QOSGroups adds up to {total}%, more than 100%"),
        ));
    }
    for (line, name, enable, group) in vfs {
        let enabled = enable.as_deref() == Some("1");
        if let (true, Some(g)) = (enabled, group)
            && !groups.iter().any(|x| &x.name == g)
        {
            errors.push(FieldError::new(
                format!(
                    "line {line}, VirtualFabric \"{}\" > QOSGroup",
                    name.as_deref().unwrap_or("?")
                ),
                format!("\"{g}\" is not an enabled QOSGroup"),
            ));
        }
    }
    if errors.is_empty() {
        Ok(groups)
    } else {
        Err(EngineError::Invalid { errors })
    }
}

/// Requirements for imported groups, ordered by `BaseSL` (groups without one after, in
/// document order): technology Omni-Path, the table size, GMTU, `w`, `k` and link rate of
/// `base`; each class keeps the distance and MTU of the `base` class of the same name (a new
/// class: no distance, MTU = GMTU); shares are the percentages, the high-priority groups
/// sharing what the others leave (the FM ignores their bandwidth) evenly; they form the high
/// table (weight 255 each: the FM programs the tables itself).
pub fn requirements_from(
    groups: &[OpaGroup],
    base: &Requirements,
) -> Result<Requirements, EngineError> {
    let mut order: Vec<&OpaGroup> = groups.iter().collect();
    order.sort_by_key(|g| g.base_sl.map_or(u16::MAX, u16::from));
    let low: u32 = groups.iter().filter_map(|g| g.bandwidth_percent).sum();
    let highs = groups.iter().filter(|g| g.high_priority).count();
    let rest = f64::from(100u32.saturating_sub(low)) / 100.0;
    if highs > 0 && rest <= 0.0 {
        return Err(EngineError::invalid(
            "QOSGroups",
            "the bandwidth-shared groups take 100%: nothing is left to give the high-priority groups a share",
        ));
    }
    let classes = order
        .iter()
        .map(|g| {
            let old = base.classes.iter().find(|c| c.name == g.name);
            ClassRequirement {
                name: g.name.clone(),
                distance: old.and_then(|c| c.distance),
                mtu_bytes: old.map_or(base.gmtu_bytes, |c| c.mtu_bytes),
                share: match g.bandwidth_percent {
                    Some(p) => f64::from(p) / 100.0,
                    None => rest / highs as f64,
                },
            }
        })
        .collect();
    let high: Vec<HighEntry> = order
        .iter()
        .filter(|g| g.high_priority)
        .map(|g| HighEntry {
            class: g.name.clone(),
            weight: 255,
        })
        .collect();
    Ok(Requirements {
        technology: Technology::Omnipath,
        entries: base.entries,
        gmtu_bytes: base.gmtu_bytes,
        w: base.w,
        k: base.k,
        classes,
        link_rate_gbps: base.link_rate_gbps,
        switch_ports: base.switch_ports,
        fabric: (!high.is_empty()).then_some(FabricOptions {
            high,
            ..FabricOptions::default()
        }),
    })
}
