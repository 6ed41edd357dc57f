//! Every rule a scenario must satisfy, checked at once so the user sees all problems.
//!
//! Each message names the rule and, where useful, the offending value. Paths use the
//! JSON layout (`model.classes[2].traffic.load`). The limits keep every accepted
//! scenario runnable: no panic, no hang, bounded memory.

use super::{ArrivalConfig, LinkLabConfig, Model, Scenario, SchedulerConfig, SizeConfig};
use crate::error::{EngineError, FieldError};
use crate::network::credits_for;
use crate::time::BitRate;

/// Largest seed that survives a round trip through JavaScript numbers.
pub const MAX_SEED: u64 = (1 << 53) - 1;
/// Longest simulated run, in microseconds (1000 s).
pub const MAX_DURATION_US: u64 = 1_000_000_000;
/// Most packets a run may be expected to generate.
pub const MAX_EXPECTED_PACKETS: f64 = 2.0e8;
/// Most classes per port (tables of specific technologies limit it further: 32 VCs in
/// Advanced Switching, 15 data VLs in InfiniBand).
pub const MAX_CLASSES: usize = 64;
/// Most packets per burst of a bursty source.
pub const MAX_BURST_PACKETS: u32 = 100_000;
/// Largest DRR quantum, in bytes.
pub const MAX_QUANTUM_BYTES: u32 = 1 << 24;
/// Longest EDF relative deadline, in nanoseconds (1000 s).
pub const MAX_DEADLINE_NS: u64 = 1_000_000_000_000;
/// Most entries in an arbitration table.
pub const MAX_TABLE_ENTRIES: usize = 4096;
/// Largest offered load per class (fraction of the link).
pub const MAX_LOAD: f64 = 4.0;
/// Largest downstream buffer per class, in bytes (1 GiB).
pub const MAX_BUFFER_BYTES: u32 = 1 << 30;
/// Shortest mean on or off period of an on/off source, in microseconds (1 ps).
pub const MIN_PERIOD_US: f64 = 1.0e-6;

/// Collects problems with their paths.
#[derive(Default)]
pub(super) struct Problems(Vec<FieldError>);

/// What the scheduler rules need to know of a class (link-lab and network classes alike).
pub(super) struct ClassRef<'a> {
    /// The class's name.
    pub name: &'a str,
    /// The class's offered load.
    pub load: f64,
    /// The class's largest packet, in bytes.
    pub max_bytes: u32,
}

impl Problems {
    /// Number of problems so far.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// Appends problems found by another module's checks.
    pub(super) fn extend(&mut self, errors: Vec<FieldError>) {
        self.0.extend(errors);
    }

    pub(super) fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(path, message));
    }

    pub(super) fn rate(&mut self, path: &str, gbps: f64) -> Option<BitRate> {
        let rate = BitRate::from_gbps(gbps);
        if rate.is_none() {
            self.add(
                path,
                format!("must be a rate in Gb/s above 0 and at most 1000000 (got {gbps})"),
            );
        }
        rate
    }
}

/// Checks every rule; returns all problems found.
pub fn validate(s: &Scenario) -> Result<(), EngineError> {
    let mut p = Problems::default();
    if s.name.trim().is_empty() {
        p.add("name", "must not be empty");
    } else if s.name.chars().count() > 200 {
        p.add("name", "must be at most 200 characters");
    }
    if s.description.chars().count() > 10_000 {
        p.add("description", "must be at most 10000 characters");
    }
    if s.seed > MAX_SEED {
        p.add(
            "seed",
            format!(
                "must be between 0 and 2^53 - 1 = {MAX_SEED} (got {})",
                s.seed
            ),
        );
    }
    if s.duration_us == 0 || s.duration_us > MAX_DURATION_US {
        p.add(
            "duration_us",
            format!(
                "must be between 1 and {MAX_DURATION_US} microseconds (got {})",
                s.duration_us
            ),
        );
    }
    if s.warmup_us >= s.duration_us {
        p.add(
            "warmup_us",
            format!(
                "must be shorter than duration_us ({} us), or nothing would be measured (got {})",
                s.duration_us, s.warmup_us
            ),
        );
    }
    match &s.model {
        Model::LinkLab(lab) => validate_link_lab(s, lab, &mut p),
        Model::Network(net) => super::network::validate_network(s, net, &mut p),
    }
    if p.0.is_empty() {
        Ok(())
    } else {
        Err(EngineError::Invalid { errors: p.0 })
    }
}

