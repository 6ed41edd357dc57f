//! Deficit Table (DTable) scheduler.
//!
//! A table of (class, weight) entries is cycled. The selected entry's class sends while
//! its head packet fits in the accumulated weight; what is left is kept as the class's
//! deficit and added the next time one of its entries is selected. A class that empties
//! or is blocked by flow control forfeits what it was owed. Bandwidth of class i is
//! `sum(weights of i) / sum(all weights)` whatever the packet sizes.
//! See `shared/spec/10-schedulers.md` ("DTable") for the reference pseudocode.

use super::TableEntry;
use super::rules::{require_entries, validate_table};
use super::starting::{
    Carried, Carries, ClassSize, Tables, apportion_shares, entries_from_weights, entry_weight_sums,
    largest_packet_credits,
};
use super::table_layout::weighted_entries;
use super::{MAX_DTABLE_WEIGHT, MAX_TABLE_ENTRIES};
use super::{PortSetup, SchedulerSpec};
use super::{PortView, Registers, Scheduler, SchedulerCost, TableIndex};
use super::{TableSide, TraceTableEntry};
use crate::problems::{ClassRef, Problems};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A Deficit Table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct DTableConfig {
    /// The entries, cycled in order.
    pub table: Vec<TableEntry>,
}

/// The DTable arbiter state.
#[derive(Clone, Debug)]
pub struct DTable {
    /// Weight in credits per entry (whose class the index knows: one array of four bytes
    /// an entry, which each table step reads once).
    weights: Vec<u32>,
    index: TableIndex,
    /// Deficit counter per class, in credits.
    deficit: Vec<i64>,
    /// Weight the selected entry may still send, in credits.
    accumulated: i64,
    /// Class of the selected entry (None before the first decision).
    selected: Option<usize>,
    /// Index of the selected entry; starts at the last entry so the first search begins at 0.
    current: usize,
    cost: SchedulerCost,
}

/// A read-only snapshot of the DTable registers (for traces and tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DTableState {
    /// Selected entry index.
    pub entry: usize,
    /// Selected class.
    pub selected: Option<usize>,
    /// Accumulated-weight register.
    pub accumulated: i64,
    /// Deficit counter per class.
    pub deficit: Vec<i64>,
}

impl DTable {
    /// A DTable over `classes` classes with the given table (validated: non-empty, class
    /// indices in range, weights at least the class MTU).
    pub fn new(table: &[TableEntry], classes: usize) -> DTable {
        let owners: Vec<usize> = table.iter().map(|e| e.class as usize).collect();
        DTable {
            index: TableIndex::new(&owners, classes),
            current: table.len().saturating_sub(1),
            weights: table.iter().map(|e| e.weight).collect(),
            deficit: vec![0; classes],
            accumulated: 0,
            selected: None,
            cost: SchedulerCost::default(),
        }
    }

    /// The registers now.
    pub fn state(&self) -> DTableState {
        DTableState {
            entry: self.current,
            selected: self.selected,
            accumulated: self.accumulated,
            deficit: self.deficit.clone(),
        }
    }

    /// Moves to the next entry after the current one whose class is active. Returns false
    /// when no class is active.
    fn advance_entry<P: PortView + ?Sized>(&mut self, port: &P) -> bool {
        let n = self.weights.len();
        let active = port.active_mask();
        let (found, words) = self.index.next_owned_by_any(active, self.current + 1);
        self.cost.bitmap_words += words;
        let Some(entry) = found else {
            return false;
        };
        let Some(class) = self.index.owner_among(active, entry) else {
            return false;
        };
        self.cost.entries_visited += ((entry + n - self.current - 1) % n + 1) as u64;
        self.current = entry;
        self.selected = Some(class);
        self.accumulated = self.deficit[class] + i64::from(self.weights[entry]);
        true
    }
}

impl SchedulerSpec for DTable {
    type Config = DTableConfig;

