//! The Omni-Path fabric manager's configuration (`opafm.xml` of Debian's `opa-fm`) for a
//! design: one QOSGroup per class with its bandwidth share in whole percent (or
//! `HighPriority` for the classes in the design's high table), its `BaseSL`, and one
//! VirtualFabric per class using it, plus the Admin VirtualFabric the FM requires. As a
//! fragment (the `<QOSGroups>` and `<VirtualFabrics>` elements) or as a complete file built
//! on `template.xml`. Import reads such a file back. See `docs/omnipath.md`.
//!
//! What the FM can express of a table design: the bandwidth shares and strict priority.
//! What it cannot: entry placement (distances), weights per entry, deficits; the FM builds
//! its own VL arbitration tables from the percentages. Keeping the table itself needs the
//! Omni-Path DTable adaptation (a dedicated DTable next to each output's SL arbiter, see
//! `design/omnipath_mapping.rs`), which no FM setting configures; the exported files say so
//! in their summary comment.

mod import;

use std::fmt::Write as _;

pub use import::{import, requirements_from};

use super::Design;
use crate::error::{EngineError, FieldError};

/// Service levels a QOSGroup's `BaseSL` may name (0-15).
pub const MAX_GROUPS: usize = 16;
/// The VirtualFabric the FM requires for subnet administration (PKey 0x7fff).
pub const ADMIN_VF: &str = "Admin";
/// Longest QOSGroup or VirtualFabric name the FM takes.
pub const MAX_NAME_CHARS: usize = 64;

/// The complete file's template (see its header comment and `docs/omnipath.md`).
const TEMPLATE: &str = include_str!("template.xml");

/// One QOSGroup: a class of the design.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaGroup {
    /// Group name (the class name).
    pub name: String,
    /// Strict precedence over the bandwidth-shared groups.
    pub high_priority: bool,
    /// Share of the link in whole percent, 1-100 (`None` for high-priority groups, whose
    /// bandwidth the FM ignores).
    pub bandwidth_percent: Option<u32>,
    /// The service level of the class.
    pub base_sl: Option<u8>,
}

