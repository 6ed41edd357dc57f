//! InfiniBand weighted VL arbitration (VLArb): a high-priority and a low-priority table.
//!
//! Each table holds up to 64 entries (VL, weight); the weight counts 64-byte units (one
//! credit each). The exact rules implemented here (the choices the InfiniBand
//! specification leaves open are marked *choice*):
//!
//! - **Entries.** An entry of weight 0 is skipped: it is left out of the table's
//!   [`TableIndex`], so the find-first-set search never lands on it (a hardware arbiter
//!   still steps over it; `entries_visited` counts it). A class with no entry of weight
//!   > 0 in either table is never served.
//! - **Serving an entry.** When a table moves to an entry, the entry's remaining weight
//!   is set to its weight. The entry's VL sends while the remaining weight is > 0; each
//!   packet subtracts its size in credits, and a packet is sent even when it needs more
//!   than what remains. The excess is NOT carried over: the remaining weight stops at 0
//!   (no deficit), and the table moves to its next entry at its next turn.
//! - **Per-table position.** Each table keeps its own entry pointer *and the remaining
//!   weight of that entry* between its turns (*choice*): when the high limit gives one
//!   packet to the low table, the high table resumes its interrupted entry afterwards.
//! - **Inactive class mid-entry** (*choice*). Activity is evaluated at decision time:
//!   when a table is served and its current entry's class is not active (queue empty or
//!   head blocked by flow control), the table moves to its next entry whose class is
//!   active and the remaining weight of the left entry is dropped. If the class becomes
//!   active again before its table's next turn (an arrival or credits returning while
//!   the link was busy), it continues its entry.
//! - **Which table.** A table *has an active entry* when some active class owns an
//!   entry of weight > 0 in it; *low-table packets are waiting* when the low table has
//!   an active entry. The high table is served when it has an active entry, unless the
//!   high limit is reached while low-table packets wait; otherwise the low table is
//!   served. If the high table has no active entry the low table is served, so no link
//!   time is wasted.
//! - **High limit** (`high_limit` in 4096-byte units, 0 to 255). The counter
//!   `high_limit_used` holds the bytes sent from the high table while low-table packets
//!   were waiting, since the low table last sent. A high packet of `b` bytes may be
//!   sent while low-table packets wait when the counter is 0 (the first high packet
//!   always goes) or `used + b <= high_limit * 4096` (*choice*: the limit is a strict
//!   "at most", except that one packet always goes). `high_limit = 0` thus gives one
//!   high packet, then one low packet; `255` means unbounded (low may starve).
//! - **Counter reset** (*choice*). The counter goes back to 0 when a packet is sent from
//!   the low table (its opportunity, or when the high table has nothing to send), and at
//!   every decision where no low-table packet is waiting (high packets sent then are not
//!   counted: the limit only bounds bytes sent *while low packets wait*).
//! - **A VL in both tables** (*choice*, allowed by the specification). The tables are
//!   independent: the VL is served through whichever table's entry is selected; its
//!   high-table packets count towards the high limit, a packet it sends through a low
//!   entry is a low-table packet (resets the counter) and uses that low entry's weight.
//!
//! Consequence: with variable packet sizes the bandwidth deviates from the weight ratio
//! (each entry overshoots by up to one packet minus one credit), less than with the AS
//! basic table (one packet per entry) and more than with DTable (deficits carried).
//! See `shared/spec/10-schedulers.md` ("InfiniBand weighted VLArb").

use super::rules::{class_index, require_entries};
use super::starting::{
    Carried, Carries, ClassSize, Tables, apportion_shares, cap_weights, entries_from_weights,
    entry_weight_sums,
};
use super::table_layout::weighted_entries;
use super::{PortSetup, SchedulerSpec, TableEntry, TraceTableEntry};
use super::{PortView, Registers, Scheduler, SchedulerCost, TableIndex, TableSide};
use crate::problems::{ClassRef, Problems};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The high limit value meaning "unbounded" (also the largest high limit).
pub const UNBOUNDED: u32 = 255;
/// Most entries in each InfiniBand VLArb table.
pub const IBA_MAX_ENTRIES: usize = 64;
/// Highest VL an InfiniBand VLArb entry may name (VL 15 is management, never in a table).
pub const IBA_MAX_VL: u32 = 14;
/// Largest VLArb weight, in 64-byte units.
pub const IBA_MAX_WEIGHT: u32 = 255;

/// InfiniBand VL arbitration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct IbaConfig {
    /// The high-priority table (at most 64 entries; weights 0 to 255 in 64-byte units,
    /// weight 0 = entry skipped; classes are VLs 0 to 14).
    pub high: Vec<TableEntry>,
    /// The low-priority table (same rules).
    pub low: Vec<TableEntry>,
    /// High limit, 0 to 255, in 4096-byte units: bytes the high table may send while
    /// low-table packets wait, before one low packet gets an opportunity; 255 = unbounded.
    pub high_limit: u32,
}
/// Bytes per unit of the high limit.
const HIGH_LIMIT_UNIT: i64 = 4096;

