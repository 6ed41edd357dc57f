//! Advanced Switching basic table (PLACEHOLDER: being written; must be replaced before merging to main).
#![allow(missing_docs, unused_variables, clippy::panic)]
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

pub struct AsBasic;

impl AsBasic {
    pub fn new(table: &[u32], classes: usize) -> AsBasic {
        todo!("Advanced Switching basic table")
    }
}

impl Scheduler for AsBasic {
    fn kind(&self) -> &'static str {
        "as_basic"
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
