//! Earliest deadline first.
//!
//! Each class has a relative deadline; a packet's absolute deadline is its generation
//! time plus its class's relative deadline. At each decision the *active* head (head
//! packet fitting in its class's downstream credits) with the earliest absolute deadline
//! sends; equal deadlines go to the older packet (smaller `Head::id`). Credit-aware: a
//! blocked head is passed over even when its deadline is the earliest. Only heads are
//! compared (packets of one class have increasing deadlines, since they are generated in
//! order and share the relative deadline), so a decision is a scan of the classes
//! (`classes_examined`). The registers show each class's head deadline in ns.

use super::rules::per_class_values;
use super::starting::{Carried, Carries, ClassSize, largest_packet};
use super::strict_priority::MAX_PRIORITY;
use super::{PortSetup, SchedulerSpec};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::problems::{ClassRef, Problems};
use crate::time::{PS_PER_NS, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Longest EDF relative deadline, in nanoseconds (1000 s).
pub const MAX_DEADLINE_NS: u64 = 1_000_000_000_000;

/// Earliest deadline first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct EdfConfig {
    /// Relative deadline of each class in nanoseconds (1 to 10^12).
    #[ts(type = "Array<number>")]
    pub deadlines_ns: Vec<u64>,
}

/// The EDF scheduler state.
#[derive(Clone, Debug)]
pub struct Edf {
    /// Relative deadline of each class, in ps.
    deadlines_ps: Vec<u64>,
    /// Absolute deadline of each class's head packet, in ns (None for an empty queue),
    /// refreshed on every call that may change a head.
    head_deadlines_ns: Vec<Option<f64>>,
    /// Class of the last packet sent.
    selected: Option<usize>,
    cost: SchedulerCost,
}

impl Edf {
    /// An EDF scheduler; `deadlines_ns[c]` is the relative deadline of class `c` in ns
    /// (validated: 1 to 10^12).
    pub fn new(deadlines_ns: &[u64]) -> Edf {
        Edf {
            deadlines_ps: deadlines_ns
                .iter()
                .map(|&d| d.saturating_mul(PS_PER_NS))
                .collect(),
            head_deadlines_ns: vec![None; deadlines_ns.len()],
            selected: None,
            cost: SchedulerCost::default(),
        }
    }

    /// Absolute deadline of the head of `class`, in ps.
    fn deadline(&self, created: SimTime, class: usize) -> u64 {
        let rel = self.deadlines_ps.get(class).copied().unwrap_or(0);
        created.as_ps().saturating_add(rel)
    }

    fn refresh(&mut self, class: usize, port: &dyn PortView) {
        let deadline = port
            .head(class)
            .map(|h| self.deadline(h.created, class) as f64 / PS_PER_NS as f64);
        if let Some(slot) = self.head_deadlines_ns.get_mut(class) {
            *slot = deadline;
        }
    }
}

impl SchedulerSpec for Edf {
    type Config = EdfConfig;

    fn validate(config: &EdfConfig, classes: &[ClassRef<'_>], at: &str, p: &mut Problems) {
        per_class_values(
            &config.deadlines_ns,
            classes.len(),
            &format!("{at}.deadlines_ns"),
            p,
            |d| (1..=MAX_DEADLINE_NS).contains(&d),
            &format!("must be between 1 and {MAX_DEADLINE_NS} ns"),
        );
    }

    fn starting(c: &Carried<'_>) -> EdfConfig {
        let deadlines_ns = match &c.priorities {
            // Higher priority, shorter deadline: 1 us per rank below the top.
            Some(p) => {
                let top = p.iter().copied().max().unwrap_or(0);
                (0..c.classes.len())
                    .map(|i| (u64::from(top - p.get(i).copied().unwrap_or(0).min(top)) + 1) * 1000)
                    .collect()
            }
            // Time to send the class's largest packet at its share (bits / (Gb/s) = ns).
            None => c
                .shares
                .iter()
                .zip(c.classes)
                .map(|(&s, class)| {
                    if s > 0.0 {
                        let ns =
                            (f64::from(largest_packet(class)) * 8.0 / (s * c.rate_gbps)).ceil();
                        (ns.min(MAX_DEADLINE_NS as f64) as u64).max(1)
                    } else {
                        1_000_000
                    }
                })
                .collect(),
        };
        EdfConfig { deadlines_ns }
    }

    fn carries(config: &EdfConfig, classes: &[ClassSize]) -> Carries {
        // Shorter deadline = higher priority (ties to the lower class index).
        let n = classes.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (config.deadlines_ns.get(i).copied().unwrap_or(u64::MAX), i));
        let mut priorities = vec![0; n];
        for (rank, &class) in order.iter().enumerate() {
            priorities[class] = u32::try_from(n - 1 - rank)
                .unwrap_or(u32::MAX)
                .min(MAX_PRIORITY);
        }
        Carries {
            priorities: Some(priorities),
            ..Carries::default()
        }
    }

    fn build(config: &EdfConfig, _port: PortSetup) -> Self {
        Edf::new(&config.deadlines_ns)
    }
}