/// One VLArb table with its own position.
#[derive(Clone, Debug)]
struct Table {
    /// (class, weight in 64-byte units) per entry.
    entries: Vec<(usize, i64)>,
    /// Entries of weight > 0 only.
    index: TableIndex,
    /// `member[c]`: class `c` owns an entry of weight > 0 in this table.
    member: Vec<bool>,
    /// The selected entry (None before the table's first turn).
    current: Option<usize>,
    /// Weight left in the selected entry (64-byte units, never below 0).
    remaining: i64,
}

impl Table {
    fn new(table: &[TableEntry], classes: usize) -> Table {
        let entries: Vec<(usize, i64)> = table
            .iter()
            .map(|e| (e.class as usize, i64::from(e.weight)))
            .collect();
        // Weight-0 entries get an owner outside the classes: the index never finds them.
        let owners: Vec<usize> = entries
            .iter()
            .map(|&(c, w)| if w > 0 { c } else { classes })
            .collect();
        let mut member = vec![false; classes];
        for &(c, w) in &entries {
            if let Some(m) = member.get_mut(c) {
                *m |= w > 0;
            }
        }
        Table {
            index: TableIndex::new(&owners, classes),
            entries,
            member,
            current: None,
            remaining: 0,
        }
    }

    fn class_of(&self, entry: usize) -> Option<usize> {
        self.entries.get(entry).map(|e| e.0)
    }

    /// Whether one of `active` owns an entry of weight > 0 here.
    fn has_active(&self, active: &[usize]) -> bool {
        active
            .iter()
            .any(|&c| self.member.get(c).copied().unwrap_or(false))
    }

    /// The entry that would send if this table were served now: the current one while
    /// it has weight left and its class is active, else the next entry (after the
    /// current one, cyclic) whose class is active. `true` when the entry is a new one.
    fn candidate(
        &self,
        flags: &[bool],
        active: &[usize],
        cost: &mut SchedulerCost,
    ) -> Option<(usize, bool)> {
        if let Some(cur) = self.current {
            let keep = self.remaining > 0
                && self
                    .class_of(cur)
                    .is_some_and(|c| flags.get(c).copied().unwrap_or(false));
            if keep {
                return Some((cur, false));
            }
        }
        let (found, words) = self.index.next_owned_by(active, self.start());
        cost.bitmap_words += words;
        found.map(|e| (e, true))
    }

    /// Where a search for the next entry starts.
    fn start(&self) -> usize {
        self.current.map_or(0, |c| c + 1)
    }

    /// Sends one packet of `credits` from `entry` (a new entry when `fresh`).
    fn commit(&mut self, entry: usize, fresh: bool, credits: u32, cost: &mut SchedulerCost) {
        if fresh {
            let n = self.entries.len().max(1);
            let start = self.start() % n;
            cost.entries_visited += ((entry + n - start) % n + 1) as u64;
            self.current = Some(entry);
            self.remaining = self.entries.get(entry).map_or(0, |e| e.1);
        }
        // No carry-over: a packet larger than what remains empties the entry.
        self.remaining = (self.remaining - i64::from(credits)).max(0);
    }
}

/// The InfiniBand VLArb arbiter state.
#[derive(Clone, Debug)]
pub struct Iba {
    high: Table,
    low: Table,
    /// The high limit in bytes; None when unbounded (255).
    limit_bytes: Option<i64>,
    /// Bytes sent from the high table while low-table packets waited, since the low
    /// table last sent.
    high_used: i64,
    /// The table of the last packet sent.
    serving: Option<TableSide>,
    /// The class of the last packet sent.
    selected: Option<usize>,
    /// Scratch: active classes and per-class activity flags (no allocation per decision).
    active: Vec<usize>,
    flags: Vec<bool>,
    cost: SchedulerCost,
}

impl Iba {
    /// A VLArb arbiter over `classes` classes (validated configuration: at most 64
    /// entries per table, weights 0 to 255, high limit 0 to 255).
    pub fn new(config: &IbaConfig, classes: usize) -> Iba {
        Iba {
            high: Table::new(&config.high, classes),
            low: Table::new(&config.low, classes),
            limit_bytes: (config.high_limit < UNBOUNDED)
                .then(|| i64::from(config.high_limit) * HIGH_LIMIT_UNIT),
            high_used: 0,
            serving: None,
            selected: None,
            active: Vec::with_capacity(classes),
            flags: vec![false; classes],
            cost: SchedulerCost::default(),
        }
    }

    fn table(&self, side: TableSide) -> &Table {
        match side {
            TableSide::High => &self.high,
            _ => &self.low,
        }
    }

    fn refresh_active(&mut self, port: &dyn PortView) {
        self.active.clear();
        let n = port.class_count();
        if self.flags.len() != n {
            self.flags.resize(n, false);
        }
        for (c, flag) in self.flags.iter_mut().enumerate() {
            *flag = port.is_active(c);
            if *flag {
                self.active.push(c);
            }
        }
    }
}

impl SchedulerSpec for Iba {
    type Config = IbaConfig;

