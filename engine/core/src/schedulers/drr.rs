//! Deficit Round Robin (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Drr;

impl Drr {
    pub fn new(quanta_bytes: &[u32]) -> Drr {
        todo!("Deficit Round Robin")
    }
}

impl Scheduler for Drr {
    fn kind(&self) -> &'static str {
        "drr"
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
