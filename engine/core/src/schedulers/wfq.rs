//! WFQ (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Wfq;

impl Wfq {
    pub fn new(weights: &[f64], link: crate::time::BitRate) -> Wfq {
        todo!("WFQ")
    }
}

impl Scheduler for Wfq {
    fn kind(&self) -> &'static str {
        "wfq"
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
