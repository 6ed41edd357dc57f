//! WF2Q+ (Bennett and Zhang 1997), credit-aware.
//!
//! Each backlogged class i keeps the tags of its head packet (`L` bytes):
//!
//! ```text
//! on arrival to an empty queue:        S_i = max(F_i, V)
//! when the next packet becomes head:   S_i = F_i            (after a departure)
//! always:                              F_i = S_i + L / phi_i
//! ```
//!
//! with `phi_i = weights[i] / sum(weights)`. A head is *eligible* when `S_i <= V`; the
//! scheduler serves, among the eligible heads of active classes (fitting in the
//! downstream credits), the smallest finish tag (ties: lower class index). The system
//! virtual time advances with the work done and never lags the backlogged classes:
//!
//! ```text
//! V = max(V + W, min S_i over backlogged classes)
//! ```
//!
//! where `W` is the bytes sent (shares sum to 1, so V moves at link speed when all the
//! backlogged classes are eligible). Tags and V are in bytes of service per unit share.
//!
//! Modelling choices:
//! - V is updated at each decision (when the link frees), with the work of the packet
//!   sent at the previous decision; an arrival between two decisions uses the V of the
//!   last decision.
//! - Credit-aware fallback: when every eligible head is blocked by credits (or none is
//!   eligible), V jumps to the smallest start tag among the heads of active classes, so
//!   at least one active head becomes eligible, and the smallest finish tag among the
//!   eligible active heads is served. A packet is thus never sent before its virtual
//!   start (`S <= V` always holds for the packet sent); blocked classes keep their tags
//!   and are served first once their credits return, if still the most urgent.
//! - The system is empty as soon as every queue is: V and every finish tag restart at 0.
//!
//! Two binary heaps hold the heads: ineligible ones keyed by start tag, eligible ones
//! keyed by finish tag. A decision moves the newly eligible heads across and pops the
//! smallest active one: O(log n) per head moved, popped or set aside.

use super::fair_queueing::fair_queueing_spec;
use super::head_heap::{HeadHeap, shares};
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::SimTime;

/// The WF2Q+ scheduler state.
#[derive(Clone, Debug)]
pub struct Wf2qPlus {
    /// Bandwidth share of each class (sums to 1).
    share: Vec<f64>,
    /// Start tag of each class's head (meaningful while the class is backlogged).
    start: Vec<f64>,
    /// Finish tag of each class's head, or of its last packet when its queue is empty.
    finish: Vec<f64>,
    /// Packets queued per class.
    queued: Vec<u32>,
    /// Packets queued over all classes.
    total_queued: u64,
    /// System virtual time.
    v: f64,
    /// Bytes sent since V was last updated.
    pending_work: u64,
    /// Heads with `S > V`, keyed by start tag.
    ineligible: HeadHeap,
    /// Heads with `S <= V`, keyed by finish tag.
    eligible: HeadHeap,
    /// Class chosen by the last decision.
    selected: Option<usize>,
    cost: SchedulerCost,
}

impl Wf2qPlus {
    /// A WF2Q+ scheduler; the share of class i is `weights[i] / sum(weights)` (weights
    /// validated: one per class, finite, above 0).
    pub fn new(weights: &[f64]) -> Wf2qPlus {
        let n = weights.len();
        Wf2qPlus {
            share: shares(weights),
            start: vec![0.0; n],
            finish: vec![0.0; n],
            queued: vec![0; n],
            total_queued: 0,
            v: 0.0,
            pending_work: 0,
            ineligible: HeadHeap::new(n),
            eligible: HeadHeap::new(n),
            selected: None,
            cost: SchedulerCost::default(),
        }
    }

    /// The system virtual time V (as of the last decision).
    pub fn virtual_time(&self) -> f64 {
        self.v
    }

    /// (start, finish) tags of the head of `class` (None when its queue is empty).
    pub fn head_tags(&self, class: usize) -> Option<(f64, f64)> {
        (*self.queued.get(class)? > 0).then(|| (self.start[class], self.finish[class]))
    }

    /// Moves the heads with `S <= V` to the eligible heap.
    fn release_eligible(&mut self) {
        while let Some((s, c)) = self.ineligible.peek() {
            if s > self.v {
                break;
            }
            self.ineligible.pop(&mut self.cost);
            self.eligible.push(self.finish[c], c, &mut self.cost);
        }
    }

