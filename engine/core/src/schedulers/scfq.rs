//! Self-Clocked Fair Queueing (SCFQ, Golestani 1994), credit-aware.
//!
//! Each packet gets a finish tag when it joins its queue: for packet k of class i, of
//! `L` bytes,
//!
//! ```text
//! F_i^k = max(F_i^(k-1), v) + L / r_i
//! ```
//!
//! where `r_i = weights[i] / sum(weights)` is the class's bandwidth share and `v` (the
//! system virtual time, "self-clocked") is the finish tag of the packet in service. The
//! scheduler serves the smallest finish tag among the heads of *active* classes (head
//! present and fitting in the downstream credits); ties go to the lower class index.
//! Tags are in bytes of service divided by the share (a class with share 1/4 advances its
//! tags by `4 L`).
//!
//! Modelling choices:
//! - `v` becomes the chosen packet's finish tag when it is selected (it is then in
//!   service) and keeps that value while the link idles with packets still queued (e.g.
//!   every head blocked by credits).
//! - The system is empty as soon as every queue is (the packet on the wire no longer
//!   competes): `v` and every class's last finish tag are then reset to 0. Resetting all
//!   tags together only renumbers them; no queued packet holds an old tag.
//! - A head blocked by credits keeps its tag and wins as soon as its credits return if
//!   its tag is still the smallest (its precedence is not lost).
//!
//! The heads are kept in a binary heap keyed by (finish tag, class): a decision is
//! O(log n) plus one pop and one push per head blocked by credits.
//!
//! The tagging and clocking are shared with SFQ ([`super::self_clocked`]).

use super::fair_queueing::fair_queueing_spec;
use super::self_clocked::{SelfClocked, ServeBy};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

/// The SCFQ scheduler state.
#[derive(Clone, Debug)]
pub struct Scfq(SelfClocked);

impl Scfq {
    /// An SCFQ scheduler; the share of class i is `weights[i] / sum(weights)` (weights
    /// validated: one per class, finite, above 0).
    pub fn new(weights: &[f64]) -> Scfq {
        Scfq(SelfClocked::new(weights, ServeBy::Finish))
    }

    /// The system virtual time `v`.
    pub fn virtual_time(&self) -> f64 {
        self.0.virtual_time()
    }

    /// Finish tag of the head packet of `class` (None when its queue is empty).
    pub fn head_finish(&self, class: usize) -> Option<f64> {
        self.0.head_tags(class).map(|t| t.1)
    }
}

fair_queueing_spec!(Scfq, |c, _| Scfq::new(&c.weights));

impl Scheduler for Scfq {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        self.0.select(port)
    }

    fn after_send(&mut self, _now: SimTime, class: usize, _port: &dyn PortView) {
        self.0.after_send(class);
    }

    fn on_enqueue(&mut self, _now: SimTime, class: usize, bytes: u32, _port: &dyn PortView) {
        self.0.on_enqueue(class, bytes);
    }

    fn cost(&self) -> SchedulerCost {
        self.0.cost
    }

    fn registers(&self) -> Registers {
        self.0.registers()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;

    const T: SimTime = SimTime::ZERO;

    /// Hand-worked example. Weights 1:3 -> shares 0.25, 0.75. Packets of 1 credit = 64 B.
    /// Class 0 tags: 64/0.25 = 256 per packet; class 1: 64/0.75 = 85.33 per packet.
    #[test]
    fn worked_example_tags_and_order() {
        let mut s = Scfq::new(&[1.0, 3.0]);
        let mut port = MockPort::new(2, 1000);
        // v = 0: class 0 gets F = 256, 512; class 1 gets 85.33, 170.67, 256.
        port.arrive(T, &mut s, 0, 1);
        port.arrive(T, &mut s, 0, 1);
        for _ in 0..3 {
            port.arrive(T, &mut s, 1, 1);
        }
        assert_eq!(s.head_finish(0), Some(256.0));
        let f1 = 64.0 / 0.75;
        assert!((s.head_finish(1).unwrap() - f1).abs() < 1e-9);
        // Order by finish tag: 85.3 (1), 170.7 (1), then 256 vs 256: tie -> class 0.
        assert_eq!(port.step(&mut s), Some(1));
        assert!((s.virtual_time() - f1).abs() < 1e-9);
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 256.0);
        // A new class-1 packet arrives while v = 256: F = max(256, 256) + 85.33 = 341.33,
        // ahead of class 0's 512. Queued: class 1 [256, 341.33], class 0 [512].
        port.arrive(T, &mut s, 1, 1);
        assert_eq!(port.step(&mut s), Some(1)); // 256
        assert_eq!(port.step(&mut s), Some(1)); // 341.33
        assert_eq!(port.step(&mut s), Some(0)); // 512
        assert_eq!(port.step(&mut s), None);
        let c = s.cost();
        assert_eq!(c.decisions, 6);
        assert_eq!(c.tag_computations, 6 + 6);
    }

    /// When every queue empties, v and the classes' last tags restart at 0.
    #[test]
    fn system_empty_resets_tags() {
        let mut s = Scfq::new(&[1.0, 1.0]);
        let mut port = MockPort::new(2, 1000);
        port.arrive(T, &mut s, 0, 2); // F = 128 / 0.5 = 256
        port.arrive(T, &mut s, 0, 2); // F = 512
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 256.0);
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 0.0, "reset when the system empties");
        port.arrive(T, &mut s, 1, 1);
        assert_eq!(s.head_finish(1), Some(128.0));
        port.arrive(T, &mut s, 0, 1);
        assert_eq!(s.head_finish(0), Some(128.0), "F_prev of class 0 was reset");
        assert_eq!(
            s.registers().finish_tags,
            Some(vec![Some(128.0), Some(128.0)])
        );
    }

    /// A class whose head lacks credits is passed over; it keeps its tag and wins as
    /// soon as its credits return.
    #[test]
    fn credit_blocked_head_keeps_its_tag() {
        let mut s = Scfq::new(&[1.0, 1.0]);
        let mut port = MockPort::new(2, 1000);
        port.free[0] = 1;
        port.arrive(T, &mut s, 0, 2); // F = 256, blocked (2 credits, 1 free)
        port.arrive(T, &mut s, 1, 2); // F = 256
        port.arrive(T, &mut s, 1, 2); // F = 512
        assert_eq!(port.step(&mut s), Some(1)); // class 0 blocked: 256 of class 1
        assert_eq!(s.head_finish(0), Some(256.0));
        port.free[0] = 10; // credits return
        assert_eq!(port.step(&mut s), Some(0)); // 256 < 512
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), None);
        // Only blocked heads: no decision.
        port.free[1] = 0;
        port.arrive(T, &mut s, 1, 1);
        assert_eq!(port.step(&mut s), None);
        assert_eq!(s.cost().decisions, 3);
    }

    #[test]
    fn registers_show_heads_and_selection() {
        let mut s = Scfq::new(&[1.0, 1.0, 2.0]);
        let mut port = MockPort::new(3, 1000);
        port.arrive(T, &mut s, 2, 1); // 64 / 0.5 = 128
        let r = s.registers();
        assert_eq!(r.finish_tags, Some(vec![None, None, Some(128.0)]));
        assert_eq!(r.virtual_time, Some(0.0));
        assert_eq!(r.selected, None);
        port.arrive(T, &mut s, 2, 1); // 256
        port.step(&mut s);
        let r = s.registers();
        assert_eq!(r.selected, Some(2));
        assert_eq!(r.virtual_time, Some(128.0));
        assert_eq!(r.finish_tags, Some(vec![None, None, Some(256.0)]));
    }
}