    fn validate(config: &DTableConfig, classes: &[ClassRef<'_>], at: &str, p: &mut Problems) {
        validate_table(&config.table, classes, &format!("{at}.table"), p);
        require_entries(classes, &[&config.table], p);
    }

    fn starting(c: &Carried<'_>) -> DTableConfig {
        // Every entry lets at least one packet of its class through (the DTable rule):
        // weights are raised to the class's largest packet where they are below it.
        let at_least_mtu = |e: &TableEntry| {
            let mtu = c
                .classes
                .get(e.class as usize)
                .map_or(32, largest_packet_credits);
            TableEntry {
                class: e.class,
                weight: e.weight.max(mtu).clamp(1, MAX_DTABLE_WEIGHT),
            }
        };
        let carried: Vec<TableEntry> = c
            .tables
            .iter()
            .flat_map(|t| t.high.iter().chain(&t.main))
            .copied()
            .collect();
        // Else one entry per class, the table worth one largest packet per class.
        let entries = if carried.is_empty() {
            let n = c.classes.len() as u64;
            entries_from_weights(&apportion_shares(
                &c.shares,
                n.max(n * u64::from(c.mtu_credits)),
            ))
        } else {
            carried
        };
        let mut table: Vec<TableEntry> = entries.iter().map(at_least_mtu).collect();
        table.truncate(MAX_TABLE_ENTRIES);
        DTableConfig { table }
    }

    fn carries(config: &DTableConfig, classes: &[ClassSize]) -> Carries {
        Carries {
            weights: Some(entry_weight_sums(&config.table, classes.len())),
            tables: Some(Tables {
                high: Vec::new(),
                main: config.table.clone(),
            }),
            priorities: None,
        }
    }

    fn build(config: &DTableConfig, port: PortSetup) -> Self {
        DTable::new(&config.table, port.classes)
    }

    fn table_layout(config: &DTableConfig) -> Vec<TraceTableEntry> {
        weighted_entries(TableSide::Main, &config.table)
    }
}

impl DTable {
    /// `select`, generic over the view (see [`Scheduler::select_in`]).
    #[inline]
    fn choose<P: PortView + ?Sized>(&mut self, port: &P) -> Option<usize> {
        let keep = self.selected.and_then(|c| {
            let head = port.head(c)?;
            (port.is_active(c) && i64::from(head.credits) <= self.accumulated).then_some(c)
        });
        let class = match keep {
            Some(c) => c,
            None => {
                if let Some(c) = self.selected {
                    self.deficit[c] = self.accumulated;
                }
                if !self.advance_entry(port) {
                    return None;
                }
                self.selected?
            }
        };
        let head = port.head(class)?;
        self.accumulated -= i64::from(head.credits);
        self.cost.decisions += 1;
        Some(class)
    }

    /// `after_send`, generic over the view.
    #[inline]
    fn sent<P: PortView + ?Sized>(&mut self, class: usize, port: &P) {
        if !port.is_active(class) {
            // Emptied or blocked by flow control: what was owed is forfeited.
            self.accumulated = 0;
        }
    }
}

impl Scheduler for DTable {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        self.choose(port)
    }

    fn select_in<P: PortView>(&mut self, _now: SimTime, port: &P) -> Option<usize> {
        self.choose(port)
    }

    fn after_send(&mut self, _now: SimTime, class: usize, port: &dyn PortView) {
        self.sent(class, port)
    }