    /// Tags a new head of `class` starting at `start`, of `bytes`, and files it.
    fn file_head(&mut self, class: usize, start: f64, bytes: u32) {
        self.start[class] = start;
        self.finish[class] = start + f64::from(bytes) / self.share[class];
        self.cost.tag_computations += 2;
        if start <= self.v {
            self.eligible
                .push(self.finish[class], class, &mut self.cost);
        } else {
            self.ineligible.push(start, class, &mut self.cost);
        }
    }
}

fair_queueing_spec!(Wf2qPlus, |c, _| Wf2qPlus::new(&c.weights));

impl Scheduler for Wf2qPlus {
    fn select(&mut self, _now: SimTime, port: &dyn PortView) -> Option<usize> {
        // V = max(V + W, min S of backlogged): the min S is at most V as soon as one head
        // is eligible, else it is the top of the ineligible heap.
        self.v += self.pending_work as f64;
        self.pending_work = 0;
        if self.eligible.is_empty() {
            if let Some((s, _)) = self.ineligible.peek() {
                self.v = self.v.max(s);
            }
        }
        self.cost.tag_computations += 1;
        self.release_eligible();
        let chosen = match self.eligible.pop_active(port, &mut self.cost) {
            Some((_, c)) => c,
            None => {
                // Credit-aware fallback: no eligible head can be sent. Take V up to the
                // smallest start tag of an active head, then serve as usual.
                let (s, c) = self.ineligible.pop_active(port, &mut self.cost)?;
                self.ineligible.push(s, c, &mut self.cost);
                self.v = self.v.max(s);
                self.cost.tag_computations += 1;
                self.release_eligible();
                self.eligible.pop_active(port, &mut self.cost)?.1
            }
        };
        if let Some(head) = port.head(chosen) {
            self.pending_work = u64::from(head.bytes);
        }
        self.selected = Some(chosen);
        self.cost.decisions += 1;
        Some(chosen)
    }

    fn after_send(&mut self, _now: SimTime, class: usize, port: &dyn PortView) {
        let Some(q) = self.queued.get_mut(class) else {
            return;
        };
        if *q > 0 {
            *q -= 1;
            self.total_queued = self.total_queued.saturating_sub(1);
        }
        if *q > 0 {
            match port.head(class) {
                // The next packet becomes head: it starts where the last one finished.
                Some(head) => self.file_head(class, self.finish[class], head.bytes),
                None => {
                    self.total_queued = self.total_queued.saturating_sub(u64::from(*q));
                    self.queued[class] = 0;
                }
            }
        }
        if self.total_queued == 0 {
            // The system empties: renumber from zero.
            self.v = 0.0;
            self.pending_work = 0;
            self.finish.iter_mut().for_each(|f| *f = 0.0);
            self.start.iter_mut().for_each(|s| *s = 0.0);
            self.eligible.clear();
            self.ineligible.clear();
        }
    }