impl Scheduler for Edf {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        let n = port.class_count();
        self.cost.classes_examined += n as u64;
        let class = (0..n)
            .filter_map(|c| {
                let head = port.head(c)?;
                (head.credits <= port.free_credits(c))
                    .then(|| (self.deadline(head.created, c), head.id, c))
            })
            .min()?
            .2;
        self.selected = Some(class);
        self.cost.decisions += 1;
        Some(class)
    }

    fn after_send(&mut self, _now: SimTime, class: usize, port: &dyn PortView) {
        self.refresh(class, port);
    }

    fn on_enqueue(&mut self, _now: SimTime, class: usize, _bytes: u32, port: &dyn PortView) {
        self.refresh(class, port);
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        Registers {
            selected: self.selected.map(|c| c as u32),
            deadlines_ns: Some(self.head_deadlines_ns.clone()),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
#[path = "edf_tests.rs"]
mod rules_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::Head;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    /// A port whose packets carry generation times (MockPort's are all created at 0).
    struct TimedPort {
        queues: Vec<VecDeque<Head>>,
        free: Vec<u32>,
        next_id: u64,
    }

    impl TimedPort {
        fn new(classes: usize, free: u32) -> TimedPort {
            TimedPort {
                queues: vec![VecDeque::new(); classes],
                free: vec![free; classes],
                next_id: 0,
            }
        }
        fn arrive(&mut self, s: &mut Edf, class: usize, created_ns: u64, credits: u32) {
            self.queues[class].push_back(Head {
                id: self.next_id,
                bytes: credits * 64,
                credits,
                created: SimTime(created_ns * PS_PER_NS),
            });
            self.next_id += 1;
            s.on_enqueue(SimTime::ZERO, class, credits * 64, self);
        }
        fn step(&mut self, s: &mut Edf) -> Option<usize> {
            let c = s.select(SimTime::ZERO, self)?;
            let h = self.queues[c].pop_front().unwrap();
            assert!(h.credits <= self.free[c]);
            self.free[c] -= h.credits;
            s.after_send(SimTime::ZERO, c, self);
            Some(c)
        }
    }

    impl PortView for TimedPort {
        fn class_count(&self) -> usize {
            self.queues.len()
        }
        fn head(&self, class: usize) -> Option<Head> {
            self.queues[class].front().copied()
        }
        fn free_credits(&self, class: usize) -> u32 {
            self.free[class]
        }
    }

    /// Deadlines 1000 ns and 100 ns: a class-1 packet created at 500 ns (deadline 600)
    /// beats a class-0 packet created at 0 (deadline 1000); equal deadlines go to the
    /// older packet; a blocked head is passed over.
    #[test]
    fn worked_example_with_blocking() {
        let mut s = Edf::new(&[1000, 100]);
        let mut port = TimedPort::new(2, 100);
        port.arrive(&mut s, 0, 0, 1); // id 0, deadline 1000
        port.arrive(&mut s, 1, 500, 1); // id 1, deadline 600
        port.arrive(&mut s, 1, 900, 1); // id 2, deadline 1000 (tie with id 0)
        assert_eq!(
            s.registers().deadlines_ns,
            Some(vec![Some(1000.0), Some(600.0)])
        );
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(
            s.registers().deadlines_ns,
            Some(vec![Some(1000.0), Some(1000.0)])
        );
        assert_eq!(port.step(&mut s), Some(0)); // tie: id 0 older than id 2
        assert_eq!(s.registers().deadlines_ns, Some(vec![None, Some(1000.0)]));
        port.arrive(&mut s, 0, 0, 1); // id 3, deadline 1000; earlier than nothing else
        port.free[1] = 0; // class 1 blocked
        port.arrive(&mut s, 1, 0, 1); // behind id 2 in class 1
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), None);
        port.free[1] = 10;
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(s.registers().selected, Some(1));
        assert_eq!(s.cost().decisions, 5);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Work conserving, never an inactive class, always the earliest active deadline
        /// (ties by id), and the registers track the heads.
        #[test]
        fn invariants(
            rel in proptest::collection::vec(1u64..5000, 4),
            arrivals in proptest::collection::vec((0usize..4, 0u64..10_000, 1u32..20), 1..40),
            free in proptest::collection::vec(0u32..60, 4),
            steps in 1usize..40,
        ) {
            let mut s = Edf::new(&rel);
            let mut port = TimedPort::new(4, 0);
            port.free = free;
            let mut sorted = arrivals.clone();
            sorted.sort_by_key(|a| a.1); // generation order
            for &(c, t, cr) in &sorted {
                port.arrive(&mut s, c, t, cr);
            }
            for _ in 0..steps {
                let best = (0..4)
                    .filter(|&c| port.is_active(c))
                    .map(|c| {
                        let h = port.queues[c][0];
                        (h.created.as_ps() + rel[c] * PS_PER_NS, h.id, c)
                    })
                    .min();
                prop_assert_eq!(port.step(&mut s), best.map(|b| b.2));
                let expect: Vec<Option<f64>> = (0..4)
                    .map(|c| port.queues[c].front().map(|h| h.created.as_ns_f64() + rel[c] as f64))
                    .collect();
                prop_assert_eq!(s.registers().deadlines_ns, Some(expect));
            }
        }
    }
}
