//! Deficit Round Robin (DRR, Shreedhar and Varghese 1996), credit-aware.
//!
//! Each class i has a quantum `Q_i` and a deficit counter `DC_i`, both in bytes. The
//! active classes (head packet present and fitting in the downstream credits) are visited
//! round robin; on a visit
//!
//! ```text
//! DC_i += Q_i
//! while class i is active and size(head of i) <= DC_i:
//!     DC_i -= size(head of i); send the head of i
//! if the queue of i is empty: DC_i = 0
//! ```
//!
//! The long-run bandwidth share of class i is `Q_i / sum(Q)` when all classes are
//! backlogged, whatever the packet sizes.
//!
//! Modelling choices:
//! - The round robin visits the classes in index order, cyclically (a fixed ring rather
//!   than the paper's list of backlogged flows in arrival order); inactive classes are
//!   skipped and receive no quantum.
//! - Credit-aware: a class whose head lacks credits ends its turn and *keeps* its deficit,
//!   capped at one quantum `Q_i` (it is owed at most the turn it could not use; without
//!   the cap a class repeatedly blocked after one small packet would pile up a deficit
//!   without bound and later monopolise the link). Only an emptied queue resets the
//!   deficit to 0. So `0 <= DC_i < 2 Q_i + MTU` at all times.
//! - The port asks for one packet at a time, so the class in its turn is remembered
//!   between calls and served again while its head fits.
//! - A quantum smaller than the head packet needs several visits to accumulate. When a
//!   whole round of the active classes sends nothing, the rounds that would still send
//!   nothing are skipped at once (each active class gets the quanta of those rounds), so
//!   a decision takes at most about two rounds of visits whatever the quanta.

use super::rules::per_class_values;
use super::starting::{Carried, Carries, ClassSize, largest_packet};
use super::{PortSetup, SchedulerSpec};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::problems::{ClassRef, Problems};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Largest DRR quantum, in bytes.
pub const MAX_QUANTUM_BYTES: u32 = 1 << 24;

/// Deficit Round Robin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct DrrConfig {
    /// Quantum of each class in bytes (1 to 16777216); shares are the quanta's proportions.
    pub quanta_bytes: Vec<u32>,
}

/// The DRR scheduler state.
#[derive(Clone, Debug)]
pub struct Drr {
    /// Quantum of each class, in bytes.
    quantum: Vec<i64>,
    /// Deficit counter of each class, in bytes.
    deficit: Vec<i64>,
    /// The class whose turn it is (None between turns).
    current: Option<usize>,
    /// The round-robin pointer: the last class visited.
    pointer: usize,
    cost: SchedulerCost,
}

impl Drr {
    /// A DRR scheduler with one quantum (in bytes, validated: 1 to 2^24) per class.
    pub fn new(quanta_bytes: &[u32]) -> Drr {
        let n = quanta_bytes.len();
        Drr {
            quantum: quanta_bytes.iter().map(|&q| i64::from(q.max(1))).collect(),
            deficit: vec![0; n],
            current: None,
            pointer: n.saturating_sub(1),
            cost: SchedulerCost::default(),
        }
    }

    /// The deficit counter of `class`, in bytes.
    pub fn deficit(&self, class: usize) -> i64 {
        self.deficit.get(class).copied().unwrap_or(0)
    }

    /// The class whose turn it is.
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// The size in bytes of the head of `class` if the class is active.
    fn active_head(port: &dyn PortView, class: usize) -> Option<i64> {
        let head = port.head(class)?;
        (head.credits <= port.free_credits(class)).then_some(i64::from(head.bytes))
    }

    /// Visits the next active class after the pointer (cyclic), giving it its quantum.
    fn visit_next(&mut self, port: &dyn PortView) -> Option<usize> {
        let n = self.quantum.len();
        for step in 1..=n {
            let c = (self.pointer + step) % n;
            self.cost.classes_examined += 1;
            if Self::active_head(port, c).is_some() {
                self.pointer = c;
                self.deficit[c] += self.quantum[c];
                return Some(c);
            }
        }
        None
    }

    /// After a full round of visits that sent nothing: adds the quanta of the further
    /// rounds that would send nothing either, so the next round sends.
    fn skip_empty_rounds(&mut self, port: &dyn PortView) {
        let n = self.quantum.len();
        let mut rounds = i64::MAX;
        for c in 0..n {
            self.cost.classes_examined += 1;
            if let Some(bytes) = Self::active_head(port, c) {
                let missing = bytes - self.deficit[c];
                let needed = if missing <= 0 {
                    0
                } else {
                    (missing + self.quantum[c] - 1) / self.quantum[c]
                };
                rounds = rounds.min(needed);
            }
        }
        if rounds == i64::MAX || rounds <= 1 {
            return;
        }
        for c in 0..n {
            if Self::active_head(port, c).is_some() {
                self.deficit[c] += (rounds - 1) * self.quantum[c];
            }
        }
    }
}

