//! The output scheduler rules, for link-lab and network ports alike.

use super::SchedulerConfig;
use super::rules::{ClassRef, MAX_DEADLINE_NS, MAX_QUANTUM_BYTES, MAX_TABLE_ENTRIES, Problems};
use crate::network::credits_for;

/// Table sizes the Advanced Switching basic table allows.
pub const AS_TABLE_SIZES: [usize; 6] = [32, 64, 128, 256, 512, 1024];
/// Most entries in each InfiniBand VLArb table.
pub const IBA_MAX_ENTRIES: usize = 64;
/// Highest VL an InfiniBand VLArb entry may name (VL 15 is management, never in a table).
pub const IBA_MAX_VL: u32 = 14;
/// Highest VC id of an Advanced Switching table entry (5 bits).
pub const AS_MAX_VC: u32 = 31;

/// Checks a scheduler's parameters against the classes; `at` is its path.
pub(super) fn validate_scheduler(
    scheduler: &SchedulerConfig,
    classes: &[ClassRef<'_>],
    at: &str,
    p: &mut Problems,
) {
    let n = classes.len();
    match scheduler {
        SchedulerConfig::Dtable(d) => {
            validate_table(&d.table, classes, &format!("{at}.table"), p);
            require_entries(classes, &[&d.table], p);
        }
        SchedulerConfig::AsBasic(a) => {
            let path = format!("{at}.table");
            if !AS_TABLE_SIZES.contains(&a.table.len()) {
                p.add(
                    path.clone(),
                    format!(
                        "must hold 32, 64, 128, 256, 512 or 1024 entries (an Advanced Switching basic table; got {})",
                        a.table.len()
                    ),
                );
            }
            for (j, &class) in a.table.iter().enumerate() {
                if class > AS_MAX_VC {
                    p.add(
                        format!("{path}[{j}]"),
                        format!("{class} is not a VC id: Advanced Switching VC ids are 0 to {AS_MAX_VC} (5 bits)"),
                    );
                } else {
                    class_index(class, n, &format!("{path}[{j}]"), p);
                }
            }
            let entries: Vec<super::TableEntry> = a
                .table
                .iter()
                .map(|&class| super::TableEntry { class, weight: 1 })
                .collect();
            require_entries(classes, &[&entries], p);
        }
        SchedulerConfig::Iba(iba) => {
            if iba.high.is_empty() && iba.low.is_empty() {
                p.add(
                    at,
                    "the high and low tables are both empty; at least one entry is needed",
                );
            }
            for (name, table) in [("high", &iba.high), ("low", &iba.low)] {
                let path = format!("{at}.{name}");
                if table.len() > IBA_MAX_ENTRIES {
                    p.add(
                        path.clone(),
                        format!(
                            "must hold at most {IBA_MAX_ENTRIES} entries (an InfiniBand VLArb table; got {})",
                            table.len()
                        ),
                    );
                }
                for (j, e) in table.iter().enumerate() {
                    if e.class > IBA_MAX_VL {
                        p.add(
                            format!("{path}[{j}].class"),
                            format!("{} is not a data VL: VLArb entries name VLs 0 to {IBA_MAX_VL} (VL 15 is management)", e.class),
                        );
                    } else {
                        class_index(e.class, n, &format!("{path}[{j}].class"), p);
                    }
                    if e.weight > 255 {
                        p.add(
                            format!("{path}[{j}].weight"),
                            format!(
                                "must be between 0 and 255 units of 64 bytes (got {})",
                                e.weight
                            ),
                        );
                    }
                }
            }
            if iba.high_limit > 255 {
                p.add(
                    format!("{at}.high_limit"),
                    format!(
                        "must be between 0 and 255 (units of 4096 bytes; 255 = unbounded) (got {})",
                        iba.high_limit
                    ),
                );
            }
            let weighted: Vec<super::TableEntry> = iba
                .high
                .iter()
                .chain(&iba.low)
                .filter(|e| e.weight > 0)
                .copied()
                .collect();
            require_entries(classes, &[&weighted], p);
        }
        SchedulerConfig::Drr(d) => {
            let path = format!("{at}.quanta_bytes");
            if per_class_len(d.quanta_bytes.len(), n, &path, p) {
                for (i, &q) in d.quanta_bytes.iter().enumerate() {
                    if !(1..=MAX_QUANTUM_BYTES).contains(&q) {
                        p.add(
                            format!("{path}[{i}]"),
                            format!("must be between 1 and {MAX_QUANTUM_BYTES} bytes (got {q})"),
                        );
                    }
                }
            }
        }
        SchedulerConfig::Scfq(f)
        | SchedulerConfig::Wfq(f)
        | SchedulerConfig::Wf2qPlus(f)
        | SchedulerConfig::Sfq(f) => {
            let path = format!("{at}.weights");
            if per_class_len(f.weights.len(), n, &path, p) {
                for (i, &w) in f.weights.iter().enumerate() {
                    if !(w.is_finite() && w > 0.0 && w <= 1.0e9) {
                        p.add(
                            format!("{path}[{i}]"),
                            format!("must be a weight above 0 and at most 1e9 (got {w})"),
                        );
                    }
                }
            }
        }
        SchedulerConfig::StrictPriority(s) => {
            let path = format!("{at}.priorities");
            if per_class_len(s.priorities.len(), n, &path, p) {
                for (i, &prio) in s.priorities.iter().enumerate() {
                    if prio > 255 {
                        p.add(
                            format!("{path}[{i}]"),
                            format!("must be between 0 and 255 (got {prio})"),
                        );
                    }
                }
            }
        }
        SchedulerConfig::Fifo => {}
        SchedulerConfig::Edf(e) => {
            let path = format!("{at}.deadlines_ns");
            if per_class_len(e.deadlines_ns.len(), n, &path, p) {
                for (i, &d) in e.deadlines_ns.iter().enumerate() {
                    if !(1..=MAX_DEADLINE_NS).contains(&d) {
                        p.add(
                            format!("{path}[{i}]"),
                            format!("must be between 1 and {MAX_DEADLINE_NS} ns (got {d})"),
                        );
                    }
                }
            }
        }
    }
}

/// Checks a per-class list has one item per class.
fn per_class_len(len: usize, classes: usize, at: &str, p: &mut Problems) -> bool {
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
fn class_index(class: u32, classes: usize, at: &str, p: &mut Problems) -> bool {
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
fn require_entries(classes: &[ClassRef<'_>], tables: &[&[super::TableEntry]], p: &mut Problems) {
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

fn validate_table(
    table: &[super::TableEntry],
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
        if e.weight == 0 || e.weight > 65_535 {
            p.add(
                format!("{at}[{j}].weight"),
                format!("must be between 1 and 65535 credits (got {})", e.weight),
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
