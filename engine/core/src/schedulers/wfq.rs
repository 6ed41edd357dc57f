//! Weighted Fair Queueing (WFQ / PGPS, Parekh and Gallager 1993), credit-aware.
//!
//! A fluid GPS reference system runs alongside the port: it serves every GPS-backlogged
//! class at the same time, in proportion to its share. Its virtual time V grows as
//!
//! ```text
//! dV/dt = R / sum(phi_j over GPS-backlogged classes j)        (R: link rate, bytes/ps)
//! ```
//!
//! and each arriving packet (class i, `L` bytes, arriving at `a`) gets the finish tag it
//! has in GPS:
//!
//! ```text
//! F_i^k = max(F_i^(k-1), V(a)) + L / phi_i
//! ```
//!
//! A class is GPS-backlogged while `V < F_i` of its last packet; between two events V is
//! advanced by iterating over the GPS departures (each one lowers the sum of shares and
//! so raises the slope). The port serves the smallest finish tag among the heads of
//! active classes (head present and fitting in the downstream credits); ties go to the
//! lower class index. Tags and V are in bytes of service per unit share; time is integer
//! picoseconds.
//!
//! Modelling choices:
//! - Shares are held as integers (`q_i = round(2^40 * w_i / max w)`, at least 1) so the
//!   sum of the GPS-backlogged shares is exact however often classes come and go;
//!   `phi_i = q_i / sum(q)`.
//! - The GPS reference ignores flow control: it is the ideal service of the link. A class
//!   blocked by credits keeps its tags and, once its credits return, is served first if
//!   its tags are the smallest.
//! - V is frozen while GPS is idle. It (and every class's last tag) is reset to 0 when
//!   GPS is idle *and* every queue of the port is empty: resetting while packets still
//!   wait would let new arrivals overtake them.
//!
//! The heads are kept in a binary heap keyed by (finish tag, class), and the
//! GPS-backlogged classes in another keyed by their last finish tag (lazily refreshed when
//! a class's last tag grows): a decision is O(log n), and each GPS departure costs
//! O(log n).

use std::collections::VecDeque;

use super::fair_queueing::fair_queueing_spec;
use super::head_heap::HeadHeap;
use super::{PortView, Registers, Scheduler, SchedulerCost};
use crate::time::{BitRate, PS_PER_S, SimTime};

/// Integer scale of the largest share (2^40: exact sums for up to 2^23 classes).
const SHARE_SCALE: f64 = (1u64 << 40) as f64;

/// The WFQ scheduler state.
#[derive(Clone, Debug)]
pub struct Wfq {
    /// Integer share of each class.
    q: Vec<u64>,
    /// Sum of the integer shares.
    total_q: u64,
    /// Bandwidth share of each class, `q_i / total_q`.
    phi: Vec<f64>,
    /// Link rate in bytes per picosecond.
    rate: f64,
    /// GPS virtual time.
    v: f64,
    /// Time up to which V has been computed, in ps.
    gps_time: u64,
    /// Finish tag of each class's last arrived packet (its GPS departure when backlogged).
    last_finish: Vec<f64>,
    /// Whether each class is backlogged in GPS.
    gps_backlogged: Vec<bool>,
    /// Sum of the integer shares of the GPS-backlogged classes.
    backlogged_q: u64,
    /// GPS-backlogged classes keyed by (possibly stale, lower) last finish tag.
    gps: HeadHeap,
    /// Finish tags of each class's queued packets, in queue order.
    tags: Vec<VecDeque<f64>>,
    /// Heads of the non-empty queues keyed by finish tag.
    heads: HeadHeap,
    /// Packets queued over all classes.
    queued: usize,
    /// Class chosen by the last decision.
    selected: Option<usize>,
    cost: SchedulerCost,
}

impl Wfq {
    /// A WFQ scheduler for a link of rate `link`; the share of class i is
    /// `weights[i] / sum(weights)` (weights validated: one per class, finite, above 0).
    pub fn new(weights: &[f64], link: BitRate) -> Wfq {
        let n = weights.len();
        let max = weights.iter().copied().fold(0.0f64, f64::max);
        let q: Vec<u64> = weights
            .iter()
            .map(|&w| {
                let scaled = if max > 0.0 {
                    libm::round(w / max * SHARE_SCALE)
                } else {
                    1.0
                };
                if scaled >= 1.0 { scaled as u64 } else { 1 }
            })
            .collect();
        let total_q: u64 = q.iter().sum::<u64>().max(1);
        let phi = q.iter().map(|&qi| qi as f64 / total_q as f64).collect();
        Wfq {
            q,
            total_q,
            phi,
            rate: link.bits_per_s() as f64 / 8.0 / PS_PER_S as f64,
            v: 0.0,
            gps_time: 0,
            last_finish: vec![0.0; n],
            gps_backlogged: vec![false; n],
            backlogged_q: 0,
            gps: HeadHeap::new(n),
            tags: vec![VecDeque::new(); n],
            heads: HeadHeap::new(n),
            queued: 0,
            selected: None,
            cost: SchedulerCost::default(),
        }
    }

