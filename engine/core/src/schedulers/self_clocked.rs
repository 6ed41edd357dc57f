//! The common core of the self-clocked fair-queueing schedulers, SCFQ and SFQ.
//!
//! Both tag each packet on arrival with the same formulas, for packet k of class i of `L`
//! bytes and share `r_i`:
//!
//! ```text
//! S_i^k = max(v, F_i^(k-1))
//! F_i^k = S_i^k + L / r_i
//! ```
//!
//! and both clock the system virtual time `v` with the packet in service. They differ only
//! in which tag orders the service and becomes `v`: the finish tag for SCFQ, the start tag
//! for SFQ ([`ServeBy`]). Only heads of active classes compete (credit-aware); ties go to
//! the lower class index. When every queue of the port is empty, `v` and every class's
//! last finish tag restart at 0 (a renumbering: no queued packet holds an old tag).

use std::collections::VecDeque;

use super::head_heap::{HeadHeap, shares};
use super::{PortView, Registers, SchedulerCost};

/// Which tag orders the service and clocks the system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ServeBy {
    /// Smallest start tag first; `v` = start tag in service (SFQ).
    Start,
    /// Smallest finish tag first; `v` = finish tag in service (SCFQ).
    Finish,
}

/// The state shared by SCFQ and SFQ.
#[derive(Clone, Debug)]
pub(super) struct SelfClocked {
    serve_by: ServeBy,
    /// Bandwidth share of each class (sums to 1).
    share: Vec<f64>,
    /// (start, finish) tags of each class's queued packets, in queue order.
    tags: Vec<VecDeque<(f64, f64)>>,
    /// Finish tag of each class's last arrived packet (`F_prev`).
    last_finish: Vec<f64>,
    /// System virtual time: the serving tag of the packet in service.
    v: f64,
    /// Heads of the non-empty queues keyed by their serving tag.
    heads: HeadHeap,
    /// Packets queued over all classes.
    queued: usize,
    /// Class chosen by the last decision.
    selected: Option<usize>,
    pub(super) cost: SchedulerCost,
}

impl SelfClocked {
    /// The state for validated weights (one per class, finite, above 0).
    pub(super) fn new(weights: &[f64], serve_by: ServeBy) -> SelfClocked {
        let n = weights.len();
        SelfClocked {
            serve_by,
            share: shares(weights),
            tags: vec![VecDeque::new(); n],
            last_finish: vec![0.0; n],
            v: 0.0,
            heads: HeadHeap::new(n),
            queued: 0,
            selected: None,
            cost: SchedulerCost::default(),
        }
    }

    fn key(&self, (start, finish): (f64, f64)) -> f64 {
        match self.serve_by {
            ServeBy::Start => start,
            ServeBy::Finish => finish,
        }
    }

    /// The system virtual time `v`.
    pub(super) fn virtual_time(&self) -> f64 {
        self.v
    }

    /// (start, finish) tags of the head packet of `class` (None when its queue is empty).
    pub(super) fn head_tags(&self, class: usize) -> Option<(f64, f64)> {
        self.tags.get(class).and_then(|q| q.front().copied())
    }

    /// Serves the active head with the smallest serving tag; it now clocks the system.
    pub(super) fn select(&mut self, port: &dyn PortView) -> Option<usize> {
        let (tag, class) = self.heads.pop_active(port, &mut self.cost)?;
        self.v = tag;
        self.cost.tag_computations += 1;
        self.selected = Some(class);
        self.cost.decisions += 1;
        Some(class)
    }

    /// Drops the sent packet's tags and queues the class's next head.
    pub(super) fn after_send(&mut self, class: usize) {
        let Some(queue) = self.tags.get_mut(class) else {
            return;
        };
        if queue.pop_front().is_some() {
            self.queued = self.queued.saturating_sub(1);
        }
        if let Some(&next) = queue.front() {
            let key = self.key(next);
            self.heads.push(key, class, &mut self.cost);
        }
        if self.queued == 0 {
            // The system empties: renumber every tag from zero.
            self.v = 0.0;
            self.last_finish.iter_mut().for_each(|f| *f = 0.0);
            self.heads.clear();
        }
    }

    /// Tags a packet of `bytes` that joined the queue of `class`.
    pub(super) fn on_enqueue(&mut self, class: usize, bytes: u32) {
        let (Some(&share), Some(&last)) = (self.share.get(class), self.last_finish.get(class))
        else {
            return;
        };
        let start = self.v.max(last);
        let finish = start + f64::from(bytes) / share;
        self.last_finish[class] = finish;
        // SCFQ computes one tag (the finish); SFQ two (start and finish).
        self.cost.tag_computations += match self.serve_by {
            ServeBy::Start => 2,
            ServeBy::Finish => 1,
        };
        let queue = &mut self.tags[class];
        queue.push_back((start, finish));
        self.queued += 1;
        if queue.len() == 1 {
            let key = self.key((start, finish));
            self.heads.push(key, class, &mut self.cost);
        }
    }

    /// The registers: selected class, `v`, head finish tags, and for SFQ head start tags.
    pub(super) fn registers(&self) -> Registers {
        let head = |pick: fn(&(f64, f64)) -> f64| -> Option<Vec<Option<f64>>> {
            Some(self.tags.iter().map(|q| q.front().map(pick)).collect())
        };
        Registers {
            selected: self.selected.map(|c| c as u32),
            virtual_time: Some(self.v),
            start_tags: match self.serve_by {
                ServeBy::Start => head(|t| t.0),
                ServeBy::Finish => None,
            },
            finish_tags: head(|t| t.1),
            ..Registers::default()
        }
    }
}
