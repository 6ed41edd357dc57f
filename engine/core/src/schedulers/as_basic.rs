//! Advanced Switching (AS) basic arbitration table.
//!
//! The table is a list of N class (VC) ids, N in {32, ..., 1024}, cycled sequentially.
//! Each decision moves the pointer to the next entry (after the current one, cyclic) whose
//! class is *active* (head packet present and fitting in the downstream credits), and that
//! class sends exactly ONE packet whatever its size. Entries of inactive classes are
//! skipped. The table therefore shares *packets*, not bytes: with equal entries per VC
//! each VC sends the same number of packets, so its bandwidth is proportional to its
//! packet size. A class with no entry is never served.
//!
//! The next active entry is found with [`TableIndex`] (per-class bitmaps and
//! find-first-set), not by a linear scan; the cost counters report both the bitmap words
//! examined (software) and the entries a hardware linear scan would step over.
//! See `shared/spec/10-schedulers.md` ("AS basic table").

use super::rules::{class_index, require_entries};
use super::starting::{Carried, Carries, ClassSize, apportion_shares, interleave, usable};
use super::{PortSetup, SchedulerSpec};
use super::{PortView, Registers, Scheduler, SchedulerCost, TableIndex};
use super::{TableEntry, TableSide, TraceTableEntry};
use crate::problems::{ClassRef, Problems};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Table sizes the Advanced Switching basic table allows.
pub const AS_TABLE_SIZES: [usize; 6] = [32, 64, 128, 256, 512, 1024];
/// Highest VC id of an Advanced Switching table entry (5 bits).
pub const AS_MAX_VC: u32 = 31;

/// An Advanced Switching basic arbitration table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AsBasicConfig {
    /// The class (VC) of each entry, cycled in order; 32, 64, 128, 256, 512 or 1024 entries.
    pub table: Vec<u32>,
}

/// The AS basic table arbiter state.
#[derive(Clone, Debug)]
pub struct AsBasic {
    /// Class of each entry.
    owners: Vec<usize>,
    index: TableIndex,
    /// Index of the selected entry; starts at the last entry so the first search begins
    /// at entry 0.
    current: usize,
    /// Class of the selected entry (None before the first decision).
    selected: Option<usize>,
    cost: SchedulerCost,
}

impl AsBasic {
    /// An AS basic table over `classes` classes; `table[i]` is the class of entry `i`
    /// (validated: a legal table size, class indices in range). Entries naming a class
    /// outside `0..classes` are never selected.
    pub fn new(table: &[u32], classes: usize) -> AsBasic {
        let owners: Vec<usize> = table.iter().map(|&c| c as usize).collect();
        AsBasic {
            index: TableIndex::new(&owners, classes),
            current: owners.len().saturating_sub(1),
            owners,
            selected: None,
            cost: SchedulerCost::default(),
        }
    }

    /// Index of the selected entry (None before the first decision).
    pub fn entry(&self) -> Option<usize> {
        self.selected.map(|_| self.current)
    }
}

impl SchedulerSpec for AsBasic {
    type Config = AsBasicConfig;