    /// The GPS virtual time as of the last event.
    pub fn virtual_time(&self) -> f64 {
        self.v
    }

    /// Finish tag of the head packet of `class` (None when its queue is empty).
    pub fn head_finish(&self, class: usize) -> Option<f64> {
        self.tags.get(class).and_then(|q| q.front().copied())
    }

    /// Whether `class` is backlogged in the GPS reference system.
    pub fn gps_backlogged(&self, class: usize) -> bool {
        self.gps_backlogged.get(class).copied().unwrap_or(false)
    }

    /// Advances the GPS reference to `now`, one GPS departure at a time.
    fn advance_gps(&mut self, now: SimTime) {
        let now_ps = now.as_ps();
        let mut budget = now_ps.saturating_sub(self.gps_time) as f64;
        self.gps_time = self.gps_time.max(now_ps);
        while self.backlogged_q > 0 {
            let Some((tag, class)) = self.gps.peek() else {
                break;
            };
            let last = self.last_finish[class];
            if tag < last {
                // Stale key: the class received packets since it was filed.
                self.gps.pop(&mut self.cost);
                self.gps.push(last, class, &mut self.cost);
                continue;
            }
            // dV/dt in bytes per share per ps.
            let slope = self.rate * self.total_q as f64 / self.backlogged_q as f64;
            let need = (tag - self.v) / slope;
            self.cost.tag_computations += 1;
            if need <= budget {
                // The class empties in GPS before `now`.
                budget -= need.max(0.0);
                self.v = self.v.max(tag);
                self.gps.pop(&mut self.cost);
                self.gps_backlogged[class] = false;
                self.backlogged_q = self.backlogged_q.saturating_sub(self.q[class]);
            } else {
                self.v += budget * slope;
                break;
            }
        }
        if self.backlogged_q == 0 && self.queued == 0 && self.v != 0.0 {
            // GPS idle and the port empty: renumber from zero.
            self.v = 0.0;
            self.last_finish.iter_mut().for_each(|f| *f = 0.0);
            self.gps.clear();
        }
    }
}

fair_queueing_spec!(Wfq, |c, port| Wfq::new(&c.weights, port.link));

impl Scheduler for Wfq {
    fn select(&mut self, now: SimTime, port: &dyn PortView) -> Option<usize> {
        self.advance_gps(now);
        let (_, class) = self.heads.pop_active(port, &mut self.cost)?;
        self.selected = Some(class);
        self.cost.decisions += 1;
        Some(class)
    }

    fn after_send(&mut self, now: SimTime, class: usize, _port: &dyn PortView) {
        let Some(queue) = self.tags.get_mut(class) else {
            return;
        };
        if queue.pop_front().is_some() {
            self.queued = self.queued.saturating_sub(1);
        }
        if let Some(&next) = queue.front() {
            self.heads.push(next, class, &mut self.cost);
        }
        if self.queued == 0 {
            self.heads.clear();
            self.advance_gps(now);
        }
    }

    fn on_enqueue(&mut self, now: SimTime, class: usize, bytes: u32, _port: &dyn PortView) {
        if class >= self.tags.len() {
            return;
        }
        self.advance_gps(now);
        let finish = self.last_finish[class].max(self.v) + f64::from(bytes) / self.phi[class];
        self.last_finish[class] = finish;
        self.cost.tag_computations += 1;
        if !self.gps_backlogged[class] {
            self.gps_backlogged[class] = true;
            self.backlogged_q += self.q[class];
            self.gps.push(finish, class, &mut self.cost);
        }
        let queue = &mut self.tags[class];
        queue.push_back(finish);
        self.queued += 1;
        if queue.len() == 1 {
            self.heads.push(finish, class, &mut self.cost);
        }
    }

    fn cost(&self) -> SchedulerCost {
        self.cost
    }

