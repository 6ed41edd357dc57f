//! SCFQ (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Scfq;

impl Scfq {
    pub fn new(weights: &[f64]) -> Scfq {
        todo!("SCFQ")
    }
}

impl Scheduler for Scfq {
    fn kind(&self) -> &'static str {
        "scfq"
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