impl SchedulerSpec for Drr {
    type Config = DrrConfig;

    fn validate(config: &DrrConfig, classes: &[ClassRef<'_>], at: &str, p: &mut Problems) {
        per_class_values(
            &config.quanta_bytes,
            classes.len(),
            &format!("{at}.quanta_bytes"),
            p,
            |q| (1..=MAX_QUANTUM_BYTES).contains(&q),
            &format!("must be between 1 and {MAX_QUANTUM_BYTES} bytes"),
        );
    }

    fn starting(c: &Carried<'_>) -> DrrConfig {
        // Quanta in proportion to the shares, the smallest positive share getting its
        // class's largest packet (every class can send a packet each round).
        let min = c
            .shares
            .iter()
            .copied()
            .filter(|&s| s > 0.0)
            .fold(f64::INFINITY, f64::min);
        let base = c
            .shares
            .iter()
            .zip(c.classes)
            .filter(|&(&s, _)| s > 0.0)
            .map(|(&s, class)| f64::from(largest_packet(class)) * min / s)
            .fold(1.0, f64::max);
        let quantum = |x: f64| (x.round() as u32).clamp(1, MAX_QUANTUM_BYTES);
        let quanta_bytes = c
            .shares
            .iter()
            .map(|&s| {
                if s > 0.0 {
                    quantum(s / min * base)
                } else {
                    quantum(base)
                }
            })
            .collect();
        DrrConfig { quanta_bytes }
    }

    fn carries(config: &DrrConfig, classes: &[ClassSize]) -> Carries {
        let weights = (0..classes.len())
            .map(|i| config.quanta_bytes.get(i).map_or(0.0, |&q| f64::from(q)))
            .collect();
        Carries {
            weights: Some(weights),
            ..Carries::default()
        }
    }

    fn build(config: &DrrConfig, _port: PortSetup) -> Self {
        Drr::new(&config.quanta_bytes)
    }
}

impl Scheduler for Drr {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        let n = self.quantum.len();
        let mut class = match self.current {
            Some(c) => {
                self.cost.classes_examined += 1;
                c
            }
            None => self.visit_next(port)?,
        };
        // Every visit below either sends or ends a turn; after one empty round the empty
        // rounds are skipped, so the next round sends. The bound is a safety net.
        let mut failed_visits = 0usize;
        for _ in 0..(4 * n + 4) {
            match Self::active_head(port, class) {
                Some(bytes) if bytes <= self.deficit[class] => {
                    self.deficit[class] -= bytes;
                    self.current = Some(class);
                    self.cost.decisions += 1;
                    return Some(class);
                }
                // Head too big for the deficit, or blocked by credits: the turn ends and
                // the class keeps its deficit (at most one quantum when blocked).
                other => {
                    if other.is_none() {
                        self.deficit[class] = self.deficit[class].min(self.quantum[class]);
                    }
                    self.current = None;
                    failed_visits += 1;
                    if failed_visits == n + 1 {
                        self.skip_empty_rounds(port);
                    }
                    class = self.visit_next(port)?;
                }
            }
        }
        self.current = None;
        None
    }

