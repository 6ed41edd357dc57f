//! Strict priority.
//!
//! Each class has a fixed priority (0 to 255, higher first). At each decision the active
//! class (head packet present and fitting in its downstream credits) with the highest
//! priority sends; equal priorities go to the lower class index, or (`ties`) to the
//! oldest head among them, or round robin from the class after the last one sent. A class
//! blocked by flow control does not hold the link: the next active class in priority
//! order sends.
//!
//! The classes are sorted once, at construction, by (priority descending, index
//! ascending); a decision walks that order until the first active class, so
//! `classes_examined` counts the classes looked at.

use super::rules::per_class_values;
use super::starting::{Carried, Carries, ClassSize, index_priorities};
use super::{PortSetup, SchedulerSpec};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::problems::{ClassRef, Problems};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Highest priority a class may have.
pub const MAX_PRIORITY: u32 = 255;

/// Strict priority.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PriorityConfig {
    /// Priority of each class (0 to 255); higher sends first, equal priorities as `ties`
    /// says.
    pub priorities: Vec<u32>,
    /// Which of several active classes of the highest priority sends (absent: the lower
    /// class index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ties: Option<PriorityTies>,
}

/// How strict priority breaks a tie between active classes of equal priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PriorityTies {
    /// The lower class index (the default).
    Index,
    /// The oldest head (first in, first out among the tied classes: classes sharing one
    /// FIFO VC, as in the traditional two-VC design).
    Oldest,
    /// Round robin from the class after the last one sent.
    RoundRobin,
}

/// The strict-priority scheduler state.
#[derive(Clone, Debug)]
pub struct StrictPriority {
    /// Class indices in service order.
    order: Vec<usize>,
    /// Priority of each class.
    priorities: Vec<u32>,
    ties: PriorityTies,
    /// Class of the last packet sent.
    selected: Option<usize>,
    cost: SchedulerCost,
}

impl StrictPriority {
    /// A strict-priority scheduler; `priorities[c]` is the priority of class `c`.
    pub fn new(priorities: &[u32]) -> StrictPriority {
        StrictPriority::with_ties(priorities, PriorityTies::Index)
    }

    /// A strict-priority scheduler breaking ties between equal priorities by `ties`.
    pub fn with_ties(priorities: &[u32], ties: PriorityTies) -> StrictPriority {
        let mut order: Vec<usize> = (0..priorities.len()).collect();
        // Stable sort: equal priorities keep index order.
        order.sort_by_key(|&c| std::cmp::Reverse(priorities.get(c).copied().unwrap_or(0)));
        StrictPriority {
            order,
            priorities: priorities.to_vec(),
            ties,
            selected: None,
            cost: SchedulerCost::default(),
        }
    }
}

impl SchedulerSpec for StrictPriority {
    type Config = PriorityConfig;

