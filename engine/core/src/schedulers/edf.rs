//! EDF (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Edf;

impl Edf {
    pub fn new(deadlines_ns: &[u64]) -> Edf {
        todo!("EDF")
    }
}

impl Scheduler for Edf {
    fn kind(&self) -> &'static str {
        "edf"
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
