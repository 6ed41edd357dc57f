//! InfiniBand VLArb (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Iba;

impl Iba {
    pub fn new(config: &crate::scenario::IbaConfig, classes: usize) -> Iba {
        todo!("InfiniBand VLArb")
    }
}

impl Scheduler for Iba {
    fn kind(&self) -> &'static str {
        "iba"
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