    fn after_send(&mut self, _now: SimTime, class: usize, port: &dyn PortView) {
        if port.head(class).is_none() {
            // An emptied queue forfeits its deficit and ends its turn.
            if let Some(d) = self.deficit.get_mut(class) {
                *d = 0;
            }
            self.current = None;
        }
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        Registers {
            selected: self.current.map(|c| c as u32),
            deficit: Some(self.deficit.clone()),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
#[path = "drr_skip_tests.rs"]
mod skip_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;

    /// Hand-worked example: quanta 256 B and 128 B; class 0 holds three 128-byte packets
    /// (2 credits), class 1 three 192-byte packets (3 credits).
    #[test]
    fn worked_example() {
        let mut d = Drr::new(&[256, 128]);
        let mut port = MockPort::new(2, 1000);
        port.push(0, 2, 3);
        port.push(1, 3, 3);
        // Visit class 0: DC0 = 256, send 128 (DC0 128), send 128 (DC0 0).
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(d.deficit(0), 128);
        // Its turn goes on: 128 B left cover the next 128-byte head.
        assert_eq!(d.current(), Some(0));
        let r = d.registers();
        assert_eq!((r.selected, r.deficit), (Some(0), Some(vec![128, 0])));
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(d.deficit(0), 0);
        // 128 > 0: turn ends. Visit class 1: DC1 = 128 < 192: turn ends with DC1 = 128.
        // Visit class 0: DC0 = 256, send 128 -> queue empty: DC0 = 0.
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(d.deficit(0), 0);
        assert_eq!(d.deficit(1), 128);
        assert_eq!(d.current(), None);
        // Visit class 1: DC1 = 256, send 192 (DC1 64); 192 > 64: turn ends.
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(d.deficit(1), 64);
        // Class 0 is empty (skipped). Visit class 1: DC1 = 192, send 192 (DC1 0).
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(d.deficit(1), 0);
        // Visit class 1: DC1 = 128 < 192; visit again: 256, send -> empty: DC1 = 0.
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(d.deficit(1), 0);
        assert_eq!(port.step(&mut d), None);
        assert_eq!(d.cost().decisions, 6);
        let r = d.registers();
        assert_eq!(r.deficit, Some(vec![0, 0]));
        assert_eq!(r.selected, None);
    }

    /// Quanta far below the packet size: several visits accumulate, still terminating,
    /// and the shares follow the quanta.
    #[test]
    fn tiny_quanta_accumulate_over_visits() {
        let mut d = Drr::new(&[1, 3]);
        let mut port = MockPort::new(2, u32::MAX);
        let mut bytes = [0u64; 2];
        for _ in 0..4000 {
            for c in 0..2 {
                if port.queues[c].len() < 2 {
                    port.push(c, 32, 2); // 2048-byte packets
                }
            }
            let c = port.step(&mut d).unwrap();
            bytes[c] += 2048;
        }
        let share = bytes[0] as f64 / (bytes[0] + bytes[1]) as f64;
        assert!((share - 0.25).abs() < 0.01, "share {share}");
        // Each decision examines a bounded number of classes despite 1-byte quanta.
        let c = d.cost();
        assert!(c.classes_examined < 20 * c.decisions, "{c:?}");
    }

    /// A class whose head lacks credits ends its turn and keeps its deficit.
    #[test]
    fn credit_blocked_class_keeps_its_deficit() {
        let mut d = Drr::new(&[512, 512]);
        let mut port = MockPort::new(2, 1000);
        port.free[0] = 3; // room for one 128-byte (2-credit) packet
        port.push(0, 2, 3);
        port.push(1, 2, 3);
        // Visit class 0: DC0 = 512, send 128 (DC0 384); now blocked by credits.
        assert_eq!(port.step(&mut d), Some(0));
        // Turn ends, DC0 kept at 384. Visit class 1: DC1 = 512, sends all three packets.
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(d.deficit(0), 384);
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(port.step(&mut d), Some(1));
        assert_eq!(d.deficit(1), 0, "emptied queue resets its deficit");
        // Only class 0 left and it is blocked: nothing to send, deficit still kept.
        assert_eq!(port.step(&mut d), None);
        assert_eq!(d.deficit(0), 384);
        // Credits return: class 0 is visited again: DC0 = 384 + 512 = 896.
        port.free[0] = 10;
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(d.deficit(0), 768);
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(d.deficit(0), 0);
        assert_eq!(port.step(&mut d), None);
    }

    /// A class blocked after each packet keeps at most one quantum of deficit.
    #[test]
    fn kept_deficit_is_capped_at_one_quantum() {
        let mut d = Drr::new(&[512, 512]);
        let mut port = MockPort::new(2, 1);
        port.push(0, 1, 5); // 64-byte packets, one credit free at a time
        // Visit: DC0 = 512, send 64 (448), then blocked: keeps 448 (< 512).
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(port.step(&mut d), None);
        assert_eq!(d.deficit(0), 448);
        port.free[0] = 1;
        // Visit: DC0 = 960, send 64 (896), blocked: capped to 512.
        assert_eq!(port.step(&mut d), Some(0));
        assert_eq!(d.deficit(0), 896);
        assert_eq!(port.step(&mut d), None);
        assert_eq!(d.deficit(0), 512);
    }

    /// Equal quanta, unequal packet sizes: equal bytes per class.
    #[test]
    fn equal_quanta_give_equal_bytes() {
        let mut d = Drr::new(&[2048, 2048, 2048]);
        let mut port = MockPort::new(3, u32::MAX);
        let sizes = [1u32, 7, 32];
        let mut served = [0u64; 3];
        for _ in 0..50_000 {
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
            assert!((s as f64 / total as f64 - 1.0 / 3.0).abs() < 0.01);
        }
    }
}
