//! WF2Q+ (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Wf2qPlus;

impl Wf2qPlus {
    pub fn new(weights: &[f64]) -> Wf2qPlus {
        todo!("WF2Q+")
    }
}

impl Scheduler for Wf2qPlus {
    fn kind(&self) -> &'static str {
        "wf2q_plus"
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