    fn after_send_in<P: PortView>(&mut self, _now: SimTime, class: usize, port: &P) {
        self.sent(class, port)
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        Registers {
            entry: self.selected.map(|_| self.current as u32),
            selected: self.selected.map(|c| c as u32),
            accumulated: Some(self.accumulated),
            deficit: Some(self.deficit.clone()),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
#[path = "dtable_cost_tests.rs"]
mod cost_tests;

#[cfg(test)]
#[path = "dtable_config_tests.rs"]
mod config_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;

    fn table(entries: &[(u32, u32)]) -> Vec<TableEntry> {
        entries
            .iter()
            .map(|&(class, weight)| TableEntry { class, weight })
            .collect()
    }

    /// The worked example of the spec: SL0 holds 3 packets of 2 credits, SL1 is empty,
    /// the table alternates SL0/SL1 with weight 3.
    #[test]
    fn spec_worked_example() {
        let mut d = DTable::new(&table(&[(0, 3), (1, 3), (0, 3), (1, 3)]), 2);
        let mut port = MockPort::new(2, 1000);
        port.push(0, 2, 3);

        // Select SL0 (entry 0): acc = 0 + 3 = 3, send one -> acc 1.
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!((d.state().entry, d.state().accumulated), (0, 1));
        // The registers shown in traces are the same figures.
        let r = d.registers();
        assert_eq!(
            (r.entry, r.selected, r.accumulated),
            (Some(0), Some(0), Some(1))
        );
        assert_eq!(r.deficit, Some(vec![0, 0]));
        // 2 > 1: deficit[SL0] = 1, next active entry is SL0's entry 2: acc = 1 + 3 = 4,
        // send one -> acc 2 ...
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!((d.state().entry, d.state().accumulated), (2, 2));
        assert_eq!(d.state().deficit[0], 1);
        // ... and another -> acc 0; the queue is now empty -> acc = 0.
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!((d.state().entry, d.state().accumulated), (2, 0));
        assert_eq!(port.step(&mut d), None);
        // The forfeited weight: the next selection stores deficit 0.
        port.push(1, 2, 1);
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(d.state().deficit[0], 0);
        assert_eq!(d.state().entry, 3);
    }

    /// Equal weights and different packet sizes: equal credits served per class.
    #[test]
    fn equal_weights_give_equal_bandwidth_with_unequal_packets() {
        let mut d = DTable::new(&table(&[(0, 32), (1, 32), (2, 32)]), 3);
        let mut port = MockPort::new(3, u32::MAX);
        let sizes = [1u32, 5, 32];
        let mut served = [0u64; 3];
        for _ in 0..200_000 {
            for (c, &s) in sizes.iter().enumerate() {
                if port.queues[c].len() < 4 {
                    port.push(c, s, 4);
                }
            }
            let c = port.step(&mut d).unwrap();
            served[c] += u64::from(sizes[c]);
        }
        let total: u64 = served.iter().sum();
        for s in served {
            let share = s as f64 / total as f64;
            assert!((share - 1.0 / 3.0).abs() < 0.01, "share {share}");
        }
    }

    /// A class blocked by flow control loses its turn and its deficit; others go on.
    #[test]
    fn flow_control_blocks_and_forfeits() {
        let mut d = DTable::new(&table(&[(0, 4), (1, 4)]), 2);
        let mut port = MockPort::new(2, 100);
        port.free[0] = 3; // room for one 2-credit packet only
        port.push(0, 2, 3);
        port.push(1, 2, 3);
        assert_eq!(port.step(&mut d), Some(0)); // class 0 now blocked (1 credit free)
        assert_eq!(d.state().accumulated, 0);
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(port.step(&mut d), Some(1)); // class 0 still blocked: table skips it
        assert_eq!(d.state().deficit[0], 0);
        assert_eq!(port.step(&mut d), None);
    }

    #[test]
    fn counts_cost() {
        let mut d = DTable::new(&table(&[(0, 1), (1, 1), (1, 1), (1, 1)]), 2);
        let mut port = MockPort::new(2, 100);
        port.push(0, 1, 2);
        port.step(&mut d);
        port.step(&mut d);
        let c = d.cost();
        assert_eq!(c.decisions, 2);
        // First search starts at entry 0 (1 visited); second wraps 1,2,3,0 (4 visited).
        assert_eq!(c.entries_visited, 5);
    }
}