    fn registers(&self) -> Registers {
        Registers {
            selected: self.selected.map(|c| c as u32),
            virtual_time: Some(self.v),
            finish_tags: Some(self.tags.iter().map(|q| q.front().copied()).collect()),
            ..Registers::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedulers::testing::MockPort;

    fn at(ps: u64) -> SimTime {
        SimTime(ps)
    }

    /// 2 Gb/s: 0.25 B/ns, a 64-byte packet takes 256 ns = 256 000 ps.
    fn link() -> BitRate {
        BitRate::from_gbps(2.0).unwrap()
    }

    /// Hand-worked PGPS example, weights 1:1 (phi = 0.5, L/phi = 128 for 64 B).
    ///
    /// t = 0: class 0 gets two packets: V = 0, F = 128 and 256. Only class 0 is
    /// GPS-backlogged: dV/dt = 0.00025 B/ps / 0.5 = 0.0005 per ps.
    /// t = 128 000: class 1 arrives: V = 64, F = 64 + 128 = 192. Both backlogged:
    /// dV/dt = 0.00025.
    /// t = 256 000 (first packet done): V = 96; heads F = 256 (class 0), 192 (class 1):
    /// WFQ serves class 1 first (SCFQ would tag it 128 + 128 = 256 and serve class 0).
    /// GPS: class 1 leaves at V = 192 (t = 640 000), class 0 at V = 256 (t = 768 000).
    #[test]
    fn worked_example_gps_virtual_time() {
        let mut s = Wfq::new(&[1.0, 1.0], link());
        let mut port = MockPort::new(2, 1000);
        port.arrive(at(0), &mut s, 0, 1);
        port.arrive(at(0), &mut s, 0, 1);
        assert_eq!(s.head_finish(0), Some(128.0));
        assert_eq!(port.step_at(at(0), &mut s), Some(0));
        port.arrive(at(128_000), &mut s, 1, 1);
        assert!((s.virtual_time() - 64.0).abs() < 1e-9);
        assert!((s.head_finish(1).unwrap() - 192.0).abs() < 1e-9);
        assert_eq!(port.step_at(at(256_000), &mut s), Some(1));
        assert!((s.virtual_time() - 96.0).abs() < 1e-9);
        assert_eq!(port.step_at(at(512_000), &mut s), Some(0));
        // The port is empty at 512 000 but GPS still holds work: V = 96 + 64 = 160.
        assert!((s.virtual_time() - 160.0).abs() < 1e-9);
        assert!(s.gps_backlogged(0) && s.gps_backlogged(1));
        // t = 700 000: class 1 left GPS at 640 000 (V 192), class 0 alone: V = 192 +
        // 60 000 * 0.0005 = 222.
        s.advance_gps(at(700_000));
        assert!((s.virtual_time() - 222.0).abs() < 1e-9);
        // The register shown in traces is the same V.
        assert!((s.registers().virtual_time.unwrap() - 222.0).abs() < 1e-9);
        assert!(s.gps_backlogged(0) && !s.gps_backlogged(1));
        // t = 1 000 000: GPS went idle at 768 000 and the port is empty: V restarts at 0.
        port.arrive(at(1_000_000), &mut s, 1, 1);
        assert_eq!(s.head_finish(1), Some(128.0));
        assert_eq!(s.registers().finish_tags, Some(vec![None, Some(128.0)]));
        assert_eq!(s.registers().selected, Some(0));
    }

    /// GPS idle but a packet still queued (blocked by credits): V is frozen, not reset,
    /// so a new arrival does not overtake the waiting packet.
    #[test]
    fn no_reset_while_packets_wait() {
        let mut s = Wfq::new(&[1.0, 1.0], link());
        let mut port = MockPort::new(2, 1000);
        port.free[0] = 0;
        port.arrive(at(0), &mut s, 0, 1); // F = 128, GPS done at t = 256 000
        assert_eq!(port.step_at(at(0), &mut s), None);
        port.arrive(at(1_000_000), &mut s, 1, 1);
        assert!((s.virtual_time() - 128.0).abs() < 1e-9, "frozen at 128");
        assert_eq!(s.head_finish(1), Some(256.0));
        port.free[0] = 1;
        assert_eq!(port.step_at(at(1_000_000), &mut s), Some(0));
        assert_eq!(port.step_at(at(1_256_000), &mut s), Some(1));
    }

    /// A head blocked by credits is passed over and keeps its tag.
    #[test]
    fn credit_blocked_head_is_skipped() {
        let mut s = Wfq::new(&[3.0, 1.0], link());
        let mut port = MockPort::new(2, 1000);
        port.free[0] = 1;
        port.arrive(at(0), &mut s, 0, 2); // phi 0.75: F = 128 / 0.75 = 170.7, blocked
        port.arrive(at(0), &mut s, 1, 1); // phi 0.25: F = 256
        port.arrive(at(0), &mut s, 1, 1); // F = 512
        // The tags follow the weights 3:1 (F = L / phi with V = 0).
        assert!((s.head_finish(0).unwrap() - 128.0 / 0.75).abs() < 1e-6);
        assert!((s.head_finish(1).unwrap() - 256.0).abs() < 1e-6);
        assert_eq!(port.step_at(at(0), &mut s), Some(1));
        assert!((s.head_finish(1).unwrap() - 512.0).abs() < 1e-6);
        port.free[0] = 2;
        assert_eq!(port.step_at(at(256_000), &mut s), Some(0));
        assert_eq!(port.step_at(at(768_000), &mut s), Some(1));
        assert_eq!(port.step_at(at(1_024_000), &mut s), None);
        let c = s.cost();
        assert_eq!(c.decisions, 3);
        assert!(c.heap_operations > 0);
        // Tag computations, exactly: one per arrival (3), and one per GPS step that works
        // out when the smallest backlogged tag is reached: at the 2nd and 3rd arrivals (V
        // stays 0), at each decision (t = 0, 256 000, and at 768 000 two: class 0 leaves
        // GPS, then class 1's progress), when the port empties at 768 000, and at
        // 1 024 000 (class 1 leaves GPS): 3 + 8 = 11.
        assert_eq!(c.tag_computations, 11);
    }
}