    fn validate(config: &PriorityConfig, classes: &[ClassRef<'_>], at: &str, p: &mut Problems) {
        per_class_values(
            &config.priorities,
            classes.len(),
            &format!("{at}.priorities"),
            p,
            |prio| prio <= MAX_PRIORITY,
            &format!("must be between 0 and {MAX_PRIORITY}"),
        );
    }

    fn starting(c: &Carried<'_>) -> PriorityConfig {
        // The carried order, else class 0 highest.
        let priorities = match &c.priorities {
            Some(p) => (0..c.classes.len())
                .map(|i| p.get(i).copied().unwrap_or(0))
                .collect(),
            None => index_priorities(c.classes.len(), MAX_PRIORITY),
        };
        PriorityConfig {
            priorities,
            ties: None,
        }
    }

    fn carries(config: &PriorityConfig, classes: &[ClassSize]) -> Carries {
        let priorities = (0..classes.len())
            .map(|i| config.priorities.get(i).copied().unwrap_or(0))
            .collect();
        Carries {
            priorities: Some(priorities),
            ..Carries::default()
        }
    }

    fn build(config: &PriorityConfig, _port: PortSetup) -> Self {
        StrictPriority::with_ties(
            &config.priorities,
            config.ties.unwrap_or(PriorityTies::Index),
        )
    }
}

impl Scheduler for StrictPriority {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        let n = port.class_count();
        let mut examined = 0;
        let mut chosen = None;
        for &c in self.order.iter().filter(|&&c| c < n) {
            examined += 1;
            if port.is_active(c) {
                chosen = Some(c);
                break;
            }
        }
        let mut class = chosen?;
        if self.ties != PriorityTies::Index {
            // The tied classes follow the first one in `order` (equal priorities are
            // adjacent there, in index order).
            let level = self.priorities.get(class).copied().unwrap_or(0);
            let tied: Vec<usize> = self
                .order
                .iter()
                .copied()
                .filter(|&c| c < n && self.priorities.get(c).copied().unwrap_or(0) == level)
                .filter(|&c| c == class || port.is_active(c))
                .collect();
            examined += tied.len() as u64;
            class = match self.ties {
                PriorityTies::Oldest => tied
                    .iter()
                    .filter_map(|&c| port.head(c).map(|h| (h.id, c)))
                    .min()
                    .map_or(class, |(_, c)| c),
                _ => {
                    let after = self.selected.map_or(0, |s| s + 1);
                    tied.iter()
                        .copied()
                        .min_by_key(|&c| (c + n - after % n.max(1)) % n.max(1))
                        .unwrap_or(class)
                }
            };
        }
        self.cost.classes_examined += examined;
        self.selected = Some(class);
        self.cost.decisions += 1;
        Some(class)
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        Registers {
            selected: self.selected.map(|c| c as u32),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
#[path = "strict_priority_tests.rs"]
mod rules_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;
    use proptest::prelude::*;

    /// Priorities [1, 5, 5, 0]: class 1 before class 2 (equal, lower index), then 0, then 3;
    /// a blocked class is passed over while blocked.
    #[test]
    fn worked_example_with_blocking() {
        let mut s = StrictPriority::new(&[1, 5, 5, 0]);
        let mut port = MockPort::new(4, 100);
        for c in 0..4 {
            port.push(c, 2, 2);
        }
        port.free[1] = 2; // room for one packet of class 1
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(s.cost().classes_examined, 1);
        // Class 1 is now blocked: class 2 (same priority) goes.
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(s.cost().classes_examined, 1 + 2);
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(port.step(&mut s), Some(0));
        port.free[1] = 2;
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), Some(3));
        assert_eq!(port.step(&mut s), Some(3));
        assert_eq!(s.registers().selected, Some(3));
        assert_eq!(port.step(&mut s), None);
        assert_eq!(s.cost().decisions, 8);
    }

    /// Ties among active classes of the highest priority: the oldest head (classes 0-1
    /// share a FIFO VC above classes 2-3), or round robin; a lower priority never goes
    /// while a higher one is active.
    #[test]
    fn ties_oldest_and_round_robin() {
        let prios = [1, 1, 0, 0];
        let mut s = StrictPriority::with_ties(&prios, PriorityTies::Oldest);
        let mut port = MockPort::new(4, 100);
        // Arrival order: 2, 1, 0, 1, 3, 0.
        for c in [2, 1, 0, 1, 3, 0] {
            port.push(c, 1, 1);
        }
        let order: Vec<usize> = std::iter::from_fn(|| port.step(&mut s)).collect();
        assert_eq!(order, vec![1, 0, 1, 0, 2, 3]);

        let mut s = StrictPriority::with_ties(&prios, PriorityTies::RoundRobin);
        let mut port = MockPort::new(4, 100);
        for c in 0..4 {
            port.push(c, 1, 2);
        }
        let order: Vec<usize> = std::iter::from_fn(|| port.step(&mut s)).collect();
        assert_eq!(order, vec![0, 1, 0, 1, 2, 3, 2, 3]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Work conserving, never an inactive class, and no active class has a higher
        /// priority (or equal priority and lower index) than the chosen one.
        #[test]
        fn invariants(
            prios in proptest::collection::vec(0u32..4, 1..7),
            sizes in proptest::collection::vec(1u32..40, 7),
            free in proptest::collection::vec(0u32..80, 7),
            steps in 1usize..40,
        ) {
            let n = prios.len();
            let mut s = StrictPriority::new(&prios);
            let mut port = MockPort::new(n, 0);
            port.free = free[..n].to_vec();
            for (c, &size) in sizes.iter().enumerate().take(n) {
                port.push(c, size, 3);
            }
            for _ in 0..steps {
                let before = port.clone();
                let any = (0..n).any(|c| before.is_active(c));
                match port.step(&mut s) {
                    Some(c) => {
                        prop_assert!(before.is_active(c));
                        for o in (0..n).filter(|&o| before.is_active(o)) {
                            prop_assert!((prios[o], std::cmp::Reverse(o)) <= (prios[c], std::cmp::Reverse(c)));
                        }
                    }
                    None => prop_assert!(!any),
                }
            }
        }
    }
}
