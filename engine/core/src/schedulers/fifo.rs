//! First in, first out across classes.
//!
//! Each packet has a generation order (`Head::id`, unique and increasing across the
//! classes of a port). At each decision the *active* head (head packet fitting in its
//! class's downstream credits) with the smallest id sends: this is FIFO among the active
//! heads. Credit-aware: a head blocked by flow control is passed over, so a later packet
//! of another class may overtake it; within a class the order is always FIFO (only heads
//! are served). Each decision looks at every class (`classes_examined`).

use super::starting::Carried;
use super::{PortSetup, SchedulerSpec};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::problems::{ClassRef, Problems};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// FIFO has no parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct FifoConfig {}

/// [`Fifo`]'s selected class before its first decision.
const NOT_YET: u32 = u32::MAX;

/// The FIFO scheduler state.
#[derive(Clone, Debug)]
pub struct Fifo {
    /// Class of the last packet sent ([`NOT_YET`] before the first). A plain number
    /// rather than an `Option`: the port's scheduler enum then keeps a tag of its own
    /// instead of packing it into the option's, which every dispatch would decode.
    selected: u32,
    /// Packets chosen (its [`SchedulerCost::decisions`]).
    decisions: u64,
    /// Classes looked at (its [`SchedulerCost::classes_examined`]; FIFO does no other
    /// work the costs count). Two counters instead of the whole cost keep the state in
    /// 24 bytes: the ports hold FIFO in place.
    classes_examined: u64,
}

impl Fifo {
    /// A FIFO scheduler over `classes` classes.
    pub fn new(classes: usize) -> Fifo {
        let _ = classes; // FIFO keeps no per-class state.
        Fifo {
            selected: NOT_YET,
            decisions: 0,
            classes_examined: 0,
        }
    }
}

impl SchedulerSpec for Fifo {
    type Config = FifoConfig;

    fn validate(_config: &FifoConfig, _classes: &[ClassRef<'_>], _at: &str, _p: &mut Problems) {}

    fn starting(_carried: &Carried<'_>) -> FifoConfig {
        FifoConfig {}
    }

    fn build(_config: &FifoConfig, port: PortSetup) -> Self {
        Fifo::new(port.classes)
    }
}

impl Fifo {
    /// `select`, generic over the view (see [`Scheduler::select_in`]).
    #[inline]
    fn choose<P: PortView + ?Sized>(&mut self, port: &P) -> Option<usize> {
        let n = port.class_count();
        self.classes_examined += n as u64;
        // One class: no ids to compare (the oldest active head is its head, if active).
        let class = if n == 1 {
            port.is_active(0).then_some(0)?
        } else {
            Self::oldest_active(port, n)?
        };
        self.selected = class as u32;
        self.decisions += 1;
        Some(class)
    }

    /// The class of the active head with the smallest id among `n` classes.
    #[inline]
    fn oldest_active<P: PortView + ?Sized>(port: &P, n: usize) -> Option<usize> {
        (0..n)
            .filter_map(|c| {
                let head = port.head(c)?;
                (head.credits <= port.free_credits(c)).then_some((head.id, c))
            })
            .min()
            .map(|(_, class)| class)
    }
}

impl Scheduler for Fifo {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        self.choose(port)
    }

    fn select_in<P: PortView>(&mut self, _now: SimTime, port: &P) -> Option<usize> {
        self.choose(port)
    }

    fn cost(&self) -> SchedulerCost {
        SchedulerCost {
            decisions: self.decisions,
            classes_examined: self.classes_examined,
            ..SchedulerCost::default()
        }
    }

    fn registers(&self) -> Registers {
        Registers {
            selected: (self.selected != NOT_YET).then_some(self.selected),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;
    use proptest::prelude::*;

    /// Arrival order 0, 1, 0, 2 is served in that order; a blocked head is overtaken.
    #[test]
    fn worked_example_with_blocking() {
        let mut s = Fifo::new(3);
        let mut port = MockPort::new(3, 100);
        port.push(0, 1, 1); // id 0
        port.push(1, 1, 1); // id 1
        port.push(0, 1, 1); // id 2
        port.push(2, 4, 1); // id 3
        port.arrive(SimTime::ZERO, &mut s, 1, 1); // id 4
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), Some(1));
        port.free[0] = 0; // id 2 blocked: id 3 overtakes it
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), None);
        port.free[0] = 1;
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.registers().selected, Some(0));
        assert_eq!(s.cost().decisions, 5);
        assert_eq!(s.cost().classes_examined, 6 * 3);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Work conserving, never an inactive class, always the oldest active head; with
        /// one class (its own path, no ids compared) as with several.
        #[test]
        fn invariants(
            classes in 1usize..6,
            arrivals in proptest::collection::vec((0usize..5, 1u32..30), 1..40),
            free in proptest::collection::vec(0u32..60, 5),
            steps in 1usize..40,
        ) {
            let mut s = Fifo::new(classes);
            let mut port = MockPort::new(classes, 0);
            port.free = free[..classes].to_vec();
            for &(c, sz) in &arrivals {
                port.push(c % classes, sz, 1);
            }
            for _ in 0..steps {
                let before = port.clone();
                let oldest = (0..classes)
                    .filter(|&c| before.is_active(c))
                    .map(|c| (before.ids[c][0], c))
                    .min();
                prop_assert_eq!(port.step(&mut s), oldest.map(|o| o.1));
            }
        }
    }
}
