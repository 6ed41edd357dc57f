//! Start-time Fair Queueing (SFQ, Goyal, Vin and Cheng 1996), credit-aware.
//!
//! Each packet gets a start and a finish tag when it joins its queue: for packet k of
//! class i, of `L` bytes,
//!
//! ```text
//! S_i^k = max(v, F_i^(k-1))
//! F_i^k = S_i^k + L / r_i
//! ```
//!
//! where `r_i = weights[i] / sum(weights)` is the class's bandwidth share and `v` is the
//! start tag of the packet in service. The scheduler serves the smallest *start* tag
//! among the heads of active classes (head present and fitting in the downstream
//! credits); ties go to the lower class index. Tags are in bytes of service divided by
//! the share.
//!
//! Modelling choices:
//! - `v` becomes the chosen packet's start tag when it is selected and keeps that value
//!   while the link idles with packets still queued (e.g. heads blocked by credits).
//! - The system is empty as soon as every queue is: `v` and every class's last finish
//!   tag restart at 0. (Goyal et al. set `v` to the largest finish tag served instead;
//!   both give every new arrival the same start tag, so the order is the same.)
//! - A head blocked by credits keeps its tags and its precedence.
//!
//! The heads are kept in a binary heap keyed by (start tag, class): a decision is
//! O(log n) plus one pop and one push per head blocked by credits.
//!
//! The tagging and clocking are shared with SCFQ ([`super::self_clocked`]).

use super::fair_queueing::fair_queueing_spec;
use super::self_clocked::{SelfClocked, ServeBy};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

/// The SFQ scheduler state.
#[derive(Clone, Debug)]
pub struct Sfq(SelfClocked);

impl Sfq {
    /// An SFQ scheduler; the share of class i is `weights[i] / sum(weights)` (weights
    /// validated: one per class, finite, above 0).
    pub fn new(weights: &[f64]) -> Sfq {
        Sfq(SelfClocked::new(weights, ServeBy::Start))
    }

    /// The system virtual time `v`.
    pub fn virtual_time(&self) -> f64 {
        self.0.virtual_time()
    }

    /// (start, finish) tags of the head packet of `class` (None when its queue is empty).
    pub fn head_tags(&self, class: usize) -> Option<(f64, f64)> {
        self.0.head_tags(class)
    }
}

fair_queueing_spec!(Sfq, |c, _| Sfq::new(&c.weights));

impl Scheduler for Sfq {
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

    /// Hand-worked example. Weights 1:1:2 -> shares 0.25, 0.25, 0.5; 1-credit packets
    /// (64 B): L/r = 256 for classes 0 and 1, 128 for class 2.
    #[test]
    fn worked_example_serves_smallest_start_tag() {
        let mut s = Sfq::new(&[1.0, 1.0, 2.0]);
        let mut port = MockPort::new(3, 1000);
        // v = 0. Class 0: (0, 256), (256, 512). Class 2: (0, 128), (128, 256), (256, 384).
        port.arrive(T, &mut s, 0, 1);
        port.arrive(T, &mut s, 0, 1);
        for _ in 0..3 {
            port.arrive(T, &mut s, 2, 1);
        }
        assert_eq!(s.head_tags(0), Some((0.0, 256.0)));
        assert_eq!(s.head_tags(2), Some((0.0, 128.0)));
        // Start tags 0 (class 0) and 0 (class 2): tie -> class 0, v = 0.
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 0.0);
        // Heads: class 0 S = 256, class 2 S = 0 -> class 2, then class 2 (S = 128).
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(s.virtual_time(), 128.0);
        // Class 1 arrives now: S = max(v = 128, 0) = 128, F = 384. Heads: class 0 S = 256,
        // class 1 S = 128, class 2 S = 256 -> class 1, then class 0 (tie 256 -> lower id),
        // then class 2.
        port.arrive(T, &mut s, 1, 1);
        assert_eq!(s.head_tags(1), Some((128.0, 384.0)));
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 256.0);
        assert_eq!(port.step(&mut s), Some(2));
        // Everything sent: the system is empty and v restarts at 0.
        assert_eq!(s.virtual_time(), 0.0);
        assert_eq!(port.step(&mut s), None);
        port.arrive(T, &mut s, 0, 1);
        assert_eq!(
            s.head_tags(0),
            Some((0.0, 256.0)),
            "F_prev reset with the system"
        );
        let r = s.registers();
        assert_eq!(r.start_tags, Some(vec![Some(0.0), None, None]));
        assert_eq!(r.finish_tags, Some(vec![Some(256.0), None, None]));
        assert_eq!(r.selected, Some(2));
    }

    /// A blocked head is skipped; its class keeps its tags; it wins when unblocked.
    #[test]
    fn credit_blocked_head_keeps_precedence() {
        let mut s = Sfq::new(&[1.0, 1.0]);
        let mut port = MockPort::new(2, 1000);
        port.free[0] = 0;
        port.arrive(T, &mut s, 0, 1); // (0, 128)
        port.arrive(T, &mut s, 1, 1); // (0, 128)
        port.arrive(T, &mut s, 1, 1); // (128, 256)
        port.arrive(T, &mut s, 1, 1); // (256, 384)
        assert_eq!(port.step(&mut s), Some(1)); // class 0 blocked
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(s.virtual_time(), 128.0);
        port.free[0] = 1;
        assert_eq!(port.step(&mut s), Some(0)); // S = 0 < 256
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), None);
        // The heap was consulted with pops and push-backs for the blocked head.
        assert!(s.cost().heap_operations >= 8);
    }
}