    fn validate(config: &IbaConfig, classes: &[ClassRef<'_>], at: &str, p: &mut Problems) {
        if config.high.is_empty() && config.low.is_empty() {
            p.add(
                at,
                "the high and low tables are both empty; at least one entry is needed",
            );
        }
        for (name, table) in [("high", &config.high), ("low", &config.low)] {
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
                    class_index(e.class, classes.len(), &format!("{path}[{j}].class"), p);
                }
                if e.weight > IBA_MAX_WEIGHT {
                    p.add(
                        format!("{path}[{j}].weight"),
                        format!(
                            "must be between 0 and {IBA_MAX_WEIGHT} units of 64 bytes (got {})",
                            e.weight
                        ),
                    );
                }
            }
        }
        if config.high_limit > UNBOUNDED {
            p.add(
                format!("{at}.high_limit"),
                format!(
                    "must be between 0 and {UNBOUNDED} (units of 4096 bytes; {UNBOUNDED} = unbounded) (got {})",
                    config.high_limit
                ),
            );
        }
        let weighted: Vec<TableEntry> = config
            .high
            .iter()
            .chain(&config.low)
            .filter(|e| e.weight > 0)
            .copied()
            .collect();
        require_entries(classes, &[&weighted], p);
    }

    fn starting(c: &Carried<'_>) -> IbaConfig {
        let cap = |entries: &[TableEntry]| {
            let mut e = cap_weights(entries, IBA_MAX_WEIGHT);
            e.truncate(IBA_MAX_ENTRIES);
            e
        };
        // Tables carry over (one table becomes the low table); else one entry per class,
        // the low table worth one largest packet per class (apportioned by share).
        if let Some(t) = c
            .tables
            .as_ref()
            .filter(|t| !t.high.is_empty() || !t.main.is_empty())
        {
            return IbaConfig {
                high: cap(&t.high),
                low: cap(&t.main),
                high_limit: UNBOUNDED,
            };
        }
        let n = c.classes.len() as u64;
        let total = n.max(n * u64::from(IBA_MAX_WEIGHT.min(c.mtu_credits)));
        let low = cap(&entries_from_weights(&apportion_shares(&c.shares, total)));
        IbaConfig {
            high: Vec::new(),
            low,
            high_limit: UNBOUNDED,
        }
    }

    fn carries(config: &IbaConfig, classes: &[ClassSize]) -> Carries {
        let all: Vec<TableEntry> = config.high.iter().chain(&config.low).copied().collect();
        Carries {
            weights: Some(entry_weight_sums(&all, classes.len())),
            tables: Some(Tables {
                high: config.high.clone(),
                main: config.low.clone(),
            }),
            priorities: None,
        }
    }

    fn build(config: &IbaConfig, port: PortSetup) -> Self {
        Iba::new(config, port.classes)
    }

    fn table_layout(config: &IbaConfig) -> Vec<TraceTableEntry> {
        let mut all = weighted_entries(TableSide::High, &config.high);
        all.extend(weighted_entries(TableSide::Low, &config.low));
        all
    }
}

impl Scheduler for Iba {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        self.refresh_active(port);
        if self.active.is_empty() {
            return None;
        }
        let low_waiting = self.low.has_active(&self.active);
        if !low_waiting {
            self.high_used = 0;
        }
        let high = if self.high.has_active(&self.active) {
            self.high
                .candidate(&self.flags, &self.active, &mut self.cost)
        } else {
            None
        };
        let mut chosen = None;
        if let Some((entry, fresh)) = high {
            let class = self.high.class_of(entry)?;
            let head = port.head(class)?;
            let bytes = i64::from(head.bytes);
            let allowed = !low_waiting
                || self.high_used == 0
                || self
                    .limit_bytes
                    .is_none_or(|limit| self.high_used + bytes <= limit);
            if allowed {
                self.high.commit(entry, fresh, head.credits, &mut self.cost);
                if low_waiting {
                    self.high_used += bytes;
                }
                self.serving = Some(TableSide::High);
                chosen = Some(class);
            }
        }
        if chosen.is_none() {
            let (entry, fresh) = self
                .low
                .candidate(&self.flags, &self.active, &mut self.cost)?;
            let class = self.low.class_of(entry)?;
            let head = port.head(class)?;
            self.low.commit(entry, fresh, head.credits, &mut self.cost);
            self.high_used = 0;
            self.serving = Some(TableSide::Low);
            chosen = Some(class);
        }
        self.cost.decisions += 1;
        self.selected = chosen;
        chosen
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        let serving = self.serving.map(|side| self.table(side));
        Registers {
            table: self.serving,
            high_entry: self.high.current.map(|e| e as u32),
            low_entry: self.low.current.map(|e| e as u32),
            entry: serving.and_then(|t| t.current).map(|e| e as u32),
            selected: self.selected.map(|c| c as u32),
            remaining_weight: serving.map(|t| t.remaining),
            high_limit_used: Some(self.high_used),
            high_limit_bytes: self.limit_bytes,
            ..Registers::default()
        }
    }
}

#[cfg(test)]
#[path = "iba_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "iba_config_tests.rs"]
mod config_tests;