    fn validate(config: &AsBasicConfig, classes: &[ClassRef<'_>], at: &str, p: &mut Problems) {
        let path = format!("{at}.table");
        if !AS_TABLE_SIZES.contains(&config.table.len()) {
            p.add(
                path.clone(),
                format!(
                    "must hold 32, 64, 128, 256, 512 or 1024 entries (an Advanced Switching basic table; got {})",
                    config.table.len()
                ),
            );
        }
        for (j, &class) in config.table.iter().enumerate() {
            if class > AS_MAX_VC {
                p.add(
                    format!("{path}[{j}]"),
                    format!("{class} is not a VC id: Advanced Switching VC ids are 0 to {AS_MAX_VC} (5 bits)"),
                );
            } else {
                class_index(class, classes.len(), &format!("{path}[{j}]"), p);
            }
        }
        let entries: Vec<TableEntry> = config
            .table
            .iter()
            .map(|&class| TableEntry { class, weight: 1 })
            .collect();
        require_entries(classes, &[&entries], p);
    }

    fn starting(c: &Carried<'_>) -> AsBasicConfig {
        // One packet per entry: entries in proportion to share / mean packet size, in the
        // smallest table giving every class 4 entries (else the largest), WF2Q-spread.
        let per_packet: Vec<f64> = c
            .shares
            .iter()
            .zip(c.classes)
            .map(|(&s, class)| s / class.mean_bytes.max(1.0))
            .collect();
        let want = 4 * c.classes.len();
        let size = AS_TABLE_SIZES
            .iter()
            .copied()
            .find(|&z| z >= want)
            .unwrap_or(AS_TABLE_SIZES[AS_TABLE_SIZES.len() - 1]);
        AsBasicConfig {
            table: interleave(&apportion_shares(&per_packet, size as u64)),
        }
    }

    fn carries(config: &AsBasicConfig, classes: &[ClassSize]) -> Carries {
        // Bytes follow packet sizes: entries x mean packet size.
        let mut weights = vec![0.0; classes.len()];
        for &c in &config.table {
            if let (Some(w), Some(class)) = (weights.get_mut(c as usize), classes.get(c as usize)) {
                *w += usable(class.mean_bytes);
            }
        }
        Carries {
            weights: Some(weights),
            ..Carries::default()
        }
    }

    fn build(config: &AsBasicConfig, port: PortSetup) -> Self {
        AsBasic::new(&config.table, port.classes)
    }

    fn table_layout(config: &AsBasicConfig) -> Vec<TraceTableEntry> {
        config
            .table
            .iter()
            .enumerate()
            .map(|(i, &class)| TraceTableEntry {
                table: TableSide::Main,
                index: i as u32,
                class,
                weight: None,
            })
            .collect()
    }
}

impl Scheduler for AsBasic {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        let n = self.owners.len();
        let (found, words) = self
            .index
            .next_owned_by_any(port.active_mask(), self.current + 1);
        self.cost.bitmap_words += words;
        let entry = found?;
        let class = *self.owners.get(entry)?;
        // A hardware arbiter steps over every entry from the one after the pointer up to
        // and including the chosen one.
        self.cost.entries_visited += ((entry + n - self.current - 1) % n + 1) as u64;
        self.current = entry;
        self.selected = Some(class);
        self.cost.decisions += 1;
        Some(class)
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        Registers {
            entry: self.entry().map(|e| e as u32),
            selected: self.selected.map(|c| c as u32),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
#[path = "as_basic_config_tests.rs"]
mod config_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;
    use proptest::prelude::*;

    /// Hand-worked: table [0, 1, 0, 2]; class 0 holds 3 packets of 4 credits, class 1 one
    /// packet of 1 credit, class 2 is empty.
    #[test]
    fn worked_example_one_packet_per_entry() {
        let mut s = AsBasic::new(&[0, 1, 0, 2], 3);
        let mut port = MockPort::new(3, 1000);
        port.push(0, 4, 3);
        port.push(1, 1, 1);
        // Entry 0 (class 0) sends one packet although it is 4 credits.
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.entry(), Some(0));
        // Entry 1: class 1.
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(s.entry(), Some(1));
        // Entry 2: class 0 again.
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.entry(), Some(2));
        // Entry 3 (class 2, empty) and entry 1 (class 1, now empty) are skipped: entry 0.
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.entry(), Some(0));
        assert_eq!(port.step(&mut s), None);
        let c = s.cost();
        assert_eq!(c.decisions, 4);
        // 1 (entry 0) + 1 (entry 1) + 1 (entry 2) + 2 (entries 3, 0) = 5.
        assert_eq!(c.entries_visited, 5);
        // One bitmap word per search that finds its entry after the pointer; the fourth
        // wraps (the word from entry 3 on, then its low part); the last has no active
        // class and examines nothing.
        assert_eq!(c.bitmap_words, 1 + 1 + 1 + 2);
        let r = s.registers();
        assert_eq!((r.entry, r.selected), (Some(0), Some(0)));
    }

    /// A class blocked by flow control is skipped while blocked and served again once its
    /// credits return.
    #[test]
    fn blocked_class_is_skipped() {
        let mut s = AsBasic::new(&[0, 1], 2);
        let mut port = MockPort::new(2, 100);
        port.free[0] = 2;
        port.push(0, 2, 3);
        port.push(1, 1, 3);
        assert_eq!(port.step(&mut s), Some(0)); // class 0 now has 0 free credits
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), Some(1)); // entry 0 skipped: blocked
        port.free[0] = 4;
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), None);
    }

    /// Equal entries per VC, backlogged queues of different packet sizes: over whole
    /// table cycles every VC sends exactly the same number of packets, so bandwidth is
    /// proportional to packet size.
    #[test]
    fn equal_entries_equal_packets() {
        let table: Vec<u32> = (0..32).map(|i| i % 4).collect();
        let mut s = AsBasic::new(&table, 4);
        let mut port = MockPort::new(4, u32::MAX);
        let sizes = [1u32, 4, 16, 32];
        let mut packets = [0u64; 4];
        let mut credits = [0u64; 4];
        for _ in 0..(32 * 10) {
            for (c, &sz) in sizes.iter().enumerate() {
                if port.queues[c].is_empty() {
                    port.push(c, sz, 2);
                }
            }
            let c = port.step(&mut s).unwrap();
            packets[c] += 1;
            credits[c] += u64::from(sizes[c]);
        }
        assert_eq!(packets, [80; 4]);
        assert_eq!(credits, [80, 320, 1280, 2560]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Work conserving over the classes that own an entry, never an inactive class,
        /// and the chosen class owns the selected entry.
        #[test]
        fn invariants(
            table in proptest::collection::vec(0u32..5, 1..80),
            sizes in proptest::collection::vec(1u32..40, 5),
            free in proptest::collection::vec(0u32..80, 5),
            steps in 1usize..60,
        ) {
            let mut s = AsBasic::new(&table, 5);
            let mut port = MockPort::new(5, 0);
            port.free = free;
            for (c, &sz) in sizes.iter().enumerate() {
                port.push(c, sz, 3);
            }
            for _ in 0..steps {
                let servable = (0..5).any(|c| port.is_active(c) && table.contains(&(c as u32)));
                let before = port.clone();
                match port.step(&mut s) {
                    Some(c) => {
                        prop_assert!(before.is_active(c));
                        let e = s.entry().unwrap();
                        prop_assert_eq!(table[e] as usize, c);
                    }
                    None => prop_assert!(!servable),
                }
                prop_assert_eq!(s.cost().decisions as usize, (0..5).map(|c| 3 - port.queues[c].len()).sum::<usize>());
            }
        }
    }
}
