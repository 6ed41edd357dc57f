//! Validation rules several schedulers share: per-class lists, class indexes and tables.

use super::table_entry::TableEntry;
use crate::network::credits_for;
use crate::problems::{ClassRef, Problems};

/// Most entries in an arbitration table.
pub const MAX_TABLE_ENTRIES: usize = 4096;
/// Largest DTable entry weight, in credits.
pub const MAX_DTABLE_WEIGHT: u32 = 65_535;

/// Checks a per-class list has one item per class.
pub(crate) fn per_class_len(len: usize, classes: usize, at: &str, p: &mut Problems) -> bool {
    if len == classes {
        true
    } else {
        p.add(
            at,
            format!("must hold one value per class: {classes} (got {len})"),
        );
        false
    }
}

/// Checks `class` indexes one of `classes` classes.
pub(crate) fn class_index(class: u32, classes: usize, at: &str, p: &mut Problems) -> bool {
    if (class as usize) < classes {
        true
    } else {
        p.add(
            at,
            format!(
                "{class} is not a class index; this scenario has classes 0 to {}",
                classes.saturating_sub(1)
            ),
        );
        false
    }
}

/// Every class with traffic needs an entry (with weight) in one of the tables.
pub(crate) fn require_entries(
    classes: &[ClassRef<'_>],
    tables: &[&[TableEntry]],
    p: &mut Problems,
) {
    for (i, class) in classes.iter().enumerate() {
        let served = tables
            .iter()
            .any(|t| t.iter().any(|e| e.class as usize == i));
        if class.load > 0.0 && !served {
            p.add(
                format!("model.classes[{i}]"),
                format!("class \"{}\" has traffic but no entry in the scheduler's table, so it would never be served", class.name),
            );
        }
    }
}

/// A DTable's entries: 1 to [`MAX_TABLE_ENTRIES`], each naming a class with a weight that
/// lets at least one of its packets through.
pub(crate) fn validate_table(
    table: &[TableEntry],
    classes: &[ClassRef<'_>],
    at: &str,
    p: &mut Problems,
) {
    let n = classes.len();
    if table.is_empty() || table.len() > MAX_TABLE_ENTRIES {
        p.add(
            at,
            format!(
                "must hold between 1 and {MAX_TABLE_ENTRIES} entries (got {})",
                table.len()
            ),
        );
    }
    for (j, e) in table.iter().enumerate() {
        let Some(class) = usize::try_from(e.class).ok().and_then(|c| classes.get(c)) else {
            p.add(
                format!("{at}[{j}].class"),
                format!(
                    "{} is not a class index; this scenario has classes 0 to {}",
                    e.class,
                    n.saturating_sub(1)
                ),
            );
            continue;
        };
        let mtu_credits = credits_for(class.max_bytes);
        if e.weight == 0 || e.weight > MAX_DTABLE_WEIGHT {
            p.add(
                format!("{at}[{j}].weight"),
                format!(
                    "must be between 1 and {MAX_DTABLE_WEIGHT} credits (got {})",
                    e.weight
                ),
            );
        } else if e.weight < mtu_credits {
            p.add(
                format!("{at}[{j}].weight"),
                format!(
                    "{} credits is below the MTU of class \"{}\" ({} credits = {} B); a DTable entry must let at least one packet through",
                    e.weight,
                    class.name,
                    mtu_credits,
                    class.max_bytes
                ),
            );
        }
    }
}

/// Checks one value per class, each within `allowed` (the message names the range).
pub(crate) fn per_class_values<T: Copy + std::fmt::Display>(
    values: &[T],
    classes: usize,
    at: &str,
    p: &mut Problems,
    allowed: impl Fn(T) -> bool,
    rule: &str,
) {
    if per_class_len(values.len(), classes, at, p) {
        for (i, &v) in values.iter().enumerate() {
            if !allowed(v) {
                p.add(format!("{at}[{i}]"), format!("{rule} (got {v})"));
            }
        }
    }
}
