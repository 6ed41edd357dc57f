//! SFQ (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct Sfq;

impl Sfq {
    pub fn new(weights: &[f64]) -> Sfq {
        todo!("SFQ")
    }
}

impl Scheduler for Sfq {
    fn kind(&self) -> &'static str {
        "sfq"
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