fn validate_link_lab(s: &Scenario, lab: &LinkLabConfig, p: &mut Problems) {
    let link = p.rate("model.link.rate_gbps", lab.link.rate_gbps);
    p.rate(
        "model.downstream.drain_rate_gbps",
        lab.downstream.drain_rate_gbps,
    );
    let buffer = lab.downstream.buffer_bytes;
    if !(64..=MAX_BUFFER_BYTES).contains(&buffer) {
        p.add(
            "model.downstream.buffer_bytes",
            format!("must be between 64 (one credit) and {MAX_BUFFER_BYTES} bytes (got {buffer})"),
        );
    }
    if lab.downstream.credit_delay_ns > 1_000_000_000 {
        p.add(
            "model.downstream.credit_delay_ns",
            "must be at most 1000000000 ns (1 s)",
        );
    }

    let n = lab.classes.len();
    if n == 0 || n > MAX_CLASSES {
        p.add(
            "model.classes",
            format!("must hold between 1 and {MAX_CLASSES} classes (got {n})"),
        );
    }
    let (mut expected_packets, mut period_changes) = (0.0, 0.0);
    for (i, class) in lab.classes.iter().enumerate() {
        let at = format!("model.classes[{i}]");
        validate_class_name(
            &at,
            &class.name,
            lab.classes[..i].iter().map(|c| c.name.as_str()),
            p,
        );
        if let Some(drain) = class.drain_rate_gbps {
            p.rate(&format!("{at}.drain_rate_gbps"), drain);
        }
        let t = &class.traffic;
        let load_ok = t.load.is_finite() && (0.0..=MAX_LOAD).contains(&t.load);
        if !load_ok {
            p.add(
                format!("{at}.traffic.load"),
                format!(
                    "must be a fraction of the link rate between 0 and {MAX_LOAD} (got {})",
                    t.load
                ),
            );
        }
        let size_ok = validate_size(&t.size, &format!("{at}.traffic.size"), p);
        if size_ok {
            let mtu = t.size.max_bytes();
            if mtu > buffer && (64..=MAX_BUFFER_BYTES).contains(&buffer) {
                p.add(
                    "model.downstream.buffer_bytes",
                    format!(
                        "must hold at least one packet of every class: class \"{}\" sends up to {mtu} B but the buffer has {buffer} B",
                        class.name
                    ),
                );
            }
        }
        let arrivals_ok = validate_arrivals(&t.arrivals, &format!("{at}.traffic.arrivals"), p);
        if let (true, true, true, Some(link)) = (size_ok, load_ok, arrivals_ok, link) {
            if let Some(work) = super::bounds::link_lab_class_work(&at, t, link, s.duration_us, p) {
                expected_packets += work.packets;
                period_changes += work.period_changes;
            }
        }
    }
    super::bounds::check_work(expected_packets, period_changes, p);

    let classes: Vec<ClassRef<'_>> = lab
        .classes
        .iter()
        .map(|c| ClassRef {
            name: &c.name,
            load: c.traffic.load,
            max_bytes: c.traffic.size.max_bytes(),
        })
        .collect();
    validate_scheduler(&lab.scheduler, &classes, "model.scheduler", p);
}

/// Checks an arrival process; true when it is valid.
pub(super) fn validate_arrivals(arrivals: &ArrivalConfig, at: &str, p: &mut Problems) -> bool {
    let before = p.len();
    match arrivals {
        ArrivalConfig::Constant | ArrivalConfig::Poisson => {}
        ArrivalConfig::OnOff(o) => {
            // Periods below 1 ps (1e-6 us) cannot be simulated in integer picoseconds.
            let on = o.mean_on_us;
            if !(on.is_finite() && (MIN_PERIOD_US..=1.0e9).contains(&on)) {
                p.add(
                    format!("{at}.mean_on_us"),
                    format!(
                        "must be a time in microseconds between {MIN_PERIOD_US} (1 ps) and 1e9 (got {on})"
                    ),
                );
            }
            let off = o.mean_off_us;
            if !(off.is_finite() && (off == 0.0 || (MIN_PERIOD_US..=1.0e9).contains(&off))) {
                p.add(
                    format!("{at}.mean_off_us"),
                    format!(
                        "must be 0 or a time in microseconds between {MIN_PERIOD_US} (1 ps) and 1e9 (got {off})"
                    ),
                );
            }
        }
        ArrivalConfig::Bursts(b) => {
            if !(1..=MAX_BURST_PACKETS).contains(&b.packets) {
                p.add(
                    format!("{at}.packets"),
                    format!(
                        "must be between 1 and {MAX_BURST_PACKETS} packets per burst (got {})",
                        b.packets
                    ),
                );
            }
        }
    }
    p.len() == before
}

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

/// A class name at `at`: not blank, at most 40 characters, unlike every `earlier` name.
pub(super) fn validate_class_name<'a>(
    at: &str,
    name: &str,
    mut earlier: impl Iterator<Item = &'a str>,
    p: &mut Problems,
) {
    if name.trim().is_empty() {
        p.add(format!("{at}.name"), "must not be empty");
    } else if name.chars().count() > 40 {
        p.add(format!("{at}.name"), "must be at most 40 characters");
    } else if earlier.any(|e| e == name) {
        p.add(
            format!("{at}.name"),
            format!("\"{name}\" is used by an earlier class; names must be unique"),
        );
    }
}

pub(super) fn validate_size(size: &SizeConfig, at: &str, p: &mut Problems) -> bool {
    let before = p.0.len();
    crate::traffic::config::validate_size(at, size, &mut p.0);
    p.0.len() == before
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