/// The groups of a design: class `i` on SL `i`; the classes in `fabric.high` get
/// `HighPriority`; the others a bandwidth share in whole percent of the link, from the
/// table's weights (entries for tables without weights), by largest remainder over all
/// classes so that the percentages of all classes add up to 100 and each is at least 1.
///
/// Errors: more than 16 classes (`classes`), a class named `Admin` (`classes[i].name`), a
/// table entry naming no class (`table[k]`).
pub fn groups(design: &Design) -> Result<Vec<OpaGroup>, EngineError> {
    let n = design.classes.len();
    let mut errors = Vec::new();
    if n > MAX_GROUPS {
        errors.push(FieldError::new(
            "classes",
            format!("the Omni-Path FM gives each QOSGroup one BaseSL 0-15: at most {MAX_GROUPS} classes (got {n})"),
        ));
    }
    for (i, c) in design.classes.iter().enumerate() {
        if c.name == ADMIN_VF {
            errors.push(FieldError::new(
                format!("classes[{i}].name"),
                "\"Admin\" is the VirtualFabric the FM requires for subnet administration: rename the class",
            ));
        }
    }
    let mut totals = vec![0u64; n];
    for (k, e) in design.table.iter().enumerate() {
        match design.classes.iter().position(|c| c.name == e.class) {
            Some(i) => totals[i] += e.weight.unwrap_or(1),
            None => errors.push(FieldError::new(
                format!("table[{k}]"),
                format!("\"{}\" is not a class of the design", e.class),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(EngineError::Invalid { errors });
    }
    let high: Vec<&str> = design
        .fabric
        .iter()
        .flat_map(|f| f.high.iter().map(|h| h.class.as_str()))
        .collect();
    let percents = percents(&totals);
    Ok(design
        .classes
        .iter()
        .zip(percents)
        .enumerate()
        .map(|(i, (c, pct))| {
            let high_priority = high.contains(&c.name.as_str());
            OpaGroup {
                name: c.name.clone(),
                high_priority,
                bandwidth_percent: (!high_priority).then_some(pct),
                base_sl: u8::try_from(i).ok(),
            }
        })
        .collect())
}

/// Whole percentages of `totals` adding up to 100, each at least 1 (largest remainder; ties
/// to the earlier class). `totals` has at most 100 entries.
pub fn percents(totals: &[u64]) -> Vec<u32> {
    let sum: u64 = totals.iter().sum();
    if totals.is_empty() {
        return Vec::new();
    }
    let quota = |i: usize| -> f64 {
        if sum == 0 {
            100.0 / totals.len() as f64
        } else {
            100.0 * totals[i] as f64 / sum as f64
        }
    };
    let mut pct: Vec<u32> = (0..totals.len())
        .map(|i| (quota(i).floor() as u32).max(1))
        .collect();
    let mut given: u32 = pct.iter().sum();
    while given < 100 {
        let i = (0..pct.len())
            .max_by(|&a, &b| {
                (quota(a) - f64::from(pct[a]))
                    .total_cmp(&(quota(b) - f64::from(pct[b])))
                    .then(b.cmp(&a))
            })
            .unwrap_or(0);
        pct[i] += 1;
        given += 1;
    }
    while given > 100 {
        let Some(i) = (0..pct.len()).filter(|&i| pct[i] > 1).max_by(|&a, &b| {
            (f64::from(pct[a]) - quota(a))
                .total_cmp(&(f64::from(pct[b]) - quota(b)))
                .then(b.cmp(&a))
        }) else {
            break;
        };
        pct[i] -= 1;
        given -= 1;
    }
    pct
}

/// `text` with XML's five special characters escaped.
fn escape(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

/// The group the Admin VirtualFabric uses: the first high-priority group, else the class
/// with the most table entries (the network-control class of the spec), first on ties.
fn admin_group<'a>(design: &Design, groups: &'a [OpaGroup]) -> Option<&'a OpaGroup> {
    groups.iter().find(|g| g.high_priority).or_else(|| {
        let count = |g: &OpaGroup| design.table.iter().filter(|e| e.class == g.name).count();
        groups
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| count(a).cmp(&count(b)).then(j.cmp(i)))
            .map(|(_, g)| g)
    })
}

/// The `<QOSGroups>` and `<VirtualFabrics>` elements (indented for `<Common>`).
fn elements(design: &Design, groups: &[OpaGroup]) -> String {
    let mut out = String::from("  <QOSGroups>\n");
    for g in groups {
        let _ = writeln!(out, "    <QOSGroup>");
        let _ = writeln!(out, "      <Name>{}</Name>", escape(&g.name));
        let _ = writeln!(out, "      <Enable>1</Enable>");
        let _ = writeln!(
            out,
            "      <HighPriority>{}</HighPriority>",
            u8::from(g.high_priority)
        );
        if let Some(p) = g.bandwidth_percent {
            let _ = writeln!(out, "      <Bandwidth>{p}%</Bandwidth>");
        }
        if let Some(sl) = g.base_sl {
            let _ = writeln!(out, "      <BaseSL>{sl}</BaseSL>");
        }
        let _ = writeln!(out, "    </QOSGroup>");
    }
    out.push_str("  </QOSGroups>\n  <VirtualFabrics>\n");
    if let Some(admin) = admin_group(design, groups) {
        let _ = write!(
            out,
            "    <VirtualFabric>\n      <Name>{ADMIN_VF}</Name>\n      <Enable>1</Enable>\n      \
             <PKey>0x7fff</PKey>\n      <Security>1</Security>\n      <QOSGroup>{}</QOSGroup>\n      \
             <Member>HFIDirectConnect</Member>\n      <Member>AllMgmtAllowed</Member>\n      \
             <Member>AllSWE0s</Member>\n      <LimitedMember>All</LimitedMember>\n      \
             <Application>SA</Application>\n      <Application>PA</Application>\n      \
             <Application>PM</Application>\n    </VirtualFabric>\n",
            escape(&admin.name)
        );
    }
    for (i, g) in groups.iter().enumerate() {
        let name = escape(&g.name);
        let _ = write!(
            out,
            "    <VirtualFabric>\n      <Name>{name}</Name>\n      <Enable>1</Enable>\n      \
             <PKey>0x{:04x}</PKey>\n      <QOSGroup>{name}</QOSGroup>\n      \
             <Member>All</Member>\n      <Application>AllOthers</Application>\n    </VirtualFabric>\n",
            i + 1
        );
    }
    out.push_str("  </VirtualFabrics>\n");
    out
}

/// One line about the design (safe inside an XML comment: no `--`).
fn summary(design: &Design, groups: &[OpaGroup]) -> String {
    let parts: Vec<String> = groups
        .iter()
        .map(|g| match g.bandwidth_percent {
            Some(p) => format!("SL {} {p}%", g.base_sl.unwrap_or(0)),
            None => format!("SL {} high priority", g.base_sl.unwrap_or(0)),
        })
        .collect();
    format!(
        "({} table, {} entries, {} classes): {}; the FM keeps only these shares: the entry placement, weights and deficits of the table need the Omni-Path DTable adaptation (a dedicated table next to each output's SL arbiter), which opafm.xml does not configure",
        design.technology.label(),
        design.table.len(),
        groups.len(),
        parts.join(", ")
    )
}

/// The fragment: a comment, then the `<QOSGroups>` and `<VirtualFabrics>` elements to put in
/// `<Common>` of an `opafm.xml` (replacing its VirtualFabrics: the FM refuses explicit QOS
/// parameters next to QOSGroups).
pub fn export_fragment(design: &Design) -> Result<String, EngineError> {
    let groups = groups(design)?;
    Ok(format!(
        "<!-- qoslab design {} -->\n<!-- Put these in <Common> of opafm.xml, replacing its QOSGroups and VirtualFabrics; replace the AllOthers application of each class VirtualFabric with the applications of that class. -->\n{}",
        summary(design, &groups),
        elements(design, &groups)
    ))
}

/// The complete `opafm.xml`: `template.xml` with the groups and fabrics inserted.
pub fn export_complete(design: &Design) -> Result<String, EngineError> {
    let groups = groups(design)?;
    Ok(TEMPLATE
        .replacen("QOS_SUMMARY", &summary(design, &groups), 1)
        .replacen("QOS_FRAGMENT\n", &elements(design, &groups), 1))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The exports agree with the Omni-Path mapping: the FM keeps the shares, the table
    /// itself needs the DTable adaptation; never the InfiniBand 64/16/1 layout.
    #[test]
    fn exports_name_the_omnipath_adaptation() {
        let text = crate::design::MULTIMEDIA_VECTOR.replace("\"dtable\"", "\"omnipath\"");
        let d = crate::design::design(&crate::design::parse_requirements(&text).unwrap()).unwrap();
        for out in [export_fragment(&d).unwrap(), export_complete(&d).unwrap()] {
            let first = out.lines().find(|l| l.contains("qoslab design")).unwrap();
            assert!(
                first.contains("need the Omni-Path DTable adaptation (a dedicated table next to each output's SL arbiter)"),
                "{first}"
            );
            assert!(!out.contains("low-priority entries") && !out.contains("47"));
            assert!(
                !first
                    .trim_start_matches("<!--")
                    .trim_end_matches("-->")
                    .contains("--")
            );
        }
    }

    #[test]
    fn percents_add_up_to_100_with_at_least_1_each() {
        assert_eq!(
            percents(&[96, 48, 512, 208, 96, 48, 16]),
            [9, 5, 50, 20, 9, 5, 2]
        );
        assert_eq!(percents(&[1, 1, 1]), [34, 33, 33]);
        let tiny: Vec<u64> = std::iter::once(10_000)
            .chain(std::iter::repeat_n(1, 15))
            .collect();
        let p = percents(&tiny);
        assert_eq!(p.iter().sum::<u32>(), 100);
        assert!(p.iter().all(|&x| x >= 1));
        assert_eq!(p[0], 85);
    }

    #[test]
    fn the_template_has_its_two_slots() {
        assert_eq!(TEMPLATE.matches("QOS_SUMMARY").count(), 1);
        assert_eq!(TEMPLATE.matches("QOS_FRAGMENT\n").count(), 1);
    }
}