    fn on_enqueue(&mut self, _now: SimTime, class: usize, bytes: u32, _port: &dyn PortView) {
        let Some(q) = self.queued.get_mut(class) else {
            return;
        };
        *q += 1;
        self.total_queued += 1;
        if *q == 1 {
            let start = self.finish[class].max(self.v);
            self.file_head(class, start, bytes);
        }
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        let n = self.queued.len();
        Registers {
            selected: self.selected.map(|c| c as u32),
            virtual_time: Some(self.v),
            start_tags: Some((0..n).map(|c| self.head_tags(c).map(|t| t.0)).collect()),
            finish_tags: Some((0..n).map(|c| self.head_tags(c).map(|t| t.1)).collect()),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;

    const T: SimTime = SimTime::ZERO;

    /// Hand-worked example (the classic WF2Q case). Weights 1:1:2 -> shares 0.25, 0.25,
    /// 0.5; all packets 1 credit = 64 B, so L/phi = 256 for classes 0 and 1, 128 for
    /// class 2. Class 2 holds 4 packets, classes 0 and 1 one each, all at time 0.
    #[test]
    fn worked_example_eligibility_interleaves() {
        let mut s = Wf2qPlus::new(&[1.0, 1.0, 2.0]);
        let mut port = MockPort::new(3, 1000);
        for _ in 0..4 {
            port.arrive(T, &mut s, 2, 1);
        }
        port.arrive(T, &mut s, 0, 1);
        port.arrive(T, &mut s, 1, 1);
        // Heads: c0 (0, 256), c1 (0, 256), c2 (0, 128). V = 0: all eligible, smallest F
        // is class 2.
        assert_eq!(s.head_tags(2), Some((0.0, 128.0)));
        assert_eq!(port.step(&mut s), Some(2));
        // c2's next head: S = 128, F = 256. V = 0 + 64 = 64: c2 is not eligible
        // (128 > 64), so the smallest eligible F is c0 (256, tie with c1 -> class 0).
        assert_eq!(s.head_tags(2), Some((128.0, 256.0)));
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 64.0);
        // V = 128: c2 (S 128) eligible with F 256, c1 F 256: tie -> class 1.
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(s.virtual_time(), 128.0);
        // V = 192: only c2 is backlogged: (128, 256) eligible.
        assert_eq!(port.step(&mut s), Some(2));
        // Next head (256, 384); V = max(192 + 64, 256) = 256.
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(s.virtual_time(), 256.0);
        // Last head (384, 512): V = 256 + 64 = 320 < 384, so V = max(320, min S = 384).
        assert_eq!(port.step(&mut s), Some(2));
        assert_eq!(s.virtual_time(), 0.0, "system empty: reset");
        assert_eq!(port.step(&mut s), None);
        // After the reset, a new head starts at 0.
        port.arrive(T, &mut s, 1, 2);
        assert_eq!(s.head_tags(1), Some((0.0, 512.0)));
        let r = s.registers();
        assert_eq!(r.start_tags, Some(vec![None, Some(0.0), None]));
        assert_eq!(r.finish_tags, Some(vec![None, Some(512.0), None]));
        assert_eq!(r.virtual_time, Some(0.0));
        // The class of the last decision (class 2's last packet).
        assert_eq!(r.selected, Some(2));
    }

    /// V follows the last ineligible start tag when only one class is backlogged.
    #[test]
    fn virtual_time_jumps_to_min_start() {
        let mut s = Wf2qPlus::new(&[1.0, 3.0]);
        let mut port = MockPort::new(2, 1000);
        // Class 0 alone: heads (0, 256), (256, 512), (512, 768), (768, 1024).
        for _ in 0..4 {
            port.arrive(T, &mut s, 0, 1);
        }
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), Some(0));
        // V = max(0 + 64, 256) = 256.
        assert_eq!(s.virtual_time(), 256.0);
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(s.virtual_time(), 512.0);
    }

    /// The only eligible head is blocked by credits: V jumps to the smallest start tag
    /// of an active head, which is then served; the blocked class keeps its tags and
    /// goes first once its credits return.
    #[test]
    fn credit_blocked_eligible_head_fallback() {
        let mut s = Wf2qPlus::new(&[1.0, 1.0]);
        let mut port = MockPort::new(2, 1000);
        port.free[0] = 0;
        port.arrive(T, &mut s, 0, 1); // c0 (0, 128), blocked
        for _ in 0..3 {
            port.arrive(T, &mut s, 1, 1); // c1 (0, 128)
        }
        assert_eq!(port.step(&mut s), Some(1));
        // c1 next head (128, 256). V = 64: c0 eligible but blocked, c1 not eligible:
        // fallback: V = 128, c1 served.
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(s.virtual_time(), 128.0);
        assert_eq!(s.head_tags(0), Some((0.0, 128.0)));
        assert_eq!(s.head_tags(1), Some((256.0, 384.0)));
        port.free[0] = 1;
        // V = 192: c0 eligible (F 128) and active: served before c1 (not yet eligible).
        assert_eq!(port.step(&mut s), Some(0));
        assert_eq!(port.step(&mut s), Some(1));
        assert_eq!(port.step(&mut s), None);
        // Only a blocked class left: nothing is sent, V stays consistent.
        port.free[1] = 0;
        port.arrive(T, &mut s, 1, 1);
        assert_eq!(port.step(&mut s), None);
        assert_eq!(s.cost().decisions, 4);
        // Tag computations, exactly: 2 per head filed (c0; c1's three heads; c1 after the
        // reset: 5 heads), 1 per call of select (6), 1 per fallback that raised V (the
        // 2nd decision): 10 + 6 + 1 = 17.
        assert_eq!(s.cost().tag_computations, 17);
    }
}
