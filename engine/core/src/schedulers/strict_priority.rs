//! strict priority (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct StrictPriority;

impl StrictPriority {
    pub fn new(priorities: &[u32]) -> StrictPriority {
        todo!("strict priority")
    }
}

impl Scheduler for StrictPriority {
    fn kind(&self) -> &'static str {
        "strict_priority"
    }
    fn select(&mut self, _now: SimTime, _port: &dyn PortView) -> Option<usize> {
        todo!()
    }
    fn cost(&self) -> SchedulerCost {
        todo!()
    }
    fn registers(&self) -> Registers {
        todo!()
    }
}
